/* view_labels.c - the samples' labels (`report --by labels`): for every
 * label (pprof's from Go's pprof.Do, perf's comm, pid and tid) its key,
 * value, samples (count), measure (time by default) and share.  Enter or f on a row adds keep-label
 * KEY=VALUE to the transform list, d adds drop-label KEY=VALUE; the
 * prompt's Tab completes keys and values for the label commands.
 *
 * In a comparison (--base) the rows are `report --base --by labels`'s:
 * the labels of both sides joined by key and value, count and measure as
 * base, new and delta, sorted by the measure's delta (s: the next order,
 * S reverses); the label keys add steps to the one list both sides go
 * through. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "labels.h"
#include "order.h"
#include "report_compare.h"
#include "report_labels.h"
#include "vec.h"

/* the measure's column is named after it and widens to its numbers (draw,
 * in the view's copy) */
static const struct ui_column columns_min[] = {
    UI_COL(&ss_label_columns[SS_LABEL_KEY]),
    UI_COL(&ss_label_columns[SS_LABEL_COUNT]),
    {"measure", UI_COL_CORE, 1, &ss_label_columns[SS_LABEL_MEASURE]},
    UI_COL(&ss_label_columns[SS_LABEL_PCT]),
    UI_COL(&ss_label_columns[SS_LABEL_VALUE]),
};
#define NCOLS ARRAY_SIZE(columns_min)

/* A comparison's columns (`report --base --by labels`) and orders. */
#define CL(i) (&ss_cmp_label_columns[i])
static const struct ui_column ccolumns_min[] = {
    {NULL, 8, 0, CL(SS_CMPLB_KEY)},
    {"base", 6, 1, CL(SS_CMPLB_COUNT_B)},
    {NULL, 6, 1, CL(SS_CMPLB_COUNT)},
    {"delta", 6, 1, CL(SS_CMPLB_COUNT_D)},
    {"base", 9, 1, CL(SS_CMPLB_MEASURE_B)},
    {"measure", 9, 1, CL(SS_CMPLB_MEASURE)},
    {"delta", 10, 1, CL(SS_CMPLB_MEASURE_D)},
    UI_COL(CL(SS_CMPLB_MARK)),
    UI_COL(CL(SS_CMPLB_VALUE)),
};
#define NCCOLS ARRAY_SIZE(ccolumns_min)
enum {
    CSORT_MEASURE_D,
    CSORT_COUNT_D,
    CSORT_VERDICT,
    CSORT_MEASURE,
    CSORT_COUNT,
    CSORT_LABEL,
    NCSORTS
};
static const char *const csort_names[NCSORTS] = {"measure delta", "count delta", "verdict",
                                                 "measure",       "count",       "key and value"};
static const int csort_column[NCSORTS] = {6, 3, 7, 5, 2, 0};

struct labels_view {
    struct ss_label_stats ls;
    unsigned gen; /* of the model the rows belong to */
    int have;
    /* a comparison: the joined rows, in display order (order) */
    struct ss_cmp_labels cmp;
    int have_cmp, sort, rev;
    unsigned cgen, vgen; /* vgen: of the verdicts (ui_verdicts) */
    uint32_t *order;
    /* the columns as drawn: the descriptors, named and widened by draw */
    struct ui_column columns[NCOLS], ccolumns[NCCOLS];
};

static int report_order(uint32_t a, uint32_t b, const void *ctx)
{
    return a < b ? -1 : a > b;
}

static int prepare_compared(struct ui *ui, struct ui_view *v)
{
    struct labels_view *p = v->priv;
    if (!p->have_cmp || p->cgen != ui->gen ||
        (p->cmp.vinfo.pending && p->vgen != ui->verdicts.vgen)) {
        if (p->have_cmp)
            ss_cmp_labels_free(&p->cmp);
        p->have_cmp = 0;
        struct ss_compare c;
        struct ss_error err;
        ss_error_clear(&err);
        ui_compare(ui, &c);
        if (ss_compare_labels(&c, &p->cmp, &err)) {
            ui_error(ui, "%s", err.msg);
            v->list.n = 0;
            return -1;
        }
        p->have_cmp = 1;
        p->cgen = ui->gen;
        p->vgen = ui->verdicts.vgen;
        p->sort = -1; /* sort again */
    }
    if (p->sort != v->sort || p->rev != v->sort_rev) {
        /* the default order is the report's (its ties of rounding
         * included): the rows as ss_compare_labels gives them */
        int rc = v->sort == CSORT_MEASURE_D && !v->sort_rev
                     ? ui_order_sort(&p->order, p->cmp.n, 0, report_order, NULL)
                     : ui_table_sort(&p->order, p->cmp.n, v->sort_rev,
                                     &ccolumns_min[csort_column[v->sort]], &p->cmp);
        if (rc) {
            ui_error(ui, "out of memory");
            v->list.n = 0;
            return -1;
        }
        p->sort = v->sort;
        p->rev = v->sort_rev;
    }
    v->list.n = p->cmp.n;
    return 0;
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct labels_view *p = v->priv;
    if (ui->bm)
        return prepare_compared(ui, v);
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
    if (ui->bm) {
        snprintf(buf, n, "%zu compared, by %s%s (Enter/f: keep, d: drop)",
                 p->have_cmp ? p->cmp.n : 0, csort_names[v->sort],
                 v->sort_rev ? " (reversed)" : "");
        return;
    }
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
    ui_table_cells(c, y, p->columns, NCOLS, &ctx, row, style, 0);
}

static void draw_compared_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y,
                              size_t row, int style)
{
    const struct labels_view *p = v->priv;
    uint32_t r = p->order[row];
    const struct ss_cmp_label *cr = &p->cmp.rows[r];
    /* grew or shrank beyond noise: the flame graph's colours; `~` plain */
    if (style == UI_S_NORMAL && cr->v.sign)
        style = cr->v.sign > 0 ? UI_S_GREW2 : UI_S_SHRANK2;
    ui_table_cells(c, y, p->ccolumns, NCCOLS, &p->cmp, r, style, 0);
}

static void draw_compared(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct labels_view *p = v->priv;
    /* the numbers widen to their widest (never cut) */
    memcpy(p->ccolumns, ccolumns_min, sizeof p->ccolumns);
    if (p->have_cmp)
        ui_table_fit(p->ccolumns, NCCOLS, &p->cmp, p->cmp.n);
    p->ccolumns[5].name = ss_model_measure_name(ui->m); /* "time", "alloc_space", ... */
    ui_table_draw(ui, v, c, y, h, p->ccolumns, NCCOLS, csort_column[v->sort], v->sort_rev,
                  v->list.n ? NULL
                            : "no labels on either side (pprof files bring them, from Go's "
                              "pprof.Do; perf script its comm, pid and tid)",
                  draw_compared_row);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct labels_view *p = v->priv;
    if (ui->bm) {
        draw_compared(ui, v, c, y, h);
        return;
    }
    double widest = 0;
    for (size_t r = 0; r < p->ls.n; r++)
        if (p->ls.rows[r].value > widest)
            widest = p->ls.rows[r].value;
    p->columns[2].name = ss_model_measure_name(ui->m); /* "time", "alloc_space", ... */
    p->columns[2].width = ui_value_width(ui, widest, 10);
    ui_table_draw(ui, v, c, y, h, p->columns, NCOLS, -1, 0,
                  v->list.n ? NULL
                            : "no labels (pprof files bring them, from Go's pprof.Do; perf script "
                              "its comm, pid and tid)",
                  draw_row);
}

/* "KEY=VALUE" of row r, the value quoted for the transform language. */
static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    const struct labels_view *p = v->priv;
    char val[96], q[512];
    if (ui->bm) {
        if (!p->have_cmp || r >= p->cmp.n)
            return NULL;
        const struct ss_cmp_label *cr = &p->cmp.rows[p->order[r]];
        snprintf(buf, n, "%s=%s", ss_strtab_get(&p->cmp.keys, cr->key),
                 ui_quote_name(ss_strtab_get(&p->cmp.keys, cr->value), q, sizeof q));
        return buf;
    }
    if (r >= p->ls.n)
        return NULL;
    ss_id l = p->ls.rows[r].label;
    snprintf(buf, n, "%s=%s", ss_label_key(ui->m, l),
             ui_quote_name(ss_label_value(ui->m, l, val, sizeof val), q, sizeof q));
    return buf;
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    struct labels_view *p = v->priv;
    if (ui->bm && (ui_table_sort_click(ui, v, ev, p->ccolumns, NCCOLS, csort_column, NCSORTS,
                                       csort_names) == UI_HANDLED ||
                   ui_sort_request(ui, v, req, csort_names, NCSORTS) == UI_HANDLED))
        return UI_HANDLED;
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

static void labels_init(struct ui_view *v)
{
    struct labels_view *p = v->priv;
    memcpy(p->columns, columns_min, sizeof p->columns);
    memcpy(p->ccolumns, ccolumns_min, sizeof p->ccolumns);
}

static void labels_free(struct ui_view *v)
{
    struct labels_view *p = v->priv;
    ss_label_stats_free(&p->ls);
    if (p->have_cmp)
        ss_cmp_labels_free(&p->cmp);
    free(p->order);
}

const struct ui_view_ops ui_view_labels = {
    .name = "labels",
    .flags = UI_VF_KEEP_FUNCTION,
    .priv_size = sizeof(struct labels_view),
    .init = labels_init,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .free = labels_free,
};
