/* rprof.h - facts of R's Rprof format shared by its reader, its writer and
 * the statistics: the four memory counters of a memory-profiling line
 * (`:small_v:big_v:nodes:dup_count:`), kept as value types of the model.
 */
#ifndef SS_RPROF_H
#define SS_RPROF_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* Indexes of the Rprof memory value types in a model that has them. */
struct ss_rprof_vt {
    ss_id small_v, big_v, nodes, dup_count;
};

/* Look up the memory value types; returns 0 when the model has all four,
 * -1 otherwise. */
int ss_rprof_value_types(const struct ss_model *m, struct ss_rprof_vt *vt);

/* b - a as a double: exact when the difference fits an int64 (R's counters
 * always do), and never a signed overflow when a file holds huge values. */
static inline double ss_rprof_delta(int64_t b, int64_t a)
{
    int64_t d;
    if (!__builtin_sub_overflow(b, a, &d))
        return (double)d;
    return (double)b - (double)a;
}

/* Bytes allocated by sample i of source src (R's memory="both"): 8 x the
 * increase of small_v, 8 x that of big_v and the increase of nodes over the
 * sample its session recorded before it (ss_sample_prev_row: removed by a
 * transform or not, so a kept sample keeps its bytes; 0 for the session's
 * first); decreases count 0.  A double, as in R: exact below 2^53 bytes,
 * and no overflow however large the file's values (8 x a difference of two
 * int64 values can pass INT64_MAX).  Inline: the memory measure calls it
 * once per sample (ten million at a time). */
static inline double ss_rprof_alloc_bytes(const struct ss_model *m, const struct ss_rprof_vt *vt,
                                          const struct ss_source *src, size_t i)
{
    ptrdiff_t r = (ptrdiff_t)ss_sample_row(m, i), p;
    if (!ss_sample_prev_row(m, src, i, &p))
        return 0;
    /* A column that never changed from 0 is not materialised (NULL). */
    const int64_t *sm = m->values.v[vt->small_v], *bg = m->values.v[vt->big_v],
                  *nd = m->values.v[vt->nodes];
    double ds = sm ? ss_rprof_delta(sm[r], sm[p]) : 0, db = bg ? ss_rprof_delta(bg[r], bg[p]) : 0,
           dn = nd ? ss_rprof_delta(nd[r], nd[p]) : 0;
    return (ds > 0 ? 8 * ds : 0) + (db > 0 ? 8 * db : 0) + (dn > 0 ? dn : 0);
}

/* The change of R's vector memory at sample i of source src, as profvis
 * reads it: 8 x (small_v + big_v) less the same of the sample its session
 * recorded before it (ss_sample_prev_row; 0 for the session's first).  Its
 * rise is what profvis's code pane calls memory allocated, its fall memory
 * released (the `released` measure).  A double, exact below 2^53 bytes. */
static inline double ss_rprof_vector_change(const struct ss_model *m, const struct ss_rprof_vt *vt,
                                            const struct ss_source *src, size_t i)
{
    ptrdiff_t r = (ptrdiff_t)ss_sample_row(m, i), p;
    if (!ss_sample_prev_row(m, src, i, &p))
        return 0;
    const int64_t *sm = m->values.v[vt->small_v], *bg = m->values.v[vt->big_v];
    return 8 * ((sm ? ss_rprof_delta(sm[r], sm[p]) : 0) + (bg ? ss_rprof_delta(bg[r], bg[p]) : 0));
}

#endif
