/* stacks.c - distinct function stacks (see stacks.h). */
#include "stacks.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hashtab.h"
#include "sort.h"
#include "vec.h"
#include "num.h"

/* Rows are found by their function sequence through an ss_idset
 * (hashtab.h): a row's key is fns[first .. first + depth). */
struct group_ctx {
    struct ss_stack_row *const *rows;
    ss_id *const *fns;
};

struct seq_key {
    const ss_id *seq;
    size_t d;
};

static int seq_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct group_ctx *g = ctx;
    const struct seq_key *k = key;
    const struct ss_stack_row *r = &(*g->rows)[id];
    return r->depth == k->d && memcmp(*g->fns + r->first, k->seq, k->d * sizeof(ss_id)) == 0;
}

/* Rows of stacks `s` of model `m`, by count, time, then names root first. */
struct by_count {
    const struct ss_model *m;
    const struct ss_stacks *s;
};

static int cmp_names(const struct by_count *o, const struct ss_stack_row *a,
                     const struct ss_stack_row *b)
{
    const ss_id *fa = o->s->fns + a->first, *fb = o->s->fns + b->first;
    for (uint32_t k = 0; k < a->depth && k < b->depth; k++) {
        if (fa[k] == fb[k])
            continue;
        int c = strcmp(ss_function_name(o->m, fa[k]), ss_function_name(o->m, fb[k]));
        if (c)
            return c;
        return fa[k] < fb[k] ? -1 : 1;
    }
    return a->depth < b->depth ? -1 : a->depth > b->depth;
}

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
    const struct ss_stack_row *a = pa, *b = pb;
    /* the measure's value first (time or samples: the count's order) */
    if (a->value_x > b->value_x)
        return -1;
    if (a->value_x < b->value_x)
        return 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return cmp_names(ctx, a, b);
}

/* The rows a sample reached (others' stacks were only in other rows),
 * sorted, into out, which owns rows and fns from here. */
static int keep_rows(const struct ss_model *m, struct ss_stacks *out, struct ss_stack_row *rows,
                     size_t nrows, ss_id *fns, struct ss_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < nrows; i++)
        if (rows[i].count || !ss_double_eq(rows[i].value_x, 0))
            rows[n++] = rows[i];
    out->rows = rows;
    out->n = n;
    out->fns = fns;
    struct by_count order = {m, out};
    if (ss_sort(out->rows, n, sizeof *out->rows, cmp_rows, &order)) {
        ss_stacks_free(out);
        return ss_nomem(err, "stacks");
    }
    return 0;
}

int ss_stacks_compute(const struct ss_model *m, struct ss_stacks *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    size_t ns = ss_model_nstacks(m);
    uint64_t *cnt = ss_calloc_array(ns, sizeof *cnt);
    int64_t *wsum = ss_calloc_array(ns, sizeof *wsum);
    uint8_t *on = calloc(ns ? ns : 1, 1);
    uint32_t *row_of = ss_alloc_array(ns, sizeof *row_of);
    struct ss_idset groups = {0};
    VEC(struct ss_stack_row) rows = {0};
    VEC(ss_id) fns = {0};
    VEC(ss_id) seq = {0};
    VEC(uint32_t) touched = {0};
    struct ss_stack_counts sc;
    struct group_ctx gctx = {&rows.v, &fns.v};
    int oom = ss_stack_counts_init(&sc, m) || !cnt || !wsum || !on || !row_of ||
              ss_idset_reserve(&groups, ns);
    /* Group model stacks by function sequence, once per stack. */
    for (size_t s = 0; !oom && s < ns; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        row_of[s] = UINT32_MAX;
        if (d == 0)
            continue;
        const ss_id *fr = ss_stack_frames(m, (ss_id)s);
        seq.n = 0;
        if (VEC_RESERVE(seq, d)) {
            oom = 1;
            break;
        }
        for (size_t k = 0; k < d; k++)
            seq.v[k] = ss_function_canonical(m, ss_loc_function(m, fr[d - 1 - k]));
        seq.n = d;
        uint64_t h = ss_hash(seq.v, d * sizeof(ss_id));
        struct seq_key key = {seq.v, d};
        uint32_t next = (uint32_t)rows.n;
        uint32_t row = ss_idset_intern(&groups, h, seq_eq, &gctx, &key, next);
        if (row == next) {
            struct ss_stack_row r;
            memset(&r, 0, sizeof r);
            r.first = fns.n;
            r.depth = (uint32_t)d;
            r.root = seq.v[0];
            r.leaf = seq.v[d - 1];
            if (VEC_RESERVE(fns, fns.n + d) || VEC_PUSH(rows, r))
                row = SS_NONE;
            else {
                memcpy(fns.v + fns.n, seq.v, d * sizeof(ss_id));
                fns.n += d;
            }
        }
        if (row == SS_NONE) {
            oom = 1;
            break;
        }
        row_of[s] = row;
    }
    /* Count per source, so time is count x interval exactly. */
    for (size_t src = 0; !oom && src < m->sources.n; src++) {
        double iv = ss_source_scale(m, src), ivx = ss_source_exact(m, src);
        touched.n = 0;
        if (ss_stack_counts_source(&sc, m, (ss_id)src)) {
            oom = 1;
            break;
        }
        /* stacks that differ only in positions share a row: add them up */
        for (size_t t = 0; t < sc.n; t++) {
            uint32_t r = row_of[sc.touched[t]];
            if (r == UINT32_MAX)
                continue;
            if (!on[r]) {
                if (VEC_PUSH(touched, r)) {
                    oom = 1;
                    break;
                }
                on[r] = 1;
            }
            cnt[r] += sc.cnt[sc.touched[t]];
            wsum[r] += sc.val[sc.touched[t]];
        }
        for (size_t t = 0; !oom && t < touched.n; t++) {
            struct ss_stack_row *r = &rows.v[touched.v[t]];
            uint64_t c = cnt[touched.v[t]];
            int64_t wt = wsum[touched.v[t]];
            cnt[touched.v[t]] = 0;
            wsum[touched.v[t]] = 0;
            on[touched.v[t]] = 0;
            r->count += c;
            r->value += (double)wt * iv;
            r->value_x += (double)wt * ivx;
            out->total_count += c;
            out->total_v += (double)wt * iv;
        }
    }
    free(cnt);
    free(wsum);
    free(on);
    ss_stack_counts_free(&sc);
    free(row_of);
    ss_idset_free(&groups);
    VEC_FREE(seq);
    VEC_FREE(touched);
    if (oom) {
        VEC_FREE(rows);
        VEC_FREE(fns);
        return ss_nomem(err, "stacks");
    }
    return keep_rows(m, out, rows.v, rows.n, fns.v, err);
}

void ss_stacks_free(struct ss_stacks *s)
{
    free(s->rows);
    free(s->fns);
    memset(s, 0, sizeof *s);
}

static void append(char *buf, size_t n, size_t *len, const char *s, size_t l)
{
    if (*len + 1 < n) {
        size_t room = n - 1 - *len;
        memcpy(buf + *len, s, l < room ? l : room);
    }
    *len += l;
}

size_t ss_stack_text(const struct ss_model *m, const struct ss_stacks *s,
                     const struct ss_stack_row *r, const char *sep, char *buf, size_t n)
{
    size_t len = 0, seplen = strlen(sep);
    for (uint32_t k = 0; k < r->depth; k++) {
        const char *name = ss_str(m, m->functions.v[s->fns[r->first + k]].name);
        if (k)
            append(buf, n, &len, sep, seplen);
        append(buf, n, &len, name, strlen(name));
    }
    if (n)
        buf[len < n ? len : n - 1] = '\0';
    return len;
}
