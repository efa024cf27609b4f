/* report_common.c - what every report table shares (see report_common.h). */
#include "report_common.h"

#include <stdlib.h>
#include <string.h>

#include "column.h"
#include "sort.h"
#include "textesc.h"
#include "units.h"
#include "vec.h"

void ss_format_interval(char *buf, size_t n, double us)
{
    if (us >= 1e6)
        snprintf(buf, n, "%g s", us / 1e6);
    else if (us >= 1e3)
        snprintf(buf, n, "%g ms", us / 1e3);
    else
        snprintf(buf, n, "%g us", us);
}

void ss_report_flags_text(char *buf, size_t n, uint32_t flags)
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
    if (flags & SS_SRC_UNTIMED)
        strncat(buf, ", untimed", n - strlen(buf) - 1);
}

void ss_report_header(FILE *out, const struct ss_model *m)
{
    struct ss_totals t;
    ss_model_totals(m, &t);
    ss_report_header_totals(out, m, &t);
}

void ss_report_header_totals(FILE *out, const struct ss_model *m, const struct ss_totals *t)
{
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
        ss_report_flags_text(fl, sizeof fl, s->flags & ~(uint32_t)SS_SRC_UNTIMED);
        uint64_t ns = ss_source_samples(m, (ss_id)i);
        if (s->flags & SS_SRC_UNTIMED)
            fprintf(out, "session    %u: untimed%s, %llu sample%s", s->session, fl,
                    (unsigned long long)ns, ss_s(ns));
        else
            fprintf(out, "session    %u: interval %s%s, %llu sample%s", s->session, iv, fl,
                    (unsigned long long)ns, ss_s(ns));
        if (s->flags & SS_SRC_AGGREGATE)
            fputs(" (counts per call element, no stacks)", out);
        if (s->header_line)
            fprintf(out, " (header on line %u)", s->header_line);
        fputc('\n', out);
    }
    ss_esc_free(&e_uri);
    ss_esc_free(&e_type);
    fprintf(out, "samples    %llu", (unsigned long long)t->samples);
    if (t->counted != t->samples)
        fprintf(out, " (%llu with frames)", (unsigned long long)t->counted);
    if (m->weights.measure.kind == SS_MEASURE_TIME) {
        fprintf(out, "\ntime       %.3f s sampled\n\n", t->sampling_time);
        return;
    }
    if (m->weights.measure.kind == SS_MEASURE_SAMPLES) {
        fputs("\n\n", out); /* the samples line above is the measure's total */
        return;
    }
    struct ss_units u;
    ss_units_of(m, &u);
    char v[64];
    ss_format_value(v, sizeof v, &u, t->value, 0);
    fprintf(out, "\n%-10s %s\n\n", ss_measure_name(m, &u.measure), v);
}

const struct ss_report_table *ss_report_table_named(const char *name)
{
    for (size_t i = 0; i < ss_report_ntables; i++)
        if (!strcmp(ss_report_tables[i].name, name))
            return &ss_report_tables[i];
    return NULL;
}

const struct ss_report_table *ss_report_table_of(enum ss_report_by by)
{
    for (size_t i = 0; i < ss_report_ntables; i++)
        if (ss_report_tables[i].by == by)
            return &ss_report_tables[i];
    return NULL;
}

const char *ss_report_tables_with(unsigned flags, char *buf, size_t n)
{
    size_t k = 0, total = 0, seen = 0;
    for (size_t i = 0; i < ss_report_ntables; i++)
        total += (ss_report_tables[i].flags & flags) == flags;
    buf[0] = '\0';
    for (size_t i = 0; i < ss_report_ntables && k < n; i++) {
        if ((ss_report_tables[i].flags & flags) != flags)
            continue;
        seen++;
        const char *sep = seen == 1 ? "" : seen == total ? " or " : ", ";
        k += (size_t)snprintf(buf + k, n - k, "%s%s", sep, ss_report_tables[i].name);
    }
    return buf;
}

int ss_report_check_stacks(const struct ss_model *m, enum ss_report_by by, char *note, size_t n,
                           struct ss_error *err)
{
    const struct ss_report_table *tb = ss_report_table_of(by);
    if (n)
        note[0] = '\0';
    if (!tb || !(tb->flags & SS_RT_STACKS) || !ss_model_has_aggregates(m))
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
                       tb->name, file, ss_str(m, m->sources.v[agg].type));
    if (n)
        snprintf(note, n, "--by %s uses the profiles with stacks; %s%s (%s, no stacks) %s left out",
                 tb->name, file, nagg > 1 ? " and other aggregate profiles" : "",
                 ss_str(m, m->sources.v[agg].type), nagg > 1 ? "are" : "is");
    return 0;
}

int ss_report_check_order(const struct ss_model *m, enum ss_report_by by, struct ss_error *err)
{
    const struct ss_report_table *tb = ss_report_table_of(by);
    if (!tb || !(tb->flags & SS_RT_ORDER) || ss_model_has_time_order(m))
        return 0;
    for (size_t i = 0; i < m->sources.n; i++)
        if ((m->sources.v[i].flags & SS_SRC_UNORDERED) && m->sources.v[i].n_samples)
            /* folded stacks, pprof: one row per distinct stack, no sample order */
            return ss_fail(err, SS_EUSAGE,
                           "--by %s needs samples in time order; %s (%s) has none (%s)", tb->name,
                           ss_str(m, m->sources.v[i].uri), ss_str(m, m->sources.v[i].type),
                           strcmp(ss_str(m, m->sources.v[i].type), "pprof")
                               ? "folded stacks hold one line per distinct stack"
                               : "a pprof profile holds one sample per distinct stack");
    return 0;
}

size_t ss_tree_indent(char *buf, size_t n, uint32_t depth)
{
    if (!n)
        return 0;
    size_t ind = 2 * (size_t)(depth < SS_TREE_INDENT_MAX ? depth : SS_TREE_INDENT_MAX);
    if (ind >= n)
        ind = n - 1;
    memset(buf, ' ', ind);
    buf[ind] = '\0';
    if (depth > SS_TREE_INDENT_MAX) {
        int k = snprintf(buf + ind, n - ind, "[%u] ", depth);
        ind += k > 0 && (size_t)k < n - ind ? (size_t)k : 0;
    }
    return ind;
}

struct row_key {
    const struct ss_col *key;
    const void *ctx;
};

static int cmp_row_key(const void *a, const void *b, void *ctx)
{
    const struct row_key *k = ctx;
    return ss_col_compare(k->key, k->ctx, *(const size_t *)a, *(const size_t *)b);
}

int ss_sort_rows(size_t *rows, size_t n, const struct ss_col *key, const void *ctx)
{
    struct row_key k = {key, ctx};
    return n > 1 ? ss_sort(rows, n, sizeof *rows, cmp_row_key, &k) : 0;
}

/* end[r]: one past the last row of r's subtree, from the depths (one pass
 * with a stack of the open nodes). */
static void subtree_ends(size_t n, uint32_t (*depth)(const void *, size_t), const void *ctx,
                         size_t *end, size_t *open)
{
    size_t sp = 0;
    for (size_t r = 0; r <= n; r++) {
        while (sp > 0 && (r == n || depth(ctx, r) <= depth(ctx, open[sp - 1])))
            end[open[--sp]] = r;
        if (r < n)
            open[sp++] = r;
    }
}

/* Push the sorted rows first, end[first], ... below stop onto stack[*sp]
 * (reversed: the first is popped first). */
static int push_children(size_t first, size_t stop, const size_t *end, size_t *kids, size_t *stack,
                         size_t *sp, const struct row_key *k)
{
    size_t nk = 0;
    for (size_t r = first; r < stop; r = end[r])
        kids[nk++] = r;
    if (ss_sort_rows(kids, nk, k->key, k->ctx))
        return -1;
    while (nk > 0)
        stack[(*sp)++] = kids[--nk];
    return 0;
}

size_t *ss_tree_sorted(size_t n, uint32_t (*depth)(const void *ctx, size_t r),
                       const struct ss_col *key, const void *ctx)
{
    size_t *out = ss_alloc_array(n ? n : 1, sizeof *out);
    size_t *end = ss_alloc_array(n ? n : 1, sizeof *end);
    size_t *stack = ss_alloc_array(n ? n : 1, sizeof *stack);
    size_t *kids = ss_alloc_array(n ? n : 1, sizeof *kids);
    struct row_key k = {key, ctx};
    size_t sp = 0, m = 0;
    int rc = !out || !end || !stack || !kids;
    if (!rc) {
        subtree_ends(n, depth, ctx, end, stack);
        rc = push_children(0, n, end, kids, stack, &sp, &k);
    }
    while (!rc && sp > 0) {
        size_t r = stack[--sp];
        out[m++] = r;
        rc = push_children(r + 1, end[r], end, kids, stack, &sp, &k);
    }
    free(end);
    free(stack);
    free(kids);
    if (rc) {
        free(out);
        return NULL;
    }
    return out;
}

/* ---- --limit on a tree ----------------------------------------------------- */

struct limit_rank {
    double w;   /* the weight, no more than the parent's */
    uint32_t d; /* the depth */
    size_t i;   /* the position in rows */
};

static int cmp_limit_rank(const void *a, const void *b, void *ctx)
{
    const struct limit_rank *x = a, *y = b;
    (void)ctx;
    if (x->w > y->w || x->w < y->w)
        return x->w > y->w ? -1 : 1;
    if (x->d != y->d)
        return x->d < y->d ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

size_t ss_tree_limit(size_t *rows, size_t n, size_t limit,
                     uint32_t (*depth)(const void *ctx, size_t r),
                     double (*weight)(const void *ctx, size_t r), const void *ctx)
{
    if (limit == 0 || n <= limit)
        return n;
    struct limit_rank *rk = ss_alloc_array(n, sizeof *rk);
    size_t *open = ss_alloc_array(n, sizeof *open), sp = 0;
    unsigned char *keep = calloc(n, 1);
    size_t k = SIZE_MAX;
    if (!rk || !open || !keep)
        goto done;
    for (size_t i = 0; i < n; i++) {
        uint32_t d = depth(ctx, rows[i]);
        while (sp > 0 && rk[open[sp - 1]].d >= d)
            sp--;
        double w = weight(ctx, rows[i]);
        if (sp > 0 && rk[open[sp - 1]].w < w)
            w = rk[open[sp - 1]].w;
        rk[i] = (struct limit_rank){w, d, i};
        open[sp++] = i;
    }
    if (ss_sort(rk, n, sizeof *rk, cmp_limit_rank, NULL))
        goto done;
    for (size_t j = 0; j < limit; j++)
        keep[rk[j].i] = 1;
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (keep[i])
            rows[k++] = rows[i];
done:
    free(rk);
    free(open);
    free(keep);
    return k;
}

void ss_report_more(FILE *out, const struct ss_report_opts *o, size_t more, const char *what)
{
    if (o->format == SS_FORMAT_TEXT && more > 0)
        fprintf(out, "... %zu more %s (--limit 0 shows all)\n", more, what);
}

void ss_report_more_calls(FILE *out, const struct ss_report_opts *o, size_t callers, size_t callees)
{
    if (o->format != SS_FORMAT_TEXT || (callers == 0 && callees == 0))
        return;
    fprintf(out, "... %zu more caller%s and %zu more callee%s (--limit 0 shows all)\n", callers,
            ss_s(callers), callees, ss_s(callees));
}

size_t ss_report_limit(const struct ss_report_opts *o)
{
    return o->limit > 0 ? (size_t)o->limit : 0;
}
