/* cli.h - the command line (stackscope(1), COMMANDS): the commands report,
 * convert and check, and the explorer's entry (no command).  Every option is
 * one line of the table in options.c (name, short name, argument, the
 * commands that take it, its setter, its help and its man-page text), which
 * drives getopt_long and prints --help and the man page's OPTIONS.
 * ss_cli_main returns the process exit status: 0 success, 1 usage error, 2
 * bad input. */
#ifndef SS_CLI_H
#define SS_CLI_H

struct ss_explore;

/* The interactive UI, supplied by the program (main.c) so that the core
 * never links curses.  `available` says whether it can run here (a terminal,
 * or a headless script); `run` gets the explorer's whole input (explore.h),
 * takes over what it owns (the models and the transform list: it frees
 * them) and returns the exit status.  With no UI, or when it is not
 * available, the no-command mode prints the report instead. */
struct ss_cli_ui {
    int (*available)(void);
    int (*run)(struct ss_explore *in);
};

int ss_cli_main(int argc, char **argv, const struct ss_cli_ui *ui);

/* Path of the bundled demo profile (borrowed static string). */
const char *ss_demo_path(void);

#endif
