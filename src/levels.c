/* levels.c - per-level summary of a profile (see levels.h).
 *
 * Distinct stacks are sorted by depth, deepest first, so the stacks that
 * reach level k are a prefix of that order; each level then touches only its
 * own frames and the whole computation is linear in the frames of the
 * distinct stacks in use (plus the functions table for one scratch array).
 */
#include "levels.h"
#include "vec.h"

#include <stdlib.h>
#include <string.h>

/* Is function a a better "top" than b with these sample counts? */
static int better_top(const struct ss_model *m, ss_id a, uint64_t na, ss_id b, uint64_t nb)
{
    if (na != nb)
        return na > nb;
    int c = strcmp(ss_str(m, m->functions.v[a].name), ss_str(m, m->functions.v[b].name));
    return c != 0 ? c < 0 : a < b;
}

int ss_levels_compute(const struct ss_model *m, struct ss_level_row **rows, size_t *n,
                      struct ss_error *err)
{
    *rows = NULL;
    *n = 0;
    size_t nstacks = ss_model_nstacks(m);
    uint64_t *cnt = ss_calloc_array(nstacks, sizeof *cnt);
    double *val = ss_calloc_array(nstacks, sizeof *val);
    unsigned char *used = calloc(nstacks ? nstacks : 1, 1);
    if (!cnt || !val || !used) {
        free(cnt);
        free(val);
        free(used);
        return ss_nomem(err, "levels");
    }
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        ss_id s = m->sample_stack.v[i];
        int64_t c = ss_sample_count(m, i);
        used[s] = 1;
        if (c > 0)
            cnt[s] += (uint64_t)c;
    }
    /* the measure per stack: exact sums of weights per source, then scaled
     * (as the statistics: time is count x interval per source) */
    struct ss_stack_counts sc;
    if (ss_stack_counts_init(&sc, m)) {
        free(cnt);
        free(val);
        free(used);
        return ss_nomem(err, "levels");
    }
    for (size_t src = 0; src < m->sources.n; src++) {
        if (ss_stack_counts_source(&sc, m, (ss_id)src)) {
            ss_stack_counts_free(&sc);
            free(cnt);
            free(val);
            free(used);
            return ss_nomem(err, "levels");
        }
        double scale = ss_source_scale(m, src);
        for (size_t t = 0; t < sc.n; t++)
            val[sc.touched[t]] += (double)sc.val[sc.touched[t]] * scale;
    }
    ss_stack_counts_free(&sc);
    int rc = ss_levels_compute_stacks(m, m->stack_off.v, m->stack_loc.v, nstacks, cnt, val, used,
                                      rows, n, err);
    free(cnt);
    free(val);
    free(used);
    return rc;
}

/* Frames of stack s in the CSR arrays off/loc. */
#define DEPTH(s) ((size_t)(off[(s) + 1] - off[(s)]))

int ss_levels_compute_stacks(const struct ss_model *m, const uint32_t *off, const ss_id *loc,
                             size_t nstacks, const uint64_t *cnt, const double *val,
                             const unsigned char *used, struct ss_level_row **rows, size_t *n,
                             struct ss_error *err)
{
    *rows = NULL;
    *n = 0;
    size_t nfun = m->functions.n;
    uint64_t *acc = ss_alloc_array(nfun, sizeof *acc);
    double *vacc = ss_alloc_array(nfun, sizeof *vacc);
    uint32_t *stamp = ss_calloc_array(nfun, sizeof *stamp);
    ss_id *touched = ss_alloc_array(nfun, sizeof *touched);
    ss_id *order = NULL;
    size_t *first = NULL; /* first[d]: start of depth-d stacks in `order` (deepest first) */
    struct ss_level_row *out = NULL;
    int rc = 0;
    if (!acc || !vacc || !stamp || !touched)
        goto oom;

#define USED(s) (used ? used[s] != 0 : cnt[s] > 0)
    size_t maxd = 0, nused = 0;
    for (size_t s = 0; s < nstacks; s++)
        if (USED(s) && DEPTH(s) > 0) {
            nused++;
            if (DEPTH(s) > maxd)
                maxd = DEPTH(s);
        }
    if (maxd == 0)
        goto done;

    /* Counting sort of the stacks in use by depth, deepest first. */
    order = ss_alloc_array(nused, sizeof *order);
    first = ss_calloc_array(maxd + 2, sizeof *first);
    out = ss_calloc_array(maxd, sizeof *out);
    if (!order || !first || !out)
        goto oom;
    for (size_t s = 0; s < nstacks; s++)
        if (USED(s) && DEPTH(s) > 0)
            first[maxd - DEPTH(s) + 1]++;
    for (size_t k = 1; k <= maxd + 1; k++)
        first[k] += first[k - 1];
    /* first[maxd - d] is now where depth d starts; fill with a cursor copy */
    for (size_t s = 0; s < nstacks; s++)
        if (USED(s) && DEPTH(s) > 0)
            order[first[maxd - DEPTH(s)]++] = (ss_id)s;
#undef USED
    /* after filling, first[maxd - d] is the end of depth d: stacks with depth
     * >= k are order[0 .. first[maxd - k]) */

    for (size_t k = 1; k <= maxd; k++) {
        size_t end = first[maxd - k], ntouched = 0;
        uint64_t samples = 0, located = 0;
        double value = 0;
        for (size_t j = 0; j < end; j++) {
            ss_id s = order[j];
            ss_id l = loc[off[s] + DEPTH(s) - k], f = ss_loc_function(m, l);
            if (m->locations.v[l].line)
                located += cnt[s];
            if (stamp[f] != (uint32_t)k) {
                stamp[f] = (uint32_t)k;
                acc[f] = 0;
                vacc[f] = 0;
                touched[ntouched++] = f;
            }
            acc[f] += cnt[s];
            samples += cnt[s];
            if (val) {
                vacc[f] += val[s];
                value += val[s];
            }
        }
        struct ss_level_row *r = &out[k - 1];
        r->level = (uint32_t)k;
        r->samples = samples;
        r->located = located;
        r->distinct = (uint32_t)ntouched;
        r->value = value;
        r->top = touched[0];
        r->top_samples = acc[touched[0]];
        r->top_value = vacc[touched[0]];
        for (size_t t = 1; t < ntouched; t++)
            if (better_top(m, touched[t], acc[touched[t]], r->top, r->top_samples)) {
                r->top = touched[t];
                r->top_samples = acc[touched[t]];
                r->top_value = vacc[touched[t]];
            }
    }
    *rows = out;
    *n = maxd;
    out = NULL;
    goto done;
oom:
    rc = ss_nomem(err, "levels");
done:
    free(acc);
    free(vacc);
    free(stamp);
    free(touched);
    free(order);
    free(first);
    free(out);
    return rc;
}
#undef DEPTH

size_t ss_levels_scaffold(const struct ss_level_row *rows, size_t n, double share)
{
    if (n == 0 || rows[0].samples == 0)
        return 0;
    double need = share * (double)rows[0].samples;
    need -= need * 1e-12;
    size_t d = 0;
    while (d < n && (double)rows[d].top_samples >= need)
        d++;
    return d;
}

uint32_t ss_levels_timeline_level(const struct ss_level_row *rows, size_t n)
{
    size_t sc = ss_levels_scaffold(rows, n, 0.95);
    return (uint32_t)(sc < n ? sc + 1 : (n ? n : 1));
}

int ss_levels_timeline_level_of(const struct ss_model *m, uint32_t *level, struct ss_error *err)
{
    struct ss_level_row *rows;
    size_t n;
    int rc = ss_levels_compute(m, &rows, &n, err);
    if (rc)
        return rc;
    *level = ss_levels_timeline_level(rows, n);
    free(rows);
    return 0;
}

size_t ss_levels_user_level(const struct ss_level_row *rows, size_t d)
{
    for (size_t k = 0; k < d; k++)
        if (rows[k].located)
            return k;
    return d;
}
