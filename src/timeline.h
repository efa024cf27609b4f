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
 * Under a measure other than time or samples (memory, a pprof sample type:
 * model.h) a window's top is the function with the most of the measure.
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

/* ---- the grid: many levels, a range of samples (the explorer's timeline) ----
 *
 * Samples [first, first + n) in time order across the columns, levels down
 * the rows, and in each cell the function most frequent at that level among
 * the column's samples: ss_timeline_compute for a range of samples (for
 * zooming) and for the levels asked for only (those on screen).
 *
 * Each column's samples are first counted per distinct stack, so a cell
 * costs the number of distinct stacks in its column, not its samples: the
 * grid of a 1M-sample profile costs one pass over the range plus a few
 * thousand stack visits per level. */
struct ss_timeline_grid {
    size_t first, n;  /* the samples shown: [first, first + n) of the timeline */
    size_t window;    /* samples per column (the last column may have fewer) */
    size_t ncols;     /* ceil(n / window) <= the width asked for */
    uint32_t level0;  /* the first row's level (1 = root) */
    uint32_t nlevels; /* rows */
    ss_id *top;       /* [col * nlevels + row]: canonical function id or SS_NONE */
    uint32_t *top_n;  /* samples of the column with `top` at that level */
    uint32_t *reach;  /* samples of the column that reach that level */
};

/* Compute the grid of samples [first, first + n) (clamped to the timeline)
 * in at most `width` columns (0 counts as 1) for levels level0 .. level0 +
 * nlevels - 1 (level0 0 counts as 1), by canonical function (model.h).
 * Ties go to the lowest name in byte order, as in ss_timeline_compute.
 * Returns 0 and the caller owns *g (ss_timeline_grid_free), or SS_ENOMEM
 * with err filled and *g empty. */
int ss_timeline_grid_compute(const struct ss_model *m, size_t first, size_t n, size_t width,
                             uint32_t level0, uint32_t nlevels, struct ss_timeline_grid *g,
                             struct ss_error *err);

/* Free what the grid owns and empty it.  A zeroed struct is a no-op. */
void ss_timeline_grid_free(struct ss_timeline_grid *g);

/* ---- one phase, exactly ----------------------------------------------------
 *
 * The explorer's phase mark (`v`): the maximal stretch of consecutive
 * samples around sample i with function fn (canonical) at level `level`,
 * sample by sample.  It ends where a sample has another function there (or
 * does not reach the level), at a source boundary and at a gap (model.h), as
 * a run does (runs.h).  This is not the same as a phase of
 * ss_timeline_compute (`report --by timeline`), which is a stretch of
 * windows whose most frequent function is fn: that one is rounded to whole
 * windows and goes on through short interruptions, so its ends differ by up
 * to a window and it may hold a few samples of other functions.  Returns 0
 * with [*a, *b) the phase, or -1 when sample i does not have fn at the
 * level. */
int ss_timeline_phase(const struct ss_model *m, uint32_t level, ss_id fn, size_t i, size_t *a,
                      size_t *b);

#endif
