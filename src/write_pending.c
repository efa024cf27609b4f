/* write_pending.c - writers not written yet (removed as each lands). */
#include "write.h"

int ss_write_rprof(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    (void)m, (void)f;
    return ss_fail(err, SS_EUSAGE, "%s: the rprof writer is not available yet", path);
}

int ss_write_pprof(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    (void)m, (void)f;
    return ss_fail(err, SS_EUSAGE, "%s: the pprof writer is not available yet", path);
}

int ss_write_folded(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    (void)m, (void)f;
    return ss_fail(err, SS_EUSAGE, "%s: the folded writer is not available yet", path);
}

int ss_write_tables(const struct ss_model *m, const char *dir, struct ss_error *err)
{
    (void)m;
    return ss_fail(err, SS_EUSAGE, "%s: the tables writer is not available yet", dir);
}
