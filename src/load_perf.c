/* load_perf.c - `perf script` text reader (see load_perf.h).
 *
 * Each sample's comm, and its pid (when perf printed PID/TID) and tid, are
 * also kept as its labels: comm (a string: the command name as printed,
 * spaces kept) and pid, tid (numbers), as Google's perf_to_profile names
 * them, so `keep-label comm=gzip`, `report --by labels` and `label-root tid`
 * work on perf data. */
#include "load_perf.h"

#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "vec.h"

#define PERF_MAX_FRAMES 100000

static int is_sp(char c)
{
    return c == ' ' || c == '\t';
}

static int all_digits(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* "N.N:" */
static int is_timestamp(const char *s, size_t n)
{
    if (n < 4 || s[n - 1] != ':')
        return 0;
    const char *dot = memchr(s, '.', n - 1);
    return dot && all_digits(s, (size_t)(dot - s)) &&
           all_digits(dot + 1, (size_t)(s + n - 1 - (dot + 1)));
}

/* TID or PID/TID */
static int is_tid(const char *s, size_t n)
{
    const char *sl = memchr(s, '/', n);
    if (!sl)
        return all_digits(s, n);
    return all_digits(s, (size_t)(sl - s)) && all_digits(sl + 1, (size_t)(s + n - sl - 1));
}

struct header {
    const char *comm, *event, *rest;
    size_t comm_len, event_len, rest_len;
    int64_t period;   /* -1 when not printed */
    int64_t pid, tid; /* -1 when not printed (or too large) */
};

/* A decimal number of at most 18 digits, or -1. */
static int64_t small_number(const char *s, size_t n)
{
    if (!all_digits(s, n) || n > 18)
        return -1;
    int64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v * 10 + (s[i] - '0');
    return v;
}

#define MAX_TOK 64

/* Parse a sample header line; 0, or -1 with *why. */
static int parse_header(const char *s, size_t n, struct header *h, const char **why)
{
    size_t a[MAX_TOK], e[MAX_TOK], nt = 0;
    for (size_t i = 0; i < n && nt < MAX_TOK;) {
        while (i < n && is_sp(s[i]))
            i++;
        if (i == n)
            break;
        a[nt] = i;
        while (i < n && !is_sp(s[i]))
            i++;
        e[nt++] = i;
    }
    size_t t = 0;
    while (t < nt && !is_timestamp(s + a[t], e[t] - a[t]))
        t++;
    if (t == nt || t < 2) {
        *why = "not a perf script sample header (COMM TID [CPU] SECONDS: [PERIOD] EVENT:)";
        return -1;
    }
    size_t tid = t - 1;
    if (s[a[tid]] == '[' && s[e[tid] - 1] == ']' && all_digits(s + a[tid] + 1, e[tid] - a[tid] - 2))
        tid--;
    if (tid < 1 || !is_tid(s + a[tid], e[tid] - a[tid])) {
        *why = "no thread id before the timestamp of a perf script sample header";
        return -1;
    }
    h->comm = s + a[0];
    h->comm_len = e[tid - 1] - a[0];
    const char *ts = s + a[tid], *sl = memchr(ts, '/', e[tid] - a[tid]);
    h->pid = sl ? small_number(ts, (size_t)(sl - ts)) : -1;
    h->tid = sl ? small_number(sl + 1, (size_t)(s + e[tid] - sl - 1))
                : small_number(ts, e[tid] - a[tid]);
    size_t k = t + 1;
    h->period = -1;
    if (k < nt && all_digits(s + a[k], e[k] - a[k]) && e[k] - a[k] <= 18) {
        h->period = strtoll(s + a[k], NULL, 10);
        k++;
    }
    if (k >= nt || s[e[k] - 1] != ':') {
        *why = "no event name (ending in ':') after the timestamp of a perf script sample header";
        return -1;
    }
    h->event = s + a[k];
    h->event_len = e[k] - a[k] - 1;
    /* modifiers: "cpu-clock:ppp" -> "cpu-clock" */
    const char *c = h->event_len ? memchr(h->event, ':', h->event_len) : NULL;
    if (c) {
        const char *last = h->event + h->event_len;
        const char *m = last;
        while (m > h->event && m[-1] != ':')
            m--;
        size_t q = 0;
        while (m + q < last && strchr("ukhIGHpPSDWe", m[q]))
            q++;
        if (m + q == last && q)
            h->event_len = (size_t)(m - 1 - h->event);
    }
    h->rest = k + 1 < nt ? s + a[k + 1] : s + n;
    h->rest_len = (size_t)(s + n - h->rest);
    return 0;
}

int ss_perf_sniff(const char *p, size_t n, int whole, const char **why)
{
    size_t a = 0;
    for (;;) {
        size_t b = a;
        while (b < n && p[b] != '\n' && p[b] != '\r')
            b++;
        if (b == n && !whole) {
            /* A line that goes on past 64 KiB is not waited for when its
             * start is no sample header (a deep folded stack, binary data):
             * the header is the line's first tokens. */
            struct header h;
            if (b - a >= (1u << 16) && p[a] != '#' && !is_sp(p[a]) &&
                parse_header(p + a, b - a, &h, why) != 0)
                return 0;
            return -1;
        }
        size_t i = a;
        while (i < b && is_sp(p[i]))
            i++;
        if (i < b && p[a] != '#') {
            struct header h;
            /* perf pads the command name with spaces when it prints no
             * call chains; a frame line starts with a tab */
            if (p[a] == '\t' || (is_sp(p[a]) && parse_header(p + i, b - i, &h, why))) {
                *why = "the first line is indented (a perf script sample starts with its header)";
                return 0;
            }
            return parse_header(p + i, b - i, &h, why) == 0;
        }
        if (b >= n) {
            *why = "no sample header";
            return 0;
        }
        a = b + 1;
    }
}

/* A frame: "ADDR [SYM[+0xOFF]] [(DSO)]" (trimmed). */
static void parse_frame(const char *s, size_t n, const char **sym, size_t *slen, const char **dso,
                        size_t *dlen)
{
    size_t i = 0;
    while (i < n && !is_sp(s[i]))
        i++; /* the address */
    while (i < n && is_sp(s[i]))
        i++;
    const char *r = s + i;
    size_t rl = n - i;
    while (rl && is_sp(r[rl - 1]))
        rl--;
    *dso = NULL;
    *dlen = 0;
    if (rl && r[rl - 1] == ')') {
        size_t q = rl - 1;
        while (q > 0 && !(r[q] == '(' && (q == 0 || is_sp(r[q - 1]))))
            q--;
        if (r[q] == '(' && (q == 0 || is_sp(r[q - 1]))) {
            *dso = r + q + 1;
            *dlen = rl - q - 2;
            rl = q;
            while (rl && is_sp(r[rl - 1]))
                rl--;
        }
    }
    /* "+0xOFF" */
    size_t q = rl;
    while (q > 0 && ((r[q - 1] >= '0' && r[q - 1] <= '9') || (r[q - 1] >= 'a' && r[q - 1] <= 'f')))
        q--;
    if (q >= 3 && q < rl && r[q - 1] == 'x' && r[q - 2] == '0' && r[q - 3] == '+')
        rl = q - 3;
    if (!rl) {
        r = "[unknown]";
        rl = 9;
    }
    *sym = r;
    *slen = rl;
}

/* The part of DSO path d[0..n) after its last '/' ("gzip" for
 * "/usr/bin/gzip"): perf report's short name. */
static void dso_base(const char *d, size_t n, const char **b, size_t *bn)
{
    size_t k = n;
    while (k > 0 && d[k - 1] != '/')
        k--;
    *b = d + k;
    *bn = n - k;
}

struct perf {
    struct ss_model *m;
    const char *path;
    struct ss_error *err;
    VEC(ss_id) frames;
    int open;   /* a sample is being read */
    ss_id comm; /* its root frame */
    ss_id key_comm, key_pid, key_tid;
    int64_t period; /* -1: none */
    ss_id head[3];  /* its header's labels (comm, pid, tid) */
    size_t nhead;
    ss_id leaf_dso; /* the DSO of its innermost frame (short name), SS_NONE */
    ss_id key_dso;
    int clock;     /* cpu-clock or task-clock */
    uint64_t line; /* its header's line */
    ss_id vt_dur, vt_ev;
    double clock_sum;
    size_t clock_n;
    ss_id sid;  /* the source */
    int resync; /* followed from the end: frame lines before the first header are passed over */
};

/* The location of a frame.  A symbol perf could not resolve is named after
 * its module, "[gzip]", as perf report and stackcollapse-perf.pl show it
 * ("[unknown]" when the module is unknown too).  The first frame of a
 * sample gives its DSO label. */
static ss_id frame_loc(struct perf *P, const char *name, size_t len, const char *dso, size_t dlen)
{
    char mod[4096];
    const char *b = NULL;
    size_t bn = 0;
    if (dlen)
        dso_base(dso, dlen, &b, &bn);
    if (len == 9 && !memcmp(name, "[unknown]", 9) && bn && bn < sizeof mod - 2 &&
        !(dlen == 9 && !memcmp(dso, "[unknown]", 9))) {
        mod[0] = '[';
        memcpy(mod + 1, b, bn);
        mod[bn + 1] = ']';
        name = mod;
        len = bn + 2;
    }
    if (P->open && P->frames.n == 0 && P->leaf_dso == SS_NONE && bn &&
        (P->leaf_dso = ss_model_intern(P->m, b, bn)) == SS_NONE)
        return SS_NONE;
    ss_id nm = ss_model_intern(P->m, name, len);
    ss_id file = dlen ? ss_model_intern(P->m, dso, dlen) : SS_NONE;
    if (nm == SS_NONE || (dlen && file == SS_NONE))
        return SS_NONE;
    ss_id fn = ss_model_function(P->m, nm, nm, file, 0);
    return fn == SS_NONE ? SS_NONE : ss_model_location(P->m, fn, SS_NONE, 0);
}

/* The label set of the sample read: its header's, and dso (its innermost
 * frame's module, as perf report's dso column) when it has frames. */
static ss_id sample_labels(struct perf *P)
{
    ss_id labs[4];
    memcpy(labs, P->head, P->nhead * sizeof *labs);
    size_t n = P->nhead;
    if (P->leaf_dso != SS_NONE) {
        if (P->key_dso == SS_NONE && (P->key_dso = ss_model_intern_cstr(P->m, "dso")) == SS_NONE)
            return SS_NONE;
        if ((labs[n++] = ss_model_label(P->m, P->key_dso, P->leaf_dso, 0, SS_NONE)) == SS_NONE)
            return SS_NONE;
    }
    return ss_model_label_set(P->m, labs, n);
}

static int flush(struct perf *P)
{
    if (!P->open)
        return 0;
    P->open = 0;
    if (P->frames.n >= PERF_MAX_FRAMES)
        return ss_fail(P->err, SS_EINPUT, "%s:%llu: a sample with more than %d frames", P->path,
                       (unsigned long long)P->line, PERF_MAX_FRAMES);
    if (VEC_PUSH(P->frames, P->comm))
        return ss_nomem(P->err, "stacks");
    ss_id st = ss_model_stack(P->m, P->frames.v, P->frames.n, SS_NONE);
    P->frames.n = 0;
    if (st == SS_NONE)
        return ss_nomem(P->err, "stacks");
    ss_id vt = SS_NONE;
    if (P->period >= 0) {
        ss_id *slot = P->clock ? &P->vt_dur : &P->vt_ev;
        if (*slot == SS_NONE)
            *slot = P->clock ? ss_model_value_type(P->m, "duration", "nanoseconds")
                             : ss_model_value_type(P->m, "events", "count");
        if (*slot == SS_NONE)
            return ss_nomem(P->err, "value types");
        vt = *slot;
    }
    int64_t *vals = ss_calloc_array(P->m->value_types.n, sizeof *vals);
    if (!vals)
        return ss_nomem(P->err, "values");
    vals[SS_VT_COUNT] = 1;
    if (vt != SS_NONE)
        vals[vt] = P->period;
    if (P->clock && P->period >= 0) {
        P->clock_sum += (double)P->period;
        P->clock_n++;
    }
    ss_id set = sample_labels(P);
    int rc =
        set == SS_NONE || ss_model_add_sample(P->m, st, vals) || ss_model_label_sample(P->m, set)
            ? ss_nomem(P->err, "samples")
            : 0;
    free(vals);
    return rc;
}

/* The labels of a sample with header h (comm as printed, spaces kept)
 * into P->head: 0, or SS_NONE when out of memory. */
static ss_id header_labels(struct perf *P, const struct header *h)
{
    if (P->key_comm == SS_NONE) {
        P->key_comm = ss_model_intern_cstr(P->m, "comm");
        P->key_pid = ss_model_intern_cstr(P->m, "pid");
        P->key_tid = ss_model_intern_cstr(P->m, "tid");
        if (P->key_comm == SS_NONE || P->key_pid == SS_NONE || P->key_tid == SS_NONE)
            return SS_NONE;
    }
    ss_id labs[3];
    size_t n = 0;
    ss_id comm = ss_model_intern(P->m, h->comm, h->comm_len);
    if (comm == SS_NONE)
        return SS_NONE;
    labs[n++] = ss_model_label(P->m, P->key_comm, comm, 0, SS_NONE);
    if (h->pid >= 0)
        labs[n++] = ss_model_label(P->m, P->key_pid, SS_NONE, h->pid, SS_NONE);
    if (h->tid >= 0)
        labs[n++] = ss_model_label(P->m, P->key_tid, SS_NONE, h->tid, SS_NONE);
    for (size_t k = 0; k < n; k++)
        if (labs[k] == SS_NONE)
            return SS_NONE;
    memcpy(P->head, labs, n * sizeof *labs);
    P->nhead = n;
    return 0;
}

/* Start reading a perf script file into m: P set up, its source added.
 * Returns 0 or SS_ENOMEM. */
static int perf_start(struct perf *P, struct ss_model *m, const char *path, struct ss_error *err)
{
    memset(P, 0, sizeof *P);
    P->m = m;
    P->path = path;
    P->err = err;
    P->vt_dur = P->vt_ev = SS_NONE;
    P->key_comm = P->key_pid = P->key_tid = P->key_dso = P->leaf_dso = SS_NONE;
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = ss_model_intern_cstr(m, "perf");
    src.uri = ss_model_intern_cstr(m, path);
    src.session = 1;
    src.interval_us = 1e6;
    P->sid = src.type == SS_NONE || src.uri == SS_NONE ? SS_NONE : ss_model_add_source(m, &src);
    return P->sid == SS_NONE ? ss_nomem(err, "model") : 0;
}

/* A sample's header line (its first non-blank byte at i, its end n). */
static int perf_header(struct perf *P, const char *line, size_t i, size_t n, uint64_t line_no)
{
    struct header h;
    const char *why;
    int rc = flush(P); /* the previous sample ends here if no blank line did */
    if (rc)
        return rc;
    if (parse_header(line + i, n - i, &h, &why))
        return ss_fail(P->err, SS_EINPUT, "%s:%llu: %s", P->path, (unsigned long long)line_no, why);
    char comm[4096];
    size_t cl = h.comm_len < sizeof comm ? h.comm_len : sizeof comm - 1;
    for (size_t k = 0; k < cl; k++)
        comm[k] = h.comm[k] == ' ' ? '_' : h.comm[k];
    P->comm = frame_loc(P, comm, cl, NULL, 0);
    P->leaf_dso = SS_NONE;
    if (P->comm == SS_NONE || header_labels(P, &h) == SS_NONE)
        return ss_nomem(P->err, "frames");
    P->open = 1;
    P->line = line_no;
    P->period = h.period;
    P->clock = (h.event_len == 9 && !memcmp(h.event, "cpu-clock", 9)) ||
               (h.event_len == 10 && !memcmp(h.event, "task-clock", 10));
    if (h.rest_len) {
        /* no call chain: the one frame follows on the header line */
        const char *sym, *dso;
        size_t sl, dl;
        size_t rl = h.rest_len;
        while (rl && is_sp(h.rest[rl - 1]))
            rl--;
        parse_frame(h.rest, rl, &sym, &sl, &dso, &dl);
        ss_id loc = frame_loc(P, sym, sl, dso, dl);
        if (loc == SS_NONE || VEC_PUSH(P->frames, loc))
            return ss_nomem(P->err, "frames");
    }
    return 0;
}

/* One line of the file (without its line end). */
static int perf_line(struct perf *P, const char *line, size_t len, uint64_t line_no)
{
    if (memchr(line, '\0', len))
        return ss_fail(P->err, SS_EINPUT, "%s:%llu: NUL byte in the line (binary data?)", P->path,
                       (unsigned long long)line_no);
    size_t i = 0;
    while (i < len && (is_sp(line[i]) || line[i] == '\r'))
        i++;
    if (i == len)
        return flush(P);
    if (!P->open && line[0] == '#')
        return 0;
    struct header h;
    const char *why;
    size_t n = len;
    while (n && line[n - 1] == '\r')
        n--;
    /* a frame starts with a tab; a header without call chains with
     * the command name padded with spaces */
    int header = !is_sp(line[0]) || (line[0] == ' ' && !parse_header(line + i, n - i, &h, &why));
    if (header) {
        P->resync = 0;
        return perf_header(P, line, i, n, line_no);
    }
    if (!P->open && P->resync)
        return 0; /* the rest of a sample begun before --follow=end's start */
    if (!P->open)
        return ss_fail(P->err, SS_EINPUT,
                       "%s:%llu: a frame line outside a sample (no header before it)", P->path,
                       (unsigned long long)line_no);
    while (n > i && is_sp(line[n - 1]))
        n--;
    const char *sym, *dso;
    size_t sl, dl;
    parse_frame(line + i, n - i, &sym, &sl, &dso, &dl);
    ss_id loc = frame_loc(P, sym, sl, dso, dl);
    if (loc == SS_NONE || VEC_PUSH(P->frames, loc))
        return ss_nomem(P->err, "frames");
    if (P->frames.n > PERF_MAX_FRAMES)
        return ss_fail(P->err, SS_EINPUT, "%s:%llu: a sample with more than %d frames", P->path,
                       (unsigned long long)P->line, PERF_MAX_FRAMES);
    return 0;
}

/* The source's interval and measures from the samples read so far. */
static void perf_source(struct perf *P)
{
    struct ss_model *m = P->m;
    if (P->clock_n && P->clock_sum > 0) {
        ss_model_set_interval(m, P->sid, P->clock_sum / 1e3 / (double)P->clock_n);
        ss_model_clear_source_flags(m, P->sid, SS_SRC_UNTIMED); /* followed: clocks came */
    } else { /* no clock event: counts of events */
        ss_model_add_source_flags(m, P->sid, SS_SRC_UNTIMED);
    }
    /* measures: samples, the clock events' periods (time), the others' counts */
    ss_model_source_value(m, P->sid, SS_VT_COUNT, 0);
    if (P->vt_dur != SS_NONE) /* time: the sum of the clock events' periods */
        ss_model_source_time(m, P->sid, P->vt_dur);
    if (P->vt_ev != SS_NONE)
        ss_model_source_value(m, P->sid, P->vt_ev, !P->clock_n);
}

int ss_load_perf(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err)
{
    struct perf P;
    int rc = perf_start(&P, m, path, err);
    if (rc)
        return rc;
    const char *line;
    size_t len;
    int term, got;
    while (!rc && (got = ss_reader_next(r, &line, &len, &term, err)) == 1)
        rc = perf_line(&P, line, len, r->line_no);
    if (!rc && got < 0)
        rc = err->code;
    if (!rc)
        rc = flush(&P);
    if (!rc)
        perf_source(&P);
    VEC_FREE(P.frames);
    return rc;
}

/* ---- following a file as it is written ------------------------------------- */

struct ss_perf_stream {
    struct perf P;
    char *path; /* the source's, for messages */
};

struct ss_perf_stream *ss_perf_stream_new(struct ss_model *m, const char *path, int resync,
                                          struct ss_error *err)
{
    struct ss_perf_stream *s = calloc(1, sizeof *s);
    if (!s || !(s->path = strdup(path))) {
        free(s);
        ss_nomem(err, "follow");
        return NULL;
    }
    if (perf_start(&s->P, m, s->path, err)) {
        ss_perf_stream_free(s);
        return NULL;
    }
    s->P.resync = resync;
    return s;
}

int ss_perf_stream_feed(struct ss_perf_stream *s, struct ss_model *m, struct ss_reader *r,
                        struct ss_error *err)
{
    struct perf *P = &s->P;
    P->m = m;
    P->err = err;
    const char *line;
    size_t n;
    int term, got, rc = 0;
    while (!rc && (got = ss_reader_next(r, &line, &n, &term, err)) == 1)
        rc = perf_line(P, line, n, r->line_no);
    if (!rc && got < 0)
        rc = err->code;
    if (!rc)
        perf_source(P); /* the last sample stays open until its blank line */
    return rc;
}

int ss_perf_stream_end(struct ss_perf_stream *s, struct ss_model *m, struct ss_error *err)
{
    s->P.m = m;
    s->P.err = err;
    int rc = flush(&s->P);
    if (!rc)
        perf_source(&s->P);
    return rc;
}

void ss_perf_stream_free(struct ss_perf_stream *s)
{
    if (!s)
        return;
    VEC_FREE(s->P.frames);
    free(s->path);
    free(s);
}
