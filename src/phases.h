/* phases.h - the phases of a profile, found by change-point detection
 * (stackscope(1), PHASES): a burn-in, the main work, a fade-out, without the
 * user looking for them.
 *
 * A phase is a stretch of consecutive samples with one mix of work below
 * the scaffold (the root levels one function holds in every sample,
 * levels.h).  Each sample's work is the signature of its stack there: the
 * functions at the first PH_DEPTH levels below the scaffold (so a phase
 * shows even when its dominant function stays the same and only the
 * proportions of what it calls change); the commonest signatures are the
 * categories, the rest one category "other".  The detector then finds
 * where the categories' mix changes:
 *
 *   - cost of a stretch: the multinomial negative log-likelihood of its
 *     category counts at their own proportions;
 *   - samples are not independent (a call lasts many samples: runs), so
 *     costs are divided by an overdispersion factor estimated from the
 *     profile (the median chi-square of adjacent batches of samples
 *     against their pooled mix, relative to its value for independent
 *     samples: robust to the few batches that straddle a boundary);
 *   - the penalty per boundary is BIC's, (K / 2) log n for K categories
 *     present and n samples, times --penalty;
 *   - optimal partitioning with pruning (PELT, Killick et al. 2012) over
 *     windows of samples (at most 1024 per source), then every boundary
 *     is moved to the exact sample that maximises the likelihood of the
 *     two phases around it;
 *   - a phase has at least 1% of the samples (shorter ones are absorbed
 *     by a neighbour); each source (file, Rprof session) is segmented on
 *     its own, so a source boundary is always a phase boundary.
 *
 * Sample numbers are timeline rows, as drop-samples counts them.  Inputs
 * without time order (folded stacks, SamplingProf) have no phases: the
 * callers refuse them first (ss_model_has_time_order).
 */
#ifndef SS_PHASES_H
#define SS_PHASES_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"

/* Levels below the scaffold in a signature, and the most categories (the
 * commonest signatures, then "other"). */
#define SS_PHASE_DEPTH 2
#define SS_PHASE_MAXCAT 16
/* The functions a phase lists as distinguishing it. */
#define SS_PHASE_TOPS 3

struct ss_phase_opts {
    double penalty; /* multiplies the penalty per boundary; 0 means 1 */
    size_t count;   /* > 0: exactly this many phases (ss_phases_detect fails
                     * with SS_EUSAGE when the profile cannot have them) */
};

/* ---- the detector on categories ------------------------------------------ */

/* The category of each of `nstacks` stacks given in CSR form (stack s has
 * the frames loc[off[s] .. off[s+1]), innermost first; m's locations,
 * functions and strings name them) used by cnt[s] samples each: into
 * cat[0..nstacks), with *ncat categories (1 .. SS_PHASE_MAXCAT) and *level
 * the first level (1 = root) of the signatures.  Stacks with cnt 0 get
 * category 0.  Functions are told apart by name.  Returns 0 or SS_ENOMEM. */
int ss_phase_categories(const struct ss_model *m, const uint32_t *off, const ss_id *loc,
                        size_t nstacks, const uint64_t *cnt, uint8_t *cat, unsigned *ncat,
                        uint32_t *level, struct ss_error *err);

/* The category of each sample of a timeline: cat[i], or, when cat is NULL,
 * table[idx[i]] (the category of sample i's stack: no array of n bytes to
 * fill and read again).  All borrowed. */
struct ss_phase_seq {
    const uint8_t *cat;
    const ss_id *idx;
    const uint8_t *table;
};

/* Find the phases of the samples 0..n-1 of seq (categories < ncat), where
 * the sorted positions breaks[0..nbreaks) (0 < break < n) start new
 * sources.
 * On success *starts (malloc'd, the caller frees) holds the first sample of
 * each phase in order, starts[0] = 0, and *nphases their number (0 when n is
 * 0).  Returns 0, SS_EUSAGE when o->count phases cannot be had (err says
 * how many can), or SS_ENOMEM. */
int ss_phases_detect(const struct ss_phase_seq *seq, size_t n, unsigned ncat, const size_t *breaks,
                     size_t nbreaks, const struct ss_phase_opts *o, size_t **starts,
                     size_t *nphases, struct ss_error *err);

/* ---- the phases of a model --------------------------------------------- */

struct ss_phase {
    size_t first, n; /* samples [first, first + n) of the timeline (0-based) */
    uint64_t count;  /* their summed count values (the samples tables count) */
    double value;    /* the measure of those with frames (model.h) */
    /* the functions that most distinguish it from the rest of the profile
     * (canonical ids, SS_NONE after the last): the largest share in it x
     * log(share in it / share elsewhere) at the signature levels; in a
     * profile of one phase, its commonest functions there */
    ss_id top[SS_PHASE_TOPS];
    double top_share[SS_PHASE_TOPS]; /* the share of its samples with top[k] there */
};

struct ss_phases {
    struct ss_phase *v; /* owned, in time order */
    size_t n;
    size_t main;    /* the phase with the most samples (the first of equals) */
    uint32_t level; /* the first level of the signatures (1 = root) */
    unsigned ncat;  /* categories the detector saw */
    double value;   /* the measure of every sample with frames */
};

/* Find the phases of m (sources with time order: see the top).  Returns 0
 * and the caller owns *out (ss_phases_free), SS_EUSAGE (o->count, see
 * ss_phases_detect) or SS_ENOMEM; *out is empty on failure. */
int ss_phases_compute(const struct ss_model *m, const struct ss_phase_opts *o,
                      struct ss_phases *out, struct ss_error *err);

/* Free what p owns and empty it.  A zeroed struct is a no-op. */
void ss_phases_free(struct ss_phases *p);

/* The phase holding sample i (p->n when there is none). */
size_t ss_phases_find(const struct ss_phases *p, size_t i);

/* ---- naming a phase (keep-phase, drop-phase, --compare-phases) ---------- */

enum ss_phase_which { SS_PHASE_NUMBER, SS_PHASE_MAIN, SS_PHASE_FIRST, SS_PHASE_LAST };

struct ss_phase_ref {
    enum ss_phase_which which;
    size_t number; /* SS_PHASE_NUMBER: 1-based */
};

/* Parse "N" (1-based), "main", "first" or "last" from s[0..len).  Returns 0
 * or -1. */
int ss_phase_ref_parse(const char *s, size_t len, struct ss_phase_ref *r);

/* Write r as it parses back ("2", "main") into buf[0..n). */
void ss_phase_ref_text(const struct ss_phase_ref *r, char *buf, size_t n);

/* The 0-based index of the phase r names among the phases starting at
 * starts[0..nphases) of a timeline of `total` samples (main: the most
 * samples, the first of equals), or nphases when there is no such phase
 * (a number past the last, or no phases). */
size_t ss_phase_ref_pick(const struct ss_phase_ref *r, const size_t *starts, size_t nphases,
                         size_t total);

#endif
