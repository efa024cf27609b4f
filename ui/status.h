/* status.h - the top line (view and position) and the status line (file,
 * samples kept of total, time covered, transforms in effect). */
#ifndef UI_STATUS_H
#define UI_STATUS_H

#include "app.h"

void ui_status_draw_title(struct ui *ui, struct ui_canvas *c, int y);
void ui_status_draw(struct ui *ui, struct ui_canvas *c, int y);

#endif
