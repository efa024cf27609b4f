/* grid.c - the timeline grid (see grid.h). */
#include "grid.h"

#include <stdlib.h>
#include <string.h>

ss_id *ui_grid_canon(const struct ss_model *m)
{
    size_t nf = m->functions.n, ns = m->strs.n;
    ss_id *canon = malloc((nf ? nf : 1) * sizeof *canon);
    ss_id *by_name = malloc((ns ? ns : 1) * sizeof *by_name);
    if (!canon || !by_name) {
        free(canon);
        free(by_name);
        return NULL;
    }
    memset(by_name, 0xff, (ns ? ns : 1) * sizeof *by_name);
    for (size_t f = 0; f < nf; f++) {
        ss_id name = m->functions.v[f].name;
        if (by_name[name] == SS_NONE)
            by_name[name] = (ss_id)f;
        canon[f] = by_name[name];
    }
    free(by_name);
    return canon;
}

void ui_grid_free(struct ui_grid *g)
{
    free(g->top);
    free(g->top_n);
    free(g->reach);
    memset(g, 0, sizeof *g);
}

int ui_grid_compute(const struct ss_model *m, const ss_id *canon, size_t first, size_t n,
                    size_t width, uint32_t level0, uint32_t nlevels, struct ui_grid *g)
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
                f = canon[f];
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
    if (rc)
        ui_grid_free(g);
    return rc;
}
