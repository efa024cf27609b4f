/* write_pprof.c - pprof writer: a gzip-compressed profile.proto
 * (stackscope(1), PPROF).
 *
 * What goes where:
 * - Sample types: samples/count (the count column); cpu/nanoseconds, which
 *   is count x the sample's own source interval for Rprof (and other
 *   non-pprof) samples, 0 for samples with no frames (R leaves those out of
 *   the sampling time), and the model's own cpu/nanoseconds column for
 *   samples read from pprof; alloc/bytes when the model has Rprof memory
 *   columns (R's memory="both" bytes: 8 x d(small_v) + 8 x d(big_v) +
 *   d(nodes) against the previous sample the session recorded, removed
 *   by a transform or not, negative differences 0); then every other value type of the model (the
 * raw Rprof columns small_v, big_v, nodes, dup_count, or a pprof file's own types).
 *   default_sample_type is the model's measure (--value): its sample type,
 *   samples, alloc for memory, cpu for time (when there is a cpu column).
 * - One pprof sample per model sample, in timeline order (never merged), so
 *   the sample sequence survives; Go's pprof merges equal stacks itself.
 *   Samples with no frames are written without locations.  A sample's
 *   labels are written as its Label messages (key and str, or key, num and
 *   num_unit), encoded once per distinct label set.
 * - A Function per distinct (function, source file) pair, with the file
 *   name, start line and, as system_name, the model's system name only when
 *   it differs from the name.  Go's pprof "demangles" functions whose
 *   system_name equals their name, and its heuristics for C++ names cut
 *   "<GC>" and "<Anonymous>" down to nothing (shown as "<unknown>"); an
 *   empty system_name makes it leave names alone.
 * - A Location per model location, with its line number; one Mapping with
 *   has_functions, has_filenames and has_line_numbers set, so that pprof
 *   does not try to symbolise addresses.  A position after the outermost
 *   frame (Rprof's trailing F#L token) has no function and is not written.
 * - period_type/period: cpu/nanoseconds and the interval of the first source
 *   with samples (a pprof source's own period type and period); time_nanos,
 *   duration_nanos, comments, drop_frames and keep_frames from the sources.
 *
 * The samples are encoded here, one Profile.sample field each, with the
 * location ids of each distinct stack encoded once; the rest of the Profile
 * follows them as one message packed by protobuf-c (fields may come in any
 * order).  Then the whole is gzip-compressed (see gz_out), by libdeflate
 * when it is there, else by zlib; a big profile is encoded and compressed
 * in parts at once, one gzip member each (see write_parts).
 */
#include "writers.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define ZLIB_CONST /* z_stream.next_in is const: zlib never writes the input */
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#else
#include <zlib.h>
#endif

#include "compare.h"
#include "hashtab.h"
#include "limits.h"
#include "num.h"
#include "rprof.h"
#include "profile.pb-c.h"
#include "vec.h"
#include "strbuf.h"
#include "threads.h"

#define PPROF_GZIP_LEVEL 2       /* zlib: fast (level 2 beats 1 in time and size on profiles) */
#define PPROF_LIBDEFLATE_LEVEL 1 /* libdeflate: as small as zlib's 2, 2.4 times as fast */

/* ---- gzip output ---------------------------------------------------------- */

/* The profile is encoded into memory first, then compressed.  Deflate is
 * the slow part (on 1M samples with memory counters, most of the time), so
 * a big profile is cut into parts compressed at the same time, one gzip
 * member each: a file of several members is still one gzip file (RFC 1952
 * 2.2; Go's, R's, zlib's and gzip's readers all read it whole). */
#define GZ_PART_MIN ((size_t)4 << 20) /* bytes per part, at least */
#define GZ_MAX_PARTS 8

struct out {
    VEC(uint8_t) b;
    int failed; /* out of memory */
};

static void out_write(struct out *o, const void *p, size_t n)
{
    if (n == 0)
        return;
    if (o->failed || VEC_RESERVE(o->b, o->b.n + n)) {
        o->failed = 1;
        return;
    }
    memcpy(o->b.v + o->b.n, p, n);
    o->b.n += n;
}

/* A gzip compressor, kept for the parts a thread compresses one after
 * another (libdeflate's tables are allocated once). */
struct gz {
#ifdef HAVE_LIBDEFLATE
    struct libdeflate_compressor *c;
#else
    int unused;
#endif
};

static void gz_free(struct gz *z)
{
#ifdef HAVE_LIBDEFLATE
    libdeflate_free_compressor(z->c);
#endif
    memset(z, 0, sizeof *z);
}

/* A buffer of `need` bytes in *out (capacity *cap) for gz_compress: its
 * old contents are not kept (realloc would copy them).  Returns 0 or -1. */
static int out_room(uint8_t **out, size_t *cap, size_t need)
{
    free(*out);
    *cap = 0;
    *out = malloc(need);
    if (!*out)
        return -1;
    *cap = need;
    return 0;
}

/* Compress in[0..len) into one gzip member in *out (capacity *cap, grown
 * as needed: a buffer used before, whose pages are there already), its
 * length in *out_len.  Returns 0 or -1 (out of memory, or zlib failed). */
#ifdef HAVE_LIBDEFLATE
static int gz_compress(struct gz *z, const uint8_t *in, size_t len, uint8_t **out, size_t *cap,
                       size_t *out_len)
{
    if (!z->c && !(z->c = libdeflate_alloc_compressor(PPROF_LIBDEFLATE_LEVEL)))
        return -1;
    size_t need = libdeflate_gzip_compress_bound(z->c, len);
    if (*cap < need && out_room(out, cap, need))
        return -1;
    *out_len = libdeflate_gzip_compress(z->c, in, len, *out, *cap);
    return *out_len ? 0 : -1; /* 0: no room, which the bound rules out */
}
#else
static int gz_compress(struct gz *z, const uint8_t *in, size_t len, uint8_t **out, size_t *cap,
                       size_t *out_len)
{
    (void)z;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, PPROF_GZIP_LEVEL, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    size_t need = deflateBound(&zs, (uLong)len) + 64;
    int rc = -1;
    if (*cap < need && out_room(out, cap, need))
        goto out;
    const uint8_t *at = in;
    size_t left = len;
    zs.next_out = *out;
    zs.avail_out = (uInt)*cap;
    int zr = Z_OK;
    while (zr == Z_OK) {
        uInt chunk = left > (1u << 30) ? 1u << 30 : (uInt)left;
        zs.next_in = at;
        zs.avail_in = chunk;
        at += chunk;
        left -= chunk;
        zr = deflate(&zs, left ? Z_NO_FLUSH : Z_FINISH);
        if (zr == Z_OK && zs.avail_in)
            break; /* cannot happen: deflateBound is enough */
    }
    if (zr == Z_STREAM_END) {
        *out_len = (size_t)zs.total_out;
        rc = 0;
    }
out:
    deflateEnd(&zs);
    return rc;
}
#endif

/* libdeflate picks its CRC-32 code for the processor on its first use and
 * keeps it in a global written without a lock: compressing at once on
 * threads, each wrote it (the same value: harmless, but a race helgrind and
 * DRD rightly report).  This first use is before the threads. */
static void gz_threads_ready(void)
{
#ifdef HAVE_LIBDEFLATE
    (void)libdeflate_crc32(0, "", 1);
#endif
}

/* One part of gz_out: compressed by a thread of its own. */
struct gz_part {
    const uint8_t *in;
    size_t len;
    uint8_t *out;
    size_t cap, out_len;
    int rc; /* 0, or -1: out of memory or a zlib error */
};

static void *gz_part_run(void *arg)
{
    struct gz_part *p = arg;
    struct gz z;
    memset(&z, 0, sizeof z);
    p->rc = gz_compress(&z, p->in, p->len, &p->out, &p->cap, &p->out_len);
    gz_free(&z);
    return NULL;
}

/* The parts `len` bytes are compressed in: one per GZ_PART_MIN bytes, at
 * most one a thread (STACKSCOPE_THREADS, else the processors online) and
 * GZ_MAX_PARTS. */
static size_t gz_parts(size_t len)
{
    size_t parts = len / GZ_PART_MIN, t = ss_threads(GZ_MAX_PARTS);
    if (parts > t)
        parts = t;
    return parts < 1 ? 1 : parts;
}

/* Compress `len` bytes to f as gzip.  Returns 0, -1 (out of memory or
 * zlib), or -2 (write error: *eno its errno). */
static int gz_out(const uint8_t *in, size_t len, FILE *f, int *eno)
{
    size_t parts = gz_parts(len);
    if (parts > 1)
        gz_threads_ready();
    struct gz_part p[GZ_MAX_PARTS];
    pthread_t th[GZ_MAX_PARTS];
    int started[GZ_MAX_PARTS];
    size_t at = 0;
    for (size_t i = 0; i < parts; i++) {
        size_t n = i + 1 == parts ? len - at : len / parts;
        struct gz_part pi = {in + at, n, NULL, 0, 0, -1};
        p[i] = pi;
        at += n;
        started[i] = i > 0 && pthread_create(&th[i], NULL, gz_part_run, &p[i]) == 0;
    }
    for (size_t i = 0; i < parts; i++)
        if (!started[i])
            gz_part_run(&p[i]); /* the first part, or a thread that did not start */
    int rc = 0;
    for (size_t i = 0; i < parts; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        if (p[i].rc)
            rc = -1;
    }
    for (size_t i = 0; i < parts && !rc; i++)
        if (fwrite(p[i].out, 1, p[i].out_len, f) != p[i].out_len) {
            *eno = errno;
            rc = -2;
        }
    for (size_t i = 0; i < parts; i++)
        free(p[i].out);
    return rc;
}

/* ---- the writer ----------------------------------------------------------- */

enum vt_kind { VT_COUNT, VT_CPU, VT_ALLOC, VT_MODEL };

/* An output location: grp[first .. first + n), all at one address. */
struct out_loc {
    uint32_t first, n;
    ss_id mapping; /* the model mapping, SS_NONE */
    uint64_t address;
};

struct out_vt {
    enum vt_kind kind;
    ss_id model;         /* VT_MODEL: the model's value type */
    uint32_t type, unit; /* output string indexes */
};

struct writer {
    const struct ss_model *m;
    const char *path;
    struct ss_error *err;
    struct ss_strtab ot; /* output string table; id = index */
    uint32_t *str_out;   /* model string id -> output index, UINT32_MAX unset */
    int oom;

    VEC(struct out_vt) vts;
    ss_id cpu_col; /* model column cpu/nanoseconds, or SS_NONE */
    struct ss_rprof_vt rvt;
    int have_rvt;

    /* Output locations: a model location alone, or a run of frames that
     * pprof keeps as one location with several lines (inlined calls: see
     * plan_locations). */
    uint32_t *loc_out;         /* model location -> output location of it alone (0: none yet) */
    VEC(struct out_loc) olocs; /* per output location (id - 1) */
    VEC(ss_id) grp;            /* the model locations of the output locations, innermost first */
    VEC(uint32_t) grp_fn;      /* per grp entry: its line's output function id, 0: no line */
    struct ss_idset grp_index; /* output locations of several lines, keyed by their grp entries */
    uint32_t *st_off;          /* per stack: its output locations are st_ids[st_off[s] ..
                                * st_off[s + 1]), innermost first */
    VEC(uint32_t) st_ids;
    int plain_mapping;      /* some location has no model mapping: one more mapping */
    VEC(ss_id) fn_model;    /* per output function (0-based): model function */
    VEC(ss_id) fn_file;     /* per output function: file string (model id) or SS_NONE */
    VEC(uint8_t) fn_native; /* per output function: used by a pprof source's sample */
    int from_pprof;         /* plan_stack: the stack is a pprof source's */

    uint64_t *stack_at;  /* per stack: offset of its encoded location ids, or UINT64_MAX */
    uint32_t *stack_len; /* ... and their length */
    VEC(uint8_t) sbytes; /* the encoded location ids of the stacks seen */

    uint64_t *set_at;    /* per label set: offset of its encoded labels, or UINT64_MAX */
    uint32_t *set_len;   /* ... and their length */
    VEC(uint8_t) lbytes; /* the encoded Label fields of the label sets seen */
};

static uint32_t out_str(struct writer *w, const char *s, size_t len)
{
    uint32_t id = ss_strtab_intern(&w->ot, s, len);
    if (id == SS_NONE)
        w->oom = 1;
    return id == SS_NONE ? 0 : id;
}

static uint32_t out_cstr(struct writer *w, const char *s)
{
    return out_str(w, s, strlen(s));
}

/* Output index of model string id (SS_NONE -> 0, the empty string). */
static uint32_t out_mstr(struct writer *w, ss_id id)
{
    if (id == SS_NONE)
        return 0;
    if (w->str_out[id] == UINT32_MAX)
        w->str_out[id] = out_str(w, ss_str(w->m, id), ss_strtab_len(&w->m->strs, id));
    return w->str_out[id];
}

static int is_pprof_source(const struct ss_model *m, ss_id s)
{
    return !strcmp(ss_str(m, m->sources.v[s].type), "pprof");
}

/* The value of meta `key` of source s, or NULL. */
static const char *source_meta(const struct ss_model *m, ss_id s, const char *key)
{
    for (size_t i = 0; i < m->meta.n; i++)
        if (m->meta.v[i].source == s && !strcmp(ss_str(m, m->meta.v[i].key), key))
            return ss_str(m, m->meta.v[i].value);
    return NULL;
}

static ss_id find_vt(const struct ss_model *m, const char *type, const char *unit)
{
    for (size_t t = 0; t < m->value_types.n; t++)
        if (!strcmp(ss_str(m, m->value_types.v[t].type), type) &&
            !strcmp(ss_str(m, m->value_types.v[t].unit), unit))
            return (ss_id)t;
    return SS_NONE;
}

static int push_vt(struct writer *w, enum vt_kind kind, ss_id model, const char *type,
                   const char *unit)
{
    struct out_vt v = {kind, model, out_cstr(w, type), out_cstr(w, unit)};
    if (VEC_PUSH(w->vts, v))
        w->oom = 1;
    return w->oom ? -1 : 0;
}

/* Does some source of m other than a pprof one have its `time` in value
 * type t (perf, Chrome: a duration per sample, written as its cpu)? */
static int time_column_of_other(const struct ss_model *m, size_t t)
{
    for (size_t s = 0; s < m->sources.n; s++)
        if (m->sources.v[s].time_column == t + 1 && !is_pprof_source(m, (ss_id)s))
            return 1;
    return 0;
}

/* Choose the sample types (see the top of the file): the count only when
 * a source has it (every source but a pprof one without samples/count: a
 * heap profile) or the measure is `samples`. */
static int plan_value_types(struct writer *w)
{
    const struct ss_model *m = w->m;
    w->cpu_col = find_vt(m, "cpu", "nanoseconds");
    int any_other = 0, count = m->sources.n == 0 || ss_model_measure(m)->kind == SS_MEASURE_SAMPLES;
    for (size_t s = 0; s < m->sources.n; s++) {
        if (!is_pprof_source(m, (ss_id)s))
            any_other = 1;
        else if (m->sources.v[s].values & 1)
            count = 1;
    }
    w->have_rvt = ss_rprof_value_types(m, &w->rvt) == 0;
    ss_id alloc_col = w->have_rvt ? find_vt(m, "alloc", "bytes") : SS_NONE;
    if ((count || any_other) && push_vt(w, VT_COUNT, SS_NONE, "samples", "count"))
        return -1;
    int cpu = any_other || w->cpu_col != SS_NONE;
    if (cpu && push_vt(w, VT_CPU, w->cpu_col, "cpu", "nanoseconds"))
        return -1;
    if (w->have_rvt && push_vt(w, VT_ALLOC, SS_NONE, "alloc", "bytes"))
        return -1;
    for (size_t t = 1; t < m->value_types.n; t++) {
        if ((ss_id)t == w->cpu_col || (ss_id)t == alloc_col || (cpu && time_column_of_other(m, t)))
            continue;
        struct out_vt v = {VT_MODEL, (ss_id)t, out_mstr(w, m->value_types.v[t].type),
                           out_mstr(w, m->value_types.v[t].unit)};
        if (VEC_PUSH(w->vts, v))
            return -1;
    }
    return w->oom ? -1 : 0;
}

/* The output function of model location l's line (0: it has none: an
 * address without lines), made on first use. */
static int loc_function(struct writer *w, struct ss_u64map *fn_out, ss_id l, uint32_t *out)
{
    const struct ss_model *m = w->m;
    const struct ss_location *loc = &m->locations.v[l];
    *out = 0;
    if (loc->flags & SS_LOC_NO_LINE)
        return 0;
    ss_id file = loc->file != SS_NONE ? loc->file : m->functions.v[loc->function].filename;
    uint32_t next = (uint32_t)w->fn_model.n;
    /* a function the file had without a name is one of its own: unnamed */
    ss_id fn = loc->flags & SS_LOC_UNNAMED ? SS_NONE - 1 - loc->function : loc->function;
    uint32_t fo = ss_u64map_intern(fn_out, (uint64_t)fn << 32 | file, next);
    if (fo == SS_NONE || (fo == next && (VEC_PUSH(w->fn_model, fn) || VEC_PUSH(w->fn_file, file) ||
                                         VEC_PUSH(w->fn_native, 0))))
        return -1;
    w->fn_native.v[fo] |= w->from_pprof;
    *out = fo + 1;
    return 0;
}

struct grp_key {
    const ss_id *locs;
    size_t n;
};

static int grp_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct writer *w = ctx;
    const struct grp_key *k = key;
    const struct out_loc *o = &w->olocs.v[id];
    return o->n == k->n && !memcmp(w->grp.v + o->first, k->locs, k->n * sizeof *k->locs);
}

/* The output location of the frames locs[0..n) (one location, or an
 * inlined run: see plan_locations), made on first use; 0 when out of
 * memory. */
static uint32_t group_out(struct writer *w, struct ss_u64map *fn_out, const ss_id *locs, size_t n)
{
    size_t pos = 0;
    uint64_t h = 0;
    if (n == 1 && w->loc_out[locs[0]])
        return w->loc_out[locs[0]];
    if (n > 1) {
        struct grp_key k = {locs, n};
        h = ss_hash(locs, n * sizeof *locs);
        if (ss_idset_reserve(&w->grp_index, 1))
            return 0;
        uint32_t id = ss_idset_find(&w->grp_index, h, grp_eq, w, &k, &pos);
        if (id != SS_NONE)
            return id + 1;
    }
    const struct ss_location *l0 = &w->m->locations.v[locs[0]];
    struct out_loc o = {(uint32_t)w->grp.n, (uint32_t)n, l0->mapping, l0->address};
    if (VEC_RESERVE(w->grp, w->grp.n + n) || VEC_RESERVE(w->grp_fn, w->grp.n + n) ||
        VEC_PUSH(w->olocs, o))
        return 0;
    for (size_t k = 0; k < n; k++) {
        if (loc_function(w, fn_out, locs[k], &w->grp_fn.v[w->grp.n]))
            return 0;
        w->grp.v[w->grp.n++] = locs[k];
    }
    w->grp_fn.n = w->grp.n;
    uint32_t id = (uint32_t)w->olocs.n;
    w->plain_mapping |= l0->mapping == SS_NONE;
    if (n == 1)
        w->loc_out[locs[0]] = id;
    else
        ss_idset_insert(&w->grp_index, pos, h, id - 1);
    return id;
}

/* Frames fr[k], fr[k + 1] are lines of one pprof location: fr[k] was
 * inlined into fr[k + 1], at the same address. */
static int same_site(const struct ss_model *m, ss_id a, ss_id b)
{
    const struct ss_location *x = &m->locations.v[a], *y = &m->locations.v[b];
    return (x->flags & SS_LOC_INLINE) && y->function != SS_NONE && x->mapping == y->mapping &&
           x->address == y->address && !(y->flags & SS_LOC_NO_LINE);
}

/* The output locations of stack s, innermost first, onto st_ids. */
static int plan_stack(struct writer *w, struct ss_u64map *fn_out, ss_id s)
{
    const struct ss_model *m = w->m;
    const ss_id *fr = ss_stack_frames(m, s);
    size_t d = ss_stack_depth(m, s);
    for (size_t k = 0; k < d;) {
        if (m->locations.v[fr[k]].function == SS_NONE) {
            k++;
            continue;
        }
        size_t j = k;
        while (j + 1 < d && same_site(m, fr[j], fr[j + 1]))
            j++;
        uint32_t id = group_out(w, fn_out, fr + k, j + 1 - k);
        if (!id || VEC_PUSH(w->st_ids, id))
            return -1;
        k = j + 1;
    }
    return 0;
}

/* Functions and locations: only those the samples use.  A frame marked
 * inlined (SS_LOC_INLINE) and the frames after it at its address are one
 * pprof location, its lines in order: so a profile read from pprof keeps
 * its locations (and pprof its "(inline)" marks). */
static int plan_locations(struct writer *w)
{
    const struct ss_model *m = w->m;
    size_t ns = ss_model_nstacks(m), nl = m->locations.n;
    unsigned char *used = ss_calloc_array(ns ? ns : 1, 1);
    w->loc_out = ss_calloc_array(nl ? nl : 1, sizeof *w->loc_out);
    w->st_off = ss_alloc_array(ns + 1, sizeof *w->st_off);
    if (!used || !w->loc_out || !w->st_off || VEC_RESERVE(w->st_ids, 1)) {
        free(used);
        return -1;
    }
    /* used[s]: 1, or 2 when a pprof source's sample uses it */
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        unsigned char u = is_pprof_source(m, (ss_id)s) ? 2 : 1;
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++)
            if (used[m->sample_stack.v[i]] < u)
                used[m->sample_stack.v[i]] = u;
    }
    /* (function << 32 | file) -> output function (index in fn_model). */
    struct ss_u64map fn_out = {0};
    int rc = 0;
    for (size_t s = 0; s < ns && !rc; s++) {
        w->st_off[s] = (uint32_t)w->st_ids.n;
        w->from_pprof = used[s] == 2;
        if (used[s])
            rc = plan_stack(w, &fn_out, (ss_id)s);
        if (w->st_ids.n > UINT32_MAX - 1)
            rc = -1;
    }
    w->st_off[ns] = (uint32_t)w->st_ids.n;
    ss_u64map_free(&fn_out);
    free(used);
    return rc;
}

/* A value past what a pprof int64 holds is an error naming it (exit 2),
 * never a wrap or an out-of-range conversion.  Returns 0 with *out set, or
 * PP_TOO_BIG with w->err filled; `what` says whose value it is, followed,
 * with `src`, by "sample N of FILE" (sample i of that source).  The message
 * is made only then: made for every sample, it was a third of the writer's
 * time. */
#define PP_TOO_BIG (-4) /* not -2, gz_out's and write_parts' write error */
static int to_int64(struct writer *w, double v, const char *what, const struct ss_source *src,
                    size_t i, int64_t *out)
{
    if (!(v > -0x1p63 && v < 0x1p63)) {
        char of[600] = "";
        if (src)
            snprintf(of, sizeof of, " sample %zu of %.400s", i - src->first_sample + 1,
                     ss_str(w->m, src->uri));
        ss_fail(w->err, SS_EINPUT,
                "%s: cannot write pprof: %s%s, %.15g, does not fit a pprof value (at most %lld)",
                w->path, what, of, v, (long long)INT64_MAX);
        return PP_TOO_BIG;
    }
    *out = llround(v);
    return 0;
}

/* Bytes allocated by sample i (R's memory="both"), for the alloc column. */
static int alloc_bytes(struct writer *w, const struct ss_source *src, size_t i, int64_t *out)
{
    *out = 0;
    if (!(src->flags & SS_SRC_MEMORY))
        return 0;
    const struct ss_model *m = w->m;
    ptrdiff_t r = (ptrdiff_t)ss_sample_row(m, i), p;
    if (!ss_sample_prev_row(m, src, i, &p))
        return 0;
    /* Counters below 2^46 (all R writes): their differences, 8 x them and
     * the sum are exact integers below 2^53, so the sum in integers is the
     * double ss_rprof_alloc_bytes makes, without its rounding */
    const int64_t lim = (int64_t)1 << 46;
    const int64_t *col[3] = {m->values.v[w->rvt.small_v], m->values.v[w->rvt.big_v],
                             m->values.v[w->rvt.nodes]};
    int64_t sum = 0;
    for (int k = 0; k < 3; k++) {
        if (!col[k])
            continue;
        int64_t a = col[k][r], b = col[k][p];
        if (a <= -lim || a >= lim || b <= -lim || b >= lim)
            return to_int64(w, ss_rprof_alloc_bytes(m, &w->rvt, src, i), "the bytes allocated by",
                            src, i, out);
        if (a > b)
            sum += (k < 2 ? 8 : 1) * (a - b);
    }
    *out = sum;
    return 0;
}

static void put_varint(uint8_t *buf, size_t *n, uint64_t v)
{
    while (v >= 0x80) {
        buf[(*n)++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    buf[(*n)++] = (uint8_t)v;
}

/* 7 bits a byte: the bits up to the highest set one (at least one). */
static size_t varint_len(uint64_t v)
{
    return ((size_t)(64 - __builtin_clzll(v | 1)) + 6) / 7;
}

/* put_varint without its loop for a value below 2^28 (every value of a
 * 1M-sample R memory profile's samples): its bytes made in one word and
 * stored at once, so 4 bytes from buf + *n must be writable.  The loop's
 * branches, taken a different number of times for each of a sample's
 * values, were most of the encoding's time. */
static inline void put_varint_word(uint8_t *buf, size_t *n, uint64_t v)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (v < (uint64_t)1 << 28) {
        size_t len = varint_len(v);
        uint32_t x = (uint32_t)(v & 0x7f) | (uint32_t)((v << 1) & 0x7f00) |
                     (uint32_t)((v << 2) & 0x7f0000) | (uint32_t)((v << 3) & 0x7f000000);
        x |= 0x808080u >> (8 * (4 - len)); /* the continuation bits */
        memcpy(buf + *n, &x, 4);
        *n += len;
        return;
    }
#endif
    put_varint(buf, n, v);
}

static int stack_bytes_fill(struct writer *w, ss_id st, const uint8_t **out, size_t *len);

/* The packed location ids of stack st (Sample.location_id, field 1, with
 * its tag and length), cached per distinct stack: samples repeat stacks. */
static inline int stack_bytes(struct writer *w, ss_id st, const uint8_t **out, size_t *len)
{
    if (w->stack_at[st] != UINT64_MAX) {
        *out = w->sbytes.v + w->stack_at[st];
        *len = w->stack_len[st];
        return 0;
    }
    return stack_bytes_fill(w, st, out, len);
}

/* stack_bytes of a stack not cached yet. */
static int stack_bytes_fill(struct writer *w, ss_id st, const uint8_t **out, size_t *len)
{
    size_t depth = w->st_off[st + 1] - w->st_off[st], body = 0;
    const uint32_t *ids = w->st_ids.v + w->st_off[st];
    for (size_t k = 0; k < depth; k++)
        body += varint_len(ids[k]);
    size_t need = body ? 1 + varint_len(body) + body : 0;
    /* + 1: never a NULL buffer, even when every stack so far is empty. */
    if (VEC_RESERVE(w->sbytes, w->sbytes.n + need + 1))
        return -1;
    uint8_t *b = w->sbytes.v + w->sbytes.n;
    size_t n = 0;
    if (body) {
        b[n++] = 1 << 3 | 2; /* field 1 (location_id), packed */
        put_varint(b, &n, body);
        for (size_t k = 0; k < depth; k++)
            put_varint(b, &n, ids[k]);
    }
    w->stack_at[st] = w->sbytes.n;
    w->stack_len[st] = (uint32_t)n;
    w->sbytes.n += n;
    *out = w->sbytes.v + w->stack_at[st];
    *len = n;
    return 0;
}

/* The Label fields (Sample.label, field 3) of label set `set`, cached per
 * set: Label{key = 1, str = 2} or Label{key = 1, num = 3, num_unit = 4}. */
static int set_bytes(struct writer *w, ss_id set, const uint8_t **out, size_t *len)
{
    if (w->set_at[set] == UINT64_MAX) {
        const struct ss_model *m = w->m;
        const ss_id *labs = ss_labelset_labels(m, set);
        size_t nl = ss_labelset_size(m, set);
        if (VEC_RESERVE(w->lbytes, w->lbytes.n + nl * 48 + 1))
            return -1;
        size_t start = w->lbytes.n, n = start;
        uint8_t *b = w->lbytes.v;
        for (size_t i = 0; i < nl; i++) {
            const struct ss_label *l = &m->labels.v[labs[i]];
            uint8_t body[48];
            size_t k = 0;
            body[k++] = 1 << 3;
            put_varint(body, &k, out_mstr(w, l->key));
            if (l->str != SS_NONE) {
                body[k++] = 2 << 3;
                put_varint(body, &k, out_mstr(w, l->str));
            } else {
                body[k++] = 3 << 3;
                put_varint(body, &k, (uint64_t)l->num);
                if (l->unit != SS_NONE) {
                    body[k++] = 4 << 3;
                    put_varint(body, &k, out_mstr(w, l->unit));
                }
            }
            b[n++] = 3 << 3 | 2; /* Sample.label */
            put_varint(b, &n, k);
            memcpy(b + n, body, k);
            n += k;
        }
        w->lbytes.n = n;
        w->set_at[set] = start;
        w->set_len[set] = (uint32_t)(n - start);
    }
    *out = w->lbytes.v + w->set_at[set];
    *len = w->set_len[set];
    return 0;
}

/* The values of sample i of source s (ids_len: its stack's encoded length,
 * 0 for a sample with no frames; pprof_src: is_pprof_source, asked once a
 * source) into vals[0..w->vts.n).  Returns 0 or -1. */
static int sample_values(struct writer *w, size_t s, int pprof_src, size_t i, size_t ids_len,
                         int64_t *vals)
{
    const struct ss_model *m = w->m;
    const struct ss_source *src = &m->sources.v[s];
    double ns_per_count = src->interval_us * 1000.0;
    int64_t count = ss_sample_count(m, i);
    size_t row = ss_sample_row(m, i);
    int rc = 0;
    for (size_t t = 0; t < w->vts.n && !rc; t++) {
        const struct out_vt *v = &w->vts.v[t];
        const int64_t *col;
        switch (v->kind) {
        case VT_COUNT:
            vals[t] = count;
            break;
        case VT_CPU:
            if (pprof_src) {
                col = v->model != SS_NONE ? m->values.v[v->model] : NULL;
                vals[t] = col ? col[row] : 0;
            } else if (src->time_column) {
                /* each sample's own duration (perf, Chrome), in ns */
                col = m->values.v[src->time_column - 1];
                vals[t] = col ? col[row] : 0;
            } else if (ids_len) {
                /* a whole number of ns and a product below 2^53: the
                 * double product is exact, and so is this */
                int64_t ns =
                            ns_per_count >= 0 && ns_per_count < 0x1p53 ? (int64_t)ns_per_count : -1,
                        prod;
                if (ns >= 0 && ss_double_eq((double)ns, ns_per_count) &&
                    !__builtin_mul_overflow(count, ns, &prod) && prod > -((int64_t)1 << 53) &&
                    prod < ((int64_t)1 << 53))
                    vals[t] = prod;
                else
                    rc = to_int64(w, (double)count * ns_per_count, "the time in ns of", src, i,
                                  &vals[t]);
            } else {
                vals[t] = 0;
            }
            break;
        case VT_ALLOC:
            rc = alloc_bytes(w, src, i, &vals[t]);
            break;
        case VT_MODEL:
            col = m->values.v[v->model];
            vals[t] = col ? col[row] : 0;
            break;
        }
    }
    return rc;
}

/* A comparison (compare.h): the base's samples are written negated, so
 * that pprof -top equals pprof -top -diff_base=BASE NEW; with
 * SS_SRC_NORMALIZE each sample type of the base is first scaled by the new
 * side's total over the base's (each value rounded, as pprof's ScaleN).
 * Fills ratio[0..nvt) (1 when not normalizing).  Returns 0 or -1. */
static int base_ratios(struct writer *w, double *ratio, int64_t *vals)
{
    const struct ss_model *m = w->m;
    size_t nvt = w->vts.n;
    int norm = 0;
    for (size_t t = 0; t < nvt; t++)
        ratio[t] = 1;
    for (size_t s = 0; s < m->sources.n; s++)
        norm |= (m->sources.v[s].flags & SS_SRC_NORMALIZE) != 0;
    if (!norm)
        return 0;
    double *tot = calloc(2 * nvt + 1, sizeof *tot);
    if (!tot)
        return -1;
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        double *side = tot + ((src->flags & SS_SRC_BASE) ? nvt : 0);
        int pprof_src = is_pprof_source(m, (ss_id)s);
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
            size_t d = ss_stack_depth(m, m->sample_stack.v[i]);
            if (sample_values(w, s, pprof_src, i, d, vals)) {
                free(tot);
                return -1;
            }
            for (size_t t = 0; t < nvt; t++)
                side[t] += (double)vals[t];
        }
    }
    for (size_t t = 0; t < nvt; t++)
        ratio[t] = !ss_double_eq(tot[nvt + t], 0) ? tot[t] / tot[nvt + t] : 0;
    free(tot);
    return 0;
}

/* What encoding the samples needs, shared by the parts of a parallel
 * encoding (read only there). */
struct enc {
    double *ratio; /* per value type: the base's scale (base_ratios) */
    uint8_t mark[32];
    size_t mark_n;
};

/* Allocate the writer's per-stack and per-set caches and fill e.  Returns 0
 * or -1 (out of memory). */
static int samples_setup(struct writer *w, struct enc *e)
{
    const struct ss_model *m = w->m;
    size_t nvt = w->vts.n, ns = ss_model_nstacks(m), nsets = ss_model_nlabelsets(m);
    int64_t *vals = ss_alloc_array(nvt, sizeof *vals);
    e->ratio = ss_alloc_array(nvt, sizeof *e->ratio);
    w->stack_at = ss_alloc_array(ns, sizeof *w->stack_at);
    w->stack_len = ss_alloc_array(ns, sizeof *w->stack_len);
    w->set_at = ss_alloc_array(nsets, sizeof *w->set_at);
    w->set_len = ss_alloc_array(nsets, sizeof *w->set_len);
    int rc = !vals || !e->ratio || !w->stack_at || !w->stack_len || !w->set_at || !w->set_len ||
             base_ratios(w, e->ratio, vals);
    free(vals);
    if (rc)
        return -1;
    memset(w->stack_at, 0xff, ns * sizeof *w->stack_at);
    memset(w->set_at, 0xff, nsets * sizeof *w->set_at);
    /* the base's samples carry pprof's own mark, label pprof::base=true, so
     * that pprof takes the base's total for percentages as with -diff_base */
    e->mark_n = 0;
    if (ss_model_is_comparison(m)) {
        uint8_t lb[24];
        size_t mark_body = 0;
        lb[mark_body++] = 1 << 3 | 0; /* Label.key */
        put_varint(lb, &mark_body, out_cstr(w, "pprof::base"));
        lb[mark_body++] = 2 << 3 | 0; /* Label.str */
        put_varint(lb, &mark_body, out_cstr(w, "true"));
        e->mark[e->mark_n++] = 3 << 3 | 2; /* Sample.label */
        put_varint(e->mark, &e->mark_n, mark_body);
        memcpy(e->mark + e->mark_n, lb, mark_body);
        e->mark_n += mark_body;
    }
    return 0;
}

/* Encode the samples at positions [lo, hi) of the sources' samples in
 * source order into g, each as a Profile.sample field.  The Sample message
 * is encoded here (two packed fields; the cached location ids and the
 * values) rather than through protobuf-c, which would recount the same
 * stack for every sample.  Returns 0, -1 (out of memory) or PP_TOO_BIG. */
static int encode_samples(struct writer *w, const struct enc *e, struct out *g, size_t lo,
                          size_t hi)
{
    const struct ss_model *m = w->m;
    size_t nvt = w->vts.n;
    int64_t *vals = ss_alloc_array(nvt, sizeof *vals);
    int rc = vals ? 0 : -1;
    size_t at = 0; /* the position of the source's first sample */
    for (size_t s = 0; s < m->sources.n && !rc && at < hi; s++) {
        const struct ss_source *src = &m->sources.v[s];
        int base = (src->flags & SS_SRC_BASE) != 0, pprof_src = is_pprof_source(m, (ss_id)s);
        size_t from = lo > at ? lo - at : 0,
               to = hi - at < src->n_samples ? hi - at : src->n_samples;
        at += src->n_samples;
        for (size_t i = src->first_sample + from; i < src->first_sample + to; i++) {
            ss_id st = m->sample_stack.v[i];
            const uint8_t *ids;
            size_t ids_len;
            rc = stack_bytes(w, st, &ids, &ids_len)
                     ? -1
                     : sample_values(w, s, pprof_src, i, ids_len, vals);
            if (rc)
                break;
            if (base) {
                int any = 0;
                for (size_t t = 0; t < nvt; t++) {
                    if (!ss_double_eq(e->ratio[t], 1))
                        vals[t] = (int64_t)llround((double)vals[t] * e->ratio[t]);
                    vals[t] = -vals[t];
                    any |= vals[t] != 0;
                }
                if (!any)
                    continue; /* scaled to nothing: pprof drops it too */
            }
            const uint8_t *lbs;
            size_t lbs_len;
            if (set_bytes(w, ss_sample_labelset(m, i), &lbs, &lbs_len)) {
                rc = -1;
                break;
            }
            /* value: field 2, packed int64 (negative values take 10 bytes) */
            size_t body = 0;
            for (size_t t = 0; t < nvt; t++)
                body += varint_len((uint64_t)vals[t]);
            size_t sample_len =
                ids_len + 1 + varint_len(body) + body + lbs_len + (base ? e->mark_n : 0);
            size_t hn = 1 + varint_len(sample_len);
            /* every file we write, we read back: stop as soon as the
             * samples alone are over what the reader takes */
            if (g->b.n + hn + sample_len > SS_PPROF_MAX_BYTES) {
                ss_fail(w->err, SS_EUSAGE,
                        "%s: the profile would be more than %zu MiB before compression (its "
                        "first %zu of %zu samples alone), over what pprof readers here take "
                        "(trim it first, e.g. -e 'keep-samples 1:N')",
                        w->path, SS_PPROF_MAX_BYTES >> 20, i + 1, m->sample_stack.n);
                rc = PP_TOO_BIG;
                break;
            }
            /* + 4: put_varint_word stores four bytes */
            if (g->failed || VEC_RESERVE(g->b, g->b.n + hn + sample_len + 4)) {
                g->failed = 1;
                break;
            }
            uint8_t *o = g->b.v;
            size_t n = g->b.n;
            o[n++] = 2 << 3 | 2; /* Profile.sample */
            put_varint_word(o, &n, sample_len);
            memcpy(o + n, ids, ids_len);
            n += ids_len;
            if (base) {
                memcpy(o + n, e->mark, e->mark_n);
                n += e->mark_n;
            }
            o[n++] = 2 << 3 | 2;
            put_varint_word(o, &n, body);
            for (size_t t = 0; t < nvt; t++)
                put_varint_word(o, &n, (uint64_t)vals[t]);
            if (lbs_len)
                memcpy(o + n, lbs, lbs_len);
            g->b.n = n + lbs_len;
        }
    }
    free(vals);
    return rc;
}

/* The number of samples of all sources. */
static size_t samples_n(const struct ss_model *m)
{
    size_t n = 0;
    for (size_t s = 0; s < m->sources.n; s++)
        n += m->sources.v[s].n_samples;
    return n;
}

/* Split "type/unit" at its last '/' into output strings. */
static void split_type(struct writer *w, const char *s, uint32_t *type, uint32_t *unit)
{
    const char *slash = strrchr(s, '/');
    if (!slash) {
        *type = out_cstr(w, s);
        *unit = 0;
        return;
    }
    *type = out_str(w, s, (size_t)(slash - s));
    *unit = out_cstr(w, slash + 1);
}

/* The comment that says what source s was, for stackscope's reader to
 * restore (load_pprof.c, restore_plan): the samples of a profile are
 * written one per model sample in order, source after source, so source s
 * is the samples from position `at` (1-based) on. */
static uint32_t source_note(struct writer *w, ss_id s, size_t at)
{
    const struct ss_model *m = w->m;
    const struct ss_source *src = &m->sources.v[s];
    char flags[48];
    snprintf(flags, sizeof flags, "%s%s%s%s", src->flags & SS_SRC_MEMORY ? " memory" : "",
             src->flags & SS_SRC_GC ? " gc" : "", src->flags & SS_SRC_LINE ? " line" : "",
             src->flags & SS_SRC_UNORDERED ? " unordered" : "");
    struct ss_strbuf note = SS_STRBUF_INIT; /* the whole path, however long */
    ss_strbuf_printf(&note,
                     "stackscope: source %zu of %zu: %s session %u, interval %.17g us, flags %s, "
                     "%zu samples from %zu, file %s",
                     (size_t)s + 1, m->sources.n, ss_str(m, src->type), src->session,
                     src->interval_us, flags[0] ? flags + 1 : "none", src->n_samples, at,
                     ss_str(m, src->uri));
    w->oom |= note.failed;
    uint32_t id = out_cstr(w, ss_strbuf_str(&note));
    ss_strbuf_free(&note);
    return id;
}

/* The Profile message but its samples, while write_rest fills it: the
 * arrays its fields point into. */
struct rest {
    Perftools__Profiles__Profile p;
    Perftools__Profiles__ValueType *vt, **vtp, period_type;
    Perftools__Profiles__Function *fn, **fnp;
    Perftools__Profiles__Location *lo, **lop;
    Perftools__Profiles__Line *ln, **lnp;
    Perftools__Profiles__Mapping *map, **mapp;
    int64_t *comments;
    uint32_t *empty_file; /* functions whose file has an empty name */
    size_t n_empty;
    char **strings;
    uint8_t *buf;
    ss_id first; /* the first source with samples (or the first) */
    int have_src;
};

static int rest_alloc(struct writer *w, struct rest *r)
{
    const struct ss_model *m = w->m;
    size_t nvt = w->vts.n, nfn = w->fn_model.n, nloc = w->olocs.n, nln = w->grp.n;
    size_t nmap = m->mappings.n + (w->plain_mapping ? 1 : 0);
    r->vt = ss_calloc_array(nvt + 1, sizeof *r->vt);
    r->vtp = ss_calloc_array(nvt + 1, sizeof *r->vtp);
    r->fn = ss_calloc_array(nfn + 1, sizeof *r->fn);
    r->fnp = ss_calloc_array(nfn + 1, sizeof *r->fnp);
    r->lo = ss_calloc_array(nloc + 1, sizeof *r->lo);
    r->lop = ss_calloc_array(nloc + 1, sizeof *r->lop);
    r->ln = ss_calloc_array(nln + 1, sizeof *r->ln);
    r->lnp = ss_calloc_array(nln + 1, sizeof *r->lnp);
    r->map = ss_calloc_array(nmap + 1, sizeof *r->map);
    r->mapp = ss_calloc_array(nmap + 1, sizeof *r->mapp);
    r->comments = ss_calloc_array(m->meta.n + m->sources.n + 1, sizeof *r->comments);
    r->empty_file = ss_calloc_array(nfn + 1, sizeof *r->empty_file);
    return r->vt && r->vtp && r->fn && r->fnp && r->lo && r->lop && r->ln && r->lnp && r->map &&
                   r->mapp && r->comments && r->empty_file
               ? 0
               : -1;
}

static void rest_free(struct rest *r)
{
    free(r->vt);
    free(r->vtp);
    free(r->fn);
    free(r->fnp);
    free(r->lo);
    free(r->lop);
    free(r->ln);
    free(r->lnp);
    free(r->map);
    free(r->mapp);
    free(r->empty_file);
    free(r->comments);
    free(r->strings);
    free(r->buf);
}

/* The model's mappings, ids 1..n in order; then, for locations without
 * one, a mapping that says they are symbolised, so that pprof does not
 * try to symbolise their addresses. */
static void put_mappings(struct writer *w, struct rest *r)
{
    const struct ss_model *m = w->m;
    size_t nmap = m->mappings.n + (w->plain_mapping ? 1 : 0);
    Perftools__Profiles__Mapping *map = r->map;
    for (size_t i = 0; i < nmap; i++) {
        perftools__profiles__mapping__init(&map[i]);
        map[i].id = i + 1;
        if (i == m->mappings.n) {
            map[i].has_functions = map[i].has_filenames = map[i].has_line_numbers = 1;
        } else {
            const struct ss_mapping *mp = &m->mappings.v[i];
            map[i].memory_start = mp->start;
            map[i].memory_limit = mp->limit;
            map[i].file_offset = mp->offset;
            map[i].filename = out_mstr(w, mp->file);
            map[i].build_id = out_mstr(w, mp->build_id);
            map[i].has_functions = (mp->flags & SS_MAP_FUNCTIONS) != 0;
            map[i].has_filenames = (mp->flags & SS_MAP_FILENAMES) != 0;
            map[i].has_line_numbers = (mp->flags & SS_MAP_LINE_NUMBERS) != 0;
            map[i].has_inline_frames = (mp->flags & SS_MAP_INLINE_FRAMES) != 0;
        }
        r->mapp[i] = &map[i];
    }
    r->p.n_mapping = nmap;
    r->p.mapping = r->mapp;
}

static void put_sample_types(struct writer *w, struct rest *r)
{
    for (size_t i = 0; i < w->vts.n; i++) {
        perftools__profiles__value_type__init(&r->vt[i]);
        r->vt[i].type = w->vts.v[i].type;
        r->vt[i].unit = w->vts.v[i].unit;
        r->vtp[i] = &r->vt[i];
    }
    r->p.n_sample_type = w->vts.n;
    r->p.sample_type = r->vtp;
}

static void put_functions(struct writer *w, struct rest *r)
{
    const struct ss_model *m = w->m;
    Perftools__Profiles__Function *fn = r->fn;
    for (size_t i = 0; i < w->fn_model.n; i++) {
        ss_id mf = w->fn_model.v[i];
        int unnamed = mf >= m->functions.n; /* see loc_function */
        const struct ss_function *f = &m->functions.v[unnamed ? SS_NONE - 1 - mf : mf];
        perftools__profiles__function__init(&fn[i]);
        fn[i].id = i + 1;
        fn[i].name = unnamed ? 0 : out_mstr(w, f->name);
        /* a system name equal to the name only as a pprof file had it:
         * pprof then tries to demangle the name, which cuts R's "<GC>" and
         * "<Anonymous>" to nothing */
        int sys = !unnamed && f->system_name != SS_NONE &&
                  (f->system_name != f->name || w->fn_native.v[i]);
        fn[i].system_name = sys ? out_mstr(w, f->system_name) : 0;
        fn[i].filename = out_mstr(w, w->fn_file.v[i]);
        fn[i].start_line = f->start_line;
        r->fnp[i] = &fn[i];
        /* a file whose name is empty (R's `#File 1: `) is not no file:
         * its name is an empty string of its own (see put_strings) */
        if (w->fn_file.v[i] != SS_NONE && !ss_strtab_len(&m->strs, w->fn_file.v[i]))
            r->empty_file[r->n_empty++] = (uint32_t)i;
    }
    r->p.n_function = w->fn_model.n;
    r->p.function = r->fnp;
}

static void put_locations(struct writer *w, struct rest *r)
{
    const struct ss_model *m = w->m;
    Perftools__Profiles__Location *lo = r->lo;
    Perftools__Profiles__Line *ln = r->ln;
    for (size_t i = 0, k = 0; i < w->olocs.n; i++) {
        const struct out_loc *ol = &w->olocs.v[i];
        perftools__profiles__location__init(&lo[i]);
        lo[i].id = i + 1;
        lo[i].mapping_id = ol->mapping != SS_NONE ? ol->mapping + 1 : m->mappings.n + 1;
        lo[i].address = ol->address;
        lo[i].line = r->lnp + k;
        for (uint32_t j = 0; j < ol->n; j++) {
            if (!w->grp_fn.v[ol->first + j])
                continue; /* an address without lines */
            perftools__profiles__line__init(&ln[k]);
            ln[k].function_id = w->grp_fn.v[ol->first + j];
            ln[k].line = m->locations.v[w->grp.v[ol->first + j]].line;
            r->lnp[k] = &ln[k];
            k++;
        }
        lo[i].n_line = (size_t)(r->lnp + k - lo[i].line);
        r->lop[i] = &lo[i];
    }
    r->p.n_location = w->olocs.n;
    r->p.location = r->lop;
}

/* The period, its type and the time, from the first source with samples.
 * Returns 0 or an error (PP_TOO_BIG, or to_int64's). */
static int put_period(struct writer *w, struct rest *r)
{
    const struct ss_model *m = w->m;
    Perftools__Profiles__Profile *p = &r->p;
    ss_id first = r->first;
    const char *pt = r->have_src ? source_meta(m, first, "period_type") : NULL;
    const char *per = r->have_src ? source_meta(m, first, "period") : NULL;
    if (r->have_src && is_pprof_source(m, first)) {
        uint32_t ptype = 0, punit = 0;
        if (pt)
            split_type(w, pt, &ptype, &punit);
        r->period_type.type = ptype;
        r->period_type.unit = punit;
        p->period = per ? strtoll(per, NULL, 10) : 0;
    } else if (r->have_src) {
        r->period_type.type = out_cstr(w, "cpu");
        r->period_type.unit = out_cstr(w, "nanoseconds");
        int rc = to_int64(w, m->sources.v[first].interval_us * 1000.0, "the sampling period in ns",
                          NULL, 0, &p->period);
        if (rc)
            return rc;
    }
    p->period_type = &r->period_type;
    const char *tn = r->have_src ? source_meta(m, first, "time_nanos") : NULL;
    if (tn) {
        p->time_nanos = strtoll(tn, NULL, 10);
    } else if (r->have_src && __builtin_mul_overflow(m->sources.v[first].timestamp,
                                                     (int64_t)1000000000, &p->time_nanos)) {
        ss_fail(w->err, SS_EINPUT,
                "%s: cannot write pprof: the timestamp of %.400s, %lld s, does not fit pprof's "
                "time_nanos (at most %lld s)",
                w->path, ss_str(m, m->sources.v[first].uri),
                (long long)m->sources.v[first].timestamp, (long long)(INT64_MAX / 1000000000));
        return PP_TOO_BIG;
    }
    return 0;
}

/* The duration (the sources' sum) and the comments: a note per source,
 * then the model's comments, each once.  Returns 0 or to_int64's error. */
static int put_comments(struct writer *w, struct rest *r)
{
    const struct ss_model *m = w->m;
    double duration = 0;
    size_t nc = 0;
    /* (not for one pprof source as read: a Go profile keeps its comments;
     * but one in time order says so, for the reader to keep it) */
    int notes =
        m->sources.n > 0 && !ss_model_is_comparison(m) &&
        (m->sources.n > 1 || !is_pprof_source(m, 0) || (m->sources.v[0].flags & SS_SRC_GC) ||
         !(m->sources.v[0].flags & SS_SRC_UNORDERED));
    for (size_t s = 0, at = 1; s < m->sources.n; at += m->sources.v[s++].n_samples) {
        const struct ss_source *src = &m->sources.v[s];
        if (notes)
            r->comments[nc++] = source_note(w, (ss_id)s, at);
        if (is_pprof_source(m, (ss_id)s)) {
            const char *d = source_meta(m, (ss_id)s, "duration_nanos");
            duration += d ? strtod(d, NULL) : 0;
            continue;
        }
        double count = 0;
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++)
            count += (double)ss_sample_count(m, i);
        duration += count * src->interval_us * 1000.0;
    }
    int rc = to_int64(w, duration, "the duration in ns (the samples' count x interval)", NULL, 0,
                      &r->p.duration_nanos);
    if (rc)
        return rc;
    for (size_t i = 0; i < m->meta.n; i++) {
        /* each comment once (the sources of one file each have them), but
         * the notes of sources, made anew */
        if (strcmp(ss_str(m, m->meta.v[i].key), "comment") ||
            !strncmp(ss_str(m, m->meta.v[i].value), "stackscope: source ", 19))
            continue;
        int64_t c = out_mstr(w, m->meta.v[i].value);
        size_t k = 0;
        while (k < nc && r->comments[k] != c)
            k++;
        if (k == nc)
            r->comments[nc++] = c;
    }
    r->p.n_comment = nc;
    r->p.comment = r->comments;
    return 0;
}

/* The default sample type: the model's measure (--value), which is the
 * input's default unless one was chosen; and drop and keep frames. */
static void put_default_type(struct writer *w, struct rest *r)
{
    const struct ss_model *m = w->m;
    ss_id first = r->first;
    const char *drop = r->have_src ? source_meta(m, first, "drop_frames") : NULL;
    const char *keep = r->have_src ? source_meta(m, first, "keep_frames") : NULL;
    r->p.drop_frames = drop ? out_cstr(w, drop) : 0;
    r->p.keep_frames = keep ? out_cstr(w, keep) : 0;
    const char *dflt = NULL;
    const struct ss_measure *ms = ss_model_measure(m);
    if (ms->kind == SS_MEASURE_COLUMN)
        dflt = ss_str(m, m->value_types.v[ms->vt].type);
    else if (ms->kind == SS_MEASURE_SAMPLES)
        dflt = "samples";
    else if (ms->kind == SS_MEASURE_MEMORY && w->have_rvt)
        dflt = "alloc";
    /* a pprof profile's own default (Go's pprof: its default_sample_type,
     * else its last type) is written as it was: none when it had none */
    uint32_t own = r->have_src ? m->sources.v[first].default_column : 0;
    int as_read = r->have_src && is_pprof_source(m, first) &&
                  ((ms->kind == SS_MEASURE_COLUMN && own == ms->vt + 1) ||
                   (ms->kind == SS_MEASURE_SAMPLES && own == SS_VT_COUNT + 1));
    if (as_read || (!dflt && r->have_src))
        dflt = source_meta(m, first, "default_sample_type");
    int none = as_read && !dflt;
    uint32_t dflt_id = dflt ? out_cstr(w, dflt) : 0;
    for (size_t i = 0; i < w->vts.n && !none; i++)
        if (w->vts.v[i].kind == VT_CPU && !dflt)
            dflt_id = w->vts.v[i].type;
    r->p.default_sample_type = 0;
    for (size_t i = 0; i < w->vts.n; i++)
        if (w->vts.v[i].type == dflt_id && dflt_id)
            r->p.default_sample_type = dflt_id;
}

/* The string table, last: every string is in it now.  Then, when a file
 * has an empty name, one more empty string, the name of those files: the
 * first is "no file" (index 0), and stackscope's reader tells the two
 * apart in the files it wrote (other readers see an empty name either
 * way).  Returns 0 or -1 (out of memory). */
static int put_strings(struct writer *w, struct rest *r)
{
    size_t nstr = w->ot.n;
    r->strings = ss_alloc_array(nstr + 1, sizeof *r->strings);
    if (!r->strings)
        return -1;
    for (size_t i = 0; i < nstr; i++)
        /* protobuf-c's string_table is char **; it only reads them */
        r->strings[i] = (char *)(uintptr_t)ss_strtab_get(&w->ot, (uint32_t)i);
    if (r->n_empty) {
        r->strings[nstr] = (char *)(uintptr_t) "";
        for (size_t i = 0; i < r->n_empty; i++)
            r->fn[r->empty_file[i]].filename = (int64_t)nstr;
        nstr++;
    }
    r->p.n_string_table = nstr;
    r->p.string_table = r->strings;
    return 0;
}

/* Everything but the samples, packed as one Profile message. */
static int write_rest(struct writer *w, struct out *g)
{
    const struct ss_model *m = w->m;
    struct rest r;
    memset(&r, 0, sizeof r);
    perftools__profiles__profile__init(&r.p);
    perftools__profiles__value_type__init(&r.period_type);
    int rc = -1;
    if (rest_alloc(w, &r))
        goto out;
    put_mappings(w, &r);
    put_sample_types(w, &r);
    put_functions(w, &r);
    put_locations(w, &r);
    for (size_t s = 0; s < m->sources.n; s++)
        if (m->sources.v[s].n_samples) {
            r.first = (ss_id)s;
            break;
        }
    r.have_src = m->sources.n > 0;
    if ((rc = put_period(w, &r)) || (rc = put_comments(w, &r)))
        goto out;
    rc = -1;
    put_default_type(w, &r);
    if (w->oom || put_strings(w, &r))
        goto out;
    size_t len = perftools__profiles__profile__get_packed_size(&r.p);
    r.buf = ss_alloc_array(len, 1);
    if (!r.buf)
        goto out;
    perftools__profiles__profile__pack(&r.p, r.buf);
    out_write(g, r.buf, len);
    rc = 0;
out:
    rest_free(&r);
    return rc;
}

/* ---- samples in parts -------------------------------------------------------- */

/* A big profile (but a comparison) is encoded and compressed in parts at
 * once, each a stretch of its samples and one gzip member (the last with
 * the rest of the profile): encoding its samples was a third of convert's
 * time.  There are up to four parts a thread, taken in order, and each is
 * written as soon as it and those before it are done, while the threads
 * compress the next: so the writing, and the disk's (sync_file_range
 * starts it), are not left for the end (they were a tenth of the time).
 * A first pass fills the caches of the stacks' and label sets' bytes as
 * the one-part encoding does (the label sets in sample order: the strings
 * get their numbers in that order, so the output is the same bytes once
 * decompressed), and bounds the size; the parts only read them.  A
 * comparison's base samples that scale to nothing are left out, and so
 * are their labels: it is encoded in one part. */

/* Fill the caches; *bound: the most the samples encode to. */
static int samples_plan(struct writer *w, size_t *bound)
{
    const struct ss_model *m = w->m;
    size_t per = 1 + 10 + 1 + 10 + w->vts.n * 10;
    *bound = 0;
    if (ss_model_nlabelsets(m) <= 1) {
        /* no labels: the stacks' bytes, in any order, times their samples */
        size_t ns = ss_model_nstacks(m), n = samples_n(m);
        if (n == 0)
            return 0;
        size_t *cnt = ss_calloc_array(ns, sizeof *cnt);
        const uint8_t *b;
        size_t ids_len, lbs_len;
        if (!cnt || set_bytes(w, 0, &b, &lbs_len)) {
            free(cnt);
            return -1;
        }
        for (size_t s = 0; s < m->sources.n; s++) {
            const struct ss_source *src = &m->sources.v[s];
            for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++)
                cnt[m->sample_stack.v[i]]++;
        }
        *bound = n * (per + lbs_len);
        for (size_t st = 0; st < ns; st++) {
            if (!cnt[st])
                continue;
            if (stack_bytes(w, (ss_id)st, &b, &ids_len)) {
                free(cnt);
                return -1;
            }
            *bound += cnt[st] * ids_len;
        }
        free(cnt);
        return w->oom ? -1 : 0;
    }
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
            const uint8_t *b;
            size_t ids_len, lbs_len;
            if (stack_bytes(w, m->sample_stack.v[i], &b, &ids_len) ||
                set_bytes(w, ss_sample_labelset(m, i), &b, &lbs_len))
                return -1;
            *bound += per + ids_len + lbs_len;
        }
    }
    return w->oom ? -1 : 0;
}

struct part {
    struct writer w; /* a copy whose err is the part's: it reads the caches only */
    struct ss_error err;
    const struct enc *e;
    struct writer *rest; /* the last part: the writer that writes the rest */
    size_t lo, hi;
    int rc;
    int done;   /* encoded and compressed, or failed (under the queue's lock) */
    size_t len; /* its bytes before compression */
    uint8_t *z; /* ... and after: one gzip member */
    size_t zcap, zlen;
};

/* Buffers of written parts, for the next: fresh memory costs a page fault
 * a page (with eight parts, a tenth of the writer's time). */
#define PART_SPARES 16

/* The parts of write_parts: taken in order by its threads, and written
 * to f in order as soon as they are done, by the thread that finds the
 * next one done while no other is writing (the others go on compressing,
 * so that the output's writing and its writeback to the disk happen
 * meanwhile, not after). */
struct part_queue {
    pthread_mutex_t mu;
    struct part *pt;
    size_t parts;
    size_t next;       /* the next part to take */
    size_t written;    /* parts written */
    size_t enc_failed; /* the first part whose encoding failed, or `parts`: the
                        * parts after it are left out (encoding in one part
                        * stops there too) */
    int writing;       /* a thread is writing */
    int failed;        /* a part failed: write no more */
    int wrc;           /* 0, -2 (a write error: wrc_errno) or -3 (the whole is over
                        * SS_PPROF_MAX_BYTES: the last part is not written) */
    int wrc_errno;
    FILE *f;
    struct {
        uint8_t *b;
        size_t cap;
    } spare[PART_SPARES];
    size_t nspare;
};

/* Encode part p into g (a thread's buffer, emptied first) and compress it
 * with z.  Returns 1 when its encoding failed (p->rc), else 0. */
static int part_run(struct part *p, struct out *g, struct gz *z)
{
    g->b.n = 0;
    g->failed = 0;
    p->rc = encode_samples(&p->w, p->e, g, p->lo, p->hi);
    if (!p->rc && p->rest)
        p->rc = write_rest(p->rest, g);
    if (!p->rc && g->failed)
        p->rc = -1;
    p->len = g->b.n;
    if (p->rc)
        return 1;
    p->rc = gz_compress(z, g->b.v, g->b.n, &p->z, &p->zcap, &p->zlen);
    return 0;
}

/* Write the parts done in order from q->written on (q->mu held, and held
 * again on return; released while writing), keeping their buffers. */
static void parts_write(struct part_queue *q)
{
    if (q->writing)
        return;
    q->writing = 1;
    while (!q->failed && !q->wrc && q->written < q->parts && q->pt[q->written].done) {
        struct part *p = &q->pt[q->written];
        if (q->written + 1 == q->parts) {
            /* the last: every part is done, and the whole is known (the
             * rest of the profile was not in the plan's bound) */
            size_t total = 0;
            for (size_t k = 0; k < q->parts; k++)
                total += q->pt[k].len;
            if (total > SS_PPROF_MAX_BYTES) {
                q->wrc = -3;
                break;
            }
        }
        pthread_mutex_unlock(&q->mu);
        int bad = fwrite(p->z, 1, p->zlen, q->f) != p->zlen || fflush(q->f) != 0;
        int eno = errno;
#ifdef SYNC_FILE_RANGE_WRITE
        /* start the disk write of what is there: the caller's fsync then
         * waits for the last parts only (a pipe refuses it: no matter) */
        if (!bad)
            (void)sync_file_range(fileno(q->f), 0, 0, SYNC_FILE_RANGE_WRITE);
#endif
        pthread_mutex_lock(&q->mu);
        if (bad) {
            q->wrc = -2;
            q->wrc_errno = eno;
        }
        if (q->nspare < PART_SPARES) {
            q->spare[q->nspare].b = p->z;
            q->spare[q->nspare++].cap = p->zcap;
            p->z = NULL;
            p->zcap = 0;
        }
        q->written++;
    }
    q->writing = 0;
}

static void *parts_worker(void *arg)
{
    struct part_queue *q = arg;
    struct out g;
    struct gz z;
    memset(&g, 0, sizeof g);
    memset(&z, 0, sizeof z);
    pthread_mutex_lock(&q->mu);
    /* after a write error, or past a part whose encoding failed, the
     * parts left are not needed */
    while (q->next < q->parts && !q->wrc && q->next < q->enc_failed) {
        size_t k = q->next++;
        struct part *p = &q->pt[k];
        if (q->nspare) {
            p->z = q->spare[--q->nspare].b;
            p->zcap = q->spare[q->nspare].cap;
        }
        pthread_mutex_unlock(&q->mu);
        int enc = part_run(p, &g, &z);
        pthread_mutex_lock(&q->mu);
        p->done = 1;
        if (p->rc)
            q->failed = 1;
        if (enc && k < q->enc_failed)
            q->enc_failed = k;
        parts_write(q);
    }
    pthread_mutex_unlock(&q->mu);
    VEC_FREE(g.b);
    gz_free(&z);
    return NULL;
}

/* Encode and compress the samples of w's model in `parts` parts with
 * `threads` threads, and write them to f.  Returns 0, -1 (out of memory),
 * -2 (write error: *eno its errno), PP_TOO_BIG (w->err set) or -3 (the
 * whole over SS_PPROF_MAX_BYTES: *total).  On an error, the parts before
 * the first that failed may have been written (to a stream; a file is a
 * temporary one, removed then). */
static int write_parts(struct writer *w, const struct enc *e, FILE *f, size_t parts,
                       unsigned threads, size_t *total, int *eno)
{
    size_t n = samples_n(w->m);
    if (threads > parts)
        threads = (unsigned)parts;
    struct part_queue q;
    memset(&q, 0, sizeof q);
    q.pt = ss_calloc_array(parts, sizeof *q.pt);
    pthread_t *th = ss_calloc_array(threads, sizeof *th);
    int *started = ss_calloc_array(threads, sizeof *started);
    int rc = q.pt && th && started ? 0 : -1;
    for (size_t k = 0; !rc && k < parts; k++) {
        q.pt[k].w = *w;
        q.pt[k].w.err = &q.pt[k].err;
        ss_error_clear(&q.pt[k].err);
        q.pt[k].e = e;
        q.pt[k].rest = k + 1 == parts ? w : NULL;
        q.pt[k].lo = n / parts * k;
        q.pt[k].hi = k + 1 == parts ? n : n / parts * (k + 1);
        q.pt[k].rc = -1;
    }
    if (!rc) {
        q.parts = q.enc_failed = parts;
        q.f = f;
        gz_threads_ready();
        pthread_mutex_init(&q.mu, NULL);
        for (unsigned t = 1; t < threads; t++)
            started[t] = pthread_create(&th[t], NULL, parts_worker, &q) == 0;
        parts_worker(&q); /* this thread too; the parts of a thread that did not start */
        for (unsigned t = 1; t < threads; t++)
            if (started[t])
                pthread_join(th[t], NULL);
        pthread_mutex_destroy(&q.mu);
    }
    /* the first part whose value does not fit says so, as encoding in order
     * would before compressing anything (a failure of the rest is in w->err
     * already); else the first that failed, else a write's failure (the
     * parts left out after either were not done) */
    for (size_t k = 0; !rc && k < parts; k++)
        if (q.pt[k].done && q.pt[k].rc == PP_TOO_BIG) {
            rc = PP_TOO_BIG;
            if (q.pt[k].err.code)
                *w->err = q.pt[k].err;
        }
    for (size_t k = 0; !rc && k < parts; k++)
        if (q.pt[k].done)
            rc = q.pt[k].rc;
    if (!rc)
        rc = q.wrc;
    if (!rc && q.written != parts)
        rc = -1; /* cannot happen: a part left out follows a failure */
    if (rc == -2)
        *eno = q.wrc_errno;
    *total = 0;
    for (size_t k = 0; q.pt && k < parts; k++)
        *total += q.pt[k].len;
    for (size_t k = 0; q.pt && k < parts; k++)
        free(q.pt[k].z);
    for (size_t k = 0; k < q.nspare; k++)
        free(q.spare[k].b);
    free(q.pt);
    free(th);
    free(started);
    return rc;
}

/* The bytes a part has at least: GZ_PART_MIN, or STACKSCOPE_PPROF_PART (for
 * tests: many parts of a small profile). */
static size_t part_min(void)
{
    const char *e = getenv("STACKSCOPE_PPROF_PART");
    if (e && *e) {
        char *end;
        unsigned long long v = strtoull(e, &end, 10);
        if (!*end && v)
            return (size_t)v;
    }
    return GZ_PART_MIN;
}

/* How many parts to encode in: one for a comparison or a small profile,
 * else one per part_min() bytes, between 2 and four a thread (more parts
 * than threads: the first are written while the last are compressed), and
 * one with one thread. */
static size_t plan_parts(struct writer *w, unsigned threads)
{
    size_t bound;
    if (threads < 2 || ss_model_is_comparison(w->m) || samples_plan(w, &bound) ||
        bound > SS_PPROF_MAX_BYTES)
        return 1;
    size_t parts = bound / part_min(), most = 4 * (size_t)threads;
    return parts < 2 ? 1 : parts > most ? most : parts;
}

int ss_write_pprof(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    struct writer w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.path = path;
    w.err = err;
    ss_strtab_init(&w.ot);
    int rc = 0;
    struct out g;
    memset(&g, 0, sizeof g);
    struct enc e;
    memset(&e, 0, sizeof e);
    w.str_out = ss_alloc_array(m->strs.n, sizeof *w.str_out);
    if (!w.str_out || out_str(&w, "", 0) != 0 || w.oom) {
        rc = ss_nomem(err, "pprof output");
        goto out;
    }
    memset(w.str_out, 0xff, m->strs.n * sizeof *w.str_out);
    if (plan_value_types(&w) || plan_locations(&w) || samples_setup(&w, &e)) {
        rc = ss_nomem(err, "pprof output");
        goto out;
    }
    unsigned threads = ss_threads(GZ_MAX_PARTS);
    size_t parts = plan_parts(&w, threads), total = 0;
    int wr, eno = 0;
    if (parts > 1) {
        wr = write_parts(&w, &e, f, parts, threads, &total, &eno);
    } else {
        wr = encode_samples(&w, &e, &g, 0, samples_n(m));
        if (!wr)
            wr = write_rest(&w, &g);
        if (!wr && g.failed)
            wr = -1;
        total = g.b.n;
        if (!wr && total > SS_PPROF_MAX_BYTES)
            wr = -3;
    }
    if (wr == PP_TOO_BIG) {
        rc = err->code;
        goto out;
    }
    if (wr == -3) { /* every file we write, we read back */
        rc = ss_fail(err, SS_EUSAGE,
                     "%s: the profile would be %zu MiB before compression, over the %zu MiB "
                     "pprof readers here take (trim it first, e.g. -e 'keep-samples 1:N')",
                     path, total >> 20, SS_PPROF_MAX_BYTES >> 20);
        goto out;
    }
    if (wr == -2) {
        rc = ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(eno));
        goto out;
    }
    if (wr) {
        rc = ss_nomem(err, "pprof output");
        goto out;
    }
    if (parts > 1)
        goto out; /* written */
    int zr = gz_out(g.b.v, g.b.n, f, &eno);
    if (zr == -1)
        rc = ss_nomem(err, "gzip output");
    else if (zr)
        rc = ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(eno));
out:
    free(e.ratio);
    VEC_FREE(g.b);
    ss_strtab_free(&w.ot);
    free(w.str_out);
    VEC_FREE(w.vts);
    free(w.loc_out);
    VEC_FREE(w.olocs);
    VEC_FREE(w.grp);
    VEC_FREE(w.grp_fn);
    ss_idset_free(&w.grp_index);
    free(w.st_off);
    VEC_FREE(w.st_ids);
    VEC_FREE(w.fn_model);
    VEC_FREE(w.fn_file);
    VEC_FREE(w.fn_native);
    free(w.stack_at);
    free(w.stack_len);
    free(w.set_at);
    free(w.set_len);
    VEC_FREE(w.lbytes);
    VEC_FREE(w.sbytes);
    return rc;
}
