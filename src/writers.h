/* writers.h - the writer of each output format (stackscope(1), FORMATS), one
 * write_NAME.c each: what the format table (format.c) names, apart from the
 * front door that picks one and writes safely (write.h), so that the table
 * does not include write.h, whose options name the table's formats
 * (HACKING.md, Layers: no circle of files).  What a format's writer shares
 * with its reader has a header of its own (speedscope.h: the schema). */
#ifndef SS_WRITERS_H
#define SS_WRITERS_H

#include <stdio.h>

#include "model.h"

struct ss_flame_opts;

/* Stream writers write the whole profile to f; `path` is only for messages.
 * They return 0 or an error code (the caller checks f for write errors). */
int ss_write_rprof(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err);
int ss_write_pprof(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err);
int ss_write_folded(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err);
int ss_write_speedscope(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err);
int ss_write_sampling_prof(const struct ss_model *m, FILE *f, const char *path,
                           struct ss_error *err);

/* The flame graph as a standalone interactive SVG (write_svg.c) with the
 * options fo (flame.h's struct; NULL: the aggregated graph, roots at the
 * bottom, children by name) and, for a comparison, the verdicts' level
 * alpha (0: 0.05), as ss_write_opts gives them.  ss_write_svg, the format
 * table's writer (whose writers take no options), uses the defaults;
 * ss_write_file and ss_write_stream pass their options' svg and svg_alpha. */
int ss_write_svg(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err);
int ss_write_svg_with(const struct ss_model *m, FILE *f, const char *path,
                      const struct ss_flame_opts *fo, double alpha, struct ss_error *err);

/* The tables writer fills the existing empty directory `dir`. */
int ss_write_tables(const struct ss_model *m, const char *dir, struct ss_error *err);

#endif
