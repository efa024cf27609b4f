/* textesc.h - names as safe text: control characters escaped.
 *
 * Function names, file names, labels and comments are data read from a
 * file: a name holding ESC [2J would clear the screen if printed raw, and
 * OSC sequences could set the terminal's title or its clipboard.  Every
 * printer of text for people (report --format text and tsv, check, error
 * and warning messages, the explorer) shows such text through this module,
 * with one rule (man page, CONTROL CHARACTERS):
 *
 *   - tab, line feed and carriage return as \t, \n and \r;
 *   - every other C0 control (0x00-0x1f) and DEL (0x7f) as \xNN (two
 *     lower-case hex digits): ESC is \x1b, BEL \x07;
 *   - the C1 controls U+0080-U+009F, written as UTF-8, as their two bytes:
 *     U+009B (CSI) is \xc2\x9b;
 *   - each byte that is not part of a valid UTF-8 sequence (a stray 0x9b,
 *     an overlong form, a surrogate, a cut-off sequence) as \xNN, so that an
 *     8-bit C1 byte never reaches the terminal;
 *   - everything else, valid printable UTF-8 included, as is.
 *
 * In text a backslash stands for itself (a name that holds the four
 * characters \x1b looks like an escaped ESC); in TSV (SS_ESC_TSV) it is
 * doubled, as the v2 tables write it, so TSV can be read back exactly.
 *
 * Writers of file formats (folded, Rprof, pprof, tables) do not use this:
 * they must round-trip.
 */
#ifndef SS_TEXTESC_H
#define SS_TEXTESC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum ss_esc_mode {
    SS_ESC_TEXT, /* text for people: a backslash as is */
    SS_ESC_TSV,  /* TSV: a backslash as \\ too */
};

/* Room for the longest escape of one unit ("\xc2\x9b") and its NUL. */
#define SS_ESC_MAX 9

/* Decode one UTF-8 character at s (len > 0 bytes left): returns the bytes
 * used (1-4) and stores the code point, or returns 1 and stores U+FFFD when
 * s does not start a valid, complete, shortest-form sequence (a surrogate
 * or a value past U+10FFFF is invalid too). */
int ss_utf8_decode(const char *s, size_t len, uint32_t *cp);

/* The unit (one character, or one byte that is not valid UTF-8) at the start
 * of s[0..len), len > 0: returns its length in bytes (1-4) and stores its
 * code point in *cp (U+FFFD for an invalid byte).  When the unit is shown
 * escaped, writes the escape and a NUL into esc; otherwise esc[0] is '\0'
 * and the bytes stand for themselves. */
size_t ss_esc_unit(const char *s, size_t len, enum ss_esc_mode mode, uint32_t *cp,
                   char esc[SS_ESC_MAX]);

/* Whether s[0..len) holds anything that is shown escaped. */
int ss_esc_needed(const char *s, size_t len, enum ss_esc_mode mode);

/* Write s[0..len) escaped into buf (n bytes), NUL-terminated when n > 0
 * (buf may be NULL when n is 0: only the length is wanted).  A unit
 * that does not fit whole is left out, with everything after it.  Returns
 * the length of the whole escaped text (as snprintf does): a result >= n
 * means buf holds a cut copy. */
size_t ss_esc_copy(char *buf, size_t n, const char *s, size_t len, enum ss_esc_mode mode);

/* Print the NUL-terminated s escaped to out. */
void ss_esc_fputs(const char *s, enum ss_esc_mode mode, FILE *out);

/* A growable buffer for escaped copies, for printf-style printing. */
struct ss_esc {
    enum ss_esc_mode mode;
    char *buf; /* owned; freed by ss_esc_free */
    size_t cap;
};
#define SS_ESC_INIT(mode)                                                                          \
    {                                                                                              \
        (mode), NULL, 0                                                                            \
    }

/* The NUL-terminated s as safe text: s itself when nothing needs escaping,
 * otherwise an escaped copy in e's buffer, valid until the next call with e
 * or ss_esc_free(e).  Out of memory, a fixed placeholder, never raw text.
 * Use one struct ss_esc per name printed by one printf call. */
const char *ss_esc(struct ss_esc *e, const char *s);

/* Free e's buffer (e stays usable). */
void ss_esc_free(struct ss_esc *e);

#endif
