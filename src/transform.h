/* transform.h - the transform list (stackscope(1), TRANSFORMS).
 *
 * A list of transform commands, applied in order to the original model; the
 * result is a new model that every statistic, view and writer reads.  The
 * list is always applied from scratch (transforms work on distinct stacks and
 * on the timeline, so this is cheap), which makes undo, redo and editing
 * anywhere in the list exact: the model after any edit equals the model from
 * applying the edited list to the original.
 *
 * Commands, one per line, '#' starts a comment:
 *   drop-samples RANGE | keep-samples RANGE    A:B 1-based inclusive sample
 *                        numbers (negative: from the end) or times 0.5s:2s
 *   trim-base N | trim-base auto[=SHARE][,all]
 *   trim-to F | focus F | drop F | merge F | prune F | collapse-recursion F
 *   replace F1 F2 ... => NEW
 *   class /regex/ => NAME
 *   r-simplify                  merge R's evaluation machinery (ss_tf_r_machinery)
 *   name-anonymous [F]          FUN / <Anonymous> frames named by their call site
 *   keep-label KEY[=VALUE] | drop-label KEY[=VALUE]   keep / remove the samples
 *                        with the label (KEY alone: any value; VALUE a word,
 *                        a "quoted value" or a /regex/)
 *   label-root KEY       the label's value becomes a new outermost frame
 *                        KEY=VALUE (pprof's -tagroot)
 *   keep-phase P [phases=N] [penalty=X] | drop-phase P ...   keep / remove
 *                        the samples of phase P (a number from 1, main,
 *                        first or last) of the phases found at that step
 *                        (phases.h: exactly N of them, or with the
 *                        penalty times X)
 * A name F is a bare word, a "quoted string" (\", \\, \n, \r escapes) or a
 * /regex/ (POSIX extended, unanchored, matched against the whole name).
 *
 * The list is opaque; the UI and the command line drive it through the
 * functions below.  Every edit (insert, change, remove, enable, move, a whole
 * script) is one undo step; an edit that fails or changes nothing (enabling
 * an enabled step, moving a step to where it is) is none.
 *
 * The exact semantics of each command (sample numbering and times, which
 * positions survive, how samples left with no frames count) are in the man
 * page, section TRANSFORMS.  Implementation: transform.c (list, undo,
 * scripts), transform_parse.c (language), transform_apply.c (apply).
 */
#ifndef SS_TRANSFORM_H
#define SS_TRANSFORM_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "model.h"

struct ss_phases;

enum ss_tf_kind {
    SS_TF_DROP_SAMPLES,
    SS_TF_KEEP_SAMPLES,
    SS_TF_TRIM_BASE,
    SS_TF_TRIM_TO,
    SS_TF_FOCUS,
    SS_TF_DROP,
    SS_TF_MERGE,
    SS_TF_PRUNE,
    SS_TF_REPLACE,
    SS_TF_COLLAPSE_RECURSION,
    SS_TF_CLASS,
    SS_TF_R_SIMPLIFY,
    SS_TF_NAME_ANONYMOUS,
    SS_TF_KEEP_LABEL,
    SS_TF_DROP_LABEL,
    SS_TF_LABEL_ROOT,
    SS_TF_KEEP_PHASE,
    SS_TF_DROP_PHASE,
    SS_TF_KEEP_LINE,
};

/* The functions `r-simplify` merges (R's evaluation machinery), a
 * NULL-terminated list of exact names (static). */
extern const char *const ss_tf_r_machinery[];

/* The script of preset `name` ("r": the R preset; "trim-burnin": keep the
 * main phase), NUL-terminated and static, or NULL for an unknown preset. */
const char *ss_tf_preset(const char *name);

/* The name of preset i (0, 1, ...: the order --help lists them), NULL past
 * the last. */
const char *ss_tf_preset_name(size_t i);

/* The presets' names for messages: "r or trim-burnin", into buf[0..n). */
const char *ss_tf_preset_list(char *buf, size_t n);

/* What preset `name` does, for messages ("r-simplify, name-anonymous,
 * trim-base auto"): its steps joined by ", " into buf[0..n). */
const char *ss_tf_preset_text(const char *name, char *buf, size_t n);

/* What one step did the last time the list was applied (all zero for a
 * disabled step or before the first apply; a step added or re-read by an
 * edit, undo or redo starts at zero).  Samples are timeline rows (not count
 * values); frames_removed sums, over the samples that stay, the frames the
 * step took from their stacks (replace of k frames removes k - 1). */
struct ss_tf_effect {
    size_t samples_in;        /* samples entering the step */
    size_t samples_out;       /* samples leaving it */
    size_t samples_emptied;   /* samples whose stack the step left empty */
    uint64_t frames_removed;  /* frames removed, summed over samples */
    size_t stacks_changed;    /* distinct stacks the step changed */
    size_t functions_matched; /* functions the step's names matched */
    size_t levels_removed;    /* trim-base: levels removed (auto: the scaffold found) */
    double value_in;          /* the model's measure (model.h) of the samples entering */
    double value_out;         /* ... and of those leaving: what a removing step cost */
    size_t labels_matched;    /* keep-label, drop-label, label-root: distinct labels
                               * (key and value) of the profile its KEY[=VALUE] matched */
    /* keep-samples, drop-samples, keep-phase, drop-phase: the samples it
     * kept or dropped, range_first..range_last, 1-based as the step's own
     * timeline numbers them (what a phase resolved to); 0 and 0 when the
     * range was empty */
    size_t range_first, range_last;
    size_t phases_found;  /* keep-phase, drop-phase: the phases at its step */
    size_t phase_picked;  /* ... and the one it kept or dropped (1-based) */
    size_t lines_matched; /* keep-line: the profile's locations at its FILE#LINE */
};

/* The samples a step kept or dropped as keep-samples reads them, "A:B"
 * (e->range_first, e->range_last), or "" when it has none, into buf[0..n). */
const char *ss_tf_range_text(const struct ss_tf_effect *e, char *buf, size_t n);

struct ss_tf_list;

/* A new empty list, or NULL when out of memory. */
struct ss_tf_list *ss_tf_list_new(void);
void ss_tf_list_free(struct ss_tf_list *l);

/* Parse one command without adding it.  Returns 0, or SS_EUSAGE with err
 * saying "column C: expected ..." (the caller adds the line; C counts bytes
 * from 1). */
int ss_tf_check(const char *cmd, struct ss_error *err);

/* Is `word` (one word, no blanks) the name of a transform command? */
int ss_tf_is_command(const char *word);

/* --- reading the list ---------------------------------------------------- */
size_t ss_tf_count(const struct ss_tf_list *l);
/* The canonical text of step i (borrowed, valid until the next edit;
 * reparses to the same step): comments and extra blanks dropped, names
 * quoted only when they must be, "auto=1" written "auto".  NULL when i is out
 * of range. */
const char *ss_tf_text(const struct ss_tf_list *l, size_t i);
enum ss_tf_kind ss_tf_kind(const struct ss_tf_list *l, size_t i);
int ss_tf_enabled(const struct ss_tf_list *l, size_t i);
const struct ss_tf_effect *ss_tf_effect(const struct ss_tf_list *l, size_t i);
/* In a comparison (stackscope(1), COMPARING) the same list is applied to the
 * new profile (ss_tf_apply) and to the base (ss_tf_apply_base); each keeps its
 * own effects: ss_tf_effect gives the new profile's, this the base's (all
 * zero until ss_tf_apply_base ran). */
const struct ss_tf_effect *ss_tf_base_effect(const struct ss_tf_list *l, size_t i);
/* 1 when step i names functions (a name or /regex/) or a label and, the
 * last time the list was applied, none matched: the callers warn ("focus
 * lm.fti: no function matches", "keep-label x=y: no label matches").  0 for
 * a disabled step or before the first apply. */
int ss_tf_no_match(const struct ss_tf_list *l, size_t i);
/* The same for the base's application (ss_tf_apply_base). */
int ss_tf_base_no_match(const struct ss_tf_list *l, size_t i);
/* What step i matches, for that warning: "label" for the label commands,
 * else "function". */
const char *ss_tf_match_noun(const struct ss_tf_list *l, size_t i);
/* Number of enabled steps. */
size_t ss_tf_active(const struct ss_tf_list *l);

/* --- editing (each call is one undo step) -------------------------------- */
/* Insert command `cmd` before position pos (pos == count appends).  Returns 0
 * or SS_EUSAGE with a parse error ("column C: ..."). */
int ss_tf_insert(struct ss_tf_list *l, size_t pos, const char *cmd, struct ss_error *err);
int ss_tf_append(struct ss_tf_list *l, const char *cmd, struct ss_error *err);
/* Replace step i by command `cmd`. */
int ss_tf_change(struct ss_tf_list *l, size_t i, const char *cmd, struct ss_error *err);
/* Remove step i / enable or disable it / move it to position `to`.  Return 0,
 * or -1 when i (or to) is out of range. */
int ss_tf_remove(struct ss_tf_list *l, size_t i);
int ss_tf_set_enabled(struct ss_tf_list *l, size_t i, int enabled);
int ss_tf_move(struct ss_tf_list *l, size_t from, size_t to);
/* Append every command of a script (text of len bytes; `name` for messages)
 * as one undo step.  On a parse error nothing is added and err says
 * "NAME:LINE:COL: expected ...". */
int ss_tf_append_script(struct ss_tf_list *l, const char *text, size_t len, const char *name,
                        struct ss_error *err);
/* The same for a script file (SS_EINPUT when it cannot be read). */
int ss_tf_append_script_file(struct ss_tf_list *l, const char *path, struct ss_error *err);
/* Undo / redo the last edit.  Return 1 when something was undone/redone, 0
 * when there was nothing to undo/redo.  The steps before the first that
 * changed keep their effects (ss_tf_effect), the others have none until the
 * list is applied again. */
int ss_tf_undo(struct ss_tf_list *l);
int ss_tf_redo(struct ss_tf_list *l);

/* The list as a script that reproduces it (malloc'd, NUL-terminated; a
 * disabled step is written as a comment "# off: CMD").  NULL when out of
 * memory. */
char *ss_tf_script(const struct ss_tf_list *l);

/* Take the big per-sample arrays of each applied model from `spare` where
 * it has them (see struct ss_spare; NULL: always new ones, the default).
 * The caller gives a replaced model's arrays back with
 * ss_model_free_spare and keeps spare alive while the list applies. */
void ss_tf_list_set_spare(struct ss_tf_list *l, struct ss_spare *spare);

/* The phases of the model the list gives without its last step, as
 * ss_phases_compute found them with the default options (the explorer's
 * timeline shows them): when that step is keep-phase or drop-phase with
 * the default options, the next ss_tf_apply takes them instead of finding
 * them again.  One apply only, and only with the list as it is now.
 * Returns 0, or -1 out of memory (no hint: the step finds them). */
int ss_tf_list_hint_phases(struct ss_tf_list *l, const struct ss_phases *ph);

/* --- applying ------------------------------------------------------------ */
/* Apply the enabled steps in order to `orig` (a sealed model), giving `out`:
 * a new sealed model.  out shares orig's value columns instead of copying
 * them (model.h: values_borrowed; through a row per kept sample,
 * value_rows, when a step removed samples between two kept ones) and, for
 * the memory measures, orig's weights (model.h: derived), so orig must
 * outlive out; it shares nothing else.  Fills every step's
 * effect.  Samples whose stack becomes empty stay in the timeline (they keep
 * their time and values) and are counted in the effects.  out keeps orig's
 * strings, functions and locations with the same ids (replace's NEW
 * functions and their locations are appended), all sources (their sample
 * ranges follow the removed samples), value types, meta, warnings and
 * aggregates; out's stacks are the distinct stacks its samples use.  Where
 * samples were removed between two kept ones, out->gaps holds the position
 * of the later one (model.h), so runs end there.  Applying
 * the same list to the same model gives the same model, table by table.
 * Returns 0 or an error code (out of memory); on error out is zeroed (nothing
 * to free). */
int ss_tf_apply(struct ss_tf_list *l, const struct ss_model *orig, struct ss_model *out,
                struct ss_error *err);
/* The same for a comparison's base: identical output, but the effects go
 * to ss_tf_base_effect, leaving the new profile's (ss_tf_effect) as they
 * are. */
int ss_tf_apply_base(struct ss_tf_list *l, const struct ss_model *orig, struct ss_model *out,
                     struct ss_error *err);
/* ss_tf_apply_base taking its arrays from `spare` (NULL: new ones) instead
 * of the list's, so that it may run on a thread of its own while
 * ss_tf_apply applies the list to the new profile: the two only read the
 * list's steps, and each writes its own effects. */
int ss_tf_apply_base_spare(struct ss_tf_list *l, const struct ss_model *orig, struct ss_model *out,
                           struct ss_spare *spare, struct ss_error *err);
/* Apply the list, then one more command `then` that is not in it (a
 * comparison of two phases of one profile gives one side keep-phase A and
 * the other keep-phase B).  As ss_tf_apply, or with base as
 * ss_tf_apply_base; *then_eff (unless NULL) gets the extra step's effect.
 * A `then` that does not parse is SS_EUSAGE. */
int ss_tf_apply_then(struct ss_tf_list *l, const struct ss_model *orig, const char *then, int base,
                     struct ss_model *out, struct ss_tf_effect *then_eff, struct ss_error *err);

#endif
