/* view_functions.c - the functions view: self and total time per function
 * (the numbers of `stackscope report --by self`, same formatting), with the
 * number of runs and the mean run length (`report --by runs`, level "all"),
 * sortable by any column.  In a comparison (--base; stackscope(1), COMPARING)
 * it shows the numbers of `report --base --by self` instead: base, new and
 * delta of self and total, sorted by self delta (largest growth first). */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "report.h"
#include "report_compare.h"
#include "vec.h"

/* The context of the columns: the statistics (report's columns) and, for
 * the view's own run-length columns, the run lengths (deferred: shown as
 * "..." until computed, see struct ui). */
struct fn_ctx {
    struct ss_stat_ctx s;
    const struct ss_run_row *runs; /* NULL: not computed (or deferred) */
    const uint32_t *fn_runs;
    int deferred;
};

/* the level-0 run-lengths row of statistics row r, or NULL */
static const struct ss_run_row *runs_of(const struct fn_ctx *x, size_t r)
{
    return x->runs && x->fn_runs[r] != UINT32_MAX ? &x->runs[x->fn_runs[r]] : NULL;
}
static void cell_runs(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_run_row *rr = runs_of(ctx, r);
    if (((const struct fn_ctx *)ctx)->deferred)
        snprintf(buf, n, "...");
    else if (rr)
        snprintf(buf, n, "%llu", (unsigned long long)rr->runs);
    else
        snprintf(buf, n, "-");
}
static void cell_mean(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_run_row *rr = runs_of(ctx, r);
    if (((const struct fn_ctx *)ctx)->deferred)
        snprintf(buf, n, "...");
    else if (rr)
        ss_cell_num(buf, n, rr->mean, 0, 2);
    else
        snprintf(buf, n, "-");
}
/* larger first (rows without run lengths last), ties by self */
static int cmp_runs(const void *ctx, size_t a, size_t b)
{
    const struct ss_run_row *x = runs_of(ctx, a), *y = runs_of(ctx, b);
    int c = ss_cmp_desc(x ? (double)x->runs : -1, y ? (double)y->runs : -1);
    return c ? c : ss_stat_cmp_self(ctx, a, b);
}
static int cmp_mean(const void *ctx, size_t a, size_t b)
{
    const struct ss_run_row *x = runs_of(ctx, a), *y = runs_of(ctx, b);
    int c = ss_cmp_desc(x ? x->mean : -1, y ? y->mean : -1);
    return c ? c : ss_stat_cmp_self(ctx, a, b);
}
static const struct ss_col runs_col = {"runs", NULL, 8, 1, 0, cell_runs, cmp_runs, NULL, 0};
static const struct ss_col mean_col = {"mean", NULL, 7, 1, 0, cell_mean, cmp_mean, NULL, 0};

enum { SORT_SELF, SORT_TOTAL, SORT_RUNS, SORT_MEAN, SORT_NAME, NSORTS };

static const char *const sort_names[NSORTS] = {"self time", "total time", "runs", "mean run length",
                                               "name"};
static const int sort_column[NSORTS] = {0, 2, 4, 5, 6};

/* self and total widen to the measure's numbers (draw, in the view's copy) */
static const struct ui_column columns_min[] = {
    {"self", 9, 1, &ss_fn_columns[SS_STAT_SELF]},
    {"self%", 7, 1, &ss_fn_columns[SS_STAT_SELF_PCT]},
    {"total", 9, 1, &ss_fn_columns[SS_STAT_TOTAL]},
    {"total%", 7, 1, &ss_fn_columns[SS_STAT_TOTAL_PCT]},
    UI_COL(&runs_col),
    {"smp/run", UI_COL_CORE, 1, &mean_col},
    {"function", UI_COL_CORE, 0, &ss_fn_columns[SS_STAT_NAME]},
};
#define NCOLS ARRAY_SIZE(columns_min)

/* The relative self delta: % of the base's self ("new" where the base
 * had none); the view's own column, as the run lengths. */
static void cell_rel(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_cmp_row *cr = &((const struct ss_cmp_stats *)ctx)->rows[r];
    double pct = cr->self_b > 0 ? 100.0 * (cr->self_n - cr->self_b) / cr->self_b : 0;
    if (cr->self_b > 0) /* a decimal where it means something */
        snprintf(buf, n, pct > -100 && pct < 100 ? "%+.1f%%" : "%+.0f%%", pct);
    else
        snprintf(buf, n, "%s", cr->self_n > 0 ? "new" : "");
}
static const struct ss_col rel_col = {"self.delta.pct", NULL, 7, 1, 0, cell_rel, NULL, NULL, 0};

/* A comparison's columns (`report --base --by self`, each delta followed
 * by the relative self delta and its verdict) and orders; "self verdict"
 * puts the rows whose self grew or shrank beyond noise first (column.h:
 * ss_verdict_order). */
enum {
    CSORT_SELF_D,
    CSORT_TOTAL_D,
    CSORT_SELF_V,
    CSORT_TOTAL_V,
    CSORT_SELF,
    CSORT_TOTAL,
    CSORT_NAME,
    NCSORTS
};
static const char *const csort_names[NCSORTS] = {
    "self delta", "total delta", "self verdict", "total verdict", "self", "total", "name"};
static const int csort_column[NCSORTS] = {2, 7, 4, 8, 1, 6, 9};
static const struct ui_column ccolumns_min[] = {
    {"base", 9, 1, &ss_cmp_fn_columns[SS_CMP_SELF_B]},
    {NULL, 9, 1, &ss_cmp_fn_columns[SS_CMP_SELF]},
    {"delta", 10, 1, &ss_cmp_fn_columns[SS_CMP_SELF_D]},
    {"delta%", UI_COL_CORE, 1, &rel_col},
    UI_COL(&ss_cmp_fn_columns[SS_CMP_SELF_MARK]),
    {"base", 9, 1, &ss_cmp_fn_columns[SS_CMP_TOTAL_B]},
    {NULL, 9, 1, &ss_cmp_fn_columns[SS_CMP_TOTAL]},
    {"delta", 10, 1, &ss_cmp_fn_columns[SS_CMP_TOTAL_D]},
    UI_COL(&ss_cmp_fn_columns[SS_CMP_TOTAL_MARK]),
    {"function", UI_COL_CORE, 0, &ss_cmp_fn_columns[SS_CMP_NAME]},
};
#define NCCOLS ARRAY_SIZE(ccolumns_min)

struct fn_view {
    unsigned gen, vgen; /* vgen: of the verdicts (ui_verdicts) */
    int sort, rev;      /* the order `order` is in */
    uint32_t *order;    /* rows of the statistics, in display order */
    size_t n;
    int waiting; /* sorted by run lengths still being computed: `order` is
                  * the one before, and the rows re-sort when they arrive */
    /* the columns as drawn: the descriptors, their numbers widened (draw) */
    struct ui_column columns[NCOLS], ccolumns[NCCOLS];
};

static const char *name_of(const struct ss_stats *st, uint32_t row)
{
    return ss_strtab_get(&st->keys, st->rows[row].key);
}

static const char *cname_of(const struct ss_cmp_stats *cs, uint32_t row)
{
    return ss_strtab_get(&cs->keys, cs->rows[row].key);
}

/* prepare in a comparison: the rows of ui_cmp_fn. */
static int prepare_compared(struct ui *ui, struct ui_view *v)
{
    struct fn_view *p = v->priv;
    const struct ss_cmp_stats *cs = ui_cmp_fn(ui);
    if (!cs)
        return -1;
    if (p->gen == ui->gen && p->vgen == ui->verdicts.vgen && p->sort == v->sort &&
        p->rev == v->sort_rev) {
        v->list.n = p->n;
        return 0;
    }
    if (ui_table_sort(&p->order, cs->n, v->sort_rev, &ccolumns_min[csort_column[v->sort]], cs)) {
        ui_error(ui, "out of memory");
        return -1;
    }
    int regen = p->gen != ui->gen;
    p->n = cs->n;
    p->gen = ui->gen;
    p->vgen = ui->verdicts.vgen;
    p->sort = v->sort;
    p->rev = v->sort_rev;
    v->list.n = p->n;
    /* keep the current function selected (by name: rows join two models) */
    for (size_t i = 0; ui->cur_fn && i < p->n; i++)
        if (!strcmp(cname_of(cs, p->order[i]), ui->cur_fn)) {
            v->list.sel = i;
            break;
        }
    if (regen)
        ui_list_fit(&v->list);
    return 0;
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    if (ui->bm)
        return prepare_compared(ui, v);
    struct fn_view *p = v->priv;
    const struct ss_stats *st = ui_stats_fn(ui);
    if (!st)
        return -1;
    int by_runs = v->sort == SORT_RUNS || v->sort == SORT_MEAN;
    if (!by_runs)
        p->waiting = 0;
    if (p->gen == ui->gen && p->sort == v->sort && p->rev == v->sort_rev) {
        v->list.n = p->n;
        return 0;
    }
    struct fn_ctx ctx = {{st}, NULL, NULL, 0};
    size_t nruns;
    /* the order needs the run lengths only when sorted by them; while the
     * background pass computes them the key does not wait: the rows keep
     * their order (the title says so) and re-sort when they arrive */
    if (by_runs && ui->defer && !ui_runs_ready(ui) && !ui->cache.runs_failed) {
        ui->pending |= UI_PENDING_RUNS;
        p->waiting = 1;
        if (p->gen == ui->gen && p->order) {
            v->list.n = p->n;
            return 0;
        }
        /* a new model: by self until then */
        by_runs = 0;
    } else {
        p->waiting = 0;
    }
    if (by_runs && ui_runs(ui, &ctx.runs, &nruns, &ctx.fn_runs))
        ctx.runs = NULL, ctx.fn_runs = NULL;
    if (ui_table_sort(&p->order, st->n, v->sort_rev, &columns_min[sort_column[v->sort]], &ctx)) {
        ui_error(ui, "out of memory");
        return -1;
    }
    const uint32_t *order = p->order;
    int regen = p->gen != ui->gen;
    p->n = st->n;
    p->gen = ui->gen;
    /* waiting: the order is by self, not yet the one asked for */
    p->sort = p->waiting ? SORT_SELF : v->sort;
    p->rev = v->sort_rev;
    v->list.n = p->n;
    /* keep the current function selected (by id: see ui_current_function) */
    ss_id fid = ui_current_function(ui);
    if (fid != SS_NONE)
        for (size_t i = 0; i < p->n; i++)
            if (st->rows[order[i]].function == fid) {
                v->list.sel = i;
                break;
            }
    if (regen)
        ui_list_fit(&v->list);
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    struct fn_view *p = v->priv;
    if (ui->bm) {
        snprintf(buf, n, "%zu compared, by %s%s", p ? p->n : 0, csort_names[v->sort],
                 v->sort_rev ? " (reversed)" : "");
        return;
    }
    char sn[128];
    snprintf(buf, n, "%zu by %s%s%s", p ? p->n : 0,
             ui_sort_name(ui, sort_names[v->sort], sn, sizeof sn), v->sort_rev ? " (reversed)" : "",
             p && p->waiting ? " (sorting when the run lengths arrive)" : "");
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    struct fn_view *p = v->priv;
    struct fn_ctx ctx = {{ui_stats_fn(ui)}, NULL, NULL, 0};
    size_t nruns;
    if (ui->defer && !ui_runs_ready(ui)) {
        /* painted first, filled in right after (see struct ui) */
        ctx.deferred = 1;
        ui->pending |= UI_PENDING_RUNS;
    } else if (ui_runs(ui, &ctx.runs, &nruns, &ctx.fn_runs)) {
        ctx.runs = NULL, ctx.fn_runs = NULL;
    }
    ui_table_cells(c, y, p->columns, NCOLS, &ctx, p->order[row], style, 0);
}

static void draw_compared_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y,
                              size_t row, int style)
{
    struct fn_view *p = v->priv;
    const struct ss_cmp_stats *cs = ui_cmp_fn(ui);
    uint32_t r = p->order[row];
    const struct ss_cmp_row *cr = &cs->rows[r];
    /* a row whose self (total, when sorted by it) grew or shrank beyond
     * noise stands out in the flame graph's colours; `~` rows are plain */
    int by_total = v->sort == CSORT_TOTAL_D || v->sort == CSORT_TOTAL_V || v->sort == CSORT_TOTAL;
    int sign = by_total ? cr->vtotal.sign : cr->vself.sign;
    if (style == UI_S_NORMAL && sign)
        style = sign > 0 ? UI_S_GREW2 : UI_S_SHRANK2;
    ui_table_cells(c, y, p->ccolumns, NCCOLS, cs, r, style, 0);
}

static void draw_compared(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct fn_view *p = v->priv;
    const struct ss_cmp_stats *cs = ui_cmp_fn(ui);
    double widest = 0;
    for (size_t i = 0; cs && i < cs->n; i++) {
        const struct ss_cmp_row *r = &cs->rows[i];
        double w[] = {r->self_b,
                      r->self_n,
                      r->total_b,
                      r->total_n,
                      r->self_n - r->self_b,
                      r->total_n - r->total_b};
        for (size_t k = 0; k < sizeof w / sizeof *w; k++) {
            double a = w[k] < 0 ? -w[k] : w[k];
            if (a > widest)
                widest = a;
        }
    }
    /* the value columns widen to the widest (the deltas have a sign) */
    static const int value_col[] = {0, 1, 2, 5, 6, 7};
    int wv = ui_value_width(ui, widest, 7);
    for (size_t k = 0; k < ARRAY_SIZE(value_col); k++) {
        int i = value_col[k];
        p->ccolumns[i].width = wv + (i == 2 || i == 7);
    }
    ui_table_draw(ui, v, c, y, h, p->ccolumns, NCCOLS, csort_column[v->sort], v->sort_rev,
                  v->list.n ? NULL : ui_empty_note(ui), draw_compared_row);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct fn_view *p = v->priv;
    if (ui->bm) {
        draw_compared(ui, v, c, y, h);
        return;
    }
    p->columns[0].width = p->columns[2].width =
        ui_value_width(ui, ui_stats_widest(ui_stats_fn(ui)), 9);
    ui_table_draw(ui, v, c, y, h, p->columns, NCOLS, sort_column[v->sort], v->sort_rev,
                  v->list.n ? NULL : ui_empty_note(ui), draw_row);
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    const struct fn_view *p = v->priv;
    if (ui->bm) {
        if (ui_table_sort_click(ui, v, ev, p->ccolumns, NCCOLS, csort_column, NCSORTS,
                                csort_names) == UI_HANDLED)
            return UI_HANDLED;
        return ui_sort_request(ui, v, req, csort_names, NCSORTS);
    }
    if (ui_table_sort_click(ui, v, ev, p->columns, NCOLS, sort_column, NSORTS, sort_names) ==
        UI_HANDLED)
        return UI_HANDLED;
    return ui_sort_request(ui, v, req, sort_names, NSORTS);
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    struct fn_view *p = v->priv;
    if (ui->bm) {
        const struct ss_cmp_stats *cs = ui_cmp_fn(ui);
        return p && cs && r < p->n ? cname_of(cs, p->order[r]) : NULL;
    }
    const struct ss_stats *st = ui_stats_fn(ui);
    return p && st && r < p->n ? name_of(st, p->order[r]) : NULL;
}

static const char *row_function(struct ui *ui, struct ui_view *v, size_t r)
{
    return row_text(ui, v, r, NULL, 0);
}

static void view_init(struct ui_view *v)
{
    struct fn_view *p = v->priv;
    memcpy(p->columns, columns_min, sizeof p->columns);
    memcpy(p->ccolumns, ccolumns_min, sizeof p->ccolumns);
}

static void view_free(struct ui_view *v)
{
    struct fn_view *p = v->priv;
    free(p->order);
}

const struct ui_view_ops ui_view_functions = {
    .name = "functions",
    .priv_size = sizeof(struct fn_view),
    .init = view_init,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .row_function = row_function,
    .free = view_free,
};
