/* cli.h - the command line (stackscope(1), COMMANDS): the commands report,
 * convert and check, and the explorer's entry (no command).  Every option is
 * one line of the table in cli.c (name, short name, argument, the commands
 * that take it, its setter and its help), which drives getopt_long and prints
 * --help.  ss_cli_main returns the process exit status: 0 success, 1 usage
 * error, 2 bad input. */
#ifndef SS_CLI_H
#define SS_CLI_H

#include <stddef.h>

struct ss_model;
struct ss_tf_list;

/* The interactive UI, supplied by the program (main.c) so that the core
 * never links curses.  `available` says whether it can run here (a terminal,
 * or a headless script); `run` takes over the loaded model (it frees it) and
 * returns the exit status.  With no UI, or when it is not available, the
 * no-command mode prints the report instead. */
struct ss_cli_ui {
    int (*available)(void);
    int (*run)(struct ss_model *m, char *const *files, int nfiles, struct ss_tf_list *resumed);
};

int ss_cli_main(int argc, char **argv, const struct ss_cli_ui *ui);

/* 1 when the explorer's first transform list (run's `resumed`) holds the
 * saved session of --resume, 0 when it holds only the steps of --preset, -e
 * and --script. */
int ss_cli_resumed(void);

/* The explorer's --source-path directories, in order (borrowed; valid for
 * the life of the process): where the lines view looks for source files. */
const char *const *ss_cli_source_paths(size_t *n);
/* The --source-map rewrites, in order (source.h; borrowed the same way). */
struct ss_source_map;
const struct ss_source_map *ss_cli_source_maps(size_t *n);

/* The explorer's comparison base (--base FILE..., or the base of a pprof
 * difference profile), loaded and weighed by the profile's measure, or
 * NULL when nothing is compared; *normalize is --normalize.  The caller
 * takes the model over (it frees it; the pointer stays valid); a second
 * call returns NULL. */
struct ss_model *ss_cli_take_base(int *normalize);

/* --compare-phases A,B: 1 with *base and *cur the phases as keep-phase
 * names them ("1", "main"; static), else 0.  The explorer applies them
 * itself (ss_tf_apply_then). */
int ss_cli_compare_phases(const char **base, const char **cur);

/* --alpha: the level of the verdicts (verdict.h), 0.05 unless given. */
double ss_cli_alpha(void);

/* The --base files, in order (borrowed from argv; *n of them): inputs that
 * an output (:w) may not replace either. */
char *const *ss_cli_base_files(int *n);

/* Path of the bundled demo profile (borrowed static string). */
const char *ss_demo_path(void);

#endif
