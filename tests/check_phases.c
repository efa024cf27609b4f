/* check_phases.c - the phase detector (src/phases.h) on sequences whose
 * phases are known by construction: abrupt changes, a change of mix
 * between the same categories (simulated with a fixed seed), stationary
 * sequences that must stay one phase, source boundaries, the 1% rule,
 * exactly N phases; naming a phase (main, first, last); the phases of a
 * loaded profile and keep-phase / drop-phase on it.  Every expected
 * boundary is where the fixture changes. */
#include "check_suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "phases.h"
#include "transform.h"

/* A small deterministic generator (the 64-bit LCG of Knuth's MMIX). */
static uint64_t rng_state;
static double rng_unif(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* A category drawn from shares p[0..k). */
static uint8_t draw(const double *p, unsigned k)
{
    double u = rng_unif(), c = 0;
    for (unsigned i = 0; i + 1 < k; i++)
        if (u < (c += p[i]))
            return (uint8_t)i;
    return (uint8_t)(k - 1);
}

/* The phase starts of cat[0..n) (breaks as given), into out; their number. */
static size_t detect(const uint8_t *cat, size_t n, unsigned k, const size_t *breaks, size_t nb,
                     size_t count, size_t *out, size_t max)
{
    struct ss_phase_opts o = {0, count};
    size_t *starts, np;
    struct ss_error err;
    struct ss_phase_seq seq = {cat, NULL, NULL};
    ck_assert_int_eq(ss_phases_detect(&seq, n, k, breaks, nb, &o, &starts, &np, &err), 0);
    ck_assert_uint_le(np, max);
    memcpy(out, starts, np * sizeof *starts);
    free(starts);
    return np;
}

START_TEST(test_abrupt_change_exact)
{
    /* 2503 samples of category 0, then 2497 of category 1: windows of 5
     * samples, so the boundary falls inside a window and refinement must
     * put it on sample 2503 (0-based) exactly */
    static uint8_t cat[5000];
    for (size_t i = 0; i < 5000; i++)
        cat[i] = i < 2503 ? 0 : 1;
    size_t s[8];
    ck_assert_uint_eq(detect(cat, 5000, 2, NULL, 0, 0, s, 8), 2);
    ck_assert_uint_eq(s[0], 0);
    ck_assert_uint_eq(s[1], 2503);
    /* the same through stacks: samples of stacks 7 and 3, whose categories
     * are 0 and 1 */
    static ss_id idx[5000];
    static const uint8_t table[8] = {[7] = 0, [3] = 1};
    for (size_t i = 0; i < 5000; i++)
        idx[i] = i < 2503 ? 7 : 3;
    struct ss_phase_seq seq = {NULL, idx, table};
    struct ss_phase_opts o = {0, 0};
    size_t *starts, np;
    struct ss_error err;
    ck_assert_int_eq(ss_phases_detect(&seq, 5000, 2, NULL, 0, &o, &starts, &np, &err), 0);
    ck_assert_uint_eq(np, 2);
    ck_assert_uint_eq(starts[1], 2503);
    free(starts);
}
END_TEST

START_TEST(test_mix_change)
{
    /* the same three categories, 80/15/5 then 15/80/5, the change at 3117
     * of 6000: found within 1% (60 samples), and no other boundary, for
     * several seeds */
    static uint8_t cat[6000];
    const double a[3] = {0.8, 0.15, 0.05}, b[3] = {0.15, 0.8, 0.05};
    for (uint64_t seed = 1; seed <= 5; seed++) {
        rng_state = seed;
        for (size_t i = 0; i < 6000; i++)
            cat[i] = draw(i < 3117 ? a : b, 3);
        size_t s[8];
        ck_assert_uint_eq(detect(cat, 6000, 3, NULL, 0, 0, s, 8), 2);
        ck_assert_uint_le(s[1] > 3117 ? s[1] - 3117 : 3117 - s[1], 60);
    }
}
END_TEST

START_TEST(test_stationary_one_phase)
{
    /* one mix of five categories throughout, independent samples, then
     * the same with runs (each draw repeated 1-20 times): one phase */
    static uint8_t cat[20000];
    const double p[5] = {0.4, 0.3, 0.15, 0.1, 0.05};
    for (uint64_t seed = 11; seed <= 13; seed++) {
        rng_state = seed;
        for (size_t i = 0; i < 20000; i++)
            cat[i] = draw(p, 5);
        size_t s[8];
        ck_assert_uint_eq(detect(cat, 20000, 5, NULL, 0, 0, s, 8), 1);
        for (size_t i = 0; i < 20000;) {
            uint8_t c = draw(p, 5);
            size_t run = 1 + (size_t)(rng_unif() * 20);
            for (size_t k = 0; k < run && i < 20000; k++)
                cat[i++] = c;
        }
        ck_assert_uint_eq(detect(cat, 20000, 5, NULL, 0, 0, s, 8), 1);
    }
}
END_TEST

START_TEST(test_sources_and_short)
{
    /* one category throughout, sources starting at 300 and 995 of 1000:
     * every source boundary is a phase boundary, the last source (0.5%)
     * is a phase of its own; a break at 0 or past the end is none */
    static uint8_t cat[1000];
    memset(cat, 0, sizeof cat);
    size_t br[] = {0, 300, 995, 1000}, s[8];
    ck_assert_uint_eq(detect(cat, 1000, 1, br, 4, 0, s, 8), 3);
    ck_assert_uint_eq(s[1], 300);
    ck_assert_uint_eq(s[2], 995);
    /* a burst of 8 samples (0.8%, under 1%) is no phase of its own: at
     * most one of the 10 samples (1%) a phase has at least */
    for (size_t i = 500; i < 508; i++)
        cat[i] = 1;
    size_t np = detect(cat, 1000, 2, NULL, 0, 0, s, 8);
    for (size_t k = 0; k < np; k++)
        ck_assert_uint_ge((k + 1 < np ? s[k + 1] : 1000) - s[k], 10);
    /* 40 samples (4%) are */
    for (size_t i = 500; i < 540; i++)
        cat[i] = 1;
    ck_assert_uint_eq(detect(cat, 1000, 2, NULL, 0, 0, s, 8), 3);
    ck_assert_uint_eq(s[1], 500);
    ck_assert_uint_eq(s[2], 540);
}
END_TEST

START_TEST(test_exactly_n)
{
    /* 0 x 400, 1 x 100, 2 x 500: three phases find all three stretches,
     * one is the whole; a second source at 700 is a boundary of its own */
    static uint8_t cat[1000];
    for (size_t i = 0; i < 1000; i++)
        cat[i] = i < 400 ? 0 : i < 500 ? 1 : 2;
    size_t s[8];
    ck_assert_uint_eq(detect(cat, 1000, 3, NULL, 0, 3, s, 8), 3);
    ck_assert_uint_eq(s[1], 400);
    ck_assert_uint_eq(s[2], 500);
    ck_assert_uint_eq(detect(cat, 1000, 3, NULL, 0, 1, s, 8), 1);
    /* two phases: a cut at 400 leaves 100 x 1 with 500 x 2, costing
     * 600 H(1/6) = 270.4 nats; a cut at 500 leaves 400 x 0 with 100 x 1,
     * 500 H(1/5) = 250.2 nats (the other part pure either way): 500 wins */
    ck_assert_uint_eq(detect(cat, 1000, 3, NULL, 0, 2, s, 8), 2);
    ck_assert_uint_eq(s[1], 500);
    size_t br[] = {700};
    ck_assert_uint_eq(detect(cat, 1000, 3, br, 1, 2, s, 8), 2);
    ck_assert_uint_eq(s[1], 700);
    /* too many, or fewer than the sources */
    struct ss_phase_seq seq = {cat, NULL, NULL};
    struct ss_phase_opts o = {0, 0};
    size_t *starts, np;
    struct ss_error err;
    o.count = 50;
    ck_assert_int_eq(ss_phases_detect(&seq, 1000, 3, NULL, 0, &o, &starts, &np, &err), 0);
    for (size_t k = 0; k < np; k++) /* each at least 1% */
        ck_assert_uint_ge((k + 1 < np ? starts[k + 1] : 1000) - starts[k], 10);
    free(starts);
    ck_assert_uint_eq(np, 50);
    o.count = 101;
    ck_assert_int_eq(ss_phases_detect(&seq, 1000, 3, NULL, 0, &o, &starts, &np, &err), SS_EUSAGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "at most"));
    o.count = 1;
    ck_assert_int_eq(ss_phases_detect(&seq, 1000, 3, br, 1, &o, &starts, &np, &err), SS_EUSAGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "2 sources"));
}
END_TEST

START_TEST(test_penalty)
{
    /* a small change of mix (70/30 to 60/40: 10% of the mix) over 4000
     * independent samples: found at the default, not with penalty 2 (the
     * least difference doubles to 20%) */
    static uint8_t cat[4000];
    const double a[2] = {0.7, 0.3}, b[2] = {0.55, 0.45};
    rng_state = 7;
    for (size_t i = 0; i < 4000; i++)
        cat[i] = draw(i < 2000 ? a : b, 2);
    size_t s[8];
    ck_assert_uint_eq(detect(cat, 4000, 2, NULL, 0, 0, s, 8), 2);
    struct ss_phase_opts o = {2, 0};
    size_t *starts, np;
    struct ss_error err;
    struct ss_phase_seq seq = {cat, NULL, NULL};
    ck_assert_int_eq(ss_phases_detect(&seq, 4000, 2, NULL, 0, &o, &starts, &np, &err), 0);
    free(starts);
    ck_assert_uint_eq(np, 1);
}
END_TEST

START_TEST(test_ref)
{
    struct ss_phase_ref r;
    char buf[16];
    ck_assert_int_eq(ss_phase_ref_parse("main", 4, &r), 0);
    ck_assert_int_eq(r.which, SS_PHASE_MAIN);
    ck_assert_int_eq(ss_phase_ref_parse("12", 2, &r), 0);
    ck_assert_uint_eq(r.number, 12);
    ss_phase_ref_text(&r, buf, sizeof buf);
    ck_assert_str_eq(buf, "12");
    ck_assert_int_eq(ss_phase_ref_parse("0", 1, &r), -1);
    ck_assert_int_eq(ss_phase_ref_parse("", 0, &r), -1);
    ck_assert_int_eq(ss_phase_ref_parse("mains", 5, &r), -1);
    ck_assert_int_eq(ss_phase_ref_parse("-1", 2, &r), -1);
    /* phases of 10, 30, 30, 5 samples: main is the first of the longest */
    size_t st[] = {0, 10, 40, 70};
    ck_assert_int_eq(ss_phase_ref_parse("main", 4, &r), 0);
    ck_assert_uint_eq(ss_phase_ref_pick(&r, st, 4, 75), 1);
    ck_assert_int_eq(ss_phase_ref_parse("last", 4, &r), 0);
    ck_assert_uint_eq(ss_phase_ref_pick(&r, st, 4, 75), 3);
    ck_assert_int_eq(ss_phase_ref_parse("first", 5, &r), 0);
    ck_assert_uint_eq(ss_phase_ref_pick(&r, st, 4, 75), 0);
    ck_assert_int_eq(ss_phase_ref_parse("5", 1, &r), 0);
    ck_assert_uint_eq(ss_phase_ref_pick(&r, st, 4, 75), 4); /* none */
}
END_TEST

/* An Rprof profile of `a` samples of "work_a" then `b` of "work_b", each
 * under "run" "main" (the scaffold), 10 ms each, into buf. */
static size_t two_phase_prof(char *buf, size_t n, int a, int b)
{
    size_t k = (size_t)snprintf(buf, n, "sample.interval=10000\n");
    for (int i = 0; i < a + b; i++)
        k += (size_t)snprintf(buf + k, n - k, "\"%s\" \"run\" \"main\" \n",
                              i < a ? "work_a" : "work_b");
    return k;
}

START_TEST(test_model_phases)
{
    /* 60 samples of work_a then 140 of work_b: phases 1-60 and 61-200,
     * the main one the second, each told apart by its work function, time
     * = samples x 10 ms, signatures from level 3 (main, run: scaffold) */
    static char text[20000];
    size_t len = two_phase_prof(text, sizeof text, 60, 140);
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(fx_load(&m, &err, text, len, path, sizeof path), 0);
    struct ss_phases p;
    ck_assert_int_eq(ss_phases_compute(&m, NULL, &p, &err), 0);
    ck_assert_uint_eq(p.n, 2);
    ck_assert_uint_eq(p.level, 3);
    ck_assert_uint_eq(p.main, 1);
    ck_assert_uint_eq(p.v[0].first, 0);
    ck_assert_uint_eq(p.v[0].n, 60);
    ck_assert_uint_eq(p.v[1].first, 60);
    ck_assert_uint_eq(p.v[1].n, 140);
    ck_assert_uint_eq(p.v[1].count, 140);
    ck_assert_double_eq_tol(p.v[0].value, 0.6, 1e-12);
    ck_assert_double_eq_tol(p.value, 2.0, 1e-12);
    ck_assert_str_eq(ss_function_name(&m, p.v[0].top[0]), "work_a");
    ck_assert_double_eq_tol(p.v[0].top_share[0], 1.0, 1e-12);
    ck_assert_str_eq(ss_function_name(&m, p.v[1].top[0]), "work_b");
    ck_assert_uint_eq(ss_phases_find(&p, 59), 0);
    ck_assert_uint_eq(ss_phases_find(&p, 60), 1);
    ck_assert_uint_eq(ss_phases_find(&p, 200), 2);
    ss_phases_free(&p);

    /* keep-phase main, drop-phase first, keep-phase 1 phases=1: what each
     * resolves to, at its own step */
    struct ss_tf_list *l = ss_tf_list_new();
    ck_assert_int_eq(ss_tf_append(l, "keep-phase main", &err), 0);
    struct ss_model out;
    ck_assert_int_eq(ss_tf_apply(l, &m, &out, &err), 0);
    ck_assert_uint_eq(out.sample_stack.n, 140);
    const struct ss_tf_effect *e = ss_tf_effect(l, 0);
    ck_assert_uint_eq(e->range_first, 61);
    ck_assert_uint_eq(e->range_last, 200);
    ck_assert_uint_eq(e->phases_found, 2);
    ck_assert_uint_eq(e->phase_picked, 2);
    ss_model_free(&out);
    ck_assert_int_eq(ss_tf_change(l, 0, "drop-phase   first", &err), 0);
    ck_assert_str_eq(ss_tf_text(l, 0), "drop-phase first");
    ck_assert_int_eq(ss_tf_apply(l, &m, &out, &err), 0);
    ck_assert_uint_eq(out.sample_stack.n, 140);
    ss_model_free(&out);
    ck_assert_int_eq(ss_tf_change(l, 0, "keep-phase 1 phases=1", &err), 0);
    ck_assert_int_eq(ss_tf_apply(l, &m, &out, &err), 0);
    ck_assert_uint_eq(out.sample_stack.n, 200);
    ss_model_free(&out);
    /* a phase past the last: an error naming how many there are */
    ck_assert_int_eq(ss_tf_change(l, 0, "keep-phase 3", &err), 0);
    ck_assert_int_eq(ss_tf_apply(l, &m, &out, &err), SS_EUSAGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "2 phases"));
    /* the other side of a comparison of phases: the list, then one more */
    struct ss_tf_effect then;
    ck_assert_int_eq(ss_tf_change(l, 0, "trim-base 1", &err), 0);
    ck_assert_int_eq(ss_tf_apply_then(l, &m, "keep-phase first", 1, &out, &then, &err), 0);
    ck_assert_uint_eq(out.sample_stack.n, 60);
    ck_assert_uint_eq(then.range_last, 60);
    ss_model_free(&out);
    ck_assert_int_eq(ss_tf_apply_then(l, &m, "keep-phase x", 0, &out, &then, &err), SS_EUSAGE);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* samples of out, and the range the last step kept */
static size_t apply_n(struct ss_tf_list *l, const struct ss_model *m, size_t *first)
{
    struct ss_model out;
    struct ss_error err;
    ck_assert_int_eq(ss_tf_apply(l, m, &out, &err), 0);
    size_t n = out.sample_stack.n;
    *first = ss_tf_effect(l, ss_tf_count(l) - 1)->range_first;
    ss_model_free(&out);
    return n;
}

START_TEST(test_phase_hint)
{
    /* the explorer gives keep-phase the phases its timeline found
     * (ss_tf_list_hint_phases): the step takes them for one apply, only
     * when they are for its input.  A hint unlike the true phases (1-100,
     * 101-190 after drop-samples 1:10) shows when it is taken. */
    static char text[20000];
    size_t len = two_phase_prof(text, sizeof text, 60, 140);
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(fx_load(&m, &err, text, len, path, sizeof path), 0);
    struct ss_phase fake[2] = {{0, 100, 0, 0, {0}, {0}}, {100, 90, 0, 0, {0}, {0}}};
    struct ss_phases ph = {fake, 2, 0, 3, 2, 0};
    struct ss_tf_list *l = ss_tf_list_new();
    size_t first;
    ck_assert_int_eq(ss_tf_append(l, "drop-samples 1:10", &err), 0);
    ck_assert_int_eq(ss_tf_append(l, "keep-phase main", &err), 0);
    ck_assert_uint_eq(apply_n(l, &m, &first), 140); /* the true main: 61-200, 51-190 here */
    ck_assert_uint_eq(first, 51);
    ck_assert_int_eq(ss_tf_list_hint_phases(l, &ph), 0);
    ck_assert_uint_eq(apply_n(l, &m, &first), 100); /* taken */
    ck_assert_uint_eq(first, 1);
    ck_assert_uint_eq(apply_n(l, &m, &first), 140); /* once */
    /* not for a list changed since, another step's options, another input */
    ck_assert_int_eq(ss_tf_list_hint_phases(l, &ph), 0);
    ck_assert_int_eq(ss_tf_append(l, "keep-phase first", &err), 0);
    ck_assert_uint_eq(apply_n(l, &m, &first), 140); /* one phase left: all kept */
    ck_assert_int_eq(ss_tf_undo(l), 1);
    ck_assert_int_eq(ss_tf_change(l, 1, "keep-phase main penalty=1", &err), 0);
    ck_assert_int_eq(ss_tf_list_hint_phases(l, &ph), 0);
    ck_assert_uint_eq(apply_n(l, &m, &first), 140);
    ck_assert_int_eq(ss_tf_change(l, 1, "keep-phase main", &err), 0);
    fake[1].n = 100; /* 200 samples: the input before drop-samples */
    ck_assert_int_eq(ss_tf_list_hint_phases(l, &ph), 0);
    ck_assert_uint_eq(apply_n(l, &m, &first), 140);
    /* a comparison's base never takes it */
    fake[1].n = 90;
    ck_assert_int_eq(ss_tf_list_hint_phases(l, &ph), 0);
    struct ss_model out;
    ck_assert_int_eq(ss_tf_apply_base(l, &m, &out, &err), 0);
    ck_assert_uint_eq(out.sample_stack.n, 140);
    ss_model_free(&out);
    ss_tf_list_free(l); /* with the hint still held */
    ss_model_free(&m);
}
END_TEST

START_TEST(test_parse)
{
    struct ss_error err;
    ck_assert_int_eq(ss_tf_check("keep-phase main penalty=2.5", &err), 0);
    ck_assert_int_eq(ss_tf_check("drop-phase 2 phases=3", &err), 0);
    ck_assert_int_eq(ss_tf_check("keep-phase", &err), SS_EUSAGE);
    ck_assert_int_eq(ss_tf_check("keep-phase 0", &err), SS_EUSAGE);
    ck_assert_int_eq(ss_tf_check("keep-phase main phases=0", &err), SS_EUSAGE);
    ck_assert_int_eq(ss_tf_check("keep-phase main phases=2.5", &err), SS_EUSAGE);
    ck_assert_int_eq(ss_tf_check("keep-phase main penalty=0", &err), SS_EUSAGE);
    ck_assert_int_eq(ss_tf_check("keep-phase main phases=2 penalty=2", &err), SS_EUSAGE);
    ck_assert_int_eq(ss_tf_check("keep-phase main penalty=2 penalty=3", &err), SS_EUSAGE);
    ck_assert_int_eq(ss_tf_check("keep-phase main bogus=1", &err), SS_EUSAGE);
    struct ss_tf_list *l = ss_tf_list_new();
    ck_assert_int_eq(ss_tf_append(l, "keep-phase  last  penalty=0.50", &err), 0);
    ck_assert_str_eq(ss_tf_text(l, 0), "keep-phase last penalty=0.5");
    ss_tf_list_free(l);
    ck_assert_str_eq(ss_tf_preset("trim-burnin"), "keep-phase main\n");
    char buf[64];
    ck_assert_str_eq(ss_tf_preset_list(buf, sizeof buf), "r or trim-burnin");
    ck_assert_str_eq(ss_tf_preset_text("r", buf, sizeof buf),
                     "r-simplify, name-anonymous, trim-base auto");
}
END_TEST

Suite *phases_suite(void)
{
    Suite *s = suite_create("phases");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_abrupt_change_exact);
    tcase_add_test(tc, test_mix_change);
    tcase_add_test(tc, test_stationary_one_phase);
    tcase_add_test(tc, test_sources_and_short);
    tcase_add_test(tc, test_exactly_n);
    tcase_add_test(tc, test_penalty);
    tcase_add_test(tc, test_ref);
    tcase_add_test(tc, test_model_phases);
    tcase_add_test(tc, test_phase_hint);
    tcase_add_test(tc, test_parse);
    suite_add_tcase(s, tc);
    return s;
}
