/* report_compare.c - the tables of a comparison (see report_compare.h). */
#include "num.h"
#include "report_compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "column.h"
#include "textesc.h"
#include "units.h"
#include "write.h"

void ss_compare_summary(char *buf, size_t n, const struct ss_compare *c)
{
    char b[64], nw[64], d[64];
    double tb = c->total_base * c->scale, tn = c->total_new;
    ss_format_value(b, sizeof b, &c->units, tb, 0);
    ss_format_value(nw, sizeof nw, &c->units, tn, 0);
    ss_cell_signed(d, sizeof d, &c->units, tn - tb, 0);
    size_t k = (size_t)snprintf(buf, n, "base %s, new %s, delta %s", b, nw, d);
    if (k < n && !ss_double_eq(tb, 0))
        k += (size_t)snprintf(buf + k, n - k, " (%+.2f%%)", 100.0 * (tn - tb) / tb);
    if (k < n && c->normalized)
        snprintf(buf + k, n - k, ", base normalized to the new total (x%.6g)", c->scale);
}

/* The base's files, then the new profile's header, then the summary. */
static void header(FILE *out, const struct ss_compare *c)
{
    const struct ss_model *b = c->base;
    ss_id last = SS_NONE;
    struct ss_esc e1 = SS_ESC_INIT(SS_ESC_TEXT), e2 = SS_ESC_INIT(SS_ESC_TEXT);
    for (size_t i = 0; i < b->sources.n; i++) {
        const struct ss_source *s = &b->sources.v[i];
        if (s->uri != last)
            fprintf(out, "base       %s (%s)\n", ss_esc(&e1, ss_str(b, s->uri)),
                    ss_esc(&e2, ss_str(b, s->type)));
        last = s->uri;
    }
    ss_esc_free(&e1);
    ss_esc_free(&e2);
    struct ss_totals t;
    ss_model_totals(b, &t);
    fprintf(out, "base       %llu samples\n", (unsigned long long)t.samples);
    ss_report_header(out, c->cur);
    char sum[512];
    ss_compare_summary(sum, sizeof sum, c);
    fprintf(out, "compare    %s: %s\n\n", ss_model_measure_name(c->cur), sum);
}

/* ---- functions and lines ---------------------------------------------------- */

#define CROW(ctx, r) (&((const struct ss_cmp_stats *)(ctx))->rows[r])

static void cell_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_strtab_get(&((const struct ss_cmp_stats *)ctx)->keys, CROW(ctx, r)->key),
                tsv);
}
static int cmp_name(const void *ctx, size_t a, size_t b)
{
    const struct ss_strtab *k = &((const struct ss_cmp_stats *)ctx)->keys;
    return strcmp(ss_strtab_get(k, CROW(ctx, a)->key), ss_strtab_get(k, CROW(ctx, b)->key));
}
/* by position: file (rows without one first), line, then name */
static int cmp_position(const void *ctx, size_t a, size_t b)
{
    const struct ss_strtab *k = &((const struct ss_cmp_stats *)ctx)->keys;
    const struct ss_cmp_row *x = CROW(ctx, a), *y = CROW(ctx, b);
    int c = strcmp(x->file == SS_NONE ? "" : ss_strtab_get(k, x->file),
                   y->file == SS_NONE ? "" : ss_strtab_get(k, y->file));
    if (!c)
        c = x->line < y->line ? -1 : x->line > y->line;
    return c ? c : cmp_name(ctx, a, b);
}
static const struct ss_units *stats_units(const void *ctx)
{
    return &((const struct ss_cmp_stats *)ctx)->units;
}
static void get_self(const void *ctx, size_t r, int exact, double *b, double *v)
{
    const struct ss_cmp_row *row = CROW(ctx, r);
    *b = exact ? row->self_bx : row->self_b;
    *v = exact ? row->self_nx : row->self_n;
}
static void get_total(const void *ctx, size_t r, int exact, double *b, double *v)
{
    const struct ss_cmp_row *row = CROW(ctx, r);
    *b = exact ? row->total_bx : row->total_b;
    *v = exact ? row->total_nx : row->total_n;
}
/* ties: by total delta, then by name */
static int tie_total_delta(const void *ctx, size_t a, size_t b)
{
    const struct ss_cmp_row *x = CROW(ctx, a), *y = CROW(ctx, b);
    int c = ss_cmp_desc(x->total_nx - x->total_bx, y->total_nx - y->total_bx);
    return c ? c : cmp_name(ctx, a, b);
}
static const struct ss_pair self_pair = {get_self, stats_units, tie_total_delta};
static const struct ss_pair total_pair = {get_total, stats_units, tie_total_delta};

#define CMP_COLUMNS(label, cmp)                                                                    \
    {label, NULL, 0, 0, SS_COL_LABEL, cell_name, cmp, NULL, 0},                                    \
        SS_PAIR_COLS("self.base", 10, "self", 10, "self.delta", 11, 1, &self_pair),                \
        SS_PAIR_COLS("total.base", 11, "total", 10, "total.delta", 12, 1, &total_pair)
const struct ss_col ss_cmp_fn_columns[SS_CMP_NCOLS] = {CMP_COLUMNS("name", cmp_name)};
const struct ss_col ss_cmp_line_columns[SS_CMP_NCOLS] = {CMP_COLUMNS("location", cmp_position)};

static int report_stats(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                        struct ss_error *err)
{
    struct ss_cmp_stats st;
    int rc = ss_compare_stats(c, o->by == SS_REPORT_LINE ? SS_BY_LINE : SS_BY_FUNCTION, &st, err);
    if (rc)
        return rc;
    if (o->by == SS_REPORT_TOTAL)
        ss_cmp_sort_total(&st);
    else
        ss_cmp_sort_self(&st);
    struct ss_table t = {o->by == SS_REPORT_LINE ? ss_cmp_line_columns : ss_cmp_fn_columns,
                         SS_CMP_NCOLS,
                         &st,
                         st.n,
                         NULL,
                         ss_model_measure_name(c->cur)};
    if (o->format == SS_FORMAT_TEXT)
        header(out, c);
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, o->limit > 0 ? (size_t)o->limit : 0,
                   "rows");
    ss_cmp_stats_free(&st);
    return 0;
}

/* ---- stacks ------------------------------------------------------------------- */

#define KROW(ctx, r) (&((const struct ss_cmp_stacks *)(ctx))->rows[r])

static void cell_stack(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n,
                ss_strtab_get(&((const struct ss_cmp_stacks *)ctx)->keys, KROW(ctx, r)->key), tsv);
}
static void cell_stack_depth(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, KROW(ctx, r)->depth);
}
static const struct ss_units *stacks_units(const void *ctx)
{
    return &((const struct ss_cmp_stacks *)ctx)->units;
}
static void get_stack(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = exact ? KROW(ctx, r)->base_x : KROW(ctx, r)->base;
    *v = exact ? KROW(ctx, r)->cur_x : KROW(ctx, r)->cur;
}
static const struct ss_pair stack_pair = {get_stack, stacks_units, NULL};

static const struct ss_col stack_columns[] = {
    SS_PAIR_COLS("base", 10, "new", 10, "delta", 11, 1, &stack_pair),
    {"depth", NULL, 6, 1, 0, cell_stack_depth, NULL, NULL, 0},
    {"stack", "stack (root first)", 0, 0, SS_COL_LABEL, cell_stack, NULL, NULL, 0},
};

static int report_stacks(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                         struct ss_error *err)
{
    if (o->format == SS_FORMAT_FOLDED) {
        struct ss_model mm;
        int rc = ss_compare_merge(c, &mm, err);
        if (rc)
            return rc;
        rc = ss_write_folded(&mm, out, "standard output", err);
        ss_model_free(&mm);
        return rc;
    }
    struct ss_cmp_stacks st;
    int rc = ss_compare_stacks(c, &st, err);
    if (rc)
        return rc;
    if (o->format == SS_FORMAT_TEXT)
        header(out, c);
    struct ss_table t = {stack_columns, sizeof stack_columns / sizeof *stack_columns,
                         &st,           st.n,
                         NULL,          ss_model_measure_name(c->cur)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, o->limit > 0 ? (size_t)o->limit : 0,
                   "rows");
    ss_cmp_stacks_free(&st);
    return 0;
}

/* ---- trees ---------------------------------------------------------------------- */

#define TROW(ctx, r) (&((const struct ss_cmp_tree *)(ctx))->nodes[r])

static void cell_tnode_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    /* text: indented two spaces per level */
    size_t ind = tsv ? 0 : 2 * (size_t)TROW(ctx, r)->depth;
    if (ind >= n)
        ind = n ? n - 1 : 0;
    memset(buf, ' ', ind);
    ss_cell_str(buf + ind, n - ind,
                ss_strtab_get(&((const struct ss_cmp_tree *)ctx)->keys, TROW(ctx, r)->name), tsv);
}
static void cell_tnode_depth(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, TROW(ctx, r)->depth);
}
static const struct ss_units *tree_units(const void *ctx)
{
    return &((const struct ss_cmp_tree *)ctx)->units;
}
static void get_tself(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = TROW(ctx, r)->self_b;
    *v = TROW(ctx, r)->self_n;
}
static void get_ttotal(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = exact ? TROW(ctx, r)->total_bx : TROW(ctx, r)->total_b;
    *v = exact ? TROW(ctx, r)->total_nx : TROW(ctx, r)->total_n;
}
static const struct ss_pair tself_pair = {get_tself, tree_units, NULL};
static const struct ss_pair ttotal_pair = {get_ttotal, tree_units, NULL};

static const struct ss_col tree_columns[] = {
    {"depth", NULL, 0, 0, SS_COL_TSV, cell_tnode_depth, NULL, NULL, 0},
    {"name", NULL, 0, 0, SS_COL_LABEL, cell_tnode_name, NULL, NULL, 0},
    SS_PAIR_COLS("self.base", 10, "self", 10, "self.delta", 11, 1, &tself_pair),
    SS_PAIR_COLS("total.base", 11, "total", 10, "total.delta", 12, 1, &ttotal_pair),
};

static int report_tree(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                       struct ss_error *err)
{
    struct ss_cmp_tree t;
    int rc = ss_compare_tree(c, o->inverted, o->function, &t, err);
    if (rc)
        return rc;
    size_t *order = malloc((t.n ? t.n : 1) * sizeof *order), k = 0;
    if (!order) {
        ss_cmp_tree_free(&t);
        return ss_nomem(err, "tree order");
    }
    /* the nodes shown: not deeper than --depth, not under --min-pct of
     * either side's total (a subtree left out is skipped whole) */
    double tb = t.total_b, tn = t.total_n;
    for (size_t i = 0; i < t.n; i++) {
        const struct ss_cmp_tnode *nd = &t.nodes[i];
        int deep = o->depth > 0 && nd->depth >= (uint32_t)o->depth;
        int small = o->min_pct > 0 && !(tb > 0 && 100.0 * nd->total_b / tb >= o->min_pct) &&
                    !(tn > 0 && 100.0 * nd->total_n / tn >= o->min_pct);
        if (deep || small) {
            while (i + 1 < t.n && t.nodes[i + 1].depth > nd->depth)
                i++;
            continue;
        }
        order[k++] = i;
    }
    if (o->format == SS_FORMAT_TEXT) {
        header(out, c);
        struct ss_esc esc = SS_ESC_INIT(SS_ESC_TEXT);
        fprintf(out, "%s tree%s%s, children by total delta\n",
                o->inverted ? "bottom-up" : "top-down", o->function ? " of " : "",
                o->function ? ss_esc(&esc, o->function) : "");
        ss_esc_free(&esc);
    }
    struct ss_table tab = {tree_columns, sizeof tree_columns / sizeof *tree_columns,
                           &t,           k,
                           order,        ss_model_measure_name(c->cur)};
    ss_table_print(out, &tab, o->format == SS_FORMAT_TSV, 0, "nodes");
    free(order);
    ss_cmp_tree_free(&t);
    return 0;
}

/* ---- callers and callees -------------------------------------------------------- */

/* Rows: callers, then the function's self and total, then callees. */
struct calls_ctx {
    const struct ss_cmp_calls *k;
    const char *function;
};

static void calls_row(const struct calls_ctx *x, size_t r, const char **rel, const char **name,
                      double *b, double *n)
{
    const struct ss_cmp_calls *k = x->k;
    if (r < k->ncallers) {
        *rel = "caller";
        *name = ss_strtab_get(&k->keys, k->callers[r].name);
        *b = k->callers[r].base;
        *n = k->callers[r].cur;
        return;
    }
    r -= k->ncallers;
    if (r < 2) {
        *rel = r ? "total" : "self";
        *name = x->function;
        *b = r ? k->total_b : k->self_b;
        *n = r ? k->total_n : k->self_n;
        return;
    }
    r -= 2;
    *rel = "callee";
    *name = ss_strtab_get(&k->keys, k->callees[r].name);
    *b = k->callees[r].base;
    *n = k->callees[r].cur;
}

#define CALLS(ctx) ((const struct calls_ctx *)(ctx))

static void cell_call_rel(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const char *rel, *name;
    double b, v;
    calls_row(CALLS(ctx), r, &rel, &name, &b, &v);
    ss_cell_str(buf, n, rel, tsv);
}
static void cell_call_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const char *rel, *name;
    double b, v;
    calls_row(CALLS(ctx), r, &rel, &name, &b, &v);
    ss_cell_str(buf, n, name, tsv);
}
static const struct ss_units *calls_units(const void *ctx)
{
    return &CALLS(ctx)->k->units;
}
static void get_call(const void *ctx, size_t r, int exact, double *b, double *v)
{
    const char *rel, *name;
    calls_row(CALLS(ctx), r, &rel, &name, b, v);
}
static const struct ss_pair call_pair = {get_call, calls_units, NULL};

static const struct ss_col call_columns[] = {
    {"relation", NULL, 8, 0, SS_COL_LEFT, cell_call_rel, NULL, NULL, 0},
    {"name", NULL, 0, 0, SS_COL_LABEL, cell_call_name, NULL, NULL, 0},
    SS_PAIR_COLS("base", 10, "new", 10, "delta", 11, 1, &call_pair),
};

static int report_calls(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                        struct ss_error *err)
{
    if (!o->function)
        return ss_fail(err, SS_EUSAGE, "--by calls needs --function F");
    struct ss_cmp_calls k;
    int rc = ss_compare_calls(c, o->function, &k, err);
    if (rc)
        return rc;
    if (o->format == SS_FORMAT_TEXT)
        header(out, c);
    struct calls_ctx x = {&k, o->function};
    struct ss_table t = {call_columns, sizeof call_columns / sizeof *call_columns,
                         &x,           k.ncallers + 2 + k.ncallees,
                         NULL,         ss_model_measure_name(c->cur)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, 0, "rows");
    if (o->format == SS_FORMAT_TEXT)
        fputs("(callers above the function, callees below; each by delta)\n", out);
    ss_cmp_calls_free(&k);
    return 0;
}

int ss_report_compare(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                      struct ss_error *err)
{
    switch (o->by) {
    case SS_REPORT_SELF:
    case SS_REPORT_TOTAL:
    case SS_REPORT_LINE:
        return report_stats(out, c, o, err);
    case SS_REPORT_STACKS:
        return report_stacks(out, c, o, err);
    case SS_REPORT_TREE:
        return report_tree(out, c, o, err);
    case SS_REPORT_CALLS:
        return report_calls(out, c, o, err);
    default:
        return ss_fail(err, SS_EUSAGE,
                       "--base: this table does not compare two profiles; comparisons are "
                       "printed --by self, total, line, stacks, tree or calls");
    }
}
