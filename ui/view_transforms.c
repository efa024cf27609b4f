/* view_transforms.c - the transform list (DESIGN section 5): each step
 * with what it did the last time the list was applied (samples in and
 * out, frames removed, stacks changed, functions its names matched).
 * Space turns a step off and on, d deletes it, J/K move it, Enter edits it
 * at the prompt, a adds one after it; every edit re-applies the list and
 * is one undo step. */
#include <string.h>

#include "app.h"
#include "vec.h"

/* "removed": the measure the step removed (its samples' time, memory, ...);
 * widened to the measure's numbers in draw */
static struct ui_column columns[] = {
    {"#", 2, 1, NULL},       {"on", 3, 0, NULL},      {"in", 7, 1, NULL},     {"out", 7, 1, NULL},
    {"removed", 8, 1, NULL}, {"frames-", 7, 1, NULL}, {"stacks", 6, 1, NULL}, {"fns", 4, 1, NULL},
    {"lvls", 4, 1, NULL},    {"command", 0, 0, NULL},
};
#define NCOLS ARRAY_SIZE(columns)

static int prepare(struct ui *ui, struct ui_view *v)
{
    v->list.n = ss_tf_count(ui->tf);
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    size_t n_steps = ss_tf_count(ui->tf);
    snprintf(buf, n, "%zu step%s, %zu on (Space, d, J/K, Enter, a: see ?)", n_steps,
             n_steps == 1 ? "" : "s", ss_tf_active(ui->tf));
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    const struct ss_tf_effect *e = ss_tf_effect(ui->tf, row);
    int on = ss_tf_enabled(ui->tf, row);
    char b[8][32];
    snprintf(b[0], sizeof b[0], "%zu", row + 1);
    snprintf(b[1], sizeof b[1], "%zu", e->samples_in);
    snprintf(b[2], sizeof b[2], "%zu", e->samples_out);
    snprintf(b[3], sizeof b[3], "%llu", (unsigned long long)e->frames_removed);
    snprintf(b[4], sizeof b[4], "%zu", e->stacks_changed);
    snprintf(b[5], sizeof b[5], "%zu", e->functions_matched);
    snprintf(b[6], sizeof b[6], "%zu", e->levels_removed);
    ui_fmt_value(ui, b[7], sizeof b[7], e->value_in - e->value_out);
    const char *cells[NCOLS] = {
        b[0],           on ? "on" : "off", on ? b[1] : "", on ? b[2] : "", on ? b[7] : "",
        on ? b[3] : "", on ? b[4] : "",    on ? b[5] : "", on ? b[6] : "", ss_tf_text(ui->tf, row)};
    ui_table_row(c, y, columns, NCOLS, cells, !on && style == UI_S_NORMAL ? UI_S_DIM : style, 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    double widest = 0;
    for (size_t i = 0; i < ss_tf_count(ui->tf); i++) {
        const struct ss_tf_effect *e = ss_tf_effect(ui->tf, i);
        double r = e->value_in - e->value_out;
        widest = r > widest ? r : widest;
    }
    columns[4].width = ui_value_width(ui, widest, 8);
    ui_table_header(c, y, columns, NCOLS, -1, 0);
    if (v->list.n == 0) {
        v->list.page = h - 1;
        ui_table_note(c, y + 1, h - 1,
                      "no transforms yet: type : and one (:trim-base auto), or use the "
                      "trimming keys (? lists them)");
        return;
    }
    ui_list_draw(ui, v, c, y + 1, h - 1, draw_row);
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

const struct ui_view_ops ui_view_transforms = {
    .name = "transforms",
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
};
