/* main.c - the stackscope program: hands over to the command line. */
#include "cli.h"

int main(int argc, char **argv)
{
    return ss_cli_main(argc, argv);
}
