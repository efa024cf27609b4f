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

/* Following a file while R writes it (follow.h): a parser kept between
 * batches of complete lines, so that each batch goes on from the state
 * the one before left (the session, its `#File` lines, its line cache).
 * The lines come from r, the follower's reader aimed at each batch
 * (ss_reader_over: its line numbers go on, and name the file's lines in
 * messages).  The model is given anew with every call (the caller may have
 * moved the struct); it must be the same model and not sealed. */
struct ss_rprof_stream;

/* A parser of the file r names, adding to m.  NULL when memory runs out
 * (err says so). */
struct ss_rprof_stream *ss_rprof_stream_new(struct ss_model *m, struct ss_reader *r,
                                            struct ss_error *err);

/* Parse the lines r is aimed at (whole lines, each ending in LF).  Returns
 * 0, or an error code with err naming the file, line and column (the lines
 * before the bad one are in m). */
int ss_rprof_stream_feed(struct ss_rprof_stream *s, struct ss_model *m, struct ss_reader *r,
                         struct ss_error *err);

/* The end of the file (it was truncated or replaced, or the follow ends):
 * the whole file's checks and warnings, as a load gives them.  Returns 0
 * or an error code (no header in the file). */
int ss_rprof_stream_end(struct ss_rprof_stream *s, struct ss_model *m, struct ss_reader *r,
                        struct ss_error *err);

void ss_rprof_stream_free(struct ss_rprof_stream *s);

#endif
