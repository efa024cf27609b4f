/* column.c - the one table printer (see column.h). */
#include "column.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "textesc.h"

/* Cells may be long (a deep stack, a long name): one buffer that grows. */
struct cellbuf {
    char *s;
    size_t cap;
};

static const char *cell(struct cellbuf *b, const struct ss_col *c, const void *ctx, size_t r,
                        int tsv)
{
    if (!b->s) {
        b->cap = 4096;
        b->s = malloc(b->cap);
        if (!b->s)
            return "?";
    }
    c->cell(b->s, b->cap, ctx, r, tsv);
    size_t len = strlen(b->s);
    while (len + 1 >= b->cap && b->cap < ((size_t)1 << 30)) {
        /* it may have been cut: grow and format again */
        char *ns = realloc(b->s, b->cap * 4);
        if (!ns)
            break;
        b->s = ns;
        b->cap *= 4;
        c->cell(b->s, b->cap, ctx, r, tsv);
        len = strlen(b->s);
    }
    return b->s;
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
    struct cellbuf b = {NULL, 0};
    char nb[512];
    if (tsv) {
        int first = 1;
        for (size_t c = 0; c < t->ncols; c++)
            if (shown(&t->cols[c], 1)) {
                fprintf(out, "%s%s", first ? "" : "\t",
                        col_name(t, t->cols[c].name, nb, sizeof nb));
                first = 0;
            }
        fputc('\n', out);
        for (size_t i = 0; i < t->nrows; i++) {
            size_t r = t->order ? t->order[i] : i;
            first = 1;
            for (size_t c = 0; c < t->ncols; c++)
                if (shown(&t->cols[c], 1)) {
                    fprintf(out, "%s%s", first ? "" : "\t", cell(&b, &t->cols[c], t->ctx, r, 1));
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
    size_t n = limit > 0 && limit < t->nrows ? limit : t->nrows;
    int *width = malloc((t->ncols ? t->ncols : 1) * sizeof *width);
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
            size_t len = strlen(cell(&b, col, t->ctx, t->order ? t->order[i] : i, 0));
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
    for (size_t i = 0; i < n; i++) {
        size_t r = t->order ? t->order[i] : i;
        first = 1;
        for (size_t c = 0; c < t->ncols; c++) {
            const struct ss_col *col = &t->cols[c];
            if (!shown(col, 0) || (col->flags & SS_COL_LABEL))
                continue;
            int w = width ? width[c] : col->width;
            fprintf(out, "%*s%*s", first ? 0 : col->gap, "", col->flags & SS_COL_LEFT ? -w : w,
                    cell(&b, col, t->ctx, r, 0));
            first = 0;
        }
        for (size_t c = 0; c < t->ncols; c++)
            if (shown(&t->cols[c], 0) && (t->cols[c].flags & SS_COL_LABEL))
                fprintf(out, "  %s", cell(&b, &t->cols[c], t->ctx, r, 0));
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
