/* write_folded.c - folded stacks, `root;caller;leaf COUNT`
 * (stackscope(1), Folded stacks; see write.h).  Used by `convert --to folded`
 * and by `report --by stacks --format folded`.
 *
 * One line per distinct function stack: names root first joined by ';' (a
 * name's own ';' is written as is, so such a stack reads back split there),
 * a space, the summed sample count, or under a measure of whole numbers
 * other than time (memory, released, a pprof sample type: --value) the
 * summed measure, so that flame graph tools draw it (lines that weigh 0
 * are left out).  Stacks that differ only in positions
 * or in functions of the same name are one line; samples with no frames
 * are left out; positions, intervals, sources and memory values are
 * dropped.  A name with a line end, and a stack whose only function has an
 * empty name (its line, " COUNT", would have no stack), are refused; an
 * empty name beside others is written as is ("main; 3").  A count over
 * 10^15, the most a folded line holds (limits.h), is split over several
 * lines of the stack.  Lines are
 * ordered by count (descending), then by text in byte order, so the output
 * is the same whatever order the stacks came in.  A line is never built in
 * memory: lines are compared and written name by name from the model, and
 * one longer than a reader takes (SS_MAX_LINE, 256 MiB) is refused.
 */
#include "writers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "limits.h"
#include "outlimit.h"
#include "sort.h"
#include "stacks.h"
#include "vec.h"

/* A line: a row of the stacks table (its names are read from the model
 * when compared and written: no line is built in memory, however long) and
 * its count. */
struct fline {
    const struct ss_stack_row *row;
    uint64_t count;
};

/* The lines of one model: its stacks table and the lines over it. */
struct folded {
    const struct ss_model *m;
    struct ss_stacks st;
    struct fline *lines;
    size_t n;
};

/* A cursor over a line's text: names root first, joined by ';'. */
struct cursor {
    const struct ss_model *m;
    const ss_id *fns;
    uint32_t depth, k; /* frame k ... */
    size_t off;        /* ... at byte off of its name (== its length: at the ';' after it) */
};

/* The bytes from the cursor to the end of its name or separator (*p), 0 at
 * the end of the text. */
static size_t chunk(const struct cursor *c, const char **p)
{
    if (c->k >= c->depth)
        return 0;
    ss_id name = c->m->functions.v[c->fns[c->k]].name;
    size_t len = ss_strtab_len(&c->m->strs, name);
    if (c->off < len) {
        *p = ss_str(c->m, name) + c->off;
        return len - c->off;
    }
    *p = ";";
    return c->k + 1 < c->depth ? 1 : 0;
}

static void advance(struct cursor *c, size_t n)
{
    ss_id name = c->m->functions.v[c->fns[c->k]].name;
    size_t len = ss_strtab_len(&c->m->strs, name);
    if (c->off < len) {
        c->off += n;
    } else { /* past the ';' */
        c->k++;
        c->off = 0;
    }
}

static struct cursor cursor_at(const struct folded *F, const struct fline *l)
{
    struct cursor c = {F->m, F->st.fns + l->row->first, l->row->depth, 0, 0};
    return c;
}

/* Two lines (of F and G) by their text in byte order, a prefix first. */
static int cmp_text(const struct folded *F, const struct fline *a, const struct folded *G,
                    const struct fline *b)
{
    struct cursor x = cursor_at(F, a), y = cursor_at(G, b);
    for (;;) {
        const char *p = NULL, *q = NULL;
        size_t lx = chunk(&x, &p), ly = chunk(&y, &q);
        if (!lx || !ly)
            return (lx > 0) - (ly > 0);
        size_t n = lx < ly ? lx : ly;
        int c = memcmp(p, q, n);
        if (c)
            return c;
        advance(&x, n);
        advance(&y, n);
    }
}

static int by_text(const void *pa, const void *pb, void *F)
{
    return cmp_text(F, pa, F, pb);
}

static int by_count(const void *pa, const void *pb, void *F)
{
    const struct fline *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return cmp_text(F, a, F, b);
}

/* Write a line's text. */
static void put_line(FILE *f, const struct folded *F, const struct fline *l)
{
    struct cursor c = cursor_at(F, l);
    const char *p = NULL;
    for (size_t n; (n = chunk(&c, &p)) > 0; advance(&c, n))
        fwrite(p, 1, n, f);
}

/* Check a stack's names: no line end, not one empty name alone, a text no
 * longer than a reader takes. */
static int check_names(const struct ss_model *m, const struct ss_stacks *st,
                       const struct ss_stack_row *r, const char *path, struct ss_error *err)
{
    uint64_t text = r->depth ? r->depth - 1 : 0;
    for (uint32_t k = 0; k < r->depth; k++) {
        ss_id name = m->functions.v[st->fns[r->first + k]].name;
        const char *s = ss_str(m, name);
        size_t n = ss_strtab_len(&m->strs, name);
        if (memchr(s, '\n', n) || memchr(s, '\r', n))
            return ss_fail(err, SS_EUSAGE,
                           "%s: cannot write folded stacks: the function name \"%s\" contains a "
                           "line end",
                           path, s);
        text += n;
    }
    if (text == 0 && r->depth > 0)
        return ss_fail(err, SS_EUSAGE,
                       "%s: cannot write folded stacks: a stack's only function has an empty "
                       "name (the line would have no stack)",
                       path);
    if (text > SS_MAX_LINE)
        return ss_fail(err, SS_ENOMEM,
                       "%s: cannot write folded stacks: a stack of %llu bytes of names, longer "
                       "than a line a reader takes (%zu MiB); nothing written",
                       path, (unsigned long long)text, SS_MAX_LINE >> 20);
    return 0;
}

/* The lines of m into F, equal texts merged, in byte order of their text.
 * Returns 0 or an error code (F freed). */
static int fold(const struct ss_model *m, struct folded *F, const char *path, struct ss_error *err)
{
    memset(F, 0, sizeof *F);
    F->m = m;
    int rc = ss_stacks_compute(m, &F->st, err);
    if (rc)
        return rc;
    F->lines = ss_alloc_array(F->st.n, sizeof *F->lines);
    if (!F->lines)
        rc = ss_nomem(err, "folded stacks");
    enum ss_measure_kind kind = ss_model_measure(m)->kind;
    int by_value = kind != SS_MEASURE_TIME && kind != SS_MEASURE_SAMPLES;
    for (size_t i = 0; !rc && i < F->st.n; i++) {
        const struct ss_stack_row *r = &F->st.rows[i];
        F->lines[i].row = r;
        /* a measure's value here is a sum of whole numbers, exact below 2^53 */
        F->lines[i].count = by_value ? (r->value > 0 ? (uint64_t)r->value : 0) : r->count;
        rc = check_names(m, &F->st, r, path, err);
    }
    /* Merge equal texts (same names, different functions or positions). */
    if (!rc && F->st.n && ss_sort(F->lines, F->st.n, sizeof *F->lines, by_text, F))
        rc = ss_nomem(err, "folded stacks");
    for (size_t i = 0; !rc && i < F->st.n; i++) {
        if (F->n && cmp_text(F, &F->lines[F->n - 1], F, &F->lines[i]) == 0)
            F->lines[F->n - 1].count += F->lines[i].count;
        else
            F->lines[F->n++] = F->lines[i];
    }
    if (rc) {
        free(F->lines);
        ss_stacks_free(&F->st);
        memset(F, 0, sizeof *F);
    }
    return rc;
}

static void folded_free(struct folded *F)
{
    free(F->lines);
    ss_stacks_free(&F->st);
}

/* A comparison (compare.h): `stack BASE NEW` lines, as difffolded.pl and
 * inferno-diff-folded write them, every stack of either side once, in byte
 * order of the text; with SS_SRC_NORMALIZE the base's numbers scale to the
 * new side's total (rounded). */
static int write_diff(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    struct ss_model base, cur;
    int rc = ss_compare_split(m, &base, &cur, err);
    if (rc)
        return rc;
    int norm = 0;
    for (size_t i = 0; i < m->sources.n; i++)
        norm |= (m->sources.v[i].flags & SS_SRC_NORMALIZE) != 0;
    const char *measure = ss_model_measure_name(m);
    struct ss_error e2;
    ss_model_set_measure(&base, measure, &e2);
    ss_model_set_measure(&cur, measure, &e2);
    struct folded B, N;
    rc = fold(&base, &B, path, err);
    if (!rc && (rc = fold(&cur, &N, path, err)) != 0)
        folded_free(&B);
    double sb = 0, sn = 0, scale = 1;
    for (size_t i = 0; !rc && i < B.n; i++)
        sb += (double)B.lines[i].count;
    for (size_t i = 0; !rc && i < N.n; i++)
        sn += (double)N.lines[i].count;
    if (norm && sb > 0)
        scale = sn / sb;
    size_t i = 0, k = 0;
    while (!rc && (i < B.n || k < N.n) && !ferror(f)) {
        int c = i == B.n ? 1 : k == N.n ? -1 : cmp_text(&B, &B.lines[i], &N, &N.lines[k]);
        double vb = c <= 0 ? (double)B.lines[i].count * scale : 0;
        unsigned long long vn = c >= 0 ? (unsigned long long)N.lines[k].count : 0;
        if (llround(vb) != 0 || vn != 0) {
            if (c <= 0)
                put_line(f, &B, &B.lines[i]);
            else
                put_line(f, &N, &N.lines[k]);
            fprintf(f, " %lld %llu\n", llround(vb), vn);
        }
        i += c <= 0;
        k += c >= 0;
    }
    if (!rc) {
        folded_free(&B);
        folded_free(&N);
    }
    ss_model_free(&base);
    ss_model_free(&cur);
    return rc;
}

/* Would line l (TEXT COUNT) read as a difference's STACK BASE NEW: does its
 * text end in a blank and a count (load_folded.c's rule)? */
static int looks_diff(const struct folded *F, const struct fline *l)
{
    const struct ss_stack_row *r = l->row;
    if (!r->depth)
        return 0;
    ss_id name = F->m->functions.v[F->st.fns[r->first + r->depth - 1]].name;
    const char *s = ss_str(F->m, name);
    size_t n = ss_strtab_len(&F->m->strs, name), d;
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    uint64_t v = 0;
    for (d = n; d && s[d - 1] >= '0' && s[d - 1] <= '9' && n - d < 17; d--)
        ;
    if (d == n || d == 0 || (s[d - 1] != ' ' && s[d - 1] != '\t'))
        return 0;
    for (size_t i = d; i < n; i++)
        v = v * 10 + (uint64_t)(s[i] - '0');
    return v <= (uint64_t)SS_MAX_COUNT && (d > 1 || r->depth > 1);
}

/* Would F's lines, written in their order, read back as a difference (load_folded.h:
 * every line ending within the first SS_FOLDED_DIFF_WINDOW bytes, and the first,
 * looks like one)? */
static int reads_as_diff(const struct folded *F)
{
    uint64_t off = 0;
    int lines = 0;
    for (size_t i = 0; i < F->n; i++) {
        const struct fline *l = &F->lines[i];
        if (!l->count)
            continue;
        uint64_t text = l->row->depth - 1;
        for (uint32_t k = 0; k < l->row->depth; k++)
            text +=
                ss_strtab_len(&F->m->strs, F->m->functions.v[F->st.fns[l->row->first + k]].name);
        off += text + 1 + ss_digits(l->count) + 1;
        if (lines && off - 1 > SS_FOLDED_DIFF_WINDOW)
            break;
        if (!looks_diff(F, l))
            return 0;
        lines++;
    }
    return lines > 0;
}

int ss_write_folded(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    if (ss_model_is_comparison(m))
        return write_diff(m, f, path, err);
    struct folded F;
    int rc = fold(m, &F, path, err);
    if (rc)
        return rc;
    if (F.n && ss_sort(F.lines, F.n, sizeof *F.lines, by_count, &F))
        rc = ss_nomem(err, "folded stacks");
    if (!rc && reads_as_diff(&F))
        rc = ss_fail(err, SS_EUSAGE,
                     "%s: cannot write folded stacks: every line would end in two numbers "
                     "(each stack's last name ends in a blank and a number), so it would read "
                     "back as a difference (STACK BASE NEW); nothing written",
                     path);
    for (size_t i = 0; !rc && i < F.n && !ferror(f); i++) {
        if (F.lines[i].count == 0)
            continue; /* weighs nothing under the measure */
        /* A line holds at most SS_MAX_COUNT (the reader's limit): a larger
         * sum is written as several lines of the stack, which readers add
         * up again. */
        uint64_t c = F.lines[i].count;
        do {
            uint64_t k = c > (uint64_t)SS_MAX_COUNT ? (uint64_t)SS_MAX_COUNT : c;
            put_line(f, &F, &F.lines[i]);
            fprintf(f, " %llu\n", (unsigned long long)k);
            c -= k;
        } while (c);
    }
    folded_free(&F);
    return rc;
}
