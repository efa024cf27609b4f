/* order.c - row orders (see order.h): the core's stable ss_sort of row indexes. */
#include "order.h"

#include <stdlib.h>
#include <string.h>

#include "sort.h"

struct order_ctx {
    ui_order_cmp cmp;
    const void *ctx;
};

static int cmp_index(const void *a, const void *b, void *ctx)
{
    const struct order_ctx *o = ctx;
    return o->cmp(*(const uint32_t *)a, *(const uint32_t *)b, o->ctx);
}

int ui_order_sort(uint32_t **order, size_t n, int rev, ui_order_cmp cmp, const void *ctx)
{
    uint32_t *o = realloc(*order, (n ? n : 1) * sizeof *o);
    if (!o)
        return -1;
    *order = o;
    for (size_t i = 0; i < n; i++)
        o[i] = (uint32_t)i;
    struct order_ctx oc = {cmp, ctx};
    if (ss_sort(o, n, sizeof *o, cmp_index, &oc))
        return -1;
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
        c = ui_cmp_desc(ra->total_x, rb->total_x);
    if (!c)
        c = ui_cmp_desc(ra->self_x, rb->self_x);
    if (!c)
        c = ui_cmp_desc(ra->total_x, rb->total_x);
    if (!c)
        c = strcmp(ss_strtab_get(&st->keys, ra->key), ss_strtab_get(&st->keys, rb->key));
    return c;
}
