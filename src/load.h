/* load.h - open any supported profile and add it to a model.
 *
 * Detects the format from the content (not the file name): a directory is v2
 * tables; pprof (gzip or raw protobuf), SamplingProf, folded stacks, else
 * Rprof text.  Several files loaded into one model become several sources.
 */
#ifndef SS_LOAD_H
#define SS_LOAD_H

#include "model.h"

/* Load the profile at `path` into m.  Returns 0, or an error code with err
 * naming the file and where it went wrong.  On error m may hold part of the
 * file; callers discard it. */
int ss_load_file(struct ss_model *m, const char *path, struct ss_error *err);

/* Load several files into a freshly initialised model and seal it. */
int ss_load_files(struct ss_model *m, char *const *paths, int n, struct ss_error *err);

#endif
