/* view_levels.c - the profile level by level (`report --by levels`): how
 * many samples reach each level (1 = root), how many distinct functions
 * appear there and the most frequent one.  The scaffold (root levels where
 * one function is in every sample) is marked with '*', and its levels that
 * are user code (a frame there has a source position) with 'u': `B`
 * (trim-base auto) stops above the first of those; `b` on a level cuts
 * the levels down to it (trim-base N), `B` cuts the scaffold, Enter shows
 * the timeline at the level. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "report_analysis.h"
#include "report_compare.h"
#include "vec.h"

/* The view's own level column: report's, with 'u' after a scaffold level
 * that is user code (a frame there has a source position).  Two marks'
 * room on every row, so that the numbers line up with or without a 'u'. */
static void cell_level(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_levels_ctx *x = ctx;
    const struct ss_level_row *row = &x->rows[r];
    snprintf(buf, n, "%u%c%c", row->level, r < x->scaffold ? '*' : ' ',
             r < x->scaffold && row->located ? 'u' : ' ');
}
static const struct ss_col level_col = {"level", NULL, 6, 0, 0, cell_level, NULL, NULL, 0};

static const struct ui_column columns[] = {
    {NULL, 7, 1, &level_col},
    UI_COL(&ss_level_columns[SS_LEVEL_SAMPLES]),
    UI_COL(&ss_level_columns[SS_LEVEL_DISTINCT]),
    UI_COL(&ss_level_columns[SS_LEVEL_TOP_SAMPLES]),
    UI_COL(&ss_level_columns[SS_LEVEL_TOP_PCT]),
    UI_COL(&ss_level_columns[SS_LEVEL_TOP]),
};
#define NCOLS ARRAY_SIZE(columns)

/* In a comparison (--base): per level, the samples reaching it and their
 * measure in the base and the new profile, the deltas, and the new
 * profile's top function (`report --base --by levels`). */
#define CL(i) (&ss_cmp_level_columns[i])
static const struct ui_column ccolumns_min[] = {
    UI_COL(CL(SS_CMPLV_LEVEL)),
    {"base", 8, 1, CL(SS_CMPLV_SAMPLES_B)},
    {NULL, 8, 1, CL(SS_CMPLV_SAMPLES)},
    {"delta", 7, 1, CL(SS_CMPLV_SAMPLES_D)},
    {"base", 9, 1, CL(SS_CMPLV_VALUE_B)},
    {"measure", 9, 1, CL(SS_CMPLV_VALUE)},
    {"delta", 10, 1, CL(SS_CMPLV_VALUE_D)},
    {"top function", UI_COL_CORE, 0, CL(SS_CMPLV_TOP)},
};
#define NCCOLS ARRAY_SIZE(ccolumns_min)

struct levels_view {
    unsigned gen;
    int have; /* cmp holds the comparison of generation gen */
    struct ss_cmp_levels cmp;
    struct ui_column ccolumns[NCCOLS]; /* as drawn: ccolumns_min widened (draw) */
};

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct levels_view *p = v->priv;
    if (ui->bm) {
        if (!p->have || p->gen != ui->gen) {
            if (p->have)
                ss_cmp_levels_free(&p->cmp);
            p->have = 0;
            struct ss_compare c;
            struct ss_error err;
            ss_error_clear(&err);
            ui_compare(ui, &c);
            if (ss_compare_levels(&c, &p->cmp, &err)) {
                ui_error(ui, "%s", err.msg);
                v->list.n = 0;
                return -1;
            }
            p->have = 1;
            p->gen = ui->gen;
        }
        v->list.n = p->cmp.n;
        return 0;
    }
    const struct ss_level_row *rows;
    size_t n;
    if (ui_levels(ui, &rows, &n, NULL))
        return -1;
    v->list.n = n;
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    if (ui->bm) {
        snprintf(buf, n, "%zu compared (base, new, delta)", v->list.n);
        return;
    }
    const struct ss_level_row *rows;
    size_t nl, sc;
    if (ui_levels(ui, &rows, &nl, &sc))
        return;
    size_t user = sc ? ss_levels_user_level(rows, sc) : 0;
    if (sc && user < sc)
        snprintf(buf, n, "%zu, scaffold* 1-%zu, u: user code (b/B: trim-base)", nl, sc);
    else if (sc)
        snprintf(buf, n, "%zu, scaffold* 1-%zu (b: trim-base to here, B: auto)", nl, sc);
    else
        snprintf(buf, n, "%zu, no scaffold", nl);
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    struct ss_levels_ctx ctx = {ui->m, NULL, 0, {{0}, 0}};
    size_t n;
    ui_levels(ui, &ctx.rows, &n, &ctx.scaffold);
    ss_units_of(ui->m, &ctx.u);
    ui_table_cells(c, y, columns, NCOLS, &ctx, row,
                   row < ctx.scaffold && style == UI_S_NORMAL ? UI_S_MARK : style, 0);
}

static void draw_compared_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y,
                              size_t row, int style)
{
    struct levels_view *p = v->priv;
    const struct ss_cmp_level *r = &p->cmp.rows[row];
    /* growth stands out (the error colour), shrinkage is dimmed */
    double d = r->value_n - r->value_b;
    if (style == UI_S_NORMAL && (d > 0 || d < 0))
        style = d > 0 ? UI_S_ERROR : UI_S_DIM;
    ui_table_cells(c, y, p->ccolumns, NCCOLS, &p->cmp, row, style, 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    if (ui->bm) {
        struct levels_view *p = v->priv;
        /* the numbers widen to their widest (never cut) */
        memcpy(p->ccolumns, ccolumns_min, sizeof p->ccolumns);
        if (p->have)
            ui_table_fit(p->ccolumns, NCCOLS, &p->cmp, p->cmp.n);
        p->ccolumns[5].name = ss_model_measure_name(ui->m); /* "time", "alloc_space", ... */
        ui_table_draw(ui, v, c, y, h, p->ccolumns, NCCOLS, -1, 0,
                      v->list.n ? NULL : ui_empty_note(ui), draw_compared_row);
        return;
    }
    ui_table_draw(ui, v, c, y, h, columns, NCOLS, -1, 0, v->list.n ? NULL : ui_empty_note(ui),
                  draw_row);
}

static const char *row_function(struct ui *ui, struct ui_view *v, size_t r)
{
    struct levels_view *p = v->priv;
    if (ui->bm) {
        if (!p->have || r >= p->cmp.n || p->cmp.rows[r].top_n == SS_NONE)
            return NULL;
        return ss_strtab_get(&p->cmp.keys, p->cmp.rows[r].top_n);
    }
    const struct ss_level_row *rows;
    size_t n;
    if (ui_levels(ui, &rows, &n, NULL) || r >= n || rows[r].top == SS_NONE)
        return NULL;
    return ss_function_name(ui->m, rows[r].top);
}

static uint32_t row_level(struct ui *ui, struct ui_view *v, size_t r)
{
    return (uint32_t)r + 1;
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    if (req != UI_REQ_ENTER || v->list.n == 0)
        return UI_UNHANDLED;
    ui_timeline_show_level(ui, (uint32_t)v->list.sel + 1);
    return UI_HANDLED;
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    return row_function(ui, v, r);
}

static void view_free(struct ui_view *v)
{
    struct levels_view *p = v->priv;
    if (p->have)
        ss_cmp_levels_free(&p->cmp);
}

const struct ui_view_ops ui_view_levels = {
    .name = "levels",
    .flags = UI_VF_KEEP_FUNCTION,
    .priv_size = sizeof(struct levels_view),
    .free = view_free,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .row_function = row_function,
    .row_level = row_level,
};
