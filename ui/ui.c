/* ui.c - the main loop and everything the views share: the view history,
 * generic requests (moving, searching, switching, trimming), the transform
 * list and the current model, messages (see app.h, ui.h).
 *
 * Events (keys from the terminal or a script) are turned into requests by
 * the key table; the view on screen gets the first say, then the generic
 * handler here.  After every event the whole screen is formatted into the
 * canvas and painted (curses sends only what changed).
 */
#include "ui.h"

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
#include "status.h"

static const struct ui_view_ops *const view_ops[UI_V_COUNT] = {
    [UI_V_FUNCTIONS] = &ui_view_functions,   [UI_V_STACKS] = &ui_view_stacks,
    [UI_V_TOPDOWN] = &ui_view_topdown,       [UI_V_BOTTOMUP] = &ui_view_bottomup,
    [UI_V_CALLS] = &ui_view_calls,           [UI_V_TIMELINE] = &ui_view_timeline,
    [UI_V_LEVELS] = &ui_view_levels,         [UI_V_RUNS] = &ui_view_runs,
    [UI_V_LINES] = &ui_view_lines,           [UI_V_SOURCES] = &ui_view_sources,
    [UI_V_TRANSFORMS] = &ui_view_transforms, [UI_V_HELP] = &ui_view_help,
};

/* ---- messages ------------------------------------------------------------ */

void ui_message(struct ui *ui, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui->msg, sizeof ui->msg, fmt, ap);
    va_end(ap);
    ui->msg_style = UI_S_MESSAGE;
}

void ui_error(struct ui *ui, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ui->msg, sizeof ui->msg, fmt, ap);
    va_end(ap);
    ui->msg_style = UI_S_ERROR;
}

/* ---- views and history --------------------------------------------------- */

struct ui_view *ui_current(struct ui *ui)
{
    return &ui->views[ui->hist[ui->nhist - 1].view];
}

const char *ui_view_arg(struct ui *ui)
{
    return ui->hist[ui->nhist - 1].arg;
}

const char *ui_view_function(struct ui *ui)
{
    const char *arg = ui_view_arg(ui);
    return arg ? arg : ui->cur_fn;
}

int ui_sort_request(struct ui *ui, struct ui_view *v, enum ui_request req, const char *const *names,
                    int nsorts)
{
    if (req == UI_REQ_SORT_NEXT) {
        v->sort = (v->sort + 1) % nsorts;
        v->sort_rev = 0;
        ui_message(ui, "sorted by %s", names[v->sort]);
        return UI_HANDLED;
    }
    if (req == UI_REQ_SORT_REVERSE) {
        v->sort_rev = !v->sort_rev;
        return UI_HANDLED;
    }
    return UI_UNHANDLED;
}

static int same_arg(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

void ui_open_view(struct ui *ui, enum ui_view_id v, const char *arg)
{
    if (ui->nhist > 0 && ui->hist[ui->nhist - 1].view == v &&
        same_arg(ui->hist[ui->nhist - 1].arg, arg))
        return;
    char *copy = arg ? strdup(arg) : NULL;
    if (arg && !copy) {
        ui_error(ui, "out of memory");
        return;
    }
    /* one entry per (view, argument): going back never loops */
    for (int i = 0; i < ui->nhist; i++) {
        if (ui->hist[i].view == v && same_arg(ui->hist[i].arg, arg)) {
            free(ui->hist[i].arg);
            memmove(&ui->hist[i], &ui->hist[i + 1], (size_t)(ui->nhist - i - 1) * sizeof *ui->hist);
            ui->nhist--;
            break;
        }
    }
    if (ui->nhist == (int)(sizeof ui->hist / sizeof *ui->hist)) {
        free(ui->hist[0].arg);
        memmove(&ui->hist[0], &ui->hist[1], (size_t)(ui->nhist - 1) * sizeof *ui->hist);
        ui->nhist--;
    }
    ui->hist[ui->nhist].view = v;
    ui->hist[ui->nhist].arg = copy;
    ui->nhist++;
}

static void go_back(struct ui *ui)
{
    if (ui->nhist <= 1) {
        ui->quit = 1;
        return;
    }
    ui->nhist--;
    free(ui->hist[ui->nhist].arg);
    ui->hist[ui->nhist].arg = NULL;
}

void ui_set_function(struct ui *ui, const char *name)
{
    if (same_arg(ui->cur_fn, name))
        return;
    char *copy = name ? strdup(name) : NULL;
    free(ui->cur_fn);
    ui->cur_fn = copy;
}

/* ---- the transform list -------------------------------------------------- */

static uint64_t count_samples(const struct ss_model *m)
{
    return ss_model_count(m, 0, m->sample_stack.n);
}

static void describe_step(struct ui *ui, const char *what, size_t step)
{
    const struct ss_tf_effect *e = ss_tf_effect(ui->tf, step);
    char extra[128] = "";
    if (e->samples_emptied)
        snprintf(extra, sizeof extra, ", %zu samples left with no frames", e->samples_emptied);
    ui_message(ui, "%s: %zu -> %zu samples, %llu frames removed, %zu stacks changed%s", what,
               e->samples_in, e->samples_out, (unsigned long long)e->frames_removed,
               e->stacks_changed, extra);
}

int ui_reapply(struct ui *ui, const char *what)
{
    struct ss_model nm;
    memset(&nm, 0, sizeof nm);
    if (ss_tf_count(ui->tf) > 0) {
        struct ss_error err;
        ss_error_clear(&err);
        if (ss_tf_apply(ui->tf, &ui->orig, &nm, &err)) {
            ss_model_free(&nm);
            ss_tf_undo(ui->tf);
            ui_error(ui, "%s: %s (not applied)", what, err.msg);
            return -1;
        }
    }
    ui_cache_clear(&ui->cache);
    if (ui->have_tm)
        ss_model_free(&ui->tm);
    ui->have_tm = 0;
    if (ss_tf_count(ui->tf) > 0) {
        ui->tm = nm;
        ui->have_tm = 1;
        ui->m = &ui->tm;
    } else {
        ui->m = &ui->orig;
    }
    ui->gen++;
    ui->cache.gen = ui->gen;
    ui_message(ui, "%s", what);
    return 0;
}

int ui_add_transform(struct ui *ui, const char *cmd, int edit_step, int insert_at)
{
    struct ss_error err;
    ss_error_clear(&err);
    int rc;
    size_t step;
    if (edit_step >= 0) {
        rc = ss_tf_change(ui->tf, (size_t)edit_step, cmd, &err);
        step = (size_t)edit_step;
    } else if (insert_at >= 0 && (size_t)insert_at <= ss_tf_count(ui->tf)) {
        rc = ss_tf_insert(ui->tf, (size_t)insert_at, cmd, &err);
        step = (size_t)insert_at;
    } else {
        rc = ss_tf_append(ui->tf, cmd, &err);
        step = ss_tf_count(ui->tf) - 1;
    }
    if (rc) {
        ui_error(ui, "%s: %s", cmd, err.msg[0] ? err.msg : "cannot add this step");
        return -1;
    }
    if (ui_reapply(ui, cmd))
        return -1;
    if (step < ss_tf_count(ui->tf) && ss_tf_enabled(ui->tf, step))
        describe_step(ui, ss_tf_text(ui->tf, step), step);
    return 0;
}

const char *ui_quote_name(const char *name, char *buf, size_t n)
{
    int bare = *name != '\0';
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '.' || *p == '_'))
            bare = 0;
    if (bare && !strcmp(name, "auto"))
        bare = 0;
    if (bare) {
        snprintf(buf, n, "%s", name);
        return buf;
    }
    size_t k = 0;
    if (n < 3) {
        if (n)
            buf[0] = '\0';
        return buf;
    }
    buf[k++] = '"';
    for (const char *p = name; *p && k + 3 < n; p++) {
        if (*p == '"' || *p == '\\')
            buf[k++] = '\\';
        buf[k++] = *p;
    }
    buf[k++] = '"';
    buf[k] = '\0';
    return buf;
}

/* The transform a trimming key makes of the selected function. */
static void trim_selected(struct ui *ui, struct ui_view *v, const char *verb)
{
    const char *fn =
        v->ops->row_function && v->list.n ? v->ops->row_function(ui, v, v->list.sel) : NULL;
    if (!fn) {
        ui_error(ui, "%s: no function is selected in this view", verb);
        return;
    }
    size_t n = 2 * strlen(fn) + 3; /* every byte escaped, quotes, NUL */
    char *q = malloc(n), *cmd = malloc(n + strlen(verb) + 2);
    if (!q || !cmd) {
        ui_error(ui, "out of memory");
    } else {
        sprintf(cmd, "%s %s", verb, ui_quote_name(fn, q, n));
        ui_add_transform(ui, cmd, -1, -1);
    }
    free(q);
    free(cmd);
}

/* ---- search -------------------------------------------------------------- */

/* Case-insensitive unless the pattern has a capital (less's -i, smartcase). */
static int text_matches(const char *text, const char *pat)
{
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
    char *fm = malloc(m->functions.n);
    if (!fm)
        return 0;
    for (size_t f = 0; f < m->functions.n; f++)
        fm[f] = (char)text_matches(ss_function_name(m, (ss_id)f), pat);
    char *sm = calloc(ss_model_nstacks(m) + 1, 1);
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

void ui_search(struct ui *ui, const char *pat, int dir)
{
    struct ui_view *v = ui_current(ui);
    if (pat != ui->search)
        snprintf(ui->search, sizeof ui->search, "%s", pat);
    if (!ui->search[0]) {
        ui_error(ui, "no search yet: / starts one");
        return;
    }
    if (!v->ops->row_text || v->list.n == 0) {
        ui_error(ui, "nothing to search in this view");
        return;
    }
    char buf[8192];
    size_t n = v->list.n, count = 0, found = SIZE_MAX;
    for (size_t k = 1; k <= n; k++) {
        /* from the row after (before) the selection, wrapping */
        size_t r = dir > 0 ? (v->list.sel + k) % n : (v->list.sel + n - k % n) % n;
        const char *t = v->ops->row_text(ui, v, r, buf, sizeof buf);
        if (t && text_matches(t, ui->search)) {
            count++;
            if (found == SIZE_MAX)
                found = r;
        }
    }
    if (found == SIZE_MAX) {
        ui_error(ui, "/%s: no match", ui->search);
        return;
    }
    ui_list_select(&v->list, found);
    /* the position of the match among all matches, in row order */
    size_t idx = 0;
    for (size_t r = 0; r <= found; r++) {
        const char *t = v->ops->row_text(ui, v, r, buf, sizeof buf);
        if (t && text_matches(t, ui->search))
            idx++;
    }
    ui_message(ui, "/%s: match %zu of %zu; %.1f%% of the samples have a matching function",
               ui->search, idx, count, match_share(ui, ui->search));
}

/* ---- requests ------------------------------------------------------------ */

static enum ui_view_id view_of_request(enum ui_request r)
{
    switch (r) {
    case UI_REQ_VIEW_STACKS:
        return UI_V_STACKS;
    case UI_REQ_VIEW_TOPDOWN:
        return UI_V_TOPDOWN;
    case UI_REQ_VIEW_BOTTOMUP:
        return UI_V_BOTTOMUP;
    case UI_REQ_VIEW_CALLS:
        return UI_V_CALLS;
    case UI_REQ_VIEW_TIMELINE:
        return UI_V_TIMELINE;
    case UI_REQ_VIEW_LEVELS:
        return UI_V_LEVELS;
    case UI_REQ_VIEW_RUNS:
        return UI_V_RUNS;
    case UI_REQ_VIEW_LINES:
        return UI_V_LINES;
    case UI_REQ_VIEW_SOURCES:
        return UI_V_SOURCES;
    case UI_REQ_VIEW_TRANSFORMS:
        return UI_V_TRANSFORMS;
    case UI_REQ_VIEW_HELP:
        return UI_V_HELP;
    default:
        return UI_V_FUNCTIONS;
    }
}

/* Open view id with the argument it takes: the current function for the
 * calls and run-length views. */
void ui_switch_view(struct ui *ui, enum ui_view_id id)
{
    const char *arg = (id == UI_V_CALLS || id == UI_V_RUNS) ? ui->cur_fn : NULL;
    ui_open_view(ui, id, arg);
}

void ui_undo(struct ui *ui, int redo)
{
    if (!(redo ? ss_tf_redo(ui->tf) : ss_tf_undo(ui->tf))) {
        ui_error(ui, "nothing to %s", redo ? "redo" : "undo");
        return;
    }
    char what[64];
    snprintf(what, sizeof what, "%s: %zu transforms in effect", redo ? "redone" : "undone",
             ss_tf_active(ui->tf));
    ui_reapply(ui, what);
}

static void request(struct ui *ui, enum ui_request req, const struct ui_event *ev)
{
    struct ui_view *v = ui_current(ui);
    if (v->ops->request && v->ops->request(ui, v, req, ev) == UI_HANDLED)
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
        int n = UI_V_COUNT - 1; /* help is not in the cycle */
        int id = v->id == UI_V_HELP ? 0 : (int)v->id;
        id = (id + (req == UI_REQ_NEXT_VIEW ? 1 : n - 1)) % n;
        ui_switch_view(ui, (enum ui_view_id)id);
        break;
    }
    case UI_REQ_VIEW_FUNCTIONS:
    case UI_REQ_VIEW_STACKS:
    case UI_REQ_VIEW_TOPDOWN:
    case UI_REQ_VIEW_BOTTOMUP:
    case UI_REQ_VIEW_CALLS:
    case UI_REQ_VIEW_TIMELINE:
    case UI_REQ_VIEW_LEVELS:
    case UI_REQ_VIEW_RUNS:
    case UI_REQ_VIEW_LINES:
    case UI_REQ_VIEW_SOURCES:
    case UI_REQ_VIEW_TRANSFORMS:
    case UI_REQ_VIEW_HELP:
        ui_switch_view(ui, view_of_request(req));
        break;
    case UI_REQ_BACK:
        go_back(ui);
        break;
    case UI_REQ_QUIT:
        ui->quit = 1;
        break;
    case UI_REQ_REDRAW:
        if (!ui->headless)
            ui_display_touch();
        break;
    case UI_REQ_SEARCH:
        ui_prompt_start(ui, '/', "");
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
    case UI_REQ_UNDO:
        ui_undo(ui, 0);
        break;
    case UI_REQ_REDO:
        ui_undo(ui, 1);
        break;
    case UI_REQ_DROP_FN:
        trim_selected(ui, v, "drop");
        break;
    case UI_REQ_FOCUS_FN:
        trim_selected(ui, v, "focus");
        break;
    case UI_REQ_MERGE_FN:
        trim_selected(ui, v, "merge");
        break;
    case UI_REQ_PRUNE_FN:
        trim_selected(ui, v, "prune");
        break;
    case UI_REQ_TRIM_TO_FN:
        trim_selected(ui, v, "trim-to");
        break;
    case UI_REQ_COLLAPSE_FN:
        trim_selected(ui, v, "collapse-recursion");
        break;
    case UI_REQ_TRIM_BASE_LEVEL: {
        uint32_t lv = v->ops->row_level && l->n ? v->ops->row_level(ui, v, l->sel) : 0;
        if (!lv) {
            ui_error(ui, "trim-base: select a level first (levels view, timeline, a stack's "
                         "frames or the top-down tree); B cuts the scaffold");
            break;
        }
        char cmd[64];
        snprintf(cmd, sizeof cmd, "trim-base %u", lv);
        ui_add_transform(ui, cmd, -1, -1);
        break;
    }
    case UI_REQ_TRIM_BASE_AUTO:
        ui_add_transform(ui, "trim-base auto", -1, -1);
        break;
    default:
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
    if (r < 0 || r >= l->page || l->top + (size_t)r >= l->n)
        return;
    ui_list_select(l, l->top + (size_t)r);
    if (ev->button == UI_B_DOUBLE) {
        struct ui_event enter = {UI_K_ENTER, 0, 0, 0, NULL};
        request(ui, ui_key_request(UI_K_ENTER, v->id), &enter);
    }
}

/* ---- drawing ------------------------------------------------------------- */

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
    if (v->ops->prepare(ui, v) == 0)
        v->ops->draw(ui, v, c, 1, rows - 3); /* sets the page size and scrolls */
    ui_status_draw_title(ui, c, 0);
    ui_status_draw(ui, c, rows - 2);
    int cx = -1;
    if (ui->prompt.active && ui->msg[0])
        ui_put_head(c, rows - 2, 0, cols, ui->msg, ui->msg_style); /* completions, errors */
    if (ui->prompt.active)
        cx = ui_prompt_draw(ui, c, rows - 1);
    else
        ui_put_head(c, rows - 1, 0, cols, ui->msg, ui->msg_style);
    ui_display_paint(c, cx >= 0 ? rows - 1 : -1, cx);
}

/* The function under the selection becomes the current function. */
static void follow_selection(struct ui *ui)
{
    struct ui_view *v = ui_current(ui);
    /* a level's top function or a timeline cell is not a choice of function */
    if (!v->ops->row_function || v->list.n == 0 || v->id == UI_V_RUNS || v->id == UI_V_TIMELINE ||
        v->id == UI_V_LEVELS)
        return;
    if (v->ops->prepare(ui, v))
        return;
    const char *fn = v->ops->row_function(ui, v, v->list.sel);
    if (fn)
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
    if (ui->prompt.active) {
        ui_prompt_key(ui, ev);
        follow_selection(ui);
        return;
    }
    ui->msg[0] = '\0';
    struct ui_view *v = ui_current(ui);
    if (v->ops->prepare(ui, v) == 0)
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

/* CPU time of the process: what a key costs, whatever else the machine
 * is doing (the wall time is reported too). */
static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
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

/* Draw again with the deferred extras computed (see struct ui). */
static void finish_deferred(struct ui *ui, FILE *timing)
{
    if (!ui->pending || ui->quit)
        return;
    double t0 = now_ms(), c0 = cpu_ms();
    ui->pending = 0;
    ui->defer = 0;
    draw(ui);
    ui->defer = 1;
    ui->pending = 0;
    if (timing)
        fprintf(timing, "%.3f\t%.3f\t(deferred: run lengths)\n", now_ms() - t0, cpu_ms() - c0);
}

int ss_ui_available(void)
{
    const char *s = getenv("STACKSCOPE_SCRIPT");
    return (s && *s) || (isatty(STDIN_FILENO) && isatty(STDOUT_FILENO));
}

static void ui_free(struct ui *ui)
{
    for (int i = 0; i < UI_V_COUNT; i++)
        if (ui->views[i].ops && ui->views[i].ops->free)
            ui->views[i].ops->free(&ui->views[i]);
    for (int i = 0; i < ui->nhist; i++)
        free(ui->hist[i].arg);
    ui_prompt_free(ui);
    ui_cache_clear(&ui->cache);
    if (ui->have_tm)
        ss_model_free(&ui->tm);
    ss_model_free(&ui->orig);
    ss_tf_list_free(ui->tf);
    free(ui->cur_fn);
    ui_canvas_free(&ui->canvas);
}

int ss_ui_main(struct ss_model *m, char *const *files, int nfiles)
{
    double t_start = now_ms(), c_start = cpu_ms();
    static struct ui ui; /* big; one per process */
    memset(&ui, 0, sizeof ui);
    ui.orig = *m;
    memset(m, 0, sizeof *m);
    ui.m = &ui.orig;
    ui.gen = 1;
    ui.cache.gen = 1;
    ui.files = files;
    ui.nfiles = nfiles;
    ui.orig_samples = count_samples(&ui.orig);
    ui.tf = ss_tf_list_new();
    for (int i = 0; i < UI_V_COUNT; i++) {
        ui.views[i].ops = view_ops[i];
        ui.views[i].id = (enum ui_view_id)i;
        ui.views[i].list.page = 1;
    }
    if (!ui.tf) {
        fprintf(stderr, "stackscope: out of memory\n");
        ui_free(&ui);
        return 2;
    }

    const char *script_path = getenv("STACKSCOPE_SCRIPT");
    struct ui_script *script = NULL;
    char msg[1024];
    if (script_path && *script_path) {
        script = ui_script_open(script_path, msg, sizeof msg);
        if (!script) {
            fprintf(stderr, "stackscope: %s\n", msg);
            ui_free(&ui);
            return 1;
        }
        ui.headless = 1;
    }
    FILE *timing = NULL;
    const char *tpath = getenv("STACKSCOPE_UI_TIMING");
    if (tpath && *tpath && !(timing = fopen(tpath, "w"))) {
        fprintf(stderr, "stackscope: %s: cannot write the timings\n", tpath);
        ui_script_free(script);
        ui_free(&ui);
        return 1;
    }
    int cols, rows;
    headless_size(&cols, &rows);
    if (ui_display_open(ui.headless, cols, rows, msg, sizeof msg)) {
        fprintf(stderr, "stackscope: %s\n", msg);
        ui_script_free(script);
        if (timing)
            fclose(timing);
        ui_free(&ui);
        return 1;
    }
    ui_open_view(&ui, UI_V_FUNCTIONS, NULL);
    if (ui.orig.warnings.n)
        ui_error(&ui, "warning: %s%s", ui.orig.warnings.v[0],
                 ui.orig.warnings.n > 1 ? " (and more: stackscope check FILE)" : "");
    else
        ui_message(&ui, "? help   q back/quit   Tab next view   : command   / search");
    /* the top function is the current one from the start (calls, runs) */
    struct ui_view *first = ui_current(&ui);
    if (first->ops->prepare(&ui, first) == 0)
        ui_list_fit(&first->list);
    follow_selection(&ui);
    ui.defer = 1;
    draw(&ui);
    if (timing)
        fprintf(timing, "%.3f\t%.3f\tfirst screen (after loading)\n", now_ms() - t_start,
                cpu_ms() - c_start);
    finish_deferred(&ui, timing);

    while (!ui.quit) {
        struct ui_event ev;
        if (script) {
            int r = ui_script_next(script, &ev, msg, sizeof msg);
            if (r < 0) {
                ui_display_close();
                fprintf(stderr, "stackscope: %s\n", msg);
                ui.status = 1;
                break;
            }
            if (r == 0)
                break;
        } else if (!ui_display_read(&ev)) {
            break; /* a signal */
        }
        double t0 = now_ms(), c0 = cpu_ms();
        handle(&ui, &ev);
        if (!ui.quit)
            draw(&ui);
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
        finish_deferred(&ui, timing);
    }
    int sig = ui_display_signal();
    ui_display_close();
    ui_script_free(script);
    if (timing)
        fclose(timing);
    int status = sig ? 128 + sig : ui.status;
    ui_free(&ui);
    return status;
}
