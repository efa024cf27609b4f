/* sort.h - one sort for the whole program: stable, with a context pointer.
 *
 * qsort's comparator has no context, which led to file-static "sort
 * context" variables (not reentrant, easy to leave stale).  ss_sort passes
 * a context, and is stable (equal elements keep their order), so a table
 * sorted by one column keeps its previous order among ties on every libc.
 */
#ifndef SS_SORT_H
#define SS_SORT_H

#include <stddef.h>

/* Compare the elements at a and b: < 0 when a comes first, 0 when tied,
 * > 0 when b comes first. */
typedef int (*ss_cmp_fn)(const void *a, const void *b, void *ctx);

/* Sort the n elements of `size` bytes at base by cmp, stably (a merge sort
 * with a scratch copy of n elements).  Returns 0, or -1 when the scratch
 * cannot be allocated (base is then unchanged). */
int ss_sort(void *base, size_t n, size_t size, ss_cmp_fn cmp, void *ctx);

#endif
