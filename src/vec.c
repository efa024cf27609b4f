/* vec.c - the hint for big arrays and the spare arrays kept for reuse (see
 * vec.h). */
#include "vec.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

void ss_big_hint(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    long ps = sysconf(_SC_PAGESIZE); /* each time: callers are on several threads */
    size_t page = ps > 0 ? (size_t)ps : 4096;
    uintptr_t a = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)(page - 1);
    if (e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE); /* a hint: failure changes nothing */
#else
    (void)p;
    (void)bytes;
#endif
}

void *ss_spare_take(struct ss_spare *s, size_t bytes, size_t *room)
{
    int best = -1;
    for (int i = 0; s && bytes >= SS_SPARE_MIN && i < SS_SPARE_N; i++)
        if (s->p[i] && s->cap[i] >= bytes && (best < 0 || s->cap[i] < s->cap[best]))
            best = i;
    if (room)
        *room = best < 0 ? bytes : s->cap[best];
    if (best < 0)
        return ss_alloc_array(bytes, 1);
    void *p = s->p[best];
    s->p[best] = NULL;
    s->cap[best] = 0;
    return p;
}

void ss_spare_give(struct ss_spare *s, void *p, size_t cap)
{
    if (!p)
        return;
    if (!s || cap < SS_SPARE_MIN) {
        free(p);
        return;
    }
    int slot = 0; /* a free slot, else the smallest */
    for (int i = 0; i < SS_SPARE_N; i++) {
        if (!s->p[i]) {
            slot = i;
            break;
        }
        if (s->cap[i] < s->cap[slot])
            slot = i;
    }
    if (s->p[slot] && s->cap[slot] >= cap) {
        free(p);
        return;
    }
    free(s->p[slot]);
    s->p[slot] = p;
    s->cap[slot] = cap;
}

void ss_spare_free(struct ss_spare *s)
{
    for (int i = 0; i < SS_SPARE_N; i++) {
        free(s->p[i]);
        s->p[i] = NULL;
        s->cap[i] = 0;
    }
}
