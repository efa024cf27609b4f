/* report_analysis.c - `report --by levels|runs|tree|calls|timeline`: the
 * sprof views (levels, run lengths, call trees, callers/callees, timeline)
 * as text or TSV.  The analyses live in levels.c, runs.c, tree.c and
 * timeline.c; this file only formats them. */
#include "report_analysis.h"

#include <stdlib.h>
#include <string.h>

#include "column.h"
#include "units.h"
#include "levels.h"
#include "runs.h"
#include "stats.h"
#include "textesc.h"
#include "timeline.h"
#include "tree.h"
#include "vec.h"
#include "num.h"

/* A function's name as safe text (textesc.h), in e's buffer. */
static const char *fname(struct ss_esc *e, const struct ss_model *m, ss_id fn)
{
    return fn == SS_NONE ? "-" : ss_esc(e, ss_str(m, m->functions.v[fn].name));
}

/* A function's name as a cell ("-" for none). */
static void cell_fn(char *buf, size_t n, const struct ss_model *m, ss_id fn, int tsv)
{
    ss_cell_str(buf, n, fn == SS_NONE ? "-" : ss_function_name(m, fn), tsv);
}

static enum ss_esc_mode esc_mode(const struct ss_report_opts *o)
{
    return o->format == SS_FORMAT_TSV ? SS_ESC_TSV : SS_ESC_TEXT;
}

/* The function named o->function, or an error naming it. */
static int need_function(const struct ss_model *m, const struct ss_report_opts *o, ss_id *fn,
                         struct ss_error *err)
{
    if (!o->function)
        return ss_fail(err, SS_EUSAGE, "--by %s needs --function NAME",
                       o->by == SS_REPORT_CALLS ? "calls" : "runs");
    *fn = ss_model_find_function(m, o->function);
    if (*fn == SS_NONE)
        return ss_fail(err, SS_EUSAGE, "--function: no function named '%s' in the profile",
                       o->function);
    return 0;
}

/* The text header of a table built from stacks; aggregate sources (no
 * stacks) are left out of it, which a note line says. */
static void text_header(FILE *out, const struct ss_model *m, const struct ss_report_opts *o)
{
    if (o->format != SS_FORMAT_TEXT)
        return;
    struct ss_totals t;
    ss_model_totals(m, &t);
    ss_report_header(out, m);
    if (t.agg_samples)
        /* the header's sample total includes the aggregates: say what the
         * table covers */
        fprintf(out,
                "note       the profiles without stacks (%llu samples, %.3f s) are left out: "
                "this table covers %llu samples, %.3f s\n\n",
                (unsigned long long)t.agg_samples, t.agg_time,
                (unsigned long long)(t.counted - t.agg_samples), t.sampling_time - t.agg_time);
}

/* ---- levels ---------------------------------------------------------------- */

#define LROW(ctx, r) (&((const struct ss_levels_ctx *)(ctx))->rows[r])

static void cell_level(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_levels_ctx *c = ctx;
    snprintf(buf, n, tsv ? "%u" : "%u%c", LROW(ctx, r)->level, r < c->scaffold ? '*' : ' ');
}
static void cell_level_samples(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, LROW(ctx, r)->samples);
}
static void cell_level_distinct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, LROW(ctx, r)->distinct);
}
static void cell_level_top(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    cell_fn(buf, n, ((const struct ss_levels_ctx *)ctx)->m, LROW(ctx, r)->top, tsv);
}
static void cell_level_top_samples(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, LROW(ctx, r)->top_samples);
}
/* the top function's share of the level, by the measure */
static void cell_level_top_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_level_row *row = LROW(ctx, r);
    double share = !ss_double_eq(row->value, 0) ? 100.0 * row->top_value / row->value : 0;
    ss_cell_num(buf, n, share, tsv, 2);
}
static void cell_level_value(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &((const struct ss_levels_ctx *)ctx)->u, LROW(ctx, r)->value, tsv);
}
static void cell_level_top_value(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &((const struct ss_levels_ctx *)ctx)->u, LROW(ctx, r)->top_value, tsv);
}

const struct ss_col ss_level_columns[SS_LEVEL_NCOLS] = {
    {"level", NULL, 6, 0, 0, cell_level, NULL, NULL, 0},
    {"samples", NULL, 9, 1, 0, cell_level_samples, NULL, NULL, 0},
    {"distinct", NULL, 9, 1, 0, cell_level_distinct, NULL, NULL, 0},
    {"top", "top function", 0, 0, SS_COL_LABEL, cell_level_top, NULL, NULL, 0},
    {"top.samples", "top.smp", 8, 1, 0, cell_level_top_samples, NULL, NULL, 0},
    {"top.pct", NULL, 7, 1, SS_COL_TEXT, cell_level_top_pct, NULL, NULL, 0},
    {"@", NULL, 0, 0, SS_COL_TSV, cell_level_value, NULL, NULL, 0},
    {"top.@", NULL, 0, 0, SS_COL_TSV, cell_level_top_value, NULL, NULL, 0},
};

int ss_report_levels(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                     struct ss_error *err)
{
    struct ss_level_row *rows;
    size_t n;
    int rc = ss_levels_compute(m, &rows, &n, err);
    if (rc)
        return rc;
    size_t scaffold = ss_levels_scaffold(rows, n, o->share > 0 ? o->share : 1.0);
    text_header(out, m, o);
    if (o->format == SS_FORMAT_TEXT) {
        char in[64];
        if (o->share > 0 && o->share < 1)
            snprintf(in, sizeof in, "at least %g%% of the samples", 100 * o->share);
        else
            snprintf(in, sizeof in, "every sample");
        size_t user = scaffold ? ss_levels_user_level(rows, scaffold) : 0;
        if (scaffold)
            fprintf(out, "scaffold   levels 1-%zu: at each, one function is in %s\n", scaffold, in);
        if (scaffold && user < scaffold)
            fprintf(out,
                    "user code  from level %zu (a frame there has a source position): trim-base "
                    "auto cuts levels above it, auto,all all of them\n",
                    user + 1);
        if (scaffold)
            fputs("\n", out);
        else
            fprintf(out, "scaffold   none: no root level has one function in %s\n\n", in);
    }
    struct ss_levels_ctx ctx = {m, rows, scaffold, {{0}, 0}};
    ss_units_of(m, &ctx.u);
    struct ss_table t = {ss_level_columns, SS_LEVEL_NCOLS, &ctx, n, NULL, ss_model_measure_name(m)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, ss_report_limit(o), "levels");
    if (o->format == SS_FORMAT_TEXT && scaffold)
        fputs("(* scaffold level)\n", out);
    free(rows);
    return 0;
}

/* ---- run lengths ------------------------------------------------------------- */

static void print_hist(FILE *out, const struct ss_model *m, const struct ss_run_hist *h)
{
    struct ss_esc esc = SS_ESC_INIT(SS_ESC_TEXT);
    fprintf(out,
            "\nrun lengths of %s: runs per level (rows) and run length in samples (columns)\n\n",
            fname(&esc, m, h->function));
    ss_esc_free(&esc);
    /* 7 bytes a number column, 8 the total, 7 the level */
    size_t n = 7 * (h->n_lengths + 1) + 8 + 8 + 1;
    char *line = malloc(n);
    for (size_t i = 0; line && i <= h->n_levels + 1; i++) {
        ss_run_hist_line(h, i, 0, line, n);
        fprintf(out, "%s\n", line);
    }
    free(line);
}

#define RROW(ctx, r) (&((const struct ss_runs_ctx *)(ctx))->rows[r])

static void cell_run_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    cell_fn(buf, n, ((const struct ss_runs_ctx *)ctx)->m, RROW(ctx, r)->function, tsv);
}
static void cell_run_level(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    if (RROW(ctx, r)->level)
        snprintf(buf, n, "%u", RROW(ctx, r)->level);
    else
        snprintf(buf, n, "all");
}
static void cell_run_runs(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, RROW(ctx, r)->runs);
}
static void cell_run_samples(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, RROW(ctx, r)->samples);
}
static void cell_run_mean(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_num(buf, n, RROW(ctx, r)->mean, tsv, 2);
}
static void cell_run_median(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_num(buf, n, RROW(ctx, r)->median, tsv, 1);
}
static void cell_run_max(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, RROW(ctx, r)->max);
}

static void cell_run_value(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &((const struct ss_runs_ctx *)ctx)->u, RROW(ctx, r)->value, tsv);
}

const struct ss_col ss_run_columns[SS_RUN_NCOLS] = {
    {"name", NULL, 0, 0, SS_COL_LABEL, cell_run_name, NULL, NULL, 0},
    {"level", NULL, 6, 0, 0, cell_run_level, NULL, NULL, 0},
    {"runs", NULL, 9, 1, 0, cell_run_runs, NULL, NULL, 0},
    {"samples", NULL, 9, 1, 0, cell_run_samples, NULL, NULL, 0},
    {"mean", NULL, 9, 1, 0, cell_run_mean, NULL, NULL, 0},
    {"median", NULL, 8, 1, 0, cell_run_median, NULL, NULL, 0},
    {"max", NULL, 7, 1, 0, cell_run_max, NULL, NULL, 0},
    {"@", NULL, 9, 1, 0, cell_run_value, NULL, NULL, 0},
};

int ss_report_runs(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                   struct ss_error *err)
{
    ss_id only = SS_NONE;
    if (o->function) {
        int rc = need_function(m, o, &only, err);
        if (rc)
            return rc;
        only = ss_function_canonical(m, only);
    }
    struct ss_run_row *rows;
    size_t n;
    int rc = ss_runs_compute(m, o->level, &rows, &n, err);
    if (rc)
        return rc;
    /* the rows of one function (--function), in the table's order */
    size_t *order = ss_alloc_array(n, sizeof *order), k = 0;
    if (!order) {
        free(rows);
        return ss_nomem(err, "run lengths");
    }
    for (size_t i = 0; i < n; i++)
        if (only == SS_NONE || ss_function_canonical(m, rows[i].function) == only)
            order[k++] = i;
    text_header(out, m, o);
    struct ss_runs_ctx ctx = {m, rows, {{0}, 0}};
    ss_units_of(m, &ctx.u);
    struct ss_table t = {ss_run_columns, SS_RUN_NCOLS, &ctx, k, order, ss_model_measure_name(m)};
    ss_table_print(out, &t, o->format == SS_FORMAT_TSV, ss_report_limit(o), "rows");
    free(order);
    free(rows);
    if (o->format == SS_FORMAT_TEXT && only != SS_NONE) {
        struct ss_run_hist h;
        rc = ss_runs_hist(m, only, &h, err);
        if (rc)
            return rc;
        print_hist(out, m, &h);
        ss_run_hist_free(&h);
    }
    return 0;
}

/* ---- call trees ---------------------------------------------------------------- */

#define TNODE(ctx, r) (&((const struct ss_tree_ctx *)(ctx))->t->nodes[r])

static double tree_pct(const void *ctx, double v)
{
    double total = ((const struct ss_tree_ctx *)ctx)->pct_of;
    return total > 0 ? 100.0 * v / total : 0;
}
static void cell_tree_depth(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, TNODE(ctx, r)->depth);
}
static void cell_tree_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    /* text: indented two spaces per level (at most SS_TREE_INDENT_MAX) */
    size_t ind = tsv ? 0 : ss_tree_indent(buf, n, TNODE(ctx, r)->depth);
    cell_fn(buf + ind, n - ind, ((const struct ss_tree_ctx *)ctx)->m, TNODE(ctx, r)->function, tsv);
    size_t k = strlen(buf); /* text: pprof's inline mark of the call */
    if (!tsv && TNODE(ctx, r)->inl && k < n)
        snprintf(buf + k, n - k, " %s", ss_inline_label(TNODE(ctx, r)->inl));
}
static void cell_tree_self(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &((const struct ss_tree_ctx *)ctx)->u, TNODE(ctx, r)->self_v, tsv);
}
static void cell_tree_total(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &((const struct ss_tree_ctx *)ctx)->u, TNODE(ctx, r)->total_v, tsv);
}
static void cell_tree_total_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_num(buf, n, tree_pct(ctx, TNODE(ctx, r)->total_v), tsv, 2);
}
static void cell_tree_self_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_num(buf, n, tree_pct(ctx, TNODE(ctx, r)->self_v), tsv, 2);
}

/* --sort: siblings by name or larger first, ties by the other measure,
 * then by name */
static int cmp_tree_name(const void *ctx, size_t a, size_t b)
{
    const struct ss_model *m = ((const struct ss_tree_ctx *)ctx)->m;
    return strcmp(ss_function_name(m, TNODE(ctx, a)->function),
                  ss_function_name(m, TNODE(ctx, b)->function));
}
static int cmp_tree_self(const void *ctx, size_t a, size_t b)
{
    int c = ss_cmp_desc(TNODE(ctx, a)->self_v, TNODE(ctx, b)->self_v);
    c = c ? c : ss_cmp_desc(TNODE(ctx, a)->total_v, TNODE(ctx, b)->total_v);
    return c ? c : cmp_tree_name(ctx, a, b);
}
static int cmp_tree_total(const void *ctx, size_t a, size_t b)
{
    int c = ss_cmp_desc(TNODE(ctx, a)->total_v, TNODE(ctx, b)->total_v);
    return c ? c : cmp_tree_self(ctx, a, b);
}
static int cmp_tree_position(const void *ctx, size_t a, size_t b)
{
    int c = cmp_tree_name(ctx, a, b);
    return c ? c : cmp_tree_total(ctx, a, b);
}

const struct ss_col ss_tree_columns[SS_TREE_NCOLS] = {
    {"depth", NULL, 0, 0, SS_COL_TSV, cell_tree_depth, NULL, NULL, 0},
    {"name", NULL, 0, 0, SS_COL_LABEL, cell_tree_name, cmp_tree_position, NULL, 0},
    {"self", NULL, 0, 0, SS_COL_TSV, cell_tree_self, cmp_tree_self, NULL, 0},
    {"total", NULL, 0, 0, SS_COL_TSV, cell_tree_total, cmp_tree_total, NULL, 0},
    {"total%", NULL, 8, 0, SS_COL_TEXT, cell_tree_total_pct, NULL, NULL, 0},
    {"self%", NULL, 8, 1, SS_COL_TEXT, cell_tree_self_pct, NULL, NULL, 0},
};

static uint32_t tree_depth(const void *ctx, size_t r)
{
    return TNODE(ctx, r)->depth;
}

static double tree_weight(const void *ctx, size_t r)
{
    return TNODE(ctx, r)->total_v;
}

/* The rows in pre-order: as stored (children by total), or with --sort
 * children by that column; NULL when memory runs out. */
static size_t *tree_order(const struct ss_tree_ctx *ctx, enum ss_report_sort sort)
{
    static const size_t key[] = {[SS_SORT_SELF] = SS_TREE_SELF,
                                 [SS_SORT_TOTAL] = SS_TREE_TOTAL,
                                 [SS_SORT_POSITION] = SS_TREE_NAME};
    size_t n = ctx->t->n;
    if (sort != SS_SORT_DEFAULT)
        return ss_tree_sorted(n, tree_depth, &ss_tree_columns[key[sort]], ctx);
    size_t *order = ss_alloc_array(n ? n : 1, sizeof *order);
    for (size_t i = 0; order && i < n; i++)
        order[i] = i;
    return order;
}

int ss_report_tree(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                   struct ss_error *err)
{
    ss_id focus = SS_NONE;
    if (o->function) {
        focus = ss_model_find_function(m, o->function);
        if (focus == SS_NONE)
            return ss_fail(err, SS_EUSAGE, "--function: no function named '%s' in the profile",
                           o->function);
    }
    struct ss_tree t;
    int rc = ss_tree_build(m, o->inverted, focus, &t, err);
    if (rc)
        return rc;
    struct ss_tree_ctx ctx = {m, &t, {{0}, 0}, t.total_v};
    ss_units_of(m, &ctx.u);
    size_t n = t.n, k = 0, *order = tree_order(&ctx, o->sort);
    if (!order) {
        ss_tree_free(&t);
        return ss_nomem(err, "tree order");
    }
    /* the nodes shown: not deeper than --depth, not under --min-pct (in
     * place: k <= i) */
    double min_time = o->min_pct > 0 ? t.total_v * o->min_pct / 100.0 : 0;
    for (size_t i = 0; i < n; i++) {
        const struct ss_tree_node *nd = &t.nodes[order[i]];
        if ((o->depth > 0 && nd->depth >= (uint32_t)o->depth) || nd->total_v < min_time) {
            i += nd->end - order[i] - 1; /* skip the subtree */
            continue;
        }
        order[k++] = order[i];
    }
    size_t all = k;
    k = ss_tree_limit(order, k, o->limit > 0 ? (size_t)o->limit : 0, tree_depth, tree_weight, &ctx);
    if (k == SIZE_MAX) {
        free(order);
        ss_tree_free(&t);
        return ss_nomem(err, "--limit");
    }
    text_header(out, m, o);
    if (o->format == SS_FORMAT_TEXT) {
        struct ss_esc esc = SS_ESC_INIT(SS_ESC_TEXT);
        fprintf(out, "%s tree%s%s, %% of %.3f s\n", o->inverted ? "bottom-up" : "top-down",
                focus != SS_NONE ? " of " : "", focus != SS_NONE ? ss_esc(&esc, o->function) : "",
                t.total_v);
        ss_esc_free(&esc);
    }
    struct ss_table tab = {ss_tree_columns, SS_TREE_NCOLS, &ctx, k, order, NULL};
    ss_table_print(out, &tab, o->format == SS_FORMAT_TSV, 0, "nodes");
    ss_report_more(out, o, all - k, "nodes");
    free(order);
    ss_tree_free(&t);
    return 0;
}

/* ---- callers and callees -------------------------------------------------------- */

static void call_values(const void *ctx, size_t r, ss_id *fn, uint64_t *n, double *time)
{
    const struct ss_calls_ctx *x = ctx;
    const struct ss_calls_row *row = &x->rows[r];
    const struct ss_calls *c = x->c;
    *fn = c->function;
    if (row->rel == SS_CALL_CALLER || row->rel == SS_CALL_CALLEE) {
        const struct ss_edge *e =
            row->rel == SS_CALL_CALLER ? &c->callers[row->i] : &c->callees[row->i];
        *fn = e->function;
        *n = e->n;
        *time = e->time;
    } else if (row->rel == SS_CALL_SELF) {
        *n = c->self_n;
        *time = c->self_v;
    } else {
        *n = c->total_n;
        *time = c->total_v;
    }
}

static void cell_call_rel(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    static const char *const names[] = {"caller", "self", "total", "total", "callee"};
    snprintf(buf, n, "%s", names[((const struct ss_calls_ctx *)ctx)->rows[r].rel]);
}
static void cell_call_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_calls_ctx *x = ctx;
    ss_id fn;
    uint64_t cnt;
    double time;
    call_values(ctx, r, &fn, &cnt, &time);
    if (tsv) {
        cell_fn(buf, n, x->m, fn, 1);
        return;
    }
    char name[4096];
    cell_fn(name, sizeof name, x->m, fn, 0);
    if (x->rows[r].rel == SS_CALL_MIDDLE) {
        char v[64];
        ss_format_value(v, sizeof v, &x->u, x->c->self_v, 0);
        snprintf(buf, n, "|   %s (total; self %llu = %s%s)", name, (unsigned long long)x->c->self_n,
                 v, x->u.measure.kind == SS_MEASURE_TIME ? " s" : "");
    } else
        snprintf(buf, n, "    %s", name);
}
static void cell_call_count(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_id fn;
    uint64_t cnt;
    double time;
    call_values(ctx, r, &fn, &cnt, &time);
    ss_cell_u64(buf, n, cnt);
}
static void cell_call_time(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_id fn;
    uint64_t cnt;
    double time;
    call_values(ctx, r, &fn, &cnt, &time);
    ss_format_value(buf, n, &((const struct ss_calls_ctx *)ctx)->u, time, tsv);
}
static void cell_call_pct(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_id fn;
    uint64_t cnt;
    double time, total = ((const struct ss_calls_ctx *)ctx)->total;
    call_values(ctx, r, &fn, &cnt, &time);
    ss_cell_num(buf, n, total > 0 ? 100.0 * time / total : 0, tsv, 2);
}

/* A row's function and time (call_values without the count). */
static double call_time(const void *ctx, size_t r, ss_id *fn)
{
    uint64_t cnt;
    double time;
    call_values(ctx, r, fn, &cnt, &time);
    return time;
}

/* --sort: callers (callees) by name or the larger time first, ties by
 * the other */
static int cmp_call_name(const void *ctx, size_t a, size_t b)
{
    ss_id fa, fb;
    double ta = call_time(ctx, a, &fa), tb = call_time(ctx, b, &fb);
    const struct ss_model *m = ((const struct ss_calls_ctx *)ctx)->m;
    int c = strcmp(ss_function_name(m, fa), ss_function_name(m, fb));
    return c ? c : ss_cmp_desc(ta, tb);
}
static int cmp_call_time(const void *ctx, size_t a, size_t b)
{
    ss_id fa, fb;
    int c = ss_cmp_desc(call_time(ctx, a, &fa), call_time(ctx, b, &fb));
    return c ? c : cmp_call_name(ctx, a, b);
}

const struct ss_col ss_call_columns[SS_CALL_NCOLS] = {
    {"relation", NULL, 0, 0, SS_COL_TSV, cell_call_rel, NULL, NULL, 0},
    {"name", "", 0, 0, SS_COL_LABEL, cell_call_name, cmp_call_name, NULL, 0},
    {"count", NULL, 9, 0, 0, cell_call_count, NULL, NULL, 0},
    {"@", NULL, 10, 1, 0, cell_call_time, cmp_call_time, NULL, 0},
    {"pct", NULL, 7, 1, 0, cell_call_pct, NULL, NULL, 0},
};

/* The k rows in order: callers, the function, callees, each part as the
 * core sorted it (by time) or with --sort by that column; NULL when memory
 * runs out.  (--sort self is refused: a call has one measure.) */
static size_t *calls_order(const struct ss_calls_ctx *ctx, size_t k, size_t nr, size_t nc,
                           enum ss_report_sort sort)
{
    size_t *order = ss_alloc_array(k, sizeof *order);
    for (size_t i = 0; order && i < k; i++)
        order[i] = i;
    const struct ss_col *key =
        &ss_call_columns[sort == SS_SORT_POSITION ? SS_CALL_NAME : SS_CALL_VALUE];
    size_t first_callee = k - nc;
    if (order && sort != SS_SORT_DEFAULT &&
        (ss_sort_rows(order, nr, key, ctx) || ss_sort_rows(order + first_callee, nc, key, ctx))) {
        free(order);
        return NULL;
    }
    return order;
}

int ss_report_calls(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                    struct ss_error *err)
{
    ss_id fn;
    int rc = need_function(m, o, &fn, err);
    if (rc)
        return rc;
    struct ss_calls c;
    rc = ss_calls_of(m, fn, &c, err);
    if (rc)
        return rc;
    struct ss_totals tot;
    ss_model_totals(m, &tot);
    int tsv = o->format == SS_FORMAT_TSV;
    size_t n = c.ncallers + c.ncallees + 2;
    struct ss_calls_row *rows = ss_alloc_array(n, sizeof *rows);
    if (!rows) {
        ss_calls_free(&c);
        return ss_nomem(err, "callers and callees");
    }
    /* --limit N: the N heaviest callers and callees (the core's order) */
    size_t lim = o->limit > 0 ? (size_t)o->limit : SIZE_MAX, k = 0;
    size_t nr = c.ncallers < lim ? c.ncallers : lim, nc = c.ncallees < lim ? c.ncallees : lim;
    for (size_t i = 0; i < nr; i++)
        rows[k++] = (struct ss_calls_row){SS_CALL_CALLER, i};
    if (tsv) {
        rows[k++] = (struct ss_calls_row){SS_CALL_SELF, 0};
        rows[k++] = (struct ss_calls_row){SS_CALL_TOTAL, 0};
    } else {
        rows[k++] = (struct ss_calls_row){SS_CALL_MIDDLE, 0};
    }
    for (size_t i = 0; i < nc; i++)
        rows[k++] = (struct ss_calls_row){SS_CALL_CALLEE, i};
    if (!tsv)
        ss_report_header(out, m);
    struct ss_calls_ctx ctx = {m, &c, rows, tot.value, {{0}, 0}};
    ss_units_of(m, &ctx.u);
    size_t *order = calls_order(&ctx, k, nr, nc, o->sort);
    if (!order) {
        free(rows);
        ss_calls_free(&c);
        return ss_nomem(err, "callers and callees");
    }
    struct ss_table t = {ss_call_columns, SS_CALL_NCOLS, &ctx, k, order, ss_model_measure_name(m)};
    ss_table_print(out, &t, tsv, 0, "rows");
    ss_report_more_calls(out, o, c.ncallers - nr, c.ncallees - nc);
    if (!tsv)
        fputs("(callers above the function, callees below; counts are samples)\n", out);
    free(order);
    free(rows);
    ss_calls_free(&c);
    return 0;
}

/* ---- timeline ------------------------------------------------------------------- */

static char legend_letter(size_t i)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    return i < sizeof letters - 1 ? letters[i] : '+';
}

struct timeline_ctx {
    const struct ss_model *m;
    const struct ss_timeline *t;
};

#define WIN(ctx, r) (&((const struct timeline_ctx *)(ctx))->t->windows[r])

static void cell_win_id(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, r + 1);
}
static void cell_win_first(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, WIN(ctx, r)->first + 1);
}
static void cell_win_last(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, WIN(ctx, r)->first + WIN(ctx, r)->n);
}
static void cell_win_top(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    cell_fn(buf, n, ((const struct timeline_ctx *)ctx)->m, WIN(ctx, r)->top, tsv);
}
static void cell_win_top_n(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, WIN(ctx, r)->top_n);
}
static void cell_win_shallow(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, WIN(ctx, r)->shallow_n);
}

/* The windows (TSV; the text is a drawing: letters, legend, phases). */
static const struct ss_col window_columns[] = {
    {"window", NULL, 0, 0, 0, cell_win_id, NULL, NULL, 0},
    {"first", NULL, 0, 0, 0, cell_win_first, NULL, NULL, 0},
    {"last", NULL, 0, 0, 0, cell_win_last, NULL, NULL, 0},
    {"top", NULL, 0, 0, 0, cell_win_top, NULL, NULL, 0},
    {"top.samples", NULL, 0, 0, 0, cell_win_top_n, NULL, NULL, 0},
    {"shallow", NULL, 0, 0, 0, cell_win_shallow, NULL, NULL, 0},
};

int ss_report_timeline(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                       struct ss_error *err)
{
    uint32_t level = o->level;
    if (level == 0) { /* below the (95%) scaffold the phases show */
        int rc = ss_levels_timeline_level_of(m, &level, err);
        if (rc)
            return rc;
    }
    struct ss_timeline t;
    int rc = ss_timeline_compute(m, level, o->width > 0 ? (size_t)o->width : 80, &t, err);
    if (rc)
        return rc;
    if (o->format == SS_FORMAT_TSV) {
        struct timeline_ctx ctx = {m, &t};
        struct ss_table tab = {
            window_columns, ARRAY_SIZE(window_columns), &ctx, t.nwindows, NULL, NULL};
        ss_table_print(out, &tab, 1, ss_report_limit(o), "windows");
        ss_timeline_free(&t);
        return 0;
    }
    struct ss_esc esc = SS_ESC_INIT(esc_mode(o));
    text_header(out, m, o);
    fprintf(out,
            "timeline   level %u, %zu windows of %zu samples (one letter each; '.': no "
            "sample reaches the level)\n\n",
            t.level, t.nwindows, t.window_size);
    for (size_t i = 0; i < t.nwindows; i++) {
        ss_id top = t.windows[i].top;
        char c = '.';
        for (size_t k = 0; top != SS_NONE && k < t.nlegend; k++)
            if (t.legend[k].function == top)
                c = legend_letter(k);
        fputc(c, out);
    }
    fputs("\n\n", out);
    for (size_t k = 0; k < t.nlegend; k++)
        fprintf(out, "  %c  %-40s %9llu samples at level %u\n", legend_letter(k),
                fname(&esc, m, t.legend[k].function), (unsigned long long)t.legend[k].n, t.level);
    fputs("\nphases (runs of windows with the same function):\n", out);
    for (size_t r = 0; r < t.nruns; r++) {
        const struct ss_timeline_run *ru = &t.runs[r];
        char c = '.';
        for (size_t k = 0; ru->top != SS_NONE && k < t.nlegend; k++)
            if (t.legend[k].function == ru->top)
                c = legend_letter(k);
        fprintf(out, "  samples %zu-%zu  %c  %s\n", ru->first + 1, ru->first + ru->n, c,
                fname(&esc, m, ru->top));
    }
    ss_esc_free(&esc);
    ss_timeline_free(&t);
    return 0;
}
