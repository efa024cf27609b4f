/* write_rprof.c - the Rprof text writer (stackscope(1), Rprof; see write.h).
 *
 * It inverts the reader (load_rprof.c).  The reader gives a frame the
 * position token written just before its name and keeps a token after the
 * outermost name as the stack's tail, so writing, innermost first,
 * `[F#L ]"name" ` per frame and then `F#L ` for the tail gives back the
 * token layout of the input, and with it R's summaryRprof(lines = "show")
 * attribution.  Each source becomes one session: a header with its flags
 * and interval, then its samples in order.  File numbers are assigned per
 * session in order of first use and each `#File N: path` line is written
 * just before the first sample line that uses it, as R does; a position
 * whose file was never declared in the input gets a number no `#File` line
 * declares (R prints it as NA#line).
 *
 * Other models (pprof, folded, tables, transformed ones) are written the
 * same way: frames without a position get no token; a source that is not an
 * Rprof session gets a plain header ("line profiling: " when its frames
 * carry positions), its interval rounded to whole microseconds (1 s when
 * the interval is unknown); a sample with count k becomes k identical lines
 * so the sample counts are kept; samples with no frames are written only in
 * memory sessions (R itself writes nothing for them otherwise).  What Rprof
 * cannot hold is refused with an error: aggregate-only sources, negative
 * counts or memory values, names or paths with a line end, and names the
 * reader would split differently (containing `" "`, ending in `" `, or
 * holding `" F#L ` text: R writes names verbatim, so no quoting can help).
 */
#include "writers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "limits.h"
#include "rprof.h"
#include "vec.h"

#define RPROF_MAX_LINES SS_MAX_RPROF_LINES /* refuse to write more sample lines */
#define RPROF_MAX_INTERVAL_US 3600000000.0

struct rw {
    const struct ss_model *m;
    FILE *f;
    const char *path;
    struct ss_error *err;
    uint32_t *fileno;      /* per string id: file number in the session, 0 = none */
    uint32_t *stamp;       /* per stack: session stamp of the numbering pass */
    size_t *text_off;      /* per stack: offset of its cached line text */
    uint32_t *text_len;    /* its length */
    uint32_t *text_stamp;  /* session stamp of the cached text */
    uint8_t *name_ok;      /* per function: 0 unchecked, 1 ok */
    VEC(ss_id) files;      /* file string ids of the session, number - 1 */
    VEC(uint8_t) declared; /* #File line written, per number - 1 */
    VEC(char) arena;       /* cached stack texts of the session */
    uint32_t undeclared;   /* number for positions without a file, 0 = unused */
    int has_pos;
    struct ss_rprof_vt vt;
    int have_vt;
};

/* Can the reader split `"s" ` back out of a line?  It ends a name at the
 * first '"' followed by a space and then the end, '"' or a D+#D+ token. */
static int name_ok(const char *s, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        char c = s[j];
        if (c == '\n' || c == '\r' || c == '\0')
            return 0;
        if (c != '"' || j + 1 >= n || s[j + 1] != ' ')
            continue;
        if (j + 2 == n || s[j + 2] == '"')
            return 0;
        size_t k = j + 2, d = k;
        while (d < n && s[d] >= '0' && s[d] <= '9')
            d++;
        if (d == k || d >= n || s[d] != '#')
            continue;
        size_t e = ++d;
        while (d < n && s[d] >= '0' && s[d] <= '9')
            d++;
        if (d > e && d < n && s[d] == ' ')
            return 0;
    }
    return 1;
}

/* A position token is FILE#LINE with a line from 1 (what R writes and the
 * reader takes): a location with a file but no line (pprof) has none. */
static int has_position(const struct ss_location *l)
{
    return l->line > 0;
}

/* Number the files of one position (first use), noting positions without a
 * file.  Returns 0 or an error code. */
static int number_position(struct rw *w, ss_id loc)
{
    const struct ss_location *l = &w->m->locations.v[loc];
    if (!has_position(l))
        return 0;
    w->has_pos = 1;
    if (l->file == SS_NONE) {
        w->undeclared = 1; /* the real number is set once all files are known */
        return 0;
    }
    if (w->fileno[l->file])
        return 0;
    const char *p = ss_str(w->m, l->file);
    if (strpbrk(p, "\r\n"))
        return ss_fail(w->err, SS_EUSAGE,
                       "%s: cannot write Rprof: the file path \"%s\" contains a line end", w->path,
                       p);
    if (VEC_PUSH(w->files, l->file) || VEC_PUSH(w->declared, 0))
        return ss_nomem(w->err, "file numbers");
    w->fileno[l->file] = (uint32_t)w->files.n;
    return 0;
}

/* The first pass over a session: number its files in order of first use
 * and find out whether it has positions at all. */
static int number_session(struct rw *w, const struct ss_source *so, uint32_t stamp)
{
    const struct ss_model *m = w->m;
    for (size_t i = 0; i < w->files.n; i++)
        w->fileno[w->files.v[i]] = 0;
    w->files.n = w->declared.n = 0;
    w->undeclared = 0;
    w->has_pos = 0;
    for (size_t i = so->first_sample; i < so->first_sample + so->n_samples; i++) {
        ss_id st = m->sample_stack.v[i];
        if (w->stamp[st] == stamp)
            continue;
        w->stamp[st] = stamp;
        const ss_id *fr = ss_stack_frames(m, st);
        for (size_t k = 0; k < ss_stack_depth(m, st); k++)
            if (number_position(w, fr[k]))
                return w->err->code;
        if (m->stack_tail.v[st] != SS_NONE && number_position(w, m->stack_tail.v[st]))
            return w->err->code;
    }
    if (w->undeclared)
        w->undeclared = (uint32_t)w->files.n + 1;
    return 0;
}

static int put(struct rw *w, const char *s, size_t n)
{
    if (VEC_RESERVE(w->arena, w->arena.n + n))
        return ss_nomem(w->err, "Rprof line");
    memcpy(w->arena.v + w->arena.n, s, n);
    w->arena.n += n;
    return 0;
}

/* Append the position token of loc (if it has one), writing the #File line
 * of its file first when this is the file's first use. */
static int put_position(struct rw *w, ss_id loc)
{
    const struct ss_location *l = &w->m->locations.v[loc];
    if (!has_position(l))
        return 0;
    uint32_t no = l->file == SS_NONE ? w->undeclared : w->fileno[l->file];
    if (l->file != SS_NONE && !w->declared.v[no - 1]) {
        w->declared.v[no - 1] = 1;
        fprintf(w->f, "#File %u: %s\n", no, ss_str(w->m, l->file));
    }
    char buf[32];
    int k = snprintf(buf, sizeof buf, "%u#%u ", no, l->line);
    return put(w, buf, (size_t)k);
}

static int put_name(struct rw *w, ss_id loc)
{
    const struct ss_model *m = w->m;
    ss_id fn = ss_loc_function(m, loc);
    ss_id name = m->functions.v[fn].name;
    const char *s = ss_str(m, name);
    size_t n = ss_strtab_len(&m->strs, name);
    if (!w->name_ok[fn]) {
        if (!name_ok(s, n))
            return ss_fail(w->err, SS_EUSAGE,
                           "%s: cannot write Rprof: the function name \"%s\" contains a line end "
                           "or '\" ' followed by a name or position, which R's format cannot "
                           "hold (names are written verbatim between double quotes)",
                           w->path, s);
        w->name_ok[fn] = 1;
    }
    if (put(w, "\"", 1) || put(w, s, n) || put(w, "\" ", 2))
        return w->err->code;
    return 0;
}

/* The text of stack st in this session (tokens only, no memory prefix, no
 * line end), built and cached on first use; *#File lines go out first. */
static int stack_text(struct rw *w, ss_id st, uint32_t stamp, const char **s, size_t *n)
{
    const struct ss_model *m = w->m;
    if (w->text_stamp[st] != stamp) {
        size_t start = w->arena.n;
        const ss_id *fr = ss_stack_frames(m, st);
        for (size_t k = 0; k < ss_stack_depth(m, st); k++)
            if (put_position(w, fr[k]) || put_name(w, fr[k]))
                return w->err->code;
        if (m->stack_tail.v[st] != SS_NONE && put_position(w, m->stack_tail.v[st]))
            return w->err->code;
        if (w->arena.n - start > UINT32_MAX)
            return ss_fail(w->err, SS_EUSAGE, "%s: cannot write Rprof: a stack is over 4 GB",
                           w->path);
        w->text_off[st] = start;
        w->text_len[st] = (uint32_t)(w->arena.n - start);
        w->text_stamp[st] = stamp;
    }
    *n = w->text_len[st];
    *s = *n ? w->arena.v + w->text_off[st] : "";
    return 0;
}

static int64_t column(const struct ss_model *m, ss_id t, size_t i)
{
    return m->values.v[t] ? m->values.v[t][ss_sample_row(m, i)] : 0;
}

static int write_session(struct rw *w, ss_id src)
{
    const struct ss_model *m = w->m;
    const struct ss_source *so = &m->sources.v[src];
    uint32_t stamp = src + 1;
    if (so->flags & SS_SRC_AGGREGATE)
        return ss_fail(w->err, SS_EUSAGE,
                       "%s: cannot write Rprof: %s (%s) holds aggregate counts, not samples",
                       w->path, ss_str(m, so->uri), ss_str(m, so->type));
    if (number_session(w, so, stamp))
        return w->err->code;
    double us = so->interval_us;
    if (!(us > 0))
        us = 1e6; /* unknown: 1 s, so times equal counts */
    if (us > RPROF_MAX_INTERVAL_US)
        return ss_fail(w->err, SS_EUSAGE,
                       "%s: cannot write Rprof: the interval of %s (%g us) is over an hour",
                       w->path, ss_str(m, so->uri), us);
    long long ius = llround(us);
    if (ius < 1)
        ius = 1;
    int memory = (so->flags & SS_SRC_MEMORY) != 0;
    int line = (so->flags & SS_SRC_LINE) || w->has_pos;
    fprintf(w->f, "%s%s%ssample.interval=%lld\n", memory ? "memory profiling: " : "",
            (so->flags & SS_SRC_GC) ? "GC profiling: " : "", line ? "line profiling: " : "", ius);
    w->arena.n = 0;
    for (size_t i = so->first_sample; i < so->first_sample + so->n_samples; i++) {
        ss_id st = m->sample_stack.v[i];
        int64_t count = ss_sample_count(m, i);
        if (count < 0)
            return ss_fail(w->err, SS_EUSAGE,
                           "%s: cannot write Rprof: sample %zu has a negative count (%lld)",
                           w->path, i + 1, (long long)count);
        char prefix[128];
        size_t plen = 0;
        if (memory) {
            int64_t v[4] = {0, 0, 0, 0};
            if (w->have_vt) {
                v[0] = column(m, w->vt.small_v, i);
                v[1] = column(m, w->vt.big_v, i);
                v[2] = column(m, w->vt.nodes, i);
                v[3] = column(m, w->vt.dup_count, i);
            }
            if (v[0] < 0 || v[1] < 0 || v[2] < 0 || v[3] < 0)
                return ss_fail(w->err, SS_EUSAGE,
                               "%s: cannot write Rprof: sample %zu has a negative memory value",
                               w->path, i + 1);
            plen = (size_t)snprintf(prefix, sizeof prefix, ":%lld:%lld:%lld:%lld:", (long long)v[0],
                                    (long long)v[1], (long long)v[2], (long long)v[3]);
        }
        if (!memory && ss_stack_depth(m, st) == 0 && m->stack_tail.v[st] == SS_NONE)
            continue; /* R writes no line for a sample with no frames */
        const char *s = NULL;
        size_t n = 0;
        if (stack_text(w, st, stamp, &s, &n))
            return w->err->code;
        for (int64_t k = 0; k < count; k++) {
            if (plen)
                fwrite(prefix, 1, plen, w->f);
            if (n)
                fwrite(s, 1, n, w->f);
            putc('\n', w->f);
        }
    }
    return 0;
}

int ss_write_rprof(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    uint64_t lines = 0;
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        int64_t c = ss_sample_count(m, i);
        lines += c > 0 ? (uint64_t)c : 0;
        if (lines > RPROF_MAX_LINES)
            return ss_fail(err, SS_EUSAGE,
                           "%s: cannot write Rprof: with sample %zu of %s (count %lld) the sample "
                           "counts add up to more than %llu lines (one line per sample)",
                           path, i - m->sources.v[ss_sample_source(m, i)].first_sample + 1,
                           ss_str(m, m->sources.v[ss_sample_source(m, i)].uri), (long long)c,
                           RPROF_MAX_LINES);
    }
    struct rw w;
    memset(&w, 0, sizeof w);
    w.m = m;
    w.f = f;
    w.path = path;
    w.err = err;
    w.have_vt = ss_rprof_value_types(m, &w.vt) == 0;
    size_t ns = ss_model_nstacks(m), nstr = m->strs.n;
    w.fileno = ss_calloc_array(nstr, sizeof *w.fileno);
    w.stamp = ss_calloc_array(ns, sizeof *w.stamp);
    w.text_stamp = ss_calloc_array(ns, sizeof *w.text_stamp);
    w.text_off = ss_alloc_array(ns, sizeof *w.text_off);
    w.text_len = ss_alloc_array(ns, sizeof *w.text_len);
    w.name_ok = ss_calloc_array(m->functions.n, 1);
    int rc = 0;
    if (!w.fileno || !w.stamp || !w.text_stamp || !w.text_off || !w.text_len || !w.name_ok)
        rc = ss_nomem(err, "Rprof writer");
    for (size_t s = 0; !rc && s < m->sources.n; s++)
        rc = write_session(&w, (ss_id)s);
    free(w.fileno);
    free(w.stamp);
    free(w.text_stamp);
    free(w.text_off);
    free(w.text_len);
    free(w.name_ok);
    VEC_FREE(w.files);
    VEC_FREE(w.declared);
    VEC_FREE(w.arena);
    return rc;
}
