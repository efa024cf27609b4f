/* limits.h - the limits that readers and writers share.
 *
 * A reader refuses absurd numbers instead of trusting them; a
 * writer refuses to write what a reader would refuse, so that every file
 * stackscope writes, it reads back.  Both sides take their limits from
 * here; the man page (FORMATS) lists them.
 */
#ifndef SS_LIMITS_H
#define SS_LIMITS_H

#include <stdint.h>

/* One count: a SamplingProf self, total or call count, an aggregate or a
 * call-graph count in the tables, a folded line's count. */
#define SS_MAX_COUNT 1000000000000000LL /* 10^15 */

/* A SamplingProf runtime, in milliseconds. */
#define SS_MAX_RUNTIME_MS 1e15

/* A source's sampling interval, in microseconds (tables' interval_us).
 * The largest a loader derives: a SamplingProf runtime of 10^15 ms over
 * one sample. */
#define SS_MAX_INTERVAL_US 1e18

/* Frames of one stack, in every reader of a format stackscope writes
 * (Rprof, folded, pprof (its PP_MAX_FRAMES, the same number), tables,
 * speedscope); the writers refuse a deeper
 * stack (a transform such as label-root can add a frame). */
#define SS_MAX_FRAMES 1000000

/* The bytes of a folded file that decide whether it is a difference
 * (STACK BASE NEW lines: load_folded.h): its reader looks at the lines
 * that end within them, and its writer does not write a profile that is no
 * comparison as lines that would read so. */
#define SS_FOLDED_DIFF_WINDOW ((size_t)1 << 20)

/* The longest line of a text input read from a pipe or device (256 MiB).
 * A line of a regular file has no limit but the file's size: a line is
 * never longer than its file (read, the buffer holds at most twice it). */
#define SS_MAX_STREAM_LINE ((size_t)256 << 20)

/* A sample's weight in a time unit (speedscope), in nanoseconds: what an
 * int64 holds, rounded down. */
#define SS_MAX_WEIGHT_NS 9e18

/* A line number (the model holds 32 bits; UINT32_MAX is kept free). */
#define SS_MAX_LINE_NO (UINT32_MAX - 1)

/* A SamplingProf call element id (the gem's Java int). */
#define SS_MAX_ELEMENT_ID 2147483647LL

/* Lines of an Rprof file the writer writes (a sample of count k is k
 * lines): more is refused, --force or not. */
#define SS_MAX_RPROF_LINES 1000000000ULL

/* Value types (sample types) of one tables directory. */
#define SS_MAX_VALUE_TYPES 4096

/* The values a tables directory may make the model hold (samples x value
 * types, the model's dense columns), beyond the bytes of its samples.tsv
 * and sample_values.tsv: every row of those files is several bytes, so a
 * directory that lists every value of every sample (as the writer does)
 * always fits, and one that claims more values than it holds cannot make
 * the reader allocate or loop far beyond its size. */
#define SS_TABLES_SLACK_VALUES (1u << 20)

/* The largest decompressed pprof profile the reader takes (a guard against
 * gzip bombs), and the largest JSON text (node and string offsets are
 * 32-bit); the pprof and speedscope writers refuse to write more. */
#define SS_PPROF_MAX_BYTES ((size_t)1 << 30)
#define SS_JSON_MAX_BYTES ((size_t)1 << 30)

#endif
