/* check_compare.c - comparing two profiles (src/compare.h;
 * stackscope(1), COMPARING): the join of functions and stacks, deltas, the
 * order by delta, normalization, one model from two and two from one.
 *
 * Fixtures (Rprof, hand-counted):
 *   base, interval 20 ms: main>f, main>f, main>g, main      (4 samples)
 *     self  f 2 x 0.02 = 0.04, g 0.02, main 0.02; total main 0.08
 *   new, interval 10 ms: main>f, main>g x 3, main>h       (5 samples)
 *     self  f 0.01, g 0.03, h 0.01, main 0; total main 0.05
 * so self deltas: g +0.01, h +0.01, main -0.02, f -0.03. */
#include "check_suites.h"

#include <stdlib.h>
#include <string.h>

#include "column.h"
#include "compare.h"
#include "report_compare.h"
#include "sort.h"
#include "flame.h"
#include "tree.h"

#define TOL 1e-12

static const char base_rprof[] = "sample.interval=20000\n"
                                 "\"f\" \"main\" \n"
                                 "\"f\" \"main\" \n"
                                 "\"g\" \"main\" \n"
                                 "\"main\" \n";
static const char new_rprof[] = "sample.interval=10000\n"
                                "\"f\" \"main\" \n"
                                "\"g\" \"main\" \n"
                                "\"g\" \"main\" \n"
                                "\"g\" \"main\" \n"
                                "\"h\" \"main\" \n";

static const struct ss_cmp_row *crow(const struct ss_cmp_stats *s, const char *key)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(ss_strtab_get(&s->keys, s->rows[i].key), key))
            return &s->rows[i];
    ck_abort_msg("no row '%s'", key);
    return NULL;
}

static void check_crow(const struct ss_cmp_stats *s, const char *key, double sb, double sn,
                       double tb, double tn)
{
    const struct ss_cmp_row *r = crow(s, key);
    ck_assert_double_eq_tol(r->self_b, sb, TOL);
    ck_assert_double_eq_tol(r->self_n, sn, TOL);
    ck_assert_double_eq_tol(r->total_b, tb, TOL);
    ck_assert_double_eq_tol(r->total_n, tn, TOL);
}

START_TEST(functions_join)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, base_rprof);
    FX_LOAD_OK(&n, new_rprof);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    ck_assert_double_eq_tol(c.total_base, 0.08, TOL);
    ck_assert_double_eq_tol(c.total_new, 0.05, TOL);
    ck_assert_double_exact(c.scale, 1);
    struct ss_cmp_stats s;
    struct ss_error err;
    ck_assert_int_eq(ss_compare_stats(&c, SS_BY_FUNCTION, &s, &err), 0);
    ck_assert_uint_eq(s.n, 4);
    check_crow(&s, "f", 0.04, 0.01, 0.04, 0.01);
    check_crow(&s, "g", 0.02, 0.03, 0.02, 0.03);
    check_crow(&s, "h", 0, 0.01, 0, 0.01); /* new only: 0 in the base */
    check_crow(&s, "main", 0.02, 0, 0.08, 0.05);
    ck_assert_double_eq_tol(s.total_b, 0.08, TOL);
    ck_assert_double_eq_tol(s.total_n, 0.05, TOL);
    /* self delta descending; g and h tie (+0.01, total +0.01 each): by name */
    ss_cmp_sort_self(&s);
    static const char *const self_order[] = {"g", "h", "main", "f"};
    for (size_t i = 0; i < 4; i++)
        ck_assert_str_eq(ss_strtab_get(&s.keys, s.rows[i].key), self_order[i]);
    /* total delta: g +0.01, h +0.01, main -0.03, f -0.03 (tie: self -0.02 > -0.03) */
    ss_cmp_sort_total(&s);
    static const char *const total_order[] = {"g", "h", "main", "f"};
    for (size_t i = 0; i < 4; i++)
        ck_assert_str_eq(ss_strtab_get(&s.keys, s.rows[i].key), total_order[i]);
    ss_cmp_stats_free(&s);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* The same join with each side's statistics on a thread of its own (two
 * sides of 150,000 samples: over the threshold): the small fixtures
 * repeated, hand-counted (base: f f g main at 20 ms, new: f g g g h at
 * 10 ms), and the rows, verdicts included, as one thread makes them. */
static char *repeat_rprof(const char *header, const char *const *lines, size_t nlines, size_t n)
{
    size_t cap = strlen(header) + n * 16 + 1, k = 0;
    char *t = malloc(cap);
    ck_assert_ptr_nonnull(t);
    k += (size_t)snprintf(t, cap, "%s", header);
    for (size_t i = 0; i < n; i++)
        k += (size_t)snprintf(t + k, cap - k, "%s", lines[i % nlines]);
    return t;
}

START_TEST(functions_join_threads)
{
    static const char *const bl[] = {"\"f\" \"main\" \n", "\"f\" \"main\" \n", "\"g\" \"main\" \n",
                                     "\"main\" \n"};
    static const char *const nl[] = {"\"f\" \"main\" \n", "\"g\" \"main\" \n", "\"g\" \"main\" \n",
                                     "\"g\" \"main\" \n", "\"h\" \"main\" \n"};
    enum { N = 150000 };
    char *bt = repeat_rprof("sample.interval=20000\n", bl, 4, N);
    char *nt = repeat_rprof("sample.interval=10000\n", nl, 5, N);
    struct ss_model b, n;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(fx_load(&b, &err, bt, strlen(bt), path, sizeof path), 0);
    ck_assert_int_eq(fx_load(&n, &err, nt, strlen(nt), path, sizeof path), 0);
    free(bt);
    free(nt);
    struct ss_cmp_stats s[2];
    static const char *const threads[] = {"1", "2"};
    for (int t = 0; t < 2; t++) {
        setenv("STACKSCOPE_THREADS", threads[t], 1);
        struct ss_compare c;
        ss_compare_init(&c, &b, &n, 0);
        ck_assert_int_eq(ss_compare_stats(&c, SS_BY_FUNCTION, &s[t], &err), 0);
        ck_assert_uint_eq(s[t].n, 4);
        check_crow(&s[t], "f", 1500, 300, 1500, 300);
        check_crow(&s[t], "g", 750, 900, 750, 900);
        check_crow(&s[t], "h", 0, 300, 0, 300);
        check_crow(&s[t], "main", 750, 0, 3000, 1500);
    }
    unsetenv("STACKSCOPE_THREADS");
    ck_assert_int_eq(memcmp(s[0].rows, s[1].rows, s[0].n * sizeof *s[0].rows), 0);
    ss_cmp_stats_free(&s[0]);
    ss_cmp_stats_free(&s[1]);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* --normalize: the base scales by 0.05 / 0.08 = 0.625, so its total is 0.05. */
START_TEST(functions_normalized)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, base_rprof);
    FX_LOAD_OK(&n, new_rprof);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 1);
    ck_assert_double_eq_tol(c.scale, 0.625, TOL);
    struct ss_cmp_stats s;
    struct ss_error err;
    ck_assert_int_eq(ss_compare_stats(&c, SS_BY_FUNCTION, &s, &err), 0);
    check_crow(&s, "f", 0.025, 0.01, 0.025, 0.01);
    check_crow(&s, "g", 0.0125, 0.03, 0.0125, 0.03);
    check_crow(&s, "main", 0.0125, 0, 0.05, 0.05);
    ck_assert_double_eq_tol(s.total_b, 0.05, TOL);
    ss_cmp_stats_free(&s);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* Stacks by names root first: main;g 0.02 -> 0.03, main;h 0 -> 0.01,
 * main 0.02 -> 0, main;f 0.04 -> 0.01. */
START_TEST(stacks_join)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, base_rprof);
    FX_LOAD_OK(&n, new_rprof);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    struct ss_cmp_stacks s;
    struct ss_error err;
    ck_assert_int_eq(ss_compare_stacks(&c, &s, &err), 0);
    ck_assert_uint_eq(s.n, 4);
    static const char *const order[] = {"main;g", "main;h", "main", "main;f"};
    static const double base[] = {0.02, 0, 0.02, 0.04}, cur[] = {0.03, 0.01, 0, 0.01};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_str_eq(ss_strtab_get(&s.keys, s.rows[i].key), order[i]);
        ck_assert_double_eq_tol(s.rows[i].base, base[i], TOL);
        ck_assert_double_eq_tol(s.rows[i].cur, cur[i], TOL);
    }
    ck_assert_uint_eq(s.rows[2].depth, 1);
    ss_cmp_stacks_free(&s);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* Trees joined by path: main 0.08 -> 0.05 with children g (+0.01), h
 * (+0.01, new only), f (-0.03) in that order; calls of main the same. */
START_TEST(tree_and_calls_join)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, base_rprof);
    FX_LOAD_OK(&n, new_rprof);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    struct ss_cmp_tree t;
    struct ss_error err;
    ck_assert_int_eq(ss_compare_tree(&c, 0, NULL, &t, &err), 0);
    ck_assert_uint_eq(t.n, 4);
    static const char *const order[] = {"main", "g", "h", "f"};
    static const double tb[] = {0.08, 0.02, 0, 0.04}, tn[] = {0.05, 0.03, 0.01, 0.01};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_str_eq(ss_strtab_get(&t.keys, t.nodes[i].name), order[i]);
        ck_assert_uint_eq(t.nodes[i].depth, i ? 1 : 0);
        ck_assert_double_eq_tol(t.nodes[i].total_b, tb[i], TOL);
        ck_assert_double_eq_tol(t.nodes[i].total_n, tn[i], TOL);
    }
    ck_assert_double_eq_tol(t.nodes[0].self_b, 0.02, TOL);
    ck_assert_double_eq_tol(t.total_b, 0.08, TOL);
    ss_cmp_tree_free(&t);
    /* a focus only the new side has: the base's tree is empty */
    ck_assert_int_eq(ss_compare_tree(&c, 0, "h", &t, &err), 0);
    ck_assert_uint_eq(t.n, 1);
    ck_assert_double_eq_tol(t.nodes[0].total_b, 0, TOL);
    ck_assert_double_eq_tol(t.nodes[0].total_n, 0.01, TOL);
    ss_cmp_tree_free(&t);
    ck_assert_int_eq(ss_compare_tree(&c, 0, "nosuch", &t, &err), SS_EUSAGE);
    /* the base's totals on the new profile's own tree (the explorer's) */
    struct ss_tree nt;
    ck_assert_int_eq(ss_tree_build(&n, 0, SS_NONE, &nt, &err), 0);
    ck_assert_uint_eq(nt.n, 4);
    double bt[4], bs[4];
    ck_assert_int_eq(ss_compare_tree_base(&c, 0, NULL, &nt, bt, bs, &err), 0);
    for (size_t i = 0; i < 4; i++) {
        const char *nm = ss_function_name(&n, nt.nodes[i].function);
        double want = !strcmp(nm, "main") ? 0.08
                      : !strcmp(nm, "f")  ? 0.04
                      : !strcmp(nm, "g")  ? 0.02
                                          : 0;
        ck_assert_double_eq_tol(bt[i], want, TOL);
    }
    ss_tree_free(&nt);
    struct ss_cmp_calls k;
    ck_assert_int_eq(ss_compare_calls(&c, "main", &k, &err), 0);
    ck_assert_uint_eq(k.ncallers, 0);
    ck_assert_uint_eq(k.ncallees, 3);
    ck_assert_str_eq(ss_strtab_get(&k.keys, k.callees[2].name), "f");
    ck_assert_double_eq_tol(k.callees[2].base, 0.04, TOL);
    ck_assert_double_eq_tol(k.callees[2].cur, 0.01, TOL);
    ck_assert_double_eq_tol(k.total_b, 0.08, TOL);
    ss_cmp_calls_free(&k);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* The flame graph: the new graph's frames main, f, g, h (by name) get the
 * base's totals of the same paths: 0.08, 0.04, 0.02 and 0 (h is new). */
START_TEST(flame_base_totals)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, base_rprof);
    FX_LOAD_OK(&n, new_rprof);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    struct ss_error err;
    double *sw = NULL;
    ck_assert_int_eq(ss_flame_measure_weights(&n, &sw, NULL, &err), 0);
    struct ss_flame_opts o = {0, 0, SS_FLAME_BY_NAME};
    struct ss_flame fl;
    ck_assert_int_eq(ss_flame_build(&n, sw, NULL, &o, &fl, &err), 0);
    free(sw);
    ck_assert_uint_eq(fl.n, 4);
    double base[4];
    ck_assert_int_eq(ss_compare_flame(&c, &o, &fl, base, &err), 0);
    static const char *const names[] = {"main", "f", "g", "h"};
    static const double want[] = {0.08, 0.04, 0.02, 0};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_str_eq(ss_function_name(&n, fl.nodes[i].function), names[i]);
        ck_assert_double_eq_tol(base[i], want[i], TOL);
    }
    /* shades: the largest |delta| is 0.03 (main, f): -3; g +0.01: a third,
     * +2; equal: 0 */
    ck_assert_int_eq(ss_compare_shade(base[0], fl.nodes[0].total, 0.03), -3);
    ck_assert_int_eq(ss_compare_shade(base[2], fl.nodes[2].total, 0.03), 2);
    ck_assert_int_eq(ss_compare_shade(0.5, 0.5, 0.03), 0);
    ck_assert_int_eq(ss_compare_shade(0.5, 0.5001, 0.03), 0); /* under 2%: no colour */
    /* swapped, the graph of the base: h is in the other side only */
    struct ss_compare c2;
    ss_compare_init(&c2, &n, &b, 0);
    ck_assert_int_eq(ss_flame_measure_weights(&b, &sw, NULL, &err), 0);
    struct ss_flame bfl;
    ck_assert_int_eq(ss_flame_build(&b, sw, NULL, &o, &bfl, &err), 0);
    free(sw);
    ck_assert_uint_eq(bfl.n, 3); /* main, f, g */
    double nb[3];
    struct ss_cmp_gone gone;
    ck_assert_int_eq(ss_compare_flame_gone(&c2, &o, &bfl, nb, &gone, NULL, &err), 0);
    ck_assert_uint_eq(gone.n, 1);
    ck_assert_str_eq(gone.name[0], "h");
    ck_assert_uint_eq(gone.parent[0], 0); /* under main */
    ck_assert_double_eq_tol(gone.total[0], 0.01, TOL);
    ss_cmp_gone_free(&gone);
    ss_flame_free(&bfl);
    ss_flame_free(&fl);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* The sandwich's halves against the base's (ss_compare_flame_focus):
 *   callees of main (main, f, g, h by name): base 0.08, 0.04, 0.02, 0;
 *   callers of g (g, then main above it): base 0.02 both;
 *   h, which the base never runs: every base 0, nothing gone;
 *   swapped (the base's graph against the new profile): the callees of main
 *   lack h, which the other side has under main (0.01 s). */
START_TEST(flame_focus_base_totals)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, base_rprof);
    FX_LOAD_OK(&n, new_rprof);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    struct ss_error err;
    double *sw = NULL;
    ck_assert_int_eq(ss_flame_measure_weights(&n, &sw, NULL, &err), 0);
    struct ss_flame_opts o = {0, 0, SS_FLAME_BY_NAME};
    struct ss_flame fl;
    double base[8];
    struct ss_cmp_gone gone;
    ck_assert_int_eq(
        ss_flame_build_focus(&n, sw, &o, ss_model_find_function(&n, "main"), &fl, &err), 0);
    ck_assert_uint_eq(fl.n, 4);
    ck_assert_int_eq(ss_compare_flame_focus(&c, &o, "main", &fl, base, &gone, NULL, &err), 0);
    static const double want[] = {0.08, 0.04, 0.02, 0};
    for (size_t i = 0; i < 4; i++)
        ck_assert_double_eq_tol(base[i], want[i], TOL);
    ck_assert_uint_eq(gone.n, 0);
    ss_flame_free(&fl);
    o.inverted = 1;
    ck_assert_int_eq(ss_flame_build_focus(&n, sw, &o, ss_model_find_function(&n, "g"), &fl, &err),
                     0);
    ck_assert_uint_eq(fl.n, 2);
    ck_assert_str_eq(ss_function_name(&n, fl.nodes[1].function), "main");
    ck_assert_int_eq(ss_compare_flame_focus(&c, &o, "g", &fl, base, &gone, NULL, &err), 0);
    ck_assert_double_eq_tol(base[0], 0.02, TOL);
    ck_assert_double_eq_tol(base[1], 0.02, TOL);
    ss_flame_free(&fl);
    o.inverted = 0;
    ck_assert_int_eq(ss_flame_build_focus(&n, sw, &o, ss_model_find_function(&n, "h"), &fl, &err),
                     0);
    base[0] = -1;
    ck_assert_int_eq(ss_compare_flame_focus(&c, &o, "h", &fl, base, &gone, NULL, &err), 0);
    ck_assert_double_eq_tol(base[0], 0, TOL);
    ck_assert_uint_eq(gone.n, 0);
    ss_flame_free(&fl);
    free(sw);

    struct ss_compare c2;
    ss_compare_init(&c2, &n, &b, 0);
    ck_assert_int_eq(ss_flame_measure_weights(&b, &sw, NULL, &err), 0);
    ck_assert_int_eq(
        ss_flame_build_focus(&b, sw, &o, ss_model_find_function(&b, "main"), &fl, &err), 0);
    free(sw);
    ck_assert_uint_eq(fl.n, 3);
    ck_assert_int_eq(ss_compare_flame_focus(&c2, &o, "main", &fl, base, &gone, NULL, &err), 0);
    ck_assert_uint_eq(gone.n, 1);
    ck_assert_str_eq(gone.name[0], "h");
    ck_assert_uint_eq(gone.parent[0], 0);
    ck_assert_double_eq_tol(gone.total[0], 0.01, TOL);
    ss_cmp_gone_free(&gone);
    ss_flame_free(&fl);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* One model from two (the writers' input) and back: the new samples first,
 * then the base's in a source flagged SS_SRC_BASE; the split gives each
 * side its own statistics again. */
START_TEST(merge_and_split)
{
    struct ss_model b, n, mm, b2, n2;
    FX_LOAD_OK(&b, base_rprof);
    FX_LOAD_OK(&n, new_rprof);
    ck_assert(!ss_model_is_comparison(&n));
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 1);
    struct ss_error err;
    ck_assert_int_eq(ss_compare_merge(&c, &mm, &err), 0);
    ck_assert(ss_model_is_comparison(&mm));
    ck_assert_uint_eq(mm.sources.n, 2);
    ck_assert_uint_eq(mm.sources.v[0].n_samples, 5);
    ck_assert_uint_eq(mm.sources.v[1].n_samples, 4);
    ck_assert(!(mm.sources.v[0].flags & SS_SRC_BASE));
    ck_assert(mm.sources.v[1].flags & SS_SRC_BASE);
    ck_assert(mm.sources.v[1].flags & SS_SRC_NORMALIZE);
    ck_assert_double_exact(mm.sources.v[1].interval_us, 20000);
    ck_assert_int_eq(ss_compare_split(&mm, &b2, &n2, &err), 0);
    ck_assert(!ss_model_is_comparison(&b2));
    struct ss_compare c2;
    ss_compare_init(&c2, &b2, &n2, 0);
    struct ss_cmp_stats s;
    ck_assert_int_eq(ss_compare_stats(&c2, SS_BY_FUNCTION, &s, &err), 0);
    check_crow(&s, "f", 0.04, 0.01, 0.04, 0.01);
    check_crow(&s, "main", 0.02, 0, 0.08, 0.05);
    ss_cmp_stats_free(&s);
    ss_model_free(&mm);
    ss_model_free(&b2);
    ss_model_free(&n2);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* Both sides weigh by the new profile's measure: a base without it is a
 * usage error naming the measure and the base. */
START_TEST(measure_missing)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, base_rprof);
    FX_LOAD_OK(&n, "memory profiling: sample.interval=10000\n"
                   ":10:0:0:0:\"f\" \"main\" \n"
                   ":20:0:0:0:\"f\" \"main\" \n");
    struct ss_error err;
    ck_assert_int_eq(ss_model_set_measure(&n, "memory", &err), 0);
    ck_assert_int_eq(ss_compare_check_measure(&b, &n, "before.out", 1, &err), SS_EUSAGE);
    ck_assert_msg(strstr(err.msg, "before.out") && strstr(err.msg, "'memory'"), "%s", err.msg);
    /* not chosen by the user (a default): both fall back to time */
    ck_assert_int_eq(ss_compare_check_measure(&b, &n, "before.out", 0, &err), 0);
    ck_assert_str_eq(ss_model_measure_name(&n), "time");
    ck_assert_str_eq(ss_model_measure_name(&b), "time");
    /* memory: 8 x (20 - 10) = 80 bytes in the second sample; the base has no
     * memory, so compare samples instead: f 2 new against 2 base */
    ck_assert_int_eq(ss_model_set_measure(&n, "samples", &err), 0);
    ck_assert_int_eq(ss_compare_check_measure(&b, &n, "before.out", 1, &err), 0);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    struct ss_cmp_stats s;
    ck_assert_int_eq(ss_compare_stats(&c, SS_BY_FUNCTION, &s, &err), 0);
    check_crow(&s, "f", 2, 2, 2, 2);
    check_crow(&s, "g", 1, 0, 1, 0); /* base only */
    ss_cmp_stats_free(&s);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* The comparison's columns (report_compare.h): a descriptor's text and
 * order are the table's, made by SS_PAIR_COLS from one value accessor. */
static int by_col(const void *a, const void *b, void *ctx)
{
    const struct ss_col *col = ((const void *const *)ctx)[0];
    return ss_col_compare(col, ((const void *const *)ctx)[1], *(const size_t *)a,
                          *(const size_t *)b);
}

static size_t row_of(const struct ss_cmp_stats *s, const char *key)
{
    return (size_t)(crow(s, key) - s->rows);
}

START_TEST(descriptor_columns)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, base_rprof);
    FX_LOAD_OK(&n, new_rprof);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    struct ss_cmp_stats s;
    struct ss_error err;
    ck_assert_int_eq(ss_compare_stats(&c, SS_BY_FUNCTION, &s, &err), 0);
    struct ss_cellbuf cb = {NULL, 0};
    const struct ss_col *cols = ss_cmp_fn_columns;
    /* g: self 0.02 -> 0.03; text signs the delta, TSV does not round */
    ck_assert_str_eq(ss_col_text(&cols[SS_CMP_SELF_B], &s, row_of(&s, "g"), 0, &cb), "0.020");
    ck_assert_str_eq(ss_col_text(&cols[SS_CMP_SELF], &s, row_of(&s, "g"), 0, &cb), "0.030");
    ck_assert_str_eq(ss_col_text(&cols[SS_CMP_SELF_D], &s, row_of(&s, "g"), 0, &cb), "+0.010");
    ck_assert_str_eq(ss_col_text(&cols[SS_CMP_TOTAL_D], &s, row_of(&s, "main"), 0, &cb), "-0.030");
    ck_assert_str_eq(ss_col_text(&cols[SS_CMP_SELF_B], &s, row_of(&s, "h"), 1, &cb), "0");
    ck_assert_str_eq(ss_col_text(&cols[SS_CMP_NAME], &s, row_of(&s, "main"), 1, &cb), "main");
    /* sorting row indexes by the self delta column gives ss_cmp_sort_self's
     * order (ties by total delta, then name): g, h, main, f */
    size_t order[4] = {0, 1, 2, 3};
    const void *ctx[2] = {&cols[SS_CMP_SELF_D], &s};
    ck_assert_int_eq(ss_sort(order, 4, sizeof *order, by_col, ctx), 0);
    static const char *const want[] = {"g", "h", "main", "f"};
    for (size_t i = 0; i < 4; i++)
        ck_assert_str_eq(ss_strtab_get(&s.keys, s.rows[order[i]].key), want[i]);
    /* by name: f, g, h, main */
    ctx[0] = &cols[SS_CMP_NAME];
    ck_assert_int_eq(ss_sort(order, 4, sizeof *order, by_col, ctx), 0);
    ck_assert_str_eq(ss_strtab_get(&s.keys, s.rows[order[0]].key), "f");
    ck_assert_str_eq(ss_strtab_get(&s.keys, s.rows[order[3]].key), "main");
    ss_cellbuf_free(&cb);
    ss_cmp_stats_free(&s);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* Levels, run lengths and the timeline of the fixtures (hand-counted):
 * level 1 main: base 4 samples (0.08 s), new 5 (0.05 s); level 2: base f,
 * f, g (3, 0.06 s, 2 distinct, top f), new f, g, g, g, h (5, 0.05 s, 3,
 * top g).  Runs: g at level 2: base 1 run of 1, new 1 of 3. */
START_TEST(levels_runs_timeline_join)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, base_rprof);
    FX_LOAD_OK(&n, new_rprof);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    struct ss_error err;
    struct ss_cmp_levels l;
    ck_assert_int_eq(ss_compare_levels(&c, &l, &err), 0);
    ck_assert_uint_eq(l.n, 2);
    ck_assert_uint_eq(l.rows[0].samples_b, 4);
    ck_assert_uint_eq(l.rows[0].samples_n, 5);
    ck_assert_double_eq_tol(l.rows[0].value_b, 0.08, TOL);
    ck_assert_double_eq_tol(l.rows[0].value_n, 0.05, TOL);
    ck_assert_uint_eq(l.rows[1].samples_b, 3);
    ck_assert_uint_eq(l.rows[1].samples_n, 5);
    ck_assert_double_eq_tol(l.rows[1].value_b, 0.06, TOL);
    ck_assert_uint_eq(l.rows[1].distinct_b, 2);
    ck_assert_uint_eq(l.rows[1].distinct_n, 3);
    ck_assert_str_eq(ss_strtab_get(&l.keys, l.rows[1].top_b), "f");
    ck_assert_str_eq(ss_strtab_get(&l.keys, l.rows[1].top_n), "g");
    ss_cmp_levels_free(&l);

    struct ss_cmp_runs r;
    ck_assert_int_eq(ss_compare_runs(&c, 2, "g", &r, &err), 0);
    ck_assert_uint_eq(r.n, 1);
    ck_assert_uint_eq(r.rows[0].level, 2);
    ck_assert_uint_eq(r.rows[0].runs_b, 1);
    ck_assert_uint_eq(r.rows[0].runs_n, 1);
    ck_assert_uint_eq(r.rows[0].samples_b, 1);
    ck_assert_uint_eq(r.rows[0].samples_n, 3);
    ck_assert_double_eq_tol(r.rows[0].mean_n, 3, TOL);
    ck_assert_double_eq_tol(r.rows[0].value_b, 0.02, TOL);
    ck_assert_double_eq_tol(r.rows[0].value_n, 0.03, TOL);
    ss_cmp_runs_free(&r);
    /* every function at every level, h only in the new profile */
    ck_assert_int_eq(ss_compare_runs(&c, 0, NULL, &r, &err), 0);
    ck_assert_uint_eq(r.n, 8); /* main 0, 1; f, g, h: 0, 2 */
    ss_cmp_runs_free(&r);

    struct ss_cmp_timeline t;
    ck_assert_int_eq(ss_compare_timeline(&c, 2, 80, &t, &err), 0);
    ck_assert_uint_eq(t.base.nwindows, 4);
    ck_assert_uint_eq(t.cur.nwindows, 5);
    ck_assert_str_eq(ss_function_name(&b, t.base.windows[2].top), "g");
    ck_assert_uint_eq(t.base.windows[3].top, SS_NONE);
    ck_assert_str_eq(ss_function_name(&n, t.cur.windows[4].top), "h");
    ss_cmp_timeline_free(&t);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* Labels joined by key and value text, not by id: perf script texts
 * (labels comm and tid; the time measure is the periods' sum), interned in
 * a different order on each side (the base's label 0 is comm=gzip, the new
 * profile's comm=bash).  Hand-counted:
 *   base: gzip/2582 1 ms x 2, bash/10 2 ms  (4 ms)
 *   new:  bash/10 3 ms, bash/11 1 ms, gzip/2582 1 ms  (5 ms)
 * so comm=bash 1 -> 2 samples, 2 -> 4 ms (+2 ms); tid=11 0 -> 1, +1 ms;
 * tid=10 1 -> 1, 2 -> 3 ms (+1 ms: after tid=11 by the samples' delta);
 * comm=gzip 2 -> 1, 2 -> 1 ms; tid=2582 the same (by key: comm first);
 * dso (each sample's innermost frame's module) as comm here. */
static const char base_perf[] = "gzip  2582 [001]  4919.377196:    1000000 cpu-clock: \n"
                                "\t            4330 deflate (/usr/bin/gzip)\n\n"
                                "gzip  2582 [001]  4919.378000:    1000000 cpu-clock: \n"
                                "\t            4330 deflate (/usr/bin/gzip)\n\n"
                                "bash  10 [000]  4919.379000:    2000000 cpu-clock: \n"
                                "\t            12ab main (/bin/bash)\n";
static const char new_perf[] = "bash  10 [000]  4919.377196:    3000000 cpu-clock: \n"
                               "\t            12ab main (/bin/bash)\n\n"
                               "bash  11 [000]  4919.378000:    1000000 cpu-clock: \n"
                               "\t            12ab main (/bin/bash)\n\n"
                               "gzip  2582 [001]  4919.379000:    1000000 cpu-clock: \n"
                               "\t            4330 deflate (/usr/bin/gzip)\n";

START_TEST(labels_join)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, base_perf);
    FX_LOAD_OK(&n, new_perf);
    char x[96], y[96];
    ck_assert_str_eq(ss_label_value(&b, 0, x, sizeof x), "gzip");
    ck_assert_str_eq(ss_label_value(&n, 0, y, sizeof y), "bash");
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    struct ss_error err;
    struct ss_cmp_labels l;
    ck_assert_int_eq(ss_compare_labels(&c, &l, &err), 0);
    static const struct {
        const char *key, *value;
        uint64_t sb, sn;
        double vb, vn;
    } want[] = {
        {"comm", "bash", 1, 2, 0.002, 0.004}, {"dso", "bash", 1, 2, 0.002, 0.004},
        {"tid", "11", 0, 1, 0, 0.001},        {"tid", "10", 1, 1, 0.002, 0.003},
        {"comm", "gzip", 2, 1, 0.002, 0.001}, {"dso", "gzip", 2, 1, 0.002, 0.001},
        {"tid", "2582", 2, 1, 0.002, 0.001},
    };
    ck_assert_uint_eq(l.n, 7);
    for (size_t i = 0; i < 7; i++) {
        ck_assert_str_eq(ss_strtab_get(&l.keys, l.rows[i].key), want[i].key);
        ck_assert_str_eq(ss_strtab_get(&l.keys, l.rows[i].value), want[i].value);
        ck_assert_uint_eq(l.rows[i].samples_b, want[i].sb);
        ck_assert_uint_eq(l.rows[i].samples_n, want[i].sn);
        ck_assert_double_eq_tol(l.rows[i].value_b, want[i].vb, TOL);
        ck_assert_double_eq_tol(l.rows[i].value_n, want[i].vn, TOL);
    }
    ck_assert_uint_eq(l.unlabelled_b, 0);
    ck_assert_uint_eq(l.unlabelled_n, 0);
    /* the report's cells: TSV raw units, deltas signed in text */
    struct ss_cellbuf cb = {NULL, 0};
    ck_assert_str_eq(ss_col_text(&ss_cmp_label_columns[SS_CMPLB_COUNT_D], &l, 4, 1, &cb), "-1");
    ck_assert_str_eq(ss_col_text(&ss_cmp_label_columns[SS_CMPLB_COUNT_D], &l, 0, 0, &cb), "+1");
    ck_assert_str_eq(ss_col_text(&ss_cmp_label_columns[SS_CMPLB_MEASURE_D], &l, 0, 1, &cb),
                     "0.002");
    ck_assert_str_eq(ss_col_text(&ss_cmp_label_columns[SS_CMPLB_VALUE], &l, 6, 1, &cb), "2582");
    ss_cellbuf_free(&cb);
    ss_cmp_labels_free(&l);
    /* normalized: the base scales by 5/4, its counts stay */
    ss_compare_init(&c, &b, &n, 1);
    ck_assert_int_eq(ss_compare_labels(&c, &l, &err), 0);
    ck_assert_str_eq(ss_strtab_get(&l.keys, l.rows[0].value), "bash");
    ck_assert_double_eq_tol(l.rows[0].value_b, 0.0025, TOL);
    ck_assert_uint_eq(l.rows[0].samples_b, 1);
    /* tid=10 now grows by 0.003 - 0.0025, less than tid=11 (0.001) */
    ck_assert_str_eq(ss_strtab_get(&l.keys, l.rows[1].value), "bash"); /* dso */
    ck_assert_str_eq(ss_strtab_get(&l.keys, l.rows[2].value), "11");
    ck_assert_str_eq(ss_strtab_get(&l.keys, l.rows[3].value), "10");
    ck_assert_double_eq_tol(l.rows[3].value_n - l.rows[3].value_b, 0.0005, TOL);
    ss_cmp_labels_free(&l);
    /* a side without labels: every row 0 there */
    struct ss_model r;
    FX_LOAD_OK(&r, base_rprof);
    ss_compare_init(&c, &r, &n, 0);
    ck_assert_int_eq(ss_compare_labels(&c, &l, &err), 0);
    ck_assert_uint_eq(l.n, 7);
    for (size_t i = 0; i < l.n; i++)
        ck_assert_uint_eq(l.rows[i].samples_b, 0);
    ck_assert_uint_eq(l.unlabelled_b, 4);
    ss_cmp_labels_free(&l);
    ss_model_free(&r);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* A label's measure does not depend on how its label sets split its
 * samples: comm=bash is 10 ms + 20 ms (two tids) in the base and 30 ms
 * (one tid) in the new profile; summed in floating point per set, the base
 * was 0.01 + 0.02 = 0.03 s against 3e7 x 1e-9 = 0.030000000000000002 s, a
 * delta of 3.5e-18 (printed as -0 where pprof's integer sums say 0).  The
 * weights add as integers. */
static const char split_base_perf[] = "bash  10 [000]  4919.377196:    10000000 cpu-clock: \n"
                                      "\t            12ab main (/bin/bash)\n\n"
                                      "bash  11 [000]  4919.378000:    20000000 cpu-clock: \n"
                                      "\t            12ab main (/bin/bash)\n";
static const char split_new_perf[] = "bash  12 [000]  4919.377196:    30000000 cpu-clock: \n"
                                     "\t            12ab main (/bin/bash)\n";

START_TEST(labels_split_sets)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, split_base_perf);
    FX_LOAD_OK(&n, split_new_perf);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    struct ss_error err;
    struct ss_cmp_labels l;
    ck_assert_int_eq(ss_compare_labels(&c, &l, &err), 0);
    size_t i = 0;
    while (i < l.n && strcmp(ss_strtab_get(&l.keys, l.rows[i].key), "comm") != 0)
        i++;
    ck_assert_uint_lt(i, l.n);
    ck_assert_str_eq(ss_strtab_get(&l.keys, l.rows[i].value), "bash");
    ck_assert_uint_eq(l.rows[i].samples_b, 2);
    ck_assert_uint_eq(l.rows[i].samples_n, 1);
    double vb = l.rows[i].value_b, vn = l.rows[i].value_n;
    ck_assert_msg(memcmp(&vb, &vn, sizeof vb) == 0, "base %.17g, new %.17g", vb, vn);
    struct ss_cellbuf cb = {NULL, 0};
    ck_assert_str_eq(ss_col_text(&ss_cmp_label_columns[SS_CMPLB_MEASURE_D], &l, i, 1, &cb), "0");
    ss_cellbuf_free(&cb);
    ss_cmp_labels_free(&l);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

Suite *compare_suite(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, functions_join);
    tcase_add_test(tc, functions_join_threads);
    tcase_add_test(tc, functions_normalized);
    tcase_add_test(tc, stacks_join);
    tcase_add_test(tc, tree_and_calls_join);
    tcase_add_test(tc, flame_base_totals);
    tcase_add_test(tc, flame_focus_base_totals);
    tcase_add_test(tc, merge_and_split);
    tcase_add_test(tc, measure_missing);
    tcase_add_test(tc, descriptor_columns);
    tcase_add_test(tc, levels_runs_timeline_join);
    tcase_add_test(tc, labels_join);
    tcase_add_test(tc, labels_split_sets);
    suite_add_tcase(s, tc);
    return s;
}
