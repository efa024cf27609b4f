/* report_common.h - what every `report` table shares: the options, the
 * text header, the check that a table can be built from the profile's
 * sources, and number formatting.  report.c (the dispatcher and the
 * statistics tables), report_analysis.c and report_transforms.c all use
 * it; none of them uses another's header, so the printers form no cycle. */
#ifndef SS_REPORT_COMMON_H
#define SS_REPORT_COMMON_H

#include <stdint.h>
#include <stdio.h>

#include "model.h"

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
    SS_REPORT_PHASES,
    SS_REPORT_TRANSFORMS,
    SS_REPORT_LABELS,
    SS_REPORT_LIST,
};
enum ss_report_format { SS_FORMAT_TEXT, SS_FORMAT_TSV, SS_FORMAT_FOLDED };

/* --sort: the order of a table's rows (SS_SORT_DEFAULT: the table's own). */
enum ss_report_sort { SS_SORT_DEFAULT, SS_SORT_SELF, SS_SORT_TOTAL, SS_SORT_POSITION };

struct ss_source_search;
struct ss_strbuf;

struct ss_report_opts {
    enum ss_report_by by;
    enum ss_report_format format;
    int memory;               /* add mem.total (list: alloc and released) */
    int limit;                /* print at most this many rows (0 = all); a table in file order
                               * keeps its heaviest rows (ss_report_limit_rows) */
    enum ss_report_sort sort; /* --sort (tables with SS_RT_SORT) */
    uint32_t level;           /* runs, timeline: the level (1 = root); 0 = all / default */
    const char *function;     /* runs, tree, calls: one function by name */
    int inverted;             /* tree: bottom-up */
    int depth;                /* tree: print at most this many levels (0 = all) */
    double min_pct;           /* tree: leave out nodes under this % of the time */
    int width;                /* timeline: number of windows (0 = 80) */
    double share;             /* levels: scaffold share (0 = every sample) */
    size_t phases;            /* phases: exactly this many (0 = as the detector finds) */
    double penalty;           /* phases: the detector's penalty factor (0 = 1) */
    const struct ss_tf_list *transforms;    /* transforms: the applied list (or NULL) */
    const struct ss_source_search *sources; /* list: where source files are found (or NULL) */
    struct ss_strbuf *warnings;             /* list: lines the caller shows as warnings (or NULL) */
    int verdict; /* --base: keep the rows with this verdict (SS_REPORT_V_*; 0: all) */
    int force;   /* no size limit (--force) */
    /* the size limit of the output (outlimit.h) and the inputs' size it
     * comes from; 0: none (set by the caller from force and the inputs) */
    uint64_t out_limit, in_bytes;
};
enum { SS_REPORT_V_GREW = 1, SS_REPORT_V_SHRANK, SS_REPORT_V_CHANGED };

/* What a table needs and which options it takes (ss_report_table.flags). */
enum {
    SS_RT_STACKS = 1u << 0,   /* built from raw stacks: not from aggregates (SamplingProf) */
    SS_RT_ORDER = 1u << 1,    /* needs samples in time order */
    SS_RT_LINES = 1u << 2,    /* needs line profiling data */
    SS_RT_SORT = 1u << 3,     /* --sort */
    SS_RT_MEMORY = 1u << 4,   /* --memory */
    SS_RT_FUNCTION = 1u << 5, /* --function */
    SS_RT_LEVEL = 1u << 6,    /* --level */
    SS_RT_TREE = 1u << 7,     /* --inverted, --depth, --min-pct */
    SS_RT_WIDTH = 1u << 8,    /* --width */
    SS_RT_SHARE = 1u << 9,    /* --share */
    SS_RT_FOLDED = 1u << 10,  /* --format folded */
    SS_RT_PHASES = 1u << 11,  /* --phases, --penalty */
};

/* The tables of `report --by`, one line each (report.c): the name, what it
 * needs and takes, why it takes no --sort (when that is not plain), its
 * --help lines ('\n' between them) and its printer for one profile (a
 * comparison's are report_compare.c's).  The command line parses --by,
 * writes --help and checks the options through it. */
struct ss_report_table {
    const char *name;
    enum ss_report_by by;
    unsigned flags;          /* SS_RT_* */
    const char *why_no_sort; /* without SS_RT_SORT: the reason --sort's usage
                                error gives ("rows in level order"), or NULL */
    const char *help;
    int (*print)(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                 struct ss_error *err);
};
extern const struct ss_report_table ss_report_tables[];
extern const size_t ss_report_ntables;

/* The table named `name` / of `by`, or NULL. */
const struct ss_report_table *ss_report_table_named(const char *name);
const struct ss_report_table *ss_report_table_of(enum ss_report_by by);

/* The names of the tables with every flag of `flags`, as "a, b or c",
 * into buf. */
const char *ss_report_tables_with(unsigned flags, char *buf, size_t n);

/* A tree node's indentation in text, into buf[0..n) (NUL-terminated):
 * two spaces per level, at most SS_TREE_INDENT_MAX levels (a recursion
 * 100,000 deep printed 10 GB of spaces); a deeper node is indented as that
 * level and its name starts with its depth in brackets: "[1234] ".
 * Returns the bytes written. */
#define SS_TREE_INDENT_MAX 40
size_t ss_tree_indent(char *buf, size_t n, uint32_t depth);

/* Sort rows[0..n) (row ids of ctx) by column key (ss_col_compare), stably.
 * Returns 0, or -1 when memory runs out (rows unchanged). */
struct ss_col;
int ss_sort_rows(size_t *rows, size_t n, const struct ss_col *key, const void *ctx);

/* The n rows of a tree stored in depth-first pre-order (row r's depth is
 * depth(ctx, r), roots 0) in pre-order again with each node's children,
 * and the roots, sorted by column key (--sort): a fresh array (caller
 * frees), or NULL when memory runs out. */
size_t *ss_tree_sorted(size_t n, uint32_t (*depth)(const void *ctx, size_t r),
                       const struct ss_col *key, const void *ctx);

/* --limit N on a tree's rows[0..n) (row ids in pre-order, row r at depth
 * depth(ctx, r)): keep the N heaviest by weight(ctx, r), in their order.
 * A node counts as no heavier than its parent, and ties keep the
 * shallower, then the earlier, so that what is kept is a tree (every
 * kept node's parent kept).  Returns how many are kept (n when limit is 0
 * or n at most limit), or SIZE_MAX when memory runs out. */
size_t ss_tree_limit(size_t *rows, size_t n, size_t limit,
                     uint32_t (*depth)(const void *ctx, size_t r),
                     double (*weight)(const void *ctx, size_t r), const void *ctx);

/* --limit's rows: o->limit, or 0 for all (in text and TSV alike). */
size_t ss_report_limit(const struct ss_report_opts *o);

/* In text (o->format), the line that says `more` rows (of `what`) were
 * left out by --limit; nothing when none were. */
struct ss_report_opts;
void ss_report_more(FILE *out, const struct ss_report_opts *o, size_t more, const char *what);
/* The same for the callers and callees of --by calls. */
void ss_report_more_calls(FILE *out, const struct ss_report_opts *o, size_t callers,
                          size_t callees);

/* Print the text header: files, sources (sessions, intervals, flags),
 * samples (and how many have frames), sampling time. */
void ss_report_header(FILE *out, const struct ss_model *m);
/* The same with m's totals computed (its samples, counted, sampling_time
 * and value are read). */
void ss_report_header_totals(FILE *out, const struct ss_model *m, const struct ss_totals *t);

/* Tables built from raw stacks (stacks, levels, runs, tree, timeline) cannot
 * use aggregate sources (SamplingProf: counts per call element, no stacks).
 * For such a table: when every source of m is aggregate, returns SS_EUSAGE
 * with err naming the file and the tables that work; when some are, returns
 * 0 with a note naming what is left out in note[0..n).  Otherwise (or for
 * the other tables) returns 0 with note = "". */
int ss_report_check_stacks(const struct ss_model *m, enum ss_report_by by, char *note, size_t n,
                           struct ss_error *err);

/* Tables in time order (runs, timeline, phases) cannot use folded stacks (one line
 * per distinct stack, no sample order): SS_EUSAGE naming such a source of
 * m, else 0. */
int ss_report_check_order(const struct ss_model *m, enum ss_report_by by, struct ss_error *err);

/* The source flags for people: ", memory, GC, line, aggregate" (the set
 * ones), or "" for none. */
void ss_report_flags_text(char *buf, size_t n, uint32_t flags);

/* Format a duration in seconds for people: "1.234 s", "20 ms", "100 us". */
void ss_format_interval(char *buf, size_t n, double us);

#endif
