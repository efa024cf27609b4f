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
    uint64_t *all = calloc(nf ? nf : 1, sizeof *all); /* whole profile */
    size_t *legend_of = malloc((nf ? nf : 1) * sizeof *legend_of);
    ss_id *touched = malloc((nf ? nf : 1) * sizeof *touched);
    struct ss_timeline_window *w = calloc(nw, sizeof *w);
    VEC(struct ss_timeline_legend) lg = {0};
    VEC(struct ss_timeline_run) runs = {0};
    int oom = !at || !first || !cnt || !all || !legend_of || !touched || !w;
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
        }
        for (size_t t = 0; t < nt; t++) {
            ss_id f = touched[t];
            if (win->top == SS_NONE || cnt[f] > win->top_n ||
                (cnt[f] == win->top_n &&
                 strcmp(ss_function_name(m, f), ss_function_name(m, win->top)) < 0)) {
                win->top = f;
                win->top_n = cnt[f];
            }
            cnt[f] = 0;
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
