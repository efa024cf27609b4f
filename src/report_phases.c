/* report_phases.c - `report --by phases` (see report_phases.h).  The
 * detector is phases.c; this file only formats what it found. */
#include "report_phases.h"

#include <stdlib.h>
#include <string.h>

#include "textesc.h"
#include "vec.h"

#define PCTX(ctx) ((const struct ss_phases_ctx *)(ctx))
#define PH(ctx, r) (&PCTX(ctx)->p->v[r])

static void cell_phase(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    snprintf(buf, n, tsv ? "%zu" : "%zu%c", r + 1, r == PCTX(ctx)->p->main ? '*' : ' ');
}
static void cell_first(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, PH(ctx, r)->first + 1);
}
static void cell_last(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, PH(ctx, r)->first + PH(ctx, r)->n);
}
static void cell_samples(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, PH(ctx, r)->count);
}
static void cell_value(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &PCTX(ctx)->u, PH(ctx, r)->value, tsv);
}
static void cell_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    double total = PCTX(ctx)->p->value;
    ss_cell_num(buf, n, total > 0 ? 100.0 * PH(ctx, r)->value / total : 0, tsv, 2);
}
static void cell_top(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_id f = PH(ctx, r)->top[0];
    ss_cell_str(buf, n, f == SS_NONE ? "-" : ss_function_name(PCTX(ctx)->m, f), tsv);
}
/* "name 97%, name 12%": the phase's distinguishing functions, escaped. */
static void cell_tops(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_phase *ph = PH(ctx, r);
    size_t k = 0;
    buf[0] = '\0';
    for (size_t t = 0; t < SS_PHASE_TOPS && ph->top[t] != SS_NONE && k + 1 < n; t++) {
        char name[256];
        ss_cell_str(name, sizeof name, ss_function_name(PCTX(ctx)->m, ph->top[t]), tsv);
        int w =
            snprintf(buf + k, n - k, "%s%s %.0f%%", t ? ", " : "", name, 100.0 * ph->top_share[t]);
        if (w < 0)
            break;
        k += (size_t)w < n - k ? (size_t)w : n - k - 1;
    }
    if (!buf[0])
        snprintf(buf, n, "-");
}

const struct ss_col ss_phase_columns[SS_PHASE_NCOLS] = {
    {"phase", NULL, 6, 0, 0, cell_phase, NULL, NULL, 0},
    {"first", NULL, 9, 1, 0, cell_first, NULL, NULL, 0},
    {"last", NULL, 9, 1, 0, cell_last, NULL, NULL, 0},
    {"samples", NULL, 9, 1, 0, cell_samples, NULL, NULL, 0},
    {"@", NULL, 10, 1, 0, cell_value, NULL, NULL, 0},
    {"pct", NULL, 7, 1, 0, cell_pct, NULL, NULL, 0},
    {"top", NULL, 0, 0, SS_COL_TSV, cell_top, NULL, NULL, 0},
    {"tops", "distinguished by (share of the phase's samples)", 0, 0, SS_COL_LABEL | SS_COL_TEXT,
     cell_tops, NULL, NULL, 0},
};

void ss_report_phase_opts(const struct ss_report_opts *o, struct ss_phase_opts *po)
{
    po->penalty = o->penalty;
    po->count = o->phases;
}

/* ---- a comparison: both sides in one table ------------------------------- */

/* Rows 0 .. nbase - 1 are the base's phases, then the new profile's. */
struct sides_ctx {
    struct ss_phases_ctx side[2];
    size_t nbase;
};
#define SIDE(ctx, r)                                                                               \
    (&((const struct sides_ctx *)(ctx))->side[(r) >= ((const struct sides_ctx *)(ctx))->nbase])
#define SROW(ctx, r)                                                                               \
    ((r) >= ((const struct sides_ctx *)(ctx))->nbase                                               \
         ? (r) - ((const struct sides_ctx *)(ctx))->nbase                                          \
         : (r))
/* Column i of the phases table, for row r of either side. */
#define SIDE_CELL(i)                                                                               \
    static void cell_side_##i(char *buf, size_t n, const void *ctx, size_t r, int tsv)             \
    {                                                                                              \
        ss_phase_columns[i].cell(buf, n, SIDE(ctx, r), SROW(ctx, r), tsv);                         \
    }
SIDE_CELL(0)
SIDE_CELL(1)
SIDE_CELL(2)
SIDE_CELL(3)
SIDE_CELL(4)
SIDE_CELL(5)
SIDE_CELL(6)
SIDE_CELL(7)
static void cell_side(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    snprintf(buf, n, "%s", SIDE(ctx, r)->side);
}

int ss_report_phases_compared(FILE *out, const struct ss_model *base, const struct ss_model *cur,
                              const struct ss_report_opts *o, struct ss_error *err)
{
    static void (*const cells[SS_PHASE_NCOLS])(char *, size_t, const void *, size_t, int) = {
        cell_side_0, cell_side_1, cell_side_2, cell_side_3,
        cell_side_4, cell_side_5, cell_side_6, cell_side_7};
    struct ss_phase_opts po;
    ss_report_phase_opts(o, &po);
    struct ss_phases p[2];
    memset(p, 0, sizeof p);
    int rc = ss_phases_compute(base, &po, &p[0], err);
    if (!rc)
        rc = ss_phases_compute(cur, &po, &p[1], err);
    if (!rc) {
        struct ss_col cols[SS_PHASE_NCOLS + 1];
        cols[0] = (struct ss_col){"side", NULL, 4, 0, SS_COL_LEFT, cell_side, NULL, NULL, 0};
        for (size_t i = 0; i < SS_PHASE_NCOLS; i++) {
            cols[i + 1] = ss_phase_columns[i];
            cols[i + 1].cell = cells[i];
        }
        struct sides_ctx ctx = {{{base, &p[0], {{0}, 0}, "base"}, {cur, &p[1], {{0}, 0}, "new"}},
                                p[0].n};
        ss_units_of(base, &ctx.side[0].u);
        ss_units_of(cur, &ctx.side[1].u);
        struct ss_table t = {cols, SS_PHASE_NCOLS + 1,        &ctx, p[0].n + p[1].n,
                             NULL, ss_model_measure_name(cur)};
        int tsv = o->format == SS_FORMAT_TSV;
        ss_table_print(out, &t, tsv, ss_report_limit(o), "phases");
        if (!tsv)
            fputs("\n(each side's phases, pct of its own total; * its main phase)\n", out);
    }
    ss_phases_free(&p[0]);
    ss_phases_free(&p[1]);
    return rc;
}

int ss_report_phases(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                     struct ss_error *err)
{
    struct ss_phase_opts po;
    ss_report_phase_opts(o, &po);
    struct ss_phases p;
    int rc = ss_phases_compute(m, &po, &p, err);
    if (rc)
        return rc;
    int tsv = o->format == SS_FORMAT_TSV;
    if (!tsv) {
        ss_report_header(out, m);
        fprintf(out,
                "phases     %zu, where the mix of the work at levels %u-%u (below the scaffold) "
                "changes%s\n\n",
                p.n, p.level, p.level + SS_PHASE_DEPTH - 1,
                o->phases ? " (as many as --phases asked)" : "");
    }
    struct ss_phases_ctx ctx = {m, &p, {{0}, 0}, NULL};
    ss_units_of(m, &ctx.u);
    struct ss_table t = {ss_phase_columns,        SS_PHASE_NCOLS, &ctx, p.n, NULL,
                         ss_model_measure_name(m)};
    ss_table_print(out, &t, tsv, ss_report_limit(o), "phases");
    if (!tsv && p.n)
        fprintf(out, "\n* the main phase (the most samples): -e 'keep-phase main' or --preset "
                     "trim-burnin keeps it\n");
    ss_phases_free(&p);
    return 0;
}
