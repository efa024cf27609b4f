/* order.c - row orders (see order.h): the core's stable ss_sort of row indexes. */
#include "order.h"

#include <stdlib.h>

#include "sort.h"
#include "vec.h"

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
    uint32_t *o = ss_realloc_array(*order, n, sizeof *o);
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
