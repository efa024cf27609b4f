/* check_tail.c - following a file as it grows (src/tail.h): lines handed
 * out only when complete, appends seen, a start from the end, a file
 * truncated, rewritten longer between two polls, or replaced by a rename,
 * the bound on a poll and on a line.  Every expected string is what the
 * test itself wrote to the file. */
#include "check_suites.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tail.h"

static char dir[4096];

/* A file in a new temporary directory, with text written (w: replace it,
 * a: append). */
static const char *file_put(const char *name, const char *mode, const char *text)
{
    static char path[4200];
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/ss_tail_XXXXXX", tmp && *tmp ? tmp : "/tmp");
        ck_assert_ptr_nonnull(mkdtemp(dir));
    }
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, mode);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fputs(text, f) >= 0, 1);
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

/* Remove the directory and what the test wrote in it. */
static void cleanup(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[8400];
    while (d && (e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
    dir[0] = '\0';
}

/* One poll's lines as a string (restart marked "!"). */
static const char *poll_text(struct ss_tail *t)
{
    static char out[1 << 16];
    const char *lines;
    size_t len;
    int restart;
    struct ss_error err;
    ck_assert_int_eq(ss_tail_poll(t, &lines, &len, &restart, &err), 0);
    ck_assert_uint_lt(len, sizeof out - 2);
    snprintf(out, sizeof out, "%s%.*s", restart ? "!" : "", (int)len, lines);
    return out;
}

START_TEST(test_append_and_partial)
{
    const char *p = file_put("a.out", "w", "head\nab");
    struct ss_tail t;
    struct ss_error err;
    ck_assert_int_eq(ss_tail_open(&t, p, 0, &err), 0);
    ck_assert_str_eq(poll_text(&t), "head\n"); /* "ab" held: no newline yet */
    ck_assert_uint_eq(ss_tail_behind(&t), 2);
    ck_assert_str_eq(poll_text(&t), "");
    file_put("a.out", "a", "c\nde");
    ck_assert_str_eq(poll_text(&t), "abc\n");
    file_put("a.out", "a", "f\ng\nh\n");
    ck_assert_str_eq(poll_text(&t), "def\ng\nh\n");
    ck_assert_uint_eq(ss_tail_behind(&t), 0);
    ss_tail_close(&t);
    ss_tail_close(&t); /* twice: a no-op */
    cleanup();
}
END_TEST

START_TEST(test_from_end)
{
    const char *p = file_put("e.out", "w", "old1\nold2\npart");
    struct ss_tail t;
    struct ss_error err;
    ck_assert_int_eq(ss_tail_open(&t, p, 1, &err), 0);
    ck_assert_str_eq(poll_text(&t), ""); /* after the last complete line */
    file_put("e.out", "a", "ial\nnew\n");
    ck_assert_str_eq(poll_text(&t), "partial\nnew\n");
    ss_tail_close(&t);
    cleanup();
}
END_TEST

START_TEST(test_truncated_and_rewritten)
{
    const char *p = file_put("t.out", "w", "one\ntwo\n");
    struct ss_tail t;
    struct ss_error err;
    ck_assert_int_eq(ss_tail_open(&t, p, 0, &err), 0);
    ck_assert_str_eq(poll_text(&t), "one\ntwo\n");
    file_put("t.out", "w", "x\n"); /* shorter: truncated, the same file */
    ck_assert_str_eq(poll_text(&t), "!x\n");
    file_put("t.out", "a", "y\n");
    ck_assert_str_eq(poll_text(&t), "y\n");
    /* rewritten from the start and longer than what was read by the next
     * poll: the bytes before the offset differ */
    file_put("t.out", "w", "a new session\nwith more lines\n");
    ck_assert_str_eq(poll_text(&t), "!a new session\nwith more lines\n");
    ss_tail_close(&t);
    cleanup();
}
END_TEST

START_TEST(test_replaced)
{
    const char *p = file_put("r.out", "w", "first\n");
    char keep[4200];
    snprintf(keep, sizeof keep, "%s", p);
    struct ss_tail t;
    struct ss_error err;
    ck_assert_int_eq(ss_tail_open(&t, keep, 0, &err), 0);
    ck_assert_str_eq(poll_text(&t), "first\n");
    /* the writer adds a last line to the old file, then a new file is
     * renamed over the name: the old file's lines first, then the new one */
    file_put("r.out", "a", "last of old\nunfinished");
    const char *q = file_put("r.new", "w", "fresh\n");
    ck_assert_int_eq(rename(q, keep), 0);
    ck_assert_str_eq(poll_text(&t), "last of old\n");
    ck_assert_str_eq(poll_text(&t), "!fresh\n"); /* "unfinished" never ended */
    file_put("r.out", "a", "more\n");
    ck_assert_str_eq(poll_text(&t), "more\n");
    ss_tail_close(&t);
    cleanup();
}
END_TEST

START_TEST(test_bounds)
{
    /* a poll hands out at most max_poll bytes; a line longer is an error
     * naming its byte offset */
    const char *p = file_put("b.out", "w", "aaaa\nbbbb\ncccc\n");
    struct ss_tail t;
    struct ss_error err;
    ck_assert_int_eq(ss_tail_open(&t, p, 0, &err), 0);
    t.max_poll = 12;
    ck_assert_str_eq(poll_text(&t), "aaaa\nbbbb\n"); /* 12 bytes read, 10 whole */
    ck_assert_str_eq(poll_text(&t), "cccc\n");
    file_put("b.out", "a", "dddddddddddddddddddd\n");
    const char *lines;
    size_t len;
    int restart;
    ck_assert_int_eq(ss_tail_poll(&t, &lines, &len, &restart, &err), SS_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "b.out: byte offset 15: a line longer than 12 bytes"));
    ss_tail_close(&t);
    ck_assert_int_eq(ss_tail_open(&t, "/nonexistent/x.out", 0, &err), SS_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/x.out: cannot open it to follow"));
    ck_assert_int_eq(ss_tail_open(&t, dir, 0, &err), SS_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "not a regular file"));
    cleanup();
}
END_TEST

Suite *tail_suite(void)
{
    Suite *s = suite_create("tail");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_append_and_partial);
    tcase_add_test(tc, test_from_end);
    tcase_add_test(tc, test_truncated_and_rewritten);
    tcase_add_test(tc, test_replaced);
    tcase_add_test(tc, test_bounds);
    suite_add_tcase(s, tc);
    return s;
}
