/* load_trace.c - Chrome trace files (see load_trace.h). */
#include "load_trace.h"

#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "load_cpuprofile.h"
#include "vec.h"

/* ---- detection ------------------------------------------------------------ */

static int trace_member(void *ctx, const char *key, size_t klen, const unsigned char *p, size_t n,
                        size_t vpos, int whole)
{
    (void)ctx, (void)n, (void)whole;
    if (klen == 11 && !memcmp(key, "traceEvents", 11))
        return p[vpos] == '[';
    return 2;
}

static int event_member(void *ctx, const char *key, size_t klen, const unsigned char *p, size_t n,
                        size_t vpos, int whole)
{
    (void)ctx, (void)p, (void)n, (void)vpos, (void)whole;
    return klen == 2 && !memcmp(key, "ph", 2) ? 1 : 2;
}

int ss_trace_sniff(const unsigned char *p, size_t n, int whole, const char **why)
{
    size_t pos = n >= 3 && !memcmp(p, "\xef\xbb\xbf", 3) ? 3 : 0;
    if (!ss_json_ws(p, n, &pos))
        return whole ? (*why = "empty", 0) : -1;
    int r;
    if (p[pos] == '[') {
        pos++;
        if (!ss_json_ws(p, n, &pos))
            return whole ? (*why = "an empty array", 0) : -1;
        r = ss_json_sniff_object(p, n, pos, whole, event_member, NULL);
    } else {
        r = ss_json_sniff_object(p, n, pos, whole, trace_member, NULL);
    }
    if (r == 0)
        *why = "not a JSON object with a \"traceEvents\" array, nor an array of trace events";
    return r;
}

/* ---- Perfetto: recognised, refused ------------------------------------------ */

static int varint(const unsigned char *p, size_t n, size_t *pos, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64 && *pos < n; shift += 7) {
        unsigned char b = p[(*pos)++];
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return 0;
    }
    return -1;
}

int ss_perfetto_sniff(const unsigned char *p, size_t n, int whole, const char **why)
{
    size_t pos = 0, count = 0;
    *why = "not a stream of Perfetto trace packets (protobuf field 1 only)";
    while (pos < n) {
        uint64_t len;
        if (p[pos] != 0x0a) /* field 1, length-delimited */
            return 0;
        pos++;
        /* cut inside a packet: a sniff window holds many (Chrome's are
         * small), a raw pprof's first fields are few sample types */
        if (varint(p, n, &pos, &len) || len > n - pos)
            return count >= 16;
        pos += (size_t)len;
        count++;
    }
    return count && (whole || count >= 16);
}

int ss_load_perfetto(struct ss_model *m, struct ss_reader *r, const char *path,
                     struct ss_error *err)
{
    (void)m, (void)r;
    return ss_fail(err, SS_EINPUT,
                   "%s: a Perfetto trace (protobuf: Chrome's default trace format), which "
                   "stackscope does not read: record a JSON trace (Chrome: "
                   "--trace-startup-format=json, with the category "
                   "disabled-by-default-v8.cpu_profiler) or save the profile from DevTools' "
                   "Performance panel, which stackscope reads",
                   path);
}

/* ---- reading the CPU profiles -------------------------------------------- */

typedef VEC(uint32_t) idvec; /* JSON node ids */

/* One profile of the trace: its key (pid, id), its parts gathered. */
struct prof {
    int64_t pid, tid;
    const char *id; /* the event's "id" (borrowed from the document), "" when none */
    uint32_t at;    /* its Profile event, for messages */
    double start, end;
    int has_start, has_end;
    idvec nodes, samples, deltas, lines;
};

struct tr {
    const struct ss_json *j;
    const char *path;
    struct ss_error *err;
    VEC(struct prof) profs;
    size_t orphans; /* chunks of no declared profile */
};

static int64_t num_or(const struct ss_json *j, uint32_t id, int64_t dflt)
{
    int64_t v;
    return ss_json_int(j, id, -(1ll << 53), 1ll << 53, &v) ? v : dflt;
}

static const char *str_or(const struct ss_json *j, uint32_t id, const char *dflt)
{
    size_t len;
    if (id == SS_JSON_NONE || ss_json_at(j, id)->type != SS_JSON_STRING)
        return dflt;
    return ss_json_string(j, id, &len);
}

/* The profile with the event's pid and id, or NULL. */
static struct prof *find_prof(struct tr *T, uint32_t ev)
{
    int64_t pid = num_or(T->j, ss_json_member(T->j, ev, "pid"), -1);
    const char *id = str_or(T->j, ss_json_member(T->j, ev, "id"), "");
    int64_t tid = num_or(T->j, ss_json_member(T->j, ev, "tid"), -1);
    for (size_t k = 0; k < T->profs.n; k++) {
        struct prof *p = &T->profs.v[k];
        /* without an id, a profile is its thread's (speedscope's rule) */
        if (p->pid == pid && !strcmp(p->id, id) && (*id || p->tid == tid))
            return p;
    }
    return NULL;
}

static struct prof *new_prof(struct tr *T, uint32_t ev)
{
    struct prof p;
    memset(&p, 0, sizeof p);
    p.pid = num_or(T->j, ss_json_member(T->j, ev, "pid"), -1);
    p.tid = num_or(T->j, ss_json_member(T->j, ev, "tid"), -1);
    p.id = str_or(T->j, ss_json_member(T->j, ev, "id"), "");
    p.at = ev;
    if (VEC_PUSH(T->profs, p))
        return NULL;
    return &T->profs.v[T->profs.n - 1];
}

/* Append the elements of array `arr` (if it is one) to v. */
static int append(const struct ss_json *j, uint32_t arr, idvec *v, size_t *added)
{
    *added = 0;
    if (arr == SS_JSON_NONE || ss_json_at(j, arr)->type != SS_JSON_ARRAY)
        return 0;
    if (VEC_RESERVE(*v, v->n + ss_json_at(j, arr)->u.kids.n))
        return -1;
    for (uint32_t c = ss_json_at(j, arr)->u.kids.first; c != SS_JSON_NONE;
         c = ss_json_at(j, c)->next) {
        v->v[v->n++] = c;
        (*added)++;
    }
    return 0;
}

/* A profile's data object (a Profile's or ProfileChunk's args.data, or a
 * CpuProfile's args.data.cpuProfile): its nodes, samples, deltas, lines,
 * start and end. */
static int take(struct tr *T, struct prof *p, uint32_t data, uint32_t cpu)
{
    const struct ss_json *j = T->j;
    size_t nn, ns, nd, nl;
    uint32_t st = ss_json_member(j, cpu, "startTime"), en = ss_json_member(j, data, "endTime");
    if (st == SS_JSON_NONE)
        st = ss_json_member(j, data, "startTime");
    if (en == SS_JSON_NONE)
        en = ss_json_member(j, cpu, "endTime");
    if (st != SS_JSON_NONE && ss_json_at(j, st)->type == SS_JSON_NUMBER)
        p->start = ss_json_at(j, st)->u.num, p->has_start = 1;
    if (en != SS_JSON_NONE && ss_json_at(j, en)->type == SS_JSON_NUMBER)
        p->end = ss_json_at(j, en)->u.num, p->has_end = 1;
    uint32_t deltas = ss_json_member(j, data, "timeDeltas");
    if (deltas == SS_JSON_NONE)
        deltas = ss_json_member(j, cpu, "timeDeltas");
    if (append(j, ss_json_member(j, cpu, "nodes"), &p->nodes, &nn) ||
        append(j, ss_json_member(j, cpu, "samples"), &p->samples, &ns) ||
        append(j, deltas, &p->deltas, &nd) ||
        append(j, ss_json_member(j, data, "lines"), &p->lines, &nl))
        return ss_nomem(T->err, "trace");
    if (nl != ns) {
        /* a chunk without a line for each of its samples (Node's last
         * chunk may have none): its samples' lines come from the nodes */
        p->lines.n -= nl;
        if (VEC_RESERVE(p->lines, p->lines.n + ns))
            return ss_nomem(T->err, "trace");
        for (size_t k = 0; k < ns; k++)
            p->lines.v[p->lines.n++] = SS_JSON_NONE;
    }
    return 0;
}

/* One event: Profile, ProfileChunk or CpuProfile. */
static int event(struct tr *T, uint32_t ev)
{
    const struct ss_json *j = T->j;
    if (ss_json_at(j, ev)->type != SS_JSON_OBJECT)
        return 0;
    const char *name = str_or(j, ss_json_member(j, ev, "name"), "");
    uint32_t data = ss_json_member(j, ss_json_member(j, ev, "args"), "data");
    if (data == SS_JSON_NONE)
        return 0;
    struct prof *p = NULL;
    if (!strcmp(name, "Profile") || !strcmp(name, "CpuProfile")) {
        p = find_prof(T, ev);
        if (!p && !(p = new_prof(T, ev)))
            return ss_nomem(T->err, "trace");
        uint32_t cpu = !strcmp(name, "CpuProfile") ? ss_json_member(j, data, "cpuProfile") : data;
        return take(T, p, data, cpu);
    }
    if (strcmp(name, "ProfileChunk"))
        return 0;
    if (!(p = find_prof(T, ev))) {
        T->orphans++;
        return 0;
    }
    return take(T, p, data, ss_json_member(j, data, "cpuProfile"));
}

/* Events by their time stamp ("ts"), stably. */
struct ev_at {
    double ts;
    uint32_t ev, seq;
};

static int by_ts(const void *a, const void *b)
{
    const struct ev_at *x = a, *y = b;
    if (x->ts < y->ts)
        return -1;
    if (x->ts > y->ts)
        return 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The events array of the document, or SS_JSON_NONE. */
static uint32_t events_of(const struct ss_json *j)
{
    if (ss_json_at(j, 0)->type == SS_JSON_ARRAY)
        return 0;
    uint32_t e = ss_json_member(j, 0, "traceEvents");
    return e != SS_JSON_NONE && ss_json_at(j, e)->type == SS_JSON_ARRAY ? e : SS_JSON_NONE;
}

/* The name of thread (pid, tid) from the thread_name metadata, or NULL. */
static const char *thread_name(const struct ss_json *j, uint32_t evs, int64_t pid, int64_t tid)
{
    for (uint32_t e = ss_json_at(j, evs)->u.kids.first; e != SS_JSON_NONE;
         e = ss_json_at(j, e)->next) {
        if (strcmp(str_or(j, ss_json_member(j, e, "name"), ""), "thread_name") ||
            num_or(j, ss_json_member(j, e, "pid"), -2) != pid ||
            num_or(j, ss_json_member(j, e, "tid"), -2) != tid)
            continue;
        return str_or(j, ss_json_member(j, ss_json_member(j, e, "args"), "name"), NULL);
    }
    return NULL;
}

/* Profile k as a source. */
static int build_prof(struct tr *T, struct ss_model *m, size_t k, uint32_t evs, uint32_t session)
{
    const struct prof *p = &T->profs.v[k];
    if (p->samples.n != p->deltas.n)
        return ss_fail(T->err, SS_EINPUT,
                       "%s: byte %u: %zu timeDeltas for %zu samples in the CPU profile of this "
                       "event (one per sample expected)",
                       T->path, ss_json_at(T->j, p->at)->off, p->deltas.n, p->samples.n);
    struct ss_cpuprofile_parts pt;
    memset(&pt, 0, sizeof pt);
    pt.nodes = p->nodes.v, pt.n_nodes = p->nodes.n;
    pt.samples = p->samples.v, pt.deltas = p->deltas.v, pt.n_samples = p->samples.n;
    pt.lines = p->lines.n == p->samples.n ? p->lines.v : NULL;
    pt.start = p->start, pt.end = p->end, pt.has_end = p->has_end;
    pt.type = "chrome_trace";
    pt.session = session;
    int rc = ss_cpuprofile_build(m, T->j, &pt, T->path, T->err);
    const char *tn = rc ? NULL : thread_name(T->j, evs, p->pid, p->tid);
    if (tn && ss_model_add_meta(m, (ss_id)(m->sources.n - 1), ss_model_intern_cstr(m, "thread"),
                                ss_model_intern_cstr(m, tn)))
        rc = ss_nomem(T->err, "meta");
    return rc;
}

static int load_doc(struct ss_model *m, const struct ss_json *j, const char *path,
                    struct ss_error *err)
{
    struct tr T;
    memset(&T, 0, sizeof T);
    T.j = j, T.path = path, T.err = err;
    uint32_t evs = events_of(j);
    if (evs == SS_JSON_NONE)
        return ss_fail(err, SS_EINPUT, "%s: byte 0: a trace's \"traceEvents\" must be an array",
                       path);
    size_t n = ss_json_at(j, evs)->u.kids.n;
    struct ev_at *E = ss_alloc_array(n ? n : 1, sizeof *E);
    if (!E)
        return ss_nomem(err, "trace");
    size_t k = 0;
    for (uint32_t e = ss_json_at(j, evs)->u.kids.first; e != SS_JSON_NONE;
         e = ss_json_at(j, e)->next, k++) {
        uint32_t ts = ss_json_member(j, e, "ts");
        E[k].ts = ts != SS_JSON_NONE && ss_json_at(j, ts)->type == SS_JSON_NUMBER
                      ? ss_json_at(j, ts)->u.num
                      : 0;
        E[k].ev = e, E[k].seq = (uint32_t)k;
    }
    qsort(E, n, sizeof *E, by_ts);
    int rc = 0;
    for (k = 0; k < n && !rc; k++)
        rc = event(&T, E[k].ev);
    free(E);
    uint32_t session = 0;
    for (k = 0; k < T.profs.n && !rc; k++)
        if (T.profs.v[k].samples.n || T.profs.v[k].nodes.n)
            rc = build_prof(&T, m, k, evs, ++session);
    if (!rc && !session)
        rc = ss_fail(err, SS_EINPUT,
                     "%s: a Chrome trace without a CPU profile (no Profile and ProfileChunk "
                     "events): record it with the category disabled-by-default-v8.cpu_profiler "
                     "(DevTools' Performance panel does)",
                     path);
    if (!rc && T.orphans)
        ss_model_warn(m, "%s: %zu ProfileChunk event%s of no Profile event left out", path,
                      T.orphans, T.orphans == 1 ? "" : "s");
    for (k = 0; k < T.profs.n; k++) {
        VEC_FREE(T.profs.v[k].nodes);
        VEC_FREE(T.profs.v[k].samples);
        VEC_FREE(T.profs.v[k].deltas);
        VEC_FREE(T.profs.v[k].lines);
    }
    VEC_FREE(T.profs);
    return rc;
}

static int doc(void *ctx, const struct ss_json *j, const char *path, struct ss_error *err)
{
    return load_doc(ctx, j, path, err);
}

int ss_load_trace_mem(struct ss_model *m, const char *p, size_t n, const char *path,
                      struct ss_error *err)
{
    return ss_json_with(NULL, p, n, path, doc, m, err);
}

int ss_load_trace(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err)
{
    return ss_json_with(r, NULL, 0, path, doc, m, err);
}
