/* tables.h - the v2 tables format: a directory of TSV files, one per table
 * of the model (HACKING.md, Data model; stackscope(1), v2 tables): what its
 * reader (load_tables.c) and its writer (write_tables.c) share.  The writer
 * writes them, the reader reads them back into an equal model.
 *
 * Files (header row first, then one row per record; every column always
 * present, in this order):
 *   meta.tsv            key value source_id      first row: version 2.0 \N
 *   sources.tsv         source_id type uri session header_line timestamp
 *                       interval_us flags        flags: memory+GC+line+aggregate+unordered or -
 *   value_types.tsv     type unit                samples/count first
 *   samples.tsv         sample_id source_id stack_id    in time order
 *   sample_values.tsv   sample_id type value     every value of every sample
 *   stacks.tsv          stack_id depth location_id      distinct stacks
 *   sample_locations.tsv sample_id depth location_id    samples x stacks
 *   locations.tsv       location_id function_id file line
 *   functions.tsv       function_id name system_name filename start_line class
 *   aggregates.tsv      source_id location_id self total     (only when the
 *   call_edges.tsv      source_id caller_location_id callee_location_id count
 *                                                profile has aggregates)
 *   labels.tsv          sample_id key str num unit    (only when a sample has a
 *                       label) one row per label of a sample, in sample order:
 *                       a string label has str, num and unit \N; a numeric one
 *                       str \N, num, and unit or \N
 *   source_lines.tsv    file line text        (only when the profile carries
 *                       source files: convert --embed-sources, source.h) each
 *                       line of each file, lines numbered from 1 in order;
 *                       `file` is the path as the locations name it
 *   mappings.tsv        mapping_id memory_start memory_limit file_offset filename
 *                       build_id flags   (with location_addresses.tsv, only for a
 *                       native profile: one with mappings or addresses) pprof's
 *                       mappings; addresses in hex (0x...); flags
 *                       functions+filenames+line_numbers+inline_frames or -
 *   location_addresses.tsv location_id mapping_id address flags   a row per
 *                       location with a mapping, an address or flags:
 *                       inline (inlined into the next frame outward), no_line
 *                       (an address nothing symbolised), unnamed, or -
 * Ids are 1-based and dense: row k of a table has id k.  depth 1 is the
 * innermost frame (the leaf).  A location with no function (function_id \N)
 * is a position only: Rprof's trailing F#L token after the outermost frame;
 * it is the last row of its stack.  An empty stack is one row with depth 0
 * and location \N (in stacks.tsv; sample_locations.tsv has no row for it).
 * sample_locations.tsv is derived (samples joined with stacks) for R users;
 * the reader does not read it.
 *
 * Escaping: a missing value (no file, no function) is \N; in strings a
 * backslash is written \\, a tab \t, a newline \n, a CR \r; nothing else
 * is escaped or quoted.  R reads the files with
 *   read.delim(f, quote = "", na.strings = "\\N", comment.char = "")
 */
#ifndef SS_TABLES_H
#define SS_TABLES_H

#include <stddef.h>
#include <stdint.h>

#define SS_TABLES_VERSION "2.0"

/* The files the tables writer may write: the i-th name (NULL past the last),
 * and whether `name` is one of them. */
const char *ss_tables_file(size_t i);
int ss_tables_is_file(const char *name);

/* The names of the mapping flags (SS_MAP_*) and location flags (SS_LOC_*)
 * in mappings.tsv and location_addresses.tsv, bit k at index k. */
#define SS_TABLES_MAP_FLAGS 4
#define SS_TABLES_LOC_FLAGS 3
extern const char *const ss_tables_map_flags[SS_TABLES_MAP_FLAGS];
extern const char *const ss_tables_loc_flags[SS_TABLES_LOC_FLAGS];

/* The meta.tsv key of a source whose `time` is a value type's, one value
 * per sample (pprof's per-sample durations: model.h, time_column): the
 * value is that type's name. */
#define SS_TABLES_TIME_COLUMN "stackscope:time_column"

/* Source flags as written in sources.tsv: "memory+GC+line+aggregate" (the
 * set ones, in that order, then "unordered") or "-" for none. */
void ss_tables_flags_text(uint32_t flags, char *buf, size_t n);

/* Parse flags text s[0..n) into *out.  Returns 0, or -1 with *bad and
 * *bad_len set to the unknown word. */
int ss_tables_flags_parse(const char *s, size_t n, uint32_t *out, const char **bad,
                          size_t *bad_len);

#endif
