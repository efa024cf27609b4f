/* stacks.h - the table of distinct stacks (sprof's "stacks" table).
 *
 * Stacks are compared by their function sequence: two model stacks that
 * differ only in source positions are one row here.  Each row has its
 * reference count (samples), value under the model's measure (time: count x
 * each sample's own interval, exact per source), depth, root and leaf.  Samples with no frames are
 * left out.
 */
#ifndef SS_STACKS_H
#define SS_STACKS_H

#include <stdint.h>

#include "model.h"

struct ss_stack_row {
    size_t first; /* functions of the row: fns[first .. first + depth), root first */
    uint32_t depth;
    uint64_t count;   /* samples (sum of count values) */
    double value;     /* the measure's value (seconds for time) */
    double value_x;   /* the same in exact units (time: microseconds), for ordering */
    ss_id root, leaf; /* function ids */
};

struct ss_stacks {
    struct ss_stack_row *rows;
    size_t n;
    ss_id *fns;     /* canonical function ids of all rows, root first (owned) */
    double total_v; /* the measure's value of all samples with frames */
    uint64_t total_count;
};

/* Compute the distinct function stacks of m, ordered by value (descending),
 * then count, then the stack's names root first in byte order.  Returns 0 or
 * an error code (out of memory).  Free with ss_stacks_free. */
int ss_stacks_compute(const struct ss_model *m, struct ss_stacks *out, struct ss_error *err);

void ss_stacks_free(struct ss_stacks *s);

/* Write row r's names root first, joined by `sep`, to buf (truncated to n,
 * always NUL-terminated).  Returns the untruncated length. */
size_t ss_stack_text(const struct ss_model *m, const struct ss_stacks *s,
                     const struct ss_stack_row *r, const char *sep, char *buf, size_t n);

#endif
