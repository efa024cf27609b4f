/* report_sources.h - `report --by sources`: the input files and Rprof
 * sessions, one row each, as text or TSV; in a comparison (--base) the
 * base's sources, then the new profile's, each row saying its side.
 *
 * A row gives the source's number (1-based, per side), type, file,
 * session, header line, interval, flags, samples, its measure and the
 * measure's share of its own side (pct), and the measures it has.  In a
 * comparison a base row's measure is in the new profile's raw unit,
 * scaled with --normalize as every base value is (compare.h); its pct is
 * unchanged by the scale, so that every base row equals the base's own
 * table except the measure, which is its own times the scale.  Sources
 * have no delta of their own: report_compare.c adds a total line per side
 * and the delta of the totals under the table. */
#ifndef SS_REPORT_SOURCES_H
#define SS_REPORT_SOURCES_H

#include <stdio.h>

#include "column.h"
#include "compare.h"
#include "report_common.h"
#include "units.h"

/* The rows of a sources table: the sources of one model, or in a
 * comparison those of the base and then those of the new profile.  Owns
 * `value` (ss_sources_ctx_free). */
struct ss_sources_ctx {
    const struct ss_model *side[2]; /* the base (NULL: no comparison), the profile */
    size_t nbase;                   /* rows 0..nbase-1 are the base's sources */
    size_t n;                       /* rows in all */
    double *value;                  /* per row: its measure, unscaled, in its side's raw unit */
    double total[2];                /* each side's total of the measure, the same way */
    double f[2];                    /* what a side's values multiply by (base: conv x scale) */
    struct ss_units u;              /* the profile's (the new one's) */
    /* each side's measures (ss_model_measures), listed once: a row shows
     * those its source has (a list per row made 10,000 sessions quadratic) */
    struct ss_measure ms[2][SS_SOURCE_VALUE_BITS + 8];
    size_t nms[2];
};

/* Set up the rows of m's sources, or with c not NULL those of c's base and
 * new profile (m is then ignored).  Returns 0 or SS_ENOMEM. */
int ss_sources_ctx_init(struct ss_sources_ctx *x, const struct ss_model *m,
                        const struct ss_compare *c, struct ss_error *err);
void ss_sources_ctx_free(struct ss_sources_ctx *x);

/* Row r's source and the model it belongs to (*m, borrowed); *side is 0
 * for the base, 1 for the profile. */
const struct ss_source *ss_sources_row(const struct ss_sources_ctx *x, size_t r,
                                       const struct ss_model **m, int *side);

/* The columns of the sources table: source (1-based), type, uri (the
 * label), session, header_line, interval_us, flags, samples, the measure
 * (`@`), pct (of its side's total), measures.  Context: a `const struct
 * ss_sources_ctx *`. */
enum {
    SS_SRCCOL_ID,
    SS_SRCCOL_TYPE,
    SS_SRCCOL_URI,
    SS_SRCCOL_SESSION,
    SS_SRCCOL_LINE,
    SS_SRCCOL_INTERVAL,
    SS_SRCCOL_FLAGS,
    SS_SRCCOL_SAMPLES,
    SS_SRCCOL_VALUE,
    SS_SRCCOL_PCT,
    SS_SRCCOL_MEASURES,
    SS_SRCCOL_NCOLS
};
extern const struct ss_col ss_source_columns[SS_SRCCOL_NCOLS];

/* A comparison's: `side` (base or new), then the columns above in the
 * same order (SS_CMPSRC_SIDE, then SS_SRCCOL_x + 1). */
enum { SS_CMPSRC_SIDE, SS_CMPSRC_NCOLS = 1 + SS_SRCCOL_NCOLS };
extern const struct ss_col ss_cmp_source_columns[SS_CMPSRC_NCOLS];

/* Print the sources of m (no text header: the table is the header).
 * Returns 0 or an error code. */
int ss_report_sources(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                      struct ss_error *err);

#endif
