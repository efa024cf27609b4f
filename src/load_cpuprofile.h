/* load_cpuprofile.h - reader of Chrome/Node CPU profiles (.cpuprofile).
 *
 * The DevTools CPU profile JSON that `node --cpu-prof` and Chrome's
 * DevTools write: {"nodes": [...], "startTime": T0, "endTime": T1,
 * "samples": [node ids], "timeDeltas": [microseconds]}.  Each node has an
 * integer `id`, a `callFrame` {functionName, url, lineNumber, columnNumber}
 * (0-based line and column, -1 when unknown) and `children` (node ids), or
 * a `parent` id instead (Chrome's trace-event chunks).
 *
 * One file becomes one source of type "cpuprofile":
 * - A sample's stack is the path from the tree's root to its node, leaf
 *   first; the parentless "(root)" node is not a frame (as DevTools shows
 *   it), so a sample of "(root)" itself has an empty stack.  "(program)",
 *   "(idle)" and "(garbage collector)" are kept as frames; an empty
 *   functionName is "(anonymous)", as DevTools shows it.
 * - A frame is the function (name, url as its file, lineNumber + 1 as its
 *   start line) at the location url#(lineNumber + 1); the column is not
 *   kept.
 * - Samples in time order: sample i is taken at startTime + timeDeltas[0]
 *   + ... + timeDeltas[i]; when a delta is negative (Chrome may write
 *   samples slightly out of order) the samples are put in time order (a
 *   stable sort), as DevTools does.
 * - A sample's duration is the time to the next sample (the last one's to
 *   endTime, 0 if endTime is earlier), kept exactly as the value type
 *   "duration" in nanoseconds.  The source's interval is the mean duration,
 *   so time = samples x interval adds up to the profile's length.
 *
 * Everything is checked: unknown or repeated node ids, a node with two
 * parents, cycles, a samples / timeDeltas length mismatch; errors name the
 * file and the byte offset of the value at fault.
 */
#ifndef SS_LOAD_CPUPROFILE_H
#define SS_LOAD_CPUPROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "reader.h"

/* Load a .cpuprofile from an open reader into m as one source. */
int ss_load_cpuprofile(struct ss_model *m, struct ss_reader *r, const char *path,
                       struct ss_error *err);

/* Load one from memory (unit tests, fuzzing). */
int ss_load_cpuprofile_mem(struct ss_model *m, const char *p, size_t n, const char *path,
                           struct ss_error *err);

/* Does the file that starts with p[0..n) look like a CPU profile: a JSON
 * object whose "nodes" member is an array whose first element is an object
 * with a "callFrame" member?  1, 0 (why says why) or -1 (need more). */
int ss_cpuprofile_sniff(const unsigned char *p, size_t n, int whole, const char **why);

#endif
