/* load_trace.h - Chrome's trace files: the CPU profiles in a JSON trace
 * (read), and a Perfetto protobuf trace (recognised and refused).
 *
 * A JSON trace is what DevTools' Performance panel saves ("Save profile")
 * and what Chrome writes with --trace-startup-format=json or
 * --enable-tracing: {"traceEvents": [...], ...} or a bare array of events.
 * The V8 CPU profiler (category disabled-by-default-v8.cpu_profiler) puts
 * its profiles there as a "Profile" event (args.data.startTime, in
 * microseconds) and "ProfileChunk" events with the same pid and id, each
 * holding more nodes (with `parent` ids), samples, timeDeltas and, from
 * Chrome 8x on, "lines" (the line of each sample); an older trace has one
 * "CpuProfile" event with the whole profile.  Each profile becomes one
 * source of type "chrome_trace" (session 1, 2, ... in the file's order),
 * read as a .cpuprofile is (load_cpuprofile.h: the same frames, durations
 * and lines), its thread's name (the thread_name metadata event of its
 * pid and tid) as the meta entry "thread".  Chunks are taken in the
 * events' time order (ts), as speedscope does.  A trace without a CPU
 * profile is refused with a message saying how to record one.
 *
 * Chrome's default trace format (--trace-startup without a format,
 * Perfetto's protobuf: a stream of `packet` fields, field 1) is no pprof
 * file, though its first bytes are well-formed profile.proto: it is
 * recognised and refused with a message that says how to get JSON.
 */
#ifndef SS_LOAD_TRACE_H
#define SS_LOAD_TRACE_H

#include <stddef.h>

#include "model.h"
#include "reader.h"

/* Load the CPU profiles of a JSON trace into m, one source each. */
int ss_load_trace(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err);

/* The same from memory (unit tests, fuzzing). */
int ss_load_trace_mem(struct ss_model *m, const char *p, size_t n, const char *path,
                      struct ss_error *err);

/* Does p[0..n) start a JSON trace: an object with a "traceEvents" array,
 * or an array whose first element is an object with a "ph" member?  1, 0
 * (why says why) or -1 (need more). */
int ss_trace_sniff(const unsigned char *p, size_t n, int whole, const char **why);

/* Is p[0..n) a Perfetto protobuf trace: only field 1 (length-delimited)
 * at the top level, at least 16 of them or the whole file?  1 or 0. */
int ss_perfetto_sniff(const unsigned char *p, size_t n, int whole, const char **why);

/* Refuse a Perfetto trace (SS_EINPUT, saying how to get JSON). */
int ss_load_perfetto(struct ss_model *m, struct ss_reader *r, const char *path,
                     struct ss_error *err);

#endif
