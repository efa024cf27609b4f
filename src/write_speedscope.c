/* write_speedscope.c - speedscope's JSON file format (see write.h and
 * load_speedscope.h), so that a profile opens in speedscope.
 *
 * One frame per function ({name, file, line}: the function's file and
 * first line; one per name, as every table here counts functions, so
 * speedscope's sandwich view shows a function as one row), one "sampled"
 * profile per source, its samples in the model's order (root first, frame
 * indices), each weighed by the chosen measure (--value):
 * - time: a source with a duration per sample (a .cpuprofile, perf, a
 *   speedscope time profile) in "nanoseconds", the exact durations; folded
 *   stacks or a speedscope "none" profile that has no time (interval 1 s)
 *   in "none", the counts; any other in "microseconds", count x interval;
 * - a measure in bytes (memory, released, alloc_space, ...): "bytes";
 * - another time (cpu, delay): "nanoseconds";
 * - counts (samples, alloc_objects, contentions) and units speedscope has
 *   not: "none".
 * A source without the measure weighs 0.
 * Samples with no frames are written as empty stacks.  Names are written
 * as valid UTF-8 JSON strings: control characters escaped, a byte that is
 * not UTF-8 replaced by U+FFFD.
 */
#include "writers.h"
#include "speedscope.h"
#include "vec.h"
#include "num.h"

#include <stdlib.h>
#include <string.h>

#include "limits.h"

static void put_str(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    fputc('"', f);
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc((int)c, f);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(f, "\\u%04x", c);
            i++;
        } else if (c < 0x80) {
            fputc((int)c, f);
            i++;
        } else {
            /* a well-formed UTF-8 sequence is copied, anything else is U+FFFD */
            size_t k = c >= 0xc2 && c <= 0xdf   ? 2
                       : c >= 0xe0 && c <= 0xef ? 3
                       : c >= 0xf0 && c <= 0xf4 ? 4
                                                : 0;
            int ok = k && i + k <= n;
            unsigned cp = k ? c & (0x7fu >> k) : 0;
            for (size_t q = 1; ok && q < k; q++) {
                if ((p[i + q] & 0xc0) != 0x80)
                    ok = 0;
                cp = cp << 6 | (p[i + q] & 0x3f);
            }
            if (ok && ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
                       (k == 4 && (cp < 0x10000 || cp > 0x10ffff))))
                ok = 0;
            if (ok) {
                fwrite(p + i, 1, k, f);
                i += k;
            } else {
                fputs("\\ufffd", f);
                i++;
            }
        }
    }
    fputc('"', f);
}

static void put_num(FILE *f, double v)
{
    if (ss_double_eq(v, (double)(int64_t)v) && v > -9e18 && v < 9e18)
        fprintf(f, "%lld", (long long)(int64_t)v);
    else
        fprintf(f, "%.17g", v);
}

/* How a source's samples are weighed: speedscope's unit for the chosen
 * measure, and the factor from a sample's weight (ss_sample_weight) to
 * the number written.  A source without the measure weighs 0. */
struct how {
    const char *unit;
    double mult;
    int counts; /* unit none: whole counts, at most SS_MAX_COUNT */
};

static struct how source_how(const struct ss_model *m, size_t s)
{
    const struct ss_measure *ms = ss_model_measure(m);
    const struct ss_source *src = &m->sources.v[s];
    double scale = ss_source_scale(m, s);
    struct how h = {"none", 1, 1};
    if (ss_double_eq(scale, 0)) {
        h.mult = 0;
        return h;
    }
    switch (ms->unit_kind) {
    case SS_UNIT_SECONDS:
        if (ms->kind == SS_MEASURE_TIME) {
            const char *type = ss_str(m, src->type);
            if (ss_double_eq(scale, 1e-9)) /* each sample's duration, in ns */
                h.unit = "nanoseconds", h.counts = 0;
            else if (ss_double_eq(src->interval_us, 1e6) &&
                     (!strcmp(type, "folded") || !strcmp(type, "speedscope")))
                ; /* counts that have no time: unit none */
            else  /* count x interval, exact in microseconds */
                h.unit = "microseconds", h.mult = ss_source_exact(m, s), h.counts = 0;
        } else {
            h.unit = "nanoseconds", h.counts = 0;
            h.mult = ss_double_eq(ms->unit_scale, 1e-9) ? 1 : ms->unit_scale * 1e9;
        }
        break;
    case SS_UNIT_BYTES:
        h.unit = "bytes", h.counts = 0, h.mult = scale * ms->unit_scale;
        break;
    default: /* counts, and units speedscope has not: plain numbers */
        h.mult = scale;
        break;
    }
    return h;
}

/* Sample i's weight as written. */
static double sample_out(const struct ss_model *m, const struct how *h, size_t i)
{
    double w = (double)ss_sample_weight(m, i);
    return ss_double_eq(h->mult, 1) ? w : w * h->mult;
}

/* Refuse a weight the reader would refuse (limits.h), before writing. */
static int check_weights(const struct ss_model *m, const char *path, struct ss_error *err)
{
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        struct how h = source_how(m, s);
        double to_ns = !strcmp(h.unit, "microseconds") ? 1e3 : 1;
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
            double v = sample_out(m, &h, i);
            if (v < 0 || (h.counts && v > (double)SS_MAX_COUNT))
                return ss_fail(err, SS_EUSAGE,
                               "%s: cannot write speedscope: sample %zu of %s weighs %.17g, "
                               "not a count from 0 to the 10^15 its reader takes",
                               path, i - src->first_sample + 1, ss_str(m, src->uri), v);
            if (v * to_ns > SS_MAX_WEIGHT_NS)
                return ss_fail(err, SS_EUSAGE,
                               "%s: cannot write speedscope: sample %zu of %s weighs %.17g %s, "
                               "over the 9e18 its reader takes",
                               path, i - src->first_sample + 1, ss_str(m, src->uri), v, h.unit);
        }
    }
    return 0;
}

/* Frame i of the file for each location: one frame per function (its
 * canonical id: one row per name, as every table here), so that
 * speedscope's sandwich view does not split a function by line; the
 * locations without a function have none (UINT32_MAX).  fn_of[f]: the
 * function the frame of canonical function f stands for.  Returns the
 * number of frames. */
static uint32_t number_frames(const struct ss_model *m, uint32_t *frame, uint32_t *by_fn)
{
    uint32_t nf = 0;
    for (size_t f = 0; f < m->functions.n; f++)
        by_fn[f] = UINT32_MAX;
    for (size_t l = 0; l < m->locations.n; l++) {
        ss_id fn = m->locations.v[l].function;
        if (fn == SS_NONE) {
            frame[l] = UINT32_MAX;
            continue;
        }
        ss_id c = ss_function_canonical(m, fn);
        if (by_fn[c] == UINT32_MAX)
            by_fn[c] = nf++;
        frame[l] = by_fn[c];
    }
    return nf;
}

/* Decimal digits of v. */
static unsigned digits(uint32_t v)
{
    unsigned n = 1;
    for (; v >= 10; v /= 10)
        n++;
    return n;
}

/* Refuse, before anything is written, a file over what the reader takes:
 * the samples' frame lists alone (each index and its separator, and "[],"
 * per sample) are a lower bound of its size. */
static int check_size(const struct ss_model *m, const uint32_t *frame, const char *path,
                      struct ss_error *err)
{
    size_t ns = ss_model_nstacks(m);
    uint64_t *len = ss_alloc_array(ns ? ns : 1, sizeof *len);
    if (!len)
        return ss_nomem(err, "speedscope size");
    for (size_t s = 0; s < ns; s++) {
        const ss_id *fr = ss_stack_frames(m, (ss_id)s);
        uint64_t b = 3;
        for (size_t k = 0; k < ss_stack_depth(m, (ss_id)s); k++)
            if (frame[fr[k]] != UINT32_MAX)
                b += 1 + digits(frame[fr[k]]);
        len[s] = b;
    }
    /* at most 2^32 samples of at most SS_MAX_FRAMES frames of 11 bytes:
     * the sum cannot wrap */
    uint64_t total = 0;
    for (size_t i = 0; i < m->sample_stack.n; i++)
        total += len[m->sample_stack.v[i]];
    free(len);
    if (total > SS_JSON_MAX_BYTES)
        return ss_fail(err, SS_EUSAGE,
                       "%s: the speedscope file would be more than %llu MiB (its samples' frame "
                       "lists alone), over the %zu MiB its reader takes (trim the profile "
                       "first, e.g. -e 'keep-samples 1:N'); nothing written",
                       path, (unsigned long long)(total >> 20), SS_JSON_MAX_BYTES >> 20);
    return 0;
}

/* The shared frames: one per function (number_frames), its name, file and
 * first line. */
static void write_frames(const struct ss_model *m, FILE *f, const uint32_t *by_fn, uint32_t nf)
{
    uint32_t *fn_at = ss_alloc_array(nf ? nf : 1, sizeof *fn_at);
    for (size_t c = 0; fn_at && c < m->functions.n; c++)
        if (by_fn[c] != UINT32_MAX)
            fn_at[by_fn[c]] = (uint32_t)c;
    for (uint32_t k = 0; fn_at && k < nf; k++) {
        const struct ss_function *fn = &m->functions.v[fn_at[k]];
        fputs(k ? ",{\"name\":" : "{\"name\":", f);
        put_str(f, ss_str(m, fn->name), ss_strtab_len(&m->strs, fn->name));
        if (fn->filename != SS_NONE) {
            fputs(",\"file\":", f);
            put_str(f, ss_str(m, fn->filename), ss_strtab_len(&m->strs, fn->filename));
        }
        if (fn->start_line)
            fprintf(f, ",\"line\":%u", fn->start_line);
        fputc('}', f);
    }
    free(fn_at);
}

/* Source s as a "sampled" profile.  Returns 0 or -1 (out of memory). */
static int write_profile(const struct ss_model *m, FILE *f, size_t s, const uint32_t *frame)
{
    const struct ss_source *src = &m->sources.v[s];
    struct how h = source_how(m, s);
    double total = 0;
    for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++)
        total += sample_out(m, &h, i);
    fputs(s ? ",{\"type\":\"sampled\",\"name\":" : "{\"type\":\"sampled\",\"name\":", f);
    const char *b;
    size_t blen;
    ss_basename(ss_str(m, src->uri), &b, &blen);
    int several = src->session > 1 || (s + 1 < m->sources.n && m->sources.v[s + 1].uri == src->uri);
    char *nm = malloc(blen + 16);
    if (!nm)
        return -1;
    memcpy(nm, b, blen);
    size_t nlen = blen;
    if (several)
        nlen += (size_t)snprintf(nm + blen, 16, " (%u)", src->session);
    put_str(f, nm, nlen);
    free(nm);
    fprintf(f, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":", h.unit);
    put_num(f, total);
    fputs(",\"samples\":[", f);
    for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
        ss_id st = m->sample_stack.v[i];
        size_t d = ss_stack_depth(m, st);
        const ss_id *fr = ss_stack_frames(m, st);
        fputs(i > src->first_sample ? ",[" : "[", f);
        int any = 0;
        for (size_t k = d; k-- > 0;) {
            if (frame[fr[k]] == UINT32_MAX)
                continue;
            fprintf(f, any ? ",%u" : "%u", frame[fr[k]]);
            any = 1;
        }
        fputc(']', f);
    }
    fputs("],\"weights\":[", f);
    for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
        if (i > src->first_sample)
            fputc(',', f);
        put_num(f, sample_out(m, &h, i));
    }
    fputs("]}", f);
    return 0;
}

int ss_write_speedscope(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    int rc = check_weights(m, path, err);
    if (rc)
        return rc;
    uint32_t *frame = ss_alloc_array(m->locations.n ? m->locations.n : 1, sizeof *frame);
    uint32_t *by_fn = ss_alloc_array(m->functions.n ? m->functions.n : 1, sizeof *by_fn);
    if (!frame || !by_fn) {
        free(frame);
        free(by_fn);
        return ss_nomem(err, "speedscope frames");
    }
    uint32_t nf = number_frames(m, frame, by_fn);
    rc = check_size(m, frame, path, err);
    if (!rc) {
        fputs("{\"$schema\":\"" SS_SPEEDSCOPE_SCHEMA "\",\"version\":\"0.6.0\",", f);
        fputs("\"exporter\":\"stackscope\",\"name\":", f);
        const char *first = m->sources.n ? ss_str(m, m->sources.v[0].uri) : "profile";
        const char *b;
        size_t blen;
        ss_basename(first, &b, &blen);
        put_str(f, b, blen);
        fputs(",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", f);
        write_frames(m, f, by_fn, nf);
        fputs("]},\"profiles\":[", f);
        for (size_t s = 0; s < m->sources.n && !rc; s++)
            rc = write_profile(m, f, s, frame) ? ss_nomem(err, "speedscope profile") : 0;
        fputs("]}\n", f);
    }
    free(frame);
    free(by_fn);
    if (rc)
        return rc;
    /* every file we write, we read back: the output is a temporary file
     * (write.c), so its size is known and a failure leaves nothing */
    long end = ftell(f);
    if (end > 0 && (unsigned long)end > SS_JSON_MAX_BYTES)
        return ss_fail(err, SS_EUSAGE,
                       "%s: the speedscope file would be %ld MiB, over the %zu MiB its reader "
                       "takes (trim the profile first, e.g. -e 'keep-samples 1:N')",
                       path, end >> 20, SS_JSON_MAX_BYTES >> 20);
    return 0;
}
