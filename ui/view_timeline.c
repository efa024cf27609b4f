/* view_timeline.c - the samples in time order across the screen, one row
 * per level from the root, each cell the function most frequent there
 * (a letter, and a colour where the terminal has them; the legend says
 * which is which).  Phases show as runs of one letter: a burn-in at the
 * start, a fade-out at the end.  The cursor is a cell: h/l move it in
 * time, j/k in levels; + and - zoom around it, z shows everything again.
 * `m` marks the start of a range, and with the cursor at its end `d`
 * drops the range (drop-samples A:B) or `K` keeps only it (keep-samples);
 * `v` marks the phase under the cursor, as the detector found it (phases.h:
 * a stretch with one mix of work below the scaffold, to the exact sample),
 * and then d and K drop or keep it (drop-phase N, keep-phase N).  A row
 * under the grid names the phases (the number, '*' for the main one, the
 * function that tells it apart) and the ruler marks where each starts.
 *
 * Only the rows on screen are computed (the core's grid, timeline.h), from
 * one pass over the samples shown, and only when the model, zoom, size or
 * scroll changed.
 *
 * In a comparison (--base) a row under the grid shows the base at the
 * cursor's level: the same share of the base's samples as the grid shows
 * of the new profile's, in as many columns, with the new profile's letters
 * ('?': a function only in the base); the info line adds the base's cell. */
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "timeline.h"
#include "vec.h"

#define MARGIN 6 /* "%4u* " level numbers */

static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
#define NLETTERS (sizeof letters - 1)

struct tl_view {
    unsigned gen; /* the model the range refers to */
    int started;
    size_t first, n;     /* zoom: samples [first, first + n) */
    size_t cursor;       /* first sample of the cursor's column */
    long mark_a, mark_b; /* the marked column's samples [a, b), or -1 */
    int mark_exact;      /* the mark is a whole range (a phase): the cursor does not extend it */
    size_t mark_phase;   /* the mark is detected phase mark_phase (1-based), 0: none */
    int rows;            /* timeline rows stand for several samples (count values other than 1,
                          * pprof): say "rows", as drop-samples numbers them */
    uint32_t want_level; /* select this level at the next prepare */
    size_t want_phase;   /* zoom to and mark this detected phase (1-based) at the next prepare */
    const ss_id *canon;  /* the model's function_canon (borrowed) */
    unsigned canon_gen;
    struct ss_timeline_grid g;
    int have_grid;
    unsigned g_gen;
    size_t g_width;
    /* the legend: functions in order of first appearance on screen */
    ss_id *leg;
    char *leg_ch; /* the letter of each */
    size_t nleg;
    uint8_t *leg_of_set; /* per function: has an index in leg_idx */
    uint32_t *leg_idx;
    /* Letters by canonical function id, kept for the whole session (across
     * transforms, zooms and scrolls: the model keeps function ids):
     * letter[f] is 0 until f first shows.  When all are given, a letter
     * goes to a new function from one not on screen; else '+'. */
    char *letter;
    size_t nletter;
    ss_id owner[256]; /* the function holding each letter, SS_NONE: free */
    int legend_full;  /* L: the whole legend in place of the grid */
    /* a comparison: the base's row at one level (base_grid) */
    struct ss_timeline_grid bg;
    int have_bg;
    unsigned bg_gen;
    size_t bg_first, bg_n, bg_width; /* the new profile's range and columns it matches */
    uint32_t bg_level;
    /* `/`: the functions that match the search (per function id, for the
     * model match_gen), whose cells are highlighted; NULL: no search */
    uint8_t *match;
    unsigned match_gen;
};

/* A function's letter: the first letter or digit of its name when free
 * (lower case, then upper case), else the first free one, else '+'; so
 * `main` is m and `lm.fit` is l wherever possible. */
static char pick_letter(const char *name, const uint8_t *used)
{
    for (const char *s = name; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            char lo = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
            char up = (char)(lo >= 'a' && lo <= 'z' ? lo - 'a' + 'A' : lo);
            if (!used[(unsigned char)lo])
                return lo;
            if (!used[(unsigned char)up])
                return up;
            break;
        }
    }
    for (size_t i = 0; i < NLETTERS; i++)
        if (!used[(unsigned char)letters[i]])
            return letters[i];
    return '+';
}

/* No range marked yet, no letter given. */
static void view_init(struct ui_view *v)
{
    struct tl_view *p = v->priv;
    p->mark_a = p->mark_b = -1;
    for (size_t i = 0; i < 256; i++)
        p->owner[i] = SS_NONE;
}

/* The letter of canonical function f, given now if it has none (see
 * struct tl_view); '+' when none is left.  -1 when out of memory. */
static int letter_of(struct ui *ui, struct tl_view *p, ss_id f)
{
    if (f >= p->nletter) {
        size_t n = ui->m->functions.n > f ? ui->m->functions.n : (size_t)f + 1;
        char *nl = realloc(p->letter, n);
        if (!nl)
            return -1;
        memset(nl + p->nletter, 0, n - p->nletter);
        p->letter = nl;
        p->nletter = n;
    }
    if (p->letter[f] && p->letter[f] != '+')
        return p->letter[f];
    uint8_t used[256];
    for (size_t i = 0; i < 256; i++)
        used[i] = p->owner[i] != SS_NONE;
    char ch = pick_letter(ss_function_name(ui->m, f), used);
    if (ch == '+') /* take one from a function not on screen */
        for (size_t i = 0; i < NLETTERS && ch == '+'; i++) {
            ss_id o = p->owner[(unsigned char)letters[i]];
            if (o != SS_NONE && (o >= ui->m->functions.n || !p->leg_of_set[o])) {
                p->letter[o] = 0;
                p->owner[(unsigned char)letters[i]] = SS_NONE;
                ch = letters[i];
            }
        }
    if (ch != '+')
        p->owner[(unsigned char)ch] = f;
    p->letter[f] = ch;
    return ch;
}

/* The colour of a letter: its place among the letters. */
static int letter_style(char ch)
{
    const char *at = ch == '+' ? NULL : strchr(letters, ch);
    return at ? UI_S_FN0 + (int)((at - letters) % UI_NFNCOLORS) : UI_S_NORMAL;
}

void ui_timeline_show_level(struct ui *ui, uint32_t level)
{
    struct ui_view *v = &ui->views[UI_V_TIMELINE];
    struct tl_view *p = v->priv;
    if (p)
        p->want_level = level;
    ui_open_view(ui, UI_V_TIMELINE, NULL);
}

void ui_timeline_show_phase(struct ui *ui, size_t k)
{
    struct ui_view *v = &ui->views[UI_V_TIMELINE];
    struct tl_view *p = v->priv;
    if (p)
        p->want_phase = k + 1;
    ui_open_view(ui, UI_V_TIMELINE, NULL);
}

static size_t total_samples(const struct ui *ui)
{
    return ui->m->sample_stack.n;
}

/* Seconds of sampling time before sample i (count values x their sources'
 * intervals). */
static double time_at(const struct ss_model *m, size_t i)
{
    double t = 0;
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        if (i < src->first_sample + src->n_samples) {
            if (i > src->first_sample)
                t += (double)ss_model_count(m, src->first_sample, i - src->first_sample) *
                     ss_source_interval_s(m, (ss_id)s);
            break;
        }
        t += (double)ss_model_count(m, src->first_sample, src->n_samples) *
             ss_source_interval_s(m, (ss_id)s);
    }
    return t;
}

/* Seconds of sampling time of samples [a, b): so the axis reads the
 * samples shown once, not from the start for every label. */
static double time_between(const struct ss_model *m, size_t a, size_t b)
{
    double t = 0;
    for (size_t s = 0; s < m->sources.n && a < b; s++) {
        const struct ss_source *src = &m->sources.v[s];
        size_t lo = src->first_sample, hi = src->first_sample + src->n_samples;
        if (hi <= a || lo >= b)
            continue;
        size_t x = a > lo ? a : lo, y = b < hi ? b : hi;
        t += (double)ss_model_count(m, x, y - x) * ss_source_interval_s(m, (ss_id)s);
    }
    return t;
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct tl_view *p = v->priv;
    const struct ss_level_row *rows;
    size_t nl;
    if (ui_levels(ui, &rows, &nl, NULL))
        return -1;
    if (!p->started || p->gen != ui->gen) {
        /* a new model: the old sample numbers mean nothing now */
        if (!p->started) {
            /* start below the 95% scaffold, where the phases show (as report) */
            v->list.sel = ss_levels_timeline_level(rows, nl) - 1;
        }
        p->first = 0;
        p->n = total_samples(ui);
        p->rows = ss_model_count(ui->m, 0, ui->m->sample_stack.n) != ui->m->sample_stack.n;
        p->cursor = 0;
        p->mark_a = p->mark_b = -1;
        p->mark_exact = 0;
        p->mark_phase = 0;
        p->gen = ui->gen;
        p->started = 1;
    }
    if (p->canon_gen != ui->gen || !p->canon) {
        p->canon = ui->m->function_canon.v;
        p->canon_gen = ui->gen;
        free(p->leg);
        free(p->leg_of_set);
        free(p->leg_idx);
        size_t nf = ui->m->functions.n ? ui->m->functions.n : 1;
        p->leg = ss_alloc_array(nf, sizeof *p->leg);
        free(p->leg_ch);
        p->leg_ch = ss_alloc_array(nf, 1);
        p->leg_of_set = ss_calloc_array(nf, 1);
        p->leg_idx = ss_alloc_array(nf, sizeof *p->leg_idx);
        p->nleg = 0;
        if (!p->leg || !p->leg_ch || !p->leg_of_set || !p->leg_idx) {
            ui_error(ui, "out of memory");
            return -1;
        }
    }
    v->list.n = nl;
    if (p->want_phase) {
        size_t k = p->want_phase - 1;
        const struct ss_phases *ph = ui_phases(ui);
        p->want_phase = 0;
        if (ph && k < ph->n) {
            p->first = p->cursor = ph->v[k].first;
            p->n = ph->v[k].n;
            p->mark_a = (long)ph->v[k].first;
            p->mark_b = (long)(ph->v[k].first + ph->v[k].n);
            p->mark_exact = 1;
            p->mark_phase = k + 1;
        }
    }
    if (p->want_level) {
        v->list.sel = p->want_level <= nl ? p->want_level - 1 : (nl ? nl - 1 : 0);
        p->want_level = 0;
    }
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    struct tl_view *p = v->priv;
    if (!p)
        return;
    if (ui_no_order_note(ui)) {
        snprintf(buf, n, "none without time order");
        return;
    }
    double t0 = time_at(ui->m, p->first), t1 = t0 + time_between(ui->m, p->first, p->first + p->n);
    int k = snprintf(buf, n, "%s %zu-%zu of %zu", p->rows ? "rows" : "samples",
                     p->n ? p->first + 1 : 0, p->first + p->n, total_samples(ui));
    if (p->rows && k > 0 && (size_t)k < n) /* each row stands for its count of samples */
        k += snprintf(buf + k, n - (size_t)k, " (%llu samples)",
                      (unsigned long long)ss_model_count(ui->m, p->first, p->n));
    if (k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, ", %.3f-%.3f s%s", t0, t1,
                 p->n < total_samples(ui) ? " (z: all)" : "");
}

/* The grid for the rows on screen (recomputed only when needed). */
static int grid(struct ui *ui, struct ui_view *v, struct tl_view *p, size_t width, int rows)
{
    uint32_t level0 = (uint32_t)v->list.top + 1;
    uint32_t nlevels = (uint32_t)rows;
    if (v->list.top + (size_t)rows > v->list.n)
        nlevels = (uint32_t)(v->list.n - v->list.top);
    if (p->have_grid && p->g_gen == ui->gen && p->g.first == p->first && p->g.n == p->n &&
        p->g_width == width && p->g.level0 == level0 && p->g.nlevels == nlevels)
        return 0;
    if (p->have_grid)
        ss_timeline_grid_free(&p->g);
    p->have_grid = 0;
    struct ss_error err;
    if (ss_timeline_grid_compute(ui->m, p->first, p->n, width, level0, nlevels, &p->g, &err)) {
        ui_error(ui, "out of memory (timeline)");
        return -1;
    }
    p->have_grid = 1;
    p->g_gen = ui->gen;
    p->g_width = width;
    /* the legend, in order of first appearance (rows, then columns) */
    for (size_t i = 0; i < p->nleg; i++)
        p->leg_of_set[p->leg[i]] = 0;
    p->nleg = 0;
    for (uint32_t r = 0; r < p->g.nlevels; r++)
        for (size_t c = 0; c < p->g.ncols; c++) {
            ss_id f = p->g.top[c * p->g.nlevels + r];
            if (f != SS_NONE && !p->leg_of_set[f]) {
                p->leg_of_set[f] = 1;
                p->leg_idx[f] = (uint32_t)p->nleg;
                p->leg[p->nleg++] = f;
            }
        }
    /* letters: first those that have one, so a new function takes a letter
     * only from functions off screen */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < p->nleg; i++) {
            ss_id f = p->leg[i];
            int has = f < p->nletter && p->letter[f] && p->letter[f] != '+';
            if (has != !pass)
                continue;
            int ch = letter_of(ui, p, f);
            if (ch < 0) {
                ui_error(ui, "out of memory (timeline)");
                return -1;
            }
            p->leg_ch[i] = (char)ch;
        }
    return 0;
}

/* Keep the cursor on a column start inside the range. */
static void align_cursor(struct tl_view *p)
{
    size_t w = p->g.window ? p->g.window : 1;
    if (p->cursor < p->first)
        p->cursor = p->first;
    size_t col = (p->cursor - p->first) / w;
    if (p->g.ncols && col >= p->g.ncols)
        col = p->g.ncols - 1;
    p->cursor = p->first + col * w;
}

static size_t cursor_col(const struct tl_view *p)
{
    size_t w = p->g.window ? p->g.window : 1;
    return p->cursor >= p->first ? (p->cursor - p->first) / w : 0;
}

/* The detected phase under the cursor (the phase of the middle sample of
 * its column), 0-based, or -1 when there is none (message set). */
static int cursor_phase(struct ui *ui, const struct tl_view *p, size_t *k)
{
    const struct ss_phases *ph = ui_phases(ui);
    size_t i = p->cursor + (p->g.window ? p->g.window / 2 : 0);
    if (i >= p->first + p->n)
        i = p->first + p->n ? p->first + p->n - 1 : 0;
    if (!ph || ph->n == 0)
        return -1;
    *k = ss_phases_find(ph, i);
    return *k < ph->n ? 0 : -1;
}

/* The marked range (the mark to the cursor's column, or an exact phase),
 * 0-based [a, b); -1 when nothing is marked. */
static int mark_bounds(const struct tl_view *p, size_t *a, size_t *b)
{
    if (p->mark_a < 0)
        return -1;
    if (p->mark_exact) {
        *a = (size_t)p->mark_a;
        *b = (size_t)p->mark_b;
        return 0;
    }
    size_t ca = p->cursor, cb = ca + (p->g.window ? p->g.window : 1);
    if (cb > p->first + p->n)
        cb = p->first + p->n;
    *a = (size_t)p->mark_a < ca ? (size_t)p->mark_a : ca;
    *b = (size_t)p->mark_b > cb ? (size_t)p->mark_b : cb;
    return 0;
}

/* The range from the mark to the cursor's column, 1-based inclusive. */
static int marked_range(struct tl_view *p, size_t *a1, size_t *b1)
{
    size_t a, b;
    if (mark_bounds(p, &a, &b))
        return -1;
    *a1 = a + 1;
    *b1 = b;
    return 0;
}

/* L: every letter on screen and its function, in columns, in place of the
 * grid. */
/* The base's row at `level` for the samples of the base that are the
 * share of its timeline the grid shows of the new profile's, in the grid's
 * columns (recomputed only when needed).  Returns 0 or -1 (message set). */
static int base_grid(struct ui *ui, struct tl_view *p, uint32_t level)
{
    size_t width = p->g.ncols ? p->g.ncols : 1;
    if (p->have_bg && p->bg_gen == ui->gen && p->bg_first == p->first && p->bg_n == p->n &&
        p->bg_width == width && p->bg_level == level)
        return 0;
    if (p->have_bg)
        ss_timeline_grid_free(&p->bg);
    p->have_bg = 0;
    size_t nn = total_samples(ui), nb = ui->bm->sample_stack.n;
    size_t fb = nn ? (size_t)((double)p->first * (double)nb / (double)nn) : 0;
    size_t fe = nn ? (size_t)((double)(p->first + p->n) * (double)nb / (double)nn + 0.999999) : nb;
    if (fe > nb)
        fe = nb;
    if (fb >= fe)
        fb = fe ? fe - 1 : 0;
    struct ss_error err;
    if (ss_timeline_grid_compute(ui->bm, fb, fe - fb, width, level, 1, &p->bg, &err)) {
        ui_error(ui, "out of memory (timeline)");
        return -1;
    }
    p->have_bg = 1;
    p->bg_gen = ui->gen;
    p->bg_first = p->first;
    p->bg_n = p->n;
    p->bg_width = width;
    p->bg_level = level;
    return 0;
}

/* The letter and style of the base's function fb (base model id) in the
 * new profile's letters; '?' for a function only in the base. */
static char base_letter(struct ui *ui, struct tl_view *p, ss_id fb, int *style)
{
    ss_id f = ss_model_find_function(ui->m, ss_function_name(ui->bm, fb));
    if (f == SS_NONE) {
        *style = UI_S_DIM;
        return '?';
    }
    f = ss_function_canonical(ui->m, f);
    int ch =
        f < ui->m->functions.n && p->leg_of_set[f] ? p->leg_ch[p->leg_idx[f]] : letter_of(ui, p, f);
    if (ch < 0)
        ch = '+';
    *style = letter_style((char)ch);
    return (char)ch;
}

static void draw_legend(struct ui *ui, struct tl_view *p, struct ui_canvas *c, int y, int h)
{
    ui_put_head(c, y, 0, c->w,
                "legend: the letters on screen by first appearance ('+': no letter left); "
                "L: back",
                UI_S_NORMAL);
    int entry = 26, ncol = c->w / entry > 0 ? c->w / entry : 1, nrow = h - 1;
    for (size_t i = 0; i < p->nleg; i++) {
        int col = (int)(i / (size_t)nrow), row = (int)(i % (size_t)nrow);
        if (col >= ncol) {
            ui_printf(c, y + h - 1, (ncol - 1) * entry, entry, UI_S_DIM, "+%zu more: zoom in",
                      p->nleg - i);
            break;
        }
        char l[2] = {p->leg_ch[i], 0};
        ui_put(c, y + 1 + row, col * entry, 1, l, letter_style(l[0]));
        ui_put_fit(c, y + 1 + row, col * entry + 2, entry - 3, ss_function_name(ui->m, p->leg[i]),
                   UI_S_NORMAL, 0);
    }
}

/* The phase row: each phase on screen from its first column, "|2
 * fit_bootstrap_models" (the number, '*' for the main phase, the function
 * that tells it apart), the main phase bright, the others dim. */
static void draw_phase_row(const struct tl_view *p, struct ui_canvas *c, int yy,
                           const struct ss_phases *ph, int later, const struct ss_model *m)
{
    ui_put(c, yy, 0, MARGIN, "phase", UI_S_DIM);
    if (later) /* found after the screen is painted (ui_phases_drawn) */
        ui_put(c, yy, MARGIN, c->w - MARGIN, "finding the phases...", UI_S_DIM);
    size_t w = p->g.window ? p->g.window : 1, end = p->first + p->n;
    for (size_t k = ph ? ss_phases_find(ph, p->first) : 0; ph && k < ph->n; k++) {
        const struct ss_phase *f = &ph->v[k];
        if (f->first >= end)
            break;
        size_t a = f->first > p->first ? f->first : p->first;
        size_t e = f->first + f->n < end ? f->first + f->n : end;
        size_t c0 = (a - p->first) / w, c1 = (e - 1 - p->first) / w + 1;
        char lab[512];
        snprintf(lab, sizeof lab, "%s%zu%s %s", k && f->first >= p->first ? "|" : "", k + 1,
                 k == ph->main ? "*" : "",
                 f->top[0] == SS_NONE ? "" : ss_function_name(m, f->top[0]));
        ui_put_head(c, yy, MARGIN + (int)c0, (int)(c1 - c0), lab,
                    k == ph->main ? UI_S_HEADER : UI_S_DIM);
    }
}

/* The cursor's phase for the info line, without an error message when
 * the profile has none (0 when there is one). */
static int ph_info(struct ui *ui, const struct tl_view *p, size_t *k)
{
    int later;
    if (ui_no_order_note(ui) || (!ui_phases_drawn(ui, &later) && later))
        return 0;
    return cursor_phase(ui, p, k) == 0;
}

/* The info line: the cursor's cell (its level's function), the base's,
 * the phase and the marked range. */
static void draw_info(struct ui *ui, struct ui_view *v, struct tl_view *p, struct ui_canvas *c,
                      int y)
{
    size_t cc = cursor_col(p), sel_row = v->list.sel - v->list.top;
    uint32_t level = (uint32_t)v->list.sel + 1;
    size_t a = p->cursor, b = a + p->g.window;
    if (b > p->first + p->n)
        b = p->first + p->n;
    char info[4200];
    ss_id f = SS_NONE;
    uint32_t fn_n = 0;
    if (cc < p->g.ncols && sel_row < p->g.nlevels) {
        f = p->g.top[cc * p->g.nlevels + sel_row];
        fn_n = p->g.top_n[cc * p->g.nlevels + sel_row];
    }
    const char *unit = p->rows ? "row" : "sample";
    int k =
        b - a == 1
            ? snprintf(info, sizeof info, "cursor: %s %zu, level %u: ", unit, a + 1, level)
            : snprintf(info, sizeof info, "cursor: %ss %zu-%zu, level %u: ", unit, a + 1, b, level);
    if (f != SS_NONE)
        snprintf(info + k, sizeof info - (size_t)k, "%s in %u of %zu", ss_function_name(ui->m, f),
                 fn_n, b - a);
    else
        snprintf(info + k, sizeof info - (size_t)k, "no sample reaches it");
    if (ui->bm && !base_grid(ui, p, level) && cc < p->bg.ncols) {
        ss_id fb = p->bg.top[cc];
        size_t ba = p->bg.first + cc * p->bg.window, bb = ba + p->bg.window;
        if (bb > p->bg.first + p->bg.n)
            bb = p->bg.first + p->bg.n;
        size_t len = strlen(info);
        if (fb != SS_NONE)
            snprintf(info + len, sizeof info - len, " | base: %s in %u of %zu",
                     ss_function_name(ui->bm, fb), p->bg.top_n[cc], bb - ba);
        else
            snprintf(info + len, sizeof info - len, " | base: none");
    }
    size_t pk;
    if (ph_info(ui, p, &pk)) {
        size_t len = strlen(info);
        snprintf(info + len, sizeof info - len, " | phase %zu of %zu", pk + 1, ui_phases(ui)->n);
    }
    size_t ma, mb;
    if (!mark_bounds(p, &ma, &mb)) {
        size_t len = strlen(info);
        snprintf(info + len, sizeof info - len, " | marked %zu-%zu (d drop, K keep)", ma + 1, mb);
    }
    ui_put_head(c, y, 0, c->w, info, UI_S_NORMAL);
}

/* The grid: a row per level from y, a column per window of samples; sc:
 * the scaffold's levels. */
static void draw_grid(struct ui *ui, struct ui_view *v, struct tl_view *p, struct ui_canvas *c,
                      int y, size_t sc)
{
    size_t cc = cursor_col(p);
    for (uint32_t r = 0; r < p->g.nlevels; r++) {
        int yy = y + (int)r;
        size_t lv = p->g.level0 + r;
        int selected = lv - 1 == v->list.sel;
        char m[16];
        snprintf(m, sizeof m, "%4zu%c", lv, lv <= sc ? '*' : ' ');
        ui_put(c, yy, 0, MARGIN, m, selected ? UI_S_SELECTED : lv <= sc ? UI_S_MARK : UI_S_DIM);
        for (size_t col = 0; col < p->g.ncols; col++) {
            ss_id fn = p->g.top[col * p->g.nlevels + r];
            size_t ca = p->first + col * p->g.window;
            size_t cb = ca + p->g.window > p->first + p->n ? p->first + p->n : ca + p->g.window;
            char ch[2] = {' ', 0};
            int style = UI_S_NORMAL;
            if (fn != SS_NONE) {
                ch[0] = p->leg_ch[p->leg_idx[fn]];
                style = letter_style(ch[0]);
                /* most of the column's samples do not reach this level */
                if (2 * (size_t)p->g.reach[col * p->g.nlevels + r] < cb - ca)
                    style = UI_S_DIM;
            }
            if (fn != SS_NONE && p->match && p->match_gen == ui->gen && p->match[fn])
                style = UI_S_MATCH; /* the search's function */
            if (col == cc && selected)
                style = UI_S_CURSOR;
            ui_put(c, yy, MARGIN + (int)col, 1, ch, style);
        }
    }
}

/* A comparison: the base at the cursor's level, on row yy.  Returns 1 when
 * a function only the base has is on it ('?'). */
static int draw_base_row(struct ui *ui, struct tl_view *p, struct ui_canvas *c, int yy)
{
    size_t cc = cursor_col(p);
    int only_base = 0;
    ui_put(c, yy, 0, MARGIN, "base", UI_S_HEADER);
    for (size_t col = 0; col < p->bg.ncols; col++) {
        ss_id fb = p->bg.top[col];
        char ch[2] = {' ', 0};
        int style = UI_S_NORMAL;
        if (fb != SS_NONE) {
            ch[0] = base_letter(ui, p, fb, &style);
            only_base |= ch[0] == '?';
            size_t ca = p->bg.first + col * p->bg.window;
            size_t cb = ca + p->bg.window > p->bg.first + p->bg.n ? p->bg.first + p->bg.n
                                                                  : ca + p->bg.window;
            if (2 * (size_t)p->bg.reach[col] < cb - ca)
                style = UI_S_DIM;
        }
        if (col == cc)
            style = UI_S_CURSOR;
        ui_put(c, yy, MARGIN + (int)col, 1, ch, style);
    }
    return only_base;
}

/* What the ruler showed, for the legend. */
enum { RULER_SOURCE = 1, RULER_GAP = 2 };

/* The ruler on row ry: the cursor's column, the marked range, where a phase
 * or a new source (file or Rprof session) starts and where samples were
 * removed.  Returns RULER_* of what it showed. */
static int draw_ruler(const struct tl_view *p, struct ui_canvas *c, int ry,
                      const struct ss_model *m, const struct ss_phases *ph)
{
    size_t cc = cursor_col(p);
    int seen = 0;
    ui_put(c, ry, 0, MARGIN, "time", UI_S_DIM);
    for (size_t col = 0; col < p->g.ncols; col++) {
        size_t ca = p->first + col * p->g.window;
        size_t cend = ca + p->g.window < p->first + p->n ? ca + p->g.window : p->first + p->n;
        const char *ch = " ";
        int style = UI_S_DIM;
        size_t g = ss_model_gap_first(m, ca > 0 ? ca : 1);
        if (g < m->gaps.n && m->gaps.v[g] < cend) {
            ch = ":";
            seen |= RULER_GAP;
        }
        for (size_t q = 1; ph && q < ph->n; q++)
            if (ph->v[q].first >= ca && ph->v[q].first < cend)
                ch = "|";
        for (size_t sidx = 1; sidx < m->sources.n; sidx++) {
            size_t f0 = m->sources.v[sidx].first_sample;
            if (f0 >= ca && f0 < cend && f0 > 0 && m->sources.v[sidx].n_samples) {
                ch = "|";
                seen |= RULER_SOURCE;
            }
        }
        size_t ra, rb;
        if (!mark_bounds(p, &ra, &rb) && ca < rb && cend > ra) {
            ch = "=";
            style = UI_S_MARK;
        }
        if (col == cc) {
            ch = "^";
            style = UI_S_MARK;
        }
        ui_put(c, ry, MARGIN + (int)col, 1, ch, style);
    }
    return seen;
}

/* The time axis on row ay: a tick every dozen columns with the time there. */
static void draw_axis(const struct tl_view *p, struct ui_canvas *c, int ay,
                      const struct ss_model *m)
{
    double t0 = time_at(m, p->first), span = time_between(m, p->first, p->first + p->n);
    int dec = span >= 100 ? 0 : span >= 10 ? 1 : span >= 1 ? 2 : 3;
    ui_put(c, ay, 0, MARGIN, "   s", UI_S_DIM);
    size_t at = p->first;
    for (size_t col = 0; col < p->g.ncols; col += 12) {
        char lab[32];
        t0 += time_between(m, at, p->first + col * p->g.window);
        at = p->first + col * p->g.window;
        snprintf(lab, sizeof lab, "|%.*f", dec, t0);
        if (MARGIN + (int)col + (int)strlen(lab) > c->w)
            break;
        ui_put(c, ay, MARGIN + (int)col, (int)strlen(lab), lab, UI_S_DIM);
    }
}

/* The legend from row ly to the view's end (y + h): the letters on screen
 * after the notes the rows above need (only_base, RULER_* in seen); '+'
 * stands for the functions without a letter (more than 62 on screen); L
 * lists them all. */
static void draw_legend_rows(const struct tl_view *p, struct ui_canvas *c, int ly, int y, int h,
                             const struct ss_model *m, int only_base, int seen)
{
    int lx = 0, entry = 24;
    size_t nplus = 0;
    for (size_t i = 0; i < p->nleg; i++)
        nplus += p->leg_ch[i] == '+';
    char extra[4][64];
    size_t nextra = 0;
    if (only_base)
        snprintf(extra[nextra++], sizeof extra[0], "? only in the base");
    if (seen & RULER_SOURCE) /* a phase starts there too; the phase row says where the others do */
        snprintf(extra[nextra++], sizeof extra[0], "| phase, file, session");
    if (seen & RULER_GAP)
        snprintf(extra[nextra++], sizeof extra[0], ": samples removed here");
    if (nplus)
        snprintf(extra[nextra++], sizeof extra[0], "+ %zu without a letter", nplus);
    size_t total = p->nleg - nplus + nextra, shown = 0;
    for (size_t e = 0, i = 0; e < total; e++) {
        if (lx + entry > c->w) {
            lx = 0;
            ly++;
        }
        if (ly >= y + h || (ly == y + h - 1 && lx + 2 * entry > c->w && e + 1 < total)) {
            ui_printf(c, y + h - 1, lx, c->w - lx, UI_S_DIM, "+%zu more: L", total - shown);
            break;
        }
        if (e < nextra) {
            ui_put_fit(c, ly, lx, entry - 1, extra[e], UI_S_DIM, 0);
        } else {
            while (p->leg_ch[i] == '+')
                i++;
            char l[2] = {p->leg_ch[i], 0};
            ui_put(c, ly, lx, 1, l, letter_style(l[0]));
            ui_put_fit(c, ly, lx + 2, entry - 3, ss_function_name(m, p->leg[i]), UI_S_NORMAL, 0);
            i++;
        }
        shown++;
        lx += entry;
    }
}

/* The view, top down: the info line, the grid, the base's row (a
 * comparison), the phases, the ruler, the time axis and the legend. */
static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct tl_view *p = v->priv;
    if (total_samples(ui) == 0 || v->list.n == 0 || ui_no_order_note(ui)) {
        v->list.page = 1;
        ui_table_note(c, y, h, ui_no_order_note(ui) ? ui_no_order_note(ui) : ui_empty_note(ui));
        return;
    }
    int legend_rows = h >= 14 ? 3 : 1;
    int base_row = ui->bm ? 1 : 0; /* a comparison: the base's row under the grid */
    /* info line, grid, phases, ruler, axis, legend */
    int rows = h - 4 - legend_rows - base_row;
    if (rows < 1)
        rows = 1;
    v->list.page = rows;
    ui_list_fit(&v->list);
    v->rows_y = y + 1;
    size_t width = c->w > MARGIN + 1 ? (size_t)(c->w - MARGIN) : 1;
    if (grid(ui, v, p, width, rows))
        return;
    align_cursor(p);
    if (p->legend_full) {
        draw_legend(ui, p, c, y, h);
        return;
    }
    const struct ss_level_row *lr;
    size_t nl, sc;
    ui_levels(ui, &lr, &nl, &sc);
    draw_info(ui, v, p, c, y);
    draw_grid(ui, v, p, c, y + 1, sc);
    int only_base = ui->bm && p->have_bg ? draw_base_row(ui, p, c, y + 1 + rows) : 0;
    int later;
    const struct ss_phases *ph = ui_phases_drawn(ui, &later);
    draw_phase_row(p, c, y + 1 + rows + base_row, ph, later, ui->m);
    int ry = y + 2 + rows + base_row;
    int seen = draw_ruler(p, c, ry, ui->m, ph);
    draw_axis(p, c, ry + 1, ui->m);
    draw_legend_rows(p, c, ry + 2, y, h, ui->m, only_base, seen);
}

static void zoom(struct ui *ui, struct tl_view *p, int in, size_t width)
{
    size_t total = total_samples(ui);
    size_t minn = width < total ? width : total;
    size_t nn = in ? p->n / 2 : p->n * 2;
    if (nn < minn)
        nn = minn;
    if (nn > total)
        nn = total;
    size_t center = p->cursor + (p->g.window ? p->g.window / 2 : 0);
    size_t first = center > nn / 2 ? center - nn / 2 : 0;
    if (first + nn > total)
        first = total - nn;
    p->first = first;
    p->n = nn;
    /* the cursor stays on the same samples */
    size_t w = nn ? (nn + width - 1) / width : 1;
    if (center < first)
        center = first;
    p->cursor = first + ((center - first) / w) * w;
}

static void move_cursor(struct ui *ui, struct tl_view *p, long cols)
{
    size_t w = p->g.window ? p->g.window : 1, total = total_samples(ui);
    if (cols < 0) {
        size_t back = (size_t)-cols * w;
        if (p->cursor >= p->first + back) {
            p->cursor -= back;
        } else {
            /* pan left */
            size_t pan = back - (p->cursor - p->first);
            p->first = p->first > pan ? p->first - pan : 0;
            p->cursor = p->first;
        }
    } else {
        size_t fwd = (size_t)cols * w;
        size_t last = p->g.ncols ? p->first + (p->g.ncols - 1) * w : p->first;
        if (p->cursor + fwd <= last) {
            p->cursor += fwd;
        } else {
            size_t pan = p->cursor + fwd - last;
            size_t maxfirst = total > p->n ? total - p->n : 0;
            p->first = p->first + pan > maxfirst ? maxfirst : p->first + pan;
            p->cursor = p->g.ncols ? p->first + (p->g.ncols - 1) * w : p->first;
        }
    }
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    struct tl_view *p = v->priv;
    if (!p || !p->have_grid)
        return UI_UNHANDLED;
    size_t width = p->g_width ? p->g_width : 1;
    long half = (long)(p->g.ncols / 2 ? p->g.ncols / 2 : 1);
    char cmd[128];
    size_t a, b;
    switch (req) {
    case UI_REQ_NONE:
        if (ev && ev->key == UI_K_MOUSE && ev->button == UI_B_CLICK) {
            int r = ev->y - v->rows_y, col = ev->x - MARGIN;
            if (r >= 0 && (uint32_t)r < p->g.nlevels && col >= 0 && (size_t)col < p->g.ncols) {
                ui_list_select(&v->list, v->list.top + (size_t)r);
                p->cursor = p->first + (size_t)col * p->g.window;
                return UI_HANDLED;
            }
        }
        return UI_UNHANDLED;
    case UI_REQ_TL_LEFT:
        move_cursor(ui, p, -1);
        return UI_HANDLED;
    case UI_REQ_TL_RIGHT:
        move_cursor(ui, p, 1);
        return UI_HANDLED;
    case UI_REQ_TL_PAN_LEFT:
        move_cursor(ui, p, -half);
        return UI_HANDLED;
    case UI_REQ_TL_PAN_RIGHT:
        move_cursor(ui, p, half);
        return UI_HANDLED;
    case UI_REQ_TL_START:
        p->cursor = p->first;
        return UI_HANDLED;
    case UI_REQ_TL_END:
        p->cursor = p->g.ncols ? p->first + (p->g.ncols - 1) * p->g.window : p->first;
        return UI_HANDLED;
    case UI_REQ_TL_ZOOM_IN:
    case UI_REQ_TL_ZOOM_OUT:
        zoom(ui, p, req == UI_REQ_TL_ZOOM_IN, width);
        return UI_HANDLED;
    case UI_REQ_TL_ZOOM_RESET:
        p->first = 0;
        p->n = total_samples(ui);
        p->rows = ss_model_count(ui->m, 0, ui->m->sample_stack.n) != ui->m->sample_stack.n;
        return UI_HANDLED;
    case UI_REQ_TL_LEGEND:
        p->legend_full = !p->legend_full;
        return UI_HANDLED;
    case UI_REQ_TL_PHASE: {
        size_t k;
        if (cursor_phase(ui, p, &k)) {
            if (ui->msg_style != UI_S_ERROR)
                ui_error(ui, "no phase at the cursor");
            return UI_HANDLED;
        }
        const struct ss_phases *ph = ui_phases(ui);
        p->mark_a = (long)ph->v[k].first;
        p->mark_b = (long)(ph->v[k].first + ph->v[k].n);
        p->mark_exact = 1;
        p->mark_phase = k + 1;
        ui_message(ui,
                   "marked phase %zu of %zu%s: %s %zu-%zu (d drops it, K keeps it; O lists them)",
                   k + 1, ph->n, k == ph->main ? " (the main one)" : "",
                   p->rows ? "rows" : "samples", ph->v[k].first + 1, ph->v[k].first + ph->v[k].n);
        return UI_HANDLED;
    }
    case UI_REQ_TL_MARK:
        if (p->mark_a >= 0) {
            p->mark_a = p->mark_b = -1;
            p->mark_exact = 0;
            p->mark_phase = 0;
            ui_message(ui, "mark cleared");
        } else {
            p->mark_exact = 0;
            p->mark_phase = 0;
            p->mark_a = (long)p->cursor;
            p->mark_b = (long)(p->cursor + p->g.window);
            if ((size_t)p->mark_b > p->first + p->n)
                p->mark_b = (long)(p->first + p->n);
            ui_message(ui, "marked: move to the end of the range, then d (drop) or K (keep)");
        }
        return UI_HANDLED;
    case UI_REQ_TL_DROP:
    case UI_REQ_TL_KEEP:
        if (marked_range(p, &a, &b)) {
            ui_error(ui, "mark a phase with v, or the start of a range with m and move to its "
                         "end");
            return UI_HANDLED;
        }
        if (p->mark_phase) { /* a detected phase: the step that finds it again */
            const struct ss_phases *ph = ui_phases(ui);
            int main = ph && p->mark_phase - 1 == ph->main;
            snprintf(cmd, sizeof cmd, "%s %s", req == UI_REQ_TL_DROP ? "drop-phase" : "keep-phase",
                     main ? "main" : "");
            if (!main)
                snprintf(cmd + strlen(cmd), sizeof cmd - strlen(cmd), "%zu", p->mark_phase);
        } else {
            snprintf(cmd, sizeof cmd, "%s %zu:%zu",
                     req == UI_REQ_TL_DROP ? "drop-samples" : "keep-samples", a, b);
        }
        ui_add_transform(ui, cmd, -1, -1);
        return UI_HANDLED;
    default:
        return UI_UNHANDLED;
    }
}

/* `/`: highlight the cells of the matching functions and put the cursor on
 * the next one on screen (reading order: levels, then columns, after the
 * cursor's cell; dir < 0: the one before).  *idx and *count number the
 * matching cells on screen. */
static int search(struct ui *ui, struct ui_view *v, const char *pat, int dir,
                  int (*match)(struct ui *ui, const char *text, const char *pat), size_t *idx,
                  size_t *count)
{
    struct tl_view *p = v->priv;
    const struct ss_model *m = ui->m;
    if (!p->have_grid || p->g_gen != ui->gen || !p->g.ncols || !m->functions.n)
        return -1;
    uint8_t *fm = realloc(p->match, m->functions.n);
    if (!fm)
        return -1;
    p->match = fm;
    p->match_gen = ui->gen;
    for (size_t f = 0; f < m->functions.n; f++)
        fm[f] = match(ui, ss_function_name(m, (ss_id)f), pat) != 0;
    size_t nc = p->g.ncols, ncell = nc * p->g.nlevels, n = 0;
    size_t here = (v->list.sel - (p->g.level0 - 1)) * nc + cursor_col(p), found = SIZE_MAX;
    for (size_t k = 1; k <= ncell; k++) {
        size_t q = dir > 0 ? (here + k) % ncell : (here + ncell - k % ncell) % ncell;
        ss_id f = p->g.top[(q % nc) * p->g.nlevels + q / nc];
        if (f != SS_NONE && fm[f] && found == SIZE_MAX)
            found = q;
    }
    if (found == SIZE_MAX)
        return -1;
    for (size_t q = 0; q < ncell; q++) {
        ss_id f = p->g.top[(q % nc) * p->g.nlevels + q / nc];
        n += f != SS_NONE && fm[f];
        if (q == found)
            *idx = n;
    }
    *count = n;
    v->list.sel = p->g.level0 - 1 + found / nc;
    p->cursor = p->first + (found % nc) * (p->g.window ? p->g.window : 1);
    return 0;
}

static const char *row_function(struct ui *ui, struct ui_view *v, size_t r)
{
    struct tl_view *p = v->priv;
    if (!p || !p->have_grid || p->g_gen != ui->gen || r < p->g.level0 - 1 ||
        r >= (size_t)p->g.level0 - 1 + p->g.nlevels)
        return NULL;
    size_t cc = cursor_col(p);
    if (cc >= p->g.ncols)
        return NULL;
    ss_id f = p->g.top[cc * p->g.nlevels + (r - (p->g.level0 - 1))];
    return f == SS_NONE ? NULL : ss_function_name(ui->m, f);
}

static uint32_t row_level(struct ui *ui, struct ui_view *v, size_t r)
{
    return (uint32_t)r + 1;
}

static void view_free(struct ui_view *v)
{
    struct tl_view *p = v->priv;
    if (p->have_grid)
        ss_timeline_grid_free(&p->g);
    if (p->have_bg)
        ss_timeline_grid_free(&p->bg);
    free(p->leg);
    free(p->leg_ch);
    free(p->leg_of_set);
    free(p->leg_idx);
    free(p->letter);
    free(p->match);
}

const struct ui_view_ops ui_view_timeline = {
    .name = "timeline",
    .flags = UI_VF_KEEP_FUNCTION | UI_VF_NO_FILTER,
    .priv_size = sizeof(struct tl_view),
    .init = view_init,
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_function = row_function,
    .row_level = row_level,
    .search = search,
    .free = view_free,
};
