/* load_gotext.c - Go's legacy text profiles (see load_gotext.h). */
#include "load_gotext.h"
#include "vec.h"

#include <string.h>

/* Does s[0..n) start with `word` followed by digits, then `rest`?  (A tiny
 * matcher for the fixed headers; `#` in a pattern stands for digits.) */
static int match(const char *s, size_t n, const char *pat)
{
    size_t i = 0;
    for (; *pat; pat++) {
        if (*pat == '#') {
            size_t a = i;
            while (i < n && s[i] >= '0' && s[i] <= '9')
                i++;
            if (i == a)
                return 0;
        } else if (*pat == '*') {
            return 1; /* anything after */
        } else {
            if (i >= n || s[i] != *pat)
                return 0;
            i++;
        }
    }
    return i == n;
}

static const struct {
    const char *pat, *what;
} headers[] = {
    {"goroutine profile: total #", "goroutine profile in text form (debug=1)"},
    {"threadcreate profile: total #", "threadcreate profile in text form (debug=1)"},
    {"heap profile: #: # [#: #] @ heap/#", "heap or allocs profile in text form (debug=1)"},
    {"heap profile: #: # [#: #] @ heap_v2/#", "heap or allocs profile in text form (debug=1)"},
    {"--- contention:", "block or mutex profile in text form (debug=1)"},
    {"--- mutex:", "mutex profile in text form (debug=1)"},
    {"goroutine # [*", "goroutine dump (debug=2, or a panic's traceback)"},
};

int ss_gotext_sniff(const char *p, size_t n, int whole, const char **what)
{
    if (n == 0) {
        *what = "an empty file";
        return whole ? 0 : -1;
    }
    /* a UTF-8 byte order mark (an editor on Windows saved it) */
    size_t a = n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3) ? 3 : 0;
    while (a < n && (p[a] == '\n' || p[a] == '\r' || p[a] == ' ' || p[a] == '\t'))
        a++;
    size_t b = a;
    while (b < n && p[b] != '\n' && p[b] != '\r')
        b++;
    if (b == n && !whole) {
        if (b - a < (1u << 16))
            return -1;
        /* A header is short: a first line past 64 KiB is none (a deep
         * folded stack, binary data), without waiting for its end. */
        *what = "the first line is not a header of Go's text profiles";
        return 0;
    }
    size_t len = b - a;
    while (len && p[a + len - 1] == ' ')
        len--;
    for (size_t i = 0; i < ARRAY_SIZE(headers); i++)
        if (match(p + a, len, headers[i].pat)) {
            *what = headers[i].what;
            return 1;
        }
    *what = "the first line is not a header of Go's text profiles";
    return 0;
}

int ss_load_gotext(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err)
{
    (void)m;
    const char *p, *what = "text profile";
    long n = ss_reader_peek(r, &p, 1u << 16, err);
    if (n < 0)
        return err->code;
    if (n > 0)
        ss_gotext_sniff(p, (size_t)n, 1, &what);
    if (!strncmp(what, "goroutine dump", 14))
        return ss_fail(err, SS_EINPUT,
                       "%s:1: a Go %s, not a profile: stackscope reads Go's profiles in "
                       "protobuf form (/debug/pprof/goroutine without ?debug=, or "
                       "pprof.Lookup(\"goroutine\").WriteTo(w, 0))",
                       path, what);
    return ss_fail(err, SS_EINPUT,
                   "%s:1: a Go %s, which stackscope does not read: fetch the profile without "
                   "?debug=1 (protobuf, which stackscope reads), or convert it with "
                   "'go tool pprof -proto FILE > FILE.pb.gz'",
                   path, what);
}
