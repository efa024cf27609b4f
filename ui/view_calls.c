/* view_calls.c - callers and callees of one function (`report --by calls
 * --function F`, pprof's peek): the callers above the function, its total
 * (and self) in the middle, the callees below, with the samples in which
 * each call happens.  Enter on a caller or callee moves there (q comes
 * back); Enter on the function itself opens the tree of what it calls. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "report_analysis.h"
#include "tree.h"
#include "vec.h"

struct calls_view {
    unsigned gen;
    char *fn; /* the function shown (owned) */
    int have;
    struct ss_calls c;
    struct ss_calls_row *rows; /* callers, the function (its total), callees */
    int have_cmp;
    struct ss_cmp_calls k; /* a comparison's joined calls */
};

/* The columns' context: report's (percentages of the whole profile) and,
 * in a comparison, the joined calls. */
struct calls_ctx {
    struct ss_calls_ctx s;
    const struct ss_cmp_calls *k; /* NULL: nothing compared */
};

/* The edge of row r (NULL for the function itself). */
static const struct ss_edge *row_edge(const struct ss_calls_ctx *x, size_t r)
{
    const struct ss_calls_row *row = &x->rows[r];
    return row->rel == SS_CALL_CALLER   ? &x->c->callers[row->i]
           : row->rel == SS_CALL_CALLEE ? &x->c->callees[row->i]
                                        : NULL;
}

/* The view's own label: a call's function indented, the function itself
 * with its self. */
static void cell_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_calls_ctx *x = ctx;
    const struct ss_edge *e = row_edge(x, r);
    if (e) {
        snprintf(buf, n, "  %s", ss_function_name(x->m, e->function));
        return;
    }
    char sv[64];
    ss_format_value(sv, sizeof sv, &x->u, x->c->self_v, 0);
    snprintf(buf, n, "%s (total; self %llu = %s%s)", ss_function_name(x->m, x->c->function),
             (unsigned long long)x->c->self_n, sv,
             x->u.measure.kind == SS_MEASURE_TIME ? " s" : "");
}
static const struct ss_col name_col = {"function", NULL, 0, 0, 0, cell_name, NULL, NULL, 0};

static const struct ui_column columns[] = {
    {"", 7, 0, &ss_call_columns[SS_CALL_REL]},
    UI_COL(&ss_call_columns[SS_CALL_COUNT]),
    {"time", UI_COL_CORE, 1, &ss_call_columns[SS_CALL_VALUE]},
    UI_COL(&ss_call_columns[SS_CALL_PCT]),
    {NULL, 0, 0, &name_col},
};
#define NCOLS ARRAY_SIZE(columns)

/* The base's value of caller (rel SS_CALL_CALLER) or callee `name` of the
 * joined calls, 0 when the base has no such call. */
static double base_of(const struct ss_cmp_calls *k, enum ss_call_rel rel, const char *name)
{
    const struct ss_cmp_edge *e = rel == SS_CALL_CALLER ? k->callers : k->callees;
    size_t n = rel == SS_CALL_CALLER ? k->ncallers : k->ncallees;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(ss_strtab_get(&k->keys, e[i].name), name))
            return e[i].base;
    return 0;
}

/* A comparison's values of row r: the base's (ss_compare_calls joins them
 * by name) and the new profile's. */
static void get_call(const void *ctx, size_t r, int exact, double *b, double *v)
{
    const struct calls_ctx *x = ctx;
    const struct ss_edge *e = row_edge(&x->s, r);
    *b = e ? base_of(x->k, x->s.rows[r].rel, ss_function_name(x->s.m, e->function)) : x->k->total_b;
    *v = e ? e->time : x->s.c->total_v;
}
static const struct ss_units *calls_units(const void *ctx)
{
    return &((const struct calls_ctx *)ctx)->s.u;
}
static const struct ss_pair call_pair = {get_call, calls_units, NULL, 0};
static const struct ss_col call_cols[] = {
    SS_PAIR_COLS("base", 10, "new", 10, "delta", 11, 1, &call_pair),
};

/* In a comparison (--base): the base's value of each call, the new one and
 * the delta. */
static const struct ui_column ccolumns[] = {
    {"", 7, 0, &ss_call_columns[SS_CALL_REL]},
    UI_COL(&call_cols[0]),
    UI_COL(&call_cols[1]),
    UI_COL(&call_cols[2]),
    {NULL, 0, 0, &name_col},
};

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
        size_t k = 0;
        free(p->rows);
        p->rows = ss_alloc_array(p->c.ncallers + 1 + p->c.ncallees, sizeof *p->rows);
        if (!p->rows) {
            p->have = 0;
            ui_error(ui, "out of memory");
            return -1;
        }
        for (size_t i = 0; i < p->c.ncallers; i++)
            p->rows[k++] = (struct ss_calls_row){SS_CALL_CALLER, i};
        p->rows[k++] = (struct ss_calls_row){SS_CALL_MIDDLE, 0};
        for (size_t i = 0; i < p->c.ncallees; i++)
            p->rows[k++] = (struct ss_calls_row){SS_CALL_CALLEE, i};
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

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    struct calls_view *p = v->priv;
    const struct ss_stats *st = ui_stats_fn(ui);
    struct calls_ctx ctx = {{ui->m, &p->c, p->rows, st ? st->value_total : 0, {{0}, 0}},
                            p->have_cmp ? &p->k : NULL};
    ss_units_of(ui->m, &ctx.s.u);
    ui_table_cells(c, y, p->have_cmp ? ccolumns : columns, NCOLS, &ctx, row,
                   row == p->c.ncallers && style == UI_S_NORMAL ? UI_S_MARK : style, 0);
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
    struct ss_calls_ctx x = {ui->m, &p->c, p->rows, 0, {{0}, 0}};
    const struct ss_edge *e = row_edge(&x, r);
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
    free(p->rows);
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
