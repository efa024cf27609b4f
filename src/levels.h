/* levels.h - what the profile looks like level by level
 * (stackscope(1), LEVELS).
 *
 * Level 1 is the root (the outermost frame of a stack), level 2 the frame it
 * called, and so on, as in sprof; a stack of depth d reaches levels 1..d.
 * Per level: how many samples reach it, how many distinct functions appear
 * there and which one is the most frequent.  Counts are sums of the samples'
 * count values (1 per Rprof sample); samples with no frames reach no level.
 * The work is done on distinct stacks x their counts, never per sample.
 *
 * The "scaffold" is the run of root levels that one function dominates
 * (Rscript's source/withVisible/eval chain, say): `trim-base auto` cuts it.
 */
#ifndef SS_LEVELS_H
#define SS_LEVELS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"

struct ss_level_row {
    uint32_t level;       /* 1 = root */
    uint64_t samples;     /* samples whose stack has >= level frames */
    uint32_t distinct;    /* distinct functions at this level */
    ss_id top;            /* the most frequent function id here; ties: lowest name in
                           * byte order, then lowest id */
    uint64_t top_samples; /* samples with `top` at this level */
    uint64_t located;     /* samples whose frame at this level has a source position (a
                           * line: Rprof's F#L token before the name), i.e. user code */
    double value;         /* the model's measure (model.h) of the samples reaching it */
    double top_value;     /* the measure of the samples with `top` here (top is chosen
                           * by samples: the scaffold is a matter of samples) */
};

/* Compute one row per level, from level 1 (rows[0]) to the greatest depth of
 * a stack that some sample uses (*n rows; 0 rows and *rows == NULL when no
 * sample has a frame).  A function is counted once per sample at a level (a
 * stack has one frame per level).  Negative count values count as 0.  The
 * caller owns *rows and frees it with free().  Returns 0, or SS_ENOMEM with
 * err filled (then *rows is NULL and *n is 0). */
int ss_levels_compute(const struct ss_model *m, struct ss_level_row **rows, size_t *n,
                      struct ss_error *err);

/* The same for an explicit set of `nstacks` distinct stacks (the transform
 * list runs it on its working stacks): stack s has the frames
 * loc[off[s] .. off[s+1]), innermost first, whose locations and functions
 * are m's; cnt[s] is the summed count of its samples and used[s] is non-zero
 * when some sample uses it (used NULL: the stacks with cnt[s] > 0).  Only m's
 * functions, locations and strings are read.  val[s] is the measure of its
 * samples, or val is NULL (then value and top_value are 0).  All arrays are
 * borrowed. */
int ss_levels_compute_stacks(const struct ss_model *m, const uint32_t *off, const ss_id *loc,
                             size_t nstacks, const uint64_t *cnt, const double *val,
                             const unsigned char *used, struct ss_level_row **rows, size_t *n,
                             struct ss_error *err);

/* Scaffold depth: the number d of root levels 1..d at each of which one
 * function is in at least `share` of all samples with frames (the samples at
 * level 1), i.e. rows[k].top_samples >= share * rows[0].samples for every
 * k < d.  share is in (0, 1]; 1 means "in every sample".  The comparison
 * forgives a relative rounding error of 1e-12 so that share = 0.8 of 10
 * samples asks for 8, not for 8.000000000000002.  Returns 0 when n is 0 or
 * there are no samples.  `rows` is borrowed. */
size_t ss_levels_scaffold(const struct ss_level_row *rows, size_t n, double share);

/* The level (from 1) a timeline shows first: the one below the 95%
 * scaffold, where the phases show (the deepest when every level is
 * scaffold; 1 when there are none).  `rows` is borrowed. */
uint32_t ss_levels_timeline_level(const struct ss_level_row *rows, size_t n);

/* The same for model m (its levels computed and freed).  Returns 0 or an
 * error code. */
int ss_levels_timeline_level_of(const struct ss_model *m, uint32_t *level, struct ss_error *err);

/* User code in the scaffold: the index k < d of the first row (root first)
 * whose frames have a source position in some sample (rows[k].located > 0),
 * or d when none has.  `trim-base auto` cuts rows [0, k) only, so that the
 * user's own top function and its lines stay (`auto,all` cuts all d). */
size_t ss_levels_user_level(const struct ss_level_row *rows, size_t d);

#endif
