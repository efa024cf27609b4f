/* check_pprof.c - the pprof reader and writer (src/load_pprof.c,
 * src/write_pprof.c) on tiny profiles built here with the protobuf-c code
 * generated from proto/profile.proto: what each field becomes in the model,
 * the count and interval rules, inlined frames, unsymbolised locations,
 * every validation error, the gzip limit, format sniffing, and a model
 * written and read back.  Expected values are the hand-made inputs. */
#include "check_suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define ZLIB_CONST /* z_stream.next_in is const: zlib never writes the input */
#include <zlib.h>

#include "load.h"
#include "load_pprof.h"
#include "profile.pb-c.h"
#include "write.h"
#include "vec.h"

typedef Perftools__Profiles__Profile Profile;
typedef Perftools__Profiles__ValueType ValueType;
typedef Perftools__Profiles__Sample Sample;
typedef Perftools__Profiles__Location Location;
typedef Perftools__Profiles__Line Line;
typedef Perftools__Profiles__Function Function;
typedef Perftools__Profiles__Label Label;

/* ---- a small profile, built field by field ---------------------------- */

/* Strings: the indexes below are the positions in this table. */
static char str_buf[][16] = {
    "",            /* 0 */
    "samples",     /* 1 */
    "count",       /* 2 */
    "cpu",         /* 3 */
    "nanoseconds", /* 4 */
    "main",        /* 5 */
    "foo",         /* 6 */
    "bar",         /* 7 */
    "a.go",        /* 8 */
    "a comment",   /* 9 */
    "_Z3barv",     /* 10 */
    "thread",      /* 11 */
    "worker",      /* 12 */
    "contentions", /* 13 */
    "delay",       /* 14 */
};
enum { NSTR = ARRAY_SIZE(str_buf) };
static char *strings[NSTR];

struct fx {
    Profile p;
    struct ss_load_opts opts; /* the options the fixture is loaded with */
    ValueType vt[2], period_type;
    ValueType *vtp[2];
    Function fn[3];
    Function *fnp[3];
    Line ln[4];
    Line *lnp[4];
    Location lo[3];
    Location *lop[3];
    Sample s[3];
    Sample *sp[3];
    uint64_t ids0[2], ids1[2];
    int64_t v0[2], v1[2], v2[2];
    int64_t comments[1];
    Label label;
    Label *labelp;
};

/* The base profile:
 *   sample types samples/count, cpu/nanoseconds; period cpu/nanoseconds 10 ms
 *   functions 1 main (a.go, start 3), 2 foo, 3 bar (system name _Z3barv)
 *   location 10: foo:7 inlined into main:12; 20: bar:20; 30: no lines, 0x4a3f10
 *   samples  [20 10] 5 50ms;  [30 10] 1 10ms;  [] 2 0
 */
static void fx_init(struct fx *x)
{
    memset(x, 0, sizeof *x);
    perftools__profiles__profile__init(&x->p);
    for (int i = 0; i < 2; i++) {
        perftools__profiles__value_type__init(&x->vt[i]);
        x->vtp[i] = &x->vt[i];
    }
    x->vt[0].type = 1, x->vt[0].unit = 2;
    x->vt[1].type = 3, x->vt[1].unit = 4;
    x->p.n_sample_type = 2;
    x->p.sample_type = x->vtp;
    perftools__profiles__value_type__init(&x->period_type);
    x->period_type.type = 3, x->period_type.unit = 4;
    x->p.period_type = &x->period_type;
    x->p.period = 10000000;
    x->p.time_nanos = 1700000000123456789LL;
    x->p.duration_nanos = 80000000;
    x->comments[0] = 9;
    x->p.n_comment = 1;
    x->p.comment = x->comments;

    static const int64_t fnames[3] = {5, 6, 7};
    for (int i = 0; i < 3; i++) {
        perftools__profiles__function__init(&x->fn[i]);
        x->fn[i].id = (uint64_t)i + 1;
        x->fn[i].name = fnames[i];
        x->fnp[i] = &x->fn[i];
    }
    x->fn[0].filename = 8;
    x->fn[0].start_line = 3;
    x->fn[2].system_name = 10;
    x->p.n_function = 3;
    x->p.function = x->fnp;

    static const uint64_t lfn[4] = {2, 1, 3, 0};
    static const int64_t lline[4] = {7, 12, 20, 0};
    for (int i = 0; i < 4; i++) {
        perftools__profiles__line__init(&x->ln[i]);
        x->ln[i].function_id = lfn[i];
        x->ln[i].line = lline[i];
        x->lnp[i] = &x->ln[i];
    }
    for (int i = 0; i < 3; i++) {
        perftools__profiles__location__init(&x->lo[i]);
        x->lo[i].id = (uint64_t)(i + 1) * 10;
        x->lop[i] = &x->lo[i];
    }
    x->lo[0].n_line = 2, x->lo[0].line = &x->lnp[0];
    x->lo[1].n_line = 1, x->lo[1].line = &x->lnp[2];
    x->lo[2].address = 0x4a3f10;
    x->p.n_location = 3;
    x->p.location = x->lop;

    for (int i = 0; i < 3; i++) {
        perftools__profiles__sample__init(&x->s[i]);
        x->sp[i] = &x->s[i];
        x->s[i].n_value = 2;
    }
    x->ids0[0] = 20, x->ids0[1] = 10;
    x->ids1[0] = 30, x->ids1[1] = 10;
    x->v0[0] = 5, x->v0[1] = 50000000;
    x->v1[0] = 1, x->v1[1] = 10000000;
    x->v2[0] = 2, x->v2[1] = 0;
    x->s[0].n_location_id = 2, x->s[0].location_id = x->ids0, x->s[0].value = x->v0;
    x->s[1].n_location_id = 2, x->s[1].location_id = x->ids1, x->s[1].value = x->v1;
    x->s[2].value = x->v2;
    x->p.n_sample = 3;
    x->p.sample = x->sp;

    for (int i = 0; i < NSTR; i++)
        strings[i] = str_buf[i];
    x->p.n_string_table = NSTR;
    x->p.string_table = strings;
}

/* Pack the profile into a malloc'd buffer. */
static uint8_t *fx_pack(const struct fx *x, size_t *len)
{
    *len = perftools__profiles__profile__get_packed_size(&x->p);
    uint8_t *b = malloc(*len ? *len : 1);
    ck_assert_ptr_nonnull(b);
    perftools__profiles__profile__pack(&x->p, b);
    return b;
}

/* gzip `len` bytes (a single member) into a malloc'd buffer. */
static uint8_t *fx_gzip(const uint8_t *in, size_t len, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY), Z_OK);
    size_t cap = deflateBound(&z, (uLong)len) + 64;
    uint8_t *out = malloc(cap);
    ck_assert_ptr_nonnull(out);
    z.next_in = (const uint8_t *)in;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    *out_len = cap - z.avail_out;
    deflateEnd(&z);
    return out;
}

/* Load the fixture (raw, or gzip-compressed when gz) into a new model. */
static int fx_load_pb(const struct fx *x, int gz, struct ss_model *m, struct ss_error *err)
{
    size_t len, zlen;
    uint8_t *raw = fx_pack(x, &len), *data = raw;
    if (gz)
        data = fx_gzip(raw, len, &zlen);
    ck_assert_int_eq(ss_model_init(m, err), 0);
    ss_error_clear(err);
    int rc =
        ss_load_pprof_mem(m, data, gz ? zlen : len, SS_PPROF_MAX_BYTES, &x->opts, "t.pb.gz", err);
    if (gz)
        free(data);
    free(raw);
    if (rc)
        ss_model_free(m);
    return rc;
}

static void fx_load_ok(const struct fx *x, int gz, struct ss_model *m)
{
    struct ss_error err;
    int rc = fx_load_pb(x, gz, m, &err);
    ck_assert_msg(rc == 0, "load failed: %s", err.msg);
}

/* The load must fail with SS_EINPUT and a message containing `want`. */
static void fx_load_bad(const struct fx *x, const char *want)
{
    struct ss_model m;
    struct ss_error err;
    int rc = fx_load_pb(x, 1, &m, &err);
    ck_assert_int_eq(rc, SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "t.pb.gz") != NULL, "no file name in: %s", err.msg);
    ck_assert_msg(strstr(err.msg, want) != NULL, "expected '%s' in: %s", want, err.msg);
}

static const char *meta(const struct ss_model *m, const char *key)
{
    for (size_t i = 0; i < m->meta.n; i++)
        if (!strcmp(ss_str(m, m->meta.v[i].key), key))
            return ss_str(m, m->meta.v[i].value);
    return NULL;
}

static ss_id vt_index(const struct ss_model *m, const char *type, const char *unit)
{
    for (size_t t = 0; t < m->value_types.n; t++)
        if (!strcmp(ss_str(m, m->value_types.v[t].type), type) &&
            !strcmp(ss_str(m, m->value_types.v[t].unit), unit))
            return (ss_id)t;
    return SS_NONE;
}

static int has_warning(const struct ss_model *m, const char *part)
{
    for (size_t i = 0; i < m->warnings.n; i++)
        if (strstr(m->warnings.v[i], part))
            return 1;
    return 0;
}

/* ---- reading ------------------------------------------------------------ */

START_TEST(test_read_basic)
{
    struct fx x;
    fx_init(&x);
    struct ss_model m;
    fx_load_ok(&x, _i, &m); /* raw (0) and gzip (1) read the same */
    ck_assert_uint_eq(m.sources.n, 1);
    const struct ss_source *s = &m.sources.v[0];
    ck_assert_str_eq(ss_str(&m, s->type), "pprof");
    ck_assert_str_eq(ss_str(&m, s->uri), "t.pb.gz");
    ck_assert_double_exact(s->interval_us, 10000.0); /* 10,000,000 ns */
    ck_assert_int_eq(s->timestamp, 1700000000);
    ck_assert_uint_eq(s->n_samples, 3);
    ck_assert(s->flags & SS_SRC_LINE);
    ck_assert(!(s->flags & SS_SRC_MEMORY));

    char buf[512];
    /* [20 10]: bar, then location 10's lines innermost first: foo, main. */
    fx_stack_text(&m, m.sample_stack.v[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "bar@NA#20 | foo@NA#7 | main@a.go#12");
    fx_stack_text(&m, m.sample_stack.v[1], buf, sizeof buf);
    /* an address without lines and without a mapping: pprof's <unknown> */
    ck_assert_str_eq(buf, "<unknown> | foo@NA#7 | main@a.go#12");
    ck_assert_uint_eq(ss_stack_depth(&m, m.sample_stack.v[2]), 0);
    /* foo was inlined into main (the location's first line), the address
     * without lines is kept as such */
    const ss_id *fr = ss_stack_frames(&m, m.sample_stack.v[1]);
    ck_assert_uint_eq(m.locations.v[fr[0]].flags, SS_LOC_NO_LINE);
    ck_assert_uint_eq(m.locations.v[fr[0]].address, 0x4a3f10);
    ck_assert_uint_eq(m.locations.v[fr[1]].flags, SS_LOC_INLINE);
    ck_assert_uint_eq(m.locations.v[fr[2]].flags, 0);

    /* A count of 5 stays one sample with count 5. */
    ck_assert_int_eq(ss_sample_count(&m, 0), 5);
    ck_assert_int_eq(ss_sample_count(&m, 1), 1);
    ck_assert_int_eq(ss_sample_count(&m, 2), 2);
    ss_id cpu = vt_index(&m, "cpu", "nanoseconds");
    ck_assert_uint_eq(cpu, 1);
    ck_assert_uint_eq(m.value_types.n, 2);
    ck_assert_int_eq(m.values.v[cpu][0], 50000000);
    ck_assert_int_eq(m.values.v[cpu][1], 10000000);
    ck_assert_int_eq(m.values.v[cpu][2], 0);

    /* Functions: names, system names (none when absent), files. */
    const struct ss_function *bar =
        &m.functions.v[m.locations.v[ss_stack_frames(&m, m.sample_stack.v[0])[0]].function];
    ck_assert_str_eq(ss_str(&m, bar->name), "bar");
    ck_assert_str_eq(ss_str(&m, bar->system_name), "_Z3barv");
    const struct ss_function *mainf =
        &m.functions.v[m.locations.v[ss_stack_frames(&m, m.sample_stack.v[0])[2]].function];
    ck_assert_uint_eq(mainf->system_name, SS_NONE);
    ck_assert_str_eq(ss_str(&m, mainf->filename), "a.go");
    ck_assert_uint_eq(mainf->start_line, 3);

    ck_assert_str_eq(meta(&m, "comment"), "a comment");
    ck_assert_str_eq(meta(&m, "period_type"), "cpu/nanoseconds");
    ck_assert_str_eq(meta(&m, "period"), "10000000");
    ck_assert_str_eq(meta(&m, "duration_nanos"), "80000000");
    ck_assert_str_eq(meta(&m, "time_nanos"), "1700000000123456789");
    ck_assert_ptr_null(meta(&m, "drop_frames"));
    ck_assert_uint_eq(m.warnings.n, 0);
    ss_model_free(&m);
}
END_TEST

/* The labels of sample i as "k=v,k=v". */
static void labels_of(const struct ss_model *m, size_t i, char *buf, size_t n)
{
    ss_id set = ss_sample_labelset(m, i);
    size_t at = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < ss_labelset_size(m, set); k++) {
        ss_id l = ss_labelset_labels(m, set)[k];
        char v[64];
        at += (size_t)snprintf(buf + at, n - at, "%s%s=%s", k ? "," : "", ss_label_key(m, l),
                               ss_label_value(m, l, v, sizeof v));
    }
}

/* Labels are kept: string and numeric ones, as Go's pprof reads them (a
 * label with neither str, num nor num_unit is none), through the memo of
 * repeated samples (whose bytes include the labels); bad string indexes
 * are errors naming the sample and the label. */
START_TEST(test_read_labels)
{
    struct fx x;
    fx_init(&x);
    perftools__profiles__label__init(&x.label);
    x.label.key = 11, x.label.str = 12;
    x.labelp = &x.label;
    x.s[1].n_label = 1, x.s[1].label = &x.labelp;
    struct ss_model m;
    char buf[256];
    fx_load_ok(&x, 1, &m);
    ck_assert_uint_eq(m.sample_stack.n, 3);
    ck_assert_uint_eq(m.warnings.n, 0);
    labels_of(&m, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    labels_of(&m, 1, buf, sizeof buf);
    ck_assert_str_eq(buf, "thread=worker");
    labels_of(&m, 2, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    ss_model_free(&m);

    /* the same sample bytes three times, the first without the label: the
     * second is new (other bytes), the third a memo hit of the second */
    x.s[0] = x.s[1];
    x.s[0].n_label = 0;
    x.s[2] = x.s[1];
    fx_load_ok(&x, 0, &m);
    labels_of(&m, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    labels_of(&m, 1, buf, sizeof buf);
    ck_assert_str_eq(buf, "thread=worker");
    labels_of(&m, 2, buf, sizeof buf);
    ck_assert_str_eq(buf, "thread=worker");
    ck_assert_uint_eq(m.sample_stack.v[1], m.sample_stack.v[2]);
    ss_model_free(&m);

    /* numeric: num 42 with unit nanoseconds; without a unit; nothing */
    fx_init(&x);
    perftools__profiles__label__init(&x.label);
    x.label.key = 11, x.label.num = 42, x.label.num_unit = 4;
    x.labelp = &x.label;
    x.s[1].n_label = 1, x.s[1].label = &x.labelp;
    fx_load_ok(&x, 1, &m);
    labels_of(&m, 1, buf, sizeof buf);
    ck_assert_str_eq(buf, "thread=42 nanoseconds");
    ss_model_free(&m);
    x.label.num_unit = 0;
    fx_load_ok(&x, 1, &m);
    labels_of(&m, 1, buf, sizeof buf);
    ck_assert_str_eq(buf, "thread=42");
    ss_model_free(&m);
    x.label.num = 0;
    fx_load_ok(&x, 1, &m);
    ck_assert_int_eq(ss_model_has_labels(&m), 0);
    ss_model_free(&m);

    x.label.key = 99;
    fx_load_bad(&x, "sample 2: label 1: string index 99 out of range");
    x.label.key = 11, x.label.str = -1;
    fx_load_bad(&x, "sample 2: label 1: string index -1 out of range");
    x.label.str = 0, x.label.num_unit = 15;
    fx_load_bad(&x, "sample 2: label 1: string index 15 out of range");
}
END_TEST

START_TEST(test_read_count_rules)
{
    struct fx x;
    struct ss_model m;
    /* No "samples": the first type with unit "count" (contentions). */
    fx_init(&x);
    x.vt[0].type = 13;
    x.vt[1].type = 14;
    x.period_type.type = 13, x.period_type.unit = 2, x.p.period = 1;
    fx_load_ok(&x, 1, &m);
    ck_assert_int_eq(ss_sample_count(&m, 0), 5);
    ck_assert_uint_ne(vt_index(&m, "contentions", "count"), SS_NONE);
    ck_assert_uint_ne(vt_index(&m, "delay", "nanoseconds"), SS_NONE);
    /* Not a time period: untimed, so no `time` measure; the measures are
     * the sample types, the default the last one (as Go's pprof). */
    ck_assert(m.sources.v[0].flags & SS_SRC_UNTIMED);
    struct ss_measure ms[8];
    size_t nms = ss_model_measures(&m, ms, 8);
    ck_assert_uint_eq(nms, 2);
    ck_assert_str_eq(ss_measure_name(&m, &ms[0]), "delay");
    ck_assert_str_eq(ss_measure_name(&m, &ms[1]), "contentions");
    ck_assert_int_eq(ss_model_set_measure(&m, "time", NULL), SS_EUSAGE);
    ss_model_free(&m);

    /* Only cpu/nanoseconds, equal to the period type: value / period. */
    fx_init(&x);
    x.vt[0] = x.vt[1];
    x.v0[0] = x.v0[1], x.v1[0] = x.v1[1], x.v2[0] = x.v2[1];
    fx_load_ok(&x, 1, &m);
    ck_assert_int_eq(ss_sample_count(&m, 0), 5); /* 50 ms / 10 ms */
    ck_assert_int_eq(ss_sample_count(&m, 1), 1);
    ck_assert(has_warning(&m, "divided by the period"));
    ss_model_free(&m);

    /* Nothing that counts: each sample counts 1; no period: untimed. */
    fx_init(&x);
    x.vt[0].type = 14, x.vt[0].unit = 4, x.vt[1].type = 14, x.vt[1].unit = 8;
    x.p.period_type = NULL, x.p.period = 0;
    fx_load_ok(&x, 1, &m);
    ck_assert_int_eq(ss_sample_count(&m, 0), 1);
    ck_assert(m.sources.v[0].flags & SS_SRC_UNTIMED);
    ck_assert(has_warning(&m, "each sample counts 1"));
    ss_model_free(&m);

    /* samples/count and a cpu column that is not count x period: the
     * column (in ns) is each sample's own time, no warning. */
    fx_init(&x);
    x.v1[1] = 7;
    fx_load_ok(&x, 1, &m);
    ck_assert_uint_eq(m.warnings.n, 0);
    ck_assert_uint_eq(m.sources.v[0].time_column, vt_index(&m, "cpu", "nanoseconds") + 1);
    ss_model_free(&m);
    /* in another unit: a warning, times count x period */
    fx_init(&x);
    x.v1[1] = 7;
    x.vt[1].unit = 2; /* cpu/count */
    x.period_type.unit = 2;
    fx_load_ok(&x, 1, &m);
    ck_assert(!m.sources.v[0].time_column);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_read_unnamed)
{
    /* A line whose function has no name: pprof names it by its binary. */
    struct fx x;
    fx_init(&x);
    x.fn[1].name = 0;
    Perftools__Profiles__Mapping mp = PERFTOOLS__PROFILES__MAPPING__INIT, *mpp = &mp;
    mp.id = 1;
    mp.filename = 8; /* "a.go" as a binary name, for the test */
    x.p.n_mapping = 1, x.p.mapping = &mpp;
    x.lo[0].mapping_id = 1;
    struct ss_model m;
    fx_load_ok(&x, 1, &m);
    char buf[512];
    fx_stack_text(&m, m.sample_stack.v[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "bar@NA#20 | [a.go]@NA#7 | main@a.go#12");
    ss_model_free(&m);
}
END_TEST

START_TEST(test_read_errors)
{
    struct fx x;
    fx_init(&x);
    x.fn[1].name = 99;
    fx_load_bad(
        &x, "function id 2: name: string index 99 out of range (the string table has 15 entries)");
    fx_init(&x);
    x.vt[1].unit = -1;
    fx_load_bad(&x, "sample_type 2: unit: string index -1 out of range");
    fx_init(&x);
    x.comments[0] = 15;
    fx_load_bad(&x, "comment 1: string index 15 out of range");
    fx_init(&x);
    x.ids1[0] = 31;
    fx_load_bad(&x, "sample 2: location id 31 does not exist");
    fx_init(&x);
    x.ln[2].function_id = 4;
    fx_load_bad(&x, "location id 20: line 1 refers to function id 4, which does not exist");
    fx_init(&x);
    x.lo[1].id = 10;
    fx_load_bad(&x, "two locations with id 10");
    fx_init(&x);
    x.fn[2].id = 0;
    fx_load_bad(&x, "function with the reserved id 0");
    fx_init(&x);
    x.s[1].n_value = 1;
    fx_load_bad(&x, "sample 2 has 1 values, but the profile has 2 sample types");
    fx_init(&x);
    str_buf[0][0] = 'x';
    fx_load_bad(&x, "the first entry of the string table is not empty");
    str_buf[0][0] = '\0';
    fx_init(&x);
    x.p.n_string_table = 0;
    fx_load_bad(&x, "no string table");
    fx_init(&x);
    /* a negative count beside a positive value: not a difference profile's
     * base sample (negative in every type), so refused */
    x.v0[0] = -3;
    fx_load_bad(&x, "sample 1 has both positive and negative values");
}
END_TEST

/* Ids far above the number of records go through the loader's hash map
 * instead of a direct array (more than 4 x n + 1024): the same profile as
 * test_read_basic, with every function and location id moved up by 2^40,
 * reads the same; a duplicate sparse id is refused, and so is a reference to
 * an absent one. */
START_TEST(test_read_sparse_ids)
{
    const uint64_t up = (uint64_t)1 << 40;
    struct fx x;
    fx_init(&x);
    for (int i = 0; i < 3; i++) {
        x.fn[i].id += up;
        x.lo[i].id += up;
    }
    for (int i = 0; i < 3; i++) /* lines 0-2 name functions 2, 1, 3 */
        x.ln[i].function_id += up;
    for (int i = 0; i < 2; i++) {
        x.ids0[i] += up;
        x.ids1[i] += up;
    }
    struct ss_model m;
    fx_load_ok(&x, 1, &m);
    char buf[512];
    fx_stack_text(&m, m.sample_stack.v[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "bar@NA#20 | foo@NA#7 | main@a.go#12");
    fx_stack_text(&m, m.sample_stack.v[1], buf, sizeof buf);
    /* an address without lines and without a mapping: pprof's <unknown> */
    ck_assert_str_eq(buf, "<unknown> | foo@NA#7 | main@a.go#12");
    ck_assert_uint_eq(ss_stack_depth(&m, m.sample_stack.v[2]), 0);
    ss_model_free(&m);

    x.lo[2].id = x.lo[0].id; /* 2^40 + 10 twice */
    fx_load_bad(&x, "two locations with id 1099511627786");
    x.lo[2].id = up + 30;
    x.fn[1].id = x.fn[0].id; /* 2^40 + 1 twice */
    fx_load_bad(&x, "two functions with id 1099511627777");
    x.fn[1].id = up + 2;
    x.ids1[0] = up + 31;
    fx_load_bad(&x, "sample 2: location id 1099511627807 does not exist");
}
END_TEST

START_TEST(test_read_wire_errors)
{
    struct fx x;
    fx_init(&x);
    size_t len;
    uint8_t *raw = fx_pack(&x, &len);
    struct ss_model m;
    struct ss_error err;

    /* Cut in the middle of a field: the declared length runs past the end. */
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(ss_load_pprof_mem(&m, raw, len / 2, SS_PPROF_MAX_BYTES, NULL, "t.pb", &err),
                     SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "t.pb: byte ") != NULL, "%s", err.msg);
    ss_model_free(&m);

    /* An absurd declared length: a sample field claiming 2^62 bytes. */
    static const uint8_t huge[] = {0x12, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40, 1};
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(
        ss_load_pprof_mem(&m, huge, sizeof huge, SS_PPROF_MAX_BYTES, NULL, "t.pb", &err),
        SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "t.pb: byte 0: declared length runs past the end") != NULL, "%s",
                  err.msg);
    ss_model_free(&m);

    /* Truncated gzip: the stream ends early. */
    size_t zlen;
    uint8_t *gz = fx_gzip(raw, len, &zlen);
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(
        ss_load_pprof_mem(&m, gz, zlen - 12, SS_PPROF_MAX_BYTES, NULL, "t.pb.gz", &err), SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "truncated gzip data") != NULL, "%s", err.msg);
    ss_model_free(&m);

    /* Garbage after the gzip header. */
    memcpy(gz + 10, "garbage garbage garbage", 23);
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(ss_load_pprof_mem(&m, gz, 33, SS_PPROF_MAX_BYTES, NULL, "t.pb.gz", &err),
                     SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "t.pb.gz: byte ") && strstr(err.msg, "bad gzip data"), "%s",
                  err.msg);
    ss_model_free(&m);
    free(gz);
    free(raw);

    /* A gzip bomb of zeros: not protobuf, refused at byte 0 as it arrives. */
    uint8_t *zeros = calloc(4u << 20, 1);
    ck_assert_ptr_nonnull(zeros);
    gz = fx_gzip(zeros, 4u << 20, &zlen);
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(ss_load_pprof_mem(&m, gz, zlen, 1u << 20, NULL, "bomb.gz", &err), SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "bomb.gz: byte 0 of the decompressed data: invalid field "
                                  "number") != NULL,
                  "%s", err.msg);
    ss_model_free(&m);
    free(gz);
    /* A bomb of valid fields ("2\n": string-table entries of 10 bytes),
     * 4 MiB against a 1 MiB limit. */
    for (size_t i = 0; i < 4u << 20; i++)
        zeros[i] = i % 2 ? '\n' : '2';
    gz = fx_gzip(zeros, 4u << 20, &zlen);
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(ss_load_pprof_mem(&m, gz, zlen, 1u << 20, NULL, "bomb.gz", &err), SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "bomb.gz: decompresses to more than 1 MiB, the limit") != NULL,
                  "%s", err.msg);
    ss_model_free(&m);
    free(gz);
    free(zeros);

    /* Past the 32 MiB budget (32 x a file of well under 1 MiB), the data
     * are counted before they are kept: a 40 MiB profile (the fixture, then
     * its first sample again and again) is refused under a 36 MiB limit and
     * loads whole under a 64 MiB one. */
    raw = fx_pack(&x, &len);
    Perftools__Profiles__Profile one = PERFTOOLS__PROFILES__PROFILE__INIT;
    one.n_sample = 1;
    one.sample = x.p.sample;
    uint8_t sample[64];
    size_t slen = perftools__profiles__profile__get_packed_size(&one);
    ck_assert_uint_le(slen, sizeof sample);
    perftools__profiles__profile__pack(&one, sample);
    size_t reps = (40u << 20) / slen + 1, blen = len + reps * slen;
    uint8_t *big = malloc(blen);
    ck_assert_ptr_nonnull(big);
    memcpy(big, raw, len);
    for (size_t r = 0; r < reps; r++)
        memcpy(big + len + r * slen, sample, slen);
    gz = fx_gzip(big, blen, &zlen);
    ck_assert_uint_lt(zlen * 32, 32u << 20);
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_int_eq(ss_load_pprof_mem(&m, gz, zlen, 36u << 20, NULL, "big.gz", &err), SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "big.gz: decompresses to more than 36 MiB, the limit") != NULL,
                  "%s", err.msg);
    ss_model_free(&m);
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    ck_assert_msg(ss_load_pprof_mem(&m, gz, zlen, 64u << 20, NULL, "big.gz", &err) == 0, "%s",
                  err.msg);
    ck_assert_uint_eq(m.sample_stack.n, x.p.n_sample + reps);
    ss_model_free(&m);
    free(gz);
    free(big);
    free(raw);
}
END_TEST

/* ---- writing ------------------------------------------------------------- */

/* Write m with ss_write_pprof into memory; returns the gzip bytes. */
static uint8_t *write_mem(const struct ss_model *m, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    ck_assert_ptr_nonnull(f);
    struct ss_error err;
    ss_error_clear(&err);
    int rc = ss_write_pprof(m, f, "out.pb.gz", &err);
    ck_assert_int_eq(fclose(f), 0);
    ck_assert_msg(rc == 0, "write failed: %s", err.msg);
    return (uint8_t *)buf;
}

/* Decompress with zlib and unpack with protobuf-c (the independent path). */
static Profile *unpack_gz(const uint8_t *gz, size_t len)
{
    size_t cap = 1 << 20, n = 0;
    uint8_t *raw = malloc(cap);
    z_stream z;
    memset(&z, 0, sizeof z);
    ck_assert_int_eq(inflateInit2(&z, 31), Z_OK);
    z.next_in = (const uint8_t *)gz;
    z.avail_in = (uInt)len;
    int zr;
    do {
        if (n == cap)
            raw = realloc(raw, cap *= 2);
        z.next_out = raw + n;
        z.avail_out = (uInt)(cap - n);
        zr = inflate(&z, Z_NO_FLUSH);
        n = cap - z.avail_out;
    } while (zr == Z_OK);
    ck_assert_int_eq(zr, Z_STREAM_END);
    inflateEnd(&z);
    Profile *p = perftools__profiles__profile__unpack(NULL, n, raw);
    free(raw);
    ck_assert_ptr_nonnull(p);
    return p;
}

static const char *pstr(const Profile *p, int64_t i)
{
    ck_assert(i >= 0 && (size_t)i < p->n_string_table);
    return p->string_table[i];
}

START_TEST(test_write_rprof_model)
{
    /* An Rprof-like model: interval 20 ms, line positions in two files,
     * a "<GC>" leaf, and one sample with no frames. */
    struct ss_model m;
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(&m, &err), 0);
    fx_source(&m, "rprof", "x.out", 1, 20000, SS_SRC_LINE);
    ss_id f = ss_model_intern_cstr(&m, "f"), gc = ss_model_intern_cstr(&m, "<GC>");
    ss_id a = ss_model_intern_cstr(&m, "/p/a.R"), b = ss_model_intern_cstr(&m, "/p/b.R");
    ss_id ff = ss_model_function(&m, f, f, SS_NONE, 0),
          fgc = ss_model_function(&m, gc, gc, SS_NONE, 0);
    ss_id l1 = ss_model_location(&m, ff, a, 3), l2 = ss_model_location(&m, ff, b, 9);
    ss_id l3 = ss_model_location(&m, fgc, SS_NONE, 0);
    ss_id s1[2] = {l3, l1}, s2[1] = {l2};
    ss_id st1 = ss_model_stack(&m, s1, 2, SS_NONE), st2 = ss_model_stack(&m, s2, 1, SS_NONE);
    ss_id st0 = ss_model_stack(&m, NULL, 0, SS_NONE);
    ck_assert_int_eq(ss_model_add_sample(&m, st1, NULL), 0);
    ck_assert_int_eq(ss_model_add_sample(&m, st2, NULL), 0);
    ck_assert_int_eq(ss_model_add_sample(&m, st0, NULL), 0);
    ck_assert_int_eq(ss_model_add_sample(&m, st1, NULL), 0);
    ss_model_seal(&m);

    size_t len;
    uint8_t *gz = write_mem(&m, &len);
    Profile *p = unpack_gz(gz, len);
    ck_assert_str_eq(pstr(p, 0), "");
    ck_assert_uint_eq(p->n_sample_type, 2);
    ck_assert_str_eq(pstr(p, p->sample_type[0]->type), "samples");
    ck_assert_str_eq(pstr(p, p->sample_type[1]->type), "cpu");
    ck_assert_str_eq(pstr(p, p->sample_type[1]->unit), "nanoseconds");
    ck_assert_str_eq(pstr(p, p->default_sample_type), "cpu");
    ck_assert_str_eq(pstr(p, p->period_type->type), "cpu");
    ck_assert_int_eq(p->period, 20000000);
    /* One pprof sample per model sample, in order; no frames: cpu 0. */
    ck_assert_uint_eq(p->n_sample, 4);
    static const size_t depth[4] = {2, 1, 0, 2};
    static const int64_t cpu[4] = {20000000, 20000000, 0, 20000000};
    for (int i = 0; i < 4; i++) {
        ck_assert_uint_eq(p->sample[i]->n_location_id, depth[i]);
        ck_assert_int_eq(p->sample[i]->value[0], 1);
        ck_assert_int_eq(p->sample[i]->value[1], cpu[i]);
    }
    ck_assert_int_eq(p->duration_nanos, 80000000); /* 4 samples x 20 ms */
    /* f in a.R and f in b.R: two functions with their files; <GC> keeps
     * an empty system_name (so Go's pprof leaves the name alone). */
    ck_assert_uint_eq(p->n_function, 3);
    ck_assert_uint_eq(p->n_location, 3);
    int seen_a = 0, seen_b = 0;
    for (size_t i = 0; i < p->n_function; i++) {
        const char *name = pstr(p, p->function[i]->name);
        const char *file = pstr(p, p->function[i]->filename);
        ck_assert_int_eq(p->function[i]->system_name, 0);
        if (!strcmp(name, "f") && !strcmp(file, "/p/a.R"))
            seen_a = 1;
        if (!strcmp(name, "f") && !strcmp(file, "/p/b.R"))
            seen_b = 1;
    }
    ck_assert(seen_a && seen_b);
    ck_assert_uint_eq(p->n_mapping, 1);
    ck_assert(p->mapping[0]->has_functions);
    perftools__profiles__profile__free_unpacked(p, NULL);

    /* Read back: the same stacks, counts and lines. */
    struct ss_model back;
    ck_assert_int_eq(ss_model_init(&back, &err), 0);
    ck_assert_int_eq(ss_load_pprof_mem(&back, gz, len, SS_PPROF_MAX_BYTES, NULL, "out.pb.gz", &err),
                     0);
    ck_assert_uint_eq(back.sample_stack.n, 4);
    ck_assert_double_exact(back.sources.v[0].interval_us, 20000.0);
    char x1[256], x2[256];
    for (size_t i = 0; i < 4; i++) {
        fx_stack_text(&m, m.sample_stack.v[i], x1, sizeof x1);
        fx_stack_text(&back, back.sample_stack.v[i], x2, sizeof x2);
        ck_assert_str_eq(x1, x2);
        ck_assert_int_eq(ss_sample_count(&back, i), 1);
    }
    ck_assert_uint_eq(back.warnings.n, 0);
    ss_model_free(&back);
    free(gz);
    ss_model_free(&m);
}
END_TEST

/* drop_frames = string `drop`, keep_frames = string `keep` (0: none): the
 * stack of the first sample ([20 10]: bar, foo inlined into main). */
static void pruned_first(int64_t drop, int64_t keep, int no_drop, char *buf, size_t n)
{
    struct fx x;
    fx_init(&x);
    x.opts.no_drop_frames = no_drop;
    x.p.drop_frames = drop;
    x.p.keep_frames = keep;
    struct ss_model m;
    fx_load_ok(&x, 0, &m);
    fx_stack_text(&m, m.sample_stack.v[0], buf, n);
    ss_model_free(&m);
}

START_TEST(test_read_drop_frames)
{
    /* As Go's pprof (profile.Prune): bar matches, and a frame that does
     * not (main) is outside it: the sample loses bar and what it calls. */
    char buf[512];
    pruned_first(7, 0, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "foo@NA#7 | main@a.go#12");
    /* kept when keep_frames matches it too */
    pruned_first(7, 7, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "bar@NA#20 | foo@NA#7 | main@a.go#12");
    /* foo is an inlined line: the location keeps its lines outside it
     * (main); the sample is not cut, as no frame outside it is kept */
    pruned_first(6, 0, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "bar@NA#20 | main@a.go#12");
    /* the root itself matches: frames before the first that does not
     * are never dropped */
    pruned_first(5, 0, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "bar@NA#20 | foo@NA#7 | main@a.go#12");
    /* turned off */
    pruned_first(7, 0, 1, buf, sizeof buf);
    ck_assert_str_eq(buf, "bar@NA#20 | foo@NA#7 | main@a.go#12");
}
END_TEST

START_TEST(test_write_pprof_model)
{
    /* pprof -> model -> pprof keeps the types, values, period and meta. */
    struct fx x;
    fx_init(&x);
    struct ss_model m;
    fx_load_ok(&x, 1, &m);
    ss_model_seal(&m);
    size_t len;
    uint8_t *gz = write_mem(&m, &len);
    Profile *p = unpack_gz(gz, len);
    ck_assert_uint_eq(p->n_sample_type, 2);
    ck_assert_str_eq(pstr(p, p->sample_type[1]->type), "cpu");
    ck_assert_int_eq(p->period, 10000000);
    ck_assert_int_eq(p->time_nanos, 1700000000123456789LL);
    ck_assert_int_eq(p->duration_nanos, 80000000);
    ck_assert_uint_eq(p->n_comment, 1);
    ck_assert_str_eq(pstr(p, p->comment[0]), "a comment");
    ck_assert_uint_eq(p->n_sample, 3);
    ck_assert_int_eq(p->sample[0]->value[0], 5);
    ck_assert_int_eq(p->sample[0]->value[1], 50000000);
    ck_assert_int_eq(p->sample[2]->value[0], 2);
    /* bar keeps its system name; the inlined pair stays one location of
     * two lines (foo inlined into main), at its address. */
    int bar = 0;
    for (size_t i = 0; i < p->n_function; i++)
        if (!strcmp(pstr(p, p->function[i]->name), "bar"))
            bar = !strcmp(pstr(p, p->function[i]->system_name), "_Z3barv");
    ck_assert(bar);
    ck_assert_uint_eq(p->sample[0]->n_location_id, 2);
    const Perftools__Profiles__Location *two = NULL;
    for (size_t i = 0; i < p->n_location; i++)
        if (p->location[i]->id == p->sample[0]->location_id[1])
            two = p->location[i];
    ck_assert_ptr_nonnull(two);
    ck_assert_uint_eq(two->n_line, 2);
    perftools__profiles__profile__free_unpacked(p, NULL);
    free(gz);
    ss_model_free(&m);
}
END_TEST

/* ---- gzip members ------------------------------------------------------- */

/* raw[0..len) cut at the k offsets cuts[] (ascending), each piece gzipped
 * as one member, one after another; at[i] gets where member i starts (at[k
 * + 1] the end).  Returns the bytes (caller frees). */
static uint8_t *fx_members(const uint8_t *raw, size_t len, const size_t *cuts, size_t k, size_t *at,
                           size_t *out_len)
{
    uint8_t *out = NULL;
    size_t n = 0;
    for (size_t i = 0; i <= k; i++) {
        size_t a = i ? cuts[i - 1] : 0, b = i < k ? cuts[i] : len, zlen;
        uint8_t *z = fx_gzip(raw + a, b - a, &zlen);
        out = realloc(out, n + zlen);
        ck_assert_ptr_nonnull(out);
        memcpy(out + n, z, zlen);
        free(z);
        at[i] = n;
        n += zlen;
    }
    at[k + 1] = n;
    *out_len = n;
    return out;
}

/* Load data[0..len) under limit with `threads` threads; returns the
 * error code, the model written by write_mem in *w (on success). */
static int members_load(const uint8_t *data, size_t len, size_t limit, const char *threads,
                        uint8_t **w, size_t *wlen, struct ss_error *err)
{
    struct ss_model m;
    setenv("STACKSCOPE_THREADS", threads, 1);
    ck_assert_int_eq(ss_model_init(&m, err), 0);
    ss_error_clear(err);
    int rc = ss_load_pprof_mem(&m, data, len, limit, NULL, "t.pb.gz", err);
    if (!rc)
        *w = write_mem(&m, wlen);
    ss_model_free(&m);
    return rc;
}

/* Several gzip members (as stackscope writes a big profile) are inflated at
 * once, one a thread, into their places (ss_pprof_inflate_members): the
 * model is the one member's, with one thread or two.  Members whose
 * trailers lie, members with flags, cut or damaged members and sums past
 * the budget are left to the zlib pass, which reads them or says why not,
 * as before. */
START_TEST(test_read_members)
{
    struct fx x;
    fx_init(&x);
    size_t len, glen, wlen, w1len, at[5];
    uint8_t *raw = fx_pack(&x, &len), *out, *w, *w1;
    struct ss_error err;
    ck_assert_int_eq(members_load(raw, len, SS_PPROF_MAX_BYTES, "1", &w1, &w1len, &err), 0);
    size_t cuts[3] = {len / 4, len / 2, len / 2 + 1};
    uint8_t *gz = fx_members(raw, len, cuts, 3, at, &glen);
    static const char *const threads[] = {"1", "2", "3"};
    for (int t = 0; t < 3; t++) {
        setenv("STACKSCOPE_THREADS", threads[t], 1);
        int one = ss_pprof_inflate_members(gz, glen, len, &out, &wlen);
#ifdef HAVE_LIBDEFLATE
        ck_assert_int_eq(one, 1);
        ck_assert_uint_eq(wlen, len);
        ck_assert_mem_eq(out, raw, len);
        free(out);
        /* the sizes add up to one byte over the budget: not read */
        ck_assert_int_eq(ss_pprof_inflate_members(gz, glen, len - 1, &out, &wlen), 0);
#else
        ck_assert_int_eq(one, 0);
#endif
        ck_assert_int_eq(members_load(gz, glen, SS_PPROF_MAX_BYTES, threads[t], &w, &wlen, &err),
                         0);
        ck_assert_uint_eq(wlen, w1len);
        ck_assert_mem_eq(w, w1, w1len);
        free(w);
    }

    /* the second member's size (ISIZE) one too big, one too small: zlib's
     * error, as before */
    for (int d = -1; d <= 1; d += 2) {
        gz[at[2] - 4] = (uint8_t)(gz[at[2] - 4] + d);
        ck_assert_int_eq(ss_pprof_inflate_members(gz, glen, len, &out, &wlen), 0);
        ck_assert_int_eq(members_load(gz, glen, SS_PPROF_MAX_BYTES, "2", &w, &wlen, &err),
                         SS_EINPUT);
        ck_assert_msg(strstr(err.msg, "t.pb.gz: byte ") && strstr(err.msg, "incorrect length"),
                      "%s", err.msg);
        gz[at[2] - 4] = (uint8_t)(gz[at[2] - 4] - d);
    }

    /* the last member cut short: named at the end of the file */
    ck_assert_int_eq(ss_pprof_inflate_members(gz, glen - 5, len, &out, &wlen), 0);
    ck_assert_int_eq(members_load(gz, glen - 5, SS_PPROF_MAX_BYTES, "2", &w, &wlen, &err),
                     SS_EINPUT);
    char want[80];
    snprintf(want, sizeof want, "t.pb.gz: byte %zu: truncated gzip data", glen - 5);
    ck_assert_msg(strstr(err.msg, want) != NULL, "%s", err.msg);
    /* the second member's last 9 bytes gone: damaged data, named by its
     * byte (in the file, or in the data when zlib makes bad fields of it) */
    uint8_t *cut = malloc(glen);
    ck_assert_ptr_nonnull(cut);
    memcpy(cut, gz, at[2] - 9);
    memcpy(cut + at[2] - 9, gz + at[2], glen - at[2]);
    ck_assert_int_eq(ss_pprof_inflate_members(cut, glen - 9, len, &out, &wlen), 0);
    ck_assert_int_eq(members_load(cut, glen - 9, SS_PPROF_MAX_BYTES, "2", &w, &wlen, &err),
                     SS_EINPUT);
    ck_assert_msg(strstr(err.msg, "t.pb.gz: byte ") != NULL, "%s", err.msg);
    /* the third member with a name (flag FNAME): read by zlib, the same */
    memcpy(cut, gz, at[2]);
    memcpy(cut + at[2], gz + at[2], 10);
    cut[at[2] + 3] = 8;
    cut = realloc(cut, glen + 2);
    ck_assert_ptr_nonnull(cut);
    memcpy(cut + at[2] + 10, "x", 2);
    memcpy(cut + at[2] + 12, gz + at[2] + 10, glen - at[2] - 10);
    ck_assert_int_eq(ss_pprof_inflate_members(cut, glen + 2, len, &out, &wlen), 0);
    ck_assert_int_eq(members_load(cut, glen + 2, SS_PPROF_MAX_BYTES, "2", &w, &wlen, &err), 0);
    ck_assert_uint_eq(wlen, w1len);
    ck_assert_mem_eq(w, w1, w1len);
    free(w);
    free(cut);
    free(gz);

    /* A bomb of zeros in four members of 1 MiB, against a 1 MiB limit: the
     * sizes are past the budget, so nothing is allocated for them; and
     * with sizes that lie (16 bytes each), libdeflate stops at 64 bytes.
     * Either way zlib refuses it at byte 0, as it arrives. */
    uint8_t *zeros = calloc(4u << 20, 1);
    ck_assert_ptr_nonnull(zeros);
    size_t zc[3] = {1u << 20, 2u << 20, 3u << 20};
    gz = fx_members(zeros, 4u << 20, zc, 3, at, &glen);
    for (int lie = 0; lie < 2; lie++) {
        for (int i = 1; lie && i <= 4; i++)
            memcpy(gz + at[i] - 4, "\x10\0\0\0", 4);
        ck_assert_int_eq(ss_pprof_inflate_members(gz, glen, 1u << 20, &out, &wlen), 0);
        ck_assert_int_eq(members_load(gz, glen, 1u << 20, "2", &w, &wlen, &err), SS_EINPUT);
        ck_assert_msg(strstr(err.msg, "t.pb.gz: byte 0 of the decompressed data: invalid field "
                                      "number") != NULL,
                      "%s", err.msg);
    }
    free(gz);
    free(zeros);
    free(w1);
    free(raw);
    unsetenv("STACKSCOPE_THREADS");
}
END_TEST

/* ---- samples in quick form --------------------------------------------- */

static void put_varint(uint8_t **p, uint64_t v)
{
    while (v >= 0x80) {
        *(*p)++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *(*p)++ = (uint8_t)v;
}

static uint64_t take_varint(const uint8_t **p)
{
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
}

/* raw[0..len) (a packed Profile) with every sample's location ids and
 * values written unpacked, one field each (as protobuf allows and old
 * writers did): the form the loader leaves to protobuf-c. */
static uint8_t *fx_unpacked(const uint8_t *raw, size_t len, size_t *out_len)
{
    uint8_t *out = malloc(len * 3 + 16), *o = out;
    ck_assert_ptr_nonnull(out);
    uint8_t msg[4096];
    for (const uint8_t *p = raw; p < raw + len;) {
        uint64_t tag = take_varint(&p);
        ck_assert(tag % 8 == 0 || tag % 8 == 2); /* the fixture's top-level fields */
        if (tag % 8 == 0) {
            put_varint(&o, tag);
            put_varint(&o, take_varint(&p));
            continue;
        }
        size_t n = take_varint(&p);
        const uint8_t *b = p, *e = p + n;
        p = e;
        uint8_t *m = msg;
        if (tag >> 3 != 2) {
            ck_assert_uint_le(n, sizeof msg);
            memcpy(m, b, n), m += n;
        }
        while (tag >> 3 == 2 && b < e) {
            uint64_t t = take_varint(&b), k = take_varint(&b);
            ck_assert(t == (1 << 3 | 2) || t == (2 << 3 | 2));
            for (const uint8_t *q = b; q < b + k;)
                put_varint(&m, t >> 3 << 3), put_varint(&m, take_varint(&q));
            b += k;
        }
        put_varint(&o, tag);
        put_varint(&o, (uint64_t)(m - msg));
        memcpy(o, msg, (size_t)(m - msg)), o += m - msg;
    }
    *out_len = (size_t)(o - out);
    return out;
}

/* Samples in the form writers give them (location ids and values packed)
 * are decoded in place, and a sample whose ids were seen takes the stack
 * they made (quick_sample, the stacks memo): the model is the one
 * protobuf-c's unpacking makes of the same samples written unpacked, with
 * every sample its own message (values that change) over three stacks,
 * two dropped frames and a stack of none. */
START_TEST(test_read_quick)
{
    struct fx x;
    fx_init(&x);
    enum { N = 300 };
    Sample s[N], *sp[N];
    int64_t v[N][2];
    for (int k = 0; k < N; k++) {
        s[k] = x.s[k % 3];
        v[k][0] = 1 + k % 7;
        v[k][1] = k % 11 ? v[k][0] * 10000000 : 123; /* a time not count x period */
        s[k].value = v[k];
        sp[k] = &s[k];
    }
    x.p.n_sample = N;
    x.p.sample = sp;
    for (int drop = 0; drop < 2; drop++) {
        x.p.drop_frames = drop ? 6 : 0; /* foo */
        size_t len, ulen, w1len, w2len;
        uint8_t *raw = fx_pack(&x, &len), *un = fx_unpacked(raw, len, &ulen), *w1, *w2;
        ck_assert(ulen != len || memcmp(raw, un, len) != 0);
        struct ss_error err;
        ck_assert_int_eq(members_load(raw, len, SS_PPROF_MAX_BYTES, "1", &w1, &w1len, &err), 0);
        ck_assert_int_eq(members_load(un, ulen, SS_PPROF_MAX_BYTES, "1", &w2, &w2len, &err), 0);
        ck_assert_uint_eq(w1len, w2len);
        ck_assert_mem_eq(w1, w2, w1len);
        free(w1), free(w2), free(un), free(raw);
    }
    unsetenv("STACKSCOPE_THREADS");
}
END_TEST

/* A profile of more than PARALLEL_MIN samples is read in parts on threads
 * (pass_two_parts): with one thread or two, the same model, or the same
 * error at the same sample and byte, wherever in the second part a sample
 * the part's thread does not decode (labels, a negative value, a location
 * that does not exist, a count past the total's range) is. */
START_TEST(test_read_parts)
{
    struct fx x;
    fx_init(&x);
    enum { N = 150000 };
    Sample *s = calloc(N, sizeof *s), **sp = calloc(N, sizeof *sp);
    int64_t(*v)[2] = calloc(N, sizeof *v);
    ck_assert(s && sp && v);
    for (int k = 0; k < N; k++) {
        s[k] = x.s[k % 3];
        v[k][0] = 1 + k % 7;
        v[k][1] = v[k][0] * 10000000;
        s[k].value = v[k];
        sp[k] = &s[k];
    }
    x.p.n_sample = N;
    x.p.sample = sp;
    uint64_t nowhere[1] = {99};
    for (int fault = 0; fault < 5; fault++) {
        int at = N - 1000 - fault;
        Sample keep = s[at];
        if (fault == 1) {
            s[at].n_label = 1, s[at].label = &x.labelp;
            perftools__profiles__label__init(&x.label);
            x.label.key = 5, x.label.str = 6;
            x.labelp = &x.label;
        } else if (fault == 2) {
            v[at][0] = -v[at][0], v[at][1] = -v[at][1]; /* a difference's base */
        } else if (fault == 3) {
            s[at].n_location_id = 1, s[at].location_id = nowhere;
        } else if (fault == 4) {
            v[at][0] = INT64_MAX - 10;
        }
        size_t len, w1len = 0, w2len = 0;
        uint8_t *raw = fx_pack(&x, &len), *w1 = NULL, *w2 = NULL;
        struct ss_error e1, e2;
        int r1 = members_load(raw, len, SS_PPROF_MAX_BYTES, "1", &w1, &w1len, &e1);
        int r2 = members_load(raw, len, SS_PPROF_MAX_BYTES, "2", &w2, &w2len, &e2);
        ck_assert_int_eq(r1, r2);
        ck_assert_int_eq(r1 != 0, fault >= 3);
        if (r1) {
            ck_assert_str_eq(e1.msg, e2.msg);
            ck_assert_msg(
                strstr(e1.msg, fault == 3 ? "location id 99 does not exist" : "t.pb.gz: byte "),
                "%s", e1.msg);
        } else {
            ck_assert_uint_eq(w1len, w2len);
            ck_assert_mem_eq(w1, w2, w1len);
        }
        free(w1), free(w2), free(raw);
        s[at] = keep;
        v[at][0] = 1 + at % 7;
        v[at][1] = v[at][0] * 10000000;
    }
    free(s), free(sp), free(v);
    unsetenv("STACKSCOPE_THREADS");
}
END_TEST

Suite *pprof_suite(void)
{
    Suite *s = suite_create("pprof");
    TCase *tc = tcase_create("read");
    tcase_add_loop_test(tc, test_read_basic, 0, 2);
    tcase_add_test(tc, test_read_labels);
    tcase_add_test(tc, test_read_count_rules);
    tcase_add_test(tc, test_read_unnamed);
    tcase_add_test(tc, test_read_errors);
    tcase_add_test(tc, test_read_sparse_ids);
    tcase_add_test(tc, test_read_drop_frames);
    tcase_add_test(tc, test_read_wire_errors);
    suite_add_tcase(s, tc);
    tc = tcase_create("write");
    tcase_add_test(tc, test_write_rprof_model);
    tcase_add_test(tc, test_write_pprof_model);
    tcase_add_test(tc, test_read_members);
    tcase_add_test(tc, test_read_quick);
    tcase_add_test(tc, test_read_parts);
    suite_add_tcase(s, tc);
    return s;
}
