/* report.h - `stackscope report`: one table, as readable text or TSV.
 *
 * Every table's columns are descriptor tables (column.h: name, width,
 * formatter) printed by the one table printer in text or TSV, so both always
 * show the same data (HACKING.md, Adding things); the explorer's views do not
 * draw from them yet.  TSV keeps full precision (%.15g) and every row; text
 * rounds for reading.  Names and paths are printed through textesc.h: their
 * control characters escaped (TSV also doubles a backslash), never raw.
 */
#ifndef SS_REPORT_H
#define SS_REPORT_H

#include <stdio.h>

#include "column.h"
#include "model.h"
#include "stacks.h"
#include "stats.h"
#include "units.h"

#include "report_common.h"

/* The columns of the statistics tables, by function (ss_fn_columns) and by
 * line (ss_line_columns): name (or location), self, self.pct, total,
 * total.pct, mem.total; then (the explorer's code pane, computed with
 * memory) alloc and released, profvis's vector memory (stats.h), in bytes.
 * Their context is a struct ss_stat_ctx. */
struct ss_stat_ctx {
    const struct ss_stats *st;
};
enum {
    SS_STAT_NAME,
    SS_STAT_SELF,
    SS_STAT_SELF_PCT,
    SS_STAT_TOTAL,
    SS_STAT_TOTAL_PCT,
    SS_STAT_MEM,
    SS_STAT_ALLOC,
    SS_STAT_RELEASED,
    SS_STAT_NCOLS
};
extern const struct ss_col ss_fn_columns[SS_STAT_NCOLS];
extern const struct ss_col ss_line_columns[SS_STAT_NCOLS];
/* The self order (self, then total, larger first, then name) of rows a, b
 * (context: a struct ss_stat_ctx), for columns that break ties by it. */
int ss_stat_cmp_self(const void *ctx, size_t a, size_t b);

/* The columns of the stacks table: count, the measure, pct, depth, stack
 * (root first).  Context: a struct ss_stacks_ctx (tb: scratch for a
 * stack's text, owned by the caller). */
struct ss_stacks_ctx {
    const struct ss_model *m;
    const struct ss_stacks *st;
    struct ss_cellbuf *tb;
    struct ss_units u;
};
enum {
    SS_STACK_COUNT,
    SS_STACK_VALUE,
    SS_STACK_PCT,
    SS_STACK_DEPTH,
    SS_STACK_TEXT,
    SS_STACK_NCOLS
};
extern const struct ss_col ss_stack_columns[SS_STACK_NCOLS];
/* Stack row r's names root first, joined by ';' (in tb, borrowed); a
 * placeholder saying its length when that is over SS_MAX_LINE (outlimit.h),
 * so that no longer line is built. */
const char *ss_stack_row_text(const struct ss_model *m, const struct ss_stacks *st,
                              const struct ss_stack_row *r, struct ss_cellbuf *tb);

const struct ss_col *ss_stat_columns(enum ss_report_by by, int memory, size_t *n);

/* Compute and print the report (after ss_report_check_stacks, which it
 * applies too).  Returns 0 or an error code. */
int ss_report(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
              struct ss_error *err);

#endif
