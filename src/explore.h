/* explore.h - everything the explorer gets from the command line, in one
 * struct: the command line (cli/cli.c) fills it and hands it to the
 * explorer's entry point (struct ss_cli_ui in cli/cli.h, ss_ui_main in
 * ui/ui.h), so that the explorer never asks the command line for anything
 * (HACKING.md, Layers: ui/ includes no header of cli/).  It is the core's,
 * not either front end's: both include it, neither includes the other. */
#ifndef SS_EXPLORE_H
#define SS_EXPLORE_H

#include <stddef.h>
#include <string.h>

#include "model.h"

struct ss_source_map;
struct ss_follow;
struct ss_tf_list;

/* The explorer takes over the models and the transform list (it frees
 * them, whatever it returns, and leaves model and base empty); the names,
 * directories and source maps are borrowed, valid for the whole call. */
struct ss_explore {
    struct ss_model model; /* the profile, loaded and sealed */
    char *const *files;    /* its files (FILE..., or the demo) */
    int nfiles;

    /* A comparison (stackscope(1), COMPARING): --base FILE..., or the
     * base of a pprof difference profile, loaded and weighed by the
     * profile's measure; have_base is 0 when nothing is compared. */
    struct ss_model base;
    int have_base;
    int normalize; /* --normalize */
    double alpha;  /* --alpha: the level of the verdicts (verdict.h) */
    /* the --base files, in order: inputs that an output (:w) may not
     * replace either */
    char *const *base_files;
    int nbase_files;

    /* --compare-phases A,B: compare_phases is 1 and phase[0] is A, phase[1]
     * B, as keep-phase names them ("1", "main"); the explorer applies them
     * itself (ss_tf_apply_then). */
    int compare_phases;
    char phase[2][32];

    /* Where the lines view looks for source files (source.h): the
     * --source-path directories and the --source-map rewrites, in order. */
    const char *const *source_paths;
    size_t nsource_paths;
    const struct ss_source_map *source_maps;
    size_t nsource_maps;

    /* The transform list in effect from the start (NULL: none): the saved
     * session when `resumed` (--resume), else only the steps of --preset,
     * -e and --script. */
    struct ss_tf_list *start;
    int resumed;

    /* --follow: the file being followed as it is written (follow.h), the
     * model holding what was read of it so far; taken over.  NULL: none. */
    struct ss_follow *follow;
    /* --window DURATION ("10s"): the last DURATION compared with the run
     * before it (the explorer's :recent); NULL: not. */
    const char *window;
    /* --interval: the period of folded stacks (0: none), for :follow. */
    double folded_interval_us;
    /* --keep: a followed profile keeps only its last follow_keep_s
     * seconds of samples (0: all of them). */
    double follow_keep_s;
};

/* An explorer's input with nothing but the defaults: no files, no base,
 * the verdicts' level 0.05. */
static inline void ss_explore_init(struct ss_explore *e)
{
    memset(e, 0, sizeof *e);
    e->alpha = 0.05;
}

#endif
