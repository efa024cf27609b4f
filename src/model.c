/* model.c - the relational model and its builder (see model.h). */
#include "model.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hashtab.h"
#include "vec.h"
#include "strbuf.h"
#include "threads.h"

/* The three indexes (functions, locations, stacks) are sets of ids whose
 * keys live in the model's tables (hashtab.h's ss_idset). */
static struct ss_idset *idhash_new(void)
{
    return calloc(1, sizeof(struct ss_idset));
}

static void idhash_free(struct ss_idset *h)
{
    if (h) {
        ss_idset_free(h);
        free(h);
    }
}

/* ---- model ---------------------------------------------------------------- */

int ss_model_init(struct ss_model *m, struct ss_error *err)
{
    memset(m, 0, sizeof *m);
    ss_model_weights_free(m); /* the `time` measure */
    ss_strtab_init(&m->strs);
    m->fn_index = idhash_new();
    m->loc_index = idhash_new();
    m->stack_index = idhash_new();
    m->label_index = idhash_new();
    m->labelset_index = idhash_new();
    m->map_index = idhash_new();
    /* stack_loc is never NULL, even while every stack is empty: NULL + 0
     * (ss_stack_frames of an empty stack) is undefined behaviour. */
    if (!m->fn_index || !m->loc_index || !m->stack_index || !m->label_index || !m->labelset_index ||
        !m->map_index || VEC_PUSH(m->stack_off, 0) || VEC_RESERVE(m->stack_loc, 1) ||
        VEC_PUSH(m->labelset_off, 0) || VEC_PUSH(m->labelset_off, 0) ||
        VEC_RESERVE(m->labelset_lab, 1) || ss_model_value_type(m, "samples", "count") == SS_NONE) {
        ss_model_free(m);
        return ss_nomem(err, "model");
    }
    return 0;
}

void ss_model_seal(struct ss_model *m)
{
    idhash_free(m->fn_index);
    idhash_free(m->loc_index);
    idhash_free(m->stack_index);
    idhash_free(m->label_index);
    idhash_free(m->labelset_index);
    idhash_free(m->map_index);
    m->fn_index = m->loc_index = m->stack_index = m->label_index = m->labelset_index = NULL;
    m->map_index = NULL;
    VEC_FREE(m->name_first_fn);
}

void ss_model_free_spare(struct ss_model *m, struct ss_spare *spare)
{
    ss_spare_give(spare, m->sample_stack.v, m->sample_stack.cap * sizeof *m->sample_stack.v);
    ss_spare_give(spare, m->sample_labels.v, m->sample_labels.cap * sizeof *m->sample_labels.v);
    /* value_rows: one a sample, or the room of a kept array taken over
     * (ss_model_derive_samples_take) */
    size_t rows = m->sample_stack.n * sizeof *m->value_rows;
    ss_spare_give(spare, m->value_rows, m->value_rows_cap > rows ? m->value_rows_cap : rows);
    memset(&m->sample_stack, 0, sizeof m->sample_stack);
    memset(&m->sample_labels, 0, sizeof m->sample_labels);
    m->value_rows = NULL;
    ss_model_forget_derived(m, spare);
    ss_model_free(m);
}

void ss_model_free(struct ss_model *m)
{
    ss_model_seal(m);
    ss_strtab_free(&m->strs);
    VEC_FREE(m->sources);
    VEC_FREE(m->functions);
    VEC_FREE(m->locations);
    VEC_FREE(m->mappings);
    VEC_FREE(m->stack_off);
    VEC_FREE(m->stack_loc);
    VEC_FREE(m->stack_tail);
    VEC_FREE(m->sample_stack);
    VEC_FREE(m->gaps);
    VEC_FREE(m->value_types);
    for (size_t i = 0; i < m->values.n && !m->values_borrowed; i++)
        free(m->values.v[i]);
    VEC_FREE(m->values);
    free(m->value_rows);
    ss_model_forget_derived(m, NULL);
    VEC_FREE(m->labels);
    VEC_FREE(m->labelset_off);
    VEC_FREE(m->labelset_lab);
    VEC_FREE(m->sample_labels);
    VEC_FREE(m->meta);
    VEC_FREE(m->source_texts);
    VEC_FREE(m->aggs);
    VEC_FREE(m->edges);
    VEC_FREE(m->function_class);
    VEC_FREE(m->function_canon);
    for (size_t i = 0; i < m->warnings.n; i++)
        free(m->warnings.v[i]);
    VEC_FREE(m->warnings);
    ss_model_weights_free(m);
}

ss_id ss_model_intern(struct ss_model *m, const char *s, size_t len)
{
    return ss_strtab_intern(&m->strs, s, len);
}

ss_id ss_model_intern_cstr(struct ss_model *m, const char *s)
{
    return ss_strtab_intern(&m->strs, s, strlen(s));
}

ss_id ss_model_add_source(struct ss_model *m, const struct ss_source *src)
{
    struct ss_source s = *src;
    s.first_sample = m->sample_stack.n;
    s.n_samples = 0;
    if (VEC_PUSH(m->sources, s))
        return SS_NONE;
    return (ss_id)(m->sources.n - 1);
}

void ss_model_source_value(struct ss_model *m, ss_id src, ss_id vt, int dflt)
{
    struct ss_source *s = &m->sources.v[src];
    if (vt < SS_SOURCE_VALUE_BITS)
        s->values |= (uint64_t)1 << vt;
    if (dflt)
        s->default_column = vt + 1;
}

void ss_model_source_time(struct ss_model *m, ss_id src, ss_id vt)
{
    m->sources.v[src].time_column = vt + 1;
}

static uint64_t fn_hash(ss_id name, ss_id sys, ss_id file, uint32_t line)
{
    return ss_mix64(((uint64_t)name << 32 | sys) ^ ss_mix64((uint64_t)file << 32 | line));
}

static int fn_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct ss_model *m = ctx;
    return memcmp(&m->functions.v[id], key, sizeof(struct ss_function)) == 0;
}

ss_id ss_model_function(struct ss_model *m, ss_id name, ss_id system_name, ss_id filename,
                        uint32_t start_line)
{
    struct ss_function f;
    memset(&f, 0, sizeof f);
    f.name = name;
    f.system_name = system_name;
    f.filename = filename;
    f.start_line = start_line;
    if (ss_idset_reserve(m->fn_index, 1))
        return SS_NONE;
    uint64_t hv = fn_hash(name, system_name, filename, start_line);
    size_t slot;
    ss_id id = ss_idset_find(m->fn_index, hv, fn_eq, m, &f, &slot);
    if (id != SS_NONE)
        return id;
    if (m->functions.n >= SS_NONE - 1 || VEC_RESERVE(m->function_canon, m->functions.n + 1) ||
        (m->function_class.n && VEC_RESERVE(m->function_class, m->functions.n + 1)))
        return SS_NONE;
    if (m->name_first_fn.n <= name) {
        if (VEC_RESERVE(m->name_first_fn, (size_t)name + 1))
            return SS_NONE;
        while (m->name_first_fn.n <= name)
            m->name_first_fn.v[m->name_first_fn.n++] = SS_NONE;
    }
    if (VEC_PUSH(m->functions, f))
        return SS_NONE;
    id = (ss_id)(m->functions.n - 1);
    if (m->name_first_fn.v[name] == SS_NONE)
        m->name_first_fn.v[name] = id;
    m->function_canon.v[m->function_canon.n++] = m->name_first_fn.v[name];
    if (m->function_class.n) /* one entry per function once any has a class */
        m->function_class.v[m->function_class.n++] = SS_NONE;
    ss_idset_insert(m->fn_index, slot, hv, id);
    return id;
}

static int loc_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct ss_model *m = ctx;
    return memcmp(&m->locations.v[id], key, sizeof(struct ss_location)) == 0;
}

static uint64_t loc_hash(const struct ss_location *l)
{
    uint64_t h = fn_hash(l->function, l->file, l->line, 0x5a5a5a5a);
    if (l->mapping != SS_NONE || l->flags || l->address)
        h ^= ss_mix64(l->address ^ ((uint64_t)l->mapping << 32 | l->flags));
    return h;
}

ss_id ss_model_location_at(struct ss_model *m, const struct ss_location *key)
{
    struct ss_location l;
    memset(&l, 0, sizeof l); /* no stray bytes: locations compare as bytes */
    l.function = key->function;
    l.file = key->file;
    l.line = key->line;
    l.mapping = key->mapping;
    l.flags = key->flags;
    l.address = key->address;
    if (ss_idset_reserve(m->loc_index, 1))
        return SS_NONE;
    uint64_t hv = loc_hash(&l);
    size_t slot;
    ss_id id = ss_idset_find(m->loc_index, hv, loc_eq, m, &l, &slot);
    if (id != SS_NONE)
        return id;
    if (m->locations.n >= SS_NONE - 1 || VEC_PUSH(m->locations, l))
        return SS_NONE;
    id = (ss_id)(m->locations.n - 1);
    ss_idset_insert(m->loc_index, slot, hv, id);
    return id;
}

ss_id ss_model_location(struct ss_model *m, ss_id function, ss_id file, uint32_t line)
{
    struct ss_location l = {function, file, line, SS_NONE, 0, 0, 0};
    return ss_model_location_at(m, &l);
}

static uint64_t map_hash(const struct ss_mapping *mp)
{
    return ss_mix64(mp->start ^ ss_mix64(mp->limit ^ ss_mix64(mp->offset))) ^
           ss_mix64((uint64_t)mp->file << 32 | mp->build_id) ^ mp->flags;
}

static int map_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct ss_mapping *a = &((const struct ss_model *)ctx)->mappings.v[id], *b = key;
    return a->start == b->start && a->limit == b->limit && a->offset == b->offset &&
           a->file == b->file && a->build_id == b->build_id && a->flags == b->flags;
}

ss_id ss_model_mapping(struct ss_model *m, const struct ss_mapping *mp)
{
    if (ss_idset_reserve(m->map_index, 1))
        return SS_NONE;
    uint64_t hv = map_hash(mp);
    size_t slot;
    ss_id id = ss_idset_find(m->map_index, hv, map_eq, m, mp, &slot);
    if (id != SS_NONE)
        return id;
    if (m->mappings.n >= SS_NONE - 1 || VEC_PUSH(m->mappings, *mp))
        return SS_NONE;
    id = (ss_id)(m->mappings.n - 1);
    ss_idset_insert(m->map_index, slot, hv, id);
    return id;
}

struct stack_key {
    const ss_id *locs;
    size_t n;
    ss_id tail;
};

static int stack_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct ss_model *m = ctx;
    const struct stack_key *k = key;
    return m->stack_tail.v[id] == k->tail && ss_stack_depth(m, id) == k->n &&
           (k->n == 0 || memcmp(ss_stack_frames(m, id), k->locs, k->n * sizeof(ss_id)) == 0);
}

/* Append a stack to the CSR arrays (no lookup).  Its id or SS_NONE. */
static ss_id stack_append(struct ss_model *m, const ss_id *locs, size_t n, ss_id tail)
{
    if (m->stack_tail.n >= SS_NONE - 1 || m->stack_loc.n + n >= UINT32_MAX ||
        VEC_RESERVE(m->stack_loc, m->stack_loc.n + n) ||
        VEC_RESERVE(m->stack_off, m->stack_off.n + 1) ||
        VEC_RESERVE(m->stack_tail, m->stack_tail.n + 1))
        return SS_NONE;
    if (n)
        memcpy(m->stack_loc.v + m->stack_loc.n, locs, n * sizeof(ss_id));
    m->stack_loc.n += n;
    m->stack_off.v[m->stack_off.n++] = (uint32_t)m->stack_loc.n;
    m->stack_tail.v[m->stack_tail.n++] = tail;
    return (ss_id)(m->stack_tail.n - 1);
}

ss_id ss_model_stack(struct ss_model *m, const ss_id *locs, size_t n, ss_id tail)
{
    struct stack_key k = {locs, n, tail};
    if (!m->stack_index || ss_idset_reserve(m->stack_index, 1))
        return SS_NONE;
    uint64_t hv = (n ? ss_hash(locs, n * sizeof(ss_id)) : 0) ^ ss_mix64(tail);
    size_t slot;
    ss_id id = ss_idset_find(m->stack_index, hv, stack_eq, m, &k, &slot);
    if (id != SS_NONE)
        return id;
    id = stack_append(m, locs, n, tail);
    if (id != SS_NONE)
        ss_idset_insert(m->stack_index, slot, hv, id);
    return id;
}

ss_id ss_model_append_stack(struct ss_model *m, const ss_id *locs, size_t n, ss_id tail)
{
    idhash_free(m->stack_index); /* it would not know the stacks added here */
    m->stack_index = NULL;
    return stack_append(m, locs, n, tail);
}

ss_id ss_model_value_type(struct ss_model *m, const char *type, const char *unit)
{
    ss_id t = ss_model_intern_cstr(m, type), u = ss_model_intern_cstr(m, unit);
    if (t == SS_NONE || u == SS_NONE)
        return SS_NONE;
    for (size_t i = 0; i < m->value_types.n; i++)
        if (m->value_types.v[i].type == t && m->value_types.v[i].unit == u)
            return (ss_id)i;
    struct ss_value_type vt = {t, u};
    if (VEC_PUSH(m->value_types, vt))
        return SS_NONE;
    if (VEC_PUSH(m->values, NULL)) {
        m->value_types.n--;
        return SS_NONE;
    }
    /* A column added after samples exist is materialised on first use. */
    return (ss_id)(m->value_types.n - 1);
}

/* Make column t exist for all current samples (and capacity), filled with
 * `fill`.  Returns 0 or -1. */
static int column_materialise(struct ss_model *m, size_t t, int64_t fill)
{
    int64_t *c = ss_alloc_array(m->sample_stack.cap, sizeof *c);
    if (!c)
        return -1;
    for (size_t i = 0; i < m->sample_stack.n; i++)
        c[i] = fill;
    m->values.v[t] = c;
    return 0;
}

int ss_model_add_sample(struct ss_model *m, ss_id stack, const int64_t *vals)
{
    int64_t count = vals ? vals[SS_VT_COUNT] : 1;
    uint64_t total;
    if (count < 0 || __builtin_add_overflow(m->count_total, (uint64_t)count, &total) ||
        total > SS_MAX_COUNT_TOTAL)
        return SS_COUNT_RANGE;
    size_t oldcap = m->sample_stack.cap;
    if (VEC_PUSH(m->sample_stack, stack))
        return -1;
    size_t i = m->sample_stack.n - 1;
    if (m->sample_stack.cap != oldcap) {
        for (size_t t = 0; t < m->values.n; t++) {
            if (!m->values.v[t])
                continue;
            int64_t *c = ss_realloc_array(m->values.v[t], m->sample_stack.cap, sizeof *c);
            if (!c) {
                m->sample_stack.n--;
                return -1;
            }
            m->values.v[t] = c;
        }
    }
    for (size_t t = 0; t < m->values.n; t++) {
        int64_t v = vals ? vals[t] : (t == SS_VT_COUNT ? 1 : 0);
        if (!m->values.v[t]) {
            int64_t dflt = t == SS_VT_COUNT ? 1 : 0;
            if (v == dflt)
                continue;
            if (column_materialise(m, t, dflt)) {
                m->sample_stack.n--;
                return -1;
            }
        }
        m->values.v[t][i] = v;
    }
    if (m->sample_labels.n && VEC_PUSH(m->sample_labels, 0)) {
        m->sample_stack.n--;
        return -1;
    }
    m->sources.v[m->sources.n - 1].n_samples++;
    m->count_total = total;
    return 0;
}

int ss_model_reserve_samples(struct ss_model *m, size_t n)
{
    if (n <= m->sample_stack.cap - m->sample_stack.n)
        return 0;
    size_t cap = m->sample_stack.n + n;
    if (cap < m->sample_stack.n)
        return -1;
    /* all or nothing: the columns first (a column longer than the capacity
     * is harmless), the capacity raised only when every array has it */
    for (size_t t = 0; t < m->values.n; t++) {
        if (!m->values.v[t])
            continue;
        int64_t *c = ss_realloc_array(m->values.v[t], cap, sizeof *c);
        if (!c)
            return -1;
        m->values.v[t] = c;
    }
    ss_id *nv = ss_realloc_array(m->sample_stack.v, cap, sizeof *nv);
    if (!nv)
        return -1;
    m->sample_stack.v = nv;
    m->sample_stack.cap = cap;
    return 0;
}

int ss_model_add_samples(struct ss_model *m, const ss_id *stacks, size_t n, const ss_id *vts,
                         size_t nvt, const int64_t *vals)
{
    uint64_t total;
    if (n == 0)
        return 0;
    if (__builtin_add_overflow(m->count_total, (uint64_t)n, &total) || total > SS_MAX_COUNT_TOTAL)
        return SS_COUNT_RANGE;
    size_t old = m->sample_stack.n, oldcap = m->sample_stack.cap;
    if (VEC_RESERVE(m->sample_stack, old + n))
        return -1;
    for (size_t t = 0; m->sample_stack.cap != oldcap && t < m->values.n; t++) {
        if (!m->values.v[t])
            continue;
        int64_t *c = ss_realloc_array(m->values.v[t], m->sample_stack.cap, sizeof *c);
        if (!c)
            return -1;
        m->values.v[t] = c;
    }
    /* a column stays implicit (NULL) while all its values are the default,
     * as ss_model_add_sample keeps it */
    for (size_t c = 0; c < nvt; c++) {
        ss_id t = vts[c];
        if (m->values.v[t])
            continue;
        int64_t dflt = t == SS_VT_COUNT ? 1 : 0;
        size_t k = 0;
        while (k < n && vals[k * nvt + c] == dflt)
            k++;
        if (k < n && column_materialise(m, t, dflt))
            return -1;
    }
    if (m->sample_labels.n) {
        if (VEC_RESERVE(m->sample_labels, old + n))
            return -1;
        memset(m->sample_labels.v + old, 0, n * sizeof *m->sample_labels.v);
        m->sample_labels.n = old + n;
    }
    memcpy(m->sample_stack.v + old, stacks, n * sizeof *stacks);
    m->sample_stack.n = old + n;
    int64_t *dst[4];
    size_t nd = 0;
    for (size_t c = 0; c < nvt && nvt <= 4; c++)
        if ((dst[nd] = m->values.v[vts[c]]) != NULL)
            dst[nd++] += old;
    if (nd == 4)
        for (size_t k = 0; k < n; k++) {
            const int64_t *v = vals + 4 * k;
            dst[0][k] = v[0];
            dst[1][k] = v[1];
            dst[2][k] = v[2];
            dst[3][k] = v[3];
        }
    for (size_t t = 0; t < m->values.n; t++) {
        int64_t *col = m->values.v[t];
        if (!col)
            continue;
        size_t c = 0;
        while (c < nvt && vts[c] != t)
            c++;
        if (c < nvt) {
            if (nd != 4)
                for (size_t k = 0; k < n; k++)
                    col[old + k] = vals[k * nvt + c];
        } else
            for (size_t k = 0; k < n; k++)
                col[old + k] = t == SS_VT_COUNT ? 1 : 0;
    }
    m->sources.v[m->sources.n - 1].n_samples += n;
    m->count_total = total;
    return 0;
}

/* ---- labels --------------------------------------------------------------- */

static int label_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct ss_model *m = ctx;
    const struct ss_label *a = &m->labels.v[id], *b = key;
    return a->key == b->key && a->str == b->str && a->num == b->num && a->unit == b->unit;
}

ss_id ss_model_label(struct ss_model *m, ss_id key, ss_id str, int64_t num, ss_id unit)
{
    struct ss_label l = {key, str, str == SS_NONE ? num : 0, str == SS_NONE ? unit : SS_NONE};
    if (ss_idset_reserve(m->label_index, 1))
        return SS_NONE;
    uint64_t hv = fn_hash(l.key, l.str, l.unit, (uint32_t)l.num) ^ ss_mix64((uint64_t)l.num);
    size_t slot;
    ss_id id = ss_idset_find(m->label_index, hv, label_eq, m, &l, &slot);
    if (id != SS_NONE)
        return id;
    if (m->labels.n >= SS_NONE - 1 || VEC_PUSH(m->labels, l))
        return SS_NONE;
    id = (ss_id)(m->labels.n - 1);
    ss_idset_insert(m->label_index, slot, hv, id);
    return id;
}

struct labelset_key {
    const ss_id *labs;
    size_t n;
};

static int labelset_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct ss_model *m = ctx;
    const struct labelset_key *k = key;
    return ss_labelset_size(m, id) == k->n &&
           (k->n == 0 || !memcmp(ss_labelset_labels(m, id), k->labs, k->n * sizeof(ss_id)));
}

static int cmp_id(const void *a, const void *b)
{
    ss_id x = *(const ss_id *)a, y = *(const ss_id *)b;
    return x < y ? -1 : x > y;
}

ss_id ss_model_label_set(struct ss_model *m, ss_id *labels, size_t n)
{
    if (n == 0)
        return 0;
    if (n > SS_MAX_LABELS_PER_SAMPLE)
        return SS_NONE;
    qsort(labels, n, sizeof *labels, cmp_id);
    size_t u = 1;
    for (size_t i = 1; i < n; i++)
        if (labels[i] != labels[u - 1])
            labels[u++] = labels[i];
    n = u;
    struct labelset_key k = {labels, n};
    if (ss_idset_reserve(m->labelset_index, 1))
        return SS_NONE;
    uint64_t hv = ss_hash(labels, n * sizeof *labels);
    size_t slot;
    ss_id id = ss_idset_find(m->labelset_index, hv, labelset_eq, m, &k, &slot);
    if (id != SS_NONE)
        return id;
    if (m->labelset_off.n >= SS_NONE - 1 || m->labelset_lab.n + n >= UINT32_MAX ||
        VEC_RESERVE(m->labelset_lab, m->labelset_lab.n + n) ||
        VEC_RESERVE(m->labelset_off, m->labelset_off.n + 1))
        return SS_NONE;
    memcpy(m->labelset_lab.v + m->labelset_lab.n, labels, n * sizeof *labels);
    m->labelset_lab.n += n;
    m->labelset_off.v[m->labelset_off.n++] = (uint32_t)m->labelset_lab.n;
    id = (ss_id)(m->labelset_off.n - 2);
    ss_idset_insert(m->labelset_index, slot, hv, id);
    return id;
}

int ss_model_label_sample(struct ss_model *m, ss_id set)
{
    size_t n = m->sample_stack.n;
    if (n == 0)
        return 0;
    if (!m->sample_labels.n) {
        if (set == 0)
            return 0;
        /* the first labelled sample: every sample so far has none */
        if (VEC_RESERVE(m->sample_labels, m->sample_stack.cap))
            return -1;
        memset(m->sample_labels.v, 0, n * sizeof *m->sample_labels.v);
        m->sample_labels.n = n;
    }
    m->sample_labels.v[n - 1] = set;
    return 0;
}

const char *ss_label_value(const struct ss_model *m, ss_id lab, char *buf, size_t n)
{
    const struct ss_label *l = &m->labels.v[lab];
    if (l->str != SS_NONE)
        return ss_str(m, l->str);
    const char *u = l->unit == SS_NONE ? "" : ss_str(m, l->unit);
    snprintf(buf, n, "%lld%s%s", (long long)l->num, *u ? " " : "", u);
    return buf;
}

int ss_model_count_fail(const struct ss_model *m, struct ss_error *err, const char *where,
                        int64_t count)
{
    if (count < 0)
        return ss_fail(err, SS_EINPUT, "%s: negative sample count %lld", where, (long long)count);
    return ss_fail(err, SS_EINPUT,
                   "%s: sample count %lld makes the counts add up past %llu, the largest total "
                   "stackscope sums (the samples before it add up to %llu)",
                   where, (long long)count, (unsigned long long)SS_MAX_COUNT_TOTAL,
                   (unsigned long long)m->count_total);
}

void ss_model_set_interval(struct ss_model *m, ss_id src, double interval_us)
{
    m->sources.v[src].interval_us = interval_us;
}

void ss_model_add_source_flags(struct ss_model *m, ss_id src, uint32_t flags)
{
    m->sources.v[src].flags |= flags;
}

void ss_model_clear_source_flags(struct ss_model *m, ss_id src, uint32_t flags)
{
    m->sources.v[src].flags &= ~flags;
}

size_t ss_model_drop_front(struct ss_model *m, size_t k)
{
    size_t n = m->sample_stack.n;
    if (k > n)
        k = n;
    if (k == 0 || m->values_borrowed || m->value_rows)
        return 0;
    uint64_t gone = 0;
    for (size_t i = 0; i < k; i++) {
        int64_t c = ss_sample_count(m, i);
        gone += c > 0 ? (uint64_t)c : 0;
    }
    m->count_total = m->count_total > gone ? m->count_total - gone : 0;
    memmove(m->sample_stack.v, m->sample_stack.v + k, (n - k) * sizeof *m->sample_stack.v);
    m->sample_stack.n = n - k;
    if (m->sample_labels.n) {
        memmove(m->sample_labels.v, m->sample_labels.v + k, (n - k) * sizeof *m->sample_labels.v);
        m->sample_labels.n = n - k;
    }
    for (size_t t = 0; t < m->values.n; t++)
        if (m->values.v[t])
            memmove(m->values.v[t], m->values.v[t] + k, (n - k) * sizeof *m->values.v[t]);
    size_t g = 0;
    for (size_t i = 0; i < m->gaps.n; i++) /* a gap at the new start is no gap */
        if (m->gaps.v[i] > k)
            m->gaps.v[g++] = m->gaps.v[i] - k;
    m->gaps.n = g;
    for (size_t s = 0; s < m->sources.n; s++) {
        struct ss_source *src = &m->sources.v[s];
        size_t a = src->first_sample, b = a + src->n_samples;
        src->first_sample = a > k ? a - k : 0;
        src->n_samples = (b > k ? b - k : 0) - src->first_sample;
    }
    ss_model_forget_derived(m, NULL);
    m->col_checked = 0;
    m->col_checked_n = 0;
    ss_model_weights_free(m);
    return k;
}

void ss_model_set_location_file(struct ss_model *m, ss_id loc, ss_id file)
{
    m->locations.v[loc].file = file;
}

int ss_model_add_agg(struct ss_model *m, const struct ss_agg *a)
{
    return VEC_PUSH(m->aggs, *a);
}

int ss_model_add_edge(struct ss_model *m, const struct ss_agg_edge *e)
{
    return VEC_PUSH(m->edges, *e);
}

int ss_model_add_meta(struct ss_model *m, ss_id src, ss_id key, ss_id value)
{
    struct ss_meta me = {src, key, value};
    if (key == SS_NONE || value == SS_NONE)
        return -1;
    return VEC_PUSH(m->meta, me);
}

int ss_model_add_source_text(struct ss_model *m, ss_id path, ss_id text)
{
    struct ss_source_text t = {path, text};
    if (path == SS_NONE || text == SS_NONE)
        return -1;
    if (ss_model_source_text(m, path) != SS_NONE)
        return 0;
    return VEC_PUSH(m->source_texts, t);
}

ss_id ss_model_source_text(const struct ss_model *m, ss_id path)
{
    for (size_t i = 0; i < m->source_texts.n; i++)
        if (m->source_texts.v[i].path == path)
            return m->source_texts.v[i].text;
    return SS_NONE;
}

int ss_model_set_class(struct ss_model *m, ss_id fn, ss_id cls)
{
    if (!m->function_class.n) {
        if (cls == SS_NONE)
            return 0;
        if (VEC_RESERVE(m->function_class, m->functions.n))
            return -1;
        while (m->function_class.n < m->functions.n)
            m->function_class.v[m->function_class.n++] = SS_NONE;
    }
    m->function_class.v[fn] = cls;
    return 0;
}

/* ---- models derived from models (transforms) ------------------------------ */

int ss_model_init_like(struct ss_model *m, const struct ss_model *o, struct ss_error *err)
{
    int rc = ss_model_init(m, err);
    if (rc)
        return rc;
    ss_strtab_free(&m->strs);
    int bad = ss_strtab_copy(&m->strs, &o->strs) != 0;
    /* o's value types in o's order (samples/count first), with o's string ids */
    for (size_t t = 0; t < m->values.n; t++)
        free(m->values.v[t]);
    m->values.n = m->value_types.n = 0;
    for (size_t t = 0; !bad && t < o->value_types.n; t++)
        bad = ss_model_value_type(m, ss_str(o, o->value_types.v[t].type),
                                  ss_str(o, o->value_types.v[t].unit)) != (ss_id)t;
    /* the carried source files, with the same string ids */
    for (size_t i = 0; !bad && i < o->source_texts.n; i++)
        bad = ss_model_add_source_text(m, o->source_texts.v[i].path, o->source_texts.v[i].text);
    for (size_t k = 0; !bad && k < o->mappings.n; k++)
        bad = ss_model_mapping(m, &o->mappings.v[k]) != (ss_id)k;
    if (bad) {
        ss_model_free(m);
        memset(m, 0, sizeof *m);
        return ss_nomem(err, "model");
    }
    return 0;
}

/* Sample k of the derived timeline was sample orig(k) of the original. */
static size_t derived_orig(const uint32_t *keep, size_t base, size_t k)
{
    return keep ? keep[k] : base + k;
}

static int derive_samples(struct ss_model *m, const struct ss_model *o, ss_id *stacks,
                          const uint32_t *keep, uint32_t *owned, size_t base, size_t n);

int ss_model_derive_samples(struct ss_model *m, const struct ss_model *o, ss_id *stacks,
                            const uint32_t *keep, size_t base, size_t n)
{
    return derive_samples(m, o, stacks, keep, NULL, base, n);
}

int ss_model_derive_samples_take(struct ss_model *m, const struct ss_model *o, ss_id *stacks,
                                 size_t stacks_cap, uint32_t **keep, size_t keep_bytes, size_t base,
                                 size_t n)
{
    int rc = derive_samples(m, o, stacks, *keep, *keep, base, n);
    if (stacks_cap > m->sample_stack.cap && m->sample_stack.v == stacks)
        m->sample_stack.cap = stacks_cap; /* the room it has, for the spare */
    if (*keep && m->value_rows == *keep) {
        m->value_rows_cap = keep_bytes;
        *keep = NULL;
    }
    return rc;
}

/* The gaps of the derived timeline (see model.h): where kept samples are
 * not neighbours in o, or o had a gap between them; into out.  Returns
 * their number. */
static size_t gaps_pass(const struct ss_model *o, const uint32_t *keep, size_t base, size_t n,
                        size_t *out)
{
    size_t ng = 0;
    for (size_t k = 1, g = 0; k < n; k++) {
        size_t prev = derived_orig(keep, base, k - 1), at = derived_orig(keep, base, k);
        while (g < o->gaps.n && o->gaps.v[g] <= prev)
            g++;
        if (at != prev + 1 || (g < o->gaps.n && o->gaps.v[g] <= at))
            out[ng++] = k;
    }
    return ng;
}

/* m->gaps from o's samples kept, in one pass into room for every sample
 * (pages never written cost nothing), then the room cut to what was used:
 * a filter of 10M samples may leave millions of gaps, and growing the
 * array a push at a time copied it over and over. */
static int derive_gaps(struct ss_model *m, const struct ss_model *o, const uint32_t *keep,
                       size_t base, size_t n)
{
    m->gaps.n = 0;
    if (VEC_RESERVE(m->gaps, n ? n : 1))
        return -1;
    m->gaps.n = gaps_pass(o, keep, base, n, m->gaps.v);
    size_t want = m->gaps.n ? m->gaps.n : 1;
    if (want < m->gaps.cap / 2) {
        size_t *v = realloc(m->gaps.v, want * sizeof *v);
        if (v) { /* else the larger array serves as well */
            m->gaps.v = v;
            m->gaps.cap = want;
        }
    }
    return 0;
}

/* owned: keep itself when m may take it as its value_rows, else NULL. */
static int derive_samples(struct ss_model *m, const struct ss_model *o, ss_id *stacks,
                          const uint32_t *keep, uint32_t *owned, size_t base, size_t n)
{
    VEC_FREE(m->sample_stack);
    m->sample_stack.v = stacks;
    m->sample_stack.n = m->sample_stack.cap = n;
    if (VEC_RESERVE(m->sample_stack, 1) || VEC_RESERVE(m->sources, o->sources.n))
        return -1;
    if (keep && (n == 0 || keep[n - 1] - keep[0] == n - 1)) {
        base = n ? keep[0] : 0; /* consecutive after all: one stretch */
        keep = NULL;
    }
    /* o's value columns are shared, never copied (the transformed profile
     * costs its 4-byte stack ids, and 4-byte rows when samples were removed
     * from the middle): one stretch of o's samples reads o's columns from
     * row `base` on; else each kept sample says its row in value_rows (o's
     * row of it, when o itself reads its columns through rows) */
    if (keep && owned && !o->value_rows) {
        m->value_rows = owned; /* o's rows are its samples: keep says them */
    } else if (keep || o->value_rows) {
        m->value_rows = ss_alloc_array(n ? n : 1, sizeof *m->value_rows);
        if (!m->value_rows)
            return -1;
        if (keep && o->value_rows)
            for (size_t k = 0; k < n; k++)
                m->value_rows[k] = o->value_rows[keep[k]];
        else if (keep)
            memcpy(m->value_rows, keep, n * sizeof *keep);
        else if (n)
            memcpy(m->value_rows, o->value_rows + base, n * sizeof *m->value_rows);
    } else {
        m->values_base = base;
    }
    for (size_t t = 0; t < m->values.n; t++)
        free(m->values.v[t]);
    for (size_t t = 0; t < m->values.n; t++) {
        int64_t *c = t < o->values.n ? o->values.v[t] : NULL;
        m->values.v[t] = c ? c + (m->value_rows ? 0 : base) : NULL;
    }
    m->values_borrowed = 1;
    /* label sets: o's tables (the same ids), and each kept sample's set */
    if (VEC_RESERVE(m->labels, o->labels.n ? o->labels.n : 1) ||
        VEC_RESERVE(m->labelset_off, o->labelset_off.n) ||
        VEC_RESERVE(m->labelset_lab, o->labelset_lab.n ? o->labelset_lab.n : 1))
        return -1;
    if (o->labels.n) /* memcpy from a NULL vector is undefined even for 0 bytes */
        memcpy(m->labels.v, o->labels.v, o->labels.n * sizeof *o->labels.v);
    m->labels.n = o->labels.n;
    memcpy(m->labelset_off.v, o->labelset_off.v, o->labelset_off.n * sizeof *o->labelset_off.v);
    m->labelset_off.n = o->labelset_off.n;
    if (o->labelset_lab.n)
        memcpy(m->labelset_lab.v, o->labelset_lab.v, o->labelset_lab.n * sizeof *o->labelset_lab.v);
    m->labelset_lab.n = o->labelset_lab.n;
    m->sample_labels.n = 0;
    if (o->sample_labels.n && n) {
        if (VEC_RESERVE(m->sample_labels, m->sample_stack.cap))
            return -1;
        for (size_t k = 0; k < n; k++)
            m->sample_labels.v[k] = o->sample_labels.v[derived_orig(keep, base, k)];
        m->sample_labels.n = n;
    }
    if ((keep || o->gaps.n) && derive_gaps(m, o, keep, base, n))
        return -1;
    size_t k = 0;
    for (size_t s = 0; s < o->sources.n; s++) {
        struct ss_source src = o->sources.v[s];
        size_t end = src.first_sample + src.n_samples;
        /* the session's first recorded row, in m's rows (o's, or shifted
         * by base when m reads one stretch from row base on) */
        ptrdiff_t first_row = o->values_borrowed ? src.first_row : (ptrdiff_t)src.first_sample;
        src.first_row = first_row - (m->value_rows ? 0 : (ptrdiff_t)base);
        src.first_sample = k;
        /* k moves past the kept samples before `end`: by arithmetic for one
         * stretch, by binary search in keep (increasing) */
        if (!keep) {
            k = end <= base ? k : end - base < n ? end - base : n;
        } else {
            size_t lo = k, hi = n;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (keep[mid] < end)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            k = lo;
        }
        src.n_samples = k - src.first_sample;
        m->sources.v[m->sources.n++] = src;
    }
    return 0;
}

/* Add v to *sum unless v is negative or the sum would pass the limit. */
static int add_count(uint64_t *sum, int64_t v)
{
    uint64_t t;
    if (v < 0 || __builtin_add_overflow(*sum, (uint64_t)v, &t) || t > SS_MAX_COUNT_TOTAL)
        return -1;
    *sum = t;
    return 0;
}

int ss_model_check_aggs(const struct ss_model *m, const char *path, struct ss_error *err)
{
    uint64_t sum[3] = {m->count_total, m->count_total, m->count_total};
    static const char *const what[3] = {"self count", "total count", "call count"};
    for (size_t i = 0; i < m->aggs.n + m->edges.n; i++) {
        const struct ss_agg *a = i < m->aggs.n ? &m->aggs.v[i] : NULL;
        int64_t v[2] = {a ? a->self : m->edges.v[i - m->aggs.n].count, a ? a->total : 0};
        for (int k = 0; k < (a ? 2 : 1); k++) {
            int w = a ? k : 2;
            if (!add_count(&sum[w], v[k]))
                continue;
            if (v[k] < 0)
                return ss_fail(err, SS_EINPUT, "%s: negative %s %lld", path, what[w],
                               (long long)v[k]);
            return ss_fail(err, SS_EINPUT,
                           "%s: %s %lld makes the %ss add up past %llu, the largest total "
                           "stackscope sums",
                           path, what[w], (long long)v[k], what[w],
                           (unsigned long long)SS_MAX_COUNT_TOTAL);
        }
    }
    return 0;
}

void ss_model_warn(struct ss_model *m, const char *fmt, ...)
{
    struct ss_strbuf b = SS_STRBUF_INIT; /* a warning names a path, however long */
    va_list ap;
    va_start(ap, fmt);
    ss_strbuf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *s = ss_strbuf_take(&b);
    if (s && VEC_PUSH(m->warnings, s))
        free(s);
}

/* ---- questions about the model ------------------------------------------ */

ss_id ss_model_find_function(const struct ss_model *m, const char *name)
{
    ss_id id = ss_strtab_find(&m->strs, name, strlen(name));
    if (id == SS_NONE)
        return SS_NONE;
    for (size_t f = 0; f < m->functions.n; f++)
        if (m->functions.v[f].name == id)
            return (ss_id)f; /* the lowest such id: canonical */
    return SS_NONE;
}

static int any_source_flag(const struct ss_model *m, uint32_t flag, int set)
{
    for (size_t i = 0; i < m->sources.n; i++)
        if (!(m->sources.v[i].flags & flag) == !set)
            return 1;
    return 0;
}

int ss_model_has_memory(const struct ss_model *m)
{
    return any_source_flag(m, SS_SRC_MEMORY, 1);
}

int ss_model_has_lines(const struct ss_model *m)
{
    if (any_source_flag(m, SS_SRC_LINE, 1))
        return 1;
    for (size_t i = 0; i < m->locations.n; i++)
        if (m->locations.v[i].line)
            return 1;
    return 0;
}

int ss_model_has_aggregates(const struct ss_model *m)
{
    return any_source_flag(m, SS_SRC_AGGREGATE, 1);
}

int ss_model_has_stack_sources(const struct ss_model *m)
{
    return any_source_flag(m, SS_SRC_AGGREGATE, 0);
}

uint64_t ss_agg_samples(const struct ss_model *m, ss_id src)
{
    uint64_t n = 0;
    for (size_t i = 0; i < m->aggs.n; i++)
        if (m->aggs.v[i].source == src)
            n += (uint64_t)m->aggs.v[i].self;
    return n;
}

uint64_t ss_model_count(const struct ss_model *m, size_t first, size_t n)
{
    const int64_t *c = m->values.v[SS_VT_COUNT];
    if (!c)
        return n;
    uint64_t sum = 0;
    for (size_t i = first; i < first + n; i++)
        sum += (uint64_t)c[ss_sample_row(m, i)];
    return sum;
}

/* Add source s's part to t (samples, time, the measure; rows are the
 * caller's). */
static void add_source_totals(const struct ss_model *m, size_t s, struct ss_totals *t)
{
    const int64_t *cv = m->values.v[SS_VT_COUNT];
    const uint32_t *off = m->stack_off.v;
    const struct ss_source *src = &m->sources.v[s];
    double iv = ss_source_interval_s(m, (ss_id)s), sc = ss_source_scale(m, s);
    uint64_t counted = 0;
    int64_t weight = 0;
    if (src->flags & SS_SRC_AGGREGATE) {
        uint64_t a = ss_agg_samples(m, (ss_id)s);
        t->agg_samples += a;
        t->agg_time += (double)a * iv;
        t->agg_value += (double)a * sc;
        t->samples += a;
        counted += a;
        weight += (int64_t)a;
    }
    for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
        ss_id st = m->sample_stack.v[i];
        uint64_t c = cv ? (uint64_t)cv[ss_sample_row(m, i)] : 1;
        t->samples += c;
        if (off[st + 1] > off[st]) {
            counted += c;
            weight += ss_sample_weight(m, i);
        } else if (m->stack_tail.v[st] == SS_NONE) {
            t->empty_rows++;
        }
    }
    t->counted += counted;
    t->sampling_time += (double)counted * iv;
    t->value += (double)weight * sc;
}

void ss_model_totals(const struct ss_model *m, struct ss_totals *t)
{
    memset(t, 0, sizeof *t);
    t->rows = m->sample_stack.n;
    for (size_t s = 0; s < m->sources.n; s++)
        add_source_totals(m, s, t);
}

void ss_source_totals(const struct ss_model *m, ss_id src, struct ss_totals *t)
{
    memset(t, 0, sizeof *t);
    t->rows = m->sources.v[src].n_samples;
    add_source_totals(m, src, t);
}

void ss_basename(const char *path, const char **start, size_t *len)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    size_t b = n;
    while (b > 0 && path[b - 1] != '/')
        b--;
    if (n == 1 && path[0] == '/')
        b = 0;
    *start = path + b;
    *len = n - b;
}

/* ---- lookups -------------------------------------------------------------- */

ss_id ss_sample_source(const struct ss_model *m, size_t i)
{
    size_t lo = 0, hi = m->sources.n;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->sources.v[mid].first_sample <= i)
            lo = mid;
        else
            hi = mid;
    }
    return (ss_id)lo;
}

/* Merge locations that became equal after a loader changed them in place,
 * then stacks that became equal through that, and point samples at the
 * survivors: the tables stay duplicate-free.  Compacts in place (survivors
 * move only towards the front). */
int ss_model_reindex_locations(struct ss_model *m)
{
    return ss_model_reindex_locations_map(m, NULL, NULL);
}

int ss_model_reindex_locations_map(struct ss_model *m, ss_id *loc_map, ss_id *stack_map)
{
    size_t nl = m->locations.n, ns = ss_model_nstacks(m);
    ss_id *lcanon = ss_alloc_array(nl, sizeof *lcanon);
    ss_id *scanon = ss_alloc_array(ns, sizeof *scanon);
    uint32_t *old_off = ss_alloc_array(ns + 1, sizeof *old_off);
    struct ss_idset *lh = idhash_new(), *sh = idhash_new();
    int rc = -1;
    if (!lcanon || !scanon || !old_off || !lh || !sh)
        goto out;
    size_t k = 0;
    for (size_t i = 0; i < nl; i++) {
        struct ss_location l = m->locations.v[i];
        uint64_t hv = loc_hash(&l);
        size_t slot;
        if (ss_idset_reserve(lh, 1))
            goto out;
        ss_id id = ss_idset_find(lh, hv, loc_eq, m, &l, &slot);
        if (id == SS_NONE) {
            m->locations.v[k] = l;
            ss_idset_insert(lh, slot, hv, (uint32_t)k);
            id = (ss_id)k++;
        }
        lcanon[i] = id;
    }
    m->locations.n = k;
    idhash_free(m->loc_index);
    m->loc_index = lh;
    lh = NULL;
    if (k == nl) {
        for (size_t i = 0; i < nl && loc_map; i++)
            loc_map[i] = (ss_id)i;
        for (size_t i = 0; i < ns && stack_map; i++)
            stack_map[i] = (ss_id)i;
        rc = 0;
        goto out;
    }
    for (size_t i = 0; i < m->stack_loc.n; i++)
        m->stack_loc.v[i] = lcanon[m->stack_loc.v[i]];
    for (size_t i = 0; i < ns; i++)
        if (m->stack_tail.v[i] != SS_NONE)
            m->stack_tail.v[i] = lcanon[m->stack_tail.v[i]];
    memcpy(old_off, m->stack_off.v, (ns + 1) * sizeof *old_off);
    size_t ks = 0, pos = 0;
    m->stack_off.n = 1;
    m->stack_tail.n = 0;
    for (size_t s = 0; s < ns; s++) {
        size_t n = old_off[s + 1] - old_off[s];
        ss_id tail = m->stack_tail.v[s];
        /* The candidate's frames are still at their old place (>= pos). */
        struct stack_key key = {m->stack_loc.v + old_off[s], n, tail};
        uint64_t hv = (n ? ss_hash(key.locs, n * sizeof(ss_id)) : 0) ^ ss_mix64(tail);
        size_t slot;
        if (ss_idset_reserve(sh, 1))
            goto out;
        m->stack_tail.n = ks; /* stack_eq sees only the survivors */
        ss_id id = ss_idset_find(sh, hv, stack_eq, m, &key, &slot);
        if (id == SS_NONE) {
            if (n)
                memmove(m->stack_loc.v + pos, key.locs, n * sizeof(ss_id));
            pos += n;
            m->stack_off.v[ks + 1] = (uint32_t)pos;
            m->stack_tail.v[ks] = tail;
            ss_idset_insert(sh, slot, hv, (uint32_t)ks);
            id = (ss_id)ks++;
        }
        scanon[s] = id;
    }
    m->stack_loc.n = pos;
    m->stack_off.n = ks + 1;
    m->stack_tail.n = ks;
    for (size_t i = 0; i < m->sample_stack.n; i++)
        m->sample_stack.v[i] = scanon[m->sample_stack.v[i]];
    if (loc_map && nl)
        memcpy(loc_map, lcanon, nl * sizeof *loc_map);
    if (stack_map && ns)
        memcpy(stack_map, scanon, ns * sizeof *stack_map);
    idhash_free(m->stack_index);
    m->stack_index = sh;
    sh = NULL;
    rc = 0;
out:
    free(lcanon);
    free(scanon);
    free(old_off);
    idhash_free(lh);
    idhash_free(sh);
    return rc;
}

int ss_stack_counts_init(struct ss_stack_counts *sc, const struct ss_model *m)
{
    size_t ns = ss_model_nstacks(m);
    memset(sc, 0, sizeof *sc);
    sc->cnt = ss_calloc_array(ns, sizeof *sc->cnt);
    sc->val = ss_calloc_array(ns, sizeof *sc->val);
    sc->seen = calloc(ns ? ns : 1, 1);
    if (sc->cnt && sc->val && sc->seen)
        return 0;
    ss_stack_counts_free(sc);
    return -1;
}

/* Count samples [lo, hi) into sc, its previous counts cleared. */
static int counts_range(struct ss_stack_counts *sc, const struct ss_model *m, size_t lo, size_t hi)
{
    for (size_t t = 0; t < sc->n; t++) {
        ss_id st = sc->touched[t];
        sc->cnt[st] = 0;
        sc->val[st] = 0;
        sc->seen[st] = 0;
    }
    sc->n = 0;
    for (size_t i = lo; i < hi; i++) {
        if ((i & 0xffff) == 0 && sc->stop && atomic_load(sc->stop))
            return -1;
        ss_id st = m->sample_stack.v[i];
        if (!sc->seen[st]) {
            if (ss_grow((void **)&sc->touched, &sc->cap, sc->n + 1, sizeof *sc->touched))
                return -1;
            sc->touched[sc->n++] = st;
            sc->seen[st] = 1;
        }
        sc->cnt[st] += (uint64_t)ss_sample_count(m, i);
        sc->val[st] += ss_sample_weight(m, i);
    }
    return 0;
}

/* A long source is counted in parts on as many threads (STACKSCOPE_THREADS,
 * else the processors online, at most COUNTS_MAX_PARTS), a part of at
 * least COUNTS_PART samples each, when its stacks are few against its
 * samples (each part has arrays as long as the stacks, and the parts'
 * counts are added up stack by stack).  At 10M samples it was most of a
 * key's time in the explorer. */
#define COUNTS_MAX_PARTS 8
#define COUNTS_PART ((size_t)1 << 20)

struct counts_job {
    struct ss_stack_counts *sc;
    const struct ss_model *m;
    size_t lo, hi;
    int rc;
};

static void *counts_thread(void *arg)
{
    struct counts_job *j = arg;
    j->rc = counts_range(j->sc, j->m, j->lo, j->hi);
    return NULL;
}

static unsigned counts_parts(size_t n, size_t nstacks)
{
    if (n < 2 * COUNTS_PART || nstacks > n / 8)
        return 1;
    unsigned t = ss_threads(COUNTS_MAX_PARTS);
    return (size_t)t > n / COUNTS_PART ? (unsigned)(n / COUNTS_PART) : t;
}

int ss_stack_counts_source(struct ss_stack_counts *sc, const struct ss_model *m, ss_id src)
{
    const struct ss_source *so = &m->sources.v[src];
    size_t lo = so->first_sample, n = so->n_samples;
    unsigned parts = counts_parts(n, ss_model_nstacks(m));
    if (parts > 1 && sc->nmore < parts - 1) { /* the other parts' scratch, kept */
        struct ss_stack_counts *more = ss_calloc_array(parts - 1, sizeof *more);
        size_t k = 0;
        while (more && k < parts - 1 && ss_stack_counts_init(&more[k], m) == 0)
            k++;
        if (!more || k < parts - 1) {
            for (size_t j = 0; more && j < k; j++)
                ss_stack_counts_free(&more[j]);
            free(more);
            parts = 1; /* short of memory: one part */
        } else {
            for (size_t j = 0; j < sc->nmore; j++)
                ss_stack_counts_free(&sc->more[j]);
            free(sc->more);
            sc->more = more;
            sc->nmore = parts - 1;
        }
    }
    if (parts <= 1)
        return counts_range(sc, m, lo, lo + n);
    struct counts_job job[COUNTS_MAX_PARTS];
    pthread_t th[COUNTS_MAX_PARTS];
    int started[COUNTS_MAX_PARTS] = {0};
    for (unsigned k = 1; k < parts; k++)
        sc->more[k - 1].stop = sc->stop;
    for (unsigned k = 0; k < parts; k++) {
        job[k].sc = k ? &sc->more[k - 1] : sc;
        job[k].m = m;
        job[k].lo = lo + n / parts * k;
        job[k].hi = k + 1 == parts ? lo + n : lo + n / parts * (k + 1);
        job[k].rc = 0;
    }
    for (unsigned k = 1; k < parts; k++)
        started[k] = pthread_create(&th[k], NULL, counts_thread, &job[k]) == 0;
    int rc = counts_range(sc, m, job[0].lo, job[0].hi);
    for (unsigned k = 1; k < parts; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            counts_thread(&job[k]); /* no thread: here */
        rc = rc || job[k].rc;
    }
    /* the parts in order: a stack first hit in a later part comes after
     * those of the parts before, as one pass would list it */
    for (unsigned k = 1; !rc && k < parts; k++) {
        const struct ss_stack_counts *p = job[k].sc;
        for (size_t t = 0; t < p->n; t++) {
            ss_id st = p->touched[t];
            if (!sc->seen[st]) {
                if (ss_grow((void **)&sc->touched, &sc->cap, sc->n + 1, sizeof *sc->touched))
                    return -1;
                sc->touched[sc->n++] = st;
                sc->seen[st] = 1;
            }
            sc->cnt[st] += p->cnt[st];
            sc->val[st] += p->val[st];
        }
    }
    return rc ? -1 : 0;
}

void ss_stack_counts_free(struct ss_stack_counts *sc)
{
    free(sc->cnt);
    free(sc->val);
    free(sc->seen);
    free(sc->touched);
    for (size_t k = 0; k < sc->nmore; k++)
        ss_stack_counts_free(&sc->more[k]);
    free(sc->more);
    memset(sc, 0, sizeof *sc);
}

size_t ss_model_gap_first(const struct ss_model *m, size_t i)
{
    size_t lo = 0, hi = m->gaps.n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->gaps.v[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int ss_model_gap_before(const struct ss_model *m, size_t i)
{
    size_t g = ss_model_gap_first(m, i);
    return g < m->gaps.n && m->gaps.v[g] == i;
}

uint64_t ss_source_samples(const struct ss_model *m, ss_id src)
{
    const struct ss_source *s = &m->sources.v[src];
    if (s->flags & SS_SRC_AGGREGATE)
        return ss_agg_samples(m, src);
    return ss_model_count(m, s->first_sample, s->n_samples);
}

const char *ss_model_count_name(const struct ss_model *m, char *buf, size_t n)
{
    snprintf(buf, n, "samples");
    /* the first pprof source's sample types, in the file's order */
    ss_id key = ss_strtab_find(&m->strs, "sample_type", 11), src = SS_NONE;
    const char *first_count = NULL;
    for (size_t i = 0; key != SS_NONE && i < m->meta.n; i++) {
        const struct ss_meta *e = &m->meta.v[i];
        if (e->key != key || (src != SS_NONE && e->source != src))
            continue;
        src = e->source;
        const char *t = ss_str(m, e->value), *slash = strrchr(t, '/');
        if (!slash)
            continue;
        if ((size_t)(slash - t) == 7 && !strncmp(t, "samples", 7))
            return buf;
        if (!first_count && !strcmp(slash + 1, "count"))
            first_count = t;
    }
    if (first_count) /* "alloc_objects/count": the type */
        snprintf(buf, n, "%.*s", (int)(strrchr(first_count, '/') - first_count), first_count);
    return buf;
}

int ss_model_has_time_order(const struct ss_model *m)
{
    for (size_t s = 0; s < m->sources.n; s++)
        if (!(m->sources.v[s].flags & (SS_SRC_AGGREGATE | SS_SRC_UNORDERED)) &&
            m->sources.v[s].n_samples)
            return 1;
    return 0;
}

/* ---- inline marks -------------------------------------------------------- */

const char *ss_inline_label(int mark)
{
    return mark == SS_INLINE_FULL      ? "(inline)"
           : mark == SS_INLINE_PARTIAL ? "(partial-inline)"
                                       : "";
}

/* The calls of stack s into edges: (caller << 32 | callee) -> 1 inlined
 * seen, 2 not inlined seen (bits), each pair once per stack from the root
 * (pprof's graph: the first occurrence sets the edge for the sample). */
typedef VEC(uint8_t) bytevec;

static int inline_edges(const struct ss_model *m, ss_id s, struct ss_u64map *edges, bytevec *fl)
{
    const ss_id *fr = ss_stack_frames(m, s);
    size_t d = ss_stack_depth(m, s);
    for (size_t k = d; k-- > 1;) {
        ss_id caller = ss_function_canonical(m, ss_loc_function(m, fr[k]));
        ss_id callee = ss_function_canonical(m, ss_loc_function(m, fr[k - 1]));
        if (caller == callee)
            continue;
        int again = 0;
        for (size_t q = d - 1; q > k && !again; q--)
            again = ss_function_canonical(m, ss_loc_function(m, fr[q])) == caller &&
                    ss_function_canonical(m, ss_loc_function(m, fr[q - 1])) == callee;
        if (again)
            continue;
        uint32_t e = ss_u64map_intern(edges, (uint64_t)caller << 32 | callee, (uint32_t)fl->n);
        if (e == SS_NONE || (e == fl->n && VEC_PUSH(*fl, 0)))
            return -1;
        fl->v[e] |= m->locations.v[fr[k - 1]].flags & SS_LOC_INLINE ? 1 : 2;
    }
    return 0;
}

int ss_model_inline_marks(const struct ss_model *m, uint8_t *mark)
{
    size_t nf = m->functions.n, ns = ss_model_nstacks(m), any = 0;
    memset(mark, SS_INLINE_NONE, nf);
    for (size_t l = 0; l < m->locations.n && !any; l++)
        any = (m->locations.v[l].flags & SS_LOC_INLINE) != 0;
    if (!any)
        return 0;
    uint8_t *used = ss_calloc_array(ns ? ns : 1, 1);
    struct ss_u64map edges = {0};
    bytevec fl = {0};
    int rc = used ? 0 : -1;
    for (size_t i = 0; !rc && i < m->sample_stack.n; i++)
        used[m->sample_stack.v[i]] = 1;
    for (size_t s = 0; !rc && s < ns; s++)
        if (used[s])
            rc = inline_edges(m, (ss_id)s, &edges, &fl);
    /* per callee: an edge only inlined makes it inline, one ever not
     * inlined makes it not; both: partial */
    uint8_t *how = rc ? NULL : ss_calloc_array(nf ? nf : 1, 1);
    for (size_t k = 0; how && k < edges.cap; k++) {
        const struct ss_u64slot *sl = &edges.slot[k];
        if (sl->val != SS_NONE)
            how[(uint32_t)sl->key] |= fl.v[sl->val] == 1 ? 1 : 2;
    }
    any = 0;
    for (size_t f = 0; how && f < nf; f++) {
        mark[f] = how[f] == 1 ? SS_INLINE_FULL : how[f] == 3 ? SS_INLINE_PARTIAL : SS_INLINE_NONE;
        any |= mark[f] != SS_INLINE_NONE;
    }
    rc = rc || !how ? -1 : any != 0;
    free(how);
    free(used);
    ss_u64map_free(&edges);
    VEC_FREE(fl);
    return rc;
}
