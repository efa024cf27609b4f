/* compare_labels.c - the labels of a comparison (see compare.h): each
 * side's `report --by labels` rows joined by key and value text. */
#include "compare_int.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "labels.h"
#include "sort.h"
#include "vec.h"

/* Row of label l of m in out, created with zeros on first use (rows are
 * indexed by the id of their joined text in `index`); SIZE_MAX: OOM. */
static size_t label_row(struct ss_cmp_labels *out, struct ss_strtab *index, size_t *cap,
                        const struct ss_model *m, ss_id l)
{
    char buf[96];
    const char *k = ss_label_key(m, l), *v = ss_label_value(m, l, buf, sizeof buf);
    size_t kl = strlen(k), vl = strlen(v);
    /* "KEYLEN:KEY VALUE": no two (key, value) pairs give the same text */
    char *joined = malloc(kl + vl + 24);
    if (!joined)
        return SIZE_MAX;
    int h = snprintf(joined, 24, "%zu:", kl);
    memcpy(joined + h, k, kl);
    joined[h + kl] = ' ';
    memcpy(joined + h + kl + 1, v, vl);
    int fresh;
    size_t row = ss_cmp_join_row(index, joined, (size_t)h + kl + 1 + vl, (void **)&out->rows,
                                 out->n, cap, sizeof *out->rows, &fresh);
    free(joined);
    if (row == SIZE_MAX || !fresh)
        return row;
    struct ss_cmp_label *r = &out->rows[row];
    r->key = ss_strtab_intern(&out->keys, k, kl);
    r->value = ss_strtab_intern(&out->keys, v, vl);
    if (r->key == SS_NONE || r->value == SS_NONE)
        return SIZE_MAX;
    return out->n++;
}

/* One side's rows; with vm (verdicts), the map of its samples onto them. */
static int labels_side(const struct ss_compare *c, int base, struct ss_cmp_labels *out,
                       struct ss_strtab *index, size_t *cap, struct ss_vmap *vm,
                       struct ss_error *err)
{
    const struct ss_model *m = base ? c->base : c->cur;
    struct ss_label_stats ls;
    int rc = ss_label_stats_compute(m, &ls, err);
    if (rc)
        return rc;
    uint32_t *row_of = vm ? ss_alloc_array(m->labels.n, sizeof *row_of) : NULL;
    if (vm && !row_of) {
        ss_label_stats_free(&ls);
        return ss_nomem(err, "labels comparison");
    }
    for (size_t l = 0; row_of && l < m->labels.n; l++)
        row_of[l] = SS_VROW_NONE;
    double f = base ? c->conv * c->scale : 1;
    for (size_t i = 0; i < ls.n; i++) {
        size_t k = label_row(out, index, cap, m, ls.rows[i].label);
        if (k == SIZE_MAX) {
            ss_label_stats_free(&ls);
            free(row_of);
            return ss_nomem(err, "labels comparison");
        }
        if (row_of)
            row_of[ls.rows[i].label] = (uint32_t)k;
        struct ss_cmp_label *r = &out->rows[k];
        if (base) {
            r->samples_b = ls.rows[i].samples;
            r->value_b = ls.rows[i].value * f;
        } else {
            r->samples_n = ls.rows[i].samples;
            r->value_n = ls.rows[i].value;
        }
    }
    if (base)
        out->unlabelled_b = ls.unlabelled;
    else
        out->unlabelled_n = ls.unlabelled;
    ss_label_stats_free(&ls);
    rc = vm ? ss_vmap_labels(m, row_of, vm, err) : 0;
    free(row_of);
    return rc;
}

static int by_label_delta(const void *pa, const void *pb, void *ctx)
{
    const struct ss_cmp_label *a = pa, *b = pb;
    const struct ss_strtab *keys = ctx;
    int c = ss_cmp_by_deltas(a->value_n - a->value_b, b->value_n - b->value_b, a->samples_b,
                             a->samples_n, b->samples_b, b->samples_n);
    if (!c)
        c = strcmp(ss_strtab_get(keys, a->key), ss_strtab_get(keys, b->key));
    return c ? c : strcmp(ss_strtab_get(keys, a->value), ss_strtab_get(keys, b->value));
}

int ss_compare_labels(const struct ss_compare *c, struct ss_cmp_labels *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    ss_strtab_init(&out->keys);
    out->units = c->units;
    struct ss_strtab index;
    ss_strtab_init(&index);
    size_t cap = 0;
    struct ss_vmap vm[2];
    memset(vm, 0, sizeof vm);
    int want = !c->no_verdicts;
    int rc = labels_side(c, 1, out, &index, &cap, want ? &vm[0] : NULL, err);
    if (!rc)
        rc = labels_side(c, 0, out, &index, &cap, want ? &vm[1] : NULL, err);
    ss_strtab_free(&index);
    if (!rc && want)
        rc = ss_cmp_verdicts(c, &vm[0], &vm[1], out->n, NULL, out->n ? &out->rows[0].v : NULL,
                             sizeof *out->rows, &out->vinfo, err);
    else if (!rc && out->n)
        ss_cmp_no_verdicts(NULL, &out->rows[0].v, out->n, sizeof *out->rows);
    ss_vmap_free(&vm[0]);
    ss_vmap_free(&vm[1]);
    if (!rc && ss_sort(out->rows, out->n, sizeof *out->rows, by_label_delta, &out->keys))
        rc = ss_nomem(err, "labels comparison");
    if (rc)
        ss_cmp_labels_free(out);
    return rc;
}

void ss_cmp_labels_free(struct ss_cmp_labels *l)
{
    free(l->rows);
    ss_strtab_free(&l->keys);
    memset(l, 0, sizeof *l);
}
