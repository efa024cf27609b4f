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
#include <string.h>
#include <sys/stat.h>

#include "format.h"
#include "load_folded.h"
#include "reader.h"

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
    add_why(why, cap, &k, ": not a profile format stackscope reads; tried");
    int first = 1;
    for (size_t i = 0; ss_format_at(i); i++) {
        const struct ss_format *f = ss_format_at(i);
        if (!f->sniff)
            continue;
        add_why(why, cap, &k, "%s %s (%s)", first ? "" : ",", f->title, reason[i]);
        first = 0;
    }
    return NULL;
}

int ss_load_file(struct ss_model *m, const char *path, struct ss_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        /* DESIGN 10: a directory is v2 tables */
        for (size_t i = 0; ss_format_at(i); i++)
            if (ss_format_at(i)->directory)
                return ss_format_at(i)->load_dir(m, path, err);
    }
    struct ss_reader r;
    int rc = ss_reader_open(&r, path, err);
    if (rc)
        return rc;
    /* A folded file's first line is its most frequent stack, however deep:
     * the view grows until that line ends (the reader's limit: the size of
     * a regular file, SS_MAX_STREAM_LINE of a pipe). */
    size_t text_max = r.max_line;
    const char *p;
    const struct ss_format *f = NULL;
    int more = 1;
    char why[1024];
    for (size_t want = SNIFF_FIRST; more; want *= 2) {
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
        f = ss_sniff((const unsigned char *)p, (size_t)n, whole, r.mapped ? r.fsize : 0, &more, why,
                     sizeof why);
        if (more && want > text_max) {
            rc = ss_fail(err, SS_EINPUT,
                         "%s:1: line longer than %zu bytes (byte offset 0): not Rprof, "
                         "SamplingProf or pprof, and too long a line for folded stacks",
                         path, text_max);
            ss_reader_close(&r);
            return rc;
        }
    }
    rc = f ? f->load(m, &r, path, err) : ss_fail(err, SS_EINPUT, "%s%s", path, why);
    ss_reader_close(&r);
    return rc;
}

void ss_load_set_folded_interval(double us)
{
    ss_folded_set_interval(us);
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
