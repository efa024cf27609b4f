/* report.c - statistics tables as text or TSV (see report.h). */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_analysis.h"
#include "report_labels.h"
#include "report_phases.h"
#include "report_list.h"
#include "report_sources.h"
#include "report_transforms.h"
#include "column.h"
#include "sort.h"
#include "outlimit.h"
#include "stacks.h"
#include "textesc.h"
#include "units.h"
#include "write.h"
#include "vec.h"

/* ---- functions and lines ---------------------------------------------------- */

#define ST(ctx) (((const struct ss_stat_ctx *)(ctx))->st)
#define ROW(ctx, r) (&ST(ctx)->rows[r])

static double pct(double x, const struct ss_stats *st)
{
    return st->value_total > 0 ? 100.0 * x / st->value_total : 0.0;
}

/* The name; in text (and the explorer) with pprof's inline mark, as its
 * -top shows it ("main.hash (inline)"). */
static void cell_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_strtab_get(&ST(ctx)->keys, ROW(ctx, r)->key), tsv);
    int inl = ROW(ctx, r)->inl;
    size_t k = strlen(buf);
    if (!tsv && inl && k < n)
        snprintf(buf + k, n - k, " %s", ss_inline_label(inl));
}
/* A line's key, R's in TSV; for people an unnamed file's ("#3", code typed
 * at R's prompt) reads "(unnamed file 1)#3". */
static void cell_location(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_stat_row *row = ROW(ctx, r);
    if (tsv || row->file == SS_NONE || row->file == row->key ||
        *ss_strtab_get(&ST(ctx)->keys, row->file)) {
        cell_name(buf, n, ctx, r, tsv);
        return;
    }
    char key[96];
    snprintf(key, sizeof key, "%s#%u", ST(ctx)->unnamed, row->line);
    ss_cell_str(buf, n, key, 0);
}
#define UNITS(ctx) (&ST(ctx)->units)

static void cell_self_time(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, UNITS(ctx), ROW(ctx, r)->self_v, tsv);
}
static void cell_self_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_num(buf, n, pct(ROW(ctx, r)->self_v, ST(ctx)), tsv, 2);
}
static void cell_total_time(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, UNITS(ctx), ROW(ctx, r)->total_v, tsv);
}
static void cell_total_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_num(buf, n, pct(ROW(ctx, r)->total_v, ST(ctx)), tsv, 2);
}
static void cell_mem(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_num(buf, n, ROW(ctx, r)->mem_bytes / 1048576.0, tsv, 1);
}
static const struct ss_units bytes = {{SS_MEASURE_MEMORY, SS_NONE, SS_UNIT_BYTES, 1.0}, 0};
static void cell_alloc(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &bytes, ROW(ctx, r)->alloc_bytes, tsv);
}
static void cell_released(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &bytes, ROW(ctx, r)->released_bytes, tsv);
}

/* Orders (the explorer's): by name; by self (then total, then name) and by
 * total (then self, then name), larger first in exact units; by position
 * (file, then line; rows without a file first, in row order). */
static int cmp_name(const void *ctx, size_t a, size_t b)
{
    const struct ss_strtab *k = &ST(ctx)->keys;
    return strcmp(ss_strtab_get(k, ROW(ctx, a)->key), ss_strtab_get(k, ROW(ctx, b)->key));
}
int ss_stat_cmp_self(const void *ctx, size_t a, size_t b)
{
    const struct ss_stat_row *x = ROW(ctx, a), *y = ROW(ctx, b);
    int c = ss_cmp_desc(x->self_x, y->self_x);
    if (!c)
        c = ss_cmp_desc(x->total_x, y->total_x);
    return c ? c : cmp_name(ctx, a, b);
}
static int cmp_total(const void *ctx, size_t a, size_t b)
{
    int c = ss_cmp_desc(ROW(ctx, a)->total_x, ROW(ctx, b)->total_x);
    return c ? c : ss_stat_cmp_self(ctx, a, b);
}
static int cmp_position(const void *ctx, size_t a, size_t b)
{
    const struct ss_stats *st = ST(ctx);
    const struct ss_stat_row *x = ROW(ctx, a), *y = ROW(ctx, b);
    int c = strcmp(x->file == SS_NONE ? "" : ss_strtab_get(&st->keys, x->file),
                   y->file == SS_NONE ? "" : ss_strtab_get(&st->keys, y->file));
    return c ? c : x->line < y->line ? -1 : x->line > y->line;
}

#define STAT_COLUMNS(label, cell_label, cmp_label)                                                 \
    {label, NULL, 0, 0, SS_COL_LABEL, cell_label, cmp_label, NULL, 0},                             \
        {"self.@", NULL, 10, 0, 0, cell_self_time, ss_stat_cmp_self, NULL, 0},                     \
        {"self.pct", NULL, 9, 0, 0, cell_self_pct, ss_stat_cmp_self, NULL, 0},                     \
        {"total.@", NULL, 11, 0, 0, cell_total_time, cmp_total, NULL, 0},                          \
        {"total.pct", NULL, 10, 0, 0, cell_total_pct, cmp_total, NULL, 0},                         \
        {"mem.total", NULL, 10, 0, 0, cell_mem, NULL, NULL, 0},                                    \
        {"alloc", NULL, 9, 1, 0, cell_alloc, NULL, NULL, 0},                                       \
        {"released", NULL, 9, 1, 0, cell_released, NULL, NULL, 0},
const struct ss_col ss_fn_columns[SS_STAT_NCOLS] = {STAT_COLUMNS("name", cell_name, cmp_name)};
const struct ss_col ss_line_columns[SS_STAT_NCOLS] = {
    STAT_COLUMNS("location", cell_location, cmp_position)};

const struct ss_col *ss_stat_columns(enum ss_report_by by, int memory, size_t *n)
{
    *n = memory ? 6 : 5;
    return by == SS_REPORT_LINE ? ss_line_columns : ss_fn_columns;
}

/* ---- stacks ------------------------------------------------------------------- */

const char *ss_stack_row_text(const struct ss_model *m, const struct ss_stacks *st,
                              const struct ss_stack_row *r, struct ss_cellbuf *tb)
{
    size_t need = ss_stack_text(m, st, r, ";", tb->s, tb->cap) + 1;
    int too_long = need > SS_MAX_LINE; /* no such line is built (outlimit.h) */
    if (too_long)
        need = 96;
    if (need > tb->cap) {
        char *ns = realloc(tb->s, need);
        if (!ns)
            return tb->s ? tb->s : "";
        tb->s = ns;
        tb->cap = need;
        if (!too_long)
            ss_stack_text(m, st, r, ";", tb->s, tb->cap);
    }
    if (too_long)
        snprintf(tb->s, tb->cap, "(a stack of %zu bytes of names: too long to show)",
                 ss_stack_text(m, st, r, ";", NULL, 0));
    return tb->s ? tb->s : "";
}

#define SCTX(ctx) ((const struct ss_stacks_ctx *)(ctx))
#define SROW(ctx, r) (&SCTX(ctx)->st->rows[r])

static void cell_stack_count(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, SROW(ctx, r)->count);
}
static void cell_stack_time(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &SCTX(ctx)->u, SROW(ctx, r)->value, tsv);
}
static void cell_stack_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_stacks *st = SCTX(ctx)->st;
    ss_cell_num(buf, n, st->total_v > 0 ? 100.0 * SROW(ctx, r)->value / st->total_v : 0, tsv, 2);
}
static void cell_stack_depth(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, SROW(ctx, r)->depth);
}
static void cell_stack(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_stacks_ctx *c = ctx;
    ss_cell_str(buf, n, ss_stack_row_text(c->m, c->st, SROW(ctx, r), c->tb), tsv);
}

/* Orders: the core's (by count), by depth (deeper first), by the names
 * root first (frame by frame, a prefix first); ties in the core's order. */
static int cmp_stack_row(const void *ctx, size_t a, size_t b)
{
    return a < b ? -1 : a > b;
}
static int cmp_stack_depth(const void *ctx, size_t a, size_t b)
{
    uint32_t x = SROW(ctx, a)->depth, y = SROW(ctx, b)->depth;
    return x != y ? (x > y ? -1 : 1) : cmp_stack_row(ctx, a, b);
}
static int cmp_stack_names(const void *ctx, size_t a, size_t b)
{
    const struct ss_stacks_ctx *c = ctx;
    const struct ss_stack_row *x = SROW(ctx, a), *y = SROW(ctx, b);
    for (uint32_t k = 0; k < x->depth && k < y->depth; k++) {
        int d = strcmp(ss_function_name(c->m, c->st->fns[x->first + k]),
                       ss_function_name(c->m, c->st->fns[y->first + k]));
        if (d)
            return d;
    }
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return cmp_stack_row(ctx, a, b);
}

const struct ss_col ss_stack_columns[SS_STACK_NCOLS] = {
    {"count", NULL, 9, 0, 0, cell_stack_count, cmp_stack_row, NULL, 0},
    {"@", NULL, 10, 1, 0, cell_stack_time, cmp_stack_row, NULL, 0},
    {"pct", NULL, 7, 1, 0, cell_stack_pct, cmp_stack_row, NULL, 0},
    {"depth", NULL, 6, 1, 0, cell_stack_depth, cmp_stack_depth, NULL, 0},
    {"stack", "stack (root first)", 0, 0, SS_COL_LABEL, cell_stack, cmp_stack_names, NULL, 0},
};

/* Stacks by value (the core's order), or with --sort position by their
 * names root first. */
static int cmp_stack_order(const void *a, const void *b, void *ctx)
{
    return cmp_stack_names(ctx, *(const size_t *)a, *(const size_t *)b);
}

/* The stacks table's text before it is printed (the names of every frame
 * of every distinct stack: a 234-byte pprof holds a 1 GB stack): refused
 * over the size limit (outlimit.h), and a stack longer than a line may be
 * (SS_MAX_LINE) is refused, forced or not, so that no such line is built.
 * `rows`: how many are printed. */
static int stacks_fit(const struct ss_model *m, const struct ss_stacks *st, size_t rows,
                      const struct ss_report_opts *o, struct ss_error *err)
{
    uint64_t total = 0;
    for (size_t i = 0; i < rows; i++) {
        const struct ss_stack_row *r = &st->rows[i];
        uint64_t text = r->depth ? r->depth - 1 : 0;
        for (uint32_t k = 0; k < r->depth; k++)
            text += ss_strtab_len(&m->strs, m->functions.v[st->fns[r->first + k]].name);
        if (text > SS_MAX_LINE)
            return ss_fail(err, SS_ENOMEM,
                           "standard output: a stack of %llu bytes of names, longer than a line "
                           "the tables print (%zu MiB); nothing printed",
                           (unsigned long long)text, SS_MAX_LINE >> 20);
        total += text + 64; /* its numbers */
    }
    if (o->out_limit && total > o->out_limit)
        return ss_out_refuse(err, "standard output", total, o->in_bytes,
                             "the stacks table prints the names of every frame of every distinct "
                             "stack",
                             0);
    return 0;
}

static int report_stacks(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                         struct ss_error *err)
{
    struct ss_stacks st;
    int rc = ss_stacks_compute(m, &st, err);
    if (rc)
        return rc;
    size_t rows = o->format == SS_FORMAT_TEXT && o->limit > 0 && (size_t)o->limit < st.n
                      ? (size_t)o->limit
                      : st.n;
    rc = stacks_fit(m, &st, rows, o, err);
    if (rc || o->format == SS_FORMAT_FOLDED) {
        ss_stacks_free(&st);
        return rc ? rc : ss_write_folded(m, out, "standard output", err);
    }
    struct ss_cellbuf tb = {NULL, 0};
    if (o->format == SS_FORMAT_TEXT) {
        ss_report_header(out, m);
        struct ss_totals t;
        ss_model_totals(m, &t);
        if (t.agg_samples)
            fprintf(out, "note       the profiles without stacks (%llu samples) are left out\n\n",
                    (unsigned long long)t.agg_samples);
    }
    struct ss_stacks_ctx ctx = {m, &st, &tb, {{0}, 0}};
    ss_units_of(m, &ctx.u);
    size_t *order = NULL;
    if (o->sort == SS_SORT_POSITION) {
        order = ss_alloc_array(st.n, sizeof *order);
        if (!order) {
            ss_stacks_free(&st);
            return ss_nomem(err, "stacks");
        }
        for (size_t i = 0; i < st.n; i++)
            order[i] = i;
        if (ss_sort(order, st.n, sizeof *order, cmp_stack_order, &ctx)) {
            free(order);
            ss_stacks_free(&st);
            return ss_nomem(err, "stacks");
        }
    }
    struct ss_table t = {ss_stack_columns,        SS_STACK_NCOLS, &ctx, st.n, order,
                         ss_model_measure_name(m)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, o->limit > 0 ? (size_t)o->limit : 0,
                   "rows");
    free(order);
    ss_cellbuf_free(&tb);
    ss_stacks_free(&st);
    return 0;
}

/* Functions (--by self, total) and lines (--by line) in the order --sort
 * asks, else the table's: self, total, or for lines the position (R's
 * by.line).  --limit N keeps the N heaviest rows (ss_report_limit_rows). */
static int report_stats(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                        struct ss_error *err)
{
    struct ss_stats st;
    int rc = ss_stats_compute(m, o->by == SS_REPORT_LINE ? SS_BY_LINE : SS_BY_FUNCTION, o->memory,
                              &st, err);
    if (rc)
        return rc;
    enum ss_report_sort sort = o->sort;
    if (sort == SS_SORT_DEFAULT)
        sort = o->by == SS_REPORT_SELF    ? SS_SORT_SELF
               : o->by == SS_REPORT_TOTAL ? SS_SORT_TOTAL
                                          : SS_SORT_POSITION;
    /* the heaviest first: a limit keeps them */
    int sorted = sort == SS_SORT_TOTAL ? ss_stats_sort_total(&st) : ss_stats_sort_self(&st);
    size_t all = st.n;
    if (o->limit > 0 && (size_t)o->limit < st.n)
        st.n = (size_t)o->limit;
    if (sorted || (sort == SS_SORT_POSITION && ss_stats_sort_line(&st))) {
        ss_stats_free(&st);
        return ss_nomem(err, "statistics");
    }
    struct ss_stat_ctx ctx = {&st};
    struct ss_table t = {NULL, 0, &ctx, st.n, NULL, ss_model_measure_name(m)};
    t.cols = ss_stat_columns(o->by, o->memory, &t.ncols);
    if (o->format == SS_FORMAT_TEXT)
        ss_report_header_totals(out, m, &st.totals); /* no second pass over the samples */
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, 0, "rows");
    if (o->format == SS_FORMAT_TEXT && st.n < all)
        fprintf(out, "... %zu more rows (--limit 0 shows all)\n", all - st.n);
    ss_stats_free(&st);
    return 0;
}

/* The tables of --by (report_common.h), in --help's order. */
const struct ss_report_table ss_report_tables[] = {
    {"self", SS_REPORT_SELF, SS_RT_SORT | SS_RT_MEMORY, NULL, "functions by self time (default)",
     report_stats},
    {"total", SS_REPORT_TOTAL, SS_RT_SORT | SS_RT_MEMORY, NULL, "functions by total time",
     report_stats},
    {"line", SS_REPORT_LINE, SS_RT_LINES | SS_RT_SORT | SS_RT_MEMORY, NULL,
     "source lines (R's lines=\"show\"), in file\norder", report_stats},
    {"list", SS_REPORT_LIST, SS_RT_LINES | SS_RT_SORT | SS_RT_MEMORY | SS_RT_FUNCTION, NULL,
     "each source file, every line with its self\nand total (pprof's list; --function F:\n"
     "the lines of the functions F matches)",
     ss_report_list},
    {"stacks", SS_REPORT_STACKS, SS_RT_STACKS | SS_RT_SORT | SS_RT_FOLDED, NULL,
     "distinct stacks with reference counts", report_stacks},
    {"levels", SS_REPORT_LEVELS, SS_RT_STACKS | SS_RT_SHARE, "rows in level order",
     "stack levels (1 = root), scaffold marked", ss_report_levels},
    {"runs", SS_REPORT_RUNS, SS_RT_STACKS | SS_RT_ORDER | SS_RT_LEVEL | SS_RT_FUNCTION,
     "a run has no self and total",
     "recursive run lengths per function and\nlevel (~ calls and time per call)", ss_report_runs},
    {"tree", SS_REPORT_TREE, SS_RT_STACKS | SS_RT_FUNCTION | SS_RT_TREE | SS_RT_SORT, NULL,
     "call tree, top-down (--inverted: bottom-up)", ss_report_tree},
    {"calls", SS_REPORT_CALLS, SS_RT_FUNCTION | SS_RT_SORT, NULL,
     "callers and callees of --function F", ss_report_calls},
    {"timeline", SS_REPORT_TIMELINE, SS_RT_STACKS | SS_RT_ORDER | SS_RT_LEVEL | SS_RT_WIDTH,
     "rows in time order", "the function at --level K over time", ss_report_timeline},
    {"phases", SS_REPORT_PHASES, SS_RT_STACKS | SS_RT_ORDER | SS_RT_PHASES, "rows in time order",
     "the phases found (burn-in, main work,\nfade-out): first and last sample, the\n"
     "measure, the function that tells each\napart (-e 'keep-phase main' keeps one)",
     ss_report_phases},
    {"sources", SS_REPORT_SOURCES, 0, NULL,
     "the input files and Rprof sessions,\neach with its measure "
     "and share",
     ss_report_sources},
    {"labels", SS_REPORT_LABELS, 0, NULL,
     "the samples' labels (pprof, perf):\nkey, value, count and "
     "the measure",
     ss_report_labels},
    {"transforms", SS_REPORT_TRANSFORMS, 0, NULL,
     "the transform list (-e, --script) and\nwhat each step did", ss_report_transforms},
};
const size_t ss_report_ntables = ARRAY_SIZE(ss_report_tables);

int ss_report(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
              struct ss_error *err)
{
    int rc = ss_report_check_stacks(m, o->by, NULL, 0, err);
    if (rc)
        return rc;
    rc = ss_report_check_order(m, o->by, err);
    if (rc)
        return rc;
    const struct ss_report_table *tb = ss_report_table_of(o->by);
    return tb ? tb->print(out, m, o, err) : ss_fail(err, SS_EUSAGE, "no such table");
}
