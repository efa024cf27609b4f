/* check_sort.c - ss_sort: sorted, stable, with its context, for the sizes
 * where its paths differ (no allocation up to 16 elements of at most 64
 * bytes, insertion runs of 16, bottom-up merges, odd tails).  The expected
 * order is computed here independently: a record's rank is counted by
 * brute force (how many records sort before it, ties by original index). */
#include "check_suites.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sort.h"
#include "vec.h"

struct rec {
    uint32_t key;   /* few distinct values: many ties */
    uint32_t index; /* original position, to check stability */
    char pad[56];   /* 64 bytes in all */
};

struct big {
    struct rec r;
    char more[40]; /* over 64 bytes: the allocating path even for short lists */
};

static int cmp_rec(const void *a, const void *b, void *ctx)
{
    const struct rec *x = a, *y = b;
    int *calls = ctx;
    (*calls)++;
    return x->key < y->key ? -1 : x->key > y->key;
}

static int cmp_big(const void *a, const void *b, void *ctx)
{
    return cmp_rec(&((const struct big *)a)->r, &((const struct big *)b)->r, ctx);
}

static int cmp_desc_u32(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x > y ? -1 : x < y;
}

/* Where record i must end up: records with a smaller key, or the same key
 * and a smaller index, come first. */
static size_t rank_of(const struct rec *v, size_t n, size_t i)
{
    size_t r = 0;
    for (size_t j = 0; j < n; j++)
        if (v[j].key < v[i].key || (v[j].key == v[i].key && v[j].index < v[i].index))
            r++;
    return r;
}

START_TEST(test_sort_stable)
{
    static const size_t sizes[] = {0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 100, 257, 1000};
    unsigned seed = 12345;
    for (size_t t = 0; t < ARRAY_SIZE(sizes); t++) {
        size_t n = sizes[t];
        struct rec *v = calloc(n ? n : 1, sizeof *v), *orig = calloc(n ? n : 1, sizeof *v);
        struct big *w = calloc(n ? n : 1, sizeof *w);
        ck_assert(v && orig && w);
        for (size_t i = 0; i < n; i++) {
            seed = seed * 1103515245u + 12345u;
            v[i].key = (seed >> 16) % 7;
            v[i].index = (uint32_t)i;
            memset(v[i].pad, (int)(i & 0x7f), sizeof v[i].pad);
            w[i].r = v[i];
        }
        memcpy(orig, v, n * sizeof *v);
        int calls = 0;
        ck_assert_int_eq(ss_sort(v, n, sizeof *v, cmp_rec, &calls), 0);
        ck_assert_int_eq(ss_sort(w, n, sizeof *w, cmp_big, &calls), 0);
        if (n > 1)
            ck_assert_int_gt(calls, 0); /* the context reached the comparator */
        for (size_t i = 0; i < n; i++) {
            size_t r = rank_of(orig, n, i);
            ck_assert_uint_eq(v[r].index, orig[i].index);
            ck_assert_uint_eq(v[r].key, orig[i].key);
            ck_assert_int_eq(memcmp(v[r].pad, orig[i].pad, sizeof v[r].pad), 0);
            ck_assert_uint_eq(w[r].r.index, orig[i].index);
        }
        free(v);
        free(orig);
        free(w);
    }
}
END_TEST

START_TEST(test_sort_u32)
{
    /* 100000 ids in descending order, then every value once: a big merge */
    size_t n = 100000;
    uint32_t *v = malloc(n * sizeof *v);
    ck_assert_ptr_nonnull(v);
    for (size_t i = 0; i < n; i++)
        v[i] = (uint32_t)((i * 7919u) % n); /* a permutation: 7919 is prime */
    ck_assert_int_eq(ss_sort(v, n, sizeof *v, cmp_desc_u32, NULL), 0);
    for (size_t i = 0; i < n; i++)
        ck_assert_uint_eq(v[i], n - 1 - i);
    free(v);
}
END_TEST

Suite *sort_suite(void)
{
    Suite *s = suite_create("sort");
    TCase *tc = tcase_create("ss_sort");
    tcase_add_test(tc, test_sort_stable);
    tcase_add_test(tc, test_sort_u32);
    suite_add_tcase(s, tc);
    return s;
}
