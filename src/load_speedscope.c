/* load_speedscope.c - speedscope JSON reader (see load_speedscope.h). */
#include "load_speedscope.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "hashtab.h"
#include "limits.h"
#include "vec.h"
#include "num.h"

#define SP_MAX_FRAMES SS_MAX_FRAMES /* frames of one stack */

/* ---- detection ---------------------------------------------------------------- */

static int schema_member(void *ctx, const char *key, size_t klen, const unsigned char *p, size_t n,
                         size_t vpos, int whole)
{
    (void)ctx;
    if (klen != 7 || memcmp(key, "$schema", 7))
        return 2;
    size_t k = strlen(SS_SPEEDSCOPE_SCHEMA);
    if (n - vpos < k + 2)
        return whole ? 0 : -1;
    return p[vpos] == '"' && !memcmp(p + vpos + 1, SS_SPEEDSCOPE_SCHEMA, k) &&
           p[vpos + 1 + k] == '"';
}

int ss_speedscope_sniff(const unsigned char *p, size_t n, int whole, const char **why)
{
    size_t pos = n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3) ? 3 : 0;
    int r = ss_json_sniff_object(p, n, pos, whole, schema_member, NULL);
    if (r == 0)
        *why = "not a JSON object with \"$schema\": \"" SS_SPEEDSCOPE_SCHEMA "\"";
    return r;
}

/* ---- loading ------------------------------------------------------------------- */

enum unit_kind { U_NONE, U_TIME, U_BYTES };

struct sp {
    struct ss_model *m;
    const struct ss_json *j;
    const char *path;
    struct ss_error *err;
    ss_id *frame_loc; /* frame index -> location */
    size_t nframes;
    ss_id *frames; /* scratch: one stack, leaf first */
    int64_t *vals;
    ss_id vt_duration, vt_space;
    /* the profile being read */
    enum unit_kind kind;
    double to_ns; /* time units: nanoseconds per unit */
    double weight_sum;
    size_t n_samples, zero;
    uint32_t first_zero;
};

static int fail_at(struct sp *S, uint32_t node, const char *what)
{
    return ss_fail(S->err, SS_EINPUT, "%s: byte %u: %s", S->path,
                   node == SS_JSON_NONE ? 0u : ss_json_at(S->j, node)->off, what);
}

static int is_type(const struct ss_json *j, uint32_t id, int type)
{
    return id != SS_JSON_NONE && ss_json_at(j, id)->type == type;
}

static int str_is(const struct ss_json *j, uint32_t id, const char *s)
{
    size_t len;
    if (!is_type(j, id, SS_JSON_STRING))
        return 0;
    const char *v = ss_json_string(j, id, &len);
    return len == strlen(s) && !memcmp(v, s, len);
}

static int read_frames(struct sp *S, uint32_t top)
{
    const struct ss_json *j = S->j;
    uint32_t shared = ss_json_member(j, top, "shared");
    uint32_t frames = ss_json_member(j, shared, "frames");
    if (!is_type(j, shared, SS_JSON_OBJECT) || !is_type(j, frames, SS_JSON_ARRAY))
        return fail_at(S, shared == SS_JSON_NONE ? 0 : shared,
                       "\"shared\" must be an object with a \"frames\" array");
    S->nframes = ss_json_at(j, frames)->u.kids.n;
    S->frame_loc = ss_alloc_array(S->nframes, sizeof *S->frame_loc);
    if (!S->frame_loc)
        return ss_nomem(S->err, "frames");
    size_t i = 0;
    for (uint32_t f = ss_json_at(j, frames)->u.kids.first; f != SS_JSON_NONE;
         f = ss_json_at(j, f)->next, i++) {
        uint32_t name = ss_json_member(j, f, "name"), file = ss_json_member(j, f, "file");
        uint32_t line = ss_json_member(j, f, "line");
        if (!is_type(j, name, SS_JSON_STRING))
            return fail_at(S, f, "a frame must be an object with a \"name\" string");
        if (file != SS_JSON_NONE && !is_type(j, file, SS_JSON_STRING))
            return fail_at(S, file, "a frame's \"file\" must be a string");
        int64_t l = 0;
        if (line != SS_JSON_NONE && !ss_json_int(j, line, 0, SS_MAX_LINE_NO, &l))
            return fail_at(S, line,
                           "a frame's \"line\" must be a whole number from 0 to "
                           "4294967294");
        size_t nlen, flen = 0;
        const char *nm = ss_json_string(j, name, &nlen);
        const char *fl = file == SS_JSON_NONE ? NULL : ss_json_string(j, file, &flen);
        ss_id n = ss_model_intern(S->m, nm, nlen);
        ss_id fid = flen ? ss_model_intern(S->m, fl, flen) : SS_NONE;
        ss_id fn = n == SS_NONE || (flen && fid == SS_NONE) ? SS_NONE
                                                            : ss_model_function(S->m, n, n, fid, 0);
        ss_id loc = fn == SS_NONE ? SS_NONE : ss_model_location(S->m, fn, fid, (uint32_t)l);
        if (loc == SS_NONE)
            return ss_nomem(S->err, "frames");
        S->frame_loc[i] = loc;
    }
    return 0;
}

/* Add one sample of stack st with this weight. */
static int add_sample_stack(struct sp *S, uint32_t at, ss_id st, double w)
{
    if (!(w >= 0) || !isfinite(w))
        return fail_at(S, at, "a weight must be a number of at least 0");
    memset(S->vals, 0, S->m->value_types.n * sizeof *S->vals);
    S->vals[SS_VT_COUNT] = 1;
    if (S->kind == U_NONE) {
        if (!ss_double_eq(w, floor(w)) || w > (double)SS_MAX_COUNT)
            return fail_at(S, at,
                           "with unit \"none\" a weight is a count: a whole number up to "
                           "10^15");
        if (ss_double_eq(w, 0)) {
            if (S->zero++ == 0)
                S->first_zero = at;
            return 0;
        }
        S->vals[SS_VT_COUNT] = (int64_t)w;
    } else if (S->kind == U_TIME) {
        double ns = w * S->to_ns;
        if (ns > SS_MAX_WEIGHT_NS)
            return fail_at(S, at, "a weight above 9e18 nanoseconds");
        S->vals[S->vt_duration] = (int64_t)llround(ns);
    } else {
        if (!ss_double_eq(w, floor(w)) || w > 9e18)
            return fail_at(S, at, "with unit \"bytes\" a weight is a whole number of bytes");
        S->vals[S->vt_space] = (int64_t)w;
    }
    S->weight_sum += w;
    S->n_samples++;
    if (ss_model_add_sample(S->m, st, S->vals))
        return ss_nomem(S->err, "samples");
    return 0;
}

/* Add one sample of frames[0..depth) (leaf first) with this weight. */
static int add_sample(struct sp *S, uint32_t at, size_t depth, double w)
{
    ss_id st = ss_model_stack(S->m, S->frames, depth, SS_NONE);
    if (st == SS_NONE)
        return ss_nomem(S->err, "stacks");
    return add_sample_stack(S, at, st, w);
}

static int frame_index(struct sp *S, uint32_t id, size_t *out)
{
    int64_t v;
    if (!ss_json_int(S->j, id, 0, (int64_t)S->nframes - 1, &v))
        return fail_at(S, id, "a frame index must be a whole number below the number of frames");
    *out = (size_t)v;
    return 0;
}

static int read_sampled(struct sp *S, uint32_t prof)
{
    const struct ss_json *j = S->j;
    uint32_t samples = ss_json_member(j, prof, "samples"),
             weights = ss_json_member(j, prof, "weights");
    if (!is_type(j, samples, SS_JSON_ARRAY) || !is_type(j, weights, SS_JSON_ARRAY))
        return fail_at(S, prof, "a sampled profile needs \"samples\" and \"weights\" arrays");
    if (ss_json_at(j, samples)->u.kids.n != ss_json_at(j, weights)->u.kids.n)
        return fail_at(S, weights, "\"weights\" must have one number per sample");
    uint32_t w = ss_json_at(j, weights)->u.kids.first;
    for (uint32_t s = ss_json_at(j, samples)->u.kids.first; s != SS_JSON_NONE;
         s = ss_json_at(j, s)->next, w = ss_json_at(j, w)->next) {
        if (!is_type(j, s, SS_JSON_ARRAY))
            return fail_at(S, s, "a sample must be an array of frame indices");
        size_t depth = ss_json_at(j, s)->u.kids.n;
        if (depth > SP_MAX_FRAMES)
            return fail_at(S, s, "a sample deeper than 1000000 frames");
        size_t k = depth; /* root first in the file, leaf first in the model */
        for (uint32_t f = ss_json_at(j, s)->u.kids.first; f != SS_JSON_NONE;
             f = ss_json_at(j, f)->next) {
            size_t idx = 0;
            if (frame_index(S, f, &idx))
                return S->err->code;
            S->frames[--k] = S->frame_loc[idx];
        }
        if (!is_type(j, w, SS_JSON_NUMBER))
            return fail_at(S, w, "a weight must be a number");
        int rc = add_sample(S, w, depth, ss_json_at(j, w)->u.num);
        if (rc)
            return rc;
    }
    return 0;
}

/* The open frames of an evented profile: their locations, outermost first,
 * and the path of each prefix (path[d]: frames 0..d), a node of a trie of
 * (caller's path, frame) pairs, so that opening a frame and taking a sample
 * cost one lookup, not a walk of the depth.  A path becomes a stack of the
 * model when a sample first needs it (`stack`, SS_NONE until then). */
struct opened {
    VEC(ss_id) loc;
    VEC(uint32_t) path;
    struct ss_u64map child; /* (caller's path + 1) << 32 | location -> path */
    VEC(ss_id) stack;       /* per path: its stack in the model, or SS_NONE */
    uint64_t made;          /* frames of the stacks made so far */
    uint64_t limit;         /* ... and the most allowed (see sample_stack) */
};

/* Open frame `loc` on top of the open ones. */
static int open_frame(struct sp *S, struct opened *o, uint32_t e, ss_id loc)
{
    size_t depth = o->loc.n;
    if (depth >= SP_MAX_FRAMES)
        return fail_at(S, e, "more than 1000000 frames open at once");
    uint64_t caller = depth ? (uint64_t)o->path.v[depth - 1] + 1 : 0;
    if (ss_u64map_reserve(&o->child, 1) || VEC_PUSH(o->loc, loc) ||
        VEC_RESERVE(o->stack, o->stack.n + 1))
        return ss_nomem(S->err, "events");
    uint32_t p = ss_u64map_intern(&o->child, caller << 32 | loc, (uint32_t)o->stack.n);
    if (p == o->stack.n)
        o->stack.v[o->stack.n++] = SS_NONE; /* a new path */
    if (VEC_PUSH(o->path, p))
        return ss_nomem(S->err, "events");
    return 0;
}

/* The model's stack of the open frames (made the first time).  Each stack
 * made costs its depth: a file that keeps sampling new frames deep down
 * could make a model far larger than itself, hence the limit. */
static ss_id sample_stack(struct sp *S, struct opened *o, uint32_t at)
{
    size_t depth = o->loc.n;
    uint32_t p = o->path.v[depth - 1];
    if (o->stack.v[p] != SS_NONE)
        return o->stack.v[p];
    o->made += depth;
    if (o->made > o->limit) {
        fail_at(S, at,
                "the samples' stacks hold more frames in all than 32 per JSON value of the file "
                "(samples taken deep down in ever new stacks)");
        return SS_NONE;
    }
    for (size_t k = 0; k < depth; k++)
        S->frames[k] = o->loc.v[depth - 1 - k];
    ss_id st = ss_model_stack(S->m, S->frames, depth, SS_NONE);
    if (st == SS_NONE)
        ss_nomem(S->err, "stacks");
    return o->stack.v[p] = st;
}

/* An evented profile: each stretch between two events while a frame is
 * open is a sample of the open frames. */
static int read_evented(struct sp *S, uint32_t prof)
{
    const struct ss_json *j = S->j;
    uint32_t events = ss_json_member(j, prof, "events");
    if (!is_type(j, events, SS_JSON_ARRAY))
        return fail_at(S, prof, "an evented profile needs an \"events\" array");
    struct opened o;
    memset(&o, 0, sizeof o);
    o.limit = 32 * (uint64_t)j->nodes.n + ((uint64_t)1 << 20);
    double last = 0;
    int rc = 0;
    for (uint32_t e = ss_json_at(j, events)->u.kids.first; !rc && e != SS_JSON_NONE;
         e = ss_json_at(j, e)->next) {
        uint32_t type = ss_json_member(j, e, "type"), at = ss_json_member(j, e, "at");
        uint32_t fr = ss_json_member(j, e, "frame");
        int is_open = str_is(j, type, "O");
        if (!is_open && !str_is(j, type, "C")) {
            rc = fail_at(S, e, "an event needs \"type\" \"O\" (open) or \"C\" (close)");
            break;
        }
        if (!is_type(j, at, SS_JSON_NUMBER)) {
            rc = fail_at(S, e, "an event needs a number \"at\"");
            break;
        }
        size_t idx = 0;
        if ((rc = frame_index(S, fr == SS_JSON_NONE ? e : fr, &idx)))
            break;
        double t = ss_json_at(j, at)->u.num;
        size_t depth = o.loc.n;
        if (depth && t < last) {
            rc = fail_at(S, at, "events must be in non-decreasing \"at\" order");
            break;
        }
        if (depth && t > last) {
            ss_id st = sample_stack(S, &o, at);
            rc = st == SS_NONE ? (int)S->err->code : add_sample_stack(S, at, st, t - last);
            if (rc)
                break;
        }
        last = t;
        if (is_open) {
            rc = open_frame(S, &o, e, S->frame_loc[idx]);
        } else if (!depth || o.loc.v[depth - 1] != S->frame_loc[idx]) {
            rc = fail_at(S, e, "a close event that does not close the innermost open frame");
        } else {
            o.loc.n = o.path.n = depth - 1;
        }
    }
    if (!rc && o.loc.n)
        rc = fail_at(S, events, "frames still open at the end of the events");
    VEC_FREE(o.loc);
    VEC_FREE(o.path);
    VEC_FREE(o.stack);
    ss_u64map_free(&o.child);
    return rc;
}

static int read_profile(struct sp *S, uint32_t prof, uint32_t session)
{
    const struct ss_json *j = S->j;
    if (!is_type(j, prof, SS_JSON_OBJECT))
        return fail_at(S, prof, "a profile must be an object");
    uint32_t type = ss_json_member(j, prof, "type"), unit = ss_json_member(j, prof, "unit");
    uint32_t name = ss_json_member(j, prof, "name");
    int sampled = str_is(j, type, "sampled");
    if (!sampled && !str_is(j, type, "evented"))
        return fail_at(S, prof, "a profile's \"type\" must be \"sampled\" or \"evented\"");
    static const struct {
        const char *name;
        enum unit_kind kind;
        double to_ns;
    } units[] = {{"none", U_NONE, 0},           {"nanoseconds", U_TIME, 1},
                 {"microseconds", U_TIME, 1e3}, {"milliseconds", U_TIME, 1e6},
                 {"seconds", U_TIME, 1e9},      {"bytes", U_BYTES, 0}};
    size_t u = 0;
    while (u < ARRAY_SIZE(units) && !str_is(j, unit, units[u].name))
        u++;
    if (u == ARRAY_SIZE(units))
        return fail_at(S, unit == SS_JSON_NONE ? prof : unit,
                       "a profile's \"unit\" must be none, nanoseconds, microseconds, "
                       "milliseconds, seconds or bytes");
    S->kind = units[u].kind;
    S->to_ns = units[u].to_ns;
    S->weight_sum = 0;
    S->n_samples = S->zero = 0;
    if (S->kind == U_TIME &&
        (S->vt_duration = ss_model_value_type(S->m, "duration", "nanoseconds")) == SS_NONE)
        return ss_nomem(S->err, "value types");
    if (S->kind == U_BYTES &&
        (S->vt_space = ss_model_value_type(S->m, "space", "bytes")) == SS_NONE)
        return ss_nomem(S->err, "value types");
    free(S->vals);
    S->vals = ss_calloc_array(S->m->value_types.n, sizeof *S->vals);
    if (!S->vals)
        return ss_nomem(S->err, "values");

    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = ss_model_intern_cstr(S->m, "speedscope");
    src.uri = ss_model_intern_cstr(S->m, S->path);
    src.session = session;
    src.interval_us = 1e6;
    if (S->kind != U_TIME)
        src.flags |= SS_SRC_UNTIMED; /* weights are counts or bytes */
    ss_id sid =
        src.type == SS_NONE || src.uri == SS_NONE ? SS_NONE : ss_model_add_source(S->m, &src);
    if (sid == SS_NONE)
        return ss_nomem(S->err, "sources");
    ss_model_source_value(S->m, sid, SS_VT_COUNT, 0);
    if (S->kind == U_TIME)
        ss_model_source_time(S->m, sid, S->vt_duration);
    if (S->kind == U_BYTES)
        ss_model_source_value(S->m, sid, S->vt_space, 1);
    if (is_type(j, name, SS_JSON_STRING)) {
        size_t len;
        const char *s = ss_json_string(j, name, &len);
        if (ss_model_add_meta(S->m, sid, ss_model_intern_cstr(S->m, "name"),
                              ss_model_intern(S->m, s, len)))
            return ss_nomem(S->err, "meta");
    }
    int rc = sampled ? read_sampled(S, prof) : read_evented(S, prof);
    if (rc)
        return rc;
    if (S->kind == U_TIME && S->n_samples && S->weight_sum > 0)
        ss_model_set_interval(S->m, sid, S->weight_sum * S->to_ns / 1e3 / (double)S->n_samples);
    if (S->zero)
        ss_model_warn(S->m, "%s: byte %u: profile %u: %zu sample%s with weight 0 left out", S->path,
                      S->first_zero == SS_JSON_NONE ? 0u : ss_json_at(j, S->first_zero)->off,
                      session, S->zero, ss_s(S->zero));
    return 0;
}

static int load_doc(struct ss_model *m, const struct ss_json *j, const char *path,
                    struct ss_error *err)
{
    struct sp S;
    memset(&S, 0, sizeof S);
    S.m = m;
    S.j = j;
    S.path = path;
    S.err = err;
    int rc = 0;
    if (!is_type(j, 0, SS_JSON_OBJECT) ||
        !str_is(j, ss_json_member(j, 0, "$schema"), SS_SPEEDSCOPE_SCHEMA))
        return fail_at(
            &S, 0, "a speedscope file is an object with \"$schema\": \"" SS_SPEEDSCOPE_SCHEMA "\"");
    uint32_t profiles = ss_json_member(j, 0, "profiles");
    if (!is_type(j, profiles, SS_JSON_ARRAY))
        return fail_at(&S, profiles == SS_JSON_NONE ? 0 : profiles,
                       "\"profiles\" must be an array");
    S.frames = ss_alloc_array(SP_MAX_FRAMES, sizeof *S.frames);
    if (!S.frames)
        return ss_nomem(err, "frames");
    rc = read_frames(&S, 0);
    uint32_t session = 1;
    for (uint32_t p = ss_json_at(j, profiles)->u.kids.first; !rc && p != SS_JSON_NONE;
         p = ss_json_at(j, p)->next, session++)
        rc = read_profile(&S, p, session);
    free(S.frames);
    free(S.frame_loc);
    free(S.vals);
    return rc;
}

/* load_doc for ss_json_with: ctx is the model */
static int doc(void *ctx, const struct ss_json *j, const char *path, struct ss_error *err)
{
    return load_doc(ctx, j, path, err);
}

int ss_load_speedscope_mem(struct ss_model *m, const char *p, size_t n, const char *path,
                           struct ss_error *err)
{
    return ss_json_with(NULL, p, n, path, doc, m, err);
}

int ss_load_speedscope(struct ss_model *m, struct ss_reader *r, const char *path,
                       struct ss_error *err)
{
    return ss_json_with(r, NULL, 0, path, doc, m, err);
}
