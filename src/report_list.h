/* report_list.h - `report --by list`: the source files of a profile, each
 * line with its self and total (pprof's `list`, profvis's code pane as
 * text; stackscope(1), SOURCE FILES).
 *
 * The numbers of a line are those of `report --by line` (its row, keyed
 * by the file's basename and the line as R keys them); with --memory, also
 * the vector memory allocated and released at it (profvis's, stats.h:
 * alloc_bytes, released_bytes).  Files are found as source.h says; a file
 * found nowhere keeps its numbers, without text, and o->warnings names it
 * with the places tried.
 *
 * Rows, in file order (the default or --sort position): per file, each line
 * with samples and five lines around it (pprof's margin), "..." between
 * stretches; with --function F, the lines of the functions F (a /regex/,
 * unanchored, as transforms match) matches, from five before the first to
 * five after the last.  --limit N keeps the N heaviest lines (by self, then
 * total) and the lines around them.  --sort self|total: the lines with
 * samples alone, heaviest first.
 *
 * TSV: `file line self.M total.M [alloc released] source` (M the measure,
 * raw units; alloc and released in bytes), one row per line printed (no
 * "..." rows), `file` the path as the profile names it.  In a comparison
 * (--base): `file line self.base self self.delta total.base total
 * total.delta source`.
 */
#ifndef SS_REPORT_LIST_H
#define SS_REPORT_LIST_H

#include <stdio.h>

#include "compare.h"
#include "report_common.h"

int ss_report_list(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                   struct ss_error *err);
int ss_report_list_compare(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                           struct ss_error *err);

#endif
