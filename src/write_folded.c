/* write_folded.c - folded stacks, `root;caller;leaf COUNT` (DESIGN section 6;
 * see write.h).  Used by `convert --to folded` and by `report --by stacks
 * --format folded`.
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
 * is the same whatever order the stacks came in.
 */
#include "write.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "limits.h"
#include "sort.h"
#include "stacks.h"
#include "vec.h"

struct fline {
    size_t off, len;
    uint64_t count;
};

/* Lines by their text in the arena `text`. */
static int cmp_text(const char *text, const struct fline *a, const struct fline *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(text + a->off, text + b->off, n);
    if (c)
        return c;
    return a->len < b->len ? -1 : a->len > b->len;
}

static int by_text(const void *pa, const void *pb, void *text)
{
    return cmp_text(text, pa, pb);
}

static int by_count(const void *pa, const void *pb, void *text)
{
    const struct fline *a = pa, *b = pb;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return cmp_text(text, a, b);
}

typedef VEC(char) textvec;

/* The lines of m: *lines[0..*nl) into the arena *text, equal texts merged,
 * in byte order of their text.  Returns 0 or an error code (*lines NULL). */
static int fold(const struct ss_model *m, textvec *text_out, struct fline **lines_out, size_t *nl,
                const char *path, struct ss_error *err)
{
    struct ss_stacks st;
    int rc = ss_stacks_compute(m, &st, err);
    if (rc)
        return rc;
    textvec text = {0};
    struct fline *lines = ss_alloc_array(st.n, sizeof *lines);
    if (!lines)
        rc = ss_nomem(err, "folded stacks");
    enum ss_measure_kind kind = ss_model_measure(m)->kind;
    int by_value = kind != SS_MEASURE_TIME && kind != SS_MEASURE_SAMPLES;
    for (size_t i = 0; !rc && i < st.n; i++) {
        const struct ss_stack_row *r = &st.rows[i];
        lines[i].off = text.n;
        /* a measure's value here is a sum of whole numbers, exact below 2^53 */
        lines[i].count = by_value ? (r->value > 0 ? (uint64_t)r->value : 0) : r->count;
        for (uint32_t k = 0; !rc && k < r->depth; k++) {
            ss_id name = m->functions.v[st.fns[r->first + k]].name;
            const char *s = ss_str(m, name);
            size_t n = ss_strtab_len(&m->strs, name);
            if (memchr(s, '\n', n) || memchr(s, '\r', n)) {
                rc = ss_fail(err, SS_EUSAGE,
                             "%s: cannot write folded stacks: the function name \"%s\" contains a "
                             "line end",
                             path, s);
                break;
            }
            if (VEC_RESERVE(text, text.n + n + 1)) {
                rc = ss_nomem(err, "folded stacks");
                break;
            }
            if (k)
                text.v[text.n++] = ';';
            memcpy(text.v + text.n, s, n);
            text.n += n;
        }
        lines[i].len = text.n - lines[i].off;
        if (!rc && lines[i].len == 0 && r->depth > 0)
            rc = ss_fail(err, SS_EUSAGE,
                         "%s: cannot write folded stacks: a stack's only function has an empty "
                         "name (the line would have no stack)",
                         path);
    }
    size_t n = 0;
    if (!rc && st.n) {
        /* Merge equal texts (same names, different functions or positions). */
        if (ss_sort(lines, st.n, sizeof *lines, by_text, text.v))
            rc = ss_nomem(err, "folded stacks");
        for (size_t i = 0; !rc && i < st.n; i++) {
            if (n && cmp_text(text.v, &lines[n - 1], &lines[i]) == 0)
                lines[n - 1].count += lines[i].count;
            else
                lines[n++] = lines[i];
        }
    }
    ss_stacks_free(&st);
    if (rc) {
        free(lines);
        VEC_FREE(text);
        *lines_out = NULL;
        return rc;
    }
    *text_out = text;
    *lines_out = lines;
    *nl = n;
    return 0;
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
    textvec tb = {0}, tn = {0};
    struct fline *lb = NULL, *ln = NULL;
    size_t nb = 0, nn = 0;
    rc = fold(&base, &tb, &lb, &nb, path, err);
    if (!rc)
        rc = fold(&cur, &tn, &ln, &nn, path, err);
    double sb = 0, sn = 0, scale = 1;
    for (size_t i = 0; i < nb; i++)
        sb += (double)lb[i].count;
    for (size_t i = 0; i < nn; i++)
        sn += (double)ln[i].count;
    if (norm && sb > 0)
        scale = sn / sb;
    size_t i = 0, k = 0;
    while (!rc && (i < nb || k < nn)) {
        int c;
        if (i == nb)
            c = 1;
        else if (k == nn)
            c = -1;
        else {
            size_t la = lb[i].len, lk = ln[k].len;
            c = memcmp(tb.v + lb[i].off, tn.v + ln[k].off, la < lk ? la : lk);
            if (!c)
                c = la < lk ? -1 : la > lk;
        }
        const char *t = c <= 0 ? tb.v + lb[i].off : tn.v + ln[k].off;
        size_t len = c <= 0 ? lb[i].len : ln[k].len;
        double vb = c <= 0 ? (double)lb[i].count * scale : 0;
        unsigned long long vn = c >= 0 ? (unsigned long long)ln[k].count : 0;
        if (c <= 0)
            i++;
        if (c >= 0)
            k++;
        if (llround(vb) == 0 && vn == 0)
            continue;
        fwrite(t, 1, len, f);
        fprintf(f, " %lld %llu\n", llround(vb), vn);
    }
    free(lb);
    free(ln);
    VEC_FREE(tb);
    VEC_FREE(tn);
    ss_model_free(&base);
    ss_model_free(&cur);
    return rc;
}

int ss_write_folded(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    if (ss_model_is_comparison(m))
        return write_diff(m, f, path, err);
    textvec text = {0};
    struct fline *lines = NULL;
    size_t n = 0;
    int rc = fold(m, &text, &lines, &n, path, err);
    if (rc)
        return rc;
    if (n && ss_sort(lines, n, sizeof *lines, by_count, text.v))
        rc = ss_nomem(err, "folded stacks");
    for (size_t i = 0; !rc && i < n; i++) {
        if (lines[i].count == 0)
            continue; /* weighs nothing under the measure */
        /* A line holds at most SS_MAX_COUNT (the reader's limit): a larger
         * sum is written as several lines of the stack, which readers add
         * up again. */
        uint64_t c = lines[i].count;
        do {
            uint64_t k = c > (uint64_t)SS_MAX_COUNT ? (uint64_t)SS_MAX_COUNT : c;
            fwrite(text.v + lines[i].off, 1, lines[i].len, f);
            fprintf(f, " %llu\n", (unsigned long long)k);
            c -= k;
        } while (c);
    }
    free(lines);
    VEC_FREE(text);
    return rc;
}
