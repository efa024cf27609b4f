/* report_transforms.c - the transform list and each step's effect (see
 * report_transforms.h).  Columns: the step number, whether it is enabled,
 * samples entering and leaving it, samples it left with no frames, frames it
 * removed (summed over samples), distinct stacks it changed, functions its
 * names matched, labels its KEY[=VALUE] matched (the label commands), levels
 * trim-base removed, the command's canonical text, the measure of the
 * samples entering and leaving (time_in, time_out: what a step removed),
 * and the samples a range or a phase kept or dropped (range: A:B as the
 * step's own timeline numbers them, what keep-phase main resolved to). */
#include "report_transforms.h"

#include "column.h"
#include "stats.h"
#include "textesc.h"
#include "units.h"
#include "transform.h"
#include "vec.h"

#define LIST(ctx) (((const struct ss_tf_ctx *)(ctx))->l)
#define EFF(ctx, r) ss_tf_effect(LIST(ctx), r)

static void cell_step(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, r + 1);
}
static void cell_on(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    int on = ss_tf_enabled(LIST(ctx), r);
    snprintf(buf, n, "%s", tsv ? (on ? "1" : "0") : on ? "yes" : "off");
}
static void cell_in(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, EFF(ctx, r)->samples_in);
}
static void cell_out(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, EFF(ctx, r)->samples_out);
}
static void cell_emptied(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, EFF(ctx, r)->samples_emptied);
}
static void cell_frames(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, EFF(ctx, r)->frames_removed);
}
static void cell_stacks(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, EFF(ctx, r)->stacks_changed);
}
static void cell_functions(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, EFF(ctx, r)->functions_matched);
}
static void cell_labels(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, EFF(ctx, r)->labels_matched);
}
static void cell_levels(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_u64(buf, n, EFF(ctx, r)->levels_removed);
}
static void cell_range(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_tf_range_text(EFF(ctx, r), buf, n);
    if (!tsv && !buf[0])
        snprintf(buf, n, "-");
}
static void cell_command(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_tf_text(LIST(ctx), r), tsv); /* commands quote names */
}

static void cell_value_in(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &((const struct ss_tf_ctx *)ctx)->u, EFF(ctx, r)->value_in, tsv);
}
static void cell_value_out(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_format_value(buf, n, &((const struct ss_tf_ctx *)ctx)->u, EFF(ctx, r)->value_out, tsv);
}

/* The measure's columns come last in TSV (after command), before the
 * command in text, which prints the label last. */
const struct ss_col ss_step_columns[SS_STEP_NCOLS] = {
    {"step", NULL, 4, 0, 0, cell_step, NULL, NULL, 0},
    {"enabled", "on", 3, 1, 0, cell_on, NULL, NULL, 0},
    {"samples_in", "samples.in", 11, 1, 0, cell_in, NULL, NULL, 0},
    {"samples_out", "samples.out", 11, 1, 0, cell_out, NULL, NULL, 0},
    {"samples_emptied", "emptied", 8, 1, 0, cell_emptied, NULL, NULL, 0},
    {"frames_removed", "frames.removed", 14, 1, 0, cell_frames, NULL, NULL, 0},
    {"stacks_changed", "stacks", 7, 1, 0, cell_stacks, NULL, NULL, 0},
    {"functions_matched", "functions", 9, 1, 0, cell_functions, NULL, NULL, 0},
    {"labels_matched", "labels", 6, 1, 0, cell_labels, NULL, NULL, 0},
    {"levels_removed", "levels", 6, 1, 0, cell_levels, NULL, NULL, 0},
    {"command", NULL, 0, 0, SS_COL_LABEL, cell_command, NULL, NULL, 0},
    {"@_in", "@.in", 10, 1, 0, cell_value_in, NULL, NULL, 0},
    {"@_out", "@.out", 10, 1, 0, cell_value_out, NULL, NULL, 0},
    {"range", NULL, 11, 1, 0, cell_range, NULL, NULL, 0},
};

int ss_report_transforms(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                         struct ss_error *err)
{
    const struct ss_tf_list *l = o->transforms;
    size_t n = l ? ss_tf_count(l) : 0;
    int tsv = o->format == SS_FORMAT_TSV;
    if (!tsv)
        ss_report_header(out, m);
    struct ss_tf_ctx ctx = {l, {{0}, 0}};
    ss_units_of(m, &ctx.u);
    struct ss_table t = {ss_step_columns, SS_STEP_NCOLS, &ctx, n, NULL, ss_model_measure_name(m)};
    ss_table_print(out, &t, tsv, ss_report_limit(o), "steps");
    int simplify = 0;
    for (size_t i = 0; i < n; i++)
        simplify |= ss_tf_kind(l, i) == SS_TF_R_SIMPLIFY;
    if (!tsv && simplify) {
        /* what r-simplify merges: the list is part of its meaning */
        fputs("\nr-simplify merges the frames of:", out);
        for (size_t k = 0; ss_tf_r_machinery[k]; k++)
            fprintf(out, "%s %s", k ? "," : "", ss_tf_r_machinery[k]);
        fputs("\n(except an innermost frame, whose self time stays its own, and a frame with a "
              "source position)\n",
              out);
    }
    if (!tsv && n == 0)
        fputs("(no transforms: add them with -e COMMAND or --script FILE)\n", out);
    return 0;
}
