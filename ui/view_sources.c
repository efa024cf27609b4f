/* view_sources.c - the input files and Rprof sessions of the current
 * model (`report --by sources`): type, session, header line, interval,
 * what was recorded, and how many samples each still has. */
#include <string.h>

#include "app.h"
#include "report.h"
#include "vec.h"

static const struct ui_column columns[] = {
    {"source", 6, 1, NULL},   {"type", 6, 0, NULL},   {"session", 7, 1, NULL}, {"line", 5, 1, NULL},
    {"interval", 8, 1, NULL}, {"flags", 11, 0, NULL}, {"samples", 8, 1, NULL}, {"file", 0, 0, NULL},
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
    const struct ss_source *s = &ui->m->sources.v[row];
    char b[6][64];
    snprintf(b[0], sizeof b[0], "%zu", row + 1);
    snprintf(b[1], sizeof b[1], "%u", s->session);
    snprintf(b[2], sizeof b[2], "%u", s->header_line);
    ss_format_interval(b[3], sizeof b[3], s->interval_us);
    b[4][0] = '\0';
    if (s->flags & SS_SRC_MEMORY)
        strcat(b[4], "memory");
    if (s->flags & SS_SRC_GC)
        strcat(b[4], b[4][0] ? "+GC" : "GC");
    if (s->flags & SS_SRC_LINE)
        strcat(b[4], b[4][0] ? "+line" : "line");
    if (s->flags & SS_SRC_AGGREGATE)
        strcat(b[4], b[4][0] ? "+aggregate" : "aggregate");
    if (s->flags & SS_SRC_UNORDERED)
        strcat(b[4], b[4][0] ? "+unordered" : "unordered");
    if (!b[4][0])
        strcat(b[4], "-");
    /* count values, as the status line and `report --by sources` count */
    snprintf(b[5], sizeof b[5], "%llu", (unsigned long long)ss_source_samples(ui->m, (ss_id)row));
    const char *cells[NCOLS] = {b[0], ss_str(ui->m, s->type), b[1], b[2], b[3], b[4],
                                b[5], ss_str(ui->m, s->uri)};
    ui_table_row(c, y, columns, NCOLS, cells, style, 0);
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
