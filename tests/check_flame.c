/* check_flame.c - the flame graph and the flame chart (src/flame.h;
 * stackscope(1), THE EXPLORER).
 *
 * Every expected value was worked out by hand from the fixture above it
 * (the comments show the paths, sums and positions).  Stacks are written
 * root first ("main > f > g"); Rprof lines list them innermost first. */
#include "check_suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "flame_index.h"
#include "match.h"
#include "transform.h"

#define TOL 1e-12
#define NONE SS_FLAME_NONE
#define IV 0.02 /* the fixtures' interval in seconds */

/* Seven samples, 0.02 s each, in this time order:
 *   1 main > f > g     2 main > f > g     3 main > h     4 main > f
 *   5 main > f > g     6 main             7 main > f > f */
static const char prof[] = "sample.interval=20000\n"
                           "\"g\" \"f\" \"main\" \n"
                           "\"g\" \"f\" \"main\" \n"
                           "\"h\" \"main\" \n"
                           "\"f\" \"main\" \n"
                           "\"g\" \"f\" \"main\" \n"
                           "\"main\" \n"
                           "\"f\" \"f\" \"main\" \n";

/* Build with the time weights. */
static void build(const struct ss_model *m, int inverted, int time_order, enum ss_flame_order order,
                  struct ss_flame *fl)
{
    double *sw, *pw;
    struct ss_error err;
    ck_assert_int_eq(ss_flame_measure_weights(m, &sw, &pw, &err), 0);
    struct ss_flame_opts o = {inverted, time_order, order};
    int rc = ss_flame_build(m, sw, pw, &o, fl, &err);
    ck_assert_msg(rc == 0, "build: %s", err.msg);
    free(sw);
    free(pw);
}

/* Node i: name, depth, parent, self and total in samples, x in samples, end. */
static void node(const struct ss_model *m, const struct ss_flame *fl, size_t i, const char *name,
                 uint32_t depth, uint32_t parent, double self, double total, double x, uint32_t end)
{
    ck_assert_msg(i < fl->n, "node %zu of %zu", i, fl->n);
    const struct ss_flame_node *nd = &fl->nodes[i];
    const char *got = ss_function_name(m, nd->function);
    ck_assert_msg(!strcmp(got, name), "node %zu is %s, want %s", i, got, name);
    ck_assert_msg(nd->depth == depth, "node %zu depth %u, want %u", i, nd->depth, depth);
    ck_assert_msg(nd->parent == parent, "node %zu parent %u, want %u", i, nd->parent, parent);
    ck_assert_msg(nd->end == end, "node %zu end %u, want %u", i, nd->end, end);
    ck_assert_double_eq_tol(nd->self, self * IV, TOL);
    ck_assert_double_eq_tol(nd->total, total * IV, TOL);
    ck_assert_double_eq_tol(nd->x, x * IV, TOL);
}

/* What holds for every graph: the roots add up to the total, a frame's
 * children lie inside it (and, aggregated, add up with its self to its
 * total), a parent comes before its children, and ends nest. */
static void invariants(const struct ss_flame *fl)
{
    double roots = 0;
    for (size_t i = 0; i < fl->n; i++) {
        const struct ss_flame_node *nd = &fl->nodes[i];
        double sum = nd->self;
        ck_assert_uint_gt(nd->end, i);
        ck_assert_uint_le(nd->end, fl->n);
        for (size_t c = i + 1; c < nd->end; c = fl->nodes[c].end) {
            const struct ss_flame_node *ch = &fl->nodes[c];
            ck_assert_uint_eq(ch->parent, i);
            ck_assert_uint_eq(ch->depth, nd->depth + 1);
            ck_assert(ch->x >= nd->x - TOL && ch->x + ch->total <= nd->x + nd->total + TOL);
            sum += ch->total;
        }
        ck_assert_double_eq_tol(sum, nd->total, TOL);
        if (nd->parent == NONE)
            roots += nd->total;
    }
    ck_assert_double_eq_tol(roots, fl->total, TOL);
}

/* Top-down, by name:
 *   main     total 7 (all)           self 1 (6)       x 0
 *    f       total 5 (1 2 4 5 7)     self 1 (4)       x 0
 *     f      total 1 (7)             self 1           x 0
 *     g      total 3 (1 2 5)         self 3           x 1 (after f/f)
 *    h       total 1 (3)             self 1           x 5 (after f)
 * Pre-order: 0 main, 1 f, 2 f, 3 g, 4 h; ends 5 4 3 4 5. */
START_TEST(test_flame_by_name)
{
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_flame fl;
    build(&m, 0, 0, SS_FLAME_BY_NAME, &fl);
    ck_assert_uint_eq(fl.n, 5);
    ck_assert_double_eq_tol(fl.total, 7 * IV, TOL);
    ck_assert_uint_eq(fl.max_depth, 3);
    node(&m, &fl, 0, "main", 0, NONE, 1, 7, 0, 5);
    node(&m, &fl, 1, "f", 1, 0, 1, 5, 0, 4);
    node(&m, &fl, 2, "f", 2, 1, 1, 1, 0, 3);
    node(&m, &fl, 3, "g", 2, 1, 3, 3, 1, 4);
    node(&m, &fl, 4, "h", 1, 0, 1, 1, 5, 5);
    invariants(&fl);
    /* the frame under a position: depth 2 at 1.5 samples is main>f>g;
     * depth 1 at 5.5 is h; nothing at depth 2 there (h has no children),
     * nor anything at 7 (past the end) */
    ck_assert_uint_eq(ss_flame_at(&fl, NONE, 2, 1.5 * IV), 3);
    ck_assert_uint_eq(ss_flame_at(&fl, NONE, 1, 5.5 * IV), 4);
    ck_assert_uint_eq(ss_flame_at(&fl, NONE, 2, 5.5 * IV), NONE);
    ck_assert_uint_eq(ss_flame_at(&fl, NONE, 0, 7.5 * IV), NONE);
    /* inside the zoom on main>f only its subtree counts */
    ck_assert_uint_eq(ss_flame_at(&fl, 1, 1, 5.5 * IV), NONE);
    ck_assert_uint_eq(ss_flame_at(&fl, 1, 2, 0.5 * IV), 2);
    ss_flame_free(&fl);
    ss_model_free(&m);
}
END_TEST

/* Top-down, heaviest first: main's children f (5) before h (1); f's
 * children g (3) before f (1).  Pre-order 0 main, 1 f, 2 g (x 0), 3 f
 * (x 3), 4 h (x 5). */
START_TEST(test_flame_by_weight)
{
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_flame fl;
    build(&m, 0, 0, SS_FLAME_BY_WEIGHT, &fl);
    ck_assert_uint_eq(fl.n, 5);
    node(&m, &fl, 0, "main", 0, NONE, 1, 7, 0, 5);
    node(&m, &fl, 1, "f", 1, 0, 1, 5, 0, 4);
    node(&m, &fl, 2, "g", 2, 1, 3, 3, 0, 3);
    node(&m, &fl, 3, "f", 2, 1, 1, 1, 3, 4);
    node(&m, &fl, 4, "h", 1, 0, 1, 1, 5, 5);
    invariants(&fl);
    ss_flame_free(&fl);
    ss_model_free(&m);
}
END_TEST

/* Inverted (leaves as roots), paths read from the leaf outward:
 *   g > f > main x3 (1 2 5), h > main (3), f > main (4), main (6),
 *   f > f > main (7).
 * Roots by name: f (4 7: total 2, self 0), g (3), h (1), main (1, self 1).
 *   f > f (7) total 1 self 0; f > f > main total 1 self 1 (outermost);
 *   f > main (4) total 1 self 1.
 * Pre-order: 0 f, 1 f>f, 2 f>f>main, 3 f>main, 4 g, 5 g>f, 6 g>f>main,
 * 7 h, 8 h>main, 9 main; x: f 0, f>main 1, g 2, h 5, main 6. */
START_TEST(test_flame_inverted)
{
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_flame fl;
    build(&m, 1, 0, SS_FLAME_BY_NAME, &fl);
    ck_assert_uint_eq(fl.n, 10);
    node(&m, &fl, 0, "f", 0, NONE, 0, 2, 0, 4);
    node(&m, &fl, 1, "f", 1, 0, 0, 1, 0, 3);
    node(&m, &fl, 2, "main", 2, 1, 1, 1, 0, 3);
    node(&m, &fl, 3, "main", 1, 0, 1, 1, 1, 4);
    node(&m, &fl, 4, "g", 0, NONE, 0, 3, 2, 7);
    node(&m, &fl, 5, "f", 1, 4, 0, 3, 2, 7);
    node(&m, &fl, 6, "main", 2, 5, 3, 3, 2, 7);
    node(&m, &fl, 7, "h", 0, NONE, 0, 1, 5, 9);
    node(&m, &fl, 8, "main", 1, 7, 1, 1, 5, 9);
    node(&m, &fl, 9, "main", 0, NONE, 1, 1, 6, 10);
    invariants(&fl);
    ss_flame_free(&fl);
    ss_model_free(&m);
}
END_TEST

/* The chart, samples in time order, consecutive ones sharing a prefix:
 *   1-2 main>f>g: main (x 0), f (x 0), g (x 0)
 *   3 main>h: f, g end; h (x 2)
 *   4 main>f: h ends; f (x 3)
 *   5 main>f>g: g (x 4) under that f
 *   6 main: f, g end (main's self)
 *   7 main>f>f: f (x 6), f (x 6)
 * Frames: 0 main 7 (self 1), 1 f 2, 2 g 2, 3 h 1, 4 f 2 (self 1), 5 g 1,
 * 6 f 1, 7 f 1 (self 1); ends 8 3 3 4 6 6 8 8. */
START_TEST(test_flame_chart)
{
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_flame fl;
    build(&m, 0, 1, SS_FLAME_BY_NAME, &fl);
    ck_assert_uint_eq(fl.n, 8);
    ck_assert_double_eq_tol(fl.total, 7 * IV, TOL);
    node(&m, &fl, 0, "main", 0, NONE, 1, 7, 0, 8);
    node(&m, &fl, 1, "f", 1, 0, 0, 2, 0, 3);
    node(&m, &fl, 2, "g", 2, 1, 2, 2, 0, 3);
    node(&m, &fl, 3, "h", 1, 0, 1, 1, 2, 4);
    node(&m, &fl, 4, "f", 1, 0, 1, 2, 3, 6);
    node(&m, &fl, 5, "g", 2, 4, 1, 1, 4, 6);
    node(&m, &fl, 6, "f", 1, 0, 0, 1, 6, 8);
    node(&m, &fl, 7, "f", 2, 6, 1, 1, 6, 8);
    invariants(&fl);
    /* main's self sample 6 is the hole at x 5..6 on row 1 */
    ck_assert_uint_eq(ss_flame_at(&fl, NONE, 1, 5.5 * IV), NONE);
    ck_assert_uint_eq(ss_flame_at(&fl, NONE, 1, 6.5 * IV), 6);
    ss_flame_free(&fl);
    ss_model_free(&m);
}
END_TEST

/* The inverted chart: 1-2 g>f>main, 3 h>main, 4 f>main, 5 g>f>main,
 * 6 main, 7 f>f>main.  Roots g (2), h, f, g, main, f (the last one f>f>main):
 * 0 g 2, 1 f 2, 2 main 2 (self 2), 3 h, 4 main, 5 f, 6 main, 7 g, 8 f,
 * 9 main, 10 main, 11 f, 12 f, 13 main. */
START_TEST(test_flame_chart_inverted)
{
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_flame fl;
    build(&m, 1, 1, SS_FLAME_BY_NAME, &fl);
    ck_assert_uint_eq(fl.n, 14);
    node(&m, &fl, 0, "g", 0, NONE, 0, 2, 0, 3);
    node(&m, &fl, 2, "main", 2, 1, 2, 2, 0, 3);
    node(&m, &fl, 3, "h", 0, NONE, 0, 1, 2, 5);
    node(&m, &fl, 5, "f", 0, NONE, 0, 1, 3, 7);
    node(&m, &fl, 10, "main", 0, NONE, 1, 1, 5, 11);
    node(&m, &fl, 11, "f", 0, NONE, 0, 1, 6, 14);
    node(&m, &fl, 13, "main", 2, 12, 1, 1, 6, 14);
    invariants(&fl);
    ss_flame_free(&fl);
    ss_model_free(&m);
}
END_TEST

/* Breaks of the timeline end every frame of the chart, not of the
 * aggregated graph: a sample with no frames (memory profiling), a second
 * Rprof session, and samples removed by a transform.
 *   session 1 (0.02 s): main, <no frames>, main, main, main
 *   session 2 (0.01 s): main
 * Chart: main (x 0, 0.02), main (x 0.02, 3 samples: 0.06), main (x 0.08,
 * 0.01); aggregated: one main of 0.02 x 4 + 0.01 = 0.09 s. */
static const char breaks[] = "memory profiling: sample.interval=20000\n"
                             ":1:2:3:0:\"main\" \n"
                             ":1:2:3:0:\n"
                             ":1:2:3:0:\"main\" \n"
                             ":1:2:3:0:\"main\" \n"
                             ":1:2:3:0:\"main\" \n"
                             "memory profiling: sample.interval=10000\n"
                             ":1:2:3:0:\"main\" \n";

START_TEST(test_flame_chart_breaks)
{
    struct ss_model m;
    FX_LOAD_OK(&m, breaks);
    struct ss_flame fl;
    build(&m, 0, 1, SS_FLAME_BY_NAME, &fl);
    ck_assert_uint_eq(fl.n, 3);
    ck_assert_double_eq_tol(fl.nodes[0].total, 0.02, TOL);
    ck_assert_double_eq_tol(fl.nodes[1].x, 0.02, TOL);
    ck_assert_double_eq_tol(fl.nodes[1].total, 0.06, TOL);
    ck_assert_double_eq_tol(fl.nodes[2].x, 0.08, TOL);
    ck_assert_double_eq_tol(fl.nodes[2].total, 0.01, TOL);
    ck_assert_double_eq_tol(fl.total, 0.09, TOL);
    invariants(&fl);
    ss_flame_free(&fl);
    build(&m, 0, 0, SS_FLAME_BY_NAME, &fl);
    ck_assert_uint_eq(fl.n, 1);
    ck_assert_double_eq_tol(fl.nodes[0].total, 0.09, TOL);
    ck_assert_double_eq_tol(fl.nodes[0].self, 0.09, TOL);
    ss_flame_free(&fl);

    /* drop-samples 4:4 (the second of the three mains) leaves a gap
     * between the first and the third: they are two frames now.
     * main (0.02) | main (x 0.02, 0.02) | main (x 0.04, 0.02) | main (x
     * 0.06, 0.01) */
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_model tm;
    struct ss_error err;
    ck_assert_int_eq(ss_tf_append(l, "drop-samples 4:4", &err), 0);
    ck_assert_msg(ss_tf_apply(l, &m, &tm, &err) == 0, "%s", err.msg);
    build(&tm, 0, 1, SS_FLAME_BY_NAME, &fl);
    ck_assert_uint_eq(fl.n, 4);
    ck_assert_double_eq_tol(fl.nodes[1].total, 0.02, TOL);
    ck_assert_double_eq_tol(fl.nodes[2].x, 0.04, TOL);
    ck_assert_double_eq_tol(fl.nodes[2].total, 0.02, TOL);
    ck_assert_double_eq_tol(fl.nodes[3].x, 0.06, TOL);
    ck_assert_double_eq_tol(fl.total, 0.07, TOL);
    invariants(&fl);
    ss_flame_free(&fl);
    ss_model_free(&tm);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* Weights come from the caller: the same profile weighed 1 per sample of
 * session 1 and 10 per sample of session 2 (a made-up measure), and a
 * weight of 0 leaves the stack out.
 *   session 1: a > b, a;  session 2: a > c
 * stack weights: a>b 1, a 1, a>c 10 -> a 12 (self 1), b 1, c 10.  With the
 * a>b stack weighing 0: a 11, c 10, no b. */
static const char two[] = "sample.interval=1000\n"
                          "\"b\" \"a\" \n"
                          "\"a\" \n"
                          "sample.interval=2000\n"
                          "\"c\" \"a\" \n";

START_TEST(test_flame_weights)
{
    struct ss_model m;
    FX_LOAD_OK(&m, two);
    ck_assert_uint_eq(ss_model_nstacks(&m), 3);
    double sw[3];
    for (ss_id s = 0; s < 3; s++) {
        const char *leaf = ss_function_name(&m, ss_loc_function(&m, ss_stack_frames(&m, s)[0]));
        sw[s] = !strcmp(leaf, "c") ? 10 : 1;
    }
    struct ss_flame_opts o = {0, 0, SS_FLAME_BY_WEIGHT};
    struct ss_flame fl;
    struct ss_error err;
    ck_assert_int_eq(ss_flame_build(&m, sw, NULL, &o, &fl, &err), 0);
    ck_assert_uint_eq(fl.n, 3);
    ck_assert_str_eq(ss_function_name(&m, fl.nodes[1].function), "c");
    ck_assert_double_eq_tol(fl.nodes[0].total, 12, TOL);
    ck_assert_double_eq_tol(fl.nodes[0].self, 1, TOL);
    ck_assert_double_eq_tol(fl.nodes[1].total, 10, TOL);
    ck_assert_double_eq_tol(fl.nodes[2].x, 10, TOL);
    ss_flame_free(&fl);
    for (ss_id s = 0; s < 3; s++)
        if (ss_stack_depth(&m, s) == 2 &&
            !strcmp(ss_function_name(&m, ss_loc_function(&m, ss_stack_frames(&m, s)[0])), "b"))
            sw[s] = 0;
    ck_assert_int_eq(ss_flame_build(&m, sw, NULL, &o, &fl, &err), 0);
    ck_assert_uint_eq(fl.n, 2);
    ck_assert_double_eq_tol(fl.total, 11, TOL);
    ss_flame_free(&fl);

    /* the time weights (the default measure): 0.001 s per sample in
     * session 1, 0.002 s in 2 */
    double *tw, *pw;
    ck_assert_int_eq(ss_flame_measure_weights(&m, &tw, &pw, &err), 0);
    ck_assert_double_eq_tol(pw[0], 0.001, TOL);
    ck_assert_double_eq_tol(pw[1], 0.001, TOL);
    ck_assert_double_eq_tol(pw[2], 0.002, TOL);
    double sum = 0;
    for (size_t s = 0; s < 3; s++)
        sum += tw[s];
    ck_assert_double_eq_tol(sum, 0.004, TOL);
    free(tw);
    free(pw);
    /* the model's chosen measure: samples weigh 1 each, whatever the
     * interval; the values read with their unit */
    char buf[64];
    ss_flame_format(&m, 0.004, buf, sizeof buf);
    ck_assert_str_eq(buf, "0.004 s");
    ck_assert_int_eq(ss_model_set_measure(&m, "samples", &err), 0);
    ck_assert_int_eq(ss_flame_measure_weights(&m, &tw, &pw, &err), 0);
    ck_assert_double_eq_tol(pw[0] + pw[1] + pw[2], 3, TOL);
    ck_assert_double_eq_tol(tw[0] + tw[1] + tw[2], 3, TOL);
    ck_assert_int_eq(ss_flame_build(&m, tw, pw, &o, &fl, &err), 0);
    ck_assert_double_eq_tol(fl.total, 3, TOL);
    ss_flame_free(&fl);
    free(tw);
    free(pw);
    ss_flame_format(&m, 1234, buf, sizeof buf);
    ck_assert_str_eq(buf, "1,234 samples");
    /* no weights at all is the caller's mistake, said as such */
    ck_assert_int_eq(ss_flame_build(&m, NULL, NULL, &o, &fl, &err), SS_EUSAGE);
    ss_model_free(&m);
}
END_TEST

/* Search, on the top-down graph by name (0 main 7, 1 f 5, 2 f/f 1, 3 f/g
 * 3, 4 h 1):
 *   f: frames 1 and 2 match; 2 is inside 1, so the share is f's 5 samples,
 *      not 6; the widest is 1.
 *   /^(g|h)$/: frames 3 and 4, 3 + 1 = 4 samples.
 *   f inside the zoom on main>f>g (3): nothing. */
START_TEST(test_flame_search)
{
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_flame fl;
    build(&m, 0, 0, SS_FLAME_BY_NAME, &fl);
    uint8_t *fm = calloc(m.functions.n, 1), match[5];
    ck_assert_ptr_nonnull(fm);
    ss_id f = ss_model_find_function(&m, "f");
    fm[f] = 1;
    size_t nm;
    uint32_t widest;
    double hit = ss_flame_search(&m, &fl, NONE, fm, match, &nm, &widest);
    ck_assert_double_eq_tol(hit, 5 * IV, TOL);
    ck_assert_uint_eq(nm, 2);
    ck_assert_uint_eq(widest, 1);
    ck_assert(!match[0] && match[1] && match[2] && !match[3] && !match[4]);
    hit = ss_flame_search(&m, &fl, 3, fm, NULL, &nm, &widest);
    ck_assert_double_eq_tol(hit, 0, TOL);
    ck_assert_uint_eq(nm, 0);
    ck_assert_uint_eq(widest, NONE);

    struct ss_regex re;
    char why[128];
    ck_assert_int_eq(ss_regex_compile(&re, "^(g|h)$", why, sizeof why), 0);
    ck_assert_int_eq(ss_flame_match_regex(&m, &re, fm), 0);
    ss_regex_free(&re);
    hit = ss_flame_search(&m, &fl, NONE, fm, match, &nm, &widest);
    ck_assert_double_eq_tol(hit, 4 * IV, TOL);
    ck_assert_uint_eq(nm, 2);
    ck_assert_uint_eq(widest, 3);
    ck_assert(!match[0] && !match[1] && !match[2] && match[3] && match[4]);
    free(fm);
    ss_flame_free(&fl);
    ss_model_free(&m);
}
END_TEST

/* The sandwich's halves, focused on f:
 * callees (from f's outermost frame inward): main>f>g x3 -> f>g,
 *   main>f -> f, main>f>f -> f>f: f 5 (self 1), f/f 1 (self 1), f/g 3;
 *   by name: 0 f, 1 f (x 0), 2 g (x 1).
 * callers (from f's innermost frame outward): main>f>g x3 -> f>main,
 *   main>f -> f>main, main>f>f -> f>f>main (the inner f first):
 *   f 5 (self 0), f/f 1, f/f/main 1 (self 1), f/main 4 (self 4);
 *   by name: 0 f, 1 f, 2 main, 3 main (x 1). */
START_TEST(test_flame_focus)
{
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    double *sw;
    struct ss_error err;
    ck_assert_int_eq(ss_flame_measure_weights(&m, &sw, NULL, &err), 0);
    ss_id f = ss_model_find_function(&m, "f");
    struct ss_flame_opts o = {0, 0, SS_FLAME_BY_NAME};
    struct ss_flame fl;
    ck_assert_int_eq(ss_flame_build_focus(&m, sw, &o, f, &fl, &err), 0);
    ck_assert_uint_eq(fl.n, 3);
    ck_assert_double_eq_tol(fl.total, 5 * IV, TOL);
    node(&m, &fl, 0, "f", 0, NONE, 1, 5, 0, 3);
    node(&m, &fl, 1, "f", 1, 0, 1, 1, 0, 2);
    node(&m, &fl, 2, "g", 1, 0, 3, 3, 1, 3);
    invariants(&fl);
    ss_flame_free(&fl);
    o.inverted = 1;
    ck_assert_int_eq(ss_flame_build_focus(&m, sw, &o, f, &fl, &err), 0);
    ck_assert_uint_eq(fl.n, 4);
    node(&m, &fl, 0, "f", 0, NONE, 0, 5, 0, 4);
    node(&m, &fl, 1, "f", 1, 0, 0, 1, 0, 3);
    node(&m, &fl, 2, "main", 2, 1, 1, 1, 0, 3);
    node(&m, &fl, 3, "main", 1, 0, 4, 4, 1, 4);
    invariants(&fl);
    ss_flame_free(&fl);
    ck_assert_int_eq(ss_flame_build_focus(&m, sw, &o, SS_NONE, &fl, &err), SS_EUSAGE);
    free(sw);
    ss_model_free(&m);
}
END_TEST

/* Build the chart with the time weights at the resolution of grid g. */
static void build_grid(const struct ss_model *m, int inverted, const struct ss_flame_grid *g,
                       struct ss_flame *fl)
{
    double *pw;
    struct ss_error err;
    ck_assert_int_eq(ss_flame_measure_weights(m, NULL, &pw, &err), 0);
    struct ss_flame_opts o = {inverted, 1, SS_FLAME_BY_NAME};
    int rc = ss_flame_build_grid(m, NULL, pw, &o, g, fl, &err);
    ck_assert_msg(rc == 0, "build: %s", err.msg);
    free(pw);
}

/* The chart at a screen's resolution keeps only the frames that cover the
 * middle of a column (test_flame_chart's frames, x and width in samples:
 * main 0+7, f 0+2 > g 0+2, h 2+1, f 3+2 > g 4+1, f 6+1 > f 6+1).
 *   2 columns over all 7 (middles 1.75, 5.25): main, f 0+2, g 0+2 (5.25
 *     is main's own sample 6 on row 1: nothing below main there);
 *   3 columns (1.17, 3.5, 5.83): main, f 0+2, g 0+2, f 3+2 (its g 4+1
 *     misses 3.5 and 5.83; h misses too);
 *   7 columns: every frame, as the exact chart;
 *   the zoom on f 3+2, 4 columns (3.25 3.75 4.25 4.75): main, f 3+2, g 4+1.
 * Each frame made has its exact total, self and x; the count of the
 * chart's frames stays 8. */
START_TEST(test_flame_chart_grid)
{
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_flame fl;
    struct ss_flame_grid g = {0, 0, 2, NULL, 0, NULL};
    build_grid(&m, 0, &g, &fl);
    ck_assert_uint_eq(fl.n, 3);
    ck_assert_uint_eq(fl.nframes, 8);
    ck_assert_double_eq_tol(fl.total, 7 * IV, TOL);
    node(&m, &fl, 0, "main", 0, NONE, 1, 7, 0, 3);
    node(&m, &fl, 1, "f", 1, 0, 0, 2, 0, 3);
    node(&m, &fl, 2, "g", 2, 1, 2, 2, 0, 3);
    ss_flame_free(&fl);

    g.cols = 3;
    build_grid(&m, 0, &g, &fl);
    ck_assert_uint_eq(fl.n, 4);
    node(&m, &fl, 0, "main", 0, NONE, 1, 7, 0, 4);
    node(&m, &fl, 1, "f", 1, 0, 0, 2, 0, 3);
    node(&m, &fl, 2, "g", 2, 1, 2, 2, 0, 3);
    node(&m, &fl, 3, "f", 1, 0, 1, 2, 3, 4);
    ss_flame_free(&fl);

    g.cols = 7;
    build_grid(&m, 0, &g, &fl);
    ck_assert_uint_eq(fl.n, 8);
    node(&m, &fl, 4, "f", 1, 0, 1, 2, 3, 6);
    node(&m, &fl, 7, "f", 2, 6, 1, 1, 6, 8);
    invariants(&fl);
    ss_flame_free(&fl);

    struct ss_flame_grid z = {3 * IV, 2 * IV, 4, NULL, 0, NULL};
    build_grid(&m, 0, &z, &fl);
    ck_assert_uint_eq(fl.n, 3);
    node(&m, &fl, 0, "main", 0, NONE, 1, 7, 0, 3);
    node(&m, &fl, 1, "f", 1, 0, 1, 2, 3, 3);
    node(&m, &fl, 2, "g", 2, 1, 1, 1, 4, 3);
    ss_flame_free(&fl);
    ss_model_free(&m);
}
END_TEST

/* A long profile in random order (the resampled benchmark's case): at any
 * resolution and zoom, the frames made are exactly the exact chart's frames
 * that cover a grid point, no more (each made frame is the exact one, found
 * by its depth and x), no fewer; and the chart's search gives the exact
 * chart's matched weight for the whole chart and for zooms. */
START_TEST(test_flame_chart_grid_random)
{
    static const char *stacks[] = {"\"g\" \"f\" \"main\" ",
                                   "\"h\" \"f\" \"main\" ",
                                   "\"g\" \"main\" ",
                                   "\"f\" \"f\" \"main\" ",
                                   "\"main\" ",
                                   "\"k\" \"h\" \"g\" \"main\" ",
                                   "\"g\" \"k\" \"f\" \"main\" "};
    size_t n = 5000, cap = 64 + n * 40, len = 0;
    char *txt = malloc(cap);
    ck_assert_ptr_nonnull(txt);
    len += (size_t)snprintf(txt, cap, "sample.interval=1000\n");
    uint32_t r = 12345;
    for (size_t i = 0; i < n; i++) {
        r = r * 1103515245u + 12345u;
        /* runs of one stack now and then, so that frames of many widths come */
        size_t k = (r >> 16) % 7, rep = (r >> 8) % 13 == 0 ? 1 + (r >> 4) % 40 : 1;
        for (size_t j = 0; j < rep && i < n; j++, i++)
            len += (size_t)snprintf(txt + len, cap - len, "%s\n", stacks[k]);
        i--;
    }
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_msg(fx_load(&m, &err, txt, len, path, sizeof path) == 0, "%s", err.msg);
    free(txt);
    double *pw;
    ck_assert_int_eq(ss_flame_measure_weights(&m, NULL, &pw, &err), 0);
    uint8_t *fm = calloc(m.functions.n, 1);
    ck_assert_ptr_nonnull(fm);
    fm[ss_model_find_function(&m, "g")] = 1;
    for (int inv = 0; inv <= 1; inv++) {
        struct ss_flame ex, gr;
        struct ss_flame_opts o = {inv, 1, SS_FLAME_BY_NAME};
        ck_assert_int_eq(ss_flame_build(&m, NULL, pw, &o, &ex, &err), 0);
        invariants(&ex);
        size_t cols_list[] = {1, 80, 333, 2000};
        /* the whole chart, then zooms on the widest frames of depth 1 to 3 */
        for (uint32_t zd = 0; zd <= 3; zd++) {
            uint32_t zi = NONE;
            for (size_t i = 0; i < ex.n && zd > 0; i++)
                if (ex.nodes[i].depth == zd &&
                    (zi == NONE || ex.nodes[i].total > ex.nodes[zi].total))
                    zi = (uint32_t)i;
            if (zd > 0 && zi == NONE)
                continue;
            double x0 = zi == NONE ? 0 : ex.nodes[zi].x;
            double w = zi == NONE ? ex.total : ex.nodes[zi].total;
            /* the search: the exact chart's share against the samples' */
            double hit;
            ck_assert_int_eq(ss_flame_chart_search(&m, pw, inv, fm, x0, w, zd, &hit, &err), 0);
            double want = ss_flame_search(&m, &ex, zi, fm, NULL, NULL, NULL);
            ck_assert_double_eq_tol(hit, want, 1e-9);
            for (size_t c = 0; c < sizeof cols_list / sizeof *cols_list; c++) {
                struct ss_flame_grid g = {x0, zi == NONE ? 0 : w, cols_list[c], NULL, 0, NULL};
                ck_assert_int_eq(ss_flame_build_grid(&m, NULL, pw, &o, &g, &gr, &err), 0);
                ck_assert_uint_eq(gr.nframes, ex.n);
                ck_assert_double_eq_tol(gr.total, ex.total, TOL);
                ck_assert_uint_le(gr.n, (cols_list[c] + 1) * 4 + 4);
                double step = w / (double)cols_list[c];
                size_t want_n = 0;
                for (size_t i = 0; i < ex.n; i++) {
                    const struct ss_flame_node *e = &ex.nodes[i];
                    /* the first grid point at or after e->x */
                    double k = ceil((e->x - x0) / step - 0.5);
                    if (k < 0)
                        k = 0;
                    double pt = x0 + (k + 0.5) * step;
                    if (!(k < (double)cols_list[c] && pt < e->x + e->total))
                        continue; /* covers no grid point */
                    want_n++;
                    uint32_t j = ss_flame_at(&gr, NONE, e->depth, e->x + e->total / 2);
                    ck_assert_msg(j != NONE, "frame %zu (depth %u, x %g) not made", i, e->depth,
                                  e->x);
                    const struct ss_flame_node *a = &gr.nodes[j];
                    ck_assert_uint_eq(a->function, e->function);
                    ck_assert_double_eq_tol(a->x, e->x, TOL);
                    ck_assert_double_eq_tol(a->total, e->total, TOL);
                    ck_assert_double_eq_tol(a->self, e->self, TOL);
                    ck_assert(a->parent == NONE || gr.nodes[a->parent].depth + 1 == a->depth);
                }
                /* no more than those (a point on a frame's edge may count it) */
                ck_assert_uint_ge(gr.n, want_n);
                ck_assert_uint_le(gr.n, want_n + 2 * cols_list[c] / 100 + 2);
                if (zi != NONE) {
                    /* the zoom again from its path (its frame and ancestors
                     * as the exact chart has them), reading only its
                     * samples: the same frames */
                    struct ss_flame_node zpath[8];
                    for (uint32_t a = zi; a != NONE; a = ex.nodes[a].parent)
                        zpath[ex.nodes[a].depth] = ex.nodes[a];
                    struct ss_flame gp;
                    g.path = zpath;
                    g.npath = zd + 1;
                    ck_assert_int_eq(ss_flame_build_grid(&m, NULL, pw, &o, &g, &gp, &err), 0);
                    ck_assert_uint_eq(gp.n, gr.n);
                    ck_assert_double_eq_tol(gp.total, ex.total, TOL);
                    for (size_t i = 0; i < gp.n; i++) {
                        const struct ss_flame_node *a = &gp.nodes[i], *b = &gr.nodes[i];
                        ck_assert_uint_eq(a->function, b->function);
                        ck_assert_uint_eq(a->depth, b->depth);
                        ck_assert_uint_eq(a->parent, b->parent);
                        ck_assert_uint_eq(a->end, b->end);
                        ck_assert_uint_eq(a->loc, b->loc);
                        ck_assert_double_eq_tol(a->x, b->x, TOL);
                        ck_assert_double_eq_tol(a->total, b->total, TOL);
                        ck_assert_double_eq_tol(a->self, b->self, TOL);
                    }
                    ss_flame_free(&gp);
                }
                ss_flame_free(&gr);
            }
        }
        ss_flame_free(&ex);
    }
    free(fm);
    free(pw);
    ss_model_free(&m);
}
END_TEST

/* Two charts at the same resolution must be the same frames: x and total
 * to the bit (both are sums of the same weights in sample order), self to
 * the tolerance (the index sums it a block at a time). */
static int same_double(double a, double b)
{
    return !(a < b) && !(a > b);
}

static void same_chart(const struct ss_flame *a, const struct ss_flame *b)
{
    ck_assert_uint_eq(a->n, b->n);
    ck_assert_uint_eq(a->nframes, b->nframes);
    ck_assert(same_double(a->total, b->total));
    for (size_t i = 0; i < a->n; i++) {
        const struct ss_flame_node *x = &a->nodes[i], *y = &b->nodes[i];
        ck_assert_msg(x->function == y->function && x->loc == y->loc && x->parent == y->parent &&
                          x->depth == y->depth && x->end == y->end,
                      "frame %zu: function %u/%u loc %u/%u parent %u/%u depth %u/%u end %u/%u", i,
                      x->function, y->function, x->loc, y->loc, x->parent, y->parent, x->depth,
                      y->depth, x->end, y->end);
        ck_assert_msg(same_double(x->x, y->x) && same_double(x->total, y->total),
                      "frame %zu (depth %u, n %zu): x %.17g/%.17g total %.17g/%.17g", i, x->depth,
                      a->n, x->x, y->x, x->total, y->total);
        ck_assert_double_eq_tol(x->self, y->self, TOL);
    }
}

/* Builds of m in parts of each size in parts (0 ends them; NULL: 256, a
 * block of the index), on two threads and without a second thread (then
 * every part is built on its own from where one pass would be), each the
 * same as the build in one part, byte for byte. */
static void same_in_parts(const struct ss_model *m, const double *w, int inv, const size_t *parts)
{
    static const size_t blocks[] = {256, 0};
    struct ss_error err;
    struct ss_flame_index *whole, *ix;
    ck_assert_int_eq(ss_flame_index_build_parts(m, w, inv, 0, 0, &whole, &err), 0);
    ck_assert_ptr_nonnull(whole);
    for (size_t k = 0; (parts ? parts : blocks)[k]; k++)
        for (int threaded = 0; threaded <= 1; threaded++) {
            size_t part = (parts ? parts : blocks)[k];
            ck_assert_int_eq(ss_flame_index_build_parts(m, w, inv, part, threaded, &ix, &err), 0);
            ck_assert_msg(ss_flame_index_same(m, whole, ix),
                          "parts of %zu (threaded %d, inverted %d, weights %s)", part, threaded,
                          inv, w ? "given" : "the measure's");
            ss_flame_index_free(ix);
        }
    /* ss_flame_index_build splits a long profile on two threads, not on one */
    static const char *const threads[] = {"1", "2"};
    for (int t = 0; t < 2; t++) {
        setenv("STACKSCOPE_THREADS", threads[t], 1);
        ck_assert_int_eq(ss_flame_index_build(m, w, inv, &ix, &err), 0);
        ck_assert(ss_flame_index_same(m, whole, ix));
        ss_flame_index_free(ix);
    }
    unsetenv("STACKSCOPE_THREADS");
    ss_flame_index_free(whole);
}

/* The sample index (flame_index.h) against the chart built from every
 * sample, on a long random profile with every kind of break: sessions
 * (sources), samples without frames, gaps left by drop-samples, weights of
 * 0 (left out, no break) and tiny ones (several samples on one grid
 * point); lines that differ under one function (a frame's location is
 * SS_NONE only where its samples differ there, also below a depth where
 * they differ); recursion; in both directions, at many resolutions and
 * zooms.  The frames are the same, and so is the search's share (against
 * the exact chart's); the index built in two parts is the same. */
START_TEST(test_flame_chart_index)
{
    static const char *stacks[] = {"\"g\" 1#3 \"f\" 1#9 \"main\" ",
                                   "\"g\" 1#3 \"f\" 1#8 \"main\" ",
                                   "\"h\" 1#4 \"f\" 1#9 \"main\" ",
                                   "\"g\" \"main\" ",
                                   "\"f\" 1#5 \"f\" 1#8 \"main\" ",
                                   "\"f\" 1#6 \"f\" 1#8 \"main\" ",
                                   "\"main\" ",
                                   "\"k\" \"h\" 1#2 \"g\" \"main\" ",
                                   "\"g\" \"k\" \"f\" 1#9 \"main\" ",
                                   "\"x\" \"y\" "};
    size_t n = 9000, cap = 256 + n * 64, len = 0;
    char *txt = malloc(cap);
    ck_assert_ptr_nonnull(txt);
    const char *head = "memory profiling: line profiling: sample.interval=1000\n#File 1: a.R\n";
    len += (size_t)snprintf(txt, cap, "%s", head);
    uint32_t r = 777;
    for (size_t i = 0; i < n; i++) {
        r = r * 1103515245u + 12345u;
        size_t k = (r >> 16) % 10, rep = (r >> 8) % 11 == 0 ? 1 + (r >> 4) % 300 : 1;
        if (i / 1500 != (i + rep) / 1500)
            len += (size_t)snprintf(txt + len, cap - len, "%s", head); /* a new session */
        else if (i / 700 != (i + rep) / 700)
            len += (size_t)snprintf(txt + len, cap - len, ":1:2:3:0:\n"); /* no frames */
        for (size_t j = 0; j < rep && i < n; j++, i++)                    /* counters up and down */
            len += (size_t)snprintf(txt + len, cap - len, ":%zu:2:%zu:0:%s\n", i * 7919 % 5003,
                                    i * 31 % 977, stacks[k]);
        i--;
    }
    struct ss_model m0, m;
    struct ss_error err;
    char path[4096];
    ck_assert_msg(fx_load(&m0, &err, txt, len, path, sizeof path) == 0, "%s", err.msg);
    free(txt);
    ck_assert_uint_gt(m0.sources.n, 3);
    struct ss_tf_list *l = ss_tf_list_new();
    ck_assert_int_eq(ss_tf_append(l, "drop-samples 100:180", &err), 0);
    ck_assert_int_eq(ss_tf_append(l, "drop-samples 4000:4001", &err), 0);
    ck_assert_msg(ss_tf_apply(l, &m0, &m, &err) == 0, "%s", err.msg);
    ck_assert_uint_gt(m.gaps.n, 0);
    uint8_t *fm = calloc(m.functions.n, 1);
    ck_assert_ptr_nonnull(fm);
    fm[ss_model_find_function(&m, "g")] = 1;
    fm[ss_model_find_function(&m, "k")] = 1;
    /* the model's measure (the index computes it), then made-up weights;
     * time, then memory: a transformed profile reads the original's derived
     * column through its rows (a kept sample keeps its bytes) */
    double *pw;
    for (int made = 0; made <= 2; made++) {
        if (made == 2) {
            ck_assert_int_eq(ss_model_set_measure(&m0, "memory", &err), 0);
            ck_assert_int_eq(ss_model_set_measure_from(&m, "memory", &m0, &err), 0);
            ck_assert_ptr_nonnull(m.weights.row);
        }
        ck_assert_int_eq(ss_flame_measure_weights(&m, NULL, &pw, &err), 0);
        for (size_t i = 0; made == 1 && i < m.sample_stack.n; i++) {
            if (i % 17 == 5)
                pw[i] = 0; /* left out */
            else if (i % 23 == 7)
                pw[i] = 1e-9; /* many on one point */
            else if (i % 29 == 3)
                pw[i] *= 40;
        }
        for (int inv = 0; inv <= 1; inv++) {
            struct ss_flame ex;
            struct ss_flame_opts o = {inv, 1, SS_FLAME_BY_NAME};
            ck_assert_int_eq(ss_flame_build(&m, NULL, pw, &o, &ex, &err), 0);
            struct ss_flame_index *ix;
            const double *ixw = made == 1 ? pw : NULL;
            ck_assert_int_eq(ss_flame_index_build(&m, ixw, inv, &ix, &err), 0);
            ck_assert_ptr_nonnull(ix);
            ck_assert(ss_flame_index_fits(ix, ixw, inv));
            ck_assert(!ss_flame_index_fits(ix, ixw, !inv));
            ck_assert(!ss_flame_index_fits(ix, made == 1 ? NULL : pw, inv));
            /* some frames have a location, some have none */
            size_t with_loc = 0;
            for (size_t i = 0; i < ex.n; i++)
                with_loc += ex.nodes[i].loc != SS_NONE;
            ck_assert_uint_gt(with_loc, 0);
            ck_assert_uint_lt(with_loc, ex.n);
            size_t cols_list[] = {1, 7, 80, 333, 2000};
            for (uint32_t zd = 0; zd <= 4; zd++) {
                uint32_t zi = NONE;
                for (size_t i = 0; i < ex.n && zd > 0; i++)
                    if (ex.nodes[i].depth == zd - (zd == 4) &&
                        (zi == NONE || (zd == 4 ? ex.nodes[i].total < ex.nodes[zi].total
                                                : ex.nodes[i].total > ex.nodes[zi].total)))
                        zi = (uint32_t)i; /* the widest of depth 1 to 3, the narrowest of 3 */
                if (zd > 0 && zi == NONE)
                    continue;
                double x0 = zi == NONE ? 0 : ex.nodes[zi].x;
                double w = zi == NONE ? ex.total : ex.nodes[zi].total;
                uint32_t d0 = zi == NONE ? 0 : ex.nodes[zi].depth;
                double hit, want = ss_flame_search(&m, &ex, zi, fm, NULL, NULL, NULL);
                ck_assert_int_eq(ss_flame_index_search(&m, ix, fm, x0, w, d0, &hit, &err), 0);
                ck_assert_double_eq_tol(hit, want, 1e-9);
                for (size_t c = 0; c < sizeof cols_list / sizeof *cols_list; c++) {
                    struct ss_flame_grid g = {x0, zi == NONE ? 0 : w, cols_list[c], NULL, 0, NULL};
                    struct ss_flame full, fast;
                    ck_assert_int_eq(ss_flame_build_grid(&m, NULL, pw, &o, &g, &full, &err), 0);
                    g.index = ix;
                    ck_assert_int_eq(ss_flame_build_grid(&m, NULL, ixw, &o, &g, &fast, &err), 0);
                    same_chart(&fast, &full);
                    ck_assert_uint_eq(fast.nframes, ex.n);
                    ck_assert_uint_eq(fast.max_depth, ex.max_depth);
                    ss_flame_free(&full);
                    ss_flame_free(&fast);
                }
            }
            same_in_parts(&m, ixw, inv, NULL); /* in parts: the same */
            /* an index of the other direction is not used: the same chart */
            struct ss_flame_index *other;
            ck_assert_int_eq(ss_flame_index_build(&m, ixw, !inv, &other, &err), 0);
            struct ss_flame_grid g = {0, 0, 80, NULL, 0, other}, g0 = {0, 0, 80, NULL, 0, NULL};
            struct ss_flame a, b;
            ck_assert_int_eq(ss_flame_build_grid(&m, NULL, pw, &o, &g, &a, &err), 0);
            ck_assert_int_eq(ss_flame_build_grid(&m, NULL, pw, &o, &g0, &b, &err), 0);
            same_chart(&a, &b);
            ss_flame_free(&a);
            ss_flame_free(&b);
            ss_flame_index_free(other);
            ss_flame_index_free(ix);
            ss_flame_free(&ex);
        }
        free(pw);
    }
    free(fm);
    ss_tf_list_free(l);
    ss_model_free(&m);
    ss_model_free(&m0);
}
END_TEST

/* The index's other paths against the full chart: more distinct rows than
 * its pair table holds (nleaf 1,500: the sparse table answers), or fewer
 * (20) with shared prefixes of 255 frames or more (the table's escape), and
 * locations that differ deep in a block (the locations' own prefix table). */
static void index_deep(unsigned nleaf, unsigned maxleafs, size_t min_stacks)
{
    size_t n = 3000, cap = 1u << 23, len = 0;
    char *txt = malloc(cap);
    ck_assert_ptr_nonnull(txt);
    len += (size_t)snprintf(txt, cap, "line profiling: sample.interval=1000\n#File 1: a.R\n");
    uint32_t r = 4242;
    for (size_t i = 0; i < n; i++) {
        r = r * 1103515245u + 12345u;
        /* a spine of 300 frames (or 10), a leaf part of 1 to maxleafs
         * frames from nleaf functions, the spine's line at depth 7 one of
         * two */
        size_t spine = (r >> 20) % 4 ? 300 : 10, leafs = 1 + (r >> 9) % maxleafs;
        for (size_t j = 0; j < leafs; j++) {
            r = r * 1103515245u + 12345u;
            len +=
                (size_t)snprintf(txt + len, cap - len, "\"l%u\" ", (unsigned)((r >> 12) % nleaf));
        }
        for (size_t j = spine; j-- > 0;) {
            if (j == 7)
                len += (size_t)snprintf(txt + len, cap - len, "1#%u ", 3 + (unsigned)(i / 700 % 2));
            len += (size_t)snprintf(txt + len, cap - len, "\"s%zu\" ", j);
        }
        txt[len++] = '\n';
        ck_assert_uint_lt(len, cap - 8192);
    }
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_msg(fx_load(&m, &err, txt, len, path, sizeof path) == 0, "%s", err.msg);
    free(txt);
    ck_assert_uint_gt(ss_model_nstacks(&m), min_stacks);
    double *pw;
    ck_assert_int_eq(ss_flame_measure_weights(&m, NULL, &pw, &err), 0);
    for (int inv = 0; inv <= 1; inv++) {
        struct ss_flame_opts o = {inv, 1, SS_FLAME_BY_NAME};
        struct ss_flame_index *ix;
        ck_assert_int_eq(ss_flame_index_build(&m, NULL, inv, &ix, &err), 0);
        ck_assert_ptr_nonnull(ix);
        size_t cols_list[] = {1, 80, 1000};
        for (size_t c = 0; c < sizeof cols_list / sizeof *cols_list; c++) {
            struct ss_flame_grid g = {0, 0, cols_list[c], NULL, 0, NULL};
            struct ss_flame full, fast;
            ck_assert_int_eq(ss_flame_build_grid(&m, NULL, pw, &o, &g, &full, &err), 0);
            g.index = ix;
            ck_assert_int_eq(ss_flame_build_grid(&m, NULL, NULL, &o, &g, &fast, &err), 0);
            same_chart(&fast, &full);
            ss_flame_free(&full);
            ss_flame_free(&fast);
        }
        ss_flame_index_free(ix);
    }
    free(pw);
    ss_model_free(&m);
}

START_TEST(test_flame_chart_index_deep)
{
    index_deep(1500, 3, 1100);
    index_deep(20, 2, 100);
}
END_TEST

/* The index built in parts: a part starts where one pass would be, so
 * parts of any size give the index of one pass.  A profile of 132,000
 * samples (long enough for ss_flame_index_build to take two threads) whose
 * blocks of 256 samples begin at a new source (512), after a sample without
 * frames (at 768, and at 1023: the sample before 1024), at a gap (1280,
 * drop-samples; the model without it too), inside runs of samples not
 * taken (weight 0: the first 300 given, so that none is taken before 256;
 * 1500 to 1799 given, over 1536 and 1792; counts of 0 from 2000 to 2099,
 * over 2048) and inside a run of one stack (over 2304); stacks that share
 * their lines or only their functions, and another root; in both
 * directions, with the measure's weights (the count column read straight,
 * then through a transform's rows) and with weights given. */
START_TEST(test_flame_index_parts)
{
    struct ss_model m0, m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m0, &err), 0);
    static const char *const names[] = {"main", "f", "g", "h", "k"};
    ss_id file = ss_model_intern_cstr(&m0, "a.R"), loc[5][2];
    for (int f = 0; f < 5; f++) {
        ss_id nm = ss_model_intern_cstr(&m0, names[f]);
        ss_id fn = ss_model_function(&m0, nm, nm, file, 1);
        for (int l = 0; l < 2; l++)
            loc[f][l] = ss_model_location(&m0, fn, file, (uint32_t)(10 * f + l + 1));
    }
    /* innermost first: main>f>g, the same with f's other line, main>h,
     * main>f>g>k (g's other line), main, g>f; and no frames */
    const ss_id fr[6][4] = {{loc[2][0], loc[1][0], loc[0][0]},
                            {loc[2][0], loc[1][1], loc[0][0]},
                            {loc[3][0], loc[0][0]},
                            {loc[4][0], loc[2][1], loc[1][0], loc[0][0]},
                            {loc[0][0]},
                            {loc[1][0], loc[2][0]}};
    const size_t depth[6] = {3, 3, 2, 4, 1, 2};
    ss_id st[7];
    for (int k = 0; k < 6; k++)
        st[k] = ss_model_stack(&m0, fr[k], depth[k], SS_NONE);
    st[6] = ss_model_stack(&m0, NULL, 0, SS_NONE);
    fx_source(&m0, "test", "a", 1, 1000, 0);
    const size_t n = 132020;
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        if (i == 512 || i == 70000)
            fx_source(&m0, "test", "b", 2, i == 512 ? 2500 : 1000, 0);
        ss_id s = i == 768 || i == 1023 ? st[6] : i >= 2280 && i < 2340 ? st[0] : st[x % 6];
        int64_t count = i >= 2000 && i < 2100 ? 0 : 1 + (int64_t)(x >> 20) % 3;
        ck_assert_int_eq(ss_model_add_sample(&m0, s, &count), 0);
    }
    ss_model_seal(&m0);
    struct ss_tf_list *l = ss_tf_list_new();
    ck_assert_int_eq(ss_tf_append(l, "drop-samples 1281:1300", &err), 0);
    ck_assert_msg(ss_tf_apply(l, &m0, &m, &err) == 0, "%s", err.msg);
    ck_assert_uint_eq(m.gaps.n, 1);
    ck_assert_uint_eq(m.gaps.v[0], 1280);
    ck_assert_uint_eq(m.sources.v[1].first_sample, 512);
    ck_assert_uint_eq(ss_stack_depth(&m, m.sample_stack.v[768]), 0);
    ck_assert_uint_eq(ss_stack_depth(&m, m.sample_stack.v[1023]), 0);
    for (int k = 0; k < 2; k++) {
        const struct ss_model *mm = k ? &m : &m0;
        size_t nn = mm->sample_stack.n;
        const size_t parts[] = {256, 1280, 5000, 0}; /* 256: every block starts a part */
        double *pw;
        ck_assert_int_eq(ss_flame_measure_weights(mm, NULL, &pw, &err), 0);
        for (size_t i = 0; i < nn; i++)
            if (i < 300 || (i >= 1500 && i < 1800))
                pw[i] = 0;
        for (int inv = 0; inv <= 1; inv++) {
            same_in_parts(mm, NULL, inv, parts);
            same_in_parts(mm, pw, inv, parts);
        }
        free(pw);
    }
    ss_tf_list_free(l);
    ss_model_free(&m);
    ss_model_free(&m0);
}
END_TEST

/* An empty profile gives an empty graph, not an error. */
START_TEST(test_flame_empty)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "sample.interval=20000\n");
    struct ss_flame fl;
    build(&m, 0, 0, SS_FLAME_BY_NAME, &fl);
    ck_assert_uint_eq(fl.n, 0);
    ck_assert_uint_eq(fl.max_depth, 0);
    ck_assert_double_eq_tol(fl.total, 0, TOL);
    ss_flame_free(&fl);
    build(&m, 0, 1, SS_FLAME_BY_NAME, &fl);
    ck_assert_uint_eq(fl.n, 0);
    ss_flame_free(&fl);
    /* the chart from an index of no samples (the model's measure: no
     * weights given) */
    struct ss_flame_index *ix;
    struct ss_error err;
    ck_assert_int_eq(ss_flame_index_build(&m, NULL, 0, &ix, &err), 0);
    ck_assert_ptr_nonnull(ix);
    struct ss_flame_opts o = {0, 1, SS_FLAME_BY_NAME};
    struct ss_flame_grid g = {0, 0, 80, NULL, 0, ix};
    ck_assert_int_eq(ss_flame_build_grid(&m, NULL, NULL, &o, &g, &fl, &err), 0);
    ck_assert_uint_eq(fl.n, 0);
    ck_assert_uint_eq(fl.nframes, 0);
    ck_assert_double_eq_tol(fl.total, 0, TOL);
    ss_flame_free(&fl);
    uint8_t fm[1] = {1};
    double hit = 1;
    ck_assert_int_eq(ss_flame_index_search(&m, ix, fm, 0, 0, 0, &hit, &err), 0);
    ck_assert_double_eq_tol(hit, 0, TOL);
    ss_flame_index_free(ix);
    ss_model_free(&m);
}
END_TEST

Suite *flame_suite(void)
{
    Suite *s = suite_create("flame");
    TCase *tc = tcase_create("flame");
    tcase_add_test(tc, test_flame_by_name);
    tcase_add_test(tc, test_flame_by_weight);
    tcase_add_test(tc, test_flame_inverted);
    tcase_add_test(tc, test_flame_chart);
    tcase_add_test(tc, test_flame_chart_inverted);
    tcase_add_test(tc, test_flame_chart_breaks);
    tcase_add_test(tc, test_flame_chart_grid);
    tcase_add_test(tc, test_flame_chart_grid_random);
    tcase_add_test(tc, test_flame_chart_index);
    tcase_add_test(tc, test_flame_chart_index_deep);
    tcase_add_test(tc, test_flame_index_parts);
    tcase_add_test(tc, test_flame_weights);
    tcase_add_test(tc, test_flame_search);
    tcase_add_test(tc, test_flame_focus);
    tcase_add_test(tc, test_flame_empty);
    suite_add_tcase(s, tc);
    return s;
}
