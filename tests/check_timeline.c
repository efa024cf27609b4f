/* check_timeline.c - the timeline grid (src/timeline.h: many levels over a
 * range of samples, what the explorer's timeline draws).
 *
 * Every expected cell was worked out by hand from the fixture; the comments
 * show the samples of each column.  The single-level timeline
 * (ss_timeline_compute) is tested in check_tree.c. */
#include "check_suites.h"

#include <stdlib.h>
#include <string.h>

#include "timeline.h"
#include "transform.h"

/* 10 samples, written root first in the comments (level 1 = main):
 *   1-3   main > run > setup
 *   4     main > run > work > f
 *   5-6   main > run > work > f > g
 *   7     main > run > work > f
 *   8     main > run > work > h
 *   9     main > run > work > f > g
 *   10    main > run > save */
static const char small_prof[] = "sample.interval=10000\n"
                                 "\"setup\" \"run\" \"main\" \n"
                                 "\"setup\" \"run\" \"main\" \n"
                                 "\"setup\" \"run\" \"main\" \n"
                                 "\"f\" \"work\" \"run\" \"main\" \n"
                                 "\"g\" \"f\" \"work\" \"run\" \"main\" \n"
                                 "\"g\" \"f\" \"work\" \"run\" \"main\" \n"
                                 "\"f\" \"work\" \"run\" \"main\" \n"
                                 "\"h\" \"work\" \"run\" \"main\" \n"
                                 "\"g\" \"f\" \"work\" \"run\" \"main\" \n"
                                 "\"save\" \"run\" \"main\" \n";

/* The name in the cell (col, level), "-" for none. */
static const char *cell(const struct ss_model *m, const struct ss_timeline_grid *g, size_t col,
                        uint32_t level)
{
    ss_id f = g->top[col * g->nlevels + (level - g->level0)];
    return f == SS_NONE ? "-" : ss_str(m, m->functions.v[f].name);
}

START_TEST(test_grid_one_per_column)
{
    struct ss_model m;
    FX_LOAD_OK(&m, small_prof);
    struct ss_timeline_grid g;
    struct ss_error err;
    ck_assert_int_eq(ss_timeline_grid_compute(&m, 0, 10, 80, 3, 3, &g, &err), 0);
    ck_assert_uint_eq(g.window, 1);
    ck_assert_uint_eq(g.ncols, 10);
    const char *l3[] = {"setup", "setup", "setup", "work", "work",
                        "work",  "work",  "work",  "work", "save"};
    const char *l4[] = {"-", "-", "-", "f", "f", "f", "f", "h", "f", "-"};
    const char *l5[] = {"-", "-", "-", "-", "g", "g", "-", "-", "g", "-"};
    for (size_t c = 0; c < 10; c++) {
        ck_assert_str_eq(cell(&m, &g, c, 3), l3[c]);
        ck_assert_str_eq(cell(&m, &g, c, 4), l4[c]);
        ck_assert_str_eq(cell(&m, &g, c, 5), l5[c]);
    }
    ss_timeline_grid_free(&g);
    ss_timeline_grid_free(&g); /* a zeroed grid frees as a no-op */
    ss_model_free(&m);
}
END_TEST

START_TEST(test_grid_windows)
{
    struct ss_model m;
    FX_LOAD_OK(&m, small_prof);
    struct ss_timeline_grid g;
    struct ss_error err;
    /* width 4: windows of ceil(10/4) = 3 samples: 1-3, 4-6, 7-9, 10 */
    ck_assert_int_eq(ss_timeline_grid_compute(&m, 0, 10, 4, 3, 2, &g, &err), 0);
    ck_assert_uint_eq(g.window, 3);
    ck_assert_uint_eq(g.ncols, 4);
    ck_assert_str_eq(cell(&m, &g, 0, 3), "setup");
    ck_assert_str_eq(cell(&m, &g, 1, 3), "work");
    ck_assert_str_eq(cell(&m, &g, 3, 3), "save");
    ck_assert_str_eq(cell(&m, &g, 0, 4), "-");
    ck_assert_uint_eq(g.reach[0 * 2 + 1], 0);
    /* samples 7-9 at level 4: f, h, f */
    ck_assert_str_eq(cell(&m, &g, 2, 4), "f");
    ck_assert_uint_eq(g.top_n[2 * 2 + 1], 2);
    ck_assert_uint_eq(g.reach[2 * 2 + 1], 3);
    ss_timeline_grid_free(&g);
    /* width 5: samples 7-8 at level 4 are f and h once each: the tie goes
     * to the lower name */
    ck_assert_int_eq(ss_timeline_grid_compute(&m, 0, 10, 5, 4, 1, &g, &err), 0);
    ck_assert_uint_eq(g.window, 2);
    ck_assert_str_eq(cell(&m, &g, 3, 4), "f");
    ck_assert_uint_eq(g.top_n[3], 1);
    ss_timeline_grid_free(&g);
    /* a range: samples 4-9 (0-based 3..8) in 3 columns */
    ck_assert_int_eq(ss_timeline_grid_compute(&m, 3, 6, 3, 5, 1, &g, &err), 0);
    ck_assert_uint_eq(g.window, 2);
    ck_assert_str_eq(cell(&m, &g, 0, 5), "g"); /* samples 4-5: -, g */
    ck_assert_str_eq(cell(&m, &g, 1, 5), "g"); /* 6-7: g, - */
    ck_assert_str_eq(cell(&m, &g, 2, 5), "g"); /* 8-9: -, g */
    ck_assert_uint_eq(g.reach[1], 1);
    ss_timeline_grid_free(&g);
    /* a range past the end is clamped: samples 9-10 in one column; level 0
     * counts as 1 */
    ck_assert_int_eq(ss_timeline_grid_compute(&m, 8, 50, 1, 0, 1, &g, &err), 0);
    ck_assert_uint_eq(g.first, 8);
    ck_assert_uint_eq(g.n, 2);
    ck_assert_uint_eq(g.ncols, 1);
    ck_assert_uint_eq(g.level0, 1);
    ck_assert_str_eq(cell(&m, &g, 0, 1), "main");
    ck_assert_uint_eq(g.top_n[0], 2);
    ss_timeline_grid_free(&g);
    ss_model_free(&m);
}
END_TEST

/* The exact phase (ss_timeline_phase, the explorer's `v`): root first
 * 1-2 main f, 3 main g, 4-6 main f, 7 main h, 8 main f.  At level 2, f's
 * phase around sample 5 (0-based 4) is samples 4-6 (0-based [3, 6)); after
 * drop-samples 5 (a gap between the old samples 4 and 6) it is 4 alone
 * (0-based [3, 4)), and the old sample 6 (now 0-based 4) starts another;
 * sample 3 has g there: no phase of f. */
START_TEST(test_phase_gap)
{
    struct ss_model o, m;
    struct ss_error err;
    FX_LOAD_OK(&o, "sample.interval=10000\n"
                   "\"f\" \"main\" \n\"f\" \"main\" \n\"g\" \"main\" \n\"f\" \"main\" \n"
                   "\"f\" \"main\" \n\"f\" \"main\" \n\"h\" \"main\" \n\"f\" \"main\" \n");
    ss_id f = ss_model_find_function(&o, "f");
    size_t a, b;
    ck_assert_int_eq(ss_timeline_phase(&o, 2, f, 4, &a, &b), 0);
    ck_assert_uint_eq(a, 3);
    ck_assert_uint_eq(b, 6);
    ck_assert_int_eq(ss_timeline_phase(&o, 2, f, 2, &a, &b), -1);
    ck_assert_int_eq(ss_timeline_phase(&o, 1, ss_model_find_function(&o, "main"), 0, &a, &b), 0);
    ck_assert_uint_eq(b - a, 8);
    struct ss_tf_list *l = ss_tf_list_new();
    ck_assert_int_eq(ss_tf_append(l, "drop-samples 5", &err), 0);
    ck_assert_int_eq(ss_tf_apply(l, &o, &m, &err), 0);
    ck_assert_int_eq(ss_timeline_phase(&m, 2, f, 3, &a, &b), 0);
    ck_assert_uint_eq(a, 3);
    ck_assert_uint_eq(b, 4);
    ck_assert_int_eq(ss_timeline_phase(&m, 2, f, 4, &a, &b), 0);
    ck_assert_uint_eq(a, 4);
    ck_assert_uint_eq(b, 5);
    /* main at level 1: the gap ends it too */
    ck_assert_int_eq(ss_timeline_phase(&m, 1, ss_model_find_function(&m, "main"), 0, &a, &b), 0);
    ck_assert_uint_eq(a, 0);
    ck_assert_uint_eq(b, 4);
    ss_tf_list_free(l);
    ss_model_free(&m);
    ss_model_free(&o);
}
END_TEST

Suite *timeline_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *tc = tcase_create("grid");
    tcase_add_test(tc, test_grid_one_per_column);
    tcase_add_test(tc, test_grid_windows);
    tcase_add_test(tc, test_phase_gap);
    suite_add_tcase(s, tc);
    return s;
}
