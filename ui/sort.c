/* sort.c - row orders (see sort.h): a stable merge sort of row indexes. */
#include "sort.h"

#include <stdlib.h>
#include <string.h>

/* Sort v[0..n) stably, with tmp (n entries) as scratch. */
static void merge_sort(uint32_t *v, uint32_t *tmp, size_t n, ui_order_cmp cmp, const void *ctx)
{
    if (n < 2)
        return;
    size_t h = n / 2;
    merge_sort(v, tmp, h, cmp, ctx);
    merge_sort(v + h, tmp, n - h, cmp, ctx);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = cmp(v[i], v[j], ctx) <= 0 ? v[i++] : v[j++];
    while (i < h)
        tmp[k++] = v[i++];
    /* what is left of the right half is in place already */
    for (size_t x = 0; x < k; x++)
        v[x] = tmp[x];
}

int ui_order_sort(uint32_t **order, size_t n, int rev, ui_order_cmp cmp, const void *ctx)
{
    size_t cap = n ? n : 1;
    uint32_t *tmp = malloc(cap * sizeof *tmp);
    if (!tmp)
        return -1;
    uint32_t *o = realloc(*order, cap * sizeof *o);
    if (!o) {
        free(tmp);
        return -1;
    }
    *order = o;
    for (size_t i = 0; i < n; i++)
        o[i] = (uint32_t)i;
    merge_sort(o, tmp, n, cmp, ctx);
    free(tmp);
    if (rev)
        for (size_t i = 0; i < n / 2; i++) {
            uint32_t t = o[i];
            o[i] = o[n - 1 - i];
            o[n - 1 - i] = t;
        }
    return 0;
}

int ui_cmp_desc(double a, double b)
{
    return a > b ? -1 : a < b ? 1 : 0;
}

int ui_cmp_stat_time(const struct ss_stats *st, uint32_t a, uint32_t b, int by_total)
{
    const struct ss_stat_row *ra = &st->rows[a], *rb = &st->rows[b];
    int c = 0;
    if (by_total)
        c = ui_cmp_desc(ra->total_us, rb->total_us);
    if (!c)
        c = ui_cmp_desc(ra->self_us, rb->self_us);
    if (!c)
        c = ui_cmp_desc(ra->total_us, rb->total_us);
    if (!c)
        c = strcmp(ss_strtab_get(&st->keys, ra->key), ss_strtab_get(&st->keys, rb->key));
    return c;
}
