/* status.c - the title and status lines (see status.h). */
#include "status.h"

#include <stdio.h>
#include <string.h>

#include "column.h"
#include "num.h"
#include "report_compare.h"
#include "units.h"
#include "stats.h"

void ui_status_draw_title(struct ui *ui, struct ui_canvas *c, int y)
{
    struct ui_view *v = ui_current(ui);
    char title[1024] = "";
    if (v->ops->title)
        v->ops->title(ui, v, title, sizeof title);
    /* the selected row of how many: under a filter, of the rows shown */
    char right[400] = " ?:help ";
    const struct ui_list *l = &v->list;
    if (l->vis && v->filter[0])
        snprintf(right, sizeof right, " &%.40s: %zu/%zu of %zu  ?:help ", v->filter,
                 ui_list_count(l) ? ui_list_pos(l) + 1 : 0, ui_list_count(l), l->n);
    else if (l->n)
        snprintf(right, sizeof right, " %zu/%zu  ?:help ", l->sel + 1, l->n);
    char left[1200];
    snprintf(left, sizeof left, " %s%s%s", v->ops->name, title[0] ? ": " : "", title);
    int rw = ui_text_width(c, right);
    ui_canvas_style(c, y, 0, c->w, UI_S_TITLE, 1);
    /* a title too long is cut at its end (a number in its middle stays
     * whole, as everywhere) */
    if (rw < c->w - 10) {
        ui_put_head(c, y, 0, c->w - rw, left, UI_S_TITLE);
        ui_put(c, y, c->w - rw, rw, right, UI_S_TITLE);
    } else {
        ui_put_head(c, y, 0, c->w, left, UI_S_TITLE);
    }
}

/* Samples (count values) of the current model's raw samples. */
static uint64_t kept_samples(const struct ss_model *m)
{
    return ss_model_count(m, 0, m->sample_stack.n);
}

/* The samples of its aggregate sources (SamplingProf), which transforms
 * leave as they are: part of both numbers of the status line, as of every
 * report header (ss_model_totals). */
static uint64_t agg_samples(const struct ss_model *m)
{
    uint64_t n = 0;
    for (size_t s = 0; s < m->sources.n; s++)
        n += ss_agg_samples(m, (ss_id)s);
    return n;
}

/* The status line: `names` (the files), `nums` (the numbers), then `tf`
 * (the transforms).  When names and numbers do not fit, the names give way
 * (cut in the middle, down to 12 columns), so that the numbers show whole;
 * the transforms take what is left, cut at the end. */
static void put_status(struct ui_canvas *c, int y, const char *names, const char *nums,
                       const char *tf)
{
    ui_canvas_style(c, y, 0, c->w, UI_S_STATUS, 1);
    int nw = ui_text_width(c, names), rw = ui_text_width(c, nums);
    if (nw + rw > c->w && nw > 12)
        nw = c->w - rw > 12 ? c->w - rw : 12;
    ui_put_fit(c, y, 0, nw, names, UI_S_STATUS, 0);
    int used = ui_put(c, y, nw, c->w - nw, nums, UI_S_STATUS);
    int room = c->w - nw - used;
    if (room >= 8 || room >= ui_text_width(c, tf)) /* not a lone "…" */
        ui_put_head(c, y, nw + used, room, tf, UI_S_STATUS);
}

/* A comparison's totals, short enough for the status line, each with its
 * unit: "base 27.610 s, new 19.635 s, -7.975 s (-28.88%)" (report's header
 * says the same at length: ss_compare_summary). */
static void compare_totals(const struct ss_compare *c, char *buf, size_t n)
{
    char b[64], nw[64], d[64];
    double tb = c->total_base * c->scale, tn = c->total_new;
    ss_format_value(b, sizeof b, &c->units, tb, 0);
    ss_format_value(nw, sizeof nw, &c->units, tn, 0);
    ss_cell_signed(d, sizeof d, &c->units, tn - tb, 0);
    const char *u = c->units.measure.kind == SS_MEASURE_TIME ? " s" : "";
    size_t k = (size_t)snprintf(buf, n, "base %s%s, new %s%s, %s%s", b, u, nw, u, d, u);
    if (k < n && !ss_double_eq(tb, 0))
        k += (size_t)snprintf(buf + k, n - k, " (%+.2f%%)", 100.0 * (tn - tb) / tb);
    if (k < n && c->normalized)
        snprintf(buf + k, n - k, ", normalized");
}

void ui_status_draw(struct ui *ui, struct ui_canvas *c, int y)
{
    char files[512];
    const char *first = ui->nfiles > 0 ? ui->files[0] : "";
    const char *base = strrchr(first, '/');
    base = base && base[1] ? base + 1 : first;
    if (ui->nfiles > 1)
        snprintf(files, sizeof files, "%s +%d", base, ui->nfiles - 1);
    else
        snprintf(files, sizeof files, "%s", base);
    const struct ss_stats *st = ui_stats_fn(ui);
    char t[96];
    ui_fmt_value(ui, t, sizeof t, st ? st->value_total : 0);
    if (ui->m->weights.measure.kind == SS_MEASURE_TIME)
        snprintf(t + strlen(t), sizeof t - strlen(t), " s");
    else
        snprintf(t + strlen(t), sizeof t - strlen(t), " %s", ss_model_measure_name(ui->m));
    char tf[512] = "no transforms";
    size_t active = ss_tf_active(ui->tf);
    if (active) {
        size_t k =
            (size_t)snprintf(tf, sizeof tf, "%zu transform%s:", active, active == 1 ? "" : "s");
        for (size_t i = 0; i < ss_tf_count(ui->tf) && k < sizeof tf; i++)
            if (ss_tf_enabled(ui->tf, i))
                k += (size_t)snprintf(tf + k, sizeof tf - k, " %s;", ss_tf_text(ui->tf, i));
        if (k < sizeof tf && tf[k - 1] == ';')
            tf[k - 1] = '\0';
    }
    char line[2048];
    if (ui->bm) {
        /* a comparison: what is compared with what, and the totals */
        const char *bf = ui->bm->sources.n ? ss_str(ui->bm, ui->bm->sources.v[0].uri) : "";
        const char *bb = strrchr(bf, '/');
        bb = bb && bb[1] ? bb + 1 : bf;
        struct ss_compare cmp;
        ui_compare(ui, &cmp);
        char sum[512];
        compare_totals(&cmp, sum, sizeof sum);
        const char *nf = ui->m->sources.n ? ss_str(ui->m, ui->m->sources.v[0].uri) : "";
        const char *nb = strrchr(nf, '/');
        nb = nb && nb[1] ? nb + 1 : nf;
        /* the verdicts of the functions' self (compare.h), as their view shows */
        char vs[128] = "";
        const struct ss_cmp_stats *cs = ui_cmp_fn(ui);
        if (cs && cs->vinfo.done) {
            size_t g, s;
            ss_verdict_count(cs->n ? &cs->rows[0].vself : NULL, cs->n, sizeof *cs->rows, &g, &s);
            int k = snprintf(vs, sizeof vs, " | self: %zu grew, %zu shrank", g, s);
            /* several files a side: each a run, tested across runs */
            if (cs->vinfo.files_b > 1 || cs->vinfo.files_n > 1)
                snprintf(vs + k, sizeof vs - (size_t)k, " (runs: %zu base, %zu new)",
                         cs->vinfo.files_b, cs->vinfo.files_n);
        } else if (cs && cs->vinfo.pending) {
            snprintf(vs, sizeof vs, " | self: testing");
        }
        char names[1200], tfs[sizeof vs + sizeof tf + 4];
        char fol[128];
        ui_follow_status(ui, fol, sizeof fol);
        if (ui->phase_cmp == UI_CMP_RECENT) /* the last seconds of one profile */
            snprintf(names, sizeof names, " %s: last %s vs before%s", nb, ui->phase[1], fol);
        else if (ui->phase_cmp) /* two phases of one profile */
            snprintf(names, sizeof names, " phase %s vs phase %s of %s%s", ui->phase[1],
                     ui->phase[0], nb, fol);
        else
            snprintf(names, sizeof names, " %s vs %s%s%s", nb, bb, ui->swapped ? " (swapped)" : "",
                     fol);
        snprintf(line, sizeof line, " | %s: %s", ss_model_measure_name(ui->m), sum);
        snprintf(tfs, sizeof tfs, "%s | %s", vs, tf); /* they give way first */
        put_status(c, y, names, line, tfs);
        return;
    }
    char names[800], counted[128], tfs[600], fol[128];
    ui_follow_status(ui, fol, sizeof fol);
    snprintf(names, sizeof names, " %s%s", files, fol);
    snprintf(line, sizeof line, " | %llu of %llu %s | %s",
             (unsigned long long)(kept_samples(ui->m) + agg_samples(ui->m)),
             (unsigned long long)(ui->orig_samples + agg_samples(ui->m)),
             ss_model_count_name(ui->m, counted, sizeof counted), t);
    snprintf(tfs, sizeof tfs, " | %s", tf);
    put_status(c, y, names, line, tfs);
}

const char *ui_status_detail(struct ui *ui, char *buf, size_t n)
{
    struct ui_view *v = ui_current(ui);
    if (v->list.n == 0 || v->list.sel >= v->list.n)
        return NULL;
    const char *t = v->ops->row_function ? v->ops->row_function(ui, v, v->list.sel) : NULL;
    if (!t && v->ops->row_text)
        t = v->ops->row_text(ui, v, v->list.sel, buf, n);
    return t && *t ? t : NULL;
}

void ui_status_draw_detail(struct ui *ui, struct ui_canvas *c, int y)
{
    char buf[4096];
    const char *t = ui_status_detail(ui, buf, sizeof buf);
    ui_canvas_style(c, y, 0, c->w, UI_S_DIM, 1);
    if (!t)
        return;
    char line[8192];
    snprintf(line, sizeof line, " %s", t);
    ui_put_fit(c, y, 0, c->w, line, UI_S_DIM, 0);
}
