/* view_functions.c - the functions view: self and total time per function
 * (the numbers of `stackscope report --by self`, same formatting), with the
 * number of runs and the mean run length (`report --by runs`, level "all"),
 * sortable by any column. */
#include <stdlib.h>
#include <string.h>

#include "app.h"

enum { SORT_SELF, SORT_TOTAL, SORT_RUNS, SORT_MEAN, SORT_NAME, NSORTS };

static const char *const sort_names[NSORTS] = {"self time", "total time", "runs", "mean run length",
                                               "name"};
static const int sort_column[NSORTS] = {0, 2, 4, 5, 6};

static const struct ui_column columns[] = {
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

static const struct ss_stats *sort_st;
static const struct ss_run_row *sort_runs;
static const uint32_t *sort_fn_runs;
static int sort_by;

static int cmp_double(double a, double b)
{
    return a > b ? -1 : a < b ? 1 : 0;
}

static int cmp_rows(const void *pa, const void *pb)
{
    const struct ss_stat_row *a = &sort_st->rows[*(const uint32_t *)pa];
    const struct ss_stat_row *b = &sort_st->rows[*(const uint32_t *)pb];
    int c = 0;
    if (sort_by == SORT_RUNS || sort_by == SORT_MEAN) {
        uint32_t ia = sort_fn_runs ? sort_fn_runs[*(const uint32_t *)pa] : UINT32_MAX;
        uint32_t ib = sort_fn_runs ? sort_fn_runs[*(const uint32_t *)pb] : UINT32_MAX;
        double va = ia == UINT32_MAX       ? -1
                    : sort_by == SORT_RUNS ? (double)sort_runs[ia].runs
                                           : sort_runs[ia].mean;
        double vb = ib == UINT32_MAX       ? -1
                    : sort_by == SORT_RUNS ? (double)sort_runs[ib].runs
                                           : sort_runs[ib].mean;
        c = cmp_double(va, vb);
    }
    if (!c && sort_by == SORT_TOTAL)
        c = cmp_double(a->total_us, b->total_us);
    if (!c && sort_by != SORT_NAME)
        c = cmp_double(a->self_us, b->self_us);
    if (!c && sort_by != SORT_NAME)
        c = cmp_double(a->total_us, b->total_us);
    if (!c)
        c = strcmp(ss_strtab_get(&sort_st->keys, a->key), ss_strtab_get(&sort_st->keys, b->key));
    return c;
}

static struct fn_view *priv(struct ui_view *v)
{
    if (!v->priv)
        v->priv = calloc(1, sizeof(struct fn_view));
    return v->priv;
}

static const char *name_of(const struct ss_stats *st, uint32_t row)
{
    return ss_strtab_get(&st->keys, st->rows[row].key);
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct fn_view *p = priv(v);
    if (!p)
        return -1;
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
    uint32_t *order = realloc(p->order, (st->n ? st->n : 1) * sizeof *order);
    if (!order) {
        ui_error(ui, "out of memory");
        return -1;
    }
    p->order = order;
    for (size_t i = 0; i < st->n; i++)
        order[i] = (uint32_t)i;
    sort_st = st;
    sort_runs = runs;
    sort_fn_runs = fn_runs;
    sort_by = v->sort;
    qsort(order, st->n, sizeof *order, cmp_rows);
    if (v->sort_rev)
        for (size_t i = 0; i < st->n / 2; i++) {
            uint32_t t = order[i];
            order[i] = order[st->n - 1 - i];
            order[st->n - 1 - i] = t;
        }
    int regen = p->gen != ui->gen;
    p->n = st->n;
    p->gen = ui->gen;
    p->sort = v->sort;
    p->rev = v->sort_rev;
    v->list.n = p->n;
    /* keep the current function selected */
    if (ui->cur_fn)
        for (size_t i = 0; i < p->n; i++)
            if (!strcmp(name_of(st, order[i]), ui->cur_fn)) {
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
    snprintf(buf, n, "%zu by %s%s", p ? p->n : 0, sort_names[v->sort],
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
    snprintf(b[0], sizeof b[0], "%.3f", sr->self_time);
    snprintf(b[1], sizeof b[1], "%.2f", ui_pct(ui, sr->self_time));
    snprintf(b[2], sizeof b[2], "%.3f", sr->total_time);
    snprintf(b[3], sizeof b[3], "%.2f", ui_pct(ui, sr->total_time));
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
    ui_table_header(c, y, columns, NCOLS, sort_column[v->sort], v->sort_rev);
    if (v->list.n == 0) {
        v->list.page = h - 1;
        ui_table_note(c, y + 1, h - 1, ui_empty_note(ui));
        return;
    }
    ui_list_draw(ui, v, c, y + 1, h - 1, draw_row);
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    if (req == UI_REQ_SORT_NEXT) {
        v->sort = (v->sort + 1) % NSORTS;
        v->sort_rev = 0;
        ui_message(ui, "sorted by %s", sort_names[v->sort]);
        return UI_HANDLED;
    }
    if (req == UI_REQ_SORT_REVERSE) {
        v->sort_rev = !v->sort_rev;
        return UI_HANDLED;
    }
    return UI_UNHANDLED;
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
    if (p)
        free(p->order);
    free(p);
    v->priv = NULL;
}

const struct ui_view_ops ui_view_functions = {
    .name = "functions",
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .row_function = row_function,
    .free = view_free,
};
