/* view_sandwich.c - the sandwich (stackscope(1), THE EXPLORER; issue
 * 12): one function F in the middle row, full width, its callers' graph
 * above it and its callees' graph below, as speedscope's sandwich and
 * pprof's peek show them; W from any view, on the current function.
 *
 * The callers' graph reads each stack that holds F from F's innermost
 * frame outward and is drawn upward (each caller above what it calls); the
 * callees' graph reads from F's outermost frame inward and is drawn as the
 * icicle (flame.h: ss_flame_build_focus).  Both are as wide as F's total.
 * v->list.sel numbers the callers' frames first, then the callees'; F
 * itself is the callees' root (the callers' root is the same frame and is
 * never selected).  k goes up (towards callers), j down (towards callees),
 * h/l along a row, Enter puts the selected frame's function in the middle,
 * q goes back; the trimming keys act on the selected frame's function.
 * Frames are drawn as the flame view draws them (view_flame.c's helpers).
 *
 * In a comparison (--base) each half is joined with the base's half by
 * paths of names (compare.h's ss_compare_flame_focus), and frames are
 * coloured by their delta as in the flame view, with the same legend; the
 * detail line gives the selected frame's base and delta and names what
 * it called (or, above, what called it) only in the base. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "compare.h"
#include "flame.h"
#include "vec.h"

#define NONE SS_FLAME_NONE

struct sandwich_view {
    unsigned gen, vgen; /* vgen: of the verdicts (ui_verdicts) */
    int built;
    char *fn; /* the function in the middle (owned), NULL for none */
    struct ss_flame up, down;
    int by_class;
    enum ss_flame_order order;
    int off;   /* rows the picture is shifted down (to show a deep selection) */
    int width; /* columns of the last draw */
    uint32_t *cell;
    int cell_w, cell_h, cell_y;
    /* a comparison: each frame's base total per half, what only the base
     * has under each half's frames, the largest |delta| (NULL otherwise) */
    double *bup, *bdown;
    struct ss_cmp_gone gup, gdown;
    struct ss_cmp_fverdicts vup, vdown; /* each half's verdicts (compare.h) */
    double max_delta;
};

static void free_base(struct sandwich_view *p)
{
    free(p->bup);
    free(p->bdown);
    p->bup = p->bdown = NULL;
    ss_cmp_gone_free(&p->gup);
    ss_cmp_gone_free(&p->gdown);
    ss_cmp_fverdicts_free(&p->vup);
    ss_cmp_fverdicts_free(&p->vdown);
    p->max_delta = 0;
}

/* The base of both halves (ui->bm set): 0, or -1 with the error shown. */
static int join_base(struct ui *ui, struct sandwich_view *p)
{
    struct ss_compare cmp;
    struct ss_error err;
    ss_error_clear(&err);
    ui_compare(ui, &cmp);
    p->bup = malloc((p->up.n ? p->up.n : 1) * sizeof *p->bup);
    p->bdown = malloc((p->down.n ? p->down.n : 1) * sizeof *p->bdown);
    if (!p->bup || !p->bdown) {
        free_base(p);
        ui_error(ui, "out of memory");
        return -1;
    }
    struct ss_flame_opts o = {1, 0, p->order};
    int rc = ss_compare_flame_focus(&cmp, &o, p->fn, &p->up, p->bup, &p->gup, &p->vup, &err);
    o.inverted = 0;
    if (!rc)
        rc =
            ss_compare_flame_focus(&cmp, &o, p->fn, &p->down, p->bdown, &p->gdown, &p->vdown, &err);
    if (rc) {
        free_base(p);
        ui_error(ui, "%s", err.msg);
        return -1;
    }
    for (int up = 0; up < 2; up++) {
        const struct ss_flame *g = up ? &p->up : &p->down;
        const double *b = up ? p->bup : p->bdown;
        for (size_t i = 0; i < g->n; i++) {
            double d = g->nodes[i].total - b[i];
            if ((d < 0 ? -d : d) > p->max_delta)
                p->max_delta = d < 0 ? -d : d;
        }
    }
    return 0;
}

static void sandwich_init(struct ui_view *v)
{
    struct sandwich_view *p = v->priv;
    p->order = SS_FLAME_BY_NAME;
}

static int same_name(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The graph and frame of list row r. */
static const struct ss_flame *sw_at(const struct sandwich_view *p, size_t r, uint32_t *i)
{
    if (r < p->up.n) {
        *i = (uint32_t)r;
        return &p->up;
    }
    *i = (uint32_t)(r - p->up.n);
    return &p->down;
}

static int sandwich_prepare(struct ui *ui, struct ui_view *v)
{
    struct sandwich_view *p = v->priv;
    const char *fn = ui_view_function(ui);
    int pend = p->vup.info.pending || p->vdown.info.pending;
    if (p->built && p->gen == ui->gen && (!pend || p->vgen == ui->verdicts.vgen) &&
        same_name(p->fn, fn)) {
        v->list.n = p->up.n + p->down.n;
        return 0;
    }
    int moved = !same_name(p->fn, fn);
    ss_flame_free(&p->up);
    ss_flame_free(&p->down);
    free_base(p);
    free(p->fn);
    p->fn = fn ? strdup(fn) : NULL;
    p->built = 1;
    p->gen = ui->gen;
    p->vgen = ui->verdicts.vgen;
    v->list.n = 0;
    ss_id f = fn ? ss_model_find_function(ui->m, fn) : SS_NONE;
    if (f == SS_NONE)
        return 0;
    double *sw = NULL;
    if (ui_flame_weights(ui, &sw, NULL))
        return -1;
    struct ss_error err;
    ss_error_clear(&err);
    struct ss_flame_opts o = {1, 0, p->order};
    int rc = ss_flame_build_focus(ui->m, sw, &o, f, &p->up, &err);
    o.inverted = 0;
    if (!rc)
        rc = ss_flame_build_focus(ui->m, sw, &o, f, &p->down, &err);
    free(sw);
    if (rc) {
        ss_flame_free(&p->up);
        ui_error(ui, "%s", err.msg);
        return -1;
    }
    if (ui->bm && join_base(ui, p)) {
        ss_flame_free(&p->up);
        ss_flame_free(&p->down);
        return -1;
    }
    v->list.n = p->up.n + p->down.n;
    if (moved || v->list.sel >= v->list.n || v->list.sel == 0)
        v->list.sel = p->up.n; /* F, the callees' root */
    if (moved)
        p->off = 0;
    return 0;
}

static void sandwich_title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    struct sandwich_view *p = v->priv;
    const char *fn = ui_view_function(ui);
    if (p && p->down.n)
        snprintf(buf, n, "%s: its callers above, its callees below", fn);
    else
        snprintf(buf, n, "%s", fn ? fn : "no function");
}

/* The screen row of frame i of the callers (up) or callees graph, the
 * middle row being mid. */
static int sw_row(const struct sandwich_view *p, int up, uint32_t i, int mid)
{
    int d = (int)(up ? p->up.nodes[i].depth : p->down.nodes[i].depth);
    return up ? mid - d + p->off : mid + d + p->off;
}

static void sandwich_draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct sandwich_view *p = v->priv;
    v->list.page = 1;
    char note[4200];
    if (!p->down.n) {
        ui_table_note(c, y, h,
                      p->fn && ss_model_find_function(ui->m, p->fn) != SS_NONE
                          ? ui_empty_note(ui)
                          : ui_function_note(p->fn, "select a function first (W on a function)",
                                             note, sizeof note));
        return;
    }
    const struct ss_model *m = ui->m;
    if (v->list.sel == 0 || v->list.sel >= v->list.n)
        v->list.sel = p->up.n;
    p->width = c->w;
    double total = p->down.total;
    char tv[64], info[1024], lg[160];
    ui_flame_value(ui, total, tv, sizeof tv);
    snprintf(info, sizeof info, "width: %s, %s is %s (%.1f%% of all) | %s",
             ss_model_measure_name(m), p->fn, tv,
             ui_pct(ui, total), /* ui_pct: the share of the whole profile */
             p->bdown ? ui_delta_legend(&p->vdown, lg, sizeof lg) : "Enter: to the middle, q back");
    ui_put_head(c, y, 0, c->w, info, UI_S_DIM);
    int fy = y + 1, rows = h - 2 > 1 ? h - 2 : 1;
    int mid = rows / 2;
    /* keep the selection on screen */
    uint32_t si;
    const struct ss_flame *sg = sw_at(p, v->list.sel, &si);
    int sr = sw_row(p, sg == &p->up, si, mid);
    if (sr < 0)
        p->off -= sr;
    if (sr >= rows)
        p->off -= sr - rows + 1;
    free(p->cell);
    p->cell = ss_alloc_array((size_t)c->w * (size_t)rows, sizeof *p->cell);
    if (!p->cell) {
        ui_error(ui, "out of memory");
        return;
    }
    p->cell_w = c->w;
    p->cell_h = rows;
    p->cell_y = fy;
    for (size_t q = 0; q < (size_t)c->w * (size_t)rows; q++)
        p->cell[q] = NONE;
    for (int up = 1; up >= 0; up--) {
        const struct ss_flame *g = up ? &p->up : &p->down;
        for (size_t i = up ? 1 : 0; i < g->n;) { /* the callers' root is the callees' */
            const struct ss_flame_node *nd = &g->nodes[i];
            double s0 = nd->x / total * c->w, s1 = (nd->x + nd->total) / total * c->w;
            int c0 = (int)(s0 + 0.5), c1 = (int)(s1 + 0.5);
            int r = sw_row(p, up, (uint32_t)i, mid);
            if (c1 <= c0 || (up ? r < 0 : r >= rows)) {
                i = nd->end; /* too narrow, or off screen with all below it */
                continue;
            }
            if (r >= 0 && r < rows) {
                size_t row = up ? i : p->up.n + i;
                const double *b = up ? p->bup : p->bdown;
                const struct ss_cmp_fverdicts *fv = up ? &p->vup : &p->vdown;
                int style =
                    row == v->list.sel ? UI_S_FRAMESEL
                    : b ? ui_delta_style(b[i], nd->total, p->max_delta, fv->v ? &fv->v[i] : NULL)
                    : i == 0 ? UI_S_MARK
                             : ui_flame_style(m, p->by_class, nd->function);
                if (style >= UI_S_FN0 && !p->by_class)
                    style = ui_flame_neighbour_style(c, fy + r, c0, fy, fy + rows, style);
                ui_flame_put_frame(c, fy + r, c0, c1 > c->w ? c->w : c1,
                                   ss_function_name(m, nd->function), style);
                for (int x = c0; x < c1 && x < c->w; x++)
                    p->cell[(size_t)r * (size_t)c->w + (size_t)x] = (uint32_t)row;
            }
            i++;
        }
    }
    /* the detail line: the selected frame */
    const struct ss_flame_node *nd = &sg->nodes[si];
    char tot[64], self[64], pos[1024], line[2048];
    ui_flame_value(ui, nd->total, tot, sizeof tot);
    ui_flame_value(ui, nd->self, self, sizeof self);
    ui_flame_position(m, nd, pos, sizeof pos);
    int k = snprintf(line, sizeof line, "%s %s (%.1f%% of %s's)",
                     sg == &p->up ? "calls it in" : "called in", tot,
                     total > 0 ? 100.0 * nd->total / total : 0, p->fn);
    if (sg == &p->down && k > 0 && (size_t)k < sizeof line)
        k += snprintf(line + k, sizeof line - (size_t)k, ", self %s", self);
    if (p->bdown && k > 0 && (size_t)k < sizeof line) {
        /* a comparison: the frame's base and delta, what only the base has */
        const double *b = sg == &p->up ? p->bup : p->bdown;
        const struct ss_cmp_fverdicts *fv = sg == &p->up ? &p->vup : &p->vdown;
        k += ui_flame_delta_text(ui, b[si], nd->total, fv->v ? &fv->v[si] : NULL,
                                 sg == &p->up ? &p->gup : &p->gdown, si, line + k,
                                 sizeof line - (size_t)k);
    } else if (pos[0] && k > 0 && (size_t)k < sizeof line) {
        k += snprintf(line + k, sizeof line - (size_t)k, ", %s", pos);
    }
    if (k > 0 && (size_t)k < sizeof line)
        snprintf(line + k, sizeof line - (size_t)k, " | ");
    int lw = ui_text_width(c, line);
    if (lw < c->w - 8) {
        ui_put(c, y + h - 1, 0, lw, line, UI_S_NORMAL);
        ui_put_fit(c, y + h - 1, lw, c->w - lw, ss_function_name(m, nd->function), UI_S_MARK, 0);
    } else {
        ui_put_head(c, y + h - 1, 0, c->w, line, UI_S_NORMAL);
    }
}

/* The next (dir > 0) or previous showing frame on frame i's row of graph g. */
static uint32_t sw_neighbour(const struct sandwich_view *p, const struct ss_flame *g, uint32_t i,
                             int dir)
{
    uint32_t d = g->nodes[i].depth, found = NONE;
    int cols = p->width > 0 ? p->width : 80;
    double total = g->total;
    size_t a = dir > 0 ? g->nodes[i].end : 0, b = dir > 0 ? g->n : i;
    for (size_t k = a; k < b;) {
        const struct ss_flame_node *nd = &g->nodes[k];
        int c0 = (int)(nd->x / total * cols + 0.5),
            c1 = (int)((nd->x + nd->total) / total * cols + 0.5);
        if (c1 <= c0 || nd->depth > d) {
            k = nd->end;
        } else if (nd->depth == d) {
            if (dir > 0)
                return (uint32_t)k;
            found = (uint32_t)k;
            k = nd->end;
        } else {
            k++;
        }
    }
    return found;
}

static int sandwich_request(struct ui *ui, struct ui_view *v, enum ui_request req,
                            const struct ui_event *ev)
{
    struct sandwich_view *p = v->priv;
    if (!p || !p->built || !p->down.n)
        return UI_UNHANDLED;
    uint32_t i, u;
    const struct ss_flame *g = sw_at(p, v->list.sel, &i);
    int up = g == &p->up;
    size_t base = up ? 0 : p->up.n;
    switch (req) {
    case UI_REQ_NONE:
        if (ev && ev->key == UI_K_MOUSE && p->cell) {
            int r = ev->y - p->cell_y;
            if (r < 0 || r >= p->cell_h || ev->x < 0 || ev->x >= p->cell_w)
                return UI_UNHANDLED;
            u = p->cell[(size_t)r * (size_t)p->cell_w + (size_t)ev->x];
            if (u != NONE)
                v->list.sel = u;
            if (u != NONE && ev->button == UI_B_DOUBLE)
                return sandwich_request(ui, v, UI_REQ_FL_ZOOM, NULL);
            return UI_HANDLED;
        }
        return UI_UNHANDLED;
    case UI_REQ_FL_LEFT:
    case UI_REQ_FL_RIGHT:
        u = sw_neighbour(p, g, i, req == UI_REQ_FL_RIGHT ? 1 : -1);
        if (u != NONE && !(up && u == 0))
            v->list.sel = base + u;
        return UI_HANDLED;
    case UI_REQ_FL_UP: /* towards the callers */
        if (up) {
            u = ui_flame_widest_child(&p->up, i);
            if (u != NONE)
                v->list.sel = u;
        } else if (p->down.nodes[i].parent != NONE) {
            v->list.sel = p->up.n + p->down.nodes[i].parent;
        } else if (p->up.n && (u = ui_flame_widest_child(&p->up, 0)) != NONE) {
            v->list.sel = u;
        }
        return UI_HANDLED;
    case UI_REQ_FL_DOWN: /* towards the callees */
        if (!up) {
            u = ui_flame_widest_child(&p->down, i);
            if (u != NONE)
                v->list.sel = p->up.n + u;
        } else {
            u = p->up.nodes[i].parent;
            v->list.sel = u == 0 || u == NONE ? p->up.n : u;
        }
        return UI_HANDLED;
    case UI_REQ_FL_ZOOM: {
        const char *fn = ss_function_name(ui->m, g->nodes[i].function);
        ui_set_function(ui, fn);
        ui_open_view(ui, UI_V_SANDWICH, fn);
        return UI_HANDLED;
    }
    case UI_REQ_FL_ORDER:
    case UI_REQ_SORT_NEXT:
    case UI_REQ_SORT_REVERSE:
        p->order = p->order == SS_FLAME_BY_NAME ? SS_FLAME_BY_WEIGHT : SS_FLAME_BY_NAME;
        p->built = 0;
        ui_message(ui, "children %s", p->order == SS_FLAME_BY_NAME ? "by name" : "by weight");
        return UI_HANDLED;
    case UI_REQ_FL_COLOURS:
        p->by_class = !p->by_class;
        ui_message(ui, "colours by %s", p->by_class ? "class" : "function");
        return UI_HANDLED;
    default:
        return UI_UNHANDLED;
    }
}

static const char *sandwich_row_function(struct ui *ui, struct ui_view *v, size_t r)
{
    struct sandwich_view *p = v->priv;
    if (!p || !p->built || p->gen != ui->gen || r >= p->up.n + p->down.n)
        return NULL;
    uint32_t i;
    const struct ss_flame *g = sw_at(p, r, &i);
    return ss_function_name(ui->m, g->nodes[i].function);
}

static const char *sandwich_row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf,
                                     size_t n)
{
    (void)buf, (void)n;
    return sandwich_row_function(ui, v, r);
}

static void sandwich_free(struct ui_view *v)
{
    struct sandwich_view *p = v->priv;
    ss_flame_free(&p->up);
    ss_flame_free(&p->down);
    free_base(p);
    free(p->fn);
    free(p->cell);
}

const struct ui_view_ops ui_view_sandwich = {
    .name = "sandwich",
    .flags = UI_VF_NO_FILTER,
    .priv_size = sizeof(struct sandwich_view),
    .init = sandwich_init,
    .prepare = sandwich_prepare,
    .title = sandwich_title,
    .draw = sandwich_draw,
    .request = sandwich_request,
    .row_text = sandwich_row_text,
    .row_function = sandwich_row_function,
    .free = sandwich_free,
};
