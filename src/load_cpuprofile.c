/* load_cpuprofile.c - Chrome/Node CPU profile reader (see load_cpuprofile.h). */
#include "load_cpuprofile.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "limits.h"
#include "vec.h"

#define CP_MAX_FRAMES 100000             /* frames of one stack (depth of a node) */
#define CP_MAX_STACK_FRAMES (1ull << 28) /* frames of all distinct stacks */

/* ---- detection ------------------------------------------------------------ */

static int has_callframe(void *ctx, const char *key, size_t klen, const unsigned char *p, size_t n,
                         size_t vpos, int whole)
{
    (void)ctx, (void)p, (void)n, (void)vpos, (void)whole;
    return klen == 9 && !memcmp(key, "callFrame", 9) ? 1 : 2;
}

static int top_member(void *ctx, const char *key, size_t klen, const unsigned char *p, size_t n,
                      size_t vpos, int whole)
{
    (void)ctx;
    if (klen != 5 || memcmp(key, "nodes", 5))
        return 2;
    if (p[vpos] != '[')
        return 0;
    vpos++;
    if (!ss_json_ws(p, n, &vpos))
        return whole ? 0 : -1;
    return ss_json_sniff_object(p, n, vpos, whole, has_callframe, NULL);
}

int ss_cpuprofile_sniff(const unsigned char *p, size_t n, int whole, const char **why)
{
    size_t pos = 0;
    if (n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
        pos = 3;
    int r = ss_json_sniff_object(p, n, pos, whole, top_member, NULL);
    if (r == 0)
        *why = "not a JSON object whose \"nodes\" are objects with a \"callFrame\"";
    return r;
}

/* ---- loading ---------------------------------------------------------------- */

struct idx {
    int64_t id;
    uint32_t node; /* index in the nodes array */
};

static int by_id(const void *a, const void *b)
{
    const struct idx *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

struct cp {
    struct ss_model *m;
    const struct ss_json *j;
    const char *path;
    struct ss_error *err;
    size_t n;         /* nodes */
    uint32_t *json;   /* node -> its JSON object */
    struct idx *ids;  /* sorted by id */
    uint32_t *parent; /* node -> parent node, UINT32_MAX for none */
    ss_id *loc;       /* node -> location, SS_NONE for the skipped root */
    ss_id *stack;     /* node -> stack, SS_NONE until computed */
    uint64_t frames;  /* frames of all stacks built */
};

static int fail_at(struct cp *C, uint32_t node, const char *fmt, const char *what)
{
    return ss_fail(C->err, SS_EINPUT, "%s: byte %u: %s%s", C->path,
                   node == SS_JSON_NONE ? 0u : ss_json_at(C->j, node)->off, fmt, what);
}

/* The node with this id, or UINT32_MAX. */
static uint32_t find_node(const struct cp *C, int64_t id)
{
    size_t lo = 0, hi = C->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (C->ids[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < C->n && C->ids[lo].id == id ? C->ids[lo].node : UINT32_MAX;
}

/* The location of node i from its callFrame. */
static int node_location(struct cp *C, uint32_t i)
{
    const struct ss_json *j = C->j;
    uint32_t obj = C->json[i];
    uint32_t cf = ss_json_member(j, obj, "callFrame");
    if (cf == SS_JSON_NONE || ss_json_at(j, cf)->type != SS_JSON_OBJECT)
        return fail_at(C, cf == SS_JSON_NONE ? obj : cf, "a node's \"callFrame\" must be an object",
                       "");
    uint32_t fn = ss_json_member(j, cf, "functionName"), url = ss_json_member(j, cf, "url");
    uint32_t ln = ss_json_member(j, cf, "lineNumber");
    if (fn == SS_JSON_NONE || ss_json_at(j, fn)->type != SS_JSON_STRING)
        return fail_at(C, fn == SS_JSON_NONE ? cf : fn, "\"functionName\" must be a string", "");
    if (url != SS_JSON_NONE && ss_json_at(j, url)->type != SS_JSON_STRING)
        return fail_at(C, url, "\"url\" must be a string", "");
    int64_t line = -1;
    if (ln != SS_JSON_NONE && !ss_json_int(j, ln, -1, (int64_t)SS_MAX_LINE_NO - 1, &line))
        return fail_at(C, ln, "\"lineNumber\" must be a whole number from -1 to 4294967293", "");
    size_t flen, ulen = 0;
    const char *name = ss_json_string(j, fn, &flen);
    const char *u = url == SS_JSON_NONE ? "" : ss_json_string(j, url, &ulen);
    if (flen == 0)
        name = "(anonymous)", flen = strlen(name);
    ss_id nm = ss_model_intern(C->m, name, flen);
    ss_id file = ulen ? ss_model_intern(C->m, u, ulen) : SS_NONE;
    uint32_t l = line >= 0 ? (uint32_t)line + 1 : 0;
    ss_id f = nm == SS_NONE || (ulen && file == SS_NONE) ? SS_NONE
                                                         : ss_model_function(C->m, nm, nm, file, l);
    ss_id loc = f == SS_NONE ? SS_NONE : ss_model_location(C->m, f, file, l);
    if (loc == SS_NONE)
        return ss_nomem(C->err, "model");
    C->loc[i] = loc;
    return 0;
}

/* The stack of node i: its location and its ancestors', leaf first. */
static int node_stack(struct cp *C, uint32_t i, ss_id *out, ss_id *frames)
{
    if (C->stack[i] != SS_NONE) {
        *out = C->stack[i];
        return 0;
    }
    size_t k = 0;
    for (uint32_t x = i; x != UINT32_MAX; x = C->parent[x]) {
        if (C->loc[x] == SS_NONE)
            continue; /* the root */
        if (k >= CP_MAX_FRAMES)
            return fail_at(C, C->json[i],
                           "a node deeper than 100000 frames (or a cycle of "
                           "parents)",
                           "");
        frames[k++] = C->loc[x];
    }
    C->frames += k;
    if (C->frames > CP_MAX_STACK_FRAMES)
        return fail_at(C, C->json[i], "the distinct stacks hold more than 2^28 frames", "");
    ss_id s = ss_model_stack(C->m, frames, k, SS_NONE);
    if (s == SS_NONE)
        return ss_nomem(C->err, "stacks");
    C->stack[i] = *out = s;
    return 0;
}

struct smp {
    double t;      /* timestamp, microseconds */
    uint32_t node; /* node index */
    uint32_t seq;  /* position in the file (stable sort) */
};

static int by_time(const void *a, const void *b)
{
    const struct smp *x = a, *y = b;
    if (x->t < y->t)
        return -1;
    if (x->t > y->t)
        return 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int build(struct cp *C)
{
    const struct ss_json *j = C->j;
    if (ss_json_at(j, 0)->type != SS_JSON_OBJECT)
        return fail_at(C, 0, "a CPU profile is a JSON object", "");
    uint32_t nodes = ss_json_member(j, 0, "nodes");
    uint32_t samples = ss_json_member(j, 0, "samples");
    uint32_t deltas = ss_json_member(j, 0, "timeDeltas");
    uint32_t start = ss_json_member(j, 0, "startTime"), end = ss_json_member(j, 0, "endTime");
    const char *names[] = {"nodes", "samples", "timeDeltas"};
    uint32_t arrays[] = {nodes, samples, deltas};
    for (int k = 0; k < 3; k++)
        if (arrays[k] == SS_JSON_NONE || ss_json_at(j, arrays[k])->type != SS_JSON_ARRAY)
            return ss_fail(C->err, SS_EINPUT, "%s: byte %u: the profile's \"%s\" must be an array",
                           C->path, arrays[k] == SS_JSON_NONE ? 0u : ss_json_at(j, arrays[k])->off,
                           names[k]);
    if (start == SS_JSON_NONE || ss_json_at(j, start)->type != SS_JSON_NUMBER)
        return fail_at(C, start == SS_JSON_NONE ? 0 : start,
                       "the profile's \"startTime\" must be a number", "");
    if (end != SS_JSON_NONE && ss_json_at(j, end)->type != SS_JSON_NUMBER)
        return fail_at(C, end, "the profile's \"endTime\" must be a number", "");
    size_t ns = ss_json_at(j, samples)->u.kids.n;
    if (ss_json_at(j, deltas)->u.kids.n != ns)
        return ss_fail(C->err, SS_EINPUT,
                       "%s: byte %u: %u timeDeltas for %zu samples (one per sample expected)",
                       C->path, ss_json_at(j, deltas)->off, ss_json_at(j, deltas)->u.kids.n, ns);

    /* the nodes, by id */
    C->n = ss_json_at(j, nodes)->u.kids.n;
    size_t n = C->n ? C->n : 1;
    C->json = ss_alloc_array(n, sizeof *C->json);
    C->ids = ss_alloc_array(n, sizeof *C->ids);
    C->parent = ss_alloc_array(n, sizeof *C->parent);
    C->loc = ss_alloc_array(n, sizeof *C->loc);
    C->stack = ss_alloc_array(n, sizeof *C->stack);
    if (!C->json || !C->ids || !C->parent || !C->loc || !C->stack)
        return ss_nomem(C->err, "CPU profile nodes");
    uint32_t i = 0;
    for (uint32_t c = ss_json_at(j, nodes)->u.kids.first; c != SS_JSON_NONE;
         c = ss_json_at(j, c)->next, i++) {
        if (ss_json_at(j, c)->type != SS_JSON_OBJECT)
            return fail_at(C, c, "a node must be an object, not ",
                           ss_json_type_name(ss_json_at(j, c)->type));
        int64_t id;
        if (!ss_json_int(j, ss_json_member(j, c, "id"), -(1ll << 53), 1ll << 53, &id))
            return fail_at(C, c, "a node needs an \"id\" that is a whole number", "");
        C->json[i] = c;
        C->ids[i].id = id;
        C->ids[i].node = i;
        C->parent[i] = UINT32_MAX;
        C->stack[i] = SS_NONE;
    }
    qsort(C->ids, C->n, sizeof *C->ids, by_id);
    for (size_t k = 1; k < C->n; k++)
        if (C->ids[k].id == C->ids[k - 1].id)
            return fail_at(C, C->json[C->ids[k].node], "a node id used twice", "");

    /* parents, from children (or parent) */
    for (i = 0; i < C->n; i++) {
        uint32_t obj = C->json[i];
        uint32_t ch = ss_json_member(j, obj, "children"), par = ss_json_member(j, obj, "parent");
        if (par != SS_JSON_NONE) {
            int64_t pid;
            uint32_t p;
            if (!ss_json_int(j, par, -(1ll << 53), 1ll << 53, &pid) ||
                (p = find_node(C, pid)) == UINT32_MAX)
                return fail_at(C, par, "\"parent\" is not the id of a node", "");
            if (C->parent[i] != UINT32_MAX && C->parent[i] != p)
                return fail_at(C, par, "a node with two parents", "");
            C->parent[i] = p;
        }
        if (ch == SS_JSON_NONE)
            continue;
        if (ss_json_at(j, ch)->type != SS_JSON_ARRAY)
            return fail_at(C, ch, "\"children\" must be an array of node ids", "");
        for (uint32_t c = ss_json_at(j, ch)->u.kids.first; c != SS_JSON_NONE;
             c = ss_json_at(j, c)->next) {
            int64_t cid;
            uint32_t k;
            if (!ss_json_int(j, c, -(1ll << 53), 1ll << 53, &cid) ||
                (k = find_node(C, cid)) == UINT32_MAX)
                return fail_at(C, c, "a child that is not the id of a node", "");
            if ((C->parent[k] != UINT32_MAX && C->parent[k] != i) || k == i)
                return fail_at(C, c, "a node that is the child of two nodes (or of itself)", "");
            C->parent[k] = i;
        }
    }

    /* locations; the parentless "(root)" is no frame */
    for (i = 0; i < C->n; i++) {
        int rc = node_location(C, i);
        if (rc)
            return rc;
        if (C->parent[i] == UINT32_MAX) {
            uint32_t cf = ss_json_member(j, C->json[i], "callFrame");
            size_t len;
            const char *s = ss_json_string(j, ss_json_member(j, cf, "functionName"), &len);
            if (len == 6 && !memcmp(s, "(root)", 6))
                C->loc[i] = SS_NONE;
        }
    }

    /* samples in time order */
    struct smp *S = ss_alloc_array(ns, sizeof *S);
    if (!S)
        return ss_nomem(C->err, "samples");
    double t = ss_json_at(j, start)->u.num;
    int unordered = 0;
    uint32_t c = ss_json_at(j, samples)->u.kids.first, d = ss_json_at(j, deltas)->u.kids.first;
    for (uint32_t k = 0; k < ns; k++, c = ss_json_at(j, c)->next, d = ss_json_at(j, d)->next) {
        int64_t sid;
        if (!ss_json_int(j, c, -(1ll << 53), 1ll << 53, &sid) ||
            (S[k].node = find_node(C, sid)) == UINT32_MAX) {
            free(S);
            return fail_at(C, c, "a sample that is not the id of a node", "");
        }
        if (ss_json_at(j, d)->type != SS_JSON_NUMBER) {
            free(S);
            return fail_at(C, d, "a time delta must be a number", "");
        }
        double dt = ss_json_at(j, d)->u.num;
        if (dt < 0)
            unordered = 1;
        t += dt;
        S[k].t = t;
        S[k].seq = k;
    }
    if (unordered)
        qsort(S, ns, sizeof *S, by_time);
    double t_end = end != SS_JSON_NONE ? ss_json_at(j, end)->u.num : (ns ? S[ns - 1].t : 0);

    /* the source: interval = the mean duration */
    double total_us = ns && t_end > S[0].t ? t_end - S[0].t : 0;
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = ss_model_intern_cstr(C->m, "cpuprofile");
    src.uri = ss_model_intern_cstr(C->m, C->path);
    src.session = 1;
    src.interval_us = ns && total_us > 0 ? total_us / (double)ns : 1000;
    src.flags = SS_SRC_LINE;
    ss_id vt = ss_model_value_type(C->m, "duration", "nanoseconds");
    int64_t *vals = ss_calloc_array(C->m->value_types.n + 1, sizeof *vals);
    ss_id *frames = ss_alloc_array(CP_MAX_FRAMES, sizeof *frames);
    int rc = 0;
    if (src.type == SS_NONE || src.uri == SS_NONE || vt == SS_NONE || !vals || !frames ||
        ss_model_add_source(C->m, &src) == SS_NONE)
        rc = ss_nomem(C->err, "model");
    if (!rc) { /* measures: time (the samples' durations) and samples */
        ss_model_source_value(C->m, (ss_id)(C->m->sources.n - 1), SS_VT_COUNT, 0);
        ss_model_source_time(C->m, (ss_id)(C->m->sources.n - 1), vt);
    }
    for (size_t k = 0; !rc && k < ns; k++) {
        ss_id s = SS_NONE;
        rc = node_stack(C, S[k].node, &s, frames);
        if (rc)
            break;
        double next = k + 1 < ns ? S[k + 1].t : t_end;
        double dur = next > S[k].t ? (next - S[k].t) * 1000.0 : 0;
        vals[SS_VT_COUNT] = 1;
        vals[vt] = dur < 9e18 ? (int64_t)llround(dur) : INT64_MAX;
        if (ss_model_add_sample(C->m, s, vals))
            rc = ss_nomem(C->err, "samples");
    }
    if (!rc && unordered)
        ss_model_warn(C->m, "%s: samples were not in time order (negative timeDeltas); sorted",
                      C->path);
    free(frames);
    free(vals);
    free(S);
    return rc;
}

static int load_doc(struct ss_model *m, const struct ss_json *j, const char *path,
                    struct ss_error *err)
{
    struct cp C;
    memset(&C, 0, sizeof C);
    C.m = m;
    C.j = j;
    C.path = path;
    C.err = err;
    int rc = build(&C);
    free(C.json);
    free(C.ids);
    free(C.parent);
    free(C.loc);
    free(C.stack);
    return rc;
}

/* load_doc for ss_json_with: ctx is the model */
static int doc(void *ctx, const struct ss_json *j, const char *path, struct ss_error *err)
{
    return load_doc(ctx, j, path, err);
}

int ss_load_cpuprofile_mem(struct ss_model *m, const char *p, size_t n, const char *path,
                           struct ss_error *err)
{
    return ss_json_with(NULL, p, n, path, doc, m, err);
}

int ss_load_cpuprofile(struct ss_model *m, struct ss_reader *r, const char *path,
                       struct ss_error *err)
{
    return ss_json_with(r, NULL, 0, path, doc, m, err);
}
