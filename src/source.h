/* source.h - the source files a profile names: where they are found and
 * their lines (stackscope(1), SOURCE FILES), for the explorer's code pane,
 * `report --by list` and `convert --to tables --embed-sources`.
 *
 * A profile names a file by the path its profiler saw: Rprof's `#File N:
 * path` (relative to R's working directory, or absolute on the machine that
 * ran R), pprof's function filename.  Here such a path is looked for, in
 * this order:
 *   1. rewritten by each --source-map FROM=TO whose FROM is a prefix of it
 *      (at a '/' boundary: perf's --prefix);
 *   2. as written (a relative path from the current directory);
 *   3. a relative path next to each input profile;
 *   4. under each --source-path DIR: DIR/PATH, then DIR/ followed by each
 *      shorter tail of PATH, down to its basename (pprof's -source_path, and
 *      its -trim_path without having to name the prefix);
 *   5. carried in the profile (model.h: ss_model_source_text).
 * The first regular file found (at most SS_SOURCE_MAX_FILE bytes) is read.
 * Nothing here is cached: the callers keep what they read.
 */
#ifndef SS_SOURCE_H
#define SS_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "strbuf.h"

/* A file larger than this is not read (a source file is far smaller: one
 * this big is not source). */
#define SS_SOURCE_MAX_FILE ((size_t)16 << 20)

/* --source-map FROM=TO. */
struct ss_source_map {
    const char *from, *to;
};

/* Where files are looked for (all borrowed). */
struct ss_source_search {
    char *const *inputs; /* the input profiles (step 3) */
    size_t ninputs;
    const char *const *dirs; /* --source-path, in order */
    size_t ndirs;
    const struct ss_source_map *maps; /* --source-map, in order */
    size_t nmaps;
    const struct ss_model *m; /* the profile's carried files, or NULL */
};

/* A source file read into memory: its lines, 1-based. */
struct ss_source_file {
    char *text;    /* owned: the lines, each NUL-terminated (CR LF ends too) */
    size_t *off;   /* owned: line k starts at text + off[k - 1] */
    size_t nlines; /* a last line without a newline counts */
    char *where;   /* owned: the path it was read from, or "carried in the profile" */
};

/* Options of ss_source_read. */
enum {
    SS_SOURCE_EXPAND_TABS = 1u << 0, /* tabs become spaces to the next stop of 8 (a screen) */
};

/* Find and read the file the profile calls `path` (see the order above).
 * Returns 1 with *out filled (ss_source_file_free frees it), 0 when it is
 * found nowhere (then `tried`, when not NULL, gets the places looked at,
 * ", "-separated), or -1 when memory runs out. */
int ss_source_read(const struct ss_source_search *s, const char *path, unsigned flags,
                   struct ss_source_file *out, struct ss_strbuf *tried);

void ss_source_file_free(struct ss_source_file *f);

/* Line k (1-based) of f, or NULL past its end. */
static inline const char *ss_source_line(const struct ss_source_file *f, uint32_t k)
{
    return k >= 1 && k <= f->nlines ? f->text + f->off[k - 1] : NULL;
}

/* Split text t (malloc'ed, len bytes; taken over, freed on failure) into
 * lines into *out (where: a copy of `where`).  Returns 0 or -1 (out of
 * memory). */
int ss_source_from_text(char *t, size_t len, unsigned flags, const char *where,
                        struct ss_source_file *out);

/* What the message about file `path`, found nowhere, says after its name:
 * ": not found (tried A, B)" and the options that find it, written with
 * prefix `opt` ("--" on the command line, ":" in the explorer); for an
 * unnamed file (an empty path) that it has none.  Into b. */
void ss_source_missing(struct ss_strbuf *b, const struct ss_source_search *s, const char *path,
                       const char *tried, const char *opt);

/* The name people read for source file `file` (a string id of m; SS_NONE:
 * "NA", as R): its path, or for an empty path (Rprof's `#File N: ` with no
 * name: code typed at R's prompt, or run by profvis) "(unnamed file N)",
 * N from the profile's `unnamed file` meta entry (load_rprof.c), else
 * "(unnamed file)".  Into buf. */
const char *ss_source_label(const struct ss_model *m, ss_id file, char *buf, size_t n);

/* The same for a basename key of the line statistics ("" for an unnamed
 * file, stats.h). */
const char *ss_source_base_label(const struct ss_model *m, const char *base, char *buf, size_t n);

/* The lines of function fid (a canonical function id of m) in source file
 * `file` (a string id): from the first to the last line its frames were
 * sampled at.  A line where other functions' frames are too is left out
 * when the function has lines of its own: Rprof gives a frame just
 * entered the line of its call, in its caller.  Returns 0 with *lo <= *hi,
 * or -1 when it has no line in that file. */
int ss_source_function_range(const struct ss_model *m, ss_id fid, ss_id file, uint32_t *lo,
                             uint32_t *hi);

/* Parse --source-map's FROM=TO (borrowing arg; FROM and TO non-empty).
 * Returns 0, or -1 for a malformed argument. */
int ss_source_map_parse(char *arg, struct ss_source_map *out);

/* Carry the source files of m's locations in m (model.h:
 * ss_model_add_source_text), found through s: each at most max_file bytes,
 * max_total in all.  Files not found or over a limit are left out, and
 * named in `left_out` (", "-separated, with why).  Returns the number of
 * files carried, or -1 when memory runs out. */
#define SS_EMBED_MAX_FILE ((size_t)1 << 20)
#define SS_EMBED_MAX_TOTAL ((size_t)16 << 20)
long ss_source_embed(struct ss_model *m, const struct ss_source_search *s, size_t max_file,
                     size_t max_total, struct ss_strbuf *left_out);

#endif
