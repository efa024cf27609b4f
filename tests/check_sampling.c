/* check_sampling.c - the SamplingProf reader (src/load_sampling.c), its
 * statistics and callers/callees (src/stats.c, src/tree.c) and the writer
 * (src/write_sampling.c) on tiny hand-written files.
 *
 * Each fixture's comment lists the stacks it stands for; the counts, edges
 * and times expected below were worked out by hand from them with the gem's
 * rules (per sample: self for the leaf element, total once per distinct
 * element, one count per distinct caller -> callee pair from the root -1). */
#include "check_suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_sampling.h"
#include "stats.h"
#include "tree.h"
#include "write.h"

#define TOL 1e-12

/* Element ids 0-5, four samples, runtime 100 ms (so 25 ms per sample):
 *   s1: foo loop block a,b            (root first; leaf a,b)
 *   s2: foo loop block baz
 *   s3: foo loop block baz baz        (the same element twice)
 *   s4: foo loop block baz lm
 * self: a,b 1, baz 2 (s2, s3), lm 1; total: foo, loop, block 4, a,b 1,
 * baz 3, lm 1.  Edges: -1->0 4, 0->1 4, 1->2 4, 2->3 1, 2->4 3, 4->4 1
 * (once in s3), 4->5 1.  Paths with colons, a method with a comma and with
 * "::", an element without file and line. */
static const char odd_prof[] = "100\n"
                               "\n"
                               "C:/x.rb:5:foo,0\n"
                               "<internal:kernel>:187:loop,1\n"
                               "a.rb:3:block in <main>,2\n"
                               "x.rb:7:a,b,3\n"
                               "x.rb:7:Foo::Bar#baz,4\n"
                               ":0:lm,5\n"
                               "\n"
                               "0,0,4\n"
                               "1,0,4\n"
                               "2,0,4\n"
                               "3,1,1\n"
                               "4,2,3\n"
                               "5,1,1\n"
                               "\n"
                               "-1,0,4\n"
                               "0,1,4\n"
                               "1,2,4\n"
                               "2,3,1\n"
                               "2,4,3\n"
                               "4,4,1\n"
                               "4,5,1\n";

static void check_loc(const struct ss_model *m, ss_id loc, const char *file, uint32_t line,
                      const char *method)
{
    const char *f = fx_loc_file(m, loc);
    if (file)
        ck_assert_msg(f && !strcmp(f, file), "location %u: file %s, want %s", loc, f ? f : "(none)",
                      file);
    else
        ck_assert_msg(!f, "location %u: file %s, want none", loc, f);
    ck_assert_uint_eq(m->locations.v[loc].line, line);
    ck_assert_str_eq(fx_loc_name(m, loc), method);
    /* the function carries the file too */
    ss_id fn = m->locations.v[loc].function;
    ck_assert_uint_eq(m->functions.v[fn].filename, m->locations.v[loc].file);
}

START_TEST(test_parse)
{
    struct ss_model m;
    FX_LOAD_OK(&m, odd_prof);
    ck_assert_uint_eq(m.sources.n, 1);
    const struct ss_source *s = &m.sources.v[0];
    ck_assert_str_eq(ss_str(&m, s->type), "sampling_prof");
    ck_assert_uint_eq(s->flags, SS_SRC_AGGREGATE);
    ck_assert_uint_eq(s->n_samples, 0);
    ck_assert_uint_eq(m.sample_stack.n, 0);
    ck_assert_double_eq_tol(s->interval_us, 25000.0, 1e-9); /* 100 ms / 4 samples */
    ck_assert_uint_eq(ss_agg_samples(&m, 0), 4);
    ck_assert(ss_model_has_aggregates(&m));
    ck_assert(!ss_model_has_stack_sources(&m));
    ck_assert_uint_eq(m.warnings.n, 0);

    ck_assert_uint_eq(m.aggs.n, 6);
    static const int64_t self[] = {0, 0, 0, 1, 2, 1}, total[] = {4, 4, 4, 1, 3, 1};
    ss_id loc[6];
    for (int i = 0; i < 6; i++) {
        ck_assert_uint_eq(m.aggs.v[i].source, 0);
        ck_assert_int_eq(m.aggs.v[i].self, self[i]);
        ck_assert_int_eq(m.aggs.v[i].total, total[i]);
        loc[i] = m.aggs.v[i].location;
    }
    check_loc(&m, loc[0], "C:/x.rb", 5, "foo");
    check_loc(&m, loc[1], "<internal:kernel>", 187, "loop");
    check_loc(&m, loc[2], "a.rb", 3, "block in <main>");
    check_loc(&m, loc[3], "x.rb", 7, "a,b");
    check_loc(&m, loc[4], "x.rb", 7, "Foo::Bar#baz");
    check_loc(&m, loc[5], NULL, 0, "lm");

    ck_assert_uint_eq(m.edges.n, 7);
    static const int from[] = {-1, 0, 1, 2, 2, 4, 4}, to[] = {0, 1, 2, 3, 4, 4, 5};
    static const int64_t cnt[] = {4, 4, 4, 1, 3, 1, 1};
    for (int i = 0; i < 7; i++) {
        const struct ss_agg_edge *e = &m.edges.v[i];
        ck_assert_uint_eq(e->caller, from[i] < 0 ? SS_NONE : loc[from[i]]);
        ck_assert_uint_eq(e->callee, loc[to[i]]);
        ck_assert_int_eq(e->count, cnt[i]);
    }
    ck_assert_uint_eq(m.meta.n, 1);
    ck_assert_str_eq(ss_str(&m, m.meta.v[0].key), "runtime_ms");
    ck_assert_str_eq(ss_str(&m, m.meta.v[0].value), "100");
    ss_model_free(&m);
}
END_TEST

/* f has two elements (lines 1 and 2) in every sample; runtime 30 ms, three
 * samples, so 10 ms each:
 *   s1, s2: f@1 f@2          s3: f@1 f@2 g
 * self: f@2 2, g 1; total: f@1 3, f@2 3, g 1.  By function f's total is
 * 3 + 3 = 6, capped at the 3 samples; self 2.  CRLF line ends. */
static const char twice_prof[] = "30\r\n\r\n"
                                 "f.rb:1:f,0\r\nf.rb:2:f,1\r\ng.rb:1:g,2\r\n\r\n"
                                 "0,0,3\r\n1,2,3\r\n2,1,1\r\n\r\n"
                                 "-1,0,3\r\n0,1,3\r\n1,2,1\r\n";

static const struct ss_stat_row *row(const struct ss_stats *st, const char *key)
{
    for (size_t i = 0; i < st->n; i++)
        if (!strcmp(ss_strtab_get(&st->keys, st->rows[i].key), key))
            return &st->rows[i];
    ck_abort_msg("no row '%s'", key);
    return NULL;
}

static void check_row(const struct ss_stats *st, const char *key, uint64_t self_n, uint64_t total_n,
                      double self_t, double total_t)
{
    const struct ss_stat_row *r = row(st, key);
    ck_assert_msg(r->self_n == self_n && r->total_n == total_n, "%s: %llu/%llu, want %llu/%llu",
                  key, (unsigned long long)r->self_n, (unsigned long long)r->total_n,
                  (unsigned long long)self_n, (unsigned long long)total_n);
    ck_assert_double_eq_tol(r->self_v, self_t, TOL);
    ck_assert_double_eq_tol(r->total_v, total_t, TOL);
}

START_TEST(test_stats)
{
    struct ss_model m;
    struct ss_stats st;
    struct ss_error err;
    FX_LOAD_OK(&m, twice_prof);
    ck_assert_double_eq_tol(m.sources.v[0].interval_us, 10000.0, 1e-9);
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    ck_assert_uint_eq(st.n, 2);
    check_row(&st, "f", 2, 3, 0.02, 0.03);
    check_row(&st, "g", 1, 1, 0.01, 0.01);
    ck_assert_uint_eq(st.samples_counted, 3);
    ck_assert_uint_eq(st.agg_samples, 3);
    ck_assert_double_eq_tol(st.value_total, 0.03, TOL);
    ck_assert_double_eq_tol(st.agg_value, 0.03, TOL);
    ss_stats_free(&st);

    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_LINE, 0, &st, &err), 0);
    ck_assert_uint_eq(st.n, 3);
    check_row(&st, "f.rb#1", 0, 3, 0, 0.03);
    check_row(&st, "f.rb#2", 2, 3, 0.02, 0.03);
    check_row(&st, "g.rb#1", 1, 1, 0.01, 0.01);
    ss_stats_free(&st);

    /* the same on odd_prof (25 ms per sample): baz 2/3, foo 0/4 */
    ss_model_free(&m);
    FX_LOAD_OK(&m, odd_prof);
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_FUNCTION, 0, &st, &err), 0);
    ck_assert_uint_eq(st.n, 6);
    check_row(&st, "Foo::Bar#baz", 2, 3, 0.05, 0.075);
    check_row(&st, "foo", 0, 4, 0, 0.1);
    check_row(&st, "a,b", 1, 1, 0.025, 0.025);
    check_row(&st, "lm", 1, 1, 0.025, 0.025);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

/* Callers and callees from the edges: f calls f (0 -> 1: 3) and g (1 -> 2:
 * 1); f's callers are f (3); g's caller f (1), no callee. */
START_TEST(test_calls)
{
    struct ss_model m;
    struct ss_calls c;
    struct ss_error err;
    FX_LOAD_OK(&m, twice_prof);
    ss_id f = ss_model_find_function(&m, "f"), g = ss_model_find_function(&m, "g");
    ck_assert_uint_ne(f, SS_NONE);
    ck_assert_int_eq(ss_calls_of(&m, f, &c, &err), 0);
    ck_assert_uint_eq(c.self_n, 2);
    ck_assert_uint_eq(c.total_n, 3);
    ck_assert_double_eq_tol(c.total_v, 0.03, TOL);
    ck_assert_uint_eq(c.ncallers, 1);
    ck_assert_uint_eq(c.callers[0].function, f);
    ck_assert_uint_eq(c.callers[0].n, 3);
    ck_assert_uint_eq(c.ncallees, 2);
    ck_assert_uint_eq(c.callees[0].function, f);
    ck_assert_uint_eq(c.callees[0].n, 3);
    ck_assert_uint_eq(c.callees[1].function, g);
    ck_assert_uint_eq(c.callees[1].n, 1);
    ck_assert_double_eq_tol(c.callees[1].time, 0.01, TOL);
    ss_calls_free(&c);
    ck_assert_int_eq(ss_calls_of(&m, g, &c, &err), 0);
    ck_assert_uint_eq(c.self_n, 1);
    ck_assert_uint_eq(c.ncallers, 1);
    ck_assert_uint_eq(c.callers[0].n, 1);
    ck_assert_uint_eq(c.ncallees, 0);
    ss_calls_free(&c);
    ss_model_free(&m);
}
END_TEST

/* A load that must fail with a message holding `want`. */
static void check_error(const char *text, const char *want)
{
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    int rc = fx_load(&m, &err, text, strlen(text), path, sizeof path);
    ck_assert_msg(rc == SS_EINPUT, "'%s' loaded (rc %d)", text, rc);
    char full[4200];
    snprintf(full, sizeof full, "%s%s", path, want);
    ck_assert_msg(strstr(err.msg, full) != NULL, "message '%s' lacks '%s'", err.msg, full);
}

START_TEST(test_errors)
{
    check_error("5\n\na.rb:1:f,0\n\n", ":4: the file ends in the counts chunk");
    check_error("5\n\na.rb:f,0\n\n0,1,1\n\n-1,0,1\n", ":3: expected a call element");
    check_error("5\n\na.rb:1:f,x\n\n0,1,1\n\n-1,0,1\n", ":3: call element id 'x' is not a number");
    check_error("5\n\na.rb:1:f,0\n\n1,1,1\n\n-1,0,1\n", ":5: call element id 1 is not in");
    check_error("5\n\na.rb:1:f,0\n\n0,1,1\n\n-1,3,1\n", ":7: callee id 3 is not in");
    check_error("5\n\na.rb:1:f,0\n\n0,1,1\n0,1,1\n\n-1,0,1\n",
                ":6: counts of call element 0 given twice");
    check_error("5\n\na.rb:1:f,0\na.rb:1:f,1\n\n0,1,1\n\n-1,0,1\n",
                ":4: call element listed twice");
    check_error("5\n\na.rb:1:f,0\n\n0,-1,1\n\n-1,0,1\n", ":5: self count '-1' out of range");
}
END_TEST

/* Numbers that disagree are loaded with a warning: the root edge counts 2
 * samples, the self counts 1; a runtime of 0 takes the default 0.1 s. */
START_TEST(test_warnings)
{
    static const char prof[] = "0\n\na.rb:1:f,0\n\n0,1,1\n\n-1,0,2\n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    ck_assert_uint_eq(m.warnings.n, 2);
    ck_assert_ptr_nonnull(strstr(m.warnings.v[0], "count 2 samples, the self counts 1"));
    ck_assert_ptr_nonnull(strstr(m.warnings.v[1], "runtime 0 ms"));
    ck_assert_double_eq(m.sources.v[0].interval_us, 100000.0);
    ss_model_free(&m);
}
END_TEST

/* Write a model as SamplingProf text into buf. */
static void write_text(const struct ss_model *m, char *buf, size_t cap)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    struct ss_error err;
    ck_assert_int_eq(ss_write_sampling_prof(m, f, "mem", &err), 0);
    rewind(f);
    size_t n = fread(buf, 1, cap - 1, f);
    buf[n] = '\0';
    fclose(f);
}

/* Rprof, innermost first; root first the stacks are
 *   s1: main g f     s2: main g     s3: main f f        (10 ms each)
 * elements in order of first use: main 0, g 1, f 2.  self: f 2 (s1, s3),
 * g 1; total: main 3, g 2, f 2 (once in s3).  Edges in order of first use:
 * -1->0 3, 0->1 2, 1->2 1, 0->2 1, 2->2 1.  Runtime 3 x 10 ms. */
START_TEST(test_write_rprof)
{
    static const char prof[] = "sample.interval=10000\n"
                               "\"f\" \"g\" \"main\" \n"
                               "\"g\" \"main\" \n"
                               "\"f\" \"f\" \"main\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    char buf[4096];
    write_text(&m, buf, sizeof buf);
    ck_assert_str_eq(buf, "30\n\n"
                          ":0:main,0\n:0:g,1\n:0:f,2\n\n"
                          "0,0,3\n1,1,2\n2,2,2\n\n"
                          "-1,0,3\n0,1,2\n1,2,1\n0,2,1\n2,2,1\n");
    ss_model_free(&m);
}
END_TEST

/* An aggregate model is written as it was read (ids are dense and in
 * order, so even the text is the same). */
START_TEST(test_write_aggregates)
{
    struct ss_model m;
    FX_LOAD_OK(&m, odd_prof);
    char buf[4096];
    write_text(&m, buf, sizeof buf);
    ck_assert_str_eq(buf, odd_prof);
    ss_model_free(&m);
}
END_TEST

/* The writer refuses what the reader would refuse (limits.h): a folded
 * count of 10^15 at 1 s each is a runtime of 10^18 ms (the reader takes at
 * most 10^15 ms); two lines of 6 x 10^14 make a total over 10^15.  A count
 * of 10^12 (a runtime of 10^15 ms exactly) is written and reads back. */
START_TEST(test_write_limits)
{
    struct ss_model m;
    struct ss_error err;
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    FX_LOAD_OK(&m, "a;b 1000000000000000\n");
    ck_assert_int_eq(ss_write_sampling_prof(&m, f, "out", &err), SS_EINPUT);
    ck_assert_msg(
        strstr(err.msg, "out: cannot write SamplingProf: the runtime would be 1e+18 ms") != NULL,
        "%s", err.msg);
    ss_model_free(&m);
    FX_LOAD_OK(&m, "a;b 1000000000\n");
    ck_assert_int_eq(ss_write_sampling_prof(&m, f, "out", &err), 0);
    ss_model_free(&m);
    fclose(f);
}
END_TEST

START_TEST(test_sniff)
{
    ck_assert(ss_sampling_prof_sniff("1567\n\nx", 7));
    ck_assert(ss_sampling_prof_sniff("2513.868215\r\n\r\n", 15));
    ck_assert(!ss_sampling_prof_sniff("sample.interval=20000\n", 22));
    ck_assert(!ss_sampling_prof_sniff("1567\nx", 6));
    ck_assert(!ss_sampling_prof_sniff("main;f 12\n\n", 11));
}
END_TEST

Suite *sampling_suite(void)
{
    Suite *s = suite_create("sampling_prof");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_parse);
    tcase_add_test(tc, test_stats);
    tcase_add_test(tc, test_calls);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_warnings);
    tcase_add_test(tc, test_write_rprof);
    tcase_add_test(tc, test_write_aggregates);
    tcase_add_test(tc, test_sniff);
    tcase_add_test(tc, test_write_limits);
    suite_add_tcase(s, tc);
    return s;
}
