/* compare_int.h - private to the comparison modules (compare.c,
 * compare_labels.c, compare_verdict.c): how each table's rows are mapped
 * to the samples of each side for its verdicts (verdict.h). */
#ifndef SS_COMPARE_INT_H
#define SS_COMPARE_INT_H

#include "compare.h"
#include "hashtab.h"
#include "vec.h"

/* The verdicts of the functions or lines of s (its rows as joined, before
 * they are sorted), into each row's vself and vtotal.  Returns 0 or an
 * error code. */
int ss_cmp_stats_verdicts(const struct ss_compare *c, enum ss_stats_key by, struct ss_cmp_stats *s,
                          struct ss_error *err);

/* The map of m's stacks onto the nodes of call tree t (tree.h, built with
 * inverted and the canonical focus, SS_NONE for none), node i being row
 * row_of_node[i]; t NULL: no nodes (a side without the focus). */
struct ss_tree;
int ss_cmp_tree_map(const struct ss_model *m, const struct ss_tree *t, const uint32_t *row_of_node,
                    int inverted, ss_id focus, struct ss_vmap *map, struct ss_error *err);

/* The verdicts of flame graph fl's frames against the base's graph bf:
 * base frame i is row brow[i] (SS_VROW_NONE: none), new frame i row i, of
 * nrows (fl->n and the gone frames); focus[0], focus[1]: each side's
 * canonical focus or SS_NONE.  Fills fv (fv->v owned). */
struct ss_flame;
int ss_cmp_flame_verdicts(const struct ss_compare *c, const struct ss_flame *bf,
                          const uint32_t *brow, const struct ss_flame *fl, size_t nrows,
                          const ss_id *focus, struct ss_cmp_fverdicts *fv, struct ss_error *err);

/* A trie of paths of canonical function ids, root first, each node the
 * row of the path that ends there (SS_VROW_NONE: none): the rows of the
 * stacks table, whose stacks are sequences of functions. */
struct ss_cmp_trie {
    VEC(uint32_t) parent;
    VEC(ss_id) fn;
    VEC(uint32_t) row;
    struct ss_u64map child;
};
/* Add path fns[0..n) ending at row `row`.  Returns 0 or -1 (out of memory). */
int ss_cmp_trie_add(struct ss_cmp_trie *t, const ss_id *fns, size_t n, uint32_t row);
/* The map of m's stacks onto the trie's rows: each stack's self row. */
int ss_cmp_trie_map(const struct ss_model *m, const struct ss_cmp_trie *t, struct ss_vmap *map,
                    struct ss_error *err);
void ss_cmp_trie_free(struct ss_cmp_trie *t);

#endif
