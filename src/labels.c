/* labels.c - samples and time per label (see labels.h).
 *
 * One pass over the samples adds each sample's count and weight to its
 * label set; a pass over the sets then adds each set to its labels, so a
 * sample costs one addition however many labels it has.  Weights are
 * added as integers, source by source, and scaled once per label and
 * source: the same samples give the same value, however the sets split
 * them (a comparison's delta of a label whose time did not change is 0,
 * not 5e-17, as in pprof's integer sums). */
#include "labels.h"

#include <stdlib.h>
#include <string.h>

#include "sort.h"
#include "vec.h"

/* ss_sort's context for cmp_rows */
struct label_order {
    const struct ss_model *m;
};

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
    const struct ss_model *m = ((const struct label_order *)ctx)->m;
    const struct ss_label_row *a = pa, *b = pb;
    int c = strcmp(ss_label_key(m, a->label), ss_label_key(m, b->label));
    if (c)
        return c;
    if (a->value > b->value)
        return -1;
    if (a->value < b->value)
        return 1;
    if (a->samples != b->samples)
        return a->samples > b->samples ? -1 : 1;
    char x[96], y[96];
    c = strcmp(ss_label_value(m, a->label, x, sizeof x), ss_label_value(m, b->label, y, sizeof y));
    return c ? c : (a->label > b->label) - (a->label < b->label);
}

int ss_label_stats_compute(const struct ss_model *m, struct ss_label_stats *ls,
                           struct ss_error *err)
{
    memset(ls, 0, sizeof *ls);
    struct ss_totals t;
    ss_model_totals(m, &t);
    ls->total = t.value;
    size_t nsets = ss_model_nlabelsets(m), nl = m->labels.n;
    uint64_t *set_n = ss_calloc_array(nsets, sizeof *set_n);
    int64_t *set_w = ss_calloc_array(nsets, sizeof *set_w),
            *lab_w = ss_calloc_array(nl, sizeof *lab_w);
    unsigned char *set_used = calloc(nsets, 1), *set_on = calloc(nsets, 1),
                  *used = calloc(nl ? nl : 1, 1), *lab_on = calloc(nl ? nl : 1, 1);
    struct ss_label_row *rows = ss_calloc_array(nl, sizeof *rows);
    /* the sets and labels a source weighed, in order: its work is theirs,
     * not all of the model's */
    VEC(ss_id) sets = {NULL, 0, 0};
    VEC(ss_id) labels = {NULL, 0, 0};
    int oom = !set_n || !set_w || !lab_w || !set_used || !set_on || !used || !lab_on || !rows;
    for (size_t l = 0; !oom && l < nl; l++)
        rows[l].label = (ss_id)l;
    for (size_t s = 0; !oom && s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        sets.n = labels.n = 0;
        for (size_t i = src->first_sample; !oom && i < src->first_sample + src->n_samples; i++) {
            ss_id set = ss_sample_labelset(m, i);
            set_n[set] += (uint64_t)ss_sample_count(m, i);
            set_used[set] = 1;
            if (set && !set_on[set]) {
                set_on[set] = 1;
                oom = VEC_PUSH(sets, set);
            }
            if (set && ss_stack_depth(m, m->sample_stack.v[i]))
                set_w[set] += ss_sample_weight(m, i);
        }
        /* this source's weights to its labels, then scaled */
        for (size_t j = 0; !oom && j < sets.n; j++) {
            ss_id set = sets.v[j];
            const ss_id *labs = ss_labelset_labels(m, set);
            for (size_t k = 0; set_w[set] && !oom && k < ss_labelset_size(m, set); k++) {
                lab_w[labs[k]] += set_w[set];
                if (!lab_on[labs[k]]) {
                    lab_on[labs[k]] = 1;
                    oom = VEC_PUSH(labels, labs[k]);
                }
            }
            set_w[set] = 0;
            set_on[set] = 0;
        }
        double sc = ss_source_scale(m, s);
        for (size_t j = 0; j < labels.n; j++) {
            ss_id l = labels.v[j];
            rows[l].value += (double)lab_w[l] * sc;
            lab_w[l] = 0;
            lab_on[l] = 0;
        }
    }
    VEC_FREE(sets);
    VEC_FREE(labels);
    free(set_w);
    free(lab_w);
    free(set_on);
    free(lab_on);
    if (oom) {
        free(set_n);
        free(set_used);
        free(used);
        free(rows);
        return ss_nomem(err, "labels");
    }
    for (size_t set = 1; set < nsets; set++) {
        const ss_id *labs = ss_labelset_labels(m, (ss_id)set);
        for (size_t k = 0; k < ss_labelset_size(m, (ss_id)set); k++) {
            rows[labs[k]].samples += set_n[set];
            used[labs[k]] |= set_used[set];
        }
    }
    ls->unlabelled = set_n[0];
    free(set_n);
    free(set_used);
    /* a transform's output keeps every label of the input: list those in use */
    size_t n = 0;
    for (size_t l = 0; l < nl; l++)
        if (used[l])
            rows[n++] = rows[l];
    free(used);
    struct label_order order = {m};
    if (ss_sort(rows, n, sizeof *rows, cmp_rows, &order)) {
        free(rows);
        return ss_nomem(err, "labels");
    }
    ls->rows = rows;
    ls->n = n;
    return 0;
}

void ss_label_stats_free(struct ss_label_stats *ls)
{
    free(ls->rows);
    memset(ls, 0, sizeof *ls);
}
