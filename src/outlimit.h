/* outlimit.h - the size guard of every output.
 *
 * A profile can describe far more output than it holds: a 234-byte pprof
 * file (a 100 KB name in a stack of 10,000 frames, gzip-compressed) makes a
 * gigabyte of folded stacks, SVG or `report --by stacks`.  So every output
 * (what `convert` writes, the explorer's :w, and the tables `report`
 * prints) is refused when it would be over SS_OUT_FLOOR (64 MiB) and over
 * SS_OUT_FACTOR (100) times the size of the inputs, unless forced (--force,
 * :w!): before writing where the size can be told from the model (Rprof,
 * speedscope, tables, folded, the stacks and tree tables), else as soon as
 * the output reaches the limit (ss_out_capped: a file is then not written
 * at all, standard output stops there).  The man page (OUTPUT SIZE) says
 * the same.
 *
 * Independently of any limit, no line is built in memory that is longer
 * than SS_MAX_LINE: a stack's text (its names joined) beyond that is
 * refused, forced or not, as a reader refuses such a line.
 */
#ifndef SS_OUTLIMIT_H
#define SS_OUTLIMIT_H

#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "limits.h"

#define SS_OUT_FACTOR 100
#define SS_OUT_FLOOR ((uint64_t)64 << 20)

/* The longest line built or written: what a reader takes from a pipe. */
#define SS_MAX_LINE SS_MAX_STREAM_LINE

/* No limit (forced). */
#define SS_OUT_UNLIMITED UINT64_MAX

/* Bytes of the files `paths` name (a directory: its regular files). */
uint64_t ss_out_input_bytes(char *const *paths, int n);

/* The largest output allowed for inputs of `in` bytes. */
uint64_t ss_out_limit(uint64_t in);

/* "1.9 GB" (by 1024, as the tables' human units). */
void ss_out_human(char *buf, size_t cap, uint64_t v);

/* Set err to the refusal of an output named `what` ("standard output",
 * a path) of about `size` bytes (0: unknown, it reached the limit) for
 * inputs of `in` bytes, `why` (may be NULL) saying what makes it large;
 * `partial`: what came before the limit is out (standard output).
 * Returns SS_EBIG. */
int ss_out_refuse(struct ss_error *err, const char *what, uint64_t size, uint64_t in,
                  const char *why, int partial);

/* A stream that passes at most `limit` bytes on to `to` and then fails (a
 * write error, EFBIG): ss_out_capped opens it over c (caller's storage,
 * alive while the stream is), ss_out_uncap flushes and closes it, leaving
 * `to` open, and returns 1 when the limit was reached (nothing past it was
 * written), 0 otherwise, -1 on another write error of `to`.  NULL when it
 * cannot be made (out of memory). */
struct ss_outcap {
    FILE *to;
    uint64_t limit, written;
    int over;
};
FILE *ss_out_capped(struct ss_outcap *c, FILE *to, uint64_t limit);
int ss_out_uncap(FILE *capped, struct ss_outcap *c);

/* The decimal digits of v (an output's size estimate: a count, a line
 * number, an id as written). */
static inline unsigned ss_digits(uint64_t v)
{
    unsigned k = 1;
    while (v >= 10) {
        v /= 10;
        k++;
    }
    return k;
}

#endif
