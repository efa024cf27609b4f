/* load.h - open any supported profile and add it to a model.
 *
 * Detects the format from the content (not the file name), by structure,
 * asking each format of the table in format.c in its detection order: a
 * directory is v2 tables; then an Rprof header, a SamplingProf runtime
 * followed by a blank line, pprof (the gzip magic, or a whole well-formed
 * prefix of profile.proto's wire format), Chrome/Node .cpuprofile JSON,
 * speedscope JSON, Go's text profiles (recognised and refused), perf script
 * text, and last a folded line `STACK COUNT` (read whole, however long).  A
 * file that is none of these is refused with a message naming every format
 * tried and why each did not fit.  Several files loaded into one model become
 * several sources.
 */
#ifndef SS_LOAD_H
#define SS_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "model.h"

/* Load the profile at `path` into m.  Returns 0, or an error code with err
 * naming the file and where it went wrong.  On error m may hold part of the
 * file; callers discard it. */
int ss_load_file(struct ss_model *m, const char *path, struct ss_error *err);

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

/* The interval (microseconds, > 0) of folded sources loaded from now on:
 * the command line's --interval (process-wide; folded stacks carry no
 * period of their own). */
void ss_load_set_folded_interval(double us);

/* Whether pprof profiles' drop_frames and keep_frames are applied, as Go's
 * pprof applies them (on by default; the command line's --no-drop-frames
 * turns it off).  Process-wide. */
void ss_load_set_drop_frames(int on);

/* Whether ss_load_files keeps files of different kinds (a CPU and a heap
 * profile: different sample types) as separate sources, with a warning
 * (the command line's --mixed, or a measure chosen with --value), instead
 * of refusing them.  Process-wide. */
void ss_load_set_mixed(int on);

/* Progress of a load (a load over half a second shows it:
 * stackscope(1), ENVIRONMENT).  Loaders report now and then (every chunk or so
 * many lines) through the callback set with ss_load_set_progress; the core
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

/* Call fn(ctx, ...) as files load (NULL: no reports).  Process-wide; the
 * callback may be called from the loading thread only, never from a
 * worker. */
void ss_load_set_progress(ss_progress_fn fn, void *ctx);

/* For loaders: report that `done` of the `total` bytes of `path` are read
 * and the model holds `samples` samples. */
void ss_load_progress(const char *path, uint64_t done, uint64_t total, uint64_t samples);

/* Load several files into a freshly initialised model and seal it.  Files
 * of different kinds are refused (SS_EINPUT, naming both files and their
 * sample types) unless ss_load_set_mixed(1). */
int ss_load_files(struct ss_model *m, char *const *paths, int n, struct ss_error *err);

/* The format of a file whose first `n` bytes are `p` (format.h), tried in
 * the table's detection order.  `whole`: p holds the whole file.  `size`:
 * the file's size when known (a regular file), else 0.  NULL with *more set
 * when the answer needs more bytes (the first line has not ended yet);
 * NULL with *more clear when nothing fits: then `why` (when not NULL, `cap`
 * bytes) receives the message after the file's name: ":LINE" (the first
 * line that is not blank) and ": not a profile format ...; tried", then
 * every format tried with its reason. */
const struct ss_format *ss_sniff(const unsigned char *p, size_t n, int whole, uint64_t size,
                                 int *more, char *why, size_t cap);

#endif
