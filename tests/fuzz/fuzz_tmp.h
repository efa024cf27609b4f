/* fuzz_tmp.h - a private scratch directory for a fuzz target (header-only,
 * included by each tests/fuzz/fuzz_*.c).
 *
 * The loaders read files, so the targets write their inputs to files: in
 * $TMPDIR (else /tmp)/ss-fuzz-NAME-PID, made on first use and removed with
 * what it holds (two levels: files, and the tables directories inside) when
 * the process exits normally. */
#ifndef FUZZ_TMP_H
#define FUZZ_TMP_H

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_tmp_path[512];

/* Remove what dir holds, down to `depth` levels of directories. */
static void fuzz_tmp_clear(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char p[1024];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        if (unlink(p) && depth > 0) {
            fuzz_tmp_clear(p, depth - 1);
            rmdir(p);
        }
    }
    closedir(d);
}

static void fuzz_tmp_remove(void)
{
    fuzz_tmp_clear(fuzz_tmp_path, 2);
    rmdir(fuzz_tmp_path);
}

/* The scratch directory of target `name` (static storage). */
static const char *fuzz_tmp(const char *name)
{
    if (!fuzz_tmp_path[0]) {
        const char *t = getenv("TMPDIR");
        snprintf(fuzz_tmp_path, sizeof fuzz_tmp_path, "%s/ss-fuzz-%s-%ld", t && *t ? t : "/tmp",
                 name, (long)getpid());
        if (mkdir(fuzz_tmp_path, 0700) && errno != EEXIST) {
            perror(fuzz_tmp_path);
            abort();
        }
        atexit(fuzz_tmp_remove);
    }
    return fuzz_tmp_path;
}

#endif
