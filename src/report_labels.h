/* report_labels.h - `report --by labels`: every label (key, value) the
 * samples carry, with their samples, time and share, as text or TSV. */
#ifndef SS_REPORT_LABELS_H
#define SS_REPORT_LABELS_H

#include <stdio.h>

#include "report_common.h"
#include "units.h"

/* Print the labels of m (labels.h).  Returns 0 or an error code. */
int ss_report_labels(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                     struct ss_error *err);

/* The context of the table's cells: the model, its rows, its units. */
struct ss_label_stats;
struct ss_label_ctx {
    const struct ss_model *m;
    const struct ss_label_stats *ls;
    struct ss_units u;
};

#endif
