/* compare_verdict.c - the verdicts of a comparison's tables (compare.h,
 * verdict.h): each side's units collected by the table's map of rows, then
 * every row tested and each quantity's p-values adjusted over the table. */
#include "compare_int.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "stats.h"
#include "threads.h"
#include "tree.h"

#define VAT(first, r, stride) ((struct ss_verdict *)(void *)((char *)(first) + (r) * (stride)))

static void untested(struct ss_verdict *v)
{
    v->lo = v->hi = v->p = v->q = v->mdc = NAN;
    v->sign = SS_V_SAME;
    v->pending = 0;
}

void ss_cmp_no_verdicts(void *vself, void *vtot, size_t nrows, size_t stride)
{
    for (size_t r = 0; r < nrows; r++) {
        if (vself)
            untested(VAT(vself, r, stride));
        if (vtot)
            untested(VAT(vtot, r, stride));
    }
}

/* One side's units, on a thread of its own when both sides are big. */
struct side_job {
    const struct ss_model *m;
    const struct ss_vmap *map;
    size_t nrows;
    int per_run, rc;
    const atomic_int *stop;
    struct ss_vside s;
    struct ss_error err;
};

static void *side_run(void *arg)
{
    struct side_job *j = arg;
    j->rc = ss_vside_compute_stop(j->m, j->map, j->nrows, j->per_run, j->stop, &j->s, &j->err);
    return NULL;
}

int ss_cmp_vsides(const struct ss_compare *c, const struct ss_vmap *mb, const struct ss_vmap *mn,
                  size_t nrows, int per_run, const atomic_int *stop, struct ss_vside *b,
                  struct ss_vside *n, struct ss_error *err)
{
    struct side_job jb;
    memset(&jb, 0, sizeof jb);
    jb.m = c->base;
    jb.map = mb;
    jb.nrows = nrows;
    jb.per_run = per_run;
    jb.stop = stop;
    ss_error_clear(&jb.err);
    pthread_t th;
    int threaded = c->base->sample_stack.n + c->cur->sample_stack.n >= 200000 &&
                   ss_threads(2) > 1 && pthread_create(&th, NULL, side_run, &jb) == 0;
    if (!threaded)
        side_run(&jb);
    int rc = ss_vside_compute_stop(c->cur, mn, nrows, per_run, stop, n, err);
    if (threaded)
        pthread_join(th, NULL);
    *b = jb.s;
    if (jb.rc && rc != jb.rc && (!rc || rc == SS_VSIDE_STOPPED)) {
        if (jb.rc != SS_VSIDE_STOPPED)
            *err = jb.err;
        rc = jb.rc;
    }
    if (rc) {
        ss_vside_free(b);
        ss_vside_free(n);
    }
    return rc;
}

int ss_cmp_verdicts(const struct ss_compare *c, const struct ss_vmap *mb, const struct ss_vmap *mn,
                    size_t nrows, void *vself, void *vtot, size_t stride, struct ss_cmp_vinfo *info,
                    struct ss_error *err)
{
    memset(info, 0, sizeof *info);
    info->alpha = c->alpha;
    info->rows = nrows;
    info->files_b = ss_vside_files(c->base);
    info->files_n = ss_vside_files(c->cur);
    int per_run = info->files_b >= 2 && info->files_n >= 2;
    struct ss_vside b, n;
    memset(&b, 0, sizeof b);
    memset(&n, 0, sizeof n);
    int rc = c->vsides ? c->vsides(c->vctx, c, mb, mn, nrows, per_run, &b, &n, err)
                       : ss_cmp_vsides(c, mb, mn, nrows, per_run, NULL, &b, &n, err);
    if (rc == SS_VSIDES_PENDING) { /* not ready: the rows untested for now */
        ss_cmp_no_verdicts(vself, vtot, nrows, stride);
        for (size_t r = 0; r < nrows; r++) {
            if (vself)
                VAT(vself, r, stride)->pending = 1;
            if (vtot)
                VAT(vtot, r, stride)->pending = 1;
        }
        info->pending = 1;
        return 0;
    }
    if (rc)
        return rc;
    for (int q = 0; q < 2; q++) {
        void *first = q ? vtot : vself;
        int have = q || (b.self && n.self);
        for (size_t r = 0; first && r < nrows; r++) {
            if (have)
                ss_verdict_row(&b, &n, (uint32_t)r, !q, n.total, c->alpha, VAT(first, r, stride));
            else
                untested(VAT(first, r, stride));
        }
        if (first && !rc && ss_verdict_adjust(first, nrows, stride, c->alpha))
            rc = ss_nomem(err, "verdicts");
    }
    info->done = !rc;
    info->across_runs = b.run_total && n.run_total;
    ss_verdict_method(&b, &n, info->method, sizeof info->method);
    ss_vside_free(&b);
    ss_vside_free(&n);
    return rc;
}

/* ---- functions and lines ---------------------------------------------------- */

/* The row of every location of m in s (by function: its function's name;
 * by line: its `basename#line` key), from each key's row (row_of_key). */
static uint32_t *rows_of_locs(const struct ss_model *m, enum ss_stats_key by,
                              const struct ss_cmp_stats *s, const uint32_t *row_of_key, size_t nk)
{
    size_t nl = m->locations.n, nf = m->functions.n;
    uint32_t *rol = ss_alloc_array(nl, sizeof *rol);
    uint32_t *fn_row = by == SS_BY_FUNCTION ? ss_alloc_array(nf, sizeof *fn_row) : NULL;
    if (!rol || (by == SS_BY_FUNCTION && !fn_row)) {
        free(rol);
        free(fn_row);
        return NULL;
    }
    for (size_t f = 0; fn_row && f < nf; f++) {
        const char *name = ss_function_name(m, (ss_id)f);
        ss_id k = ss_strtab_find(&s->keys, name, strlen(name));
        fn_row[f] = k < nk ? row_of_key[k] : SS_VROW_NONE;
    }
    char buf[4096];
    for (size_t l = 0; l < nl; l++) {
        if (fn_row) { /* a position alone (an Rprof stack's tail) has no function */
            ss_id f = ss_loc_function(m, (ss_id)l);
            rol[l] = f == SS_NONE ? SS_VROW_NONE : fn_row[f];
            continue;
        }
        size_t fl, len = ss_stats_line_key(m, (ss_id)l, buf, sizeof buf, &fl);
        ss_id k = len ? ss_strtab_find(&s->keys, buf, len) : SS_NONE;
        rol[l] = k < nk ? row_of_key[k] : SS_VROW_NONE;
    }
    free(fn_row);
    return rol;
}

int ss_cmp_stats_verdicts(const struct ss_compare *c, enum ss_stats_key by, struct ss_cmp_stats *s,
                          struct ss_error *err)
{
    size_t nk = s->keys.n;
    uint32_t *row_of_key = ss_alloc_array(nk, sizeof *row_of_key);
    if (!row_of_key)
        return ss_nomem(err, "verdicts");
    for (size_t k = 0; k < nk; k++)
        row_of_key[k] = SS_VROW_NONE;
    for (size_t r = 0; r < s->n; r++)
        row_of_key[s->rows[r].key] = (uint32_t)r;
    ss_id nl = ss_strtab_find(&s->keys, "<no location>", 13);
    uint32_t none = by == SS_BY_LINE && nl < nk ? row_of_key[nl] : SS_VROW_NONE;
    struct ss_vmap map[2];
    memset(map, 0, sizeof map);
    int rc = 0;
    for (int side = 0; side < 2 && !rc; side++) {
        const struct ss_model *m = side ? c->cur : c->base;
        uint32_t *rol = rows_of_locs(m, by, s, row_of_key, nk);
        rc = rol ? ss_vmap_frames(m, rol, by == SS_BY_LINE, none, &map[side], err)
                 : ss_nomem(err, "verdicts");
        free(rol);
    }
    free(row_of_key);
    if (!rc)
        rc = ss_cmp_verdicts(c, &map[0], &map[1], s->n, s->n ? &s->rows[0].vself : NULL,
                             s->n ? &s->rows[0].vtotal : NULL, sizeof *s->rows, &s->vinfo, err);
    ss_vmap_free(&map[0]);
    ss_vmap_free(&map[1]);
    return rc;
}

/* ---- the stacks' trie ------------------------------------------------------------ */

int ss_cmp_trie_add(struct ss_cmp_trie *t, const ss_id *fns, size_t n, uint32_t row)
{
    uint32_t node = SS_VROW_NONE;
    for (size_t k = 0; k < n; k++) {
        uint64_t key = ((uint64_t)(uint32_t)(node + 1) << 32) | fns[k];
        uint32_t next = (uint32_t)t->parent.n;
        uint32_t got = ss_u64map_intern(&t->child, key, next);
        if (got == SS_NONE)
            return -1;
        if (got == next && (VEC_PUSH(t->parent, node) || VEC_PUSH(t->fn, fns[k]) ||
                            VEC_PUSH(t->row, SS_VROW_NONE)))
            return -1;
        node = got;
    }
    if (node != SS_VROW_NONE)
        t->row.v[node] = row;
    return 0;
}

int ss_cmp_trie_map(const struct ss_model *m, const struct ss_cmp_trie *t, struct ss_vmap *map,
                    struct ss_error *err)
{
    int rc = ss_vmap_paths(m, t->parent.n, t->parent.v, t->fn.v, t->row.v, 0, SS_NONE, map, err);
    /* a stack's row is the whole path's: no row of a prefix is its */
    if (!rc) {
        memset(map->off, 0, (map->nclass + 1) * sizeof *map->off);
        free(map->upto);
        free(map->uoff);
        map->upto = map->uoff = NULL;
    }
    return rc;
}

void ss_cmp_trie_free(struct ss_cmp_trie *t)
{
    VEC_FREE(t->parent);
    VEC_FREE(t->fn);
    VEC_FREE(t->row);
    ss_u64map_free(&t->child);
}

/* ---- trees ------------------------------------------------------------------------ */

int ss_cmp_tree_map(const struct ss_model *m, const struct ss_tree *t, const uint32_t *row_of_node,
                    int inverted, ss_id focus, struct ss_vmap *map, struct ss_error *err)
{
    size_t n = t ? t->n : 0;
    uint32_t *parent = ss_alloc_array(n, sizeof *parent);
    ss_id *fn = ss_alloc_array(n, sizeof *fn);
    int rc = parent && fn ? 0 : ss_nomem(err, "verdicts");
    for (size_t i = 0; !rc && i < n; i++) {
        parent[i] = t->nodes[i].parent;
        fn[i] = t->nodes[i].function;
    }
    if (!rc)
        rc = ss_vmap_paths(m, n, parent, fn, row_of_node, inverted, focus, map, err);
    free(parent);
    free(fn);
    return rc;
}

int ss_compare_tree_verdicts(const struct ss_compare *c, int inverted, const char *focus,
                             const struct ss_tree *t, struct ss_verdict *vself,
                             struct ss_verdict *vtotal, struct ss_cmp_vinfo *info,
                             struct ss_error *err)
{
    memset(info, 0, sizeof *info);
    if (c->no_verdicts) {
        ss_cmp_no_verdicts(vself, vtotal, t->n, sizeof *vself);
        return 0;
    }
    ss_id fb = focus ? ss_model_find_function(c->base, focus) : SS_NONE;
    struct ss_tree bt;
    memset(&bt, 0, sizeof bt);
    int rc = focus && fb == SS_NONE ? 0 : ss_tree_build(c->base, inverted, fb, &bt, err);
    if (rc)
        return rc;
    /* rows: t's nodes; a base node is the row of t's node with its path */
    uint32_t *brow = ss_alloc_array(bt.n, sizeof *brow), *nrow = ss_alloc_array(t->n, sizeof *nrow);
    struct ss_u64map child = {0};
    rc = brow && nrow && !ss_u64map_reserve(&child, t->n) ? 0 : -1;
    for (size_t i = 0; !rc && i < t->n; i++) {
        nrow[i] = (uint32_t)i;
        const char *name = ss_function_name(c->cur, t->nodes[i].function);
        ss_id f = ss_model_find_function(c->base, name);
        uint64_t key = ((uint64_t)(uint32_t)(t->nodes[i].parent + 1) << 32) |
                       (f == SS_NONE ? SS_NONE : ss_function_canonical(c->base, f));
        rc = f != SS_NONE && ss_u64map_intern(&child, key, (uint32_t)i) == SS_NONE;
    }
    for (size_t i = 0; !rc && i < bt.n; i++) {
        uint32_t p = bt.nodes[i].parent, pr = p == SS_TREE_NONE ? SS_TREE_NONE : brow[p];
        brow[i] = SS_VROW_NONE;
        if (p != SS_TREE_NONE && pr == SS_VROW_NONE)
            continue;
        brow[i] =
            ss_u64map_get(&child, ((uint64_t)(uint32_t)(pr + 1) << 32) | bt.nodes[i].function);
    }
    struct ss_vmap mb, mn;
    memset(&mb, 0, sizeof mb);
    memset(&mn, 0, sizeof mn);
    if (rc)
        rc = ss_nomem(err, "verdicts");
    if (!rc)
        rc = ss_cmp_tree_map(c->base, focus && fb == SS_NONE ? NULL : &bt, brow, inverted, bt.focus,
                             &mb, err);
    if (!rc)
        rc = ss_cmp_tree_map(c->cur, t, nrow, inverted, t->focus, &mn, err);
    if (!rc)
        rc = ss_cmp_verdicts(c, &mb, &mn, t->n, vself, vtotal, sizeof *vself, info, err);
    ss_vmap_free(&mb);
    ss_vmap_free(&mn);
    ss_u64map_free(&child);
    free(brow);
    free(nrow);
    ss_tree_free(&bt);
    return rc;
}

/* ---- flame graphs -------------------------------------------------------------------- */

/* The map of m's stacks onto flame graph fl's frames, frame i row[i]. */
static int flame_map(const struct ss_model *m, const struct ss_flame *fl, const uint32_t *row,
                     ss_id focus, struct ss_vmap *map, struct ss_error *err)
{
    uint32_t *parent = ss_alloc_array(fl->n, sizeof *parent);
    ss_id *fn = ss_alloc_array(fl->n, sizeof *fn);
    int rc = parent && fn ? 0 : ss_nomem(err, "verdicts");
    for (size_t i = 0; !rc && i < fl->n; i++) {
        parent[i] = fl->nodes[i].parent;
        fn[i] = fl->nodes[i].function;
    }
    if (!rc)
        rc = ss_vmap_paths(m, fl->n, parent, fn, row, fl->opts.inverted, focus, map, err);
    free(parent);
    free(fn);
    return rc;
}

int ss_cmp_flame_verdicts(const struct ss_compare *c, const struct ss_flame *bf,
                          const uint32_t *brow, const struct ss_flame *fl, size_t nrows,
                          const ss_id *focus, struct ss_cmp_fverdicts *fv, struct ss_error *err)
{
    memset(fv, 0, sizeof *fv);
    uint32_t *nrow = ss_alloc_array(fl->n, sizeof *nrow);
    fv->v = ss_calloc_array(nrows, sizeof *fv->v);
    if (!nrow || !fv->v) {
        free(nrow);
        ss_cmp_fverdicts_free(fv);
        return ss_nomem(err, "verdicts");
    }
    for (size_t i = 0; i < fl->n; i++)
        nrow[i] = (uint32_t)i;
    struct ss_vmap mb, mn;
    memset(&mb, 0, sizeof mb);
    memset(&mn, 0, sizeof mn);
    /* an empty base graph (no focus there) has a zeroed flame: no frames */
    struct ss_flame_opts o = fl->opts;
    struct ss_flame b = *bf;
    b.opts = o;
    int rc = flame_map(c->base, &b, brow, focus[0], &mb, err);
    if (!rc)
        rc = flame_map(c->cur, fl, nrow, focus[1], &mn, err);
    if (!rc)
        rc = ss_cmp_verdicts(c, &mb, &mn, nrows, NULL, fv->v, sizeof *fv->v, &fv->info, err);
    fv->n = nrows;
    ss_vmap_free(&mb);
    ss_vmap_free(&mn);
    free(nrow);
    if (rc)
        ss_cmp_fverdicts_free(fv);
    return rc;
}

void ss_cmp_fverdicts_free(struct ss_cmp_fverdicts *fv)
{
    free(fv->v);
    memset(fv, 0, sizeof *fv);
}
