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

Suite *timeline_suite(void)
{
    Suite *s = suite_create("timeline");
    TCase *tc = tcase_create("grid");
    tcase_add_test(tc, test_grid_one_per_column);
    tcase_add_test(tc, test_grid_windows);
    suite_add_tcase(s, tc);
    return s;
}
