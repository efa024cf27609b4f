/* load_sampling.c - SamplingProf reader (see load_sampling.h). */
#include "load_sampling.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "sort.h"
#include "vec.h"

/* Limits on numbers read from the file (limits.h, shared with the writer):
 * ids fit the gem's Java int, counts stay far from overflowing a sum, line
 * numbers fit a location. */
#define MAX_ID SS_MAX_ELEMENT_ID
#define MAX_COUNT SS_MAX_COUNT
#define MAX_LINE ((long long)SS_MAX_LINE_NO)
#define DEFAULT_PERIOD_US 100000.0 /* the gem's default: 0.1 s */

enum chunk { CH_RUNTIME, CH_MAP, CH_COUNTS, CH_EDGES, CH_AFTER };

static const char *const chunk_names[] = {"runtime", "call element", "counts", "call graph",
                                          "after the call graph"};

struct element {
    int64_t id; /* the file's id */
    ss_id loc;
    uint64_t line_no; /* where it was defined */
    int64_t self, total;
    uint64_t count_line; /* line of its counts, 0 when none yet */
};

struct edge {
    int64_t from, to; /* file ids, from -1 = root */
    int64_t count;
    uint64_t line_no;
};

struct parser {
    struct ss_model *m;
    struct ss_reader *r;
    const char *path;
    struct ss_error *err;
    VEC(struct element) el;
    VEC(struct edge) ed;
    size_t *by_id; /* element indexes sorted by id (after the map chunk) */
    double runtime_ms;
    char runtime_text[64];
};

static int perr(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An input error at the current line: "PATH:LINE: message". */
static int perr(struct parser *p, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ss_fail(p->err, SS_EINPUT, "%s:%llu: %s", p->path, (unsigned long long)p->r->line_no,
                   msg);
}

int ss_sampling_prof_sniff(const char *p, size_t n)
{
    size_t i = 0;
    if (n == 0 || !((p[0] >= '0' && p[0] <= '9') || p[0] == '-' || p[0] == '.'))
        return 0;
    while (i < n && ((p[i] >= '0' && p[i] <= '9') || strchr(".-+eE", p[i])) && p[i] != '\0')
        i++;
    /* then a line end and an empty line: \n\n, \r\n\r\n or \r\r */
    if (i + 1 < n && p[i] == '\n' && p[i + 1] == '\n')
        return 1;
    if (i + 3 < n && !memcmp(p + i, "\r\n\r\n", 4))
        return 1;
    if (i + 1 < n && p[i] == '\r' && p[i + 1] == '\r')
        return 1;
    return 0;
}

/* Parse a decimal integer (optional '-' when allow_neg) filling all `len`
 * bytes; range [lo, hi].  Returns 0, -1 when it is not a number, -2 when it
 * is out of range. */
static int parse_int(const char *s, size_t len, int64_t lo, int64_t hi, int64_t *out)
{
    size_t i = 0;
    int neg = 0;
    if (len > 0 && s[0] == '-') {
        neg = 1;
        i = 1;
    }
    if (i == len)
        return -1;
    int64_t v = 0;
    int big = 0;
    for (; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        if (!big) {
            v = v * 10 + (s[i] - '0');
            if (v > MAX_COUNT * 10)
                big = 1;
        }
    }
    if (neg)
        v = -v;
    if (big || v < lo || v > hi)
        return -2;
    *out = v;
    return 0;
}

/* The text of a field for messages (cut at 40 bytes). */
static const char *field_text(const char *s, size_t len, char *buf, size_t cap)
{
    size_t k = len < 40 ? len : 40;
    snprintf(buf, cap, "%.*s%s", (int)k, s, len > k ? "..." : "");
    return buf;
}

/* Split a line of `nf` comma-separated fields into start/len pairs.
 * Returns 0, or -1 when the number of fields differs. */
static int split_fields(const char *s, size_t len, size_t nf, const char **f, size_t *fl)
{
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i == len || s[i] == ',') {
            if (k == nf)
                return -1;
            f[k] = s + start;
            fl[k] = i - start;
            k++;
            start = i + 1;
        }
    }
    return k == nf ? 0 : -1;
}

static int parse_runtime(struct parser *p, const char *s, size_t len)
{
    char buf[64], tmp[64];
    if (len == 0 || len >= sizeof buf)
        return perr(p, "expected the runtime in milliseconds, not '%s'",
                    field_text(s, len, tmp, sizeof tmp));
    memcpy(buf, s, len);
    buf[len] = '\0';
    for (size_t i = 0; i < len; i++)
        if (!((buf[i] >= '0' && buf[i] <= '9') || strchr(".-+eE", buf[i])))
            return perr(p, "expected the runtime in milliseconds, not '%s'", buf);
    char *end;
    double v = strtod(buf, &end);
    if (*end || !isfinite(v))
        return perr(p, "expected the runtime in milliseconds, not '%s'", buf);
    if (v < 0 || v > SS_MAX_RUNTIME_MS)
        return perr(p, "runtime %s ms out of range (0 to %g)", buf, SS_MAX_RUNTIME_MS);
    p->runtime_ms = v;
    memcpy(p->runtime_text, buf, len + 1);
    return 0;
}

/* A call element line: FILE:LINE:METHOD,ID. */
static int parse_element(struct parser *p, const char *s, size_t len)
{
    char tmp[64];
    const char *comma = NULL;
    for (size_t i = len; i > 0; i--)
        if (s[i - 1] == ',') {
            comma = s + i - 1;
            break;
        }
    if (!comma)
        return perr(p, "expected a call element 'FILE:LINE:METHOD,ID', not '%s'",
                    field_text(s, len, tmp, sizeof tmp));
    size_t elen = (size_t)(comma - s);
    int64_t id;
    int rc = parse_int(comma + 1, len - elen - 1, 0, MAX_ID, &id);
    if (rc)
        return perr(p, "call element id '%s' %s",
                    field_text(comma + 1, len - elen - 1, tmp, sizeof tmp),
                    rc == -2 ? "out of range (0 to 2147483647)" : "is not a number");
    /* the first ":DIGITS:" */
    size_t c1 = 0, c2 = 0;
    int found = 0;
    for (size_t i = 0; i < elen && !found; i++) {
        if (s[i] != ':')
            continue;
        size_t j = i + 1;
        while (j < elen && s[j] >= '0' && s[j] <= '9')
            j++;
        if (j > i + 1 && j < elen && s[j] == ':') {
            c1 = i;
            c2 = j;
            found = 1;
        }
    }
    if (!found)
        return perr(p, "expected a call element 'FILE:LINE:METHOD,ID' (no ':LINE:' in '%s')",
                    field_text(s, elen, tmp, sizeof tmp));
    int64_t line;
    if (parse_int(s + c1 + 1, c2 - c1 - 1, 0, MAX_LINE, &line))
        return perr(p, "line number '%s' out of range (0 to %lld)",
                    field_text(s + c1 + 1, c2 - c1 - 1, tmp, sizeof tmp), MAX_LINE);
    struct ss_model *m = p->m;
    ss_id file = c1 ? ss_model_intern(m, s, c1) : SS_NONE;
    ss_id name = ss_model_intern(m, s + c2 + 1, elen - c2 - 1);
    if ((c1 && file == SS_NONE) || name == SS_NONE)
        return ss_nomem(p->err, "strings");
    ss_id fn = ss_model_function(m, name, name, file, 0);
    ss_id loc = fn == SS_NONE ? SS_NONE : ss_model_location(m, fn, file, (uint32_t)line);
    if (loc == SS_NONE)
        return ss_nomem(p->err, "locations");
    struct element e = {id, loc, p->r->line_no, 0, 0, 0};
    if (VEC_PUSH(p->el, e))
        return ss_nomem(p->err, "call elements");
    return 0;
}

/* Element indexes by id and by location (ss_sort's context: the parser). */
static int cmp_by_id(const void *a, const void *b, void *ctx)
{
    const struct parser *p = ctx;
    int64_t x = p->el.v[*(const size_t *)a].id, y = p->el.v[*(const size_t *)b].id;
    return x < y ? -1 : x > y;
}

static int cmp_by_loc(const void *a, const void *b, void *ctx)
{
    const struct parser *p = ctx;
    const struct element *x = &p->el.v[*(const size_t *)a], *y = &p->el.v[*(const size_t *)b];
    if (x->loc != y->loc)
        return x->loc < y->loc ? -1 : 1;
    return x->line_no < y->line_no ? -1 : x->line_no > y->line_no;
}

/* After the map chunk: index the elements by id; refuse an id or an element
 * defined twice. */
static int end_map(struct parser *p)
{
    size_t n = p->el.n;
    p->by_id = ss_alloc_array(n, sizeof *p->by_id);
    size_t *tmp = ss_alloc_array(n, sizeof *tmp);
    if (!p->by_id || !tmp) {
        free(tmp);
        return ss_nomem(p->err, "call elements");
    }
    for (size_t i = 0; i < n; i++)
        p->by_id[i] = tmp[i] = i;
    if (ss_sort(tmp, n, sizeof *tmp, cmp_by_loc, p)) {
        free(tmp);
        return ss_nomem(p->err, "call elements");
    }
    for (size_t i = 1; i < n; i++) {
        const struct element *a = &p->el.v[tmp[i - 1]], *b = &p->el.v[tmp[i]];
        if (a->loc == b->loc) {
            free(tmp);
            return ss_fail(p->err, SS_EINPUT,
                           "%s:%llu: call element listed twice (ids %lld and %lld; first on "
                           "line %llu)",
                           p->path, (unsigned long long)b->line_no, (long long)a->id,
                           (long long)b->id, (unsigned long long)a->line_no);
        }
    }
    free(tmp);
    if (ss_sort(p->by_id, n, sizeof *p->by_id, cmp_by_id, p))
        return ss_nomem(p->err, "call elements");
    for (size_t i = 1; i < n; i++) {
        const struct element *a = &p->el.v[p->by_id[i - 1]], *b = &p->el.v[p->by_id[i]];
        if (a->id == b->id) {
            const struct element *later = a->line_no > b->line_no ? a : b;
            const struct element *first = a->line_no > b->line_no ? b : a;
            return ss_fail(p->err, SS_EINPUT,
                           "%s:%llu: call element id %lld defined twice (first on line %llu)",
                           p->path, (unsigned long long)later->line_no, (long long)later->id,
                           (unsigned long long)first->line_no);
        }
    }
    return 0;
}

/* The element with file id `id`, or NULL. */
static struct element *find_id(struct parser *p, int64_t id)
{
    size_t lo = 0, hi = p->el.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        struct element *e = &p->el.v[p->by_id[mid]];
        if (e->id == id)
            return e;
        if (e->id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* Parse field k of a counts or edges line as an integer in [lo, hi]. */
static int field_int(struct parser *p, const char *what, const char *s, size_t len, int64_t lo,
                     int64_t hi, int64_t *out)
{
    char tmp[64];
    int rc = parse_int(s, len, lo, hi, out);
    if (rc == -1)
        return perr(p, "%s '%s' is not a number", what, field_text(s, len, tmp, sizeof tmp));
    if (rc == -2)
        return perr(p, "%s '%s' out of range (%lld to %lld)", what,
                    field_text(s, len, tmp, sizeof tmp), (long long)lo, (long long)hi);
    return 0;
}

static int parse_counts(struct parser *p, const char *s, size_t len)
{
    const char *f[3];
    size_t fl[3];
    char tmp[64];
    if (split_fields(s, len, 3, f, fl))
        return perr(p, "expected counts 'ID,SELF,TOTAL', not '%s'",
                    field_text(s, len, tmp, sizeof tmp));
    int64_t id, self, total;
    if (field_int(p, "call element id", f[0], fl[0], 0, MAX_ID, &id) ||
        field_int(p, "self count", f[1], fl[1], 0, MAX_COUNT, &self) ||
        field_int(p, "total count", f[2], fl[2], 0, MAX_COUNT, &total))
        return p->err->code;
    struct element *e = find_id(p, id);
    if (!e)
        return perr(p, "call element id %lld is not in the call element map", (long long)id);
    if (e->count_line)
        return perr(p, "counts of call element %lld given twice (first on line %llu)",
                    (long long)id, (unsigned long long)e->count_line);
    if (self > total)
        return perr(p, "self count %lld exceeds total count %lld", (long long)self,
                    (long long)total);
    e->self = self;
    e->total = total;
    e->count_line = p->r->line_no;
    return 0;
}

static int parse_edge(struct parser *p, const char *s, size_t len)
{
    const char *f[3];
    size_t fl[3];
    char tmp[64];
    if (split_fields(s, len, 3, f, fl))
        return perr(p, "expected a call 'FROM,TO,COUNT', not '%s'",
                    field_text(s, len, tmp, sizeof tmp));
    struct edge e;
    if (field_int(p, "caller id", f[0], fl[0], -1, MAX_ID, &e.from) ||
        field_int(p, "callee id", f[1], fl[1], 0, MAX_ID, &e.to) ||
        field_int(p, "call count", f[2], fl[2], 0, MAX_COUNT, &e.count))
        return p->err->code;
    if (e.from >= 0 && !find_id(p, e.from))
        return perr(p, "caller id %lld is not in the call element map", (long long)e.from);
    if (!find_id(p, e.to))
        return perr(p, "callee id %lld is not in the call element map", (long long)e.to);
    e.line_no = p->r->line_no;
    if (VEC_PUSH(p->ed, e))
        return ss_nomem(p->err, "call graph");
    return 0;
}

static int cmp_edge(const void *a, const void *b)
{
    const struct edge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return x->line_no < y->line_no ? -1 : x->line_no > y->line_no;
}

/* Check the edges for duplicates and add everything to the model. */
static int finish(struct parser *p, ss_id src)
{
    struct ss_model *m = p->m;
    size_t ne = p->ed.n;
    struct edge *sorted = ss_alloc_array(ne, sizeof *sorted);
    if (!sorted)
        return ss_nomem(p->err, "call graph");
    if (ne)
        memcpy(sorted, p->ed.v, ne * sizeof *sorted);
    qsort(sorted, ne, sizeof *sorted, cmp_edge);
    for (size_t i = 1; i < ne; i++)
        if (sorted[i].from == sorted[i - 1].from && sorted[i].to == sorted[i - 1].to) {
            int rc = ss_fail(p->err, SS_EINPUT,
                             "%s:%llu: call %lld -> %lld given twice (first on line %llu)", p->path,
                             (unsigned long long)sorted[i].line_no, (long long)sorted[i].from,
                             (long long)sorted[i].to, (unsigned long long)sorted[i - 1].line_no);
            free(sorted);
            return rc;
        }
    free(sorted);

    uint64_t samples = 0, root = 0;
    for (size_t i = 0; i < p->el.n; i++) {
        const struct element *e = &p->el.v[i];
        struct ss_agg a = {src, e->loc, e->self, e->total};
        if (ss_model_add_agg(m, &a))
            return ss_nomem(p->err, "aggregates");
        samples += (uint64_t)e->self;
    }
    for (size_t i = 0; i < ne; i++) {
        const struct edge *e = &p->ed.v[i];
        const struct element *from = e->from < 0 ? NULL : find_id(p, e->from),
                             *to = find_id(p, e->to);
        if (!to || (e->from >= 0 && !from)) /* checked while parsing */
            return ss_fail(p->err, SS_EINPUT, "%s:%llu: unknown id", p->path,
                           (unsigned long long)e->line_no);
        struct ss_agg_edge a = {src, from ? from->loc : SS_NONE, to->loc, e->count};
        if (ss_model_add_edge(m, &a))
            return ss_nomem(p->err, "call graph");
        if (e->from < 0)
            root += (uint64_t)e->count;
    }
    if (ss_model_check_aggs(m, p->path, p->err)) /* statistics sum them */
        return p->err->code;
    if (root != samples)
        ss_model_warn(m,
                      "%s: the calls from the root (-1) count %llu samples, the self counts %llu",
                      p->path, (unsigned long long)root, (unsigned long long)samples);
    double iv = DEFAULT_PERIOD_US;
    if (samples > 0 && p->runtime_ms > 0)
        iv = p->runtime_ms * 1000.0 / (double)samples;
    else if (samples > 0)
        ss_model_warn(m, "%s: runtime 0 ms; assuming the gem's default period of 0.1 s per sample",
                      p->path);
    ss_model_set_interval(m, src, iv);
    if (ss_model_add_meta(m, src, ss_model_intern_cstr(m, "runtime_ms"),
                          ss_model_intern_cstr(m, p->runtime_text)))
        return ss_nomem(p->err, "meta");
    return 0;
}

int ss_load_sampling_prof(struct ss_model *m, struct ss_reader *r, const char *path,
                          struct ss_error *err)
{
    struct parser p;
    memset(&p, 0, sizeof p);
    p.m = m;
    p.r = r;
    p.path = path;
    p.err = err;
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = ss_model_intern_cstr(m, "sampling_prof");
    src.uri = ss_model_intern_cstr(m, path);
    src.session = 1;
    src.interval_us = DEFAULT_PERIOD_US;
    src.flags = SS_SRC_AGGREGATE;
    ss_id sid = src.type == SS_NONE || src.uri == SS_NONE ? SS_NONE : ss_model_add_source(m, &src);
    if (sid == SS_NONE)
        return ss_nomem(err, "sources");

    enum chunk ch = CH_RUNTIME;
    int chunk_lines = 0; /* lines of the current chunk */
    int rc = 0;
    const char *line;
    size_t len;
    int term;
    for (;;) {
        int k = ss_reader_next(r, &line, &len, &term, err);
        if (k < 0) {
            rc = err->code;
            break;
        }
        if (k == 0)
            break;
        if (memchr(line, '\0', len)) {
            rc = perr(&p, "NUL byte in the %s chunk", chunk_names[ch]);
            break;
        }
        if (len == 0) { /* a chunk separator */
            if (ch == CH_RUNTIME && chunk_lines == 0) {
                rc = perr(&p, "empty runtime chunk: expected the runtime in milliseconds");
                break;
            }
            if (ch == CH_MAP && (rc = end_map(&p)))
                break;
            if (ch < CH_AFTER)
                ch++;
            chunk_lines = 0;
            continue;
        }
        switch (ch) {
        case CH_RUNTIME:
            rc = chunk_lines ? perr(&p, "expected a blank line after the runtime")
                             : parse_runtime(&p, line, len);
            break;
        case CH_MAP:
            rc = parse_element(&p, line, len);
            break;
        case CH_COUNTS:
            rc = parse_counts(&p, line, len);
            break;
        case CH_EDGES:
            rc = parse_edge(&p, line, len);
            break;
        case CH_AFTER:
            rc = perr(&p, "unexpected text after the call graph (a fifth chunk)");
            break;
        }
        if (rc)
            break;
        chunk_lines++;
    }
    if (!rc && ch < CH_EDGES)
        rc = ss_fail(err, SS_EINPUT,
                     "%s:%llu: the file ends in the %s chunk: a SamplingProf file has four "
                     "chunks separated by blank lines (runtime, call elements, counts, call graph)",
                     path, (unsigned long long)r->line_no, chunk_names[ch]);
    if (!rc)
        rc = finish(&p, sid);
    VEC_FREE(p.el);
    VEC_FREE(p.ed);
    free(p.by_id);
    return rc;
}
