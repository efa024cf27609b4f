/* keys.h - requests, key bindings and key names: one table drives both the
 * dispatch and the help screen (HACKING.md, Adding things; tig's request
 * table).
 *
 * A key press becomes a request (an action such as "move down" or "drop
 * the selected function") by looking the key up first in the bindings of
 * the current view, then in the global ones.  The help screen and the man
 * page's key list are generated from the same tables, so they cannot drift
 * from what the keys do.
 *
 * Keys are ints: a Unicode code point for a character (control characters
 * included: UI_CTRL('r')), a UI_K_* code for a function key (our own codes:
 * display.c, the only file that includes curses, maps curses' KEY_* codes
 * to them), and a few pseudo keys for mouse events, resizes and script
 * commands.
 */
#ifndef UI_KEYS_H
#define UI_KEYS_H

#include <stddef.h>

#include "views.h"

/* The views (views.h), in Tab order, and the prompt (a key context of its
 * own). */
enum ui_view_id {
#define UI_VIEW_ENUM(id, ops, key, cmd, arg, help, chelp) UI_V_##id,
    UI_VIEWS(UI_VIEW_ENUM)
#undef UI_VIEW_ENUM
        UI_V_COUNT,
    UI_V_PROMPT = UI_V_COUNT, /* the ':' and '/' prompts */
};
#define UI_VIEW_BIT(v) (1u << (v))
#define UI_TREES (UI_VIEW_BIT(UI_V_TOPDOWN) | UI_VIEW_BIT(UI_V_BOTTOMUP))

/* Function keys. */
enum ui_fkey {
    UI_K_UP = 0x200001,
    UI_K_DOWN,
    UI_K_LEFT,
    UI_K_RIGHT,
    UI_K_HOME,
    UI_K_END,
    UI_K_PGUP,
    UI_K_PGDN,
    UI_K_BACKSPACE,
    UI_K_DELETE,
    UI_K_BACKTAB,
    UI_K_KP_ENTER,         /* the keypad's Enter */
    UI_K_F0 = 0x200100,    /* UI_K_F0 + n is Fn, n = 1..12 */
    UI_K_OTHER = 0x201000, /* UI_K_OTHER + c: a function key with no name here */
};
#define UI_CTRL(c) ((c)&0x1f)
#define UI_K_ESC 27
#define UI_K_TAB 9
#define UI_K_ENTER 13
#define UI_K_MOUSE 0x300000   /* a mouse event: see struct ui_event */
#define UI_K_RESIZE 0x300001  /* the terminal changed size */
#define UI_K_COMMAND 0x300002 /* a script's ":command" line */
#define UI_K_SLEEP 0x300003   /* a script's <Sleep MS>: x milliseconds pass */

enum ui_button { UI_B_CLICK = 1, UI_B_DOUBLE, UI_B_WHEEL_UP, UI_B_WHEEL_DOWN };

/* One input event. */
struct ui_event {
    int key;
    int x, y, button;    /* UI_K_MOUSE: screen position, enum ui_button; UI_K_SLEEP: x ms */
    const char *command; /* UI_K_COMMAND: the command without ':' (borrowed) */
};

/* clang-format off: the tables read best as tables */
/* Help sections, in the order the help screen shows them. */
#define UI_SECTIONS(_)                                                                             \
    _(NAV, "Moving around")                                                                        \
    _(VIEW, "Views")                                                                               \
    _(SEARCH, "Search and sort")                                                                   \
    _(TRIM, "Trimming (each key adds one transform to the list; u undoes it)")                     \
    _(STACKS, "In the stacks view")                                                                \
    _(TREE, "In the tree views")                                                                   \
    _(LINES, "In the lines view and its code pane")                                                \
    _(TIMELINE, "In the timeline")                                                                 \
    _(PHASES, "In the phases view")                                                                \
    _(FLAME, "In the flame graph")                                                                 \
    _(TRANSFORMS, "In the transforms view")                                                        \
    _(PROMPT, "At the : and / prompts")

enum ui_section {
#define UI_SECTION_ENUM(id, title) UI_SEC_##id,
    UI_SECTIONS(UI_SECTION_ENUM)
#undef UI_SECTION_ENUM
        UI_SEC_COUNT
};

/* Every request: id, help section, help text.  `view` makes the requests
 * that show a view (VIEW_<id>) from views.h's table: call UI_REQUESTS(_,
 * view) with `view` taking views.h's columns. */
#define UI_REQUESTS(_, view)                                                                       \
    _(NONE, NAV, "")                                                                               \
    _(MOVE_UP, NAV, "up one row")                                                                  \
    _(MOVE_DOWN, NAV, "down one row")                                                              \
    _(PAGE_UP, NAV, "up one page")                                                                 \
    _(PAGE_DOWN, NAV, "down one page")                                                             \
    _(FIRST, NAV, "to the first row")                                                              \
    _(LAST, NAV, "to the last row")                                                                \
    _(SCROLL_LEFT, NAV, "scroll left (wide tables)")                                               \
    _(SCROLL_RIGHT, NAV, "scroll right (wide tables)")                                             \
    _(ENTER, NAV, "drill in: callers/callees of the function, the timeline of a level, ...")       \
    _(NEXT_VIEW, VIEW, "next view")                                                                \
    _(PREV_VIEW, VIEW, "previous view")                                                            \
    UI_VIEWS(view)                                                                                 \
    _(BACK, VIEW,                                                                                  \
      "back to the previous view; quit from the first (asking when transforms are "                \
      "not saved)")                                                                                \
    _(QUIT, VIEW, "quit at once (the transform list is kept: stackscope --resume FILE)")           \
    _(REDRAW, VIEW, "redraw the screen")                                                           \
    _(SEARCH, SEARCH,                                                                              \
      "search as you type: a substring (case-insensitive unless it has capitals) or /regex/; "     \
      "Enter keeps the match, Esc goes back")                                                      \
    _(SEARCH_NEXT, SEARCH, "next match")                                                           \
    _(SEARCH_PREV, SEARCH, "previous match")                                                       \
    _(FILTER, SEARCH,                                                                              \
      "filter: show only the rows that match (a substring or /regex/) as you type; an empty "      \
      "filter shows every row (tables and help)")                                                  \
    _(SORT_NEXT, SEARCH, "sort by the next column")                                                \
    _(SORT_REVERSE, SEARCH, "reverse the sort order")                                              \
    _(COPY_NAME, SEARCH, "copy the selected function's full name to the clipboard (OSC 52)")       \
    _(SOURCE_OPEN, VIEW,                                                                           \
      "annotate: the source of the selected frame, function, node or stack in the code pane, at "  \
      "its line (a function: its hottest line, its lines marked)")                                 \
    _(VALUE_NEXT, SEARCH,                                                                          \
      "weigh every view by the next measure: time, samples, memory, a pprof sample type")          \
    _(SWAP_BASE, SEARCH, "comparison (--base): swap the base and the new profile")                 \
    _(NORMALIZE, SEARCH,                                                                           \
      "comparison: normalize on or off (the base scaled to the new profile's total, as "           \
      "--normalize)")                                                                              \
    _(PROMPT, TRIM, "command prompt: a transform, or w FILE to save (see COMMANDS)")               \
    _(UNDO, TRIM, "undo the last change to the transform list")                                    \
    _(REDO, TRIM, "redo")                                                                          \
    _(DROP_FN, TRIM, "drop F: remove the samples with the selected function")                      \
    _(FOCUS_FN, TRIM, "focus F: keep only the samples with the selected function")                 \
    _(MERGE_FN, TRIM, "merge F: remove the function's frames, its time to its callers")            \
    _(PRUNE_FN, TRIM, "prune F: cut what the selected function calls")                             \
    _(TRIM_TO_FN, TRIM, "trim-to F: cut the frames outside the selected function")                 \
    _(COLLAPSE_FN, TRIM, "collapse-recursion F on the selected function")                          \
    _(TRIM_BASE_LEVEL, TRIM, "trim-base N: cut levels 1 to the selected level N")                  \
    _(TRIM_BASE_AUTO, TRIM, "trim-base auto: cut the scaffold")                                    \
    _(R_SIMPLIFY, TRIM, "r-simplify: merge R's evaluation machinery (eval, tryCatch, ...)")        \
    _(NAME_ANONYMOUS, TRIM, "name-anonymous: name FUN and <Anonymous> by their call site")         \
    _(PRESET_R, TRIM, "the R preset: r-simplify, name-anonymous, trim-base auto (one undo step)")  \
    _(KEEP_MAIN, TRIM,                                                                             \
      "keep-phase main: keep the main phase, the burn-in and fade-out found and dropped")          \
    _(STACK_TOGGLE, STACKS, "show or hide the frames of the selected stack")                       \
    _(STACK_MARK, STACKS, "mark the selected frame (start of a frame sequence)")                   \
    _(STACK_REPLACE, STACKS, "replace the frames from the mark to here by one (prompt)")           \
    _(TREE_FOCUS, TREE, "focus: the tree of the selected function (q goes back)")                  \
    _(TREE_EXPAND, TREE, "expand the node")                                                        \
    _(TREE_COLLAPSE, TREE, "collapse the node, or go to its parent")                               \
    _(TREE_TOGGLE, TREE, "expand or collapse the node")                                            \
    _(TREE_EXPAND_ALL, TREE, "expand everything under the node")                                   \
    _(LINE_ENTER, LINES,                                                                           \
      "the list: the line's file in the code pane; the pane: keep-line, only the samples "         \
      "through the line (u undoes it)")                                                            \
    _(HOT_NEXT, LINES, "code pane: the next hot line, cooler (perf annotate's Tab)")               \
    _(HOT_PREV, LINES, "code pane: the previous hot line, hotter")                                 \
    _(TL_LEFT, TIMELINE, "cursor one column left")                                                 \
    _(TL_RIGHT, TIMELINE, "cursor one column right")                                               \
    _(TL_PAN_LEFT, TIMELINE, "cursor half a screen left")                                          \
    _(TL_PAN_RIGHT, TIMELINE, "cursor half a screen right")                                        \
    _(TL_START, TIMELINE, "cursor to the first column")                                            \
    _(TL_END, TIMELINE, "cursor to the last column")                                               \
    _(TL_ZOOM_IN, TIMELINE, "zoom in around the cursor")                                           \
    _(TL_ZOOM_OUT, TIMELINE, "zoom out")                                                           \
    _(TL_ZOOM_RESET, TIMELINE, "show the whole profile")                                           \
    _(TL_PHASE, TIMELINE,                                                                          \
      "mark the phase under the cursor, as the detector found it (then d or K)")                   \
    _(TL_MARK, TIMELINE, "mark the cursor column (start of a range); again: clear the mark")       \
    _(TL_DROP, TIMELINE, "drop the marked range (drop-samples) or phase (drop-phase)")             \
    _(TL_KEEP, TIMELINE, "keep only the marked range (keep-samples) or phase (keep-phase)")        \
    _(TL_LEGEND, TIMELINE,                                                                         \
      "the whole legend: every letter on screen and its function; again: back")                    \
    _(PH_KEEP, PHASES, "keep-phase N: keep only the selected phase")                               \
    _(PH_DROP, PHASES, "drop-phase N: drop the selected phase")                                    \
    _(PH_MARK, PHASES, "mark the selected phase (the base of C); again: clear the mark")           \
    _(PH_COMPARE, PHASES,                                                                          \
      "compare the selected phase with the marked one, or the main one (:compare-phases A B)")     \
    _(FL_LEFT, FLAME, "the frame to the left on the same row")                                     \
    _(FL_RIGHT, FLAME, "the frame to the right on the same row")                                   \
    _(FL_UP, FLAME, "the parent frame (the caller; inverted: the callee)")                         \
    _(FL_DOWN, FLAME, "the widest child frame")                                                    \
    _(FL_ZOOM, FLAME, "zoom: the frame fills the width, its ancestors above as a breadcrumb")      \
    _(FL_ZOOM_OUT, FLAME, "zoom out one step (q too, while zoomed)")                               \
    _(FL_ZOOM_ALL, FLAME, "zoom out to the whole graph")                                           \
    _(FL_ORDER, FLAME, "children by name (flamegraph.pl) or by weight (left heavy)")               \
    _(FL_INVERT, FLAME, "inverted: the leaves as roots, their callers below")                      \
    _(FL_TIME, FLAME, "time order: the flame chart, samples not merged across time (profvis)")     \
    _(FL_COLOURS, FLAME, "colours by function or by class (the class transforms)")                 \
    _(TF_TOGGLE, TRANSFORMS, "turn the step off or on")                                            \
    _(TF_DELETE, TRANSFORMS, "delete the step")                                                    \
    _(TF_EDIT, TRANSFORMS, "edit the step (prompt)")                                               \
    _(TF_ADD, TRANSFORMS, "add a step after this one (prompt)")                                    \
    _(TF_MOVE_UP, TRANSFORMS, "move the step up")                                                  \
    _(TF_MOVE_DOWN, TRANSFORMS, "move the step down")                                              \
    _(PR_ACCEPT, PROMPT, "run the command / search")                                               \
    _(PR_CANCEL, PROMPT, "cancel")                                                                 \
    _(PR_COMPLETE, PROMPT, "complete a command or function name; again: the next candidate")       \
    _(PR_HIST_PREV, PROMPT, "previous line of the history")                                        \
    _(PR_HIST_NEXT, PROMPT, "next line of the history")                                            \
    _(PR_LEFT, PROMPT, "cursor left")                                                              \
    _(PR_RIGHT, PROMPT, "cursor right")                                                            \
    _(PR_HOME, PROMPT, "cursor to the start")                                                      \
    _(PR_END, PROMPT, "cursor to the end")                                                         \
    _(PR_BACKSPACE, PROMPT, "delete the character before the cursor")                              \
    _(PR_DELETE, PROMPT, "delete the character under the cursor")                                  \
    _(PR_KILL_LINE, PROMPT, "delete to the start of the line")                                     \
    _(PR_KILL_WORD, PROMPT, "delete the word before the cursor")

enum ui_request {
#define UI_REQUEST_ENUM(id, sec, help) UI_REQ_##id,
#define UI_REQUEST_VIEW_ENUM(id, ops, key, cmd, arg, help, chelp) UI_REQ_VIEW_##id,
    UI_REQUESTS(UI_REQUEST_ENUM, UI_REQUEST_VIEW_ENUM)
#undef UI_REQUEST_ENUM
#undef UI_REQUEST_VIEW_ENUM
        UI_REQ_COUNT
};

/* clang-format on */

/* One key binding: `key` means `req` in the views of the mask `views`
 * (0: everywhere, as a fallback). */
struct ui_binding {
    int key;
    enum ui_request req;
    unsigned views;
};

/* The request of `key` in view (or prompt) `v`; UI_REQ_NONE when unbound. */
enum ui_request ui_key_request(int key, enum ui_view_id v);

/* The bindings table (borrowed), n entries. */
const struct ui_binding *ui_bindings(size_t *n);

/* The view a VIEW_<id> request shows, or -1 for any other request. */
int ui_request_view(enum ui_request r);

/* Help text and section of a request. */
const char *ui_request_help(enum ui_request r);
enum ui_section ui_request_section(enum ui_request r);
const char *ui_section_title(enum ui_section s);

/* The name of key k ("j", "Down", "C-r", "Enter", "Space") into buf. */
const char *ui_key_name(int k, char *buf, size_t n);

/* Parse a key name as written in scripts between < and > ("Down", "C-r",
 * "Enter", "F1", "LT" for '<'); returns the key or -1. */
int ui_key_parse(const char *name);

/* The names of the keys of request r in view v (its view-specific keys,
 * else its global ones), at most `max` of them joined by ", " ("h, Left"),
 * into buf; "" when r has no key there. */
const char *ui_request_keys(enum ui_request r, enum ui_view_id v, int max, char *buf, size_t n);

/* The hint line of view v (htop's function bar, tig's view keys): the
 * view's main keys with a word each, then the keys of every view ("/
 * search  : command  ? help  q back"), as many as fit in `width` columns
 * (the last ones always).  From the key table, so it says what the keys
 * do.  Into buf. */
const char *ui_hint_line(enum ui_view_id v, int width, char *buf, size_t n);

#endif
