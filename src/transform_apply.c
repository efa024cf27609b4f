/* transform_apply.c - apply a transform list to a model (see transform.h).
 *
 * The list is applied from scratch every time.  The work state is
 *   - a set of distinct working stacks (CSR, leaf first, with tails), each
 *     with the number of timeline samples that use it;
 *   - o2c: for every original stack, the working stack it has become;
 *   - the timeline: the original sample numbers still in it, in order:
 *     base, base+1, ... as long as only its ends were cut, else an array.
 * A step that rewrites stacks runs once per distinct working stack in use
 * and maps old working stacks to new (deduplicated) ones; only o2c (one entry
 * per original stack) is updated, never the timeline.  Steps that remove
 * samples (ranges, drop, focus) filter `keep`.  At the end the working
 * stacks in use become the new model's stacks and the timeline is written
 * once.  So a step costs about the size of the distinct stacks, and only
 * sample-range steps, drop/focus, the label filters and trim-base auto pass
 * over the samples.
 *
 * Labels: samples keep their label sets (copied like the value columns).
 * `label-root` makes a sample's stack depend on its labels, so when the
 * list has one, the unit a working stack starts from is a distinct pair
 * (original stack, label set) instead of an original stack, and every
 * working stack carries its label set (two stacks with the same frames and
 * different sets stay apart until the end, where they merge).
 *
 * The new model keeps the original's strings, functions and locations with
 * their ids (so ids held by a UI stay valid); functions and locations made by
 * `replace` are appended.
 */
#include "transform_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hashtab.h"
#include "levels.h"
#include "vec.h"

/* A set of distinct stacks being built or read. */
struct wset {
    VEC(uint32_t) off; /* n + 1 */
    VEC(ss_id) loc;
    VEC(ss_id) tail;
    VEC(ss_id) lab;        /* label set of each stack (0 unless labels are tracked) */
    VEC(uint64_t) ns;      /* timeline samples using each stack */
    struct ss_idset index; /* dedup (hashtab.h): stack ids by frames and tail */
};

struct apply {
    const struct ss_model *orig;
    struct ss_model *out;
    struct wset a, b, *cur, *next;
    ss_id *o2c;             /* unit -> working stack (SS_NONE: unused) */
    size_t norig;           /* units: original stacks, or (stack, label set) pairs */
    const ss_id *sunit;     /* unit of each original sample (orig->sample_stack.v unless
                             * labels are tracked) */
    ss_id *sunit_owned;     /* sunit when it was built here */
    size_t sunit_cap;       /* its bytes */
    int track_labels;       /* working stacks carry label sets (the list has label-root) */
    uint32_t *keep;         /* original sample numbers in the timeline; NULL: base + k */
    size_t keep_cap;        /* its bytes */
    struct ss_spare *spare; /* where big per-sample arrays come from (or NULL) */
    const struct tf_phase_hint *hint; /* phases the caller found (or NULL) */
    size_t step;                      /* the index of the step running */
    size_t base, nkeep;
    double value; /* the measure of the samples in the timeline (kept_value) */
    ss_id *map;   /* working stack -> next working stack, during a step */
    size_t map_cap;
    VEC(ss_id) buf;
    unsigned char *match; /* npats x nfun: function f matches pattern p */
    size_t match_cap;
    size_t nfun;            /* functions when `match` was computed */
    unsigned char *by_name; /* per string id: 0 not matched yet, 1 no, 2 yes */
    size_t by_name_cap;
    VEC(ss_id) cls; /* class of each function, SS_NONE: none */
    int any_class;
};

/* memcpy of n ids that allows n == 0 with NULL pointers. */
static void copy_ids(ss_id *dst, const ss_id *src, size_t n)
{
    if (n)
        memcpy(dst, src, n * sizeof *dst);
}

static void wset_free(struct wset *w)
{
    VEC_FREE(w->off);
    VEC_FREE(w->loc);
    VEC_FREE(w->tail);
    VEC_FREE(w->lab);
    VEC_FREE(w->ns);
    ss_idset_free(&w->index);
}

static size_t wset_n(const struct wset *w)
{
    return w->tail.n;
}

/* Empty w, ready for up to `expect` stacks with a dedup hash. */
static int wset_reset(struct wset *w, size_t expect)
{
    w->off.n = w->loc.n = w->tail.n = w->lab.n = w->ns.n = 0;
    if (VEC_PUSH(w->off, 0) || VEC_RESERVE(w->loc, 1))
        return -1;
    ss_idset_clear(&w->index);
    return ss_idset_reserve(&w->index, expect);
}

/* Append a stack without deduplication (the initial set). */
static ss_id wset_push(struct wset *w, const ss_id *fr, size_t d, ss_id tail, ss_id lab)
{
    if (VEC_RESERVE(w->loc, w->loc.n + d) || VEC_PUSH(w->tail, tail) || VEC_PUSH(w->lab, lab) ||
        VEC_PUSH(w->ns, 0))
        return SS_NONE;
    copy_ids(w->loc.v + w->loc.n, fr, d);
    w->loc.n += d;
    if (w->loc.n >= UINT32_MAX || VEC_PUSH(w->off, (uint32_t)w->loc.n))
        return SS_NONE;
    return (ss_id)(w->tail.n - 1);
}

struct wkey {
    const ss_id *fr;
    size_t d;
    ss_id tail, lab;
};

static int wset_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct wset *w = ctx;
    const struct wkey *k = key;
    return w->tail.v[id] == k->tail && w->lab.v[id] == k->lab &&
           w->off.v[id + 1] - w->off.v[id] == k->d &&
           (k->d == 0 || !memcmp(w->loc.v + w->off.v[id], k->fr, k->d * sizeof *k->fr));
}

/* Find or add a stack (w was reset for enough stacks). */
static ss_id wset_add(struct wset *w, const ss_id *fr, size_t d, ss_id tail, ss_id lab)
{
    uint64_t h = (d ? ss_hash(fr, d * sizeof *fr) : 0) ^ ss_mix64(tail) ^ ss_mix64(~(uint64_t)lab);
    struct wkey k = {fr, d, tail, lab};
    size_t pos;
    if (ss_idset_reserve(&w->index, 1))
        return SS_NONE;
    ss_id id = ss_idset_find(&w->index, h, wset_eq, w, &k, &pos);
    if (id != SS_NONE)
        return id;
    id = wset_push(w, fr, d, tail, lab);
    if (id != SS_NONE)
        ss_idset_insert(&w->index, pos, h, id);
    return id;
}

static size_t orig_index(const struct apply *a, size_t k)
{
    return a->keep ? a->keep[k] : a->base + k;
}

/* The working stack of timeline sample k. */
static ss_id cur_stack(const struct apply *a, size_t k)
{
    return a->o2c[a->sunit[orig_index(a, k)]];
}

/* Room for n sample numbers in the timeline (a->keep_cap says how much). */
static uint32_t *keep_alloc(struct apply *a, size_t n)
{
    return ss_spare_take(a->spare, (n ? n : 1) * sizeof *a->keep, &a->keep_cap);
}

static int keep_materialise(struct apply *a)
{
    if (a->keep)
        return 0;
    a->keep = keep_alloc(a, a->nkeep);
    if (!a->keep)
        return -1;
    for (size_t k = 0; k < a->nkeep; k++)
        a->keep[k] = (uint32_t)(a->base + k);
    return 0;
}

/* ---- matching functions -------------------------------------------------------- */

static ss_id fn_name(const struct apply *a, ss_id loc)
{
    return a->out->functions.v[a->out->locations.v[loc].function].name;
}

/* The bytes of the distinct names of the current functions (what a regex
 * step matches, for its budget: match.h). */
static uint64_t name_bytes(const struct ss_model *m, unsigned char *seen)
{
    uint64_t n = 0;
    for (size_t f = 0; f < m->functions.n; f++) {
        ss_id name = m->functions.v[f].name;
        if (!seen[name])
            n += ss_strtab_len(&m->strs, name);
        seen[name] = 1;
    }
    for (size_t f = 0; f < m->functions.n; f++)
        seen[m->functions.v[f].name] = 0;
    return n;
}

/* Fill a->match for the step's patterns over the current functions; returns
 * the number of functions any pattern matches, or -1 (out of memory) or -2
 * (a regex too costly to match: its budget ran out, match.h).  A regex is
 * matched once per distinct name: functions of one name in several files
 * share it. */
static long match_functions(struct apply *a, const struct tf_step *st)
{
    const struct ss_model *m = a->out;
    size_t nf = m->functions.n, need = st->npats * (nf ? nf : 1);
    if (need > a->match_cap) {
        free(a->match);
        a->match = ss_alloc_array(st->npats, nf ? nf : 1);
        a->match_cap = a->match ? need : 0;
        if (!a->match)
            return -1;
    }
    memset(a->match, 0, need);
    a->nfun = nf;
    for (size_t p = 0; p < st->npats; p++) {
        const struct tf_pattern *pt = &st->pats[p];
        unsigned char *mm = a->match + p * nf;
        if (!pt->is_regex) {
            ss_id id = ss_strtab_find(&m->strs, pt->text, strlen(pt->text));
            if (id == SS_NONE)
                continue;
            for (size_t f = 0; f < nf; f++)
                mm[f] = m->functions.v[f].name == id;
        } else {
            size_t ns = m->strs.n ? m->strs.n : 1;
            if (ns > a->by_name_cap) { /* all 0, and left all 0 after use */
                free(a->by_name);
                a->by_name = ss_calloc_array(ns, 1);
                a->by_name_cap = a->by_name ? ns : 0;
                if (!a->by_name)
                    return -1;
            }
            uint64_t budget = SS_REGEX_BUDGET(name_bytes(m, a->by_name));
            int r = 0;
            for (size_t f = 0; f < nf && r >= 0; f++) {
                ss_id name = m->functions.v[f].name;
                if (!a->by_name[name]) {
                    r = ss_regex_match(&pt->re, ss_str(m, name), ss_strtab_len(&m->strs, name),
                                       &budget);
                    a->by_name[name] = r == 1 ? 2 : 1;
                }
                mm[f] = a->by_name[name] == 2;
            }
            for (size_t f = 0; f < nf; f++)
                a->by_name[m->functions.v[f].name] = 0;
            if (r < 0)
                return r;
        }
    }
    long any = 0;
    for (size_t f = 0; f < nf; f++) {
        int hit = 0;
        for (size_t p = 0; p < st->npats && !hit; p++)
            hit = a->match[p * nf + f];
        any += hit;
    }
    return any;
}

/* Fill row 0 of a->match with the functions named exactly as one of the
 * NULL-terminated `names`; returns the number matched, or -1 (OOM). */
static long match_names(struct apply *a, const char *const *names)
{
    const struct ss_model *m = a->out;
    size_t nf = m->functions.n, need = nf ? nf : 1;
    if (need > a->match_cap) {
        free(a->match);
        a->match = ss_alloc_array(need, 1);
        a->match_cap = a->match ? need : 0;
        if (!a->match)
            return -1;
    }
    memset(a->match, 0, need);
    a->nfun = nf;
    for (const char *const *n = names; *n; n++) {
        ss_id id = ss_strtab_find(&m->strs, *n, strlen(*n));
        for (size_t f = 0; id != SS_NONE && f < nf; f++)
            if (m->functions.v[f].name == id)
                a->match[f] = 1;
    }
    long any = 0;
    for (size_t f = 0; f < nf; f++)
        any += a->match[f];
    return any;
}

/* Does the frame at location loc match pattern p? */
static int loc_matches(const struct apply *a, size_t p, ss_id loc)
{
    ss_id f = a->out->locations.v[loc].function;
    return f < a->nfun && a->match[p * a->nfun + f];
}

/* Outermost frame of fr[0..d) matching pattern 0, or -1. */
static long outermost(const struct apply *a, const ss_id *fr, size_t d)
{
    for (size_t j = d; j-- > 0;)
        if (loc_matches(a, 0, fr[j]))
            return (long)j;
    return -1;
}

/* ---- steps that rewrite stacks --------------------------------------------------- */

/* Per-step data of the stack rewriters. */
struct rewrite {
    const struct tf_step *st; /* NULL: the last pass that merges label sets (see model_finish) */
    size_t trim;              /* trim-base: levels */
    ss_id new_fn;             /* replace: the NEW function */
    ss_id key;                /* label-root: the key's string id (SS_NONE: not in the profile) */
    ss_id lab;                /* label-root: the label set of the stack being rewritten */
};

/* The location of frame `loc` renamed NAME@FILE#LINE after the call site
 * `at` (FILE: R's basename of at's file, NA when undeclared), keeping loc's
 * own position; SS_NONE when out of memory. */
static ss_id named_anonymous(struct apply *a, ss_id loc, ss_id at)
{
    struct ss_model *m = a->out;
    const struct ss_location *l = &m->locations.v[loc], *c = &m->locations.v[at];
    const char *name = ss_str(m, m->functions.v[l->function].name), *base = "NA";
    size_t blen = 2;
    if (c->file != SS_NONE)
        ss_basename(ss_str(m, c->file), &base, &blen);
    size_t nlen = strlen(name), cap = nlen + blen + 16;
    char *buf = malloc(cap);
    if (!buf)
        return SS_NONE;
    int k = snprintf(buf, cap, "%s@%.*s#%u", name, (int)blen, base, c->line);
    ss_id sid = k < 0 ? SS_NONE : ss_model_intern(m, buf, (size_t)k);
    free(buf);
    l = &m->locations.v[loc]; /* interning may not move locations, but be safe */
    ss_id fn = sid == SS_NONE ? SS_NONE : ss_model_function(m, sid, sid, SS_NONE, 0);
    if (fn == SS_NONE)
        return SS_NONE;
    ss_id file = m->locations.v[loc].file;
    uint32_t line = m->locations.v[loc].line;
    return ss_model_location(m, fn, file, line);
}

/* The location of the frame KEY=VALUE that label-root adds for label set
 * `set` (the values of the key joined by ',', as pprof's -tagroot), or
 * SS_NONE when the set has no label with the key; *oom set when out of
 * memory. */
static ss_id label_frame(struct apply *a, ss_id key, ss_id set, int *oom)
{
    struct ss_model *m = a->out;
    const struct ss_model *o = a->orig; /* labels are copied to out at the end */
    const ss_id *labs = ss_labelset_labels(o, set);
    size_t nl = ss_labelset_size(o, set);
    VEC(char) t = {NULL, 0, 0};
    int any = 0;
    for (size_t i = 0; i < nl; i++) {
        if (o->labels.v[labs[i]].key != key)
            continue;
        char nb[96];
        const char *v = ss_label_value(o, labs[i], nb, sizeof nb);
        const char *head = any ? "," : ss_str(o, key);
        size_t hl = strlen(head), vl = strlen(v);
        if (VEC_RESERVE(t, t.n + hl + vl + 2))
            goto oom;
        memcpy(t.v + t.n, head, hl);
        t.n += hl;
        if (!any)
            t.v[t.n++] = '=';
        memcpy(t.v + t.n, v, vl);
        t.n += vl;
        any = 1;
    }
    if (!any)
        return SS_NONE;
    ss_id sid = ss_model_intern(m, t.v, t.n);
    VEC_FREE(t);
    ss_id fn = sid == SS_NONE ? SS_NONE : ss_model_function(m, sid, sid, SS_NONE, 0);
    ss_id loc = fn == SS_NONE ? SS_NONE : ss_model_location(m, fn, SS_NONE, 0);
    if (loc == SS_NONE)
        *oom = 1;
    return loc;
oom:
    VEC_FREE(t);
    *oom = 1;
    return SS_NONE;
}

/* name-anonymous: each matching frame of fr[0..d) (tail) renamed in o
 * after its call site, the nearest caller with a position, else the
 * position the outermost frame was called from.  Returns 0 or -1. */
static int name_anonymous(struct apply *a, const ss_id *fr, size_t d, ss_id tail, ss_id *o)
{
    for (size_t i = 0; i < d; i++) {
        if (!loc_matches(a, 0, fr[i]))
            continue;
        ss_id at = SS_NONE;
        for (size_t j = i + 1; j < d && at == SS_NONE; j++)
            if (a->out->locations.v[fr[j]].line)
                at = fr[j];
        if (at == SS_NONE && tail != SS_NONE && a->out->locations.v[tail].line)
            at = tail;
        if (at == SS_NONE)
            continue;
        o[i] = named_anonymous(a, fr[i], at);
        if (o[i] == SS_NONE)
            return -1;
    }
    return 0;
}

/* replace: the runs of fr[0..d) that match the step's patterns, root to
 * leaf, leftmost first, never overlapping, each one NEW frame, into o
 * (built root first and reversed at the end).  Returns the frames, or -1. */
static long replace_frames(struct apply *a, struct rewrite *rw, const ss_id *fr, size_t d, ss_id *o)
{
    size_t k = rw->st->npats, i = 0, n = 0;
    while (i < d) {
        size_t r = d - 1 - i; /* root-first position i is fr[r] */
        int hit = i + k <= d;
        for (size_t p = 0; hit && p < k; p++)
            hit = loc_matches(a, p, fr[r - p]);
        if (!hit) {
            o[n++] = fr[r];
            i++;
            continue;
        }
        /* NEW takes the position of the innermost replaced frame: the
         * line its callee was called from */
        const struct ss_location *in = &a->out->locations.v[fr[r - k + 1]];
        ss_id loc = ss_model_location(a->out, rw->new_fn, in->file, in->line);
        if (loc == SS_NONE)
            return -1;
        o[n++] = loc;
        i += k;
    }
    for (size_t x = 0, y = n; x + 1 < y; x++, y--) {
        ss_id t = o[x];
        o[x] = o[y - 1];
        o[y - 1] = t;
    }
    return (long)n;
}

/* Rewrite stack fr[0..d) (tail) into a->buf / *ntail.  Returns 0 or -1. */
static int rewrite(struct apply *a, struct rewrite *rw, const ss_id *fr, size_t d, ss_id tail,
                   ss_id *ntail)
{
    ss_id *o = a->buf.v;
    size_t n = 0;
    *ntail = tail;
    switch (rw->st ? rw->st->kind : SS_TF_CLASS) {
    case SS_TF_LABEL_ROOT: {
        copy_ids(o, fr, d);
        n = d;
        if (d == 0 || rw->key == SS_NONE)
            break; /* a sample with no frames stays one */
        int oom = 0;
        ss_id loc = label_frame(a, rw->key, rw->lab, &oom);
        if (oom)
            return -1;
        if (loc != SS_NONE) {
            o[n++] = loc; /* a->buf has room: see stack_step */
            *ntail = SS_NONE;
        }
        break;
    }
    case SS_TF_TRIM_BASE:
        if (rw->trim == 0 || d == 0) {
            copy_ids(o, fr, d);
            n = d;
        } else {
            n = d > rw->trim ? d - rw->trim : 0;
            copy_ids(o, fr, n);
            *ntail = SS_NONE;
        }
        break;
    case SS_TF_TRIM_TO:
    case SS_TF_FOCUS: {
        long j = outermost(a, fr, d);
        n = j < 0 ? d : (size_t)j + 1;
        copy_ids(o, fr, n);
        if (n < d)
            *ntail = SS_NONE;
        break;
    }
    case SS_TF_PRUNE: {
        long j = outermost(a, fr, d);
        size_t from = j < 0 ? 0 : (size_t)j;
        n = d - from;
        copy_ids(o, fr + from, n);
        break;
    }
    case SS_TF_MERGE:
        for (size_t i = 0; i < d; i++)
            if (!loc_matches(a, 0, fr[i]))
                o[n++] = fr[i];
        break;
    case SS_TF_R_SIMPLIFY:
        /* a machinery frame stays when innermost (its self time stays its
         * own) or when it has a position (eval running a source()d line) */
        for (size_t i = 0; i < d; i++)
            if (i == 0 || !loc_matches(a, 0, fr[i]) || a->out->locations.v[fr[i]].line)
                o[n++] = fr[i];
        break;
    case SS_TF_NAME_ANONYMOUS:
        copy_ids(o, fr, d);
        n = d;
        if (name_anonymous(a, fr, d, tail, o))
            return -1;
        break;
    case SS_TF_COLLAPSE_RECURSION:
        /* of a run of calls of one function, keep the innermost */
        for (size_t i = 0; i < d; i++)
            if (i == 0 || !loc_matches(a, 0, fr[i]) || fn_name(a, fr[i]) != fn_name(a, fr[i - 1]))
                o[n++] = fr[i];
        break;
    case SS_TF_REPLACE: {
        long k = replace_frames(a, rw, fr, d, o);
        if (k < 0)
            return -1;
        n = (size_t)k;
        break;
    }
    default:
        copy_ids(o, fr, d);
        n = d;
        break;
    }
    if (n == 0)
        *ntail = SS_NONE; /* no frames: no position outside them either */
    a->buf.n = n;
    return 0;
}

/* Map every working stack in use through the step's rewrite. */
static int stack_step(struct apply *a, struct rewrite *rw, struct ss_tf_effect *eff)
{
    struct wset *cur = a->cur, *nx = a->next;
    size_t nc = wset_n(cur);
    if (wset_reset(nx, nc))
        return -1;
    if (ss_grow((void **)&a->map, &a->map_cap, nc ? nc : 1, sizeof *a->map))
        return -1;
    for (size_t s = 0; s < nc; s++) {
        a->map[s] = SS_NONE;
        uint64_t ns = cur->ns.v[s];
        if (ns == 0)
            continue;
        const ss_id *fr = cur->loc.v + cur->off.v[s];
        size_t d = cur->off.v[s + 1] - cur->off.v[s];
        ss_id tail = cur->tail.v[s], ntail;
        rw->lab = cur->lab.v[s];
        if (VEC_RESERVE(a->buf, d + 1) || rewrite(a, rw, fr, d, tail, &ntail))
            return -1;
        size_t nd = a->buf.n;
        ss_id id = wset_add(nx, a->buf.v, nd, ntail, rw->st ? rw->lab : 0);
        if (id == SS_NONE)
            return -1;
        a->map[s] = id;
        nx->ns.v[id] += ns;
        if (nd != d || ntail != tail || (d && memcmp(a->buf.v, fr, d * sizeof *fr))) {
            eff->stacks_changed++;
            if (nd < d)
                eff->frames_removed += (uint64_t)(d - nd) * ns;
            if (nd == 0 && d > 0)
                eff->samples_emptied += ns;
        }
    }
    for (size_t i = 0; i < a->norig; i++)
        if (a->o2c[i] != SS_NONE)
            a->o2c[i] = a->map[a->o2c[i]];
    a->cur = nx;
    a->next = cur;
    return 0;
}

/* ---- steps that remove samples ----------------------------------------------------- */

/* Before a cut of the old timeline (n_old samples) that keeps [lo, hi) or,
 * with drop, all but [lo, hi): take the removed samples from their stacks'
 * counts, unless fewer samples stay than go (then the caller recounts the
 * kept ones after the cut with recount_kept). */
static void recount(struct apply *a, size_t n_old, size_t lo, size_t hi, int drop)
{
    uint64_t *ns = a->cur->ns.v;
    size_t kept = drop ? n_old - (hi - lo) : hi - lo;
    if (kept < n_old - kept)
        return; /* done by the caller after the cut: see recount_kept */
    if (drop) {
        for (size_t k = lo; k < hi; k++)
            ns[cur_stack(a, k)]--;
    } else {
        for (size_t k = 0; k < lo; k++)
            ns[cur_stack(a, k)]--;
        for (size_t k = hi; k < n_old; k++)
            ns[cur_stack(a, k)]--;
    }
}

/* Count the samples of every working stack afresh from the timeline. */
static void recount_kept(struct apply *a)
{
    uint64_t *ns = a->cur->ns.v;
    if (wset_n(a->cur))
        memset(ns, 0, wset_n(a->cur) * sizeof *ns);
    for (size_t k = 0; k < a->nkeep; k++)
        ns[cur_stack(a, k)]++;
}

/* Keep timeline samples [lo, hi) (drop == 0) or all others (drop == 1). */
static int cut_samples(struct apply *a, size_t lo, size_t hi, int drop)
{
    if (lo >= hi) {
        lo = hi = 0;
        if (drop)
            return 0;
    }
    size_t n = a->nkeep;
    size_t kept = drop ? n - (hi - lo) : hi - lo;
    int fresh = kept < n - kept; /* recount the kept samples instead */
    recount(a, n, lo, hi, drop);
    if (!a->keep && (!drop || lo == 0 || hi == n)) {
        /* what is left is still one stretch of the original: no array */
        a->base += drop ? (lo == 0 ? hi : 0) : lo;
    } else {
        if (keep_materialise(a))
            return -1;
        if (drop)
            memmove(a->keep + lo, a->keep + hi, (n - hi) * sizeof *a->keep);
        else
            memmove(a->keep, a->keep + lo, (hi - lo) * sizeof *a->keep);
    }
    a->nkeep = kept;
    if (fresh)
        recount_kept(a);
    return 0;
}

/* Where the timeline's samples of each source are, when every sample
 * counts 1: source s has positions [p[s], p[s+1]) starting at time t0[s]
 * (ns), each sample w[s] long.  The time arithmetic of a range then needs
 * no pass over the samples. */
struct spans {
    size_t *p;
    double *t0, *w;
};

static size_t first_at_or_after(const struct apply *a, size_t orig)
{
    if (!a->keep)
        return orig <= a->base ? 0 : orig - a->base < a->nkeep ? orig - a->base : a->nkeep;
    size_t lo = 0, hi = a->nkeep;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->keep[mid] < orig)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int spans_make(const struct apply *a, struct spans *sp)
{
    const struct ss_model *m = a->orig;
    size_t ns = m->sources.n;
    sp->p = ss_alloc_array(ns + 1, sizeof *sp->p);
    sp->t0 = ss_alloc_array(ns + 1, sizeof *sp->t0);
    sp->w = ss_alloc_array(ns + 1, sizeof *sp->w);
    if (!sp->p || !sp->t0 || !sp->w)
        return -1;
    double t = 0;
    for (size_t s = 0; s < ns; s++) {
        sp->p[s] = first_at_or_after(a, m->sources.v[s].first_sample);
        sp->t0[s] = t;
        sp->w[s] = m->sources.v[s].interval_us * 1000.0;
        size_t end = first_at_or_after(a, m->sources.v[s].first_sample + m->sources.v[s].n_samples);
        t += (double)(end - sp->p[s]) * sp->w[s];
    }
    sp->p[ns] = a->nkeep;
    sp->t0[ns] = t;
    sp->w[ns] = 0;
    return 0;
}

static void spans_free(struct spans *sp)
{
    free(sp->p);
    free(sp->t0);
    free(sp->w);
}

/* The first timeline position whose sample starts at or after time t. */
static size_t spans_find(const struct apply *a, const struct spans *sp, double t)
{
    size_t ns = a->orig->sources.n;
    for (size_t s = 0; s < ns; s++) {
        size_t c = sp->p[s + 1] - sp->p[s];
        if (c == 0 || sp->t0[s] + (double)(c - 1) * sp->w[s] < t)
            continue;
        size_t j = 0;
        if (sp->w[s] > 0 && t > sp->t0[s]) {
            double q = ceil((t - sp->t0[s]) / sp->w[s]);
            j = q < (double)c ? (size_t)q : c - 1;
        }
        /* settle rounding: the smallest j with t0 + j w >= t */
        while (j > 0 && sp->t0[s] + (double)(j - 1) * sp->w[s] >= t)
            j--;
        while (j < c && sp->t0[s] + (double)j * sp->w[s] < t)
            j++;
        return sp->p[s] + j;
    }
    return a->nkeep;
}

/* Timeline positions [*lo, *hi) of a sample range.  Returns 0 or -1. */
static int range_bounds(struct apply *a, const struct tf_range *r, size_t *lo, size_t *hi)
{
    size_t n = a->nkeep;
    if (!r->is_time) {
        int64_t x = r->has_a ? (r->a < 0 ? (int64_t)n + 1 + r->a : r->a) : 1;
        int64_t y = r->has_b ? (r->b < 0 ? (int64_t)n + 1 + r->b : r->b) : (int64_t)n;
        if (x < 1)
            x = 1;
        if (y > (int64_t)n)
            y = (int64_t)n;
        *lo = (size_t)(x - 1);
        *hi = y >= x ? (size_t)y : *lo;
        return 0;
    }
    /* Sample k starts at t_k = the summed time (count x its source's
     * interval) of the samples before it; [A, B) selects t_k in it. */
    const struct ss_model *m = a->orig;
    if (!m->values.v[SS_VT_COUNT]) {
        struct spans sp;
        memset(&sp, 0, sizeof sp);
        if (spans_make(a, &sp)) {
            spans_free(&sp);
            return -1;
        }
        double total = sp.t0[m->sources.n];
        *lo = r->has_a ? spans_find(a, &sp, r->a < 0 ? total + (double)r->a : (double)r->a) : 0;
        *hi = r->has_b ? spans_find(a, &sp, r->b < 0 ? total + (double)r->b : (double)r->b) : n;
        spans_free(&sp);
        if (*hi < *lo)
            *lo = *hi = 0;
        return 0;
    }
    /* count values: one pass (two when an end counts from the total) */
    double total = 0;
    size_t src = 0;
    int from_end = (r->has_a && r->a < 0) || (r->has_b && r->b < 0);
    for (size_t k = 0; from_end && k < n; k++) {
        size_t i = orig_index(a, k);
        while (src + 1 < m->sources.n && m->sources.v[src + 1].first_sample <= i)
            src++;
        int64_t c = ss_sample_count(m, i);
        total += (double)(c > 0 ? c : 0) * m->sources.v[src].interval_us * 1000.0;
    }
    double ta = r->has_a ? (r->a < 0 ? total + (double)r->a : (double)r->a) : -1.0;
    double tb = r->has_b ? (r->b < 0 ? total + (double)r->b : (double)r->b) : HUGE_VAL;
    double t = 0;
    *lo = *hi = n;
    int started = 0;
    src = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = orig_index(a, k);
        while (src + 1 < m->sources.n && m->sources.v[src + 1].first_sample <= i)
            src++;
        if (!started && t >= ta) {
            *lo = k;
            started = 1;
        }
        if (t >= tb) {
            *hi = k;
            break;
        }
        int64_t c = ss_sample_count(m, i);
        t += (double)(c > 0 ? c : 0) * m->sources.v[src].interval_us * 1000.0;
    }
    if (!started || *hi < *lo)
        *lo = *hi = 0;
    return 0;
}

/* Does working stack s have a frame matching pattern 0? */
static int has_match(const struct apply *a, const struct wset *cur, size_t s, const void *ctx)
{
    (void)ctx;
    return outermost(a, cur->loc.v + cur->off.v[s], cur->off.v[s + 1] - cur->off.v[s]) >= 0;
}

/* keep-line: does working stack s pass through one of the locations marked
 * in ctx (a frame's position, or the position after its outermost frame)? */
static int has_line(const struct apply *a, const struct wset *cur, size_t s, const void *ctx)
{
    const unsigned char *at = ctx;
    (void)a;
    for (uint32_t k = cur->off.v[s]; k < cur->off.v[s + 1]; k++)
        if (at[cur->loc.v[k]])
            return 1;
    return cur->tail.v[s] != SS_NONE && at[cur->tail.v[s]];
}

/* Keep (want == 1) or drop (want == 0) the samples whose working stack s
 * has has(a, cur, s, ctx). */
static int filter_stacks(struct apply *a, int want,
                         int (*has_fn)(const struct apply *, const struct wset *, size_t,
                                       const void *),
                         const void *ctx)
{
    struct wset *cur = a->cur;
    size_t nc = wset_n(cur);
    unsigned char *has = ss_alloc_array(nc, 1);
    if (!has)
        return -1;
    int any = 0;
    for (size_t s = 0; s < nc; s++) {
        has[s] = 0;
        if (cur->ns.v[s] == 0)
            continue;
        has[s] = (unsigned char)has_fn(a, cur, s, ctx);
        if (has[s] != want) {
            cur->ns.v[s] = 0;
            any = 1;
        }
    }
    if (!any) { /* every sample stays */
        free(has);
        return 0;
    }
    /* per original stack, one lookup less per sample */
    unsigned char *ho = ss_alloc_array(a->norig, 1);
    if (!ho) {
        free(has);
        return -1;
    }
    for (size_t i = 0; i < a->norig; i++)
        ho[i] = a->o2c[i] != SS_NONE && has[a->o2c[i]] == want;
    const ss_id *ss = a->sunit;
    size_t w = 0;
    /* the compactions write every sample and count the kept ones, without
     * a branch: whether a sample stays is as unpredictable as the stacks'
     * order, and the mispredictions were a third of this filter's time */
    if (a->keep) {
        uint32_t *keep = a->keep;
        for (size_t k = 0; k < a->nkeep; k++) {
            keep[w] = keep[k];
            w += ho[ss[keep[k]]];
        }
    } else {
        /* one stretch so far: the kept samples' numbers written at once
         * (as many as the kept stacks' samples), not all of them first */
        size_t n = 0;
        for (size_t s = 0; s < nc; s++)
            n += cur->ns.v[s];
        a->keep = keep_alloc(a, n);
        if (!a->keep) {
            free(has);
            free(ho);
            return -1;
        }
        uint32_t *keep = a->keep;
        for (size_t k = 0; k < a->nkeep && w < n; k++) { /* w < n: ns counts them */
            keep[w] = (uint32_t)(a->base + k);
            w += ho[ss[a->base + k]];
        }
    }
    a->nkeep = w;
    free(has);
    free(ho);
    return 0;
}

/* Keep (want == 1) or drop (want == 0) the samples whose stack has a frame
 * matching pattern 0. */
static int filter_contains(struct apply *a, int want)
{
    return filter_stacks(a, want, has_match, NULL);
}

/* keep-line FILE#LINE: keep the samples through that line (a location of
 * the output model with that basename and line, R's by-line key). */
static int filter_line(struct apply *a, const struct tf_step *st, struct ss_tf_effect *eff)
{
    const struct ss_model *m = a->out;
    unsigned char *at = ss_calloc_array(m->locations.n, 1);
    if (!at)
        return -1;
    size_t kl = strlen(st->key);
    for (size_t l = 0; l < m->locations.n; l++) {
        const struct ss_location *loc = &m->locations.v[l];
        const char *b = "NA";
        size_t bl = 2;
        if (loc->line != st->line)
            continue;
        if (loc->file != SS_NONE)
            ss_basename(ss_str(m, loc->file), &b, &bl);
        at[l] = bl == kl && !memcmp(b, st->key, kl);
        eff->lines_matched += at[l];
    }
    int rc = filter_stacks(a, 1, has_line, at);
    free(at);
    return rc;
}

/* ---- labels ------------------------------------------------------------------------ */

/* Does label `lab` match the step's KEY[=VALUE] (the key compared by string
 * id)?  A word value equals the label's text (ss_label_value) or, for a
 * numeric label, its number alone; a /regex/ searches the text (within
 * *budget: -2 when it runs out, -1 when memory does; match.h). */
static int label_matches(const struct apply *a, const struct tf_step *st, ss_id key, ss_id lab,
                         uint64_t *budget)
{
    const struct ss_model *m = a->orig;
    const struct ss_label *l = &m->labels.v[lab];
    if (l->key != key)
        return 0;
    if (!st->has_value)
        return 1;
    char buf[96];
    const char *text = ss_label_value(m, lab, buf, sizeof buf);
    if (st->value.is_regex)
        return ss_regex_match(&st->value.re, text, strlen(text), budget);
    if (!strcmp(text, st->value.text))
        return 1;
    char num[32];
    snprintf(num, sizeof num, "%lld", (long long)l->num);
    return l->str == SS_NONE && !strcmp(num, st->value.text);
}

/* keep-label (want == 1) / drop-label (want == 0): keep the samples whose
 * label set has (or has not) a label matching the step. */
static int filter_labels(struct apply *a, const struct tf_step *st, struct ss_tf_effect *eff)
{
    const struct ss_model *m = a->orig;
    int want = st->kind == SS_TF_KEEP_LABEL;
    ss_id key = ss_strtab_find(&m->strs, st->key, strlen(st->key));
    size_t nl = m->labels.n, nsets = ss_model_nlabelsets(m);
    unsigned char *lm = calloc(nl ? nl : 1, 1), *sm = calloc(nsets, 1);
    if (!lm || !sm) {
        free(lm);
        free(sm);
        return -1;
    }
    /* the labels' texts are strings of the model, or numbers */
    uint64_t budget = SS_REGEX_BUDGET(m->strs.buf_n + 32 * (uint64_t)nl);
    for (size_t l = 0; key != SS_NONE && l < nl; l++) {
        int r = label_matches(a, st, key, (ss_id)l, &budget);
        if (r < 0) {
            free(lm);
            free(sm);
            return r;
        }
        lm[l] = (unsigned char)r;
        eff->labels_matched += lm[l];
    }
    for (size_t set = 0; set < nsets; set++) {
        const ss_id *labs = ss_labelset_labels(m, (ss_id)set);
        for (size_t i = 0; i < ss_labelset_size(m, (ss_id)set) && !sm[set]; i++)
            sm[set] = lm[labs[i]];
    }
    free(lm);
    int rc = 0;
    size_t w = 0;
    for (size_t k = 0; k < a->nkeep; k++)
        w += sm[ss_sample_labelset(m, orig_index(a, k))] == want;
    if (w < a->nkeep) {
        rc = keep_materialise(a);
        if (!rc) {
            w = 0;
            for (size_t k = 0; k < a->nkeep; k++) { /* as filter_contains */
                a->keep[w] = a->keep[k];
                w += sm[ss_sample_labelset(m, a->keep[k])] == want;
            }
            a->nkeep = w;
            recount_kept(a);
        }
    }
    free(sm);
    return rc;
}

/* The labels label-root's key names (for its effect). */
static size_t count_key_labels(const struct ss_model *m, ss_id key)
{
    size_t n = 0;
    for (size_t l = 0; key != SS_NONE && l < m->labels.n; l++)
        n += m->labels.v[l].key == key;
    return n;
}

/* ---- keep-phase, drop-phase --------------------------------------------------------- */

/* The category of every sample of the timeline (phases.h), from the
 * working stacks' (ucat: per unit, into *ucat, malloc'd): read through the
 * timeline when it is one stretch of the original (seq->idx), else an
 * array of them (*cat, malloc'd); the samples of a source without time
 * order (folded stacks) all one, so that it stays one phase. */
static int phase_signal(struct apply *a, struct ss_phase_seq *seq, uint8_t **ucat, uint8_t **cat,
                        unsigned *ncat, struct ss_error *err)
{
    const struct wset *cur = a->cur;
    const struct ss_model *o = a->orig;
    size_t nc = wset_n(cur);
    uint8_t *scat = ss_alloc_array(nc, 1);
    *ucat = ss_alloc_array(a->norig, 1);
    *cat = NULL;
    uint32_t level;
    int rc = !scat || !*ucat ? ss_nomem(err, "transform")
                             : ss_phase_categories(a->out, cur->off.v, cur->loc.v, nc, cur->ns.v,
                                                   scat, ncat, &level, err);
    int unordered = 0;
    for (size_t s = 0; s < o->sources.n; s++)
        unordered |= (o->sources.v[s].flags & SS_SRC_UNORDERED) != 0;
    if (!rc) {
        for (size_t u = 0; u < a->norig; u++)
            (*ucat)[u] = a->o2c[u] == SS_NONE ? 0 : scat[a->o2c[u]];
        seq->cat = NULL;
        seq->idx = a->sunit + a->base;
        seq->table = *ucat;
    }
    if (!rc && (a->keep || unordered)) {
        if (!(*cat = ss_alloc_array(a->nkeep, 1)))
            rc = ss_nomem(err, "transform");
        for (size_t k = 0; *cat && k < a->nkeep; k++)
            (*cat)[k] = (*ucat)[a->sunit[orig_index(a, k)]];
        for (size_t s = 0; *cat && s < o->sources.n; s++)
            if (o->sources.v[s].flags & SS_SRC_UNORDERED) {
                size_t from = first_at_or_after(a, o->sources.v[s].first_sample);
                size_t to =
                    first_at_or_after(a, o->sources.v[s].first_sample + o->sources.v[s].n_samples);
                memset(*cat + from, 0, to - from);
            }
        seq->cat = *cat;
    }
    free(scat);
    return rc;
}

/* The timeline positions where its sources after the first start. */
static size_t *phase_breaks(const struct apply *a, size_t *n)
{
    const struct ss_model *o = a->orig;
    size_t *b = ss_alloc_array(o->sources.n, sizeof *b);
    *n = 0;
    for (size_t s = 1; b && s < o->sources.n; s++) {
        size_t p = first_at_or_after(a, o->sources.v[s].first_sample);
        if (p > 0 && p < a->nkeep && (*n == 0 || b[*n - 1] < p))
            b[(*n)++] = p;
    }
    return b;
}

/* The phases of the timeline at step st into *starts (malloc'd) and *np. */
static int find_phases(struct apply *a, const struct tf_step *st, size_t **starts, size_t *np,
                       struct ss_error *err)
{
    size_t nb;
    unsigned ncat = 1;
    uint8_t *cat = NULL, *ucat = NULL;
    struct ss_phase_seq seq;
    size_t *breaks = phase_breaks(a, &nb);
    int rc = !breaks ? ss_nomem(err, "transform") : phase_signal(a, &seq, &ucat, &cat, &ncat, err);
    if (!rc)
        rc = ss_phases_detect(&seq, a->nkeep, ncat, breaks, nb, &st->phase_opts, starts, np, err);
    free(cat);
    free(ucat);
    free(breaks);
    return rc;
}

/* The caller's phases for this step (tf_apply's hint) into *starts
 * (malloc'd) and *np: 1 when the hint is for this step with the default
 * options and fits its timeline, 0 when the step finds them itself, -1 out
 * of memory. */
static int phase_hint(const struct apply *a, const struct tf_step *st, size_t **starts, size_t *np)
{
    const struct tf_phase_hint *h = a->hint;
    if (!h || h->step != a->step || st->phase_opts.count || st->phase_opts.penalty > 0 || !h->n ||
        h->samples != a->nkeep || h->starts[0] != 0)
        return 0;
    for (size_t k = 1; k < h->n; k++)
        if (h->starts[k] <= h->starts[k - 1] || h->starts[k] >= a->nkeep)
            return 0;
    *starts = ss_alloc_array(h->n, sizeof **starts);
    if (!*starts)
        return -1;
    memcpy(*starts, h->starts, h->n * sizeof **starts);
    *np = h->n;
    return 1;
}

/* keep-phase / drop-phase: find the phases of the timeline as it is at
 * this step (or take the caller's, phase_hint), then keep or drop the one
 * the step names. */
static int phase_step(struct apply *a, const struct tf_step *st, struct ss_tf_effect *eff,
                      struct ss_error *err)
{
    const struct ss_model *o = a->orig;
    if (!ss_model_has_time_order(o))
        return ss_fail(err, SS_EUSAGE,
                       "%s needs samples in time order; %s (%s) has none (folded stacks hold "
                       "one line per distinct stack)",
                       st->text, o->sources.n ? ss_str(o, o->sources.v[0].uri) : "the profile",
                       o->sources.n ? ss_str(o, o->sources.v[0].type) : "empty");
    size_t *starts = NULL, np = 0;
    int rc = phase_hint(a, st, &starts, &np);
    if (rc < 0)
        rc = ss_nomem(err, "transform");
    else
        rc = rc ? 0 : find_phases(a, st, &starts, &np, err);
    if (rc == SS_EUSAGE) /* phases=N the profile cannot have: say which step */
        rc = ss_fail(err, SS_EUSAGE, "%s: %s", st->text, err->msg);
    size_t idx = rc ? 0 : ss_phase_ref_pick(&st->phase, starts, np, a->nkeep);
    if (!rc && np && idx >= np)
        rc = ss_fail(err, SS_EUSAGE, "%s: the profile has %zu phase%s at this step", st->text, np,
                     ss_s(np));
    if (!rc && np) {
        size_t lo = starts[idx], hi = idx + 1 < np ? starts[idx + 1] : a->nkeep;
        eff->phases_found = np;
        eff->phase_picked = idx + 1;
        eff->range_first = lo + 1;
        eff->range_last = hi;
        if (cut_samples(a, lo, hi, st->kind == SS_TF_DROP_PHASE))
            rc = ss_nomem(err, "transform");
    }
    free(starts);
    return rc;
}

/* ---- trim-base auto ----------------------------------------------------------------- */

static int scaffold_depth(struct apply *a, double share, int all, size_t *depth,
                          struct ss_error *err)
{
    struct wset *cur = a->cur;
    size_t nc = wset_n(cur);
    uint64_t *cnt = ss_calloc_array(nc, sizeof *cnt);
    unsigned char *used = ss_alloc_array(nc, 1);
    if (!cnt || !used) {
        free(cnt);
        free(used);
        return ss_nomem(err, "transform");
    }
    for (size_t s = 0; s < nc; s++)
        used[s] = cur->ns.v[s] > 0;
    if (!a->orig->values.v[SS_VT_COUNT] && nc) /* every sample counts 1 */
        memcpy(cnt, cur->ns.v, nc * sizeof *cnt);
    for (size_t k = 0; a->orig->values.v[SS_VT_COUNT] && k < a->nkeep; k++) {
        int64_t c = ss_sample_count(a->orig, orig_index(a, k));
        if (c > 0)
            cnt[cur_stack(a, k)] += (uint64_t)c;
    }
    struct ss_level_row *rows;
    size_t n;
    int rc = ss_levels_compute_stacks(a->out, cur->off.v, cur->loc.v, nc, cnt, NULL, used, &rows,
                                      &n, err);
    free(cnt);
    free(used);
    if (rc)
        return rc;
    *depth = ss_levels_scaffold(rows, n, share);
    if (!all)
        *depth = ss_levels_user_level(rows, *depth);
    free(rows);
    return 0;
}

/* ---- one step ------------------------------------------------------------------------- */

static int set_classes(struct apply *a, const struct tf_step *st)
{
    const struct ss_model *m = a->out;
    ss_id name = ss_model_intern_cstr(a->out, st->name);
    if (name == SS_NONE || VEC_RESERVE(a->cls, m->functions.n))
        return -1;
    while (a->cls.n < m->functions.n)
        a->cls.v[a->cls.n++] = SS_NONE;
    for (size_t f = 0; f < a->nfun; f++)
        if (a->match[f])
            a->cls.v[f] = name;
    a->any_class = 1;
    return 0;
}

/* 1 when the k patterns of `replace` occur in some stack leaf first (pattern
 * 0 innermost), the order in which Rprof lines and sprof's examples list
 * frames: a likely mistake worth a hint, since replace reads root first. */
static int occurs_leaf_first(struct apply *a, size_t k)
{
    const struct wset *w = a->cur;
    for (size_t s = 0; s < wset_n(w); s++) {
        if (!w->ns.v[s])
            continue;
        const ss_id *fr = w->loc.v + w->off.v[s];
        size_t d = w->off.v[s + 1] - w->off.v[s];
        for (size_t i = 0; i + k <= d; i++) {
            size_t p = 0;
            while (p < k && loc_matches(a, p, fr[i + p]))
                p++;
            if (p == k)
                return 1;
        }
    }
    return 0;
}

/* The measure of the samples in the timeline that have frames (or a
 * position), as the report headers count them: their weights x their
 * sources' scales (model.h), in one pass over the kept samples in order. */
static double kept_value(const struct apply *a)
{
    const struct ss_model *o = a->orig;
    const struct wset *cur = a->cur;
    if (o->sources.n == 1 && ss_weights_are_counts(o) && !o->values.v[SS_VT_COUNT]) {
        /* every sample weighs 1 in one source: the working stacks' sample
         * counts say it without a pass over the timeline (the same sum) */
        uint64_t w = 0;
        for (size_t s = 0; s < wset_n(cur); s++)
            if (cur->off.v[s + 1] != cur->off.v[s] || cur->tail.v[s] != SS_NONE)
                w += cur->ns.v[s];
        return (double)(int64_t)w * ss_source_scale(o, 0);
    }
    double v = 0;
    size_t src = 0;
    int64_t w = 0;
    for (size_t k = 0; k < a->nkeep; k++) {
        size_t i = orig_index(a, k);
        ss_id s = cur_stack(a, k);
        if (cur->off.v[s + 1] == cur->off.v[s] && cur->tail.v[s] == SS_NONE)
            continue; /* no frame, no position: counted nowhere */
        if (src < o->sources.n &&
            i >= o->sources.v[src].first_sample + o->sources.v[src].n_samples) {
            v += (double)w * ss_source_scale(o, src);
            w = 0;
            while (src < o->sources.n &&
                   i >= o->sources.v[src].first_sample + o->sources.v[src].n_samples)
                src++;
        }
        w += ss_sample_weight(o, i);
    }
    if (src < o->sources.n)
        v += (double)w * ss_source_scale(o, src);
    return v;
}

static int run_step(struct apply *a, const struct tf_step *st, struct ss_tf_effect *eff,
                    struct ss_error *err)
{
    memset(eff, 0, sizeof *eff);
    eff->samples_in = a->nkeep;
    eff->value_in = a->value;
    struct rewrite rw = {st, 0, SS_NONE, SS_NONE, 0};
    int rc = 0;
    if (st->npats) {
        long nm = match_functions(a, st);
        if (nm == -2)
            return ss_fail(err, SS_EUSAGE,
                           "%s: a regular expression too costly to match "
                           "against these names (it keeps hundreds of states "
                           "alive at once): simplify it",
                           st->text);
        if (nm < 0)
            return ss_nomem(err, "transform");
        eff->functions_matched = (size_t)nm;
    }
    switch (st->kind) {
    case SS_TF_DROP_SAMPLES:
    case SS_TF_KEEP_SAMPLES: {
        size_t lo, hi;
        rc = range_bounds(a, &st->range, &lo, &hi);
        if (!rc && lo < hi) {
            eff->range_first = lo + 1;
            eff->range_last = hi;
        }
        if (!rc)
            rc = cut_samples(a, lo, hi, st->kind == SS_TF_DROP_SAMPLES);
        break;
    }
    case SS_TF_KEEP_PHASE:
    case SS_TF_DROP_PHASE:
        if ((rc = phase_step(a, st, eff, err)) != 0)
            return rc;
        break;
    case SS_TF_TRIM_BASE:
        rw.trim = st->trim_n;
        if (st->trim_auto && (rc = scaffold_depth(a, st->share, st->trim_all, &rw.trim, err)) != 0)
            return rc;
        eff->levels_removed = rw.trim;
        rc = stack_step(a, &rw, eff);
        break;
    case SS_TF_DROP:
        rc = filter_contains(a, 0);
        break;
    case SS_TF_FOCUS:
        rc = filter_contains(a, 1);
        if (!rc)
            rc = stack_step(a, &rw, eff);
        break;
    case SS_TF_CLASS:
        rc = set_classes(a, st);
        break;
    case SS_TF_KEEP_LABEL:
    case SS_TF_DROP_LABEL:
        rc = filter_labels(a, st, eff);
        if (rc == -2)
            return ss_fail(err, SS_EUSAGE,
                           "%s: a regular expression too costly to match "
                           "against these labels (it keeps hundreds of states "
                           "alive at once): simplify it",
                           st->text);
        break;
    case SS_TF_KEEP_LINE:
        rc = filter_line(a, st, eff);
        break;
    case SS_TF_LABEL_ROOT:
        rw.key = ss_strtab_find(&a->orig->strs, st->key, strlen(st->key));
        eff->labels_matched = count_key_labels(a->orig, rw.key);
        rc = stack_step(a, &rw, eff);
        break;
    case SS_TF_R_SIMPLIFY:
    case SS_TF_NAME_ANONYMOUS: {
        static const char *const anonymous[] = {"FUN", "<Anonymous>", NULL};
        if (!st->npats) {
            long nm = match_names(a, st->kind == SS_TF_R_SIMPLIFY ? ss_tf_r_machinery : anonymous);
            if (nm < 0)
                return ss_nomem(err, "transform");
            eff->functions_matched = (size_t)nm;
        }
        if (st->kind == SS_TF_NAME_ANONYMOUS && !ss_model_has_lines(a->orig))
            ss_model_warn(
                a->out, "name-anonymous: the profile has no line information (Rprof(line.profiling "
                        "= TRUE)), so FUN and <Anonymous> cannot be named by their call site");
        rc = stack_step(a, &rw, eff);
        break;
    }
    case SS_TF_REPLACE: {
        ss_id name = ss_model_intern_cstr(a->out, st->name);
        rw.new_fn = name == SS_NONE ? SS_NONE : ss_model_function(a->out, name, name, SS_NONE, 0);
        rc = rw.new_fn == SS_NONE ? -1 : stack_step(a, &rw, eff);
        if (!rc && eff->stacks_changed == 0 && st->npats > 1 && occurs_leaf_first(a, st->npats))
            ss_model_warn(a->out,
                          "'%s' changed nothing: its frames occur only leaf first (the order of "
                          "Rprof lines); replace lists them root first, outermost caller first",
                          st->text);
        break;
    }
    default: /* trim-to, merge, prune, collapse-recursion */
        rc = stack_step(a, &rw, eff);
        break;
    }
    if (rc)
        return ss_nomem(err, "transform");
    eff->samples_out = a->nkeep;
    if (eff->samples_out != eff->samples_in || eff->samples_emptied) /* else unchanged */
        a->value = kept_value(a);
    eff->value_out = a->value;
    return 0;
}

/* ---- the new model ---------------------------------------------------------------------- */

/* The new model's tables before the steps: strings, value types, functions
 * and locations of orig (same ids), with the builder's indexes so that
 * `replace` can add functions and locations. */
static int model_start(struct apply *a, ss_id **loc_map)
{
    const struct ss_model *o = a->orig;
    struct ss_model *m = a->out;
    struct ss_error e;
    if (ss_model_init_like(m, o, &e))
        return -1;
    ss_id *fmap = ss_alloc_array(o->functions.n, sizeof *fmap);
    *loc_map = ss_alloc_array(o->locations.n, sizeof **loc_map);
    if (!fmap || !*loc_map) {
        free(fmap);
        return -1;
    }
    for (size_t f = 0; f < o->functions.n; f++) {
        const struct ss_function *fn = &o->functions.v[f];
        fmap[f] = ss_model_function(m, fn->name, fn->system_name, fn->filename, fn->start_line);
        if (fmap[f] == SS_NONE) {
            free(fmap);
            return -1;
        }
    }
    for (size_t l = 0; l < o->locations.n; l++) {
        struct ss_location lc = o->locations.v[l]; /* mappings have o's ids */
        lc.function = lc.function == SS_NONE ? SS_NONE : fmap[lc.function];
        (*loc_map)[l] = ss_model_location_at(m, &lc);
        if ((*loc_map)[l] == SS_NONE) {
            free(fmap);
            return -1;
        }
    }
    if (o->function_class.n) {
        if (VEC_RESERVE(a->cls, m->functions.n)) {
            free(fmap);
            return -1;
        }
        for (size_t f = 0; f < m->functions.n; f++)
            a->cls.v[f] = SS_NONE;
        a->cls.n = m->functions.n;
        for (size_t f = 0; f < o->function_class.n && f < o->functions.n; f++)
            a->cls.v[fmap[f]] = o->function_class.v[f];
        a->any_class = 1;
    }
    free(fmap);
    return 0;
}

/* With label tracking: the units, one per distinct (stack, label set) pair
 * of the original samples, in order of first use; ustack/ulab get each
 * unit's stack and set (malloc'd), a->sunit each sample's unit. */
static int make_units(struct apply *a, ss_id **ustack, ss_id **ulab, size_t *nu)
{
    const struct ss_model *o = a->orig;
    size_t n = o->sample_stack.n;
    struct ss_u64map map;
    memset(&map, 0, sizeof map);
    VEC(ss_id) us = {NULL, 0, 0};
    VEC(ss_id) ul = {NULL, 0, 0};
    a->sunit_owned = ss_spare_take(a->spare, (n ? n : 1) * sizeof *a->sunit_owned, &a->sunit_cap);
    if (!a->sunit_owned)
        return -1;
    a->sunit = a->sunit_owned;
    for (size_t i = 0; i < n; i++) {
        ss_id st = o->sample_stack.v[i], lab = ss_sample_labelset(o, i);
        uint32_t u = ss_u64map_intern(&map, (uint64_t)st << 32 | lab, (uint32_t)us.n);
        if (u == SS_NONE)
            goto oom;
        if (u == us.n && (VEC_PUSH(us, st) || VEC_PUSH(ul, lab)))
            goto oom;
        a->sunit_owned[i] = u;
    }
    ss_u64map_free(&map);
    *ustack = us.v;
    *ulab = ul.v;
    *nu = us.n;
    return 0;
oom:
    ss_u64map_free(&map);
    VEC_FREE(us);
    VEC_FREE(ul);
    return -1;
}

/* The initial working stacks: orig's (or the units'), with their sample
 * counts. */
static int work_start(struct apply *a, const ss_id *loc_map)
{
    const struct ss_model *o = a->orig;
    size_t ns = ss_model_nstacks(o);
    ss_id *ustack = NULL, *ulab = NULL;
    a->sunit = o->sample_stack.v;
    if (a->track_labels && make_units(a, &ustack, &ulab, &ns))
        return -1;
    a->norig = ns;
    a->nkeep = o->sample_stack.n;

    int rc = -1;
    a->o2c = ss_alloc_array(ns, sizeof *a->o2c);
    if (!a->o2c || wset_reset(a->cur, 0) || VEC_RESERVE(a->buf, 64))
        goto out;
    for (size_t u = 0; u < ns; u++) {
        ss_id s = ustack ? ustack[u] : (ss_id)u;
        size_t d = ss_stack_depth(o, s);
        if (VEC_RESERVE(a->buf, d ? d : 1))
            goto out;
        for (size_t k = 0; k < d; k++)
            a->buf.v[k] = loc_map[ss_stack_frames(o, s)[k]];
        ss_id tail = o->stack_tail.v[s];
        if (wset_push(a->cur, a->buf.v, d, tail == SS_NONE ? SS_NONE : loc_map[tail],
                      ulab ? ulab[u] : 0) == SS_NONE)
            goto out;
        a->o2c[u] = (ss_id)u;
    }
    uint64_t *per = a->cur->ns.v; /* in locals: the stores would reload them */
    const ss_id *su = a->sunit;
    for (size_t i = 0; i < o->sample_stack.n; i++)
        per[su[i]]++;
    rc = 0;
out:
    free(ustack);
    free(ulab);
    return rc;
}

static int model_finish(struct apply *a, const ss_id *loc_map)
{
    const struct ss_model *o = a->orig;
    struct ss_model *m = a->out;
    if (a->track_labels) {
        /* stacks that differ only in their label sets become one */
        struct rewrite rw = {NULL, 0, SS_NONE, SS_NONE, 0};
        struct ss_tf_effect dummy;
        memset(&dummy, 0, sizeof dummy);
        if (stack_step(a, &rw, &dummy))
            return -1;
    }
    struct wset *cur = a->cur;
    size_t nc = wset_n(cur);
    /* stacks in use, in working order */
    if (ss_grow((void **)&a->map, &a->map_cap, nc ? nc : 1, sizeof *a->map))
        return -1;
    size_t nout = 0;
    for (size_t s = 0; s < nc; s++)
        if (cur->ns.v[s]) {
            a->map[s] = (ss_id)nout++;
        } else {
            a->map[s] = SS_NONE;
        }
    for (size_t s = 0; s < nc; s++)
        if (a->map[s] != SS_NONE &&
            ss_model_append_stack(m, cur->loc.v + cur->off.v[s], cur->off.v[s + 1] - cur->off.v[s],
                                  cur->tail.v[s]) == SS_NONE)
            return -1;
    /* the timeline; its values, sources and gaps follow from the kept samples */
    size_t n = a->nkeep;
    size_t stacks_cap;
    ss_id *stacks = ss_spare_take(a->spare, (n ? n : 1) * sizeof *stacks, &stacks_cap);
    if (!stacks)
        return -1;
    for (size_t k = 0; k < n; k++)
        stacks[k] = a->map[cur_stack(a, k)];
    /* m's value rows, where it can be; else a->keep goes back to the spare */
    if (ss_model_derive_samples_take(m, o, stacks, stacks_cap / sizeof *stacks, &a->keep,
                                     a->keep_cap, a->base, n))
        return -1;
    /* everything else as it was */
    for (size_t i = 0; i < o->meta.n; i++)
        if (ss_model_add_meta(m, o->meta.v[i].source, o->meta.v[i].key, o->meta.v[i].value))
            return -1;
    for (size_t i = 0; i < o->aggs.n; i++) {
        struct ss_agg g = o->aggs.v[i];
        g.location = loc_map[g.location];
        if (ss_model_add_agg(m, &g))
            return -1;
    }
    for (size_t i = 0; i < o->edges.n; i++) {
        struct ss_agg_edge e = o->edges.v[i];
        e.caller = e.caller == SS_NONE ? SS_NONE : loc_map[e.caller];
        e.callee = loc_map[e.callee];
        if (ss_model_add_edge(m, &e))
            return -1;
    }
    for (size_t i = 0; i < o->warnings.n; i++)
        ss_model_warn(m, "%s", o->warnings.v[i]);
    for (size_t f = 0; a->any_class && f < a->cls.n; f++)
        if (a->cls.v[f] != SS_NONE && ss_model_set_class(m, (ss_id)f, a->cls.v[f]))
            return -1;
    ss_model_seal(m);
    return 0;
}

/* Aggregate-only sources have no stacks for the steps to change: say so
 * (once per source) instead of leaving them silently as they are. */
static void warn_aggregates(struct ss_model *m, const struct tf_step *steps, size_t n)
{
    int any = 0;
    for (size_t i = 0; i < n; i++)
        any |= steps[i].enabled && steps[i].kind != SS_TF_CLASS;
    for (size_t s = 0; any && s < m->sources.n; s++)
        if (m->sources.v[s].flags & SS_SRC_AGGREGATE)
            ss_model_warn(m,
                          "%s: transforms change raw samples only; this source holds "
                          "aggregates (no stacks), which are left as they are",
                          ss_str(m, m->sources.v[s].uri));
}

int tf_apply(struct tf_step *steps, size_t n, struct tf_step *then, int base,
             struct ss_spare *spare, const struct tf_phase_hint *hint, const struct ss_model *orig,
             struct ss_model *out, struct ss_error *err)
{
    struct apply a;
    memset(&a, 0, sizeof a);
    a.spare = spare;
    a.hint = hint;
    memset(out, 0, sizeof *out);
    a.orig = orig;
    a.out = out;
    a.cur = &a.a;
    a.next = &a.b;
    ss_id *loc_map = NULL;
    int rc = 0;
    /* each side of a comparison keeps its own effects (the same list is
     * applied to the base after the new profile) */
#define EFFECT(i) (base ? &steps[i].base_effect : &steps[i].effect)
    for (size_t i = 0; i < n; i++)
        memset(EFFECT(i), 0, sizeof *EFFECT(i));
    if (orig->sample_stack.n > UINT32_MAX) /* sample numbers are kept in 32 bits */
        return ss_fail(err, SS_ENOMEM, "transforms: more than %u samples", UINT32_MAX);
    for (size_t i = 0; i < n; i++)
        if (steps[i].enabled && steps[i].kind == SS_TF_LABEL_ROOT && ss_model_has_labels(orig))
            a.track_labels = 1;
    if (model_start(&a, &loc_map) || work_start(&a, loc_map))
        rc = ss_nomem(err, "transform");
    if (!rc)
        a.value = kept_value(&a);
    for (size_t i = 0; !rc && i < n; i++)
        if (steps[i].enabled) {
            a.step = i;
            rc = run_step(&a, &steps[i], EFFECT(i), err);
        }
#undef EFFECT
    a.step = n;
    if (!rc && then)
        rc = run_step(&a, then, &then->effect, err);
    if (!rc && model_finish(&a, loc_map))
        rc = ss_nomem(err, "transform");
    if (!rc)
        warn_aggregates(out, steps, n);
    if (!rc) /* the output weighs by the input's measure */
        rc = ss_model_set_measure_from(out, ss_model_measure_name(orig), orig, err);
    free(loc_map);
    wset_free(&a.a);
    wset_free(&a.b);
    free(a.o2c);
    ss_spare_give(a.spare, a.sunit_owned, a.sunit_cap);
    ss_spare_give(a.spare, a.keep, a.keep_cap);
    free(a.map);
    VEC_FREE(a.buf);
    free(a.match);
    free(a.by_name);
    VEC_FREE(a.cls);
    if (rc) {
        ss_model_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}
