/* view_help.c - the help screen, generated from the key table (keys.c) and
 * the command table (command.c), so it always says what the keys do.
 * `:save-help FILE` writes the same reference as text; the tests check the
 * man page against it. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "command.h"
#include "vec.h"

/* One logical line: a section title (keys == NULL) or keys + text; the
 * section a title opens and the request a line of keys is of (-1: none),
 * for `?` to open the help where the view's keys are. */
struct help_line {
    char *keys;
    char *text;
    int sec, req;
};

struct help_view {
    int built; /* lines holds the reference */
    struct help_line *lines;
    size_t nlines;
    int width; /* the width `rows` were wrapped for */
    int keyw;  /* the width of the keys column for it */
    struct {
        size_t line;  /* logical line */
        size_t start; /* byte offset into the text of this screen row */
        size_t len;
        int keys; /* the row shows the line's keys */
    } * rows;
    size_t nrows;
};

static int add(struct help_view *h, const char *keys, const char *text)
{
    struct help_line *nl = ss_realloc_array(h->lines, h->nlines + 1, sizeof *nl);
    if (!nl)
        return -1;
    h->lines = nl;
    nl[h->nlines].keys = keys ? strdup(keys) : NULL;
    nl[h->nlines].text = strdup(text);
    nl[h->nlines].sec = nl[h->nlines].req = -1;
    h->nlines++;
    return 0;
}

/* Free the logical lines and forget them. */
static void lines_free(struct help_view *h)
{
    for (size_t i = 0; i < h->nlines; i++) {
        free(h->lines[i].keys);
        free(h->lines[i].text);
    }
    free(h->lines);
    h->lines = NULL;
    h->nlines = 0;
}

/* The logical lines, from the tables. */
static int build(struct help_view *h)
{
    size_t nb;
    const struct ui_binding *b = ui_bindings(&nb);
    for (int sec = 0; sec < UI_SEC_COUNT; sec++) {
        if (add(h, NULL, ui_section_title((enum ui_section)sec)))
            return -1;
        h->lines[h->nlines - 1].sec = sec;
        for (int r = 1; r < UI_REQ_COUNT; r++) {
            if ((int)ui_request_section((enum ui_request)r) != sec)
                continue;
            char keys[128] = "";
            unsigned views = 0;
            int any = 0;
            for (size_t i = 0; i < nb; i++) {
                if ((int)b[i].req != r)
                    continue;
                char name[32];
                ui_key_name(b[i].key, name, sizeof name);
                /* one name once (Enter has three codes) */
                char probe[40];
                snprintf(probe, sizeof probe, ", %s,", name);
                char have[140];
                snprintf(have, sizeof have, ", %s,", keys);
                if (strstr(have, probe))
                    continue;
                size_t k = strlen(keys);
                snprintf(keys + k, sizeof keys - k, "%s%s", k ? ", " : "", name);
                views |= b[i].views;
                any = 1;
            }
            if (!any)
                continue;
            char text[512];
            snprintf(text, sizeof text, "%s", ui_request_help((enum ui_request)r));
            /* say where a view-specific key works, unless the section does */
            if (views && sec != UI_SEC_STACKS && sec != UI_SEC_TREE && sec != UI_SEC_TIMELINE &&
                sec != UI_SEC_FLAME && sec != UI_SEC_TRANSFORMS && sec != UI_SEC_PROMPT) {
                size_t k = strlen(text);
                k += (size_t)snprintf(text + k, sizeof text - k, " (in");
                for (int v = 0; v < UI_V_COUNT && k < sizeof text; v++)
                    if (views & (1u << v))
                        k += (size_t)snprintf(text + k, sizeof text - k, " %s",
                                              ui_view_ops_of((enum ui_view_id)v)->name);
                snprintf(text + k, sizeof text - k, ")");
            }
            if (add(h, keys, text))
                return -1;
            h->lines[h->nlines - 1].req = r;
        }
    }
    if (add(h, NULL, "Commands (type : then the command; Tab completes)"))
        return -1;
    size_t nc;
    const struct ui_command_info *cmds = ui_commands(&nc);
    for (size_t i = 0; i < nc; i++) {
        char keys[128];
        snprintf(keys, sizeof keys, ":%s%s%s", cmds[i].name, cmds[i].args[0] ? " " : "",
                 cmds[i].args);
        if (add(h, keys, cmds[i].help))
            return -1;
    }
    if (add(h, NULL, "Mouse") ||
        add(h, "click", "select the row (in the timeline: move the cursor there)") ||
        add(h, "double-click", "drill in, as Enter") || add(h, "wheel", "scroll"))
        return -1;
    return 0;
}

/* The keys column: as wide as the widest entry (":replace F1 F2 ... =>
 * NEW"), so that no entry is cut, while the text keeps at least TEXTW
 * columns; on a screen narrower than that, longer keys get a row of their
 * own (wrap). */
#define KEYW_MIN 12
#define TEXTW 30

static int key_width(const struct help_view *h, int width)
{
    int w = KEYW_MIN;
    for (size_t i = 0; i < h->nlines; i++)
        if (h->lines[i].keys && (int)strlen(h->lines[i].keys) > w)
            w = (int)strlen(h->lines[i].keys); /* ASCII */
    if (w > width - TEXTW - 3)
        w = width - TEXTW - 3 > KEYW_MIN ? width - TEXTW - 3 : KEYW_MIN;
    return w;
}

/* Append a screen row; returns 0 or -1 (out of memory). */
static int add_row(struct help_view *h, size_t *cap, size_t line, size_t start, size_t len,
                   int keys)
{
    if (h->nrows == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        void *nr = ss_realloc_array(h->rows, *cap, sizeof *h->rows);
        if (!nr)
            return -1;
        h->rows = nr;
    }
    h->rows[h->nrows].line = line;
    h->rows[h->nrows].start = start;
    h->rows[h->nrows].len = len;
    h->rows[h->nrows].keys = keys;
    h->nrows++;
    return 0;
}

/* Wrap the text column to the screen width.  Keys wider than the keys
 * column (a narrow screen) get a row of their own above the text. */
static int wrap(struct help_view *h, int width)
{
    free(h->rows);
    h->rows = NULL;
    h->nrows = 0;
    size_t cap = 0;
    h->keyw = key_width(h, width);
    int tw = width - h->keyw - 3;
    if (tw < 20)
        tw = 20;
    for (size_t i = 0; i < h->nlines; i++) {
        const char *t = h->lines[i].text;
        size_t len = strlen(t), pos = 0;
        int keys = h->lines[i].keys != NULL;
        if (keys && (int)strlen(h->lines[i].keys) > h->keyw) {
            if (add_row(h, &cap, i, 0, 0, 1))
                return -1;
            keys = 0;
        }
        do {
            size_t take = len - pos;
            if (h->lines[i].keys && take > (size_t)tw) {
                take = (size_t)tw;
                while (take > 0 && t[pos + take] != ' ')
                    take--;
                if (take == 0)
                    take = (size_t)tw;
            }
            if (add_row(h, &cap, i, pos, take, keys && pos == 0))
                return -1;
            pos += take;
            while (pos < len && t[pos] == ' ')
                pos++;
        } while (pos < len);
    }
    h->width = width;
    return 0;
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct help_view *h = v->priv;
    if (!h->built) {
        if (build(h)) {
            lines_free(h);
            ui_error(ui, "out of memory");
            return -1;
        }
        h->built = 1;
    }
    int w = ui->canvas.w > 0 ? ui->canvas.w : 80;
    if (h->width != w && wrap(h, w)) {
        ui_error(ui, "out of memory");
        return -1;
    }
    v->list.n = h->nrows;
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    snprintf(buf, n, "keys and commands (/ searches, & filters, q goes back)");
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    struct help_view *h = v->priv;
    const struct help_line *l = &h->lines[h->rows[row].line];
    ui_canvas_style(c, y, 0, c->w, style, 1);
    if (!l->keys) {
        ui_put(c, y, 0, c->w, l->text, style == UI_S_NORMAL ? UI_S_HEADER : style);
        return;
    }
    int kw = h->keyw;
    if (h->rows[row].keys)
        ui_put_fit(c, y, 2, h->rows[row].len || h->rows[row].start ? kw : c->w - 2, l->keys,
                   style == UI_S_NORMAL ? UI_S_MARK : style, 0);
    char seg[1024];
    snprintf(seg, sizeof seg, "%.*s", (int)h->rows[row].len, l->text + h->rows[row].start);
    ui_put(c, y, kw + 3, c->w - kw - 3, seg, style);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    ui_list_draw(ui, v, c, y, h, draw_row);
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    struct help_view *h = v->priv;
    const struct help_line *l = &h->lines[h->rows[r].line];
    snprintf(buf, n, "%s %.*s", l->keys && h->rows[r].keys ? l->keys : "", (int)h->rows[r].len,
             l->text + h->rows[r].start);
    return buf;
}

size_t ui_help_row_of(struct ui_view *help, enum ui_view_id from)
{
    struct help_view *h = help->priv;
    /* the section of the keys bound to `from` alone (the flame graph's,
     * the timeline's, ...), else the top (moving around: every view's) */
    int sec = -1;
    size_t nb;
    const struct ui_binding *b = ui_bindings(&nb);
    for (size_t i = 0; i < nb && sec < 0; i++)
        if (b[i].views & (1u << from))
            sec = (int)ui_request_section(b[i].req);
    size_t line = 0;
    for (size_t i = 0; i < h->nlines && sec >= 0; i++)
        if (h->lines[i].sec == sec) {
            line = i;
            break;
        }
    for (size_t r = 0; r < h->nrows; r++)
        if (h->rows[r].line == line)
            return r;
    return 0;
}

static void view_free(struct ui_view *v)
{
    struct help_view *h = v->priv;
    lines_free(h);
    free(h->rows);
}

int ui_help_write(FILE *f)
{
    struct help_view h;
    memset(&h, 0, sizeof h);
    int rc = build(&h);
    for (size_t i = 0; i < h.nlines && !rc; i++) {
        if (h.lines[i].keys)
            fprintf(f, "%s\t%s\n", h.lines[i].keys, h.lines[i].text);
        else
            fprintf(f, "# %s\n", h.lines[i].text);
    }
    lines_free(&h);
    return rc || ferror(f) ? -1 : 0;
}

const struct ui_view_ops ui_view_help = {
    .name = "help",
    .flags = UI_VF_NO_CYCLE,
    .priv_size = sizeof(struct help_view),
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .row_text = row_text,
    .free = view_free,
};
