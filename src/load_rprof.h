/* load_rprof.h - reader of R's Rprof() output (stackscope(1), INPUT and Rprof).
 *
 * Every variant R writes: plain, memory (`:small_v:big_v:nodes:dup_count:`
 * prefixes), GC ("<GC>" frames), line profiling (`#File N: path` lines and
 * `F#L` tokens), any combination, several sessions in one file (a later
 * header starts a new source with its own interval and flags), LF, CRLF or CR
 * line ends, and a cut-off last line (dropped with a warning).
 *
 * Positions: the `F#L` token just before a name is that frame's location (its
 * current line); a token after the outermost name becomes the stack's tail
 * position.  Together they keep every token of the line, so the exact text
 * can be written back, and R's lines="show" statistics follow from them.
 */
#ifndef SS_LOAD_RPROF_H
#define SS_LOAD_RPROF_H

#include <stddef.h>

#include "model.h"
#include "reader.h"
#include "rprof.h"

/* True when the `len` bytes at `line` are an Rprof header line. */
int ss_rprof_is_header(const char *line, size_t len);

/* Load an Rprof file from an open reader into m (adding one source per
 * session).  `path` names the file in messages.  Returns 0, or an error code
 * with err naming the file, line and column of the problem. */
int ss_load_rprof(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err);

#endif
