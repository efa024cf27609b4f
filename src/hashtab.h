/* hashtab.h - the core's one hash table, in two flavours.
 *
 * Both flavours are open-addressing tables with linear probing. The number of
 * slots is 0 or a power of two, and a table is at most half full: it doubles
 * before an insertion would take it past half. Neither flavour holds the
 * caller's records. They map keys to 32-bit ids that index the caller's own
 * arrays. The caller picks the ids, usually in insertion order, so ids and
 * output never depend on the table's size or probe order.
 *
 *  - ss_u64map maps a 64-bit key (any value) to a 32-bit value (anything but
 *    SS_NONE). Use it for keys that fit in 64 bits: pprof ids, (parent, child)
 *    pairs, (from, to) edges.
 *  - ss_idset is a set of ids whose keys live in the caller's tables. The
 *    caller gives the 64-bit hash of a key and an equality test between a key
 *    and an id. Use it for find-or-add of variable-size keys: strings, stacks,
 *    sample lines.
 *
 * Ownership: a zeroed struct is an empty table and owns no memory. The table
 * owns only its slot array; *_free releases it and leaves an empty table.
 *
 * Sizes are checked: a table holds at most SS_HASHTAB_MAX entries (2^31), and
 * growth that would pass that, or overflow size_t, fails like an allocation
 * failure (-1 or SS_NONE, with the table unchanged).
 *
 * Lookups are static inline, so a constant equality function is inlined into
 * the probe loop (the Rprof line cache and the model's stack index are the
 * hottest users). Growth is in hashtab.c.
 */
#ifndef SS_HASHTAB_H
#define SS_HASHTAB_H

#include <stddef.h>
#include <stdint.h>

#include "hash.h"

#define SS_NONE UINT32_MAX /* as in strtab.h: "no id", an empty slot */

#define SS_HASHTAB_MAX ((size_t)1 << 31) /* entries per table, at most */

/* ---- u64 key -> 32-bit value ------------------------------------------------ */

struct ss_u64slot {
    uint64_t key;
    uint32_t val; /* SS_NONE: empty slot */
};

struct ss_u64map {
    struct ss_u64slot *slot; /* cap slots */
    size_t cap;              /* 0 or a power of two */
    size_t n;                /* keys stored */
};

/* Release the slots; m is an empty map afterwards. */
void ss_u64map_free(struct ss_u64map *m);

/* The slow path of ss_u64map_reserve: allocate the new slots and move the
 * keys over. */
int ss_u64map_grow(struct ss_u64map *m, size_t more);

/* Make room for `more` keys beyond the n stored, without further growth.
 * Returns 0, or -1 when memory runs out or the size would pass
 * SS_HASHTAB_MAX (m is then unchanged). */
static inline int ss_u64map_reserve(struct ss_u64map *m, size_t more)
{
    return more <= m->cap / 2 - m->n ? 0 : ss_u64map_grow(m, more);
}

/* The slot where key's probe starts (m must have slots): ss_mix64(key)'s
 * low bits. */
static inline size_t ss_u64map_home(const struct ss_u64map *m, uint64_t key)
{
    return (size_t)ss_mix64(key) & (m->cap - 1);
}

/* The value stored for key, or SS_NONE. */
static inline uint32_t ss_u64map_get(const struct ss_u64map *m, uint64_t key)
{
    if (!m->cap)
        return SS_NONE;
    size_t mask = m->cap - 1;
    for (size_t i = ss_u64map_home(m, key);; i = (i + 1) & mask) {
        const struct ss_u64slot *s = &m->slot[i];
        if (s->val == SS_NONE || s->key == key)
            return s->val;
    }
}

/* Find or add: the value stored for key; when key is absent, store val (not
 * SS_NONE) and return it.  So the result is val exactly when key was new
 * (given val is a fresh id).  Returns SS_NONE, with m unchanged, when the
 * map cannot grow. */
static inline uint32_t ss_u64map_intern(struct ss_u64map *m, uint64_t key, uint32_t val)
{
    if (ss_u64map_reserve(m, 1))
        return SS_NONE;
    size_t mask = m->cap - 1;
    for (size_t i = ss_u64map_home(m, key);; i = (i + 1) & mask) {
        struct ss_u64slot *s = &m->slot[i];
        if (s->val == SS_NONE) {
            s->key = key;
            s->val = val;
            m->n++;
            return val;
        }
        if (s->key == key)
            return s->val;
    }
}

/* ---- a set of ids, keyed by the caller ------------------------------------ */

struct ss_idslot {
    uint32_t id;   /* SS_NONE: empty slot */
    uint32_t hash; /* low 32 bits of the key's hash: most mismatches skip eq */
};

struct ss_idset {
    struct ss_idslot *slot; /* cap slots */
    size_t cap;             /* 0 or a power of two, at most 2^32 */
    size_t n;               /* ids stored */
};

/* Does the key `key` equal the key of `id`?  ctx is the caller's tables. */
typedef int (*ss_idset_eq)(const void *ctx, uint32_t id, const void *key);

/* Release the slots; s is an empty set afterwards. */
void ss_idset_free(struct ss_idset *s);

/* Remove every id and keep the slots (for a set refilled many times). */
void ss_idset_clear(struct ss_idset *s);

/* The slow path of ss_idset_reserve: allocate the new slots and move the
 * ids over (by their stored hash bits). */
int ss_idset_grow(struct ss_idset *s, size_t more);

/* Make room for `more` ids beyond the n stored, without further growth.
 * Returns 0, or -1 when memory runs out or the size would pass
 * SS_HASHTAB_MAX (s is then unchanged). */
static inline int ss_idset_reserve(struct ss_idset *s, size_t more)
{
    return more <= s->cap / 2 - s->n ? 0 : ss_idset_grow(s, more);
}

/* Make dst an independent copy of src.  dst is overwritten, not freed
 * first.  Returns 0, or -1 when memory runs out (dst is then empty). */
int ss_idset_copy(struct ss_idset *dst, const struct ss_idset *src);

/* The id whose key equals `key` (hash: its 64-bit hash), or SS_NONE.  On
 * SS_NONE, *pos is the empty slot where the key belongs: pass it to
 * ss_idset_insert.  A position is valid only when the set had room for one
 * more id before this call (ss_idset_reserve(s, 1)) and s has not changed
 * since.  An empty set with no slots gives SS_NONE and *pos = 0. */
static inline uint32_t ss_idset_find(const struct ss_idset *s, uint64_t hash, ss_idset_eq eq,
                                     const void *ctx, const void *key, size_t *pos)
{
    if (!s->cap) {
        *pos = 0;
        return SS_NONE;
    }
    size_t mask = s->cap - 1;
    uint32_t h = (uint32_t)hash;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        const struct ss_idslot *sl = &s->slot[i];
        if (sl->id == SS_NONE) {
            *pos = i;
            return SS_NONE;
        }
        if (sl->hash == h && eq(ctx, sl->id, key))
            return sl->id;
    }
}

/* Store id (not SS_NONE) at *pos from a failed ss_idset_find with the same
 * hash (see there for when *pos is valid).  The caller must make id's key
 * equal to the key it looked up before the next lookup. */
static inline void ss_idset_insert(struct ss_idset *s, size_t pos, uint64_t hash, uint32_t id)
{
    s->slot[pos].id = id;
    s->slot[pos].hash = (uint32_t)hash;
    s->n++;
}

/* Find or add: the id whose key equals `key`; when there is none, store id
 * and return it (so the result is id exactly when the key was new, given id
 * is a fresh id).  Returns SS_NONE, with s unchanged, when the set cannot
 * grow.  As for ss_idset_insert, id's key must equal `key` before the next
 * lookup. */
static inline uint32_t ss_idset_intern(struct ss_idset *s, uint64_t hash, ss_idset_eq eq,
                                       const void *ctx, const void *key, uint32_t id)
{
    size_t pos;
    if (ss_idset_reserve(s, 1))
        return SS_NONE;
    uint32_t old = ss_idset_find(s, hash, eq, ctx, key, &pos);
    if (old != SS_NONE)
        return old;
    ss_idset_insert(s, pos, hash, id);
    return id;
}

#endif
