/* view_lines.c - the source lines (stackscope(1), SOURCE FILES).
 *
 * Two faces.  The list: the lines with samples (`report --by line`, R's
 * lines="show"), each with the text of its line, sortable.  The code pane
 * (profvis's, perf annotate's): a whole file, every line with its self and
 * total and, for memory profiles, the vector memory allocated and
 * released there (profvis's: stats.h), each number with a bar scaled to the
 * file's hottest line; in a comparison, base, new and delta of self and
 * total.  The pane opens centred on the hottest line (or the line asked
 * for); ] and [ step through the lines with samples, hottest first, as perf
 * annotate's Tab; Enter keeps only the samples through the selected line
 * (the transform keep-line: the other views then show its callers and
 * callees; u undoes it).  Any view reaches the pane with `a` (ui.c): a flame
 * frame at its own line, a function (a tree node, a stack, a caller...) at
 * its hottest line with the range of its lines marked.
 *
 * Files are found as source.h says (as written, next to the profile,
 * --source-map, --source-path and their `:` commands, carried in the
 * profile); each file is read once and kept (looked for again after a new
 * directory or map).  A file found nowhere is an error message naming the
 * places tried and the options that find it. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "report.h"
#include "report_compare.h"
#include "sort.h"
#include "source.h"
#include "vec.h"

enum { SORT_SELF, SORT_TOTAL, SORT_POS, NSORTS };
static const char *const sort_names[NSORTS] = {"self time", "total time", "position"};
static const int sort_column[NSORTS] = {0, 2, 4};

/* The view's own column: the text of the line (source_line). */
static void cell_source(char *buf, size_t n, const void *ctx, size_t r, int tsv);
static const struct ss_col source_col = {"source", NULL, 0, 0, 0, cell_source, NULL, NULL, 0};

/* self and total widen to the measure's numbers (draw, in the view's copy) */
static const struct ui_column columns_min[] = {
    {"self", 8, 1, &ss_line_columns[SS_STAT_SELF]},
    {"self%", 6, 1, &ss_line_columns[SS_STAT_SELF_PCT]},
    {"total", 8, 1, &ss_line_columns[SS_STAT_TOTAL]},
    {"total%", 6, 1, &ss_line_columns[SS_STAT_TOTAL_PCT]},
    {NULL, 20, 0, &ss_line_columns[SS_STAT_NAME]},
    {NULL, 0, 3, &source_col},
};
#define NCOLS ARRAY_SIZE(columns_min)

/* A comparison (--base): base, new and delta of self and total per line
 * (`report --base --by line`), sorted by self delta. */
enum { CSORT_SELF_D, CSORT_TOTAL_D, CSORT_SELF_V, CSORT_TOTAL_V, CSORT_POS, NCSORTS };
static const char *const csort_names[NCSORTS] = {"self delta", "total delta", "self verdict",
                                                 "total verdict", "position"};
static const int csort_column[NCSORTS] = {2, 6, 3, 7, 8};
/* The number columns of a comparison, in the list and the pane alike:
 * base, new and delta of self, its verdict's mark, then of total (widened
 * by cmp_widths). */
#define CLC(i) (&ss_cmp_line_columns[i])
/* clang-format off */
#define CMP_NUMBER_COLUMNS                                                                         \
    {"base", 8, 1, CLC(SS_CMP_SELF_B)},                                                            \
    {NULL, 8, 1, CLC(SS_CMP_SELF)},                                                                \
    {"delta", 9, 1, CLC(SS_CMP_SELF_D)},                                                           \
    UI_COL(CLC(SS_CMP_SELF_MARK)),                                                                 \
    {"base", 8, 1, CLC(SS_CMP_TOTAL_B)},                                                           \
    {NULL, 8, 1, CLC(SS_CMP_TOTAL)},                                                               \
    {"delta", 9, 1, CLC(SS_CMP_TOTAL_D)},                                                          \
    UI_COL(CLC(SS_CMP_TOTAL_MARK))
/* clang-format on */
/* the numbers take the room of the source text, which is left out */
static const struct ui_column ccolumns_min[] = {
    CMP_NUMBER_COLUMNS,
    UI_COL(CLC(SS_CMP_NAME)),
};
#define NCCOLS ARRAY_SIZE(ccolumns_min)

/* ---- the code pane's columns ----------------------------------------------------
 *
 * One profile: a number and its bar for self and total, and with memory
 * for alloc and released, then the line number and the text.  The numbers
 * are the line statistics' own cells (report.h), so they read as `report
 * --by line` and `report --by list` print them. */
enum { P_SELF, P_SELF_BAR, P_TOTAL, P_TOTAL_BAR, P_ALLOC, P_ALLOC_BAR, P_REL, P_REL_BAR, P_NVAL };
static const struct ui_column pane_columns_min[] = {
    [P_SELF] = {"self", 8, 1, &ss_line_columns[SS_STAT_SELF]},
    [P_SELF_BAR] = {"", 4, 0, NULL},
    [P_TOTAL] = {"total", 8, 1, &ss_line_columns[SS_STAT_TOTAL]},
    [P_TOTAL_BAR] = {"", 4, 0, NULL},
    [P_ALLOC] = {NULL, 8, 1, &ss_line_columns[SS_STAT_ALLOC]},
    [P_ALLOC_BAR] = {"", 4, 0, NULL},
    [P_REL] = {NULL, 8, 1, &ss_line_columns[SS_STAT_RELEASED]},
    [P_REL_BAR] = {"", 4, 0, NULL},
    {"line", 5, 1, NULL},
    {"source", 0, 3, NULL},
};
/* A comparison: base, new and delta of self and total, each delta with
 * its verdict (grew, shrank or ~), as the lines view shows them. */
static const struct ui_column cpane_columns_min[] = {
    CMP_NUMBER_COLUMNS,
    {"line", 5, 1, NULL},
    {"source", 0, 3, NULL},
};
#define NPANE ARRAY_SIZE(pane_columns_min)
#define NCPANE ARRAY_SIZE(cpane_columns_min)

/* A source file the view showed or looked for, kept: files do not change. */
struct src_file {
    char *path; /* as the profile names it (owned) */
    struct ss_source_file src;
    int found;
    unsigned tried; /* ui->source_gen when last looked for (again after a new dir or map) */
};

/* The code pane: one file, every line. */
struct pane {
    int on;
    int from_list; /* opened from the list (q goes back to it), else from another view */
    long file;     /* index into files */
    char *base;    /* its basename: the statistics' key */
    unsigned gen;  /* ui->gen of the numbers below */
    int cmp;       /* the numbers are a comparison's */
    size_t *hit;   /* per line (0-based): its statistics row, SIZE_MAX: none */
    size_t nlines; /* the lines shown: the file's, or more when samples say so */
    uint32_t *hot; /* the lines with samples (1-based), hottest first */
    size_t nhot, hot_at;
    double max[4];      /* the bars' 100%: the file's largest self, total, alloc, released */
    uint32_t lo, hi;    /* the marked lines (a function's), 0 for none */
    uint32_t goto_line; /* select this line at the next prepare (0: the hottest) */
    int center;         /* centre the selection at the next draw */
};

struct lines_view {
    unsigned gen, vgen; /* vgen: of the verdicts (ui_verdicts) */
    int sort, rev;
    uint32_t *order;
    size_t n;
    struct src_file *files;
    size_t nfiles;
    struct pane pane;
    size_t list_sel; /* the list selection to come back to */
    /* the columns as drawn: the descriptors, widened by draw (the pane's
     * by pane_layout) */
    struct ui_column columns[NCOLS], ccolumns[NCCOLS];
    struct ui_column pane_columns[NPANE], cpane_columns[NCPANE];
};

/* ---- source files -------------------------------------------------------- */

int ui_add_source_path(struct ui *ui, const char *dir)
{
    char **np = ss_realloc_array(ui->source_paths, ui->nsource_paths + 1, sizeof *np);
    if (!np)
        return -1;
    ui->source_paths = np;
    if (!(np[ui->nsource_paths] = strdup(dir)))
        return -1;
    ui->nsource_paths++;
    ui->source_gen++;
    return 0;
}

int ui_add_source_map(struct ui *ui, const char *arg)
{
    char *copy = strdup(arg);
    struct ss_source_map mp;
    if (!copy)
        return -1;
    if (ss_source_map_parse(copy, &mp)) {
        free(copy);
        return 1;
    }
    struct ss_source_map *nm = ss_realloc_array(ui->source_maps, ui->nsource_maps + 1, sizeof *nm);
    if (!nm) {
        free(copy);
        return -1;
    }
    ui->source_maps = nm; /* each map's FROM is its own copy's start: freed by it */
    nm[ui->nsource_maps++] = mp;
    ui->source_gen++;
    return 0;
}

/* Where files are looked for: the inputs, the directories and maps, the
 * files the profile carries. */
static void search_of(struct ui *ui, struct ss_source_search *s)
{
    s->inputs = ui->files;
    s->ninputs = (size_t)ui->nfiles;
    s->dirs = (const char *const *)ui->source_paths;
    s->ndirs = ui->nsource_paths;
    s->maps = ui->source_maps;
    s->nmaps = ui->nsource_maps;
    s->m = &ui->orig;
}

/* The kept file named `path` (read now if it was not, or not found before
 * a new directory), or -1 when memory runs out. */
static long file_named(struct ui *ui, struct lines_view *p, const char *path)
{
    long f = -1;
    for (size_t i = 0; i < p->nfiles && f < 0; i++)
        if (!strcmp(p->files[i].path, path))
            f = (long)i;
    if (f < 0) {
        struct src_file *nf = ss_realloc_array(p->files, p->nfiles + 1, sizeof *nf);
        if (!nf)
            return -1;
        p->files = nf;
        memset(&nf[p->nfiles], 0, sizeof *nf);
        if (!(nf[p->nfiles].path = strdup(path)))
            return -1;
        nf[p->nfiles].tried = ui->source_gen - 1;
        f = (long)p->nfiles++;
    }
    struct src_file *sf = &p->files[f];
    if (!sf->found && sf->tried != ui->source_gen) {
        struct ss_source_search s;
        search_of(ui, &s);
        sf->tried = ui->source_gen;
        int r = ss_source_read(&s, sf->path, SS_SOURCE_EXPAND_TABS, &sf->src, NULL);
        if (r < 0)
            return -1;
        sf->found = r;
    }
    return f;
}

/* The first path of the model with basename `base` (borrowed), or NULL. */
static const char *path_of_base(const struct ss_model *m, const char *base)
{
    size_t bl = strlen(base);
    for (size_t l = 0; l < m->locations.n; l++) {
        ss_id f = m->locations.v[l].file;
        if (f == SS_NONE || !m->locations.v[l].line)
            continue;
        const char *b;
        size_t n;
        ss_basename(ss_str(m, f), &b, &n);
        if (n == bl && !memcmp(b, base, bl))
            return ss_str(m, f);
    }
    return NULL;
}

/* The kept file of basename `base`, or -1 (none, or out of memory). */
static long file_of_base(struct ui *ui, struct lines_view *p, const char *base)
{
    const char *path = path_of_base(ui->m, base);
    return path ? file_named(ui, p, path) : -1;
}

/* The text of line `line` of the file keyed `base` (leading blanks
 * dropped), or NULL. */
static const char *source_line(struct ui *ui, struct lines_view *p, const char *base, uint32_t line)
{
    long f = file_of_base(ui, p, base);
    const char *s = f >= 0 && p->files[f].found ? ss_source_line(&p->files[f].src, line) : NULL;
    while (s && (*s == ' ' || *s == '\t'))
        s++;
    return s;
}

/* "FILE: not found (tried ...); ..." for the message line. */
static void missing_message(struct ui *ui, const char *path)
{
    struct ss_source_search s;
    search_of(ui, &s);
    struct ss_strbuf tried = SS_STRBUF_INIT, msg = SS_STRBUF_INIT;
    struct ss_source_file sf;
    if (ss_source_read(&s, path, 0, &sf, &tried) > 0)
        ss_source_file_free(&sf);
    char lb[512];
    ss_strbuf_printf(
        &msg, "%s",
        ss_source_label(ui->m, ss_strtab_find(&ui->m->strs, path, strlen(path)), lb, sizeof lb));
    ss_source_missing(&msg, &s, path, ss_strbuf_str(&tried), ":");
    ui_error(ui, "%s", msg.failed ? "out of memory" : ss_strbuf_str(&msg));
    ss_strbuf_free(&tried);
    ss_strbuf_free(&msg);
}

/* ---- the list ------------------------------------------------------------ */

static const char *base_of(const struct ss_stats *st, const struct ss_stat_row *r)
{
    return r->file == SS_NONE || r->file == r->key ? NULL : ss_strtab_get(&st->keys, r->file);
}

/* The columns' context: the statistics, and for the source column where
 * files are found. */
struct lines_ctx {
    struct ss_stat_ctx s;
    struct ui *ui;
    struct lines_view *p;
};

static void cell_source(char *buf, size_t n, const void *ctx, size_t r, int tsv)
{
    const struct lines_ctx *x = ctx;
    const struct ss_stat_row *row = &x->s.st->rows[r];
    const char *base = base_of(x->s.st, row);
    const char *text = base ? source_line(x->ui, x->p, base, row->line) : NULL;
    snprintf(buf, n, "%s", text ? text : "");
}

/* The row in list mode: its key, file basename (or NULL) and line, from
 * the statistics or, in a comparison, the joined rows. */
static void list_row(struct ui *ui, struct lines_view *p, size_t row, const char **key,
                     const char **base, uint32_t *line)
{
    if (ui->bm) {
        const struct ss_cmp_stats *cs = ui_cmp_line(ui);
        const struct ss_cmp_row *r = &cs->rows[p->order[row]];
        *key = ss_strtab_get(&cs->keys, r->key);
        *base = r->file == SS_NONE || r->file == r->key ? NULL : ss_strtab_get(&cs->keys, r->file);
        *line = r->line;
        return;
    }
    const struct ss_stats *st = ui_stats_line(ui);
    const struct ss_stat_row *r = &st->rows[p->order[row]];
    *key = ss_strtab_get(&st->keys, r->key);
    *base = base_of(st, r);
    *line = r->line;
}

/* ---- the pane's numbers ------------------------------------------------------- */

static void pane_clear(struct pane *pn)
{
    free(pn->hit);
    free(pn->hot);
    free(pn->base);
    memset(pn, 0, sizeof *pn);
}

/* The self and total of statistics row r (exact units, for the order of
 * the hot lines; a comparison's deltas), and the values of the bars. */
static void row_values(struct ui *ui, size_t r, double *ord, double *val)
{
    if (ui->bm) {
        const struct ss_cmp_row *c = &ui_cmp_line(ui)->rows[r];
        ord[0] = c->self_nx - c->self_bx;
        ord[1] = c->total_nx - c->total_bx;
        memset(val, 0, 4 * sizeof *val);
        return;
    }
    const struct ss_stat_row *s = &ui_stats_line_memory(ui)->rows[r];
    ord[0] = s->self_x;
    ord[1] = s->total_x;
    val[0] = s->self_v;
    val[1] = s->total_v;
    val[2] = s->alloc_bytes;
    val[3] = s->released_bytes;
}

/* The statistics' row count, and row r's basename key (NULL: none) and line. */
static size_t stat_rows(struct ui *ui)
{
    if (ui->bm)
        return ui_cmp_line(ui) ? ui_cmp_line(ui)->n : 0;
    return ui_stats_line_memory(ui) ? ui_stats_line_memory(ui)->n : 0;
}
static const char *stat_base(struct ui *ui, size_t r, uint32_t *line)
{
    if (ui->bm) {
        const struct ss_cmp_stats *cs = ui_cmp_line(ui);
        const struct ss_cmp_row *c = &cs->rows[r];
        *line = c->line;
        return c->file == SS_NONE || c->file == c->key ? NULL : ss_strtab_get(&cs->keys, c->file);
    }
    const struct ss_stats *st = ui_stats_line_memory(ui);
    *line = st->rows[r].line;
    return base_of(st, &st->rows[r]);
}

/* Hot lines a and b: the larger self first, then total, then the line. */
struct hot_ctx {
    struct ui *ui;
    const size_t *hit;
};
static int cmp_hot(const void *a, const void *b, void *ctx)
{
    const struct hot_ctx *h = ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    double ox[2], oy[2], v[4];
    row_values(h->ui, h->hit[x - 1], ox, v);
    row_values(h->ui, h->hit[y - 1], oy, v);
    int c = ss_cmp_desc(ox[0], oy[0]);
    if (!c)
        c = ss_cmp_desc(ox[1], oy[1]);
    return c ? c : (x > y) - (x < y);
}

/* The numbers of the pane's file for the current model: each line's
 * statistics row, the hot lines in order, the bars' maxima. */
static int pane_numbers(struct ui *ui, struct lines_view *p)
{
    struct pane *pn = &p->pane;
    size_t nr = stat_rows(ui), n = p->files[pn->file].found ? p->files[pn->file].src.nlines : 0;
    for (size_t r = 0; r < nr; r++) {
        uint32_t line;
        const char *b = stat_base(ui, r, &line);
        if (b && !strcmp(b, pn->base) && line > n)
            n = line; /* the file on disk is shorter than the profile says */
    }
    size_t *hit = ss_alloc_array(n, sizeof *hit);
    uint32_t *hot = ss_alloc_array(n, sizeof *hot);
    if (!hit || !hot) {
        free(hit);
        free(hot);
        return -1;
    }
    for (size_t k = 0; k < n; k++)
        hit[k] = SIZE_MAX;
    size_t nhot = 0;
    memset(pn->max, 0, sizeof pn->max);
    for (size_t r = 0; r < nr; r++) {
        uint32_t line;
        const char *b = stat_base(ui, r, &line);
        if (!b || strcmp(b, pn->base) || !line)
            continue;
        hit[line - 1] = r;
        hot[nhot++] = line;
        double ord[2], val[4];
        row_values(ui, r, ord, val);
        for (int k = 0; k < 4; k++)
            pn->max[k] = val[k] > pn->max[k] ? val[k] : pn->max[k];
    }
    struct hot_ctx hc = {ui, hit};
    if (ss_sort(hot, nhot, sizeof *hot, cmp_hot, &hc)) {
        free(hit);
        free(hot);
        return -1;
    }
    free(pn->hit);
    free(pn->hot);
    pn->hit = hit;
    pn->hot = hot;
    pn->nhot = nhot;
    pn->hot_at = 0;
    pn->nlines = n;
    pn->gen = ui->gen;
    pn->cmp = ui->bm != NULL;
    return 0;
}

/* ---- prepare ------------------------------------------------------------------ */

static int prepare_list(struct ui *ui, struct ui_view *v, struct lines_view *p)
{
    if (ui->bm) {
        const struct ss_cmp_stats *cs = ui_cmp_line(ui);
        if (!cs)
            return -1;
        if (p->gen != ui->gen || p->vgen != ui->verdicts.vgen || p->sort != v->sort ||
            p->rev != v->sort_rev) {
            if (ui_table_sort(&p->order, cs->n, v->sort_rev, &ccolumns_min[csort_column[v->sort]],
                              cs)) {
                ui_error(ui, "out of memory");
                return -1;
            }
            p->n = cs->n;
        }
    } else {
        const struct ss_stats *st = ui_stats_line(ui);
        if (!st)
            return -1;
        if (p->gen != ui->gen || p->sort != v->sort || p->rev != v->sort_rev) {
            struct lines_ctx ctx = {{st}, ui, p};
            if (ui_table_sort(&p->order, st->n, v->sort_rev, &columns_min[sort_column[v->sort]],
                              &ctx)) {
                ui_error(ui, "out of memory");
                return -1;
            }
            p->n = st->n;
        }
    }
    p->gen = ui->gen;
    p->vgen = ui->verdicts.vgen;
    p->sort = v->sort;
    p->rev = v->sort_rev;
    return 0;
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct lines_view *p = v->priv;
    if (!ss_model_has_lines(ui->m)) {
        v->list.n = p->n = 0;
        pane_clear(&p->pane);
        return 0;
    }
    if (prepare_list(ui, v, p))
        return -1;
    struct pane *pn = &p->pane;
    if (!pn->on) {
        v->list.n = p->n;
        return 0;
    }
    if (!ui->bm && !ui_stats_line_memory(ui))
        return -1;
    if ((pn->gen != ui->gen || pn->cmp != (ui->bm != NULL) || !pn->hit) && pane_numbers(ui, p)) {
        ui_error(ui, "out of memory");
        return -1;
    }
    v->list.n = pn->nlines;
    if (pn->goto_line || pn->center == 2) {
        /* opening: the line asked for, else the hottest */
        uint32_t line = pn->goto_line ? pn->goto_line : pn->nhot ? pn->hot[0] : 1;
        for (size_t k = 0; k < pn->nhot; k++)
            if (pn->hot[k] == line)
                pn->hot_at = k;
        ui_list_select(&v->list, line - 1);
        pn->goto_line = 0;
        pn->center = 1;
    }
    return 0;
}

/* ---- drawing ------------------------------------------------------------------ */

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    struct lines_view *p = v->priv;
    if (!ss_model_has_lines(ui->m)) {
        snprintf(buf, n, "no line data");
    } else if (p && p->pane.on) {
        char lb[512];
        snprintf(buf, n, "%s, %s per line; ] [ hot lines",
                 ss_source_base_label(ui->m, p->pane.base, lb, sizeof lb),
                 ss_model_measure_name(ui->m));
    } else if (ui->bm) {
        snprintf(buf, n, "%zu compared, by %s%s; Enter: the file (new)", p ? p->n : 0,
                 csort_names[v->sort], v->sort_rev ? " (reversed)" : "");
    } else {
        char sn[128];
        snprintf(buf, n, "%zu by %s%s; Enter: the file", p ? p->n : 0,
                 ui_sort_name(ui, sort_names[v->sort], sn, sizeof sn),
                 v->sort_rev ? " (reversed)" : "");
    }
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    struct lines_view *p = v->priv;
    struct lines_ctx ctx = {{ui_stats_line(ui)}, ui, p};
    ui_table_cells(c, y, p->columns, NCOLS, &ctx, p->order[row], style, 0);
}

static void draw_compared_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y,
                              size_t row, int style)
{
    struct lines_view *p = v->priv;
    const struct ss_cmp_stats *cs = ui_cmp_line(ui);
    const struct ss_cmp_row *r = &cs->rows[p->order[row]];
    /* grew or shrank beyond noise: the flame graph's colours; `~` plain */
    int total = v->sort == CSORT_TOTAL_D || v->sort == CSORT_TOTAL_V;
    int sign = total ? r->vtotal.sign : r->vself.sign;
    if (style == UI_S_NORMAL && sign)
        style = sign > 0 ? UI_S_GREW2 : UI_S_SHRANK2;
    ui_table_cells(c, y, p->ccolumns, NCCOLS, cs, p->order[row], style, 0);
}

/* A bar of w cells for v of max: eighths of a cell in UTF-8, '#' else;
 * at least a sliver for any v > 0. */
static void bar(char *buf, size_t n, double v, double max, int w, int utf8)
{
    size_t k = 0;
    int eighths = max > 0 && v > 0 ? (int)(v / max * 8 * w + 0.5) : 0;
    if (v > 0 && eighths == 0)
        eighths = 1;
    for (int i = 0; i < w && k + 4 < n; i++, eighths -= 8) {
        if (eighths <= 0)
            break;
        if (!utf8) {
            buf[k++] = eighths >= 4 ? '#' : '.';
            continue;
        }
        int e = eighths >= 8 ? 8 : eighths; /* U+2588 full, U+258F one eighth */
        unsigned cp = 0x2590 - (unsigned)e;
        buf[k++] = (char)(0xe0 | (cp >> 12));
        buf[k++] = (char)(0x80 | ((cp >> 6) & 0x3f));
        buf[k++] = (char)(0x80 | (cp & 0x3f));
    }
    buf[k] = '\0';
}

/* The pane's columns for the profile: a comparison's, or one profile's
 * with the memory columns only for a memory profile.  Fills out[] (at
 * most 10) and slot[] (each one's index in its full array); returns the
 * count. */
static size_t pane_cols(struct ui *ui, const struct lines_view *p, struct ui_column *out,
                        size_t *slot)
{
    size_t n = 0;
    if (ui->bm) {
        for (size_t k = 0; k < NCPANE; k++, n++) {
            out[n] = p->cpane_columns[k];
            slot[n] = k;
        }
        return n;
    }
    int mem = ui_stats_line_memory(ui)->has_memory;
    for (size_t k = 0; k < NPANE; k++) {
        if (!mem && k >= P_ALLOC && k < P_NVAL)
            continue;
        out[n] = p->pane_columns[k];
        slot[n++] = k;
    }
    return n;
}

/* One line of the pane: its numbers (none for a line without samples) and
 * bars, its number (marked when in the function's range) and its text. */
static void draw_pane_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                          int style)
{
    struct lines_view *p = v->priv;
    struct pane *pn = &p->pane;
    const struct src_file *sf = &p->files[pn->file];
    int cmp = ui->bm != NULL;
    struct ui_column cols[10];
    size_t slot[10], ncols = pane_cols(ui, p, cols, slot), hit = pn->hit[row];
    char cells[10][64], num[32];
    const char *cp[10] = {NULL};
    struct ss_cellbuf cb = {NULL, 0};
    struct ss_stat_ctx sctx = {ui_stats_line_memory(ui)};
    const void *ctx = cmp ? (const void *)ui_cmp_line(ui) : (const void *)&sctx;
    double ord[2] = {0, 0}, val[4] = {0, 0, 0, 0};
    if (hit != SIZE_MAX)
        row_values(ui, hit, ord, val);
    for (size_t k = 0; k + 2 < ncols; k++) {
        cells[k][0] = '\0';
        if (hit != SIZE_MAX && cols[k].col)
            snprintf(cells[k], sizeof cells[k], "%s", ss_col_text(cols[k].col, ctx, hit, 0, &cb));
        else if (hit != SIZE_MAX && !cmp) /* a bar: slot 1, 3, 5, 7 for values 0..3 */
            bar(cells[k], sizeof cells[k], val[slot[k] / 2], pn->max[slot[k] / 2],
                ui_column_width(&cols[k]), c->utf8);
        cp[k] = cells[k];
    }
    ss_cellbuf_free(&cb);
    uint32_t line = (uint32_t)row + 1;
    int marked = pn->lo && line >= pn->lo && line <= pn->hi;
    snprintf(num, sizeof num, "%s%u", marked ? (c->utf8 ? "\xe2\x94\x82" : "|") : "", line);
    const char *text = sf->found ? ss_source_line(&sf->src, line) : NULL;
    cp[ncols - 2] = num;
    cp[ncols - 1] = text ? text : "";
    if (style == UI_S_NORMAL && hit == SIZE_MAX)
        style = UI_S_DIM;
    else if (style == UI_S_NORMAL && cmp && (ord[0] > 0 || ord[0] < 0))
        style = ord[0] > 0 ? UI_S_ERROR : UI_S_DIM; /* grew, shrank: as the list */
    ui_table_row(c, y, cols, ncols, cp, style, 0);
    /* the bars in the mark's colour, but on the selected row */
    for (size_t k = 0; !cmp && style != UI_S_SELECTED && k + 2 < ncols; k++) {
        int x = ui_table_column_x(c->w, cols, ncols, k);
        if (!cols[k].col && x >= 0 && cp[k][0])
            ui_canvas_style(c, y, x, ui_column_width(&cols[k]), UI_S_MARK, 0);
    }
}

/* A comparison's number columns, in the list and the pane alike (base,
 * new, delta of self, its verdict's mark, then of total): as wide as the
 * widest number of the line statistics, the deltas one more for the sign. */
static void cmp_widths(struct ui *ui, struct ui_column *cols)
{
    const struct ss_cmp_stats *cs = ui_cmp_line(ui);
    double widest = 0;
    for (size_t i = 0; cs && i < cs->n; i++) {
        const struct ss_cmp_row *r = &cs->rows[i];
        double w[] = {r->self_b, r->self_n, r->total_b, r->total_n};
        for (size_t k = 0; k < 4; k++)
            widest = w[k] > widest ? w[k] : widest;
    }
    int wv = ui_value_width(ui, widest, 8);
    for (int i = 0; i < 7; i++)
        if (i != 3)
            cols[i].width = wv + (i == 2 || i == 6);
}

/* The pane's column widths: the numbers' widest, the bars' share of the
 * screen (4 to 10 cells), the memory columns only for memory profiles. */
static void pane_layout(struct ui *ui, struct ui_canvas *c, struct lines_view *p)
{
    if (ui->bm) {
        cmp_widths(ui, p->cpane_columns);
        return;
    }
    const struct ss_stats *st = ui_stats_line_memory(ui);
    int mem = st->has_memory, nbars = mem ? 4 : 2;
    int wv = ui_value_width(ui, ui_stats_widest(st), 6);
    p->pane_columns[P_SELF].width = p->pane_columns[P_TOTAL].width = wv;
    int wm = 0;
    if (mem) {
        struct ss_cellbuf cb = {NULL, 0};
        struct ss_stat_ctx sctx = {st};
        for (size_t r = 0; r < st->n; r++)
            for (int k = SS_STAT_ALLOC; k <= SS_STAT_RELEASED; k++) {
                int len = (int)strlen(ss_col_text(&ss_line_columns[k], &sctx, r, 0, &cb));
                wm = len > wm ? len : wm;
            }
        ss_cellbuf_free(&cb);
        wm = wm < 5 ? 5 : wm;
    }
    p->pane_columns[P_ALLOC].width = p->pane_columns[P_REL].width = mem ? wm : 8;
    /* the text keeps at least 40 columns where it can */
    int fixed = 2 * wv + 2 * wm + 6 + (mem ? 4 : 2) + 6;
    int bw = (c->w - 40 - fixed) / nbars;
    bw = bw < 3 ? 3 : bw > 10 ? 10 : bw;
    for (int k = P_SELF_BAR; k < P_NVAL; k += 2)
        p->pane_columns[k].width = bw;
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct lines_view *p = v->priv;
    const char *note = NULL;
    if (v->list.n == 0)
        note = ss_model_has_lines(ui->m)
                   ? "no samples with a source position"
                   : "no line profiling data (Rprof(line.profiling = TRUE) records it)";
    if (p->pane.on) {
        pane_layout(ui, c, p);
        if (p->pane.center) { /* the selection in the middle (perf annotate) */
            size_t half = h > 2 ? (size_t)(h - 1) / 2 : 0;
            v->list.top = v->list.sel > half ? v->list.sel - half : 0;
            v->list.page = h - 1;
            p->pane.center = 0;
        }
        struct ui_column cols[10];
        size_t slot[10], ncols = pane_cols(ui, p, cols, slot);
        ui_table_draw(ui, v, c, y, h, cols, ncols, -1, 0, note, draw_pane_row);
        return;
    }
    if (ui->bm) {
        cmp_widths(ui, p->ccolumns);
        ui_table_draw(ui, v, c, y, h, p->ccolumns, NCCOLS, csort_column[v->sort], v->sort_rev, note,
                      draw_compared_row);
        return;
    }
    p->columns[0].width = p->columns[2].width =
        ui_value_width(ui, ui_stats_widest(ui_stats_line(ui)), 8);
    ui_table_draw(ui, v, c, y, h, p->columns, NCOLS, sort_column[v->sort], v->sort_rev, note,
                  draw_row);
}

/* ---- opening the pane ------------------------------------------------------ */

int ui_lines_open(struct ui *ui, const char *path, uint32_t line, uint32_t lo, uint32_t hi)
{
    struct ui_view *v = &ui->views[UI_V_LINES];
    struct lines_view *p = v->priv;
    long f = file_named(ui, p, path);
    if (f < 0) {
        ui_error(ui, "out of memory");
        return -1;
    }
    if (!p->files[f].found) {
        missing_message(ui, path);
        return -1;
    }
    const char *b;
    size_t bl;
    ss_basename(path, &b, &bl);
    char *base = strndup(b, bl);
    if (!base) {
        ui_error(ui, "out of memory");
        return -1;
    }
    int from_list = ui_current(ui) == v && !p->pane.on;
    if (from_list)
        p->list_sel = v->list.sel;
    pane_clear(&p->pane);
    struct pane *pn = &p->pane;
    pn->on = 1;
    pn->from_list = from_list;
    pn->file = f;
    pn->base = base;
    pn->lo = lo;
    pn->hi = hi;
    pn->goto_line = line;
    pn->center = 2;
    ui_open_view(ui, UI_V_LINES, NULL);
    ui_message(ui, "%s (read from %s): ] [ hot lines, Enter keep-line, q back", path,
               p->files[f].src.where);
    return 0;
}

/* The source lines of function fid: the file of its hottest line (by the
 * line statistics: self, then total) into *path (borrowed from the
 * model), that line, and the range of the function's lines in that file.
 * Returns 0, or -1 when the function has no source position. */
static int function_lines(struct ui *ui, ss_id fid, const char **path, uint32_t *line, uint32_t *lo,
                          uint32_t *hi)
{
    const struct ss_model *m = ui->m;
    const struct ss_stats *st = ui_stats_line(ui);
    double best[2] = {-1, -1};
    ss_id file = SS_NONE;
    for (size_t l = 0; st && l < m->locations.n; l++) {
        const struct ss_location *loc = &m->locations.v[l];
        if (loc->function == SS_NONE || !loc->line || loc->file == SS_NONE ||
            ss_function_canonical(m, loc->function) != fid)
            continue;
        const char *b;
        size_t bl;
        ss_basename(ss_str(m, loc->file), &b, &bl);
        double w[2] = {0, 0};
        for (size_t r = 0; r < st->n; r++) {
            const char *rb = base_of(st, &st->rows[r]);
            if (rb && st->rows[r].line == loc->line && strlen(rb) == bl && !memcmp(rb, b, bl)) {
                w[0] = st->rows[r].self_x;
                w[1] = st->rows[r].total_x;
                break;
            }
        }
        if (w[0] > best[0] || (!(w[0] < best[0]) && w[1] > best[1])) {
            best[0] = w[0];
            best[1] = w[1];
            file = loc->file;
            *line = loc->line;
        }
    }
    if (file == SS_NONE || ss_source_function_range(m, fid, file, lo, hi))
        return -1;
    *path = ss_str(m, file);
    return 0;
}

/* For a function without a source position of its own (R's base and
 * package functions): the line of the profile's source it was reached
 * from most often: in each stack through it, the first frame at or
 * outside its outermost frame that has a line (or the position after the
 * outermost frame), weighed by samples.  *path (borrowed), *line and the
 * calling function (SS_NONE for a top-level line) are set; returns 0, or
 * -1 when no stack through it reaches a line. */
static int reached_from(struct ui *ui, ss_id fid, const char **path, uint32_t *line, ss_id *caller)
{
    const struct ss_model *m = ui->m;
    size_t ns = ss_model_nstacks(m), nl = m->locations.n;
    uint64_t *cnt = ss_calloc_array(ns, sizeof *cnt), *at = ss_calloc_array(nl, sizeof *at);
    if (!cnt || !at) {
        free(cnt);
        free(at);
        return -1;
    }
    for (size_t i = 0; i < m->sample_stack.n; i++)
        cnt[m->sample_stack.v[i]] += (uint64_t)ss_sample_count(m, i);
    for (size_t st = 0; st < ns; st++) {
        const ss_id *fr = ss_stack_frames(m, (ss_id)st);
        size_t d = ss_stack_depth(m, (ss_id)st), k = d;
        for (size_t j = d; cnt[st] && j-- > 0 && k == d;)
            if (ss_function_canonical(m, ss_loc_function(m, fr[j])) == fid)
                k = j;
        ss_id hit = SS_NONE;
        for (size_t j = k; k < d && j < d && hit == SS_NONE; j++)
            if (m->locations.v[fr[j]].line && m->locations.v[fr[j]].file != SS_NONE)
                hit = fr[j];
        ss_id tail = m->stack_tail.v[st];
        if (k < d && hit == SS_NONE && tail != SS_NONE && m->locations.v[tail].file != SS_NONE)
            hit = tail;
        if (hit != SS_NONE)
            at[hit] += cnt[st];
    }
    ss_id best = SS_NONE;
    for (size_t l = 0; l < nl; l++)
        if (at[l] && (best == SS_NONE || at[l] > at[best]))
            best = (ss_id)l;
    free(cnt);
    free(at);
    if (best == SS_NONE)
        return -1;
    *path = ss_str(m, m->locations.v[best].file);
    *line = m->locations.v[best].line;
    *caller = m->locations.v[best].function == SS_NONE
                  ? SS_NONE
                  : ss_function_canonical(m, m->locations.v[best].function);
    return 0;
}

void ui_lines_show_selection(struct ui *ui, struct ui_view *v)
{
    ss_id file;
    uint32_t line, lo = 0, hi = 0;
    if (v->list.n == 0) {
        ui_error(ui, "nothing selected");
        return;
    }
    const char *fn = v->ops->row_function ? v->ops->row_function(ui, v, v->list.sel) : NULL;
    ss_id fid = fn ? ss_model_find_function(ui->m, fn) : SS_NONE;
    const char *path = NULL;
    uint32_t fline = 0;
    if (fid != SS_NONE && function_lines(ui, fid, &path, &fline, &lo, &hi))
        lo = hi = 0;
    if (v->ops->row_location && v->ops->row_location(ui, v, v->list.sel, &file, &line)) {
        /* a frame at its own line: there, its function's lines marked when
         * they are in that file */
        if (!path || strcmp(path, ss_str(ui->m, file)))
            lo = hi = 0;
        ui_lines_open(ui, ss_str(ui->m, file), line, lo, hi);
        return;
    }
    ss_id caller;
    if (!path && fid != SS_NONE && !reached_from(ui, fid, &path, &fline, &caller)) {
        /* the caller's lines marked, when they are in that file */
        const char *cp = NULL;
        uint32_t cl;
        if (caller == SS_NONE || function_lines(ui, caller, &cp, &cl, &lo, &hi) || strcmp(cp, path))
            lo = hi = 0;
        if (!ui_lines_open(ui, path, fline, lo, hi))
            ui_message(ui,
                       "%s has no source position of its own: the line it is reached from "
                       "most often",
                       fn);
        return;
    }
    if (!path) {
        ui_error(ui,
                 fn ? "%s has no source position in the profile (Rprof(line.profiling = "
                      "TRUE) records them)"
                    : "this row has no function or source line",
                 fn);
        return;
    }
    ui_lines_open(ui, path, fline, lo, hi);
}

/* ---- requests ------------------------------------------------------------------ */

/* Step to the next (dir > 0: cooler) or previous hot line, centred. */
static int step_hot(struct ui *ui, struct ui_view *v, struct pane *pn, int dir)
{
    if (!pn->nhot) {
        ui_error(ui, "no line of this file has samples");
        return UI_HANDLED;
    }
    /* from the selected line when it is hot, else from the last one stepped to */
    for (size_t k = 0; k < pn->nhot; k++)
        if (pn->hot[k] == v->list.sel + 1)
            pn->hot_at = k;
    pn->hot_at = (pn->hot_at + (dir > 0 ? 1 : pn->nhot - 1)) % pn->nhot;
    ui_list_select(&v->list, pn->hot[pn->hot_at] - 1);
    pn->center = 1;
    ui_message(ui, "hot line %zu of %zu: line %u", pn->hot_at + 1, pn->nhot, pn->hot[pn->hot_at]);
    return UI_HANDLED;
}

/* Enter on a line of the pane: keep only the samples through it. */
static int keep_line(struct ui *ui, struct ui_view *v, struct pane *pn)
{
    if (pn->hit[v->list.sel] == SIZE_MAX) {
        ui_error(ui, "line %zu has no samples: ] goes to the next hot line", v->list.sel + 1);
        return UI_HANDLED;
    }
    char key[4096], quoted[8200], cmd[8300];
    snprintf(key, sizeof key, "%s#%zu", pn->base, v->list.sel + 1);
    snprintf(cmd, sizeof cmd, "keep-line %s", ui_quote_name(key, quoted, sizeof quoted));
    ui_add_transform(ui, cmd, -1, -1);
    return UI_HANDLED;
}

static int pane_request(struct ui *ui, struct ui_view *v, struct lines_view *p, enum ui_request req)
{
    struct pane *pn = &p->pane;
    switch (req) {
    case UI_REQ_BACK:
        if (!pn->from_list) {
            pane_clear(pn);
            v->list.n = p->n;
            return UI_UNHANDLED; /* back to the view it came from */
        }
        pane_clear(pn);
        v->list.n = p->n;
        ui_list_select(&v->list, p->list_sel);
        return UI_HANDLED;
    case UI_REQ_LINE_ENTER:
    case UI_REQ_ENTER:
        return keep_line(ui, v, pn);
    case UI_REQ_HOT_NEXT:
    case UI_REQ_HOT_PREV:
        return step_hot(ui, v, pn, req == UI_REQ_HOT_NEXT ? 1 : -1);
    case UI_REQ_SOURCE_OPEN:
        ui_message(ui, "this is the code pane: ] and [ step through its hot lines");
        return UI_HANDLED;
    case UI_REQ_SORT_NEXT:
    case UI_REQ_SORT_REVERSE:
        ui_error(ui, "the code pane keeps the file's order: ] and [ go through the hot lines");
        return UI_HANDLED;
    default:
        return UI_UNHANDLED;
    }
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    struct lines_view *p = v->priv;
    if (!p)
        return UI_UNHANDLED;
    if (p->pane.on)
        return pane_request(ui, v, p, req);
    if (ui->bm ? ui_table_sort_click(ui, v, ev, p->ccolumns, NCCOLS, csort_column, NCSORTS,
                                     csort_names) == UI_HANDLED
               : ui_table_sort_click(ui, v, ev, p->columns, NCOLS, sort_column, NSORTS,
                                     sort_names) == UI_HANDLED)
        return UI_HANDLED;
    switch (req) {
    case UI_REQ_SORT_NEXT:
    case UI_REQ_SORT_REVERSE:
        return ui_sort_request(ui, v, req, ui->bm ? csort_names : sort_names,
                               ui->bm ? NCSORTS : NSORTS);
    case UI_REQ_HOT_NEXT:
    case UI_REQ_HOT_PREV:
        ui_error(ui, "] and [ step through the hot lines of the code pane: Enter opens it");
        return UI_HANDLED;
    case UI_REQ_ENTER:
    case UI_REQ_LINE_ENTER:
    case UI_REQ_SOURCE_OPEN: {
        if (v->list.n == 0)
            return UI_HANDLED;
        const char *key, *base;
        uint32_t line;
        list_row(ui, p, v->list.sel, &key, &base, &line);
        const char *path = base ? path_of_base(ui->m, base) : NULL;
        if (!path)
            ui_error(ui, "%s: no source file", key);
        else
            ui_lines_open(ui, path, line, 0, 0);
        return UI_HANDLED;
    }
    default:
        return UI_UNHANDLED;
    }
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    struct lines_view *p = v->priv;
    if (!p)
        return NULL;
    if (p->pane.on) {
        const struct src_file *sf = &p->files[p->pane.file];
        const char *t = sf->found ? ss_source_line(&sf->src, (uint32_t)r + 1) : NULL;
        return t ? t : "";
    }
    if (r >= p->n || (ui->bm ? !ui_cmp_line(ui) : !ui_stats_line(ui)))
        return NULL;
    const char *key, *base;
    uint32_t line;
    list_row(ui, p, r, &key, &base, &line);
    const char *text = base ? source_line(ui, p, base, line) : NULL;
    snprintf(buf, n, "%s %s", key, text ? text : "");
    return buf;
}

static void view_free(struct ui_view *v)
{
    struct lines_view *p = v->priv;
    for (size_t i = 0; i < p->nfiles; i++) {
        free(p->files[i].path);
        ss_source_file_free(&p->files[i].src);
    }
    free(p->files);
    free(p->order);
    pane_clear(&p->pane);
}

static void view_init(struct ui_view *v)
{
    struct lines_view *p = v->priv;
    memcpy(p->columns, columns_min, sizeof p->columns);
    memcpy(p->ccolumns, ccolumns_min, sizeof p->ccolumns);
    memcpy(p->pane_columns, pane_columns_min, sizeof p->pane_columns);
    memcpy(p->cpane_columns, cpane_columns_min, sizeof p->cpane_columns);
}

const struct ui_view_ops ui_view_lines = {
    .name = "lines",
    .priv_size = sizeof(struct lines_view),
    .init = view_init,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .free = view_free,
};
