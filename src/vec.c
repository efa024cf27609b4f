/* vec.c - the hint for big arrays (see vec.h). */
#include "vec.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

void ss_big_hint(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    static size_t page;
    if (!page) {
        long ps = sysconf(_SC_PAGESIZE);
        page = ps > 0 ? (size_t)ps : 4096;
    }
    uintptr_t a = ((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1);
    uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)(page - 1);
    if (e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE); /* a hint: failure changes nothing */
#else
    (void)p;
    (void)bytes;
#endif
}
