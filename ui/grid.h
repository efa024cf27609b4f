/* grid.h - the timeline as a grid: samples in time order across the
 * columns, levels (1 = root) down the rows, and in each cell the function
 * most frequent at that level among the column's samples (as the core's
 * timeline.h does for one level and the whole profile; here for a range of
 * samples, for zooming, and only for the levels on screen).
 *
 * Each column's samples are first counted per distinct stack, so a cell
 * costs the number of distinct stacks in its column, not its samples: the
 * grid of a 1M-sample profile costs one pass over the range plus a few
 * thousand stack visits per level shown.  Pure logic, no curses. */
#ifndef UI_GRID_H
#define UI_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct ui_grid {
    size_t first, n;  /* the samples shown: [first, first + n) of the timeline */
    size_t window;    /* samples per column (the last column may have fewer) */
    size_t ncols;     /* ceil(n / window) <= the width asked for */
    uint32_t level0;  /* the first row's level (1 = root) */
    uint32_t nlevels; /* rows */
    ss_id *top;       /* [col * nlevels + row]: canonical function id or SS_NONE */
    uint32_t *top_n;  /* samples of the column with `top` at that level */
    uint32_t *reach;  /* samples of the column that reach that level */
};

/* Canonical function ids (the lowest id with the same name) of every
 * function of m: a malloc'd array, or NULL when memory runs out. */
ss_id *ui_grid_canon(const struct ss_model *m);

/* Compute the grid of samples [first, first + n) in at most `width`
 * columns for levels level0 .. level0 + nlevels - 1.  canon is from
 * ui_grid_canon(m).  Ties go to the lowest name in byte order, as in
 * timeline.h.  Returns 0 or -1 (out of memory); free with ui_grid_free. */
int ui_grid_compute(const struct ss_model *m, const ss_id *canon, size_t first, size_t n,
                    size_t width, uint32_t level0, uint32_t nlevels, struct ui_grid *g);

void ui_grid_free(struct ui_grid *g);

#endif
