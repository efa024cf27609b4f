/* check_formats.c - folded stacks parsing, the Rprof writer's token layout
 * and the v2 tables round trip, on tiny hand-made inputs and models whose
 * expected output is written out by hand below. */
#include "check_suites.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "limits.h"
#include "load.h"
#include "load_folded.h"
#include "write.h"
#include "vec.h"

/* ---- folded parsing ------------------------------------------------------- */

START_TEST(test_folded_parse_line)
{
    static const struct {
        const char *line;
        int rc;            /* 0 ok, 1 blank, -1 error */
        const char *stack; /* expected stack text when ok */
        uint64_t count;
    } cases[] = {
        {"main;f;g 3", 0, "main;f;g", 3},
        {"main;f;g 3  \t\r", 0, "main;f;g", 3}, /* trailing blanks and CR */
        {"main;f\t12", 0, "main;f", 12},        /* a tab before the count */
        {"a b;c d 7", 0, "a b;c d", 7},         /* names with spaces: the last one splits */
        {"a;b  5", 0, "a;b ", 5},               /* one separator: the name keeps its space */
        {"x 0", 0, "x", 0},
        {"x 1000000000000000", 0, "x", 1000000000000000ULL},
        {"#comment;f 2", 0, "#comment;f", 2}, /* no comments in folded files */
        {"", 1, NULL, 0},
        {" \t ", 1, NULL, 0},
        {"main;f", -1, NULL, 0},
        {"main;f x", -1, NULL, 0},
        {"main;f 1.5", -1, NULL, 0},
        {"main;f -2", -1, NULL, 0},
        {"main;f 1000000000000001", -1, NULL, 0},
        {"main;f 99999999999999999999999", -1, NULL, 0},
        {" 5", -1, NULL, 0},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        const char *stack = NULL, *why = NULL;
        size_t slen = 0;
        uint64_t count = 0;
        int rc =
            ss_folded_parse_line(cases[i].line, strlen(cases[i].line), &stack, &slen, &count, &why);
        ck_assert_msg(rc == cases[i].rc, "'%s': rc %d, want %d", cases[i].line, rc, cases[i].rc);
        if (rc == 0) {
            ck_assert_msg(slen == strlen(cases[i].stack) && !memcmp(stack, cases[i].stack, slen),
                          "'%s': stack '%.*s', want '%s'", cases[i].line, (int)slen, stack,
                          cases[i].stack);
            ck_assert_uint_eq(count, cases[i].count);
        }
        if (rc < 0)
            ck_assert_ptr_nonnull(why);
    }
}
END_TEST

static int fsniff(const char *s, size_t n, int whole)
{
    const char *why;
    uint64_t line;
    return ss_folded_sniff(s, n, whole, &why, &line);
}

START_TEST(test_folded_sniff)
{
#define SNIFF(s) fsniff((s), sizeof(s) - 1, 1)
    ck_assert_int_eq(SNIFF("main;f 3\n"), 1);
    ck_assert_int_eq(SNIFF("main;f 3\r\nmain 1\r\n"), 1);
    ck_assert_int_eq(SNIFF("a 1"), 1);         /* the whole file, no line end */
    ck_assert_int_eq(fsniff("a 1", 3, 0), -1); /* the line may go on */
    ck_assert_int_eq(fsniff("main;f 3\n", 9, 0), 1);
    ck_assert_int_eq(SNIFF("sample.interval=20000\n"), 0);
    ck_assert_int_eq(SNIFF("memory profiling: sample.interval=20000\n"), 0);
    ck_assert_int_eq(SNIFF("line profiling: sample.interval=20000\n#File 1: a 1\n"), 0);
    ck_assert_int_eq(SNIFF("\"f\" \"main\" \n"), 0);
    ck_assert_int_eq(SNIFF(":1:2:3:4:\"f\" \n"), 0);
    ck_assert_int_eq(SNIFF("1#2 \"f\" \n"), 0);
    ck_assert_int_eq(SNIFF("1234\n"), 0); /* SamplingProf's first line: the runtime */
    ck_assert_int_eq(SNIFF("\n\n"), 0);
    /* Blank lines before the first stack are skipped, as the loader does. */
    ck_assert_int_eq(SNIFF("\nmain 1\n"), 1);
    ck_assert_int_eq(SNIFF(" \t\r\nmain 1\n"), 1);
    /* Names are data: control characters, a leading digit or quote. */
    ck_assert_int_eq(SNIFF("java;foo\001 1\n"), 1);
    ck_assert_int_eq(SNIFF("123 5\n"), 1);
    ck_assert_int_eq(SNIFF("\"f\" 12\n"), 1);
    ck_assert_int_eq(SNIFF("a\0b 1\n"), 0);
    const char *why;
    uint64_t line;
    ck_assert_int_eq(ss_folded_sniff("\nmain;f x\n", 10, 1, &why, &line), 0);
    ck_assert_uint_eq(line, 2);
    ck_assert_str_eq(why, "the count after the last space is not a whole number");
#undef SNIFF
}
END_TEST

/* ss_sniff as a number: the format's id, SNIFF_MORE when more of the file
 * is needed, 0 when nothing fits. */
#define SNIFF_MORE (-1)
static int sniff_id(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                    size_t cap)
{
    int more;
    const struct ss_format *f = ss_sniff(p, n, whole, size, &more, why, cap);
    return f ? (int)f->id : more ? SNIFF_MORE : 0;
}

#define SNIFF(s, whole) sniff_id((const unsigned char *)(s), sizeof(s) - 1, whole, 0, NULL, 0)

/* The first bytes of a raw profile as Go writes them: sample_type
 * {type 1, unit 2}, a sample {location_id 1, value 5}, a location {id 1,
 * line {function_id 1}}, a function {id 1, name 3}, the string table "",
 * "samples", "count", "f". */
static const char raw_profile[] = "\x0a\x04\x08\x01\x10\x02"
                                  "\x12\x06\x0a\x01\x01\x12\x01\x05"
                                  "\x22\x06\x08\x01\x22\x02\x08\x01"
                                  "\x2a\x04\x08\x01\x10\x03"
                                  "\x32\x00\x32\x07samples\x32\x05"
                                  "count\x32\x01"
                                  "f";

START_TEST(test_sniff_structure)
{
    static const unsigned char gz[] = {0x1f, 0x8b, 8, 0};
    ck_assert_int_eq(sniff_id(gz, sizeof gz, 1, 0, NULL, 0), SS_OUT_PPROF);
    ck_assert_int_eq(SNIFF(raw_profile, 1), SS_OUT_PPROF);
    /* Cut by the window inside a field: a profile when the file goes on. */
    ck_assert_int_eq(sniff_id((const unsigned char *)raw_profile, 20, 0, 0, NULL, 0), SS_OUT_PPROF);
    ck_assert_int_eq(sniff_id((const unsigned char *)raw_profile, 20, 0, 200, NULL, 0),
                     SS_OUT_PPROF);
    /* ... but not when the file ends there, or a length runs past the file. */
    ck_assert_int_eq(sniff_id((const unsigned char *)raw_profile, 20, 1, 20, NULL, 0), 0);
    ck_assert_int_ne(sniff_id((const unsigned char *)"\x0a\x7f\x08\x01", 4, 0, 50, NULL, 0),
                     SS_OUT_PPROF);
    ck_assert_int_eq(sniff_id((const unsigned char *)"\x0a\x7f\x08\x01", 4, 0, 500, NULL, 0),
                     SS_OUT_PPROF);
    /* Text whose first byte is a valid tag ('j', 'Z', '2', '*', '"') and
     * which holds a control byte is still text. */
    ck_assert_int_eq(SNIFF("java;foo\001 1\n", 1), SS_OUT_FOLDED);
    ck_assert_int_eq(SNIFF("Zend;foo\002 3\n", 1), SS_OUT_FOLDED);
    ck_assert_int_eq(SNIFF("2\001 1\n", 1), SS_OUT_FOLDED);
    ck_assert_int_eq(SNIFF("*main;\033[2J 7\n", 1), SS_OUT_FOLDED);
    ck_assert_int_eq(SNIFF("\"quoted\";f\001 1\n", 1), SS_OUT_FOLDED);
    ck_assert_int_eq(SNIFF("123 5\n", 1), SS_OUT_FOLDED);
    ck_assert_int_eq(SNIFF("sample.interval=20000\n\"a\" \n", 1), SS_OUT_RPROF);
    ck_assert_int_eq(SNIFF("memory profiling: sample.interval=20000\n", 1), SS_OUT_RPROF);
    ck_assert_int_eq(SNIFF("\nsample.interval=x\n", 1), SS_OUT_RPROF); /* a bad header */
    ck_assert_int_eq(SNIFF("2345\n\nfile.rb:1:m,0\n", 1), SS_OUT_SAMPLING_PROF);
    ck_assert_int_eq(SNIFF("main;f 1\n", 1), SS_OUT_FOLDED);
    /* A first line that has not ended: undecided until more is seen. */
    ck_assert_int_eq(SNIFF("main;f;g", 0), SNIFF_MORE);
    /* Nothing fits: every format tried is named. */
    char why[768];
    ck_assert_int_eq(sniff_id((const unsigned char *)"\"a\" \"b\" \n", 9, 1, 9, why, sizeof why),
                     0);
    ck_assert_msg(!strncmp(why, ":1: not a profile format", 24) && strstr(why, "tried Rprof (") &&
                      strstr(why, "pprof (no gzip magic") &&
                      strstr(why, "Rprof (the first line is not a header") &&
                      strstr(why, "SamplingProf") &&
                      strstr(why, "folded stacks (line 1: the count after the last space is not "
                                  "a whole number)"),
                  "%s", why);
    ck_assert_int_eq(sniff_id((const unsigned char *)"\n\n\n", 3, 1, 3, why, sizeof why), 0);
    ck_assert_msg(strstr(why, "folded stacks (only blank lines)"), "%s", why);
    ck_assert_int_eq(sniff_id((const unsigned char *)"#File 1: a.R\n", 13, 1, 13, why, sizeof why),
                     0);
}
END_TEST
#undef SNIFF
#undef SNIFF_MORE

START_TEST(test_folded_load)
{
    /* Lines root first; the model stores the leaf first.  Counts are the
     * count column, not repeated samples; the count-0 line is dropped with a
     * warning, the blank line skipped. */
    static const char prof[] = "main;f;g 3\r\n"
                               "main;f\t2\r\n"
                               "\r\n"
                               "main;f 0\r\n"
                               "main;f;g 4\r\n";
    struct ss_model m;
    FX_LOAD_OK(&m, prof);
    ck_assert_uint_eq(m.sources.n, 1);
    ck_assert_str_eq(ss_str(&m, m.sources.v[0].type), "folded");
    ck_assert_double_exact(m.sources.v[0].interval_us, 1e6);
    /* no time order, and counts only (no --interval): the samples measure */
    ck_assert_uint_eq(m.sources.v[0].flags, SS_SRC_UNORDERED | SS_SRC_UNTIMED);
    ck_assert_uint_eq(m.sample_stack.n, 3);
    char buf[256];
    fx_stack_text(&m, m.sample_stack.v[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "g | f | main");
    fx_stack_text(&m, m.sample_stack.v[1], buf, sizeof buf);
    ck_assert_str_eq(buf, "f | main");
    ck_assert_uint_eq(m.sample_stack.v[0], m.sample_stack.v[2]);
    ck_assert_int_eq(ss_sample_count(&m, 0), 3);
    ck_assert_int_eq(ss_sample_count(&m, 1), 2);
    ck_assert_int_eq(ss_sample_count(&m, 2), 4);
    ck_assert_uint_eq(m.warnings.n, 1);
    ck_assert_ptr_nonnull(strstr(m.warnings.v[0], ":4: 1 line with count 0"));
    ss_model_free(&m);
}
END_TEST

START_TEST(test_folded_error_line)
{
    static const char prof[] = "main;f 3\nmain;g 2\nmain;h many\n";
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(FX_LOAD(&m, &err, prof, path), SS_EINPUT);
    char want[4200];
    snprintf(want, sizeof want, "%s:3: ", path);
    ck_assert_msg(strstr(err.msg, want) != NULL, "message '%s' does not name %s", err.msg, want);
}
END_TEST

/* ---- hand-made models ------------------------------------------------------ */

struct tiny {
    struct ss_model m;
    ss_id vt[5]; /* count, small_v, big_v, nodes, dup_count */
};

static ss_id S(struct ss_model *m, const char *s)
{
    ss_id id = ss_model_intern_cstr(m, s);
    ck_assert_uint_ne(id, SS_NONE);
    return id;
}

static ss_id FN(struct ss_model *m, const char *name)
{
    ss_id n = S(m, name);
    return ss_model_function(m, n, n, SS_NONE, 0);
}

/* A location: function `name` (NULL: a position only) at file#line (file
 * NULL: none). */
static ss_id LOC(struct ss_model *m, const char *name, const char *file, uint32_t line)
{
    ss_id loc =
        ss_model_location(m, name ? FN(m, name) : SS_NONE, file ? S(m, file) : SS_NONE, line);
    ck_assert_uint_ne(loc, SS_NONE);
    return loc;
}

static void source(struct ss_model *m, const char *type, double interval_us, uint32_t flags)
{
    struct ss_source s;
    memset(&s, 0, sizeof s);
    s.type = S(m, type);
    s.uri = S(m, "hand-made");
    s.session = 1;
    s.interval_us = interval_us;
    s.flags = flags;
    ck_assert_uint_ne(ss_model_add_source(m, &s), SS_NONE);
}

static void sample(struct ss_model *m, ss_id stack, const int64_t *vals)
{
    ck_assert_int_eq(ss_model_add_sample(m, stack, vals), 0);
}

/* Three sources: a line-profiling Rprof session, a memory+GC Rprof session,
 * and a "pprof" source with an unknown interval and a count of 3. */
static void tiny_build(struct tiny *t)
{
    struct ss_error err;
    struct ss_model *m = &t->m;
    ck_assert_int_eq(ss_model_init(m, &err), 0);
    t->vt[0] = SS_VT_COUNT;
    t->vt[1] = ss_model_value_type(m, "small_v", "cells");
    t->vt[2] = ss_model_value_type(m, "big_v", "cells");
    t->vt[3] = ss_model_value_type(m, "nodes", "bytes");
    t->vt[4] = ss_model_value_type(m, "dup_count", "count");

    source(m, "rprof", 20000, SS_SRC_LINE);
    ss_id s1[] = {LOC(m, "f", "/p/a.R", 3), LOC(m, "main", "/p/a.R", 7)};
    ss_id st1 = ss_model_stack(m, s1, 2, LOC(m, NULL, "/p/a.R", 9));
    ss_id s2[] = {LOC(m, "g", "/q/b.R", 2), LOC(m, "main", "/p/a.R", 7)};
    ss_id st2 = ss_model_stack(m, s2, 2, SS_NONE);
    ss_id s3[] = {LOC(m, "h", NULL, 5), LOC(m, "main", NULL, 0)};
    ss_id st3 = ss_model_stack(m, s3, 2, SS_NONE);
    sample(m, st1, NULL);
    sample(m, st2, NULL);
    sample(m, st1, NULL);
    sample(m, st3, NULL);

    source(m, "rprof", 5000, SS_SRC_MEMORY | SS_SRC_GC);
    ss_id empty = ss_model_stack(m, NULL, 0, SS_NONE);
    ss_id s4[] = {LOC(m, "<GC>", NULL, 0), LOC(m, "f", NULL, 0)};
    ss_id st4 = ss_model_stack(m, s4, 2, SS_NONE);
    int64_t v1[5] = {1, 10, 20, 3000, 0}, v2[5] = {1, 11, 25, 3500, 2};
    sample(m, empty, v1);
    sample(m, st4, v2);

    source(m, "pprof", 0, 0);
    ss_id s5[] = {LOC(m, "g", "/q/b.R", 2)};
    ss_id st5 = ss_model_stack(m, s5, 1, SS_NONE);
    int64_t v3[5] = {3, 0, 0, 0, 0};
    sample(m, st5, v3);
    sample(m, empty, NULL); /* no frames and no memory: R writes no line */
}

/* Write m with a stream writer into a string (caller frees). */
static char *write_string(const struct ss_model *m,
                          int (*w)(const struct ss_model *, FILE *, const char *,
                                   struct ss_error *),
                          int *rc, struct ss_error *err)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    ck_assert_ptr_nonnull(f);
    ss_error_clear(err);
    *rc = w(m, f, "out", err);
    fclose(f);
    return buf;
}

START_TEST(test_rprof_writer_layout)
{
    struct tiny t;
    tiny_build(&t);
    struct ss_error err;
    int rc;
    char *out = write_string(&t.m, ss_write_rprof, &rc, &err);
    ck_assert_msg(rc == 0, "%s", err.msg);
    /* Session 1: files numbered in order of first use, each #File line just
     * before its first use; the position before a name is that frame's,
     * the tail follows the outermost name; the undeclared file (NA#5) gets
     * number 3, which no #File line declares.  Session 2: flags in R's
     * order, memory prefix from the value columns, an empty memory line.
     * Source 3 (pprof): interval unknown -> 1 s, "line profiling: " because
     * a frame has a position, file numbers restart, count 3 -> three
     * lines, the empty sample without memory is not written. */
    ck_assert_str_eq(out, "line profiling: sample.interval=20000\n"
                          "#File 1: /p/a.R\n"
                          "1#3 \"f\" 1#7 \"main\" 1#9 \n"
                          "#File 2: /q/b.R\n"
                          "2#2 \"g\" 1#7 \"main\" \n"
                          "1#3 \"f\" 1#7 \"main\" 1#9 \n"
                          "3#5 \"h\" \"main\" \n"
                          "memory profiling: GC profiling: sample.interval=5000\n"
                          ":10:20:3000:0:\n"
                          ":11:25:3500:2:\"<GC>\" \"f\" \n"
                          "line profiling: sample.interval=1000000\n"
                          "#File 1: /q/b.R\n"
                          "1#2 \"g\" \n"
                          "1#2 \"g\" \n"
                          "1#2 \"g\" \n");
    /* Read back: the same samples, positions and values. */
    char path[4096];
    struct ss_model back;
    ck_assert_int_eq(fx_load(&back, &err, out, strlen(out), path, sizeof path), 0);
    ck_assert_uint_eq(back.sample_stack.n, 4 + 2 + 3);
    char a[512], b[512];
    for (size_t i = 0; i < 6; i++) {
        fx_stack_text(&t.m, t.m.sample_stack.v[i], a, sizeof a);
        fx_stack_text(&back, back.sample_stack.v[i], b, sizeof b);
        if (i == 3) /* the undeclared file reads back as "no file", line 5 */
            ck_assert_str_eq(b, "h@NA#5 | main");
        ck_assert_str_eq(a, b);
    }
    ck_assert_uint_eq(back.sources.n, 3);
    ck_assert_uint_eq(back.sources.v[1].flags, SS_SRC_MEMORY | SS_SRC_GC);
    ck_assert_double_exact(back.sources.v[2].interval_us, 1e6);
    free(out);
    ss_model_free(&back);
    /* Writing what was read gives the same text. */
    struct ss_model again;
    out = write_string(&t.m, ss_write_rprof, &rc, &err);
    ck_assert_int_eq(fx_load(&again, &err, out, strlen(out), path, sizeof path), 0);
    char *out2 = write_string(&again, ss_write_rprof, &rc, &err);
    ck_assert_str_eq(out, out2);
    free(out);
    free(out2);
    ss_model_free(&again);
    ss_model_free(&t.m);
}
END_TEST

/* Names R writes verbatim; only those the reader cannot split back are
 * refused. */
START_TEST(test_rprof_writer_names)
{
    static const struct {
        const char *name;
        int ok;
    } cases[] = {
        {"plain", 1},   {"with space", 1}, {"a\"b", 1},      {"say \"hi\"", 1},
        {"a\" b", 1},   {"\"", 1},         {"x;y", 1},       {"fns[[\"a b\"]]", 1},
        {"a\" 1#2", 1}, {"a\" 1#x ", 1},   {"", 1},          {"a\" \"b", 0},
        {"ends\" ", 0}, {"a\" 12#3 b", 0}, {"new\nline", 0}, {"cr\r", 0},
    };
    for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
        struct ss_model m;
        struct ss_error err;
        ck_assert_int_eq(ss_model_init(&m, &err), 0);
        source(&m, "rprof", 20000, 0);
        ss_id fr[] = {LOC(&m, cases[i].name, NULL, 0), LOC(&m, "main", NULL, 0)};
        sample(&m, ss_model_stack(&m, fr, 2, SS_NONE), NULL);
        int rc;
        char *out = write_string(&m, ss_write_rprof, &rc, &err);
        if (!cases[i].ok) {
            ck_assert_msg(rc == SS_EUSAGE, "'%s' should be refused", cases[i].name);
            ck_assert_ptr_nonnull(strstr(err.msg, "cannot write Rprof"));
        } else {
            ck_assert_msg(rc == 0, "'%s': %s", cases[i].name, err.msg);
            struct ss_model back;
            char path[4096];
            ck_assert_int_eq(fx_load(&back, &err, out, strlen(out), path, sizeof path), 0);
            ck_assert_uint_eq(back.sample_stack.n, 1);
            const ss_id *f = ss_stack_frames(&back, back.sample_stack.v[0]);
            ck_assert_uint_eq(ss_stack_depth(&back, back.sample_stack.v[0]), 2);
            ck_assert_str_eq(fx_loc_name(&back, f[0]), cases[i].name);
            ck_assert_str_eq(fx_loc_name(&back, f[1]), "main");
            ss_model_free(&back);
        }
        free(out);
        ss_model_free(&m);
    }
}
END_TEST

START_TEST(test_rprof_writer_refusals)
{
    struct ss_model m;
    struct ss_error err;
    int rc;
    /* a source of aggregates only */
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    source(&m, "sampling_prof", 1000, SS_SRC_AGGREGATE);
    free(write_string(&m, ss_write_rprof, &rc, &err));
    ck_assert_int_eq(rc, SS_EUSAGE);
    ck_assert_ptr_nonnull(strstr(err.msg, "aggregate"));
    ss_model_free(&m);
    /* a negative count never reaches a writer: the model refuses it */
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    source(&m, "pprof", 1000, 0);
    int64_t v = -2;
    ss_id fr[] = {LOC(&m, "f", NULL, 0)};
    ck_assert_int_eq(ss_model_add_sample(&m, ss_model_stack(&m, fr, 1, SS_NONE), &v),
                     SS_COUNT_RANGE);
    ck_assert_uint_eq(m.sample_stack.n, 0);
    ss_model_free(&m);
    /* an interval over an hour */
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    source(&m, "pprof", 7200e6, 0);
    free(write_string(&m, ss_write_rprof, &rc, &err));
    ck_assert_int_eq(rc, SS_EUSAGE);
    ss_model_free(&m);
    /* a fractional interval is rounded to whole microseconds, at least 1 */
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    source(&m, "pprof", 2500.4, 0);
    source(&m, "pprof", 0.2, 0);
    char *out = write_string(&m, ss_write_rprof, &rc, &err);
    ck_assert_int_eq(rc, 0);
    ck_assert_str_eq(out, "sample.interval=2500\nsample.interval=1\n");
    free(out);
    ss_model_free(&m);
}
END_TEST

/* Folded writer: root first, counts summed over stacks with the same
 * names, ordered by count then text; empty stacks left out. */
START_TEST(test_folded_writer)
{
    struct tiny t;
    tiny_build(&t);
    struct ss_error err;
    int rc;
    char *out = write_string(&t.m, ss_write_folded, &rc, &err);
    ck_assert_msg(rc == 0, "%s", err.msg);
    /* g (pprof, count 3): 3; main;f: 2 samples; main;g, main;h and f;<GC>
     * (session 2): 1 each, in byte order; the empty samples are left out. */
    ck_assert_str_eq(out, "g 3\n"
                          "main;f 2\n"
                          "f;<GC> 1\n"
                          "main;g 1\n"
                          "main;h 1\n");
    free(out);
    ss_model_free(&t.m);
}
END_TEST

/* A stack whose only function has an empty name would be the line " 2",
 * which no folded reader takes (found by fuzz_write: tests/data/fuzz/write/):
 * the writer refuses it.  An empty name beside others is a line like
 * "main; 2" and is written. */
START_TEST(test_folded_writer_empty_name)
{
    struct ss_model m;
    struct ss_error err;
    int rc;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    source(&m, "rprof", 20000, 0);
    ss_id two[] = {LOC(&m, "", NULL, 0), LOC(&m, "main", NULL, 0)};
    sample(&m, ss_model_stack(&m, two, 2, SS_NONE), NULL);
    char *out = write_string(&m, ss_write_folded, &rc, &err);
    ck_assert_msg(rc == 0, "%s", err.msg);
    ck_assert_str_eq(out, "main; 1\n");
    free(out);
    ss_id one[] = {LOC(&m, "", NULL, 0)};
    sample(&m, ss_model_stack(&m, one, 1, SS_NONE), NULL);
    out = write_string(&m, ss_write_folded, &rc, &err);
    free(out);
    ck_assert_int_eq(rc, SS_EUSAGE);
    ck_assert_msg(strstr(err.msg, "empty name") != NULL, "%s", err.msg);
    ss_model_free(&m);
}
END_TEST

/* ---- tables ------------------------------------------------------------------ */

static void rm_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char p[4096 + 256];
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

START_TEST(test_tables_round_trip)
{
    struct tiny t;
    tiny_build(&t);
    struct ss_model *m = &t.m;
    /* odd strings, "" against no file, a class, meta, aggregates */
    source(m, "sampling_prof", 1000, SS_SRC_AGGREGATE);
    ss_id odd = LOC(m, "tab\there\\back\nnew\rcr", "", 4);
    ss_id fr[] = {odd, LOC(m, "\\N", NULL, 0)};
    source(m, "rprof", 20000, SS_SRC_LINE);
    sample(m, ss_model_stack(m, fr, 2, SS_NONE), NULL);
    ck_assert_int_eq(ss_model_add_meta(m, SS_NONE, S(m, "comment"), S(m, "a\tb")), 0);
    ck_assert_int_eq(ss_model_add_meta(m, 2, S(m, "duration_ns"), S(m, "123")), 0);
    ck_assert_int_eq(ss_model_set_class(m, 1, S(m, "app")), 0);
    ck_assert_uint_eq(m->function_class.n, m->functions.n);
    struct ss_agg ag = {3, odd, 5, 9};
    ck_assert_int_eq(ss_model_add_agg(m, &ag), 0);
    struct ss_agg_edge ed = {3, SS_NONE, odd, 9};
    ck_assert_int_eq(ss_model_add_edge(m, &ed), 0);
    m->sources.v[0].timestamp = 1700000000;
    m->sources.v[0].header_line = 7;

    char dir[4096];
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/ss_tables_XXXXXX", tmp && *tmp ? tmp : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    struct ss_error err;
    ck_assert_msg(ss_write_tables(m, dir, &err) == 0, "%s", err.msg);
    struct ss_model b;
    char *paths[1] = {dir};
    int rc = ss_load_files(&b, paths, 1, NULL, &err);
    rm_dir(dir);
    ck_assert_msg(rc == 0, "%s", err.msg);

    ck_assert_uint_eq(b.sources.n, m->sources.n);
    for (size_t i = 0; i < m->sources.n; i++) {
        const struct ss_source *x = &m->sources.v[i], *y = &b.sources.v[i];
        ck_assert_str_eq(ss_str(&b, y->type), ss_str(m, x->type));
        ck_assert_str_eq(ss_str(&b, y->uri), ss_str(m, x->uri));
        ck_assert_uint_eq(y->session, x->session);
        ck_assert_uint_eq(y->header_line, x->header_line);
        ck_assert_int_eq(y->timestamp, x->timestamp);
        /* an unknown interval (0, tiny_build's pprof source) reads back
         * as 1 s, as the Rprof writer writes it */
        ck_assert_double_exact(y->interval_us, x->interval_us > 0 ? x->interval_us : 1e6);
        ck_assert_uint_eq(y->flags, x->flags);
        ck_assert_uint_eq(y->first_sample, x->first_sample);
        ck_assert_uint_eq(y->n_samples, x->n_samples);
    }
    ck_assert_uint_eq(b.sample_stack.n, m->sample_stack.n);
    char sa[512], sb[512];
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        fx_stack_text(m, m->sample_stack.v[i], sa, sizeof sa);
        fx_stack_text(&b, b.sample_stack.v[i], sb, sizeof sb);
        ck_assert_str_eq(sa, sb);
        for (size_t v = 0; v < m->value_types.n; v++) {
            int64_t x = m->values.v[v] ? m->values.v[v][i] : v == 0;
            int64_t y = b.values.v[v] ? b.values.v[v][i] : v == 0;
            ck_assert_int_eq(x, y);
        }
    }
    /* the odd name and the empty (not missing) file */
    const ss_id *f = ss_stack_frames(&b, b.sample_stack.v[b.sample_stack.n - 1]);
    ck_assert_str_eq(fx_loc_name(&b, f[0]), "tab\there\\back\nnew\rcr");
    ck_assert_str_eq(fx_loc_file(&b, f[0]), "");
    ck_assert_str_eq(fx_loc_name(&b, f[1]), "\\N");
    ck_assert_ptr_null(fx_loc_file(&b, f[1]));
    ck_assert_uint_eq(b.meta.n, 2);
    ck_assert_str_eq(ss_str(&b, b.meta.v[0].value), "a\tb");
    ck_assert_uint_eq(b.meta.v[0].source, SS_NONE);
    ck_assert_uint_eq(b.meta.v[1].source, 2);
    ck_assert_uint_eq(b.aggs.n, 1);
    ck_assert_int_eq(b.aggs.v[0].self, 5);
    ck_assert_int_eq(b.aggs.v[0].total, 9);
    ck_assert_str_eq(fx_loc_name(&b, b.aggs.v[0].location), "tab\there\\back\nnew\rcr");
    ck_assert_uint_eq(b.edges.n, 1);
    ck_assert_uint_eq(b.edges.v[0].caller, SS_NONE);
    ck_assert_int_eq(b.edges.v[0].count, 9);
    size_t classes = 0;
    for (size_t i = 0; i < b.function_class.n; i++)
        if (b.function_class.v[i] != SS_NONE) {
            classes++;
            ck_assert_str_eq(ss_str(&b, b.function_class.v[i]), "app");
            ck_assert_str_eq(ss_str(&b, b.functions.v[i].name), ss_str(m, m->functions.v[1].name));
        }
    ck_assert_uint_eq(classes, 1);
    ss_model_free(&b);
    ss_model_free(m);
}
END_TEST

/* The tables writer refuses what the tables reader would (limits.h), and
 * leaves the directory empty: an interval over 10^18 us, a negative count,
 * an aggregate with self > total. */
START_TEST(test_tables_writer_limits)
{
    static const char *const want[] = {"interval of 1e+19 us", "negative count (-3)",
                                       "self 5 and total 4"};
    for (int k = 0; k < 3; k++) {
        struct ss_model m;
        FX_LOAD_OK(&m, "main;f 3\n");
        if (k == 0)
            m.sources.v[0].interval_us = 1e19;
        if (k == 1)
            m.values.v[SS_VT_COUNT][0] = -3;
        if (k == 2) {
            struct ss_agg ag = {0, 0, 5, 4};
            ck_assert_int_eq(VEC_PUSH(m.aggs, ag), 0);
        }
        char dir[4096];
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/ss_tables_XXXXXX", tmp && *tmp ? tmp : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(dir));
        struct ss_error err;
        int rc = ss_write_tables(&m, dir, &err);
        int empty = rmdir(dir) == 0;
        if (!empty)
            rm_dir(dir);
        ss_model_free(&m);
        ck_assert_int_eq(rc, SS_EINPUT);
        ck_assert_msg(strstr(err.msg, "cannot write tables: ") && strstr(err.msg, want[k]), "%s",
                      err.msg);
        ck_assert(empty);
    }
}
END_TEST

/* A stack deeper than every reader takes (limits.h: SS_MAX_FRAMES) is
 * refused by every stack writer before anything is written: a transform
 * could make one (a frame added to a stack at the limit). */
START_TEST(test_writers_refuse_deep_stack)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    fx_source(&m, "folded", "deep.folded", 1, 1e6, 0);
    ss_id fn = ss_model_function(&m, ss_model_intern_cstr(&m, "f"), SS_NONE, SS_NONE, 0);
    ss_id loc = ss_model_location(&m, fn, SS_NONE, 0);
    size_t n = SS_MAX_FRAMES + 1;
    ss_id *locs = malloc(n * sizeof *locs);
    ck_assert_ptr_nonnull(locs);
    for (size_t i = 0; i < n; i++)
        locs[i] = loc;
    ss_id st = ss_model_stack(&m, locs, n, SS_NONE);
    free(locs);
    ck_assert_uint_ne(st, SS_NONE);
    ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0);
    ss_model_seal(&m);
    static const enum ss_out_format outs[] = {SS_OUT_RPROF, SS_OUT_PPROF, SS_OUT_FOLDED,
                                              SS_OUT_TABLES, SS_OUT_SPEEDSCOPE};
    for (size_t k = 0; k < sizeof outs / sizeof *outs; k++) {
        char path[4096];
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/ss_deep_%d_%zu", tmp && *tmp ? tmp : "/tmp", (int)getpid(),
                 k);
        struct ss_write_opts o = {0};
        o.format = outs[k];
        int rc = ss_write_file(&m, path, &o, &err);
        ck_assert_int_eq(rc, SS_EUSAGE);
        char want[256];
        snprintf(want, sizeof want,
                 "cannot write %s: a stack of 1000001 frames (the readers take at most 1000000 "
                 "frames in one stack); nothing written",
                 ss_format_get(outs[k])->title);
        ck_assert_msg(strstr(err.msg, want) != NULL, "%s (want '%s')", err.msg, want);
        ck_assert_msg(access(path, F_OK) != 0, "%s was written", path);
    }
    ss_model_free(&m);
}
END_TEST

/* Formats that write every frame of every sample (speedscope, tables)
 * refuse, unless forced, an output over 64 MiB and over 100 times its
 * inputs: 100,000 samples of a 1,000-frame stack (100,000,000 frames) from
 * a 1-byte input.  Rprof: one line per counted sample (tests/cli.sh). */
START_TEST(test_writers_refuse_growth)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    fx_source(&m, "folded", "in.folded", 1, 1e6, 0);
    ss_id locs[1000];
    for (int i = 0; i < 1000; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%d", i);
        ss_id fn = ss_model_function(&m, ss_model_intern_cstr(&m, name), SS_NONE, SS_NONE, 0);
        locs[i] = ss_model_location(&m, fn, SS_NONE, 0);
    }
    ss_id st = ss_model_stack(&m, locs, 1000, SS_NONE);
    for (int i = 0; i < 100000; i++)
        ck_assert_int_eq(ss_model_add_sample(&m, st, NULL), 0);
    ss_model_seal(&m);
    char in[4096], out[4200];
    fx_write(in, sizeof in, "x", 1);
    char *inputs[1] = {in};
    static const enum ss_out_format outs[] = {SS_OUT_SPEEDSCOPE, SS_OUT_TABLES};
    static const char *const why[] = {
        "speedscope writes every frame of every sample: 100000 samples, 100000000 frames",
        "the tables hold every frame of every sample (sample_locations.tsv): 100000 samples, "
        "100000000 frames"};
    for (size_t k = 0; k < 2; k++) {
        snprintf(out, sizeof out, "%s.out%zu", in, k);
        struct ss_write_opts o = {0};
        o.format = outs[k];
        o.inputs = inputs;
        o.n_inputs = 1;
        ck_assert_int_eq(ss_write_file(&m, out, &o, &err), SS_EBIG);
        ck_assert_msg(
            strstr(err.msg, "times the input's 1 B: ") && strstr(err.msg, why[k]) &&
                strstr(err.msg,
                       "; nothing written (--force, or :w! in the explorer, writes it anyway)"),
            "%s", err.msg);
        ck_assert_msg(access(out, F_OK) != 0, "%s was written", out);
    }
    ss_model_free(&m);
    unlink(in);
}
END_TEST

Suite *formats_suite(void)
{
    Suite *s = suite_create("formats");
    TCase *tc = tcase_create("folded");
    tcase_add_test(tc, test_folded_parse_line);
    tcase_add_test(tc, test_folded_sniff);
    tcase_add_test(tc, test_sniff_structure);
    tcase_add_test(tc, test_folded_load);
    tcase_add_test(tc, test_folded_error_line);
    tcase_add_test(tc, test_folded_writer);
    tcase_add_test(tc, test_folded_writer_empty_name);
    suite_add_tcase(s, tc);
    tc = tcase_create("rprof_writer");
    tcase_add_test(tc, test_rprof_writer_layout);
    tcase_add_test(tc, test_rprof_writer_names);
    tcase_add_test(tc, test_rprof_writer_refusals);
    suite_add_tcase(s, tc);
    tc = tcase_create("tables");
    tcase_add_test(tc, test_tables_round_trip);
    tcase_add_test(tc, test_tables_writer_limits);
    tcase_add_test(tc, test_writers_refuse_deep_stack);
    tcase_add_test(tc, test_writers_refuse_growth);
    suite_add_tcase(s, tc);
    return s;
}
