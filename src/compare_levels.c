/* compare_levels.c - the level tables of a comparison (see compare.h):
 * levels joined by level number, run lengths by (function name, level),
 * and the timeline of both sides at one level. */
#include "compare.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "levels.h"
#include "runs.h"
#include "sort.h"
#include "timeline.h"
#include "vec.h"

/* ---- levels ------------------------------------------------------------------ */

static ss_id name_key(struct ss_strtab *keys, const struct ss_model *m, ss_id fn, int *oom)
{
    if (fn == SS_NONE)
        return SS_NONE;
    const char *s = ss_function_name(m, fn);
    ss_id k = ss_strtab_intern(keys, s, strlen(s));
    if (k == SS_NONE)
        *oom = 1;
    return k;
}

int ss_compare_levels(const struct ss_compare *c, struct ss_cmp_levels *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    ss_strtab_init(&out->keys);
    out->units = c->units;
    struct ss_level_row *rb = NULL, *rn = NULL;
    size_t nb = 0, nn = 0;
    int rc = ss_levels_compute(c->base, &rb, &nb, err);
    if (!rc)
        rc = ss_levels_compute(c->cur, &rn, &nn, err);
    size_t n = nb > nn ? nb : nn;
    if (!rc && n && !(out->rows = ss_calloc_array(n, sizeof *out->rows)))
        rc = ss_nomem(err, "levels comparison");
    double f = c->conv * c->scale;
    int oom = 0;
    for (size_t i = 0; !rc && i < n; i++) {
        struct ss_cmp_level *r = &out->rows[i];
        r->level = (uint32_t)i + 1;
        r->top_b = r->top_n = SS_NONE;
        if (i < nb) {
            r->samples_b = rb[i].samples;
            r->value_b = rb[i].value * f;
            r->distinct_b = rb[i].distinct;
            r->top_b = name_key(&out->keys, c->base, rb[i].top, &oom);
        }
        if (i < nn) {
            r->samples_n = rn[i].samples;
            r->value_n = rn[i].value;
            r->distinct_n = rn[i].distinct;
            r->top_n = name_key(&out->keys, c->cur, rn[i].top, &oom);
        }
    }
    if (!rc && oom)
        rc = ss_nomem(err, "levels comparison");
    out->n = rc ? 0 : n;
    free(rb);
    free(rn);
    if (rc)
        ss_cmp_levels_free(out);
    return rc;
}

void ss_cmp_levels_free(struct ss_cmp_levels *l)
{
    free(l->rows);
    ss_strtab_free(&l->keys);
    memset(l, 0, sizeof *l);
}

/* ---- run lengths --------------------------------------------------------------- */

/* Row of (name, level) in out, created with zeros on first use (rows are
 * indexed by the id of the key "LEVEL NAME" in `index`); SS_NONE: OOM. */
static size_t run_row(struct ss_cmp_runs *out, struct ss_strtab *index, size_t *cap,
                      const char *name, uint32_t level)
{
    size_t len = strlen(name);
    char *key = malloc(len + 16);
    if (!key)
        return SIZE_MAX;
    int k = snprintf(key, len + 16, "%u ", level);
    memcpy(key + k, name, len);
    int fresh;
    size_t row = ss_cmp_join_row(index, key, (size_t)k + len, (void **)&out->rows, out->n, cap,
                                 sizeof *out->rows, &fresh);
    free(key);
    if (row == SIZE_MAX || !fresh)
        return row;
    struct ss_cmp_run *r = &out->rows[row];
    r->name = ss_strtab_intern(&out->keys, name, len);
    r->level = level;
    if (r->name == SS_NONE)
        return SIZE_MAX;
    return out->n++;
}

static int runs_side(const struct ss_compare *c, int base, uint32_t level, const char *function,
                     struct ss_cmp_runs *out, struct ss_strtab *index, size_t *cap,
                     struct ss_error *err)
{
    const struct ss_model *m = base ? c->base : c->cur;
    struct ss_run_row *rows;
    size_t n;
    int rc = ss_runs_compute(m, level, &rows, &n, err);
    if (rc)
        return rc;
    double f = base ? c->conv * c->scale : 1;
    for (size_t i = 0; i < n; i++) {
        const char *name = ss_function_name(m, rows[i].function);
        if (function && strcmp(name, function))
            continue;
        size_t k = run_row(out, index, cap, name, rows[i].level);
        if (k == SIZE_MAX) {
            free(rows);
            return ss_nomem(err, "run-length comparison");
        }
        struct ss_cmp_run *r = &out->rows[k];
        if (base) {
            r->runs_b = rows[i].runs;
            r->samples_b = rows[i].samples;
            r->mean_b = rows[i].mean;
            r->value_b = rows[i].value * f;
        } else {
            r->runs_n = rows[i].runs;
            r->samples_n = rows[i].samples;
            r->mean_n = rows[i].mean;
            r->value_n = rows[i].value;
        }
    }
    free(rows);
    return 0;
}

/* The measure's delta, largest growth first, then the samples' delta,
 * then name, then level (0, all levels, first). */
static int by_run_delta(const void *pa, const void *pb, void *ctx)
{
    const struct ss_cmp_run *a = pa, *b = pb;
    const struct ss_strtab *keys = ctx;
    int c = ss_cmp_by_deltas(a->value_n - a->value_b, b->value_n - b->value_b, a->samples_b,
                             a->samples_n, b->samples_b, b->samples_n);
    if (!c)
        c = strcmp(ss_strtab_get(keys, a->name), ss_strtab_get(keys, b->name));
    return c ? c : a->level < b->level ? -1 : a->level > b->level;
}

int ss_compare_runs(const struct ss_compare *c, uint32_t level, const char *function,
                    struct ss_cmp_runs *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    ss_strtab_init(&out->keys);
    out->units = c->units;
    struct ss_strtab index;
    ss_strtab_init(&index);
    size_t cap = 0;
    int rc = runs_side(c, 1, level, function, out, &index, &cap, err);
    if (!rc)
        rc = runs_side(c, 0, level, function, out, &index, &cap, err);
    ss_strtab_free(&index);
    if (!rc && ss_sort(out->rows, out->n, sizeof *out->rows, by_run_delta, &out->keys))
        rc = ss_nomem(err, "run-length comparison");
    if (rc)
        ss_cmp_runs_free(out);
    return rc;
}

void ss_cmp_runs_free(struct ss_cmp_runs *r)
{
    free(r->rows);
    ss_strtab_free(&r->keys);
    memset(r, 0, sizeof *r);
}

/* ---- timeline ------------------------------------------------------------------- */

int ss_compare_timeline(const struct ss_compare *c, uint32_t level, size_t width,
                        struct ss_cmp_timeline *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    int rc = ss_timeline_compute(c->base, level, width, &out->base, err);
    if (!rc)
        rc = ss_timeline_compute(c->cur, level, width, &out->cur, err);
    if (rc)
        ss_cmp_timeline_free(out);
    return rc;
}

void ss_cmp_timeline_free(struct ss_cmp_timeline *t)
{
    ss_timeline_free(&t->base);
    ss_timeline_free(&t->cur);
}
