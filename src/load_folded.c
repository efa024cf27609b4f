/* load_folded.c - folded stacks reader (see load_folded.h). */
#include "load_folded.h"
#include "vec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"

#define FOLDED_MAX_COUNT 1000000000000000ULL /* 10^15 per line */
#define FOLDED_MAX_FRAMES SS_MAX_FRAMES

static double folded_interval_us = SS_FOLDED_INTERVAL_US;
static int folded_interval_set; /* --interval given: the counts have a time */

void ss_folded_set_interval(double us)
{
    folded_interval_us = us > 0 ? us : SS_FOLDED_INTERVAL_US;
    folded_interval_set = us > 0;
}

double ss_folded_interval(void)
{
    return folded_interval_us;
}

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

int ss_load_folded(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err)
{
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = ss_model_intern_cstr(m, "folded");
    src.uri = ss_model_intern_cstr(m, path);
    src.session = 1;
    src.interval_us = folded_interval_us;
    src.flags = SS_SRC_UNORDERED; /* folded stacks have no time order */
    if (!folded_interval_set)
        src.flags |= SS_SRC_UNTIMED; /* counts only: the `samples` measure */
    if (src.type == SS_NONE || src.uri == SS_NONE || ss_model_add_source(m, &src) == SS_NONE)
        return ss_nomem(err, "model");
    VEC(ss_id) frames = {0};
    int64_t *vals = ss_calloc_array(m->values.n, sizeof *vals);
    uint64_t zero = 0, first_zero = 0;
    int rc = 0, got;
    const char *line;
    size_t len;
    int term;
    if (!vals)
        return ss_nomem(err, "values");
    while ((got = ss_reader_next(r, &line, &len, &term, err)) == 1) {
        const char *stack, *why;
        size_t slen;
        uint64_t count;
        int k = ss_folded_parse_line(line, len, &stack, &slen, &count, &why);
        if (k == 1)
            continue;
        if (k < 0) {
            rc = ss_fail(err, SS_EINPUT, "%s:%llu: %s", path, (unsigned long long)r->line_no, why);
            break;
        }
        if (count == 0) {
            if (zero++ == 0)
                first_zero = r->line_no;
            continue;
        }
        /* Frames root first in the text; the model wants the leaf first. */
        frames.n = 0;
        for (size_t a = 0, b; a <= slen; a = b + 1) {
            b = a;
            while (b < slen && stack[b] != ';')
                b++;
            if (frames.n >= FOLDED_MAX_FRAMES) {
                rc = ss_fail(err, SS_EINPUT, "%s:%llu: more than %d frames in one stack", path,
                             (unsigned long long)r->line_no, FOLDED_MAX_FRAMES);
                break;
            }
            ss_id name = ss_model_intern(m, stack + a, b - a);
            ss_id fn = name == SS_NONE ? SS_NONE : ss_model_function(m, name, name, SS_NONE, 0);
            ss_id loc = fn == SS_NONE ? SS_NONE : ss_model_location(m, fn, SS_NONE, 0);
            if (loc == SS_NONE || VEC_PUSH(frames, loc)) {
                rc = ss_nomem(err, "stacks");
                break;
            }
        }
        if (rc)
            break;
        for (size_t i = 0, j = frames.n - 1; i < j; i++, j--) {
            ss_id t = frames.v[i];
            frames.v[i] = frames.v[j];
            frames.v[j] = t;
        }
        ss_id st = ss_model_stack(m, frames.v, frames.n, SS_NONE);
        vals[SS_VT_COUNT] = (int64_t)count;
        int ar = st == SS_NONE ? -1 : ss_model_add_sample(m, st, vals);
        if (ar == SS_COUNT_RANGE) { /* this file's counts fit: earlier inputs' did not */
            char at[800];
            snprintf(at, sizeof at, "%.700s:%llu", path, (unsigned long long)r->line_no);
            rc = ss_model_count_fail(m, err, at, (int64_t)count);
            break;
        }
        if (ar) {
            rc = ss_nomem(err, "samples");
            break;
        }
    }
    if (!rc && got < 0)
        rc = err->code;
    if (!rc && zero)
        ss_model_warn(m, "%s:%llu: %llu line%s with count 0 ignored", path,
                      (unsigned long long)first_zero, (unsigned long long)zero,
                      zero == 1 ? "" : "s");
    free(vals);
    VEC_FREE(frames);
    return rc;
}
