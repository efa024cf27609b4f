/* strtab.c - interned strings (see strtab.h). */
#include "strtab.h"

#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "vec.h"

#define SS_STR_MAX (1u << 30)

void ss_strtab_init(struct ss_strtab *t)
{
    memset(t, 0, sizeof *t);
}

void ss_strtab_free(struct ss_strtab *t)
{
    free(t->buf);
    free(t->off);
    free(t->len);
    free(t->slots);
    free(t->slot_hash);
    ss_strtab_init(t);
}

static size_t probe(const struct ss_strtab *t, const char *s, size_t len, uint64_t h)
{
    size_t mask = t->nslots - 1;
    size_t i = (size_t)h & mask;
    uint32_t h32 = (uint32_t)h;
    for (;;) {
        uint32_t id = t->slots[i];
        if (id == SS_NONE)
            return i;
        if (t->slot_hash[i] == h32 && t->len[id] == len &&
            memcmp(t->buf + t->off[id], s, len) == 0)
            return i;
        i = (i + 1) & mask;
    }
}

static int rehash(struct ss_strtab *t, size_t nslots)
{
    uint32_t *slots = malloc(nslots * sizeof *slots);
    uint32_t *hashes = malloc(nslots * sizeof *hashes);
    if (!slots || !hashes) {
        free(slots);
        free(hashes);
        return -1;
    }
    memset(slots, 0xff, nslots * sizeof *slots);
    size_t mask = nslots - 1;
    for (uint32_t id = 0; id < t->n; id++) {
        uint64_t h = ss_hash(t->buf + t->off[id], t->len[id]);
        size_t i = (size_t)h & mask;
        while (slots[i] != SS_NONE)
            i = (i + 1) & mask;
        slots[i] = id;
        hashes[i] = (uint32_t)h;
    }
    free(t->slots);
    free(t->slot_hash);
    t->slots = slots;
    t->slot_hash = hashes;
    t->nslots = nslots;
    return 0;
}

uint32_t ss_strtab_find(const struct ss_strtab *t, const char *s, size_t len)
{
    if (!t->nslots)
        return SS_NONE;
    size_t i = probe(t, s, len, ss_hash(s, len));
    return t->slots[i];
}

uint32_t ss_strtab_intern(struct ss_strtab *t, const char *s, size_t len)
{
    if (len >= SS_STR_MAX || t->n >= SS_NONE - 1)
        return SS_NONE;
    if ((t->n + 1) * 2 > t->nslots && rehash(t, t->nslots ? t->nslots * 2 : 256))
        return SS_NONE;
    uint64_t h = ss_hash(s, len);
    size_t i = probe(t, s, len, h);
    if (t->slots[i] != SS_NONE)
        return t->slots[i];
    /* s may point into buf (re-interning a stored string); remember where. */
    ptrdiff_t inside = (t->buf && s >= t->buf && s < t->buf + t->buf_n) ? s - t->buf : -1;
    if (ss_grow((void **)&t->buf, &t->buf_cap, t->buf_n + len + 1, 1))
        return SS_NONE;
    if (inside >= 0)
        s = t->buf + inside;
    if (t->n == t->cap) {
        size_t cap = t->cap;
        if (ss_grow((void **)&t->off, &cap, t->n + 1, sizeof *t->off))
            return SS_NONE;
        size_t cap2 = t->cap;
        if (ss_grow((void **)&t->len, &cap2, t->n + 1, sizeof *t->len))
            return SS_NONE;
        t->cap = cap < cap2 ? cap : cap2;
    }
    uint32_t id = (uint32_t)t->n++;
    t->off[id] = t->buf_n;
    t->len[id] = (uint32_t)len;
    memcpy(t->buf + t->buf_n, s, len);
    t->buf[t->buf_n + len] = '\0';
    t->buf_n += len + 1;
    t->slots[i] = id;
    t->slot_hash[i] = (uint32_t)h;
    return id;
}

/* Copy n elements of size sz (n may be 0: then no allocation). */
static int dup_array(void **dst, const void *src, size_t n, size_t sz)
{
    *dst = NULL;
    if (n == 0)
        return 0;
    *dst = malloc(n * sz);
    if (!*dst)
        return -1;
    memcpy(*dst, src, n * sz);
    return 0;
}

int ss_strtab_copy(struct ss_strtab *dst, const struct ss_strtab *src)
{
    ss_strtab_init(dst);
    if (dup_array((void **)&dst->buf, src->buf, src->buf_n, 1) ||
        dup_array((void **)&dst->off, src->off, src->n, sizeof *src->off) ||
        dup_array((void **)&dst->len, src->len, src->n, sizeof *src->len) ||
        dup_array((void **)&dst->slots, src->slots, src->nslots, sizeof *src->slots) ||
        dup_array((void **)&dst->slot_hash, src->slot_hash, src->nslots, sizeof *src->slot_hash)) {
        ss_strtab_free(dst);
        return -1;
    }
    dst->buf_n = dst->buf_cap = src->buf_n;
    dst->n = dst->cap = src->n;
    dst->nslots = src->nslots;
    return 0;
}
