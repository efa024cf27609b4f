/* view_flame.c - the flame graph (stackscope(1), THE EXPLORER): an icicle of
 * the stacks, root on top, each frame as wide as its share of the measure, its
 * name inside (abbreviated in the middle when narrow).  The selection is a
 * frame: h/l move along its row, k to its parent, j to its widest child;
 * Enter zooms (the frame fills the width, its ancestors stay above as a
 * breadcrumb), q or Backspace zooms out a level, z to the whole graph.  `/`
 * selects the widest matching frame and highlights every match; the info
 * line gives the matched share (nested matches counted once).  s orders
 * children by name or by weight, i inverts (leaves as roots), o shows the
 * flame chart (samples in time order, not merged), C colours by class.
 * The trimming keys act on the selected frame's function, as everywhere.
 *
 * `:w F.svg` writes the SVG picture with this view's options (inverted,
 * time order, order of children).
 *
 * The sandwich view (view_sandwich.c) draws two such graphs around one
 * function with the helpers app.h declares under view_flame.c.
 *
 * The graph is the core's (flame.h), built when the model or the options
 * change; a draw visits only the frames wide enough to show (a narrower
 * frame's subtree is skipped whole), so it costs what is on screen.  The
 * selection and the zoom are kept across rebuilds as function paths. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "flame.h"
#include "flame_index.h"
#include "hash.h"
#include "sort.h"
#include "write.h"
#include "vec.h"

#define NONE SS_FLAME_NONE

/* A frame by where it is: its depth and the middle of its span.  The
 * chart is rebuilt for every zoom, which renumbers its frames; a position
 * finds the same frame again (ss_flame_at), and an aggregated graph's too. */
struct fpos {
    uint32_t depth; /* UINT32_MAX: no frame (the whole graph) */
    double mid;
};

struct flame_view {
    unsigned gen, vgen; /* the model the graph belongs to, its verdicts */
    int built;
    struct ss_flame fl;
    struct ss_flame_opts opts; /* what the user chose */
    int by_class;              /* colours by class, not by function */
    uint32_t zoom;             /* the zoomed frame, NONE for the whole graph */
    uint32_t top;              /* first frame row shown, counted from the zoom's depth */
    struct fpos zhist[64];     /* the zooms before this one (q goes back; a rebuild clears) */
    int nzhist;
    /* the chart is built at the screen's resolution (flame.h's grid): for
     * the zoom's span (grid_w 0: the whole chart) and the width it was
     * drawn at; a zoom or a resize rebuilds it */
    double grid_x0, grid_w;
    int grid_cols;
    /* the index of the chart's samples (the model ix_gen's measure) for
     * each direction (not inverted, inverted; NULL: not made yet or not
     * possible), so that a chart, a zoom and a search cost what they draw
     * (flame_index.h); kept across the icicle, made again for a new model */
    struct ss_flame_index *ix[2];
    int ix_tried[2];
    unsigned ix_gen;
    double *pw;      /* without an index: the samples' weights for the chart */
    unsigned pw_gen; /* (model pw_gen), kept: every zoom and search reads them */
    size_t nframes;  /* the graph's frames (a zoomed chart's build does not count them) */
    /* the search: the pattern, how the generic search matches, the frames
     * that match inside the zoom and the matched weights */
    char pat[256];
    int (*matchfn)(struct ui *ui, const char *text, const char *pat);
    uint8_t *match; /* per frame, NULL without a search */
    size_t nmatch;  /* matching frames in the zoom (the chart: those made) */
    double hit_zoom, hit_all;
    /* the last draw: the frame under each cell of the frame rows (mouse) */
    uint32_t *cell;
    int cell_w, cell_h, cell_y;
    int width; /* columns of the last draw (h/l skip frames too narrow) */
    /* the selection and the zoom as function paths, across rebuilds */
    ss_id *sel_path, *zoom_path;
    size_t nsel_path, nzoom_path;
    int have_paths;
    /* a comparison (--base): each frame's base total, and the largest
     * |delta| of the graph (colours by delta); NULL otherwise */
    double *base;
    double max_delta;
    struct ss_cmp_gone gone;    /* the base's frames the new graph lacks */
    struct ss_cmp_fverdicts fv; /* each frame's verdict (fv.v NULL: none) */
};

static void view_init(struct ui_view *v)
{
    struct flame_view *p = v->priv;
    p->zoom = NONE;
    p->opts.order = SS_FLAME_BY_NAME;
}

/* ---- building ------------------------------------------------------------- */

/* The weights of the graph: the model's chosen measure. */
int ui_flame_weights(struct ui *ui, double **sw, double **pw)
{
    struct ss_error err;
    ss_error_clear(&err);
    if (ss_flame_measure_weights(ui->m, sw, pw, &err)) {
        ui_error(ui, "%s", err.msg);
        return -1;
    }
    return 0;
}

/* The functions on the path from the root to frame i (malloc'd, *n). */
static ss_id *path_of(const struct ss_flame *fl, uint32_t i, size_t *n)
{
    *n = 0;
    if (i == NONE || i >= fl->n)
        return NULL;
    size_t d = fl->nodes[i].depth + 1;
    ss_id *path = ss_alloc_array(d, sizeof *path);
    if (!path)
        return NULL;
    for (uint32_t k = i; k != NONE; k = fl->nodes[k].parent)
        path[fl->nodes[k].depth] = fl->nodes[k].function;
    *n = d;
    return path;
}

/* The frame at the end of the longest prefix of path[0..n) found (the
 * widest of equal siblings), NONE when not even the root is; *len gets the
 * prefix's length. */
static uint32_t find_path(const struct ss_flame *fl, const ss_id *path, size_t n, size_t *len)
{
    uint32_t at = NONE;
    size_t a = 0, b = fl->n;
    *len = 0;
    for (size_t k = 0; k < n; k++) {
        uint32_t best = NONE;
        for (size_t i = a; i < b; i = fl->nodes[i].end)
            if (fl->nodes[i].function == path[k] &&
                (best == NONE || fl->nodes[i].total > fl->nodes[best].total))
                best = (uint32_t)i;
        if (best == NONE)
            break;
        at = best;
        *len = k + 1;
        a = best + 1;
        b = fl->nodes[best].end;
    }
    return at;
}

static void save_paths(struct ui_view *v, struct flame_view *p)
{
    if (!p->built || p->fl.n == 0)
        return;
    free(p->sel_path);
    free(p->zoom_path);
    p->sel_path = path_of(&p->fl, v->list.sel < p->fl.n ? (uint32_t)v->list.sel : 0, &p->nsel_path);
    p->zoom_path = path_of(&p->fl, p->zoom, &p->nzoom_path);
    p->have_paths = 1;
}

/* The widest frame of function f (canonical), NONE when it has none. */
static uint32_t widest_of(const struct ss_flame *fl, ss_id f)
{
    uint32_t best = NONE;
    for (size_t i = 0; i < fl->n; i++)
        if (fl->nodes[i].function == f &&
            (best == NONE || fl->nodes[i].total > fl->nodes[best].total))
            best = (uint32_t)i;
    return best;
}

static void drop_index(struct flame_view *p)
{
    for (int d = 0; d < 2; d++) {
        ss_flame_index_free(p->ix[d]);
        p->ix[d] = NULL;
        p->ix_tried[d] = 0;
    }
}

/* The weights of the chart's samples when it has no index (borrowed; NULL
 * after an error). */
static const double *chart_weights(struct ui *ui, struct flame_view *p)
{
    if (p->pw && p->pw_gen == ui->gen)
        return p->pw;
    free(p->pw);
    p->pw = NULL;
    if (ui_flame_weights(ui, NULL, &p->pw))
        return NULL;
    p->pw_gen = ui->gen;
    return p->pw;
}

/* The index of the chart's samples in the view's direction (borrowed;
 * NULL when there is none: the chart is then built from every sample). */
static const struct ss_flame_index *chart_index(struct ui *ui, struct flame_view *p)
{
    int d = p->opts.inverted != 0;
    if (p->ix_gen != ui->gen) {
        drop_index(p);
        p->ix_gen = ui->gen;
    }
    if (!p->ix_tried[d]) {
        struct ss_error err;
        ss_error_clear(&err);
        p->ix_tried[d] = 1;
        if (ss_flame_index_build(ui->m, NULL, d, &p->ix[d], &err))
            ui_error(ui, "%s", err.msg);
    }
    return p->ix[d];
}

/* Mark the matches of the search inside the zoom (and the shares). */
static void run_search(struct ui *ui, struct flame_view *p)
{
    free(p->match);
    p->match = NULL;
    p->nmatch = 0;
    p->hit_zoom = p->hit_all = 0;
    const struct ss_model *m = ui->m;
    if (!p->pat[0] || !p->matchfn || p->fl.n == 0)
        return;
    uint8_t *fm = malloc(m->functions.n ? m->functions.n : 1);
    p->match = malloc(p->fl.n);
    if (!fm || !p->match) {
        free(fm);
        free(p->match);
        p->match = NULL;
        ui_error(ui, "out of memory (search)");
        return;
    }
    for (size_t f = 0; f < m->functions.n; f++)
        fm[f] = p->matchfn(ui, ss_function_name(m, (ss_id)f), p->pat) != 0;
    p->hit_all = ss_flame_search(m, &p->fl, NONE, fm, NULL, NULL, NULL);
    p->hit_zoom = ss_flame_search(m, &p->fl, p->zoom, fm, p->match, &p->nmatch, NULL);
    if (p->opts.time_order) {
        /* the chart left out the frames too narrow to draw: the shares
         * come from the samples */
        struct ss_error err;
        ss_error_clear(&err);
        const struct ss_flame_node *z = p->zoom == NONE ? NULL : &p->fl.nodes[p->zoom];
        const struct ss_flame_index *ix = chart_index(ui, p);
        const double *pw = ix ? NULL : chart_weights(ui, p);
        int rc = ix || pw ? 0 : -1;
        if (!rc && ix)
            rc = ss_flame_index_search(m, ix, fm, 0, p->fl.total, 0, &p->hit_all, &err);
        else if (!rc)
            rc = ss_flame_chart_search(m, pw, p->opts.inverted, fm, 0, p->fl.total, 0, &p->hit_all,
                                       &err);
        p->hit_zoom = p->hit_all;
        if (!rc && z && ix)
            rc = ss_flame_index_search(m, ix, fm, z->x, z->total, z->depth, &p->hit_zoom, &err);
        else if (!rc && z)
            rc = ss_flame_chart_search(m, pw, p->opts.inverted, fm, z->x, z->total, z->depth,
                                       &p->hit_zoom, &err);
        if (rc && err.msg[0])
            ui_error(ui, "%s", err.msg);
    }
    free(fm);
}

static struct fpos pos_of(const struct ss_flame *fl, uint32_t i)
{
    struct fpos f = {UINT32_MAX, 0};
    if (i != NONE && i < fl->n) {
        f.depth = fl->nodes[i].depth;
        f.mid = fl->nodes[i].x + fl->nodes[i].total / 2;
    }
    return f;
}

static uint32_t at_pos(const struct ss_flame *fl, struct fpos f)
{
    return f.depth == UINT32_MAX ? NONE : ss_flame_at(fl, NONE, f.depth, f.mid);
}

/* The columns the chart is built for: the screen's (80 before the first
 * draw). */
static int screen_cols(const struct ui *ui)
{
    return ui->canvas.w > 0 ? ui->canvas.w : 80;
}

/* Build the graph (the chart at the resolution of the zoom's span, zx and
 * zw, on the screen).  0 or -1 with the error shown. */
static int build(struct ui *ui, struct flame_view *p, double zx, double zw,
                 const struct ss_flame_node *path, size_t npath)
{
    ss_flame_free(&p->fl);
    p->built = 0;
    double *sw = NULL;
    const double *pw = NULL;
    const struct ss_flame_index *ix = p->opts.time_order ? chart_index(ui, p) : NULL;
    if (!p->opts.time_order || ix) { /* 8 bytes a sample: kept only for the chart */
        free(p->pw);
        p->pw = NULL;
    }
    if (p->opts.time_order ? !ix && !(pw = chart_weights(ui, p))
                           : ui_flame_weights(ui, &sw, NULL) != 0)
        return -1;
    struct ss_error err;
    ss_error_clear(&err);
    struct ss_flame_grid grid = {zx, zw, (size_t)screen_cols(ui), path, npath, ix};
    int rc = ss_flame_build_grid(ui->m, sw, pw, &p->opts, &grid, &p->fl, &err);
    free(sw);
    if (rc) {
        ui_error(ui, "%s", err.msg);
        return -1;
    }
    if (!npath)
        p->nframes = p->fl.nframes; /* a zoom's path build does not count them */
    p->grid_x0 = zx;
    p->grid_w = zw;
    p->grid_cols = screen_cols(ui);
    return 0;
}

/* The chart again for a new zoom or width: the same model, so the zoom,
 * the selection and the zooms before are found again by position. */
static int rechart(struct ui *ui, struct ui_view *v, struct flame_view *p)
{
    struct fpos zp = pos_of(&p->fl, p->zoom);
    struct fpos sp = pos_of(&p->fl, v->list.sel < p->fl.n ? (uint32_t)v->list.sel : NONE);
    /* zoomed: the zoom and its ancestors as they are, and only the
     * zoom's samples read again */
    struct ss_flame_node *path = NULL;
    size_t np = 0;
    double zx = 0, zw = 0;
    if (p->zoom != NONE) {
        const struct ss_flame_node *z = &p->fl.nodes[p->zoom];
        zx = z->x;
        zw = z->total;
        np = z->depth + 1;
        path = ss_alloc_array(np, sizeof *path);
        for (uint32_t i = p->zoom; path && i != NONE; i = p->fl.nodes[i].parent)
            path[p->fl.nodes[i].depth] = p->fl.nodes[i];
        if (!path)
            np = 0; /* read every sample then */
    }
    int rc = build(ui, p, zx, zw, path, np);
    free(path);
    if (rc)
        return -1;
    p->built = 1;
    p->zoom = at_pos(&p->fl, zp);
    uint32_t sel = NONE;
    /* the selected frame, else its nearest ancestor that was made */
    for (; sel == NONE && sp.depth != UINT32_MAX; sp.depth = sp.depth ? sp.depth - 1 : UINT32_MAX)
        sel = at_pos(&p->fl, sp);
    if (sel == NONE || (p->zoom != NONE && (sel < p->zoom || sel >= p->fl.nodes[p->zoom].end)))
        sel = p->zoom == NONE ? 0 : p->zoom;
    v->list.n = p->fl.n;
    v->list.sel = sel;
    run_search(ui, p);
    return 0;
}

/* Is the chart built for another span or width than the screen's? */
static int chart_stale(const struct ui *ui, const struct flame_view *p)
{
    if (!p->opts.time_order)
        return 0;
    double zx = 0, zw = 0;
    if (p->zoom != NONE && p->zoom < p->fl.n) {
        zx = p->fl.nodes[p->zoom].x;
        zw = p->fl.nodes[p->zoom].total;
    }
    /* exactly the same doubles: a rebuild gives each frame the same x and total */
    return zx < p->grid_x0 || zx > p->grid_x0 || zw < p->grid_w || zw > p->grid_w ||
           screen_cols(ui) != p->grid_cols;
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct flame_view *p = v->priv;
    if (p->built && p->gen == ui->gen && (!p->fv.info.pending || p->vgen == ui->verdicts.vgen)) {
        if (chart_stale(ui, p))
            return rechart(ui, v, p);
        v->list.n = p->fl.n;
        return 0;
    }
    save_paths(v, p);
    if (build(ui, p, 0, 0, NULL, 0))
        return -1;
    struct ss_error err;
    ss_error_clear(&err);
    free(p->base);
    p->base = NULL;
    ss_cmp_gone_free(&p->gone);
    ss_cmp_fverdicts_free(&p->fv);
    if (ui->bm && !p->opts.time_order) {
        /* colours by delta against the same paths in the base */
        struct ss_compare cmp;
        ui_compare(ui, &cmp);
        p->base = malloc((p->fl.n ? p->fl.n : 1) * sizeof *p->base);
        int bad = !p->base ? 1
                  : ss_compare_flame_gone(&cmp, &p->opts, &p->fl, p->base, &p->gone, &p->fv, &err)
                      ? 2
                      : 0;
        if (bad) {
            ui_error(ui, "%s", bad == 2 ? err.msg : "out of memory");
            free(p->base);
            p->base = NULL;
            ss_flame_free(&p->fl);
            return -1;
        }
        p->max_delta = 0;
        for (size_t i = 0; i < p->fl.n; i++) {
            double d = p->fl.nodes[i].total - p->base[i];
            if (d < 0)
                d = -d;
            if (d > p->max_delta)
                p->max_delta = d;
        }
    }
    p->built = 1;
    p->gen = ui->gen;
    p->vgen = ui->verdicts.vgen;
    p->nzhist = 0;
    /* back to the same frames: by path, else the current function's widest
     * (a zoomed chart is rebuilt for the zoom's span by the next prepare) */
    size_t len = 0;
    uint32_t sel = NONE;
    p->zoom = NONE;
    if (p->have_paths) {
        uint32_t z = find_path(&p->fl, p->zoom_path, p->nzoom_path, &len);
        if (z != NONE && len == p->nzoom_path)
            p->zoom = z;
        sel = find_path(&p->fl, p->sel_path, p->nsel_path, &len);
        if (len < p->nsel_path)
            sel = NONE;
    }
    if (sel == NONE && ui_current_function(ui) != SS_NONE)
        sel = widest_of(&p->fl, ui_current_function(ui));
    if (sel == NONE && len > 0)
        sel = find_path(&p->fl, p->sel_path, p->nsel_path, &len);
    if (p->zoom != NONE && sel != NONE && (sel < p->zoom || sel >= p->fl.nodes[p->zoom].end))
        sel = p->zoom;
    v->list.n = p->fl.n;
    v->list.sel = sel == NONE ? 0 : sel;
    p->top = 0;
    if (chart_stale(ui, p))
        return rechart(ui, v, p); /* zoomed: the chart at the zoom's resolution */
    run_search(ui, p);
    return 0;
}

/* ---- geometry ------------------------------------------------------------- */

/* The frames the screen shows: [*a, *b), from position x0, width `w`
 * (weight units), at depth `bd` and below. */
static void range(const struct flame_view *p, size_t *a, size_t *b, double *x0, double *w,
                  uint32_t *bd)
{
    if (p->zoom == NONE) {
        *a = 0;
        *b = p->fl.n;
        *x0 = 0;
        *w = p->fl.total;
        *bd = 0;
    } else {
        const struct ss_flame_node *z = &p->fl.nodes[p->zoom];
        *a = p->zoom;
        *b = z->end;
        *x0 = z->x;
        *w = z->total;
        *bd = z->depth;
    }
}

/* The columns [*c0, *c1) of frame i on a screen `cols` wide; 0 when the
 * frame is too narrow to show (less than half a column). */
static int columns(const struct flame_view *p, uint32_t i, int cols, int *c0, int *c1)
{
    size_t a, b;
    double x0, w;
    uint32_t bd;
    range(p, &a, &b, &x0, &w, &bd);
    if (!(w > 0) || cols <= 0)
        return 0;
    const struct ss_flame_node *nd = &p->fl.nodes[i];
    double s = (nd->x - x0) / w * cols, e = (nd->x + nd->total - x0) / w * cols;
    *c0 = (int)(s + 0.5);
    *c1 = (int)(e + 0.5);
    if (*c0 < 0)
        *c0 = 0;
    if (*c1 > cols)
        *c1 = cols;
    return *c1 > *c0;
}

static int in_zoom(const struct flame_view *p, uint32_t i)
{
    return p->zoom == NONE || (i >= p->zoom && i < p->fl.nodes[p->zoom].end);
}

/* The next (dir > 0) or previous frame on frame i's row that shows, inside
 * the zoom; NONE when there is none. */
static uint32_t neighbour(const struct flame_view *p, uint32_t i, int dir)
{
    size_t a, b;
    double x0, w;
    uint32_t bd, d = p->fl.nodes[i].depth;
    int c0, c1, cols = p->width > 0 ? p->width : 80;
    range(p, &a, &b, &x0, &w, &bd);
    if (dir > 0) {
        for (size_t k = p->fl.nodes[i].end; k < b;) {
            const struct ss_flame_node *nd = &p->fl.nodes[k];
            if (!columns(p, (uint32_t)k, cols, &c0, &c1) || nd->depth > d)
                k = nd->end;
            else if (nd->depth == d)
                return (uint32_t)k;
            else
                k++;
        }
        return NONE;
    }
    /* backwards: the last showing frame of depth d before i */
    uint32_t found = NONE;
    for (size_t k = a; k < i;) {
        const struct ss_flame_node *nd = &p->fl.nodes[k];
        if (!columns(p, (uint32_t)k, cols, &c0, &c1) || nd->depth > d) {
            k = nd->end;
        } else if (nd->depth == d) {
            found = (uint32_t)k;
            k = nd->end;
        } else {
            k++;
        }
    }
    return found;
}

/* The widest child of frame i, NONE for a leaf. */
uint32_t ui_flame_widest_child(const struct ss_flame *fl, uint32_t i)
{
    uint32_t best = NONE;
    for (size_t k = i + 1; k < fl->nodes[i].end; k = fl->nodes[k].end)
        if (best == NONE || fl->nodes[k].total > fl->nodes[best].total)
            best = (uint32_t)k;
    return best;
}

/* ---- drawing -------------------------------------------------------------- */

/* The colour of a frame: a stable hash of its function's name, or of its
 * class (a frame without a class stays plain). */
int ui_flame_style(const struct ss_model *m, int by_class, ss_id f)
{
    const char *key = ss_function_name(m, f);
    if (by_class) {
        ss_id cls = m->function_class.n > f ? m->function_class.v[f] : SS_NONE;
        if (cls == SS_NONE)
            return UI_S_NORMAL;
        key = ss_str(m, cls);
    }
    return UI_S_FN0 + (int)(ss_hash(key, strlen(key)) % UI_NFNCOLORS);
}

int ui_flame_neighbour_style(const struct ui_canvas *c, int yy, int c0, int y0, int y1, int style)
{
    if (style < UI_S_FN0 || style >= UI_S_FN0 + UI_NFNCOLORS || c0 < 0 || c0 >= c->w)
        return style;
    int near[3] = {-1, -1, -1};
    if (c0 > 0)
        near[0] = c->cells[(size_t)yy * (size_t)c->w + (size_t)c0 - 1].style;
    if (yy - 1 >= y0)
        near[1] = c->cells[(size_t)(yy - 1) * (size_t)c->w + (size_t)c0].style;
    if (yy + 1 < y1)
        near[2] = c->cells[(size_t)(yy + 1) * (size_t)c->w + (size_t)c0].style;
    for (int k = 0; k < UI_NFNCOLORS; k++) {
        int st = UI_S_FN0 + (style - UI_S_FN0 + k) % UI_NFNCOLORS;
        if (st != near[0] && st != near[1] && st != near[2])
            return st;
    }
    return style;
}

/* A value of the graph's measure, with its unit. */
void ui_flame_value(const struct ui *ui, double x, char *buf, size_t n)
{
    ss_flame_format(ui->m, x, buf, n);
}

static double pct(const struct flame_view *p, double x)
{
    return p->fl.total > 0 ? 100.0 * x / p->fl.total : 0;
}

/* The position of frame i: its own line when every frame merged there has
 * the same, else the function's definition, else the range of the lines
 * its frames were sampled at (source.h), else nothing.  Into buf. */
const char *ui_flame_position(const struct ss_model *m, const struct ss_flame_node *nd, char *buf,
                              size_t n)
{
    buf[0] = '\0';
    uint32_t lo, hi;
    ss_id file = SS_NONE;
    for (size_t l = 0; file == SS_NONE && nd->loc == SS_NONE && l < m->locations.n; l++)
        if (m->locations.v[l].line && m->locations.v[l].function != SS_NONE &&
            ss_function_canonical(m, m->locations.v[l].function) == nd->function)
            file = m->locations.v[l].file;
    if (nd->loc != SS_NONE && m->locations.v[nd->loc].line > 0 &&
        m->locations.v[nd->loc].file != SS_NONE)
        snprintf(buf, n, "%s:%u", ss_str(m, m->locations.v[nd->loc].file),
                 m->locations.v[nd->loc].line);
    else if (m->functions.v[nd->function].filename == SS_NONE && file != SS_NONE &&
             !ss_source_function_range(m, nd->function, file, &lo, &hi)) {
        if (lo < hi)
            snprintf(buf, n, "%s:%u-%u (the function's lines)", ss_str(m, file), lo, hi);
        else
            snprintf(buf, n, "%s:%u", ss_str(m, file), lo);
    } else if (m->functions.v[nd->function].filename != SS_NONE) {
        const struct ss_function *fn = &m->functions.v[nd->function];
        if (fn->start_line)
            snprintf(buf, n, "%s:%u", ss_str(m, fn->filename), fn->start_line);
        else
            snprintf(buf, n, "%s", ss_str(m, fn->filename));
    }
    return buf;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    struct flame_view *p = v->priv;
    (void)ui;
    if (!p)
        return;
    snprintf(buf, n, "%s%s, %zu frames", /* the chart's, also those too narrow to draw */
             p->opts.time_order                    ? "flame chart, time order"
             : p->opts.order == SS_FLAME_BY_WEIGHT ? "icicle, heaviest first"
                                                   : "icicle, by name",
             p->opts.inverted ? ", inverted" : "", p->nframes);
}

static int ensure_cells(struct flame_view *p, int w, int h)
{
    if (p->cell && p->cell_w == w && p->cell_h == h)
        return 0;
    free(p->cell);
    p->cell = ss_alloc_array((size_t)(w > 0 ? w : 1) * (size_t)(h > 0 ? h : 1), sizeof *p->cell);
    p->cell_w = p->cell ? w : 0;
    p->cell_h = p->cell ? h : 0;
    return p->cell ? 0 : -1;
}

/* A frame in columns [c0, c1) of row yy: a left edge, so that frames of
 * one colour (or none) stay apart, then the name fitted in. */
void ui_flame_put_frame(struct ui_canvas *c, int yy, int c0, int c1, const char *name, int style)
{
    ui_put(c, yy, c0, 1, c->utf8 ? "\xe2\x96\x8f" : "|", style);
    if (c1 - c0 > 1)
        ui_put_fit(c, yy, c0 + 1, c1 - c0 - 1, name, style, 0);
}

int ui_delta_style(double base, double cur, double max_delta, const struct ss_verdict *v)
{
    int sh = ss_compare_shade(base, cur, max_delta);
    if (v) {
        /* the verdict's direction, at least faintly; `~` is plain */
        int k = sh < 0 ? -sh : sh;
        sh = v->sign * (k ? k : 1);
    }
    return sh > 0 ? UI_S_GREW1 + sh - 1 : sh < 0 ? UI_S_SHRANK1 - sh - 1 : UI_S_NORMAL;
}

const char *ui_delta_legend(const struct ss_cmp_fverdicts *fv, char *buf, size_t n)
{
    if (!fv->v) {
        snprintf(buf, n, "red grew, blue shrank vs the base (stronger: more)");
        return buf;
    }
    if (fv->info.pending) {
        snprintf(buf, n, "testing which frames grew and shrank beyond noise...");
        return buf;
    }
    size_t g, s;
    ss_verdict_count(fv->v, fv->n, sizeof *fv->v, &g, &s);
    snprintf(buf, n, "red grew (%zu), blue shrank (%zu) beyond noise (q <= %g), plain: ~", g, s,
             fv->info.alpha);
    return buf;
}

struct gone_ctx {
    const struct ss_cmp_gone *g;
};

static int heavier_gone(const void *pa, const void *pb, void *vctx)
{
    const struct gone_ctx *c = vctx;
    double a = c->g->total[*(const size_t *)pa], b = c->g->total[*(const size_t *)pb];
    return a > b ? -1 : a < b ? 1 : 0;
}

/* "; only in the base: NAME VALUE, ..." for the frames of gone under
 * frame (SS_FLAME_NONE: the roots), heaviest first; appended at buf + k. */
static int gone_text(const struct ui *ui, const struct ss_cmp_gone *gone, uint32_t frame, char *buf,
                     size_t n, int k)
{
    size_t *idx = NULL, m = 0;
    for (size_t g = 0; gone && g < gone->n; g++)
        m += gone->parent[g] == frame;
    if (m && (idx = ss_alloc_array(m, sizeof *idx)) != NULL) {
        m = 0;
        for (size_t g = 0; g < gone->n; g++)
            if (gone->parent[g] == frame)
                idx[m++] = g;
        struct gone_ctx ctx = {gone};
        if (ss_sort(idx, m, sizeof *idx, heavier_gone, &ctx) == 0)
            for (size_t j = 0; j < m && k > 0 && (size_t)k < n; j++) {
                char gv[64];
                ui_flame_value(ui, gone->total[idx[j]], gv, sizeof gv);
                k += snprintf(buf + k, n - (size_t)k, "%s%s %s",
                              j ? ", " : "; only in the base: ", gone->name[idx[j]], gv);
            }
        free(idx);
    }
    return k;
}

int ui_flame_delta_text(const struct ui *ui, double base, double cur, const struct ss_verdict *v,
                        const struct ss_cmp_gone *gone, uint32_t frame, char *buf, size_t n)
{
    char bv[64], dv[64];
    double d = cur - base;
    ui_flame_value(ui, base, bv, sizeof bv);
    ui_flame_value(ui, d < 0 ? -d : d, dv, sizeof dv);
    int k = snprintf(buf, n, ", base %s, delta %s%s", bv, d > 0 ? "+" : d < 0 ? "-" : "", dv);
    if (v && k > 0 && (size_t)k < n)
        k += v->pending    ? snprintf(buf + k, n - (size_t)k, ", testing")
             : isnan(v->q) ? snprintf(buf + k, n - (size_t)k, ", ~")
                           : snprintf(buf + k, n - (size_t)k, ", %s (q %.2g)",
                                      ss_verdict_word(v->sign), v->q);
    /* what only the base has under the frame, heaviest first */
    if (k > 0 && (size_t)k < n)
        k = gone_text(ui, gone, frame, buf, n, k);
    if (k < 0)
        k = 0;
    if ((size_t)k >= n)
        k = n ? (int)n - 1 : 0;
    return k;
}

static void draw_frame(struct ui *ui, struct ui_view *v, struct flame_view *p, struct ui_canvas *c,
                       int yy, uint32_t i, int c0, int c1)
{
    const struct ss_flame_node *nd = &p->fl.nodes[i];
    int style = ui_flame_style(ui->m, p->by_class, nd->function);
    if (!p->by_class) /* frames of different functions side by side differ */
        style = ui_flame_neighbour_style(c, yy, c0, p->cell_y, p->cell_y + p->cell_h, style);
    if (p->base)
        style = ui_delta_style(p->base[i], nd->total, p->max_delta, p->fv.v ? &p->fv.v[i] : NULL);
    if (p->match && p->match[i])
        style = UI_S_MATCH;
    if (i == v->list.sel)
        style = UI_S_FRAMESEL;
    ui_flame_put_frame(c, yy, c0, c1, ss_function_name(ui->m, nd->function), style);
    for (int x = c0; x < c1; x++)
        p->cell[(size_t)(yy - p->cell_y) * (size_t)p->cell_w + (size_t)x] = i;
}

/* The info line: the measure, the search, or a comparison's legend (w:
 * the zoom's width). */
static void draw_info(struct ui *ui, struct flame_view *p, struct ui_canvas *c, int y, double w)
{
    char info[1024];
    char tv[64];
    ui_flame_value(ui, p->fl.total, tv, sizeof tv);
    int k = snprintf(info, sizeof info, "width: %s, %s in all", ss_model_measure_name(ui->m), tv);
    if (p->pat[0] && k > 0 && (size_t)k < sizeof info) {
        /* the chart counts the frames made (those wide enough to draw),
         * its shares are every sample's */
        int some = p->nmatch > 0 || p->hit_zoom > 0;
        if (!some)
            k += snprintf(info + k, sizeof info - (size_t)k, " | /%s: no frame matches%s", p->pat,
                          p->zoom != NONE ? " in the zoom" : "");
        else
            k += snprintf(info + k, sizeof info - (size_t)k, " | /%s: %zu frame%s%s, %.1f%% of all",
                          p->pat, p->nmatch, p->nmatch == 1 ? "" : "s",
                          p->opts.time_order ? " shown" : "", pct(p, p->hit_all));
        if (some && p->zoom != NONE && w > 0 && k > 0 && (size_t)k < sizeof info)
            snprintf(info + k, sizeof info - (size_t)k, ", %.1f%% of the zoom",
                     100.0 * p->hit_zoom / w);
    } else if (p->base && k > 0 && (size_t)k < sizeof info) {
        /* the legend of a comparison, and the roots only the base has */
        char lg[160];
        k += snprintf(info + k, sizeof info - (size_t)k, " | %s",
                      ui_delta_legend(&p->fv, lg, sizeof lg));
        if (p->zoom == NONE && k > 0 && (size_t)k < sizeof info)
            gone_text(ui, &p->gone, NONE, info, sizeof info, k);
    } else if (k > 0 && (size_t)k < sizeof info) {
        snprintf(info + k, sizeof info - (size_t)k,
                 " | Enter zoom, / search, s order, i inverted, o time order");
    }
    ui_put_head(c, y, 0, c->w, info, UI_S_DIM);
}

/* The breadcrumb at row y: the zoomed frame's ancestors, root first. */
static void draw_crumb(struct ui *ui, struct flame_view *p, struct ui_canvas *c, int y)
{
    char crumb[4096];
    size_t len = 0;
    crumb[0] = '\0';
    size_t np;
    ss_id *path = path_of(&p->fl, p->zoom, &np);
    for (size_t j = 0; path && j < np && len < sizeof crumb; j++)
        len += (size_t)snprintf(crumb + len, sizeof crumb - len, "%s%s",
                                j ? " > " : "zoom: ", ss_function_name(ui->m, path[j]));
    free(path);
    if (len < sizeof crumb)
        snprintf(crumb + len, sizeof crumb - len, "  (q out, z all)");
    ui_put_tail(c, y, 0, c->w, crumb, UI_S_MARK);
}

/* The detail line at row y: the selected frame's total, self and
 * position, or in a comparison its base and delta, and its name. */
static void draw_detail(struct ui *ui, struct ui_view *v, struct flame_view *p, struct ui_canvas *c,
                        int y)
{
    const struct ss_flame_node *nd = &p->fl.nodes[v->list.sel];
    char tot[64], self[64], pos[1024], line[2048];
    ui_flame_value(ui, nd->total, tot, sizeof tot);
    ui_flame_value(ui, nd->self, self, sizeof self);
    ui_flame_position(ui->m, nd, pos, sizeof pos);
    snprintf(line, sizeof line, "total %s (%.1f%%), self %s (%.1f%%)%s%s | ", tot,
             pct(p, nd->total), self, pct(p, nd->self), pos[0] ? ", " : "", pos);
    if (p->base) {
        /* a comparison: the frame's base total and delta, and what it
         * called in the base and calls no more */
        int kk = snprintf(line, sizeof line, "total %s", tot);
        if (kk > 0 && (size_t)kk < sizeof line)
            kk += ui_flame_delta_text(ui, p->base[v->list.sel], nd->total,
                                      p->fv.v ? &p->fv.v[v->list.sel] : NULL, &p->gone,
                                      (uint32_t)v->list.sel, line + kk, sizeof line - (size_t)kk);
        if (kk > 0 && (size_t)kk < sizeof line)
            snprintf(line + kk, sizeof line - (size_t)kk, " | ");
    }
    int lw = ui_text_width(c, line);
    if (lw < c->w - 8) {
        ui_put(c, y, 0, lw, line, UI_S_NORMAL);
        ui_put_fit(c, y, lw, c->w - lw, ss_function_name(ui->m, nd->function), UI_S_MARK, 0);
    } else {
        ui_put_head(c, y, 0, c->w, line, UI_S_NORMAL);
    }
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct flame_view *p = v->priv;
    v->list.page = 1;
    const char *note = NULL;
    if (p->opts.time_order && ui_no_order_note(ui))
        note = ui_no_order_note(ui);
    else if (!p->built || p->fl.n == 0)
        note = ui_empty_note(ui);
    if (note) {
        ui_table_note(c, y, h, note);
        return;
    }
    size_t a, b;
    double x0, w;
    uint32_t bd;
    if (v->list.sel >= p->fl.n || !in_zoom(p, (uint32_t)v->list.sel))
        v->list.sel = p->zoom == NONE ? 0 : p->zoom;
    range(p, &a, &b, &x0, &w, &bd);
    p->width = c->w;
    draw_info(ui, p, c, y, w);
    int fy = y + 1, rows = h - 2;
    if (p->zoom != NONE) {
        draw_crumb(ui, p, c, fy);
        fy++;
        rows--;
    }
    if (rows < 1)
        rows = 1;
    /* keep the selected row in view */
    uint32_t rel = p->fl.nodes[v->list.sel].depth - bd;
    if (rel < p->top)
        p->top = rel;
    if (rel >= p->top + (uint32_t)rows)
        p->top = rel - (uint32_t)rows + 1;
    if (ensure_cells(p, c->w, rows)) {
        ui_error(ui, "out of memory");
        return;
    }
    p->cell_y = fy;
    v->rows_y = fy;
    for (size_t q = 0; q < (size_t)c->w * (size_t)rows; q++)
        p->cell[q] = NONE;
    for (size_t i = a; i < b;) {
        const struct ss_flame_node *nd = &p->fl.nodes[i];
        int c0, c1;
        uint32_t r = nd->depth - bd;
        if (!columns(p, (uint32_t)i, c->w, &c0, &c1) || r >= p->top + (uint32_t)rows) {
            i = nd->end; /* nothing of it shows */
            continue;
        }
        if (r >= p->top)
            draw_frame(ui, v, p, c, fy + (int)(r - p->top), (uint32_t)i, c0, c1);
        i++;
    }
    if (p->top > 0)
        ui_put(c, fy, c->w - 12, 12, " ^ more ^  ", UI_S_DIM);
    draw_detail(ui, v, p, c, y + h - 1);
}

/* ---- keys ----------------------------------------------------------------- */

static void select_frame(struct ui_view *v, uint32_t i)
{
    if (i != NONE)
        v->list.sel = i;
}

static void zoom_to(struct ui *ui, struct flame_view *p, uint32_t z)
{
    p->zoom = z;
    p->top = 0;
    if (!chart_stale(ui, p))
        run_search(ui, p); /* else the next prepare builds the chart for the zoom and searches */
}

const struct ss_flame_opts *ui_flame_svg_opts(struct ui *ui)
{
    const struct flame_view *p = ui->views[UI_V_FLAME].priv;
    return p ? &p->opts : NULL;
}

/* Rebuild with new options on the next prepare, keeping the selection. */
static void rebuild(struct ui_view *v, struct flame_view *p)
{
    save_paths(v, p);
    p->built = 0; /* :w F.svg writes the graph as shown here (ui_flame_svg_opts) */
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    struct flame_view *p = v->priv;
    if (!p || !p->built)
        return UI_UNHANDLED;
    int have = p->fl.n > 0;
    uint32_t sel = have && v->list.sel < p->fl.n ? (uint32_t)v->list.sel : NONE;
    uint32_t u;
    switch (req) {
    case UI_REQ_NONE:
        if (ev && ev->key == UI_K_MOUSE && p->cell && have) {
            int r = ev->y - p->cell_y;
            if (r < 0 || r >= p->cell_h || ev->x < 0 || ev->x >= p->cell_w)
                return UI_UNHANDLED;
            u = p->cell[(size_t)r * (size_t)p->cell_w + (size_t)ev->x];
            if (u == NONE)
                return UI_HANDLED;
            select_frame(v, u);
            if (ev->button == UI_B_DOUBLE)
                zoom_to(ui, p, u);
            return UI_HANDLED;
        }
        return UI_UNHANDLED;
    case UI_REQ_FL_LEFT:
    case UI_REQ_FL_RIGHT:
        if (sel != NONE)
            select_frame(v, neighbour(p, sel, req == UI_REQ_FL_RIGHT ? 1 : -1));
        return UI_HANDLED;
    case UI_REQ_FL_UP:
    case UI_REQ_PAGE_UP:
        for (int n = req == UI_REQ_PAGE_UP ? 10 : 1; n > 0 && sel != NONE; n--)
            if (sel != p->zoom && p->fl.nodes[sel].parent != NONE)
                sel = p->fl.nodes[sel].parent;
        select_frame(v, sel);
        return UI_HANDLED;
    case UI_REQ_FL_DOWN:
    case UI_REQ_PAGE_DOWN:
    case UI_REQ_LAST:
        for (int n = req == UI_REQ_FL_DOWN     ? 1
                     : req == UI_REQ_PAGE_DOWN ? 10
                                               : -1;
             n != 0 && sel != NONE && ui_flame_widest_child(&p->fl, sel) != NONE; n--)
            sel = ui_flame_widest_child(&p->fl, sel);
        select_frame(v, sel);
        return UI_HANDLED;
    case UI_REQ_FIRST:
        select_frame(v, p->zoom == NONE ? (have ? 0 : NONE) : p->zoom);
        return UI_HANDLED;
    case UI_REQ_FL_ZOOM:
        if (sel != NONE && sel != p->zoom) {
            if (p->nzhist == (int)ARRAY_SIZE(p->zhist)) {
                memmove(p->zhist, p->zhist + 1, sizeof p->zhist - sizeof *p->zhist);
                p->nzhist--;
            }
            p->zhist[p->nzhist++] = pos_of(&p->fl, p->zoom);
            zoom_to(ui, p, sel);
            ui_message(ui, "zoomed into %s (q or Backspace: out a level, z: all)",
                       ss_function_name(ui->m, p->fl.nodes[sel].function));
        }
        return UI_HANDLED;
    case UI_REQ_BACK:
    case UI_REQ_FL_ZOOM_OUT:
        if (p->zoom == NONE) {
            if (req == UI_REQ_BACK)
                return UI_UNHANDLED;
            ui_error(ui, "not zoomed in (Enter zooms into the selected frame)");
            return UI_HANDLED;
        }
        /* back to the zoom before, else a level up */
        u = p->nzhist > 0 ? at_pos(&p->fl, p->zhist[--p->nzhist]) : p->fl.nodes[p->zoom].parent;
        zoom_to(ui, p, u);
        return UI_HANDLED;
    case UI_REQ_FL_ZOOM_ALL:
        p->nzhist = 0;
        zoom_to(ui, p, NONE);
        return UI_HANDLED;
    case UI_REQ_FL_ORDER:
    case UI_REQ_SORT_NEXT:
    case UI_REQ_SORT_REVERSE:
        if (p->opts.time_order) {
            ui_error(ui, "the flame chart is in time order (o: back to the icicle)");
            return UI_HANDLED;
        }
        p->opts.order = p->opts.order == SS_FLAME_BY_NAME ? SS_FLAME_BY_WEIGHT : SS_FLAME_BY_NAME;
        ui_message(ui, "children %s",
                   p->opts.order == SS_FLAME_BY_NAME ? "by name"
                                                     : "by weight, heaviest first (left heavy)");
        rebuild(v, p);
        return UI_HANDLED;
    case UI_REQ_FL_INVERT:
        p->opts.inverted = !p->opts.inverted;
        ui_message(ui, "%s",
                   p->opts.inverted ? "inverted: the leaves on top, their callers below"
                                    : "the roots on top");
        rebuild(v, p);
        p->have_paths = 0; /* the paths mean something else now */
        return UI_HANDLED;
    case UI_REQ_FL_TIME:
        p->opts.time_order = !p->opts.time_order;
        ui_message(ui, "%s",
                   p->opts.time_order
                       ? "flame chart: samples in time order, consecutive ones merged"
                       : "flame graph: samples merged by stack");
        rebuild(v, p);
        return UI_HANDLED;
    case UI_REQ_FL_COLOURS:
        p->by_class = !p->by_class;
        if (p->by_class && ui->m->function_class.n == 0)
            ui_message(ui, "colours by class: no function has one (:class /REGEX/ => NAME)");
        else
            ui_message(ui, "colours by %s", p->by_class ? "class" : "function");
        return UI_HANDLED;
    default:
        return UI_UNHANDLED;
    }
}

/* `/`: a new pattern selects the widest match inside the zoom; the same
 * pattern again (n, N) steps through the matches left to right, top down
 * (depth-first order), wrapping. */
static int search(struct ui *ui, struct ui_view *v, const char *pat, int dir,
                  int (*match)(struct ui *ui, const char *text, const char *pat), size_t *idx,
                  size_t *count)
{
    struct flame_view *p = v->priv;
    if (!p || !p->built || p->fl.n == 0)
        return -1;
    int fresh = strcmp(p->pat, pat) != 0 || !p->match || p->matchfn != match;
    if (fresh) { /* else the matches are those of the zoom already */
        snprintf(p->pat, sizeof p->pat, "%s", pat);
        p->matchfn = match;
        run_search(ui, p);
    }
    if (!p->match || p->nmatch == 0)
        return -1;
    size_t a, b;
    double x0, w;
    uint32_t bd;
    range(p, &a, &b, &x0, &w, &bd);
    size_t sel = v->list.sel, found = SIZE_MAX;
    if (fresh) {
        for (size_t i = a; i < b; i++)
            if (p->match[i] &&
                (found == SIZE_MAX || p->fl.nodes[i].total > p->fl.nodes[found].total))
                found = i;
    } else {
        size_t n = b - a;
        for (size_t k = 1; k <= n && found == SIZE_MAX; k++) {
            size_t off = sel >= a && sel < b ? sel - a : 0;
            size_t i = a + (dir > 0 ? (off + k) % n : (off + n - k % n) % n);
            if (p->match[i])
                found = i;
        }
    }
    if (found == SIZE_MAX)
        return -1;
    v->list.sel = found;
    size_t before = 0;
    for (size_t i = a; i <= found; i++)
        before += p->match[i];
    *idx = before;
    *count = p->nmatch;
    return 0;
}

static const char *row_function(struct ui *ui, struct ui_view *v, size_t r)
{
    struct flame_view *p = v->priv;
    if (!p || !p->built || r >= p->fl.n || p->gen != ui->gen)
        return NULL;
    return ss_function_name(ui->m, p->fl.nodes[r].function);
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    (void)buf, (void)n;
    return row_function(ui, v, r);
}

/* A frame whose merged frames are all at one line: that line (`a`). */
static int row_location(struct ui *ui, struct ui_view *v, size_t r, ss_id *file, uint32_t *line)
{
    struct flame_view *p = v->priv;
    if (!p || !p->built || r >= p->fl.n || p->gen != ui->gen)
        return 0;
    ss_id loc = p->fl.nodes[r].loc;
    if (loc == SS_NONE || !ui->m->locations.v[loc].line || ui->m->locations.v[loc].file == SS_NONE)
        return 0;
    *file = ui->m->locations.v[loc].file;
    *line = ui->m->locations.v[loc].line;
    return 1;
}

/* A frame's level (1 = root) in the top-down graph: its depth + 1. */
static uint32_t row_level(struct ui *ui, struct ui_view *v, size_t r)
{
    struct flame_view *p = v->priv;
    if (!p || !p->built || r >= p->fl.n || p->opts.inverted || p->gen != ui->gen)
        return 0;
    return p->fl.nodes[r].depth + 1;
}

static void view_free(struct ui_view *v)
{
    struct flame_view *p = v->priv;
    ss_flame_free(&p->fl);
    drop_index(p);
    free(p->pw);
    free(p->base);
    ss_cmp_gone_free(&p->gone);
    ss_cmp_fverdicts_free(&p->fv);
    free(p->match);
    free(p->cell);
    free(p->sel_path);
    free(p->zoom_path);
}

const struct ui_view_ops ui_view_flame = {
    .name = "flame",
    .flags = UI_VF_NO_FILTER,
    .priv_size = sizeof(struct flame_view),
    .init = view_init,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .row_function = row_function,
    .row_location = row_location,
    .row_level = row_level,
    .search = search,
    .free = view_free,
};
