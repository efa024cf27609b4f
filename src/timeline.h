/* timeline.h - which function dominates each stretch of the profile.
 *
 * The timeline (samples in time order, all sources one after the other) is
 * cut into windows of consecutive samples; for each window and one level K
 * (1 = root, the outermost frame, as in the statistics) it gives the function
 * most frequent at level K.  Runs of windows with the same dominant function
 * show phases such as a burn-in or a fade-out ("samples 1-480:
 * simulate_data").
 *
 * Counts here are numbers of samples (timeline rows), not count values or
 * time: windows are stretches of the timeline.  For Rprof they are the same.
 * Functions are canonical ids (see tree.h: one id per name).
 */
#ifndef SS_TIMELINE_H
#define SS_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"

/* One window: samples [first, first + n) of the timeline (0-based). */
struct ss_timeline_window {
    size_t first, n;
    ss_id top;          /* most frequent function at level K (ties: lowest name
                           in byte order); SS_NONE if no sample reaches K */
    uint64_t top_n;     /* samples with `top` at level K */
    uint64_t shallow_n; /* samples with fewer than K frames (empty ones too) */
};

/* A function shown as some window's top. */
struct ss_timeline_legend {
    ss_id function;
    uint64_t n;          /* samples of the whole profile with it at level K */
    size_t first_window; /* the first window it dominates */
};

/* A maximal run of consecutive windows with the same top (SS_NONE included):
 * samples [first, first + n), windows [first_window, first_window + nwindows). */
struct ss_timeline_run {
    ss_id top;
    size_t first, n;
    size_t first_window, nwindows;
};

struct ss_timeline {
    uint32_t level;                     /* K, 1-based from the root */
    size_t window_size;                 /* samples per window (the last may have fewer) */
    struct ss_timeline_window *windows; /* owned */
    size_t nwindows;
    struct ss_timeline_legend *legend; /* owned, by first appearance */
    size_t nlegend;
    struct ss_timeline_run *runs; /* owned, in time order */
    size_t nruns;
};

/* Compute the timeline of m at level `level` (>= 1) with at most `width`
 * (>= 1) windows: each window holds ceil(samples / width) consecutive samples,
 * the last one possibly fewer, so there are ceil(samples / window_size)
 * windows (fewer than width when there are few samples; none for an empty
 * profile).  level 0 or width 0 is an SS_EUSAGE error.  On success returns 0
 * and the caller owns *out (ss_timeline_free); on failure returns an error
 * code and leaves *out empty. */
int ss_timeline_compute(const struct ss_model *m, uint32_t level, size_t width,
                        struct ss_timeline *out, struct ss_error *err);

/* Free what the timeline owns and empty it.  A zeroed struct is a no-op. */
void ss_timeline_free(struct ss_timeline *t);

#endif
