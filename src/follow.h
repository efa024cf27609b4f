/* follow.h - a profile read while it is written (stackscope(1), FOLLOWING):
 * an R job under Rprof(), `perf script` piped to a file, or a folded-stacks
 * file a collector appends to.
 *
 * The file is read by tail.h (complete lines only, never holding the
 * writer back) and its lines are parsed into one model that stays open for
 * more: the reader's state (Rprof's session, its `#File` lines, its line
 * cache; perf's open sample) lives from one poll to the next, so that a
 * poll costs what its new lines cost.  The format is told by the file's
 * first line that is neither blank nor a '#' comment: an Rprof header, a
 * perf sample's header, or a folded line `STACK COUNT` (the text formats a
 * writer appends to line by line).  A file truncated or replaced (a new Rprof() on the same name)
 * starts new sources in the same model; the old file's checks and warnings
 * are given then, as a load gives them.
 *
 * The model is given with each call: the caller may move the struct (the
 * explorer takes it over), but it must be the same model, never sealed
 * (model.h), and nothing may read it during a poll.
 */
#ifndef SS_FOLLOW_H
#define SS_FOLLOW_H

#include <stdint.h>

#include "error.h"
#include "model.h"

struct ss_follow;

/* What one poll brought. */
struct ss_follow_news {
    uint64_t samples; /* samples added (count values: a folded row counts its count) */
    uint64_t bytes;   /* bytes of lines read */
    int restarted;    /* the file was truncated or replaced: new sources began */
};

/* Follow `path` into m (initialised, not sealed): from its beginning, or
 * (from_end) from its end, reading only the Rprof header and `#File` lines
 * before it, so that the samples written from now on are the profile.
 * Folded rows get the interval folded_interval_us (0: counts only, as
 * load.h's folded reader).  Nothing is read into m before the first poll
 * (from_end: the lines before the end are).  Returns 0, or SS_EINPUT with
 * err naming the file (missing, not a regular file, neither format). */
int ss_follow_open(struct ss_follow **out, struct ss_model *m, const char *path, int from_end,
                   double folded_interval_us, struct ss_error *err);

/* Read what was appended since the last poll (at most SS_TAIL_MAX_POLL
 * bytes: poll again while ss_follow_behind says more is there) into m.
 * Returns 0 with *news filled, or an error code with err naming the file,
 * line and column: the lines before the bad one are in m, and the follow
 * is over (every later poll gives the same error). */
int ss_follow_poll(struct ss_follow *f, struct ss_model *m, struct ss_follow_news *news,
                   struct ss_error *err);

/* Bytes written to the file and not read yet. */
uint64_t ss_follow_behind(const struct ss_follow *f);

/* The file's format once its first line is read ("Rprof", "perf script",
 * "folded"), else NULL. */
const char *ss_follow_format(const struct ss_follow *f);

/* Stop following: the checks and warnings of the file's end go to m's
 * warnings (m may be NULL: none).  NULL is a no-op. */
void ss_follow_free(struct ss_follow *f, struct ss_model *m);

#endif
