/* tail.h - a file read as another process appends to it: the reading side
 * of following a profile while it is written (an R job under Rprof()).
 *
 * ss_tail_poll never blocks and never holds the writer back: it reads what
 * was appended since the last call, up to a bound per call, and hands out
 * complete lines only (the writer's partial last line is held until its
 * newline comes).  A file that shrinks (truncated: a new Rprof() call on the
 * same name) or whose name now names another file (replaced: written anew
 * and renamed over it) starts again from its beginning, and the poll says
 * so, so that the caller starts a new source.  Before switching to a
 * replacement, the complete lines left in the old file are handed out.
 */
#ifndef SS_TAIL_H
#define SS_TAIL_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Bytes handed out by one poll at most (a refresh stays bounded however
 * far behind the reader is); a line longer than this is an error. */
#define SS_TAIL_MAX_POLL ((size_t)16 << 20)

struct ss_tail {
    char *path;
    int fd;
    uint64_t dev, ino; /* the open file's identity */
    uint64_t off;      /* bytes of it read */
    char *buf;         /* the lines of the last poll, then the partial line held */
    size_t held_at;    /* where in buf the held partial line starts */
    size_t held, cap;  /* its bytes; buf's allocation */
    size_t max_poll;   /* SS_TAIL_MAX_POLL, lower in tests */
    int replaced;      /* the name now names another file: switch after the old one's lines */
    int64_t mtime_s;   /* its modification time at the last poll */
    long mtime_ns;
    /* the last bytes before off as they were read: a file rewritten from
     * its start and grown past off between two polls differs there */
    unsigned char sig[32];
    size_t sig_n;
};

/* Open path to follow it: from its beginning, or (from_end) after its last
 * complete line, so that only lines appended from now on are handed out.
 * Returns 0 or SS_EINPUT with err naming the file and why. */
int ss_tail_open(struct ss_tail *t, const char *path, int from_end, struct ss_error *err);

/* What was appended since the last poll: the complete lines in
 * *lines[0..*len) (each ending in '\n'; borrowed until the next call),
 * *len 0 when nothing new came.  *restart is set when the file was
 * truncated or replaced: the lines then handed out are the new file's from
 * its beginning.  Returns 0; SS_EINPUT when the file cannot be read (err
 * says why) or a line grows past the bound; SS_ENOMEM. */
int ss_tail_poll(struct ss_tail *t, const char **lines, size_t *len, int *restart,
                 struct ss_error *err);

/* Bytes written and not read yet: after the offset read (a partial last
 * line read and held is not counted: nothing is to be done until it ends);
 * a truncated file's whole size; a replacement's size too (at least 1).
 * 0 when it cannot tell.  Two stat(2) calls: cheap enough for every tick. */
uint64_t ss_tail_behind(const struct ss_tail *t);

/* Close t; a zeroed struct is a no-op. */
void ss_tail_close(struct ss_tail *t);

#endif
