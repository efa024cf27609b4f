/* check_model.c - the model builder (src/model.h): deduplication of
 * functions, locations and stacks, the CSR stack layout, value columns and
 * sample -> source lookup.  Models are built by hand through the builder. */
#include "check_suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

/* A source with only the fields the builder does not fill. */
static ss_id add_src(struct ss_model *m, double interval_us)
{
    struct ss_source s;
    memset(&s, 0, sizeof s);
    s.type = ss_model_intern_cstr(m, "rprof");
    s.uri = ss_model_intern_cstr(m, "test.out");
    s.interval_us = interval_us;
    /* first_sample / n_samples are the builder's: garbage here must be ignored. */
    s.first_sample = 12345;
    s.n_samples = 678;
    return ss_model_add_source(m, &s);
}

START_TEST(test_init_free)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    /* samples/count is value type 0, its column implicit (all 1). */
    ck_assert_uint_eq(m.value_types.n, 1);
    ck_assert_uint_eq(m.values.n, 1);
    ck_assert_ptr_null(m.values.v[SS_VT_COUNT]);
    ck_assert_str_eq(ss_str(&m, m.value_types.v[0].type), "samples");
    ck_assert_str_eq(ss_str(&m, m.value_types.v[0].unit), "count");
    /* No stacks yet, but stack_off already holds its leading 0. */
    ck_assert_uint_eq(ss_model_nstacks(&m), 0);
    ck_assert_uint_eq(m.stack_off.n, 1);
    ck_assert_uint_eq(m.stack_off.v[0], 0);
    ck_assert_uint_eq(m.sample_stack.n, 0);
    ck_assert_uint_eq(m.warnings.n, 0);
    ss_model_free(&m);
    /* A second free, and a free of a zeroed model, are no-ops. */
    ss_model_free(&m);
    struct ss_model z;
    memset(&z, 0, sizeof z);
    ss_model_free(&z);
}
END_TEST

START_TEST(test_function_identity)
{
    /* pprof keeps a file per function: one name, several ids.  The canonical
     * id of each is the lowest id with its name, kept as functions are
     * added; the model's questions answer with it. */
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id rn = ss_model_intern_cstr(&m, "rnorm"), c = ss_model_intern_cstr(&m, "c");
    ss_id file = ss_model_intern_cstr(&m, "stats.R");
    ss_id a = ss_model_function(&m, rn, rn, SS_NONE, 0);
    ss_id b = ss_model_function(&m, c, c, SS_NONE, 0);
    ss_id a2 = ss_model_function(&m, rn, rn, file, 12);
    ss_id b2 = ss_model_function(&m, c, SS_NONE, file, 0);
    ck_assert_uint_eq(m.function_canon.n, 4);
    ck_assert_uint_eq(ss_function_canonical(&m, a), a);
    ck_assert_uint_eq(ss_function_canonical(&m, b), b);
    ck_assert_uint_eq(ss_function_canonical(&m, a2), a);
    ck_assert_uint_eq(ss_function_canonical(&m, b2), b);
    ck_assert_uint_eq(ss_model_find_function(&m, "rnorm"), a);
    ck_assert_uint_eq(ss_model_find_function(&m, "c"), b);
    ck_assert_uint_eq(ss_model_find_function(&m, "stats.R"), SS_NONE);
    ck_assert_uint_eq(ss_model_find_function(&m, "nope"), SS_NONE);
    ck_assert_str_eq(ss_function_name(&m, a2), "rnorm");
    /* sealing keeps the identity; the builder's name index goes */
    ss_model_seal(&m);
    ck_assert_uint_eq(ss_function_canonical(&m, a2), a);
    ck_assert_uint_eq(m.name_first_fn.n, 0);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_model_questions)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(ss_model_has_memory(&m), 0);
    ck_assert_int_eq(ss_model_has_lines(&m), 0);
    ck_assert_int_eq(ss_model_has_aggregates(&m), 0);
    ck_assert_int_eq(ss_model_has_stack_sources(&m), 0);
    struct ss_source s;
    memset(&s, 0, sizeof s);
    s.interval_us = 1000;
    s.flags = SS_SRC_AGGREGATE;
    ck_assert_uint_ne(ss_model_add_source(&m, &s), SS_NONE);
    ck_assert_int_eq(ss_model_has_aggregates(&m), 1);
    ck_assert_int_eq(ss_model_has_stack_sources(&m), 0);
    s.flags = SS_SRC_MEMORY;
    ck_assert_uint_ne(ss_model_add_source(&m, &s), SS_NONE);
    ck_assert_int_eq(ss_model_has_stack_sources(&m), 1);
    ck_assert_int_eq(ss_model_has_memory(&m), 1);
    ck_assert_int_eq(ss_model_has_lines(&m), 0);
    ss_id f = ss_model_intern_cstr(&m, "f");
    ss_id fn = ss_model_function(&m, f, f, SS_NONE, 0);
    ck_assert_uint_ne(ss_model_location(&m, fn, SS_NONE, 7), SS_NONE);
    ck_assert_int_eq(ss_model_has_lines(&m), 1); /* a line number, no flag */
    const char *b;
    size_t n;
    ss_basename("/a/b/c.R", &b, &n);
    ck_assert_int_eq((int)n, 3);
    ck_assert_int_eq(strncmp(b, "c.R", n), 0);
    ss_basename("dir/sub//", &b, &n);
    ck_assert_int_eq((int)n, 3);
    ck_assert_int_eq(strncmp(b, "sub", n), 0);
    ss_basename("/", &b, &n);
    ck_assert_int_eq((int)n, 1);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_functions_dedupe)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id f = ss_model_intern_cstr(&m, "f"), g = ss_model_intern_cstr(&m, "g");
    ss_id file = ss_model_intern_cstr(&m, "/p/a.R");
    ss_id a = ss_model_function(&m, f, f, SS_NONE, 0);
    ss_id b = ss_model_function(&m, g, g, SS_NONE, 0);
    ck_assert_uint_eq(a, 0);
    ck_assert_uint_eq(b, 1);
    ck_assert_uint_eq(ss_model_function(&m, f, f, SS_NONE, 0), 0);
    /* Any differing field makes another function: system name 2, file 3,
     * start line 4. */
    ck_assert_uint_eq(ss_model_function(&m, f, g, SS_NONE, 0), 2);
    ck_assert_uint_eq(ss_model_function(&m, f, f, file, 0), 3);
    ck_assert_uint_eq(ss_model_function(&m, f, f, file, 10), 4);
    ck_assert_uint_eq(ss_model_function(&m, f, f, file, 10), 4);
    ck_assert_uint_eq(m.functions.n, 5);
    ck_assert_uint_eq(m.functions.v[4].filename, file);
    ck_assert_uint_eq(m.functions.v[4].start_line, 10);
    ck_assert_str_eq(ss_str(&m, m.functions.v[1].name), "g");
    ss_model_free(&m);
}
END_TEST

START_TEST(test_locations_dedupe)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id f = ss_model_intern_cstr(&m, "f");
    ss_id fa = ss_model_intern_cstr(&m, "/p/a.R"), fb = ss_model_intern_cstr(&m, "/p/b.R");
    ss_id fn = ss_model_function(&m, f, f, SS_NONE, 0);
    ck_assert_uint_eq(ss_model_location(&m, fn, SS_NONE, 0), 0);
    ck_assert_uint_eq(ss_model_location(&m, fn, fa, 3), 1);
    ck_assert_uint_eq(ss_model_location(&m, fn, fa, 4), 2);
    ck_assert_uint_eq(ss_model_location(&m, fn, fb, 3), 3);
    /* Position-only locations (function SS_NONE), and NA#3 (file SS_NONE, line 3). */
    ck_assert_uint_eq(ss_model_location(&m, SS_NONE, fa, 3), 4);
    ck_assert_uint_eq(ss_model_location(&m, SS_NONE, SS_NONE, 3), 5);
    /* Repeats give the same ids. */
    ck_assert_uint_eq(ss_model_location(&m, fn, fa, 3), 1);
    ck_assert_uint_eq(ss_model_location(&m, SS_NONE, fa, 3), 4);
    ck_assert_uint_eq(ss_model_location(&m, fn, SS_NONE, 0), 0);
    ck_assert_uint_eq(m.locations.n, 6);
    ck_assert_uint_eq(ss_loc_function(&m, 3), fn);
    ck_assert_uint_eq(m.locations.v[3].file, fb);
    ck_assert_uint_eq(m.locations.v[3].line, 3);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_reindex_locations)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id f = ss_model_intern_cstr(&m, "f");
    ss_id tmp = ss_model_intern_cstr(&m, "placeholder"), real = ss_model_intern_cstr(&m, "/r.R");
    ss_id fn = ss_model_function(&m, f, f, SS_NONE, 0);
    ss_id l = ss_model_location(&m, fn, tmp, 7);
    /* A loader resolves the file late, in place, then reindexes: looking up
     * the new fields must find the old id, the old fields nothing. */
    m.locations.v[l].file = real;
    ck_assert_int_eq(ss_model_reindex_locations(&m), 0);
    ck_assert_uint_eq(ss_model_location(&m, fn, real, 7), l);
    ck_assert_uint_eq(m.locations.n, 1);
    ck_assert_uint_eq(ss_model_location(&m, fn, tmp, 7), 1);
    ck_assert_uint_eq(m.locations.n, 2);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_reindex_merges)
{
    /* Locations that become equal after a late in-place change are merged,
     * and so are the stacks that become equal (model.h).
     *   locations: A = f@P#4, B = f@R#4, T1 = P#9, T2 = R#9
     *   stacks:    S0 = [A] + T1,  S1 = [B] + T2,  S2 = [B, A]
     *   samples:   S0, S1, S2
     * Then P becomes R: A == B and T1 == T2, so S0 == S1 and S2 = [B, B].
     * Expect 2 locations, 2 stacks, samples 0 and 1 on one stack. */
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.interval_us = 20000;
    ss_model_add_source(&m, &src);
    ss_id nf = ss_model_intern_cstr(&m, "f");
    ss_id P = ss_model_intern_cstr(&m, "P"), R = ss_model_intern_cstr(&m, "R");
    ss_id fn = ss_model_function(&m, nf, nf, SS_NONE, 0);
    ss_id A = ss_model_location(&m, fn, P, 4), B = ss_model_location(&m, fn, R, 4);
    ss_id T1 = ss_model_location(&m, SS_NONE, P, 9), T2 = ss_model_location(&m, SS_NONE, R, 9);
    ss_id s0 = ss_model_stack(&m, &A, 1, T1);
    ss_id s1 = ss_model_stack(&m, &B, 1, T2);
    ss_id two[2] = {B, A};
    ss_id s2 = ss_model_stack(&m, two, 2, SS_NONE);
    ck_assert_int_eq(ss_model_add_sample(&m, s0, NULL), 0);
    ck_assert_int_eq(ss_model_add_sample(&m, s1, NULL), 0);
    ck_assert_int_eq(ss_model_add_sample(&m, s2, NULL), 0);
    ck_assert_uint_eq(ss_model_nstacks(&m), 3);
    m.locations.v[A].file = R;
    m.locations.v[T1].file = R;
    ck_assert_int_eq(ss_model_reindex_locations(&m), 0);

    ck_assert_uint_eq(m.locations.n, 2);
    ck_assert_uint_eq(ss_model_nstacks(&m), 2);
    ck_assert_uint_eq(m.stack_off.n, 3);
    ck_assert_uint_eq(m.stack_loc.n, m.stack_off.v[2]);
    ck_assert_uint_eq(m.sample_stack.n, 3);
    ck_assert_uint_eq(m.sample_stack.v[0], m.sample_stack.v[1]);
    ck_assert_uint_ne(m.sample_stack.v[0], m.sample_stack.v[2]);
    char buf[256];
    fx_stack_text(&m, m.sample_stack.v[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "f@R#4 + R#9");
    fx_stack_text(&m, m.sample_stack.v[2], buf, sizeof buf);
    ck_assert_str_eq(buf, "f@R#4 | f@R#4");
    const ss_id *fr = ss_stack_frames(&m, m.sample_stack.v[2]);
    ck_assert_uint_eq(fr[0], fr[1]);
    /* The builder keeps working on the merged tables. */
    ss_id loc = ss_stack_frames(&m, m.sample_stack.v[0])[0];
    ck_assert_uint_eq(ss_model_location(&m, fn, R, 4), loc);
    ck_assert_uint_eq(ss_model_stack(&m, &loc, 1, m.stack_tail.v[m.sample_stack.v[0]]),
                      m.sample_stack.v[0]);
    ck_assert_uint_eq(ss_model_nstacks(&m), 2);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_stacks_csr)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id names[3];
    ss_id loc[3];
    const char *txt[3] = {"leaf", "mid", "root"};
    for (int i = 0; i < 3; i++) {
        names[i] = ss_model_intern_cstr(&m, txt[i]);
        loc[i] = ss_model_location(&m, ss_model_function(&m, names[i], names[i], SS_NONE, 0),
                                   SS_NONE, 0);
    }
    ss_id pos = ss_model_location(&m, SS_NONE, SS_NONE, 9);
    ss_id full[3] = {loc[0], loc[1], loc[2]}; /* innermost first */
    ss_id s0 = ss_model_stack(&m, full, 3, SS_NONE);
    ss_id s1 = ss_model_stack(&m, full + 1, 2, SS_NONE); /* mid <- root */
    ss_id s2 = ss_model_stack(&m, NULL, 0, SS_NONE);     /* empty stack */
    ss_id s3 = ss_model_stack(&m, full, 3, pos);         /* same frames, a tail */
    ss_id s4 = ss_model_stack(&m, full, 2, SS_NONE);     /* a prefix: leaf <- mid */
    ck_assert_uint_eq(s0, 0);
    ck_assert_uint_eq(s1, 1);
    ck_assert_uint_eq(s2, 2);
    ck_assert_uint_eq(s3, 3);
    ck_assert_uint_eq(s4, 4);
    /* Dedupe: a copy of the frames in another buffer finds the same stack. */
    ss_id again[3] = {loc[0], loc[1], loc[2]};
    ck_assert_uint_eq(ss_model_stack(&m, again, 3, SS_NONE), 0);
    ck_assert_uint_eq(ss_model_stack(&m, again, 3, pos), 3);
    ck_assert_uint_eq(ss_model_stack(&m, NULL, 0, SS_NONE), 2);
    ck_assert_uint_eq(ss_model_nstacks(&m), 5);
    /* CSR: depths 3, 2, 0, 3, 2 -> offsets 0 3 5 5 8 10. */
    static const uint32_t off[6] = {0, 3, 5, 5, 8, 10};
    ck_assert_uint_eq(m.stack_off.n, 6);
    for (int i = 0; i < 6; i++)
        ck_assert_uint_eq(m.stack_off.v[i], off[i]);
    ck_assert_uint_eq(m.stack_loc.n, 10);
    ck_assert_uint_eq(ss_stack_depth(&m, 0), 3);
    ck_assert_uint_eq(ss_stack_depth(&m, 2), 0);
    const ss_id *fr = ss_stack_frames(&m, 1);
    ck_assert_uint_eq(fr[0], loc[1]);
    ck_assert_uint_eq(fr[1], loc[2]);
    fr = ss_stack_frames(&m, 3);
    ck_assert_uint_eq(fr[0], loc[0]);
    ck_assert_uint_eq(fr[2], loc[2]);
    ck_assert_uint_eq(m.stack_tail.v[0], SS_NONE);
    ck_assert_uint_eq(m.stack_tail.v[3], pos);
    char buf[256];
    fx_stack_text(&m, 3, buf, sizeof buf);
    ck_assert_str_eq(buf, "leaf | mid | root + NA#9");
    ss_model_free(&m);
}
END_TEST

START_TEST(test_many_stacks)
{
    /* 3000 distinct stacks of depth 1..3 (beyond the 1024-slot first index);
     * each must be found again. */
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id nm = ss_model_intern_cstr(&m, "f");
    ss_id fn = ss_model_function(&m, nm, nm, SS_NONE, 0);
    for (uint32_t i = 0; i < 3000; i++) {
        ss_id l[3];
        for (int k = 0; k < 3; k++)
            l[k] = ss_model_location(&m, fn, SS_NONE, i + 1 + (uint32_t)k);
        ck_assert_uint_eq(ss_model_stack(&m, l, 1 + i % 3, SS_NONE), i);
    }
    for (uint32_t i = 0; i < 3000; i++) {
        ss_id l[3];
        for (int k = 0; k < 3; k++)
            l[k] = ss_model_location(&m, fn, SS_NONE, i + 1 + (uint32_t)k);
        ck_assert_uint_eq(ss_model_stack(&m, l, 1 + i % 3, SS_NONE), i);
        ck_assert_uint_eq(ss_stack_depth(&m, i), 1 + i % 3);
    }
    /* Lines 1..3002 are used, one location each. */
    ck_assert_uint_eq(m.locations.n, 3002);
    ss_model_free(&m);
}
END_TEST

/* The counts of a model sum to at most INT64_MAX, and none is negative: a
 * sample that would break that is refused (SS_COUNT_RANGE) and not added. */
START_TEST(test_count_total_limit)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    add_src(&m, 20000);
    ss_id st = ss_model_stack(&m, NULL, 0, SS_NONE);
    int64_t neg[1] = {-1}, big[1] = {INT64_MAX - 2}, two[1] = {2};
    ck_assert_int_eq(ss_model_add_sample(&m, st, neg), SS_COUNT_RANGE);
    ck_assert_uint_eq(m.sample_stack.n, 0);
    ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0); /* 1 */
    ck_assert_int_eq(ss_model_add_sample(&m, st, big), 0);  /* INT64_MAX - 1 */
    ck_assert_int_eq(ss_model_add_sample(&m, st, two), SS_COUNT_RANGE);
    ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0); /* INT64_MAX exactly */
    ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), SS_COUNT_RANGE);
    int64_t zero[1] = {0}; /* a count of 0 always fits */
    ck_assert_int_eq(ss_model_add_sample(&m, st, zero), 0);
    ck_assert_uint_eq(m.sample_stack.n, 4);
    ck_assert_uint_eq(m.sources.v[0].n_samples, 4);
    ck_assert_int_eq(ss_model_count_fail(&m, &err, "x.pb: byte 9: sample 5", 1), SS_EINPUT);
    ck_assert_str_eq(err.msg, "x.pb: byte 9: sample 5: sample count 1 makes the counts add up "
                              "past 9223372036854775807, the largest total stackscope sums (the "
                              "samples before it add up to 9223372036854775807)");
    ss_model_count_fail(&m, &err, "x.pb", -1);
    ck_assert_str_eq(err.msg, "x.pb: negative sample count -1");

    /* Aggregates: added to the samples' counts, each kind on its own. */
    ss_id fn = ss_model_function(&m, ss_model_intern_cstr(&m, "f"), ss_model_intern_cstr(&m, "f"),
                                 SS_NONE, 0);
    ss_id loc = ss_model_location(&m, fn, SS_NONE, 0);
    struct ss_agg a = {0, loc, 0, 0};
    ck_assert_int_eq(VEC_PUSH(m.aggs, a), 0);
    ck_assert_int_eq(ss_model_check_aggs(&m, "s.txt", &err), 0);
    m.aggs.v[0].total = 1;
    ck_assert_int_eq(ss_model_check_aggs(&m, "s.txt", &err), SS_EINPUT);
    ck_assert_str_eq(err.msg, "s.txt: total count 1 makes the total counts add up past "
                              "9223372036854775807, the largest total stackscope sums");
    m.aggs.v[0].total = 0;
    struct ss_agg_edge e = {0, SS_NONE, loc, -3};
    ck_assert_int_eq(VEC_PUSH(m.edges, e), 0);
    ck_assert_int_eq(ss_model_check_aggs(&m, "s.txt", &err), SS_EINPUT);
    ck_assert_str_eq(err.msg, "s.txt: negative call count -3");
    ss_model_free(&m);
}
END_TEST

START_TEST(test_value_columns)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    add_src(&m, 20000);
    ss_id st = ss_model_stack(&m, NULL, 0, SS_NONE);
    /* Two plain samples: the count column stays implicit. */
    ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0);
    ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0);
    ck_assert_ptr_null(m.values.v[SS_VT_COUNT]);
    ck_assert_int_eq(ss_sample_count(&m, 0), 1);
    /* A count of 1 given explicitly changes nothing either. */
    int64_t one[1] = {1};
    ck_assert_int_eq(ss_model_add_sample(&m, st, one), 0);
    ck_assert_ptr_null(m.values.v[SS_VT_COUNT]);
    /* Count 3 materialises the column, backfilled with 1: 1 1 1 3. */
    int64_t three[1] = {3};
    ck_assert_int_eq(ss_model_add_sample(&m, st, three), 0);
    ck_assert_ptr_nonnull(m.values.v[SS_VT_COUNT]);
    ck_assert_int_eq(m.values.v[SS_VT_COUNT][0], 1);
    ck_assert_int_eq(m.values.v[SS_VT_COUNT][1], 1);
    ck_assert_int_eq(m.values.v[SS_VT_COUNT][2], 1);
    ck_assert_int_eq(m.values.v[SS_VT_COUNT][3], 3);
    /* Later NULL samples count 1; 1000 of them grow the column with the timeline. */
    for (int i = 0; i < 1000; i++)
        ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0);
    ck_assert_int_eq(ss_sample_count(&m, 3), 3);
    ck_assert_int_eq(ss_sample_count(&m, 4), 1);
    ck_assert_int_eq(ss_sample_count(&m, 1003), 1);
    ck_assert_uint_eq(m.sample_stack.n, 1004);
    ck_assert_uint_eq(m.sources.v[0].n_samples, 1004);

    /* A value type added after samples exist: index 1; the same type again
     * is found, a different unit is another type (2). */
    ck_assert_uint_eq(ss_model_value_type(&m, "alloc", "bytes"), 1);
    ck_assert_uint_eq(ss_model_value_type(&m, "alloc", "bytes"), 1);
    ck_assert_uint_eq(ss_model_value_type(&m, "alloc", "objects"), 2);
    ck_assert_uint_eq(m.value_types.n, 3);
    ck_assert_uint_eq(m.values.n, 3);
    ck_assert_ptr_null(m.values.v[1]);
    /* Sample 1004 with values {count 1, alloc 500, objects 0}: the alloc
     * column appears, earlier samples 0; objects stays implicit (all 0). */
    int64_t v[3] = {1, 500, 0};
    ck_assert_int_eq(ss_model_add_sample(&m, st, v), 0);
    ck_assert_ptr_nonnull(m.values.v[1]);
    ck_assert_ptr_null(m.values.v[2]);
    ck_assert_int_eq(m.values.v[1][0], 0);
    ck_assert_int_eq(m.values.v[1][1003], 0);
    ck_assert_int_eq(m.values.v[1][1004], 500);
    ck_assert_int_eq(m.values.v[SS_VT_COUNT][1004], 1);
    /* NULL after that: count 1, other values 0. */
    ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0);
    ck_assert_int_eq(m.values.v[1][1005], 0);
    ck_assert_int_eq(ss_sample_count(&m, 1005), 1);
    ss_model_free(&m);
}
END_TEST

/* ss_model_add_samples (the parallel Rprof loader's merge) appends what
 * as many ss_model_add_sample calls would: hand-made expectations. */
START_TEST(test_add_samples)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    add_src(&m, 1000);
    ss_id a = ss_model_stack(&m, NULL, 0, SS_NONE);
    ss_id l = ss_model_location(&m, SS_NONE, SS_NONE, 3);
    ss_id b = ss_model_stack(&m, &l, 1, SS_NONE);
    ss_id x = ss_model_value_type(&m, "x", "bytes"), y = ss_model_value_type(&m, "y", "bytes");
    ck_assert_int_eq(ss_model_add_sample(&m, a, NULL), 0);
    /* three samples, values of x only, all 0: x stays implicit */
    ss_id st[3] = {b, a, b};
    int64_t zero[3] = {0, 0, 0};
    ck_assert_int_eq(ss_model_add_samples(&m, st, 3, &x, 1, zero), 0);
    ck_assert_uint_eq(m.sample_stack.n, 4);
    ck_assert_uint_eq(m.sources.v[0].n_samples, 4);
    ck_assert_uint_eq(m.sample_stack.v[1], b);
    ck_assert_uint_eq(m.sample_stack.v[2], a);
    ck_assert_ptr_null(m.values.v[x]);
    ck_assert_ptr_null(m.values.v[y]);
    ck_assert_ptr_null(m.values.v[SS_VT_COUNT]);
    /* two more with (y, x) interleaved per sample: y 7 and 0, x 0 and 9 */
    ss_id vts[2] = {y, x};
    int64_t vals[4] = {7, 0, 0, 9};
    ck_assert_int_eq(ss_model_add_samples(&m, st, 2, vts, 2, vals), 0);
    ck_assert_ptr_nonnull(m.values.v[x]);
    ck_assert_ptr_nonnull(m.values.v[y]);
    int64_t want_x[6] = {0, 0, 0, 0, 0, 9}, want_y[6] = {0, 0, 0, 0, 7, 0};
    for (int i = 0; i < 6; i++) {
        ck_assert_int_eq(m.values.v[x][i], want_x[i]);
        ck_assert_int_eq(m.values.v[y][i], want_y[i]);
        ck_assert_int_eq(ss_sample_count(&m, (size_t)i), 1);
    }
    ck_assert_uint_eq(m.count_total, 6);
    /* room reserved first: the columns do not move while samples come */
    ck_assert_int_eq(ss_model_reserve_samples(&m, 5000), 0);
    const int64_t *cx = m.values.v[x];
    ss_id many[5000];
    for (int i = 0; i < 5000; i++)
        many[i] = i % 2 ? a : b;
    ck_assert_int_eq(ss_model_add_samples(&m, many, 5000, NULL, 0, NULL), 0);
    ck_assert_ptr_eq(m.values.v[x], cx);
    ck_assert_int_eq(m.values.v[x][5005], 0);
    ck_assert_uint_eq(m.sample_stack.v[5005], a);
    ck_assert_uint_eq(m.sources.v[0].n_samples, 5006);
    /* a count column materialised by a count of 2 gets 1s */
    int64_t two[3] = {2, 0, 0};
    ck_assert_int_eq(ss_model_add_sample(&m, a, two), 0);
    ck_assert_int_eq(ss_model_add_samples(&m, st, 1, NULL, 0, NULL), 0);
    ck_assert_int_eq(m.values.v[SS_VT_COUNT][5006], 2);
    ck_assert_int_eq(m.values.v[SS_VT_COUNT][5007], 1);
    ck_assert_int_eq(m.values.v[SS_VT_COUNT][5005], 1);
    /* past the count limit: refused, nothing added */
    m.count_total = SS_MAX_COUNT_TOTAL - 1;
    ck_assert_int_eq(ss_model_add_samples(&m, st, 2, NULL, 0, NULL), SS_COUNT_RANGE);
    ck_assert_uint_eq(m.sample_stack.n, 5008);
    ss_model_free(&m);
}
END_TEST

/* Labels: interned once, sets sorted and made distinct, set 0 empty, the
 * per-sample column materialised at the first labelled sample. */
START_TEST(test_labels)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    add_src(&m, 10000);
    ck_assert_uint_eq(ss_model_nlabelsets(&m), 1);
    ck_assert_uint_eq(ss_labelset_size(&m, 0), 0);
    ck_assert_int_eq(ss_model_has_labels(&m), 0);
    ss_id k = ss_model_intern_cstr(&m, "worker"), a = ss_model_intern_cstr(&m, "a");
    ss_id bytes = ss_model_intern_cstr(&m, "bytes");
    ss_id la = ss_model_label(&m, k, a, 99, bytes); /* num and unit ignored for a string */
    ck_assert_uint_eq(la, 0);
    ck_assert_uint_eq(ss_model_label(&m, k, a, 0, SS_NONE), la);
    ck_assert_int_eq(m.labels.v[la].num, 0);
    ck_assert_uint_eq(m.labels.v[la].unit, SS_NONE);
    ss_id l5 = ss_model_label(&m, k, SS_NONE, 5, bytes);
    ss_id l5n = ss_model_label(&m, k, SS_NONE, 5, SS_NONE);
    ss_id lneg = ss_model_label(&m, k, SS_NONE, -7, SS_NONE);
    ck_assert_uint_eq(l5, 1);
    ck_assert_uint_eq(l5n, 2);
    ck_assert_uint_eq(lneg, 3);
    ck_assert_uint_eq(ss_model_label(&m, k, SS_NONE, 5, bytes), l5);
    char buf[64];
    ck_assert_str_eq(ss_label_value(&m, la, buf, sizeof buf), "a");
    ck_assert_str_eq(ss_label_value(&m, l5, buf, sizeof buf), "5 bytes");
    ck_assert_str_eq(ss_label_value(&m, l5n, buf, sizeof buf), "5");
    ck_assert_str_eq(ss_label_value(&m, lneg, buf, sizeof buf), "-7");
    ck_assert_str_eq(ss_label_key(&m, l5), "worker");
    /* sets: order and repeats do not matter */
    ss_id x[3] = {l5, la, l5}, y[2] = {la, l5};
    ss_id s1 = ss_model_label_set(&m, x, 3);
    ck_assert_uint_eq(s1, 1);
    ck_assert_uint_eq(ss_model_label_set(&m, y, 2), s1);
    ck_assert_uint_eq(ss_labelset_size(&m, s1), 2);
    ck_assert_uint_eq(ss_labelset_labels(&m, s1)[0], la);
    ck_assert_uint_eq(ss_labelset_labels(&m, s1)[1], l5);
    ck_assert_uint_eq(ss_model_label_set(&m, NULL, 0), 0);
    ss_id z[1] = {lneg};
    ss_id s2 = ss_model_label_set(&m, z, 1);
    ck_assert_uint_eq(s2, 2);
    ck_assert_uint_eq(ss_model_nlabelsets(&m), 3);
    /* samples: none labelled yet costs nothing; the first labelled one
     * fills the column with 0 before it, later samples start at 0 */
    ss_id st = ss_model_stack(&m, NULL, 0, SS_NONE);
    ck_assert_int_eq(ss_model_label_sample(&m, s1), 0); /* no sample yet: nothing */
    ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0);
    ck_assert_int_eq(ss_model_label_sample(&m, 0), 0);
    ck_assert_uint_eq(m.sample_labels.n, 0);
    ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0);
    ck_assert_int_eq(ss_model_label_sample(&m, s2), 0);
    ck_assert_uint_eq(m.sample_labels.n, 2);
    for (int i = 0; i < 100; i++)
        ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0);
    ck_assert_int_eq(ss_model_label_sample(&m, s1), 0);
    ck_assert_uint_eq(m.sample_labels.n, 102);
    ck_assert_uint_eq(ss_sample_labelset(&m, 0), 0);
    ck_assert_uint_eq(ss_sample_labelset(&m, 1), s2);
    ck_assert_uint_eq(ss_sample_labelset(&m, 2), 0);
    ck_assert_uint_eq(ss_sample_labelset(&m, 100), 0);
    ck_assert_uint_eq(ss_sample_labelset(&m, 101), s1);
    ck_assert_int_eq(ss_model_has_labels(&m), 1);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_sample_source)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id st = ss_model_stack(&m, NULL, 0, SS_NONE);
    /* Sources: 0 empty, 1 with 2 samples, 2 and 3 empty, 4 with 3 samples,
     * 5 empty.  Samples 0-1 belong to source 1, samples 2-4 to source 4. */
    static const int per_source[6] = {0, 2, 0, 0, 3, 0};
    for (int s = 0; s < 6; s++) {
        ck_assert_uint_eq(add_src(&m, 1000.0 * (s + 1)), (ss_id)s);
        for (int k = 0; k < per_source[s]; k++)
            ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0);
    }
    /* first_sample: 0 0 2 2 2 5; n_samples as given. */
    static const size_t first[6] = {0, 0, 2, 2, 2, 5};
    for (int s = 0; s < 6; s++) {
        ck_assert_uint_eq(m.sources.v[s].first_sample, first[s]);
        ck_assert_uint_eq(m.sources.v[s].n_samples, (size_t)per_source[s]);
    }
    ck_assert_uint_eq(ss_sample_source(&m, 0), 1);
    ck_assert_uint_eq(ss_sample_source(&m, 1), 1);
    ck_assert_uint_eq(ss_sample_source(&m, 2), 4);
    ck_assert_uint_eq(ss_sample_source(&m, 3), 4);
    ck_assert_uint_eq(ss_sample_source(&m, 4), 4);
    /* Intervals in seconds: source 4 was given 5000 us = 0.005 s. */
    ck_assert_double_eq_tol(ss_source_interval_s(&m, 4), 0.005, 1e-15);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_sample_source_single)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id st = ss_model_stack(&m, NULL, 0, SS_NONE);
    add_src(&m, 20000);
    for (int k = 0; k < 3; k++)
        ss_model_add_sample(&m, st, NULL);
    ck_assert_uint_eq(ss_sample_source(&m, 0), 0);
    ck_assert_uint_eq(ss_sample_source(&m, 2), 0);
    /* Then 4 sources of one sample each: sample i (3..6) is in source i - 2. */
    for (int s = 1; s <= 4; s++) {
        add_src(&m, 20000);
        ss_model_add_sample(&m, st, NULL);
    }
    for (size_t i = 3; i < 7; i++)
        ck_assert_uint_eq(ss_sample_source(&m, i), i - 2);
    ck_assert_uint_eq(ss_sample_source(&m, 1), 0);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_warnings)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_model_warn(&m, "%s:%d: first", "x.out", 3);
    ss_model_warn(&m, "second %u", 2u);
    ck_assert_uint_eq(m.warnings.n, 2);
    ck_assert_str_eq(m.warnings.v[0], "x.out:3: first");
    ck_assert_str_eq(m.warnings.v[1], "second 2");
    /* a warning naming a long path is kept whole (it was cut at 1023 bytes) */
    char path[3001];
    memset(path, 'p', 3000);
    path[3000] = '\0';
    ss_model_warn(&m, "%s: third", path);
    ck_assert_uint_eq(m.warnings.n, 3);
    ck_assert_uint_eq(strlen(m.warnings.v[2]), 3007);
    ck_assert_str_eq(m.warnings.v[2] + 3000, ": third");
    ss_model_free(&m);
}
END_TEST

/* The setters loaders use instead of writing the tables: meta, aggregates,
 * classes (one entry per function once any has one), interval. */
START_TEST(test_builder_setters)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id src = add_src(&m, 1000);
    ss_id f = ss_model_intern_cstr(&m, "f"), g = ss_model_intern_cstr(&m, "g");
    ss_id ff = ss_model_function(&m, f, f, SS_NONE, 0);
    ss_id fg = ss_model_function(&m, g, g, SS_NONE, 0);
    ss_id loc = ss_model_location(&m, ff, SS_NONE, 0);
    ck_assert_int_eq(ss_model_add_meta(&m, src, f, g), 0);
    ck_assert_int_eq(ss_model_add_meta(&m, src, SS_NONE, g), -1); /* a failed intern */
    ck_assert_uint_eq(m.meta.n, 1);
    ck_assert_uint_eq(m.meta.v[0].key, f);
    ck_assert_uint_eq(m.meta.v[0].value, g);
    struct ss_agg a = {src, loc, 2, 5};
    struct ss_agg_edge e = {src, SS_NONE, loc, 5};
    ck_assert_int_eq(ss_model_add_agg(&m, &a), 0);
    ck_assert_int_eq(ss_model_add_edge(&m, &e), 0);
    ck_assert_uint_eq(m.aggs.n, 1);
    ck_assert_int_eq(m.aggs.v[0].total, 5);
    ck_assert_uint_eq(m.edges.n, 1);
    ck_assert_uint_eq(m.edges.v[0].callee, loc);
    /* no class: no column; a class: one entry per function, new ones SS_NONE */
    ck_assert_int_eq(ss_model_set_class(&m, ff, SS_NONE), 0);
    ck_assert_uint_eq(m.function_class.n, 0);
    ck_assert_int_eq(ss_model_set_class(&m, fg, f), 0);
    ck_assert_uint_eq(m.function_class.n, 2);
    ck_assert_uint_eq(ss_function_class(&m, ff), SS_NONE);
    ck_assert_uint_eq(ss_function_class(&m, fg), f);
    ss_id fh = ss_model_function(&m, ss_model_intern_cstr(&m, "h"), g, SS_NONE, 0);
    ck_assert_uint_eq(m.function_class.n, 3);
    ck_assert_uint_eq(ss_function_class(&m, fh), SS_NONE);
    ss_model_set_interval(&m, src, 250);
    ck_assert_double_exact(m.sources.v[src].interval_us, 250);
    ss_model_free(&m);
}
END_TEST

/* A model derived from another (transforms): same strings and value types,
 * stacks appended without lookup, and the kept samples' values, sources
 * and gaps. */
START_TEST(test_derive)
{
    struct ss_model o, m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&o, &err), 0);
    ck_assert_uint_eq(ss_model_value_type(&o, "alloc", "bytes"), 1);
    ss_id f = ss_model_intern_cstr(&o, "f");
    ss_id loc = ss_model_location(&o, ss_model_function(&o, f, f, SS_NONE, 0), SS_NONE, 0);
    ss_id st = ss_model_stack(&o, &loc, 1, SS_NONE);
    /* source 0: samples 0-2, source 1: samples 3-5; alloc = 10 * i */
    for (int i = 0; i < 6; i++) {
        if (i % 3 == 0)
            add_src(&o, 1000);
        int64_t v[2] = {1, 10 * i};
        ck_assert_int_eq(ss_model_add_sample(&o, st, v), 0);
    }
    ck_assert_int_eq(ss_model_init_like(&m, &o, &err), 0);
    ck_assert_str_eq(ss_str(&m, f), "f");
    ck_assert_uint_eq(m.value_types.n, 2);
    ck_assert_str_eq(ss_str(&m, m.value_types.v[1].type), "alloc");
    ck_assert_str_eq(ss_str(&m, m.value_types.v[0].unit), "count");
    ss_id mloc = ss_model_location(&m, ss_model_function(&m, f, f, SS_NONE, 0), SS_NONE, 0);
    ck_assert_uint_eq(ss_model_append_stack(&m, NULL, 0, SS_NONE), 0);
    ck_assert_uint_eq(ss_model_append_stack(&m, &mloc, 1, SS_NONE), 1);
    ck_assert_uint_eq(ss_model_stack(&m, &mloc, 1, SS_NONE), SS_NONE); /* no index now */
    ck_assert_uint_eq(ss_stack_depth(&m, 1), 1);
    /* keep samples 1, 2 and 4: a gap before 4 (sample 3 removed) */
    static const uint32_t keep[3] = {1, 2, 4};
    ss_id *stacks = malloc(3 * sizeof *stacks);
    ck_assert_ptr_nonnull(stacks);
    stacks[0] = stacks[1] = 1;
    stacks[2] = 0;
    ck_assert_int_eq(ss_model_derive_samples(&m, &o, stacks, keep, 0, 3), 0);
    ck_assert_uint_eq(m.sample_stack.n, 3);
    ck_assert_uint_eq(m.sample_stack.v[2], 0);
    ck_assert_ptr_null(m.values.v[SS_VT_COUNT]);
    ck_assert_int_eq(ss_sample_value(&m, 1, 0), 10);
    ck_assert_int_eq(ss_sample_value(&m, 1, 1), 20);
    ck_assert_int_eq(ss_sample_value(&m, 1, 2), 40);
    ck_assert_int_eq(ss_sample_count(&m, 2), 1);
    /* shared, not copied: o's column read through a row per kept sample */
    ck_assert(m.values_borrowed);
    ck_assert_ptr_eq(m.values.v[1], o.values.v[1]);
    ck_assert_ptr_nonnull(m.value_rows);
    for (size_t k = 0; k < 3; k++)
        ck_assert_uint_eq(m.value_rows[k], keep[k]);
    ck_assert_uint_eq(m.sources.n, 2);
    ck_assert_uint_eq(m.sources.v[0].first_sample, 0);
    ck_assert_uint_eq(m.sources.v[0].n_samples, 2);
    ck_assert_uint_eq(m.sources.v[1].first_sample, 2);
    ck_assert_uint_eq(m.sources.v[1].n_samples, 1);
    ck_assert_uint_eq(m.gaps.n, 1);
    ck_assert_uint_eq(m.gaps.v[0], 2);
    ss_model_free(&m);
    /* keep NULL: samples base .. base + n - 1, no gap */
    ck_assert_int_eq(ss_model_init_like(&m, &o, &err), 0);
    stacks = calloc(2, sizeof *stacks);
    ck_assert_ptr_nonnull(stacks);
    ck_assert_int_eq(ss_model_derive_samples(&m, &o, stacks, NULL, 2, 2), 0);
    ck_assert_int_eq(ss_sample_value(&m, 1, 1), 30);
    ck_assert_ptr_null(m.value_rows);
    ck_assert_ptr_eq(m.values.v[1], o.values.v[1] + 2);
    ck_assert_uint_eq(m.sources.v[0].n_samples, 1);
    ck_assert_uint_eq(m.sources.v[1].n_samples, 1);
    ck_assert_uint_eq(m.gaps.n, 0);
    ss_model_free(&m);
    ss_model_free(&o);
}
END_TEST

/* A derived model keeps the original's labels and label sets (the same
 * ids), and each kept sample its set; a model without labels stays so. */
START_TEST(test_derive_labels)
{
    struct ss_model o, m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&o, &err), 0);
    ss_id f = ss_model_intern_cstr(&o, "f");
    ss_id loc = ss_model_location(&o, ss_model_function(&o, f, f, SS_NONE, 0), SS_NONE, 0);
    ss_id st = ss_model_stack(&o, &loc, 1, SS_NONE);
    ss_id key = ss_model_intern_cstr(&o, "worker");
    ss_id la = ss_model_label(&o, key, ss_model_intern_cstr(&o, "a"), 0, SS_NONE);
    ss_id lb = ss_model_label(&o, key, ss_model_intern_cstr(&o, "b"), 0, SS_NONE);
    ss_id sa = ss_model_label_set(&o, &la, 1), sb = ss_model_label_set(&o, &lb, 1);
    ck_assert_uint_ne(sa, sb);
    add_src(&o, 1000);
    /* samples 0-4 with the sets a, none, b, a, b */
    const ss_id set_of[5] = {sa, 0, sb, sa, sb};
    for (int i = 0; i < 5; i++) {
        int64_t v[1] = {1};
        ck_assert_int_eq(ss_model_add_sample(&o, st, v), 0);
        if (set_of[i])
            ck_assert_int_eq(ss_model_label_sample(&o, set_of[i]), 0);
    }
    ck_assert_uint_eq(o.sample_labels.n, 5);
    ck_assert_int_eq(ss_model_init_like(&m, &o, &err), 0);
    ss_id mloc = ss_model_location(&m, ss_model_function(&m, f, f, SS_NONE, 0), SS_NONE, 0);
    ck_assert_uint_eq(ss_model_append_stack(&m, &mloc, 1, SS_NONE), 0);
    static const uint32_t keep[3] = {1, 2, 4};
    ss_id *stacks = ss_calloc_array(3, sizeof *stacks);
    ck_assert_ptr_nonnull(stacks);
    ck_assert_int_eq(ss_model_derive_samples(&m, &o, stacks, keep, 0, 3), 0);
    ck_assert_uint_eq(m.labels.n, 2);
    ck_assert_uint_eq(ss_model_nlabelsets(&m), ss_model_nlabelsets(&o));
    ck_assert(ss_model_has_labels(&m));
    ck_assert_uint_eq(ss_sample_labelset(&m, 0), 0);
    ck_assert_uint_eq(ss_sample_labelset(&m, 1), sb);
    ck_assert_uint_eq(ss_sample_labelset(&m, 2), sb);
    ck_assert_uint_eq(ss_labelset_size(&m, sb), 1);
    ck_assert_uint_eq(ss_labelset_labels(&m, sb)[0], lb);
    ck_assert_str_eq(ss_label_key(&m, lb), "worker");
    char buf[16];
    ck_assert_str_eq(ss_label_value(&m, lb, buf, sizeof buf), "b");
    ss_model_free(&m);
    /* kept samples 0 and 1 of a model without labels: none either */
    ss_model_free(&o);
    ck_assert_int_eq(ss_model_init(&o, &err), 0);
    f = ss_model_intern_cstr(&o, "f");
    loc = ss_model_location(&o, ss_model_function(&o, f, f, SS_NONE, 0), SS_NONE, 0);
    st = ss_model_stack(&o, &loc, 1, SS_NONE);
    add_src(&o, 1000);
    for (int i = 0; i < 2; i++) {
        int64_t v[1] = {1};
        ck_assert_int_eq(ss_model_add_sample(&o, st, v), 0);
    }
    ck_assert_int_eq(ss_model_init_like(&m, &o, &err), 0);
    stacks = ss_calloc_array(2, sizeof *stacks);
    ck_assert_ptr_nonnull(stacks);
    ck_assert_int_eq(ss_model_derive_samples(&m, &o, stacks, NULL, 0, 2), 0);
    ck_assert(!ss_model_has_labels(&m));
    ck_assert_uint_eq(ss_model_nlabelsets(&m), 1);
    ss_model_free(&m);
    ss_model_free(&o);
}
END_TEST

/* ss_model_add_source_flags adds to a source's flags (perf without a clock
 * event: untimed). */
START_TEST(test_source_flags)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id s = add_src(&m, 1000);
    ss_model_add_source_flags(&m, s, SS_SRC_UNTIMED);
    ss_model_add_source_flags(&m, s, SS_SRC_GC);
    ck_assert_uint_eq(m.sources.v[s].flags, SS_SRC_UNTIMED | SS_SRC_GC);
    ss_model_free(&m);
}
END_TEST

/* vec.h's array allocations: an overflowing size is NULL (not a wrapped,
 * small block), an empty array is a real pointer. */
START_TEST(test_alloc_array)
{
    size_t big = (size_t)-1 / 4 + 1; /* big * 4 wraps to 0 */
    ck_assert_ptr_null(ss_alloc_array(big, 4));
    ck_assert_ptr_null(ss_calloc_array(big, 4));
    uint32_t *p = ss_alloc_array(0, sizeof *p);
    ck_assert_ptr_nonnull(p);
    p[0] = 7; /* one element, even for n == 0 */
    ck_assert_ptr_null(ss_realloc_array(p, big, 4));
    ck_assert_uint_eq(p[0], 7); /* unchanged on failure */
    uint32_t *q = ss_realloc_array(p, 1000, sizeof *q);
    ck_assert_ptr_nonnull(q);
    ck_assert_uint_eq(q[0], 7);
    q[999] = 1;
    free(q);
    unsigned char *z = ss_calloc_array(0, 0);
    ck_assert_ptr_nonnull(z);
    ck_assert_uint_eq(z[0], 0);
    free(z);
}
END_TEST

START_TEST(test_source_totals)
{
    /* Source 1 (20 ms): [f], [f], an empty stack; source 2 (10 ms): [g] x2.
     * Per source: samples 3 and 2, counted 2 and 2 (the empty one is not),
     * time and value 0.04 s and 0.02 s; summed in source order they are
     * ss_model_totals' to the bit. */
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id nf = ss_model_intern_cstr(&m, "f"), ng = ss_model_intern_cstr(&m, "g");
    ss_id lf = ss_model_location(&m, ss_model_function(&m, nf, nf, SS_NONE, 0), SS_NONE, 0);
    ss_id lg = ss_model_location(&m, ss_model_function(&m, ng, ng, SS_NONE, 0), SS_NONE, 0);
    ss_id sf = ss_model_stack(&m, &lf, 1, SS_NONE), sg = ss_model_stack(&m, &lg, 1, SS_NONE);
    ss_id se = ss_model_stack(&m, NULL, 0, SS_NONE);
    ck_assert_uint_ne(add_src(&m, 20000), SS_NONE);
    ck_assert_int_eq(ss_model_add_sample(&m, sf, NULL), 0);
    ck_assert_int_eq(ss_model_add_sample(&m, sf, NULL), 0);
    ck_assert_int_eq(ss_model_add_sample(&m, se, NULL), 0);
    ck_assert_uint_ne(add_src(&m, 10000), SS_NONE);
    ck_assert_int_eq(ss_model_add_sample(&m, sg, NULL), 0);
    ck_assert_int_eq(ss_model_add_sample(&m, sg, NULL), 0);
    ss_model_seal(&m);
    ck_assert_int_eq(ss_model_set_measure(&m, "time", &err), 0);
    struct ss_totals a, b, all;
    ss_source_totals(&m, 0, &a);
    ss_source_totals(&m, 1, &b);
    ss_model_totals(&m, &all);
    ck_assert_uint_eq(a.samples, 3);
    ck_assert_uint_eq(a.counted, 2);
    ck_assert_uint_eq(a.rows, 3);
    ck_assert_uint_eq(a.empty_rows, 1);
    ck_assert_double_eq_tol(a.sampling_time, 0.04, 1e-12);
    ck_assert_double_eq_tol(a.value, 0.04, 1e-12);
    ck_assert_uint_eq(b.samples, 2);
    ck_assert_uint_eq(b.counted, 2);
    ck_assert_uint_eq(b.rows, 2);
    ck_assert_uint_eq(b.empty_rows, 0);
    ck_assert_double_eq_tol(b.value, 0.02, 1e-12);
    ck_assert_uint_eq(all.samples, a.samples + b.samples);
    ck_assert_uint_eq(all.rows, 5);
    double v = 0.0 + a.value + b.value, t = 0.0 + a.sampling_time + b.sampling_time;
    ck_assert_mem_eq(&all.value, &v, sizeof v); /* the same sum, to the bit */
    ck_assert_mem_eq(&all.sampling_time, &t, sizeof t);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_seal)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id n = ss_model_intern_cstr(&m, "f");
    ss_model_function(&m, n, n, SS_NONE, 0);
    ss_model_seal(&m);
    ck_assert_ptr_null(m.fn_index);
    ck_assert_ptr_null(m.loc_index);
    ck_assert_ptr_null(m.stack_index);
    /* The tables stay readable. */
    ck_assert_str_eq(ss_str(&m, m.functions.v[0].name), "f");
    /* Reindexing a sealed model does nothing (and does not crash). */
    ck_assert_int_eq(ss_model_reindex_locations(&m), 0);
    ss_model_free(&m);
}
END_TEST

/* Per-stack counts of a long source, in parts on several threads
 * (ss_stack_counts_source; a part is at least 2^20 samples): 2.5M samples
 * over 40 stacks, of which 30-39 first appear in the last part, with
 * counts 1-3 and a bytes column as the measure.  Each thread count gives
 * the stacks in the order of their first sample and the sums a plain loop
 * over the samples gives here. */
START_TEST(test_stack_counts_parts)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id vb = ss_model_value_type(&m, "bytes", "bytes");
    ss_id loc[6];
    for (int f = 0; f < 6; f++) {
        char nm[16];
        snprintf(nm, sizeof nm, "f%d", f);
        ss_id s = ss_model_intern_cstr(&m, nm);
        loc[f] = ss_model_location(&m, ss_model_function(&m, s, s, SS_NONE, 0), SS_NONE, 0);
    }
    ss_id st[40];
    for (int k = 0; k < 40; k++) { /* 36 of depth 2, 4 of depth 3: all distinct */
        ss_id fr[3] = {loc[k % 6], k < 36 ? loc[k / 6] : loc[0], loc[1]};
        st[k] = ss_model_stack(&m, fr, k < 36 ? 2 : 3, SS_NONE);
    }
    ss_id sid = fx_source(&m, "test", "built", 1, 1000, 0);
    ss_model_source_value(&m, sid, vb, 0);
    const size_t n = 2500000;
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        size_t k = i < 2 * n / 3 ? x % 30 : x % 40;
        int64_t vals[2] = {1 + (int64_t)(x >> 20) % 3, (int64_t)(x >> 32) % 5000};
        ck_assert_int_eq(ss_model_add_sample(&m, st[k], vals), 0);
    }
    ss_model_seal(&m);
    ck_assert_int_eq(ss_model_set_measure(&m, "bytes", &err), 0);
    /* the reference: one plain loop over the columns */
    size_t ns = ss_model_nstacks(&m), nref = 0;
    uint64_t *cnt = calloc(ns, sizeof *cnt);
    int64_t *val = calloc(ns, sizeof *val);
    ss_id order[40];
    ck_assert(cnt && val);
    for (size_t i = 0; i < n; i++) {
        ss_id s = m.sample_stack.v[i];
        if (!cnt[s])
            order[nref++] = s;
        cnt[s] += (uint64_t)m.values.v[SS_VT_COUNT][i];
        val[s] += m.values.v[vb][i];
    }
    ck_assert_uint_eq(nref, 40);
    static const char *const threads[] = {"1", "2", "3"};
    for (size_t t = 0; t < 3; t++) {
        setenv("STACKSCOPE_THREADS", threads[t], 1);
        struct ss_stack_counts sc;
        ck_assert_int_eq(ss_stack_counts_init(&sc, &m), 0);
        for (int again = 0; again < 2; again++) { /* the kept parts cleared */
            ck_assert_int_eq(ss_stack_counts_source(&sc, &m, 0), 0);
            ck_assert_uint_eq(sc.n, 40);
            for (size_t k = 0; k < 40; k++) {
                ss_id s = sc.touched[k];
                ck_assert_msg(s == order[k], "threads %s: stack %zu is %u, want %u", threads[t], k,
                              s, order[k]);
                ck_assert_uint_eq(sc.cnt[s], cnt[s]);
                ck_assert_int_eq(sc.val[s], val[s]);
            }
        }
        ss_stack_counts_free(&sc);
    }
    unsetenv("STACKSCOPE_THREADS");
    free(cnt);
    free(val);
    ss_model_free(&m);
}
END_TEST

Suite *model_suite(void)
{
    Suite *s = suite_create("model");
    TCase *tc = tcase_create("builder");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_init_free);
    tcase_add_test(tc, test_functions_dedupe);
    tcase_add_test(tc, test_function_identity);
    tcase_add_test(tc, test_model_questions);
    tcase_add_test(tc, test_locations_dedupe);
    tcase_add_test(tc, test_reindex_locations);
    tcase_add_test(tc, test_reindex_merges);
    tcase_add_test(tc, test_stacks_csr);
    tcase_add_test(tc, test_many_stacks);
    tcase_add_test(tc, test_value_columns);
    tcase_add_test(tc, test_add_samples);
    tcase_add_test(tc, test_count_total_limit);
    tcase_add_test(tc, test_labels);
    tcase_add_test(tc, test_sample_source);
    tcase_add_test(tc, test_sample_source_single);
    tcase_add_test(tc, test_warnings);
    tcase_add_test(tc, test_builder_setters);
    tcase_add_test(tc, test_derive);
    tcase_add_test(tc, test_derive_labels);
    tcase_add_test(tc, test_source_flags);
    tcase_add_test(tc, test_alloc_array);
    tcase_add_test(tc, test_stack_counts_parts);
    tcase_add_test(tc, test_seal);
    tcase_add_test(tc, test_source_totals);
    suite_add_tcase(s, tc);
    return s;
}
