/* load_folded.h - reader of folded stacks (stackscope(1), Folded stacks), the
 * format of flamegraph.pl's stackcollapse scripts, inferno and speedscope:
 *
 *     root;caller;leaf COUNT
 *
 * one distinct stack per line, function names root first joined by ';',
 * then one space (or tab) and a whole number.  Each line becomes one sample
 * row whose count value (samples/count) is COUNT; rows are not expanded.
 * The file is one source of type "folded" with an interval of 1 s (the
 * format has no time), so a function's time in seconds equals its count.
 *
 * Strict: trailing spaces, tabs and CR are ignored, blank lines are
 * skipped, a line with count 0 adds nothing (one warning says how many);
 * anything else that is not `STACK COUNT` (no count, a count that is not a
 * whole number or above 10^15, an empty stack, a NUL byte) is an error
 * naming the file and line.  There are no comments: a line starting with
 * '#' is a stack like any other.
 *
 * A difference, as flamegraph's difffolded.pl, inferno-diff-folded and
 * stackscope's folded writer of a comparison write it, has two counts on
 * every line: `STACK BASE NEW`.  A file is read as one when every line of
 * its first SS_FOLDED_DIFF_WINDOW bytes (its first line, however long, and
 * every line that ends within them) has two counts; then every line must,
 * and the file becomes two sources: the new side's counts, and the base's
 * in a source flagged SS_SRC_BASE, so that `report` and the explorer
 * compare them as they compare a pprof difference (compare.h).  The folded
 * writer refuses to write a profile that is no comparison as lines that
 * would read back so.
 */
#ifndef SS_LOAD_FOLDED_H
#define SS_LOAD_FOLDED_H

#include <stddef.h>

#include "limits.h"
#include "model.h"
#include "reader.h"

/* Interval given to folded sources, in microseconds (1 s: time = count),
 * unless the load's options (load.h, ss_load_opts.folded_interval_us: the
 * command line's --interval) give another.  Folded stacks carry no period
 * of their own (flamegraph.pl, inferno and speedscope treat their counts as
 * plain counts), so that is the user's statement of it: `--interval 1ms`
 * makes a count of 1000 samples read 1 s. */
#define SS_FOLDED_INTERVAL_US 1e6

/* Do the first `n` bytes of a file (`whole`: the whole file) look like
 * folded stacks?  Decided by the first line that is not blank (spaces, tabs
 * and CR ignored), read whole: 1 when it is `STACK COUNT` (whatever bytes
 * the names hold, NUL excepted), 0 when not, with the reason in *why and
 * its line number in *line_no (0 when there is no such line), -1 when that
 * line has not ended within the n bytes and the file goes on.  An Rprof
 * header never matches (it has no count). */
int ss_folded_sniff(const char *p, size_t n, int whole, const char **why, uint64_t *line_no);

/* Is the start of a folded file, p[0..n) (`whole`: all of it), a
 * difference: every line (the first, and those that end within
 * SS_FOLDED_DIFF_WINDOW bytes) `STACK BASE NEW`, with at least one? */
int ss_folded_is_diff(const char *p, size_t n, int whole);

/* Load folded stacks from an open reader into m as one new source, with
 * the interval of r->opts (see SS_FOLDED_INTERVAL_US).  `path` names the
 * file in messages.  Returns 0 or an error code with err naming
 * the file and line. */
int ss_load_folded(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err);

/* Parse one folded line (without its line end): on success sets *stack,
 * *stack_len (the frames text, root first, joined by ';') and *count, and
 * returns 0; 1 for a blank line; -1 with a reason in *why otherwise. */
int ss_folded_parse_line(const char *s, size_t len, const char **stack, size_t *stack_len,
                         uint64_t *count, const char **why);

/* Following a folded file while it is written (follow.h): each batch of
 * whole lines (ending in LF), read through r (the follower's reader aimed
 * at it: ss_reader_over), adds its rows to the one source the stream made,
 * of interval interval_us (0: SS_FOLDED_INTERVAL_US, counts only).  A
 * difference (two counts) is not told from a name with a space.  The model
 * is given with every call (the caller may have moved the struct); it must
 * be the same one, not sealed. */
struct ss_folded_stream;
struct ss_folded_stream *ss_folded_stream_new(struct ss_model *m, const char *path,
                                              double interval_us, struct ss_error *err);
int ss_folded_stream_feed(struct ss_folded_stream *s, struct ss_model *m, struct ss_reader *r,
                          struct ss_error *err);
void ss_folded_stream_free(struct ss_folded_stream *s);

#endif
