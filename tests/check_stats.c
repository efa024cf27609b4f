/* check_stats.c - self/total counts and times, percentages, by-line keys,
 * memory and row orders (src/stats.h, stackscope(1), STATISTICS).
 *
 * Every expected value below was worked out by hand from the fixture above
 * it, following stackscope(1), STATISTICS and R's summaryRprof rules
 * (self, total, lines="show" and memory="both", as the man page states);
 * the comments show the sums. */
#include "check_suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "stats.h"
#include "transform.h"
#include "vec.h"
#include "load.h"

#define TOL 1e-12

/* The row named `key`, or fail. */
static const struct ss_stat_row *row(const struct ss_stats *st, const char *key)
{
    for (size_t i = 0; i < st->n; i++)
        if (strcmp(ss_strtab_get(&st->keys, st->rows[i].key), key) == 0)
            return &st->rows[i];
    ck_abort_msg("no row '%s'", key);
    return NULL;
}

static const char *row_name(const struct ss_stats *st, size_t i)
{
    return ss_strtab_get(&st->keys, st->rows[i].key);
}

static void check_row(const struct ss_stats *st, const char *key, uint64_t self_n, uint64_t total_n,
                      double self_t, double total_t)
{
    const struct ss_stat_row *r = row(st, key);
    ck_assert_msg(r->self_n == self_n, "%s: self_n %llu, want %llu", key,
                  (unsigned long long)r->self_n, (unsigned long long)self_n);
    ck_assert_msg(r->total_n == total_n, "%s: total_n %llu, want %llu", key,
                  (unsigned long long)r->total_n, (unsigned long long)total_n);
    ck_assert_double_eq_tol(r->self_v, self_t, TOL);
    ck_assert_double_eq_tol(r->total_v, total_t, TOL);
}

/* A report column's TSV cell as a number. */
static double column_value(const struct ss_stats *st, const struct ss_stat_row *r, const char *name)
{
    size_t n;
    const struct ss_col *cols = ss_stat_columns(SS_REPORT_SELF, st->has_memory, &n);
    for (size_t c = 0; c < n; c++)
        if (strcmp(cols[c].name, name) == 0) {
            char buf[64];
            struct ss_stat_ctx ctx = {st};
            cols[c].cell(buf, sizeof buf, &ctx, (size_t)(r - st->rows), 1);
            return strtod(buf, NULL);
        }
    ck_abort_msg("no column %s", name);
    return 0;
}

/* ---- by function ---------------------------------------------------------- */

/* Recursion: f appears 3 times in sample 1 but counts once there.
 *   s1: f f f g    s2: g    s3: f g    s4: h f g          (interval 0.02 s)
 * self:  f = s1, s3 = 2    g = s2 = 1    h = s4 = 1
 * total: f = s1, s3, s4 = 3 (not 5)    g = all 4    h = 1
 * times = counts x 0.02: f 0.04 / 0.06, g 0.02 / 0.08, h 0.02 / 0.02
 * sampling time = 4 x 0.02 = 0.08 */
static const char recursion_prof[] = "sample.interval=20000\n"
                                     "\"f\" \"f\" \"f\" \"g\" \n"
                                     "\"g\" \n"
                                     "\"f\" \"g\" \n"
                                     "\"h\" \"f\" \"g\" \n";

START_TEST(test_self_total_recursion)
{
    struct ss_model m;
    FX_LOAD_OK(&m, recursion_prof);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    ck_assert_uint_eq(st.n, 3);
    check_row(&st, "f", 2, 3, 0.04, 0.06);
    check_row(&st, "g", 1, 4, 0.02, 0.08);
    check_row(&st, "h", 1, 1, 0.02, 0.02);
    ck_assert_uint_eq(st.samples_total, 4);
    ck_assert_uint_eq(st.samples_counted, 4);
    ck_assert_double_eq_tol(st.value_total, 0.08, TOL);
    ck_assert_int_eq(st.has_memory, 0);
    /* pct = 100 x time / 0.08: f self 50, total 75; g self 25, total 100. */
    ck_assert_double_eq_tol(column_value(&st, row(&st, "f"), "self.pct"), 50.0, 1e-9);
    ck_assert_double_eq_tol(column_value(&st, row(&st, "f"), "total.pct"), 75.0, 1e-9);
    ck_assert_double_eq_tol(column_value(&st, row(&st, "g"), "self.pct"), 25.0, 1e-9);
    ck_assert_double_eq_tol(column_value(&st, row(&st, "g"), "total.pct"), 100.0, 1e-9);
    /* By self: f (0.04); g and h tie at 0.02, g first by total (0.08 > 0.02). */
    ss_stats_sort_self(&st);
    ck_assert_str_eq(row_name(&st, 0), "f");
    ck_assert_str_eq(row_name(&st, 1), "g");
    ck_assert_str_eq(row_name(&st, 2), "h");
    /* By total: g 0.08, f 0.06, h 0.02. */
    ss_stats_sort_total(&st);
    ck_assert_str_eq(row_name(&st, 0), "g");
    ck_assert_str_eq(row_name(&st, 1), "f");
    ck_assert_str_eq(row_name(&st, 2), "h");
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_report_tsv)
{
    /* The same numbers through `report --format tsv`, by self; written out by
     * hand from the sums above (%.15g of 0.04 is "0.04"). */
    struct ss_model m;
    FX_LOAD_OK(&m, recursion_prof);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(out);
    struct ss_report_opts o;
    memset(&o, 0, sizeof o);
    o.by = SS_REPORT_SELF;
    o.format = SS_FORMAT_TSV;
    struct ss_error err;
    ck_assert_int_eq(ss_report(out, &m, &o, &err), 0);
    fclose(out);
    ck_assert_str_eq(text, "name\tself.time\tself.pct\ttotal.time\ttotal.pct\n"
                           "f\t0.04\t50\t0.06\t75\n"
                           "g\t0.02\t25\t0.08\t100\n"
                           "h\t0.02\t25\t0.02\t25\n");
    free(text);
    ss_model_free(&m);
}
END_TEST

/* Two sessions with their own intervals: time = count x own interval.
 *   session 1 (0.02 s): a, a          session 2 (0.005 s): 4 x (b <- a)
 * a: self 2 x 0.02 = 0.04; total 0.04 + 4 x 0.005 = 0.06 (6 samples)
 * b: self = total = 4 x 0.005 = 0.02
 * sampling time 0.04 + 0.02 = 0.06
 * pct a self 100 x 0.04 / 0.06 = 66.67 (the count share would be 2/6 = 33.3),
 *     b self 33.33, a total 100. */
START_TEST(test_two_intervals)
{
    static const char prof[] = "sample.interval=20000\n"
                               "\"a\" \n"
                               "\"a\" \n"
                               "sample.interval=5000\n"
                               "\"b\" \"a\" \n"
                               "\"b\" \"a\" \n"
                               "\"b\" \"a\" \n"
                               "\"b\" \"a\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    ck_assert_uint_eq(st.n, 2);
    check_row(&st, "a", 2, 6, 0.04, 0.06);
    check_row(&st, "b", 4, 4, 0.02, 0.02);
    ck_assert_double_eq_tol(st.value_total, 0.06, TOL);
    ck_assert_uint_eq(st.samples_counted, 6);
    ck_assert_double_eq_tol(column_value(&st, row(&st, "a"), "self.pct"), 200.0 / 3.0, 1e-9);
    ck_assert_double_eq_tol(column_value(&st, row(&st, "b"), "self.pct"), 100.0 / 3.0, 1e-9);
    ck_assert_double_eq_tol(column_value(&st, row(&st, "a"), "total.pct"), 100.0, 1e-9);
    /* Sorted by self time, a (0.04) leads although b has more samples. */
    ss_stats_sort_self(&st);
    ck_assert_str_eq(row_name(&st, 0), "a");
    ck_assert_str_eq(row_name(&st, 1), "b");
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_tie_order)
{
    /* Five names, one sample each: all tie on self and total; then byte
     * order: "<GC>" 0x3c < "B" 0x42 < "_z" 0x5f < "a" 0x61 < "b" 0x62. */
    static const char prof[] = "sample.interval=20000\n"
                               "\"b\" \n\"_z\" \n\"a\" \n\"<GC>\" \n\"B\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    static const char *const want[5] = {"<GC>", "B", "_z", "a", "b"};
    ss_stats_sort_self(&st);
    for (int i = 0; i < 5; i++)
        ck_assert_str_eq(row_name(&st, (size_t)i), want[i]);
    ss_stats_sort_total(&st);
    for (int i = 0; i < 5; i++)
        ck_assert_str_eq(row_name(&st, (size_t)i), want[i]);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_tie_exact_time)
{
    /* Ties are exact: b has 3 samples x 100000 us, a 1 x 300000 us, both
     * 300000 us = 0.3 s of self time (in doubles 3 x 0.1 is
     * 0.30000000000000004 and 0.3 is 0.3, which must not break the tie).
     * Totals tie too, so the name decides: a before b. */
    static const char prof[] = "sample.interval=100000\n"
                               "\"b\" \n\"b\" \n\"b\" \n"
                               "sample.interval=300000\n"
                               "\"a\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    check_row(&st, "a", 1, 1, 0.3, 0.3);
    check_row(&st, "b", 3, 3, 0.3, 0.3);
    ss_stats_sort_self(&st);
    ck_assert_str_eq(row_name(&st, 0), "a");
    ck_assert_str_eq(row_name(&st, 1), "b");
    ss_stats_sort_total(&st);
    ck_assert_str_eq(row_name(&st, 0), "a");
    ck_assert_str_eq(row_name(&st, 1), "b");
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_counts_from_values)
{
    /* A model built directly, with a sample of count 3 (formats other than
     * Rprof carry counts): interval 10000 us = 0.01 s.
     *   sample 1: f, count 3      sample 2: g <- f, count 1
     * f: self 3, total 4 -> 0.03 / 0.04;  g: self 1, total 1 -> 0.01 / 0.01
     * sampling time 4 x 0.01 = 0.04 */
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    fx_source(&m, "test", "built", 0, 10000, 0);
    ss_id nf = ss_model_intern_cstr(&m, "f"), ng = ss_model_intern_cstr(&m, "g");
    ss_id lf = ss_model_location(&m, ss_model_function(&m, nf, nf, SS_NONE, 0), SS_NONE, 0);
    ss_id lg = ss_model_location(&m, ss_model_function(&m, ng, ng, SS_NONE, 0), SS_NONE, 0);
    ss_id s1 = ss_model_stack(&m, &lf, 1, SS_NONE);
    ss_id fr2[2] = {lg, lf};
    ss_id s2 = ss_model_stack(&m, fr2, 2, SS_NONE);
    int64_t three = 3;
    ck_assert_int_eq(ss_model_add_sample(&m, s1, &three), 0);
    ck_assert_int_eq(ss_model_add_sample(&m, s2, NULL), 0);
    ss_model_seal(&m);
    struct ss_stats st;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    check_row(&st, "f", 3, 4, 0.03, 0.04);
    check_row(&st, "g", 1, 1, 0.01, 0.01);
    ck_assert_double_eq_tol(st.value_total, 0.04, TOL);
    ck_assert_uint_eq(st.samples_counted, 4);
    ck_assert_uint_eq(st.samples_total, 2);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

/* ---- memory ------------------------------------------------------------------ */

/* memory="both": bytes = 8 dsmall + 8 dbig + dnodes, each difference
 * clamped at 0, the first sample of a session 0; the empty sample s4 takes
 * part in the differencing but is credited to nobody.
 *          small  big  nodes   stack       bytes
 *   s1     1000   500  20000   b           0 (first)
 *   s2     1010   500  20500   a a b       8x10 + 0 + 500              = 580
 *   s3     1005   520  20400   b           0 (-5) + 8x20 + 0 (-100)    = 160
 *   s4     1050   520  20400   (empty)     8x45                        = 360
 *   s5     1100   600  21000   c a         8x50 + 8x80 + 600           = 1640
 * (s5 against s3 instead of s4 would give 8x95 + 640 + 600 = 2000.)
 * a = 580 (once, although a occurs twice in s2) + 1640 = 2220
 * b = 0 + 580 + 160 = 740;   c = 1640
 * counts: self b 2 (s1, s3), a 1, c 1; total a 2, b 3, c 1; interval 0.01:
 * sampling time = 4 counted samples x 0.01 = 0.04 (s4 not counted). */
static const char memory_prof[] = "memory profiling: sample.interval=10000\n"
                                  ":1000:500:20000:0:\"b\" \n"
                                  ":1010:500:20500:1:\"a\" \"a\" \"b\" \n"
                                  ":1005:520:20400:0:\"b\" \n"
                                  ":1050:520:20400:0:\n"
                                  ":1100:600:21000:0:\"c\" \"a\" \n";

START_TEST(test_memory_bytes)
{
    struct ss_model m;
    FX_LOAD_OK(&m, memory_prof);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 1, &st, &err), 0);
    ck_assert_int_eq(st.has_memory, 1);
    ck_assert_uint_eq(st.n, 3);
    check_row(&st, "a", 1, 2, 0.01, 0.02);
    check_row(&st, "b", 2, 3, 0.02, 0.03);
    check_row(&st, "c", 1, 1, 0.01, 0.01);
    ck_assert_double_eq_tol(row(&st, "a")->mem_bytes, 2220.0, 1e-9);
    ck_assert_double_eq_tol(row(&st, "b")->mem_bytes, 740.0, 1e-9);
    ck_assert_double_eq_tol(row(&st, "c")->mem_bytes, 1640.0, 1e-9);
    ck_assert_uint_eq(st.samples_total, 5);
    ck_assert_uint_eq(st.samples_counted, 4);
    ck_assert_double_eq_tol(st.value_total, 0.04, TOL);
    /* mem.total in MB of 1048576 bytes: a = 2220 / 1048576. */
    ck_assert_double_eq_tol(column_value(&st, row(&st, "a"), "mem.total"), 2220.0 / 1048576.0,
                            1e-15);
    /* pct over 0.04: b self 0.02 -> 50, b total 0.03 -> 75. */
    ck_assert_double_eq_tol(column_value(&st, row(&st, "b"), "self.pct"), 50.0, 1e-9);
    ck_assert_double_eq_tol(column_value(&st, row(&st, "b"), "total.pct"), 75.0, 1e-9);
    /* By self: b 0.02; a and c tie at 0.01, a first by total (0.02 > 0.01). */
    ss_stats_sort_self(&st);
    ck_assert_str_eq(row_name(&st, 0), "b");
    ck_assert_str_eq(row_name(&st, 1), "a");
    ck_assert_str_eq(row_name(&st, 2), "c");
    ss_stats_free(&st);

    /* Without memory=1 the bytes are not computed. */
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    ck_assert_int_eq(st.has_memory, 0);
    ck_assert_double_exact(row(&st, "a")->mem_bytes, 0.0);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

/* Every session restarts the differencing:
 *   session 1 (plain):   p                        p: no memory, 0
 *   session 2 (memory):  a :100:100:1000  -> 0 (first)
 *                        a :200:100:1000  -> 8x100 = 800        a = 800
 *   session 3 (memory):  b :300:100:1000  -> 0 (first of its session; against
 *                                            the previous line it would be 800)
 *                        b :310:100:1000  -> 8x10 = 80          b = 80 */
START_TEST(test_memory_per_session)
{
    static const char prof[] = "sample.interval=10000\n"
                               "\"p\" \n"
                               "memory profiling: sample.interval=10000\n"
                               ":100:100:1000:0:\"a\" \n"
                               ":200:100:1000:0:\"a\" \n"
                               "memory profiling: sample.interval=10000\n"
                               ":300:100:1000:0:\"b\" \n"
                               ":310:100:1000:0:\"b\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 1, &st, &err), 0);
    ck_assert_double_eq_tol(row(&st, "p")->mem_bytes, 0.0, 1e-9);
    ck_assert_double_eq_tol(row(&st, "a")->mem_bytes, 800.0, 1e-9);
    ck_assert_double_eq_tol(row(&st, "b")->mem_bytes, 80.0, 1e-9);
    /* 5 samples x 0.01 */
    ck_assert_double_eq_tol(st.value_total, 0.05, TOL);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

/* The memory measures' weights kept in 32 bits, in an array from a spare
 * that holds garbage: a plain session of N samples (weight 0), then a
 * memory session of N whose small_v grows by i % 7 cells and big_v falls
 * by i % 3 from the one before: memory 8 x (i % 7), released 8 x (i % 3)
 * less the growth when positive.  N x 4 bytes is over SS_SPARE_MIN, so
 * the spare's array is taken.  Then one weight past 2^32 bytes: a column
 * of 64 bits, the same numbers as without a spare. */
START_TEST(test_memory_weights_32)
{
    enum { N = 20000 };
    size_t cap = 3 * N * 64 + 256, k = 0;
    char *txt = malloc(cap);
    ck_assert_ptr_nonnull(txt);
    k += (size_t)snprintf(txt + k, cap - k, "sample.interval=10000\n");
    for (int i = 0; i < N; i++)
        k += (size_t)snprintf(txt + k, cap - k, "\"p\" \n");
    k += (size_t)snprintf(txt + k, cap - k, "memory profiling: sample.interval=10000\n");
    long long sv = 1000, bv = 1000000;
    for (int i = 0; i < N; i++) {
        if (i) {
            sv += i % 7;
            bv -= i % 3;
        }
        k += (size_t)snprintf(txt + k, cap - k, ":%lld:%lld:5000:0:\"m\" \n", sv, bv);
    }
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(fx_load(&m, &err, txt, k, path, sizeof path), 0);
    free(txt);
    for (int rel = 0; rel <= 1; rel++) {
        struct ss_spare spare;
        memset(&spare, 0, sizeof spare);
        void *junk = malloc(2 * N * sizeof(uint32_t));
        ck_assert_ptr_nonnull(junk);
        memset(junk, 0xa5, 2 * N * sizeof(uint32_t));
        ss_spare_give(&spare, junk, 2 * N * sizeof(uint32_t));
        const char *ms = rel ? "released" : "memory";
        ck_assert_int_eq(ss_model_set_measure_spare(&m, ms, NULL, &spare, &err), 0);
        ck_assert_ptr_nonnull(m.weights.col32);
        ck_assert_ptr_null(m.weights.col);
        ck_assert_ptr_eq(m.weights.col32, junk); /* the spare's array */
        for (size_t i = 0; i < 2 * (size_t)N; i++) {
            long long j = (long long)i - N, want = 0;
            if (j > 0)
                want = rel ? (j % 3 > j % 7 ? 8 * (j % 3 - j % 7) : 0) : 8 * (j % 7);
            ck_assert_msg(ss_sample_weight(&m, i) == want, "%s sample %zu: %lld, want %lld", ms, i,
                          (long long)ss_sample_weight(&m, i), want);
        }
        ck_assert_int_eq(ss_model_set_measure(&m, "time", &err), 0);
        ss_model_forget_derived(&m, &spare); /* the array back to the spare */
        ck_assert_ptr_eq(spare.p[0] ? spare.p[0] : spare.p[1], junk);
        ss_spare_free(&spare);
    }
    ss_model_free(&m);

    /* 2^30 cells more: 2^33 bytes in one sample, past 32 bits */
    static const char big[] = "memory profiling: sample.interval=10000\n"
                              ":100:0:0:0:\"a\" \n"
                              ":1073741924:0:0:0:\"b\" \n"
                              ":1073741925:0:0:0:\"b\" \n";
    FX_LOAD_OK(&m, big);
    ck_assert_int_eq(ss_model_set_measure(&m, "memory", &err), 0);
    ck_assert_ptr_nonnull(m.weights.col);
    ck_assert_ptr_null(m.weights.col32);
    ck_assert_int_eq(ss_sample_weight(&m, 0), 0);
    ck_assert_int_eq(ss_sample_weight(&m, 1), (int64_t)8 << 30);
    ck_assert_int_eq(ss_sample_weight(&m, 2), 8);
    ss_model_free(&m);
}
END_TEST

/* ---- by line ------------------------------------------------------------------ */

/* R's lines="show": keys are positions; self = the first position token of
 * the line, total = each distinct position once; no position at all gives
 * "<no location>".  File 3 is undeclared (NA).
 *   s1: 1#3 "f" 1#7 "g"          positions 3, 7        self a.R#3
 *   s2: 1#3 "f" 1#7 "g" 1#9      3, 7, 9               self a.R#3
 *   s3: "f" 1#7 "g"              7                     self a.R#7
 *   s4: "h" "g"                  none                  self <no location>
 *   s5: 3#5 "k" 1#10 "g"         NA#5, 10              self NA#5
 *   s6: 1#3 "f" 1#3 "f"          3 (twice, once)       self a.R#3
 * a.R#3: self 3 (s1 s2 s6), total 3      a.R#7: self 1 (s3), total 3 (s1 s2 s3)
 * a.R#9: 0 / 1    a.R#10: 0 / 1    NA#5: 1 / 1    <no location>: 1 / 1
 * By function: f self 4 (s1 s2 s3 s6) total 4; g self 0 total 5 (s1-s5);
 * h 1 / 1; k 1 / 1.  Interval 0.02, sampling time 6 x 0.02 = 0.12. */
static const char line_prof[] = "line profiling: sample.interval=20000\n"
                                "#File 1: /p/a.R\n"
                                "1#3 \"f\" 1#7 \"g\" \n"
                                "1#3 \"f\" 1#7 \"g\" 1#9 \n"
                                "\"f\" 1#7 \"g\" \n"
                                "\"h\" \"g\" \n"
                                "3#5 \"k\" 1#10 \"g\" \n"
                                "1#3 \"f\" 1#3 \"f\" \n";

START_TEST(test_by_line)
{
    struct ss_model m;
    FX_LOAD_OK(&m, line_prof);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_LINE, 0, &st, &err), 0);
    ck_assert_uint_eq(st.n, 6);
    check_row(&st, "a.R#3", 3, 3, 0.06, 0.06);
    check_row(&st, "a.R#7", 1, 3, 0.02, 0.06);
    check_row(&st, "a.R#9", 0, 1, 0.0, 0.02);
    check_row(&st, "a.R#10", 0, 1, 0.0, 0.02);
    check_row(&st, "NA#5", 1, 1, 0.02, 0.02);
    check_row(&st, "<no location>", 1, 1, 0.02, 0.02);
    ck_assert_uint_eq(row(&st, "a.R#10")->line, 10);
    ck_assert_uint_eq(row(&st, "NA#5")->line, 5);
    ck_assert_uint_eq(st.samples_counted, 6);
    ck_assert_double_eq_tol(st.value_total, 0.12, TOL);
    /* By line: file then line number (9 before 10, numerically); "NA" sorts
     * before "a.R" in byte order.  (Where "<no location>" goes is not
     * pinned here.) */
    ss_stats_sort_line(&st);
    size_t at[5];
    static const char *const order[5] = {"NA#5", "a.R#3", "a.R#7", "a.R#9", "a.R#10"};
    for (int k = 0; k < 5; k++) {
        at[k] = st.n;
        for (size_t i = 0; i < st.n; i++)
            if (strcmp(row_name(&st, i), order[k]) == 0)
                at[k] = i;
        ck_assert_uint_lt(at[k], st.n);
        if (k)
            ck_assert_msg(at[k - 1] < at[k], "%s should come before %s", order[k - 1], order[k]);
    }
    ss_stats_free(&st);

    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    ck_assert_uint_eq(st.n, 4);
    check_row(&st, "f", 4, 4, 0.08, 0.08);
    check_row(&st, "g", 0, 5, 0.0, 0.10);
    check_row(&st, "h", 1, 1, 0.02, 0.02);
    check_row(&st, "k", 1, 1, 0.02, 0.02);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_location_only)
{
    /* (R's edge case location_only_line, worked by hand)
     *   s1: 1#3 "f" 1#7     positions 3, 7   self a.R#3    function f
     *   s2: 1#9             position 9       self a.R#9    no frame
     * by line: a.R#3 1/1, a.R#7 0/1, a.R#9 1/1; 2 samples, 0.04 s.
     * By function s2 has no frames, so it is not counted (stats.h; the man
     * page notes that R would count it as "<no location>"): f 1/1 only,
     * 1 sample, 0.02 s. */
    static const char prof[] = "line profiling: sample.interval=20000\n"
                               "#File 1: /p/a.R\n"
                               "1#3 \"f\" 1#7 \n"
                               "1#9 \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_LINE, 0, &st, &err), 0);
    ck_assert_uint_eq(st.n, 3);
    check_row(&st, "a.R#3", 1, 1, 0.02, 0.02);
    check_row(&st, "a.R#7", 0, 1, 0.0, 0.02);
    check_row(&st, "a.R#9", 1, 1, 0.02, 0.02);
    ck_assert_double_eq_tol(st.value_total, 0.04, TOL);
    ss_stats_free(&st);
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    ck_assert_uint_eq(st.n, 1);
    check_row(&st, "f", 1, 1, 0.02, 0.02);
    ck_assert_uint_eq(st.samples_counted, 1);
    ck_assert_uint_eq(st.samples_total, 2);
    ck_assert_double_eq_tol(st.value_total, 0.02, TOL);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_line_memory)
{
    /* Memory by line, credited once per distinct key:
     *   s1 :100:0:0:0: 1#2 "f"            -> 0 (first)
     *   s2 :110:0:0:0: 1#2 "f" 1#2 "f"    -> 8x10 = 80, a.R#2 once
     *   s3 :110:0:50:0: "g"               -> 50, <no location>
     * a.R#2 = 80, <no location> = 50. */
    static const char prof[] = "memory profiling: line profiling: sample.interval=20000\n"
                               "#File 1: /p/a.R\n"
                               ":100:0:0:0:1#2 \"f\" \n"
                               ":110:0:0:0:1#2 \"f\" 1#2 \"f\" \n"
                               ":110:0:50:0:\"g\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_LINE, 1, &st, &err), 0);
    ck_assert_uint_eq(st.n, 2);
    check_row(&st, "a.R#2", 2, 2, 0.04, 0.04);
    check_row(&st, "<no location>", 1, 1, 0.02, 0.02);
    ck_assert_double_eq_tol(row(&st, "a.R#2")->mem_bytes, 80.0, 1e-9);
    ck_assert_double_eq_tol(row(&st, "<no location>")->mem_bytes, 50.0, 1e-9);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_basename)
{
    /* R: basename("/p/a.R") "a.R", basename("a.R") "a.R",
     * basename("/p/dir/") "dir", basename("") "". */
    static const char *const in[4] = {"/p/a.R", "a.R", "/p/dir/", ""};
    static const char *const want[4] = {"a.R", "a.R", "dir", ""};
    for (int i = 0; i < 4; i++) {
        const char *s;
        size_t n;
        ss_basename(in[i], &s, &n);
        ck_assert_uint_eq(n, strlen(want[i]));
        ck_assert_int_eq(memcmp(s, want[i], n), 0);
    }
}
END_TEST

START_TEST(test_empty_path_key)
{
    /* An empty `#File` path gives keys like "#3" (R: basename("") is ""). */
    struct ss_model m;
    FX_LOAD_OK(&m, "line profiling: sample.interval=20000\n#File 1: \n1#3 \"f\" \n");
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_LINE, 0, &st, &err), 0);
    ck_assert_uint_eq(st.n, 1);
    check_row(&st, "#3", 1, 1, 0.02, 0.02);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_no_samples)
{
    /* A header-only file: no rows, no time; sorting an empty table is fine. */
    struct ss_model m;
    FX_LOAD_OK(&m, "sample.interval=20000\n");
    struct ss_stats st;
    struct ss_error err;
    for (int by = 0; by < 2; by++) {
        ck_assert_int_eq(ss_stats_compute(&m, by ? SS_BY_LINE : SS_BY_FUNCTION, 1, &st, &err), 0);
        ck_assert_uint_eq(st.n, 0);
        ck_assert_uint_eq(st.samples_total, 0);
        ck_assert_uint_eq(st.samples_counted, 0);
        ck_assert_double_exact(st.value_total, 0.0);
        ss_stats_sort_self(&st);
        ss_stats_sort_total(&st);
        ss_stats_sort_line(&st);
        ss_stats_free(&st);
    }
    ss_model_free(&m);

    /* Only empty-stack samples: 2 samples in the timeline, none counted. */
    FX_LOAD_OK(&m, "memory profiling: sample.interval=20000\n:1:2:3:0:\n:5:6:7:0:\n");
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 1, &st, &err), 0);
    ck_assert_uint_eq(st.n, 0);
    ck_assert_uint_eq(st.samples_total, 2);
    ck_assert_uint_eq(st.samples_counted, 0);
    ck_assert_double_exact(st.value_total, 0.0);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

/* ---- the header's totals ----------------------------------------------------- */

/* ss_stats_compute's totals (the report's header, from the same pass) are
 * ss_model_totals's to the last bit: on real profiles of every kind (Rprof
 * sessions and empty samples, pprof, SamplingProf's aggregate counts),
 * under each measure they have, keyed by function and by line, and after a
 * transform that removes samples.  By hand on recursion_prof: 4 samples,
 * all with frames, 0.08 s. */
static void same_totals(const struct ss_model *m, const char *what)
{
    struct ss_totals t;
    ss_model_totals(m, &t);
    for (int by = 0; by < 2; by++) {
        struct ss_stats st;
        struct ss_error err;
        ck_assert_int_eq(ss_stats_compute(m, by ? SS_BY_LINE : SS_BY_FUNCTION, 0, &st, &err), 0);
        const struct ss_totals *u = &st.totals;
        ck_assert_msg(u->samples == t.samples && u->counted == t.counted &&
                          u->agg_samples == t.agg_samples && u->rows == t.rows,
                      "%s: samples %llu/%llu counted %llu/%llu", what,
                      (unsigned long long)u->samples, (unsigned long long)t.samples,
                      (unsigned long long)u->counted, (unsigned long long)t.counted);
        ck_assert_msg(memcmp(&u->sampling_time, &t.sampling_time, sizeof t.sampling_time) == 0 &&
                          memcmp(&u->value, &t.value, sizeof t.value) == 0 &&
                          memcmp(&u->agg_time, &t.agg_time, sizeof t.agg_time) == 0 &&
                          memcmp(&u->agg_value, &t.agg_value, sizeof t.agg_value) == 0,
                      "%s: time %.17g/%.17g value %.17g/%.17g", what, u->sampling_time,
                      t.sampling_time, u->value, t.value);
        ss_stats_free(&st);
    }
}

START_TEST(test_header_totals)
{
    struct ss_model m;
    struct ss_error err;
    FX_LOAD_OK(&m, recursion_prof);
    struct ss_stats st;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    ck_assert_uint_eq(st.totals.samples, 4);
    ck_assert_uint_eq(st.totals.counted, 4);
    ck_assert_double_eq_tol(st.totals.sampling_time, 0.08, TOL);
    ss_stats_free(&st);
    same_totals(&m, "recursion_prof");
    ss_model_free(&m);
    static const char *const files[] = {
        "tests/data/rprof/memory_line.out",
        "tests/data/rprof/append_mixed_flags.out",
        "tests/data/rprof/append_two_sessions.out",
        "tests/data/edge-cases/memory_stackless.out",
        "tests/data/edge-cases/blank_line_memory.out",
        "tests/data/pprof/go/cpu.pb.gz",
        "tests/data/pprof/go/heap.pb.gz",
        "tests/data/sampling_prof/ruby_workload.txt",
        "data/demo.out",
    };
    static const char *const measures[] = {"time",     "samples",     "memory",
                                           "released", "alloc_space", "inuse_space"};
    for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
        const char *sd = getenv("SRCDIR");
        char path[4096], what[4200];
        snprintf(path, sizeof path, "%s/%s", sd && *sd ? sd : ".", files[i]);
        char *p[1] = {path};
        ck_assert_msg(ss_load_files(&m, p, 1, NULL, &err) == 0, "%s: %s", files[i], err.msg);
        for (size_t k = 0; k < ARRAY_SIZE(measures); k++) {
            if (ss_model_set_measure(&m, measures[k], &err))
                continue; /* the profile lacks it */
            snprintf(what, sizeof what, "%s, %s", files[i], measures[k]);
            same_totals(&m, what);
            struct ss_tf_list *l = ss_tf_list_new();
            ck_assert_ptr_nonnull(l);
            ck_assert_int_eq(ss_tf_append(l, "drop-samples 2:3", &err), 0);
            struct ss_model t;
            ck_assert_int_eq(ss_tf_apply(l, &m, &t, &err), 0);
            snprintf(what, sizeof what, "%s, %s, drop-samples 2:3", files[i], measures[k]);
            same_totals(&t, what);
            ss_model_free(&t);
            ss_tf_list_free(l);
        }
        ss_model_free(&m);
    }
}
END_TEST

Suite *stats_suite(void)
{
    Suite *s = suite_create("stats");
    TCase *tc = tcase_create("function");
    tcase_add_test(tc, test_self_total_recursion);
    tcase_add_test(tc, test_report_tsv);
    tcase_add_test(tc, test_two_intervals);
    tcase_add_test(tc, test_tie_order);
    tcase_add_test(tc, test_tie_exact_time);
    tcase_add_test(tc, test_counts_from_values);
    tcase_add_test(tc, test_no_samples);
    tcase_add_test(tc, test_header_totals);
    suite_add_tcase(s, tc);
    tc = tcase_create("memory");
    tcase_add_test(tc, test_memory_bytes);
    tcase_add_test(tc, test_memory_per_session);
    tcase_add_test(tc, test_memory_weights_32);
    suite_add_tcase(s, tc);
    tc = tcase_create("line");
    tcase_add_test(tc, test_by_line);
    tcase_add_test(tc, test_location_only);
    tcase_add_test(tc, test_line_memory);
    tcase_add_test(tc, test_basename);
    tcase_add_test(tc, test_empty_path_key);
    suite_add_tcase(s, tc);
    return s;
}
