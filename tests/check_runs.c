/* check_runs.c - levels, scaffold depth and run lengths (src/levels.h,
 * src/runs.h, stackscope(1), RUN LENGTHS).
 *
 * Every expected value below was worked out by hand from the fixture above
 * it.  Rprof lines list the innermost frame first; the comments write each
 * stack root-first ("main f g" = main called f called g), so level k is the
 * k-th name in the comment. */
#include "check_suites.h"

#include <dirent.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "levels.h"
#include "model.h"
#include "load.h"
#include "runs.h"
#include "transform.h"
#include "vec.h"

#define TOL 1e-12

static const char *fname(const struct ss_model *m, ss_id f)
{
    return ss_str(m, m->functions.v[f].name);
}

static ss_id find_function(const struct ss_model *m, const char *name)
{
    for (size_t f = 0; f < m->functions.n; f++)
        if (strcmp(fname(m, (ss_id)f), name) == 0)
            return (ss_id)f;
    ck_abort_msg("no function '%s'", name);
    return SS_NONE;
}

/* Row i must be (name, level, runs, samples, mean, median, max). */
static void check_run(const struct ss_model *m, const struct ss_run_row *rows, size_t n, size_t i,
                      const char *name, uint32_t level, uint64_t runs, uint64_t samples,
                      double mean, double median, uint64_t max)
{
    ck_assert_msg(i < n, "row %zu missing (%zu rows)", i, n);
    const struct ss_run_row *r = &rows[i];
    ck_assert_msg(strcmp(fname(m, r->function), name) == 0 && r->level == level,
                  "row %zu is %s@%u, want %s@%u", i, fname(m, r->function), r->level, name, level);
    ck_assert_msg(r->runs == runs && r->samples == samples && r->max == max,
                  "%s@%u: runs %llu samples %llu max %llu, want %llu %llu %llu", name, level,
                  (unsigned long long)r->runs, (unsigned long long)r->samples,
                  (unsigned long long)r->max, (unsigned long long)runs, (unsigned long long)samples,
                  (unsigned long long)max);
    ck_assert_double_eq_tol(r->mean, mean, TOL);
    ck_assert_double_eq_tol(r->median, median, TOL);
}

static void check_level(const struct ss_model *m, const struct ss_level_row *rows, size_t n,
                        uint32_t level, uint64_t samples, uint32_t distinct, const char *top,
                        uint64_t top_samples)
{
    ck_assert_msg(level >= 1 && level <= n, "level %u missing (%zu levels)", level, n);
    const struct ss_level_row *r = &rows[level - 1];
    ck_assert_uint_eq(r->level, level);
    ck_assert_msg(r->samples == samples && r->distinct == distinct &&
                      r->top_samples == top_samples && strcmp(fname(m, r->top), top) == 0,
                  "level %u: %llu samples, %u distinct, top %s %llu; want %llu %u %s %llu", level,
                  (unsigned long long)r->samples, r->distinct, fname(m, r->top),
                  (unsigned long long)r->top_samples, (unsigned long long)samples, distinct, top,
                  (unsigned long long)top_samples);
}

/* ---- recursion, and a function at several levels ------------------------------- */

/* Root-first:                  levels 1 2 3 4 5
 *   s1: main f f f                     m f f f
 *   s2: main f f                       m f f
 *   s3: main f f f g                   m f f f g
 *   s4: main f                         m f
 *   s5: main g                         m g
 * Runs (consecutive samples with equal levels 1..k):
 *   level 1: main s1-s5 = 5
 *   level 2: f s1-s4 = 4, then g s5 = 1
 *   level 3: f s1-s3 = 3 (s4 is too short and ends it)
 *   level 4: f s1 = 1 (s2 too short), f s3 = 1
 *   level 5: g s3 = 1
 * Rows: main@1 1/5; f@2 1/4; f@3 1/3; f@4 2/2 (mean 1, median 1); g@2 1/1;
 *   g@5 1/1.  All levels: f {4,3,1,1}: 4 runs, 9 samples, mean 9/4 = 2.25,
 *   median (1+3)/2 = 2, max 4; main {5}; g {1,1}: 2 runs, 2 samples.
 * Order (samples desc, runs desc, name, level 0 first):
 *   f/all 9, main/all 5, main@1 5, f@2 4, f@3 3, f@4 2 (2 runs) = g/all 2
 *   (2 runs) -> by name f first, then g@2 1, g@5 1.
 * Levels: L1 5 samples, {main}, main 5; L2 5, {f:4, g:1}, f 4;
 *   L3 s1 s2 s3 = 3, {f}, f 3; L4 s1 s3 = 2, f 2; L5 s3 = 1, g 1.
 * Scaffold: share 1 needs 5 -> L1 only = 1; share 0.8 needs 4 -> L1 (5),
 *   L2 (4), not L3 (3) = 2. */
static const char recursion_prof[] = "sample.interval=20000\n"
                                     "\"f\" \"f\" \"f\" \"main\" \n"
                                     "\"f\" \"f\" \"main\" \n"
                                     "\"g\" \"f\" \"f\" \"f\" \"main\" \n"
                                     "\"f\" \"main\" \n"
                                     "\"g\" \"main\" \n";

START_TEST(test_runs_recursion)
{
    struct ss_model m;
    FX_LOAD_OK(&m, recursion_prof);
    struct ss_run_row *rows;
    size_t n;
    struct ss_error err;
    ck_assert_int_eq(ss_runs_compute(&m, 0, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 9);
    check_run(&m, rows, n, 0, "f", 0, 4, 9, 2.25, 2, 4);
    check_run(&m, rows, n, 1, "main", 0, 1, 5, 5, 5, 5);
    check_run(&m, rows, n, 2, "main", 1, 1, 5, 5, 5, 5);
    check_run(&m, rows, n, 3, "f", 2, 1, 4, 4, 4, 4);
    check_run(&m, rows, n, 4, "f", 3, 1, 3, 3, 3, 3);
    check_run(&m, rows, n, 5, "f", 4, 2, 2, 1, 1, 1);
    check_run(&m, rows, n, 6, "g", 0, 2, 2, 1, 1, 1);
    check_run(&m, rows, n, 7, "g", 2, 1, 1, 1, 1, 1);
    check_run(&m, rows, n, 8, "g", 5, 1, 1, 1, 1, 1);
    free(rows);

    /* level filter: only that level's rows, no "all" rows */
    ck_assert_int_eq(ss_runs_compute(&m, 4, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 1);
    check_run(&m, rows, n, 0, "f", 4, 2, 2, 1, 1, 1);
    free(rows);
    ck_assert_int_eq(ss_runs_compute(&m, 2, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 2);
    check_run(&m, rows, n, 0, "f", 2, 1, 4, 4, 4, 4);
    check_run(&m, rows, n, 1, "g", 2, 1, 1, 1, 1, 1);
    free(rows);
    /* a level no stack reaches */
    ck_assert_int_eq(ss_runs_compute(&m, 6, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(rows);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_levels_recursion)
{
    struct ss_model m;
    FX_LOAD_OK(&m, recursion_prof);
    struct ss_level_row *rows;
    size_t n;
    struct ss_error err;
    ck_assert_int_eq(ss_levels_compute(&m, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 5);
    check_level(&m, rows, n, 1, 5, 1, "main", 5);
    check_level(&m, rows, n, 2, 5, 2, "f", 4);
    check_level(&m, rows, n, 3, 3, 1, "f", 3);
    check_level(&m, rows, n, 4, 2, 1, "f", 2);
    check_level(&m, rows, n, 5, 1, 1, "g", 1);
    ck_assert_uint_eq(ss_levels_scaffold(rows, n, 1.0), 1);
    ck_assert_uint_eq(ss_levels_scaffold(rows, n, 0.8), 2);
    free(rows);
    ss_model_free(&m);
}
END_TEST

/* The sprof table of f in recursion_prof: f's runs are level 2: {4},
 * level 3: {3}, level 4: {1, 1}.  Columns (distinct lengths) 1 3 4:
 *          1  3  4 | runs
 *   L2     0  0  1 |  1
 *   L3     0  1  0 |  1
 *   L4     2  0  0 |  2
 *   runs   2  1  1 |  4 */
START_TEST(test_runs_hist)
{
    struct ss_model m;
    FX_LOAD_OK(&m, recursion_prof);
    struct ss_run_hist h;
    struct ss_error err;
    ss_id f = find_function(&m, "f");
    ck_assert_int_eq(ss_runs_hist(&m, f, &h, &err), 0);
    ck_assert_uint_eq(h.function, f);
    ck_assert_uint_eq(h.n_levels, 3);
    ck_assert_uint_eq(h.n_lengths, 3);
    static const uint32_t levels[] = {2, 3, 4};
    static const uint64_t lengths[] = {1, 3, 4};
    static const uint64_t counts[] = {0, 0, 1, 0, 1, 0, 2, 0, 0};
    static const uint64_t level_runs[] = {1, 1, 2}, length_runs[] = {2, 1, 1};
    for (size_t i = 0; i < 3; i++) {
        ck_assert_uint_eq(h.levels[i], levels[i]);
        ck_assert_uint_eq(h.lengths[i], lengths[i]);
        ck_assert_uint_eq(h.level_runs[i], level_runs[i]);
        ck_assert_uint_eq(h.length_runs[i], length_runs[i]);
    }
    for (size_t i = 0; i < 9; i++)
        ck_assert_uint_eq(h.counts[i], counts[i]);
    ck_assert_uint_eq(h.total, 4);
    ss_run_hist_free(&h);
    ck_assert_ptr_null(h.counts);
    ss_run_hist_free(&h); /* a zeroed table: no-op */

    /* main: one run of 5 at level 1 */
    ck_assert_int_eq(ss_runs_hist(&m, find_function(&m, "main"), &h, &err), 0);
    ck_assert_uint_eq(h.n_levels, 1);
    ck_assert_uint_eq(h.n_lengths, 1);
    ck_assert_uint_eq(h.levels[0], 1);
    ck_assert_uint_eq(h.lengths[0], 5);
    ck_assert_uint_eq(h.counts[0], 1);
    ck_assert_uint_eq(h.total, 1);
    ss_run_hist_free(&h);
    ss_model_free(&m);
}
END_TEST

/* ---- gaps ------------------------------------------------------------------------ */

/* A memory line with no frames (s3) is a gap: it ends every run.
 *   s1: main f   s2: main f   s3: (empty)   s4: main f   s5: main g
 * main@1: s1-s2 = 2, s4-s5 = 2 -> 2 runs, 4 samples, mean 2, median 2, max 2
 *   (one run of 4 without the gap).
 * f@2: s1-s2 = 2, s4 = 1 -> 2 runs, 3 samples, mean 1.5, median (1+2)/2 = 1.5.
 * g@2: s5 = 1.
 * Order: main/all = main@1 (4 samples; level 0 first), f/all = f@2 (3),
 *   g/all = g@2 (1).
 * Levels: the empty sample reaches no level: L1 4 samples, main 4;
 *   L2 4, {f:3, g:1}, f 3. */
static const char gap_prof[] = "memory profiling: sample.interval=20000\n"
                               ":10:20:30:0:\"f\" \"main\" \n"
                               ":11:20:30:0:\"f\" \"main\" \n"
                               ":12:20:30:0:\n"
                               ":13:20:30:0:\"f\" \"main\" \n"
                               ":14:20:30:0:\"g\" \"main\" \n";

START_TEST(test_runs_gap)
{
    struct ss_model m;
    FX_LOAD_OK(&m, gap_prof);
    ck_assert_uint_eq(m.sample_stack.n, 5);
    struct ss_run_row *rows;
    size_t n;
    struct ss_error err;
    ck_assert_int_eq(ss_runs_compute(&m, 0, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 6);
    check_run(&m, rows, n, 0, "main", 0, 2, 4, 2, 2, 2);
    check_run(&m, rows, n, 1, "main", 1, 2, 4, 2, 2, 2);
    check_run(&m, rows, n, 2, "f", 0, 2, 3, 1.5, 1.5, 2);
    check_run(&m, rows, n, 3, "f", 2, 2, 3, 1.5, 1.5, 2);
    check_run(&m, rows, n, 4, "g", 0, 1, 1, 1, 1, 1);
    check_run(&m, rows, n, 5, "g", 2, 1, 1, 1, 1, 1);
    free(rows);

    struct ss_level_row *lv;
    ck_assert_int_eq(ss_levels_compute(&m, &lv, &n, &err), 0);
    ck_assert_uint_eq(n, 2);
    check_level(&m, lv, n, 1, 4, 1, "main", 4);
    check_level(&m, lv, n, 2, 4, 2, "f", 3);
    free(lv);
    ss_model_free(&m);
}
END_TEST

/* A blank line is not a sample (the loader skips it), so it is not a gap:
 *   main f, (blank), main f  ->  main@1 one run of 2, f@2 one run of 2. */
START_TEST(test_runs_blank_line_no_gap)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "sample.interval=20000\n"
                   "\"f\" \"main\" \n"
                   "\n"
                   "\"f\" \"main\" \n");
    struct ss_run_row *rows;
    size_t n;
    struct ss_error err;
    ck_assert_int_eq(ss_runs_compute(&m, 0, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 4);
    check_run(&m, rows, n, 0, "f", 0, 1, 2, 2, 2, 2);
    check_run(&m, rows, n, 1, "f", 2, 1, 2, 2, 2, 2);
    check_run(&m, rows, n, 2, "main", 0, 1, 2, 2, 2, 2);
    check_run(&m, rows, n, 3, "main", 1, 1, 2, 2, 2, 2);
    free(rows);
    ss_model_free(&m);
}
END_TEST

/* Two sessions in one file: the boundary ends every run.
 *   session 1: main f, main f    session 2: main f, main g
 * main@1: 2 + 2 -> 2 runs, 4 samples, median 2.
 * f@2: 2 (session 1) + 1 (session 2) -> 2 runs, 3 samples, mean 1.5,
 *   median 1.5, max 2.   g@2: 1. */
START_TEST(test_runs_sessions)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "sample.interval=20000\n"
                   "\"f\" \"main\" \n"
                   "\"f\" \"main\" \n"
                   "sample.interval=10000\n"
                   "\"f\" \"main\" \n"
                   "\"g\" \"main\" \n");
    ck_assert_uint_eq(m.sources.n, 2);
    struct ss_run_row *rows;
    size_t n;
    struct ss_error err;
    ck_assert_int_eq(ss_runs_compute(&m, 1, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 1);
    check_run(&m, rows, n, 0, "main", 1, 2, 4, 2, 2, 2);
    free(rows);
    ck_assert_int_eq(ss_runs_compute(&m, 2, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 2);
    check_run(&m, rows, n, 0, "f", 2, 2, 3, 1.5, 1.5, 2);
    check_run(&m, rows, n, 1, "g", 2, 1, 1, 1, 1, 1);
    free(rows);
    ss_model_free(&m);
}
END_TEST

/* Runs compare functions, not locations: f moving from line 2 to line 3 and
 * main from line 5 to 6 keeps both in one run.
 *   main@1: one run of 3; f@2: one run of 3. */
START_TEST(test_runs_ignore_lines)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "line profiling: sample.interval=20000\n"
                   "#File 1: a.R\n"
                   "1#2 \"f\" 1#5 \"main\" \n"
                   "1#3 \"f\" 1#5 \"main\" \n"
                   "1#3 \"f\" 1#6 \"main\" \n");
    ck_assert_uint_eq(ss_model_nstacks(&m), 3);
    struct ss_run_row *rows;
    size_t n;
    struct ss_error err;
    ck_assert_int_eq(ss_runs_compute(&m, 0, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 4);
    check_run(&m, rows, n, 0, "f", 0, 1, 3, 3, 3, 3);
    check_run(&m, rows, n, 1, "f", 2, 1, 3, 3, 3, 3);
    check_run(&m, rows, n, 2, "main", 0, 1, 3, 3, 3, 3);
    check_run(&m, rows, n, 3, "main", 1, 1, 3, 3, 3, 3);
    free(rows);
    ss_model_free(&m);
}
END_TEST

/* ---- medians ----------------------------------------------------------------------- */

/* Every stack is "main X"; level 2 over time (15 samples):
 *   f f f | g | f | g g | f f | g g g g | h | g
 * f@2 runs 3 1 2: odd count -> median 2 (sorted 1 2 3), mean 6/3 = 2, max 3.
 * g@2 runs 1 2 4 1: even count -> sorted 1 1 2 4, median (1+2)/2 = 1.5,
 *   mean 8/4 = 2, max 4.
 * h@2: 1.   main@1: one run of 15. */
START_TEST(test_runs_median)
{
    static const char seq[] = "fffgfggffgggghg";
    char buf[1024];
    size_t at = (size_t)snprintf(buf, sizeof buf, "sample.interval=20000\n");
    for (const char *c = seq; *c; c++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "\"%c\" \"main\" \n", *c);
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(fx_load(&m, &err, buf, at, path, sizeof path), 0);
    struct ss_run_row *rows;
    size_t n;
    ck_assert_int_eq(ss_runs_compute(&m, 2, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 3);
    check_run(&m, rows, n, 0, "g", 2, 4, 8, 2, 1.5, 4);
    check_run(&m, rows, n, 1, "f", 2, 3, 6, 2, 2, 3);
    check_run(&m, rows, n, 2, "h", 2, 1, 1, 1, 1, 1);
    free(rows);
    ck_assert_int_eq(ss_runs_compute(&m, 1, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 1);
    check_run(&m, rows, n, 0, "main", 1, 1, 15, 15, 15, 15);
    free(rows);
    ss_model_free(&m);
}
END_TEST

/* Long runs (above the dense histogram's lengths) count the same:
 *   level 2: f x20, g x17, f x20, g x5, f x40   (102 samples of "main X")
 * f@2 runs 20 20 40: 3 runs, 80 samples, mean 80/3, median 20, max 40.
 * g@2 runs 17 5: 2 runs, 22 samples, mean 11, median (5+17)/2 = 11, max 17.
 * main@1: one run of 102.
 * f's table: level 2, lengths 20 40, counts 2 1. */
START_TEST(test_runs_long)
{
    static const struct {
        char c;
        int n;
    } seq[] = {{'f', 20}, {'g', 17}, {'f', 20}, {'g', 5}, {'f', 40}};
    char buf[4096];
    size_t at = (size_t)snprintf(buf, sizeof buf, "sample.interval=20000\n");
    for (size_t i = 0; i < ARRAY_SIZE(seq); i++)
        for (int k = 0; k < seq[i].n; k++)
            at += (size_t)snprintf(buf + at, sizeof buf - at, "\"%c\" \"main\" \n", seq[i].c);
    ck_assert_uint_lt(at, sizeof buf - 1);
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(fx_load(&m, &err, buf, at, path, sizeof path), 0);
    struct ss_run_row *rows;
    size_t n;
    ck_assert_int_eq(ss_runs_compute(&m, 0, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 6);
    check_run(&m, rows, n, 0, "main", 0, 1, 102, 102, 102, 102);
    check_run(&m, rows, n, 1, "main", 1, 1, 102, 102, 102, 102);
    check_run(&m, rows, n, 2, "f", 0, 3, 80, 80.0 / 3, 20, 40);
    check_run(&m, rows, n, 3, "f", 2, 3, 80, 80.0 / 3, 20, 40);
    check_run(&m, rows, n, 4, "g", 0, 2, 22, 11, 11, 17);
    check_run(&m, rows, n, 5, "g", 2, 2, 22, 11, 11, 17);
    free(rows);

    struct ss_run_hist h;
    ck_assert_int_eq(ss_runs_hist(&m, find_function(&m, "f"), &h, &err), 0);
    ck_assert_uint_eq(h.n_levels, 1);
    ck_assert_uint_eq(h.n_lengths, 2);
    ck_assert_uint_eq(h.levels[0], 2);
    ck_assert_uint_eq(h.lengths[0], 20);
    ck_assert_uint_eq(h.lengths[1], 40);
    ck_assert_uint_eq(h.counts[0], 2);
    ck_assert_uint_eq(h.counts[1], 1);
    ck_assert_uint_eq(h.total, 3);
    ss_run_hist_free(&h);
    ss_model_free(&m);
}
END_TEST

/* ---- levels and scaffold ----------------------------------------------------------- */

/* Ten samples, root-first:
 *   1 main run work a        6 main other
 *   2 main run work Z        7 main run work Z
 *   3 main run work Z        8 main run work a x
 *   4 main run work c x      9 main run work c
 *   5 main run work a       10 main run
 * L1: 10 samples, {main}, main 10.
 * L2: 10, {run: 9, other: 1} -> 2 distinct, run 9.
 * L3: samples 1-5, 7-9 = 8, {work}, work 8.
 * L4: 8, {a: 1 5 8 = 3, Z: 2 3 7 = 3, c: 4 9 = 2} -> 3 distinct; a and Z
 *   tie at 3 and "Z" < "a" in byte order (0x5a < 0x61), although a was
 *   seen first (has the lower id): top Z 3.
 * L5: samples 4, 8 = 2, {x}, x 2.
 * Scaffold against L1's 10 samples:
 *   share 1   needs 10: L1 10 yes, L2 9 no                       -> 1
 *   share 0.9 needs 9:  L1, L2 (9) yes, L3 8 no                    -> 2
 *   share 0.8 needs 8:  L1, L2, L3 (8 = 0.8 x 10 exactly) yes, L4 3 -> 3 */
START_TEST(test_levels_scaffold)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "sample.interval=20000\n"
                   "\"a\" \"work\" \"run\" \"main\" \n"
                   "\"Z\" \"work\" \"run\" \"main\" \n"
                   "\"Z\" \"work\" \"run\" \"main\" \n"
                   "\"x\" \"c\" \"work\" \"run\" \"main\" \n"
                   "\"a\" \"work\" \"run\" \"main\" \n"
                   "\"other\" \"main\" \n"
                   "\"Z\" \"work\" \"run\" \"main\" \n"
                   "\"x\" \"a\" \"work\" \"run\" \"main\" \n"
                   "\"c\" \"work\" \"run\" \"main\" \n"
                   "\"run\" \"main\" \n");
    ck_assert_uint_lt(find_function(&m, "a"), find_function(&m, "Z"));
    struct ss_level_row *rows;
    size_t n;
    struct ss_error err;
    ck_assert_int_eq(ss_levels_compute(&m, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 5);
    check_level(&m, rows, n, 1, 10, 1, "main", 10);
    check_level(&m, rows, n, 2, 10, 2, "run", 9);
    check_level(&m, rows, n, 3, 8, 1, "work", 8);
    check_level(&m, rows, n, 4, 8, 3, "Z", 3);
    check_level(&m, rows, n, 5, 2, 1, "x", 2);
    ck_assert_uint_eq(ss_levels_scaffold(rows, n, 1.0), 1);
    ck_assert_uint_eq(ss_levels_scaffold(rows, n, 0.9), 2);
    ck_assert_uint_eq(ss_levels_scaffold(rows, n, 0.8), 3);
    ck_assert_uint_eq(ss_levels_scaffold(rows, 0, 0.8), 0);
    free(rows);
    ss_model_free(&m);
}
END_TEST

/* No sample has a frame: no levels, no runs. */
START_TEST(test_levels_runs_empty)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "memory profiling: sample.interval=20000\n"
                   ":1:2:3:4:\n"
                   ":1:2:3:4:\n");
    struct ss_level_row *lv;
    struct ss_run_row *rows;
    size_t n = 99;
    struct ss_error err;
    ck_assert_int_eq(ss_levels_compute(&m, &lv, &n, &err), 0);
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(lv);
    ck_assert_uint_eq(ss_levels_scaffold(lv, n, 1.0), 0);
    ck_assert_int_eq(ss_runs_compute(&m, 0, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 0);
    ck_assert_ptr_null(rows);
    ss_model_free(&m);
}
END_TEST

/* ---- one function's table, fast (ss_runs_hist_fast = ss_runs_hist) --------- */

/* ss_runs_hist_fast gives the same table as ss_runs_hist for every function
 * of m (`what` names the profile in failures). */
static void same_hists_model(const struct ss_model *m, const char *what)
{
    struct ss_error err;
    for (size_t f = 0; f < m->functions.n; f++) {
        struct ss_run_hist a, b;
        ck_assert_int_eq(ss_runs_hist(m, (ss_id)f, &a, &err), 0);
        ck_assert_int_eq(ss_runs_hist_fast(m, (ss_id)f, &b, &err), 0);
        const char *name = fname(m, (ss_id)f);
        ck_assert_msg(a.n_levels == b.n_levels && a.n_lengths == b.n_lengths && a.total == b.total,
                      "%s, %s: %zu levels %zu lengths %llu runs, fast: %zu %zu %llu", what, name,
                      a.n_levels, a.n_lengths, (unsigned long long)a.total, b.n_levels, b.n_lengths,
                      (unsigned long long)b.total);
        ck_assert_uint_eq(b.function, (ss_id)f);
        for (size_t i = 0; i < a.n_levels; i++)
            ck_assert_msg(a.levels[i] == b.levels[i] && a.level_runs[i] == b.level_runs[i],
                          "%s, %s: level row %zu", what, name, i);
        for (size_t j = 0; j < a.n_lengths; j++)
            ck_assert_msg(a.lengths[j] == b.lengths[j] && a.length_runs[j] == b.length_runs[j],
                          "%s, %s: length column %zu", what, name, j);
        for (size_t k = 0; k < a.n_levels * a.n_lengths; k++)
            ck_assert_msg(a.counts[k] == b.counts[k], "%s, %s: cell %zu", what, name, k);
        ss_run_hist_free(&a);
        ss_run_hist_free(&b);
    }
}

/* The same for a profile file; files that do not load (the bad-input
 * fixtures) are skipped.  Returns 1 when the file loaded. */
static int same_hists_file(const char *path)
{
    struct ss_model m;
    struct ss_error err;
    char *files[1] = {(char *)(uintptr_t)path}; /* ss_load_files only reads it */
    if (ss_load_files(&m, files, 1, NULL, &err))
        return 0;
    same_hists_model(&m, path);
    ss_model_free(&m);
    return 1;
}

/* Every *.out file of dir (a directory of the source tree). */
static void same_hists_dir(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".out"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        n += same_hists_file(path);
    }
    closedir(d);
    ck_assert_int_gt(n, 0);
}

static const char *srcdir(void)
{
    const char *s = getenv("SRCDIR");
    return s && *s ? s : ".";
}

START_TEST(test_runs_hist_fast_small)
{
    /* root first: 1-3 main run setup; 4 main run work f; 5-6 main run work
     * f g; 7 main run work f; 8 main run work h; 9 main run work f g; 10
     * main run save */
    struct ss_model m;
    FX_LOAD_OK(&m, "sample.interval=10000\n"
                   "\"setup\" \"run\" \"main\" \n"
                   "\"setup\" \"run\" \"main\" \n"
                   "\"setup\" \"run\" \"main\" \n"
                   "\"f\" \"work\" \"run\" \"main\" \n"
                   "\"g\" \"f\" \"work\" \"run\" \"main\" \n"
                   "\"g\" \"f\" \"work\" \"run\" \"main\" \n"
                   "\"f\" \"work\" \"run\" \"main\" \n"
                   "\"h\" \"work\" \"run\" \"main\" \n"
                   "\"g\" \"f\" \"work\" \"run\" \"main\" \n"
                   "\"save\" \"run\" \"main\" \n");
    same_hists_model(&m, "small");
    /* by hand: f has 2 runs at level 4, of 4 (samples 4-7) and 1 (sample 9) */
    struct ss_run_hist h;
    struct ss_error err;
    ck_assert_int_eq(ss_runs_hist_fast(&m, find_function(&m, "f"), &h, &err), 0);
    ck_assert_uint_eq(h.n_levels, 1);
    ck_assert_uint_eq(h.levels[0], 4);
    ck_assert_uint_eq(h.n_lengths, 2);
    ck_assert_uint_eq(h.lengths[0], 1);
    ck_assert_uint_eq(h.lengths[1], 4);
    ck_assert_uint_eq(h.counts[0], 1);
    ck_assert_uint_eq(h.counts[1], 1);
    ck_assert_uint_eq(h.total, 2);
    ss_run_hist_free(&h);
    /* g: 2 runs at level 5, of 2 (samples 5-6) and 1 (sample 9) */
    ck_assert_int_eq(ss_runs_hist_fast(&m, find_function(&m, "g"), &h, &err), 0);
    ck_assert_uint_eq(h.n_levels, 1);
    ck_assert_uint_eq(h.levels[0], 5);
    ck_assert_uint_eq(h.n_lengths, 2);
    ck_assert_uint_eq(h.lengths[0], 1);
    ck_assert_uint_eq(h.lengths[1], 2);
    ck_assert_uint_eq(h.total, 2);
    ss_run_hist_free(&h);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_runs_hist_fast_fixtures)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/data/edge-cases", srcdir());
    same_hists_dir(dir);
    snprintf(dir, sizeof dir, "%s/tests/data/rprof", srcdir());
    same_hists_dir(dir);
    snprintf(dir, sizeof dir, "%s/data/demo.out", srcdir());
    ck_assert_int_eq(same_hists_file(dir), 1);
}
END_TEST

/* Removed samples end runs (a gap ends every run: HACKING.md, Data model).
 * Root first: 1 main f; 2 main g; 3 main f; 4 main f; 5 main h; 6 main f.
 * drop g removes sample 2 and drop-samples 5 removes sample 5 (after drop g,
 * the old sample 6 is the fifth), leaving main f | main f, main f | main f:
 * gaps before the second and the fourth kept sample.  Runs: f@2 {1, 2, 1}
 * (3 runs, 4 samples, median 1, max 2); main@1 the same lengths. */
START_TEST(test_runs_transform_gap)
{
    struct ss_model o, m;
    struct ss_error err;
    FX_LOAD_OK(&o, "sample.interval=10000\n"
                   "\"f\" \"main\" \n\"g\" \"main\" \n\"f\" \"main\" \n"
                   "\"f\" \"main\" \n\"h\" \"main\" \n\"f\" \"main\" \n");
    struct ss_tf_list *l = ss_tf_list_new();
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(ss_tf_append(l, "drop g", &err), 0);
    ck_assert_int_eq(ss_tf_append(l, "drop-samples 4", &err), 0);
    ck_assert_int_eq(ss_tf_apply(l, &o, &m, &err), 0);
    ck_assert_uint_eq(m.sample_stack.n, 4);
    ck_assert_uint_eq(m.gaps.n, 2);
    ck_assert_uint_eq(m.gaps.v[0], 1);
    ck_assert_uint_eq(m.gaps.v[1], 3);
    struct ss_run_row *rows;
    size_t n;
    ck_assert_int_eq(ss_runs_compute(&m, 0, &rows, &n, &err), 0);
    ck_assert_uint_eq(n, 4);
    check_run(&m, rows, n, 0, "f", 0, 3, 4, 4.0 / 3, 1, 2);
    check_run(&m, rows, n, 1, "f", 2, 3, 4, 4.0 / 3, 1, 2);
    check_run(&m, rows, n, 2, "main", 0, 3, 4, 4.0 / 3, 1, 2);
    check_run(&m, rows, n, 3, "main", 1, 3, 4, 4.0 / 3, 1, 2);
    free(rows);
    struct ss_run_hist h;
    ck_assert_int_eq(ss_runs_hist_fast(&m, find_function(&m, "f"), &h, &err), 0);
    ck_assert_uint_eq(h.total, 3);
    ck_assert_uint_eq(h.n_lengths, 2);
    ck_assert_uint_eq(h.counts[0], 2); /* two runs of 1, one of 2 */
    ck_assert_uint_eq(h.counts[1], 1);
    ss_run_hist_free(&h);
    same_hists_model(&m, "gaps");
    ss_tf_list_free(l);
    ss_model_free(&m);
    ss_model_free(&o);
}
END_TEST

/* A count and a run-length pass that another thread stops (the explorer
 * cancels the run lengths of a profile a key replaces, and the key waits
 * for them) give up: the count returns -1 and the runs SS_RUNS_STOPPED,
 * with nothing.  Unstopped, the same count is right in one part and in two
 * (2.2M samples: two parts of at least 1Mi with two threads).  Stack "f
 * main" is sample 0's, "g main" sample 1's, then the appended sample i has
 * "g main" when i % 3 == 0: 733,334 of the 2,200,000. */
START_TEST(test_counts_stop)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "sample.interval=20000\n\"f\" \"main\" \n\"g\" \"main\" \n");
    ss_id fst = m.sample_stack.v[0], gst = m.sample_stack.v[1];
    size_t n = 2200000;
    ss_id *st = malloc(n * sizeof *st);
    ck_assert_ptr_nonnull(st);
    for (size_t i = 0; i < n; i++)
        st[i] = i % 3 == 0 ? gst : fst;
    ck_assert_int_eq(ss_model_add_samples(&m, st, n, NULL, 0, NULL), 0);
    free(st);
    static const char *const threads[] = {"1", "2"};
    atomic_int stop;
    for (size_t t = 0; t < ARRAY_SIZE(threads); t++) {
        setenv("STACKSCOPE_THREADS", threads[t], 1);
        for (int s = 0; s < 2; s++) {
            atomic_init(&stop, s);
            struct ss_stack_counts sc;
            ck_assert_int_eq(ss_stack_counts_init(&sc, &m), 0);
            sc.stop = &stop;
            int rc = ss_stack_counts_source(&sc, &m, 0);
            if (s) {
                ck_assert_int_eq(rc, -1);
                /* the second part (from sample 1,100,001) stopped too, at
                 * its first look (sample 1,114,112) */
                if (t == 1)
                    ck_assert_uint_lt(sc.more[0].cnt[fst] + sc.more[0].cnt[gst], 65536);
            } else {
                ck_assert_int_eq(rc, 0);
                ck_assert_uint_eq(sc.cnt[fst], 1466667);
                ck_assert_uint_eq(sc.cnt[gst], 733335);
            }
            ss_stack_counts_free(&sc);
        }
        atomic_init(&stop, 1);
        struct ss_run_row *rows;
        size_t nr;
        struct ss_error err;
        ck_assert_int_eq(ss_runs_compute_stop(&m, 0, &rows, &nr, &err, &stop), SS_RUNS_STOPPED);
        ck_assert_ptr_null(rows);
        ck_assert_uint_eq(nr, 0);
    }
    unsetenv("STACKSCOPE_THREADS");
    ss_model_free(&m);
}
END_TEST

Suite *runs_suite(void)
{
    Suite *s = suite_create("runs");
    TCase *tc = tcase_create("levels");
    tcase_add_test(tc, test_levels_recursion);
    tcase_add_test(tc, test_levels_scaffold);
    tcase_add_test(tc, test_levels_runs_empty);
    suite_add_tcase(s, tc);
    tc = tcase_create("runs");
    tcase_add_test(tc, test_runs_recursion);
    tcase_add_test(tc, test_runs_hist);
    tcase_add_test(tc, test_runs_gap);
    tcase_add_test(tc, test_runs_blank_line_no_gap);
    tcase_add_test(tc, test_runs_sessions);
    tcase_add_test(tc, test_runs_ignore_lines);
    tcase_add_test(tc, test_runs_median);
    tcase_add_test(tc, test_runs_long);
    suite_add_tcase(s, tc);
    tc = tcase_create("runs_fast");
    tcase_add_test(tc, test_runs_hist_fast_small);
    tcase_add_test(tc, test_runs_hist_fast_fixtures);
    tcase_add_test(tc, test_runs_transform_gap);
    tcase_add_test(tc, test_counts_stop);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}
