/* check_verdict.c - the statistics of the verdicts (src/verdict.h) against
 * R 4.2.2's answers (the numbers below were printed by R with
 * sprintf("%.17g"): qnorm, pnorm, pbeta, pt, qt, t.test, p.adjust(,"BH"),
 * prop.test(correct = FALSE)), and one side's units (cycles of runs) on a
 * hand-counted sequence. */
#include "check_suites.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "verdict.h"

/* relative tolerance: R and these agree to about 1e-13; the bound leaves room */
static void near(double got, double want, double rel)
{
    ck_assert_msg(fabs(got - want) <= rel * fabs(want) + 1e-300, "%.17g, R says %.17g", got, want);
}

START_TEST(normal)
{
    static const double q[][2] = {
        {1e-300, -37.047096299361201}, {1e-20, -9.2623400897984052},
        {1e-05, -4.2648907939228256},  {0.025, -1.9599639845400538},
        {0.2, -0.84162123357291418},   {0.8, 0.84162123357291441},
        {0.975, 1.9599639845400536},   {1 - 1e-10, 6.3613408896974208},
    };
    for (size_t i = 0; i < sizeof q / sizeof *q; i++)
        near(ss_norm_quantile(q[i][0]), q[i][1], 1e-12);
    ck_assert_double_exact(ss_norm_quantile(0.5), 0);
    ck_assert(isinf(ss_norm_quantile(0)) && ss_norm_quantile(0) < 0);
    static const double c[][2] = {
        {-10, 7.6198530241605269e-24}, {-1.96, 0.024997895148220428}, {0, 0.5},
        {0.5, 0.69146246127401301},    {3, 0.9986501019683699},
    };
    for (size_t i = 0; i < sizeof c / sizeof *c; i++)
        near(ss_norm_cdf(c[i][0]), c[i][1], 1e-14);
}
END_TEST

START_TEST(beta_and_t)
{
    static const double b[][4] = {
        {0.3, 2, 3, 0.34829999999999989},
        {0.9, 0.5, 5000, 1},
        {0.01, 10, 0.5, 1.7700349655285852e-21},
        {0.7, 1.5, 1.5, 0.7476842122656544},
        {0.999, 50000, 0.5, 1.4863295759538163e-23},
    };
    for (size_t i = 0; i < sizeof b / sizeof *b; i++)
        near(ss_incbeta(b[i][0], b[i][1], b[i][2]), b[i][3], 1e-12);
    static const double p[][3] = {
        {2.5, 1, 0.87888105840915665},    {-1.3, 1.7, 0.17106518753828509},
        {0.4, 3, 0.64203242301281493},    {2.2, 7.5, 0.96940026704694193},
        {-4, 25, 0.00024772183526604368}, {1.96, 10000, 0.97498823988408345},
        {6, 123456, 0.9999999990106776},  {-12, 3.3, 0.0003892960608466944},
        {40, 2, 0.99968779266390762},
    };
    for (size_t i = 0; i < sizeof p / sizeof *p; i++)
        near(ss_t_cdf(p[i][0], p[i][1]), p[i][2], 1e-12);
    /* two-sided: 2 P(T > 4) at 25 df */
    near(ss_t_pvalue(-4, 25), 2 * 0.00024772183526604368, 1e-12);
    static const double q[][3] = {
        {0.975, 1, 12.706204736174694},   {0.975, 1.3, 7.5005293255620273},
        {0.8, 1.7, 1.1083450086451152},   {0.975, 2, 4.3026527297494619},
        {0.975, 2.6, 3.4781824106911308}, {0.975, 3, 3.1824463052837078},
        {0.995, 4.2, 4.4577703053188786}, {0.025, 5, -2.570581835636315},
        {0.8, 9.9, 0.87945136544209934},  {0.975, 30, 2.0422724563012378},
        {0.9999, 12, 5.2632730078260339}, {0.975, 12345.6, 1.96015615825951},
        {1e-8, 3.5, -227.6325292906341},  {0.975, 5e6, 1.9599644589944127},
    };
    for (size_t i = 0; i < sizeof q / sizeof *q; i++)
        near(ss_t_quantile(q[i][0], q[i][1]), q[i][2], 1e-10);
    near(ss_t_quantile(0.975, INFINITY), 1.9599639845400536, 1e-12);
}
END_TEST

/* t.test(c(0.21, 0.25, 0.19, 0.23), c(0.17, 0.18, 0.2)) */
START_TEST(welch)
{
    static const double a[] = {0.21, 0.25, 0.19, 0.23}, b[] = {0.17, 0.18, 0.2};
    struct ss_dtest t;
    ck_assert_int_eq(ss_welch(a, 4, b, 3, 0.05, &t), 0);
    near(t.diff, 0.036666666666666653, 1e-12);
    near(t.se, 0.015634719199411434, 1e-12);
    near(t.df, 4.8643216080402034, 1e-12);
    near(t.p, 0.067389778937509762, 1e-10);
    near(t.lo, -0.0038631851749676865, 1e-9);
    near(t.hi, 0.077196518508300976, 1e-10);
    ck_assert_int_eq(ss_welch(a, 4, b, 3, 0.1, &t), 0); /* conf.level = 0.9 */
    near(t.lo, 0.0049667952479813052, 1e-9);
    near(t.hi, 0.068366538085351994, 1e-10);
    /* mdc: (qt(0.975, df) + qt(0.8, df)) x se */
    ck_assert_int_eq(ss_welch(a, 4, b, 3, 0.05, &t), 0);
    near(t.mdc, (ss_t_quantile(0.975, t.df) + ss_t_quantile(0.8, t.df)) * t.se, 1e-14);
    ck_assert_int_eq(ss_welch(a, 1, b, 3, 0.05, &t), -1);
}
END_TEST

/* p.adjust(c(0.01, 0.04, NA, 0.03, 0.5, 0.04, 0.001, 0.2), "BH") */
START_TEST(bh)
{
    double p[] = {0.01, 0.04, NAN, 0.03, 0.5, 0.04, 0.001, 0.2};
    static const double want[] = {0.035000000000000003,
                                  0.055999999999999994,
                                  NAN,
                                  0.055999999999999994,
                                  0.5,
                                  0.055999999999999994,
                                  0.0070000000000000001,
                                  0.23333333333333336};
    ck_assert_int_eq(ss_bh_adjust(p, p, 8), 0);
    for (size_t i = 0; i < 8; i++) {
        if (isnan(want[i]))
            ck_assert(isnan(p[i]));
        else
            near(p[i], want[i], 1e-15);
    }
    struct ss_verdict v[3] = {
        {1, 2, 0.01, 0, 0, 0, 0}, {-3, -1, 0.02, 0, 0, 0, 0}, {-1, 1, 0.9, 0, 0, 0, 0}};
    ck_assert_int_eq(ss_verdict_adjust(v, 3, sizeof *v, 0.05), 0);
    ck_assert_int_eq(v[0].sign, SS_V_GREW);   /* q 0.03 */
    ck_assert_int_eq(v[1].sign, SS_V_SHRANK); /* q 0.03 */
    ck_assert_int_eq(v[2].sign, SS_V_SAME);
    near(v[0].q, 0.03, 1e-15);
    size_t g, s;
    ss_verdict_count(v, 3, sizeof *v, &g, &s);
    ck_assert_uint_eq(g, 1);
    ck_assert_uint_eq(s, 1);
    ck_assert_str_eq(ss_verdict_word(SS_V_SAME), "~");
}
END_TEST

/* Rows are the functions' canonical ids. */
static void function_map(const struct ss_model *m, struct ss_vmap *map)
{
    uint32_t *rol = calloc(m->locations.n + 1, sizeof *rol);
    for (size_t l = 0; l < m->locations.n; l++)
        rol[l] = ss_function_canonical(m, ss_loc_function(m, (ss_id)l));
    struct ss_error err;
    ck_assert_int_eq(ss_vmap_frames(m, rol, 0, SS_VROW_NONE, map, &err), 0);
    free(rol);
}

static const struct ss_vacc *acc_of(const struct ss_model *m, const struct ss_vacc *a,
                                    const char *name)
{
    ss_id f = ss_model_find_function(m, name);
    ck_assert_uint_ne(f, SS_NONE);
    return &a[ss_function_canonical(m, f)];
}

/* Samples: f f g f g g f under main (one run of main; 7 samples).
 * f's runs [0,2) [3,4) [6,7): cycles (X, T) = (2, 3), (1, 3), (1, 1):
 *   sxx 6, sxt 10, stt 19, 3 units; total 4.
 * g's runs [2,3) [4,6): the stretch before (0, 2), cycles (1, 2), (2, 3):
 *   sxx 5, sxt 8, stt 17, 3 units.
 * Self the same (every sample's leaf); main's total: one cycle (7, 7). */
static const char seq_rprof[] = "sample.interval=1000\n"
                                "\"f\" \"main\" \n\"f\" \"main\" \n\"g\" \"main\" \n"
                                "\"f\" \"main\" \n\"g\" \"main\" \n\"g\" \"main\" \n"
                                "\"f\" \"main\" \n";

START_TEST(cycles)
{
    struct ss_model m;
    FX_LOAD_OK(&m, seq_rprof);
    struct ss_error err;
    ck_assert_int_eq(ss_model_set_measure(&m, "samples", &err), 0);
    struct ss_vmap map;
    function_map(&m, &map);
    struct ss_vside s;
    ck_assert_int_eq(ss_vside_compute(&m, &map, m.functions.n, 0, &s, &err), 0);
    ck_assert(s.ordered);
    ck_assert_double_exact(s.total, 7);
    ck_assert_double_exact(s.stt_absent, 49);
    for (int q = 0; q < 2; q++) {
        const struct ss_vacc *f = acc_of(&m, q ? s.self : s.tot, "f");
        const struct ss_vacc *g = acc_of(&m, q ? s.self : s.tot, "g");
        ck_assert_double_exact(f->x, 4);
        ck_assert_double_exact(f->sxx, 6);
        ck_assert_double_exact(f->sxt, 10);
        ck_assert_double_exact(f->stt, 19);
        ck_assert_uint_eq(f->units, 3);
        ck_assert_double_exact(g->x, 3);
        ck_assert_double_exact(g->sxx, 5);
        ck_assert_double_exact(g->sxt, 8);
        ck_assert_double_exact(g->stt, 17);
        ck_assert_uint_eq(g->units, 3);
    }
    const struct ss_vacc *mn = acc_of(&m, s.tot, "main");
    ck_assert_double_exact(mn->x, 7);
    ck_assert_double_exact(mn->sxx, 49);
    ck_assert_uint_eq(mn->units, 1);
    /* six: f's 4 samples, 7 in all; f against itself (the same side
     * twice): a delta of 0, p 1.  Its cycles' variance, V_r = 3/2 x 38/49
     * / 49 = 57/2401, is below independent samples' floor, V_i = ((1 - 2p)
     * x 4 + p^2 x 7) / 49 = 12/343 (p = 4/7), which holds, normal */
    ck_assert_double_exact(acc_of(&m, s.tot, "f")->six, 4);
    ck_assert_double_exact(s.six_all, 7);
    ss_id fr = ss_function_canonical(&m, ss_model_find_function(&m, "f"));
    struct ss_verdict v;
    ss_verdict_row(&s, &s, fr, 0, 7, 0.05, &v);
    near(v.p, 1, 1e-15);
    near(v.hi, 1.9599639845400536 * 7 * sqrt(2 * 12.0 / 343), 1e-12);
    near(v.lo, -v.hi, 1e-12);
    ss_vside_free(&s);
    ss_vmap_free(&map);
    ss_model_free(&m);
}
END_TEST

/* f f f f f f g g f f g g g g g g: f's cycles (6, 8) and (2, 8), p = 1/2:
 * V_r = 2/1 x ((6 - 4)^2 + (2 - 4)^2) / 256 = 1/16 with 1 degree of
 * freedom, above the floor V_i = (0 x 8 + 16/4) / 256; against itself the
 * Welch-Satterthwaite degrees of freedom are 2, so the interval is
 * +-qt(0.975, 2) x 16 x sqrt(2 / 16). */
START_TEST(long_runs)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "sample.interval=1000\n"
                   "\"f\" \n\"f\" \n\"f\" \n\"f\" \n\"f\" \n\"f\" \n\"g\" \n\"g\" \n"
                   "\"f\" \n\"f\" \n\"g\" \n\"g\" \n\"g\" \n\"g\" \n\"g\" \n\"g\" \n");
    struct ss_error err;
    ck_assert_int_eq(ss_model_set_measure(&m, "samples", &err), 0);
    struct ss_vmap map;
    function_map(&m, &map);
    struct ss_vside s;
    ck_assert_int_eq(ss_vside_compute(&m, &map, m.functions.n, 0, &s, &err), 0);
    const struct ss_vacc *f = acc_of(&m, s.tot, "f");
    ck_assert_double_exact(f->sxx, 40);
    ck_assert_double_exact(f->sxt, 64);
    ck_assert_double_exact(f->stt, 128);
    ck_assert_uint_eq(f->units, 2);
    struct ss_verdict v;
    ss_verdict_row(&s, &s, ss_function_canonical(&m, ss_model_find_function(&m, "f")), 0, 16, 0.05,
                   &v);
    near(v.hi, 4.3026527297494619 * 16 * sqrt(2.0 / 16), 1e-12);
    ss_vside_free(&s);
    ss_vmap_free(&map);
    ss_model_free(&m);
}
END_TEST

/* Without time order each sample is an independent unit: the interval is
 * prop.test(c(30, 45), c(1000, 1100), correct = FALSE)'s (of base - new),
 * turned round and times the new total, 1100. */
START_TEST(independent)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, "a 30\nb 970\n");
    FX_LOAD_OK(&n, "a 45\nb 1055\n");
    struct ss_vmap mb, mn;
    function_map(&b, &mb);
    function_map(&n, &mn);
    struct ss_vside sb, sn;
    struct ss_error err;
    /* rows by name: a and b have the same ids on both sides (first seen first) */
    ck_assert_int_eq(ss_vside_compute(&b, &mb, b.functions.n, 0, &sb, &err), 0);
    ck_assert_int_eq(ss_vside_compute(&n, &mn, n.functions.n, 0, &sn, &err), 0);
    ck_assert(!sb.ordered && !sn.ordered);
    ss_id a = ss_function_canonical(&n, ss_model_find_function(&n, "a"));
    ck_assert_uint_eq(a, ss_function_canonical(&b, ss_model_find_function(&b, "a")));
    struct ss_verdict v;
    ss_verdict_row(&sb, &sn, a, 1, 1100, 0.05, &v);
    near(v.lo, -1100 * 0.0048645002907576583, 1e-12);
    near(v.hi, 1100 * 0.026682682108939478, 1e-12);
    ss_vside_free(&sb);
    ss_vside_free(&sn);
    ss_vmap_free(&mb);
    ss_vmap_free(&mn);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

/* One row seen by every table: in stacks whose only frames are f under
 * main, g under main, h under main, f's total is the same samples as the
 * tree node main;f's total, the stack main;f and (inverted) the node f, so
 * their p-values are equal, as are its flame frame's. */
static const char three_a[] = "sample.interval=1000\n"
                              "\"f\" \"main\" \n\"g\" \"main\" \n\"f\" \"main\" \n"
                              "\"h\" \"main\" \n\"f\" \"main\" \n\"g\" \"main\" \n"
                              "\"h\" \"main\" \n\"h\" \"main\" \n\"g\" \"main\" \n";
static const char three_b[] = "sample.interval=1000\n"
                              "\"f\" \"main\" \n\"f\" \"main\" \n\"g\" \"main\" \n"
                              "\"f\" \"main\" \n\"h\" \"main\" \n\"f\" \"main\" \n"
                              "\"f\" \"main\" \n\"g\" \"main\" \n\"f\" \"main\" \n";

START_TEST(tables_agree)
{
    struct ss_model b, n;
    FX_LOAD_OK(&b, three_a);
    FX_LOAD_OK(&n, three_b);
    struct ss_compare c;
    ss_compare_init(&c, &b, &n, 0);
    struct ss_error err;
    struct ss_cmp_stats st;
    ck_assert_int_eq(ss_compare_stats(&c, SS_BY_FUNCTION, &st, &err), 0);
    double p_fn = NAN;
    for (size_t i = 0; i < st.n; i++)
        if (!strcmp(ss_strtab_get(&st.keys, st.rows[i].key), "f")) {
            p_fn = st.rows[i].vtotal.p;
            near(st.rows[i].vself.p, p_fn, 1e-15); /* f is always the leaf */
        }
    ck_assert(p_fn > 0 && p_fn < 1);
    struct ss_cmp_stacks ks;
    ck_assert_int_eq(ss_compare_stacks(&c, &ks, &err), 0);
    for (size_t i = 0; i < ks.n; i++)
        if (!strcmp(ss_strtab_get(&ks.keys, ks.rows[i].key), "main;f"))
            near(ks.rows[i].v.p, p_fn, 1e-15);
    for (int inv = 0; inv < 2; inv++) {
        struct ss_cmp_tree t;
        ck_assert_int_eq(ss_compare_tree(&c, inv, NULL, &t, &err), 0);
        int seen = 0;
        for (size_t i = 0; i < t.n; i++)
            if (!strcmp(ss_strtab_get(&t.keys, t.nodes[i].name), "f") &&
                t.nodes[i].depth == (uint32_t)!inv) {
                near(t.nodes[i].vtotal.p, p_fn, 1e-15);
                seen = 1;
            }
        ck_assert(seen);
        ss_cmp_tree_free(&t);
    }
    ss_cmp_stacks_free(&ks);
    ss_cmp_stats_free(&st);
    ss_model_free(&b);
    ss_model_free(&n);
}
END_TEST

Suite *verdict_suite(void)
{
    Suite *s = suite_create("verdict");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, normal);
    tcase_add_test(tc, beta_and_t);
    tcase_add_test(tc, welch);
    tcase_add_test(tc, bh);
    tcase_add_test(tc, cycles);
    tcase_add_test(tc, long_runs);
    tcase_add_test(tc, independent);
    tcase_add_test(tc, tables_agree);
    suite_add_tcase(s, tc);
    return s;
}
