/* reader.h - a buffered line reader for text profiles.
 *
 * Files are read with read(2) in large blocks; with STACKSCOPE_MMAP=1
 * (ss_reader_mapping) regular files are read through a sliding mmap(2)
 * window of 32 MiB instead.  It splits lines on LF, CRLF or CR (the first
 * line end seen decides between "LF, with an optional CR before it" and "CR
 * only"), counts lines from 1 and byte offsets from 0.  A line of a regular
 * file is limited only by the file's size; from a pipe or device,
 * lines longer than SS_MAX_STREAM_LINE (limits.h) are refused instead of
 * growing the buffer without bound.
 *
 * A file that changes while it is read: a regular file is read up to its
 * size when it was opened (bytes written after it are not read), through
 * mappings a truncation cannot crash (inmap.h).  When bytes the reader has
 * not read yet are gone (the file was cut: a mapped page lost, or a read
 * that ends early), the reader ends its input after the last whole line
 * before them: the line it was in is dropped, never taken half, and `cut`
 * says so.  ss_reader_changed then tells what happened to the file; the
 * loaders' caller turns that into a warning or an error (load.c).
 */
#ifndef SS_READER_H
#define SS_READER_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "inmap.h"

/* What a regular file was when it was opened. */
struct ss_file_id {
    uint64_t dev, ino, size;
    int64_t mtime_s, mtime_ns;
};

struct ss_load_opts;

struct ss_reader {
    int fd;
    const char *path; /* borrowed; for messages */
    char *buf;        /* read mode: owned buffer; map mode: the mapped window */
    size_t cap, start, end;
    int mapped;          /* map mode */
    struct ss_inmap win; /* map mode, windows of its own: the window's mapping */
    uint64_t map_off;    /* file offset of the window */
    uint64_t fsize;      /* a regular file: its size when opened (no byte after
                          * it is read); else 0 */
    int regular;         /* a regular file: id is valid */
    struct ss_file_id id;
    int cut;         /* the input ended before its end: the file lost bytes */
    uint64_t cut_at; /* then: the file offset of the first byte not read (the
                      * start of the line dropped) */
    int read_whole;  /* ss_reader_whole gave the file as one block */
    int eof;
    int mode;          /* 0 undecided, 1 LF (CRLF), 2 CR only */
    uint64_t line_no;  /* number of the line last returned (1-based) */
    uint64_t offset;   /* byte offset of the line last returned */
    uint64_t next_off; /* byte offset of the next line */
    size_t max_line;   /* longest line accepted, in bytes: a regular file's size
                        * (at least SS_MAX_STREAM_LINE), else SS_MAX_STREAM_LINE */
    int ranged;        /* a byte range of a file (ss_reader_open_range): mapped in
                        * windows of 4 MiB or read with pread, fd not owned */
    uint64_t pos;      /* read mode: file offset of the next read */
    uint64_t lim;      /* ranged: the end of the range */
    uint64_t rstart;   /* ranged: the range's start */
    int populated;     /* a window of this range was populated from `whole` */
    /* ranged and mapped: see ss_reader_use_whole (NULL: each window is
     * mapped and unmapped) */
    const struct ss_inmap *whole;
    /* the options of the load reading this file (load.h; NULL: defaults),
     * and which of its files it is (0-based) of how many: set by
     * ss_load_file after opening, for the readers (ss_load_progress) */
    const struct ss_load_opts *opts;
    int file, nfiles;
    /* mapped: lines are handed out in place, and the caller asks
     * ss_reader_line_lost itself (the Rprof loader); else each line is
     * copied to `copy` and checked before it is handed out */
    int in_place;
    char *copy;
    size_t copy_cap;
};

/* Are regular files mapped (mmap) rather than read (read, pread)?  Only
 * with STACKSCOPE_MMAP set (not to 0) and STACKSCOPE_NO_MMAP unset.
 * Reading is the default: where page faults are dear (a virtual machine
 * that traps page-table updates) a mapped 3 GB file loaded in 1.6 s and a
 * read one in 0.7 s, and a read cannot be killed by SIGBUS when the file
 * shrinks; bench/README.md has the figures. */
int ss_reader_mapping(void);

/* Open `path` for reading.  Returns 0, or SS_EINPUT with a message naming the
 * file (missing, unreadable, a directory). */
int ss_reader_open(struct ss_reader *r, const char *path, struct ss_error *err);

/* Open `path` as ss_reader_open does, but only a regular file: a FIFO,
 * device or socket is refused (SS_EINPUT) without blocking on its open. */
int ss_reader_open_regular(struct ss_reader *r, const char *path, struct ss_error *err);

/* Open a reader over the bytes [start, end) of the open regular file `fd`
 * (borrowed: ss_reader_close leaves it open), so several threads can each
 * read a range of one file (the parallel Rprof loader).  The range is read
 * with pread(2) into a buffer of its own, or, when files are mapped
 * (ss_reader_mapping), mapped in windows of 4 MiB as it is read
 * (MAP_POPULATE: no copy, no page fault per page; a line longer than half a
 * window gets a larger one) until a mapping fails.  Lines end in LF (with an optional CR before
 * it): the caller knows the file's first line end is no lone CR.  Lines are
 * numbered from 1 and offsets counted from 0 within the range; a line
 * longer than max_line is refused.  Returns 0 or SS_ENOMEM. */
int ss_reader_open_range(struct ss_reader *r, int fd, const char *path, uint64_t start,
                         uint64_t end, size_t max_line, struct ss_error *err);

/* Aim a reader opened by ss_reader_open_range at another range of its
 * file, keeping its buffer (a worker reads one chunk after another); the
 * mapping of the range before is released (a range [end, end) releases it
 * and maps nothing). */
void ss_reader_range(struct ss_reader *r, uint64_t start, uint64_t end);

/* Let a mapped ranged reader take its windows from `whole`, a mapping of
 * the whole file (the caller's, made with ss_inmap_map and unmapped after
 * the reader is closed): they are populated and dropped with madvise(2),
 * not mapped and unmapped, so that the threads of the parallel loader do
 * not take the address space's lock for writing at every window. */
void ss_reader_use_whole(struct ss_reader *r, const struct ss_inmap *whole);

/* Aim r at len bytes of memory, whole lines each ending in LF: the lines
 * handed out by a file followed as it is written (tail.h), read by the
 * loader that follows it.  The memory is borrowed, not copied.  Line
 * numbers and offsets go on from where r was, so that messages name the
 * file's own lines; a zeroed r starts at line 1.  Nothing of r is to be
 * closed: it reads no file (fd -1) and owns no buffer. */
void ss_reader_over(struct ss_reader *r, const char *path, const char *buf, size_t len);

/* Read the next line.  Returns 1 and sets *line and *len (without the line end;
 * borrowed until the next call) and *terminated (0 when the file ended
 * without a line end), 0 at end of file, or -1 with err set (I/O error, line
 * too long). */
int ss_reader_next(struct ss_reader *r, const char **line, size_t *len, int *terminated,
                   struct ss_error *err);

/* The bytes buffered after the last line read, without reading any: a
 * parser that recognises a whole line in them (the Rprof loader's line
 * cache) takes it with ss_reader_take_line and skips the search for its
 * end.  0 until the reader knows its lines end in LF (or CR LF). */
static inline size_t ss_reader_buffered(const struct ss_reader *r, const char **p)
{
    if (r->mode != 1 || !r->buf)
        return 0;
    *p = r->buf + r->start;
    return r->end - r->start;
}

/* Take the first n buffered bytes as the next line: they end in its LF
 * (the caller saw it at byte n - 1, and no other LF before it). */
static inline void ss_reader_take_line(struct ss_reader *r, size_t n)
{
    r->line_no++;
    r->offset = r->next_off;
    r->next_off += n;
    r->start += n;
}

/* A mapped file cut while it is read reads zeros where its pages were
 * lost (inmap.h), and a page may be lost while a line is parsed: its bytes
 * read before and after differ.  Were any bytes of the line just returned
 * (or taken) lost by now?  Ask after parsing it and before keeping what it
 * says (a sample); when so, drop it (ss_reader_drop_line) and take nothing
 * of it, or fail.  Always 0 for a file that is read, not mapped. */
int ss_reader_lost_(const struct ss_reader *r);
static inline int ss_reader_line_lost(const struct ss_reader *r)
{
    return r->mapped && ss_reader_lost_(r);
}

/* ss_reader_line_lost, or the file is now shorter than the line's end: a
 * cut inside a mapped page zeros its bytes after the new end without a
 * fault.  For a line found bad (one fstat(2)). */
int ss_reader_line_gone(const struct ss_reader *r);

/* Drop the line just returned (or taken): the input was cut at its start,
 * and ends there (ss_reader_changed says so). */
void ss_reader_drop_line(struct ss_reader *r);

/* Peek at the first bytes of the file without consuming them: up to `n`
 * bytes are made available in *p; returns how many (0 for an empty file) or
 * -1 on error. */
long ss_reader_peek(struct ss_reader *r, const char **p, size_t n, struct ss_error *err);

void ss_reader_close(struct ss_reader *r);

/* The whole file (what has not been consumed) as one block of memory, for
 * formats that are parsed whole (pprof, JSON): a regular file is mapped
 * (read with pread(2) when it cannot be), a pipe is read to its end after
 * what the reader buffered.  At most `limit` bytes, else an error "PATH:
 * larger than N MiB, the limit`what`" (what: "" or " for JSON"); an empty
 * regular file is an error.  Release the block with ss_reader_whole_free,
 * which notes a cut in the reader when bytes of the mapping were lost (what
 * was parsed was then not the file: ss_reader_changed says so). */
struct ss_whole {
    const void *p;
    size_t n;
    struct ss_inmap map; /* p's mapping (map.slot < 0: p is malloc'd) */
    struct ss_reader *r; /* told, when the block is released, of bytes lost */
};
int ss_reader_whole(struct ss_reader *r, size_t limit, const char *what, struct ss_whole *w,
                    struct ss_error *err);
void ss_reader_whole_free(struct ss_whole *w);

/* Note that the input ended early at file offset `at` (a reader of a part
 * of the file, such as a chunk of the parallel Rprof loader, was cut). */
static inline void ss_reader_note_cut(struct ss_reader *r, uint64_t at)
{
    if (!r->cut || at < r->cut_at)
        r->cut_at = at;
    r->cut = 1;
}

/* How a regular file changed while it was read, as ss_reader_changed finds
 * it comparing the file now with what it was when opened. */
enum ss_change_kind {
    SS_CHANGE_NONE,
    SS_CHANGE_CUT,      /* bytes not read yet were gone: the input ended before them */
    SS_CHANGE_SHRANK,   /* smaller now, but read whole before it shrank */
    SS_CHANGE_REPLACED, /* its name now names another file, or none: the one
                         * opened was read whole */
    SS_CHANGE_GREW,     /* larger now: read up to its size when opened */
    SS_CHANGE_MODIFIED, /* modified since it was opened (its size the same):
                         * what was read may mix old and new bytes */
};
struct ss_change {
    enum ss_change_kind kind;
    uint64_t was, now; /* its size when opened, and now (0: gone) */
    uint64_t kept;     /* SS_CHANGE_CUT: the bytes before the first one not read */
};

/* What happened to r's file while it was read (call it after reading, before
 * ss_reader_close): the first kind of the list above that applies.  Anything
 * but a regular file has not changed. */
void ss_reader_changed(struct ss_reader *r, struct ss_change *c);

#endif
