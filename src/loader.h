/* loader.h - what every loader shares with the front door (load.h): the
 * options of a load, progress reports, and what to say when a file
 * changed while it was read.  Loaders include this, never load.h: the
 * front door reads the format table, which names the loaders. */
#ifndef SS_LOADER_H
#define SS_LOADER_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"

/* For loaders: after reading the file of r (`path`) into m, whose count of
 * samples was `before` (m->count_total), with result rc:
 * say what happened when the file changed while it was read (reader.h's
 * ss_reader_changed).  Cut (bytes not read yet were gone): an error
 * "PATH: cut while being read" when rc is one (the input ended early) or
 * the format is parsed whole (`whole`, or ss_reader_whole was used: what
 * was parsed was not the file), else a warning that m keeps the samples
 * of the lines before the cut.  Grown, replaced, shrunk after it was read
 * or modified: a warning (the error's message says it when rc is one).
 * Returns the result: rc, or SS_EINPUT. */
struct ss_reader;
int ss_load_changed(struct ss_model *m, struct ss_reader *r, const char *path, uint64_t before,
                    int whole, int rc, struct ss_error *err);

/* Progress of a load (a load over half a second shows it:
 * stackscope(1), ENVIRONMENT).  Loaders report now and then (every chunk or so
 * many lines) through the callback of their ss_load_opts; the core
 * prints nothing, the command line and the explorer decide when and how to
 * show it. */
struct ss_progress {
    const char *path; /* the file being read (borrowed) */
    uint64_t done;    /* its bytes read so far */
    uint64_t total;   /* its size, 0 when unknown (a pipe) */
    uint64_t samples; /* samples in the model so far (every file loaded) */
    int file, nfiles; /* which of the files being loaded (0-based), and how many */
};
typedef void (*ss_progress_fn)(void *ctx, const struct ss_progress *p);

/* Options of a load.  The core holds no process-wide configuration: what
 * the command line and the explorer choose travels here.  A NULL pointer,
 * or a struct whose fields are all zero, means the defaults. */
struct ss_load_opts {
    /* Called as files load (NULL: no reports), from the loading thread
     * only, never from a worker. */
    ss_progress_fn progress;
    void *progress_ctx;
    /* Keep files of different kinds (a CPU and a heap profile: different
     * sample types) as separate sources, with a warning (the command line's
     * --mixed, or a measure chosen with --value), instead of refusing them. */
    int mixed;
    /* The interval (microseconds) of folded sources: the command line's
     * --interval (folded stacks carry no period of their own).  0: the
     * default, SS_FOLDED_INTERVAL_US, and the counts have no time. */
    double folded_interval_us;
    /* Do not apply pprof profiles' drop_frames and keep_frames (the command
     * line's --no-drop-frames; by default they are applied as Go's pprof
     * applies them). */
    int no_drop_frames;
};

/* For loaders: report that `done` of the `total` bytes of `path` are read
 * and the model holds `samples` samples, through the progress callback of
 * the options r was given (r->opts; nothing when there is none). */
void ss_load_progress(const struct ss_reader *r, const char *path, uint64_t done, uint64_t total,
                      uint64_t samples);

#endif
