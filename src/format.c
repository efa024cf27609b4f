/* format.c - the table of formats (see format.h), and the small adapters
 * that give every reader's detection test one signature. */
#include "format.h"

#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "load_cpuprofile.h"
#include "load_folded.h"
#include "load_gotext.h"
#include "load_perf.h"
#include "load_pprof.h"
#include "load_rprof.h"
#include "load_sampling.h"
#include "load_speedscope.h"
#include "load_trace.h"
#include "load_tables.h"
#include "writers.h"
#include "vec.h"

/* ---- detection adapters ------------------------------------------------- */

static void say(char *why, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void say(char *why, size_t cap, const char *fmt, ...)
{
    if (!why || !cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, cap, fmt, ap);
    va_end(ap);
}

/* The line starting at *pos (without its line end: LF, CRLF or CR).
 * Returns 1 and advances *pos past it, 0 at the end of the data, or -1 when
 * the line has not ended within p[0..n) and the file goes on. */
static int first_line(const char *p, size_t n, int whole, size_t *pos, const char **line,
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

/* Is every line of p[0..n) a folded line (STACK COUNT, or blank), at least
 * one of them complete with a stack?  The line that p cuts off (not `whole`)
 * is not looked at.  Folded is detected last, since any line ending in a
 * count is one: a file of nothing else is folded stacks, whatever its first
 * line looks like to a reader tried before (a perf script header, a Go
 * profile's first line, a JSON text), so that every folded file stackscope
 * writes reads back as folded stacks. */
static int all_folded(const unsigned char *p, size_t n, int whole)
{
    const char *s = (const char *)p;
    int stacks = 0;
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && s[b] != '\n' && s[b] != '\r')
            b++;
        if (b == n && !whole)
            break;
        const char *stack, *why;
        size_t slen;
        uint64_t count;
        int k = ss_folded_parse_line(s + a, b - a, &stack, &slen, &count, &why);
        if (k < 0)
            return 0;
        stacks += k == 0;
        a = b + 1;
    }
    return stacks > 0;
}

/* A reader tried before folded stacks passes on a file of folded lines. */
static int yield_to_folded(const unsigned char *p, size_t n, int whole, char *why, size_t cap)
{
    if (!all_folded(p, n, whole))
        return 0;
    say(why, cap, "every line is a folded stack (STACK COUNT)");
    return 1;
}

/* Rprof: the first line that is not empty is a header ("sample.interval=",
 * with or without flags, maybe with a bad interval).  A header is short: a
 * first line that goes on past the view is not one. */
static int sniff_rprof(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                       size_t cap)
{
    (void)size;
    size_t pos = 0, len;
    const char *line;
    while (first_line((const char *)p, n, whole, &pos, &line, &len) == 1)
        if (len > 0) {
            if (ss_rprof_is_header(line, len))
                return 1;
            break;
        }
    say(why, cap, "the first line is not a header like 'sample.interval=20000'");
    return 0;
}

static int sniff_sampling(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                          size_t cap)
{
    (void)whole, (void)size;
    if (ss_sampling_prof_sniff((const char *)p, n))
        return 1;
    say(why, cap, "the first line is not a runtime followed by a blank line");
    return 0;
}

/* pprof: gzip's magic, or a well-formed prefix of a raw Profile message. */
static int sniff_pprof(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                       size_t cap)
{
    if (n >= 2 && p[0] == 0x1f && p[1] == 0x8b)
        return 1;
    if (yield_to_folded(p, n, whole, why, cap))
        return 0;
    const char *pb_why = NULL;
    size_t at = 0;
    if (ss_pprof_sniff_raw(p, n, whole, size, &pb_why, &at))
        return 1;
    say(why, cap, "no gzip magic; as raw protobuf, byte %zu: %s", at, pb_why);
    return 0;
}

static int sniff_folded(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                        size_t cap)
{
    (void)size;
    const char *fo_why = NULL;
    uint64_t line = 0;
    int r = ss_folded_sniff((const char *)p, n, whole, &fo_why, &line);
    if (r == 0) {
        if (line)
            say(why, cap, "line %llu: %s", (unsigned long long)line, fo_why);
        else
            say(why, cap, "%s", fo_why);
    }
    return r;
}

/* A sniffer's answer k, with its reason r said when it is no. */
static int reason(int k, const char *r, char *why, size_t cap)
{
    if (k == 0)
        say(why, cap, "%s", r);
    return k;
}

/* The formats whose reader has a sniffer of its own (JSON, perf script,
 * Go's text, traces); those that a folded file could look like (not the
 * traces) first yield to it (yield_to_folded). */
static int sniff_cpuprofile(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                            size_t cap)
{
    (void)size;
    if (yield_to_folded(p, n, whole, why, cap))
        return 0;
    const char *r = NULL;
    int k = ss_cpuprofile_sniff(p, n, whole, &r);
    return reason(k, r, why, cap);
}

static int sniff_speedscope(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                            size_t cap)
{
    (void)size;
    if (yield_to_folded(p, n, whole, why, cap))
        return 0;
    const char *r = NULL;
    int k = ss_speedscope_sniff(p, n, whole, &r);
    return reason(k, r, why, cap);
}

static int sniff_gotext(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                        size_t cap)
{
    (void)size;
    if (yield_to_folded(p, n, whole, why, cap))
        return 0;
    const char *r = NULL;
    int k = ss_gotext_sniff((const char *)p, n, whole, &r);
    return reason(k, r, why, cap);
}

static int sniff_perf(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                      size_t cap)
{
    (void)size;
    if (yield_to_folded(p, n, whole, why, cap))
        return 0;
    const char *r = NULL;
    int k = ss_perf_sniff((const char *)p, n, whole, &r);
    return reason(k, r, why, cap);
}

static int sniff_trace(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                       size_t cap)
{
    (void)size;
    const char *r = NULL;
    int k = ss_trace_sniff(p, n, whole, &r);
    return reason(k, r, why, cap);
}

static int sniff_perfetto(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                          size_t cap)
{
    (void)size;
    const char *r = NULL;
    int k = ss_perfetto_sniff(p, n, whole, &r);
    return reason(k, r, why, cap);
}

/* ---- the table ----------------------------------------------------------- */

/* One line per format, in the order of messages and help. */
static const struct ss_format formats[] = {
    {SS_OUT_RPROF,
     "rprof",
     "Rprof",
     {".out", ".prof", ".rprof"},
     0,
     0,
     1,
     sniff_rprof,
     ss_load_rprof,
     NULL,
     ss_write_rprof,
     NULL},
    {SS_OUT_PERFETTO,
     "perfetto",
     "Perfetto trace",
     {NULL},
     0,
     0,
     3,
     sniff_perfetto,
     ss_load_perfetto,
     NULL,
     NULL,
     NULL},
    {SS_OUT_PPROF,
     "pprof",
     "pprof",
     {".pb.gz", ".pb", ".pprof"},
     0,
     0,
     3,
     sniff_pprof,
     ss_load_pprof,
     NULL,
     ss_write_pprof,
     NULL},
    {SS_OUT_FOLDED,
     "folded",
     "folded stacks",
     {".folded", ".folded.txt", ".collapsed"},
     0,
     0,
     8,
     sniff_folded,
     ss_load_folded,
     NULL,
     ss_write_folded,
     NULL},
    {SS_OUT_SAMPLING_PROF,
     "sampling_prof",
     "SamplingProf",
     {".sprof.txt", ".sampling_prof"},
     0,
     1,
     2,
     sniff_sampling,
     ss_load_sampling_prof,
     NULL,
     ss_write_sampling_prof,
     NULL},
    {SS_OUT_TABLES,
     "tables",
     "v2 tables",
     {"/"},
     1,
     1,
     0,
     NULL,
     NULL,
     ss_load_tables,
     NULL,
     ss_write_tables},
    {SS_OUT_CPUPROFILE,
     "cpuprofile",
     "Chrome/Node CPU profile",
     {NULL},
     0,
     0,
     4,
     sniff_cpuprofile,
     ss_load_cpuprofile,
     NULL,
     NULL,
     NULL},
    {SS_OUT_CHROME_TRACE,
     "chrome_trace",
     "Chrome trace",
     {NULL},
     0,
     0,
     5,
     sniff_trace,
     ss_load_trace,
     NULL,
     NULL,
     NULL},
    {SS_OUT_SPEEDSCOPE,
     "speedscope",
     "speedscope",
     {".speedscope.json"},
     0,
     0,
     5,
     sniff_speedscope,
     ss_load_speedscope,
     NULL,
     ss_write_speedscope,
     NULL},
    {SS_OUT_GO_TEXT,
     "go_text",
     "Go text profile",
     {NULL},
     0,
     0,
     6,
     sniff_gotext,
     ss_load_gotext,
     NULL,
     NULL,
     NULL},
    {SS_OUT_PERF_SCRIPT,
     "perf",
     "perf script",
     {NULL},
     0,
     0,
     7,
     sniff_perf,
     ss_load_perf,
     NULL,
     NULL,
     NULL},
    {SS_OUT_SVG, "svg", "SVG flame graph", {".svg"}, 0, 0, 0, NULL, NULL, NULL, ss_write_svg, NULL},
};

#define NFORMATS ARRAY_SIZE(formats)

const struct ss_format *ss_format_at(size_t i)
{
    return i < NFORMATS ? &formats[i] : NULL;
}

const struct ss_format *ss_format_get(enum ss_out_format id)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (formats[i].id == id)
            return &formats[i];
    return NULL;
}

const struct ss_format *ss_format_named(const char *name)
{
    for (size_t i = 0; i < NFORMATS; i++)
        if (!strcmp(formats[i].name, name))
            return &formats[i];
    return NULL;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

const struct ss_format *ss_format_for_path(const char *path)
{
    /* the longest matching suffix wins (".folded.txt" over a ".txt") */
    const struct ss_format *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < NFORMATS; i++)
        for (size_t k = 0; k < ARRAY_SIZE(formats[i].suffixes) && formats[i].suffixes[k]; k++)
            if (ends_with(path, formats[i].suffixes[k]) &&
                strlen(formats[i].suffixes[k]) > best_len) {
                best = &formats[i];
                best_len = strlen(formats[i].suffixes[k]);
            }
    if (best)
        return best;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        for (size_t i = 0; i < NFORMATS; i++)
            if (formats[i].directory)
                return &formats[i];
    return NULL;
}

int ss_format_writable(const struct ss_format *f)
{
    return f && (f->write || f->write_dir);
}

const char *ss_format_names(char *buf, size_t n, const char *sep, const char *last)
{
    size_t k = 0, nw = 0, w = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < NFORMATS; i++)
        nw += ss_format_writable(&formats[i]);
    for (size_t i = 0; i < NFORMATS; i++) {
        if (!ss_format_writable(&formats[i]))
            continue;
        const char *s = w == 0 ? "" : w + 1 == nw ? last : sep;
        w++;
        k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%s", s, formats[i].name);
    }
    return buf;
}

const char *ss_format_suffix_help(char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0, w = 0; i < NFORMATS; i++) {
        const struct ss_format *f = &formats[i];
        if (!ss_format_writable(f))
            continue;
        k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s", w++ ? ", " : "");
        if (f->directory) {
            k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "DIR/ for %s", f->name);
            continue;
        }
        for (size_t s = 0; s < ARRAY_SIZE(f->suffixes) && f->suffixes[s]; s++)
            k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%s", s ? " " : "", f->suffixes[s]);
        k += (size_t)snprintf(buf + k, k < n ? n - k : 0, ": %s", f->name);
    }
    return buf;
}

const char *ss_format_suffix_brief(char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0, w = 0; i < NFORMATS; i++) {
        const struct ss_format *f = &formats[i];
        if (!ss_format_writable(f) || !f->suffixes[0])
            continue;
        const char *sx = f->directory ? "DIR/" : f->suffixes[0];
        /* the name only where the suffix does not say it (.folded) */
        int named = strncmp(sx + (sx[0] == '.'), f->name, strlen(f->name)) != 0;
        k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%s%s%s%s", w++ ? ", " : "", sx,
                              named ? " (" : "", named ? f->name : "", named ? ")" : "");
    }
    return buf;
}
