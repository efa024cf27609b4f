/* report_transforms.h - `report --by transforms`: the transform list with
 * what each step did, as text or TSV. */
#ifndef SS_REPORT_TRANSFORMS_H
#define SS_REPORT_TRANSFORMS_H

#include <stdio.h>

#include "report_common.h"

/* Print the list o->transforms (NULL: an empty list) as applied to give m,
 * one row per step.  Returns 0 or an error code. */
int ss_report_transforms(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                         struct ss_error *err);

#endif
