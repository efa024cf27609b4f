/* timeline.c - dominant function per window of samples (see timeline.h).
 *
 * The level-K function of each distinct stack is found once; the samples are
 * then read once in time order, counting per window with a touched list so a
 * window costs its own length, not the number of functions.
 */
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

int ss_timeline_compute(const struct ss_model *m, uint32_t level, size_t width,
                        struct ss_timeline *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    if (level == 0 || width == 0)
        return ss_fail(err, SS_EUSAGE, "timeline: level and width must be at least 1");
    out->level = level;
    size_t ns = m->sample_stack.n, nstacks = ss_model_nstacks(m), nf = m->functions.n;
    if (ns == 0)
        return 0;
    size_t wsize = ns / width + (ns % width != 0);
    size_t nw = ns / wsize + (ns % wsize != 0);
    out->window_size = wsize;

    ss_id *at = malloc((nstacks ? nstacks : 1) * sizeof *at); /* level-K function */
    ss_id *first = malloc((m->strs.n ? m->strs.n : 1) * sizeof *first);
    uint64_t *cnt = calloc(nf ? nf : 1, sizeof *cnt); /* per window */
    /* a measure other than time or samples (memory, a pprof sample type):
     * the top of a window is the function with the most of it */
    int weighed =
        m->weights.measure.kind != SS_MEASURE_TIME && m->weights.measure.kind != SS_MEASURE_SAMPLES;
    double *wv = weighed ? calloc(nf ? nf : 1, sizeof *wv) : NULL;
    size_t src = 0;                                   /* the source of sample i, moving forward */
    uint64_t *all = calloc(nf ? nf : 1, sizeof *all); /* whole profile */
    size_t *legend_of = malloc((nf ? nf : 1) * sizeof *legend_of);
    ss_id *touched = malloc((nf ? nf : 1) * sizeof *touched);
    struct ss_timeline_window *w = calloc(nw, sizeof *w);
    VEC(struct ss_timeline_legend) lg = {0};
    VEC(struct ss_timeline_run) runs = {0};
    int oom = !at || !first || !cnt || !all || !legend_of || !touched || !w || (weighed && !wv);
    if (oom)
        goto done;

    /* Canonical ids (lowest id per name), then each stack's level-K one. */
    memset(first, 0xff, (m->strs.n ? m->strs.n : 1) * sizeof *first);
    for (size_t f = 0; f < nf; f++) {
        ss_id name = m->functions.v[f].name;
        if (first[name] == SS_NONE)
            first[name] = (ss_id)f;
        legend_of[f] = SIZE_MAX;
    }
    for (size_t s = 0; s < nstacks; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        at[s] = SS_NONE;
        if (d >= level) {
            ss_id fn = ss_loc_function(m, ss_stack_frames(m, (ss_id)s)[d - level]);
            at[s] = first[m->functions.v[fn].name];
        }
    }

    for (size_t k = 0; k < nw; k++) {
        struct ss_timeline_window *win = &w[k];
        win->first = k * wsize;
        win->n = ns - win->first < wsize ? ns - win->first : wsize;
        win->top = SS_NONE;
        size_t nt = 0;
        for (size_t i = win->first; i < win->first + win->n; i++) {
            ss_id f = at[m->sample_stack.v[i]];
            if (f == SS_NONE) {
                win->shallow_n++;
                continue;
            }
            if (cnt[f]++ == 0)
                touched[nt++] = f;
            all[f]++;
            if (weighed) {
                while (src + 1 < m->sources.n &&
                       i >= m->sources.v[src].first_sample + m->sources.v[src].n_samples)
                    src++;
                wv[f] += (double)ss_sample_weight(m, i) * ss_source_scale(m, src);
            }
        }
        double top_w = 0;
        for (size_t t = 0; t < nt; t++) {
            ss_id f = touched[t];
            int better;
            if (weighed)
                better = win->top == SS_NONE || wv[f] > top_w ||
                         (wv[f] == top_w &&
                          strcmp(ss_function_name(m, f), ss_function_name(m, win->top)) < 0);
            else
                better = win->top == SS_NONE || cnt[f] > win->top_n ||
                         (cnt[f] == win->top_n &&
                          strcmp(ss_function_name(m, f), ss_function_name(m, win->top)) < 0);
            if (better) {
                win->top = f;
                win->top_n = cnt[f];
                top_w = weighed ? wv[f] : 0;
            }
            cnt[f] = 0;
            if (weighed)
                wv[f] = 0;
        }
        if (win->top != SS_NONE && legend_of[win->top] == SIZE_MAX) {
            struct ss_timeline_legend g = {win->top, 0, k};
            legend_of[win->top] = lg.n;
            if (VEC_PUSH(lg, g)) {
                oom = 1;
                goto done;
            }
        }
        if (runs.n == 0 || runs.v[runs.n - 1].top != win->top) {
            struct ss_timeline_run r = {win->top, win->first, 0, k, 0};
            if (VEC_PUSH(runs, r)) {
                oom = 1;
                goto done;
            }
        }
        runs.v[runs.n - 1].n += win->n;
        runs.v[runs.n - 1].nwindows++;
    }
    for (size_t g = 0; g < lg.n; g++)
        lg.v[g].n = all[lg.v[g].function];

done:
    free(at);
    free(first);
    free(cnt);
    free(wv);
    free(all);
    free(legend_of);
    free(touched);
    if (oom) {
        free(w);
        VEC_FREE(lg);
        VEC_FREE(runs);
        memset(out, 0, sizeof *out);
        return ss_nomem(err, "timeline");
    }
    out->windows = w;
    out->nwindows = nw;
    out->legend = lg.v;
    out->nlegend = lg.n;
    out->runs = runs.v;
    out->nruns = runs.n;
    return 0;
}

void ss_timeline_free(struct ss_timeline *t)
{
    free(t->windows);
    free(t->legend);
    free(t->runs);
    memset(t, 0, sizeof *t);
}

/* ---- the grid (see timeline.h) ---------------------------------------------- */

void ss_timeline_grid_free(struct ss_timeline_grid *g)
{
    free(g->top);
    free(g->top_n);
    free(g->reach);
    memset(g, 0, sizeof *g);
}

int ss_timeline_grid_compute(const struct ss_model *m, size_t first, size_t n, size_t width,
                             uint32_t level0, uint32_t nlevels, struct ss_timeline_grid *g,
                             struct ss_error *err)
{
    memset(g, 0, sizeof *g);
    size_t total = m->sample_stack.n;
    if (first > total)
        first = total;
    if (n > total - first)
        n = total - first;
    if (width == 0)
        width = 1;
    if (level0 == 0)
        level0 = 1;
    g->first = first;
    g->n = n;
    g->level0 = level0;
    g->nlevels = nlevels;
    g->window = n ? (n + width - 1) / width : 1;
    g->ncols = n ? (n + g->window - 1) / g->window : 0;
    size_t cells = g->ncols * nlevels;
    size_t nstacks = ss_model_nstacks(m), nfun = m->functions.n;
    g->top = malloc((cells ? cells : 1) * sizeof *g->top);
    g->top_n = calloc(cells ? cells : 1, sizeof *g->top_n);
    g->reach = calloc(cells ? cells : 1, sizeof *g->reach);
    uint32_t *cnt = calloc(nstacks ? nstacks : 1, sizeof *cnt);
    ss_id *touched = malloc((nstacks ? nstacks : 1) * sizeof *touched);
    uint32_t *fcnt = calloc(nfun ? nfun : 1, sizeof *fcnt);
    uint32_t *fstamp = calloc(nfun ? nfun : 1, sizeof *fstamp);
    int rc = -1;
    if (!g->top || !g->top_n || !g->reach || !cnt || !touched || !fcnt || !fstamp)
        goto done;
    uint32_t stamp = 0;
    for (size_t c = 0; c < g->ncols; c++) {
        size_t a = first + c * g->window, b = a + g->window;
        if (b > first + n)
            b = first + n;
        size_t nt = 0;
        for (size_t i = a; i < b; i++) {
            ss_id s = m->sample_stack.v[i];
            if (cnt[s]++ == 0)
                touched[nt++] = s;
        }
        for (uint32_t r = 0; r < nlevels; r++) {
            size_t level = (size_t)level0 + r;
            stamp++;
            ss_id best = SS_NONE;
            uint32_t best_n = 0, reach = 0;
            for (size_t t = 0; t < nt; t++) {
                ss_id s = touched[t];
                size_t d = ss_stack_depth(m, s);
                if (d < level)
                    continue;
                ss_id f = ss_loc_function(m, ss_stack_frames(m, s)[d - level]);
                if (f == SS_NONE)
                    continue;
                f = ss_function_canonical(m, f);
                if (fstamp[f] != stamp) {
                    fstamp[f] = stamp;
                    fcnt[f] = 0;
                }
                fcnt[f] += cnt[s];
                reach += cnt[s];
                if (fcnt[f] > best_n || (fcnt[f] == best_n && best != f &&
                                         strcmp(ss_str(m, m->functions.v[f].name),
                                                ss_str(m, m->functions.v[best].name)) < 0)) {
                    best = f;
                    best_n = fcnt[f];
                }
            }
            g->top[c * nlevels + r] = best;
            g->top_n[c * nlevels + r] = best_n;
            g->reach[c * nlevels + r] = reach;
        }
        for (size_t t = 0; t < nt; t++)
            cnt[touched[t]] = 0;
    }
    rc = 0;
done:
    free(cnt);
    free(touched);
    free(fcnt);
    free(fstamp);
    if (rc) {
        ss_timeline_grid_free(g);
        return ss_nomem(err, "timeline grid");
    }
    return 0;
}

/* The canonical function at level `level` of sample i, SS_NONE if too short. */
static ss_id fn_at_level(const struct ss_model *m, uint32_t level, size_t i)
{
    ss_id st = m->sample_stack.v[i];
    size_t d = ss_stack_depth(m, st);
    if (d < level)
        return SS_NONE;
    return ss_function_canonical(m, ss_loc_function(m, ss_stack_frames(m, st)[d - level]));
}

int ss_timeline_phase(const struct ss_model *m, uint32_t level, ss_id fn, size_t i, size_t *a,
                      size_t *b)
{
    size_t n = m->sample_stack.n;
    if (level == 0 || i >= n || fn == SS_NONE)
        return -1;
    fn = ss_function_canonical(m, fn);
    if (fn_at_level(m, level, i) != fn)
        return -1;
    const struct ss_source *src = &m->sources.v[ss_sample_source(m, i)];
    size_t s0 = src->first_sample, s1 = src->first_sample + src->n_samples;
    size_t lo = i, hi = i + 1;
    while (lo > s0 && !ss_model_gap_before(m, lo) && fn_at_level(m, level, lo - 1) == fn)
        lo--;
    size_t g = ss_model_gap_first(m, hi);
    while (hi < s1 && !(g < m->gaps.n && m->gaps.v[g] == hi) && fn_at_level(m, level, hi) == fn)
        hi++;
    *a = lo;
    *b = hi;
    return 0;
}
