/* list.h - the one list engine every view scrolls with (perf's browser,
 * ncdu's list model): a row count, the selected row and the first row on
 * screen.  Drawing and the meaning of rows belong to the views; this module
 * only keeps the selection valid and visible. */
#ifndef UI_LIST_H
#define UI_LIST_H

#include <stddef.h>

struct ui_list {
    size_t n;   /* rows */
    size_t sel; /* selected row (0 when n == 0) */
    size_t top; /* first row shown */
    int page;   /* rows that fit on the screen (set by the drawer, >= 1) */
};

/* Clamp sel and top after n or page changed, and scroll so that sel shows. */
void ui_list_fit(struct ui_list *l);

/* Move the selection by delta rows (clamped). */
void ui_list_move(struct ui_list *l, long delta);

/* Select row i (clamped). */
void ui_list_select(struct ui_list *l, size_t i);

/* Scroll the window by delta rows (mouse wheel), keeping the selection on
 * screen. */
void ui_list_scroll(struct ui_list *l, long delta);

#endif
