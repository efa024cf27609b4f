/* verdict_sums.c - one side's units for the verdicts (see verdict.h).
 *
 * Time order: one pass over the samples.  A row is in a run while
 * consecutive samples have it, and the rows of the previous sample are
 * exactly the rows whose run is open; so when the class (distinct stack or
 * label set) changes, only the rows of the two classes are looked at: the
 * old ones the new class lacks end their run, the new ones the old class
 * lacked start one.  Two stacks that agree on their first k frames (read
 * from the root, or the leaf) share every row that first appears there:
 * those stay open without a look, so a change deep in a stack costs only
 * the frames below the common part (as runs.c's pass).  A sample with the
 * same class as the one before costs an addition.  Positions are running
 * sums of the measure: a run's weight is where it ends minus where it
 * started, and a cycle (a run and the stretch up to the row's next run)
 * is closed when the next run starts.
 *
 * Without time order each sample's events are independent units, summed
 * per class and then given to the class's rows.
 */
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

#include "hashtab.h"
#include "num.h"
#include "vec.h"

void ss_vmap_free(struct ss_vmap *map)
{
    free(map->self);
    free(map->off);
    free(map->row);
    free(map->lvl);
    free(map->uoff);
    free(map->upto);
    memset(map, 0, sizeof *map);
}

/* ---- maps ------------------------------------------------------------------- */

/* Room for the classes and up to `entries` rows. */
static int map_alloc(struct ss_vmap *map, size_t nclass, size_t entries, int self, int lvl)
{
    memset(map, 0, sizeof *map);
    map->nclass = nclass;
    map->off = ss_calloc_array(nclass + 1, sizeof *map->off);
    map->row = ss_alloc_array(entries, sizeof *map->row);
    map->lvl = lvl ? ss_alloc_array(entries, sizeof *map->lvl) : NULL;
    map->self = self ? ss_alloc_array(nclass, sizeof *map->self) : NULL;
    if (!map->off || !map->row || (lvl && !map->lvl) || (self && !map->self) ||
        entries >= UINT32_MAX) {
        ss_vmap_free(map);
        return -1;
    }
    return 0;
}

/* Add row r at level l to the class being built (stamp: once per class). */
static void map_add(struct ss_vmap *map, uint32_t *n, uint32_t *stamp, uint32_t tick, uint32_t r,
                    uint32_t l)
{
    if (r == SS_VROW_NONE || stamp[r] == tick)
        return;
    stamp[r] = tick;
    map->row[*n] = r;
    if (map->lvl)
        map->lvl[*n] = l;
    (*n)++;
}

/* Fill map->uoff and upto (ss_vmap) for classes whose levels are their
 * stacks' depth (plus the tail, level 1, by line).  Returns 0 or -1. */
static int map_upto(const struct ss_model *m, struct ss_vmap *map)
{
    size_t nc = map->nclass, total = 0, extra = map->tail ? 1 : 0;
    map->uoff = ss_alloc_array(nc + 1, sizeof *map->uoff);
    for (size_t c = 0; map->uoff && c < nc; c++) {
        map->uoff[c] = (uint32_t)total;
        total += ss_stack_depth(m, (ss_id)c) + extra + 1;
    }
    map->upto = map->uoff && total < UINT32_MAX ? ss_alloc_array(total, sizeof *map->upto) : NULL;
    if (!map->upto)
        return -1;
    map->uoff[nc] = (uint32_t)total;
    for (size_t c = 0; c < nc; c++) {
        uint32_t e = map->off[c], end = map->off[c + 1], L = map->uoff[c + 1] - map->uoff[c];
        for (uint32_t j = 0; j < L; j++) {
            while (e < end && map->lvl[e] <= j)
                e++;
            map->upto[map->uoff[c] + j] = e;
        }
    }
    return 0;
}

/* The largest row number of n rows (for the stamps). */
static size_t rows_bound(const uint32_t *rows, size_t n)
{
    size_t b = 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i] != SS_VROW_NONE && rows[i] + 1 > b)
            b = rows[i] + 1;
    return b;
}

int ss_vmap_frames(const struct ss_model *m, const uint32_t *row_of_loc, int by_line,
                   uint32_t none_row, struct ss_vmap *map, struct ss_error *err)
{
    size_t ns = ss_model_nstacks(m), nloc = m->locations.n;
    size_t nr = rows_bound(row_of_loc, nloc);
    if (none_row != SS_VROW_NONE && none_row >= nr)
        nr = (size_t)none_row + 1;
    uint32_t *stamp = ss_calloc_array(nr, sizeof *stamp);
    if (!stamp || map_alloc(map, ns, m->stack_loc.n + (by_line ? 2 * ns : ns), 1, 1)) {
        free(stamp);
        return ss_nomem(err, "verdicts");
    }
    map->prefix = SS_VPREFIX_ROOT;
    map->tail = by_line;
    uint32_t n = 0;
    for (size_t s = 0; s < ns; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s);
        const ss_id *fr = ss_stack_frames(m, (ss_id)s);
        ss_id tail = by_line ? m->stack_tail.v[s] : SS_NONE;
        uint32_t tick = (uint32_t)s + 1, base = by_line ? 2 : 1, self = SS_VROW_NONE;
        map->off[s] = n;
        if (tail != SS_NONE)
            map_add(map, &n, stamp, tick, row_of_loc[tail], 1);
        for (size_t j = 0; j < d; j++)
            map_add(map, &n, stamp, tick, row_of_loc[fr[d - 1 - j]], (uint32_t)j + base);
        for (size_t k = 0; k < d && self == SS_VROW_NONE; k++)
            self = row_of_loc[fr[k]];
        if (self == SS_VROW_NONE && tail != SS_NONE)
            self = row_of_loc[tail];
        if (self == SS_VROW_NONE && (d > 0 || tail != SS_NONE) && none_row != SS_VROW_NONE) {
            /* never shared with another stack by its level */
            self = none_row;
            map_add(map, &n, stamp, tick, none_row, UINT32_MAX);
        }
        map->self[s] = self;
    }
    map->off[ns] = n;
    free(stamp);
    if (map_upto(m, map)) {
        ss_vmap_free(map);
        return ss_nomem(err, "verdicts");
    }
    return 0;
}

int ss_vmap_stacks(const struct ss_model *m, const uint32_t *row_of_stack, struct ss_vmap *map,
                   struct ss_error *err)
{
    size_t ns = ss_model_nstacks(m);
    if (map_alloc(map, ns, 0, 1, 0))
        return ss_nomem(err, "verdicts");
    memcpy(map->self, row_of_stack, ns * sizeof *map->self);
    return 0;
}

int ss_vmap_labels(const struct ss_model *m, const uint32_t *row_of_label, struct ss_vmap *map,
                   struct ss_error *err)
{
    size_t nsets = ss_model_nlabelsets(m), nl = m->labels.n;
    uint32_t *stamp = ss_calloc_array(rows_bound(row_of_label, nl), sizeof *stamp);
    if (!stamp || map_alloc(map, nsets, m->labelset_lab.n, 0, 0)) {
        free(stamp);
        return ss_nomem(err, "verdicts");
    }
    map->labelsets = 1;
    uint32_t n = 0;
    for (size_t c = 0; c < nsets; c++) {
        map->off[c] = n;
        const ss_id *l = ss_labelset_labels(m, (ss_id)c);
        for (size_t k = 0; k < ss_labelset_size(m, (ss_id)c); k++)
            map_add(map, &n, stamp, (uint32_t)c + 1, row_of_label[l[k]], 0);
    }
    map->off[nsets] = n;
    free(stamp);
    return 0;
}

/* The canonical function of the k-th frame of a stack of depth d, read from
 * the root (or the leaf), as tree.c and flame.c read it. */
static ss_id path_fn(const struct ss_model *m, const ss_id *fr, size_t d, size_t k, int inverted)
{
    return ss_function_canonical(m, ss_loc_function(m, fr[inverted ? k : d - 1 - k]));
}

int ss_vmap_paths(const struct ss_model *m, size_t nnodes, const uint32_t *parent, const ss_id *fn,
                  const uint32_t *row_of_node, int inverted, ss_id focus, struct ss_vmap *map,
                  struct ss_error *err)
{
    size_t ns = ss_model_nstacks(m);
    struct ss_u64map child = {0};
    int oom = ss_u64map_reserve(&child, nnodes);
    for (size_t i = 0; !oom && i < nnodes; i++)
        oom = ss_u64map_intern(&child, ((uint64_t)(parent[i] + 1) << 32) | fn[i], (uint32_t)i) ==
              SS_NONE;
    if (oom || map_alloc(map, ns, m->stack_loc.n, 1, 1)) {
        ss_u64map_free(&child);
        return ss_nomem(err, "verdicts");
    }
    map->prefix = inverted ? SS_VPREFIX_LEAF : SS_VPREFIX_ROOT;
    uint32_t n = 0;
    for (size_t s = 0; s < ns; s++) {
        size_t d = ss_stack_depth(m, (ss_id)s), k0 = 0;
        const ss_id *fr = ss_stack_frames(m, (ss_id)s);
        map->off[s] = n;
        map->self[s] = SS_VROW_NONE;
        if (focus != SS_NONE) {
            while (k0 < d && path_fn(m, fr, d, k0, inverted) != focus)
                k0++;
        }
        uint32_t node = SS_VROW_NONE;
        size_t k = k0;
        for (; k < d; k++) {
            uint64_t key = ((uint64_t)(node + 1) << 32) | path_fn(m, fr, d, k, inverted);
            uint32_t next = ss_u64map_get(&child, key);
            if (next == SS_NONE)
                break; /* a path the tree does not have (a stack of no weight) */
            node = next;
            if (row_of_node[node] != SS_VROW_NONE) {
                map->row[n] = row_of_node[node];
                map->lvl[n++] = (uint32_t)k + 1;
            }
        }
        if (k == d && node != SS_VROW_NONE)
            map->self[s] = row_of_node[node];
    }
    map->off[ns] = n;
    ss_u64map_free(&child);
    if (map_upto(m, map)) {
        ss_vmap_free(map);
        return ss_nomem(err, "verdicts");
    }
    return 0;
}

/* ---- the pass ----------------------------------------------------------------- */

size_t ss_vside_files(const struct ss_model *m)
{
    size_t n = 0;
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        int seen = !src->n_samples;
        for (size_t t = 0; t < s && !seen; t++)
            seen = m->sources.v[t].n_samples && m->sources.v[t].uri == src->uri;
        n += !seen;
    }
    return n;
}

/* ST_KEEP: a run that goes on through a transition (transition) */
enum { ST_RUN = 1, ST_STARTED = 2, ST_KEEP = 4 };

/* A row's run as the pass goes: where its last run (its open cycle)
 * started, that run's weight, and ST_*; one struct, so that a run's start
 * and end touch one place. */
struct live {
    double cs, wr;
    uint32_t st;
};

/* The run state of one quantity's rows (self or total). */
struct track {
    struct ss_vacc *acc;
    struct live *lv;
    double *run_x; /* per row and file, or NULL */
    size_t nruns;
};

struct pass {
    const struct ss_model *m;
    const struct ss_vmap *map;
    struct track self, tot;
    double P;    /* the measure of the counted samples so far */
    size_t file; /* the current sample's file */
    /* per class, over the current source: the measure and the sum of
     * v^2 / c of its samples (a sample of count c is c events of v / c),
     * given to the class's rows at the source's end (give): a row's x and
     * six, and its measure per file, need no work at each run */
    double *cv, *cu;
    uint32_t *seen; /* the class's last source + 1 */
    VEC(ss_id) touched;
    const atomic_int *stop; /* set by another thread: give up */
    int stopped;
};

/* Give up now?  Looked at every 65,536 samples (about a millisecond). */
static inline int stop_now(struct pass *p, size_t i)
{
    if ((i & 0xffff) == 0 && p->stop && atomic_load(p->stop))
        p->stopped = 1;
    return p->stopped;
}

static inline void unit(struct ss_vacc *a, double x, double t)
{
    if (!(t > 0))
        return;
    a->sxx += x * x;
    a->sxt += x * t;
    a->stt += t * t;
    a->units++;
}

static inline void run_start(struct track *tr, uint32_t r, double P)
{
    struct live *l = &tr->lv[r];
    if (l->st & ST_STARTED)
        unit(&tr->acc[r], l->wr, P - l->cs);
    else
        unit(&tr->acc[r], 0, P); /* the stretch before its first run */
    l->cs = P;
    l->st = ST_STARTED | ST_RUN;
}

static inline void run_end(struct track *tr, uint32_t r, double P)
{
    struct live *l = &tr->lv[r];
    l->wr = P - l->cs;
    l->st = ST_STARTED;
}

/* The number of first levels classes a and b share (see ss_vmap). */
static uint32_t common(const struct pass *p, ss_id a, ss_id b)
{
    const struct ss_model *m = p->m;
    if (p->map->prefix == SS_VPREFIX_NONE)
        return 0;
    if (p->map->tail && m->stack_tail.v[a] != m->stack_tail.v[b])
        return 0;
    size_t da = ss_stack_depth(m, a), db = ss_stack_depth(m, b), lim = da < db ? da : db, j = 0;
    const ss_id *fa = ss_stack_frames(m, a), *fb = ss_stack_frames(m, b);
    if (p->map->prefix == SS_VPREFIX_LEAF) {
        while (j < lim && fa[j] == fb[j])
            j++;
    } else {
        /* from one past the root down, two frames at a time while they agree */
        const ss_id *ra = fa + da, *rb = fb + db;
        while (j + 2 <= lim) {
            uint64_t x, y;
            memcpy(&x, ra - 2, sizeof x);
            memcpy(&y, rb - 2, sizeof y);
            if (x != y)
                break;
            ra -= 2, rb -= 2;
            j += 2;
        }
        while (j < lim && ra[-1] == rb[-1]) {
            ra--, rb--;
            j++;
        }
    }
    return (uint32_t)j + (p->map->tail ? 1 : 0);
}

/* The first entry of class c whose level is beyond k (ss_vmap: upto). */
static inline uint32_t beyond(const struct ss_vmap *map, ss_id c, uint32_t k)
{
    if (!map->upto || !k)
        return map->off[c];
    uint32_t L = map->uoff[c + 1] - map->uoff[c];
    return map->upto[map->uoff[c] + (k < L ? k : L - 1)];
}

/* The class changes from a (SS_NONE: none) to b at position P.  Beyond
 * the levels they share, b's rows whose run is open (they are a's, beyond
 * those levels too: a row's entry is at its first level) are marked
 * ST_KEEP, the others start a run; then a's rows beyond them end their run
 * unless marked, and lose the mark. */
static void transition(struct pass *p, ss_id a, ss_id b)
{
    const struct ss_vmap *map = p->map;
    uint32_t k = a == SS_NONE ? 0 : common(p, a, b);
    const uint32_t *row = map->row;
    struct live *lv = p->tot.lv;
    for (uint32_t e = beyond(map, b, k), end = map->off[b + 1]; e < end; e++) {
        uint32_t r = row[e];
        if (lv[r].st & ST_RUN)
            lv[r].st |= ST_KEEP;
        else
            run_start(&p->tot, r, p->P);
    }
    if (a != SS_NONE)
        for (uint32_t e = beyond(map, a, k), end = map->off[a + 1]; e < end; e++) {
            uint32_t r = row[e];
            if (lv[r].st & ST_KEEP)
                lv[r].st &= ~(uint32_t)ST_KEEP;
            else
                run_end(&p->tot, r, p->P);
        }
    if (map->self) {
        uint32_t sa = a == SS_NONE ? SS_VROW_NONE : map->self[a], sb = map->self[b];
        if (sa != sb && sa != SS_VROW_NONE)
            run_end(&p->self, sa, p->P);
        if (sa != sb && sb != SS_VROW_NONE)
            run_start(&p->self, sb, p->P);
    }
}

/* Every run of class a ends (a gap, an empty sample, a file's end). */
static void end_all(struct pass *p, ss_id a)
{
    const struct ss_vmap *map = p->map;
    if (a == SS_NONE)
        return;
    for (uint32_t e = map->off[a]; e < map->off[a + 1]; e++)
        run_end(&p->tot, map->row[e], p->P);
    if (map->self && map->self[a] != SS_VROW_NONE)
        run_end(&p->self, map->self[a], p->P);
}

/* The last cycle of every row that had a run. */
static void close_cycles(struct track *tr, size_t nrows, double P)
{
    for (size_t r = 0; r < nrows; r++)
        if (tr->lv[r].st & ST_STARTED)
            unit(&tr->acc[r], tr->lv[r].wr, P - tr->lv[r].cs);
}

static ss_id class_of(const struct ss_model *m, const struct ss_vmap *map, size_t i)
{
    return map->labelsets ? ss_sample_labelset(m, i) : m->sample_stack.v[i];
}

/* Give class c's summed measure v and units u (this source's) to its rows:
 * their measure, six and measure per file; independent samples (not
 * ordered) are also their units. */
static void give(struct pass *p, ss_id c, double v, double u, int ordered)
{
    const struct ss_vmap *map = p->map;
    for (int q = 0; q < 2; q++) {
        struct track *tr = q ? &p->self : &p->tot;
        uint32_t e0 = q ? 0 : map->off[c], e1 = q ? (map->self ? 1 : 0) : map->off[c + 1];
        for (uint32_t e = e0; e < e1; e++) {
            uint32_t r = q ? map->self[c] : map->row[e];
            if (r == SS_VROW_NONE)
                continue;
            struct ss_vacc *a = &tr->acc[r];
            a->x += v;
            a->six += u;
            if (!ordered) {
                a->sxx += u;
                a->sxt += u;
                a->units = 1;
            }
            if (tr->run_x)
                tr->run_x[(size_t)r * tr->nruns + p->file] += v;
        }
    }
}

/* Sample i (class c, measure v, count cnt) into its class's sums and the
 * side's totals. */
static inline void add_sample(struct pass *p, struct ss_vside *s, size_t src, ss_id c, double v,
                              int64_t cnt)
{
    double u = cnt > 1 ? v * v / (double)cnt : v * v; /* cnt events of v / cnt */
    if (p->seen[c] != src + 1) {
        p->seen[c] = (uint32_t)src + 1;
        p->cv[c] = p->cu[c] = 0;
        p->touched.v[p->touched.n++] = c; /* room: one entry a class */
    }
    p->cv[c] += v;
    p->cu[c] += u;
    s->total += v;
    s->six_all += u;
    if (s->run_total)
        s->run_total[p->file] += v;
}

/* The end of a source: its classes' sums to their rows. */
static void flush(struct pass *p, int ordered)
{
    for (size_t t = 0; t < p->touched.n; t++)
        give(p, p->touched.v[t], p->cv[p->touched.v[t]], p->cu[p->touched.v[t]], ordered);
    p->touched.n = 0;
}

static void pass_ordered(struct pass *p, const size_t *file_of, struct ss_vside *s)
{
    const struct ss_model *m = p->m;
    for (size_t src = 0; src < m->sources.n; src++) {
        const struct ss_source *so = &m->sources.v[src];
        double scale = ss_source_scale(m, src);
        ss_id prev = SS_NONE;
        size_t gi = ss_model_gap_first(m, so->first_sample);
        p->file = file_of[src];
        for (size_t i = so->first_sample; i < so->first_sample + so->n_samples; i++) {
            if (stop_now(p, i))
                return;
            ss_id st = m->sample_stack.v[i];
            int gap = gi < m->gaps.n && m->gaps.v[gi] == i;
            gi += gap;
            if (gap || ss_stack_depth(m, st) == 0) {
                end_all(p, prev);
                prev = SS_NONE;
                if (ss_stack_depth(m, st) == 0)
                    continue;
            }
            ss_id c = class_of(m, p->map, i);
            if (c != prev)
                transition(p, prev, c);
            prev = c;
            double v = (double)ss_sample_weight(m, i) * scale;
            p->P += v;
            add_sample(p, s, src, c, v, ss_sample_count(m, i));
        }
        end_all(p, prev);
        flush(p, 1);
    }
    close_cycles(&p->tot, s->nrows, p->P);
    if (p->map->self)
        close_cycles(&p->self, s->nrows, p->P);
    s->stt_absent = p->P * p->P;
}

static void pass_unordered(struct pass *p, const size_t *file_of, struct ss_vside *s)
{
    const struct ss_model *m = p->m;
    for (size_t src = 0; src < m->sources.n; src++) {
        const struct ss_source *so = &m->sources.v[src];
        double scale = ss_source_scale(m, src);
        p->file = file_of[src];
        for (size_t i = so->first_sample; i < so->first_sample + so->n_samples; i++) {
            if (stop_now(p, i))
                return;
            if (ss_stack_depth(m, m->sample_stack.v[i]) == 0)
                continue;
            add_sample(p, s, src, class_of(m, p->map, i), (double)ss_sample_weight(m, i) * scale,
                       ss_sample_count(m, i));
        }
        flush(p, 0);
    }
    s->stt_absent = s->six_all;
}

void ss_vside_free(struct ss_vside *s)
{
    free(s->self);
    free(s->tot);
    free(s->run_total);
    free(s->run_self);
    free(s->run_tot);
    memset(s, 0, sizeof *s);
}

static int track_init(struct track *tr, struct ss_vacc *acc, size_t nrows, double *run_x,
                      size_t nruns)
{
    tr->acc = acc;
    tr->lv = ss_calloc_array(nrows, sizeof *tr->lv);
    tr->run_x = run_x;
    tr->nruns = nruns;
    return tr->lv ? 0 : -1;
}

static void track_free(struct track *tr)
{
    free(tr->lv);
}

/* Are source s's samples in time order?  Not folded stacks (flagged), nor
 * pprof: Go's profiler (and every pprof writer) keeps one sample per
 * distinct stack and labels, with its count, in no time order; a Go CPU
 * profile's 1000 samples of one stack are one row.  Rprof, perf, Chrome and
 * speedscope record each sample when it is taken. */
static int time_ordered(const struct ss_model *m, size_t s)
{
    const struct ss_source *src = &m->sources.v[s];
    return !(src->flags & SS_SRC_UNORDERED) && strcmp(ss_str(m, src->type), "pprof") != 0;
}

/* Each source's file (0.., in order of first appearance of its path). */
static size_t *files_of(const struct ss_model *m)
{
    size_t *f = ss_alloc_array(m->sources.n, sizeof *f), n = 0;
    for (size_t s = 0; f && s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        f[s] = SIZE_MAX;
        for (size_t t = 0; t < s && f[s] == SIZE_MAX; t++)
            if (m->sources.v[t].n_samples && m->sources.v[t].uri == src->uri)
                f[s] = f[t];
        if (f[s] == SIZE_MAX)
            f[s] = src->n_samples ? n++ : 0;
    }
    return f;
}

int ss_vside_compute(const struct ss_model *m, const struct ss_vmap *map, size_t nrows, int per_run,
                     struct ss_vside *s, struct ss_error *err)
{
    return ss_vside_compute_stop(m, map, nrows, per_run, NULL, s, err);
}

int ss_vside_copy(const struct ss_vside *s, struct ss_vside *out)
{
    *out = *s;
    /* as ss_vside_compute allocates them: n elements, at least one */
    size_t nr = s->nrows, rn = s->nrows * s->nruns;
    out->self = out->tot = NULL;
    out->run_total = out->run_self = out->run_tot = NULL;
    int bad = 0;
#define DUP(f, n)                                                                                  \
    do {                                                                                           \
        if (s->f && (out->f = ss_alloc_array((n) ? (n) : 1, sizeof *s->f)) != NULL)                \
            memcpy(out->f, s->f, ((n) ? (n) : 1) * sizeof *s->f);                                  \
        bad |= s->f && !out->f;                                                                    \
    } while (0)
    DUP(self, nr);
    DUP(tot, nr);
    DUP(run_total, s->nruns);
    DUP(run_self, rn);
    DUP(run_tot, rn);
#undef DUP
    if (bad) {
        ss_vside_free(out);
        return -1;
    }
    return 0;
}

int ss_vside_compute_stop(const struct ss_model *m, const struct ss_vmap *map, size_t nrows,
                          int per_run, const atomic_int *stop, struct ss_vside *s,
                          struct ss_error *err)
{
    memset(s, 0, sizeof *s);
    s->nrows = nrows;
    s->nruns = ss_vside_files(m);
    s->ordered = 1;
    for (size_t i = 0; i < m->sources.n; i++)
        if (m->sources.v[i].n_samples && !time_ordered(m, i))
            s->ordered = 0;
    int runs = per_run && s->nruns >= 2;
    size_t rn = runs ? nrows * s->nruns : 0;
    s->tot = ss_calloc_array(nrows, sizeof *s->tot);
    s->self = map->self ? ss_calloc_array(nrows, sizeof *s->self) : NULL;
    s->run_total = runs ? ss_calloc_array(s->nruns, sizeof *s->run_total) : NULL;
    s->run_tot = runs ? ss_calloc_array(rn, sizeof *s->run_tot) : NULL;
    s->run_self = runs && map->self ? ss_calloc_array(rn, sizeof *s->run_self) : NULL;
    struct pass p;
    memset(&p, 0, sizeof p);
    p.m = m;
    p.map = map;
    p.stop = stop;
    size_t *file_of = files_of(m), nc = map->nclass;
    p.cv = ss_alloc_array(nc, sizeof *p.cv);
    p.cu = ss_alloc_array(nc, sizeof *p.cu);
    p.seen = ss_calloc_array(nc, sizeof *p.seen);
    int rc = !s->tot || (map->self && !s->self) || (runs && (!s->run_total || !s->run_tot)) ||
             (runs && map->self && !s->run_self) || !file_of || !p.cv || !p.cu || !p.seen ||
             VEC_RESERVE(p.touched, nc) || m->sources.n >= UINT32_MAX;
    if (!rc && s->ordered)
        rc = track_init(&p.tot, s->tot, nrows, s->run_tot, s->nruns) ||
             (map->self && track_init(&p.self, s->self, nrows, s->run_self, s->nruns));
    else if (!rc) {
        p.tot = (struct track){s->tot, NULL, s->run_tot, s->nruns};
        p.self = (struct track){s->self, NULL, s->run_self, s->nruns};
    }
    if (!rc && s->ordered)
        pass_ordered(&p, file_of, s);
    else if (!rc)
        pass_unordered(&p, file_of, s);
    if (s->ordered) {
        track_free(&p.tot);
        track_free(&p.self);
    }
    free(p.cv);
    free(p.cu);
    free(p.seen);
    VEC_FREE(p.touched);
    free(file_of);
    if (p.stopped) {
        ss_vside_free(s);
        return SS_VSIDE_STOPPED;
    }
    if (rc) {
        ss_vside_free(s);
        return ss_nomem(err, "verdicts");
    }
    return 0;
}
