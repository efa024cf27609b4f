/* stats.h - self/total time per function or per source line, and memory
 * (stackscope(1), STATISTICS; equal to R's summaryRprof on files R reads
 * correctly).
 *
 * self of key k: samples whose innermost key is k; total: samples in which k
 * occurs at least once (recursion counts once).  Time is count x the interval
 * of each sample's own source, summed per source so that it is exactly R's
 * count * interval.  Samples with no frames are not counted by function
 * (they stay in the timeline only); a sample made only of a position counts
 * by line.  Per line, the keys are R's lines="show" keys
 * (`basename#line`, `NA#line` for an undeclared file number, `<no location>`).
 * Memory is R's memory="both": per sample 8*d(small_v) + 8*d(big_v) +
 * d(nodes) against the previous sample of the same source (negatives clamped
 * to 0, the first sample of a source 0), credited to each distinct key of the
 * sample; differenced over the whole session (R restarts every 5000 lines).
 *
 * Aggregate sources (SamplingProf: counts per call element, no stacks) add
 * their elements' counts: self exactly; total as the sum over the key's
 * elements, capped at the source's sample count (two elements of one
 * function in one sample cannot be told apart, so the sum may count that
 * sample twice).  Their samples (the sum of the self counts) count in
 * samples_counted and sampling_time, so percentages are of all sources.
 */
#ifndef SS_STATS_H
#define SS_STATS_H

#include <stdint.h>

#include "model.h"
#include "units.h"

enum ss_stats_key {
    SS_BY_FUNCTION, /* function name */
    SS_BY_LINE,     /* source position: basename#line */
};

struct ss_stat_row {
    ss_id key;        /* string id in ss_stats.keys */
    ss_id function;   /* by function: the row's canonical function id; else SS_NONE */
    uint64_t self_n;  /* self samples (sum of count values) */
    uint64_t total_n; /* total samples */
    double self_v;    /* the measure's value (time: seconds, the sum over sources of
                       * count x interval_s, as R) */
    double total_v;
    double self_x; /* the same in exact units (time: microseconds), for ordering */
    double total_x;
    double mem_bytes; /* bytes allocated (with memory) */
    /* With memory, profvis's code pane: the rise (alloc) and fall
     * (released) of R's vector memory at the row's samples (rprof.h:
     * ss_rprof_vector_change), credited as mem_bytes is. */
    double alloc_bytes, released_bytes;
    ss_id file;    /* by line: basename string id in keys, for ordering */
    uint32_t line; /* by line: line number, 0 for none */
    uint8_t inl;   /* by function: SS_INLINE_* (pprof's "(inline)" mark) */
};

struct ss_stats {
    struct ss_strtab keys;    /* names of the rows (owned) */
    struct ss_stat_row *rows; /* one per key, in key order until sorted */
    size_t n;
    double value_total;       /* the measure's value of the counted samples */
    uint64_t samples_counted; /* samples with at least one key */
    uint64_t samples_total;   /* all samples, empty ones included */
    uint64_t agg_samples;     /* the part of samples_counted from aggregate sources */
    double agg_value;         /* the part of value_total from aggregate sources */
    int has_memory;           /* mem_bytes is meaningful */
    struct ss_units units;    /* the measure the values are of, and how they read */
    struct ss_totals totals;  /* ss_model_totals's figures (but empty_rows, not counted),
                               * from the same pass: the report's header */
    /* By line: what people read for the file of an empty name (R's key
     * "#3"): "(unnamed file 1)" (source.h: ss_source_base_label). */
    char unnamed[48];
};

/* Compute the statistics of model m keyed by `by`, with memory when `memory`
 * is set.  Returns 0 or an error code (out of memory). */
int ss_stats_compute(const struct ss_model *m, enum ss_stats_key by, int memory,
                     struct ss_stats *out, struct ss_error *err);

void ss_stats_free(struct ss_stats *st);

/* The by-line key of location loc of m (R's `basename#line`, `NA#line`
 * without a file) into buf[0..n) (n >= 32; a basename longer than n - 16 is
 * cut), *file_len the length of its file part.  Returns the key's length,
 * or 0 for a location without a line. */
size_t ss_stats_line_key(const struct ss_model *m, ss_id loc, char *buf, size_t n,
                         size_t *file_len);

/* Row orders: by self time, by total time (each descending, ties by the other
 * time, then by name in byte order), by source position (file, then line, as
 * R's by.line).  Return 0, or -1 when memory runs out (the rows
 * unchanged). */
int ss_stats_sort_self(struct ss_stats *st);
int ss_stats_sort_total(struct ss_stats *st);
int ss_stats_sort_line(struct ss_stats *st);

#endif
