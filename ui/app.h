/* app.h - the UI's state and the view interface (internal to ui/).
 *
 * One `struct ui` holds the original model, the transform list and the
 * model the list gives (the "current" model every view reads), plus the
 * statistics of that model, computed lazily and cached until the next edit
 * (cache.c).  Each view is one file implementing `struct ui_view_ops`
 * (tig's view_ops): it prepares its rows from the current model when the
 * model's generation changed, draws them into the canvas, and handles the
 * requests that mean something special to it; everything else is generic:
 * moving, searching, switching views (ui.c), undo and the trimming keys
 * (session.c), the prompt (prompt.c).  The list of views is views.h.
 *
 * Views hold ids and names, never pointers into a model: after an edit the
 * model is replaced and each view rebuilds its rows on its next draw,
 * keeping the selection by name where it can.
 */
#ifndef UI_APP_H
#define UI_APP_H

#include <regex.h>
#include <stdint.h>
#include <stdio.h>

#include "canvas.h"
#include "column.h"
#include "keys.h"
#include "list.h"
#include "model.h"
#include "units.h"
#include "stacks.h"
#include "source.h"
#include "stats.h"
#include "runs.h"
#include "levels.h"
#include "phases.h"
#include "transform.h"
#include "compare.h"

struct ui;
struct ui_view;

/* What a request handler did. */
enum { UI_UNHANDLED = 0, UI_HANDLED = 1 };

/* View flags (ui_view_ops.flags). */
enum {
    UI_VF_NO_CYCLE = 1 << 0,      /* Tab and S-Tab skip it (help) */
    UI_VF_KEEP_FUNCTION = 1 << 1, /* its selection does not change the current
                                     function (a level's top function, a
                                     timeline cell, the rows of one function) */
    UI_VF_NO_FILTER = 1 << 2,     /* no filter (&): its rows are not a flat list
                                     (a tree, a graph, the timeline's levels) */
};

struct ui_view_ops {
    const char *name; /* the title: "functions" (views.h has its command) */
    unsigned flags;   /* UI_VF_* */
    /* The size of the view's private data: the generic code allocates it
     * zeroed (v->priv) before the view is used and frees it at the end. */
    size_t priv_size;
    /* Optional: set up the fresh private data where zero is not the start. */
    void (*init)(struct ui_view *v);
    /* Bring v's rows up to date (v->list.n) for the current model and the
     * view's argument (ui_view_arg); called before every draw and request.
     * Returns 0, or an error code with a message set (ui_error). */
    int (*prepare)(struct ui *ui, struct ui_view *v);
    /* The title shown on the top line (after the view name). */
    void (*title)(struct ui *ui, struct ui_view *v, char *buf, size_t n);
    /* Draw the body: rows y .. y+h-1 of the canvas (set v->list.page). */
    void (*draw)(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h);
    /* Handle a request; UI_UNHANDLED leaves it to the generic handler. */
    int (*request)(struct ui *ui, struct ui_view *v, enum ui_request req,
                   const struct ui_event *ev);
    /* The text of row r that '/' searches (into buf), or NULL. */
    const char *(*row_text)(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n);
    /* The function name of row r (borrowed from the current model), or NULL. */
    const char *(*row_function)(struct ui *ui, struct ui_view *v, size_t r);
    /* Optional: the source position of row r itself (a flame frame at one
     * line): its file (a string id of the current model) and line; returns
     * 1, or 0 when the row has none (`a` then opens its function's). */
    int (*row_location)(struct ui *ui, struct ui_view *v, size_t r, ss_id *file, uint32_t *line);
    /* The level (1 = root) of row r, or 0. */
    uint32_t (*row_level)(struct ui *ui, struct ui_view *v, size_t r);
    /* Optional, for views whose rows hide others (collapsed tree nodes):
     * search every item, not only the rows shown, for the next (dir > 0) or
     * previous match of pat after the selection (wrapping), with
     * match(text, pat) deciding; reveal and select it.  Returns 0 with *idx
     * (1-based, in the view's order) and *count of the matches, or -1 when
     * nothing matches.  Without it, '/' searches row_text. */
    int (*search)(struct ui *ui, struct ui_view *v, const char *pat, int dir,
                  int (*match)(struct ui *ui, const char *text, const char *pat), size_t *idx,
                  size_t *count);
    /* Optional: free what the private data owns (not v->priv itself). */
    void (*free)(struct ui_view *v);
};

struct ui_view {
    const struct ui_view_ops *ops;
    enum ui_view_id id;
    struct ui_list list;
    int sort, sort_rev; /* sort column (view-defined) and direction */
    int hscroll;        /* columns scrolled right (wide tables) */
    int rows_y;         /* screen row of list row `list.top` (for the mouse) */
    void *priv;         /* the view's own data: ops->priv_size bytes, or NULL */
    /* ui.c: the filter (& and F4): the text, the rows it shows (list.vis
     * points here) and what they were computed for (the model, the rows,
     * the order, the view's argument) */
    char filter[256];
    uint32_t *filt;
    size_t nfilt;
    struct {
        int valid, sort, rev, runs;
        unsigned gen;
        size_t n;
        char *arg; /* owned */
    } filt_key;
    /* table.c: the widths its table's fixed columns took to show every
     * number on screen whole, for model generation fit_gen and the column
     * set fit_cols of fit_n columns (ui_table_draw) */
    int fit_w[16];
    unsigned fit_gen;
    const void *fit_cols;
    size_t fit_n;
};

/* One entry of the view history (q goes back): a view and its argument
 * (the function of a calls / runs view, the focus of a tree; NULL none). */
struct ui_hist {
    enum ui_view_id view;
    char *arg; /* owned */
};

struct ui_runs_job;
struct ui_warm_job;

/* The units of the comparison's verdicts (verdicts.c): kept for the
 * models of generation `gen`, and worked out on a thread (job) for big
 * profiles; vgen is bumped when a job's units arrive (the tables with
 * pending verdicts are made again). */
struct ui_vkept;
struct ui_vjob;
struct ui_verdicts {
    unsigned gen, vgen;
    unsigned stamp; /* bumped before each key's draw (ui_verdicts_drawn) */
    int sync;       /* a job failed: the units are worked out at once */
    struct ui_vkept *kept;
    size_t n, next;
    struct ui_vjob *job;
};

/* Statistics of the current model, computed on first use (cache.c). */
struct ui_cache {
    unsigned gen; /* the model generation they belong to */
    int have_fn, have_line, have_runs, have_stacks, have_levels;
    int runs_failed;    /* the run lengths failed (said once): not again until the model changes */
    struct ss_stats fn; /* by function, in the core's row order (views sort indexes) */
    struct ss_stats line;    /* by line */
    struct ss_run_row *runs; /* every (function, level) row plus level 0 */
    size_t nruns;
    uint32_t *fn_runs; /* per row of `fn`: index of its level-0 runs row, or UINT32_MAX */
    struct ss_stacks stacks;
    struct ss_level_row *levels;
    size_t nlevels, scaffold; /* scaffold: levels 1..scaffold (share 1) */
    int have_cmp_fn, have_cmp_line;
    struct ss_cmp_stats cmp_fn, cmp_line; /* a comparison's functions and lines */
    /* The totals of the measure of the base and the current model
     * (ui_compare: every view and the status line compare them), for
     * those two models and sample counts. */
    int have_cmp_totals;
    const struct ss_model *cmp_b, *cmp_n;
    size_t cmp_b_n, cmp_n_n;
    double cmp_value_b, cmp_value_n;
    int have_phases;
    struct ss_phases phases; /* the phases the detector finds (phases.h) */
    /* The run lengths being computed on a thread of their own (cache.c:
     * ui_runs_start), NULL when none is.  The thread only reads the model;
     * ui_cache_clear stops it before the model may change. */
    struct ui_runs_job *job;
    /* The ui's verdicts (kept by ui_cache_clear), whose job stops with the
     * run lengths' (ui_runs_cancel): both read the models. */
    struct ui_verdicts *vd;
};

struct ui_prompt {
    int active;
    int kind;        /* ':', '/' (search) or '&' (filter) */
    char buf[8192];  /* long enough for a few long R names */
    size_t len, cur; /* bytes, cursor byte offset */
    int edit_step;   /* >= 0: the transform step being edited (':' only) */
    int insert_at;   /* >= 0: insert the command at this step */
    /* completion state: candidates of the last Tab, cycled by the next */
    char **cands;
    size_t ncands, ci;
    size_t word_start; /* where the completed word starts */
    int completing;
    /* history per kind */
    char *hist[3][64];
    size_t nhist[3];
    char before[256]; /* '&': the filter when the prompt opened (Esc restores it) */
    int hpos;
};

/* The message line's bytes (ui->msg). */
#define UI_MSG_LEN 1024

struct ui {
    struct ss_model orig; /* as loaded (owned) */
    struct ss_model tm;   /* the transformed model when the list is in effect */
    int have_tm;
    const struct ss_model *m; /* the current model: &orig or &tm */
    /* A comparison (stackscope(1), COMPARING; --base): the base as loaded and
     * transformed by the same list; bm is &borig or &btm, NULL when
     * nothing is compared.  `normalize` scales the base to the new total;
     * `swapped` says the sides were exchanged (X). */
    struct ss_model borig, btm;
    int have_btm, normalize, swapped;
    const struct ss_model *bm;
    /* Two phases of the profile compared (:compare-phases A B,
     * --compare-phases A,B): borig stays empty, btm is orig through the
     * list then keep-phase A, tm the same with keep-phase B; phase[0] is
     * A, phase[1] B, as keep-phase names them ("1", "main"), and
     * phase_eff what each resolved to (range_first, phases_found). */
    int phase_cmp; /* UI_CMP_PHASES or UI_CMP_RECENT (then phase[1] is the window) */
    char phase[2][32];
    struct ss_tf_effect phase_eff[2];
    double alpha; /* the level of the verdicts (verdict.h; --alpha, :alpha) */
    struct ss_tf_list *tf;
    /* the per-sample arrays of the last tm and btm, for the next key's
     * models (struct ss_spare: no fresh pages per transform) */
    struct ss_spare spare;
    struct ui_warm_job *warm; /* arrays for the spare, faulted in on a thread */
    unsigned gen;             /* bumped whenever m changes */
    struct ui_cache cache;
    struct ui_verdicts verdicts;
    uint64_t orig_samples; /* count values of all original samples */

    char *const *files;
    int nfiles;
    /* the --base files (borrowed, as files): inputs that :w may not
     * replace either */
    char *const *base_files;
    int nbase_files;
    double alpha_opt;          /* --alpha as given: :w's SVG takes it, as convert's */
    double folded_interval_us; /* --interval: folded stacks' period, for :follow */
    int resumed;               /* the first transform list is the saved session (--resume) */
    /* Directories the lines view searches for source files (--source-path,
     * :source-path; owned copies, in order).  source_gen is bumped when one
     * is added, so that files not found before are looked for again. */
    char **source_paths;
    size_t nsource_paths;
    /* --source-map and :source-map FROM=TO (each FROM an owned copy that
     * holds TO too) */
    struct ss_source_map *source_maps;
    size_t nsource_maps;
    unsigned source_gen;

    char *cur_fn;  /* the current function (name, owned), or NULL */
    ss_id cur_fid; /* its id when last found (ui_current_function) */
    int sel_stale; /* the current function is not in the model: the views
                      select other rows until the user moves (ui.c) */
    /* the view, selected row and model generation after the last event:
     * did the user move the selection? (follow_selection) */
    enum ui_view_id follow_view;
    size_t follow_sel;
    unsigned follow_gen;
    struct ui_view views[UI_V_COUNT];
    struct ui_hist hist[64];
    int nhist; /* hist[nhist - 1] is on screen */

    struct ui_prompt prompt;
    char search[256]; /* the last search */
    char msg[UI_MSG_LEN];
    int msg_style; /* UI_S_MESSAGE or UI_S_ERROR */
    /* The compiled regex of the last /regex/ pattern matched, or its error
     * (one at a time: '/' and '&' match every row against one pattern;
     * ui_text_matches). */
    struct ui_regex_cache {
        char key[256];
        regex_t re;
        int have, err;
    } regex;
    /* Where '/' started (incremental search): the view, its selection and
     * top, and the search before. */
    struct ui_isearch {
        int active;
        enum ui_view_id view;
        size_t sel, top;
        char before[256];
        char last[256];       /* the pattern the selection was last moved for */
        char msg[UI_MSG_LEN]; /* and what that search said */
        int msg_style;
    } isearch;

    struct ui_canvas canvas;
    int quit;
    int confirm_quit;   /* "quit? (y/n)" asked: the next key answers */
    unsigned saved_gen; /* the generation :w or :export-script last saved */
    int headless;
    /* Slow extras (the run-length columns) are left for after the screen
     * is painted: with `defer` set, a view that would compute them draws
     * without and sets `pending`; the main loop then computes them on a
     * thread (ui_runs_start) and keeps answering keys, and draws again when
     * they are ready (without threads: at once, with defer off).  So a key
     * is answered before the extras are done, and the next key need not
     * wait for them.  The phases of the timeline are left so too, found in
     * the foreground right after the screen (after the run lengths only
     * when one screen left both and the thread computes those). */
    int defer, pending; /* pending: UI_PENDING_* bits */
    double bg_ms;       /* when the background extras started (ms, for the timing file) */

    /* Following the file as it is written (--follow, :follow; follow.c):
     * orig grows, and the list is applied again, at most once a period. */
    struct ui_follow {
        struct ss_follow *f; /* NULL: not following */
        int paused;          /* :follow off */
        int over;            /* a poll failed (the message said why): no more */
        double last_ms;      /* the last read (monotonic ms) */
        double shown_ms;     /* the last redraw for the rate alone */
        double start_ms;     /* following began */
        /* the samples read by the last refreshes, and when: the rate */
        double hist_ms[8];
        uint64_t hist_n[8];
        unsigned nhist;
        uint64_t read;      /* samples read since following began */
        uint64_t behind;    /* bytes written and not read yet */
        int lagging;        /* the last read ended behind the file: catching up */
        unsigned refreshes; /* refreshes with new samples */
        double keep_s;      /* --keep: only the samples of the last keep_s seconds (0: all) */
        int keep_off;       /* ... not kept to: the samples have no time (said once) */
        uint64_t dropped;   /* samples forgotten so, in all */
    } follow;
};

enum { UI_PENDING_RUNS = 1, UI_PENDING_PHASES = 2 };

/* What ui->phase_cmp compares (0: neither). */
enum { UI_CMP_PHASES = 1, UI_CMP_RECENT = 2 };

/* ---- view_flame.c: what the sandwich view (view_sandwich.c) shares ---------- */

struct ss_flame;
struct ss_flame_node;
struct ss_flame_opts;

/* The flame view's options (inverted, time order, order), which :w F.svg
 * writes the graph with (write.h, ss_write_opts.svg); NULL: the defaults. */
const struct ss_flame_opts *ui_flame_svg_opts(struct ui *ui);

/* The weights of the current model's chosen measure (flame.h), either
 * pointer NULL when not wanted; the caller frees.  Returns 0, or -1 with
 * the message set. */
int ui_flame_weights(struct ui *ui, double **sw, double **pw);
/* The widest child of frame i, SS_FLAME_NONE for a leaf. */
uint32_t ui_flame_widest_child(const struct ss_flame *fl, uint32_t i);
/* A frame's style: by a stable hash of its function's name, or of its
 * class (by_class; a function without one stays plain). */
int ui_flame_style(const struct ss_model *m, int by_class, ss_id f);
/* Frame colours differ from their neighbours': function colour `style`
 * (UI_S_FN0..), or the next one that differs from the cells already drawn
 * left of column c0 of row yy and above and below it (rows y0 .. y1-1 are
 * the graph's); any other style as it is. */
int ui_flame_neighbour_style(const struct ui_canvas *c, int yy, int c0, int y0, int y1, int style);
/* A value of the chosen measure with its unit, into buf. */
void ui_flame_value(const struct ui *ui, double x, char *buf, size_t n);
/* A frame's source position ("file:line", the function's file, or ""),
 * into buf. */
const char *ui_flame_position(const struct ss_model *m, const struct ss_flame_node *nd, char *buf,
                              size_t n);
/* Draw a frame in columns [c0, c1) of row yy: an edge, then its name. */
void ui_flame_put_frame(struct ui_canvas *c, int yy, int c0, int c1, const char *name, int style);
/* In a comparison: the style of a frame by its delta (compare.h's shades:
 * red grew, blue shrank); with its verdict v (verdict.h; NULL: none), only
 * a frame that grew or shrank is coloured, in the verdict's direction, and
 * a `~` frame is plain. */
int ui_delta_style(double base, double cur, double max_delta, const struct ss_verdict *v);
/* In a comparison: ", base B, delta +D" for a frame with base total `base`
 * and total `cur`, its verdict v (", grew (q 0.003)", ", ~"; v NULL: none),
 * then "; only in the base: NAME VALUE, ..." for the frames of `gone`
 * under frame `frame`, heaviest first, as many as fit.  Into buf; returns
 * the length written (at most n - 1). */
int ui_flame_delta_text(const struct ui *ui, double base, double cur, const struct ss_verdict *v,
                        const struct ss_cmp_gone *gone, uint32_t frame, char *buf, size_t n);
/* "red grew, blue shrank beyond noise (q <= 0.05: 3 and 1), ~ plain" for
 * verdicts fv (fv->v NULL: the legend without verdicts), into buf. */
const char *ui_delta_legend(const struct ss_cmp_fverdicts *fv, char *buf, size_t n);

/* ---- view_lines.c: source files and the code pane ----------------------------- */

/* Add directory dir to the source search path (a copy).  Returns 0, or -1
 * when memory runs out. */
int ui_add_source_path(struct ui *ui, const char *dir);

/* Add the rewrite FROM=TO (source.h; copied).  Returns 0, 1 when arg is not
 * FROM=TO, or -1 when memory runs out. */
int ui_add_source_map(struct ui *ui, const char *arg);

/* Show source file `path` (as the profile names it) in the code pane at
 * `line` (0: its hottest line), lines lo..hi marked (0: none).  Returns 0,
 * or -1 after an error message (the file is found nowhere: the message
 * names the places tried). */
int ui_lines_open(struct ui *ui, const char *path, uint32_t line, uint32_t lo, uint32_t hi);

/* `a`: the code pane at the source of v's selected row: a frame's own
 * line, else its function's hottest line with the function's lines
 * marked; an error message when it has none. */
void ui_lines_show_selection(struct ui *ui, struct ui_view *v);

/* ---- follow.c: the file followed as it is written ------------------------------ */

/* The period of the refreshes: new samples are shown within it. */
#define UI_FOLLOW_PERIOD_MS 1000.0

/* Start following with f (taken over), whose samples so far orig holds. */
void ui_follow_begin(struct ui *ui, struct ss_follow *f);

/* Read what the file gained when a period has passed since the last
 * refresh (force: now, and everything there is), apply the list to the
 * grown profile and keep the views' selections.  Returns 1 when the
 * profile changed (the screen is due a redraw), else 0. */
int ui_follow_tick(struct ui *ui, int force);

/* Is a file followed (not paused, not over)?  The key loop then wakes up
 * to read it. */
int ui_following(const struct ui *ui);

/* The status line's part: "following: 50 samples/s, 12 MB behind" (empty
 * when nothing is followed), into buf. */
void ui_follow_status(struct ui *ui, char *buf, size_t n);

/* :follow [on|off|now]: start (the file read again from its start),
 * pause, resume or refresh at once. */
void ui_follow_command(struct ui *ui, const char *arg);

void ui_follow_free(struct ui *ui);

/* session.c: the profile grew; the list applied to it again, the views'
 * models replaced (the list's phases and trim-base auto found anew).
 * Returns 0, or -1 after an error message (the views then show the
 * profile without the list until it applies again). */
int ui_follow_reapply(struct ui *ui);

/* ---- context.c: what the explorer's parts share ------------------------------ */

/* The view on screen and its argument (borrowed, may be NULL). */
struct ui_view *ui_current(struct ui *ui);
const char *ui_view_arg(struct ui *ui);

/* The function a view of one function (calls, run lengths) shows: its
 * argument, else the current function (borrowed, may be NULL). */
const char *ui_view_function(struct ui *ui);

/* The sort keys of a sortable view: `s` takes the next of the view's
 * nsorts orders (named names[i]), `S` reverses the order.  Returns
 * UI_HANDLED for those two requests, else UI_UNHANDLED. */
int ui_sort_request(struct ui *ui, struct ui_view *v, enum ui_request req, const char *const *names,
                    int nsorts);

/* Show view v (pushing it on the history) with argument arg (copied). */
void ui_open_view(struct ui *ui, enum ui_view_id v, const char *arg);

/* Messages on the bottom line (printf-style). */
void ui_message(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ui_error(struct ui *ui, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Two view arguments the same (both NULL, or equal strings)? */
int ui_same_arg(const char *a, const char *b);

/* ---- the session (session.c), and ui.c's requests -------------------------- */

/* Weigh every view by measure `name` (session.c; model.h: measures): on the
 * loaded and the transformed model; a message names it.  Returns 0, or -1
 * after an error message (no such measure). */
int ui_set_measure(struct ui *ui, const char *name);

/* :alpha Q: the level of a comparison's verdicts; every view's verdicts are
 * made again (session.c).  Returns 0, or -1 after an error message. */
int ui_set_alpha(struct ui *ui, const char *arg);

/* X: exchange the base and the new profile of a comparison and re-apply
 * the transform list to both (an error message when nothing is compared). */
void ui_swap_base(struct ui *ui);

/* Z and :normalize: scale the base of a comparison to the new profile's
 * total, or not (as --normalize); an error message when nothing is
 * compared. */
void ui_toggle_normalize(struct ui *ui);

/* Compare phase b (the new profile) with phase a (the base) of the
 * profile, after the transform list (a, b as keep-phase takes them: "2",
 * "main"); a NULL ends such a comparison.  Returns 0, or -1 after an
 * error message (nothing changed). */
int ui_compare_phases(struct ui *ui, const char *a, const char *b);

/* Compare the last `window` of the profile (a duration: "10s") with the
 * run before it, after the transform list, normalized (--window,
 * :recent): the phase comparison's machinery, its sides `keep-samples
 * :-W` and `keep-samples -W:`, disjoint so that the verdicts compare
 * independent samples; with a followed file, the window moves with each
 * refresh.  NULL ends it.  Returns 0, or -1 after an error message. */
int ui_compare_recent(struct ui *ui, const char *window);

/* Format v, a value of the current measure, for a table cell (units.h). */
void ui_fmt_value(struct ui *ui, char *buf, size_t n, double v);

/* The width of a column of values of the current measure whose widest
 * value is `widest` (numbers are never cut): at least `min`. */
int ui_value_width(struct ui *ui, double widest, int min);

/* A sort order's name with the measure: "self time" becomes "self memory"
 * under memory (names that do not start "self time"/"total time" are kept). */
const char *ui_sort_name(struct ui *ui, const char *name, char *buf, size_t n);

/* The largest self and total of statistics st (for ui_value_width). */
double ui_stats_widest(const struct ss_stats *st);

/* Set the current function (name copied; NULL clears it). */
void ui_set_function(struct ui *ui, const char *name);

/* The current function's canonical id in the current model, or SS_NONE
 * when there is none or the model has no such function (any more).  Found
 * by id (ids survive transforms), else by name. */
ss_id ui_current_function(struct ui *ui);

/* Quit: at once when `force` (Q, :q!) or nothing is unsaved, else ask on
 * the message line (the next key answers). */
void ui_quit(struct ui *ui, int force);

/* Start the prompt of kind ':' or '/' with initial text. */
void ui_prompt_start(struct ui *ui, int kind, const char *text);

/* Search the current view's rows for pat from the selection on, forward
 * (dir > 0) or backward; the message line says which match of how many. */
void ui_search(struct ui *ui, const char *pat, int dir);

/* The '/' prompt as it is typed (less's incremental search): start
 * remembers where the selection is; each edit searches `pat` from there,
 * the row itself included (an empty pat goes back there); end searches
 * the line as accepted (Enter: pat), or goes back (Esc: pat NULL). */
void ui_search_start(struct ui *ui);
void ui_search_typed(struct ui *ui, const char *pat);
void ui_search_end(struct ui *ui, const char *pat);

/* The filter of the current view (&): only the rows whose text matches pat
 * (a substring, or /regex/) show; "" shows them all.  `typing`: the '&'
 * prompt is still open (a pattern that matches nothing shows nothing, and
 * is dropped only when accepted). */
void ui_filter(struct ui *ui, const char *pat, int typing);

/* Does text match pat, as '/' and '&' match: a substring (case-insensitive
 * unless pat has a capital) or, written /regex/, a POSIX extended regular
 * expression (unanchored, as in the transforms)?  A bad regex matches
 * nothing (ui_pattern_error says why). */
int ui_text_matches(struct ui *ui, const char *text, const char *pat);

/* The error of pat as a regex ("" when it is not one or compiles), into buf. */
const char *ui_pattern_error(struct ui *ui, const char *pat, char *buf, size_t n);

/* Show view id with its usual argument (the current function for calls and
 * run lengths). */
void ui_switch_view(struct ui *ui, enum ui_view_id id);

/* ---- session.c: the transform list and the model it gives ---------------- */

/* Append a transform command to the list (or, with edit_step >= 0, replace
 * that step; with insert_at >= 0 insert it there) and re-apply the list;
 * errors go to the message line.  Returns 0 or -1. */
int ui_add_transform(struct ui *ui, const char *cmd, int edit_step, int insert_at);

/* Re-apply the transform list after an edit made with the ss_tf_* calls;
 * `what` describes the edit for the message line.  Returns 0 or -1 (the
 * edit is undone and the message says why). */
int ui_reapply(struct ui *ui, const char *what);

/* Quote a function name for the transform language: a bare word when it is
 * one, else "double-quoted" with \" and \\ escaped.  Into buf. */
const char *ui_quote_name(const char *name, char *buf, size_t n);

/* Add the steps of preset `name` ("r": r-simplify, name-anonymous,
 * trim-base auto) as one undo step and re-apply; an unknown name is an
 * error on the message line. */
void ui_preset(struct ui *ui, const char *name);

/* Undo (redo) the last edit of the transform list and re-apply it. */
void ui_undo(struct ui *ui, int redo);

/* The requests that edit the transform list: undo, redo and the trimming
 * keys (a transform of the function or level selected in v).  Returns
 * UI_HANDLED, or UI_UNHANDLED for any other request. */
int ui_session_request(struct ui *ui, struct ui_view *v, enum ui_request req);

/* ---- cache.c ------------------------------------------------------------- */

/* Statistics of the current model (borrowed, valid until the next edit), or
 * NULL with an error message set. */
const struct ss_stats *ui_stats_fn(struct ui *ui);
const struct ss_stats *ui_stats_line(struct ui *ui);
/* The same with the memory columns for a memory profile (stats.h:
 * mem_bytes, alloc_bytes, released_bytes): the code pane's. */
const struct ss_stats *ui_stats_line_memory(struct ui *ui);
const struct ss_stacks *ui_stacks(struct ui *ui);
int ui_runs(struct ui *ui, const struct ss_run_row **rows, size_t *n, const uint32_t **fn_runs);
/* Are the run lengths of the current model computed already? */
int ui_runs_ready(struct ui *ui);
int ui_levels(struct ui *ui, const struct ss_level_row **rows, size_t *n, size_t *scaffold);
/* The phases of the current model (phases.h, the detector's defaults), or
 * NULL with an error message set (no time order: ui_no_order_note). */
const struct ss_phases *ui_phases(struct ui *ui);
/* The same for a view's draw: while keys are answered first (ui->defer),
 * phases not found yet are left for after the screen is painted (NULL,
 * *later set, ui->pending set), as the run lengths are. */
const struct ss_phases *ui_phases_drawn(struct ui *ui, int *later);
void ui_cache_clear(struct ui_cache *c);

/* Run lengths in the background.  ui_runs_start starts computing the
 * current model's run lengths on a thread unless they are ready or under
 * way; returns 0, or -1 when no thread could be started (the caller then
 * computes them in the foreground, with ui_runs).  ui_runs_poll takes the
 * thread's result into the cache when it is done (wait: wait for it) and
 * returns 1 when it did (the screen is due a redraw), else 0.  ui_runs_busy:
 * is a thread computing them?  ui_runs_cancel stops it and forgets its
 * work (ui_cache_clear does, before the model may change); ui_runs waits
 * for it. */
int ui_runs_start(struct ui *ui);
int ui_runs_poll(struct ui *ui, int wait);
int ui_runs_busy(const struct ui *ui);
void ui_runs_cancel(struct ui_cache *c);

/* Warm arrays for the first transforms.  The spare (ui->spare) only holds
 * arrays once a model was replaced, so the first keys that transform a
 * large profile would build their models in new pages, which a virtual
 * machine faults in slowly.  ui_warm_start, after the first screen, has a
 * thread allocate and touch two per-sample arrays for the profile's side
 * (a model's timeline and value rows) and two for the base's;
 * ui_warm_adopt gives them to the spare once they are ready (wait: wait
 * for them; the main thread alone touches the spare). */
void ui_warm_start(struct ui *ui);
void ui_warm_adopt(struct ui *ui, int wait);

/* The comparison of the current model with the base, by function or by
 * line (borrowed, valid until the next edit), or NULL when nothing is
 * compared or on error (a message set). */
const struct ss_cmp_stats *ui_cmp_fn(struct ui *ui);
const struct ss_cmp_stats *ui_cmp_line(struct ui *ui);

/* Set up c for the current comparison (ui->bm must be set); its
 * verdicts' units come from ui->verdicts (verdicts.c). */
void ui_compare(struct ui *ui, struct ss_compare *c);

/* The verdicts' units (verdicts.c): give c the explorer's source of them;
 * stop the job (v may be NULL); forget every kept unit; is a job running;
 * take a finished job's units (wait: wait for it), 1 when it ended (*ms:
 * how long it ran), after which the tables with pending verdicts are to
 * be drawn again.  ui_verdicts_stop returns 1 when it stopped a job (the
 * tables waiting for it ask again: vgen is bumped). */
void ui_verdicts_attach(struct ui *ui, struct ss_compare *c);
/* A key is handled: the jobs its draw asks for replace those of before. */
void ui_verdicts_drawn(struct ui *ui);
int ui_verdicts_stop(struct ui_verdicts *v);
/* The comparison tables of the cache whose verdicts were pending, dropped
 * (made again at their next use). */
void ui_cache_drop_pending(struct ui_cache *c);
void ui_verdicts_clear(struct ui_verdicts *v);
int ui_verdicts_busy(const struct ui *ui);
int ui_verdicts_poll(struct ui *ui, int wait, double *ms);

/* Percent of the current model's sampling time. */
double ui_pct(struct ui *ui, double seconds);

/* ---- the views (one file each, listed in views.h) ------------------------- */
#define UI_VIEW_EXTERN(id, ops, key, cmd, arg, help, chelp) extern const struct ui_view_ops ops;
UI_VIEWS(UI_VIEW_EXTERN)
#undef UI_VIEW_EXTERN

/* The vtable of view id, and what it takes as its argument (views.h). */
const struct ui_view_ops *ui_view_ops_of(enum ui_view_id id);
enum ui_view_arg ui_view_arg_kind(enum ui_view_id id);

/* Write the key and command reference (the help screen's lines: "# Section"
 * or "KEYS<TAB>TEXT") to f.  Returns 0 or -1. */
int ui_help_write(FILE *f);

/* The row of the help view (prepared) where view `from`'s help starts: its
 * section (the flame graph's keys, the timeline's, ...), else the top. */
size_t ui_help_row_of(struct ui_view *help, enum ui_view_id from);

/* Show the timeline with level `level` (1 = root) selected. */
void ui_timeline_show_level(struct ui *ui, uint32_t level);
/* Show the timeline zoomed to detected phase k (0-based, ui_phases), the
 * phase marked (d, K). */
void ui_timeline_show_phase(struct ui *ui, size_t k);

/* ---- table.c: the shared column drawer ------------------------------------ */

/* A column of a table view: header, width (0: the label, which takes the
 * columns left over and is abbreviated in the middle), and `right`: 1 for
 * right-aligned, 2 for a label cut at its start instead of its middle (a
 * stack, whose leaf end matters most), 3 for one cut at its end (source
 * text).  `col` is the descriptor (column.h) its cells and its order come
 * from: one of a `report` table's, or the view's own of the same type;
 * NULL for a column whose cells the view passes itself (ui_table_row). */
struct ui_column {
    const char *name;
    int width;
    int right;
    const struct ss_col *col;
};

/* What a column of a view takes from its descriptor instead of restating it
 * (HACKING.md, A column): a NULL name is the descriptor's text header (its
 * title, else its name), a width of UI_COL_CORE its width and a `right` of
 * UI_COL_CORE its alignment (1 unless SS_COL_LEFT or SS_COL_LABEL).
 * UI_COL(d) is a column that shows descriptor d with all three. */
#define UI_COL_CORE (-1)
/* clang-format off */
#define UI_COL(d) {NULL, UI_COL_CORE, UI_COL_CORE, (d)}
/* clang-format on */

/* A column's header, width and alignment, its descriptor's where the column
 * leaves them to it: every read of them goes through these. */
const char *ui_column_title(const struct ui_column *c);
int ui_column_width(const struct ui_column *c);
int ui_column_right(const struct ui_column *c);

/* Draw a header row with the sort column marked. */
void ui_table_header(struct ui_canvas *c, int y, const struct ui_column *cols, size_t n,
                     int sort_col, int sort_rev);
/* Draw one row of cells (cells[i] for cols[i]); the label gets `indent`
 * leading columns. */
void ui_table_row(struct ui_canvas *c, int y, const struct ui_column *cols, size_t n,
                  const char *const *cells, int style, int indent);
/* Draw row r of a table whose rows are ctx's: each column's cell is its
 * descriptor's text (column.h: ss_col_text; "" for a column without one). */
void ui_table_cells(struct ui_canvas *c, int y, const struct ui_column *cols, size_t n,
                    const void *ctx, size_t r, int style, int indent);
/* Widen each fixed column of cols that has a descriptor to its widest
 * cell over rows 0..nrows-1 of ctx (numbers are never cut). */
void ui_table_fit(struct ui_column *cols, size_t n, const void *ctx, size_t nrows);
/* Sort *order (reallocated to n entries) by column col's descriptor
 * (ss_col_compare) over ctx's rows, reversed with rev (order.h). */
int ui_table_sort(uint32_t **order, size_t n, int rev, const struct ui_column *col,
                  const void *ctx);
/* The x of column i of a table drawn on a canvas `w` columns wide (as
 * ui_table_row lays it out), or -1 when the column is hidden. */
int ui_table_column_x(int w, const struct ui_column *cols, size_t n, size_t i);
/* A click on the header of a sortable table view (htop): ev is a mouse
 * click on the row above v's rows; the clicked column's order
 * (sort_column[s] == column) is taken, or reversed when it is the current
 * one.  Returns UI_HANDLED for a click on the header, else UI_UNHANDLED. */
int ui_table_sort_click(struct ui *ui, struct ui_view *v, const struct ui_event *ev,
                        const struct ui_column *cols, size_t n, const int *sort_column, int nsorts,
                        const char *const *names);
/* Why a view that needs raw samples is empty: "no samples with frames",
 * or, for a profile of aggregates only (SamplingProf), which views work. */
const char *ui_empty_note(struct ui *ui);
/* What views in time order (timeline, runs) show instead of a table when the
 * model has no samples in time order (model.h: ss_model_has_time_order):
 * folded stacks or aggregates only; NULL when it has some. */
const char *ui_no_order_note(struct ui *ui);

/* Draw a centred note in an empty body (e.g. "no samples"). */
void ui_table_note(struct ui_canvas *c, int y, int h, const char *text);

/* Draws row `row` of v's list at canvas row y in `style`. */
typedef void (*ui_draw_row_fn)(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y,
                               size_t row, int style);

/* Draw the rows of v's list with draw_row, setting page and rows_y.  The
 * first `header` body rows are left to the caller. */
void ui_list_draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h,
                  ui_draw_row_fn draw_row);

/* Draw a table view's body at rows y .. y+h-1: the header (sort column
 * marked), then v's rows with draw_row, or, when `note` is not NULL, that
 * note centred below the header instead. */
void ui_table_draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h,
                   const struct ui_column *cols, size_t n, int sort_col, int sort_rev,
                   const char *note, ui_draw_row_fn draw_row);

/* The note of a view of one function that shows none: "F is not in the
 * profile (any more)" for a function fn, else `hint`.  Into buf. */
const char *ui_function_note(const char *fn, const char *hint, char *buf, size_t n);

#endif
