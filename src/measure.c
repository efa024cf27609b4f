/* measure.c - the measures a model offers and the weights of the chosen one
 * (see model.h and stackscope(1), MEASURES). */
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rprof.h"
#include "vec.h"
#include "num.h"

static const char *const builtin_name[] = {
    [SS_MEASURE_TIME] = "time",         [SS_MEASURE_SAMPLES] = "samples",
    [SS_MEASURE_COLUMN] = "column",     [SS_MEASURE_MEMORY] = "memory",
    [SS_MEASURE_RELEASED] = "released",
};

static int is_rprof_counter(const struct ss_model *m, const struct ss_rprof_vt *rvt, int have,
                            ss_id vt)
{
    (void)m;
    return have && (vt == rvt->small_v || vt == rvt->big_v || vt == rvt->nodes);
}

const char *ss_measure_name(const struct ss_model *m, const struct ss_measure *ms)
{
    if (ms->kind == SS_MEASURE_COLUMN && ms->vt < m->value_types.n) {
        struct ss_rprof_vt rvt;
        if (ss_rprof_value_types(m, &rvt) == 0 && ms->vt == rvt.dup_count)
            return "duplications";
        return ss_str(m, m->value_types.v[ms->vt].type);
    }
    return builtin_name[ms->kind];
}

const char *ss_measure_unit(const struct ss_model *m, const struct ss_measure *ms)
{
    switch (ms->kind) {
    case SS_MEASURE_TIME:
        return "seconds";
    case SS_MEASURE_SAMPLES:
        return "count";
    case SS_MEASURE_MEMORY:
    case SS_MEASURE_RELEASED:
        return "bytes";
    case SS_MEASURE_COLUMN:
        break;
    }
    return ms->vt < m->value_types.n ? ss_str(m, m->value_types.v[ms->vt].unit) : "count";
}

/* How a pprof unit reads: a time, a size, a count or something else. */
static void unit_of(const char *u, enum ss_unit_kind *kind, double *scale)
{
    static const struct {
        const char *name;
        enum ss_unit_kind kind;
        double scale;
    } units[] = {
        {"nanoseconds", SS_UNIT_SECONDS, 1e-9},
        {"microseconds", SS_UNIT_SECONDS, 1e-6},
        {"milliseconds", SS_UNIT_SECONDS, 1e-3},
        {"seconds", SS_UNIT_SECONDS, 1},
        {"bytes", SS_UNIT_BYTES, 1},
        {"kilobytes", SS_UNIT_BYTES, 1024},
        {"megabytes", SS_UNIT_BYTES, 1048576},
        {"count", SS_UNIT_COUNT, 1},
    };
    for (size_t i = 0; i < ARRAY_SIZE(units); i++)
        if (!strcmp(u, units[i].name)) {
            *kind = units[i].kind;
            *scale = units[i].scale;
            return;
        }
    *kind = SS_UNIT_OTHER;
    *scale = 1;
}

static struct ss_measure builtin(enum ss_measure_kind k)
{
    struct ss_measure ms = {k, SS_NONE, SS_UNIT_COUNT, 1};
    if (k == SS_MEASURE_TIME)
        ms.unit_kind = SS_UNIT_SECONDS;
    else if (k == SS_MEASURE_MEMORY || k == SS_MEASURE_RELEASED)
        ms.unit_kind = SS_UNIT_BYTES;
    return ms;
}

static struct ss_measure column(const struct ss_model *m, ss_id vt)
{
    struct ss_measure ms = {SS_MEASURE_COLUMN, vt, SS_UNIT_COUNT, 1};
    unit_of(ss_str(m, m->value_types.v[vt].unit), &ms.unit_kind, &ms.unit_scale);
    return ms;
}

static uint64_t source_mask(const struct ss_source *s)
{
    return s->values ? s->values : 1;
}

/* Does source s have column vt (as a measure: not Rprof's counters)? */
static int has_column(const struct ss_model *m, const struct ss_source *s, ss_id vt,
                      const struct ss_rprof_vt *rvt, int have_rvt)
{
    if (vt >= SS_SOURCE_VALUE_BITS)
        return 0;
    /* Rprof's cumulative counters are no measure (memory and released are
     * made from them); dup_count is `duplications` where memory was profiled */
    if (is_rprof_counter(m, rvt, have_rvt, vt))
        return 0;
    if (have_rvt && vt == rvt->dup_count)
        return (s->flags & SS_SRC_MEMORY) != 0;
    if (s->time_column == vt + 1 && s->default_column != vt + 1)
        return 0; /* it is the source's `time` (a pprof cpu column stays a measure too) */
    return vt != SS_VT_COUNT && s->values && (s->values >> vt & 1);
}

int ss_source_has_measure(const struct ss_model *m, size_t s, const struct ss_measure *ms)
{
    const struct ss_source *src = &m->sources.v[s];
    struct ss_rprof_vt rvt;
    int have_rvt = ss_rprof_value_types(m, &rvt) == 0;
    switch (ms->kind) {
    case SS_MEASURE_TIME:
        return !(src->flags & SS_SRC_UNTIMED);
    case SS_MEASURE_SAMPLES:
        return (source_mask(src) & 1) != 0;
    case SS_MEASURE_MEMORY:
    case SS_MEASURE_RELEASED:
        return (src->flags & SS_SRC_MEMORY) && have_rvt;
    case SS_MEASURE_COLUMN:
        return has_column(m, src, ms->vt, &rvt, have_rvt);
    }
    return 0;
}

static int same(const struct ss_measure *a, const struct ss_measure *b)
{
    return a->kind == b->kind && (a->kind != SS_MEASURE_COLUMN || a->vt == b->vt);
}

/* The default measure of source s. */
static struct ss_measure source_default(const struct ss_model *m, const struct ss_source *s)
{
    if (s->default_column && s->default_column - 1 < m->value_types.n) {
        ss_id vt = s->default_column - 1;
        return vt == SS_VT_COUNT ? builtin(SS_MEASURE_SAMPLES) : column(m, vt);
    }
    return builtin(s->flags & SS_SRC_UNTIMED ? SS_MEASURE_SAMPLES : SS_MEASURE_TIME);
}

size_t ss_model_measures(const struct ss_model *m, struct ss_measure *out, size_t max)
{
    size_t n = 0;
    struct ss_measure all[SS_SOURCE_VALUE_BITS + 8];
#define ADD(ms)                                                                                    \
    do {                                                                                           \
        struct ss_measure x_ = (ms);                                                               \
        size_t k_ = 0;                                                                             \
        while (k_ < n && !same(&all[k_], &x_))                                                     \
            k_++;                                                                                  \
        if (k_ == n && n < ARRAY_SIZE(all))                                                        \
            all[n++] = x_;                                                                         \
    } while (0)
    /* the default first: the first source's with samples, else the first's */
    const struct ss_source *first = NULL;
    for (size_t s = 0; s < m->sources.n && !first; s++)
        if (m->sources.v[s].n_samples || (m->sources.v[s].flags & SS_SRC_AGGREGATE))
            first = &m->sources.v[s];
    if (!first && m->sources.n)
        first = &m->sources.v[0];
    if (first)
        ADD(source_default(m, first));
    else
        ADD(builtin(SS_MEASURE_TIME));
    struct ss_rprof_vt rvt;
    int have_rvt = ss_rprof_value_types(m, &rvt) == 0;
    static const enum ss_measure_kind kinds[] = {SS_MEASURE_TIME, SS_MEASURE_SAMPLES,
                                                 SS_MEASURE_MEMORY, SS_MEASURE_RELEASED};
    for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
        struct ss_measure b = builtin(kinds[k]);
        for (size_t s = 0; s < m->sources.n; s++)
            if (ss_source_has_measure(m, s, &b)) {
                ADD(b);
                break;
            }
    }
    for (size_t vt = 1; vt < m->value_types.n && vt < SS_SOURCE_VALUE_BITS; vt++)
        for (size_t s = 0; s < m->sources.n; s++)
            if (has_column(m, &m->sources.v[s], (ss_id)vt, &rvt, have_rvt)) {
                ADD(column(m, (ss_id)vt));
                break;
            }
#undef ADD
    for (size_t i = 0; i < n && i < max; i++)
        out[i] = all[i];
    return n;
}

static void weights_free(struct ss_weights *w)
{
    free(w->owned);
    free(w->scale);
    free(w->exact);
    memset(w, 0, sizeof *w);
    w->measure = builtin(SS_MEASURE_TIME);
}

void ss_model_weights_free(struct ss_model *m)
{
    weights_free(&m->weights);
}

/* R's memory="both" bytes (memory) or profvis's released bytes per sample,
 * against the sample its session recorded before it (removed by a
 * transform or not: ss_sample_prev_row), 0 for the session's first sample
 * and for sources without memory profiling; each clamped so that the
 * column sums to at most INT64_MAX.  The exact rule, one sample at a time
 * in doubles (derive_fast gives the same numbers faster when no value is
 * large). */
static void derive_exact(const struct ss_model *m, const struct ss_rprof_vt *vt,
                         enum ss_measure_kind kind, int64_t *col)
{
    const int64_t *sm = m->values.v[vt->small_v], *bg = m->values.v[vt->big_v];
    double room = (double)INT64_MAX;
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        if (!(src->flags & SS_SRC_MEMORY))
            continue;
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
            double b;
            ptrdiff_t r = (ptrdiff_t)ss_sample_row(m, i), p;
            if (!ss_sample_prev_row(m, src, i, &p)) {
                b = 0;
            } else if (kind == SS_MEASURE_MEMORY) {
                b = ss_rprof_alloc_bytes(m, vt, src, i);
            } else {
                double d = 8 * ((sm ? (double)sm[r] - (double)sm[p] : 0) +
                                (bg ? (double)bg[r] - (double)bg[p] : 0));
                b = d < 0 ? -d : 0;
            }
            if (b > room)
                b = room;
            col[i] = (int64_t)b;
            room -= (double)col[i];
        }
    }
}

/* Counters below 2^49 make every difference, its bytes (below 2^53) and
 * their doubles exact, so integers give derive_exact's numbers; a column
 * summing below 2^61 is never clamped (derive_exact's room, rounded as it
 * is, stays far above any such weight). */
#define SMALL_COUNTER ((uint64_t)1 << 49)
#define UNCLAMPED_SUM ((uint64_t)1 << 61)

/* The weight of a sample from its counters and its predecessor's. */
static inline int64_t weight_of(enum ss_measure_kind kind, int64_t s1, int64_t s0, int64_t b1,
                                int64_t b0, int64_t n1, int64_t n0)
{
    int64_t ds = s1 - s0, db = b1 - b0, dn = n1 - n0;
    if (kind == SS_MEASURE_MEMORY)
        return (ds > 0 ? 8 * ds : 0) + (db > 0 ? 8 * db : 0) + (dn > 0 ? dn : 0);
    int64_t d = 8 * (ds + db);
    return d < 0 ? -d : 0;
}

/* The difference b - a, wrapped (no signed overflow): exact when both are
 * below SMALL_COUNTER, which the caller checks. */
static inline int64_t wrap_sub(int64_t b, int64_t a)
{
    return (int64_t)((uint64_t)b - (uint64_t)a);
}

/* derive_fast over samples [first, end) of one source of a model that reads
 * its own columns in order (no rows, no o), all three columns there: a
 * straight loop the compiler vectorises, checked a block at a time, into
 * 32-bit weights.  -1 when a counter is large or the sum too, -2 when a
 * weight does not fit in 32 bits. */
static int derive_plain(const int64_t *sm, const int64_t *bg, const int64_t *nd,
                        enum ss_measure_kind kind, size_t first, size_t end, uint32_t *col,
                        uint64_t *sum)
{
    uint64_t seen = (uint64_t)sm[first] | (uint64_t)bg[first] | (uint64_t)nd[first], wide = 0;
    for (size_t i = first + 1; i < end;) {
        /* a block's weights (each below 2^53 when the counters are small)
         * sum below 2^63 */
        size_t e = end - i > 1024 ? i + 1024 : end;
        uint64_t part = 0;
        /* in unsigned arithmetic: garbage, never an overflow, when a
         * counter is large (then `seen` sends the column to derive_exact) */
        if (kind == SS_MEASURE_MEMORY)
            for (; i < e; i++) {
                int64_t ds = wrap_sub(sm[i], sm[i - 1]), db = wrap_sub(bg[i], bg[i - 1]),
                        dn = wrap_sub(nd[i], nd[i - 1]);
                uint64_t w = (uint64_t)(ds > 0 ? ds : 0) * 8 + (uint64_t)(db > 0 ? db : 0) * 8 +
                             (uint64_t)(dn > 0 ? dn : 0);
                seen |= (uint64_t)sm[i] | (uint64_t)bg[i] | (uint64_t)nd[i];
                col[i] = (uint32_t)w;
                wide |= w;
                part += w;
            }
        else
            for (; i < e; i++) {
                uint64_t d =
                    ((uint64_t)wrap_sub(sm[i], sm[i - 1]) + (uint64_t)wrap_sub(bg[i], bg[i - 1])) *
                    8;
                uint64_t w = (int64_t)d < 0 ? (uint64_t)0 - d : 0;
                seen |= (uint64_t)sm[i] | (uint64_t)bg[i];
                col[i] = (uint32_t)w;
                wide |= w;
                part += w;
            }
        if (seen >= SMALL_COUNTER)
            return -1;
        if (wide >> 32)
            return -2;
        *sum += part;
        if (*sum >= UNCLAMPED_SUM)
            return -1;
    }
    return seen >= SMALL_COUNTER ? -1 : 0;
}

/* The weight of sample i of m (of source src) from its counters and those
 * of the sample recorded before it (ss_sample_prev_row; 0 for the
 * session's first), or -1 when one is not below SMALL_COUNTER. */
static int64_t weight_at(const struct ss_model *m, const struct ss_rprof_vt *vt,
                         enum ss_measure_kind kind, const struct ss_source *src, size_t i)
{
    const int64_t *sm = m->values.v[vt->small_v], *bg = m->values.v[vt->big_v],
                  *nd = m->values.v[vt->nodes];
    ptrdiff_t r = (ptrdiff_t)ss_sample_row(m, i), p;
    if (!ss_sample_prev_row(m, src, i, &p))
        return 0;
    int64_t s1 = sm ? sm[r] : 0, s0 = sm ? sm[p] : 0, b1 = bg ? bg[r] : 0, b0 = bg ? bg[p] : 0,
            n1 = nd ? nd[r] : 0, n0 = nd ? nd[p] : 0;
    if (((uint64_t)s1 | (uint64_t)s0 | (uint64_t)b1 | (uint64_t)b0 | (uint64_t)n1 | (uint64_t)n0) >=
        SMALL_COUNTER)
        return -1;
    return weight_of(kind, s1, s0, b1, b0, n1, n0);
}

/* Write weight w of sample i to col32 (-2 when it does not fit: the caller
 * takes a 64-bit column) or else to col. */
static inline int put_weight(int64_t *col, uint32_t *col32, size_t i, int64_t w)
{
    if (!col32) {
        col[i] = w;
        return 0;
    }
    if ((uint64_t)w >> 32)
        return -2;
    col32[i] = (uint32_t)w;
    return 0;
}

/* derive_exact's column in integers, into col32 (every sample written: 0
 * outside memory sources) or else col (zeroed by the caller), when every
 * counter read is below SMALL_COUNTER and the column sums below
 * UNCLAMPED_SUM (its sum in *total); else -1 (col is then partly
 * written), or -2 when col32 cannot hold a weight. */
static int derive_fast(const struct ss_model *m, const struct ss_rprof_vt *vt,
                       enum ss_measure_kind kind, int64_t *col, uint32_t *col32, uint64_t *total)
{
    const int64_t *sm = m->values.v[vt->small_v], *bg = m->values.v[vt->big_v],
                  *nd = m->values.v[vt->nodes];
    const uint32_t *rows = m->value_rows;
    uint64_t sum = 0;
    size_t at = 0; /* samples before it are written */
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        size_t end = src->first_sample + src->n_samples;
        if (col32 && src->first_sample > at)
            memset(col32 + at, 0, (src->first_sample - at) * sizeof *col32);
        at = end > at ? end : at;
        if (!(src->flags & SS_SRC_MEMORY) || !src->n_samples) {
            if (col32)
                memset(col32 + src->first_sample, 0, src->n_samples * sizeof *col32);
            continue;
        }
        if (col32 && !rows && sm && bg && nd) {
            /* one stretch read in order: the first sample's predecessor may
             * be before it (a transform kept a later stretch), the others'
             * is the row before */
            int64_t w = weight_at(m, vt, kind, src, src->first_sample);
            if (w < 0)
                return -1;
            if (put_weight(col, col32, src->first_sample, w))
                return -2;
            sum += (uint64_t)w;
            int r = derive_plain(sm, bg, nd, kind, src->first_sample, end, col32, &sum);
            if (r)
                return r;
            continue;
        }
        for (size_t i = src->first_sample; i < end; i++) {
            int64_t w = weight_at(m, vt, kind, src, i);
            if (w < 0)
                return -1;
            if (put_weight(col, col32, i, w))
                return -2;
            sum += (uint64_t)w;
            if (sum >= UNCLAMPED_SUM)
                return -1;
        }
    }
    if (col32 && m->sample_stack.n > at)
        memset(col32 + at, 0, (m->sample_stack.n - at) * sizeof *col32);
    *total = sum;
    return 0;
}

/* The kept derived weights of kind (memory, released) of m, or NULL. */
static const struct ss_derived_col *derived_cached(const struct ss_model *m,
                                                   enum ss_measure_kind kind)
{
    const struct ss_derived_col *d = &m->derived[kind == SS_MEASURE_RELEASED];
    return (d->col || d->col32 || d->shared || d->shared32) && d->n == m->sample_stack.n ? d : NULL;
}

static void derived_free(struct ss_derived_col *d, struct ss_spare *spare)
{
    free(d->col);
    ss_spare_give(spare, d->col32, d->room);
    memset(d, 0, sizeof *d);
}

void ss_model_forget_derived(struct ss_model *m, struct ss_spare *spare)
{
    for (size_t k = 0; k < ARRAY_SIZE(m->derived); k++)
        derived_free(&m->derived[k], spare);
}

/* m's weights from od, the weights of the model o that m was derived from
 * (ss_model_derive_samples: m reads o's columns, and o its own): a kept
 * sample weighs what it weighed in o (its bytes are against the sample the
 * session recorded before it, kept or not), so m reads od's column through
 * its rows.  Nothing to compute. */
static void derive_shared(const struct ss_model *m, const struct ss_derived_col *od,
                          struct ss_derived_col *d)
{
    size_t base = m->value_rows ? 0 : m->values_base;
    if (od->col)
        d->shared = od->col + base;
    else
        d->shared32 = od->col32 + base;
    /* m's weights are some of o's, which are not negative */
    d->sum = od->sum;
}

/* The column of d in 32 bits (its array from spare) when every weight fits,
 * else in 64; 0, or -1 when out of memory. */
static int derive_own(struct ss_model *m, const struct ss_rprof_vt *vt, enum ss_measure_kind kind,
                      struct ss_derived_col *d, struct ss_spare *spare)
{
    size_t n = m->sample_stack.n;
    int r = -1;
    if (vt) {
        d->col32 = ss_spare_take(spare, (n ? n : 1) * sizeof *d->col32, &d->room);
        if (!d->col32)
            return -1;
        r = derive_fast(m, vt, kind, NULL, d->col32, &d->sum);
        if (!r)
            return 0;
        ss_spare_give(spare, d->col32, d->room);
        d->col32 = NULL;
        d->room = 0;
        d->sum = 0;
    }
    d->col = ss_calloc_array(n ? n : 1, sizeof *d->col);
    if (!d->col)
        return -1;
    if (!vt || (r == -2 && !derive_fast(m, vt, kind, d->col, NULL, &d->sum)))
        return 0;
    memset(d->col, 0, n * sizeof *d->col);
    derive_exact(m, vt, kind, d->col);
    d->unclamped = 0;
    return 0;
}

/* m's weights of memory or released (see derive_exact), from o's when o is
 * the model m was derived from and has them; kept in m->derived.  NULL
 * when out of memory. */
static const struct ss_derived_col *derive(struct ss_model *m, enum ss_measure_kind kind,
                                           const struct ss_model *o, struct ss_spare *spare)
{
    const struct ss_derived_col *have = derived_cached(m, kind);
    if (have)
        return have;
    struct ss_derived_col *d = &m->derived[kind == SS_MEASURE_RELEASED];
    derived_free(d, spare);
    d->n = m->sample_stack.n;
    d->unclamped = 1;
    struct ss_rprof_vt vt;
    int rprof = ss_rprof_value_types(m, &vt) == 0;
    if (rprof && o) {
        /* o's weights serve when m reads o's columns and o reads its own */
        const struct ss_derived_col *od = derived_cached(o, kind);
        const int64_t *oc = o->values.v[vt.small_v];
        if (od && (od->col || od->col32) && od->unclamped && !o->value_rows && m->values_borrowed &&
            m->values.v[vt.small_v] == (oc ? oc + (m->value_rows ? 0 : m->values_base) : NULL)) {
            derive_shared(m, od, d);
            return d;
        }
    }
    if (derive_own(m, rprof ? &vt : NULL, kind, d, spare)) {
        derived_free(d, spare);
        return NULL;
    }
    return d;
}

/* Does a source take its time from a column (model.h: time_column)? */
static int time_columns(const struct ss_model *m)
{
    for (size_t s = 0; s < m->sources.n; s++)
        if (m->sources.v[s].time_column && m->sources.v[s].time_column - 1 < m->value_types.n)
            return 1;
    return 0;
}

/* The time weights when a source takes its time from a column: that
 * column's nanoseconds for it, the count (x its interval) for the others. */
static int derive_time(const struct ss_model *m, struct ss_weights *w)
{
    size_t n = m->sample_stack.n;
    w->owned = ss_alloc_array(n, sizeof *w->owned);
    if (!w->owned)
        return -1;
    uint64_t total = 0;
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        uint32_t tc = src->time_column;
        const int64_t *c = tc && tc - 1 < m->value_types.n ? m->values.v[tc - 1] : NULL;
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
            int64_t v = c ? c[ss_sample_row(m, i)] : 0;
            w->owned[i] = tc ? (v > 0 ? v : 0) : ss_sample_count(m, i);
            /* sums of weights are int64_t: the whole column stays within */
            if (__builtin_add_overflow(total, (uint64_t)w->owned[i], &total) ||
                total > (uint64_t)INT64_MAX)
                return -2;
        }
        if (tc && !ss_double_eq(w->scale[s], 0)) {
            w->scale[s] = 1e-9;
            w->exact[s] = 1e-3;
        }
    }
    w->col = w->owned;
    return 0;
}

int ss_model_set_measure(struct ss_model *m, const char *name, struct ss_error *err)
{
    return ss_model_set_measure_from(m, name, NULL, err);
}

int ss_model_set_measure_from(struct ss_model *m, const char *name, const struct ss_model *from,
                              struct ss_error *err)
{
    return ss_model_set_measure_spare(m, name, from, NULL, err);
}

int ss_model_set_measure_spare(struct ss_model *m, const char *name, const struct ss_model *from,
                               struct ss_spare *spare, struct ss_error *err)
{
    struct ss_measure all[SS_SOURCE_VALUE_BITS + 8];
    size_t n = ss_model_measures(m, all, ARRAY_SIZE(all));
    size_t pick = 0;
    if (name && *name) {
        while (pick < n && strcmp(ss_measure_name(m, &all[pick]), name))
            pick++;
        if (pick == n) {
            char list[512];
            size_t k = 0;
            list[0] = '\0';
            for (size_t i = 0; i < n && k < sizeof list; i++)
                k += (size_t)snprintf(list + k, sizeof list - k, "%s%s", i ? ", " : "",
                                      ss_measure_name(m, &all[i]));
            return ss_fail(err, SS_EUSAGE, "no measure '%s' in this profile (it has %s)", name,
                           list);
        }
    }
    struct ss_weights w;
    memset(&w, 0, sizeof w);
    w.measure = all[pick];
    size_t ns = m->sources.n;
    w.scale = ss_alloc_array(ns, sizeof *w.scale);
    w.exact = ss_alloc_array(ns, sizeof *w.exact);
    if (!w.scale || !w.exact) {
        weights_free(&w);
        return ss_nomem(err, "measure");
    }
    const struct ss_measure *ms = &w.measure;
    for (size_t s = 0; s < ns; s++) {
        const struct ss_source *src = &m->sources.v[s];
        int has = ss_source_has_measure(m, s, ms);
        if (!has && (src->n_samples || (src->flags & SS_SRC_AGGREGATE)))
            w.lacking++;
        double iv = ms->kind == SS_MEASURE_TIME ? src->interval_us : 1;
        /* aggregate sources hold counts only */
        if ((src->flags & SS_SRC_AGGREGATE) && ms->kind != SS_MEASURE_TIME &&
            ms->kind != SS_MEASURE_SAMPLES)
            has = 0;
        w.scale[s] = has ? (ms->kind == SS_MEASURE_TIME ? iv / 1e6 : 1) : 0;
        w.exact[s] = has ? iv : 0;
    }
    if (ms->kind == SS_MEASURE_TIME && time_columns(m)) {
        int d = derive_time(m, &w);
        if (d) {
            weights_free(&w);
            return d == -2
                       ? ss_fail(err, SS_EINPUT,
                                 "the times of the samples sum past %lld ns: too large to add up",
                                 (long long)INT64_MAX)
                       : ss_nomem(err, "measure");
        }
    } else if (ms->kind == SS_MEASURE_MEMORY || ms->kind == SS_MEASURE_RELEASED) {
        /* kept in m->derived: choosing it again costs nothing */
        const struct ss_derived_col *d = derive(m, ms->kind, from, spare);
        if (!d) {
            weights_free(&w);
            return ss_nomem(err, "measure");
        }
        w.col = d->col ? d->col : d->shared;
        w.col32 = d->col32 ? d->col32 : d->shared32;
        if (d->shared || d->shared32)
            w.row = m->value_rows;
    } else if (ms->kind == SS_MEASURE_COLUMN) {
        const int64_t *c = m->values.v[ms->vt];
        const uint32_t *row = c ? m->value_rows : NULL; /* the column's rows */
        if (!c) {                                       /* never materialised: every value is 0 */
            w.owned = ss_calloc_array(m->sample_stack.n, sizeof *w.owned);
            if (!w.owned) {
                weights_free(&w);
                return ss_nomem(err, "measure");
            }
            c = w.owned;
        }
        /* sums of weights are int64_t: bound the absolute values' sum (once
         * per column: V back and forth checks it again for nothing) */
        uint64_t sum = 0, bit = ms->vt < 64 ? (uint64_t)1 << ms->vt : 0;
        int checked = bit && m->col_checked_n == m->sample_stack.n && (m->col_checked & bit);
        /* a model derived from `from` reads some of its rows, each once: when
         * all of them sum within, so do these */
        checked = checked || (bit && c && from && from->values.v[ms->vt] && !from->value_rows &&
                              m->values_borrowed && from->col_checked_n == from->sample_stack.n &&
                              (from->col_checked & bit) &&
                              c == from->values.v[ms->vt] + (m->value_rows ? 0 : m->values_base));
        for (size_t s = 0; !checked && s < ns; s++) {
            const struct ss_source *src = &m->sources.v[s];
            if (ss_double_eq(w.scale[s], 0))
                continue;
            for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
                int64_t v = c[row ? row[i] : i];
                uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
                if (__builtin_add_overflow(sum, a, &sum) || sum > (uint64_t)INT64_MAX) {
                    char nm[256];
                    snprintf(nm, sizeof nm, "%s", ss_measure_name(m, ms));
                    weights_free(&w);
                    return ss_fail(err, SS_EINPUT,
                                   "%s: the values of '%s' sum past %lld: too large to add up",
                                   ss_str(m, src->uri), nm, (long long)INT64_MAX);
                }
            }
        }
        w.col = c;
        w.row = row;
        if (m->col_checked_n != m->sample_stack.n) {
            m->col_checked = 0;
            m->col_checked_n = m->sample_stack.n;
        }
        m->col_checked |= bit;
    }
    weights_free(&m->weights);
    m->weights = w;
    return 0;
}
