/* load_gotext.h - Go's legacy text profiles, recognised and refused.
 *
 * Go's runtime/pprof writes text forms with ?debug=1 (and debug=2 for
 * goroutines): "goroutine profile: total N", "threadcreate profile: total
 * N", "heap profile: A: B [C: D] @ heap/R" (heap and allocs), "---
 * contention:" and "--- mutex:" (block and mutex), and the goroutine dump
 * "goroutine 1 [running]:".  Their first lines end in a number, so without
 * this entry a goroutine profile was taken for folded stacks and failed at
 * line 2.  stackscope does not read them: the loader refuses them with a
 * message that names what the file is and how to get the protobuf form,
 * which stackscope reads.
 */
#ifndef SS_LOAD_GOTEXT_H
#define SS_LOAD_GOTEXT_H

#include <stddef.h>

#include "model.h"
#include "reader.h"

/* Refuse the file (SS_EINPUT with the message above). */
int ss_load_gotext(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err);

/* Is the first line of p[0..n) (after a UTF-8 byte order mark, if any)
 * the header of one of Go's text profiles?
 * 1 (and *what names it), 0, or -1 (the first line has not ended). */
int ss_gotext_sniff(const char *p, size_t n, int whole, const char **what);

#endif
