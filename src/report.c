/* report.c - statistics tables as text or TSV (see report.h). */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_analysis.h"
#include "report_labels.h"
#include "report_transforms.h"
#include "column.h"
#include "stacks.h"
#include "textesc.h"
#include "units.h"
#include "write.h"

/* ---- functions and lines ---------------------------------------------------- */

static double pct(double x, const struct ss_stats *st)
{
    return st->value_total > 0 ? 100.0 * x / st->value_total : 0.0;
}

#define ROW(ctx, r) (&((const struct ss_stats *)(ctx))->rows[r])

static void cell_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_strtab_get(&((const struct ss_stats *)ctx)->keys, ROW(ctx, r)->key),
                tsv);
}
#define UNITS(ctx) (&((const struct ss_stats *)(ctx))->units)

static void cell_self_time(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, UNITS(ctx), ROW(ctx, r)->self_v, tsv);
}
static void cell_self_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_num(buf, n, pct(ROW(ctx, r)->self_v, ctx), tsv, 2);
}
static void cell_total_time(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, UNITS(ctx), ROW(ctx, r)->total_v, tsv);
}
static void cell_total_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_num(buf, n, pct(ROW(ctx, r)->total_v, ctx), tsv, 2);
}
static void cell_mem(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_num(buf, n, ROW(ctx, r)->mem_bytes / 1048576.0, tsv, 1);
}

#define STAT_COLUMNS(label)                                                                        \
    {label, NULL, 0, 0, SS_COL_LABEL, cell_name, NULL},                                            \
        {"self.@", NULL, 10, 0, 0, cell_self_time, NULL},                                          \
        {"self.pct", NULL, 9, 0, 0, cell_self_pct, NULL},                                          \
        {"total.@", NULL, 11, 0, 0, cell_total_time, NULL},                                        \
        {"total.pct", NULL, 10, 0, 0, cell_total_pct, NULL},                                       \
        {"mem.total", NULL, 10, 0, 0, cell_mem, NULL},
static const struct ss_col fn_columns[] = {STAT_COLUMNS("name")};
static const struct ss_col line_columns[] = {STAT_COLUMNS("location")};

const struct ss_col *ss_stat_columns(enum ss_report_by by, int memory, size_t *n)
{
    *n = memory ? 6 : 5;
    return by == SS_REPORT_LINE ? line_columns : fn_columns;
}

/* ---- stacks ------------------------------------------------------------------- */

/* A growable text buffer for stacks of any length. */
struct textbuf {
    char *s;
    size_t cap;
};

struct stacks_ctx {
    const struct ss_model *m;
    const struct ss_stacks *st;
    struct textbuf *tb; /* scratch for a stack's text */
    struct ss_units u;
};

static const char *stack_text(const struct ss_model *m, const struct ss_stacks *st,
                              const struct ss_stack_row *r, struct textbuf *tb)
{
    size_t need = ss_stack_text(m, st, r, ";", tb->s, tb->cap) + 1;
    if (need > tb->cap) {
        char *ns = realloc(tb->s, need);
        if (!ns)
            return tb->s ? tb->s : "";
        tb->s = ns;
        tb->cap = need;
        ss_stack_text(m, st, r, ";", tb->s, tb->cap);
    }
    return tb->s;
}

#define SROW(ctx, r) (&((const struct stacks_ctx *)(ctx))->st->rows[r])

static void cell_stack_count(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, SROW(ctx, r)->count);
}
static void cell_stack_time(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &((const struct stacks_ctx *)ctx)->u, SROW(ctx, r)->value, tsv);
}
static void cell_stack_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_stacks *st = ((const struct stacks_ctx *)ctx)->st;
    ss_cell_num(buf, n, st->total_v > 0 ? 100.0 * SROW(ctx, r)->value / st->total_v : 0, tsv, 2);
}
static void cell_stack_depth(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, SROW(ctx, r)->depth);
}
static void cell_stack(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct stacks_ctx *c = ctx;
    ss_cell_str(buf, n, stack_text(c->m, c->st, SROW(ctx, r), c->tb), tsv);
}

static const struct ss_col stack_columns[] = {
    {"count", NULL, 9, 0, 0, cell_stack_count, NULL},
    {"@", NULL, 10, 1, 0, cell_stack_time, NULL},
    {"pct", NULL, 7, 1, 0, cell_stack_pct, NULL},
    {"depth", NULL, 6, 1, 0, cell_stack_depth, NULL},
    {"stack", "stack (root first)", 0, 0, SS_COL_LABEL, cell_stack, NULL},
};

static int report_stacks(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                         struct ss_error *err)
{
    if (o->format == SS_FORMAT_FOLDED)
        return ss_write_folded(m, out, "standard output", err);
    struct ss_stacks st;
    int rc = ss_stacks_compute(m, &st, err);
    if (rc)
        return rc;
    struct textbuf tb = {NULL, 0};
    if (o->format == SS_FORMAT_TEXT) {
        ss_report_header(out, m);
        struct ss_totals t;
        ss_model_totals(m, &t);
        if (t.agg_samples)
            fprintf(out, "note       the profiles without stacks (%llu samples) are left out\n\n",
                    (unsigned long long)t.agg_samples);
    }
    struct stacks_ctx ctx = {m, &st, &tb, {{0}, 0}};
    ss_units_of(m, &ctx.u);
    struct ss_table t = {stack_columns, sizeof stack_columns / sizeof *stack_columns,
                         &ctx,          st.n,
                         NULL,          ss_model_measure_name(m)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, o->limit > 0 ? (size_t)o->limit : 0,
                   "rows");
    free(tb.s);
    ss_stacks_free(&st);
    return 0;
}

/* ---- sources ------------------------------------------------------------------ */

#define SRC(ctx, r) (&((const struct ss_model *)(ctx))->sources.v[r])

static void cell_src_id(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, r + 1);
}
static void cell_src_type(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_str(ctx, SRC(ctx, r)->type), tsv);
}
static void cell_src_uri(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_str(ctx, SRC(ctx, r)->uri), tsv);
}
static void cell_src_session(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, SRC(ctx, r)->session);
}
static void cell_src_line(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, SRC(ctx, r)->header_line);
}
static void cell_src_interval(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    if (tsv)
        ss_cell_num(buf, n, SRC(ctx, r)->interval_us, 1, 0);
    else if (SRC(ctx, r)->flags & SS_SRC_UNTIMED)
        snprintf(buf, n, "-"); /* no time: counts only */
    else
        ss_format_interval(buf, n, SRC(ctx, r)->interval_us);
}
static void cell_src_flags(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    char fl[64];
    ss_report_flags_text(fl, sizeof fl, SRC(ctx, r)->flags);
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
static void cell_src_samples(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, ss_source_samples(ctx, (ss_id)r));
}

/* the measures the source has, the model's default first: "time,samples" */
static void cell_src_measures(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_model *m = ctx;
    struct ss_measure ms[SS_SOURCE_VALUE_BITS + 8];
    size_t nm = ss_model_measures(m, ms, sizeof ms / sizeof *ms), k = 0;
    if (nm > sizeof ms / sizeof *ms)
        nm = sizeof ms / sizeof *ms;
    buf[0] = '\0';
    for (size_t i = 0; i < nm && k + 1 < n; i++)
        if (ss_source_has_measure(m, r, &ms[i])) {
            char one[256];
            ss_cell_str(one, sizeof one, ss_measure_name(m, &ms[i]), tsv);
            k += (size_t)snprintf(buf + k, n - k, "%s%s", k ? "," : "", one);
        }
    if (!buf[0])
        snprintf(buf, n, "-");
}

static const struct ss_col source_columns[] = {
    {"source", NULL, 6, 0, 0, cell_src_id, NULL},
    {"type", NULL, 13, 1, SS_COL_LEFT, cell_src_type, NULL},
    {"uri", "file", 0, 0, SS_COL_LABEL, cell_src_uri, NULL},
    {"session", NULL, 7, 1, 0, cell_src_session, NULL},
    {"header_line", "line", 6, 1, 0, cell_src_line, NULL},
    {"interval_us", "interval", 10, 1, 0, cell_src_interval, NULL},
    {"flags", NULL, 16, 1, SS_COL_LEFT, cell_src_flags, NULL},
    {"samples", NULL, 9, 1, 0, cell_src_samples, NULL},
    {"measures", NULL, 0, 2, SS_COL_LEFT, cell_src_measures, NULL},
};

static int report_sources(FILE *out, const struct ss_model *m, const struct ss_report_opts *o)
{
    struct ss_table t = {source_columns,
                         sizeof source_columns / sizeof *source_columns,
                         m,
                         m->sources.n,
                         NULL,
                         NULL};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, 0, "sources");
    return 0;
}

int ss_report(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
              struct ss_error *err)
{
    int rc = ss_report_check_stacks(m, o->by, NULL, 0, err);
    if (rc)
        return rc;
    if ((o->by == SS_REPORT_RUNS || o->by == SS_REPORT_TIMELINE) && !ss_model_has_time_order(m))
        for (size_t i = 0; i < m->sources.n; i++)
            if ((m->sources.v[i].flags & SS_SRC_UNORDERED) && m->sources.v[i].n_samples)
                /* folded stacks: one row per distinct stack, no sample order */
                return ss_fail(err, SS_EUSAGE,
                               "--by %s needs samples in time order; %s (%s) has none (folded "
                               "stacks hold one line per distinct stack)",
                               o->by == SS_REPORT_RUNS ? "runs" : "timeline",
                               ss_str(m, m->sources.v[i].uri), ss_str(m, m->sources.v[i].type));
    if (o->by == SS_REPORT_STACKS)
        return report_stacks(out, m, o, err);
    if (o->by == SS_REPORT_SOURCES)
        return report_sources(out, m, o);
    if (o->by == SS_REPORT_LEVELS)
        return ss_report_levels(out, m, o, err);
    if (o->by == SS_REPORT_RUNS)
        return ss_report_runs(out, m, o, err);
    if (o->by == SS_REPORT_TREE)
        return ss_report_tree(out, m, o, err);
    if (o->by == SS_REPORT_CALLS)
        return ss_report_calls(out, m, o, err);
    if (o->by == SS_REPORT_TIMELINE)
        return ss_report_timeline(out, m, o, err);
    if (o->by == SS_REPORT_TRANSFORMS)
        return ss_report_transforms(out, m, o, err);
    if (o->by == SS_REPORT_LABELS)
        return ss_report_labels(out, m, o, err);
    struct ss_stats st;
    rc = ss_stats_compute(m, o->by == SS_REPORT_LINE ? SS_BY_LINE : SS_BY_FUNCTION, o->memory, &st,
                          err);
    if (rc)
        return rc;
    if (o->by == SS_REPORT_SELF)
        ss_stats_sort_self(&st);
    else if (o->by == SS_REPORT_TOTAL)
        ss_stats_sort_total(&st);
    else
        ss_stats_sort_line(&st);
    struct ss_table t = {NULL, 0, &st, st.n, NULL, ss_model_measure_name(m)};
    t.cols = ss_stat_columns(o->by, o->memory, &t.ncols);
    if (o->format == SS_FORMAT_TEXT)
        ss_report_header(out, m);
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, o->limit > 0 ? (size_t)o->limit : 0,
                   "rows");
    ss_stats_free(&st);
    return 0;
}
