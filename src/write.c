/* write.c - format choice and atomic output (see write.h). */
#include "write.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
    const char *name;
    enum ss_out_format f;
} format_names[] = {
    {"rprof", SS_OUT_RPROF},   {"pprof", SS_OUT_PPROF},   {"folded", SS_OUT_FOLDED},
    {"sampling_prof", SS_OUT_SAMPLING_PROF}, {"tables", SS_OUT_TABLES},
};

enum ss_out_format ss_out_format_parse(const char *name)
{
    for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
        if (!strcmp(name, format_names[i].name))
            return format_names[i].f;
    return SS_OUT_NONE;
}

const char *ss_out_format_name(enum ss_out_format f)
{
    for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
        if (format_names[i].f == f)
            return format_names[i].name;
    return "none";
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && !strcmp(s + n - k, suffix);
}

enum ss_out_format ss_out_format_from_path(const char *path)
{
    static const struct {
        const char *suffix;
        enum ss_out_format f;
    } by_suffix[] = {
        {".pb.gz", SS_OUT_PPROF},          {".pb", SS_OUT_PPROF},
        {".pprof", SS_OUT_PPROF},          {".folded", SS_OUT_FOLDED},
        {".folded.txt", SS_OUT_FOLDED},    {".collapsed", SS_OUT_FOLDED},
        {".sprof.txt", SS_OUT_SAMPLING_PROF}, {".sampling_prof", SS_OUT_SAMPLING_PROF},
        {".out", SS_OUT_RPROF},            {".rprof", SS_OUT_RPROF},
        {".prof", SS_OUT_RPROF},           {"/", SS_OUT_TABLES},
    };
    for (size_t i = 0; i < sizeof by_suffix / sizeof *by_suffix; i++)
        if (ends_with(path, by_suffix[i].suffix))
            return by_suffix[i].f;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return SS_OUT_TABLES;
    return SS_OUT_NONE;
}

/* Is `path` (which exists, with status *st) one of the inputs? */
static int is_input(const struct stat *st, const struct ss_write_opts *o)
{
    for (int i = 0; i < o->n_inputs; i++) {
        struct stat in;
        if (stat(o->inputs[i], &in) == 0 && in.st_dev == st->st_dev && in.st_ino == st->st_ino)
            return 1;
    }
    return 0;
}

/* The directory part of path ("." when there is none), in buf. */
static void dir_of(const char *path, char *buf, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        snprintf(buf, cap, ".");
    } else if (slash == path) {
        snprintf(buf, cap, "/");
    } else {
        snprintf(buf, cap, "%.*s", (int)(slash - path), path);
    }
}

/* Write path through a temporary file next to it: fill(f, ctx) writes the
 * contents; the file is flushed, synced and renamed over path only when all
 * went well. */
static int write_atomic(const char *path, ss_fill_fn fill, void *ctx, struct ss_error *err)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 16);
    if (!tmp)
        return ss_nomem(err, "the output file name");
    snprintf(tmp, n + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int e = errno;
        char dir[4096];
        dir_of(path, dir, sizeof dir);
        free(tmp);
        return ss_fail(err, SS_EIO, "%s: cannot create a file in %s: %s", path, dir, strerror(e));
    }
    /* mkstemp makes the file 0600; give it the permissions a new file gets. */
    mode_t mask = umask(0);
    umask(mask);
    (void)fchmod(fd, 0666 & ~mask);
    FILE *fp = fdopen(fd, "wb");
    if (!fp) {
        close(fd);
        unlink(tmp);
        free(tmp);
        return ss_nomem(err, "the output stream");
    }
    int rc = fill(fp, ctx, path, err);
    if (!rc && (fflush(fp) != 0 || ferror(fp) || fsync(fileno(fp)) != 0))
        rc = ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(errno));
    if (fclose(fp) != 0 && !rc)
        rc = ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(errno));
    if (!rc && rename(tmp, path) != 0)
        rc = ss_fail(err, SS_EIO, "%s: cannot rename %s into place: %s", path, tmp,
                     strerror(errno));
    if (rc)
        unlink(tmp);
    free(tmp);
    return rc;
}

struct stream_job {
    const struct ss_model *m;
    enum ss_out_format f;
};

static int fill_stream(FILE *fp, void *ctx, const char *path, struct ss_error *err)
{
    const struct stream_job *j = ctx;
    switch (j->f) {
    case SS_OUT_RPROF: return ss_write_rprof(j->m, fp, path, err);
    case SS_OUT_PPROF: return ss_write_pprof(j->m, fp, path, err);
    case SS_OUT_FOLDED: return ss_write_folded(j->m, fp, path, err);
    case SS_OUT_SAMPLING_PROF: return ss_write_sampling_prof(j->m, fp, path, err);
    default: return ss_fail(err, SS_EUSAGE, "%s: not a stream format", path);
    }
}

/* The checks every output passes: never an input, an existing file only
 * with force.  *exists and *st describe path afterwards. */
static int check_target(const char *path, const struct ss_write_opts *o, struct stat *st,
                        int *exists, struct ss_error *err)
{
    *exists = stat(path, st) == 0;
    if (*exists && is_input(st, o))
        return ss_fail(err, SS_EUSAGE, "%s: is an input file; refusing to overwrite it", path);
    if (*exists && !o->force)
        return ss_fail(err, SS_EUSAGE, "%s: exists; use --force to replace it", path);
    return 0;
}

int ss_write_with(const char *path, const struct ss_write_opts *o, ss_fill_fn fill, void *ctx,
                  struct ss_error *err)
{
    struct stat st;
    int exists;
    int rc = check_target(path, o, &st, &exists, err);
    if (rc)
        return rc;
    if (exists && S_ISDIR(st.st_mode))
        return ss_fail(err, SS_EUSAGE, "%s: is a directory", path);
    return write_atomic(path, fill, ctx, err);
}

/* Remove a tables directory written by us: its *.tsv files, then itself. */
static void remove_tables_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char p[4096];
        while ((e = readdir(d)) != NULL) {
            if (ends_with(e->d_name, ".tsv")) {
                snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
                unlink(p);
            }
        }
        closedir(d);
    }
    rmdir(dir);
}

/* 1 when dir holds nothing but *.tsv files (an earlier tables output). */
static int only_tables(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int ok = 1;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && !ends_with(e->d_name, ".tsv"))
            ok = 0;
    closedir(d);
    return ok;
}

static int write_dir(const struct ss_model *m, const char *path, int exists,
                     struct ss_error *err)
{
    char target[4096];
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    if (n >= sizeof target - 32)
        return ss_fail(err, SS_EUSAGE, "%s: path too long", path);
    memcpy(target, path, n);
    target[n] = '\0';
    if (exists && !only_tables(target))
        return ss_fail(err, SS_EUSAGE,
                       "%s: the directory holds files other than tables; not replacing it", path);
    char tmp[4096 + 16], old[4096 + 16];
    snprintf(tmp, sizeof tmp, "%s.tmp.XXXXXX", target);
    if (!mkdtemp(tmp))
        return ss_fail(err, SS_EIO, "%s: cannot create a directory next to it: %s", path,
                       strerror(errno));
    mode_t mask = umask(0);
    umask(mask);
    (void)chmod(tmp, 0777 & ~mask);
    int rc = ss_write_tables(m, tmp, err);
    if (!rc && exists) {
        snprintf(old, sizeof old, "%s.old.XXXXXX", target);
        if (!mkdtemp(old) || rmdir(old) != 0 || rename(target, old) != 0)
            rc = ss_fail(err, SS_EIO, "%s: cannot move the old directory aside: %s", path,
                         strerror(errno));
    }
    if (!rc && rename(tmp, target) != 0) {
        rc = ss_fail(err, SS_EIO, "%s: cannot rename %s into place: %s", path, tmp,
                     strerror(errno));
        if (exists)
            (void)rename(old, target);
    }
    if (rc)
        remove_tables_dir(tmp);
    else if (exists)
        remove_tables_dir(old);
    return rc;
}

/* Formats that can only hold raw stacks, not aggregates (SamplingProf);
 * the tables keep aggregates in aggregates.tsv and call_edges.tsv. */
static int needs_stacks(enum ss_out_format f)
{
    return f != SS_OUT_SAMPLING_PROF && f != SS_OUT_TABLES;
}

int ss_write_file(const struct ss_model *m, const char *path, const struct ss_write_opts *o,
                  struct ss_error *err)
{
    enum ss_out_format f = o->format ? o->format : ss_out_format_from_path(path);
    if (f == SS_OUT_NONE)
        return ss_fail(err, SS_EUSAGE,
                       "%s: cannot tell the output format from the name; use --to "
                       "rprof|pprof|folded|sampling_prof|tables",
                       path);
    for (size_t i = 0; i < m->sources.n && needs_stacks(f); i++)
        if (m->sources.v[i].flags & SS_SRC_AGGREGATE)
            return ss_fail(err, SS_EUSAGE,
                           "%s: %s holds aggregates (counts per call element), not stacks; "
                           "the %s format needs stacks (sampling_prof can take it)",
                           path, ss_str(m, m->sources.v[i].uri), ss_out_format_name(f));
    struct stat st;
    int exists;
    int rc = check_target(path, o, &st, &exists, err);
    if (rc)
        return rc;
    if (f == SS_OUT_TABLES) {
        if (exists && !S_ISDIR(st.st_mode))
            return ss_fail(err, SS_EUSAGE, "%s: exists and is not a directory", path);
        return write_dir(m, path, exists, err);
    }
    if (exists && S_ISDIR(st.st_mode))
        return ss_fail(err, SS_EUSAGE, "%s: is a directory", path);
    struct stream_job job = {m, f};
    return write_atomic(path, fill_stream, &job, err);
}
