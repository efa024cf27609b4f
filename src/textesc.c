/* textesc.c - names as safe text (see textesc.h). */
#include "textesc.h"

#include <stdlib.h>
#include <string.h>

int ss_utf8_decode(const char *s, size_t len, uint32_t *cp)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80) {
        *cp = u[0];
        return 1;
    }
    int n;
    uint32_t v, min;
    if ((u[0] & 0xe0) == 0xc0)
        n = 2, v = u[0] & 0x1f, min = 0x80;
    else if ((u[0] & 0xf0) == 0xe0)
        n = 3, v = u[0] & 0x0f, min = 0x800;
    else if ((u[0] & 0xf8) == 0xf0)
        n = 4, v = u[0] & 0x07, min = 0x10000;
    else {
        *cp = 0xfffd;
        return 1;
    }
    if ((size_t)n > len) {
        *cp = 0xfffd;
        return 1;
    }
    for (int i = 1; i < n; i++) {
        if ((u[i] & 0xc0) != 0x80) {
            *cp = 0xfffd;
            return 1;
        }
        v = v << 6 | (u[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
        *cp = 0xfffd;
        return 1;
    }
    *cp = v;
    return n;
}

static const char hex[] = "0123456789abcdef";

static char *put_hex(char *p, unsigned char b)
{
    p[0] = '\\';
    p[1] = 'x';
    p[2] = hex[b >> 4];
    p[3] = hex[b & 15];
    return p + 4;
}

size_t ss_esc_unit(const char *s, size_t len, enum ss_esc_mode mode, uint32_t *cp,
                   char esc[SS_ESC_MAX])
{
    unsigned char b = (unsigned char)s[0];
    esc[0] = '\0';
    if (b >= 0x20 && b < 0x7f) { /* printable ASCII: the common case */
        *cp = b;
        if (b == '\\' && mode == SS_ESC_TSV)
            memcpy(esc, "\\\\", 3);
        return 1;
    }
    int n = ss_utf8_decode(s, len, cp);
    if (b == '\t' || b == '\n' || b == '\r') {
        esc[0] = '\\';
        esc[1] = b == '\t' ? 't' : b == '\n' ? 'n' : 'r';
        esc[2] = '\0';
    } else if (b < 0x80) { /* the other C0 controls and DEL */
        *put_hex(esc, b) = '\0';
    } else if (*cp == 0xfffd && n == 1) { /* not UTF-8: this byte alone */
        *put_hex(esc, b) = '\0';
    } else if (*cp < 0xa0) { /* a C1 control in UTF-8: both bytes */
        *put_hex(put_hex(esc, b), (unsigned char)s[1]) = '\0';
    }
    return (size_t)n;
}

int ss_esc_needed(const char *s, size_t len, enum ss_esc_mode mode)
{
    for (size_t i = 0; i < len;) {
        unsigned char b = (unsigned char)s[i];
        if (b >= 0x20 && b < 0x7f && (b != '\\' || mode != SS_ESC_TSV)) {
            i++;
            continue;
        }
        uint32_t cp;
        char esc[SS_ESC_MAX];
        size_t k = ss_esc_unit(s + i, len - i, mode, &cp, esc);
        if (esc[0])
            return 1;
        i += k;
    }
    return 0;
}

size_t ss_esc_copy(char *buf, size_t n, const char *s, size_t len, enum ss_esc_mode mode)
{
    size_t out = 0; /* the whole escaped length */
    int cut = 0;
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        char esc[SS_ESC_MAX];
        size_t k = ss_esc_unit(s + i, len - i, mode, &cp, esc);
        const char *piece = esc[0] ? esc : s + i;
        size_t pn = esc[0] ? strlen(esc) : k;
        if (!cut && out + pn < n) {
            memcpy(buf + out, piece, pn);
        } else if (!cut) {
            cut = 1;
            if (n)
                buf[out] = '\0';
        }
        out += pn;
        i += k;
    }
    if (!cut && n)
        buf[out] = '\0';
    return out;
}

void ss_esc_fputs(const char *s, enum ss_esc_mode mode, FILE *out)
{
    size_t len = strlen(s), run = 0, i = 0;
    while (i < len) {
        uint32_t cp;
        char esc[SS_ESC_MAX];
        size_t k = ss_esc_unit(s + i, len - i, mode, &cp, esc);
        if (esc[0]) {
            fwrite(s + run, 1, i - run, out);
            fputs(esc, out);
            run = i + k;
        }
        i += k;
    }
    fwrite(s + run, 1, len - run, out);
}

const char *ss_esc(struct ss_esc *e, const char *s)
{
    size_t len = strlen(s);
    if (!ss_esc_needed(s, len, e->mode))
        return s;
    size_t need = ss_esc_copy(NULL, 0, s, len, e->mode) + 1;
    if (need > e->cap) {
        char *nb = realloc(e->buf, need);
        if (!nb)
            return "(name not shown: out of memory)";
        e->buf = nb;
        e->cap = need;
    }
    ss_esc_copy(e->buf, e->cap, s, len, e->mode);
    return e->buf;
}

void ss_esc_free(struct ss_esc *e)
{
    free(e->buf);
    e->buf = NULL;
    e->cap = 0;
}
