/* tree.h - call trees (top-down and inverted) and a function's callers and
 * callees (stackscope(1), OPTIONS: --by tree and --by calls).
 *
 * Functions are identified by name, as in the statistics: all function ids
 * that share a name are one function, represented by the lowest such id (its
 * "canonical" id; for Rprof every name has one id anyway).
 *
 * Everything is built from the distinct stacks, each weighted by its count
 * per source, never sample by sample.  Counts are sums of count values (the
 * number of samples for Rprof); time is, per source, count x that source's
 * interval in seconds, summed over sources, exactly as ss_stats_compute()
 * does, so that the times of a root node equal R's for the same samples.
 * Samples with no frames are not in any tree or call count (as in the
 * statistics); they stay in the timeline only.
 */
#ifndef SS_TREE_H
#define SS_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"

#define SS_TREE_NONE UINT32_MAX /* "no node" in parent / child / sibling links */

/* One node of a call tree: a path of functions from a root.
 *
 * Top-down: the path starts at the outermost frame (level 1) and goes
 * inward.  total = samples whose stack, read from the outermost frame
 * inward, starts with the path; self = samples whose stack is exactly the
 * path (the path ends at their innermost frame).
 *
 * Inverted (bottom-up, pprof / speedscope "inverted"): the path starts at
 * the innermost frame (the leaf) and goes outward.  total = samples whose
 * stack, read from the leaf outward, starts with the path (so a root's total
 * is the self of that leaf function); self = samples whose stack is exactly
 * the path (the path reaches their outermost frame).
 *
 * In both, a node's total = its self + the totals of its children, and a
 * path is passed at most once per sample, so recursion (f -> f -> g) gives
 * the nodes f, f/f and f/f/g, each counted once per sample. */
struct ss_tree_node {
    ss_id function;        /* canonical function id */
    uint32_t parent;       /* SS_TREE_NONE for roots */
    uint32_t depth;        /* 0 for roots */
    uint64_t self_n;       /* count of samples ending exactly here */
    uint64_t total_n;      /* count of samples passing through here */
    double self_v;         /* seconds, summed per source as R */
    double total_v;        /* seconds */
    uint32_t first_child;  /* first child in sort order, or SS_TREE_NONE */
    uint32_t next_sibling; /* next sibling in sort order, or SS_TREE_NONE */
    uint32_t end;          /* one past the last node of this subtree */
    uint8_t inl;           /* top-down: SS_INLINE_* of the call into this node (its
                            * frame inlined into its parent's, every time: "(inline)";
                            * some of the time: "(partial-inline)", as pprof's -tree) */
};

/* A call tree.  Nodes are stored in depth-first pre-order with children
 * (and roots) sorted by total time descending (exact: microsecond sums),
 * then by function name in byte order.  So a printer emits nodes[0..n) in
 * index order; a node's subtree is nodes[i..end), which a printer pruning by
 * share or depth skips with `i = nodes[i].end`.  A parent always comes before
 * its children; the roots are 0, nodes[0].end, ... up to n. */
struct ss_tree {
    struct ss_tree_node *nodes; /* owned; NULL when n == 0 */
    size_t n;
    uint32_t first_root; /* 0, or SS_TREE_NONE for an empty tree */
    int inverted;        /* as requested */
    ss_id focus;         /* canonical focus function, or SS_NONE */
    uint64_t total_n;    /* samples in the tree: with frames (and with focus) */
    double total_v;      /* seconds of those samples, summed per source */
};

/* Build the call tree of model m: top-down when `inverted` is 0, inverted
 * otherwise.  With focus_function != SS_NONE (any function id; it is mapped
 * to its canonical id) only the samples whose stack contains that function
 * take part, each trimmed at the outermost occurrence F of the function:
 *  - top-down: the part of the stack from F inward, so every root is F (the
 *    tree of what F calls; pprof's -focus with the callers trimmed);
 *  - inverted: the part from F's innermost occurrence outward to the root,
 *    so every root is F and its children are F's callers (the tree of what
 *    calls F); a node's self = samples whose stack ends (outermost) there.
 * out->total_n / total_v are then those samples' count and time (F's total
 * in the statistics).  On success returns 0 and the caller owns *out
 * (ss_tree_free); on failure returns an error code, fills err and leaves
 * *out empty (safe to ss_tree_free). */
int ss_tree_build(const struct ss_model *m, int inverted, ss_id focus_function, struct ss_tree *out,
                  struct ss_error *err);

/* Free what the tree owns and empty it.  A zeroed tree is a no-op. */
void ss_tree_free(struct ss_tree *t);

/* The tree's nodes in depth-first pre-order with children by total, as a
 * freshly allocated array of n node indices (caller frees; NULL with *n == 0
 * for an empty tree or when memory runs out, *n == SIZE_MAX then).  The
 * nodes are already stored in that order, so this is 0, 1, ..., n-1; it
 * exists for printers that prefer an explicit order. */
uint32_t *ss_tree_dfs_order(const struct ss_tree *t, size_t *n);

/* One caller or callee of a function, with the samples in which that call
 * happens: each (caller, callee) pair counts once per sample however often
 * it appears in the stack (recursion). */
struct ss_edge {
    ss_id function; /* canonical id of the caller or callee */
    uint64_t n;     /* count of samples */
    double time;    /* seconds, summed per source */
};

/* A function's neighbourhood in the call graph (pprof's `peek`): its self
 * and total (equal to the statistics by function), the functions that call
 * it (caller = the frame one level outward of an occurrence) and those it
 * calls (callee = the frame one level inward).  A recursive function is its
 * own caller and callee.  The callers' counts need not add up to total: a
 * sample where the function is the outermost frame has no caller, and one
 * with two different callers counts for both; likewise for the callees and
 * total - self. */
struct ss_calls {
    ss_id function; /* canonical id */
    uint64_t self_n, total_n;
    double self_v, total_v;
    struct ss_edge *callers; /* owned, ncallers entries */
    size_t ncallers;
    struct ss_edge *callees; /* owned, ncallees entries */
    size_t ncallees;
};

/* Compute the callers and callees of `function` (any id of it; SS_NONE or
 * an id out of range gives an SS_EUSAGE error).  Callers and callees are
 * sorted by time descending (exact microsecond sums), then by name in byte
 * order; with a single interval that is by count.  On success returns 0 and
 * the caller owns *out (ss_calls_free); on failure returns an error code and
 * leaves *out empty. */
int ss_calls_of(const struct ss_model *m, ss_id function, struct ss_calls *out,
                struct ss_error *err);

/* Free what `c` owns and empty it.  A zeroed struct is a no-op. */
void ss_calls_free(struct ss_calls *c);

#endif
