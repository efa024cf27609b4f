/* check_match.c - the linear-time regex matcher (src/match.c).
 *
 * The reference is glibc's own regexec in the C locale: random patterns
 * built from the syntax's pieces (groups, alternation, every repetition
 * form, bracket expressions with ranges, classes, collating symbols and
 * equivalence classes, GNU operators, escapes, UTF-8 bytes) are compiled
 * by both and matched against random texts; every pattern glibc accepts
 * must give glibc's answer on every text.  The one difference the man page
 * states is left out of that comparison: glibc lets a ^ or $ inside a
 * pattern match next to a newline in the text, where POSIX (and match.c)
 * match them only at the text's ends.  Then hand-made cases: bytes, not
 * characters; the anchors' rule; the work budget; a pattern the parser's
 * limits would refuse still compiles and stays bounded. */
#define _GNU_SOURCE 1
#include <locale.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "check_suites.h"
#include "match.h"

static const char *const pieces[] = {
    "a",
    "b",
    "c",
    "_",
    " ",
    "-",
    "x",
    "ab",
    ".",
    "^",
    "$",
    "*",
    "+",
    "?",
    "{2}",
    "{0,1}",
    "{1,}",
    "{,2}",
    "|",
    "(",
    ")",
    "()",
    "[ab]",
    "[^a]",
    "[a-c]",
    "[]a]",
    "[^]b]",
    "[[:alpha:]]",
    "[[:digit:]_]",
    "[[:space:]]",
    "[a-]",
    "[[.a.]-c]",
    "[[=b=]]",
    "\\w",
    "\\W",
    "\\s",
    "\\S",
    "\\b",
    "\\B",
    "\\<",
    "\\>",
    "\\`",
    "\\'",
    "\\.",
    "\\(",
    "\\|",
    "\\{",
    "}",
    "\\a",
    "[\\]",
    "[[:punct:]]",
    "1",
    "\xc3\xa9",
    "\xc3",
    "{",
    "[[:upper:]x]",
    "[[:xdigit:][:blank:]]",
    "[^[:alnum:]]",
    "[[:cntrl:]]",
    "[[:print:][:graph:]]",
    "[.-/]",
};

static unsigned next_rand(unsigned *s)
{
    *s = *s * 1103515245u + 12345u;
    return (*s >> 16) & 0x7fff;
}

/* Compare with glibc over `iters` random patterns; texts from `alphabet`.
 * With no_anchor, patterns holding ^ or $ are skipped. */
static void differential(unsigned seed, int iters, const char *alphabet, int no_anchor)
{
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t old = uselocale(c);
    size_t na = strlen(alphabet);
    int compiled = 0;
    for (int it = 0; it < iters; it++) {
        char pat[256] = "";
        int nt = 1 + (int)(next_rand(&seed) % 8);
        for (int k = 0; k < nt; k++)
            strcat(pat, pieces[next_rand(&seed) % (sizeof pieces / sizeof *pieces)]);
        if (no_anchor && strpbrk(pat, "^$"))
            continue;
        regex_t r;
        if (regcomp(&r, pat, REG_EXTENDED | REG_NOSUB))
            continue;
        struct ss_regex re;
        char why[200];
        int rc = ss_regex_compile(&re, pat, why, sizeof why);
        ck_assert_msg(rc == 0, "[%s] refused: %s", pat, why);
        compiled++;
        for (int t = 0; t < 24; t++) {
            char s[16];
            size_t n = next_rand(&seed) % 10;
            for (size_t k = 0; k < n; k++)
                s[k] = alphabet[next_rand(&seed) % na];
            s[n] = '\0';
            int want = regexec(&r, s, 0, NULL, 0) == 0;
            int got = ss_regex_match(&re, s, n, NULL);
            ck_assert_msg(want == got, "[%s] on [%s]: glibc %d, ours %d", pat, s, want, got);
        }
        regfree(&r);
        ss_regex_free(&re);
    }
    uselocale(old);
    freelocale(c);
    ck_assert_int_gt(compiled, iters / 4);
}

START_TEST(test_same_as_glibc)
{
    differential(1, 6000, "abcx_ -.\xc3\xa9(1\tA}", 0);
}
END_TEST

START_TEST(test_same_as_glibc_newlines)
{
    differential(2, 6000, "abcx_ -.\xc3\xa9(1\n\t\x1b\x7f\xff", 1);
}
END_TEST

static int m(const char *pat, const char *s)
{
    struct ss_regex re;
    char why[200];
    ck_assert_msg(ss_regex_compile(&re, pat, why, sizeof why) == 0, "%s: %s", pat, why);
    int r = ss_regex_match(&re, s, strlen(s), NULL);
    ss_regex_free(&re);
    return r;
}

START_TEST(test_cases)
{
    /* unanchored; ^ and $ only at the ends, also next to a newline */
    ck_assert_int_eq(m("b", "abc"), 1);
    ck_assert_int_eq(m("^b", "abc"), 0);
    ck_assert_int_eq(m("^a.c$", "abc"), 1);
    ck_assert_int_eq(m("a$.", "a\nb"), 0);
    ck_assert_int_eq(m(".^b", "a\nb"), 0);
    ck_assert_int_eq(m("a$", "a\n"), 0);
    /* bytes: U+00E9 is two of them */
    ck_assert_int_eq(m("^.$", "\xc3\xa9"), 0);
    ck_assert_int_eq(m("^..$", "\xc3\xa9"), 1);
    ck_assert_int_eq(m("^[^a]{2}$", "\xc3\xa9"), 1);
    /* a name of an invalid byte still matches what is around it */
    ck_assert_int_eq(m("a.*b$", "a\xff\xfe"
                                "b"),
                     1);
    /* GNU operators */
    ck_assert_int_eq(m("\\bmain\\b", "R::main()"), 1);
    ck_assert_int_eq(m("\\<ain", "main"), 0);
    ck_assert_int_eq(m("\\w+::\\w+", "base::lapply"), 1);
    /* an empty group repeated, a nullable loop */
    ck_assert_int_eq(m("x()*y", "xy"), 1);
    ck_assert_int_eq(m("(a*)*$", "b"), 1);
    /* a ')' with no '(' is a byte, as glibc reads it */
    ck_assert_int_eq(m("a)", "a)"), 1);
    /* glibc's message for a bad one */
    struct ss_regex re;
    char why[200];
    ck_assert_int_eq(ss_regex_compile(&re, "a(b", why, sizeof why), -1);
    ck_assert_ptr_nonnull(strstr(why, "nmatched"));
    ss_regex_free(&re);
}
END_TEST

/* The issue's case: a+x against one name of 100 KB of 'a' was quadratic in
 * glibc; here it is one pass.  The budget counts live states per byte: 3
 * at most for a+x, so 300 KB stay within SS_REGEX_BUDGET(300 KB). */
START_TEST(test_long_name)
{
    size_t n = 300000;
    char *s = malloc(n + 1);
    ck_assert_ptr_nonnull(s);
    memset(s, 'a', n);
    s[n] = '\0';
    struct ss_regex re;
    char why[200];
    ck_assert_int_eq(ss_regex_compile(&re, "a+x", why, sizeof why), 0);
    uint64_t budget = SS_REGEX_BUDGET(n);
    ck_assert_int_eq(ss_regex_match(&re, s, n, &budget), 0);
    ck_assert_uint_gt(budget, SS_REGEX_BUDGET(n) - 10 * (uint64_t)n);
    s[n - 1] = 'x';
    ck_assert_int_eq(ss_regex_match(&re, s, n, NULL), 1);
    ss_regex_free(&re);
    /* a pattern built to keep hundreds of states alive: refused by the
     * budget (-2) instead of taking seconds */
    char pat[400] = "";
    for (int k = 0; k < 99; k++)
        strcat(pat, ".*a");
    strcat(pat, "x");
    ck_assert_int_eq(ss_regex_compile(&re, pat, why, sizeof why), 0);
    s[n - 1] = 'a';
    budget = SS_REGEX_BUDGET(n);
    ck_assert_int_eq(ss_regex_match(&re, s, n, &budget), -2);
    ss_regex_free(&re);
    free(s);
}
END_TEST

Suite *match_suite(void)
{
    Suite *s = suite_create("match");
    TCase *tc = tcase_create("core");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_same_as_glibc);
    tcase_add_test(tc, test_same_as_glibc_newlines);
    tcase_add_test(tc, test_cases);
    tcase_add_test(tc, test_long_name);
    suite_add_tcase(s, tc);
    return s;
}
