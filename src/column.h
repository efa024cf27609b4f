/* column.h - one column descriptor for every table (STYLE 7; perf's
 * perf_hpp_fmt): its TSV name, its text header and width, how a cell is
 * formatted (text or full-precision TSV) and how rows compare.  Every
 * `report` table is a descriptor array printed by ss_table_print; the
 * explorer draws the same cells and sorts with the same comparators.
 *
 * Text layout: the columns in array order, the label (the name column,
 * which may be anywhere in the array) last, after two spaces; each other
 * column is `gap` spaces then its cell padded to `width` (right-aligned, or
 * left with SS_COL_LEFT).  TSV: every column in array order, tab-separated,
 * with a header row of the TSV names.  SS_COL_TEXT / SS_COL_TSV columns
 * appear in one format only.  A text column is as wide as its widest cell
 * (at least `width`), so numbers are never cut and never run together.
 */
#ifndef SS_COLUMN_H
#define SS_COLUMN_H

#include <stddef.h>
#include <stdio.h>

enum {
    SS_COL_LABEL = 1u << 0, /* the name column: left-aligned, printed last in text */
    SS_COL_LEFT = 1u << 1,  /* left-aligned (text) */
    SS_COL_TEXT = 1u << 2,  /* in text only */
    SS_COL_TSV = 1u << 3,   /* in TSV only */
};

struct ss_col {
    const char *name;  /* TSV header */
    const char *title; /* text header (NULL: name; "" for a label: none) */
    int width;         /* text width of the cell (numbers) */
    int gap;           /* spaces before it in text (the first printed column's are dropped) */
    unsigned flags;    /* SS_COL_* */
    /* Format cell (row r of table ctx) into buf[0..n): tsv: full precision
     * and TSV escaping, else rounded for reading. */
    void (*cell)(char *buf, size_t n, const void *ctx, size_t r, int tsv);
    /* Compare rows a and b by this column (< 0: a first), or NULL. */
    int (*cmp)(const void *ctx, size_t a, size_t b);
};

/* A table to print: columns, the rows' owner (ctx, passed to every cell),
 * and the rows in display order (order[i], or i when order is NULL). */
struct ss_table {
    const struct ss_col *cols;
    size_t ncols;
    const void *ctx;
    size_t nrows;
    const size_t *order;
    const char *measure; /* replaces '@' in names and titles ("self.@"), or NULL */
};

/* Print t: TSV (every row) or text (the header row, then at most `limit`
 * rows when limit > 0, then "... N more WHAT (--limit 0 shows all)").
 * WHAT names the rows ("rows", "levels"). */
void ss_table_print(FILE *out, const struct ss_table *t, int tsv, size_t limit, const char *what);

/* Cell helpers: a number with `decimals` digits (TSV: %.15g), an unsigned
 * integer, a string escaped for text or TSV (textesc.h). */
void ss_cell_num(char *buf, size_t n, double v, int tsv, int decimals);
void ss_cell_u64(char *buf, size_t n, unsigned long long v);
void ss_cell_str(char *buf, size_t n, const char *s, int tsv);

#endif
