/* json.c - strict JSON reader (see json.h). */
#include "json.h"
#include "num.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct parser {
    struct ss_json *j;
    const unsigned char *p;
    size_t n, pos;
    const char *path;
    struct ss_error *err;
};

static int bad(struct parser *P, size_t at, const char *what)
{
    if (at >= P->n)
        return ss_fail(P->err, SS_EINPUT, "%s: byte %zu: the JSON text ends early: %s", P->path,
                       P->n, what);
    return ss_fail(P->err, SS_EINPUT, "%s: byte %zu: %s", P->path, at, what);
}

static int is_ws(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int ss_json_ws(const unsigned char *p, size_t n, size_t *pos)
{
    while (*pos < n && is_ws(p[*pos]))
        (*pos)++;
    return *pos < n;
}

static void skip_ws(struct parser *P)
{
    ss_json_ws(P->p, P->n, &P->pos);
}

static int new_node(struct parser *P, uint8_t type, uint32_t *id)
{
    if (P->j->nodes.n >= UINT32_MAX - 1)
        return bad(P, P->pos, "too many values");
    struct ss_json_node nd;
    memset(&nd, 0, sizeof nd);
    nd.type = type;
    nd.off = (uint32_t)P->pos;
    nd.next = SS_JSON_NONE;
    if (VEC_PUSH(P->j->nodes, nd))
        return ss_nomem(P->err, "JSON values");
    *id = (uint32_t)(P->j->nodes.n - 1);
    return 0;
}

/* Length of the UTF-8 sequence at p[0..n) (1-4), or 0 when invalid. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t k;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        k = 2, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        k = 3, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        k = 4, min = 0x10000;
    else
        return 0;
    if (n < k)
        return 0;
    unsigned cp = c & (0x7f >> k);
    for (size_t i = 1; i < k; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return k;
}

static int hex4(const unsigned char *p, size_t n, size_t at, unsigned *v)
{
    if (at + 4 > n)
        return -1;
    *v = 0;
    for (size_t i = 0; i < 4; i++) {
        unsigned char c = p[at + i];
        unsigned d = c >= '0' && c <= '9'   ? c - '0'
                     : c >= 'a' && c <= 'f' ? c - 'a' + 10
                     : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                            : 16;
        if (d == 16)
            return -1;
        *v = *v << 4 | d;
    }
    return 0;
}

/* Append code point cp as UTF-8; U+0000 (\u0000) as the four characters
 * \x00, as the program shows a NUL (textesc.h): a string of the model
 * cannot hold one (names are C strings: it cut reports short, and a
 * folded line with a NUL was no line a reader takes). */
static int put_utf8(struct parser *P, unsigned cp)
{
    char b[4];
    size_t k;
    if (cp == 0)
        memcpy(b, "\\x00", 4), k = 4;
    else if (cp < 0x80)
        b[0] = (char)cp, k = 1;
    else if (cp < 0x800)
        b[0] = (char)(0xc0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3f)), k = 2;
    else if (cp < 0x10000)
        b[0] = (char)(0xe0 | cp >> 12), b[1] = (char)(0x80 | (cp >> 6 & 0x3f)),
        b[2] = (char)(0x80 | (cp & 0x3f)), k = 3;
    else
        b[0] = (char)(0xf0 | cp >> 18), b[1] = (char)(0x80 | (cp >> 12 & 0x3f)),
        b[2] = (char)(0x80 | (cp >> 6 & 0x3f)), b[3] = (char)(0x80 | (cp & 0x3f)), k = 4;
    if (VEC_RESERVE(P->j->strs, P->j->strs.n + k))
        return ss_nomem(P->err, "JSON strings");
    memcpy(P->j->strs.v + P->j->strs.n, b, k);
    P->j->strs.n += k;
    return 0;
}

/* A string at P->pos (the opening quote): decoded into strs, NUL added. */
static int parse_string(struct parser *P, uint32_t *off, uint32_t *len)
{
    const unsigned char *p = P->p;
    size_t n = P->n, i = P->pos + 1;
    struct ss_json *j = P->j;
    size_t start = j->strs.n;
    for (;;) {
        /* copy a run of plain bytes at once */
        size_t a = i;
        while (i < n && p[i] != '"' && p[i] != '\\' && p[i] >= 0x20 && p[i] < 0x80)
            i++;
        if (i > a) {
            if (VEC_RESERVE(j->strs, j->strs.n + (i - a) + 1))
                return ss_nomem(P->err, "JSON strings");
            memcpy(j->strs.v + j->strs.n, p + a, i - a);
            j->strs.n += i - a;
        }
        if (i >= n)
            return bad(P, n, "a string is not closed");
        unsigned char c = p[i];
        if (c == '"') {
            i++;
            break;
        }
        if (c < 0x20)
            return bad(P, i, "a control character inside a string (escape it as \\u00XX)");
        if (c >= 0x80) {
            size_t k = utf8_len(p + i, n - i);
            if (!k)
                return bad(P, i, "invalid UTF-8 in a string");
            if (VEC_RESERVE(j->strs, j->strs.n + k))
                return ss_nomem(P->err, "JSON strings");
            memcpy(j->strs.v + j->strs.n, p + i, k);
            j->strs.n += k;
            i += k;
            continue;
        }
        /* a backslash */
        if (i + 1 >= n)
            return bad(P, n, "a string is not closed");
        unsigned char e = p[i + 1];
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            static const char out[] = "\"\\/\b\f\n\r\t";
            if (VEC_PUSH(j->strs, out[simple - "\"\\/bfnrt"]))
                return ss_nomem(P->err, "JSON strings");
            i += 2;
            continue;
        }
        if (e != 'u')
            return bad(P, i,
                       "an invalid escape in a string (expected \\\" \\\\ \\/ \\b \\f \\n "
                       "\\r \\t or \\uXXXX)");
        unsigned cp, lo;
        if (hex4(p, n, i + 2, &cp))
            return bad(P, i, "\\u must be followed by four hexadecimal digits");
        i += 6;
        if (cp >= 0xdc00 && cp <= 0xdfff)
            return bad(P, i - 6, "a lone low surrogate (\\uDC00-\\uDFFF) in a string");
        if (cp >= 0xd800 && cp <= 0xdbff) {
            if (i + 1 >= n || p[i] != '\\' || p[i + 1] != 'u' || hex4(p, n, i + 2, &lo) ||
                lo < 0xdc00 || lo > 0xdfff)
                return bad(P, i - 6,
                           "a high surrogate not followed by a low one (\\uDC00-\\uDFFF)");
            cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            i += 6;
        }
        if (put_utf8(P, cp))
            return P->err->code;
    }
    if (j->strs.n - start > UINT32_MAX - 2 || j->strs.n >= UINT32_MAX - 1)
        return bad(P, P->pos, "too much string data");
    if (VEC_PUSH(j->strs, '\0'))
        return ss_nomem(P->err, "JSON strings");
    *off = (uint32_t)start;
    *len = (uint32_t)(j->strs.n - 1 - start);
    P->pos = i;
    return 0;
}

/* A number by RFC 8259's grammar. */
static int parse_number(struct parser *P, double *v)
{
    const unsigned char *p = P->p;
    size_t n = P->n, i = P->pos, a = i;
    if (i < n && p[i] == '-')
        i++;
    if (i >= n || p[i] < '0' || p[i] > '9')
        return bad(P, a,
                   "expected a value (a number, string, object, array, true, false or "
                   "null)");
    if (p[i] == '0') {
        i++;
        if (i < n && p[i] >= '0' && p[i] <= '9')
            return bad(P, a, "a number with a leading zero");
    } else
        while (i < n && p[i] >= '0' && p[i] <= '9')
            i++;
    if (i < n && p[i] == '.') {
        i++;
        if (i >= n || p[i] < '0' || p[i] > '9')
            return bad(P, i, "expected a digit after the decimal point");
        while (i < n && p[i] >= '0' && p[i] <= '9')
            i++;
    }
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-'))
            i++;
        if (i >= n || p[i] < '0' || p[i] > '9')
            return bad(P, i, "expected a digit in the exponent");
        while (i < n && p[i] >= '0' && p[i] <= '9')
            i++;
    }
    char buf[64];
    size_t len = i - a;
    if (len >= sizeof buf)
        return bad(P, a, "a number longer than 63 characters");
    memcpy(buf, p + a, len);
    buf[len] = '\0';
    errno = 0;
    *v = strtod(buf, NULL);
    if (!isfinite(*v))
        return bad(P, a, "a number out of range");
    P->pos = i;
    return 0;
}

static int parse_value(struct parser *P, unsigned depth, uint32_t *out);

static int parse_container(struct parser *P, unsigned depth, uint32_t id, int object)
{
    uint32_t last = SS_JSON_NONE, count = 0;
    char close = object ? '}' : ']';
    P->pos++; /* the opening bracket */
    skip_ws(P);
    if (P->pos < P->n && P->p[P->pos] == close) {
        P->pos++;
        P->j->nodes.v[id].u.kids.first = SS_JSON_NONE;
        return 0;
    }
    P->j->nodes.v[id].u.kids.first = SS_JSON_NONE;
    for (;;) {
        uint32_t koff = 0, klen = 0, kid;
        skip_ws(P);
        if (object) {
            if (P->pos >= P->n || P->p[P->pos] != '"')
                return bad(P, P->pos, "expected a member name (a string in double quotes)");
            if (parse_string(P, &koff, &klen))
                return P->err->code;
            skip_ws(P);
            if (P->pos >= P->n || P->p[P->pos] != ':')
                return bad(P, P->pos, "expected ':' after a member name");
            P->pos++;
            skip_ws(P);
        }
        int rc = parse_value(P, depth + 1, &kid);
        if (rc)
            return rc;
        struct ss_json_node *k = &P->j->nodes.v[kid];
        k->key = koff;
        k->key_len = klen;
        if (last == SS_JSON_NONE)
            P->j->nodes.v[id].u.kids.first = kid;
        else
            P->j->nodes.v[last].next = kid;
        last = kid;
        count++;
        skip_ws(P);
        if (P->pos >= P->n)
            return bad(P, P->n, object ? "expected ',' or '}'" : "expected ',' or ']'");
        if (P->p[P->pos] == ',') {
            P->pos++;
            skip_ws(P);
            if (P->pos < P->n && P->p[P->pos] == close)
                return bad(P, P->pos, "a comma before a closing bracket (trailing comma)");
            continue;
        }
        if (P->p[P->pos] == close) {
            P->pos++;
            break;
        }
        return bad(P, P->pos, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    P->j->nodes.v[id].u.kids.n = count;
    return 0;
}

static int literal(struct parser *P, const char *word)
{
    size_t k = strlen(word);
    if (P->n - P->pos < k || memcmp(P->p + P->pos, word, k))
        return bad(P, P->pos,
                   "expected a value (a number, string, object, array, true, false or "
                   "null)");
    P->pos += k;
    return 0;
}

static int parse_value(struct parser *P, unsigned depth, uint32_t *out)
{
    if (depth > SS_JSON_MAX_DEPTH)
        return bad(P, P->pos, "nested deeper than 512 arrays and objects");
    skip_ws(P);
    if (P->pos >= P->n)
        return bad(P, P->n, "expected a value");
    unsigned char c = P->p[P->pos];
    uint32_t id;
    int rc;
    switch (c) {
    case '{':
    case '[':
        if ((rc = new_node(P, c == '{' ? SS_JSON_OBJECT : SS_JSON_ARRAY, &id)))
            return rc;
        rc = parse_container(P, depth, id, c == '{');
        break;
    case '"': {
        uint32_t off, len;
        if ((rc = new_node(P, SS_JSON_STRING, &id)))
            return rc;
        rc = parse_string(P, &off, &len);
        if (!rc) {
            P->j->nodes.v[id].u.str.off = off;
            P->j->nodes.v[id].u.str.len = len;
        }
        break;
    }
    case 't':
        if ((rc = new_node(P, SS_JSON_TRUE, &id)))
            return rc;
        rc = literal(P, "true");
        break;
    case 'f':
        if ((rc = new_node(P, SS_JSON_FALSE, &id)))
            return rc;
        rc = literal(P, "false");
        break;
    case 'n':
        if ((rc = new_node(P, SS_JSON_NULL, &id)))
            return rc;
        rc = literal(P, "null");
        break;
    default: {
        double v = 0;
        if ((rc = new_node(P, SS_JSON_NUMBER, &id)))
            return rc;
        rc = parse_number(P, &v);
        if (!rc)
            P->j->nodes.v[id].u.num = v;
    }
    }
    *out = id;
    return rc;
}

int ss_json_parse(struct ss_json *j, const char *p, size_t n, const char *path,
                  struct ss_error *err)
{
    memset(j, 0, sizeof *j);
    struct parser P = {j, (const unsigned char *)p, n, 0, path, err};
    if (n > SS_JSON_MAX_BYTES)
        return ss_fail(err, SS_EINPUT, "%s: larger than %zu MiB, the limit for JSON", path,
                       SS_JSON_MAX_BYTES >> 20);
    /* a UTF-8 byte order mark is not JSON (RFC 8259 8.1), but harmless */
    if (n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
        P.pos = 3;
    uint32_t top;
    int rc = parse_value(&P, 1, &top);
    if (rc)
        return rc;
    skip_ws(&P);
    if (P.pos < n)
        return bad(&P, P.pos, "more text after the JSON value");
    return 0;
}

int ss_json_with(struct ss_reader *r, const char *p, size_t n, const char *path, ss_json_doc_fn doc,
                 void *ctx, struct ss_error *err)
{
    struct ss_json j;
    int rc = r ? ss_json_load(&j, r, path, err) : ss_json_parse(&j, p, n, path, err);
    if (!rc)
        rc = doc(ctx, &j, path, err);
    ss_json_free(&j);
    return rc;
}

void ss_json_free(struct ss_json *j)
{
    VEC_FREE(j->nodes);
    VEC_FREE(j->strs);
}

int ss_json_load(struct ss_json *j, struct ss_reader *r, const char *path, struct ss_error *err)
{
    memset(j, 0, sizeof *j);
    struct ss_whole w;
    int rc = ss_reader_whole(r, SS_JSON_MAX_BYTES, " for JSON", &w, err);
    if (rc)
        return rc;
    rc = ss_json_parse(j, w.p, w.n, path, err);
    ss_reader_whole_free(&w);
    return rc;
}

uint32_t ss_json_member(const struct ss_json *j, uint32_t obj, const char *key)
{
    if (obj == SS_JSON_NONE || j->nodes.v[obj].type != SS_JSON_OBJECT)
        return SS_JSON_NONE;
    size_t k = strlen(key);
    for (uint32_t c = j->nodes.v[obj].u.kids.first; c != SS_JSON_NONE; c = j->nodes.v[c].next) {
        const struct ss_json_node *nd = &j->nodes.v[c];
        if (nd->key_len == k && !memcmp(j->strs.v + nd->key, key, k))
            return c;
    }
    return SS_JSON_NONE;
}

const char *ss_json_string(const struct ss_json *j, uint32_t id, size_t *len)
{
    const struct ss_json_node *nd = &j->nodes.v[id];
    if (len)
        *len = nd->u.str.len;
    return j->strs.v + nd->u.str.off;
}

const char *ss_json_key(const struct ss_json *j, uint32_t id, size_t *len)
{
    const struct ss_json_node *nd = &j->nodes.v[id];
    if (len)
        *len = nd->key_len;
    return j->strs.v ? j->strs.v + nd->key : "";
}

int ss_json_int(const struct ss_json *j, uint32_t id, int64_t lo, int64_t hi, int64_t *v)
{
    if (id == SS_JSON_NONE || j->nodes.v[id].type != SS_JSON_NUMBER)
        return 0;
    double d = j->nodes.v[id].u.num;
    if (!ss_double_eq(d, floor(d)) || d < (double)lo || d > (double)hi)
        return 0;
    *v = (int64_t)d;
    return 1;
}

const char *ss_json_type_name(int type)
{
    static const char *const names[] = {"null",     "false",    "true",     "a number",
                                        "a string", "an array", "an object"};
    return type >= 0 && type <= SS_JSON_OBJECT ? names[type] : "?";
}

/* ---- detection on a prefix ---------------------------------------------- */

/* Skip a string at p[*pos] (the quote): 1, 0 (malformed), -1 (cut off). */
static int skip_string(const unsigned char *p, size_t n, size_t *pos)
{
    size_t i = *pos + 1;
    while (i < n) {
        if (p[i] == '"') {
            *pos = i + 1;
            return 1;
        }
        if (p[i] < 0x20)
            return 0;
        i += p[i] == '\\' ? 2 : 1;
    }
    return -1;
}

int ss_json_skip(const unsigned char *p, size_t n, size_t *pos)
{
    /* containers by counting brackets outside strings; scalars by their
     * characters (the parser checks them exactly later) */
    if (!ss_json_ws(p, n, pos))
        return -1;
    size_t i = *pos;
    if (p[i] == '"')
        return skip_string(p, n, pos);
    if (p[i] == '{' || p[i] == '[') {
        size_t depth = 0;
        while (i < n) {
            unsigned char c = p[i];
            if (c == '"') {
                int r = skip_string(p, n, &i);
                if (r <= 0)
                    return r;
                continue;
            }
            if (c == '{' || c == '[')
                depth++;
            else if (c == '}' || c == ']') {
                if (--depth == 0) {
                    *pos = i + 1;
                    return 1;
                }
            }
            i++;
        }
        return -1;
    }
    size_t a = i;
    while (i < n &&
           (strchr("+-.eE", p[i]) || (p[i] >= '0' && p[i] <= '9') || (p[i] >= 'a' && p[i] <= 'z')))
        i++;
    if (i == n)
        return -1;
    if (i == a)
        return 0;
    *pos = i;
    return 1;
}

int ss_json_sniff_object(const unsigned char *p, size_t n, size_t pos, int whole,
                         ss_json_member_fn fn, void *ctx)
{
#define MORE (whole ? 0 : -1)
    if (!ss_json_ws(p, n, &pos))
        return MORE;
    if (p[pos] != '{')
        return 0;
    pos++;
    if (!ss_json_ws(p, n, &pos))
        return MORE;
    if (p[pos] == '}')
        return 0;
    for (;;) {
        if (!ss_json_ws(p, n, &pos))
            return MORE;
        if (p[pos] != '"')
            return 0;
        size_t k0 = pos + 1;
        int r = skip_string(p, n, &pos);
        if (r <= 0)
            return r < 0 ? MORE : 0;
        size_t klen = pos - 1 - k0;
        if (!ss_json_ws(p, n, &pos))
            return MORE;
        if (p[pos] != ':')
            return 0;
        pos++;
        if (!ss_json_ws(p, n, &pos))
            return MORE;
        r = fn(ctx, (const char *)p + k0, klen, p, n, pos, whole);
        if (r != 2)
            return r;
        r = ss_json_skip(p, n, &pos);
        if (r <= 0)
            return r < 0 ? MORE : 0;
        if (!ss_json_ws(p, n, &pos))
            return MORE;
        if (p[pos] == '}')
            return 0;
        if (p[pos] != ',')
            return 0;
        pos++;
    }
#undef MORE
}
