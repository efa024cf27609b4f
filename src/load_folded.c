/* load_folded.c - folded stacks reader (see load_folded.h). */
#include "load_folded.h"
#include "vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "loader.h"

#define FOLDED_MAX_COUNT 1000000000000000ULL /* 10^15 per line */
#define FOLDED_MAX_FRAMES SS_MAX_FRAMES

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

int ss_folded_parse_line(const char *s, size_t len, const char **stack, size_t *stack_len,
                         uint64_t *count, const char **why)
{
    while (len > 0 && is_blank(s[len - 1]))
        len--;
    if (len == 0)
        return 1;
    if (memchr(s, '\0', len)) {
        *why = "NUL byte in the line (binary data?)";
        return -1;
    }
    size_t sep = len;
    while (sep > 0 && s[sep - 1] != ' ' && s[sep - 1] != '\t')
        sep--;
    if (sep == 0) {
        *why = "expected 'STACK COUNT': frames root first joined by ';', a space, a whole number";
        return -1;
    }
    const char *c = s + sep;
    size_t clen = len - sep;
    uint64_t v = 0;
    for (size_t i = 0; i < clen; i++) {
        if (c[i] < '0' || c[i] > '9') {
            *why = "the count after the last space is not a whole number";
            return -1;
        }
        if (v > FOLDED_MAX_COUNT / 10) {
            *why = "count too large (more than 10^15)";
            return -1;
        }
        v = v * 10 + (uint64_t)(c[i] - '0');
    }
    if (v > FOLDED_MAX_COUNT) {
        *why = "count too large (more than 10^15)";
        return -1;
    }
    if (sep == 1) {
        *why = "empty stack before the count";
        return -1;
    }
    *stack = s;
    *stack_len = sep - 1;
    *count = v;
    return 0;
}

int ss_folded_sniff(const char *p, size_t n, int whole, const char **why, uint64_t *line_no)
{
    *why = "no line with a stack";
    *line_no = 0;
    for (size_t a = 0, line = 1; a < n; line++) {
        size_t b = a;
        while (b < n && p[b] != '\n' && p[b] != '\r')
            b++;
        if (b == n && !whole) {
            /* The line goes on past what we see: its end decides, unless a
             * NUL byte already says it is not text (a binary file is not
             * mapped whole just to find its first line end). */
            if (memchr(p + a, '\0', b - a)) {
                *why = "NUL byte in the line (binary data?)";
                *line_no = line;
                return 0;
            }
            return -1;
        }
        const char *stack;
        size_t slen;
        uint64_t count;
        int k = ss_folded_parse_line(p + a, b - a, &stack, &slen, &count, why);
        if (k <= 0) {
            *line_no = line;
            return k == 0;
        }
        /* a blank line: on to the next (CRLF is one line end) */
        a = b + 1;
        if (b + 1 < n && p[b] == '\r' && p[b + 1] == '\n')
            a++;
    }
    *why = whole ? "only blank lines" : *why;
    return whole ? 0 : -1;
}

/* A line of a difference: STACK BASE NEW (two counts; 1 when so). */
static int diff_line(const char *s, size_t len, const char **stack, size_t *slen, uint64_t *base,
                     uint64_t *cur)
{
    const char *st, *why;
    size_t sl;
    if (ss_folded_parse_line(s, len, &st, &sl, cur, &why) != 0)
        return 0;
    return ss_folded_parse_line(st, sl, stack, slen, base, &why) == 0;
}

int ss_folded_is_diff(const char *p, size_t n, int whole)
{
    int lines = 0;
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && p[b] != '\n' && p[b] != '\r')
            b++;
        /* a line cut off, or ending past the window, is not looked at
         * (unless it is the first) */
        if ((b == n && !whole) || (lines && b > SS_FOLDED_DIFF_WINDOW))
            break;
        const char *st, *why;
        size_t sl;
        uint64_t c, d;
        int k = ss_folded_parse_line(p + a, b - a, &st, &sl, &c, &why);
        if (k == 0 && !diff_line(p + a, b - a, &st, &sl, &c, &d))
            return 0;
        lines += k == 0;
        a = b + 1;
    }
    return lines > 0;
}

/* Is the file behind r a difference?  Its first SS_FOLDED_DIFF_WINDOW bytes
 * (or its first line, if longer) decide. */
static int file_is_diff(struct ss_reader *r, struct ss_error *err)
{
    for (size_t want = SS_FOLDED_DIFF_WINDOW;; want *= 2) {
        const char *p;
        long n = ss_reader_peek(r, &p, want, err);
        if (n <= 0)
            return n < 0 ? -1 : 0;
        int whole = (size_t)n < want;
        if (whole || memchr(p, '\n', (size_t)n) || memchr(p, '\r', (size_t)n) ||
            want >= r->max_line)
            return ss_folded_is_diff(p, (size_t)n, whole);
    }
}

typedef VEC(ss_id) idvec;

/* The stack of the frames text stack[0..slen) (root first, ';' between
 * names), or SS_NONE with err set. */
static ss_id text_stack(struct ss_model *m, const char *stack, size_t slen, idvec *frames,
                        const char *path, uint64_t line_no, struct ss_error *err)
{
    frames->n = 0;
    for (size_t a = 0, b; a <= slen; a = b + 1) {
        b = a;
        while (b < slen && stack[b] != ';')
            b++;
        if (frames->n >= FOLDED_MAX_FRAMES) {
            ss_fail(err, SS_EINPUT, "%s:%llu: more than %d frames in one stack", path,
                    (unsigned long long)line_no, FOLDED_MAX_FRAMES);
            return SS_NONE;
        }
        ss_id name = ss_model_intern(m, stack + a, b - a);
        ss_id fn = name == SS_NONE ? SS_NONE : ss_model_function(m, name, name, SS_NONE, 0);
        ss_id loc = fn == SS_NONE ? SS_NONE : ss_model_location(m, fn, SS_NONE, 0);
        if (loc == SS_NONE || VEC_PUSH(*frames, loc)) {
            ss_nomem(err, "stacks");
            return SS_NONE;
        }
    }
    /* Frames root first in the text; the model wants the leaf first. */
    for (size_t i = 0, j = frames->n - 1; i < j; i++, j--) {
        ss_id t = frames->v[i];
        frames->v[i] = frames->v[j];
        frames->v[j] = t;
    }
    ss_id st = ss_model_stack(m, frames->v, frames->n, SS_NONE);
    if (st == SS_NONE)
        ss_nomem(err, "stacks");
    return st;
}

/* Append a sample of stack st with this count to the last source. */
static int add_count(struct ss_model *m, ss_id st, uint64_t count, int64_t *vals, const char *path,
                     uint64_t line_no, struct ss_error *err)
{
    vals[SS_VT_COUNT] = (int64_t)count;
    int ar = ss_model_add_sample(m, st, vals);
    if (ar == SS_COUNT_RANGE) { /* this file's counts fit: earlier inputs' did not */
        char at[800];
        snprintf(at, sizeof at, "%.700s:%llu", path, (unsigned long long)line_no);
        return ss_model_count_fail(m, err, at, (int64_t)count);
    }
    return ar ? ss_nomem(err, "samples") : 0;
}

/* A difference's base side: the stacks and counts of its lines, added as
 * a source of their own after the new side's (sources hold their samples
 * in one run). */
struct base_row {
    ss_id stack;
    uint64_t count, line_no;
};

struct folded_read {
    struct ss_model *m;
    struct ss_reader *r;
    const char *path;
    struct ss_error *err;
    int diff;
    idvec frames;
    int64_t *vals;
    VEC(struct base_row) base;
    uint64_t zero, first_zero;
};

/* One line (k: ss_folded_parse_line's verdict). */
static int read_line(struct folded_read *F, const char *line, size_t len)
{
    const char *stack, *why;
    size_t slen;
    uint64_t count, base = 0;
    uint64_t no = F->r->line_no;
    int k = ss_folded_parse_line(line, len, &stack, &slen, &count, &why);
    if (k == 1)
        return 0;
    if (k < 0)
        return ss_fail(F->err, SS_EINPUT, "%s:%llu: %s", F->path, (unsigned long long)no, why);
    if (F->diff && !diff_line(line, len, &stack, &slen, &base, &count))
        return ss_fail(F->err, SS_EINPUT,
                       "%s:%llu: one count, where the lines before have two (a difference, as "
                       "difffolded writes it: STACK BASE NEW on every line)",
                       F->path, (unsigned long long)no);
    if (count == 0 && base == 0) {
        if (F->zero++ == 0)
            F->first_zero = no;
        return 0;
    }
    ss_id st = text_stack(F->m, stack, slen, &F->frames, F->path, no, F->err);
    if (st == SS_NONE)
        return F->err->code;
    if (base) {
        struct base_row b = {st, base, no};
        if (VEC_PUSH(F->base, b))
            return ss_nomem(F->err, "samples");
    }
    return count ? add_count(F->m, st, count, F->vals, F->path, no, F->err) : 0;
}

int ss_load_folded(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err)
{
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = ss_model_intern_cstr(m, "folded");
    src.uri = ss_model_intern_cstr(m, path);
    src.session = 1;
    /* the interval of the load's options (--interval), else 1 s */
    double us = r->opts ? r->opts->folded_interval_us : 0;
    src.interval_us = us > 0 ? us : SS_FOLDED_INTERVAL_US;
    src.flags = SS_SRC_UNORDERED;    /* folded stacks have no time order */
    if (!(us > 0))                   /* no --interval: the counts have no time */
        src.flags |= SS_SRC_UNTIMED; /* counts only: the `samples` measure */
    if (src.type == SS_NONE || src.uri == SS_NONE || ss_model_add_source(m, &src) == SS_NONE)
        return ss_nomem(err, "model");
    struct folded_read F;
    memset(&F, 0, sizeof F);
    F.m = m;
    F.r = r;
    F.path = path;
    F.err = err;
    F.diff = file_is_diff(r, err);
    if (F.diff < 0)
        return err->code;
    F.vals = ss_calloc_array(m->values.n, sizeof *F.vals);
    if (!F.vals)
        return ss_nomem(err, "values");
    const char *line;
    size_t len;
    int term, got, rc = 0;
    while (!rc && (got = ss_reader_next(r, &line, &len, &term, err)) == 1)
        rc = read_line(&F, line, len);
    if (!rc && got < 0)
        rc = err->code;
    if (!rc && F.diff) {
        /* the base: its own source (compare.h), as a pprof difference's */
        src.flags |= SS_SRC_BASE;
        if (ss_model_add_source(m, &src) == SS_NONE)
            rc = ss_nomem(err, "model");
        for (size_t i = 0; !rc && i < F.base.n; i++)
            rc = add_count(m, F.base.v[i].stack, F.base.v[i].count, F.vals, path,
                           F.base.v[i].line_no, err);
    }
    if (!rc && F.zero)
        ss_model_warn(m, "%s:%llu: %llu line%s with count 0 ignored", path,
                      (unsigned long long)F.first_zero, (unsigned long long)F.zero,
                      F.zero == 1 ? "" : "s");
    free(F.vals);
    VEC_FREE(F.frames);
    VEC_FREE(F.base);
    return rc;
}

/* ---- following a file as it is written ------------------------------------- */

struct ss_folded_stream {
    struct folded_read F;
};

struct ss_folded_stream *ss_folded_stream_new(struct ss_model *m, const char *path,
                                              double interval_us, struct ss_error *err)
{
    struct ss_folded_stream *s = calloc(1, sizeof *s);
    if (!s) {
        ss_nomem(err, "follow");
        return NULL;
    }
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = ss_model_intern_cstr(m, "folded");
    src.uri = ss_model_intern_cstr(m, path);
    src.session = 1;
    src.interval_us = interval_us > 0 ? interval_us : SS_FOLDED_INTERVAL_US;
    src.flags = SS_SRC_UNORDERED;
    if (!(interval_us > 0))
        src.flags |= SS_SRC_UNTIMED;
    if (src.type == SS_NONE || src.uri == SS_NONE || ss_model_add_source(m, &src) == SS_NONE) {
        ss_folded_stream_free(s);
        ss_nomem(err, "model");
        return NULL;
    }
    return s;
}

int ss_folded_stream_feed(struct ss_folded_stream *s, struct ss_model *m, struct ss_reader *r,
                          struct ss_error *err)
{
    struct folded_read *F = &s->F;
    F->m = m;
    F->r = r;
    F->path = r->path;
    F->err = err;
    if (!F->vals && !(F->vals = ss_calloc_array(m->values.n, sizeof *F->vals)))
        return ss_nomem(err, "values");
    const char *line;
    size_t n;
    int term, got, rc = 0;
    while (!rc && (got = ss_reader_next(r, &line, &n, &term, err)) == 1)
        rc = read_line(F, line, n);
    if (!rc && got < 0)
        rc = err->code;
    return rc;
}

void ss_folded_stream_free(struct ss_folded_stream *s)
{
    if (!s)
        return;
    free(s->F.vals);
    VEC_FREE(s->F.frames);
    VEC_FREE(s->F.base);
    free(s);
}
