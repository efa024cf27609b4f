/* fuzz_write.c - libFuzzer target: the writers and their round trips.
 *
 * The input is loaded as any profile (Rprof, pprof, folded, SamplingProf);
 * what loads is written in every output format to a private temporary
 * directory and read back, and what the format holds must come back:
 *   tables         every sample in order: its stack (function names) and
 *                  every value column; the sources; the aggregates
 *   pprof          every sample in order: its stack and its count
 *   rprof          the samples with frames in order, a count of k as k
 *                  lines (checked only up to 100,000 lines)
 *   folded         the summed count of each root-first name path
 *   speedscope     every sample in order: its stack (the frames that name a
 *                  function; a byte that is not UTF-8 reads back as U+FFFD)
 *   sampling_prof  the sum of the self counts, and the self count of each
 *                  method name (a line end in a name becomes a space)
 * Writing goes through ss_write_file, as `convert` does.  A writer may
 * refuse a model (an error value: names Rprof cannot hold, aggregates in a
 * stack format); a file it did write must load and match, except an empty
 * folded file for a model with no stack to write.  pprof has no empty
 * function names (string 0 is "no name"): an empty name reads back as
 * "<unknown>", and the check expects that.
 * A mismatch is a finding: the target prints what differs and aborts.
 * Build and run with scripts/fuzz.sh; tests/fuzz/replay.c replays the inputs
 * kept in tests/data/fuzz/write/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_tmp.h"
#include "load.h"
#include "write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_RPROF_LINES 100000

/* A growable byte string. */
struct buf {
    char *p;
    size_t n, cap;
};

static void put(struct buf *b, const void *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 64;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p)
            abort();
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

/* One sample (or one aggregated stack): a signature and a count. */
struct rec {
    char *sig;
    size_t len;
    int64_t count;
};

struct recs {
    struct rec *v;
    size_t n, cap;
};

static void add(struct recs *r, const struct buf *sig, int64_t count)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 64;
        r->v = realloc(r->v, r->cap * sizeof *r->v);
        if (!r->v)
            abort();
    }
    struct rec *e = &r->v[r->n++];
    e->sig = malloc(sig->n + 1);
    if (!e->sig)
        abort();
    memcpy(e->sig, sig->p ? sig->p : "", sig->n);
    e->sig[sig->n] = '\0';
    e->len = sig->n;
    e->count = count;
}

static void recs_free(struct recs *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->v[i].sig);
    free(r->v);
    memset(r, 0, sizeof *r);
}

/* Set while the names of a model written as pprof are read: pprof has no
 * empty names (string 0 means "no name"), and the reader calls a function
 * without a name "<unknown>". */
static int empty_is_unknown;

static void put_name(struct buf *b, const struct ss_model *m, ss_id loc, int newline_to_space)
{
    ss_id fn = m->locations.v[loc].function;
    if (fn == SS_NONE)
        return;
    ss_id name = m->functions.v[fn].name;
    const char *s = ss_str(m, name);
    size_t n = ss_strtab_len(&m->strs, name);
    if (!n && empty_is_unknown) {
        put(b, "<unknown>", 9);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (newline_to_space && (c == '\n' || c == '\r'))
            c = ' ';
        put(b, &c, 1);
    }
}

/* The stack of sample i as names joined by sep, innermost first or root
 * first. */
static void stack_sig(struct buf *b, const struct ss_model *m, size_t i, int root_first, char sep)
{
    b->n = 0;
    put(b, "", 0);
    ss_id s = m->sample_stack.v[i];
    size_t d = ss_stack_depth(m, s);
    const ss_id *fr = ss_stack_frames(m, s);
    for (size_t k = 0; k < d; k++) {
        if (k)
            put(b, &sep, 1);
        put_name(b, m, fr[root_first ? d - 1 - k : k], 0);
    }
}

static size_t depth_of(const struct ss_model *m, size_t i)
{
    return ss_stack_depth(m, m->sample_stack.v[i]);
}

/* Every sample in order with its count (tables, pprof). */
static void samples_exact(const struct ss_model *m, struct recs *r)
{
    struct buf b = {0};
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        stack_sig(&b, m, i, 0, '\x1f');
        add(r, &b, ss_sample_count(m, i));
    }
    free(b.p);
}

/* The samples with frames and a count above 0, in order, consecutive equal
 * stacks merged with their counts added (rprof writes a count of k as k
 * lines).  -1 when a sum overflows. */
static int samples_runs(const struct ss_model *m, struct recs *r)
{
    struct buf b = {0};
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        int64_t c = ss_sample_count(m, i);
        if (!depth_of(m, i) || c <= 0)
            continue;
        stack_sig(&b, m, i, 0, '\x1f');
        struct rec *last = r->n ? &r->v[r->n - 1] : NULL;
        if (last && last->len == b.n && !memcmp(last->sig, b.p, b.n)) {
            if (__builtin_add_overflow(last->count, c, &last->count)) {
                free(b.p);
                return -1;
            }
        } else {
            add(r, &b, c);
        }
    }
    free(b.p);
    return 0;
}

static int by_sig(const void *pa, const void *pb)
{
    const struct rec *a = pa, *b = pb;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->sig, b->sig, n);
    return c ? c : (a->len > b->len) - (a->len < b->len);
}

/* Sort by signature, add the counts of equal signatures, drop zero sums.
 * -1 when a sum overflows. */
static int merge(struct recs *r)
{
    if (r->n)
        qsort(r->v, r->n, sizeof *r->v, by_sig);
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (k && !by_sig(&r->v[k - 1], &r->v[i])) {
            if (__builtin_add_overflow(r->v[k - 1].count, r->v[i].count, &r->v[k - 1].count))
                return -1;
            free(r->v[i].sig);
        } else {
            r->v[k++] = r->v[i];
        }
    }
    r->n = k;
    k = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (r->v[i].count)
            r->v[k++] = r->v[i];
        else
            free(r->v[i].sig);
    }
    r->n = k;
    return 0;
}

/* Append s[0..n) as the speedscope writer's contract says it is written:
 * valid UTF-8 sequences as they are, each other byte as U+FFFD (a sequence
 * is 2 to 4 bytes, not overlong, no surrogate, at most U+10FFFF). */
static void put_utf8(struct buf *b, const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        size_t k = c < 0x80                 ? 1
                   : c >= 0xc2 && c <= 0xdf ? 2
                   : c >= 0xe0 && c <= 0xef ? 3
                   : c >= 0xf0 && c <= 0xf4 ? 4
                                            : 0;
        int ok = k && i + k <= n;
        unsigned cp = k == 1 ? c : c & (0x7fu >> k);
        for (size_t q = 1; ok && q < k; q++) {
            if ((s[i + q] & 0xc0) != 0x80)
                ok = 0;
            cp = cp << 6 | (s[i + q] & 0x3f);
        }
        if (ok && ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
                   (k == 4 && (cp < 0x10000 || cp > 0x10ffff))))
            ok = 0;
        if (ok) {
            put(b, s + i, k);
            i += k;
        } else {
            put(b, "\xef\xbf\xbd", 3);
            i++;
        }
    }
}

/* Every sample in order: the names of its frames that name a function
 * (a position alone is no speedscope frame), innermost first, as UTF-8
 * (speedscope). */
static void samples_speedscope(const struct ss_model *m, struct recs *r)
{
    struct buf b = {0};
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        b.n = 0;
        put(&b, "", 0);
        ss_id s = m->sample_stack.v[i];
        const ss_id *fr = ss_stack_frames(m, s);
        for (size_t k = 0; k < ss_stack_depth(m, s); k++) {
            ss_id fn = m->locations.v[fr[k]].function;
            if (fn == SS_NONE)
                continue;
            ss_id name = m->functions.v[fn].name;
            const char *nm = ss_str(m, name);
            size_t n = ss_strtab_len(&m->strs, name);
            put_utf8(&b, (const unsigned char *)nm, n);
            put(&b, "\x1f", 1);
        }
        add(r, &b, 0);
    }
    free(b.p);
}

/* The summed count of each root-first path of names joined by ';', over the
 * samples with frames (folded). */
static int samples_folded(const struct ss_model *m, struct recs *r)
{
    struct buf b = {0};
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        if (!depth_of(m, i))
            continue;
        stack_sig(&b, m, i, 1, ';');
        add(r, &b, ss_sample_count(m, i));
    }
    free(b.p);
    return merge(r);
}

/* The self count per method name: the innermost frame of the samples with
 * frames, and the aggregates (sampling_prof).  A line end in a name reads
 * back as a space. */
static int self_by_name(const struct ss_model *m, struct recs *r)
{
    struct buf b = {0};
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        if (!depth_of(m, i))
            continue;
        b.n = 0;
        put(&b, "", 0);
        put_name(&b, m, ss_stack_frames(m, m->sample_stack.v[i])[0], 1);
        add(r, &b, ss_sample_count(m, i));
    }
    for (size_t i = 0; i < m->aggs.n; i++) {
        b.n = 0;
        put(&b, "", 0);
        put_name(&b, m, m->aggs.v[i].location, 1);
        add(r, &b, m->aggs.v[i].self);
    }
    free(b.p);
    return merge(r);
}

/* Value columns as "type/unit" then one value per sample (tables). */
static void values_exact(const struct ss_model *m, struct recs *r)
{
    struct buf b = {0};
    for (size_t t = 0; t < m->value_types.n; t++) {
        b.n = 0;
        put(&b, "", 0);
        const char *ty = ss_str(m, m->value_types.v[t].type);
        const char *un = ss_str(m, m->value_types.v[t].unit);
        put(&b, ty, strlen(ty));
        put(&b, "/", 1);
        put(&b, un, strlen(un));
        add(r, &b, (int64_t)t);
        b.n = 0;
        put(&b, "", 0);
        for (size_t i = 0; i < m->sample_stack.n; i++)
            add(r, &b, m->values.v[t] ? m->values.v[t][i] : t == SS_VT_COUNT);
    }
    b.n = 0;
    put(&b, "", 0);
    for (size_t i = 0; i < m->aggs.n; i++) {
        add(r, &b, m->aggs.v[i].self);
        add(r, &b, m->aggs.v[i].total);
    }
    for (size_t i = 0; i < m->edges.n; i++)
        add(r, &b, m->edges.v[i].count);
    char n[64];
    snprintf(n, sizeof n, "%zu sources", m->sources.n);
    b.n = 0;
    put(&b, n, strlen(n));
    add(r, &b, 0);
    free(b.p);
}

static void show(const struct rec *e)
{
    fputc('"', stderr);
    for (size_t i = 0; i < e->len && i < 200; i++) {
        unsigned char c = (unsigned char)e->sig[i];
        if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7f)
            fprintf(stderr, "\\x%02x", c);
        else
            fputc(c, stderr);
    }
    fprintf(stderr, "%s\" x %lld", e->len > 200 ? "..." : "", (long long)e->count);
}

/* Abort with a message when a and b differ. */
static void same(const struct recs *a, const struct recs *b, const char *fmt, const char *what)
{
    size_t i = 0;
    while (i < a->n && i < b->n && !by_sig(&a->v[i], &b->v[i]) && a->v[i].count == b->v[i].count)
        i++;
    if (i == a->n && i == b->n)
        return;
    fprintf(stderr, "fuzz_write: %s round trip: %s differ at entry %zu of %zu/%zu:\n  wrote ", fmt,
            what, i, a->n, b->n);
    if (i < a->n)
        show(&a->v[i]);
    else
        fputs("(nothing)", stderr);
    fputs("\n  read  ", stderr);
    if (i < b->n)
        show(&b->v[i]);
    else
        fputs("(nothing)", stderr);
    fputc('\n', stderr);
    abort();
}

static const char *workdir(void)
{
    return fuzz_tmp("write");
}

/* Write m in format f through ss_write_file (what `convert` does) to a file
 * or directory and load it back into back.  1 when written and loaded, 0
 * when the writer refused the model or wrote an empty file for a model with
 * nothing to write (folded: no stack with a count); aborts when a written
 * profile does not load. */
static int round_trip(const struct ss_model *m, enum ss_out_format f, char *input,
                      int nothing_to_write, struct ss_model *back)
{
    char path[600];
    struct ss_error err;
    snprintf(path, sizeof path, "%s/out", workdir());
    fuzz_tmp_clear(path, 0);
    rmdir(path);
    unlink(path);
    struct ss_write_opts o;
    memset(&o, 0, sizeof o);
    o.format = f;
    o.force = 1;
    o.inputs = &input;
    o.n_inputs = 1;
    if (ss_write_file(m, path, &o, &err))
        return 0;
    struct stat st;
    if (nothing_to_write && stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
        return 0;
    char *files[1] = {path};
    if (ss_load_files(back, files, 1, NULL, &err)) {
        /* one line that names the kind of finding, then the details */
        fprintf(stderr, "fuzz_write: %s round trip: what the writer wrote does not load\n  %s\n",
                ss_format_get(f)->name, err.msg);
        abort();
    }
    return 1;
}

/* The sum of the counts of the samples with frames, -1 on overflow or when
 * a count is negative. */
static int64_t weight(const struct ss_model *m)
{
    int64_t w = 0;
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        int64_t c = ss_sample_count(m, i);
        if (!depth_of(m, i))
            continue;
        if (c < 0 || __builtin_add_overflow(w, c, &w))
            return -1;
    }
    return w;
}

static void check(const struct ss_model *m, enum ss_out_format f, char *input)
{
    if (f == SS_OUT_RPROF) {
        int64_t w = weight(m);
        if (w < 0 || w > MAX_RPROF_LINES)
            return; /* too many lines to write in a fuzzing run */
    }
    struct recs a = {0}, b = {0};
    int empty = 0;
    if (f == SS_OUT_FOLDED) {
        int rc = samples_folded(m, &a);
        empty = rc == 0 && a.n == 0;
        recs_free(&a);
    }
    struct ss_model back;
    if (!round_trip(m, f, input, empty, &back))
        return;
    const char *name = ss_format_get(f)->name;
    switch (f) {
    case SS_OUT_TABLES:
        samples_exact(m, &a);
        samples_exact(&back, &b);
        same(&a, &b, name, "the samples");
        recs_free(&a);
        recs_free(&b);
        values_exact(m, &a);
        values_exact(&back, &b);
        same(&a, &b, name, "the values, aggregates or sources");
        break;
    case SS_OUT_PPROF:
        empty_is_unknown = 1;
        samples_exact(m, &a);
        empty_is_unknown = 0;
        samples_exact(&back, &b);
        same(&a, &b, name, "the samples");
        break;
    case SS_OUT_RPROF:
        if (samples_runs(m, &a) == 0 && samples_runs(&back, &b) == 0)
            same(&a, &b, name, "the samples with frames");
        break;
    case SS_OUT_SPEEDSCOPE:
        samples_speedscope(m, &a);
        samples_speedscope(&back, &b);
        same(&a, &b, name, "the samples (their stacks, in order)");
        break;
    case SS_OUT_FOLDED:
        if (samples_folded(m, &a) == 0 && samples_folded(&back, &b) == 0)
            same(&a, &b, name, "the counts per stack");
        break;
    default:
        if (self_by_name(m, &a) == 0 && self_by_name(&back, &b) == 0)
            same(&a, &b, name, "the self counts per method");
        break;
    }
    recs_free(&a);
    recs_free(&b);
    ss_model_free(&back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[600];
    snprintf(path, sizeof path, "%s/in", workdir());
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    struct ss_model m;
    struct ss_error err;
    char *files[1] = {path};
    if (ss_load_files(&m, files, 1, NULL, &err) == 0) {
        static const enum ss_out_format all[] = {SS_OUT_TABLES,        SS_OUT_PPROF,
                                                 SS_OUT_RPROF,         SS_OUT_FOLDED,
                                                 SS_OUT_SAMPLING_PROF, SS_OUT_SPEEDSCOPE};
        for (size_t i = 0; i < sizeof all / sizeof *all; i++) {
            /* folded stacks carry the measure's numbers (a pprof file's
             * default sample type): the check is of counts, so the folded
             * round trip runs under the samples measure, where there is one */
            if (all[i] == SS_OUT_FOLDED) {
                struct ss_model *mm = &m;
                const char *was = ss_model_measure_name(mm);
                char keep[256];
                snprintf(keep, sizeof keep, "%s", was);
                enum ss_measure_kind k = ss_model_measure(mm)->kind;
                if (k != SS_MEASURE_TIME && k != SS_MEASURE_SAMPLES &&
                    ss_model_set_measure(mm, "samples", &err))
                    continue;
                check(&m, all[i], path);
                ss_model_set_measure(mm, keep, &err);
                continue;
            }
            check(&m, all[i], path);
        }
        ss_model_free(&m);
    }
    return 0;
}
