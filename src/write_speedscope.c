/* write_speedscope.c - speedscope's JSON file format (see write.h and
 * load_speedscope.h), so that a profile opens in speedscope.
 *
 * One frame per location ({name, file, line}: the location's file, else
 * its function's; line when known), one "sampled" profile per source, its
 * samples in the model's order (root first, frame indices), each with its
 * weight:
 * - a source with the "duration" value type (a .cpuprofile, a speedscope
 *   time profile): unit "nanoseconds", the exact durations;
 * - a source of folded stacks or a speedscope "none" profile that has no
 *   time (interval 1 s): unit "none", the counts;
 * - any other source: unit "microseconds", count x interval.
 * Samples with no frames are written as empty stacks.  Names are written
 * as valid UTF-8 JSON strings: control characters escaped, a byte that is
 * not UTF-8 replaced by U+FFFD.
 */
#include "write.h"
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

/* The duration value type (nanoseconds) with values, or SS_NONE. */
static ss_id duration_type(const struct ss_model *m)
{
    ss_id vt_dur = SS_NONE;
    ss_id dur_t = ss_strtab_find(&m->strs, "duration", 8),
          ns_u = ss_strtab_find(&m->strs, "nanoseconds", 11);
    for (size_t t = 0; t < m->value_types.n; t++)
        if (m->value_types.v[t].type == dur_t && m->value_types.v[t].unit == ns_u && m->values.v[t])
            vt_dur = (ss_id)t;
    return vt_dur;
}

/* How source s is weighed: 2 its durations (ns), 1 its counts (unit none),
 * 0 count x interval (microseconds). */
static int source_unit(const struct ss_model *m, size_t s, ss_id vt_dur)
{
    const struct ss_source *src = &m->sources.v[s];
    if (vt_dur != SS_NONE)
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++)
            if (ss_sample_value(m, vt_dur, i) != 0)
                return 2;
    const char *type = ss_str(m, src->type);
    return ss_double_eq(src->interval_us, 1e6) &&
           (!strcmp(type, "folded") || !strcmp(type, "speedscope"));
}

/* Refuse a weight the reader would refuse (limits.h), before writing. */
static int check_weights(const struct ss_model *m, ss_id vt_dur, const char *path,
                         struct ss_error *err)
{
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        int unit = source_unit(m, s, vt_dur);
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
            int64_t c = ss_sample_count(m, i);
            double ns = unit == 2   ? (double)ss_sample_value(m, vt_dur, i)
                        : unit == 1 ? 0
                                    : (double)c * src->interval_us * 1e3;
            if (unit == 1 && c > SS_MAX_COUNT)
                return ss_fail(err, SS_EUSAGE,
                               "%s: cannot write speedscope: sample %zu of %s counts %lld, over "
                               "the 10^15 its reader takes as a weight",
                               path, i - src->first_sample + 1, ss_str(m, src->uri), (long long)c);
            if (ns > SS_MAX_WEIGHT_NS)
                return ss_fail(err, SS_EUSAGE,
                               "%s: cannot write speedscope: sample %zu of %s weighs %.17g ns, "
                               "over the 9e18 ns its reader takes",
                               path, i - src->first_sample + 1, ss_str(m, src->uri), ns);
        }
    }
    return 0;
}

/* Frame i of the file for each location: the locations that name a
 * function, in order (UINT32_MAX: none). */
static void number_frames(const struct ss_model *m, uint32_t *frame)
{
    uint32_t nf = 0;
    for (size_t l = 0; l < m->locations.n; l++)
        frame[l] = m->locations.v[l].function == SS_NONE ? UINT32_MAX : nf++;
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

int ss_write_speedscope(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    ss_id vt_dur = duration_type(m);
    int rc = check_weights(m, vt_dur, path, err);
    if (rc)
        return rc;
    /* frames: locations that name a function */
    uint32_t *frame = ss_alloc_array(m->locations.n, sizeof *frame);
    if (!frame)
        return ss_nomem(err, "speedscope frames");
    number_frames(m, frame);
    rc = check_size(m, frame, path, err);
    if (rc) {
        free(frame);
        return rc;
    }
    fputs("{\"$schema\":\"" SS_SPEEDSCOPE_SCHEMA "\",\"version\":\"0.6.0\",", f);
    fputs("\"name\":", f);
    const char *first = m->sources.n ? ss_str(m, m->sources.v[0].uri) : "profile";
    const char *b;
    size_t blen;
    ss_basename(first, &b, &blen);
    put_str(f, b, blen);
    fputs(",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", f);
    for (size_t l = 0; l < m->locations.n; l++) {
        const struct ss_location *loc = &m->locations.v[l];
        if (frame[l] == UINT32_MAX)
            continue;
        const struct ss_function *fn = &m->functions.v[loc->function];
        fputs(frame[l] ? ",{\"name\":" : "{\"name\":", f);
        put_str(f, ss_str(m, fn->name), ss_strtab_len(&m->strs, fn->name));
        ss_id file = loc->file != SS_NONE ? loc->file : fn->filename;
        if (file != SS_NONE) {
            fputs(",\"file\":", f);
            put_str(f, ss_str(m, file), ss_strtab_len(&m->strs, file));
        }
        if (loc->line)
            fprintf(f, ",\"line\":%u", loc->line);
        fputc('}', f);
    }
    fputs("]},\"profiles\":[", f);

    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        int how = source_unit(m, s, vt_dur), timed = how == 2, counts = how == 1;
        const char *unit = timed ? "nanoseconds" : counts ? "none" : "microseconds";
        double total = 0;
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++)
            total += timed    ? (double)ss_sample_value(m, vt_dur, i)
                     : counts ? (double)ss_sample_count(m, i)
                              : (double)ss_sample_count(m, i) * src->interval_us;
        fputs(s ? ",{\"type\":\"sampled\",\"name\":" : "{\"type\":\"sampled\",\"name\":", f);
        ss_basename(ss_str(m, src->uri), &b, &blen);
        int several =
            src->session > 1 || (s + 1 < m->sources.n && m->sources.v[s + 1].uri == src->uri);
        char *nm = malloc(blen + 16);
        if (!nm) {
            free(frame);
            return ss_nomem(err, "speedscope profile name");
        }
        memcpy(nm, b, blen);
        size_t nlen = blen;
        if (several)
            nlen += (size_t)snprintf(nm + blen, 16, " (%u)", src->session);
        put_str(f, nm, nlen);
        free(nm);
        fprintf(f, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":", unit);
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
            if (timed)
                fprintf(f, "%lld", (long long)ss_sample_value(m, vt_dur, i));
            else if (counts)
                fprintf(f, "%lld", (long long)ss_sample_count(m, i));
            else
                put_num(f, (double)ss_sample_count(m, i) * src->interval_us);
        }
        fputs("]}", f);
    }
    fputs("]}\n", f);
    free(frame);
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
