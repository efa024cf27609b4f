/* tail.c - following a file as it grows (tail.h). */
#include "tail.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vec.h"

/* pread all of n bytes at off, or fewer at the end of the file; -1 on error. */
static ssize_t read_at(int fd, void *buf, size_t n, uint64_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = pread(fd, (char *)buf + got, n - got, (off_t)(off + got));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        got += (size_t)r;
    }
    return (ssize_t)got;
}

static int fail_errno(struct ss_tail *t, struct ss_error *err, const char *what)
{
    return ss_fail(err, SS_EINPUT, "%s: cannot %s: %s", t->path, what, strerror(errno));
}

/* Open t->path as the file followed; its identity into t. */
static int open_file(struct ss_tail *t, struct ss_error *err)
{
    /* O_NONBLOCK: a FIFO at the name is refused below, not waited on */
    t->fd = open(t->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (t->fd < 0)
        return fail_errno(t, err, "open it to follow");
    struct stat st;
    if (fstat(t->fd, &st))
        return fail_errno(t, err, "stat it");
    if (!S_ISREG(st.st_mode))
        return ss_fail(err, SS_EINPUT, "%s: not a regular file: only a file can be followed",
                       t->path);
    t->dev = (uint64_t)st.st_dev;
    t->ino = (uint64_t)st.st_ino;
    t->off = 0;
    t->held = t->held_at = 0;
    t->sig_n = 0;
    t->replaced = 0;
    return 0;
}

/* Where the last complete line of the file ends (0: none). */
static int last_line_end(struct ss_tail *t, uint64_t size, uint64_t *end, struct ss_error *err)
{
    char blk[4096];
    uint64_t at = size;
    while (at > 0) {
        size_t n = at < sizeof blk ? (size_t)at : sizeof blk;
        ssize_t r = read_at(t->fd, blk, n, at - n);
        if (r < 0)
            return fail_errno(t, err, "read it");
        if ((size_t)r < n) /* shrank while read: take what is there */
            return last_line_end(t, at - n + (uint64_t)r, end, err);
        for (size_t i = n; i > 0; i--)
            if (blk[i - 1] == '\n') {
                *end = at - n + i;
                return 0;
            }
        at -= n;
    }
    *end = 0;
    return 0;
}

/* Read the bytes before off into sig[0..*n): 0, 1 when the file is
 * shorter than off now, -1 on error. */
static int sig_read(const struct ss_tail *t, unsigned char *sig, size_t *n)
{
    *n = t->off < sizeof t->sig ? (size_t)t->off : sizeof t->sig;
    ssize_t r = *n ? read_at(t->fd, sig, *n, t->off - *n) : 0;
    return r < 0 ? -1 : (size_t)r == *n ? 0 : 1;
}

int ss_tail_open(struct ss_tail *t, const char *path, int from_end, struct ss_error *err)
{
    memset(t, 0, sizeof *t);
    t->fd = -1;
    t->max_poll = SS_TAIL_MAX_POLL;
    t->path = strdup(path);
    if (!t->path)
        return ss_nomem(err, "follow");
    int rc = open_file(t, err);
    struct stat st;
    if (!rc && from_end && fstat(t->fd, &st))
        rc = fail_errno(t, err, "stat it");
    if (!rc && from_end)
        rc = last_line_end(t, (uint64_t)st.st_size, &t->off, err);
    if (!rc && sig_read(t, t->sig, &t->sig_n))
        t->sig_n = 0;
    if (rc)
        ss_tail_close(t);
    return rc;
}

/* Has the file been truncated, or rewritten from its start and grown past
 * off, since the last poll?  1 yes, 0 no, -1 error. */
static int rewritten(struct ss_tail *t, uint64_t size)
{
    unsigned char now[sizeof t->sig];
    size_t n;
    if (size < t->off)
        return 1;
    int r = sig_read(t, now, &n);
    if (r)
        return r;
    return n == t->sig_n && memcmp(now, t->sig, n) != 0;
}

/* Start over from the beginning of the file open (truncated or rewritten). */
static void restart_at_zero(struct ss_tail *t, int *restart)
{
    t->off = 0;
    t->held = 0;
    t->sig_n = 0;
    *restart = 1;
}

/* Switch to the file the name now names (the old one's lines all read). */
static int switch_file(struct ss_tail *t, int *restart, struct ss_error *err)
{
    close(t->fd);
    t->fd = -1;
    int rc = open_file(t, err);
    *restart = 1;
    return rc;
}

/* Has the name come to name another file?  (A name removed: no, the
 * writer may still be writing to the file open.) */
static void check_replaced(struct ss_tail *t)
{
    struct stat ps;
    if (!t->replaced && stat(t->path, &ps) == 0 &&
        ((uint64_t)ps.st_dev != t->dev || (uint64_t)ps.st_ino != t->ino))
        t->replaced = 1;
}

/* Read what there is after t->off into buf after the held bytes, up to the
 * poll's bound: the bytes read, or -1 with err set. */
static ssize_t read_more(struct ss_tail *t, uint64_t size, struct ss_error *err)
{
    uint64_t avail = size > t->off ? size - t->off : 0;
    size_t room = t->max_poll > t->held ? t->max_poll - t->held : 0;
    size_t want = avail < room ? (size_t)avail : room;
    if (!want)
        return 0;
    if (ss_grow((void **)&t->buf, &t->cap, t->held + want, 1)) {
        ss_nomem(err, "follow");
        return -1;
    }
    ssize_t r = read_at(t->fd, t->buf + t->held, want, t->off);
    if (r < 0) {
        fail_errno(t, err, "read it");
        return -1;
    }
    t->off += (uint64_t)r;
    return r;
}

/* The complete lines among the bytes in buf[0..total) (the held partial
 * line first): handed out, the rest held for the next poll. */
static void hand_out(struct ss_tail *t, size_t total, const char **lines, size_t *len)
{
    size_t end = total;
    while (end > 0 && t->buf[end - 1] != '\n')
        end--;
    *lines = t->buf;
    *len = end;
    t->held_at = end;
    t->held = total - end;
    if (sig_read(t, t->sig, &t->sig_n))
        t->sig_n = 0; /* cannot tell: no rewrite is seen by it */
}

int ss_tail_poll(struct ss_tail *t, const char **lines, size_t *len, int *restart,
                 struct ss_error *err)
{
    *lines = t->buf;
    *len = 0;
    *restart = 0;
    if (t->fd < 0)
        return ss_fail(err, SS_EINPUT, "%s: not open", t->path);
    if (t->held && t->held_at) /* the last poll's lines are gone */
        memmove(t->buf, t->buf + t->held_at, t->held);
    t->held_at = 0;
    for (int pass = 0; pass < 2; pass++) {
        struct stat st;
        if (fstat(t->fd, &st))
            return fail_errno(t, err, "stat it");
        /* when it was last looked at (ss_tail_behind: a rewrite to the
         * same size changes only this) */
        t->mtime_s = (int64_t)st.st_mtim.tv_sec;
        t->mtime_ns = (long)st.st_mtim.tv_nsec;
        int rw = rewritten(t, (uint64_t)st.st_size);
        if (rw < 0)
            return fail_errno(t, err, "read it");
        if (rw)
            restart_at_zero(t, restart);
        check_replaced(t);
        ssize_t got = read_more(t, (uint64_t)st.st_size, err);
        if (got < 0)
            return err->code;
        size_t total = t->held + (size_t)got;
        if (total >= t->max_poll && !memchr(t->buf, '\n', total))
            return ss_fail(err, SS_EINPUT,
                           "%s: byte offset %llu: a line longer than %zu bytes while following",
                           t->path, (unsigned long long)(t->off - total), t->max_poll);
        hand_out(t, total, lines, len);
        if (*len || got || !t->replaced)
            return 0;
        /* the old file read to its end: the new one, from its start */
        int rc = switch_file(t, restart, err);
        if (rc)
            return rc;
    }
    return 0;
}

uint64_t ss_tail_behind(const struct ss_tail *t)
{
    struct stat st, ps;
    if (t->fd < 0 || fstat(t->fd, &st))
        return 0;
    uint64_t size = (uint64_t)st.st_size, behind = 0;
    if (size >= t->off)
        behind = size - t->off;
    else /* truncated: all of it is new */
        behind = size;
    if (!behind && ((int64_t)st.st_mtim.tv_sec != t->mtime_s || st.st_mtim.tv_nsec != t->mtime_ns))
        behind = 1; /* written since, to the same size: a poll tells (a rewrite, or nothing) */
    /* replaced: the new file is all to read (1 when it is empty yet, so
     * that the next poll switches to it) */
    if (!t->replaced && stat(t->path, &ps) == 0 &&
        ((uint64_t)ps.st_dev != t->dev || (uint64_t)ps.st_ino != t->ino))
        behind += ps.st_size > 0 ? (uint64_t)ps.st_size : 1;
    return behind;
}

void ss_tail_close(struct ss_tail *t)
{
    if (t->path && t->fd >= 0) /* a zeroed struct has no path */
        close(t->fd);
    free(t->path);
    free(t->buf);
    memset(t, 0, sizeof *t);
    t->fd = -1;
}
