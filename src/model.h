/* model.h - the relational model of a profile (HACKING.md, Data model).
 *
 * Tables are arrays indexed by dense 0-based ids; strings are ids into one
 * string table.  A stack is stored once (CSR layout, leaf first) however many
 * samples hit it; `sample_stack` is the profile timeline, one entry per raw
 * sample in time order.  Samples of one source are contiguous, so a sample's
 * source follows from the sources' ranges.
 *
 * Loaders and transforms fill a model only through the builder functions
 * below (ncdu's "output interface"; tests/layers.sh checks that no other file
 * writes the tables); everything else reads the tables directly.  The model
 * owns all its memory; ss_model_free() releases it.
 */
#ifndef SS_MODEL_H
#define SS_MODEL_H

#include <stdatomic.h>
#include <stdint.h>
#include <stddef.h>

#include "error.h"
#include "strtab.h"
#include "vec.h"

typedef uint32_t ss_id;

/* Source flags: what an Rprof session's header announced. */
enum {
    SS_SRC_MEMORY = 1u << 0,    /* memory profiling: lines carry :small:big:nodes:dup: */
    SS_SRC_GC = 1u << 1,        /* GC profiling: "<GC>" frames */
    SS_SRC_LINE = 1u << 2,      /* line profiling: #File lines and F#L tokens */
    SS_SRC_AGGREGATE = 1u << 3, /* no raw samples: aggregates only (SamplingProf) */
    SS_SRC_UNORDERED = 1u << 4, /* samples in no time order (folded stacks: one row per
                                 * distinct stack with its count), so no timeline or runs */
    SS_SRC_UNTIMED = 1u << 5,   /* the interval is not a time (a pprof period in bytes,
                                 * folded stacks without --interval): no `time` measure */
    SS_SRC_BASE = 1u << 6,      /* a comparison's base (compare.h): writers that can negate
                                 * its samples (pprof) or write both sides (folded) */
    SS_SRC_NORMALIZE = 1u << 7, /* with SS_SRC_BASE: scale the base to the new total */
};

/* A source says which value types it has in a 64-bit mask (struct
 * ss_source.values): types 0..63; a later type is no measure of any source
 * (a tables directory may hold up to SS_MAX_VALUE_TYPES, limits.h). */
#define SS_SOURCE_VALUE_BITS 64

/* One input file, or one Rprof session inside a file. */
struct ss_source {
    ss_id type;              /* "rprof", ... */
    ss_id uri;               /* the path as the user gave it */
    uint32_t session;        /* 1-based session number inside the file */
    uint32_t header_line;    /* line of the session's header in the file, 0 if none */
    int64_t timestamp;       /* seconds since the epoch, 0 when unknown */
    double interval_us;      /* sampling interval in microseconds */
    uint32_t flags;          /* SS_SRC_* */
    uint64_t values;         /* bit t: the source has value type t (its samples' values of a
                              * type it lacks are 0); 0 means the count column only */
    uint32_t default_column; /* 1 + the value type the source's default measure is (a pprof
                              * default_sample_type, else its last type); 0: by its flags */
    uint32_t time_column;    /* 1 + a value type in nanoseconds that is the source's `time`
                              * (perf periods, Chrome time deltas); 0: count x interval */
    size_t first_sample;     /* samples [first_sample, first_sample + n_samples) */
    size_t n_samples;
    /* With values_borrowed: the row, in the model's value columns, of the
     * first sample the session recorded (a transform may have removed it;
     * before row 0 when one kept stretch reads from values_base on).  Set
     * by ss_model_derive_samples; read it with ss_sample_prev_row. */
    ptrdiff_t first_row;
};

/* A function: for Rprof the label R printed ("lm", "stats::lm", "<GC>"). */
struct ss_function {
    ss_id name;
    ss_id system_name;
    ss_id filename;      /* SS_NONE when unknown */
    uint32_t start_line; /* 0 when unknown */
};

/* A mapping: a binary or library mapped into the profiled process (pprof's
 * Mapping), so that an address can be symbolised again and pprof shows the
 * binary's file and build id.  Loaders that know none add none. */
struct ss_mapping {
    uint64_t start, limit, offset; /* the address range and its offset in the file */
    ss_id file;                    /* the binary's path, SS_NONE when unknown */
    ss_id build_id;                /* SS_NONE when unknown */
    uint32_t flags;                /* SS_MAP_*: what pprof says its locations hold */
};
enum {
    SS_MAP_FUNCTIONS = 1u << 0, /* pprof's has_functions, ... */
    SS_MAP_FILENAMES = 1u << 1,
    SS_MAP_LINE_NUMBERS = 1u << 2,
    SS_MAP_INLINE_FRAMES = 1u << 3,
};

/* Location flags. */
enum {
    /* Inlined into the next frame outward: pprof keeps such frames as the
     * lines of one location (every line but the last, its caller, is
     * inlined), shown "(inline)"; its writer joins them again. */
    SS_LOC_INLINE = 1u << 0,
    /* An address nothing symbolised: pprof's location without lines.  Its
     * function is named after the mapping ("[libc.so.6]"), as pprof shows
     * it; writers that keep addresses write it without lines again. */
    SS_LOC_NO_LINE = 1u << 1,
    /* A line whose function has no name in the file (pprof), named after
     * the mapping as pprof shows it; written back without a name. */
    SS_LOC_UNNAMED = 1u << 2,
};

/* A location: a function at a position.  `file` is the path of the source
 * file the line refers to (Rprof `#File` path), SS_NONE with line 0 when the
 * frame has no position, SS_NONE with line > 0 when the file number was never
 * declared (R prints these as NA#line).  `function` is SS_NONE only for the
 * position-only locations of ss_model.stack_tail.  Native profiles (pprof)
 * also give the address and its mapping: two frames of one function and
 * line at different addresses are two locations (statistics key by
 * function and line, so they are one row there). */
struct ss_location {
    ss_id function;
    ss_id file;
    uint32_t line;
    ss_id mapping;    /* SS_NONE when unknown */
    uint32_t flags;   /* SS_LOC_* */
    uint32_t spare;   /* 0: no padding, so locations compare as bytes */
    uint64_t address; /* 0 when unknown */
};

/* Aggregates of a source that holds no raw stacks (SamplingProf): sample
 * counts per location (a call element) and call-graph edges.  Such a source
 * has n_samples == 0 and the SS_SRC_AGGREGATE flag; statistics by function
 * and line add its counts (time = count x the source's interval), views that
 * need stacks say that the source has none. */
struct ss_agg {
    ss_id source;
    ss_id location;
    int64_t self, total; /* samples with the location as leaf / anywhere */
};
struct ss_agg_edge {
    ss_id source;
    ss_id caller;  /* a location, SS_NONE for the root */
    ss_id callee;  /* a location */
    int64_t count; /* samples in which caller called callee */
};

/* The text of a source file carried in the profile (stackscope(1),
 * SOURCE FILES: `convert --to tables --embed-sources` writes them, the tables
 * reader reads them back), so that a profile sent elsewhere keeps its code
 * pane: the path as the profile names the file (a location's `file`) and the
 * whole text, both string ids. */
struct ss_source_text {
    ss_id path, text;
};

/* A meta entry (HACKING.md, Data model): free key/value pairs such as pprof's
 * comments, duration or drop_frames; the tables writer adds version 2.0. */
struct ss_meta {
    ss_id source; /* the source it came from, SS_NONE for the whole model */
    ss_id key, value;
};

/* A label (pprof's Sample.label; perf's comm, pid and tid): a key with a
 * string value, or with a number and its unit.  Labels are interned once
 * (ss_model_label); samples point at sets of them (ss_model.labelset_*). */
struct ss_label {
    ss_id key;
    ss_id str;   /* the string value, SS_NONE for a numeric label */
    int64_t num; /* a numeric label's number (0 for a string label) */
    ss_id unit;  /* a numeric label's unit, SS_NONE when it has none */
};

struct ss_value_type {
    ss_id type; /* "samples", "small_v", ... */
    ss_id unit; /* "count", "cells", "bytes" */
};

/* The fixed value-type slots of an Rprof memory profile. */
enum {
    SS_VT_COUNT = 0, /* samples/count: always present, NULL column means all 1 */
};

/* What the statistics add up (stackscope(1), MEASURES): one measure is chosen
 * per model (ss_model_set_measure) and every analysis weighs sample i by
 * ss_sample_weight(m, i) x ss_source_scale(m, source of i). */
enum ss_measure_kind {
    SS_MEASURE_TIME,     /* count x the source's interval, in seconds */
    SS_MEASURE_SAMPLES,  /* the count */
    SS_MEASURE_COLUMN,   /* a value column (a pprof sample type, Rprof dup_count) */
    SS_MEASURE_MEMORY,   /* Rprof: bytes allocated, R's memory="both" differences */
    SS_MEASURE_RELEASED, /* Rprof: bytes released (profvis's negative differences) */
};

/* How a measure's numbers read (units.h formats them). */
enum ss_unit_kind {
    SS_UNIT_SECONDS, /* a time; `unit_scale` converts the raw unit to seconds */
    SS_UNIT_BYTES,   /* `unit_scale` converts to bytes */
    SS_UNIT_COUNT,
    SS_UNIT_OTHER, /* a pprof unit stackscope does not know: plain numbers and the unit */
};

struct ss_measure {
    enum ss_measure_kind kind;
    ss_id vt; /* SS_MEASURE_COLUMN: the value type; else SS_NONE */
    enum ss_unit_kind unit_kind;
    double unit_scale; /* raw unit -> seconds or bytes (1e-9 for nanoseconds) */
};

/* The chosen measure's weights.  A zeroed one is the `time` measure. */
struct ss_weights {
    struct ss_measure measure;
    const int64_t *col;    /* weight per sample, NULL: the count column */
    const uint32_t *col32; /* else a derived column whose weights all fit in 32
                            * bits (memory, released: half the bytes) */
    const uint32_t *row;   /* sample i's weight is col[row[i]] (or col32[row[i]]: a
                            * column read through the model's value_rows); NULL:
                            * col[i] */
    int64_t *owned;        /* a derived column (memory, released), owned */
    double *scale;         /* per source: value of one weight unit (0: the source lacks the
                            * measure); NULL: the source's interval in seconds (time) */
    double *exact;         /* per source: the same in exact units for ordering (time:
                            * microseconds); NULL: as scale */
    size_t lacking;        /* sources with samples that lack the measure */
};

struct ss_model {
    struct ss_strtab strs;
    VEC(struct ss_source) sources;
    VEC(struct ss_function) functions;
    VEC(struct ss_location) locations;
    VEC(struct ss_mapping) mappings; /* pprof's mappings, in their order (ss_model_mapping) */

    /* Distinct stacks: frames of stack s are stack_loc[stack_off[s] ..
     * stack_off[s+1]), innermost first.  stack_tail[s] is a position that
     * follows the outermost frame (Rprof's trailing F#L token: the line the
     * outermost frame was called from) or SS_NONE. */
    VEC(uint32_t) stack_off; /* n_stacks + 1 entries */
    VEC(ss_id) stack_loc;
    VEC(ss_id) stack_tail;

    /* The timeline: one stack id per raw sample. */
    VEC(ss_id) sample_stack;

    /* Gaps in the timeline: the sorted positions i (>= 1) of the samples
     * that follow removed samples, i.e. samples were removed between i - 1
     * and i.  A transform that removes samples (drop, focus, keep-samples,
     * drop-samples, label filters) records them in its output; a loaded
     * profile has none.  A gap ends every run and every phase (HACKING.md,
     * Data model), as a source boundary or an empty-stack sample does;
     * ss_model_gap_first() finds where a pass over samples starts. */
    VEC(size_t) gaps;

    /* Value columns: values[t] has one entry per sample, or is NULL for
     * SS_VT_COUNT when every sample counts 1 (Rprof). */
    VEC(struct ss_value_type) value_types;
    VEC(int64_t *) values;
    /* Set when the columns of `values` are not this model's but borrowed
     * from the model it was derived from (ss_model_derive_samples: a
     * transform points into the original's columns instead of copying
     * them).  That model must then outlive this one; ss_model_free leaves
     * the columns alone. */
    int values_borrowed;
    /* The rows of the value columns: sample i's values are at row
     * value_rows[i] of every column of `values` (owned, one 4-byte row per
     * sample), or at row i when NULL.  A transform that removes samples
     * from the middle of the timeline keeps the original's columns this way
     * (values_borrowed); one that keeps a single stretch needs no rows.
     * Read values with ss_sample_value (or ss_sample_row), never by
     * indexing a column with a sample number. */
    uint32_t *value_rows;
    size_t value_rows_cap; /* its allocation's bytes when larger than n rows, else 0 */
    /* With values_borrowed and no value_rows: sample k reads row
     * values_base + k of the original's columns (one stretch kept). */
    size_t values_base;

    /* Labels.  `labels` holds the distinct labels; a label set is a sorted
     * list of distinct label ids, stored once (CSR: set s is labelset_lab[
     * labelset_off[s] .. labelset_off[s+1])); set 0 is the empty set and
     * always exists.  sample_labels holds one set id per sample, or is empty
     * (n == 0) when no sample has a label: most profiles pay nothing, and a
     * labelled one 4 bytes per sample.  Loaders build them with
     * ss_model_label, ss_model_label_set and ss_model_label_sample; read them
     * with ss_sample_labelset and ss_labelset_labels. */
    VEC(struct ss_label) labels;
    VEC(uint32_t) labelset_off; /* n_sets + 1 entries */
    VEC(ss_id) labelset_lab;
    VEC(ss_id) sample_labels;

    /* Meta entries, in the order loaders added them. */
    VEC(struct ss_meta) meta;

    /* Source files carried in the profile (struct ss_source_text), at most
     * one per path; empty for most profiles.  Models derived from this one
     * (transforms) keep them. */
    VEC(struct ss_source_text) source_texts;

    /* Aggregates of SS_SRC_AGGREGATE sources (empty for most profiles). */
    VEC(struct ss_agg) aggs;
    VEC(struct ss_agg_edge) edges;

    /* Class of each function (transform `class`): a string id or SS_NONE;
     * empty (n == 0) when no function has a class, else one entry per
     * function (kept by ss_model_set_class and ss_model_function). */
    VEC(ss_id) function_class;

    /* Function identity: one name may have several function ids (pprof and
     * SamplingProf keep a file per function: `rnorm` with and without one).
     * function_canon[f] is the lowest id with f's name, the one every
     * statistic, tree, run and view keys its rows by.  Kept by the builder
     * (ss_model_function), so it always has one entry per function. */
    VEC(ss_id) function_canon;

    /* The chosen measure (ss_model_set_measure; a zeroed one is `time`). */
    struct ss_weights weights;
    /* The derived weight columns of `memory` and `released` (in that
     * order), kept once computed so that choosing the measure again costs
     * nothing (the explorer's V): one weight per sample, owned, valid while
     * the model has `n` samples; `unclamped`: no weight was cut to keep
     * the column's sum within INT64_MAX (measure.c).  A column whose
     * weights all fit in 32 bits is kept in col32 (shared32), else in col
     * (shared). */
    struct ss_derived_col {
        int64_t *col;          /* owned, one weight per sample; NULL when shared */
        uint32_t *col32;       /* or owned, 32 bits a weight */
        const int64_t *shared; /* else: the weights of the model m was derived
                                * from, read through value_rows (o's column,
                                * from row values_base without rows): a kept
                                * sample weighs what it weighed there */
        const uint32_t *shared32;
        size_t room; /* col32's bytes (it may come from a struct ss_spare) */
        size_t n;
        int unclamped;
        uint64_t sum; /* unclamped: the weights sum to at most this */
    } derived[2];
    /* Bit t (t < 64): value column t was checked to sum within INT64_MAX
     * as a measure (measure.c), while the model has col_checked_n samples;
     * choosing it again skips the pass. */
    uint64_t col_checked;
    size_t col_checked_n;

    /* Warnings found while loading (owned strings), in order. */
    VEC(char *) warnings;

    /* Builder state (private). */
    struct ss_idset *fn_index, *loc_index, *stack_index, *label_index, *labelset_index;
    struct ss_idset *map_index;
    VEC(ss_id) name_first_fn; /* string id -> first function with that name */
    uint64_t count_total;     /* sum of the count column, at most SS_MAX_COUNT_TOTAL */
};

/* The largest sum of the count column a model holds (INT64_MAX).  Every
 * statistic adds the counts of a subset of the samples (in uint64_t or
 * int64_t; times and bytes in double), and a subset of a model never sums
 * past the whole: bounding the whole model's sum when it is built keeps
 * every such sum exact, without a check in each analysis. */
#define SS_MAX_COUNT_TOTAL ((uint64_t)INT64_MAX)

/* ss_model_add_sample's answer for a count that is negative or would make
 * the counts of the model sum past SS_MAX_COUNT_TOTAL. */
#define SS_COUNT_RANGE (-2)

/* Number of distinct stacks. */
static inline size_t ss_model_nstacks(const struct ss_model *m)
{
    return m->stack_tail.n;
}

/* Number of frames of stack s, and a pointer to them (innermost first). */
static inline size_t ss_stack_depth(const struct ss_model *m, ss_id s)
{
    return m->stack_off.v[s + 1] - m->stack_off.v[s];
}
static inline const ss_id *ss_stack_frames(const struct ss_model *m, ss_id s)
{
    return m->stack_loc.v + m->stack_off.v[s];
}

/* The string with id `id` (borrowed). */
static inline const char *ss_str(const struct ss_model *m, ss_id id)
{
    return ss_strtab_get(&m->strs, id);
}

/* The function id of location `loc`. */
static inline ss_id ss_loc_function(const struct ss_model *m, ss_id loc)
{
    return m->locations.v[loc].function;
}

/* The canonical id of function fn: the lowest id with the same name. */
static inline ss_id ss_function_canonical(const struct ss_model *m, ss_id fn)
{
    return m->function_canon.v[fn];
}

/* The name of function fn (borrowed from the model's string table). */
static inline const char *ss_function_name(const struct ss_model *m, ss_id fn)
{
    return ss_str(m, m->functions.v[fn].name);
}

/* The class of function fn (a string id), SS_NONE when it has none. */
static inline ss_id ss_function_class(const struct ss_model *m, ss_id fn)
{
    return fn < m->function_class.n ? m->function_class.v[fn] : SS_NONE;
}

/* The row of sample i in the value columns (see value_rows). */
static inline size_t ss_sample_row(const struct ss_model *m, size_t i)
{
    return m->value_rows ? m->value_rows[i] : i;
}

/* The row in m's value columns of the sample recorded just before sample
 * i in its session (src, sample i's source), in *p: that sample may have
 * been removed by a transform, whose output reads the original's columns
 * (values_borrowed), so the recording's neighbours stay in reach.  Returns
 * 0 when sample i is the first its session recorded.  The memory measures
 * difference the counters of these two rows: a kept sample keeps the bytes
 * of its tick. */
static inline int ss_sample_prev_row(const struct ss_model *m, const struct ss_source *src,
                                     size_t i, ptrdiff_t *p)
{
    ptrdiff_t r = (ptrdiff_t)ss_sample_row(m, i);
    ptrdiff_t first = m->values_borrowed ? src->first_row : (ptrdiff_t)src->first_sample;
    *p = r - 1;
    return r > first;
}

/* Value of type t of sample i: 0 when the column is not materialised (1
 * for the count column). */
static inline int64_t ss_sample_value(const struct ss_model *m, size_t t, size_t i)
{
    const int64_t *c = m->values.v[t];
    return c ? c[ss_sample_row(m, i)] : t == SS_VT_COUNT;
}

/* Count value of sample i (1 when the count column is implicit). */
static inline int64_t ss_sample_count(const struct ss_model *m, size_t i)
{
    return ss_sample_value(m, SS_VT_COUNT, i);
}

/* The label set of sample i (0, the empty set, when it has none). */
static inline ss_id ss_sample_labelset(const struct ss_model *m, size_t i)
{
    return m->sample_labels.n ? m->sample_labels.v[i] : 0;
}

/* Number of label sets (the empty set 0 included). */
static inline size_t ss_model_nlabelsets(const struct ss_model *m)
{
    return m->labelset_off.n - 1;
}

/* The labels of set s (label ids, sorted) and how many. */
static inline size_t ss_labelset_size(const struct ss_model *m, ss_id s)
{
    return m->labelset_off.v[s + 1] - m->labelset_off.v[s];
}
static inline const ss_id *ss_labelset_labels(const struct ss_model *m, ss_id s)
{
    return m->labelset_lab.v + m->labelset_off.v[s];
}

/* Does some sample of m carry a label? */
static inline int ss_model_has_labels(const struct ss_model *m)
{
    return m->sample_labels.n != 0;
}

/* Weight of sample i under the chosen measure, in the units of its source's
 * ss_source_scale (the count for time and samples, bytes for memory, the
 * column's value for a pprof sample type).  The absolute weights of a model
 * sum to at most INT64_MAX (ss_model_set_measure checks), so every sum of
 * weights is exact in an int64_t. */
static inline int64_t ss_sample_weight(const struct ss_model *m, size_t i)
{
    const struct ss_weights *w = &m->weights;
    if (w->col)
        return w->col[w->row ? w->row[i] : i];
    if (w->col32)
        return w->col32[w->row ? w->row[i] : i];
    return ss_sample_count(m, i);
}

/* Does every sample weigh its count (time, samples: no weight column)? */
static inline int ss_weights_are_counts(const struct ss_model *m)
{
    return !m->weights.col && !m->weights.col32;
}

/* The measure's value of one weight unit of source s, and the same in exact
 * units for ordering (time: the interval in seconds and in microseconds). */
static inline double ss_source_scale(const struct ss_model *m, size_t s)
{
    return m->weights.scale ? m->weights.scale[s] : m->sources.v[s].interval_us / 1e6;
}
static inline double ss_source_exact(const struct ss_model *m, size_t s)
{
    return m->weights.exact ? m->weights.exact[s] : m->sources.v[s].interval_us;
}

/* Initialise an empty model with the samples/count value type.  Returns 0 or
 * an error code (out of memory). */
int ss_model_init(struct ss_model *m, struct ss_error *err);

/* Free everything the model owns.  ss_model_free on a zeroed model is a no-op. */
void ss_model_free(struct ss_model *m);

/* ss_model_free, its per-sample arrays (the timeline's stack ids, label
 * sets and value rows) kept in `spare` for the next derived model (see
 * struct ss_spare). */
void ss_model_free_spare(struct ss_model *m, struct ss_spare *spare);

/* --- builder API: loaders and transforms write through these ----------- */

/* Intern a string; SS_NONE when out of memory. */
ss_id ss_model_intern(struct ss_model *m, const char *s, size_t len);
ss_id ss_model_intern_cstr(struct ss_model *m, const char *s);

/* Append a source; later samples belong to it.  `src->first_sample` and
 * `n_samples` are filled in here.  Returns the source id or SS_NONE. */
ss_id ss_model_add_source(struct ss_model *m, const struct ss_source *src);

/* Source `src` has value type vt (a measure: stackscope(1), MEASURES); with
 * `dflt`, it is the source's default measure. */
void ss_model_source_value(struct ss_model *m, ss_id src, ss_id vt, int dflt);

/* Source `src`'s `time` is value type vt (nanoseconds per sample), not
 * count x interval. */
void ss_model_source_time(struct ss_model *m, ss_id src, ss_id vt);

/* Find or add a function / location (deduplicated).  SS_NONE on OOM. */
ss_id ss_model_function(struct ss_model *m, ss_id name, ss_id system_name, ss_id filename,
                        uint32_t start_line);
ss_id ss_model_location(struct ss_model *m, ss_id function, ss_id file, uint32_t line);

/* Find or add a location with every field of *l as given (mapping,
 * address and flags too; `spare` must be 0).  SS_NONE on OOM. */
ss_id ss_model_location_at(struct ss_model *m, const struct ss_location *l);

/* Find or add a mapping (deduplicated on every field).  Its id, or SS_NONE
 * on OOM. */
ss_id ss_model_mapping(struct ss_model *m, const struct ss_mapping *mp);

/* Find or add the stack with these `n` location ids (innermost first) and
 * tail position (or SS_NONE).  SS_NONE on OOM. */
ss_id ss_model_stack(struct ss_model *m, const ss_id *locs, size_t n, ss_id tail);

/* Find or add a value type; returns its index or SS_NONE. */
ss_id ss_model_value_type(struct ss_model *m, const char *type, const char *unit);

/* Find or add the label KEY=STR (str a string id; num and unit ignored) or,
 * with str == SS_NONE, the numeric label KEY=NUM UNIT (unit SS_NONE when
 * none).  Returns its id, or SS_NONE when out of memory. */
ss_id ss_model_label(struct ss_model *m, ss_id key, ss_id str, int64_t num, ss_id unit);

/* Find or add the label set of the n label ids in labels[] (any order,
 * repeats allowed: they are sorted and made distinct in place).  n == 0
 * gives set 0.  Returns the set id, or SS_NONE when out of memory or past
 * SS_MAX_LABELS_PER_SAMPLE labels. */
ss_id ss_model_label_set(struct ss_model *m, ss_id *labels, size_t n);
#define SS_MAX_LABELS_PER_SAMPLE 65536

/* Give the last sample added (ss_model_add_sample) the label set `set`.
 * Returns 0 or -1 (out of memory). */
int ss_model_label_sample(struct ss_model *m, ss_id set);

/* Append a sample of `stack` to the last source.  `vals` holds one value per
 * value type in type order (vals[0] is the count) or is NULL for a plain
 * sample of count 1 with no other values.  Returns 0, -1 (OOM) or
 * SS_COUNT_RANGE (the count is negative or the model's counts would sum past
 * SS_MAX_COUNT_TOTAL; nothing was added: report it with
 * ss_model_count_fail). */
int ss_model_add_sample(struct ss_model *m, ss_id stack, const int64_t *vals);

/* Append n samples of count 1 to the last source, as n calls of
 * ss_model_add_sample would (the parallel Rprof loader's merge): sample k
 * has stack stacks[k] and, for each c < nvt, the value vals[k * nvt + c] of
 * value type vts[c]; the other value types 0 (vals may be NULL when nvt is
 * 0).  Returns 0, -1 (OOM) or SS_COUNT_RANGE (the counts would sum past
 * SS_MAX_COUNT_TOTAL; nothing was added). */
int ss_model_add_samples(struct ss_model *m, const ss_id *stacks, size_t n, const ss_id *vts,
                         size_t nvt, const int64_t *vals);

/* Make room for n more samples (the timeline and the value columns), so
 * that adding them moves no memory (a loader that knows how many are
 * coming).  Returns 0, or -1 when the memory is not there: the model is
 * then as it was (its capacity unchanged), and may go on growing. */
int ss_model_reserve_samples(struct ss_model *m, size_t n);

/* Fill err (SS_EINPUT) for a sample refused with SS_COUNT_RANGE: `where`
 * names the file and the place in it ("prof.pb.gz: byte 120: sample 7"),
 * `count` is the refused count.  Returns SS_EINPUT. */
int ss_model_count_fail(const struct ss_model *m, struct ss_error *err, const char *where,
                        int64_t count);

/* Set the sampling interval of source src, in microseconds (a loader that
 * derives it from the samples: SamplingProf's runtime, perf's clock). */
void ss_model_set_interval(struct ss_model *m, ss_id src, double interval_us);

/* Add the SS_SRC_* flags `flags` to source src (a loader that learns them
 * from the samples: perf without a clock event is SS_SRC_UNTIMED). */
void ss_model_add_source_flags(struct ss_model *m, ss_id src, uint32_t flags);
/* Take them away (a followed file's loader that learns otherwise later). */
void ss_model_clear_source_flags(struct ss_model *m, ss_id src, uint32_t flags);

/* Forget the first k samples of a model whose columns are its own (not
 * values_borrowed, no value_rows): a followed profile kept to its last
 * minutes (--keep).  Their rows go from every per-sample array, the
 * sources' ranges and the gaps are renumbered (a source whose samples all
 * went keeps an empty range), the count total drops, and the measure is to
 * be chosen again (ss_model_set_measure: its weights and derived columns
 * are gone; the name of the measure too).  A session cut keeps its memory
 * counters from its first kept sample on, which counts as the session's
 * first (no bytes before it), as it would in a file that began there.
 * Returns the samples dropped.  Stacks, locations, functions and strings stay, ids unchanged,
 * so memory is the kept samples' and the distinct stacks'. */
size_t ss_model_drop_front(struct ss_model *m, size_t k);

/* Give location loc the source file `file` (a string id or SS_NONE): Rprof's
 * file numbers resolved late.  Locations may become equal: call
 * ss_model_reindex_locations when done. */
void ss_model_set_location_file(struct ss_model *m, ss_id loc, ss_id file);

/* Append an aggregate of an SS_SRC_AGGREGATE source: a call element (sample
 * counts of a location) or a call-graph edge.  Returns 0 or -1 (OOM); call
 * ss_model_check_aggs once the loader added them all. */
int ss_model_add_agg(struct ss_model *m, const struct ss_agg *a);
int ss_model_add_edge(struct ss_model *m, const struct ss_agg_edge *e);

/* Append a meta entry of source src (SS_NONE: the whole model) whose key and
 * value are string ids (ss_model_intern).  Returns 0, or -1 when memory runs
 * out or key or value is SS_NONE (so an intern that failed can be passed
 * straight in). */
int ss_model_add_meta(struct ss_model *m, ss_id src, ss_id key, ss_id value);

/* Carry the text (a string id) of the source file `path` (a string id) in
 * the profile; a path carried already keeps its first text.  Returns 0, or
 * -1 when memory runs out or an id is SS_NONE. */
int ss_model_add_source_text(struct ss_model *m, ss_id path, ss_id text);

/* The carried text of source file `path` (a string id), or SS_NONE. */
ss_id ss_model_source_text(const struct ss_model *m, ss_id path);

/* Give function fn the class cls (a string id; SS_NONE: none), as the
 * transform `class` does.  Returns 0 or -1 (OOM). */
int ss_model_set_class(struct ss_model *m, ss_id fn, ss_id cls);

/* After a loader added aggregates (ss_model_add_agg, _edge): check that their
 * counts are not negative and that the self counts, the total counts and the
 * call counts, each added to the samples' counts, stay within
 * SS_MAX_COUNT_TOTAL (statistics add them up per function).  Returns 0, or
 * SS_EINPUT with err naming `path` and the value. */
int ss_model_check_aggs(const struct ss_model *m, const char *path, struct ss_error *err);

/* Record a warning (printf-style). */
void ss_model_warn(struct ss_model *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* After a loader changed locations' fields in place (Rprof file numbers
 * resolved late), merge locations that became equal and then stacks that
 * became equal, renumbering both and the samples' stack ids.  Returns 0 or
 * -1 (OOM). */
int ss_model_reindex_locations(struct ss_model *m);

/* As ss_model_reindex_locations, and say where everything went: when not
 * NULL, loc_map[i] (one entry per location before the call) receives the
 * new id of location i, and stack_map[s] (one per stack before the call)
 * that of stack s. */
int ss_model_reindex_locations_map(struct ss_model *m, ss_id *loc_map, ss_id *stack_map);

/* --- models derived from a model (transforms) --------------------------- */

/* An empty model with o's strings (the same ids), value types and mappings
 * (the same ids), and no
 * sources, samples or stacks: the start of a model that a transform derives
 * from o (transform_apply.c).  Functions and locations are then added with
 * the builder (ss_model_function, ss_model_location).  Returns 0 or an error
 * code (m is then zeroed). */
int ss_model_init_like(struct ss_model *m, const struct ss_model *o, struct ss_error *err);

/* Append a stack that the caller knows differs from every stack in m (a
 * transform's stacks are deduplicated already): no lookup.  ss_model_stack
 * cannot be used on m afterwards (it returns SS_NONE).  The stack's id, or
 * SS_NONE (OOM). */
ss_id ss_model_append_stack(struct ss_model *m, const ss_id *locs, size_t n, ss_id tail);

/* The timeline of a model derived from o (transforms), in one call: m takes
 * over `stacks` (malloc'ed, n stack ids of m, freed with m) as its samples,
 * whose sample k was sample keep[k] of o (keep increasing; NULL: base + k).
 * m shares o's value columns (values_borrowed: nothing is copied, and o
 * must outlive m): with keep NULL (or consecutive) m points at row `base`
 * of them, else m's value_rows say which row each kept sample reads (4
 * bytes a sample).  Its sources (with their new
 * ranges), labels and label sets
 * (the same ids; each kept sample keeps its set) and gaps (plus one wherever
 * two kept samples were not neighbours in o) follow.  ss_model_label and
 * ss_model_label_set cannot be used on m afterwards.  m has no
 * sources or samples yet (ss_model_init_like).  Returns 0 or -1 (OOM; m
 * owns `stacks` either way). */
int ss_model_derive_samples(struct ss_model *m, const struct ss_model *o, ss_id *stacks,
                            const uint32_t *keep, size_t base, size_t n);

/* The same, where stacks holds stacks_cap ids (at least n) and *keep
 * (malloc'ed, or NULL; keep_bytes its allocation) may be given to m: when o
 * reads its columns directly and keep is not one stretch, m's value_rows
 * are keep itself (no copy, no fresh pages: 40 MB at 10M samples) and
 * *keep is set to NULL; otherwise the caller still owns *keep (to free, or
 * to keep for the next model: struct ss_spare). */
int ss_model_derive_samples_take(struct ss_model *m, const struct ss_model *o, ss_id *stacks,
                                 size_t stacks_cap, uint32_t **keep, size_t keep_bytes, size_t base,
                                 size_t n);

/* Drop the builder's indexes (call when loading is done; saves memory).
 * Builder functions must not be called afterwards. */
void ss_model_seal(struct ss_model *m);

/* --- questions about the model ------------------------------------------ */

/* The canonical function named exactly `name`, or SS_NONE. */
ss_id ss_model_find_function(const struct ss_model *m, const char *name);

/* Does any source of m have memory (resp. line) profiling?  Lines also when
 * any location has a line number (pprof, tables). */
int ss_model_has_memory(const struct ss_model *m);
int ss_model_has_lines(const struct ss_model *m);

/* pprof's inline marks (its -top): a function called only through inlined
 * calls is "(inline)", one called both ways "(partial-inline)".  Each
 * caller -> callee pair of distinct functions in the samples' stacks
 * (once per stack, from the root) is an inlined call when every time it
 * occurs the callee's frame is SS_LOC_INLINE.  mark[f] (one per function,
 * filled for canonical ids) receives SS_INLINE_NONE, _FULL or _PARTIAL.
 * Returns 1 when some function has a mark (0 at once when no location is
 * inlined), or -1 (out of memory). */
enum { SS_INLINE_NONE, SS_INLINE_FULL, SS_INLINE_PARTIAL };
int ss_model_inline_marks(const struct ss_model *m, uint8_t *mark);

/* The text of an inline mark: "", "(inline)" or "(partial-inline)". */
const char *ss_inline_label(int mark);

/* Does m have a source with aggregates only (SamplingProf) / a source with
 * raw samples (any source without SS_SRC_AGGREGATE, even an empty one)? */
int ss_model_has_aggregates(const struct ss_model *m);
int ss_model_has_stack_sources(const struct ss_model *m);

/* The sample count of aggregate source `src`: the sum of its self counts
 * (0 for a source without aggregates). */
uint64_t ss_agg_samples(const struct ss_model *m, ss_id src);

/* The samples of source `src` as every table counts them: its rows' summed
 * count values (a folded line or a pprof sample of count k is k samples), or
 * an aggregate source's count (ss_agg_samples). */
uint64_t ss_source_samples(const struct ss_model *m, ss_id src);

/* Does m have samples in time order: a source with raw samples and without
 * SS_SRC_UNORDERED (Rprof, perf script, Chrome/Node, speedscope; a pprof
 * profile only when stackscope wrote it from one of those)?  Without one,
 * there is no timeline, no phase and no run (folded stacks, pprof,
 * SamplingProf). */
int ss_model_has_time_order(const struct ss_model *m);

/* What the count column (ss_model_count) counts, for the words of the
 * explorer and `check`: "samples", or the pprof sample type the counts
 * came from when the profile has no "samples" type (a Go heap profile's
 * "alloc_objects": its samples are allocated objects), by pprof's rule
 * (load_pprof.c: samples, else the first type counted in "count").  Into
 * buf; returns buf. */
const char *ss_model_count_name(const struct ss_model *m, char *buf, size_t n);

/* The summed count values of samples [first, first + n) (a folded line or a
 * pprof sample may stand for many samples; an Rprof line is one). */
uint64_t ss_model_count(const struct ss_model *m, size_t first, size_t n);

/* What a profile adds up to, as every report header and the explorer's
 * status line show it.  `samples` counts every sample (count values), those
 * with no frames and the aggregate sources' included; `counted` only those
 * with at least one frame, and `sampling_time` is their time (count x their
 * source's interval, summed per source exactly as ss_stats_compute does).
 * The agg_ fields are the aggregate sources' part of both. */
struct ss_totals {
    uint64_t samples, counted;
    double sampling_time;
    double value; /* the chosen measure's total over the counted samples */
    uint64_t agg_samples;
    double agg_time;
    double agg_value;
    size_t rows;       /* raw sample rows (the timeline's length) */
    size_t empty_rows; /* rows with neither a frame nor a position */
};
void ss_model_totals(const struct ss_model *m, struct ss_totals *t);
/* The same for source `src` alone (`rows`: its raw sample rows); the
 * sources' totals add up to the model's, `value` to the last bit when
 * summed in source order. */
void ss_source_totals(const struct ss_model *m, ss_id src, struct ss_totals *t);

/* The value of label `lab` as text: its string (borrowed), or its number in
 * decimal followed by a space and its unit when it has one, written into
 * buf[0..n) (n >= 48 is enough for any number, a long unit is cut). */
const char *ss_label_value(const struct ss_model *m, ss_id lab, char *buf, size_t n);

/* The key of label `lab` (borrowed). */
static inline const char *ss_label_key(const struct ss_model *m, ss_id lab)
{
    return ss_str(m, m->labels.v[lab].key);
}

/* --- measures (stackscope(1), MEASURES) ----------------------------------- */

/* The measures m offers, the default first: Rprof time, samples (and with
 * memory profiling memory, released, duplications); every pprof sample type
 * (default: the profile's default_sample_type, else the last type), time
 * where the period is a time; samples for folded stacks and SamplingProf.
 * Fills out[0..max) and returns how many there are (which may be more). */
size_t ss_model_measures(const struct ss_model *m, struct ss_measure *out, size_t max);

/* Does source s have measure ms? */
int ss_source_has_measure(const struct ss_model *m, size_t s, const struct ss_measure *ms);

/* Choose the measure named `name` (NULL or "": the default).  Returns 0,
 * SS_EUSAGE when m has no such measure (err lists those it has), SS_EINPUT
 * when the measure's values sum past INT64_MAX, or SS_ENOMEM. */
int ss_model_set_measure(struct ss_model *m, const char *name, struct ss_error *err);

/* As ss_model_set_measure, for a model m derived from o (a transform's
 * output, ss_model_derive_samples; o may be NULL): a derived column that o
 * already computed (memory, released) is m's too, read through m's rows
 * (no pass at all: a kept sample keeps its bytes).  The weights are the
 * same as ss_model_set_measure's. */
int ss_model_set_measure_from(struct ss_model *m, const char *name, const struct ss_model *o,
                              struct ss_error *err);

/* As ss_model_set_measure_from, a derived column's array taken from spare
 * (vec.h; NULL: a new one), so that a measure chosen in the explorer
 * writes into pages already faulted in. */
int ss_model_set_measure_spare(struct ss_model *m, const char *name, const struct ss_model *o,
                               struct ss_spare *spare, struct ss_error *err);

/* Forget the kept derived columns (memory, released), which the next
 * choice of those measures computes again; the chosen measure must not be
 * one of them (its weights read the column).  Their arrays go to spare
 * (NULL: freed). */
void ss_model_forget_derived(struct ss_model *m, struct ss_spare *spare);

/* Free the chosen measure's weights (back to `time`); ss_model_free does. */
void ss_model_weights_free(struct ss_model *m);

/* The chosen measure. */
static inline const struct ss_measure *ss_model_measure(const struct ss_model *m)
{
    return &m->weights.measure;
}

/* A measure's name ("time", "memory", "alloc_space") and the raw unit TSV
 * gives ("seconds", "bytes", "nanoseconds", "count"), borrowed from m or
 * static; the chosen measure's name. */
const char *ss_measure_name(const struct ss_model *m, const struct ss_measure *ms);
const char *ss_measure_unit(const struct ss_model *m, const struct ss_measure *ms);
static inline const char *ss_model_measure_name(const struct ss_model *m)
{
    return ss_measure_name(m, &m->weights.measure);
}

/* R's basename(): the part of `path` after the last '/', ignoring trailing
 * slashes, as a pointer into path and a length. */
void ss_basename(const char *path, const char **start, size_t *len);

/* --- lookups ------------------------------------------------------------- */

/* The index in m->gaps of the first gap at a position >= i (m->gaps.n when
 * none): a pass over samples i, i + 1, ... keeps this index and ends its
 * runs at sample gaps.v[index] when it gets there. */
size_t ss_model_gap_first(const struct ss_model *m, size_t i);

/* Is sample i preceded by a gap (samples removed between i - 1 and i)? */
int ss_model_gap_before(const struct ss_model *m, size_t i);

/* The source of sample i (binary search over the sources' ranges). */
ss_id ss_sample_source(const struct ss_model *m, size_t i);

/* Interval of source s in seconds, computed as R does (us / 1e6). */
static inline double ss_source_interval_s(const struct ss_model *m, ss_id s)
{
    return m->sources.v[s].interval_us / 1e6;
}

/* --- samples per distinct stack, one source at a time ------------------- */

/* Scratch for counting a source's samples per distinct stack: the shared
 * first pass of every statistic (time is count x the source's interval, so
 * counts are kept per source).  After ss_stack_counts_source, touched[0..n)
 * are the stacks the source's samples hit, in order of first hit, cnt[stack]
 * their summed count values and val[stack] their summed weights under the
 * chosen measure (x ss_source_scale is the measure's value). */
struct ss_stack_counts {
    uint64_t *cnt; /* one per distinct stack */
    int64_t *val;  /* the summed weights (ss_sample_weight), one per distinct stack */
    uint8_t *seen;
    ss_id *touched;
    size_t n, cap;
    struct ss_stack_counts *more; /* a long source's other parts (model.c), kept */
    size_t nmore;
    /* NULL, or a flag another thread sets to stop a count (it then returns
     * -1, as out of memory: the caller that set it knows): a background
     * job's count of ten million samples must not hold up the key that
     * cancels it.  Looked at every 64Ki samples. */
    const atomic_int *stop;
};

/* Allocate the scratch for model m.  Returns 0 or -1 (out of memory). */
int ss_stack_counts_init(struct ss_stack_counts *sc, const struct ss_model *m);

/* Count the samples of source src (clearing the previous source's counts).
 * Returns 0 or -1 (out of memory, or stopped: sc->stop). */
int ss_stack_counts_source(struct ss_stack_counts *sc, const struct ss_model *m, ss_id src);

void ss_stack_counts_free(struct ss_stack_counts *sc);

#endif
