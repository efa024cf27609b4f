/* display.h - the only module that talks to curses (htop's panel drawer):
 * opening and closing the terminal, painting a canvas, reading keys and
 * mouse events, and restoring the terminal on exit, errors and signals.
 *
 * Headless mode (the tests, the benchmark) opens ncurses with newterm() on
 * /dev/null: curses keeps its virtual screen of the requested size and no
 * terminal is needed; keys then come from a script (script.c), not from
 * here.
 */
#ifndef UI_DISPLAY_H
#define UI_DISPLAY_H

#include <stddef.h>

#include "canvas.h"
#include "keys.h"

/* Open the terminal (headless: a virtual screen of cols x rows).  Returns 0,
 * or -1 with a message in msg. */
int ui_display_open(int headless, int cols, int rows, char *msg, size_t n);

/* Can the terminal on stdout ($TERM) move the cursor (terminfo's `cup`)?
 * 1 yes; 0 no (TERM=dumb, Emacs' shell); -1 TERM is not in the terminfo
 * database. */
int ui_display_can_address(void);

/* Restore the terminal (idempotent; also run at exit and on fatal signals). */
void ui_display_close(void);

/* The screen size now. */
void ui_display_size(int *cols, int *rows);

/* Headless: change the virtual screen's size. */
void ui_display_resize(int cols, int rows);

/* Can the terminal show non-ASCII text (a UTF-8 locale)? */
int ui_display_utf8(void);

/* Paint the canvas; put the cursor at (cy, cx), or hide it when cy < 0. */
void ui_display_paint(const struct ui_canvas *c, int cy, int cx);

/* Force a full repaint on the next paint (C-l). */
void ui_display_touch(void);

/* Wait for the next key or mouse event from the terminal.  Returns 1 with
 * *ev filled, or 0 when a terminating signal arrived (see
 * ui_display_signal); with `idle` set, also 2 after a short pause without
 * input (the caller has work in the background to look at). */
int ui_display_read(struct ui_event *ev, int idle);

/* The terminating signal (SIGINT, SIGTERM, SIGHUP) received, or 0. */
int ui_display_signal(void);

/* Put text[0..len) on the terminal's clipboard with OSC 52 (xterm's
 * selection escape, which terminals pass through ssh): ESC ] 52 ; c ;
 * BASE64 BEL.  Inside tmux ($TMUX set) the sequence is sent plain (tmux
 * takes it with set-clipboard on) and once more wrapped in tmux's
 * passthrough, ESC P tmux; ... ESC \ with every ESC doubled (it reaches the
 * outer terminal with allow-passthrough on).  Returns 0, or -1 when there
 * is no terminal (headless) or the text is over 64 kB. */
int ui_display_clipboard(const char *text, size_t len);

#endif
