/* cli.h - the command line (DESIGN section 7): report, check, help, version.
 * Returns the process exit status: 0 success, 1 usage error, 2 bad input. */
#ifndef SS_CLI_H
#define SS_CLI_H

int ss_cli_main(int argc, char **argv);

/* Path of the bundled demo profile (borrowed static string). */
const char *ss_demo_path(void);

#endif
