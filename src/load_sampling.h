/* load_sampling.h - reader of the SamplingProf Ruby gem's output
 * (stackscope(1), SamplingProf).
 *
 * The gem writes four chunks separated by blank lines:
 *   1. the runtime in milliseconds (one number; JRuby writes an integer, MRI
 *      a decimal);
 *   2. the call element map, one `FILE:LINE:METHOD,ID` per line;
 *   3. counts, one `ID,SELF,TOTAL` per call element;
 *   4. the call graph, one `FROM,TO,COUNT` per edge, FROM -1 for the root.
 * Per sample the gem counts SELF for the innermost element, TOTAL once for
 * every distinct element of the stack, and COUNT once for every distinct
 * (caller, callee) pair, starting from (-1, outermost).  So the file holds
 * aggregates, never stacks.
 *
 * The loader adds one source of type "sampling_prof" with the flag
 * SS_SRC_AGGREGATE and no raw samples; each call element becomes a location
 * (function = METHOD with filename FILE, file FILE, line LINE; an empty FILE
 * is "no file") with its counts in m->aggs, and each call-graph line an entry
 * of m->edges.  The source's interval is runtime / samples, where samples is
 * the sum of the self counts (the gem's own "total samples"), so times add
 * up to the runtime; with a runtime of 0 the gem's default period (0.1 s) is
 * used and a warning says so.  The runtime as written is kept as the meta
 * entry "runtime_ms" of the source.
 *
 * A call element is split at its last comma (the id) and, in the rest, at
 * the first ":DIGITS:" (so a path may hold colons that are not followed by
 * digits and a colon, such as "C:/x.rb" or "<internal:kernel>", and a method
 * may hold anything).
 */
#ifndef SS_LOAD_SAMPLING_H
#define SS_LOAD_SAMPLING_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "reader.h"

/* True when the first `n` bytes of a file look like SamplingProf output: a
 * first line of number characters (digits, '.', '-', '+', 'e') that starts
 * with a digit, '-' or '.', followed by a blank line. */
int ss_sampling_prof_sniff(const char *p, size_t n);

/* Load a SamplingProf file from an open reader into m (one source).  `path`
 * names the file in messages.  Returns 0, or SS_EINPUT with err naming the
 * file and line (a missing chunk, a malformed line, a number out of range,
 * an id used but not defined or defined twice, self > total), or SS_ENOMEM. */
int ss_load_sampling_prof(struct ss_model *m, struct ss_reader *r, const char *path,
                          struct ss_error *err);

#endif
