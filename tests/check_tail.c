/* check_tail.c - following a file as it grows (src/tail.h): lines handed
 * out only when complete, appends seen, a start from the end, a file
 * truncated, rewritten longer between two polls, or replaced by a rename,
 * the bound on a poll and on a line.  Every expected string is what the
 * test itself wrote to the file.  Then a profile followed (src/follow.h):
 * written in pieces cut anywhere, it reads into the same model as the
 * whole file loaded at once; from its end, only new samples, with the
 * `#File` lines before; truncated, new sources; folded rows; errors. */
#include "check_suites.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "follow.h"
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
    ck_assert_uint_eq(ss_tail_behind(&t), 0);  /* nothing to do until it ends */
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
    file_put("t.out", "w", "x\n");            /* shorter: truncated, the same file */
    ck_assert_uint_eq(ss_tail_behind(&t), 2); /* all of it is new */
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
    /* the old file's 22 bytes after the offset, and the new file's 6 */
    ck_assert_uint_eq(ss_tail_behind(&t), 22 + 6);
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
    /* a FIFO is refused at once, not waited on for a writer */
    char fifo[4300];
    snprintf(fifo, sizeof fifo, "%s/fifo", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    ck_assert_int_eq(ss_tail_open(&t, fifo, 0, &err), SS_EINPUT);
    ck_assert_ptr_nonnull(strstr(err.msg, "not a regular file"));
    cleanup();
}
END_TEST

/* ---- a profile followed (follow.h) -------------------------------------- */

/* Every sample of m as text: source, stack and values, one line each. */
static char *model_text(const struct ss_model *m)
{
    size_t cap = 1 << 20, at = 0;
    char *out = malloc(cap), st[2048];
    ck_assert_ptr_nonnull(out);
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        at += (size_t)snprintf(out + at, cap - at, "source %s %u %.0f %u %zu+%zu\n",
                               ss_str(m, src->type), src->session, src->interval_us, src->flags,
                               src->first_sample, src->n_samples);
    }
    for (size_t i = 0; i < m->sample_stack.n && at < cap - 4096; i++) {
        fx_stack_text(m, m->sample_stack.v[i], st, sizeof st);
        at += (size_t)snprintf(out + at, cap - at, "%s", st);
        for (size_t t = 0; t < m->values.n; t++)
            at += (size_t)snprintf(out + at, cap - at, " %lld",
                                   (long long)(m->values.v[t]     ? m->values.v[t][i]
                                               : t == SS_VT_COUNT ? 1
                                                                  : 0));
        out[at++] = '\n';
    }
    out[at] = '\0';
    return out;
}

/* Two sessions, memory and line profiling, `#File` lines declared before
 * and after their use, GC frames, positions after the outermost name. */
static const char followed[] = "memory profiling: line profiling: sample.interval=20000\n"
                               "#File 1: /p/a.R\n"
                               ":100:200:30000:0:1#3 \"f\" 1#7 \"g\" \n"
                               ":110:190:31000:2:1#3 \"f\" 1#7 \"g\" 1#9 \n"
                               ":120:250:29000:0:\"<GC>\" 1#3 \"f\" 2#8 \"h\" \n"
                               "#File 2: /q/b.R\n"
                               ":130:260:33000:7:2#8 \"h\" \n"
                               ":130:260:33000:7:1#3 \"f\" 1#7 \"g\" \n"
                               "sample.interval=10000\n"
                               "\"k\" \"main\" \n"
                               "\"k\" \"main\" \n"
                               "\"j\" \"k\" \"main\" \n";

/* perf script with a comment header, two events, call chains and one
 * sample without (its frame on the header line), the last sample ended by
 * the end of the file, not a blank line. */
static const char followed_perf[] =
    "# ========\n"
    "# captured on    : Sat Nov 28 11:58:32 2026\n"
    "#\n"
    "node 27774  5444.584239:    2004008 cpu-clock:ppp: \n"
    "\t           13608 _dl_load_cache_lookup+0x148 (/usr/lib/ld.so)\n"
    "\t    7f2ca5a3f8a8 [unknown] ([unknown])\n"
    "\n"
    "node 27775  5444.594868:    2004008 cpu-clock:ppp: \n"
    "\tffffffff8225fd19 pvm_irq_enable+0x19 ([kernel.kallsyms])\n"
    "\t           224b6 strcmp+0x16 (/usr/lib/ld.so)\n"
    "\n"
    "              sh 27891  5448.681912:    2004008 cpu-clock:ppp:  ffffffff8225fd19 "
    "pvm_irq_enable+0x19 ([kernel.kallsyms])\n"
    "node 27774  5444.604239:    7 page-faults: \n"
    "\t           13608 _dl_load_cache_lookup+0x148 (/usr/lib/ld.so)\n";

/* Follow text[0..len) written in pieces of `step` bytes, a poll after
 * each; then load it whole: the same samples, sources and values. */
static void follow_text_in_pieces(const char *text, size_t len, size_t step, const char *format,
                                  size_t samples)
{
    const char *p = file_put("f.out", "w", "");
    struct ss_model m, whole;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    struct ss_follow *f;
    ck_assert_int_eq(ss_follow_open(&f, &m, p, 0, 0, &err), 0);
    ck_assert_ptr_null(ss_follow_format(f));
    for (size_t at = 0; at < len; at += step) {
        char piece[65];
        size_t k = len - at < step ? len - at : step;
        memcpy(piece, text + at, k);
        piece[k] = '\0';
        file_put("f.out", "a", piece);
        struct ss_follow_news nw;
        ck_assert_msg(ss_follow_poll(f, &m, &nw, &err) == 0, "%s", err.msg);
        ck_assert_int_eq(nw.restarted, 0);
    }
    ck_assert_str_eq(ss_follow_format(f), format);
    ck_assert_uint_eq(ss_follow_behind(f), 0);
    ss_follow_free(f, &m);
    char path[4096];
    int rc = fx_load(&whole, &err, text, len, path, sizeof path);
    ck_assert_msg(rc == 0, "%s", err.msg);
    char *a = model_text(&m), *b = model_text(&whole);
    ck_assert_str_eq(a, b);
    ck_assert_uint_eq(m.sample_stack.n, samples);
    ck_assert_uint_eq(m.sources.n, whole.sources.n);
    ck_assert_uint_eq(m.warnings.n, whole.warnings.n);
    free(a);
    free(b);
    ss_model_free(&m);
    ss_model_free(&whole);
    cleanup();
}

START_TEST(test_follow_pieces)
{
    /* pieces of 1 byte (every cut), 7 (mid-line, odd), 64 (several lines) */
    static const size_t steps[] = {1, 7, 64};
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        follow_text_in_pieces(followed, sizeof followed - 1, steps[i], "Rprof", 8);
        follow_text_in_pieces(followed_perf, sizeof followed_perf - 1, steps[i], "perf script", 4);
    }
}
END_TEST

START_TEST(test_follow_from_end)
{
    /* the header and `#File 1` are read, the two samples before the end
     * are not; the samples written after are, with file 1's path; a bad
     * line is named by its line in the file */
    const char *p = file_put("e.out", "w",
                             "line profiling: sample.interval=20000\n"
                             "#File 1: /p/a.R\n"
                             "1#3 \"f\" \n"
                             "1#3 \"f\" 1#4 \"g\" \n");
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    struct ss_follow *f;
    ck_assert_int_eq(ss_follow_open(&f, &m, p, 1, 0, &err), 0);
    ck_assert_str_eq(ss_follow_format(f), "Rprof");
    ck_assert_uint_eq(m.sample_stack.n, 0);
    ck_assert_uint_eq(m.sources.n, 1);
    file_put("e.out", "a", "1#4 \"g\" \n1#4 \"g\" 1#9 \"h\" \n");
    struct ss_follow_news nw;
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), 0);
    ck_assert_uint_eq(nw.samples, 2);
    ck_assert_uint_eq(m.sample_stack.n, 2);
    char st[512];
    fx_stack_text(&m, m.sample_stack.v[1], st, sizeof st);
    ck_assert_str_eq(st, "g@/p/a.R#4 | h@/p/a.R#9");
    file_put("e.out", "a", "\"f\" \nnot a sample\n\"f\" \n");
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "e.out:8:") != NULL, "%s", err.msg);
    ck_assert_uint_eq(m.sample_stack.n, 3); /* the line before the bad one */
    char first[sizeof err.msg];
    snprintf(first, sizeof first, "%s", err.msg);
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), SS_EINPUT); /* over: the same error */
    ck_assert_str_eq(err.msg, first);
    ss_follow_free(f, &m);
    ss_model_free(&m);
    cleanup();
}
END_TEST

START_TEST(test_follow_restart)
{
    /* truncated and written anew (a new Rprof() on the same name): the
     * poll says so, and the new run is a new source after the old */
    const char *p = file_put("r.out", "w", "sample.interval=20000\n\"f\" \n\"f\" \n\"g\" \n");
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    struct ss_follow *f;
    ck_assert_int_eq(ss_follow_open(&f, &m, p, 0, 0, &err), 0);
    struct ss_follow_news nw;
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), 0);
    ck_assert_uint_eq(nw.samples, 3);
    file_put("r.out", "w", "sample.interval=5000\n\"h\" \n");
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), 0);
    ck_assert_int_eq(nw.restarted, 1);
    ck_assert_uint_eq(nw.samples, 1);
    ck_assert_uint_eq(m.sources.n, 2);
    ck_assert_uint_eq(m.sources.v[1].first_sample, 3);
    ck_assert_uint_eq(m.sources.v[1].n_samples, 1);
    ck_assert_int_eq((int)m.sources.v[1].interval_us, 5000);
    ss_follow_free(f, &m);
    ss_model_free(&m);
    cleanup();
}
END_TEST

START_TEST(test_follow_folded_and_errors)
{
    /* blank lines first: the format is not known until a line says */
    const char *p = file_put("s.folded", "w", "\n\n");
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    struct ss_follow *f;
    ck_assert_int_eq(ss_follow_open(&f, &m, p, 0, 0, &err), 0);
    struct ss_follow_news nw;
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), 0);
    ck_assert_ptr_null(ss_follow_format(f));
    file_put("s.folded", "a", "main;f 3\nmain;g 2\nmai");
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), 0);
    ck_assert_str_eq(ss_follow_format(f), "folded");
    ck_assert_uint_eq(nw.samples, 5);
    file_put("s.folded", "a", "n;f 4\n");
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), 0);
    ck_assert_uint_eq(m.count_total, 9);
    char st[512];
    fx_stack_text(&m, m.sample_stack.v[2], st, sizeof st);
    ck_assert_str_eq(st, "f | main");
    ss_follow_free(f, &m);
    ss_model_free(&m);
    /* neither format: refused at the first line that is not blank */
    p = file_put("x.txt", "w", "\nhello world\n");
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(ss_follow_open(&f, &m, p, 0, 0, &err), 0);
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "x.txt:2: cannot follow this file") != NULL, "%s", err.msg);
    ss_follow_free(f, &m);
    ss_model_free(&m);
    cleanup();
}
END_TEST

START_TEST(test_follow_end_and_refused)
{
    struct ss_model m;
    struct ss_error err;
    struct ss_follow *f;
    struct ss_follow_news nw;
    /* perf script from the end, which falls inside a sample: its frames are
     * passed over until the next header */
    const char *p = file_put("e.perf", "w",
                             "node 1  1.000000:    2004008 cpu-clock:ppp: \n"
                             "\t  13608 f+0x1 (/lib/a.so)\n");
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(ss_follow_open(&f, &m, p, 1, 0, &err), 0);
    file_put("e.perf", "a",
             "\t  13609 g+0x1 (/lib/a.so)\n\n"
             "node 1  1.100000:    2004008 cpu-clock:ppp: \n"
             "\t  13608 h+0x1 (/lib/a.so)\n\n");
    ck_assert_msg(ss_follow_poll(f, &m, &nw, &err) == 0, "%s", err.msg);
    ck_assert_str_eq(ss_follow_format(f), "perf script");
    ck_assert_uint_eq(nw.samples, 1);
    char st[512];
    fx_stack_text(&m, m.sample_stack.v[0], st, sizeof st);
    ck_assert_str_eq(st, "h | node");
    ss_follow_free(f, &m);
    ss_model_free(&m);
    /* folded from the end: a bad line is named by its line in the file,
     * blank lines and the lines before the end counted */
    p = file_put("e.folded", "w", "\na;b 1\na;c 2\n");
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(ss_follow_open(&f, &m, p, 1, 0, &err), 0);
    file_put("e.folded", "a", "\na;d 3\nbad\n");
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "e.folded:6:") != NULL, "%s", err.msg);
    ck_assert_uint_eq(m.count_total, 3);
    ss_follow_free(f, &m);
    ss_model_free(&m);
    /* files read whole are refused at the start, not followed as empty */
    static const struct {
        const char *name, *text, *what;
    } whole[] = {{"a.pb.gz", "\x1f\x8b\x08\x00", "gzip data"},
                 {"a.json", "  {\"nodes\": []}", "JSON"},
                 {"a.bin", "ab\0cd\n", "binary data"}};
    for (size_t i = 0; i < sizeof whole / sizeof *whole; i++) {
        char path[4300];
        snprintf(path, sizeof path, "%s", file_put(whole[i].name, "w", ""));
        FILE *fp = fopen(path, "wb");
        ck_assert_ptr_nonnull(fp);
        size_t n = strlen(whole[i].text);
        if (i == 2)
            n = 6;
        ck_assert_uint_eq(fwrite(whole[i].text, 1, n, fp), n);
        fclose(fp);
        ck_assert_int_eq(ss_model_init(&m, &err), 0);
        ck_assert_int_eq(ss_follow_open(&f, &m, path, 0, 0, &err), SS_EINPUT);
        ck_assert_msg(strstr(err.msg, whole[i].what) && strstr(err.msg, "cannot follow"), "%s",
                      err.msg);
        ss_model_free(&m);
    }
    /* but a folded stack that starts with '[' is no JSON */
    p = file_put("k.folded", "w", "[unknown];main 3\n");
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_msg(ss_follow_open(&f, &m, p, 0, 0, &err) == 0, "%s", err.msg);
    ck_assert_int_eq(ss_follow_poll(f, &m, &nw, &err), 0);
    ck_assert_uint_eq(m.count_total, 3);
    ss_follow_free(f, &m);
    ss_model_free(&m);
    cleanup();
}
END_TEST

START_TEST(test_drop_front)
{
    /* --keep's cut: the model of a file after its first samples are
     * forgotten is the model of the file without them (two sessions: the
     * first one's range left empty) */
    static const char all[] = "memory profiling: sample.interval=20000\n"
                              ":100:200:30000:0:\"f\" \n"
                              ":110:190:31000:2:\"f\" \"g\" \n"
                              "sample.interval=10000\n"
                              "\"k\" \"main\" \n"
                              "\"j\" \"k\" \"main\" \n"
                              "\"k\" \"main\" \n";
    static const char rest[] = "memory profiling: sample.interval=20000\n"
                               "sample.interval=10000\n"
                               "\"j\" \"k\" \"main\" \n"
                               "\"k\" \"main\" \n";
    struct ss_model m, want;
    FX_LOAD_OK(&m, all);
    FX_LOAD_OK(&want, rest);
    ss_model_drop_front(&m, 3);
    ck_assert_uint_eq(m.count_total, 2);
    char *a = model_text(&m), *b = model_text(&want);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    ss_model_drop_front(&m, 5); /* more than there are: all go */
    ck_assert_uint_eq(m.sample_stack.n, 0);
    ck_assert_uint_eq(m.sources.v[1].n_samples, 0);
    ss_model_free(&m);
    ss_model_free(&want);
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
    tc = tcase_create("follow");
    tcase_add_test(tc, test_follow_pieces);
    tcase_add_test(tc, test_follow_from_end);
    tcase_add_test(tc, test_follow_restart);
    tcase_add_test(tc, test_follow_folded_and_errors);
    tcase_add_test(tc, test_follow_end_and_refused);
    tcase_add_test(tc, test_drop_front);
    suite_add_tcase(s, tc);
    return s;
}
