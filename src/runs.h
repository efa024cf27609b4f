/* runs.h - run lengths: how long a function stays on the stack at a level
 * (stackscope(1), RUN LENGTHS; sprof's recursive run-length encoding).
 *
 * Level 1 is the root (outermost frame).  In time order, a run at level k is
 * a maximal sequence of consecutive samples whose stacks have the same
 * functions at levels 1..k (canonical function ids, not locations: a frame
 * that only moved to another line stays in its run, and so does one whose
 * function id differs only by file, see model.h), so a run at level k lies inside
 * one run at level k-1.  The run belongs to the function at level k; a
 * recursive function has runs at each level it occupies.  A sample whose
 * stack has fewer than k frames ends the run at level k and belongs to none;
 * a sample with no frames (an empty Rprof memory line), a source boundary
 * (another file or Rprof session) and a gap (samples a transform removed:
 * model.h, ss_model.gaps) end every run.  Sources without time order
 * (SS_SRC_UNORDERED: folded stacks) have no runs.  A run's length is the sum
 * of its samples' count values (1 per Rprof sample; negative values count
 * as 0), so it is a duration in samples: runs ~ calls, length ~ time per
 * call.
 *
 * One linear pass over the timeline computes every run; lengths are kept as
 * histograms per (function, level), never as one entry per run.
 */
#ifndef SS_RUNS_H
#define SS_RUNS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"

struct ss_run_row {
    ss_id function;   /* canonical function id (model.h: function identity) */
    uint32_t level;   /* 1 = root; 0 = all levels (the multiset of all its runs) */
    uint64_t runs;    /* number of runs (~ calls) */
    uint64_t samples; /* sum of the run lengths */
    uint64_t max;     /* longest run */
    double mean;      /* samples / runs */
    double median;    /* R's median: the middle length, or the mean of the two
                       * middle lengths when `runs` is even */
    double value;     /* the model's measure (model.h) of the samples in these runs:
                       * of the samples with the function at the level (level 0:
                       * anywhere in the stack, once per sample) */
};

/* The runs, samples, longest, mean and R's median of counts[j] runs of
 * length lengths[j], j < n, the lengths ascending (element j at j * stride
 * of each array: parallel arrays, stride 1, or an array of pairs); the
 * row's function, level and value are left as they are.  One definition,
 * for the core's rows and the explorer's histogram. */
void ss_run_row_stats(const uint64_t *lengths, const uint64_t *counts, size_t n, size_t stride,
                      struct ss_run_row *r);

/* Run statistics per (function, level) for every function with at least one
 * run.  level_filter 0 gives the rows of every level and, per function, its
 * level-0 "all levels" row; level_filter K > 0 gives only the level-K rows.
 * Rows are sorted by samples (descending), then runs (descending), then
 * function name in byte order, then function id, then level (0 first).  The
 * caller owns *rows and frees it with free() (NULL with *n == 0 when there
 * are no runs).  Returns 0, or SS_ENOMEM with err filled (*rows NULL). */
int ss_runs_compute(const struct ss_model *m, uint32_t level_filter, struct ss_run_row **rows,
                    size_t *n, struct ss_error *err);

/* ss_runs_compute that gives up when *stop becomes nonzero (stop NULL:
 * never): the explorer computes run lengths on a thread of its own while it
 * answers keys, and stops it when the model changes.  The pass looks at
 * *stop every 65,536 samples (about a millisecond).  Returns what
 * ss_runs_compute returns, or SS_RUNS_STOPPED (*rows NULL, *n 0, err
 * untouched) when it gave up.  It only reads m: m must not change
 * meanwhile. */
#define SS_RUNS_STOPPED (-1)
int ss_runs_compute_stop(const struct ss_model *m, uint32_t level_filter, struct ss_run_row **rows,
                         size_t *n, struct ss_error *err, const atomic_int *stop);

/* The sprof vignette's table for one function: how many of its runs have
 * length L at level k.  Rows are the levels where the function has runs
 * (ascending), columns the distinct run lengths seen at any of them
 * (ascending); a cell is the number of runs of that length at that level
 * (0 when none).  Margins: runs per level (row sums) and runs per length
 * over all levels (column sums); `total` is the sum of either. */
struct ss_run_hist {
    ss_id function;
    size_t n_levels, n_lengths;
    uint32_t *levels;      /* n_levels row labels (1 = root), ascending */
    uint64_t *lengths;     /* n_lengths column labels (run lengths), ascending */
    uint64_t *counts;      /* n_levels x n_lengths, row-major: counts[i * n_lengths + j]
                            * = runs of length lengths[j] at level levels[i] */
    uint64_t *level_runs;  /* n_levels: row margins */
    uint64_t *length_runs; /* n_lengths: column margins */
    uint64_t total;        /* all runs of the function, every level */
};

/* Fill *h with the table of function `function` (an id of m's functions
 * table); a function without runs gives an empty table (0 levels, 0
 * lengths, NULL arrays).  The arrays belong to *h: release them with
 * ss_run_hist_free().  Returns 0, or SS_ENOMEM with err filled (then *h is
 * empty and needs no free). */
int ss_runs_hist(const struct ss_model *m, ss_id function, struct ss_run_hist *h,
                 struct ss_error *err);

/* The same table as ss_runs_hist(), by a pass that follows `function`
 * only: a run of F at level k goes on while consecutive samples keep F at
 * level k and the same functions at levels 1..k-1, so only samples whose
 * stack holds F need the root-first comparison, and the pass costs one look
 * per sample plus the levels up to F's for the samples with F.  The
 * explorer's run-length view answers in a few milliseconds at a million
 * samples where ss_runs_hist's whole-profile pass takes tens;
 * tests/check_runs.c checks the two agree on every fixture.  Same contract
 * as ss_runs_hist: returns 0, or SS_ENOMEM with err filled (*h empty). */
int ss_runs_hist_fast(const struct ss_model *m, ss_id function, struct ss_run_hist *h,
                      struct ss_error *err);

/* Free the arrays of *h and zero it; a zeroed table is a no-op. */
void ss_run_hist_free(struct ss_run_hist *h);

/* Line i of h's table as text, into buf[0..n): 0 the header (the run
 * lengths), 1..n_levels a level's runs of each length ('.' for none), then
 * the margin (runs per length), each with its total at the end; the
 * length columns from `skip` on (then "<" says some are left out).  One
 * printer for report --by runs and the runs view. */
void ss_run_hist_line(const struct ss_run_hist *h, size_t i, size_t skip, char *buf, size_t n);

#endif
