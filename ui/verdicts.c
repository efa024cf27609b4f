/* verdicts.c - the units of a comparison's verdicts (compare.h, vsides)
 * for the explorer: kept for the models they were worked out on, so that
 * a view visited again, the status line and a new alpha cost nothing, and
 * on big profiles worked out on a thread while the key loop answers keys
 * (HACKING.md, "Verdicts in the background").
 *
 * A table asks for the units of its two maps (ui_vsides).  Kept: a copy.
 * Not kept and the two sides small: worked out at once and kept.  Else a
 * job starts on a thread (one at a time: a new one stops the last) and the
 * table's verdicts are pending; when the job ends (ui_verdicts_poll) its
 * units are kept and ui->vgen is bumped, so that every table with pending
 * verdicts is made again and finds them.  The thread reads the models and
 * its own copy of the maps; ui_verdicts_clear stops it before a model may
 * change. */
#include "app.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare.h"
#include "threads.h"

/* Tables of units kept (each a few arrays of the table's rows). */
#define VC_KEEP 16
/* Samples on the two sides from which the units are worked out on a
 * thread (STACKSCOPE_VERDICT_THREAD_MIN sets it; 0: always). */
#define VC_THREAD_MIN 2000000

struct vkey {
    const struct ss_model *b, *n;
    size_t sb, sn; /* their samples */
    uint64_t hb, hn;
    size_t nrows;
    int per_run;
};

struct ui_vkept {
    struct vkey k;
    struct ss_vmap mb, mn; /* the maps, compared whole when the hashes agree */
    struct ss_vside b, n;
};

struct ui_vjob {
    pthread_t thread;
    struct vkey k;
    struct ss_compare c;
    struct ss_vmap mb, mn; /* copies: the table frees its own */
    atomic_int stop, done;
    int rc;
    struct ss_vside b, n;
    struct ss_error err;
    struct timespec t0;
    unsigned stamp;       /* the draw that asked for it */
    int started;          /* its thread runs (the head of the queue) */
    struct ui_vjob *next; /* the queue (ui_verdicts.job is its head, running) */
};

/* FNV-1a over the words of a map: what its rows are, class by class. */
static uint64_t mix(uint64_t h, const void *p, size_t bytes)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ c[i]) * 1099511628211u;
    return h;
}

static uint64_t map_hash(const struct ss_vmap *m)
{
    uint64_t h = 14695981039346656037u;
    size_t nc = m->nclass, ne = m->off ? m->off[nc] : 0;
    int flags[3] = {m->labelsets, (int)m->prefix, m->tail};
    h = mix(h, &nc, sizeof nc);
    h = mix(h, flags, sizeof flags);
    if (m->off)
        h = mix(h, m->off, (nc + 1) * sizeof *m->off);
    if (m->row)
        h = mix(h, m->row, ne * sizeof *m->row);
    if (m->lvl)
        h = mix(h, m->lvl, ne * sizeof *m->lvl);
    if (m->self)
        h = mix(h, m->self, nc * sizeof *m->self);
    if (m->uoff && m->upto) {
        h = mix(h, m->uoff, (nc + 1) * sizeof *m->uoff);
        h = mix(h, m->upto, m->uoff[nc] * sizeof *m->upto);
    }
    return h;
}

static int same_key(const struct vkey *a, const struct vkey *b)
{
    return a->b == b->b && a->n == b->n && a->sb == b->sb && a->sn == b->sn && a->hb == b->hb &&
           a->hn == b->hn && a->nrows == b->nrows && a->per_run == b->per_run;
}

/* A deep copy of map m (0), or -1. */
static int map_copy(const struct ss_vmap *m, struct ss_vmap *out)
{
    *out = *m;
    out->self = out->off = out->row = out->lvl = out->uoff = out->upto = NULL;
    size_t nc = m->nclass, ne = m->off ? m->off[nc] : 0;
    int bad = 0;
#define DUP(f, n)                                                                                  \
    do {                                                                                           \
        if (m->f && (out->f = ss_alloc_array((n) ? (n) : 1, sizeof *m->f)) != NULL)                \
            memcpy(out->f, m->f, (n) * sizeof *m->f);                                              \
        bad |= m->f && !out->f;                                                                    \
    } while (0)
    DUP(self, nc);
    DUP(off, nc + 1);
    DUP(row, ne);
    DUP(lvl, ne);
    DUP(uoff, nc + 1);
    DUP(upto, m->uoff ? m->uoff[nc] : 0);
#undef DUP
    if (bad) {
        ss_vmap_free(out);
        return -1;
    }
    return 0;
}

/* Do maps a and b give every class the same rows? */
static int map_equal(const struct ss_vmap *a, const struct ss_vmap *b)
{
    size_t nc = a->nclass, ne = a->off ? a->off[nc] : 0;
    if (nc != b->nclass || a->labelsets != b->labelsets || a->prefix != b->prefix ||
        a->tail != b->tail || !a->off != !b->off || !a->row != !b->row || !a->lvl != !b->lvl ||
        !a->self != !b->self || !a->uoff != !b->uoff || !a->upto != !b->upto)
        return 0;
    if (a->off && memcmp(a->off, b->off, (nc + 1) * sizeof *a->off))
        return 0;
    return (!a->row || !memcmp(a->row, b->row, ne * sizeof *a->row)) &&
           (!a->lvl || !memcmp(a->lvl, b->lvl, ne * sizeof *a->lvl)) &&
           (!a->self || !memcmp(a->self, b->self, nc * sizeof *a->self)) &&
           (!a->uoff || !memcmp(a->uoff, b->uoff, (nc + 1) * sizeof *a->uoff)) &&
           (!a->upto || !a->uoff || !memcmp(a->upto, b->upto, a->uoff[nc] * sizeof *a->upto));
}

static void *job_thread(void *arg)
{
    struct ui_vjob *j = arg;
    /* below the key loop (Linux: per thread; the base side's thread, made
     * by this one, inherits it): keys first, the verdicts in what is left */
#ifdef SYS_gettid
    setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10);
#endif
    j->rc = ss_cmp_vsides(&j->c, &j->mb, &j->mn, j->k.nrows, j->k.per_run, &j->stop, &j->b, &j->n,
                          &j->err);
    atomic_store(&j->done, 1);
    return NULL;
}

static void job_free(struct ui_vjob *j)
{
    ss_vmap_free(&j->mb);
    ss_vmap_free(&j->mn);
    ss_vside_free(&j->b);
    ss_vside_free(&j->n);
    free(j);
}

/* Start job j's thread (0), or -1. */
static int job_run(struct ui_vjob *j)
{
    clock_gettime(CLOCK_MONOTONIC, &j->t0);
    j->started = pthread_create(&j->thread, NULL, job_thread, j) == 0;
    return j->started ? 0 : -1;
}

int ui_verdicts_stop(struct ui_verdicts *v)
{
    struct ui_vjob *j = v ? v->job : NULL;
    if (!j)
        return 0;
    if (j->started) {
        atomic_store(&j->stop, 1);
        pthread_join(j->thread, NULL);
    }
    while (j) {
        struct ui_vjob *next = j->next;
        job_free(j);
        j = next;
    }
    v->job = NULL;
    /* the tables that waited for them ask again (the command that stopped
     * them may change nothing: it failed) */
    v->vgen++;
    return 1;
}

static void kept_free(struct ui_vkept *e)
{
    ss_vmap_free(&e->mb);
    ss_vmap_free(&e->mn);
    ss_vside_free(&e->b);
    ss_vside_free(&e->n);
    memset(e, 0, sizeof *e);
}

void ui_verdicts_clear(struct ui_verdicts *v)
{
    ui_verdicts_stop(v);
    for (size_t i = 0; i < v->n; i++)
        kept_free(&v->kept[i]);
    free(v->kept);
    unsigned vgen = v->vgen;
    memset(v, 0, sizeof *v);
    v->vgen = vgen;
}

/* Keep the units of key k (taken over), in place of the oldest when full. */
static void keep(struct ui_verdicts *v, const struct vkey *k, struct ss_vmap *mb,
                 struct ss_vmap *mn, struct ss_vside *b, struct ss_vside *n)
{
    if (!v->kept)
        v->kept = calloc(VC_KEEP, sizeof *v->kept);
    if (!v->kept) { /* then at once: a job's units would be lost again */
        ss_vmap_free(mb);
        ss_vmap_free(mn);
        ss_vside_free(b);
        ss_vside_free(n);
        v->sync = 1;
        return;
    }
    size_t slot = v->n;
    if (v->n < VC_KEEP) {
        v->n++;
    } else { /* the oldest goes */
        slot = v->next;
        v->next = (v->next + 1) % VC_KEEP;
    }
    struct ui_vkept *e = &v->kept[slot];
    kept_free(e);
    e->k = *k;
    e->mb = *mb;
    e->mn = *mn;
    e->b = *b;
    e->n = *n;
    memset(mb, 0, sizeof *mb);
    memset(mn, 0, sizeof *mn);
    memset(b, 0, sizeof *b);
    memset(n, 0, sizeof *n);
}

/* Copies of the kept units of key k into *b and *n: 0, 1 when none are
 * kept, or SS_ENOMEM. */
static int find(const struct ui_verdicts *v, const struct vkey *k, const struct ss_vmap *mb,
                const struct ss_vmap *mn, struct ss_vside *b, struct ss_vside *n,
                struct ss_error *err)
{
    for (size_t i = 0; i < v->n; i++) {
        const struct ui_vkept *e = &v->kept[i];
        if (!same_key(&e->k, k) || !map_equal(&e->mb, mb) || !map_equal(&e->mn, mn))
            continue;
        if (ss_vside_copy(&e->b, b))
            return ss_nomem(err, "verdicts");
        if (ss_vside_copy(&e->n, n)) {
            ss_vside_free(b);
            return ss_nomem(err, "verdicts");
        }
        return 0;
    }
    return 1;
}

static size_t thread_min(void)
{
    const char *s = getenv("STACKSCOPE_VERDICT_THREAD_MIN");
    char *end;
    if (s && *s) {
        unsigned long long x = strtoull(s, &end, 10);
        if (!*end)
            return (size_t)x;
    }
    return VC_THREAD_MIN;
}

/* A job for key k on c's models and these maps (copied): run at once
 * when none runs, else queued after the jobs of the same draw (a job of
 * an earlier draw is stopped: its table is no longer shown).  0, or -1
 * when it could not start (then the caller works the units out at once). */
static int job_start(struct ui_verdicts *v, const struct vkey *k, const struct ss_compare *c,
                     const struct ss_vmap *mb, const struct ss_vmap *mn)
{
    if (v->job && v->job->stamp != v->stamp)
        ui_verdicts_stop(v);
    struct ui_vjob *j = calloc(1, sizeof *j);
    if (!j)
        return -1;
    j->k = *k;
    j->c = *c;
    j->c.vsides = NULL;
    j->stamp = v->stamp;
    atomic_init(&j->stop, 0);
    atomic_init(&j->done, 0);
    ss_error_clear(&j->err);
    if (map_copy(mb, &j->mb) || map_copy(mn, &j->mn) || (!v->job && job_run(j))) {
        job_free(j);
        return -1;
    }
    struct ui_vjob **at = &v->job;
    while (*at)
        at = &(*at)->next;
    *at = j;
    return 0;
}

/* Is key k's job running or queued?  Then it belongs to this draw too
 * (a job of an earlier draw that this one asks for again is not stopped
 * for another table of this draw). */
static int asked(struct ui_verdicts *v, const struct vkey *k)
{
    for (struct ui_vjob *j = v->job; j; j = j->next)
        if (same_key(&j->k, k)) {
            j->stamp = v->stamp;
            if (j != v->job)
                v->job->stamp = v->stamp; /* the head runs for it */
            return 1;
        }
    return 0;
}

/* compare.h's vsides for the explorer (ctx: the ui). */
static int vsides(void *ctx, const struct ss_compare *c, const struct ss_vmap *mb,
                  const struct ss_vmap *mn, size_t nrows, int per_run, struct ss_vside *b,
                  struct ss_vside *n, struct ss_error *err)
{
    struct ui *ui = ctx;
    struct ui_verdicts *v = &ui->verdicts;
    if (v->gen != ui->gen) { /* the models changed */
        ui_verdicts_clear(v);
        v->gen = ui->gen;
    }
    struct vkey k = {c->base,
                     c->cur,
                     c->base->sample_stack.n,
                     c->cur->sample_stack.n,
                     map_hash(mb),
                     map_hash(mn),
                     nrows,
                     per_run};
    int rc = find(v, &k, mb, mn, b, n, err);
    if (rc != 1)
        return rc;
    if (asked(v, &k))
        return SS_VSIDES_PENDING;
    if (k.sb + k.sn >= thread_min() && !v->sync && job_start(v, &k, c, mb, mn) == 0)
        return SS_VSIDES_PENDING;
    rc = ss_cmp_vsides(c, mb, mn, nrows, per_run, NULL, b, n, err);
    if (rc)
        return rc;
    /* kept: copies of the units and the maps (a failed copy is not kept) */
    struct ss_vside kb, kn;
    struct ss_vmap cb, cn;
    if (ss_vside_copy(b, &kb) == 0) {
        if (ss_vside_copy(n, &kn) == 0) {
            if (map_copy(mb, &cb) == 0) {
                if (map_copy(mn, &cn) == 0) {
                    keep(v, &k, &cb, &cn, &kb, &kn);
                    return 0;
                }
                ss_vmap_free(&cb);
            }
            ss_vside_free(&kn);
        }
        ss_vside_free(&kb);
    }
    return 0;
}

void ui_verdicts_drawn(struct ui *ui)
{
    ui->verdicts.stamp++;
}

void ui_verdicts_attach(struct ui *ui, struct ss_compare *c)
{
    c->vsides = vsides;
    c->vctx = ui;
}

int ui_verdicts_busy(const struct ui *ui)
{
    return ui->verdicts.job != NULL;
}

int ui_verdicts_poll(struct ui *ui, int wait, double *ms)
{
    struct ui_verdicts *v = &ui->verdicts;
    struct ui_vjob *j = v->job;
    if (!j || (!wait && !atomic_load(&j->done)))
        return 0;
    pthread_join(j->thread, NULL);
    v->job = j->next;
    j->next = NULL;
    if (v->job && job_run(v->job)) { /* the rest at once, then */
        ui_verdicts_stop(v);
        v->sync = 1;
    }
    struct timespec t1;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (ms)
        *ms = (double)(t1.tv_sec - j->t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - j->t0.tv_nsec) / 1e6;
    if (j->rc && j->rc != SS_VSIDE_STOPPED) {
        ui_error(ui, "verdicts: %s", j->err.msg);
        /* the tables are made again without a job: at once, or the error */
        v->sync = 1;
    } else if (!j->rc && v->gen == ui->gen) {
        keep(v, &j->k, &j->mb, &j->mn, &j->b, &j->n);
    }
    job_free(j);
    v->vgen++;
    ui_cache_drop_pending(&ui->cache);
    return 1;
}
