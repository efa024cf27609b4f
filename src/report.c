/* report.c - statistics tables as text or TSV (see report.h). */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_analysis.h"
#include "report_labels.h"
#include "report_sources.h"
#include "report_transforms.h"
#include "column.h"
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

#define STAT_COLUMNS(label, cmp_label)                                                             \
    {label, NULL, 0, 0, SS_COL_LABEL, cell_name, cmp_label, NULL, 0},                              \
        {"self.@", NULL, 10, 0, 0, cell_self_time, ss_stat_cmp_self, NULL, 0},                     \
        {"self.pct", NULL, 9, 0, 0, cell_self_pct, ss_stat_cmp_self, NULL, 0},                     \
        {"total.@", NULL, 11, 0, 0, cell_total_time, cmp_total, NULL, 0},                          \
        {"total.pct", NULL, 10, 0, 0, cell_total_pct, cmp_total, NULL, 0},                         \
        {"mem.total", NULL, 10, 0, 0, cell_mem, NULL, NULL, 0},
const struct ss_col ss_fn_columns[SS_STAT_NCOLS] = {STAT_COLUMNS("name", cmp_name)};
const struct ss_col ss_line_columns[SS_STAT_NCOLS] = {STAT_COLUMNS("location", cmp_position)};

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
    if (need > tb->cap) {
        char *ns = realloc(tb->s, need);
        if (!ns)
            return tb->s ? tb->s : "";
        tb->s = ns;
        tb->cap = need;
        ss_stack_text(m, st, r, ";", tb->s, tb->cap);
    }
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

static int report_stacks(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                         struct ss_error *err)
{
    if (o->format == SS_FORMAT_FOLDED)
        return ss_write_folded(m, out, "standard output", err);
    struct ss_stacks st;
    int rc = ss_stacks_compute(m, &st, err);
    if (rc)
        return rc;
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
    struct ss_table t = {ss_stack_columns,        SS_STACK_NCOLS, &ctx, st.n, NULL,
                         ss_model_measure_name(m)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, o->limit > 0 ? (size_t)o->limit : 0,
                   "rows");
    ss_cellbuf_free(&tb);
    ss_stacks_free(&st);
    return 0;
}

int ss_report(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
              struct ss_error *err)
{
    int rc = ss_report_check_stacks(m, o->by, NULL, 0, err);
    if (rc)
        return rc;
    rc = ss_report_check_order(m, o->by, err);
    if (rc)
        return rc;
    if (o->by == SS_REPORT_STACKS)
        return report_stacks(out, m, o, err);
    if (o->by == SS_REPORT_SOURCES)
        return ss_report_sources(out, m, o, err);
    if (o->by == SS_REPORT_LEVELS)
        return ss_report_levels(out, m, o, err);
    if (o->by == SS_REPORT_RUNS)
        return ss_report_runs(out, m, o, err);
    if (o->by == SS_REPORT_TREE)
        return ss_report_tree(out, m, o, err);
    if (o->by == SS_REPORT_CALLS)
        return ss_report_calls(out, m, o, err);
    if (o->by == SS_REPORT_TIMELINE)
        return ss_report_timeline(out, m, o, err);
    if (o->by == SS_REPORT_TRANSFORMS)
        return ss_report_transforms(out, m, o, err);
    if (o->by == SS_REPORT_LABELS)
        return ss_report_labels(out, m, o, err);
    struct ss_stats st;
    rc = ss_stats_compute(m, o->by == SS_REPORT_LINE ? SS_BY_LINE : SS_BY_FUNCTION, o->memory, &st,
                          err);
    if (rc)
        return rc;
    if (o->by == SS_REPORT_SELF)
        ss_stats_sort_self(&st);
    else if (o->by == SS_REPORT_TOTAL)
        ss_stats_sort_total(&st);
    else
        ss_stats_sort_line(&st);
    struct ss_stat_ctx ctx = {&st};
    struct ss_table t = {NULL, 0, &ctx, st.n, NULL, ss_model_measure_name(m)};
    t.cols = ss_stat_columns(o->by, o->memory, &t.ncols);
    if (o->format == SS_FORMAT_TEXT)
        ss_report_header_totals(out, m, &st.totals); /* no second pass over the samples */
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, o->limit > 0 ? (size_t)o->limit : 0,
                   "rows");
    ss_stats_free(&st);
    return 0;
}
