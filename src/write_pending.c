/* write_pending.c - writers not written yet (removed as each lands). */
#include "write.h"

int ss_write_pprof(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    (void)m, (void)f;
    return ss_fail(err, SS_EUSAGE, "%s: the pprof writer is not available yet", path);
}
