/* load_tables.c - the v2 tables reader (see load_tables.h).
 *
 * The files are read in dependency order (meta, sources, value types,
 * functions, locations, stacks, samples, sample values, aggregates, labels), each
 * row checked as it comes: exact header, the right number of fields, ids
 * equal to the row number where they are a table's own key and within range
 * where they refer to another table, numbers that parse, known escapes.  The
 * model is built through the builder API, so duplicate rows merge exactly
 * as a loader's would; file ids map to model ids through arrays.
 *
 * Work and memory stay linear in the size of the files: numbers are
 * decimal and range-checked (limits.h, shared with the writers), a line may
 * be as long as its file (a 1 MB function name is legal), value types are
 * looked up through a sorted index, and the values the model would hold
 * (samples x value types) are bounded by what the files hold.  Only
 * regular files are read (a FIFO would block the reader for ever).
 */
#include "load_tables.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "limits.h"
#include "loader.h"
#include "reader.h"
#include "strbuf.h"
#include "tables.h"
#include "vec.h"

#define TSV_MAX_COLS 8

struct tsv {
    struct ss_reader r;
    int is_open;
    char path[4096];
    const char *name;
    const char *const *cols;
    size_t ncols;
    const char *f[TSV_MAX_COLS];
    size_t fl[TSV_MAX_COLS];
    uint64_t rows; /* data rows read so far */
    uint64_t size; /* bytes in the file */
    struct ss_model *m;
    struct ss_error *err;
    VEC(char) scratch;
};

static int tsv_fail(struct tsv *t, size_t col, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int tsv_fail(struct tsv *t, size_t col, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (col < t->ncols)
        return ss_fail(t->err, SS_EINPUT, "%s:%llu: column %s: %s", t->path,
                       (unsigned long long)t->r.line_no, t->cols[col], what);
    return ss_fail(t->err, SS_EINPUT, "%s:%llu: %s", t->path, (unsigned long long)t->r.line_no,
                   what);
}

static void tsv_close(struct tsv *t)
{
    if (t->is_open)
        ss_reader_close(&t->r);
    t->is_open = 0;
}

/* Open DIR/NAME and check its header.  With `optional`, a missing file sets
 * *present = 0 and is no error. */
static int tsv_open(struct tsv *t, const char *dir, const char *name, const char *const *cols,
                    size_t ncols, int optional, int *present)
{
    tsv_close(t);
    snprintf(t->path, sizeof t->path, "%s/%s", dir, name);
    t->name = name;
    t->cols = cols;
    t->ncols = ncols;
    t->rows = 0;
    if (present)
        *present = 1;
    struct stat st;
    if (stat(t->path, &st) != 0 && errno == ENOENT) {
        if (optional) {
            *present = 0;
            return 0;
        }
        return ss_fail(t->err, SS_EINPUT,
                       "%s: missing (a tables directory holds meta, sources, value_types, "
                       "samples, sample_values, stacks, locations and functions .tsv files)",
                       t->path);
    }
    if (ss_reader_open_regular(&t->r, t->path, t->err))
        return t->err->code;
    t->is_open = 1;
    /* A row may be as long as its file: names have no length limit of
     * their own (the file's size bounds them). */
    struct stat fst;
    t->size = fstat(t->r.fd, &fst) == 0 ? (uint64_t)fst.st_size : 0;
    if (t->size > t->r.max_line)
        t->r.max_line = t->size > SIZE_MAX / 4 ? SIZE_MAX / 4 : (size_t)t->size;
    char want[512];
    size_t k = 0;
    for (size_t c = 0; c < ncols; c++)
        k += (size_t)snprintf(want + k, sizeof want - k, "%s%s", c ? "\t" : "", cols[c]);
    const char *line;
    size_t len;
    int term;
    int got = ss_reader_next(&t->r, &line, &len, &term, t->err);
    if (got < 0)
        return t->err->code;
    if (got == 0)
        return ss_fail(t->err, SS_EINPUT, "%s: empty file: expected the header line '%s'", t->path,
                       want);
    if (len != k || memcmp(line, want, k) != 0)
        return tsv_fail(t, SIZE_MAX, "bad header: expected the columns '%s' (tab-separated)", want);
    return 0;
}

/* The next row, split into fields.  Returns 1, 0 at the end, or -1.  A
 * table cut while it was read is an error (its rows are not all there for
 * the tables after it to refer to); one that changed otherwise, a warning. */
static int tsv_next(struct tsv *t)
{
    const char *line;
    size_t len;
    int term;
    int got = ss_reader_next(&t->r, &line, &len, &term, t->err);
    if (got == 0)
        return ss_load_changed(t->m, &t->r, t->path, t->m->count_total, 1, 0, t->err) ? -1 : 0;
    if (got < 0)
        return got;
    t->rows++;
    if (len == 0)
        return tsv_fail(t, SIZE_MAX, "empty line"), -1;
    if (memchr(line, '\0', len))
        return tsv_fail(t, SIZE_MAX, "NUL byte in the line"), -1;
    size_t n = 0, a = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && line[i] != '\t')
            continue;
        if (n < TSV_MAX_COLS) {
            t->f[n] = line + a;
            t->fl[n] = i - a;
        }
        n++;
        a = i + 1;
    }
    if (n != t->ncols)
        return tsv_fail(t, SIZE_MAX, "expected %zu tab-separated fields, found %zu", t->ncols, n),
               -1;
    return 1;
}

static int is_na(const struct tsv *t, size_t c)
{
    return t->fl[c] == 2 && t->f[c][0] == '\\' && t->f[c][1] == 'N';
}

/* An unsigned decimal number <= max. */
static int f_uint(struct tsv *t, size_t c, uint64_t max, uint64_t *out)
{
    const char *s = t->f[c];
    size_t n = t->fl[c];
    uint64_t v = 0;
    if (n == 0 || n > 19)
        return tsv_fail(t, c, "expected a whole number from 0 to %llu, found '%.*s'",
                        (unsigned long long)max, (int)(n > 40 ? 40 : n), s);
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return tsv_fail(t, c, "expected a whole number, found '%.*s'", (int)(n > 40 ? 40 : n),
                            s);
        v = v * 10 + (uint64_t)(s[i] - '0');
    }
    if (v > max)
        return tsv_fail(t, c, "%llu is out of range (at most %llu)", (unsigned long long)v,
                        (unsigned long long)max);
    *out = v;
    return 0;
}

/* A signed decimal number in [lo, hi]. */
static int f_int(struct tsv *t, size_t c, int64_t lo, int64_t hi, int64_t *out)
{
    const char *s = t->f[c];
    size_t n = t->fl[c], i = 0;
    int neg = n > 0 && s[0] == '-';
    i = (size_t)neg;
    if (n == i)
        return tsv_fail(t, c, "expected a whole number, found '%.*s'", (int)(n > 40 ? 40 : n), s);
    uint64_t v = 0, lim = neg ? (uint64_t)0 - (uint64_t)lo : (uint64_t)hi;
    if (neg && lo >= 0)
        lim = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return tsv_fail(t, c, "expected a whole number, found '%.*s'", (int)(n > 40 ? 40 : n),
                            s);
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (lim - d) / 10 || d > lim)
            return tsv_fail(t, c, "'%.*s' is out of range (%lld to %lld)", (int)(n > 40 ? 40 : n),
                            s, (long long)lo, (long long)hi);
        v = v * 10 + d;
    }
    *out = neg ? (int64_t)((uint64_t)0 - v) : (int64_t)v;
    return 0;
}

/* A 1-based reference to one of `n` rows of another table (\N allowed when
 * nullable): 0-based id or SS_NONE. */
static int f_ref(struct tsv *t, size_t c, size_t n, const char *table, int nullable, ss_id *out)
{
    if (is_na(t, c)) {
        if (!nullable)
            return tsv_fail(t, c, "missing (\\N) where an id is required");
        *out = SS_NONE;
        return 0;
    }
    uint64_t v;
    if (f_uint(t, c, UINT64_MAX / 2, &v))
        return t->err->code;
    if (v < 1 || v > n)
        return tsv_fail(t, c, "%llu is not a row of %s (ids run from 1 to %zu)",
                        (unsigned long long)v, table, n);
    *out = (ss_id)(v - 1);
    return 0;
}

/* The table's own key: must be the row number. */
static int f_key(struct tsv *t, size_t c)
{
    uint64_t v;
    if (f_uint(t, c, UINT64_MAX / 2, &v))
        return t->err->code;
    if (v != t->rows)
        return tsv_fail(t, c,
                        "id %llu out of order: expected %llu (ids are the row numbers, "
                        "from 1)",
                        (unsigned long long)v, (unsigned long long)t->rows);
    if (v >= SS_NONE)
        return tsv_fail(t, c, "too many rows");
    return 0;
}

/* Field c unescaped into t->scratch; its length in *len. */
static int unescape(struct tsv *t, size_t c, size_t *len)
{
    const char *s = t->f[c];
    size_t n = t->fl[c];
    if (VEC_RESERVE(t->scratch, n + 1))
        return ss_nomem(t->err, "strings");
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\\') {
            t->scratch.v[k++] = s[i];
            continue;
        }
        char e = i + 1 < n ? s[i + 1] : 0;
        char d = e == '\\' ? '\\' : e == 't' ? '\t' : e == 'n' ? '\n' : e == 'r' ? '\r' : 0;
        if (!d)
            return tsv_fail(t, c,
                            "bad escape at byte %zu: a backslash must be followed by \\, "
                            "t, n or r (\\N alone means missing)",
                            i + 1);
        t->scratch.v[k++] = d;
        i++;
    }
    *len = k;
    return 0;
}

/* A string: unescaped and interned (\N -> SS_NONE when nullable). */
static int f_str(struct tsv *t, size_t c, int nullable, ss_id *out)
{
    if (is_na(t, c)) {
        if (!nullable)
            return tsv_fail(t, c, "missing (\\N) where a string is required");
        *out = SS_NONE;
        return 0;
    }
    size_t k;
    if (unescape(t, c, &k))
        return t->err->code;
    *out = ss_model_intern(t->m, t->scratch.v, k);
    if (*out == SS_NONE)
        return ss_nomem(t->err, "strings");
    return 0;
}

/* A decimal number (digits, an optional fraction, an optional exponent:
 * what the writer's %.17g gives; no sign, hex, inf or nan) in (0, max]:
 * the one such column is an interval, and no reader makes one of 0 (an Rprof
 * interval of 0 converted to one of 1 s). */
static int f_decimal(struct tsv *t, size_t c, double max, double *out)
{
    char buf[64];
    const char *s = t->f[c];
    size_t n = t->fl[c], i = 0, digits = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++, digits++;
    if (i < n && s[i] == '.')
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            digits++;
    if (digits && i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t e = ++i;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            e = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        if (i == e)
            digits = 0;
    }
    if (!digits || i != n || n >= sizeof buf)
        return tsv_fail(t, c, "expected a decimal number, found '%.*s'", (int)(n > 40 ? 40 : n), s);
    memcpy(buf, s, n);
    buf[n] = '\0';
    double v = strtod(buf, NULL);
    if (!(v > 0 && v <= max))
        return tsv_fail(t, c, "%s is out of range (above 0, at most %g)", buf, max);
    *out = v;
    return 0;
}

/* A sampling interval: a decimal number of microseconds, more than 0 (every
 * loader gives one, 1 s when the profile has none: an interval of 0 made
 * every time 0 and the Rprof writer's interval 1 s). */
static int f_interval(struct tsv *t, size_t c, double *out)
{
    if (f_decimal(t, c, SS_MAX_INTERVAL_US, out))
        return t->err->code;
    if (!(*out > 0))
        return tsv_fail(t, c, "'%.*s' is not an interval (more than 0 microseconds)",
                        (int)(t->fl[c] > 40 ? 40 : t->fl[c]), t->f[c]);
    return 0;
}

static int f_flags(struct tsv *t, size_t c, uint32_t *out)
{
    const char *bad;
    size_t bad_len;
    if (ss_tables_flags_parse(t->f[c], t->fl[c], out, &bad, &bad_len))
        return tsv_fail(
            t, c,
            "unknown flag '%.*s' (expected memory, GC, line, aggregate, unordered, untimed "
            "joined by '+', or '-')",
            (int)(bad_len > 40 ? 40 : bad_len), bad);
    return 0;
}

/* ---- the loader ----------------------------------------------------------- */

struct meta_row {
    ss_id key, value, source;
};

struct vt_row {
    ss_id type, unit;
    ss_id model;      /* index in the model */
    int64_t *col;     /* values per sample, NULL until one is read */
    uint64_t line_no; /* in value_types.tsv */
};

/* The value types sorted by name (string id), for lookups by name. */
struct vt_key {
    ss_id type;
    uint32_t k; /* index in loader.vts */
};

struct loader {
    struct ss_model *m;
    const char *dir;
    struct ss_error *err;
    struct tsv t;
    VEC(struct meta_row) meta;
    VEC(struct ss_source) sources;
    VEC(struct vt_row) vts;
    struct vt_key *vt_index; /* vts.n entries, sorted by type */
    uint64_t samples_size;   /* bytes of samples.tsv */
    VEC(ss_id) fmap, fclass, lmap, smap, frames;
    VEC(uint32_t) sample_src, sample_stack;
    VEC(uint32_t) lab_sample;      /* labels.tsv: each row's sample (0-based, in order) */
    VEC(ss_id) lab_id;             /* ... and its label */
    uint8_t *seen;                 /* sample x value type: value read */
    VEC(ss_id) mmap;               /* mappings.tsv: row -> model mapping */
    VEC(struct ss_location) extra; /* location_addresses.tsv rows: function = the row */
};

static const char *const meta_cols[] = {"key", "value", "source_id"};
static const char *const source_cols[] = {"source_id",   "type",      "uri",         "session",
                                          "header_line", "timestamp", "interval_us", "flags"};
static const char *const vt_cols[] = {"type", "unit"};
static const char *const fn_cols[] = {"function_id", "name",       "system_name",
                                      "filename",    "start_line", "class"};
static const char *const loc_cols[] = {"location_id", "function_id", "file", "line"};
static const char *const stack_cols[] = {"stack_id", "depth", "location_id"};
static const char *const map_cols[] = {"mapping_id", "memory_start", "memory_limit", "file_offset",
                                       "filename",   "build_id",     "flags"};
static const char *const addr_cols[] = {"location_id", "mapping_id", "address", "flags"};
static const char *const sample_cols[] = {"sample_id", "source_id", "stack_id"};
static const char *const value_cols[] = {"sample_id", "type", "value"};
static const char *const agg_cols[] = {"source_id", "location_id", "self", "total"};
static const char *const edge_cols[] = {"source_id", "caller_location_id", "callee_location_id",
                                        "count"};
static const char *const label_cols[] = {"sample_id", "key", "str", "num", "unit"};
static const char *const source_line_cols[] = {"file", "line", "text"};

/* meta.tsv, or the reason `dir` is not a tables directory. */
static int read_meta(struct loader *L)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/meta.tsv", L->dir);
    struct stat st;
    if (stat(p, &st) != 0) {
        DIR *d = opendir(L->dir);
        int empty = 1;
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL)
                if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                    empty = 0;
            closedir(d);
        }
        return ss_fail(L->err, SS_EINPUT,
                       "%s: %s, not a profile: a directory is read as v2 tables and needs "
                       "meta.tsv",
                       L->dir, empty ? "an empty directory" : "a directory without meta.tsv");
    }
    struct tsv *t = &L->t;
    if (tsv_open(t, L->dir, "meta.tsv", meta_cols, ARRAY_SIZE(meta_cols), 0, NULL))
        return L->err->code;
    int got;
    while ((got = tsv_next(t)) == 1) {
        if (t->rows == 1) {
            if (!(t->fl[0] == 7 && !memcmp(t->f[0], "version", 7)))
                return tsv_fail(t, 0, "the first row must be 'version', the tables version");
            if (!(t->fl[1] >= 2 && !memcmp(t->f[1], "2.", 2)))
                return tsv_fail(t, 1, "unsupported tables version '%.*s' (this program reads 2.x)",
                                (int)(t->fl[1] > 40 ? 40 : t->fl[1]), t->f[1]);
            continue;
        }
        struct meta_row r;
        uint64_t src = 0;
        if (f_str(t, 0, 0, &r.key) || f_str(t, 1, 0, &r.value))
            return L->err->code;
        r.source = SS_NONE;
        if (!is_na(t, 2)) {
            if (f_uint(t, 2, SS_NONE - 1, &src))
                return L->err->code;
            if (src < 1)
                return tsv_fail(t, 2, "source ids run from 1");
            r.source = (ss_id)(src - 1);
        }
        if (VEC_PUSH(L->meta, r))
            return ss_nomem(L->err, "meta");
    }
    if (got < 0)
        return L->err->code;
    if (t->rows == 0)
        return ss_fail(L->err, SS_EINPUT, "%s: no 'version' row", t->path);
    return 0;
}

static int read_sources(struct loader *L)
{
    struct tsv *t = &L->t;
    if (tsv_open(t, L->dir, "sources.tsv", source_cols, ARRAY_SIZE(source_cols), 0, NULL))
        return L->err->code;
    int got;
    while ((got = tsv_next(t)) == 1) {
        struct ss_source s;
        memset(&s, 0, sizeof s);
        uint64_t session, line;
        if (f_key(t, 0) || f_str(t, 1, 0, &s.type) || f_str(t, 2, 0, &s.uri) ||
            f_uint(t, 3, UINT32_MAX, &session) || f_uint(t, 4, UINT32_MAX, &line) ||
            f_int(t, 5, INT64_MIN, INT64_MAX, &s.timestamp) || f_interval(t, 6, &s.interval_us) ||
            f_flags(t, 7, &s.flags))
            return L->err->code;
        s.session = (uint32_t)session;
        s.header_line = (uint32_t)line;
        if (VEC_PUSH(L->sources, s))
            return ss_nomem(L->err, "sources");
    }
    if (got < 0)
        return L->err->code;
    for (size_t i = 0; i < L->meta.n; i++)
        if (L->meta.v[i].source != SS_NONE && L->meta.v[i].source >= L->sources.n)
            return ss_fail(L->err, SS_EINPUT,
                           "%s/meta.tsv: source_id %u of entry %zu is not a row of sources.tsv "
                           "(%zu rows)",
                           L->dir, L->meta.v[i].source + 1, i + 2, L->sources.n);
    return 0;
}

static int cmp_vt_key(const void *a, const void *b)
{
    const struct vt_key *x = a, *y = b;
    if (x->type != y->type)
        return x->type < y->type ? -1 : 1;
    return x->k < y->k ? -1 : x->k > y->k;
}

static int read_value_types(struct loader *L)
{
    struct tsv *t = &L->t;
    if (tsv_open(t, L->dir, "value_types.tsv", vt_cols, ARRAY_SIZE(vt_cols), 0, NULL))
        return L->err->code;
    int got;
    while ((got = tsv_next(t)) == 1) {
        struct vt_row r;
        memset(&r, 0, sizeof r);
        if (L->vts.n >= SS_MAX_VALUE_TYPES)
            return tsv_fail(t, SIZE_MAX, "more than %d value types", SS_MAX_VALUE_TYPES);
        if (f_str(t, 0, 0, &r.type) || f_str(t, 1, 0, &r.unit))
            return L->err->code;
        r.line_no = t->r.line_no;
        r.model = ss_model_value_type(L->m, ss_str(L->m, r.type), ss_str(L->m, r.unit));
        if (r.model == SS_NONE || VEC_PUSH(L->vts, r))
            return ss_nomem(L->err, "value types");
    }
    if (got < 0)
        return L->err->code;
    L->vt_index = ss_alloc_array(L->vts.n, sizeof *L->vt_index);
    if (!L->vt_index)
        return ss_nomem(L->err, "value types");
    for (size_t k = 0; k < L->vts.n; k++)
        L->vt_index[k] = (struct vt_key){L->vts.v[k].type, (uint32_t)k};
    qsort(L->vt_index, L->vts.n, sizeof *L->vt_index, cmp_vt_key);
    for (size_t i = 1; i < L->vts.n; i++)
        if (L->vt_index[i].type == L->vt_index[i - 1].type) {
            const struct vt_row *r = &L->vts.v[L->vt_index[i].k];
            return ss_fail(L->err, SS_EINPUT,
                           "%s:%llu: column type: value type '%s' is listed twice (first on "
                           "line %llu)",
                           t->path, (unsigned long long)r->line_no, ss_str(L->m, r->type),
                           (unsigned long long)L->vts.v[L->vt_index[i - 1].k].line_no);
        }
    return 0;
}

/* The index in L->vts of the value type named by field c, or SIZE_MAX. */
static size_t find_vt(struct loader *L, size_t c, int *rc)
{
    size_t len;
    *rc = unescape(&L->t, c, &len);
    if (*rc)
        return SIZE_MAX;
    ss_id id = ss_strtab_find(&L->m->strs, L->t.scratch.v, len);
    size_t lo = 0, hi = L->vts.n;
    while (id != SS_NONE && lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (L->vt_index[mid].type == id)
            return L->vt_index[mid].k;
        if (L->vt_index[mid].type < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SIZE_MAX;
}

static int read_functions(struct loader *L)
{
    struct tsv *t = &L->t;
    if (tsv_open(t, L->dir, "functions.tsv", fn_cols, ARRAY_SIZE(fn_cols), 0, NULL))
        return L->err->code;
    int got;
    while ((got = tsv_next(t)) == 1) {
        ss_id name, sys, file, cls;
        uint64_t start;
        if (f_key(t, 0) || f_str(t, 1, 0, &name) || f_str(t, 2, 1, &sys) || f_str(t, 3, 1, &file) ||
            f_uint(t, 4, UINT32_MAX, &start) || f_str(t, 5, 1, &cls))
            return L->err->code;
        ss_id fn = ss_model_function(L->m, name, sys, file, (uint32_t)start);
        if (fn == SS_NONE || VEC_PUSH(L->fmap, fn) || VEC_PUSH(L->fclass, cls))
            return ss_nomem(L->err, "functions");
    }
    return got < 0 ? L->err->code : 0;
}

/* A hex number "0x..." of at most 64 bits. */
static int f_hex(struct tsv *t, size_t c, uint64_t *out)
{
    const char *s = t->f[c];
    size_t n = t->fl[c];
    uint64_t v = 0;
    int ok = n > 2 && n <= 18 && s[0] == '0' && s[1] == 'x';
    for (size_t i = 2; ok && i < n; i++) {
        char d = s[i];
        int x = d >= '0' && d <= '9' ? d - '0' : d >= 'a' && d <= 'f' ? d - 'a' + 10 : -1;
        ok = x >= 0;
        v = v << 4 | (uint64_t)(x & 15);
    }
    if (!ok)
        return tsv_fail(t, c, "expected a hex number 0x... of at most 64 bits, found '%.*s'",
                        (int)(n > 40 ? 40 : n), s);
    *out = v;
    return 0;
}

/* Flag words joined by '+' ("-": none), names[k] for bit k. */
static int f_bits(struct tsv *t, size_t c, const char *const *names, size_t nn, uint32_t *out)
{
    const char *s = t->f[c];
    size_t n = t->fl[c];
    *out = 0;
    if (n == 1 && s[0] == '-')
        return 0;
    for (size_t a = 0; a <= n;) {
        size_t b = a;
        while (b < n && s[b] != '+')
            b++;
        size_t k = 0;
        while (k < nn && !(strlen(names[k]) == b - a && !memcmp(names[k], s + a, b - a)))
            k++;
        if (k == nn)
            return tsv_fail(t, c, "unknown flag '%.*s'", (int)(b - a > 40 ? 40 : b - a), s + a);
        *out |= 1u << k;
        a = b + 1;
    }
    return 0;
}

/* mappings.tsv and location_addresses.tsv (optional, read before
 * locations.tsv: a location's address is part of it). */
static int read_addresses(struct loader *L)
{
    struct tsv *t = &L->t;
    int present, got = 0;
    if (tsv_open(t, L->dir, "mappings.tsv", map_cols, ARRAY_SIZE(map_cols), 1, &present))
        return L->err->code;
    while (present && (got = tsv_next(t)) == 1) {
        struct ss_mapping mp;
        if (f_key(t, 0) || f_hex(t, 1, &mp.start) || f_hex(t, 2, &mp.limit) ||
            f_hex(t, 3, &mp.offset) || f_str(t, 4, 1, &mp.file) || f_str(t, 5, 1, &mp.build_id) ||
            f_bits(t, 6, ss_tables_map_flags, SS_TABLES_MAP_FLAGS, &mp.flags))
            return L->err->code;
        ss_id id = ss_model_mapping(L->m, &mp);
        if (id == SS_NONE || VEC_PUSH(L->mmap, id))
            return ss_nomem(L->err, "mappings");
    }
    if (got < 0 || tsv_open(t, L->dir, "location_addresses.tsv", addr_cols, ARRAY_SIZE(addr_cols),
                            1, &present))
        return L->err->code;
    while (present && (got = tsv_next(t)) == 1) {
        struct ss_location l = {SS_NONE, SS_NONE, 0, SS_NONE, 0, 0, 0};
        if (f_ref(t, 0, SS_NONE - 1, "locations.tsv", 0, &l.function) ||
            f_ref(t, 1, L->mmap.n, "mappings.tsv", 1, &l.mapping) || f_hex(t, 2, &l.address) ||
            f_bits(t, 3, ss_tables_loc_flags, SS_TABLES_LOC_FLAGS, &l.flags))
            return L->err->code;
        if (L->extra.n && l.function <= L->extra.v[L->extra.n - 1].function)
            return tsv_fail(t, 0, "the rows are in location order, each location once");
        if (l.mapping != SS_NONE)
            l.mapping = L->mmap.v[l.mapping];
        if (VEC_PUSH(L->extra, l))
            return ss_nomem(L->err, "locations");
    }
    return got < 0 ? L->err->code : 0;
}

static int read_locations(struct loader *L)
{
    struct tsv *t = &L->t;
    if (tsv_open(t, L->dir, "locations.tsv", loc_cols, ARRAY_SIZE(loc_cols), 0, NULL))
        return L->err->code;
    int got;
    size_t next = 0; /* the next row of location_addresses.tsv */
    while ((got = tsv_next(t)) == 1) {
        ss_id fn, file;
        uint64_t line;
        if (f_key(t, 0) || f_ref(t, 1, L->fmap.n, "functions.tsv", 1, &fn) ||
            f_str(t, 2, 1, &file) || f_uint(t, 3, SS_MAX_LINE_NO, &line))
            return L->err->code;
        if (fn == SS_NONE && file == SS_NONE && line == 0)
            return tsv_fail(t, SIZE_MAX, "a location needs a function or a position");
        struct ss_location key = {
            fn == SS_NONE ? SS_NONE : L->fmap.v[fn], file, (uint32_t)line, SS_NONE, 0, 0, 0};
        if (next < L->extra.n && L->extra.v[next].function == L->lmap.n) {
            key.mapping = L->extra.v[next].mapping;
            key.flags = L->extra.v[next].flags;
            key.address = L->extra.v[next++].address;
        }
        ss_id loc = ss_model_location_at(L->m, &key);
        if (loc == SS_NONE || VEC_PUSH(L->lmap, loc))
            return ss_nomem(L->err, "locations");
    }
    if (!got && next < L->extra.n)
        return ss_fail(L->err, SS_EINPUT,
                       "%s/location_addresses.tsv: location %u is not a row of locations.tsv",
                       L->dir, L->extra.v[next].function + 1);
    return got < 0 ? L->err->code : 0;
}

static int finish_stack(struct loader *L, ss_id tail)
{
    ss_id s = ss_model_stack(L->m, L->frames.v, L->frames.n, tail);
    if (s == SS_NONE || VEC_PUSH(L->smap, s))
        return ss_nomem(L->err, "stacks");
    return 0;
}

static int read_stacks(struct loader *L)
{
    struct tsv *t = &L->t;
    if (tsv_open(t, L->dir, "stacks.tsv", stack_cols, ARRAY_SIZE(stack_cols), 0, NULL))
        return L->err->code;
    int got, open = 0, closed = 0; /* closed: the open stack takes no more rows */
    uint64_t cur = 0;
    ss_id tail = SS_NONE;
    while ((got = tsv_next(t)) == 1) {
        uint64_t sid, depth;
        if (f_uint(t, 0, SS_NONE - 1, &sid) || f_uint(t, 1, UINT32_MAX, &depth))
            return L->err->code;
        if (!open || sid != cur) {
            if (sid != cur + 1)
                return tsv_fail(t, 0, "stack_id %llu out of order: expected %llu%s",
                                (unsigned long long)sid, (unsigned long long)cur + 1,
                                open ? " or the current stack" : "");
            if (open && finish_stack(L, tail))
                return L->err->code;
            cur = sid;
            open = 1;
            closed = 0;
            tail = SS_NONE;
            L->frames.n = 0;
        } else if (closed) {
            return tsv_fail(t, 1,
                            "no rows may follow an empty stack's depth-0 row or a "
                            "position-only (tail) row");
        }
        if (depth == 0) {
            if (L->frames.n || !is_na(t, 2))
                return tsv_fail(t, 1,
                                "depth 0 (an empty stack) must be the stack's only row, "
                                "with location \\N");
            closed = 1;
            continue;
        }
        if (depth != L->frames.n + 1)
            return tsv_fail(t, 1, "depth %llu out of order: expected %zu (1 = innermost)",
                            (unsigned long long)depth, L->frames.n + 1);
        ss_id loc;
        if (f_ref(t, 2, L->lmap.n, "locations.tsv", 0, &loc))
            return L->err->code;
        ss_id mloc = L->lmap.v[loc];
        if (L->m->locations.v[mloc].function == SS_NONE) {
            tail = mloc;
            closed = 1;
        } else if (VEC_PUSH(L->frames, mloc)) {
            return ss_nomem(L->err, "stacks");
        }
        if (L->frames.n > SS_MAX_FRAMES)
            return tsv_fail(t, 1, "more than 1000000 frames in one stack");
    }
    if (got < 0)
        return L->err->code;
    if (open && finish_stack(L, tail))
        return L->err->code;
    return 0;
}

static int read_samples(struct loader *L)
{
    struct tsv *t = &L->t;
    if (tsv_open(t, L->dir, "samples.tsv", sample_cols, ARRAY_SIZE(sample_cols), 0, NULL))
        return L->err->code;
    L->samples_size = t->size;
    int got;
    ss_id last = 0;
    while ((got = tsv_next(t)) == 1) {
        ss_id src, st;
        if (f_key(t, 0) || f_ref(t, 1, L->sources.n, "sources.tsv", 0, &src) ||
            f_ref(t, 2, L->smap.n, "stacks.tsv", 0, &st))
            return L->err->code;
        if (src < last)
            return tsv_fail(t, 1,
                            "source %u after source %u: the samples of a source must be "
                            "contiguous and in source order",
                            src + 1, last + 1);
        last = src;
        if (VEC_PUSH(L->sample_src, src) || VEC_PUSH(L->sample_stack, L->smap.v[st]))
            return ss_nomem(L->err, "samples");
    }
    return got < 0 ? L->err->code : 0;
}

static int read_values(struct loader *L)
{
    struct tsv *t = &L->t;
    if (tsv_open(t, L->dir, "sample_values.tsv", value_cols, ARRAY_SIZE(value_cols), 0, NULL))
        return L->err->code;
    size_t ns = L->sample_src.n, nt = L->vts.n;
    /* The model keeps a value of every type for every sample: refuse to
     * make it hold (and build() to loop over) far more than the files. */
    size_t mt = L->m->value_types.n > nt ? L->m->value_types.n : nt;
    uint64_t holds = L->samples_size + t->size + SS_TABLES_SLACK_VALUES;
    if (mt && ns > holds / mt)
        return ss_fail(L->err, SS_EINPUT,
                       "%s: %zu samples x %zu value types is more values than the tables hold "
                       "(at most %llu here: sample_values.tsv lists every value of every sample)",
                       L->dir, ns, mt, (unsigned long long)holds);
    if (ns && nt) {
        L->seen = ss_calloc_array((ns * nt + 7) / 8, 1);
        if (!L->seen)
            return ss_nomem(L->err, "sample values");
    }
    int got;
    while ((got = tsv_next(t)) == 1) {
        ss_id sample;
        int64_t v;
        if (f_ref(t, 0, ns, "samples.tsv", 0, &sample))
            return L->err->code;
        int rc;
        size_t k = find_vt(L, 1, &rc);
        if (rc)
            return rc;
        if (k == SIZE_MAX)
            return tsv_fail(t, 1, "'%.*s' is not a type of value_types.tsv",
                            (int)(t->fl[1] > 60 ? 60 : t->fl[1]), t->f[1]);
        if (L->vts.v[k].model == SS_VT_COUNT && t->fl[2] > 0 && t->f[2][0] == '-')
            return tsv_fail(t, 2, "negative count '%.*s' (a sample's count is 0 or more)",
                            (int)(t->fl[2] > 40 ? 40 : t->fl[2]), t->f[2]);
        if (f_int(t, 2, INT64_MIN, INT64_MAX, &v))
            return L->err->code;
        size_t bit = (size_t)sample * nt + k;
        if (L->seen[bit / 8] & (1u << (bit % 8)))
            return tsv_fail(t, SIZE_MAX, "a second '%s' value for sample %u",
                            ss_str(L->m, L->vts.v[k].type), sample + 1);
        L->seen[bit / 8] |= (uint8_t)(1u << (bit % 8));
        struct vt_row *r = &L->vts.v[k];
        if (!r->col) {
            r->col = ss_alloc_array(ns, sizeof *r->col);
            if (!r->col)
                return ss_nomem(L->err, "sample values");
            int64_t dflt = r->model == SS_VT_COUNT ? 1 : 0;
            for (size_t i = 0; i < ns; i++)
                r->col[i] = dflt;
        }
        r->col[sample] = v;
    }
    return got < 0 ? L->err->code : 0;
}

/* aggregates.tsv (optional): the aggregate counts of SamplingProf sources. */
static int read_agg_rows(struct loader *L, ss_id base)
{
    struct tsv *t = &L->t;
    int present, got;
    if (tsv_open(t, L->dir, "aggregates.tsv", agg_cols, ARRAY_SIZE(agg_cols), 1, &present))
        return L->err->code;
    if (!present)
        return 0;
    while ((got = tsv_next(t)) == 1) {
        struct ss_agg a;
        ss_id src, loc;
        if (f_ref(t, 0, L->sources.n, "sources.tsv", 0, &src) ||
            f_ref(t, 1, L->lmap.n, "locations.tsv", 0, &loc) ||
            f_int(t, 2, 0, SS_MAX_COUNT, &a.self) || f_int(t, 3, 0, SS_MAX_COUNT, &a.total))
            return L->err->code;
        if (a.self > a.total)
            return tsv_fail(t, 2, "self count %lld exceeds total count %lld", (long long)a.self,
                            (long long)a.total);
        a.source = base + src;
        a.location = L->lmap.v[loc];
        if (ss_model_add_agg(L->m, &a))
            return ss_nomem(L->err, "aggregates");
    }
    return got < 0 ? L->err->code : 0;
}

/* call_edges.tsv (optional): their call counts. */
static int read_edge_rows(struct loader *L, ss_id base)
{
    struct tsv *t = &L->t;
    int present, got;
    if (tsv_open(t, L->dir, "call_edges.tsv", edge_cols, ARRAY_SIZE(edge_cols), 1, &present))
        return L->err->code;
    if (!present)
        return 0;
    while ((got = tsv_next(t)) == 1) {
        struct ss_agg_edge e;
        ss_id src, from, to;
        if (f_ref(t, 0, L->sources.n, "sources.tsv", 0, &src) ||
            f_ref(t, 1, L->lmap.n, "locations.tsv", 1, &from) ||
            f_ref(t, 2, L->lmap.n, "locations.tsv", 0, &to) ||
            f_int(t, 3, 0, SS_MAX_COUNT, &e.count))
            return L->err->code;
        e.source = base + src;
        e.caller = from == SS_NONE ? SS_NONE : L->lmap.v[from];
        e.callee = L->lmap.v[to];
        if (ss_model_add_edge(L->m, &e))
            return ss_nomem(L->err, "call edges");
    }
    return got < 0 ? L->err->code : 0;
}

static int read_aggregates(struct loader *L, ss_id base)
{
    int rc = read_agg_rows(L, base);
    return rc ? rc : read_edge_rows(L, base);
}

/* labels.tsv (optional): the labels of each sample, in sample order. */
static int read_labels(struct loader *L)
{
    struct tsv *t = &L->t;
    int present, got;
    if (tsv_open(t, L->dir, "labels.tsv", label_cols, ARRAY_SIZE(label_cols), 1, &present))
        return L->err->code;
    if (!present)
        return 0;
    ss_id last = 0;
    while ((got = tsv_next(t)) == 1) {
        ss_id sample, key, str, unit = SS_NONE;
        int64_t num = 0;
        if (f_ref(t, 0, L->sample_src.n, "samples.tsv", 0, &sample) || f_str(t, 1, 0, &key) ||
            f_str(t, 2, 1, &str))
            return L->err->code;
        if (sample < last)
            return tsv_fail(t, 0, "sample %u after sample %u: the rows are in sample order",
                            sample + 1, last + 1);
        last = sample;
        if (str != SS_NONE) {
            if (!is_na(t, 3) || !is_na(t, 4))
                return tsv_fail(t, SIZE_MAX,
                                "a label with a string value has \\N for num and unit");
        } else if (is_na(t, 3)) {
            return tsv_fail(t, 3, "missing (\\N): a label has a string (str) or a number (num)");
        } else if (f_int(t, 3, INT64_MIN, INT64_MAX, &num) || f_str(t, 4, 1, &unit)) {
            return L->err->code;
        }
        ss_id lab = ss_model_label(L->m, key, str, num, unit);
        if (lab == SS_NONE || VEC_PUSH(L->lab_sample, sample) || VEC_PUSH(L->lab_id, lab))
            return ss_nomem(L->err, "labels");
    }
    return got < 0 ? L->err->code : 0;
}

/* Carry file `path`'s text, its lines in b (the loader's scratch). */
static int carry_text(struct loader *L, ss_id path, struct ss_strbuf *b)
{
    ss_id text = b->failed ? SS_NONE : ss_model_intern(L->m, ss_strbuf_str(b), b->len);
    ss_strbuf_free(b);
    if (text == SS_NONE || ss_model_add_source_text(L->m, path, text))
        return ss_nomem(L->err, "source files");
    return 0;
}

/* source_lines.tsv (optional): the source files the profile carries, each
 * file's lines numbered from 1, one after another. */
static int read_source_lines(struct loader *L)
{
    struct tsv *t = &L->t;
    int present, got = 0;
    if (tsv_open(t, L->dir, "source_lines.tsv", source_line_cols, ARRAY_SIZE(source_line_cols), 1,
                 &present))
        return L->err->code;
    ss_id file = SS_NONE;
    uint64_t want = 1;
    struct ss_strbuf b = SS_STRBUF_INIT;
    while (present && (got = tsv_next(t)) == 1) {
        ss_id f;
        uint64_t line;
        size_t len;
        if (f_str(t, 0, 0, &f) || f_uint(t, 1, SS_MAX_LINE_NO, &line))
            break;
        if (f != file) {
            if (file != SS_NONE && carry_text(L, file, &b))
                return L->err->code;
            if (ss_model_source_text(L->m, f) != SS_NONE) {
                tsv_fail(t, 0, "a file whose lines came before (a file's lines are together)");
                break;
            }
            file = f;
            want = 1;
        }
        if (line != want) {
            tsv_fail(t, 1,
                     "line %llu where line %llu was expected (each file's lines in "
                     "order from 1)",
                     (unsigned long long)line, (unsigned long long)want);
            break;
        }
        want++;
        if (unescape(t, 2, &len))
            break;
        if (memchr(t->scratch.v, '\0', len) || memchr(t->scratch.v, '\n', len)) {
            tsv_fail(t, 2, "a NUL or a newline (\\n) inside a line of source");
            break;
        }
        ss_strbuf_printf(&b, "%.*s\n", (int)len, t->scratch.v);
    }
    if (present && got == 1) { /* stopped at a bad row */
        ss_strbuf_free(&b);
        return L->err->code;
    }
    if (present && got < 0) {
        ss_strbuf_free(&b);
        return L->err->code;
    }
    return file != SS_NONE ? carry_text(L, file, &b) : 0;
}

/* Give sample i (0-based in the files) its labels; *next walks the rows. */
static int label_sample(struct loader *L, size_t i, size_t *next)
{
    size_t a = *next;
    while (*next < L->lab_sample.n && L->lab_sample.v[*next] == i)
        (*next)++;
    if (*next == a)
        return 0;
    if (*next - a > SS_MAX_LABELS_PER_SAMPLE)
        return ss_fail(L->err, SS_EINPUT, "%s/labels.tsv: sample %zu has more than %d labels",
                       L->dir, i + 1, SS_MAX_LABELS_PER_SAMPLE);
    ss_id set = ss_model_label_set(L->m, L->lab_id.v + a, *next - a);
    if (set == SS_NONE || ss_model_label_sample(L->m, set))
        return ss_nomem(L->err, "labels");
    return 0;
}

/* Source sid takes its time from the value type named `type` (meta.tsv's
 * SS_TABLES_TIME_COLUMN), when it is one in nanoseconds; else its time
 * stays count x interval. */
static void time_column(struct loader *L, ss_id sid, ss_id type)
{
    struct ss_model *m = L->m;
    for (size_t k = 0; k < L->vts.n; k++) {
        ss_id v = L->vts.v[k].model;
        if (L->vts.v[k].type == type && v != SS_NONE &&
            !strcmp(ss_str(m, m->value_types.v[v].unit), "nanoseconds")) {
            ss_model_source_time(m, sid, v);
            return;
        }
    }
}

/* Add the sources, their samples with their values, meta and classes. */
static int build(struct loader *L, ss_id base)
{
    struct ss_model *m = L->m;
    int64_t *vals = ss_alloc_array(m->values.n, sizeof *vals);
    if (!vals)
        return ss_nomem(L->err, "values");
    size_t i = 0, next_label = 0;
    int rc = 0;
    for (size_t s = 0; !rc && s < L->sources.n; s++) {
        ss_id sid = ss_model_add_source(m, &L->sources.v[s]);
        if (sid == SS_NONE) {
            rc = ss_nomem(L->err, "sources");
            break;
        }
        /* the tables keep no measures per source: each has every value type */
        for (size_t v = 0; v < L->vts.n; v++)
            if (L->vts.v[v].model != SS_NONE)
                ss_model_source_value(m, sid, L->vts.v[v].model, 0);
        for (; i < L->sample_src.n && L->sample_src.v[i] == s; i++) {
            for (size_t v = 0; v < m->values.n; v++)
                vals[v] = v == SS_VT_COUNT ? 1 : 0;
            for (size_t k = 0; k < L->vts.n; k++)
                if (L->vts.v[k].col)
                    vals[L->vts.v[k].model] = L->vts.v[k].col[i];
            int ar = ss_model_add_sample(m, L->sample_stack.v[i], vals);
            if (ar) { /* SS_COUNT_RANGE: negative, or the counts sum past INT64_MAX */
                char at[800];
                snprintf(at, sizeof at, "%.700s/sample_values.tsv: sample %zu", L->dir, i + 1);
                rc = ar == SS_COUNT_RANGE ? ss_model_count_fail(m, L->err, at, vals[SS_VT_COUNT])
                                          : ss_nomem(L->err, "samples");
                break;
            }
            if ((rc = label_sample(L, i, &next_label)) != 0)
                break;
        }
    }
    free(vals);
    if (rc)
        return rc;
    for (size_t k = 0; k < L->meta.n; k++) {
        const struct meta_row *e = &L->meta.v[k];
        if (e->source != SS_NONE && !strcmp(ss_str(m, e->key), SS_TABLES_TIME_COLUMN)) {
            time_column(L, base + e->source, e->value);
            continue;
        }
        if (ss_model_add_meta(m, e->source == SS_NONE ? SS_NONE : base + e->source, e->key,
                              e->value))
            return ss_nomem(L->err, "meta");
    }
    for (size_t k = 0; k < L->fclass.n; k++)
        if (L->fclass.v[k] != SS_NONE && ss_model_set_class(m, L->fmap.v[k], L->fclass.v[k]))
            return ss_nomem(L->err, "classes");
    return 0;
}

int ss_load_tables(struct ss_model *m, const char *dir, struct ss_error *err)
{
    struct loader L;
    memset(&L, 0, sizeof L);
    L.m = m;
    L.dir = dir;
    L.err = err;
    L.t.m = m;
    L.t.err = err;
    ss_id base = (ss_id)m->sources.n;
    int rc = read_meta(&L);
    if (!rc)
        rc = read_sources(&L);
    if (!rc)
        rc = read_value_types(&L);
    if (!rc)
        rc = read_functions(&L);
    if (!rc)
        rc = read_addresses(&L);
    if (!rc)
        rc = read_locations(&L);
    if (!rc)
        rc = read_stacks(&L);
    if (!rc)
        rc = read_samples(&L);
    if (!rc)
        rc = read_values(&L);
    if (!rc)
        rc = read_aggregates(&L, base);
    if (!rc)
        rc = read_labels(&L);
    if (!rc)
        rc = read_source_lines(&L);
    tsv_close(&L.t);
    if (!rc)
        rc = build(&L, base);
    VEC_FREE(L.t.scratch);
    VEC_FREE(L.meta);
    VEC_FREE(L.sources);
    for (size_t k = 0; k < L.vts.n; k++)
        free(L.vts.v[k].col);
    VEC_FREE(L.vts);
    free(L.vt_index);
    VEC_FREE(L.fmap);
    VEC_FREE(L.fclass);
    VEC_FREE(L.lmap);
    VEC_FREE(L.smap);
    VEC_FREE(L.frames);
    VEC_FREE(L.sample_src);
    VEC_FREE(L.sample_stack);
    VEC_FREE(L.lab_sample);
    VEC_FREE(L.lab_id);
    VEC_FREE(L.mmap);
    VEC_FREE(L.extra);
    free(L.seen);
    return rc;
}
