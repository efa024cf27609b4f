/* report_analysis.h - printers of the analysis tables (levels, run lengths,
 * call trees, callers/callees, timeline) for `stackscope report`. */
#ifndef SS_REPORT_ANALYSIS_H
#define SS_REPORT_ANALYSIS_H

#include <stdio.h>

#include "column.h"
#include "levels.h"
#include "report_common.h"
#include "runs.h"
#include "tree.h"
#include "units.h"

/* The columns of these tables, for `report` and the explorer (column.h),
 * each with the context its cells read. */

/* levels: level (text: '*' after a scaffold level), samples, distinct,
 * top function, top.samples, top.pct (text), the measure and the top
 * function's (TSV).  scaffold: levels 1..scaffold are marked. */
struct ss_levels_ctx {
    const struct ss_model *m;
    const struct ss_level_row *rows;
    size_t scaffold;
    struct ss_units u;
};
enum {
    SS_LEVEL_LEVEL,
    SS_LEVEL_SAMPLES,
    SS_LEVEL_DISTINCT,
    SS_LEVEL_TOP,
    SS_LEVEL_TOP_SAMPLES,
    SS_LEVEL_TOP_PCT,
    SS_LEVEL_VALUE,
    SS_LEVEL_TOP_VALUE,
    SS_LEVEL_NCOLS
};
extern const struct ss_col ss_level_columns[SS_LEVEL_NCOLS];

/* run lengths: name, level ("all" for 0), runs, samples, mean, median,
 * max, the measure. */
struct ss_runs_ctx {
    const struct ss_model *m;
    const struct ss_run_row *rows;
    struct ss_units u;
};
enum {
    SS_RUN_NAME,
    SS_RUN_LEVEL,
    SS_RUN_RUNS,
    SS_RUN_SAMPLES,
    SS_RUN_MEAN,
    SS_RUN_MEDIAN,
    SS_RUN_MAX,
    SS_RUN_VALUE,
    SS_RUN_NCOLS
};
extern const struct ss_col ss_run_columns[SS_RUN_NCOLS];

/* call trees: depth (TSV), name (text: indented by depth), self and total
 * (TSV), total% and self% (text) of pct_of (report: the tree's total). */
struct ss_tree_ctx {
    const struct ss_model *m;
    const struct ss_tree *t;
    struct ss_units u;
    double pct_of;
};
enum {
    SS_TREE_DEPTH,
    SS_TREE_NAME,
    SS_TREE_SELF,
    SS_TREE_TOTAL,
    SS_TREE_TOTAL_PCT,
    SS_TREE_SELF_PCT,
    SS_TREE_NCOLS
};
extern const struct ss_col ss_tree_columns[SS_TREE_NCOLS];

/* callers and callees: the rows are callers, the function (TSV: a self and
 * a total row; text: one row of its total that names its self), callees;
 * columns relation (TSV), name, count, the measure, pct of `total`. */
enum ss_call_rel { SS_CALL_CALLER, SS_CALL_SELF, SS_CALL_TOTAL, SS_CALL_MIDDLE, SS_CALL_CALLEE };
struct ss_calls_row {
    enum ss_call_rel rel;
    size_t i; /* index in callers or callees */
};
struct ss_calls_ctx {
    const struct ss_model *m;
    const struct ss_calls *c;
    const struct ss_calls_row *rows;
    double total; /* the measure's value of the profile */
    struct ss_units u;
};
enum { SS_CALL_REL, SS_CALL_NAME, SS_CALL_COUNT, SS_CALL_VALUE, SS_CALL_PCT, SS_CALL_NCOLS };
extern const struct ss_col ss_call_columns[SS_CALL_NCOLS];

/* Each prints its table as o->format says and returns 0 or an error code
 * (SS_EUSAGE when an option names a function the profile lacks). */
int ss_report_levels(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                     struct ss_error *err);
int ss_report_runs(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                   struct ss_error *err);
int ss_report_tree(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                   struct ss_error *err);
int ss_report_calls(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                    struct ss_error *err);
int ss_report_timeline(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                       struct ss_error *err);

#endif
