/* view_sources.c - the input files and Rprof sessions of the current
 * model (`report --by sources`): type, session, header line, interval,
 * what was recorded, and how many samples each still has. */
#include <string.h>

#include "app.h"
#include "report.h"
#include "vec.h"

/* The view's own columns: the interval of every source (report's says
 * "-" for an untimed one), the flags with "unordered" (folded stacks). */
#define SRC(ctx, r) (&((const struct ss_model *)(ctx))->sources.v[r])
static void cell_interval(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_interval(buf, n, SRC(ctx, r)->interval_us);
}
static void cell_flags(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    static const struct {
        uint32_t flag;
        const char *name;
    } names[] = {{SS_SRC_MEMORY, "memory"},
                 {SS_SRC_GC, "GC"},
                 {SS_SRC_LINE, "line"},
                 {SS_SRC_AGGREGATE, "aggregate"},
                 {SS_SRC_UNORDERED, "unordered"}};
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ARRAY_SIZE(names) && k < n; i++)
        if (SRC(ctx, r)->flags & names[i].flag)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "+" : "", names[i].name);
    if (!buf[0])
        snprintf(buf, n, "-");
}
static const struct ss_col interval_col = {"interval", NULL, 8, 0, 0, cell_interval, NULL, NULL, 0};
static const struct ss_col flags_col = {"flags", NULL, 11, 0, 0, cell_flags, NULL, NULL, 0};

static const struct ui_column columns[] = {
    {"source", 6, 1, &ss_source_columns[SS_SRCCOL_ID]},
    {"type", 6, 0, &ss_source_columns[SS_SRCCOL_TYPE]},
    {"session", 7, 1, &ss_source_columns[SS_SRCCOL_SESSION]},
    {"line", 5, 1, &ss_source_columns[SS_SRCCOL_LINE]},
    {"interval", 8, 1, &interval_col},
    {"flags", 11, 0, &flags_col},
    /* count values, as the status line and `report --by sources` count */
    {"samples", 8, 1, &ss_source_columns[SS_SRCCOL_SAMPLES]},
    {"file", 0, 0, &ss_source_columns[SS_SRCCOL_URI]},
};
#define NCOLS ARRAY_SIZE(columns)

static int prepare(struct ui *ui, struct ui_view *v)
{
    v->list.n = ui->m->sources.n;
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    snprintf(buf, n, "%zu (input files and Rprof sessions)", ui->m->sources.n);
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    ui_table_cells(c, y, columns, NCOLS, ui->m, row, style, 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    ui_table_header(c, y, columns, NCOLS, -1, 0);
    if (v->list.n == 0) {
        v->list.page = h - 1;
        ui_table_note(c, y + 1, h - 1, "no sources");
        return;
    }
    ui_list_draw(ui, v, c, y + 1, h - 1, draw_row);
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    return r < ui->m->sources.n ? ss_str(ui->m, ui->m->sources.v[r].uri) : NULL;
}

const struct ui_view_ops ui_view_sources = {
    .name = "sources",
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .row_text = row_text,
};
