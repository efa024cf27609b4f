/* state.c - the explorer's session state file (see state.h).
 *
 * The state directory is trusted only when nobody else can change it: every
 * directory from the base (XDG_STATE_HOME, or ~/.local) down to
 * .../stackscope must be owned by the user (or root, above the last) and
 * writable by nobody else, and the last one must not be a symbolic link
 * (it is opened with O_NOFOLLOW, and the files in it through that open
 * directory, so it cannot be swapped between the check and the use).  A
 * directory that fails is refused with one warning, and nothing is read or
 * written there: another user who could plant a file or a link in it could
 * make --resume apply a transform the user never typed, or make the save
 * replace a file of theirs.  The state file itself is read only when it is
 * a regular file (O_NOFOLLOW, O_NONBLOCK: a FIFO never blocks) of at most
 * STATE_MAX bytes, and written to a new file renamed over the old name (a
 * link planted there is replaced, never followed).  Input names are
 * escaped in the file's comment lines (textesc.h), and a transform's text
 * never holds a line end (transform.h), so no name adds a line.
 */
#include "state.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "textesc.h"

/* Room for a path (<limits.h> here is src/limits.h, so no STATE_PATH). */
#define STATE_PATH 4096
/* The largest state file read: a transform list typed by hand is a few
 * KB; a file of more is not one stackscope wrote. */
#define STATE_MAX (1u << 20)

/* The absolute path of file into buf: resolved when it exists (so that
 * `a.out` and `./a.out` name the same session), else made absolute. */
static int absolute(const char *file, char *buf, size_t n)
{
    char *real = realpath(file, NULL);
    if (real) {
        int w = snprintf(buf, n, "%s", real);
        free(real);
        return w < 0 || (size_t)w >= n ? -1 : 0;
    }
    if (file[0] == '/')
        return snprintf(buf, n, "%s", file) >= (int)n ? -1 : 0;
    char cwd[STATE_PATH];
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    return snprintf(buf, n, "%s/%s", cwd, file) >= (int)n ? -1 : 0;
}

/* The directory of the state files into buf, and in *base the place of
 * the slash after the part of it that is not checked (HOME, or
 * XDG_STATE_HOME's parent: the directories after it are, state_dir_open). */
static int state_dir(char *buf, size_t n, size_t *base, struct ss_error *err)
{
    const char *x = getenv("XDG_STATE_HOME");
    int w;
    if (x && x[0] == '/') {
        w = snprintf(buf, n, "%s/stackscope", x);
        /* the slash before XDG_STATE_HOME's last name */
        *base = strlen(x);
        while (*base > 1 && x[*base - 1] == '/')
            (*base)--;
        while (*base > 1 && x[*base - 1] != '/')
            (*base)--;
        (*base)--;
    } else {
        const char *home = getenv("HOME");
        if (!home || home[0] != '/')
            return ss_fail(err, SS_EUSAGE,
                           "no directory for the session state: set XDG_STATE_HOME or HOME");
        w = snprintf(buf, n, "%s/.local/state/stackscope", home);
        *base = strlen(home);
    }
    if (w < 0 || (size_t)w >= n)
        return ss_fail(err, SS_EUSAGE, "the session state directory's name is too long");
    return 0;
}

int ss_state_path(char *const *files, int n, char *buf, size_t len, struct ss_error *err)
{
    char dir[STATE_PATH];
    size_t base;
    int rc = state_dir(dir, sizeof dir, &base, err);
    if (rc)
        return rc;
    /* FNV-1a (64 bits) over the absolute paths, each ended by a NUL */
    uint64_t h = 0xcbf29ce484222325u;
    for (int i = 0; i < n; i++) {
        char abs[STATE_PATH];
        if (absolute(files[i], abs, sizeof abs))
            return ss_fail(err, SS_EUSAGE, "%s: cannot make the path absolute", files[i]);
        for (const char *p = abs;; p++) {
            h = (h ^ (unsigned char)*p) * 0x100000001b3u;
            if (!*p)
                break;
        }
    }
    int w = snprintf(buf, len, "%s/%016llx.transforms", dir, (unsigned long long)h);
    if (w < 0 || (size_t)w >= len)
        return ss_fail(err, SS_EUSAGE, "the session state file's name is too long");
    return 0;
}

/* ---- the directory ----------------------------------------------------------- */

/* What is wrong with directory st (the last of the path: `last`) for the
 * state, or NULL. */
static const char *unsafe(const struct stat *st, int last)
{
    if (S_ISLNK(st->st_mode))
        return "is a symbolic link";
    if (!S_ISDIR(st->st_mode))
        return "is not a directory";
    if (st->st_uid != geteuid() && (last || st->st_uid != 0))
        return "belongs to another user";
    if (st->st_mode & (S_IWGRP | S_IWOTH))
        return "is writable by others (chmod go-w fixes it)";
    return NULL;
}

/* Open the state directory `dir` (its first `base` bytes not checked),
 * making the missing directories with mode 0700 when `create`.  Returns the
 * directory's descriptor; -1 with err set (an I/O error), or -2 with `warn`
 * set (the directory is not safe, or missing and not created). */
static int state_dir_open(const char *dir, size_t base, int create, char *warn, size_t wn,
                          struct ss_error *err)
{
    char p[STATE_PATH];
    snprintf(p, sizeof p, "%s", dir);
    size_t n = strlen(p);
    /* the missing directories above the base too (mode 0700: then nobody
     * else can change them), not checked: a user's own choice */
    for (size_t at = 1; create && at <= base; at++) {
        if (p[at] != '/')
            continue;
        p[at] = '\0';
        (void)mkdir(p, 0700);
        p[at] = '/';
    }
    for (size_t at = base + 1; at <= n; at++) {
        if (p[at] != '/' && p[at] != '\0')
            continue;
        int last = at == n;
        p[at] = '\0';
        if (create && mkdir(p, 0700) != 0 && errno != EEXIST)
            return ss_fail(err, SS_EIO, "%s: cannot create the directory: %s", p, strerror(errno)),
                   -1;
        struct stat st;
        if ((last ? lstat(p, &st) : stat(p, &st)) != 0) {
            snprintf(warn, wn, "%s: %s", p, strerror(errno));
            return -2;
        }
        const char *why = unsafe(&st, last);
        if (why) {
            snprintf(warn, wn, "%s %s: not used for the session state", p, why);
            return -2;
        }
        if (!last)
            p[at] = '/';
    }
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    const char *why = fd < 0 ? strerror(errno) : fstat(fd, &st) ? strerror(errno) : unsafe(&st, 1);
    if (why) {
        if (fd >= 0)
            close(fd);
        snprintf(warn, wn, "%s %s: not used for the session state", dir, why);
        return -2;
    }
    return fd;
}

/* ---- saving ---------------------------------------------------------------- */

static void fill_state(FILE *f, char *const *files, int n, const char *script)
{
    fputs("# stackscope: the transform list of the last session on these inputs\n"
          "# (stackscope --resume FILE... or :resume applies it; --script reads it)\n",
          f);
    for (int i = 0; i < n; i++) {
        char abs[STATE_PATH];
        fputs("# input: ", f);
        /* escaped: a line end in a name would start a line of its own */
        ss_esc_fputs(absolute(files[i], abs, sizeof abs) ? files[i] : abs, SS_ESC_TEXT, f);
        fputc('\n', f);
    }
    fputs(script, f);
}

/* Create a temporary file next to `name` in directory dfd, its name into
 * tmp (n bytes).  Returns its descriptor or -1. */
static int temp_file(int dfd, const char *name, char *tmp, size_t n)
{
    for (unsigned long tries = 0; tries < 100; tries++) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        /* a name taken (O_EXCL) is tried again with another */
        unsigned long r =
            (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16) ^ (tries * 2654435761u);
        snprintf(tmp, n, "%s.tmp-%06lx", name, r & 0xffffff);
        int fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    return -1;
}

/* Write the state file `name` in directory dfd (path: `path`) atomically. */
static int write_state(int dfd, const char *name, const char *path, char *const *files, int n,
                       const char *script, struct ss_error *err)
{
    char tmp[300];
    int fd = temp_file(dfd, name, tmp, sizeof tmp);
    if (fd < 0)
        return ss_fail(err, SS_EIO, "%s: cannot create a file beside it: %s", path,
                       strerror(errno));
    FILE *f = fdopen(fd, "wb");
    int rc = 0;
    if (!f) {
        close(fd);
        rc = ss_nomem(err, "session state");
    } else {
        fill_state(f, files, n, script);
        if (fflush(f) != 0 || ferror(f) || fsync(fd) != 0)
            rc = ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(errno));
        if (fclose(f) != 0 && !rc)
            rc = ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(errno));
    }
    /* a link or anything else planted at the name is replaced, not followed */
    if (!rc && renameat(dfd, tmp, dfd, name) != 0)
        rc =
            ss_fail(err, SS_EIO, "%s: cannot rename %s into place: %s", path, tmp, strerror(errno));
    if (rc)
        unlinkat(dfd, tmp, 0);
    return rc;
}

int ss_state_save(char *const *files, int n, const struct ss_tf_list *l, char *warn, size_t wn,
                  struct ss_error *err)
{
    char path[STATE_PATH], dir[STATE_PATH];
    size_t base;
    warn[0] = '\0';
    int rc = ss_state_path(files, n, path, sizeof path, err);
    if (!rc)
        rc = state_dir(dir, sizeof dir, &base, err);
    if (rc)
        return rc;
    int dfd = state_dir_open(dir, base, 1, warn, wn, err);
    if (dfd == -2)
        return 0;
    if (dfd < 0)
        return err->code;
    char *script = ss_tf_script(l);
    if (!script)
        rc = ss_nomem(err, "session state");
    else
        rc = write_state(dfd, strrchr(path, '/') + 1, path, files, n, script, err);
    free(script);
    close(dfd);
    return rc;
}

/* ---- loading ----------------------------------------------------------------- */

/* Read the state file `name` of directory dfd (at most STATE_MAX bytes of a
 * regular file) into *buf (malloc'd) and *len.  Returns 0, SS_EINPUT when
 * it does not exist, or -2 with `warn` set. */
static int read_state(int dfd, const char *name, const char *path, char **buf, size_t *len,
                      char *warn, size_t wn)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT)
        return SS_EINPUT;
    struct stat st;
    const char *why = NULL;
    size_t size = 0, n = 0;
    if (fd < 0)
        why = errno == ELOOP ? "is a symbolic link" : strerror(errno);
    else if (fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "is not a regular file";
    else if (st.st_size > STATE_MAX)
        why = "is larger than 1 MiB: not a state file stackscope wrote";
    else
        size = (size_t)st.st_size;
    char *b = why ? NULL : malloc(size + 1);
    while (b && !why && n < size) {
        ssize_t k = read(fd, b + n, size - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            why = k < 0 ? strerror(errno) : "was cut while being read";
        else
            n += (size_t)k;
    }
    if (!why && !b)
        why = "cannot be read: out of memory";
    if (fd >= 0)
        close(fd);
    if (why) {
        free(b);
        snprintf(warn, wn, "%s %s: no transforms resumed", path, why);
        return -2;
    }
    *buf = b;
    *len = n;
    return 0;
}

int ss_state_load(char *const *files, int n, struct ss_tf_list *l, char *warn, size_t wn,
                  struct ss_error *err)
{
    char path[STATE_PATH], dir[STATE_PATH];
    size_t base;
    warn[0] = '\0';
    int rc = ss_state_path(files, n, path, sizeof path, err);
    if (!rc)
        rc = state_dir(dir, sizeof dir, &base, err);
    if (rc)
        return rc;
    struct stat st;
    if (lstat(dir, &st) != 0 && errno == ENOENT)
        return ss_fail(err, SS_EINPUT, "no saved session for %s%s (%s does not exist)", files[0],
                       n > 1 ? " and the other inputs" : "", path);
    int dfd = state_dir_open(dir, base, 0, warn, wn, err);
    if (dfd == -2)
        return 0;
    if (dfd < 0)
        return err->code;
    char *buf = NULL;
    size_t len = 0;
    rc = read_state(dfd, strrchr(path, '/') + 1, path, &buf, &len, warn, wn);
    close(dfd);
    if (rc == SS_EINPUT)
        return ss_fail(err, SS_EINPUT, "no saved session for %s%s (%s does not exist)", files[0],
                       n > 1 ? " and the other inputs" : "", path);
    if (rc)
        return 0;
    struct ss_error perr;
    if (ss_tf_append_script(l, buf, len, path, &perr)) /* the list is left as it was */
        snprintf(warn, wn, "%s: no transforms resumed: %s", path, perr.msg);
    free(buf);
    return 0;
}
