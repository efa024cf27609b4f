/* canvas.c - the cell buffer (see canvas.h). */
#include "canvas.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "textesc.h"
#include "vec.h"

int ui_canvas_resize(struct ui_canvas *c, int w, int h)
{
    if (w < 1)
        w = 1;
    if (h < 1)
        h = 1;
    struct ui_cell *cells = ss_alloc_array((size_t)w * (size_t)h, sizeof *cells);
    if (!cells)
        return -1;
    free(c->cells);
    c->cells = cells;
    c->w = w;
    c->h = h;
    ui_canvas_clear(c);
    return 0;
}

void ui_canvas_free(struct ui_canvas *c)
{
    free(c->cells);
    c->cells = NULL;
    c->w = c->h = 0;
}

void ui_canvas_clear(struct ui_canvas *c)
{
    for (size_t i = 0; i < (size_t)c->w * (size_t)c->h; i++) {
        c->cells[i].ch = ' ';
        c->cells[i].style = UI_S_NORMAL;
    }
}

void ui_canvas_style(struct ui_canvas *c, int y, int x, int n, int style, int blank)
{
    if (y < 0 || y >= c->h)
        return;
    if (x < 0) {
        n += x;
        x = 0;
    }
    if (x + n > c->w)
        n = c->w - x;
    for (int i = 0; i < n; i++) {
        struct ui_cell *cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)(x + i)];
        cell->style = (uint8_t)style;
        if (blank)
            cell->ch = ' ';
    }
}

int ui_utf8_decode(const char *s, size_t len, uint32_t *cp)
{
    return ss_utf8_decode(s, len, cp);
}

/* The character shown for a printable cp: '?' for what the locale cannot
 * show (control characters never get here: they are escaped). */
static uint32_t shown(const struct ui_canvas *c, uint32_t cp)
{
    if (cp >= 0x80 && (!c->utf8 || wcwidth((wchar_t)cp) < 0))
        return '?';
    return cp;
}

/* Width of a code point shown as itself. */
static int shown_width(const struct ui_canvas *c, uint32_t cp)
{
    cp = shown(c, cp);
    if (cp < 0x80)
        return 1;
    int w = wcwidth((wchar_t)cp);
    return w < 0 ? 1 : w > 2 ? 2 : w;
}

/* The next unit of s (len > 0 bytes left) as this canvas shows it: returns
 * the bytes it takes; *cp is the character to put, or esc holds the escape
 * to write instead (textesc.h); *w is the width either way. */
static int next_unit(const struct ui_canvas *c, const char *s, size_t len, uint32_t *cp,
                     char esc[SS_ESC_MAX], int *w)
{
    int k = (int)ss_esc_unit(s, len, SS_ESC_TEXT, cp, esc);
    if (esc[0]) {
        *w = (int)strlen(esc);
    } else {
        *w = shown_width(c, *cp);
        *cp = shown(c, *cp);
    }
    return k;
}

int ui_text_next(const struct ui_canvas *c, const char *s, size_t len, int *w)
{
    uint32_t cp;
    char esc[SS_ESC_MAX];
    return next_unit(c, s, len, &cp, esc, w);
}

int ui_text_width(const struct ui_canvas *c, const char *s)
{
    size_t len = strlen(s);
    int w = 0;
    while (len) {
        int cw;
        int k = ui_text_next(c, s, len, &cw);
        w += cw;
        s += k;
        len -= (size_t)k;
    }
    return w;
}

/* Put one character of width cw at (y, x); combining characters (width 0)
 * are dropped (a cell holds one code point). */
static void put_cp(struct ui_canvas *c, int y, int x, uint32_t cp, int cw, int style)
{
    if (cw == 0 || y < 0 || y >= c->h || x < 0 || x + cw > c->w)
        return;
    struct ui_cell *cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
    cell[0].ch = cp;
    cell[0].style = (uint8_t)style;
    if (cw == 2) {
        cell[1].ch = 0;
        cell[1].style = (uint8_t)style;
    }
}

int ui_put(struct ui_canvas *c, int y, int x, int maxw, const char *s, int style)
{
    if (x + maxw > c->w)
        maxw = c->w - x;
    size_t len = strlen(s);
    int used = 0;
    while (len && used < maxw) {
        uint32_t cp;
        char esc[SS_ESC_MAX];
        int cw;
        int k = next_unit(c, s, len, &cp, esc, &cw);
        s += k;
        len -= (size_t)k;
        if (used + cw > maxw)
            break; /* a wide character or an escape is never cut */
        if (esc[0])
            for (int i = 0; i < cw; i++)
                put_cp(c, y, x + used + i, (unsigned char)esc[i], 1, style);
        else
            put_cp(c, y, x + used, cp, cw, style);
        used += cw;
    }
    return used;
}

/* Is byte i of s (len bytes) part of a number: a digit, or a ',' or '.'
 * between two digits? */
static int in_number(const char *s, size_t len, size_t i)
{
    if (i >= len)
        return 0;
    if (s[i] >= '0' && s[i] <= '9')
        return 1;
    return (s[i] == ',' || s[i] == '.') && i > 0 && i + 1 < len && s[i - 1] >= '0' &&
           s[i - 1] <= '9' && s[i + 1] >= '0' && s[i + 1] <= '9';
}

/* Would a cut before byte i of s split a number? */
static int splits_number(const char *s, size_t len, size_t i)
{
    return i > 0 && in_number(s, len, i - 1) && in_number(s, len, i);
}

void ui_put_fit(struct ui_canvas *c, int y, int x, int w, const char *s, int style, int align_right)
{
    if (w <= 0)
        return;
    ui_canvas_style(c, y, x, w, style, 1);
    int tw = ui_text_width(c, s);
    if (tw <= w) {
        ui_put(c, y, align_right ? x + w - tw : x, tw, s, style);
        return;
    }
    if (w < 4) {
        ui_put(c, y, x, w, s, style);
        return;
    }
    /* head ... tail: the head gets the odd column */
    int tail = (w - 1) / 2, head = w - 1 - tail;
    size_t len = strlen(s), hb = 0;
    int hw = 0;
    while (hb < len) { /* the bytes of the head's columns */
        int cw;
        int k = ui_text_next(c, s + hb, len - hb, &cw);
        if (hw + cw > head)
            break;
        hw += cw;
        hb += (size_t)k;
    }
    /* find where the last `tail` columns start */
    const char *p = s;
    size_t rest = len;
    int skip = tw - tail, acc = 0;
    while (rest && acc < skip) {
        int cw;
        int k = ui_text_next(c, p, rest, &cw);
        acc += cw;
        p += k;
        rest -= (size_t)k;
    }
    (void)acc;
    /* a number is dropped whole, never cut (stackscope(1), MEASURES): each end
     * gives up the part of a number the cut would leave */
    size_t tb = (size_t)(p - s);
    while (hb > 0 && splits_number(s, len, hb)) {
        hb--;
        hw--; /* digits, ',' and '.' are one column each */
    }
    while (tb < len && splits_number(s, len, tb))
        tb++;
    int used = ui_put(c, y, x, hw, s, style);
    put_cp(c, y, x + used, c->utf8 ? 0x2026 : '~', 1, style);
    ui_put(c, y, x + used + 1, w - used - 1, s + tb, style);
}

void ui_put_tail(struct ui_canvas *c, int y, int x, int w, const char *s, int style)
{
    if (w <= 0)
        return;
    ui_canvas_style(c, y, x, w, style, 1);
    int tw = ui_text_width(c, s);
    if (tw <= w) {
        ui_put(c, y, x, tw, s, style);
        return;
    }
    put_cp(c, y, x, c->utf8 ? 0x2026 : '~', 1, style);
    size_t len = strlen(s);
    const char *p = s;
    int skip = tw - (w - 1), acc = 0;
    while (len && acc < skip) {
        int cw;
        int k = ui_text_next(c, p, len, &cw);
        acc += cw;
        p += k;
        len -= (size_t)k;
    }
    ui_put(c, y, x + 1 + (acc - skip), w - 1 - (acc - skip), p, style);
}

void ui_put_head(struct ui_canvas *c, int y, int x, int w, const char *s, int style)
{
    if (w <= 0)
        return;
    ui_canvas_style(c, y, x, w, style, 1);
    if (ui_text_width(c, s) <= w) {
        ui_put(c, y, x, w, s, style);
        return;
    }
    int used = ui_put(c, y, x, w - 1, s, style);
    put_cp(c, y, x + used, c->utf8 ? 0x2026 : '~', 1, style);
}

int ui_printf(struct ui_canvas *c, int y, int x, int maxw, int style, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return ui_put(c, y, x, maxw, buf, style);
}

static void put_utf8(FILE *f, uint32_t cp)
{
    if (cp < 0x80) {
        fputc((int)cp, f);
    } else if (cp < 0x800) {
        fputc((int)(0xc0 | cp >> 6), f);
        fputc((int)(0x80 | (cp & 0x3f)), f);
    } else if (cp < 0x10000) {
        fputc((int)(0xe0 | cp >> 12), f);
        fputc((int)(0x80 | ((cp >> 6) & 0x3f)), f);
        fputc((int)(0x80 | (cp & 0x3f)), f);
    } else {
        fputc((int)(0xf0 | cp >> 18), f);
        fputc((int)(0x80 | ((cp >> 12) & 0x3f)), f);
        fputc((int)(0x80 | ((cp >> 6) & 0x3f)), f);
        fputc((int)(0x80 | (cp & 0x3f)), f);
    }
}

int ui_canvas_dump(const struct ui_canvas *c, FILE *f)
{
    for (int y = 0; y < c->h; y++) {
        const struct ui_cell *row = &c->cells[(size_t)y * (size_t)c->w];
        int end = c->w;
        while (end > 0 && row[end - 1].ch == ' ')
            end--;
        for (int x = 0; x < end; x++)
            if (row[x].ch)
                put_utf8(f, row[x].ch);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

char ui_style_letter(int s)
{
    static const char letters[] = ".THSsmEKdMCF123456";
    _Static_assert(sizeof letters - 1 == UI_S_FN0, "a letter for every style before UI_S_FN0");
    if (s >= 0 && s < UI_S_FN0)
        return letters[s];
    return s >= UI_S_FN0 && s < UI_S_COUNT ? (char)('a' + (s - UI_S_FN0)) : '?';
}

int ui_canvas_dump_styles(const struct ui_canvas *c, FILE *f)
{
    for (int y = 0; y < c->h; y++) {
        const struct ui_cell *row = &c->cells[(size_t)y * (size_t)c->w];
        for (int x = 0; x < c->w; x++)
            fputc(ui_style_letter(row[x].style), f);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}
