/* list.h - the one list engine every view scrolls with (perf's browser,
 * ncdu's list model): a row count, the selected row and the first row on
 * screen.  Drawing and the meaning of rows belong to the views; this module
 * only keeps the selection valid and visible.
 *
 * A filter (htop's F4, less's &) shows only some rows: `vis` lists them, in
 * the view's order.  The view keeps its own rows (n, sel are rows of the
 * view, filtered or not); `top` and `page` count shown rows.  The generic
 * code (ui.c) sets the filter; views never see it. */
#ifndef UI_LIST_H
#define UI_LIST_H

#include <stddef.h>
#include <stdint.h>

struct ui_list {
    size_t n;   /* rows */
    size_t sel; /* selected row (0 when n == 0) */
    size_t top; /* first row shown (a position among the shown rows) */
    int page;   /* rows that fit on the screen (set by the drawer, >= 1) */
    /* the rows a filter shows, ascending (borrowed), or NULL: every row */
    const uint32_t *vis;
    size_t nvis;
};

/* Rows shown: n, or nvis under a filter. */
size_t ui_list_count(const struct ui_list *l);

/* The row shown at position k (k < ui_list_count). */
size_t ui_list_row(const struct ui_list *l, size_t k);

/* The position of the selected row among those shown (under a filter: of
 * the first shown row at or after it). */
size_t ui_list_pos(const struct ui_list *l);

/* Clamp sel and top after n, page or the filter changed, and scroll so
 * that sel shows (under a filter: a shown row is selected). */
void ui_list_fit(struct ui_list *l);

/* Move the selection by delta shown rows (clamped). */
void ui_list_move(struct ui_list *l, long delta);

/* Select row i (clamped; under a filter, the first shown row from i). */
void ui_list_select(struct ui_list *l, size_t i);

/* Scroll the window by delta rows (mouse wheel), keeping the selection on
 * screen. */
void ui_list_scroll(struct ui_list *l, long delta);

#endif
