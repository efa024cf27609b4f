/* canvas.h - the cell buffer every view draws into (format first,
 * paint second: HACKING.md, Layers).
 *
 * Views never call curses: they write text into a canvas of cells (a code
 * point and a style each), and display.c paints the canvas in one go.  The
 * same canvas is what the headless mode dumps for the tests, so a dump shows
 * exactly what the terminal was sent.  Text is UTF-8 (profile names are
 * arbitrary bytes, usually UTF-8): it is decoded here; control characters
 * and bytes that are not UTF-8 show escaped by the rule of every text
 * output (src/textesc.h: \x1b, \t, \xc2\x9b for a C1 control, \x9b for a
 * stray byte), so no cell ever holds a control character; an escape is one
 * unit, never cut.  Widths come from wcwidth() when the locale is UTF-8 (a
 * double-width character fills two cells, the second a continuation cell
 * with ch == 0); in another locale every other non-ASCII character shows as
 * '?', and so does one wcwidth() cannot show.
 *
 * This module is plain C with no curses, so it is unit-testable alone.
 */
#ifndef UI_CANVAS_H
#define UI_CANVAS_H

#include <stdint.h>
#include <stdio.h>

/* What a cell means; display.c maps styles to colours or, on a monochrome
 * terminal or with NO_COLOR, to bold / reverse / underline. */
enum ui_style {
    UI_S_NORMAL,
    UI_S_TITLE,    /* the top line */
    UI_S_HEADER,   /* column headers */
    UI_S_SELECTED, /* the selected row */
    UI_S_STATUS,   /* the status line */
    UI_S_MESSAGE,  /* the message line */
    UI_S_ERROR,    /* an error on the message line */
    UI_S_MARK,     /* marked things: scaffold levels, a marked range, tree glyphs */
    UI_S_DIM,      /* secondary text */
    UI_S_MATCH,    /* search matches */
    UI_S_CURSOR,   /* the timeline cursor */
    UI_S_FRAMESEL, /* the selected frame of a flame graph: a style no frame
                    * colour uses (reverse, bold and underlined, in the
                    * terminal's own colours) */
    /* a comparison's deltas (flame graph): grew (red) and shrank (blue),
     * 1..3 by size (ss_compare_shade) */
    UI_S_GREW1,
    UI_S_GREW2,
    UI_S_GREW3,
    UI_S_SHRANK1,
    UI_S_SHRANK2,
    UI_S_SHRANK3,
    UI_S_FN0, /* timeline function colours UI_S_FN0 .. UI_S_FN0 + UI_NFNCOLORS - 1 */
    UI_S_COUNT = UI_S_FN0 + 6,
};
#define UI_NFNCOLORS 6

struct ui_cell {
    uint32_t ch;   /* code point; 0 = right half of a double-width character */
    uint8_t style; /* enum ui_style */
};

struct ui_canvas {
    int w, h;
    struct ui_cell *cells; /* h rows of w cells (owned) */
    int utf8;              /* the locale can show non-ASCII characters */
    /* While ui_table_draw draws a table on it: its widths and header names,
     * on the draw's stack, for the row and header calls (ui/table.c). */
    struct ui_table_pass *table;
};

/* Make the canvas w x h (cleared).  Returns 0 or -1 (out of memory; the old
 * size is kept). */
int ui_canvas_resize(struct ui_canvas *c, int w, int h);
void ui_canvas_free(struct ui_canvas *c);

/* Blank every cell (space, normal style). */
void ui_canvas_clear(struct ui_canvas *c);

/* Set the style of n cells from (y, x), keeping their characters; with
 * `blank`, also blank them. */
void ui_canvas_style(struct ui_canvas *c, int y, int x, int n, int style, int blank);

/* Decode one UTF-8 character at s (len bytes left): returns the bytes used
 * (>= 1) and stores the code point, or U+FFFD for an invalid sequence
 * (ss_utf8_decode). */
int ui_utf8_decode(const char *s, size_t len, uint32_t *cp);

/* The next unit of UTF-8 text s (len > 0 bytes left) as the canvas shows it:
 * a character, or the escape of a control character or of a byte that is
 * not UTF-8.  Returns the bytes it takes (>= 1) and stores its width in
 * columns in *w.  Walk text with this to count columns as ui_put does. */
int ui_text_next(const struct ui_canvas *c, const char *s, size_t len, int *w);

/* Display width of UTF-8 text. */
int ui_text_width(const struct ui_canvas *c, const char *s);

/* Write s at (y, x), at most maxw columns (a double-width character that
 * does not fit is left out).  Returns the columns written. */
int ui_put(struct ui_canvas *c, int y, int x, int maxw, const char *s, int style);

/* Write s into exactly w columns at (y, x): padded with spaces (right-aligned
 * when align_right), or, when too wide, abbreviated in the middle with an
 * ellipsis ('~' outside UTF-8) so that both ends stay readable. */
void ui_put_fit(struct ui_canvas *c, int y, int x, int w, const char *s, int style,
                int align_right);

/* Write s into exactly w columns, left-aligned; when too wide, cut at its
 * start behind an ellipsis so that its end shows. */
void ui_put_tail(struct ui_canvas *c, int y, int x, int w, const char *s, int style);

/* Write s into exactly w columns, left-aligned; when too wide, cut at its
 * end with an ellipsis. */
void ui_put_head(struct ui_canvas *c, int y, int x, int w, const char *s, int style);

/* Write printf-style text at (y, x), at most maxw columns.  Returns the
 * columns written. */
int ui_printf(struct ui_canvas *c, int y, int x, int maxw, int style, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Write the canvas as UTF-8 text, one line per row, trailing blanks
 * removed.  Returns 0 or -1 (write error). */
int ui_canvas_dump(const struct ui_canvas *c, FILE *f);

/* Write the canvas's styles, one letter per cell and one line per row (the
 * letters: ui_style_letter), so that a test can see what a dump of the
 * text cannot: which cell is selected, which colour a frame has.  Returns
 * 0 or -1 (write error). */
int ui_canvas_dump_styles(const struct ui_canvas *c, FILE *f);

/* The letter of style s in ui_canvas_dump_styles: '.' normal, T title, H
 * header, S selected, s status, m message, E error, K mark, d dim, M
 * match, C cursor, F the selected frame, 1-3 grew, 4-6 shrank, a-f the
 * function colours. */
char ui_style_letter(int s);

#endif
