/* report_labels.h - `report --by labels`: every label (key, value) the
 * samples carry, with their samples, time and share, as text or TSV. */
#ifndef SS_REPORT_LABELS_H
#define SS_REPORT_LABELS_H

#include <stdio.h>

#include "column.h"
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
    double pct_of; /* pct is of this (report: the labels' total) */
};
/* The columns of the labels table (column.h): key, value (the label),
 * count, the measure, pct.  Context: a struct ss_label_ctx. */
enum {
    SS_LABEL_KEY,
    SS_LABEL_VALUE,
    SS_LABEL_COUNT,
    SS_LABEL_MEASURE,
    SS_LABEL_PCT,
    SS_LABEL_NCOLS
};
extern const struct ss_col ss_label_columns[SS_LABEL_NCOLS];

#endif
