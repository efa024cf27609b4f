/* load.c - format detection and dispatch (see load.h).
 *
 * Detection looks at structure, never at a fixed window: the raw protobuf
 * test walks the whole visible prefix as profile.proto's wire format
 * (every tag a Profile field with its wire type, every nested message well
 * formed, every length within the file), and the text tests read the first
 * line that is not blank whole, growing the view of the file until it ends
 * (up to the reader's line limit).  A text file is never taken for
 * protobuf because a byte of it happens to be a valid tag.
 */
#include "load.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "load_folded.h"
#include "load_pprof.h"
#include "load_rprof.h"
#include "load_sampling.h"
#include "load_tables.h"
#include "reader.h"

#define SNIFF_FIRST (1u << 16) /* bytes looked at first; more only for a long first line */

/* ---- raw protobuf: a well-formed prefix of a Profile message ------------- */

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };

/* What a field of a message may be: allowed wire types (bit per type) and,
 * for an embedded message, its description. */
struct pb_field {
    uint8_t wts;
    const struct pb_msg *sub;
};

struct pb_msg {
    const char *name;
    size_t n; /* fields 1..n-1 are described */
    const struct pb_field *f;
    int strict; /* unknown field numbers refused (the top level) */
};

#define V (1u << WT_VARINT)
#define L (1u << WT_LEN)
/* Field descriptions from profile.proto's published field numbers. */
static const struct pb_field vt_f[] = {{0, 0}, {V, 0}, {V, 0}};
static const struct pb_msg vt_m = {"ValueType", 3, vt_f, 0};
static const struct pb_field label_f[] = {{0, 0}, {V, 0}, {V, 0}, {V, 0}, {V, 0}};
static const struct pb_msg label_m = {"Label", 5, label_f, 0};
static const struct pb_field sample_f[] = {{0, 0}, {V | L, 0}, {V | L, 0}, {L, &label_m}};
static const struct pb_msg sample_m = {"Sample", 4, sample_f, 0};
static const struct pb_field mapping_f[] = {{0, 0}, {V, 0}, {V, 0}, {V, 0}, {V, 0}, {V, 0},
                                            {V, 0}, {V, 0}, {V, 0}, {V, 0}, {V, 0}};
static const struct pb_msg mapping_m = {"Mapping", 11, mapping_f, 0};
static const struct pb_field line_f[] = {{0, 0}, {V, 0}, {V, 0}, {V, 0}};
static const struct pb_msg line_m = {"Line", 4, line_f, 0};
static const struct pb_field location_f[] = {{0, 0}, {V, 0}, {V, 0}, {V, 0}, {L, &line_m}, {V, 0}};
static const struct pb_msg location_m = {"Location", 6, location_f, 0};
static const struct pb_field function_f[] = {{0, 0}, {V, 0}, {V, 0}, {V, 0}, {V, 0}, {V, 0}};
static const struct pb_msg function_m = {"Function", 6, function_f, 0};
static const struct pb_field profile_f[] = {
    {0, 0},           {L, &vt_m}, {L, &sample_m}, {L, &mapping_m}, {L, &location_m},
    {L, &function_m}, {L, 0},     {V, 0},         {V, 0},          {V, 0},
    {V, 0},           {L, &vt_m}, {V, 0},         {V | L, 0},      {V, 0}};
static const struct pb_msg profile_m = {"Profile", 15, profile_f, 1};
#undef V
#undef L

/* A varint at *pos: 0, 1 when the data ends inside it, -1 when overlong. */
static int pb_varint(const unsigned char *p, size_t n, size_t *pos, uint64_t *v)
{
    uint64_t x = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (*pos >= n)
            return 1;
        unsigned char b = p[(*pos)++];
        x |= (uint64_t)(b & 0x7f) << (shift < 64 ? shift : 63);
        if (!(b & 0x80)) {
            *v = x;
            return 0;
        }
    }
    return -1;
}

/* Check that p[0..n) is message `m` (or, with `cut`, a prefix of one: the
 * data may end inside the last field).  Packed fields must hold whole
 * varints.  Returns 0, or -1 with *why and *at (offset in p) set. */
static int pb_check(const struct pb_msg *m, const unsigned char *p, size_t n, int cut, int depth,
                    const char **why, size_t *at)
{
    size_t pos = 0;
    while (pos < n) {
        size_t start = pos;
        uint64_t tag, v;
        int k = pb_varint(p, n, &pos, &tag);
        *at = start;
        if (k > 0 && cut)
            return 0;
        if (k) {
            *why = k > 0 ? "truncated tag" : "overlong tag";
            return -1;
        }
        uint64_t num = tag >> 3;
        unsigned wt = (unsigned)(tag & 7);
        if (num == 0) {
            *why = "field number 0";
            return -1;
        }
        if (num < m->n
                ? !(m->f[num].wts & (1u << wt))
                : m->strict || !(wt == WT_VARINT || wt == WT_I64 || wt == WT_LEN || wt == WT_I32)) {
            *why = num < m->n || m->strict ? "a tag that is not a field of profile.proto with "
                                             "its wire type"
                                           : "an invalid wire type";
            return -1;
        }
        if (wt == WT_VARINT) {
            k = pb_varint(p, n, &pos, &v);
            if (k > 0 && cut)
                return 0;
            if (k) {
                *why = k > 0 ? "truncated varint" : "overlong varint";
                return -1;
            }
            continue;
        }
        if (wt == WT_I64 || wt == WT_I32) {
            size_t w = wt == WT_I64 ? 8 : 4;
            if (n - pos < w) {
                if (cut)
                    return 0;
                *why = "truncated fixed-size value";
                return -1;
            }
            pos += w;
            continue;
        }
        k = pb_varint(p, n, &pos, &v);
        if (k > 0 && cut)
            return 0;
        if (k) {
            *why = k > 0 ? "truncated length" : "overlong length";
            return -1;
        }
        int inside = v <= n - pos;
        if (!inside && !cut) {
            *why = "declared length runs past the end of the data";
            return -1;
        }
        size_t len = inside ? (size_t)v : n - pos;
        const struct pb_field *f = num < m->n ? &m->f[num] : NULL;
        size_t sub_at = 0;
        if (f && f->sub && depth < 4) {
            if (pb_check(f->sub, p + pos, len, !inside, depth + 1, why, &sub_at)) {
                *at = pos + sub_at;
                return -1;
            }
        } else if (f && f->wts & (1u << WT_VARINT)) { /* packed varints */
            for (size_t q = 0; q < len;) {
                k = pb_varint(p + pos, len, &q, &v);
                if (k > 0 && !inside)
                    break;
                if (k) {
                    *at = pos + q;
                    *why = "malformed packed field";
                    return -1;
                }
            }
        }
        if (!inside)
            return 0;
        pos += len;
    }
    return 0;
}

/* Is p[0..n) the start of a raw Profile message?  The first field must be
 * one of profile.proto's; the data may be cut (not `whole`) inside the
 * last field only when the file goes on, and no length may run past the
 * file's `size` when it is known.  The string table's first entry must be
 * empty (profile.proto requires it), and a whole file must have one. */
static int sniff_raw_pprof(const unsigned char *p, size_t n, int whole, uint64_t size,
                           const char **why, size_t *at)
{
    size_t pos = 0;
    uint64_t tag;
    *at = 0;
    if (pb_varint(p, n, &pos, &tag) || tag >> 3 == 0 || tag >> 3 >= profile_m.n) {
        *why = "the first byte is not the tag of a Profile field";
        return 0;
    }
    if (pb_check(&profile_m, p, n, !whole, 0, why, at))
        return 0;
    /* The top-level fields again (all well formed up to the cut). */
    int strings = 0;
    pos = 0;
    while (pos < n) {
        uint64_t v;
        size_t start = pos;
        if (pb_varint(p, n, &pos, &tag))
            break;
        int wt = (int)(tag & 7);
        if (wt == WT_VARINT) {
            if (pb_varint(p, n, &pos, &v))
                break;
        } else if (wt == WT_I64 || wt == WT_I32) {
            pos += wt == WT_I64 ? 8 : 4;
        } else {
            if (pb_varint(p, n, &pos, &v))
                break;
            if (tag >> 3 == 6 && strings++ == 0 && v != 0) {
                *at = start;
                *why = "the string table's first entry is not empty";
                return 0;
            }
            if (size && v > size - pos) {
                *at = start;
                *why = "declared length runs past the end of the file";
                return 0;
            }
            if (v > n - pos)
                break;
            pos += (size_t)v;
        }
    }
    if (whole && !strings) {
        *at = n;
        *why = "no string table";
        return 0;
    }
    return 1;
}

/* ---- text: the first lines ----------------------------------------------- */

/* The line starting at *pos (without its line end: LF, CRLF or CR).
 * Returns 1 and advances *pos past it, 0 at the end of the data, or -1 when
 * the line has not ended within p[0..n) and the file goes on. */
static int sniff_line(const char *p, size_t n, int whole, size_t *pos, const char **line,
                      size_t *len)
{
    size_t a = *pos, b = a;
    if (a >= n)
        return 0;
    while (b < n && p[b] != '\n' && p[b] != '\r')
        b++;
    if (b == n && !whole)
        return -1;
    if (b + 1 < n && p[b] == '\r' && p[b + 1] == '\n')
        *pos = b + 2;
    else if (b + 1 == n && p[b] == '\r' && !whole)
        return -1; /* CR, and maybe an LF to come */
    else
        *pos = b < n ? b + 1 : b;
    *line = p + a;
    *len = b - a;
    return 1;
}

/* Rprof: the first line that is not empty is a header ("sample.interval=",
 * with or without flags, maybe with a bad interval).  A header is short: a
 * first line that goes on past the view is not one. */
static int sniff_rprof(const char *p, size_t n, int whole)
{
    size_t pos = 0, len;
    const char *line;
    while (sniff_line(p, n, whole, &pos, &line, &len) == 1)
        if (len > 0)
            return ss_rprof_is_header(line, len);
    return 0;
}

static void add_why(char *buf, size_t cap, size_t *k, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void add_why(char *buf, size_t cap, size_t *k, const char *fmt, ...)
{
    if (!buf || *k >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *k, cap - *k, fmt, ap);
    va_end(ap);
    if (w > 0)
        *k += (size_t)w;
}

enum ss_sniffed ss_sniff(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                         size_t cap)
{
    const char *t = (const char *)p;
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return SS_SNIFF_PPROF;
    /* The formats with a distinctive start first; folded, whose first line
     * can be anything ending in a count, last. */
    if (sniff_rprof(t, n, whole))
        return SS_SNIFF_RPROF;
    if (ss_sampling_prof_sniff(t, n))
        return SS_SNIFF_SAMPLING_PROF;
    const char *pb_why = NULL, *fo_why = NULL;
    size_t pb_at = 0;
    if (sniff_raw_pprof(p, n, whole, size, &pb_why, &pb_at))
        return SS_SNIFF_PPROF;
    uint64_t fo_line = 0;
    int fo = ss_folded_sniff(t, n, whole, &fo_why, &fo_line);
    if (fo == 1)
        return SS_SNIFF_FOLDED;
    if (fo < 0)
        return SS_SNIFF_MORE;
    size_t k = 0;
    if (why && cap)
        why[0] = '\0';
    if (fo_line)
        add_why(why, cap, &k, ":%llu", (unsigned long long)fo_line);
    add_why(why, cap, &k,
            ": not a profile format stackscope reads; tried pprof (no gzip magic; as raw "
            "protobuf, byte %zu: %s), Rprof (the first line is not a header like "
            "'sample.interval=20000'), SamplingProf (the first line is not a runtime followed "
            "by a blank line), folded stacks (",
            pb_at, pb_why);
    if (fo_line)
        add_why(why, cap, &k, "line %llu: %s)", (unsigned long long)fo_line, fo_why);
    else
        add_why(why, cap, &k, "%s)", fo_why);
    return SS_SNIFF_UNKNOWN;
}

int ss_load_file(struct ss_model *m, const char *path, struct ss_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return ss_load_tables(m, path, err); /* DESIGN 10: a directory is v2 tables */
    struct ss_reader r;
    int rc = ss_reader_open(&r, path, err);
    if (rc)
        return rc;
    /* A folded file's first line is its most frequent stack, however deep:
     * the view grows until that line ends, up to the reader's line limit. */
    size_t text_max = r.max_line;
    const char *p;
    enum ss_sniffed f = SS_SNIFF_MORE;
    char why[768];
    for (size_t want = SNIFF_FIRST; f == SS_SNIFF_MORE; want *= 2) {
        if (want > text_max)
            want = text_max + 2;
        long n = ss_reader_peek(&r, &p, want, err);
        if (n < 0) {
            ss_reader_close(&r);
            return err->code;
        }
        if (n == 0) {
            ss_reader_close(&r);
            return ss_fail(err, SS_EINPUT, "%s: empty file", path);
        }
        int whole = (size_t)n < want;
        f = ss_sniff((const unsigned char *)p, (size_t)n, whole, r.mapped ? r.fsize : 0, why,
                     sizeof why);
        if (f == SS_SNIFF_MORE && want > text_max) {
            rc = ss_fail(err, SS_EINPUT,
                         "%s:1: line longer than %zu bytes (byte offset 0): not Rprof, "
                         "SamplingProf or pprof, and too long a line for folded stacks",
                         path, text_max);
            ss_reader_close(&r);
            return rc;
        }
    }
    switch (f) {
    case SS_SNIFF_PPROF:
        rc = ss_load_pprof(m, &r, path, err);
        break;
    case SS_SNIFF_RPROF:
        rc = ss_load_rprof(m, &r, path, err);
        break;
    case SS_SNIFF_SAMPLING_PROF:
        rc = ss_load_sampling_prof(m, &r, path, err);
        break;
    case SS_SNIFF_FOLDED:
        rc = ss_load_folded(m, &r, path, err);
        break;
    default:
        rc = ss_fail(err, SS_EINPUT, "%s%s", path, why);
        break;
    }
    ss_reader_close(&r);
    return rc;
}

int ss_load_files(struct ss_model *m, char *const *paths, int n, struct ss_error *err)
{
    int rc = ss_model_init(m, err);
    if (rc)
        return rc;
    for (int i = 0; i < n; i++) {
        rc = ss_load_file(m, paths[i], err);
        if (rc) {
            ss_model_free(m);
            return rc;
        }
    }
    ss_model_seal(m);
    return 0;
}
