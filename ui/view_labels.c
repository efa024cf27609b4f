/* view_labels.c - the samples' labels (`report --by labels`): for every
 * label (pprof's from Go's pprof.Do, perf's comm, pid and tid) its key,
 * value, samples (count), measure (time by default) and share.  Enter or f on a row adds keep-label
 * KEY=VALUE to the transform list, d adds drop-label KEY=VALUE; the
 * prompt's Tab completes keys and values for the label commands. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "labels.h"
#include "report_labels.h"
#include "vec.h"

/* the measure's column is named after it and widens to its numbers (draw) */
static struct ui_column columns[] = {
    {"key", 12, 0, &ss_label_columns[SS_LABEL_KEY]},
    {"count", 9, 1, &ss_label_columns[SS_LABEL_COUNT]},
    {"measure", 10, 1, &ss_label_columns[SS_LABEL_MEASURE]},
    {"pct", 7, 1, &ss_label_columns[SS_LABEL_PCT]},
    {"value", 0, 0, &ss_label_columns[SS_LABEL_VALUE]},
};
#define NCOLS ARRAY_SIZE(columns)

struct labels_view {
    struct ss_label_stats ls;
    unsigned gen; /* of the model the rows belong to */
    int have;
};

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct labels_view *p = v->priv;
    if (!p->have || p->gen != ui->gen) {
        ss_label_stats_free(&p->ls);
        p->have = 0;
        struct ss_error err;
        if (ss_label_stats_compute(ui->m, &p->ls, &err)) {
            ui_error(ui, "%s", err.msg);
            v->list.n = 0;
            return -1;
        }
        p->gen = ui->gen;
        p->have = 1;
    }
    v->list.n = p->ls.n;
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    const struct labels_view *p = v->priv;
    snprintf(buf, n, "%zu (Enter/f: keep-label, d: drop-label)", p->ls.n);
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    const struct labels_view *p = v->priv;
    /* pct: of the whole profile */
    const struct ss_stats *st = ui_stats_fn(ui);
    struct ss_label_ctx ctx = {ui->m, &p->ls, {{0}, 0}, st ? st->value_total : 0};
    ss_units_of(ui->m, &ctx.u);
    ui_table_cells(c, y, columns, NCOLS, &ctx, row, style, 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    const struct labels_view *p = v->priv;
    double widest = 0;
    for (size_t r = 0; r < p->ls.n; r++)
        if (p->ls.rows[r].value > widest)
            widest = p->ls.rows[r].value;
    columns[2].name = ss_model_measure_name(ui->m); /* "time", "alloc_space", ... */
    columns[2].width = ui_value_width(ui, widest, 10);
    ui_table_draw(ui, v, c, y, h, columns, NCOLS, -1, 0,
                  v->list.n ? NULL
                            : "no labels (pprof files bring them, from Go's pprof.Do; perf script "
                              "its comm, pid and tid)",
                  draw_row);
}

/* "KEY=VALUE" of row r, the value quoted for the transform language. */
static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    const struct labels_view *p = v->priv;
    if (r >= p->ls.n)
        return NULL;
    char val[96], q[512];
    ss_id l = p->ls.rows[r].label;
    snprintf(buf, n, "%s=%s", ss_label_key(ui->m, l),
             ui_quote_name(ss_label_value(ui->m, l, val, sizeof val), q, sizeof q));
    return buf;
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    const char *cmd = req == UI_REQ_ENTER || req == UI_REQ_FOCUS_FN ? "keep-label"
                      : req == UI_REQ_DROP_FN                       ? "drop-label"
                                                                    : NULL;
    if (!cmd)
        return UI_UNHANDLED;
    if (v->list.n == 0) {
        ui_error(ui, "no labels");
        return UI_HANDLED;
    }
    char kv[600], line[700];
    row_text(ui, v, v->list.sel, kv, sizeof kv);
    snprintf(line, sizeof line, "%s %s", cmd, kv);
    ui_add_transform(ui, line, -1, -1);
    return UI_HANDLED;
}

static void labels_free(struct ui_view *v)
{
    struct labels_view *p = v->priv;
    ss_label_stats_free(&p->ls);
}

const struct ui_view_ops ui_view_labels = {
    .name = "labels",
    .flags = UI_VF_KEEP_FUNCTION,
    .priv_size = sizeof(struct labels_view),
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .free = labels_free,
};
