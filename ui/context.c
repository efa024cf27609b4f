/* context.c - what every part of the explorer shares, called by the views,
 * the commands and the session alike (see app.h): the views' table, the
 * message line, the history of views and the one on screen, the current
 * function.  ui.c is the main loop that calls them; nothing here calls it
 * back. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "vec.h"

/* The views' vtables and arguments, from views.h. */
static const struct {
    const struct ui_view_ops *ops;
    enum ui_view_arg arg;
} view_info[UI_V_COUNT] = {
#define UI_VIEW_INFO(id, ops, key, cmd, arg, help, chelp) [UI_V_##id] = {&ops, UI_VA_##arg},
    UI_VIEWS(UI_VIEW_INFO)
#undef UI_VIEW_INFO
};

const struct ui_view_ops *ui_view_ops_of(enum ui_view_id id)
{
    return view_info[id].ops;
}

enum ui_view_arg ui_view_arg_kind(enum ui_view_id id)
{
    return view_info[id].arg;
}

/* ---- messages ------------------------------------------------------------ */

void ui_message(struct ui *ui, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui->msg, sizeof ui->msg, fmt, ap);
    va_end(ap);
    ui->msg_style = UI_S_MESSAGE;
}

void ui_error(struct ui *ui, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui->msg, sizeof ui->msg, fmt, ap);
    va_end(ap);
    ui->msg_style = UI_S_ERROR;
}

/* ---- views and history --------------------------------------------------- */

struct ui_view *ui_current(struct ui *ui)
{
    return &ui->views[ui->hist[ui->nhist - 1].view];
}

const char *ui_view_arg(struct ui *ui)
{
    return ui->hist[ui->nhist - 1].arg;
}

const char *ui_view_function(struct ui *ui)
{
    const char *arg = ui_view_arg(ui);
    return arg ? arg : ui->cur_fn;
}

int ui_sort_request(struct ui *ui, struct ui_view *v, enum ui_request req, const char *const *names,
                    int nsorts)
{
    if (req == UI_REQ_SORT_NEXT) {
        v->sort = (v->sort + 1) % nsorts;
        v->sort_rev = 0;
        ui_message(ui, "sorted by %s", names[v->sort]);
        return UI_HANDLED;
    }
    if (req == UI_REQ_SORT_REVERSE) {
        v->sort_rev = !v->sort_rev;
        return UI_HANDLED;
    }
    return UI_UNHANDLED;
}

int ui_same_arg(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

void ui_open_view(struct ui *ui, enum ui_view_id v, const char *arg)
{
    if (ui->nhist > 0 && ui->hist[ui->nhist - 1].view == v &&
        ui_same_arg(ui->hist[ui->nhist - 1].arg, arg))
        return;
    /* A view already in the history: go back to it (what came after it is
     * forgotten), so that going back never loops and the first view stays
     * at the bottom: q quits only from there. */
    for (int i = 0; i < ui->nhist; i++) {
        if (ui->hist[i].view == v && ui_same_arg(ui->hist[i].arg, arg)) {
            while (ui->nhist > i + 1) {
                ui->nhist--;
                free(ui->hist[ui->nhist].arg);
                ui->hist[ui->nhist].arg = NULL;
            }
            return;
        }
    }
    char *copy = arg ? strdup(arg) : NULL;
    if (arg && !copy) {
        ui_error(ui, "out of memory");
        return;
    }
    if (ui->nhist == (int)ARRAY_SIZE(ui->hist)) {
        /* full: forget the oldest entry after the first view */
        free(ui->hist[1].arg);
        memmove(&ui->hist[1], &ui->hist[2], (size_t)(ui->nhist - 2) * sizeof *ui->hist);
        ui->nhist--;
    }
    ui->hist[ui->nhist].view = v;
    ui->hist[ui->nhist].arg = copy;
    ui->nhist++;
}

void ui_set_function(struct ui *ui, const char *name)
{
    ui->sel_stale = 0;
    if (ui_same_arg(ui->cur_fn, name))
        return;
    char *copy = name ? strdup(name) : NULL;
    free(ui->cur_fn);
    ui->cur_fn = copy;
    ui->cur_fid = copy ? ss_model_find_function(ui->m, copy) : SS_NONE;
}

ss_id ui_current_function(struct ui *ui)
{
    if (!ui->cur_fn)
        return SS_NONE;
    const struct ss_model *m = ui->m;
    /* the id survives transforms (their output keeps the original's
     * function table); the name is the fallback when it does not */
    if (ui->cur_fid != SS_NONE && ui->cur_fid < m->functions.n &&
        !strcmp(ss_function_name(m, ui->cur_fid), ui->cur_fn))
        return ss_function_canonical(m, ui->cur_fid);
    ui->cur_fid = ss_model_find_function(m, ui->cur_fn);
    return ui->cur_fid;
}
