/* view_stacks.c - the distinct stacks (`report --by stacks`): reference
 * count, time, share and depth of each, root first.  Enter opens one stack
 * to show its frames, one per row with its level; there, `m` marks a frame
 * and `R` replaces the frames from the mark to the selection by one new
 * frame (the `replace` transform, with the new name typed at the prompt). */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "report.h"
#include "vec.h"

enum { SORT_COUNT, SORT_DEPTH, SORT_TEXT, NSORTS };
static const char *const sort_names[NSORTS] = {"samples", "depth", "names (root first)"};
static const int sort_column[NSORTS] = {0, 3, 4};

static const struct ui_column columns[] = {
    {NULL, 8, 1, &ss_stack_columns[SS_STACK_COUNT]},
    {"time", 9, 1, &ss_stack_columns[SS_STACK_VALUE]},
    UI_COL(&ss_stack_columns[SS_STACK_PCT]),
    {NULL, 5, 1, &ss_stack_columns[SS_STACK_DEPTH]},
    {NULL, UI_COL_CORE, 2, &ss_stack_columns[SS_STACK_TEXT]},
};
#define NCOLS ARRAY_SIZE(columns)

/* The columns' context: report's, and in a comparison each row's base
 * value (the same names root first) and verdict (verdict.h). */
struct stacks_ctx {
    struct ss_stacks_ctx s;
    const double *base;
    const struct ss_verdict *ver;
};
static void get_base_new(const void *ctx, size_t r, int exact, double *b, double *v)
{
    const struct stacks_ctx *x = ctx;
    *b = x->base[r];
    *v = x->s.st->rows[r].value;
}
static const struct ss_units *stacks_units(const void *ctx)
{
    return &((const struct stacks_ctx *)ctx)->s.u;
}
static const struct ss_pair base_new = {get_base_new, stacks_units, NULL, 0};
static const struct ss_verdict *ver_of(const void *ctx, size_t r)
{
    return &((const struct stacks_ctx *)ctx)->ver[r];
}
SS_VERDICT_MARK_CELLS(vst, ver_of, stacks_units)
static const struct ss_col base_new_cols[] = {
    SS_PAIR_COLS("base", 9, "new", 9, "delta", 10, 1, &base_new),
    SS_VERDICT_MARK_COL(vst),
};

/* In a comparison (--base): each stack's value in the base, the new value,
 * the delta and its verdict. */
static const struct ui_column ccolumns[] = {
    UI_COL(&base_new_cols[0]),
    UI_COL(&base_new_cols[1]),
    UI_COL(&base_new_cols[2]),
    UI_COL(&base_new_cols[3]),
    {NULL, 5, 1, &ss_stack_columns[SS_STACK_DEPTH]},
    {NULL, UI_COL_CORE, 2, &ss_stack_columns[SS_STACK_TEXT]},
};
#define NCCOLS ARRAY_SIZE(ccolumns)

struct stacks_view {
    unsigned gen, vgen; /* vgen: of the verdicts (ui_verdicts) */
    int vpend;          /* its verdicts were pending (made again when they come) */
    int sort, rev;
    uint32_t *order; /* rows of the stacks table in display order */
    size_t n;
    long open;              /* position in `order` of the open stack, or -1 */
    long mark;              /* marked frame (0 = root) of the open stack, or -1 */
    struct ss_cellbuf text; /* scratch for a stack's text */
    double *base;           /* a comparison: per row of the stacks table, its base value */
    struct ss_verdict *ver; /* and its verdict */
};

/* Nothing open or marked yet. */
static void view_init(struct ui_view *v)
{
    struct stacks_view *p = v->priv;
    p->open = p->mark = -1;
}

/* The text of stacks row r, root first, ";"-joined (borrowed scratch). */
static const char *stack_text(struct ui *ui, struct stacks_view *p, const struct ss_stacks *st,
                              const struct ss_stack_row *r)
{
    return ss_stack_row_text(ui->m, st, r, &p->text);
}

/* The columns' context for the current model. */
static struct stacks_ctx cells_ctx(struct ui *ui, struct stacks_view *p, const struct ss_stacks *st)
{
    struct stacks_ctx x = {{ui->m, st, &p->text, {{0}, 0}}, p->base, p->ver};
    ss_units_of(ui->m, &x.s.u);
    return x;
}

/* Rows: the stacks, with the open stack's frames after it. */
static void locate(const struct stacks_view *p, const struct ss_stacks *st, size_t row, size_t *k,
                   long *frame)
{
    if (p->open < 0 || row <= (size_t)p->open) {
        *k = row;
        *frame = -1;
        return;
    }
    uint32_t depth = st->rows[p->order[p->open]].depth;
    if (row <= (size_t)p->open + depth) {
        *k = (size_t)p->open;
        *frame = (long)(row - (size_t)p->open - 1);
        return;
    }
    *k = row - depth;
    *frame = -1;
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct stacks_view *p = v->priv;
    const struct ss_stacks *st = ui_stacks(ui);
    if (!p || !st)
        return -1;
    if (p->gen != ui->gen || (p->vpend && p->vgen != ui->verdicts.vgen) || p->sort != v->sort ||
        p->rev != v->sort_rev) {
        struct stacks_ctx ctx = cells_ctx(ui, p, st);
        if (ui_table_sort(&p->order, st->n, v->sort_rev, &columns[sort_column[v->sort]], &ctx)) {
            ui_error(ui, "out of memory");
            return -1;
        }
        p->open = p->mark = -1; /* row positions changed */
        free(p->base);
        free(p->ver);
        p->base = NULL;
        p->ver = NULL;
        p->vpend = 0;
        if (ui->bm) {
            /* the base's value of each stack, joined by its text */
            struct ss_compare cmp;
            struct ss_cmp_stacks ks;
            struct ss_error err;
            ss_error_clear(&err);
            ui_compare(ui, &cmp);
            p->base = calloc(st->n ? st->n : 1, sizeof *p->base);
            p->ver = calloc(st->n ? st->n : 1, sizeof *p->ver);
            if (!p->base || !p->ver || ss_compare_stacks(&cmp, &ks, &err)) {
                ui_error(ui, "%s", err.msg[0] ? err.msg : "out of memory");
                free(p->base);
                free(p->ver);
                p->base = NULL;
                p->ver = NULL;
                return -1;
            }
            size_t *by_key = calloc(ks.n ? ks.n : 1, sizeof *by_key);
            for (size_t i = 0; by_key && i < ks.n; i++)
                by_key[ks.rows[i].key] = i;
            for (size_t i = 0; by_key && i < st->n; i++) {
                const char *t = stack_text(ui, p, st, &st->rows[i]);
                ss_id k = ss_strtab_find(&ks.keys, t, strlen(t));
                int have = k != SS_NONE && k < ks.n;
                p->base[i] = have ? ks.rows[by_key[k]].base : 0;
                if (have)
                    p->ver[i] = ks.rows[by_key[k]].v;
            }
            free(by_key);
            p->vpend = ks.vinfo.pending;
            ss_cmp_stacks_free(&ks);
        }
        p->gen = ui->gen;
        p->vgen = ui->verdicts.vgen;
        p->sort = v->sort;
        p->rev = v->sort_rev;
        p->n = st->n;
    }
    v->list.n = p->n + (p->open >= 0 ? st->rows[p->order[p->open]].depth : 0);
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    struct stacks_view *p = v->priv;
    snprintf(buf, n, "%zu distinct by %s%s; Enter: frames", p ? p->n : 0, sort_names[v->sort],
             v->sort_rev ? " (reversed)" : "");
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    struct stacks_view *p = v->priv;
    const struct ss_stacks *st = ui_stacks(ui);
    size_t k;
    long frame;
    locate(p, st, row, &k, &frame);
    const struct ss_stack_row *r = &st->rows[p->order[k]];
    char b[4][32];
    if (frame >= 0) {
        ss_id fn = st->fns[r->first + (size_t)frame];
        int marked = p->mark >= 0 && (frame == p->mark);
        snprintf(b[0], sizeof b[0], "%s", marked ? "mark>" : "");
        snprintf(b[1], sizeof b[1], "level");
        snprintf(b[2], sizeof b[2], "%ld", frame + 1);
        const char *cells[NCOLS] = {b[0], NULL, b[1], b[2], ss_function_name(ui->m, fn)};
        ui_table_row(c, y, columns, NCOLS, cells, style == UI_S_NORMAL ? UI_S_DIM : style, 2);
        if (marked && style == UI_S_NORMAL)
            ui_canvas_style(c, y, 0, 8, UI_S_MARK, 0);
        return;
    }
    struct stacks_ctx ctx = cells_ctx(ui, p, st);
    if (p->base && style == UI_S_NORMAL && p->ver[p->order[k]].sign)
        style = p->ver[p->order[k]].sign > 0 ? UI_S_GREW2 : UI_S_SHRANK2;
    ui_table_cells(c, y, p->base ? ccolumns : columns, p->base ? NCCOLS : NCOLS, &ctx, p->order[k],
                   style, 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct stacks_view *p = v->priv;
    ui_table_draw(ui, v, c, y, h, p && p->base ? ccolumns : columns, p && p->base ? NCCOLS : NCOLS,
                  p && p->base ? -1 : sort_column[v->sort], v->sort_rev,
                  v->list.n ? NULL : ui_empty_note(ui), draw_row);
}

static void replace_frames(struct ui *ui, struct ui_view *v, struct stacks_view *p,
                           const struct ss_stacks *st)
{
    size_t k;
    long frame;
    locate(p, st, v->list.sel, &k, &frame);
    if (frame < 0) {
        ui_error(ui, "R: open a stack (Enter), mark its first frame (m), select the last, R");
        return;
    }
    long a = p->mark >= 0 ? p->mark : frame, b = frame;
    if (a > b) {
        long t = a;
        a = b;
        b = t;
    }
    const struct ss_stack_row *r = &st->rows[p->order[k]];
    char cmd[sizeof ui->prompt.buf] = "replace";
    size_t len = strlen(cmd);
    for (long i = a; i <= b; i++) {
        char q[sizeof ui->prompt.buf];
        ui_quote_name(ss_function_name(ui->m, st->fns[r->first + (size_t)i]), q, sizeof q);
        if (len + strlen(q) + 6 >= sizeof cmd) {
            ui_error(ui, "R: too many or too long names for the prompt; type :replace yourself");
            return;
        }
        len += (size_t)snprintf(cmd + len, sizeof cmd - len, " %s", q);
    }
    snprintf(cmd + len, sizeof cmd - len, " => ");
    ui_prompt_start(ui, ':', cmd);
    ui_message(ui, "type the new frame's name and Enter");
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    struct stacks_view *p = v->priv;
    const struct ss_stacks *st = ui_stacks(ui);
    if (!p || !st)
        return UI_UNHANDLED;
    if (ui_table_sort_click(ui, v, ev, columns, NCOLS, sort_column, NSORTS, sort_names) ==
        UI_HANDLED)
        return UI_HANDLED;
    switch (req) {
    case UI_REQ_SORT_NEXT:
    case UI_REQ_SORT_REVERSE:
        return ui_sort_request(ui, v, req, sort_names, NSORTS);
    case UI_REQ_STACK_TOGGLE: {
        if (v->list.n == 0)
            return UI_HANDLED;
        size_t k;
        long frame;
        locate(p, st, v->list.sel, &k, &frame);
        if (p->open == (long)k) {
            p->open = p->mark = -1;
            v->list.sel = k;
        } else {
            p->open = (long)k;
            p->mark = -1;
            v->list.sel = k;
        }
        prepare(ui, v);
        ui_list_fit(&v->list);
        return UI_HANDLED;
    }
    case UI_REQ_STACK_MARK: {
        size_t k;
        long frame;
        locate(p, st, v->list.sel, &k, &frame);
        if (frame < 0) {
            ui_error(ui, "m marks a frame: open a stack with Enter first");
        } else {
            p->mark = p->mark == frame ? -1 : frame;
            ui_message(ui, p->mark >= 0 ? "frame marked: select the last frame, then R"
                                        : "mark cleared");
        }
        return UI_HANDLED;
    }
    case UI_REQ_STACK_REPLACE:
        replace_frames(ui, v, p, st);
        return UI_HANDLED;
    default:
        return UI_UNHANDLED;
    }
}

/* The stack of list row `row` and, for a frame row, the frame's function
 * (else NULL) in *frame_fn. */
static const struct ss_stack_row *stack_at(struct ui *ui, const struct stacks_view *p,
                                           const struct ss_stacks *st, size_t row,
                                           const char **frame_fn)
{
    size_t k;
    long frame;
    locate(p, st, row, &k, &frame);
    const struct ss_stack_row *r = &st->rows[p->order[k]];
    *frame_fn = frame >= 0 ? ss_function_name(ui->m, st->fns[r->first + (size_t)frame]) : NULL;
    return r;
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t row, char *buf, size_t n)
{
    struct stacks_view *p = v->priv;
    const struct ss_stacks *st = ui_stacks(ui);
    if (!p || !st)
        return NULL;
    const char *fn;
    const struct ss_stack_row *r = stack_at(ui, p, st, row, &fn);
    return fn ? fn : stack_text(ui, p, st, r);
}

/* A frame row: its function; a stack row: its leaf. */
static const char *row_function(struct ui *ui, struct ui_view *v, size_t row)
{
    struct stacks_view *p = v->priv;
    const struct ss_stacks *st = ui_stacks(ui);
    if (!p || !st || row >= v->list.n)
        return NULL;
    const char *fn;
    const struct ss_stack_row *r = stack_at(ui, p, st, row, &fn);
    return fn ? fn : r->depth ? ss_function_name(ui->m, r->leaf) : NULL;
}

static uint32_t row_level(struct ui *ui, struct ui_view *v, size_t row)
{
    struct stacks_view *p = v->priv;
    const struct ss_stacks *st = ui_stacks(ui);
    if (!p || !st)
        return 0;
    size_t k;
    long frame;
    locate(p, st, row, &k, &frame);
    return frame >= 0 ? (uint32_t)frame + 1 : 0;
}

static void view_free(struct ui_view *v)
{
    struct stacks_view *p = v->priv;
    free(p->order);
    ss_cellbuf_free(&p->text);
    free(p->base);
    free(p->ver);
}

const struct ui_view_ops ui_view_stacks = {
    .name = "stacks",
    .priv_size = sizeof(struct stacks_view),
    .init = view_init,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .row_function = row_function,
    .row_level = row_level,
    .free = view_free,
};
