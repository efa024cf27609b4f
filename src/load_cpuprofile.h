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
 *   "(idle)" and "(garbage collector)" are kept as frames; a function
 *   without a name is "(anonymous FILE:LINE)", FILE the last part of its
 *   url (speedscope's name; DevTools shows "(anonymous)" beside FILE:LINE),
 *   ":COLUMN" added when anonymous functions start at several columns of
 *   that line, so each stays a function of its own.
 * - A frame is the function (name, url as its file, lineNumber + 1 as its
 *   start line) at the location url#(lineNumber + 1); a sample's own frame
 *   is at the line its node's positionTicks give (their ticks taken in
 *   turn), or the trace's line of the sample, when there is one.
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

/* The parts of a CPU profile, as JSON node ids of a parsed document: a
 * .cpuprofile has them in its arrays, a Chrome trace spread over its
 * ProfileChunk events (load_trace.c). */
struct ss_cpuprofile_parts {
    const uint32_t *nodes; /* node objects */
    size_t n_nodes;
    const uint32_t *samples, *deltas; /* per sample: its node id and time delta (numbers) */
    const uint32_t
        *lines; /* per sample: its line (a trace's "lines"; SS_JSON_NONE: none), or NULL */
    size_t n_samples;
    double start, end; /* microseconds; end only with has_end */
    int has_end;
    const char *type; /* the source's type: "cpuprofile", "chrome_trace" */
    uint32_t session; /* its number in the file (1-based) */
};

/* Add the profile of `pt` (parts of document j) to m as one source, as
 * this header describes.  Returns 0 or an error naming `path` and the
 * byte offset. */
struct ss_json;
int ss_cpuprofile_build(struct ss_model *m, const struct ss_json *j,
                        const struct ss_cpuprofile_parts *pt, const char *path,
                        struct ss_error *err);

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
