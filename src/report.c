/* report.c - statistics tables as text or TSV (see report.h). */
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_analysis.h"
#include "report_transforms.h"
#include "stacks.h"
#include "textesc.h"
#include "write.h"

static void fmt_num(char *buf, size_t n, double v, int tsv, int decimals)
{
    if (tsv)
        snprintf(buf, n, "%.15g", v);
    else
        snprintf(buf, n, "%.*f", decimals, v);
}

static double pct(double x, const struct ss_stats *st)
{
    return st->sampling_time > 0 ? 100.0 * x / st->sampling_time : 0.0;
}

static void col_name(char *buf, size_t n, const struct ss_stat_row *r, const struct ss_stats *st,
                     int tsv)
{
    const char *s = ss_strtab_get(&st->keys, r->key);
    ss_esc_copy(buf, n, s, strlen(s), tsv ? SS_ESC_TSV : SS_ESC_TEXT);
}
static void col_self_time(char *buf, size_t n, const struct ss_stat_row *r,
                          const struct ss_stats *st, int tsv)
{
    fmt_num(buf, n, r->self_time, tsv, 3);
}
static void col_self_pct(char *buf, size_t n, const struct ss_stat_row *r,
                         const struct ss_stats *st, int tsv)
{
    fmt_num(buf, n, pct(r->self_time, st), tsv, 2);
}
static void col_total_time(char *buf, size_t n, const struct ss_stat_row *r,
                           const struct ss_stats *st, int tsv)
{
    fmt_num(buf, n, r->total_time, tsv, 3);
}
static void col_total_pct(char *buf, size_t n, const struct ss_stat_row *r,
                          const struct ss_stats *st, int tsv)
{
    fmt_num(buf, n, pct(r->total_time, st), tsv, 2);
}
static void col_mem(char *buf, size_t n, const struct ss_stat_row *r, const struct ss_stats *st,
                    int tsv)
{
    fmt_num(buf, n, r->mem_bytes / 1048576.0, tsv, 1);
}

static const struct ss_column fn_columns[] = {
    {"name", 0, 1, col_name},
    {"self.time", 10, 0, col_self_time},
    {"self.pct", 9, 0, col_self_pct},
    {"total.time", 11, 0, col_total_time},
    {"total.pct", 10, 0, col_total_pct},
    {"mem.total", 10, 0, col_mem},
};
static const struct ss_column line_columns[] = {
    {"location", 0, 1, col_name},
    {"self.time", 10, 0, col_self_time},
    {"self.pct", 9, 0, col_self_pct},
    {"total.time", 11, 0, col_total_time},
    {"total.pct", 10, 0, col_total_pct},
    {"mem.total", 10, 0, col_mem},
};

const struct ss_column *ss_stat_columns(enum ss_report_by by, int memory, size_t *n)
{
    *n = memory ? 6 : 5;
    return by == SS_REPORT_LINE ? line_columns : fn_columns;
}

void ss_format_interval(char *buf, size_t n, double us)
{
    if (us >= 1e6)
        snprintf(buf, n, "%g s", us / 1e6);
    else if (us >= 1e3)
        snprintf(buf, n, "%g ms", us / 1e3);
    else
        snprintf(buf, n, "%g us", us);
}

static void flags_text(char *buf, size_t n, uint32_t flags)
{
    buf[0] = '\0';
    if (flags & SS_SRC_MEMORY)
        strncat(buf, ", memory", n - strlen(buf) - 1);
    if (flags & SS_SRC_GC)
        strncat(buf, ", GC", n - strlen(buf) - 1);
    if (flags & SS_SRC_LINE)
        strncat(buf, ", line", n - strlen(buf) - 1);
    if (flags & SS_SRC_AGGREGATE)
        strncat(buf, ", aggregate", n - strlen(buf) - 1);
}

void ss_report_header(FILE *out, const struct ss_model *m)
{
    struct ss_totals t;
    ss_model_totals(m, &t);
    ss_id last_uri = SS_NONE;
    struct ss_esc e_uri = SS_ESC_INIT(SS_ESC_TEXT), e_type = SS_ESC_INIT(SS_ESC_TEXT);
    for (size_t i = 0; i < m->sources.n; i++) {
        const struct ss_source *s = &m->sources.v[i];
        if (s->uri != last_uri)
            fprintf(out, "file       %s (%s)\n", ss_esc(&e_uri, ss_str(m, s->uri)),
                    ss_esc(&e_type, ss_str(m, s->type)));
        last_uri = s->uri;
        char iv[32], fl[64];
        ss_format_interval(iv, sizeof iv, s->interval_us);
        flags_text(fl, sizeof fl, s->flags);
        fprintf(out, "session    %u: interval %s%s, %llu samples", s->session, iv, fl,
                (unsigned long long)ss_source_samples(m, (ss_id)i));
        if (s->flags & SS_SRC_AGGREGATE)
            fputs(" (counts per call element, no stacks)", out);
        if (s->header_line)
            fprintf(out, " (header on line %u)", s->header_line);
        fputc('\n', out);
    }
    ss_esc_free(&e_uri);
    ss_esc_free(&e_type);
    fprintf(out, "samples    %llu", (unsigned long long)t.samples);
    if (t.counted != t.samples)
        fprintf(out, " (%llu with frames)", (unsigned long long)t.counted);
    fprintf(out, "\ntime       %.3f s sampled\n\n", t.sampling_time);
}

static void print_table(FILE *out, const struct ss_stats *st, const struct ss_column *cols,
                        size_t ncols, const struct ss_report_opts *o)
{
    char buf[8192];
    if (o->format == SS_FORMAT_TSV) {
        for (size_t c = 0; c < ncols; c++)
            fprintf(out, "%s%c", cols[c].name, c + 1 < ncols ? '\t' : '\n');
        for (size_t i = 0; i < st->n; i++)
            for (size_t c = 0; c < ncols; c++) {
                cols[c].format(buf, sizeof buf, &st->rows[i], st, 1);
                fprintf(out, "%s%c", buf, c + 1 < ncols ? '\t' : '\n');
            }
        return;
    }
    /* text: numbers first, the label last (names are long) */
    for (size_t c = 0; c < ncols; c++)
        if (!cols[c].is_label)
            fprintf(out, "%*s", cols[c].width, cols[c].name);
    for (size_t c = 0; c < ncols; c++)
        if (cols[c].is_label)
            fprintf(out, "  %s", cols[c].name);
    fputc('\n', out);
    size_t n = o->limit > 0 && (size_t)o->limit < st->n ? (size_t)o->limit : st->n;
    for (size_t i = 0; i < n; i++) {
        for (size_t c = 0; c < ncols; c++)
            if (!cols[c].is_label) {
                cols[c].format(buf, sizeof buf, &st->rows[i], st, 0);
                fprintf(out, "%*s", cols[c].width, buf);
            }
        for (size_t c = 0; c < ncols; c++)
            if (cols[c].is_label) {
                cols[c].format(buf, sizeof buf, &st->rows[i], st, 0);
                fprintf(out, "  %s", buf);
            }
        fputc('\n', out);
    }
    if (n < st->n)
        fprintf(out, "... %zu more rows (--limit 0 shows all)\n", st->n - n);
}

/* A growable text buffer for stacks of any length. */
struct textbuf {
    char *s;
    size_t cap;
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
    struct ss_esc esc = SS_ESC_INIT(o->format == SS_FORMAT_TSV ? SS_ESC_TSV : SS_ESC_TEXT);
    size_t n = o->format == SS_FORMAT_TEXT && o->limit > 0 && (size_t)o->limit < st.n ? (size_t)o->limit : st.n;
    if (o->format == SS_FORMAT_TEXT) {
        ss_report_header(out, m);
        struct ss_totals t;
        ss_model_totals(m, &t);
        uint64_t agg = t.agg_samples;
        if (agg)
            fprintf(out, "note       the profiles without stacks (%llu samples) are left out\n\n",
                    (unsigned long long)agg);
        fprintf(out, "%9s %10s %7s %6s  %s\n", "count", "time", "pct", "depth", "stack (root first)");
    } else if (o->format == SS_FORMAT_TSV) {
        fputs("count\ttime\tpct\tdepth\tstack\n", out);
    }
    for (size_t i = 0; i < n; i++) {
        const struct ss_stack_row *r = &st.rows[i];
        double pct = st.total_time > 0 ? 100.0 * r->time / st.total_time : 0;
        const char *text = ss_esc(&esc, stack_text(m, &st, r, &tb));
        if (o->format == SS_FORMAT_TSV)
            fprintf(out, "%llu\t%.15g\t%.15g\t%u\t%s\n", (unsigned long long)r->count, r->time, pct,
                    r->depth, text);
        else
            fprintf(out, "%9llu %10.3f %7.2f %6u  %s\n", (unsigned long long)r->count, r->time, pct,
                    r->depth, text);
    }
    if (n < st.n)
        fprintf(out, "... %zu more rows (--limit 0 shows all)\n", st.n - n);
    free(tb.s);
    ss_esc_free(&esc);
    ss_stacks_free(&st);
    return 0;
}

static int report_sources(FILE *out, const struct ss_model *m, const struct ss_report_opts *o)
{
    enum ss_esc_mode mode = o->format == SS_FORMAT_TSV ? SS_ESC_TSV : SS_ESC_TEXT;
    struct ss_esc e_type = SS_ESC_INIT(mode), e_uri = SS_ESC_INIT(mode);
    if (o->format == SS_FORMAT_TSV)
        fputs("source\ttype\turi\tsession\theader_line\tinterval_us\tflags\tsamples\n", out);
    else
        fprintf(out, "%6s %-13s %7s %6s %10s %-16s %9s  %s\n", "source", "type", "session", "line",
                "interval", "flags", "samples", "file");
    for (size_t i = 0; i < m->sources.n; i++) {
        const struct ss_source *s = &m->sources.v[i];
        char fl[64], iv[32];
        flags_text(fl, sizeof fl, s->flags);
        /* ", memory, line" -> "memory+line" */
        char flags[64];
        size_t k = 0;
        for (const char *p = fl[0] ? fl + 2 : "-"; *p && k + 1 < sizeof flags; p++) {
            if (p[0] == ',' && p[1] == ' ')
                flags[k++] = '+', p++;
            else
                flags[k++] = *p;
        }
        flags[k] = '\0';
        if (o->format == SS_FORMAT_TSV) {
            fprintf(out, "%zu\t%s\t%s\t%u\t%u\t%.15g\t%s\t%llu\n", i + 1,
                    ss_esc(&e_type, ss_str(m, s->type)), ss_esc(&e_uri, ss_str(m, s->uri)),
                    s->session, s->header_line, s->interval_us, flags,
                    (unsigned long long)ss_source_samples(m, (ss_id)i));
        } else {
            ss_format_interval(iv, sizeof iv, s->interval_us);
            fprintf(out, "%6zu %-13s %7u %6u %10s %-16s %9llu  %s\n", i + 1,
                    ss_esc(&e_type, ss_str(m, s->type)), s->session, s->header_line, iv, flags,
                    (unsigned long long)ss_source_samples(m, (ss_id)i),
                    ss_esc(&e_uri, ss_str(m, s->uri)));
        }
    }
    ss_esc_free(&e_type);
    ss_esc_free(&e_uri);
    return 0;
}

int ss_report_check_stacks(const struct ss_model *m, enum ss_report_by by, char *note, size_t n,
                           struct ss_error *err)
{
    static const char *const names[] = {
        [SS_REPORT_STACKS] = "stacks", [SS_REPORT_LEVELS] = "levels", [SS_REPORT_RUNS] = "runs",
        [SS_REPORT_TREE] = "tree",     [SS_REPORT_TIMELINE] = "timeline",
    };
    if (n)
        note[0] = '\0';
    if ((size_t)by >= sizeof names / sizeof *names || !names[by] || !ss_model_has_aggregates(m))
        return 0;
    ss_id agg = SS_NONE;
    size_t nagg = 0;
    for (size_t i = 0; i < m->sources.n; i++)
        if (m->sources.v[i].flags & SS_SRC_AGGREGATE) {
            if (agg == SS_NONE)
                agg = (ss_id)i;
            nagg++;
        }
    const char *file = ss_str(m, m->sources.v[agg].uri);
    if (!ss_model_has_stack_sources(m))
        return ss_fail(err, SS_EUSAGE,
                       "--by %s needs raw stacks: %s (%s) holds only counts per call element "
                       "and call-graph edges (use --by self, total, line, calls or sources)",
                       names[by], file, ss_str(m, m->sources.v[agg].type));
    if (n)
        snprintf(note, n, "--by %s uses the profiles with stacks; %s%s (%s, no stacks) %s left out",
                 names[by], file, nagg > 1 ? " and other aggregate profiles" : "",
                 ss_str(m, m->sources.v[agg].type), nagg > 1 ? "are" : "is");
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
    struct ss_stats st;
    rc = ss_stats_compute(m, o->by == SS_REPORT_LINE ? SS_BY_LINE : SS_BY_FUNCTION, o->memory,
                              &st, err);
    if (rc)
        return rc;
    if (o->by == SS_REPORT_SELF)
        ss_stats_sort_self(&st);
    else if (o->by == SS_REPORT_TOTAL)
        ss_stats_sort_total(&st);
    else
        ss_stats_sort_line(&st);
    size_t ncols;
    const struct ss_column *cols = ss_stat_columns(o->by, o->memory, &ncols);
    if (o->format == SS_FORMAT_TEXT)
        ss_report_header(out, m);
    print_table(out, &st, cols, ncols, o);
    ss_stats_free(&st);
    return 0;
}
