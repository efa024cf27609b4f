/* tree.c - call trees and callers/callees (see tree.h).
 *
 * Both analyses run in two steps.  First the structure is made from the
 * distinct stacks that have samples (a trie of paths for the trees; nothing
 * for the calls).  Then, source by source, each distinct stack's count in
 * that source is credited to its keys (the nodes on its path, or the
 * function's self/total/caller/callee slots) and every key touched in the
 * source is flushed as count x interval, the same summation as stats.c, so
 * times agree with the statistics to the last bit.
 */
#include "tree.h"

#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "hashtab.h"
#include "vec.h"

/* ---- shared helpers ------------------------------------------------------ */

/* Per-source accumulation of counts into keys: add() during a source,
 * flush() at its end turns the source's counts into count, time and exact
 * microseconds (the ordering key), as stats.c does per row. */
struct acc {
    uint64_t *src; /* this source's count per key */
    int64_t *wsrc; /* this source's summed weights (the measure) per key */
    uint8_t *on;   /* key touched in this source */
    uint64_t *n;   /* totals per key */
    double *time;  /* seconds */
    double *us;    /* microseconds, exact for integer intervals */
    VEC(uint32_t) touched;
    int oom;
};

static int acc_init(struct acc *a, size_t nkeys)
{
    memset(a, 0, sizeof *a);
    size_t k = nkeys ? nkeys : 1;
    a->src = ss_calloc_array(k, sizeof *a->src);
    a->wsrc = ss_calloc_array(k, sizeof *a->wsrc);
    a->on = calloc(k, 1);
    a->n = ss_calloc_array(k, sizeof *a->n);
    a->time = ss_calloc_array(k, sizeof *a->time);
    a->us = ss_calloc_array(k, sizeof *a->us);
    return a->src && a->wsrc && a->on && a->n && a->time && a->us ? 0 : -1;
}

static void acc_free(struct acc *a)
{
    free(a->src);
    free(a->wsrc);
    free(a->on);
    free(a->n);
    free(a->time);
    free(a->us);
    VEC_FREE(a->touched);
}

static inline void acc_add(struct acc *a, uint32_t k, uint64_t c, int64_t w)
{
    if (!a->on[k]) {
        if (VEC_PUSH(a->touched, k)) {
            a->oom = 1;
            return;
        }
        a->on[k] = 1;
    }
    a->src[k] += c;
    a->wsrc[k] += w;
}

/* scale, exact: the measure's value of one weight unit (model.h). */
static void acc_flush(struct acc *a, double scale, double exact)
{
    for (size_t t = 0; t < a->touched.n; t++) {
        uint32_t k = a->touched.v[t];
        a->n[k] += a->src[k];
        a->time[k] += (double)a->wsrc[k] * scale;
        a->us[k] += (double)a->wsrc[k] * exact;
        a->src[k] = 0;
        a->wsrc[k] = 0;
        a->on[k] = 0;
    }
    a->touched.n = 0;
}

/* Credit distinct stack `st`, with count c in the current source, to keys of
 * `a`; returns 1 when the stack takes part (counts in the total). */
typedef int (*credit_fn)(void *ctx, struct acc *a, ss_id st, uint64_t c, int64_t w);

/* Credit aggregate source src (no stacks) to keys of `a`; returns the count
 * of its samples that take part. */
typedef uint64_t (*credit_agg_fn)(void *ctx, struct acc *a, ss_id src);

/* For each source, count its samples per distinct stack, credit each stack
 * once and flush.  The count and time of the stacks that took part go to
 * *total_n and *total_v.  Returns 0 or -1 (out of memory). */
static int walk_sources(const struct ss_model *m, struct acc *a, credit_fn fn, credit_agg_fn agg,
                        void *ctx, uint64_t *total_n, double *total_v)
{
    struct ss_stack_counts sc;
    int oom = ss_stack_counts_init(&sc, m) != 0;
    *total_n = 0;
    *total_v = 0;
    for (size_t s = 0; !oom && s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        if (ss_stack_counts_source(&sc, m, (ss_id)s)) {
            oom = 1;
            break;
        }
        uint64_t counted = 0;
        int64_t weight = 0;
        if (agg && (src->flags & SS_SRC_AGGREGATE)) {
            counted = agg(ctx, a, (ss_id)s);
            weight = (int64_t)counted;
        }
        for (size_t t = 0; !oom && t < sc.n; t++) {
            ss_id st = sc.touched[t];
            if (fn(ctx, a, st, sc.cnt[st], sc.val[st])) {
                counted += sc.cnt[st];
                weight += sc.val[st];
            }
        }
        oom = oom || a->oom;
        acc_flush(a, ss_source_scale(m, s), ss_source_exact(m, s));
        *total_n += counted;
        *total_v += (double)weight * ss_source_scale(m, s);
    }
    ss_stack_counts_free(&sc);
    return oom ? -1 : 0;
}

/* Order of entries by time (larger first), then name, then function id. */
struct by_time {
    const struct ss_model *m;
    const double *us; /* time of entry k */
    const ss_id *fn;  /* function of entry k */
};

static int cmp_desc_name(const void *pa, const void *pb, void *ctx)
{
    const struct by_time *o = ctx;
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    double ua = o->us[a], ub = o->us[b];
    if (ua < ub)
        return 1;
    if (ua > ub)
        return -1;
    int c = strcmp(ss_function_name(o->m, o->fn[a]), ss_function_name(o->m, o->fn[b]));
    if (c)
        return c;
    return o->fn[a] < o->fn[b] ? -1 : o->fn[a] > o->fn[b];
}

/* ---- call trees ---------------------------------------------------------- */

struct tree_work {
    const struct ss_model *m;
    const ss_id *canon;
    struct ss_u64map map;           /* (parent << 32 | function) -> child node */
    VEC(struct ss_tree_node) nodes; /* in creation order: parents first */
    uint32_t *end_node;             /* per stack: node of its whole path */
};

/* The child of `parent` for function fn, created when absent; SS_TREE_NONE
 * when memory runs out. */
static uint32_t child(struct tree_work *w, uint32_t parent, ss_id fn)
{
    if (w->nodes.n >= UINT32_MAX - 1)
        return SS_TREE_NONE;
    uint32_t next = (uint32_t)w->nodes.n;
    uint32_t id = ss_u64map_intern(&w->map, (uint64_t)parent << 32 | fn, next);
    if (id != next)
        return id; /* an existing child, or SS_NONE (= SS_TREE_NONE) when out of memory */
    struct ss_tree_node nd;
    memset(&nd, 0, sizeof nd);
    nd.function = fn;
    nd.parent = parent;
    nd.depth = parent == SS_TREE_NONE ? 0 : w->nodes.v[parent].depth + 1;
    if (VEC_PUSH(w->nodes, nd))
        return SS_TREE_NONE;
    return id;
}

/* Insert the path of stack st (trimmed at the focus) and record its end
 * node; SS_TREE_NONE stays for a stack outside the tree.  Returns -1 on OOM. */
static int insert_stack(struct tree_work *w, ss_id st, int inverted, ss_id focus)
{
    size_t d = ss_stack_depth(w->m, st);
    const ss_id *fr = ss_stack_frames(w->m, st);
    if (d == 0)
        return 0;
    uint32_t node = SS_TREE_NONE;
    if (inverted && focus != SS_NONE) {
        /* What calls F: from F's innermost occurrence outward to the root. */
        size_t j = 0;
        while (j < d && w->canon[ss_loc_function(w->m, fr[j])] != focus)
            j++;
        if (j == d)
            return 0;
        for (size_t i = j; i < d; i++) {
            node = child(w, node, w->canon[ss_loc_function(w->m, fr[i])]);
            if (node == SS_TREE_NONE)
                return -1;
        }
        w->end_node[st] = node;
        return 0;
    }
    size_t k = d - 1; /* outermost frame of the path */
    if (focus != SS_NONE) {
        for (k = d; k > 0 && w->canon[ss_loc_function(w->m, fr[k - 1])] != focus; k--)
            ;
        if (k == 0)
            return 0;
        k--;
    }
    for (size_t i = 0; i <= k; i++) {
        ss_id loc = inverted ? fr[i] : fr[k - i];
        node = child(w, node, w->canon[ss_loc_function(w->m, loc)]);
        if (node == SS_TREE_NONE)
            return -1;
        if (!inverted && i > 0) /* 1: an inlined call seen, 2: another */
            w->nodes.v[node].inl |= w->m->locations.v[loc].flags & SS_LOC_INLINE ? 1 : 2;
    }
    w->end_node[st] = node;
    return 0;
}

/* Keys: 2 x node = self, 2 x node + 1 = total. */
static int credit_tree(void *ctx, struct acc *a, ss_id st, uint64_t c, int64_t wt)
{
    struct tree_work *w = ctx;
    uint32_t e = w->end_node[st];
    if (e == SS_TREE_NONE)
        return 0;
    acc_add(a, 2 * e, c, wt);
    for (uint32_t x = e; x != SS_TREE_NONE; x = w->nodes.v[x].parent)
        acc_add(a, 2 * x + 1, c, wt);
    return 1;
}

/* Sort siblings and store the nodes in pre-order into out->nodes. */
static int order_tree(struct tree_work *w, const struct acc *a, struct ss_tree *out)
{
    size_t n = w->nodes.n;
    const struct ss_tree_node *nd = w->nodes.v;
    /* Children lists in CSR by parent; slot n holds the roots. */
    uint32_t *off = ss_calloc_array(n + 2, sizeof *off);
    uint32_t *kids = ss_alloc_array(n, sizeof *kids);
    uint32_t *size = ss_alloc_array(n, sizeof *size);
    uint32_t *newidx = ss_alloc_array(n, sizeof *newidx);
    uint32_t *stack = ss_alloc_array(n, sizeof *stack);
    double *us = ss_alloc_array(n, sizeof *us);
    ss_id *fn = ss_alloc_array(n, sizeof *fn);
    struct ss_tree_node *res = ss_alloc_array(n, sizeof *res);
    int rc = -1;
    if (!off || !kids || !size || !newidx || !stack || !us || !fn || !res)
        goto done;
    for (size_t x = 0; x < n; x++) {
        size_t p = nd[x].parent == SS_TREE_NONE ? n : nd[x].parent;
        off[p + 1]++;
        us[x] = a->us[2 * x + 1];
        fn[x] = nd[x].function;
        size[x] = 1;
    }
    for (size_t p = 0; p <= n; p++)
        off[p + 1] += off[p];
    for (size_t x = 0; x < n; x++) {
        size_t p = nd[x].parent == SS_TREE_NONE ? n : nd[x].parent;
        kids[off[p]++] = (uint32_t)x;
    }
    for (size_t p = n + 1; p > 0; p--) /* shift back: off[p] = start of p */
        off[p] = off[p - 1];
    off[0] = 0;
    struct by_time order = {w->m, us, fn};
    for (size_t p = 0; p <= n; p++)
        if (off[p + 1] - off[p] > 1 &&
            ss_sort(kids + off[p], off[p + 1] - off[p], sizeof *kids, cmp_desc_name, &order))
            goto done;
    /* Parents are created before their children: sizes bottom-up. */
    for (size_t x = n; x > 0; x--)
        if (nd[x - 1].parent != SS_TREE_NONE)
            size[nd[x - 1].parent] += size[x - 1];
    /* Pre-order numbering with an explicit stack. */
    size_t sp = 0, next = 0;
    for (uint32_t j = off[n + 1]; j > off[n]; j--)
        stack[sp++] = kids[j - 1];
    while (sp > 0) {
        uint32_t x = stack[--sp];
        newidx[x] = (uint32_t)next++;
        for (uint32_t j = off[x + 1]; j > off[x]; j--)
            stack[sp++] = kids[j - 1];
    }
    for (size_t x = 0; x < n; x++) {
        struct ss_tree_node *r = &res[newidx[x]];
        *r = nd[x];
        r->parent = nd[x].parent == SS_TREE_NONE ? SS_TREE_NONE : newidx[nd[x].parent];
        r->self_n = a->n[2 * x];
        r->self_v = a->time[2 * x];
        r->total_n = a->n[2 * x + 1];
        r->total_v = a->time[2 * x + 1];
        r->end = newidx[x] + size[x];
        r->first_child = off[x + 1] > off[x] ? newidx[kids[off[x]]] : SS_TREE_NONE;
        r->next_sibling = SS_TREE_NONE;
        r->inl = nd[x].inl == 1 ? SS_INLINE_FULL : nd[x].inl == 3 ? SS_INLINE_PARTIAL : 0;
    }
    for (size_t p = 0; p <= n; p++)
        for (uint32_t j = off[p]; j + 1 < off[p + 1]; j++)
            res[newidx[kids[j]]].next_sibling = newidx[kids[j + 1]];
    out->nodes = res;
    out->n = n;
    out->first_root = n ? 0 : SS_TREE_NONE;
    res = NULL;
    rc = 0;
done:
    free(off);
    free(kids);
    free(size);
    free(newidx);
    free(stack);
    free(us);
    free(fn);
    free(res);
    return rc;
}

int ss_tree_build(const struct ss_model *m, int inverted, ss_id focus_function, struct ss_tree *out,
                  struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    out->first_root = SS_TREE_NONE;
    out->inverted = inverted;
    out->focus = SS_NONE;
    if (focus_function != SS_NONE && focus_function >= m->functions.n)
        return ss_fail(err, SS_EUSAGE, "call tree: no function %u", (unsigned)focus_function);
    size_t nstacks = ss_model_nstacks(m);
    struct tree_work w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.canon = m->function_canon.v;
    w.end_node = ss_alloc_array(nstacks, sizeof *w.end_node);
    unsigned char *used = ss_calloc_array(nstacks, 1);
    struct acc a;
    memset(&a, 0, sizeof a);
    int oom = !w.end_node || !used;
    ss_id focus = SS_NONE;
    if (!oom) {
        focus = focus_function == SS_NONE ? SS_NONE : w.canon[focus_function];
        out->focus = focus;
        for (size_t s = 0; s < nstacks; s++)
            w.end_node[s] = SS_TREE_NONE;
        for (size_t i = 0; i < m->sample_stack.n; i++)
            used[m->sample_stack.v[i]] = 1;
        for (size_t s = 0; !oom && s < nstacks; s++)
            if (used[s] && insert_stack(&w, (ss_id)s, inverted, focus))
                oom = 1;
    }
    if (!oom && w.nodes.n > (SIZE_MAX / 2) - 1)
        oom = 1;
    if (!oom && acc_init(&a, 2 * w.nodes.n))
        oom = 1;
    if (!oom && walk_sources(m, &a, credit_tree, NULL, &w, &out->total_n, &out->total_v))
        oom = 1;
    if (!oom && order_tree(&w, &a, out))
        oom = 1;
    free(w.end_node);
    free(used);
    ss_u64map_free(&w.map);
    VEC_FREE(w.nodes);
    acc_free(&a);
    if (oom) {
        ss_tree_free(out);
        return ss_nomem(err, "call tree");
    }
    return 0;
}

void ss_tree_free(struct ss_tree *t)
{
    free(t->nodes);
    memset(t, 0, sizeof *t);
    t->first_root = SS_TREE_NONE;
    t->focus = SS_NONE;
}

uint32_t *ss_tree_dfs_order(const struct ss_tree *t, size_t *n)
{
    *n = 0;
    if (t->n == 0)
        return NULL;
    uint32_t *order = ss_alloc_array(t->n, sizeof *order);
    if (!order) {
        *n = SIZE_MAX;
        return NULL;
    }
    for (size_t i = 0; i < t->n; i++)
        order[i] = (uint32_t)i;
    *n = t->n;
    return order;
}

/* ---- callers and callees ------------------------------------------------- */

/* Keys: 0 = self, 1 = total, 2 + f = caller f, 2 + nf + f = callee f. */
struct calls_work {
    const struct ss_model *m;
    const ss_id *canon;
    ss_id fn;
    size_t nf;
    uint64_t *stamp; /* per key: last credit that touched it */
    uint64_t now;
};

static void credit_once(struct calls_work *w, struct acc *a, uint32_t k, uint64_t c, int64_t wt)
{
    if (w->stamp[k] != w->now) {
        w->stamp[k] = w->now;
        acc_add(a, k, c, wt);
    }
}

static int credit_calls(void *ctx, struct acc *a, ss_id st, uint64_t c, int64_t wt)
{
    struct calls_work *w = ctx;
    size_t d = ss_stack_depth(w->m, st);
    const ss_id *fr = ss_stack_frames(w->m, st);
    int in = 0;
    w->now++;
    for (size_t k = 0; k < d; k++) {
        if (w->canon[ss_loc_function(w->m, fr[k])] != w->fn)
            continue;
        in = 1;
        if (k == 0)
            credit_once(w, a, 0, c, wt);
        credit_once(w, a, 1, c, wt);
        if (k + 1 < d)
            credit_once(w, a, (uint32_t)(2 + w->canon[ss_loc_function(w->m, fr[k + 1])]), c, wt);
        if (k > 0)
            credit_once(w, a, (uint32_t)(2 + w->nf + w->canon[ss_loc_function(w->m, fr[k - 1])]), c,
                        wt);
    }
    return in;
}

/* An aggregate source (SamplingProf) has counts per call element and
 * call-graph edges between elements: the function's self is the sum of its
 * elements' self counts, its total the sum of their totals, a caller's or
 * callee's count the sum over the edges between their elements; sums of
 * several elements may count a sample twice, so each is capped at the
 * source's sample count (as the statistics do). */
static uint64_t credit_calls_agg(void *ctx, struct acc *a, ss_id src)
{
    struct calls_work *w = ctx;
    const struct ss_model *m = w->m;
    uint64_t samples = 0;
    size_t first = a->touched.n;
    for (size_t i = 0; i < m->aggs.n; i++) {
        const struct ss_agg *g = &m->aggs.v[i];
        if (g->source != src)
            continue;
        samples += (uint64_t)g->self;
        if (w->canon[ss_loc_function(m, g->location)] != w->fn)
            continue;
        if (g->self)
            acc_add(a, 0, (uint64_t)g->self, g->self);
        if (g->total)
            acc_add(a, 1, (uint64_t)g->total, g->total);
    }
    for (size_t i = 0; i < m->edges.n; i++) {
        const struct ss_agg_edge *e = &m->edges.v[i];
        if (e->source != src || e->count == 0 || e->caller == SS_NONE)
            continue;
        ss_id from = w->canon[ss_loc_function(m, e->caller)];
        ss_id to = w->canon[ss_loc_function(m, e->callee)];
        if (to == w->fn)
            acc_add(a, (uint32_t)(2 + from), (uint64_t)e->count, e->count);
        if (from == w->fn)
            acc_add(a, (uint32_t)(2 + w->nf + to), (uint64_t)e->count, e->count);
    }
    for (size_t t = first; t < a->touched.n; t++)
        if (a->src[a->touched.v[t]] > samples) {
            a->src[a->touched.v[t]] = samples;
            a->wsrc[a->touched.v[t]] = (int64_t)samples;
        }
    return samples;
}

/* The edges among keys [base, base + nf) with a count, sorted; NULL with
 * *n == 0 when there are none; -1 on OOM. */
static int collect_edges(const struct calls_work *w, const struct acc *a, size_t base,
                         struct ss_edge **out, size_t *n)
{
    size_t cnt = 0;
    *out = NULL;
    *n = 0;
    for (size_t f = 0; f < w->nf; f++)
        cnt += a->n[base + f] != 0;
    if (cnt == 0)
        return 0;
    uint32_t *idx = ss_alloc_array(cnt, sizeof *idx);
    struct ss_edge *e = ss_alloc_array(cnt, sizeof *e);
    if (!idx || !e) {
        free(idx);
        free(e);
        return -1;
    }
    size_t j = 0;
    for (size_t f = 0; f < w->nf; f++)
        if (a->n[base + f] != 0)
            idx[j++] = (uint32_t)f;
    /* us of function f's key for ordering; fn of f is f itself */
    ss_id *fn = ss_alloc_array(w->nf, sizeof *fn);
    if (!fn) {
        free(idx);
        free(e);
        return -1;
    }
    for (size_t f = 0; f < w->nf; f++)
        fn[f] = (ss_id)f;
    struct by_time order = {w->m, a->us + base, fn};
    if (ss_sort(idx, cnt, sizeof *idx, cmp_desc_name, &order)) {
        free(idx);
        free(e);
        free(fn);
        return -1;
    }
    for (size_t i = 0; i < cnt; i++) {
        e[i].function = idx[i];
        e[i].n = a->n[base + idx[i]];
        e[i].time = a->time[base + idx[i]];
    }
    free(fn);
    free(idx);
    *out = e;
    *n = cnt;
    return 0;
}

int ss_calls_of(const struct ss_model *m, ss_id function, struct ss_calls *out,
                struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    out->function = SS_NONE;
    if (function == SS_NONE || function >= m->functions.n)
        return ss_fail(err, SS_EUSAGE, "calls: no function %u", (unsigned)function);
    struct calls_work w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.nf = m->functions.n;
    w.canon = m->function_canon.v;
    size_t nkeys = 2 + 2 * w.nf;
    w.stamp = ss_calloc_array(nkeys, sizeof *w.stamp);
    struct acc a;
    memset(&a, 0, sizeof a);
    int oom = !w.stamp || acc_init(&a, nkeys);
    uint64_t tn;
    double tt;
    if (!oom) {
        w.fn = w.canon[function];
        out->function = w.fn;
        oom = walk_sources(m, &a, credit_calls, credit_calls_agg, &w, &tn, &tt) != 0;
    }
    if (!oom) {
        out->self_n = a.n[0];
        out->self_v = a.time[0];
        out->total_n = a.n[1];
        out->total_v = a.time[1];
        oom = collect_edges(&w, &a, 2, &out->callers, &out->ncallers) ||
              collect_edges(&w, &a, 2 + w.nf, &out->callees, &out->ncallees);
    }
    free(w.stamp);
    acc_free(&a);
    if (oom) {
        ss_calls_free(out);
        return ss_nomem(err, "callers and callees");
    }
    return 0;
}

void ss_calls_free(struct ss_calls *c)
{
    free(c->callers);
    free(c->callees);
    memset(c, 0, sizeof *c);
    c->function = SS_NONE;
}
