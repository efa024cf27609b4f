/* report_sources.c - `report --by sources` (see report_sources.h). */
#include "report_sources.h"

#include <stdlib.h>
#include <string.h>

#include "vec.h"

int ss_sources_ctx_init(struct ss_sources_ctx *x, const struct ss_model *m,
                        const struct ss_compare *c, struct ss_error *err)
{
    memset(x, 0, sizeof *x);
    x->side[0] = c ? c->base : NULL;
    x->side[1] = c ? c->cur : m;
    x->nbase = c ? c->base->sources.n : 0;
    x->n = x->nbase + x->side[1]->sources.n;
    x->f[0] = c ? c->conv * c->scale : 1;
    x->f[1] = 1;
    ss_units_of(x->side[1], &x->u);
    for (int k = 0; k < 2; k++) {
        size_t n = x->side[k] ? ss_model_measures(x->side[k], x->ms[k], ARRAY_SIZE(x->ms[k])) : 0;
        x->nms[k] = n < ARRAY_SIZE(x->ms[k]) ? n : ARRAY_SIZE(x->ms[k]);
    }
    x->value = malloc((x->n ? x->n : 1) * sizeof *x->value);
    if (!x->value)
        return ss_nomem(err, "sources table");
    for (size_t r = 0; r < x->n; r++) {
        const struct ss_model *sm;
        int side;
        const struct ss_source *s = ss_sources_row(x, r, &sm, &side);
        struct ss_totals t;
        ss_source_totals(sm, (ss_id)(s - sm->sources.v), &t);
        x->value[r] = t.value;
        x->total[side] += t.value; /* in source order: ss_model_totals' sum to the bit */
    }
    return 0;
}

void ss_sources_ctx_free(struct ss_sources_ctx *x)
{
    free(x->value);
    x->value = NULL;
}

const struct ss_source *ss_sources_row(const struct ss_sources_ctx *x, size_t r,
                                       const struct ss_model **m, int *side)
{
    *side = r >= x->nbase;
    *m = x->side[*side];
    return &(*m)->sources.v[*side ? r - x->nbase : r];
}

#define X(ctx) ((const struct ss_sources_ctx *)(ctx))

/* row r's source, its model in `m` and side in `side` */
#define ROW(ctx, r)                                                                                \
    const struct ss_model *m;                                                                      \
    int side;                                                                                      \
    const struct ss_source *s = ss_sources_row(X(ctx), r, &m, &side);                              \
    (void)side

static void cell_side(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    snprintf(buf, n, "%s", r < X(ctx)->nbase ? "base" : "new");
}
static void cell_id(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, r < X(ctx)->nbase ? r + 1 : r - X(ctx)->nbase + 1);
}
static void cell_type(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ROW(ctx, r);
    ss_cell_str(buf, n, ss_str(m, s->type), tsv);
}
static void cell_uri(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ROW(ctx, r);
    ss_cell_str(buf, n, ss_str(m, s->uri), tsv);
}
static void cell_session(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ROW(ctx, r);
    ss_cell_u64(buf, n, s->session);
}
static void cell_line(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ROW(ctx, r);
    ss_cell_u64(buf, n, s->header_line);
}
static void cell_interval(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ROW(ctx, r);
    if (tsv)
        ss_cell_num(buf, n, s->interval_us, 1, 0);
    else if (s->flags & SS_SRC_UNTIMED)
        snprintf(buf, n, "-"); /* no time: counts only */
    else
        ss_format_interval(buf, n, s->interval_us);
}
static void cell_flags(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ROW(ctx, r);
    char fl[64];
    ss_report_flags_text(fl, sizeof fl, s->flags);
    /* ", memory, line" -> "memory+line" */
    size_t k = 0;
    for (const char *p = fl[0] ? fl + 2 : "-"; *p && k + 1 < n; p++) {
        if (p[0] == ',' && p[1] == ' ')
            buf[k++] = '+', p++;
        else
            buf[k++] = *p;
    }
    buf[k] = '\0';
}
static void cell_samples(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ROW(ctx, r);
    ss_cell_u64(buf, n, ss_source_samples(m, (ss_id)(s - m->sources.v)));
}
static void cell_value(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &X(ctx)->u, X(ctx)->value[r] * X(ctx)->f[r >= X(ctx)->nbase], tsv);
}
static void cell_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    double t = X(ctx)->total[r >= X(ctx)->nbase];
    ss_cell_num(buf, n, t > 0 ? 100.0 * X(ctx)->value[r] / t : 0, tsv, 2);
}

/* the measures the source has, its model's default first: "time,samples" */
static void cell_measures(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ROW(ctx, r);
    const struct ss_measure *ms = X(ctx)->ms[side];
    size_t nm = X(ctx)->nms[side], k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < nm && k + 1 < n; i++)
        if (ss_source_has_measure(m, (size_t)(s - m->sources.v), &ms[i])) {
            char one[256];
            ss_cell_str(one, sizeof one, ss_measure_name(m, &ms[i]), tsv);
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "," : "", one);
        }
    if (!buf[0])
        snprintf(buf, n, "-");
}

/* clang-format off */
#define SOURCE_COLUMNS                                                                             \
    {"source", NULL, 6, 0, 0, cell_id, NULL, NULL, 0},                                             \
    {"type", NULL, 13, 1, SS_COL_LEFT, cell_type, NULL, NULL, 0},                                  \
    {"uri", "file", 0, 0, SS_COL_LABEL, cell_uri, NULL, NULL, 0},                                  \
    {"session", NULL, 7, 1, 0, cell_session, NULL, NULL, 0},                                       \
    {"header_line", "line", 6, 1, 0, cell_line, NULL, NULL, 0},                                    \
    {"interval_us", "interval", 10, 1, 0, cell_interval, NULL, NULL, 0},                           \
    {"flags", NULL, 16, 1, SS_COL_LEFT, cell_flags, NULL, NULL, 0},                                \
    {"samples", NULL, 9, 1, 0, cell_samples, NULL, NULL, 0},                                       \
    {"@", NULL, 10, 1, 0, cell_value, NULL, NULL, 0},                                              \
    {"pct", NULL, 7, 1, 0, cell_pct, NULL, NULL, 0},                                               \
    {"measures", NULL, 0, 2, SS_COL_LEFT, cell_measures, NULL, NULL, 0}
/* clang-format on */

const struct ss_col ss_source_columns[SS_SRCCOL_NCOLS] = {SOURCE_COLUMNS};
const struct ss_col ss_cmp_source_columns[SS_CMPSRC_NCOLS] = {
    {"side", NULL, 4, 0, SS_COL_LEFT, cell_side, NULL, NULL, 0},
    SOURCE_COLUMNS,
};

int ss_report_sources(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                      struct ss_error *err)
{
    struct ss_sources_ctx x;
    int rc = ss_sources_ctx_init(&x, m, NULL, err);
    if (rc)
        return rc;
    struct ss_table t = {ss_source_columns,       SS_SRCCOL_NCOLS, &x, x.n, NULL,
                         ss_model_measure_name(m)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, ss_report_limit(o), "sources");
    ss_sources_ctx_free(&x);
    return 0;
}
