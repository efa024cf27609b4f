/* reader.c - buffered line reader (see reader.h). */
#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "limits.h"
#include "vec.h"

#define SS_READ_BLOCK (1u << 20)
#define SS_RANGE_BLOCK (64u << 10) /* a range's reads: the parser finds them in L2 */
#define SS_MAP_WINDOW (32u << 20)  /* grows for a longer line (map_next) */
#define SS_MAP_FIRST (1u << 20)    /* the first: what the format detection peeks at */
#define SS_RANGE_WINDOW (4u << 20) /* a range's: a worker's file pages in memory */
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22 /* Linux 5.14; older kernels refuse it (EINVAL): pages fault */
#endif

int ss_reader_mapping(void)
{
    const char *on = getenv("STACKSCOPE_MMAP");
    return on && *on && strcmp(on, "0") != 0 && !getenv("STACKSCOPE_NO_MMAP");
}

/* ---- a pause for tests ------------------------------------------------------
 *
 * STACKSCOPE_TEST_PAUSE=OFFSET:FIFO (for tests; the man page's ENVIRONMENT):
 * the first reader that has mapped the byte at OFFSET of its file (and read
 * its pages in), or is about to read it, writes "OFFSET\n" to the FIFO and
 * waits until something opens the FIFO, writes and closes it, so that a
 * test changes the file at a known point of a load, in any thread. */
static struct test_hook {
    pthread_once_t once;
    uint64_t at;
    const char *fifo;
    atomic_int fired;
} test_hook = {PTHREAD_ONCE_INIT, 0, NULL, 0};

static void test_hook_init(void)
{
    const char *e = getenv("STACKSCOPE_TEST_PAUSE");
    char *end;
    if (!e || !*e)
        return;
    unsigned long long v = strtoull(e, &end, 10);
    if (end != e && *end == ':' && end[1])
        test_hook.at = v, test_hook.fifo = end + 1;
}

/* The bytes [a, b) of the file are mapped, or about to be read. */
static void test_pause(uint64_t a, uint64_t b)
{
    pthread_once(&test_hook.once, test_hook_init);
    if (!test_hook.fifo || test_hook.at < a || test_hook.at >= b ||
        atomic_exchange(&test_hook.fired, 1))
        return;
    char msg[32], sink[64];
    int n = snprintf(msg, sizeof msg, "%llu\n", (unsigned long long)test_hook.at);
    int fd = open(test_hook.fifo, O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t w = write(fd, msg, (size_t)n);
        (void)w;
        close(fd);
    }
    fd = open(test_hook.fifo, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        while (read(fd, sink, sizeof sink) > 0)
            ;
        close(fd);
    }
}

/* ---- opening ------------------------------------------------------------- */

static void file_id(struct ss_file_id *id, const struct stat *st)
{
    id->dev = (uint64_t)st->st_dev;
    id->ino = (uint64_t)st->st_ino;
    id->size = (uint64_t)st->st_size;
    id->mtime_s = (int64_t)st->st_mtim.tv_sec;
    id->mtime_ns = (int64_t)st->st_mtim.tv_nsec;
}

static int reader_open(struct ss_reader *r, const char *path, int regular_only,
                       struct ss_error *err)
{
    memset(r, 0, sizeof *r);
    r->win.slot = -1;
    r->fd = -1;
    r->path = path;
    r->max_line = SS_MAX_STREAM_LINE;
    /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
    int fd = open(path, O_RDONLY | (regular_only ? O_NONBLOCK : 0));
    if (fd < 0)
        return ss_fail(err, SS_EINPUT, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return ss_fail(err, SS_EINPUT, "%s: is a directory, not a profile", path);
    }
    if (regular_only) {
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            close(fd);
            return ss_fail(err, SS_EINPUT, "%s: not a regular file (a FIFO, device or socket)",
                           path);
        }
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    }
#ifdef POSIX_FADV_SEQUENTIAL
    posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    int regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    /* A line of a regular file is at most the file: no limit of its own,
     * so every line stackscope writes (a stack of SS_MAX_FRAMES long names)
     * reads back.  Mapped, it costs no heap; read(2), at most twice the
     * line.  A pipe or device has no size: SS_MAX_STREAM_LINE. */
    if (regular && (uint64_t)st.st_size > r->max_line)
        r->max_line = (uint64_t)st.st_size > SIZE_MAX / 4 ? SIZE_MAX / 4 : (size_t)st.st_size;
    if (regular) {
        /* what was read is the file as it was opened: ss_reader_changed */
        r->regular = 1;
        file_id(&r->id, &st);
        r->fsize = r->id.size;
        r->eof = r->fsize == 0;
    }
    if (regular && ss_reader_mapping()) {
        r->fd = fd;
        r->mapped = 1;
        return 0;
    }
    r->cap = SS_READ_BLOCK * 2;
    r->buf = malloc(r->cap);
    if (!r->buf) {
        close(fd);
        return ss_nomem(err, "read buffer");
    }
    r->fd = fd;
    return 0;
}

int ss_reader_open(struct ss_reader *r, const char *path, struct ss_error *err)
{
    return reader_open(r, path, 0, err);
}

int ss_reader_open_regular(struct ss_reader *r, const char *path, struct ss_error *err)
{
    return reader_open(r, path, 1, err);
}

/* A ranged reader's buffer for pread(2). */
static int range_buffer(struct ss_reader *r, struct ss_error *err)
{
    r->mapped = 0;
    r->cap = SS_RANGE_BLOCK * 4;
    r->buf = malloc(r->cap);
    if (!r->buf)
        return ss_nomem(err, "read buffer");
    return 0;
}

int ss_reader_open_range(struct ss_reader *r, int fd, const char *path, uint64_t start,
                         uint64_t end, size_t max_line, struct ss_error *err)
{
    memset(r, 0, sizeof *r);
    r->win.slot = -1;
    r->fd = fd;
    r->path = path;
    r->max_line = max_line;
    r->ranged = 1;
    r->regular = 1;
    r->mode = 1;
    r->pos = r->rstart = start;
    r->lim = end;
    r->eof = start >= end;
    if (ss_reader_mapping()) {
        r->mapped = 1; /* mapped window by window when read (map_next) */
        r->map_off = start;
        return 0;
    }
    return range_buffer(r, err);
}

/* Release the mapped window: unmapped, or in a mapping of the whole file
 * (r->whole), its pages dropped from this process (madvise takes the
 * address space's lock for reading only; munmap for writing, and the
 * threads of the parallel loader, mapping and unmapping windows, and the
 * merge, faulting in the model's pages, waited for each other). */
static void window_release(struct ss_reader *r)
{
    if (!r->buf)
        return;
    if (r->whole)
        madvise(r->buf, r->end, MADV_DONTNEED);
    else
        ss_inmap_unmap(&r->win);
}

/* Leaving a range read from a whole-file mapping: populating a window
 * also maps pages around it (the kernel's fault-around, within a page
 * table's 2 MiB), and those before and after the range stayed mapped:
 * dropped, 2 MiB either side (the whole mapping's: pages another thread
 * reads fault back in from the page cache). */
static void range_release(struct ss_reader *r)
{
    const uint64_t span = (uint64_t)2 << 20;
    if (!r->whole || !r->populated || r->lim <= r->rstart)
        return;
    r->populated = 0;
    uint64_t a = r->rstart - r->rstart % span, e = r->lim + (span - r->lim % span) % span;
    if (e > r->whole->n)
        e = r->whole->n;
    madvise(r->whole->p + a, (size_t)(e - a), MADV_DONTNEED);
}

void ss_reader_use_whole(struct ss_reader *r, const struct ss_inmap *whole)
{
    r->whole = whole;
}

void ss_reader_range(struct ss_reader *r, uint64_t start, uint64_t end)
{
    if (r->mapped) {
        window_release(r);
        range_release(r);
    }
    r->rstart = start;
    if (r->mapped) {
        r->buf = NULL;
        r->map_off = start;
    }
    r->start = r->end = 0;
    r->pos = start;
    r->lim = end;
    r->eof = start >= end;
    r->cut = 0;
    r->cut_at = 0;
    r->line_no = r->offset = r->next_off = 0;
}

void ss_reader_over(struct ss_reader *r, const char *path, const char *buf, size_t len)
{
    r->fd = -1;
    r->path = path;
    r->buf = (char *)(uintptr_t)buf; /* read only: never written nor freed */
    r->cap = r->end = len;
    r->start = 0;
    r->mapped = r->regular = r->ranged = 0;
    r->eof = 1;
    r->mode = 1;
    r->fsize = 0;
    r->max_line = SS_MAX_STREAM_LINE;
}

void ss_reader_close(struct ss_reader *r)
{
    if (r->fd >= 0 && !r->ranged)
        close(r->fd);
    if (r->mapped) {
        window_release(r);
        range_release(r);
    } else {
        free(r->buf);
    }
    r->buf = NULL;
    r->fd = -1;
    free(r->copy);
    r->copy = NULL;
    r->copy_cap = 0;
}

/* ---- a file that changes while it is read -------------------------------- */

/* End the input at the line being read (the first byte not returned yet):
 * the bytes after it were lost, and the line is dropped, never taken half.
 * Returns 0 (nothing more). */
static long cut_here(struct ss_reader *r)
{
    ss_reader_note_cut(r, (r->ranged ? r->rstart : 0) + r->next_off);
    r->start = r->end;
    r->eof = 1;
    return 0;
}

int ss_reader_lost_(const struct ss_reader *r)
{
    if (!r->buf)
        return 0;
    /* the line's bytes were read before `lost` is: the handler lowers it
     * before it maps the zeros (inmap.c) */
    atomic_thread_fence(memory_order_acquire);
    uint64_t lost = ss_inmap_lost(r->whole ? r->whole : &r->win);
    return lost < (r->ranged ? r->rstart : 0) + r->next_off;
}

int ss_reader_line_gone(const struct ss_reader *r)
{
    struct stat st;
    if (!r->mapped || !r->buf)
        return 0;
    return ss_reader_lost_(r) || (fstat(r->fd, &st) == 0 &&
                                  (uint64_t)st.st_size < (r->ranged ? r->rstart : 0) + r->next_off);
}

void ss_reader_drop_line(struct ss_reader *r)
{
    r->next_off = r->offset;
    if (r->line_no)
        r->line_no--;
    cut_here(r);
}

/* Were bytes of the mapped window lost (a page past the file's end
 * faulted, and the window reads zeros from there)?  A loss anywhere before
 * the window's end counts: from it on, the mapping is zeros. */
static int window_lost(const struct ss_reader *r)
{
    if (!r->mapped || !r->buf)
        return 0;
    uint64_t lost = ss_inmap_lost(r->whole ? r->whole : &r->win);
    return lost < r->map_off + r->end;
}

/* At an unterminated last line of a regular file: is it all there?  A cut
 * inside the window's last page leaves no fault, only zeros after the new
 * end: the input ends before the line (a cut).  A file grown since it was
 * opened holds the rest of the line after what is read (a writer still at
 * it): the line is left out, not taken half (a folded line's count would
 * be cut).  Returns 1 when the line is left out. */
static int last_line_partial(struct ss_reader *r)
{
    if (!r->regular)
        return 0;
    uint64_t end = r->ranged ? r->lim : r->fsize, now = 0;
    int lost = window_lost(r);
    struct stat st;
    if (!lost) {
        if (fstat(r->fd, &st) != 0)
            return 0;
        now = (uint64_t)st.st_size;
    }
    if (lost || now < end) {
        cut_here(r);
        return 1;
    }
    if (now == end)
        return 0;
    r->start = r->end;
    r->eof = 1;
    return 1;
}

/* ---- filling the buffer --------------------------------------------------- */

/* Go on with read(2) from file offset pos: a window of a regular file that
 * could not be mapped (an address-space limit, or no room in inmap's
 * registry). */
static long read_from(struct ss_reader *r, uint64_t pos, struct ss_error *err)
{
    r->mapped = 0;
    r->pos = pos;
    r->start = r->end = 0;
    r->eof = 0;
    if (r->ranged)
        return range_buffer(r, err) ? -1 : 0;
    r->cap = SS_READ_BLOCK * 2;
    r->buf = malloc(r->cap);
    if (!r->buf)
        return ss_nomem(err, "read buffer"), -1;
    if (lseek(r->fd, (off_t)pos, SEEK_SET) < 0)
        return ss_fail(err, SS_EINPUT, "%s: cannot seek to byte %llu: %s", r->path,
                       (unsigned long long)pos, strerror(errno)),
               -1;
    return 0;
}

/* Map the next window after the bytes consumed, keeping the unread part
 * (the line in progress) at its start.  Returns bytes made available after
 * it (0 at the end) or -1. */
static long map_next(struct ss_reader *r, struct ss_error *err)
{
    if (window_lost(r))
        return cut_here(r);
    /* Map a new window starting at the page that holds the unread data, so
     * the current line stays contiguous.  A range (ss_reader_open_range)
     * has windows of its own size and ends at its end. */
    uint64_t pos = r->map_off + r->start, limit = r->ranged ? r->lim : r->fsize;
    uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    /* the file's first window is small: the format's detection peeks at
     * it, and the parallel Rprof loader reads the file with readers of
     * its own (a window of 32 MiB, populated, cost its start 2-3 ms and
     * stayed in memory while it loaded) */
    uint64_t off = pos - pos % page, window = r->ranged  ? SS_RANGE_WINDOW
                                              : pos == 0 ? SS_MAP_FIRST
                                                         : SS_MAP_WINDOW;
    /* A line longer than the window (a reader may raise max_line up to the
     * file's size) gets a window twice the part already seen. */
    uint64_t win = r->buf && r->end - r->start > window / 2
                       ? 2 * (uint64_t)(r->end - r->start) + page
                       : window;
    uint64_t len = limit - off < win ? limit - off : win;
    window_release(r);
    r->buf = NULL;
    r->start = r->end = 0;
    r->map_off = pos;
    if (pos >= limit) {
        r->eof = 1;
        return 0;
    }
    if (r->whole) {
        r->buf = r->whole->p + off;
        (void)madvise(r->buf, (size_t)len, MADV_POPULATE_READ); /* else faulted page by page */
        r->populated = 1;
    } else {
        if (ss_inmap_map(&r->win, r->fd, off, (size_t)len, SS_INMAP_POPULATE) != 0)
            return read_from(r, pos, err);
        madvise(r->win.p, (size_t)len, MADV_SEQUENTIAL);
        r->buf = r->win.p;
    }
    r->start = (size_t)(pos - off);
    r->end = (size_t)len;
    r->map_off = off;
    r->eof = off + len >= limit;
    test_pause(off, off + len);
    return (long)(len - (size_t)(pos - off));
}

static long fill(struct ss_reader *r, struct ss_error *err)
{
    if (r->mapped)
        return map_next(r, err);
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    if (r->cap - r->end < (r->ranged ? SS_RANGE_BLOCK : SS_READ_BLOCK)) {
        /* Only a line longer than the limit can get here; refuse it. */
        size_t ncap = r->cap * 2;
        char *nb = realloc(r->buf, ncap);
        if (!nb)
            return ss_nomem(err, "read buffer"), -1;
        r->buf = nb;
        r->cap = ncap;
    }
    /* a regular file is read up to its size when opened (a range to its end) */
    uint64_t limit = r->ranged ? r->lim : r->regular ? r->fsize : UINT64_MAX;
    for (;;) {
        size_t want = r->cap - r->end;
        if (r->ranged && want > SS_RANGE_BLOCK)
            want = SS_RANGE_BLOCK;
        if (want > limit - r->pos)
            want = (size_t)(limit - r->pos);
        if (want == 0) {
            r->eof = 1;
            return 0;
        }
        if (r->regular)
            test_pause(r->pos, r->pos + want);
        ssize_t k = !r->ranged ? read(r->fd, r->buf + r->end, want)
                               : pread(r->fd, r->buf + r->end, want, (off_t)r->pos);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return ss_fail(err, SS_EINPUT, "%s: read error at byte %llu: %s", r->path,
                           (unsigned long long)r->pos, strerror(errno)),
                   -1;
        if (k == 0 && r->regular)
            return cut_here(r); /* the file ended before its size when opened */
        if (k == 0)
            r->eof = 1;
        r->end += (size_t)k;
        r->pos += (uint64_t)k;
        return k;
    }
}

long ss_reader_peek(struct ss_reader *r, const char **p, size_t n, struct ss_error *err)
{
    while (!r->eof && r->end - r->start < n)
        if (fill(r, err) < 0)
            return -1;
    *p = r->buf ? r->buf + r->start : ""; /* an empty file has no buffer */
    size_t have = r->end - r->start;
    return (long)(have < n ? have : n);
}

/* Hand out the line just found (at *line, n bytes): a mapped file's page
 * may be lost to a cut while its caller parses it (ss_reader_line_lost),
 * so the line is copied (NUL after it) and then checked, unless the caller
 * reads in place and checks.  Returns 1, 0 (lost: the input ends at the
 * line's start) or -1. */
static int hand_out(struct ss_reader *r, const char **line, size_t n, struct ss_error *err)
{
    if (!r->mapped || r->in_place)
        return 1;
    if (ss_grow((void **)&r->copy, &r->copy_cap, n + 1, 1))
        return ss_nomem(err, "line buffer"), -1;
    memcpy(r->copy, *line, n);
    r->copy[n] = '\0';
    *line = r->copy;
    if (!ss_reader_lost_(r))
        return 1;
    ss_reader_drop_line(r);
    return 0;
}

int ss_reader_next(struct ss_reader *r, const char **line, size_t *len, int *terminated,
                   struct ss_error *err)
{
    size_t scanned = 0;
    for (;;) {
        size_t avail = r->end - r->start;
        /* a window that could not be mapped is read anew from the line's
         * start (map_next): only what is here again is known to be scanned */
        if (scanned > avail)
            scanned = avail;
        if (avail == 0 && !r->eof) {
            if (fill(r, err) < 0)
                return -1;
            continue;
        }
        if (avail == 0)
            return 0;
        char *s = r->buf + r->start;
        char *e = NULL;
        if (r->mode == 0) {
            char *lf = memchr(s + scanned, '\n', avail - scanned);
            char *cr = memchr(s + scanned, '\r', (lf ? (size_t)(lf - s) : avail) - scanned);
            if (cr && (cr + 1 < s + avail || r->eof)) {
                /* A CR decides only when we can see what follows it. */
                r->mode = (cr + 1 < s + avail && cr[1] == '\n') ? 1 : 2;
                continue;
            }
            if (lf) {
                r->mode = 1;
                continue;
            }
        } else {
            e = memchr(s + scanned, r->mode == 1 ? '\n' : '\r', avail - scanned);
        }
        if (e) {
            size_t n = (size_t)(e - s);
            size_t adv = n + 1;
            if (r->mode == 1 && n > 0 && s[n - 1] == '\r')
                n--;
            else if (r->mode == 2 && e + 1 < s + avail && e[1] == '\n')
                adv++; /* a stray CRLF in a CR file */
            if (n > r->max_line)
                goto too_long;
            *line = s;
            *len = n;
            *terminated = 1;
            r->line_no++;
            r->offset = r->next_off;
            r->next_off += adv;
            r->start += adv;
            return hand_out(r, line, n, err);
        }
        if (r->mode)
            scanned = avail; /* in mode 0 the first line is rescanned (short) */
        if (avail > r->max_line)
            goto too_long;
        if (r->eof) {
            if (avail == 0)
                return 0;
            if (last_line_partial(r))
                return 0;
            *line = s;
            *len = avail;
            if (r->mode == 2 && avail && s[avail - 1] == '\r')
                (*len)--;
            *terminated = 0;
            r->line_no++;
            r->offset = r->next_off;
            r->next_off += avail;
            r->start = r->end;
            return hand_out(r, line, *len, err);
        }
        if (fill(r, err) < 0)
            return -1;
        /* fill() may have moved the data to the front; `scanned` is relative. */
    }
too_long:
    return ss_fail(err, SS_EINPUT, "%s:%llu: line longer than %zu bytes (byte offset %llu)",
                   r->path, (unsigned long long)r->line_no + 1, r->max_line,
                   (unsigned long long)r->next_off),
           -1;
}

/* The regular file's bytes [0, fsize) read with pread(2) into w (a mapping
 * could not be made, or files are read: ss_reader_mapping): a read that ends early is a
 * cut. */
static int whole_read(struct ss_reader *r, struct ss_whole *w, struct ss_error *err)
{
    char *buf = malloc((size_t)r->fsize);
    if (!buf)
        return ss_nomem(err, "reading the file");
    size_t n = 0;
    while (n < r->fsize) {
        test_pause(n, r->fsize);
        ssize_t k = pread(r->fd, buf + n, (size_t)r->fsize - n, (off_t)n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            int e = errno;
            free(buf);
            return ss_fail(err, SS_EINPUT, "%s: read error at byte %zu: %s", r->path, n,
                           strerror(e));
        }
        if (k == 0) {
            ss_reader_note_cut(r, n);
            break;
        }
        n += (size_t)k;
    }
    w->p = buf;
    w->n = n;
    return 0;
}

int ss_reader_whole(struct ss_reader *r, size_t limit, const char *what, struct ss_whole *w,
                    struct ss_error *err)
{
    memset(w, 0, sizeof *w);
    w->map.slot = -1;
    w->r = r;
    const char *path = r->path;
    if (r->regular) {
        if (r->fsize == 0)
            return ss_fail(err, SS_EINPUT, "%s: empty file", path);
        if (r->fsize > limit)
            return ss_fail(err, SS_EINPUT, "%s: larger than %zu MiB, the limit%s", path,
                           limit >> 20, what);
        r->read_whole = 1;
        if (!r->mapped || ss_inmap_map(&w->map, r->fd, 0, (size_t)r->fsize, 0) != 0)
            return whole_read(r, w, err);
        w->p = w->map.p;
        w->n = (size_t)r->fsize;
        test_pause(0, r->fsize);
        return 0;
    }
    /* A pipe: what the reader has buffered, then the rest. */
    const char *peek;
    if (ss_reader_peek(r, &peek, 1, err) < 0)
        return err->code;
    size_t n = r->end - r->start, cap = n + (1u << 20);
    char *buf = malloc(cap);
    if (!buf)
        return ss_nomem(err, "reading the file");
    memcpy(buf, r->buf + r->start, n);
    for (;;) {
        if (n == cap) {
            if (cap > limit) {
                free(buf);
                return ss_fail(err, SS_EINPUT, "%s: larger than %zu MiB, the limit%s", path,
                               limit >> 20, what);
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                return ss_nomem(err, "reading the file");
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t k = read(r->fd, buf + n, cap - n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0) {
            int e = errno;
            free(buf);
            return ss_fail(err, SS_EINPUT, "%s: read error at byte %zu: %s", path, n, strerror(e));
        }
        if (k == 0)
            break;
        n += (size_t)k;
    }
    w->p = buf;
    w->n = n;
    return 0;
}

void ss_reader_whole_free(struct ss_whole *w)
{
    if (w->map.slot >= 0) {
        uint64_t lost = ss_inmap_lost(&w->map);
        if (lost != UINT64_MAX && w->r)
            ss_reader_note_cut(w->r, lost);
        ss_inmap_unmap(&w->map);
    } else {
        free((void *)(uintptr_t)w->p);
    }
    memset(w, 0, sizeof *w);
    w->map.slot = -1;
}

void ss_reader_changed(struct ss_reader *r, struct ss_change *c)
{
    memset(c, 0, sizeof *c);
    if (!r->regular || r->ranged || r->fd < 0)
        return;
    c->was = r->id.size;
    struct stat st, named;
    int have = fstat(r->fd, &st) == 0;
    c->now = have ? (uint64_t)st.st_size : 0;
    int same = stat(r->path, &named) == 0 && (uint64_t)named.st_dev == r->id.dev &&
               (uint64_t)named.st_ino == r->id.ino;
    if (r->cut) {
        c->kind = SS_CHANGE_CUT;
        c->kept = r->cut_at;
    } else if (!same) {
        c->kind = SS_CHANGE_REPLACED;
    } else if (have && c->now < c->was) {
        c->kind = SS_CHANGE_SHRANK;
    } else if (have && c->now > c->was) {
        c->kind = SS_CHANGE_GREW;
    } else if (have && ((int64_t)st.st_mtim.tv_sec != r->id.mtime_s ||
                        (int64_t)st.st_mtim.tv_nsec != r->id.mtime_ns)) {
        c->kind = SS_CHANGE_MODIFIED;
    }
}
