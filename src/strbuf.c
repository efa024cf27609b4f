/* strbuf.c - a growable string (see strbuf.h). */
#include "strbuf.h"

#include <stdio.h>
#include <stdlib.h>

#include "vec.h"

int ss_strbuf_vprintf(struct ss_strbuf *b, const char *fmt, va_list ap)
{
    va_list again;
    va_copy(again, ap);
    char none[1];
    size_t room = b->s ? b->cap - b->len : 0;
    int n = vsnprintf(b->s ? b->s + b->len : none, b->s ? room : 1, fmt, ap);
    if (n < 0) {
        va_end(again);
        b->failed = 1;
        return -1;
    }
    if ((size_t)n >= room) {
        size_t need = b->len + (size_t)n + 1;
        if (need < b->len || ss_grow((void **)&b->s, &b->cap, need, 1)) {
            if (b->s)
                b->s[b->len] = '\0'; /* keep what it had */
            va_end(again);
            b->failed = 1;
            return -1;
        }
        vsnprintf(b->s + b->len, b->cap - b->len, fmt, again);
    }
    va_end(again);
    b->len += (size_t)n;
    return 0;
}

int ss_strbuf_printf(struct ss_strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = ss_strbuf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

const char *ss_strbuf_str(const struct ss_strbuf *b)
{
    return b->s ? b->s : "";
}

char *ss_strbuf_take(struct ss_strbuf *b)
{
    char *s = b->failed ? NULL : b->s;
    if (!s)
        free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
    return s;
}

void ss_strbuf_free(struct ss_strbuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}
