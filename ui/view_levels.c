/* view_levels.c - the profile level by level (`report --by levels`): how
 * many samples reach each level (1 = root), how many distinct functions
 * appear there and the most frequent one.  The scaffold (root levels where
 * one function is in every sample) is marked with '*', and its levels that
 * are user code (a frame there has a source position) with 'u': `B`
 * (trim-base auto) stops above the first of those; `b` on a level cuts
 * the levels down to it (trim-base N), `B` cuts the scaffold, Enter shows
 * the timeline at the level. */
#include <stdlib.h>

#include "app.h"
#include "vec.h"
#include "num.h"

static const struct ui_column columns[] = {
    {"level", 6, 1, NULL},   {"samples", 9, 1, NULL}, {"distinct", 9, 1, NULL},
    {"top.smp", 8, 1, NULL}, {"top.pct", 7, 1, NULL}, {"top function", 0, 0, NULL},
};
#define NCOLS ARRAY_SIZE(columns)

static int prepare(struct ui *ui, struct ui_view *v)
{
    const struct ss_level_row *rows;
    size_t n;
    if (ui_levels(ui, &rows, &n, NULL))
        return -1;
    v->list.n = n;
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
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
    const struct ss_level_row *rows;
    size_t n, sc;
    ui_levels(ui, &rows, &n, &sc);
    const struct ss_level_row *r = &rows[row];
    char b[5][32];
    /* as report: top.pct is the top function's share of the measure at the level */
    double share = !ss_double_eq(r->value, 0) ? 100.0 * r->top_value / r->value : 0;
    snprintf(b[0], sizeof b[0], "%u%c%s", r->level, row < sc ? '*' : ' ',
             row < sc && r->located ? "u" : "");
    snprintf(b[1], sizeof b[1], "%llu", (unsigned long long)r->samples);
    snprintf(b[2], sizeof b[2], "%u", r->distinct);
    snprintf(b[3], sizeof b[3], "%llu", (unsigned long long)r->top_samples);
    snprintf(b[4], sizeof b[4], "%.2f", share);
    const char *cells[NCOLS] = {
        b[0], b[1], b[2], b[3], b[4], r->top == SS_NONE ? "-" : ss_function_name(ui->m, r->top)};
    ui_table_row(c, y, columns, NCOLS, cells, row < sc && style == UI_S_NORMAL ? UI_S_MARK : style,
                 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    ui_table_draw(ui, v, c, y, h, columns, NCOLS, -1, 0, v->list.n ? NULL : ui_empty_note(ui),
                  draw_row);
}

static const char *row_function(struct ui *ui, struct ui_view *v, size_t r)
{
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

const struct ui_view_ops ui_view_levels = {
    .name = "levels",
    .flags = UI_VF_KEEP_FUNCTION,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .row_function = row_function,
    .row_level = row_level,
};
