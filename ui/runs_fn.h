/* runs_fn.h - the run-length table of one function, fast.
 *
 * The same table as ss_runs_hist() (runs.h: sprof's level x run-length
 * table with margins), computed for one function only: a run of F at level
 * k goes on while consecutive samples keep F at level k and the same
 * functions at levels 1..k-1, so only samples whose stack holds F need the
 * root-first comparison, and a pass costs one look per sample plus the
 * levels up to F's for the samples with F.  The run-length view answers in
 * a few milliseconds at a million samples where the whole-profile pass
 * takes tens.  tests/check_ui.c checks it against ss_runs_hist() on every
 * fixture. */
#ifndef UI_RUNS_FN_H
#define UI_RUNS_FN_H

#include "runs.h"

/* Fill *h as ss_runs_hist(m, function, h, ...) would (free it with
 * ss_run_hist_free).  Returns 0 or -1 (out of memory; *h is then empty). */
int ui_runs_fn_hist(const struct ss_model *m, ss_id function, struct ss_run_hist *h);

#endif
