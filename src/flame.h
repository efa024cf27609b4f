/* flame.h - the flame graph (stackscope(1), THE EXPLORER and SVG): the icicle
 * of a profile's stacks, its time-ordered variant (the flame chart), zoom and
 * search.
 *
 * A flame graph is a forest of frames.  In the aggregated graph a frame is a
 * path of functions from a root (the outermost frame; inverted: from a
 * leaf), merged over every sample whose stack starts with that path, exactly
 * like a node of the call tree (tree.h); so a frame's total is the weight of
 * the samples that pass through it and its self the weight of those that end
 * there, and total = self + the children's totals.  In the time-ordered
 * chart (profvis, speedscope's "time order") samples are not merged across
 * time: consecutive samples that share a prefix share its frames, and a
 * frame ends where the next sample leaves its path.  A chart frame also ends
 * at every break of the timeline: a source (file or Rprof session) boundary,
 * samples removed by a transform (a gap) and a sample with no frames.
 *
 * Widths come from weights supplied by the caller, so the core does not care
 * what is measured: one weight per distinct model stack for the aggregated
 * graph (the measure's value of all the samples of that stack), one weight
 * per sample for the chart.  Weights that are not positive leave their
 * samples out (they would have no width).  ss_flame_measure_weights() gives
 * the weights of the model's chosen measure (`time`, count x the interval of
 * each sample's source in seconds, unless --value chose another).
 *
 * Functions are canonical ids (ss_function_canonical): one frame per name.
 * Frames are stored in depth-first pre-order, children in display order
 * (left to right), so a frame's subtree is nodes[i .. end) and a zoom is a
 * subtree; frames of one depth appear in pre-order from left to right.
 */
#ifndef SS_FLAME_H
#define SS_FLAME_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"

#define SS_FLAME_NONE UINT32_MAX /* "no frame" */

struct ss_flame_index; /* flame_index.h */

/* The order of the children of a frame in the aggregated graph (the chart
 * is always in time order). */
enum ss_flame_order {
    SS_FLAME_BY_NAME,   /* by function name in byte order, as flamegraph.pl */
    SS_FLAME_BY_WEIGHT, /* heaviest first, then by name ("left heavy") */
};

struct ss_flame_opts {
    int inverted;   /* leaves as roots: a frame's children are its callers */
    int time_order; /* the flame chart: samples in time order, not merged */
    enum ss_flame_order order;
};

struct ss_flame_node {
    ss_id function;  /* canonical function id */
    ss_id loc;       /* the location of every frame merged here, SS_NONE when
                      * they differ (several lines of the function) */
    uint32_t parent; /* SS_FLAME_NONE for a root */
    uint32_t depth;  /* 0 for a root */
    uint32_t end;    /* one past the last frame of the subtree */
    double self;     /* weight of the samples that end here */
    double total;    /* weight of the samples that pass through here */
    double x;        /* where the frame starts: the weight left of it on its
                      * row (aggregated: the parent's x plus the totals of the
                      * siblings before it; chart: the weight of the samples
                      * before its first sample) */
};

struct ss_flame {
    struct ss_flame_node *nodes; /* owned; NULL when n == 0 */
    size_t n;
    double total;       /* the roots' totals: the whole width */
    uint32_t max_depth; /* the deepest frame's depth + 1 (0 when empty) */
    size_t nframes;     /* the frames of the graph: n, or for a chart built
                         * with a grid (ss_flame_build_grid), also those it
                         * left out */
    struct ss_flame_opts opts;
};

/* Build the flame graph of model m with options o.  Aggregated: stack_w has
 * one weight per distinct stack of m (ss_model_nstacks); the chart:
 * sample_w has one weight per sample (m->sample_stack.n).  The other array
 * may be NULL.  On success returns 0 and the caller owns *out
 * (ss_flame_free); on failure returns an error code with err set and *out
 * empty. */
int ss_flame_build(const struct ss_model *m, const double *stack_w, const double *sample_w,
                   const struct ss_flame_opts *o, struct ss_flame *out, struct ss_error *err);

/* The resolution of a chart built for a screen: a frame is made only when
 * one of its samples covers a point x0 + (c + 0.5) * w / cols for some
 * c < cols (w == 0: the window is the whole chart, x0 is ignored).  A
 * screen `cols` wide showing [x0, x0 + w) draws a frame in a column exactly
 * when it covers that column's middle, so the frames left out are those it
 * cannot draw; a picture whose frames under `step` are left out keeps every
 * frame it draws with cols = w / step.  The frames made are exact (x,
 * total, self); a frame's children are then only those made, so self plus
 * the children's totals can be less than its total.
 *
 * A zoom can skip the samples outside it: `path` (npath frames, root
 * first, NULL: none) is a frame of a chart built before from the same
 * model, weights and options, and its ancestors, as that chart has them
 * (the last one spans [x0, x0 + w) exactly, its x and total).  They become
 * the first frames, unchanged, and only the samples of [x0, x0 + w) are
 * read for what lies under the last one; fl->nframes is then 0 (not
 * counted). */
struct ss_flame_grid {
    double x0, w;
    size_t cols;
    const struct ss_flame_node *path;
    size_t npath;
    /* an index of the samples (flame_index.h) for these weights (an
     * index of the model's measure: sample_w NULL) and this direction,
     * NULL: none.  With one, the chart costs what it makes (about cols x
     * the depth frames, each found a block of samples at a time) instead
     * of a pass over the samples; path is not needed. */
    const struct ss_flame_index *index;
};

/* ss_flame_build, with the chart (o->time_order) made at the resolution of
 * grid (NULL: every frame; ignored for the aggregated graph).  It costs one
 * pass over the samples and about cols x the depth frames (at most twice
 * that: a point on the edge between two samples makes both paths),
 * instead of a frame for every change of stack (millions in a profile
 * whose samples come in random order). */
int ss_flame_build_grid(const struct ss_model *m, const double *stack_w, const double *sample_w,
                        const struct ss_flame_opts *o, const struct ss_flame_grid *grid,
                        struct ss_flame *out, struct ss_error *err);

/* The matched weight of a search of the chart, whatever a grid left out:
 * *hit gets the weight of the samples in [x0, x0 + w) (by their middle)
 * whose path holds a function marked in fn_match (one byte per function id)
 * at depth0 or deeper.  For a frame at depth0 spanning [x0, x0 + w) (0 and
 * the total: all), this is ss_flame_search's matched weight on the exact
 * chart (nested matches counted once).  It reads each distinct stack and
 * then the samples' weights: no frames.  Returns 0 or an error code. */
int ss_flame_chart_search(const struct ss_model *m, const double *sample_w, int inverted,
                          const uint8_t *fn_match, double x0, double w, uint32_t depth0,
                          double *hit, struct ss_error *err);

/* The two halves of a sandwich (speedscope's, pprof's peek): the
 * aggregated graph of the stacks that hold function `focus` (any id of it),
 * each read from the focus on, so that its one root is the focus.  Not
 * inverted: from the focus's outermost frame inward, the root's children
 * are what it calls; inverted (o->inverted): from its innermost frame
 * outward, the children are its callers.  The root's total is the focus's
 * total either way; o->time_order is ignored.  Returns as ss_flame_build;
 * SS_EUSAGE for a focus out of range. */
int ss_flame_build_focus(const struct ss_model *m, const double *stack_w,
                         const struct ss_flame_opts *o, ss_id focus, struct ss_flame *out,
                         struct ss_error *err);

/* Free what fl owns and empty it.  A zeroed struct is a no-op. */
void ss_flame_free(struct ss_flame *fl);

/* The weights of m's chosen measure (stackscope(1), MEASURES; model.h's
 * ss_model_set_measure): *stack_w (one per distinct stack: the summed
 * weights of its samples x their source's scale, added per source as the
 * statistics do) and *sample_w (one per sample: its weight x its source's
 * scale), in the measure's raw unit (seconds for `time`).  Either pointer
 * may be NULL (not computed).  Returns 0, the caller frees the arrays; or
 * an error code. */
int ss_flame_measure_weights(const struct ss_model *m, double **stack_w, double **sample_w,
                             struct ss_error *err);

/* A value v of m's chosen measure for people, with its unit: "1.230 s",
 * "12.5 MB", "1,234 samples" (units.h's numbers).  Into buf. */
void ss_flame_format(const struct ss_model *m, double v, char *buf, size_t n);

/* The frames of the subtree of `root` (SS_FLAME_NONE: the whole graph)
 * whose function is marked in fn_match (one byte per function id of the
 * model the graph was built from, nonzero: a match): sets match[i] to 1 for
 * them and 0 for every other frame (fl->n bytes; NULL: not wanted).
 * Returns the matched weight: the totals of the matching frames that have
 * no matching ancestor inside the subtree, so that nested matches (a
 * recursive function) are not counted twice.  *nmatch (may be NULL) gets
 * the number of matching frames, and *widest (may be NULL) the widest of
 * them (the first of equal ones), SS_FLAME_NONE when none matches. */
double ss_flame_search(const struct ss_model *m, const struct ss_flame *fl, uint32_t root,
                       const uint8_t *fn_match, uint8_t *match, size_t *nmatch, uint32_t *widest);

/* Mark the functions of m whose name matches the compiled regular
 * expression re (match.h): fn_match[f] = 1 or 0 for every function id f
 * (m->functions.n bytes, the caller's).  0, or -1 when memory runs out. */
struct ss_regex;
int ss_flame_match_regex(const struct ss_model *m, const struct ss_regex *re, uint8_t *fn_match);

/* The frame at depth `depth` that contains position x (in weight units,
 * x0 <= x < x0 + width as ss_flame_node.x counts), searching the subtree of
 * `root` (SS_FLAME_NONE: all); SS_FLAME_NONE when none does. */
uint32_t ss_flame_at(const struct ss_flame *fl, uint32_t root, uint32_t depth, double x);

#endif
