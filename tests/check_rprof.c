/* check_rprof.c - the Rprof reader (src/load_rprof.c) through ss_load_files:
 * sources, samples, stacks and positions of tiny hand-written profiles, every
 * line-end convention, odd names, cut-off and blank lines, and errors. */
#include "check_suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"
#include "load_rprof.h"
#include "stats.h"
#include "vec.h"

/* The stack of sample i as fx_stack_text. */
static const char *sample_text(const struct ss_model *m, size_t i)
{
    static char buf[16384];
    fx_stack_text(m, m->sample_stack.v[i], buf, sizeof buf);
    return buf;
}

/* ---- plain files ---------------------------------------------------------- */

START_TEST(test_plain)
{
    static const char prof[] = "sample.interval=20000\n"
                               "\"f\" \"g\" \"main\" \n"
                               "\"g\" \"main\" \n"
                               "\"f\" \"g\" \"main\" \n";
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(FX_LOAD(&m, &err, prof, path), 0);
    /* One source: session 1 with its header on line 1, 20000 us, no flags,
     * samples [0, 3). */
    ck_assert_uint_eq(m.sources.n, 1);
    const struct ss_source *s = &m.sources.v[0];
    ck_assert_str_eq(ss_str(&m, s->type), "rprof");
    ck_assert_str_eq(ss_str(&m, s->uri), path);
    ck_assert_uint_eq(s->session, 1);
    ck_assert_uint_eq(s->header_line, 1);
    ck_assert_double_exact(s->interval_us, 20000.0);
    ck_assert_double_eq_tol(ss_source_interval_s(&m, 0), 0.02, 1e-15);
    ck_assert_uint_eq(s->flags, 0);
    ck_assert_uint_eq(s->first_sample, 0);
    ck_assert_uint_eq(s->n_samples, 3);
    /* Samples 0 and 2 share a stack: 2 distinct stacks, timeline 0 1 0. */
    ck_assert_uint_eq(m.sample_stack.n, 3);
    ck_assert_uint_eq(ss_model_nstacks(&m), 2);
    ck_assert_uint_eq(m.sample_stack.v[0], m.sample_stack.v[2]);
    ck_assert_uint_ne(m.sample_stack.v[0], m.sample_stack.v[1]);
    /* Frames innermost first, as written. */
    ck_assert_str_eq(sample_text(&m, 0), "f | g | main");
    ck_assert_str_eq(sample_text(&m, 1), "g | main");
    ss_id st = m.sample_stack.v[0];
    ck_assert_uint_eq(ss_stack_depth(&m, st), 3);
    ck_assert_str_eq(fx_loc_name(&m, ss_stack_frames(&m, st)[0]), "f");
    ck_assert_str_eq(fx_loc_name(&m, ss_stack_frames(&m, st)[2]), "main");
    ck_assert_uint_eq(m.stack_tail.v[st], SS_NONE);
    /* Three functions, three position-less locations. */
    ck_assert_uint_eq(m.functions.n, 3);
    ck_assert_uint_eq(m.locations.n, 3);
    for (size_t i = 0; i < m.functions.n; i++) {
        ck_assert_uint_eq(m.functions.v[i].name, m.functions.v[i].system_name);
        ck_assert_uint_eq(m.functions.v[i].filename, SS_NONE);
        ck_assert_uint_eq(m.functions.v[i].start_line, 0);
    }
    for (size_t i = 0; i < m.locations.n; i++) {
        ck_assert_uint_eq(m.locations.v[i].file, SS_NONE);
        ck_assert_uint_eq(m.locations.v[i].line, 0);
    }
    /* Only the implicit count column; no memory types, no warnings. */
    ck_assert_uint_eq(m.value_types.n, 1);
    ck_assert_ptr_null(m.values.v[SS_VT_COUNT]);
    struct ss_rprof_vt vt;
    ck_assert_int_eq(ss_rprof_value_types(&m, &vt), -1);
    ck_assert_uint_eq(m.warnings.n, 0);
    ck_assert_int_eq(ss_model_has_memory(&m), 0);
    ck_assert_int_eq(ss_model_has_lines(&m), 0);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_header_flags)
{
    struct ss_model m;
    /* All three flags, 1000 us, no samples. */
    FX_LOAD_OK(&m, "memory profiling: GC profiling: line profiling: sample.interval=1000\n");
    ck_assert_uint_eq(m.sources.n, 1);
    ck_assert_uint_eq(m.sources.v[0].flags, SS_SRC_MEMORY | SS_SRC_GC | SS_SRC_LINE);
    ck_assert_double_exact(m.sources.v[0].interval_us, 1000.0);
    ck_assert_uint_eq(m.sources.v[0].n_samples, 0);
    ck_assert_uint_eq(m.sample_stack.n, 0);
    ss_model_free(&m);

    FX_LOAD_OK(&m, "GC profiling: sample.interval=100\n\"<GC>\" \"f\" \n");
    ck_assert_uint_eq(m.sources.v[0].flags, SS_SRC_GC);
    ck_assert_double_exact(m.sources.v[0].interval_us, 100.0);
    /* 100 us = 0.0001 s */
    ck_assert_double_eq_tol(ss_source_interval_s(&m, 0), 0.0001, 1e-18);
    ck_assert_str_eq(sample_text(&m, 0), "<GC> | f");
    ss_model_free(&m);

    FX_LOAD_OK(&m, "line profiling: sample.interval=20000\n");
    ck_assert_uint_eq(m.sources.v[0].flags, SS_SRC_LINE);
    ss_model_free(&m);

    ck_assert(ss_rprof_is_header("sample.interval=20000", 21));
    ck_assert(ss_rprof_is_header("memory profiling: line profiling: sample.interval=5", 52));
    ck_assert(!ss_rprof_is_header("\"f\" ", 4));
    ck_assert(!ss_rprof_is_header("#File 1: a.R", 12));
    ck_assert(!ss_rprof_is_header("sample.interva", 14));
}
END_TEST

START_TEST(test_memory_values)
{
    /* Memory prefixes are stored as values; a prefix-only line is a sample
     * with an empty stack. */
    static const char prof[] = "memory profiling: sample.interval=20000\n"
                               ":100:200:30000:0:\n"
                               ":110:190:31000:2:\"f\" \n"
                               ":120:250:29000:0:\"f\" \"g\" \n"
                               ":130:260:33000:7:\"f\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    ck_assert_uint_eq(m.sources.v[0].flags, SS_SRC_MEMORY);
    ck_assert_uint_eq(m.sample_stack.n, 4);
    /* Stacks: empty, f, f<-g; samples 1 and 3 share "f". */
    ck_assert_uint_eq(ss_model_nstacks(&m), 3);
    ck_assert_uint_eq(ss_stack_depth(&m, m.sample_stack.v[0]), 0);
    ck_assert_uint_eq(m.stack_tail.v[m.sample_stack.v[0]], SS_NONE);
    ck_assert_str_eq(sample_text(&m, 2), "f | g");
    ck_assert_uint_eq(m.sample_stack.v[1], m.sample_stack.v[3]);
    /* samples/count + 4 memory types. */
    ck_assert_uint_eq(m.value_types.n, 5);
    struct ss_rprof_vt vt;
    ck_assert_int_eq(ss_rprof_value_types(&m, &vt), 0);
    ck_assert_str_eq(ss_str(&m, m.value_types.v[vt.small_v].type), "small_v");
    ck_assert_str_eq(ss_str(&m, m.value_types.v[vt.big_v].type), "big_v");
    ck_assert_str_eq(ss_str(&m, m.value_types.v[vt.nodes].type), "nodes");
    ck_assert_str_eq(ss_str(&m, m.value_types.v[vt.dup_count].type), "dup_count");
    ck_assert_str_eq(ss_str(&m, m.value_types.v[vt.small_v].unit), "cells");
    ck_assert_str_eq(ss_str(&m, m.value_types.v[vt.nodes].unit), "bytes");
    ck_assert_str_eq(ss_str(&m, m.value_types.v[vt.dup_count].unit), "count");
    /* Columns exactly as written. */
    static const int64_t sm[4] = {100, 110, 120, 130}, bg[4] = {200, 190, 250, 260},
                         nd[4] = {30000, 31000, 29000, 33000}, dp[4] = {0, 2, 0, 7};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(m.values.v[vt.small_v][i], sm[i]);
        ck_assert_int_eq(m.values.v[vt.big_v][i], bg[i]);
        ck_assert_int_eq(m.values.v[vt.nodes][i], nd[i]);
        ck_assert_int_eq(m.values.v[vt.dup_count][i], dp[i]);
        ck_assert_int_eq(ss_sample_count(&m, (size_t)i), 1);
    }
    ck_assert_int_eq(ss_model_has_memory(&m), 1);
    ck_assert_uint_eq(m.warnings.n, 0);
    ss_model_free(&m);
}
END_TEST

/* The memory prefix's numbers at every length from 1 to 18 digits, with
 * leading zeros, and where the line ends within eight bytes of a number
 * (the parser reads eight bytes at a time where it can), against strtoull. */
START_TEST(test_memory_prefix_digits)
{
    static char prof[65536];
    size_t n = (size_t)sprintf(prof, "memory profiling: sample.interval=20000\n");
    char num[4][24];
    unsigned long long want[80][4];
    size_t lines = 0;
    for (int d = 1; d <= 18; d++) {
        for (int v = 0; v < 4; v++) {
            /* digit counts d, 19 - d, d % 3 + 1 and (with leading zeros) d */
            int len[4] = {d, 19 - d, d % 3 + 1, d};
            for (int k = 0; k < 4; k++) {
                int dl = len[(k + v) % 4];
                for (int j = 0; j < dl; j++)
                    num[k][j] = (char)('0' + (k == 3 && j < dl / 2 ? 0 : (d * 7 + j * 3 + k) % 10));
                num[k][dl] = 0;
                want[lines][k] = strtoull(num[k], NULL, 10);
            }
            /* v == 3: a prefix-only line (the numbers end near the line's end) */
            n += (size_t)sprintf(prof + n, ":%s:%s:%s:%s:%s\n", num[0], num[1], num[2], num[3],
                                 v == 3 ? "" : "\"f\" ");
            lines++;
        }
    }
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    struct ss_rprof_vt vt;
    ck_assert_int_eq(ss_rprof_value_types(&m, &vt), 0);
    ck_assert_uint_eq(m.sample_stack.n, lines);
    ss_id col[4] = {vt.small_v, vt.big_v, vt.nodes, vt.dup_count};
    for (size_t i = 0; i < lines; i++)
        for (int k = 0; k < 4; k++)
            ck_assert_msg(m.values.v[col[k]][i] == (int64_t)want[i][k],
                          "sample %zu field %d: %lld, want %llu", i, k,
                          (long long)m.values.v[col[k]][i], want[i][k]);
    ss_model_free(&m);
}
END_TEST

/* Bad memory prefixes: the message's column is the first bad byte. */
START_TEST(test_memory_prefix_bad_column)
{
    static const struct {
        const char *line;
        unsigned col;
    } cases[] = {
        {":1234567890123456789:2:3:4:\"a\" ", 2}, /* 19 digits */
        {":1:123456789012345678901234:3:4:\"a\" ", 4},
        {":12345678x:2:3:4:\"a\" ", 10},
        {":12345678", 10},
        {":1:2:3:4\"a\" ", 9},
        {"::2:3:4:\"a\" ", 2},
        {":1:2:3:12345678901234567", 25},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char text[256], path[4096], want[4300];
        int len = snprintf(text, sizeof text, "memory profiling: sample.interval=20000\n%s\n",
                           cases[c].line);
        struct ss_model m;
        struct ss_error err;
        int rc = fx_load(&m, &err, text, (size_t)len, path, sizeof path);
        ck_assert_int_eq(rc, SS_EINPUT);
        snprintf(want, sizeof want, "%s:2:%u: bad memory prefix", path, cases[c].col);
        ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "'%s': message '%s', want '%s'",
                      cases[c].line, err.msg, want);
    }
}
END_TEST

/* ---- line profiling --------------------------------------------------------- */

START_TEST(test_line_positions)
{
    static const char prof[] = "line profiling: sample.interval=20000\n"
                               "#File 1: /p/a.R\n"
                               "1#3 \"f\" 1#7 \"g\" \n"
                               "1#3 \"f\" 1#7 \"g\" 1#9 \n"
                               "\"f\" 1#7 \"g\" \n"
                               "1#9 \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    ck_assert_uint_eq(m.sample_stack.n, 4);
    /* The token before a name is that frame's line: f 3, g 7. */
    ss_id s0 = m.sample_stack.v[0];
    const ss_id *fr = ss_stack_frames(&m, s0);
    ck_assert_uint_eq(ss_stack_depth(&m, s0), 2);
    ck_assert_str_eq(fx_loc_name(&m, fr[0]), "f");
    ck_assert_str_eq(fx_loc_file(&m, fr[0]), "/p/a.R");
    ck_assert_uint_eq(m.locations.v[fr[0]].line, 3);
    ck_assert_str_eq(fx_loc_name(&m, fr[1]), "g");
    ck_assert_str_eq(fx_loc_file(&m, fr[1]), "/p/a.R");
    ck_assert_uint_eq(m.locations.v[fr[1]].line, 7);
    ck_assert_uint_eq(m.stack_tail.v[s0], SS_NONE);
    /* A token after the outermost name is the stack's tail: same frames,
     * another stack, tail = position-only location a.R#9. */
    ss_id s1 = m.sample_stack.v[1];
    ck_assert_uint_ne(s1, s0);
    ck_assert_uint_eq(ss_stack_frames(&m, s1)[0], fr[0]);
    ck_assert_uint_eq(ss_stack_frames(&m, s1)[1], fr[1]);
    ss_id tail = m.stack_tail.v[s1];
    ck_assert_uint_ne(tail, SS_NONE);
    ck_assert_uint_eq(m.locations.v[tail].function, SS_NONE);
    ck_assert_str_eq(fx_loc_file(&m, tail), "/p/a.R");
    ck_assert_uint_eq(m.locations.v[tail].line, 9);
    /* A name without a token before it has no position. */
    ck_assert_str_eq(sample_text(&m, 2), "f | g@/p/a.R#7");
    /* A position-only line: no frames, only the tail. */
    ck_assert_str_eq(sample_text(&m, 3), "+ /p/a.R#9");
    ck_assert_uint_eq(ss_stack_depth(&m, m.sample_stack.v[3]), 0);
    ck_assert_int_eq(ss_model_has_lines(&m), 1);
    ck_assert_uint_eq(m.warnings.n, 0);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_file_declared_late)
{
    /* File numbers 1 and 2 are used on line 2, declared on lines 3-4. */
    static const char prof[] = "line profiling: sample.interval=20000\n"
                               "1#3 \"f\" 2#8 \"g\" \n"
                               "#File 1: /p/a.R\n"
                               "#File 2: /q/b.R\n"
                               "2#8 \"g\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    ck_assert_uint_eq(m.sample_stack.n, 2);
    ck_assert_str_eq(sample_text(&m, 0), "f@/p/a.R#3 | g@/q/b.R#8");
    ck_assert_str_eq(sample_text(&m, 1), "g@/q/b.R#8");
    /* No placeholder is left in any location. */
    for (size_t i = 0; i < m.locations.n; i++) {
        ss_id f = m.locations.v[i].file;
        ck_assert(f == SS_NONE || strcmp(ss_str(&m, f), "/p/a.R") == 0 ||
                  strcmp(ss_str(&m, f), "/q/b.R") == 0);
    }
    ss_model_free(&m);
}
END_TEST

/* Regression (found by this test): after a late `#File` resolves a file
 * number, the model once kept two locations with the same (function, file,
 * line) and two stacks with the same frames, although locations are
 * deduplicated and "a stack is stored once however many samples hit it".
 * Here both samples are h at /p/a.R line 4: one distinct stack, one
 * location for h. */
START_TEST(test_file_declared_late_dedupe)
{
    static const char prof[] = "line profiling: sample.interval=20000\n"
                               "1#4 \"h\" \n"
                               "#File 1: /p/a.R\n"
                               "1#4 \"h\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    ck_assert_str_eq(sample_text(&m, 0), "h@/p/a.R#4");
    ck_assert_str_eq(sample_text(&m, 1), "h@/p/a.R#4");
    /* Locations are distinct by (function, file, line).  Facts are gathered
     * first and the model freed before asserting, so a failure leaks nothing
     * under CK_FORK=no (valgrind). */
    size_t dup_i = 0, dup_j = 0;
    int dup = 0;
    for (size_t i = 0; i < m.locations.n && !dup; i++)
        for (size_t j = i + 1; j < m.locations.n && !dup; j++)
            if (m.locations.v[i].function == m.locations.v[j].function &&
                m.locations.v[i].file == m.locations.v[j].file &&
                m.locations.v[i].line == m.locations.v[j].line) {
                dup = 1;
                dup_i = i;
                dup_j = j;
            }
    size_t nstacks = ss_model_nstacks(&m);
    ss_id st0 = m.sample_stack.v[0], st1 = m.sample_stack.v[1];
    ss_model_free(&m);
    ck_assert_msg(!dup, "locations %zu and %zu are equal", dup_i, dup_j);
    ck_assert_uint_eq(nstacks, 1);
    ck_assert_uint_eq(st0, st1);
}
END_TEST

START_TEST(test_undeclared_file)
{
    static const char prof[] = "line profiling: sample.interval=20000\n"
                               "#File 1: /p/a.R\n"
                               "3#5 \"f\" 1#2 \"g\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    /* File 3 is never declared: file SS_NONE, line 5 kept (R's NA#5). */
    ss_id s = m.sample_stack.v[0];
    ss_id f = ss_stack_frames(&m, s)[0];
    ck_assert_str_eq(fx_loc_name(&m, f), "f");
    ck_assert_uint_eq(m.locations.v[f].file, SS_NONE);
    ck_assert_uint_eq(m.locations.v[f].line, 5);
    ck_assert_str_eq(sample_text(&m, 0), "f@NA#5 | g@/p/a.R#2");
    ss_model_free(&m);
}
END_TEST

START_TEST(test_empty_file_path)
{
    /* Code typed at the REPL: `#File 1: ` with an empty path. */
    struct ss_model m;
    FX_LOAD_OK(&m, "line profiling: sample.interval=20000\n#File 1: \n1#3 \"f\" \n");
    ss_id f = ss_stack_frames(&m, m.sample_stack.v[0])[0];
    ck_assert_ptr_nonnull(fx_loc_file(&m, f));
    ck_assert_str_eq(fx_loc_file(&m, f), "");
    ck_assert_uint_eq(m.locations.v[f].line, 3);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_file_numbers_per_session)
{
    /* Numbering restarts in every session: file 1 of session 2, used on
     * line 5 before its declaration on line 6, is /q/b.R, not session 1's
     * /p/a.R; file 2 is never declared in session 2. */
    static const char prof[] = "line profiling: sample.interval=20000\n"
                               "#File 1: /p/a.R\n"
                               "1#3 \"f\" \n"
                               "line profiling: sample.interval=10000\n"
                               "1#4 \"f\" \n"
                               "#File 1: /q/b.R\n"
                               "1#5 \"f\" \n"
                               "2#6 \"f\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    ck_assert_uint_eq(m.sources.n, 2);
    ck_assert_uint_eq(m.sample_stack.n, 4);
    ck_assert_str_eq(sample_text(&m, 0), "f@/p/a.R#3");
    ck_assert_str_eq(sample_text(&m, 1), "f@/q/b.R#4");
    ck_assert_str_eq(sample_text(&m, 2), "f@/q/b.R#5");
    ck_assert_str_eq(sample_text(&m, 3), "f@NA#6");
    ss_model_free(&m);
}
END_TEST

/* ---- sessions and files ------------------------------------------------------ */

START_TEST(test_two_sessions)
{
    static const char prof[] = "line profiling: sample.interval=20000\n"                /* 1 */
                               "#File 1: /p/a.R\n"                                      /* 2 */
                               "1#3 \"f\" \n"                                           /* 3 */
                               "1#3 \"f\" \n"                                           /* 4 */
                               "memory profiling: GC profiling: sample.interval=5000\n" /* 5 */
                               ":10:20:30:0:\"<GC>\" \"g\" \n"                          /* 6 */
                               ":11:20:30:0:\"g\" \n"                                   /* 7 */
                               ":12:20:30:1:\n";                                        /* 8 */
    struct ss_model m;
    char path[4096];
    struct ss_error err;
    ck_assert_int_eq(FX_LOAD(&m, &err, prof, path), 0);
    ck_assert_uint_eq(m.sources.n, 2);
    const struct ss_source *a = &m.sources.v[0], *b = &m.sources.v[1];
    /* Session 1: header line 1, 20000 us, line profiling, samples [0, 2). */
    ck_assert_uint_eq(a->session, 1);
    ck_assert_uint_eq(a->header_line, 1);
    ck_assert_double_exact(a->interval_us, 20000.0);
    ck_assert_uint_eq(a->flags, SS_SRC_LINE);
    ck_assert_uint_eq(a->first_sample, 0);
    ck_assert_uint_eq(a->n_samples, 2);
    /* Session 2: header line 5, 5000 us, memory + GC, samples [2, 5). */
    ck_assert_uint_eq(b->session, 2);
    ck_assert_uint_eq(b->header_line, 5);
    ck_assert_double_exact(b->interval_us, 5000.0);
    ck_assert_uint_eq(b->flags, SS_SRC_MEMORY | SS_SRC_GC);
    ck_assert_uint_eq(b->first_sample, 2);
    ck_assert_uint_eq(b->n_samples, 3);
    /* Same file for both. */
    ck_assert_str_eq(ss_str(&m, a->uri), path);
    ck_assert_uint_eq(a->uri, b->uri);
    ck_assert_uint_eq(ss_sample_source(&m, 1), 0);
    ck_assert_uint_eq(ss_sample_source(&m, 2), 1);
    ck_assert_uint_eq(ss_sample_source(&m, 4), 1);
    ck_assert_str_eq(sample_text(&m, 0), "f@/p/a.R#3");
    ck_assert_str_eq(sample_text(&m, 2), "<GC> | g");
    ck_assert_str_eq(sample_text(&m, 4), "");
    /* Memory columns appear with session 2; session 1's samples get 0:
     * small_v 0 0 10 11 12, dup_count 0 0 0 0 1. */
    struct ss_rprof_vt vt;
    ck_assert_int_eq(ss_rprof_value_types(&m, &vt), 0);
    static const int64_t sm[5] = {0, 0, 10, 11, 12}, dp[5] = {0, 0, 0, 0, 1};
    for (int i = 0; i < 5; i++) {
        ck_assert_int_eq(m.values.v[vt.small_v][i], sm[i]);
        ck_assert_int_eq(m.values.v[vt.dup_count][i], dp[i]);
        ck_assert_int_eq(ss_sample_count(&m, (size_t)i), 1);
    }
    ss_model_free(&m);
}
END_TEST

START_TEST(test_memory_then_plain)
{
    /* A plain session after a memory one: its samples have memory values 0
     * (small_v 5 then 0 0). */
    static const char prof[] = "memory profiling: sample.interval=20000\n"
                               ":5:6:7:8:\"a\" \n"
                               "sample.interval=20000\n"
                               "\"a\" \n"
                               "\"b\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    ck_assert_uint_eq(m.sources.n, 2);
    ck_assert_uint_eq(m.sources.v[1].flags, 0);
    ck_assert_uint_eq(m.sources.v[1].first_sample, 1);
    ck_assert_uint_eq(m.sources.v[1].n_samples, 2);
    struct ss_rprof_vt vt;
    ck_assert_int_eq(ss_rprof_value_types(&m, &vt), 0);
    ck_assert_int_eq(m.values.v[vt.small_v][0], 5);
    ck_assert_int_eq(m.values.v[vt.small_v][1], 0);
    ck_assert_int_eq(m.values.v[vt.small_v][2], 0);
    ck_assert_int_eq(m.values.v[vt.dup_count][0], 8);
    ck_assert_int_eq(m.values.v[vt.dup_count][2], 0);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_several_files)
{
    static const char p1[] = "sample.interval=20000\n\"a\" \n\"a\" \n";
    static const char p2[] = "sample.interval=10000\n\"a\" \n\"b\" \"a\" \n\"a\" \n";
    char path1[4096], path2[4096];
    fx_write(path1, sizeof path1, p1, sizeof p1 - 1);
    fx_write(path2, sizeof path2, p2, sizeof p2 - 1);
    char *paths[2] = {path1, path2};
    struct ss_model m;
    struct ss_error err;
    int rc = ss_load_files(&m, paths, 2, NULL, &err);
    unlink(path1);
    unlink(path2);
    ck_assert_msg(rc == 0, "%s", err.msg);
    /* One source per file, each session 1: samples [0, 2) and [2, 5). */
    ck_assert_uint_eq(m.sources.n, 2);
    ck_assert_str_eq(ss_str(&m, m.sources.v[0].uri), path1);
    ck_assert_str_eq(ss_str(&m, m.sources.v[1].uri), path2);
    ck_assert_uint_eq(m.sources.v[1].session, 1);
    ck_assert_uint_eq(m.sources.v[1].header_line, 1);
    ck_assert_uint_eq(m.sources.v[1].first_sample, 2);
    ck_assert_uint_eq(m.sources.v[1].n_samples, 3);
    /* "a" is one function and one stack across both files. */
    ck_assert_uint_eq(m.functions.n, 2);
    ck_assert_uint_eq(ss_model_nstacks(&m), 2);
    ck_assert_uint_eq(m.sample_stack.v[0], m.sample_stack.v[4]);
    ss_model_free(&m);
}
END_TEST

/* ---- line ends -------------------------------------------------------------- */

/* Everything a loaded model says, as text (not the uri: temp paths differ). */
static char *model_dump(const struct ss_model *m)
{
    size_t cap = 1 << 16, at = 0;
    char *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    char st[4096];
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        at += (size_t)snprintf(out + at, cap - at, "source %u line %u iv %g flags %u [%zu+%zu]\n",
                               src->session, src->header_line, src->interval_us, src->flags,
                               src->first_sample, src->n_samples);
    }
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        fx_stack_text(m, m->sample_stack.v[i], st, sizeof st);
        at += (size_t)snprintf(out + at, cap - at, "%zu: %s", i, st);
        for (size_t t = 0; t < m->values.n; t++)
            at += (size_t)snprintf(out + at, cap - at, " %lld",
                                   (long long)(m->values.v[t] ? m->values.v[t][i] : -1));
        at += (size_t)snprintf(out + at, cap - at, "\n");
    }
    at += (size_t)snprintf(out + at, cap - at, "stacks %zu warnings %zu\n", ss_model_nstacks(m),
                           m->warnings.n);
    ck_assert_uint_lt(at, cap);
    return out;
}

static const char line_end_prof[] = "line profiling: sample.interval=20000\n"
                                    "#File 1: /p/a.R\n"
                                    "1#3 \"f\" 1#7 \"g\" \n"
                                    "\"a b\" \"c;d\" \n"
                                    "memory profiling: line profiling: sample.interval=5000\n"
                                    "#File 1: /q/b.R\n"
                                    ":1:2:3:0:1#2 \"h\" \n"
                                    ":1:2:3:0:\n";

static char *load_with_line_end(const char *eol)
{
    /* Replace every "\n" of line_end_prof by eol. */
    char buf[1024];
    size_t n = 0;
    for (const char *p = line_end_prof; *p; p++) {
        if (*p == '\n')
            for (const char *e = eol; *e; e++)
                buf[n++] = *e;
        else
            buf[n++] = *p;
    }
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    int rc = fx_load(&m, &err, buf, n, path, sizeof path);
    ck_assert_msg(rc == 0, "eol %s: %s", eol[0] == '\r' ? "CR.." : "LF", err.msg);
    /* Hand-checked facts, whatever the line end. */
    ck_assert_uint_eq(m.sources.n, 2);
    ck_assert_uint_eq(m.sources.v[1].header_line, 5);
    ck_assert_uint_eq(m.sample_stack.n, 4);
    ck_assert_str_eq(sample_text(&m, 0), "f@/p/a.R#3 | g@/p/a.R#7");
    ck_assert_str_eq(sample_text(&m, 1), "a b | c;d");
    ck_assert_str_eq(sample_text(&m, 2), "h@/q/b.R#2");
    ck_assert_str_eq(sample_text(&m, 3), "");
    ck_assert_uint_eq(m.warnings.n, 0);
    char *d = model_dump(&m);
    ss_model_free(&m);
    return d;
}

START_TEST(test_line_ends)
{
    char *lf = load_with_line_end("\n");
    char *crlf = load_with_line_end("\r\n");
    char *cr = load_with_line_end("\r");
    ck_assert_str_eq(crlf, lf);
    ck_assert_str_eq(cr, lf);
    free(lf);
    free(crlf);
    free(cr);
}
END_TEST

/* ---- names ------------------------------------------------------------------- */

START_TEST(test_odd_names)
{
    /* Names are never escaped: quotes, [[ ]], ';', spaces, UTF-8 ("é日本"). */
    static const char prof[] =
        "sample.interval=20000\n"
        "\"a\"b\" \"x[[\"k\"]]\" \"semi;colon\" \"weird name with spaces\" "
        "\"\xc3\xa9\xe6\x97\xa5\xe6\x9c\xac\" \"<Anonymous>\" \"stats::lm\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    ss_id s = m.sample_stack.v[0];
    ck_assert_uint_eq(ss_stack_depth(&m, s), 7);
    static const char *const want[7] = {"a\"b",
                                        "x[[\"k\"]]",
                                        "semi;colon",
                                        "weird name with spaces",
                                        "\xc3\xa9\xe6\x97\xa5\xe6\x9c\xac",
                                        "<Anonymous>",
                                        "stats::lm"};
    for (int k = 0; k < 7; k++)
        ck_assert_str_eq(fx_loc_name(&m, ss_stack_frames(&m, s)[k]), want[k]);
    ck_assert_uint_eq(m.functions.n, 7);
    ss_model_free(&m);

    /* The same with positions around names that contain `" ` and spaces. */
    static const char prof2[] = "line profiling: sample.interval=20000\n"
                                "#File 1: /p/my file.R\n"
                                "1#2 \"a b\" 1#3 \"fns[[\"a b\"]]\" 1#4 \n";
    FX_LOAD_OK(&m, prof2);
    ck_assert_str_eq(sample_text(&m, 0),
                     "a b@/p/my file.R#2 | fns[[\"a b\"]]@/p/my file.R#3 + /p/my file.R#4");
    ss_model_free(&m);
}
END_TEST

START_TEST(test_no_trailing_space)
{
    /* The last token of a line without its trailing space. */
    static const char prof[] = "sample.interval=20000\n"
                               "\"a\" \"b\"\n"
                               "\"c\"\n"
                               "\"c\" \n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    ck_assert_uint_eq(m.sample_stack.n, 3);
    ck_assert_str_eq(sample_text(&m, 0), "a | b");
    ck_assert_str_eq(sample_text(&m, 1), "c");
    /* "c" with and without the space is the same stack. */
    ck_assert_uint_eq(m.sample_stack.v[1], m.sample_stack.v[2]);
    ck_assert_uint_eq(m.warnings.n, 0);
    ss_model_free(&m);
}
END_TEST

/* ---- cut-off and blank lines ------------------------------------------------- */

START_TEST(test_cut_off_last_line)
{
    static const char prof[] = "sample.interval=20000\n"
                               "\"a\" \"b\" \n"
                               "\"a\" \"b"; /* line 3, cut in a name, no newline */
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(FX_LOAD(&m, &err, prof, path), 0);
    ck_assert_uint_eq(m.sample_stack.n, 1);
    ck_assert_uint_eq(m.sources.v[0].n_samples, 1);
    ck_assert_str_eq(sample_text(&m, 0), "a | b");
    ck_assert_uint_eq(m.warnings.n, 1);
    char where[4200];
    snprintf(where, sizeof where, "%s:3:", path);
    ck_assert_ptr_nonnull(strstr(m.warnings.v[0], where));
    ss_model_free(&m);

    /* Cut in the memory prefix. */
    FX_LOAD_OK(&m, "memory profiling: sample.interval=20000\n:1:2:3:4:\"a\" \n:11:2");
    ck_assert_uint_eq(m.sample_stack.n, 1);
    ck_assert_uint_eq(m.warnings.n, 1);
    ss_model_free(&m);

    /* A complete-looking sample without the newline R always writes is
     * still the cut-off tail. */
    FX_LOAD_OK(&m, "sample.interval=20000\n\"a\" \n\"a\" ");
    ck_assert_uint_eq(m.sample_stack.n, 1);
    ck_assert_uint_eq(m.warnings.n, 1);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_header_only_no_newline)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "sample.interval=20000");
    ck_assert_uint_eq(m.sources.n, 1);
    ck_assert_double_exact(m.sources.v[0].interval_us, 20000.0);
    ck_assert_uint_eq(m.sample_stack.n, 0);
    ck_assert_uint_eq(m.warnings.n, 0);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_blank_lines)
{
    static const char prof[] = "sample.interval=20000\n" /* 1 */
                               "\"a\" \n"                /* 2 */
                               "\n"                      /* 3 */
                               "\"b\" \n"                /* 4 */
                               "\n";                     /* 5: a trailing blank line */
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(FX_LOAD(&m, &err, prof, path), 0);
    ck_assert_uint_eq(m.sample_stack.n, 2);
    ck_assert_str_eq(sample_text(&m, 0), "a");
    ck_assert_str_eq(sample_text(&m, 1), "b");
    /* One warning for both blank lines, naming the first (line 3). */
    ck_assert_uint_eq(m.warnings.n, 1);
    char where[4200];
    snprintf(where, sizeof where, "%s:3:", path);
    ck_assert_ptr_nonnull(strstr(m.warnings.v[0], where));
    ss_model_free(&m);
}
END_TEST

START_TEST(test_capped_line)
{
    /* 2000 frames of `"abcd" ` are 14000 bytes, beyond R's 10000-byte cap:
     * loaded in full, with one warning that R dropped outer frames. */
    size_t hl = strlen("sample.interval=20000\n");
    size_t n = hl + 2000 * 7 + 1;
    char *buf = malloc(n);
    ck_assert_ptr_nonnull(buf);
    memcpy(buf, "sample.interval=20000\n", hl);
    for (int k = 0; k < 2000; k++)
        memcpy(buf + hl + 7 * (size_t)k, "\"abcd\" ", 7);
    buf[n - 1] = '\n';
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    int rc = fx_load(&m, &err, buf, n, path, sizeof path);
    free(buf);
    ck_assert_msg(rc == 0, "%s", err.msg);
    ck_assert_uint_eq(ss_stack_depth(&m, m.sample_stack.v[0]), 2000);
    ck_assert_uint_eq(m.functions.n, 1);
    ck_assert_uint_eq(m.warnings.n, 1);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_repeated_lines)
{
    /* 3000 samples cycling through 3 stacks (the loader caches repeated
     * lines): sample i has stack i % 3, values in memory mode differ. */
    char *buf = malloc(200000);
    ck_assert_ptr_nonnull(buf);
    size_t n = (size_t)sprintf(buf, "memory profiling: sample.interval=20000\n");
    static const char *const body[3] = {"\"a\" \"main\" \n", "\"b\" \"main\" \n", "\n"};
    for (int i = 0; i < 3000; i++)
        n += (size_t)sprintf(buf + n, ":%d:0:0:0:%s", i, body[i % 3]);
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    int rc = fx_load(&m, &err, buf, n, path, sizeof path);
    free(buf);
    ck_assert_msg(rc == 0, "%s", err.msg);
    ck_assert_uint_eq(m.sample_stack.n, 3000);
    ck_assert_uint_eq(ss_model_nstacks(&m), 3);
    struct ss_rprof_vt vt;
    ck_assert_int_eq(ss_rprof_value_types(&m, &vt), 0);
    for (size_t i = 0; i < 3000; i++) {
        ck_assert_uint_eq(m.sample_stack.v[i], m.sample_stack.v[i % 3]);
        ck_assert_int_eq(m.values.v[vt.small_v][i], (int64_t)i);
    }
    ck_assert_str_eq(sample_text(&m, 2999), "");         /* 2999 % 3 = 2 */
    ck_assert_str_eq(sample_text(&m, 2998), "b | main"); /* 2998 % 3 = 1 */
    ss_model_free(&m);
}
END_TEST

/* ---- the line cache's guesses (fast_sample) ------------------------------------ */

/* The parallel loader's configuration for the next load: threads, chunk
 * size, STACKSCOPE_MMAP (NULL: unset); load_env_clear unsets them. */
static void load_env(const char *const cfg[3])
{
    setenv("STACKSCOPE_THREADS", cfg[0], 1);
    if (cfg[1])
        setenv("STACKSCOPE_CHUNK", cfg[1], 1);
    if (cfg[2])
        setenv("STACKSCOPE_MMAP", cfg[2], 1);
}

static void load_env_clear(void)
{
    unsetenv("STACKSCOPE_THREADS");
    unsetenv("STACKSCOPE_CHUNK");
    unsetenv("STACKSCOPE_MMAP");
}

/* The loader takes a line the cache knows by comparing the bytes after its
 * memory prefix with the text of the lines last seen with the same first
 * 32 bytes, line end included.  Every case below loads serially and in
 * parallel chunks of 256 bytes (the chunks start and end mid-pattern), each
 * read (the default) and mapped, with the same hand-worked answers.  A
 * configuration: threads, chunk size, STACKSCOPE_MMAP. */
static const char *const guess_cfg[][3] = {
    {"1", NULL, NULL}, {"1", NULL, "1"}, {"2", "256", NULL}, {"2", "256", "1"}};

static int guess_load(struct ss_model *m, struct ss_error *err, const char *buf, size_t n,
                      size_t cfg, char *path, size_t pn)
{
    load_env(guess_cfg[cfg]);
    int rc = fx_load(m, err, buf, n, path, pn);
    load_env_clear();
    return rc;
}

/* guess_load that must succeed (the path stays in path[0..pn)). */
static void guess_load_ok(struct ss_model *m, const char *buf, size_t n, size_t cfg, char *path,
                          size_t pn)
{
    struct ss_error err;
    int rc = guess_load(m, &err, buf, n, cfg, path, pn);
    ck_assert_msg(rc == 0, "cfg %zu: %s", cfg, err.msg);
}

/* Lines that share their first 32 bytes and more: B is A and one more
 * frame (A's text, without its line end, begins B), C differs from A in
 * its last name, D and E are shorter than a head (their LF is in it).
 * Sample k has body (7k + k / 3) % 5 and small_v k; LF and CR LF. */
START_TEST(test_guess_prefix_lines)
{
    static const char *const body[5] = {
        "\"inner_function_name\" \"middle_function\" \"outer\" ",
        "\"inner_function_name\" \"middle_function\" \"outer\" \"extra\" ",
        "\"inner_function_name\" \"middle_function\" \"outex\" ",
        "\"f\" ",
        "\"f\" \"g\" ",
    };
    static const char *const text[5] = {
        "inner_function_name | middle_function | outer",
        "inner_function_name | middle_function | outer | extra",
        "inner_function_name | middle_function | outex",
        "f",
        "f | g",
    };
    for (int crlf = 0; crlf < 2; crlf++) {
        const char *eol = crlf ? "\r\n" : "\n";
        char *buf = malloc(100000);
        ck_assert_ptr_nonnull(buf);
        size_t n = (size_t)sprintf(buf, "memory profiling: sample.interval=20000%s", eol);
        for (int k = 0; k < 600; k++)
            n += (size_t)sprintf(buf + n, ":%d:0:0:0:%s%s", k, body[(7 * k + k / 3) % 5], eol);
        for (size_t cfg = 0; cfg < ARRAY_SIZE(guess_cfg); cfg++) {
            struct ss_model m;
            char path[4096];
            guess_load_ok(&m, buf, n, cfg, path, sizeof path);
            ck_assert_uint_eq(m.sample_stack.n, 600);
            ck_assert_uint_eq(ss_model_nstacks(&m), 5);
            struct ss_rprof_vt vt;
            ck_assert_int_eq(ss_rprof_value_types(&m, &vt), 0);
            for (int k = 0; k < 600; k++) {
                ck_assert_msg(strcmp(sample_text(&m, (size_t)k), text[(7 * k + k / 3) % 5]) == 0,
                              "crlf %d cfg %zu sample %d: %s", crlf, cfg, k,
                              sample_text(&m, (size_t)k));
                ck_assert_int_eq(m.values.v[vt.small_v][k], k);
            }
            ck_assert_uint_eq(m.warnings.n, 0);
            ss_model_free(&m);
        }
        free(buf);
    }
}
END_TEST

/* The prefixes of lines whose text after the prefix the line cache knows
 * (the line after the first: fast_sample's path, which finds the five
 * colons of a prefix of up to 32 bytes at once): every length from 1 to 18
 * digits for each of the four numbers, prefixes of 9 to 80 bytes, against
 * strtoull; and bad prefixes there, said as on a first line (with its
 * column), serially and in chunks. */
START_TEST(test_memory_prefix_known_line)
{
    static const int lens[] = {1, 2, 7, 8, 9, 15, 16, 17, 18};
    enum { NL = sizeof lens / sizeof lens[0] };
    size_t cap = 2u << 20, n = 0, lines = 0;
    char *prof = malloc(cap);
    unsigned long long(*want)[4] = malloc(NL * NL * NL * NL * sizeof *want);
    ck_assert_ptr_nonnull(prof);
    ck_assert_ptr_nonnull(want);
    n += (size_t)sprintf(prof + n, "memory profiling: sample.interval=20000\n:1:1:1:1:\"f\" \n");
    for (int a = 0; a < NL; a++)
        for (int b = 0; b < NL; b++)
            for (int c = 0; c < NL; c++)
                for (int d = 0; d < NL; d++) {
                    int len[4] = {lens[a], lens[b], lens[c], lens[d]};
                    n += (size_t)sprintf(prof + n, ":");
                    for (int k = 0; k < 4; k++) {
                        char num[24];
                        for (int j = 0; j < len[k]; j++)
                            num[j] =
                                (char)('0' + (int)((lines * 7 + (size_t)j * 3 + (size_t)k) % 10));
                        num[len[k]] = 0;
                        want[lines][k] = strtoull(num, NULL, 10);
                        n += (size_t)sprintf(prof + n, "%s:", num);
                    }
                    n += (size_t)sprintf(prof + n, "\"f\" \n");
                    lines++;
                }
    ck_assert_uint_lt(n, cap);
    for (size_t cfg = 0; cfg < ARRAY_SIZE(guess_cfg); cfg++) {
        struct ss_model m;
        char path[4096];
        guess_load_ok(&m, prof, n, cfg, path, sizeof path);
        struct ss_rprof_vt vt;
        ck_assert_int_eq(ss_rprof_value_types(&m, &vt), 0);
        ck_assert_uint_eq(m.sample_stack.n, lines + 1);
        ss_id col[4] = {vt.small_v, vt.big_v, vt.nodes, vt.dup_count};
        for (size_t i = 0; i < lines; i++)
            for (int k = 0; k < 4; k++)
                ck_assert_msg(m.values.v[col[k]][i + 1] == (int64_t)want[i][k],
                              "cfg %zu sample %zu field %d: %lld, want %llu", cfg, i + 1, k,
                              (long long)m.values.v[col[k]][i + 1], want[i][k]);
        ss_model_free(&m);
    }
    free(want);
    static const struct {
        const char *line;
        unsigned col;
    } bad[] = {
        {":1234567890123456789:2:3:4:\"f\" ", 2}, /* 19 digits, within 32 bytes */
        {":12345678x:2:3:4:\"f\" ", 10},
        {":1:2:3:4\"f\" ", 9},
        {"::2:3:4:\"f\" ", 2},
        {":1::3:4:\"f\" ", 4},
        {":1:2:3::\"f\" ", 8},
        {":1:2:3", 7},           /* the line ends in the prefix */
        {":1:2:-3:4:\"f\" ", 6}, /* a sign */
        {":1:2: 3:4:\"f\" ", 6},
    };
    for (size_t c = 0; c < ARRAY_SIZE(bad); c++)
        for (size_t cfg = 0; cfg < ARRAY_SIZE(guess_cfg); cfg++) {
            n = (size_t)sprintf(prof,
                                "memory profiling: sample.interval=20000\n:1:1:1:1:\"f\" \n%s\n"
                                ":1:1:1:1:\"f\" \n:1:1:1:1:\"f\" \n:1:1:1:1:\"f\" \n",
                                bad[c].line);
            struct ss_model m;
            struct ss_error err;
            char path[4096], msg[4300];
            int rc = guess_load(&m, &err, prof, n, cfg, path, sizeof path);
            ck_assert_int_eq(rc, SS_EINPUT);
            snprintf(msg, sizeof msg, "%s:3:%u: bad memory prefix", path, bad[c].col);
            ck_assert_msg(strncmp(err.msg, msg, strlen(msg)) == 0, "cfg %zu '%s': '%s', want '%s'",
                          cfg, bad[c].line, err.msg, msg);
        }
    free(prof);
}
END_TEST

/* A `#File` line that gives a number another path mid-session: the lines
 * after it, byte for byte the ones before, mean the new file. */
START_TEST(test_guess_file_renumbered)
{
    static const char line[] = "1#5 \"f\" 1#9 \"g\" \"h_a_name_longer_than_a_head\" \n";
    char buf[20000];
    size_t n = (size_t)sprintf(buf, "line profiling: sample.interval=20000\n#File 1: /a.R\n");
    for (int k = 0; k < 60; k++)
        n += (size_t)sprintf(buf + n, "%s", line);
    n += (size_t)sprintf(buf + n, "#File 1: /b.R\n");
    for (int k = 0; k < 60; k++)
        n += (size_t)sprintf(buf + n, "%s", line);
    for (size_t cfg = 0; cfg < ARRAY_SIZE(guess_cfg); cfg++) {
        struct ss_model m;
        char path[4096];
        guess_load_ok(&m, buf, n, cfg, path, sizeof path);
        ck_assert_uint_eq(m.sample_stack.n, 120);
        for (size_t k = 0; k < 120; k++)
            ck_assert_str_eq(sample_text(&m, k),
                             k < 60 ? "f@/a.R#5 | g@/a.R#9 | h_a_name_longer_than_a_head"
                                    : "f@/b.R#5 | g@/b.R#9 | h_a_name_longer_than_a_head");
        ss_model_free(&m);
    }
}
END_TEST

/* The same lines in a plain session and then in a memory one: one stack,
 * the second session's samples with their prefix's values. */
START_TEST(test_guess_sessions)
{
    static const char body[] = "\"f\" \"a_caller_with_a_long_name\" \"main\" \n";
    char buf[20000];
    size_t n = (size_t)sprintf(buf, "sample.interval=20000\n");
    for (int k = 0; k < 40; k++)
        n += (size_t)sprintf(buf + n, "%s", body);
    n += (size_t)sprintf(buf + n, "memory profiling: sample.interval=20000\n");
    for (int k = 0; k < 40; k++)
        n += (size_t)sprintf(buf + n, ":%d:0:0:0:%s", 5 + k, body);
    for (size_t cfg = 0; cfg < ARRAY_SIZE(guess_cfg); cfg++) {
        struct ss_model m;
        char path[4096];
        guess_load_ok(&m, buf, n, cfg, path, sizeof path);
        ck_assert_uint_eq(m.sources.n, 2);
        ck_assert_uint_eq(m.sample_stack.n, 80);
        ck_assert_uint_eq(ss_model_nstacks(&m), 1);
        struct ss_rprof_vt vt;
        ck_assert_int_eq(ss_rprof_value_types(&m, &vt), 0);
        for (size_t k = 0; k < 80; k++) {
            ck_assert_str_eq(sample_text(&m, k), "f | a_caller_with_a_long_name | main");
            ck_assert_int_eq(m.values.v[vt.small_v][k], k < 40 ? 0 : (int64_t)k - 35);
        }
        ss_model_free(&m);
    }
}
END_TEST

/* The line cache lives across sessions and `#File` lines; a line with a
 * position means what the file table of its session says at that line.
 * L is one line of text throughout: file 1 is /a.R, then /b.R (another
 * session), then undeclared until a later `#File` (the session's end
 * resolves it), then /a.R again, then renumbered mid-session, then never
 * declared (NA); M has no position and is one stack everywhere. */
START_TEST(test_cache_sessions)
{
    static const char prof[] = "line profiling: sample.interval=20000\n"
                               "#File 1: /a.R\n"
                               "1#3 \"f\" 1#7 \"g\" \n"
                               "\"h\" \"main\" \n"
                               "1#3 \"f\" 1#7 \"g\" \n"
                               "memory profiling: line profiling: sample.interval=20000\n"
                               "#File 1: /b.R\n"
                               ":1:2:3:4:1#3 \"f\" 1#7 \"g\" \n"
                               ":5:6:7:8:\"h\" \"main\" \n"
                               "line profiling: sample.interval=20000\n"
                               "1#3 \"f\" 1#7 \"g\" \n"
                               "#File 1: /a.R\n"
                               "1#3 \"f\" 1#7 \"g\" \n"
                               "line profiling: sample.interval=20000\n"
                               "#File 1: /a.R\n"
                               "1#3 \"f\" 1#7 \"g\" \n"
                               "#File 2: /c.R\n"
                               "1#3 \"f\" 1#7 \"g\" \n"
                               "#File 1: /b.R\n"
                               "1#3 \"f\" 1#7 \"g\" \n"
                               "GC profiling: sample.interval=20000\n"
                               "1#3 \"f\" 1#7 \"g\" \n"
                               "\"<GC>\" \"h\" \"main\" \n"
                               "\"h\" \"main\" \n";
    static const char *const want[] = {"f@/a.R#3 | g@/a.R#7",
                                       "h | main",
                                       "f@/a.R#3 | g@/a.R#7",
                                       "f@/b.R#3 | g@/b.R#7",
                                       "h | main",
                                       "f@/a.R#3 | g@/a.R#7",
                                       "f@/a.R#3 | g@/a.R#7",
                                       "f@/a.R#3 | g@/a.R#7",
                                       "f@/a.R#3 | g@/a.R#7",
                                       "f@/b.R#3 | g@/b.R#7",
                                       "f@NA#3 | g@NA#7",
                                       "<GC> | h | main",
                                       "h | main"};
    static const char *const cfg[][3] = {{"1", NULL, NULL}, {"1", NULL, "1"},  {"2", "1", NULL},
                                         {"2", "40", NULL}, {"2", "97", NULL}, {"2", "256", "1"}};
    ss_id stack_a = SS_NONE, stack_m = SS_NONE;
    for (size_t c = 0; c < ARRAY_SIZE(cfg); c++) {
        load_env(cfg[c]);
        struct ss_model m;
        FX_LOAD_OK(&m, prof);
        load_env_clear();
        ck_assert_uint_eq(m.sources.n, 5);
        ck_assert_uint_eq(m.sample_stack.n, ARRAY_SIZE(want));
        for (size_t k = 0; k < ARRAY_SIZE(want); k++)
            ck_assert_msg(strcmp(sample_text(&m, k), want[k]) == 0, "cfg %zu sample %zu: %s", c, k,
                          sample_text(&m, k));
        /* the same ids whichever way it was read */
        if (c == 0) {
            stack_a = m.sample_stack.v[0];
            stack_m = m.sample_stack.v[1];
        }
        ck_assert_uint_eq(m.sample_stack.v[5], stack_a);
        ck_assert_uint_eq(m.sample_stack.v[12], stack_m);
        ck_assert_uint_eq(m.sample_stack.v[4], stack_m);
        ss_model_free(&m);
    }
}
END_TEST

/* ---- the parallel loader against the single-threaded one ------------------- */

/* Do models a and b hold the same sources, strings, functions, locations,
 * stacks, samples, values and warnings, id for id? */
static void expect_same_model(const struct ss_model *a, const struct ss_model *b, const char *what)
{
    ck_assert_msg(a->sources.n == b->sources.n, "%s: sources", what);
    for (size_t i = 0; i < a->sources.n; i++) {
        const struct ss_source *x = &a->sources.v[i], *y = &b->sources.v[i];
        ck_assert_msg(x->session == y->session && x->header_line == y->header_line &&
                          x->flags == y->flags && x->values == y->values &&
                          x->first_sample == y->first_sample && x->n_samples == y->n_samples &&
                          !(x->interval_us < y->interval_us || x->interval_us > y->interval_us),
                      "%s: source %zu", what, i);
    }
    ck_assert_msg(a->strs.n == b->strs.n, "%s: strings", what);
    for (size_t i = 0; i < a->strs.n; i++)
        ck_assert_msg(strcmp(ss_str(a, (ss_id)i), ss_str(b, (ss_id)i)) == 0,
                      "%s: string %zu: '%s' '%s'", what, i, ss_str(a, (ss_id)i),
                      ss_str(b, (ss_id)i));
    ck_assert_msg(
        a->functions.n == b->functions.n &&
            memcmp(a->functions.v, b->functions.v, a->functions.n * sizeof *a->functions.v) == 0,
        "%s: functions", what);
    ck_assert_msg(
        a->locations.n == b->locations.n &&
            memcmp(a->locations.v, b->locations.v, a->locations.n * sizeof *a->locations.v) == 0,
        "%s: locations", what);
    size_t ns = ss_model_nstacks(a);
    ck_assert_msg(ns == ss_model_nstacks(b), "%s: stacks", what);
    for (size_t s = 0; s < ns; s++) {
        size_t n = ss_stack_depth(a, (ss_id)s);
        ck_assert_msg(n == ss_stack_depth(b, (ss_id)s) &&
                          a->stack_tail.v[s] == b->stack_tail.v[s] &&
                          (!n || memcmp(ss_stack_frames(a, (ss_id)s), ss_stack_frames(b, (ss_id)s),
                                        n * sizeof(ss_id)) == 0),
                      "%s: stack %zu", what, s);
    }
    size_t n = a->sample_stack.n;
    ck_assert_msg(n == b->sample_stack.n &&
                      memcmp(a->sample_stack.v, b->sample_stack.v, n * sizeof(ss_id)) == 0,
                  "%s: samples", what);
    ck_assert_msg(a->values.n == b->values.n, "%s: value types", what);
    for (size_t t = 0; t < a->values.n; t++) {
        ck_assert_msg(!a->values.v[t] == !b->values.v[t], "%s: column %zu", what, t);
        ck_assert_msg(!a->values.v[t] ||
                          memcmp(a->values.v[t], b->values.v[t], n * sizeof(int64_t)) == 0,
                      "%s: values of column %zu", what, t);
    }
    ck_assert_msg(a->warnings.n == b->warnings.n, "%s: warnings", what);
    for (size_t i = 0; i < a->warnings.n; i++)
        ck_assert_msg(strcmp(a->warnings.v[i], b->warnings.v[i]) == 0, "%s: warning %zu", what, i);
}

/* Append one short session of kind `kind` (x: the generator's state). */
static size_t mixed_session(char *buf, size_t n, int kind, uint64_t *x)
{
    static const char *const body[] = {
        "\"f\" \"main\" ",
        "\"g\" \"f\" \"main\" ",
        "1#3 \"f\" 1#7 \"g\" \"main\" ",
        "2#5 \"h\" 1#9 \"f\" \"main\" ",
        "\"<GC>\" \"f\" \"main\" ",
        "\"a_function_with_a_name_longer_than_a_head\" \"main\" ",
        "2#11 \"h\" 2#12 \"h\" 1#3 \"f\" \"main\" ",
    };
    static const char *const header[] = {
        "memory profiling: line profiling: sample.interval=20000", "sample.interval=10000",
        "GC profiling: sample.interval=5000", "line profiling: sample.interval=20000"};
    static const char *const paths[] = {"/a.R", "/b.R", "/c.R"};
    int mem = kind == 0, lines = kind == 0 || kind == 3;
    n += (size_t)sprintf(buf + n, "%s\n", header[kind]);
    *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
    int late = lines && *x % 5 == 0; /* file 2 declared after its first use */
    if (lines)
        n += (size_t)sprintf(buf + n, "#File 1: %s\n", paths[*x % 3]);
    if (lines && !late)
        n += (size_t)sprintf(buf + n, "#File 2: %s\n", paths[(*x >> 8) % 3]);
    int samples = 1 + (int)(*x >> 16) % 12;
    for (int k = 0; k < samples; k++) {
        *x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
        if (late && k == samples / 2)
            n += (size_t)sprintf(buf + n, "#File 2: %s\n", paths[(*x >> 8) % 3]);
        if (mem)
            n += (size_t)sprintf(buf + n, ":%u:%u:%u:%u:", (unsigned)(*x % 100000),
                                 (unsigned)(*x >> 20) % 1000, (unsigned)(*x >> 30) % 99999999,
                                 (unsigned)(*x >> 50) % 3);
        /* any body in any session: a position where no `#File` is (NA) */
        n += (size_t)sprintf(buf + n, "%s\n", body[(*x >> 40) % ARRAY_SIZE(body)]);
    }
    return n;
}

/* A file of many short sessions of mixed headers (memory + line, plain,
 * GC, line), `#File` lines before and after the lines that use them: the
 * parallel loader, with chunks of many sizes, read and mapped, makes the
 * model the single-threaded one makes, id for id. */
START_TEST(test_parallel_mixed_sessions)
{
    size_t cap = 1u << 20, n = 0;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    uint64_t x = 0x2545F4914F6CDD1DULL;
    for (int s = 0; s < 600; s++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        n = mixed_session(buf, n, (int)(x % 4), &x);
    }
    ck_assert_uint_lt(n, cap);
    char path[4096];
    fx_write(path, sizeof path, buf, n);
    char *paths[1] = {path};
    static const char *const cfg[][3] = {
        {"1", NULL, NULL},    {"1", NULL, "1"},    {"2", "1", NULL},    {"2", "33", NULL},
        {"2", "200", "1"},    {"2", "1000", NULL}, {"2", "4096", NULL}, {"2", "4096", "1"},
        {"3", "65536", NULL}, {"2", NULL, NULL},   {"2", "65536", "1"}};
    struct ss_model ref;
    for (size_t c = 0; c < ARRAY_SIZE(cfg); c++) {
        load_env(cfg[c]);
        struct ss_model m;
        struct ss_error err;
        ss_error_clear(&err);
        int rc = ss_load_files(c ? &m : &ref, paths, 1, NULL, &err);
        load_env_clear();
        ck_assert_msg(rc == 0, "cfg %zu: %s", c, err.msg);
        if (!c) {
            ck_assert_uint_eq(ref.sources.n, 600);
            continue;
        }
        char what[64];
        snprintf(what, sizeof what, "threads %s chunk %s%s", cfg[c][0],
                 cfg[c][1] ? cfg[c][1] : "default", cfg[c][2] ? " mapped" : "");
        expect_same_model(&ref, &m, what);
        ss_model_free(&m);
    }
    unlink(path);
    ss_model_free(&ref);
    free(buf);
}
END_TEST

/* A bad line after 100 lines taken by their guess: the message names its
 * line and column. */
START_TEST(test_guess_then_error)
{
    static const char body[] = "\"f\" \"a_caller_with_a_long_name\" \"main\" \n";
    static const struct {
        const char *line, *what;
        unsigned col;
    } bad[] = {
        {":1:2:x:4:\"f\" \"a_caller_with_a_long_name\" \"main\" \n",
         "bad memory prefix: expected ':small_v:big_v:nodes:dup_count:'", 6},
        {"\"f\" \"a_caller_with_a_long_name\" \"main\" \n",
         "missing memory prefix ':small_v:big_v:nodes:dup_count:' (the header says memory "
         "profiling)",
         1},
        {":1:2:3:4:1#0 \"f\" \"a_caller_with_a_long_name\" \"main\" \n",
         "line number out of range in a position token (lines start at 1)", 10},
    };
    for (size_t b = 0; b < ARRAY_SIZE(bad); b++) {
        char buf[20000];
        size_t n = (size_t)sprintf(buf, "memory profiling: sample.interval=20000\n");
        for (int k = 0; k < 100; k++)
            n += (size_t)sprintf(buf + n, ":1:2:3:4:%s", body);
        n += (size_t)sprintf(buf + n, "%s", bad[b].line);
        for (int k = 0; k < 10; k++)
            n += (size_t)sprintf(buf + n, ":1:2:3:4:%s", body);
        for (size_t cfg = 0; cfg < ARRAY_SIZE(guess_cfg); cfg++) {
            struct ss_model m;
            struct ss_error err;
            char path[4096], want[4400];
            int rc = guess_load(&m, &err, buf, n, cfg, path, sizeof path);
            ck_assert_int_eq(rc, SS_EINPUT);
            snprintf(want, sizeof want, "%s:102:%u: %s", path, bad[b].col, bad[b].what);
            ck_assert_msg(strcmp(err.msg, want) == 0, "case %zu cfg %zu: '%s'", b, cfg, err.msg);
        }
    }
}
END_TEST

/* Lines over R's 10 KB cap taken by their guess still count in the
 * warning: three of the same, from line 2. */
START_TEST(test_guess_capped)
{
    size_t hl = strlen("sample.interval=20000\n"), ll = 2000 * 7 + 1;
    size_t n = hl + 3 * ll;
    char *buf = malloc(n);
    ck_assert_ptr_nonnull(buf);
    memcpy(buf, "sample.interval=20000\n", hl);
    for (int j = 0; j < 3; j++) {
        for (int k = 0; k < 2000; k++)
            memcpy(buf + hl + (size_t)j * ll + 7 * (size_t)k, "\"abcd\" ", 7);
        buf[hl + (size_t)j * ll + ll - 1] = '\n';
    }
    for (size_t cfg = 0; cfg < ARRAY_SIZE(guess_cfg); cfg++) {
        struct ss_model m;
        char path[4096], want[4400];
        guess_load_ok(&m, buf, n, cfg, path, sizeof path);
        ck_assert_uint_eq(m.sample_stack.n, 3);
        ck_assert_uint_eq(m.warnings.n, 1);
        snprintf(want, sizeof want,
                 "%s:2: 3 sample lines reach R's 10 KB line limit: R dropped their outermost "
                 "frames",
                 path);
        ck_assert_str_eq(m.warnings.v[0], want);
        ss_model_free(&m);
    }
    free(buf);
}
END_TEST

/* ---- errors ------------------------------------------------------------------ */

struct bad_case {
    const char *what;
    const char *text;
    size_t len;
    unsigned line; /* line in the message, 0 for none */
};

#define BAD(what, lit, line)                                                                       \
    {                                                                                              \
        what, lit, sizeof(lit) - 1, line                                                           \
    }

static const struct bad_case bad_cases[] = {
    BAD("empty file", "", 0),
    BAD("first line not a header", "\"a\" \n", 1),
    BAD("interval 0", "sample.interval=0\n", 1),
    BAD("interval -5", "sample.interval=-5\n", 1),
    BAD("interval abc", "sample.interval=abc\n", 1),
    BAD("unterminated quote", "sample.interval=20000\n\"a\" \n\"b \n\"c\" \n", 3),
    BAD("NUL byte", "sample.interval=20000\n\"a\" \n\"a\0b\" \n", 3),
    BAD("memory prefix missing",
        "memory profiling: sample.interval=20000\n:1:2:3:4:\"a\" \n\"a\" \n", 3),
    BAD("memory prefix in a plain session", "sample.interval=20000\n:1:2:3:4:\"a\" \n", 2),
    BAD("bad memory prefix", "memory profiling: sample.interval=20000\n:1:2:x:4:\"a\" \n", 2),
    BAD("garbage token", "sample.interval=20000\nxyz \"a\" \n", 2),
    BAD("garbage after a name", "sample.interval=20000\n\"a\" \"b\" xyz \n", 2),
    BAD("bad #File number", "line profiling: sample.interval=20000\n#File 0: /a.R\n", 2),
    BAD("unknown # line", "sample.interval=20000\n#Foo\n", 2),
    /* R numbers lines from 1; line 0 made a location with nothing in it,
     * which the tables writer wrote and its reader refused (fuzz_write) */
    BAD("position with line 0", "sample.interval=20000\n\"a\" 1#0 \"b\" \n", 2),
};

START_TEST(test_bad_input)
{
    const struct bad_case *c = &bad_cases[_i];
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    int rc = fx_load(&m, &err, c->text, c->len, path, sizeof path);
    ck_assert_msg(rc == SS_EINPUT, "%s: rc %d (%s)", c->what, rc, err.msg);
    ck_assert_int_eq(err.code, SS_EINPUT);
    char want[4200];
    if (c->line)
        snprintf(want, sizeof want, "%s:%u:", path, c->line);
    else
        snprintf(want, sizeof want, "%s", path);
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s: message '%s' lacks '%s'", c->what,
                  err.msg, want);
}
END_TEST

START_TEST(test_bad_paths)
{
    struct ss_model m;
    struct ss_error err;
    /* A directory. */
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/ss_check_dir_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *paths[1] = {dir};
    int rc = ss_load_files(&m, paths, 1, NULL, &err);
    rmdir(dir);
    ck_assert_int_eq(rc, SS_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, dir));
    /* A missing file. */
    char missing[4200];
    snprintf(missing, sizeof missing, "%s/no-such-file.out", dir);
    paths[0] = missing;
    rc = ss_load_files(&m, paths, 1, NULL, &err);
    ck_assert_int_eq(rc, SS_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, missing));
    /* A good file then a missing one: the whole load fails. */
    char good[4096];
    fx_write(good, sizeof good, "sample.interval=20000\n\"a\" \n", 27);
    char *two[2] = {good, missing};
    rc = ss_load_files(&m, two, 2, NULL, &err);
    unlink(good);
    ck_assert_int_eq(rc, SS_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, missing));
}
END_TEST

Suite *rprof_suite(void)
{
    Suite *s = suite_create("rprof");
    TCase *tc = tcase_create("parse");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_plain);
    tcase_add_test(tc, test_header_flags);
    tcase_add_test(tc, test_memory_values);
    tcase_add_test(tc, test_memory_prefix_digits);
    tcase_add_test(tc, test_memory_prefix_bad_column);
    tcase_add_test(tc, test_memory_prefix_known_line);
    tcase_add_test(tc, test_line_positions);
    tcase_add_test(tc, test_file_declared_late);
    tcase_add_test(tc, test_file_declared_late_dedupe);
    tcase_add_test(tc, test_undeclared_file);
    tcase_add_test(tc, test_empty_file_path);
    tcase_add_test(tc, test_file_numbers_per_session);
    tcase_add_test(tc, test_two_sessions);
    tcase_add_test(tc, test_memory_then_plain);
    tcase_add_test(tc, test_several_files);
    tcase_add_test(tc, test_line_ends);
    tcase_add_test(tc, test_odd_names);
    tcase_add_test(tc, test_no_trailing_space);
    tcase_add_test(tc, test_cut_off_last_line);
    tcase_add_test(tc, test_header_only_no_newline);
    tcase_add_test(tc, test_blank_lines);
    tcase_add_test(tc, test_capped_line);
    tcase_add_test(tc, test_repeated_lines);
    tcase_add_test(tc, test_guess_prefix_lines);
    tcase_add_test(tc, test_guess_file_renumbered);
    tcase_add_test(tc, test_guess_sessions);
    tcase_add_test(tc, test_guess_then_error);
    tcase_add_test(tc, test_guess_capped);
    tcase_add_test(tc, test_cache_sessions);
    tcase_add_test(tc, test_parallel_mixed_sessions);
    suite_add_tcase(s, tc);
    TCase *bad = tcase_create("errors");
    tcase_add_loop_test(bad, test_bad_input, 0, (int)ARRAY_SIZE(bad_cases));
    tcase_add_test(bad, test_bad_paths);
    suite_add_tcase(s, bad);
    return s;
}
