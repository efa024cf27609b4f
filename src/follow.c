/* follow.c - a profile read while it is written (see follow.h). */
#include "follow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_folded.h"
#include "load_perf.h"
#include "load_rprof.h"
#include "reader.h"
#include "tail.h"
#include "vec.h"

enum kind { K_UNKNOWN, K_RPROF, K_FOLDED, K_PERF };

struct ss_follow {
    struct ss_tail tail;
    enum kind kind;
    struct ss_rprof_stream *rprof;
    struct ss_folded_stream *folded;
    struct ss_perf_stream *perf;
    double folded_us;
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
        ((f->rprof && ss_rprof_stream_end(f->rprof, m, &e)) ||
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
}

/* Tell the format by the first line that is not blank in buf[0..len) and
 * start its reader (a '#' comment, which perf script may start with, is
 * passed over too).  Returns 0, with no reader when every line is blank,
 * or an error code. */
static int start_reader(struct ss_follow *f, struct ss_model *m, const char *buf, size_t len,
                        struct ss_error *err)
{
    const char *path = f->tail.path;
    uint64_t line_no = 1;
    for (size_t i = 0; i < len; line_no++) {
        const char *e = memchr(buf + i, '\n', len - i);
        size_t n = (size_t)(e - (buf + i));
        if (n && buf[i + n - 1] == '\r')
            n--;
        const char *stack, *why;
        size_t slen;
        uint64_t count;
        if (ss_rprof_is_header(buf + i, n)) {
            f->kind = K_RPROF;
            f->rprof = ss_rprof_stream_new(m, path, err);
            return f->rprof ? 0 : err->code;
        }
        if (n && buf[i] == '#') { /* perf's comments, or a folded stack named so */
            i += (size_t)(e - (buf + i)) + 1;
            continue;
        }
        if (ss_perf_sniff(buf + i, n, 1, &why) == 1) {
            f->kind = K_PERF;
            f->perf = ss_perf_stream_new(m, path, err);
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
        i += (size_t)(e - (buf + i)) + 1; /* a blank line */
    }
    return 0;
}

static int feed(struct ss_follow *f, struct ss_model *m, const char *buf, size_t len,
                struct ss_error *err)
{
    if (f->kind == K_UNKNOWN) {
        int rc = start_reader(f, m, buf, len, err);
        if (rc || f->kind == K_UNKNOWN)
            return rc; /* only blank lines so far: the format is not known */
    }
    if (f->kind == K_PERF)
        return ss_perf_stream_feed(f->perf, m, buf, len, err);
    return f->kind == K_RPROF ? ss_rprof_stream_feed(f->rprof, m, buf, len, err)
                              : ss_folded_stream_feed(f->folded, m, buf, len, err);
}

/* --follow=end: the lines before the end that hold no sample (an Rprof
 * file's headers and `#File` lines) are read, the samples only counted;
 * folded stacks and perf script need nothing before their samples. */
static int read_prefix(struct ss_follow *f, struct ss_model *m, struct ss_error *err)
{
    uint64_t end = f->tail.off;
    if (!end)
        return 0;
    struct ss_reader r;
    int rc = ss_reader_open(&r, f->tail.path, err);
    if (rc)
        return rc;
    const char *line;
    size_t len;
    int term, got = 0;
    char *copy = NULL;
    size_t cap = 0;
    while (!rc && r.next_off < end && (got = ss_reader_next(&r, &line, &len, &term, err)) == 1) {
        /* an Rprof sample line starts with '"', ':' or a position `F#L`; a
         * header with a letter, a `#File` line with '#' */
        char c = len ? line[0] : '\n';
        if (f->kind == K_RPROF && c != '#' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z'))
            continue;
        if (ss_grow((void **)&copy, &cap, len + 1, 1)) {
            rc = ss_nomem(err, "follow");
            break;
        }
        memcpy(copy, line, len);
        copy[len] = '\n';
        /* the format, from the first line that tells (not read yet) */
        if (f->kind == K_UNKNOWN && (rc = start_reader(f, m, copy, len + 1, err)) != 0)
            break;
        if (f->kind == K_UNKNOWN)
            continue; /* blank, or a comment */
        if (f->kind != K_RPROF)
            break; /* folded rows and perf samples need nothing before them */
        ss_rprof_stream_skip(f->rprof, r.line_no - 1 - ss_rprof_stream_lines(f->rprof), 0);
        rc = feed(f, m, copy, len + 1, err);
    }
    if (!rc && got < 0)
        rc = err->code;
    if (!rc && f->kind == K_RPROF)
        ss_rprof_stream_skip(f->rprof, r.line_no - ss_rprof_stream_lines(f->rprof), 0);
    free(copy);
    ss_reader_close(&r);
    return rc;
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
    ss_tail_close(&f->tail);
    free(f);
}
