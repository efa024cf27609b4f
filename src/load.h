/* load.h - open any supported profile and add it to a model.
 *
 * Detects the format from the content (not the file name), by structure,
 * asking each format of the table in format.c in its detection order: a
 * directory is v2 tables; then an Rprof header, a SamplingProf runtime
 * followed by a blank line, pprof (the gzip magic, or a whole well-formed
 * prefix of profile.proto's wire format), Chrome/Node .cpuprofile JSON,
 * speedscope JSON, Go's text profiles (recognised and refused), perf script
 * text, and last a folded line `STACK COUNT` (read whole, however long).  A
 * file that is none of these is refused with a message naming every format
 * tried and why each did not fit.  Several files loaded into one model become
 * several sources.
 */
#ifndef SS_LOAD_H
#define SS_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "format.h"
#include "loader.h"
#include "model.h"

/* Load the profile at `path` into m with the options o (NULL: defaults).
 * Returns 0, or an error code with err naming the file and where it went
 * wrong.  On error m may hold part of the file; callers discard it. */
int ss_load_file(struct ss_model *m, const char *path, const struct ss_load_opts *o,
                 struct ss_error *err);

/* Load several files into a freshly initialised model and seal it, with
 * the options o (NULL: defaults).  Files of different kinds are refused
 * (SS_EINPUT, naming both files and their sample types) unless o->mixed. */
int ss_load_files(struct ss_model *m, char *const *paths, int n, const struct ss_load_opts *o,
                  struct ss_error *err);

/* The format of a file whose first `n` bytes are `p` (format.h), tried in
 * the table's detection order.  `whole`: p holds the whole file.  `size`:
 * the file's size when known (a regular file), else 0.  NULL with *more set
 * when the answer needs more bytes (the first line has not ended yet);
 * NULL with *more clear when nothing fits: then `why` (when not NULL, `cap`
 * bytes) receives the message after the file's name: ":LINE" (the first
 * line that is not blank) and ": not a profile format ...; tried", then
 * every format tried with its reason. */
const struct ss_format *ss_sniff(const unsigned char *p, size_t n, int whole, uint64_t size,
                                 int *more, char *why, size_t cap);

#endif
