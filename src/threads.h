/* threads.h - how many threads the core's parallel passes take (the Rprof
 * loader, the per-stack counts of a long session, the pprof writer). */
#ifndef SS_THREADS_H
#define SS_THREADS_H

#include <stdlib.h>
#include <unistd.h>

/* STACKSCOPE_THREADS (a positive decimal number; anything else is not
 * set), else the processors online; between 1 and max. */
static inline unsigned ss_threads(unsigned max)
{
    const char *e = getenv("STACKSCOPE_THREADS");
    long n = 0;
    if (e && *e) {
        char *end;
        unsigned long long v = strtoull(e, &end, 10);
        if (!*end && v)
            n = v > max ? (long)max : (long)v;
    }
    if (n == 0)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return n > (long)max ? max : (unsigned)n;
}

#endif
