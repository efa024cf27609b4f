/* report_labels.c - `report --by labels` (see report_labels.h). */
#include "report_labels.h"

#include "column.h"
#include "labels.h"
#include "units.h"
#include "vec.h"

#define LROW(ctx, r) (&((const struct ss_label_ctx *)(ctx))->ls->rows[r])
#define LM(ctx) (((const struct ss_label_ctx *)(ctx))->m)

static void cell_key(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_label_key(LM(ctx), LROW(ctx, r)->label), tsv);
}
static void cell_value(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    char v[96];
    ss_cell_str(buf, n, ss_label_value(LM(ctx), LROW(ctx, r)->label, v, sizeof v), tsv);
}
static void cell_samples(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, LROW(ctx, r)->samples);
}
static void cell_value_m(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &((const struct ss_label_ctx *)ctx)->u, LROW(ctx, r)->value, tsv);
}
static void cell_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    double t = ((const struct ss_label_ctx *)ctx)->pct_of;
    ss_cell_num(buf, n, t > 0 ? 100.0 * LROW(ctx, r)->value / t : 0, tsv, 2);
}

const struct ss_col ss_label_columns[SS_LABEL_NCOLS] = {
    {"key", NULL, 12, 0, SS_COL_LEFT, cell_key, NULL, NULL, 0},
    {"value", NULL, 0, 0, SS_COL_LABEL, cell_value, NULL, NULL, 0},
    {"count", NULL, 9, 1, 0, cell_samples, NULL, NULL, 0},
    {"@", NULL, 10, 1, 0, cell_value_m, NULL, NULL, 0},
    {"pct", NULL, 7, 1, 0, cell_pct, NULL, NULL, 0},
};

int ss_report_labels(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                     struct ss_error *err)
{
    struct ss_label_stats ls;
    int rc = ss_label_stats_compute(m, &ls, err);
    if (rc)
        return rc;
    int tsv = o->format == SS_FORMAT_TSV;
    if (!tsv)
        ss_report_header(out, m);
    struct ss_label_ctx ctx = {m, &ls, {{0}, 0}, ls.total};
    ss_units_of(m, &ctx.u);
    struct ss_table t = {ss_label_columns,        SS_LABEL_NCOLS, &ctx, ls.n, NULL,
                         ss_model_measure_name(m)};
    ss_table_print(out, &t, tsv, o->limit > 0 ? (size_t)o->limit : 0, "labels");
    if (!tsv && ls.n == 0)
        fputs("(no labels: pprof files bring them, from Go's pprof.Do, and perf script its "
              "comm, pid and tid)\n",
              out);
    else if (!tsv && ls.unlabelled)
        fprintf(out, "\n%llu sample%s carry no label\n", (unsigned long long)ls.unlabelled,
                ls.unlabelled == 1 ? "" : "s");
    ss_label_stats_free(&ls);
    return 0;
}
