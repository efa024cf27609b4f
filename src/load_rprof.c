/* load_rprof.c - Rprof reader (see load_rprof.h and DESIGN section 3).
 *
 * Speed comes from a per-session line cache: real profiles repeat the same
 * stacks over and over, so the text of a sample line (after the memory
 * prefix) is hashed once and looked up; only new lines are tokenised.
 */
#include "load_rprof.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"
#include "hashtab.h"
#include "vec.h"
#include "limits.h"

#define RPROF_MAX_INTERVAL_US 3600000000.0 /* one hour: anything above is garbage */
#define RPROF_MAX_FRAMES SS_MAX_FRAMES     /* R caps lines near 10 KB, ~2500 frames */
#define RPROF_MAX_FILENO 1000000           /* R numbers at most 100 files */
#define RPROF_R_LINE_CAP 10000             /* R stops adding frames at this line length */
#define LINE_CACHE_BYTES (64u << 20)       /* text kept for the line cache, at most */

/* ---- line cache: line text -> stack id ----------------------------------- */

/* Lines are ids into `line` (their text in arena), indexed by an ss_idset
 * (hashtab.h) keyed by line_hash.  This is the hottest lookup (one per sample
 * line); against the hand-written table it replaced, `report --by self` on
 * bench/'s 1M-sample files costs +1.3% instructions (big1m, callgrind:
 * 664.9M -> 673.4M) and +0.6% (ml1m: 1115.6M -> 1122.2M), with the same CPU
 * time at 10 ms resolution: not worth a second table. */
struct lc_line {
    uint64_t off; /* text in arena */
    uint32_t len;
    ss_id stack;
};

struct line_cache {
    struct ss_idset index;
    VEC(struct lc_line) line;
    char *arena;
    size_t arena_n, arena_cap;
};

static void lc_clear(struct line_cache *c)
{
    ss_idset_clear(&c->index);
    c->line.n = 0;
    c->arena_n = 0;
}

static void lc_free(struct line_cache *c)
{
    ss_idset_free(&c->index);
    VEC_FREE(c->line);
    free(c->arena);
    memset(c, 0, sizeof *c);
}

struct lc_key {
    const char *s;
    size_t len;
};

static int lc_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct line_cache *c = ctx;
    const struct lc_key *k = key;
    const struct lc_line *l = &c->line.v[id];
    return l->len == k->len && memcmp(c->arena + l->off, k->s, k->len) == 0;
}

static ss_id lc_find(const struct line_cache *c, const char *s, size_t len, uint64_t h)
{
    struct lc_key k = {s, len};
    size_t pos;
    uint32_t id = ss_idset_find(&c->index, h, lc_eq, c, &k, &pos);
    return id == SS_NONE ? SS_NONE : c->line.v[id].stack;
}

/* Remember line -> stack (the line is not in the cache); silently does
 * nothing when the cache is full or memory is short (the cache is only an
 * accelerator). */
static void lc_put(struct line_cache *c, const char *s, size_t len, uint64_t h, ss_id stack)
{
    if (c->arena_n + len > LINE_CACHE_BYTES)
        return;
    if (ss_idset_reserve(&c->index, 1) || VEC_RESERVE(c->line, c->line.n + 1) ||
        ss_grow((void **)&c->arena, &c->arena_cap, c->arena_n + len + 1, 1))
        return;
    struct lc_key k = {s, len};
    size_t pos;
    if (ss_idset_find(&c->index, h, lc_eq, c, &k, &pos) != SS_NONE)
        return;
    memcpy(c->arena + c->arena_n, s, len);
    struct lc_line l = {c->arena_n, (uint32_t)len, stack};
    c->line.v[c->line.n] = l;
    ss_idset_insert(&c->index, pos, h, (uint32_t)c->line.n++);
    c->arena_n += len;
}

struct idvec {
    ss_id *v;
    size_t n, cap;
};

/* ---- parser state ----------------------------------------------------------- */

struct parser {
    struct ss_model *m;
    struct ss_reader *r;
    const char *path;
    struct ss_error *err;
    ss_id type_id, uri_id;

    /* current session */
    int have_session;
    uint32_t session_no;
    uint32_t flags;
    struct idvec files;       /* file number -> path id (SS_NONE: not declared yet) */
    struct idvec provisional; /* file number -> placeholder id used before declaration */
    struct line_cache cache;

    struct ss_rprof_vt vt;
    int have_vt;
    int64_t *vals; /* one per value type */
    size_t nvals;

    VEC(ss_id) frames; /* scratch: locations of the line being parsed */

    /* counts for warnings */
    uint64_t blank_lines, capped_lines, first_blank, first_capped;
};

static int perr(struct parser *p, size_t col, const char *what)
{
    if (col)
        return ss_fail(p->err, SS_EINPUT, "%s:%llu:%zu: %s", p->path,
                       (unsigned long long)p->r->line_no, col, what);
    return ss_fail(p->err, SS_EINPUT, "%s:%llu: %s", p->path, (unsigned long long)p->r->line_no,
                   what);
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Parse decimal digits at s[*i..len) into *out (no sign); at least one digit,
 * at most 18.  Returns 0 or -1. */
static int parse_uint(const char *s, size_t len, size_t *i, uint64_t *out)
{
    const char *q = s + *i, *end = s + len, *start = q;
    uint64_t v = 0;
    while (q < end && (unsigned char)(*q - '0') < 10)
        v = v * 10 + (uint64_t)(*q++ - '0');
    if (q == start || q - start > 18)
        return -1;
    *i = (size_t)(q - s);
    *out = v;
    return 0;
}

/* Hash of a sample line for the line cache.  Long lines are hashed
 * sparsely (head, middle, tail and length): a collision only costs a
 * comparison, because every hit is verified byte by byte. */
static uint64_t line_hash(const char *b, size_t len)
{
    if (len <= 160)
        return ss_hash(b, len);
    uint64_t h = ss_hash(b, 96);
    h ^= ss_mix64(ss_hash(b + len / 2 - 16, 32) + len);
    return h ^ ss_hash(b + len - 32, 32) * 0x9e3779b97f4a7c15ULL;
}

static const char *const header_flags[] = {
    "memory profiling: ", "GC profiling: ", "line profiling: "};
static const uint32_t header_flag_bits[] = {SS_SRC_MEMORY, SS_SRC_GC, SS_SRC_LINE};
static const char interval_key[] = "sample.interval=";

/* Parse a header; returns 0 and sets *flags, *interval, or -1 when the line is
 * not a header at all, or -2 when it is one with a bad interval. */
static int parse_header(const char *s, size_t len, uint32_t *flags, uint64_t *interval)
{
    size_t i = 0;
    uint32_t f = 0;
    for (int progress = 1; progress;) {
        progress = 0;
        for (int k = 0; k < 3; k++) {
            size_t kl = strlen(header_flags[k]);
            if (!(f & header_flag_bits[k]) && len - i >= kl &&
                memcmp(s + i, header_flags[k], kl) == 0) {
                f |= header_flag_bits[k];
                i += kl;
                progress = 1;
            }
        }
    }
    size_t kl = sizeof interval_key - 1;
    if (len - i < kl || memcmp(s + i, interval_key, kl) != 0)
        return -1;
    i += kl;
    uint64_t v;
    if (parse_uint(s, len, &i, &v) || i != len)
        return -2;
    *flags = f;
    *interval = v;
    return 0;
}

int ss_rprof_is_header(const char *line, size_t len)
{
    uint32_t f;
    uint64_t iv;
    return parse_header(line, len, &f, &iv) != -1;
}

/* ---- file numbers ------------------------------------------------------------ */

/* Give the locations that used a file number before its `#File` line (or
 * that never got one) their final file, then forget the session's numbers. */
static int resolve_provisional(struct parser *p)
{
    int changed = 0;
    for (size_t k = 0; k < p->provisional.n; k++) {
        ss_id prov = p->provisional.v[k];
        if (prov == SS_NONE)
            continue;
        ss_id real = k < p->files.n ? p->files.v[k] : SS_NONE;
        for (size_t i = 0; i < p->m->locations.n; i++)
            if (p->m->locations.v[i].file == prov) {
                ss_model_set_location_file(p->m, (ss_id)i, real);
                changed = 1;
            }
    }
    p->files.n = 0;
    p->provisional.n = 0;
    if (changed && ss_model_reindex_locations(p->m))
        return ss_nomem(p->err, "locations");
    return 0;
}

static int set_vec_len(struct idvec *v, size_t n)
{
    if (VEC_RESERVE(*v, n))
        return -1;
    while (v->n < n)
        v->v[v->n++] = SS_NONE;
    return 0;
}

/* The file id to use for file number k right now. */
static ss_id file_for(struct parser *p, uint64_t k, int *oom)
{
    if (k < p->files.n && p->files.v[k] != SS_NONE)
        return p->files.v[k];
    if (set_vec_len(&p->provisional, (size_t)k + 1)) {
        *oom = 1;
        return SS_NONE;
    }
    if (p->provisional.v[k] == SS_NONE) {
        char buf[64];
        int n = snprintf(buf, sizeof buf, "\001undeclared %u:%llu", p->session_no,
                         (unsigned long long)k);
        ss_id id = ss_model_intern(p->m, buf, (size_t)n);
        if (id == SS_NONE) {
            *oom = 1;
            return SS_NONE;
        }
        p->provisional.v[k] = id;
    }
    return p->provisional.v[k];
}

static int parse_file_line(struct parser *p, const char *s, size_t len)
{
    size_t i = 6; /* after "#File " */
    uint64_t k;
    /* The R profile package's write_rprof() writes "#File : " when the
     * profile has no files; summaryRprof ignores it, and so do we. */
    size_t e = len;
    while (e > i && s[e - 1] == ' ')
        e--;
    if (e == i + 1 && s[i] == ':')
        return 0;
    if (parse_uint(s, len, &i, &k) || k == 0 || k > RPROF_MAX_FILENO)
        return perr(p, i + 1, "bad '#File N: path' line: expected a file number from 1 to 1000000");
    if (len - i < 2 || s[i] != ':' || s[i + 1] != ' ') {
        if (!(len - i == 1 && s[i] == ':'))
            return perr(p, i + 1, "bad '#File N: path' line: expected ': ' after the number");
    }
    size_t start = i + 2 <= len ? i + 2 : len;
    ss_id path = ss_model_intern(p->m, s + start, len - start);
    if (path == SS_NONE || set_vec_len(&p->files, (size_t)k + 1))
        return ss_nomem(p->err, "file table");
    p->files.v[k] = path;
    /* Cached lines may have meant another file by this number. */
    lc_clear(&p->cache);
    return 0;
}

/* ---- sessions ------------------------------------------------------------------ */

static int ensure_memory_types(struct parser *p)
{
    if (p->have_vt)
        return 0;
    if (ss_model_value_type(p->m, "small_v", "cells") == SS_NONE ||
        ss_model_value_type(p->m, "big_v", "cells") == SS_NONE ||
        ss_model_value_type(p->m, "nodes", "bytes") == SS_NONE ||
        ss_model_value_type(p->m, "dup_count", "count") == SS_NONE ||
        ss_rprof_value_types(p->m, &p->vt))
        return ss_nomem(p->err, "value types");
    p->have_vt = 1;
    return 0;
}

/* Keep the scratch value array as long as the model's value-type list. */
static int sync_vals(struct parser *p)
{
    if (p->nvals == p->m->values.n && p->vals)
        return 0;
    int64_t *nv = ss_realloc_array(p->vals, p->m->values.n, sizeof *nv);
    if (!nv)
        return ss_nomem(p->err, "values");
    for (size_t t = p->nvals; t < p->m->values.n; t++)
        nv[t] = 0;
    p->vals = nv;
    p->nvals = p->m->values.n;
    return 0;
}

static int start_session(struct parser *p, uint32_t flags, uint64_t interval_us)
{
    if (p->have_session && resolve_provisional(p))
        return p->err->code;
    lc_clear(&p->cache);
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = p->type_id;
    src.uri = p->uri_id;
    src.session = ++p->session_no;
    src.header_line = (uint32_t)p->r->line_no;
    src.interval_us = (double)interval_us;
    src.flags = flags;
    if (ss_model_add_source(p->m, &src) == SS_NONE)
        return ss_nomem(p->err, "sources");
    p->have_session = 1;
    p->flags = flags;
    if ((flags & SS_SRC_MEMORY) && ensure_memory_types(p))
        return p->err->code;
    return sync_vals(p);
}

/* ---- sample lines ------------------------------------------------------------- */

/* Is there a location token `D+#D+` at s[i..len), followed by a space or the
 * end?  Sets *end past the digits. */
static int loc_token_at(const char *s, size_t len, size_t i, size_t *end)
{
    size_t j = i;
    while (j < len && is_digit(s[j]))
        j++;
    if (j == i || j >= len || s[j] != '#')
        return 0;
    size_t k = ++j;
    while (j < len && is_digit(s[j]))
        j++;
    if (j == k || (j < len && s[j] != ' '))
        return 0;
    *end = j;
    return 1;
}

/* Tokenise the frames of a sample line (after any memory prefix) into a
 * stack.  `col0` is the column of body[0] in the line, for messages. */
static int parse_stack(struct parser *p, const char *b, size_t len, size_t col0, ss_id *out)
{
    if (memchr(b, '\0', len))
        return perr(p, col0 + (size_t)((const char *)memchr(b, '\0', len) - b),
                    "NUL byte in a sample line (binary data?)");
    p->frames.n = 0;
    ss_id pending = SS_NONE; /* a position waiting for the next name */
    int oom = 0;
    size_t i = 0;
    while (i < len) {
        if (b[i] == '"') {
            /* The name ends at the first `"` followed by a space and then the
             * end, another name or a position (names are never escaped). */
            size_t j = i + 1, end = 0;
            for (;;) {
                const char *q = memchr(b + j, '"', len - j);
                if (!q)
                    return perr(p, col0 + i, "unterminated quoted name");
                j = (size_t)(q - b);
                if (j + 1 == len)
                    break; /* last token without its trailing space */
                if (b[j + 1] == ' ' &&
                    (j + 2 == len || b[j + 2] == '"' || loc_token_at(b, len, j + 2, &end)))
                    break;
                j++;
            }
            if (p->frames.n >= RPROF_MAX_FRAMES)
                return perr(p, col0 + i, "more than 1000000 frames in one sample");
            ss_id name = ss_model_intern(p->m, b + i + 1, j - i - 1);
            ss_id fn = name == SS_NONE ? SS_NONE : ss_model_function(p->m, name, name, SS_NONE, 0);
            ss_id loc = SS_NONE;
            if (fn != SS_NONE) {
                if (pending != SS_NONE) {
                    const struct ss_location *pl = &p->m->locations.v[pending];
                    loc = ss_model_location(p->m, fn, pl->file, pl->line);
                } else {
                    loc = ss_model_location(p->m, fn, SS_NONE, 0);
                }
            }
            if (loc == SS_NONE || VEC_PUSH(p->frames, loc))
                return ss_nomem(p->err, "stack");
            pending = SS_NONE;
            i = j + 1;
            if (i < len)
                i++; /* the space */
        } else if (is_digit(b[i])) {
            size_t end;
            if (!loc_token_at(b, len, i, &end))
                return perr(p, col0 + i, "bad position token: expected FILE#LINE");
            size_t k = i;
            uint64_t fno, line;
            if (parse_uint(b, len, &k, &fno) || fno > RPROF_MAX_FILENO)
                return perr(p, col0 + i, "file number out of range in a position token");
            k++;
            /* R numbers lines from 1; line 0 means "no position" here, so a
             * token with line 0 would make a location with nothing in it */
            if (parse_uint(b, len, &k, &line) || line == 0 || line > UINT32_MAX - 1)
                return perr(p, col0 + i,
                            "line number out of range in a position token (lines start at 1)");
            if (pending != SS_NONE)
                return perr(p, col0 + i, "two position tokens in a row");
            ss_id file = file_for(p, fno, &oom);
            if (oom)
                return ss_nomem(p->err, "file table");
            pending = ss_model_location(p->m, SS_NONE, file, (uint32_t)line);
            if (pending == SS_NONE)
                return ss_nomem(p->err, "locations");
            i = end;
            if (i < len)
                i++;
        } else {
            char what[96];
            unsigned char c = (unsigned char)b[i];
            if (c >= 0x20 && c < 0x7f)
                snprintf(what, sizeof what, "unexpected '%c': expected a quoted name or FILE#LINE",
                         c);
            else
                snprintf(what, sizeof what,
                         "unexpected byte 0x%02x: expected a quoted name or FILE#LINE", c);
            return perr(p, col0 + i, what);
        }
    }
    *out = ss_model_stack(p->m, p->frames.v, p->frames.n, pending);
    if (*out == SS_NONE)
        return ss_nomem(p->err, "stacks");
    return 0;
}

static int sample_line(struct parser *p, const char *s, size_t len)
{
    size_t i = 0;
    int64_t *vals = NULL;
    if (s[0] == ':') {
        if (!(p->flags & SS_SRC_MEMORY))
            return perr(p, 1,
                        "memory prefix ':small_v:big_v:nodes:dup_count:' in a session "
                        "whose header has no 'memory profiling:'");
        i = 1;
        for (int k = 0; k < 4; k++) {
            uint64_t v;
            if (parse_uint(s, len, &i, &v) || i >= len || s[i] != ':')
                return perr(p, i + 1,
                            "bad memory prefix: expected ':small_v:big_v:nodes:dup_count:'");
            i++;
            p->vals[k == 0   ? p->vt.small_v
                    : k == 1 ? p->vt.big_v
                    : k == 2 ? p->vt.nodes
                             : p->vt.dup_count] = (int64_t)v;
        }
        vals = p->vals;
    } else if (p->flags & SS_SRC_MEMORY) {
        return perr(p, 1,
                    "missing memory prefix ':small_v:big_v:nodes:dup_count:' "
                    "(the header says memory profiling)");
    }
    const char *b = s + i;
    size_t blen = len - i;
    if (blen >= RPROF_R_LINE_CAP && p->capped_lines++ == 0)
        p->first_capped = p->r->line_no;
    uint64_t h = line_hash(b, blen);
    ss_id stack = lc_find(&p->cache, b, blen, h);
    if (stack == SS_NONE) {
        if (parse_stack(p, b, blen, i + 1, &stack))
            return p->err->code;
        lc_put(&p->cache, b, blen, h, stack);
    }
    if (vals)
        p->vals[SS_VT_COUNT] = 1;
    int ar = ss_model_add_sample(p->m, stack, vals);
    if (ar == SS_COUNT_RANGE) { /* earlier inputs' counts add up to the limit */
        char at[800];
        snprintf(at, sizeof at, "%.700s:%llu", p->path, (unsigned long long)p->r->line_no);
        return ss_model_count_fail(p->m, p->err, at, 1);
    }
    if (ar)
        return ss_nomem(p->err, "samples");
    return 0;
}

/* ---- driver ------------------------------------------------------------------ */

int ss_load_rprof(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err)
{
    struct parser p;
    memset(&p, 0, sizeof p);
    p.m = m;
    p.r = r;
    p.path = path;
    p.err = err;
    p.type_id = ss_model_intern_cstr(m, "rprof");
    p.uri_id = ss_model_intern_cstr(m, path);
    p.have_vt = ss_rprof_value_types(m, &p.vt) == 0;
    int rc = 0;
    if (p.type_id == SS_NONE || p.uri_id == SS_NONE || sync_vals(&p)) {
        rc = ss_nomem(err, "model");
        goto done;
    }
    const char *line;
    size_t len;
    int term, got;
    while ((got = ss_reader_next(r, &line, &len, &term, err)) == 1) {
        if (len == 0) {
            if (p.blank_lines++ == 0)
                p.first_blank = r->line_no;
            continue;
        }
        uint32_t flags = 0;
        uint64_t iv = 0;
        /* Sample lines start with '"', ':' or a digit; only s/m/G/l can start
         * a header, so most lines skip the header parser. */
        char c0 = line[0];
        int h = (c0 == 's' || c0 == 'm' || c0 == 'G' || c0 == 'l')
                    ? parse_header(line, len, &flags, &iv)
                    : -1;
        if (h == -2 || (h == 0 && (iv == 0 || (double)iv > RPROF_MAX_INTERVAL_US))) {
            rc = perr(&p, 0,
                      "bad sample interval in the Rprof header: expected "
                      "'sample.interval=N' with N microseconds, 0 < N <= 3600000000");
            goto done;
        }
        if (h == 0) {
            if ((rc = start_session(&p, flags, iv)))
                goto done;
            continue;
        }
        if (!p.have_session) {
            rc = perr(&p, 0,
                      r->line_no == 1 ? "not an Rprof file: the first line must be a header like "
                                        "'sample.interval=20000'"
                                      : "sample line before the Rprof header");
            goto done;
        }
        if (line[0] == '#') {
            if (len >= 6 && memcmp(line, "#File ", 6) == 0) {
                if (memchr(line, '\0', len)) {
                    rc = perr(&p, 0, "NUL byte in a '#File' line");
                    goto done;
                }
                if ((rc = parse_file_line(&p, line, len)))
                    goto done;
                continue;
            }
            rc = perr(&p, 1, "unexpected line: expected a sample, a header or '#File N: path'");
            goto done;
        }
        if (!term) {
            ss_model_warn(m,
                          "%s:%llu: the last line has no line end (the profile was cut off?): "
                          "dropped that incomplete sample",
                          path, (unsigned long long)r->line_no);
            break;
        }
        if ((rc = sample_line(&p, line, len)))
            goto done;
    }
    if (got < 0) {
        rc = err->code;
        goto done;
    }
    if (r->line_no == 0) {
        rc = ss_fail(err, SS_EINPUT, "%s: empty file (not even an Rprof header)", path);
        goto done;
    }
    if (!p.have_session) {
        rc = ss_fail(err, SS_EINPUT, "%s: no Rprof header ('sample.interval=N') in the file", path);
        goto done;
    }
    if ((rc = resolve_provisional(&p)))
        goto done;
    if (p.blank_lines)
        ss_model_warn(m, "%s:%llu: %llu blank line%s ignored (R does not write blank lines)", path,
                      (unsigned long long)p.first_blank, (unsigned long long)p.blank_lines,
                      p.blank_lines == 1 ? "" : "s");
    if (p.capped_lines)
        ss_model_warn(m,
                      "%s:%llu: %llu sample line%s reach R's 10 KB line limit: R dropped "
                      "their outermost frames",
                      path, (unsigned long long)p.first_capped, (unsigned long long)p.capped_lines,
                      p.capped_lines == 1 ? "" : "s");
done:
    lc_free(&p.cache);
    VEC_FREE(p.files);
    VEC_FREE(p.provisional);
    VEC_FREE(p.frames);
    free(p.vals);
    return rc;
}
