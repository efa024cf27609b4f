/* report_compare.h - `stackscope report --base`: the tables of a comparison
 * (stackscope(1), COMPARING) as text or TSV.
 *
 * Functions (--by self, total) and lines: TSV columns `name self.base self
 * self.delta total.base total total.delta` (`location` for lines), values
 * in the measure's raw unit; text the same columns with human units, a
 * signed delta, and a header naming both sides with a one-line summary
 * (total base, new, delta and its percentage of the base).  Stacks: `base
 * new delta depth stack`; with --format folded, `stack BASE NEW` lines
 * (difffolded).  Rows are sorted by delta, largest growth first (--by
 * total: the total delta; --by line: self delta too).  Levels, run lengths,
 * the timeline and labels compare too (compare.h: ss_compare_levels, _runs,
 * _timeline, _labels; the columns below), and the transform list shows
 * what each step did to each side.  The sources list the base's, then the
 * new profile's (report_sources.h: ss_cmp_source_columns), with a total
 * line per side and the delta of the totals (the summary's numbers).
 */
#ifndef SS_REPORT_COMPARE_H
#define SS_REPORT_COMPARE_H

#include <stdio.h>

#include "column.h"
#include "compare.h"
#include "report_common.h"

/* The columns of a comparison's functions (ss_cmp_fn_columns) and lines
 * (ss_cmp_line_columns); the context is a `const struct ss_cmp_stats *`.
 * The name orders by name (a line's location by file, line, then name),
 * the others (base, new, delta of self and total)
 * larger first, ties by total delta, then name. */
enum {
    SS_CMP_NAME,
    SS_CMP_SELF_B,
    SS_CMP_SELF,
    SS_CMP_SELF_D,
    SS_CMP_SELF_V, /* text: the self verdict's word */
    SS_CMP_TOTAL_B,
    SS_CMP_TOTAL,
    SS_CMP_TOTAL_D,
    SS_CMP_TOTAL_V,
    /* TSV: the verdicts' parts (column.h: SS_VERDICT_COLS) */
    SS_CMP_SELF_LO,
    SS_CMP_SELF_HI,
    SS_CMP_SELF_Q,
    SS_CMP_SELF_VERDICT,
    SS_CMP_SELF_P,
    SS_CMP_SELF_MDC,
    SS_CMP_TOTAL_LO,
    SS_CMP_TOTAL_HI,
    SS_CMP_TOTAL_Q,
    SS_CMP_TOTAL_VERDICT,
    SS_CMP_TOTAL_P,
    SS_CMP_TOTAL_MDC,
    SS_CMP_SELF_MARK, /* the explorer's: +, - or ~ (column.h) */
    SS_CMP_TOTAL_MARK,
    SS_CMP_NCOLS
};
extern const struct ss_col ss_cmp_fn_columns[SS_CMP_NCOLS];
extern const struct ss_col ss_cmp_line_columns[SS_CMP_NCOLS];

/* The columns of a comparison's levels (context: a `const struct
 * ss_cmp_levels *`): level, samples, the measure and distinct functions
 * (base, new, delta each), the top function of the base and of the new
 * profile. */
enum {
    SS_CMPLV_LEVEL,
    SS_CMPLV_SAMPLES_B,
    SS_CMPLV_SAMPLES,
    SS_CMPLV_SAMPLES_D,
    SS_CMPLV_VALUE_B,
    SS_CMPLV_VALUE,
    SS_CMPLV_VALUE_D,
    SS_CMPLV_DISTINCT_B,
    SS_CMPLV_DISTINCT,
    SS_CMPLV_DISTINCT_D,
    SS_CMPLV_TOP_B,
    SS_CMPLV_TOP,
    SS_CMPLV_NCOLS
};
extern const struct ss_col ss_cmp_level_columns[SS_CMPLV_NCOLS];

/* The columns of a comparison's run lengths (context: a `const struct
 * ss_cmp_runs *`): name, level, then runs, samples, mean run length and
 * the measure (base, new, delta each). */
enum {
    SS_CMPRU_NAME,
    SS_CMPRU_LEVEL,
    SS_CMPRU_RUNS_B,
    SS_CMPRU_RUNS,
    SS_CMPRU_RUNS_D,
    SS_CMPRU_SAMPLES_B,
    SS_CMPRU_SAMPLES,
    SS_CMPRU_SAMPLES_D,
    SS_CMPRU_MEAN_B,
    SS_CMPRU_MEAN,
    SS_CMPRU_MEAN_D,
    SS_CMPRU_VALUE_B,
    SS_CMPRU_VALUE,
    SS_CMPRU_VALUE_D,
    SS_CMPRU_NCOLS
};
extern const struct ss_col ss_cmp_run_columns[SS_CMPRU_NCOLS];

/* The columns of a comparison's labels (context: a `const struct
 * ss_cmp_labels *`): key, value (the label), then the samples carrying the
 * label (`count`, as report --by labels) and their measure, base, new and
 * delta each.  Key and value order by key, then value; the others larger
 * first, ties in the rows' order (ss_compare_labels'). */
enum {
    SS_CMPLB_KEY,
    SS_CMPLB_VALUE,
    SS_CMPLB_COUNT_B,
    SS_CMPLB_COUNT,
    SS_CMPLB_COUNT_D,
    SS_CMPLB_MEASURE_B,
    SS_CMPLB_MEASURE,
    SS_CMPLB_MEASURE_D,
    SS_CMPLB_MEASURE_V, /* text: the verdict's word */
    SS_CMPLB_LO,        /* TSV: the verdict's parts (column.h) */
    SS_CMPLB_HI,
    SS_CMPLB_Q,
    SS_CMPLB_VERDICT,
    SS_CMPLB_P,
    SS_CMPLB_MDC,
    SS_CMPLB_MARK, /* the explorer's: +, - or ~ */
    SS_CMPLB_NCOLS
};
extern const struct ss_col ss_cmp_label_columns[SS_CMPLB_NCOLS];

/* The columns of the transform list in a comparison: each step's effect
 * (transform.h) on the base (ss_tf_base_effect, its measure converted and
 * scaled by f) and on the new profile (ss_tf_effect); TSV holds every
 * column of report_transforms.h's table as NAME.base and NAME, plus the
 * deltas of the measure left and of the share kept (kept_pct: 100 x
 * @_out / @_in); text the samples, the measure left, kept% and levels. */
struct ss_tf_list;
struct ss_cmp_tf_ctx {
    const struct ss_tf_list *l;
    struct ss_units u; /* the new profile's */
    double f;          /* base values multiply by this (ss_compare: conv x scale) */
};
enum {
    SS_CMPTF_STEP,
    SS_CMPTF_ENABLED,
    SS_CMPTF_IN_B,
    SS_CMPTF_IN,
    SS_CMPTF_OUT_B,
    SS_CMPTF_OUT,
    SS_CMPTF_EMPTIED_B,
    SS_CMPTF_EMPTIED,
    SS_CMPTF_FRAMES_B,
    SS_CMPTF_FRAMES,
    SS_CMPTF_STACKS_B,
    SS_CMPTF_STACKS,
    SS_CMPTF_FUNCTIONS_B,
    SS_CMPTF_FUNCTIONS,
    SS_CMPTF_LABELS_B,
    SS_CMPTF_LABELS,
    SS_CMPTF_LEVELS_B,
    SS_CMPTF_LEVELS,
    SS_CMPTF_COMMAND,
    SS_CMPTF_VALUE_IN_B,
    SS_CMPTF_VALUE_IN,
    SS_CMPTF_VALUE_OUT_B,
    SS_CMPTF_VALUE_OUT,
    SS_CMPTF_VALUE_OUT_D,
    SS_CMPTF_KEPT_B,
    SS_CMPTF_KEPT,
    SS_CMPTF_KEPT_D,
    SS_CMPTF_RANGE_B,
    SS_CMPTF_RANGE,
    SS_CMPTF_NCOLS
};
extern const struct ss_col ss_cmp_step_columns[SS_CMPTF_NCOLS];

/* Print the comparison table o->by of c.  Returns 0 or an error code
 * (SS_EUSAGE for a table that does not compare). */
int ss_report_compare(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                      struct ss_error *err);

/* The one-line summary: "base 1.000 s, new 0.800 s, delta -0.200 s
 * (-20.00%)", with ", base normalized to the new total (x0.8)" when
 * normalized.  Without `seconds`, `time` is bare seconds as in the
 * explorer's columns ("base 1.000, ..."), to fit its status line. */
void ss_compare_summary(char *buf, size_t n, const struct ss_compare *c, int seconds);

#endif
