/* phases.c - phases by change-point detection (see phases.h).
 *
 * The per-sample work is a table lookup (each distinct stack gets its
 * category once) and one pass counting categories per window; everything
 * after that works on at most PH_WINDOWS windows per source (cumulative
 * counts, so a stretch's counts are a subtraction) and, to place each
 * boundary on its exact sample, on the samples of a few windows around it.
 */
#include "phases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hashtab.h"
#include "levels.h"
#include "num.h"
#include "sort.h"
#include "vec.h"

#define PH_WINDOWS 1024   /* windows per source at most */
#define PH_MIN_SHARE 0.01 /* a phase has at least this share of all samples */
#define PH_REFINE 2       /* a boundary moves at most this many windows either way */
#define PH_MIN_TVD 0.1    /* neighbours differ in at least this share of their mix */
#define PH_EXACT_WORK 3e7 /* exactly N phases: N x windows^2 x categories at most */

/* A cost that cannot be had (HUGE_VAL). */
#define NONE_YET(x) (!((x) < HUGE_VAL))

/* ---- signatures and categories --------------------------------------------- */

struct sig {
    ss_id name[SS_PHASE_DEPTH]; /* string ids of the functions, SS_NONE: too shallow */
    uint64_t n;                 /* samples */
    uint32_t first;             /* the first stack with it (ties of n) */
};

struct sigtab {
    VEC(struct sig) v;
    struct ss_idset index;
};

static int sig_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct sigtab *t = ctx;
    return !memcmp(t->v.v[id].name, key, sizeof t->v.v[id].name);
}

/* The signature of stack s below `scaffold` levels, its id in t. */
static ss_id sig_of(const struct ss_model *m, const uint32_t *off, const ss_id *loc, size_t s,
                    size_t scaffold, struct sigtab *t)
{
    struct sig key;
    memset(&key, 0, sizeof key);
    size_t d = off[s + 1] - off[s];
    for (size_t k = 0; k < SS_PHASE_DEPTH; k++) {
        size_t level = scaffold + 1 + k; /* 1 = root */
        key.name[k] = SS_NONE;
        if (d >= level) {
            ss_id f = ss_loc_function(m, loc[off[s] + d - level]);
            key.name[k] = f == SS_NONE ? SS_NONE : m->functions.v[f].name;
        }
    }
    uint64_t h = ss_hash(key.name, sizeof key.name);
    size_t pos;
    if (ss_idset_reserve(&t->index, 1))
        return SS_NONE;
    ss_id id = ss_idset_find(&t->index, h, sig_eq, t, key.name, &pos);
    if (id != SS_NONE)
        return id;
    key.first = (uint32_t)s;
    if (VEC_PUSH(t->v, key))
        return SS_NONE;
    id = (ss_id)(t->v.n - 1);
    ss_idset_insert(&t->index, pos, h, id);
    return id;
}

static int sig_cmp(const void *a, const void *b, void *ctx)
{
    const struct sig *t = ctx;
    const struct sig *x = &t[*(const ss_id *)a], *y = &t[*(const ss_id *)b];
    if (x->n != y->n)
        return x->n > y->n ? -1 : 1;
    return x->first < y->first ? -1 : x->first > y->first;
}

/* The scaffold's depth of the stacks (every sample with frames has one
 * function at each of its levels). */
static int scaffold_of(const struct ss_model *m, const uint32_t *off, const ss_id *loc,
                       size_t nstacks, const uint64_t *cnt, size_t *depth, struct ss_error *err)
{
    struct ss_level_row *rows;
    size_t nr;
    int rc = ss_levels_compute_stacks(m, off, loc, nstacks, cnt, NULL, NULL, &rows, &nr, err);
    if (rc)
        return rc;
    *depth = ss_levels_scaffold(rows, nr, 1.0);
    free(rows);
    return 0;
}

int ss_phase_categories(const struct ss_model *m, const uint32_t *off, const ss_id *loc,
                        size_t nstacks, const uint64_t *cnt, uint8_t *cat, unsigned *ncat,
                        uint32_t *level, struct ss_error *err)
{
    size_t scaffold;
    int rc = scaffold_of(m, off, loc, nstacks, cnt, &scaffold, err);
    if (rc)
        return rc;
    *level = (uint32_t)scaffold + 1;
    struct sigtab t;
    memset(&t, 0, sizeof t);
    ss_id *sid = ss_alloc_array(nstacks, sizeof *sid), *order = NULL, *rank = NULL;
    rc = -1;
    if (!sid)
        goto done;
    for (size_t s = 0; s < nstacks; s++) {
        sid[s] = SS_NONE;
        if (!cnt[s])
            continue;
        if ((sid[s] = sig_of(m, off, loc, s, scaffold, &t)) == SS_NONE)
            goto done;
        t.v.v[sid[s]].n += cnt[s];
    }
    /* the commonest signatures get their own categories, the rest one */
    order = ss_alloc_array(t.v.n, sizeof *order);
    rank = ss_alloc_array(t.v.n, sizeof *rank);
    if (!order || !rank)
        goto done;
    for (size_t k = 0; k < t.v.n; k++)
        order[k] = (ss_id)k;
    if (ss_sort(order, t.v.n, sizeof *order, sig_cmp, t.v.v))
        goto done;
    for (size_t k = 0; k < t.v.n; k++)
        rank[order[k]] = (ss_id)(k < SS_PHASE_MAXCAT - 1 ? k : SS_PHASE_MAXCAT - 1);
    *ncat = t.v.n < SS_PHASE_MAXCAT ? (unsigned)(t.v.n ? t.v.n : 1) : SS_PHASE_MAXCAT;
    for (size_t s = 0; s < nstacks; s++)
        cat[s] = (uint8_t)(sid[s] == SS_NONE ? 0 : rank[sid[s]]);
    rc = 0;
done:
    free(sid);
    free(order);
    free(rank);
    VEC_FREE(t.v);
    ss_idset_free(&t.index);
    return rc ? ss_nomem(err, "phases") : 0;
}

/* ---- one source's windows and the cost of a stretch ------------------------- */

/* One source [lo, hi) of the category sequence, cut into windows of w
 * samples (the last may be shorter) with cumulative counts at their
 * edges. */
struct src {
    struct ss_phase_seq seq;
    unsigned K;
    size_t lo, hi, w, nw;
    size_t *edge;  /* nw + 1 absolute positions: edge[0] = lo, edge[nw] = hi */
    uint64_t *cum; /* (nw + 1) x K: category counts of [lo, edge[j]) */
    double phi;    /* overdispersion: the costs are divided by it */
    double beta;   /* the penalty per boundary */
    double tvd;    /* the least difference of mix between neighbours */
    size_t minlen; /* the shortest phase, in samples */
};

static void src_free(struct src *s)
{
    free(s->edge);
    free(s->cum);
    memset(s, 0, sizeof *s);
}

/* The category of sample i. */
static inline uint8_t cat_at(const struct src *s, size_t i)
{
    return s->seq.cat ? s->seq.cat[i] : s->seq.table[s->seq.idx[i]];
}

static int src_init(struct src *s, const struct ss_phase_seq *seq, unsigned K, size_t lo, size_t hi,
                    size_t maxw)
{
    memset(s, 0, sizeof *s);
    s->seq = *seq;
    s->K = K;
    s->lo = lo;
    s->hi = hi;
    size_t len = hi - lo;
    s->w = len / maxw + (len % maxw != 0);
    if (s->w == 0)
        s->w = 1;
    s->nw = len / s->w + (len % s->w != 0);
    s->edge = ss_alloc_array(s->nw + 1, sizeof *s->edge);
    s->cum = ss_calloc_array((s->nw + 1) * K, sizeof *s->cum);
    if (!s->edge || !s->cum)
        return -1;
    s->edge[0] = lo;
    for (size_t j = 0; j < s->nw; j++) {
        size_t a = lo + j * s->w, b = a + s->w < hi ? a + s->w : hi;
        uint64_t *c = s->cum + (j + 1) * K;
        memcpy(c, c - K, K * sizeof *c);
        if (seq->cat) /* the loop once per kind, not a test per sample */
            for (size_t i = a; i < b; i++)
                c[seq->cat[i]]++;
        else
            for (size_t i = a; i < b; i++)
                c[seq->table[seq->idx[i]]]++;
        s->edge[j + 1] = b;
    }
    return 0;
}

/* The negative log-likelihood of counts b - a (K categories) at their own
 * proportions: N log N - sum N_c log N_c. */
static double nll(const uint64_t *a, const uint64_t *b, unsigned K)
{
    uint64_t n = 0;
    double s = 0;
    for (unsigned c = 0; c < K; c++) {
        uint64_t d = b[c] - a[c];
        if (d) {
            n += d;
            s += (double)d * log((double)d);
        }
    }
    return n ? (double)n * log((double)n) - s : 0;
}

/* The cost of windows [i, j) (edges i < j). */
static double cost(const struct src *s, size_t i, size_t j)
{
    return nll(s->cum + i * s->K, s->cum + j * s->K, s->K) / s->phi;
}

/* Counts of [lo, p) into out[0..K). */
static void prefix(const struct src *s, size_t p, uint64_t *out)
{
    size_t j = (p - s->lo) / s->w;
    if (j > s->nw)
        j = s->nw;
    memcpy(out, s->cum + j * s->K, s->K * sizeof *out);
    for (size_t i = s->edge[j]; i < p; i++)
        out[cat_at(s, i)]++;
}

/* ---- overdispersion and penalty --------------------------------------------- */

/* The median of chi-square with k degrees of freedom (Wilson-Hilferty). */
static double chi2_median(double k)
{
    double t = 1 - 2 / (9 * k);
    return k * t * t * t;
}

static int dbl_cmp(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Pearson's chi-square of the 2 x K table of counts x and y, relative to
 * its median for independent samples; 0 when only one category is present
 * (no variation: the batches agree). */
static double pair_ratio(const uint64_t *x, const uint64_t *y, unsigned K)
{
    double nx = 0, ny = 0, x2 = 0;
    unsigned present = 0;
    for (unsigned c = 0; c < K; c++) {
        nx += (double)x[c];
        ny += (double)y[c];
    }
    for (unsigned c = 0; c < K; c++) {
        if (x[c] + y[c] == 0)
            continue;
        double t = (double)(x[c] + y[c]);
        present++;
        double ex = nx * t / (nx + ny), ey = ny * t / (nx + ny);
        x2 += ((double)x[c] - ex) * ((double)x[c] - ex) / ex +
              ((double)y[c] - ey) * ((double)y[c] - ey) / ey;
    }
    return present < 2 ? 0 : x2 / chi2_median(present - 1);
}

/* Overdispersion from runs, for a source too short for batches: a sample
 * repeats the one before with probability rho beyond chance, which
 * inflates the variance of a proportion by (1 + rho) / (1 - rho). */
static double phi_markov(const struct src *s)
{
    size_t n = s->hi - s->lo, same = 0;
    if (n < 3)
        return 1;
    for (size_t i = s->lo + 1; i < s->hi; i++)
        same += cat_at(s, i) == cat_at(s, i - 1);
    const uint64_t *tot = s->cum + s->nw * s->K;
    double p2 = 0;
    for (unsigned c = 0; c < s->K; c++)
        p2 += ((double)tot[c] / (double)n) * ((double)tot[c] / (double)n);
    if (p2 >= 1)
        return 1;
    double rho = ((double)same / (double)(n - 1) - p2) / (1 - p2);
    if (rho > 0.98)
        rho = 0.98;
    return rho > 0 ? (1 + rho) / (1 - rho) : 1;
}

/* The overdispersion of the source: batches of about sqrt(n) samples, the
 * median over adjacent pairs of their chi-square relative to independent
 * samples (a pair that straddles a boundary is far out, and the median
 * ignores the few that do; a pair of one category varies not at all); at
 * least 1. */
static int estimate_phi(struct src *s)
{
    size_t n = s->hi - s->lo, g = (size_t)sqrt((double)n) / s->w;
    if (g == 0)
        g = 1;
    size_t nb = s->nw / g; /* whole batches */
    if (nb < 6) {
        s->phi = phi_markov(s);
        return 0;
    }
    double *r = ss_alloc_array(nb, sizeof *r);
    uint64_t *x = ss_alloc_array(2 * (size_t)s->K, sizeof *x);
    if (!r || !x) {
        free(r);
        free(x);
        return -1;
    }
    size_t nr = 0;
    for (size_t b = 0; b + 1 < nb; b++) {
        const uint64_t *e0 = s->cum + b * g * s->K, *e1 = e0 + g * s->K, *e2 = e1 + g * s->K;
        for (unsigned c = 0; c < s->K; c++) {
            x[c] = e1[c] - e0[c];
            x[s->K + c] = e2[c] - e1[c];
        }
        r[nr++] = pair_ratio(x, x + s->K, s->K);
    }
    s->phi = 1;
    if (nr && !ss_sort(r, nr, sizeof *r, dbl_cmp, NULL)) {
        double med = nr % 2 ? r[nr / 2] : (r[nr / 2 - 1] + r[nr / 2]) / 2;
        s->phi = med > 1 ? med : 1;
    }
    free(r);
    free(x);
    return 0;
}

/* The penalty per boundary: BIC's, (K / 2) log n for the K categories the
 * source has and its n samples, times the user's factor; the least
 * difference of mix between neighbours too (at most half). */
static void set_penalty(struct src *s, double factor)
{
    const uint64_t *tot = s->cum + s->nw * s->K;
    unsigned present = 0;
    for (unsigned c = 0; c < s->K; c++)
        present += tot[c] > 0;
    double n = (double)(s->hi - s->lo);
    s->beta = factor * (present > 1 ? present : 2) * 0.5 * log(n > 2 ? n : 2);
    s->tvd = PH_MIN_TVD * factor < 0.5 ? PH_MIN_TVD * factor : 0.5;
}

/* ---- optimal partitioning ---------------------------------------------------- */

/* PELT over the windows of s: the edges where phases start (besides 0),
 * into *b (malloc'd) and *nb. */
static int pelt(const struct src *s, size_t **b, size_t *nb)
{
    size_t nw = s->nw;
    double *F = ss_alloc_array(nw + 1, sizeof *F);
    size_t *prev = ss_alloc_array(nw + 1, sizeof *prev);
    size_t *R = ss_alloc_array(nw + 1, sizeof *R), nr = 0;
    double *Fc = ss_alloc_array(nw + 1, sizeof *Fc);
    if (!F || !prev || !R || !Fc) {
        free(F), free(prev), free(R), free(Fc);
        return -1;
    }
    F[0] = -s->beta;
    R[nr++] = 0;
    for (size_t j = 1; j <= nw; j++) {
        F[j] = HUGE_VAL;
        prev[j] = 0;
        for (size_t k = 0; k < nr; k++) {
            size_t i = R[k];
            Fc[k] = HUGE_VAL;
            if (s->edge[j] - s->edge[i] < s->minlen || NONE_YET(F[i]))
                continue;
            Fc[k] = F[i] + cost(s, i, j);
            if (Fc[k] + s->beta < F[j]) {
                F[j] = Fc[k] + s->beta;
                prev[j] = i;
            }
        }
        /* prune: a start that cannot beat j now never will */
        size_t w = 0;
        for (size_t k = 0; k < nr; k++)
            if (NONE_YET(Fc[k]) || Fc[k] <= F[j])
                R[w++] = R[k];
        nr = w;
        R[nr++] = j;
    }
    size_t n = 0;
    for (size_t j = nw; j > 0 && !NONE_YET(F[nw]); j = prev[j])
        R[n++] = j;
    /* R holds the ends, last first: the starts are the ends but the last */
    *nb = n > 0 ? n - 1 : 0;
    *b = ss_alloc_array(*nb, sizeof **b);
    int rc = *b ? 0 : -1;
    for (size_t k = 0; *b && k < *nb; k++)
        (*b)[k] = R[n - 1 - k];
    free(F), free(prev), free(R), free(Fc);
    return rc;
}

/* ---- phases that hardly differ ------------------------------------------------ */

/* The total variation distance between the mixes of windows [i, j) and
 * [j, k): half the summed differences of the categories' shares. */
static double tvd(const struct src *s, size_t i, size_t j, size_t k)
{
    const uint64_t *a = s->cum + i * s->K, *b = s->cum + j * s->K, *c = s->cum + k * s->K;
    double na = (double)(s->edge[j] - s->edge[i]), nb = (double)(s->edge[k] - s->edge[j]), d = 0;
    for (unsigned q = 0; q < s->K; q++)
        d += fabs((double)(b[q] - a[q]) / na - (double)(c[q] - b[q]) / nb);
    return d / 2;
}

/* With much data every difference is significant: merge neighbours whose
 * mixes differ by less than s->tvd, the closest pair first, so that a
 * phase is a change a user would call one (b: the starts, window edges). */
static void merge_alike(const struct src *s, size_t *b, size_t *nb)
{
    while (*nb > 0) {
        double best = HUGE_VAL;
        size_t arg = 0;
        for (size_t k = 0; k < *nb; k++) {
            size_t i = k ? b[k - 1] : 0, j = b[k], e = k + 1 < *nb ? b[k + 1] : s->nw;
            double d = tvd(s, i, j, e);
            if (d < best) {
                best = d;
                arg = k;
            }
        }
        if (best >= s->tvd)
            return;
        memmove(b + arg, b + arg + 1, (*nb - arg - 1) * sizeof *b);
        (*nb)--;
    }
}

/* ---- exactly k phases ---------------------------------------------------------- */

/* The best costs of s in 1..kmax phases (segment neighbourhood): D[k - 1]
 * for k phases, at[k * (nw + 1) + j] the start of the last of k phases
 * ending at edge j.  Unreachable: HUGE_VAL. */
struct seg_table {
    size_t kmax, nw;
    double *D;   /* kmax x (nw + 1) */
    size_t *at;  /* kmax x (nw + 1) */
    double *end; /* end[k - 1] = D for k phases over the whole source */
};

static void seg_table_free(struct seg_table *t)
{
    free(t->D);
    free(t->at);
    free(t->end);
}

static int seg_table_fill(const struct src *s, size_t kmax, struct seg_table *t)
{
    size_t W = s->nw + 1;
    t->kmax = kmax;
    t->nw = s->nw;
    t->D = ss_alloc_array(kmax * W, sizeof *t->D);
    t->at = ss_alloc_array(kmax * W, sizeof *t->at);
    t->end = ss_alloc_array(kmax, sizeof *t->end);
    if (!t->D || !t->at || !t->end)
        return -1;
    for (size_t k = 0; k < kmax; k++)
        for (size_t j = 0; j < W; j++) {
            double best = HUGE_VAL;
            size_t arg = 0;
            if (k == 0) {
                if (j > 0 && s->edge[j] - s->edge[0] >= s->minlen)
                    best = cost(s, 0, j);
            } else {
                for (size_t i = k; i < j; i++) {
                    double prev = t->D[(k - 1) * W + i];
                    if (NONE_YET(prev) || s->edge[j] - s->edge[i] < s->minlen)
                        continue;
                    double v = prev + cost(s, i, j);
                    if (v < best) {
                        best = v;
                        arg = i;
                    }
                }
            }
            t->D[k * W + j] = best;
            t->at[k * W + j] = arg;
        }
    for (size_t k = 0; k < kmax; k++)
        t->end[k] = t->D[k * W + s->nw];
    return 0;
}

/* The starts (window edges besides 0) of the best k phases of table t. */
static int seg_table_starts(const struct seg_table *t, size_t k, size_t **b, size_t *nb)
{
    size_t W = t->nw + 1;
    *nb = k - 1;
    *b = ss_alloc_array(*nb, sizeof **b);
    if (!*b)
        return -1;
    size_t j = t->nw;
    for (size_t q = k; q > 1; q--) {
        j = t->at[(q - 1) * W + j];
        (*b)[q - 2] = j;
    }
    return 0;
}

/* ---- the exact sample ------------------------------------------------------------ */

/* Move the boundary at p, between phases starting at a and ending at c, to
 * the sample within PH_REFINE windows that maximises the likelihood of the
 * two phases (the first of equals); each keeps at least minlen samples. */
static size_t refine(const struct src *s, size_t a, size_t p, size_t c, uint64_t *buf)
{
    size_t reach = PH_REFINE * s->w;
    size_t from = p > a + reach ? p - reach : a, to = p + reach < c ? p + reach : c;
    if (from < a + s->minlen)
        from = a + s->minlen;
    if (to + s->minlen > c)
        to = c >= s->minlen ? c - s->minlen : 0;
    if (from > to)
        return p;
    unsigned K = s->K;
    uint64_t *pa = buf, *pc = buf + K, *px = buf + 2 * K;
    prefix(s, a, pa);
    prefix(s, c, pc);
    prefix(s, from, px);
    double best = HUGE_VAL;
    size_t arg = p;
    for (size_t x = from;; x++) {
        double v = nll(pa, px, K) + nll(px, pc, K);
        if (v < best - 1e-9 * (v > 1 ? v : 1)) {
            best = v;
            arg = x;
        }
        if (x == to)
            break;
        px[cat_at(s, x)]++;
    }
    return arg;
}

/* ---- a whole profile ---------------------------------------------------------------- */

/* The sources of the sequence: [bound[k], bound[k + 1]) for k < nsrc. */
static int source_bounds(size_t n, const size_t *breaks, size_t nbreaks, size_t **bound,
                         size_t *nsrc)
{
    *bound = ss_alloc_array(nbreaks + 2, sizeof **bound);
    if (!*bound)
        return -1;
    size_t k = 0;
    (*bound)[k++] = 0;
    for (size_t i = 0; i < nbreaks; i++)
        if (breaks[i] > (*bound)[k - 1] && breaks[i] < n)
            (*bound)[k++] = breaks[i];
    (*bound)[k] = n;
    *nsrc = k;
    return 0;
}

/* The window edges where phases of source s start, besides its first:
 * penalised (k == 0) or exactly k phases from table t. */
static int source_starts(const struct src *s, const struct seg_table *t, size_t k, size_t **b,
                         size_t *nb)
{
    if (s->hi - s->lo < 2 * s->minlen) { /* no room for two phases */
        *nb = 0;
        *b = ss_alloc_array(1, sizeof **b);
        return *b ? 0 : -1;
    }
    if (k)
        return seg_table_starts(t, k, b, nb);
    int rc = pelt(s, b, nb);
    if (!rc)
        merge_alike(s, *b, nb);
    return rc;
}

/* Append the phase starts of source s (edges b[0..nb), refined to the
 * exact sample) to out. */
static int add_starts(const struct src *s, const size_t *b, size_t nb, size_t *out, size_t *n)
{
    uint64_t *buf = ss_alloc_array(3 * (size_t)s->K, sizeof *buf);
    if (!buf)
        return -1;
    out[(*n)++] = s->lo;
    for (size_t k = 0; k < nb; k++) {
        size_t a = out[*n - 1], c = k + 1 < nb ? s->edge[b[k + 1]] : s->hi;
        out[(*n)++] = refine(s, a, s->edge[b[k]], c, buf);
    }
    free(buf);
    return 0;
}

/* How many phases each source gets when exactly `want` are asked for:
 * the split of want over the sources (each at least 1) of least total
 * cost, from their tables.  Returns 0, or SS_EUSAGE with err filled. */
static int split_count(struct seg_table *t, size_t nsrc, size_t want, size_t *k,
                       struct ss_error *err)
{
    size_t most = 0;
    for (size_t s = 0; s < nsrc; s++)
        for (size_t q = t[s].kmax; q > 0; q--)
            if (!NONE_YET(t[s].end[q - 1])) {
                most += q;
                break;
            }
    if (want < nsrc)
        return ss_fail(err, SS_EUSAGE,
                       "--phases %zu: the profile has %zu sources (files or sessions), and a "
                       "source boundary is always a phase boundary",
                       want, nsrc);
    if (want > most)
        return ss_fail(err, SS_EUSAGE,
                       "--phases %zu: the profile can have at most %zu phases of at least 1%% "
                       "of its samples",
                       want, most);
    /* best[s][q]: sources 0..s-1 in q phases, at[]: the last source's share */
    size_t W = want + 1;
    double *best = ss_alloc_array((nsrc + 1) * W, sizeof *best);
    size_t *at = ss_alloc_array((nsrc + 1) * W, sizeof *at);
    if (!best || !at) {
        free(best), free(at);
        return ss_nomem(err, "phases");
    }
    for (size_t q = 0; q < W; q++)
        best[q] = q ? HUGE_VAL : 0;
    for (size_t s = 0; s < nsrc; s++)
        for (size_t q = 0; q < W; q++) {
            best[(s + 1) * W + q] = HUGE_VAL;
            for (size_t r = 1; r <= t[s].kmax && r <= q; r++) {
                double v = best[s * W + q - r] + t[s].end[r - 1];
                if (!NONE_YET(t[s].end[r - 1]) && v < best[(s + 1) * W + q]) {
                    best[(s + 1) * W + q] = v;
                    at[(s + 1) * W + q] = r;
                }
            }
        }
    for (size_t s = nsrc, q = want; s > 0; s--) {
        k[s - 1] = at[s * W + q];
        q -= k[s - 1];
    }
    free(best), free(at);
    return 0;
}

int ss_phases_detect(const struct ss_phase_seq *seq, size_t n, unsigned ncat, const size_t *breaks,
                     size_t nbreaks, const struct ss_phase_opts *o, size_t **starts,
                     size_t *nphases, struct ss_error *err)
{
    *starts = NULL;
    *nphases = 0;
    size_t *bound = NULL, nsrc = 0, *k = NULL, np = 0;
    struct src *s = NULL;
    struct seg_table *t = NULL;
    size_t *out = NULL;
    double factor = o && o->penalty > 0 ? o->penalty : 1;
    size_t want = o ? o->count : 0;
    int rc = SS_ENOMEM;
    if (n == 0)
        return 0;
    if (source_bounds(n, breaks, nbreaks, &bound, &nsrc))
        goto done;
    s = ss_calloc_array(nsrc, sizeof *s);
    t = ss_calloc_array(nsrc, sizeof *t);
    k = ss_calloc_array(nsrc, sizeof *k);
    if (!s || !t || !k)
        goto done;
    size_t minlen = (size_t)ceil(PH_MIN_SHARE * (double)n), most = 0;
    /* exactly k phases cost k x windows^2 x categories: fewer, wider
     * windows for many phases (the boundaries are refined to the sample
     * all the same), PH_WINDOWS for a few */
    size_t maxw = PH_WINDOWS;
    if (want) {
        double w = sqrt(PH_EXACT_WORK / ((double)want * ncat));
        maxw = w < 64 ? 64 : w < PH_WINDOWS ? (size_t)w : PH_WINDOWS;
    }
    for (size_t q = 0; q < nsrc; q++) {
        if (src_init(&s[q], seq, ncat, bound[q], bound[q + 1], maxw) || estimate_phi(&s[q]))
            goto done;
        /* a source shorter than that is one phase */
        s[q].minlen = minlen < bound[q + 1] - bound[q] ? minlen : bound[q + 1] - bound[q];
        set_penalty(&s[q], factor);
        most += (bound[q + 1] - bound[q]) / s[q].minlen + 1;
        if (want &&
            seg_table_fill(&s[q], want - nsrc + 1 < s[q].nw ? want - nsrc + 1 : s[q].nw, &t[q]))
            goto done;
    }
    if (want && (rc = split_count(t, nsrc, want, k, err)) != 0)
        goto free_all;
    out = ss_alloc_array(most + nsrc, sizeof *out);
    if (!out)
        goto done;
    for (size_t q = 0; q < nsrc; q++) {
        size_t *b, nb;
        if (source_starts(&s[q], &t[q], k[q], &b, &nb))
            goto done;
        int bad = add_starts(&s[q], b, nb, out, &np);
        free(b);
        if (bad)
            goto done;
    }
    *starts = out;
    *nphases = np;
    out = NULL;
    rc = 0;
    goto free_all;
done:
    rc = ss_nomem(err, "phases");
free_all:
    for (size_t q = 0; s && t && q < nsrc; q++) {
        src_free(&s[q]);
        seg_table_free(&t[q]);
    }
    free(bound), free(s), free(t), free(k), free(out);
    return rc;
}

/* ---- the phases of a model ---------------------------------------------------------- */

void ss_phases_free(struct ss_phases *p)
{
    free(p->v);
    memset(p, 0, sizeof *p);
}

size_t ss_phases_find(const struct ss_phases *p, size_t i)
{
    size_t lo = 0, hi = p->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->v[mid].first + p->v[mid].n <= i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->n && p->v[lo].first <= i ? lo : p->n;
}

/* The work of ss_phases_compute: per stack its samples, category and the
 * canonical functions of its signature (each once, SS_NONE after the
 * last); per sample its category. */
struct model_phases {
    const struct ss_model *m;
    size_t nstacks;
    uint64_t *rows; /* per stack: samples */
    uint8_t *scat;  /* per stack: category */
    ss_id *sfn;     /* per stack: SS_PHASE_DEPTH function ids */
    uint8_t *cat;   /* per sample, when a source has no time order (else NULL:
                     * the stacks' categories are read through the timeline) */
    size_t *breaks; /* source starts */
    size_t nbreaks;
    uint64_t *f_all; /* per function: samples with it in their signature */
    uint8_t *f_lv;   /* per function: its shallowest level there (0: the first) */
    uint64_t *f_in;  /* ... in the phase at hand (touched ones only) */
    ss_id *touched;  /* stacks, then functions, of the phase at hand */
    uint64_t *s_in;  /* per stack: samples in the phase at hand */
};

static void mp_free(struct model_phases *w)
{
    free(w->rows), free(w->scat), free(w->sfn), free(w->cat), free(w->breaks);
    free(w->f_all), free(w->f_lv), free(w->f_in), free(w->touched), free(w->s_in);
}

static int mp_alloc(struct model_phases *w, const struct ss_model *m)
{
    memset(w, 0, sizeof *w);
    w->m = m;
    size_t ns = ss_model_nstacks(m), nf = m->functions.n;
    w->nstacks = ns;
    w->rows = ss_calloc_array(ns, sizeof *w->rows);
    w->scat = ss_alloc_array(ns, 1);
    w->sfn = ss_alloc_array(ns * SS_PHASE_DEPTH, sizeof *w->sfn);
    w->breaks = ss_alloc_array(m->sources.n, sizeof *w->breaks);
    w->f_all = ss_calloc_array(nf, sizeof *w->f_all);
    w->f_lv = ss_alloc_array(nf, 1);
    w->f_in = ss_calloc_array(nf, sizeof *w->f_in);
    w->touched = ss_alloc_array(ns > nf ? ns : nf, sizeof *w->touched);
    w->s_in = ss_calloc_array(ns, sizeof *w->s_in);
    if (w->f_lv)
        memset(w->f_lv, SS_PHASE_DEPTH, nf ? nf : 1);
    return w->rows && w->scat && w->sfn && w->breaks && w->f_all && w->f_lv && w->f_in &&
                   w->touched && w->s_in
               ? 0
               : -1;
}

/* The signature's canonical functions of every stack, each once, and how
 * many samples have each function there (f_all). */
static void mp_functions(struct model_phases *w, uint32_t level)
{
    const struct ss_model *m = w->m;
    for (size_t s = 0; s < w->nstacks; s++) {
        ss_id *f = w->sfn + s * SS_PHASE_DEPTH;
        size_t d = ss_stack_depth(m, (ss_id)s), nf = 0;
        for (size_t k = 0; k < SS_PHASE_DEPTH; k++) {
            f[k] = SS_NONE;
            size_t lv = level + k;
            if (d < lv)
                continue;
            ss_id fn = ss_loc_function(m, ss_stack_frames(m, (ss_id)s)[d - lv]);
            if (fn == SS_NONE)
                continue;
            fn = ss_function_canonical(m, fn);
            int seen = 0;
            for (size_t q = 0; q < nf; q++)
                seen |= f[q] == fn;
            if (!seen)
                f[nf++] = fn;
            if (k < w->f_lv[fn])
                w->f_lv[fn] = (uint8_t)k;
        }
        for (size_t q = 0; q < nf; q++)
            w->f_all[f[q]] += w->rows[s];
    }
}

/* How much function f's share tells phase `in` (of nin samples) from the
 * rest of the profile (ntot samples): its share in the phase x the log of
 * that over its share elsewhere (smoothed); with one phase, its share.  0
 * when it is not at least half as common again in the phase as elsewhere:
 * it does not tell the phase apart. */
static double distinction(uint64_t in, uint64_t nin, uint64_t all, uint64_t ntot)
{
    double p = (double)in / (double)nin;
    if (nin >= ntot)
        return p;
    double q = ((double)(all - in) + 0.5) / ((double)(ntot - nin) + 1.0);
    return p >= 1.5 * q ? p * log(p / q) : 0;
}

/* Does function f with score sc come before function g with score sg?
 * The higher score, then the shallower level (of two functions always
 * called together, the caller), then the lower name in byte order. */
static int top_before(const struct model_phases *w, ss_id f, double sc, ss_id g, double sg)
{
    if (!ss_double_eq(sc, sg))
        return sc > sg;
    if (w->f_lv[f] != w->f_lv[g])
        return w->f_lv[f] < w->f_lv[g];
    return strcmp(ss_function_name(w->m, f), ss_function_name(w->m, g)) < 0;
}

/* Keep the SS_PHASE_TOPS functions that come first in ph->top. */
static void offer_top(const struct model_phases *w, struct ss_phase *ph, double *score, ss_id f,
                      double sc, double share)
{
    size_t k = SS_PHASE_TOPS;
    while (k > 0 &&
           (ph->top[k - 1] == SS_NONE || top_before(w, f, sc, ph->top[k - 1], score[k - 1])))
        k--;
    if (k == SS_PHASE_TOPS)
        return;
    memmove(ph->top + k + 1, ph->top + k, (SS_PHASE_TOPS - k - 1) * sizeof *ph->top);
    memmove(ph->top_share + k + 1, ph->top_share + k,
            (SS_PHASE_TOPS - k - 1) * sizeof *ph->top_share);
    memmove(score + k + 1, score + k, (SS_PHASE_TOPS - k - 1) * sizeof *score);
    ph->top[k] = f;
    ph->top_share[k] = share;
    score[k] = sc;
}

/* Fill phase ph (its first and n set): counts, measure and top functions,
 * from one pass over its samples. */
static void mp_phase(struct model_phases *w, struct ss_phase *ph, size_t ntot)
{
    const struct ss_model *m = w->m;
    size_t nt = 0;
    int64_t weight = 0;
    const ss_id *ss = m->sample_stack.v;
    if (ss_weights_are_counts(m) && !m->values.v[SS_VT_COUNT]) {
        /* every sample counts and weighs 1 (Rprof): the stacks' counts say it */
        for (size_t i = ph->first; i < ph->first + ph->n; i++)
            if (w->s_in[ss[i]]++ == 0)
                w->touched[nt++] = ss[i];
        ph->count = ph->n;
        for (size_t t = 0; t < nt; t++)
            weight += ss_stack_depth(m, w->touched[t]) > 0 ? (int64_t)w->s_in[w->touched[t]] : 0;
    } else {
        for (size_t i = ph->first; i < ph->first + ph->n; i++) {
            if (w->s_in[ss[i]]++ == 0)
                w->touched[nt++] = ss[i];
            ph->count += (uint64_t)ss_sample_count(m, i);
            if (ss_stack_depth(m, ss[i]) > 0)
                weight += ss_sample_weight(m, i);
        }
    }
    ph->value = (double)weight * ss_source_scale(m, ss_sample_source(m, ph->first));
    /* per function: the phase's samples with it in their signature */
    for (size_t t = 0; t < nt; t++) {
        ss_id s = w->touched[t];
        for (size_t k = 0; k < SS_PHASE_DEPTH && w->sfn[s * SS_PHASE_DEPTH + k] != SS_NONE; k++)
            w->f_in[w->sfn[s * SS_PHASE_DEPTH + k]] += w->s_in[s];
        w->s_in[s] = 0;
    }
    double score[SS_PHASE_TOPS];
    for (size_t k = 0; k < SS_PHASE_TOPS; k++) {
        ph->top[k] = SS_NONE;
        ph->top_share[k] = 0;
        score[k] = 0;
    }
    for (size_t t = 0; t < nt; t++) {
        ss_id s = w->touched[t];
        for (size_t k = 0; k < SS_PHASE_DEPTH; k++) {
            ss_id f = w->sfn[s * SS_PHASE_DEPTH + k];
            if (f == SS_NONE || !w->f_in[f])
                continue;
            /* a function it has too little of, or less than elsewhere,
             * does not tell it apart */
            double share = (double)w->f_in[f] / (double)ph->n;
            double sc = distinction(w->f_in[f], ph->n, w->f_all[f], ntot);
            if (share >= 0.005 && sc > 0)
                offer_top(w, ph, score, f, sc, share);
            w->f_in[f] = 0; /* offered once */
        }
    }
}

/* The category of every sample and the source starts. */
static int mp_signal(struct model_phases *w, unsigned *ncat, uint32_t *level, struct ss_error *err)
{
    const struct ss_model *m = w->m;
    const ss_id *ss = m->sample_stack.v;
    size_t n = m->sample_stack.n;
    for (size_t i = 0; i < n; i++)
        w->rows[ss[i]]++;
    int rc = ss_phase_categories(m, m->stack_off.v, m->stack_loc.v, w->nstacks, w->rows, w->scat,
                                 ncat, level, err);
    if (rc)
        return rc;
    int unordered = 0;
    for (size_t s = 0; s < m->sources.n; s++)
        unordered |= (m->sources.v[s].flags & SS_SRC_UNORDERED) && m->sources.v[s].n_samples;
    if (unordered) { /* a source without time order is one phase: one category */
        if (!(w->cat = ss_alloc_array(n, 1)))
            return ss_nomem(err, "phases");
        for (size_t i = 0; i < n; i++)
            w->cat[i] = w->scat[ss[i]];
        for (size_t s = 0; s < m->sources.n; s++)
            if (m->sources.v[s].flags & SS_SRC_UNORDERED)
                memset(w->cat + m->sources.v[s].first_sample, 0, m->sources.v[s].n_samples);
    }
    for (size_t s = 1; s < m->sources.n; s++)
        if (m->sources.v[s].n_samples)
            w->breaks[w->nbreaks++] = m->sources.v[s].first_sample;
    return 0;
}

int ss_phases_compute(const struct ss_model *m, const struct ss_phase_opts *o,
                      struct ss_phases *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    struct model_phases w;
    size_t *starts = NULL, np = 0, n = m->sample_stack.n;
    int rc = mp_alloc(&w, m) ? ss_nomem(err, "phases") : 0;
    if (!rc)
        rc = mp_signal(&w, &out->ncat, &out->level, err);
    struct ss_phase_seq seq = {w.cat, m->sample_stack.v, w.scat};
    if (!rc)
        rc = ss_phases_detect(&seq, n, out->ncat, w.breaks, w.nbreaks, o, &starts, &np, err);
    if (!rc && !(out->v = ss_calloc_array(np, sizeof *out->v)))
        rc = ss_nomem(err, "phases");
    if (!rc) {
        mp_functions(&w, out->level);
        out->n = np;
        for (size_t k = 0; k < np; k++) {
            struct ss_phase *ph = &out->v[k];
            ph->first = starts[k];
            ph->n = (k + 1 < np ? starts[k + 1] : n) - starts[k];
            mp_phase(&w, ph, n);
            out->value += ph->value;
            if (ph->n > out->v[out->main].n)
                out->main = k;
        }
    }
    free(starts);
    mp_free(&w);
    if (rc)
        ss_phases_free(out);
    return rc;
}

/* ---- naming a phase ---------------------------------------------------------------- */

static const char *const which_name[] = {
    [SS_PHASE_MAIN] = "main", [SS_PHASE_FIRST] = "first", [SS_PHASE_LAST] = "last"};

int ss_phase_ref_parse(const char *s, size_t len, struct ss_phase_ref *r)
{
    memset(r, 0, sizeof *r);
    for (size_t k = SS_PHASE_MAIN; k <= SS_PHASE_LAST; k++)
        if (strlen(which_name[k]) == len && !memcmp(s, which_name[k], len)) {
            r->which = (enum ss_phase_which)k;
            return 0;
        }
    size_t v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9' || v > 100000000)
            return -1;
        v = v * 10 + (size_t)(s[i] - '0');
    }
    if (len == 0 || v == 0)
        return -1;
    r->which = SS_PHASE_NUMBER;
    r->number = v;
    return 0;
}

void ss_phase_ref_text(const struct ss_phase_ref *r, char *buf, size_t n)
{
    if (r->which == SS_PHASE_NUMBER)
        snprintf(buf, n, "%zu", r->number);
    else
        snprintf(buf, n, "%s", which_name[r->which]);
}

size_t ss_phase_ref_pick(const struct ss_phase_ref *r, const size_t *starts, size_t nphases,
                         size_t total)
{
    if (nphases == 0)
        return 0;
    switch (r->which) {
    case SS_PHASE_FIRST:
        return 0;
    case SS_PHASE_LAST:
        return nphases - 1;
    case SS_PHASE_NUMBER:
        return r->number <= nphases ? r->number - 1 : nphases;
    default: {
        size_t best = 0;
        for (size_t k = 1; k < nphases; k++) {
            size_t len = (k + 1 < nphases ? starts[k + 1] : total) - starts[k];
            size_t blen = (best + 1 < nphases ? starts[best + 1] : total) - starts[best];
            if (len > blen)
                best = k;
        }
        return best;
    }
    }
}
