/* report.h - `stackscope report`: one table, as readable text or TSV.
 *
 * The function and line tables' columns are descriptor tables (name, width,
 * formatter) shared by the text and TSV renderers, so both always show the
 * same data (STYLE 7, 8); the other tables print their own columns (issue
 * 10 item 3 moves them, and the explorer's, onto descriptors).  TSV keeps
 * full precision (%.15g) and every row; text rounds for reading.  Names and
 * paths are printed through textesc.h: their control characters escaped (TSV
 * also doubles a backslash), never raw.
 */
#ifndef SS_REPORT_H
#define SS_REPORT_H

#include <stdio.h>

#include "column.h"
#include "model.h"
#include "stats.h"

struct ss_tf_list;

enum ss_report_by {
    SS_REPORT_SELF,
    SS_REPORT_TOTAL,
    SS_REPORT_LINE,
    SS_REPORT_STACKS,
    SS_REPORT_SOURCES,
    SS_REPORT_LEVELS,
    SS_REPORT_RUNS,
    SS_REPORT_TREE,
    SS_REPORT_CALLS,
    SS_REPORT_TIMELINE,
    SS_REPORT_TRANSFORMS,
};
enum ss_report_format { SS_FORMAT_TEXT, SS_FORMAT_TSV, SS_FORMAT_FOLDED };

struct ss_report_opts {
    enum ss_report_by by;
    enum ss_report_format format;
    int memory;   /* add mem.total */
    int limit;    /* text: print at most this many rows (0 = all) */
    uint32_t level;       /* runs, timeline: the level (1 = root); 0 = all / default */
    const char *function; /* runs, tree, calls: one function by name */
    int inverted;         /* tree: bottom-up */
    int depth;            /* tree: print at most this many levels (0 = all) */
    double min_pct;       /* tree: leave out nodes under this % of the time */
    int width;            /* timeline: number of windows (0 = 80) */
    double share;         /* levels: scaffold share (0 = every sample) */
    const struct ss_tf_list *transforms; /* transforms: the applied list (or NULL) */
};

/* The columns of a function or line table (column.h; the table's context is
 * its struct ss_stats, a row an index of its rows), label first, and how
 * many there are with or without memory. */
const struct ss_col *ss_stat_columns(enum ss_report_by by, int memory, size_t *n);

/* Print the text header: files, sources (sessions, intervals, flags),
 * samples (and how many have frames), sampling time. */
void ss_report_header(FILE *out, const struct ss_model *m);

/* Tables built from raw stacks (stacks, levels, runs, tree, timeline) cannot
 * use aggregate sources (SamplingProf: counts per call element, no stacks).
 * For such a table: when every source of m is aggregate, returns SS_EUSAGE
 * with err naming the file and the tables that work; when some are, returns
 * 0 with a note naming what is left out in note[0..n).  Otherwise (or for
 * the other tables) returns 0 with note = "". */
int ss_report_check_stacks(const struct ss_model *m, enum ss_report_by by, char *note, size_t n,
                           struct ss_error *err);

/* Compute and print the report (after ss_report_check_stacks, which it
 * applies too).  Returns 0 or an error code. */
int ss_report(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
              struct ss_error *err);

/* Format a duration in seconds for people: "1.234 s", "20 ms", "100 us". */
void ss_format_interval(char *buf, size_t n, double us);

#endif
