/* ui.c - the main loop: events turned into requests, generic requests
 * (moving, searching, filtering, switching views, going back, quitting),
 * drawing the screen (see app.h, ui.h).  What the explorer's parts share
 * (the message line, the current view and function, opening a view) is
 * context.c's; the transform list and the model it gives are session.c's.
 *
 * Events (keys from the terminal or a script) are turned into requests by
 * the key table; the view on screen gets the first say, then the generic
 * handler here.  After every event the whole screen is formatted into the
 * canvas and painted (curses sends only what changed).
 */
#include "ui.h"

#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "command.h"
#include "display.h"
#include "prompt.h"
#include "script.h"
#include "state.h"
#include "status.h"
#include "vec.h"

/* Transforms in effect that neither :w nor :export-script has saved. */
static int unsaved(struct ui *ui)
{
    return ss_tf_active(ui->tf) > 0 && ui->gen != ui->saved_gen;
}

void ui_quit(struct ui *ui, int force)
{
    if (force || !unsaved(ui)) {
        ui->quit = 1;
        return;
    }
    /* as perf report asks: the next key answers */
    ui->confirm_quit = 1;
    size_t n = ss_tf_active(ui->tf);
    ui_error(ui,
             "quit with %zu transform%s not saved? (y/n)  :w FILE or :export-script FILE saves; "
             "stackscope --resume brings %s back",
             n, ss_s(n), n == 1 ? "it" : "them");
}

static void go_back(struct ui *ui)
{
    if (ui->nhist <= 1) {
        ui_quit(ui, 0);
        return;
    }
    ui->nhist--;
    free(ui->hist[ui->nhist].arg);
    ui->hist[ui->nhist].arg = NULL;
}

/* Samples (count values) of a model: the status line's "of N samples". */
static uint64_t count_samples(const struct ss_model *m)
{
    return ss_model_count(m, 0, m->sample_stack.n);
}

/* ---- search -------------------------------------------------------------- */

/* pat is a /regex/: two slashes around something. */
static int is_regex(const char *pat)
{
    size_t n = strlen(pat);
    return n > 2 && pat[0] == '/' && pat[n - 1] == '/';
}

/* The compiled regex of pattern pat, a /regex/, kept in ui->regex for the
 * next row, or NULL when it does not compile. */
static const regex_t *compiled(struct ui *ui, const char *pat, int *rc)
{
    struct ui_regex_cache *c = &ui->regex;
    if (c->have && !strcmp(c->key, pat)) {
        *rc = c->err;
        return c->err ? NULL : &c->re;
    }
    if (c->have && !c->err)
        regfree(&c->re);
    snprintf(c->key, sizeof c->key, "%s", pat);
    char body[256];
    snprintf(body, sizeof body, "%.*s", (int)strlen(pat) - 2, pat + 1);
    c->err = regcomp(&c->re, body, REG_EXTENDED | REG_NOSUB);
    c->have = 1;
    *rc = c->err;
    return c->err ? NULL : &c->re;
}

const char *ui_pattern_error(struct ui *ui, const char *pat, char *buf, size_t n)
{
    buf[0] = '\0';
    int rc;
    if (is_regex(pat) && !compiled(ui, pat, &rc)) {
        char body[256];
        snprintf(body, sizeof body, "%.*s", (int)strlen(pat) - 2, pat + 1);
        regex_t re;
        int e = regcomp(&re, body, REG_EXTENDED | REG_NOSUB);
        char why[128] = "";
        regerror(e, e ? &re : NULL, why, sizeof why);
        if (!e)
            regfree(&re);
        snprintf(buf, n, "%s: not a regular expression: %s", pat, why);
    }
    return buf;
}

/* A substring, case-insensitive unless the pattern has a capital (less's
 * -i, smartcase), or a /regex/ as the transforms take one. */
int ui_text_matches(struct ui *ui, const char *text, const char *pat)
{
    if (is_regex(pat)) {
        int rc;
        const regex_t *re = compiled(ui, pat, &rc);
        return re && regexec(re, text, 0, NULL, 0) == 0;
    }
    int fold = 1;
    for (const char *p = pat; *p; p++)
        if (*p >= 'A' && *p <= 'Z')
            fold = 0;
    return fold ? strcasestr(text, pat) != NULL : strstr(text, pat) != NULL;
}

/* The share of the samples whose stack holds a function whose name matches
 * the pattern (what the match means for the profile). */
static double match_share(struct ui *ui, const char *pat)
{
    const struct ss_model *m = ui->m;
    const struct ss_stats *st = ui_stats_fn(ui);
    if (!st || st->samples_counted == 0 || m->functions.n == 0)
        return 0;
    char *fm = ss_alloc_array(m->functions.n, 1);
    if (!fm)
        return 0;
    for (size_t f = 0; f < m->functions.n; f++)
        fm[f] = (char)ui_text_matches(ui, ss_function_name(m, (ss_id)f), pat);
    char *sm = ss_calloc_array(ss_model_nstacks(m) + 1, 1);
    if (!sm) {
        free(fm);
        return 0;
    }
    for (size_t s = 0; s < ss_model_nstacks(m); s++) {
        const ss_id *fr = ss_stack_frames(m, (ss_id)s);
        for (size_t k = 0; k < ss_stack_depth(m, (ss_id)s); k++) {
            ss_id f = ss_loc_function(m, fr[k]);
            if (f != SS_NONE && fm[f]) {
                sm[s] = 1;
                break;
            }
        }
    }
    uint64_t hit = 0;
    for (size_t i = 0; i < m->sample_stack.n; i++)
        if (sm[m->sample_stack.v[i]])
            hit += (uint64_t)ss_sample_count(m, i);
    free(fm);
    free(sm);
    return 100.0 * (double)hit / (double)st->samples_counted;
}

/* "/PAT: match I of N", with, where the rows are functions, the share of
 * the samples that have a matching function (what the match means for
 * the profile; the help's rows are no functions). */
static void say_match(struct ui *ui, struct ui_view *v, size_t idx, size_t count)
{
    if (v->ops->row_function)
        ui_message(ui, "/%s: match %zu of %zu; %.1f%% of the samples have a matching function",
                   ui->search, idx, count, match_share(ui, ui->search));
    else
        ui_message(ui, "/%s: match %zu of %zu", ui->search, idx, count);
}

/* Search from the selection: the row after it (before it, dir < 0), or,
 * with `here`, the selected row itself first. */
static void search_from(struct ui *ui, const char *pat, int dir, int here)
{
    struct ui_view *v = ui_current(ui);
    if (pat != ui->search)
        snprintf(ui->search, sizeof ui->search, "%s", pat);
    char bad[512];
    if (!ui->search[0]) {
        ui_error(ui, "no search yet: / starts one");
        return;
    }
    if (ui_pattern_error(ui, ui->search, bad, sizeof bad)[0]) {
        ui_error(ui, "%s", bad);
        return;
    }
    if (v->ops->search && v->list.n > 0) { /* items the rows do not show too */
        size_t si, sn;
        /* the view searches after the selection (a row view: from the row
         * before it; the timeline searches its cells from the cursor on) */
        if (here && v->ops->row_text && v->list.sel > 0)
            v->list.sel--;
        if (v->ops->search(ui, v, ui->search, dir, ui_text_matches, &si, &sn))
            ui_error(ui, "/%s: no match", ui->search);
        else
            say_match(ui, v, si, sn);
        return;
    }
    if (!v->ops->row_text || v->list.n == 0) {
        ui_error(ui, "nothing to search in this view");
        return;
    }
    struct ui_list *l = &v->list;
    char buf[8192];
    size_t n = ui_list_count(l), count = 0, found = SIZE_MAX, pos = ui_list_pos(l);
    for (size_t k = here ? 0 : 1; k < n + (here ? 0 : 1); k++) {
        /* from the row after (before) the selection, wrapping; only the
         * rows a filter shows */
        size_t q = dir > 0 ? (pos + k) % n : (pos + n - k % n) % n;
        const char *t = v->ops->row_text(ui, v, ui_list_row(l, q), buf, sizeof buf);
        if (t && ui_text_matches(ui, t, ui->search)) {
            count++;
            if (found == SIZE_MAX)
                found = q;
        }
    }
    if (found == SIZE_MAX) {
        ui_error(ui, "/%s: no match", ui->search);
        return;
    }
    ui_list_select(l, ui_list_row(l, found));
    /* the position of the match among all matches, in row order */
    size_t idx = 0;
    for (size_t q = 0; q <= found; q++) {
        const char *t = v->ops->row_text(ui, v, ui_list_row(l, q), buf, sizeof buf);
        if (t && ui_text_matches(ui, t, ui->search))
            idx++;
    }
    say_match(ui, v, idx, count);
}

void ui_search(struct ui *ui, const char *pat, int dir)
{
    search_from(ui, pat, dir, 0);
}

void ui_search_start(struct ui *ui)
{
    struct ui_view *v = ui_current(ui);
    ui->isearch.active = 1;
    ui->isearch.view = v->id;
    ui->isearch.sel = v->list.sel;
    ui->isearch.top = v->list.top;
    ui->isearch.last[0] = '\0';
    snprintf(ui->isearch.before, sizeof ui->isearch.before, "%s", ui->search);
}

/* Back to where the search started. */
static void search_restore(struct ui *ui)
{
    struct ui_view *v = ui_current(ui);
    if (!ui->isearch.active || v->id != ui->isearch.view)
        return;
    v->list.sel = ui->isearch.sel;
    v->list.top = ui->isearch.top;
    ui_list_fit(&v->list);
}

void ui_search_typed(struct ui *ui, const char *pat)
{
    struct ui_view *v = ui_current(ui);
    if (!ui->isearch.active || v->id != ui->isearch.view)
        return;
    search_restore(ui);
    ui->isearch.last[0] = '\0';
    char bad[512];
    if (!*pat || ui_pattern_error(ui, pat, bad, sizeof bad)[0]) {
        ui->msg[0] = '\0'; /* a regex half typed: no error yet */
        return;
    }
    search_from(ui, pat, 1, 1);
    snprintf(ui->isearch.last, sizeof ui->isearch.last, "%s", pat);
    memcpy(ui->isearch.msg, ui->msg, sizeof ui->isearch.msg);
    ui->isearch.msg_style = ui->msg_style;
}

void ui_search_end(struct ui *ui, const char *pat)
{
    struct ui_view *v = ui_current(ui);
    if (pat && ui->isearch.active && v->id == ui->isearch.view && *pat &&
        !strcmp(pat, ui->isearch.last)) {
        /* Enter: the selection is on the match already (a view's own
         * search would step on to the next one); what it said stays */
        snprintf(ui->search, sizeof ui->search, "%s", pat);
        memcpy(ui->msg, ui->isearch.msg, sizeof ui->msg);
        ui->msg_style = ui->isearch.msg_style;
    } else if (pat && ui->isearch.active && v->id == ui->isearch.view && *pat) {
        /* Enter on what was not searched yet: from where it started,
         * errors said */
        search_restore(ui);
        search_from(ui, pat, 1, 1);
    } else if (pat) {
        ui_search(ui, pat, 1); /* "no search yet", or n's */
    } else if (ui->isearch.active) {
        /* Esc: the search before, and the selection where it was */
        snprintf(ui->search, sizeof ui->search, "%s", ui->isearch.before);
        if (v->ops->search && v->id == ui->isearch.view) {
            size_t si, sn;
            v->ops->search(ui, v, ui->search, 1, ui_text_matches, &si, &sn);
        }
        search_restore(ui);
        ui->msg[0] = '\0';
    }
    ui->isearch.active = 0;
}

/* ---- the filter ---------------------------------------------------------- */

static int filter_key_same(struct ui *ui, struct ui_view *v)
{
    const char *arg = ui_view_arg(ui);
    return v->filt_key.valid && v->filt_key.gen == ui->gen && v->filt_key.n == v->list.n &&
           v->filt_key.sort == v->sort && v->filt_key.rev == v->sort_rev &&
           v->filt_key.runs == ui_runs_ready(ui) && ui_same_arg(v->filt_key.arg, arg);
}

/* The rows of v that match its filter (list.vis), computed again when the
 * rows may have changed. */
static void refresh_filter(struct ui *ui, struct ui_view *v)
{
    struct ui_list *l = &v->list;
    if (!v->filter[0] || !v->ops->row_text || (v->ops->flags & UI_VF_NO_FILTER)) {
        l->vis = NULL;
        return;
    }
    if (!filter_key_same(ui, v)) {
        uint32_t *rows = ss_alloc_array(l->n + 1, sizeof *rows);
        if (!rows) {
            ui_error(ui, "out of memory (filter)");
            v->filter[0] = '\0';
            l->vis = NULL;
            return;
        }
        char buf[8192];
        size_t k = 0;
        for (size_t r = 0; r < l->n; r++) {
            const char *t = v->ops->row_text(ui, v, r, buf, sizeof buf);
            if (t && ui_text_matches(ui, t, v->filter))
                rows[k++] = (uint32_t)r;
        }
        free(v->filt);
        v->filt = rows;
        v->nfilt = k;
        free(v->filt_key.arg);
        const char *arg = ui_view_arg(ui);
        v->filt_key.arg = arg ? strdup(arg) : NULL;
        v->filt_key.valid = !arg || v->filt_key.arg;
        v->filt_key.gen = ui->gen;
        v->filt_key.n = l->n;
        v->filt_key.sort = v->sort;
        v->filt_key.rev = v->sort_rev;
        v->filt_key.runs = ui_runs_ready(ui);
    }
    l->vis = v->filt;
    l->nvis = v->nfilt;
    ui_list_fit(l);
}

/* Prepare view v for the current model (its own prepare, then the filter);
 * the view's own fitting sees every row. */
static int prepare_view(struct ui *ui, struct ui_view *v)
{
    v->list.vis = NULL;
    if (v->ops->prepare(ui, v))
        return -1;
    refresh_filter(ui, v);
    return 0;
}

void ui_filter(struct ui *ui, const char *pat, int typing)
{
    struct ui_view *v = ui_current(ui);
    char bad[512];
    if (*pat && (!v->ops->row_text || (v->ops->flags & UI_VF_NO_FILTER))) {
        ui_error(ui, "the %s view has no filter (/ searches it)", v->ops->name);
        return;
    }
    if (ui_pattern_error(ui, pat, bad, sizeof bad)[0]) {
        if (!typing)
            ui_error(ui, "%s", bad);
        return;
    }
    snprintf(v->filter, sizeof v->filter, "%s", pat);
    v->filt_key.valid = 0;
    if (prepare_view(ui, v))
        return;
    if (!*pat) {
        if (!typing)
            ui_message(ui, "filter off: every row shows");
        return;
    }
    if (v->nfilt == 0 && !typing) {
        ui_error(ui, "&%s: no row matches; filter off", pat);
        v->filter[0] = '\0';
        v->list.vis = NULL;
        return;
    }
    ui_message(ui, "&%s: %zu of %zu rows%s", pat, v->nfilt, v->list.n,
               typing ? "" : " (& then Enter: every row again)");
}

/* ---- requests ------------------------------------------------------------ */

/* Open view id with the argument it takes: the current function for the
 * views of one function (UI_VA_FUNCTION: calls, run lengths). */
void ui_switch_view(struct ui *ui, enum ui_view_id id)
{
    if (ui->sel_stale) {
        /* the current function is not on screen: the highlighted row's is
         * the one the user means now */
        struct ui_view *v = ui_current(ui);
        const char *fn = v->ops->row_function && v->list.n && prepare_view(ui, v) == 0
                             ? v->ops->row_function(ui, v, v->list.sel)
                             : NULL;
        if (fn)
            ui_set_function(ui, fn);
    }
    const char *arg = ui_view_arg_kind(id) == UI_VA_FUNCTION ? ui->cur_fn : NULL;
    ui_open_view(ui, id, arg);
}

/* ?: the help, at the keys of the view `from` (its section, else its line
 * among the views), that row on top. */
static void show_help(struct ui *ui, enum ui_view_id from)
{
    ui_switch_view(ui, UI_V_HELP);
    struct ui_view *h = ui_current(ui);
    if (h->id != UI_V_HELP || prepare_view(ui, h))
        return;
    size_t row = ui_help_row_of(h, from);
    h->list.page = ui->canvas.h > 4 ? ui->canvas.h - 4 : 1;
    h->list.sel = row;
    h->list.top = ui_list_count(&h->list) > row ? row : 0;
    ui_list_fit(&h->list);
}

static void request(struct ui *ui, enum ui_request req, const struct ui_event *ev)
{
    struct ui_view *v = ui_current(ui);
    if (v->ops->request && v->ops->request(ui, v, req, ev) == UI_HANDLED)
        return;
    if (ui_session_request(ui, v, req) == UI_HANDLED)
        return;
    struct ui_list *l = &v->list;
    long page = l->page > 1 ? l->page - 1 : 1;
    switch (req) {
    case UI_REQ_NONE:
        break;
    case UI_REQ_MOVE_UP:
        ui_list_move(l, -1);
        break;
    case UI_REQ_MOVE_DOWN:
        ui_list_move(l, 1);
        break;
    case UI_REQ_PAGE_UP:
        ui_list_move(l, -page);
        break;
    case UI_REQ_PAGE_DOWN:
        ui_list_move(l, page);
        break;
    case UI_REQ_FIRST:
        ui_list_select(l, 0);
        break;
    case UI_REQ_LAST:
        ui_list_select(l, l->n ? l->n - 1 : 0);
        break;
    case UI_REQ_SCROLL_LEFT:
        v->hscroll = v->hscroll > 8 ? v->hscroll - 8 : 0;
        break;
    case UI_REQ_SCROLL_RIGHT:
        v->hscroll += 8;
        break;
    case UI_REQ_ENTER: {
        const char *fn = v->ops->row_function && l->n ? v->ops->row_function(ui, v, l->sel) : NULL;
        if (fn) {
            ui_set_function(ui, fn);
            ui_open_view(ui, UI_V_CALLS, fn);
        }
        break;
    }
    case UI_REQ_NEXT_VIEW:
    case UI_REQ_PREV_VIEW: {
        /* views.h's order, without the UI_VF_NO_CYCLE views; from one of
         * those, as from the first view */
        int step = req == UI_REQ_NEXT_VIEW ? 1 : UI_V_COUNT - 1;
        int id = v->ops->flags & UI_VF_NO_CYCLE ? 0 : (int)v->id;
        do
            id = (id + step) % UI_V_COUNT;
        while (ui_view_ops_of((enum ui_view_id)id)->flags & UI_VF_NO_CYCLE);
        ui_switch_view(ui, (enum ui_view_id)id);
        break;
    }
    case UI_REQ_BACK:
        go_back(ui);
        break;
    case UI_REQ_QUIT:
        ui_quit(ui, 1);
        break;
    case UI_REQ_REDRAW:
        if (!ui->headless)
            ui_display_touch();
        break;
    case UI_REQ_SEARCH:
        ui_search_start(ui);
        ui_prompt_start(ui, '/', "");
        break;
    case UI_REQ_FILTER:
        if (!v->ops->row_text || (v->ops->flags & UI_VF_NO_FILTER))
            ui_error(ui, "the %s view has no filter (/ searches it)", v->ops->name);
        else
            ui_prompt_start(ui, '&', v->filter);
        break;
    case UI_REQ_NORMALIZE:
        ui_toggle_normalize(ui);
        break;
    case UI_REQ_SEARCH_NEXT:
        ui_search(ui, ui->search, 1);
        break;
    case UI_REQ_SEARCH_PREV:
        ui_search(ui, ui->search, -1);
        break;
    case UI_REQ_SORT_NEXT:
    case UI_REQ_SORT_REVERSE:
        ui_error(ui, "the %s view has one order", v->ops->name);
        break;
    case UI_REQ_PROMPT:
        ui_prompt_start(ui, ':', "");
        break;
    case UI_REQ_SOURCE_OPEN:
        ui_lines_show_selection(ui, v);
        break;
    case UI_REQ_COPY_NAME: {
        char buf[4096];
        const char *t = ui_status_detail(ui, buf, sizeof buf);
        if (!t)
            ui_error(ui, "nothing selected to copy");
        else if (ui_display_clipboard(t, strlen(t)))
            ui_error(ui, "cannot copy here (no terminal): %s", t);
        else
            ui_message(ui, "copied to the clipboard: %s", t);
        break;
    }
    default:
        if (req == UI_REQ_VIEW_HELP && v->id != UI_V_HELP) {
            show_help(ui, v->id);
            break;
        }
        if (ui_request_view(req) >= 0)
            ui_switch_view(ui, (enum ui_view_id)ui_request_view(req));
        else
            ui_error(ui, "this key does nothing in the %s view", v->ops->name);
        break;
    }
}

static void mouse(struct ui *ui, const struct ui_event *ev)
{
    struct ui_view *v = ui_current(ui);
    struct ui_list *l = &v->list;
    if (v->ops->request && v->ops->request(ui, v, UI_REQ_NONE, ev) == UI_HANDLED)
        return;
    if (ev->button == UI_B_WHEEL_UP || ev->button == UI_B_WHEEL_DOWN) {
        ui_list_scroll(l, ev->button == UI_B_WHEEL_UP ? -3 : 3);
        return;
    }
    int r = ev->y - v->rows_y;
    if (r < 0 || r >= l->page || l->top + (size_t)r >= ui_list_count(l))
        return;
    ui_list_select(l, ui_list_row(l, l->top + (size_t)r));
    if (ev->button == UI_B_DOUBLE) {
        struct ui_event enter = {UI_K_ENTER, 0, 0, 0, NULL};
        request(ui, ui_key_request(UI_K_ENTER, v->id), &enter);
    }
}

/* ---- drawing ------------------------------------------------------------- */

/* Where text t (at most maxw columns a row) breaks: the bytes of its first
 * row, ending after a space when one is there to break at. */
static size_t wrap_at(const struct ui_canvas *c, const char *t, int maxw)
{
    size_t len = strlen(t), i = 0, brk = 0;
    int w = 0;
    while (i < len) {
        int cw;
        int k = ui_text_next(c, t + i, len - i, &cw);
        if (w + cw > maxw)
            return brk ? brk : i;
        w += cw;
        i += (size_t)k;
        if (t[i - 1] == ' ')
            brk = i;
    }
    return len;
}

/* The message's rows: one, or, for a message longer than the screen is
 * wide, up to MSG_ROWS, broken at blanks (start[i], len[i] bytes of msg).
 * Returns how many. */
#define MSG_ROWS 3
static size_t message_rows(const struct ui_canvas *c, const char *t, size_t *start, size_t *len)
{
    size_t n = 0, off = 0;
    while (n < MSG_ROWS && (t[off] || n == 0)) {
        size_t k = n + 1 < MSG_ROWS ? wrap_at(c, t + off, c->w) : strlen(t + off);
        start[n] = off;
        len[n++] = k;
        off += k;
        if (!k)
            break;
    }
    return n;
}

/* The message on the bottom rows (n of them, message_rows), never cut at
 * the screen's edge but by the third row. */
static void draw_message(struct ui *ui, struct ui_canvas *c, int rows, const size_t *start,
                         const size_t *len, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char row[sizeof ui->msg];
        snprintf(row, sizeof row, "%.*s", (int)len[i], ui->msg + start[i]);
        int y = rows - (int)(n - i);
        ui_canvas_style(c, y, 0, c->w, UI_S_NORMAL, 1);
        ui_put_head(c, y, 0, c->w, row, ui->msg_style);
    }
}

static void draw(struct ui *ui)
{
    int cols = 80, rows = 24;
    ui_display_size(&cols, &rows);
    struct ui_canvas *c = &ui->canvas;
    if ((c->w != cols || c->h != rows) && ui_canvas_resize(c, cols, rows))
        return;
    c->utf8 = ui_display_utf8();
    ui_canvas_clear(c);
    if (cols < 20 || rows < 6) {
        ui_put(c, 0, 0, cols, "terminal too small", UI_S_ERROR);
        ui_display_paint(c, -1, 0);
        return;
    }
    struct ui_view *v = ui_current(ui);
    if (prepare_view(ui, v) == 0)
        v->ops->draw(ui, v, c, 1, rows - 4); /* sets the page size and scrolls */
    ui_status_draw_title(ui, c, 0);
    /* a long message takes more rows at the bottom: the detail and status
     * lines move up over the view's last rows while it shows */
    size_t mstart[MSG_ROWS], mlen[MSG_ROWS], mrows = 1;
    if (!ui->prompt.active && ui->msg[0])
        mrows = message_rows(c, ui->msg, mstart, mlen);
    int up = (int)mrows - 1;
    ui_status_draw_detail(ui, c, rows - 3 - up);
    ui_status_draw(ui, c, rows - 2 - up);
    int cx = -1;
    if (ui->prompt.active && ui->msg[0])
        ui_put_head(c, rows - 2, 0, cols, ui->msg, ui->msg_style); /* completions, errors */
    if (ui->prompt.active) {
        cx = ui_prompt_draw(ui, c, rows - 1);
    } else if (ui->msg[0]) {
        draw_message(ui, c, rows, mstart, mlen, mrows);
    } else {
        char hint[512];
        ui_hint_line(v->id, cols - 1, hint, sizeof hint);
        ui_put_head(c, rows - 1, 0, cols, hint, UI_S_DIM);
    }
    ui_display_paint(c, cx >= 0 ? rows - 1 : -1, cx);
}

/* The function under the selection becomes the current function, when the
 * user moved the selection.  A re-applied transform list can take the
 * current function out of the view (drop F): the view then selects another row,
 * but the current function stays, so that undo brings the selection back
 * to it (and `f` after `d u` focuses F); it follows the selection again
 * once the user moves it or the view changes. */
static void follow_selection(struct ui *ui)
{
    struct ui_view *v = ui_current(ui);
    int moved = v->id != ui->follow_view || v->list.sel != ui->follow_sel;
    int regen = ui->gen != ui->follow_gen;
    ui->follow_view = v->id;
    ui->follow_sel = v->list.sel;
    ui->follow_gen = ui->gen;
    if (!v->ops->row_function || v->list.n == 0 || (v->ops->flags & UI_VF_KEEP_FUNCTION))
        return;
    if (prepare_view(ui, v))
        return;
    ui->follow_sel = v->list.sel; /* prepare may re-find the current function */
    const char *fn = v->ops->row_function(ui, v, v->list.sel);
    if (!fn)
        return;
    if (ui->cur_fn && strcmp(fn, ui->cur_fn) && !moved && (regen || ui->sel_stale)) {
        ui->sel_stale = 1; /* the view does not show the current function now */
        return;
    }
    ui_set_function(ui, fn);
}

/* ---- the event loop ------------------------------------------------------ */

static void handle(struct ui *ui, const struct ui_event *ev)
{
    if (ev->key == UI_K_RESIZE)
        return;
    if (ev->key == UI_K_COMMAND) {
        ui_command(ui, ev->command, -1, -1);
        follow_selection(ui);
        return;
    }
    if (ui->confirm_quit) {
        /* the answer to "quit? (y/n)" */
        ui->confirm_quit = 0;
        if (ev->key == 'y' || ev->key == 'Y')
            ui->quit = 1;
        else
            ui_message(ui, "not quitting");
        return;
    }
    if (ui->prompt.active) {
        ui_prompt_key(ui, ev);
        follow_selection(ui);
        return;
    }
    ui->msg[0] = '\0';
    struct ui_view *v = ui_current(ui);
    if (prepare_view(ui, v) == 0)
        ui_list_fit(&v->list);
    if (ev->key == UI_K_MOUSE)
        mouse(ui, ev);
    else
        request(ui, ui_key_request(ev->key, v->id), ev);
    follow_selection(ui);
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* CPU time of the key loop's thread: what a key costs, whatever else the
 * machine is doing (the wall time is reported too), without the run
 * lengths computed meanwhile on their own thread (their time in the
 * background is reported when they are shown). */
static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* "COLSxROWS" from the environment, else 80x24. */
static void headless_size(int *cols, int *rows)
{
    *cols = 80;
    *rows = 24;
    const char *s = getenv("STACKSCOPE_SIZE");
    int c, r;
    if (s && sscanf(s, "%dx%d", &c, &r) == 2 && c >= 20 && c <= 1000 && r >= 6 && r <= 1000) {
        *cols = c;
        *rows = r;
    }
}

/* The run lengths a draw left for later: 1 when a thread computes them
 * (its end draws them: show_background), 2 when there is nothing to draw,
 * 0 when a draw computes them now (ready, or no thread). */
static int runs_later(struct ui *ui)
{
    int running = ui_runs_busy(ui);
    if (ui_runs_start(ui) != 0)
        return 0;
    if (ui_runs_busy(ui)) {
        if (!running)
            ui->bg_ms = now_ms(); /* started now */
        return 1;
    }
    return ui_runs_ready(ui) ? 0 : 2;
}

/* The deferred extras (see struct ui): the run lengths on a thread, which
 * the key loop does not wait for (without a thread: computed now); the
 * phases at once, after the screen the key painted. */
static void finish_deferred(struct ui *ui, FILE *timing)
{
    int pend = ui->pending;
    if (!pend || ui->quit)
        return;
    ui->pending = 0;
    if (pend & UI_PENDING_RUNS) {
        int r = runs_later(ui);
        if (r == 1 || (r == 2 && !(pend & UI_PENDING_PHASES)))
            return; /* phases pending too: drawn after the thread's end */
    }
    double t0 = now_ms(), c0 = cpu_ms();
    ui->defer = 0;
    draw(ui);
    ui->defer = 1;
    ui->pending = 0;
    if (timing)
        fprintf(timing, "%.3f\t%.3f\t(deferred: %s)\n", now_ms() - t0, cpu_ms() - c0,
                !(pend & UI_PENDING_PHASES) ? "run lengths"
                : pend & UI_PENDING_RUNS    ? "run lengths, phases"
                                            : "phases");
}

/* When the background extras are done (wait: wait for them), draw them.
 * The timing file gets the redraw's cost and, as a comment line, how long
 * they took in the background. */
static void show_background(struct ui *ui, FILE *timing, int wait)
{
    /* the verdicts, first: a draw may ask for another table's (at most a
     * few rounds: each draw asks only for what it shows) */
    for (int round = 0; round < 8 && !ui->quit; round++) {
        double w0 = now_ms(), ran = 0;
        if (!ui_verdicts_poll(ui, wait, &ran))
            break;
        double t0 = now_ms(), c0 = cpu_ms();
        draw(ui);
        if (timing)
            fprintf(timing,
                    "%.3f\t%.3f\t(verdicts shown; %.0f ms in the background, %.0f waited)\n",
                    now_ms() - t0, cpu_ms() - c0, ran, t0 - w0);
    }
    double w0 = now_ms();
    if (!ui_runs_poll(ui, wait) || ui->quit)
        return;
    double t0 = now_ms(), c0 = cpu_ms();
    draw(ui);
    if (timing)
        fprintf(timing, "%.3f\t%.3f\t(run lengths shown; %.0f ms in the background, %.0f waited)\n",
                now_ms() - t0, cpu_ms() - c0, t0 - ui->bg_ms, t0 - w0);
    finish_deferred(ui, timing);
}

int ss_ui_available(void)
{
    const char *s = getenv("STACKSCOPE_SCRIPT");
    if (s && *s)
        return 1;
    if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
        return 0;
    int can = ui_display_can_address();
    if (can <= 0) {
        const char *term = getenv("TERM");
        if (can < 0)
            fprintf(stderr,
                    "stackscope: TERM=%s is not in the terminfo database (TERM=xterm-256color "
                    "works in most terminals): printing the report instead\n",
                    term ? term : "");
        else
            fprintf(stderr,
                    "stackscope: the terminal (TERM=%s) cannot move the cursor: printing the "
                    "report instead\n",
                    term ? term : "");
        return 0;
    }
    return 1;
}

static void ui_free(struct ui *ui)
{
    for (int i = 0; i < UI_V_COUNT; i++) {
        struct ui_view *v = &ui->views[i];
        if (v->priv && v->ops->free)
            v->ops->free(v);
        free(v->priv);
        v->priv = NULL;
        free(v->filt); /* the filter's rows and key (refresh_filter) */
        free(v->filt_key.arg);
        v->filt = NULL;
        v->filt_key.arg = NULL;
    }
    for (int i = 0; i < ui->nhist; i++)
        free(ui->hist[i].arg);
    ui_prompt_free(ui);
    ui_cache_clear(&ui->cache);
    ui_verdicts_clear(&ui->verdicts);
    if (ui->have_tm)
        ss_model_free(&ui->tm);
    ss_model_free(&ui->orig);
    if (ui->have_btm)
        ss_model_free(&ui->btm);
    ss_model_free(&ui->borig); /* zeroed when nothing is compared: a no-op */
    ss_tf_list_free(ui->tf);
    ui_follow_free(ui);
    ui_warm_adopt(ui, 1);
    ss_spare_free(&ui->spare);
    free(ui->cur_fn);
    for (size_t i = 0; i < ui->nsource_paths; i++)
        free(ui->source_paths[i]);
    free(ui->source_paths);
    for (size_t i = 0; i < ui->nsource_maps; i++)
        free((char *)(uintptr_t)ui->source_maps[i].from); /* the copy holding both */
    free(ui->source_maps);
    ui_canvas_free(&ui->canvas);
    if (ui->regex.have && !ui->regex.err)
        regfree(&ui->regex.re);
}

/* Take over in's models (left empty) and set up the views and their
 * private data from the rest of the input.  Returns 0, or -1 when memory
 * runs out; ui_free cleans up either way. */
static int ui_init(struct ui *ui, struct ss_explore *in)
{
    memset(ui, 0, sizeof *ui);
    ui->orig = in->model;
    memset(&in->model, 0, sizeof in->model);
    ui->m = &ui->orig;
    if (in->have_base) { /* a comparison: the base, taken over too */
        ui->borig = in->base;
        memset(&in->base, 0, sizeof in->base);
        in->have_base = 0;
        ui->bm = &ui->borig;
    }
    ui->normalize = in->normalize;
    ui->alpha = in->alpha;
    ui->alpha_opt = in->alpha;
    ui->folded_interval_us = in->folded_interval_us;
    ui->gen = 1;
    ui->cache.gen = 1;
    ui->cache.vd = &ui->verdicts;
    ui->files = in->files;
    ui->nfiles = in->nfiles;
    ui->base_files = in->base_files;
    ui->nbase_files = in->nbase_files;
    ui->resumed = in->resumed;
    ui->orig_samples = count_samples(&ui->orig);
    ui->follow.keep_s = in->follow_keep_s;
    if (in->follow) {
        ui_follow_begin(ui, in->follow);
        in->follow = NULL;
    }
    ui->tf = ss_tf_list_new();
    if (!ui->tf)
        return -1;
    ss_tf_list_set_spare(ui->tf, &ui->spare);
    for (size_t i = 0; i < in->nsource_paths; i++)
        if (ui_add_source_path(ui, in->source_paths[i]))
            return -1;
    for (size_t i = 0; i < in->nsource_maps; i++) {
        char arg[8192];
        snprintf(arg, sizeof arg, "%s=%s", in->source_maps[i].from, in->source_maps[i].to);
        if (ui_add_source_map(ui, arg) < 0)
            return -1;
    }
    for (int i = 0; i < UI_V_COUNT; i++) {
        struct ui_view *v = &ui->views[i];
        v->ops = ui_view_ops_of((enum ui_view_id)i);
        v->id = (enum ui_view_id)i;
        v->list.page = 1;
        if (v->ops->priv_size) {
            v->priv = calloc(1, v->ops->priv_size);
            if (!v->priv)
                return -1;
            if (v->ops->init)
                v->ops->init(v);
        }
    }
    return 0;
}

/* A session on these files was kept (state.h) and not resumed: say so,
 * with how to bring it back, unless a message is shown already. */
static void last_session_hint(struct ui *ui)
{
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_error err;
    ss_error_clear(&err);
    char warn[512]; /* an unsafe or unreadable state file: :resume says why */
    if (l && ss_state_load(ui->files, ui->nfiles, l, warn, sizeof warn, &err) == 0 &&
        ss_tf_count(l) > 0) {
        size_t n = ss_tf_count(l);
        char what[256];
        snprintf(what, sizeof what, "last session: %zu transform%s, :resume applies %s again", n,
                 ss_s(n), n == 1 ? "it" : "them");
        char first[512]; /* the starting steps' message first, copied: a
                          * message is not formatted into itself */
        snprintf(first, sizeof first, "%.500s", ui->msg);
        if (first[0])
            ui_message(ui, "%s; %s", first, what);
        else
            ui_message(ui, "%s", what);
    }
    ss_tf_list_free(l);
}

/* A followed file's new samples, when a period has passed (force: now):
 * read, the list applied again and the screen drawn; the timing file
 * gets a line with the refresh's cost and the samples read in all. */
static void follow_refresh(struct ui *ui, FILE *timing, int force)
{
    double t0 = now_ms(), c0 = cpu_ms();
    uint64_t before = ui->orig_samples;
    if (!ui_follow_tick(ui, force) || ui->quit)
        return;
    draw(ui);
    struct timespec wall; /* when the samples were shown: tests compare it with their writes */
    clock_gettime(CLOCK_REALTIME, &wall);
    if (timing)
        fprintf(timing, "%.3f\t%.3f\t(follow: %llu samples, %llu new, shown at %.3f)\n",
                now_ms() - t0, cpu_ms() - c0, (unsigned long long)ui->orig_samples,
                (unsigned long long)(ui->orig_samples - before),
                (double)wall.tv_sec + (double)wall.tv_nsec / 1e9);
    finish_deferred(ui, timing);
}

/* A script's <Sleep MS>: the time passes as it would at the terminal, the
 * followed file read as it grows and the extras shown when ready. */
static void sleep_following(struct ui *ui, FILE *timing, int ms)
{
    double end = now_ms() + ms;
    for (double left; !ui->quit && (left = end - now_ms()) > 0;) {
        double step = left < 20 ? left : 20;
        struct timespec ts = {0, (long)(step * 1e6)};
        nanosleep(&ts, NULL);
        show_background(ui, timing, 0);
        follow_refresh(ui, timing, 0);
    }
}

/* The first screen, then events until the user or the script quits.
 * Returns 0, or 1 when the script has an error (the message printed). */
static int run(struct ui *ui, struct ui_script *script, FILE *timing, double t_start,
               double c_start)
{
    ui_open_view(ui, UI_V_FUNCTIONS, NULL);
    if (ui->orig.warnings.n)
        ui_error(ui, "warning: %s%s", ui->orig.warnings.v[0],
                 ui->orig.warnings.n > 1 ? " (and more: stackscope check FILE)" : "");
    else if (!ui->resumed)
        last_session_hint(ui);

    /* the top function is the current one from the start (calls, runs) */
    struct ui_view *first = ui_current(ui);
    if (prepare_view(ui, first) == 0)
        ui_list_fit(&first->list);
    follow_selection(ui);
    ui->defer = 1;
    draw(ui);
    if (timing)
        fprintf(timing, "%.3f\t%.3f\tfirst screen (after loading)\n", now_ms() - t_start,
                cpu_ms() - c_start);
    ui_warm_start(ui);
    finish_deferred(ui, timing);

    while (!ui->quit) {
        struct ui_event ev;
        show_background(ui, timing, 0);
        if (script) {
            char msg[1024];
            int r = ui_script_next(script, &ev, msg, sizeof msg);
            if (r < 0) {
                ui_display_close();
                fprintf(stderr, "stackscope: %s\n", msg);
                return 1;
            }
            if (r == 0)
                break;
            /* a script saves the screen as it is once everything is shown */
            if (ev.key == UI_K_COMMAND && !strncmp(ev.command, "save-", 5))
                show_background(ui, timing, 1);
        } else {
            int r;
            while ((r = ui_display_read(&ev, ui_runs_busy(ui) || ui_verdicts_busy(ui) ||
                                                 ui_following(ui))) == 2) {
                show_background(ui, timing, 0); /* a pause: the extras may be ready */
                follow_refresh(ui, timing, 0);  /* ... or the followed file grew */
            }
            if (!r)
                break; /* a signal */
        }
        if (ev.key == UI_K_SLEEP) { /* a script's <Sleep MS> */
            sleep_following(ui, timing, ev.x);
            continue;
        }
        double t0 = now_ms(), c0 = cpu_ms();
        ui_verdicts_drawn(ui);
        handle(ui, &ev);
        if (!ui->quit)
            draw(ui);
        if (timing) {
            char name[64];
            if (ev.key == UI_K_COMMAND)
                snprintf(name, sizeof name, ":%.60s", ev.command);
            else if (ev.key == UI_K_MOUSE)
                snprintf(name, sizeof name, "mouse %d,%d", ev.x, ev.y);
            else
                ui_key_name(ev.key, name, sizeof name);
            fprintf(timing, "%.3f\t%.3f\t%s\n", now_ms() - t0, cpu_ms() - c0, name);
        }
        finish_deferred(ui, timing);
    }
    return 0;
}

/* Keep the transform list for `--resume` / `:resume` (state.h).  Nothing
 * is written for a session without transforms, so that opening a profile
 * just to look never forgets the list of the session before.  Returns 0,
 * -1 with the message in msg, or 1 with a warning there (not kept). */
static int save_state(struct ui *ui, char *msg, size_t n)
{
    if (ss_tf_active(ui->tf) == 0)
        return 0;
    struct ss_error err;
    ss_error_clear(&err);
    char warn[1200];
    if (ss_state_save(ui->files, ui->nfiles, ui->tf, warn, sizeof warn, &err)) {
        snprintf(msg, n, "cannot keep the transform list for --resume: %.900s", err.msg);
        return -1;
    }
    if (warn[0]) /* an unsafe state directory: said once, the exit status kept */
        snprintf(msg, n, "warning: the transform list is not kept for --resume: %.900s", warn);
    return warn[0] ? 1 : 0;
}

int ss_ui_main(struct ss_explore *in)
{
    double t_start = now_ms(), c_start = cpu_ms();
    struct ui *ui = calloc(1, sizeof *ui); /* big: not on the stack */
    struct ui_script *script = NULL;
    FILE *timing = NULL;
    const char *script_path = getenv("STACKSCOPE_SCRIPT");
    const char *tpath = getenv("STACKSCOPE_UI_TIMING");
    char msg[1024];
    int cols, rows, status = 1;

    struct ss_tf_list *start = in->start;
    in->start = NULL;
    if (!ui || ui_init(ui, in)) {
        ss_tf_list_free(start);
        fprintf(stderr, "stackscope: out of memory\n");
        status = 2;
        goto done;
    }
    if (start) {
        ss_tf_list_free(ui->tf);
        ui->tf = start;
        /* the new list takes the spare arrays too (struct ss_spare) */
        ss_tf_list_set_spare(ui->tf, &ui->spare);
        size_t n = ss_tf_count(start);
        if (ui->resumed)
            snprintf(msg, sizeof msg, "resumed the last session: %zu transform%s", n, ss_s(n));
        else
            snprintf(msg, sizeof msg, "started with: %zu transform%s (u undoes them)", n, ss_s(n));
        if (ui_reapply(ui, msg) == 0)
            ui->saved_gen = ui->gen; /* the state file or the command line holds them */
    }
    if (in->compare_phases && ui_compare_phases(ui, in->phase[0], in->phase[1])) {
        fprintf(stderr, "stackscope: --%s\n", ui->msg);
        goto done;
    }
    if (in->window && ui_compare_recent(ui, in->window)) {
        fprintf(stderr, "stackscope: --window: %s\n", ui->msg);
        goto done;
    }
    if (script_path && *script_path) {
        script = ui_script_open(script_path, msg, sizeof msg);
        if (!script) {
            fprintf(stderr, "stackscope: %s\n", msg);
            goto done;
        }
        ui->headless = 1;
    }
    if (tpath && *tpath && !(timing = fopen(tpath, "w"))) {
        fprintf(stderr, "stackscope: %s: cannot write the timings\n", tpath);
        goto done;
    }
    headless_size(&cols, &rows);
    if (ui_display_open(ui->headless, cols, rows, msg, sizeof msg)) {
        fprintf(stderr, "stackscope: %s\n", msg);
        goto done;
    }
    status = run(ui, script, timing, t_start, c_start);
    if (ui_display_signal())
        status = 128 + ui_display_signal();
    ui_display_close();
    int saved;
    if ((status == 0 || ui_display_signal()) && (saved = save_state(ui, msg, sizeof msg))) {
        fprintf(stderr, "stackscope: %s\n", msg);
        if (status == 0 && saved < 0)
            status = 2;
    }
done:
    ui_display_close(); /* a no-op when it is not open */
    ui_script_free(script);
    if (timing)
        fclose(timing);
    if (ui)
        ui_free(ui);
    free(ui);
    return status;
}
