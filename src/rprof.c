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
