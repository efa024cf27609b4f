/* inmap.h - mappings of input files that a change of the file cannot crash.
 *
 * A page of a file mapping that lies past the file's end raises SIGBUS when
 * it is touched, so a profile cut while it is read (R's Rprof() empties its
 * file when it starts again) would kill the program in the middle of a
 * load.  Every mapping of an input is made by ss_inmap_map, which
 * registers it; a process-wide SIGBUS handler turns a fault inside a
 * registered mapping into pages of zeros, from the faulting page to the
 * mapping's end (an anonymous mapping put in their place: the access is
 * made again and reads 0), and records the file offset of the first page
 * lost.  A reader asks ss_inmap_lost when it reaches the end of what it
 * mapped, and ends its input at the last whole line before the loss
 * (reader.h).  A SIGBUS anywhere else goes to the handler that was there
 * before (by default: death, as without this module).
 *
 * Why zeros and not siglongjmp out of the parse: the fault can come in the
 * middle of adding a name or a stack to the model (a hash table half grown)
 * or inside a library (zlib, protobuf-c), and jumping out would leave that
 * state half built and any lock held.  With zeros every function returns
 * normally: a 0 byte is no line end, so no line is ever taken from them, and
 * the readers drop the line they were in.  The handler touches nothing but
 * the registry (lock-free atomics) and one mmap(2) (a system call, safe in
 * a handler on Linux though POSIX does not list it).  Any thread may fault:
 * the handler finds the mapping by address (inmap.c says why this is safe
 * with several threads mapping, faulting and unmapping at once).
 */
#ifndef SS_INMAP_H
#define SS_INMAP_H

#include <stddef.h>
#include <stdint.h>

/* A registered mapping of bytes [off, off + n) of a file, read only. */
struct ss_inmap {
    char *p;
    size_t n;
    uint64_t off;
    int slot; /* its place in the registry; -1: none (not mapped) */
};

#define SS_INMAP_POPULATE 1 /* read the pages in now (MAP_POPULATE) */

/* Map bytes [off, off + n) of the open file fd (off a multiple of the page
 * size, n > 0) and register the mapping.  Returns 0, or -1 with errno set
 * when it cannot be mapped or the registry is full (the caller reads the
 * file instead).  Installs the SIGBUS handler first (ss_inmap_guard). */
int ss_inmap_map(struct ss_inmap *m, int fd, uint64_t off, size_t n, int flags);

/* The file offset of the first byte of m that was lost (its page faulted:
 * the file no longer holds it, and m reads zeros from there to its end), or
 * UINT64_MAX when none was.  May be asked from any thread. */
uint64_t ss_inmap_lost(const struct ss_inmap *m);

/* Unregister and unmap m (nothing when it is not mapped). */
void ss_inmap_unmap(struct ss_inmap *m);

/* Install the SIGBUS handler, unless it is installed already: a handler
 * that someone set since (a fatal-signal handler) is kept, and called for
 * every SIGBUS that is not a registered mapping's.  ss_inmap_map calls it,
 * so a handler set between two loads is chained at the next mapping. */
void ss_inmap_guard(void);

#endif
