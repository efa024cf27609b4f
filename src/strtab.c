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
    ss_idset_free(&t->index);
    ss_strtab_init(t);
}

struct str_key {
    const char *s;
    size_t len;
};

static int str_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct ss_strtab *t = ctx;
    const struct str_key *k = key;
    return t->len[id] == k->len && memcmp(t->buf + t->off[id], k->s, k->len) == 0;
}

uint32_t ss_strtab_find(const struct ss_strtab *t, const char *s, size_t len)
{
    struct str_key k = {s, len};
    size_t pos;
    return ss_idset_find(&t->index, ss_hash(s, len), str_eq, t, &k, &pos);
}

uint32_t ss_strtab_intern(struct ss_strtab *t, const char *s, size_t len)
{
    if (len >= SS_STR_MAX || t->n >= SS_NONE - 1)
        return SS_NONE;
    if (ss_idset_reserve(&t->index, 1))
        return SS_NONE;
    uint64_t h = ss_hash(s, len);
    struct str_key k = {s, len};
    size_t pos;
    uint32_t found = ss_idset_find(&t->index, h, str_eq, t, &k, &pos);
    if (found != SS_NONE)
        return found;
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
    ss_idset_insert(&t->index, pos, h, id);
    return id;
}

/* Copy n elements of size sz (n may be 0: then no allocation). */
static int dup_array(void **dst, const void *src, size_t n, size_t sz)
{
    *dst = NULL;
    if (n == 0)
        return 0;
    *dst = ss_alloc_array(n, sz);
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
        ss_idset_copy(&dst->index, &src->index)) {
        ss_strtab_free(dst);
        return -1;
    }
    dst->buf_n = dst->buf_cap = src->buf_n;
    dst->n = dst->cap = src->n;
    return 0;
}
