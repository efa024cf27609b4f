/* write_tables.c - the v2 tables writer (HACKING.md, Data model;
 * stackscope(1), v2 tables; see write.h and tables.h for the file layout, ids
 * and escaping).
 *
 * One TSV file per table, header row first, ids 1-based and dense (row k of
 * a table has id k, so R can index one table by another's id column).  The
 * caller (write.c) gives an empty temporary directory and renames it into
 * place, so a failed write never leaves half a directory behind.
 */
#include "writers.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "limits.h"
#include "tables.h"

struct tw {
    FILE *f;
    char path[4096];
};

static int tw_open(struct tw *t, const char *dir, const char *name, const char *header,
                   struct ss_error *err)
{
    snprintf(t->path, sizeof t->path, "%s/%s", dir, name);
    t->f = fopen(t->path, "wb");
    if (!t->f)
        return ss_fail(err, SS_EIO, "%s: cannot create: %s", t->path, strerror(errno));
    fputs(header, t->f);
    putc('\n', t->f);
    return 0;
}

static int tw_close(struct tw *t, struct ss_error *err)
{
    int bad = fflush(t->f) != 0 || ferror(t->f) || fsync(fileno(t->f)) != 0;
    int e = errno;
    if (fclose(t->f) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    t->f = NULL;
    if (bad)
        return ss_fail(err, SS_EIO, "%s: write failed: %s", t->path, strerror(e));
    return 0;
}

/* Fast unsigned decimal output (sample_locations can have many rows). */
static void put_u64(FILE *f, uint64_t v)
{
    char buf[24];
    int i = sizeof buf;
    do {
        buf[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    fwrite(buf + i, 1, sizeof buf - (size_t)i, f);
}

static void put_i64(FILE *f, int64_t v)
{
    if (v < 0) {
        putc('-', f);
        put_u64(f, (uint64_t)0 - (uint64_t)v);
    } else {
        put_u64(f, (uint64_t)v);
    }
}

/* A 0-based id as a 1-based one, SS_NONE as \N. */
static void put_id(FILE *f, ss_id id)
{
    if (id == SS_NONE)
        fputs("\\N", f);
    else
        put_u64(f, (uint64_t)id + 1);
}

/* n bytes of text, escaped (backslash, tab, LF, CR: tables.h). */
static void put_bytes(FILE *f, const char *s, size_t n)
{
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i], e = c == '\\'   ? '\\'
                           : c == '\t' ? 't'
                           : c == '\n' ? 'n'
                           : c == '\r' ? 'r'
                                       : 0;
        if (!e)
            continue;
        fwrite(s + run, 1, i - run, f);
        putc('\\', f);
        putc(e, f);
        run = i + 1;
    }
    fwrite(s + run, 1, n - run, f);
}

/* A string, escaped, SS_NONE as \N. */
static void put_str(FILE *f, const struct ss_model *m, ss_id id)
{
    if (id == SS_NONE)
        fputs("\\N", f);
    else
        put_bytes(f, ss_str(m, id), ss_strtab_len(&m->strs, id));
}

static void sep(FILE *f)
{
    putc('\t', f);
}

static void eol(FILE *f)
{
    putc('\n', f);
}

static int write_meta(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    struct tw t;
    if (tw_open(&t, dir, "meta.tsv", "key\tvalue\tsource_id", err))
        return err->code;
    fputs("version\t" SS_TABLES_VERSION "\t\\N\n", t.f);
    /* a source whose time is a column's (pprof's per-sample durations,
     * model.h: time_column): that column's name */
    for (size_t s = 0; s < m->sources.n; s++) {
        uint32_t tc = m->sources.v[s].time_column;
        if (!tc || tc - 1 >= m->value_types.n)
            continue;
        fputs(SS_TABLES_TIME_COLUMN "\t", t.f);
        put_str(t.f, m, m->value_types.v[tc - 1].type);
        sep(t.f);
        put_id(t.f, (ss_id)s);
        eol(t.f);
    }
    for (size_t i = 0; i < m->meta.n; i++) {
        const struct ss_meta *e = &m->meta.v[i];
        if (!strcmp(ss_str(m, e->key), SS_TABLES_TIME_COLUMN))
            continue; /* written above, for the sources as they are */
        put_str(t.f, m, e->key);
        sep(t.f);
        put_str(t.f, m, e->value);
        sep(t.f);
        put_id(t.f, e->source);
        eol(t.f);
    }
    return tw_close(&t, err);
}

static int write_sources(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    struct tw t;
    if (tw_open(&t, dir, "sources.tsv",
                "source_id\ttype\turi\tsession\theader_line\ttimestamp\tinterval_us\tflags", err))
        return err->code;
    for (size_t i = 0; i < m->sources.n; i++) {
        const struct ss_source *s = &m->sources.v[i];
        char fl[64];
        ss_tables_flags_text(s->flags, fl, sizeof fl);
        put_id(t.f, (ss_id)i);
        sep(t.f);
        put_str(t.f, m, s->type);
        sep(t.f);
        put_str(t.f, m, s->uri);
        /* an unknown interval (0) is 1 s, as every loader and the Rprof
         * writer have it: the reader refuses 0 */
        fprintf(t.f, "\t%u\t%u\t%lld\t%.17g\t%s\n", s->session, s->header_line,
                (long long)s->timestamp, s->interval_us > 0 ? s->interval_us : 1e6, fl);
    }
    return tw_close(&t, err);
}

static int write_value_types(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    /* Bounded by the check in ss_write_tables: at most SS_MAX_VALUE_TYPES. */
    for (size_t i = 0; i < m->value_types.n; i++)
        for (size_t j = 0; j < i; j++)
            if (m->value_types.v[i].type == m->value_types.v[j].type)
                return ss_fail(err, SS_EUSAGE,
                               "%s: cannot write tables: two value types are named '%s'", dir,
                               ss_str(m, m->value_types.v[i].type));
    struct tw t;
    if (tw_open(&t, dir, "value_types.tsv", "type\tunit", err))
        return err->code;
    for (size_t i = 0; i < m->value_types.n; i++) {
        put_str(t.f, m, m->value_types.v[i].type);
        sep(t.f);
        put_str(t.f, m, m->value_types.v[i].unit);
        eol(t.f);
    }
    return tw_close(&t, err);
}

static int write_samples(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    struct tw t;
    if (tw_open(&t, dir, "samples.tsv", "sample_id\tsource_id\tstack_id", err))
        return err->code;
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *so = &m->sources.v[s];
        for (size_t i = so->first_sample; i < so->first_sample + so->n_samples; i++) {
            put_u64(t.f, (uint64_t)i + 1);
            sep(t.f);
            put_id(t.f, (ss_id)s);
            sep(t.f);
            put_id(t.f, m->sample_stack.v[i]);
            eol(t.f);
        }
    }
    if (tw_close(&t, err))
        return err->code;
    /* Every value of every sample, the implicit ones included. */
    if (tw_open(&t, dir, "sample_values.tsv", "sample_id\ttype\tvalue", err))
        return err->code;
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        for (size_t v = 0; v < m->value_types.n; v++) {
            int64_t x = ss_sample_value(m, v, i);
            put_u64(t.f, (uint64_t)i + 1);
            sep(t.f);
            put_str(t.f, m, m->value_types.v[v].type);
            sep(t.f);
            put_i64(t.f, x);
            eol(t.f);
        }
    }
    return tw_close(&t, err);
}

/* The rows of stack st: frames at depth 1.. (innermost first), then the
 * tail position; one depth-0 row with no location for an empty stack.
 * `id` is the first column (stack or sample id). */
static void stack_rows(FILE *f, const struct ss_model *m, ss_id st, uint64_t id, int with_empty)
{
    size_t d = ss_stack_depth(m, st);
    const ss_id *fr = ss_stack_frames(m, st);
    for (size_t k = 0; k < d; k++) {
        put_u64(f, id);
        sep(f);
        put_u64(f, k + 1);
        sep(f);
        put_id(f, fr[k]);
        eol(f);
    }
    ss_id tail = m->stack_tail.v[st];
    if (tail != SS_NONE) {
        put_u64(f, id);
        sep(f);
        put_u64(f, d + 1);
        sep(f);
        put_id(f, tail);
        eol(f);
    } else if (d == 0 && with_empty) {
        put_u64(f, id);
        fputs("\t0\t\\N\n", f);
    }
}

static int write_stacks(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    struct tw t;
    if (tw_open(&t, dir, "stacks.tsv", "stack_id\tdepth\tlocation_id", err))
        return err->code;
    for (size_t s = 0; s < ss_model_nstacks(m); s++)
        stack_rows(t.f, m, (ss_id)s, (uint64_t)s + 1, 1);
    if (tw_close(&t, err))
        return err->code;
    if (tw_open(&t, dir, "sample_locations.tsv", "sample_id\tdepth\tlocation_id", err))
        return err->code;
    for (size_t i = 0; i < m->sample_stack.n; i++)
        stack_rows(t.f, m, m->sample_stack.v[i], (uint64_t)i + 1, 0);
    return tw_close(&t, err);
}

static int write_locations(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    struct tw t;
    if (tw_open(&t, dir, "locations.tsv", "location_id\tfunction_id\tfile\tline", err))
        return err->code;
    for (size_t i = 0; i < m->locations.n; i++) {
        const struct ss_location *l = &m->locations.v[i];
        put_id(t.f, (ss_id)i);
        sep(t.f);
        put_id(t.f, l->function);
        sep(t.f);
        put_str(t.f, m, l->file);
        sep(t.f);
        put_u64(t.f, l->line);
        eol(t.f);
    }
    if (tw_close(&t, err))
        return err->code;
    if (tw_open(&t, dir, "functions.tsv",
                "function_id\tname\tsystem_name\tfilename\tstart_line\tclass", err))
        return err->code;
    for (size_t i = 0; i < m->functions.n; i++) {
        const struct ss_function *fn = &m->functions.v[i];
        put_id(t.f, (ss_id)i);
        sep(t.f);
        put_str(t.f, m, fn->name);
        sep(t.f);
        put_str(t.f, m, fn->system_name);
        sep(t.f);
        put_str(t.f, m, fn->filename);
        sep(t.f);
        put_u64(t.f, fn->start_line);
        sep(t.f);
        put_str(t.f, m, i < m->function_class.n ? m->function_class.v[i] : SS_NONE);
        eol(t.f);
    }
    return tw_close(&t, err);
}

static int write_aggregates(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    struct tw t;
    if (m->aggs.n) {
        if (tw_open(&t, dir, "aggregates.tsv", "source_id\tlocation_id\tself\ttotal", err))
            return err->code;
        for (size_t i = 0; i < m->aggs.n; i++) {
            const struct ss_agg *a = &m->aggs.v[i];
            put_id(t.f, a->source);
            sep(t.f);
            put_id(t.f, a->location);
            sep(t.f);
            put_i64(t.f, a->self);
            sep(t.f);
            put_i64(t.f, a->total);
            eol(t.f);
        }
        if (tw_close(&t, err))
            return err->code;
    }
    if (m->edges.n) {
        if (tw_open(&t, dir, "call_edges.tsv",
                    "source_id\tcaller_location_id\tcallee_location_id\tcount", err))
            return err->code;
        for (size_t i = 0; i < m->edges.n; i++) {
            const struct ss_agg_edge *e = &m->edges.v[i];
            put_id(t.f, e->source);
            sep(t.f);
            put_id(t.f, e->caller);
            sep(t.f);
            put_id(t.f, e->callee);
            sep(t.f);
            put_i64(t.f, e->count);
            eol(t.f);
        }
        if (tw_close(&t, err))
            return err->code;
    }
    return 0;
}

/* labels.tsv (only when some sample has a label): one row per label of a
 * sample, in sample order: a string label has str and \N for num and unit,
 * a numeric one \N for str. */
static int write_labels(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    if (!ss_model_has_labels(m))
        return 0;
    struct tw t;
    if (tw_open(&t, dir, "labels.tsv", "sample_id\tkey\tstr\tnum\tunit", err))
        return err->code;
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        ss_id set = ss_sample_labelset(m, i);
        const ss_id *labs = ss_labelset_labels(m, set);
        for (size_t k = 0; k < ss_labelset_size(m, set); k++) {
            const struct ss_label *l = &m->labels.v[labs[k]];
            put_u64(t.f, (uint64_t)i + 1);
            sep(t.f);
            put_str(t.f, m, l->key);
            sep(t.f);
            put_str(t.f, m, l->str);
            sep(t.f);
            if (l->str == SS_NONE)
                put_i64(t.f, l->num);
            else
                fputs("\\N", t.f);
            sep(t.f);
            put_str(t.f, m, l->unit);
            eol(t.f);
        }
    }
    return tw_close(&t, err);
}

/* source_lines.tsv (only when the profile carries source files, source.h):
 * one row per line of each file, numbered from 1. */
static int write_source_lines(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    if (!m->source_texts.n)
        return 0;
    struct tw t;
    if (tw_open(&t, dir, "source_lines.tsv", "file\tline\ttext", err))
        return err->code;
    for (size_t i = 0; i < m->source_texts.n; i++) {
        const struct ss_source_text *st = &m->source_texts.v[i];
        const char *s = ss_str(m, st->text);
        size_t n = ss_strtab_len(&m->strs, st->text);
        uint64_t line = 0;
        for (size_t a = 0; a < n;) {
            const char *nl = memchr(s + a, '\n', n - a);
            size_t b = nl ? (size_t)(nl - s) : n;
            put_str(t.f, m, st->path);
            sep(t.f);
            put_u64(t.f, ++line);
            sep(t.f);
            put_bytes(t.f, s + a, b - a);
            eol(t.f);
            a = b + 1;
        }
    }
    return tw_close(&t, err);
}

/* Names of bits, joined by '+' ("-" for none). */
static void put_bits(FILE *f, uint32_t bits, const char *const *names, size_t n)
{
    int any = 0;
    for (size_t k = 0; k < n; k++)
        if (bits & (1u << k)) {
            fprintf(f, "%s%s", any ? "+" : "", names[k]);
            any = 1;
        }
    if (!any)
        putc('-', f);
}

/* mappings.tsv and location_addresses.tsv (only when the model has
 * mappings, addresses or flagged locations: a native profile's): the
 * binaries of a pprof profile, and each location's address, mapping and
 * flags (tables.h names them). */
static int write_addresses(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    int any = m->mappings.n > 0;
    for (size_t i = 0; i < m->locations.n && !any; i++)
        any = m->locations.v[i].address || m->locations.v[i].flags ||
              m->locations.v[i].mapping != SS_NONE;
    if (!any)
        return 0;
    struct tw t;
    if (tw_open(&t, dir, "mappings.tsv",
                "mapping_id\tmemory_start\tmemory_limit\tfile_offset\tfilename\tbuild_id\tflags",
                err))
        return err->code;
    for (size_t i = 0; i < m->mappings.n; i++) {
        const struct ss_mapping *mp = &m->mappings.v[i];
        put_id(t.f, (ss_id)i);
        fprintf(t.f, "\t0x%llx\t0x%llx\t0x%llx\t", (unsigned long long)mp->start,
                (unsigned long long)mp->limit, (unsigned long long)mp->offset);
        put_str(t.f, m, mp->file);
        sep(t.f);
        put_str(t.f, m, mp->build_id);
        sep(t.f);
        put_bits(t.f, mp->flags, ss_tables_map_flags, SS_TABLES_MAP_FLAGS);
        eol(t.f);
    }
    if (tw_close(&t, err) ||
        tw_open(&t, dir, "location_addresses.tsv", "location_id\tmapping_id\taddress\tflags", err))
        return err->code;
    for (size_t i = 0; i < m->locations.n; i++) {
        const struct ss_location *l = &m->locations.v[i];
        if (!l->address && !l->flags && l->mapping == SS_NONE)
            continue;
        put_id(t.f, (ss_id)i);
        sep(t.f);
        put_id(t.f, l->mapping);
        fprintf(t.f, "\t0x%llx\t", (unsigned long long)l->address);
        put_bits(t.f, l->flags, ss_tables_loc_flags, SS_TABLES_LOC_FLAGS);
        eol(t.f);
    }
    return tw_close(&t, err);
}

/* Refuse what the tables reader would refuse (limits.h). */
static int check_limits(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    static const char cannot[] = "%s: cannot write tables: ";
    char pre[4200];
    snprintf(pre, sizeof pre, cannot, dir);
    if (m->value_types.n > SS_MAX_VALUE_TYPES)
        return ss_fail(err, SS_EINPUT, "%s%zu value types (the tables hold at most %d)", pre,
                       m->value_types.n, SS_MAX_VALUE_TYPES);
    for (size_t i = 0; i < m->sources.n; i++) {
        double iv = m->sources.v[i].interval_us; /* 0, unknown, is written as 1 s */
        if (!(iv >= 0 && iv <= SS_MAX_INTERVAL_US))
            return ss_fail(err, SS_EINPUT,
                           "%ssource %zu has an interval of %g us (the tables hold above 0, at "
                           "most %g)",
                           pre, i + 1, iv, SS_MAX_INTERVAL_US);
    }
    const int64_t *cnt = m->values.n ? m->values.v[SS_VT_COUNT] : NULL;
    for (size_t i = 0; cnt && i < m->sample_stack.n; i++)
        if (ss_sample_count(m, i) < 0)
            return ss_fail(err, SS_EINPUT,
                           "%ssample %zu has a negative count (%lld): the tables hold counts of 0 "
                           "or more",
                           pre, i + 1, (long long)ss_sample_count(m, i));
    for (size_t i = 0; i < m->locations.n; i++)
        if (m->locations.v[i].line > SS_MAX_LINE_NO)
            return ss_fail(err, SS_EINPUT, "%slocation %zu has line %u (at most %u)", pre, i + 1,
                           m->locations.v[i].line, (unsigned)SS_MAX_LINE_NO);
    for (size_t i = 0; i < m->aggs.n; i++) {
        const struct ss_agg *a = &m->aggs.v[i];
        if (a->self < 0 || a->total > SS_MAX_COUNT || a->self > a->total)
            return ss_fail(err, SS_EINPUT,
                           "%saggregate %zu has self %lld and total %lld (the tables hold 0 <= "
                           "self <= total <= %lld)",
                           pre, i + 1, (long long)a->self, (long long)a->total, SS_MAX_COUNT);
    }
    for (size_t i = 0; i < m->edges.n; i++)
        if (m->edges.v[i].count < 0 || m->edges.v[i].count > SS_MAX_COUNT)
            return ss_fail(err, SS_EINPUT, "%scall edge %zu has count %lld (0 to %lld)", pre, i + 1,
                           (long long)m->edges.v[i].count, SS_MAX_COUNT);
    return 0;
}

int ss_write_tables(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    if (check_limits(m, dir, err))
        return err->code;
    if (write_meta(m, dir, err) || write_sources(m, dir, err) || write_value_types(m, dir, err) ||
        write_samples(m, dir, err) || write_stacks(m, dir, err) || write_locations(m, dir, err) ||
        write_aggregates(m, dir, err) || write_labels(m, dir, err) ||
        write_source_lines(m, dir, err) || write_addresses(m, dir, err))
        return err->code;
    return 0;
}
