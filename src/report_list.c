/* report_list.c - `report --by list` (see report_list.h). */
#include "report_list.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "column.h"
#include "sort.h"
#include "source.h"
#include "stats.h"
#include "strbuf.h"
#include "textesc.h"
#include "units.h"
#include "vec.h"

#define MARGIN 5 /* lines shown around a line with samples (pprof's list) */

/* A source file the profile names. */
struct lfile {
    ss_id path;       /* string id in the model */
    const char *base; /* its basename (the statistics' key; into the model) */
    size_t blen;
    struct ss_source_file src;
    int found;
    char *missing;    /* not found: why, and where it was looked for (owned) */
    uint32_t *ranges; /* --function: [lo, hi] pairs of the matching functions' lines */
    size_t nranges;
};

/* A row printed: a line of a file (hit: its row in the statistics, or
 * SIZE_MAX for a line around one), or a gap ("...") when line is 0. */
struct lrow {
    size_t file;
    uint32_t line;
    size_t hit;
};

/* The lines with samples: the statistics of one profile (st) or of a
 * comparison (cs), whichever is set. */
struct list_ctx {
    const struct ss_model *m;
    const struct ss_stats *st;
    const struct ss_cmp_stats *cs;
    struct lfile *files;
    size_t nfiles;
    struct lrow *rows; /* the rows of the table being printed */
    size_t nrows;
    struct ss_units units, bytes;
    int sorted; /* text: the line column says file#line */
};

/* ---- the lines with samples ----------------------------------------------- */

static size_t nhits(const struct list_ctx *x)
{
    return x->st ? x->st->n : x->cs->n;
}

/* Row r's basename key (NULL for a row without a file) and line. */
static const char *hit_base(const struct list_ctx *x, size_t r, uint32_t *line)
{
    ss_id f = x->st ? x->st->rows[r].file : x->cs->rows[r].file;
    ss_id key = x->st ? x->st->rows[r].key : x->cs->rows[r].key;
    *line = x->st ? x->st->rows[r].line : x->cs->rows[r].line;
    if (f == SS_NONE || f == key || *line == 0) /* "<no location>" is its own file */
        return NULL;
    return ss_strtab_get(x->st ? &x->st->keys : &x->cs->keys, f);
}

/* Self and total of hit r in exact units: one profile's, or a
 * comparison's deltas (its order: the largest growth first). */
static void hit_weight(const struct list_ctx *x, size_t r, double *self, double *total)
{
    if (x->st) {
        *self = x->st->rows[r].self_x;
        *total = x->st->rows[r].total_x;
    } else {
        *self = x->cs->rows[r].self_nx - x->cs->rows[r].self_bx;
        *total = x->cs->rows[r].total_nx - x->cs->rows[r].total_bx;
    }
}

/* ---- cells ------------------------------------------------------------------- */

#define X(ctx) ((const struct list_ctx *)(ctx))
#define ROW(ctx, r) (&X(ctx)->rows[r])

static void cell_file(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    ss_cell_str(buf, n, ss_str(X(ctx)->m, X(ctx)->files[ROW(ctx, r)->file].path), tsv);
}

static void cell_line(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct lrow *w = ROW(ctx, r);
    if (!w->line) {
        buf[0] = '\0';
    } else if (X(ctx)->sorted && !tsv) {
        char lb[512];
        const struct lfile *f = &X(ctx)->files[w->file];
        ss_source_base_label(X(ctx)->m, f->base, lb, sizeof lb);
        snprintf(buf, n, "%s#%u", lb, w->line);
    } else {
        snprintf(buf, n, "%u", w->line);
    }
}

static void cell_source(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct lrow *w = ROW(ctx, r);
    const struct lfile *f = &X(ctx)->files[w->file];
    const char *text = !w->line ? "..." : f->found ? ss_source_line(&f->src, w->line) : NULL;
    ss_cell_str(buf, n, text ? text : "", tsv);
}

/* A value of one profile's row: "." in text for none (pprof), raw in TSV;
 * nothing on a gap row. */
static void value_cell(char *buf, size_t n, const struct ss_units *u, double v, int tsv, int gap)
{
    if (gap)
        buf[0] = '\0';
    else if (!tsv && !(v > 0 || v < 0))
        snprintf(buf, n, ".");
    else
        ss_format_value(buf, n, u, v, tsv);
}

/* The statistics row of printed row r, or NULL (a line around a hit). */
static const struct ss_stat_row *srow(const void *ctx, size_t r)
{
    size_t h = ROW(ctx, r)->hit;
    return h == SIZE_MAX ? NULL : &X(ctx)->st->rows[h];
}

static void cell_self(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_stat_row *s = srow(ctx, r);
    value_cell(buf, n, &X(ctx)->units, s ? s->self_v : 0, tsv, !ROW(ctx, r)->line);
}
static void cell_total(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_stat_row *s = srow(ctx, r);
    value_cell(buf, n, &X(ctx)->units, s ? s->total_v : 0, tsv, !ROW(ctx, r)->line);
}
static void cell_alloc(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_stat_row *s = srow(ctx, r);
    value_cell(buf, n, &X(ctx)->bytes, s ? s->alloc_bytes : 0, tsv, !ROW(ctx, r)->line);
}
static void cell_released(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct ss_stat_row *s = srow(ctx, r);
    value_cell(buf, n, &X(ctx)->bytes, s ? s->released_bytes : 0, tsv, !ROW(ctx, r)->line);
}

/* TSV: file and line first; text: the numbers, then the line (pprof) */
#define FILE_LINE_COLS                                                                             \
    {"file", NULL, 0, 0, SS_COL_TSV, cell_file, NULL, NULL, 0},                                    \
    {                                                                                              \
        "line", NULL, 0, 0, SS_COL_TSV, cell_line, NULL, NULL, 0                                   \
    }
#define TEXT_COLS                                                                                  \
    {"line", NULL, 5, 1, SS_COL_TEXT, cell_line, NULL, NULL, 0},                                   \
    {                                                                                              \
        "source", NULL, 0, 0, SS_COL_LABEL, cell_source, NULL, NULL, 0                             \
    }
static const struct ss_col list_columns[] = {
    FILE_LINE_COLS,
    {"self.@", NULL, 9, 1, 0, cell_self, NULL, NULL, 0},
    {"total.@", NULL, 9, 1, 0, cell_total, NULL, NULL, 0},
    TEXT_COLS,
};
static const struct ss_col list_mem_columns[] = {
    FILE_LINE_COLS,
    {"self.@", NULL, 9, 1, 0, cell_self, NULL, NULL, 0},
    {"total.@", NULL, 9, 1, 0, cell_total, NULL, NULL, 0},
    {"alloc", NULL, 8, 1, 0, cell_alloc, NULL, NULL, 0},
    {"released", NULL, 8, 1, 0, cell_released, NULL, NULL, 0},
    TEXT_COLS,
};

/* A comparison's row: base and new of self or total, SS_NONE-free. */
static const struct ss_units *cmp_units(const void *ctx)
{
    return &X(ctx)->cs->units;
}
static void cmp_get(const void *ctx, size_t r, int exact, double *b, double *v, int total)
{
    size_t h = ROW(ctx, r)->hit;
    *b = *v = 0;
    if (h == SIZE_MAX)
        return;
    const struct ss_cmp_row *c = &X(ctx)->cs->rows[h];
    if (total) {
        *b = exact ? c->total_bx : c->total_b;
        *v = exact ? c->total_nx : c->total_n;
    } else {
        *b = exact ? c->self_bx : c->self_b;
        *v = exact ? c->self_nx : c->self_n;
    }
}
static void cmp_self(const void *ctx, size_t r, int exact, double *b, double *v)
{
    cmp_get(ctx, r, exact, b, v, 0);
}
static void cmp_total(const void *ctx, size_t r, int exact, double *b, double *v)
{
    cmp_get(ctx, r, exact, b, v, 1);
}
static const struct ss_pair self_pair = {cmp_self, cmp_units, NULL, 0};
static const struct ss_pair total_pair = {cmp_total, cmp_units, NULL, 0};

static const struct ss_col list_cmp_columns[] = {
    FILE_LINE_COLS,
    SS_PAIR_COLS("self.base", 9, "self", 9, "self.delta", 10, 1, &self_pair),
    SS_PAIR_COLS("total.base", 9, "total", 9, "total.delta", 10, 1, &total_pair),
    TEXT_COLS,
};

/* ---- files ---------------------------------------------------------------------- */

static void files_free(struct list_ctx *x)
{
    for (size_t i = 0; i < x->nfiles; i++) {
        ss_source_file_free(&x->files[i].src);
        free(x->files[i].missing);
        free(x->files[i].ranges);
    }
    free(x->files);
    free(x->rows);
}

/* The files of m's locations, each once, by path. */
static int cmp_file(const void *a, const void *b, void *ctx)
{
    const struct ss_model *m = ((const struct list_ctx *)ctx)->m;
    return strcmp(ss_str(m, ((const struct lfile *)a)->path),
                  ss_str(m, ((const struct lfile *)b)->path));
}

static int collect_files(struct list_ctx *x)
{
    const struct ss_model *m = x->m;
    uint8_t *seen = ss_calloc_array(m->strs.n, 1);
    if (!seen)
        return -1;
    VEC(struct lfile) fs = {NULL, 0, 0};
    int oom = 0;
    for (size_t l = 0; !oom && l < m->locations.n; l++) {
        ss_id f = m->locations.v[l].file;
        if (f == SS_NONE || m->locations.v[l].line == 0 || seen[f])
            continue;
        seen[f] = 1;
        struct lfile lf;
        memset(&lf, 0, sizeof lf);
        lf.path = f;
        ss_basename(ss_str(m, f), &lf.base, &lf.blen);
        oom = VEC_PUSH(fs, lf);
    }
    free(seen);
    if (oom || (fs.n > 1 && ss_sort(fs.v, fs.n, sizeof *fs.v, cmp_file, x))) {
        free(fs.v);
        return -1;
    }
    x->files = fs.v;
    x->nfiles = fs.n;
    return 0;
}

/* The file of hit r (the first with its basename), or SIZE_MAX. */
static size_t hit_file(const struct list_ctx *x, size_t r, uint32_t *line)
{
    const char *base = hit_base(x, r, line);
    size_t bl = base ? strlen(base) : 0;
    for (size_t i = 0; base && i < x->nfiles; i++)
        if (x->files[i].blen == bl && !memcmp(x->files[i].base, base, bl))
            return i;
    return SIZE_MAX;
}

/* --function F: each file's ranges of the lines of the functions F
 * matches ([lo, hi] of each function).  Returns 0, or SS_EUSAGE / an
 * error code. */
static int function_ranges(struct list_ctx *x, const char *pat, struct ss_error *err)
{
    const struct ss_model *m = x->m;
    regex_t re;
    int rc = regcomp(&re, pat, REG_EXTENDED | REG_NOSUB);
    if (rc) {
        char why[256];
        regerror(rc, &re, why, sizeof why);
        return ss_fail(err, SS_EUSAGE, "--function: bad regular expression /%s/: %s", pat, why);
    }
    size_t nfn = m->functions.n, matched = 0;
    uint8_t *match = ss_calloc_array(nfn, 1);
    if (!match) {
        regfree(&re);
        return ss_nomem(err, "functions");
    }
    for (size_t f = 0; f < nfn; f++)
        matched += match[f] = regexec(&re, ss_function_name(m, (ss_id)f), 0, NULL, 0) == 0;
    regfree(&re);
    rc = matched ? 0 : ss_fail(err, SS_EUSAGE, "--function: no function matches /%s/", pat);
    for (size_t fi = 0; !rc && fi < x->nfiles; fi++) {
        struct lfile *lf = &x->files[fi];
        for (size_t f = 0; !rc && f < nfn; f++) {
            if (!match[f])
                continue;
            uint32_t lo, hi;
            if (ss_function_canonical(m, (ss_id)f) != (ss_id)f ||
                ss_source_function_range(m, (ss_id)f, lf->path, &lo, &hi))
                continue;
            uint32_t *nr = ss_realloc_array(lf->ranges, lf->nranges + 2, sizeof *nr);
            if (!nr) {
                rc = ss_nomem(err, "functions");
                break;
            }
            lf->ranges = nr;
            nr[lf->nranges++] = lo;
            nr[lf->nranges++] = hi;
        }
    }
    free(match);
    return rc;
}

/* Is line k of file f in one of its --function ranges? */
static int in_ranges(const struct lfile *f, uint32_t k)
{
    for (size_t i = 0; i < f->nranges; i += 2)
        if (k >= f->ranges[i] && k <= f->ranges[i + 1])
            return 1;
    return 0;
}

/* Read the files that have rows (once); a file found nowhere says why,
 * and in TSV o->warnings names it. */
static int read_files(struct list_ctx *x, const struct ss_report_opts *o, int tsv)
{
    struct ss_source_search none = {NULL, 0, NULL, 0, NULL, 0, x->m};
    const struct ss_source_search *s = o->sources ? o->sources : &none;
    for (size_t i = 0; i < x->nfiles; i++) {
        struct lfile *f = &x->files[i];
        int used = 0;
        for (size_t r = 0; r < x->nrows && !used; r++)
            used = x->rows[r].file == i;
        if (!used || f->found || f->missing)
            continue;
        struct ss_strbuf tried = SS_STRBUF_INIT, why = SS_STRBUF_INIT;
        int got = ss_source_read(s, ss_str(x->m, f->path), tsv ? 0 : SS_SOURCE_EXPAND_TABS, &f->src,
                                 &tried);
        f->found = got > 0;
        if (got == 0) {
            char lb[512];
            ss_strbuf_printf(&why, "%s", ss_source_label(x->m, f->path, lb, sizeof lb));
            ss_source_missing(&why, s, ss_str(x->m, f->path), ss_strbuf_str(&tried), "--");
            if (tsv && o->warnings)
                ss_strbuf_printf(o->warnings, "%s\n", ss_strbuf_str(&why));
            f->missing = ss_strbuf_take(&why);
            got = f->missing ? 1 : -1;
        }
        ss_strbuf_free(&tried);
        ss_strbuf_free(&why);
        if (got < 0)
            return -1;
    }
    return 0;
}

/* ---- rows ------------------------------------------------------------------------ */

/* Hits a and b (indexes into the statistics) heaviest first: self, then
 * total, then position. */
static int cmp_weight(const void *a, const void *b, void *ctx)
{
    const struct list_ctx *x = ctx;
    const struct lrow *p = a, *q = b;
    double sa, ta, sb, tb;
    hit_weight(x, p->hit, &sa, &ta);
    hit_weight(x, q->hit, &sb, &tb);
    int c = ss_cmp_desc(sa, sb);
    if (!c)
        c = ss_cmp_desc(ta, tb);
    if (!c)
        c = p->file != q->file ? (p->file < q->file ? -1 : 1)
                               : (p->line > q->line) - (p->line < q->line);
    return c;
}
static int cmp_total_first(const void *a, const void *b, void *ctx)
{
    const struct list_ctx *x = ctx;
    const struct lrow *p = a, *q = b;
    double sa, ta, sb, tb;
    hit_weight(x, p->hit, &sa, &ta);
    hit_weight(x, q->hit, &sb, &tb);
    int c = ss_cmp_desc(ta, tb);
    return c ? c : cmp_weight(a, b, ctx);
}
static int cmp_position(const void *a, const void *b, void *ctx)
{
    const struct lrow *p = a, *q = b;
    (void)ctx;
    if (p->file != q->file)
        return p->file < q->file ? -1 : 1;
    return (p->line > q->line) - (p->line < q->line);
}

/* The lines with samples worth a row: those of a file (of a --function
 * range), heaviest first in --sort's order, at most o->limit. */
static int select_hits(struct list_ctx *x, const struct ss_report_opts *o, struct lrow **out,
                       size_t *nout)
{
    size_t n = nhits(x), k = 0;
    struct lrow *h = ss_alloc_array(n, sizeof *h);
    if (!h)
        return -1;
    for (size_t r = 0; r < n; r++) {
        uint32_t line;
        size_t f = hit_file(x, r, &line);
        if (f == SIZE_MAX || (o->function && !in_ranges(&x->files[f], line)))
            continue;
        h[k].file = f;
        h[k].line = line;
        h[k++].hit = r;
    }
    if (ss_sort(h, k, sizeof *h, o->sort == SS_SORT_TOTAL ? cmp_total_first : cmp_weight, x)) {
        free(h);
        return -1;
    }
    if (o->limit > 0 && (size_t)o->limit < k)
        k = (size_t)o->limit;
    *out = h;
    *nout = k;
    return 0;
}

/* Mark lines lo..hi (clipped to 1..top) in the file's row bitmap. */
static void mark(uint8_t *on, uint32_t top, long lo, long hi)
{
    for (long k = lo < 1 ? 1 : lo; k <= hi && k <= (long)top; k++)
        on[k] = 1;
}

/* File order: for each file, its hits and the lines around them (or its
 * --function ranges), a gap row between stretches. */
static int position_rows(struct list_ctx *x, const struct ss_report_opts *o, const struct lrow *h,
                         size_t nh, int gaps)
{
    VEC(struct lrow) rows = {NULL, 0, 0};
    int oom = 0;
    for (size_t fi = 0; !oom && fi < x->nfiles; fi++) {
        struct lfile *f = &x->files[fi];
        uint32_t top = f->found ? (uint32_t)f->src.nlines : 0, any = 0;
        for (size_t i = 0; i < nh; i++)
            if (h[i].file == fi) {
                any = 1;
                top = h[i].line > top ? h[i].line : top;
            }
        int ranges = o->function && o->limit <= 0 && f->nranges;
        if (!any && !ranges)
            continue;
        uint8_t *on = ss_calloc_array((size_t)top + 2, 1);
        size_t *hit = ss_alloc_array((size_t)top + 2, sizeof *hit);
        if (!on || !hit) {
            free(on);
            free(hit);
            oom = 1;
            break;
        }
        for (size_t k = 0; k <= top; k++)
            hit[k] = SIZE_MAX;
        long margin = f->found ? MARGIN : 0;
        for (size_t i = 0; i < nh; i++)
            if (h[i].file == fi) {
                hit[h[i].line] = h[i].hit;
                mark(on, top, (long)h[i].line - margin, (long)h[i].line + margin);
            }
        for (size_t i = 0; ranges && f->found && i < f->nranges; i += 2)
            mark(on, top, (long)f->ranges[i] - MARGIN, (long)f->ranges[i + 1] + MARGIN);
        /* every line with samples in a range shows its numbers */
        for (size_t r = 0; ranges && r < nhits(x); r++) {
            uint32_t line;
            if (hit_file(x, r, &line) == fi && in_ranges(f, line))
                hit[line] = r, on[line] = 1;
        }
        int started = 0, gap = 0;
        for (uint32_t k = 1; !oom && k <= top; k++) {
            if (!on[k]) {
                gap = started;
                continue;
            }
            struct lrow g = {fi, 0, SIZE_MAX}, w = {fi, k, hit[k]};
            oom = (gaps && gap && VEC_PUSH(rows, g)) || VEC_PUSH(rows, w);
            started = 1;
            gap = 0;
        }
        free(on);
        free(hit);
    }
    if (oom) {
        free(rows.v);
        return -1;
    }
    x->rows = rows.v;
    x->nrows = rows.n;
    return 0;
}

/* Build x->rows for o: file order with lines around, or the hits alone in
 * --sort's order. */
static int build_rows(struct list_ctx *x, const struct ss_report_opts *o, int tsv)
{
    struct lrow *h;
    size_t nh;
    if (select_hits(x, o, &h, &nh))
        return -1;
    if (o->sort == SS_SORT_SELF || o->sort == SS_SORT_TOTAL) {
        x->rows = h;
        x->nrows = nh;
        x->sorted = 1;
        return 0;
    }
    if (ss_sort(h, nh, sizeof *h, cmp_position, NULL)) {
        free(h);
        return -1;
    }
    /* the files' lengths bound the lines around the hits */
    x->rows = h;
    x->nrows = nh;
    int rc = read_files(x, o, tsv);
    x->rows = NULL;
    x->nrows = 0;
    if (!rc)
        rc = position_rows(x, o, h, nh, !tsv);
    free(h);
    return rc;
}

/* ---- printing --------------------------------------------------------------- */

/* Text: a title per file, then its rows as a table. */
static void print_text(FILE *out, struct list_ctx *x, const struct ss_table *t0)
{
    struct lrow *all = x->rows;
    size_t n = x->nrows;
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && (x->sorted || all[b].file == all[a].file))
            b++;
        if (!x->sorted) {
            const struct lfile *f = &x->files[all[a].file];
            char lb[1024];
            struct ss_esc e = SS_ESC_INIT(SS_ESC_TEXT);
            if (a)
                fputc('\n', out);
            if (f->found)
                fprintf(out, "%s (%s)\n", ss_esc(&e, ss_source_label(x->m, f->path, lb, sizeof lb)),
                        f->src.where);
            else
                fprintf(out, "%s\n", ss_esc(&e, f->missing ? f->missing : ""));
            ss_esc_free(&e);
        }
        struct ss_table t = *t0;
        x->rows = all + a;
        t.nrows = b - a;
        ss_table_print(out, &t, 0, 0, "lines");
        a = b;
    }
    x->rows = all;
}

static int print_list(FILE *out, struct list_ctx *x, const struct ss_report_opts *o,
                      const struct ss_col *cols, size_t ncols, const char *measure,
                      struct ss_error *err)
{
    int tsv = o->format == SS_FORMAT_TSV;
    if (build_rows(x, o, tsv) || (x->sorted && read_files(x, o, tsv))) {
        files_free(x);
        return ss_nomem(err, "source lines");
    }
    struct ss_table t = {cols, ncols, x, x->nrows, NULL, measure};
    if (tsv)
        ss_table_print(out, &t, 1, 0, "lines");
    else
        print_text(out, x, &t);
    files_free(x);
    return 0;
}

static int prepare(struct list_ctx *x, const struct ss_report_opts *o, struct ss_error *err)
{
    if (collect_files(x))
        return ss_nomem(err, "source files");
    int rc = o->function ? function_ranges(x, o->function, err) : 0;
    if (rc)
        files_free(x);
    return rc;
}

int ss_report_list(FILE *out, const struct ss_model *m, const struct ss_report_opts *o,
                   struct ss_error *err)
{
    struct ss_stats st;
    int rc = ss_stats_compute(m, SS_BY_LINE, o->memory, &st, err);
    if (rc)
        return rc;
    struct list_ctx x;
    memset(&x, 0, sizeof x);
    x.m = m;
    x.st = &st;
    x.units = st.units;
    x.bytes.measure.kind = SS_MEASURE_MEMORY;
    x.bytes.measure.vt = SS_NONE;
    x.bytes.measure.unit_kind = SS_UNIT_BYTES;
    x.bytes.measure.unit_scale = 1;
    rc = prepare(&x, o, err);
    if (!rc) {
        if (o->format == SS_FORMAT_TEXT)
            ss_report_header_totals(out, m, &st.totals);
        rc = o->memory ? print_list(out, &x, o, list_mem_columns, ARRAY_SIZE(list_mem_columns),
                                    ss_model_measure_name(m), err)
                       : print_list(out, &x, o, list_columns, ARRAY_SIZE(list_columns),
                                    ss_model_measure_name(m), err);
    }
    ss_stats_free(&st);
    return rc;
}

int ss_report_list_compare(FILE *out, const struct ss_compare *c, const struct ss_report_opts *o,
                           struct ss_error *err)
{
    struct ss_cmp_stats cs;
    int rc = ss_compare_stats(c, SS_BY_LINE, &cs, err);
    if (rc)
        return rc;
    struct list_ctx x;
    memset(&x, 0, sizeof x);
    x.m = c->cur;
    x.cs = &cs;
    x.units = cs.units;
    rc = prepare(&x, o, err);
    if (!rc)
        rc = print_list(out, &x, o, list_cmp_columns, ARRAY_SIZE(list_cmp_columns),
                        ss_model_measure_name(c->cur), err);
    ss_cmp_stats_free(&cs);
    return rc;
}
