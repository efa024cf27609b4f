/* strbuf.h - a growable string, for text that must not be cut: a warning
 * naming a long path, a comment written into a profile, a usage message
 * quoting the user's argument.  Fixed `char buf[N]` stays for text whose
 * length is bounded (numbers, a screen line).
 *
 * A zeroed struct (SS_STRBUF_INIT) is an empty string.  Appending grows the
 * buffer; when memory runs out the buffer keeps what it had and `failed` is
 * set, so a caller may append several times and check once.  The owner frees
 * it with ss_strbuf_free (a no-op on an empty one).
 */
#ifndef SS_STRBUF_H
#define SS_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct ss_strbuf {
    char *s;    /* NUL-terminated once anything was appended; NULL before */
    size_t len; /* bytes before the NUL */
    size_t cap; /* bytes allocated */
    int failed; /* an append ran out of memory */
};

#define SS_STRBUF_INIT                                                                             \
    {                                                                                              \
        NULL, 0, 0, 0                                                                              \
    }

/* Append printf-formatted text.  Returns 0, or -1 (out of memory: b->failed
 * is set and b holds what it had). */
int ss_strbuf_printf(struct ss_strbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int ss_strbuf_vprintf(struct ss_strbuf *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/* The text so far (borrowed; "" when nothing was appended). */
const char *ss_strbuf_str(const struct ss_strbuf *b);

/* Give the text to the caller (malloc'ed, freed with free(); NULL when
 * nothing was appended or an append failed) and empty b. */
char *ss_strbuf_take(struct ss_strbuf *b);

void ss_strbuf_free(struct ss_strbuf *b);

#endif
