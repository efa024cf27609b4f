/* prompt.h - the ':' command and '/' search prompts on the bottom line: a
 * small line editor with a history per prompt and Tab completion of
 * command and function names and labels (ui_prompt_start is declared in app.h). */
#ifndef UI_PROMPT_H
#define UI_PROMPT_H

#include "app.h"

/* Handle a key while the prompt is active (Enter runs the line). */
void ui_prompt_key(struct ui *ui, const struct ui_event *ev);

/* Draw the prompt on row y; returns the cursor's column. */
int ui_prompt_draw(struct ui *ui, struct ui_canvas *c, int y);

/* Free the history and completion state. */
void ui_prompt_free(struct ui *ui);

/* The completion candidates for the word at byte `start` .. `end` of
 * `line` (a command name when it is the first word; after keep-label or
 * drop-label a KEY=VALUE of the current model's labels, after label-root a
 * label key; else a function name of the current model), sorted; *n of them in a malloc'd array of
 * malloc'd strings (free with ui_prompt_free_cands).  Exposed for tests. */
char **ui_prompt_candidates(struct ui *ui, const char *line, size_t start, size_t end, size_t *n);
void ui_prompt_free_cands(char **c, size_t n);

#endif
