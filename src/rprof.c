/* rprof.c - Rprof format facts (see rprof.h). */
#include "rprof.h"

#include <stdint.h>
#include <string.h>

int ss_rprof_value_types(const struct ss_model *m, struct ss_rprof_vt *vt)
{
    static const char *const names[4] = {"small_v", "big_v", "nodes", "dup_count"};
    ss_id ids[4];
    for (int k = 0; k < 4; k++) {
        ids[k] = SS_NONE;
        ss_id want = ss_strtab_find(&m->strs, names[k], strlen(names[k]));
        for (size_t t = 0; want != SS_NONE && t < m->value_types.n; t++)
            if (m->value_types.v[t].type == want)
                ids[k] = (ss_id)t;
        if (ids[k] == SS_NONE)
            return -1;
    }
    vt->small_v = ids[0];
    vt->big_v = ids[1];
    vt->nodes = ids[2];
    vt->dup_count = ids[3];
    return 0;
}

/* b - a as a double: exact when the difference fits an int64 (R's counters
 * always do), and never a signed overflow when a file holds huge values. */
static double delta(int64_t b, int64_t a)
{
    int64_t d;
    if (!__builtin_sub_overflow(b, a, &d))
        return (double)d;
    return (double)b - (double)a;
}

double ss_rprof_alloc_bytes(const struct ss_model *m, const struct ss_rprof_vt *vt, size_t i)
{
    /* A column that never changed from 0 is not materialised (NULL). */
    const int64_t *sm = m->values.v[vt->small_v], *bg = m->values.v[vt->big_v],
                  *nd = m->values.v[vt->nodes];
    double ds = sm ? delta(sm[i], sm[i - 1]) : 0, db = bg ? delta(bg[i], bg[i - 1]) : 0,
           dn = nd ? delta(nd[i], nd[i - 1]) : 0;
    return (ds > 0 ? 8 * ds : 0) + (db > 0 ? 8 * db : 0) + (dn > 0 ? dn : 0);
}
