/* timeline.c - dominant function per window of samples (see timeline.h).
 *
 * The level-K function of each distinct stack is found once; the samples are
 * then read once in time order, counting per window with a touched list so a
 * window costs its own length, not the number of functions.
 */
#include "timeline.h"
#include "vec.h"
#include "num.h"

#include <stdlib.h>
#include <string.h>

/* The work of ss_timeline_compute: per function (canonical ids, the
 * lowest per name), its count in the window and the whole profile. */
struct tl_work {
    const struct ss_model *m;
    ss_id *at;         /* per stack: its level-K function */
    ss_id *first;      /* per name: the canonical function */
    uint64_t *cnt;     /* per window */
    double *wv;        /* per window, the measure's (weighed only) */
    uint64_t *all;     /* the whole profile */
    size_t *legend_of; /* its legend entry, SIZE_MAX: none yet */
    ss_id *touched;
    size_t src; /* the source of the sample being read, moving forward */
    int weighed;
};

static void tl_work_free(struct tl_work *t)
{
    free(t->at);
    free(t->first);
    free(t->cnt);
    free(t->wv);
    free(t->all);
    free(t->legend_of);
    free(t->touched);
}

/* Canonical ids (lowest id per name), then each stack's level-K one. */
static void level_functions(struct tl_work *t, uint32_t level)
{
    const struct ss_model *m = t->m;
    memset(t->first, 0xff, (m->strs.n ? m->strs.n : 1) * sizeof *t->first);
    for (size_t f = 0; f < m->functions.n; f++) {
        ss_id name = m->functions.v[f].name;
        if (t->first[name] == SS_NONE)
            t->first[name] = (ss_id)f;
        t->legend_of[f] = SIZE_MAX;
    }
    for (size_t s = 0; s < ss_model_nstacks(m); s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        t->at[s] = SS_NONE;
        if (d >= level) {
            ss_id fn = ss_loc_function(m, ss_stack_frames(m, (ss_id)s)[d - level]);
            t->at[s] = t->first[m->functions.v[fn].name];
        }
    }
}

/* Window win's samples counted; its top: the function with the most
 * samples (weighed: of the measure), ties by name. */
static void window_top(struct tl_work *t, struct ss_timeline_window *win)
{
    const struct ss_model *m = t->m;
    size_t nt = 0;
    for (size_t i = win->first; i < win->first + win->n; i++) {
        ss_id f = t->at[m->sample_stack.v[i]];
        if (f == SS_NONE) {
            win->shallow_n++;
            continue;
        }
        if (t->cnt[f]++ == 0)
            t->touched[nt++] = f;
        t->all[f]++;
        if (t->weighed) {
            while (t->src + 1 < m->sources.n &&
                   i >= m->sources.v[t->src].first_sample + m->sources.v[t->src].n_samples)
                t->src++;
            t->wv[f] += (double)ss_sample_weight(m, i) * ss_source_scale(m, t->src);
        }
    }
    double top_w = 0;
    for (size_t k = 0; k < nt; k++) {
        ss_id f = t->touched[k];
        int better;
        if (t->weighed)
            better = win->top == SS_NONE || t->wv[f] > top_w ||
                     (ss_double_eq(t->wv[f], top_w) &&
                      strcmp(ss_function_name(m, f), ss_function_name(m, win->top)) < 0);
        else
            better = win->top == SS_NONE || t->cnt[f] > win->top_n ||
                     (t->cnt[f] == win->top_n &&
                      strcmp(ss_function_name(m, f), ss_function_name(m, win->top)) < 0);
        if (better) {
            win->top = f;
            win->top_n = t->cnt[f];
            top_w = t->weighed ? t->wv[f] : 0;
        }
        t->cnt[f] = 0;
        if (t->weighed)
            t->wv[f] = 0;
    }
}

int ss_timeline_compute(const struct ss_model *m, uint32_t level, size_t width,
                        struct ss_timeline *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    if (level == 0 || width == 0)
        return ss_fail(err, SS_EUSAGE, "timeline: level and width must be at least 1");
    out->level = level;
    size_t ns = m->sample_stack.n, nf = m->functions.n;
    if (ns == 0)
        return 0;
    size_t wsize = ns / width + (ns % width != 0);
    size_t nw = ns / wsize + (ns % wsize != 0);
    out->window_size = wsize;
    struct tl_work t;
    memset(&t, 0, sizeof t);
    t.m = m;
    t.at = ss_alloc_array(ss_model_nstacks(m), sizeof *t.at);
    t.first = ss_alloc_array(m->strs.n, sizeof *t.first);
    t.cnt = ss_calloc_array(nf, sizeof *t.cnt);
    /* a measure other than time or samples (memory, a pprof sample type):
     * the top of a window is the function with the most of it */
    t.weighed =
        m->weights.measure.kind != SS_MEASURE_TIME && m->weights.measure.kind != SS_MEASURE_SAMPLES;
    t.wv = t.weighed ? ss_calloc_array(nf, sizeof *t.wv) : NULL;
    t.all = ss_calloc_array(nf, sizeof *t.all);
    t.legend_of = ss_alloc_array(nf, sizeof *t.legend_of);
    t.touched = ss_alloc_array(nf, sizeof *t.touched);
    struct ss_timeline_window *w = ss_calloc_array(nw, sizeof *w);
    VEC(struct ss_timeline_legend) lg = {0};
    VEC(struct ss_timeline_run) runs = {0};
    int oom = !t.at || !t.first || !t.cnt || !t.all || !t.legend_of || !t.touched || !w ||
              (t.weighed && !t.wv);
    if (!oom)
        level_functions(&t, level);
    for (size_t k = 0; !oom && k < nw; k++) {
        struct ss_timeline_window *win = &w[k];
        win->first = k * wsize;
        win->n = ns - win->first < wsize ? ns - win->first : wsize;
        win->top = SS_NONE;
        window_top(&t, win);
        if (win->top != SS_NONE && t.legend_of[win->top] == SIZE_MAX) {
            struct ss_timeline_legend g = {win->top, 0, k};
            t.legend_of[win->top] = lg.n;
            oom = VEC_PUSH(lg, g) != 0;
        }
        if (!oom && (runs.n == 0 || runs.v[runs.n - 1].top != win->top)) {
            struct ss_timeline_run r = {win->top, win->first, 0, k, 0};
            oom = VEC_PUSH(runs, r) != 0;
        }
        if (!oom) {
            runs.v[runs.n - 1].n += win->n;
            runs.v[runs.n - 1].nwindows++;
        }
    }
    for (size_t g = 0; !oom && g < lg.n; g++)
        lg.v[g].n = t.all[lg.v[g].function];
    tl_work_free(&t);
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
    g->top = ss_alloc_array(cells, sizeof *g->top);
    g->top_n = ss_calloc_array(cells, sizeof *g->top_n);
    g->reach = ss_calloc_array(cells, sizeof *g->reach);
    uint32_t *cnt = ss_calloc_array(nstacks, sizeof *cnt);
    ss_id *touched = ss_alloc_array(nstacks, sizeof *touched);
    uint32_t *fcnt = ss_calloc_array(nfun, sizeof *fcnt);
    uint32_t *fstamp = ss_calloc_array(nfun, sizeof *fstamp);
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
