/* format.h - the formats stackscope reads and writes: one table line each.
 *
 * Everything the program knows about a format comes from its line in
 * format.c: its name (`--to NAME`, messages), the output names that imply
 * it, how a file of it is recognised (by structure, in the table's order),
 * its reader and writer, and whether it can hold aggregates.  Loading
 * (load.c), writing (write.c), the command line and the explorer's `:w` ask
 * this table; adding a format is its reader and writer files plus one line.
 */
#ifndef SS_FORMAT_H
#define SS_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"
#include "reader.h"

/* A format's id. */
enum ss_out_format {
    SS_OUT_NONE = 0,
    SS_OUT_RPROF,         /* Rprof text, R's summaryRprof reads it */
    SS_OUT_PPROF,         /* gzip-compressed profile.proto, Go's pprof reads it */
    SS_OUT_FOLDED,        /* root;caller;leaf COUNT lines */
    SS_OUT_SAMPLING_PROF, /* the SamplingProf Ruby gem's text format */
    SS_OUT_TABLES,        /* a directory of TSV tables (stackscope(1), v2 tables) */
    SS_OUT_CPUPROFILE,    /* Chrome/Node DevTools CPU profile JSON (read only) */
    SS_OUT_SPEEDSCOPE,    /* speedscope's JSON file format */
    SS_OUT_GO_TEXT,       /* Go's legacy text profiles: recognised, refused */
    SS_OUT_PERF_SCRIPT,   /* `perf script` text (read only) */
    SS_OUT_SVG,           /* the flame graph as an interactive SVG (write only) */
    SS_OUT_CHROME_TRACE,  /* Chrome's JSON trace: its CPU profiles (read only) */
    SS_OUT_PERFETTO,      /* Perfetto's protobuf trace: recognised, refused */
};

/* Does the file that starts with p[0..n) look like this format?  `whole`:
 * p is the whole file; `size`: the file's size when known, else 0.
 * Returns 1 (yes), 0 (no: a short reason, e.g. "line 3: no count", goes to
 * why[0..cap)) or -1 (the answer needs more of the file). */
typedef int (*ss_sniff_fn)(const unsigned char *p, size_t n, int whole, uint64_t size, char *why,
                           size_t cap);

struct ss_format {
    enum ss_out_format id;
    const char *name;        /* `--to NAME` */
    const char *title;       /* in messages: "Rprof", "folded stacks" */
    const char *suffixes[6]; /* output names that imply it; "/" is a directory */
    int directory;           /* read from and written to a directory */
    int aggregates;          /* can hold aggregate sources (no stacks) */
    unsigned sniff_order;    /* 1 is tried first (distinctive starts before folded,
                              * which any line ending in a count matches) */
    ss_sniff_fn sniff;       /* NULL for a directory format */
    int (*load)(struct ss_model *m, struct ss_reader *r, const char *path, struct ss_error *err);
    int (*load_dir)(struct ss_model *m, const char *dir, struct ss_error *err);
    int (*write)(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err);
    int (*write_dir)(const struct ss_model *m, const char *dir, struct ss_error *err);
};

/* At most this many formats (the detection's scratch). */
#define SS_FORMAT_MAX 24

/* The i-th format of the table (NULL past the last).  The order is the
 * order of detection and of the formats in messages and help. */
const struct ss_format *ss_format_at(size_t i);

/* The format with this id / name, or NULL. */
const struct ss_format *ss_format_get(enum ss_out_format id);
const struct ss_format *ss_format_named(const char *name);

/* The format implied by an output path's name (its suffix, or a trailing
 * '/' or an existing directory for the directory format), or NULL. */
const struct ss_format *ss_format_for_path(const char *path);

/* Can stackscope write this format (`--to NAME`)?  Some are read only. */
int ss_format_writable(const struct ss_format *f);

/* The names of the formats stackscope writes, joined by `sep` (and `last`
 * before the last one: "rprof, pprof, ... or tables"), into buf.  Returns
 * buf. */
const char *ss_format_names(char *buf, size_t n, const char *sep, const char *last);

/* The output suffixes of every format it writes, for help texts: ".out .prof .rprof,
 * .pb.gz .pb .pprof, ..., DIR/ for tables".  Returns buf. */
const char *ss_format_suffix_help(char *buf, size_t n);

/* The same in brief, the first suffix of each (".out (rprof), .pb.gz
 * (pprof), .folded, ..., DIR/ (tables), .svg"), for a message that fits a
 * line or two.  Returns buf. */
const char *ss_format_suffix_brief(char *buf, size_t n);

#endif
