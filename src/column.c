/* column.c - the one table printer (see column.h). */
#include "column.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "textesc.h"
#include "units.h"
#include "vec.h"
#include "verdict.h"

void ss_cellbuf_free(struct ss_cellbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->cap = 0;
}

/* A comparison's cell: the base, new or delta of the column's pair. */
static void pair_cell(const struct ss_col *c, char *buf, size_t n, const void *ctx, size_t r,
                      int tsv)
{
    double b, v;
    c->pair->get(ctx, r, 0, &b, &v);
    double x = c->part == SS_PART_BASE ? b : c->part == SS_PART_NEW ? v : v - b;
    if (!c->pair->units) {
        /* a plain number: full precision in TSV, signed delta in text */
        if (tsv)
            snprintf(buf, n, "%.15g", x);
        else
            snprintf(buf, n, c->part == SS_PART_DELTA && x > 0 ? "+%.*f" : "%.*f",
                     c->pair->decimals, x);
        return;
    }
    const struct ss_units *u = c->pair->units(ctx);
    if (c->part == SS_PART_DELTA)
        ss_cell_signed(buf, n, u, x, tsv);
    else
        ss_format_value(buf, n, u, x, tsv);
}

static void fill(const struct ss_col *c, char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    if (c->cell)
        c->cell(buf, n, ctx, r, tsv);
    else if (c->pair)
        pair_cell(c, buf, n, ctx, r, tsv);
    else
        buf[0] = '\0';
}

/* Cells may be long (a deep stack, a long name): the buffer grows. */
const char *ss_col_text(const struct ss_col *c, const void *ctx, size_t r, int tsv,
                        struct ss_cellbuf *b)
{
    if (!b->s) {
        b->cap = 4096;
        b->s = malloc(b->cap);
        if (!b->s)
            return "?";
    }
    fill(c, b->s, b->cap, ctx, r, tsv);
    size_t len = strlen(b->s);
    while (len + 1 >= b->cap && b->cap < ((size_t)1 << 30)) {
        /* it may have been cut: grow and format again */
        char *ns = realloc(b->s, b->cap * 4);
        if (!ns)
            break;
        b->s = ns;
        b->cap *= 4;
        fill(c, b->s, b->cap, ctx, r, tsv);
        len = strlen(b->s);
    }
    return b->s;
}

int ss_cmp_desc(double a, double b)
{
    return a > b ? -1 : a < b ? 1 : 0;
}

static double part_value(const struct ss_col *c, const void *ctx, size_t r)
{
    double b, v;
    c->pair->get(ctx, r, 1, &b, &v);
    return c->part == SS_PART_BASE ? b : c->part == SS_PART_NEW ? v : v - b;
}

int ss_col_compare(const struct ss_col *c, const void *ctx, size_t a, size_t b)
{
    if (c->cmp)
        return c->cmp(ctx, a, b);
    if (!c->pair)
        return 0;
    int k = ss_cmp_desc(part_value(c, ctx, a), part_value(c, ctx, b));
    return k || !c->pair->tie ? k : c->pair->tie(ctx, a, b);
}

static int shown(const struct ss_col *c, int tsv)
{
    return !(c->flags & (tsv ? SS_COL_TEXT : SS_COL_TSV));
}

/* A column's TSV name or text title with '@' replaced by the table's
 * measure ("self.@" -> "self.time"). */
static const char *col_name(const struct ss_table *t, const char *name, char *buf, size_t n)
{
    const char *at = strchr(name, '@');
    if (!at)
        return name;
    snprintf(buf, n, "%.*s%s%s", (int)(at - name), name, t->measure ? t->measure : "value", at + 1);
    return buf;
}

static const char *title_of(const struct ss_table *t, const struct ss_col *col, char *buf, size_t n)
{
    return col_name(t, col->title ? col->title : col->name, buf, n);
}

void ss_table_print(FILE *out, const struct ss_table *t, int tsv, size_t limit, const char *what)
{
    struct ss_cellbuf b = {NULL, 0};
    char nb[512];
    size_t n = limit > 0 && limit < t->nrows ? limit : t->nrows;
    if (tsv) {
        int first = 1;
        for (size_t c = 0; c < t->ncols; c++)
            if (shown(&t->cols[c], 1)) {
                fprintf(out, "%s%s", first ? "" : "\t",
                        col_name(t, t->cols[c].name, nb, sizeof nb));
                first = 0;
            }
        fputc('\n', out);
        /* a failed stream (one capped at the size limit too) ends the rows */
        for (size_t i = 0; i < n && !ferror(out); i++) {
            size_t r = t->order ? t->order[i] : i;
            first = 1;
            for (size_t c = 0; c < t->ncols; c++)
                if (shown(&t->cols[c], 1)) {
                    fprintf(out, "%s%s", first ? "" : "\t",
                            ss_col_text(&t->cols[c], t->ctx, r, 1, &b));
                    first = 0;
                }
            fputc('\n', out);
        }
        free(b.s);
        return;
    }
    /* text: the numbers first, the label last; a column is as wide as its
     * widest cell, and one space always separates it from the one before
     * (numbers are never cut and never run together) */
    int *width = ss_alloc_array(t->ncols, sizeof *width);
    int first = 1;
    for (size_t c = 0; c < t->ncols; c++) {
        const struct ss_col *col = &t->cols[c];
        if (!width)
            break;
        width[c] = col->width;
        if (!shown(col, 0) || (col->flags & SS_COL_LABEL))
            continue;
        size_t need = strlen(title_of(t, col, nb, sizeof nb));
        for (size_t i = 0; i < n; i++) {
            size_t len = strlen(ss_col_text(col, t->ctx, t->order ? t->order[i] : i, 0, &b));
            if (len > need)
                need = len;
        }
        need += !first && col->gap == 0;
        if (need > (size_t)width[c])
            width[c] = need > 4096 ? 4096 : (int)need;
        first = 0;
    }
    first = 1;
    for (size_t c = 0; c < t->ncols; c++) {
        const struct ss_col *col = &t->cols[c];
        if (!shown(col, 0) || (col->flags & SS_COL_LABEL))
            continue;
        int w = width ? width[c] : col->width;
        fprintf(out, "%*s%*s", first ? 0 : col->gap, "", col->flags & SS_COL_LEFT ? -w : w,
                title_of(t, col, nb, sizeof nb));
        first = 0;
    }
    for (size_t c = 0; c < t->ncols; c++) {
        const struct ss_col *col = &t->cols[c];
        const char *title = title_of(t, col, nb, sizeof nb);
        if (shown(col, 0) && (col->flags & SS_COL_LABEL) && *title) /* "": no title */
            fprintf(out, "  %s", title);
    }
    fputc('\n', out);
    for (size_t i = 0; i < n && !ferror(out); i++) {
        size_t r = t->order ? t->order[i] : i;
        first = 1;
        for (size_t c = 0; c < t->ncols; c++) {
            const struct ss_col *col = &t->cols[c];
            if (!shown(col, 0) || (col->flags & SS_COL_LABEL))
                continue;
            int w = width ? width[c] : col->width;
            fprintf(out, "%*s%*s", first ? 0 : col->gap, "", col->flags & SS_COL_LEFT ? -w : w,
                    ss_col_text(col, t->ctx, r, 0, &b));
            first = 0;
        }
        for (size_t c = 0; c < t->ncols; c++)
            if (shown(&t->cols[c], 0) && (t->cols[c].flags & SS_COL_LABEL))
                fprintf(out, "  %s", ss_col_text(&t->cols[c], t->ctx, r, 0, &b));
        fputc('\n', out);
    }
    if (n < t->nrows)
        fprintf(out, "... %zu more %s (--limit 0 shows all)\n", t->nrows - n, what);
    free(width);
    free(b.s);
}

void ss_cell_num(char *buf, size_t n, double v, int tsv, int decimals)
{
    if (tsv)
        snprintf(buf, n, "%.15g", v);
    else
        snprintf(buf, n, "%.*f", decimals, v);
}

void ss_cell_u64(char *buf, size_t n, unsigned long long v)
{
    snprintf(buf, n, "%llu", v);
}

void ss_cell_str(char *buf, size_t n, const char *s, int tsv)
{
    ss_esc_copy(buf, n, s, strlen(s), tsv ? SS_ESC_TSV : SS_ESC_TEXT);
}

void ss_cell_signed(char *buf, size_t n, const struct ss_units *u, double v, int tsv)
{
    if (tsv || !(v > 0) || n < 2) {
        ss_format_value(buf, n, u, v, tsv);
        return;
    }
    buf[0] = '+';
    ss_format_value(buf + 1, n - 1, u, v, 0);
}

void ss_cell_verdict(char *buf, size_t n, const struct ss_verdict *v, enum ss_vpart part,
                     const struct ss_units *u, int tsv)
{
    if (part == SS_VPART_WORD || part == SS_VPART_MARK) {
        snprintf(buf, n, "%s",
                 v->pending              ? (part == SS_VPART_WORD ? "testing" : "?")
                 : part == SS_VPART_WORD ? ss_verdict_word(v->sign)
                 : v->sign > 0           ? "+"
                 : v->sign < 0           ? "-"
                                         : "~");
        return;
    }
    double x = part == SS_VPART_LO   ? v->lo
               : part == SS_VPART_HI ? v->hi
               : part == SS_VPART_Q  ? v->q
               : part == SS_VPART_P  ? v->p
                                     : v->mdc;
    if (isnan(x))
        snprintf(buf, n, "%s", tsv ? "NA" : "-");
    else if (part == SS_VPART_Q || part == SS_VPART_P)
        snprintf(buf, n, tsv ? "%.15g" : "%.2g", x);
    else if (part == SS_VPART_MDC)
        ss_format_value(buf, n, u, x, tsv);
    else
        ss_cell_signed(buf, n, u, x, tsv);
}

int ss_verdict_order(const struct ss_verdict *a, const struct ss_verdict *b)
{
    int sa = a->sign != 0, sb = b->sign != 0;
    if (sa != sb)
        return sb - sa;
    int na = isnan(a->q), nb = isnan(b->q);
    if (na != nb)
        return na - nb;
    if (!na && a->q < b->q)
        return -1;
    if (!na && a->q > b->q)
        return 1;
    double ma = fabs(a->lo + a->hi), mb = fabs(b->lo + b->hi);
    return ss_cmp_desc(isnan(ma) ? -1 : ma, isnan(mb) ? -1 : mb);
}
