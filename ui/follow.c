/* follow.c - the explorer following its file as it is written (--follow,
 * :follow; stackscope(1), FOLLOWING).
 *
 * The core reads the new lines into the loaded model (follow.h).  That
 * model's columns may move as it grows, and the models of the transform
 * list borrow them, so a refresh is one step in the key loop's thread, in
 * this order: the run-length thread stopped (it reads the models), the
 * lines read, the measure weighed again, the list applied to the grown
 * profile and its models installed (session.c), the generation bumped.
 * Only then is the screen drawn.  The views keep their selections by name
 * and their scroll positions, as after any edit.
 *
 * A refresh comes at most once a period (UI_FOLLOW_PERIOD_MS): the key loop
 * wakes up every few milliseconds while a file is followed, and a refresh
 * is due when a period has passed since the last one and the file has
 * grown.  So new samples are shown within a period of being written, and a
 * steady writer costs one refresh a period whatever its rate. */
#include <stdio.h>
#include <string.h>
#include <math.h>
#include <time.h>

#include "app.h"
#include "follow.h"

/* A refresh reads for this long at most (a writer far ahead: the rest at
 * the next refresh), so that keys stay answered; while the explorer is
 * catching up (the refresh before ended behind the file), for longer: half
 * of each period goes to reading. */
#define READ_BUDGET_MS 250.0
#define CATCH_UP_BUDGET_MS 500.0

/* The rate's memory: samples a second smoothed over about this long. */
#define RATE_SECONDS 5.0

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

void ui_follow_begin(struct ui *ui, struct ss_follow *f)
{
    struct ui_follow *fw = &ui->follow;
    double keep = fw->keep_s; /* --keep, set before */
    ss_follow_free(fw->f, NULL);
    memset(fw, 0, sizeof *fw);
    fw->keep_s = keep;
    fw->f = f;
    fw->last_ms = fw->shown_ms = fw->start_ms = now_ms();
    fw->behind = ss_follow_behind(f);
    if (!ui->orig.sample_stack.n)
        ui_message(ui,
                   "following %s: no sample yet; each is shown within a second of being "
                   "written",
                   ui->nfiles ? ui->files[0] : "the file");
}

int ui_following(const struct ui *ui)
{
    return ui->follow.f && !ui->follow.paused && !ui->follow.over;
}

/* Read what the file gained (force: all of it, else for READ_BUDGET_MS at
 * most).  Returns the samples read, *changed set when the profile changed
 * (samples, or a new file begun), *said when the message line says why
 * (a new file, the error that stopped the following). */
static uint64_t read_new(struct ui *ui, int force, int *changed, int *said)
{
    struct ui_follow *fw = &ui->follow;
    double t0 = now_ms();
    double budget = fw->lagging ? CATCH_UP_BUDGET_MS : READ_BUDGET_MS;
    uint64_t added = 0;
    *changed = *said = 0;
    for (;;) {
        struct ss_follow_news nw;
        struct ss_error err;
        ss_error_clear(&err);
        int rc = ss_follow_poll(fw->f, &ui->orig, &nw, &err);
        added += nw.samples;
        *changed |= nw.samples > 0 || nw.restarted;
        *said |= nw.restarted;
        if (nw.restarted)
            ui_message(ui,
                       "following: %s was truncated or replaced (a new Rprof() run?): its "
                       "samples from now on are new sources",
                       ss_follow_format(fw->f) ? ui->files[0] : "the file");
        if (rc) {
            fw->over = *said = 1;
            *changed |= nw.bytes > 0;
            ui_error(ui, "following stopped: %s", err.msg);
            break;
        }
        if (!nw.bytes || (!force && now_ms() - t0 > budget))
            break;
    }
    return added;
}

/* The steps whose meaning depends on the whole profile (the phases, the
 * scaffold found by trim-base auto, samples counted from the end) were
 * found again on the grown profile: the message line says which. */
static void say_reevaluated(struct ui *ui, uint64_t added)
{
    char steps[512] = "";
    size_t k = 0;
    for (size_t i = 0; i < ss_tf_count(ui->tf) && k < sizeof steps; i++) {
        enum ss_tf_kind kind = ss_tf_kind(ui->tf, i);
        const char *text = ss_tf_text(ui->tf, i);
        const char *arg = strchr(text, ' '); /* after the command's name */
        /* sample ranges counted from the end, or any with --keep (the
         * window's first sample moves) */
        int range = (kind == SS_TF_KEEP_SAMPLES || kind == SS_TF_DROP_SAMPLES) && arg &&
                    (strchr(arg, '-') || ui->follow.dropped);
        int whole = kind == SS_TF_KEEP_PHASE || kind == SS_TF_DROP_PHASE ||
                    (kind == SS_TF_TRIM_BASE && arg && strstr(arg, "auto")) || range;
        if (whole && ss_tf_enabled(ui->tf, i))
            k += (size_t)snprintf(steps + k, sizeof steps - k, "%s%s", k ? ", " : "", text);
    }
    if (ui->phase_cmp == UI_CMP_RECENT && k < sizeof steps)
        k += (size_t)snprintf(steps + k, sizeof steps - k, "%sthe last %s", k ? ", " : "",
                              ui->phase[1]);
    if (k)
        ui_message(ui, "following: %llu new sample%s; found again on the whole profile: %s",
                   (unsigned long long)added, added == 1 ? "" : "s", steps);
}

/* Samples a second over the last RATE_SECONDS (since following began
 * when that is shorter). */
static double follow_rate(const struct ui_follow *fw, double now)
{
    double since = now - RATE_SECONDS * 1e3;
    uint64_t n = 0;
    for (unsigned i = 0; i < fw->nhist && i < 8; i++)
        if (fw->hist_ms[i] >= since)
            n += fw->hist_n[i];
    double span = now - (fw->start_ms > since ? fw->start_ms : since);
    return span > 0 ? (double)n * 1e3 / span : 0;
}

/* --keep: forget the samples older than the last keep_s seconds (count x
 * interval, from the newest back), so that memory holds the window and the
 * distinct stacks, however long the file is followed. */
static void drop_old(struct ui *ui)
{
    struct ui_follow *fw = &ui->follow;
    const struct ss_model *m = &ui->orig;
    if (!(fw->keep_s > 0) || fw->keep_off)
        return;
    for (size_t s = 0; s < m->sources.n; s++)
        if (m->sources.v[s].flags & (SS_SRC_UNTIMED | SS_SRC_UNORDERED)) {
            fw->keep_off = 1; /* said once */
            ui_error(ui,
                     "--keep: %s's samples have no time order or no time (folded stacks, "
                     "perf without a clock event): every sample is kept",
                     ui->files[0]);
            return;
        }
    /* whole nanoseconds: a sum of doubles would cut the window short */
    uint64_t keep_ns = (uint64_t)(fw->keep_s * 1e9), t = 0;
    size_t i = m->sample_stack.n, s = m->sources.n;
    while (i > 0) {
        while (s > 0 && m->sources.v[s - 1].first_sample > i - 1)
            s--; /* the source of sample i - 1 */
        const struct ss_source *src = s ? &m->sources.v[s - 1] : NULL;
        uint32_t tc = src ? src->time_column : 0;
        int64_t v =
            tc && tc - 1 < m->values.n && m->values.v[tc - 1]
                ? m->values.v[tc - 1][i - 1] /* perf: its period, ns */
                : ss_sample_count(m, i - 1) * (int64_t)llround(src ? src->interval_us * 1e3 : 0);
        t += v > 0 ? (uint64_t)v : 0;
        if (t > keep_ns)
            break;
        i--;
    }
    fw->dropped += ss_model_drop_front(&ui->orig, i);
}

int ui_follow_tick(struct ui *ui, int force)
{
    struct ui_follow *fw = &ui->follow;
    if (!ui_following(ui))
        return 0;
    /* a read a period at most; a file quiet for longer is looked at
     * every tick, so that what comes after a pause is shown at once */
    double now = now_ms();
    if (!force && now - fw->last_ms < UI_FOLLOW_PERIOD_MS)
        return 0;
    uint64_t behind = ss_follow_behind(fw->f);
    int status_changed = (behind != 0) != (fw->behind != 0);
    fw->behind = behind;
    if (!force && behind == 0) {
        /* nothing new: the rate shown falls, redrawn once a period */
        if (now - fw->shown_ms < UI_FOLLOW_PERIOD_MS)
            return status_changed;
        fw->shown_ms = now;
        return status_changed || follow_rate(fw, now) > 0;
    }
    ui_runs_cancel(&ui->cache); /* its thread reads the models about to change */
    int changed, said;
    uint64_t added = read_new(ui, force, &changed, &said);
    fw->read += added;
    fw->last_ms = fw->shown_ms = now;
    fw->hist_ms[fw->nhist % 8] = now;
    fw->hist_n[fw->nhist % 8] = added;
    fw->nhist++;
    fw->behind = ss_follow_behind(fw->f);
    fw->lagging = fw->behind > 0;
    if (!changed)
        return status_changed;
    /* the measure shown, for the new samples' weights (a cut forgets it) */
    char name[256];
    snprintf(name, sizeof name, "%s", ss_model_measure_name(&ui->orig));
    drop_old(ui);
    struct ss_error err;
    ss_error_clear(&err);
    if (ss_model_set_measure(&ui->orig, name, &err) && ss_model_set_measure(&ui->orig, NULL, &err))
        ui_error(ui, "following: %s", err.msg);
    ui->orig_samples = ss_model_count(&ui->orig, 0, ui->orig.sample_stack.n);
    fw->refreshes++;
    if (ui_follow_reapply(ui) == 0 && !said)
        say_reevaluated(ui, added);
    return 1;
}

/* n bytes as "512 B", "12 kB", "3.4 MB", "1.2 GB". */
static void fmt_bytes(char *buf, size_t n, uint64_t b)
{
    static const char *const unit[] = {"B", "kB", "MB", "GB", "TB"};
    double v = (double)b;
    size_t u = 0;
    while (v >= 1000 && u + 1 < sizeof unit / sizeof unit[0]) {
        v /= 1000;
        u++;
    }
    snprintf(buf, n, u == 0 || v >= 100 ? "%.0f %s" : "%.1f %s", v, unit[u]);
}

void ui_follow_status(struct ui *ui, char *buf, size_t n)
{
    const struct ui_follow *fw = &ui->follow;
    buf[0] = '\0';
    if (!fw->f)
        return;
    if (fw->over) {
        snprintf(buf, n, " | following stopped");
        return;
    }
    if (fw->paused) {
        snprintf(buf, n, " | following paused (:follow on)");
        return;
    }
    if (!fw->nhist) { /* no rate yet */
        snprintf(buf, n, " | following");
        return;
    }
    char rate[64];
    double r = follow_rate(fw, now_ms());
    ss_format_count(rate, sizeof rate, r < 10 ? (double)(int)(r * 10) / 10 : (double)(int64_t)r);
    char kept[64] = "";
    if (fw->dropped)
        snprintf(kept, sizeof kept, ", the last %gs kept", fw->keep_s);
    if (fw->behind) {
        char b[32];
        fmt_bytes(b, sizeof b, fw->behind);
        snprintf(buf, n, " | following: %s samples/s, %s behind%s", rate, b, kept);
    } else {
        snprintf(buf, n, " | following: %s samples/s%s", rate, kept);
    }
}

/* :follow on a profile not followed: the file read again from its start
 * into a model of its own, which replaces the loaded one. */
static void follow_start(struct ui *ui)
{
    if (ui->nfiles != 1) {
        ui_error(ui, "follow: one file is followed, and %d are open", ui->nfiles);
        return;
    }
    struct ss_error err;
    ss_error_clear(&err);
    struct ss_model m;
    struct ss_follow *f = NULL;
    if (ss_model_init(&m, &err)) {
        ui_error(ui, "follow: %s", err.msg);
        return;
    }
    int rc = ss_follow_open(&f, &m, ui->files[0], 0, ui->folded_interval_us, &err);
    for (struct ss_follow_news nw = {0, 1, 0}; !rc && nw.bytes;)
        rc = ss_follow_poll(f, &m, &nw, &err);
    char name[256];
    snprintf(name, sizeof name, "%s", ss_model_measure_name(&ui->orig));
    if (!rc && ss_model_set_measure(&m, name, &err))
        rc = ss_model_set_measure(&m, NULL, &err);
    if (rc) {
        ss_follow_free(f, NULL);
        ss_model_free(&m);
        ui_error(ui, "follow: %s", err.msg);
        return;
    }
    ui_runs_cancel(&ui->cache);
    struct ss_model old = ui->orig;
    ui->orig = m;
    ui->orig_samples = ss_model_count(&ui->orig, 0, ui->orig.sample_stack.n);
    ui_follow_reapply(ui); /* the list's models of the old profile go */
    ss_model_free(&old);
    ui_follow_begin(ui, f);
    ui_message(ui, "following %s: its samples are read as they are written (:follow off pauses)",
               ui->files[0]);
}

void ui_follow_command(struct ui *ui, const char *arg)
{
    struct ui_follow *fw = &ui->follow;
    if (!strcmp(arg, "off")) {
        if (!fw->f)
            ui_error(ui, "follow: nothing is followed (:follow starts)");
        else if (fw->over)
            ui_error(ui, "follow: following stopped at an error already");
        else
            fw->paused = 1, ui_message(ui, "following paused (:follow on resumes)");
        return;
    }
    if (ui->swapped) {
        ui_error(ui, "follow: the base and the new profile are swapped (X swaps them back)");
        return;
    }
    if (*arg && strcmp(arg, "on") && strcmp(arg, "now")) {
        ui_error(ui, "follow: expected on, off or now, not '%s'", arg);
        return;
    }
    if (!fw->f) {
        follow_start(ui);
        return;
    }
    if (fw->over) {
        ui_error(ui, "follow: following stopped at an error (:follow reads the file afresh "
                     "after the explorer is started again)");
        return;
    }
    fw->paused = 0;
    uint64_t before = ui->orig_samples;
    ui->msg[0] = '\0';
    ui->msg_style = UI_S_MESSAGE;
    ui_follow_tick(ui, 1);
    if (ui->msg[0])
        return; /* the refresh said what it found */
    ui_message(ui, "following %s: %llu new samples, %llu in all", ui->files[0],
               (unsigned long long)(ui->orig_samples - before),
               (unsigned long long)ui->orig_samples);
}

void ui_follow_free(struct ui *ui)
{
    ss_follow_free(ui->follow.f, NULL);
    memset(&ui->follow, 0, sizeof ui->follow);
}
