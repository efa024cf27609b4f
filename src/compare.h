/* compare.h - comparing two profiles (stackscope(1), COMPARING).
 *
 * A comparison is two models loaded separately, the base and the new
 * profile, weighed by the same measure (by name) and transformed by the same
 * transform list; nothing here loads or transforms.  Rows are joined by
 * what the user reads: functions by name, lines by their `basename#line`
 * key, stacks by their names root first.  Every row has base, new and
 * delta = new - base; a key present on one side only has 0 on the other.
 *
 * Values are in the new profile's raw unit of the measure (a base in
 * another unit of the same kind, as nanoseconds against seconds, is
 * converted), times the base's scale: 1, or with normalize the new total
 * over the base total, so that the scaled base adds up to the new profile
 * (stackscope(1), COMPARING; note that Go's pprof -normalize scales the other
 * way: the new profile to the base's total).
 *
 * For the writers, ss_compare_merge builds one model holding the new
 * profile's sources and then the base's, flagged SS_SRC_BASE (and
 * SS_SRC_NORMALIZE with normalize): the pprof writer negates (and scales)
 * their samples, the folded writer writes `stack BASE NEW` lines, the
 * others refuse (ss_model_is_comparison).  ss_compare_split does the
 * reverse for a loaded difference profile (a pprof file with negative
 * samples, whose negated samples the loader put into a SS_SRC_BASE source).
 * Curses-free; the UI and `report` share it.
 */
#ifndef SS_COMPARE_H
#define SS_COMPARE_H

#include <stdint.h>

#include "model.h"
#include "stats.h"
#include "timeline.h"
#include "units.h"
#include "verdict.h"

#define SS_VSIDES_PENDING (-2)

struct ss_compare {
    const struct ss_model *base, *cur; /* borrowed: the base and the new profile */
    double conv;                       /* base raw unit -> the new profile's */
    double scale;                      /* base values multiply by conv x this */
    double total_base, total_new;      /* the measure's totals (base converted, unscaled) */
    int normalized;
    struct ss_units units; /* the new profile's */
    /* Verdicts (verdict.h): made by every ss_compare_* table unless
     * no_verdicts is set; alpha their level (0.05 by ss_compare_init). */
    double alpha;
    int no_verdicts;
    /* Where the two sides' units come from (NULL: computed at once, the
     * base's on a second thread): a front end that keeps them, or works
     * them out while it answers keys, sets it.  It fills *b and *n (owned
     * by the caller) and returns 0; SS_VSIDES_PENDING when they are not
     * ready (the rows are then untested and the table's vinfo.pending is
     * set), or an error code with err set.  ss_cmp_vsides is the
     * computation. */
    int (*vsides)(void *ctx, const struct ss_compare *c, const struct ss_vmap *mb,
                  const struct ss_vmap *mn, size_t nrows, int per_run, struct ss_vside *b,
                  struct ss_vside *n, struct ss_error *err);
    void *vctx;
};

/* How a table's verdicts were made (verdict.h): done 0 when they were not
 * (no_verdicts); the files of each side; method, for headers. */
struct ss_cmp_vinfo {
    int done;
    int pending; /* not done yet: the units are being worked out (vsides) */
    double alpha;
    size_t files_b, files_n;
    int across_runs; /* Welch on each file's share */
    size_t rows;     /* the rows of the table (tested or not) */
    char method[160];
};

/* Verdicts of a table whose rows are numbered alike on both sides, from
 * each side's map (verdict.h: ss_vmap_*): row r's self verdict at
 * vself + r * stride and its total at vtot + r * stride (NULL: not that
 * one), each quantity adjusted over its nrows rows.  Returns 0 or an
 * error code. */
int ss_cmp_verdicts(const struct ss_compare *c, const struct ss_vmap *mb, const struct ss_vmap *mn,
                    size_t nrows, void *vself, void *vtot, size_t stride, struct ss_cmp_vinfo *info,
                    struct ss_error *err);
/* Both sides' units for a table's verdicts (ss_cmp_verdicts), the base's
 * on a second thread when there are two processors and enough samples;
 * stop as in ss_vside_compute_stop (NULL: never).  Returns 0, SS_VSIDE_STOPPED
 * or an error code (*b and *n empty but for 0). */
int ss_cmp_vsides(const struct ss_compare *c, const struct ss_vmap *mb, const struct ss_vmap *mn,
                  size_t nrows, int per_run, const atomic_int *stop, struct ss_vside *b,
                  struct ss_vside *n, struct ss_error *err);
/* The same rows marked untested (c->no_verdicts: NaN numbers, ~). */
void ss_cmp_no_verdicts(void *vself, void *vtot, size_t nrows, size_t stride);

/* Set up a comparison of `cur` against `base`, which must weigh by
 * measures of the same name (ss_compare_check_measure).  With normalize,
 * the base scales by total_new / total_base (1 when the base is empty). */
void ss_compare_init(struct ss_compare *c, const struct ss_model *base, const struct ss_model *cur,
                     int normalize);
/* As ss_compare_init, with the two models' totals of the measure given
 * (ss_totals.value of ss_model_totals: a pass over each side's samples,
 * which a caller that compares the same models again keeps). */
void ss_compare_init_totals(struct ss_compare *c, const struct ss_model *base,
                            const struct ss_model *cur, int normalize, double value_base,
                            double value_new);

/* Choose on `base` the measure `cur` weighs by (by name).  When the base
 * has no such measure and `chosen` is 0 (the measure is cur's default, not
 * the user's --value), both sides fall back to `time`, then `samples`, when
 * both have it.  Returns 0, or SS_EUSAGE with err naming the measure and
 * `base_name` when the base has no such measure, or another error code. */
int ss_compare_check_measure(struct ss_model *base, struct ss_model *cur, const char *base_name,
                             int chosen, struct ss_error *err);

/* The order of two deltas, larger first (-1, 0, 1), where values within
 * 1e-12 (relative) of each other tie: trees, calls, levels, runs and
 * labels sum seconds, not exact units, and rounding must not decide their
 * order.  One comparison for every table that sorts by a summed delta. */
int ss_cmp_desc_near(double a, double b);

/* The order of two joined rows (the labels' and the runs' comparisons) by
 * the measure's delta (dva, dvb; ss_cmp_desc_near), then by the samples'
 * (base sb*, new sn*), larger first: -1, 0 or 1. */
int ss_cmp_by_deltas(double dva, double dvb, uint64_t sba, uint64_t sna, uint64_t sbb,
                     uint64_t snb);

/* The row of a text key in a table that joins both sides' rows by it (the
 * labels and runs comparisons): rows are numbered by their key's id in
 * `index`, so a known key gives its row; a new one gets a zeroed row at
 * number n of *rows (`size` bytes a row, *cap allocated; grown here) and
 * sets *fresh: the caller fills it and counts it.  SIZE_MAX: out of memory. */
size_t ss_cmp_join_row(struct ss_strtab *index, const char *key, size_t len, void **rows, size_t n,
                       size_t *cap, size_t size, int *fresh);

/* A base value in the new profile's unit, scaled. */
static inline double ss_compare_base(const struct ss_compare *c, double v)
{
    return v * c->conv * c->scale;
}

/* One function or line in a comparison. */
struct ss_cmp_row {
    ss_id key;               /* string id in ss_cmp_stats.keys */
    double self_b, self_n;   /* base (scaled, converted) and new self value */
    double total_b, total_n; /* the same for total */
    double self_bx, self_nx; /* the same in exact units (time: microseconds), for ordering */
    double total_bx, total_nx;
    ss_id file;    /* by line: basename's id in keys (SS_NONE: none) */
    uint32_t line; /* by line: 0 for none */
    struct ss_verdict vself, vtotal;
};

struct ss_cmp_stats {
    struct ss_strtab keys;
    struct ss_cmp_row *rows;
    size_t n;
    double total_b, total_n; /* the measure's totals (base scaled) */
    struct ss_units units;
    struct ss_cmp_vinfo vinfo;
};

/* Join the function (or line) statistics of both sides.  Rows in no order
 * until sorted.  Returns 0 or an error code. */
int ss_compare_stats(const struct ss_compare *c, enum ss_stats_key by, struct ss_cmp_stats *out,
                     struct ss_error *err);
void ss_cmp_stats_free(struct ss_cmp_stats *s);

/* Orders: self delta descending (largest growth first), then total delta,
 * then name; total delta first; by position (file, then line).  Return 0,
 * or -1 when memory runs out (the rows unchanged). */
int ss_cmp_sort_self(struct ss_cmp_stats *s);
int ss_cmp_sort_total(struct ss_cmp_stats *s);
int ss_cmp_sort_line(struct ss_cmp_stats *s);

/* Distinct stacks (names root first, joined by ';') of both sides. */
struct ss_cmp_stack {
    ss_id key; /* the stack's text in ss_cmp_stacks.keys */
    double base, cur;
    double base_x, cur_x; /* the same in exact units, for ordering */
    uint32_t depth;
    struct ss_verdict v;
};
struct ss_cmp_stacks {
    struct ss_strtab keys;
    struct ss_cmp_stack *rows; /* by delta descending, then text */
    size_t n;
    double total_b, total_n;
    struct ss_units units;
    struct ss_cmp_vinfo vinfo;
};
int ss_compare_stacks(const struct ss_compare *c, struct ss_cmp_stacks *out, struct ss_error *err);
void ss_cmp_stacks_free(struct ss_cmp_stacks *s);

/* A call tree of both sides (tree.h), nodes joined by their path of
 * names from the root.  Nodes in depth-first pre-order, siblings by total
 * delta descending (largest growth first), then name. */
struct ss_cmp_tnode {
    ss_id name; /* the function's name in ss_cmp_tree.keys */
    uint32_t depth, parent;
    double self_b, self_n, total_b, total_n;
    double total_bx, total_nx; /* exact units, for ordering */
    struct ss_verdict vself, vtotal;
};
struct ss_cmp_tree {
    struct ss_strtab keys; /* names, and the paths that join the nodes */
    struct ss_cmp_tnode *nodes;
    size_t n;
    double total_b, total_n;
    struct ss_units units;
    struct ss_cmp_vinfo vinfo;
};

/* Build the trees of both sides (top-down, or bottom-up with inverted) and
 * join them.  With focus (a name, or NULL), each side's tree of that
 * function (ss_tree_build's focus); a side without the function has an
 * empty tree, and SS_EUSAGE when neither has it.  Returns 0 or an error. */
int ss_compare_tree(const struct ss_compare *c, int inverted, const char *focus,
                    struct ss_cmp_tree *out, struct ss_error *err);
void ss_cmp_tree_free(struct ss_cmp_tree *t);

/* For the nodes of `t`, the new profile's tree (tree.h) built with
 * `inverted` and the focus named `focus` (or NULL), the base's total and
 * self of the node with the same path of names (0 when the base has none),
 * scaled and converted, into total[0..t->n) and self[0..t->n).  Returns 0
 * or an error code. */
struct ss_tree;
int ss_compare_tree_base(const struct ss_compare *c, int inverted, const char *focus,
                         const struct ss_tree *t, double *total, double *self,
                         struct ss_error *err);

/* The verdicts of the nodes of t (as ss_compare_tree_base joins them):
 * node i's self into vself[i] and total into vtotal[i], adjusted over t's
 * nodes (nodes only the base has are not rows).  Returns 0 or an error. */
int ss_compare_tree_verdicts(const struct ss_compare *c, int inverted, const char *focus,
                             const struct ss_tree *t, struct ss_verdict *vself,
                             struct ss_verdict *vtotal, struct ss_cmp_vinfo *info,
                             struct ss_error *err);

/* A function's callers and callees on both sides (tree.h: ss_calls_of),
 * joined by name; each list by delta descending, then name. */
struct ss_cmp_edge {
    ss_id name; /* in ss_cmp_calls.keys */
    double base, cur;
    double base_x, cur_x;
};
struct ss_cmp_calls {
    struct ss_strtab keys;
    double self_b, self_n, total_b, total_n;
    struct ss_cmp_edge *callers, *callees;
    size_t ncallers, ncallees;
    struct ss_units units;
};
int ss_compare_calls(const struct ss_compare *c, const char *function, struct ss_cmp_calls *out,
                     struct ss_error *err);
void ss_cmp_calls_free(struct ss_cmp_calls *k);

/* Levels of both sides joined by level number (1 = root), up to the
 * deeper side's depth: samples reaching the level (counts, never scaled),
 * the measure of those samples (the base's converted and scaled), the
 * distinct functions and the most frequent one (its name in keys; SS_NONE
 * when the side has no sample at the level). */
struct ss_cmp_level {
    uint32_t level;
    uint64_t samples_b, samples_n;
    double value_b, value_n;
    uint32_t distinct_b, distinct_n;
    ss_id top_b, top_n;
};
struct ss_cmp_levels {
    struct ss_strtab keys;
    struct ss_cmp_level *rows; /* rows[k] is level k + 1 */
    size_t n;
    struct ss_units units;
};
int ss_compare_levels(const struct ss_compare *c, struct ss_cmp_levels *out, struct ss_error *err);
void ss_cmp_levels_free(struct ss_cmp_levels *l);

/* Run lengths (runs.h: ss_runs_compute with level_filter `level`) of both
 * sides joined by function name and level; with `function` (not NULL) the
 * rows of that name only.  Counts (runs, samples) and the mean run length
 * are as recorded on each side; the measure of the base's runs is
 * converted and scaled.  Rows by the measure's delta (largest growth
 * first), then the samples' delta, then name, then level (0 first). */
struct ss_cmp_run {
    ss_id name; /* in ss_cmp_runs.keys */
    uint32_t level;
    uint64_t runs_b, runs_n, samples_b, samples_n;
    double mean_b, mean_n;
    double value_b, value_n;
};
struct ss_cmp_runs {
    struct ss_strtab keys;
    struct ss_cmp_run *rows;
    size_t n;
    struct ss_units units;
};
int ss_compare_runs(const struct ss_compare *c, uint32_t level, const char *function,
                    struct ss_cmp_runs *out, struct ss_error *err);
void ss_cmp_runs_free(struct ss_cmp_runs *r);

/* Labels (labels.h: ss_label_stats_compute) of both sides joined by key
 * and value text (labels are interned per model): samples carrying the
 * label (counts, never scaled) and their measure (the base's converted and
 * scaled); a label on one side only has 0 on the other.  Rows by the
 * measure's delta (largest growth first), then the samples' delta, then
 * key, then value. */
struct ss_cmp_label {
    ss_id key, value; /* in ss_cmp_labels.keys */
    uint64_t samples_b, samples_n;
    double value_b, value_n;
    struct ss_verdict v; /* of the measure */
};
struct ss_cmp_labels {
    struct ss_strtab keys;
    struct ss_cmp_label *rows;
    size_t n;
    uint64_t unlabelled_b, unlabelled_n; /* samples with no label on each side */
    struct ss_units units;
    struct ss_cmp_vinfo vinfo;
};
int ss_compare_labels(const struct ss_compare *c, struct ss_cmp_labels *out, struct ss_error *err);
void ss_cmp_labels_free(struct ss_cmp_labels *l);

/* The timelines (timeline.h) of both sides at one level, each cut into at
 * most `width` windows, so that window i covers the same share of each
 * side's samples. */
struct ss_cmp_timeline {
    struct ss_timeline base, cur;
};
int ss_compare_timeline(const struct ss_compare *c, uint32_t level, size_t width,
                        struct ss_cmp_timeline *out, struct ss_error *err);
void ss_cmp_timeline_free(struct ss_cmp_timeline *t);

/* The flame graph in a comparison (stackscope(1), COMPARING): for every
 * frame of `fl`, the new profile's aggregated graph built with options o
 * (not time order), the base's total of the frame with the same path of
 * function names (0 when the base has none), scaled and converted, into
 * base[0..fl->n).  Returns 0 or an error code. */
struct ss_flame;
struct ss_flame_opts;
int ss_compare_flame(const struct ss_compare *c, const struct ss_flame_opts *o,
                     const struct ss_flame *fl, double *base, struct ss_error *err);

/* The same with what the base has and the new graph lacks: ss_compare_flame
 * fills base[] and, when gone is not NULL, *gone with the base's frames
 * whose path the new graph does not have but whose parent's it does (or
 * roots): gone_parent[k] is the new frame under which gone frame k would be
 * (SS_FLAME_NONE: a root), gone_name[k] its function's name (borrowed from
 * the base model), gone_total[k] its scaled total.  Free with
 * ss_cmp_gone_free. */
struct ss_cmp_gone {
    uint32_t *parent;
    const char **name;
    double *total;
    size_t n;
};
/* With fv not NULL (and not c->no_verdicts, and fl not a chart in time
 * order), also the verdict of every frame's total (verdict.h; the frame of
 * the same path in the base, and each side's samples through it), and of
 * every gone frame's after them: fv->v[i] for frame i, fv->v[fl->n + k]
 * for gone frame k, adjusted over all of them; free with
 * ss_cmp_fverdicts_free (fv->v NULL when not made). */
struct ss_cmp_fverdicts {
    struct ss_verdict *v;
    size_t n;
    struct ss_cmp_vinfo info;
};
int ss_compare_flame_gone(const struct ss_compare *c, const struct ss_flame_opts *o,
                          const struct ss_flame *fl, double *base, struct ss_cmp_gone *gone,
                          struct ss_cmp_fverdicts *fv, struct ss_error *err);
void ss_cmp_gone_free(struct ss_cmp_gone *g);
void ss_cmp_fverdicts_free(struct ss_cmp_fverdicts *fv);

/* The same for a sandwich's half (flame.h's ss_flame_build_focus): fl is
 * the new profile's graph focused on function `focus` (a name) with options
 * o, joined with the base's graph focused on the same name (every base 0,
 * nothing gone, when the base has no such function). */
int ss_compare_flame_focus(const struct ss_compare *c, const struct ss_flame_opts *o,
                           const char *focus, const struct ss_flame *fl, double *base,
                           struct ss_cmp_gone *gone, struct ss_cmp_fverdicts *fv,
                           struct ss_error *err);

/* The colour of a frame in a comparison, as flamegraph.pl's differential
 * graphs: red for growth, blue for shrinkage, white when equal, the
 * intensity by |delta| / max_delta (the largest |delta| of the graph).
 * Returns -3..3: the sign is the direction, the size the intensity (0:
 * unchanged or too small to show). */
int ss_compare_shade(double base, double cur, double max_delta);

/* Does m hold a comparison (a source flagged SS_SRC_BASE)? */
int ss_model_is_comparison(const struct ss_model *m);

/* Build *out (initialised here, sealed) from the new profile's samples
 * followed by the base's, whose sources get SS_SRC_BASE (and, with
 * c->normalized, SS_SRC_NORMALIZE).  Returns 0 or an error code. */
int ss_compare_merge(const struct ss_compare *c, struct ss_model *out, struct ss_error *err);

/* Split a model holding SS_SRC_BASE sources into the new profile (*cur:
 * the other sources) and the base (*base: those sources, flag cleared);
 * both initialised here and sealed.  Returns 0 or an error code. */
int ss_compare_split(const struct ss_model *m, struct ss_model *base, struct ss_model *cur,
                     struct ss_error *err);

#endif
