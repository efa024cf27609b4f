/* match.h - the /regex/ matcher of transforms and labels: POSIX extended
 * regular expressions searched in linear time.
 *
 * glibc's regexec restarts its search at every position of the text: a
 * pattern such as a+x takes time quadratic in the length of a name (16 s on
 * one name of 100 KB), and the states it caches grow with the text (a
 * 1 MB name took 680 MB against (a|b)*a(a|b){20}x).  This module compiles
 * the expression into a Thompson automaton and runs it over the text once,
 * all positions at a time (Pike's simulation without submatches): the time
 * is at most the text's length times the automaton's size, the memory a
 * few words per state of the automaton, whatever the text.
 *
 * The language is glibc's POSIX extended syntax (regcomp with
 * REG_EXTENDED), read in the C locale: a pattern is first checked by
 * regcomp, so a bad one gets glibc's message, and then compiled here.  It
 * matches bytes: `.` and a bracket expression match one byte (a UTF-8 é is
 * two), ranges and classes ([:alpha:] ...) are ASCII's; the GNU operators
 * \w \W \s \S \b \B \< \> \` \' work; back-references are not supported.
 * The match is unanchored (use ^ and $) and only whether there is one is
 * reported.  A compiled expression is read-only while matching: several
 * threads may use it at once.
 */
#ifndef SS_MATCH_H
#define SS_MATCH_H

#include <stddef.h>
#include <stdint.h>

/* The largest automaton compiled (instructions); the transform parser's
 * limits keep a pattern far below it. */
#define SS_REGEX_MAX_PROG 100000

struct ss_rx_inst;
struct ss_rx_set;

struct ss_regex {
    struct ss_rx_inst *prog; /* the automaton; NULL when not compiled */
    struct ss_rx_set *sets;  /* the byte sets of its byte instructions */
    uint32_t n, nsets;
    uint64_t first[4]; /* the bytes a match can start with */
    int first_any;     /* ... or any position (a match may be empty) */
};

/* Compile `pattern` (NUL-terminated).  Returns 0; or -1 with why[0..whyn)
 * saying what is wrong ("Unmatched ( or \\(", "too large"), or -2 when
 * memory runs out.  *re needs ss_regex_free afterwards either way. */
int ss_regex_compile(struct ss_regex *re, const char *pattern, char *why, size_t whyn);

/* Does s[0..len) hold a match?  1, 0, or -1 when memory runs out.
 * `budget` (NULL: none) bounds the work of a series of matches: each byte
 * read costs the automaton's states alive at it, taken from *budget; -2
 * when it runs out (the series is too costly: see SS_REGEX_BUDGET). */
int ss_regex_match(const struct ss_regex *re, const char *s, size_t len, uint64_t *budget);

/* The budget of matching one pattern against texts of `bytes` bytes in
 * all: 256 live states per byte on average, and 2^24 steps whatever the
 * size (about 60 ms: the costliest pattern the parser allows, such as
 * .{0,128}.{0,128}x, runs to its end on a name of 10 KB).  Ordinary
 * patterns keep a few states alive; only one built to keep hundreds alive
 * at once (.*a.*a.*a... 100 times against aaaa...) runs out, after well
 * under a second for every megabyte of text, instead of taking seconds. */
#define SS_REGEX_BUDGET(bytes) ((uint64_t)(bytes)*256 + ((uint64_t)1 << 24))

/* Free what re holds; a zeroed or freed struct is a no-op. */
void ss_regex_free(struct ss_regex *re);

#endif
