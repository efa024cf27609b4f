/* report_compare.h - `stackscope report --base`: the tables of a comparison
 * (DESIGN section 13) as text or TSV.
 *
 * Functions (--by self, total) and lines: TSV columns `name self.base self
 * self.delta total.base total total.delta` (`location` for lines), values
 * in the measure's raw unit; text the same columns with human units, a
 * signed delta, and a header naming both sides with a one-line summary
 * (total base, new, delta and its percentage of the base).  Stacks: `base
 * new delta depth stack`; with --format folded, `stack BASE NEW` lines
 * (difffolded).  Rows are sorted by delta, largest growth first (--by
 * total: the total delta; --by line: self delta too).  Levels, run lengths
 * and the timeline compare too (compare.h: ss_compare_levels, _runs,
 * _timeline; the columns below).  The other tables (sources, transforms,
 * labels) do not compare: they are refused with a message naming those
 * that do.
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
    SS_CMP_TOTAL_B,
    SS_CMP_TOTAL,
    SS_CMP_TOTAL_D,
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
