/* load_rprof.c - Rprof reader (see load_rprof.h and stackscope(1), INPUT).
 *
 * Speed comes from a per-session line cache: real profiles repeat the same
 * stacks over and over, so the text of a sample line (after the memory
 * prefix) is hashed once and looked up; only new lines are tokenised.
 *
 * A large regular file is parsed in parallel (STACKSCOPE_THREADS, default
 * the number of processors): it is cut into chunks at line ends, worker
 * threads parse each chunk into a partial model of its own (struct chunk:
 * local strings, functions, locations and stacks, in the order of their
 * first appearance in the chunk, and the chunk's samples as local stack
 * ids), and the main thread merges the chunks in file order into the
 * model.  Local ids are mapped in order, segment by segment (a segment is
 * the part of a chunk inside one session), so every id, session, file
 * number and warning comes out exactly as the single-threaded loader makes
 * them.  What a chunk cannot know (the flags and the `#File` numbers of a
 * session that began in an earlier chunk) it records as placeholders that
 * the merge resolves; errors are recorded with the chunk's line number and
 * reported by the merge with the file's, so the message is the one the
 * single-threaded loader gives.
 */
#include "load_rprof.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "hash.h"
#include "hashtab.h"
#include "loader.h"
#include "threads.h"
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
 * time at 10 ms resolution: not worth a second table.
 *
 * A line is first looked for by its head (fast_sample): `head` maps a hash
 * of the first LC_HEAD bytes of a line (after the memory prefix; fewer when
 * its line end comes first) to the two lines last seen with that head, and
 * a guess is taken when its text, line end included, equals the bytes in the
 * reader's buffer.  So a line the cache knows is found without searching
 * for its end, which was a sixth of the load's CPU: its end is the end of
 * the text it equals.  The two lines last seen with the first 32 bytes are
 * the line of 97% of the samples of bench/'s memory + line file (one: 92%;
 * with 64 bytes, 98%, for twice the hashing).  A guess is only a guess: a slot
 * may name a line of an earlier session, or any id at all after lc_clear,
 * and only an equal text is taken. */
#define LC_HEAD 32
#define LC_HEAD_BITS 12
/* fast_sample asks for the bytes PF_DIST ahead of the line it reads (three
 * or four lines of a memory + line profile), so that they come from memory
 * while it compares: without, its first touch of a line cost 10% more CPU */
#define PF_DIST 1024

/* The cache lives as long as the model's ids (the whole file, or a
 * chunk), across sessions and `#File` lines: a file of many sessions
 * repeats their lines, and clearing it at each header made the loader
 * tokenise every distinct line of every session again (10,000 instructions
 * a line of the demo; half the load of bench/'s realb1m.out).  What a line
 * means depends on the `#File` numbers it uses, so each line says when its
 * stack holds (lc_valid):
 *   - a line without a position token (FILE#LINE): always;
 *   - one whose numbers were all declared: while the session's file table
 *     is in the state it was parsed in.  A state is the path of `#File`
 *     lines from the session's start (ftab: 0 is the empty table at a
 *     header; lc_declare follows an edge (state, number, path), made once),
 *     so a session that declares its files as an earlier one did comes back
 *     to the earlier one's states and finds its lines;
 *   - one that used a number not declared yet (a placeholder, which the
 *     session's end or the merge resolves): in that state of that session
 *     only.
 * A line found with a stale stack is tokenised again and its entry
 * updated. */
#define LC_ANY UINT32_MAX /* lc_line.ftab of a line without a position token */

struct lc_line {
    uint64_t off; /* text in arena */
    uint32_t len; /* without its line end */
    uint32_t raw; /* with its line end (LF or CR LF, stored after the text);
                   * 0: not stored (a file of CR line ends) */
    ss_id stack;
    uint32_t ftab; /* the file table's state it holds in, or LC_ANY */
    uint32_t sess; /* 0, or the only session it holds in (a placeholder used) */
};

/* An edge of the file tables' states: `#File k: path` in state `from` */
struct ftab_edge {
    uint32_t from;
    ss_id path;
    uint64_t k;
};

struct line_cache {
    struct ss_idset index;
    VEC(struct lc_line) line;
    char *arena;
    size_t arena_n, arena_cap;
    uint32_t *head; /* 2 << LC_HEAD_BITS line ids, newest first per head */
    uint32_t ftab;  /* the current state of the file table (0: empty) */
    uint32_t sess;  /* the current session's serial number */
    struct ss_idset edge_index;
    VEC(struct ftab_edge) edge; /* edge i leads to state i + 1 */
};

/* Forget the lines (their stacks may have been renumbered). */
static void lc_clear(struct line_cache *c)
{
    ss_idset_clear(&c->index);
    c->line.n = 0;
    c->arena_n = 0;
}

/* Forget the lines and the states (a chunk's end: its ids go). */
static void lc_reset(struct line_cache *c)
{
    lc_clear(c);
    ss_idset_clear(&c->edge_index);
    c->edge.n = 0;
    c->ftab = 0;
}

static void lc_free(struct line_cache *c)
{
    ss_idset_free(&c->index);
    ss_idset_free(&c->edge_index);
    VEC_FREE(c->line);
    VEC_FREE(c->edge);
    free(c->arena);
    free(c->head);
    memset(c, 0, sizeof *c);
}

/* A session begins: its file table is empty. */
static void lc_session(struct line_cache *c)
{
    c->ftab = 0;
    if (++c->sess == 0) { /* 2^32 sessions: no line may think it is in this one */
        lc_clear(c);
        c->sess = 1;
    }
}

static int edge_eq(const void *ctx, uint32_t id, const void *key)
{
    const struct ftab_edge *e = &((const struct line_cache *)ctx)->edge.v[id];
    const struct ftab_edge *k = key;
    return e->from == k->from && e->path == k->path && e->k == k->k;
}

/* `#File k: path` changed the file table: move to the state it leads to.
 * Returns 0 or -1 (out of memory). */
static int lc_declare(struct line_cache *c, uint64_t k, ss_id path)
{
    struct ftab_edge e = {c->ftab, path, k};
    uint64_t h = ss_mix64((uint64_t)e.from << 32 | path) ^ ss_mix64(k);
    size_t pos;
    if (ss_idset_reserve(&c->edge_index, 1) || VEC_RESERVE(c->edge, c->edge.n + 1) ||
        c->edge.n >= UINT32_MAX - 2)
        return -1;
    uint32_t id = ss_idset_find(&c->edge_index, h, edge_eq, c, &e, &pos);
    if (id == SS_NONE) {
        id = (uint32_t)c->edge.n;
        c->edge.v[c->edge.n++] = e;
        ss_idset_insert(&c->edge_index, pos, h, id);
    }
    c->ftab = id + 1;
    return 0;
}

/* Does cached line l's stack hold here? */
static inline int lc_valid(const struct line_cache *c, const struct lc_line *l)
{
    return l->ftab == LC_ANY || (l->ftab == c->ftab && (!l->sess || l->sess == c->sess));
}

/* How a line's stack depends on the file table (parse_stack's `dep`) */
enum { DEP_NONE, DEP_DECLARED, DEP_PLACEHOLDER };

/* Set line l's validity from what its parse used (dep). */
static void lc_set_dep(const struct line_cache *c, struct lc_line *l, int dep)
{
    l->ftab = dep == DEP_NONE ? LC_ANY : c->ftab;
    l->sess = dep == DEP_PLACEHOLDER ? c->sess : 0;
}

/* The slot of a head of LC_HEAD bytes as four words (a shorter head's
 * words are zero after it: a sample line holds no NUL byte). */
static uint32_t *lc_head_slot_words(const struct line_cache *c, const uint64_t w[4])
{
    uint64_t h = (w[0] * 0x9e3779b97f4a7c15ULL) ^ (w[1] * 0xc2b2ae3d27d4eb4fULL) ^
                 (w[2] * 0x165667b19e3779f9ULL) ^ (w[3] * 0xd6e8feb86659fd93ULL);
    h ^= h >> 32;
    h *= 0xff51afd7ed558ccdULL;
    return c->head + 2 * (h >> (64 - LC_HEAD_BITS));
}

/* The slot of the head of a line: its first LC_HEAD bytes, or the klen
 * before its LF. */
static uint32_t *lc_head_slot(const struct line_cache *c, const char *b, size_t klen)
{
    uint64_t w[4] = {0, 0, 0, 0};
    memcpy(w, b, klen);
    return lc_head_slot_words(c, w);
}

/* Where the first LF of the LC_HEAD bytes at b is (in words w, their
 * copy), or LC_HEAD: a word's zero bytes after an XOR with LF, the lowest
 * exactly (a false one only ever follows a true one). */
static size_t head_lf(const char *b, const uint64_t w[4])
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    (void)b;
    for (int k = 0; k < 4; k++) {
        uint64_t t = w[k] ^ 0x0a0a0a0a0a0a0a0aULL;
        uint64_t z = (t - 0x0101010101010101ULL) & ~t & 0x8080808080808080ULL;
        if (z)
            return 8 * (size_t)k + (size_t)__builtin_ctzll(z) / 8;
    }
    return LC_HEAD;
#else
    (void)w;
    const char *nl = memchr(b, '\n', LC_HEAD);
    return nl ? (size_t)(nl - b) : LC_HEAD;
#endif
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LC_WORDS 1 /* heads are compared and hashed as words */
/* Keep the first n (< LC_HEAD) bytes of the words w, zero the rest: the
 * words lc_head_slot hashes for a head of n bytes. */
static inline void head_mask(uint64_t w[4], size_t n)
{
    size_t k = n / 8;
    w[k] &= (1ULL << (8 * (n % 8))) - 1;
    for (k++; k < 4; k++)
        w[k] = 0;
}

/* Do the first n (at most LC_HEAD) bytes of the words w equal the bytes
 * at t (LC_HEAD of which can be read)?  For a short line, memcmp's call
 * was a tenth of its CPU. */
static inline int head_eq(const uint64_t w[4], const char *t, size_t n)
{
    uint64_t a[4], d = 0;
    memcpy(a, t, LC_HEAD);
    for (size_t k = 0; k < 4 && 8 * k < n; k++) {
        uint64_t x = w[k] ^ a[k];
        if (n - 8 * k < 8)
            x &= (1ULL << (8 * (n - 8 * k))) - 1;
        d |= x;
    }
    return d == 0;
}
#endif

/* Line `id` was just seen with the head at slot */
static void lc_head_note(uint32_t *slot, uint32_t id)
{
    if (slot[0] != id) {
        slot[1] = slot[0];
        slot[0] = id;
    }
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

/* The id of the line s[0..len) in the cache, or SS_NONE. */
static uint32_t lc_find(const struct line_cache *c, const char *s, size_t len, uint64_t h)
{
    struct lc_key k = {s, len};
    size_t pos;
    return ss_idset_find(&c->index, h, lc_eq, c, &k, &pos);
}

/* Remember line -> stack (the line is not in the cache), with its line end
 * when `raw` (s[len..raw) holds it; 0: none known) and what its parse used
 * (dep); returns its id, or SS_NONE when memory is short (the cache is
 * only an accelerator).  A full cache is emptied first: it lives across
 * sessions, whose lines may differ. */
static uint32_t lc_put(struct line_cache *c, const char *s, size_t len, size_t raw, uint64_t h,
                       ss_id stack, int dep)
{
    size_t n = raw ? raw : len;
    if (c->arena_n + n > LINE_CACHE_BYTES) {
        lc_clear(c);
        if (n > LINE_CACHE_BYTES)
            return SS_NONE;
    }
    if (!c->head) {
        c->head = ss_alloc_array((size_t)2 << LC_HEAD_BITS, sizeof *c->head);
        if (!c->head)
            return SS_NONE;
        memset(c->head, 0xff, ((size_t)2 << LC_HEAD_BITS) * sizeof *c->head);
    }
    if (ss_idset_reserve(&c->index, 1) || VEC_RESERVE(c->line, c->line.n + 1) ||
        ss_grow((void **)&c->arena, &c->arena_cap, c->arena_n + n + LC_HEAD, 1))
        return SS_NONE;
    struct lc_key k = {s, len};
    size_t pos;
    if (ss_idset_find(&c->index, h, lc_eq, c, &k, &pos) != SS_NONE)
        return SS_NONE;
    memcpy(c->arena + c->arena_n, s, n);
    /* the LC_HEAD bytes after the text are read (lc_head_eq), and defined */
    memset(c->arena + c->arena_n + n, 0, LC_HEAD);
    struct lc_line l = {c->arena_n, (uint32_t)len, (uint32_t)raw, stack, LC_ANY, 0};
    lc_set_dep(c, &l, dep);
    c->line.v[c->line.n] = l;
    ss_idset_insert(&c->index, pos, h, (uint32_t)c->line.n);
    c->arena_n += n;
    return (uint32_t)c->line.n++;
}

struct idvec {
    ss_id *v;
    size_t n, cap;
};

/* ---- chunks (parallel loading) -------------------------------------------- */

/* A segment: the lines of a chunk inside one session.  The first segment
 * continues the session of the chunk before (or, in the file's first chunk,
 * holds what comes before the first header); every later one starts at a
 * header. */
struct seg {
    int header;     /* starts with a header line */
    uint32_t flags; /* header: its flags; else SS_SRC_MEMORY when the first sample
                     * line had a memory prefix (what the chunk assumed) */
    uint64_t interval;
    uint64_t line;              /* header: its line; else the first line that is not blank
                                 * (0: none); chunk line numbers */
    uint64_t first_sample_line; /* not header: the line that decided `flags`, 0: none */
    /* the local tables' sizes and the chunk's samples at the segment's end */
    size_t end_str, end_fn, end_loc, end_stack, end_sample, end_decl;
};

/* A `#File K: path` line of the chunk (path a local string id). */
struct decl {
    uint64_t k;
    ss_id path;
};

/* A file number K that the chunk used without a `#File K` line before it
 * in the same segment: the local string `str` stands for whatever K means
 * in the session at the segment's start (the merge knows). */
struct placeholder {
    ss_id str;
    uint64_t k;
};

struct chunk {
    uint64_t start, end; /* bytes [start, end) of the file, whole lines */
    struct ss_model m;   /* local tables (the value types are not used) */
    VEC(struct seg) seg;
    VEC(struct decl) decl;
    VEC(struct placeholder) ph; /* in string id order */
    VEC(ss_id) stack;           /* one local stack id per sample */
    VEC(int64_t) mem;           /* 4 values per sample (0 for a plain one), or empty */
    uint64_t lines;             /* lines read */
    uint64_t blank, first_blank, capped, first_capped;
    uint64_t cut_line; /* the last line, unterminated: dropped (0: none) */
    int cut;           /* the file lost bytes: the chunk ends before its end */
    uint64_t cut_at;   /* then: the file offset of the first byte not read */
    int rc;            /* error: SS_* code, err_line/err_col/err_what or err */
    uint64_t err_line; /* 0 when err holds the whole message (out of memory) */
    size_t err_col;
    char err_what[256];
    struct ss_error err;
    int done; /* parsed (under the loader's mutex) */
};

static void chunk_free(struct chunk *ck)
{
    ss_model_free(&ck->m);
    VEC_FREE(ck->seg);
    VEC_FREE(ck->decl);
    VEC_FREE(ck->ph);
    VEC_FREE(ck->stack);
    VEC_FREE(ck->mem);
}

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
    int dep;           /* what the line parsed last used of the file table (DEP_*) */

    /* counts for warnings */
    uint64_t blank_lines, capped_lines, first_blank, first_capped;

    /* chunk mode (a worker of the parallel loader): the partial model is
     * ck->m; the session of the first segment is not known (mem_unknown:
     * nor whether it has memory profiling, until its first sample line) */
    struct chunk *ck;
    int mem_unknown;

    uintptr_t pf; /* fast_sample: the next address to prefetch */
};

/* The messages the merge also gives (a chunk's assumption found wrong). */
static const char msg_prefix_unexpected[] =
    "memory prefix ':small_v:big_v:nodes:dup_count:' in a session "
    "whose header has no 'memory profiling:'";
static const char msg_prefix_missing[] = "missing memory prefix ':small_v:big_v:nodes:dup_count:' "
                                         "(the header says memory profiling)";

static int perr(struct parser *p, size_t col, const char *what)
{
    if (p->ck) { /* the merge says it, with the file's line number */
        p->ck->err_line = p->r->line_no;
        p->ck->err_col = col;
        snprintf(p->ck->err_what, sizeof p->ck->err_what, "%s", what);
        return p->err->code = SS_EINPUT;
    }
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

/* Hash of a sample line for the line cache.  Longer lines are hashed
 * sparsely: 32 bytes of the head, of the middle and of the tail, in one
 * pass, and the length (a bijection of it, after the mixing).  A
 * collision only costs a comparison, because every hit is verified byte by
 * byte; the three hashes and mixes of a head of 96 bytes it replaced were
 * a tenth of the parallel load's CPU on ml1m. */
static uint64_t line_hash(const char *b, size_t len)
{
    if (len <= 96)
        return ss_hash(b, len);
    char w[96];
    memcpy(w, b, 32);
    memcpy(w + 32, b + len / 2 - 16, 32);
    memcpy(w + 64, b + len - 32, 32);
    return ss_hash(w, sizeof w) ^ (uint64_t)len * 0x9e3779b97f4a7c15ULL;
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
    if (!changed)
        return 0;
    lc_clear(&p->cache); /* stacks may be renumbered */
    if (ss_model_reindex_locations(p->m))
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
        /* a chunk's placeholder holds CR LF, which no name or path of a
         * line of the chunk can: it is never taken for one */
        int n = p->ck
                    ? snprintf(buf, sizeof buf, "\r\n%zu:%llu", p->ck->seg.n, (unsigned long long)k)
                    : snprintf(buf, sizeof buf, "\001undeclared %u:%llu", p->session_no,
                               (unsigned long long)k);
        ss_id id = ss_model_intern(p->m, buf, (size_t)n);
        struct placeholder ph = {id, k};
        if (id == SS_NONE || (p->ck && VEC_PUSH(p->ck->ph, ph))) {
            *oom = 1;
            return SS_NONE;
        }
        p->provisional.v[k] = id;
    }
    return p->provisional.v[k];
}

/* An unnamed file (`#File K: ` with an empty path: code typed at R's
 * prompt) is shown as "(unnamed file K)" (source.h): the first such K is
 * kept as the model's `unnamed file` meta entry.  Returns 0 or -1 (OOM). */
static int note_unnamed(struct ss_model *m, ss_id path, uint64_t k)
{
    if (ss_strtab_len(&m->strs, path) != 0)
        return 0;
    ss_id key = ss_model_intern_cstr(m, "unnamed file");
    if (key == SS_NONE)
        return -1;
    for (size_t i = 0; i < m->meta.n; i++)
        if (m->meta.v[i].key == key)
            return 0;
    char num[32];
    snprintf(num, sizeof num, "%llu", (unsigned long long)k);
    return ss_model_add_meta(m, SS_NONE, key, ss_model_intern_cstr(m, num));
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
    ss_id old = p->files.v[k];
    p->files.v[k] = path;
    struct decl d = {k, path};
    if (p->ck ? VEC_PUSH(p->ck->decl, d) : note_unnamed(p->m, path, k))
        return ss_nomem(p->err, "file table");
    /* Cached lines may have meant another file by this number. */
    if (old != path && lc_declare(&p->cache, k, path))
        return ss_nomem(p->err, "file table");
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

/* Record the end of the chunk's current segment. */
static void seg_close(struct parser *p)
{
    struct chunk *ck = p->ck;
    struct seg *g = &ck->seg.v[ck->seg.n - 1];
    g->end_str = ck->m.strs.n;
    g->end_fn = ck->m.functions.n;
    g->end_loc = ck->m.locations.n;
    g->end_stack = ss_model_nstacks(&ck->m);
    g->end_sample = ck->stack.n;
    g->end_decl = ck->decl.n;
}

/* Chunk mode: a new segment (a header, or the chunk's start). */
static int seg_open(struct parser *p, int header, uint32_t flags, uint64_t interval, uint64_t line)
{
    struct chunk *ck = p->ck;
    if (ck->seg.n)
        seg_close(p);
    struct seg g;
    memset(&g, 0, sizeof g);
    g.header = header;
    g.flags = flags;
    g.interval = interval;
    g.line = line;
    if (VEC_PUSH(ck->seg, g))
        return ss_nomem(p->err, "chunk");
    p->files.n = 0;
    p->provisional.n = 0;
    lc_session(&p->cache);
    p->flags = flags;
    p->mem_unknown = !header;
    return 0;
}

static int start_session(struct parser *p, uint32_t flags, uint64_t interval_us, uint64_t line)
{
    if (p->ck)
        return seg_open(p, 1, flags, interval_us, line);
    if (p->have_session && resolve_provisional(p))
        return p->err->code;
    lc_session(&p->cache);
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = p->type_id;
    src.uri = p->uri_id;
    src.session = ++p->session_no;
    src.header_line = (uint32_t)line;
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
    p->dep = DEP_NONE;
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
            if (fno < p->files.n && p->files.v[fno] != SS_NONE) {
                if (p->dep == DEP_NONE)
                    p->dep = DEP_DECLARED;
            } else {
                p->dep = DEP_PLACEHOLDER;
            }
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

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* How many of the eight bytes of w (the first in its low byte) are
 * decimal digits before the first that is not.  A byte is a digit when its
 * high nibble is 3 and adding 6 keeps it 3; the carry of a byte >= 0xfa
 * reaches only the bytes after it, and it is no digit itself. */
static inline unsigned swar_digits(uint64_t w)
{
    const uint64_t hi = 0xf0f0f0f0f0f0f0f0ULL, three = 0x3030303030303030ULL;
    uint64_t bad = ((w & hi) ^ three) | (((w + 0x0606060606060606ULL) & hi) ^ three);
    return bad ? (unsigned)__builtin_ctzll(bad) / 8 : 8;
}

/* The value of the first n (1 to 8) digits of w: shifted to the top, the
 * digits below them count as leading zeros; then pairs, fours and the
 * eight are combined by three multiplications. */
static inline uint64_t swar_value(uint64_t w, unsigned n)
{
    uint64_t x = (w & 0x0f0f0f0f0f0f0f0fULL) << (8 * (8 - n));
    x = x * 10 + (x >> 8);
    return ((x & 0x000000ff000000ffULL) * (100 + (1000000ULL << 32)) +
            ((x >> 16) & 0x000000ff000000ffULL) * (1 + (10000ULL << 32))) >>
           32;
}
#endif

/* parse_uint, eight bytes at a time where eight are there (the memory
 * prefix's numbers: one per field of every sample line). */
static inline int parse_uint_fast(const char *s, size_t len, size_t *i, uint64_t *out)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    static const uint64_t pow10[9] = {1,      10,      100,      1000,     10000,
                                      100000, 1000000, 10000000, 100000000};
    size_t at = *i, nd = 0;
    uint64_t v = 0;
    while (len - at >= 8) {
        uint64_t w;
        memcpy(&w, s + at, 8);
        unsigned n = swar_digits(w);
        nd += n;
        if (nd > 18)
            return -1;
        if (n)
            v = v * pow10[n] + swar_value(w, n);
        at += n;
        if (n < 8) {
            if (nd == 0)
                return -1;
            *i = at;
            *out = v;
            return 0;
        }
    }
#endif
    return parse_uint(s, len, i, out); /* near the end of the line: from the start */
}

/* Parse the memory prefix `:small_v:big_v:nodes:dup_count:` at the start
 * of s[0..len) (s[0] is ':') into mv[]; returns the length of the prefix,
 * or 0 with *bad set to the column of the first bad byte. */
static size_t memory_prefix(const char *s, size_t len, int64_t mv[4], size_t *bad)
{
    size_t i = 1;
    for (int k = 0; k < 4; k++) {
        uint64_t v;
        if (parse_uint_fast(s, len, &i, &v) || i >= len || s[i] != ':') {
            *bad = i + 1;
            return 0;
        }
        i++;
        mv[k] = (int64_t)v;
    }
    return i;
}

#if defined(__SSE2__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PREFIX_SSE2 48 /* bytes memory_prefix_sse2 needs (it reads 38 at most) */
/* The value of the n (1 to 18) digits at s (where eight bytes can be read
 * from each of them). */
static inline uint64_t digits_value(const char *s, unsigned n)
{
    uint64_t w, v = 0;
    while (n > 8) {
        memcpy(&w, s, 8);
        v = v * 100000000 + swar_value(w, 8);
        s += 8;
        n -= 8;
    }
    static const uint64_t pow10[9] = {1,      10,      100,      1000,     10000,
                                      100000, 1000000, 10000000, 100000000};
    memcpy(&w, s, 8);
    return v * pow10[n] + swar_value(w, n);
}

/* The values of the four numbers of n[k] (1 to 8) digits after the colons
 * at s[p[k]], at once: each number's eight bytes moved to the top of a
 * word (as swar_value), two words a vector, then digits to pairs, pairs to
 * fours (madd) and fours to eights (packed, madd) for the four together.
 * One swar_value after another were a tenth of the CPU of a memory + line
 * profile's known line. */
static inline void digits4(const char *s, const unsigned p[5], const unsigned n[4], int64_t mv[4])
{
    uint64_t w[4];
    for (int k = 0; k < 4; k++) {
        memcpy(&w[k], s + p[k] + 1, 8);
        w[k] = (w[k] & 0x0f0f0f0f0f0f0f0fULL) << (8 * (8 - n[k]));
    }
    const __m128i low = _mm_set1_epi16(0x00ff), ten = _mm_set1_epi16(10);
    const __m128i hundred = _mm_set1_epi32(0x00010064);      /* 16-bit lanes 100, 1 */
    const __m128i ten_thousand = _mm_set1_epi32(0x00012710); /* 10000, 1 */
    __m128i a = _mm_set_epi64x((long long)w[1], (long long)w[0]);
    __m128i b = _mm_set_epi64x((long long)w[3], (long long)w[2]);
    a = _mm_add_epi16(_mm_mullo_epi16(_mm_and_si128(a, low), ten), _mm_srli_epi16(a, 8));
    b = _mm_add_epi16(_mm_mullo_epi16(_mm_and_si128(b, low), ten), _mm_srli_epi16(b, 8));
    a = _mm_madd_epi16(a, hundred);
    b = _mm_madd_epi16(b, hundred);
    __m128i r = _mm_madd_epi16(_mm_packs_epi32(a, b), ten_thousand);
    uint32_t v[4];
    _mm_storeu_si128((__m128i *)(void *)v, r);
    for (int k = 0; k < 4; k++)
        mv[k] = (int64_t)v[k];
}

/* memory_prefix for a prefix within the first 32 of the PREFIX_SSE2 bytes
 * at s (s[0] is ':'): its five colons found at once, then its four numbers
 * parsed independently of each other (memory_prefix parses them one after
 * another, each number's start waiting for the end of the one before: a
 * third of the CPU of a memory profile's known sample line).  Returns the
 * prefix's length, or 0 when it is longer, a number has more than 18
 * digits, or anything is wrong: memory_prefix then parses it, or says what
 * is wrong. */
static size_t memory_prefix_sse2(const char *s, int64_t mv[4])
{
    const __m128i colon = _mm_set1_epi8(':'), zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)s),
            b = _mm_loadu_si128((const __m128i *)(const void *)(s + 16));
    uint32_t c = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(a, colon)) |
                 (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(b, colon)) << 16;
    /* a digit: its byte minus '0' is at most 9, unsigned */
    __m128i da = _mm_sub_epi8(a, zero), db = _mm_sub_epi8(b, zero);
    uint32_t d = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(da, nine), da)) |
                 (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(db, nine), db)) << 16;
    unsigned p[5];
    for (int k = 0; k < 5; k++) {
        if (!c)
            return 0;
        p[k] = (unsigned)__builtin_ctz(c);
        c &= c - 1;
    }
    if (p[0] != 0)
        return 0;
    /* between the first colon and the fifth, digits and the three colons
     * only, and no number empty or over 18 digits */
    uint32_t span = ((p[4] == 31 ? 0x7fffffffu : (1u << p[4]) - 1) & ~1u) &
                    ~((1u << p[1]) | (1u << p[2]) | (1u << p[3]));
    if ((d & span) != span)
        return 0;
    unsigned n[4], big = 0;
    for (int k = 0; k < 4; k++) {
        n[k] = p[k + 1] - p[k] - 1;
        if (n[k] == 0 || n[k] > 18)
            return 0;
        big |= n[k] > 8;
    }
    if (!big) {
        digits4(s, p, n, mv);
        return p[4] + 1;
    }
    for (int k = 0; k < 4; k++)
        mv[k] = (int64_t)digits_value(s + p[k] + 1, n[k]);
    return p[4] + 1;
}
#endif

/* An empty array of at least `need` elements of size sz in *pv (capacity
 * *pcap): kept when it has the room, else a new one (no copy of the old:
 * nothing in it is kept).  Returns 0 or -1. */
static int room_empty(void **pv, size_t *pcap, size_t need, size_t sz)
{
    if (need <= *pcap)
        return 0;
    void *nv = ss_alloc_array(need, sz);
    if (!nv)
        return -1;
    free(*pv);
    *pv = nv;
    *pcap = need;
    return 0;
}

/* Chunk mode: record a sample (mv: its memory values, or NULL). */
static int chunk_sample(struct parser *p, ss_id stack, const int64_t *mv)
{
    struct chunk *ck = p->ck;
    size_t mn = ck->mem.n;
    if (ck->stack.n < ck->stack.cap && (mn ? mn + 4 <= ck->mem.cap : !mv)) { /* room */
        ck->stack.v[ck->stack.n++] = stack;
        if (mn) {
            if (mv)
                memcpy(ck->mem.v + mn, mv, 4 * sizeof *mv);
            else
                memset(ck->mem.v + mn, 0, 4 * sizeof *mv);
            ck->mem.n = mn + 4;
        }
        return 0;
    }
    if (mv && ck->mem.n == 0) { /* the chunk's first memory sample */
        if (room_empty((void **)&ck->mem.v, &ck->mem.cap, 4 * (ck->stack.cap + 1),
                       sizeof *ck->mem.v))
            return ss_nomem(p->err, "samples");
        memset(ck->mem.v, 0, 4 * ck->stack.n * sizeof *ck->mem.v);
        ck->mem.n = 4 * ck->stack.n;
    }
    if (VEC_PUSH(ck->stack, stack))
        return ss_nomem(p->err, "samples");
    if (mv || ck->mem.n) {
        if (VEC_RESERVE(ck->mem, ck->mem.n + 4))
            return ss_nomem(p->err, "samples");
        for (int k = 0; k < 4; k++)
            ck->mem.v[ck->mem.n++] = mv ? mv[k] : 0;
    }
    return 0;
}

/* Record a sample of a line read (mv: its memory values, or NULL). */
static int record_sample(struct parser *p, ss_id stack, const int64_t *mv)
{
    if (p->ck)
        return chunk_sample(p, stack, mv);
    int64_t *vals = NULL;
    if (mv) {
        p->vals[p->vt.small_v] = mv[0];
        p->vals[p->vt.big_v] = mv[1];
        p->vals[p->vt.nodes] = mv[2];
        p->vals[p->vt.dup_count] = mv[3];
        p->vals[SS_VT_COUNT] = 1;
        vals = p->vals;
    }
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

#define LINE_STOP (-1) /* the cut-off last line: stop reading */

static int sample_line(struct parser *p, const char *s, size_t len)
{
    size_t i = 0;
    int64_t mv[4];
    if (p->mem_unknown) { /* a chunk: the first sample line of a session begun before */
        p->mem_unknown = 0;
        p->flags = s[0] == ':' ? SS_SRC_MEMORY : 0;
        p->ck->seg.v[p->ck->seg.n - 1].flags = p->flags;
        p->ck->seg.v[p->ck->seg.n - 1].first_sample_line = p->r->line_no;
    }
    if (s[0] == ':') {
        if (!(p->flags & SS_SRC_MEMORY))
            return perr(p, 1, msg_prefix_unexpected);
        size_t bad;
        i = memory_prefix(s, len, mv, &bad);
        if (!i)
            return perr(p, bad, "bad memory prefix: expected ':small_v:big_v:nodes:dup_count:'");
    } else if (p->flags & SS_SRC_MEMORY) {
        return perr(p, 1, msg_prefix_missing);
    }
    const char *b = s + i;
    size_t blen = len - i;
    if (blen >= RPROF_R_LINE_CAP && p->capped_lines++ == 0)
        p->first_capped = p->r->line_no;
    struct line_cache *c = &p->cache;
    uint64_t h = line_hash(b, blen);
    uint32_t id = lc_find(c, b, blen, h);
    ss_id stack;
    /* the line end after the line (the reader found it): with it, the
     * line can be found by its head next time */
    size_t raw = p->r->mode == 1 ? blen + (s[len] == '\r' ? 2 : 1) : 0;
    int known = id != SS_NONE && lc_valid(c, &c->line.v[id]);
    if (known)
        stack = c->line.v[id].stack;
    else if (parse_stack(p, b, blen, i + 1, &stack))
        return p->err->code;
    if (ss_reader_line_lost(p->r)) { /* parsed from zeros: not this line */
        ss_reader_drop_line(p->r);
        return LINE_STOP;
    }
    if (id == SS_NONE) {
        id = lc_put(c, b, blen, raw, h, stack, p->dep);
    } else if (!known) { /* its stack was another file table's */
        c->line.v[id].stack = stack;
        lc_set_dep(c, &c->line.v[id], p->dep);
    }
    if (id != SS_NONE && raw && c->line.v[id].raw)
        lc_head_note(lc_head_slot(c, b, raw - 1 < LC_HEAD ? raw - 1 : LC_HEAD), id);
    return record_sample(p, stack, i ? mv : NULL);
}

/* The next line, when it is a sample line the line cache knows (see
 * there): taken from the reader's buffer and recorded.  Returns 1 (taken;
 * *rc: 0 or the error of recording it) or 0 (not taken: read the line). */
static int fast_sample(struct parser *p, struct ss_reader *r, int *rc)
{
    const char *s;
    size_t avail = ss_reader_buffered(r, &s);
    struct line_cache *c = &p->cache;
    if (avail < LC_HEAD || !c->line.n || p->mem_unknown)
        return 0;
    if (avail > PF_DIST + 512) { /* as far as the next line's, each cache line once */
        uintptr_t q = p->pf, from = (uintptr_t)s + PF_DIST, to = from + 512;
        if (q < from || q > to)
            q = from; /* another buffer, or the reader moved on */
        for (; q < to; q += 64)
            __builtin_prefetch((const void *)q);
        p->pf = q;
    }
    if (p->ck) {
        const struct seg *g = &p->ck->seg.v[p->ck->seg.n - 1];
        if (!g->header && !g->line)
            return 0; /* rprof_line notes the segment's first line */
    }
    int64_t mv[4];
    size_t i = 0, bad;
    /* a line of another kind (a header, `#File`, blank, a prefix that is
     * missing or bad) equals no cached line, but the prefix must parse */
    if (p->flags & SS_SRC_MEMORY) {
        if (s[0] != ':')
            return 0;
#ifdef PREFIX_SSE2
        if (avail >= PREFIX_SSE2)
            i = memory_prefix_sse2(s, mv);
#endif
        if (!i && !(i = memory_prefix(s, avail, mv, &bad)))
            return 0;
    }
    const char *b = s + i;
    size_t bavail = avail - i;
    if (bavail < LC_HEAD)
        return 0;
    uint64_t w[4];
    memcpy(w, b, LC_HEAD);
    size_t lf = head_lf(b, w);
#ifdef LC_WORDS
    uint32_t *slot;
    if (lf == LC_HEAD) {
        slot = lc_head_slot_words(c, w);
    } else {
        uint64_t hw[4] = {w[0], w[1], w[2], w[3]};
        head_mask(hw, lf);
        slot = lc_head_slot_words(c, hw);
    }
#else
    uint32_t *slot = lf == LC_HEAD ? lc_head_slot_words(c, w) : lc_head_slot(c, b, lf);
#endif
    for (int k = 0; k < 2; k++) {
        uint32_t id = slot[k];
        if (id >= c->line.n)
            continue;
        const struct lc_line *l = &c->line.v[id];
        if (!l->raw || l->raw > bavail || !lc_valid(c, l))
            continue;
        const char *t = c->arena + l->off;
#ifdef LC_WORDS /* a short line without a call */
        if (l->raw <= LC_HEAD ? !head_eq(w, t, l->raw) : memcmp(t, b, l->raw) != 0)
            continue;
#else
        if (memcmp(t, b, l->raw) != 0)
            continue;
#endif
        lc_head_note(slot, id);
        ss_reader_take_line(r, i + l->raw);
        if (ss_reader_line_lost(r)) { /* the bytes compared were zeros */
            ss_reader_drop_line(r);
            *rc = 0;
            return 1;
        }
        if (l->len >= RPROF_R_LINE_CAP && p->capped_lines++ == 0)
            p->first_capped = r->line_no;
        *rc = record_sample(p, l->stack, i ? mv : NULL);
        return 1;
    }
    return 0;
}

/* ---- one line ---------------------------------------------------------------- */

/* Handle one line (without its line end; `term`: it had one).  Returns 0,
 * LINE_STOP or an error code. */
static int rprof_line(struct parser *p, const char *line, size_t len, int term)
{
    uint64_t ln = p->r->line_no;
    if (len == 0) {
        if (p->blank_lines++ == 0)
            p->first_blank = ln;
        return 0;
    }
    uint32_t flags = 0;
    uint64_t iv = 0;
    /* Sample lines start with '"', ':' or a digit; only s/m/G/l can start
     * a header, so most lines skip the header parser. */
    char c0 = line[0];
    int h = (c0 == 's' || c0 == 'm' || c0 == 'G' || c0 == 'l')
                ? parse_header(line, len, &flags, &iv)
                : -1;
    if (h == -2 || (h == 0 && (iv == 0 || (double)iv > RPROF_MAX_INTERVAL_US)))
        return perr(p, 0,
                    "bad sample interval in the Rprof header: expected "
                    "'sample.interval=N' with N microseconds, 0 < N <= 3600000000");
    if (h == 0)
        return start_session(p, flags, iv, ln);
    if (p->ck) {
        struct seg *g = &p->ck->seg.v[p->ck->seg.n - 1];
        if (!g->header && !g->line)
            g->line = ln; /* the merge checks that a session has begun */
    } else if (!p->have_session) {
        return perr(p, 0,
                    ln == 1 ? "not an Rprof file: the first line must be a header like "
                              "'sample.interval=20000'"
                            : "sample line before the Rprof header");
    }
    if (line[0] == '#') {
        if (len >= 6 && memcmp(line, "#File ", 6) == 0) {
            if (memchr(line, '\0', len))
                return perr(p, 0, "NUL byte in a '#File' line");
            return parse_file_line(p, line, len);
        }
        return perr(p, 1, "unexpected line: expected a sample, a header or '#File N: path'");
    }
    if (!term) {
        if (p->ck)
            p->ck->cut_line = ln;
        else
            ss_model_warn(p->m,
                          "%s:%llu: the last line has no line end (the profile was cut off?): "
                          "dropped that incomplete sample",
                          p->path, (unsigned long long)ln);
        return LINE_STOP;
    }
    return sample_line(p, line, len);
}

static void parser_free(struct parser *p)
{
    lc_free(&p->cache);
    VEC_FREE(p->files);
    VEC_FREE(p->provisional);
    VEC_FREE(p->frames);
    free(p->vals);
}

/* The end of a file (after its last line, read or merged): the checks and
 * warnings of the whole file.  `lines`: how many it has. */
static int finish_file(struct parser *p, uint64_t lines)
{
    if (lines == 0)
        return ss_fail(p->err, SS_EINPUT, "%s: empty file (not even an Rprof header)", p->path);
    if (!p->have_session)
        return ss_fail(p->err, SS_EINPUT, "%s: no Rprof header ('sample.interval=N') in the file",
                       p->path);
    if (resolve_provisional(p))
        return p->err->code;
    if (p->blank_lines)
        ss_model_warn(p->m, "%s:%llu: %llu blank line%s ignored (R does not write blank lines)",
                      p->path, (unsigned long long)p->first_blank,
                      (unsigned long long)p->blank_lines, p->blank_lines == 1 ? "" : "s");
    if (p->capped_lines)
        ss_model_warn(p->m,
                      "%s:%llu: %llu sample line%s reach R's 10 KB line limit: R dropped "
                      "their outermost frames",
                      p->path, (unsigned long long)p->first_capped,
                      (unsigned long long)p->capped_lines, p->capped_lines == 1 ? "" : "s");
    return 0;
}

static int parser_start(struct parser *p, struct ss_model *m, struct ss_reader *r, const char *path,
                        struct ss_error *err)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    p->r = r;
    r->in_place = 1; /* its lines are checked (ss_reader_line_lost) */
    p->path = path;
    p->err = err;
    p->type_id = ss_model_intern_cstr(m, "rprof");
    p->uri_id = ss_model_intern_cstr(m, path);
    p->have_vt = ss_rprof_value_types(m, &p->vt) == 0;
    if (p->type_id == SS_NONE || p->uri_id == SS_NONE || sync_vals(p))
        return ss_nomem(err, "model");
    return 0;
}

/* rprof_line, but a line found bad when its bytes were lost to a cut
 * (ss_reader_line_gone: zeros read in a mapped file) is where the input
 * ends, not an error in it. */
static int line_or_cut(struct parser *p, struct ss_reader *r, const char *line, size_t len,
                       int term)
{
    int rc = rprof_line(p, line, len, term);
    if (!rc || rc == LINE_STOP || !ss_reader_line_gone(r))
        return rc;
    ss_reader_drop_line(r);
    p->err->code = SS_OK;
    p->err->msg[0] = '\0';
    if (p->ck)
        p->ck->err_line = 0;
    return LINE_STOP;
}

/* ---- the single-threaded loader ---------------------------------------------- */

#define PROGRESS_LINES 65536 /* lines between two progress reports */

static int load_serial(struct parser *p, struct ss_reader *r, uint64_t fsize)
{
    const char *line;
    size_t len;
    int term, got = 0, rc = 0;
    for (;;) {
        if (!fast_sample(p, r, &rc)) {
            if ((got = ss_reader_next(r, &line, &len, &term, p->err)) != 1)
                break;
            rc = line_or_cut(p, r, line, len, term);
            if (rc == LINE_STOP) {
                rc = 0;
                break;
            }
        }
        if (rc)
            return rc;
        if (r->line_no % PROGRESS_LINES == 0)
            ss_load_progress(r, p->path, r->next_off, fsize, p->m->sample_stack.n);
    }
    if (got < 0)
        return p->err->code;
    ss_load_progress(r, p->path, r->next_off, fsize, p->m->sample_stack.n);
    return finish_file(p, r->line_no);
}

/* ---- the parallel loader: workers ---------------------------------------------- */

/* chunk sizes (chunk_size): each chunk tokenises its distinct lines anew */
#define CHUNK_BYTES (32u << 20) /* at most */
#define CHUNK_MIN (4u << 20)    /* at least */
#define PARALLEL_MIN (4u << 20) /* smaller files: one thread */
#define MAX_THREADS 64

struct pload {
    int fd;
    const char *path;
    struct ss_inmap whole; /* the file mapped whole for the workers' readers (slot < 0: not) */
    uint64_t fsize;
    size_t max_line;
    struct chunk *ck;
    size_t nchunks;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    size_t next;   /* the next chunk to parse */
    size_t merged; /* chunks merged (and freed) */
    size_t window; /* chunks parsed ahead of the merge, at most */
    int stop;
    /* the sample arrays of merged chunks, for the next ones: fresh memory
     * costs a page fault per page, which cost more than the parsing */
    struct spare {
        ss_id *stack;
        int64_t *mem;
        size_t stack_cap, mem_cap;
    } spare[2 * MAX_THREADS + 2];
    size_t nspare;
};

/* Give chunk ck the arrays of a merged chunk, if any (under pl->mu). */
static void spare_take(struct pload *pl, struct chunk *ck)
{
    if (!pl->nspare)
        return;
    struct spare *sp = &pl->spare[--pl->nspare];
    ck->stack.v = sp->stack;
    ck->stack.cap = sp->stack_cap;
    ck->mem.v = sp->mem;
    ck->mem.cap = sp->mem_cap;
}

/* Keep the arrays of merged chunk ck for another (under pl->mu). */
static void spare_keep(struct pload *pl, struct chunk *ck)
{
    if (pl->nspare == ARRAY_SIZE(pl->spare))
        return;
    struct spare sp = {ck->stack.v, ck->mem.v, ck->stack.cap, ck->mem.cap};
    pl->spare[pl->nspare++] = sp;
    memset(&ck->stack, 0, sizeof ck->stack);
    memset(&ck->mem, 0, sizeof ck->mem);
}

/* The samples the bytes [start, end) of file fd may hold: the lines of
 * their first CHUNK_PEEK bytes scaled to the whole, times `factor`, at
 * most one a byte; 0 when they cannot be read. */
#define CHUNK_PEEK (64u << 10)
static size_t lines_guess(int fd, uint64_t start, uint64_t end, double factor)
{
    size_t bytes = CHUNK_PEEK;
    char *buf = malloc(bytes);
    if (!buf)
        return 0;
    uint64_t len = end - start;
    ssize_t k = pread(fd, buf, len < bytes ? (size_t)len : bytes, (off_t)start);
    size_t lines = 0;
    for (const char *q = buf, *e = buf + (k > 0 ? k : 0);
         q < e && (q = memchr(q, '\n', (size_t)(e - q))); q++)
        lines++;
    free(buf);
    if (k <= 0 || !lines)
        return 0;
    double guess = factor * (double)lines * (double)len / (double)k + 1024;
    return guess < (double)len ? (size_t)guess : (size_t)len;
}

/* Room for chunk ck's samples (its arrays grown by doubling would copy
 * and fault their pages in twice); the memory values' when its first
 * sample has a prefix (chunk_sample).  Returns 0 or -1. */
static int chunk_room(struct pload *pl, struct chunk *ck)
{
    /* twice: a chunk may begin with long lines and go on with short ones */
    size_t n = lines_guess(pl->fd, ck->start, ck->end, 2.0);
    if (room_empty((void **)&ck->stack.v, &ck->stack.cap, n, sizeof *ck->stack.v))
        return -1;
    return 0;
}

/* Parse chunk ck into its partial model with parser p and reader r (a
 * worker's; r->buf NULL: not open yet or mapping, which opening again
 * costs nothing; else a pread buffer, aimed at the chunk). */
static void chunk_parse(struct parser *p, struct ss_reader *r, struct pload *pl, struct chunk *ck)
{
    int rc = ss_model_init(&ck->m, &ck->err);
    if (!rc && chunk_room(pl, ck))
        rc = ss_nomem(&ck->err, "samples");
    if (!rc && !r->buf) {
        rc = ss_reader_open_range(r, pl->fd, pl->path, ck->start, ck->end, pl->max_line, &ck->err);
        r->in_place = 1;
        if (!rc && r->mapped && pl->whole.slot >= 0)
            ss_reader_use_whole(r, &pl->whole);
    }
    if (rc) {
        ck->rc = rc;
        return;
    }
    ss_reader_range(r, ck->start, ck->end);
    p->m = &ck->m;
    p->r = r;
    p->err = &ck->err;
    p->ck = ck;
    p->have_session = 1;
    p->blank_lines = p->capped_lines = 0;
    rc = seg_open(p, 0, 0, 0, 0);
    const char *line;
    size_t len;
    int term, got = 0;
    while (!rc) {
        if (fast_sample(p, r, &rc))
            continue;
        if ((got = ss_reader_next(r, &line, &len, &term, &ck->err)) != 1)
            break;
        rc = line_or_cut(p, r, line, len, term);
        if (rc == LINE_STOP) {
            rc = got = 0;
            break;
        }
    }
    if (!rc && got < 0)
        rc = ck->err.code;
    if (ck->seg.n)
        seg_close(p);
    ck->lines = r->line_no;
    ck->cut = r->cut;
    ck->cut_at = r->cut_at;
    ck->blank = p->blank_lines;
    ck->first_blank = p->first_blank;
    ck->capped = p->capped_lines;
    ck->first_capped = p->first_capped;
    ck->rc = rc;
    /* the line cache holds this chunk's ids */
    lc_reset(&p->cache);
    /* nothing points into the chunk's bytes any more: unmap them */
    ss_reader_range(r, ck->end, ck->end);
}

static void *worker(void *arg)
{
    struct pload *pl = arg;
    struct parser p;
    memset(&p, 0, sizeof p);
    p.path = pl->path;
    struct ss_reader r; /* one buffer for every chunk of this worker */
    memset(&r, 0, sizeof r);
    for (;;) {
        pthread_mutex_lock(&pl->mu);
        while (!pl->stop && pl->next < pl->nchunks && pl->next >= pl->merged + pl->window)
            pthread_cond_wait(&pl->cv, &pl->mu);
        if (pl->stop || pl->next >= pl->nchunks) {
            pthread_mutex_unlock(&pl->mu);
            break;
        }
        struct chunk *ck = &pl->ck[pl->next++];
        spare_take(pl, ck);
        pthread_mutex_unlock(&pl->mu);
        chunk_parse(&p, &r, pl, ck);
        pthread_mutex_lock(&pl->mu);
        ck->done = 1;
        pthread_cond_broadcast(&pl->cv);
        pthread_mutex_unlock(&pl->mu);
    }
    parser_free(&p);
    if (r.buf)
        ss_reader_close(&r);
    return NULL;
}

/* ---- the parallel loader: merge ---------------------------------------------- */

/* Where the local ids of the chunk being merged went in the model. */
struct maps {
    VEC(ss_id) str, fn, loc, stack;
    VEC(ss_id) frames; /* scratch */
};

static void maps_free(struct maps *mp)
{
    VEC_FREE(mp->str);
    VEC_FREE(mp->fn);
    VEC_FREE(mp->loc);
    VEC_FREE(mp->stack);
    VEC_FREE(mp->frames);
}

/* End the session in the model (p: the model's parser), keeping the maps
 * right when locations and stacks are renumbered. */
static int merge_end_session(struct parser *p, struct maps *mp)
{
    struct ss_model *m = p->m;
    size_t nl = m->locations.n, ns = ss_model_nstacks(m);
    int any = 0;
    for (size_t k = 0; k < p->provisional.n; k++)
        any |= p->provisional.v[k] != SS_NONE;
    if (!any) {
        p->files.n = 0;
        p->provisional.n = 0;
        return 0;
    }
    ss_id *lmap = ss_alloc_array(nl, sizeof *lmap), *smap = ss_alloc_array(ns, sizeof *smap);
    int rc = 0;
    if (!lmap || !smap) {
        rc = ss_nomem(p->err, "locations");
        goto out;
    }
    /* as resolve_provisional, telling where everything went */
    int changed = 0;
    for (size_t k = 0; k < p->provisional.n; k++) {
        ss_id prov = p->provisional.v[k];
        if (prov == SS_NONE)
            continue;
        ss_id real = k < p->files.n ? p->files.v[k] : SS_NONE;
        for (size_t i = 0; i < nl; i++)
            if (m->locations.v[i].file == prov) {
                ss_model_set_location_file(m, (ss_id)i, real);
                changed = 1;
            }
    }
    p->files.n = 0;
    p->provisional.n = 0;
    if (!changed)
        goto out;
    if (ss_model_reindex_locations_map(m, lmap, smap)) {
        rc = ss_nomem(p->err, "locations");
        goto out;
    }
    for (size_t i = 0; i < mp->loc.n; i++)
        mp->loc.v[i] = lmap[mp->loc.v[i]];
    for (size_t i = 0; i < mp->stack.n; i++)
        mp->stack.v[i] = smap[mp->stack.v[i]];
out:
    free(lmap);
    free(smap);
    return rc;
}

/* Report the first error of chunk ck: its own (ck->rc), or the merge's at
 * chunk line `line` (0: none) with `col` and `what`; on the same line the
 * merge's comes first, as in the single-threaded loader. */
static int merge_fail(struct parser *p, struct chunk *ck, uint64_t base, uint64_t line, size_t col,
                      const char *what)
{
    if (ck->rc && !ck->err_line && !line) { /* out of memory, an I/O error */
        *p->err = ck->err;
        return ck->rc;
    }
    if (ck->rc && ck->err_line && (!line || ck->err_line < line)) {
        line = ck->err_line;
        col = ck->err_col;
        what = ck->err_what;
    }
    if (col)
        return ss_fail(p->err, SS_EINPUT, "%s:%llu:%zu: %s", p->path,
                       (unsigned long long)(base + line), col, what);
    return ss_fail(p->err, SS_EINPUT, "%s:%llu: %s", p->path, (unsigned long long)(base + line),
                   what);
}

/* Merge the segment g of chunk ck (its local ids from `from`, the sizes
 * at the previous segment's end) into the model. */
static int merge_segment(struct parser *p, struct maps *mp, struct chunk *ck, const struct seg *g,
                         const struct seg *from, size_t *ph)
{
    struct ss_model *m = p->m;
    const struct ss_model *l = &ck->m;
    for (size_t i = from->end_str; i < g->end_str; i++) {
        ss_id id;
        if (*ph < ck->ph.n && ck->ph.v[*ph].str == i) {
            int oom = 0;
            id = file_for(p, ck->ph.v[(*ph)++].k, &oom);
            if (oom)
                id = SS_NONE;
        } else {
            id = ss_model_intern(m, ss_str(l, (ss_id)i), ss_strtab_len(&l->strs, (ss_id)i));
        }
        if (id == SS_NONE || VEC_PUSH(mp->str, id))
            return ss_nomem(p->err, "strings");
    }
    for (size_t i = from->end_fn; i < g->end_fn; i++) {
        const struct ss_function *f = &l->functions.v[i];
        ss_id id = ss_model_function(m, mp->str.v[f->name], mp->str.v[f->system_name],
                                     f->filename == SS_NONE ? SS_NONE : mp->str.v[f->filename],
                                     f->start_line);
        if (id == SS_NONE || VEC_PUSH(mp->fn, id))
            return ss_nomem(p->err, "functions");
    }
    for (size_t i = from->end_loc; i < g->end_loc; i++) {
        const struct ss_location *lo = &l->locations.v[i];
        ss_id id = ss_model_location(m, lo->function == SS_NONE ? SS_NONE : mp->fn.v[lo->function],
                                     lo->file == SS_NONE ? SS_NONE : mp->str.v[lo->file], lo->line);
        if (id == SS_NONE || VEC_PUSH(mp->loc, id))
            return ss_nomem(p->err, "locations");
    }
    for (size_t s = from->end_stack; s < g->end_stack; s++) {
        size_t n = ss_stack_depth(l, (ss_id)s);
        const ss_id *fr = ss_stack_frames(l, (ss_id)s);
        if (VEC_RESERVE(mp->frames, n + 1))
            return ss_nomem(p->err, "stacks");
        for (size_t k = 0; k < n; k++)
            mp->frames.v[k] = mp->loc.v[fr[k]];
        ss_id tail = l->stack_tail.v[s];
        ss_id id = ss_model_stack(m, mp->frames.v, n, tail == SS_NONE ? SS_NONE : mp->loc.v[tail]);
        if (id == SS_NONE || VEC_PUSH(mp->stack, id))
            return ss_nomem(p->err, "stacks");
    }
    for (size_t d = from->end_decl; d < g->end_decl; d++) {
        size_t k = (size_t)ck->decl.v[d].k;
        if (set_vec_len(&p->files, k + 1))
            return ss_nomem(p->err, "file table");
        p->files.v[k] = mp->str.v[ck->decl.v[d].path];
        if (note_unnamed(p->m, p->files.v[k], k))
            return ss_nomem(p->err, "file table");
    }
    size_t first = from->end_sample, n = g->end_sample - first;
    if (!n)
        return 0;
    ss_id *st = ck->stack.v + first;
    for (size_t k = 0; k < n; k++)
        st[k] = mp->stack.v[st[k]];
    int mem = (p->flags & SS_SRC_MEMORY) != 0;
    ss_id vts[4] = {p->vt.small_v, p->vt.big_v, p->vt.nodes, p->vt.dup_count};
    int ar = ss_model_add_samples(m, st, n, vts, mem ? 4 : 0, mem ? ck->mem.v + 4 * first : NULL);
    if (ar)
        return ss_nomem(p->err, "samples"); /* SS_COUNT_RANGE cannot happen: see load_parallel */
    return 0;
}

/* Merge chunk ck, whose first line is line base + 1 of the file. */
static int merge_chunk(struct parser *p, struct maps *mp, struct chunk *ck, uint64_t base)
{
    mp->str.n = mp->fn.n = mp->loc.n = mp->stack.n = 0;
    /* the first segment continues the session before: is there one, and
     * did the chunk guess its memory profiling right? */
    if (!ck->seg.n)
        return merge_fail(p, ck, base, 0, 0, NULL);
    const struct seg *g0 = &ck->seg.v[0];
    if (g0->line && !p->have_session)
        return merge_fail(p, ck, base, g0->line, 0,
                          base + g0->line == 1
                              ? "not an Rprof file: the first line must be a header like "
                                "'sample.interval=20000'"
                              : "sample line before the Rprof header");
    if (g0->first_sample_line && (g0->flags & SS_SRC_MEMORY) != (p->flags & SS_SRC_MEMORY))
        return merge_fail(p, ck, base, g0->first_sample_line, 1,
                          g0->flags & SS_SRC_MEMORY ? msg_prefix_unexpected : msg_prefix_missing);
    if (ck->rc)
        return merge_fail(p, ck, base, 0, 0, NULL);
    struct seg none;
    memset(&none, 0, sizeof none);
    size_t ph = 0;
    for (size_t j = 0; j < ck->seg.n; j++) {
        const struct seg *g = &ck->seg.v[j];
        int rc;
        if (g->header) {
            if (p->have_session && (rc = merge_end_session(p, mp)))
                return rc;
            p->have_session = 0; /* start_session resolves nothing more */
            if ((rc = start_session(p, g->flags, g->interval, base + g->line)))
                return rc;
        }
        if ((rc = merge_segment(p, mp, ck, g, j ? &ck->seg.v[j - 1] : &none, &ph)))
            return rc;
    }
    if (ck->blank && p->blank_lines == 0)
        p->first_blank = base + ck->first_blank;
    p->blank_lines += ck->blank;
    if (ck->capped && p->capped_lines == 0)
        p->first_capped = base + ck->first_capped;
    p->capped_lines += ck->capped;
    if (ck->cut_line)
        ss_model_warn(p->m,
                      "%s:%llu: the last line has no line end (the profile was cut off?): "
                      "dropped that incomplete sample",
                      p->path, (unsigned long long)(base + ck->cut_line));
    return 0;
}

/* ---- the parallel loader: driver ----------------------------------------------- */

static size_t env_size(const char *name, size_t dflt)
{
    const char *e = getenv(name);
    if (!e || !*e)
        return dflt;
    char *end;
    unsigned long long v = strtoull(e, &end, 10);
    return *end || v == 0 ? dflt : (size_t)v;
}

/* The size of the chunk that starts at byte `at`: `size`, or with `div`
 * (guided: not 0) the rest of the file over div, between CHUNK_MIN and
 * `size`, so that the last chunks are small and the threads finish
 * together, while the first are large (each chunk tokenises its distinct
 * lines anew, and the merge maps its tables).  div is the number of
 * threads: with twice that, and 2 MiB at least, a 1M-sample file of 300 MB
 * was cut in 19 chunks, not 13, for 7 ms more CPU and 2-3 ms more time. */
static uint64_t chunk_size(uint64_t fsize, uint64_t at, size_t size, unsigned div)
{
    if (!div)
        return size;
    uint64_t c = (fsize - at) / div;
    return c < CHUNK_MIN ? CHUNK_MIN : c > size ? size : c;
}

/* The chunk boundaries of the file: chunk k is [b[k], b[k + 1]), each at
 * least chunk_size() bytes (but the last) and ending after an LF.  Returns
 * the number of chunks, 0 on an error (the serial loader then says it). */
static size_t cut_chunks(int fd, uint64_t fsize, size_t size, unsigned div, uint64_t **out)
{
    size_t cap = (size_t)(fsize / (div ? CHUNK_MIN : size)) + 2, n = 0;
    uint64_t *b = ss_alloc_array(cap + 1, sizeof *b);
    char buf[4096];
    if (!b)
        return 0;
    b[n++] = 0;
    uint64_t pos = chunk_size(fsize, 0, size, div);
    while (pos < fsize) {
        /* the first LF at or after pos - 1 ends the chunk */
        uint64_t at = pos - 1;
        for (;;) {
            ssize_t k = pread(fd, buf, sizeof buf, (off_t)at);
            if (k <= 0) {
                at = fsize;
                break;
            }
            const char *lf = memchr(buf, '\n', (size_t)k);
            if (lf) {
                at += (uint64_t)(lf - buf) + 1;
                break;
            }
            at += (uint64_t)k;
        }
        if (at >= fsize)
            break;
        if (n >= cap) {
            free(b);
            return 0;
        }
        b[n++] = at;
        pos = at + chunk_size(fsize, at, size, div);
    }
    b[n] = fsize;
    *out = b;
    return n;
}

/* Does the file's first line end in LF (or CR LF), as the chunk readers
 * assume?  A lone CR (mode 2) or no line end in the first MiB: no. */
static int lf_file(int fd)
{
    char buf[4096];
    for (uint64_t at = 0; at < (1u << 20);) {
        ssize_t k = pread(fd, buf, sizeof buf, (off_t)at);
        if (k <= 0)
            return 0;
        for (ssize_t i = 0; i < k; i++) {
            if (buf[i] == '\n')
                return 1;
            if (buf[i] == '\r')
                return i + 1 < k && buf[i + 1] == '\n';
        }
        at += (uint64_t)k;
    }
    return 0;
}

/* Load the regular file r->fd with `threads` workers.  Returns 0, an error
 * code, or -1 when the file does not suit (the caller loads it serially). */
static int load_parallel(struct parser *p, struct ss_reader *r, unsigned threads, size_t chunk,
                         unsigned div, uint64_t fsize)
{
    uint64_t *b = NULL;
    if (!lf_file(r->fd))
        return -1;
    size_t n = cut_chunks(r->fd, fsize, chunk, div, &b);
    if (n == 0)
        return -1;
    struct pload pl;
    memset(&pl, 0, sizeof pl);
    pl.fd = r->fd;
    pl.path = p->path;
    pl.max_line = r->max_line;
    pl.nchunks = n;
    pl.window = 2 * (size_t)threads + 2;
    pl.ck = ss_calloc_array(n, sizeof *pl.ck);
    if (!pl.ck) {
        free(b);
        return -1;
    }
    for (size_t k = 0; k < n; k++) {
        pl.ck[k].start = b[k];
        pl.ck[k].end = b[k + 1];
    }
    free(b);
    /* one mapping of the file, whose pages the workers populate and drop
     * window by window; without it (an address-space limit), each maps
     * its windows */
    pl.fsize = fsize;
    pl.whole.slot = -1;
    if (ss_reader_mapping())
        (void)ss_inmap_map(&pl.whole, r->fd, 0, (size_t)fsize, 0);
    pthread_mutex_init(&pl.mu, NULL);
    pthread_cond_init(&pl.cv, NULL);
    pthread_t th[MAX_THREADS];
    unsigned started = 0;
    while (started < threads && pthread_create(&th[started], NULL, worker, &pl) == 0)
        started++;
    int rc = 0;
    if (started == 0) {
        rc = -1;
    } else {
        struct maps mp;
        memset(&mp, 0, sizeof mp);
        uint64_t base = 0;
        for (size_t k = 0; k < n && !rc; k++) {
            struct chunk *ck = &pl.ck[k];
            pthread_mutex_lock(&pl.mu);
            while (!ck->done)
                pthread_cond_wait(&pl.cv, &pl.mu);
            pthread_mutex_unlock(&pl.mu);
            if (k == 0 && ck->end < fsize && ck->stack.n) {
                /* room for the samples the file holds at the first chunk's
                 * rate, and 5% more, before any is added: growing the
                 * columns by doubling, or from the first chunk's samples,
                 * would copy them and fault their pages twice.  A hint
                 * only: never more than one sample a byte, and when the
                 * memory is not there the columns grow as they go. */
                double est = (double)ck->stack.n * (double)fsize / (double)(ck->end - ck->start);
                est *= 1.05;
                if (est > (double)fsize)
                    est = (double)fsize;
                (void)ss_model_reserve_samples(p->m, (size_t)est);
            }
            rc = merge_chunk(p, &mp, ck, base);
            base += ck->lines;
            /* the file was cut: the samples of the lines before the cut
             * are kept, nothing after them (ss_load_changed says so) */
            int cut = !rc && ck->cut;
            if (cut)
                ss_reader_note_cut(p->r, ck->cut_at);
            pthread_mutex_lock(&pl.mu);
            spare_keep(&pl, ck);
            chunk_free(ck);
            pl.merged = k + 1;
            if (rc || cut)
                pl.stop = 1;
            pthread_cond_broadcast(&pl.cv);
            pthread_mutex_unlock(&pl.mu);
            ss_load_progress(r, p->path, ck->end, fsize, p->m->sample_stack.n);
            if (cut)
                break;
        }
        maps_free(&mp);
        pthread_mutex_lock(&pl.mu);
        pl.stop = 1;
        pthread_cond_broadcast(&pl.cv);
        pthread_mutex_unlock(&pl.mu);
        for (unsigned t = 0; t < started; t++)
            pthread_join(th[t], NULL);
        if (!rc)
            rc = finish_file(p, base);
    }
    for (size_t k = 0; k < n; k++)
        chunk_free(&pl.ck[k]);
    for (size_t k = 0; k < pl.nspare; k++) {
        free(pl.spare[k].stack);
        free(pl.spare[k].mem);
    }
    free(pl.ck);
    ss_inmap_unmap(&pl.whole);
    pthread_cond_destroy(&pl.cv);
    pthread_mutex_destroy(&pl.mu);
    return rc;
}

/* The number of threads to parse with: STACKSCOPE_THREADS, else the
 * processors online. */
static unsigned load_threads(void)
{
    return ss_threads(MAX_THREADS);
}

int ss_load_rprof(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err)
{
    struct parser p;
    int rc = parser_start(&p, m, r, path, err);
    if (rc)
        goto done;
    /* a regular file is read up to its size when opened (reader.h) */
    uint64_t fsize = r->regular ? r->fsize : 0;
    /* STACKSCOPE_CHUNK (bytes; for tests) cuts even a small file */
    size_t chunk = env_size("STACKSCOPE_CHUNK", 0);
    int forced = chunk != 0;
    unsigned threads = load_threads(), div = 0;
    if (!forced) {
        chunk = CHUNK_BYTES;
        div = threads;
    }
    rc = -1;
    /* every sample counts 1, so a file adds at most its size to the counts:
     * the merge never meets SS_COUNT_RANGE (the serial loader says it) */
    if (threads > 1 && fsize && (forced || fsize >= PARALLEL_MIN) && r->line_no == 0 &&
        r->next_off == 0 && m->count_total <= SS_MAX_COUNT_TOTAL - fsize)
        rc = load_parallel(&p, r, threads, chunk, div, fsize);
    if (rc == -1 && fsize >= PARALLEL_MIN && r->line_no == 0 && r->next_off == 0)
        /* room for the samples before the first (twice the guess: the first
         * lines may be the longest), as load_parallel reserves */
        (void)ss_model_reserve_samples(m, lines_guess(r->fd, 0, fsize, 2.0));
    if (rc == -1)
        rc = load_serial(&p, r, fsize);
done:
    parser_free(&p);
    return rc;
}

/* ---- following a file as it is written ------------------------------------- */

struct ss_rprof_stream {
    struct parser p;
};

struct ss_rprof_stream *ss_rprof_stream_new(struct ss_model *m, struct ss_reader *r,
                                            struct ss_error *err)
{
    struct ss_rprof_stream *s = calloc(1, sizeof *s);
    if (!s) {
        ss_nomem(err, "follow");
        return NULL;
    }
    if (parser_start(&s->p, m, r, r->path, err)) {
        ss_rprof_stream_free(s);
        return NULL;
    }
    return s;
}

int ss_rprof_stream_feed(struct ss_rprof_stream *s, struct ss_model *m, struct ss_reader *r,
                         struct ss_error *err)
{
    struct parser *p = &s->p;
    p->m = m; /* the model may have moved (a struct copied) since the last batch */
    p->r = r;
    p->err = err;
    if (sync_vals(p))
        return err->code;
    const char *line;
    size_t n;
    int term, got, rc = 0;
    for (;;) {
        if (!fast_sample(p, r, &rc)) {
            if ((got = ss_reader_next(r, &line, &n, &term, err)) != 1)
                break;
            rc = rprof_line(p, line, n, term);
        }
        if (rc)
            return rc == LINE_STOP ? 0 : rc; /* LINE_STOP: no line end, not handed out */
    }
    return got < 0 ? err->code : 0;
}

int ss_rprof_stream_end(struct ss_rprof_stream *s, struct ss_model *m, struct ss_reader *r,
                        struct ss_error *err)
{
    s->p.m = m;
    s->p.r = r;
    s->p.err = err;
    return finish_file(&s->p, r->line_no);
}

void ss_rprof_stream_free(struct ss_rprof_stream *s)
{
    if (!s)
        return;
    parser_free(&s->p);
    free(s);
}
