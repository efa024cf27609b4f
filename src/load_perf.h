/* load_perf.h - reader of `perf script` text (Linux perf).
 *
 * The default output of `perf script` on a `perf record [-g]` capture: a
 * header line per sample, then (with call chains) one frame per line,
 * leaf first, then a blank line:
 *
 *     gzip  2582 [001]  4919.377196:    1001001 cpu-clock:ppp:
 *             ffffffff813a2313 finish_task_switch.isra.0+0x93 ([kernel.kallsyms])
 *                         4330 [unknown] (/usr/bin/gzip)
 *
 * The header is COMM (may hold spaces), TID or PID/TID, an optional [CPU],
 * the timestamp (seconds, "N.N:"), an optional period and the event name
 * (with its ":ppp"-style modifiers); without call chains the one frame
 * follows the event on the same line.  A frame line is an address, an
 * optional symbol (`sym+0xoff` is read as `sym`; none is "[unknown]", as
 * perf's own stackcollapse writes it) and an optional "(DSO)".  Lines
 * starting with '#' (perf script --header) are skipped.
 *
 * One file is one source of type "perf"; samples keep file order (perf
 * script prints them in time order).  As perf's `stackcollapse` does, the
 * command name (spaces made '_') is each stack's outermost frame, so that
 * `report --by stacks --format folded` equals `perf script report
 * stackcollapse`.  The period of a cpu-clock or task-clock sample is its
 * duration in nanoseconds, kept per sample as the value type "duration"
 * (nanoseconds); the source's interval is their mean, so the time adds up
 * to the sum of the periods.  Other events' periods are kept as the value
 * type "events" (count), with an interval of 1 s (times are sample
 * counts).  PID, TID and CPU are not kept.
 */
#ifndef SS_LOAD_PERF_H
#define SS_LOAD_PERF_H

#include <stddef.h>

#include "model.h"
#include "reader.h"

int ss_load_perf(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err);

/* Is the first line of p[0..n) that is neither blank nor a '#' comment a
 * perf script sample header?  1, 0 (*why says why) or -1 (need more). */
int ss_perf_sniff(const char *p, size_t n, int whole, const char **why);

/* Following a perf script file while it is written (follow.h): each batch
 * of whole lines (ending in LF), read through r (the follower's reader
 * aimed at it: ss_reader_over), adds its samples to the one source the
 * stream made; a sample is added once its blank line (or the next header)
 * is read, and the last one at the end (ss_perf_stream_end).  `resync`
 * (following from the end of the file): the frame lines before the first
 * sample header, the rest of a sample begun before, are passed over.  The
 * model is given with every call: the same one, not sealed. */
struct ss_perf_stream;
struct ss_perf_stream *ss_perf_stream_new(struct ss_model *m, const char *path, int resync,
                                          struct ss_error *err);
int ss_perf_stream_feed(struct ss_perf_stream *s, struct ss_model *m, struct ss_reader *r,
                        struct ss_error *err);
int ss_perf_stream_end(struct ss_perf_stream *s, struct ss_model *m, struct ss_error *err);
void ss_perf_stream_free(struct ss_perf_stream *s);

#endif
