/* report_analysis.h - printers of the analysis tables (levels, run lengths,
 * call trees, callers/callees, timeline) for `stackscope report`. */
#ifndef SS_REPORT_ANALYSIS_H
#define SS_REPORT_ANALYSIS_H

#include <stdio.h>

#include "report_common.h"

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
