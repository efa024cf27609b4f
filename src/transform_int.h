/* transform_int.h - private to the transform modules: a parsed step.
 *
 * transform_parse.c turns one command line into a struct tf_step and back
 * into its canonical text; transform.c keeps the list, its undo history and
 * the script I/O; transform_apply.c applies the enabled steps to a model.
 */
#ifndef SS_TRANSFORM_INT_H
#define SS_TRANSFORM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "phases.h"
#include "match.h"
#include "transform.h"

/* A function name or a /regex/ wherever a command takes a function. */
struct tf_pattern {
    char *text;   /* the name, or the regex as written between the slashes */
    int is_regex; /* re is compiled (match.h) */
    struct ss_regex re;
};

/* Time units a range end was written in (for the canonical text). */
enum tf_unit { TF_S, TF_MS, TF_US };

/* A sample range A:B: sample numbers (1-based, inclusive, negative from the
 * end) or times in nanoseconds since the first sample (half-open [A, B),
 * negative from the end); an open end is "from the first" / "to the last". */
struct tf_range {
    int is_time;
    int has_a, has_b;
    int64_t a, b;
    enum tf_unit unit_a, unit_b;
};

struct tf_step {
    enum ss_tf_kind kind;
    char *text; /* canonical text (owned) */
    int enabled;
    /* what it did to the profile (the new one of a comparison), and to a
     * comparison's base (ss_tf_apply_base) */
    struct ss_tf_effect effect, base_effect;
    struct tf_range range;   /* drop-samples, keep-samples */
    int trim_auto;           /* trim-base auto[=share] */
    int trim_all;            /* trim-base auto,all: cut user code too */
    uint32_t trim_n;         /* trim-base N */
    double share;            /* trim-base auto: share in (0, 1] */
    struct tf_pattern *pats; /* the function patterns (replace: F1..Fk; name-anonymous:
                              * none for the default FUN and <Anonymous>) */
    size_t npats;
    char *name; /* replace: NEW; class: NAME */
    /* keep-label, drop-label, label-root: the key, and (has_value) the value
     * a label must have: its text exactly, or a /regex/ */
    char *key;
    struct tf_pattern value;
    int has_value;
    /* keep-phase, drop-phase: which phase, and the detector's options */
    struct ss_phase_ref phase;
    struct ss_phase_opts phase_opts;
    /* keep-line FILE#LINE: the file's basename in key, the line here */
    uint32_t line;
};

/* Parse the command in s[0..len) into *st (zeroed first; st->enabled = 1 and
 * st->text = its canonical text).  Returns 0; or SS_EUSAGE with *col the
 * 1-based column of the problem and msg[0..msgn) saying what was expected;
 * or SS_ENOMEM.  A line holding only blanks or a comment is SS_EUSAGE
 * "expected a command" unless allow_empty, when it returns 0 with
 * st->text == NULL (nothing to add). */
int tf_parse(const char *s, size_t len, int allow_empty, struct tf_step *st, size_t *col, char *msg,
             size_t msgn);

/* Free what a parsed step owns (not st itself). */
void tf_step_free(struct tf_step *st);

/* The phases of the input of step `step` as the caller found them with the
 * detector's default options (ss_tf_list_hint_phases): the first sample of
 * each of n phases of `samples` samples. */
struct tf_phase_hint {
    size_t step, n, samples;
    size_t *starts;
};

/* Apply the enabled steps steps[0..n) (see ss_tf_apply), filling each
 * step's effect, or with base its base_effect (ss_tf_apply_base); then
 * step `then` (unless NULL), its effect in then->effect.  The big
 * per-sample arrays come from spare where it has them (may be NULL); a
 * keep-phase or drop-phase step with default options takes its phases
 * from hint (may be NULL) when the hint is for that step and its input. */
int tf_apply(struct tf_step *steps, size_t n, struct tf_step *then, int base,
             struct ss_spare *spare, const struct tf_phase_hint *hint, const struct ss_model *orig,
             struct ss_model *out, struct ss_error *err);

#endif
