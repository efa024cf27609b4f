/* cache.c - statistics of the current model, computed on first use and kept
 * until the model changes (see app.h).  Views ask for what they show, so a
 * key that re-applies the transform list costs only what the visible view
 * needs. */
#include "app.h"
#include "vec.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Run lengths computed on a thread while the key loop goes on: one pass
 * over the whole timeline, the slowest thing a key leaves behind (a third
 * of a second at ten million samples).  The thread reads the model only;
 * the main thread stops it (ui_runs_cancel) before the model changes, and
 * takes its result when `done` (ui_runs_poll). */
struct ui_runs_job {
    pthread_t thread;
    const struct ss_model *m;
    unsigned gen; /* the model generation it computes */
    atomic_int stop, done;
    int rc;
    struct ss_run_row *rows;
    size_t n;
    struct ss_error err;
};

static void *runs_thread(void *arg)
{
    struct ui_runs_job *j = arg;
    j->rc = ss_runs_compute_stop(j->m, 0, &j->rows, &j->n, &j->err, &j->stop);
    atomic_store(&j->done, 1);
    return NULL;
}

void ui_cache_drop_pending(struct ui_cache *c)
{
    if (c->have_cmp_fn && c->cmp_fn.vinfo.pending) {
        ss_cmp_stats_free(&c->cmp_fn);
        c->have_cmp_fn = 0;
    }
    if (c->have_cmp_line && c->cmp_line.vinfo.pending) {
        ss_cmp_stats_free(&c->cmp_line);
        c->have_cmp_line = 0;
    }
}

void ui_runs_cancel(struct ui_cache *c)
{
    if (ui_verdicts_stop(c->vd))
        ui_cache_drop_pending(c);
    struct ui_runs_job *j = c->job;
    if (!j)
        return;
    atomic_store(&j->stop, 1);
    pthread_join(j->thread, NULL);
    free(j->rows);
    free(j);
    c->job = NULL;
}

int ui_runs_busy(const struct ui *ui)
{
    return ui->cache.job != NULL;
}

/* Two arrays of a sample number or stack id per sample for the profile
 * (a model's timeline and value rows), two of 32-bit weights for its
 * memory measures when it has memory profiling (memory, released: V), and
 * the same for the base. */
#define WARM_N 8
/* The most they hold together (bytes). */
#define WARM_MAX ((size_t)512 << 20)

struct ui_warm_job {
    pthread_t thread;
    size_t bytes[WARM_N];
    void *p[WARM_N];
    atomic_int done;
};

static void *warm_thread(void *arg)
{
    struct ui_warm_job *j = arg;
    for (int i = 0; i < WARM_N; i++) {
        if (!j->bytes[i] || (j->p[i] = ss_alloc_array(j->bytes[i], 1)) == NULL)
            continue;
        /* the page faults, here: a write to every page (not a memset to
         * zero, which the compiler may turn into a calloc that writes
         * nothing) */
        volatile unsigned char *b = j->p[i];
        for (size_t k = 0; k < j->bytes[i]; k += 4096)
            b[k] = 1;
    }
    atomic_store(&j->done, 1);
    return NULL;
}

static int has_memory(const struct ss_model *m)
{
    for (size_t s = 0; s < m->sources.n; s++)
        if ((m->sources.v[s].flags & SS_SRC_MEMORY) && m->sources.v[s].n_samples)
            return 1;
    return 0;
}

void ui_warm_start(struct ui *ui)
{
    if (ui->warm)
        return;
    /* the base side: its own profile, or in a comparison of two phases
     * the profile again */
    size_t n = ui->orig.sample_stack.n, nb = ui->phase_cmp ? n
                                             : ui->bm      ? ui->borig.sample_stack.n
                                                           : 0;
    size_t per[WARM_N / 2] = {n, has_memory(&ui->orig) ? n : 0, nb,
                              ui->bm && !ui->phase_cmp && has_memory(&ui->borig) ? nb : 0};
    struct ui_warm_job *j = calloc(1, sizeof *j);
    if (!j)
        return; /* new pages then: slower, not wrong */
    int any = 0;
    size_t held = 0;
    for (int i = 0; i < WARM_N; i++) {
        /* a stack id, a sample number and a 32-bit weight are 4 bytes;
         * in this order while they fit in WARM_MAX (beyond, on a profile
         * of tens of millions of samples, a key's own work is the cost) */
        size_t b = per[i / 2] * sizeof(ss_id);
        j->bytes[i] = b >= SS_SPARE_MIN && held + b <= WARM_MAX ? b : 0;
        held += j->bytes[i];
        any |= j->bytes[i] != 0;
    }
    if (!any || pthread_create(&j->thread, NULL, warm_thread, j)) {
        free(j);
        return;
    }
    ui->warm = j;
}

void ui_warm_adopt(struct ui *ui, int wait)
{
    struct ui_warm_job *j = ui->warm;
    if (!j || (!wait && !atomic_load(&j->done)))
        return;
    pthread_join(j->thread, NULL);
    for (int i = 0; i < WARM_N; i++)
        ss_spare_give(&ui->spare, j->p[i], j->bytes[i]);
    free(j);
    ui->warm = NULL;
}

void ui_cache_clear(struct ui_cache *c)
{
    ui_runs_cancel(c);
    if (c->have_fn)
        ss_stats_free(&c->fn);
    if (c->have_line)
        ss_stats_free(&c->line);
    if (c->have_stacks)
        ss_stacks_free(&c->stacks);
    free(c->runs);
    free(c->fn_runs);
    free(c->levels);
    if (c->have_cmp_fn)
        ss_cmp_stats_free(&c->cmp_fn);
    if (c->have_cmp_line)
        ss_cmp_stats_free(&c->cmp_line);
    if (c->have_phases)
        ss_phases_free(&c->phases);
    unsigned gen = c->gen;
    struct ui_verdicts *vd = c->vd;
    memset(c, 0, sizeof *c);
    c->gen = gen;
    c->vd = vd;
}

/* Drop what belongs to an older model. */
static void sync(struct ui *ui)
{
    if (ui->cache.gen != ui->gen) {
        ui_cache_clear(&ui->cache);
        ui->cache.gen = ui->gen;
    }
}

const struct ss_stats *ui_stats_fn(struct ui *ui)
{
    sync(ui);
    struct ui_cache *c = &ui->cache;
    if (!c->have_fn) {
        struct ss_error err;
        ss_error_clear(&err);
        if (ss_stats_compute(ui->m, SS_BY_FUNCTION, 0, &c->fn, &err)) {
            ui_error(ui, "%s", err.msg);
            return NULL;
        }
        c->have_fn = 1;
    }
    return &c->fn;
}

const struct ss_phases *ui_phases(struct ui *ui)
{
    sync(ui);
    struct ui_cache *c = &ui->cache;
    if (!c->have_phases) {
        if (ui_no_order_note(ui)) {
            ui_error(ui, "phases: %s", ui_no_order_note(ui));
            return NULL;
        }
        struct ss_error err;
        ss_error_clear(&err);
        if (ss_phases_compute(ui->m, NULL, &c->phases, &err)) {
            ui_error(ui, "phases: %s", err.msg);
            return NULL;
        }
        c->have_phases = 1;
    }
    return &c->phases;
}

const struct ss_phases *ui_phases_drawn(struct ui *ui, int *later)
{
    sync(ui);
    *later = 0;
    if (!ui->cache.have_phases && ui->defer && !ui_no_order_note(ui)) {
        *later = 1;
        ui->pending |= UI_PENDING_PHASES;
        return NULL;
    }
    return ui_phases(ui);
}

void ui_compare(struct ui *ui, struct ss_compare *c)
{
    sync(ui);
    struct ui_cache *k = &ui->cache;
    if (!k->have_cmp_totals || k->cmp_b != ui->bm || k->cmp_n != ui->m ||
        k->cmp_b_n != ui->bm->sample_stack.n || k->cmp_n_n != ui->m->sample_stack.n) {
        struct ss_totals tb, tn;
        ss_model_totals(ui->bm, &tb);
        ss_model_totals(ui->m, &tn);
        k->have_cmp_totals = 1;
        k->cmp_b = ui->bm;
        k->cmp_n = ui->m;
        k->cmp_b_n = ui->bm->sample_stack.n;
        k->cmp_n_n = ui->m->sample_stack.n;
        k->cmp_value_b = tb.value;
        k->cmp_value_n = tn.value;
    }
    ss_compare_init_totals(c, ui->bm, ui->m, ui->normalize, k->cmp_value_b, k->cmp_value_n);
    c->alpha = ui->alpha;
    c->no_verdicts = getenv("STACKSCOPE_NO_VERDICTS") != NULL; /* bench/: their cost */
    ui_verdicts_attach(ui, c);
}

static const struct ss_cmp_stats *cmp_stats(struct ui *ui, enum ss_stats_key by)
{
    sync(ui);
    if (!ui->bm)
        return NULL;
    struct ui_cache *c = &ui->cache;
    int *have = by == SS_BY_LINE ? &c->have_cmp_line : &c->have_cmp_fn;
    struct ss_cmp_stats *st = by == SS_BY_LINE ? &c->cmp_line : &c->cmp_fn;
    if (!*have) {
        struct ss_error err;
        ss_error_clear(&err);
        struct ss_compare cmp;
        ui_compare(ui, &cmp);
        if (ss_compare_stats(&cmp, by, st, &err)) {
            ui_error(ui, "%s", err.msg);
            return NULL;
        }
        *have = 1;
    }
    return st;
}

const struct ss_cmp_stats *ui_cmp_fn(struct ui *ui)
{
    return cmp_stats(ui, SS_BY_FUNCTION);
}

const struct ss_cmp_stats *ui_cmp_line(struct ui *ui)
{
    return cmp_stats(ui, SS_BY_LINE);
}

/* The line statistics, with the memory columns (a pass over every
 * sample's counters) when `memory` asks and the profile has them: the
 * list of lines does without, the code pane shows them.  A computation
 * with memory serves both. */
static const struct ss_stats *stats_line(struct ui *ui, int memory)
{
    sync(ui);
    struct ui_cache *c = &ui->cache;
    memory = memory && ss_model_has_memory(ui->m);
    if (c->have_line && memory && !c->line.has_memory) {
        ss_stats_free(&c->line);
        c->have_line = 0;
    }
    if (!c->have_line) {
        struct ss_error err;
        ss_error_clear(&err);
        if (ss_stats_compute(ui->m, SS_BY_LINE, memory, &c->line, &err)) {
            ui_error(ui, "%s", err.msg);
            return NULL;
        }
        c->have_line = 1;
    }
    return &c->line;
}

const struct ss_stats *ui_stats_line(struct ui *ui)
{
    return stats_line(ui, 0);
}

const struct ss_stats *ui_stats_line_memory(struct ui *ui)
{
    return stats_line(ui, 1);
}

const struct ss_stacks *ui_stacks(struct ui *ui)
{
    sync(ui);
    struct ui_cache *c = &ui->cache;
    if (!c->have_stacks) {
        struct ss_error err;
        ss_error_clear(&err);
        if (ss_stacks_compute(ui->m, &c->stacks, &err)) {
            ui_error(ui, "%s", err.msg);
            return NULL;
        }
        c->have_stacks = 1;
    }
    return &c->stacks;
}

/* Make rows[0..n) (malloc'ed, taken over) the cache's run lengths, with
 * the index from the function table's rows.  Returns 0 or -1 (message set;
 * rows freed). */
static int install_runs(struct ui *ui, const struct ss_stats *st, struct ss_run_row *rows, size_t n)
{
    struct ui_cache *c = &ui->cache;
    c->runs = rows;
    c->nruns = n;
    c->fn_runs = ss_alloc_array(st->n, sizeof *c->fn_runs);
    /* stats rows and runs rows both carry the canonical function id;
     * rows without samples were left out, so map function -> row */
    size_t nf = ui->m->functions.n;
    uint32_t *row_of = ss_alloc_array(nf, sizeof *row_of);
    if (!c->fn_runs || !row_of) {
        free(c->runs);
        free(c->fn_runs);
        free(row_of);
        c->runs = NULL;
        c->fn_runs = NULL;
        c->nruns = 0;
        ui_error(ui, "out of memory (run lengths)");
        return -1;
    }
    memset(row_of, 0xff, (nf ? nf : 1) * sizeof *row_of);
    for (size_t r = 0; r < st->n; r++)
        if (st->rows[r].function != SS_NONE)
            row_of[st->rows[r].function] = (uint32_t)r;
    memset(c->fn_runs, 0xff, (st->n ? st->n : 1) * sizeof *c->fn_runs);
    for (size_t i = 0; i < c->nruns; i++)
        if (c->runs[i].level == 0 && row_of[c->runs[i].function] != UINT32_MAX)
            c->fn_runs[row_of[c->runs[i].function]] = (uint32_t)i;
    free(row_of);
    c->have_runs = 1;
    return 0;
}

int ui_runs_start(struct ui *ui)
{
    sync(ui);
    struct ui_cache *c = &ui->cache;
    if (c->have_runs || c->job || c->runs_failed)
        return 0;
    struct ui_runs_job *j = calloc(1, sizeof *j);
    if (!j)
        return -1;
    j->m = ui->m;
    j->gen = ui->gen;
    atomic_init(&j->stop, 0);
    atomic_init(&j->done, 0);
    ss_error_clear(&j->err);
    if (pthread_create(&j->thread, NULL, runs_thread, j)) {
        free(j);
        return -1;
    }
    c->job = j;
    return 0;
}

int ui_runs_poll(struct ui *ui, int wait)
{
    struct ui_cache *c = &ui->cache;
    struct ui_runs_job *j = c->job;
    if (!j || (!wait && !atomic_load(&j->done)))
        return 0;
    pthread_join(j->thread, NULL);
    c->job = NULL;
    int rc = j->rc;
    struct ss_run_row *rows = j->rows;
    size_t n = j->n;
    struct ss_error err = j->err;
    int stale = j->gen != ui->gen; /* the model changed meanwhile (not expected) */
    free(j);
    if (rc || stale) {
        free(rows);
        if (rc) {
            ui_error(ui, "%s", err.msg);
            c->runs_failed = 1;
        }
        return 1;
    }
    const struct ss_stats *st = ui_stats_fn(ui);
    if (!st) {
        free(rows);
        return 1;
    }
    install_runs(ui, st, rows, n);
    return 1;
}

int ui_runs(struct ui *ui, const struct ss_run_row **rows, size_t *n, const uint32_t **fn_runs)
{
    const struct ss_stats *st = ui_stats_fn(ui);
    if (!st)
        return -1;
    struct ui_cache *c = &ui->cache;
    if (c->job) /* under way: wait for it rather than start again */
        ui_runs_poll(ui, 1);
    if (c->runs_failed)
        return -1; /* the error is on the screen already */
    if (!c->have_runs) {
        struct ss_error err;
        ss_error_clear(&err);
        struct ss_run_row *r;
        size_t nr;
        if (ss_runs_compute(ui->m, 0, &r, &nr, &err)) {
            ui_error(ui, "%s", err.msg);
            c->runs_failed = 1;
            return -1;
        }
        if (install_runs(ui, st, r, nr))
            return -1;
    }
    *rows = c->runs;
    *n = c->nruns;
    if (fn_runs)
        *fn_runs = c->fn_runs;
    return 0;
}

int ui_runs_ready(struct ui *ui)
{
    sync(ui);
    return ui->cache.have_runs;
}

int ui_levels(struct ui *ui, const struct ss_level_row **rows, size_t *n, size_t *scaffold)
{
    sync(ui);
    struct ui_cache *c = &ui->cache;
    if (!c->have_levels) {
        struct ss_error err;
        ss_error_clear(&err);
        if (ss_levels_compute(ui->m, &c->levels, &c->nlevels, &err)) {
            ui_error(ui, "%s", err.msg);
            return -1;
        }
        c->scaffold = ss_levels_scaffold(c->levels, c->nlevels, 1.0);
        c->have_levels = 1;
    }
    *rows = c->levels;
    *n = c->nlevels;
    if (scaffold)
        *scaffold = c->scaffold;
    return 0;
}

void ui_fmt_value(struct ui *ui, char *buf, size_t n, double v)
{
    struct ss_units u;
    ss_units_of(ui->m, &u);
    ss_format_value(buf, n, &u, v, 0);
}

int ui_value_width(struct ui *ui, double widest, int min)
{
    char b[64];
    ui_fmt_value(ui, b, sizeof b, widest);
    int w = (int)strlen(b) + 1;
    return w > min ? w : min;
}

const char *ui_sort_name(struct ui *ui, const char *name, char *buf, size_t n)
{
    const char *sp = strchr(name, ' ');
    if (!sp || strcmp(sp, " time") || (strncmp(name, "self", 4) && strncmp(name, "total", 5)))
        return name;
    snprintf(buf, n, "%.*s %s", (int)(sp - name), name, ss_model_measure_name(ui->m));
    return buf;
}

double ui_stats_widest(const struct ss_stats *st)
{
    double w = 0;
    for (size_t i = 0; st && i < st->n; i++) {
        double a = st->rows[i].total_v < 0 ? -st->rows[i].total_v : st->rows[i].total_v;
        double b = st->rows[i].self_v < 0 ? -st->rows[i].self_v : st->rows[i].self_v;
        w = a > w ? a : w;
        w = b > w ? b : w;
    }
    return w;
}

double ui_pct(struct ui *ui, double seconds)
{
    const struct ss_stats *st = ui_stats_fn(ui);
    return st && st->value_total > 0 ? 100.0 * seconds / st->value_total : 0.0;
}
