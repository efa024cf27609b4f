/* report_labels.h - `report --by labels`: every label (key, value) the
 * samples carry, with their samples, time and share, as text or TSV. */
#ifndef SS_REPORT_LABELS_H
#define SS_REPORT_LABELS_H

#include <stdio.h>

#include "report_common.h"

/* Print the labels of m (labels.h).  Returns 0 or an error code. */
int ss_report_labels(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                     struct ss_error *err);

/* The table's columns (key, value, samples, time, pct) over a struct
 * ss_label_ctx, shared with the explorer's labels view. */
struct ss_label_stats;
struct ss_label_ctx {
    const struct ss_model *m;
    const struct ss_label_stats *ls;
};
struct ss_col;
const struct ss_col *ss_label_columns(size_t *n);

#endif
