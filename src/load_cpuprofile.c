/* load_cpuprofile.c - Chrome/Node CPU profile reader (see load_cpuprofile.h). */
#include "load_cpuprofile.h"

#include <math.h>
#include <stdio.h>
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
    const struct ss_cpuprofile_parts *pt;
    const char *path;
    struct ss_error *err;
    size_t n;             /* nodes */
    const uint32_t *json; /* node -> its JSON object (pt->nodes) */
    struct idx *ids;      /* sorted by id */
    uint32_t *parent;     /* node -> parent node, UINT32_MAX for none */
    ss_id *loc;           /* node -> location, SS_NONE for the skipped root */
    ss_id *stack;         /* node -> stack, SS_NONE until computed */
    uint64_t frames;      /* frames of all stacks built */
    uint8_t *anon_col;    /* node -> its anonymous function's name has the column */
    /* positionTicks: node -> its next tick entry and the ticks used of it */
    uint32_t *tick, *tick_used;
    ss_id *line_loc; /* node -> the location of its last tick line, and that line */
    uint32_t *line_of;
    ss_id *line_stack; /* ... and its stack */
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

/* callFrame member `key` of node i, or SS_JSON_NONE. */
static uint32_t cf_member(const struct cp *C, uint32_t i, const char *key)
{
    return ss_json_member(C->j, ss_json_member(C->j, C->json[i], "callFrame"), key);
}

/* An anonymous function's name: "(anonymous work.js:6)" after its url's
 * last part and its line, as speedscope names it (DevTools shows the
 * same place beside "(anonymous)"), so that each stays a function of its
 * own; with the column when another anonymous function starts on that
 * line; "(anonymous)" without a url. */
static size_t anon_name(const struct cp *C, uint32_t i, char *buf, size_t cap)
{
    size_t ulen = 0;
    uint32_t url = cf_member(C, i, "url");
    const char *u = url == SS_JSON_NONE ? "" : ss_json_string(C->j, url, &ulen);
    if (!ulen)
        return (size_t)snprintf(buf, cap, "(anonymous)");
    size_t b = ulen;
    while (b > 0 && u[b - 1] != '/')
        b--;
    int blen = ulen - b < 1024 ? (int)(ulen - b) : 1024;
    int64_t line = -1, col = -1;
    ss_json_int(C->j, cf_member(C, i, "lineNumber"), -1, (int64_t)SS_MAX_LINE_NO - 1, &line);
    ss_json_int(C->j, cf_member(C, i, "columnNumber"), -1, INT32_MAX, &col);
    if (line < 0)
        return (size_t)snprintf(buf, cap, "(anonymous %.*s)", blen, u + b);
    int n = C->anon_col && C->anon_col[i] && col >= 0
                ? snprintf(buf, cap, "(anonymous %.*s:%lld:%lld)", blen, u + b, (long long)line + 1,
                           (long long)col + 1)
                : snprintf(buf, cap, "(anonymous %.*s:%lld)", blen, u + b, (long long)line + 1);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
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
    char anon[1200];
    if (flen == 0)
        flen = anon_name(C, i, anon, sizeof anon), name = anon;
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

/* Anonymous nodes by (url, line, column), for anon_mark. */
struct anon {
    const char *url;
    size_t ulen;
    int64_t line, col;
    uint32_t node;
};

static int by_place(const void *a, const void *b)
{
    const struct anon *x = a, *y = b;
    size_t n = x->ulen < y->ulen ? x->ulen : y->ulen;
    int c = memcmp(x->url, y->url, n);
    if (c || x->ulen != y->ulen)
        return c ? c : x->ulen < y->ulen ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->col < y->col ? -1 : x->col > y->col;
}

/* Mark the anonymous nodes whose (url, line) holds anonymous functions at
 * several columns: their names get the column too. */
static int anon_mark(struct cp *C)
{
    struct anon *a = ss_alloc_array(C->n ? C->n : 1, sizeof *a);
    C->anon_col = ss_calloc_array(C->n ? C->n : 1, 1);
    if (!a || !C->anon_col) {
        free(a);
        return ss_nomem(C->err, "CPU profile nodes");
    }
    size_t k = 0;
    for (uint32_t i = 0; i < C->n; i++) {
        size_t flen = 1;
        uint32_t fn = cf_member(C, i, "functionName"), url = cf_member(C, i, "url");
        if (fn != SS_JSON_NONE && ss_json_at(C->j, fn)->type == SS_JSON_STRING)
            ss_json_string(C->j, fn, &flen);
        if (flen || url == SS_JSON_NONE || ss_json_at(C->j, url)->type != SS_JSON_STRING)
            continue;
        struct anon e = {NULL, 0, -1, -1, i};
        e.url = ss_json_string(C->j, url, &e.ulen);
        ss_json_int(C->j, cf_member(C, i, "lineNumber"), -1, (int64_t)SS_MAX_LINE_NO, &e.line);
        ss_json_int(C->j, cf_member(C, i, "columnNumber"), -1, INT32_MAX, &e.col);
        a[k++] = e;
    }
    qsort(a, k, sizeof *a, by_place);
    for (size_t x = 0; x < k;) {
        size_t y = x + 1;
        int several = 0;
        while (y < k && a[y].line == a[x].line && a[y].ulen == a[x].ulen &&
               !memcmp(a[y].url, a[x].url, a[x].ulen)) {
            several |= a[y].col != a[x].col;
            y++;
        }
        for (size_t z = x; z < y; z++)
            C->anon_col[a[z].node] = (uint8_t)several;
        x = y;
    }
    free(a);
    return 0;
}

/* The stack of node i: its location and its ancestors', leaf first; with
 * `leaf` not SS_NONE, that location instead of node i's own. */
static int node_stack(struct cp *C, uint32_t i, ss_id leaf, ss_id *out, ss_id *frames)
{
    if (leaf == SS_NONE && C->stack[i] != SS_NONE) {
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
        frames[k++] = x == i && leaf != SS_NONE ? leaf : C->loc[x];
    }
    C->frames += k;
    if (C->frames > CP_MAX_STACK_FRAMES)
        return fail_at(C, C->json[i], "the distinct stacks hold more than 2^28 frames", "");
    ss_id s = ss_model_stack(C->m, frames, k, SS_NONE);
    if (s == SS_NONE)
        return ss_nomem(C->err, "stacks");
    if (leaf == SS_NONE)
        C->stack[i] = s;
    *out = s;
    return 0;
}

/* The line (1-based) a sample of node i was at, from the node's
 * positionTicks (each entry's ticks taken in turn, in time order: the
 * counts per line are the profile's), or the trace's line of the sample
 * (`given`, > 0); 0 when neither says. */
static uint32_t sample_line(struct cp *C, uint32_t i, int64_t given)
{
    if (given > 0 && given < (int64_t)SS_MAX_LINE_NO)
        return (uint32_t)given;
    uint32_t pt = ss_json_member(C->j, C->json[i], "positionTicks");
    if (pt == SS_JSON_NONE || ss_json_at(C->j, pt)->type != SS_JSON_ARRAY)
        return 0;
    uint32_t e = ss_json_at(C->j, pt)->u.kids.first;
    for (uint32_t k = 0; e != SS_JSON_NONE && k < C->tick[i]; k++)
        e = ss_json_at(C->j, e)->next;
    while (e != SS_JSON_NONE) {
        int64_t line, ticks;
        if (ss_json_int(C->j, ss_json_member(C->j, e, "line"), 1, (int64_t)SS_MAX_LINE_NO - 1,
                        &line) &&
            ss_json_int(C->j, ss_json_member(C->j, e, "ticks"), 0, INT64_MAX, &ticks) &&
            (int64_t)C->tick_used[i] < ticks) {
            C->tick_used[i]++;
            return (uint32_t)line;
        }
        e = ss_json_at(C->j, e)->next;
        C->tick[i]++;
        C->tick_used[i] = 0;
    }
    return 0;
}

/* The stack of a sample of node i at line `line` (0: the node's own). */
static int line_stack(struct cp *C, uint32_t i, uint32_t line, ss_id *out, ss_id *frames)
{
    const struct ss_location *own = &C->m->locations.v[C->loc[i] == SS_NONE ? 0 : C->loc[i]];
    if (!line || C->loc[i] == SS_NONE || line == own->line)
        return node_stack(C, i, SS_NONE, out, frames);
    if (C->line_loc[i] != SS_NONE && C->line_of[i] == line) {
        *out = C->line_stack[i];
        return 0;
    }
    ss_id loc = ss_model_location(C->m, own->function, own->file, line);
    if (loc == SS_NONE)
        return ss_nomem(C->err, "model");
    int rc = node_stack(C, i, loc, out, frames);
    C->line_loc[i] = loc;
    C->line_of[i] = line;
    C->line_stack[i] = *out;
    return rc;
}

struct smp {
    double t;      /* timestamp, microseconds */
    uint32_t node; /* node index */
    uint32_t seq;  /* position in the file (stable sort) */
    int64_t line;  /* the trace's line of the sample, 0 when none */
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

/* The nodes: ids, parents (from children or parent), locations. */
static int build_nodes(struct cp *C)
{
    const struct ss_json *j = C->j;
    size_t n = C->n ? C->n : 1;
    C->ids = ss_alloc_array(n, sizeof *C->ids);
    C->parent = ss_alloc_array(n, sizeof *C->parent);
    C->loc = ss_alloc_array(n, sizeof *C->loc);
    C->stack = ss_alloc_array(n, sizeof *C->stack);
    C->tick = ss_calloc_array(n, sizeof *C->tick);
    C->tick_used = ss_calloc_array(n, sizeof *C->tick_used);
    C->line_loc = ss_alloc_array(n, sizeof *C->line_loc);
    C->line_of = ss_alloc_array(n, sizeof *C->line_of);
    C->line_stack = ss_alloc_array(n, sizeof *C->line_stack);
    if (!C->ids || !C->parent || !C->loc || !C->stack || !C->tick || !C->tick_used ||
        !C->line_loc || !C->line_of || !C->line_stack)
        return ss_nomem(C->err, "CPU profile nodes");
    for (uint32_t i = 0; i < C->n; i++) {
        uint32_t c = C->json[i];
        if (ss_json_at(j, c)->type != SS_JSON_OBJECT)
            return fail_at(C, c, "a node must be an object, not ",
                           ss_json_type_name(ss_json_at(j, c)->type));
        int64_t id;
        if (!ss_json_int(j, ss_json_member(j, c, "id"), -(1ll << 53), 1ll << 53, &id))
            return fail_at(C, c, "a node needs an \"id\" that is a whole number", "");
        C->ids[i].id = id;
        C->ids[i].node = i;
        C->parent[i] = UINT32_MAX;
        C->stack[i] = C->line_loc[i] = SS_NONE;
    }
    qsort(C->ids, C->n, sizeof *C->ids, by_id);
    for (size_t k = 1; k < C->n; k++)
        if (C->ids[k].id == C->ids[k - 1].id)
            return fail_at(C, C->json[C->ids[k].node], "a node id used twice", "");

    /* parents, from children (or parent) */
    for (uint32_t i = 0; i < C->n; i++) {
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
    int rc = anon_mark(C);
    for (uint32_t i = 0; !rc && i < C->n; i++) {
        rc = node_location(C, i);
        if (rc || C->parent[i] != UINT32_MAX)
            continue;
        size_t len;
        const char *s = ss_json_string(j, cf_member(C, i, "functionName"), &len);
        if (len == 6 && !memcmp(s, "(root)", 6))
            C->loc[i] = SS_NONE;
    }
    return rc;
}

/* The samples in time order, into S (ns of them). */
static int sample_times(struct cp *C, struct smp *S, size_t ns, int *unordered)
{
    const struct ss_json *j = C->j;
    const struct ss_cpuprofile_parts *pt = C->pt;
    double t = pt->start;
    *unordered = 0;
    for (size_t k = 0; k < ns; k++) {
        uint32_t c = pt->samples[k], d = pt->deltas[k];
        int64_t sid;
        if (!ss_json_int(j, c, -(1ll << 53), 1ll << 53, &sid) ||
            (S[k].node = find_node(C, sid)) == UINT32_MAX)
            return fail_at(C, c, "a sample that is not the id of a node", "");
        if (ss_json_at(j, d)->type != SS_JSON_NUMBER)
            return fail_at(C, d, "a time delta must be a number", "");
        double dt = ss_json_at(j, d)->u.num;
        if (dt < 0)
            *unordered = 1;
        t += dt;
        S[k].t = t;
        S[k].seq = (uint32_t)k;
        S[k].line = 0;
        if (pt->lines && pt->lines[k] != SS_JSON_NONE &&
            !ss_json_int(j, pt->lines[k], -(1ll << 53), 1ll << 53, &S[k].line))
            return fail_at(C, pt->lines[k], "a sample's line must be a whole number", "");
    }
    if (*unordered)
        qsort(S, ns, sizeof *S, by_time);
    return 0;
}

/* Add the source and its samples. */
static int add_samples(struct cp *C, const struct smp *S, size_t ns)
{
    const struct ss_cpuprofile_parts *pt = C->pt;
    double t_end = pt->has_end ? pt->end : (ns ? S[ns - 1].t : 0);
    /* the source: interval = the mean duration */
    double total_us = ns && t_end > S[0].t ? t_end - S[0].t : 0;
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = ss_model_intern_cstr(C->m, pt->type);
    src.uri = ss_model_intern_cstr(C->m, C->path);
    src.session = pt->session;
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
        rc = line_stack(C, S[k].node, sample_line(C, S[k].node, S[k].line), &s, frames);
        if (rc)
            break;
        double next = k + 1 < ns ? S[k + 1].t : t_end;
        double dur = next > S[k].t ? (next - S[k].t) * 1000.0 : 0;
        vals[SS_VT_COUNT] = 1;
        vals[vt] = dur < 9e18 ? (int64_t)llround(dur) : INT64_MAX;
        if (ss_model_add_sample(C->m, s, vals))
            rc = ss_nomem(C->err, "samples");
    }
    free(frames);
    free(vals);
    return rc;
}

static void cp_free(struct cp *C)
{
    free(C->ids);
    free(C->parent);
    free(C->loc);
    free(C->stack);
    free(C->anon_col);
    free(C->tick);
    free(C->tick_used);
    free(C->line_loc);
    free(C->line_of);
    free(C->line_stack);
}

int ss_cpuprofile_build(struct ss_model *m, const struct ss_json *j,
                        const struct ss_cpuprofile_parts *pt, const char *path,
                        struct ss_error *err)
{
    struct cp C;
    memset(&C, 0, sizeof C);
    C.m = m;
    C.j = j;
    C.pt = pt;
    C.path = path;
    C.err = err;
    C.n = pt->n_nodes;
    C.json = pt->nodes;
    int rc = build_nodes(&C), unordered = 0;
    struct smp *S = rc ? NULL : ss_alloc_array(pt->n_samples ? pt->n_samples : 1, sizeof *S);
    if (!rc && !S)
        rc = ss_nomem(err, "samples");
    if (!rc)
        rc = sample_times(&C, S, pt->n_samples, &unordered);
    if (!rc)
        rc = add_samples(&C, S, pt->n_samples);
    if (!rc && unordered)
        ss_model_warn(m, "%s: samples were not in time order (negative timeDeltas); sorted", path);
    free(S);
    cp_free(&C);
    return rc;
}

/* The children of array node `arr` as a new array of JSON ids (*n of them). */
static uint32_t *kids_of(const struct ss_json *j, uint32_t arr, size_t *n)
{
    *n = ss_json_at(j, arr)->u.kids.n;
    uint32_t *v = ss_alloc_array(*n ? *n : 1, sizeof *v);
    size_t k = 0;
    for (uint32_t c = ss_json_at(j, arr)->u.kids.first; v && c != SS_JSON_NONE;
         c = ss_json_at(j, c)->next)
        v[k++] = c;
    return v;
}

static int build(struct ss_model *m, const struct ss_json *j, const char *path,
                 struct ss_error *err)
{
    if (ss_json_at(j, 0)->type != SS_JSON_OBJECT)
        return ss_fail(err, SS_EINPUT, "%s: byte 0: a CPU profile is a JSON object", path);
    uint32_t nodes = ss_json_member(j, 0, "nodes");
    uint32_t samples = ss_json_member(j, 0, "samples");
    uint32_t deltas = ss_json_member(j, 0, "timeDeltas");
    uint32_t start = ss_json_member(j, 0, "startTime"), end = ss_json_member(j, 0, "endTime");
    const char *names[] = {"nodes", "samples", "timeDeltas"};
    uint32_t arrays[] = {nodes, samples, deltas};
    for (int k = 0; k < 3; k++)
        if (arrays[k] == SS_JSON_NONE || ss_json_at(j, arrays[k])->type != SS_JSON_ARRAY)
            return ss_fail(err, SS_EINPUT, "%s: byte %u: the profile's \"%s\" must be an array",
                           path, arrays[k] == SS_JSON_NONE ? 0u : ss_json_at(j, arrays[k])->off,
                           names[k]);
    if (start == SS_JSON_NONE || ss_json_at(j, start)->type != SS_JSON_NUMBER)
        return ss_fail(err, SS_EINPUT, "%s: byte %u: the profile's \"startTime\" must be a number",
                       path, start == SS_JSON_NONE ? 0u : ss_json_at(j, start)->off);
    if (end != SS_JSON_NONE && ss_json_at(j, end)->type != SS_JSON_NUMBER)
        return ss_fail(err, SS_EINPUT, "%s: byte %u: the profile's \"endTime\" must be a number",
                       path, ss_json_at(j, end)->off);
    size_t ns = ss_json_at(j, samples)->u.kids.n;
    if (ss_json_at(j, deltas)->u.kids.n != ns)
        return ss_fail(err, SS_EINPUT,
                       "%s: byte %u: %u timeDeltas for %zu samples (one per sample expected)", path,
                       ss_json_at(j, deltas)->off, ss_json_at(j, deltas)->u.kids.n, ns);
    struct ss_cpuprofile_parts pt;
    memset(&pt, 0, sizeof pt);
    uint32_t *nv = kids_of(j, nodes, &pt.n_nodes);
    uint32_t *sv = kids_of(j, samples, &pt.n_samples);
    uint32_t *dv = kids_of(j, deltas, &ns);
    int rc = !nv || !sv || !dv ? ss_nomem(err, "CPU profile") : 0;
    pt.nodes = nv, pt.samples = sv, pt.deltas = dv;
    pt.start = ss_json_at(j, start)->u.num;
    pt.has_end = end != SS_JSON_NONE;
    pt.end = pt.has_end ? ss_json_at(j, end)->u.num : 0;
    pt.type = "cpuprofile";
    pt.session = 1;
    if (!rc)
        rc = ss_cpuprofile_build(m, j, &pt, path, err);
    free(nv);
    free(sv);
    free(dv);
    return rc;
}

/* load_doc for ss_json_with: ctx is the model */
static int doc(void *ctx, const struct ss_json *j, const char *path, struct ss_error *err)
{
    return build(ctx, j, path, err);
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
