/* write_sampling.c - the SamplingProf writer (see write.h).
 *
 * Computes from the model what the SamplingProf gem counts while sampling,
 * with the gem's semantics (load_sampling.h): one call element per distinct
 * "FILE:LINE:METHOD" string; per sample, self for the innermost element,
 * total once for each distinct element of the stack, and one count for each
 * distinct (caller, callee) pair, -1 standing for the root.  Samples weigh
 * their count value; samples with no frames are left out, as in the
 * statistics.  Aggregate sources (a loaded SamplingProf file) are added as
 * they are.  The runtime is the time of the counted samples in milliseconds
 * (count x interval, summed per source).
 *
 * A location's FILE is its source file, else its function's file, else
 * empty; LINE is 0 when unknown; a line end inside a name becomes a space
 * (the format is line-based).
 *
 * What the reader would refuse is refused here (limits.h): a runtime, a
 * count or a line number out of the reader's range is an error naming it,
 * never a file that cannot be read back.
 */
#include "writers.h"

#include <stdlib.h>
#include <string.h>

#include "hashtab.h"
#include "limits.h"
#include "vec.h"

struct edge_tab {
    struct ss_u64map index; /* key -> edge index */
    VEC(uint64_t) key;      /* (from + 1) << 32 | to */
    VEC(uint64_t) count;
    VEC(uint64_t) stamp;
};

/* The index of edge (from, to), added with count 0 when new; SIZE_MAX on OOM. */
static size_t edge_find(struct edge_tab *t, int64_t from, uint32_t to)
{
    uint64_t k = (uint64_t)(from + 1) << 32 | to;
    if (t->key.n >= UINT32_MAX - 1)
        return SIZE_MAX;
    uint32_t next = (uint32_t)t->key.n;
    uint32_t e = ss_u64map_intern(&t->index, k, next);
    if (e == SS_NONE)
        return SIZE_MAX;
    if (e != next)
        return e;
    if (VEC_PUSH(t->key, k) || VEC_PUSH(t->count, 0) || VEC_PUSH(t->stamp, 0))
        return SIZE_MAX;
    return e;
}

/* a + b, saturating: a sum out of the reader's range stays out of it. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

struct wr {
    const struct ss_model *m;
    uint32_t bad_line;      /* a line number the reader would refuse, or 0 */
    ss_id bad_file;         /* a file name the reader would split wrongly, or SS_NONE */
    struct ss_strtab names; /* element strings; the id is the element id */
    ss_id *elem_of_loc;     /* per location, SS_NONE until used */
    VEC(uint64_t) self;
    VEC(uint64_t) total;
    VEC(uint64_t) stamp;
    struct edge_tab edges;
    char *buf;
    size_t cap;
};

/* Append `s` to w->buf at *at, line ends replaced by spaces. */
static int put(struct wr *w, size_t *at, const char *s)
{
    size_t n = strlen(s);
    if (ss_grow((void **)&w->buf, &w->cap, *at + n + 1, 1))
        return -1;
    for (size_t i = 0; i < n; i++)
        w->buf[(*at)++] = s[i] == '\n' || s[i] == '\r' ? ' ' : s[i];
    w->buf[*at] = '\0';
    return 0;
}

/* Where the reader splits "FILE:LINE:METHOD": at its first ":DIGITS:".
 * Returns the offset of that ':' in s[0..n), or n when there is none. */
static size_t line_sep(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != ':')
            continue;
        size_t j = i + 1;
        while (j < n && s[j] >= '0' && s[j] <= '9')
            j++;
        if (j > i + 1 && j < n && s[j] == ':')
            return i;
    }
    return n;
}

/* The element id of location loc (created on first use); SS_NONE on OOM. */
static ss_id element(struct wr *w, ss_id loc)
{
    if (w->elem_of_loc[loc] != SS_NONE)
        return w->elem_of_loc[loc];
    const struct ss_model *m = w->m;
    const struct ss_location *l = &m->locations.v[loc];
    const struct ss_function *fn = l->function != SS_NONE ? &m->functions.v[l->function] : NULL;
    ss_id file = l->file != SS_NONE ? l->file : fn ? fn->filename : SS_NONE;
    char num[16];
    if (l->line > SS_MAX_LINE_NO)
        w->bad_line = l->line;
    snprintf(num, sizeof num, ":%u:", l->line);
    size_t at = 0, file_len;
    if (put(w, &at, file != SS_NONE ? ss_str(m, file) : ""))
        return SS_NONE;
    file_len = at;
    if (put(w, &at, num) || put(w, &at, fn ? ss_str(m, fn->name) : ""))
        return SS_NONE;
    /* a file name that holds ":DIGITS:", or ends in ":DIGITS", would be
     * split there: its tail read as the line and the method */
    if (line_sep(w->buf, at) != file_len && w->bad_file == SS_NONE)
        w->bad_file = file;
    ss_id e = ss_strtab_intern(&w->names, w->buf, at);
    if (e == SS_NONE)
        return SS_NONE;
    if (e == w->self.n && (VEC_PUSH(w->self, 0) || VEC_PUSH(w->total, 0) || VEC_PUSH(w->stamp, 0)))
        return SS_NONE;
    w->elem_of_loc[loc] = e;
    return e;
}

/* Credit one distinct stack with count c (stamp: this stack's credit). */
static int credit_stack(struct wr *w, ss_id st, uint64_t c, uint64_t stamp)
{
    const struct ss_model *m = w->m;
    size_t d = ss_stack_depth(m, st);
    const ss_id *fr = ss_stack_frames(m, st);
    int64_t prev = -1;
    for (size_t k = d; k-- > 0;) {
        ss_id e = element(w, fr[k]);
        if (e == SS_NONE)
            return -1;
        if (k == 0)
            w->self.v[e] = sat_add(w->self.v[e], c);
        if (w->stamp.v[e] != stamp) {
            w->stamp.v[e] = stamp;
            w->total.v[e] = sat_add(w->total.v[e], c);
        }
        size_t x = edge_find(&w->edges, prev, e);
        if (x == SIZE_MAX)
            return -1;
        if (w->edges.stamp.v[x] != stamp) {
            w->edges.stamp.v[x] = stamp;
            w->edges.count.v[x] = sat_add(w->edges.count.v[x], c);
        }
        prev = e;
    }
    return 0;
}

/* Add aggregate source src's counts and edges. */
static int credit_aggs(struct wr *w, ss_id src)
{
    const struct ss_model *m = w->m;
    for (size_t i = 0; i < m->aggs.n; i++) {
        const struct ss_agg *a = &m->aggs.v[i];
        if (a->source != src)
            continue;
        ss_id e = element(w, a->location);
        if (e == SS_NONE)
            return -1;
        w->self.v[e] = sat_add(w->self.v[e], (uint64_t)a->self);
        w->total.v[e] = sat_add(w->total.v[e], (uint64_t)a->total);
    }
    for (size_t i = 0; i < m->edges.n; i++) {
        const struct ss_agg_edge *a = &m->edges.v[i];
        if (a->source != src)
            continue;
        int64_t from = -1;
        if (a->caller != SS_NONE) {
            ss_id e = element(w, a->caller);
            if (e == SS_NONE)
                return -1;
            from = e;
        }
        ss_id to = element(w, a->callee);
        size_t x = to == SS_NONE ? SIZE_MAX : edge_find(&w->edges, from, to);
        if (x == SIZE_MAX)
            return -1;
        w->edges.count.v[x] = sat_add(w->edges.count.v[x], (uint64_t)a->count);
    }
    return 0;
}

/* Refuse what the SamplingProf reader would refuse. */
static int check_limits(const struct wr *w, double runtime_ms, const char *path,
                        struct ss_error *err)
{
    if (!(runtime_ms <= SS_MAX_RUNTIME_MS))
        return ss_fail(err, SS_EINPUT,
                       "%s: cannot write SamplingProf: the runtime would be %g ms, and the "
                       "format's reader accepts at most %g ms (counts x interval too large)",
                       path, runtime_ms, SS_MAX_RUNTIME_MS);
    if (w->bad_line)
        return ss_fail(err, SS_EINPUT,
                       "%s: cannot write SamplingProf: line number %u (the reader accepts at "
                       "most %u)",
                       path, w->bad_line, (unsigned)SS_MAX_LINE_NO);
    if (w->bad_file != SS_NONE)
        return ss_fail(err, SS_EINPUT,
                       "%s: cannot write SamplingProf: the file name '%s' holds ':DIGITS:' or "
                       "ends in ':DIGITS', where the format's reader would take the line "
                       "number from it (FILE:LINE:METHOD)",
                       path, ss_str(w->m, w->bad_file));
    if (w->names.n && w->names.n - 1 > (uint64_t)SS_MAX_ELEMENT_ID)
        return ss_fail(err, SS_EINPUT,
                       "%s: cannot write SamplingProf: %zu call elements (at most %lld)", path,
                       w->names.n, SS_MAX_ELEMENT_ID + 1);
    for (size_t e = 0; e < w->names.n; e++)
        if (w->self.v[e] > (uint64_t)SS_MAX_COUNT || w->total.v[e] > (uint64_t)SS_MAX_COUNT)
            return ss_fail(err, SS_EINPUT,
                           "%s: cannot write SamplingProf: call element '%.60s' counts %llu "
                           "self, %llu total (the reader accepts 0 to %lld; a negative count "
                           "shows as a huge one)",
                           path, ss_strtab_get(&w->names, (ss_id)e),
                           (unsigned long long)w->self.v[e], (unsigned long long)w->total.v[e],
                           SS_MAX_COUNT);
    for (size_t x = 0; x < w->edges.key.n; x++)
        if (w->edges.count.v[x] > (uint64_t)SS_MAX_COUNT)
            return ss_fail(err, SS_EINPUT,
                           "%s: cannot write SamplingProf: a call counts %llu (the reader accepts "
                           "0 to %lld)",
                           path, (unsigned long long)w->edges.count.v[x], SS_MAX_COUNT);
    return 0;
}

static void wr_free(struct wr *w)
{
    ss_strtab_free(&w->names);
    free(w->elem_of_loc);
    VEC_FREE(w->self);
    VEC_FREE(w->total);
    VEC_FREE(w->stamp);
    ss_u64map_free(&w->edges.index);
    VEC_FREE(w->edges.key);
    VEC_FREE(w->edges.count);
    VEC_FREE(w->edges.stamp);
    free(w->buf);
}

int ss_write_sampling_prof(const struct ss_model *m, FILE *f, const char *path,
                           struct ss_error *err)
{
    struct wr w;
    memset(&w, 0, sizeof w);
    w.bad_file = SS_NONE;
    w.m = m;
    ss_strtab_init(&w.names);
    size_t nl = m->locations.n;
    w.elem_of_loc = ss_alloc_array(nl, sizeof *w.elem_of_loc);
    struct ss_stack_counts sc;
    int oom = !w.elem_of_loc || ss_stack_counts_init(&sc, m);
    for (size_t i = 0; !oom && i < nl; i++)
        w.elem_of_loc[i] = SS_NONE;
    double runtime_us = 0;
    uint64_t stamp = 0;
    for (size_t s = 0; !oom && s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        if (src->flags & SS_SRC_AGGREGATE) {
            oom = credit_aggs(&w, (ss_id)s) != 0;
            runtime_us += (double)ss_agg_samples(m, (ss_id)s) * src->interval_us;
            continue;
        }
        if (ss_stack_counts_source(&sc, m, (ss_id)s)) {
            oom = 1;
            break;
        }
        uint64_t counted = 0;
        for (size_t t = 0; !oom && t < sc.n; t++) {
            ss_id st = sc.touched[t];
            if (ss_stack_depth(m, st) == 0)
                continue;
            oom = credit_stack(&w, st, sc.cnt[st], ++stamp) != 0;
            counted += sc.cnt[st];
        }
        runtime_us += (double)counted * src->interval_us;
    }
    if (w.elem_of_loc)
        ss_stack_counts_free(&sc);
    if (oom) {
        wr_free(&w);
        return ss_nomem(err, "the SamplingProf output");
    }
    int rc = check_limits(&w, runtime_us / 1000.0, path, err);
    if (rc) {
        wr_free(&w);
        return rc;
    }
    fprintf(f, "%.15g\n\n", runtime_us / 1000.0);
    for (size_t e = 0; e < w.names.n; e++)
        fprintf(f, "%s,%zu\n", ss_strtab_get(&w.names, (ss_id)e), e);
    fputc('\n', f);
    for (size_t e = 0; e < w.names.n; e++)
        fprintf(f, "%zu,%llu,%llu\n", e, (unsigned long long)w.self.v[e],
                (unsigned long long)w.total.v[e]);
    fputc('\n', f);
    for (size_t x = 0; x < w.edges.key.n; x++) {
        uint64_t k = w.edges.key.v[x];
        fprintf(f, "%lld,%llu,%llu\n", (long long)(k >> 32) - 1,
                (unsigned long long)(k & 0xffffffffu), (unsigned long long)w.edges.count.v[x]);
    }
    wr_free(&w);
    return 0;
}
