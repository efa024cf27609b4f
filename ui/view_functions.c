/* view_functions.c - the functions view: self and total time per function
 * (the numbers of `stackscope report --by self`, same formatting), with the
 * number of runs and the mean run length (`report --by runs`, level "all"),
 * sortable by any column. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "order.h"

enum { SORT_SELF, SORT_TOTAL, SORT_RUNS, SORT_MEAN, SORT_NAME, NSORTS };

static const char *const sort_names[NSORTS] = {"self time", "total time", "runs", "mean run length",
                                               "name"};
static const int sort_column[NSORTS] = {0, 2, 4, 5, 6};

/* self and total widen to the measure's numbers (draw) */
static struct ui_column columns[] = {
    {"self", 9, 1}, {"self%", 7, 1}, {"total", 9, 1},    {"total%", 7, 1},
    {"runs", 8, 1}, {"mean", 7, 1},  {"function", 0, 0},
};
#define NCOLS (sizeof columns / sizeof *columns)

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

static int prepare(struct ui *ui, struct ui_view *v)
{
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

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    columns[0].width = columns[2].width = ui_value_width(ui, ui_stats_widest(ui_stats_fn(ui)), 9);
    ui_table_draw(ui, v, c, y, h, columns, NCOLS, sort_column[v->sort], v->sort_rev,
                  v->list.n ? NULL : ui_empty_note(ui), draw_row);
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    if (ui_table_sort_click(ui, v, ev, columns, NCOLS, sort_column, NSORTS, sort_names) ==
        UI_HANDLED)
        return UI_HANDLED;
    return ui_sort_request(ui, v, req, sort_names, NSORTS);
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    struct fn_view *p = v->priv;
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
