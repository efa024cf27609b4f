/* view_runs.c - run lengths of one function (`report --by runs --function
 * F`): per level, its runs (~ calls), samples, mean, median and longest
 * run, then sprof's level x run-length table with its margins (runs per
 * level, runs per length).  The table scrolls sideways with h/l.
 *
 * Both parts come from the one table (ss_runs_hist_fast, the function's own
 * pass, equal to the core's ss_runs_hist): a level's row is its
 * row of the table read as a histogram of run lengths, the "all" row the
 * margin, by the core's ss_run_row_stats (R's median), so one pass over the
 * timeline serves the whole view. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "report_analysis.h"
#include "report_compare.h"
#include "vec.h"

static const struct ui_column columns[] = {
    UI_COL(&ss_run_columns[SS_RUN_LEVEL]),
    UI_COL(&ss_run_columns[SS_RUN_RUNS]),
    UI_COL(&ss_run_columns[SS_RUN_SAMPLES]),
    UI_COL(&ss_run_columns[SS_RUN_MEAN]),
    UI_COL(&ss_run_columns[SS_RUN_MEDIAN]),
    UI_COL(&ss_run_columns[SS_RUN_MAX]),
    {"function", UI_COL_CORE, 0, &ss_run_columns[SS_RUN_NAME]},
};
#define NCOLS ARRAY_SIZE(columns)

/* In a comparison (--base): per level of the function, its runs, samples
 * and mean run length in the base and the new profile, and the deltas
 * (`report --base --by runs --function F`; the mean's base is left out:
 * mean and delta give it); the table below is the new profile's. */
#define CR(i) (&ss_cmp_run_columns[i])
static const struct ui_column ccolumns_min[] = {
    UI_COL(CR(SS_CMPRU_LEVEL)),
    {"base", 5, 1, CR(SS_CMPRU_RUNS_B)},
    {NULL, 5, 1, CR(SS_CMPRU_RUNS)},
    {"delta", 5, 1, CR(SS_CMPRU_RUNS_D)},
    {"base", 7, 1, CR(SS_CMPRU_SAMPLES_B)},
    {NULL, 7, 1, CR(SS_CMPRU_SAMPLES)},
    {"delta", 6, 1, CR(SS_CMPRU_SAMPLES_D)},
    UI_COL(CR(SS_CMPRU_MEAN)),
    {"delta", 7, 1, CR(SS_CMPRU_MEAN_D)},
    {"function", UI_COL_CORE, 0, CR(SS_CMPRU_NAME)},
};
#define NCCOLS ARRAY_SIZE(ccolumns_min)

struct runs_view {
    unsigned gen;
    char *fn;                /* owned */
    int have;                /* the function is in the profile */
    struct ss_run_row *rows; /* per level and "all" (level 0), in report's order */
    size_t nrows;
    struct ss_run_hist h;
    int have_cmp; /* a comparison: cmp replaces rows (nrows = cmp.n) */
    struct ss_cmp_runs cmp;
    struct ui_column ccolumns[NCCOLS]; /* as drawn: ccolumns_min widened (draw) */
};

/* report's order: samples, then runs (descending), then level (0 first) */
static int cmp_rows(const void *pa, const void *pb)
{
    const struct ss_run_row *a = pa, *b = pb;
    if (a->samples != b->samples)
        return a->samples > b->samples ? -1 : 1;
    if (a->runs != b->runs)
        return a->runs > b->runs ? -1 : 1;
    return a->level < b->level ? -1 : a->level > b->level;
}

/* Rows: the per-level table, a blank, the caption, the length header, one
 * row per level of the table, the margin. */
static size_t nlist(const struct runs_view *p)
{
    if (!p->have)
        return 0;
    return p->nrows + (p->h.n_levels ? 3 + p->h.n_levels + 1 : 0);
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct runs_view *p = v->priv;
    const char *fn = ui_view_function(ui);
    if (p->gen == ui->gen && ((!fn && !p->fn) || (fn && p->fn && !strcmp(fn, p->fn)))) {
        v->list.n = nlist(p);
        return 0;
    }
    ss_run_hist_free(&p->h);
    free(p->rows);
    p->rows = NULL;
    p->nrows = 0;
    p->have = 0;
    if (p->have_cmp)
        ss_cmp_runs_free(&p->cmp);
    p->have_cmp = 0;
    free(p->fn);
    p->fn = fn ? strdup(fn) : NULL;
    p->gen = ui->gen;
    v->list.n = 0;
    v->list.sel = 0;
    v->hscroll = 0;
    ss_id id = fn ? ss_model_find_function(ui->m, fn) : SS_NONE;
    if (id == SS_NONE)
        return 0;
    struct ss_error err;
    if (ss_runs_hist_fast(ui->m, ss_function_canonical(ui->m, id), &p->h, &err)) {
        ui_error(ui, "out of memory (run lengths)");
        return -1;
    }
    const struct ss_run_hist *h = &p->h;
    if (h->n_levels) {
        p->rows = ss_calloc_array(h->n_levels + 1, sizeof *p->rows);
        if (!p->rows) {
            ui_error(ui, "out of memory");
            return -1;
        }
        for (size_t i = 0; i < h->n_levels; i++) {
            ss_run_row_stats(h->lengths, h->counts + i * h->n_lengths, h->n_lengths, 1,
                             &p->rows[i]);
            p->rows[i].level = h->levels[i];
            p->rows[i].function = id;
        }
        ss_run_row_stats(h->lengths, h->length_runs, h->n_lengths, 1, &p->rows[h->n_levels]);
        p->rows[h->n_levels].level = 0;
        p->rows[h->n_levels].function = id;
        p->nrows = h->n_levels + 1;
        qsort(p->rows, p->nrows, sizeof *p->rows, cmp_rows);
    }
    if (ui->bm) {
        struct ss_compare c;
        ui_compare(ui, &c);
        if (ss_compare_runs(&c, 0, fn, &p->cmp, &err)) {
            ui_error(ui, "%s", err.msg);
            return -1;
        }
        p->have_cmp = 1;
        p->nrows = p->cmp.n;
    }
    p->have = 1;
    v->list.n = nlist(p);
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    struct runs_view *p = v->priv;
    if (ui_no_order_note(ui))
        snprintf(buf, n, "none without time order");
    else if (p && p->have)
        snprintf(buf, n, "%s: %llu runs (~ calls); h/l scroll the table", p->fn,
                 (unsigned long long)p->h.total);
    else
        snprintf(buf, n, "run lengths");
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    struct runs_view *p = v->priv;
    if (row < p->nrows && p->have_cmp) {
        ui_table_cells(c, y, p->ccolumns, NCCOLS, &p->cmp, row, style, 0);
        return;
    }
    if (row < p->nrows) {
        struct ss_runs_ctx ctx = {ui->m, p->rows, {{0}, 0}};
        ss_units_of(ui->m, &ctx.u);
        ui_table_cells(c, y, columns, NCOLS, &ctx, row, style, 0);
        return;
    }
    size_t k = row - p->nrows;
    ui_canvas_style(c, y, 0, c->w, style, 1);
    if (k == 0)
        return;
    if (k == 1) {
        char cap[4200];
        snprintf(cap, sizeof cap,
                 "run lengths of %s: runs per level (rows) and run length in "
                 "samples (columns)",
                 p->fn);
        ui_put(c, y, 0, c->w, cap, style == UI_S_NORMAL ? UI_S_HEADER : style);
        return;
    }
    /* the table: columns that fit from the scroll position on */
    size_t maxcols = p->h.n_lengths;
    size_t skip = (size_t)v->hscroll / 8;
    if (skip >= maxcols)
        skip = maxcols ? maxcols - 1 : 0;
    char line[16384];
    ss_run_hist_line(&p->h, k - 2, skip, line, sizeof line);
    int st = style;
    if (style == UI_S_NORMAL && (k == 2 || k - 2 > p->h.n_levels))
        st = UI_S_HEADER;
    ui_put(c, y, 0, c->w, line, st);
    if (ui_text_width(c, line) > c->w)
        ui_put(c, y, c->w - 1, 1, ">", UI_S_MARK);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct runs_view *p = v->priv;
    char note[4200];
    const char *empty = ui_no_order_note(ui) ? ui_no_order_note(ui)
                        : p && p->have       ? NULL
                                             : ui_function_note(ui_view_function(ui),
                                                                "select a function first, or :runs NAME",
                                                                note, sizeof note);
    /* keep the scroll inside the table */
    if (!empty && p && p->h.n_lengths && (size_t)v->hscroll / 8 >= p->h.n_lengths)
        v->hscroll = (int)(p->h.n_lengths - 1) * 8;
    if (p && p->have_cmp) {
        /* the numbers widen to their widest (never cut) */
        memcpy(p->ccolumns, ccolumns_min, sizeof p->ccolumns);
        ui_table_fit(p->ccolumns, NCCOLS, &p->cmp, p->cmp.n);
        ui_table_draw(ui, v, c, y, h, p->ccolumns, NCCOLS, -1, 0, empty, draw_row);
    } else
        ui_table_draw(ui, v, c, y, h, columns, NCOLS, -1, 0, empty, draw_row);
}

static const char *row_function(struct ui *ui, struct ui_view *v, size_t r)
{
    struct runs_view *p = v->priv;
    return p && p->have ? p->fn : NULL;
}

static uint32_t row_level(struct ui *ui, struct ui_view *v, size_t r)
{
    struct runs_view *p = v->priv;
    if (!p || !p->have || r >= p->nrows)
        return 0;
    return p->have_cmp ? p->cmp.rows[r].level : p->rows[r].level;
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    struct runs_view *p = v->priv;
    if (!p || !p->have || r >= p->nrows)
        return NULL;
    snprintf(buf, n, "level %u", row_level(ui, v, r));
    return buf;
}

static void view_free(struct ui_view *v)
{
    struct runs_view *p = v->priv;
    ss_run_hist_free(&p->h);
    free(p->rows);
    if (p->have_cmp)
        ss_cmp_runs_free(&p->cmp);
    free(p->fn);
}

const struct ui_view_ops ui_view_runs = {
    .name = "runs",
    .flags = UI_VF_KEEP_FUNCTION,
    .priv_size = sizeof(struct runs_view),
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .row_text = row_text,
    .row_function = row_function,
    .row_level = row_level,
    .free = view_free,
};
