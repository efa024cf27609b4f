/* view_transforms.c - the transform list (stackscope(1), TRANSFORMS): each step
 * with what it did the last time the list was applied (samples in and
 * out, frames removed, stacks changed, functions its names matched, and
 * the samples a range or a phase resolved to: keep-phase main shows which).
 * Space turns a step off and on, d deletes it, J/K move it, Enter edits it
 * at the prompt, a adds one after it; every edit re-applies the list and
 * is one undo step.  In a comparison (--base) the list applies to both
 * sides and each step shows what it did to each (`report --base --by
 * transforms`): samples in and out, the share of the measure kept and
 * levels removed, base then new. */
#include <string.h>

#include "app.h"
#include "report_compare.h"
#include "report_transforms.h"
#include "vec.h"

/* The view's own columns: on or off, and "removed": the measure the step
 * removed (its samples' time, memory, ...), widened to the measure's
 * numbers in draw. */
#define TFC(ctx) ((const struct ss_tf_ctx *)(ctx))
static void cell_on(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    snprintf(buf, n, "%s", ss_tf_enabled(TFC(ctx)->l, r) ? "on" : "off");
}
static void cell_removed(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_tf_effect *e = ss_tf_effect(TFC(ctx)->l, r);
    ss_format_value(buf, n, &TFC(ctx)->u, e->value_in - e->value_out, 0);
}
static const struct ss_col on_col = {"on", NULL, 3, 0, 0, cell_on, NULL, NULL, 0};
static const struct ss_col removed_col = {"removed", NULL, 8, 0, 0, cell_removed, NULL, NULL, 0};

static const struct ui_column columns_min[] = {
    {"#", 2, 1, &ss_step_columns[SS_STEP_STEP]},
    {NULL, UI_COL_CORE, 0, &on_col},
    {"in", 7, 1, &ss_step_columns[SS_STEP_IN]},
    {"out", 7, 1, &ss_step_columns[SS_STEP_OUT]},
    UI_COL(&removed_col),
    {NULL, 5, 1, &ss_step_columns[SS_STEP_RANGE]},
    {"frames-", 7, 1, &ss_step_columns[SS_STEP_FRAMES]},
    {NULL, 6, 1, &ss_step_columns[SS_STEP_STACKS]},
    {"fns", 4, 1, &ss_step_columns[SS_STEP_FUNCTIONS]},
    {"lvls", 4, 1, &ss_step_columns[SS_STEP_LEVELS]},
    UI_COL(&ss_step_columns[SS_STEP_COMMAND]),
};
#define NCOLS ARRAY_SIZE(columns_min)

/* In a comparison: base and new of each number. */
#define CT(i) (&ss_cmp_step_columns[i])
static const struct ui_column ccolumns_min[] = {
    {"#", 2, 1, CT(SS_CMPTF_STEP)},
    {NULL, UI_COL_CORE, 0, CT(SS_CMPTF_ENABLED)},
    {"in.b", 5, 1, CT(SS_CMPTF_IN_B)},
    {"in", 5, 1, CT(SS_CMPTF_IN)},
    {"out.b", 5, 1, CT(SS_CMPTF_OUT_B)},
    {"out", 5, 1, CT(SS_CMPTF_OUT)},
    {"kept%b", 6, 1, CT(SS_CMPTF_KEPT_B)},
    UI_COL(CT(SS_CMPTF_KEPT)),
    {"lv.b", 4, 1, CT(SS_CMPTF_LEVELS_B)},
    {"lv", 3, 1, CT(SS_CMPTF_LEVELS)},
    {"range.b", 7, 1, CT(SS_CMPTF_RANGE_B)},
    {NULL, 5, 1, CT(SS_CMPTF_RANGE)},
    UI_COL(CT(SS_CMPTF_COMMAND)),
};
#define NCCOLS ARRAY_SIZE(ccolumns_min)

struct transforms_view {
    /* the descriptors as draw widens them ("removed" and "range"; a
     * comparison's numbers) */
    struct ui_column columns[NCOLS], ccolumns[NCCOLS];
    /* The columns drawn: the range ones only when a step is keep-phase or
     * drop-phase (a range's command says its range already), so that a
     * narrow screen keeps room for the commands. */
    struct ui_column shown[NCCOLS];
    size_t nshown;
};

static void show_columns(struct ui *ui, struct transforms_view *p, const struct ui_column *cols,
                         size_t n, int range_col, int nrange)
{
    int phase = 0;
    for (size_t i = 0; i < ss_tf_count(ui->tf); i++)
        phase |=
            ss_tf_kind(ui->tf, i) == SS_TF_KEEP_PHASE || ss_tf_kind(ui->tf, i) == SS_TF_DROP_PHASE;
    p->nshown = 0;
    for (size_t i = 0; i < n; i++)
        if (phase || (int)i < range_col || (int)i >= range_col + nrange)
            p->shown[p->nshown++] = cols[i];
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    v->list.n = ss_tf_count(ui->tf);
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    size_t n_steps = ss_tf_count(ui->tf);
    /* in and out count timeline rows: samples, or, where a row stands for
     * several (pprof, folded stacks), rows */
    int rows = ss_model_count(&ui->orig, 0, ui->orig.sample_stack.n) != ui->orig.sample_stack.n;
    snprintf(buf, n, "%zu step%s, %zu on; in and out count %s", n_steps, n_steps == 1 ? "" : "s",
             ss_tf_active(ui->tf), rows ? "rows" : "samples");
}

/* The comparison's context: the list, the new profile's units, the base's
 * factor (ss_compare). */
static void compared_ctx(struct ui *ui, struct ss_cmp_tf_ctx *x)
{
    struct ss_compare c;
    ui_compare(ui, &c);
    x->l = ui->tf;
    x->u = c.units;
    x->f = c.conv * c.scale;
}

static void draw_compared_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y,
                              size_t row, int style)
{
    const struct transforms_view *p = v->priv;
    struct ss_cmp_tf_ctx x;
    compared_ctx(ui, &x);
    if (ss_tf_enabled(ui->tf, row)) {
        ui_table_cells(c, y, p->shown, p->nshown, &x, row, style, 0);
        return;
    }
    struct ui_column off[NCCOLS];
    for (size_t i = 0; i < p->nshown; i++) {
        off[i] = p->shown[i];
        if (i > 1 && i + 1 < p->nshown)
            off[i].col = NULL;
    }
    ui_table_cells(c, y, off, p->nshown, &x, row, style == UI_S_NORMAL ? UI_S_DIM : style, 0);
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    if (ui->bm) {
        draw_compared_row(ui, v, c, y, row, style);
        return;
    }
    const struct transforms_view *p = v->priv;
    struct ss_tf_ctx ctx = {ui->tf, {{0}, 0}};
    ss_units_of(ui->m, &ctx.u);
    if (ss_tf_enabled(ui->tf, row)) {
        ui_table_cells(c, y, p->shown, p->nshown, &ctx, row, style, 0);
        return;
    }
    /* a step turned off has no effect: its number, "off" and its command */
    struct ui_column off[NCOLS];
    for (size_t i = 0; i < p->nshown; i++) {
        off[i] = p->shown[i];
        if (i > 1 && i + 1 < p->nshown)
            off[i].col = NULL;
    }
    ui_table_cells(c, y, off, p->nshown, &ctx, row, style == UI_S_NORMAL ? UI_S_DIM : style, 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct transforms_view *p = v->priv;
    double widest = 0;
    for (size_t i = 0; i < ss_tf_count(ui->tf); i++) {
        const struct ss_tf_effect *e = ss_tf_effect(ui->tf, i);
        double r = e->value_in - e->value_out;
        widest = r > widest ? r : widest;
    }
    p->columns[4].width = ui_value_width(ui, widest, 8);
    const char *note = v->list.n ? NULL
                                 : "no transforms yet: type : and one (:trim-base auto), or use "
                                   "the trimming keys (? lists them)";
    int range_w = 5; /* the widest range, never cut */
    for (size_t i = 0; i < ss_tf_count(ui->tf); i++) {
        char r[64];
        int w = (int)strlen(ss_tf_range_text(ss_tf_effect(ui->tf, i), r, sizeof r));
        range_w = w > range_w ? w : range_w;
    }
    p->columns[5].width = range_w;
    if (ui->bm) {
        /* the numbers widen to their widest (never cut) */
        struct ss_cmp_tf_ctx x;
        compared_ctx(ui, &x);
        memcpy(p->ccolumns, ccolumns_min, sizeof p->ccolumns);
        ui_table_fit(p->ccolumns, NCCOLS, &x, ss_tf_count(ui->tf));
        show_columns(ui, p, p->ccolumns, NCCOLS, (int)NCCOLS - 3, 2);
    } else {
        show_columns(ui, p, p->columns, NCOLS, 5, 1);
    }
    ui_table_draw(ui, v, c, y, h, p->shown, p->nshown, -1, 0, note, draw_row);
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    size_t n = ss_tf_count(ui->tf), i = v->list.sel;
    char what[1200];
    if (req == UI_REQ_TF_ADD) {
        ui_prompt_start(ui, ':', "");
        ui->prompt.insert_at = n ? (int)i + 1 : 0;
        return UI_HANDLED;
    }
    if (req != UI_REQ_TF_TOGGLE && req != UI_REQ_TF_DELETE && req != UI_REQ_TF_EDIT &&
        req != UI_REQ_TF_MOVE_UP && req != UI_REQ_TF_MOVE_DOWN)
        return UI_UNHANDLED;
    if (i >= n) {
        ui_error(ui, "no step selected");
        return UI_HANDLED;
    }
    switch (req) {
    case UI_REQ_TF_TOGGLE: {
        int on = !ss_tf_enabled(ui->tf, i);
        snprintf(what, sizeof what, "step %zu %s: %s", i + 1, on ? "on" : "off",
                 ss_tf_text(ui->tf, i));
        if (!ss_tf_set_enabled(ui->tf, i, on))
            ui_reapply(ui, what);
        break;
    }
    case UI_REQ_TF_DELETE:
        snprintf(what, sizeof what, "deleted step %zu: %s (u undoes)", i + 1,
                 ss_tf_text(ui->tf, i));
        if (!ss_tf_remove(ui->tf, i))
            ui_reapply(ui, what);
        break;
    case UI_REQ_TF_EDIT:
        ui_prompt_start(ui, ':', ss_tf_text(ui->tf, i));
        ui->prompt.edit_step = (int)i;
        break;
    case UI_REQ_TF_MOVE_UP:
    case UI_REQ_TF_MOVE_DOWN: {
        size_t to = req == UI_REQ_TF_MOVE_UP ? i - 1 : i + 1;
        if ((req == UI_REQ_TF_MOVE_UP && i == 0) || to >= n)
            break;
        snprintf(what, sizeof what, "moved step %zu to %zu", i + 1, to + 1);
        if (!ss_tf_move(ui->tf, i, to) && !ui_reapply(ui, what))
            ui_list_select(&v->list, to);
        break;
    }
    default:
        break;
    }
    return UI_HANDLED;
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    return r < ss_tf_count(ui->tf) ? ss_tf_text(ui->tf, r) : NULL;
}

static void transforms_init(struct ui_view *v)
{
    struct transforms_view *p = v->priv;
    memcpy(p->columns, columns_min, sizeof p->columns);
}

const struct ui_view_ops ui_view_transforms = {
    .name = "transforms",
    .priv_size = sizeof(struct transforms_view),
    .init = transforms_init,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
};
