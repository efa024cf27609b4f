/* vec.h - one typed growable-array helper for the whole core, and the
 * overflow-checked array allocations every module uses.
 *
 * A vector is three fields inside a struct: `T *v; size_t n, cap;`.  VEC_PUSH
 * grows geometrically and returns 0, or -1 when memory runs out (the caller
 * turns that into an ss_error).  The owner frees `v` with free().
 */
#ifndef SS_VEC_H
#define SS_VEC_H

#include <stddef.h>
#include <stdlib.h>

/* Arrays of SS_BIG_ARRAY bytes or more (a model's columns at millions of
 * samples) ask the kernel for huge pages (madvise MADV_HUGEPAGE, where
 * transparent huge pages are "madvise"): the first touch of each 4 KB page
 * of a fresh array is a page fault, and at 10M samples those faults took
 * two thirds of a load on a virtual machine whose page faults are dear. */
#define SS_BIG_ARRAY ((size_t)4 << 20)
void ss_big_hint(void *p, size_t bytes);

static inline void *ss_big(void *p, size_t bytes)
{
    if (p && bytes >= SS_BIG_ARRAY)
        ss_big_hint(p, bytes);
    return p;
}

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
    void *nv = ss_big(realloc(*pv, cap * sz), cap * sz);
    if (!nv)
        return -1;
    *pv = nv;
    *pcap = cap;
    return 0;
}

/* Big arrays kept for reuse.  A front end that replaces one derived model
 * by the next on every key (the explorer) gives the old model's
 * per-sample arrays back here (ss_model_free_spare), and the next
 * transform takes them (ss_tf_list_set_spare): pages already mapped, where
 * a fresh array's pages are faulted in and zeroed by the kernel on first
 * touch (at 10M samples most of a transform's time on a virtual machine,
 * bench/README.md).  Not thread-safe: one per thread of applying. */
#define SS_SPARE_N 8
#define SS_SPARE_MIN ((size_t)64 << 10) /* smaller arrays: malloc reuses them itself */
struct ss_spare {
    void *p[SS_SPARE_N];
    size_t cap[SS_SPARE_N]; /* bytes */
};

/* The kept array with the least room of at least `bytes` (taken out of s),
 * else (or for fewer than SS_SPARE_MIN bytes) a new one (ss_alloc_array);
 * NULL when memory runs out.  s may be NULL (always new).  *room (unless
 * NULL) gets the bytes the array holds, which may be more than asked: give
 * it back with them, so that a later, larger need still fits. */
void *ss_spare_take(struct ss_spare *s, size_t bytes, size_t *room);
/* Keep p (`cap` bytes usable; NULL is ignored) for a later take: in a free
 * slot, else instead of the smallest kept array when p is bigger (which
 * is freed), else p is freed; so is an array under SS_SPARE_MIN bytes.
 * s may be NULL (p is freed). */
void ss_spare_give(struct ss_spare *s, void *p, size_t cap);
/* Free every kept array. */
void ss_spare_free(struct ss_spare *s);

/* The number of elements of array a (an array, not a pointer). */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof *(a))

/* Arrays of n elements of size sz: NULL when n * sz overflows or memory runs
 * out, so a count read from a file cannot wrap into a small allocation.  An
 * empty array (n == 0) still gets one element, so that NULL always means
 * failure (malloc(0) may return NULL).  ss_calloc_array zeroes it;
 * ss_realloc_array keeps *p unchanged on failure, as realloc does. */
static inline void *ss_alloc_array(size_t n, size_t sz)
{
    if (n == 0)
        n = 1;
    if (sz && n > ((size_t)-1) / sz)
        return NULL;
    return ss_big(malloc(n * sz), n * sz);
}

static inline void *ss_calloc_array(size_t n, size_t sz)
{
    if (n == 0)
        n = 1;
    if (sz && n > ((size_t)-1) / sz)
        return NULL;
    return ss_big(calloc(n, sz ? sz : 1), n * (sz ? sz : 1));
}

static inline void *ss_realloc_array(void *p, size_t n, size_t sz)
{
    if (n == 0)
        n = 1;
    if (sz && n > ((size_t)-1) / sz)
        return NULL;
    return ss_big(realloc(p, n * sz), n * sz);
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
