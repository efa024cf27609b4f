/* follow.c - a profile read while it is written (see follow.h).
 *
 * One reader (r) is aimed at each poll's lines in memory (ss_reader_over)
 * and handed to the format's stream, so that its line numbers go on from
 * poll to poll and name the file's own lines in messages; a new file (a
 * restart) starts them again from 1. */
#include "follow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load_folded.h"
#include "load_perf.h"
#include "load_rprof.h"
#include "reader.h"
#include "tail.h"
#include "vec.h"

enum kind { K_UNKNOWN, K_RPROF, K_FOLDED, K_PERF };

struct ss_follow {
    struct ss_tail tail;
    struct ss_reader r; /* over each poll's lines (its path: the tail's) */
    enum kind kind;
    struct ss_rprof_stream *rprof;
    struct ss_folded_stream *folded;
    struct ss_perf_stream *perf;
    double folded_us;
    int resync;            /* --follow=end: a perf stream starts at a sample's header */
    int failed;            /* a poll failed: the follow is over */
    struct ss_error error; /* ... with this */
};

/* End the current file's reader: its checks go to m's warnings (an error at
 * its end, a file without a header, is a warning too: what was read
 * stays). */
static void end_file(struct ss_follow *f, struct ss_model *m)
{
    struct ss_error e;
    ss_error_clear(&e);
    if (m &&
        ((f->rprof && ss_rprof_stream_end(f->rprof, m, &f->r, &e)) ||
         (f->perf && ss_perf_stream_end(f->perf, m, &e))) &&
        e.msg[0])
        ss_model_warn(m, "%s", e.msg);
    ss_rprof_stream_free(f->rprof);
    ss_folded_stream_free(f->folded);
    ss_perf_stream_free(f->perf);
    f->rprof = NULL;
    f->folded = NULL;
    f->perf = NULL;
    f->kind = K_UNKNOWN;
    f->resync = 0;
    ss_reader_over(&f->r, f->tail.path, "", 0);
    f->r.line_no = f->r.next_off = 0; /* the new file's lines from 1 */
}

/* Tell the format by the first line of buf[0..len) (whole lines) that is
 * neither blank nor a '#' comment (perf script may start with comments),
 * the one at line number line_no + 1, and start its reader.  Returns 0,
 * with no reader when there is no such line, or an error code. */
static int start_reader(struct ss_follow *f, struct ss_model *m, const char *buf, size_t len,
                        uint64_t line_no, struct ss_error *err)
{
    const char *path = f->tail.path;
    for (size_t i = 0; i < len;) {
        line_no++;
        const char *e = memchr(buf + i, '\n', len - i);
        size_t end = e ? (size_t)(e - buf) : len, n = end - i;
        if (n && buf[i + n - 1] == '\r')
            n--;
        const char *stack, *why;
        size_t slen;
        uint64_t count;
        if (ss_rprof_is_header(buf + i, n)) {
            f->kind = K_RPROF;
            f->rprof = ss_rprof_stream_new(m, &f->r, err);
            return f->rprof ? 0 : err->code;
        }
        if (n && buf[i] == '#') { /* perf's comments, or a folded stack named so */
            i = end + 1;
            continue;
        }
        if (ss_perf_sniff(buf + i, n, 1, &why) == 1) {
            f->kind = K_PERF;
            f->perf = ss_perf_stream_new(m, path, f->resync, err);
            return f->perf ? 0 : err->code;
        }
        int k = ss_folded_parse_line(buf + i, n, &stack, &slen, &count, &why);
        if (k == 0) {
            f->kind = K_FOLDED;
            f->folded = ss_folded_stream_new(m, path, f->folded_us, err);
            return f->folded ? 0 : err->code;
        }
        if (k < 0)
            return ss_fail(err, SS_EINPUT,
                           "%s:%llu: cannot follow this file: only Rprof files, perf script "
                           "text and folded stacks are followed as they are written, and this "
                           "line is neither an Rprof header, a perf sample's header nor `STACK "
                           "COUNT` (%s)",
                           path, (unsigned long long)line_no, why);
        i = end + 1; /* a blank line */
    }
    return 0;
}

/* Read the whole lines buf[0..len) (the file's next ones). */
static int feed(struct ss_follow *f, struct ss_model *m, const char *buf, size_t len,
                struct ss_error *err)
{
    if (f->kind == K_UNKNOWN) {
        int rc = start_reader(f, m, buf, len, f->r.line_no, err);
        if (rc)
            return rc;
        if (f->kind == K_UNKNOWN) { /* only blank lines and comments so far */
            for (size_t i = 0; i < len; i++)
                f->r.line_no += buf[i] == '\n';
            return 0;
        }
    }
    ss_reader_over(&f->r, f->tail.path, buf, len);
    if (f->kind == K_PERF)
        return ss_perf_stream_feed(f->perf, m, &f->r, err);
    return f->kind == K_RPROF ? ss_rprof_stream_feed(f->rprof, m, &f->r, err)
                              : ss_folded_stream_feed(f->folded, m, &f->r, err);
}

/* --follow=end: the lines before the end that hold no sample (an Rprof
 * file's headers and `#File` lines) are read, the samples only counted;
 * folded stacks need nothing before their samples, and perf script starts
 * at the first sample header after the end. */
static int read_prefix(struct ss_follow *f, struct ss_model *m, struct ss_error *err)
{
    uint64_t end = f->tail.off;
    f->resync = 1;
    if (!end)
        return 0;
    struct ss_reader pr;
    int rc = ss_reader_open(&pr, f->tail.path, err);
    if (rc)
        return rc;
    const char *line;
    size_t len;
    int term, got = 0;
    char *copy = NULL;
    size_t cap = 0;
    while (!rc && pr.next_off < end && (got = ss_reader_next(&pr, &line, &len, &term, err)) == 1) {
        /* an Rprof sample line starts with '"', ':' or a position `F#L`; a
         * header with a letter, a `#File` line with '#' */
        char c = len ? line[0] : '\n';
        if (f->kind == K_FOLDED || f->kind == K_PERF)
            continue; /* counted: nothing of theirs is needed */
        if (f->kind == K_RPROF && c != '#' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z'))
            continue;
        if (ss_grow((void **)&copy, &cap, len + 1, 1)) {
            rc = ss_nomem(err, "follow");
            break;
        }
        memcpy(copy, line, len);
        copy[len] = '\n';
        f->r.line_no = pr.line_no - 1; /* the line is the file's line pr.line_no */
        /* the format from the first line that tells; only Rprof's is read */
        if (f->kind == K_UNKNOWN &&
            ((rc = start_reader(f, m, copy, len + 1, f->r.line_no, err)) || f->kind != K_RPROF))
            continue;
        rc = feed(f, m, copy, len + 1, err);
    }
    if (!rc && got < 0)
        rc = err->code;
    f->r.line_no = pr.line_no; /* the lines before the end, read or not */
    free(copy);
    ss_reader_close(&pr);
    return rc;
}

/* A file whose first bytes say it is read whole, never line by line (a
 * pprof file, JSON, binary data): refused at the start, rather than
 * followed as a profile that never has a line.  Returns 0 or SS_EINPUT. */
static int check_text(struct ss_follow *f, struct ss_error *err)
{
    unsigned char b[4096];
    ssize_t n = pread(f->tail.fd, b, sizeof b, 0);
    if (n <= 0)
        return 0; /* empty (yet): the first line tells */
    size_t i = 0;
    while (i < (size_t)n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
        i++;
    const char *what = NULL;
    const unsigned char *lf = memchr(b + i, '\n', (size_t)n - i);
    const char *stack, *why;
    size_t slen;
    uint64_t count;
    /* a folded stack may start with '[' ("[unknown];main 3") */
    int folded = lf && ss_folded_parse_line((const char *)b + i, (size_t)(lf - (b + i)), &stack,
                                            &slen, &count, &why) == 0;
    if (n >= 2 && b[0] == 0x1f && b[1] == 0x8b)
        what = "gzip data (a pprof profile?)";
    else if (i < (size_t)n && (b[i] == '{' || b[i] == '[') && !folded)
        what = "JSON (a .cpuprofile or speedscope file?)";
    else if (memchr(b, 0, (size_t)n))
        what = "binary data";
    if (!what)
        return 0;
    return ss_fail(err, SS_EINPUT,
                   "%s: cannot follow this file: it is %s, which is read whole; only Rprof files, "
                   "perf script text and folded stacks are followed as they are written (open it "
                   "without --follow)",
                   f->tail.path, what);
}

int ss_follow_open(struct ss_follow **out, struct ss_model *m, const char *path, int from_end,
                   double folded_interval_us, struct ss_error *err)
{
    *out = NULL;
    struct ss_follow *f = calloc(1, sizeof *f);
    if (!f)
        return ss_nomem(err, "follow");
    f->folded_us = folded_interval_us;
    int rc = ss_tail_open(&f->tail, path, from_end, err);
    if (!rc)
        ss_reader_over(&f->r, f->tail.path, "", 0);
    if (!rc)
        rc = check_text(f, err);
    if (!rc && from_end)
        rc = read_prefix(f, m, err);
    if (rc) {
        ss_follow_free(f, NULL);
        return rc;
    }
    *out = f;
    return 0;
}

int ss_follow_poll(struct ss_follow *f, struct ss_model *m, struct ss_follow_news *news,
                   struct ss_error *err)
{
    memset(news, 0, sizeof *news);
    if (f->failed) {
        *err = f->error;
        return err->code;
    }
    const char *lines;
    size_t len;
    int restart;
    uint64_t before = m->count_total;
    int rc = ss_tail_poll(&f->tail, &lines, &len, &restart, err);
    if (!rc && restart) {
        end_file(f, m);
        news->restarted = 1;
    }
    if (!rc && len)
        rc = feed(f, m, lines, len, err);
    news->bytes = len;
    news->samples = m->count_total - before;
    if (rc) {
        f->failed = 1;
        f->error = *err;
    }
    return rc;
}

uint64_t ss_follow_behind(const struct ss_follow *f)
{
    return ss_tail_behind(&f->tail);
}

const char *ss_follow_format(const struct ss_follow *f)
{
    static const char *const names[] = {NULL, "Rprof", "folded", "perf script"};
    return names[f->kind];
}

void ss_follow_free(struct ss_follow *f, struct ss_model *m)
{
    if (!f)
        return;
    end_file(f, m);
    free(f->r.copy);
    ss_tail_close(&f->tail);
    free(f);
}
