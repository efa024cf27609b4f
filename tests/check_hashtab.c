/* check_hashtab.c - the two hash-table flavours (src/hashtab.h).
 *
 * The slot layouts below are worked out by hand from the documented rules:
 * the first reservation gives 16 slots; a key's home slot is the low bits of
 * its hash (ss_mix64(key) for ss_u64map, the caller's hash for ss_idset);
 * linear probing takes the next slot, wrapping at the end; the table doubles
 * when an insertion would make it more than half full.
 */
#include "check_suites.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hashtab.h"
#include "vec.h"

/* ---- ss_idset: the caller's keys are the strings in `words` --------------- */

struct words {
    const char *w[64];
    uint32_t n;
    unsigned calls; /* eq calls */
};

static int words_eq(const void *ctx, uint32_t id, const void *key)
{
    struct words *ws = (struct words *)(uintptr_t)ctx;
    ws->calls++;
    return strcmp(ws->w[id], key) == 0;
}

/* Find or add `key` with hash h: the id (a new one is the next index). */
static uint32_t word_add(struct ss_idset *s, struct words *ws, const char *key, uint64_t h)
{
    uint32_t id = ss_idset_intern(s, h, words_eq, ws, key, ws->n);
    if (id == ws->n)
        ws->w[ws->n++] = key;
    return id;
}

START_TEST(test_idset_collisions)
{
    struct ss_idset s;
    memset(&s, 0, sizeof s);
    struct words ws = {{0}, 0, 0};
    size_t pos = 99;
    /* No slots yet: not found, position 0, nothing allocated. */
    ck_assert_uint_eq(ss_idset_find(&s, 5, words_eq, &ws, "a", &pos), SS_NONE);
    ck_assert_uint_eq(pos, 0);
    ck_assert_uint_eq(s.cap, 0);
    ck_assert_uint_eq(ws.calls, 0);

    /* 16 slots.  Hashes 5, 21, 37 all have home slot 5 (mod 16): they take
     * slots 5, 6, 7 in insertion order. */
    ck_assert_uint_eq(word_add(&s, &ws, "a", 5), 0);
    ck_assert_uint_eq(s.cap, 16);
    ck_assert_uint_eq(word_add(&s, &ws, "b", 21), 1);
    ck_assert_uint_eq(word_add(&s, &ws, "c", 37), 2);
    ck_assert_uint_eq(s.slot[5].id, 0);
    ck_assert_uint_eq(s.slot[6].id, 1);
    ck_assert_uint_eq(s.slot[7].id, 2);
    ck_assert_uint_eq(s.slot[6].hash, 21);
    ck_assert_uint_eq(s.n, 3);
    /* The stored hashes differ, so eq was never called. */
    ck_assert_uint_eq(ws.calls, 0);

    /* "c" again: probes slots 5, 6 (hash mismatch, no eq) and 7 (one eq). */
    ck_assert_uint_eq(word_add(&s, &ws, "c", 37), 2);
    ck_assert_uint_eq(ws.calls, 1);
    ck_assert_uint_eq(s.n, 3);

    /* A full-hash collision: "d" has the same hash as "a".  eq("a") fails at
     * slot 5; slots 6 and 7 differ in hash; "d" goes to slot 8. */
    ws.calls = 0;
    ck_assert_uint_eq(word_add(&s, &ws, "d", 5), 3);
    ck_assert_uint_eq(ws.calls, 1);
    ck_assert_uint_eq(s.slot[8].id, 3);
    ck_assert_uint_eq(ss_idset_find(&s, 5, words_eq, &ws, "d", &pos), 3);
    ck_assert_uint_eq(ss_idset_find(&s, 5, words_eq, &ws, "a", &pos), 0);

    /* Wrap-around: home slot 15 is free, then hash 31 (home 15) wraps to 0. */
    ck_assert_uint_eq(word_add(&s, &ws, "e", 15), 4);
    ck_assert_uint_eq(word_add(&s, &ws, "f", 31), 5);
    ck_assert_uint_eq(s.slot[15].id, 4);
    ck_assert_uint_eq(s.slot[0].id, 5);

    /* A miss returns the empty slot where the key belongs: hash 47 (home 15)
     * passes 15 and 0 and stops at 1. */
    ck_assert_uint_eq(ss_idset_find(&s, 47, words_eq, &ws, "g", &pos), SS_NONE);
    ck_assert_uint_eq(pos, 1);
    ck_assert_int_eq(ss_idset_reserve(&s, 1), 0);
    ss_idset_insert(&s, pos, 47, 6);
    ws.w[ws.n++] = "g";
    ck_assert_uint_eq(s.slot[1].id, 6);
    ck_assert_uint_eq(ss_idset_find(&s, 47, words_eq, &ws, "g", &pos), 6);

    /* The 64-bit hash's high bits do not change the slot or the match. */
    ck_assert_uint_eq(ss_idset_find(&s, ((uint64_t)7 << 40) | 5, words_eq, &ws, "a", &pos), 0);

    /* A copy is independent; clear keeps the slots. */
    struct ss_idset c;
    ck_assert_int_eq(ss_idset_copy(&c, &s), 0);
    ck_assert_uint_eq(c.n, 7);
    ck_assert_uint_eq(c.cap, 16);
    ss_idset_clear(&s);
    ck_assert_uint_eq(s.n, 0);
    ck_assert_uint_eq(s.cap, 16);
    ck_assert_uint_eq(ss_idset_find(&s, 5, words_eq, &ws, "a", &pos), SS_NONE);
    ck_assert_uint_eq(pos, 5);
    ck_assert_uint_eq(ss_idset_find(&c, 37, words_eq, &ws, "c", &pos), 2);
    ss_idset_free(&c);
    ss_idset_free(&s);
    ck_assert_ptr_null(s.slot);
    ck_assert_uint_eq(s.cap, 0);
}
END_TEST

START_TEST(test_idset_growth)
{
    struct ss_idset s;
    memset(&s, 0, sizeof s);
    struct words ws = {{0}, 0, 0};
    static const char *const names[] = {"k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8"};
    /* Hashes 16 * i + 3: all home slot 3 in 16 slots (slots 3..10), then
     * 3 or 19 in 32 slots. */
    for (uint32_t i = 0; i < 8; i++)
        ck_assert_uint_eq(word_add(&s, &ws, names[i], 16u * i + 3), i);
    /* 8 ids in 16 slots: exactly half full, no growth yet. */
    ck_assert_uint_eq(s.cap, 16);
    for (uint32_t i = 0; i < 8; i++)
        ck_assert_uint_eq(s.slot[3 + i].id, i);
    /* The 9th would pass half: 32 slots.  Rehashed in slot order: hashes
     * with bit 4 clear (i even: 3, 35, 67, 99) go to 3, 4, 5, 6; those with
     * bit 4 set (i odd: 19, 51, 83, 115) to 19, 20, 21, 22; then k8 (hash
     * 131, home 3) lands at 7. */
    ck_assert_uint_eq(word_add(&s, &ws, names[8], 16u * 8 + 3), 8);
    ck_assert_uint_eq(s.cap, 32);
    ck_assert_uint_eq(s.n, 9);
    static const uint32_t at[][2] = {{3, 0},  {4, 2},  {5, 4},  {6, 6}, {7, 8},
                                     {19, 1}, {20, 3}, {21, 5}, {22, 7}};
    for (size_t k = 0; k < ARRAY_SIZE(at); k++)
        ck_assert_uint_eq(s.slot[at[k][0]].id, at[k][1]);
    size_t pos;
    for (uint32_t i = 0; i < 9; i++)
        ck_assert_uint_eq(ss_idset_find(&s, 16u * i + 3, words_eq, &ws, names[i], &pos), i);

    /* Reserving ahead: 9 + 100 ids need 218 slots, so 256. */
    ck_assert_int_eq(ss_idset_reserve(&s, 100), 0);
    ck_assert_uint_eq(s.cap, 256);
    /* Sizes past the limit fail and leave the set as it was. */
    ck_assert_int_eq(ss_idset_reserve(&s, SS_HASHTAB_MAX), -1);
    ck_assert_int_eq(ss_idset_reserve(&s, SIZE_MAX), -1);
    ck_assert_uint_eq(s.cap, 256);
    ck_assert_uint_eq(s.n, 9);
    ck_assert_uint_eq(ss_idset_find(&s, 131, words_eq, &ws, "k8", &pos), 8);
    ss_idset_free(&s);
}
END_TEST

/* ---- ss_u64map --------------------------------------------------------------- */

START_TEST(test_u64map_basic)
{
    struct ss_u64map m;
    memset(&m, 0, sizeof m);
    ck_assert_uint_eq(ss_u64map_get(&m, 0), SS_NONE);
    /* Any key, 0 and all-ones included. */
    ck_assert_uint_eq(ss_u64map_intern(&m, 0, 10), 10);
    ck_assert_uint_eq(ss_u64map_intern(&m, UINT64_MAX, 11), 11);
    ck_assert_uint_eq(ss_u64map_intern(&m, (uint64_t)1 << 32, 12), 12);
    ck_assert_uint_eq(ss_u64map_intern(&m, 1, 13), 13);
    ck_assert_uint_eq(m.n, 4);
    ck_assert_uint_eq(m.cap, 16);
    /* Existing keys keep their first value. */
    ck_assert_uint_eq(ss_u64map_intern(&m, 0, 99), 10);
    ck_assert_uint_eq(ss_u64map_intern(&m, UINT64_MAX, 99), 11);
    ck_assert_uint_eq(m.n, 4);
    ck_assert_uint_eq(ss_u64map_get(&m, 0), 10);
    ck_assert_uint_eq(ss_u64map_get(&m, UINT64_MAX), 11);
    ck_assert_uint_eq(ss_u64map_get(&m, (uint64_t)1 << 32), 12);
    ck_assert_uint_eq(ss_u64map_get(&m, 1), 13);
    ck_assert_uint_eq(ss_u64map_get(&m, 2), SS_NONE);
    ck_assert_uint_eq(ss_u64map_get(&m, 1ull << 33), SS_NONE);

    /* Two keys with the same home slot (found by search, from the hash
     * rule): the second goes to the next free slot after the home. */
    struct ss_u64map c;
    memset(&c, 0, sizeof c);
    ck_assert_int_eq(ss_u64map_reserve(&c, 1), 0);
    ck_assert_uint_eq(c.cap, 16);
    uint64_t a = 1000, b = 1001;
    while (ss_u64map_home(&c, b) != ss_u64map_home(&c, a))
        b++;
    size_t home = ss_u64map_home(&c, a);
    ck_assert_uint_eq(ss_u64map_intern(&c, a, 1), 1);
    ck_assert_uint_eq(ss_u64map_intern(&c, b, 2), 2);
    ck_assert_uint_eq(c.slot[home].key, a);
    ck_assert_uint_eq(c.slot[(home + 1) & 15].key, b);
    ck_assert_uint_eq(c.slot[(home + 1) & 15].val, 2);
    ck_assert_uint_eq(ss_u64map_get(&c, b), 2);
    ck_assert_uint_eq(ss_u64map_get(&c, a), 1);

    /* Too big: fails, map unchanged. */
    ck_assert_int_eq(ss_u64map_reserve(&m, SIZE_MAX - 1), -1);
    ck_assert_int_eq(ss_u64map_reserve(&m, SS_HASHTAB_MAX - 3), -1);
    ck_assert_uint_eq(m.cap, 16);
    ck_assert_uint_eq(ss_u64map_get(&m, 1), 13);
    ss_u64map_free(&c);
    ss_u64map_free(&m);
    ck_assert_ptr_null(m.slot);
    ck_assert_uint_eq(m.n, 0);
}
END_TEST

START_TEST(test_u64map_many)
{
    /* 100000 keys spread over 64 bits (k * an odd constant: all distinct).
     * Half full at most: 2 x 100000 = 200000 slots round up to 2^18. */
    struct ss_u64map m;
    memset(&m, 0, sizeof m);
    const uint64_t mul = 0x9e3779b97f4a7c15ULL;
    uint32_t n = 100000;
    for (uint32_t k = 0; k < n; k++)
        ck_assert_uint_eq(ss_u64map_intern(&m, k * mul, k), k);
    ck_assert_uint_eq(m.n, n);
    ck_assert_uint_eq(m.cap, 262144);
    for (uint32_t k = 0; k < n; k++) {
        ck_assert_uint_eq(ss_u64map_get(&m, k * mul), k);
        ck_assert_uint_eq(ss_u64map_intern(&m, k * mul, 7), k);
    }
    for (uint32_t k = n; k < 2 * n; k++)
        ck_assert_uint_eq(ss_u64map_get(&m, k * mul), SS_NONE);
    /* Sequential keys too (the pprof ids), in the same map. */
    for (uint32_t k = 1; k <= 1000; k++)
        ck_assert_uint_eq(ss_u64map_intern(&m, k, n + k), n + k);
    for (uint32_t k = 1; k <= 1000; k++)
        ck_assert_uint_eq(ss_u64map_get(&m, k), n + k);
    ck_assert_uint_eq(m.n, n + 1000);
    ss_u64map_free(&m);
}
END_TEST

/* Many ids in a set keyed by 64-bit numbers stored by the caller, with a
 * weak hash (the number mod 1000) so that long probe runs and full-hash
 * collisions are common. */
static int num_eq(const void *ctx, uint32_t id, const void *key)
{
    const uint64_t *nums = ctx;
    return nums[id] == *(const uint64_t *)key;
}

START_TEST(test_idset_many)
{
    uint32_t n = 5000;
    uint64_t *nums = malloc(n * sizeof *nums);
    ck_assert_ptr_nonnull(nums);
    struct ss_idset s;
    memset(&s, 0, sizeof s);
    for (uint32_t k = 0; k < n; k++) {
        uint64_t key = (uint64_t)k * 7919 + 1;
        nums[k] = key;
        ck_assert_uint_eq(ss_idset_intern(&s, key % 1000, num_eq, nums, &key, k), k);
    }
    ck_assert_uint_eq(s.n, n);
    ck_assert_uint_eq(s.cap, 16384); /* 10000 slots round up to 2^14 */
    size_t pos;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t key = (uint64_t)k * 7919 + 1;
        ck_assert_uint_eq(ss_idset_find(&s, key % 1000, num_eq, nums, &key, &pos), k);
        uint64_t miss = key + 1; /* k * 7919 + 2 is never k' * 7919 + 1 */
        ck_assert_uint_eq(ss_idset_find(&s, miss % 1000, num_eq, nums, &miss, &pos), SS_NONE);
    }
    ss_idset_free(&s);
    free(nums);
}
END_TEST

Suite *hashtab_suite(void)
{
    Suite *s = suite_create("hashtab");
    TCase *tc = tcase_create("hashtab");
    tcase_add_test(tc, test_idset_collisions);
    tcase_add_test(tc, test_idset_growth);
    tcase_add_test(tc, test_idset_many);
    tcase_add_test(tc, test_u64map_basic);
    tcase_add_test(tc, test_u64map_many);
    suite_add_tcase(s, tc);
    return s;
}
