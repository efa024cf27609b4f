/* report_phases.h - `report --by phases`: the phases the detector found
 * (phases.h), one row each. */
#ifndef SS_REPORT_PHASES_H
#define SS_REPORT_PHASES_H

#include <stdio.h>

#include "column.h"
#include "phases.h"
#include "report_common.h"
#include "units.h"

/* The columns, for `report` and the explorer's phases view (column.h):
 * phase (1-based; text: '*' after the main one), first and last (1-based
 * sample numbers, as keep-samples counts them), samples (count values),
 * the measure, pct of the measure, top (TSV: the function that most
 * distinguishes the phase) and tops (text: up to three, each with the
 * share of the phase's samples that have it below the scaffold). */
struct ss_phases_ctx {
    const struct ss_model *m;
    const struct ss_phases *p;
    struct ss_units u;
    const char *side; /* a comparison: "base" or "new" (the side column) */
};
enum {
    SS_PHASE_COL_PHASE,
    SS_PHASE_COL_FIRST,
    SS_PHASE_COL_LAST,
    SS_PHASE_COL_SAMPLES,
    SS_PHASE_COL_VALUE,
    SS_PHASE_COL_PCT,
    SS_PHASE_COL_TOP,
    SS_PHASE_COL_TOPS,
    SS_PHASE_NCOLS
};
extern const struct ss_col ss_phase_columns[SS_PHASE_NCOLS];

/* The detector's options of a report (--phases, --penalty). */
void ss_report_phase_opts(const struct ss_report_opts *o, struct ss_phase_opts *po);

/* Print the phases as o->format says.  Returns 0 or an error code
 * (SS_EUSAGE: --phases N that the profile cannot have). */
int ss_report_phases(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                     struct ss_error *err);

/* A comparison (--base; stackscope(1), COMPARING): each side's phases, the
 * base's first, each in its own measure's units and pct of its own total; TSV
 * with a first column `side` (base, new), text one table per side (the
 * caller prints the comparison's header). */
int ss_report_phases_compared(FILE *out, const struct ss_model *base, const struct ss_model *cur,
                              const struct ss_report_opts *o, struct ss_error *err);

#endif
