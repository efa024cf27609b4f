/* check_textesc.c - names as safe text (src/textesc.h): the escape rule,
 * byte by byte, against hand-written expectations. */
#include "check_suites.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "textesc.h"
#include "vec.h"

static const char *esc_text(const char *s, enum ss_esc_mode mode)
{
    static char buf[256];
    size_t n = ss_esc_copy(buf, sizeof buf, s, strlen(s), mode);
    ck_assert_uint_lt(n, sizeof buf);
    ck_assert_uint_eq(strlen(buf), n);
    return buf;
}

/* No byte that a terminal acts on: C0, DEL, and 0x80-0x9f outside a UTF-8
 * sequence of a printable character. */
static int has_control(const char *s)
{
    for (const unsigned char *u = (const unsigned char *)s; *u; u++)
        if (*u < 0x20 || *u == 0x7f)
            return 1;
    for (size_t i = 0, n = strlen(s); i < n;) {
        uint32_t cp;
        int k = ss_utf8_decode(s + i, n - i, &cp);
        if (cp == 0xfffd && k == 1 && (unsigned char)s[i] >= 0x80)
            return 1; /* not UTF-8 */
        if (cp >= 0x80 && cp < 0xa0)
            return 1;
        i += (size_t)k;
    }
    return 0;
}

START_TEST(test_c0_and_del)
{
    /* the issue's name: ESC [2J ESC ]0;pwned BEL */
    ck_assert_str_eq(esc_text("evil\x1b[2J\x1b]0;pwned\x07", SS_ESC_TEXT),
                     "evil\\x1b[2J\\x1b]0;pwned\\x07");
    ck_assert_str_eq(esc_text("a\tb\nc\rd", SS_ESC_TEXT), "a\\tb\\nc\\rd");
    ck_assert_str_eq(esc_text("\x01\x1f\x7f", SS_ESC_TEXT), "\\x01\\x1f\\x7f");
    /* OSC 52 (clipboard) cannot get through */
    ck_assert_str_eq(esc_text("\x1b]52;c;aGk=\x07", SS_ESC_TEXT), "\\x1b]52;c;aGk=\\x07");
}
END_TEST

START_TEST(test_c1_and_invalid)
{
    /* U+009B (CSI) as UTF-8: both bytes */
    ck_assert_str_eq(esc_text("a\xc2\x9b"
                              "b",
                              SS_ESC_TEXT),
                     "a\\xc2\\x9bb");
    ck_assert_str_eq(esc_text("\xc2\x80\xc2\x9f", SS_ESC_TEXT), "\\xc2\\x80\\xc2\\x9f");
    /* U+00A0 (no-break space) is the first printable one: as is */
    ck_assert_str_eq(esc_text("\xc2\xa0", SS_ESC_TEXT), "\xc2\xa0");
    /* a stray 8-bit CSI, a Latin-1 e-acute, a cut-off sequence */
    ck_assert_str_eq(esc_text("x\x9b"
                              "2J",
                              SS_ESC_TEXT),
                     "x\\x9b2J");
    ck_assert_str_eq(esc_text("caf\xe9", SS_ESC_TEXT), "caf\\xe9");
    ck_assert_str_eq(esc_text("\xe6\x95", SS_ESC_TEXT), "\\xe6\\x95");
    /* overlong ESC (C0 9B), a surrogate, past U+10FFFF: each byte */
    ck_assert_str_eq(esc_text("\xc0\x9b", SS_ESC_TEXT), "\\xc0\\x9b");
    ck_assert_str_eq(esc_text("\xed\xa0\x80", SS_ESC_TEXT), "\\xed\\xa0\\x80");
    ck_assert_str_eq(esc_text("\xf4\x90\x80\x80", SS_ESC_TEXT), "\\xf4\\x90\\x80\\x80");
    ck_assert_str_eq(esc_text("\xff\xfe", SS_ESC_TEXT), "\\xff\\xfe");
}
END_TEST

START_TEST(test_printable_kept)
{
    const char *s[] = {
        "main",
        "caf\xc3\xa9",              /* cafe, e-acute */
        "\xe9\x96\xa2\xe6\x95\xb0", /* two CJK characters */
        "\xf0\x9f\x94\xa5",         /* U+1F525, 4 bytes */
        "fns[[\"a b\"]]",
        "C:\\Users\\x1b.R", /* backslashes in text */
        "",
    };
    for (size_t i = 0; i < ARRAY_SIZE(s); i++) {
        ck_assert_str_eq(esc_text(s[i], SS_ESC_TEXT), s[i]);
        ck_assert_int_eq(ss_esc_needed(s[i], strlen(s[i]), SS_ESC_TEXT), 0);
        struct ss_esc e = SS_ESC_INIT(SS_ESC_TEXT);
        ck_assert_ptr_eq(ss_esc(&e, s[i]), s[i]); /* no copy */
        ss_esc_free(&e);
    }
}
END_TEST

START_TEST(test_tsv)
{
    /* as the v2 tables: \\ \t \n \r; the rest as in text */
    ck_assert_str_eq(esc_text("a\\b\tc\nd\re", SS_ESC_TSV), "a\\\\b\\tc\\nd\\re");
    ck_assert_str_eq(esc_text("\x1b[2J\xc2\x9b\x9b", SS_ESC_TSV), "\\x1b[2J\\xc2\\x9b\\x9b");
    ck_assert_int_eq(ss_esc_needed("a\\b", 3, SS_ESC_TSV), 1);
    ck_assert_int_eq(ss_esc_needed("a\\b", 3, SS_ESC_TEXT), 0);
    ck_assert_str_eq(esc_text("caf\xc3\xa9", SS_ESC_TSV), "caf\xc3\xa9");
}
END_TEST

START_TEST(test_every_byte)
{
    /* every single byte and every two-byte string: no control gets through */
    char s[3] = {0, 0, 0}, buf[32];
    for (int a = 1; a < 256; a++)
        for (int b = 0; b < 256; b++) {
            s[0] = (char)a;
            s[1] = (char)b;
            size_t n = ss_esc_copy(buf, sizeof buf, s, strlen(s), SS_ESC_TEXT);
            ck_assert_uint_lt(n, sizeof buf);
            ck_assert_msg(!has_control(buf), "bytes %02x %02x -> %s", a, b, buf);
        }
}
END_TEST

START_TEST(test_cut_and_buffer)
{
    char buf[8];
    /* "ab" ESC "cdef" escaped is 10 bytes: 8 hold "ab\x1bc" and the NUL */
    size_t n = ss_esc_copy(buf, sizeof buf,
                           "ab\x1b"
                           "cdef",
                           7, SS_ESC_TEXT);
    ck_assert_uint_eq(n, 10); /* ab \x1b cdef */
    ck_assert_str_eq(buf, "ab\\x1bc");
    n = ss_esc_copy(buf, 5, "ab\x1b", 3, SS_ESC_TEXT);
    ck_assert_uint_eq(n, 6);
    ck_assert_str_eq(buf, "ab"); /* never half an escape */
    ck_assert_uint_eq(ss_esc_copy(NULL, 0, "\x1b", 1, SS_ESC_TEXT), 4);
    /* the growable buffer: escaped copies, reused */
    struct ss_esc e = SS_ESC_INIT(SS_ESC_TEXT);
    ck_assert_str_eq(ss_esc(&e, "x\x07"), "x\\x07");
    char big[600];
    memset(big, 0x1b, sizeof big - 1);
    big[sizeof big - 1] = '\0';
    const char *t = ss_esc(&e, big);
    ck_assert_uint_eq(strlen(t), 4 * (sizeof big - 1));
    ck_assert(!has_control(t));
    ss_esc_free(&e);
}
END_TEST

START_TEST(test_random_strings)
{
    /* random bytes (biased to the interesting ones), every buffer size: a
     * cut copy is a prefix of the whole one ending at a unit boundary, the
     * printed form equals the copy, and nothing unsafe gets through */
    static const unsigned char pool[] = {'a',  'Z',  ' ',  '\\', '\t', '\n', 0x1b,
                                         0x07, 0x7f, 0x80, 0x9b, 0xbf, 0xc2, 0xc3,
                                         0xa9, 0xe6, 0x95, 0xb0, 0xf0, 0x9f, 0xff};
    unsigned seed = 12345;
    char s[40], whole[400], part[400], printed[400];
    for (int iter = 0; iter < 2000; iter++) {
        seed = seed * 1103515245u + 12345u;
        size_t len = (seed >> 16) % sizeof s;
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            s[i] = (char)pool[(seed >> 16) % sizeof pool];
        }
        for (int mode = SS_ESC_TEXT; mode <= SS_ESC_TSV; mode++) {
            size_t n = ss_esc_copy(whole, sizeof whole, s, len, (enum ss_esc_mode)mode);
            ck_assert_uint_lt(n, sizeof whole);
            ck_assert_uint_eq(strlen(whole), n);
            ck_assert(!has_control(whole));
            ck_assert_int_eq(ss_esc_needed(s, len, (enum ss_esc_mode)mode),
                             n != len || memcmp(whole, s, len) != 0);
            for (size_t cap = 1; cap <= n + 1; cap++) {
                ck_assert_uint_eq(ss_esc_copy(part, cap, s, len, (enum ss_esc_mode)mode), n);
                size_t k = strlen(part);
                ck_assert_uint_lt(k, cap);
                ck_assert(memcmp(part, whole, k) == 0);
                if (cap <= n) /* cut: at most one unit (8 bytes) short of the room */
                    ck_assert_uint_ge(k + 8, cap);
                else
                    ck_assert_uint_eq(k, n);
            }
            s[len] = '\0';
            if (strlen(s) == len) {
                printed[0] = '\0'; /* fmemopen leaves it when nothing is written */
                FILE *f = fmemopen(printed, sizeof printed, "w");
                ck_assert_ptr_nonnull(f);
                ss_esc_fputs(s, (enum ss_esc_mode)mode, f);
                fclose(f);
                ck_assert_str_eq(printed, whole);
            }
        }
    }
}
END_TEST

START_TEST(test_error_messages)
{
    /* an error value is printable text whatever it quotes */
    struct ss_error err;
    ss_error_clear(&err);
    ck_assert_int_eq(ss_fail(&err, SS_EINPUT, "f.out: line 2: bad name '%s'", "a\x1b]0;x\x07\x9b"),
                     SS_EINPUT);
    ck_assert_str_eq(err.msg, "f.out: line 2: bad name 'a\\x1b]0;x\\x07\\x9b'");
    /* a long message cut in the middle of a character loses the whole character */
    char name[2000];
    size_t k = 0;
    while (k + 3 < sizeof name) {
        memcpy(name + k, "\xe6\x95\xb0", 3);
        k += 3;
    }
    name[k] = '\0';
    ss_fail(&err, SS_EINPUT, "x%s", name);
    ck_assert(!has_control(err.msg));
    size_t len = strlen(err.msg);
    ck_assert_uint_eq((len - 1) % 3, 0);
    ck_assert_uint_gt(len, 1000);
}
END_TEST

Suite *textesc_suite(void)
{
    Suite *s = suite_create("textesc");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_c0_and_del);
    tcase_add_test(tc, test_c1_and_invalid);
    tcase_add_test(tc, test_printable_kept);
    tcase_add_test(tc, test_tsv);
    tcase_add_test(tc, test_every_byte);
    tcase_add_test(tc, test_cut_and_buffer);
    tcase_add_test(tc, test_random_strings);
    tcase_add_test(tc, test_error_messages);
    suite_add_tcase(s, tc);
    return s;
}
