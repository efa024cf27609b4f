/* view_tree.c - the top-down and bottom-up call trees (`report --by tree`,
 * `--inverted`), with percentages of the whole profile.  Nodes expand and
 * collapse; `*` expands everything under a node; Enter focuses the tree on
 * the selected function (the tree of what it calls, or bottom-up of what
 * calls it), and q goes back to the whole tree.
 *
 * The core's tree is stored in depth-first order with each subtree a
 * contiguous range, so the visible rows are found by walking it and
 * jumping over collapsed subtrees: the work is proportional to what is
 * expanded, not to the size of the tree. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "column.h"
#include "report_analysis.h"
#include "report_common.h"
#include "tree.h"
#include "vec.h"

/* The columns' context: report's (percentages of the whole profile), and
 * for the view's own columns what is open and, in a comparison, each
 * node's base total. */
struct tree_ctx {
    struct ss_tree_ctx s;
    const uint8_t *open;
    int utf8;
    const double *base_total;
    const struct ss_verdict *vtotal; /* a comparison: each node's total verdict */
};

/* The view's own label: an expand glyph and the name (guides drawn apart). */
static void cell_name(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct tree_ctx *x = ctx;
    const struct ss_tree *t = x->s.t;
    const char *glyph = t->nodes[r].end <= r + 1 ? "  "
                        : x->open[r]             ? (x->utf8 ? "\xe2\x96\xbe " : "- ")
                                                 : (x->utf8 ? "\xe2\x96\xb8 " : "+ ");
    int inl = t->nodes[r].inl;
    snprintf(buf, n, "%s%s%s%s", glyph, ss_function_name(x->s.m, t->nodes[r].function),
             inl ? " " : "", ss_inline_label(inl));
}
static const struct ss_col name_col = {"function", NULL, 0, 0, 0, cell_name, NULL, NULL, 0};

/* total and self widen to the measure's numbers (draw, in the view's copy) */
static const struct ui_column columns_min[] = {
    {NULL, 7, 1, &ss_tree_columns[SS_TREE_TOTAL_PCT]},
    {NULL, 7, 1, &ss_tree_columns[SS_TREE_SELF_PCT]},
    {"total", 9, 1, &ss_tree_columns[SS_TREE_TOTAL]},
    {"self", 9, 1, &ss_tree_columns[SS_TREE_SELF]},
    {NULL, 0, 0, &name_col},
};
#define NCOLS ARRAY_SIZE(columns_min)

/* A comparison's total: the base's (joined by path, compare.h) and the new. */
static void get_total(const void *ctx, size_t r, int exact, double *b, double *v)
{
    const struct tree_ctx *x = ctx;
    *b = x->base_total[r];
    *v = x->s.t->nodes[r].total_v;
}
static const struct ss_units *tree_units(const void *ctx)
{
    return &((const struct tree_ctx *)ctx)->s.u;
}
static const struct ss_pair total_pair = {get_total, tree_units, NULL, 0};
static const struct ss_verdict *vtotal_of(const void *ctx, size_t r)
{
    return &((const struct tree_ctx *)ctx)->vtotal[r];
}
SS_VERDICT_MARK_CELLS(vtot, vtotal_of, tree_units)
static const struct ss_col total_cols[] = {
    SS_PAIR_COLS("base", 9, "total", 9, "delta", 10, 1, &total_pair),
    SS_VERDICT_MARK_COL(vtot),
};

/* In a comparison (--base): the base's total, the total, the delta and
 * its verdict (compare.h: ss_compare_tree_verdicts), and self, per node. */
static const struct ui_column ccolumns_min[] = {
    UI_COL(&total_cols[0]),
    UI_COL(&total_cols[1]),
    UI_COL(&total_cols[2]),
    UI_COL(&total_cols[3]),
    {"self", 9, 1, &ss_tree_columns[SS_TREE_SELF]},
    {NULL, 0, 0, &name_col},
};
#define NCCOLS ARRAY_SIZE(ccolumns_min)

/* The orders of s (children, and the roots, by ...; S reverses them) and
 * the column each marks: the whole profile's, then a comparison's. */
enum tree_by { BY_TOTAL, BY_SELF, BY_NAME, BY_DELTA };
static const char *const sort_names[] = {"total", "self", "name"};
static const enum tree_by sort_by[] = {BY_TOTAL, BY_SELF, BY_NAME};
static const int sort_column[] = {0, 1, 4};
#define NSORTS ARRAY_SIZE(sort_names)
static const char *const csort_names[] = {"total", "delta", "self", "name"};
static const enum tree_by csort_by[] = {BY_TOTAL, BY_DELTA, BY_SELF, BY_NAME};
static const int csort_column[] = {1, 2, 4, 5};
#define NCSORTS ARRAY_SIZE(csort_names)

#define AUTO_EXPAND 0.10 /* nodes with at least this share start expanded */

struct tree_view {
    unsigned gen, vgen; /* vgen: of the verdicts (ui_verdicts) */
    int vpend;          /* its verdicts were pending (made again when they come) */
    char *focus;        /* the focus the tree was built for (owned), NULL for none */
    int built;
    struct ss_tree t;
    uint8_t *open;  /* per node: expanded */
    uint32_t *rows; /* visible nodes */
    size_t nrows;
    /* the display order (s, S): every node in pre-order with its children
     * sorted (perm[k]: the node at position k; pos: the inverse), each
     * subtree still a contiguous range; NULL: as stored (children by
     * total) */
    uint32_t *perm, *pos;
    int order_sort, order_rev;      /* what perm was made for */
    double *base_total, *base_self; /* a comparison: per node, NULL otherwise */
    struct ss_verdict *vself, *vtotal;
    /* the columns as drawn: the descriptors, their numbers widened (draw) */
    struct ui_column columns[NCOLS], ccolumns[NCCOLS];
};

static int has_children(const struct ss_tree *t, uint32_t i)
{
    return t->nodes[i].end > i + 1;
}

/* The node at display position k, and the position of node i. */
static uint32_t node_at(const struct tree_view *p, size_t k)
{
    return p->perm ? p->perm[k] : (uint32_t)k;
}
static size_t pos_of(const struct tree_view *p, uint32_t i)
{
    return p->pos ? p->pos[i] : i;
}

static int visible(struct tree_view *p)
{
    free(p->rows);
    p->rows = ss_alloc_array(p->t.n, sizeof *p->rows);
    p->nrows = 0;
    if (!p->rows)
        return -1;
    for (size_t k = 0; k < p->t.n;) {
        uint32_t i = node_at(p, k);
        p->rows[p->nrows++] = i;
        k += p->open[i] ? 1 : p->t.nodes[i].end - i;
    }
    return 0;
}

/* Sorting siblings: the report's comparators (ss_tree_columns: by total,
 * self or name, ties by the others), a comparison's total delta (ties by
 * total), reversed for S. */
struct sort_ctx {
    struct ss_tree_ctx s; /* first: ss_tree_columns' comparators take it */
    const double *base_total;
    enum tree_by by;
    int rev;
};

static int cmp_node(const void *ctx, size_t a, size_t b)
{
    const struct sort_ctx *x = ctx;
    const struct ss_tree_node *nd = x->s.t->nodes;
    int c = 0;
    if (x->by == BY_DELTA)
        c = ss_cmp_desc(nd[a].total_v - x->base_total[a], nd[b].total_v - x->base_total[b]);
    if (!c) {
        size_t col = x->by == BY_SELF   ? SS_TREE_SELF
                     : x->by == BY_NAME ? SS_TREE_NAME
                                        : SS_TREE_TOTAL;
        c = ss_col_compare(&ss_tree_columns[col], ctx, a, b);
    }
    return x->rev ? -c : c;
}
static const struct ss_col node_key = {"", NULL, 0, 0, 0, NULL, cmp_node, NULL, 0};

static uint32_t node_depth(const void *ctx, size_t r)
{
    return ((const struct sort_ctx *)ctx)->s.t->nodes[r].depth;
}

/* The view's orders (a comparison has its own). */
static int nsorts(const struct tree_view *p)
{
    return p->base_total ? (int)NCSORTS : (int)NSORTS;
}

/* Make perm and pos for v's order (s, S), and the visible rows, keeping the
 * selected node selected.  Returns 0 or -1 (out of memory: stored order). */
static int reorder(struct ui *ui, struct ui_view *v, struct tree_view *p)
{
    uint32_t sel = p->nrows ? p->rows[v->list.sel < p->nrows ? v->list.sel : 0] : 0;
    if (v->sort >= nsorts(p))
        v->sort = 0;
    enum tree_by by = p->base_total ? csort_by[v->sort] : sort_by[v->sort];
    free(p->perm);
    free(p->pos);
    p->perm = p->pos = NULL;
    p->order_sort = v->sort;
    p->order_rev = v->sort_rev;
    int rc = 0;
    if ((by != BY_TOTAL || v->sort_rev) && p->t.n > 0) {
        struct sort_ctx x = {
            {ui->m, &p->t, {{0}, 0}, p->t.total_v}, p->base_total, by, v->sort_rev};
        size_t *o = ss_tree_sorted(p->t.n, node_depth, &node_key, &x);
        p->perm = o ? ss_alloc_array(p->t.n, sizeof *p->perm) : NULL;
        p->pos = o ? ss_alloc_array(p->t.n, sizeof *p->pos) : NULL;
        for (size_t k = 0; p->perm && p->pos && k < p->t.n; k++) {
            p->perm[k] = (uint32_t)o[k];
            p->pos[o[k]] = (uint32_t)k;
        }
        free(o);
        if (!p->perm || !p->pos) {
            free(p->perm);
            free(p->pos);
            p->perm = p->pos = NULL;
            rc = -1;
        }
    }
    if (visible(p))
        return -1;
    v->list.n = p->nrows;
    for (size_t r = 0; r < p->nrows; r++)
        if (p->rows[r] == sel)
            v->list.sel = r;
    ui_list_fit(&v->list);
    return rc;
}

static int same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

/* The names on the path from the root to node i, root first (malloc'd
 * array of borrowed strings; *n entries). */
static const char **path_of(const struct ui *ui, const struct ss_tree *t, uint32_t i, size_t *n)
{
    size_t d = t->nodes[i].depth + 1;
    const char **names = ss_alloc_array(d, sizeof *names);
    if (!names)
        return NULL;
    for (uint32_t k = i; k != SS_TREE_NONE; k = t->nodes[k].parent)
        names[t->nodes[k].depth] = ss_function_name(ui->m, t->nodes[k].function);
    *n = d;
    return names;
}

/* The names on the path to the selected node, to find it again in a tree
 * built anew (ids change); *n entries, NULL and 0 when none. */
static char **remember_selection(struct ui *ui, struct ui_view *v, struct tree_view *p, size_t *n)
{
    *n = 0;
    if (!p->nrows)
        return NULL;
    size_t sel = v->list.sel < p->nrows ? v->list.sel : p->nrows - 1;
    const char **names = path_of(ui, &p->t, p->rows[sel], n);
    char **keep = names ? ss_calloc_array(*n, sizeof *keep) : NULL;
    for (size_t k = 0; keep && k < *n; k++)
        keep[k] = strdup(names[k]);
    if (!keep)
        *n = 0;
    free(names);
    return keep;
}

static void free_names(char **keep, size_t n)
{
    for (size_t k = 0; k < n; k++)
        free(keep[k]);
    free(keep);
}

static void free_base(struct tree_view *p)
{
    free(p->base_total);
    free(p->base_self);
    free(p->vself);
    free(p->vtotal);
    p->base_total = p->base_self = NULL;
    p->vself = p->vtotal = NULL;
}

/* In a comparison: each node's base total and self and verdicts. */
static int compare_base(struct ui *ui, struct ui_view *v, struct tree_view *p, const char *arg)
{
    if (!ui->bm)
        return 0;
    struct ss_compare cmp;
    struct ss_error err;
    ss_error_clear(&err);
    ui_compare(ui, &cmp);
    p->base_total = malloc((p->t.n ? p->t.n : 1) * sizeof *p->base_total);
    p->base_self = malloc((p->t.n ? p->t.n : 1) * sizeof *p->base_self);
    p->vself = ss_calloc_array(p->t.n, sizeof *p->vself);
    p->vtotal = ss_calloc_array(p->t.n, sizeof *p->vtotal);
    struct ss_cmp_vinfo vi;
    int up = v->id == UI_V_BOTTOMUP;
    if (!p->base_total || !p->base_self || !p->vself || !p->vtotal ||
        ss_compare_tree_base(&cmp, up, arg, &p->t, p->base_total, p->base_self, &err) ||
        ss_compare_tree_verdicts(&cmp, up, arg, &p->t, p->vself, p->vtotal, &vi, &err)) {
        ui_error(ui, "%s", err.msg[0] ? err.msg : "out of memory");
        return -1;
    }
    p->vpend = vi.pending;
    return 0;
}

/* Open the nodes of AUTO_EXPAND or more and the path keep[0..nkeep)
 * where it is still there, and select its end (else the first row). */
static int open_and_select(struct ui *ui, struct ui_view *v, struct tree_view *p, char **keep,
                           size_t nkeep)
{
    for (size_t i = 0; i < p->t.n; i++)
        p->open[i] = p->t.total_v > 0 && p->t.nodes[i].total_v >= AUTO_EXPAND * p->t.total_v;
    uint32_t sel = 0, depth = 0, i = 0;
    while (depth < nkeep) {
        /* among the siblings starting at i (same depth), find keep[depth] */
        uint32_t lim = depth == 0 ? (uint32_t)p->t.n : p->t.nodes[sel].end;
        uint32_t j = i;
        while (j < lim && strcmp(ss_function_name(ui->m, p->t.nodes[j].function), keep[depth]))
            j = p->t.nodes[j].end;
        if (j >= lim)
            break;
        if (depth > 0)
            p->open[sel] = 1;
        sel = j;
        i = j + 1;
        depth++;
    }
    if (visible(p)) {
        ui_error(ui, "out of memory");
        return -1;
    }
    v->list.sel = 0;
    for (size_t r = 0; depth > 0 && r < p->nrows; r++)
        if (p->rows[r] == sel)
            v->list.sel = r;
    return 0;
}

/* Build the tree for the current model and focus (arg), keeping the
 * selected node where it is still there. */
static int prepare(struct ui *ui, struct ui_view *v)
{
    struct tree_view *p = v->priv;
    const char *arg = ui_view_arg(ui);
    if (p->built && p->gen == ui->gen && same(p->focus, arg)) {
        /* verdicts that were pending came: the numbers again, the tree,
         * what is open and the selection as they are */
        if (p->vpend && p->vgen != ui->verdicts.vgen) {
            free_base(p);
            if (compare_base(ui, v, p, arg))
                return -1;
            p->vgen = ui->verdicts.vgen;
            p->order_sort = -1; /* an order by verdict changes */
        }
        if ((p->order_sort != v->sort || p->order_rev != v->sort_rev) && reorder(ui, v, p))
            ui_error(ui, "out of memory: the tree in its first order");
        v->list.n = p->nrows;
        return 0;
    }
    size_t nkeep = 0;
    char **keep = p->built && same(p->focus, arg) ? remember_selection(ui, v, p, &nkeep) : NULL;
    ss_tree_free(&p->t);
    free(p->open);
    p->open = NULL;
    p->built = 0;
    free(p->focus);
    p->focus = arg ? strdup(arg) : NULL;
    ss_id focus = SS_NONE;
    int rc = 0;
    if (arg && (focus = ss_model_find_function(ui->m, arg)) == SS_NONE) {
        ui_error(ui, "%s is not in the profile (any more)", arg);
        memset(&p->t, 0, sizeof p->t);
    } else {
        struct ss_error err;
        ss_error_clear(&err);
        if (ss_tree_build(ui->m, v->id == UI_V_BOTTOMUP, focus, &p->t, &err)) {
            ui_error(ui, "%s", err.msg);
            rc = -1;
        }
    }
    p->open = ss_calloc_array(p->t.n, 1);
    if (!rc && !p->open) {
        ui_error(ui, "out of memory");
        rc = -1;
    }
    free_base(p);
    if (!rc)
        rc = compare_base(ui, v, p, arg);
    free(p->perm);
    free(p->pos);
    p->perm = p->pos = NULL;
    p->nrows = 0;
    if (!rc && reorder(ui, v, p))
        ui_error(ui, "out of memory: the tree in its first order");
    if (!rc)
        rc = open_and_select(ui, v, p, keep, nkeep);
    free_names(keep, nkeep);
    if (rc)
        return rc;
    p->gen = ui->gen;
    p->vgen = ui->verdicts.vgen;
    p->built = 1;
    v->list.n = p->nrows;
    ui_list_fit(&v->list);
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    struct tree_view *p = v->priv;
    const char *f = ui_view_arg(ui);
    /* a comparison shows values against the base, not percentages */
    const char *what = ui->bm ? "against the base" : "% of all";
    if (f)
        snprintf(buf, n, "%s and what %s, %s (q: whole tree)", f,
                 v->id == UI_V_BOTTOMUP ? "calls it" : "it calls", what);
    else
        snprintf(buf, n, "%zu nodes, %s%s", p ? p->t.n : 0, what, ui->bm ? "" : " samples");
}

/* Is node i the last child of its parent (or the last root) as shown? */
static int last_child(const struct tree_view *p, uint32_t i)
{
    const struct ss_tree *t = &p->t;
    uint32_t par = t->nodes[i].parent;
    size_t end = pos_of(p, i) + (t->nodes[i].end - i);
    return end >= (par == SS_TREE_NONE ? t->n : pos_of(p, par) + (t->nodes[par].end - par));
}

#define GUIDE_MAX 64 /* levels of guides drawn at most */

/* The guide lines before node i's name (tree(1)): for each ancestor below
 * the root, a bar when it has a later sibling, then the node's own corner,
 * two columns a level, so a child starts two columns right of its parent.
 * When more than `levels` levels would show, the outer ones give way to the
 * depth in brackets ("[23]"), in steps of half of `levels`: a child then
 * starts either two columns right of its parent or, where a step begins,
 * well left of it, never in its column.  Into buf. */
static void guides(const struct tree_view *p, uint32_t i, int utf8, int levels, char *buf, size_t n)
{
    const struct ss_tree *t = &p->t;
    const char *bar = utf8 ? "\xe2\x94\x82 " : "| ";
    const char *tee = utf8 ? "\xe2\x94\x9c\xe2\x94\x80" : "+-";
    const char *ell = utf8 ? "\xe2\x94\x94\xe2\x94\x80" : "\\-";
    uint32_t d = t->nodes[i].depth;
    size_t k = 0;
    buf[0] = '\0';
    if (d == 0)
        return;
    if (levels < 4)
        levels = 4;
    if (levels > GUIDE_MAX)
        levels = GUIDE_MAX;
    uint32_t L = (uint32_t)levels, step = L / 2;
    uint32_t shown = d <= L ? d : L - step + 1 + (d - L - 1) % step;
    if (shown < d)
        k += (size_t)snprintf(buf, n, "[%u]", d + 1);
    /* anc[j]: the ancestor of depth d - shown + 1 + j (j < shown - 1), then i */
    uint32_t anc[GUIDE_MAX];
    uint32_t a = i;
    for (uint32_t j = shown; j-- > 0;) {
        anc[j] = a;
        a = t->nodes[a].parent;
    }
    for (uint32_t j = 0; j < shown && k < n; j++) {
        const char *g = j + 1 < shown ? (last_child(p, anc[j]) ? "  " : bar)
                                      : (last_child(p, anc[j]) ? ell : tee);
        k += (size_t)snprintf(buf + k, n - k, "%s", g);
    }
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    struct tree_view *p = v->priv;
    uint32_t i = p->rows[row];
    const struct ss_stats *st = ui_stats_fn(ui);
    struct tree_ctx ctx = {{ui->m, &p->t, {{0}, 0}, st ? st->value_total : 0},
                           p->open,
                           c->utf8,
                           p->base_total,
                           p->vtotal};
    ss_units_of(ui->m, &ctx.s.u);
    char g[GUIDE_MAX * 6 + 16];
    const struct ui_column *cols = p->columns;
    size_t ncols = NCOLS;
    if (p->base_total) {
        /* grew or shrank beyond noise: the flame graph's colours; `~` plain */
        cols = p->ccolumns;
        ncols = NCCOLS;
        if (style == UI_S_NORMAL && p->vtotal[i].sign)
            style = p->vtotal[i].sign > 0 ? UI_S_GREW2 : UI_S_SHRANK2;
    }
    /* two columns a level, guides in them, at most 2/3 of the label */
    int x = ui_table_column_x(c->w, cols, ncols, ncols - 1);
    int label = c->w - (x > 0 ? x : 0);
    guides(p, i, c->utf8, (label * 2 / 3 - 5) / 2, g, sizeof g);
    int indent = ui_text_width(c, g);
    ui_table_cells(c, y, cols, ncols, &ctx, i, style, indent);
    if (indent && x >= 0)
        ui_put(c, y, x, indent, g, style == UI_S_NORMAL ? UI_S_DIM : style);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct tree_view *p = v->priv;
    p->columns[2].width = p->columns[3].width = ui_value_width(ui, p->built ? p->t.total_v : 0, 9);
    if (p->base_total) {
        double widest = p->t.total_v;
        for (size_t i = 0; i < p->t.n; i++)
            if (p->base_total[i] > widest)
                widest = p->base_total[i];
        int wv = ui_value_width(ui, widest, 9);
        p->ccolumns[0].width = p->ccolumns[1].width = p->ccolumns[4].width = wv;
        p->ccolumns[2].width = wv + 1;
        ui_table_draw(ui, v, c, y, h, p->ccolumns, NCCOLS, csort_column[p->order_sort % NCSORTS],
                      p->order_rev, p->nrows ? NULL : ui_empty_note(ui), draw_row);
        return;
    }
    ui_table_draw(ui, v, c, y, h, p->columns, NCOLS, sort_column[p->order_sort % NSORTS],
                  p->order_rev, p->nrows ? NULL : ui_empty_note(ui), draw_row);
}

static void set_open(struct ui_view *v, struct tree_view *p, uint32_t node, int open)
{
    p->open[node] = (uint8_t)open;
    visible(p);
    v->list.n = p->nrows;
    for (size_t r = 0; r < p->nrows; r++)
        if (p->rows[r] == node)
            v->list.sel = r;
    ui_list_fit(&v->list);
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    struct tree_view *p = v->priv;
    if (!p || !p->built || p->nrows == 0)
        return UI_UNHANDLED;
    if (p->base_total ? ui_table_sort_click(ui, v, ev, p->ccolumns, NCCOLS, csort_column, NCSORTS,
                                            csort_names) == UI_HANDLED
                      : ui_table_sort_click(ui, v, ev, p->columns, NCOLS, sort_column, NSORTS,
                                            sort_names) == UI_HANDLED)
        return UI_HANDLED;
    uint32_t i = p->rows[v->list.sel < p->nrows ? v->list.sel : 0];
    const struct ss_tree_node *nd = &p->t.nodes[i];
    switch (req) {
    case UI_REQ_SORT_NEXT:
    case UI_REQ_SORT_REVERSE:
        return ui_sort_request(ui, v, req, p->base_total ? csort_names : sort_names, nsorts(p));
    case UI_REQ_TREE_EXPAND:
        if (has_children(&p->t, i) && !p->open[i])
            set_open(v, p, i, 1);
        else if (has_children(&p->t, i))
            ui_list_move(&v->list, 1);
        return UI_HANDLED;
    case UI_REQ_TREE_COLLAPSE:
        if (p->open[i] && has_children(&p->t, i))
            set_open(v, p, i, 0);
        else if (nd->parent != SS_TREE_NONE)
            set_open(v, p, nd->parent, p->open[nd->parent]);
        return UI_HANDLED;
    case UI_REQ_TREE_TOGGLE:
        if (has_children(&p->t, i))
            set_open(v, p, i, !p->open[i]);
        return UI_HANDLED;
    case UI_REQ_TREE_EXPAND_ALL:
        for (uint32_t k = i; k < nd->end; k++)
            p->open[k] = 1;
        set_open(v, p, i, 1);
        return UI_HANDLED;
    case UI_REQ_TREE_FOCUS: {
        const char *fn = ss_function_name(ui->m, nd->function);
        ui_set_function(ui, fn);
        ui_open_view(ui, v->id, fn);
        return UI_HANDLED;
    }
    default:
        return UI_UNHANDLED;
    }
}

/* Search every node in depth-first order (the rows' order once expanded),
 * hidden ones too; open the path to the match. */
static int search(struct ui *ui, struct ui_view *v, const char *pat, int dir,
                  int (*match)(struct ui *ui, const char *text, const char *pat), size_t *idx,
                  size_t *count)
{
    struct tree_view *p = v->priv;
    if (!p || !p->built || p->t.n == 0)
        return -1;
    /* positions in the display order (node_at) */
    size_t n = p->t.n,
           cur = p->nrows ? pos_of(p, p->rows[v->list.sel < p->nrows ? v->list.sel : 0]) : 0;
    size_t found = SIZE_MAX, nmatch = 0, before = 0;
    for (size_t k = 0; k < n; k++)
        if (match(ui, ss_function_name(ui->m, p->t.nodes[node_at(p, k)].function), pat)) {
            nmatch++;
            if (dir > 0 && k > cur && found == SIZE_MAX)
                found = k;
            if (dir < 0 && k < cur)
                found = k;
        }
    if (nmatch == 0)
        return -1;
    if (found == SIZE_MAX) /* wrap around */
        for (size_t j = 0; j < n && found == SIZE_MAX; j++) {
            size_t k = dir > 0 ? j : n - 1 - j;
            if (match(ui, ss_function_name(ui->m, p->t.nodes[node_at(p, k)].function), pat))
                found = k;
        }
    for (size_t k = 0; k <= found; k++)
        before += match(ui, ss_function_name(ui->m, p->t.nodes[node_at(p, k)].function), pat) != 0;
    uint32_t hit = node_at(p, found);
    for (uint32_t a = p->t.nodes[hit].parent; a != SS_TREE_NONE; a = p->t.nodes[a].parent)
        p->open[a] = 1;
    set_open(v, p, hit, p->open[hit]);
    *idx = before;
    *count = nmatch;
    return 0;
}

static const char *row_function(struct ui *ui, struct ui_view *v, size_t r)
{
    struct tree_view *p = v->priv;
    if (!p || !p->built || r >= p->nrows)
        return NULL;
    return ss_function_name(ui->m, p->t.nodes[p->rows[r]].function);
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    return row_function(ui, v, r);
}

/* In the whole top-down tree a node's level is its depth + 1. */
static uint32_t row_level(struct ui *ui, struct ui_view *v, size_t r)
{
    struct tree_view *p = v->priv;
    if (!p || !p->built || r >= p->nrows || v->id != UI_V_TOPDOWN || p->focus)
        return 0;
    return p->t.nodes[p->rows[r]].depth + 1;
}

static void view_free(struct ui_view *v)
{
    struct tree_view *p = v->priv;
    ss_tree_free(&p->t);
    free(p->open);
    free(p->rows);
    free(p->focus);
    free_base(p);
    free(p->perm);
    free(p->pos);
}

static void view_init(struct ui_view *v)
{
    struct tree_view *p = v->priv;
    memcpy(p->columns, columns_min, sizeof p->columns);
    memcpy(p->ccolumns, ccolumns_min, sizeof p->ccolumns);
}

const struct ui_view_ops ui_view_topdown = {
    .name = "top-down",
    .flags = UI_VF_NO_FILTER,
    .priv_size = sizeof(struct tree_view),
    .init = view_init,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .row_function = row_function,
    .row_level = row_level,
    .search = search,
    .free = view_free,
};

const struct ui_view_ops ui_view_bottomup = {
    .name = "bottom-up",
    .flags = UI_VF_NO_FILTER,
    .priv_size = sizeof(struct tree_view),
    .init = view_init,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .row_function = row_function,
    .row_level = row_level,
    .search = search,
    .free = view_free,
};
