/* labels.h - samples and time per label (`report --by labels`, the
 * explorer's labels view): for every distinct label (key and value) that
 * some sample carries, how many samples carry it and their value under the
 * chosen measure (stackscope(1), MEASURES: by default time for Rprof, a
 * pprof profile's default sample type).
 *
 * A sample with several labels counts once for each; so the rows of one
 * key add up to the samples that have that key, not to the profile.
 */
#ifndef SS_LABELS_H
#define SS_LABELS_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"

struct ss_label_row {
    ss_id label;      /* in m->labels */
    uint64_t samples; /* count values of the samples with the label (all of them) */
    double value;     /* their measure: weight under the chosen measure x the source's scale
                       * (time: count x interval in seconds), samples with no frames adding
                       * none (as the profile's total counts) */
};

struct ss_label_stats {
    struct ss_label_row *rows; /* sorted: key, then value (largest first), then label text */
    size_t n;
    double total;        /* the measure over the whole profile (ss_model_totals), for pct */
    uint64_t unlabelled; /* count values of the samples with no label */
};

/* Compute the rows for model m into *ls (owned; free with
 * ss_label_stats_free).  Returns 0 or SS_ENOMEM. */
int ss_label_stats_compute(const struct ss_model *m, struct ss_label_stats *ls,
                           struct ss_error *err);

void ss_label_stats_free(struct ss_label_stats *ls);

#endif
