/* flame.c - the flame graph and the flame chart (see flame.h).
 *
 * The aggregated graph is a trie of the distinct stacks' function paths,
 * found through one hash map keyed by (parent, function); it is built in
 * the order the stacks come, then laid out: children sorted, renumbered in
 * depth-first pre-order, and given their x.  The chart needs no map: its
 * samples come in time order, so a frame is created only after every frame
 * left of it on its row is complete, and creation order is pre-order
 * already; a frame's `end` is set when the sample stream leaves it.
 */
#include "flame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame_index.h"
#include "hashtab.h"
#include "match.h"
#include "sort.h"
#include "units.h"
#include "vec.h"

void ss_flame_free(struct ss_flame *fl)
{
    free(fl->nodes);
    memset(fl, 0, sizeof *fl);
}

/* The canonical function of the k-th frame of stack s read from the root
 * (or, inverted, from the leaf), and its location. */
static ss_id frame_at(const struct ss_model *m, const ss_id *fr, size_t d, size_t k, int inverted,
                      ss_id *loc)
{
    *loc = fr[inverted ? k : d - 1 - k];
    return ss_function_canonical(m, ss_loc_function(m, *loc));
}

int ss_flame_measure_weights(const struct ss_model *m, double **stack_w, double **sample_w,
                             struct ss_error *err)
{
    size_t ns = ss_model_nstacks(m), n = m->sample_stack.n;
    double *sw = NULL, *pw = NULL;
    struct ss_stack_counts sc;
    memset(&sc, 0, sizeof sc);
    if (stack_w) {
        *stack_w = NULL;
        sw = ss_calloc_array(ns, sizeof *sw);
        if (!sw || ss_stack_counts_init(&sc, m))
            goto oom;
        for (size_t src = 0; src < m->sources.n; src++) {
            double scale = ss_source_scale(m, src);
            if (ss_stack_counts_source(&sc, m, (ss_id)src))
                goto oom;
            for (size_t t = 0; t < sc.n; t++)
                sw[sc.touched[t]] += (double)sc.val[sc.touched[t]] * scale;
        }
        ss_stack_counts_free(&sc);
    }
    if (sample_w) {
        *sample_w = NULL;
        pw = ss_alloc_array(n, sizeof *pw);
        if (!pw)
            goto oom;
        for (size_t src = 0; src < m->sources.n; src++) {
            const struct ss_source *so = &m->sources.v[src];
            double scale = ss_source_scale(m, src);
            for (size_t i = so->first_sample; i < so->first_sample + so->n_samples && i < n; i++)
                pw[i] = (double)ss_sample_weight(m, i) * scale;
        }
        *sample_w = pw;
    }
    if (stack_w)
        *stack_w = sw;
    return 0;
oom:
    ss_stack_counts_free(&sc);
    free(sw);
    free(pw);
    return ss_nomem(err, "flame graph weights");
}

void ss_flame_format(const struct ss_model *m, double v, char *buf, size_t n)
{
    struct ss_units u;
    ss_units_of(m, &u);
    char num[64];
    ss_format_value(num, sizeof num, &u, v, 0);
    const struct ss_measure *ms = &u.measure;
    if (ms->kind == SS_MEASURE_TIME)
        snprintf(buf, n, "%s s", num);
    else if (ms->unit_kind == SS_UNIT_COUNT)
        snprintf(buf, n, "%s %s", num, ss_measure_name(m, ms));
    else if (ms->unit_kind == SS_UNIT_OTHER)
        snprintf(buf, n, "%s %s", num, ss_measure_unit(m, ms));
    else
        snprintf(buf, n, "%s", num); /* the unit is in the number: 12 ms, 3.4 MB */
}

/* ---- the aggregated graph ------------------------------------------------ */

struct order_ctx {
    const struct ss_model *m;
    const struct ss_flame_node *nodes;
    enum ss_flame_order order;
};

static int cmp_children(const void *pa, const void *pb, void *vctx)
{
    const struct order_ctx *c = vctx;
    const struct ss_flame_node *a = &c->nodes[*(const uint32_t *)pa];
    const struct ss_flame_node *b = &c->nodes[*(const uint32_t *)pb];
    if (c->order == SS_FLAME_BY_WEIGHT && a->total > b->total)
        return -1;
    if (c->order == SS_FLAME_BY_WEIGHT && a->total < b->total)
        return 1;
    if (a->function == b->function)
        return 0;
    int k = strcmp(ss_function_name(c->m, a->function), ss_function_name(c->m, b->function));
    if (k)
        return k;
    return a->function < b->function ? -1 : 1;
}

/* Lay the trie tmp[0..n) out in pre-order with children sorted: into
 * out->nodes, with x and end. */
static int layout(const struct ss_model *m, struct ss_flame_node *tmp, size_t n,
                  enum ss_flame_order order, struct ss_flame *out)
{
    /* children of each node (CSR; slot n holds the roots) */
    uint32_t *off = ss_calloc_array(n + 2, sizeof *off);
    uint32_t *kids = ss_alloc_array(n, sizeof *kids);
    uint32_t *newid = ss_alloc_array(n, sizeof *newid);
    uint32_t *stack = ss_alloc_array(n, sizeof *stack);
    struct ss_flame_node *nodes = ss_alloc_array(n, sizeof *nodes);
    int rc = -1;
    if (!off || !kids || !newid || !stack || !nodes)
        goto done;
    for (size_t i = 0; i < n; i++)
        off[(tmp[i].parent == SS_FLAME_NONE ? n : tmp[i].parent) + 1]++;
    for (size_t p = 0; p <= n; p++)
        off[p + 1] += off[p];
    for (size_t i = 0; i < n; i++) {
        size_t p = tmp[i].parent == SS_FLAME_NONE ? n : tmp[i].parent;
        kids[off[p]++] = (uint32_t)i;
    }
    for (size_t p = n + 1; p > 0; p--) /* back to the starts */
        off[p] = off[p - 1];
    off[0] = 0;
    struct order_ctx ctx = {m, tmp, order};
    for (size_t p = 0; p <= n; p++)
        if (off[p + 1] - off[p] > 1 &&
            ss_sort(kids + off[p], off[p + 1] - off[p], sizeof *kids, cmp_children, &ctx))
            goto done;
    /* depth-first: push children in reverse so the first pops first */
    size_t sp = 0, next = 0;
    for (uint32_t k = off[n + 1]; k > off[n]; k--)
        stack[sp++] = kids[k - 1];
    while (sp) {
        uint32_t t = stack[--sp];
        uint32_t id = (uint32_t)next++;
        newid[t] = id;
        nodes[id] = tmp[t];
        for (uint32_t k = off[t + 1]; k > off[t]; k--)
            stack[sp++] = kids[k - 1];
    }
    /* parents, x and ends: a node's children follow it in order */
    double root_x = 0;
    for (size_t i = 0; i < n; i++) {
        struct ss_flame_node *nd = &nodes[i];
        nd->parent = nd->parent == SS_FLAME_NONE ? SS_FLAME_NONE : newid[nd->parent];
        nd->end = (uint32_t)(i + 1);
        if (nd->parent == SS_FLAME_NONE) {
            nd->x = root_x;
            root_x += nd->total;
        }
    }
    /* ends from the leaves up (a child always comes after its parent) */
    for (size_t i = n; i-- > 0;) {
        uint32_t p = nodes[i].parent;
        if (p != SS_FLAME_NONE && nodes[i].end > nodes[p].end)
            nodes[p].end = nodes[i].end;
    }
    /* x from the parents down: each parent's cursor starts at its own x */
    double *cursor = ss_alloc_array(n, sizeof *cursor);
    if (!cursor)
        goto done;
    for (size_t i = 0; i < n; i++) {
        uint32_t p = nodes[i].parent;
        if (p != SS_FLAME_NONE) {
            nodes[i].x = cursor[p];
            cursor[p] += nodes[i].total;
        }
        cursor[i] = nodes[i].x;
    }
    free(cursor);
    out->nodes = nodes;
    out->n = n;
    out->total = root_x;
    nodes = NULL;
    rc = 0;
done:
    free(off);
    free(kids);
    free(newid);
    free(stack);
    free(nodes);
    return rc;
}

/* With `focus` (a canonical id, else SS_NONE) only the stacks that hold it
 * count, each from the focus on: read from the root, from its outermost
 * frame inward (what it calls); inverted, from its innermost frame outward
 * (what calls it), as tree.h's focused trees. */
static int build_aggregated(const struct ss_model *m, const double *stack_w, int inverted,
                            enum ss_flame_order order, ss_id focus, struct ss_flame *out)
{
    VEC(struct ss_flame_node) t = {0};
    struct ss_u64map map = {0};
    int rc = -1;
    for (size_t s = 0; s < ss_model_nstacks(m); s++) {
        double w = stack_w[s];
        size_t d = ss_stack_depth(m, (ss_id)s);
        if (!(w > 0) || d == 0)
            continue;
        const ss_id *fr = ss_stack_frames(m, (ss_id)s);
        size_t k0 = 0;
        if (focus != SS_NONE) {
            ss_id loc;
            while (k0 < d && frame_at(m, fr, d, k0, inverted, &loc) != focus)
                k0++;
            if (k0 == d)
                continue; /* the stack does not hold the focus */
        }
        uint32_t parent = SS_FLAME_NONE;
        for (size_t k = k0; k < d; k++) {
            ss_id loc, f = frame_at(m, fr, d, k, inverted, &loc);
            uint64_t key = ((uint64_t)(uint32_t)(parent + 1) << 32) | f;
            uint32_t next = (uint32_t)t.n;
            if (t.n >= SS_HASHTAB_MAX)
                goto done;
            uint32_t id = ss_u64map_intern(&map, key, next);
            if (id == SS_NONE)
                goto done;
            if (id == next) {
                struct ss_flame_node nd = {f, loc, parent, (uint32_t)(k - k0), 0, 0, 0, 0};
                if (VEC_PUSH(t, nd))
                    goto done;
            } else if (t.v[id].loc != loc) {
                t.v[id].loc = SS_NONE;
            }
            t.v[id].total += w;
            if (k + 1 == d)
                t.v[id].self += w;
            if (k - k0 + 1 > out->max_depth)
                out->max_depth = (uint32_t)(k - k0 + 1);
            parent = id;
        }
    }
    rc = layout(m, t.v, t.n, order, out);
done:
    VEC_FREE(t);
    ss_u64map_free(&map);
    return rc;
}

/* ---- the chart ----------------------------------------------------------- */

/* The samples of the chart in time order.  A sample is taken when it has
 * frames and a positive weight; a break of the timeline (a source boundary,
 * a gap, a sample with no frames) ends every open frame.  walk_next gives
 * the next sample that is taken or breaks, with `keep`: how many frames of
 * the path open before it go on (0 after a break; the length of the path
 * the two share otherwise).  fn/loc point to the current path (the last
 * taken sample's frames, root first or, inverted, leaf first): each
 * distinct stack's row of canonical functions and locations in that order
 * is made the first time a sample has it (rows, locs: laid out as the
 * model's stack_loc), so that comparing two paths reads two arrays. */
struct walk {
    const struct ss_model *m;
    const double *w;
    int inverted;
    size_t i, g, src;
    ss_id prev; /* the stack of the last sample taken, SS_NONE after a break */
    const ss_id *fn, *loc;
    ss_id *rows, *locs;
    uint8_t *made; /* per stack: its rows are made */
};

struct step {
    size_t i; /* the sample */
    size_t d; /* its depth; 0: a break that takes no sample */
    size_t keep;
    size_t lkeep; /* of those, how many have the same location too */
    int repeat;   /* the same stack as the sample before */
    double w;
};

static int walk_init(struct walk *k, const struct ss_model *m, const double *w, int inverted)
{
    memset(k, 0, sizeof *k);
    k->m = m;
    k->w = w;
    k->inverted = inverted;
    k->prev = SS_NONE;
    size_t nf = m->stack_loc.n ? m->stack_loc.n : 1, ns = ss_model_nstacks(m);
    k->rows = ss_alloc_array(nf, sizeof *k->rows);
    k->locs = ss_alloc_array(nf, sizeof *k->locs);
    k->made = calloc(ns ? ns : 1, 1);
    return k->rows && k->locs && k->made ? 0 : -1;
}

static void walk_free(struct walk *k)
{
    free(k->rows);
    free(k->locs);
    free(k->made);
}

/* Returns 1 with *st, 0 at the end. */
static int walk_next(struct walk *k, struct step *st)
{
    const struct ss_model *m = k->m;
    size_t n = m->sample_stack.n;
    for (; k->i < n; k->i++) {
        size_t i = k->i;
        int brk = 0;
        while (k->src < m->sources.n &&
               i >= m->sources.v[k->src].first_sample + m->sources.v[k->src].n_samples) {
            k->src++;
            brk = 1;
        }
        while (k->g < m->gaps.n && m->gaps.v[k->g] < i)
            k->g++;
        if (k->g < m->gaps.n && m->gaps.v[k->g] == i)
            brk = 1;
        ss_id s = m->sample_stack.v[i];
        size_t d = ss_stack_depth(m, s);
        double w = k->w[i];
        if (d == 0)
            brk = 1;
        if (!brk && !(w > 0))
            continue; /* no width: it neither shows nor ends a frame */
        k->i++;
        st->i = i;
        st->w = w;
        st->repeat = 0;
        if (d == 0 || !(w > 0)) { /* a break and nothing to show */
            k->prev = SS_NONE;
            st->d = st->keep = 0;
            return 1;
        }
        st->d = d;
        if (!brk && s == k->prev) {
            st->keep = st->lkeep = d;
            st->repeat = 1;
            return 1;
        }
        const ss_id *fr = ss_stack_frames(m, s);
        size_t off = (size_t)(fr - m->stack_loc.v);
        ss_id *row = k->rows + off, *lrow = k->locs + off;
        if (!k->made[s]) {
            for (size_t j = 0; j < d; j++)
                row[j] = frame_at(m, fr, d, j, k->inverted, &lrow[j]);
            k->made[s] = 1;
        }
        /* the path the two share: first where the locations are the same
         * (then so are the functions), then where the functions are */
        size_t keep = 0, lkeep = 0;
        if (!brk && k->prev != SS_NONE) {
            size_t pd = ss_stack_depth(m, k->prev), lim = pd < d ? pd : d;
            while (lkeep < lim && k->loc[lkeep] == lrow[lkeep])
                lkeep++;
            keep = lkeep;
            while (keep < lim && k->fn[keep] == row[keep])
                keep++;
        }
        k->fn = row;
        k->loc = lrow;
        st->keep = keep;
        st->lkeep = lkeep;
        k->prev = s;
        return 1;
    }
    return 0;
}

/* The weight of the taken samples: the chart's total, summed in the order
 * the build sums it (the same double). */
static double chart_total(const struct ss_model *m, const double *sample_w)
{
    double cum = 0;
    for (size_t i = 0; i < m->sample_stack.n; i++)
        if (sample_w[i] > 0 && ss_stack_depth(m, m->sample_stack.v[i]) > 0)
            cum += sample_w[i];
    return cum;
}

/* The grid: a frame is made only when a sample of it touches one of the
 * points x0 + (c + 0.5) * step, c < cols (a little generously, so that
 * rounding never loses a frame the screen would draw). */
struct grid_walk {
    double x0, step, eps;
    size_t c, cols;
    double pt; /* point c, while c < cols */
};

static int grid_touch(struct grid_walk *gw, double a, double b)
{
    while (gw->c < gw->cols && gw->pt < a - gw->eps)
        if (++gw->c < gw->cols)
            gw->pt = gw->x0 + ((double)gw->c + 0.5) * gw->step;
    return gw->c < gw->cols && gw->pt < b + gw->eps;
}

/* A frame of the open path: made into a node (`node`) only once one of its
 * samples touches the grid (at once without a grid). */
struct open_frame {
    ss_id function, loc;
    uint32_t node; /* SS_FLAME_NONE: not made */
    double x, self;
};

/* The chart being built: its nodes, the open path (open.v[0 .. nmade)
 * are nodes), and a zoom's path of np frames kept as they are. */
struct chart {
    VEC(struct ss_flame_node) t;
    VEC(struct open_frame) open;
    size_t nmade, nall, np;
};

static void grid_walk_init(struct grid_walk *gw, const struct ss_model *m, const double *sample_w,
                           const struct ss_flame_grid *grid)
{
    double w = grid->w > 0 ? grid->w : chart_total(m, sample_w);
    gw->x0 = grid->w > 0 ? grid->x0 : 0;
    gw->cols = grid->cols;
    gw->step = w / (double)grid->cols;
    gw->eps = gw->step * 1e-6;
    gw->pt = gw->x0 + 0.5 * gw->step;
}

/* A zoom with its path: those frames as they are, then the samples of the
 * zoom only, from its first (whose path starts with them): k moved there,
 * *cum the weight before it.  Returns 0 or -1 (out of memory). */
static int chart_zoom_start(struct chart *ch, struct walk *k, const struct ss_model *m,
                            const double *sample_w, const struct ss_flame_grid *grid, double *cum)
{
    for (; k->i < m->sample_stack.n; k->i++) {
        double v = sample_w[k->i];
        if (!(v > 0) || ss_stack_depth(m, m->sample_stack.v[k->i]) == 0)
            continue;
        if (*cum + v / 2 >= grid->x0)
            break;
        *cum += v;
    }
    size_t np = ch->np;
    if (VEC_RESERVE(ch->open, np) || VEC_RESERVE(ch->t, np))
        return -1;
    for (size_t j = 0; j < np; j++) {
        struct ss_flame_node nd = grid->path[j];
        nd.parent = j ? (uint32_t)(j - 1) : SS_FLAME_NONE;
        nd.depth = (uint32_t)j;
        ch->t.v[ch->t.n++] = nd;
        struct open_frame of = {nd.function, nd.loc, (uint32_t)j, nd.x, nd.self};
        ch->open.v[ch->open.n++] = of;
    }
    ch->nmade = np;
    return 0;
}

/* Close the open frames from depth keep on at cum: their totals, selves
 * and locations (the zoom's path frames too, once a sample leaves them). */
static void chart_close(struct chart *ch, size_t keep, double cum)
{
    for (size_t j = keep; j < ch->open.n; j++) {
        struct open_frame *of = &ch->open.v[j];
        if (of->node == SS_FLAME_NONE)
            break; /* and nothing deeper is made */
        struct ss_flame_node *nd = &ch->t.v[of->node];
        nd->end = (uint32_t)ch->t.n;
        nd->total = cum - of->x;
        nd->self = of->self;
        nd->loc = of->loc;
    }
    if (ch->open.n > keep)
        ch->open.n = keep;
    if (ch->nmade > keep)
        ch->nmade = keep;
}

/* Open the frames of step st from its keep on at cum, the walk's
 * functions and locations.  Returns 0 or -1 (out of memory). */
static int chart_open(struct chart *ch, const struct walk *k, const struct step *st, double cum)
{
    /* an open frame's location: SS_NONE once its samples differ there
     * (before lkeep they have the previous sample's) */
    for (size_t j = st->lkeep; j < st->keep; j++)
        if (ch->open.v[j].loc != k->loc[j])
            ch->open.v[j].loc = SS_NONE;
    if (VEC_RESERVE(ch->open, st->d))
        return -1;
    for (size_t j = st->keep; j < st->d; j++) {
        struct open_frame of = {k->fn[j], k->loc[j], SS_FLAME_NONE, cum, 0};
        ch->open.v[j] = of;
    }
    ch->open.n = st->d;
    ch->nall += st->d - st->keep; /* the frames this sample opens, made or not */
    return 0;
}

/* Make nodes of the open frames down to depth d.  Returns 0 or -1. */
static int chart_make(struct chart *ch, size_t d)
{
    if (ch->t.n + (d - ch->nmade) >= SS_HASHTAB_MAX ||
        VEC_RESERVE(ch->t, ch->t.n + (d - ch->nmade)))
        return -1;
    for (size_t j = ch->nmade; j < d; j++) {
        uint32_t parent = j ? ch->open.v[j - 1].node : SS_FLAME_NONE;
        struct ss_flame_node nd = {
            ch->open.v[j].function, ch->open.v[j].loc, parent, (uint32_t)j, 0, 0, 0,
            ch->open.v[j].x};
        ch->open.v[j].node = (uint32_t)ch->t.n;
        ch->t.v[ch->t.n++] = nd;
    }
    ch->nmade = d;
    return 0;
}

/* The chart's frames stay open while consecutive samples pass through
 * them, so a frame's total is the weight of the samples between its opening
 * and its closing: cum at the close less its x.  A sample costs the length
 * of the path it shares with the previous one plus the frames it opens
 * (nothing for a repeat of the previous stack), not its depth.  Frames are
 * made in time order, so creation order is pre-order; with a grid, the
 * frames that touch no grid point are never made, and a sample writes
 * nothing but the open path. */
static int build_chart(const struct ss_model *m, const double *sample_w, int inverted,
                       const struct ss_flame_grid *grid, struct ss_flame *out)
{
    struct chart ch;
    memset(&ch, 0, sizeof ch);
    struct walk k;
    struct step st;
    struct grid_walk gw = {0, 0, 0, 0, 0, 0};
    if (walk_init(&k, m, sample_w, inverted)) {
        walk_free(&k);
        return -1;
    }
    int grided = grid && grid->cols > 0;
    if (grided)
        grid_walk_init(&gw, m, sample_w, grid);
    double cum = 0, end = 0;
    ch.np = grid && grid->path && grid->w > 0 ? grid->npath : 0;
    if (ch.np) {
        out->total = chart_total(m, sample_w);
        end = grid->x0 + grid->w;
        if (chart_zoom_start(&ch, &k, m, sample_w, grid, &cum))
            goto oom;
    }
    while (walk_next(&k, &st)) {
        if (ch.np) {
            if (st.d == 0 || cum + st.w / 2 >= end)
                break;           /* the zoom's end */
            if (st.keep < ch.np) /* its first sample: the path goes on */
                st.keep = st.lkeep = ch.np;
        }
        chart_close(&ch, st.keep, cum);
        if (st.d == 0)
            continue;
        if (!st.repeat && chart_open(&ch, &k, &st, cum))
            goto oom;
        ch.open.v[st.d - 1].self += st.w;
        if (st.d > out->max_depth)
            out->max_depth = (uint32_t)st.d;
        double next = cum + st.w;
        if (ch.nmade < st.d && (!grided || grid_touch(&gw, cum, next)) && chart_make(&ch, st.d))
            goto oom;
        cum = next;
    }
    for (size_t j = 0; j < ch.nmade; j++) {
        struct ss_flame_node *nd = &ch.t.v[ch.open.v[j].node];
        nd->end = (uint32_t)ch.t.n;
        if (j < ch.np)
            continue; /* the path's frames as they were */
        nd->total = cum - ch.open.v[j].x;
        nd->self = ch.open.v[j].self;
        nd->loc = ch.open.v[j].loc;
    }
    VEC_FREE(ch.open);
    walk_free(&k);
    out->nodes = ch.t.v;
    out->n = ch.t.n;
    out->nframes = ch.np ? 0 : ch.nall;
    if (!ch.np)
        out->total = cum;
    return 0;
oom:
    VEC_FREE(ch.t);
    VEC_FREE(ch.open);
    walk_free(&k);
    return -1;
}

int ss_flame_chart_search(const struct ss_model *m, const double *sample_w, int inverted,
                          const uint8_t *fn_match, double x0, double w, uint32_t depth0,
                          double *hit, struct ss_error *err)
{
    /* which stacks hold a match at depth0 or deeper */
    size_t ns = ss_model_nstacks(m), n = m->sample_stack.n;
    uint8_t *has = ss_alloc_array(ns ? ns : 1, 1);
    if (!has)
        return ss_nomem(err, "flame chart search");
    for (size_t s = 0; s < ns; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        const ss_id *fr = ss_stack_frames(m, (ss_id)s);
        has[s] = 0;
        for (size_t j = depth0; j < d && !has[s]; j++) {
            ss_id loc;
            has[s] = fn_match[frame_at(m, fr, d, j, inverted, &loc)] != 0;
        }
    }
    /* the taken samples (frames and a weight) in the span, by their middle,
     * summed in the chart's order */
    double cum = 0, h = 0;
    for (size_t i = 0; i < n && w > 0; i++) {
        double v = sample_w[i];
        ss_id s = m->sample_stack.v[i];
        if (!(v > 0) || ss_stack_depth(m, s) == 0)
            continue;
        double mid = cum + v / 2;
        cum += v;
        if (mid >= x0 + w)
            break;
        if (mid >= x0 && has[s])
            h += v;
    }
    free(has);
    *hit = h;
    return 0;
}

int ss_flame_build(const struct ss_model *m, const double *stack_w, const double *sample_w,
                   const struct ss_flame_opts *o, struct ss_flame *out, struct ss_error *err)
{
    return ss_flame_build_grid(m, stack_w, sample_w, o, NULL, out, err);
}

int ss_flame_build_grid(const struct ss_model *m, const double *stack_w, const double *sample_w,
                        const struct ss_flame_opts *o, const struct ss_flame_grid *grid,
                        struct ss_flame *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    out->opts = *o;
    const double *w = o->time_order ? sample_w : stack_w;
    int use_index = o->time_order && grid && grid->cols > 0 && grid->index &&
                    ss_flame_index_fits(grid->index, sample_w, o->inverted);
    if (!w && !use_index && (o->time_order ? m->sample_stack.n : ss_model_nstacks(m)))
        return ss_fail(err, SS_EUSAGE, "flame graph: no weights given");
    int rc;
    if (use_index)
        rc = ss_flame_index_chart(m, grid->index, grid, out);
    else
        rc = o->time_order ? build_chart(m, sample_w, o->inverted, grid, out)
                           : build_aggregated(m, stack_w, o->inverted, o->order, SS_NONE, out);
    if (rc) {
        ss_flame_free(out);
        return ss_nomem(err, "flame graph");
    }
    out->opts = *o;
    if (!o->time_order)
        out->nframes = out->n;
    if (out->n == 0)
        out->max_depth = 0;
    return 0;
}

int ss_flame_build_focus(const struct ss_model *m, const double *stack_w,
                         const struct ss_flame_opts *o, ss_id focus, struct ss_flame *out,
                         struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    if (focus == SS_NONE || focus >= m->functions.n)
        return ss_fail(err, SS_EUSAGE, "flame graph: no function to focus on");
    if (!stack_w && ss_model_nstacks(m))
        return ss_fail(err, SS_EUSAGE, "flame graph: no weights given");
    if (build_aggregated(m, stack_w, o->inverted, o->order, ss_function_canonical(m, focus), out)) {
        ss_flame_free(out);
        return ss_nomem(err, "flame graph");
    }
    out->opts = *o;
    out->opts.time_order = 0;
    out->nframes = out->n;
    return 0;
}

/* ---- questions ------------------------------------------------------------ */

double ss_flame_search(const struct ss_model *m, const struct ss_flame *fl, uint32_t root,
                       const uint8_t *fn_match, uint8_t *match, size_t *nmatch, uint32_t *widest)
{
    (void)m;
    size_t a = root == SS_FLAME_NONE ? 0 : root;
    size_t b = root == SS_FLAME_NONE ? fl->n : fl->nodes[root].end;
    double hit = 0;
    size_t count = 0, cover = 0;
    uint32_t best = SS_FLAME_NONE;
    if (match)
        memset(match, 0, fl->n);
    for (size_t i = a; i < b; i++) {
        const struct ss_flame_node *nd = &fl->nodes[i];
        if (!fn_match[nd->function])
            continue;
        if (match)
            match[i] = 1;
        count++;
        if (best == SS_FLAME_NONE || nd->total > fl->nodes[best].total)
            best = (uint32_t)i;
        if (i >= cover) { /* not inside a match counted already */
            hit += nd->total;
            cover = nd->end;
        }
    }
    if (nmatch)
        *nmatch = count;
    if (widest)
        *widest = best;
    return hit;
}

int ss_flame_match_regex(const struct ss_model *m, const struct ss_regex *re, uint8_t *fn_match)
{
    for (size_t f = 0; f < m->functions.n; f++) {
        ss_id name = m->functions.v[f].name;
        int r = ss_regex_match(re, ss_str(m, name), ss_strtab_len(&m->strs, name), NULL);
        if (r < 0)
            return -1;
        fn_match[f] = r == 1;
    }
    return 0;
}

uint32_t ss_flame_at(const struct ss_flame *fl, uint32_t root, uint32_t depth, double x)
{
    size_t i = root == SS_FLAME_NONE ? 0 : root;
    size_t b = root == SS_FLAME_NONE ? fl->n : fl->nodes[root].end;
    while (i < b) {
        const struct ss_flame_node *nd = &fl->nodes[i];
        int inside = x >= nd->x && x < nd->x + nd->total;
        if (inside && nd->depth == depth)
            return (uint32_t)i;
        if (inside && nd->depth < depth)
            i++; /* look among its children */
        else
            i = nd->end;
    }
    return SS_FLAME_NONE;
}
