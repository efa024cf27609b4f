/* session.c - the transform session: the list of transforms the user builds
 * in the explorer and the model it gives (see app.h).
 *
 * Every edit (a typed command, a trimming key, undo and redo, a step
 * edited in the transforms view) changes the list, then re-applies the
 * whole list to the original model (ui_reapply): the new model replaces
 * the current one, the statistics cache is emptied and the generation
 * bumped, so each view rebuilds its rows on its next draw.  An edit whose
 * list fails to apply is undone, and the message line says why.  A step
 * appended that matches nothing or changes nothing is refused before its
 * model replaces anything (append_step): the current model stays.
 */
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "threads.h"
#include "vec.h"

/* ---- the list and the model ---------------------------------------------- */

/* Does step i match nothing (in a comparison: on either side)? */
static int step_no_match(const struct ui *ui, size_t i)
{
    return ss_tf_no_match(ui->tf, i) && (!ui->bm || ss_tf_base_no_match(ui->tf, i));
}

static void describe_step(struct ui *ui, const char *what, size_t step)
{
    const struct ss_tf_effect *e = ss_tf_effect(ui->tf, step);
    char extra[128] = "";
    if (e->samples_emptied)
        snprintf(extra, sizeof extra, ", %zu sample%s left with no frames", e->samples_emptied,
                 ss_s(e->samples_emptied));
    char base[64] = ""; /* a comparison: the base's too (its own effect) */
    if (ui->bm)
        snprintf(base, sizeof base, " (base %zu -> %zu)",
                 ss_tf_base_effect(ui->tf, step)->samples_in,
                 ss_tf_base_effect(ui->tf, step)->samples_out);
    /* the step counts timeline rows; where a row is not one sample (pprof,
     * folded stacks: a row per stack with its count) say rows, and what
     * they weigh in the measure */
    char unit[160] = " sample";
    if (ss_model_count(&ui->orig, 0, ui->orig.sample_stack.n) != ui->orig.sample_stack.n) {
        char vi[64], vo[64];
        ui_fmt_value(ui, vi, sizeof vi, e->value_in);
        ui_fmt_value(ui, vo, sizeof vo, e->value_out);
        snprintf(unit, sizeof unit, " row%s (%s -> %s %s)", ss_s(e->samples_out), vi, vo,
                 ss_model_measure_name(ui->m));
    } else {
        snprintf(unit, sizeof unit, " sample%s", ss_s(e->samples_out));
    }
    ui_message(ui, "%s: %zu -> %zu%s%s, %llu frame%s removed, %zu stack%s changed%s", what,
               e->samples_in, e->samples_out, unit, base, (unsigned long long)e->frames_removed,
               ss_s(e->frames_removed), e->stacks_changed, ss_s(e->stacks_changed), extra);
}

/* After `what` re-applied the list: warn about the steps that match no
 * function (a script read with :source or :resume, an edit of a step). */
static void warn_no_match(struct ui *ui, const char *what)
{
    size_t first = SIZE_MAX, n = 0;
    for (size_t i = 0; i < ss_tf_count(ui->tf); i++)
        if (step_no_match(ui, i)) {
            if (first == SIZE_MAX)
                first = i;
            n++;
        }
    if (n == 1)
        ui_error(ui, "%s; warning: %s: no %s matches", what, ss_tf_text(ui->tf, first),
                 ss_tf_match_noun(ui->tf, first));
    else if (n > 1)
        ui_error(ui, "%s; warning: %s: no %s matches (and %zu more steps: T lists them)", what,
                 ss_tf_text(ui->tf, first), ss_tf_match_noun(ui->tf, first), n - 1);
}

/* The base's side of apply_both, on a thread of its own. */
struct base_apply {
    struct ss_tf_list *tf;
    const struct ss_model *orig;
    struct ss_model *out;
    struct ss_spare spare; /* arrays for it, taken from the ui's */
    int rc;
    struct ss_error err;
};

static void *base_apply_run(void *arg)
{
    struct base_apply *b = arg;
    b->rc = ss_tf_apply_base_spare(b->tf, b->orig, b->out, &b->spare, &b->err);
    return NULL;
}

/* The list on both sides of a comparison: the base's on a second thread
 * when there are two processors and enough samples, with two of the
 * spare's arrays of its size (a spare is not shared between threads), the
 * rest of which go back afterwards.  The result is the same either way. */
static int apply_both(struct ui *ui, struct ss_model *nm, struct ss_model *nb, struct ss_error *err)
{
    struct base_apply b;
    memset(&b, 0, sizeof b);
    b.tf = ui->tf;
    b.orig = &ui->borig;
    b.out = nb;
    ss_error_clear(&b.err);
    size_t need = ui->borig.sample_stack.n * sizeof(ss_id);
    pthread_t th;
    int threaded =
        ui->borig.sample_stack.n + ui->orig.sample_stack.n >= 200000 && ss_threads(2) > 1;
    if (threaded) {
        for (int k = 0; k < 2 && need >= SS_SPARE_MIN; k++) {
            size_t room;
            void *p = ss_spare_take(&ui->spare, need, &room);
            if (p)
                ss_spare_give(&b.spare, p, room);
        }
        threaded = pthread_create(&th, NULL, base_apply_run, &b) == 0;
    }
    int rc = ss_tf_apply(ui->tf, &ui->orig, nm, err); /* nm zeroed on error */
    if (threaded)
        pthread_join(th, NULL);
    else if (!rc)
        b.rc = ss_tf_apply_base_spare(ui->tf, &ui->borig, nb, &ui->spare, &b.err);
    for (int k = 0; k < SS_SPARE_N; k++) /* what the base did not take, back */
        ss_spare_give(&ui->spare, b.spare.p[k], b.spare.cap[k]);
    if (rc) {
        if (threaded && !b.rc)
            ss_model_free(nb);
        return rc;
    }
    if (b.rc) { /* nb zeroed */
        *err = b.err;
        ss_model_free(nm);
        return b.rc;
    }
    return 0;
}

/* The models the list gives: *nm from orig and, in a comparison, *nb
 * from the base (a phase comparison: both from orig, each with its phase
 * last).  Returns 0, or an error code with err set (nothing to free). */
static int apply_list(struct ui *ui, struct ss_model *nm, struct ss_model *nb, struct ss_error *err)
{
    memset(nm, 0, sizeof *nm);
    memset(nb, 0, sizeof *nb);
    ui_runs_cancel(&ui->cache); /* of the model about to go: the cores are for this */
    ui_warm_adopt(ui, 0);
    if (ui->phase_cmp) {
        char cmd[2][64];
        for (int k = 0; k < 2; k++)
            snprintf(cmd[k], sizeof cmd[k], "keep-phase %s", ui->phase[k]);
        if (ui->phase_cmp == UI_CMP_RECENT) { /* the run before the window, and the window */
            snprintf(cmd[0], sizeof cmd[0], "keep-samples :-%s", ui->phase[1]);
            snprintf(cmd[1], sizeof cmd[1], "keep-samples -%s:", ui->phase[1]);
        }
        int rc = ss_tf_apply_then(ui->tf, &ui->orig, cmd[1], 0, nm, &ui->phase_eff[1], err);
        if (!rc &&
            (rc = ss_tf_apply_then(ui->tf, &ui->orig, cmd[0], 1, nb, &ui->phase_eff[0], err)) != 0)
            ss_model_free(nm);
        return rc;
    }
    if (ss_tf_count(ui->tf) == 0)
        return 0;
    /* a comparison: the same list on the base (stackscope(1), COMPARING) */
    if (ui->bm)
        return apply_both(ui, nm, nb, err);
    return ss_tf_apply(ui->tf, &ui->orig, nm, err);
}

/* Make the models apply_list gave the current ones. */
static void install(struct ui *ui, struct ss_model *nm, struct ss_model *nb)
{
    int applied = ss_tf_count(ui->tf) > 0 || ui->phase_cmp;
    if (ui->have_btm)
        ss_model_free_spare(&ui->btm, &ui->spare);
    ui->have_btm = 0;
    if (ui->phase_cmp || (ui->bm && applied)) {
        ui->btm = *nb;
        ui->have_btm = 1;
        ui->bm = &ui->btm;
    } else if (ui->bm) {
        ui->bm = &ui->borig;
    }
    ui_cache_clear(&ui->cache);
    if (ui->have_tm)
        ss_model_free_spare(&ui->tm, &ui->spare);
    ui->have_tm = 0;
    if (applied) {
        ui->tm = *nm;
        ui->have_tm = 1;
        ui->m = &ui->tm;
    } else {
        ui->m = &ui->orig;
    }
    ui->gen++;
    ui->cache.gen = ui->gen;
}

/* apply_list after `what` changed the list; when it fails, the change is
 * undone and the message line says why (-1). */
static int apply_or_undo(struct ui *ui, struct ss_model *nm, struct ss_model *nb, const char *what)
{
    struct ss_error err;
    ss_error_clear(&err);
    if (!apply_list(ui, nm, nb, &err))
        return 0;
    ss_tf_undo(ui->tf);
    ui_error(ui, "%s: %s (not applied)", what, err.msg);
    return -1;
}

/* The models `what` gave become the current ones, and the message line
 * says so (with the steps that match nothing). */
static void take_models(struct ui *ui, struct ss_model *nm, struct ss_model *nb, const char *what)
{
    install(ui, nm, nb);
    ui_message(ui, "%s", what);
    warn_no_match(ui, what);
}

int ui_follow_reapply(struct ui *ui)
{
    struct ss_model nm, nb;
    struct ss_error err;
    ss_error_clear(&err);
    int saved = ui->saved_gen == ui->gen; /* the list did not change */
    int rc = apply_list(ui, &nm, &nb, &err);
    if (rc) {
        /* the models of the list borrowed orig's columns, which grew: they
         * go, and the views show the profile as read until the list
         * applies again */
        memset(&nm, 0, sizeof nm);
        memset(&nb, 0, sizeof nb);
        if (ui->have_tm)
            ss_model_free_spare(&ui->tm, &ui->spare);
        if (ui->have_btm)
            ss_model_free_spare(&ui->btm, &ui->spare);
        ui->have_tm = ui->have_btm = 0;
        ui->m = &ui->orig;
        if (ui->phase_cmp) { /* its two sides were made by the list */
            ui->phase_cmp = 0;
            ui->bm = NULL;
        } else if (ui->bm) {
            ui->bm = &ui->borig;
        }
        ui_cache_clear(&ui->cache);
        ui->gen++;
        ui->cache.gen = ui->gen;
        ui_error(ui,
                 "following: the transform list does not apply to the new samples: %s; the "
                 "views show the profile without it (and without a comparison of its parts) "
                 "until the list is applied again (u, or an edit)",
                 err.msg);
    } else {
        install(ui, &nm, &nb);
    }
    if (saved)
        ui->saved_gen = ui->gen;
    return rc ? -1 : 0;
}

int ui_reapply(struct ui *ui, const char *what)
{
    struct ss_model nm, nb;
    if (apply_or_undo(ui, &nm, &nb, what))
        return -1;
    take_models(ui, &nm, &nb, what);
    return 0;
}

/* Does step i change nothing, on either side of a comparison?  (A class
 * step changes colours only: never "nothing".) */
static int step_no_op(const struct ui *ui, size_t i)
{
    if (ss_tf_kind(ui->tf, i) == SS_TF_CLASS)
        return 0;
    for (int side = 0; side <= (ui->bm != NULL); side++) {
        const struct ss_tf_effect *e =
            side ? ss_tf_base_effect(ui->tf, i) : ss_tf_effect(ui->tf, i);
        if (e->samples_out != e->samples_in || e->frames_removed || e->stacks_changed ||
            e->samples_emptied)
            return 0;
    }
    return 1;
}

/* Why trim-base auto, added at the end of the list, cut nothing: the
 * levels of the current model say (it is the model the step saw). */
static void why_no_scaffold(struct ui *ui, char *buf, size_t n)
{
    const struct ss_level_row *rows;
    size_t nrows, scaffold;
    if (ui_levels(ui, &rows, &nrows, &scaffold) || nrows == 0)
        snprintf(buf, n, "no sample has frames");
    else if (scaffold == 0)
        snprintf(buf, n,
                 "no scaffold: no level has one function in every sample (:trim-base auto=0.95 "
                 "allows 5%% of others)");
    else
        snprintf(buf, n,
                 "level 1 (%s) has source positions: your own code, where auto stops "
                 "(:trim-base auto,all cuts the %zu scaffold level%s)",
                 ss_function_name(ui->m, rows[0].top), scaffold, ss_s(scaffold));
}

/* Take back step `step` just added (or changed) by ui_add_transform, which
 * matched nothing or changed nothing, and say why; U still adds it (the
 * edit is on the redo list). */
static void refuse_step(struct ui *ui, size_t step, int no_match, int edit, int reapply)
{
    char text[1024], why[512];
    snprintf(text, sizeof text, "%s", ss_tf_text(ui->tf, step));
    int auto_trim = ss_tf_kind(ui->tf, step) == SS_TF_TRIM_BASE && strstr(text, "auto") &&
                    step + 1 == ss_tf_count(ui->tf);
    if (no_match)
        snprintf(why, sizeof why, "no %s matches", ss_tf_match_noun(ui->tf, step));
    /* without reapply the models are still those of the list as it was
     * (unless the undo failed: then the list is applied as it is) */
    if (!ss_tf_undo(ui->tf) || reapply)
        ui_reapply(ui, "");
    if (!no_match && auto_trim)
        why_no_scaffold(ui, why, sizeof why);
    else if (!no_match)
        snprintf(why, sizeof why, "it changes nothing (no sample, frame or stack)");
    if (edit)
        ui_error(ui, "%s: %s; step %zu not changed (U changes it anyway)", text, why, step + 1);
    else
        ui_error(ui, "%s: %s; not added (U adds it anyway)", text, why);
}

/* Compare two parts of the profile itself (kind UI_CMP_PHASES or
 * UI_CMP_RECENT, sides a and b as ui->phase takes them), or end such a
 * comparison (kind 0), for the command `what`: the models applied and
 * installed, or on failure everything as it was and the error said.
 * Returns 0 or -1. */
static int compare_parts(struct ui *ui, int kind, const char *a, const char *b, const char *what)
{
    if (ui->bm && !ui->phase_cmp) {
        ui_error(ui,
                 "%s: a comparison with a base file is on (stackscope --base): compare "
                 "parts of one profile without --base",
                 what);
        return -1;
    }
    int was = ui->phase_cmp, norm = ui->normalize;
    char old[2][32];
    memcpy(old, ui->phase, sizeof old);
    ui->phase_cmp = kind;
    if (kind) {
        snprintf(ui->phase[0], sizeof ui->phase[0], "%s", a);
        snprintf(ui->phase[1], sizeof ui->phase[1], "%s", b);
    }
    if (kind == UI_CMP_RECENT)
        ui->normalize = 1; /* the sides' shares: the window is the shorter */
    struct ss_model nm, nb;
    struct ss_error err;
    ss_error_clear(&err);
    if (apply_list(ui, &nm, &nb, &err)) {
        ui->phase_cmp = was;
        ui->normalize = norm;
        memcpy(ui->phase, old, sizeof old);
        ui_error(ui, "%s: %s", what, err.msg);
        return -1;
    }
    if (!kind)
        ui->bm = NULL;
    install(ui, &nm, &nb);
    if (!kind)
        ui_message(ui, "%s: off, the whole profile again", what);
    return 0;
}

int ui_compare_recent(struct ui *ui, const char *window)
{
    if (!window && ui->phase_cmp != UI_CMP_RECENT) {
        ui_error(ui, "recent: the last seconds are not compared (:recent 10s)");
        return -1;
    }
    if (window && (!*window || strlen(window) >= sizeof ui->phase[1] || window[0] == '-' ||
                   !strchr("0123456789.", window[0]))) {
        ui_error(ui, "recent: expected a duration (10s, 500ms, 2m), not '%s'", window);
        return -1;
    }
    char *end;
    double w = window ? strtod(window, &end) : 0;
    if (window && end != window) { /* --keep's window must hold this one and a run before it */
        w *= !strcmp(end, "ms") ? 1e-3 : !strcmp(end, "m") ? 60 : !strcmp(end, "h") ? 3600 : 1;
        if (ui->follow.keep_s > 0 && w >= ui->follow.keep_s) {
            ui_error(ui,
                     "recent: the last %s is not shorter than what --keep keeps (%gs): the "
                     "run before it would be empty",
                     window, ui->follow.keep_s);
            return -1;
        }
    }
    int rc = compare_parts(ui, window ? UI_CMP_RECENT : 0, "", window, "recent");
    if (rc || !window)
        return rc;
    const struct ss_tf_effect *e = ui->phase_eff;
    ui_message(ui,
               "the last %s (samples %zu-%zu) vs the run before (samples %zu-%zu), normalized; "
               ":recent off ends it",
               window, e[1].range_first, e[1].range_last, e[0].range_first, e[0].range_last);
    return 0;
}

int ui_compare_phases(struct ui *ui, const char *a, const char *b)
{
    struct ss_phase_ref r;
    if (a && (ss_phase_ref_parse(a, strlen(a), &r) || ss_phase_ref_parse(b, strlen(b), &r))) {
        ui_error(ui, "compare-phases: expected two phases A B, each a number from 1, main, "
                     "first or last");
        return -1;
    }
    if (!a && !ui->phase_cmp) {
        ui_error(ui, "compare-phases: no phases are compared (:compare-phases A B)");
        return -1;
    }
    int rc = compare_parts(ui, a ? UI_CMP_PHASES : 0, a, b, "compare-phases");
    if (rc || !a)
        return rc;
    const struct ss_tf_effect *e = ui->phase_eff;
    ui_message(ui, "phase %s (samples %zu-%zu) vs phase %s (samples %zu-%zu) of %zu: X swaps them",
               b, e[1].range_first, e[1].range_last, a, e[0].range_first, e[0].range_last,
               e[1].phases_found);
    return 0;
}

/* ui_add_transform of a step appended as `step`, the last: the new models
 * are installed only when the step is kept, so that refusing it needs no
 * second apply (the steps before it keep their effects when it is undone). */
static int append_step(struct ui *ui, const char *cmd, size_t step)
{
    struct ss_model nm, nb;
    if (apply_or_undo(ui, &nm, &nb, cmd))
        return -1;
    if (ss_tf_enabled(ui->tf, step)) {
        /* as pprof refuses a -focus that matches nothing: a step that
         * would only empty the views, or do nothing, is not added */
        int no_match = step_no_match(ui, step);
        if (no_match || step_no_op(ui, step)) {
            /* the list has a step: both models were built (as install
             * would take them) */
            ss_model_free_spare(&nm, &ui->spare);
            if (ui->phase_cmp || ui->bm)
                ss_model_free_spare(&nb, &ui->spare);
            refuse_step(ui, step, no_match, 0, 0);
            return -1;
        }
    }
    take_models(ui, &nm, &nb, cmd);
    if (ss_tf_enabled(ui->tf, step))
        describe_step(ui, ss_tf_text(ui->tf, step), step);
    return 0;
}

int ui_add_transform(struct ui *ui, const char *cmd, int edit_step, int insert_at)
{
    struct ss_error err;
    ss_error_clear(&err);
    int rc;
    size_t step;
    int saved = ui->saved_gen == ui->gen;
    if (edit_step >= 0) {
        rc = ss_tf_change(ui->tf, (size_t)edit_step, cmd, &err);
        step = (size_t)edit_step;
    } else if (insert_at >= 0 && (size_t)insert_at <= ss_tf_count(ui->tf)) {
        rc = ss_tf_insert(ui->tf, (size_t)insert_at, cmd, &err);
        step = (size_t)insert_at;
    } else {
        rc = ss_tf_append(ui->tf, cmd, &err);
        step = ss_tf_count(ui->tf) - 1;
        /* keep-phase or drop-phase of the phases the timeline shows:
         * the step takes them rather than finding them again */
        if (!rc && !ui->phase_cmp && ui->cache.gen == ui->gen && ui->cache.have_phases)
            ss_tf_list_hint_phases(ui->tf, &ui->cache.phases);
    }
    if (rc) {
        ui_error(ui, "%s: %s", cmd, err.msg[0] ? err.msg : "cannot add this step");
        return -1;
    }
    if (edit_step < 0 && step + 1 == ss_tf_count(ui->tf))
        return append_step(ui, cmd, step);
    if (ui_reapply(ui, cmd))
        return -1;
    if (step < ss_tf_count(ui->tf) && ss_tf_enabled(ui->tf, step)) {
        /* as pprof refuses a -focus that matches nothing: a step that
         * would only empty the views, or do nothing, is not added */
        int no_match = step_no_match(ui, step);
        if (no_match || step_no_op(ui, step)) {
            refuse_step(ui, step, no_match, edit_step >= 0, 1);
            if (saved) /* the list is as it was: as saved as it was */
                ui->saved_gen = ui->gen;
            return -1;
        }
        describe_step(ui, ss_tf_text(ui->tf, step), step);
    }
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

/* The transform `verb F` of the function F selected in v. */
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

void ui_undo(struct ui *ui, int redo)
{
    if (!(redo ? ss_tf_redo(ui->tf) : ss_tf_undo(ui->tf))) {
        ui_error(ui, "nothing to %s", redo ? "redo" : "undo");
        return;
    }
    char what[64];
    snprintf(what, sizeof what, "%s: %zu transform%s in effect", redo ? "redone" : "undone",
             ss_tf_active(ui->tf), ss_s(ss_tf_active(ui->tf)));
    ui_reapply(ui, what);
}

/* ---- the trimming keys --------------------------------------------------- */

/* The keys that make a transform of the selected function, and its verb. */
static const struct {
    enum ui_request req;
    const char *verb;
} trims[] = {
    {UI_REQ_DROP_FN, "drop"},       {UI_REQ_FOCUS_FN, "focus"},
    {UI_REQ_MERGE_FN, "merge"},     {UI_REQ_PRUNE_FN, "prune"},
    {UI_REQ_TRIM_TO_FN, "trim-to"}, {UI_REQ_COLLAPSE_FN, "collapse-recursion"},
};

void ui_preset(struct ui *ui, const char *name)
{
    const char *script = ss_tf_preset(name);
    struct ss_error err;
    ss_error_clear(&err);
    char names[128], what[256], steps[200];
    if (!*name || !script) {
        ui_error(ui, "preset: expected a preset name (%s)", ss_tf_preset_list(names, sizeof names));
    } else if (ss_tf_append_script(ui->tf, script, strlen(script), "preset", &err)) {
        ui_error(ui, "preset: %s", err.msg);
    } else {
        snprintf(what, sizeof what, "preset %s: %s", name,
                 ss_tf_preset_text(name, steps, sizeof steps));
        ui_reapply(ui, what);
    }
}

int ui_set_alpha(struct ui *ui, const char *arg)
{
    char *end;
    double a = strtod(arg, &end);
    if (!*arg) {
        ui_message(ui, "alpha: %g (the verdicts' level; :alpha Q sets it)", ui->alpha);
        return 0;
    }
    if (*end || !(a >= 1e-12 && a <= 0.5)) {
        ui_error(ui, "alpha: expected a level between 1e-12 and 0.5, e.g. 0.05, not '%s'", arg);
        return -1;
    }
    ui->alpha = a;
    /* the model is the same: only what is computed from it changes */
    int saved = ui->saved_gen == ui->gen;
    int units = ui->verdicts.gen == ui->gen; /* the verdicts' units do not depend on alpha */
    /* nor does a job working them out: it goes on (the models stay) */
    struct ui_verdicts *vd = ui->cache.vd;
    if (units)
        ui->cache.vd = NULL;
    ui_cache_clear(&ui->cache);
    ui->cache.vd = vd;
    ui->gen++;
    ui->cache.gen = ui->gen;
    if (units)
        ui->verdicts.gen = ui->gen;
    if (saved)
        ui->saved_gen = ui->gen;
    ui_message(ui, "alpha: %g%s", a, ui->bm ? "" : " (verdicts come with a comparison: --base)");
    return 0;
}

/* Every model weighs by measure nm (orig's first: the others read its
 * derived columns).  0, or an error code with err set. */
static int measure_all(struct ui *ui, const char *nm, struct ss_error *err)
{
    /* a derived column (memory, released) in the spare's warm pages */
    if (ss_model_set_measure_spare(&ui->orig, nm, NULL, &ui->spare, err) ||
        (ui->have_tm && ss_model_set_measure_spare(&ui->tm, nm, &ui->orig, &ui->spare, err)))
        return -1;
    /* a comparison: the base weighs by the same measure (two phases: the
     * base comes from orig too) */
    if (ui->phase_cmp)
        return ss_model_set_measure_spare(&ui->btm, nm, &ui->orig, &ui->spare, err) ? -1 : 0;
    if (!ui->bm)
        return 0;
    /* its columns in warm pages, btm's read from borig's (as the new
     * side's): then the check below finds them made */
    struct ss_error e2;
    if (ss_model_set_measure_spare(&ui->borig, nm, NULL, &ui->spare, &e2) == 0 && ui->have_btm)
        ss_model_set_measure_spare(&ui->btm, nm, &ui->borig, &ui->spare, &e2);
    if (ss_compare_check_measure(&ui->borig, &ui->orig, "(the base)", 1, err) ||
        (ui->have_btm && ss_compare_check_measure(&ui->btm, &ui->orig, "(the base)", 1, err)))
        return -1;
    return 0;
}

int ui_set_measure(struct ui *ui, const char *name)
{
    struct ss_error err;
    ss_error_clear(&err);
    char nm[256], was[256];
    snprintf(nm, sizeof nm, "%s", name ? name : "");
    snprintf(was, sizeof was, "%s", ss_model_measure_name(&ui->orig));
    ui_runs_cancel(&ui->cache); /* its thread reads the weights changed here */
    ui_warm_adopt(ui, 0);
    int rc = measure_all(ui, nm, &err);
    if (rc) {
        /* some models may weigh by the new measure: all back to the old
         * one, and nothing computed for either kept */
        struct ss_error e2;
        measure_all(ui, was, &e2);
        ui_error(ui, "value: %s", err.msg);
    }
    /* the same transforms: what was saved stays saved */
    int saved = ui->saved_gen == ui->gen;
    ui_cache_clear(&ui->cache);
    ui->gen++;
    ui->cache.gen = ui->gen;
    if (saved)
        ui->saved_gen = ui->gen;
    if (rc)
        return -1;
    size_t lacking = ui->m->weights.lacking;
    if (lacking)
        ui_message(ui, "value: %s (%zu source%s without it weigh%s 0)",
                   ss_model_measure_name(ui->m), lacking, ss_s(lacking), lacking == 1 ? "s" : "");
    else
        ui_message(ui, "value: %s", ss_model_measure_name(ui->m));
    return 0;
}

void ui_swap_base(struct ui *ui)
{
    if (ui_following(ui) && ui->bm && !ui->phase_cmp) {
        ui_error(ui, "X: the followed file stays the new side while it is followed (:follow "
                     "off pauses it)");
        return;
    }
    if (ui->phase_cmp == UI_CMP_RECENT) {
        ui_error(ui, "X: the recent samples are compared with the run before them (:recent off "
                     "ends it)");
        return;
    }
    if (ui->phase_cmp) { /* two phases: exchange them */
        char a[32], b[32];
        snprintf(a, sizeof a, "%s", ui->phase[1]);
        snprintf(b, sizeof b, "%s", ui->phase[0]);
        ui_compare_phases(ui, a, b);
        return;
    }
    if (!ui->bm) {
        ui_error(ui, "X swaps the base and the new profile of a comparison (stackscope --base "
                     "BEFORE AFTER)");
        return;
    }
    ui_runs_cancel(&ui->cache); /* its thread may read ui->orig, about to change */
    struct ss_model t = ui->orig;
    ui->orig = ui->borig;
    ui->borig = t;
    ui->swapped = !ui->swapped;
    ui->orig_samples = ss_model_count(&ui->orig, 0, ui->orig.sample_stack.n);
    int saved = ui->saved_gen == ui->gen;
    if (ui_reapply(ui, ui->swapped ? "swapped: the base is now the new profile"
                                   : "swapped back: base and new as given") == 0 &&
        saved)
        ui->saved_gen = ui->gen;
}

void ui_toggle_normalize(struct ui *ui)
{
    if (!ui->bm) {
        ui_error(ui, "Z normalizes a comparison (stackscope --base BEFORE AFTER)");
        return;
    }
    ui_runs_cancel(&ui->cache);
    ui->normalize = !ui->normalize;
    int saved = ui->saved_gen == ui->gen; /* the same transforms */
    ui_cache_clear(&ui->cache);
    ui->gen++;
    ui->cache.gen = ui->gen;
    if (saved)
        ui->saved_gen = ui->gen;
    struct ss_compare cmp;
    ui_compare(ui, &cmp);
    if (ui->normalize)
        ui_message(ui, "normalized: the base scaled to the new profile's total (x%.6g); Z: off",
                   cmp.scale);
    else
        ui_message(ui, "not normalized: each side as measured; Z: normalize");
}

/* V: the measure after the current one, in the order ss_model_measures gives. */
static void next_measure(struct ui *ui)
{
    struct ss_measure ms[SS_SOURCE_VALUE_BITS + 8];
    size_t n = ss_model_measures(&ui->orig, ms, ARRAY_SIZE(ms));
    if (n > ARRAY_SIZE(ms))
        n = ARRAY_SIZE(ms);
    if (n < 2) {
        ui_message(ui, "value: %s is the only measure of this profile",
                   ss_model_measure_name(ui->m));
        return;
    }
    const char *cur = ss_model_measure_name(&ui->orig);
    size_t k = 0;
    while (k < n && strcmp(ss_measure_name(&ui->orig, &ms[k]), cur))
        k++;
    ui_set_measure(ui, ss_measure_name(&ui->orig, &ms[(k + 1) % n]));
}

int ui_session_request(struct ui *ui, struct ui_view *v, enum ui_request req)
{
    struct ui_list *l = &v->list;
    switch (req) {
    case UI_REQ_VALUE_NEXT:
        next_measure(ui);
        return UI_HANDLED;
    case UI_REQ_SWAP_BASE:
        ui_swap_base(ui);
        return UI_HANDLED;
    case UI_REQ_UNDO:
    case UI_REQ_REDO:
        ui_undo(ui, req == UI_REQ_REDO);
        return UI_HANDLED;
    case UI_REQ_TRIM_BASE_LEVEL: {
        uint32_t lv = v->ops->row_level && l->n ? v->ops->row_level(ui, v, l->sel) : 0;
        if (!lv) {
            ui_error(ui, "trim-base: select a level first (levels view, timeline, a stack's "
                         "frames or the top-down tree); B cuts the scaffold");
            return UI_HANDLED;
        }
        char cmd[64];
        snprintf(cmd, sizeof cmd, "trim-base %u", lv);
        ui_add_transform(ui, cmd, -1, -1);
        return UI_HANDLED;
    }
    case UI_REQ_TRIM_BASE_AUTO:
        ui_add_transform(ui, "trim-base auto", -1, -1);
        return UI_HANDLED;
    case UI_REQ_R_SIMPLIFY:
        ui_add_transform(ui, "r-simplify", -1, -1);
        return UI_HANDLED;
    case UI_REQ_NAME_ANONYMOUS:
        ui_add_transform(ui, "name-anonymous", -1, -1);
        return UI_HANDLED;
    case UI_REQ_PRESET_R:
        ui_preset(ui, "r");
        return UI_HANDLED;
    case UI_REQ_KEEP_MAIN:
        ui_add_transform(ui, "keep-phase main", -1, -1);
        return UI_HANDLED;
    default:
        for (size_t i = 0; i < ARRAY_SIZE(trims); i++)
            if (trims[i].req == req) {
                trim_selected(ui, v, trims[i].verb);
                return UI_HANDLED;
            }
        return UI_UNHANDLED;
    }
}
