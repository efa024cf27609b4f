/* runs.c - run lengths per (function, level) (see runs.h).
 *
 * Each distinct (function, level) pair gets a dense "slot" id, and every
 * distinct stack gets, once, the root-first list of its slots.  Two stacks
 * share levels 1..k exactly when their first k slots are equal, so the pass
 * over the timeline compares slot ids root-first with the previous sample's
 * stack: runs above the common prefix end, new ones start.  Run starts are
 * positions on a running sum of counts, so a sample with the same stack as
 * the previous one (the common case) costs O(1), and a run's length is
 * "position now - position at its start".
 *
 * Lengths go to a histogram per slot: a dense array for the short lengths
 * that deep levels produce by the million, a hash map (slot, length) ->
 * count for the rest.  Statistics and the sprof table are read off the
 * sorted histograms, so memory does not grow with the number of runs.
 */
#include "runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hashtab.h"
#include "sort.h"
#include "vec.h"
#include "num.h"

#define SMALL 16 /* lengths 1..SMALL are counted in the dense array */

struct slot {
    ss_id function;
    uint32_t level;
};

/* One hash-map entry: `count` runs of length `len` in slot `slot`. */
struct big_entry {
    uint64_t len, count;
    uint32_t slot;
};

/* A histogram bin: `count` runs of length `len`. */
struct bin {
    uint64_t len, count;
};

struct pass {
    const struct ss_model *m;
    VEC(struct slot) slots;
    uint32_t *slot_rf;         /* indexed like stack_loc: slot of level k+1 at stack_off[s] + k */
    uint64_t *small;           /* slots.n x SMALL: small[slot * SMALL + len - 1] */
    VEC(struct big_entry) big; /* the map's entries, in first-seen order */
    struct ss_idset big_index; /* (slot, len) -> entry of big (hashtab.h) */
    int oom;
    const atomic_int *stop; /* set by another thread: give up (ss_runs_compute_stop) */
    int stopped;
    /* the result: slot s has bins[off[s] .. off[s+1]), by ascending length */
    size_t *off;
    VEC(struct bin) bins;
};

static void pass_free(struct pass *p)
{
    VEC_FREE(p->slots);
    free(p->slot_rf);
    free(p->small);
    VEC_FREE(p->big);
    ss_idset_free(&p->big_index);
    free(p->off);
    VEC_FREE(p->bins);
}

/* ---- slots ------------------------------------------------------------------ */

/* Give every (function, level) of every distinct stack a slot and fill
 * slot_rf.  Stacks are visited deepest first per level (a counting sort by
 * depth), so level k touches only the stacks that reach it. */
static int assign_slots(struct pass *p, size_t *maxdepth)
{
    const struct ss_model *m = p->m;
    size_t nstacks = ss_model_nstacks(m), nfun = m->functions.n, maxd = 0;
    for (size_t s = 0; s < nstacks; s++)
        if (ss_stack_depth(m, (ss_id)s) > maxd)
            maxd = ss_stack_depth(m, (ss_id)s);
    *maxdepth = maxd;
    p->slot_rf = ss_alloc_array(m->stack_loc.n, sizeof *p->slot_rf);
    ss_id *order = ss_alloc_array(nstacks, sizeof *order);
    size_t *first = ss_calloc_array(maxd + 2, sizeof *first);
    uint32_t *stamp = ss_calloc_array(nfun, sizeof *stamp);
    uint32_t *slot_of = ss_alloc_array(nfun, sizeof *slot_of);
    int rc = -1;
    if (!p->slot_rf || !order || !first || !stamp || !slot_of)
        goto done;
    for (size_t s = 0; s < nstacks; s++)
        first[maxd - ss_stack_depth(m, (ss_id)s) + 1]++;
    for (size_t k = 1; k <= maxd + 1; k++)
        first[k] += first[k - 1];
    for (size_t s = 0; s < nstacks; s++)
        order[first[maxd - ss_stack_depth(m, (ss_id)s)]++] = (ss_id)s;
    /* now the stacks with depth >= k are order[0 .. first[maxd - k]) */
    for (size_t k = 1; k <= maxd; k++) {
        for (size_t j = 0, end = first[maxd - k]; j < end; j++) {
            ss_id s = order[j];
            size_t d = ss_stack_depth(m, s);
            ss_id f = ss_function_canonical(m, ss_loc_function(m, ss_stack_frames(m, s)[d - k]));
            if (stamp[f] != (uint32_t)k) {
                struct slot sl = {f, (uint32_t)k};
                if (p->slots.n >= SS_NONE || VEC_PUSH(p->slots, sl))
                    goto done;
                stamp[f] = (uint32_t)k;
                slot_of[f] = (uint32_t)(p->slots.n - 1);
            }
            p->slot_rf[m->stack_off.v[s] + k - 1] = slot_of[f];
        }
    }
    p->small = ss_calloc_array(p->slots.n * SMALL, sizeof *p->small);
    rc = p->small ? 0 : -1;
done:
    free(order);
    free(first);
    free(stamp);
    free(slot_of);
    return rc;
}

/* ---- the length histogram ----------------------------------------------------- */

static size_t big_hash(uint32_t slot, uint64_t len)
{
    return (size_t)ss_mix64(len * 0x9e3779b97f4a7c15ULL ^ slot);
}

static int big_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct pass *p = ctx;
    const struct big_entry *e = &p->big.v[id], *k = key;
    return e->slot == k->slot && e->len == k->len;
}

/* Count one run of length `len` in slot `slot`. */
static void emit(struct pass *p, uint32_t slot, uint64_t len)
{
    if (len - 1 < SMALL) { /* 1 <= len <= SMALL (len 0 wraps around) */
        p->small[(size_t)slot * SMALL + (len - 1)]++;
        return;
    }
    /* Room for a new entry first: the set never holds an id without one. */
    if (VEC_RESERVE(p->big, p->big.n + 1)) {
        p->oom = 1;
        return;
    }
    struct big_entry k = {len, 1, slot};
    uint32_t next = (uint32_t)p->big.n;
    uint32_t e = ss_idset_intern(&p->big_index, big_hash(slot, len), big_eq, p, &k, next);
    if (e == SS_NONE)
        p->oom = 1;
    else if (e == next)
        p->big.v[p->big.n++] = k;
    else
        p->big.v[e].count++;
}

/* ---- the pass over the timeline ------------------------------------------------- */

static void scan(struct pass *p, uint64_t *start)
{
    const struct ss_model *m = p->m;
    const uint32_t *off = m->stack_off.v;
    for (size_t src = 0; src < m->sources.n && !p->oom; src++) {
        if (m->sources.v[src].flags & SS_SRC_UNORDERED)
            continue; /* no time order, no runs */
        size_t i0 = m->sources.v[src].first_sample, i1 = i0 + m->sources.v[src].n_samples;
        ss_id prev = SS_NONE;
        size_t open = 0; /* levels 1..open have a run going: the depth of prev */
        const uint32_t *pr = NULL;
        uint64_t pos = 0;
        size_t gi = ss_model_gap_first(m, i0);
        for (size_t i = i0; i < i1; i++) {
            if ((i & 0xffff) == 0 && p->stop && atomic_load(p->stop)) {
                p->stopped = p->oom = 1; /* about a millisecond between looks */
                return;
            }
            ss_id st = m->sample_stack.v[i];
            int64_t c = ss_sample_count(m, i);
            uint64_t w = c > 0 ? (uint64_t)c : 0;
            if (gi < m->gaps.n && m->gaps.v[gi] == i) { /* a gap ends every run */
                gi++;
                for (size_t k = 0; k < open; k++)
                    emit(p, pr[k], pos - start[k]);
                open = 0;
                prev = SS_NONE;
            }
            if (st == prev) {
                pos += w;
                continue;
            }
            size_t d = off[st + 1] - off[st], cp = 0;
            const uint32_t *r = p->slot_rf + off[st];
            size_t lim = open < d ? open : d;
            while (cp < lim && pr[cp] == r[cp])
                cp++;
            for (size_t k = cp; k < open; k++)
                emit(p, pr[k], pos - start[k]);
            for (size_t k = cp; k < d; k++)
                start[k] = pos;
            open = d;
            pr = r;
            prev = st;
            pos += w;
        }
        for (size_t k = 0; k < open; k++)
            emit(p, pr[k], pos - start[k]);
    }
}

static int cmp_big(const void *pa, const void *pb)
{
    const struct big_entry *a = pa, *b = pb;
    if (a->slot != b->slot)
        return a->slot < b->slot ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

/* Turn the dense counts and the map into sorted bins per slot. */
static int collect(struct pass *p)
{
    size_t nb = p->big.n;
    if (nb > 1)
        qsort(p->big.v, nb, sizeof *p->big.v, cmp_big);
    p->off = ss_alloc_array(p->slots.n + 1, sizeof *p->off);
    if (!p->off)
        return -1;
    size_t j = 0;
    for (size_t s = 0; s < p->slots.n; s++) {
        p->off[s] = p->bins.n;
        /* length 0 (samples that all count 0) sorts before the dense lengths */
        for (; j < nb && p->big.v[j].slot == s && p->big.v[j].len == 0; j++) {
            struct bin b = {0, p->big.v[j].count};
            if (VEC_PUSH(p->bins, b))
                return -1;
        }
        const uint64_t *sm = p->small + s * SMALL;
        for (size_t l = 0; l < SMALL; l++)
            if (sm[l]) {
                struct bin b = {l + 1, sm[l]};
                if (VEC_PUSH(p->bins, b))
                    return -1;
            }
        for (; j < nb && p->big.v[j].slot == s; j++) {
            struct bin b = {p->big.v[j].len, p->big.v[j].count};
            if (VEC_PUSH(p->bins, b))
                return -1;
        }
    }
    p->off[p->slots.n] = p->bins.n;
    return 0;
}

/* Run the whole computation into p (slots and bins).  Returns 0 or -1 (OOM,
 * or stopped: p->stopped). */
static int run_pass(struct pass *p, const struct ss_model *m, const atomic_int *stop)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->stop = stop;
    size_t maxd;
    if (assign_slots(p, &maxd))
        return -1;
    uint64_t *start = ss_alloc_array(maxd, sizeof *start);
    if (!start)
        return -1;
    scan(p, start);
    free(start);
    if (p->oom)
        return -1;
    return collect(p);
}

/* ---- statistics ---------------------------------------------------------------- */

/* The row numbers of a histogram with bins sorted by length. */
void ss_run_row_stats(const uint64_t *lengths, const uint64_t *counts, size_t n, size_t stride,
                      struct ss_run_row *r)
{
    uint64_t runs = 0, samples = 0, max = 0;
    for (size_t j = 0; j < n; j++) {
        uint64_t c = counts[j * stride];
        runs += c;
        samples += lengths[j * stride] * c;
        if (c)
            max = lengths[j * stride];
    }
    r->runs = runs;
    r->samples = samples;
    r->max = max;
    r->mean = runs ? (double)samples / (double)runs : 0;
    /* R's median: the values of 0-based ranks (runs-1)/2 and runs/2 */
    uint64_t lo_rank = runs ? (runs - 1) / 2 : 0, hi_rank = runs / 2, seen = 0;
    uint64_t lo = 0, hi = 0;
    int have_lo = 0;
    for (size_t j = 0; j < n; j++) {
        seen += counts[j * stride];
        if (!have_lo && seen > lo_rank) {
            lo = lengths[j * stride];
            have_lo = 1;
        }
        if (seen > hi_rank) {
            hi = lengths[j * stride];
            break;
        }
    }
    r->median = ((double)lo + (double)hi) / 2;
}

static void bin_stats(const struct bin *b, size_t n, struct ss_run_row *r)
{
    ss_run_row_stats(n ? &b[0].len : NULL, n ? &b[0].count : NULL, n, sizeof *b / sizeof(uint64_t),
                     r);
}

/* A row and its function's name, for sorting without global state. */
struct sort_row {
    struct ss_run_row r;
    const char *name;
};
typedef VEC(struct sort_row) sort_rows;

static int cmp_rows(const void *pa, const void *pb, void *unused)
{
    (void)unused;
    const struct sort_row *a = pa, *b = pb;
    if (a->r.samples != b->r.samples)
        return a->r.samples > b->r.samples ? -1 : 1;
    if (a->r.runs != b->r.runs)
        return a->r.runs > b->r.runs ? -1 : 1;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    if (a->r.function != b->r.function)
        return a->r.function < b->r.function ? -1 : 1;
    return a->r.level < b->r.level ? -1 : a->r.level > b->r.level;
}

/* A bin of some function, for merging a function's levels into "all". */
struct fbin {
    ss_id function;
    struct bin b;
};

static int cmp_fbin(const void *pa, const void *pb)
{
    const struct fbin *a = pa, *b = pb;
    if (a->function != b->function)
        return a->function < b->function ? -1 : 1;
    return a->b.len < b->b.len ? -1 : a->b.len > b->b.len;
}

/* Add the level-0 rows: per function, the merged bins of all its slots. */
static int add_all_rows(const struct pass *p, sort_rows *out)
{
    size_t n = p->bins.n;
    struct fbin *fb = ss_alloc_array(n, sizeof *fb);
    VEC(struct bin) merged = {0};
    int rc = -1;
    if (!fb)
        return -1;
    for (size_t s = 0; s < p->slots.n; s++)
        for (size_t i = p->off[s]; i < p->off[s + 1]; i++) {
            fb[i].function = p->slots.v[s].function;
            fb[i].b = p->bins.v[i];
        }
    if (n > 1)
        qsort(fb, n, sizeof *fb, cmp_fbin);
    for (size_t i = 0; i < n;) {
        ss_id f = fb[i].function;
        merged.n = 0;
        for (; i < n && fb[i].function == f; i++) {
            if (merged.n && merged.v[merged.n - 1].len == fb[i].b.len)
                merged.v[merged.n - 1].count += fb[i].b.count;
            else if (VEC_PUSH(merged, fb[i].b))
                goto done;
        }
        struct sort_row sr;
        memset(&sr, 0, sizeof sr);
        sr.r.function = f;
        sr.r.level = 0;
        sr.name = ss_str(p->m, p->m->functions.v[f].name);
        bin_stats(merged.v, merged.n, &sr.r);
        if (VEC_PUSH(*out, sr))
            goto done;
    }
    rc = 0;
done:
    free(fb);
    VEC_FREE(merged);
    return rc;
}

/* The measure per slot (function at a level) and per function (anywhere in
 * a stack, once per sample), over the samples in time order: from each
 * distinct stack's value, never per sample.  Returns 0 or -1 (OOM, or its
 * count stopped by p->stop). */
static int measure_slots(const struct pass *p, double **slot_val, double **fn_val)
{
    const struct ss_model *m = p->m;
    size_t ns = ss_model_nstacks(m), nf = m->functions.n;
    double *sval = ss_calloc_array(ns, sizeof *sval);
    size_t *stamp = ss_calloc_array(nf, sizeof *stamp);
    *slot_val = ss_calloc_array(p->slots.n, sizeof **slot_val);
    *fn_val = ss_calloc_array(nf, sizeof **fn_val);
    struct ss_stack_counts sc;
    int rc = -1;
    if (!sval || !stamp || !*slot_val || !*fn_val || ss_stack_counts_init(&sc, m))
        goto out;
    sc.stop = p->stop;
    for (size_t src = 0; src < m->sources.n; src++) {
        if (m->sources.v[src].flags & SS_SRC_UNORDERED)
            continue; /* no runs there */
        if (ss_stack_counts_source(&sc, m, (ss_id)src)) {
            ss_stack_counts_free(&sc);
            goto out;
        }
        double scale = ss_source_scale(m, src);
        for (size_t t = 0; t < sc.n; t++)
            sval[sc.touched[t]] += (double)sc.val[sc.touched[t]] * scale;
    }
    ss_stack_counts_free(&sc);
    for (size_t st = 0; st < ns; st++) {
        if (ss_double_eq(sval[st], 0))
            continue;
        size_t d = ss_stack_depth(m, (ss_id)st);
        const uint32_t *r = p->slot_rf + m->stack_off.v[st];
        for (size_t k = 0; k < d; k++) {
            (*slot_val)[r[k]] += sval[st];
            ss_id f = p->slots.v[r[k]].function;
            if (stamp[f] != st + 1) {
                stamp[f] = st + 1;
                (*fn_val)[f] += sval[st];
            }
        }
    }
    rc = 0;
out:
    free(sval);
    free(stamp);
    return rc;
}

int ss_runs_compute(const struct ss_model *m, uint32_t level_filter, struct ss_run_row **rows,
                    size_t *n, struct ss_error *err)
{
    return ss_runs_compute_stop(m, level_filter, rows, n, err, NULL);
}

int ss_runs_compute_stop(const struct ss_model *m, uint32_t level_filter, struct ss_run_row **rows,
                         size_t *n, struct ss_error *err, const atomic_int *stop)
{
    *rows = NULL;
    *n = 0;
    struct pass p;
    sort_rows sr = {0};
    double *slot_val = NULL, *fn_val = NULL;
    if (run_pass(&p, m, stop)) {
        if (p.stopped) {
            pass_free(&p);
            return SS_RUNS_STOPPED;
        }
        goto oom;
    }
    if (measure_slots(&p, &slot_val, &fn_val)) {
        if (stop && atomic_load(stop)) { /* measure_slots' count was stopped */
            free(slot_val);
            free(fn_val);
            pass_free(&p);
            return SS_RUNS_STOPPED;
        }
        goto oom;
    }
    for (size_t s = 0; s < p.slots.n; s++) {
        if (p.off[s] == p.off[s + 1])
            continue; /* only unused stacks have this (function, level) */
        if (level_filter && p.slots.v[s].level != level_filter)
            continue;
        struct sort_row r;
        memset(&r, 0, sizeof r);
        r.r.function = p.slots.v[s].function;
        r.r.level = p.slots.v[s].level;
        r.name = ss_str(m, m->functions.v[r.r.function].name);
        bin_stats(p.bins.v + p.off[s], p.off[s + 1] - p.off[s], &r.r);
        r.r.value = slot_val[s];
        if (VEC_PUSH(sr, r))
            goto oom;
    }
    size_t nlevel = sr.n;
    if (!level_filter && add_all_rows(&p, &sr))
        goto oom;
    for (size_t i = nlevel; i < sr.n; i++)
        sr.v[i].r.value = fn_val[sr.v[i].r.function];
    if (sr.n) {
        if (ss_sort(sr.v, sr.n, sizeof *sr.v, cmp_rows, NULL))
            goto oom;
        *rows = ss_alloc_array(sr.n, sizeof **rows);
        if (!*rows)
            goto oom;
        for (size_t i = 0; i < sr.n; i++)
            (*rows)[i] = sr.v[i].r;
        *n = sr.n;
    }
    pass_free(&p);
    VEC_FREE(sr);
    free(slot_val);
    free(fn_val);
    return 0;
oom:
    pass_free(&p);
    VEC_FREE(sr);
    free(slot_val);
    free(fn_val);
    return ss_nomem(err, "run lengths");
}

/* ---- the sprof table ------------------------------------------------------------- */

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

int ss_runs_hist(const struct ss_model *m, ss_id function, struct ss_run_hist *h,
                 struct ss_error *err)
{
    memset(h, 0, sizeof *h);
    function = ss_function_canonical(m, function);
    h->function = function;
    struct pass p;
    if (run_pass(&p, m, NULL))
        goto oom;
    /* Slots of `function` are created level by level, so they are already
     * in ascending level order. */
    size_t nlev = 0, nlen = 0;
    for (size_t s = 0; s < p.slots.n; s++)
        if (p.slots.v[s].function == function && p.off[s] < p.off[s + 1]) {
            nlev++;
            nlen += p.off[s + 1] - p.off[s];
        }
    if (nlev == 0) {
        pass_free(&p);
        return 0;
    }
    h->levels = ss_alloc_array(nlev, sizeof *h->levels);
    h->lengths = ss_alloc_array(nlen, sizeof *h->lengths);
    h->level_runs = ss_calloc_array(nlev, sizeof *h->level_runs);
    if (!h->levels || !h->lengths || !h->level_runs)
        goto oom;
    size_t li = 0, nl = 0;
    for (size_t s = 0; s < p.slots.n; s++)
        if (p.slots.v[s].function == function && p.off[s] < p.off[s + 1]) {
            h->levels[li++] = p.slots.v[s].level;
            for (size_t i = p.off[s]; i < p.off[s + 1]; i++)
                h->lengths[nl++] = p.bins.v[i].len;
        }
    qsort(h->lengths, nl, sizeof *h->lengths, cmp_u64);
    size_t u = 0;
    for (size_t i = 0; i < nl; i++)
        if (u == 0 || h->lengths[u - 1] != h->lengths[i])
            h->lengths[u++] = h->lengths[i];
    h->n_levels = nlev;
    h->n_lengths = u;
    h->counts = ss_calloc_array(nlev * u, sizeof *h->counts);
    h->length_runs = ss_calloc_array(u, sizeof *h->length_runs);
    if (!h->counts || !h->length_runs)
        goto oom;
    li = 0;
    for (size_t s = 0; s < p.slots.n; s++) {
        if (p.slots.v[s].function != function || p.off[s] == p.off[s + 1])
            continue;
        size_t col = 0; /* bins and columns are both ascending: merge */
        for (size_t i = p.off[s]; i < p.off[s + 1]; i++) {
            while (h->lengths[col] != p.bins.v[i].len)
                col++;
            uint64_t c = p.bins.v[i].count;
            h->counts[li * u + col] = c;
            h->level_runs[li] += c;
            h->length_runs[col] += c;
            h->total += c;
        }
        li++;
    }
    pass_free(&p);
    return 0;
oom:
    pass_free(&p);
    ss_run_hist_free(h);
    return ss_nomem(err, "run-length table");
}

void ss_run_hist_free(struct ss_run_hist *h)
{
    free(h->levels);
    free(h->lengths);
    free(h->counts);
    free(h->level_runs);
    free(h->length_runs);
    memset(h, 0, sizeof *h);
}

/* ---- the sprof table of one function, fast (ss_runs_hist_fast) ------------------- */

/* `count` finished runs of length `len` at `level`. */
struct fast_run {
    uint32_t level;
    uint64_t len, count;
};

#define FAST_DENSE 64 /* runs shorter than this are counted in a dense array */

struct fast_acc {
    uint64_t *dense;    /* (maxd + 1) x FAST_DENSE counts: dense[level * FAST_DENSE + len] */
    struct fast_run *v; /* the longer runs, one entry each, then everything */
    size_t n, cap;
    int oom;
};

static void fast_push(struct fast_acc *a, uint32_t level, uint64_t len, uint64_t count)
{
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 256;
        struct fast_run *nv = ss_realloc_array(a->v, cap, sizeof *nv);
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

static inline void fast_add_run(struct fast_acc *a, uint32_t level, uint64_t len)
{
    if (len < FAST_DENSE)
        a->dense[(size_t)level * FAST_DENSE + len]++;
    else
        fast_push(a, level, len, 1);
}

static int cmp_fast_run(const void *pa, const void *pb)
{
    const struct fast_run *a = pa, *b = pb;
    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

/* The function at level k (1 = root) of stack s, which has depth d. */
static inline ss_id fast_fn_at(const struct ss_model *m, ss_id s, size_t d, size_t k)
{
    return ss_function_canonical(m, ss_loc_function(m, ss_stack_frames(m, s)[d - k]));
}

/* Turn the finished runs into the table. */
static int fast_table(struct fast_acc *a, uint32_t maxd, struct ss_run_hist *h)
{
    for (uint32_t l = 0; l <= maxd; l++)
        for (uint64_t len = 0; len < FAST_DENSE; len++)
            if (a->dense[(size_t)l * FAST_DENSE + len])
                fast_push(a, l, len, a->dense[(size_t)l * FAST_DENSE + len]);
    if (a->oom)
        return -1;
    if (a->n == 0)
        return 0;
    qsort(a->v, a->n, sizeof *a->v, cmp_fast_run);
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
    uint64_t *lens = ss_alloc_array(a->n, sizeof *lens);
    h->levels = ss_alloc_array(nlev, sizeof *h->levels);
    h->level_runs = ss_calloc_array(nlev, sizeof *h->level_runs);
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
    h->counts = ss_calloc_array(nlev * u, sizeof *h->counts);
    h->length_runs = ss_calloc_array(u, sizeof *h->length_runs);
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

int ss_runs_hist_fast(const struct ss_model *m, ss_id function, struct ss_run_hist *h,
                      struct ss_error *err)
{
    memset(h, 0, sizeof *h);
    function = ss_function_canonical(m, function);
    h->function = function;
    size_t nstacks = ss_model_nstacks(m);
    /* per stack: the levels (ascending) where the function is */
    uint32_t *off = ss_alloc_array(nstacks + 1, sizeof *off);
    uint32_t maxd = 0;
    if (!off)
        return ss_nomem(err, "run-length table");
    size_t total = 0;
    for (size_t s = 0; s < nstacks; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        if (d > maxd)
            maxd = (uint32_t)d;
        off[s] = (uint32_t)total;
        for (size_t k = 1; k <= d; k++)
            total += fast_fn_at(m, (ss_id)s, d, k) == function;
    }
    off[nstacks] = (uint32_t)total;
    uint32_t *lev = ss_alloc_array(total, sizeof *lev);
    uint64_t *start = ss_alloc_array((size_t)maxd + 1, sizeof *start);
    uint8_t *open = ss_calloc_array((size_t)maxd + 1, 1); /* open[k]: a run at level k goes on */
    struct fast_acc a = {NULL, NULL, 0, 0, 0};
    a.dense = ss_calloc_array(((size_t)maxd + 1) * FAST_DENSE, sizeof *a.dense);
    int rc = -1;
    if (!lev || !start || !open || !a.dense)
        goto done;
    for (size_t s = 0, j = 0; s < nstacks; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        for (size_t k = 1; k <= d; k++)
            if (fast_fn_at(m, (ss_id)s, d, k) == function)
                lev[j++] = (uint32_t)k;
    }
    for (size_t src = 0; src < m->sources.n; src++) {
        if (m->sources.v[src].flags & SS_SRC_UNORDERED)
            continue; /* no time order, no runs */
        size_t i0 = m->sources.v[src].first_sample, i1 = i0 + m->sources.v[src].n_samples;
        ss_id prev = SS_NONE;
        uint64_t pos = 0;
        size_t gi = ss_model_gap_first(m, i0);
        for (size_t i = i0; i < i1; i++) {
            ss_id st = m->sample_stack.v[i];
            int64_t c = ss_sample_count(m, i);
            uint64_t w = c > 0 ? (uint64_t)c : 0;
            if (gi < m->gaps.n && m->gaps.v[gi] == i) { /* a gap ends every run */
                gi++;
                if (prev != SS_NONE)
                    for (uint32_t x = off[prev]; x < off[prev + 1]; x++) {
                        fast_add_run(&a, lev[x], pos - start[lev[x]]);
                        open[lev[x]] = 0;
                    }
                prev = SS_NONE;
            }
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
            while (cp < lim && fast_fn_at(m, prev, dp, cp + 1) == fast_fn_at(m, st, ds, cp + 1))
                cp++;
            /* runs of the previous stack beyond the common prefix end */
            for (uint32_t x = pa; x < pb; x++)
                if (lev[x] > cp) {
                    fast_add_run(&a, lev[x], pos - start[lev[x]]);
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
                fast_add_run(&a, lev[x], pos - start[lev[x]]);
                open[lev[x]] = 0;
            }
    }
    rc = a.oom ? -1 : fast_table(&a, maxd, h);
done:
    free(a.dense);
    free(off);
    free(lev);
    free(start);
    free(open);
    free(a.v);
    if (rc) {
        ss_run_hist_free(h);
        return ss_nomem(err, "run-length table");
    }
    return 0;
}

void ss_run_hist_line(const struct ss_run_hist *h, size_t i, size_t skip, char *buf, size_t n)
{
    size_t k = 0;
    /* i: 0 header, 1..n_levels the levels, n_levels + 1 the margin */
    if (i == 0)
        k += (size_t)snprintf(buf + k, n - k, "%7s", "level");
    else if (i <= h->n_levels)
        k += (size_t)snprintf(buf + k, n - k, "%7u", h->levels[i - 1]);
    else
        k += (size_t)snprintf(buf + k, n - k, "%7s", "runs");
    if (skip)
        k += (size_t)snprintf(buf + k, n - k, " %6s", "<");
    for (size_t j = skip; j < h->n_lengths && k < n; j++) {
        if (i == 0)
            k += (size_t)snprintf(buf + k, n - k, " %6llu", (unsigned long long)h->lengths[j]);
        else if (i <= h->n_levels) {
            uint64_t c = h->counts[(i - 1) * h->n_lengths + j];
            if (c)
                k += (size_t)snprintf(buf + k, n - k, " %6llu", (unsigned long long)c);
            else
                k += (size_t)snprintf(buf + k, n - k, " %6s", ".");
        } else
            k += (size_t)snprintf(buf + k, n - k, " %6llu", (unsigned long long)h->length_runs[j]);
    }
    if (k < n) {
        if (i == 0)
            snprintf(buf + k, n - k, " %7s", "runs");
        else if (i <= h->n_levels)
            snprintf(buf + k, n - k, " %7llu", (unsigned long long)h->level_runs[i - 1]);
        else
            snprintf(buf + k, n - k, " %7llu", (unsigned long long)h->total);
    }
}
