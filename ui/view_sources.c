/* view_sources.c - the input files and Rprof sessions of the current
 * model (`report --by sources`): type, session, header line, interval,
 * what was recorded, how many samples each still has, its measure and
 * that measure's share.
 *
 * In a comparison (--base) the rows are `report --base --by sources`'s:
 * the base's sources, then the new profile's, each with its side, the
 * base's measure scaled as every base value is (--normalize), each pct of
 * its own side's total; the status line gives the totals and their delta. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "report_sources.h"
#include "vec.h"

/* The view's own columns: the interval of every source (report's says
 * "-" for an untimed one), the flags with "unordered" (folded stacks).
 * Context: the table's (a struct ss_sources_ctx). */
static void cell_interval(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_model *m;
    int side;
    ss_format_interval(buf, n, ss_sources_row(ctx, r, &m, &side)->interval_us);
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
    const struct ss_model *m;
    int side;
    uint32_t flags = ss_sources_row(ctx, r, &m, &side)->flags;
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ARRAY_SIZE(names) && k < n; i++)
        if (flags & names[i].flag)
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "+" : "", names[i].name);
    if (!buf[0])
        snprintf(buf, n, "-");
}
static const struct ss_col interval_col = {"interval", NULL, 8, 0, 0, cell_interval, NULL, NULL, 0};
static const struct ss_col flags_col = {"flags", NULL, 11, 0, 0, cell_flags, NULL, NULL, 0};

/* The columns after the side (a comparison's first): the report's, the
 * numbers first so that a narrow screen hides the session columns before
 * them; the measure's is named after it and, as every number, widens to
 * its widest (draw). */
#define SC(i) (&ss_source_columns[i])
/* clang-format off */
#define SOURCE_COLUMNS                                                                             \
    UI_COL(SC(SS_SRCCOL_ID)),                                                                      \
    {NULL, 6, 0, SC(SS_SRCCOL_TYPE)},                                                              \
    /* count values, as the status line and `report --by sources` count */                         \
    {NULL, 8, 1, SC(SS_SRCCOL_SAMPLES)},                                                           \
    {"measure", 9, 1, SC(SS_SRCCOL_VALUE)},                                                        \
    {NULL, 6, 1, SC(SS_SRCCOL_PCT)},                                                               \
    UI_COL(&interval_col),                                                                         \
    {NULL, UI_COL_CORE, 0, &flags_col},                                                            \
    UI_COL(SC(SS_SRCCOL_SESSION)),                                                                 \
    {NULL, 5, 1, SC(SS_SRCCOL_LINE)},                                                              \
    UI_COL(SC(SS_SRCCOL_URI))
/* clang-format on */
static const struct ui_column columns_min[] = {SOURCE_COLUMNS};
static const struct ui_column ccolumns_min[] = {
    UI_COL(&ss_cmp_source_columns[SS_CMPSRC_SIDE]),
    SOURCE_COLUMNS,
};
#define MEASURE_COL 3 /* in columns_min; one more in ccolumns_min */

struct sources_view {
    struct ss_sources_ctx x;
    unsigned gen; /* of the models the rows belong to */
    int have;
    /* as drawn: columns_min or ccolumns_min, named and widened (draw) */
    struct ui_column columns[ARRAY_SIZE(ccolumns_min)];
};

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct sources_view *p = v->priv;
    if (!p->have || p->gen != ui->gen) {
        if (p->have)
            ss_sources_ctx_free(&p->x);
        p->have = 0;
        struct ss_error err;
        ss_error_clear(&err);
        struct ss_compare c;
        if (ui->bm)
            ui_compare(ui, &c);
        if (ss_sources_ctx_init(&p->x, ui->m, ui->bm ? &c : NULL, &err)) {
            ui_error(ui, "%s", err.msg);
            v->list.n = 0;
            return -1;
        }
        p->have = 1;
        p->gen = ui->gen;
    }
    v->list.n = p->x.n;
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    const struct sources_view *p = v->priv;
    if (ui->bm && p->have)
        snprintf(buf, n, "%zu base + %zu new (input files and Rprof sessions)", p->x.nbase,
                 p->x.n - p->x.nbase);
    else
        snprintf(buf, n, "%zu (input files and Rprof sessions)", ui->m->sources.n);
}

static size_t ncolumns(const struct ui *ui)
{
    return ui->bm ? ARRAY_SIZE(ccolumns_min) : ARRAY_SIZE(columns_min);
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    const struct sources_view *p = v->priv;
    ui_table_cells(c, y, p->columns, ncolumns(ui), &p->x, row, style, 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct sources_view *p = v->priv;
    size_t n = ncolumns(ui);
    memcpy(p->columns, ui->bm ? ccolumns_min : columns_min, n * sizeof *p->columns);
    if (p->have)
        ui_table_fit(p->columns, n, &p->x, p->x.n);
    p->columns[MEASURE_COL + (ui->bm != NULL)].name = ss_model_measure_name(ui->m);
    ui_table_draw(ui, v, c, y, h, p->columns, n, -1, 0, v->list.n ? NULL : "no sources", draw_row);
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    const struct sources_view *p = v->priv;
    if (!p->have || r >= p->x.n)
        return NULL;
    const struct ss_model *m;
    int side;
    const struct ss_source *s = ss_sources_row(&p->x, r, &m, &side);
    return ss_str(m, s->uri);
}

static void sources_free(struct ui_view *v)
{
    struct sources_view *p = v->priv;
    if (p->have)
        ss_sources_ctx_free(&p->x);
}

const struct ui_view_ops ui_view_sources = {
    .name = "sources",
    .priv_size = sizeof(struct sources_view),
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .row_text = row_text,
    .free = sources_free,
};
