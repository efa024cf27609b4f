/* load.c - format detection and dispatch (see load.h).
 *
 * Detection looks at structure, never at a fixed window: the raw protobuf
 * test walks the whole visible prefix as profile.proto's wire format
 * (every tag a Profile field with its wire type, every nested message well
 * formed, every length within the file), and the text tests read the first
 * line that is not blank whole, growing the view of the file until it ends
 * (a regular file's line has no limit but its size; a pipe's is
 * SS_MAX_STREAM_LINE).  A text file is never taken for
 * protobuf because a byte of it happens to be a valid tag.
 */
#include "load.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "format.h"
#include "load_folded.h"
#include "load_pprof.h"
#include "reader.h"
#include "vec.h"

#define SNIFF_FIRST (1u << 16) /* bytes looked at first; more only for a long first line */

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

/* The number of the first line that holds more than spaces, tabs and CR
 * (1-based), or 0 when p[0..n) has none. */
static uint64_t first_text_line(const unsigned char *p, size_t n)
{
    uint64_t line = 1;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\n')
            line++;
        else if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
            return line;
    }
    return 0;
}

const struct ss_format *ss_sniff(const unsigned char *p, size_t n, int whole, uint64_t size,
                                 int *more, char *why, size_t cap)
{
    char reason[SS_FORMAT_MAX][320];
    *more = 0;
    /* in the table's detection order: distinctive starts first, folded
     * (whose first line may be anything ending in a count) last */
    for (unsigned rank = 1; rank <= SS_FORMAT_MAX; rank++)
        for (size_t i = 0; ss_format_at(i); i++) {
            const struct ss_format *f = ss_format_at(i);
            if (f->sniff_order != rank || !f->sniff)
                continue;
            reason[i][0] = '\0';
            int r = f->sniff(p, n, whole, size, reason[i], sizeof reason[i]);
            if (r > 0)
                return f;
            if (r < 0) {
                *more = 1;
                return NULL;
            }
        }
    size_t k = 0;
    if (why && cap)
        why[0] = '\0';
    uint64_t line = first_text_line(p, n);
    if (line)
        add_why(why, cap, &k, ":%llu", (unsigned long long)line);
    /* binary data (a NUL near the start): what the text formats wanted
     * says nothing; pprof's reason (the binary format) and folded stacks'
     * (whose lines may hold any byte but NUL) say what is wrong */
    size_t look = n < 4096 ? n : 4096;
    int binary = memchr(p, 0, look) != NULL;
    add_why(why, cap, &k, ": not a profile format stackscope reads; %s",
            binary ? "a binary file, tried" : "tried");
    int first = 1;
    for (size_t i = 0; ss_format_at(i); i++) {
        const struct ss_format *f = ss_format_at(i);
        if (!f->sniff || (binary && f->id != SS_OUT_PPROF && f->id != SS_OUT_FOLDED))
            continue;
        add_why(why, cap, &k, "%s %s (%s)", first ? "" : ",", f->title, reason[i]);
        first = 0;
    }
    return NULL;
}

/* Binary files people open by mistake, told by their first bytes: what
 * the file is and what to do instead (the file's name between `what` and
 * `then` when `then` is not NULL), so that the message says that rather
 * than what each text format wanted.  Not gzip: every gzip file goes to
 * pprof's reader, which tells gzipped text from a damaged profile. */
static const struct {
    const char *magic;
    size_t len;
    const char *what, *then;
} foreign[] = {
    {"PERFILE2", 8, "perf's binary perf.data, which stackscope does not read: run `perf script -i ",
     " > perf.txt` and open perf.txt"},
    {"PERFFILE", 8, "perf's binary perf.data, which stackscope does not read: run `perf script -i ",
     " > perf.txt` and open perf.txt"},
    /* gperftools' CPU profiler (CPUPROFILE=...): a header of words 0, 3
     * (header words), 0 (version), then the period; 64-bit, then 32-bit */
    {"\0\0\0\0\0\0\0\0\3\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 24,
     "a gperftools CPU profile (its binary format), which stackscope does not read: run `pprof "
     "-proto PROGRAM ",
     " > profile.pb.gz` (Go's pprof, with the profiled program) and open profile.pb.gz"},
    {"\0\0\0\0\3\0\0\0\0\0\0\0", 12,
     "a gperftools CPU profile (its binary format), which stackscope does not read: run `pprof "
     "-proto PROGRAM ",
     " > profile.pb.gz` (Go's pprof, with the profiled program) and open profile.pb.gz"},
    {"\x7f"
     "ELF",
     4,
     "an executable (ELF), not a profile: profile it (perf record -g, Rprof, pprof) and open the "
     "profile",
     NULL},
    {"FLR\0", 4,
     "a Java Flight Recorder file, which stackscope does not read: convert it to folded stacks "
     "(async-profiler's jfrconv --collapsed) and open those",
     NULL},
    {"PK\x03\x04", 4, "a zip archive: unpack ", " and open the profile inside"},
    {"SQLite format 3", 16, "an SQLite database, not a profile", NULL},
    {"%PDF", 4, "a PDF document, not a profile", NULL},
    {"\x89PNG", 4, "a PNG image, not a profile", NULL},
};

/* Why path, which no format took, is refused: a binary file of a kind
 * people confuse with a profile is named, with what to do; any other file
 * gets what the formats wanted (ss_sniff's why: for a binary file, pprof's
 * and folded stacks' only).  Into err. */
static int refuse(const char *path, const unsigned char *p, size_t n, const char *why,
                  struct ss_error *err)
{
    for (size_t i = 0; i < ARRAY_SIZE(foreign); i++)
        if (n >= foreign[i].len && !memcmp(p, foreign[i].magic, foreign[i].len))
            return ss_fail(err, SS_EINPUT, "%s: %s%s%s", path, foreign[i].what,
                           foreign[i].then ? path : "", foreign[i].then ? foreign[i].then : "");
    return ss_fail(err, SS_EINPUT, "%s%s", path, why);
}

/* Tell the format of r's file and load it into m. */
static int sniff_and_load(struct ss_model *m, struct ss_reader *r, const char *path,
                          struct ss_error *err)
{
    /* A folded file's first line is its most frequent stack, however deep:
     * the view grows until that line ends (the reader's limit: the size of
     * a regular file, SS_MAX_STREAM_LINE of a pipe). */
    size_t text_max = r->max_line;
    const char *p;
    const struct ss_format *f = NULL;
    int more = 1;
    char why[1024];
    long n = 0;
    for (size_t want = SNIFF_FIRST; more; want *= 2) {
        if (want > text_max)
            want = text_max + 2;
        n = ss_reader_peek(r, &p, want, err);
        if (n < 0)
            return err->code;
        if (n == 0)
            return ss_fail(err, SS_EINPUT, "%s: empty file", path);
        int whole = (size_t)n < want;
        f = ss_sniff((const unsigned char *)p, (size_t)n, whole, r->regular ? r->fsize : 0, &more,
                     why, sizeof why);
        if (more && want > text_max)
            return ss_fail(err, SS_EINPUT,
                           "%s:1: line longer than %zu bytes (byte offset 0): not Rprof, "
                           "SamplingProf or pprof, and too long a line for folded stacks",
                           path, text_max);
    }
    return f ? f->load(m, r, path, err)
             : refuse(path, (const unsigned char *)p, (size_t)n, why, err);
}

/* ss_load_file for the file-th of nfiles files. */
static int load_one(struct ss_model *m, const char *path, const struct ss_load_opts *o, int file,
                    int nfiles, struct ss_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        /* a directory is v2 tables (stackscope(1), FORMATS) */
        for (size_t i = 0; ss_format_at(i); i++)
            if (ss_format_at(i)->directory)
                return ss_format_at(i)->load_dir(m, path, err);
    }
    struct ss_reader r;
    int rc = ss_reader_open(&r, path, err);
    if (rc)
        return rc;
    r.opts = o;
    r.file = file;
    r.nfiles = nfiles;
    uint64_t before = m->count_total;
    rc = sniff_and_load(m, &r, path, err);
    rc = ss_load_changed(m, &r, path, before, 0, rc, err);
    ss_reader_close(&r);
    return rc;
}

int ss_load_file(struct ss_model *m, const char *path, const struct ss_load_opts *o,
                 struct ss_error *err)
{
    return load_one(m, path, o, 0, 1, err);
}

/* ---- kinds of profiles --------------------------------------------------
 *
 * Profiles of different kinds (a CPU profile and a heap profile) do not add
 * up: their samples count different things.  A source's kind is its list of
 * sample types: a pprof source's "sample_type" metas ("type/unit", in the
 * file's order; a tables copy of it keeps them); any other source (Rprof,
 * folded, SamplingProf, perf, Chrome/Node, speedscope) samples stacks,
 * "samples/count".  Two pprof sources agree when their lists are equal, as
 * Go's pprof merges only profiles with equal sample types; a source of the
 * other formats agrees with a pprof source that has samples/count (a CPU
 * profile).  Files that disagree are refused unless --mixed or a chosen
 * measure (--value) keeps them as separate sources: then one warning says
 * so, and the measure decides what each weighs (a source without it weighs
 * 0: stackscope(1), MEASURES).  Each file is represented by
 * its first source. */

struct kind {
    ss_id src;       /* the file's first source, SS_NONE when it has none */
    VEC(ss_id) type; /* its sample types (string ids), empty: samples/count */
};

static int kind_has(const struct ss_model *m, const struct kind *k, const char *type)
{
    for (size_t i = 0; i < k->type.n; i++)
        if (!strcmp(ss_str(m, k->type.v[i]), type))
            return 1;
    return 0;
}

static int kinds_agree(const struct ss_model *m, const struct kind *a, const struct kind *b)
{
    if (a->type.n == 0 || b->type.n == 0)
        return a->type.n == b->type.n || kind_has(m, a->type.n ? a : b, "samples/count");
    if (a->type.n != b->type.n)
        return 0;
    for (size_t i = 0; i < a->type.n; i++)
        if (strcmp(ss_str(m, a->type.v[i]), ss_str(m, b->type.v[i])))
            return 0;
    return 1;
}

/* "pprof, sample types a/b, c/d" or "rprof, sample type samples/count". */
static void kind_text(const struct ss_model *m, const struct kind *k, char *buf, size_t cap)
{
    size_t n = 0;
    add_why(buf, cap, &n, "%s, sample type%s ", ss_str(m, m->sources.v[k->src].type),
            k->type.n > 1 ? "s" : "");
    if (k->type.n == 0)
        add_why(buf, cap, &n, "samples/count");
    for (size_t i = 0; i < k->type.n; i++)
        add_why(buf, cap, &n, "%s%.200s", i ? ", " : "", ss_str(m, k->type.v[i]));
}

/* Refuse (or, with --mixed, warn about) files of different kinds: src_of[i]
 * is the first source of paths[i] (m->sources.n when it added none). */
static int check_kinds(struct ss_model *m, char *const *paths, int n, const size_t *src_of,
                       int mixed_ok, struct ss_error *err)
{
    struct kind *k = calloc((size_t)n, sizeof *k);
    if (!k)
        return ss_nomem(err, "the kinds of the inputs");
    for (int i = 0; i < n; i++)
        k[i].src = src_of[i] < m->sources.n && (i + 1 == n || src_of[i + 1] > src_of[i])
                       ? (ss_id)src_of[i]
                       : SS_NONE;
    int rc = 0;
    for (size_t e = 0; e < m->meta.n && !rc; e++) {
        const struct ss_meta *me = &m->meta.v[e];
        if (me->source == SS_NONE || strcmp(ss_str(m, me->key), "sample_type"))
            continue;
        for (int i = 0; i < n; i++)
            if (k[i].src == me->source && VEC_PUSH(k[i].type, me->value))
                rc = ss_nomem(err, "the kinds of the inputs");
    }
    for (int i = 1; i < n && !rc; i++)
        for (int j = 0; j < i && !rc; j++) {
            if (k[i].src == SS_NONE || k[j].src == SS_NONE || kinds_agree(m, &k[j], &k[i]))
                continue;
            char a[700], b[700];
            kind_text(m, &k[j], a, sizeof a);
            kind_text(m, &k[i], b, sizeof b);
            if (!mixed_ok) {
                rc = ss_fail(err, SS_EINPUT,
                             "%s (%s) and %s (%s) are profiles of different kinds, whose samples "
                             "do not add up%s: give them one at a time, or choose the measure "
                             "(--value NAME; sources without it weigh 0) or --mixed to keep "
                             "them as separate sources",
                             paths[j], a, paths[i], b,
                             k[i].type.n && k[j].type.n ? " (Go's pprof refuses to merge them too)"
                                                        : "");
            } else {
                ss_model_warn(m,
                              "%s (%s) and %s (%s) are profiles of different kinds, kept as "
                              "separate sources: every table weighs the chosen measure "
                              "(--value), and sources without it weigh 0",
                              paths[j], a, paths[i], b);
                i = n; /* one warning */
                break;
            }
        }
    for (int i = 0; i < n; i++)
        free(k[i].type.v);
    free(k);
    return rc;
}

int ss_load_files(struct ss_model *m, char *const *paths, int n, const struct ss_load_opts *o,
                  struct ss_error *err)
{
    int rc = ss_model_init(m, err);
    if (rc)
        return rc;
    size_t *src_of = malloc((n > 0 ? (size_t)n : 1) * sizeof *src_of);
    if (!src_of) {
        ss_model_free(m);
        return ss_nomem(err, "the list of inputs");
    }
    for (int i = 0; i < n && !rc; i++) {
        src_of[i] = m->sources.n;
        if (o && o->progress) {
            struct ss_progress p = {paths[i], 0, 0, m->sample_stack.n, i, n};
            o->progress(o->progress_ctx, &p);
        }
        rc = load_one(m, paths[i], o, i, n, err);
    }
    if (!rc && n > 1)
        rc = check_kinds(m, paths, n, src_of, o && o->mixed, err);
    free(src_of);
    if (rc) {
        ss_model_free(m);
        return rc;
    }
    ss_model_seal(m);
    rc = ss_model_set_measure(m, NULL, err); /* the default measure */
    if (rc)
        ss_model_free(m);
    return rc;
}
