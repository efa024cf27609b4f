/* compare.c - comparing two profiles (see compare.h). */
#include "num.h"
#include "compare_int.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "outlimit.h"
#include "sort.h"
#include "stacks.h"
#include "threads.h"
#include "tree.h"

void ss_compare_init(struct ss_compare *c, const struct ss_model *base, const struct ss_model *cur,
                     int normalize)
{
    struct ss_totals tb, tn;
    ss_model_totals(base, &tb);
    ss_model_totals(cur, &tn);
    ss_compare_init_totals(c, base, cur, normalize, tb.value, tn.value);
}

void ss_compare_init_totals(struct ss_compare *c, const struct ss_model *base,
                            const struct ss_model *cur, int normalize, double value_base,
                            double value_new)
{
    memset(c, 0, sizeof *c);
    c->base = base;
    c->cur = cur;
    ss_units_of(cur, &c->units);
    const struct ss_measure *mb = ss_model_measure(base), *mn = ss_model_measure(cur);
    c->conv = 1;
    /* the same measure name in other raw units (nanoseconds and seconds) */
    if (mb->kind != SS_MEASURE_TIME && mn->kind != SS_MEASURE_TIME &&
        mb->unit_kind == mn->unit_kind && mb->unit_scale > 0 && mn->unit_scale > 0)
        c->conv = mb->unit_scale / mn->unit_scale;
    c->total_base = value_base * c->conv;
    c->total_new = value_new;
    c->scale = 1;
    c->alpha = 0.05;
    c->normalized = normalize;
    if (normalize && !ss_double_eq(c->total_base, 0))
        c->scale = c->total_new / c->total_base;
}

int ss_compare_check_measure(struct ss_model *base, struct ss_model *cur, const char *base_name,
                             int chosen, struct ss_error *err)
{
    const char *name = ss_model_measure_name(cur);
    int rc = ss_model_set_measure(base, name, err);
    static const char *const fallback[] = {"time", "samples"};
    for (size_t k = 0; rc == SS_EUSAGE && !chosen && k < 2; k++) {
        struct ss_error e2;
        if (ss_model_set_measure(base, fallback[k], &e2) == 0 &&
            ss_model_set_measure(cur, fallback[k], &e2) == 0)
            return 0;
    }
    if (rc == SS_EUSAGE)
        return ss_fail(err, SS_EUSAGE,
                       "--base %s has no '%s' measure to compare with (choose one both "
                       "profiles have with --value; `stackscope check` lists them)",
                       base_name, name);
    return rc;
}

/* ---- functions and lines ---------------------------------------------------- */

/* Row of key `name` in out (created with zeros on first use); SS_NONE: OOM. */
static ss_id cmp_row(struct ss_cmp_stats *out, size_t *cap, const char *name, size_t len)
{
    ss_id k = ss_strtab_intern(&out->keys, name, len);
    if (k == SS_NONE)
        return SS_NONE;
    /* keys also hold file names (by line): rows are indexed by key id */
    while (out->n <= k) {
        if (out->n == *cap) {
            size_t nc = *cap ? *cap * 2 : 64;
            struct ss_cmp_row *r = realloc(out->rows, nc * sizeof *r);
            if (!r)
                return SS_NONE;
            out->rows = r;
            *cap = nc;
        }
        struct ss_cmp_row *r = &out->rows[out->n];
        memset(r, 0, sizeof *r);
        r->key = (ss_id)out->n;
        r->file = SS_NONE;
        out->n++;
    }
    return k;
}

static int join_side(const struct ss_compare *c, struct ss_cmp_stats *out, size_t *cap,
                     const struct ss_stats *st, int base, uint8_t **used, size_t *used_n)
{
    double f = base ? c->conv * c->scale : 1;
    for (size_t i = 0; i < st->n; i++) {
        const struct ss_stat_row *sr = &st->rows[i];
        const char *name = ss_strtab_get(&st->keys, sr->key);
        ss_id r = cmp_row(out, cap, name, ss_strtab_len(&st->keys, sr->key));
        if (r == SS_NONE)
            return -1;
        ss_id file = SS_NONE;
        if (sr->file != SS_NONE) {
            file = ss_strtab_intern(&out->keys, ss_strtab_get(&st->keys, sr->file),
                                    ss_strtab_len(&st->keys, sr->file));
            if (file == SS_NONE)
                return -1;
        }
        if (*used_n <= r) {
            size_t nn = (size_t)r + 1 > *used_n * 2 ? (size_t)r + 1 : *used_n * 2;
            uint8_t *u = realloc(*used, nn);
            if (!u)
                return -1;
            memset(u + *used_n, 0, nn - *used_n);
            *used = u;
            *used_n = nn;
        }
        (*used)[r] = 1;
        struct ss_cmp_row *row = &out->rows[r];
        row->file = file;
        row->line = sr->line;
        if (base) {
            row->self_b += sr->self_v * f;
            row->total_b += sr->total_v * f;
            row->self_bx += sr->self_x * f;
            row->total_bx += sr->total_x * f;
        } else {
            row->self_n += sr->self_v;
            row->total_n += sr->total_v;
            row->self_nx += sr->self_x;
            row->total_nx += sr->total_x;
        }
    }
    return 0;
}

/* One side's statistics, on a thread of its own when both sides are big. */
struct stats_job {
    const struct ss_model *m;
    enum ss_stats_key by;
    int rc;
    struct ss_stats st;
    struct ss_error err;
};

static void *stats_run(void *arg)
{
    struct stats_job *j = arg;
    j->rc = ss_stats_compute(j->m, j->by, 0, &j->st, &j->err);
    return NULL;
}

/* Both sides' statistics by `by`: the base's on a second thread when there
 * are two processors and enough samples (each only reads its model). */
static int both_stats(const struct ss_compare *c, enum ss_stats_key by, struct ss_stats *sb,
                      struct ss_stats *sn, struct ss_error *err)
{
    struct stats_job jb;
    memset(&jb, 0, sizeof jb);
    jb.m = c->base;
    jb.by = by;
    ss_error_clear(&jb.err);
    pthread_t th;
    int threaded = c->base->sample_stack.n + c->cur->sample_stack.n >= 200000 &&
                   ss_threads(2) > 1 && pthread_create(&th, NULL, stats_run, &jb) == 0;
    if (!threaded)
        stats_run(&jb);
    int rc = ss_stats_compute(c->cur, by, 0, sn, err);
    if (threaded)
        pthread_join(th, NULL);
    if (jb.rc && !rc) {
        *err = jb.err;
        ss_stats_free(sn);
        return jb.rc;
    }
    if (rc) {
        if (!jb.rc)
            ss_stats_free(&jb.st);
        return rc;
    }
    *sb = jb.st;
    return 0;
}

int ss_compare_stats(const struct ss_compare *c, enum ss_stats_key by, struct ss_cmp_stats *out,
                     struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    ss_strtab_init(&out->keys);
    out->units = c->units;
    struct ss_stats sb, sn;
    int rc = both_stats(c, by, &sb, &sn, err);
    if (rc)
        return rc;
    size_t cap = 0, used_n = 0;
    uint8_t *used = NULL;
    if (join_side(c, out, &cap, &sb, 1, &used, &used_n) ||
        join_side(c, out, &cap, &sn, 0, &used, &used_n))
        rc = ss_nomem(err, "comparison");
    out->total_b = sb.value_total * c->conv * c->scale;
    out->total_n = sn.value_total;
    ss_stats_free(&sb);
    ss_stats_free(&sn);
    /* keep the rows of keys (file names interned for ordering are not rows) */
    size_t n = 0;
    for (size_t i = 0; !rc && i < out->n; i++)
        if (i < used_n && used[i])
            out->rows[n++] = out->rows[i];
    out->n = n;
    free(used);
    if (!rc && !c->no_verdicts)
        rc = ss_cmp_stats_verdicts(c, by, out, err);
    else if (!rc && out->n)
        ss_cmp_no_verdicts(&out->rows[0].vself, &out->rows[0].vtotal, out->n, sizeof *out->rows);
    if (rc)
        ss_cmp_stats_free(out);
    return rc;
}

void ss_cmp_stats_free(struct ss_cmp_stats *s)
{
    free(s->rows);
    ss_strtab_free(&s->keys);
    memset(s, 0, sizeof *s);
}

static int cmp_desc(double a, double b)
{
    return a < b ? 1 : a > b ? -1 : 0;
}

/* The sorts' comparators get the table of the rows' names (ss_sort's
 * context). */
static int cmp_name(const struct ss_strtab *keys, ss_id a, ss_id b)
{
    return strcmp(ss_strtab_get(keys, a), ss_strtab_get(keys, b));
}

static int by_self(const void *pa, const void *pb, void *keys)
{
    const struct ss_cmp_row *a = pa, *b = pb;
    int r = cmp_desc(a->self_nx - a->self_bx, b->self_nx - b->self_bx);
    if (!r)
        r = cmp_desc(a->total_nx - a->total_bx, b->total_nx - b->total_bx);
    return r ? r : cmp_name(keys, a->key, b->key);
}

static int by_total(const void *pa, const void *pb, void *keys)
{
    const struct ss_cmp_row *a = pa, *b = pb;
    int r = cmp_desc(a->total_nx - a->total_bx, b->total_nx - b->total_bx);
    if (!r)
        r = cmp_desc(a->self_nx - a->self_bx, b->self_nx - b->self_bx);
    return r ? r : cmp_name(keys, a->key, b->key);
}

static int by_line(const void *pa, const void *pb, void *keys)
{
    const struct ss_cmp_row *a = pa, *b = pb;
    ss_id fa = a->file != SS_NONE ? a->file : a->key, fb = b->file != SS_NONE ? b->file : b->key;
    int r = cmp_name(keys, fa, fb);
    if (!r)
        r = a->line < b->line ? -1 : a->line > b->line;
    return r ? r : cmp_name(keys, a->key, b->key);
}

static int sort_rows(struct ss_cmp_stats *s, ss_cmp_fn cmp)
{
    return ss_sort(s->rows, s->n, sizeof *s->rows, cmp, &s->keys);
}

int ss_cmp_sort_self(struct ss_cmp_stats *s)
{
    return sort_rows(s, by_self);
}
int ss_cmp_sort_total(struct ss_cmp_stats *s)
{
    return sort_rows(s, by_total);
}
int ss_cmp_sort_line(struct ss_cmp_stats *s)
{
    return sort_rows(s, by_line);
}

/* ---- stacks ------------------------------------------------------------------- */

static int stacks_side(const struct ss_compare *c, struct ss_cmp_stacks *out, size_t *cap,
                       const struct ss_model *m, int base, char **buf, size_t *bufn,
                       struct ss_cmp_trie *trie)
{
    struct ss_stacks st;
    struct ss_error err;
    if (ss_stacks_compute(m, &st, &err))
        return -1;
    double f = base ? c->conv * c->scale : 1;
    int rc = 0;
    for (size_t i = 0; i < st.n && !rc; i++) {
        const struct ss_stack_row *r = &st.rows[i];
        size_t need = ss_stack_text(m, &st, r, ";", *buf, *bufn) + 1;
        if (need > SS_MAX_LINE) { /* no such line is built (outlimit.h) */
            rc = -2;
            break;
        }
        if (need > *bufn) {
            char *nb = realloc(*buf, need);
            if (!nb) {
                rc = -1;
                break;
            }
            *buf = nb;
            *bufn = need;
            ss_stack_text(m, &st, r, ";", *buf, *bufn);
        }
        ss_id k = ss_strtab_intern(&out->keys, *buf, need - 1);
        if (k == SS_NONE) {
            rc = -1;
            break;
        }
        while (!rc && out->n <= k) {
            if (out->n == *cap) {
                size_t nc = *cap ? *cap * 2 : 64;
                struct ss_cmp_stack *ns = realloc(out->rows, nc * sizeof *ns);
                if (!ns) {
                    rc = -1;
                    break;
                }
                out->rows = ns;
                *cap = nc;
            }
            struct ss_cmp_stack *s = &out->rows[out->n];
            memset(s, 0, sizeof *s);
            s->key = (ss_id)out->n++;
        }
        if (rc || (trie && ss_cmp_trie_add(trie, st.fns + r->first, r->depth, k))) {
            rc = -1;
            break;
        }
        out->rows[k].depth = r->depth;
        if (base) {
            out->rows[k].base += r->value * f;
            out->rows[k].base_x += r->value_x * f;
        } else {
            out->rows[k].cur += r->value;
            out->rows[k].cur_x += r->value_x;
        }
    }
    if (base)
        out->total_b = st.total_v * f;
    else
        out->total_n = st.total_v;
    ss_stacks_free(&st);
    return rc;
}

/* The verdicts of the stacks (rows numbered by key, before the sort). */
static int stacks_verdicts(const struct ss_compare *c, const struct ss_cmp_trie *trie,
                           struct ss_cmp_stacks *out, struct ss_error *err)
{
    struct ss_vmap map[2];
    memset(map, 0, sizeof map);
    int rc = ss_cmp_trie_map(c->base, &trie[0], &map[0], err);
    if (!rc)
        rc = ss_cmp_trie_map(c->cur, &trie[1], &map[1], err);
    if (!rc)
        rc = ss_cmp_verdicts(c, &map[0], &map[1], out->n, out->n ? &out->rows[0].v : NULL, NULL,
                             sizeof *out->rows, &out->vinfo, err);
    ss_vmap_free(&map[0]);
    ss_vmap_free(&map[1]);
    return rc;
}

static int by_stack_delta(const void *pa, const void *pb, void *keys)
{
    const struct ss_cmp_stack *a = pa, *b = pb;
    int r = cmp_desc(a->cur_x - a->base_x, b->cur_x - b->base_x);
    return r ? r : cmp_name(keys, a->key, b->key);
}

int ss_compare_stacks(const struct ss_compare *c, struct ss_cmp_stacks *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    ss_strtab_init(&out->keys);
    out->units = c->units;
    size_t cap = 0, bufn = 0;
    char *buf = NULL;
    struct ss_cmp_trie trie[2];
    memset(trie, 0, sizeof trie);
    int want = !c->no_verdicts;
    int rc = stacks_side(c, out, &cap, c->base, 1, &buf, &bufn, want ? &trie[0] : NULL);
    if (!rc)
        rc = stacks_side(c, out, &cap, c->cur, 0, &buf, &bufn, want ? &trie[1] : NULL);
    if (rc) {
        free(buf);
        ss_cmp_trie_free(&trie[0]);
        ss_cmp_trie_free(&trie[1]);
        ss_cmp_stacks_free(out);
        return rc == -2 ? ss_fail(err, SS_ENOMEM,
                                  "a stack whose names add up to more than %zu MiB: too long to "
                                  "compare by its text",
                                  SS_MAX_LINE >> 20)
                        : ss_nomem(err, "comparison of stacks");
    }
    free(buf);
    rc = want ? stacks_verdicts(c, trie, out, err) : 0;
    if (!want && out->n)
        ss_cmp_no_verdicts(&out->rows[0].v, NULL, out->n, sizeof *out->rows);
    ss_cmp_trie_free(&trie[0]);
    ss_cmp_trie_free(&trie[1]);
    if (rc) {
        ss_cmp_stacks_free(out);
        return rc;
    }
    if (ss_sort(out->rows, out->n, sizeof *out->rows, by_stack_delta, &out->keys)) {
        ss_cmp_stacks_free(out);
        return ss_nomem(err, "comparison of stacks");
    }
    return 0;
}

void ss_cmp_stacks_free(struct ss_cmp_stacks *s)
{
    free(s->rows);
    ss_strtab_free(&s->keys);
    memset(s, 0, sizeof *s);
}

/* ---- trees -------------------------------------------------------------------- */

struct tjoin {
    struct ss_cmp_tree *out;
    VEC(struct ss_cmp_tnode) nodes;
    VEC(uint32_t) of_key; /* path key id -> node index (UINT32_MAX: none) */
    VEC(char) path;
    struct ss_vmap vm[2]; /* each side's samples onto the joined nodes (verdicts) */
};

/* The node of path `key` (creating it under parent). */
static int tnode_of(struct tjoin *j, ss_id key, ss_id name, uint32_t parent, uint32_t depth,
                    uint32_t *out)
{
    while (j->of_key.n <= key)
        if (VEC_PUSH(j->of_key, UINT32_MAX))
            return -1;
    if (j->of_key.v[key] == UINT32_MAX) {
        struct ss_cmp_tnode t;
        memset(&t, 0, sizeof t);
        t.name = name;
        t.parent = parent;
        t.depth = depth;
        if (VEC_PUSH(j->nodes, t))
            return -1;
        j->of_key.v[key] = (uint32_t)(j->nodes.n - 1);
    }
    *out = j->of_key.v[key];
    return 0;
}

static int tree_side(const struct ss_compare *c, struct tjoin *j, const struct ss_model *m,
                     int base, int inverted, const char *focus, struct ss_error *err)
{
    ss_id fid = SS_NONE;
    struct ss_vmap *vm = c->no_verdicts ? NULL : &j->vm[!base];
    if (focus) {
        fid = ss_model_find_function(m, focus);
        if (fid == SS_NONE) /* this side has no such function: an empty tree */
            return vm ? ss_cmp_tree_map(m, NULL, NULL, inverted, SS_NONE, vm, err) : 0;
    }
    struct ss_tree t;
    int rc = ss_tree_build(m, inverted, fid, &t, err);
    if (rc)
        return rc;
    double f = base ? c->conv * c->scale : 1;
    if (base)
        j->out->total_b = t.total_v * f;
    else
        j->out->total_n = t.total_v;
    /* per tree node: the joined node and its path key */
    uint32_t *joined = malloc((t.n ? t.n : 1) * sizeof *joined);
    ss_id *keys = malloc((t.n ? t.n : 1) * sizeof *keys);
    rc = !joined || !keys;
    for (size_t i = 0; !rc && i < t.n; i++) {
        const struct ss_tree_node *nd = &t.nodes[i];
        const char *name = ss_function_name(m, nd->function);
        size_t len = strlen(name);
        /* the path: the parent's path, a separator no name holds (0x1f), the name */
        j->path.n = 0;
        if (nd->parent != SS_TREE_NONE) {
            const char *pp = ss_strtab_get(&j->out->keys, keys[nd->parent]);
            size_t pl = ss_strtab_len(&j->out->keys, keys[nd->parent]);
            rc = VEC_RESERVE(j->path, pl + len + 1);
            if (rc)
                break;
            memcpy(j->path.v, pp, pl);
            j->path.v[pl] = '\x1f';
            j->path.n = pl + 1;
        }
        if ((rc = VEC_RESERVE(j->path, j->path.n + len + 1)) != 0)
            break;
        memcpy(j->path.v + j->path.n, name, len);
        j->path.n += len;
        keys[i] = ss_strtab_intern(&j->out->keys, j->path.v, j->path.n);
        ss_id nm = ss_strtab_intern(&j->out->keys, name, len);
        uint32_t parent = nd->parent == SS_TREE_NONE ? SS_TREE_NONE : joined[nd->parent];
        if (keys[i] == SS_NONE || nm == SS_NONE ||
            tnode_of(j, keys[i], nm, parent, nd->depth, &joined[i])) {
            rc = -1;
            break;
        }
        struct ss_cmp_tnode *jn = &j->nodes.v[joined[i]];
        if (base) {
            jn->self_b += nd->self_v * f;
            jn->total_b += nd->total_v * f;
            jn->total_bx += nd->total_v * f;
        } else {
            jn->self_n += nd->self_v;
            jn->total_n += nd->total_v;
            jn->total_nx += nd->total_v;
        }
    }
    int vrc = !rc && vm ? ss_cmp_tree_map(m, &t, joined, inverted, t.focus, vm, err) : 0;
    free(joined);
    free(keys);
    ss_tree_free(&t);
    return rc ? ss_nomem(err, "comparison of trees") : vrc;
}

/* by_tree_delta's context: the joined nodes and their names */
struct tnode_sort {
    const struct ss_cmp_tnode *nodes;
    const struct ss_strtab *keys;
};

int ss_cmp_desc_near(double a, double b)
{
    double m = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= 1e-12 * m ? 0 : cmp_desc(a, b);
}

int ss_cmp_by_deltas(double dva, double dvb, uint64_t sba, uint64_t sna, uint64_t sbb, uint64_t snb)
{
    int c = ss_cmp_desc_near(dva, dvb);
    if (c)
        return c;
    double da = (double)sna - (double)sba, db = (double)snb - (double)sbb;
    return da > db ? -1 : da < db;
}

size_t ss_cmp_join_row(struct ss_strtab *index, const char *key, size_t len, void **rows, size_t n,
                       size_t *cap, size_t size, int *fresh)
{
    *fresh = 0;
    ss_id id = ss_strtab_intern(index, key, len);
    if (id == SS_NONE)
        return SIZE_MAX;
    if (id < n)
        return id;
    if (ss_grow(rows, cap, n + 1, size))
        return SIZE_MAX;
    memset((char *)*rows + n * size, 0, size);
    *fresh = 1;
    return n;
}

static int by_tree_delta(const void *pa, const void *pb, void *ctx)
{
    const struct tnode_sort *x = ctx;
    const struct ss_cmp_tnode *a = &x->nodes[*(const uint32_t *)pa],
                              *b = &x->nodes[*(const uint32_t *)pb];
    int r = ss_cmp_desc_near(a->total_nx - a->total_bx, b->total_nx - b->total_bx);
    return r ? r : cmp_name(x->keys, a->name, b->name);
}

int ss_compare_tree(const struct ss_compare *c, int inverted, const char *focus,
                    struct ss_cmp_tree *out, struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    ss_strtab_init(&out->keys);
    out->units = c->units;
    if (focus && ss_model_find_function(c->base, focus) == SS_NONE &&
        ss_model_find_function(c->cur, focus) == SS_NONE) {
        ss_strtab_free(&out->keys);
        return ss_fail(err, SS_EUSAGE, "--function: no function named '%s' in either profile",
                       focus);
    }
    struct tjoin j;
    memset(&j, 0, sizeof j);
    j.out = out;
    int rc = tree_side(c, &j, c->base, 1, inverted, focus, err);
    if (!rc)
        rc = tree_side(c, &j, c->cur, 0, inverted, focus, err);
    size_t n = j.nodes.n;
    if (!rc && !c->no_verdicts)
        rc = ss_cmp_verdicts(c, &j.vm[0], &j.vm[1], n, n ? &j.nodes.v[0].vself : NULL,
                             n ? &j.nodes.v[0].vtotal : NULL, sizeof *j.nodes.v, &out->vinfo, err);
    else if (!rc && n)
        ss_cmp_no_verdicts(&j.nodes.v[0].vself, &j.nodes.v[0].vtotal, n, sizeof *j.nodes.v);
    ss_vmap_free(&j.vm[0]);
    ss_vmap_free(&j.vm[1]);
    /* children lists in order, then a depth-first walk */
    uint32_t *kids = malloc((n ? n : 1) * sizeof *kids), *start = calloc(n + 2, sizeof *start),
             *stack = malloc((n ? n : 1) * sizeof *stack);
    out->nodes = malloc((n ? n : 1) * sizeof *out->nodes);
    if (!rc && (!kids || !start || !stack || !out->nodes))
        rc = ss_nomem(err, "comparison of trees");
    if (!rc) {
        /* group node ids by parent (roots under n) */
        for (size_t i = 0; i < n; i++) {
            uint32_t p = j.nodes.v[i].parent;
            start[(p == SS_TREE_NONE ? n : p) + 1]++;
        }
        for (size_t i = 1; i <= n + 1; i++)
            start[i] += start[i - 1];
        uint32_t *fill = malloc((n + 1) * sizeof *fill);
        if (!fill) {
            rc = ss_nomem(err, "comparison of trees");
        } else {
            memcpy(fill, start, (n + 1) * sizeof *fill);
            for (size_t i = 0; i < n; i++) {
                uint32_t p = j.nodes.v[i].parent;
                kids[fill[p == SS_TREE_NONE ? n : p]++] = (uint32_t)i;
            }
            free(fill);
            struct tnode_sort ts = {j.nodes.v, &out->keys};
            for (size_t g = 0; !rc && g <= n; g++)
                if (ss_sort(kids + start[g], start[g + 1] - start[g], sizeof *kids, by_tree_delta,
                            &ts))
                    rc = ss_nomem(err, "comparison of trees");
            /* depth-first: push a group's children in reverse */
            size_t sp = 0;
            for (uint32_t k = start[n + 1]; k-- > start[n];)
                stack[sp++] = kids[k];
            while (sp) {
                uint32_t v = stack[--sp];
                struct ss_cmp_tnode nd = j.nodes.v[v];
                out->nodes[out->n++] = nd;
                for (uint32_t k = start[v + 1]; k-- > start[v];)
                    stack[sp++] = kids[k];
            }
        }
    }
    free(kids);
    free(start);
    free(stack);
    VEC_FREE(j.nodes);
    VEC_FREE(j.of_key);
    VEC_FREE(j.path);
    if (rc)
        ss_cmp_tree_free(out);
    return rc;
}

void ss_cmp_tree_free(struct ss_cmp_tree *t)
{
    free(t->nodes);
    ss_strtab_free(&t->keys);
    memset(t, 0, sizeof *t);
}

/* ---- callers and callees ------------------------------------------------------ */

static int edges_side(struct ss_cmp_calls *out, struct ss_cmp_edge **list, size_t *n,
                      const struct ss_model *m, const struct ss_edge *e, size_t ne, double f,
                      int base)
{
    for (size_t i = 0; i < ne; i++) {
        const char *name = ss_function_name(m, e[i].function);
        ss_id k = ss_strtab_intern(&out->keys, name, strlen(name));
        if (k == SS_NONE)
            return -1;
        size_t r = 0;
        while (r < *n && (*list)[r].name != k)
            r++;
        if (r == *n) {
            struct ss_cmp_edge *nl = realloc(*list, (*n + 1) * sizeof *nl);
            if (!nl)
                return -1;
            *list = nl;
            memset(&nl[r], 0, sizeof nl[r]);
            nl[r].name = k;
            (*n)++;
        }
        if (base) {
            (*list)[r].base += e[i].time * f;
            (*list)[r].base_x += e[i].time * f;
        } else {
            (*list)[r].cur += e[i].time;
            (*list)[r].cur_x += e[i].time;
        }
    }
    return 0;
}

static int by_edge_delta(const void *pa, const void *pb, void *keys)
{
    const struct ss_cmp_edge *a = pa, *b = pb;
    int r = ss_cmp_desc_near(a->cur_x - a->base_x, b->cur_x - b->base_x);
    return r ? r : cmp_name(keys, a->name, b->name);
}

int ss_compare_calls(const struct ss_compare *c, const char *function, struct ss_cmp_calls *out,
                     struct ss_error *err)
{
    memset(out, 0, sizeof *out);
    ss_strtab_init(&out->keys);
    out->units = c->units;
    int found = 0, rc = 0;
    for (int side = 0; side < 2 && !rc; side++) {
        const struct ss_model *m = side ? c->cur : c->base;
        ss_id fid = ss_model_find_function(m, function);
        if (fid == SS_NONE)
            continue;
        found = 1;
        struct ss_calls k;
        rc = ss_calls_of(m, fid, &k, err);
        if (rc)
            break;
        double f = side ? 1 : c->conv * c->scale;
        if (side) {
            out->self_n = k.self_v;
            out->total_n = k.total_v;
        } else {
            out->self_b = k.self_v * f;
            out->total_b = k.total_v * f;
        }
        if (edges_side(out, &out->callers, &out->ncallers, m, k.callers, k.ncallers, f, !side) ||
            edges_side(out, &out->callees, &out->ncallees, m, k.callees, k.ncallees, f, !side))
            rc = ss_nomem(err, "comparison of calls");
        ss_calls_free(&k);
    }
    if (!rc && !found)
        rc = ss_fail(err, SS_EUSAGE, "--function: no function named '%s' in either profile",
                     function);
    if (rc) {
        ss_cmp_calls_free(out);
        return rc;
    }
    if (ss_sort(out->callers, out->ncallers, sizeof *out->callers, by_edge_delta, &out->keys) ||
        ss_sort(out->callees, out->ncallees, sizeof *out->callees, by_edge_delta, &out->keys)) {
        ss_cmp_calls_free(out);
        return ss_nomem(err, "comparison of calls");
    }
    return 0;
}

void ss_cmp_calls_free(struct ss_cmp_calls *k)
{
    free(k->callers);
    free(k->callees);
    ss_strtab_free(&k->keys);
    memset(k, 0, sizeof *k);
}

/* ---- the flame graph ------------------------------------------------------------ */

/* A frame's path key: (its parent's path key, its name id) as 8 bytes,
 * interned in t (a path id per frame; names in the same table). */
static ss_id path_key(struct ss_strtab *t, ss_id parent, const char *name, int *oom)
{
    ss_id nm = ss_strtab_intern(t, name, strlen(name));
    uint32_t k[2] = {parent, nm};
    ss_id r = nm == SS_NONE ? SS_NONE : ss_strtab_intern(t, (const char *)k, sizeof k);
    if (r == SS_NONE)
        *oom = 1;
    return r;
}

int ss_compare_flame(const struct ss_compare *c, const struct ss_flame_opts *o,
                     const struct ss_flame *fl, double *base, struct ss_error *err)
{
    return ss_compare_flame_gone(c, o, fl, base, NULL, NULL, err);
}

void ss_cmp_gone_free(struct ss_cmp_gone *g)
{
    free(g->parent);
    free(g->name);
    free(g->total);
    memset(g, 0, sizeof *g);
}

/* Join the base's graph bf with the new graph fl by paths of names (see
 * ss_compare_flame_gone); frees bf. */
static int flame_join(const struct ss_compare *c, struct ss_flame *bfp, const struct ss_flame *fl,
                      double *base, struct ss_cmp_gone *gone, const ss_id *focus,
                      struct ss_cmp_fverdicts *fv, struct ss_error *err)
{
    struct ss_flame bf = *bfp;
    memset(bfp, 0, sizeof *bfp);
    struct ss_strtab t;
    ss_strtab_init(&t);
    int oom = 0;
    double f = c->conv * c->scale;
    /* the base's frames by path (an aggregated graph has one frame a path) */
    ss_id *bkey = malloc((bf.n ? bf.n : 1) * sizeof *bkey);
    VEC(uint32_t) frame_of = {0}; /* path key -> base frame */
    oom = !bkey;
    for (size_t i = 0; !oom && i < bf.n; i++) {
        const struct ss_flame_node *nd = &bf.nodes[i];
        ss_id parent = nd->parent == SS_FLAME_NONE ? SS_NONE : bkey[nd->parent];
        bkey[i] = path_key(&t, parent, ss_function_name(c->base, nd->function), &oom);
        while (!oom && frame_of.n <= bkey[i])
            oom = VEC_PUSH(frame_of, SS_FLAME_NONE) != 0;
        if (!oom)
            frame_of.v[bkey[i]] = (uint32_t)i;
    }
    ss_id *ckey = malloc((fl->n ? fl->n : 1) * sizeof *ckey);
    uint32_t *new_of = malloc((bf.n ? bf.n : 1) * sizeof *new_of); /* base frame -> new frame */
    oom = oom || !ckey || !new_of;
    for (size_t i = 0; !oom && i < bf.n; i++)
        new_of[i] = SS_FLAME_NONE;
    for (size_t i = 0; !oom && i < fl->n; i++) {
        const struct ss_flame_node *nd = &fl->nodes[i];
        ss_id parent = nd->parent == SS_FLAME_NONE ? SS_NONE : ckey[nd->parent];
        /* look up, never add: a path the base lacks has no key there */
        const char *name = ss_function_name(c->cur, nd->function);
        ss_id nm = parent == SS_NONE && nd->parent != SS_FLAME_NONE
                       ? SS_NONE
                       : ss_strtab_find(&t, name, strlen(name));
        uint32_t k[2] = {parent, nm};
        ckey[i] = nm == SS_NONE ? SS_NONE : ss_strtab_find(&t, (const char *)k, sizeof k);
        if (ckey[i] != SS_NONE && ckey[i] < frame_of.n && frame_of.v[ckey[i]] != SS_FLAME_NONE) {
            uint32_t bi = frame_of.v[ckey[i]];
            base[i] = bf.nodes[bi].total * f;
            new_of[bi] = (uint32_t)i;
        }
    }
    /* the base's frames the new graph lacks, whose parent it has; with
     * verdicts, every base frame's row (its new frame, fl->n + its gone
     * number, or none) */
    uint32_t *brow = fv && !oom ? ss_alloc_array(bf.n, sizeof *brow) : NULL;
    oom = oom || (fv && !brow);
    for (size_t i = 0; brow && i < bf.n; i++)
        brow[i] = new_of[i];
    for (size_t i = 0; gone && !oom && i < bf.n; i++) {
        const struct ss_flame_node *nd = &bf.nodes[i];
        if (new_of[i] != SS_FLAME_NONE)
            continue;
        uint32_t parent = nd->parent == SS_FLAME_NONE ? SS_FLAME_NONE : new_of[nd->parent];
        if (nd->parent != SS_FLAME_NONE && parent == SS_FLAME_NONE)
            continue; /* under a frame that is gone too */
        size_t k = gone->n;
        uint32_t *np = realloc(gone->parent, (k + 1) * sizeof *np);
        if (np)
            gone->parent = np;
        const char **nn = realloc(gone->name, (k + 1) * sizeof *nn);
        if (nn)
            gone->name = nn;
        double *nt = realloc(gone->total, (k + 1) * sizeof *nt);
        if (nt)
            gone->total = nt;
        if (!np || !nn || !nt) {
            oom = 1;
            break;
        }
        gone->parent[k] = parent;
        gone->name[k] = ss_function_name(c->base, nd->function);
        gone->total[k] = nd->total * f;
        gone->n++;
        if (brow)
            brow[i] = (uint32_t)(fl->n + k);
    }
    int rc = 0;
    if (fv && !oom)
        rc = ss_cmp_flame_verdicts(c, &bf, brow, fl, fl->n + (gone ? gone->n : 0), focus, fv, err);
    free(brow);
    free(bkey);
    free(ckey);
    free(new_of);
    VEC_FREE(frame_of);
    ss_strtab_free(&t);
    ss_flame_free(&bf);
    if ((oom || rc) && gone)
        ss_cmp_gone_free(gone);
    return oom ? ss_nomem(err, "comparison of flame graphs") : rc;
}

int ss_compare_flame_gone(const struct ss_compare *c, const struct ss_flame_opts *o,
                          const struct ss_flame *fl, double *base, struct ss_cmp_gone *gone,
                          struct ss_cmp_fverdicts *fv, struct ss_error *err)
{
    for (size_t i = 0; i < fl->n; i++)
        base[i] = 0;
    if (gone)
        memset(gone, 0, sizeof *gone);
    if (fv)
        memset(fv, 0, sizeof *fv);
    if (c->no_verdicts || fl->opts.time_order)
        fv = NULL; /* a chart's frames are not one a path */
    struct ss_flame_opts bo = *o;
    bo.time_order = 0;
    double *sw = NULL;
    struct ss_flame bf;
    memset(&bf, 0, sizeof bf);
    int rc = ss_flame_measure_weights(c->base, &sw, NULL, err);
    if (!rc)
        rc = ss_flame_build(c->base, sw, NULL, &bo, &bf, err);
    free(sw);
    if (rc)
        return rc;
    static const ss_id none[2] = {SS_NONE, SS_NONE};
    return flame_join(c, &bf, fl, base, gone, none, fv, err);
}

int ss_compare_flame_focus(const struct ss_compare *c, const struct ss_flame_opts *o,
                           const char *focus, const struct ss_flame *fl, double *base,
                           struct ss_cmp_gone *gone, struct ss_cmp_fverdicts *fv,
                           struct ss_error *err)
{
    for (size_t i = 0; i < fl->n; i++)
        base[i] = 0;
    if (gone)
        memset(gone, 0, sizeof *gone);
    if (fv)
        memset(fv, 0, sizeof *fv);
    if (c->no_verdicts)
        fv = NULL;
    ss_id f = ss_model_find_function(c->base, focus), fn = ss_model_find_function(c->cur, focus);
    ss_id foc[2] = {f == SS_NONE ? SS_NONE : ss_function_canonical(c->base, f),
                    fn == SS_NONE ? SS_NONE : ss_function_canonical(c->cur, fn)};
    struct ss_flame bf;
    memset(&bf, 0, sizeof bf);
    if (f == SS_NONE) /* the base never runs it: every frame is new */
        return fv ? flame_join(c, &bf, fl, base, gone, foc, fv, err) : 0;
    double *sw = NULL;
    int rc = ss_flame_measure_weights(c->base, &sw, NULL, err);
    if (!rc)
        rc = ss_flame_build_focus(c->base, sw, o, f, &bf, err);
    free(sw);
    if (rc)
        return rc;
    return flame_join(c, &bf, fl, base, gone, foc, fv, err);
}

int ss_compare_shade(double base, double cur, double max_delta)
{
    double d = cur - base;
    if (!(max_delta > 0) || ss_double_eq(d, 0))
        return 0;
    double r = fabs(d) / max_delta;
    int lvl = r >= 0.5 ? 3 : r >= 0.15 ? 2 : r >= 0.02 ? 1 : 0;
    return d > 0 ? lvl : -lvl;
}

int ss_compare_tree_base(const struct ss_compare *c, int inverted, const char *focus,
                         const struct ss_tree *t, double *total, double *self, struct ss_error *err)
{
    for (size_t i = 0; i < t->n; i++)
        total[i] = self[i] = 0;
    ss_id fid = SS_NONE;
    if (focus && (fid = ss_model_find_function(c->base, focus)) == SS_NONE)
        return 0; /* the base has no such function: nothing to compare with */
    struct ss_tree bt;
    int rc = ss_tree_build(c->base, inverted, fid, &bt, err);
    if (rc)
        return rc;
    double f = c->conv * c->scale;
    struct ss_strtab keys;
    ss_strtab_init(&keys);
    ss_id *bkey = malloc((bt.n ? bt.n : 1) * sizeof *bkey);
    ss_id *ckey = malloc((t->n ? t->n : 1) * sizeof *ckey);
    VEC(uint32_t) node_of = {0};
    int oom = !bkey || !ckey;
    for (size_t i = 0; !oom && i < bt.n; i++) {
        const struct ss_tree_node *nd = &bt.nodes[i];
        ss_id parent = nd->parent == SS_TREE_NONE ? SS_NONE : bkey[nd->parent];
        bkey[i] = path_key(&keys, parent, ss_function_name(c->base, nd->function), &oom);
        while (!oom && node_of.n <= bkey[i])
            oom = VEC_PUSH(node_of, SS_TREE_NONE) != 0;
        if (!oom)
            node_of.v[bkey[i]] = (uint32_t)i;
    }
    for (size_t i = 0; !oom && i < t->n; i++) {
        const struct ss_tree_node *nd = &t->nodes[i];
        ss_id parent = nd->parent == SS_TREE_NONE ? SS_NONE : ckey[nd->parent];
        const char *name = ss_function_name(c->cur, nd->function);
        ss_id nm = parent == SS_NONE && nd->parent != SS_TREE_NONE
                       ? SS_NONE
                       : ss_strtab_find(&keys, name, strlen(name));
        uint32_t k[2] = {parent, nm};
        ckey[i] = nm == SS_NONE ? SS_NONE : ss_strtab_find(&keys, (const char *)k, sizeof k);
        if (ckey[i] != SS_NONE && ckey[i] < node_of.n && node_of.v[ckey[i]] != SS_TREE_NONE) {
            const struct ss_tree_node *bn = &bt.nodes[node_of.v[ckey[i]]];
            total[i] = bn->total_v * f;
            self[i] = bn->self_v * f;
        }
    }
    free(bkey);
    free(ckey);
    VEC_FREE(node_of);
    ss_strtab_free(&keys);
    ss_tree_free(&bt);
    return oom ? ss_nomem(err, "comparison of trees") : 0;
}

/* ---- one model from two, and two from one ---------------------------------- */

int ss_model_is_comparison(const struct ss_model *m)
{
    for (size_t s = 0; s < m->sources.n; s++)
        if (m->sources.v[s].flags & SS_SRC_BASE)
            return 1;
    return 0;
}

/* The string `id` of model src interned in dst (SS_NONE stays SS_NONE). */
static ss_id xstr(struct ss_model *dst, const struct ss_model *src, ss_id id, int *oom)
{
    if (id == SS_NONE)
        return SS_NONE;
    ss_id r = ss_model_intern(dst, ss_str(src, id), ss_strtab_len(&src->strs, id));
    if (r == SS_NONE)
        *oom = 1;
    return r;
}

/* Mapping k of src as a mapping of dst (its strings interned there). */
static ss_id copy_mapping(struct ss_model *dst, const struct ss_model *src, ss_id k, int *oom)
{
    struct ss_mapping mp = src->mappings.v[k];
    mp.file = xstr(dst, src, mp.file, oom);
    mp.build_id = xstr(dst, src, mp.build_id, oom);
    ss_id r = *oom ? SS_NONE : ss_model_mapping(dst, &mp);
    if (r == SS_NONE)
        *oom = 1;
    return r;
}

/* Where copy_sources put src's value types, functions, locations,
 * stacks and label sets in dst (label sets mapped on first use). */
struct copy_map {
    struct ss_model *dst;
    const struct ss_model *src;
    ss_id *vt, *fn, *loc, *stk, *sets;
    ss_id *frames;   /* scratch: a stack's frames */
    int64_t *vals;   /* scratch: a sample's values */
    VEC(ss_id) labs; /* scratch: a label set's labels */
};

static void copy_map_free(struct copy_map *c)
{
    free(c->vt);
    free(c->fn);
    free(c->loc);
    free(c->stk);
    free(c->frames);
    free(c->vals);
    free(c->sets);
    VEC_FREE(c->labs);
}

/* src's value types, functions, locations and stacks into dst.  Returns
 * 0 or -1 (out of memory). */
static int copy_tables(struct copy_map *c)
{
    struct ss_model *dst = c->dst;
    const struct ss_model *src = c->src;
    size_t nvt = src->value_types.n, nfn = src->functions.n, nloc = src->locations.n,
           nst = ss_model_nstacks(src), nsets = ss_model_nlabelsets(src);
    c->vt = malloc((nvt ? nvt : 1) * sizeof *c->vt);
    c->fn = malloc((nfn ? nfn : 1) * sizeof *c->fn);
    c->loc = malloc((nloc ? nloc : 1) * sizeof *c->loc);
    c->stk = malloc((nst ? nst : 1) * sizeof *c->stk);
    c->sets = malloc((nsets ? nsets : 1) * sizeof *c->sets);
    int oom = !c->vt || !c->fn || !c->loc || !c->stk || !c->sets;
    for (size_t k = 0; !oom && k < nsets; k++)
        c->sets[k] = k ? SS_NONE : 0;
    for (size_t t = 0; !oom && t < nvt; t++) {
        c->vt[t] = ss_model_value_type(dst, ss_str(src, src->value_types.v[t].type),
                                       ss_str(src, src->value_types.v[t].unit));
        oom = c->vt[t] == SS_NONE;
    }
    for (size_t f = 0; !oom && f < nfn; f++) {
        const struct ss_function *sf = &src->functions.v[f];
        ss_id name = xstr(dst, src, sf->name, &oom), sys = xstr(dst, src, sf->system_name, &oom),
              file = xstr(dst, src, sf->filename, &oom);
        if (!oom)
            c->fn[f] = ss_model_function(dst, name, sys, file, sf->start_line);
        oom = oom || c->fn[f] == SS_NONE;
    }
    for (size_t l = 0; !oom && l < nloc; l++) {
        struct ss_location sl = src->locations.v[l];
        sl.file = xstr(dst, src, sl.file, &oom);
        sl.function = sl.function == SS_NONE ? SS_NONE : c->fn[sl.function];
        if (sl.mapping != SS_NONE)
            sl.mapping = copy_mapping(dst, src, sl.mapping, &oom);
        if (!oom)
            c->loc[l] = ss_model_location_at(dst, &sl);
        oom = oom || c->loc[l] == SS_NONE;
    }
    size_t maxd = 1;
    for (size_t s = 0; s < nst; s++)
        if (ss_stack_depth(src, (ss_id)s) > maxd)
            maxd = ss_stack_depth(src, (ss_id)s);
    c->frames = malloc(maxd * sizeof *c->frames);
    oom = oom || !c->frames;
    for (size_t s = 0; !oom && s < nst; s++) {
        size_t d = ss_stack_depth(src, (ss_id)s);
        const ss_id *fr = ss_stack_frames(src, (ss_id)s);
        for (size_t k = 0; k < d; k++)
            c->frames[k] = c->loc[fr[k]];
        ss_id tail = src->stack_tail.v[s];
        c->stk[s] = ss_model_stack(dst, c->frames, d, tail == SS_NONE ? SS_NONE : c->loc[tail]);
        oom = c->stk[s] == SS_NONE;
    }
    return oom ? -1 : 0;
}

/* Source s's meta, aggregates and edges, as those of dst's source id. */
static int copy_source_extras(struct copy_map *c, size_t s, ss_id id)
{
    struct ss_model *dst = c->dst;
    const struct ss_model *src = c->src;
    int oom = 0;
    for (size_t i = 0; !oom && i < src->meta.n; i++) {
        const struct ss_meta *me = &src->meta.v[i];
        if (me->source != s)
            continue;
        struct ss_meta nm = {id, xstr(dst, src, me->key, &oom), xstr(dst, src, me->value, &oom)};
        oom = oom || VEC_PUSH(dst->meta, nm);
    }
    for (size_t i = 0; !oom && i < src->aggs.n; i++) {
        struct ss_agg a = src->aggs.v[i];
        if (a.source != s)
            continue;
        a.source = id;
        a.location = c->loc[a.location];
        oom = VEC_PUSH(dst->aggs, a) != 0;
    }
    for (size_t i = 0; !oom && i < src->edges.n; i++) {
        struct ss_agg_edge e = src->edges.v[i];
        if (e.source != s)
            continue;
        e.source = id;
        e.caller = e.caller == SS_NONE ? SS_NONE : c->loc[e.caller];
        e.callee = c->loc[e.callee];
        oom = VEC_PUSH(dst->edges, e) != 0;
    }
    return oom ? -1 : 0;
}

/* src's label set ls in dst (made on first use); SS_NONE when out of
 * memory. */
static ss_id copy_labelset(struct copy_map *c, ss_id ls)
{
    if (c->sets[ls] != SS_NONE)
        return c->sets[ls];
    const struct ss_model *src = c->src;
    size_t nl = ss_labelset_size(src, ls);
    const ss_id *l = ss_labelset_labels(src, ls);
    int oom = VEC_RESERVE(c->labs, nl + 1) != 0;
    for (size_t k = 0; !oom && k < nl; k++) {
        const struct ss_label *lb = &src->labels.v[l[k]];
        ss_id key = xstr(c->dst, src, lb->key, &oom), str = xstr(c->dst, src, lb->str, &oom),
              unit = xstr(c->dst, src, lb->unit, &oom);
        c->labs.v[k] = oom ? SS_NONE : ss_model_label(c->dst, key, str, lb->num, unit);
        oom = oom || c->labs.v[k] == SS_NONE;
    }
    if (!oom)
        c->sets[ls] = ss_model_label_set(c->dst, c->labs.v, nl);
    return c->sets[ls];
}

/* Source ss's samples, with their values and labels, into dst. */
static int copy_samples(struct copy_map *c, const struct ss_source *ss)
{
    struct ss_model *dst = c->dst;
    const struct ss_model *src = c->src;
    size_t nvt = src->value_types.n;
    free(c->vals);
    c->vals = calloc(dst->value_types.n, sizeof *c->vals);
    int oom = !c->vals;
    for (size_t i = ss->first_sample; !oom && i < ss->first_sample + ss->n_samples; i++) {
        for (size_t t = 0; t < nvt; t++)
            c->vals[c->vt[t]] = ss_sample_value(src, t, i);
        oom = ss_model_add_sample(dst, c->stk[src->sample_stack.v[i]], c->vals) != 0;
        ss_id ls = ss_sample_labelset(src, i);
        if (!oom && ls) {
            ss_id set = copy_labelset(c, ls);
            oom = set == SS_NONE || ss_model_label_sample(dst, set) != 0;
        }
    }
    return oom ? -1 : 0;
}

/* Append to dst the sources of src whose SS_SRC_BASE flag is `want_base`
 * (-1: every source), with their samples, stacks, functions, locations,
 * value columns, meta and aggregates; each copied source's flags get `set`
 * and lose `clear`.  Returns 0 or -1 (out of memory). */
static int copy_sources(struct ss_model *dst, const struct ss_model *src, int want_base,
                        uint32_t set, uint32_t clear)
{
    struct copy_map c;
    memset(&c, 0, sizeof c);
    c.dst = dst;
    c.src = src;
    int oom = copy_tables(&c) != 0;
    for (size_t s = 0; !oom && s < src->sources.n; s++) {
        const struct ss_source *ss = &src->sources.v[s];
        if (want_base >= 0 && !!(ss->flags & SS_SRC_BASE) != want_base)
            continue;
        struct ss_source ns = *ss;
        ns.type = xstr(dst, src, ss->type, &oom);
        ns.uri = xstr(dst, src, ss->uri, &oom);
        ns.flags = (ss->flags | set) & ~clear;
        ns.values = 0;
        ns.default_column = ss->default_column ? c.vt[ss->default_column - 1] + 1 : 0;
        ns.time_column = ss->time_column ? c.vt[ss->time_column - 1] + 1 : 0;
        ss_id id = oom ? SS_NONE : ss_model_add_source(dst, &ns);
        if (id == SS_NONE) {
            oom = 1;
            break;
        }
        for (size_t t = 0; t < src->value_types.n && t < SS_SOURCE_VALUE_BITS; t++)
            if (ss->values >> t & 1)
                ss_model_source_value(dst, id, c.vt[t], 0);
        oom = copy_source_extras(&c, s, id) || copy_samples(&c, ss);
    }
    copy_map_free(&c);
    return oom ? -1 : 0;
}

int ss_compare_merge(const struct ss_compare *c, struct ss_model *out, struct ss_error *err)
{
    int rc = ss_model_init(out, err);
    if (rc)
        return rc;
    uint32_t set = SS_SRC_BASE | (c->normalized ? SS_SRC_NORMALIZE : 0);
    if (copy_sources(out, c->cur, -1, 0, SS_SRC_BASE | SS_SRC_NORMALIZE) ||
        copy_sources(out, c->base, -1, set, 0)) {
        ss_model_free(out);
        return ss_nomem(err, "comparison");
    }
    ss_model_seal(out);
    struct ss_error e2;
    ss_error_clear(&e2);
    if (ss_model_set_measure(out, ss_model_measure_name(c->cur), &e2) == SS_ENOMEM) {
        ss_model_free(out);
        return ss_nomem(err, "comparison");
    }
    return 0;
}

int ss_compare_split(const struct ss_model *m, struct ss_model *base, struct ss_model *cur,
                     struct ss_error *err)
{
    int rc = ss_model_init(cur, err);
    if (rc)
        return rc;
    rc = ss_model_init(base, err);
    if (rc) {
        ss_model_free(cur);
        return rc;
    }
    if (copy_sources(cur, m, 0, 0, 0) || copy_sources(base, m, 1, 0, SS_SRC_BASE)) {
        ss_model_free(cur);
        ss_model_free(base);
        return ss_nomem(err, "comparison");
    }
    for (size_t i = 0; i < m->warnings.n; i++)
        ss_model_warn(cur, "%s", m->warnings.v[i]);
    ss_model_seal(cur);
    ss_model_seal(base);
    return 0;
}
