/* state.c - the explorer's session state file (see state.h). */
#include "state.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "write.h"

/* Room for a path (<limits.h> here is src/limits.h, so no STATE_PATH). */
#define STATE_PATH 4096

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

/* The directory of the state files into buf. */
static int state_dir(char *buf, size_t n, struct ss_error *err)
{
    const char *x = getenv("XDG_STATE_HOME");
    int w;
    if (x && x[0] == '/') {
        w = snprintf(buf, n, "%s/stackscope", x);
    } else {
        const char *home = getenv("HOME");
        if (!home || home[0] != '/')
            return ss_fail(err, SS_EUSAGE,
                           "no directory for the session state: set XDG_STATE_HOME or HOME");
        w = snprintf(buf, n, "%s/.local/state/stackscope", home);
    }
    if (w < 0 || (size_t)w >= n)
        return ss_fail(err, SS_EUSAGE, "the session state directory's name is too long");
    return 0;
}

int ss_state_path(char *const *files, int n, char *buf, size_t len, struct ss_error *err)
{
    char dir[STATE_PATH];
    int rc = state_dir(dir, sizeof dir, err);
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

/* mkdir -p path (each missing directory with mode 0700). */
static int make_dirs(const char *path, struct ss_error *err)
{
    char p[STATE_PATH];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST)
                return ss_fail(err, SS_EIO, "%s: cannot create the directory: %s", p,
                               strerror(errno));
            *s = c;
            if (!c)
                return 0;
        }
    }
}

struct state_text {
    char *const *files;
    int n;
    const char *script;
};

static int fill_state(FILE *f, void *ctx, const char *path, struct ss_error *err)
{
    (void)path, (void)err;
    const struct state_text *t = ctx;
    fputs("# stackscope: the transform list of the last session on these inputs\n"
          "# (stackscope --resume FILE... or :resume applies it; --script reads it)\n",
          f);
    for (int i = 0; i < t->n; i++) {
        char abs[STATE_PATH];
        fprintf(f, "# input: %s\n", absolute(t->files[i], abs, sizeof abs) ? t->files[i] : abs);
    }
    fputs(t->script, f);
    return 0;
}

int ss_state_save(char *const *files, int n, const struct ss_tf_list *l, struct ss_error *err)
{
    char path[STATE_PATH], dir[STATE_PATH];
    int rc = ss_state_path(files, n, path, sizeof path, err);
    if (rc)
        return rc;
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    if ((rc = make_dirs(dir, err)) != 0)
        return rc;
    char *script = ss_tf_script(l);
    if (!script)
        return ss_nomem(err, "session state");
    struct state_text t = {files, n, script};
    struct ss_write_opts o;
    memset(&o, 0, sizeof o);
    o.force = 1; /* the last session's list replaces the one before */
    o.inputs = files;
    o.n_inputs = n;
    rc = ss_write_with(path, &o, fill_state, &t, err);
    free(script);
    return rc;
}

int ss_state_load(char *const *files, int n, struct ss_tf_list *l, struct ss_error *err)
{
    char path[STATE_PATH];
    int rc = ss_state_path(files, n, path, sizeof path, err);
    if (rc)
        return rc;
    if (access(path, F_OK) != 0)
        return ss_fail(err, SS_EINPUT, "no saved session for %s%s (%s does not exist)", files[0],
                       n > 1 ? " and the other inputs" : "", path);
    return ss_tf_append_script_file(l, path, err);
}
