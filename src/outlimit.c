/* outlimit.c - the size guard of every output (see outlimit.h). */
#define _GNU_SOURCE 1 /* fopencookie */
#include "outlimit.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* a + b, saturating */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

uint64_t ss_out_input_bytes(char *const *paths, int n)
{
    uint64_t bytes = 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0)
            continue;
        if (S_ISREG(st.st_mode))
            bytes = sat_add(bytes, (uint64_t)st.st_size);
        if (!S_ISDIR(st.st_mode))
            continue;
        DIR *d = opendir(paths[i]);
        if (!d)
            continue;
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            struct stat est;
            if (fstatat(dirfd(d), e->d_name, &est, 0) == 0 && S_ISREG(est.st_mode))
                bytes = sat_add(bytes, (uint64_t)est.st_size);
        }
        closedir(d);
    }
    return bytes;
}

uint64_t ss_out_limit(uint64_t in)
{
    uint64_t grown = in > UINT64_MAX / SS_OUT_FACTOR ? UINT64_MAX : in * SS_OUT_FACTOR;
    return grown > SS_OUT_FLOOR ? grown : SS_OUT_FLOOR;
}

void ss_out_human(char *buf, size_t cap, uint64_t v)
{
    static const char *const unit[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    double x = (double)v;
    size_t u = 0;
    while (x >= 1024 && u + 1 < sizeof unit / sizeof *unit) {
        x /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, cap, "%llu B", (unsigned long long)v);
    else
        snprintf(buf, cap, "%.1f %s", x, unit[u]);
}

int ss_out_refuse(struct ss_error *err, const char *what, uint64_t size, uint64_t in,
                  const char *why, int partial)
{
    char lim[32], ib[32], sz[32];
    uint64_t limit = ss_out_limit(in);
    ss_out_human(lim, sizeof lim, limit);
    ss_out_human(ib, sizeof ib, in);
    ss_out_human(sz, sizeof sz, size);
    char amount[160];
    if (size)
        snprintf(amount, sizeof amount, "would be about %s (%llu bytes), over", sz,
                 (unsigned long long)size);
    else
        snprintf(amount, sizeof amount, "reached");
    return ss_fail(err, SS_EBIG,
                   "%s: the output %s the limit of %s (64 MiB, or %d times the inputs' "
                   "%s)%s%s; %s (--force, or :w! in the explorer, writes it anyway)",
                   what, amount, lim, SS_OUT_FACTOR, ib, why ? ": " : "", why ? why : "",
                   partial ? "stopped there" : "nothing written");
}

/* ---- the capped stream ---------------------------------------------------------------- */

static ssize_t cap_write(void *cookie, const char *buf, size_t n)
{
    struct ss_outcap *c = cookie;
    if (c->over || n > c->limit - c->written) {
        c->over = 1;
        errno = EFBIG;
        return -1;
    }
    size_t w = fwrite(buf, 1, n, c->to);
    c->written += w;
    return w == n ? (ssize_t)n : -1;
}

static int cap_close(void *cookie)
{
    struct ss_outcap *c = cookie;
    return fflush(c->to) == 0 ? 0 : -1;
}

FILE *ss_out_capped(struct ss_outcap *c, FILE *to, uint64_t limit)
{
    memset(c, 0, sizeof *c);
    c->to = to;
    c->limit = limit;
    cookie_io_functions_t io = {NULL, cap_write, NULL, cap_close};
    FILE *f = fopencookie(c, "w", io);
    /* a large buffer: the writers' many small writes reach `to` in big
     * ones, which stdio passes on without copying again */
    if (f)
        setvbuf(f, NULL, _IOFBF, (size_t)1 << 16);
    return f;
}

int ss_out_uncap(FILE *capped, struct ss_outcap *c)
{
    int bad = fclose(capped) != 0;
    if (c->over)
        return 1;
    return bad || ferror(c->to) ? -1 : 0;
}
