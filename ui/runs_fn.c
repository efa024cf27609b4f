/* runs_fn.c - one function's run-length table (see runs_fn.h). */
#include "runs_fn.h"

#include <stdlib.h>
#include <string.h>

/* `count` finished runs of length `len` at `level`. */
struct run {
    uint32_t level;
    uint64_t len, count;
};

#define DENSE 64 /* runs shorter than this are counted in a dense array */

struct acc {
    uint64_t *dense; /* (maxd + 1) x DENSE counts: dense[level * DENSE + len] */
    struct run *v;   /* the longer runs, one entry each, then everything */
    size_t n, cap;
    int oom;
};

static void push(struct acc *a, uint32_t level, uint64_t len, uint64_t count)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 256;
        struct run *nv = realloc(a->v, cap * sizeof *nv);
        if (!nv) {
            a->oom = 1;
            return;
        }
        a->v = nv;
        a->cap = cap;
    }
    a->v[a->n].level = level;
    a->v[a->n].len = len;
    a->v[a->n].count = count;
    a->n++;
}

static inline void add_run(struct acc *a, uint32_t level, uint64_t len)
{
    if (len < DENSE)
        a->dense[(size_t)level * DENSE + len]++;
    else
        push(a, level, len, 1);
}

static int cmp_run(const void *pa, const void *pb)
{
    const struct run *a = pa, *b = pb;
    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

/* The function at level k (1 = root) of stack s, which has depth d. */
static inline ss_id fn_at(const struct ss_model *m, ss_id s, size_t d, size_t k)
{
    return ss_function_canonical(m, ss_loc_function(m, ss_stack_frames(m, s)[d - k]));
}

/* Turn the finished runs into the table. */
static int table(struct acc *a, uint32_t maxd, struct ss_run_hist *h)
{
    for (uint32_t l = 0; l <= maxd; l++)
        for (uint64_t len = 0; len < DENSE; len++)
            if (a->dense[(size_t)l * DENSE + len])
                push(a, l, len, a->dense[(size_t)l * DENSE + len]);
    if (a->oom)
        return -1;
    if (a->n == 0)
        return 0;
    qsort(a->v, a->n, sizeof *a->v, cmp_run);
    /* merge equal (level, length) entries */
    size_t m = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (m && a->v[m - 1].level == a->v[i].level && a->v[m - 1].len == a->v[i].len)
            a->v[m - 1].count += a->v[i].count;
        else
            a->v[m++] = a->v[i];
    }
    a->n = m;
    size_t nlev = 0;
    for (size_t i = 0; i < a->n; i++)
        if (i == 0 || a->v[i].level != a->v[i - 1].level)
            nlev++;
    uint64_t *lens = malloc(a->n * sizeof *lens);
    h->levels = malloc(nlev * sizeof *h->levels);
    h->level_runs = calloc(nlev, sizeof *h->level_runs);
    if (!lens || !h->levels || !h->level_runs) {
        free(lens);
        return -1;
    }
    for (size_t i = 0; i < a->n; i++)
        lens[i] = a->v[i].len;
    qsort(lens, a->n, sizeof *lens, cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < a->n; i++)
        if (u == 0 || lens[u - 1] != lens[i])
            lens[u++] = lens[i];
    h->lengths = lens;
    h->n_levels = nlev;
    h->n_lengths = u;
    h->counts = calloc(nlev * u, sizeof *h->counts);
    h->length_runs = calloc(u, sizeof *h->length_runs);
    if (!h->counts || !h->length_runs)
        return -1;
    size_t li = 0, col = 0;
    for (size_t i = 0; i < a->n; i++) {
        if (i > 0 && a->v[i].level != a->v[i - 1].level) {
            li++;
            col = 0;
        }
        h->levels[li] = a->v[i].level;
        while (h->lengths[col] != a->v[i].len)
            col++; /* runs and columns both ascend within a level */
        uint64_t c = a->v[i].count;
        h->counts[li * u + col] += c;
        h->level_runs[li] += c;
        h->length_runs[col] += c;
        h->total += c;
    }
    return 0;
}

int ui_runs_fn_hist(const struct ss_model *m, ss_id function, struct ss_run_hist *h)
{
    memset(h, 0, sizeof *h);
    function = ss_function_canonical(m, function);
    h->function = function;
    size_t nstacks = ss_model_nstacks(m);
    /* per stack: the levels (ascending) where the function is */
    uint32_t *off = malloc((nstacks + 1) * sizeof *off);
    uint32_t maxd = 0;
    if (!off)
        return -1;
    size_t total = 0;
    for (size_t s = 0; s < nstacks; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        if (d > maxd)
            maxd = (uint32_t)d;
        off[s] = (uint32_t)total;
        for (size_t k = 1; k <= d; k++)
            total += fn_at(m, (ss_id)s, d, k) == function;
    }
    off[nstacks] = (uint32_t)total;
    uint32_t *lev = malloc((total ? total : 1) * sizeof *lev);
    uint64_t *start = malloc(((size_t)maxd + 1) * sizeof *start);
    uint8_t *open = calloc((size_t)maxd + 1, 1); /* open[k]: a run at level k goes on */
    struct acc a = {NULL, NULL, 0, 0, 0};
    a.dense = calloc(((size_t)maxd + 1) * DENSE, sizeof *a.dense);
    int rc = -1;
    if (!lev || !start || !open || !a.dense)
        goto done;
    for (size_t s = 0, j = 0; s < nstacks; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        for (size_t k = 1; k <= d; k++)
            if (fn_at(m, (ss_id)s, d, k) == function)
                lev[j++] = (uint32_t)k;
    }
    for (size_t src = 0; src < m->sources.n; src++) {
        size_t i0 = m->sources.v[src].first_sample, i1 = i0 + m->sources.v[src].n_samples;
        ss_id prev = SS_NONE;
        uint64_t pos = 0;
        for (size_t i = i0; i < i1; i++) {
            ss_id st = m->sample_stack.v[i];
            int64_t c = ss_sample_count(m, i);
            uint64_t w = c > 0 ? (uint64_t)c : 0;
            if (st == prev) {
                pos += w;
                continue;
            }
            uint32_t pa = prev == SS_NONE ? 0 : off[prev], pb = prev == SS_NONE ? 0 : off[prev + 1];
            uint32_t sa = off[st], sb = off[st + 1];
            if (pa == pb && sa == sb) { /* no runs of the function on either side */
                prev = st;
                pos += w;
                continue;
            }
            /* the common root-first prefix, as far as the function's levels go */
            size_t dp = prev == SS_NONE ? 0 : ss_stack_depth(m, prev), ds = ss_stack_depth(m, st);
            size_t need = 0;
            if (pb > pa)
                need = lev[pb - 1];
            if (sb > sa && lev[sb - 1] > need)
                need = lev[sb - 1];
            size_t lim = need < dp ? need : dp;
            if (ds < lim)
                lim = ds;
            size_t cp = 0;
            while (cp < lim && fn_at(m, prev, dp, cp + 1) == fn_at(m, st, ds, cp + 1))
                cp++;
            /* runs of the previous stack beyond the common prefix end */
            for (uint32_t x = pa; x < pb; x++)
                if (lev[x] > cp) {
                    add_run(&a, lev[x], pos - start[lev[x]]);
                    open[lev[x]] = 0;
                }
            /* the new stack's levels: runs within the prefix go on, others start */
            for (uint32_t x = sa; x < sb; x++)
                if (!open[lev[x]]) {
                    open[lev[x]] = 1;
                    start[lev[x]] = pos;
                }
            prev = st;
            pos += w;
        }
        /* a source boundary ends every run */
        if (prev != SS_NONE)
            for (uint32_t x = off[prev]; x < off[prev + 1]; x++) {
                add_run(&a, lev[x], pos - start[lev[x]]);
                open[lev[x]] = 0;
            }
    }
    rc = a.oom ? -1 : table(&a, maxd, h);
done:
    free(a.dense);
    free(off);
    free(lev);
    free(start);
    free(open);
    free(a.v);
    if (rc)
        ss_run_hist_free(h);
    return rc;
}
