/* status.c - the title and status lines (see status.h). */
#include "status.h"

#include <stdio.h>
#include <string.h>

#include "report_compare.h"
#include "stats.h"

void ui_status_draw_title(struct ui *ui, struct ui_canvas *c, int y)
{
    struct ui_view *v = ui_current(ui);
    char title[1024] = "";
    if (v->ops->title)
        v->ops->title(ui, v, title, sizeof title);
    char right[64];
    if (v->list.n)
        snprintf(right, sizeof right, " %zu/%zu  ?:help ", v->list.sel + 1, v->list.n);
    else
        snprintf(right, sizeof right, " ?:help ");
    char left[1200];
    snprintf(left, sizeof left, " %s%s%s", v->ops->name, title[0] ? ": " : "", title);
    int rw = (int)strlen(right);
    ui_canvas_style(c, y, 0, c->w, UI_S_TITLE, 1);
    if (rw < c->w - 10) {
        ui_put_fit(c, y, 0, c->w - rw, left, UI_S_TITLE, 0);
        ui_put(c, y, c->w - rw, rw, right, UI_S_TITLE);
    } else {
        ui_put_fit(c, y, 0, c->w, left, UI_S_TITLE, 0);
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
        ss_compare_summary(sum, sizeof sum, &cmp, 0);
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
        }
        snprintf(line, sizeof line, " %s vs base %s%s | %s: %s%s | %s", nb, bb,
                 ui->swapped ? " (swapped)" : "", ss_model_measure_name(ui->m), sum, vs, tf);
        ui_put_head(c, y, 0, c->w, line, UI_S_STATUS);
        return;
    }
    snprintf(line, sizeof line, " %s | %llu of %llu samples | %s | %s", files,
             (unsigned long long)(kept_samples(ui->m) + agg_samples(ui->m)),
             (unsigned long long)(ui->orig_samples + agg_samples(ui->m)), t, tf);
    ui_put_head(c, y, 0, c->w, line, UI_S_STATUS);
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
