/* column.h - one column descriptor for every table (HACKING.md, Adding things;
 * perf's perf_hpp_fmt): its TSV name, its text header and width, how a cell is
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
 *
 * The explorer (ui/) shows the same descriptors: a view picks columns by
 * index from a table's array (the enums of the report headers:
 * SS_STAT_SELF, SS_CMP_SELF_D, ...), draws their cells with ss_col_text and
 * sorts with ss_col_compare; it may add columns of its own through this
 * same type, whose context then starts with the table's context (a struct
 * holding it as its first member).
 *
 * A comparison's columns (base, new, delta) need no cell functions of their
 * own: a column with `pair` set and `cell` NULL shows the base, the new
 * value or the delta (new - base, signed in text) that pair->get gives for
 * the row, in pair->units (or as plain numbers); SS_PAIR_COLS makes the
 * three.
 */
#ifndef SS_COLUMN_H
#define SS_COLUMN_H

#include <stddef.h>
#include <stdio.h>

enum {
    SS_COL_LABEL = 1u << 0,               /* the name column: left-aligned, printed last in text */
    SS_COL_LEFT = 1u << 1,                /* left-aligned (text) */
    SS_COL_TEXT = 1u << 2,                /* in text only */
    SS_COL_TSV = 1u << 3,                 /* in TSV only */
    SS_COL_UI = SS_COL_TEXT | SS_COL_TSV, /* in neither: the explorer's */
};

struct ss_units;

/* A comparison's values of one quantity (self, total, a stack's value):
 * get stores row r's base and new values (exact: in the units used for
 * ordering, e.g. microseconds for time; else in the measure's raw unit);
 * units gives how they read. */
struct ss_pair {
    void (*get)(const void *ctx, size_t r, int exact, double *base, double *cur);
    const struct ss_units *(*units)(const void *ctx);
    /* Optional: how rows with equal values order (ss_col_compare). */
    int (*tie)(const void *ctx, size_t a, size_t b);
    /* With units NULL the values are plain numbers (counts, a mean run
     * length): text shows them with `decimals` digits. */
    int decimals;
};

enum ss_part { SS_PART_BASE = 1, SS_PART_NEW, SS_PART_DELTA };

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
    /* A comparison's column (cell NULL): the values and which of them. */
    const struct ss_pair *pair;
    enum ss_part part;
};

/* The three columns base, new and delta of pair p (a `const struct
 * ss_pair *`), named b, nw and d, with text widths wb, wn and wd and `gap`
 * spaces before each. */
/* clang-format off */
#define SS_PAIR_COLS(b, wb, nw, wn, d, wd, gap, p)                                                 \
    {b, NULL, wb, gap, 0, NULL, NULL, p, SS_PART_BASE},                                            \
    {nw, NULL, wn, gap, 0, NULL, NULL, p, SS_PART_NEW},                                            \
    {d, NULL, wd, gap, 0, NULL, NULL, p, SS_PART_DELTA}
/* clang-format on */

/* A comparison's verdict columns (verdict.h): the parts of one row's
 * verdict on one quantity.  ss_cell_verdict formats one: the interval's
 * ends and the mdc as values of the measure (u; text signed, NA in TSV and
 * "-" in text when not tested), q and p as numbers, the word ("grew",
 * "shrank", "~").  ss_verdict_order orders two verdicts significant first,
 * then by q (untested last), then by the size of the change. */
struct ss_verdict;
enum ss_vpart {
    SS_VPART_LO,
    SS_VPART_HI,
    SS_VPART_Q,
    SS_VPART_WORD,
    SS_VPART_P,
    SS_VPART_MDC,
    SS_VPART_MARK /* the word in one character: + grew, - shrank, ~ (the explorer's) */
};
void ss_cell_verdict(char *buf, size_t n, const struct ss_verdict *v, enum ss_vpart part,
                     const struct ss_units *u, int tsv);
int ss_verdict_order(const struct ss_verdict *a, const struct ss_verdict *b);

/* The cell functions of a table's verdict columns, named PFX_lo, PFX_hi,
 * PFX_q, PFX_word, PFX_p, PFX_mdc and the order PFX_cmp, from GET(ctx, r)
 * (the row's `const struct ss_verdict *`) and UNITS(ctx); the WORD ones
 * only PFX_word and PFX_cmp (a view's text column). */
/* clang-format off */
#define SS_VERDICT_CELL(pfx, get, units, part, what)                                               \
    static void pfx##_##what(char *buf, size_t n, const void *ctx, size_t r, int tsv)              \
    {                                                                                              \
        ss_cell_verdict(buf, n, get(ctx, r), part, units(ctx), tsv);                               \
    }
#define SS_VERDICT_WORD_CELLS(pfx, get, units)                                                     \
    SS_VERDICT_CELL(pfx, get, units, SS_VPART_WORD, word)                                          \
    SS_VERDICT_MARK_CELLS(pfx, get, units)
#define SS_VERDICT_MARK_CELLS(pfx, get, units)                                                     \
    SS_VERDICT_CELL(pfx, get, units, SS_VPART_MARK, mark)                                          \
    static int pfx##_cmp(const void *ctx, size_t a, size_t b)                                      \
    {                                                                                              \
        return ss_verdict_order(get(ctx, a), get(ctx, b));                                         \
    }
#define SS_VERDICT_CELLS(pfx, get, units)                                                          \
    SS_VERDICT_CELL(pfx, get, units, SS_VPART_LO, lo)                                              \
    SS_VERDICT_CELL(pfx, get, units, SS_VPART_HI, hi)                                              \
    SS_VERDICT_CELL(pfx, get, units, SS_VPART_Q, q)                                                \
    SS_VERDICT_CELL(pfx, get, units, SS_VPART_P, p)                                                \
    SS_VERDICT_CELL(pfx, get, units, SS_VPART_MDC, mdc)                                            \
    SS_VERDICT_WORD_CELLS(pfx, get, units)
/* The TSV columns NAME.delta.lo, NAME.delta.hi, NAME.q, NAME.verdict,
 * NAME.p, NAME.mdc of those cells (NAME a prefix with its dot, or ""),
 * and the text column "verdict". */
#define SS_VERDICT_COLS(name, pfx)                                                                 \
    {name "delta.lo", NULL, 0, 0, SS_COL_TSV, pfx##_lo, pfx##_cmp, NULL, 0},                       \
    {name "delta.hi", NULL, 0, 0, SS_COL_TSV, pfx##_hi, pfx##_cmp, NULL, 0},                       \
    {name "q", NULL, 0, 0, SS_COL_TSV, pfx##_q, pfx##_cmp, NULL, 0},                               \
    {name "verdict", NULL, 0, 0, SS_COL_TSV, pfx##_word, pfx##_cmp, NULL, 0},                      \
    {name "p", NULL, 0, 0, SS_COL_TSV, pfx##_p, pfx##_cmp, NULL, 0},                               \
    {name "mdc", NULL, 0, 0, SS_COL_TSV, pfx##_mdc, pfx##_cmp, NULL, 0}
#define SS_VERDICT_TEXT_COL(name, pfx)                                                             \
    {name "verdict", "verdict", 7, 1, SS_COL_TEXT | SS_COL_LEFT, pfx##_word, pfx##_cmp, NULL, 0}
/* The explorer's narrow column of the same: +, - or ~ under "v". */
#define SS_VERDICT_MARK_COL(pfx)                                                                   \
    {"v", NULL, 1, 1, SS_COL_UI | SS_COL_LEFT, pfx##_mark, pfx##_cmp, NULL, 0}
/* clang-format on */

/* A growable buffer for cells (a deep stack, a long name); zeroed: empty.
 * Freed with ss_cellbuf_free. */
struct ss_cellbuf {
    char *s;
    size_t cap;
};
void ss_cellbuf_free(struct ss_cellbuf *b);

/* The cell of row r of ctx in column c (TSV or text), in b (borrowed until
 * b is used again; "?" when memory runs out). */
const char *ss_col_text(const struct ss_col *c, const void *ctx, size_t r, int tsv,
                        struct ss_cellbuf *b);

/* Compare rows a and b of ctx by column c: c->cmp, or for a comparison's
 * column its value, larger first (exact units), ties by pair->tie; 0 when
 * c has no order. */
int ss_col_compare(const struct ss_col *c, const void *ctx, size_t a, size_t b);

/* Larger first: -1 when a > b, 1 when a < b, else 0. */
int ss_cmp_desc(double a, double b);

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

/* Print t: TSV or text, the header row, then at most `limit` rows when
 * limit > 0 (every row when 0); text then says "... N more WHAT (--limit 0
 * shows all)".  WHAT names the rows ("rows", "levels"). */
void ss_table_print(FILE *out, const struct ss_table *t, int tsv, size_t limit, const char *what);

/* Cell helpers: a number with `decimals` digits (TSV: %.15g), an unsigned
 * integer, a string escaped for text or TSV (textesc.h). */
void ss_cell_num(char *buf, size_t n, double v, int tsv, int decimals);
void ss_cell_u64(char *buf, size_t n, unsigned long long v);
void ss_cell_str(char *buf, size_t n, const char *s, int tsv);
/* A value of the measure (units.h) with its sign in text: "+1.20 s",
 * "-3 kB", "0"; TSV as ss_format_value. */
void ss_cell_signed(char *buf, size_t n, const struct ss_units *u, double v, int tsv);

#endif
