/* check_reader.c - the line reader (src/reader.h): line ends, line numbers,
 * byte offsets, the unterminated last line, long lines, and files larger
 * than the read block / mmap window, in both reading modes (mmap, and
 * read(2), the default, and mapped with STACKSCOPE_MMAP). */
#include "check_suites.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "inmap.h"
#include "limits.h"
#include "load.h"
#include "reader.h"

struct want_line {
    const char *text;
    unsigned long long offset;
    int terminated;
};

/* Read `data` through a reader and compare with want[0..n). */
static void expect_lines(const char *data, size_t len, const struct want_line *want, size_t n)
{
    char path[4096];
    fx_write(path, sizeof path, data, len);
    struct ss_reader r;
    struct ss_error err;
    ck_assert_int_eq(ss_reader_open(&r, path, &err), 0);
    const char *line;
    size_t ll;
    int term;
    for (size_t i = 0; i < n; i++) {
        int got = ss_reader_next(&r, &line, &ll, &term, &err);
        ck_assert_msg(got == 1, "line %zu: got %d (%s)", i + 1, got, got < 0 ? err.msg : "");
        ck_assert_msg(ll == strlen(want[i].text) && memcmp(line, want[i].text, ll) == 0,
                      "line %zu: '%.*s', want '%s'", i + 1, (int)ll, line, want[i].text);
        ck_assert_uint_eq(r.line_no, i + 1);
        ck_assert_uint_eq(r.offset, want[i].offset);
        ck_assert_int_eq(term, want[i].terminated);
    }
    ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), 0);
    ss_reader_close(&r);
    unlink(path);
}

/* expect_lines of a string literal (its length without the final NUL). */
#define EXPECT_LINES(lit, want, n) expect_lines((lit), sizeof(lit) - 1, (want), (n))

/* Mode 0: the file mapped (STACKSCOPE_MMAP); 1: read (the default). */
static void set_mode(int i)
{
    if (i)
        unsetenv("STACKSCOPE_MMAP");
    else
        setenv("STACKSCOPE_MMAP", "1", 1);
}

START_TEST(test_line_ends)
{
    set_mode(_i);
    /* LF, last line unterminated: offsets 0, 2 ("a\n" is 2 bytes). */
    static const struct want_line lf[] = {{"a", 0, 1}, {"bb", 2, 0}};
    EXPECT_LINES("a\nbb", lf, 2);
    /* CRLF with an empty line: "a\r\n" 3, "bb\r\n" 4, "\r\n" 2 -> 0 3 7 9. */
    static const struct want_line crlf[] = {{"a", 0, 1}, {"bb", 3, 1}, {"", 7, 1}, {"ccc", 9, 0}};
    EXPECT_LINES("a\r\nbb\r\n\r\nccc", crlf, 4);
    /* CR only: "a\r" 2, "bb\r" 3 -> 0 2 5. */
    static const struct want_line cr[] = {{"a", 0, 1}, {"bb", 2, 1}, {"c", 5, 1}};
    EXPECT_LINES("a\rbb\rc\r", cr, 3);
    /* The first line end decides: after an LF, a lone CR is data. */
    static const struct want_line lfcr[] = {{"a", 0, 1}, {"b\rc", 2, 1}};
    EXPECT_LINES("a\nb\rc\n", lfcr, 2);
    /* A CRLF in a CR file (one stray Windows line end) ends one line:
     * "a\r" 2, "b\r\n" 3 -> 0 2 5. */
    static const struct want_line crstray[] = {{"a", 0, 1}, {"b", 2, 1}, {"c", 5, 1}};
    EXPECT_LINES("a\rb\r\nc\r", crstray, 3);
    /* One line, no line end at all. */
    static const struct want_line one[] = {{"sample.interval=20000", 0, 0}};
    EXPECT_LINES("sample.interval=20000", one, 1);
    /* Empty file: no lines. */
    EXPECT_LINES("", NULL, 0);
    unsetenv("STACKSCOPE_MMAP");
}
END_TEST

START_TEST(test_peek)
{
    set_mode(_i);
    char path[4096];
    fx_write(path, sizeof path, "ab", 2);
    struct ss_reader r;
    struct ss_error err;
    ck_assert_int_eq(ss_reader_open(&r, path, &err), 0);
    const char *p;
    /* Asking for 4 bytes of a 2-byte file gives 2; peeking consumes nothing. */
    ck_assert_int_eq(ss_reader_peek(&r, &p, 4, &err), 2);
    ck_assert_int_eq(memcmp(p, "ab", 2), 0);
    const char *line;
    size_t ll;
    int term;
    ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), 1);
    ck_assert_uint_eq(ll, 2);
    ss_reader_close(&r);
    unlink(path);
    unsetenv("STACKSCOPE_MMAP");
}
END_TEST

/* A profile bigger than the read block (1 MiB) and the mmap window
 * (32 MiB): 3 different lines of 12, 16 and 1999 bytes (line end included)
 * cycle, so line
 * ends fall everywhere relative to block and window edges.  CR-only line
 * ends.  Then one cut-off line. */
START_TEST(test_big_file)
{
    set_mode(_i);
    static const char head[] = "sample.interval=20000\r";
    /* The long line: 333 frames of `"abc" ` (1998 bytes) and its CR. */
    char big[2000];
    size_t bl = 0;
    for (int k = 0; k < 333; k++, bl += 6)
        memcpy(big + bl, "\"abc\" ", 6);
    big[bl++] = '\r';
    const char *lines[3] = {"\"f\" \"main\" \r", "\"g\" \"f\" \"main\" \r", big};
    size_t lens[3] = {strlen(lines[0]), strlen(lines[1]), bl};
    ck_assert_uint_eq(lens[0], 12);
    ck_assert_uint_eq(lens[1], 16);
    /* One cycle is 12 + 16 + 1999 = 2027 bytes; 17000 cycles = 34.5 MB. */
    const size_t cycles = 17000;
    size_t total = sizeof head - 1 + cycles * (12 + 16 + bl) + 6;
    char *buf = malloc(total);
    ck_assert_ptr_nonnull(buf);
    size_t n = 0;
    memcpy(buf, head, sizeof head - 1);
    n += sizeof head - 1;
    for (size_t c = 0; c < cycles; c++)
        for (int k = 0; k < 3; k++) {
            memcpy(buf + n, lines[k], lens[k]);
            n += lens[k];
        }
    memcpy(buf + n, "\"f\" \"", 6); /* cut off */
    n += 6;
    ck_assert_uint_eq(n, total);
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    int rc = fx_load(&m, &err, buf, n, path, sizeof path);
    free(buf);
    ck_assert_msg(rc == 0, "%s", err.msg);
    /* 3 x 17000 = 51000 samples, 3 stacks, sample i has stack i % 3; the
     * cut-off line is the one warning. */
    ck_assert_uint_eq(m.sample_stack.n, 3 * cycles);
    ck_assert_uint_eq(ss_model_nstacks(&m), 3);
    for (size_t i = 0; i < m.sample_stack.n; i++)
        if (m.sample_stack.v[i] != m.sample_stack.v[i % 3])
            ck_abort_msg("sample %zu: stack %u, want %u", i, m.sample_stack.v[i],
                         m.sample_stack.v[i % 3]);
    ck_assert_uint_eq(ss_stack_depth(&m, m.sample_stack.v[2]), 333);
    ck_assert_uint_eq(ss_stack_depth(&m, m.sample_stack.v[1]), 3);
    ck_assert_uint_eq(m.warnings.n, 1);
    ss_model_free(&m);
    unsetenv("STACKSCOPE_MMAP");
}
END_TEST

/* A line of a regular file is limited only by the file's size: a 2 MiB
 * line (over the old 1 MiB limit) loads in both modes; a reader whose limit
 * is lower (a pipe's, SS_MAX_STREAM_LINE) refuses a longer line naming the
 * file and the line. */
START_TEST(test_long_line)
{
    set_mode(_i);
    size_t hl = strlen("sample.interval=20000\n");
    size_t n = hl + (2u << 20) + 1;
    char *buf = malloc(n);
    ck_assert_ptr_nonnull(buf);
    memcpy(buf, "sample.interval=20000\n", hl);
    for (size_t i = hl; i + 4 <= n - 1; i += 4)
        memcpy(buf + i, "\"a\" ", 4);
    buf[n - 1] = '\n';
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    int rc = fx_load(&m, &err, buf, n, path, sizeof path);
    ck_assert_msg(rc == 0, "%s", err.msg);
    /* (2 MiB) / 4 bytes per frame = 524288 frames of "a". */
    ck_assert_uint_eq(m.sample_stack.n, 1);
    ck_assert_uint_eq(ss_stack_depth(&m, m.sample_stack.v[0]), (2u << 20) / 4);
    ss_model_free(&m);

    fx_write(path, sizeof path, buf, n);
    free(buf);
    struct ss_reader r;
    ck_assert_int_eq(ss_reader_open(&r, path, &err), 0);
    ck_assert_uint_ge(r.max_line, n);
    r.max_line = 1u << 20;
    const char *line;
    size_t ll;
    int term;
    ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), 1);
    ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), -1);
    char want[4200];
    snprintf(want, sizeof want, "%s:2: line longer than 1048576 bytes (byte offset 22)", path);
    ck_assert_msg(strcmp(err.msg, want) == 0, "message '%s'", err.msg);
    ss_reader_close(&r);
    unlink(path);
    unsetenv("STACKSCOPE_MMAP");
}
END_TEST

/* AddressSanitizer's own mappings do not live under RLIMIT_AS: gcc says it
 * is on with __SANITIZE_ADDRESS__, clang with __has_feature */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

/* A range (the parallel loader's) whose next window cannot be mapped (an
 * address-space limit) is read with pread(2) from where its unread bytes
 * start, also in the middle of a line that straddles the window before. */
START_TEST(test_range_map_fails)
{
#if defined(UNDER_ASAN)
    return; /* the sanitizer's own mappings do not live under RLIMIT_AS */
#else
    /* nor do valgrind's (its preload library names it): whether a window
     * maps under the limit there depends on valgrind's own address-space
     * manager, not on the kernel's, and differs between machines */
    const char *pre = getenv("LD_PRELOAD");
    if (pre != NULL && strstr(pre, "vgpreload") != NULL)
        return;
    /* line 1 ends 1 MiB before the end of the first 4 MiB window; line 2
     * (1.5 MiB) straddles it, so the next window is mapped mid-line
     * (and 4 MiB of lines after it: the next window is a whole one) */
    size_t l1 = (3u << 20) - 1, l2 = (3u << 19), n = l1 + 1 + l2 + 1 + 2 + (4u << 20);
    char *buf = malloc(n);
    ck_assert_ptr_nonnull(buf);
    memset(buf, 'a', l1);
    memset(buf + n - (4u << 20), '\n', 4u << 20);
    buf[l1] = '\n';
    for (size_t i = 0; i < l2; i++)
        buf[l1 + 1 + i] = (char)('b' + i % 7);
    memcpy(buf + l1 + 1 + l2, "\nc\n", 3);
    char path[4096];
    fx_write(path, sizeof path, buf, n);
    setenv("STACKSCOPE_MMAP", "1", 1);
    int fd = open(path, O_RDONLY);
    ck_assert_int_ge(fd, 0);
    struct ss_reader r;
    struct ss_error err;
    ck_assert_int_eq(ss_reader_open_range(&r, fd, path, 0, n, n, &err), 0);
    unsetenv("STACKSCOPE_MMAP");
    const char *line;
    size_t ll;
    int term;
    ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), 1);
    ck_assert_uint_eq(ll, l1);
    ck_assert_int_eq(r.mapped, 1);
    /* from here no new mapping of 4 MiB fits (the window in use is
     * unmapped first): half a MiB below what the process has now */
    struct rlimit old, lim;
    ck_assert_int_eq(getrlimit(RLIMIT_AS, &old), 0);
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fscanf(f, "%lu", &pages), 1);
    fclose(f);
    lim = old;
    lim.rlim_cur = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) - (1u << 19);
    ck_assert_int_eq(setrlimit(RLIMIT_AS, &lim), 0);
    int got = ss_reader_next(&r, &line, &ll, &term, &err);
    int mapped = r.mapped;
    int same = got == 1 && ll == l2 && memcmp(line, buf + l1 + 1, l2) == 0;
    int got3 = got == 1 ? ss_reader_next(&r, &line, &ll, &term, &err) : -2;
    int same3 = got3 == 1 && ll == 1 && line[0] == 'c';
    setrlimit(RLIMIT_AS, &old);
    size_t ll2 = got == 1 ? ll : 0;
    char msg[sizeof err.msg];
    snprintf(msg, sizeof msg, "%s", got < 0 ? err.msg : "");
    /* released before the checks: a failed check in CK_FORK=no leaks nothing */
    ss_reader_close(&r);
    close(fd);
    unlink(path);
    free(buf);
    ck_assert_msg(got == 1, "line 2: %d (%s)", got, msg);
    ck_assert_int_eq(mapped, 0); /* it did fall back to pread */
    ck_assert_msg(same, "line 2: %zu bytes, want %zu", ll2, l2);
    ck_assert_msg(same3, "line 3: %d", got3);
#endif
}
END_TEST

/* A pipe has no size: its lines are limited to SS_MAX_STREAM_LINE. */
START_TEST(test_pipe_limit)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    ck_assert_int_eq(write(fds[1], "a 1\n", 4), 4);
    close(fds[1]);
    char path[64];
    snprintf(path, sizeof path, "/dev/fd/%d", fds[0]);
    struct ss_reader r;
    struct ss_error err;
    ck_assert_int_eq(ss_reader_open(&r, path, &err), 0);
    ck_assert_uint_eq(r.max_line, SS_MAX_STREAM_LINE);
    ck_assert_int_eq(r.mapped, 0);
    const char *line;
    size_t ll;
    int term;
    ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), 1);
    ck_assert_uint_eq(ll, 3);
    ss_reader_close(&r);
    close(fds[0]);
}
END_TEST

/* ---- a file that changes while it is read --------------------------------- */

/* CUT_LINE-byte lines "NNNNNNN xx...x\n" (line k starts at k * CUT_LINE). */
#define CUT_LINE 100
#define CUT_LINES 30000 /* 3 MB: a second mmap window, a second read block */

static void cut_file(char *path, size_t cap)
{
    char *buf = malloc((size_t)CUT_LINE * CUT_LINES);
    ck_assert_ptr_nonnull(buf);
    for (size_t k = 0; k < CUT_LINES; k++) {
        char *l = buf + k * CUT_LINE;
        memset(l, 'x', CUT_LINE - 1);
        char num[16];
        int w = snprintf(num, sizeof num, "%07zu ", k);
        memcpy(l, num, (size_t)w);
        l[CUT_LINE - 1] = '\n';
    }
    fx_write(path, cap, buf, (size_t)CUT_LINE * CUT_LINES);
    free(buf);
}

/* Lines are read while the file is cut under the reader, in the middle of
 * a line of the window it has mapped (whose pages were read in: mmap
 * mode's SIGBUS) or of the block it reads next (read(2) mode): every whole
 * line before the cut comes, then the end, with `cut` at the start of the
 * line the cut went through; no signal, no half line. */
START_TEST(test_cut)
{
    set_mode(_i);
    char path[4096];
    cut_file(path, sizeof path);
    struct ss_reader r;
    struct ss_error err;
    ck_assert_int_eq(ss_reader_open(&r, path, &err), 0);
    const char *line;
    size_t ll;
    int term;
    uint64_t k = 0, cut = 2 * 1048576 + 10; /* line 20971's 11th byte */
    for (; k < 15000; k++)                  /* 1.5 MB: into the second window / block */
        ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), 1);
    ck_assert_int_eq(truncate(path, (off_t)cut), 0);
    int got;
    while ((got = ss_reader_next(&r, &line, &ll, &term, &err)) == 1) {
        char want[16];
        snprintf(want, sizeof want, "%07llu ", (unsigned long long)k);
        ck_assert_msg(ll == CUT_LINE - 1 && term && !memcmp(line, want, 8),
                      "line %llu: %zu bytes '%.8s'", (unsigned long long)k, ll, line);
        k++;
    }
    ck_assert_int_eq(got, 0);
    ck_assert_uint_eq(k, cut / CUT_LINE);
    ck_assert_int_eq(r.cut, 1);
    ck_assert_uint_eq(r.cut_at, cut / CUT_LINE * CUT_LINE);
    struct ss_change c;
    ss_reader_changed(&r, &c);
    ck_assert_int_eq(c.kind, SS_CHANGE_CUT);
    ck_assert_uint_eq(c.was, (uint64_t)CUT_LINE * CUT_LINES);
    ck_assert_uint_eq(c.now, cut);
    ck_assert_uint_eq(c.kept, cut / CUT_LINE * CUT_LINE);
    ss_reader_close(&r);
    unlink(path);
    unsetenv("STACKSCOPE_MMAP");
}
END_TEST

/* A mapped file cut while a line handed out in place is parsed: the
 * line's page is lost after its end was found, and its bytes read as
 * zeros from then on.  The reader tells (ss_reader_line_lost), and the
 * line is dropped: the input ends at its start.  A line handed out as a
 * copy (not in place) keeps the bytes it had. */
START_TEST(test_cut_in_a_line)
{
    /* In place, the test itself reads the lost page: under valgrind that
     * read is its own SIGSEGV, not the SIGBUS the reader's handler takes
     * (in the reader, valgrind's own memchr reads it, as test_cut's do). */
    const char *pre = getenv("LD_PRELOAD");
    if (_i && pre != NULL && strstr(pre, "vgpreload") != NULL)
        return;
    set_mode(0);
    char path[4096];
    cut_file(path, sizeof path);
    struct ss_reader r;
    struct ss_error err;
    ck_assert_int_eq(ss_reader_open(&r, path, &err), 0);
    r.in_place = _i;
    const char *line;
    size_t ll;
    int term;
    for (int k = 0; k < 15000; k++) /* 1.5 MB: into the second window */
        ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), 1);
    ck_assert_int_eq(ss_reader_line_lost(&r), 0);
    uint64_t at = r.next_off; /* line 15001's start */
    ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), 1);
    ck_assert_int_eq(truncate(path, (off_t)(at - at % 4096 - 4096)), 0);
    char seen[16];
    memcpy(seen, line, sizeof seen); /* in place: faults, then zeros */
    if (!_i) {
        ck_assert_msg(!memcmp(seen, "0015000 x", 9), "the copy changed: '%.9s'", seen);
        ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), 0);
        ck_assert_uint_eq(r.cut_at, at + CUT_LINE);
    } else {
        ck_assert_int_eq(seen[0], 0);
        ck_assert_int_eq(ss_reader_line_lost(&r), 1);
        ss_reader_drop_line(&r);
        ck_assert_uint_eq(r.line_no, 15000);
        ck_assert_int_eq(ss_reader_next(&r, &line, &ll, &term, &err), 0);
        ck_assert_uint_eq(r.cut_at, at);
    }
    ck_assert_int_eq(r.cut, 1);
    ss_reader_close(&r);
    unlink(path);
    unsetenv("STACKSCOPE_MMAP");
}
END_TEST

/* A file parsed whole, cut while its mapping is read: the bytes past the
 * cut read as zeros (no signal), and the reader is told from the first
 * page lost on. */
START_TEST(test_cut_whole)
{
    char path[4096];
    cut_file(path, sizeof path);
    struct ss_reader r;
    struct ss_error err;
    setenv("STACKSCOPE_MMAP", "1", 1); /* mapped */
    ck_assert_int_eq(ss_reader_open(&r, path, &err), 0);
    unsetenv("STACKSCOPE_MMAP");
    struct ss_whole w;
    ck_assert_int_eq(ss_reader_whole(&r, SIZE_MAX, "", &w, &err), 0);
    ck_assert_int_ge(w.map.slot, 0);
    uint64_t cut = 1000001, page = (uint64_t)sysconf(_SC_PAGESIZE);
    ck_assert_int_eq(truncate(path, (off_t)cut), 0);
    const unsigned char *p = w.p;
    size_t nonzero_after = 0;
    for (size_t i = (size_t)cut; i < w.n; i++)
        nonzero_after += p[i] != 0;
    ck_assert_uint_eq(nonzero_after, 0);
    ck_assert_int_eq(p[cut - 1], '0'); /* line 10000's first byte */
    ss_reader_whole_free(&w);
    ck_assert_int_eq(r.cut, 1);
    ck_assert_uint_eq(r.cut_at, (cut + page - 1) / page * page);
    struct ss_change c;
    ss_reader_changed(&r, &c);
    ck_assert_int_eq(c.kind, SS_CHANGE_CUT);
    ss_reader_close(&r);
    unlink(path);
}
END_TEST

/* Read path whole (its lines), then `change` it and say what the reader finds. */
static enum ss_change_kind change_after_read(const char *path, void (*change)(const char *),
                                             uint64_t *lines)
{
    struct ss_reader r;
    struct ss_error err;
    ck_assert_int_eq(ss_reader_open(&r, path, &err), 0);
    const char *line;
    size_t ll;
    int term;
    *lines = 0;
    int got;
    while ((got = ss_reader_next(&r, &line, &ll, &term, &err)) == 1)
        (*lines)++;
    ck_assert_int_eq(got, 0);
    if (change)
        change(path);
    struct ss_change c;
    ss_reader_changed(&r, &c);
    ss_reader_close(&r);
    return c.kind;
}

static void grow(const char *path)
{
    FILE *f = fopen(path, "a");
    ck_assert_ptr_nonnull(f);
    fputs("more\n", f);
    fclose(f);
}

static void shrink(const char *path)
{
    ck_assert_int_eq(truncate(path, 10), 0);
}

static void replace(const char *path)
{
    char other[4200];
    snprintf(other, sizeof other, "%s.new", path);
    FILE *f = fopen(other, "w");
    ck_assert_ptr_nonnull(f);
    fputs("other\n", f);
    fclose(f);
    ck_assert_int_eq(rename(other, path), 0);
}

/* the same size, another modification time */
static void modify(const char *path)
{
    int fd = open(path, O_WRONLY);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(pwrite(fd, "9", 1, 0), 1);
    struct timespec t[2] = {{0, UTIME_OMIT}, {12345, 0}};
    ck_assert_int_eq(futimens(fd, t), 0);
    close(fd);
}

/* A regular file is read up to its size when opened, and what happened to
 * it after is told apart: grown, shrunk after it was read whole, replaced
 * (renamed over), modified in place; unchanged. */
START_TEST(test_changed)
{
    set_mode(_i);
    char path[4096];
    uint64_t n;
    cut_file(path, sizeof path);
    ck_assert_int_eq(change_after_read(path, NULL, &n), SS_CHANGE_NONE);
    ck_assert_uint_eq(n, CUT_LINES);
    ck_assert_int_eq(change_after_read(path, grow, &n), SS_CHANGE_GREW);
    ck_assert_uint_eq(n, CUT_LINES); /* not the line added after */
    ck_assert_int_eq(change_after_read(path, modify, &n), SS_CHANGE_MODIFIED);
    ck_assert_int_eq(change_after_read(path, shrink, &n), SS_CHANGE_SHRANK);
    ck_assert_uint_eq(n, CUT_LINES + 1);
    ck_assert_int_eq(change_after_read(path, replace, &n), SS_CHANGE_REPLACED);
    ck_assert_uint_eq(n, 1); /* the 10 bytes left: one line, unterminated */
    unlink(path);
    unsetenv("STACKSCOPE_MMAP");
}
END_TEST

static volatile sig_atomic_t bus_seen;

static void on_bus(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)uc;
    bus_seen = si->si_code <= 0 ? 1 : 2;
}

/* inmap's handler passes on a SIGBUS that is not a registered mapping's: to
 * a handler set before it (here a kill(2)), or, with the default action, the
 * process dies of it (a fault in a mapping of its own). */
START_TEST(test_sigbus_not_ours)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_bus;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    ss_inmap_guard();
    ck_assert_int_eq(sigaction(SIGBUS, &sa, &old), 0); /* set after the guard */
    ss_inmap_guard();                                  /* chained at the next mapping */
    bus_seen = 0;
    raise(SIGBUS);
    ck_assert_int_eq(bus_seen, 1);
    ck_assert_int_eq(sigaction(SIGBUS, &old, NULL), 0);

    char path[4096];
    fx_write(path, sizeof path, "abc", 3);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        sigaction(SIGBUS, &dfl, NULL);
        ss_inmap_guard();
        int fd = open(path, O_RDONLY);
        long pg = sysconf(_SC_PAGESIZE);
        volatile char *p = mmap(NULL, 2 * (size_t)pg, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED)
            _exit(3);
        char c = p[pg]; /* past the file's end: not a registered mapping */
        (void)c;
        _exit(0);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    unlink(path);
#if defined(UNDER_ASAN)
    ck_assert(!WIFEXITED(st) || WEXITSTATUS(st) != 0); /* the sanitizer's report */
#else
    ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS, "status %d", st);
#endif
}
END_TEST

static struct sigaction chained;

/* A handler that passes every SIGBUS to the one it replaced, as crash
 * reporters do. */
static void on_bus_chain(int sig, siginfo_t *si, void *uc)
{
    chained.sa_sigaction(sig, si, uc);
}

/* A handler set after inmap's that calls inmap's, with inmap's put back in
 * front of it at the next mapping: a SIGBUS that is nobody's goes round
 * the two once, then the process dies of it (it used to recurse until the
 * stack ran out). */
START_TEST(test_sigbus_chain_loop)
{
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        ss_inmap_guard();
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_bus_chain;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGBUS, &sa, &chained) != 0 || !(chained.sa_flags & SA_SIGINFO))
            _exit(3);
        ss_inmap_guard(); /* inmap's in front again, chaining to on_bus_chain */
        raise(SIGBUS);
        _exit(0);
    }
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
#if defined(UNDER_ASAN)
    ck_assert(!WIFEXITED(st) || WEXITSTATUS(st) != 0);
#else
    ck_assert_msg(WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS, "status %d", st);
#endif
}
END_TEST

Suite *reader_suite(void)
{
    Suite *s = suite_create("reader");
    TCase *tc = tcase_create("modes");
    tcase_set_timeout(tc, 120);
    /* _i = 0: mmap, 1: read(2) */
    tcase_add_loop_test(tc, test_line_ends, 0, 2);
    tcase_add_loop_test(tc, test_peek, 0, 2);
    tcase_add_loop_test(tc, test_big_file, 0, 2);
    tcase_add_loop_test(tc, test_long_line, 0, 2);
    tcase_add_test(tc, test_pipe_limit);
    tcase_add_test(tc, test_range_map_fails);
    tcase_add_loop_test(tc, test_cut, 0, 2);
    tcase_add_loop_test(tc, test_cut_in_a_line, 0, 2);
    tcase_add_test(tc, test_cut_whole);
    tcase_add_loop_test(tc, test_changed, 0, 2);
    tcase_add_test(tc, test_sigbus_not_ours);
    tcase_add_test(tc, test_sigbus_chain_loop);
    suite_add_tcase(s, tc);
    return s;
}
