/* report_compare.c - the tables of a comparison (see report_compare.h). */
#include "num.h"
#include "report_compare.h"
#include "report_phases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "column.h"
#include "levels.h"
#include "report_list.h"
#include "report_sources.h"
#include "sort.h"
#include "vec.h"
#include "textesc.h"
#include "transform.h"
#include "units.h"
#include "write.h"

void ss_compare_summary(char *buf, size_t n, const struct ss_compare *c, int seconds)
{
    char b[64], nw[64], d[64];
    double tb = c->total_base * c->scale, tn = c->total_new;
    ss_format_value(b, sizeof b, &c->units, tb, 0);
    ss_format_value(nw, sizeof nw, &c->units, tn, 0);
    ss_cell_signed(d, sizeof d, &c->units, tn - tb, 0);
    const char *u = seconds && c->units.measure.kind == SS_MEASURE_TIME ? " s" : "";
    size_t k = (size_t)snprintf(buf, n, "base %s%s, new %s%s, delta %s%s", b, u, nw, u, d, u);
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
    ss_compare_summary(sum, sizeof sum, c, 1);
    fprintf(out, "compare    %s: %s\n\n", ss_model_measure_name(c->cur), sum);
}

/* The text lines that say what the verdicts of a table found and how
 * they were made (verdict.h), after the header. */
static void verdict_lines(FILE *out, const struct ss_cmp_vinfo *vi, const char *what, size_t grew,
                          size_t shrank, const char *what2, size_t grew2, size_t shrank2)
{
    if (!vi->done)
        return;
    fprintf(out, "verdicts   %s%s%zu grew, %zu shrank", what, *what ? " " : "", grew, shrank);
    if (what2)
        fprintf(out, "; %s %zu grew, %zu shrank", what2, grew2, shrank2);
    fprintf(out, " (of %zu rows, q <= %g after Benjamini-Hochberg)\n", vi->rows, vi->alpha);
    fprintf(out, "           %s\n", vi->method);
    fputs("           tested: each row's share of its profile (the TSV's interval is of the "
          "delta with --normalize); ~: no change this data can tell from noise\n\n",
          out);
}

/* Rows kept by --verdict (o->verdict: SS_REPORT_V_*), in order[], the
 * verdict of row i at first + i * stride; returns how many, or SIZE_MAX
 * when memory runs out.  Without --verdict, order is NULL and every row
 * is kept. */
static size_t verdict_filter(const struct ss_report_opts *o, const void *first, size_t n,
                             size_t stride, const size_t *in, size_t nin, size_t **order)
{
    *order = NULL;
    if (!o->verdict)
        return in ? nin : n;
    size_t *ord = ss_alloc_array(in ? nin : n, sizeof *ord), k = 0;
    if (!ord)
        return SIZE_MAX;
    for (size_t i = 0; i < (in ? nin : n); i++) {
        size_t r = in ? in[i] : i;
        int s = ((const struct ss_verdict *)(const void *)((const char *)first + r * stride))->sign;
        if ((o->verdict == SS_REPORT_V_CHANGED && s) || (o->verdict == SS_REPORT_V_GREW && s > 0) ||
            (o->verdict == SS_REPORT_V_SHRANK && s < 0))
            ord[k++] = r;
    }
    *order = ord;
    return k;
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
static const struct ss_pair self_pair = {get_self, stats_units, tie_total_delta, 0};
static const struct ss_pair total_pair = {get_total, stats_units, tie_total_delta, 0};
static const struct ss_verdict *vself_of(const void *ctx, size_t r)
{
    return &CROW(ctx, r)->vself;
}
static const struct ss_verdict *vtotal_of(const void *ctx, size_t r)
{
    return &CROW(ctx, r)->vtotal;
}
SS_VERDICT_CELLS(vself, vself_of, stats_units)
SS_VERDICT_CELLS(vtotal, vtotal_of, stats_units)

/* the verdicts' TSV columns after the others, so that older readers keep theirs */
#define CMP_COLUMNS(label, cmp)                                                                    \
    {label, NULL, 0, 0, SS_COL_LABEL, cell_name, cmp, NULL, 0},                                    \
        SS_PAIR_COLS("self.base", 10, "self", 10, "self.delta", 11, 1, &self_pair),                \
        SS_VERDICT_TEXT_COL("self.", vself),                                                       \
        SS_PAIR_COLS("total.base", 11, "total", 10, "total.delta", 12, 1, &total_pair),            \
        SS_VERDICT_TEXT_COL("total.", vtotal), SS_VERDICT_COLS("self.", vself),                    \
        SS_VERDICT_COLS("total.", vtotal), SS_VERDICT_MARK_COL(vself), SS_VERDICT_MARK_COL(vtotal)
const struct ss_col ss_cmp_fn_columns[SS_CMP_NCOLS] = {CMP_COLUMNS("name", cmp_name)};
const struct ss_col ss_cmp_line_columns[SS_CMP_NCOLS] = {CMP_COLUMNS("location", cmp_position)};

static int report_stats(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                        struct ss_error *err)
{
    struct ss_cmp_stats st;
    int rc = ss_compare_stats(c, o->by == SS_REPORT_LINE ? SS_BY_LINE : SS_BY_FUNCTION, &st, err);
    if (rc)
        return rc;
    /* the largest growth first (--by total: of the total); a limit keeps
     * those, --sort position then orders them by file and line */
    enum ss_report_sort sort = o->sort;
    if (sort == SS_SORT_DEFAULT)
        sort = o->by == SS_REPORT_TOTAL ? SS_SORT_TOTAL : SS_SORT_SELF;
    if (sort == SS_SORT_TOTAL ? ss_cmp_sort_total(&st) : ss_cmp_sort_self(&st)) {
        ss_cmp_stats_free(&st);
        return ss_nomem(err, "comparison");
    }
    /* --verdict keeps the rows by their verdict (--by total: the total's,
     * else self's) in that order; a limit keeps the first of those, and
     * --sort position then orders them by file and line */
    size_t g, sh, g2, sh2;
    ss_verdict_count(st.n ? &st.rows[0].vself : NULL, st.n, sizeof *st.rows, &g, &sh);
    ss_verdict_count(st.n ? &st.rows[0].vtotal : NULL, st.n, sizeof *st.rows, &g2, &sh2);
    int by_total = o->by == SS_REPORT_TOTAL;
    size_t *order,
        n = verdict_filter(o, st.n ? (by_total ? &st.rows[0].vtotal : &st.rows[0].vself) : NULL,
                           st.n, sizeof *st.rows, NULL, 0, &order);
    if (n == SIZE_MAX) {
        ss_cmp_stats_free(&st);
        return ss_nomem(err, "--verdict");
    }
    if (order) { /* the kept rows to the front, in order (order[k] >= k) */
        for (size_t k = 0; k < n; k++)
            st.rows[k] = st.rows[order[k]];
        st.n = n;
        free(order);
    }
    size_t all = st.n;
    if (o->limit > 0 && (size_t)o->limit < st.n)
        st.n = (size_t)o->limit;
    if (sort == SS_SORT_POSITION && ss_cmp_sort_line(&st)) {
        ss_cmp_stats_free(&st);
        return ss_nomem(err, "comparison");
    }
    struct ss_table t = {o->by == SS_REPORT_LINE ? ss_cmp_line_columns : ss_cmp_fn_columns,
                         SS_CMP_NCOLS,
                         &st,
                         st.n,
                         NULL,
                         ss_model_measure_name(c->cur)};
    if (o->format == SS_FORMAT_TEXT) {
        header(out, c);
        verdict_lines(out, &st.vinfo, "self", g, sh, "total", g2, sh2);
    }
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, 0, "rows");
    if (o->format == SS_FORMAT_TEXT && st.n < all)
        fprintf(out, "... %zu more rows (--limit 0 shows all)\n", all - st.n);
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
static const struct ss_pair stack_pair = {get_stack, stacks_units, NULL, 0};
static const struct ss_verdict *vstack_of(const void *ctx, size_t r)
{
    return &KROW(ctx, r)->v;
}
SS_VERDICT_CELLS(vstack, vstack_of, stacks_units)

static int cmp_stack_text(const void *a, const void *b, void *ctx)
{
    const struct ss_cmp_stacks *st = ctx;
    return strcmp(ss_strtab_get(&st->keys, st->rows[*(const size_t *)a].key),
                  ss_strtab_get(&st->keys, st->rows[*(const size_t *)b].key));
}

static const struct ss_col stack_columns[] = {
    SS_PAIR_COLS("base", 10, "new", 10, "delta", 11, 1, &stack_pair),
    SS_VERDICT_TEXT_COL("", vstack),
    {"depth", NULL, 6, 1, 0, cell_stack_depth, NULL, NULL, 0},
    {"stack", "stack (root first)", 0, 0, SS_COL_LABEL, cell_stack, NULL, NULL, 0},
    SS_VERDICT_COLS("", vstack),
    SS_VERDICT_MARK_COL(vstack),
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
    /* by delta (ss_compare_stacks's order), the rows --verdict keeps, or
     * --sort position: those by the names root first */
    size_t *order,
        n = verdict_filter(o, st.n ? &st.rows[0].v : NULL, st.n, sizeof *st.rows, NULL, 0, &order);
    if (n == SIZE_MAX) {
        ss_cmp_stacks_free(&st);
        return ss_nomem(err, "--verdict");
    }
    if (o->sort == SS_SORT_POSITION && n > 0) {
        if (!order && (order = ss_alloc_array(st.n, sizeof *order)))
            for (size_t i = 0; i < st.n; i++)
                order[i] = i;
        if (!order || ss_sort(order, n, sizeof *order, cmp_stack_text, &st)) {
            free(order);
            ss_cmp_stacks_free(&st);
            return ss_nomem(err, "stacks");
        }
    }
    if (o->format == SS_FORMAT_TEXT) {
        header(out, c);
        size_t g, sh;
        ss_verdict_count(st.n ? &st.rows[0].v : NULL, st.n, sizeof *st.rows, &g, &sh);
        verdict_lines(out, &st.vinfo, "", g, sh, NULL, 0, 0);
    }
    struct ss_table t = {stack_columns, sizeof stack_columns / sizeof *stack_columns,
                         &st,           n,
                         order,         ss_model_measure_name(c->cur)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, o->limit > 0 ? (size_t)o->limit : 0,
                   "rows");
    free(order);
    ss_cmp_stacks_free(&st);
    return 0;
}

/* ---- trees ---------------------------------------------------------------------- */

#define TROW(ctx, r) (&((const struct ss_cmp_tree *)(ctx))->nodes[r])

static void cell_tnode_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    /* text: indented two spaces per level (at most SS_TREE_INDENT_MAX) */
    size_t ind = tsv ? 0 : ss_tree_indent(buf, n, TROW(ctx, r)->depth);
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
/* --sort: siblings by name or the larger delta first, ties by the other
 * delta, then by name */
static int cmp_tnode_name(const void *ctx, size_t a, size_t b)
{
    const struct ss_strtab *k = &((const struct ss_cmp_tree *)ctx)->keys;
    return strcmp(ss_strtab_get(k, TROW(ctx, a)->name), ss_strtab_get(k, TROW(ctx, b)->name));
}
static int tie_tself(const void *ctx, size_t a, size_t b)
{
    int c = ss_cmp_desc(TROW(ctx, a)->total_nx - TROW(ctx, a)->total_bx,
                        TROW(ctx, b)->total_nx - TROW(ctx, b)->total_bx);
    return c ? c : cmp_tnode_name(ctx, a, b);
}
static int tie_ttotal(const void *ctx, size_t a, size_t b)
{
    int c = ss_cmp_desc(TROW(ctx, a)->self_n - TROW(ctx, a)->self_b,
                        TROW(ctx, b)->self_n - TROW(ctx, b)->self_b);
    return c ? c : cmp_tnode_name(ctx, a, b);
}
static int cmp_tnode_position(const void *ctx, size_t a, size_t b)
{
    int c = cmp_tnode_name(ctx, a, b);
    return c ? c : tie_tself(ctx, a, b);
}
static const struct ss_pair tself_pair = {get_tself, tree_units, tie_tself, 0};
static const struct ss_pair ttotal_pair = {get_ttotal, tree_units, tie_ttotal, 0};
/* the keys of --sort self, total and position */
static const struct ss_col tree_keys[] = {
    [SS_SORT_SELF] = {"self.delta", NULL, 0, 0, 0, NULL, NULL, &tself_pair, SS_PART_DELTA},
    [SS_SORT_TOTAL] = {"total.delta", NULL, 0, 0, 0, NULL, NULL, &ttotal_pair, SS_PART_DELTA},
    [SS_SORT_POSITION] = {"name", NULL, 0, 0, 0, NULL, cmp_tnode_position, NULL, 0},
};
static uint32_t tnode_depth(const void *ctx, size_t r)
{
    return TROW(ctx, r)->depth;
}
/* --limit: the heavier side's total */
static double tnode_weight(const void *ctx, size_t r)
{
    double b = TROW(ctx, r)->total_b, n = TROW(ctx, r)->total_n;
    return b > n ? b : n;
}
static const struct ss_verdict *tvself_of(const void *ctx, size_t r)
{
    return &TROW(ctx, r)->vself;
}
static const struct ss_verdict *tvtotal_of(const void *ctx, size_t r)
{
    return &TROW(ctx, r)->vtotal;
}
SS_VERDICT_CELLS(tvself, tvself_of, tree_units)
SS_VERDICT_CELLS(tvtotal, tvtotal_of, tree_units)

static const struct ss_col tree_columns[] = {
    {"depth", NULL, 0, 0, SS_COL_TSV, cell_tnode_depth, NULL, NULL, 0},
    {"name", NULL, 0, 0, SS_COL_LABEL, cell_tnode_name, NULL, NULL, 0},
    SS_PAIR_COLS("self.base", 10, "self", 10, "self.delta", 11, 1, &tself_pair),
    SS_VERDICT_TEXT_COL("self.", tvself),
    SS_PAIR_COLS("total.base", 11, "total", 10, "total.delta", 12, 1, &ttotal_pair),
    SS_VERDICT_TEXT_COL("total.", tvtotal),
    SS_VERDICT_COLS("self.", tvself),
    SS_VERDICT_COLS("total.", tvtotal),
    SS_VERDICT_MARK_COL(tvself),
    SS_VERDICT_MARK_COL(tvtotal),
};

static int report_tree(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                       struct ss_error *err)
{
    struct ss_cmp_tree t;
    int rc = ss_compare_tree(c, o->inverted, o->function, &t, err);
    if (rc)
        return rc;
    size_t *order = o->sort ? ss_tree_sorted(t.n, tnode_depth, &tree_keys[o->sort], &t)
                            : malloc((t.n ? t.n : 1) * sizeof *order);
    for (size_t i = 0; order && !o->sort && i < t.n; i++)
        order[i] = i;
    size_t k = 0;
    if (!order) {
        ss_cmp_tree_free(&t);
        return ss_nomem(err, "tree order");
    }
    /* the nodes shown: not deeper than --depth, not under --min-pct of
     * either side's total (a subtree left out is skipped whole) */
    double tb = t.total_b, tn = t.total_n;
    for (size_t i = 0; i < t.n; i++) { /* in place: k <= i */
        const struct ss_cmp_tnode *nd = &t.nodes[order[i]];
        int deep = o->depth > 0 && nd->depth >= (uint32_t)o->depth;
        int small = o->min_pct > 0 && !(tb > 0 && 100.0 * nd->total_b / tb >= o->min_pct) &&
                    !(tn > 0 && 100.0 * nd->total_n / tn >= o->min_pct);
        if (deep || small) {
            while (i + 1 < t.n && t.nodes[order[i + 1]].depth > nd->depth)
                i++;
            continue;
        }
        order[k++] = order[i];
    }
    size_t *vorder, nv = verdict_filter(o, t.n ? &t.nodes[0].vtotal : NULL, t.n, sizeof *t.nodes,
                                        order, k, &vorder);
    if (nv == SIZE_MAX) {
        free(order);
        ss_cmp_tree_free(&t);
        return ss_nomem(err, "--verdict");
    }
    size_t all = nv;
    nv = ss_tree_limit(vorder ? vorder : order, nv, o->limit > 0 ? (size_t)o->limit : 0,
                       tnode_depth, tnode_weight, &t);
    if (nv == SIZE_MAX) {
        free(order);
        free(vorder);
        ss_cmp_tree_free(&t);
        return ss_nomem(err, "--limit");
    }
    if (o->format == SS_FORMAT_TEXT) {
        header(out, c);
        size_t g, sh, g2, sh2;
        ss_verdict_count(t.n ? &t.nodes[0].vself : NULL, t.n, sizeof *t.nodes, &g, &sh);
        ss_verdict_count(t.n ? &t.nodes[0].vtotal : NULL, t.n, sizeof *t.nodes, &g2, &sh2);
        verdict_lines(out, &t.vinfo, "self", g, sh, "total", g2, sh2);
        struct ss_esc esc = SS_ESC_INIT(SS_ESC_TEXT);
        static const char *const by[] = {"total delta", "self delta", "total delta", "name"};
        fprintf(out, "%s tree%s%s, children by %s\n", o->inverted ? "bottom-up" : "top-down",
                o->function ? " of " : "", o->function ? ss_esc(&esc, o->function) : "",
                by[o->sort]);
        ss_esc_free(&esc);
    }
    struct ss_table tab = {tree_columns,
                           sizeof tree_columns / sizeof *tree_columns,
                           &t,
                           nv,
                           vorder ? vorder : order,
                           ss_model_measure_name(c->cur)};
    ss_table_print(out, &tab, o->format == SS_FORMAT_TSV, 0, "nodes");
    ss_report_more(out, o, all - nv, "nodes");
    free(order);
    free(vorder);
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
/* --sort: callers (callees) by name or the larger delta first, ties by
 * the other */
static int cmp_call_name(const void *ctx, size_t a, size_t b)
{
    const char *rel, *na, *nb;
    double ba, va, bb, vb;
    calls_row(CALLS(ctx), a, &rel, &na, &ba, &va);
    calls_row(CALLS(ctx), b, &rel, &nb, &bb, &vb);
    int c = strcmp(na, nb);
    return c ? c : ss_cmp_desc(va - ba, vb - bb);
}
static const struct ss_pair call_pair = {get_call, calls_units, cmp_call_name, 0};

static const struct ss_col call_columns[] = {
    {"relation", NULL, 8, 0, SS_COL_LEFT, cell_call_rel, NULL, NULL, 0},
    {"name", NULL, 0, 0, SS_COL_LABEL, cell_call_name, cmp_call_name, NULL, 0},
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
    /* --limit N: the first N callers and callees (by delta) */
    size_t all_r = k.ncallers, all_c = k.ncallees;
    if (o->limit > 0) {
        k.ncallers = all_r < (size_t)o->limit ? all_r : (size_t)o->limit;
        k.ncallees = all_c < (size_t)o->limit ? all_c : (size_t)o->limit;
    }
    struct calls_ctx x = {&k, o->function};
    /* --sort: callers and callees by delta (column 4) or name (column 1) */
    size_t nr = k.ncallers + 2 + k.ncallees, *order = ss_alloc_array(nr, sizeof *order);
    for (size_t i = 0; order && i < nr; i++)
        order[i] = i;
    const struct ss_col *key = &call_columns[o->sort == SS_SORT_POSITION ? 1 : 4];
    if (!order || (o->sort && (ss_sort_rows(order, k.ncallers, key, &x) ||
                               ss_sort_rows(order + k.ncallers + 2, k.ncallees, key, &x)))) {
        free(order);
        ss_cmp_calls_free(&k);
        return ss_nomem(err, "callers and callees");
    }
    struct ss_table t = {call_columns, sizeof call_columns / sizeof *call_columns,
                         &x,           nr,
                         order,        ss_model_measure_name(c->cur)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, 0, "rows");
    ss_report_more_calls(out, o, all_r - k.ncallers, all_c - k.ncallees);
    if (o->format == SS_FORMAT_TEXT)
        fprintf(out, "(callers above the function, callees below; each by %s)\n",
                o->sort == SS_SORT_POSITION ? "name" : "delta");
    free(order);
    ss_cmp_calls_free(&k);
    return 0;
}

/* ---- levels -------------------------------------------------------------------- */

#define LVROW(ctx, r) (&((const struct ss_cmp_levels *)(ctx))->rows[r])

static void cell_lv_level(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, LVROW(ctx, r)->level);
}
static void cell_lv_top(char *buf, size_t n, const void *ctx, size_t r, int tsv, int base)
{
    ss_id k = base ? LVROW(ctx, r)->top_b : LVROW(ctx, r)->top_n;
    ss_cell_str(buf, n,
                k == SS_NONE ? "-" : ss_strtab_get(&((const struct ss_cmp_levels *)ctx)->keys, k),
                tsv);
}
static void cell_lv_top_b(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    cell_lv_top(buf, n, ctx, r, tsv, 1);
}
static void cell_lv_top_n(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    cell_lv_top(buf, n, ctx, r, tsv, 0);
}
static const struct ss_units *levels_units(const void *ctx)
{
    return &((const struct ss_cmp_levels *)ctx)->units;
}
static void get_lv_samples(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = (double)LVROW(ctx, r)->samples_b;
    *v = (double)LVROW(ctx, r)->samples_n;
}
static void get_lv_value(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = LVROW(ctx, r)->value_b;
    *v = LVROW(ctx, r)->value_n;
}
static void get_lv_distinct(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = LVROW(ctx, r)->distinct_b;
    *v = LVROW(ctx, r)->distinct_n;
}
static const struct ss_pair lv_samples = {get_lv_samples, NULL, NULL, 0};
static const struct ss_pair lv_value = {get_lv_value, levels_units, NULL, 0};
static const struct ss_pair lv_distinct = {get_lv_distinct, NULL, NULL, 0};

const struct ss_col ss_cmp_level_columns[SS_CMPLV_NCOLS] = {
    {"level", NULL, 5, 0, 0, cell_lv_level, NULL, NULL, 0},
    SS_PAIR_COLS("samples.base", 12, "samples", 9, "samples.delta", 13, 1, &lv_samples),
    SS_PAIR_COLS("@.base", 10, "@", 10, "@.delta", 11, 1, &lv_value),
    SS_PAIR_COLS("distinct.base", 13, "distinct", 8, "distinct.delta", 14, 1, &lv_distinct),
    {"top.base", NULL, 0, 2, SS_COL_LEFT, cell_lv_top_b, NULL, NULL, 0},
    {"top", NULL, 0, 0, SS_COL_LABEL, cell_lv_top_n, NULL, NULL, 0},
};

static int report_levels(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                         struct ss_error *err)
{
    struct ss_cmp_levels l;
    int rc = ss_compare_levels(c, &l, err);
    if (rc)
        return rc;
    if (o->format == SS_FORMAT_TEXT)
        header(out, c);
    struct ss_table t = {ss_cmp_level_columns,         SS_CMPLV_NCOLS, &l, l.n, NULL,
                         ss_model_measure_name(c->cur)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, o->limit > 0 ? (size_t)o->limit : 0,
                   "levels");
    ss_cmp_levels_free(&l);
    return 0;
}

/* ---- run lengths ------------------------------------------------------------------- */

#define RUROW(ctx, r) (&((const struct ss_cmp_runs *)(ctx))->rows[r])

static void cell_ru_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n,
                ss_strtab_get(&((const struct ss_cmp_runs *)ctx)->keys, RUROW(ctx, r)->name), tsv);
}
static void cell_ru_level(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    if (RUROW(ctx, r)->level)
        snprintf(buf, n, "%u", RUROW(ctx, r)->level);
    else
        snprintf(buf, n, "all");
}
static const struct ss_units *runs_units(const void *ctx)
{
    return &((const struct ss_cmp_runs *)ctx)->units;
}
static void get_ru_runs(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = (double)RUROW(ctx, r)->runs_b;
    *v = (double)RUROW(ctx, r)->runs_n;
}
static void get_ru_samples(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = (double)RUROW(ctx, r)->samples_b;
    *v = (double)RUROW(ctx, r)->samples_n;
}
static void get_ru_mean(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = RUROW(ctx, r)->mean_b;
    *v = RUROW(ctx, r)->mean_n;
}
static void get_ru_value(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = RUROW(ctx, r)->value_b;
    *v = RUROW(ctx, r)->value_n;
}
static const struct ss_pair ru_runs = {get_ru_runs, NULL, NULL, 0};
static const struct ss_pair ru_samples = {get_ru_samples, NULL, NULL, 0};
static const struct ss_pair ru_mean = {get_ru_mean, NULL, NULL, 2};
static const struct ss_pair ru_value = {get_ru_value, runs_units, NULL, 0};

const struct ss_col ss_cmp_run_columns[SS_CMPRU_NCOLS] = {
    {"name", NULL, 0, 0, SS_COL_LABEL, cell_ru_name, NULL, NULL, 0},
    {"level", NULL, 5, 0, 0, cell_ru_level, NULL, NULL, 0},
    SS_PAIR_COLS("runs.base", 9, "runs", 7, "runs.delta", 10, 1, &ru_runs),
    SS_PAIR_COLS("samples.base", 12, "samples", 9, "samples.delta", 13, 1, &ru_samples),
    SS_PAIR_COLS("mean.base", 9, "mean", 7, "mean.delta", 10, 1, &ru_mean),
    SS_PAIR_COLS("@.base", 10, "@", 10, "@.delta", 11, 1, &ru_value),
};

static int report_runs(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                       struct ss_error *err)
{
    if (o->function && ss_model_find_function(c->cur, o->function) == SS_NONE &&
        ss_model_find_function(c->base, o->function) == SS_NONE)
        return ss_fail(err, SS_EUSAGE,
                       "--function: no function named '%s' in the profile or its base",
                       o->function);
    struct ss_cmp_runs k;
    int rc = ss_compare_runs(c, o->level, o->function, &k, err);
    if (rc)
        return rc;
    if (o->format == SS_FORMAT_TEXT)
        header(out, c);
    struct ss_table t = {ss_cmp_run_columns,           SS_CMPRU_NCOLS, &k, k.n, NULL,
                         ss_model_measure_name(c->cur)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, o->limit > 0 ? (size_t)o->limit : 0,
                   "rows");
    if (o->format == SS_FORMAT_TEXT)
        fputs("(runs and samples as recorded on each side; by the delta of the measure)\n", out);
    ss_cmp_runs_free(&k);
    return 0;
}

/* ---- timeline ----------------------------------------------------------------------- */

struct tl_ctx {
    const struct ss_compare *c;
    const struct ss_cmp_timeline *t;
};
#define TLW(ctx, r, side)                                                                          \
    ((r) < ((const struct tl_ctx *)(ctx))->t->side.nwindows                                        \
         ? &((const struct tl_ctx *)(ctx))->t->side.windows[r]                                     \
         : NULL)

static void cell_tl_window(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, r + 1);
}
static void tl_cell(char *buf, size_t n, const struct ss_model *m,
                    const struct ss_timeline_window *w, int what, int tsv)
{
    if (!w)
        snprintf(buf, n, "%s", tsv ? "NA" : "-");
    else if (what == 0)
        ss_cell_u64(buf, n, w->first + 1);
    else if (what == 1)
        ss_cell_u64(buf, n, w->first + w->n);
    else if (what == 2)
        ss_cell_str(buf, n, w->top == SS_NONE ? "-" : ss_function_name(m, w->top), tsv);
    else
        ss_cell_u64(buf, n, w->top_n);
}
#define TL_CELL(fname, side, model, what)                                                          \
    static void fname(char *buf, size_t n, const void *ctx, size_t r, int tsv)                     \
    {                                                                                              \
        tl_cell(buf, n, ((const struct tl_ctx *)ctx)->c->model, TLW(ctx, r, side), what, tsv);     \
    }
TL_CELL(cell_tl_first_b, base, base, 0)
TL_CELL(cell_tl_last_b, base, base, 1)
TL_CELL(cell_tl_top_b, base, base, 2)
TL_CELL(cell_tl_topn_b, base, base, 3)
TL_CELL(cell_tl_first_n, cur, cur, 0)
TL_CELL(cell_tl_last_n, cur, cur, 1)
TL_CELL(cell_tl_top_n, cur, cur, 2)
TL_CELL(cell_tl_topn_n, cur, cur, 3)

/* The windows of both sides (TSV; the text is a drawing). */
static const struct ss_col window_columns[] = {
    {"window", NULL, 0, 0, 0, cell_tl_window, NULL, NULL, 0},
    {"first.base", NULL, 0, 0, 0, cell_tl_first_b, NULL, NULL, 0},
    {"last.base", NULL, 0, 0, 0, cell_tl_last_b, NULL, NULL, 0},
    {"top.base", NULL, 0, 0, 0, cell_tl_top_b, NULL, NULL, 0},
    {"top.samples.base", NULL, 0, 0, 0, cell_tl_topn_b, NULL, NULL, 0},
    {"first", NULL, 0, 0, 0, cell_tl_first_n, NULL, NULL, 0},
    {"last", NULL, 0, 0, 0, cell_tl_last_n, NULL, NULL, 0},
    {"top", NULL, 0, 0, 0, cell_tl_top_n, NULL, NULL, 0},
    {"top.samples", NULL, 0, 0, 0, cell_tl_topn_n, NULL, NULL, 0},
};

/* One function of either side's legend: samples with it at the level. */
struct tl_fn {
    const char *name;
    uint64_t b, n;
    char letter;
};

static char tl_letter(size_t i)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    return i < sizeof letters - 1 ? letters[i] : '+';
}

/* Add the legend of one side to fns (by name, in order of appearance). */
static int tl_legend(struct tl_fn **fns, size_t *n, const struct ss_model *m,
                     const struct ss_timeline *t, int base)
{
    for (size_t k = 0; k < t->nlegend; k++) {
        const char *name = ss_function_name(m, t->legend[k].function);
        size_t i = 0;
        while (i < *n && strcmp((*fns)[i].name, name))
            i++;
        if (i == *n) {
            struct tl_fn *nf = ss_realloc_array(*fns, *n + 1, sizeof *nf);
            if (!nf)
                return -1;
            *fns = nf;
            nf[i] = (struct tl_fn){name, 0, 0, tl_letter(i)};
            (*n)++;
        }
        if (base)
            (*fns)[i].b = t->legend[k].n;
        else
            (*fns)[i].n = t->legend[k].n;
    }
    return 0;
}

static char tl_letter_of(const struct tl_fn *fns, size_t n, const struct ss_model *m, ss_id top)
{
    if (top == SS_NONE)
        return '.';
    const char *name = ss_function_name(m, top);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(fns[i].name, name))
            return fns[i].letter;
    return '.';
}

static void tl_strip(FILE *out, const char *label, const struct ss_timeline *t,
                     const struct ss_model *m, const struct tl_fn *fns, size_t n)
{
    fprintf(out, "%-6s", label);
    for (size_t i = 0; i < t->nwindows; i++)
        fputc(tl_letter_of(fns, n, m, t->windows[i].top), out);
    fputc('\n', out);
}

static void tl_phases(FILE *out, const char *label, const struct ss_timeline *t,
                      const struct ss_model *m, const struct tl_fn *fns, size_t n)
{
    struct ss_esc esc = SS_ESC_INIT(SS_ESC_TEXT);
    fprintf(out, "\n%s phases (runs of windows with the same function):\n", label);
    for (size_t r = 0; r < t->nruns; r++) {
        const struct ss_timeline_run *ru = &t->runs[r];
        fprintf(out, "  samples %zu-%zu  %c  %s\n", ru->first + 1, ru->first + ru->n,
                tl_letter_of(fns, n, m, ru->top),
                ru->top == SS_NONE ? "-" : ss_esc(&esc, ss_function_name(m, ru->top)));
    }
    ss_esc_free(&esc);
}

static int report_timeline(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                           struct ss_error *err)
{
    uint32_t level = o->level;
    if (level == 0) { /* below the (95%) scaffold the phases show */
        int rc = ss_levels_timeline_level_of(c->cur, &level, err);
        if (rc)
            return rc;
    }
    struct ss_cmp_timeline t;
    int rc = ss_compare_timeline(c, level, o->width > 0 ? (size_t)o->width : 80, &t, err);
    if (rc)
        return rc;
    struct tl_ctx x = {c, &t};
    size_t nw = t.base.nwindows > t.cur.nwindows ? t.base.nwindows : t.cur.nwindows;
    if (o->format == SS_FORMAT_TSV) {
        struct ss_table tab = {window_columns, ARRAY_SIZE(window_columns), &x, nw, NULL, NULL};
        ss_table_print(out, &tab, 1, 0, "windows");
        ss_cmp_timeline_free(&t);
        return 0;
    }
    struct tl_fn *fns = NULL;
    size_t nf = 0;
    if (tl_legend(&fns, &nf, c->base, &t.base, 1) || tl_legend(&fns, &nf, c->cur, &t.cur, 0)) {
        free(fns);
        ss_cmp_timeline_free(&t);
        return ss_nomem(err, "timeline comparison");
    }
    header(out, c);
    fprintf(out,
            "timeline   level %u; base: %zu windows of %zu samples, new: %zu windows of %zu "
            "samples (one letter each; '.': no sample reaches the level)\n\n",
            level, t.base.nwindows, t.base.window_size, t.cur.nwindows, t.cur.window_size);
    tl_strip(out, "base", &t.base, c->base, fns, nf);
    tl_strip(out, "new", &t.cur, c->cur, fns, nf);
    fprintf(out, "\n  %c  %-40s %11s %11s %11s\n", ' ', "samples at the level", "base", "new",
            "delta");
    struct ss_esc esc = SS_ESC_INIT(SS_ESC_TEXT);
    for (size_t i = 0; i < nf; i++) {
        long long d = (long long)fns[i].n - (long long)fns[i].b;
        char ds[32];
        snprintf(ds, sizeof ds, d > 0 ? "+%lld" : "%lld", d);
        fprintf(out, "  %c  %-40s %11llu %11llu %11s\n", fns[i].letter, ss_esc(&esc, fns[i].name),
                (unsigned long long)fns[i].b, (unsigned long long)fns[i].n, ds);
    }
    ss_esc_free(&esc);
    tl_phases(out, "base", &t.base, c->base, fns, nf);
    tl_phases(out, "new", &t.cur, c->cur, fns, nf);
    free(fns);
    ss_cmp_timeline_free(&t);
    return 0;
}

/* ---- labels ------------------------------------------------------------------------- */

#define LBROW(ctx, r) (&((const struct ss_cmp_labels *)(ctx))->rows[r])
#define LBKEYS(ctx) (&((const struct ss_cmp_labels *)(ctx))->keys)

static void cell_lb_key(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_strtab_get(LBKEYS(ctx), LBROW(ctx, r)->key), tsv);
}
static void cell_lb_value(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_strtab_get(LBKEYS(ctx), LBROW(ctx, r)->value), tsv);
}
/* by key, then value */
static int cmp_lb_label(const void *ctx, size_t a, size_t b)
{
    const struct ss_cmp_label *x = LBROW(ctx, a), *y = LBROW(ctx, b);
    int c = strcmp(ss_strtab_get(LBKEYS(ctx), x->key), ss_strtab_get(LBKEYS(ctx), y->key));
    return c ? c
             : strcmp(ss_strtab_get(LBKEYS(ctx), x->value), ss_strtab_get(LBKEYS(ctx), y->value));
}
static const struct ss_units *labels_units(const void *ctx)
{
    return &((const struct ss_cmp_labels *)ctx)->units;
}
static void get_lb_samples(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = (double)LBROW(ctx, r)->samples_b;
    *v = (double)LBROW(ctx, r)->samples_n;
}
static void get_lb_value(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = LBROW(ctx, r)->value_b;
    *v = LBROW(ctx, r)->value_n;
}
/* ties: in the table's order (ss_compare_labels: by delta, then label) */
static int tie_lb_row(const void *ctx, size_t a, size_t b)
{
    return a < b ? -1 : a > b;
}
static const struct ss_pair lb_samples = {get_lb_samples, NULL, tie_lb_row, 0};
static const struct ss_pair lb_value = {get_lb_value, labels_units, tie_lb_row, 0};
static const struct ss_verdict *vlabel_of(const void *ctx, size_t r)
{
    return &LBROW(ctx, r)->v;
}
SS_VERDICT_CELLS(vlabel, vlabel_of, labels_units)

const struct ss_col ss_cmp_label_columns[SS_CMPLB_NCOLS] = {
    {"key", NULL, 12, 0, SS_COL_LEFT, cell_lb_key, cmp_lb_label, NULL, 0},
    {"value", NULL, 0, 0, SS_COL_LABEL, cell_lb_value, cmp_lb_label, NULL, 0},
    SS_PAIR_COLS("count.base", 10, "count", 9, "count.delta", 11, 1, &lb_samples),
    SS_PAIR_COLS("@.base", 10, "@", 10, "@.delta", 11, 1, &lb_value),
    SS_VERDICT_TEXT_COL("@.", vlabel),
    SS_VERDICT_COLS("@.", vlabel),
    SS_VERDICT_MARK_COL(vlabel),
};

static int report_labels(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                         struct ss_error *err)
{
    struct ss_cmp_labels l;
    int rc = ss_compare_labels(c, &l, err);
    if (rc)
        return rc;
    int tsv = o->format == SS_FORMAT_TSV;
    size_t *order,
        n = verdict_filter(o, l.n ? &l.rows[0].v : NULL, l.n, sizeof *l.rows, NULL, 0, &order);
    if (n == SIZE_MAX) {
        ss_cmp_labels_free(&l);
        return ss_nomem(err, "--verdict");
    }
    if (!tsv) {
        header(out, c);
        size_t g, sh;
        ss_verdict_count(l.n ? &l.rows[0].v : NULL, l.n, sizeof *l.rows, &g, &sh);
        verdict_lines(out, &l.vinfo, "", g, sh, NULL, 0, 0);
    }
    struct ss_table t = {ss_cmp_label_columns,         SS_CMPLB_NCOLS, &l, n, order,
                         ss_model_measure_name(c->cur)};
    ss_table_print(out, &t, tsv, o->limit > 0 ? (size_t)o->limit : 0, "labels");
    free(order);
    if (!tsv && l.n == 0)
        fputs("(no labels on either side: pprof files bring them, from Go's pprof.Do, and perf "
              "script its comm, pid and tid)\n",
              out);
    else if (!tsv && (l.unlabelled_b || l.unlabelled_n))
        fprintf(out, "\nsamples that carry no label: base %llu, new %llu\n",
                (unsigned long long)l.unlabelled_b, (unsigned long long)l.unlabelled_n);
    ss_cmp_labels_free(&l);
    return 0;
}

/* ---- transforms ---------------------------------------------------------------------- */

#define TFX(ctx) ((const struct ss_cmp_tf_ctx *)(ctx))
#define TFB(ctx, r) ss_tf_base_effect(TFX(ctx)->l, r)
#define TFN(ctx, r) ss_tf_effect(TFX(ctx)->l, r)

static void cell_tf_step(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, r + 1);
}
static void cell_tf_on(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    int on = ss_tf_enabled(TFX(ctx)->l, r);
    snprintf(buf, n, "%s", tsv ? (on ? "1" : "0") : on ? "yes" : "off");
}
/* The samples a range or a phase kept or dropped, on each side. */
static void cell_tf_range_base(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_tf_range_text(TFB(ctx, r), buf, n);
    if (!tsv && !buf[0])
        snprintf(buf, n, "-");
}
static void cell_tf_range(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_tf_range_text(TFN(ctx, r), buf, n);
    if (!tsv && !buf[0])
        snprintf(buf, n, "-");
}
static void cell_tf_command(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_tf_text(TFX(ctx)->l, r), tsv);
}
static const struct ss_units *tf_units(const void *ctx)
{
    return &TFX(ctx)->u;
}
/* A count of both sides' effects (never scaled). */
#define TF_COUNT(fname, field)                                                                     \
    static void fname(const void *ctx, size_t r, int exact, double *b, double *v)                  \
    {                                                                                              \
        *b = (double)TFB(ctx, r)->field;                                                           \
        *v = (double)TFN(ctx, r)->field;                                                           \
    }
TF_COUNT(get_tf_in, samples_in)
TF_COUNT(get_tf_out, samples_out)
TF_COUNT(get_tf_emptied, samples_emptied)
TF_COUNT(get_tf_frames, frames_removed)
TF_COUNT(get_tf_stacks, stacks_changed)
TF_COUNT(get_tf_functions, functions_matched)
TF_COUNT(get_tf_labels, labels_matched)
TF_COUNT(get_tf_levels, levels_removed)
static void get_tf_value_in(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = TFB(ctx, r)->value_in * TFX(ctx)->f;
    *v = TFN(ctx, r)->value_in;
}
static void get_tf_value_out(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = TFB(ctx, r)->value_out * TFX(ctx)->f;
    *v = TFN(ctx, r)->value_out;
}
/* the share of the measure the step kept (0 when nothing entered) */
static double kept_pct(const struct ss_tf_effect *e)
{
    return e->value_in > 0 ? 100.0 * e->value_out / e->value_in : 0;
}
static void get_tf_kept(const void *ctx, size_t r, int exact, double *b, double *v)
{
    *b = kept_pct(TFB(ctx, r));
    *v = kept_pct(TFN(ctx, r));
}
static const struct ss_pair tf_in = {get_tf_in, NULL, NULL, 0};
static const struct ss_pair tf_out = {get_tf_out, NULL, NULL, 0};
static const struct ss_pair tf_emptied = {get_tf_emptied, NULL, NULL, 0};
static const struct ss_pair tf_frames = {get_tf_frames, NULL, NULL, 0};
static const struct ss_pair tf_stacks = {get_tf_stacks, NULL, NULL, 0};
static const struct ss_pair tf_functions = {get_tf_functions, NULL, NULL, 0};
static const struct ss_pair tf_labels = {get_tf_labels, NULL, NULL, 0};
static const struct ss_pair tf_levels = {get_tf_levels, NULL, NULL, 0};
static const struct ss_pair tf_value_in = {get_tf_value_in, tf_units, NULL, 0};
static const struct ss_pair tf_value_out = {get_tf_value_out, tf_units, NULL, 0};
static const struct ss_pair tf_kept = {get_tf_kept, NULL, NULL, 1};

/* One part of a pair on its own, `flags` choosing text or TSV. */
#define PAIR_COL(name, title, width, flags, pair, part)                                            \
    {                                                                                              \
        name, title, width, 1, flags, NULL, NULL, pair, part                                       \
    }
#define TSV_ONLY SS_COL_TSV

/* TSV: every column of `report --by transforms` for the base and the new
 * profile (samples_in.base, samples_in, ...), the delta of what is left of
 * the measure and of the share kept; text: the samples, what is left of
 * the measure, the share kept and the levels removed. */
const struct ss_col ss_cmp_step_columns[SS_CMPTF_NCOLS] = {
    {"step", NULL, 4, 0, 0, cell_tf_step, NULL, NULL, 0},
    {"enabled", "on", 3, 1, 0, cell_tf_on, NULL, NULL, 0},
    PAIR_COL("samples_in.base", "samples.in.base", 15, 0, &tf_in, SS_PART_BASE),
    PAIR_COL("samples_in", "samples.in", 10, 0, &tf_in, SS_PART_NEW),
    PAIR_COL("samples_out.base", "samples.out.base", 16, 0, &tf_out, SS_PART_BASE),
    PAIR_COL("samples_out", "samples.out", 11, 0, &tf_out, SS_PART_NEW),
    PAIR_COL("samples_emptied.base", NULL, 0, TSV_ONLY, &tf_emptied, SS_PART_BASE),
    PAIR_COL("samples_emptied", NULL, 0, TSV_ONLY, &tf_emptied, SS_PART_NEW),
    PAIR_COL("frames_removed.base", NULL, 0, TSV_ONLY, &tf_frames, SS_PART_BASE),
    PAIR_COL("frames_removed", NULL, 0, TSV_ONLY, &tf_frames, SS_PART_NEW),
    PAIR_COL("stacks_changed.base", NULL, 0, TSV_ONLY, &tf_stacks, SS_PART_BASE),
    PAIR_COL("stacks_changed", NULL, 0, TSV_ONLY, &tf_stacks, SS_PART_NEW),
    PAIR_COL("functions_matched.base", NULL, 0, TSV_ONLY, &tf_functions, SS_PART_BASE),
    PAIR_COL("functions_matched", NULL, 0, TSV_ONLY, &tf_functions, SS_PART_NEW),
    PAIR_COL("labels_matched.base", NULL, 0, TSV_ONLY, &tf_labels, SS_PART_BASE),
    PAIR_COL("labels_matched", NULL, 0, TSV_ONLY, &tf_labels, SS_PART_NEW),
    PAIR_COL("levels_removed.base", "levels.base", 11, 0, &tf_levels, SS_PART_BASE),
    PAIR_COL("levels_removed", "levels", 6, 0, &tf_levels, SS_PART_NEW),
    {"command", NULL, 0, 0, SS_COL_LABEL, cell_tf_command, NULL, NULL, 0},
    PAIR_COL("@_in.base", NULL, 0, TSV_ONLY, &tf_value_in, SS_PART_BASE),
    PAIR_COL("@_in", NULL, 0, TSV_ONLY, &tf_value_in, SS_PART_NEW),
    PAIR_COL("@_out.base", "@.out.base", 10, 0, &tf_value_out, SS_PART_BASE),
    PAIR_COL("@_out", "@.out", 10, 0, &tf_value_out, SS_PART_NEW),
    PAIR_COL("@_out.delta", "@.out.delta", 11, 0, &tf_value_out, SS_PART_DELTA),
    PAIR_COL("kept_pct.base", "kept%.base", 10, 0, &tf_kept, SS_PART_BASE),
    PAIR_COL("kept_pct", "kept%", 6, 0, &tf_kept, SS_PART_NEW),
    PAIR_COL("kept_pct.delta", "kept%.delta", 11, 0, &tf_kept, SS_PART_DELTA),
    {"range.base", NULL, 11, 1, 0, cell_tf_range_base, NULL, NULL, 0},
    {"range", NULL, 11, 1, 0, cell_tf_range, NULL, NULL, 0},
};

static int report_transforms(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                             struct ss_error *err)
{
    const struct ss_tf_list *l = o->transforms;
    size_t n = l ? ss_tf_count(l) : 0;
    int tsv = o->format == SS_FORMAT_TSV;
    if (!tsv)
        header(out, c);
    struct ss_cmp_tf_ctx x = {l, c->units, c->conv * c->scale};
    struct ss_table t = {ss_cmp_step_columns,          SS_CMPTF_NCOLS, &x, n, NULL,
                         ss_model_measure_name(c->cur)};
    ss_table_print(out, &t, tsv, 0, "steps");
    if (!tsv && n == 0)
        fputs("(no transforms: add them with -e COMMAND or --script FILE)\n", out);
    else if (!tsv)
        fputs("(each step applied to the base and to the new profile; kept%: the share of the "
              "measure the step kept)\n",
              out);
    return 0;
}

/* ---- sources ------------------------------------------------------------------------ */

/* "base total 2 sources, 90 samples, 1.800 s" for one side (total: its
 * measure, converted and scaled for the base, as the summary's) */
static uint64_t sources_total(FILE *out, const char *label, const struct ss_sources_ctx *x,
                              int side, double total, const char *unit)
{
    size_t first = side ? x->nbase : 0, end = side ? x->n : x->nbase;
    uint64_t samples = 0;
    for (size_t r = first; r < end; r++) {
        const struct ss_model *m;
        int sd;
        const struct ss_source *s = ss_sources_row(x, r, &m, &sd);
        samples += ss_source_samples(m, (ss_id)(s - m->sources.v));
    }
    char v[64];
    ss_format_value(v, sizeof v, &x->u, total, 0);
    fprintf(out, "%-11s%zu source%s, %llu sample%s, %s%s\n", label, end - first, ss_s(end - first),
            (unsigned long long)samples, ss_s(samples), v, unit);
    return samples;
}

static int report_sources(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                          struct ss_error *err)
{
    struct ss_sources_ctx x;
    int rc = ss_sources_ctx_init(&x, NULL, c, err);
    if (rc)
        return rc;
    int tsv = o->format == SS_FORMAT_TSV;
    if (!tsv)
        header(out, c);
    struct ss_table t = {ss_cmp_source_columns,        SS_CMPSRC_NCOLS, &x, x.n, NULL,
                         ss_model_measure_name(c->cur)};
    ss_table_print(out, &t, tsv, 0, "sources");
    if (!tsv) {
        /* the summary's numbers: its totals, its delta and percentage */
        const char *u = c->units.measure.kind == SS_MEASURE_TIME ? " s" : "";
        double tb = c->total_base * c->scale, tn = c->total_new;
        fputc('\n', out);
        uint64_t sb = sources_total(out, "base total", &x, 0, tb, u);
        uint64_t sn = sources_total(out, "new total", &x, 1, tn, u);
        char d[64];
        ss_cell_signed(d, sizeof d, &c->units, tn - tb, 0);
        long long ds = (long long)sn - (long long)sb;
        fprintf(out, "%-11s%+lld sample%s, %s%s", "delta", ds,
                ss_s(ds < 0 ? (unsigned long long)-ds : (unsigned long long)ds), d, u);
        if (!ss_double_eq(tb, 0))
            fprintf(out, " (%+.2f%%)", 100.0 * (tn - tb) / tb);
        if (c->normalized)
            fprintf(out,
                    ", base normalized to the new total (x%.6g; pct is of each side's own "
                    "total)",
                    c->scale);
        fputc('\n', out);
    }
    ss_sources_ctx_free(&x);
    return 0;
}

int ss_report_compare(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                      struct ss_error *err)
{
    int rc = ss_report_check_order(c->base, o->by, err);
    if (!rc)
        rc = ss_report_check_order(c->cur, o->by, err);
    if (!rc)
        rc = ss_report_check_stacks(c->base, o->by, NULL, 0, err);
    if (rc)
        return rc;
    if (o->share > 0)
        return ss_fail(err, SS_EUSAGE,
                       "--share does not go with --base (no scaffold is marked "
                       "in a comparison)");
    if (o->verdict && o->by != SS_REPORT_SELF && o->by != SS_REPORT_TOTAL &&
        o->by != SS_REPORT_LINE && o->by != SS_REPORT_STACKS && o->by != SS_REPORT_TREE &&
        o->by != SS_REPORT_LABELS)
        return ss_fail(err, SS_EUSAGE,
                       "--verdict: only --by self, total, line, stacks, tree and labels have "
                       "verdicts");
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
    case SS_REPORT_LEVELS:
        return report_levels(out, c, o, err);
    case SS_REPORT_RUNS:
        return report_runs(out, c, o, err);
    case SS_REPORT_TIMELINE:
        return report_timeline(out, c, o, err);
    case SS_REPORT_LABELS:
        return report_labels(out, c, o, err);
    case SS_REPORT_TRANSFORMS:
        return report_transforms(out, c, o, err);
    case SS_REPORT_SOURCES:
        return report_sources(out, c, o, err);
    case SS_REPORT_PHASES:
        if (o->format != SS_FORMAT_TSV)
            header(out, c);
        return ss_report_phases_compared(out, c->base, c->cur, o, err);
    case SS_REPORT_LIST:
        return ss_report_list_compare(out, c, o, err);
    }
    return ss_fail(err, SS_EUSAGE, "--base: this table does not compare two profiles");
}
