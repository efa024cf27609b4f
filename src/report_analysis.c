/* report_analysis.c - `report --by levels|runs|tree|calls|timeline`: the
 * sprof views (levels, run lengths, call trees, callers/callees, timeline)
 * as text or TSV.  The analyses live in levels.c, runs.c, tree.c and
 * timeline.c; this file only formats them. */
#include "report_analysis.h"

#include <stdlib.h>
#include <string.h>

#include "levels.h"
#include "runs.h"
#include "stats.h"
#include "textesc.h"
#include "timeline.h"
#include "tree.h"

/* A function's name as safe text (textesc.h), in e's buffer. */
static const char *fname(struct ss_esc *e, const struct ss_model *m, ss_id fn)
{
    return fn == SS_NONE ? "-" : ss_esc(e, ss_str(m, m->functions.v[fn].name));
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
        return ss_fail(err, SS_EUSAGE, "--by %s needs --function NAME", o->by == SS_REPORT_CALLS ? "calls" : "runs");
    *fn = ss_model_find_function(m, o->function);
    if (*fn == SS_NONE)
        return ss_fail(err, SS_EUSAGE, "--function: no function named '%s' in the profile", o->function);
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

int ss_report_levels(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                     struct ss_error *err)
{
    struct ss_level_row *rows;
    size_t n;
    int rc = ss_levels_compute(m, &rows, &n, err);
    if (rc)
        return rc;
    size_t scaffold = ss_levels_scaffold(rows, n, o->share > 0 ? o->share : 1.0);
    struct ss_esc esc = SS_ESC_INIT(esc_mode(o));
    text_header(out, m, o);
    if (o->format == SS_FORMAT_TSV) {
        fputs("level\tsamples\tdistinct\ttop\ttop.samples\n", out);
        for (size_t i = 0; i < n; i++)
            fprintf(out, "%u\t%llu\t%u\t%s\t%llu\n", rows[i].level,
                    (unsigned long long)rows[i].samples, rows[i].distinct,
                    fname(&esc, m, rows[i].top), (unsigned long long)rows[i].top_samples);
    } else {
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
        fprintf(out, "%6s %9s %9s %8s %7s  %s\n", "level", "samples", "distinct", "top.smp", "top.pct", "top function");
        size_t lim = o->limit > 0 && (size_t)o->limit < n ? (size_t)o->limit : n;
        for (size_t i = 0; i < lim; i++) {
            double share = rows[0].samples ? 100.0 * (double)rows[i].top_samples / (double)rows[i].samples : 0;
            fprintf(out, "%5u%c %9llu %9u %8llu %7.2f  %s\n", rows[i].level,
                    i < scaffold ? '*' : ' ', (unsigned long long)rows[i].samples, rows[i].distinct,
                    (unsigned long long)rows[i].top_samples, share, fname(&esc, m, rows[i].top));
        }
        if (lim < n)
            fprintf(out, "... %zu more levels (--limit 0 shows all)\n", n - lim);
        if (scaffold)
            fputs("(* scaffold level)\n", out);
    }
    ss_esc_free(&esc);
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
    fprintf(out, "%7s", "level");
    for (size_t j = 0; j < h->n_lengths; j++)
        fprintf(out, " %6llu", (unsigned long long)h->lengths[j]);
    fprintf(out, " %7s\n", "runs");
    for (size_t i = 0; i < h->n_levels; i++) {
        fprintf(out, "%7u", h->levels[i]);
        for (size_t j = 0; j < h->n_lengths; j++) {
            uint64_t c = h->counts[i * h->n_lengths + j];
            if (c)
                fprintf(out, " %6llu", (unsigned long long)c);
            else
                fprintf(out, " %6s", ".");
        }
        fprintf(out, " %7llu\n", (unsigned long long)h->level_runs[i]);
    }
    fprintf(out, "%7s", "runs");
    for (size_t j = 0; j < h->n_lengths; j++)
        fprintf(out, " %6llu", (unsigned long long)h->length_runs[j]);
    fprintf(out, " %7llu\n", (unsigned long long)h->total);
    ss_esc_free(&esc);
}

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
    struct ss_esc esc = SS_ESC_INIT(esc_mode(o));
    text_header(out, m, o);
    if (o->format == SS_FORMAT_TSV)
        fputs("name\tlevel\truns\tsamples\tmean\tmedian\tmax\n", out);
    else
        fprintf(out, "%6s %9s %9s %9s %8s %7s  %s\n", "level", "runs", "samples", "mean", "median", "max", "name");
    size_t shown = 0, lim = o->format == SS_FORMAT_TEXT && o->limit > 0 ? (size_t)o->limit : (size_t)-1;
    size_t matching = 0;
    for (size_t i = 0; i < n; i++) {
        const struct ss_run_row *r = &rows[i];
        if (only != SS_NONE && ss_function_canonical(m, r->function) != only)
            continue;
        matching++;
        if (shown >= lim)
            continue;
        shown++;
        char lv[16];
        if (r->level)
            snprintf(lv, sizeof lv, "%u", r->level);
        else
            snprintf(lv, sizeof lv, "all");
        if (o->format == SS_FORMAT_TSV)
            fprintf(out, "%s\t%s\t%llu\t%llu\t%.15g\t%.15g\t%llu\n", fname(&esc, m, r->function),
                    lv, (unsigned long long)r->runs, (unsigned long long)r->samples, r->mean,
                    r->median, (unsigned long long)r->max);
        else
            fprintf(out, "%6s %9llu %9llu %9.2f %8.1f %7llu  %s\n", lv, (unsigned long long)r->runs,
                    (unsigned long long)r->samples, r->mean, r->median, (unsigned long long)r->max,
                    fname(&esc, m, r->function));
    }
    if (o->format == SS_FORMAT_TEXT && shown < matching)
        fprintf(out, "... %zu more rows (--limit 0 shows all)\n", matching - shown);
    ss_esc_free(&esc);
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
    size_t n;
    uint32_t *order = ss_tree_dfs_order(&t, &n);
    if (!order && t.n) {
        ss_tree_free(&t);
        return ss_nomem(err, "tree order");
    }
    struct ss_esc esc = SS_ESC_INIT(esc_mode(o));
    text_header(out, m, o);
    if (o->format == SS_FORMAT_TSV)
        fputs("depth\tname\tself\ttotal\n", out);
    else
        fprintf(out, "%s tree%s%s, %% of %.3f s\n%8s %8s  %s\n",
                o->inverted ? "bottom-up" : "top-down", focus != SS_NONE ? " of " : "",
                focus != SS_NONE ? ss_esc(&esc, o->function) : "", t.total_time, "total%", "self%",
                "name");
    double min_time = o->min_pct > 0 ? t.total_time * o->min_pct / 100.0 : 0;
    for (size_t k = 0; k < n; k++) {
        const struct ss_tree_node *nd = &t.nodes[order[k]];
        if ((o->depth > 0 && nd->depth >= (uint32_t)o->depth) || nd->total_time < min_time) {
            k = nd->end > order[k] ? k + (nd->end - order[k]) - 1 : k; /* skip the subtree */
            continue;
        }
        if (o->format == SS_FORMAT_TSV) {
            fprintf(out, "%u\t%s\t%.15g\t%.15g\n", nd->depth, fname(&esc, m, nd->function),
                    nd->self_time, nd->total_time);
        } else {
            double tp = t.total_time > 0 ? 100.0 * nd->total_time / t.total_time : 0;
            double sp = t.total_time > 0 ? 100.0 * nd->self_time / t.total_time : 0;
            fprintf(out, "%8.2f %8.2f  %*s%s\n", tp, sp, (int)(2 * nd->depth), "",
                    fname(&esc, m, nd->function));
        }
    }
    ss_esc_free(&esc);
    free(order);
    ss_tree_free(&t);
    return 0;
}

/* ---- callers and callees -------------------------------------------------------- */

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
    double t = tot.sampling_time;
    struct ss_esc esc = SS_ESC_INIT(esc_mode(o));
    if (o->format == SS_FORMAT_TEXT)
        ss_report_header(out, m);
    if (o->format == SS_FORMAT_TSV) {
        fputs("relation\tname\tcount\ttime\tpct\n", out);
        for (size_t i = 0; i < c.ncallers; i++)
            fprintf(out, "caller\t%s\t%llu\t%.15g\t%.15g\n", fname(&esc, m, c.callers[i].function),
                    (unsigned long long)c.callers[i].n, c.callers[i].time,
                    t > 0 ? 100.0 * c.callers[i].time / t : 0);
        fprintf(out, "self\t%s\t%llu\t%.15g\t%.15g\n", fname(&esc, m, c.function),
                (unsigned long long)c.self_n, c.self_time, t > 0 ? 100.0 * c.self_time / t : 0);
        fprintf(out, "total\t%s\t%llu\t%.15g\t%.15g\n", fname(&esc, m, c.function),
                (unsigned long long)c.total_n, c.total_time, t > 0 ? 100.0 * c.total_time / t : 0);
        for (size_t i = 0; i < c.ncallees; i++)
            fprintf(out, "callee\t%s\t%llu\t%.15g\t%.15g\n", fname(&esc, m, c.callees[i].function),
                    (unsigned long long)c.callees[i].n, c.callees[i].time,
                    t > 0 ? 100.0 * c.callees[i].time / t : 0);
    } else {
        fprintf(out, "%9s %10s %7s\n", "count", "time", "pct");
        for (size_t i = 0; i < c.ncallers; i++)
            fprintf(out, "%9llu %10.3f %7.2f      %s\n", (unsigned long long)c.callers[i].n,
                    c.callers[i].time, t > 0 ? 100.0 * c.callers[i].time / t : 0,
                    fname(&esc, m, c.callers[i].function));
        fprintf(out, "%9llu %10.3f %7.2f  |   %s (total; self %llu = %.3f s)\n",
                (unsigned long long)c.total_n, c.total_time, t > 0 ? 100.0 * c.total_time / t : 0,
                fname(&esc, m, c.function), (unsigned long long)c.self_n, c.self_time);
        for (size_t i = 0; i < c.ncallees; i++)
            fprintf(out, "%9llu %10.3f %7.2f      %s\n", (unsigned long long)c.callees[i].n,
                    c.callees[i].time, t > 0 ? 100.0 * c.callees[i].time / t : 0,
                    fname(&esc, m, c.callees[i].function));
        fputs("(callers above the function, callees below; counts are samples)\n", out);
    }
    ss_esc_free(&esc);
    ss_calls_free(&c);
    return 0;
}

/* ---- timeline ------------------------------------------------------------------- */

static char legend_letter(size_t i)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    return i < sizeof letters - 1 ? letters[i] : '+';
}

int ss_report_timeline(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                       struct ss_error *err)
{
    uint32_t level = o->level;
    if (level == 0) { /* below the (95%) scaffold the phases show */
        struct ss_level_row *rows;
        size_t n;
        int rc = ss_levels_compute(m, &rows, &n, err);
        if (rc)
            return rc;
        size_t sc = ss_levels_scaffold(rows, n, 0.95);
        level = (uint32_t)(sc < n ? sc + 1 : (n ? n : 1));
        free(rows);
    }
    struct ss_timeline t;
    int rc = ss_timeline_compute(m, level, o->width > 0 ? (size_t)o->width : 80, &t, err);
    if (rc)
        return rc;
    struct ss_esc esc = SS_ESC_INIT(esc_mode(o));
    if (o->format == SS_FORMAT_TSV) {
        fputs("window\tfirst\tlast\ttop\ttop.samples\tshallow\n", out);
        for (size_t i = 0; i < t.nwindows; i++) {
            const struct ss_timeline_window *w = &t.windows[i];
            fprintf(out, "%zu\t%zu\t%zu\t%s\t%llu\t%llu\n", i + 1, w->first + 1, w->first + w->n,
                    fname(&esc, m, w->top), (unsigned long long)w->top_n,
                    (unsigned long long)w->shallow_n);
        }
        ss_esc_free(&esc);
        ss_timeline_free(&t);
        return 0;
    }
    text_header(out, m, o);
    fprintf(out, "timeline   level %u, %zu windows of %zu samples (one letter each; '.': no "
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
