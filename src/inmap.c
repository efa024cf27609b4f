/* inmap.c - input mappings that a change of the file cannot crash (see
 * inmap.h). */
#include "inmap.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* At most this many mappings at once: the serial reader has one window,
 * the parallel Rprof loader one mapping of the file (or, without it, a
 * window per thread, at most 64), a whole-file format one.  A full
 * registry makes the caller read instead of map. */
#define INMAP_SLOTS 256

/* A registered mapping.  `base` is set last when a slot is filled and
 * cleared first when it is emptied, so the handler, which reads `base`
 * first, sees either no mapping or a whole one. */
struct slot {
    atomic_int used;
    _Atomic uintptr_t base;
    _Atomic size_t len;
    _Atomic uint64_t off;
    _Atomic uint64_t lost;
};

static struct slot slots[INMAP_SLOTS];
static _Atomic uintptr_t page_mask; /* ~(page size - 1), set by ss_inmap_guard */

/* The SIGBUS action before ours, for faults that are not ours: two copies,
 * `prev_at` naming the one in use.  ss_inmap_guard (one at a time, under
 * guard_mu) writes the other and then switches, so a handler that is
 * running (a handler set after ours may call ours) never reads a
 * half-written action. */
static struct sigaction prevs[2];
static atomic_int prev_at;
static pthread_mutex_t guard_mu = PTHREAD_MUTEX_INITIALIZER;

/* Set while this thread passes a SIGBUS on: a handler set after ours that
 * calls the one it replaced (ours) after ours was put back in front of it
 * would otherwise send the signal round the two for ever.  Initial-exec
 * TLS (this library is linked into the program) is a plain load, safe in
 * a handler. */
#if defined(__GNUC__)
__attribute__((tls_model("initial-exec")))
#endif
static _Thread_local int passing;

/* The registry is read in a signal handler, where only lock-free atomics
 * may be used: where one of them is not (no such platform is known among
 * those stackscope builds on), nothing is mapped and the files are read. */
static int lock_free(void)
{
    return atomic_is_lock_free(&slots[0].used) && atomic_is_lock_free(&slots[0].base) &&
           atomic_is_lock_free(&slots[0].len) && atomic_is_lock_free(&slots[0].lost) &&
           atomic_is_lock_free(&page_mask) && atomic_is_lock_free(&prev_at);
}

/* Die of sig with its default action: it is blocked in here, so it is
 * delivered as soon as the handler returns (a fault would also come back
 * when the access is made again). */
static void die_of(int sig)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

static void pass_on(int sig, siginfo_t *si, void *uc)
{
    const struct sigaction *prev = &prevs[atomic_load(&prev_at)];
    if (passing) {
        die_of(sig); /* round again: nobody else takes it */
        return;
    }
    if (prev->sa_flags & SA_SIGINFO) {
        passing = 1;
        if (prev->sa_sigaction)
            prev->sa_sigaction(sig, si, uc);
        passing = 0;
        return;
    }
    if (prev->sa_handler == SIG_IGN && si->si_code <= 0)
        return; /* kill -BUS, ignored before */
    if (prev->sa_handler == SIG_DFL || prev->sa_handler == SIG_IGN) {
        die_of(sig);
        return;
    }
    passing = 1;
    prev->sa_handler(sig);
    passing = 0;
}

/* Lower *lost to at (an atomic minimum). */
static void lower(_Atomic uint64_t *lost, uint64_t at)
{
    uint64_t cur = atomic_load(lost);
    while (at < cur && !atomic_compare_exchange_weak(lost, &cur, at))
        ;
}

/* The SIGBUS handler.  Why it is correct:
 *
 * Async-signal safety.  It calls only mmap(2) (a bare system call on
 * Linux, though POSIX does not list it), sigaction(2) and raise(3) (both
 * listed), reads the registry with lock-free atomics (lock_free: else
 * nothing is mapped), keeps errno, and takes no lock and allocates
 * nothing: it may interrupt anything, malloc or zlib included, which go
 * on where they were and read zeros.
 *
 * Threads.  A fault is delivered to the thread that made it, and several
 * threads may fault at once (the parallel loader's workers share one
 * mapping of the file).  The faulting address lies in a mapping that stays
 * registered and mapped until the handler returns: a mapping is
 * registered before its address is handed to anyone, and unregistered
 * only after the last access by every thread using it (the parallel
 * loader joins its workers first).  The loop may meet slots being emptied
 * or filled by other threads; `len` is stored before `base` and read after
 * it, and `base` is read again after `len`, so a slot matches only if some
 * mapping with that base and that length was registered while the handler
 * ran; such a mapping was live at the same time as the faulting one, and
 * live mappings do not overlap, so only the faulting mapping's slot holds
 * the address (and its `off` stays its own).  Two threads faulting in one
 * mapping each map zeros over their page and what follows (mmap(2)
 * serialises them; zeros over zeros are the same) and lower `lost` to the
 * smaller offset with a compare-and-swap.  The zeros replace only pages of
 * the faulting mapping: ss_inmap_unmap unmaps them with it. */
static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
    int saved = errno;
    uintptr_t a = (uintptr_t)si->si_addr, mask = atomic_load(&page_mask);
    for (int i = 0; si->si_code > 0 && mask && i < INMAP_SLOTS; i++) {
        uintptr_t base = atomic_load(&slots[i].base);
        size_t len = atomic_load(&slots[i].len);
        if (!base || base != atomic_load(&slots[i].base) || a < base || a - base >= len)
            continue;
        uintptr_t page = a & mask;
        /* `lost` first: a thread that reads the zeros and then `lost`
         * finds them lost (ss_reader_line_lost) */
        lower(&slots[i].lost, atomic_load(&slots[i].off) + (page - base));
        /* zeros from the faulting page to the mapping's end: every page
         * after it is past the file's end too (a file is cut at its end) */
        void *z = mmap((void *)page, base + len - page, PROT_READ,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (z == MAP_FAILED)
            break;
        errno = saved;
        return;
    }
    errno = saved;
    pass_on(sig, si, uc);
}

void ss_inmap_guard(void)
{
    pthread_mutex_lock(&guard_mu);
    if (!atomic_load(&page_mask)) {
        long pg = sysconf(_SC_PAGESIZE);
        atomic_store(&page_mask, ~(uintptr_t)((pg > 0 ? (uintptr_t)pg : 4096) - 1));
    }
    struct sigaction cur;
    if (sigaction(SIGBUS, NULL, &cur) == 0 &&
        !((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_sigbus)) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_sigbus;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        int next = !atomic_load(&prev_at);
        prevs[next] = cur;
        atomic_store(&prev_at, next);
        sigaction(SIGBUS, &sa, NULL);
    }
    pthread_mutex_unlock(&guard_mu);
}

static int claim(void)
{
    for (int i = 0; i < INMAP_SLOTS; i++) {
        int free_ = 0;
        if (atomic_compare_exchange_strong(&slots[i].used, &free_, 1))
            return i;
    }
    return -1;
}

int ss_inmap_map(struct ss_inmap *m, int fd, uint64_t off, size_t n, int flags)
{
    memset(m, 0, sizeof *m);
    m->slot = -1;
    if (n == 0) {
        errno = EINVAL;
        return -1;
    }
    if (!lock_free()) {
        errno = ENOTSUP;
        return -1;
    }
    ss_inmap_guard();
    int s = claim();
    if (s < 0) {
        errno = ENOMEM;
        return -1;
    }
    int mf = MAP_PRIVATE | (flags & SS_INMAP_POPULATE ? MAP_POPULATE : 0);
    void *p = mmap(NULL, n, PROT_READ, mf, fd, (off_t)off);
    if (p == MAP_FAILED) {
        int e = errno;
        atomic_store(&slots[s].used, 0);
        errno = e;
        return -1;
    }
    atomic_store(&slots[s].len, n);
    atomic_store(&slots[s].off, off);
    atomic_store(&slots[s].lost, UINT64_MAX);
    atomic_store(&slots[s].base, (uintptr_t)p);
    m->p = p;
    m->n = n;
    m->off = off;
    m->slot = s;
    return 0;
}

uint64_t ss_inmap_lost(const struct ss_inmap *m)
{
    return m->slot < 0 ? UINT64_MAX : atomic_load(&slots[m->slot].lost);
}

void ss_inmap_unmap(struct ss_inmap *m)
{
    if (m->slot < 0)
        return;
    atomic_store(&slots[m->slot].base, 0);
    munmap(m->p, m->n);
    atomic_store(&slots[m->slot].used, 0);
    m->p = NULL;
    m->n = 0;
    m->slot = -1;
}
