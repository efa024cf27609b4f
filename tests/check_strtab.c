/* check_strtab.c - the string table (src/strtab.h): interning, lookup,
 * growth and rehashing, arbitrary bytes. */
#include "check_suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "strtab.h"

START_TEST(test_equal_bytes_equal_ids)
{
    struct ss_strtab t;
    ss_strtab_init(&t);
    /* Ids are dense and follow insertion order: "lm" 0, "glm" 1. */
    uint32_t a = ss_strtab_intern(&t, "lm", 2);
    uint32_t b = ss_strtab_intern(&t, "glm", 3);
    ck_assert_uint_eq(a, 0);
    ck_assert_uint_eq(b, 1);
    /* Same bytes from a different buffer: same id, nothing added. */
    char copy[] = "lm";
    ck_assert_uint_eq(ss_strtab_intern(&t, copy, 2), 0);
    ck_assert_uint_eq(t.n, 2);
    /* "glmx" cut to 3 bytes is "glm". */
    ck_assert_uint_eq(ss_strtab_intern(&t, "glmx", 3), 1);
    /* Prefixes and extensions are distinct strings: "l" 2, "lmm" 3, "" 4. */
    ck_assert_uint_eq(ss_strtab_intern(&t, "l", 1), 2);
    ck_assert_uint_eq(ss_strtab_intern(&t, "lmm", 3), 3);
    ck_assert_uint_eq(ss_strtab_intern(&t, "", 0), 4);
    ck_assert_uint_eq(ss_strtab_intern(&t, "", 0), 4);
    ck_assert_uint_eq(t.n, 5);
    ck_assert_str_eq(ss_strtab_get(&t, 0), "lm");
    ck_assert_str_eq(ss_strtab_get(&t, 1), "glm");
    ck_assert_str_eq(ss_strtab_get(&t, 2), "l");
    ck_assert_str_eq(ss_strtab_get(&t, 3), "lmm");
    ck_assert_str_eq(ss_strtab_get(&t, 4), "");
    ck_assert_uint_eq(ss_strtab_len(&t, 0), 2);
    ck_assert_uint_eq(ss_strtab_len(&t, 4), 0);
    /* Case matters: byte equality, not collation. */
    ck_assert_uint_eq(ss_strtab_intern(&t, "LM", 2), 5);
    ss_strtab_free(&t);
}
END_TEST

START_TEST(test_arbitrary_bytes)
{
    struct ss_strtab t;
    ss_strtab_init(&t);
    /* Invalid UTF-8, control bytes, high bytes: all just bytes. */
    static const char bin1[] = "\xff\xfe\x01\x7f";
    static const char bin2[] = "\xff\xfe\x01\x7e";
    /* UTF-8 "é" (c3 a9) and "日本" (e6 97 a5 e6 9c ac). */
    static const char utf1[] = "\xc3\xa9";
    static const char utf2[] = "\xe6\x97\xa5\xe6\x9c\xac";
    /* Labels R writes verbatim (quotes, spaces, ';', '[[') */
    static const char odd[] = "x[[\"k\"]] a;b \"q\"";
    uint32_t i1 = ss_strtab_intern(&t, bin1, 4);
    uint32_t i2 = ss_strtab_intern(&t, bin2, 4);
    uint32_t i3 = ss_strtab_intern(&t, utf1, 2);
    uint32_t i4 = ss_strtab_intern(&t, utf2, 6);
    uint32_t i5 = ss_strtab_intern(&t, odd, strlen(odd));
    ck_assert_uint_eq(i1, 0);
    ck_assert_uint_eq(i2, 1);
    ck_assert_uint_eq(i3, 2);
    ck_assert_uint_eq(i4, 3);
    ck_assert_uint_eq(i5, 4);
    ck_assert_uint_eq(ss_strtab_intern(&t, bin1, 4), 0);
    ck_assert_uint_eq(ss_strtab_intern(&t, utf2, 6), 3);
    /* The first 3 bytes of "日本" (= "日") are a new string. */
    ck_assert_uint_eq(ss_strtab_intern(&t, utf2, 3), 5);
    ck_assert_int_eq(memcmp(ss_strtab_get(&t, 0), bin1, 5), 0); /* incl. the NUL */
    ck_assert_int_eq(memcmp(ss_strtab_get(&t, 3), utf2, 7), 0);
    ck_assert_str_eq(ss_strtab_get(&t, 4), odd);
    ck_assert_str_eq(ss_strtab_get(&t, 5), "\xe6\x97\xa5");
    ck_assert_uint_eq(ss_strtab_len(&t, 5), 3);
    ss_strtab_free(&t);
}
END_TEST

START_TEST(test_find_absent)
{
    struct ss_strtab t;
    ss_strtab_init(&t);
    /* Empty table (no hash slots yet). */
    ck_assert_uint_eq(ss_strtab_find(&t, "a", 1), SS_NONE);
    ck_assert_uint_eq(ss_strtab_find(&t, "", 0), SS_NONE);
    ss_strtab_intern(&t, "alpha", 5);
    ss_strtab_intern(&t, "beta", 4);
    ck_assert_uint_eq(ss_strtab_find(&t, "alpha", 5), 0);
    ck_assert_uint_eq(ss_strtab_find(&t, "beta", 4), 1);
    ck_assert_uint_eq(ss_strtab_find(&t, "alph", 4), SS_NONE);
    ck_assert_uint_eq(ss_strtab_find(&t, "alphax", 6), SS_NONE);
    ck_assert_uint_eq(ss_strtab_find(&t, "gamma", 5), SS_NONE);
    ck_assert_uint_eq(ss_strtab_find(&t, "", 0), SS_NONE);
    /* find never adds. */
    ck_assert_uint_eq(t.n, 2);
    ss_strtab_free(&t);
    /* After free the table is empty and usable again. */
    ck_assert_uint_eq(t.n, 0);
    ck_assert_uint_eq(ss_strtab_find(&t, "alpha", 5), SS_NONE);
    ck_assert_uint_eq(ss_strtab_intern(&t, "beta", 4), 0);
    ss_strtab_free(&t);
    /* Free of a freshly initialised table is fine too. */
    ss_strtab_init(&t);
    ss_strtab_free(&t);
}
END_TEST

/* 100000 strings of varying length force many buffer growths and rehashes
 * (the hash index starts at 16 slots and doubles at half full). */
#define MANY 100000

static int many_key(char *buf, size_t n, unsigned i)
{
    /* "k<i>" then (i % 37) 'x's: lengths 2 .. 42, all distinct. */
    int k = snprintf(buf, n, "k%u", i);
    unsigned pad = i % 37;
    for (unsigned j = 0; j < pad; j++)
        buf[k++] = 'x';
    buf[k] = '\0';
    return k;
}

START_TEST(test_many_strings)
{
    struct ss_strtab t;
    ss_strtab_init(&t);
    char buf[64];
    for (unsigned i = 0; i < MANY; i++) {
        int k = many_key(buf, sizeof buf, i);
        ck_assert_uint_eq(ss_strtab_intern(&t, buf, (size_t)k), i);
    }
    ck_assert_uint_eq(t.n, MANY);
    /* Every string is still found, unchanged, under its own id. */
    for (unsigned i = 0; i < MANY; i++) {
        int k = many_key(buf, sizeof buf, i);
        ck_assert_uint_eq(ss_strtab_find(&t, buf, (size_t)k), i);
        ck_assert_uint_eq(ss_strtab_intern(&t, buf, (size_t)k), i);
        ck_assert_str_eq(ss_strtab_get(&t, i), buf);
        ck_assert_uint_eq(ss_strtab_len(&t, i), (size_t)k);
    }
    ck_assert_uint_eq(t.n, MANY);
    /* Near misses: "k<i>" with one 'x' too many is never a key (the digits
     * fix i, and i has exactly i % 37 'x's). */
    for (unsigned i = 0; i < MANY; i += 97) {
        int k = many_key(buf, sizeof buf, i);
        buf[k] = 'x';
        ck_assert_uint_eq(ss_strtab_find(&t, buf, (size_t)k + 1), SS_NONE);
    }
    /* Hash table keeps at least twice as many slots as strings. */
    ck_assert_uint_ge(t.index.cap, 2 * (size_t)MANY);
    ck_assert_uint_eq(t.index.cap & (t.index.cap - 1), 0);
    ss_strtab_free(&t);
}
END_TEST

START_TEST(test_content_stable_by_id)
{
    struct ss_strtab t;
    ss_strtab_init(&t);
    uint32_t first = ss_strtab_intern(&t, "stable", 6);
    const char *p0 = ss_strtab_get(&t, first);
    ck_assert_str_eq(p0, "stable");
    /* Grow the buffer a lot: the pointer may move, the content by id not. */
    char buf[32];
    for (unsigned i = 0; i < 20000; i++) {
        int k = snprintf(buf, sizeof buf, "filler-%u", i);
        ss_strtab_intern(&t, buf, (size_t)k);
    }
    ck_assert_str_eq(ss_strtab_get(&t, first), "stable");
    ck_assert_uint_eq(ss_strtab_len(&t, first), 6);
    ck_assert_str_eq(ss_strtab_get(&t, 1), "filler-0");
    ck_assert_str_eq(ss_strtab_get(&t, 20000), "filler-19999");
    ss_strtab_free(&t);
}
END_TEST

/* Interning bytes that live inside the table's own buffer (a substring of a
 * stored string) must work even when that intern moves the buffer. */
START_TEST(test_intern_from_own_buffer)
{
    struct ss_strtab t;
    ss_strtab_init(&t);
    enum { L = 3000 };
    char *s = malloc(L + 1);
    ck_assert_ptr_nonnull(s);
    for (int i = 0; i < L; i++)
        s[i] = (char)('a' + i % 26);
    s[L] = '\0';
    uint32_t base = ss_strtab_intern(&t, s, L);
    ck_assert_uint_eq(base, 0);
    /* Suffixes s[1..], s[2..], ...: all new (different lengths), ids 1, 2, ...;
     * together ~4.5 MB, so the buffer is reallocated many times while the
     * argument points into it. */
    for (int k = 1; k < L; k++) {
        const char *inside = ss_strtab_get(&t, base) + k;
        ck_assert_uint_eq(ss_strtab_intern(&t, inside, (size_t)(L - k)), (uint32_t)k);
    }
    for (int k = 1; k < L; k += 101) {
        ck_assert_uint_eq(ss_strtab_len(&t, (uint32_t)k), (size_t)(L - k));
        ck_assert_int_eq(memcmp(ss_strtab_get(&t, (uint32_t)k), s + k, (size_t)(L - k) + 1), 0);
    }
    /* The suffix of length 1 is the last byte of s: 'a' + 2999 % 26 = 'a' + 9 = 'j'. */
    ck_assert_str_eq(ss_strtab_get(&t, L - 1), "j");
    free(s);
    ss_strtab_free(&t);
}
END_TEST

START_TEST(test_too_long)
{
    struct ss_strtab t;
    ss_strtab_init(&t);
    /* The 1 GiB limit is checked before the bytes are read, so a short buffer
     * with a huge length is safe here. */
    ck_assert_uint_eq(ss_strtab_intern(&t, "x", (size_t)1 << 30), SS_NONE);
    ck_assert_uint_eq(t.n, 0);
    ss_strtab_free(&t);
}
END_TEST

/* strbuf.h: appends grow the buffer; text is never cut. */
START_TEST(test_strbuf)
{
    struct ss_strbuf b = SS_STRBUF_INIT;
    ck_assert_str_eq(ss_strbuf_str(&b), "");
    ck_assert_int_eq(ss_strbuf_printf(&b, "%s=%d", "a", 1), 0);
    ck_assert_str_eq(ss_strbuf_str(&b), "a=1");
    /* 10000 bytes more in one append: the buffer grows to hold them all */
    ck_assert_int_eq(ss_strbuf_printf(&b, ",%0*d", 10000, 7), 0);
    ck_assert_uint_eq(b.len, 3 + 1 + 10000);
    ck_assert_uint_eq(strlen(ss_strbuf_str(&b)), b.len);
    ck_assert_int_eq(ss_strbuf_str(&b)[b.len - 1], '7');
    ck_assert_int_eq(ss_strbuf_str(&b)[4], '0');
    ck_assert_int_eq(ss_strbuf_printf(&b, "%s", "!"), 0);
    ck_assert_int_eq(ss_strbuf_str(&b)[b.len - 1], '!');
    char *s = ss_strbuf_take(&b);
    ck_assert_ptr_nonnull(s);
    ck_assert_uint_eq(strlen(s), 10005);
    ck_assert_ptr_null(b.s); /* emptied */
    ck_assert_ptr_null(ss_strbuf_take(&b));
    free(s);
    ss_strbuf_free(&b);
}
END_TEST

Suite *strtab_suite(void)
{
    Suite *s = suite_create("strtab");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_equal_bytes_equal_ids);
    tcase_add_test(tc, test_strbuf);
    tcase_add_test(tc, test_arbitrary_bytes);
    tcase_add_test(tc, test_find_absent);
    tcase_add_test(tc, test_many_strings);
    tcase_add_test(tc, test_content_stable_by_id);
    tcase_add_test(tc, test_intern_from_own_buffer);
    tcase_add_test(tc, test_too_long);
    suite_add_tcase(s, tc);
    return s;
}
