/* stats.c - function and line statistics (see stats.h). */
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rprof.h"
#include "sort.h"
#include "source.h"
#include "vec.h"
#include "num.h"

struct work {
    const struct ss_model *m;
    struct ss_stats *st;
    enum ss_stats_key by;
    ss_id *key_of;     /* function (by function) or location (by line) -> row */
    ss_id no_location; /* row of "<no location>", SS_NONE until needed */
    VEC(struct ss_stat_row) rows;
    /* per source pass */
    uint64_t *self_src, *total_src;
    int64_t *wself_src, *wtotal_src; /* the same in weights (the measure) */
    uint8_t *on;                     /* row touched in this source */
    uint64_t *stamp;
    VEC(ss_id) touched_rows;
};

static ss_id add_row(struct work *w, const char *name, size_t len, ss_id file, uint32_t line)
{
    ss_id k = ss_strtab_intern(&w->st->keys, name, len);
    if (k == SS_NONE)
        return SS_NONE;
    if (k < w->rows.n)
        return k;
    struct ss_stat_row r;
    memset(&r, 0, sizeof r);
    r.key = k;
    r.function = SS_NONE;
    r.file = file;
    r.line = line;
    if (VEC_PUSH(w->rows, r))
        return SS_NONE;
    return k;
}

size_t ss_stats_line_key(const struct ss_model *m, ss_id loc, char *buf, size_t n, size_t *file_len)
{
    const struct ss_location *l = &m->locations.v[loc];
    if (l->line == 0 || n < 32)
        return 0;
    const char *base = "NA";
    size_t blen = 2;
    if (l->file != SS_NONE)
        ss_basename(ss_str(m, l->file), &base, &blen);
    if (blen > n - 16)
        blen = n - 16;
    *file_len = blen;
    int k = snprintf(buf, n, "%.*s#%u", (int)blen, base, l->line);
    return (size_t)k;
}

/* Row of a location's key (by line), creating it on first use; SS_NONE for a
 * location without position. */
static ss_id line_row(struct work *w, ss_id loc, int *oom)
{
    if (w->key_of[loc] != SS_NONE)
        return w->key_of[loc];
    char buf[4096];
    size_t blen, n = ss_stats_line_key(w->m, loc, buf, sizeof buf, &blen);
    if (n == 0)
        return SS_NONE;
    ss_id frow = add_row(w, buf, blen, SS_NONE, 0); /* interns the file name */
    if (frow == SS_NONE) {
        *oom = 1;
        return SS_NONE;
    }
    ss_id r = add_row(w, buf, n, frow, w->m->locations.v[loc].line);
    if (r == SS_NONE)
        *oom = 1;
    w->key_of[loc] = r;
    return r;
}

static ss_id function_row(struct work *w, ss_id loc, int *oom)
{
    ss_id fn = ss_loc_function(w->m, loc);
    if (w->key_of[fn] != SS_NONE)
        return w->key_of[fn];
    ss_id name = w->m->functions.v[fn].name;
    ss_id r = add_row(w, ss_str(w->m, name), ss_strtab_len(&w->m->strs, name), SS_NONE, 0);
    if (r == SS_NONE)
        *oom = 1;
    else
        w->rows.v[r].function = ss_function_canonical(w->m, fn);
    w->key_of[fn] = r;
    return r;
}

static ss_id no_location_row(struct work *w, int *oom)
{
    if (w->no_location == SS_NONE) {
        w->no_location = add_row(w, "<no location>", 13, SS_NONE, 0);
        if (w->no_location == SS_NONE)
            *oom = 1;
        else
            w->rows.v[w->no_location].file = w->no_location;
    }
    return w->no_location;
}

/* Credit row r with count c and weight wt (self or total). */
static int credit(struct work *w, ss_id r, int self, uint64_t c, int64_t wt)
{
    if (!w->on[r]) {
        if (VEC_PUSH(w->touched_rows, r))
            return -1;
        w->on[r] = 1;
    }
    if (self) {
        w->self_src[r] += c;
        w->wself_src[r] += wt;
    } else {
        w->total_src[r] += c;
        w->wtotal_src[r] += wt;
    }
    return 0;
}

/* Grow the per-row scratch arrays to the number of rows. */
static int sync_scratch(struct work *w, size_t *have)
{
    if (*have >= w->rows.n)
        return 0;
    size_t n = w->rows.cap;
    uint64_t *a = ss_realloc_array(w->self_src, n, sizeof *a);
    if (!a)
        return -1;
    w->self_src = a;
    a = ss_realloc_array(w->total_src, n, sizeof *a);
    if (!a)
        return -1;
    w->total_src = a;
    a = ss_realloc_array(w->stamp, n, sizeof *a);
    if (!a)
        return -1;
    w->stamp = a;
    int64_t *b = ss_realloc_array(w->wself_src, n, sizeof *b);
    if (!b)
        return -1;
    w->wself_src = b;
    b = ss_realloc_array(w->wtotal_src, n, sizeof *b);
    if (!b)
        return -1;
    w->wtotal_src = b;
    uint8_t *on = realloc(w->on, n);
    if (!on)
        return -1;
    w->on = on;
    for (size_t i = *have; i < n; i++) {
        w->self_src[i] = w->total_src[i] = w->stamp[i] = 0;
        w->wself_src[i] = w->wtotal_src[i] = 0;
        w->on[i] = 0;
    }
    *have = n;
    return 0;
}

/* Credit aggregate source s (SamplingProf): each call element's self and
 * total go to its row (by line: its position, "<no location>" without one).
 * Self adds up exactly (a sample has one leaf); a row's total is the sum of
 * its elements' totals, which counts a sample twice when two of its elements
 * (a recursive method at two lines) are in it, so it is capped at the
 * source's sample count.  Returns the source's samples (the sum of self). */
static uint64_t credit_aggs(struct work *w, ss_id s, size_t *have, int *oom)
{
    const struct ss_model *m = w->m;
    uint64_t samples = 0;
    for (size_t i = 0; i < m->aggs.n && !*oom; i++) {
        const struct ss_agg *a = &m->aggs.v[i];
        if (a->source != s || (a->self == 0 && a->total == 0))
            continue;
        samples += (uint64_t)a->self;
        ss_id r =
            w->by == SS_BY_LINE ? line_row(w, a->location, oom) : function_row(w, a->location, oom);
        if (!*oom && r == SS_NONE)
            r = w->by == SS_BY_LINE ? no_location_row(w, oom) : SS_NONE;
        if (*oom || r == SS_NONE || sync_scratch(w, have)) {
            *oom = *oom || r != SS_NONE;
            continue;
        }
        if (credit(w, r, 1, (uint64_t)a->self, a->self) ||
            credit(w, r, 0, (uint64_t)a->total, a->total)) {
            *oom = 1;
            break;
        }
    }
    for (size_t t = 0; t < w->touched_rows.n; t++) {
        ss_id r = w->touched_rows.v[t];
        if (w->total_src[r] > samples) {
            w->total_src[r] = samples;
            w->wtotal_src[r] = (int64_t)samples;
        }
    }
    return samples;
}

/* A sample's bytes from its counters' differences ds, db, dn (doubles:
 * rprof.h): allocated as R's memory="both" into sm[0], the rise of vector
 * memory (profvis) into sm[1], its fall into sm[2]. */
static inline void add_bytes(double *sm, double ds, double db, double dn)
{
    double d = 8 * (ds + db);
    sm[0] += (ds > 0 ? 8 * ds : 0) + (db > 0 ? 8 * db : 0) + (dn > 0 ? dn : 0);
    sm[d > 0 ? 1 : 2] += d > 0 ? d : -d;
}

/* Bytes per sample of source s, summed per stack into mem[3 * stack ..]
 * (add_bytes): the same numbers as ss_rprof_alloc_bytes and
 * ss_rprof_vector_change.  A model that reads its columns in sample order
 * (no value_rows) differences each sample after the first with the row
 * before, in one straight loop. */
static void sample_bytes(const struct ss_model *m, const struct ss_source *src,
                         const struct ss_rprof_vt *vt, double *mem)
{
    size_t a = src->first_sample, e = a + src->n_samples;
    const ss_id *st = m->sample_stack.v;
    for (size_t i = a; i < e && (i == a || m->value_rows); i++) {
        double *sm = mem + 3 * (size_t)st[i];
        double d = ss_rprof_vector_change(m, vt, src, i);
        sm[0] += ss_rprof_alloc_bytes(m, vt, src, i);
        sm[d > 0 ? 1 : 2] += d > 0 ? d : -d;
    }
    if (m->value_rows)
        return;
    const int64_t *sv = m->values.v[vt->small_v], *bv = m->values.v[vt->big_v],
                  *nv = m->values.v[vt->nodes];
    for (size_t i = a + 1; i < e; i++)
        add_bytes(mem + 3 * (size_t)st[i], sv ? ss_rprof_delta(sv[i], sv[i - 1]) : 0,
                  bv ? ss_rprof_delta(bv[i], bv[i - 1]) : 0,
                  nv ? ss_rprof_delta(nv[i], nv[i - 1]) : 0);
}

/* A stack's bytes (sample_bytes) to a row it reaches. */
static void credit_bytes(struct ss_stat_row *row, const double *b)
{
    row->mem_bytes += b[0];
    row->alloc_bytes += b[1];
    row->released_bytes += b[2];
}

/* Add source s's part of ss_model_totals to t from its per-stack sums, as
 * ss_model_totals adds it from its samples (the same integer sums, scaled
 * once per source: the same doubles). */
static void source_totals(const struct ss_model *m, ss_id s, const struct ss_stack_counts *sc,
                          struct ss_totals *t)
{
    const struct ss_source *src = &m->sources.v[s];
    const uint32_t *off = m->stack_off.v;
    double ivs = ss_source_interval_s(m, s), scale = ss_source_scale(m, s);
    uint64_t samples = 0, counted = 0;
    int64_t weight = 0;
    if (src->flags & SS_SRC_AGGREGATE) {
        uint64_t a = ss_agg_samples(m, s);
        t->agg_samples += a;
        t->agg_time += (double)a * ivs;
        t->agg_value += (double)a * scale;
        samples += a;
        counted += a;
        weight += (int64_t)a;
    }
    for (size_t k = 0; k < sc->n; k++) {
        ss_id st = sc->touched[k];
        samples += sc->cnt[st];
        if (off[st + 1] > off[st]) {
            counted += sc->cnt[st];
            weight += sc->val[st];
        }
    }
    t->samples += samples;
    t->counted += counted;
    t->sampling_time += (double)counted * ivs;
    t->value += (double)weight * scale;
}

/* The rows' inline marks (pprof's -top).  Returns 0 or 1 (out of memory). */
static int mark_inline(const struct ss_model *m, struct ss_stat_row *rows, size_t n)
{
    uint8_t *mark = ss_alloc_array(m->functions.n ? m->functions.n : 1, 1);
    int rc = mark ? ss_model_inline_marks(m, mark) : -1;
    for (size_t i = 0; rc > 0 && i < n; i++)
        if (rows[i].function != SS_NONE)
            rows[i].inl = mark[rows[i].function];
    free(mark);
    return rc < 0;
}

/* Credit distinct stack st (c samples, weight wt, memory bytes b) to the
 * rows of its frames, each once (stamp), self to the first.  Returns 1
 * (counted), 0 (no row: no frame, or by line no position) or -1 (out of
 * memory). */
static int credit_stack(struct work *w, ss_id st, uint64_t c, int64_t wt, const double b[3],
                        uint64_t stamp, size_t *have)
{
    const struct ss_model *m = w->m;
    size_t depth = ss_stack_depth(m, st);
    const ss_id *fr = ss_stack_frames(m, st);
    ss_id tail = m->stack_tail.v[st];
    ss_id first = SS_NONE;
    int oom = 0;
    for (size_t k = 0; k <= depth; k++) {
        ss_id r;
        if (k < depth)
            r = w->by == SS_BY_LINE ? line_row(w, fr[k], &oom) : function_row(w, fr[k], &oom);
        else if (w->by == SS_BY_LINE && tail != SS_NONE)
            r = line_row(w, tail, &oom);
        else
            break;
        if (oom || (r != SS_NONE && sync_scratch(w, have)))
            return -1;
        if (r == SS_NONE)
            continue;
        if (first == SS_NONE)
            first = r;
        if (w->stamp[r] == stamp)
            continue;
        w->stamp[r] = stamp;
        if (credit(w, r, 0, c, wt))
            return -1;
        credit_bytes(&w->rows.v[r], b);
    }
    if (first == SS_NONE && w->by == SS_BY_LINE && (depth > 0 || tail != SS_NONE)) {
        /* frames but no position at all: R's "<no location>" */
        first = no_location_row(w, &oom);
        if (oom || sync_scratch(w, have) || credit(w, first, 0, c, wt))
            return -1;
        credit_bytes(&w->rows.v[first], b);
    }
    if (first == SS_NONE)
        return 0;
    return credit(w, first, 1, c, wt) ? -1 : 1;
}

/* The end of a source: its sums into the rows it touched, scaled by its
 * interval (iv, and ivx exactly). */
static void flush_source(struct work *w, double iv, double ivx)
{
    for (size_t t = 0; t < w->touched_rows.n; t++) {
        ss_id r = w->touched_rows.v[t];
        struct ss_stat_row *row = &w->rows.v[r];
        row->self_n += w->self_src[r];
        row->total_n += w->total_src[r];
        row->self_v += (double)w->wself_src[r] * iv;
        row->total_v += (double)w->wtotal_src[r] * iv;
        row->self_x += (double)w->wself_src[r] * ivx;
        row->total_x += (double)w->wtotal_src[r] * ivx;
        w->self_src[r] = w->total_src[r] = 0;
        w->wself_src[r] = w->wtotal_src[r] = 0;
        w->on[r] = 0;
    }
}

static void work_free(struct work *w)
{
    free(w->key_of);
    VEC_FREE(w->touched_rows);
    free(w->self_src);
    free(w->total_src);
    free(w->wself_src);
    free(w->wtotal_src);
    free(w->on);
    free(w->stamp);
}

/* One source's samples into the rows (mem: per stack, memory bytes, or
 * NULL).  Returns 0 or -1 (out of memory). */
static int source_rows(struct work *w, ss_id s, struct ss_stack_counts *sc, double *mem,
                       const struct ss_rprof_vt *vt, uint64_t *stamp, size_t *have)
{
    const struct ss_model *m = w->m;
    struct ss_stats *out = w->st;
    const struct ss_source *src = &m->sources.v[s];
    double iv = ss_source_scale(m, s), ivx = ss_source_exact(m, s);
    if (ss_stack_counts_source(sc, m, s))
        return -1;
    source_totals(m, s, sc, &out->totals);
    out->samples_total += src->n_samples;
    if (mem && (src->flags & SS_SRC_MEMORY))
        sample_bytes(m, src, vt, mem);
    w->touched_rows.n = 0;
    uint64_t counted = 0;
    int64_t weight = 0;
    int oom = 0;
    if (src->flags & SS_SRC_AGGREGATE) {
        counted = credit_aggs(w, s, have, &oom);
        weight = (int64_t)counted;
        out->samples_total += counted;
        out->agg_samples += counted;
        out->agg_value += (double)counted * iv;
    }
    for (size_t t = 0; !oom && t < sc->n; t++) {
        ss_id st = sc->touched[t];
        double b[3] = {0, 0, 0};
        if (mem) {
            memcpy(b, mem + 3 * (size_t)st, sizeof b);
            memset(mem + 3 * (size_t)st, 0, sizeof b);
        }
        int got = credit_stack(w, st, sc->cnt[st], sc->val[st], b, ++*stamp, have);
        oom = got < 0;
        if (got > 0) {
            counted += sc->cnt[st];
            weight += sc->val[st];
        }
    }
    if (oom)
        return -1;
    flush_source(w, iv, ivx);
    out->samples_counted += counted;
    out->value_total += (double)weight * iv;
    return 0;
}

int ss_stats_compute(const struct ss_model *m, enum ss_stats_key by, int memory,
                     struct ss_stats *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    ss_strtab_init(&out->keys);
    struct work w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.st = out;
    w.by = by;
    w.no_location = SS_NONE;
    size_t nkeyed = by == SS_BY_LINE ? m->locations.n : m->functions.n;
    size_t nstacks = ss_model_nstacks(m);
    struct ss_rprof_vt vt;
    int use_mem = memory && ss_rprof_value_types(m, &vt) == 0;
    out->has_memory = memory;
    ss_units_of(m, &out->units);
    ss_source_base_label(m, "", out->unnamed, sizeof out->unnamed);
    w.key_of = ss_alloc_array(nkeyed, sizeof *w.key_of);
    struct ss_stack_counts sc;
    int sc_fail = ss_stack_counts_init(&sc, m);
    double *mem = use_mem ? ss_calloc_array(nstacks, 3 * sizeof *mem) : NULL;
    size_t have = 0;
    int oom = !w.key_of || sc_fail || (use_mem && !mem);
    uint64_t stamp = 0;
    for (size_t i = 0; !oom && i < nkeyed; i++)
        w.key_of[i] = SS_NONE;
    out->totals.rows = m->sample_stack.n;
    for (size_t s = 0; !oom && s < m->sources.n; s++)
        oom = source_rows(&w, (ss_id)s, &sc, mem, &vt, &stamp, &have) != 0;
    ss_stack_counts_free(&sc);
    free(mem);
    work_free(&w);
    if (!oom && by == SS_BY_FUNCTION)
        oom = mark_inline(m, w.rows.v, w.rows.n);
    if (oom) {
        VEC_FREE(w.rows);
        ss_strtab_free(&out->keys);
        return ss_nomem(err, "statistics");
    }
    /* By line, file names were interned as keys too; keep only real rows,
     * and only those the measure weighs (as pprof -top: a function whose
     * memory was all freed has no inuse_space row). */
    size_t n = 0;
    for (size_t i = 0; i < w.rows.n; i++)
        if (!ss_double_eq(w.rows.v[i].total_x, 0) || !ss_double_eq(w.rows.v[i].self_x, 0))
            w.rows.v[n++] = w.rows.v[i];
    out->rows = w.rows.v;
    out->n = n;
    return 0;
}

void ss_stats_free(struct ss_stats *st)
{
    free(st->rows);
    ss_strtab_free(&st->keys);
    memset(st, 0, sizeof *st);
}

/* The sorts' comparators get the table of the rows' names (ss_sort's
 * context). */
static int cmp_name(const struct ss_strtab *keys, const struct ss_stat_row *a,
                    const struct ss_stat_row *b)
{
    return strcmp(ss_strtab_get(keys, a->key), ss_strtab_get(keys, b->key));
}

static int cmp_dbl_desc(double a, double b)
{
    return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_self(const void *pa, const void *pb, void *keys)
{
    const struct ss_stat_row *a = pa, *b = pb;
    int c = cmp_dbl_desc(a->self_x, b->self_x);
    if (!c)
        c = cmp_dbl_desc(a->total_x, b->total_x);
    return c ? c : cmp_name(keys, a, b);
}

static int cmp_total(const void *pa, const void *pb, void *keys)
{
    const struct ss_stat_row *a = pa, *b = pb;
    int c = cmp_dbl_desc(a->total_x, b->total_x);
    if (!c)
        c = cmp_dbl_desc(a->self_x, b->self_x);
    return c ? c : cmp_name(keys, a, b);
}

static int cmp_line(const void *pa, const void *pb, void *keys)
{
    const struct ss_stat_row *a = pa, *b = pb;
    /* rows without a file (function rows, "<no location>") order by name */
    ss_id fa = a->file != SS_NONE ? a->file : a->key, fb = b->file != SS_NONE ? b->file : b->key;
    int c = strcmp(ss_strtab_get(keys, fa), ss_strtab_get(keys, fb));
    if (!c)
        c = a->line < b->line ? -1 : a->line > b->line;
    return c ? c : cmp_name(keys, a, b);
}

int ss_stats_sort_self(struct ss_stats *st)
{
    return ss_sort(st->rows, st->n, sizeof *st->rows, cmp_self, &st->keys);
}

int ss_stats_sort_total(struct ss_stats *st)
{
    return ss_sort(st->rows, st->n, sizeof *st->rows, cmp_total, &st->keys);
}

int ss_stats_sort_line(struct ss_stats *st)
{
    return ss_sort(st->rows, st->n, sizeof *st->rows, cmp_line, &st->keys);
}
