/* report.h - `stackscope report`: one table, as readable text or TSV.
 *
 * Every table's columns are descriptor tables (column.h: name, width,
 * formatter) printed by the one table printer in text or TSV, so both always
 * show the same data (STYLE 7, 8); the explorer's views do not draw from
 * them yet.  TSV keeps full precision (%.15g) and every row; text rounds for
 * reading.  Names and paths are printed through textesc.h: their control
 * characters escaped (TSV also doubles a backslash), never raw.
 */
#ifndef SS_REPORT_H
#define SS_REPORT_H

#include <stdio.h>

#include "column.h"
#include "model.h"
#include "stats.h"

#include "report_common.h"

/* The columns of a function or line table (column.h; the table's context is
 * its struct ss_stats, a row an index of its rows), label first, and how
 * many there are with or without memory. */
const struct ss_col *ss_stat_columns(enum ss_report_by by, int memory, size_t *n);

/* Compute and print the report (after ss_report_check_stacks, which it
 * applies too).  Returns 0 or an error code. */
int ss_report(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
              struct ss_error *err);

#endif
