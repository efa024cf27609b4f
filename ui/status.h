/* status.h - the top line (view and position) and the status line (file,
 * samples kept of total, time covered, transforms in effect). */
#ifndef UI_STATUS_H
#define UI_STATUS_H

#include "app.h"

void ui_status_draw_title(struct ui *ui, struct ui_canvas *c, int y);
void ui_status_draw(struct ui *ui, struct ui_canvas *c, int y);

/* The detail line: the full name of the selected row's function (or the
 * row's text in views without functions), so a name abbreviated in a table
 * can always be read; `y` copies it (ui_status_detail). */
void ui_status_draw_detail(struct ui *ui, struct ui_canvas *c, int y);

/* The detail line's text for the current view (borrowed), or NULL. */
const char *ui_status_detail(struct ui *ui, char *buf, size_t n);

#endif
