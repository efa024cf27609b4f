/* vec.h - one typed growable-array helper for the whole core.
 *
 * A vector is three fields inside a struct: `T *v; size_t n, cap;`.  VEC_PUSH
 * grows geometrically and returns 0, or -1 when memory runs out (the caller
 * turns that into an ss_error).  The owner frees `v` with free().
 */
#ifndef SS_VEC_H
#define SS_VEC_H

#include <stddef.h>
#include <stdlib.h>

/* Make room for at least `need` elements of size `sz` in *pv (capacity *pcap).
 * Returns 0 on success, -1 on allocation failure or size overflow; *pv is
 * unchanged on failure. */
static inline int ss_grow(void **pv, size_t *pcap, size_t need, size_t sz)
{
    if (need <= *pcap)
        return 0;
    size_t cap = *pcap ? *pcap : 16;
    while (cap < need) {
        if (cap > ((size_t)-1) / 2 / sz)
            return -1;
        cap *= 2;
    }
    void *nv = realloc(*pv, cap * sz);
    if (!nv)
        return -1;
    *pv = nv;
    *pcap = cap;
    return 0;
}

#define VEC(T)                                                                                     \
    struct {                                                                                       \
        T *v;                                                                                      \
        size_t n, cap;                                                                             \
    }

#define VEC_RESERVE(vec, need) ss_grow((void **)&(vec).v, &(vec).cap, (need), sizeof(*(vec).v))

#define VEC_PUSH(vec, x) (VEC_RESERVE((vec), (vec).n + 1) ? -1 : ((vec).v[(vec).n++] = (x), 0))

#define VEC_FREE(vec)                                                                              \
    do {                                                                                           \
        free((vec).v);                                                                             \
        (vec).v = NULL;                                                                            \
        (vec).n = (vec).cap = 0;                                                                   \
    } while (0)

#endif
