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

#include <stdlib.h>
#include <string.h>

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

int ss_write_folded(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    struct ss_stacks st;
    int rc = ss_stacks_compute(m, &st, err);
    if (rc)
        return rc;
    VEC(char) text = {0};
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
        if (!rc && ss_sort(lines, n, sizeof *lines, by_count, text.v))
            rc = ss_nomem(err, "folded stacks");
    }
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
    ss_stacks_free(&st);
    return rc;
}
