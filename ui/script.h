/* script.h - headless mode: keys and commands from a script file instead of
 * the terminal (tig's TIG_SCRIPT), for the tests and the benchmark.
 *
 * One item per line:
 *   # comment            (blank lines are ignored too)
 *   :COMMAND             a command, as typed at the ':' prompt
 *   KEYS                 keys, typed one after the other: characters stand
 *                        for themselves, <Name> for a special key (<Enter>
 *                        <Tab> <S-Tab> <Esc> <Space> <BS> <Del> <Up> <Down>
 *                        <Left> <Right> <PgUp> <PgDn> <Home> <End> <F1>..
 *                        <F12> <C-x> <LT> for '<', <:> for ':'), and mouse
 *                        events <Click X Y> <DoubleClick X Y> <WheelUp X Y>
 *                        <WheelDown X Y> (0-based screen column and row),
 *                        and <Sleep MS>: MS milliseconds pass (0 to
 *                        600000), with a followed file read as they do
 * The script ends the session when it ends.
 */
#ifndef UI_SCRIPT_H
#define UI_SCRIPT_H

#include <stddef.h>

#include "keys.h"

struct ui_script;

/* Read the script at path.  NULL with a message in msg on failure. */
struct ui_script *ui_script_open(const char *path, char *msg, size_t n);

/* The next event: 1 (filled), 0 at the end, -1 on a syntax error (msg says
 * FILE:LINE: what).  ev->command stays valid until the next call. */
int ui_script_next(struct ui_script *s, struct ui_event *ev, char *msg, size_t n);

void ui_script_free(struct ui_script *s);

#endif
