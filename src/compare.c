/* compare.c - comparing two profiles (see compare.h). */
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stacks.h"

void ss_compare_init(struct ss_compare *c, const struct ss_model *base, const struct ss_model *cur,
                     int normalize)
{
    memset(c, 0, sizeof *c);
    c->base = base;
    c->cur = cur;
    ss_units_of(cur, &c->units);
    const struct ss_measure *mb = ss_model_measure(base), *mn = ss_model_measure(cur);
    c->conv = 1;
    /* the same measure name in other raw units (nanoseconds and seconds) */
    if (mb->kind != SS_MEASURE_TIME && mn->kind != SS_MEASURE_TIME &&
        mb->unit_kind == mn->unit_kind && mb->unit_scale > 0 && mn->unit_scale > 0)
        c->conv = mb->unit_scale / mn->unit_scale;
    struct ss_totals tb, tn;
    ss_model_totals(base, &tb);
    ss_model_totals(cur, &tn);
    c->total_base = tb.value * c->conv;
    c->total_new = tn.value;
    c->scale = 1;
    c->normalized = normalize;
    if (normalize && c->total_base != 0)
        c->scale = c->total_new / c->total_base;
}

int ss_compare_check_measure(struct ss_model *base, struct ss_model *cur, const char *base_name,
                             int chosen, struct ss_error *err)
{
    const char *name = ss_model_measure_name(cur);
    int rc = ss_model_set_measure(base, name, err);
    static const char *const fallback[] = {"time", "samples"};
    for (size_t k = 0; rc == SS_EUSAGE && !chosen && k < 2; k++) {
        struct ss_error e2;
        if (ss_model_set_measure(base, fallback[k], &e2) == 0 &&
            ss_model_set_measure(cur, fallback[k], &e2) == 0)
            return 0;
    }
    if (rc == SS_EUSAGE)
        return ss_fail(err, SS_EUSAGE,
                       "--base %s has no '%s' measure to compare with (choose one both "
                       "profiles have with --value; `stackscope check` lists them)",
                       base_name, name);
    return rc;
}

/* ---- functions and lines ---------------------------------------------------- */

/* Row of key `name` in out (created with zeros on first use); SS_NONE: OOM. */
static ss_id cmp_row(struct ss_cmp_stats *out, size_t *cap, const char *name, size_t len)
{
    ss_id k = ss_strtab_intern(&out->keys, name, len);
    if (k == SS_NONE)
        return SS_NONE;
    /* keys also hold file names (by line): rows are indexed by key id */
    while (out->n <= k) {
        if (out->n == *cap) {
            size_t nc = *cap ? *cap * 2 : 64;
            struct ss_cmp_row *r = realloc(out->rows, nc * sizeof *r);
            if (!r)
                return SS_NONE;
            out->rows = r;
            *cap = nc;
        }
        struct ss_cmp_row *r = &out->rows[out->n];
        memset(r, 0, sizeof *r);
        r->key = (ss_id)out->n;
        r->file = SS_NONE;
        out->n++;
    }
    return k;
}

static int join_side(const struct ss_compare *c, struct ss_cmp_stats *out, size_t *cap,
                     const struct ss_stats *st, int base, uint8_t **used, size_t *used_n)
{
    double f = base ? c->conv * c->scale : 1;
    for (size_t i = 0; i < st->n; i++) {
        const struct ss_stat_row *sr = &st->rows[i];
        const char *name = ss_strtab_get(&st->keys, sr->key);
        ss_id r = cmp_row(out, cap, name, ss_strtab_len(&st->keys, sr->key));
        if (r == SS_NONE)
            return -1;
        ss_id file = SS_NONE;
        if (sr->file != SS_NONE) {
            file = ss_strtab_intern(&out->keys, ss_strtab_get(&st->keys, sr->file),
                                    ss_strtab_len(&st->keys, sr->file));
            if (file == SS_NONE)
                return -1;
        }
        if (*used_n <= r) {
            size_t nn = (size_t)r + 1 > *used_n * 2 ? (size_t)r + 1 : *used_n * 2;
            uint8_t *u = realloc(*used, nn);
            if (!u)
                return -1;
            memset(u + *used_n, 0, nn - *used_n);
            *used = u;
            *used_n = nn;
        }
        (*used)[r] = 1;
        struct ss_cmp_row *row = &out->rows[r];
        row->file = file;
        row->line = sr->line;
        if (base) {
            row->self_b += sr->self_v * f;
            row->total_b += sr->total_v * f;
            row->self_bx += sr->self_x * f;
            row->total_bx += sr->total_x * f;
        } else {
            row->self_n += sr->self_v;
            row->total_n += sr->total_v;
            row->self_nx += sr->self_x;
            row->total_nx += sr->total_x;
        }
    }
    return 0;
}

int ss_compare_stats(const struct ss_compare *c, enum ss_stats_key by, struct ss_cmp_stats *out,
                     struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    ss_strtab_init(&out->keys);
    out->units = c->units;
    struct ss_stats sb, sn;
    int rc = ss_stats_compute(c->base, by, 0, &sb, err);
    if (rc)
        return rc;
    rc = ss_stats_compute(c->cur, by, 0, &sn, err);
    if (rc) {
        ss_stats_free(&sb);
        return rc;
    }
    size_t cap = 0, used_n = 0;
    uint8_t *used = NULL;
    if (join_side(c, out, &cap, &sb, 1, &used, &used_n) ||
        join_side(c, out, &cap, &sn, 0, &used, &used_n))
        rc = ss_nomem(err, "comparison");
    out->total_b = sb.value_total * c->conv * c->scale;
    out->total_n = sn.value_total;
    ss_stats_free(&sb);
    ss_stats_free(&sn);
    /* keep the rows of keys (file names interned for ordering are not rows) */
    size_t n = 0;
    for (size_t i = 0; !rc && i < out->n; i++)
        if (i < used_n && used[i])
            out->rows[n++] = out->rows[i];
    out->n = n;
    free(used);
    if (rc)
        ss_cmp_stats_free(out);
    return rc;
}

void ss_cmp_stats_free(struct ss_cmp_stats *s)
{
    free(s->rows);
    ss_strtab_free(&s->keys);
    memset(s, 0, sizeof *s);
}

static const struct ss_strtab *sort_keys; /* qsort context */

static int cmp_desc(double a, double b)
{
    return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_name(ss_id a, ss_id b)
{
    return strcmp(ss_strtab_get(sort_keys, a), ss_strtab_get(sort_keys, b));
}

static int by_self(const void *pa, const void *pb)
{
    const struct ss_cmp_row *a = pa, *b = pb;
    int r = cmp_desc(a->self_nx - a->self_bx, b->self_nx - b->self_bx);
    if (!r)
        r = cmp_desc(a->total_nx - a->total_bx, b->total_nx - b->total_bx);
    return r ? r : cmp_name(a->key, b->key);
}

static int by_total(const void *pa, const void *pb)
{
    const struct ss_cmp_row *a = pa, *b = pb;
    int r = cmp_desc(a->total_nx - a->total_bx, b->total_nx - b->total_bx);
    if (!r)
        r = cmp_desc(a->self_nx - a->self_bx, b->self_nx - b->self_bx);
    return r ? r : cmp_name(a->key, b->key);
}

static int by_line(const void *pa, const void *pb)
{
    const struct ss_cmp_row *a = pa, *b = pb;
    ss_id fa = a->file != SS_NONE ? a->file : a->key, fb = b->file != SS_NONE ? b->file : b->key;
    int r = cmp_name(fa, fb);
    if (!r)
        r = a->line < b->line ? -1 : a->line > b->line;
    return r ? r : cmp_name(a->key, b->key);
}

static void sort_rows(struct ss_cmp_stats *s, int (*cmp)(const void *, const void *))
{
    sort_keys = &s->keys;
    if (s->n > 1)
        qsort(s->rows, s->n, sizeof *s->rows, cmp);
}

void ss_cmp_sort_self(struct ss_cmp_stats *s)
{
    sort_rows(s, by_self);
}
void ss_cmp_sort_total(struct ss_cmp_stats *s)
{
    sort_rows(s, by_total);
}
void ss_cmp_sort_line(struct ss_cmp_stats *s)
{
    sort_rows(s, by_line);
}

/* ---- stacks ------------------------------------------------------------------- */

static int stacks_side(const struct ss_compare *c, struct ss_cmp_stacks *out, size_t *cap,
                       const struct ss_model *m, int base, char **buf, size_t *bufn)
{
    struct ss_stacks st;
    struct ss_error err;
    if (ss_stacks_compute(m, &st, &err))
        return -1;
    double f = base ? c->conv * c->scale : 1;
    int rc = 0;
    for (size_t i = 0; i < st.n && !rc; i++) {
        const struct ss_stack_row *r = &st.rows[i];
        size_t need = ss_stack_text(m, &st, r, ";", *buf, *bufn) + 1;
        if (need > *bufn) {
            char *nb = realloc(*buf, need);
            if (!nb) {
                rc = -1;
                break;
            }
            *buf = nb;
            *bufn = need;
            ss_stack_text(m, &st, r, ";", *buf, *bufn);
        }
        ss_id k = ss_strtab_intern(&out->keys, *buf, need - 1);
        if (k == SS_NONE) {
            rc = -1;
            break;
        }
        while (!rc && out->n <= k) {
            if (out->n == *cap) {
                size_t nc = *cap ? *cap * 2 : 64;
                struct ss_cmp_stack *ns = realloc(out->rows, nc * sizeof *ns);
                if (!ns) {
                    rc = -1;
                    break;
                }
                out->rows = ns;
                *cap = nc;
            }
            struct ss_cmp_stack *s = &out->rows[out->n];
            memset(s, 0, sizeof *s);
            s->key = (ss_id)out->n++;
        }
        if (rc)
            break;
        out->rows[k].depth = r->depth;
        if (base) {
            out->rows[k].base += r->value * f;
            out->rows[k].base_x += r->value_x * f;
        } else {
            out->rows[k].cur += r->value;
            out->rows[k].cur_x += r->value_x;
        }
    }
    if (base)
        out->total_b = st.total_v * f;
    else
        out->total_n = st.total_v;
    ss_stacks_free(&st);
    return rc;
}

static int by_stack_delta(const void *pa, const void *pb)
{
    const struct ss_cmp_stack *a = pa, *b = pb;
    int r = cmp_desc(a->cur_x - a->base_x, b->cur_x - b->base_x);
    return r ? r : cmp_name(a->key, b->key);
}

int ss_compare_stacks(const struct ss_compare *c, struct ss_cmp_stacks *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    ss_strtab_init(&out->keys);
    out->units = c->units;
    size_t cap = 0, bufn = 0;
    char *buf = NULL;
    if (stacks_side(c, out, &cap, c->base, 1, &buf, &bufn) ||
        stacks_side(c, out, &cap, c->cur, 0, &buf, &bufn)) {
        free(buf);
        ss_cmp_stacks_free(out);
        return ss_nomem(err, "comparison of stacks");
    }
    free(buf);
    sort_keys = &out->keys;
    if (out->n > 1)
        qsort(out->rows, out->n, sizeof *out->rows, by_stack_delta);
    return 0;
}

void ss_cmp_stacks_free(struct ss_cmp_stacks *s)
{
    free(s->rows);
    ss_strtab_free(&s->keys);
    memset(s, 0, sizeof *s);
}

/* ---- one model from two, and two from one ---------------------------------- */

int ss_model_is_comparison(const struct ss_model *m)
{
    for (size_t s = 0; s < m->sources.n; s++)
        if (m->sources.v[s].flags & SS_SRC_BASE)
            return 1;
    return 0;
}

/* The string `id` of model src interned in dst (SS_NONE stays SS_NONE). */
static ss_id xstr(struct ss_model *dst, const struct ss_model *src, ss_id id, int *oom)
{
    if (id == SS_NONE)
        return SS_NONE;
    ss_id r = ss_model_intern(dst, ss_str(src, id), ss_strtab_len(&src->strs, id));
    if (r == SS_NONE)
        *oom = 1;
    return r;
}

/* Append to dst the sources of src whose SS_SRC_BASE flag is `want_base`
 * (-1: every source), with their samples, stacks, functions, locations,
 * value columns, meta and aggregates; each copied source's flags get `set`
 * and lose `clear`.  Returns 0 or -1 (out of memory). */
static int copy_sources(struct ss_model *dst, const struct ss_model *src, int want_base,
                        uint32_t set, uint32_t clear)
{
    int oom = 0;
    size_t nvt = src->value_types.n, nfn = src->functions.n, nloc = src->locations.n,
           nst = ss_model_nstacks(src);
    ss_id *vt = malloc((nvt ? nvt : 1) * sizeof *vt);
    ss_id *fn = malloc((nfn ? nfn : 1) * sizeof *fn);
    ss_id *loc = malloc((nloc ? nloc : 1) * sizeof *loc);
    ss_id *stk = malloc((nst ? nst : 1) * sizeof *stk);
    ss_id *frames = NULL;
    int64_t *vals = NULL;
    oom = !vt || !fn || !loc || !stk;
    for (size_t t = 0; !oom && t < nvt; t++) {
        vt[t] = ss_model_value_type(dst, ss_str(src, src->value_types.v[t].type),
                                    ss_str(src, src->value_types.v[t].unit));
        oom = vt[t] == SS_NONE;
    }
    for (size_t f = 0; !oom && f < nfn; f++) {
        const struct ss_function *sf = &src->functions.v[f];
        ss_id name = xstr(dst, src, sf->name, &oom), sys = xstr(dst, src, sf->system_name, &oom),
              file = xstr(dst, src, sf->filename, &oom);
        if (!oom)
            fn[f] = ss_model_function(dst, name, sys, file, sf->start_line);
        oom = oom || fn[f] == SS_NONE;
    }
    for (size_t l = 0; !oom && l < nloc; l++) {
        const struct ss_location *sl = &src->locations.v[l];
        ss_id file = xstr(dst, src, sl->file, &oom);
        if (!oom)
            loc[l] = ss_model_location(dst, sl->function == SS_NONE ? SS_NONE : fn[sl->function],
                                       file, sl->line);
        oom = oom || loc[l] == SS_NONE;
    }
    size_t maxd = 1;
    for (size_t s = 0; s < nst; s++)
        if (ss_stack_depth(src, (ss_id)s) > maxd)
            maxd = ss_stack_depth(src, (ss_id)s);
    frames = malloc(maxd * sizeof *frames);
    oom = oom || !frames;
    for (size_t s = 0; !oom && s < nst; s++) {
        size_t d = ss_stack_depth(src, (ss_id)s);
        const ss_id *fr = ss_stack_frames(src, (ss_id)s);
        for (size_t k = 0; k < d; k++)
            frames[k] = loc[fr[k]];
        ss_id tail = src->stack_tail.v[s];
        stk[s] = ss_model_stack(dst, frames, d, tail == SS_NONE ? SS_NONE : loc[tail]);
        oom = stk[s] == SS_NONE;
    }
    for (size_t s = 0; !oom && s < src->sources.n; s++) {
        const struct ss_source *ss = &src->sources.v[s];
        if (want_base >= 0 && !!(ss->flags & SS_SRC_BASE) != want_base)
            continue;
        struct ss_source ns = *ss;
        ns.type = xstr(dst, src, ss->type, &oom);
        ns.uri = xstr(dst, src, ss->uri, &oom);
        ns.flags = (ss->flags | set) & ~clear;
        ns.values = 0;
        ns.default_column = ss->default_column ? vt[ss->default_column - 1] + 1 : 0;
        ns.time_column = ss->time_column ? vt[ss->time_column - 1] + 1 : 0;
        if (oom)
            break;
        ss_id id = ss_model_add_source(dst, &ns);
        if (id == SS_NONE) {
            oom = 1;
            break;
        }
        for (size_t t = 0; t < nvt && t < SS_SOURCE_VALUE_BITS; t++)
            if (ss->values >> t & 1)
                ss_model_source_value(dst, id, vt[t], 0);
        for (size_t i = 0; !oom && i < src->meta.n; i++) {
            const struct ss_meta *me = &src->meta.v[i];
            if (me->source != s)
                continue;
            struct ss_meta nm = {id, xstr(dst, src, me->key, &oom),
                                 xstr(dst, src, me->value, &oom)};
            oom = oom || VEC_PUSH(dst->meta, nm);
        }
        for (size_t i = 0; !oom && i < src->aggs.n; i++) {
            struct ss_agg a = src->aggs.v[i];
            if (a.source != s)
                continue;
            a.source = id;
            a.location = loc[a.location];
            oom = VEC_PUSH(dst->aggs, a) != 0;
        }
        for (size_t i = 0; !oom && i < src->edges.n; i++) {
            struct ss_agg_edge e = src->edges.v[i];
            if (e.source != s)
                continue;
            e.source = id;
            e.caller = e.caller == SS_NONE ? SS_NONE : loc[e.caller];
            e.callee = loc[e.callee];
            oom = VEC_PUSH(dst->edges, e) != 0;
        }
        free(vals);
        vals = calloc(dst->value_types.n, sizeof *vals);
        oom = oom || !vals;
        for (size_t i = ss->first_sample; !oom && i < ss->first_sample + ss->n_samples; i++) {
            for (size_t t = 0; t < nvt; t++)
                vals[vt[t]] = src->values.v[t] ? src->values.v[t][i] : t == SS_VT_COUNT;
            oom = ss_model_add_sample(dst, stk[src->sample_stack.v[i]], vals) != 0;
        }
    }
    free(vt);
    free(fn);
    free(loc);
    free(stk);
    free(frames);
    free(vals);
    return oom ? -1 : 0;
}

int ss_compare_merge(const struct ss_compare *c, struct ss_model *out, struct ss_error *err)
{
    int rc = ss_model_init(out, err);
    if (rc)
        return rc;
    uint32_t set = SS_SRC_BASE | (c->normalized ? SS_SRC_NORMALIZE : 0);
    if (copy_sources(out, c->cur, -1, 0, SS_SRC_BASE | SS_SRC_NORMALIZE) ||
        copy_sources(out, c->base, -1, set, 0)) {
        ss_model_free(out);
        return ss_nomem(err, "comparison");
    }
    ss_model_seal(out);
    struct ss_error e2;
    ss_error_clear(&e2);
    if (ss_model_set_measure(out, ss_model_measure_name(c->cur), &e2) == SS_ENOMEM) {
        ss_model_free(out);
        return ss_nomem(err, "comparison");
    }
    return 0;
}

int ss_compare_split(const struct ss_model *m, struct ss_model *base, struct ss_model *cur,
                     struct ss_error *err)
{
    int rc = ss_model_init(cur, err);
    if (rc)
        return rc;
    rc = ss_model_init(base, err);
    if (rc) {
        ss_model_free(cur);
        return rc;
    }
    if (copy_sources(cur, m, 0, 0, 0) || copy_sources(base, m, 1, 0, SS_SRC_BASE)) {
        ss_model_free(cur);
        ss_model_free(base);
        return ss_nomem(err, "comparison");
    }
    for (size_t i = 0; i < m->warnings.n; i++)
        ss_model_warn(cur, "%s", m->warnings.v[i]);
    ss_model_seal(cur);
    ss_model_seal(base);
    return 0;
}
