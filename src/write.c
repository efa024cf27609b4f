/* write.c - format choice and atomic output (see write.h). */
#include "write.h"

#include "compare.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "limits.h"
#include "outlimit.h"
#include "rprof.h"
#include "tables.h"
#include "vec.h"

/* ---- inputs ------------------------------------------------------------ */

/* The identities of every file the inputs name: each input itself and, for
 * an input directory (tables), every entry in it. */
struct file_ids {
    struct {
        dev_t dev;
        ino_t ino;
    } * v;
    size_t n, cap;
};

static int ids_add(struct file_ids *s, const struct stat *st)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 16;
        void *v = ss_realloc_array(s->v, cap, sizeof *s->v);
        if (!v)
            return -1;
        s->v = v;
        s->cap = cap;
    }
    s->v[s->n].dev = st->st_dev;
    s->v[s->n].ino = st->st_ino;
    s->n++;
    return 0;
}

static int ids_has(const struct file_ids *s, const struct stat *st)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].dev == st->st_dev && s->v[i].ino == st->st_ino)
            return 1;
    return 0;
}

static int ids_collect(const struct ss_write_opts *o, struct file_ids *s, struct ss_error *err)
{
    s->v = NULL;
    s->n = s->cap = 0;
    for (int i = 0; i < o->n_inputs; i++) {
        struct stat st;
        if (stat(o->inputs[i], &st) != 0)
            continue;
        if (ids_add(s, &st))
            return ss_nomem(err, "the list of input files");
        if (!S_ISDIR(st.st_mode))
            continue;
        DIR *d = opendir(o->inputs[i]);
        if (!d)
            continue;
        struct dirent *e;
        int fd = dirfd(d);
        while ((e = readdir(d)) != NULL) {
            struct stat est;
            if (fstatat(fd, e->d_name, &est, 0) == 0 && ids_add(s, &est)) {
                closedir(d);
                return ss_nomem(err, "the list of input files");
            }
        }
        closedir(d);
    }
    return 0;
}

int ss_write_is_input(const char *path, const struct ss_write_opts *o)
{
    struct stat st;
    struct file_ids ids;
    if (stat(path, &st) != 0 || ids_collect(o, &ids, NULL))
        return 0;
    int r = ids_has(&ids, &st);
    free(ids.v);
    return r;
}

/* ---- the target ---------------------------------------------------------- */

/* What the output path names, after following a symbolic link. */
struct target {
    char *real; /* the path written (a symlink's target), malloc'd */
    int exists; /* st is valid */
    struct stat st;
};

static const char *kind_of(mode_t m)
{
    return S_ISCHR(m)    ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISSOCK(m) ? "a socket"
           : S_ISDIR(m)  ? "a directory"
                         : "not a regular file";
}

/* Resolve `path` and apply the checks every output passes: never an input,
 * an existing output only with force, only a regular file (want_dir 0) or a
 * directory (want_dir 1). */
static int target_check(const char *path, const struct ss_write_opts *o, int want_dir,
                        struct target *t, struct ss_error *err)
{
    struct stat lst;
    t->exists = 0;
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    t->real = strndup(path, n); /* "DIR/" is DIR, not what a link DIR points to */
    if (!t->real)
        return ss_nomem(err, "the output file name");
    if (lstat(t->real, &lst) != 0) {
        if (errno != ENOENT)
            return ss_fail(err, SS_EIO, "%s: %s", path, strerror(errno));
        return 0;
    }
    if (S_ISLNK(lst.st_mode)) {
        char *real = realpath(t->real, NULL);
        if (!real)
            return ss_fail(err, SS_EUSAGE,
                           "%s: a symbolic link to a missing file; refusing to write through it",
                           path);
        free(t->real);
        t->real = real;
    }
    if (stat(t->real, &t->st) != 0)
        return ss_fail(err, SS_EIO, "%s: %s", path, strerror(errno));
    t->exists = 1;
    struct file_ids ids;
    int rc = ids_collect(o, &ids, err);
    if (rc)
        return rc;
    int input = ids_has(&ids, &t->st);
    free(ids.v);
    if (input)
        return ss_fail(err, SS_EUSAGE, "%s: is an input file; refusing to overwrite it", path);
    if (want_dir && !S_ISDIR(t->st.st_mode))
        return ss_fail(err, SS_EUSAGE, "%s: exists and is not a directory", path);
    if (!want_dir && !S_ISREG(t->st.st_mode))
        return ss_fail(err, SS_EUSAGE, "%s: is %s; only a regular file is replaced", path,
                       kind_of(t->st.st_mode));
    return 0;
}

/* ---- temporary files ----------------------------------------------------- */

/* The temporary output in progress, for ss_write_abandon (a signal handler
 * reads it, so it is a fixed buffer). */
static char abandon_path[PATH_MAX + 32];
static volatile sig_atomic_t abandon_kind; /* 0 none, 1 file, 2 tables directory */

/* Create the temporary file (kind 1, mkstemp) or directory (kind 2,
 * mkdtemp) from the template tmp and register it for ss_write_abandon, with
 * every signal blocked in between: a signal handler sees either no
 * temporary output or its whole name, never a file it does not know of.
 * Returns the file descriptor (kind 1), 0 (kind 2) or -1 with errno set. */
static int create_temp(char *tmp, int kind)
{
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int fd = kind == 1 ? mkstemp(tmp) : mkdtemp(tmp) ? 0 : -1;
    int e = errno;
    size_t n = strlen(tmp);
    if (fd >= 0 && n < sizeof abandon_path) {
        memcpy(abandon_path, tmp, n + 1);
        abandon_kind = kind;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return fd;
}

void ss_write_abandon(void)
{
    int kind = abandon_kind;
    abandon_kind = 0;
    if (kind == 1) {
        unlink(abandon_path);
    } else if (kind == 2) {
        int fd = open(abandon_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd >= 0) {
            for (size_t i = 0; ss_tables_file(i); i++)
                unlinkat(fd, ss_tables_file(i), 0);
            close(fd);
        }
        rmdir(abandon_path);
    }
}

/* TARGET.stackscope-tmp-XXXXXX for mkstemp/mkdtemp, malloc'd. */
static char *tmp_name(const char *real, struct ss_error *err)
{
    size_t n = strlen(real) + sizeof SS_WRITE_TMP_TAG + 8;
    char *tmp = malloc(n);
    if (!tmp) {
        ss_nomem(err, "the output file name");
        return NULL;
    }
    snprintf(tmp, n, "%s" SS_WRITE_TMP_TAG "XXXXXX", real);
    return tmp;
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

/* Give the new file (fd) or directory (path) the mode and owner of the one
 * it replaces, or the mode a new one gets.  Group bits go when the group
 * cannot be kept: the replacement never widens access. */
static void take_attributes(int fd, const char *path, const struct target *t, mode_t def)
{
    mode_t mask = umask(0);
    umask(mask);
    mode_t mode = def & ~mask;
    if (t->exists) {
        mode = t->st.st_mode & 0777;
        int own = fd >= 0 ? fchown(fd, t->st.st_uid, t->st.st_gid)
                          : chown(path, t->st.st_uid, t->st.st_gid);
        if (own != 0) {
            int grp = fd >= 0 ? fchown(fd, (uid_t)-1, t->st.st_gid)
                              : chown(path, (uid_t)-1, t->st.st_gid);
            if (grp != 0)
                mode &= ~(mode_t)070;
        }
    }
    if (fd >= 0)
        (void)fchmod(fd, mode);
    else
        (void)chmod(path, mode);
}

/* Move tmp to real: over it when `replace`, else only if real does not
 * exist (exclusively: a file that appeared meanwhile is not replaced).  A
 * directory replacing an existing one is exchanged with it: afterwards tmp
 * names the old directory, which the caller removes. */
static int place(const char *tmp, const char *real, const char *path, int replace, int is_dir,
                 struct ss_error *err)
{
    if (replace && !is_dir) {
        if (rename(tmp, real) == 0)
            return 0;
        return ss_fail(err, SS_EIO, "%s: cannot rename %s into place: %s", path, tmp,
                       strerror(errno));
    }
#if defined(HAVE_RENAMEAT2) && defined(RENAME_NOREPLACE) && defined(RENAME_EXCHANGE)
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, real, replace ? RENAME_EXCHANGE : RENAME_NOREPLACE) == 0)
        return 0;
    if (errno == EEXIST || errno == ENOTEMPTY)
        return ss_fail(err, SS_EUSAGE, "%s: exists (created while stackscope wrote it)", path);
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return ss_fail(err, SS_EIO, "%s: cannot rename %s into place: %s", path, tmp,
                       strerror(errno));
#endif
    /* No renameat2 here (or not on this file system). */
    if (!is_dir) {
        if (link(tmp, real) == 0) {
            unlink(tmp);
            return 0;
        }
        if (errno == EEXIST)
            return ss_fail(err, SS_EUSAGE, "%s: exists (created while stackscope wrote it)", path);
        /* No hard links either: check, then rename (a narrow race). */
        struct stat st;
        if (lstat(real, &st) == 0)
            return ss_fail(err, SS_EUSAGE, "%s: exists (created while stackscope wrote it)", path);
        if (rename(tmp, real) == 0)
            return 0;
        return ss_fail(err, SS_EIO, "%s: cannot rename %s into place: %s", path, tmp,
                       strerror(errno));
    }
    if (!replace) {
        /* rename() refuses a non-empty directory that appeared meanwhile. */
        if (rename(tmp, real) == 0)
            return 0;
        return ss_fail(err, SS_EIO, "%s: cannot rename %s into place: %s", path, tmp,
                       strerror(errno));
    }
    /* Exchange by hand: the old directory goes to a second temporary name. */
    char *old = tmp_name(real, err);
    if (!old)
        return err->code;
    int rc = 0;
    if (!mkdtemp(old) || rmdir(old) != 0 || rename(real, old) != 0) {
        rc = ss_fail(err, SS_EIO, "%s: cannot move the old directory aside: %s", path,
                     strerror(errno));
    } else if (rename(tmp, real) != 0) {
        rc =
            ss_fail(err, SS_EIO, "%s: cannot rename %s into place: %s", path, tmp, strerror(errno));
        (void)rename(old, real);
    } else {
        (void)rename(old, tmp); /* the caller removes tmp: now the old tables */
    }
    free(old);
    return rc;
}

/* Write path through a temporary file next to it: fill(f, ctx) writes the
 * contents; the file is flushed, synced and moved into place only when all
 * went well; on any error it is removed. */
static int write_atomic(const char *path, const struct target *t, int force, ss_fill_fn fill,
                        void *ctx, struct ss_error *err)
{
    char *tmp = tmp_name(t->real, err);
    if (!tmp)
        return err->code;
    int fd = create_temp(tmp, 1);
    if (fd < 0) {
        int e = errno;
        char dir[4096];
        dir_of(t->real, dir, sizeof dir);
        free(tmp);
        return ss_fail(err, SS_EIO, "%s: cannot create a file in %s: %s", path, dir, strerror(e));
    }
    take_attributes(fd, NULL, t, 0666);
    FILE *fp = fdopen(fd, "wb");
    int rc = 0;
    if (!fp) {
        close(fd);
        rc = ss_nomem(err, "the output stream");
    } else {
        rc = fill(fp, ctx, path, err);
        if (!rc && (fflush(fp) != 0 || ferror(fp) || fsync(fileno(fp)) != 0))
            rc = ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(errno));
        if (fclose(fp) != 0 && !rc)
            rc = ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(errno));
    }
    if (!rc)
        rc = place(tmp, t->real, path, force && t->exists, 0, err);
    if (rc)
        unlink(tmp);
    abandon_kind = 0;
    free(tmp);
    return rc;
}

struct stream_job {
    const struct ss_model *m;
    const struct ss_format *f;
    const struct ss_write_opts *o; /* the SVG's options */
    uint64_t in;                   /* the inputs' bytes */
    int capped;                    /* written through a stream capped at ss_out_limit(in) */
};

/* Write j's model in its format to fp, through a capped stream unless
 * forced or pprof (see the size of the output, below). */
/* j's model in its format to fp: the SVG with the options of j->o. */
static int write_one(const struct stream_job *j, FILE *fp, const char *path, struct ss_error *err)
{
    if (j->f->id == SS_OUT_SVG)
        return ss_write_svg_with(j->m, fp, path, j->o->svg, j->o->svg_alpha, err);
    return j->f->write(j->m, fp, path, err);
}

static int write_capped(const struct stream_job *j, FILE *fp, const char *path, int partial,
                        struct ss_error *err)
{
    if (!j->capped)
        return write_one(j, fp, path, err);
    struct ss_outcap c;
    FILE *cf = ss_out_capped(&c, fp, ss_out_limit(j->in));
    if (!cf)
        return ss_nomem(err, "the output stream");
    int rc = write_one(j, cf, path, err);
    int over = ss_out_uncap(cf, &c);
    if (over == 1) {
        char why[96];
        snprintf(why, sizeof why, "the %s grew past it while written", j->f->title);
        return ss_out_refuse(err, path, 0, j->in, why, partial);
    }
    return rc;
}

static int fill_stream(FILE *fp, void *ctx, const char *path, struct ss_error *err)
{
    return write_capped(ctx, fp, path, 0, err);
}

static void stream_job_init(struct stream_job *j, const struct ss_model *m,
                            const struct ss_format *f, const struct ss_write_opts *o)
{
    j->m = m;
    j->f = f;
    j->o = o;
    j->capped = !o->force && f->id != SS_OUT_PPROF;
    j->in = j->capped ? ss_out_input_bytes(o->inputs, o->n_inputs) : 0;
}

static int write_stream(const char *path, const struct ss_write_opts *o, ss_fill_fn fill, void *ctx,
                        struct ss_error *err)
{
    struct target t;
    int rc = target_check(path, o, 0, &t, err);
    if (!rc && t.exists && !o->force)
        rc = ss_fail(err, SS_EUSAGE, "%s: exists; use --force to replace it", path);
    if (!rc)
        rc = write_atomic(path, &t, o->force, fill, ctx, err);
    free(t.real);
    return rc;
}

int ss_write_with(const char *path, const struct ss_write_opts *o, ss_fill_fn fill, void *ctx,
                  struct ss_error *err)
{
    return write_stream(path, o, fill, ctx, err);
}

/* ---- tables directories -------------------------------------------------- */

/* Remove the tables in dir (only the files the tables writer writes), then
 * dir itself if that left it empty. */
static void remove_tables_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        for (size_t i = 0; ss_tables_file(i); i++)
            unlinkat(fd, ss_tables_file(i), 0);
        close(fd);
    }
    rmdir(dir);
}

/* What an existing output directory holds: 0 when it may be replaced (empty,
 * or a previous tables output: meta.tsv and only table files, all regular),
 * else an error naming the first file in the way. *empty says which. */
static int check_old_tables(const char *path, const char *dir, int *empty, struct ss_error *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return ss_fail(err, SS_EIO, "%s: cannot read the directory: %s", path, strerror(errno));
    int fd = dirfd(d), meta = 0, rc = 0;
    *empty = 1;
    struct dirent *e;
    while (!rc && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        *empty = 0;
        struct stat st;
        if (!ss_tables_is_file(e->d_name))
            rc = ss_fail(err, SS_EUSAGE,
                         "%s: holds %s, which stackscope did not write; refusing to replace "
                         "the directory (with or without --force)",
                         path, e->d_name);
        else if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            rc = ss_fail(err, SS_EUSAGE,
                         "%s: %s is not a regular file; refusing to replace the directory", path,
                         e->d_name);
        else if (!strcmp(e->d_name, "meta.tsv"))
            meta = 1;
    }
    closedir(d);
    if (!rc && !*empty && !meta)
        rc = ss_fail(err, SS_EUSAGE,
                     "%s: holds table files but no meta.tsv: not a stackscope tables directory; "
                     "refusing to replace it",
                     path);
    return rc;
}

/* The tables writer names the files it writes in tmp, which is removed
 * afterwards: name them in the directory the user gave instead (path, its
 * trailing slashes dropped), each place tmp appears in the message. */
static void name_target(struct ss_error *err, const char *tmp, const char *path)
{
    size_t tn = strlen(tmp), pn = strlen(path);
    if (!tn)
        return;
    while (pn > 1 && path[pn - 1] == '/')
        pn--;
    char out[sizeof err->msg];
    size_t o = 0;
    for (const char *s = err->msg; *s;) {
        const char *hit = strstr(s, tmp);
        size_t keep = hit ? (size_t)(hit - s) : strlen(s), put = hit ? pn : 0;
        if (o + keep + put >= sizeof out)
            return; /* no room: the message as it was */
        memcpy(out + o, s, keep);
        memcpy(out + o + keep, path, put);
        o += keep + put;
        s += keep + (hit ? tn : 0);
    }
    out[o] = '\0';
    memcpy(err->msg, out, o + 1);
}

static int write_dir(const struct ss_model *m, const char *path, const struct ss_format *f,
                     const struct ss_write_opts *o, struct ss_error *err)
{
    struct target t;
    int empty = 1, rc = target_check(path, o, 1, &t, err);
    if (!rc && t.exists)
        rc = check_old_tables(path, t.real, &empty, err);
    if (!rc && t.exists && !empty && !o->force)
        rc = ss_fail(err, SS_EUSAGE, "%s: exists; use --force to replace it", path);
    char *tmp = rc ? NULL : tmp_name(t.real, err);
    if (!rc && !tmp)
        rc = err->code;
    if (!rc) {
        if (create_temp(tmp, 2) < 0) {
            rc = ss_fail(err, SS_EIO, "%s: cannot create a directory next to it: %s", path,
                         strerror(errno));
        } else {
            take_attributes(-1, tmp, &t, 0777);
            rc = f->write_dir(m, tmp, err);
            if (rc)
                name_target(err, tmp, path);
            else
                rc = place(tmp, t.real, path, t.exists, 1, err);
            /* tmp now holds the new tables (on failure) or the old ones. */
            remove_tables_dir(tmp);
            abandon_kind = 0;
        }
    }
    free(tmp);
    free(t.real);
    return rc;
}

/* ---- the size of the output ------------------------------------------------
 *
 * Some formats multiply the data: Rprof writes a sample of count k as k
 * lines (a 4 KB Go heap profile, whose samples count millions of objects,
 * became a 1.9 GB file), speedscope and the tables write every frame of
 * every sample, folded stacks and the SVG every name of every stack (a
 * 234-byte pprof of one 100 KB name in a stack of 10,000 frames: a 1 GB
 * line).  Before writing, the size is estimated from the model where it
 * can be (Rprof, speedscope, tables, folded); an output over the limit of
 * outlimit.h (64 MiB, or 100 times the inputs' size) is refused unless
 * forced, with a message that gives the estimate and why.  Every stream
 * but pprof (which compresses, and refuses over 1 GiB on its own) is also
 * written through a stream capped at the limit: the SVG, whose size the
 * layout decides, and any estimate that fell short. */

/* a + b, saturating */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* a x b, saturating */
static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return b && a > UINT64_MAX / b ? UINT64_MAX : a * b;
}

/* Bytes of the names of every frame of stack s, each plus `per_frame`. */
static uint64_t stack_name_bytes(const struct ss_model *m, ss_id s, unsigned per_frame,
                                 unsigned per_position)
{
    uint64_t n = 0;
    const ss_id *fr = ss_stack_frames(m, s);
    for (size_t k = 0; k < ss_stack_depth(m, s); k++) {
        const struct ss_location *l = &m->locations.v[fr[k]];
        ss_id fn = ss_loc_function(m, fr[k]); /* SS_NONE: a position only */
        n += (fn == SS_NONE ? 0 : ss_strtab_len(&m->strs, m->functions.v[fn].name)) + per_frame;
        if (l->file != SS_NONE || l->line > 0)
            n += per_position + ss_digits(l->line);
    }
    if (m->stack_tail.v[s] != SS_NONE)
        n += per_position + ss_digits(m->locations.v[m->stack_tail.v[s]].line);
    return n;
}

/* The estimated size of m written as format f (0: not estimated), and in
 * why[0..cap) what makes it large. */
static uint64_t estimate(const struct ss_model *m, const struct ss_format *f, char *why, size_t cap)
{
    size_t ns = ss_model_nstacks(m), n = m->sample_stack.n;
    uint64_t size = 0;
    if (f->id == SS_OUT_RPROF) {
        /* "F#L " per position (file numbers of a few digits), '"name" ' per
         * frame; a line per counted sample, with its memory prefix. */
        uint64_t *len = malloc((ns ? ns : 1) * sizeof *len);
        if (!len)
            return 0;
        for (size_t s = 0; s < ns; s++)
            len[s] = stack_name_bytes(m, (ss_id)s, 3, 3);
        struct ss_rprof_vt vt;
        int have_vt = ss_rprof_value_types(m, &vt) == 0;
        uint64_t lines = 0;
        for (size_t i = 0; i < n; i++) {
            int64_t c = ss_sample_count(m, i);
            ss_id st = m->sample_stack.v[i];
            int memory = (m->sources.v[ss_sample_source(m, i)].flags & SS_SRC_MEMORY) != 0;
            if (c <= 0 || (!memory && ss_stack_depth(m, st) == 0 && m->stack_tail.v[st] == SS_NONE))
                continue;
            uint64_t line = len[st] + 1;
            if (memory) {
                line += 5;
                if (have_vt) {
                    ss_id t[4] = {vt.small_v, vt.big_v, vt.nodes, vt.dup_count};
                    for (int k = 0; k < 4; k++)
                        line += ss_digits(ss_sample_value(m, t[k], i) > 0
                                              ? (uint64_t)ss_sample_value(m, t[k], i)
                                              : 0);
                } else {
                    line += 4;
                }
            }
            lines = sat_add(lines, (uint64_t)c);
            size = sat_add(size, sat_mul(line, (uint64_t)c));
        }
        free(len);
        if (lines > SS_MAX_RPROF_LINES)
            return 0; /* the writer refuses that many lines on its own */
        for (size_t s = 0; s < m->sources.n; s++)
            size = sat_add(size, 70); /* the header */
        snprintf(why, cap,
                 "Rprof writes one line per sample, and the sample counts add up to %llu lines",
                 (unsigned long long)lines);
    } else if (f->id == SS_OUT_SPEEDSCOPE) {
        /* every sample's frame indices, root first, and its weight */
        unsigned fd = ss_digits(m->locations.n) + 1;
        uint64_t frames = 0;
        for (size_t i = 0; i < n; i++)
            frames = sat_add(frames, ss_stack_depth(m, m->sample_stack.v[i]));
        size = sat_add(sat_mul(frames, fd), sat_mul(n, 24));
        for (size_t l = 0; l < m->locations.n; l++) {
            ss_id fn = m->locations.v[l].function; /* SS_NONE: a position only */
            if (fn != SS_NONE)
                size = sat_add(size, ss_strtab_len(&m->strs, m->functions.v[fn].name) + 40);
        }
        snprintf(why, cap,
                 "speedscope writes every frame of every sample: %zu samples, %llu frames", n,
                 (unsigned long long)frames);
    } else if (f->id == SS_OUT_FOLDED) {
        /* a line per distinct stack that weighs something: its names
         * joined by ';', a count (stacks of the same names merge: fewer) */
        uint64_t *w = ss_calloc_array(ns, sizeof *w);
        if (!w)
            return 0;
        for (size_t i = 0; i < n; i++)
            w[m->sample_stack.v[i]] = 1;
        for (size_t s = 0; s < ns; s++)
            if (w[s] && ss_stack_depth(m, (ss_id)s))
                size = sat_add(size, stack_name_bytes(m, (ss_id)s, 1, 0) + 20);
        free(w);
        snprintf(why, cap, "folded stacks write the names of every frame of every distinct stack");
    } else if (f->id == SS_OUT_TABLES) {
        /* sample_locations.tsv: a row per frame of every sample */
        unsigned row = ss_digits(n) + ss_digits(m->locations.n) + 3;
        uint64_t frames = 0;
        for (size_t i = 0; i < n; i++) {
            size_t d = ss_stack_depth(m, m->sample_stack.v[i]);
            frames = sat_add(frames, d);
            size = sat_add(size, sat_mul(d, row + ss_digits(d)));
        }
        size = sat_add(size, sat_mul(n, 12 + 16 * (uint64_t)m->value_types.n));
        for (size_t s = 0; s < ns; s++)
            size = sat_add(size, sat_mul(ss_stack_depth(m, (ss_id)s), row + 6));
        for (size_t k = 0; k < m->functions.n; k++)
            size =
                sat_add(size, 2 * (uint64_t)ss_strtab_len(&m->strs, m->functions.v[k].name) + 24);
        snprintf(why, cap,
                 "the tables hold every frame of every sample (sample_locations.tsv): %zu "
                 "samples, %llu frames",
                 n, (unsigned long long)frames);
    }
    return size;
}

/* Refuse, unless forced, an output far larger than its inputs (see above). */
static int check_growth(const struct ss_model *m, const struct ss_format *f, const char *path,
                        const struct ss_write_opts *o, struct ss_error *err)
{
    if (o->force)
        return 0;
    char why[200];
    uint64_t est = estimate(m, f, why, sizeof why);
    uint64_t in = ss_out_input_bytes(o->inputs, o->n_inputs);
    if (est <= ss_out_limit(in))
        return 0;
    char e[32], ib[32];
    ss_out_human(e, sizeof e, est);
    ss_out_human(ib, sizeof ib, in);
    char times[64] = "";
    if (in)
        snprintf(times, sizeof times, ", %.0f times the input's %s", (double)est / (double)in, ib);
    return ss_fail(err, SS_EBIG,
                   "%s: the %s file would be about %s (%llu bytes)%s: %s; nothing written "
                   "(--force, or :w! in the explorer, writes it anyway)",
                   path, f->title, e, (unsigned long long)est, times, why);
}

/* What every output checks before writing m as f to path: the format can
 * hold m, the readers can read it back, and it does not grow past reason. */
static int check_output(const struct ss_model *m, const struct ss_format *f, const char *path,
                        const struct ss_write_opts *o, struct ss_error *err)
{
    if (ss_model_is_comparison(m) && f->id != SS_OUT_PPROF && f->id != SS_OUT_FOLDED &&
        f->id != SS_OUT_SVG)
        return ss_fail(err, SS_EUSAGE,
                       "%s: the %s format cannot hold a comparison (--base): it has no negative "
                       "samples; write pprof (the base's samples negated, as pprof -diff_base), "
                       "folded (`stack BASE NEW` lines, difffolded) or svg (coloured by delta)",
                       path, f->name);
    for (size_t i = 0; i < m->sources.n && !f->aggregates; i++)
        if (m->sources.v[i].flags & SS_SRC_AGGREGATE)
            return ss_fail(err, SS_EUSAGE,
                           "%s: %s holds aggregates (counts per call element), not stacks; "
                           "the %s format needs stacks (sampling_prof can take it)",
                           path, ss_str(m, m->sources.v[i].uri), f->name);
    if (f->id != SS_OUT_SAMPLING_PROF && (f->load || f->load_dir)) /* one we read back */
        for (size_t s = 0; s < ss_model_nstacks(m); s++)
            if (ss_stack_depth(m, (ss_id)s) > SS_MAX_FRAMES)
                return ss_fail(err, SS_EUSAGE,
                               "%s: cannot write %s: a stack of %zu frames (the readers take at "
                               "most %d frames in one stack); nothing written",
                               path, f->title, ss_stack_depth(m, (ss_id)s), SS_MAX_FRAMES);
    if (f->id == SS_OUT_FOLDED) {
        /* a folded file holds only samples with frames; an empty one is no
         * profile to any reader, ours included */
        struct ss_totals t;
        ss_model_totals(m, &t);
        if (t.counted == 0)
            return ss_fail(err, SS_EUSAGE,
                           "%s: no sample has frames: the folded file would be empty, which no "
                           "reader takes for a profile; nothing written",
                           path);
    }
    return check_growth(m, f, path, o, err);
}

int ss_write_loss(const struct ss_model *m, enum ss_out_format format, char *buf, size_t n)
{
    if (n)
        buf[0] = '\0';
    if (format != SS_OUT_RPROF && format != SS_OUT_SAMPLING_PROF)
        return 0;
    double own = 0, fixed = 0; /* seconds: the samples' own, count x interval */
    size_t nsam = 0, nsrc = 0;
    for (size_t s = 0; s < m->sources.n; s++) {
        const struct ss_source *src = &m->sources.v[s];
        uint32_t tc = src->time_column;
        if (!tc || tc - 1 >= m->values.n || !m->values.v[tc - 1])
            continue;
        size_t k = 0;
        double a = 0, b = 0;
        for (size_t i = src->first_sample; i < src->first_sample + src->n_samples; i++) {
            double x = (double)ss_sample_value(m, tc - 1, i) / 1e9,
                   y = (double)ss_sample_count(m, i) * src->interval_us / 1e6;
            a += x;
            b += y;
            k += x - y > 1e-9 * y || y - x > 1e-9 * y;
        }
        if (k) {
            own += a;
            fixed += b;
            nsam += k;
            nsrc++;
        }
    }
    if (!nsam)
        return 0;
    snprintf(buf, n,
             "%s holds count x interval: the own times of %zu sample%s (%zu source%s) are not "
             "kept, so each function's time may change (%.6g s in all become %.6g s)",
             format == SS_OUT_RPROF ? "Rprof" : "SamplingProf", nsam, nsam == 1 ? "" : "s", nsrc,
             nsrc == 1 ? "" : "s", own, fixed);
    return 1;
}

int ss_write_file(const struct ss_model *m, const char *path, const struct ss_write_opts *o,
                  struct ss_error *err)
{
    const struct ss_format *f = o->format ? ss_format_get(o->format) : ss_format_for_path(path);
    if (!f) {
        char names[128];
        return ss_fail(err, SS_EUSAGE,
                       "%s: cannot tell the output format from the name; use --to %s", path,
                       ss_format_names(names, sizeof names, "|", "|"));
    }
    int rc = check_output(m, f, path, o, err);
    if (rc)
        return rc;
    if (f->directory)
        return write_dir(m, path, f, o, err);
    struct stream_job job;
    stream_job_init(&job, m, f, o);
    return write_stream(path, o, fill_stream, &job, err);
}

int ss_write_stream(const struct ss_model *m, FILE *fp, const char *name,
                    const struct ss_write_opts *o, struct ss_error *err)
{
    const struct ss_format *f = o->format ? ss_format_get(o->format) : NULL;
    char names[128];
    if (!f)
        return ss_fail(err, SS_EUSAGE, "%s: no file name to tell the format by; use --to %s", name,
                       ss_format_names(names, sizeof names, "|", "|"));
    if (f->directory)
        return ss_fail(err, SS_EUSAGE, "%s: the %s format is a directory of files, not a stream",
                       name, f->name);
    int rc = check_output(m, f, name, o, err);
    if (rc)
        return rc;
    struct stream_job job;
    stream_job_init(&job, m, f, o);
    rc = write_capped(&job, fp, name, 1, err);
    if (!rc && (fflush(fp) != 0 || ferror(fp)))
        rc = ss_fail(err, SS_EIO, "%s: write error: %s", name, strerror(errno));
    return rc;
}
