/* load_speedscope.h - reader of speedscope's JSON file format.
 *
 * The format speedscope saves and py-spy, rbspy, Austin and dotnet-trace
 * write (speedscope's src/lib/file-format-spec.ts): {"$schema":
 * "https://www.speedscope.app/file-format-schema.json", "shared": {"frames":
 * [{name, file?, line?, col?}]}, "profiles": [...]}.  The "$schema" member
 * is what tells it apart from other JSON.
 *
 * Each profile becomes one source of type "speedscope" (session = its
 * 1-based position in the file; its name is kept as the source's meta
 * "name").  A frame is the function `name` (with `file` as its file) at
 * line `line` (0 when absent); `col` is not kept.
 * - "sampled" profiles: sample i is samples[i] (frame indices, root first)
 *   with weight weights[i], in file order.
 * - "evented" profiles: open ("O") and close ("C") events in non-decreasing
 *   "at" order, balanced; each stretch between two events during which a
 *   frame is open becomes one sample of the open frames with the stretch's
 *   length as its weight (as speedscope draws them).
 * Weights by the profile's unit:
 * - a time unit (nanoseconds ... seconds): each sample counts 1 and keeps
 *   its weight exactly, in nanoseconds, as the value type "duration"; the
 *   source's interval is the mean weight, so times add up to the weights'
 *   sum;
 * - "none": a weight is a count (a whole number up to 10^15; weight 0
 *   samples are left out with a warning); interval 1 s, as folded stacks;
 * - "bytes": each sample counts 1 and keeps its weight as the value type
 *   "space" in bytes; interval 1 s.
 * Errors name the file and the byte offset of the value at fault.
 */
#ifndef SS_LOAD_SPEEDSCOPE_H
#define SS_LOAD_SPEEDSCOPE_H

#include <stddef.h>

#include "model.h"
#include "reader.h"
#include "speedscope.h"

int ss_load_speedscope(struct ss_model *m, struct ss_reader *r, const char *path,
                       struct ss_error *err);

/* Load one from memory (unit tests, fuzzing). */
int ss_load_speedscope_mem(struct ss_model *m, const char *p, size_t n, const char *path,
                           struct ss_error *err);

/* Does the file that starts with p[0..n) look like speedscope's format: a
 * JSON object with a "$schema" member whose value is SS_SPEEDSCOPE_SCHEMA?
 * 1, 0 (why says why) or -1 (need more). */
int ss_speedscope_sniff(const unsigned char *p, size_t n, int whole, const char **why);

#endif
