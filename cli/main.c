/* main.c - the stackscope program: the command line, with the ncurses UI
 * plugged in (the core library never links curses). */
#include "cli.h"
#include "ui.h"

int main(int argc, char **argv)
{
    static const struct ss_cli_ui ui = {ss_ui_available, ss_ui_main};
    return ss_cli_main(argc, argv, &ui);
}
