/* sort.c - a stable merge sort with a context pointer (see sort.h).
 *
 * Bottom-up: runs of width 1, 2, 4, ... are merged back and forth between
 * the array and one scratch buffer, so there is no recursion and one
 * allocation.  Short runs are first sorted by insertion, which is faster
 * than merging them.
 */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "vec.h"

#define INSERTION_RUN 16 /* runs of this many elements start insertion-sorted */

/* Insertion-sort the n elements at p (stable: an element moves left only
 * past strictly greater ones).  tmp holds one element. */
static void insertion(char *p, size_t n, size_t size, ss_cmp_fn cmp, void *ctx, char *tmp)
{
    for (size_t i = 1; i < n; i++) {
        char *x = p + i * size;
        if (cmp(x - size, x, ctx) <= 0)
            continue;
        memcpy(tmp, x, size);
        size_t j = i;
        while (j > 0 && cmp(p + (j - 1) * size, tmp, ctx) > 0)
            j--;
        memmove(p + (j + 1) * size, p + j * size, (i - j) * size);
        memcpy(p + j * size, tmp, size);
    }
}

/* Merge the sorted runs a[0..na) and b[0..nb) into out (stable: on a tie
 * the element of a, which came first, goes first). */
static void merge(const char *a, size_t na, const char *b, size_t nb, char *out, size_t size,
                  ss_cmp_fn cmp, void *ctx)
{
    const char *ae = a + na * size, *be = b + nb * size;
    while (a < ae && b < be) {
        if (cmp(b, a, ctx) < 0) {
            memcpy(out, b, size);
            b += size;
        } else {
            memcpy(out, a, size);
            a += size;
        }
        out += size;
    }
    if (a < ae)
        memcpy(out, a, (size_t)(ae - a));
    if (b < be)
        memcpy(out, b, (size_t)(be - b));
}

int ss_sort(void *base, size_t n, size_t size, ss_cmp_fn cmp, void *ctx)
{
    if (n < 2 || size == 0)
        return 0;
    if (n <= INSERTION_RUN && size <= 64) {
        /* the common short list (a tree node's children): no allocation */
        char one[64];
        insertion(base, n, size, cmp, ctx, one);
        return 0;
    }
    char *scratch = ss_alloc_array(n + 1, size); /* NULL also when n + 1 elements overflow */
    if (!scratch)
        return -1;
    char *one = scratch + n * size; /* room for one element */
    char *src = base, *dst = scratch;
    for (size_t i = 0; i < n; i += INSERTION_RUN)
        insertion(src + i * size, n - i < INSERTION_RUN ? n - i : INSERTION_RUN, size, cmp, ctx,
                  one);
    for (size_t w = INSERTION_RUN; w < n; w *= 2) {
        for (size_t i = 0; i < n; i += 2 * w) {
            size_t na = n - i < w ? n - i : w;
            size_t nb = n - i - na < w ? n - i - na : w;
            merge(src + i * size, na, src + (i + na) * size, nb, dst + i * size, size, cmp, ctx);
        }
        char *t = src;
        src = dst;
        dst = t;
    }
    if (src != base)
        memcpy(base, src, n * size);
    free(scratch);
    return 0;
}
