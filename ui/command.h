/* command.h - what the ':' prompt and a script's ":..." lines run: the
 * transform language (stackscope(1), TRANSFORMS) plus the UI's own commands
 * (save, export the script, views, undo, ...), from one table that also feeds
 * the help screen and completion. */
#ifndef UI_COMMAND_H
#define UI_COMMAND_H

#include <stddef.h>

#include "app.h"

/* Runs a command: arg is its argument (the rest of the line, blanks and
 * one level of double quotes removed), data the table's `data`. */
typedef void ui_command_fn(struct ui *ui, const char *arg, int data);

struct ui_command_info {
    const char *name; /* also what completion offers */
    const char *args; /* for the help: "FILE", "[F]" */
    const char *help;
    ui_command_fn *run; /* NULL: a transform command (the core parses it) */
    int data;           /* passed to run: a view id, 1 for a forcing `!` */
};

/* The UI's commands and the transform commands, in help order. */
const struct ui_command_info *ui_commands(size_t *n);

/* Run one command line.  edit_step >= 0: the line replaces that transform
 * step; insert_at >= 0: a transform is inserted there.  Errors go to the
 * message line. */
void ui_command(struct ui *ui, const char *line, int edit_step, int insert_at);

#endif
