/* check_source.c - source files (source.h), the code pane's memory per line
 * (stats.h: alloc_bytes, released_bytes) and keep-line's text, on tiny
 * hand-made files whose answers the comments work out. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_suites.h"
#include "source.h"
#include "stats.h"
#include "transform.h"

/* A scratch directory (removed by the test with rm_tree). */
static void scratch(char *dir, size_t n)
{
    const char *t = getenv("TMPDIR");
    snprintf(dir, n, "%s/ss-source-XXXXXX", t && *t ? t : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void put(const char *dir, const char *rel, const char *text)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    for (char *s = strchr(p + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        mkdir(p, 0700);
        *s = '/';
    }
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void rm_tree(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* Lines: LF and CR LF ends; a last line without its newline counts; tabs
 * expanded to stops of 8 on request ("\tx" -> 8 blanks, "ab\tc" -> 6). */
START_TEST(test_from_text)
{
    struct ss_source_file f;
    char *t = strdup("one\r\ntwo\n\tx\nab\tc");
    ck_assert_int_eq(ss_source_from_text(t, strlen(t), SS_SOURCE_EXPAND_TABS, "w", &f), 0);
    ck_assert_uint_eq(f.nlines, 4);
    ck_assert_str_eq(ss_source_line(&f, 1), "one");
    ck_assert_str_eq(ss_source_line(&f, 2), "two");
    ck_assert_str_eq(ss_source_line(&f, 3), "        x");
    ck_assert_str_eq(ss_source_line(&f, 4), "ab      c");
    ck_assert_ptr_null(ss_source_line(&f, 5));
    ck_assert_ptr_null(ss_source_line(&f, 0));
    ss_source_file_free(&f);
    t = strdup("");
    ck_assert_int_eq(ss_source_from_text(t, 0, 0, "w", &f), 0);
    ck_assert_uint_eq(f.nlines, 0);
    ss_source_file_free(&f);
}
END_TEST

/* The order: a --source-map first, then as written, next to an input,
 * under a --source-path by the longest tail, then carried in the profile. */
START_TEST(test_read_order)
{
    char d[1024], p[4200];
    scratch(d, sizeof d);
    put(d, "sp/proj/R/fit.R", "tail\n");
    put(d, "sp/fit.R", "basename\n");
    put(d, "mapped/R/fit.R", "mapped\n");
    put(d, "prof/rel/x.R", "beside\n");
    struct ss_source_search s = {NULL, 0, NULL, 0, NULL, 0, NULL};
    const char *dirs[1];
    snprintf(p, sizeof p, "%s/sp", d);
    dirs[0] = p;
    s.dirs = dirs;
    s.ndirs = 1;
    struct ss_source_file f;
    struct ss_strbuf tried = SS_STRBUF_INIT;
    /* /home/ana/proj/R/fit.R: home/ana/proj/R/fit.R, ana/..., proj/R/fit.R */
    ck_assert_int_eq(ss_source_read(&s, "/home/ana/proj/R/fit.R", 0, &f, &tried), 1);
    ck_assert_str_eq(ss_source_line(&f, 1), "tail");
    ss_source_file_free(&f);
    /* a map at a '/' boundary wins; /home/an is no prefix of /home/ana */
    char to[4200];
    snprintf(to, sizeof to, "%s/mapped", d);
    struct ss_source_map maps[2] = {{"/home/an", "/nowhere"}, {"/home/ana/proj", to}};
    s.maps = maps;
    s.nmaps = 2;
    ck_assert_int_eq(ss_source_read(&s, "/home/ana/proj/R/fit.R", 0, &f, NULL), 1);
    ck_assert_str_eq(ss_source_line(&f, 1), "mapped");
    ss_source_file_free(&f);
    /* next to the input profile */
    char input[4200];
    snprintf(input, sizeof input, "%s/prof/p.out", d);
    char *inputs[1] = {input};
    s.inputs = inputs;
    s.ninputs = 1;
    ck_assert_int_eq(ss_source_read(&s, "rel/x.R", 0, &f, NULL), 1);
    ck_assert_str_eq(ss_source_line(&f, 1), "beside");
    ss_source_file_free(&f);
    /* nowhere: the places tried, in order */
    ss_strbuf_free(&tried);
    ck_assert_int_eq(ss_source_read(&s, "/x/q.R", 0, &f, &tried), 0);
    snprintf(p, sizeof p, "/x/q.R, %s/sp/x/q.R, %s/sp/q.R", d, d);
    ck_assert_str_eq(ss_strbuf_str(&tried), p);
    ss_strbuf_free(&tried);
    /* an unnamed file is nowhere */
    ck_assert_int_eq(ss_source_read(&s, "", 0, &f, &tried), 0);
    ck_assert_str_eq(ss_strbuf_str(&tried), "");
    rm_tree(d);
}
END_TEST

/* Carried in the profile: found last, its text split into lines. */
START_TEST(test_carried)
{
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ss_id path = ss_model_intern_cstr(&m, "/far/away/c.R");
    ss_id text = ss_model_intern_cstr(&m, "a <- 1\nb <- 2\n");
    ck_assert_int_eq(ss_model_add_source_text(&m, path, text), 0);
    ck_assert_int_eq(ss_model_add_source_text(&m, path, path), 0); /* the first stays */
    ck_assert_uint_eq(ss_model_source_text(&m, path), text);
    struct ss_source_search s = {NULL, 0, NULL, 0, NULL, 0, &m};
    struct ss_source_file f;
    ck_assert_int_eq(ss_source_read(&s, "/far/away/c.R", 0, &f, NULL), 1);
    ck_assert_uint_eq(f.nlines, 2);
    ck_assert_str_eq(ss_source_line(&f, 2), "b <- 2");
    ck_assert_str_eq(f.where, "carried in the profile");
    ss_source_file_free(&f);
    ss_model_free(&m);
}
END_TEST

/* A function's lines: g's frames at 5, 6 and 2, where f has a frame too
 * (Rprof's line of the call, in the caller): g is 5-6; f's 2 is shared
 * with g, so f is its own 9. */
START_TEST(test_function_range)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "line profiling: sample.interval=1000\n"
                   "#File 1: f.R\n"
                   "1#5 \"g\" 1#2 \"f\" \n"
                   "1#6 \"g\" 1#2 \"f\" \n"
                   "1#2 \"g\" 1#9 \"f\" \n");
    ss_id file = ss_strtab_find(&m.strs, "f.R", 3);
    uint32_t lo, hi;
    ck_assert_int_eq(ss_source_function_range(&m, ss_model_find_function(&m, "g"), file, &lo, &hi),
                     0);
    ck_assert_uint_eq(lo, 5);
    ck_assert_uint_eq(hi, 6);
    ck_assert_int_eq(ss_source_function_range(&m, ss_model_find_function(&m, "f"), file, &lo, &hi),
                     0);
    ck_assert_uint_eq(lo, 9);
    ck_assert_uint_eq(hi, 9);
    ss_model_free(&m);
}
END_TEST

/* Memory per line, profvis's: the change of 8 x (small_v + big_v) since
 * the previous sample:
 *   s1 10+0: first, 0;  s2 12+0: +16 at line 2;  s3 11+0: -8 at line 2;
 *   s4 15+0: +32 at lines 1 and 2 (each once, though f is at 2 twice).
 * Line 1: alloc 32, released 0; line 2: alloc 48, released 8. */
START_TEST(test_line_memory)
{
    struct ss_model m;
    FX_LOAD_OK(&m, "memory profiling: line profiling: sample.interval=1000\n"
                   "#File 1: f.R\n"
                   ":10:0:0:0:1#1 \"f\" \n"
                   ":12:0:0:0:1#2 \"f\" \n"
                   ":11:0:0:0:1#2 \"f\" \n"
                   ":15:0:0:0:1#1 \"g\" 1#2 \"f\" 1#2 \"f\" \n");
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&m, SS_BY_LINE, 1, &st, &err), 0);
    int seen = 0;
    for (size_t i = 0; i < st.n; i++) {
        const struct ss_stat_row *r = &st.rows[i];
        if (r->line == 1) {
            ck_assert_double_exact(r->alloc_bytes, 32);
            ck_assert_double_exact(r->released_bytes, 0);
            seen++;
        } else if (r->line == 2) {
            ck_assert_double_exact(r->alloc_bytes, 48);
            ck_assert_double_exact(r->released_bytes, 8);
            seen++;
        }
    }
    ck_assert_int_eq(seen, 2);
    ss_stats_free(&st);
    ss_model_free(&m);
}
END_TEST

/* keep-line's canonical text: the basename kept, quoted when it must be. */
START_TEST(test_keep_line_text)
{
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_error err;
    ck_assert_int_eq(ss_tf_append(l, "keep-line a/b/x.R#12", &err), 0);
    ck_assert_int_eq(ss_tf_append(l, "keep-line \"#3\"", &err), 0);
    ck_assert_str_eq(ss_tf_text(l, 0), "keep-line x.R#12");
    ck_assert_str_eq(ss_tf_text(l, 1), "keep-line \"#3\"");
    ck_assert_int_eq(ss_tf_append(l, "keep-line x.R", &err), SS_EUSAGE);
    ck_assert_int_eq(ss_tf_append(l, "keep-line x.R#0", &err), SS_EUSAGE);
    ck_assert_int_eq(ss_tf_append(l, "keep-line x.R#1x", &err), SS_EUSAGE);
    ss_tf_list_free(l);
}
END_TEST

Suite *source_suite(void)
{
    Suite *s = suite_create("source");
    TCase *tc = tcase_create("source");
    tcase_add_test(tc, test_from_text);
    tcase_add_test(tc, test_read_order);
    tcase_add_test(tc, test_carried);
    tcase_add_test(tc, test_function_range);
    tcase_add_test(tc, test_line_memory);
    tcase_add_test(tc, test_keep_line_text);
    suite_add_tcase(s, tc);
    return s;
}
