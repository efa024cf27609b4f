/* check_tree.c - call trees, callers/callees and the timeline (src/tree.h,
 * src/timeline.h; stackscope(1), OPTIONS).
 *
 * Every expected value below was worked out by hand from the fixture above
 * it; the comments show the paths and sums.  Stacks are written root first
 * ("main > f > g": main calls f calls g); Rprof lines list them innermost
 * first ("g" "f" "main"). */
#include "check_suites.h"

#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "timeline.h"
#include "tree.h"

#define TOL 1e-12
#define NONE SS_TREE_NONE

/* Recursion fixture, one session of 0.02 s:
 *   A  main > f > f > g   x2
 *   B  main > f > g       x1
 *   C  main > f           x1
 *   D  main > h           x3
 *   E  main               x1
 *   F  main > f > f > f   x1      (9 samples) */
static const char rec_prof[] = "sample.interval=20000\n"
                               "\"g\" \"f\" \"f\" \"main\" \n"
                               "\"h\" \"main\" \n"
                               "\"g\" \"f\" \"main\" \n"
                               "\"h\" \"main\" \n"
                               "\"f\" \"main\" \n"
                               "\"g\" \"f\" \"f\" \"main\" \n"
                               "\"main\" \n"
                               "\"h\" \"main\" \n"
                               "\"f\" \"f\" \"f\" \"main\" \n";

static const char *fname(const struct ss_model *m, ss_id f)
{
    return ss_function_name(m, f);
}

/* Check node i: function name, depth, parent, self/total counts, end, and
 * times = counts x `iv` (one interval). */
static void check_node(const struct ss_model *m, const struct ss_tree *t, size_t i,
                       const char *name, uint32_t depth, uint32_t parent, uint64_t self_n,
                       uint64_t total_n, uint32_t end, double iv)
{
    ck_assert_msg(i < t->n, "node %zu of %zu", i, t->n);
    const struct ss_tree_node *nd = &t->nodes[i];
    ck_assert_msg(strcmp(fname(m, nd->function), name) == 0, "node %zu is %s, want %s", i,
                  fname(m, nd->function), name);
    ck_assert_msg(nd->depth == depth, "node %zu depth %u, want %u", i, nd->depth, depth);
    ck_assert_msg(nd->parent == parent, "node %zu parent %u, want %u", i, nd->parent, parent);
    ck_assert_msg(nd->self_n == self_n, "node %zu (%s) self %llu, want %llu", i, name,
                  (unsigned long long)nd->self_n, (unsigned long long)self_n);
    ck_assert_msg(nd->total_n == total_n, "node %zu (%s) total %llu, want %llu", i, name,
                  (unsigned long long)nd->total_n, (unsigned long long)total_n);
    ck_assert_msg(nd->end == end, "node %zu end %u, want %u", i, nd->end, end);
    ck_assert_double_eq_tol(nd->self_v, (double)self_n * iv, TOL);
    ck_assert_double_eq_tol(nd->total_v, (double)total_n * iv, TOL);
}

/* Every node's total = self + its children's totals, and the sibling links
 * visit exactly the children (parent == the node) in stored order. */
static void check_links(const struct ss_tree *t)
{
    uint64_t roots = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct ss_tree_node *nd = &t->nodes[i];
        uint64_t sum = nd->self_n;
        uint32_t prev = (uint32_t)i;
        for (uint32_t c = nd->first_child; c != NONE; c = t->nodes[c].next_sibling) {
            ck_assert_uint_eq(t->nodes[c].parent, i);
            ck_assert_uint_gt(c, prev);
            prev = c;
            sum += t->nodes[c].total_n;
        }
        ck_assert_uint_eq(sum, nd->total_n);
        if (nd->parent == NONE)
            roots += nd->total_n;
    }
    ck_assert_uint_eq(roots, t->total_n);
    uint32_t last = NONE;
    for (uint32_t r = t->first_root; r != NONE; r = t->nodes[r].next_sibling)
        last = r;
    ck_assert(t->n == 0 || t->nodes[last].end == t->n);
}

/* Top-down:
 *   main          total 9 (all)          self 1 (E)
 *    f            total 5 (A A B C F)    self 1 (C)
 *     f           total 3 (A A F)        self 0
 *      g          total 2 (A A)          self 2
 *      f          total 1 (F)            self 1
 *     g           total 1 (B)            self 1
 *    h            total 3 (D D D)        self 3
 * Children by total: main: f 5 > h 3; main>f: f 3 > g 1; main>f>f: g 2 > f 1.
 * Pre-order: 0 main, 1 f, 2 f, 3 g, 4 f, 5 g, 6 h; ends 7 6 5 4 5 6 7. */
START_TEST(test_top_down_recursion)
{
    struct ss_model m;
    FX_LOAD_OK(&m, rec_prof);
    struct ss_tree t;
    struct ss_error err;
    ck_assert_int_eq(ss_tree_build(&m, 0, SS_NONE, &t, &err), 0);
    ck_assert_uint_eq(t.n, 7);
    ck_assert_uint_eq(t.total_n, 9);
    ck_assert_double_eq_tol(t.total_v, 9 * 0.02, TOL);
    ck_assert_uint_eq(t.first_root, 0);
    check_node(&m, &t, 0, "main", 0, NONE, 1, 9, 7, 0.02);
    check_node(&m, &t, 1, "f", 1, 0, 1, 5, 6, 0.02);
    check_node(&m, &t, 2, "f", 2, 1, 0, 3, 5, 0.02);
    check_node(&m, &t, 3, "g", 3, 2, 2, 2, 4, 0.02);
    check_node(&m, &t, 4, "f", 3, 2, 1, 1, 5, 0.02);
    check_node(&m, &t, 5, "g", 2, 1, 1, 1, 6, 0.02);
    check_node(&m, &t, 6, "h", 1, 0, 3, 3, 7, 0.02);
    /* links: main's children f(1), h(6); f's: f(2), g(5); f>f's: g(3), f(4) */
    ck_assert_uint_eq(t.nodes[0].first_child, 1);
    ck_assert_uint_eq(t.nodes[1].next_sibling, 6);
    ck_assert_uint_eq(t.nodes[1].first_child, 2);
    ck_assert_uint_eq(t.nodes[2].next_sibling, 5);
    ck_assert_uint_eq(t.nodes[2].first_child, 3);
    ck_assert_uint_eq(t.nodes[3].next_sibling, 4);
    ck_assert_uint_eq(t.nodes[4].next_sibling, NONE);
    ck_assert_uint_eq(t.nodes[0].next_sibling, NONE);
    ck_assert_uint_eq(t.nodes[3].first_child, NONE);
    check_links(&t);
    /* The explicit DFS order is the storage order. */
    size_t n;
    uint32_t *order = ss_tree_dfs_order(&t, &n);
    ck_assert_uint_eq(n, 7);
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_eq(order[i], i);
    free(order);
    ss_tree_free(&t);
    ss_tree_free(&t); /* freeing an emptied tree is a no-op */
    ss_model_free(&m);
}
END_TEST

/* Inverted (leaf outward):
 *   g             total 3 (A A B)   self 0
 *    f            total 3           self 0
 *     f           total 2 (A A)     self 0
 *      main       total 2           self 2 (A reaches its outermost frame)
 *     main        total 1 (B)       self 1
 *   h             total 3 (D D D)   self 0
 *    main         total 3           self 3
 *   f             total 2 (C F)     self 0
 *    f            total 1 (F)       self 0
 *     f           total 1           self 0
 *      main       total 1           self 1
 *    main         total 1 (C)       self 1
 *   main          total 1 (E)       self 1
 * Roots by total: g 3 = h 3 (name: g < h), f 2, main 1; under root f:
 * f 1 = main 1 (name: f < main).  Roots' totals = selves of the leaf
 * functions in the statistics: g 3, h 3, f 2 (C, F), main 1; sum 9. */
START_TEST(test_inverted_recursion)
{
    struct ss_model m;
    FX_LOAD_OK(&m, rec_prof);
    struct ss_tree t;
    struct ss_error err;
    ck_assert_int_eq(ss_tree_build(&m, 1, SS_NONE, &t, &err), 0);
    ck_assert_uint_eq(t.n, 13);
    ck_assert_uint_eq(t.total_n, 9);
    ck_assert_int_eq(t.inverted, 1);
    check_node(&m, &t, 0, "g", 0, NONE, 0, 3, 5, 0.02);
    check_node(&m, &t, 1, "f", 1, 0, 0, 3, 5, 0.02);
    check_node(&m, &t, 2, "f", 2, 1, 0, 2, 4, 0.02);
    check_node(&m, &t, 3, "main", 3, 2, 2, 2, 4, 0.02);
    check_node(&m, &t, 4, "main", 2, 1, 1, 1, 5, 0.02);
    check_node(&m, &t, 5, "h", 0, NONE, 0, 3, 7, 0.02);
    check_node(&m, &t, 6, "main", 1, 5, 3, 3, 7, 0.02);
    check_node(&m, &t, 7, "f", 0, NONE, 0, 2, 12, 0.02);
    check_node(&m, &t, 8, "f", 1, 7, 0, 1, 11, 0.02);
    check_node(&m, &t, 9, "f", 2, 8, 0, 1, 11, 0.02);
    check_node(&m, &t, 10, "main", 3, 9, 1, 1, 11, 0.02);
    check_node(&m, &t, 11, "main", 1, 7, 1, 1, 12, 0.02);
    check_node(&m, &t, 12, "main", 0, NONE, 1, 1, 13, 0.02);
    /* roots linked in order: 0, 5, 7, 12 */
    ck_assert_uint_eq(t.first_root, 0);
    ck_assert_uint_eq(t.nodes[0].next_sibling, 5);
    ck_assert_uint_eq(t.nodes[5].next_sibling, 7);
    ck_assert_uint_eq(t.nodes[7].next_sibling, 12);
    ck_assert_uint_eq(t.nodes[12].next_sibling, NONE);
    check_links(&t);
    ss_tree_free(&t);
    ss_model_free(&m);
}
END_TEST

/* Callers and callees, each pair once per sample.
 * f occurs in A A B C F: self 2 (C, F: f is their leaf), total 5.
 *   callers: A: main (outer f), f (inner f)  -> main +2, f +2
 *            B: main +1;  C: main +1
 *            F (main > f > f > f): main, f, f -> main +1, f +1 (not +2)
 *            main 5, f 3
 *   callees: A: f (outer f calls f), g (inner f calls g) -> f +2, g +2
 *            B: g +1;  C: none (f is the leaf)
 *            F: f, f -> f +1 (not +2)
 *            f 3 = g 3: by name, f before g
 * main: self 1, total 9, no caller, callees f 5 (A A B C F), h 3.
 * g: self 3 = total 3, caller f 3, no callee.  Times x 0.02. */
START_TEST(test_calls_recursion)
{
    struct ss_model m;
    FX_LOAD_OK(&m, rec_prof);
    struct ss_calls c;
    struct ss_error err;
    ss_id f = ss_model_find_function(&m, "f");
    ck_assert_uint_ne(f, SS_NONE);
    ck_assert_str_eq(fname(&m, f), "f");
    ck_assert_int_eq(ss_calls_of(&m, f, &c, &err), 0);
    ck_assert_uint_eq(c.function, f);
    ck_assert_uint_eq(c.self_n, 2);
    ck_assert_uint_eq(c.total_n, 5);
    ck_assert_double_eq_tol(c.self_v, 0.04, TOL);
    ck_assert_double_eq_tol(c.total_v, 0.10, TOL);
    ck_assert_uint_eq(c.ncallers, 2);
    ck_assert_str_eq(fname(&m, c.callers[0].function), "main");
    ck_assert_uint_eq(c.callers[0].n, 5);
    ck_assert_double_eq_tol(c.callers[0].time, 0.10, TOL);
    ck_assert_str_eq(fname(&m, c.callers[1].function), "f");
    ck_assert_uint_eq(c.callers[1].n, 3);
    ck_assert_double_eq_tol(c.callers[1].time, 0.06, TOL);
    ck_assert_uint_eq(c.ncallees, 2);
    ck_assert_str_eq(fname(&m, c.callees[0].function), "f");
    ck_assert_uint_eq(c.callees[0].n, 3);
    ck_assert_str_eq(fname(&m, c.callees[1].function), "g");
    ck_assert_uint_eq(c.callees[1].n, 3);
    ck_assert_double_eq_tol(c.callees[1].time, 0.06, TOL);
    ss_calls_free(&c);

    ck_assert_int_eq(ss_calls_of(&m, ss_model_find_function(&m, "main"), &c, &err), 0);
    ck_assert_uint_eq(c.self_n, 1);
    ck_assert_uint_eq(c.total_n, 9);
    ck_assert_uint_eq(c.ncallers, 0);
    ck_assert_ptr_null(c.callers);
    ck_assert_uint_eq(c.ncallees, 2);
    ck_assert_str_eq(fname(&m, c.callees[0].function), "f");
    ck_assert_uint_eq(c.callees[0].n, 5);
    ck_assert_str_eq(fname(&m, c.callees[1].function), "h");
    ck_assert_uint_eq(c.callees[1].n, 3);
    ss_calls_free(&c);

    ck_assert_int_eq(ss_calls_of(&m, ss_model_find_function(&m, "g"), &c, &err), 0);
    ck_assert_uint_eq(c.self_n, 3);
    ck_assert_uint_eq(c.total_n, 3);
    ck_assert_uint_eq(c.ncallers, 1);
    ck_assert_str_eq(fname(&m, c.callers[0].function), "f");
    ck_assert_uint_eq(c.callers[0].n, 3);
    ck_assert_uint_eq(c.ncallees, 0);
    ss_calls_free(&c);
    ss_calls_free(&c); /* no-op */

    /* Unknown names and ids. */
    ck_assert_uint_eq(ss_model_find_function(&m, "nope"), SS_NONE);
    ck_assert_uint_eq(ss_model_find_function(&m, "ma"), SS_NONE);
    ck_assert_int_eq(ss_calls_of(&m, SS_NONE, &c, &err), SS_EUSAGE);
    ck_assert_int_eq(ss_calls_of(&m, (ss_id)m.functions.n, &c, &err), SS_EUSAGE);
    ss_model_free(&m);
}
END_TEST

/* Focus on f: the samples containing f (A A B C F), each from f's outermost
 * occurrence inward: A f > f > g (x2), B f > g, C f, F f > f > f.
 * Top-down:  f 5 self 1 (C) / f 3 self 0 / g 2 self 2, f 1 self 1; g 1 self 1.
 *   pre-order f, f, g, f, g (as the main > f subtree above).
 * Inverted (what calls f: from f's innermost occurrence outward to the root):
 *   A f f main (x2), B f main, C f main, F f f f main.
 *   f 5 self 0 / f 3 self 0 (A A F) / main 2 self 2 (A A)
 *                                    / f 1 self 0 (F) / main 1 self 1 (F)
 *              / main 2 self 2 (B C)
 *   pre-order f, f, main, f, main, main (children by total).
 * Focus on g: A A B trimmed to "g": one node, self = total = 3. */
START_TEST(test_focus)
{
    struct ss_model m;
    FX_LOAD_OK(&m, rec_prof);
    struct ss_tree t;
    struct ss_error err;
    ss_id f = ss_model_find_function(&m, "f");
    ck_assert_int_eq(ss_tree_build(&m, 0, f, &t, &err), 0);
    ck_assert_uint_eq(t.focus, f);
    ck_assert_uint_eq(t.n, 5);
    ck_assert_uint_eq(t.total_n, 5);
    ck_assert_double_eq_tol(t.total_v, 0.10, TOL);
    check_node(&m, &t, 0, "f", 0, NONE, 1, 5, 5, 0.02);
    check_node(&m, &t, 1, "f", 1, 0, 0, 3, 4, 0.02);
    check_node(&m, &t, 2, "g", 2, 1, 2, 2, 3, 0.02);
    check_node(&m, &t, 3, "f", 2, 1, 1, 1, 4, 0.02);
    check_node(&m, &t, 4, "g", 1, 0, 1, 1, 5, 0.02);
    check_links(&t);
    ss_tree_free(&t);

    ck_assert_int_eq(ss_tree_build(&m, 1, f, &t, &err), 0);
    ck_assert_uint_eq(t.n, 6);
    ck_assert_uint_eq(t.total_n, 5);
    check_node(&m, &t, 0, "f", 0, NONE, 0, 5, 6, 0.02);
    check_node(&m, &t, 1, "f", 1, 0, 0, 3, 5, 0.02);
    check_node(&m, &t, 2, "main", 2, 1, 2, 2, 3, 0.02);
    check_node(&m, &t, 3, "f", 2, 1, 0, 1, 5, 0.02);
    check_node(&m, &t, 4, "main", 3, 3, 1, 1, 5, 0.02);
    check_node(&m, &t, 5, "main", 1, 0, 2, 2, 6, 0.02);
    check_links(&t);
    ss_tree_free(&t);

    ck_assert_int_eq(ss_tree_build(&m, 0, ss_model_find_function(&m, "g"), &t, &err), 0);
    ck_assert_uint_eq(t.n, 1);
    check_node(&m, &t, 0, "g", 0, NONE, 3, 3, 1, 0.02);
    ss_tree_free(&t);

    ck_assert_int_eq(ss_tree_build(&m, 0, (ss_id)m.functions.n, &t, &err), SS_EUSAGE);
    ck_assert_uint_eq(t.n, 0);
    ss_model_free(&m);
}
END_TEST

/* Two sessions with their own intervals:
 *   session 1 (0.02 s):  a > b, a            session 2 (0.005 s): a > c x3
 * top-down: a total 2 x 0.02 + 3 x 0.005 = 0.055 (5 samples), self 0.02 (1)
 *   children by time: b 0.02 (1 sample) before c 0.015 (3 samples)
 * inverted roots: a 0.02 (self of a) = b 0.02 -> by name a, b; then c 0.015
 * tree total: 5 samples, 0.055 s.  Root a's times equal the statistics'
 * bit for bit (same per-source sums). */
START_TEST(test_two_intervals)
{
    static const char prof[] = "sample.interval=20000\n"
                               "\"b\" \"a\" \n"
                               "\"a\" \n"
                               "sample.interval=5000\n"
                               "\"c\" \"a\" \n"
                               "\"c\" \"a\" \n"
                               "\"c\" \"a\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_tree t;
    struct ss_error err;
    ck_assert_int_eq(ss_tree_build(&m, 0, SS_NONE, &t, &err), 0);
    ck_assert_uint_eq(t.n, 3);
    ck_assert_uint_eq(t.total_n, 5);
    ck_assert_double_eq_tol(t.total_v, 0.055, TOL);
    ck_assert_str_eq(fname(&m, t.nodes[0].function), "a");
    ck_assert_uint_eq(t.nodes[0].total_n, 5);
    ck_assert_uint_eq(t.nodes[0].self_n, 1);
    ck_assert_double_eq_tol(t.nodes[0].total_v, 0.055, TOL);
    ck_assert_double_eq_tol(t.nodes[0].self_v, 0.02, TOL);
    ck_assert_str_eq(fname(&m, t.nodes[1].function), "b");
    ck_assert_uint_eq(t.nodes[1].total_n, 1);
    ck_assert_double_eq_tol(t.nodes[1].total_v, 0.02, TOL);
    ck_assert_str_eq(fname(&m, t.nodes[2].function), "c");
    ck_assert_uint_eq(t.nodes[2].total_n, 3);
    ck_assert_double_eq_tol(t.nodes[2].total_v, 0.015, TOL);

    struct ss_stats st;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    for (size_t i = 0; i < st.n; i++)
        if (strcmp(ss_strtab_get(&st.keys, st.rows[i].key), "a") == 0) {
            ck_assert_double_exact(st.rows[i].total_v, t.nodes[0].total_v);
            ck_assert_double_exact(st.rows[i].self_v, t.nodes[0].self_v);
        }
    ck_assert_double_exact(st.value_total, t.total_v);
    ss_stats_free(&st);
    ss_tree_free(&t);

    ck_assert_int_eq(ss_tree_build(&m, 1, SS_NONE, &t, &err), 0);
    ck_assert_uint_eq(t.n, 5); /* a; b > a; c > a */
    ck_assert_str_eq(fname(&m, t.nodes[0].function), "a");
    ck_assert_uint_eq(t.nodes[0].end, 1);
    ck_assert_str_eq(fname(&m, t.nodes[1].function), "b");
    ck_assert_str_eq(fname(&m, t.nodes[3].function), "c");
    ck_assert_uint_eq(t.nodes[3].total_n, 3);
    ck_assert_double_eq_tol(t.nodes[4].self_v, 0.015, TOL);
    check_links(&t);
    ss_tree_free(&t);

    /* callees of a by time: b 0.02 (1) before c 0.015 (3) */
    struct ss_calls c;
    ck_assert_int_eq(ss_calls_of(&m, ss_model_find_function(&m, "a"), &c, &err), 0);
    ck_assert_uint_eq(c.ncallees, 2);
    ck_assert_str_eq(fname(&m, c.callees[0].function), "b");
    ck_assert_str_eq(fname(&m, c.callees[1].function), "c");
    ck_assert_uint_eq(c.callees[1].n, 3);
    ck_assert_double_eq_tol(c.callees[1].time, 0.015, TOL);
    ck_assert_double_eq_tol(c.total_v, 0.055, TOL);
    ss_calls_free(&c);
    ss_model_free(&m);
}
END_TEST

/* Timeline with a burn-in phase; memory profiling so that sample 9 can be
 * empty.  Samples (0-based), root first:
 *   0 sim > rnorm   1 sim > rnorm   2 sim   3 sim > rnorm
 *   4 fit > lm      5 fit > lm      6 fit   7 fit > lm
 *   8 plot          9 (empty)      10 fit
 * width 4: window size ceil(11 / 4) = 3, windows [0,3) [3,6) [6,9) [9,11).
 * Level 1:  W0 sim 3 | W1 sim 1, fit 2 -> fit 2 | W2 fit 2, plot 1 -> fit 2 |
 *           W3 empty 1 (shallow), fit 1 -> fit 1
 *   runs: sim samples [0,3) (window 0), fit [3,11) (windows 1-3)
 *   legend: sim (level-1 samples 0-3: 4), fit (4 5 6 7 10: 5); plot never tops
 * Level 2:  W0 rnorm 2, shallow 1 (2) | W1 rnorm 1, lm 2 -> lm 2 |
 *           W2 lm 1 (7), shallow 2 (6, 8) | W3 shallow 2 (9, 10) -> none
 *   runs: rnorm [0,3), lm [3,9), none [9,11)
 *   legend: rnorm 3 (0 1 3), lm 3 (4 5 7)
 * The trees leave the empty sample out: top-down roots sim 4, fit 5, plot 1. */
static const char burn_prof[] = "memory profiling: sample.interval=20000\n"
                                ":1:1:1:0:\"rnorm\" \"sim\" \n"
                                ":1:1:1:0:\"rnorm\" \"sim\" \n"
                                ":1:1:1:0:\"sim\" \n"
                                ":1:1:1:0:\"rnorm\" \"sim\" \n"
                                ":1:1:1:0:\"lm\" \"fit\" \n"
                                ":1:1:1:0:\"lm\" \"fit\" \n"
                                ":1:1:1:0:\"fit\" \n"
                                ":1:1:1:0:\"lm\" \"fit\" \n"
                                ":1:1:1:0:\"plot\" \n"
                                ":1:1:1:0:\n"
                                ":1:1:1:0:\"fit\" \n";

static void check_window(const struct ss_model *m, const struct ss_timeline *tl, size_t k,
                         size_t first, size_t n, const char *top, uint64_t top_n,
                         uint64_t shallow_n)
{
    const struct ss_timeline_window *w = &tl->windows[k];
    ck_assert_uint_eq(w->first, first);
    ck_assert_uint_eq(w->n, n);
    if (top)
        ck_assert_msg(w->top != SS_NONE && strcmp(fname(m, w->top), top) == 0,
                      "window %zu: top %s, want %s", k,
                      w->top == SS_NONE ? "(none)" : fname(m, w->top), top);
    else
        ck_assert_uint_eq(w->top, SS_NONE);
    ck_assert_uint_eq(w->top_n, top_n);
    ck_assert_uint_eq(w->shallow_n, shallow_n);
}

static void check_run(const struct ss_model *m, const struct ss_timeline *tl, size_t r,
                      const char *top, size_t first, size_t n, size_t fw, size_t nw)
{
    const struct ss_timeline_run *run = &tl->runs[r];
    if (top)
        ck_assert_str_eq(fname(m, run->top), top);
    else
        ck_assert_uint_eq(run->top, SS_NONE);
    ck_assert_uint_eq(run->first, first);
    ck_assert_uint_eq(run->n, n);
    ck_assert_uint_eq(run->first_window, fw);
    ck_assert_uint_eq(run->nwindows, nw);
}

START_TEST(test_timeline_burn_in)
{
    struct ss_model m;
    FX_LOAD_OK(&m, burn_prof);
    ck_assert_uint_eq(m.sample_stack.n, 11);
    struct ss_timeline tl;
    struct ss_error err;
    ck_assert_int_eq(ss_timeline_compute(&m, 1, 4, &tl, &err), 0);
    ck_assert_uint_eq(tl.level, 1);
    ck_assert_uint_eq(tl.window_size, 3);
    ck_assert_uint_eq(tl.nwindows, 4);
    check_window(&m, &tl, 0, 0, 3, "sim", 3, 0);
    check_window(&m, &tl, 1, 3, 3, "fit", 2, 0);
    check_window(&m, &tl, 2, 6, 3, "fit", 2, 0);
    check_window(&m, &tl, 3, 9, 2, "fit", 1, 1);
    ck_assert_uint_eq(tl.nruns, 2);
    check_run(&m, &tl, 0, "sim", 0, 3, 0, 1);
    check_run(&m, &tl, 1, "fit", 3, 8, 1, 3);
    ck_assert_uint_eq(tl.nlegend, 2);
    ck_assert_str_eq(fname(&m, tl.legend[0].function), "sim");
    ck_assert_uint_eq(tl.legend[0].n, 4);
    ck_assert_uint_eq(tl.legend[0].first_window, 0);
    ck_assert_str_eq(fname(&m, tl.legend[1].function), "fit");
    ck_assert_uint_eq(tl.legend[1].n, 5);
    ck_assert_uint_eq(tl.legend[1].first_window, 1);
    ss_timeline_free(&tl);

    ck_assert_int_eq(ss_timeline_compute(&m, 2, 4, &tl, &err), 0);
    ck_assert_uint_eq(tl.nwindows, 4);
    check_window(&m, &tl, 0, 0, 3, "rnorm", 2, 1);
    check_window(&m, &tl, 1, 3, 3, "lm", 2, 0);
    check_window(&m, &tl, 2, 6, 3, "lm", 1, 2);
    check_window(&m, &tl, 3, 9, 2, NULL, 0, 2);
    ck_assert_uint_eq(tl.nruns, 3);
    check_run(&m, &tl, 0, "rnorm", 0, 3, 0, 1);
    check_run(&m, &tl, 1, "lm", 3, 6, 1, 2);
    check_run(&m, &tl, 2, NULL, 9, 2, 3, 1);
    ck_assert_uint_eq(tl.nlegend, 2);
    ck_assert_str_eq(fname(&m, tl.legend[0].function), "rnorm");
    ck_assert_uint_eq(tl.legend[0].n, 3);
    ck_assert_str_eq(fname(&m, tl.legend[1].function), "lm");
    ck_assert_uint_eq(tl.legend[1].n, 3);
    ss_timeline_free(&tl);
    ss_timeline_free(&tl); /* no-op */

    /* The empty sample is in no tree. */
    struct ss_tree t;
    ck_assert_int_eq(ss_tree_build(&m, 0, SS_NONE, &t, &err), 0);
    ck_assert_uint_eq(t.total_n, 10);
    ck_assert_double_eq_tol(t.total_v, 0.2, TOL);
    ck_assert_str_eq(fname(&m, t.nodes[0].function), "fit");
    ck_assert_uint_eq(t.nodes[0].total_n, 5);
    ck_assert_uint_eq(t.nodes[t.nodes[0].next_sibling].total_n, 4);
    check_links(&t);
    ss_tree_free(&t);
    ss_model_free(&m);
}
END_TEST

/* Ties, legend order, widths and bad arguments.
 * Samples b, a, b, b with width 2: windows [0,2) b 1 = a 1 -> a (lowest
 * name, though b came first), [2,4) b 2.  Legend by first appearance: a
 * (level-1 samples: 1), b (3).  Width 10 > 4 samples: window size 1, 4
 * windows; runs b | a | b b. */
START_TEST(test_timeline_ties)
{
    static const char prof[] = "sample.interval=20000\n"
                               "\"b\" \n\"a\" \n\"b\" \n\"b\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_timeline tl;
    struct ss_error err;
    ck_assert_int_eq(ss_timeline_compute(&m, 1, 2, &tl, &err), 0);
    ck_assert_uint_eq(tl.nwindows, 2);
    check_window(&m, &tl, 0, 0, 2, "a", 1, 0);
    check_window(&m, &tl, 1, 2, 2, "b", 2, 0);
    ck_assert_uint_eq(tl.nlegend, 2);
    ck_assert_str_eq(fname(&m, tl.legend[0].function), "a");
    ck_assert_uint_eq(tl.legend[0].n, 1);
    ck_assert_str_eq(fname(&m, tl.legend[1].function), "b");
    ck_assert_uint_eq(tl.legend[1].n, 3);
    ss_timeline_free(&tl);

    ck_assert_int_eq(ss_timeline_compute(&m, 1, 10, &tl, &err), 0);
    ck_assert_uint_eq(tl.window_size, 1);
    ck_assert_uint_eq(tl.nwindows, 4);
    ck_assert_uint_eq(tl.nruns, 3);
    check_run(&m, &tl, 0, "b", 0, 1, 0, 1);
    check_run(&m, &tl, 1, "a", 1, 1, 1, 1);
    check_run(&m, &tl, 2, "b", 2, 2, 2, 2);
    ss_timeline_free(&tl);

    /* Level deeper than every stack: one window, no top, all shallow. */
    ck_assert_int_eq(ss_timeline_compute(&m, 2, 1, &tl, &err), 0);
    ck_assert_uint_eq(tl.nwindows, 1);
    check_window(&m, &tl, 0, 0, 4, NULL, 0, 4);
    ck_assert_uint_eq(tl.nlegend, 0);
    ck_assert_uint_eq(tl.nruns, 1);
    ss_timeline_free(&tl);

    ck_assert_int_eq(ss_timeline_compute(&m, 0, 4, &tl, &err), SS_EUSAGE);
    ck_assert_int_eq(ss_timeline_compute(&m, 1, 0, &tl, &err), SS_EUSAGE);
    ss_model_free(&m);
}
END_TEST

/* A profile with a header only: empty trees, no windows. */
START_TEST(test_empty_profile)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "sample.interval=20000\n");
    struct ss_tree t;
    struct ss_error err;
    ck_assert_int_eq(ss_tree_build(&m, 0, SS_NONE, &t, &err), 0);
    ck_assert_uint_eq(t.n, 0);
    ck_assert_uint_eq(t.first_root, NONE);
    ck_assert_uint_eq(t.total_n, 0);
    size_t n;
    ck_assert_ptr_null(ss_tree_dfs_order(&t, &n));
    ck_assert_uint_eq(n, 0);
    ss_tree_free(&t);
    ck_assert_int_eq(ss_tree_build(&m, 1, SS_NONE, &t, &err), 0);
    ck_assert_uint_eq(t.n, 0);
    ss_tree_free(&t);
    struct ss_timeline tl;
    ck_assert_int_eq(ss_timeline_compute(&m, 1, 80, &tl, &err), 0);
    ck_assert_uint_eq(tl.nwindows, 0);
    ck_assert_uint_eq(tl.nruns, 0);
    ss_timeline_free(&tl);
    ss_model_free(&m);
}
END_TEST

Suite *tree_suite(void)
{
    Suite *s = suite_create("tree");
    TCase *tc = tcase_create("trees");
    tcase_add_test(tc, test_top_down_recursion);
    tcase_add_test(tc, test_inverted_recursion);
    tcase_add_test(tc, test_calls_recursion);
    tcase_add_test(tc, test_focus);
    tcase_add_test(tc, test_two_intervals);
    suite_add_tcase(s, tc);
    tc = tcase_create("timeline");
    tcase_add_test(tc, test_timeline_burn_in);
    tcase_add_test(tc, test_timeline_ties);
    tcase_add_test(tc, test_empty_profile);
    suite_add_tcase(s, tc);
    return s;
}
