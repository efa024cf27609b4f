/* view_lines.c - time per source line (`report --by line`, R's
 * lines="show"), with the text of the line when the source file is on
 * disk.  Enter on a line shows its whole file annotated with the time of
 * each line (perf annotate); Enter or q... q goes back to the list.
 *
 * Rprof names a file by the path R was given (relative to R's working
 * directory), so a file is looked for as written, then next to each input
 * profile.  Files are read once and kept; nothing is read when the profile
 * has no line data. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app.h"
#include "report.h"
#include "report_compare.h"
#include "vec.h"

enum { SORT_SELF, SORT_TOTAL, SORT_POS, NSORTS };
static const char *const sort_names[NSORTS] = {"self time", "total time", "position"};
static const int sort_column[NSORTS] = {0, 2, 4};

/* The view's own column: the text of the line (source_line). */
static void cell_source(char *buf, size_t n, const void *ctx, size_t r, int tsv);
static const struct ss_col source_col = {"source", NULL, 0, 0, 0, cell_source, NULL, NULL, 0};

/* self and total widen to the measure's numbers (draw) */
static struct ui_column columns[] = {
    {"self", 8, 1, &ss_line_columns[SS_STAT_SELF]},
    {"self%", 6, 1, &ss_line_columns[SS_STAT_SELF_PCT]},
    {"total", 8, 1, &ss_line_columns[SS_STAT_TOTAL]},
    {"total%", 6, 1, &ss_line_columns[SS_STAT_TOTAL_PCT]},
    {"location", 20, 0, &ss_line_columns[SS_STAT_NAME]},
    {"source", 0, 3, &source_col},
};
#define NCOLS ARRAY_SIZE(columns)

/* A comparison (--base): base, new and delta of self and total per line
 * (`report --base --by line`), sorted by self delta. */
enum { CSORT_SELF_D, CSORT_TOTAL_D, CSORT_SELF_V, CSORT_TOTAL_V, CSORT_POS, NCSORTS };
static const char *const csort_names[NCSORTS] = {"self delta", "total delta", "self verdict",
                                                 "total verdict", "position"};
static const int csort_column[NCSORTS] = {2, 6, 3, 7, 8};
/* the numbers take the room of the source text, which is left out */
static struct ui_column ccolumns[] = {
    {"base", 8, 1, &ss_cmp_line_columns[SS_CMP_SELF_B]},
    {"self", 8, 1, &ss_cmp_line_columns[SS_CMP_SELF]},
    {"delta", 9, 1, &ss_cmp_line_columns[SS_CMP_SELF_D]},
    {"v", 1, 0, &ss_cmp_line_columns[SS_CMP_SELF_MARK]},
    {"base", 8, 1, &ss_cmp_line_columns[SS_CMP_TOTAL_B]},
    {"total", 8, 1, &ss_cmp_line_columns[SS_CMP_TOTAL]},
    {"delta", 9, 1, &ss_cmp_line_columns[SS_CMP_TOTAL_D]},
    {"v", 1, 0, &ss_cmp_line_columns[SS_CMP_TOTAL_MARK]},
    {"location", 0, 0, &ss_cmp_line_columns[SS_CMP_NAME]},
};
#define NCCOLS (sizeof ccolumns / sizeof *ccolumns)

#define MAX_SOURCE (16u << 20) /* larger files are not shown */

struct source_file {
    char *name;  /* the path as the profile wrote it (owned) */
    char *text;  /* its contents, NULL when not found */
    size_t *off; /* start of each line */
    size_t nlines;
    unsigned tried; /* ui->source_gen when last looked for (not found: again after a new dir) */
};

struct lines_view {
    unsigned gen;
    int sort, rev;
    uint32_t *order;
    size_t n;
    struct source_file *files; /* kept across edits: files do not change */
    size_t nfiles;
    /* file mode: one file, every line */
    int file_mode;
    long file;       /* index into files */
    char *file_base; /* its basename as the statistics key it */
    size_t list_sel; /* the list selection to come back to */
};

/* ---- source files -------------------------------------------------------- */

static char *read_file(const char *path, size_t *len)
{
    struct stat sb;
    if (stat(path, &sb) || !S_ISREG(sb.st_mode) || (size_t)sb.st_size > MAX_SOURCE)
        return NULL;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *t = malloc((size_t)sb.st_size + 1);
    size_t n = t ? fread(t, 1, (size_t)sb.st_size, f) : 0;
    fclose(f);
    if (!t)
        return NULL;
    t[n] = '\0';
    *len = n;
    return t;
}

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

/* Look for `name` under directory dir as pprof's -source_path does: dir/name,
 * then dir/ followed by each shorter tail of name (a/b/c.R, b/c.R, c.R), so
 * a tree moved to another prefix is found without -trim_path. */
static char *read_under(const char *dir, const char *name, size_t *len)
{
    for (const char *tail = name; tail; tail = strchr(tail, '/')) {
        while (*tail == '/')
            tail++;
        if (!*tail)
            break;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, tail);
        char *t = read_file(path, len);
        if (t)
            return t;
    }
    return NULL;
}

/* Tabs to spaces up to the next stop of 8 columns (counting characters,
 * not bytes of UTF-8), so source text keeps its indentation on screen. */
static char *expand_tabs(char *t, size_t *len)
{
    size_t tabs = 0;
    for (size_t i = 0; i < *len; i++)
        tabs += t[i] == '\t';
    if (!tabs)
        return t;
    char *o = malloc(*len + tabs * 7 + 1);
    if (!o)
        return t; /* shown with '?' rather than not at all */
    size_t k = 0, col = 0;
    for (size_t i = 0; i < *len; i++) {
        unsigned char ch = (unsigned char)t[i];
        if (ch == '\t') {
            do
                o[k++] = ' ';
            while (++col % 8);
            continue;
        }
        o[k++] = (char)ch;
        if (ch == '\n')
            col = 0;
        else if ((ch & 0xc0) != 0x80)
            col++;
    }
    o[k] = '\0';
    free(t);
    *len = k;
    return o;
}

/* Load `name` as written, else next to each input file, else under each
 * source directory (--source-path, :source-path). */
static int load_source(struct ui *ui, struct source_file *sf)
{
    size_t len = 0;
    char *t = read_file(sf->name, &len);
    for (int i = 0; !t && sf->name[0] != '/' && i < ui->nfiles; i++) {
        const char *slash = strrchr(ui->files[i], '/');
        if (!slash)
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - ui->files[i]), ui->files[i], sf->name);
        t = read_file(path, &len);
    }
    for (size_t i = 0; !t && i < ui->nsource_paths; i++)
        t = read_under(ui->source_paths[i], sf->name, &len);
    if (!t)
        return 0;
    t = expand_tabs(t, &len);
    size_t cap = 64, n = 0;
    size_t *off = ss_alloc_array(cap, sizeof *off);
    if (!off) {
        free(t);
        return -1;
    }
    off[n++] = 0;
    for (size_t i = 0; i < len; i++) {
        if (t[i] != '\n')
            continue;
        t[i] = '\0';
        if (i > 0 && t[i - 1] == '\r')
            t[i - 1] = '\0';
        if (i + 1 >= len)
            break;
        if (n == cap) {
            size_t *no = ss_realloc_array(off, cap * 2, sizeof *off);
            if (!no) {
                free(off);
                free(t);
                return -1;
            }
            off = no;
            cap *= 2;
        }
        off[n++] = i + 1;
    }
    sf->text = t;
    sf->off = off;
    sf->nlines = len ? n : 0;
    return 0;
}

/* The file whose basename is `base`: the first path of the model with that
 * basename (loaded on first use), or -1. */
static long find_file(struct ui *ui, struct lines_view *p, const char *base)
{
    for (size_t i = 0; i < p->nfiles; i++) {
        const char *b = strrchr(p->files[i].name, '/');
        if (strcmp(b ? b + 1 : p->files[i].name, base))
            continue;
        if (!p->files[i].text && p->files[i].tried != ui->source_gen) {
            p->files[i].tried = ui->source_gen;
            if (load_source(ui, &p->files[i]))
                return -1;
        }
        return (long)i;
    }
    const struct ss_model *m = ui->m;
    for (size_t l = 0; l < m->locations.n; l++) {
        ss_id f = m->locations.v[l].file;
        if (f == SS_NONE)
            continue;
        const char *name = ss_str(m, f);
        const char *b = strrchr(name, '/');
        if (strcmp(b ? b + 1 : name, base))
            continue;
        struct source_file *nf = ss_realloc_array(p->files, p->nfiles + 1, sizeof *nf);
        if (!nf)
            return -1;
        p->files = nf;
        memset(&nf[p->nfiles], 0, sizeof *nf);
        nf[p->nfiles].name = strdup(name);
        nf[p->nfiles].tried = ui->source_gen;
        if (!nf[p->nfiles].name || load_source(ui, &nf[p->nfiles]))
            return -1;
        return (long)p->nfiles++;
    }
    return -1;
}

/* The text of line `line` of the file keyed `base` (leading blanks
 * dropped), or NULL. */
static const char *source_line(struct ui *ui, struct lines_view *p, const char *base, uint32_t line)
{
    long f = find_file(ui, p, base);
    if (f < 0 || !p->files[f].text || line == 0 || line > p->files[f].nlines)
        return NULL;
    const char *s = p->files[f].text + p->files[f].off[line - 1];
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* ---- the list ------------------------------------------------------------ */

static const char *base_of(const struct ss_stats *st, const struct ss_stat_row *r)
{
    return r->file == SS_NONE ? NULL : ss_strtab_get(&st->keys, r->file);
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
        *base = r->file == SS_NONE ? NULL : ss_strtab_get(&cs->keys, r->file);
        *line = r->line;
        return;
    }
    const struct ss_stats *st = ui_stats_line(ui);
    const struct ss_stat_row *r = &st->rows[p->order[row]];
    *key = ss_strtab_get(&st->keys, r->key);
    *base = base_of(st, r);
    *line = r->line;
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct lines_view *p = v->priv;
    if (ui->bm && ss_model_has_lines(ui->m)) {
        const struct ss_cmp_stats *cs = ui_cmp_line(ui);
        if (!cs)
            return -1;
        if (p->gen != ui->gen || p->sort != v->sort || p->rev != v->sort_rev) {
            if (ui_table_sort(&p->order, cs->n, v->sort_rev, &ccolumns[csort_column[v->sort]],
                              cs)) {
                ui_error(ui, "out of memory");
                return -1;
            }
            p->n = cs->n;
            p->gen = ui->gen;
            p->sort = v->sort;
            p->rev = v->sort_rev;
        }
        v->list.n = p->file_mode ? p->files[p->file].nlines : p->n;
        return 0;
    }
    if (!ss_model_has_lines(ui->m)) {
        v->list.n = 0;
        p->n = 0;
        p->file_mode = 0;
        return 0;
    }
    const struct ss_stats *st = ui_stats_line(ui);
    if (!st)
        return -1;
    if (p->gen != ui->gen || p->sort != v->sort || p->rev != v->sort_rev) {
        struct lines_ctx ctx = {{st}, ui, p};
        if (ui_table_sort(&p->order, st->n, v->sort_rev, &columns[sort_column[v->sort]], &ctx)) {
            ui_error(ui, "out of memory");
            return -1;
        }
        p->n = st->n;
        p->gen = ui->gen;
        p->sort = v->sort;
        p->rev = v->sort_rev;
    }
    if (p->file_mode)
        v->list.n = p->files[p->file].nlines;
    else
        v->list.n = p->n;
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    struct lines_view *p = v->priv;
    if (!ss_model_has_lines(ui->m))
        snprintf(buf, n, "no line data");
    else if (p && p->file_mode)
        snprintf(buf, n, "%s, %s per line (q: back to the list)", p->files[p->file].name,
                 ss_model_measure_name(ui->m));
    else if (ui->bm)
        snprintf(buf, n, "%zu compared, by %s%s; Enter: the file (new)", p ? p->n : 0,
                 csort_names[v->sort], v->sort_rev ? " (reversed)" : "");
    else {
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
    ui_table_cells(c, y, columns, NCOLS, &ctx, p->order[row], style, 0);
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
    ui_table_cells(c, y, ccolumns, NCCOLS, cs, p->order[row], style, 0);
}

/* File mode: every line of the file with the time of the ones sampled. */
static void draw_file_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                          int style)
{
    struct lines_view *p = v->priv;
    const struct ss_stats *st = ui_stats_line(ui);
    const struct source_file *sf = &p->files[p->file];
    char b[5][64] = {"", "", "", "", ""};
    struct lines_ctx ctx = {{st}, ui, p};
    struct ss_cellbuf cb = {NULL, 0};
    for (size_t i = 0; i < p->n; i++) {
        const struct ss_stat_row *r = &st->rows[p->order[i]];
        const char *base = base_of(st, r);
        if (r->line == row + 1 && base && !strcmp(base, p->file_base)) {
            /* the list's cells of the line's row */
            for (int k = 0; k < 4; k++)
                snprintf(b[k], sizeof b[k], "%s",
                         ss_col_text(columns[k].col, &ctx, p->order[i], 0, &cb));
            break;
        }
    }
    ss_cellbuf_free(&cb);
    snprintf(b[4], sizeof b[4], "%zu", row + 1);
    const char *text = sf->text + sf->off[row]; /* tabs expanded when read */
    const char *cells[NCOLS] = {b[0], b[1], b[2], b[3], b[4], text};
    ui_table_row(c, y, columns, NCOLS, cells, b[0][0] || style != UI_S_NORMAL ? style : UI_S_DIM,
                 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct lines_view *p = v->priv;
    const char *note = NULL;
    if (v->list.n == 0)
        note = ss_model_has_lines(ui->m)
                   ? "no samples with a source position"
                   : "no line profiling data (Rprof(line.profiling = TRUE) records it)";
    int file_mode = p && p->file_mode;
    if (ui->bm && !file_mode) {
        const struct ss_cmp_stats *cs = ui_cmp_line(ui);
        double widest = 0;
        for (size_t i = 0; cs && i < cs->n; i++) {
            const struct ss_cmp_row *r = &cs->rows[i];
            double w[] = {r->self_b, r->self_n, r->total_b, r->total_n};
            for (size_t k = 0; k < 4; k++)
                if (w[k] > widest)
                    widest = w[k];
        }
        int wv = ui_value_width(ui, widest, 8);
        for (int i = 0; i < 7; i++)
            if (i != 3)
                ccolumns[i].width = wv + (i == 2 || i == 6);
        ui_table_draw(ui, v, c, y, h, ccolumns, NCCOLS, csort_column[v->sort], v->sort_rev, note,
                      draw_compared_row);
        return;
    }
    columns[0].width = columns[2].width = ui_value_width(ui, ui_stats_widest(ui_stats_line(ui)), 8);
    ui_table_draw(ui, v, c, y, h, columns, NCOLS, file_mode ? -1 : sort_column[v->sort],
                  v->sort_rev, note, file_mode ? draw_file_row : draw_row);
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    struct lines_view *p = v->priv;
    if (!p)
        return UI_UNHANDLED;
    if (p->file_mode && (req == UI_REQ_BACK || req == UI_REQ_ENTER)) {
        p->file_mode = 0;
        free(p->file_base);
        p->file_base = NULL;
        v->list.n = p->n;
        ui_list_select(&v->list, p->list_sel);
        return UI_HANDLED;
    }
    if (p->file_mode)
        return req == UI_REQ_SORT_NEXT || req == UI_REQ_SORT_REVERSE ? UI_HANDLED : UI_UNHANDLED;
    if (ui->bm ? ui_table_sort_click(ui, v, ev, ccolumns, NCCOLS, csort_column, NCSORTS,
                                     csort_names) == UI_HANDLED
               : ui_table_sort_click(ui, v, ev, columns, NCOLS, sort_column, NSORTS, sort_names) ==
                     UI_HANDLED)
        return UI_HANDLED;
    switch (req) {
    case UI_REQ_SORT_NEXT:
    case UI_REQ_SORT_REVERSE:
        return ui_sort_request(ui, v, req, ui->bm ? csort_names : sort_names,
                               ui->bm ? NCSORTS : NSORTS);
    case UI_REQ_ENTER: {
        if (v->list.n == 0)
            return UI_HANDLED;
        const char *key, *base;
        uint32_t line;
        list_row(ui, p, v->list.sel, &key, &base, &line);
        long f = base ? find_file(ui, p, base) : -1;
        if (f < 0 || !p->files[f].text || p->files[f].nlines == 0) {
            ui_error(ui, "%s: the source file is not on disk here", base ? base : key);
            return UI_HANDLED;
        }
        p->file_base = strdup(base);
        if (!p->file_base)
            return UI_HANDLED;
        p->file_mode = 1;
        p->file = f;
        p->list_sel = v->list.sel;
        v->list.n = p->files[f].nlines;
        ui_list_select(&v->list, line ? line - 1 : 0);
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
    if (p->file_mode)
        return p->files[p->file].text + p->files[p->file].off[r];
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
        free(p->files[i].name);
        free(p->files[i].text);
        free(p->files[i].off);
    }
    free(p->files);
    free(p->order);
    free(p->file_base);
}

const struct ui_view_ops ui_view_lines = {
    .name = "lines",
    .priv_size = sizeof(struct lines_view),
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
    .free = view_free,
};
