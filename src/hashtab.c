/* hashtab.c - growth of the two hash tables (see hashtab.h). */
#include "hashtab.h"
#include "vec.h"

#include <stdlib.h>
#include <string.h>

/* The slot count for n + more entries at most half full: 0 on overflow or
 * past SS_HASHTAB_MAX, else a power of two >= 16 and >= cap. */
static size_t want_cap(size_t cap, size_t n, size_t more)
{
    if (more > SS_HASHTAB_MAX || n > SS_HASHTAB_MAX - more)
        return 0;
    size_t need = (n + more) * 2; /* <= 2^32 slots */
    size_t c = cap ? cap : 16;
    while (c < need)
        c *= 2;
    return c;
}

void ss_u64map_free(struct ss_u64map *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}

int ss_u64map_grow(struct ss_u64map *m, size_t more)
{
    size_t cap = want_cap(m->cap, m->n, more);
    if (!cap)
        return -1;
    if (cap == m->cap)
        return 0;
    if (cap > SIZE_MAX / sizeof(struct ss_u64slot))
        return -1;
    struct ss_u64slot *slot = ss_alloc_array(cap, sizeof *slot);
    if (!slot)
        return -1;
    for (size_t i = 0; i < cap; i++)
        slot[i].val = SS_NONE;
    struct ss_u64map nm = {slot, cap, m->n};
    for (size_t i = 0; i < m->cap; i++) {
        if (m->slot[i].val == SS_NONE)
            continue;
        size_t j = ss_u64map_home(&nm, m->slot[i].key);
        while (slot[j].val != SS_NONE)
            j = (j + 1) & (cap - 1);
        slot[j] = m->slot[i];
    }
    free(m->slot);
    *m = nm;
    return 0;
}

void ss_idset_free(struct ss_idset *s)
{
    free(s->slot);
    memset(s, 0, sizeof *s);
}

void ss_idset_clear(struct ss_idset *s)
{
    if (s->cap)
        memset(s->slot, 0xff, s->cap * sizeof *s->slot); /* id = SS_NONE */
    s->n = 0;
}

int ss_idset_grow(struct ss_idset *s, size_t more)
{
    size_t cap = want_cap(s->cap, s->n, more);
    if (!cap)
        return -1;
    if (cap == s->cap)
        return 0;
    if (cap > SIZE_MAX / sizeof(struct ss_idslot))
        return -1;
    struct ss_idslot *slot = ss_alloc_array(cap, sizeof *slot);
    if (!slot)
        return -1;
    memset(slot, 0xff, cap * sizeof *slot);
    for (size_t i = 0; i < s->cap; i++) {
        if (s->slot[i].id == SS_NONE)
            continue;
        size_t j = s->slot[i].hash & (cap - 1);
        while (slot[j].id != SS_NONE)
            j = (j + 1) & (cap - 1);
        slot[j] = s->slot[i];
    }
    free(s->slot);
    s->slot = slot;
    s->cap = cap;
    return 0;
}

int ss_idset_copy(struct ss_idset *dst, const struct ss_idset *src)
{
    memset(dst, 0, sizeof *dst);
    if (!src->cap)
        return 0;
    dst->slot = ss_alloc_array(src->cap, sizeof *dst->slot);
    if (!dst->slot)
        return -1;
    memcpy(dst->slot, src->slot, src->cap * sizeof *dst->slot);
    dst->cap = src->cap;
    dst->n = src->n;
    return 0;
}
