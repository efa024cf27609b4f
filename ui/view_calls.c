/* view_calls.c - callers and callees of one function (`report --by calls
 * --function F`, pprof's peek): the callers above the function, its total
 * (and self) in the middle, the callees below, with the samples in which
 * each call happens.  Enter on a caller or callee moves there (q comes
 * back); Enter on the function itself opens the tree of what it calls. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "tree.h"
#include "vec.h"

static const struct ui_column columns[] = {
    {"", 7, 0, NULL},    {"count", 9, 1, NULL},    {"time", 10, 1, NULL},
    {"pct", 7, 1, NULL}, {"function", 0, 0, NULL},
};
#define NCOLS ARRAY_SIZE(columns)

/* In a comparison (--base): the base's value of each call, the new one and
 * the delta (ss_compare_calls joins them by name). */
static const struct ui_column ccolumns[] = {
    {"", 7, 0, NULL},       {"base", 10, 1, NULL},    {"new", 10, 1, NULL},
    {"delta", 11, 1, NULL}, {"function", 0, 0, NULL},
};

struct calls_view {
    unsigned gen;
    char *fn; /* the function shown (owned) */
    int have;
    struct ss_calls c;
    int have_cmp;
    struct ss_cmp_calls k; /* a comparison's joined calls */
};

/* The base's value of caller (kind < 0) or callee `name` of the joined
 * calls, 0 when the base has no such call. */
static double base_of(const struct ss_cmp_calls *k, int kind, const char *name)
{
    const struct ss_cmp_edge *e = kind < 0 ? k->callers : k->callees;
    size_t n = kind < 0 ? k->ncallers : k->ncallees;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(ss_strtab_get(&k->keys, e[i].name), name))
            return e[i].base;
    return 0;
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct calls_view *p = v->priv;
    const char *fn = ui_view_function(ui);
    if (p->gen == ui->gen && ((!fn && !p->fn) || (fn && p->fn && !strcmp(fn, p->fn)))) {
        v->list.n = p->have ? p->c.ncallers + 1 + p->c.ncallees : 0;
        return 0;
    }
    int same_fn = fn && p->fn && !strcmp(fn, p->fn);
    ss_calls_free(&p->c);
    p->have = 0;
    if (p->have_cmp)
        ss_cmp_calls_free(&p->k);
    p->have_cmp = 0;
    free(p->fn);
    p->fn = fn ? strdup(fn) : NULL;
    p->gen = ui->gen;
    v->list.n = 0;
    ss_id id = fn ? ss_model_find_function(ui->m, fn) : SS_NONE;
    if (id != SS_NONE) {
        struct ss_error err;
        ss_error_clear(&err);
        if (ss_calls_of(ui->m, id, &p->c, &err)) {
            ui_error(ui, "%s", err.msg);
            return -1;
        }
        p->have = 1;
        if (ui->bm) {
            struct ss_compare cmp;
            ui_compare(ui, &cmp);
            if (ss_compare_calls(&cmp, fn, &p->k, &err)) {
                ui_error(ui, "%s", err.msg);
                return -1;
            }
            p->have_cmp = 1;
        }
        v->list.n = p->c.ncallers + 1 + p->c.ncallees;
        if (!same_fn)
            v->list.sel = p->c.ncallers; /* the function itself */
    }
    ui_list_fit(&v->list);
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    struct calls_view *p = v->priv;
    if (p && p->have)
        snprintf(buf, n, "%s: %zu caller%s, %zu callee%s", p->fn, p->c.ncallers,
                 ss_s(p->c.ncallers), p->c.ncallees, ss_s(p->c.ncallees));
    else
        snprintf(buf, n, "callers and callees");
}

/* Row r: a caller (kind -1), the function (0) or a callee (1). */
static const struct ss_edge *edge_of(struct calls_view *p, size_t r, int *kind)
{
    if (r < p->c.ncallers) {
        *kind = -1;
        return &p->c.callers[r];
    }
    if (r == p->c.ncallers) {
        *kind = 0;
        return NULL;
    }
    *kind = 1;
    return &p->c.callees[r - p->c.ncallers - 1];
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    struct calls_view *p = v->priv;
    int kind;
    const struct ss_edge *e = edge_of(p, row, &kind);
    char b[3][32], name[4200];
    uint64_t cnt = e ? e->n : p->c.total_n;
    double t = e ? e->time : p->c.total_v;
    snprintf(b[0], sizeof b[0], "%llu", (unsigned long long)cnt);
    ui_fmt_value(ui, b[1], sizeof b[1], t);
    snprintf(b[2], sizeof b[2], "%.2f", ui_pct(ui, t));
    if (e)
        snprintf(name, sizeof name, "  %s", ss_function_name(ui->m, e->function));
    else {
        char sv[64];
        ui_fmt_value(ui, sv, sizeof sv, p->c.self_v);
        snprintf(name, sizeof name, "%s (total; self %llu = %s%s)",
                 ss_function_name(ui->m, p->c.function), (unsigned long long)p->c.self_n, sv,
                 ui->m->weights.measure.kind == SS_MEASURE_TIME ? " s" : "");
    }
    const struct ui_column *cols = columns;
    if (p->have_cmp) {
        /* a comparison: base, new, delta */
        double bv = e ? base_of(&p->k, kind, ss_function_name(ui->m, e->function)) : p->k.total_b;
        ui_fmt_value(ui, b[0], sizeof b[0], bv);
        ui_fmt_value(ui, b[2] + (t - bv > 0), sizeof b[2] - 1, t - bv);
        if (t - bv > 0)
            b[2][0] = '+';
        cols = ccolumns;
    }
    const char *cells[NCOLS] = {kind < 0   ? "caller"
                                : kind > 0 ? "callee"
                                           : "total",
                                b[0], b[1], b[2], name};
    ui_table_row(c, y, cols, NCOLS, cells, kind == 0 && style == UI_S_NORMAL ? UI_S_MARK : style,
                 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct calls_view *p = v->priv;
    char note[4200];
    const char *empty =
        p && p->have
            ? NULL
            : ui_function_note(ui_view_function(ui),
                               "select a function first (Enter on a function)", note, sizeof note);
    ui_table_draw(ui, v, c, y, h, p && p->have_cmp ? ccolumns : columns, NCOLS, -1, 0, empty,
                  draw_row);
}

static const char *row_function(struct ui *ui, struct ui_view *v, size_t r)
{
    struct calls_view *p = v->priv;
    if (!p || !p->have || r >= v->list.n)
        return NULL;
    int kind;
    const struct ss_edge *e = edge_of(p, r, &kind);
    return ss_function_name(ui->m, e ? e->function : p->c.function);
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    struct calls_view *p = v->priv;
    if (req != UI_REQ_ENTER || !p || !p->have || v->list.n == 0)
        return UI_UNHANDLED;
    const char *fn = row_function(ui, v, v->list.sel);
    ui_set_function(ui, fn);
    if (v->list.sel == p->c.ncallers)
        ui_open_view(ui, UI_V_TOPDOWN, fn);
    else
        ui_open_view(ui, UI_V_CALLS, fn);
    return UI_HANDLED;
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    return row_function(ui, v, r);
}

static void view_free(struct ui_view *v)
{
    struct calls_view *p = v->priv;
    ss_calls_free(&p->c);
    if (p->have_cmp)
        ss_cmp_calls_free(&p->k);
    free(p->fn);
}

const struct ui_view_ops ui_view_calls = {
    .name = "calls",
    .priv_size = sizeof(struct calls_view),
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .row_function = row_function,
    .free = view_free,
};
