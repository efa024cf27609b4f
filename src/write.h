/* write.h - save a model in one of the output formats (stackscope(1), FORMATS).
 *
 * Every writer sees the model it is given (the transformed model when
 * transforms are in effect) and writes it whole.  ss_write_file() is the one
 * entry point for the program: it picks the format's writer (writers.h),
 * checks the target and writes atomically.  The rules, which the man page's FILES section repeats:
 *
 * - An input is never replaced: not an input file (by device and inode, so a
 *   hard link or a symbolic link to it counts), nor any file inside an input
 *   directory (the tables of a tables input).
 * - An existing output is replaced only with force.  Only regular files are
 *   replaced (a symbolic link is followed to a regular file, which is
 *   replaced and the link kept); a device, FIFO or socket is refused.  The
 *   replaced file keeps its permission bits, and its owner and group where
 *   the process may set them; group bits are dropped when the group cannot
 *   be kept, so a replacement never widens access.
 * - A tables directory is replaced only when it is empty or holds nothing
 *   but the files the tables writer writes, meta.tsv among them; anything
 *   else in it is refused, with or without force.
 * - The output goes to a temporary file (or directory) next to the target,
 *   named TARGET.stackscope-tmp-XXXXXX, is flushed and synced, and only then
 *   moved into place: a failed write removes it and leaves the old output
 *   untouched.  Without force the final name is created exclusively, so of
 *   two writers racing for one name the second fails with "exists" instead
 *   of replacing the first one's file.
 */
#ifndef SS_WRITE_H
#define SS_WRITE_H

#include <stdio.h>

#include "format.h"
#include "model.h"
#include "writers.h"

/* Options of ss_write_file.  The core holds no process-wide configuration:
 * what the command line and the explorer choose for a write travels here. */
struct ss_flame_opts;
struct ss_write_opts {
    enum ss_out_format format;
    int force;           /* replace an existing output */
    char *const *inputs; /* input files: never replaced */
    int n_inputs;
    /* SVG: the flame graph's options (flame.h; inverted, time order, the
     * order of children), NULL: the aggregated graph, roots at the bottom,
     * children by name (the command line's --inverted and --time-order;
     * the explorer's :w F.svg gives the flame view's) */
    const struct ss_flame_opts *svg;
    /* SVG of a comparison: the level of the verdicts (verdict.h; --alpha),
     * 0: 0.05.  Frames whose change is not a verdict of grew or shrank are
     * drawn in a neutral colour. */
    double svg_alpha;
};

/* Write m to `path`.  Returns 0 or an error code with err naming the path;
 * SS_EUSAGE when m has aggregate sources (SamplingProf) and the format needs
 * stacks (every format but sampling_prof and tables). */
int ss_write_file(const struct ss_model *m, const char *path, const struct ss_write_opts *o,
                  struct ss_error *err);

/* Write m to the open stream fp (convert -o -: standard output), named
 * `name` in messages, in o->format, which must be set and not a directory
 * format, after the checks ss_write_file makes.  Nothing is replaced, so
 * --force only lifts the size guard.  Returns 0 or an error code. */
int ss_write_stream(const struct ss_model *m, FILE *fp, const char *name,
                    const struct ss_write_opts *o, struct ss_error *err);

/* What writing m in `format` loses that the user should hear of (a
 * warning, not an error): into buf[0..n), "" when nothing.  Rprof and
 * SamplingProf hold count x interval: samples that each have their own time
 * (perf's and Chrome's durations, pprof's per-sample values: model.h,
 * time_column) lose it.  Returns 1 when there is something to say. */
int ss_write_loss(const struct ss_model *m, enum ss_out_format format, char *buf, size_t n);

/* 1 when `path` names one of o's inputs or a file inside an input directory
 * (the check ss_write_file makes; the explorer uses it for its messages). */
int ss_write_is_input(const char *path, const struct ss_write_opts *o);

/* The tag of temporary output names: TARGET.stackscope-tmp-XXXXXX. */
#define SS_WRITE_TMP_TAG ".stackscope-tmp-"

/* Remove the temporary file or directory of the write in progress, if any.
 * Async-signal-safe: a fatal-signal handler calls it before dying, so that a
 * killed conversion leaves no temporary file behind. */
void ss_write_abandon(void);

/* Write any text to `path` with the same checks and the same atomic
 * replacement as ss_write_file (o->format is not used): fill writes the
 * contents to f and returns 0 or an error code (`path` for messages). */
typedef int (*ss_fill_fn)(FILE *f, void *ctx, const char *path, struct ss_error *err);
int ss_write_with(const char *path, const struct ss_write_opts *o, ss_fill_fn fill, void *ctx,
                  struct ss_error *err);

#endif
