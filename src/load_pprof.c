/* load_pprof.c - pprof reader (see load_pprof.h).
 *
 * The whole (decompressed) file is held in memory.  The top-level Profile
 * message is walked here, field by field, so that every error has a byte
 * offset and samples can be read one at a time; each nested message
 * (ValueType, Sample, Mapping, Location, Function) is unpacked by the
 * protobuf-c code generated from proto/profile.proto, into an arena that is
 * reset after each message: no malloc per sample, and memory does not grow
 * with the number of samples beyond the model itself.  A sample in the form
 * writers give it is decoded in place instead (quick_sample).
 *
 * Gzip data are inflated in one pass, a member a thread, where the members'
 * trailers say their sizes truly (ss_pprof_inflate_members); else by zlib,
 * streaming, within a budget (gunzip).
 *
 * Two passes: the first collects the string table, functions, locations and
 * sample types (which a file may write after its samples; Go writes them
 * after), checks every id and string index and builds the model's
 * functions and locations; the second adds the samples in file order (a
 * big profile's decoded in parts on threads, added in order:
 * pass_two_parts).
 */
#include "load_pprof.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#define ZLIB_CONST /* z_stream.next_in is const: zlib never writes the input */
#include <zlib.h>
#include <pthread.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "hash.h"
#include "hashtab.h"
#include "loader.h"
#include "match.h"
#include "num.h"
#include "profile.pb-c.h"
#include "threads.h"
#include "vec.h"

#define PP_MAX_FRAMES 1000000      /* frames of one sample after inlining */
#define PP_MAX_MESSAGE (64u << 20) /* bytes of one nested message */
#define PP_MAX_STRING (1u << 24)   /* bytes of one string */
#define PP_MAX_COMMENTS 1000000    /* comments of a profile */
#define PART_MARK 4096             /* pass one notes every PART_MARK-th sample's offset */

/* ---- arena allocator for protobuf-c ---------------------------------- */

struct chunk {
    struct chunk *next;
    size_t size;
    /* data follows, 16-byte aligned */
};
#define CHUNK_HDR ((sizeof(struct chunk) + 15) & ~(size_t)15)
#define CHUNK_SIZE ((size_t)64 << 10)

struct arena {
    struct chunk *first; /* kept across resets */
    struct chunk *extra; /* bigger requests; freed on reset */
    size_t used;         /* bytes used in first */
    int failed;          /* an allocation failed (out of memory) */
};

static void *arena_alloc(void *data, size_t size)
{
    struct arena *a = data;
    size = (size + 15) & ~(size_t)15;
    if (!a->first) {
        a->first = malloc(CHUNK_HDR + CHUNK_SIZE);
        if (!a->first) {
            a->failed = 1;
            return NULL;
        }
        a->first->next = NULL;
        a->first->size = CHUNK_SIZE;
        a->used = 0;
    }
    if (size <= a->first->size - a->used) {
        void *p = (unsigned char *)a->first + CHUNK_HDR + a->used;
        a->used += size;
        return p;
    }
    struct chunk *c = size < SIZE_MAX - CHUNK_HDR ? malloc(CHUNK_HDR + size) : NULL;
    if (!c) {
        a->failed = 1;
        return NULL;
    }
    c->size = size;
    c->next = a->extra;
    a->extra = c;
    return (unsigned char *)c + CHUNK_HDR;
}

static void arena_free_one(void *data, void *p)
{
    (void)data, (void)p; /* everything goes at the next reset */
}

static void arena_reset(struct arena *a)
{
    while (a->extra) {
        struct chunk *c = a->extra;
        a->extra = c->next;
        free(c);
    }
    a->used = 0;
}

static void arena_free(struct arena *a)
{
    arena_reset(a);
    free(a->first);
    a->first = NULL;
}

/* ---- u64 id -> index map ------------------------------------------------- */

/* Dense ids (the usual 1..n) index an array directly; others go through an
 * ss_u64map (hashtab.h). */
struct idmap {
    uint32_t *direct; /* direct[id] = index + 1, 0 = absent */
    uint64_t ndirect;
    struct ss_u64map hashed; /* when direct is NULL */
};

static int idmap_init(struct idmap *im, uint64_t max_id, size_t n)
{
    memset(im, 0, sizeof *im);
    if (max_id <= (uint64_t)n * 4 + 1024) {
        im->ndirect = max_id + 1;
        im->direct = ss_calloc_array((size_t)im->ndirect, sizeof *im->direct);
        return im->direct ? 0 : -1;
    }
    return ss_u64map_reserve(&im->hashed, n);
}

static void idmap_free(struct idmap *im)
{
    free(im->direct);
    ss_u64map_free(&im->hashed);
    memset(im, 0, sizeof *im);
}

/* The index of id, or SS_NONE. */
static inline uint32_t idmap_get(const struct idmap *im, uint64_t id)
{
    if (im->direct)
        return id < im->ndirect && im->direct[id] ? im->direct[id] - 1 : SS_NONE;
    return ss_u64map_get(&im->hashed, id);
}

/* Store id -> idx (a new index); returns 0, or 1 when id is already there,
 * or -1 when memory runs out (not after idmap_init for n ids: they fit). */
static int idmap_put(struct idmap *im, uint64_t id, uint32_t idx)
{
    if (im->direct) {
        if (im->direct[id])
            return 1;
        im->direct[id] = idx + 1;
        return 0;
    }
    uint32_t got = ss_u64map_intern(&im->hashed, id, idx);
    return got == SS_NONE ? -1 : got != idx;
}

/* ---- wire format --------------------------------------------------------- */

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_I32 = 5 };

/* Read a varint at buf[*pos..len).  Returns 0 or -1 (truncated, too long). */
static inline int get_varint(const uint8_t *buf, size_t len, size_t *pos, uint64_t *out)
{
    uint64_t v = 0;
    size_t i = *pos;
    for (int shift = 0; shift < 70; shift += 7) {
        if (i >= len)
            return -1;
        uint8_t b = buf[i++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *pos = i;
            *out = v;
            return 0;
        }
    }
    return -1;
}

/* One top-level field. */
struct field {
    uint32_t num;
    int wt;
    size_t off;          /* byte offset of the tag */
    uint64_t v;          /* varint / fixed value */
    const uint8_t *data; /* WT_LEN payload */
    size_t len;
};

/* Read the field at *pos.  Returns 0, or -1 with *why set. */
static int next_field(const uint8_t *buf, size_t len, size_t *pos, struct field *f,
                      const char **why)
{
    uint64_t tag;
    f->off = *pos;
    if (get_varint(buf, len, pos, &tag)) {
        *why = "truncated or overlong field tag";
        return -1;
    }
    f->num = (uint32_t)(tag >> 3);
    f->wt = (int)(tag & 7);
    if (tag >> 3 == 0 || tag >> 3 > 536870911) {
        *why = "invalid field number";
        return -1;
    }
    switch (f->wt) {
    case WT_VARINT:
        if (get_varint(buf, len, pos, &f->v)) {
            *why = "truncated or overlong varint";
            return -1;
        }
        return 0;
    case WT_I64:
    case WT_I32: {
        size_t k = f->wt == WT_I64 ? 8 : 4;
        if (len - *pos < k) {
            *why = "truncated fixed-size value";
            return -1;
        }
        f->v = 0;
        for (size_t i = 0; i < k; i++)
            f->v |= (uint64_t)buf[*pos + i] << (8 * i);
        *pos += k;
        return 0;
    }
    case WT_LEN: {
        uint64_t n;
        if (get_varint(buf, len, pos, &n)) {
            *why = "truncated length";
            return -1;
        }
        if (n > len - *pos) {
            *why = "declared length runs past the end of the data";
            return -1;
        }
        f->data = buf + *pos;
        f->len = (size_t)n;
        *pos += (size_t)n;
        return 0;
    }
    default:
        *why = "unsupported wire type (groups are not used by profile.proto)";
        return -1;
    }
}

/* Expected wire type of a Profile field, or -1 for an unknown field. */
static int profile_wt(uint32_t num)
{
    switch (num) {
    case 1:
    case 2:
    case 3:
    case 4:
    case 5:
    case 6:
    case 11:
        return WT_LEN;
    case 7:
    case 8:
    case 9:
    case 10:
    case 12:
    case 14:
        return WT_VARINT;
    case 13:
        return WT_VARINT; /* or packed (WT_LEN) */
    default:
        return -1;
    }
}

static const char *const field_names[] = {
    "",
    "sample_type",
    "sample",
    "mapping",
    "location",
    "function",
    "string_table",
    "drop_frames",
    "keep_frames",
    "time_nanos",
    "duration_nanos",
    "period_type",
    "period",
    "comment",
    "default_sample_type",
};

/* ---- sample memo ---------------------------------------------------------- */

/* Profiles that keep one sample per event (stackscope's own, the R profile
 * package's) repeat the same sample bytes over and over: the memo maps the
 * bytes of a Sample message to what they gave (stack, values, labels), so each
 * distinct message is unpacked once.  Every hit is verified byte by byte.
 * It turns itself off when samples rarely repeat (values that change with
 * every sample, as memory counters do). */
#define MEMO_MAX_BYTES (64u << 20)

/* One remembered message; the messages are ids in an ss_idset (hashtab.h)
 * keyed by ss_hash of their bytes. */
struct memo_slot {
    size_t off; /* message bytes in memo.bytes */
    uint32_t len;
    ss_id stack;
    ss_id labels;   /* the label set */
    size_t vals;    /* first of nmodel values in memo.vals */
    uint32_t flags; /* MEMO_MISMATCH */
};
enum { MEMO_MISMATCH = 2 };

struct memo {
    struct ss_idset index;
    VEC(struct memo_slot) msg;
    VEC(uint8_t) bytes;
    VEC(int64_t) vals;
    uint64_t hits, misses;
    int off;
};

static void memo_free(struct memo *mo)
{
    ss_idset_free(&mo->index);
    VEC_FREE(mo->msg);
    VEC_FREE(mo->bytes);
    VEC_FREE(mo->vals);
    memset(mo, 0, sizeof *mo);
}

struct memo_key {
    const uint8_t *b;
    size_t len;
};

static int memo_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct memo *mo = ctx;
    const struct memo_key *k = key;
    const struct memo_slot *sl = &mo->msg.v[id];
    return sl->len == k->len && memcmp(mo->bytes.v + sl->off, k->b, k->len) == 0;
}

/* The message equal to these bytes, or NULL. */
static const struct memo_slot *memo_find(const struct memo *mo, const uint8_t *b, size_t len,
                                         uint64_t h)
{
    struct memo_key k = {b, len};
    size_t pos;
    uint32_t id = ss_idset_find(&mo->index, h, memo_eq, mo, &k, &pos);
    return id == SS_NONE ? NULL : &mo->msg.v[id];
}

/* Remember bytes -> (stack, labels, vals, flags) (not remembered yet); does
 * nothing when full or short of memory (the memo only saves time). */
static void memo_put(struct memo *mo, const uint8_t *b, size_t len, uint64_t h, ss_id stack,
                     ss_id labels, const int64_t *vals, size_t nvals, uint32_t flags)
{
    if (mo->bytes.n + len > MEMO_MAX_BYTES)
        return;
    if (ss_idset_reserve(&mo->index, 1) || VEC_RESERVE(mo->msg, mo->msg.n + 1) ||
        VEC_RESERVE(mo->bytes, mo->bytes.n + len) || VEC_RESERVE(mo->vals, mo->vals.n + nvals))
        return;
    struct memo_key k = {b, len};
    size_t pos;
    if (ss_idset_find(&mo->index, h, memo_eq, mo, &k, &pos) != SS_NONE)
        return;
    struct memo_slot sl = {mo->bytes.n, (uint32_t)len, stack, labels, mo->vals.n, flags};
    mo->msg.v[mo->msg.n] = sl;
    ss_idset_insert(&mo->index, pos, h, (uint32_t)mo->msg.n++);
    memcpy(mo->bytes.v + mo->bytes.n, b, len);
    mo->bytes.n += len;
    memcpy(mo->vals.v + mo->vals.n, vals, nvals * sizeof *vals);
    mo->vals.n += nvals;
}

/* Samples that are each their own message (their values change with every
 * sample, as memory counters do) still repeat their stacks: a sample's
 * stack is a function of its location ids alone (their frames, then
 * drop_frames), so the stacks memo maps the packed bytes of the ids
 * (quick_sample) to the stack they made, verified byte by byte as the
 * memo's.  Like the memo, it turns itself off when stacks rarely repeat. */
struct smemo_ent {
    size_t off; /* the ids' bytes in smemo.bytes */
    uint32_t len;
    uint32_t nloc; /* how many ids */
    ss_id stack;
};

struct smemo {
    struct ss_idset index;
    VEC(struct smemo_ent) e;
    VEC(uint8_t) bytes;
    uint64_t hits, misses;
    int off;
};

static void smemo_free(struct smemo *sm)
{
    ss_idset_free(&sm->index);
    VEC_FREE(sm->e);
    VEC_FREE(sm->bytes);
}

static int smemo_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct smemo *sm = ctx;
    const struct memo_key *k = key;
    const struct smemo_ent *e = &sm->e.v[id];
    return e->len == k->len && memcmp(sm->bytes.v + e->off, k->b, k->len) == 0;
}

/* The entry for ids b[0..len) (hash h), or NULL; *pos where to put it
 * (smemo_put), SIZE_MAX when there is no room. */
static const struct smemo_ent *smemo_find(struct smemo *sm, const uint8_t *b, size_t len,
                                          uint64_t h, size_t *pos)
{
    struct memo_key k = {b, len};
    if (ss_idset_reserve(&sm->index, 1)) {
        *pos = SIZE_MAX;
        return NULL;
    }
    uint32_t id = ss_idset_find(&sm->index, h, smemo_eq, sm, &k, pos);
    return id == SS_NONE ? NULL : &sm->e.v[id];
}

/* Remember b[0..len) -> stack at pos (from smemo_find, the set unchanged
 * since); does nothing when full or short of memory. */
static void smemo_put(struct smemo *sm, size_t pos, const uint8_t *b, size_t len, uint64_t h,
                      size_t nloc, ss_id stack)
{
    if (pos == SIZE_MAX || sm->bytes.n + len > MEMO_MAX_BYTES || nloc > UINT32_MAX ||
        VEC_RESERVE(sm->e, sm->e.n + 1) || VEC_RESERVE(sm->bytes, sm->bytes.n + len + 1))
        return; /* (room for one more byte: never a null array, even for no ids) */
    struct smemo_ent e = {sm->bytes.n, (uint32_t)len, (uint32_t)nloc, stack};
    sm->e.v[sm->e.n] = e;
    ss_idset_insert(&sm->index, pos, h, (uint32_t)sm->e.n++);
    memcpy(sm->bytes.v + sm->bytes.n, b, len);
    sm->bytes.n += len;
}

/* ---- the loader ------------------------------------------------------------ */

struct pp_str {
    const char *s;
    uint32_t len;
};

struct pp_func {
    uint64_t id;
    int64_t name, system_name, filename, start_line;
    size_t off; /* of the message, for errors */
};

struct pp_loc {
    uint64_t id;
    uint64_t address;
    uint64_t mapping_id;
    uint32_t first, n; /* lines[first .. first + n) while reading, then model locations */
    size_t off;
};

struct pp_map {
    uint64_t id;
    uint64_t start, limit, offset;
    int64_t filename, build_id;
    uint32_t flags; /* SS_MAP_* */
    size_t off;
};

struct pp_line {
    uint64_t function_id;
    int64_t line;
};

/* One source of a profile stackscope wrote (see restore_plan). */
struct restore {
    uint32_t session;
    uint32_t flags; /* SS_SRC_GC, SS_SRC_LINE, SS_SRC_MEMORY, SS_SRC_UNORDERED */
    double interval_us;
    uint64_t first, count; /* its samples: positions first .. first + count - 1 */
};

struct loader {
    int no_drop_frames; /* the load's options: drop_frames not applied */
    struct ss_model *m;
    const char *path;
    struct ss_error *err;
    const uint8_t *buf;
    size_t len;
    int gz;        /* offsets refer to decompressed data */
    int base_side; /* reading a difference profile's base samples (pass_two) */
    struct arena arena;
    ProtobufCAllocator alloc;

    VEC(struct pp_str) strs;
    ss_id *str_ids; /* string index -> interned id, SS_NONE until used */
    VEC(struct pp_func) funcs;
    VEC(struct pp_loc) locs;
    VEC(struct pp_line) lines;
    VEC(int64_t) vt_type; /* sample types: type and unit string indexes */
    VEC(int64_t) vt_unit;
    VEC(int64_t) comments;
    VEC(struct pp_map) maps;
    int64_t drop_frames, keep_frames, time_nanos, duration_nanos, default_type;
    int64_t period; /* the file's; a restored source's own while its samples are read */
    int64_t period_type, period_unit;
    size_t n_samples;

    struct idmap fn_map, loc_map, map_map;
    ss_id *map_model;      /* mapping index -> model mapping */
    uint8_t *prune;        /* location index -> PRUNE_* (drop_frames), or NULL */
    ss_id *fn_model;       /* function index -> model function */
    VEC(ss_id) loc_frames; /* model locations of every location, innermost first */
    VEC(uint32_t) line_fn; /* per loc_frames entry: its function index, SS_NONE without */
    VEC(uint32_t) lidx;    /* scratch: one sample's location indexes */
    VEC(ss_id) frames;     /* scratch: one sample's frames */
    VEC(ss_id) labs;       /* scratch: one sample's labels */
    VEC(size_t) marks;     /* the offset of every PART_MARK-th sample (pass one) */
    VEC(uint64_t) q_loc;   /* scratch: one sample's location ids (quick_sample) */
    VEC(int64_t) q_val;    /* ... and values */
    struct memo memo;
    struct smemo smemo;
    int64_t *vals;

    /* The sources stackscope's writer wrote into one profile (its
     * "stackscope: source K of N" comments), restored: each its session,
     * interval and flags, over its samples (restore_plan). */
    VEC(struct restore) rs;
    size_t rs_next;               /* the next to start */
    uint64_t rs_at;               /* ... at this sample (1-based) */
    const struct ss_source *tmpl; /* the source as the file has it */
};

#define NO_OFF ((size_t)-1) /* an error that has no single place */

static const char *where(const struct loader *L)
{
    return L->gz ? " of the decompressed data" : "";
}

static int bad(struct loader *L, size_t off, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int bad(struct loader *L, size_t off, const char *fmt, ...)
{
    char what[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (off == NO_OFF)
        return ss_fail(L->err, SS_EINPUT, "%s: %s", L->path, what);
    return ss_fail(L->err, SS_EINPUT, "%s: byte %zu%s: %s", L->path, off, where(L), what);
}

static int nomem(struct loader *L, const char *what)
{
    return ss_fail(L->err, SS_ENOMEM, "%s: out of memory (%s)", L->path, what);
}

/* Check a string index; returns 0 or an error naming `what`. */
static int check_str(struct loader *L, int64_t idx, size_t off, const char *what)
{
    if (idx < 0 || (uint64_t)idx >= L->strs.n)
        return bad(L, off,
                   "%s: string index %" PRId64 " out of range (the string table has %zu entries)",
                   what, idx, L->strs.n);
    return 0;
}

/* The interned id of string idx (checked already). */
static ss_id str_id(struct loader *L, int64_t idx)
{
    ss_id *slot = &L->str_ids[idx];
    if (*slot == SS_NONE)
        *slot = ss_model_intern(L->m, L->strs.v[idx].s, L->strs.v[idx].len);
    return *slot;
}

static const char *str_at(const struct loader *L, int64_t idx)
{
    return L->strs.v[idx].s; /* not NUL-terminated: use with the length */
}

static int str_eq(const struct loader *L, int64_t idx, const char *s)
{
    size_t n = strlen(s);
    return L->strs.v[idx].len == n && memcmp(str_at(L, idx), s, n) == 0;
}

/* Unpack a nested message with protobuf-c into the (reset) arena. */
#define UNPACK(L, kind, f)                                                                         \
    (arena_reset(&(L)->arena),                                                                     \
     perftools__profiles__##kind##__unpack(&(L)->alloc, (f)->len, (f)->data))

static int unpack_failed(struct loader *L, const struct field *f)
{
    if (L->arena.failed)
        return nomem(L, "pprof message");
    return bad(L, f->off, "malformed %s message (%zu bytes)", field_names[f->num], f->len);
}

/* Pass 1's messages and lists, one field f each; 0 or an error. */
static int one_mapping(struct loader *L, const struct field *f)
{
    Perftools__Profiles__Mapping *mp = UNPACK(L, mapping, f);
    if (!mp)
        return unpack_failed(L, f);
    if (mp->id == 0)
        return bad(L, f->off, "mapping with the reserved id 0");
    uint32_t fl = (mp->has_functions ? SS_MAP_FUNCTIONS : 0) |
                  (mp->has_filenames ? SS_MAP_FILENAMES : 0) |
                  (mp->has_line_numbers ? SS_MAP_LINE_NUMBERS : 0) |
                  (mp->has_inline_frames ? SS_MAP_INLINE_FRAMES : 0);
    struct pp_map pm = {
        mp->id, mp->memory_start, mp->memory_limit, mp->file_offset, mp->filename, mp->build_id, fl,
        f->off};
    return VEC_PUSH(L->maps, pm) ? nomem(L, "mappings") : 0;
}

static int one_location(struct loader *L, const struct field *f)
{
    Perftools__Profiles__Location *lo = UNPACK(L, location, f);
    if (!lo)
        return unpack_failed(L, f);
    struct pp_loc pl = {
        lo->id, lo->address, lo->mapping_id, (uint32_t)L->lines.n, (uint32_t)lo->n_line, f->off};
    if (lo->n_line > PP_MAX_FRAMES || L->lines.n + lo->n_line > UINT32_MAX)
        return bad(L, f->off, "location id %" PRIu64 " has %zu lines (too many)", lo->id,
                   lo->n_line);
    if (VEC_RESERVE(L->lines, L->lines.n + lo->n_line) || VEC_PUSH(L->locs, pl))
        return nomem(L, "locations");
    for (size_t i = 0; i < lo->n_line; i++) {
        struct pp_line ln = {lo->line[i]->function_id, lo->line[i]->line};
        L->lines.v[L->lines.n++] = ln;
    }
    return 0;
}

static int one_function(struct loader *L, const struct field *f)
{
    Perftools__Profiles__Function *fn = UNPACK(L, function, f);
    if (!fn)
        return unpack_failed(L, f);
    struct pp_func pf = {fn->id, fn->name, fn->system_name, fn->filename, fn->start_line, f->off};
    return VEC_PUSH(L->funcs, pf) ? nomem(L, "functions") : 0;
}

static int one_string(struct loader *L, const struct field *f)
{
    if (f->len > PP_MAX_STRING)
        return bad(L, f->off, "string %zu is %zu bytes long (more than the limit of %u)", L->strs.n,
                   f->len, PP_MAX_STRING);
    if (memchr(f->data, '\0', f->len))
        return bad(L, f->off, "string %zu contains a NUL byte (not supported)", L->strs.n);
    struct pp_str s = {(const char *)f->data, (uint32_t)f->len};
    if (L->strs.n >= UINT32_MAX - 1 || VEC_PUSH(L->strs, s))
        return nomem(L, "string table");
    return 0;
}

static int one_comment(struct loader *L, const struct field *f, int64_t c)
{
    if (L->comments.n >= PP_MAX_COMMENTS)
        return bad(L, f->off, "more than %d comments", PP_MAX_COMMENTS);
    return VEC_PUSH(L->comments, c) ? nomem(L, "comments") : 0;
}

/* comments: one varint, or a packed list */
static int comments(struct loader *L, const struct field *f)
{
    if (f->wt == WT_VARINT)
        return one_comment(L, f, (int64_t)f->v);
    size_t q = 0;
    int rc = 0;
    while (!rc && q < f->len) {
        uint64_t c;
        if (get_varint(f->data, f->len, &q, &c))
            return bad(L, f->off, "malformed packed comment list");
        rc = one_comment(L, f, (int64_t)c);
    }
    return rc;
}

/* A ValueType message: sample_type (pushed) or period_type. */
static int value_type(struct loader *L, const struct field *f)
{
    Perftools__Profiles__ValueType *vt = UNPACK(L, value_type, f);
    if (!vt)
        return unpack_failed(L, f);
    if (f->num == 11) {
        L->period_type = vt->type;
        L->period_unit = vt->unit;
        return 0;
    }
    if (VEC_PUSH(L->vt_type, vt->type) || VEC_PUSH(L->vt_unit, vt->unit))
        return nomem(L, "sample types");
    return 0;
}

/* Pass 1: everything but the samples. */
static int pass_one(struct loader *L)
{
    size_t pos = 0;
    int rc = 0;
    while (!rc && pos < L->len) {
        struct field f;
        const char *why;
        if (next_field(L->buf, L->len, &pos, &f, &why))
            return bad(L, f.off, "%s (not a pprof profile, or a damaged one)", why);
        int want = profile_wt(f.num);
        if (want < 0)
            continue; /* unknown field: skipped, as protobuf readers do */
        if (f.wt != want && !(f.num == 13 && f.wt == WT_LEN))
            return bad(L, f.off, "field %u (%s) has wire type %d, expected %d", f.num,
                       field_names[f.num], f.wt, want);
        if (f.wt == WT_LEN && f.num != 6 && f.len > PP_MAX_MESSAGE)
            return bad(L, f.off, "a %s message of %zu bytes (more than the limit of %u)",
                       field_names[f.num], f.len, PP_MAX_MESSAGE);
        int64_t v = (int64_t)f.v;
        switch (f.num) {
        case 1:
        case 11:
            rc = value_type(L, &f);
            break;
        case 2:
            if (L->n_samples++ % PART_MARK == 0 && VEC_PUSH(L->marks, f.off))
                rc = nomem(L, "samples");
            break;
        case 3:
            rc = one_mapping(L, &f);
            break;
        case 4:
            rc = one_location(L, &f);
            break;
        case 5:
            rc = one_function(L, &f);
            break;
        case 6:
            rc = one_string(L, &f);
            break;
        case 7:
            L->drop_frames = v;
            break;
        case 8:
            L->keep_frames = v;
            break;
        case 9:
            L->time_nanos = v;
            break;
        case 10:
            L->duration_nanos = v;
            break;
        case 12:
            L->period = v;
            break;
        case 13:
            rc = comments(L, &f);
            break;
        case 14:
            L->default_type = v;
            break;
        }
    }
    return rc;
}

/* Units of time and their length in microseconds. */
static double time_unit_us(const struct loader *L, int64_t unit)
{
    static const struct {
        const char *name;
        double us;
    } units[] = {
        {"nanoseconds", 1e-3}, {"nanosecond", 1e-3}, {"ns", 1e-3},
        {"microseconds", 1},   {"microsecond", 1},   {"us", 1},
        {"milliseconds", 1e3}, {"millisecond", 1e3}, {"ms", 1e3},
        {"seconds", 1e6},      {"second", 1e6},      {"s", 1e6},
        {"minutes", 6e7},      {"minute", 6e7},      {"hours", 3.6e9},
        {"hour", 3.6e9},
    };
    for (size_t i = 0; i < ARRAY_SIZE(units); i++)
        if (str_eq(L, unit, units[i].name))
            return units[i].us;
    return 0;
}

/* Check string indexes of the header fields and the string table itself. */
static int check_header(struct loader *L)
{
    if (L->strs.n == 0)
        return bad(L, NO_OFF, "no string table (every pprof profile has one, starting with \"\")");
    if (L->strs.v[0].len != 0)
        return bad(L, NO_OFF, "the first entry of the string table is not empty");
    char what[64];
    for (size_t i = 0; i < L->vt_type.n; i++) {
        snprintf(what, sizeof what, "sample_type %zu: type", i + 1);
        if (check_str(L, L->vt_type.v[i], NO_OFF, what))
            return L->err->code;
        snprintf(what, sizeof what, "sample_type %zu: unit", i + 1);
        if (check_str(L, L->vt_unit.v[i], NO_OFF, what))
            return L->err->code;
    }
    for (size_t i = 0; i < L->comments.n; i++) {
        snprintf(what, sizeof what, "comment %zu", i + 1);
        if (check_str(L, L->comments.v[i], NO_OFF, what))
            return L->err->code;
    }
    if (check_str(L, L->drop_frames, NO_OFF, "drop_frames") ||
        check_str(L, L->keep_frames, NO_OFF, "keep_frames") ||
        check_str(L, L->default_type, NO_OFF, "default_sample_type") ||
        check_str(L, L->period_type, NO_OFF, "period_type: type") ||
        check_str(L, L->period_unit, NO_OFF, "period_type: unit"))
        return L->err->code;
    if (L->n_samples && L->vt_type.n == 0)
        return bad(L, NO_OFF, "%zu sample%s but no sample types", L->n_samples, ss_s(L->n_samples));
    return 0;
}

static uint64_t max_id_funcs(const struct loader *L)
{
    uint64_t mx = 0;
    for (size_t i = 0; i < L->funcs.n; i++)
        if (L->funcs.v[i].id > mx)
            mx = L->funcs.v[i].id;
    return mx;
}

static uint64_t max_id_locs(const struct loader *L)
{
    uint64_t mx = 0;
    for (size_t i = 0; i < L->locs.n; i++)
        if (L->locs.v[i].id > mx)
            mx = L->locs.v[i].id;
    return mx;
}

/* Mappings: into the model (the locations point at them), their ids and
 * strings checked; pprof refuses duplicate ids: so do we. */
static int check_mappings(struct loader *L)
{
    uint64_t mx = 0;
    for (size_t i = 0; i < L->maps.n; i++)
        if (L->maps.v[i].id > mx)
            mx = L->maps.v[i].id;
    struct idmap *mm = &L->map_map;
    L->map_model = ss_alloc_array(L->maps.n ? L->maps.n : 1, sizeof *L->map_model);
    if (!L->map_model || idmap_init(mm, mx, L->maps.n))
        return nomem(L, "mappings");
    int rc = 0;
    for (size_t i = 0; i < L->maps.n && !rc; i++) {
        const struct pp_map *mp = &L->maps.v[i];
        if (idmap_put(mm, mp->id, (uint32_t)i))
            rc = bad(L, mp->off, "two mappings with id %" PRIu64, mp->id);
        else if (check_str(L, mp->filename, mp->off, "mapping: filename") ||
                 check_str(L, mp->build_id, mp->off, "mapping: build_id"))
            rc = L->err->code;
        if (rc)
            break;
        struct ss_mapping sm = {mp->start, mp->limit, mp->offset, SS_NONE, SS_NONE, mp->flags};
        if (L->strs.v[mp->filename].len && (sm.file = str_id(L, mp->filename)) == SS_NONE)
            return nomem(L, "mappings");
        if (L->strs.v[mp->build_id].len && (sm.build_id = str_id(L, mp->build_id)) == SS_NONE)
            return nomem(L, "mappings");
        if ((L->map_model[i] = ss_model_mapping(L->m, &sm)) == SS_NONE)
            return nomem(L, "mappings");
    }
    return rc;
}

/* The model mapping of location lo, or SS_NONE. */
static ss_id loc_mapping(const struct loader *L, const struct pp_loc *lo)
{
    uint32_t mi = lo->mapping_id ? idmap_get(&L->map_map, lo->mapping_id) : SS_NONE;
    return mi == SS_NONE ? SS_NONE : L->map_model[mi];
}

/* The name pprof shows for a frame without a function name: its binary,
 * "[libc.so.6]", or "<unknown>" (as a string id, SS_NONE when out of
 * memory). */
static ss_id binary_name(struct loader *L, const struct pp_loc *lo)
{
    char buf[300];
    const char *name = "<unknown>";
    uint32_t mi = lo->mapping_id ? idmap_get(&L->map_map, lo->mapping_id) : SS_NONE;
    if (mi != SS_NONE && L->strs.v[L->maps.v[mi].filename].len) {
        const struct pp_str *fs = &L->strs.v[L->maps.v[mi].filename];
        size_t b = fs->len;
        while (b > 0 && fs->s[b - 1] != '/')
            b--;
        snprintf(buf, sizeof buf, "[%.*s]", (int)((fs->len - b) & 255), fs->s + b);
        name = buf;
    }
    return ss_model_intern_cstr(L->m, name);
}

/* Does a function name a file (string idx)?  Index 0 is "no file"; an
 * empty string at another index, the last of the table, is a file whose
 * name is empty (R's `#File 1: `): stackscope's writer puts it there. */
static int has_file(const struct loader *L, int64_t idx)
{
    return L->strs.v[idx].len || (idx > 0 && (size_t)idx + 1 == L->strs.n);
}

/* The function of a line whose function has no name, named as pprof shows
 * it (binary_name). */
static ss_id unnamed_function(struct loader *L, const struct pp_loc *lo, const struct pp_func *f)
{
    ss_id id = binary_name(L, lo);
    ss_id file = has_file(L, f->filename) ? str_id(L, f->filename) : SS_NONE;
    if (id == SS_NONE || (file == SS_NONE && has_file(L, f->filename)))
        return SS_NONE;
    uint32_t start = f->start_line > 0 && f->start_line <= UINT32_MAX ? (uint32_t)f->start_line : 0;
    return ss_model_function(L->m, id, id, file, start);
}

/* Functions and locations into the model. */
static int build_tables(struct loader *L)
{
    if (check_mappings(L))
        return L->err->code;
    if (idmap_init(&L->fn_map, max_id_funcs(L), L->funcs.n) ||
        idmap_init(&L->loc_map, max_id_locs(L), L->locs.n))
        return nomem(L, "id tables");
    L->fn_model = ss_alloc_array(L->funcs.n, sizeof *L->fn_model);
    if (!L->fn_model)
        return nomem(L, "functions");
    for (size_t i = 0; i < L->funcs.n; i++) {
        struct pp_func *f = &L->funcs.v[i];
        if (f->id == 0)
            return bad(L, f->off, "function with the reserved id 0");
        if (idmap_put(&L->fn_map, f->id, (uint32_t)i))
            return bad(L, f->off, "two functions with id %" PRIu64, f->id);
        char what[3][64];
        snprintf(what[0], sizeof what[0], "function id %" PRIu64 ": name", f->id);
        snprintf(what[1], sizeof what[1], "function id %" PRIu64 ": system_name", f->id);
        snprintf(what[2], sizeof what[2], "function id %" PRIu64 ": filename", f->id);
        if (check_str(L, f->name, f->off, what[0]) ||
            check_str(L, f->system_name, f->off, what[1]) ||
            check_str(L, f->filename, f->off, what[2]))
            return L->err->code;
        L->fn_model[i] = SS_NONE;
        if (!L->strs.v[f->name].len && !L->strs.v[f->system_name].len)
            continue; /* named after each location's binary: see unnamed_function */
        /* The name shown is pprof's: the name, else the system name. */
        int64_t shown = L->strs.v[f->name].len ? f->name : f->system_name;
        ss_id name = str_id(L, shown);
        /* no system name: SS_NONE (the writer then writes none either) */
        ss_id sys = L->strs.v[f->system_name].len ? str_id(L, f->system_name) : SS_NONE;
        ss_id file = has_file(L, f->filename) ? str_id(L, f->filename) : SS_NONE;
        uint32_t start =
            f->start_line > 0 && f->start_line <= UINT32_MAX ? (uint32_t)f->start_line : 0;
        if (name == SS_NONE || (sys == SS_NONE && L->strs.v[f->system_name].len) ||
            (file == SS_NONE && has_file(L, f->filename)))
            return nomem(L, "strings");
        L->fn_model[i] = ss_model_function(L->m, name, sys, file, start);
        if (L->fn_model[i] == SS_NONE)
            return nomem(L, "functions");
    }
    if (VEC_RESERVE(L->loc_frames, L->lines.n + L->locs.n) ||
        VEC_RESERVE(L->line_fn, L->lines.n + L->locs.n))
        return nomem(L, "locations");
    for (size_t i = 0; i < L->locs.n; i++) {
        struct pp_loc *lo = &L->locs.v[i];
        if (lo->id == 0)
            return bad(L, lo->off, "location with the reserved id 0");
        if (idmap_put(&L->loc_map, lo->id, (uint32_t)i))
            return bad(L, lo->off, "two locations with id %" PRIu64, lo->id);
        uint32_t first = (uint32_t)L->loc_frames.n;
        for (uint32_t k = 0; k < lo->n; k++) {
            const struct pp_line *ln = &L->lines.v[lo->first + k];
            uint32_t fi = idmap_get(&L->fn_map, ln->function_id);
            if (fi == SS_NONE)
                return bad(L, lo->off,
                           "location id %" PRIu64 ": line %u refers to function id %" PRIu64
                           ", which does not exist",
                           lo->id, k + 1, ln->function_id);
            ss_id fn = L->fn_model[fi];
            const struct pp_func *pf = &L->funcs.v[fi];
            uint32_t flags = k + 1 < lo->n ? SS_LOC_INLINE : 0; /* inlined into the next */
            if (!L->strs.v[pf->name].len && !L->strs.v[pf->system_name].len) {
                fn = unnamed_function(L, lo, pf);
                if (fn == SS_NONE)
                    return nomem(L, "functions");
                flags |= SS_LOC_UNNAMED;
            }
            uint32_t line = ln->line > 0 && ln->line <= UINT32_MAX ? (uint32_t)ln->line : 0;
            struct ss_location key = {
                fn,         L->m->functions.v[fn].filename, line, loc_mapping(L, lo), flags, 0,
                lo->address};
            ss_id loc = ss_model_location_at(L->m, &key);
            if (loc == SS_NONE)
                return nomem(L, "locations");
            L->line_fn.v[L->loc_frames.n] = fi;
            L->loc_frames.v[L->loc_frames.n++] = loc;
        }
        if (lo->n == 0) {
            /* Not symbolised: named after its binary, as pprof shows it
             * ("[libc.so.6]"), the address kept in the location. */
            ss_id name = binary_name(L, lo);
            ss_id fn = name == SS_NONE ? SS_NONE : ss_model_function(L->m, name, name, SS_NONE, 0);
            struct ss_location key = {fn, SS_NONE,    0, loc_mapping(L, lo), SS_LOC_NO_LINE,
                                      0,  lo->address};
            ss_id loc = fn == SS_NONE ? SS_NONE : ss_model_location_at(L->m, &key);
            if (loc == SS_NONE)
                return nomem(L, "locations");
            L->line_fn.v[L->loc_frames.n] = SS_NONE;
            L->loc_frames.v[L->loc_frames.n++] = loc;
        }
        lo->first = first;
        lo->n = (uint32_t)L->loc_frames.n - first;
    }
    return 0;
}

/* Is a source of TYPE (a format's name) in time order, one sample per
 * tick?  Go's runtime (and RProtoBuf, and most producers) write one sample
 * per distinct stack and label set, in no order: a sample is a stack's
 * total, not a moment.  Only what stackscope wrote from a format in time
 * order keeps its samples one per tick, in order. */
static int ordered_type(const char *type, size_t len)
{
    static const char *const ordered[] = {"rprof", "perf", "cpuprofile", "speedscope"};
    for (size_t k = 0; k < sizeof ordered / sizeof *ordered; k++)
        if (strlen(ordered[k]) == len && !memcmp(type, ordered[k], len))
            return 1;
    return 0;
}

/* Are the file's samples in time order (the one source of a file without
 * a restore plan)?  Its comments say so as stackscope wrote them before
 * it wrote one comment per source (restore_comment): "stackscope: from
 * TYPE FILE, ..." with TYPE in time order. */
static int from_timeline(const struct loader *L)
{
    static const char prefix[] = "stackscope: from ";
    const size_t np = sizeof prefix - 1;
    for (size_t i = 0; i < L->comments.n; i++) {
        int64_t c = L->comments.v[i];
        if (c <= 0 || (size_t)c >= L->strs.n)
            continue;
        const char *s = str_at(L, c);
        size_t len = L->strs.v[c].len;
        if (len <= np || memcmp(s, prefix, np))
            continue;
        const char *t = s + np, *sp = memchr(t, ' ', len - np);
        if (sp && ordered_type(t, (size_t)(sp - t)))
            return 1;
    }
    return 0;
}

/* ---- drop_frames and keep_frames ---------------------------------------------- */

enum { PRUNE_ALL = 1, PRUNE_BENEATH = 2 };

/* drop_frames and keep_frames compiled, and what is known of each
 * function: 0 not matched yet, 1 no, 2 pruned. */
struct prune_rx {
    struct ss_regex drop, keep;
    int have_keep;
    uint64_t budget; /* the matcher's work left (match.h) */
    unsigned char *fn;
};

/* Does function fi's name, simplified as pprof does (a leading '.' off,
 * cut at the first '(' that does not start "(anonymous namespace)" or
 * "operator()"), match drop and not keep?  1, 0, or -2 when matching costs
 * more than the budget (-1: no memory). */
static int prune_match(const struct loader *L, struct prune_rx *px, uint32_t fi)
{
    if (px->fn[fi])
        return px->fn[fi] == 2;
    const struct pp_str *nm = &L->strs.v[L->funcs.v[fi].name];
    size_t a = nm->len && nm->s[0] == '.', i = a;
    while (i < nm->len) {
        size_t left = nm->len - i;
        if (left >= 21 && !memcmp(nm->s + i, "(anonymous namespace)", 21))
            i += 21;
        else if (left >= 10 && !memcmp(nm->s + i, "operator()", 10))
            i += 10;
        else if (nm->s[i] == '(')
            break;
        else
            i++;
    }
    if (i > nm->len)
        i = nm->len;
    int r = nm->len ? ss_regex_match(&px->drop, nm->s + a, i - a, &px->budget) : 0;
    if (r == 1 && px->have_keep) {
        int k = ss_regex_match(&px->keep, nm->s + a, i - a, &px->budget);
        r = k < 0 ? k : !k;
    }
    if (r >= 0)
        px->fn[fi] = r ? 2 : 1;
    return r;
}

/* Compile "^(RE)$" of string idx into *rx (POSIX extended syntax: pprof's
 * are Go's, alike for what profiles use).  Returns 0, 1 with a warning
 * when it is not one, or -1 when memory runs out. */
static int prune_regex(struct loader *L, int64_t idx, const char *what, struct ss_regex *rx)
{
    size_t n = L->strs.v[idx].len;
    char *re = malloc(n + 5), why[128];
    if (!re)
        return -1;
    snprintf(re, n + 5, "^(%.*s)$", (int)n, str_at(L, idx));
    int rc = ss_regex_compile(rx, re, why, sizeof why);
    free(re);
    if (rc == -2)
        return -1;
    if (rc)
        ss_model_warn(L->m,
                      "%s: the profile's %s is not a regular expression stackscope reads "
                      "(POSIX extended: %s): not applied",
                      L->path, what, why);
    return rc ? 1 : 0;
}

/* Mark the locations pprof's Prune cuts at (prune_plan): first every
 * function matched (a budget running out leaves the locations whole),
 * then the locations cut.  Returns 0, or -2 when matching ran out of
 * budget, -1 when memory did. */
static int prune_mark(struct loader *L, struct prune_rx *px)
{
    for (size_t i = 0; i < L->locs.n; i++) {
        const struct pp_loc *lo = &L->locs.v[i];
        for (size_t k = 0; k < lo->n; k++) {
            uint32_t fi = L->line_fn.v[lo->first + k];
            int r = fi != SS_NONE ? prune_match(L, px, fi) : 0;
            if (r < 0)
                return r;
        }
    }
    for (size_t i = 0; i < L->locs.n; i++) {
        struct pp_loc *lo = &L->locs.v[i];
        size_t k = lo->n;
        while (k-- > 0) { /* from the outermost line in */
            uint32_t fi = L->line_fn.v[lo->first + k];
            if (fi != SS_NONE && px->fn[fi] == 2)
                break;
        }
        if (k == SIZE_MAX)
            continue;
        if (k + 1 == lo->n) {
            L->prune[i] = PRUNE_ALL; /* its lines stay, for samples it does not cut */
            continue;
        }
        L->prune[i] = PRUNE_BENEATH;
        lo->first += (uint32_t)k + 1; /* the lines outside the match stay */
        lo->n -= (uint32_t)k + 1;
    }
    return 0;
}

/* pprof's Prune: the locations whose outermost line matching drop_frames
 * (and not keep_frames) is their outermost line are PRUNE_ALL; those where
 * it is an inner line lose that line and the lines inside it, and are
 * PRUNE_BENEATH.  Samples are cut there (prune_cut).  Expressions too
 * costly for the names (match.h) are not applied, with a warning. */
static int prune_plan(struct loader *L)
{
    if (L->no_drop_frames || !L->drop_frames || !L->strs.v[L->drop_frames].len)
        return 0;
    struct prune_rx px = {0};
    int r = prune_regex(L, L->drop_frames, "drop_frames", &px.drop);
    px.have_keep = L->keep_frames && L->strs.v[L->keep_frames].len;
    if (!r && px.have_keep)
        r = prune_regex(L, L->keep_frames, "keep_frames", &px.keep);
    uint64_t bytes = 0;
    for (size_t f = 0; f < L->funcs.n; f++)
        bytes += L->strs.v[L->funcs.v[f].name].len;
    px.budget = SS_REGEX_BUDGET(bytes);
    if (!r) {
        px.fn = ss_calloc_array(L->funcs.n ? L->funcs.n : 1, 1);
        L->prune = ss_calloc_array(L->locs.n ? L->locs.n : 1, 1);
        r = px.fn && L->prune ? prune_mark(L, &px) : -1;
    }
    if (r == -2)
        ss_model_warn(L->m,
                      "%s: the profile's drop_frames is too costly to match against its names "
                      "(it keeps hundreds of states alive at once): not applied",
                      L->path);
    free(px.fn);
    ss_regex_free(&px.drop);
    ss_regex_free(&px.keep);
    if (r) {
        free(L->prune);
        L->prune = NULL;
    }
    return r == -1 ? nomem(L, "drop_frames") : 0;
}

/* The first of the n locations li[0..n) (innermost first) that a sample
 * keeps after pprof's Prune: scanning from the root, past the first
 * location that is not pruned, the first pruned one cuts the sample
 * (PRUNE_ALL: it goes too; PRUNE_BENEATH: its outer lines stay). */
static size_t prune_cut(const struct loader *L, const uint32_t *li, size_t n)
{
    int user = 0;
    for (size_t i = n; i-- > 0;) {
        uint8_t p = L->prune[li[i]];
        if (!p) {
            user = 1;
            continue;
        }
        if (user)
            return p == PRUNE_ALL ? i + 1 : i;
    }
    return 0;
}

/* How the count column (value type 0) is made. */
struct count_rule {
    int src;        /* sample type index it comes from, -1: every sample counts 1 */
    int64_t divide; /* > 1: the value divided by the period */
};

static struct count_rule choose_count(const struct loader *L)
{
    struct count_rule r = {-1, 1};
    size_t n = L->vt_type.n;
    for (size_t i = 0; i < n && r.src < 0; i++)
        if (str_eq(L, L->vt_type.v[i], "samples"))
            r.src = (int)i;
    for (size_t i = 0; i < n && r.src < 0; i++)
        if (str_eq(L, L->vt_unit.v[i], "count"))
            r.src = (int)i;
    for (size_t i = 0; i < n && r.src < 0 && L->period > 0; i++)
        if (L->vt_type.v[i] == L->period_type && L->vt_unit.v[i] == L->period_unit &&
            L->period_type != 0) {
            r.src = (int)i;
            r.divide = L->period;
        }
    return r;
}

static int add_meta(struct loader *L, ss_id src, const char *key, const char *val, size_t vlen)
{
    if (ss_model_add_meta(L->m, src, ss_model_intern_cstr(L->m, key),
                          ss_model_intern(L->m, val, vlen)))
        return nomem(L, "meta");
    return 0;
}

static int add_meta_int(struct loader *L, ss_id src, const char *key, int64_t v)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%" PRId64, v);
    return add_meta(L, src, key, buf, (size_t)n);
}

static int add_meta_str(struct loader *L, ss_id src, const char *key, int64_t idx)
{
    return add_meta(L, src, key, str_at(L, idx), L->strs.v[idx].len);
}

static int add_metas(struct loader *L, ss_id src)
{
    int rc = 0;
    /* Each sample type as "type/unit", in order: the kind of the profile,
     * which ss_load_files compares between inputs (Go's pprof merges only
     * profiles with equal sample types). */
    for (size_t i = 0; i < L->vt_type.n && !rc; i++) {
        size_t tl = L->strs.v[L->vt_type.v[i]].len, ul = L->strs.v[L->vt_unit.v[i]].len;
        char buf[1040];
        int n = snprintf(buf, sizeof buf, "%.*s/%.*s", (int)(tl < 512 ? tl : 512),
                         str_at(L, L->vt_type.v[i]), (int)(ul < 512 ? ul : 512),
                         str_at(L, L->vt_unit.v[i]));
        rc = add_meta(L, src, "sample_type", buf, (size_t)n);
    }
    for (size_t i = 0; i < L->comments.n && !rc; i++)
        rc = add_meta_str(L, src, "comment", L->comments.v[i]);
    if (!rc && L->period_type) {
        char buf[600];
        int n = snprintf(buf, sizeof buf, "%.*s/%.*s", (int)(L->strs.v[L->period_type].len & 255),
                         str_at(L, L->period_type), (int)(L->strs.v[L->period_unit].len & 255),
                         str_at(L, L->period_unit));
        rc = add_meta(L, src, "period_type", buf, (size_t)n);
    }
    if (!rc && L->period)
        rc = add_meta_int(L, src, "period", L->period);
    if (!rc && L->time_nanos)
        rc = add_meta_int(L, src, "time_nanos", L->time_nanos);
    if (!rc && L->duration_nanos)
        rc = add_meta_int(L, src, "duration_nanos", L->duration_nanos);
    if (!rc && L->drop_frames)
        rc = add_meta_str(L, src, "drop_frames", L->drop_frames);
    if (!rc && L->keep_frames)
        rc = add_meta_str(L, src, "keep_frames", L->keep_frames);
    if (!rc && L->default_type)
        rc = add_meta_str(L, src, "default_sample_type", L->default_type);
    return rc;
}

/* A sample the model refused: out of memory, or a count that is negative or
 * makes the counts sum past SS_MAX_COUNT_TOTAL. */
static int add_failed(struct loader *L, int rc, size_t off, size_t index, int64_t count)
{
    if (rc != SS_COUNT_RANGE)
        return nomem(L, "samples");
    char at[800];
    snprintf(at, sizeof at, "%.700s: byte %zu%s: sample %zu", L->path, off, where(L), index);
    return ss_model_count_fail(L->m, L->err, at, count);
}

/* The label set of sample s (its labels checked and interned): 0 for none,
 * SS_NONE after an error (in L->err). */
static ss_id sample_labels(struct loader *L, const Perftools__Profiles__Sample *s, size_t off,
                           size_t index)
{
    L->labs.n = 0;
    if (s->n_label > SS_MAX_LABELS_PER_SAMPLE) {
        bad(L, off, "sample %zu has %zu labels, more than %d", index, s->n_label,
            SS_MAX_LABELS_PER_SAMPLE);
        return SS_NONE;
    }
    for (size_t k = 0; k < s->n_label; k++) {
        const Perftools__Profiles__Label *lb = s->label[k];
        char what[64];
        snprintf(what, sizeof what, "sample %zu: label %zu", index, k + 1);
        if (check_str(L, lb->key, off, what) || check_str(L, lb->str, off, what) ||
            check_str(L, lb->num_unit, off, what))
            return SS_NONE;
        /* As Go's pprof: a string label when str is set, else a numeric
         * one when num or num_unit is, else nothing. */
        if (!lb->str && !lb->num && !lb->num_unit)
            continue;
        if (L->base_side && str_eq(L, lb->key, "pprof::base"))
            continue; /* a difference profile's mark of its base samples */
        ss_id key = str_id(L, lb->key);
        ss_id str = lb->str ? str_id(L, lb->str) : SS_NONE;
        ss_id unit = !lb->str && lb->num_unit ? str_id(L, lb->num_unit) : SS_NONE;
        ss_id lab = key == SS_NONE || (lb->str && str == SS_NONE) ||
                            (!lb->str && lb->num_unit && unit == SS_NONE)
                        ? SS_NONE
                        : ss_model_label(L->m, key, str, lb->num, unit);
        if (lab == SS_NONE || VEC_PUSH(L->labs, lab)) {
            nomem(L, "labels");
            return SS_NONE;
        }
    }
    ss_id set = ss_model_label_set(L->m, L->labs.v, L->labs.n);
    if (set == SS_NONE)
        nomem(L, "labels");
    return set;
}

/* ---- the sources of a profile stackscope wrote -------------------------------- */

/* Parse comment c: "stackscope: source K of N: TYPE session S, interval X
 * us, flags F, C samples from P, file URI" (write_pprof.c); 0 when it is
 * one, with k and n set. */
static int restore_comment(const struct loader *L, int64_t c, unsigned *k, unsigned *n,
                           struct restore *r)
{
    char buf[512], type[64], flags[128];
    size_t len = L->strs.v[c].len < sizeof buf - 1 ? L->strs.v[c].len : sizeof buf - 1;
    memcpy(buf, str_at(L, c), len);
    buf[len] = '\0';
    unsigned long long cnt, first;
    int end = 0;
    if (sscanf(buf,
               "stackscope: source %u of %u: %63s session %u, interval %lf us, flags %127[^,], "
               "%llu samples from %llu, file %n",
               k, n, type, &r->session, &r->interval_us, flags, &cnt, &first, &end) != 8 ||
        !end || *k < 1 || *k > *n || !(r->interval_us > 0) || first < 1)
        return -1;
    r->count = cnt;
    r->first = first;
    r->flags = (strstr(flags, "memory") ? SS_SRC_MEMORY : 0) |
               (strstr(flags, "gc") ? SS_SRC_GC : 0) | (strstr(flags, "line") ? SS_SRC_LINE : 0) |
               (strstr(flags, "unordered") ? SS_SRC_UNORDERED : 0);
    return 0;
}

/* The sources to restore: every "stackscope: source K of N" comment, K = 1
 * .. N in order, their samples one after another and all of the file's.
 * Anything else (a profile another program merged or cut) restores
 * nothing: the file is then one source, as any pprof file. */
static int restore_plan(struct loader *L)
{
    unsigned n = 0, k, nn;
    struct restore r;
    for (size_t i = 0; i < L->comments.n; i++) {
        if (restore_comment(L, L->comments.v[i], &k, &nn, &r))
            continue;
        uint64_t at = L->rs.n ? L->rs.v[L->rs.n - 1].first + L->rs.v[L->rs.n - 1].count : 1;
        if ((n && nn != n) || k != L->rs.n + 1 || r.first != at) {
            L->rs.n = 0;
            return 0;
        }
        n = nn;
        if (VEC_PUSH(L->rs, r))
            return nomem(L, "sources");
    }
    uint64_t total = L->rs.n ? L->rs.v[L->rs.n - 1].first + L->rs.v[L->rs.n - 1].count - 1 : 0;
    if (L->rs.n != n || total != L->n_samples)
        L->rs.n = 0;
    return 0;
}

/* Add source k of the restore plan (or, without a plan, the file's one
 * source) with its metas.  Returns 0 or an error. */
static int restore_source(struct loader *L, size_t k)
{
    struct ss_source src = *L->tmpl;
    if (L->rs.n) {
        const struct restore *r = &L->rs.v[k];
        src.session = r->session;
        if (!(src.flags & SS_SRC_UNTIMED))
            src.interval_us = r->interval_us;
        src.flags =
            (src.flags & ~(uint32_t)(SS_SRC_GC | SS_SRC_LINE | SS_SRC_MEMORY | SS_SRC_UNORDERED)) |
            (r->flags & (SS_SRC_GC | SS_SRC_LINE | SS_SRC_UNORDERED)) |
            (r->flags & src.flags & SS_SRC_MEMORY);
        L->rs_next = k + 1;
        L->rs_at = k + 1 < L->rs.n ? L->rs.v[k + 1].first : UINT64_MAX;
        double ns = r->interval_us * 1000; /* its own period, when a whole number of ns */
        if (L->period_unit && str_eq(L, L->period_unit, "nanoseconds") && ns >= 1 && ns < 0x1p53 &&
            ss_double_eq(ns, (double)(int64_t)ns))
            L->period = (int64_t)ns;
    } else {
        L->rs_at = UINT64_MAX;
    }
    ss_id sid = ss_model_add_source(L->m, &src);
    return sid == SS_NONE ? nomem(L, "sources") : add_metas(L, sid);
}

/* A sample (field f, the index-th) the memo has seen: added again as it
 * was.  Returns 1 (added; *rc 0 or an error) or 0 (not seen; h: the
 * field's hash).  Stops the memo when samples rarely repeat. */
static int memo_sample(struct loader *L, const struct field *f, size_t index, uint64_t *h,
                       uint64_t *n_mismatch, int *rc)
{
    struct memo *mo = &L->memo;
    *h = ss_hash(f->data, f->len);
    const struct memo_slot *hit = memo_find(mo, f->data, f->len, *h);
    if (hit) {
        mo->hits++;
        *n_mismatch += (hit->flags & MEMO_MISMATCH) != 0;
        const int64_t *hv = mo->vals.v + hit->vals;
        int ar = ss_model_add_sample(L->m, hit->stack, hv);
        *rc = ar ? add_failed(L, ar, f->off, index, hv[SS_VT_COUNT])
              : ss_model_label_sample(L->m, hit->labels) ? nomem(L, "labels")
                                                         : 0;
        return 1;
    }
    /* Rarely repeated: stop looking. */
    if (++mo->misses >= 4096 && mo->hits < mo->misses / 4) {
        mo->off = 1;
        memo_free(mo);
        mo->off = 1;
    }
    return 0;
}

/* Packed varints p[0..n) into v (at most n of them): their number, or
 * SIZE_MAX when one is cut off or longer than 9 bytes (a value of 2^63 or
 * more: left to protobuf-c, as is anything unusual). */
static size_t packed_varints(const uint8_t *p, size_t n, uint64_t *v)
{
    size_t k = 0, i = 0;
    while (i < n) {
        uint64_t x = 0;
        int shift = 0;
        for (;;) {
            if (i == n || shift > 56)
                return SIZE_MAX;
            uint8_t b = p[i++];
            x |= (uint64_t)(b & 0x7f) << shift;
            if (!(b & 0x80))
                break;
            shift += 7;
        }
        v[k++] = x;
    }
    return k;
}

/* The packed location ids (part[0], plen[0]) and values (part[1]) of
 * Sample message f when it has no other field and each once; else -1. */
static int quick_parts(const struct field *f, const uint8_t *part[2], size_t plen[2])
{
    const uint8_t *p = f->data, *end = f->data + f->len;
    part[0] = part[1] = NULL;
    plen[0] = plen[1] = 0;
    while (p < end) {
        uint8_t tag = *p++; /* one byte: fields 1 and 2, length-delimited */
        if ((tag != (1 << 3 | WT_LEN) && tag != (2 << 3 | WT_LEN)) || part[(tag >> 3) - 1])
            return -1;
        uint64_t n;
        size_t pos = 0;
        if (get_varint(p, (size_t)(end - p), &pos, &n) || n > (size_t)(end - p) - pos)
            return -1;
        part[(tag >> 3) - 1] = p + pos;
        plen[(tag >> 3) - 1] = (size_t)n;
        p += pos + n;
    }
    return 0;
}

/* The stack the stacks memo knows for a sample's quick form (quick_sample). */
struct quick {
    ss_id stack;        /* SS_NONE: not known */
    size_t pos;         /* where it goes in the memo (smemo_find) */
    uint64_t h;         /* the hash of its ids' bytes */
    const uint8_t *ids; /* the ids' packed bytes */
    size_t len;
};

/* Sample message f as protobuf-c unpacks it, decoded here when it has the
 * form writers give it (stackscope's, Go's): location_id and value packed,
 * each once, varints under 2^63, no labels, no other field.  Returns 1
 * with *s pointing into L's scratch, 0 for any other form (protobuf-c
 * unpacks it, or says what is wrong), -1 when memory ran out.  When the
 * stacks memo knows its ids, q->stack is their stack and s has their number
 * only, not the ids. */
static int quick_sample(struct loader *L, const struct field *f, Perftools__Profiles__Sample *s,
                        struct quick *q)
{
    const uint8_t *part[2];
    size_t plen[2];
    if (quick_parts(f, part, plen))
        return 0;
    if (VEC_RESERVE(L->q_loc, plen[0] + 1) || VEC_RESERVE(L->q_val, plen[1] + 1))
        return -1;
    size_t nv = packed_varints(part[1], plen[1], (uint64_t *)L->q_val.v);
    if (nv == SIZE_MAX)
        return 0;
    q->stack = SS_NONE;
    q->ids = part[0];
    q->len = plen[0];
    const struct smemo_ent *e = NULL;
    if (!L->smemo.off) {
        q->h = ss_hash(q->ids ? q->ids : (const uint8_t *)"", q->len);
        e = smemo_find(&L->smemo, q->ids ? q->ids : (const uint8_t *)"", q->len, q->h, &q->pos);
    }
    size_t nl = e ? e->nloc : packed_varints(part[0], plen[0], L->q_loc.v);
    if (nl == SIZE_MAX)
        return 0;
    perftools__profiles__sample__init(s);
    s->n_location_id = nl;
    s->location_id = L->q_loc.v;
    s->n_value = nv;
    s->value = L->q_val.v;
    if (e) {
        L->smemo.hits++;
        q->stack = e->stack;
    } else if (!L->smemo.off && ++L->smemo.misses >= 4096 && L->smemo.hits < L->smemo.misses / 4) {
        smemo_free(&L->smemo); /* rarely repeated: stop looking */
        memset(&L->smemo, 0, sizeof L->smemo);
        L->smemo.off = 1;
    }
    return 1;
}

/* Is sample s (field f) on this side of a difference profile (see
 * pass_two)?  1 yes (a base sample negated), 0 no (*n_base counts the
 * base's on side 0), or -1 with an error. */
static int on_side(struct loader *L, Perftools__Profiles__Sample *s, const struct field *f,
                   size_t index, int side, uint64_t *n_base)
{
    int neg = 0, posv = 0;
    for (size_t k = 0; k < s->n_value; k++) {
        neg |= s->value[k] < 0;
        posv |= s->value[k] > 0;
    }
    if (neg && posv)
        return bad(L, f->off,
                   "sample %zu has both positive and negative values (a difference "
                   "profile's base samples are negative in every sample type)",
                   index),
               -1;
    if (side == 0 && neg)
        (*n_base)++;
    if (side != neg)
        return 0;
    for (size_t k = 0; side == 1 && k < s->n_value; k++) {
        if (s->value[k] == INT64_MIN)
            return bad(L, f->off, "sample %zu has the value %" PRId64 ", out of range", index,
                       s->value[k]),
                   -1;
        s->value[k] = -s->value[k];
    }
    return 1;
}

/* The frames of the locations ids[0..n) (after the pruned ones: drop_frames)
 * appended to (*fv)[*fn ..] (capacity *fcap), with lidx scratch room for
 * n + 1.  Only reads L: pass two and the parts' threads share it.  Returns
 * 0; 1 when ids[*k] is no location; 2 when the frames are more than
 * PP_MAX_FRAMES; -1 when memory ran out. */
static int stack_frames(const struct loader *L, const uint64_t *ids, size_t n, uint32_t *lidx,
                        ss_id **fv, size_t *fn, size_t *fcap, size_t *k)
{
    for (*k = 0; *k < n; (*k)++) {
        uint32_t li = idmap_get(&L->loc_map, ids[*k]);
        if (li == SS_NONE)
            return 1;
        lidx[*k] = li;
    }
    size_t cut = L->prune ? prune_cut(L, lidx, n) : 0, start = *fn;
    for (size_t j = cut; j < n; j++) {
        const struct pp_loc *lo = &L->locs.v[lidx[j]];
        if (lo->n == 0)
            continue;
        if (*fn - start + lo->n > PP_MAX_FRAMES)
            return 2;
        if (ss_grow((void **)fv, fcap, *fn + lo->n, sizeof **fv))
            return -1;
        memcpy(*fv + *fn, L->loc_frames.v + lo->first, lo->n * sizeof(ss_id));
        *fn += lo->n;
    }
    return 0;
}

/* Sample s's stack: its locations' frames (after the pruned ones).
 * Returns it, or SS_NONE with an error. */
static ss_id sample_stack(struct loader *L, const Perftools__Profiles__Sample *s,
                          const struct field *f, size_t index)
{
    L->frames.n = 0;
    if (VEC_RESERVE(L->lidx, s->n_location_id + 1))
        return nomem(L, "frames"), SS_NONE;
    size_t k;
    int r = stack_frames(L, s->location_id, s->n_location_id, L->lidx.v, &L->frames.v, &L->frames.n,
                         &L->frames.cap, &k);
    if (r == 1)
        return bad(L, f->off, "sample %zu: location id %" PRIu64 " does not exist", index,
                   s->location_id[k]),
               SS_NONE;
    if (r == 2)
        return bad(L, f->off, "sample %zu has more than %d frames", index, PP_MAX_FRAMES), SS_NONE;
    if (r)
        return nomem(L, "frames"), SS_NONE;
    ss_id stack = ss_model_stack(L->m, L->frames.v, L->frames.n, SS_NONE);
    if (stack == SS_NONE)
        nomem(L, "stacks");
    return stack;
}

/* Sample s's values into L->vals (the count, by cr, in column 0); *flags
 * gets MEMO_MISMATCH when its time (column time_col) is not count x
 * period.  Returns 0 or an error. */
static int sample_values(struct loader *L, const Perftools__Profiles__Sample *s,
                         const struct field *f, size_t index, const ss_id *vt_model,
                         struct count_rule cr, int time_col, uint32_t *flags)
{
    for (size_t t = 1; t < L->m->value_types.n; t++)
        L->vals[t] = 0;
    for (size_t k = 0; k < s->n_value; k++)
        if (vt_model[k] != SS_NONE)
            L->vals[vt_model[k]] = s->value[k];
    int64_t c = cr.src < 0 ? 1 : s->value[cr.src];
    if (c < 0)
        return bad(L, f->off,
                   "sample %zu has a negative count (%" PRId64
                   "): difference profiles are not supported",
                   index, c);
    if (cr.divide > 1) /* round half up, without c + divide / 2 overflowing */
        c = c / cr.divide + (c % cr.divide >= cr.divide - cr.divide / 2);
    L->vals[0] = c;
    /* stackscope writes 0 for samples with no frames (as R, no time).
     * A count whose time does not fit an int64 cannot match it. */
    int64_t want;
    *flags = 0;
    if (time_col >= 0 &&
        (__builtin_mul_overflow(c, L->period, &want) || s->value[time_col] != want) &&
        !(s->n_location_id == 0 && s->value[time_col] == 0))
        *flags = MEMO_MISMATCH;
    return 0;
}

/* The column of the sample type that is the period's (its time), when
 * counts times the period must give it; else -1. */
static int time_column(const struct loader *L, struct count_rule cr)
{
    int check_time = cr.src >= 0 && cr.divide == 1 && L->period > 0;
    int time_col = -1;
    for (size_t i = 0; check_time && i < L->vt_type.n; i++)
        if (L->vt_type.v[i] == L->period_type && L->vt_unit.v[i] == L->period_unit)
            time_col = (int)i;
    return time_col;
}

/* Pass 2: the samples, in file order.  A difference profile (what `pprof
 * -proto -diff_base=BASE NEW` writes: the base's samples negated) holds
 * samples whose values are negative: side 0 adds the others and counts
 * those in *n_base; side 1 (run when there are some, into a source flagged
 * SS_SRC_BASE, compare.h) adds only those, negated, without their mark (the
 * label pprof::base).  A sample with both positive and negative values is
 * refused.  It reads the fields of bytes [from, to); *at counts the
 * samples (index) before them, and after; time_col is time_column's at the
 * start of the side (a restored source's period changes L->period). */
static int pass_two(struct loader *L, const ss_id *vt_model, struct count_rule cr, int time_col,
                    uint64_t *n_mismatch, int side, uint64_t *n_base, size_t from, size_t to,
                    size_t *at)
{
    size_t nvt = L->vt_type.n, pos = from, index = *at;
    while (pos < to) {
        struct field f;
        const char *why;
        if (next_field(L->buf, L->len, &pos, &f, &why))
            return bad(L, f.off, "%s", why); /* cannot happen: pass one read it */
        if (f.num != 2 || f.wt != WT_LEN)
            continue;
        *at = ++index;
        int rc = side == 0 && index == L->rs_at ? restore_source(L, L->rs_next) : 0;
        if (rc)
            return rc;
        uint64_t h = 0;
        if (!L->memo.off && memo_sample(L, &f, index, &h, n_mismatch, &rc)) {
            if (rc)
                return rc;
            continue;
        }
        Perftools__Profiles__Sample qs, *s = &qs;
        struct quick q = {SS_NONE, SIZE_MAX, 0, NULL, 0};
        int quick = quick_sample(L, &f, &qs, &q);
        if (quick < 0)
            return nomem(L, "samples");
        if (!quick && !(s = UNPACK(L, sample, &f)))
            return unpack_failed(L, &f);
        if (s->n_value != nvt)
            return bad(L, f.off, "sample %zu has %zu values, but the profile has %zu sample types",
                       index, s->n_value, nvt);
        int on = on_side(L, s, &f, index, side, n_base);
        if (on <= 0) {
            if (on < 0)
                return L->err->code;
            continue;
        }
        L->base_side = side;
        ss_id labels = sample_labels(L, s, f.off, index);
        if (labels == SS_NONE)
            return L->err->code;
        ss_id stack = quick && q.stack != SS_NONE ? q.stack : sample_stack(L, s, &f, index);
        if (stack == SS_NONE)
            return L->err->code;
        if (quick && q.stack == SS_NONE && !L->smemo.off)
            smemo_put(&L->smemo, q.pos, q.ids ? q.ids : (const uint8_t *)"", q.len, q.h,
                      s->n_location_id, stack);
        uint32_t flags = 0;
        if ((rc = sample_values(L, s, &f, index, vt_model, cr, time_col, &flags)))
            return rc;
        *n_mismatch += flags != 0;
        int ar = ss_model_add_sample(L->m, stack, L->vals);
        if (ar)
            return add_failed(L, ar, f.off, index, L->vals[0]);
        if (ss_model_label_sample(L->m, labels))
            return nomem(L, "labels");
        if (!L->memo.off)
            memo_put(&L->memo, f.data, f.len, h, stack, labels, L->vals, L->m->value_types.n,
                     flags);
    }
    return 0;
}

/* ---- samples decoded in parallel parts ------------------------------------ */

/* A big profile's samples are cut into parts, one a thread: the first is
 * read by pass two as it always is, while a thread decodes each other part
 * without touching the model (its samples' values, and its stacks as frames
 * in a table of its own, by the ids' bytes as the stacks memo); then each
 * part is added to the model in file order, each stack interned at its
 * first sample, so the model is the one pass two makes alone, id for id
 * (as the Rprof loader's parts: load_rprof.c).  A part's thread stops at
 * the first sample it cannot decode so (labels, another form, an error, a
 * negative value: a difference profile's base) and at stacks that rarely
 * repeat; pass two reads the part from there. */
#define PARALLEL_MIN ((size_t)1 << 17) /* samples: fewer are read by pass two alone */
#define MAX_PARTS 64

struct part {
    const struct loader *L;
    size_t from, to;      /* its fields: bytes [from, to) of L->buf */
    size_t stop;          /* the first field not decoded (to: none) */
    size_t nvt;           /* values a sample */
    size_t est;           /* samples, about */
    VEC(uint32_t) lstack; /* each sample's stack, local; PART_EMPTY: no location ids */
    VEC(int64_t) vals;    /* ... its nvt values */
    struct smemo memo;    /* location ids' bytes -> local stack */
    VEC(ss_id) frames;    /* the local stacks' frames, one after another */
    VEC(size_t) fstart;   /* local stack k: frames [fstart[k], fstart[k + 1]) */
    VEC(uint64_t) ids;    /* scratch: location ids */
    VEC(uint32_t) lidx;   /* scratch: their indexes */
};
#define PART_EMPTY 0x80000000u

static void part_free(struct part *pt)
{
    VEC_FREE(pt->lstack);
    VEC_FREE(pt->vals);
    smemo_free(&pt->memo);
    VEC_FREE(pt->frames);
    VEC_FREE(pt->fstart);
    VEC_FREE(pt->ids);
    VEC_FREE(pt->lidx);
}

/* Decode sample f into the part: 0, or -1 (not so: pass two reads it). */
static int part_sample(struct part *pt, const struct field *f)
{
    const struct loader *L = pt->L;
    const uint8_t *part[2];
    size_t plen[2];
    if (quick_parts(f, part, plen) || VEC_RESERVE(pt->vals, pt->vals.n + plen[1] + 1))
        return -1;
    if (packed_varints(part[1], plen[1], (uint64_t *)pt->vals.v + pt->vals.n) != pt->nvt)
        return -1;
    const uint8_t *ids = part[0] ? part[0] : (const uint8_t *)"";
    uint64_t h = ss_hash(ids, plen[0]);
    size_t pos;
    const struct smemo_ent *e = smemo_find(&pt->memo, ids, plen[0], h, &pos);
    uint32_t lid;
    if (e) {
        lid = e->stack;
    } else {
        size_t nst = pt->fstart.n - 1, k;
        if (nst >= 4096 && nst > pt->lstack.n / 4)
            return -1; /* stacks rarely repeat: no gain */
        if (VEC_RESERVE(pt->ids, plen[0] + 1) || VEC_RESERVE(pt->lidx, plen[0] + 1))
            return -1;
        size_t nl = packed_varints(part[0], plen[0], pt->ids.v);
        if (nl == SIZE_MAX || nst >= PART_EMPTY - 1 ||
            stack_frames(L, pt->ids.v, nl, pt->lidx.v, &pt->frames.v, &pt->frames.n,
                         &pt->frames.cap, &k) ||
            VEC_PUSH(pt->fstart, pt->frames.n))
            return -1;
        lid = (uint32_t)nst | (nl ? 0 : PART_EMPTY);
        smemo_put(&pt->memo, pos, ids, plen[0], h, nl, lid);
    }
    if (VEC_PUSH(pt->lstack, lid))
        return -1;
    pt->vals.n += pt->nvt;
    return 0;
}

static void *part_run(void *arg)
{
    struct part *pt = arg;
    size_t pos = pt->from;
    pt->stop = VEC_PUSH(pt->fstart, 0) ? pos : pt->to;
    /* room for its samples, as the marks count them: no copy as it grows */
    if (VEC_RESERVE(pt->lstack, pt->est) || VEC_RESERVE(pt->vals, pt->est * pt->nvt + 1) ||
        VEC_RESERVE(pt->frames, 1))
        pt->stop = pos;
    while (pos < pt->stop) {
        struct field f;
        const char *why;
        size_t at = pos;
        if (next_field(pt->L->buf, pt->L->len, &pos, &f, &why) ||
            (f.num == 2 && f.wt == WT_LEN && part_sample(pt, &f)))
            pt->stop = at;
    }
    return NULL;
}

/* The byte offset of the part's sample j (for an error). */
static size_t part_offset(const struct part *pt, size_t j)
{
    size_t pos = pt->from;
    for (;;) {
        struct field f;
        const char *why;
        if (next_field(pt->L->buf, pt->L->len, &pos, &f, &why))
            return f.off;
        if (f.num == 2 && f.wt == WT_LEN && j-- == 0)
            return f.off;
    }
}

/* The part's samples into the model, after sample *at, as pass two adds
 * them (the source that starts at one, the values, no labels); each local
 * stack interned at its first sample.  Returns 0 or an error. */
static int part_merge(struct loader *L, const struct part *pt, const ss_id *vt_model,
                      struct count_rule cr, int time_col, uint64_t *n_mismatch, size_t *at)
{
    size_t nst = pt->fstart.n ? pt->fstart.n - 1 : 0;
    ss_id *gmap = ss_alloc_array(nst, sizeof *gmap);
    if (!gmap)
        return nomem(L, "stacks");
    memset(gmap, 0xff, (nst ? nst : 1) * sizeof *gmap);
    int rc = 0;
    L->base_side = 0;
    for (size_t j = 0; !rc && j < pt->lstack.n; j++) {
        size_t index = ++*at;
        if (index == L->rs_at && (rc = restore_source(L, L->rs_next)))
            break;
        Perftools__Profiles__Sample s;
        perftools__profiles__sample__init(&s);
        s.n_value = pt->nvt;
        s.value = pt->vals.v + j * pt->nvt;
        s.n_location_id = pt->lstack.v[j] & PART_EMPTY ? 0 : 1; /* what sample_values asks */
        ss_id labels = sample_labels(L, &s, NO_OFF, index);
        uint32_t lid = pt->lstack.v[j] & ~PART_EMPTY;
        if (labels != SS_NONE && gmap[lid] == SS_NONE &&
            (gmap[lid] = ss_model_stack(L->m, pt->frames.v + pt->fstart.v[lid],
                                        pt->fstart.v[lid + 1] - pt->fstart.v[lid], SS_NONE)) ==
                SS_NONE)
            rc = nomem(L, "stacks");
        else if (labels == SS_NONE)
            rc = L->err->code;
        uint32_t flags = 0;
        struct field f = {0};
        f.off = NO_OFF; /* no error: its count is not negative */
        if (!rc)
            rc = sample_values(L, &s, &f, index, vt_model, cr, time_col, &flags);
        *n_mismatch += flags != 0;
        int ar = rc ? 0 : ss_model_add_sample(L->m, gmap[lid], L->vals);
        if (ar)
            rc = add_failed(L, ar, part_offset(pt, j), index, L->vals[0]);
        else if (!rc && ss_model_label_sample(L->m, labels))
            rc = nomem(L, "labels");
    }
    free(gmap);
    return rc;
}

/* Pass two over every sample (side 0), in parts on threads when the
 * profile is big (see above).  Returns 0 or an error. */
static int pass_two_parts(struct loader *L, const ss_id *vt_model, struct count_rule cr,
                          uint64_t *n_mismatch, uint64_t *n_base)
{
    size_t at = 0;
    int time_col = time_column(L, cr);
    unsigned np = ss_threads(MAX_PARTS);
    if (np > L->marks.n)
        np = (unsigned)L->marks.n;
    if (np < 2 || L->n_samples < PARALLEL_MIN)
        return pass_two(L, vt_model, cr, time_col, n_mismatch, 0, n_base, 0, L->len, &at);
    struct part pt[MAX_PARTS];
    pthread_t th[MAX_PARTS];
    int started[MAX_PARTS] = {0};
    memset(pt, 0, sizeof pt);
    for (unsigned k = 0; k < np; k++) {
        pt[k].L = L;
        pt[k].from = k ? L->marks.v[(size_t)k * L->marks.n / np] : 0;
        pt[k].to = L->len;
        pt[k].nvt = L->vt_type.n;
        pt[k].est = ((size_t)(k + 1) * L->marks.n / np - (size_t)k * L->marks.n / np) * PART_MARK;
        if (k)
            pt[k - 1].to = pt[k].from;
    }
    for (unsigned k = 1; k < np; k++) {
        pt[k].stop = pt[k].from; /* a thread that does not start decodes nothing */
        started[k] = pthread_create(&th[k], NULL, part_run, &pt[k]) == 0;
    }
    int rc = pass_two(L, vt_model, cr, time_col, n_mismatch, 0, n_base, 0, pt[0].to, &at);
    for (unsigned k = 1; k < np; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        if (!rc)
            rc = part_merge(L, &pt[k], vt_model, cr, time_col, n_mismatch, &at);
        if (!rc && pt[k].stop < pt[k].to)
            rc = pass_two(L, vt_model, cr, time_col, n_mismatch, 0, n_base, pt[k].stop, pt[k].to,
                          &at);
        part_free(&pt[k]);
    }
    return rc;
}

/* Value types: each sample type, in order, as the model's (SS_NONE: a
 * type that repeats an earlier one, counted in *dup, or a second count
 * column: the count column is value type 0, and cr's type is it).
 * Returns the array (caller frees) or NULL (out of memory, said). */
static ss_id *model_value_types(struct loader *L, struct count_rule cr, size_t *dup)
{
    size_t nvt = L->vt_type.n;
    ss_id *vt_model = ss_alloc_array(nvt, sizeof *vt_model);
    if (!vt_model)
        return nomem(L, "sample types"), NULL;
    *dup = 0;
    for (size_t i = 0; i < nvt; i++) {
        char t[512], u[512];
        snprintf(t, sizeof t, "%.*s", (int)L->strs.v[L->vt_type.v[i]].len,
                 str_at(L, L->vt_type.v[i]));
        snprintf(u, sizeof u, "%.*s", (int)L->strs.v[L->vt_unit.v[i]].len,
                 str_at(L, L->vt_unit.v[i]));
        vt_model[i] = ss_model_value_type(L->m, t, u);
        if (vt_model[i] == SS_NONE) {
            free(vt_model);
            return nomem(L, "value types"), NULL;
        }
        for (size_t k = 0; k < i; k++)
            if (vt_model[k] == vt_model[i]) {
                vt_model[i] = SS_NONE; /* the first of equal types wins */
                (*dup)++;
                break;
            }
    }
    for (size_t i = 0; i < nvt; i++)
        if (vt_model[i] == SS_VT_COUNT && (int)i != cr.src)
            vt_model[i] = SS_NONE;
    return vt_model;
}

/* The source's template (src: its flags, interval, measures and default
 * column).  Returns 0 or an error (out of memory). */
static int source_template(struct loader *L, const ss_id *vt_model, struct ss_source *src)
{
    size_t nvt = L->vt_type.n;
    memset(src, 0, sizeof *src);
    src->type = ss_model_intern_cstr(L->m, "pprof");
    src->uri = ss_model_intern_cstr(L->m, L->path);
    src->session = 1;
    src->timestamp = L->time_nanos / 1000000000;
    double unit_us = L->period_type || L->period_unit ? time_unit_us(L, L->period_unit) : 0;
    int timed = unit_us > 0 && L->period > 0;
    src->interval_us = timed ? (double)L->period * unit_us : 1e6;
    for (size_t i = 0; i < L->m->locations.n && !(src->flags & SS_SRC_LINE); i++)
        if (L->m->locations.v[i].line)
            src->flags |= SS_SRC_LINE;
    static const char *const mem[4] = {"small_v", "big_v", "nodes", "dup_count"};
    int nmem = 0;
    for (int k = 0; k < 4; k++)
        for (size_t i = 0; i < nvt; i++)
            if (str_eq(L, L->vt_type.v[i], mem[k])) {
                nmem++;
                break;
            }
    if (nmem == 4)
        src->flags |= SS_SRC_MEMORY;
    if (!timed)
        src->flags |= SS_SRC_UNTIMED; /* no `time` measure (stackscope(1), MEASURES) */
    if (!from_timeline(L))
        src->flags |= SS_SRC_UNORDERED; /* no timeline, phases or runs (ss_model_has_time_order) */
    /* The measures: every sample type; the default as Go's pprof chooses it,
     * default_sample_type, else the last type. */
    for (size_t i = 0; i < nvt; i++)
        if (vt_model[i] != SS_NONE && vt_model[i] < SS_SOURCE_VALUE_BITS)
            src->values |= (uint64_t)1 << vt_model[i];
    for (size_t i = nvt; i-- > 0;) {
        if (vt_model[i] == SS_NONE)
            continue;
        if (!src->default_column)
            src->default_column = vt_model[i] + 1;
        int64_t a = L->vt_type.v[i], d = L->default_type;
        if (d && L->strs.v[a].len == L->strs.v[d].len &&
            !memcmp(str_at(L, a), str_at(L, d), L->strs.v[d].len)) {
            src->default_column = vt_model[i] + 1;
            break;
        }
    }
    if (src->type == SS_NONE || src->uri == SS_NONE)
        return nomem(L, "sources");
    return 0;
}

/* The samples, in the source made from src; a difference profile's
 * negated samples as its base, a source of their own.  *n_mismatch: the
 * samples whose time is not count x period. */
static int read_samples(struct loader *L, const ss_id *vt_model, struct count_rule cr,
                        struct ss_source *src, uint64_t *n_mismatch)
{
    L->tmpl = src;
    int rc = restore_plan(L);
    if (!rc)
        rc = restore_source(L, 0);
    uint64_t n_base = 0;
    /* room for every sample (pass one counted them): no column moves as
     * it grows; without the memory, the columns grow as they go */
    if (!rc)
        (void)ss_model_reserve_samples(L->m, L->n_samples);
    if (!rc)
        rc = pass_two_parts(L, vt_model, cr, n_mismatch, &n_base);
    if (rc || !n_base)
        return rc;
    src->flags |= SS_SRC_BASE;
    ss_id sid = ss_model_add_source(L->m, src);
    if (sid == SS_NONE)
        return nomem(L, "sources");
    rc = add_metas(L, sid);
    memo_free(&L->memo);
    L->memo.off = 1;
    size_t at = 0;
    if (!rc)
        rc = pass_two(L, vt_model, cr, time_column(L, cr), n_mismatch, 1, &n_base, 0, L->len, &at);
    return rc;
}

/* Warnings: what the model could not keep or had to guess. */
static void load_warnings(struct loader *L, size_t dup, struct count_rule cr, uint64_t n_mismatch,
                          ss_id time_vt, size_t first_src)
{
    if (dup)
        ss_model_warn(L->m, "%s: %zu sample types repeat an earlier one and are left out", L->path,
                      dup);
    if (L->n_samples && cr.src < 0)
        ss_model_warn(L->m,
                      "%s: no sample type counts samples ('samples' or unit 'count'): "
                      "each sample counts 1",
                      L->path);
    if (L->n_samples && cr.divide > 1)
        ss_model_warn(L->m,
                      "%s: no sample type counts samples: counts are %.*s divided by the "
                      "period",
                      L->path, (int)(L->strs.v[L->vt_type.v[cr.src]].len & 255),
                      str_at(L, L->vt_type.v[cr.src]));
    /* Without a period in time units the source has no `time` measure
     * (SS_SRC_UNTIMED): its sample types are its measures. */
    /* Samples whose time is not count x period (a Chrome profile's or
     * perf's durations, written by stackscope): each its own time, the
     * period's column, when it is in nanoseconds; else a warning. */
    if (n_mismatch && time_vt != SS_NONE)
        for (size_t k = first_src; k < L->m->sources.n; k++)
            ss_model_source_time(L->m, (ss_id)k, time_vt);
    else if (n_mismatch)
        ss_model_warn(L->m,
                      "%s: %" PRIu64 " sample%s a %.*s value other than count x period; "
                      "times here are count x period",
                      L->path, n_mismatch, n_mismatch == 1 ? " has" : "s have",
                      (int)(L->strs.v[L->period_type].len & 255), str_at(L, L->period_type));
}

static int load(struct loader *L)
{
    int rc = pass_one(L);
    if (!rc)
        rc = check_header(L);
    if (rc)
        return rc;
    L->str_ids = ss_alloc_array(L->strs.n, sizeof *L->str_ids);
    if (!L->str_ids)
        return nomem(L, "string table");
    memset(L->str_ids, 0xff, L->strs.n * sizeof *L->str_ids);
    rc = build_tables(L);
    if (!rc)
        rc = prune_plan(L);
    if (rc)
        return rc;
    struct count_rule cr = choose_count(L);
    size_t dup = 0;
    ss_id *vt_model = model_value_types(L, cr, &dup);
    if (!vt_model)
        return L->err->code;
    L->vals = ss_calloc_array(L->m->value_types.n, sizeof *L->vals);
    struct ss_source src;
    rc = L->vals ? source_template(L, vt_model, &src) : nomem(L, "values");
    size_t first_src = L->m->sources.n;
    ss_id time_vt = SS_NONE; /* the period's column, in nanoseconds */
    for (size_t i = 0; i < L->vt_type.n && L->period_type; i++)
        if (L->vt_type.v[i] == L->period_type && L->vt_unit.v[i] == L->period_unit &&
            str_eq(L, L->period_unit, "nanoseconds") && vt_model[i] != SS_NONE)
            time_vt = vt_model[i];
    uint64_t n_mismatch = 0;
    if (!rc)
        rc = read_samples(L, vt_model, cr, &src, &n_mismatch);
    free(vt_model);
    if (!rc)
        load_warnings(L, dup, cr, n_mismatch, time_vt, first_src);
    return rc;
}

/* ---- decompression ------------------------------------------------------- */

/* Check the top-level fields of the decompressed data buf[*next..n) as they
 * arrive, so that data that is not a protobuf message (a gzip bomb of zeros,
 * a gzip file of something else) is refused at its first bad byte instead of
 * after inflating all of it.  *next is the offset of the next field not yet
 * checked (it may lie past n: a payload still to come).  A field cut off at
 * n waits for more data; the full parse after inflating reports the rest.
 * Returns 0, or -1 with *why set and *next at the bad field. */
static int scan_fields(const uint8_t *buf, size_t n, size_t *next, const char **why)
{
    while (*next < n) {
        size_t pos = *next;
        uint64_t tag, v;
        if (get_varint(buf, n, &pos, &tag)) {
            if (n - *next < 10)
                return 0; /* the tag is still arriving */
            *why = "truncated or overlong field tag";
            return -1;
        }
        if (tag >> 3 == 0 || tag >> 3 > 536870911) {
            *why = "invalid field number";
            return -1;
        }
        int wt = (int)(tag & 7);
        if (wt == WT_I64 || wt == WT_I32) {
            pos += wt == WT_I64 ? 8 : 4;
        } else if (wt == WT_VARINT || wt == WT_LEN) {
            size_t at = pos;
            if (get_varint(buf, n, &pos, &v)) {
                if (n - at < 10)
                    return 0;
                *why = wt == WT_LEN ? "truncated length" : "truncated or overlong varint";
                return -1;
            }
            if (wt == WT_LEN) {
                if (v > SIZE_MAX - pos) {
                    *why = "declared length runs past the end of the data";
                    return -1;
                }
                pos += (size_t)v;
            }
        } else {
            *why = "unsupported wire type (groups are not used by profile.proto)";
            return -1;
        }
        *next = pos;
    }
    return 0;
}

#define GZ_STEP ((size_t)4 << 20) /* bytes per inflate call: scan_fields sees bad data early */
/* Memory spent on decompressed data before its size is known: 32 x the
 * file, at least 32 MiB, at most the limit.  Data that needs more (a gzip
 * bomb, or a very repetitive profile) is first inflated only to count it. */
#define GZ_BUDGET_RATIO 32
#define GZ_BUDGET_MIN ((size_t)32 << 20)

/* Is the decompressed p[0..n), which is no Profile message, text (an Rprof file or folded stacks
 * that someone gzipped): its first 256 bytes printable (tabs and line ends allowed, UTF-8's high
 * bytes too)? */
static int gz_text(const unsigned char *p, size_t n)
{
    size_t k = n < 256 ? n : 256;
    for (size_t i = 0; i < k; i++)
        if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
            return 0;
    return k > 0;
}

/* The error of decompressed data buf[0..n) that is no Profile message
 * (scan_fields: `why` at byte `next`): gzipped text is named as such. */
static int not_pprof(const unsigned char *buf, size_t n, size_t next, const char *why,
                     const char *path, struct ss_error *err)
{
    if (!gz_text(buf, n))
        return ss_fail(err, SS_EINPUT,
                       "%s: byte %zu of the decompressed data: %s (not a pprof profile, or a "
                       "damaged one)",
                       path, next, why);
    char head[48];
    size_t k = 0;
    while (k + 1 < sizeof head && k < n && buf[k] != '\n' && buf[k] != '\r')
        head[k] = (char)buf[k], k++;
    head[k] = '\0';
    return ss_fail(err, SS_EINPUT,
                   "%s: gzip-compressed text, not a pprof profile (it begins \"%s%s\"): "
                   "stackscope reads text profiles uncompressed: gunzip -k %s and open what is "
                   "inside",
                   path, head, k + 1 == sizeof head ? "..." : "", path);
}

/* One pass of inflate over every gzip member of in[0..len).  With keep, the
 * output goes to *buf (capacity *cap, grown by doubling up to stop + 1) and
 * its top-level fields are checked as they arrive; without, to a scratch
 * buffer, only counted.  Stops once more than `stop` bytes came out.
 * Returns 0 with *out_n the bytes out (> stop: stopped there), or an error
 * naming the byte offset in the compressed file (or the decompressed data). */
static int inflate_pass(const unsigned char *in, size_t len, unsigned char **buf, size_t *cap,
                        int keep, size_t stop, size_t *out_n, const char *path,
                        struct ss_error *err)
{
    unsigned char scratch[1 << 16];
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return ss_fail(err, SS_ENOMEM, "%s: out of memory (zlib)", path);
    size_t n = 0, next = 0;
    int rc = 0;
    const char *why;
    z.next_in = (const unsigned char *)in;
    for (;;) {
        size_t at = (size_t)(z.next_in - in);
        z.avail_in = (uInt)(len - at > UINT32_MAX ? UINT32_MAX : len - at);
        if (keep && n == *cap) {
            size_t ncap = *cap > stop / 2 ? stop + 1 : *cap * 2;
            unsigned char *nb = realloc(*buf, ncap);
            if (!nb) {
                rc = ss_fail(err, SS_ENOMEM, "%s: out of memory (decompressed profile)", path);
                break;
            }
            *buf = nb;
            *cap = ncap;
        }
        size_t room = keep ? *cap - n : sizeof scratch;
        z.next_out = keep ? *buf + n : scratch;
        z.avail_out = (uInt)(room > GZ_STEP ? GZ_STEP : room);
        uInt given = z.avail_out;
        int zr = inflate(&z, Z_NO_FLUSH);
        n += given - z.avail_out;
        at = (size_t)(z.next_in - in);
        if (n > stop)
            break;
        if (keep && scan_fields(*buf, n, &next, &why)) {
            rc = not_pprof(*buf, n, next, why, path, err);
            break;
        }
        if (zr == Z_STREAM_END) {
            if (at == len)
                break;
            if (len - at >= 2 && in[at] == 0x1f && in[at + 1] == 0x8b) {
                inflateReset(&z); /* another gzip member follows */
                continue;
            }
            rc = ss_fail(err, SS_EINPUT, "%s: byte %zu: data after the end of the gzip stream",
                         path, at);
            break;
        }
        if (zr == Z_OK || (zr == Z_BUF_ERROR && z.avail_out == 0))
            continue; /* progress, or the output buffer is full */
        if (zr == Z_BUF_ERROR && at == len) {
            rc = ss_fail(err, SS_EINPUT,
                         "%s: byte %zu: truncated gzip data (the file ends before the "
                         "compressed stream does)",
                         path, len);
            break;
        }
        if (zr == Z_MEM_ERROR) {
            rc = ss_fail(err, SS_ENOMEM, "%s: out of memory (zlib)", path);
            break;
        }
        rc = ss_fail(err, SS_EINPUT, "%s: byte %zu: bad gzip data: %s", path, at,
                     z.msg ? z.msg : "inflate failed");
        break;
    }
    inflateEnd(&z);
    *out_n = n;
    return rc;
}

#ifdef HAVE_LIBDEFLATE
/* ---- one pass: the members inflated by libdeflate, on threads ------------ */

/* Each gzip member's trailer ends with its size mod 2^32 (ISIZE, RFC 1952),
 * so once the members are found, each can be inflated at once into its
 * place in one buffer: by libdeflate (several times as fast as zlib), one
 * member a thread at a time (stackscope's writer writes one member per
 * part, write_pprof.c).  A member starts where the one before it ends,
 * which only inflating it tells; so the starts are guessed first (every
 * "1f 8b 08 00" with a valid XFL byte: a header without flags, as the
 * writer's and Go's) and each guess is then proved by inflating: a member
 * must use exactly the bytes up to the next start, with a good CRC, and
 * come out exactly its ISIZE bytes.  Deflate data ends by itself, so
 * members that pass are the ones zlib reads one after another.  Anything
 * else (a member with flags after the first, a size that lies, a sum past
 * the budget, damaged or truncated data, data after the end) is left to
 * the zlib pass, which reads it or names the error as it always has. */

#define GZ_MAX_THREADS 64

struct gz_member {
    size_t in_off, in_len;   /* compressed: header to trailer */
    size_t out_off, out_len; /* decompressed: its ISIZE */
};

struct gz_job {
    const unsigned char *in;
    unsigned char *out;
    const struct gz_member *mb;
    size_t n, next; /* members; the next to take */
    int failed;
    pthread_mutex_t mu;
};

/* Is in[p..) the header of a member (no flags: see above)? */
static int gz_member_start(const unsigned char *in, size_t len, size_t p)
{
    return len - p >= 18 && in[p] == 0x1f && in[p + 1] == 0x8b && in[p + 2] == 8 &&
           in[p + 3] == 0 && (in[p + 8] == 0 || in[p + 8] == 2 || in[p + 8] == 4);
}

/* The members of in[0..len), their sizes from ISIZE, into *mb (caller
 * frees).  Returns their number, or 0: no plan (a sum over `budget`, a
 * member too short, no memory). */
static size_t gz_plan(const unsigned char *in, size_t len, size_t budget, struct gz_member **mb)
{
    VEC(struct gz_member) v = {0};
    size_t start = 0, total = 0;
    while (start < len) {
        /* the next guessed start: a member is at least 18 bytes */
        size_t end = len;
        for (size_t p = start + 18; p + 18 <= len;) {
            const unsigned char *q = memchr(in + p, 0x1f, len - 18 + 1 - p);
            if (!q)
                break;
            p = (size_t)(q - in);
            if (gz_member_start(in, len, p)) {
                end = p;
                break;
            }
            p++;
        }
        if (end - start < 18 || VEC_PUSH(v, ((struct gz_member){start, end - start, total, 0}))) {
            VEC_FREE(v);
            return 0;
        }
        const unsigned char *t = in + end - 4;
        size_t isize = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;
        if (isize > budget - total) {
            VEC_FREE(v);
            return 0;
        }
        v.v[v.n - 1].out_len = isize;
        total += isize;
        start = end;
    }
    *mb = v.v;
    return v.n;
}

/* Inflate the members the job has left, one at a time; a member that is
 * not what the plan says fails the job. */
static void *gz_job_run(void *arg)
{
    struct gz_job *j = arg;
    struct libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    for (;;) {
        pthread_mutex_lock(&j->mu);
        if (!d)
            j->failed = 1;
        size_t i = j->failed ? j->n : j->next++;
        pthread_mutex_unlock(&j->mu);
        if (i >= j->n)
            break;
        const struct gz_member *m = &j->mb[i];
        size_t used = 0, out = 0;
        enum libdeflate_result r = libdeflate_gzip_decompress_ex(
            d, j->in + m->in_off, m->in_len, j->out + m->out_off, m->out_len, &used, &out);
        if (r != LIBDEFLATE_SUCCESS || used != m->in_len || out != m->out_len) {
            pthread_mutex_lock(&j->mu);
            j->failed = 1;
            pthread_mutex_unlock(&j->mu);
        }
    }
    libdeflate_free_decompressor(d);
    return NULL;
}

int ss_pprof_inflate_members(const unsigned char *in, size_t len, size_t budget,
                             unsigned char **out, size_t *out_len)
{
    struct gz_member *mb = NULL;
    size_t n = gz_plan(in, len, budget, &mb);
    if (!n)
        return 0;
    size_t total = mb[n - 1].out_off + mb[n - 1].out_len;
    struct gz_job j = {in, NULL, mb, n, 0, 0, PTHREAD_MUTEX_INITIALIZER};
    if (total == 0 || !(j.out = ss_alloc_array(total, 1))) {
        free(mb);
        return total == 0 ? 0 : -1;
    }
    unsigned threads = ss_threads(GZ_MAX_THREADS);
    if (threads > n)
        threads = (unsigned)n;
    pthread_t th[GZ_MAX_THREADS];
    int started[GZ_MAX_THREADS] = {0};
    if (threads > 1)
        (void)libdeflate_crc32(0, "", 1); /* picks its code before the threads (write_pprof.c) */
    for (unsigned t = 1; t < threads; t++)
        started[t] = pthread_create(&th[t], NULL, gz_job_run, &j) == 0;
    gz_job_run(&j);
    for (unsigned t = 1; t < threads; t++)
        if (started[t])
            pthread_join(th[t], NULL);
    pthread_mutex_destroy(&j.mu);
    free(mb);
    if (j.failed) {
        free(j.out);
        return 0;
    }
    *out = j.out;
    *out_len = total;
    return 1;
}
#else
int ss_pprof_inflate_members(const unsigned char *in, size_t len, size_t budget,
                             unsigned char **out, size_t *out_len)
{
    (void)in, (void)len, (void)budget, (void)out, (void)out_len;
    return 0; /* the zlib pass reads every file */
}
#endif

/* Inflate gzip data (one or more members) into a new buffer of at most
 * max_bytes.  Memory is spent on decompressed data up to a budget of
 * GZ_BUDGET_RATIO x the file: members whose trailers' sizes add up within
 * it are inflated in one pass (ss_pprof_inflate_members); the rest by zlib,
 * where memory follows the data actually inflated, never a size the file
 * claims; past the budget, the data is first counted without being kept,
 * and refused over max_bytes (then inflated again into a buffer of its
 * exact size).  Data that is not protobuf fields is refused at its first
 * bad field (as it arrives, in the zlib pass).  Returns 0 and sets
 * *out, *out_len (caller frees), or an error. */
static int gunzip(const unsigned char *in, size_t len, size_t max_bytes, const char *path,
                  unsigned char **out, size_t *out_len, struct ss_error *err)
{
    size_t budget = len <= max_bytes / GZ_BUDGET_RATIO ? len * GZ_BUDGET_RATIO : max_bytes;
    if (budget < GZ_BUDGET_MIN)
        budget = GZ_BUDGET_MIN;
    if (budget > max_bytes)
        budget = max_bytes;
    int one = ss_pprof_inflate_members(in, len, budget, out, out_len);
    if (one < 0)
        return ss_fail(err, SS_ENOMEM, "%s: out of memory (decompressed profile)", path);
    if (one) {
        size_t next = 0;
        const char *why;
        if (scan_fields(*out, *out_len, &next, &why)) {
            int rc = not_pprof(*out, *out_len, next, why, path, err);
            free(*out);
            return rc;
        }
        return 0;
    }
    size_t cap = 1 << 16;
    if (len >= 18) {
        /* ISIZE, the size mod 2^32 of the last member: a good first guess,
         * when within the budget. */
        const unsigned char *t = in + len - 4;
        size_t isize = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 | (size_t)t[3] << 24;
        if (isize >= cap && isize <= budget)
            cap = isize + 1;
    }
    unsigned char *buf = malloc(cap);
    if (!buf)
        return ss_fail(err, SS_ENOMEM, "%s: out of memory (decompressed profile)", path);
    size_t n;
    int rc = inflate_pass(in, len, &buf, &cap, 1, budget, &n, path, err);
    if (!rc && n > budget) {
        free(buf);
        buf = NULL;
        if (budget < max_bytes)
            rc = inflate_pass(in, len, NULL, NULL, 0, max_bytes, &n, path, err);
        if (!rc && n > max_bytes)
            rc = ss_fail(err, SS_EINPUT,
                         "%s: decompresses to more than %zu MiB, the limit (a damaged file or "
                         "a gzip bomb?)",
                         path, max_bytes >> 20);
        if (!rc) {
            cap = n + 1;
            buf = malloc(cap);
            if (!buf)
                return ss_fail(err, SS_ENOMEM, "%s: out of memory (decompressed profile)", path);
            rc = inflate_pass(in, len, &buf, &cap, 1, n, &n, path, err);
        }
    }
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    *out_len = n;
    return 0;
}

/* ---- entry points ---------------------------------------------------------- */

/* ss_load_pprof_mem; *whole, when not NULL, holds data and is released
 * (and set to NULL) once gzip data are inflated: the compressed bytes are
 * not needed while the model is built. */
static int load_mem(struct ss_model *m, const unsigned char *data, size_t len, size_t max_bytes,
                    const struct ss_load_opts *o, const char *path, struct ss_error *err,
                    struct ss_whole **whole)
{
    if (len == 0)
        return ss_fail(err, SS_EINPUT, "%s: empty file", path);
    unsigned char *raw = NULL;
    size_t raw_len = len;
    int gz = len >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    if (gz) {
        int rc = gunzip(data, len, max_bytes, path, &raw, &raw_len, err);
        if (rc)
            return rc;
        if (whole) {
            ss_reader_whole_free(*whole);
            *whole = NULL;
            data = NULL;
        }
        if (raw_len == 0) {
            free(raw);
            return ss_fail(err, SS_EINPUT, "%s: the gzip data decompresses to nothing", path);
        }
    } else if (len > max_bytes) {
        return ss_fail(err, SS_EINPUT, "%s: larger than %zu MiB, the limit", path, max_bytes >> 20);
    }
    struct loader L;
    memset(&L, 0, sizeof L);
    L.m = m;
    L.path = path;
    L.err = err;
    L.no_drop_frames = o && o->no_drop_frames;
    L.buf = gz ? raw : data;
    L.len = raw_len;
    L.gz = gz;
    L.alloc.alloc = arena_alloc;
    L.alloc.free = arena_free_one;
    L.alloc.allocator_data = &L.arena;
    int rc = load(&L);
    arena_free(&L.arena);
    VEC_FREE(L.strs);
    free(L.str_ids);
    VEC_FREE(L.funcs);
    VEC_FREE(L.locs);
    VEC_FREE(L.lines);
    VEC_FREE(L.vt_type);
    VEC_FREE(L.vt_unit);
    VEC_FREE(L.comments);
    VEC_FREE(L.maps);
    idmap_free(&L.fn_map);
    idmap_free(&L.loc_map);
    idmap_free(&L.map_map);
    free(L.map_model);
    free(L.prune);
    free(L.fn_model);
    VEC_FREE(L.loc_frames);
    VEC_FREE(L.line_fn);
    VEC_FREE(L.lidx);
    VEC_FREE(L.rs);
    VEC_FREE(L.frames);
    VEC_FREE(L.labs);
    VEC_FREE(L.marks);
    VEC_FREE(L.q_loc);
    VEC_FREE(L.q_val);
    memo_free(&L.memo);
    smemo_free(&L.smemo);
    free(L.vals);
    free(raw);
    return rc;
}

int ss_load_pprof_mem(struct ss_model *m, const unsigned char *data, size_t len, size_t max_bytes,
                      const struct ss_load_opts *o, const char *path, struct ss_error *err)
{
    return load_mem(m, data, len, max_bytes, o, path, err, NULL);
}

int ss_load_pprof(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err)
{
    struct ss_whole w, *whole = &w;
    int rc = ss_reader_whole(r, SS_PPROF_MAX_BYTES, "", &w, err);
    if (rc)
        return rc;
    rc = load_mem(m, w.p, w.n, SS_PPROF_MAX_BYTES, r->opts, path, err, &whole);
    if (whole)
        ss_reader_whole_free(whole);
    return rc;
}

/* ---- raw protobuf: a well-formed prefix of a Profile message ------------- */

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
int ss_pprof_sniff_raw(const unsigned char *p, size_t n, int whole, uint64_t size, const char **why,
                       size_t *at)
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
