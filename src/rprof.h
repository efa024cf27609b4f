/* rprof.h - facts of R's Rprof format shared by its reader, its writer and
 * the statistics: the four memory counters of a memory-profiling line
 * (`:small_v:big_v:nodes:dup_count:`), kept as value types of the model.
 */
#ifndef SS_RPROF_H
#define SS_RPROF_H

#include "model.h"

/* Indexes of the Rprof memory value types in a model that has them. */
struct ss_rprof_vt {
    ss_id small_v, big_v, nodes, dup_count;
};

/* Look up the memory value types; returns 0 when the model has all four,
 * -1 otherwise. */
int ss_rprof_value_types(const struct ss_model *m, struct ss_rprof_vt *vt);

/* Bytes allocated by sample i (R's memory="both"): 8 x the increase of
 * small_v, 8 x that of big_v and the increase of nodes over sample i - 1,
 * which must be of the same source; decreases count 0.  A double, as in R:
 * exact below 2^53 bytes, and no overflow however large the file's values
 * (8 x a difference of two int64 values can pass INT64_MAX). */
double ss_rprof_alloc_bytes(const struct ss_model *m, const struct ss_rprof_vt *vt, size_t i);

#endif
