/* transform_parse.c - the transform language: one command line to a step and
 * a step back to its canonical text (see transform.h for the commands).
 *
 * Tokens are separated by blanks.  A token is a bare word (anything up to
 * the next blank), a "quoted name" (\", \\, \n and \r are the escapes) or a
 * /regex/ (up to the next unescaped '/'; \/ stands for a slash).  '#' at the
 * start of a token begins a comment.  The canonical text quotes a name only
 * when it has to, so that it always reparses to the same step.
 */
#include "transform_int.h"
#include "vec.h"
#include "num.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parser's state: the line, a position and the error it found. */
struct lexer {
    const char *s;
    size_t len, i;
    size_t col; /* error column (1-based) */
    char *msg;  /* error message buffer */
    size_t msgn;
    int oom;
};

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Record an error at byte offset `at`; returns SS_EUSAGE. */
static int lex_fail(struct lexer *lx, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int lex_fail(struct lexer *lx, size_t at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(lx->msg, lx->msgn, fmt, ap);
    va_end(ap);
    lx->col = at + 1;
    return SS_EUSAGE;
}

static void skip_blanks(struct lexer *lx)
{
    while (lx->i < lx->len && is_blank(lx->s[lx->i]))
        lx->i++;
}

/* At the end of the command (the line's end or a comment)? */
static int at_end(struct lexer *lx)
{
    skip_blanks(lx);
    return lx->i >= lx->len || lx->s[lx->i] == '#';
}

/* A bare word at the current position: [*start, *start + *n). */
static void bare_word(struct lexer *lx, size_t *start, size_t *n)
{
    *start = lx->i;
    while (lx->i < lx->len && !is_blank(lx->s[lx->i]))
        lx->i++;
    *n = lx->i - *start;
}

/* A short excerpt of a token for messages (ss_fail escapes its control
 * characters, as in every message). */
static void excerpt(char *buf, size_t n, const char *s, size_t len)
{
    size_t k = 0;
    for (size_t i = 0; i < len && k + 4 < n; i++)
        buf[k++] = s[i];
    if (k + 4 >= n && len > k) {
        buf[k++] = '.';
        buf[k++] = '.';
        buf[k++] = '.';
    }
    buf[k] = '\0';
}

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* The end of a token must be a blank, the end of the line or nothing else. */
static int token_end(struct lexer *lx, const char *what)
{
    if (lx->i < lx->len && !is_blank(lx->s[lx->i]))
        return lex_fail(lx, lx->i, "expected a blank after the %s", what);
    return 0;
}

/* A "quoted name" starting at the quote; the unescaped name goes to *out
 * (malloc'd). */
static int quoted(struct lexer *lx, char **out)
{
    size_t q = lx->i++;
    char *buf = malloc(lx->len - q + 1);
    size_t k = 0;
    if (!buf) {
        lx->oom = 1;
        return SS_ENOMEM;
    }
    for (;;) {
        if (lx->i >= lx->len) {
            free(buf);
            return lex_fail(lx, q, "unterminated quoted name (expected a closing '\"')");
        }
        char c = lx->s[lx->i];
        if (c == '"')
            break;
        if (c == '\\') {
            char e = lx->i + 1 < lx->len ? lx->s[lx->i + 1] : '\0';
            if (e != '"' && e != '\\' && e != 'n' && e != 'r') {
                free(buf);
                return lex_fail(lx, lx->i,
                                "unknown escape in a quoted name (\\\", \\\\, \\n and \\r are the "
                                "escapes)");
            }
            buf[k++] = e == 'n' ? '\n' : e == 'r' ? '\r' : e;
            lx->i += 2;
            continue;
        }
        buf[k++] = c;
        lx->i++;
    }
    lx->i++; /* the closing quote */
    buf[k] = '\0';
    int rc = token_end(lx, "closing quote");
    if (rc) {
        free(buf);
        return rc;
    }
    *out = buf;
    return 0;
}

/* Limits on a /regex/, because the cost of glibc's regcomp (which checks
 * every pattern's syntax, match.h) and of matching grows with the pattern: a
 * 790 KB alternation took 5 GB and 20 s, a back-reference (a GNU extension
 * POSIX ERE lacks) backtracks exponentially, and a bounded repetition of a
 * group that itself repeats ((.{1,30}){1,30}) or long runs of optional
 * items (.{0,255} 15 times) make automata of many thousand states.  Within
 * these limits the automaton (match.c) has at most a few thousand states,
 * and matching is linear in the names' length.  A '+'
 * counts as a copy too: regcomp expands a+ into aa*, so a+++... (found by
 * fuzzing) doubles its size with every '+' (20 of them: 10 s and 1 GB);
 * stacked operators are refused outright (POSIX leaves them undefined):
 * g+?++++++ within every other limit took 30 s to compile. */
#define TF_REGEX_MAX_LEN 1000      /* bytes between the slashes */
#define TF_REGEX_MAX_REPEATS 100   /* operators * + ? {m,n} */
#define TF_REGEX_MAX_BOUND 255     /* m and n of {m,n} (POSIX's RE_DUP_MAX) */
#define TF_REGEX_MAX_EXPANSION 256 /* items {m,n} repetitions add when expanded */

/* The end of the bracket expression starting at t[i] == '[' (the index of
 * its closing ']'), or n when it is not closed (regcomp reports that). */
static size_t bracket_end(const char *t, size_t n, size_t i)
{
    size_t j = i + 1;
    if (j < n && t[j] == '^')
        j++;
    if (j < n && t[j] == ']')
        j++; /* a leading ']' is a member */
    for (; j < n; j++) {
        if (t[j] == '[' && j + 1 < n && (t[j + 1] == ':' || t[j + 1] == '.' || t[j + 1] == '=')) {
            char close = t[j + 1];
            for (j += 2; j + 1 < n && !(t[j] == close && t[j + 1] == ']'); j++)
                ;
            j++;
        } else if (t[j] == ']') {
            return j;
        }
    }
    return n;
}

/* Is t[*i] a repetition operator (* ? + or a bound {m,n}, after an item
 * that repeats already when last_repeats)?  Returns how many times at most
 * it repeats the item (a bound: *i moved to its '}'), 0 when it is not
 * one, or -1 with why set. */
static long repetition(const char *t, size_t n, size_t *i, int last_repeats, char *why, size_t whyn)
{
    char c = t[*i];
    if (c == '*' || c == '?')
        return 1;
    if (c == '+')
        return 2; /* glibc copies the item (a+ is aa*): a+++... doubles each time */
    if (c != '{')
        return 0;
    size_t j = *i + 1;
    unsigned long lo = 0, hi;
    int digits = 0;
    for (; j < n && t[j] >= '0' && t[j] <= '9'; j++, digits++)
        lo = lo > TF_REGEX_MAX_BOUND ? lo : lo * 10 + (unsigned long)(t[j] - '0');
    hi = lo;
    if (j < n && t[j] == ',') {
        hi = 0;
        for (j++; j < n && t[j] >= '0' && t[j] <= '9'; j++)
            hi = hi > TF_REGEX_MAX_BOUND ? hi : hi * 10 + (unsigned long)(t[j] - '0');
        if (hi < lo)
            hi = lo; /* {m,}: as {m} here */
    }
    if (!((digits || t[*i + 1] == ',') && j < n && t[j] == '}')) /* glibc: {,n} */
        return 0; /* not a bound: a literal, or regcomp's error */
    if (hi > TF_REGEX_MAX_BOUND) {
        snprintf(why, whyn, "repetition bound over %d", TF_REGEX_MAX_BOUND);
        return -1;
    }
    if (last_repeats) {
        snprintf(why, whyn,
                 "a {m,n} repetition of something that repeats already (too slow to match)");
        return -1;
    }
    *i = j;
    return hi > 1 ? (long)hi : 1;
}

/* Check a pattern's text (as written between the slashes) against the
 * limits above.  Returns 0, or -1 with why set and *at the offset of the
 * fault in t. */
static int regex_limits(const char *t, size_t n, size_t *at, char *why, size_t whyn)
{
    enum { DEPTH = 64 };
    struct {
        unsigned long size; /* items of the group so far, alternatives added */
        int repeats;        /* a repetition operator inside */
    } g[DEPTH + 1];
    int d = 0, nrep = 0;
    unsigned long extra = 0; /* items the {m,n} repetitions add */
    unsigned long last = 0;  /* items of the last atom: what a {m,n} repeats */
    int last_repeats = 0;    /* ... and whether it holds a repetition itself */
    int prev_repeat = 0;     /* the previous item was a repetition operator */
    g[0].size = 0;
    g[0].repeats = 0;
    *at = 0;
    if (n > TF_REGEX_MAX_LEN) {
        snprintf(why, whyn, "regular expression of %zu bytes, longer than the limit of %d", n,
                 TF_REGEX_MAX_LEN);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        char c = t[i];
        *at = i;
        if (c == '\\' && i + 1 < n && t[i + 1] >= '1' && t[i + 1] <= '9') {
            snprintf(why, whyn,
                     "back-references (\\%c) are not part of POSIX extended regular "
                     "expressions",
                     t[i + 1]);
            return -1;
        }
        if (c == '(') {
            if (d == DEPTH) {
                snprintf(why, whyn, "groups nested more than %d deep", DEPTH);
                return -1;
            }
            d++;
            g[d].size = 0;
            g[d].repeats = 0;
            last = 0;
            last_repeats = 0;
            prev_repeat = 0;
            continue;
        }
        if (c == '|') {
            last = 0;
            last_repeats = 0;
            prev_repeat = 0;
            continue;
        }
        /* a repetition operator: the most it repeats */
        long times = repetition(t, n, &i, last_repeats, why, whyn);
        if (times < 0)
            return -1;
        if (times && prev_repeat) {
            /* a+* a?+ a*? ...: POSIX leaves stacked repetition operators
             * undefined, and glibc's regcomp blows up on a few of them
             * (g+?++++++ took 30 s, found by fuzzing) */
            snprintf(why, whyn,
                     "a repetition operator right after another one (* + ? {m,n} stacked are "
                     "undefined in POSIX regular expressions; write (a+)? for an optional a+)");
            return -1;
        }
        prev_repeat = times != 0;
        if (times) {
            if (++nrep > TF_REGEX_MAX_REPEATS) {
                snprintf(why, whyn, "more than %d repetition operators (* + ? {m,n})",
                         TF_REGEX_MAX_REPEATS);
                return -1;
            }
            g[d].size += last * (unsigned long)(times - 1);
            extra += last * (unsigned long)(times - 1);
            last *= (unsigned long)times;
            g[d].repeats = 1;
            last_repeats = 1;
        } else if (c == ')' && d > 0) {
            unsigned long items = g[d].size ? g[d].size : 1;
            int inner = g[d].repeats;
            d--;
            g[d].size += items;
            g[d].repeats |= inner;
            last = items;
            last_repeats = inner;
        } else {
            if (c == '\\')
                i += i + 1 < n;
            else if (c == '[')
                i = bracket_end(t, n, i);
            g[d].size++;
            last = 1;
            last_repeats = 0;
        }
        if (extra > TF_REGEX_MAX_EXPANSION) {
            snprintf(
                why, whyn,
                "repetitions (+ or {m,n}) that expand to more than %d items (too slow to match)",
                TF_REGEX_MAX_EXPANSION);
            return -1;
        }
    }
    return 0;
}

/* A /regex/ starting at the slash: the text between the slashes goes to
 * p->text and the compiled expression to p->re. */
static int regex_pattern(struct lexer *lx, struct tf_pattern *p)
{
    size_t start = lx->i++;
    size_t body = lx->i;
    while (lx->i < lx->len && lx->s[lx->i] != '/') {
        if (lx->s[lx->i] == '\\' && lx->i + 1 < lx->len)
            lx->i++;
        lx->i++;
    }
    if (lx->i >= lx->len)
        return lex_fail(lx, start, "unterminated regular expression (expected a closing '/')");
    size_t n = lx->i - body;
    lx->i++;
    if (n == 0)
        return lex_fail(lx, start, "empty regular expression");
    for (size_t j = body; j < body + n; j++)
        if (lx->s[j] == '\n' || lx->s[j] == '\r') /* a step is one line of a script */
            return lex_fail(lx, j, "a line end in a regular expression");
    int rc = token_end(lx, "closing '/' of the regular expression");
    if (rc)
        return rc;
    size_t at;
    char why[160];
    if (regex_limits(lx->s + body, n, &at, why, sizeof why))
        return lex_fail(lx, body + at, "%s", why);
    p->text = dup_n(lx->s + body, n);
    char *src = malloc(n + 1);
    if (!p->text || !src) {
        free(src);
        lx->oom = 1;
        return SS_ENOMEM;
    }
    /* "\/" stands for "/"; every other escape goes to regcomp as written. */
    size_t k = 0;
    for (size_t j = 0; j < n; j++) {
        if (p->text[j] == '\\' && j + 1 < n && p->text[j + 1] == '/')
            j++;
        else if (p->text[j] == '\\' && j + 1 < n)
            src[k++] = p->text[j++];
        src[k++] = p->text[j];
    }
    src[k] = '\0';
    char what[256];
    int e = ss_regex_compile(&p->re, src, what, sizeof what);
    free(src);
    if (e) {
        ss_regex_free(&p->re);
        if (e == -2) {
            lx->oom = 1;
            return SS_ENOMEM;
        }
        return lex_fail(lx, start, "bad regular expression: %s", what);
    }
    p->is_regex = 1;
    return 0;
}

static const char any_name[] = "a function name (a word, a \"quoted name\" or a /regex/)";

/* A function pattern: a bare word, a "quoted name" or a /regex/. */
static int pattern(struct lexer *lx, struct tf_pattern *p)
{
    memset(p, 0, sizeof *p);
    if (at_end(lx))
        return lex_fail(lx, lx->i, "expected %s", any_name);
    char c = lx->s[lx->i];
    if (c == '"')
        return quoted(lx, &p->text);
    if (c == '/')
        return regex_pattern(lx, p);
    size_t start, n;
    bare_word(lx, &start, &n);
    if (n == 2 && !memcmp(lx->s + start, "=>", 2))
        return lex_fail(lx, start, "expected %s before '=>'", any_name);
    p->text = dup_n(lx->s + start, n);
    if (!p->text) {
        lx->oom = 1;
        return SS_ENOMEM;
    }
    return 0;
}

/* A new name (replace's NEW, class's NAME): a bare word or a "quoted name". */
static int new_name(struct lexer *lx, const char *what, char **out)
{
    if (at_end(lx))
        return lex_fail(lx, lx->i, "expected %s (a word or a \"quoted name\")", what);
    size_t at = lx->i;
    int rc;
    if (lx->s[lx->i] == '"') {
        rc = quoted(lx, out);
        if (rc)
            return rc;
    } else if (lx->s[lx->i] == '/') {
        return lex_fail(lx, at, "expected %s (a word or a \"quoted name\"), not a /regex/", what);
    } else {
        size_t start, n;
        bare_word(lx, &start, &n);
        *out = dup_n(lx->s + start, n);
        if (!*out) {
            lx->oom = 1;
            return SS_ENOMEM;
        }
    }
    if (**out == '\0')
        return lex_fail(lx, at, "expected %s, not an empty name", what);
    return 0;
}

/* keep-line's FILE#LINE, as report --by line names a line: the file's
 * basename (a path is cut to it) and a line number from 1. */
static int line_arg(struct lexer *lx, struct tf_step *st)
{
    size_t at = lx->i;
    char *loc;
    int rc = new_name(lx, "a line, FILE#LINE as report --by line names it (lm.R#12)", &loc);
    if (rc)
        return rc;
    char *hash = strrchr(loc, '#'), *end = NULL;
    unsigned long line = hash && hash[1] >= '1' && hash[1] <= '9' ? strtoul(hash + 1, &end, 10) : 0;
    if (!hash || !end || *end || line == 0 || line > UINT32_MAX - 1) {
        free(loc);
        return lex_fail(lx, at,
                        "expected FILE#LINE as report --by line names a line (lm.R#12; quote it "
                        "when the file has no name: \"#3\")");
    }
    *hash = '\0';
    const char *base = strrchr(loc, '/');
    st->key = dup_n(base ? base + 1 : loc, strlen(base ? base + 1 : loc));
    st->line = (uint32_t)line;
    free(loc);
    if (!st->key) {
        lx->oom = 1;
        return SS_ENOMEM;
    }
    return 0;
}

/* The "=>" between the patterns and the new name. */
static int arrow(struct lexer *lx, const char *what)
{
    if (at_end(lx))
        return lex_fail(lx, lx->i, "expected '=>' and %s", what);
    size_t start, n;
    bare_word(lx, &start, &n);
    if (n != 2 || memcmp(lx->s + start, "=>", 2))
        return lex_fail(lx, start, "expected '=>' and %s", what);
    return 0;
}

/* ---- ranges ----------------------------------------------------------------- */

static const int64_t unit_ns[] = {1000000000, 1000000, 1000};
static const char *const unit_name[] = {"s", "ms", "us"};

/* One end of a range, s[0..n) at byte offset `at`: a sample number or a
 * time.  *kind: 0 empty, 1 sample number, 2 time. */
static int range_end(struct lexer *lx, const char *s, size_t n, size_t at, int *kind, int64_t *v,
                     enum tf_unit *unit)
{
    *kind = 0;
    if (n == 0)
        return 0;
    size_t i = 0;
    int neg = 0;
    if (s[i] == '-') {
        neg = 1;
        i++;
    }
    size_t d0 = i;
    uint64_t ip = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        if (ip > (uint64_t)INT64_MAX / 10)
            return lex_fail(lx, at, "number too large");
        ip = ip * 10 + (uint64_t)(s[i] - '0');
        i++;
    }
    size_t nint = i - d0, f0 = i, f1 = i;
    int dot = 0;
    if (i < n && s[i] == '.') {
        dot = 1;
        f0 = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        f1 = i;
    }
    if (nint + (f1 - f0) == 0)
        return lex_fail(lx, at + d0, "expected a number");
    const char *u = s + i;
    size_t un = n - i;
    if (un == 0) {
        if (dot)
            return lex_fail(lx, at,
                            "a sample number is a whole number (add s, ms or us for a time)");
        if (ip == 0)
            return lex_fail(lx, at, "sample numbers start at 1 (-1 is the last sample)");
        if (ip > ((uint64_t)1 << 62))
            return lex_fail(lx, at, "number too large");
        *kind = 1;
        *v = neg ? -(int64_t)ip : (int64_t)ip;
        return 0;
    }
    int k;
    for (k = 0; k < 3; k++)
        if (strlen(unit_name[k]) == un && !memcmp(u, unit_name[k], un))
            break;
    if (k == 3)
        return lex_fail(lx, at + i, "expected a time unit s, ms or us after the number");
    int64_t per = unit_ns[k];
    if (ip > (uint64_t)(INT64_MAX / per))
        return lex_fail(lx, at, "time too large");
    int64_t ns = (int64_t)ip * per, scale = per / 10;
    for (size_t j = f0; j < f1 && scale > 0; j++, scale /= 10) /* finer than 1 ns: ignored */
        if (__builtin_add_overflow(ns, (s[j] - '0') * scale, &ns))
            return lex_fail(lx, at, "time too large");
    *kind = 2;
    *v = neg ? -ns : ns;
    *unit = (enum tf_unit)k;
    return 0;
}

static const char range_help[] = "a sample range A:B (e.g. 1:100, -50:, 0.5s:2s)";

static int range(struct lexer *lx, struct tf_range *r)
{
    memset(r, 0, sizeof *r);
    if (at_end(lx))
        return lex_fail(lx, lx->i, "expected %s", range_help);
    size_t start, n;
    bare_word(lx, &start, &n);
    const char *w = lx->s + start;
    const char *colon = memchr(w, ':', n);
    int ka, kb, rc;
    if (!colon) {
        rc = range_end(lx, w, n, start, &ka, &r->a, &r->unit_a);
        if (rc)
            return rc;
        if (ka != 1)
            return lex_fail(lx, start, "expected %s; a time needs both ends or a colon",
                            range_help);
        r->b = r->a;
        r->has_a = r->has_b = 1;
        return 0;
    }
    size_t na = (size_t)(colon - w);
    rc = range_end(lx, w, na, start, &ka, &r->a, &r->unit_a);
    if (rc)
        return rc;
    rc = range_end(lx, colon + 1, n - na - 1, start + na + 1, &kb, &r->b, &r->unit_b);
    if (rc)
        return rc;
    if (ka && kb && ka != kb)
        return lex_fail(lx, start, "both ends of a range are sample numbers or both are times");
    /* ends of one sign are ordered now; 5:-3 depends on the profile */
    if (ka && kb && (r->a < 0) == (r->b < 0) && r->a > r->b)
        return lex_fail(lx, start, "reversed range %.*s: the first end comes after the second",
                        (int)n, w);
    r->has_a = ka != 0;
    r->has_b = kb != 0;
    r->is_time = ka == 2 || kb == 2;
    if (!r->is_time)
        r->unit_a = r->unit_b = TF_S;
    return 0;
}

/* ---- canonical text ----------------------------------------------------------- */

struct sbuf {
    char *s;
    size_t n, cap;
    int oom;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
    if (b->oom || ss_grow((void **)&b->s, &b->cap, b->n + n + 1, 1)) {
        b->oom = 1;
        return;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void sb_str(struct sbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

/* A name, quoted when a bare word would not read back as the same name. */
static void sb_name(struct sbuf *b, const char *name)
{
    int quote = name[0] == '\0' || name[0] == '/' || name[0] == '#' || !strcmp(name, "=>");
    for (const char *p = name; !quote && *p; p++)
        quote = is_blank(*p) || *p == '"' || (unsigned char)*p < 0x20;
    if (!quote) {
        sb_str(b, name);
        return;
    }
    sb_add(b, "\"", 1);
    for (const char *p = name; *p; p++) {
        /* a line end escaped: a step's text is one line of a script */
        if (*p == '\n' || *p == '\r') {
            sb_add(b, *p == '\n' ? "\\n" : "\\r", 2);
            continue;
        }
        if (*p == '"' || *p == '\\')
            sb_add(b, "\\", 1);
        sb_add(b, p, 1);
    }
    sb_add(b, "\"", 1);
}

static void sb_pattern(struct sbuf *b, const struct tf_pattern *p)
{
    if (!p->is_regex) {
        sb_name(b, p->text);
        return;
    }
    sb_add(b, "/", 1);
    sb_str(b, p->text);
    sb_add(b, "/", 1);
}

static void sb_range_end(struct sbuf *b, const struct tf_range *r, int64_t v, enum tf_unit u)
{
    char buf[64];
    if (!r->is_time) {
        snprintf(buf, sizeof buf, "%lld", (long long)v);
        sb_str(b, buf);
        return;
    }
    uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, per = (uint64_t)unit_ns[u];
    int k = snprintf(buf, sizeof buf, "%s%llu", v < 0 ? "-" : "", (unsigned long long)(a / per));
    uint64_t frac = a % per;
    if (frac) {
        char fb[32];
        int digits = u == TF_S ? 9 : u == TF_MS ? 6 : 3;
        snprintf(fb, sizeof fb, "%0*llu", digits, (unsigned long long)frac);
        size_t fl = strlen(fb);
        while (fl > 0 && fb[fl - 1] == '0')
            fb[--fl] = '\0';
        k += snprintf(buf + k, sizeof buf - (size_t)k, ".%s", fb);
    }
    snprintf(buf + k, sizeof buf - (size_t)k, "%s", unit_name[u]);
    sb_str(b, buf);
}

/* keep-phase / drop-phase: "P[ phases=N][ penalty=X]". */
static void sb_phase(struct sbuf *b, const struct tf_step *st)
{
    char buf[64];
    ss_phase_ref_text(&st->phase, buf, sizeof buf);
    sb_str(b, buf);
    if (st->phase_opts.count) {
        snprintf(buf, sizeof buf, " phases=%zu", st->phase_opts.count);
        sb_str(b, buf);
    }
    if (st->phase_opts.penalty > 0) {
        snprintf(buf, sizeof buf, " penalty=%.15g", st->phase_opts.penalty);
        if (!ss_double_eq(strtod(buf + 9, NULL), st->phase_opts.penalty))
            snprintf(buf, sizeof buf, " penalty=%.17g", st->phase_opts.penalty);
        sb_str(b, buf);
    }
}

static const char *const kind_name[] = {
    [SS_TF_DROP_SAMPLES] = "drop-samples",
    [SS_TF_KEEP_SAMPLES] = "keep-samples",
    [SS_TF_TRIM_BASE] = "trim-base",
    [SS_TF_TRIM_TO] = "trim-to",
    [SS_TF_FOCUS] = "focus",
    [SS_TF_DROP] = "drop",
    [SS_TF_MERGE] = "merge",
    [SS_TF_PRUNE] = "prune",
    [SS_TF_REPLACE] = "replace",
    [SS_TF_COLLAPSE_RECURSION] = "collapse-recursion",
    [SS_TF_CLASS] = "class",
    [SS_TF_R_SIMPLIFY] = "r-simplify",
    [SS_TF_NAME_ANONYMOUS] = "name-anonymous",
    [SS_TF_KEEP_LABEL] = "keep-label",
    [SS_TF_DROP_LABEL] = "drop-label",
    [SS_TF_LABEL_ROOT] = "label-root",
    [SS_TF_KEEP_PHASE] = "keep-phase",
    [SS_TF_DROP_PHASE] = "drop-phase",
    [SS_TF_KEEP_LINE] = "keep-line",
};

static char *canonical(const struct tf_step *st)
{
    struct sbuf b = {NULL, 0, 0, 0};
    sb_str(&b, kind_name[st->kind]);
    sb_add(&b, " ", 1);
    switch (st->kind) {
    case SS_TF_DROP_SAMPLES:
    case SS_TF_KEEP_SAMPLES:
        if (st->range.has_a)
            sb_range_end(&b, &st->range, st->range.a, st->range.unit_a);
        sb_add(&b, ":", 1);
        if (st->range.has_b)
            sb_range_end(&b, &st->range, st->range.b, st->range.unit_b);
        break;
    case SS_TF_TRIM_BASE: {
        char buf[64];
        if (!st->trim_auto)
            snprintf(buf, sizeof buf, "%u", st->trim_n);
        else if (st->share >= 1)
            snprintf(buf, sizeof buf, "auto");
        else {
            snprintf(buf, sizeof buf, "auto=%.15g", st->share);
            if (!ss_double_eq(strtod(buf + 5, NULL), st->share))
                snprintf(buf, sizeof buf, "auto=%.17g", st->share);
        }
        sb_str(&b, buf);
        if (st->trim_all)
            sb_str(&b, ",all");
        break;
    }
    case SS_TF_R_SIMPLIFY:
        b.n--; /* no argument: drop the blank */
        b.s[b.n] = '\0';
        break;
    case SS_TF_NAME_ANONYMOUS:
        if (!st->npats) {
            b.n--;
            b.s[b.n] = '\0';
            break;
        }
        sb_pattern(&b, &st->pats[0]);
        break;
    case SS_TF_KEEP_LINE: {
        char loc[64];
        snprintf(loc, sizeof loc, "#%u", st->line);
        char *whole = malloc(strlen(st->key) + strlen(loc) + 1);
        if (!whole) {
            b.oom = 1;
            break;
        }
        strcpy(whole, st->key);
        strcat(whole, loc);
        sb_name(&b, whole);
        free(whole);
        break;
    }
    case SS_TF_KEEP_LABEL:
    case SS_TF_DROP_LABEL:
    case SS_TF_LABEL_ROOT:
        sb_str(&b, st->key);
        if (st->has_value) {
            sb_add(&b, "=", 1);
            sb_pattern(&b, &st->value);
        }
        break;
    case SS_TF_KEEP_PHASE:
    case SS_TF_DROP_PHASE:
        sb_phase(&b, st);
        break;
    default:
        for (size_t k = 0; k < st->npats; k++) {
            if (k)
                sb_add(&b, " ", 1);
            sb_pattern(&b, &st->pats[k]);
        }
        if (st->kind == SS_TF_REPLACE || st->kind == SS_TF_CLASS) {
            sb_str(&b, " => ");
            sb_name(&b, st->name);
        }
        break;
    }
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}

/* ---- commands ------------------------------------------------------------------ */

static const char command_list[] =
    "drop-samples, keep-samples, trim-base, trim-to, focus, drop, merge, prune, replace, "
    "collapse-recursion, class, r-simplify, name-anonymous, keep-label, drop-label, "
    "label-root, keep-phase, drop-phase or keep-line";

static int add_pattern(struct lexer *lx, struct tf_step *st)
{
    struct tf_pattern *np = ss_realloc_array(st->pats, st->npats + 1, sizeof *np);
    if (!np) {
        lx->oom = 1;
        return SS_ENOMEM;
    }
    st->pats = np;
    int rc = pattern(lx, &st->pats[st->npats]);
    if (rc) {
        struct tf_pattern *p = &st->pats[st->npats];
        free(p->text);
        if (p->is_regex)
            ss_regex_free(&p->re);
        return rc;
    }
    st->npats++;
    return 0;
}

static int trim_base(struct lexer *lx, struct tf_step *st)
{
    if (at_end(lx))
        return lex_fail(lx, lx->i, "expected a number of levels N, auto or auto=SHARE");
    size_t start, n;
    bare_word(lx, &start, &n);
    const char *w = lx->s + start;
    if (n >= 4 && !memcmp(w, "auto", 4)) {
        st->trim_auto = 1;
        st->share = 1;
        if (n >= 8 && !memcmp(w + n - 4, ",all", 4)) {
            st->trim_all = 1;
            n -= 4;
        }
        if (n == 4)
            return 0;
        if (w[4] != '=')
            return lex_fail(lx, start,
                            "expected auto or auto=SHARE (then ,all to cut user code too)");
        char buf[64], *end;
        if (n - 5 == 0 || n - 5 >= sizeof buf)
            return lex_fail(lx, start + 5, "expected a share from 0 to 1 after auto= (e.g. 0.95)");
        memcpy(buf, w + 5, n - 5);
        buf[n - 5] = '\0';
        double v = strtod(buf, &end);
        if (*end || !(v > 0 && v <= 1))
            return lex_fail(lx, start + 5, "expected a share from 0 to 1 after auto= (e.g. 0.95)");
        st->share = v;
        return 0;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (w[i] < '0' || w[i] > '9')
            return lex_fail(lx, start, "expected a number of levels N, auto or auto=SHARE");
        v = v * 10 + (uint64_t)(w[i] - '0');
        if (v > 1000000000)
            return lex_fail(lx, start, "number of levels too large");
    }
    st->trim_n = (uint32_t)v;
    return 0;
}

static const char label_help[] =
    "a label KEY or KEY=VALUE (VALUE a word, a \"quoted value\" or a /regex/)";

/* keep-label / drop-label KEY[=VALUE], label-root KEY: the key is a word
 * without blanks or '=', the value follows the '=' without a blank. */
static int label_arg(struct lexer *lx, struct tf_step *st, int with_value)
{
    const char *what = with_value ? label_help : "a label KEY (a word)";
    if (at_end(lx))
        return lex_fail(lx, lx->i, "expected %s", what);
    size_t start = lx->i;
    char c = lx->s[start];
    if (c == '"' || c == '/' || c == '=')
        return lex_fail(lx, start, "expected %s; the key is a word without '='", what);
    while (lx->i < lx->len && !is_blank(lx->s[lx->i]) && lx->s[lx->i] != '=')
        lx->i++;
    st->key = dup_n(lx->s + start, lx->i - start);
    if (!st->key) {
        lx->oom = 1;
        return SS_ENOMEM;
    }
    if (lx->i >= lx->len || lx->s[lx->i] != '=')
        return 0;
    if (!with_value)
        return lex_fail(lx, lx->i, "label-root takes a label KEY only, not KEY=VALUE");
    lx->i++;
    if (lx->i >= lx->len || is_blank(lx->s[lx->i]))
        return lex_fail(lx, lx->i,
                        "expected a value after '=' (a word, a \"quoted value\" or a /regex/)");
    st->has_value = 1;
    c = lx->s[lx->i];
    if (c == '"')
        return quoted(lx, &st->value.text);
    if (c == '/')
        return regex_pattern(lx, &st->value);
    size_t vs, vn;
    bare_word(lx, &vs, &vn);
    st->value.text = dup_n(lx->s + vs, vn);
    if (!st->value.text) {
        lx->oom = 1;
        return SS_ENOMEM;
    }
    return 0;
}

static const char phase_help[] = "a phase: its number from 1, main, first or last";

/* One option of keep-phase / drop-phase: phases=N (1-100) or penalty=X
 * (0.01-1000), as report's --phases and --penalty. */
static int phase_option(struct lexer *lx, struct tf_step *st)
{
    size_t start, n;
    bare_word(lx, &start, &n);
    const char *w = lx->s + start;
    int count = n > 7 && !memcmp(w, "phases=", 7), pen = n > 8 && !memcmp(w, "penalty=", 8);
    char buf[64], *end;
    size_t skip = count ? 7 : 8;
    if ((!count && !pen) || n - skip >= sizeof buf)
        return lex_fail(lx, start, "expected phases=N or penalty=X after the phase");
    memcpy(buf, w + skip, n - skip);
    buf[n - skip] = '\0';
    double v = strtod(buf, &end);
    if (count && (*end || !(v >= 1 && v <= 100) || !ss_double_eq(v, (double)(size_t)v)))
        return lex_fail(lx, start + skip, "expected a number of phases from 1 to 100");
    if (pen && (*end || !(v >= 0.01 && v <= 1000)))
        return lex_fail(lx, start + skip, "expected a penalty factor from 0.01 to 1000");
    if ((count && st->phase_opts.count) || (pen && st->phase_opts.penalty > 0))
        return lex_fail(lx, start, "%s given twice", count ? "phases=" : "penalty=");
    if (count)
        st->phase_opts.count = (size_t)v;
    else
        st->phase_opts.penalty = v;
    if (st->phase_opts.count && st->phase_opts.penalty > 0)
        return lex_fail(lx, start, "phases=N asks for N phases: penalty= has nothing to tune");
    return 0;
}

/* keep-phase / drop-phase P [phases=N] [penalty=X]. */
static int phase_arg(struct lexer *lx, struct tf_step *st)
{
    if (at_end(lx))
        return lex_fail(lx, lx->i, "expected %s", phase_help);
    size_t start, n;
    bare_word(lx, &start, &n);
    if (ss_phase_ref_parse(lx->s + start, n, &st->phase)) {
        char w[48];
        excerpt(w, sizeof w, lx->s + start, n);
        return lex_fail(lx, start, "expected %s, not '%s'", phase_help, w);
    }
    int rc = 0;
    while (!rc && !at_end(lx))
        rc = phase_option(lx, st);
    return rc;
}

static int command(struct lexer *lx, struct tf_step *st)
{
    size_t start, n;
    bare_word(lx, &start, &n);
    size_t k;
    for (k = 0; k < ARRAY_SIZE(kind_name); k++)
        if (strlen(kind_name[k]) == n && !memcmp(kind_name[k], lx->s + start, n))
            break;
    if (k == ARRAY_SIZE(kind_name)) {
        char w[48];
        excerpt(w, sizeof w, lx->s + start, n);
        return lex_fail(lx, start, "unknown command '%s' (expected %s)", w, command_list);
    }
    st->kind = (enum ss_tf_kind)k;
    int rc = 0;
    switch (st->kind) {
    case SS_TF_DROP_SAMPLES:
    case SS_TF_KEEP_SAMPLES:
        rc = range(lx, &st->range);
        break;
    case SS_TF_TRIM_BASE:
        rc = trim_base(lx, st);
        break;
    case SS_TF_REPLACE:
        rc = add_pattern(lx, st);
        while (!rc) {
            if (at_end(lx))
                return lex_fail(lx, lx->i, "expected more function names or '=>' and the new name");
            if (lx->len - lx->i >= 2 && !memcmp(lx->s + lx->i, "=>", 2) &&
                (lx->len - lx->i == 2 || is_blank(lx->s[lx->i + 2])))
                break;
            rc = add_pattern(lx, st);
        }
        if (!rc)
            rc = arrow(lx, "the new name");
        if (!rc)
            rc = new_name(lx, "the new name", &st->name);
        break;
    case SS_TF_R_SIMPLIFY:
        break; /* no argument */
    case SS_TF_NAME_ANONYMOUS:
        if (!at_end(lx))
            rc = add_pattern(lx, st);
        break;
    case SS_TF_KEEP_LABEL:
    case SS_TF_DROP_LABEL:
    case SS_TF_LABEL_ROOT:
        rc = label_arg(lx, st, st->kind != SS_TF_LABEL_ROOT);
        break;
    case SS_TF_KEEP_PHASE:
    case SS_TF_DROP_PHASE:
        rc = phase_arg(lx, st);
        break;
    case SS_TF_KEEP_LINE:
        rc = line_arg(lx, st);
        break;
    case SS_TF_CLASS:
        rc = add_pattern(lx, st);
        if (!rc)
            rc = arrow(lx, "a class name");
        if (!rc)
            rc = new_name(lx, "a class name", &st->name);
        break;
    default:
        rc = add_pattern(lx, st);
        break;
    }
    if (rc)
        return rc;
    if (!at_end(lx)) {
        size_t s0, n0;
        char w[48];
        bare_word(lx, &s0, &n0);
        excerpt(w, sizeof w, lx->s + s0, n0);
        return lex_fail(lx, s0,
                        "unexpected '%s' after the command (one command per line; "
                        "quote names with spaces)",
                        w);
    }
    return 0;
}

void tf_step_free(struct tf_step *st)
{
    for (size_t k = 0; k < st->npats; k++) {
        free(st->pats[k].text);
        if (st->pats[k].is_regex)
            ss_regex_free(&st->pats[k].re);
    }
    free(st->pats);
    free(st->name);
    free(st->key);
    free(st->value.text);
    if (st->value.is_regex)
        ss_regex_free(&st->value.re);
    free(st->text);
    memset(st, 0, sizeof *st);
}

int tf_parse(const char *s, size_t len, int allow_empty, struct tf_step *st, size_t *col, char *msg,
             size_t msgn)
{
    memset(st, 0, sizeof *st);
    struct lexer lx = {s, len, 0, 0, msg, msgn, 0};
    *col = 0;
    if (msgn)
        msg[0] = '\0';
    if (memchr(s, '\0', len)) {
        *col = (size_t)((const char *)memchr(s, '\0', len) - s) + 1;
        snprintf(msg, msgn, "NUL byte in a command");
        return SS_EUSAGE;
    }
    if (at_end(&lx)) {
        if (allow_empty)
            return 0;
        lex_fail(&lx, lx.i, "expected a command (%s)", command_list);
        *col = lx.col;
        return SS_EUSAGE;
    }
    int rc = command(&lx, st);
    if (!rc) {
        st->text = canonical(st);
        if (!st->text)
            rc = SS_ENOMEM;
    }
    if (rc) {
        tf_step_free(st);
        if (lx.oom || rc == SS_ENOMEM) {
            snprintf(msg, msgn, "out of memory");
            return SS_ENOMEM;
        }
        *col = lx.col;
        return SS_EUSAGE;
    }
    st->enabled = 1;
    return 0;
}
