/* flame_index.c - the chart's sample index (see flame_index.h).
 *
 * lcp[i] is the number of leading functions sample i shares with the taken
 * sample before it: 0 after a break (a new source, a gap, a sample without
 * frames) and for the first, the whole depth for a repeat of the same
 * stack, and NOT_TAKEN for a sample that is not drawn (a weight <= 0 and no
 * break), which neither ends nor starts a frame.  The frame at depth j
 * holding taken sample i starts at the last sample k <= i with lcp[k] <= j
 * and ends before the first k > i with lcp[k] <= j. */
#include "flame_index.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "hashtab.h"
#include "sort.h"
#include "threads.h"
#include "vec.h"

#define BLOCK 256
#define NOT_TAKEN UINT16_MAX
#define LCP_MAX (UINT16_MAX - 1) /* deeper stacks: no index */
#define PAIR_TABLE 1024          /* up to this many distinct rows, a table of every pair */
#define ALL_ESC 255
/* A profile of 2 PART_MIN samples or more is built in PARTS parts (or
 * fewer, PART_MIN samples or more each) on two threads (STACKSCOPE_THREADS):
 * struct ix_claims. */
#define PART_MIN ((size_t)1 << 16)
#define PARTS 16

/* What a block holds at one depth t: the weight of its samples that end
 * at depth t (depth t + 1 frames) and whether two consecutive samples
 * (the first may be before the block) that share the function at t have
 * different locations there. */
struct ix_entry {
    uint32_t depth;
    uint32_t locdiff;
    double self;
};

struct ss_flame_index {
    const double *w; /* borrowed: the samples' weights; NULL: the model's measure */
    double *scale;   /* per source: ss_source_scale (for the model's measure) */
    uint32_t *bsrc;  /* per block: the source of its first sample, or one before */
    int inverted;
    size_t n, nb;          /* samples, blocks */
    uint16_t *lcp;         /* per sample */
    uint16_t *bmin;        /* per block: the least lcp */
    double *bcum;          /* per block: the taken weight before it; [nb]: the total */
    uint32_t *eoff;        /* per block: its entries ent[eoff[b] .. eoff[b + 1]) */
    struct ix_entry **ent; /* per part: by depth within a block, entry k of
                            * part c at ent[c][k - eseg[c]] */
    ss_id *fn, *loc;       /* per stack (at its offset in stack_loc): from the root
                            * (inverted: the leaf), canonical functions and locations */
    double *stack_w;       /* per stack: the weight of its taken samples */
    size_t *eseg;          /* per part: its first entry; [nparts]: all of them */
    size_t bpp, nparts;    /* blocks a part (the last may have fewer), parts */
    size_t nframes;
    uint32_t max_depth;
};

void ss_flame_index_free(struct ss_flame_index *ix)
{
    if (!ix)
        return;
    free(ix->lcp);
    free(ix->scale);
    free(ix->bsrc);
    free(ix->bmin);
    free(ix->bcum);
    free(ix->eoff);
    for (size_t c = 0; ix->ent && c < ix->nparts; c++)
        free(ix->ent[c]);
    free(ix->ent);
    free(ix->eseg);
    free(ix->fn);
    free(ix->loc);
    free(ix->stack_w);
    free(ix);
}

int ss_flame_index_fits(const struct ss_flame_index *ix, const double *sample_w, int inverted)
{
    return ix && ix->w == sample_w && ix->inverted == (inverted != 0);
}

/* Entry k of ix (either part's). */
static const struct ix_entry *ent_at(const struct ss_flame_index *ix, size_t k)
{
    size_t c = 0;
    while (k >= ix->eseg[c + 1])
        c++;
    return &ix->ent[c][k - ix->eseg[c]];
}

int ss_flame_index_same(const struct ss_model *m, const struct ss_flame_index *a,
                        const struct ss_flame_index *b)
{
    size_t ns = ss_model_nstacks(m), nf = m->stack_loc.n, nb = a->nb;
    if (a->w != b->w || a->inverted != b->inverted || a->n != b->n || nb != b->nb ||
        a->nframes != b->nframes || a->max_depth != b->max_depth || a->eoff[nb] != b->eoff[nb] ||
        memcmp(a->lcp, b->lcp, a->n * sizeof *a->lcp) ||
        memcmp(a->bmin, b->bmin, nb * sizeof *a->bmin) ||
        memcmp(a->bcum, b->bcum, (nb + 1) * sizeof *a->bcum) ||
        memcmp(a->bsrc, b->bsrc, nb * sizeof *a->bsrc) ||
        memcmp(a->eoff, b->eoff, (nb + 1) * sizeof *a->eoff) ||
        memcmp(a->scale, b->scale, m->sources.n * sizeof *a->scale) ||
        memcmp(a->fn, b->fn, nf * sizeof *a->fn) || memcmp(a->loc, b->loc, nf * sizeof *a->loc) ||
        memcmp(a->stack_w, b->stack_w, ns * sizeof *a->stack_w))
        return 0;
    for (size_t k = 0; k < a->eoff[nb]; k++) {
        const struct ix_entry *x = ent_at(a, k), *y = ent_at(b, k);
        if (x->depth != y->depth || x->locdiff != y->locdiff ||
            memcmp(&x->self, &y->self, sizeof x->self))
            return 0;
    }
    return 1;
}

/* The functions and locations of every stack, read from the root (or the
 * leaf); 0 when some stack is too deep for 16-bit lcp values. */
static int index_rows(const struct ss_model *m, struct ss_flame_index *ix)
{
    size_t ns = ss_model_nstacks(m);
    for (size_t s = 0; s < ns; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        if (d > LCP_MAX)
            return 0;
        const ss_id *fr = ss_stack_frames(m, (ss_id)s);
        size_t off = (size_t)(fr - m->stack_loc.v);
        for (size_t j = 0; j < d; j++) {
            ss_id loc = fr[ix->inverted ? j : d - 1 - j];
            ix->loc[off + j] = loc;
            ix->fn[off + j] = ss_function_canonical(m, ss_loc_function(m, loc));
        }
    }
    return 1;
}

/* The common prefix of the rows of any two stacks at the cost of two
 * look-ups: with the stacks sorted by their rows, two share the least of
 * the prefixes that neighbours between them share (a sparse table of
 * those minima). */
struct pair_lcp {
    uint8_t *all;  /* few distinct rows (PAIR_TABLE at most): every pair of
                    * rows', nc x nc, ALL_ESC for 255 or more */
    uint32_t *cls; /* per stack: its row's number (same rows, same number) */
    size_t nc;
    uint32_t *rank; /* per stack: its place in the sorted order */
    uint16_t *sp;   /* level k, place r: the least of neighbours r .. r + 2^k */
    uint8_t *lg;    /* floor(log2(k)) */
    size_t ns;
};

struct rows_ctx {
    const struct ss_model *m;
    const ss_id *rows;
};

static size_t rows_lcp(const struct rows_ctx *c, ss_id a, ss_id b)
{
    const ss_id *fa = ss_stack_frames(c->m, a), *fb = ss_stack_frames(c->m, b);
    const ss_id *ra = c->rows + (fa - c->m->stack_loc.v), *rb = c->rows + (fb - c->m->stack_loc.v);
    size_t da = ss_stack_depth(c->m, a), db = ss_stack_depth(c->m, b), lim = da < db ? da : db,
           k = 0;
    while (k < lim && ra[k] == rb[k])
        k++;
    return k;
}

static int cmp_rows(const void *pa, const void *pb, void *vctx)
{
    const struct rows_ctx *c = vctx;
    ss_id a = *(const ss_id *)pa, b = *(const ss_id *)pb;
    size_t k = rows_lcp(c, a, b), da = ss_stack_depth(c->m, a), db = ss_stack_depth(c->m, b);
    const ss_id *ra = c->rows + (ss_stack_frames(c->m, a) - c->m->stack_loc.v);
    const ss_id *rb = c->rows + (ss_stack_frames(c->m, b) - c->m->stack_loc.v);
    if (k < da && k < db)
        return ra[k] < rb[k] ? -1 : 1;
    if (da != db)
        return da < db ? -1 : 1;
    return a < b ? -1 : a > b;
}

static void pair_lcp_free(struct pair_lcp *p)
{
    free(p->all);
    free(p->cls);
    free(p->rank);
    free(p->sp);
    free(p->lg);
}

/* The prefix distinct stacks a and b share (from the sorted order). */
static size_t pair_lcp(const struct pair_lcp *p, ss_id a, ss_id b)
{
    size_t x = p->rank[a], y = p->rank[b];
    if (x > y) {
        size_t t = x;
        x = y;
        y = t;
    }
    size_t k = p->lg[y - x];
    uint16_t u = p->sp[k * p->ns + x], v = p->sp[k * p->ns + y - ((size_t)1 << k)];
    return u < v ? u : v;
}

static int pair_lcp_init(struct pair_lcp *p, const struct ss_model *m, const ss_id *rows, int table)
{
    size_t ns = ss_model_nstacks(m), levels = 1;
    memset(p, 0, sizeof *p);
    p->ns = ns;
    while (((size_t)1 << levels) < ns)
        levels++;
    ss_id *order = ss_alloc_array(ns ? ns : 1, sizeof *order);
    p->rank = ss_alloc_array(ns ? ns : 1, sizeof *p->rank);
    p->sp = ss_alloc_array(levels * (ns ? ns : 1), sizeof *p->sp);
    p->lg = ss_alloc_array(ns + 2, 1);
    if (!order || !p->rank || !p->sp || !p->lg) {
        free(order);
        return -1;
    }
    struct rows_ctx c = {m, rows};
    for (size_t s = 0; s < ns; s++)
        order[s] = (ss_id)s;
    if (ss_sort(order, ns, sizeof *order, cmp_rows, &c)) {
        free(order);
        return -1;
    }
    for (size_t r = 0; r < ns; r++) {
        p->rank[order[r]] = (uint32_t)r;
        p->sp[r] = r + 1 < ns ? (uint16_t)rows_lcp(&c, order[r], order[r + 1]) : 0;
    }
    for (size_t k = 1; k < levels; k++)
        for (size_t r = 0; r + ((size_t)1 << k) <= ns; r++) {
            uint16_t a = p->sp[(k - 1) * ns + r],
                     b = p->sp[(k - 1) * ns + r + ((size_t)1 << (k - 1))];
            p->sp[k * ns + r] = a < b ? a : b;
        }
    p->lg[0] = p->lg[1] = 0;
    for (size_t k = 2; k <= ns; k++)
        p->lg[k] = (uint8_t)(p->lg[k / 2] + 1);
    if (!table) {
        free(order);
        return 0;
    }
    /* the distinct rows: neighbours in the order that share all of theirs */
    p->cls = ss_alloc_array(ns ? ns : 1, sizeof *p->cls);
    ss_id *rep = ss_alloc_array(ns ? ns : 1, sizeof *rep);
    if (!p->cls || !rep) {
        free(rep);
        free(order);
        return -1;
    }
    for (size_t r = 0; r < ns; r++) {
        ss_id s = order[r], q = r ? order[r - 1] : SS_NONE;
        size_t d = ss_stack_depth(m, s);
        if (!r || p->sp[r - 1] != d || ss_stack_depth(m, q) != d)
            rep[p->nc++] = s;
        p->cls[s] = (uint32_t)(p->nc - 1);
    }
    free(order);
    if (p->nc <= PAIR_TABLE) {
        /* one look-up a sample instead of four, in a table that a cache
         * holds (one byte a pair) */
        size_t nc = p->nc;
        p->all = ss_alloc_array(nc ? nc * nc : 1, 1);
        if (!p->all) {
            free(rep);
            return -1;
        }
        for (size_t a = 0; a < nc; a++)
            for (size_t b = 0; b < nc; b++) {
                size_t v = a == b ? ss_stack_depth(m, rep[a]) : pair_lcp(p, rep[a], rep[b]);
                p->all[a * nc + b] = (uint8_t)(v < ALL_ESC ? v : ALL_ESC);
            }
    }
    free(rep);
    return 0;
}

/* pair_lcp from the table when there is one. */
static inline size_t pair_lcp_fast(const struct pair_lcp *p, ss_id a, ss_id b)
{
    if (p->all) {
        uint8_t v = p->all[p->cls[a] * p->nc + p->cls[b]];
        if (v != ALL_ESC)
            return v;
    }
    return pair_lcp(p, a, b);
}

/* A part's entries (a VEC). */
struct ix_ents {
    struct ix_entry *v;
    size_t n, cap;
};

/* The parts not taken yet, [lo, hi).  The first thread takes them from the
 * first on, summing the weights as it goes (bcum and stack_w: each sum in
 * sample order, so the same doubles as one pass); the second takes them
 * from the last back, each from where one pass would be at its start
 * (pos_at).  When they meet, the first sums the weights of the second's
 * parts.  So the parts split between the threads as the threads run: when
 * the second gets no processor, the first does it all in one pass. */
struct ix_claims {
    pthread_mutex_t mu;
    size_t lo, hi;
};

/* The build, shared by the threads: the weights (the caller's, else a
 * column when sample i's weight is col[i], else 1 when every sample counts
 * 1, else the model's), per stack its depth (the model's offsets take two
 * reads), the pairs' common prefixes by function and by location, the
 * deepest stack; the parts (bpp blocks each) and their entries. */
struct ix_build {
    const struct ss_model *m;
    struct ss_flame_index *ix;
    const double *w;
    const int64_t *wcol;
    int one;
    uint16_t *sdep;
    size_t maxd;
    struct pair_lcp pf, pl;
    size_t bpp, nparts;
    struct ix_ents *ents;
    struct ix_claims *cl;
};

/* Where a pass over the samples is before sample i: the source of the
 * samples before (and its scale), the next gap, where one of them changes
 * next, whether a break (a new source, a gap, a sample without frames) came
 * since the last taken sample or no sample was taken yet, and that
 * sample's stack. */
struct ix_pos {
    size_t src, src_end;
    size_t g, next_gap;
    size_t next; /* the least of src_end and next_gap */
    double scale;
    int brk;
    ss_id prev;
};

/* A thread's pass over its parts (struct ix_claims): whether it sums the
 * weights (the first thread) and their sum so far; per depth, the self of
 * the block's samples ending there (four sums, so that no sum chains
 * through memory) and flags (1: a sample ends there, 2: two consecutive
 * samples differ in location there); the entries of the part it is on
 * (their offsets start at 0 in each part until all are done). */
struct ix_part {
    const struct ix_build *B;
    int sums;
    double cum;
    double *sself;
    uint8_t *sflag;
    ss_id *chp, *chs; /* the block's changes of stack: from chp[k] to chs[k] */
    struct ix_ents *ent;
    size_t nall;
    uint32_t maxdepth;
    int rc;
};

static void ix_build_free(struct ix_build *B)
{
    for (size_t c = 0; B->ents && c < B->nparts; c++)
        VEC_FREE(B->ents[c]);
    free(B->ents);
    free(B->sdep);
    pair_lcp_free(&B->pf);
    pair_lcp_free(&B->pl);
}

static void ix_part_free(struct ix_part *P)
{
    free(P->sself);
    free(P->sflag);
    free(P->chp);
    free(P->chs);
}

/* The index's arrays and the shared part's depths.  Returns 0 or -1. */
static int ix_alloc(struct ix_build *B, size_t n, size_t nb)
{
    const struct ss_model *m = B->m;
    struct ss_flame_index *ix = B->ix;
    size_t ns = ss_model_nstacks(m), nf = m->stack_loc.n ? m->stack_loc.n : 1;
    ix->lcp = ss_alloc_array(n ? n : 1, sizeof *ix->lcp);
    ix->bmin = ss_alloc_array(nb ? nb : 1, sizeof *ix->bmin);
    ix->bcum = ss_alloc_array(nb + 1, sizeof *ix->bcum);
    ix->bsrc = ss_alloc_array(nb ? nb : 1, sizeof *ix->bsrc);
    ix->scale = ss_alloc_array(m->sources.n ? m->sources.n : 1, sizeof *ix->scale);
    ix->eoff = ss_alloc_array(nb + 1, sizeof *ix->eoff);
    ix->fn = ss_alloc_array(nf, sizeof *ix->fn);
    ix->loc = ss_alloc_array(nf, sizeof *ix->loc);
    ix->stack_w = ss_calloc_array(ns ? ns : 1, sizeof *ix->stack_w);
    B->sdep = ss_alloc_array(ns ? ns : 1, sizeof *B->sdep);
    if (!ix->lcp || !ix->bmin || !ix->bcum || !ix->bsrc || !ix->scale || !ix->eoff || !ix->fn ||
        !ix->loc || !ix->stack_w || !B->sdep)
        return -1;
    B->maxd = 1;
    for (size_t s = 0; s < ns; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        B->sdep[s] = (uint16_t)d; /* index_rows refuses deeper stacks */
        B->maxd = d > B->maxd ? d : B->maxd;
    }
    return 0;
}

/* A thread's scratch.  Returns 0 or -1. */
static int ix_part_alloc(struct ix_part *P, const struct ix_build *B, int sums)
{
    memset(P, 0, sizeof *P);
    P->B = B;
    P->sums = sums;
    P->sself = ss_calloc_array(B->maxd * 4, sizeof *P->sself);
    P->sflag = ss_calloc_array(B->maxd, 1);
    P->chp = ss_alloc_array(BLOCK, sizeof *P->chp);
    P->chs = ss_alloc_array(BLOCK, sizeof *P->chs);
    return P->sself && P->sflag && P->chp && P->chs ? 0 : -1;
}

/* The weight of sample i (taken or not), whose source has this scale:
 * the caller's w, else the column wcol, else 1 (one), else the model's. */
static inline double wt(const struct ss_model *m, const double *w, const int64_t *wcol, int one,
                        size_t i, double scale)
{
    return w      ? w[i]
           : wcol ? (double)wcol[i] * scale
           : one  ? scale
                  : (double)ss_sample_weight(m, i) * scale;
}

static inline double ix_weight(const struct ix_build *B, size_t i, double scale)
{
    return wt(B->m, B->w, B->wcol, B->one, i, scale);
}

/* One past the last sample of source s. */
static inline size_t src_end(const struct ss_model *m, size_t s)
{
    return m->sources.v[s].first_sample + m->sources.v[s].n_samples;
}

/* The source a pass holds at sample i: the first that ends after it (the
 * sources' ranges follow each other), m->sources.n when none does. */
static size_t src_at(const struct ss_model *m, size_t i)
{
    size_t lo = 0, hi = m->sources.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (src_end(m, mid) > i)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* Before the first sample. */
static struct ix_pos pos_first(const struct ix_build *B)
{
    const struct ss_model *m = B->m;
    struct ix_pos p = {0, m->sources.n ? src_end(m, 0) : B->ix->n, 0, SIZE_MAX, 0, 0, 1, SS_NONE};
    p.next_gap = m->gaps.n ? m->gaps.v[0] : SIZE_MAX;
    p.next = p.src_end < p.next_gap ? p.src_end : p.next_gap;
    p.scale = m->sources.n ? B->ix->scale[0] : 0;
    return p;
}

/* Sample i reached (i >= p.next): its source and scale, and whether a new
 * source or a gap breaks the timeline there. */
static struct ix_pos pos_step(const struct ix_build *B, struct ix_pos p, size_t i)
{
    const struct ss_model *m = B->m;
    if (i >= p.src_end) {
        while (p.src < m->sources.n && i >= src_end(m, p.src))
            p.src++;
        p.src_end = p.src < m->sources.n ? src_end(m, p.src) : SIZE_MAX;
        p.scale = p.src < m->sources.n ? B->ix->scale[p.src] : 0;
        p.brk = 1;
    }
    if (i >= p.next_gap) {
        while (p.g < m->gaps.n && m->gaps.v[p.g] < i)
            p.g++;
        if (p.g < m->gaps.n && m->gaps.v[p.g] == i)
            p.brk = 1;
        p.next_gap = p.g < m->gaps.n ? (m->gaps.v[p.g] > i ? m->gaps.v[p.g] : i + 1) : SIZE_MAX;
    }
    p.next = p.src_end < p.next_gap ? p.src_end : p.next_gap;
    return p;
}

/* Before sample lo, as a pass from the first sample would be there: after
 * the last taken sample before lo (found backwards), then over the samples
 * not taken up to lo (they may break the timeline). */
static struct ix_pos pos_at(const struct ix_build *B, size_t lo)
{
    const struct ss_model *m = B->m;
    const ss_id *stk = m->sample_stack.v;
    struct ix_pos p = pos_first(B);
    size_t from = 0, ns = m->sources.n, s = lo ? src_at(m, lo - 1) : 0;
    for (size_t t = lo; t-- > 0;) {
        while (s > 0 && src_end(m, s - 1) > t)
            s--;
        if (!B->sdep[stk[t]] || !(ix_weight(B, t, s < ns ? B->ix->scale[s] : 0) > 0))
            continue;
        p.src = s;
        p.src_end = s < ns ? src_end(m, s) : SIZE_MAX;
        p.scale = s < ns ? B->ix->scale[s] : 0;
        p.g = ss_model_gap_first(m, t + 1);
        p.next_gap = p.g < m->gaps.n ? m->gaps.v[p.g] : SIZE_MAX;
        p.next = p.src_end < p.next_gap ? p.src_end : p.next_gap;
        p.brk = 0;
        p.prev = stk[t];
        from = t + 1;
        break;
    }
    for (size_t i = from; i < lo; i++) {
        if (i >= p.next)
            p = pos_step(B, p, i);
        if (!B->sdep[stk[i]])
            p.brk = 1;
    }
    return p;
}

/* Where two consecutive taken samples of the block differ in location at
 * a depth that every sample of the block shares (below bm: a frame holds
 * the whole block only there): flag 2 at those depths; *tlo and *thi
 * widened to them.  The pairs that differ are P->chp[k], P->chs[k] for k <
 * nch (the block's first sample with the taken sample before it). */
static void block_changes(struct ix_part *P, size_t nch, uint16_t bm, size_t *tlo, size_t *thi)
{
    const struct ss_model *m = P->B->m;
    const struct ss_flame_index *ix = P->B->ix;
    for (size_t k = 0; k < nch; k++) {
        ss_id p = P->chp[k], s = P->chs[k];
        /* a few depths: compared; more: from the first where the locations
         * differ */
        size_t ll = bm <= 4 ? 0 : pair_lcp_fast(&P->B->pl, p, s);
        const ss_id *lp = ix->loc + (ss_stack_frames(m, p) - m->stack_loc.v);
        const ss_id *ls = ix->loc + (ss_stack_frames(m, s) - m->stack_loc.v);
        for (size_t t = ll; t < bm; t++)
            if (lp[t] != ls[t])
                P->sflag[t] |= 2;
        *tlo = ll < *tlo ? ll : *tlo;
        if (ll < bm && (size_t)bm - 1 > *thi)
            *thi = (size_t)bm - 1;
    }
}

/* The block's entries: its flagged depths [tlo, thi], in order, with their
 * self (the scratch cleared for the next block).  Returns 0 or -1. */
static int block_entries(struct ix_part *P, size_t tlo, size_t thi)
{
    for (size_t t = tlo; tlo != SIZE_MAX && t <= thi; t++) {
        if (!P->sflag[t])
            continue;
        double *ss = P->sself + t * 4;
        double self = (ss[0] + ss[1]) + (ss[2] + ss[3]);
        if (VEC_PUSH(*P->ent, ((struct ix_entry){(uint32_t)t, (P->sflag[t] & 2) != 0, self})))
            return -1;
        ss[0] = ss[1] = ss[2] = ss[3] = 0;
        P->sflag[t] = 0;
    }
    return 0;
}

/* Blocks [b0, b1) from *pp (moved on past them): per sample its lcp, per
 * block its least, its source and entries, and with `sums` the first
 * thread's sums.  Returns 0 or -1 (out of memory).  Made twice, with sums
 * and without (part_blocks): a test of sums in the loop cost a build on
 * one thread 8% of its time. */
static inline __attribute__((always_inline)) int index_blocks(struct ix_part *P, struct ix_pos *pp,
                                                              size_t b0, size_t b1, const int sums)
{
    const struct ix_build *B = P->B;
    struct ss_flame_index *ix = B->ix;
    const ss_id *stk = B->m->sample_stack.v;
    const uint16_t *sdep = B->sdep;
    uint16_t *lcp = ix->lcp;
    /* row: the table's pairs of the taken sample before (its class) */
    const uint8_t *all = B->pf.all, *row = NULL;
    const uint32_t *cls = B->pf.cls;
    double *sself = P->sself, *stack_w = ix->stack_w, cum = P->cum;
    uint8_t *sflag = P->sflag;
    ss_id *chp = P->chp, *chs = P->chs;
    const int one = B->one;
    const double *win = B->w;
    const int64_t *wcol = B->wcol;
    struct ix_pos p = *pp;
    size_t n = ix->n, nall = 0, nc = B->pf.nc;
    if (all && p.prev != SS_NONE)
        row = all + (size_t)cls[p.prev] * nc;
    for (size_t b = b0; b < b1; b++) {
        size_t lo = b * BLOCK, hi = lo + BLOCK < n ? lo + BLOCK : n, nch = 0;
        uint16_t bm = NOT_TAKEN;
        if (sums)
            ix->bcum[b] = cum;
        ix->bsrc[b] = (uint32_t)p.src;
        ix->eoff[b] = (uint32_t)P->ent->n;
        size_t tlo = SIZE_MAX, thi = 0; /* the depths where samples end */
        for (size_t i = lo; i < hi; i++) {
            if (i >= p.next)
                p = pos_step(B, p, i);
            ss_id s = stk[i];
            size_t d = sdep[s], keep = 0;
            double w = wt(B->m, win, wcol, one, i, p.scale);
            if (d == 0 || !(w > 0)) {
                p.brk |= d == 0;
                lcp[i] = NOT_TAKEN;
                continue;
            }
            uint32_t c = cls[s];
            if (!p.brk) {
                /* the table's diagonal: the depth (a repeat) */
                keep = row ? row[c] : ALL_ESC;
                if (keep == ALL_ESC)
                    keep = s == p.prev ? d : pair_lcp(&B->pf, p.prev, s);
            }
            if (all)
                row = all + (size_t)c * nc;
            chp[nch] = p.prev; /* kept (nch moves on) when the stack changes */
            chs[nch] = s;
            nch += s != p.prev;
            p.brk = 0;
            p.prev = s;
            lcp[i] = (uint16_t)keep;
            bm = (uint16_t)keep < bm ? (uint16_t)keep : bm;
            nall += d - keep;
            sself[(d - 1) * 4 + (i & 3)] += w; /* 4 sums: no chain through memory */
            sflag[d - 1] = 1;
            tlo = d - 1 < tlo ? d - 1 : tlo;
            thi = d - 1 > thi ? d - 1 : thi;
            if (sums) {
                stack_w[s] += w;
                cum += w;
            }
        }
        ix->bmin[b] = bm;
        if (tlo != SIZE_MAX && thi + 1 > P->maxdepth)
            P->maxdepth = (uint32_t)(thi + 1);
        if (bm != NOT_TAKEN && bm > 0)
            block_changes(P, nch, bm, &tlo, &thi);
        if (block_entries(P, tlo, thi))
            return -1;
    }
    P->cum = cum;
    P->nall += nall;
    *pp = p;
    return 0;
}

static int part_blocks(struct ix_part *P, struct ix_pos *pp, size_t b0, size_t b1)
{
    return P->sums ? index_blocks(P, pp, b0, b1, 1) : index_blocks(P, pp, b0, b1, 0);
}

/* The sums of the blocks [b0, b1) after the first part's (p: the position
 * there, *pcum its sum), in sample order as one pass makes them. */
static void part_sums(const struct ix_build *B, struct ix_pos p, size_t b0, size_t b1, double *pcum)
{
    struct ss_flame_index *ix = B->ix;
    const ss_id *stk = B->m->sample_stack.v;
    const uint16_t *sdep = B->sdep;
    const double *win = B->w;
    const int64_t *wcol = B->wcol;
    const int one = B->one;
    double *stack_w = ix->stack_w, cum = *pcum;
    for (size_t b = b0; b < b1; b++) {
        size_t lo = b * BLOCK, hi = lo + BLOCK < ix->n ? lo + BLOCK : ix->n;
        ix->bcum[b] = cum;
        for (size_t i = lo; i < hi; i++) {
            if (i >= p.next)
                p = pos_step(B, p, i);
            ss_id s = stk[i];
            double w = wt(B->m, win, wcol, one, i, p.scale);
            if (!sdep[s] || !(w > 0))
                continue;
            stack_w[s] += w;
            cum += w;
        }
    }
    *pcum = cum;
}

/* Take the next part not taken, from the last back (top) or from the first
 * on, in *c; 0 when none is left. */
static int take(struct ix_claims *cl, int top, size_t *c)
{
    pthread_mutex_lock(&cl->mu);
    int ok = cl->lo < cl->hi;
    if (ok)
        *c = top ? --cl->hi : cl->lo++;
    pthread_mutex_unlock(&cl->mu);
    return ok;
}

/* Part c from position *p. */
static int part_run(struct ix_part *P, size_t c, struct ix_pos *p)
{
    const struct ix_build *B = P->B;
    size_t b0 = c * B->bpp, b1 = b0 + B->bpp < B->ix->nb ? b0 + B->bpp : B->ix->nb;
    P->ent = &B->ents[c];
    return part_blocks(P, p, b0, b1);
}

/* The second thread: parts from the last back, each from its position,
 * found by itself. */
static void *part_thread(void *arg)
{
    struct ix_part *P = arg;
    size_t c;
    while (!P->rc && take(P->B->cl, 1, &c)) {
        struct ix_pos p = pos_at(P->B, c * P->B->bpp * BLOCK);
        P->rc = part_run(P, c, &p);
    }
    return NULL;
}

/* The parts: the second thread's started (threaded; without, it takes them
 * all first), then the first's here from the first part on, and the sums
 * of those it did not take.  Returns 0 or -1. */
static int run_parts(const struct ix_build *B, struct ix_part *P, int threaded)
{
    pthread_t th;
    int started = threaded && pthread_create(&th, NULL, part_thread, &P[1]) == 0;
    if (!threaded)
        part_thread(&P[1]);
    struct ix_pos p = pos_first(B);
    size_t c;
    while (!P[0].rc && take(B->cl, 0, &c))
        P[0].rc = part_run(&P[0], c, &p);
    if (!P[0].rc) /* lo: moved by this thread only */
        part_sums(B, p, B->cl->lo * B->bpp, B->ix->nb, &P[0].cum);
    if (started)
        pthread_join(th, NULL);
    return P[0].rc || P[1].rc ? -1 : 0;
}

/* The index from its parts: each part's entries where they were made,
 * their offsets moved on by the parts' before. */
static int join_parts(struct ix_build *B, struct ix_part *P)
{
    struct ss_flame_index *ix = B->ix;
    ix->ent = calloc(B->nparts, sizeof *ix->ent);
    ix->eseg = ss_alloc_array(B->nparts + 1, sizeof *ix->eseg);
    if (!ix->ent || !ix->eseg)
        return -1;
    ix->bpp = B->bpp;
    ix->nparts = B->nparts;
    ix->eseg[0] = 0;
    for (size_t c = 0; c < B->nparts; c++) {
        ix->ent[c] = B->ents[c].v;
        B->ents[c].v = NULL;
        ix->eseg[c + 1] = ix->eseg[c] + B->ents[c].n;
    }
    for (size_t b = 0; b < ix->nb; b++)
        ix->eoff[b] += (uint32_t)ix->eseg[b / B->bpp];
    ix->eoff[ix->nb] = (uint32_t)ix->eseg[B->nparts];
    ix->bcum[ix->nb] = P[0].cum;
    ix->nframes = P[0].nall + P[1].nall;
    ix->max_depth = P[1].maxdepth > P[0].maxdepth ? P[1].maxdepth : P[0].maxdepth;
    return 0;
}

int ss_flame_index_build(const struct ss_model *m, const double *sample_w, int inverted,
                         struct ss_flame_index **out, struct ss_error *err)
{
    size_t n = m->sample_stack.n, part = n / PARTS > PART_MIN ? n / PARTS : PART_MIN;
    int threaded = n >= 2 * PART_MIN && ss_threads(2) > 1;
    return ss_flame_index_build_parts(m, sample_w, inverted, threaded ? part : 0, threaded, out,
                                      err);
}

/* The build's parts and the threads' scratch.  Returns 0 or -1. */
static int parts_alloc(struct ix_build *B, struct ix_part *P, size_t part)
{
    size_t nb = B->ix->nb;
    B->bpp = part / BLOCK && part / BLOCK < nb ? part / BLOCK : nb ? nb : 1;
    B->nparts = nb ? (nb + B->bpp - 1) / B->bpp : 1;
    B->ents = ss_calloc_array(B->nparts, sizeof *B->ents);
    B->cl->lo = 0;
    B->cl->hi = B->nparts;
    return B->ents && !ix_part_alloc(&P[0], B, 1) && !ix_part_alloc(&P[1], B, 0) ? 0 : -1;
}

int ss_flame_index_build_parts(const struct ss_model *m, const double *sample_w, int inverted,
                               size_t part, int threaded, struct ss_flame_index **out,
                               struct ss_error *err)
{
    *out = NULL;
    size_t n = m->sample_stack.n, nb = (n + BLOCK - 1) / BLOCK;
    struct ss_flame_index *ix = calloc(1, sizeof *ix);
    struct ix_build B;
    struct ix_part P[2];
    struct ix_claims cl;
    memset(&B, 0, sizeof B);
    memset(P, 0, sizeof P);
    if (!ix || pthread_mutex_init(&cl.mu, NULL)) {
        free(ix);
        return ss_nomem(err, "flame chart index");
    }
    B.m = m;
    B.ix = ix;
    B.cl = &cl;
    B.w = sample_w;
    B.wcol = m->weights.row ? NULL : m->weights.col;
    if (ss_weights_are_counts(m) && m->values.n) { /* ss_sample_weight: the count column, or 1 */
        const int64_t *count = m->values.v[SS_VT_COUNT];
        B.one = !count;
        B.wcol = m->value_rows ? NULL : count;
    }
    ix->w = sample_w;
    ix->inverted = inverted != 0;
    ix->n = n;
    ix->nb = nb;
    int rc = -1;
    if (ix_alloc(&B, n, nb))
        goto out;
    if (!index_rows(m, ix)) {
        rc = 0; /* too deep: the caller builds without */
        goto out;
    }
    for (size_t k = 0; k < m->sources.n; k++)
        ix->scale[k] = ss_source_scale(m, k);
    if (pair_lcp_init(&B.pf, m, ix->fn, 1) || pair_lcp_init(&B.pl, m, ix->loc, 1) ||
        parts_alloc(&B, P, part) || run_parts(&B, P, threaded) || join_parts(&B, P))
        goto out;
    *out = ix;
    rc = 0;
out:
    ix_part_free(&P[0]);
    ix_part_free(&P[1]);
    ix_build_free(&B);
    pthread_mutex_destroy(&cl.mu);
    if (!*out)
        ss_flame_index_free(ix);
    return rc ? ss_nomem(err, "flame chart index") : 0;
}

/* ---- questions ------------------------------------------------------------ */

/* The first sample of the frame at depth j that holds taken sample i. */
static size_t frame_start(const struct ss_flame_index *ix, size_t i, size_t j)
{
    size_t k = i;
    for (;;) {
        size_t b0 = k / BLOCK * BLOCK;
        for (;; k--) {
            if (ix->lcp[k] <= j)
                return k;
            if (k == b0)
                break;
        }
        /* the block of the first taken sample holds a 0: this stops */
        size_t b = b0 / BLOCK - 1;
        while (ix->bmin[b] > j)
            b--;
        k = (b + 1) * BLOCK - 1;
    }
}

/* One past the last sample of that frame: the next k > i with lcp[k] <= j,
 * or n. */
static size_t frame_end(const struct ss_flame_index *ix, size_t i, size_t j)
{
    size_t k = i + 1;
    while (k < ix->n) {
        size_t bend = (k / BLOCK + 1) * BLOCK;
        if (bend > ix->n)
            bend = ix->n;
        for (; k < bend; k++)
            if (ix->lcp[k] <= j)
                return k;
        if (k >= ix->n)
            break; /* the last block, not whole */
        size_t b = k / BLOCK;
        while (b < ix->nb && ix->bmin[b] > j)
            b++;
        if (b >= ix->nb)
            return ix->n;
        k = b * BLOCK;
    }
    return ix->n;
}

/* The weight of sample k: the caller's, or the model's measure times the
 * scale of k's source (the same double as ss_flame_measure_weights gives).
 * *src is the source of a sample at or before k (moved on to k's). */
static inline double weight(const struct ss_model *m, const struct ss_flame_index *ix, size_t k,
                            size_t *src)
{
    if (ix->w)
        return ix->w[k];
    while (*src < m->sources.n &&
           k >= m->sources.v[*src].first_sample + m->sources.v[*src].n_samples)
        (*src)++;
    return *src < m->sources.n ? (double)ss_sample_weight(m, k) * ix->scale[*src] : 0;
}

/* The taken weight before sample k (k <= n), summed in sample order from
 * its block's start: the same double as a sum over every sample before. */
static double cum_at(const struct ss_model *m, const struct ss_flame_index *ix, size_t k)
{
    if (k >= ix->n)
        return ix->bcum[ix->nb];
    size_t b = k / BLOCK, src = ix->bsrc[b];
    double c = ix->bcum[b];
    for (size_t t = b * BLOCK; t < k; t++)
        if (ix->lcp[t] != NOT_TAKEN)
            c += weight(m, ix, t, &src);
    return c;
}

/* The entry of block b at depth t, NULL when it has none. */
static const struct ix_entry *entry(const struct ss_flame_index *ix, size_t b, size_t t)
{
    size_t c = b / ix->bpp, lo = ix->eoff[b] - ix->eseg[c], hi = ix->eoff[b + 1] - ix->eseg[c];
    const struct ix_entry *e = ix->ent[c];
    size_t end = hi;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e[mid].depth < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < end && e[lo].depth == t ? &e[lo] : NULL;
}

/* Samples [a, b) of a frame at depth j whose location so far is *loc:
 * add the weight of those that end at j to *self, and make *loc SS_NONE
 * when one has another location at j. */
static void scan_samples(const struct ss_model *m, const struct ss_flame_index *ix, size_t a,
                         size_t b, size_t j, double *self, ss_id *loc)
{
    size_t src = a < ix->n ? ix->bsrc[a / BLOCK] : 0;
    for (size_t k = a; k < b; k++) {
        if (ix->lcp[k] == NOT_TAKEN)
            continue;
        ss_id s = m->sample_stack.v[k];
        const ss_id *fr = ss_stack_frames(m, s);
        if (ss_stack_depth(m, s) == j + 1)
            *self += weight(m, ix, k, &src);
        if (*loc != SS_NONE && ix->loc[(size_t)(fr - m->stack_loc.v) + j] != *loc)
            *loc = SS_NONE;
    }
}

/* The self weight and the location of the frame at depth j over samples
 * [s, e) (s taken). */
static void frame_self_loc(const struct ss_model *m, const struct ss_flame_index *ix, size_t s,
                           size_t e, size_t j, double *self, ss_id *loc)
{
    const ss_id *fr = ss_stack_frames(m, m->sample_stack.v[s]);
    *loc = ix->loc[(size_t)(fr - m->stack_loc.v) + j];
    *self = 0;
    size_t bs = s / BLOCK, be = e / BLOCK;
    if (be <= bs + 1) {
        scan_samples(m, ix, s, e, j, self, loc);
        return;
    }
    /* the blocks between from their entries: their consecutive samples
     * (the first with the one before the block) all share the frame */
    scan_samples(m, ix, s, (bs + 1) * BLOCK, j, self, loc);
    for (size_t b = bs + 1; b < be; b++) {
        const struct ix_entry *en = entry(ix, b, j);
        if (!en)
            continue;
        *self += en->self;
        if (en->locdiff)
            *loc = SS_NONE;
    }
    scan_samples(m, ix, be * BLOCK, e, j, self, loc);
}

/* The first block whose weight before it is above x, less one: the block
 * where weight position x lies (0 when none is before). */
static size_t block_of(const struct ss_flame_index *ix, double x)
{
    size_t lo = 0, hi = ix->nb; /* bcum[lo] <= x or lo == 0 */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (ix->bcum[mid] <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* A frame of the path being made: its node and its samples [s, e). */
struct ix_open {
    uint32_t node;
    size_t s, e;
};

int ss_flame_index_chart(const struct ss_model *m, const struct ss_flame_index *ix,
                         const struct ss_flame_grid *grid, struct ss_flame *out)
{
    VEC(struct ss_flame_node) t = {0};
    VEC(struct ix_open) open = {0};
    double total = ix->bcum[ix->nb];
    double w = grid->w > 0 ? grid->w : total, x0 = grid->w > 0 ? grid->x0 : 0;
    double step = w / (double)grid->cols, eps = step * 1e-6;
    size_t last = SIZE_MAX; /* the last sample whose path was made */
    size_t k = 0, src = 0;
    int first = 1;
    double cum = 0;
    for (size_t c = 0; c < grid->cols && ix->nb > 0; c++) {
        double pt = x0 + ((double)c + 0.5) * step;
        /* from the first taken sample that ends after pt - eps: the
         * cursor, or the block of pt - eps when that is further */
        size_t nbk = block_of(ix, pt - eps);
        if (first || nbk > k / BLOCK) {
            k = nbk * BLOCK;
            cum = ix->bcum[nbk];
            src = ix->bsrc[nbk];
            first = 0;
        }
        for (; k < ix->n; k++) {
            if (ix->lcp[k] == NOT_TAKEN)
                continue;
            double v = weight(m, ix, k, &src);
            if (cum - eps > pt)
                break; /* starts after the point: it waits for the next */
            if (pt < cum + v + eps && k != last) {
                /* sample k touches the point: its path is made */
                ss_id s = m->sample_stack.v[k];
                size_t d = ss_stack_depth(m, s);
                size_t keep = 0;
                while (keep < open.n && keep < d && k < open.v[keep].e)
                    keep++;
                for (size_t j = keep; j < open.n; j++)
                    t.v[open.v[j].node].end = (uint32_t)t.n;
                if (VEC_RESERVE(open, d))
                    goto oom;
                open.n = d;
                /* the new frames' spans, the deepest first: each holds
                 * the next, so each search starts where that one ended */
                for (size_t j = d; j-- > keep;) {
                    size_t si = j + 1 < d ? open.v[j + 1].s : k;
                    size_t ei = j + 1 < d ? open.v[j + 1].e - 1 : k;
                    open.v[j].s = frame_start(ix, si, j);
                    open.v[j].e = frame_end(ix, ei, j);
                }
                if (t.n + (d - keep) >= SS_HASHTAB_MAX || VEC_RESERVE(t, t.n + (d - keep)))
                    goto oom;
                const ss_id *fr = ss_stack_frames(m, s);
                const ss_id *fn = ix->fn + (size_t)(fr - m->stack_loc.v);
                for (size_t j = keep; j < d; j++) {
                    struct ix_open *of = &open.v[j];
                    double x = cum_at(m, ix, of->s), self;
                    ss_id loc;
                    frame_self_loc(m, ix, of->s, of->e, j, &self, &loc);
                    struct ss_flame_node nd = {fn[j],
                                               loc,
                                               j ? open.v[j - 1].node : SS_FLAME_NONE,
                                               (uint32_t)j,
                                               0,
                                               self,
                                               cum_at(m, ix, of->e) - x,
                                               x};
                    of->node = (uint32_t)t.n;
                    t.v[t.n++] = nd;
                }
                last = k;
            }
            if (pt < cum + v + eps && cum + v - eps > pt)
                break; /* it may touch the next point too */
            cum += v;
        }
    }
    for (size_t j = 0; j < open.n; j++)
        t.v[open.v[j].node].end = (uint32_t)t.n;
    VEC_FREE(open);
    out->nodes = t.v;
    out->n = t.n;
    out->total = total;
    out->nframes = ix->nframes;
    out->max_depth = ix->max_depth;
    return 0;
oom:
    VEC_FREE(t);
    VEC_FREE(open);
    return -1;
}

int ss_flame_index_search(const struct ss_model *m, const struct ss_flame_index *ix,
                          const uint8_t *fn_match, double x0, double w, uint32_t depth0,
                          double *hit, struct ss_error *err)
{
    size_t ns = ss_model_nstacks(m);
    uint8_t *has = ss_alloc_array(ns ? ns : 1, 1);
    if (!has)
        return ss_nomem(err, "flame chart search");
    for (size_t s = 0; s < ns; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        const ss_id *fn = ix->fn + (size_t)(ss_stack_frames(m, (ss_id)s) - m->stack_loc.v);
        has[s] = 0;
        for (size_t j = depth0; j < d && !has[s]; j++)
            has[s] = fn_match[fn[j]] != 0;
    }
    double h = 0, total = ix->bcum[ix->nb];
    if (x0 <= 0 && w >= total) {
        /* every taken sample: by stack */
        for (size_t s = 0; s < ns; s++)
            if (has[s])
                h += ix->stack_w[s];
    } else if (w > 0 && ix->nb > 0) {
        /* the samples whose middle is in the span, from the block before
         * it, summed in the chart's order */
        size_t b = block_of(ix, x0), src = ix->bsrc[b];
        double cum = ix->bcum[b];
        for (size_t i = b * BLOCK; i < ix->n; i++) {
            if (ix->lcp[i] == NOT_TAKEN)
                continue;
            double v = weight(m, ix, i, &src);
            double mid = cum + v / 2;
            cum += v;
            if (mid >= x0 + w)
                break;
            if (mid >= x0 && has[m->sample_stack.v[i]])
                h += v;
        }
    }
    free(has);
    *hit = h;
    return 0;
}
