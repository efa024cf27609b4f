/* load_pprof.h - reader of pprof profiles (profile.proto;
 * stackscope(1), PPROF).
 *
 * Reads the gzip-compressed or raw protobuf files that Go's pprof, Go's
 * runtime/pprof, RProtoBuf, the R `profile` package and stackscope write.
 * One file becomes one source of type "pprof":
 *
 * - Every sample type becomes a value type.  The count column (value type
 *   0, what statistics count) is the sample type named "samples"; failing
 *   that the first type whose unit is "count" (contentions, alloc_objects);
 *   failing that a type equal to the period type, divided by the period;
 *   failing all of these every pprof sample counts 1.
 * - The interval is the period when period_type has a time unit
 *   (nanoseconds ... hours); otherwise 1 s, with a warning, so that "times"
 *   are counts.  time_nanos gives the timestamp.
 * - Mappings become the model's mappings.  Each Location expands to its
 *   Line entries, innermost first, each a model location with the
 *   location's address and mapping; all but the last are SS_LOC_INLINE
 *   (inlined into the next).  A Location without lines becomes a frame
 *   named after its mapping's file, as pprof shows it ("[libc.so.6]"; else
 *   "<unknown>"), SS_LOC_NO_LINE.
 * - drop_frames and keep_frames are applied as Go's pprof applies them
 *   (unless the load's options say no_drop_frames: load.h).
 * - Samples keep file order, one model sample per pprof sample (a pprof
 *   sample with count 5 stays one sample with count 5).
 * - Comments, duration, drop_frames, keep_frames, default_sample_type,
 *   period_type, period and time_nanos become meta entries of the source.
 * - Labels are not kept: a warning says how many samples carried them.
 *
 * Everything read from the file is checked (ids, string indexes, lengths)
 * before use; bad input is an SS_EINPUT error naming the file and the byte
 * offset (in the decompressed data for protobuf errors).
 */
#ifndef SS_LOAD_PPROF_H
#define SS_LOAD_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "reader.h"

/* SS_PPROF_MAX_BYTES, the largest decompressed profile accepted, is in
 * limits.h: the pprof writer refuses to write more. */
#include "limits.h"

/* Load a pprof profile from an open reader (positioned at the start of the
 * file) into m as one source, with the options r->opts.  `path` names the
 * file in messages.  Returns
 * 0 or an error code. */
int ss_load_pprof(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err);

/* Load a pprof profile held in memory (gzip-compressed or raw), with
 * `max_bytes` as the limit on the decompressed size and the options o
 * (load.h; NULL: defaults).  drop_frames and keep_frames are applied as Go's
 * pprof applies them (pprof's Prune: a sample loses the frames from the
 * outermost one whose function matches drop_frames, and not keep_frames,
 * inward; the frames before the first that does not match are kept) unless
 * o->no_drop_frames.  For ss_load_pprof and the unit tests. */
struct ss_load_opts;
int ss_load_pprof_mem(struct ss_model *m, const unsigned char *data, size_t len, size_t max_bytes,
                      const struct ss_load_opts *o, const char *path, struct ss_error *err);

/* Inflate the gzip members of in[0..len) in one pass (libdeflate, on
 * threads, each member at the offset the sizes in the trailers before it
 * give) into a new buffer of at most `budget` bytes.  Returns 1 with *out,
 * *out_len set (caller frees); 0 when it does not read them (members not
 * as their trailers say, a sum over the budget, bad or truncated data,
 * data after the end, no libdeflate): the loader's zlib pass then reads
 * them or names the error; -1 when memory ran out.  For the loader and
 * the unit tests. */
int ss_pprof_inflate_members(const unsigned char *in, size_t len, size_t budget,
                             unsigned char **out, size_t *out_len);

/* Is p[0..n) the start of a raw (uncompressed) Profile message?  Its
 * structure is checked, not a window: every tag must be a field of
 * profile.proto with its wire type, nested messages well formed, lengths
 * within the file (`size`, when known) and the data (which may be cut
 * inside its last field only when not `whole`); the string table's first
 * entry must be empty, and a whole file must have one.  Returns 1, or 0
 * with the reason in *why and its byte offset in *at. */
int ss_pprof_sniff_raw(const unsigned char *p, size_t n, int whole, uint64_t size, const char **why,
                       size_t *at);

#endif
