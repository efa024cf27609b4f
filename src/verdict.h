/* verdict.h - is a change real?  The verdicts of a comparison
 * (stackscope(1), COMPARING, which says the same for users).
 *
 * A profile is a sample of a program's time: a function seen in 50 of 1,500
 * samples can show +30% between two runs of the same program.  Every row of
 * a comparison (a function's self or total, a line, a stack, a tree node or
 * flame frame, a label) gets a verdict: grew, shrank, or `~` (no change this
 * data can tell from sampling noise), from a test of the row's *share* of
 * its profile, new against base.  Shares, not absolute values: two runs of
 * the same program differ in length (a Go benchmark picks its own iteration
 * count; a machine is slower one minute than the next), and a share does
 * not see that; so the delta tested is the normalized one (--normalize's:
 * the base scaled to the new total), D = T_n (p_n - p_b), in the new
 * profile's unit, where T is a side's total and p = X / T a row's share.
 * A function whose own time did not change loses share when another one
 * grows: with enough samples that loss is real and is flagged.
 *
 * One file (run) per side.  The samples of a row are not independent:
 * consecutive samples sit in the same call.  The row's presence in the
 * sample sequence is cut into *cycles*: a cycle starts where a run of the
 * row starts (a maximal stretch of consecutive samples that have it) and
 * lasts to the start of its next run (plus a first cycle before its first
 * run).  Cycles are the independent units (the regenerative method of
 * simulation output analysis; a compound-Poisson view of calls), each
 * with X_c, the row's measure in it (the run's), and T_c, its whole length
 * in the measure.  The share p = sum X_c / sum T_c is a ratio estimator
 * whose variance is
 *     V = n / (n - 1) * sum (X_c - p T_c)^2 / T^2    (n cycles),
 * with n - 1 degrees of freedom; the two sides' V add, the degrees of
 * freedom by Welch-Satterthwaite, and t = D / SE is referred to Student's
 * t.  A sample with no frames, a gap left by a transform and a file or
 * session boundary end every run.  Inputs without time order (pprof,
 * whose samples are one per distinct stack with a count, and folded
 * stacks) have no runs: each counted event is its own unit
 * (independent samples: a pprof sample of count c and value v is c units
 * of v / c), which is the two-proportion Wald test (R's prop.test without
 * continuity correction, its interval exactly; V = sum_i (v_i^2 / c_i)
 * (I_i - p)^2 / T^2 with no n / (n - 1) and the normal distribution).
 *
 * Several files per side (each file is a run of the program): every file
 * has its share of the row, and Welch's t-test compares the shares of the
 * base's files with the new ones' (R's t.test), so the variation between
 * runs is measured rather than modelled.  Its interval is of the
 * difference of the mean shares, times T_n.  Mann-Whitney (benchstat) is
 * not used: with 3 runs a side its smallest two-sided p-value is 0.1.
 *
 * Every table's p-values are adjusted by Benjamini-Hochberg over its rows
 * (R's p.adjust "BH"; rows zero on both sides are not tested); a row grew
 * or shrank when its q <= alpha.  The interval is the unadjusted 1 - alpha
 * interval of D; the minimum detectable change (mdc) is the |D| a test at
 * level alpha detects with 80% power: (t_{1-alpha/2} + t_{0.8}) SE.
 *
 * This file holds the statistics (pure functions, tested against R's in
 * tests/check_verdict.c) and the pass over a model that collects each
 * row's units (verdict_sums.c).  Curses-free; compare.c uses it.
 */
#ifndef SS_VERDICT_H
#define SS_VERDICT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"

/* ---- distributions -------------------------------------------------------- */

/* The standard normal's distribution function and its inverse (p in (0,
 * 1); -inf, +inf at 0 and 1). */
double ss_norm_cdf(double x);
double ss_norm_quantile(double p);

/* The regularized incomplete beta function I_x(a, b), a, b > 0, x in
 * [0, 1]. */
double ss_incbeta(double x, double a, double b);

/* Student's t with df > 0 degrees of freedom (df = +inf: the normal):
 * P(T <= t), and its inverse for p in (0, 1). */
double ss_t_cdf(double t, double df);
double ss_t_quantile(double p, double df);

/* The two-sided p-value of t with df degrees of freedom: P(|T| >= |t|). */
double ss_t_pvalue(double t, double df);

/* ---- tests ------------------------------------------------------------------ */

/* A test of a difference: its estimate, standard error, degrees of freedom
 * (+inf: normal) and two-sided p-value, the 1 - alpha interval and the
 * minimum detectable difference at 80% power.  se 0 gives p 1 when the
 * difference is 0, else 0, an interval of the point and mdc 0; p NaN: not
 * testable (no variance to go on), interval and mdc NaN. */
struct ss_dtest {
    double diff, se, df, p, lo, hi, mdc;
    double se0, df0; /* set (not NaN): the p-value's standard error and degrees of
                      * freedom, under the null hypothesis */
};

/* Fill the rest of *t from t->diff, t->se and t->df at level alpha. */
void ss_dtest_finish(struct ss_dtest *t, double alpha);

/* Welch's two-sample t-test of mean(a) - mean(b) (R's t.test(a, b)), each
 * side at least two values.  Returns 0, or -1 when a side has fewer (t
 * untouched). */
int ss_welch(const double *a, size_t na, const double *b, size_t nb, double alpha,
             struct ss_dtest *t);

/* Benjamini-Hochberg (R's p.adjust(p, "BH")): q[i] for p[i], i < n; NaN
 * p-values are left out of the count and give NaN.  p and q may be the
 * same array.  Returns 0, or -1 when memory runs out. */
int ss_bh_adjust(const double *p, double *q, size_t n);

/* ---- verdicts ---------------------------------------------------------------- */

enum { SS_V_SAME = 0, SS_V_GREW = 1, SS_V_SHRANK = -1 };

/* One row's verdict on one quantity (self, total, a stack's value). */
struct ss_verdict {
    double lo, hi; /* the interval of D, in the new profile's unit (NaN: none) */
    double p, q;   /* p-value and its Benjamini-Hochberg adjustment (NaN: not tested) */
    double mdc;    /* minimum detectable |D| (NaN: not tested) */
    int sign;      /* SS_V_GREW, SS_V_SHRANK or SS_V_SAME (`~`) */
    int pending;   /* not tested yet: its units are being worked out (`?`) */
};

/* "grew", "shrank" or "~". */
const char *ss_verdict_word(int sign);

/* ss_bh_adjust over the p of n verdicts `stride` bytes apart from `first`,
 * setting each one's q and sign (q <= alpha: the sign of its interval's
 * middle).  Returns 0, or -1 when memory runs out (q and sign unchanged). */
int ss_verdict_adjust(void *first, size_t n, size_t stride, double alpha);

/* Count the verdicts that grew and shrank (n of them, stride apart). */
void ss_verdict_count(const void *first, size_t n, size_t stride, size_t *grew, size_t *shrank);

/* ---- one side's units ----------------------------------------------------------- */

#define SS_VROW_NONE UINT32_MAX

/* How a table's rows appear in samples.  Classes are the model's distinct
 * stacks (or, with labelsets, its label sets): a sample belongs to the
 * class of its stack (set).  Class c has the self row self[c] (or
 * SS_VROW_NONE; self NULL: the table has no self) and the total rows
 * row[off[c] .. off[c+1]), each once.  lvl[k] says where entry k's row
 * first appears in the stack, in `prefix` order (1 = the first frame read
 * from the root, or from the leaf): two stacks whose frames agree on their
 * first j levels in that order share every row of level <= j, which the
 * pass skips (SS_VPREFIX_NONE: no such levels; lvl unused).  With `tail`
 * (root order), level 1 is the stack's tail position (model.h) and frames
 * start at level 2. */
enum ss_vprefix { SS_VPREFIX_NONE, SS_VPREFIX_ROOT, SS_VPREFIX_LEAF };
struct ss_vmap {
    size_t nclass;
    int labelsets;
    enum ss_vprefix prefix;
    int tail;
    uint32_t *self; /* owned; NULL: no self */
    uint32_t *off;  /* owned, nclass + 1 */
    uint32_t *row;  /* owned, off[nclass] entries */
    uint32_t *lvl;  /* owned, as row (NULL without a prefix) */
    /* With a prefix: class c's first entry beyond level j, for j up to the
     * levels it has, is upto[uoff[c] + j] (owned; NULL: none skipped). */
    uint32_t *uoff, *upto;
};
void ss_vmap_free(struct ss_vmap *map);

/* Maps of model m's stacks for a table whose rows are
 *  - frames: row_of_loc[location] (SS_VROW_NONE: none), the self row the
 *    first frame from the leaf that has one; by line (tail_row_of_loc not
 *    NULL) also the stack's tail position, and `none_row` for a stack with
 *    frames but no row (R's "<no location>"; SS_VROW_NONE: none);
 *  - stacks: row_of_stack[stack] as the self row, no total rows;
 *  - paths: the nodes of a tree of paths of canonical function ids (a call
 *    tree or flame graph: nodes 0..nnodes with parent[] (SS_VROW_NONE for
 *    a root) and fn[]), read from the root (or the leaf with inverted),
 *    from the focus's outermost (inverted: innermost) occurrence when
 *    focus is not SS_NONE (stacks without it have no rows), as tree.h and
 *    flame.h build them; node i is row row_of_node[i]; self: the path's
 *    last node;
 *  - label sets: the rows row_of_label[label], no self.
 * Each returns 0 or SS_ENOMEM with err set (*map empty). */
int ss_vmap_frames(const struct ss_model *m, const uint32_t *row_of_loc, int by_line,
                   uint32_t none_row, struct ss_vmap *map, struct ss_error *err);
int ss_vmap_stacks(const struct ss_model *m, const uint32_t *row_of_stack, struct ss_vmap *map,
                   struct ss_error *err);
int ss_vmap_paths(const struct ss_model *m, size_t nnodes, const uint32_t *parent, const ss_id *fn,
                  const uint32_t *row_of_node, int inverted, ss_id focus, struct ss_vmap *map,
                  struct ss_error *err);
int ss_vmap_labels(const struct ss_model *m, const uint32_t *row_of_label, struct ss_vmap *map,
                   struct ss_error *err);

/* A row's units on one side: the row's measure x and, over its cycles (or
 * independent units), sum X_c^2, sum X_c T_c, sum T_c^2 and their number;
 * six, the sum of v^2 / c over the samples that have the row (the units
 * of independent sampling, whose variance is a floor: see verdict.c). */
struct ss_vacc {
    double x, sxx, sxt, stt, six;
    uint64_t units;
};

/* One side of a comparison, for one table: every row's units for self
 * (when the map has self rows) and total, the side's total T, and, when
 * asked (per_run) and the side has several files, each file's total and
 * each row's measure per file. */
struct ss_vside {
    size_t nrows;
    int ordered;                /* units are cycles (every source in time order) */
    double total;               /* T: the measure of the samples with frames */
    double stt_absent;          /* sum T_c^2 of a row the side lacks: T^2, or sum v^2 / c */
    double six_all;             /* sum v^2 / c over every sample with frames */
    struct ss_vacc *self, *tot; /* nrows each (self NULL: no self) */
    size_t nruns;               /* files with samples that have frames */
    double *run_total;          /* nruns (NULL unless per_run and nruns >= 2) */
    double *run_self, *run_tot; /* nrows x nruns: [row * nruns + run] (same) */
};

/* The number of files (distinct source paths) of m with samples. */
size_t ss_vside_files(const struct ss_model *m);

/* Collect the units of m's rows (nrows of them) by map.  With per_run and
 * at least two files, the per-file measures too.  Returns 0, or SS_ENOMEM
 * with err set (*s empty). */
int ss_vside_compute(const struct ss_model *m, const struct ss_vmap *map, size_t nrows, int per_run,
                     struct ss_vside *s, struct ss_error *err);
/* As ss_vside_compute, on a thread while another answers keys: the pass
 * looks at *stop every 65,536 samples and gives up when it is set,
 * returning SS_VSIDE_STOPPED (*s empty, err untouched).  It only reads m
 * and map, which must not change meanwhile. */
#define SS_VSIDE_STOPPED (-1)
int ss_vside_compute_stop(const struct ss_model *m, const struct ss_vmap *map, size_t nrows,
                          int per_run, const atomic_int *stop, struct ss_vside *s,
                          struct ss_error *err);
/* A deep copy of s into *out (0), or -1 when memory runs out (*out empty). */
int ss_vside_copy(const struct ss_vside *s, struct ss_vside *out);
void ss_vside_free(struct ss_vside *s);

/* The verdict of row r (both sides' rows are numbered alike), before
 * adjustment (q NaN, sign SS_V_SAME): base side b against new side n, of
 * self (self set) or total; t_new is the new profile's total in its unit
 * (D = t_new (p_n - p_b)).  Across runs (Welch) when both sides have
 * per-file measures, else by units.  A row that is 0 on both sides, or
 * whose variance the data cannot tell (one cycle that is not the whole
 * side), is not tested: p, interval and mdc NaN. */
void ss_verdict_row(const struct ss_vside *b, const struct ss_vside *n, uint32_t r, int self,
                    double t_new, double alpha, struct ss_verdict *v);

/* How the verdicts of a comparison were made, for headers and the status
 * line: "one run per side: runs of consecutive samples as units" and the
 * like, into buf. */
void ss_verdict_method(const struct ss_vside *b, const struct ss_vside *n, char *buf, size_t len);

#endif
