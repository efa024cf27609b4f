/* source.c - finding and reading the source files a profile names (see
 * source.h). */
#include "source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vec.h"

void ss_source_file_free(struct ss_source_file *f)
{
    free(f->text);
    free(f->off);
    free(f->where);
    memset(f, 0, sizeof *f);
}

/* Tabs to spaces up to the next stop of 8 columns (counting characters,
 * not bytes of UTF-8), so that text keeps its indentation on a screen.
 * Returns the new text (t freed) or t when memory runs out. */
static char *expand_tabs(char *t, size_t *len)
{
    size_t tabs = 0;
    for (size_t i = 0; i < *len; i++)
        tabs += t[i] == '\t';
    if (!tabs)
        return t;
    char *o = ss_alloc_array(*len + tabs * 7 + 1, 1);
    if (!o)
        return t; /* shown with its tabs escaped rather than not at all */
    size_t k = 0, col = 0;
    for (size_t i = 0; i < *len; i++) {
        unsigned char ch = (unsigned char)t[i];
        if (ch == '\t') {
            do
                o[k++] = ' ';
            while (++col % 8);
            continue;
        }
        o[k++] = (char)ch;
        if (ch == '\n')
            col = 0;
        else if ((ch & 0xc0) != 0x80)
            col++;
    }
    o[k] = '\0';
    free(t);
    *len = k;
    return o;
}

int ss_source_from_text(char *t, size_t len, unsigned flags, const char *where,
                        struct ss_source_file *out)
{
    memset(out, 0, sizeof *out);
    if (flags & SS_SOURCE_EXPAND_TABS)
        t = expand_tabs(t, &len);
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        n += t[i] == '\n';
    n += len > 0 && t[len - 1] != '\n'; /* a last line without its newline */
    out->off = ss_alloc_array(n, sizeof *out->off);
    out->where = strdup(where);
    if (!out->off || !out->where) {
        free(t);
        ss_source_file_free(out);
        return -1;
    }
    size_t k = 0, start = 0;
    for (size_t i = 0; i <= len && k < n; i++) {
        if (i < len && t[i] != '\n')
            continue;
        out->off[k++] = start;
        if (i > start && t[i - 1] == '\r')
            t[i - 1] = '\0';
        t[i] = '\0'; /* t has room for its NUL at len */
        start = i + 1;
    }
    out->text = t;
    out->nlines = n;
    return 0;
}

/* Read the regular file `path` (at most SS_SOURCE_MAX_FILE bytes).  1 and
 * the text (NUL-terminated) in *t, 0 when it is not there, -1 when memory
 * runs out. */
static int read_whole(const char *path, char **t, size_t *len)
{
    struct stat sb;
    if (stat(path, &sb) || !S_ISREG(sb.st_mode) || (size_t)sb.st_size > SS_SOURCE_MAX_FILE)
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char *b = malloc((size_t)sb.st_size + 1);
    size_t n = b ? fread(b, 1, (size_t)sb.st_size, f) : 0;
    int bad = ferror(f);
    fclose(f);
    if (!b)
        return -1;
    if (bad) {
        free(b);
        return 0;
    }
    b[n] = '\0';
    *t = b;
    *len = n;
    return 1;
}

/* The search in progress: the places tried, for the message. */
struct look {
    unsigned flags;
    struct ss_source_file *out;
    struct ss_strbuf *tried;
    size_t ntried;
};

/* Try `path`: 1 found (out filled), 0 not, -1 out of memory. */
static int try_path(struct look *lk, const char *path)
{
    char *t;
    size_t len;
    int r = read_whole(path, &t, &len);
    if (r == 1)
        return ss_source_from_text(t, len, lk->flags, path, lk->out) ? -1 : 1;
    if (r == 0 && lk->tried) {
        /* the first few places, then how many more: a message, not a log */
        if (lk->ntried < 6)
            ss_strbuf_printf(lk->tried, "%s%s", lk->ntried ? ", " : "", path);
        lk->ntried++;
    }
    return r;
}

/* dir/tail into buf (n bytes); 0, or -1 when it does not fit. */
static int join(char *buf, size_t n, const char *dir, size_t dlen, const char *tail)
{
    while (dlen > 1 && dir[dlen - 1] == '/')
        dlen--;
    int k = snprintf(buf, n, "%.*s/%s", (int)dlen, dir, tail);
    return k < 0 || (size_t)k >= n ? -1 : 0;
}

/* Under directory dir: dir/path, then each shorter tail of path. */
static int try_under(struct look *lk, const char *dir, const char *path)
{
    char buf[8192];
    for (const char *tail = path; tail; tail = strchr(tail, '/')) {
        while (*tail == '/')
            tail++;
        if (!*tail)
            break;
        if (join(buf, sizeof buf, dir, strlen(dir), tail))
            continue;
        int r = try_path(lk, buf);
        if (r)
            return r;
    }
    return 0;
}

/* The path rewritten by map mp, into buf; 0, or -1 when FROM is not a
 * prefix of path at a '/' boundary (or it does not fit). */
static int mapped(const struct ss_source_map *mp, const char *path, char *buf, size_t n)
{
    size_t fl = strlen(mp->from);
    if (strncmp(path, mp->from, fl))
        return -1;
    const char *rest = path + fl;
    if (*rest && *rest != '/' && !(fl > 0 && mp->from[fl - 1] == '/'))
        return -1; /* /home/ana is no prefix of /home/analyst/x.R */
    while (*rest == '/')
        rest++;
    return *rest ? join(buf, n, mp->to, strlen(mp->to), rest) : -1;
}

int ss_source_read(const struct ss_source_search *s, const char *path, unsigned flags,
                   struct ss_source_file *out, struct ss_strbuf *tried)
{
    struct look lk = {flags, out, tried, 0};
    char buf[8192];
    int r = 0;
    memset(out, 0, sizeof *out);
    if (!*path)
        return 0; /* an unnamed file (code typed at R's prompt) is nowhere */
    for (size_t i = 0; !r && i < s->nmaps; i++)
        if (!mapped(&s->maps[i], path, buf, sizeof buf))
            r = try_path(&lk, buf);
    if (!r)
        r = try_path(&lk, path);
    for (size_t i = 0; !r && path[0] != '/' && i < s->ninputs; i++) {
        const char *slash = strrchr(s->inputs[i], '/');
        if (slash && !join(buf, sizeof buf, s->inputs[i], (size_t)(slash - s->inputs[i]), path))
            r = try_path(&lk, buf);
    }
    for (size_t i = 0; !r && i < s->ndirs; i++)
        r = try_under(&lk, s->dirs[i], path);
    if (r || !s->m)
        return r;
    ss_id pid = ss_strtab_find(&s->m->strs, path, strlen(path));
    ss_id tid = pid == SS_NONE ? SS_NONE : ss_model_source_text(s->m, pid);
    if (tid == SS_NONE)
        return 0;
    size_t len = ss_strtab_len(&s->m->strs, tid);
    char *t = malloc(len + 1);
    if (!t)
        return -1;
    memcpy(t, ss_str(s->m, tid), len);
    t[len] = '\0';
    return ss_source_from_text(t, len, flags, "carried in the profile", out) ? -1 : 1;
}

void ss_source_missing(struct ss_strbuf *b, const struct ss_source_search *s, const char *path,
                       const char *tried, const char *opt)
{
    if (!*path) {
        ss_strbuf_printf(b, ": no file (code typed at R's prompt, or run by profvis)");
        return;
    }
    if (tried && *tried)
        ss_strbuf_printf(b, ": not found (tried %s)", tried);
    else
        ss_strbuf_printf(b, ": not found");
    ss_strbuf_printf(b,
                     "; %ssource-path DIR looks under DIR by the path's tail, %ssource-map "
                     "FROM=TO rewrites a prefix FROM",
                     opt, opt);
    if (s->ndirs || s->nmaps)
        ss_strbuf_printf(b, " (given: %zu %ssource-path, %zu %ssource-map)", s->ndirs, opt,
                         s->nmaps, opt);
}

/* The number R gave an unnamed file of m (its `unnamed file` meta entry),
 * or NULL. */
static const char *unnamed_number(const struct ss_model *m)
{
    for (size_t i = 0; i < m->meta.n; i++)
        if (!strcmp(ss_str(m, m->meta.v[i].key), "unnamed file"))
            return ss_str(m, m->meta.v[i].value);
    return NULL;
}

const char *ss_source_base_label(const struct ss_model *m, const char *base, char *buf, size_t n)
{
    if (*base) {
        snprintf(buf, n, "%s", base);
        return buf;
    }
    const char *k = unnamed_number(m);
    snprintf(buf, n, k ? "(unnamed file %s)" : "(unnamed file)", k);
    return buf;
}

const char *ss_source_label(const struct ss_model *m, ss_id file, char *buf, size_t n)
{
    return ss_source_base_label(m, file == SS_NONE ? "NA" : ss_str(m, file), buf, n);
}

int ss_source_function_range(const struct ss_model *m, ss_id fid, ss_id file, uint32_t *lo,
                             uint32_t *hi)
{
    VEC(uint32_t) lines = {NULL, 0, 0};
    for (size_t l = 0; l < m->locations.n; l++) {
        const struct ss_location *loc = &m->locations.v[l];
        if (loc->file == file && loc->line && loc->function != SS_NONE &&
            ss_function_canonical(m, loc->function) == fid && VEC_PUSH(lines, loc->line))
            break;
    }
    /* shared[k]: another function has a frame at lines.v[k] */
    uint8_t *shared = ss_calloc_array(lines.n, 1);
    for (size_t l = 0; shared && l < m->locations.n; l++) {
        const struct ss_location *loc = &m->locations.v[l];
        if (loc->file != file || !loc->line || loc->function == SS_NONE ||
            ss_function_canonical(m, loc->function) == fid)
            continue;
        for (size_t k = 0; k < lines.n; k++)
            shared[k] |= lines.v[k] == loc->line;
    }
    int own = 0;
    for (size_t k = 0; shared && k < lines.n; k++)
        own |= !shared[k];
    *lo = UINT32_MAX;
    *hi = 0;
    for (size_t k = 0; k < lines.n; k++) {
        if (own && shared[k])
            continue;
        *lo = lines.v[k] < *lo ? lines.v[k] : *lo;
        *hi = lines.v[k] > *hi ? lines.v[k] : *hi;
    }
    free(shared);
    VEC_FREE(lines);
    return *hi ? 0 : -1;
}

int ss_source_map_parse(char *arg, struct ss_source_map *out)
{
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg || !eq[1])
        return -1;
    *eq = '\0';
    out->from = arg;
    out->to = eq + 1;
    return 0;
}

long ss_source_embed(struct ss_model *m, const struct ss_source_search *s, size_t max_file,
                     size_t max_total, struct ss_strbuf *left_out)
{
    /* every distinct file of the locations, once (a mark per string id) */
    size_t nstr = m->strs.n;
    uint8_t *seen = ss_calloc_array(nstr, 1);
    if (!seen)
        return -1;
    size_t total = 0;
    long carried = 0;
    int oom = 0, nleft = 0;
    for (size_t l = 0; !oom && l < m->locations.n; l++) {
        ss_id f = m->locations.v[l].file;
        if (f == SS_NONE || f >= nstr || seen[f] || !*ss_str(m, f))
            continue;
        seen[f] = 1;
        if (ss_model_source_text(m, f) != SS_NONE) {
            carried++; /* carried already (a tables directory read back) */
            continue;
        }
        struct ss_source_search own = *s;
        own.m = NULL;
        struct ss_source_file sf;
        int r = ss_source_read(&own, ss_str(m, f), 0, &sf, NULL);
        if (r < 0) {
            oom = 1;
            break;
        }
        /* its size: the lines and their newlines, as carried */
        size_t size = 0;
        for (size_t k = 1; r && k <= sf.nlines; k++)
            size += strlen(ss_source_line(&sf, (uint32_t)k)) + 1;
        const char *why = !r                         ? "not found"
                          : size > max_file          ? "larger than the limit for one file"
                          : total + size > max_total ? "past the limit for all files"
                                                     : NULL;
        if (why) {
            ss_strbuf_printf(left_out, "%s%s (%s)", nleft++ ? ", " : "", ss_str(m, f), why);
            if (r)
                ss_source_file_free(&sf);
            continue;
        }
        struct ss_strbuf t = SS_STRBUF_INIT;
        for (size_t k = 1; k <= sf.nlines; k++)
            ss_strbuf_printf(&t, "%s\n", ss_source_line(&sf, (uint32_t)k));
        ss_source_file_free(&sf);
        ss_id tid = t.failed ? SS_NONE : ss_model_intern(m, ss_strbuf_str(&t), t.len);
        ss_strbuf_free(&t);
        if (tid == SS_NONE || ss_model_add_source_text(m, f, tid)) {
            oom = 1;
            break;
        }
        total += size;
        carried++;
    }
    free(seen);
    return oom || left_out->failed ? -1 : carried;
}
