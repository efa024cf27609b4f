/* table.c - the shared column drawer (tig's draw_* helpers, perf's column
 * descriptors): views hand it cells, it lays them out (numbers right-aligned
 * in fixed widths, the label taking what is left and abbreviated in the
 * middle), so every table looks and resizes alike. */
#include "app.h"

#include <string.h>

#include "order.h"

/* x and width of each column for a canvas `total` columns wide.  When the
 * label would get fewer than MIN_LABEL columns, the fixed columns nearest
 * to it are hidden (width 0) one by one: a narrow terminal keeps the names
 * and the first numbers. */
#define MIN_LABEL 16

/* What ui_table_draw's row and header calls see while it draws a table on a
 * canvas (c->table, on the draw's stack; NULL between draws): the widths
 * the `n` fixed columns take, each at least as wide as its widest number on
 * screen, so that no number is ever cut (stackscope(1), MEASURES), from a
 * first pass over the rows on screen (`measuring`) that only measures the
 * cells, the second drawing them; and the measure's name and the unit its
 * cells leave out (" s" for time; bytes and nanoseconds carry theirs), so
 * that a header of the measure's values names it: "self s", and a stacks'
 * or calls' "time" column says "memory" when it is; and what the profile
 * counts, so that a "samples" column of a heap profile says
 * "alloc_objects", as the status line does. */
struct ui_table_pass {
    int active, measuring;
    size_t n;
    int w[16];
    const char *measure, *unit;
    char count[64];
};

const char *ui_column_title(const struct ui_column *c)
{
    if (c->name || !c->col)
        return c->name ? c->name : "";
    return c->col->title ? c->col->title : c->col->name ? c->col->name : "";
}

int ui_column_width(const struct ui_column *c)
{
    if (c->width != UI_COL_CORE)
        return c->width;
    return c->col ? c->col->width : 0;
}

int ui_column_right(const struct ui_column *c)
{
    if (c->right != UI_COL_CORE)
        return c->right;
    return c->col && !(c->col->flags & (SS_COL_LEFT | SS_COL_LABEL));
}

/* The header of column c in a table drawn with t (or NULL), into buf. */
static const char *header_name(const struct ui_table_pass *t, const struct ui_column *c, char *buf,
                               size_t n)
{
    const char *title = ui_column_title(c);
    int value = c->col && c->col->name && strchr(c->col->name, '@');
    if (t && t->measure && !strcmp(title, "samples"))
        snprintf(buf, n, "%s", t->count);
    else if (!value || !t || !t->measure)
        snprintf(buf, n, "%s", title);
    else if (!strcmp(title, "time"))
        snprintf(buf, n, "%s%s", t->measure, t->unit);
    else
        snprintf(buf, n, "%s%s", title, t->unit);
    return buf;
}

/* The width column i of cols (n of them) takes in a table drawn with t (or
 * NULL). */
static int col_width(const struct ui_table_pass *t, const struct ui_column *cols, size_t n,
                     size_t i)
{
    int w = ui_column_width(&cols[i]);
    if (t && t->active && n == t->n && w && t->w[i] > w)
        return t->w[i];
    return w;
}

static void layout(const struct ui_table_pass *t, int total, const struct ui_column *cols, size_t n,
                   int *xs, int *ws)
{
    int hidden[16] = {0};
    int label;
    for (;;) {
        int fixed = 0;
        for (size_t i = 0; i < n; i++)
            if (!hidden[i])
                fixed += ui_column_width(&cols[i]) ? col_width(t, cols, n, i) + 1 : 1;
        label = total - fixed + 1;
        if (label >= MIN_LABEL)
            break;
        /* hide the last visible fixed column, keeping the first one */
        size_t k = n;
        for (size_t i = n; i-- > 1;)
            if (ui_column_width(&cols[i]) && !hidden[i]) {
                k = i;
                break;
            }
        if (k == n)
            break;
        hidden[k] = 1;
    }
    if (label < 8)
        label = 8;
    int x = 0;
    for (size_t i = 0; i < n; i++) {
        xs[i] = x;
        ws[i] = hidden[i] ? 0 : ui_column_width(&cols[i]) ? col_width(t, cols, n, i) : label;
        if (ws[i])
            x += ws[i] + 1;
    }
}

void ui_table_header(struct ui_canvas *c, int y, const struct ui_column *cols, size_t n,
                     int sort_col, int sort_rev)
{
    int xs[16], ws[16];
    if (n > 16)
        n = 16;
    layout(c->table, c->w, cols, n, xs, ws);
    ui_canvas_style(c, y, 0, c->w, UI_S_HEADER, 1);
    for (size_t i = 0; i < n; i++) {
        if (!ws[i])
            continue;
        char name[160], h[128];
        header_name(c->table, &cols[i], h, sizeof h);
        if ((int)i == sort_col)
            snprintf(name, sizeof name, "%s%s", h,
                     c->utf8 ? (sort_rev ? "\xe2\x86\x91" : "\xe2\x86\x93")
                             : (sort_rev ? "^" : "v"));
        else
            snprintf(name, sizeof name, "%s", h);
        ui_put_fit(c, y, xs[i], ws[i], name, UI_S_HEADER, ui_column_right(&cols[i]) == 1);
    }
}

/* The measuring pass: widen the fixed columns to their numbers. */
static void measure_row(const struct ui_canvas *c, const struct ui_column *cols, size_t n,
                        const char *const *cells)
{
    struct ui_table_pass *t = c->table;
    if (n != t->n)
        return;
    for (size_t i = 0; i < n; i++) {
        if (!cells[i] || !ui_column_width(&cols[i]) || ui_column_right(&cols[i]) != 1)
            continue;
        int w = ui_text_width(c, cells[i]);
        if (w > t->w[i])
            t->w[i] = w;
    }
}

void ui_table_row(struct ui_canvas *c, int y, const struct ui_column *cols, size_t n,
                  const char *const *cells, int style, int indent)
{
    int xs[16], ws[16];
    if (n > 16)
        n = 16;
    if (c->table && c->table->measuring) {
        measure_row(c, cols, n, cells);
        return;
    }
    layout(c->table, c->w, cols, n, xs, ws);
    ui_canvas_style(c, y, 0, c->w, style, 1);
    for (size_t i = 0; i < n; i++) {
        if (!cells[i] || !ws[i])
            continue;
        int x = xs[i], w = ws[i], right = ui_column_right(&cols[i]);
        if (!ui_column_width(&cols[i]) && indent > 0) {
            int ind = indent < w - 8 ? indent : (w > 8 ? w - 8 : 0);
            x += ind;
            w -= ind;
        }
        if (right == 2)
            ui_put_tail(c, y, x, w, cells[i], style);
        else if (right == 3)
            ui_put_head(c, y, x, w, cells[i], style);
        else
            ui_put_fit(c, y, x, w, cells[i], style, right);
    }
}

void ui_table_cells(struct ui_canvas *c, int y, const struct ui_column *cols, size_t n,
                    const void *ctx, size_t r, int style, int indent)
{
    struct ss_cellbuf b[16];
    const char *cells[16] = {NULL};
    if (n > 16)
        n = 16;
    memset(b, 0, sizeof b);
    for (size_t i = 0; i < n; i++)
        cells[i] = cols[i].col ? ss_col_text(cols[i].col, ctx, r, 0, &b[i]) : "";
    ui_table_row(c, y, cols, n, cells, style, indent);
    for (size_t i = 0; i < n; i++)
        ss_cellbuf_free(&b[i]);
}

void ui_table_fit(struct ui_column *cols, size_t n, const void *ctx, size_t nrows)
{
    struct ss_cellbuf b = {NULL, 0};
    for (size_t i = 0; i < n; i++) {
        int w = ui_column_width(&cols[i]);
        if (!w || !cols[i].col)
            continue;
        for (size_t r = 0; r < nrows; r++) {
            size_t len = strlen(ss_col_text(cols[i].col, ctx, r, 0, &b));
            if (len > (size_t)w && len < 256)
                cols[i].width = w = (int)len;
        }
    }
    ss_cellbuf_free(&b);
}

struct col_sort {
    const struct ss_col *col;
    const void *ctx;
};

static int cmp_by_col(uint32_t a, uint32_t b, const void *ctx)
{
    const struct col_sort *s = ctx;
    return ss_col_compare(s->col, s->ctx, a, b);
}

int ui_table_sort(uint32_t **order, size_t n, int rev, const struct ui_column *col, const void *ctx)
{
    struct col_sort s = {col->col, ctx};
    return ui_order_sort(order, n, rev, cmp_by_col, &s);
}

int ui_table_column_x(int w, const struct ui_column *cols, size_t n, size_t i)
{
    int xs[16], ws[16];
    if (n > 16)
        n = 16;
    if (i >= n)
        return -1;
    layout(NULL, w, cols, n, xs, ws);
    return ws[i] ? xs[i] : -1;
}

int ui_table_sort_click(struct ui *ui, struct ui_view *v, const struct ui_event *ev,
                        const struct ui_column *cols, size_t n, const int *sort_column, int nsorts,
                        const char *const *names)
{
    if (!ev || ev->key != UI_K_MOUSE || ev->button != UI_B_CLICK || ev->y != v->rows_y - 1)
        return UI_UNHANDLED;
    int xs[16], ws[16];
    if (n > 16)
        n = 16;
    layout(NULL, ui->canvas.w, cols, n, xs, ws);
    size_t col = n;
    for (size_t i = 0; i < n; i++)
        if (ws[i] && ev->x >= xs[i] && ev->x < xs[i] + ws[i])
            col = i;
    for (int s = 0; col < n && s < nsorts; s++)
        if (sort_column[s] == (int)col) {
            if (v->sort == s) {
                v->sort_rev = !v->sort_rev;
            } else {
                v->sort = s;
                v->sort_rev = 0;
            }
            ui_message(ui, "sorted by %s%s", names[s], v->sort_rev ? ", reversed" : "");
            return UI_HANDLED;
        }
    if (col < n)
        ui_error(ui, "the %s column has no order of its own (s cycles the orders)",
                 ui_column_title(&cols[col]));
    return UI_HANDLED;
}

const char *ui_empty_note(struct ui *ui)
{
    if (ui->m->sample_stack.n == 0 && ui->m->aggs.n > 0)
        return "aggregates only (SamplingProf): no stacks or timeline; see functions, calls";
    return "no samples with frames";
}

const char *ui_no_order_note(struct ui *ui)
{
    if (ss_model_has_time_order(ui->m))
        return NULL;
    if (ui->m->sample_stack.n == 0 && ui->m->aggs.n > 0)
        return ui_empty_note(ui);
    if (ui->m->sample_stack.n == 0)
        return "no samples";
    for (size_t i = 0; i < ui->m->sources.n; i++)
        if (!strcmp(ss_str(ui->m, ui->m->sources.v[i].type), "pprof"))
            return "pprof profiles have no time order (a sample per stack): no timeline or runs";
    return "folded stacks have no time order: no timeline or runs";
}

void ui_table_note(struct ui_canvas *c, int y, int h, const char *text)
{
    int w = ui_text_width(c, text);
    int x = w < c->w ? (c->w - w) / 2 : 0;
    ui_put(c, y + h / 3, x, c->w - x, text, UI_S_DIM);
}

void ui_list_draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h,
                  ui_draw_row_fn draw_row)
{
    struct ui_list *l = &v->list;
    l->page = h > 0 ? h : 1;
    ui_list_fit(l);
    v->rows_y = y;
    for (int i = 0; i < h; i++) {
        size_t k = l->top + (size_t)i;
        if (k >= ui_list_count(l))
            break;
        size_t r = ui_list_row(l, k);
        draw_row(ui, v, c, y + i, r, r == l->sel ? UI_S_SELECTED : UI_S_NORMAL);
    }
}

/* The widths of v's table for the rows on screen, into c->table: those v's
 * table had for the same model and columns (so that scrolling back never
 * narrows a column), widened to every number of the rows from l->top on. */
static void fit_widths(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h,
                       const struct ui_column *cols, size_t n, int sort_col,
                       ui_draw_row_fn draw_row)
{
    struct ui_table_pass *t = c->table;
    if (v->fit_gen != ui->gen || v->fit_cols != cols || v->fit_n != n) {
        memset(v->fit_w, 0, sizeof v->fit_w);
        v->fit_gen = ui->gen;
        v->fit_cols = cols;
        v->fit_n = n;
    }
    t->n = n;
    for (size_t i = 0; i < n; i++) {
        /* a header is not cut either (the sort column's has an arrow) */
        char hn[128];
        int hw = ui_text_width(c, header_name(t, &cols[i], hn, sizeof hn)) + ((int)i == sort_col);
        t->w[i] = v->fit_w[i] > hw ? v->fit_w[i] : hw;
    }
    struct ui_list *l = &v->list;
    l->page = h > 0 ? h : 1;
    ui_list_fit(l);
    t->measuring = 1;
    for (int i = 0; i < h && l->top + (size_t)i < ui_list_count(l); i++)
        draw_row(ui, v, c, y + i, ui_list_row(l, l->top + (size_t)i), UI_S_NORMAL);
    t->measuring = 0;
    memcpy(v->fit_w, t->w, sizeof v->fit_w);
    t->active = 1;
}

void ui_table_draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h,
                   const struct ui_column *cols, size_t n, int sort_col, int sort_rev,
                   const char *note, ui_draw_row_fn draw_row)
{
    struct ui_table_pass t = {0};
    if (n > 16)
        n = 16;
    t.measure = ss_model_measure_name(ui->m);
    t.unit = ui->m->weights.measure.kind == SS_MEASURE_TIME ? " s" : "";
    ss_model_count_name(ui->m, t.count, sizeof t.count);
    c->table = &t;
    if (note) {
        ui_table_header(c, y, cols, n, sort_col, sort_rev);
        v->list.page = h - 1;
        ui_table_note(c, y + 1, h - 1, note);
    } else {
        fit_widths(ui, v, c, y + 1, h - 1, cols, n, sort_col, draw_row);
        ui_table_header(c, y, cols, n, sort_col, sort_rev);
        ui_list_draw(ui, v, c, y + 1, h - 1, draw_row);
    }
    c->table = NULL;
}

const char *ui_function_note(const char *fn, const char *hint, char *buf, size_t n)
{
    if (fn)
        snprintf(buf, n, "%s is not in the profile (any more)", fn);
    else
        snprintf(buf, n, "%s", hint);
    return buf;
}
