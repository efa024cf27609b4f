/* load.c - format detection and dispatch (see load.h). */
#include "load.h"

#include <string.h>
#include <sys/stat.h>

#include "load_folded.h"
#include "load_rprof.h"
#include "load_sampling.h"
#include "load_tables.h"
#include "reader.h"

int ss_load_file(struct ss_model *m, const char *path, struct ss_error *err)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return ss_load_tables(m, path, err); /* DESIGN 10: a directory is v2 tables */
    struct ss_reader r;
    int rc = ss_reader_open(&r, path, err);
    if (rc)
        return rc;
    const char *p;
    long n = ss_reader_peek(&r, &p, 1 << 16, err);
    if (n < 0) {
        rc = err->code;
    } else if (n == 0) {
        rc = ss_fail(err, SS_EINPUT, "%s: empty file", path);
    } else if (n >= 2 && (unsigned char)p[0] == 0x1f && (unsigned char)p[1] == 0x8b) {
        rc = ss_fail(err, SS_EINPUT,
                     "%s: gzip-compressed data (a pprof profile?): this version reads Rprof "
                     "text only",
                     path);
    } else if (ss_sampling_prof_sniff(p, (size_t)n)) {
        rc = ss_load_sampling_prof(m, &r, path, err);
    } else if (ss_folded_sniff(p, (size_t)n)) {
        rc = ss_load_folded(m, &r, path, err);
    } else {
        rc = ss_load_rprof(m, &r, path, err);
    }
    ss_reader_close(&r);
    return rc;
}

int ss_load_files(struct ss_model *m, char *const *paths, int n, struct ss_error *err)
{
    int rc = ss_model_init(m, err);
    if (rc)
        return rc;
    for (int i = 0; i < n; i++) {
        rc = ss_load_file(m, paths[i], err);
        if (rc) {
            ss_model_free(m);
            return rc;
        }
    }
    ss_model_seal(m);
    return 0;
}
