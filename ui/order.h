/* order.h - the display order of a table view's rows: the indexes 0..n-1 of
 * its rows, sorted by a comparator that gets a context pointer (no
 * file-static state), optionally reversed. */
#ifndef UI_ORDER_H
#define UI_ORDER_H

#include <stddef.h>
#include <stdint.h>

/* Compare rows a and b: < 0 when a comes first, 0 when tied, > 0 after. */
typedef int (*ui_order_cmp)(uint32_t a, uint32_t b, const void *ctx);

/* Make *order (reallocated to n entries, at least one) the rows 0..n-1
 * sorted by cmp, stably (tied rows keep their index order), then reversed
 * when rev is set.  Returns 0, or -1 when out of memory with *order left
 * as it was. */
int ui_order_sort(uint32_t **order, size_t n, int rev, ui_order_cmp cmp, const void *ctx);

#endif
