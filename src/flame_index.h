/* flame_index.h - an index of a profile's samples for the time-ordered
 * flame chart (flame.h), so that a chart at a screen's resolution costs
 * what it draws, not a pass over every sample.
 *
 * A chart frame at depth j is a maximal run of consecutive taken samples
 * (a weight > 0 and frames) that share the first j + 1 functions of their
 * paths, with no break of the timeline inside.  So per sample the index
 * keeps one number, how many leading functions it shares with the taken
 * sample before it (0 after a break), and per block of samples their
 * minimum: a frame's first and last samples are found from any of its
 * samples outward, a block at a time.  Per block it also keeps the weight
 * before it (a position is found by bisection, and the weight summed from
 * there in sample order is the same double as the full chart's), and per
 * depth the weight of the samples that end there (a frame's self) and
 * whether two consecutive samples differ in location there (a frame's
 * location).  Built once per model, weights and direction (inverted or
 * not) in one pass; about 2 bytes a sample.  A long profile is built in
 * parts of its samples on two threads (STACKSCOPE_THREADS): a part starts
 * from where one pass would be at its first sample, and every sum of
 * weights runs in sample order, so the index is the same. */
#ifndef SS_FLAME_INDEX_H
#define SS_FLAME_INDEX_H

#include "flame.h"

struct ss_flame_index;

/* Index the samples of m with the chart's per-sample weights sample_w
 * (borrowed: they must outlive the index and stay unchanged; NULL: m's
 * chosen measure, the weights ss_flame_measure_weights gives, computed
 * from the model when needed and never stored), read from the root or,
 * inverted, from the leaf.  The index reads m: m must not change while
 * it is used.  Returns 0 with *out (the caller's,
 * ss_flame_index_free), or 0 with *out NULL when the index cannot serve
 * this model (a stack 65,535 frames deep or more: build without one), or
 * an error code with err set. */
int ss_flame_index_build(const struct ss_model *m, const double *sample_w, int inverted,
                         struct ss_flame_index **out, struct ss_error *err);

/* ss_flame_index_build in parts of `part` samples (rounded down to blocks
 * of the index; 0: one part), on two threads, or for the tests without a
 * second thread (threaded 0): each part then built on its own from the
 * last back, from where one pass would be at its start, as the second
 * thread builds those it takes.  ss_flame_index_build picks the parts. */
int ss_flame_index_build_parts(const struct ss_model *m, const double *sample_w, int inverted,
                               size_t part, int threaded, struct ss_flame_index **out,
                               struct ss_error *err);

/* Are a and b, indexes of model m, the same, byte for byte (however they
 * were built)? */
int ss_flame_index_same(const struct ss_model *m, const struct ss_flame_index *a,
                        const struct ss_flame_index *b);

void ss_flame_index_free(struct ss_flame_index *ix);

/* Is ix an index of these weights (NULL: the model's measure) in this
 * direction? */
int ss_flame_index_fits(const struct ss_flame_index *ix, const double *sample_w, int inverted);

/* The chart of grid (grid->cols > 0; its path is not needed) from the
 * index: the frames of ss_flame_build_grid, with the same x, total, parent,
 * end and location and the self summed in another order; nframes and
 * total are the whole chart's.  Returns 0 or -1 (out of memory). */
int ss_flame_index_chart(const struct ss_model *m, const struct ss_flame_index *ix,
                         const struct ss_flame_grid *grid, struct ss_flame *out);

/* ss_flame_chart_search from the index: the whole chart (x0 0, w the
 * total or more) from the distinct stacks' weights, a span from its
 * samples only.  Returns 0 or an error code. */
int ss_flame_index_search(const struct ss_model *m, const struct ss_flame_index *ix,
                          const uint8_t *fn_match, double x0, double w, uint32_t depth0,
                          double *hit, struct ss_error *err);

#endif
