/* vec.c - the hint for big arrays (see vec.h). */
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
