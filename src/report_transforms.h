/* report_transforms.h - `report --by transforms`: the transform list with
 * what each step did, as text or TSV. */
#ifndef SS_REPORT_TRANSFORMS_H
#define SS_REPORT_TRANSFORMS_H

#include <stdio.h>

#include "column.h"
#include "report_common.h"
#include "units.h"

/* The columns of the table of steps, for `report` and the explorer: step
 * (1-based), enabled, samples_in, samples_out, samples_emptied,
 * frames_removed, stacks_changed, functions_matched, labels_matched,
 * levels_removed, command (the label), the measure in and out.  Context:
 * the list and how the measure's numbers read. */
struct ss_tf_ctx {
    const struct ss_tf_list *l;
    struct ss_units u;
};
enum {
    SS_STEP_STEP,
    SS_STEP_ENABLED,
    SS_STEP_IN,
    SS_STEP_OUT,
    SS_STEP_EMPTIED,
    SS_STEP_FRAMES,
    SS_STEP_STACKS,
    SS_STEP_FUNCTIONS,
    SS_STEP_LABELS,
    SS_STEP_LEVELS,
    SS_STEP_COMMAND,
    SS_STEP_VALUE_IN,
    SS_STEP_VALUE_OUT,
    SS_STEP_RANGE,
    SS_STEP_NCOLS
};
extern const struct ss_col ss_step_columns[SS_STEP_NCOLS];

/* Print the list o->transforms (NULL: an empty list) as applied to give m,
 * one row per step.  Returns 0 or an error code. */
int ss_report_transforms(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                         struct ss_error *err);

#endif
