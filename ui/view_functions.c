/* view_functions.c - the functions view: self and total time per function
 * (the numbers of `stackscope report --by self`, same formatting), with the
 * number of runs and the mean run length (`report --by runs`, level "all"),
 * sortable by any column.  In a comparison (--base, DESIGN section 13) it
 * shows the numbers of `report --base --by self` instead: base, new and
 * delta of self and total, sorted by self delta (largest growth first). */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "order.h"
#include "vec.h"

enum { SORT_SELF, SORT_TOTAL, SORT_RUNS, SORT_MEAN, SORT_NAME, NSORTS };

static const char *const sort_names[NSORTS] = {"self time", "total time", "runs", "mean run length",
                                               "name"};
static const int sort_column[NSORTS] = {0, 2, 4, 5, 6};

/* self and total widen to the measure's numbers (draw) */
static struct ui_column columns[] = {
    {"self", 9, 1}, {"self%", 7, 1}, {"total", 9, 1},    {"total%", 7, 1},
    {"runs", 8, 1}, {"mean", 7, 1},  {"function", 0, 0},
};
#define NCOLS ARRAY_SIZE(columns)

/* A comparison's columns and orders. */
enum { CSORT_SELF_D, CSORT_TOTAL_D, CSORT_SELF, CSORT_TOTAL, CSORT_NAME };
static const char *const csort_names[NSORTS] = {"self delta", "total delta", "self", "total",
                                                "name"};
static const int csort_column[NSORTS] = {2, 5, 1, 4, 6};
static struct ui_column ccolumns[] = {
    {"base", 9, 1},  {"self", 9, 1},   {"delta", 10, 1},   {"base", 9, 1},
    {"total", 9, 1}, {"delta", 10, 1}, {"function", 0, 0},
};

struct fn_view {
    unsigned gen;
    int sort, rev;   /* the order `order` is in */
    uint32_t *order; /* rows of the statistics, in display order */
    size_t n;
};

struct fn_sort {
    const struct ss_stats *st;
    const struct ss_run_row *runs; /* NULL: run lengths not computed */
    const uint32_t *fn_runs;
    int by;
};

static int cmp_rows(uint32_t ra, uint32_t rb, const void *ctx)
{
    const struct fn_sort *s = ctx;
    int c = 0;
    if (s->by == SORT_RUNS || s->by == SORT_MEAN) {
        uint32_t ia = s->fn_runs ? s->fn_runs[ra] : UINT32_MAX;
        uint32_t ib = s->fn_runs ? s->fn_runs[rb] : UINT32_MAX;
        double va = ia == UINT32_MAX     ? -1
                    : s->by == SORT_RUNS ? (double)s->runs[ia].runs
                                         : s->runs[ia].mean;
        double vb = ib == UINT32_MAX     ? -1
                    : s->by == SORT_RUNS ? (double)s->runs[ib].runs
                                         : s->runs[ib].mean;
        c = ui_cmp_desc(va, vb);
    }
    if (!c && s->by == SORT_NAME)
        c = strcmp(ss_strtab_get(&s->st->keys, s->st->rows[ra].key),
                   ss_strtab_get(&s->st->keys, s->st->rows[rb].key));
    else if (!c)
        c = ui_cmp_stat_time(s->st, ra, rb, s->by == SORT_TOTAL);
    return c;
}

static const char *name_of(const struct ss_stats *st, uint32_t row)
{
    return ss_strtab_get(&st->keys, st->rows[row].key);
}

static const char *cname_of(const struct ss_cmp_stats *cs, uint32_t row)
{
    return ss_strtab_get(&cs->keys, cs->rows[row].key);
}

static int cmp_compared(uint32_t ra, uint32_t rb, const void *ctx)
{
    const struct fn_sort *s = ctx;
    const struct ss_cmp_stats *cs = (const void *)s->st;
    const struct ss_cmp_row *a = &cs->rows[ra], *b = &cs->rows[rb];
    int c = 0;
    switch (s->by) {
    case CSORT_SELF_D:
        c = ui_cmp_desc(a->self_nx - a->self_bx, b->self_nx - b->self_bx);
        break;
    case CSORT_TOTAL_D:
        c = ui_cmp_desc(a->total_nx - a->total_bx, b->total_nx - b->total_bx);
        break;
    case CSORT_SELF:
        c = ui_cmp_desc(a->self_nx, b->self_nx);
        break;
    case CSORT_TOTAL:
        c = ui_cmp_desc(a->total_nx, b->total_nx);
        break;
    }
    if (!c && s->by != CSORT_NAME)
        c = ui_cmp_desc(a->total_nx - a->total_bx, b->total_nx - b->total_bx);
    return c ? c : strcmp(cname_of(cs, ra), cname_of(cs, rb));
}

/* prepare in a comparison: the rows of ui_cmp_fn. */
static int prepare_compared(struct ui *ui, struct ui_view *v)
{
    struct fn_view *p = v->priv;
    const struct ss_cmp_stats *cs = ui_cmp_fn(ui);
    if (!cs)
        return -1;
    if (p->gen == ui->gen && p->sort == v->sort && p->rev == v->sort_rev) {
        v->list.n = p->n;
        return 0;
    }
    struct fn_sort ctx = {(const void *)cs, NULL, NULL, v->sort};
    if (ui_order_sort(&p->order, cs->n, v->sort_rev, cmp_compared, &ctx)) {
        ui_error(ui, "out of memory");
        return -1;
    }
    int regen = p->gen != ui->gen;
    p->n = cs->n;
    p->gen = ui->gen;
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
    if (p->gen == ui->gen && p->sort == v->sort && p->rev == v->sort_rev) {
        v->list.n = p->n;
        return 0;
    }
    const struct ss_run_row *runs = NULL;
    const uint32_t *fn_runs = NULL;
    size_t nruns;
    /* the order needs the run lengths only when sorted by them */
    if ((v->sort == SORT_RUNS || v->sort == SORT_MEAN) && ui_runs(ui, &runs, &nruns, &fn_runs))
        runs = NULL, fn_runs = NULL;
    struct fn_sort ctx = {st, runs, fn_runs, v->sort};
    if (ui_order_sort(&p->order, st->n, v->sort_rev, cmp_rows, &ctx)) {
        ui_error(ui, "out of memory");
        return -1;
    }
    const uint32_t *order = p->order;
    int regen = p->gen != ui->gen;
    p->n = st->n;
    p->gen = ui->gen;
    p->sort = v->sort;
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
    snprintf(buf, n, "%zu by %s%s", p ? p->n : 0,
             ui_sort_name(ui, sort_names[v->sort], sn, sizeof sn),
             v->sort_rev ? " (reversed)" : "");
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    struct fn_view *p = v->priv;
    const struct ss_stats *st = ui_stats_fn(ui);
    uint32_t r = p->order[row];
    const struct ss_stat_row *sr = &st->rows[r];
    const struct ss_run_row *runs = NULL;
    const uint32_t *fn_runs = NULL;
    size_t nruns;
    char b[6][32];
    ui_fmt_value(ui, b[0], sizeof b[0], sr->self_v);
    snprintf(b[1], sizeof b[1], "%.2f", ui_pct(ui, sr->self_v));
    ui_fmt_value(ui, b[2], sizeof b[2], sr->total_v);
    snprintf(b[3], sizeof b[3], "%.2f", ui_pct(ui, sr->total_v));
    snprintf(b[4], sizeof b[4], "-");
    snprintf(b[5], sizeof b[5], "-");
    if (ui->defer && !ui_runs_ready(ui)) {
        /* painted first, filled in right after (see struct ui) */
        snprintf(b[4], sizeof b[4], "...");
        snprintf(b[5], sizeof b[5], "...");
        ui->pending = 1;
    } else if (!ui_runs(ui, &runs, &nruns, &fn_runs) && fn_runs[r] != UINT32_MAX) {
        snprintf(b[4], sizeof b[4], "%llu", (unsigned long long)runs[fn_runs[r]].runs);
        snprintf(b[5], sizeof b[5], "%.2f", runs[fn_runs[r]].mean);
    }
    const char *cells[NCOLS] = {b[0], b[1], b[2], b[3], b[4], b[5], name_of(st, r)};
    ui_table_row(c, y, columns, NCOLS, cells, style, 0);
}

/* A delta with its sign ("+1.20", "-3 kB", "0"). */
static void fmt_delta(struct ui *ui, char *buf, size_t n, double d)
{
    if (d > 0) {
        buf[0] = '+';
        ui_fmt_value(ui, buf + 1, n - 1, d);
    } else {
        ui_fmt_value(ui, buf, n, d);
    }
}

static void draw_compared_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y,
                              size_t row, int style)
{
    struct fn_view *p = v->priv;
    const struct ss_cmp_stats *cs = ui_cmp_fn(ui);
    uint32_t r = p->order[row];
    const struct ss_cmp_row *cr = &cs->rows[r];
    char b[6][48];
    ui_fmt_value(ui, b[0], sizeof b[0], cr->self_b);
    ui_fmt_value(ui, b[1], sizeof b[1], cr->self_n);
    fmt_delta(ui, b[2], sizeof b[2], cr->self_n - cr->self_b);
    ui_fmt_value(ui, b[3], sizeof b[3], cr->total_b);
    ui_fmt_value(ui, b[4], sizeof b[4], cr->total_n);
    fmt_delta(ui, b[5], sizeof b[5], cr->total_n - cr->total_b);
    const char *cells[NCOLS] = {b[0], b[1], b[2], b[3], b[4], b[5], cname_of(cs, r)};
    /* growth stands out (the error colour), shrinkage is dimmed */
    double d = cr->self_n - cr->self_b;
    if (style == UI_S_NORMAL && (d > 0 || d < 0))
        style = d > 0 ? UI_S_ERROR : UI_S_DIM;
    ui_table_row(c, y, ccolumns, NCOLS, cells, style, 0);
}

static void draw_compared(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
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
    int wv = ui_value_width(ui, widest, 9);
    for (int i = 0; i < 6; i++)
        ccolumns[i].width = wv + (i == 2 || i == 5);
    ui_table_draw(ui, v, c, y, h, ccolumns, NCOLS, csort_column[v->sort], v->sort_rev,
                  v->list.n ? NULL : ui_empty_note(ui), draw_compared_row);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    if (ui->bm) {
        draw_compared(ui, v, c, y, h);
        return;
    }
    columns[0].width = columns[2].width = ui_value_width(ui, ui_stats_widest(ui_stats_fn(ui)), 9);
    ui_table_draw(ui, v, c, y, h, columns, NCOLS, sort_column[v->sort], v->sort_rev,
                  v->list.n ? NULL : ui_empty_note(ui), draw_row);
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    if (ui->bm) {
        if (ui_table_sort_click(ui, v, ev, ccolumns, NCOLS, csort_column, NSORTS, csort_names) ==
            UI_HANDLED)
            return UI_HANDLED;
        return ui_sort_request(ui, v, req, csort_names, NSORTS);
    }
    if (ui_table_sort_click(ui, v, ev, columns, NCOLS, sort_column, NSORTS, sort_names) ==
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

static void view_free(struct ui_view *v)
{
    struct fn_view *p = v->priv;
    free(p->order);
}

const struct ui_view_ops ui_view_functions = {
    .name = "functions",
    .priv_size = sizeof(struct fn_view),
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .row_function = row_function,
    .free = view_free,
};
