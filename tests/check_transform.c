/* check_transform.c - the transform list (src/transform.h,
 * stackscope(1), TRANSFORMS): the language (canonical text, parse errors with
 * columns), every command on tiny profiles, effects, and undo/redo/edit giving
 * exactly the model of the edited list applied from scratch.
 *
 * Profiles are Rprof texts; stacks are written root first ("main;f;g": main
 * calls f calls g) while Rprof lines list them innermost first ("g" "f"
 * "main").  Every expected timeline and number was worked out by hand from
 * the fixture above the test (the comments show how). */
#include "check_suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "runs.h"
#include "stats.h"
#include "strbuf.h"
#include "transform.h"
#include "vec.h"

#define TOL 1e-12

/* ---- helpers ------------------------------------------------------------------ */

/* The timeline of m as text: each sample's stack root first, names joined by
 * ';', samples joined by " | ", "-" for a sample with no frames. */
static void timeline(const struct ss_model *m, char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        ss_id s = m->sample_stack.v[i];
        size_t d = ss_stack_depth(m, s);
        const ss_id *fr = ss_stack_frames(m, s);
        if (i)
            at += (size_t)snprintf(buf + at, n - at, " | ");
        if (d == 0)
            at += (size_t)snprintf(buf + at, n - at, "-");
        for (size_t k = d; k-- > 0;)
            at += (size_t)snprintf(buf + at, n - at, "%s%s", fx_loc_name(m, fr[k]), k ? ";" : "");
        ck_assert_msg(at < n, "timeline text too long");
    }
}

/* Apply the commands cmds[0..n) to orig into out (which the caller frees). */
static struct ss_tf_list *apply_cmds(const struct ss_model *orig, const char *const *cmds, size_t n,
                                     struct ss_model *out)
{
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_error err;
    ck_assert_ptr_nonnull(l);
    for (size_t i = 0; i < n; i++) {
        int rc = ss_tf_append(l, cmds[i], &err);
        ck_assert_msg(rc == 0, "'%s': %s", cmds[i], err.msg);
    }
    int rc = ss_tf_apply(l, orig, out, &err);
    ck_assert_msg(rc == 0, "apply: %s", err.msg);
    return l;
}

/* Apply one command and compare the timeline with `want`; returns the
 * step's effect (copied) through *eff when eff is not NULL. */
static void expect1(const struct ss_model *orig, const char *cmd, const char *want,
                    struct ss_tf_effect *eff)
{
    struct ss_model out;
    struct ss_tf_list *l = apply_cmds(orig, &cmd, 1, &out);
    char got[4096];
    timeline(&out, got, sizeof got);
    ck_assert_msg(strcmp(got, want) == 0, "'%s':\n got  %s\n want %s", cmd, got, want);
    if (eff)
        *eff = *ss_tf_effect(l, 0);
    ss_model_free(&out);
    ss_tf_list_free(l);
}

static void expect_effect(const struct ss_tf_effect *e, size_t in, size_t out, size_t emptied,
                          uint64_t frames, size_t stacks)
{
    ck_assert_uint_eq(e->samples_in, in);
    ck_assert_uint_eq(e->samples_out, out);
    ck_assert_uint_eq(e->samples_emptied, emptied);
    ck_assert_uint_eq(e->frames_removed, frames);
    ck_assert_uint_eq(e->stacks_changed, stacks);
}

/* Two models equal table by table (ids included). */
static void models_equal(const struct ss_model *a, const struct ss_model *b)
{
    ck_assert_uint_eq(a->strs.n, b->strs.n);
    for (size_t i = 0; i < a->strs.n; i++)
        ck_assert_str_eq(ss_str(a, (ss_id)i), ss_str(b, (ss_id)i));
    ck_assert_uint_eq(a->sources.n, b->sources.n);
    for (size_t i = 0; i < a->sources.n; i++) {
        const struct ss_source *x = &a->sources.v[i], *y = &b->sources.v[i];
        ck_assert(x->type == y->type && x->uri == y->uri && x->session == y->session &&
                  x->header_line == y->header_line && x->timestamp == y->timestamp &&
                  ss_double_eq(x->interval_us, y->interval_us) && x->flags == y->flags &&
                  x->first_sample == y->first_sample && x->n_samples == y->n_samples);
    }
    ck_assert_uint_eq(a->functions.n, b->functions.n);
    if (a->functions.n)
        ck_assert(!memcmp(a->functions.v, b->functions.v, a->functions.n * sizeof *a->functions.v));
    ck_assert_uint_eq(a->locations.n, b->locations.n);
    if (a->locations.n)
        ck_assert(!memcmp(a->locations.v, b->locations.v, a->locations.n * sizeof *a->locations.v));
    ck_assert_uint_eq(ss_model_nstacks(a), ss_model_nstacks(b));
    ck_assert(!memcmp(a->stack_off.v, b->stack_off.v, a->stack_off.n * sizeof *a->stack_off.v));
    ck_assert_uint_eq(a->stack_loc.n, b->stack_loc.n);
    if (a->stack_loc.n)
        ck_assert(!memcmp(a->stack_loc.v, b->stack_loc.v, a->stack_loc.n * sizeof(ss_id)));
    if (a->stack_tail.n)
        ck_assert(!memcmp(a->stack_tail.v, b->stack_tail.v, a->stack_tail.n * sizeof(ss_id)));
    ck_assert_uint_eq(a->sample_stack.n, b->sample_stack.n);
    if (a->sample_stack.n)
        ck_assert(!memcmp(a->sample_stack.v, b->sample_stack.v, a->sample_stack.n * sizeof(ss_id)));
    ck_assert_uint_eq(a->value_types.n, b->value_types.n);
    for (size_t t = 0; t < a->values.n; t++) {
        ck_assert(!memcmp(&a->value_types.v[t], &b->value_types.v[t], sizeof a->value_types.v[t]));
        ck_assert((a->values.v[t] == NULL) == (b->values.v[t] == NULL));
        for (size_t i = 0; a->values.v[t] && i < a->sample_stack.n; i++)
            ck_assert_int_eq(ss_sample_value(a, t, i), ss_sample_value(b, t, i));
    }
    ck_assert_uint_eq(a->meta.n, b->meta.n);
    if (a->meta.n)
        ck_assert(!memcmp(a->meta.v, b->meta.v, a->meta.n * sizeof *a->meta.v));
    ck_assert_uint_eq(a->aggs.n, b->aggs.n);
    ck_assert_uint_eq(a->edges.n, b->edges.n);
    ck_assert_uint_eq(a->labels.n, b->labels.n);
    if (a->labels.n)
        ck_assert(!memcmp(a->labels.v, b->labels.v, a->labels.n * sizeof *a->labels.v));
    ck_assert_uint_eq(a->labelset_off.n, b->labelset_off.n);
    ck_assert(!memcmp(a->labelset_off.v, b->labelset_off.v, a->labelset_off.n * sizeof(uint32_t)));
    ck_assert_uint_eq(a->sample_labels.n, b->sample_labels.n);
    if (a->sample_labels.n)
        ck_assert(
            !memcmp(a->sample_labels.v, b->sample_labels.v, a->sample_labels.n * sizeof(ss_id)));
    ck_assert_uint_eq(a->function_class.n, b->function_class.n);
    if (a->function_class.n)
        ck_assert(
            !memcmp(a->function_class.v, b->function_class.v, a->function_class.n * sizeof(ss_id)));
    ck_assert_uint_eq(a->warnings.n, b->warnings.n);
    for (size_t i = 0; i < a->warnings.n; i++)
        ck_assert_str_eq(a->warnings.v[i], b->warnings.v[i]);
}

/* ---- the language --------------------------------------------------------------- */

/* Parse `in`, check its canonical text is `want` and that the canonical
 * text parses back to itself. */
static void canon(const char *in, const char *want)
{
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_error err;
    int rc = ss_tf_append(l, in, &err);
    ck_assert_msg(rc == 0, "'%s': %s", in, err.msg);
    ck_assert_str_eq(ss_tf_text(l, 0), want);
    rc = ss_tf_append(l, ss_tf_text(l, 0), &err);
    ck_assert_msg(rc == 0, "'%s': %s", want, err.msg);
    ck_assert_str_eq(ss_tf_text(l, 1), want);
    ss_tf_list_free(l);
}

START_TEST(test_canonical)
{
    canon("drop   foo  # a comment", "drop foo");
    canon("\tmerge \"a b\"", "merge \"a b\"");
    canon("merge \"ab\"", "merge ab");
    canon("drop \"/x\"", "drop \"/x\"");
    canon("drop \"=>\"", "drop \"=>\"");
    canon("drop \"#x\"", "drop \"#x\"");
    canon("drop \"\"", "drop \"\"");
    canon("drop \"q\\\"x\"", "drop \"q\\\"x\"");
    canon("drop a\\b", "drop a\\b");
    canon("drop a#b", "drop a#b");
    canon("drop \"a\\\\b c\"", "drop \"a\\\\b c\"");
    canon("drop /a\\/b/", "drop /a\\/b/");
    canon("focus /^(f|g)$/", "focus /^(f|g)$/");
    canon("keep-samples 5", "keep-samples 5:5");
    canon("keep-samples 0.50s:2000ms", "keep-samples 0.5s:2000ms");
    canon("keep-samples 1.5us:", "keep-samples 1.5us:");
    canon("drop-samples -500:", "drop-samples -500:");
    canon("drop-samples -4:-1", "drop-samples -4:-1");
    canon("keep-samples :100", "keep-samples :100");
    canon("keep-samples -1.25s:", "keep-samples -1.25s:");
    canon("keep-samples :", "keep-samples :");
    canon("trim-base 3", "trim-base 3");
    canon("trim-base auto", "trim-base auto");
    canon("trim-base auto=1", "trim-base auto");
    canon("trim-base auto=0.95", "trim-base auto=0.95");
    canon("trim-base auto,all", "trim-base auto,all");
    canon("trim-base  auto=1,all", "trim-base auto,all");
    canon("trim-base auto=0.5,all", "trim-base auto=0.5,all");
    canon(" r-simplify  # R", "r-simplify");
    canon("name-anonymous", "name-anonymous");
    canon("name-anonymous   /^(FUN|f)$/", "name-anonymous /^(FUN|f)$/");
    canon("keep-label   worker=beta", "keep-label worker=beta");
    canon("keep-label worker=\"beta\"", "keep-label worker=beta");
    canon("keep-label worker=\"gamma ray\"", "keep-label worker=\"gamma ray\"");
    canon("keep-label k=\"\"", "keep-label k=\"\"");
    canon("keep-label k=\"/x\"", "keep-label k=\"/x\"");
    canon("drop-label worker=/^(a|b)$/  # comment", "drop-label worker=/^(a|b)$/");
    canon("drop-label phase", "drop-label phase");
    canon("keep-label k==x", "keep-label k==x");
    canon("label-root  comm", "label-root comm");
    canon("trim-to \"<Anonymous>\"", "trim-to <Anonymous>");
    canon("prune x", "prune x");
    canon("collapse-recursion /^f/", "collapse-recursion /^f/");
    canon("replace \"[\" lapply .getXlevels => \"<.getXlevels_[>\"",
          "replace [ lapply .getXlevels => <.getXlevels_[>");
    canon("replace A A=>B => \"new name\"", "replace A A=>B => \"new name\"");
    canon("class /^(f|g)$/ => fg", "class /^(f|g)$/ => fg");
    canon("class lm => \"model fit\"", "class lm => \"model fit\"");
    /* Within the regex limits: nested stars, a bound of 255, {m,n} of a
     * plain group, brackets holding \1 (a backslash and a 1), {,n}. */
    canon("drop /((a*)*)*b/", "drop /((a*)*)*b/");
    canon("drop /a{255}/", "drop /a{255}/");
    canon("drop /(ab|cd){64}x{,5}/", "drop /(ab|cd){64}x{,5}/");
    canon("drop /[\\1]x[]a]{3}[[:alpha:]]+/", "drop /[\\1]x[]a]{3}[[:alpha:]]+/");
    /* A line end in a name (the explorer quotes a selected name as it is)
     * is written \n or \r: a step's text is one line of a script, and a
     * name never adds one (issue 27). */
    canon("drop \"a\nb\"", "drop \"a\\nb\"");
    canon("drop \"a\\nb\\r\"", "drop \"a\\nb\\r\"");
    canon("replace \"x\ndrop-samples 1:2\" => \"y\r\"",
          "replace \"x\\ndrop-samples 1:2\" => \"y\\r\"");
    canon("drop \"a\\\\nb\"", "drop a\\nb"); /* a backslash, then n: a bare word */
}
END_TEST

/* ss_tf_check's message for `cmd` is "column COL: ..." containing `what`. */
static void bad(const char *cmd, size_t col, const char *what)
{
    struct ss_error err;
    ss_error_clear(&err);
    int rc = ss_tf_check(cmd, &err);
    ck_assert_msg(rc == SS_EUSAGE, "'%s' parsed", cmd);
    char head[32];
    snprintf(head, sizeof head, "column %zu: ", col);
    ck_assert_msg(strncmp(err.msg, head, strlen(head)) == 0, "'%s': got '%s', want '%s...'", cmd,
                  err.msg, head);
    ck_assert_msg(strstr(err.msg, what) != NULL, "'%s': '%s' lacks '%s'", cmd, err.msg, what);
}

START_TEST(test_parse_errors)
{
    bad("", 1, "expected a command");
    bad("   # only a comment", 4, "expected a command");
    bad("frobnicate x", 1, "unknown command 'frobnicate'");
    bad("drop", 5, "expected a function name");
    bad("drop a b", 8, "unexpected 'b' after the command");
    bad("drop \"abc", 6, "unterminated quoted name");
    bad("drop \"a\"b", 9, "expected a blank after the closing quote");
    bad("drop \"a\\x\"", 8, "unknown escape");
    bad("drop /a\nb/", 8, "a line end in a regular expression");
    bad("drop /ab", 6, "unterminated regular expression");
    bad("drop //", 6, "empty regular expression");
    bad("drop /(/", 6, "bad regular expression");
    /* Regexes that would make glibc slow or hungry (issue 18). */
    bad("drop /(a*)*\\1b/", 12, "back-references (\\1) are not part of POSIX");
    bad("drop /(.{1,30}){1,30}x/", 16, "repetition of something that repeats already");
    bad("drop /(.?){100}/", 11, "repetition of something that repeats already");
    bad("drop /x{2}{3}/", 11, "repetition of something that repeats already");
    bad("drop /a{,5}{,5}/", 12, "repetition of something that repeats already");
    bad("drop /a{256}/", 8, "repetition bound over 255");
    bad("drop /a{1,99999999999999999999}/", 8, "repetition bound over 255");
    bad("drop /(ab|cd){200}/", 14, "expand to more than 256 items");
    bad("drop /.{0,255}.{0,255}/", 16, "expand to more than 256 items");
    /* Found by fuzz_transform: each '+' doubles what regcomp builds (20 of
     * them took 10 s and 1 GB), and g+?++++++ took 30 s within every other
     * limit: stacked operators are refused at the second; nested '+' a few
     * deep stay fine, and so does the expansion limit without stacking. */
    bad("focus /a|;+++++++++++++++++++kef/", 12, "repetition operator right after another");
    bad("class /^g+?++++++0.02s++++++\ve1/ => x", 11, "repetition operator right after another");
    bad("drop /a*?/", 9, "undefined in POSIX regular expressions");
    canon("drop /(\\.[a-z]+)+x/", "drop /(\\.[a-z]+)+x/");
    {
        char cmd[400] = "drop /";
        for (int i = 0; i < 101; i++)
            strcat(cmd, "a?");
        strcat(cmd, "/");
        bad(cmd, 7 + 201, "more than 100 repetition operators");
        char big[1100] = "drop /";
        memset(big + 6, 'a', 1001);
        strcpy(big + 1007, "/");
        bad(big, 7, "regular expression of 1001 bytes, longer than the limit of 1000");
        big[1006] = '/'; /* 1000 bytes: allowed */
        big[1007] = '\0';
        canon(big, big);
    }
    bad("keep-samples", 13, "expected a sample range");
    bad("keep-samples 0:5", 14, "sample numbers start at 1");
    bad("keep-samples 1.5:2", 14, "whole number");
    bad("keep-samples 1:2s", 14, "both ends");
    bad("keep-samples 1x:2", 15, "time unit");
    bad("keep-samples a:2", 14, "expected a number");
    bad("keep-samples 1s", 14, "a time needs both ends");
    /* ends of one sign in the wrong order; mixed signs depend on the profile */
    bad("keep-samples 10:5", 14, "reversed range 10:5");
    bad("drop-samples -1:-5", 14, "reversed range -1:-5");
    bad("keep-samples 2s:1s", 14, "reversed range 2s:1s");
    /* INT64_MAX ns is 9223372036.854775807 s: no overflow adding the fraction */
    bad("keep-samples 9223372036.9s:", 14, "time too large");
    bad("keep-samples -9223372036854775.9us:", 14, "time too large");
    bad("keep-samples 9223372037s:", 14, "time too large");
    canon("keep-samples 9223372036.8s:", "keep-samples 9223372036.8s:");
    bad("trim-base", 10, "expected a number of levels");
    bad("trim-base -1", 11, "expected a number of levels");
    bad("trim-base auto=2", 16, "share");
    bad("trim-base autox", 11, "expected auto or auto=SHARE");
    bad("trim-base auto,none", 11, "expected auto or auto=SHARE");
    bad("trim-base auto=2,all", 16, "share");
    bad("r-simplify eval", 12, "unexpected 'eval'");
    bad("name-anonymous f g", 18, "unexpected 'g'");
    bad("replace a b", 12, "expected more function names or '=>'");
    bad("replace => X", 9, "before '=>'");
    bad("replace a =>", 13, "expected the new name");
    bad("replace a => /x/", 14, "not a /regex/");
    bad("replace a => \"\"", 14, "not an empty name");
    bad("replace a => b c", 16, "unexpected 'c'");
    bad("class /x/", 10, "expected '=>' and a class name");
    bad("class /x/ => ", 14, "expected a class name");
    bad("class /x/ -> y", 11, "expected '=>'");
    bad("keep-label", 11, "expected a label KEY or KEY=VALUE");
    bad("keep-label =x", 12, "the key is a word without '='");
    bad("keep-label \"k\"=x", 12, "the key is a word without '='");
    bad("keep-label k=", 14, "expected a value after '='");
    bad("keep-label k= x", 14, "expected a value after '='");
    bad("drop-label k=\"x", 14, "unterminated quoted name");
    bad("drop-label k=/(/", 14, "bad regular expression");
    bad("drop-label k=x y", 16, "unexpected 'y'");
    bad("label-root", 11, "expected a label KEY");
    bad("label-root k=v", 13, "label-root takes a label KEY only");
}
END_TEST

START_TEST(test_script)
{
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_error err;
    static const char good[] = "# a comment\r\n"
                               "drop-samples 1:10\r\n"
                               "\n"
                               "  merge   \"a b\"   # why\r"
                               "# off: prune x\n"
                               "# off: not a command, a comment\n"
                               "trim-base auto=0.9";
    ck_assert_int_eq(ss_tf_append_script(l, good, sizeof good - 1, "s.txt", &err), 0);
    ck_assert_uint_eq(ss_tf_count(l), 4);
    ck_assert_uint_eq(ss_tf_active(l), 3);
    ck_assert_str_eq(ss_tf_text(l, 0), "drop-samples 1:10");
    ck_assert_str_eq(ss_tf_text(l, 1), "merge \"a b\"");
    ck_assert_str_eq(ss_tf_text(l, 2), "prune x");
    ck_assert_int_eq(ss_tf_enabled(l, 2), 0);
    ck_assert_int_eq(ss_tf_kind(l, 3), SS_TF_TRIM_BASE);
    char *s = ss_tf_script(l);
    ck_assert_str_eq(s, "drop-samples 1:10\nmerge \"a b\"\n# off: prune x\ntrim-base auto=0.9\n");
    /* the script reproduces the list, disabled step included */
    struct ss_tf_list *l2 = ss_tf_list_new();
    ck_assert_int_eq(ss_tf_append_script(l2, s, strlen(s), "again", &err), 0);
    char *s2 = ss_tf_script(l2);
    ck_assert_str_eq(s, s2);
    free(s);
    free(s2);
    ss_tf_list_free(l2);

    /* an error anywhere adds nothing and names NAME:LINE:COL */
    static const char badtxt[] = "drop a\n\n  merge\nprune b\n";
    ck_assert_int_eq(ss_tf_append_script(l, badtxt, sizeof badtxt - 1, "t.txt", &err), SS_EUSAGE);
    const char *want = "t.txt:3:8: expected a function name";
    ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
    ck_assert_uint_eq(ss_tf_count(l), 4);
    /* a script is one undo step */
    ck_assert_int_eq(ss_tf_undo(l), 1);
    ck_assert_uint_eq(ss_tf_count(l), 0);
    ck_assert_int_eq(ss_tf_redo(l), 1);
    ck_assert_uint_eq(ss_tf_count(l), 4);
    ck_assert_int_eq(ss_tf_append_script_file(l, "/nonexistent/script", &err), SS_EINPUT);
    ck_assert(strstr(err.msg, "/nonexistent/script") != NULL);
    ss_tf_list_free(l);
}
END_TEST

/* ---- commands on tiny profiles ---------------------------------------------------- */

/* a;b;c | a;b | a | a;d */
static const char base_prof[] = "sample.interval=20000\n"
                                "\"c\" \"b\" \"a\" \n"
                                "\"b\" \"a\" \n"
                                "\"a\" \n"
                                "\"d\" \"a\" \n";

START_TEST(test_trim_base)
{
    struct ss_model m;
    struct ss_tf_effect e;
    FX_LOAD_OK(&m, base_prof);
    expect1(&m, "trim-base 0", "a;b;c | a;b | a | a;d", &e);
    expect_effect(&e, 4, 4, 0, 0, 0);
    /* frames removed 1+1+1+1; the lone "a" is left empty */
    expect1(&m, "trim-base 1", "b;c | b | - | d", &e);
    expect_effect(&e, 4, 4, 1, 4, 4);
    ck_assert_uint_eq(e.levels_removed, 1);
    /* 2+2+1+2 = 7 frames; three samples emptied */
    expect1(&m, "trim-base 2", "c | - | - | -", &e);
    expect_effect(&e, 4, 4, 3, 7, 4);
    /* level 1: a in 4 of 4; level 2: b in 2 of 4 -> scaffold 1 */
    expect1(&m, "trim-base auto", "b;c | b | - | d", &e);
    ck_assert_uint_eq(e.levels_removed, 1);
    /* share 0.5: level 2 (b, 2 >= 0.5 x 4) too; level 3 (c, 1 < 2) not */
    expect1(&m, "trim-base auto=0.5", "c | - | - | -", &e);
    ck_assert_uint_eq(e.levels_removed, 2);

    /* Emptied samples stay in the timeline and in no statistic: 1 of 4
     * samples has frames after trim-base 2. */
    struct ss_model out;
    const char *cmd = "trim-base 2";
    struct ss_tf_list *l = apply_cmds(&m, &cmd, 1, &out);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&out, SS_BY_FUNCTION, 0, &st, &err), 0);
    ck_assert_uint_eq(st.samples_total, 4);
    ck_assert_uint_eq(st.samples_counted, 1);
    ck_assert_double_eq_tol(st.value_total, 0.02, TOL);
    ck_assert_uint_eq(st.n, 1);
    ss_stats_free(&st);
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* main;f;g | main;f;g;f | main;h | main */
static const char fn_prof[] = "sample.interval=20000\n"
                              "\"g\" \"f\" \"main\" \n"
                              "\"f\" \"g\" \"f\" \"main\" \n"
                              "\"h\" \"main\" \n"
                              "\"main\" \n";

/* A comparison applies one list to the new profile and then to the base:
 * each side keeps its own effects (the base's application used to
 * overwrite the new profile's).  new = base_prof (4 samples); base: 2
 * samples, "a;b;c" and "a;d" (hand-computed like test_trim_base). */
START_TEST(test_effects_per_side)
{
    static const char other[] = "sample.interval=20000\n"
                                "\"c\" \"b\" \"a\" \n"
                                "\"d\" \"a\" \n";
    struct ss_model cur, base, tc, tb;
    FX_LOAD_OK(&cur, base_prof);
    FX_LOAD_OK(&base, other);
    static const char *const cmds[] = {"trim-base 1", "focus c", "drop nosuch"};
    struct ss_tf_list *l = apply_cmds(&cur, cmds, 3, &tc);
    struct ss_error err;
    ck_assert_int_eq(ss_tf_apply_base(l, &base, &tb, &err), 0);
    /* the new profile: trim-base 1 keeps 4 (one emptied, 4 frames), focus c
     * keeps 1 of 4 ("b;c": b removed), drop nosuch keeps 1 and matches none */
    expect_effect(ss_tf_effect(l, 0), 4, 4, 1, 4, 4);
    expect_effect(ss_tf_effect(l, 1), 4, 1, 0, 1, 1);
    expect_effect(ss_tf_effect(l, 2), 1, 1, 0, 0, 0);
    ck_assert_uint_eq(ss_tf_effect(l, 0)->levels_removed, 1);
    /* the base: 2 -> 2 (2 frames, none emptied), focus c keeps 1 of 2 */
    expect_effect(ss_tf_base_effect(l, 0), 2, 2, 0, 2, 2);
    expect_effect(ss_tf_base_effect(l, 1), 2, 1, 0, 1, 1);
    expect_effect(ss_tf_base_effect(l, 2), 1, 1, 0, 0, 0);
    /* the measure: 20 ms a sample with frames (the emptied one weighs 0) */
    ck_assert(fabs(ss_tf_effect(l, 1)->value_in - 0.06) < TOL);
    ck_assert(fabs(ss_tf_effect(l, 1)->value_out - 0.02) < TOL);
    ck_assert(fabs(ss_tf_base_effect(l, 1)->value_in - 0.04) < TOL);
    ck_assert(fabs(ss_tf_base_effect(l, 1)->value_out - 0.02) < TOL);
    ck_assert_int_eq(ss_tf_no_match(l, 2), 1);
    ck_assert_int_eq(ss_tf_base_no_match(l, 2), 1);
    ck_assert_int_eq(ss_tf_no_match(l, 1), 0);
    /* the base's output equals applying the list to it alone */
    struct ss_model alone;
    struct ss_tf_list *k = apply_cmds(&base, cmds, 3, &alone);
    models_equal(&alone, &tb);
    for (size_t i = 0; i < 3; i++)
        ck_assert(
            !memcmp(ss_tf_effect(k, i), ss_tf_base_effect(l, i), sizeof(struct ss_tf_effect)));
    /* re-applying the new profile leaves the base's effects alone */
    struct ss_model tc2;
    ck_assert_int_eq(ss_tf_apply(l, &cur, &tc2, &err), 0);
    expect_effect(ss_tf_base_effect(l, 0), 2, 2, 0, 2, 2);
    expect_effect(ss_tf_effect(l, 0), 4, 4, 1, 4, 4);
    /* turning a step off clears both */
    ck_assert_int_eq(ss_tf_set_enabled(l, 1, 0), 0);
    expect_effect(ss_tf_base_effect(l, 1), 0, 0, 0, 0, 0);
    expect_effect(ss_tf_effect(l, 1), 0, 0, 0, 0, 0);
    ss_model_free(&tc2);
    ss_model_free(&alone);
    ss_tf_list_free(k);
    ss_model_free(&tb);
    ss_model_free(&tc);
    ss_tf_list_free(l);
    ss_model_free(&base);
    ss_model_free(&cur);
}
END_TEST

START_TEST(test_trim_focus_drop)
{
    struct ss_model m;
    struct ss_tf_effect e;
    FX_LOAD_OK(&m, fn_prof);
    /* outermost f; stacks without f unchanged */
    expect1(&m, "trim-to f", "f;g | f;g;f | main;h | main", &e);
    expect_effect(&e, 4, 4, 0, 2, 2);
    ck_assert_uint_eq(e.functions_matched, 1);
    expect1(&m, "trim-to nosuch", "main;f;g | main;f;g;f | main;h | main", &e);
    expect_effect(&e, 4, 4, 0, 0, 0);
    ck_assert_uint_eq(e.functions_matched, 0);
    expect1(&m, "focus f", "f;g | f;g;f", &e);
    expect_effect(&e, 4, 2, 0, 2, 2);
    expect1(&m, "focus g", "g | g;f", &e);
    expect_effect(&e, 4, 2, 0, 4, 2);
    expect1(&m, "drop g", "main;h | main", &e);
    expect_effect(&e, 4, 2, 0, 0, 0);
    expect1(&m, "drop /^(g|h)$/", "main", &e);
    ck_assert_uint_eq(e.functions_matched, 2);
    expect1(&m, "focus main", "main;f;g | main;f;g;f | main;h | main", NULL);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_merge_prune)
{
    struct ss_model m;
    struct ss_tf_effect e;
    FX_LOAD_OK(&m, fn_prof);
    /* f's frames go; a leaf f's time goes to its caller (g, then main) */
    expect1(&m, "merge f", "main;g | main;g | main;h | main", &e);
    expect_effect(&e, 4, 4, 0, 3, 2);
    expect1(&m, "merge main", "f;g | f;g;f | h | -", &e);
    expect_effect(&e, 4, 4, 1, 4, 4);
    /* below the outermost f nothing is left */
    expect1(&m, "prune f", "main;f | main;f | main;h | main", &e);
    expect_effect(&e, 4, 4, 0, 3, 2);
    expect1(&m, "prune g", "main;f;g | main;f;g | main;h | main", &e);
    expect_effect(&e, 4, 4, 0, 1, 1);
    expect1(&m, "prune main", "main | main | main | main", &e);
    expect_effect(&e, 4, 4, 0, 6, 3);

    /* merged self time goes to the caller: after merge f, g has the self of
     * sample 2 (whose leaf f was merged) */
    struct ss_model out;
    const char *cmd = "merge f";
    struct ss_tf_list *l = apply_cmds(&m, &cmd, 1, &out);
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&out, SS_BY_FUNCTION, 0, &st, &err), 0);
    ss_stats_sort_self(&st);
    ck_assert_str_eq(ss_strtab_get(&st.keys, st.rows[0].key), "g");
    ck_assert_uint_eq(st.rows[0].self_n, 2);
    ck_assert_uint_eq(st.rows[0].total_n, 2);
    ss_stats_free(&st);
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* main;f;f;f;g;f;f | main;f | x;x;main */
static const char rec_prof[] = "line profiling: sample.interval=20000\n"
                               "#File 1: a.R\n"
                               "\"f\" \"f\" \"g\" \"f\" \"f\" \"f\" \"main\" \n"
                               "\"f\" \"main\" \n"
                               "\"main\" \"x\" \"x\" \n"
                               "1#10 \"f\" 1#11 \"f\" 1#12 \"main\" 1#1 \n";

START_TEST(test_collapse_recursion)
{
    struct ss_model m;
    struct ss_tf_effect e;
    FX_LOAD_OK(&m, rec_prof);
    /* runs f;f;f and f;f become one frame each: 2 + 1 + 1 frames removed */
    expect1(&m, "collapse-recursion f", "main;f;g;f | main;f | x;x;main | main;f", &e);
    expect_effect(&e, 4, 4, 0, 4, 2);
    expect1(&m, "collapse-recursion /./", "main;f;g;f | main;f | x;main | main;f", &e);
    expect_effect(&e, 4, 4, 0, 5, 3);
    /* f g f is no direct recursion */
    expect1(&m, "collapse-recursion g", "main;f;f;f;g;f;f | main;f | x;x;main | main;f;f", &e);
    expect_effect(&e, 4, 4, 0, 0, 0);

    /* the innermost f keeps its line; main and the tail are untouched */
    struct ss_model out;
    const char *cmd = "collapse-recursion f";
    struct ss_tf_list *l = apply_cmds(&m, &cmd, 1, &out);
    char buf[512];
    fx_stack_text(&out, out.sample_stack.v[3], buf, sizeof buf);
    ck_assert_str_eq(buf, "f@a.R#10 | main@a.R#12 + a.R#1");
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* main;A;A;A | main;B;A;B;A;f | A;A;A;A | [;lapply;.getXlevels;x */
static const char rep_prof[] = "sample.interval=20000\n"
                               "\"A\" \"A\" \"A\" \"main\" \n"
                               "\"f\" \"A\" \"B\" \"A\" \"B\" \"main\" \n"
                               "\"A\" \"A\" \"A\" \"A\" \n"
                               "\"x\" \".getXlevels\" \"lapply\" \"[\" \n";

START_TEST(test_replace)
{
    struct ss_model m;
    struct ss_tf_effect e;
    FX_LOAD_OK(&m, rep_prof);
    /* root to leaf, leftmost first, no overlap: A;A;A -> X;A, A;A;A;A -> X;X */
    expect1(&m, "replace A A => X", "main;X;A | main;B;A;B;A;f | X;X | [;lapply;.getXlevels;x", &e);
    expect_effect(&e, 4, 4, 0, 3, 2);
    /* the sequence twice in one stack */
    expect1(&m, "replace B A => N", "main;A;A;A | main;N;N;f | A;A;A;A | [;lapply;.getXlevels;x",
            &e);
    expect_effect(&e, 4, 4, 0, 2, 1);
    /* A B is found after B: main;B;(A;B);A;f */
    expect1(&m, "replace A B => N", "main;A;A;A | main;B;N;A;f | A;A;A;A | [;lapply;.getXlevels;x",
            &e);
    /* one frame: a rename */
    expect1(&m, "replace A => Z", "main;Z;Z;Z | main;B;Z;B;Z;f | Z;Z;Z;Z | [;lapply;.getXlevels;x",
            &e);
    expect_effect(&e, 4, 4, 0, 0, 3);
    /* regexes per position */
    expect1(&m, "replace /^[AB]$/ /^[AB]$/ => P",
            "main;P;A | main;P;P;f | P;P | [;lapply;.getXlevels;x", &e);
    expect_effect(&e, 4, 4, 0, 5, 3);
    ck_assert_uint_eq(e.functions_matched, 2);
    /* the sprof vignette's surgery */
    expect1(&m, "replace \"[\" lapply .getXlevels => \"<.getXlevels_[>\"",
            "main;A;A;A | main;B;A;B;A;f | A;A;A;A | <.getXlevels_[>;x", &e);
    expect_effect(&e, 4, 4, 0, 2, 1);
    /* a sequence longer than the stack */
    expect1(&m, "replace A A A A A => Q",
            "main;A;A;A | main;B;A;B;A;f | A;A;A;A | [;lapply;.getXlevels;x", NULL);

    /* NEW is a new function, appended; existing ids are kept */
    struct ss_model out;
    const char *cmd = "replace B A => N";
    struct ss_tf_list *l = apply_cmds(&m, &cmd, 1, &out);
    ck_assert_uint_eq(out.functions.n, m.functions.n + 1);
    ck_assert(!memcmp(out.functions.v, m.functions.v, m.functions.n * sizeof *m.functions.v));
    ck_assert_str_eq(ss_str(&out, out.functions.v[m.functions.n].name), "N");
    ck_assert_uint_eq(out.functions.v[m.functions.n].filename, SS_NONE);
    ss_model_free(&out);
    ss_tf_list_free(l);

    /* a step whose names match no function is flagged (the callers warn) */
    const char *cmds[] = {"drop nosuch", "drop /^zz/", "drop A", "replace B nosuch => N",
                          "keep-samples 1:2"};
    l = apply_cmds(&m, cmds, 5, &out);
    ck_assert_int_eq(ss_tf_no_match(l, 0), 1);
    ck_assert_int_eq(ss_tf_no_match(l, 1), 1);
    ck_assert_int_eq(ss_tf_no_match(l, 2), 0);
    ck_assert_int_eq(ss_tf_no_match(l, 3), 0); /* flagged only when no name matches */
    ck_assert_int_eq(ss_tf_no_match(l, 4), 0); /* no names */
    ck_assert_int_eq(ss_tf_no_match(l, 5), 0); /* out of range */
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* Line profile: c@5 b@6 a@7 main@8 (innermost first), tail 9. */
static const char rep_line_prof[] = "line profiling: sample.interval=20000\n"
                                    "#File 1: a.R\n"
                                    "1#5 \"c\" 1#6 \"b\" 1#7 \"a\" 1#8 \"main\" 1#9 \n";

START_TEST(test_replace_lines)
{
    struct ss_model m, out;
    FX_LOAD_OK(&m, rep_line_prof);
    char buf[512];
    /* NEW keeps the innermost replaced frame's position (b's line 6: where
     * it called c); the frames around keep theirs */
    const char *cmd = "replace a b => N";
    struct ss_tf_list *l = apply_cmds(&m, &cmd, 1, &out);
    fx_stack_text(&out, out.sample_stack.v[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "c@a.R#5 | N@a.R#6 | main@a.R#8 + a.R#9");
    ss_model_free(&out);
    ss_tf_list_free(l);
    /* replacing the root keeps the tail; trimming it removes the tail */
    cmd = "replace main a => R";
    l = apply_cmds(&m, &cmd, 1, &out);
    fx_stack_text(&out, out.sample_stack.v[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "c@a.R#5 | b@a.R#6 | R@a.R#7 + a.R#9");
    ss_model_free(&out);
    ss_tf_list_free(l);
    cmd = "trim-base 1";
    l = apply_cmds(&m, &cmd, 1, &out);
    fx_stack_text(&out, out.sample_stack.v[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "c@a.R#5 | b@a.R#6 | a@a.R#7");
    ss_model_free(&out);
    ss_tf_list_free(l);
    cmd = "merge main";
    l = apply_cmds(&m, &cmd, 1, &out);
    fx_stack_text(&out, out.sample_stack.v[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "c@a.R#5 | b@a.R#6 | a@a.R#7 + a.R#9");
    ss_model_free(&out);
    ss_tf_list_free(l);
    /* all frames merged away: no tail either */
    cmd = "merge /./";
    l = apply_cmds(&m, &cmd, 1, &out);
    ck_assert_uint_eq(ss_stack_depth(&out, out.sample_stack.v[0]), 0);
    ck_assert_uint_eq(out.stack_tail.v[out.sample_stack.v[0]], SS_NONE);
    ck_assert_uint_eq(ss_tf_effect(l, 0)->samples_emptied, 1);
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* Names with spaces and quotes; regexes unanchored against the whole name. */
static const char names_prof[] = "sample.interval=20000\n"
                                 "\"a b\" \"main\" \n"
                                 "\"gg\" \"main\" \n"
                                 "\"xg\" \"main\" \n"
                                 "\"say \"hi\"\" \"main\" \n"
                                 "\"a/b\" \"main\" \n";

START_TEST(test_names_regex)
{
    struct ss_model m;
    struct ss_tf_effect e;
    FX_LOAD_OK(&m, names_prof);
    expect1(&m, "merge \"a b\"", "main | main;gg | main;xg | main;say \"hi\" | main;a/b", NULL);
    expect1(&m, "drop /^g/", "main;a b | main;xg | main;say \"hi\" | main;a/b", NULL);
    expect1(&m, "drop /g/", "main;a b | main;say \"hi\" | main;a/b", &e);
    ck_assert_uint_eq(e.functions_matched, 2);
    expect1(&m, "drop \"say \\\"hi\\\"\"", "main;a b | main;gg | main;xg | main;a/b", NULL);
    expect1(&m, "drop /\"hi\"$/", "main;a b | main;gg | main;xg | main;a/b", NULL);
    expect1(&m, "drop /a\\/b/", "main;a b | main;gg | main;xg | main;say \"hi\"", NULL);
    expect1(&m, "drop / /", "main;gg | main;xg | main;a/b", NULL);
    /* a bare word is a whole name, not a pattern */
    expect1(&m, "drop g", "main;a b | main;gg | main;xg | main;say \"hi\" | main;a/b", &e);
    ck_assert_uint_eq(e.functions_matched, 0);
    ss_model_free(&m);
}
END_TEST

/* Two sessions: 3 samples at 0.1 s, then 3 at 0.5 s.  Start times of the
 * samples: 0, 0.1, 0.2 | 0.3, 0.8, 1.3 (total 1.8 s). */
static const char two_prof[] = "sample.interval=100000\n"
                               "\"s1\" \n"
                               "\"s2\" \n"
                               "\"s3\" \n"
                               "sample.interval=500000\n"
                               "\"s4\" \n"
                               "\"s5\" \n"
                               "\"s6\" \n";

START_TEST(test_sample_ranges)
{
    struct ss_model m;
    struct ss_tf_effect e;
    FX_LOAD_OK(&m, two_prof);
    expect1(&m, "keep-samples 2:3", "s2 | s3", &e);
    expect_effect(&e, 6, 2, 0, 0, 0);
    expect1(&m, "drop-samples 2:3", "s1 | s4 | s5 | s6", NULL);
    expect1(&m, "drop-samples -2:", "s1 | s2 | s3 | s4", NULL);
    expect1(&m, "keep-samples -4:-1", "s3 | s4 | s5 | s6", NULL);
    expect1(&m, "keep-samples :2", "s1 | s2", NULL);
    expect1(&m, "keep-samples 5", "s5", NULL);
    expect1(&m, "keep-samples 5:-3", "", NULL); /* crossed ends (3:2 is a parse error) */
    expect1(&m, "drop-samples 10:20", "s1 | s2 | s3 | s4 | s5 | s6", NULL);
    expect1(&m, "keep-samples -100:2", "s1 | s2", NULL);
    /* times: [A, B) of the sample start times */
    expect1(&m, "keep-samples 0.2s:1s", "s3 | s4 | s5", NULL);
    expect1(&m, "keep-samples 250ms:", "s4 | s5 | s6", NULL);
    expect1(&m, "keep-samples :0.3s", "s1 | s2 | s3", NULL);
    /* -1s from the end: from 0.8 s on */
    expect1(&m, "drop-samples -1s:", "s1 | s2 | s3 | s4", NULL);
    expect1(&m, "keep-samples 2s:3s", "", NULL);
    expect1(&m, "keep-samples 0.3s:0.3s", "", NULL);

    /* each step numbers the timeline it sees */
    struct ss_model out;
    const char *cmds[] = {"drop-samples 1:1", "keep-samples 1:1"};
    struct ss_tf_list *l = apply_cmds(&m, cmds, 2, &out);
    char got[256];
    timeline(&out, got, sizeof got);
    ck_assert_str_eq(got, "s2");
    ss_model_free(&out);
    ss_tf_list_free(l);
    /* ... and its times: after dropping s1 (0.1 s), s4 starts at 0.2 s */
    const char *cmds2[] = {"drop-samples 1", "keep-samples 0.2s:0.8s"};
    l = apply_cmds(&m, cmds2, 2, &out);
    timeline(&out, got, sizeof got);
    ck_assert_str_eq(got, "s4 | s5");
    /* sources keep their order; their ranges follow the drops */
    ck_assert_uint_eq(out.sources.n, 2);
    ck_assert_uint_eq(out.sources.v[0].first_sample, 0);
    ck_assert_uint_eq(out.sources.v[0].n_samples, 0);
    ck_assert_uint_eq(out.sources.v[1].first_sample, 0);
    ck_assert_uint_eq(out.sources.v[1].n_samples, 2);
    ck_assert_double_exact(out.sources.v[1].interval_us, 500000);
    ss_model_free(&out);
    ss_tf_list_free(l);
    /* the stacks' sample counts follow every kind of cut: trim-base 1
     * afterwards removes one frame per remaining sample */
    static const struct {
        const char *cut1, *cut2;
        size_t left;
    } cuts[] = {
        {"drop-samples 2:4", "keep-samples :", 3},   {"keep-samples 2:3", "keep-samples :", 2},
        {"drop-samples 2", "keep-samples 1:2", 2},   {"drop-samples 3", "drop-samples 1:3", 2},
        {"keep-samples 2:5", "drop-samples 2:3", 2}, {"drop-samples -1", "keep-samples 0.15s:", 3}};
    for (size_t i = 0; i < ARRAY_SIZE(cuts); i++) {
        const char *c3[] = {cuts[i].cut1, cuts[i].cut2, "trim-base 1"};
        l = apply_cmds(&m, c3, 3, &out);
        const struct ss_tf_effect *e3 = ss_tf_effect(l, 2);
        ck_assert_msg(e3->samples_in == cuts[i].left && e3->frames_removed == cuts[i].left &&
                          e3->samples_emptied == cuts[i].left,
                      "%s, %s: %zu in, %llu frames, %zu emptied", cuts[i].cut1, cuts[i].cut2,
                      e3->samples_in, (unsigned long long)e3->frames_removed, e3->samples_emptied);
        ss_model_free(&out);
        ss_tf_list_free(l);
    }
    const char *cmds3[] = {"drop-samples 2:4"};
    l = apply_cmds(&m, cmds3, 1, &out);
    ck_assert_uint_eq(out.sources.v[0].first_sample, 0);
    ck_assert_uint_eq(out.sources.v[0].n_samples, 1);
    ck_assert_uint_eq(out.sources.v[1].first_sample, 1);
    ck_assert_uint_eq(out.sources.v[1].n_samples, 2);
    /* time = 1 x 0.1 + 2 x 0.5 */
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(&out, SS_BY_FUNCTION, 0, &st, &err), 0);
    ck_assert_double_eq_tol(st.value_total, 1.1, TOL);
    ss_stats_free(&st);
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* A model built through the builder API with count values (as pprof
 * gives): source 1 at 0.1 s with samples s1 x1, s2 x2, s3 x1; source 2 at
 * 0.5 s with s4 x1, s5 x1.  Start times: 0, 0.1, 0.3 | 0.4, 0.9; total 1.4 s. */
static void counted_model(struct ss_model *m)
{
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(m, &err), 0);
    static const char *const names[] = {"s1", "s2", "s3", "s4", "s5"};
    static const int64_t counts[] = {1, 2, 1, 1, 1};
    for (int i = 0; i < 5; i++) {
        if (i == 0 || i == 3)
            fx_source(m, "test", "built", i == 0 ? 1 : 2, i == 0 ? 100000 : 500000, 0);
        ss_id name = ss_model_intern_cstr(m, names[i]);
        ss_id main = ss_model_intern_cstr(m, "main");
        ss_id locs[2] = {
            ss_model_location(m, ss_model_function(m, name, name, SS_NONE, 0), SS_NONE, 0),
            ss_model_location(m, ss_model_function(m, main, main, SS_NONE, 0), SS_NONE, 0)};
        ss_id st = ss_model_stack(m, locs, 2, SS_NONE);
        int64_t vals[1] = {counts[i]};
        ck_assert_int_eq(ss_model_add_sample(m, st, vals), 0);
    }
    ss_model_seal(m);
    ck_assert_ptr_nonnull(m->values.v[SS_VT_COUNT]);
}

START_TEST(test_counted_samples)
{
    struct ss_model m, out;
    counted_model(&m);
    expect1(&m, "keep-samples 0.1s:0.5s", "main;s2 | main;s3 | main;s4", NULL);
    expect1(&m, "keep-samples 0.2s:", "main;s3 | main;s4 | main;s5", NULL);
    /* -0.5 s: from 0.9 s on */
    expect1(&m, "drop-samples -0.5s:", "main;s1 | main;s2 | main;s3 | main;s4", NULL);
    expect1(&m, "keep-samples -1", "main;s5", NULL);
    /* count values weigh the scaffold: need 0.3 x 6 = 1.8; level 1 main 6,
     * level 2 s2 2 (by rows it would be 1 of 5 < 1.5: one level only) */
    struct ss_tf_effect e;
    expect1(&m, "trim-base auto=0.3", "- | - | - | - | -", &e);
    ck_assert_uint_eq(e.levels_removed, 2);
    ck_assert_uint_eq(e.samples_emptied, 5);
    const char *cmd = "keep-samples 2:3";
    struct ss_tf_list *l = apply_cmds(&m, &cmd, 1, &out);
    ck_assert_uint_eq(out.sample_stack.n, 2);
    ck_assert_int_eq(out.values.v[SS_VT_COUNT][0], 2);
    ck_assert_int_eq(out.values.v[SS_VT_COUNT][1], 1);
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* Memory profile with an empty-stack sample (sample 3). */
static const char mem_prof[] = "memory profiling: sample.interval=20000\n"
                               ":10:20:30:1:\"f\" \"main\" \n"
                               ":11:21:31:2:\"g\" \"main\" \n"
                               ":12:22:32:3:\n"
                               ":13:23:33:4:\"main\" \n";

START_TEST(test_memory_and_empty)
{
    struct ss_model m, out;
    struct ss_tf_effect e;
    FX_LOAD_OK(&m, mem_prof);
    /* the empty sample counts in numbering; an already empty stack is not
     * "emptied" again */
    expect1(&m, "keep-samples 3:4", "- | main", NULL);
    expect1(&m, "trim-base 1", "f | g | - | -", &e);
    expect_effect(&e, 4, 4, 1, 3, 3);
    expect1(&m, "drop f", "main;g | - | main", NULL);
    expect1(&m, "focus main", "main;f | main;g | main", NULL);
    /* the memory columns follow the kept samples */
    const char *cmd = "drop-samples 2";
    struct ss_tf_list *l = apply_cmds(&m, &cmd, 1, &out);
    ck_assert_uint_eq(out.value_types.n, m.value_types.n);
    size_t small = SS_NONE;
    for (size_t t = 0; t < out.value_types.n; t++)
        if (!strcmp(ss_str(&out, out.value_types.v[t].type), "small_v"))
            small = t;
    ck_assert_uint_ne(small, SS_NONE);
    ck_assert_int_eq(ss_sample_value(&out, small, 0), 10);
    ck_assert_int_eq(ss_sample_value(&out, small, 1), 12);
    ck_assert_int_eq(ss_sample_value(&out, small, 2), 13);
    ck_assert_uint_eq(out.sources.v[0].flags, m.sources.v[0].flags);
    ss_model_free(&out);
    ss_tf_list_free(l);
    /* a cut at the start: samples 2..4 */
    cmd = "keep-samples 2:";
    l = apply_cmds(&m, &cmd, 1, &out);
    ck_assert_uint_eq(out.sample_stack.n, 3);
    ck_assert_int_eq(ss_sample_value(&out, small, 0), 11);
    ck_assert_int_eq(ss_sample_value(&out, small, 2), 13);
    ck_assert_uint_eq(out.sources.v[0].n_samples, 3);
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* The spare arrays (vec.h, struct ss_spare): which kept array a take
 * gets, what a give keeps; and a list applied with a spare, from arrays of
 * earlier models (their old contents in them), gives exactly the models
 * applied without one.  The profile is big enough for its models'
 * per-sample arrays to be kept (SS_SPARE_MIN bytes at 4 bytes a sample,
 * when half of the samples are left). */
START_TEST(test_spare)
{
    struct ss_spare sp;
    memset(&sp, 0, sizeof sp);
    size_t mb = (size_t)1 << 20;
    size_t room;
    void *t = ss_spare_take(&sp, 10, &room); /* none kept: a new one */
    ck_assert_uint_eq(room, 10);
    ck_assert_ptr_nonnull(t);
    free(t);
    void *small = ss_alloc_array(10, 1);
    ss_spare_give(&sp, small, 10); /* under SS_SPARE_MIN: freed, not kept */
    ck_assert_ptr_null(sp.p[0]);
    void *a[5];
    size_t sz[5] = {6 * mb, 4 * mb, 9 * mb, 5 * mb, 7 * mb};
    for (int i = 0; i < 5; i++) {
        a[i] = ss_alloc_array(sz[i], 1);
        ck_assert_ptr_nonnull(a[i]);
        ss_spare_give(&sp, a[i], sz[i]); /* the fifth replaces the 4 MB one */
    }
    t = ss_spare_take(&sp, 5 * mb + 1, &room); /* the least room of at least that */
    ck_assert_ptr_eq(t, a[0]);
    ck_assert_uint_eq(room, 6 * mb); /* all of it, to be given back with */
    free(t);
    t = ss_spare_take(&sp, 5 * mb, NULL);
    ck_assert_ptr_eq(t, a[3]);
    free(t);
    t = ss_spare_take(&sp, 10 * mb, NULL); /* none big enough: a new one */
    ck_assert(t != a[2] && t != a[4]);
    free(t);
    t = ss_spare_take(&sp, 100, NULL); /* too small to take a kept one */
    ck_assert(t != a[2] && t != a[4]);
    free(t);
    ss_spare_free(&sp);
    for (int i = 0; i < SS_SPARE_N; i++)
        ck_assert_ptr_null(sp.p[i]);

    /* a memory profile of n samples in four kinds */
    size_t n = 3 * SS_SPARE_MIN / sizeof(ss_id) + 1000;
    const char *kind[4] = {"\"f\" \"main\" ", "\"g\" \"f\" \"main\" ", "\"main\" ",
                           "\"h\" \"main\" "};
    struct ss_strbuf text = SS_STRBUF_INIT;
    ss_strbuf_printf(&text, "memory profiling: sample.interval=20000\n");
    for (size_t i = 0; i < n; i++)
        ss_strbuf_printf(&text, ":%zu:2:3:%zu:%s\n", i % 7, i % 3, kind[(i * 7 + i / 5) % 4]);
    struct ss_model m;
    struct ss_error err;
    char path[4096];
    ck_assert_int_eq(fx_load(&m, &err, text.s, text.len, path, sizeof path), 0);
    ss_strbuf_free(&text);
    ck_assert_uint_eq(m.sample_stack.n, n);
    const char *lists[][2] = {
        {"drop f", NULL},                     /* kept samples from the middle */
        {"keep-samples 1000:", "focus main"}, /* one stretch, stacks rewritten */
        {"drop-samples 5:5000", "drop h"},    /* both */
        {"prune g", "keep-samples -40000:"},  /* frames pruned, the end kept */
        {"drop /^(f|g|h|main)$/", NULL},      /* nothing left */
    };
    struct ss_tf_list *with = ss_tf_list_new();
    ck_assert_ptr_nonnull(with);
    ss_tf_list_set_spare(with, &sp);
    int used = 0;
    for (size_t k = 0; k < ARRAY_SIZE(lists); k++) {
        struct ss_model want;
        struct ss_tf_list *l = apply_cmds(&m, lists[k], lists[k][1] ? 2 : 1, &want);
        ss_tf_list_free(l);
        while (ss_tf_count(with))
            ss_tf_remove(with, 0);
        for (size_t j = 0; j < 2 && lists[k][j]; j++)
            ck_assert_int_eq(ss_tf_append(with, lists[k][j], &err), 0);
        /* twice, as a key and its undo and redo: the second at least from
         * the first's arrays, which hold junk (a model must not read what
         * it has not written), and which come back with all their room */
        for (int twice = 0; twice < 2; twice++) {
            struct ss_model got;
            int kept = 0;
            size_t held = 0;
            for (int i = 0; i < SS_SPARE_N; i++) {
                kept += sp.p[i] != NULL;
                held += sp.p[i] ? sp.cap[i] : 0;
                if (sp.p[i])
                    memset(sp.p[i], 0xa5, sp.cap[i]);
            }
            ck_assert_int_eq(ss_tf_apply(with, &m, &got, &err), 0);
            for (int i = 0; i < SS_SPARE_N; i++)
                kept -= sp.p[i] != NULL;
            used += twice && kept > 0;
            models_equal(&got, &want);
            ss_model_free_spare(&got, &sp);
            size_t after = 0;
            for (int i = 0; i < SS_SPARE_N; i++)
                after += sp.p[i] ? sp.cap[i] : 0;
            ck_assert_uint_ge(after, held);
        }
        ss_model_free(&want);
    }
    ck_assert_int_eq(used, (int)ARRAY_SIZE(lists) - 1); /* all but the empty one */
    ss_tf_list_free(with);
    ss_spare_free(&sp);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_class)
{
    struct ss_model m, out;
    FX_LOAD_OK(&m, fn_prof);
    const char *cmds[] = {"class /^[fg]$/ => FG", "class g => G"};
    struct ss_tf_list *l = apply_cmds(&m, cmds, 2, &out);
    ck_assert_uint_eq(out.function_class.n, out.functions.n);
    for (size_t f = 0; f < out.functions.n; f++) {
        const char *name = ss_str(&out, out.functions.v[f].name);
        ss_id c = out.function_class.v[f];
        const char *want = !strcmp(name, "f") ? "FG" : !strcmp(name, "g") ? "G" : NULL;
        if (want)
            ck_assert_str_eq(ss_str(&out, c), want);
        else
            ck_assert_uint_eq(c, SS_NONE);
    }
    ck_assert_uint_eq(ss_tf_effect(l, 0)->functions_matched, 2);
    ck_assert_uint_eq(ss_tf_effect(l, 1)->samples_out, 4);
    ss_model_free(&out);
    ss_tf_list_free(l);
    /* no class step: no class column */
    const char *cmd = "merge h";
    l = apply_cmds(&m, &cmd, 1, &out);
    ck_assert_uint_eq(out.function_class.n, 0);
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* A two-session memory + line profile for the equivalence tests. */
static const char mixed_prof[] = "memory profiling: line profiling: sample.interval=20000\n"
                                 "#File 1: /w/a.R\n"
                                 ":10:20:30:1:1#5 \"f\" 1#9 \"main\" 1#1 \n"
                                 ":11:21:31:0:\"g\" 1#6 \"f\" 1#9 \"main\" 1#1 \n"
                                 ":12:22:32:0:\n"
                                 ":14:22:40:2:\"g\" \"g\" 1#6 \"f\" 1#9 \"main\" 1#1 \n"
                                 ":15:25:41:0:\"h\" 1#10 \"main\" 1#1 \n"
                                 "memory profiling: line profiling: sample.interval=10000\n"
                                 "#File 1: /w/b.R\n"
                                 ":20:30:40:0:\"[\" \"lapply\" 1#3 \"k\" 1#2 \"main\" 1#1 \n"
                                 ":21:30:44:0:\"g\" 1#4 \"k\" 1#2 \"main\" 1#1 \n"
                                 ":22:31:48:1:\"main\" 1#1 \n";

static void apply_texts(const struct ss_model *orig, const char *const *cmds, size_t n,
                        struct ss_model *out)
{
    struct ss_tf_list *l = apply_cmds(orig, cmds, n, out);
    ss_tf_list_free(l);
}

/* l applied, compared with the list `want` applied to a fresh list. */
static void same_as(struct ss_tf_list *l, const struct ss_model *orig, const char *const *want,
                    size_t n)
{
    struct ss_model a, b;
    struct ss_error err;
    ck_assert_int_eq(ss_tf_apply(l, orig, &a, &err), 0);
    apply_texts(orig, want, n, &b);
    models_equal(&a, &b);
    ck_assert_uint_eq(ss_tf_active(l), n);
    ss_model_free(&a);
    ss_model_free(&b);
}

/* Undoing an append keeps what the steps before it did (the explorer
 * refuses a step that changes nothing without applying the list again);
 * the steps from the first that changed have no effect until applied. */
START_TEST(test_undo_keeps_effects)
{
    struct ss_model m, out;
    FX_LOAD_OK(&m, mixed_prof);
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_error err;
    ck_assert_int_eq(ss_tf_append(l, "drop-samples 2", &err), 0);
    ck_assert_int_eq(ss_tf_append(l, "trim-base 1", &err), 0);
    ck_assert_int_eq(ss_tf_apply(l, &m, &out, &err), 0);
    ss_model_free(&out);
    struct ss_tf_effect e0 = *ss_tf_effect(l, 0), e1 = *ss_tf_effect(l, 1);
    ck_assert_uint_gt(e0.samples_in, e0.samples_out);
    ck_assert_uint_gt(e1.frames_removed, 0);
    ck_assert_int_eq(ss_tf_append(l, "merge k", &err), 0);
    ck_assert_int_eq(ss_tf_apply(l, &m, &out, &err), 0);
    ss_model_free(&out);
    ck_assert_int_eq(ss_tf_undo(l), 1);
    ck_assert_uint_eq(ss_tf_count(l), 2);
    ck_assert_mem_eq(ss_tf_effect(l, 0), &e0, sizeof e0);
    ck_assert_mem_eq(ss_tf_effect(l, 1), &e1, sizeof e1);
    ck_assert_int_eq(ss_tf_change(l, 0, "drop-samples 3", &err), 0);
    ck_assert_int_eq(ss_tf_undo(l), 1); /* step 1 changed: nothing kept from it on */
    ck_assert_uint_eq(ss_tf_effect(l, 0)->samples_in, 0);
    ck_assert_uint_eq(ss_tf_effect(l, 1)->frames_removed, 0);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_undo_edit_equivalence)
{
    struct ss_model m;
    FX_LOAD_OK(&m, mixed_prof);
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_error err;
    ck_assert_int_eq(ss_tf_undo(l), 0);
    ck_assert_int_eq(ss_tf_append(l, "drop-samples 2", &err), 0);
    ck_assert_int_eq(ss_tf_append(l, "trim-base auto", &err), 0);
    ck_assert_int_eq(ss_tf_append(l, "replace lapply [ => LB", &err), 0);
    ck_assert_int_eq(ss_tf_append(l, "collapse-recursion g", &err), 0);
    const char *all[] = {"drop-samples 2", "trim-base auto", "replace lapply [ => LB",
                         "collapse-recursion g"};
    same_as(l, &m, all, 4);

    /* disable step 2, move step 4 to the front, change step 3, remove step 1 */
    ck_assert_int_eq(ss_tf_set_enabled(l, 1, 0), 0);
    const char *s1[] = {"drop-samples 2", "replace lapply [ => LB", "collapse-recursion g"};
    same_as(l, &m, s1, 3);
    ck_assert_int_eq(ss_tf_move(l, 3, 0), 0);
    const char *s2[] = {"collapse-recursion g", "drop-samples 2", "replace lapply [ => LB"};
    same_as(l, &m, s2, 3);
    ck_assert_int_eq(ss_tf_change(l, 3, "merge k", &err), 0);
    ck_assert_int_eq(ss_tf_enabled(l, 1), 1); /* change keeps the enabled flag */
    ck_assert_int_eq(ss_tf_enabled(l, 2), 0);
    const char *s3[] = {"collapse-recursion g", "drop-samples 2", "merge k"};
    same_as(l, &m, s3, 3);
    ck_assert_int_eq(ss_tf_insert(l, 1, "class /^g/ => G", &err), 0);
    const char *s4[] = {"collapse-recursion g", "class /^g/ => G", "drop-samples 2", "merge k"};
    same_as(l, &m, s4, 4);
    ck_assert_int_eq(ss_tf_remove(l, 0), 0);
    const char *s5[] = {"class /^g/ => G", "drop-samples 2", "merge k"};
    same_as(l, &m, s5, 3);

    /* a failed edit changes nothing and is no undo step */
    ck_assert_int_eq(ss_tf_change(l, 0, "merge", &err), SS_EUSAGE);
    ck_assert_int_eq(ss_tf_remove(l, 9), -1);
    ck_assert_int_eq(ss_tf_move(l, 0, 9), -1);
    ck_assert_int_eq(ss_tf_insert(l, 9, "merge x", &err), SS_EUSAGE);
    same_as(l, &m, s5, 3);

    /* undo walks back through every state, redo forward again */
    ck_assert_int_eq(ss_tf_undo(l), 1);
    same_as(l, &m, s4, 4);
    ck_assert_int_eq(ss_tf_undo(l), 1);
    same_as(l, &m, s3, 3);
    ck_assert_int_eq(ss_tf_undo(l), 1);
    same_as(l, &m, s2, 3);
    ck_assert_int_eq(ss_tf_undo(l), 1);
    same_as(l, &m, s1, 3);
    ck_assert_int_eq(ss_tf_undo(l), 1);
    same_as(l, &m, all, 4);
    ck_assert_int_eq(ss_tf_redo(l), 1);
    ck_assert_int_eq(ss_tf_redo(l), 1);
    same_as(l, &m, s2, 3);
    /* a new edit ends the redo history */
    ck_assert_int_eq(ss_tf_append(l, "prune g", &err), 0);
    ck_assert_int_eq(ss_tf_redo(l), 0);
    const char *s6[] = {"collapse-recursion g", "drop-samples 2", "replace lapply [ => LB",
                        "prune g"};
    same_as(l, &m, s6, 4);
    for (int i = 0; i < 7; i++)
        ck_assert_int_eq(ss_tf_undo(l), 1);
    ck_assert_int_eq(ss_tf_undo(l), 0);
    ck_assert_uint_eq(ss_tf_count(l), 0);

    /* no steps: a copy of the original, table by table */
    struct ss_model c;
    ck_assert_int_eq(ss_tf_apply(l, &m, &c, &err), 0);
    models_equal(&c, &m);
    ss_model_free(&c);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_mixed_profile)
{
    struct ss_model m, out;
    FX_LOAD_OK(&m, mixed_prof);
    /* Timeline: main;f | main;f;g | - | main;f;g;g | main;h || main;k;lapply;[ |
     * main;k;g | main.  Every sample has main at level 1 (empty one aside),
     * level 2 has f in 3 of 7 -> scaffold 1; main has positions (user code),
     * so trim-base auto keeps it and auto,all cuts it. */
    const char *keep[] = {"trim-base auto"};
    struct ss_tf_list *k = apply_cmds(&m, keep, 1, &out);
    ck_assert_uint_eq(ss_tf_effect(k, 0)->levels_removed, 0);
    ck_assert_uint_eq(ss_tf_effect(k, 0)->frames_removed, 0);
    ss_model_free(&out);
    ss_tf_list_free(k);
    /* name-anonymous f: each f after the nearest caller with a position,
     * main at 1#9 of a.R; its own position stays */
    const char *named[] = {"name-anonymous f"};
    k = apply_cmds(&m, named, 1, &out);
    char nb[256];
    fx_stack_text(&out, out.sample_stack.v[0], nb, sizeof nb);
    ck_assert_str_eq(nb, "f@a.R#9@/w/a.R#5 | main@/w/a.R#9 + /w/a.R#1");
    ck_assert_uint_eq(ss_tf_effect(k, 0)->functions_matched, 1);
    ss_model_free(&out);
    ss_tf_list_free(k);
    const char *cmds[] = {"trim-base auto,all", "drop-samples -2:-2", "collapse-recursion g"};
    struct ss_tf_list *l = apply_cmds(&m, cmds, 3, &out);
    char got[512];
    timeline(&out, got, sizeof got);
    ck_assert_str_eq(got, "f | f;g | - | f;g | h | k;lapply;[ | -");
    ck_assert_uint_eq(ss_tf_effect(l, 0)->levels_removed, 1);
    ck_assert_uint_eq(ss_tf_effect(l, 0)->samples_emptied, 1);
    ck_assert_uint_eq(ss_tf_effect(l, 1)->samples_out, 7);
    ck_assert_uint_eq(ss_tf_effect(l, 2)->frames_removed, 1);
    ck_assert_uint_eq(out.sources.v[0].n_samples, 5);
    ck_assert_uint_eq(out.sources.v[1].first_sample, 5);
    ck_assert_uint_eq(out.sources.v[1].n_samples, 2);
    /* f's line: "f" at 1#5 in sample 1 */
    char buf[256];
    fx_stack_text(&out, out.sample_stack.v[0], buf, sizeof buf);
    ck_assert_str_eq(buf, "f@/w/a.R#5");
    ss_model_free(&out);
    ss_tf_list_free(l);
    /* applying twice gives the same model */
    struct ss_model a, b;
    apply_texts(&m, cmds, 3, &a);
    apply_texts(&m, cmds, 3, &b);
    models_equal(&a, &b);
    ss_model_free(&a);
    ss_model_free(&b);
    ss_model_free(&m);
}
END_TEST

/* ss_tf_is_command knows the sixteen command words (the man page's
 * TRANSFORMS) and nothing else: not the UI's own commands, not a prefix,
 * not a word with its argument. */
START_TEST(test_is_command)
{
    const char *yes[] = {
        "drop-samples", "keep-samples", "trim-base",      "trim-to",    "focus",
        "drop",         "merge",        "prune",          "replace",    "collapse-recursion",
        "class",        "r-simplify",   "name-anonymous", "keep-label", "drop-label",
        "label-root"};
    for (size_t i = 0; i < ARRAY_SIZE(yes); i++)
        ck_assert_msg(ss_tf_is_command(yes[i]), "%s", yes[i]);
    const char *no[] = {"",     "w",         "undo",    "functions", "tree", "dro",  "drops",
                        "DROP", "drop main", "drop\tx", "#drop",     "=>",   "trim", "focus!"};
    for (size_t i = 0; i < ARRAY_SIZE(no); i++)
        ck_assert_msg(!ss_tf_is_command(no[i]), "'%s'", no[i]);
}
END_TEST

/* ---- labels ------------------------------------------------------------------- */

/* A profile built by hand: stacks root first, one source of 10 ms.
 *   1 main;f  {w=a}          5 main;g  {w=a, p=y}
 *   2 main;g  {w=b, p=x}     6 (no frames) {w=a}
 *   3 main;f  {}             7 main;f  {n=5 bytes}
 *   4 main;f  {w=b}          8 main;g  {w=a, w=b}       */
static void labelled(struct ss_model *m)
{
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(m, &err), 0);
    fx_source(m, "pprof", "hand.pb.gz", 0, 10000, 0);
    ss_id loc[3];
    const char *names[3] = {"main", "f", "g"};
    for (int i = 0; i < 3; i++) {
        ss_id nm = ss_model_intern_cstr(m, names[i]);
        loc[i] = ss_model_location(m, ss_model_function(m, nm, nm, SS_NONE, 0), SS_NONE, 0);
    }
    ss_id mf[2] = {loc[1], loc[0]}, mg[2] = {loc[2], loc[0]};
    ss_id st_f = ss_model_stack(m, mf, 2, SS_NONE), st_g = ss_model_stack(m, mg, 2, SS_NONE);
    ss_id st_0 = ss_model_stack(m, NULL, 0, SS_NONE);
    ss_id w = ss_model_intern_cstr(m, "w"), p = ss_model_intern_cstr(m, "p");
    ss_id wa = ss_model_label(m, w, ss_model_intern_cstr(m, "a"), 0, SS_NONE);
    ss_id wb = ss_model_label(m, w, ss_model_intern_cstr(m, "b"), 0, SS_NONE);
    ss_id px = ss_model_label(m, p, ss_model_intern_cstr(m, "x"), 0, SS_NONE);
    ss_id py = ss_model_label(m, p, ss_model_intern_cstr(m, "y"), 0, SS_NONE);
    ss_id n5 = ss_model_label(m, ss_model_intern_cstr(m, "n"), SS_NONE, 5,
                              ss_model_intern_cstr(m, "bytes"));
    struct {
        ss_id st;
        ss_id labs[2];
        size_t n;
    } rows[8] = {{st_f, {wa}, 1},     {st_g, {wb, px}, 2}, {st_f, {0}, 0},  {st_f, {wb}, 1},
                 {st_g, {py, wa}, 2}, {st_0, {wa}, 1},     {st_f, {n5}, 1}, {st_g, {wb, wa}, 2}};
    for (int i = 0; i < 8; i++) {
        ck_assert_int_eq(ss_model_add_sample(m, rows[i].st, NULL), 0);
        ss_id set = ss_model_label_set(m, rows[i].labs, rows[i].n);
        ck_assert_uint_ne(set, SS_NONE);
        ck_assert_int_eq(ss_model_label_sample(m, set), 0);
    }
    ss_model_seal(m);
}

/* The labels of sample i as "k=v,k=v" (label ids' order). */
static void sample_labels_text(const struct ss_model *m, size_t i, char *buf, size_t n)
{
    ss_id set = ss_sample_labelset(m, i);
    size_t at = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < ss_labelset_size(m, set); k++) {
        ss_id l = ss_labelset_labels(m, set)[k];
        char v[64];
        at += (size_t)snprintf(buf + at, n - at, "%s%s=%s", k ? "," : "", ss_label_key(m, l),
                               ss_label_value(m, l, v, sizeof v));
    }
}

/* keep-label / drop-label: which samples stay, their labels, the gaps. */
START_TEST(test_label_filters)
{
    struct ss_model m;
    labelled(&m);
    struct ss_tf_effect e;
    /* w=a: samples 1, 5, 6, 8 */
    expect1(&m, "keep-label w=a", "main;f | main;g | - | main;g", &e);
    expect_effect(&e, 8, 4, 0, 0, 0);
    ck_assert_uint_eq(e.labels_matched, 1);
    ck_assert_uint_eq(e.functions_matched, 0);
    /* the key alone: every sample with a w label (1, 2, 4, 5, 6, 8) */
    expect1(&m, "keep-label w", "main;f | main;g | main;f | main;g | - | main;g", &e);
    ck_assert_uint_eq(e.labels_matched, 2);
    expect1(&m, "keep-label w=/^(a|b)$/", "main;f | main;g | main;f | main;g | - | main;g", NULL);
    expect1(&m, "keep-label w=/b/", "main;g | main;f | main;g", NULL);
    expect1(&m, "keep-label p", "main;g | main;g", NULL);
    expect1(&m, "drop-label w", "main;f | main;f", &e); /* 3 and 7 */
    expect_effect(&e, 8, 2, 0, 0, 0);
    expect1(&m, "drop-label w=b", "main;f | main;f | main;g | - | main;f", NULL);
    /* a numeric label: its number, its text, a regex over the text */
    expect1(&m, "keep-label n=5", "main;f", NULL);
    expect1(&m, "keep-label n=\"5 bytes\"", "main;f", NULL);
    expect1(&m, "keep-label n=/bytes$/", "main;f", NULL);
    expect1(&m, "keep-label n=6", "", &e);
    ck_assert_uint_eq(e.labels_matched, 0);
    /* a value is whole: "a" is not "ab"; an unknown key matches nothing */
    expect1(&m, "keep-label w=\"\"", "", NULL);
    expect1(&m, "keep-label zz", "", NULL);
    expect1(&m, "drop-label zz", "main;f | main;g | main;f | main;f | main;g | - | main;f | main;g",
            NULL);

    /* the kept samples keep their labels; gaps where samples went */
    const char *cmds[] = {"keep-label w=a"};
    struct ss_model out;
    struct ss_tf_list *l = apply_cmds(&m, cmds, 1, &out);
    char buf[256];
    const char *want[4] = {"w=a", "w=a,p=y", "w=a", "w=a,w=b"};
    for (size_t i = 0; i < 4; i++) {
        sample_labels_text(&out, i, buf, sizeof buf);
        ck_assert_str_eq(buf, want[i]);
    }
    /* out 1 (orig 5) and out 3 (orig 8) follow removed samples */
    ck_assert_uint_eq(out.gaps.n, 2);
    ck_assert_uint_eq(out.gaps.v[0], 1);
    ck_assert_uint_eq(out.gaps.v[1], 3);
    ck_assert_int_eq(ss_tf_no_match(l, 0), 0);
    ck_assert_str_eq(ss_tf_match_noun(l, 0), "label");
    ss_model_free(&out);
    ss_tf_list_free(l);
    const char *none[] = {"keep-label w=zz"};
    l = apply_cmds(&m, none, 1, &out);
    ck_assert_int_eq(ss_tf_no_match(l, 0), 1);
    ck_assert_uint_eq(out.sample_stack.n, 0);
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* label-root: the value becomes the outermost frame KEY=VALUE (values of
 * one key joined by ','); samples without the label, and samples with no
 * frames, stay as they were; the labels stay on the samples. */
START_TEST(test_label_root)
{
    struct ss_model m;
    labelled(&m);
    struct ss_tf_effect e;
    expect1(&m, "label-root w",
            "w=a;main;f | w=b;main;g | main;f | w=b;main;f | w=a;main;g | - | main;f | "
            "w=a,b;main;g",
            &e);
    ck_assert_uint_eq(e.samples_out, 8);
    ck_assert_uint_eq(e.labels_matched, 2);
    ck_assert_uint_eq(e.frames_removed, 0);
    expect1(&m, "label-root n",
            "main;f | main;g | main;f | main;f | main;g | - | n=5 bytes;main;f | main;g", NULL);
    expect1(&m, "label-root zz", "main;f | main;g | main;f | main;f | main;g | - | main;f | main;g",
            &e);
    ck_assert_uint_eq(e.stacks_changed, 0);

    /* with other steps: the root frame is a function like any other */
    const char *cmds[] = {"label-root w", "keep-label p", "merge main"};
    struct ss_model out;
    struct ss_tf_list *l = apply_cmds(&m, cmds, 3, &out);
    char buf[512];
    timeline(&out, buf, sizeof buf);
    ck_assert_str_eq(buf, "w=b;g | w=a;g");
    sample_labels_text(&out, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "w=b,p=x");
    /* stacks are distinct in the output (label sets no longer split them) */
    ck_assert_uint_eq(ss_model_nstacks(&out), 2);
    ss_model_free(&out);
    ss_tf_list_free(l);
    const char *c2[] = {"label-root p", "focus f"};
    l = apply_cmds(&m, c2, 2, &out);
    timeline(&out, buf, sizeof buf);
    ck_assert_str_eq(buf, "f | f | f | f");
    ck_assert_uint_eq(ss_model_nstacks(&out), 1);
    ss_model_free(&out);
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* Undoing a label-root keeps no effects: with it every step counted stacks
 * per stack and label set, without it per stack. */
START_TEST(test_undo_label_root_effects)
{
    struct ss_model m, out;
    labelled(&m);
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_error err;
    ck_assert_int_eq(ss_tf_append(l, "focus f", &err), 0);
    ck_assert_int_eq(ss_tf_append(l, "label-root w", &err), 0);
    ck_assert_int_eq(ss_tf_apply(l, &m, &out, &err), 0);
    ss_model_free(&out);
    ck_assert_uint_gt(ss_tf_effect(l, 0)->samples_in, 0);
    ck_assert_int_eq(ss_tf_undo(l), 1);
    ck_assert_uint_eq(ss_tf_effect(l, 0)->samples_in, 0); /* applied again to say */
    ss_tf_list_free(l);
    ss_model_free(&m);
}
END_TEST

/* ---- the per-stack path against a per-sample recomputation (issue 15) ---------- */

/* Transforms work on distinct stacks and keep the timeline as 4-byte stack
 * ids (sharing the value columns when one stretch of samples is kept), and
 * statistics add per-stack sums.  Here random transform lists are applied
 * to fixtures, and the statistics of the result are worked out again the
 * slow way, one sample at a time from its stack and its value columns:
 * self/total per function (counts and every measure) and the run lengths
 * per (function, level), which need the timeline (a gap left by removed
 * samples ends every run: HACKING.md, Data model). */

static uint32_t rnd_next(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

static int near(double a, double b)
{
    double scale = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= 1e-9 * (scale > 1 ? scale : 1);
}

static int64_t col_at(const struct ss_model *m, ss_id vt, size_t i)
{
    return vt == SS_NONE ? 0 : ss_sample_value(m, vt, i);
}

static ss_id find_vt(const struct ss_model *m, const char *name)
{
    for (size_t t = 0; t < m->value_types.n; t++)
        if (!strcmp(ss_str(m, m->value_types.v[t].type), name))
            return (ss_id)t;
    return SS_NONE;
}

/* Sample i's value under measure ms (of source src), from its own columns:
 * time = count x interval, samples = count, memory and released from the
 * differences with the sample the session recorded before it, a column as
 * it is.  o: the original m was transformed from (NULL: m is one), whose
 * sample o_i is m's sample i (its row in the shared columns), and whose
 * samples are the recording: a kept sample's bytes are against o's sample
 * o_i - 1 of the same source, kept or not.  Returns 0 when the measure
 * cannot be worked out here (time from a column). */
static int naive_weight(const struct ss_model *m, const struct ss_model *o,
                        const struct ss_measure *ms, size_t src, size_t i, double *w)
{
    const struct ss_source *so = &m->sources.v[src];
    int64_t cnt = ss_sample_count(m, i);
    *w = 0;
    if (!ss_source_has_measure(m, src, ms))
        return 1;
    switch (ms->kind) {
    case SS_MEASURE_TIME:
        if (so->time_column)
            return 0;
        *w = (double)cnt * (so->interval_us / 1e6);
        return 1;
    case SS_MEASURE_SAMPLES:
        *w = (double)cnt;
        return 1;
    case SS_MEASURE_COLUMN:
        *w = (double)col_at(m, ms->vt, i);
        return 1;
    case SS_MEASURE_MEMORY:
    case SS_MEASURE_RELEASED: {
        const struct ss_model *rec = o ? o : m;
        size_t r = o ? (m->value_rows ? m->value_rows[i] : m->values_base + i) : i;
        const struct ss_source *ro = &rec->sources.v[src];
        ck_assert(r >= ro->first_sample && r < ro->first_sample + ro->n_samples);
        if (r == ro->first_sample || !(so->flags & SS_SRC_MEMORY))
            return 1;
        ss_id sm = find_vt(rec, "small_v"), bg = find_vt(rec, "big_v"), nd = find_vt(rec, "nodes");
        double ds = (double)col_at(rec, sm, r) - (double)col_at(rec, sm, r - 1);
        double db = (double)col_at(rec, bg, r) - (double)col_at(rec, bg, r - 1);
        double dn = (double)col_at(rec, nd, r) - (double)col_at(rec, nd, r - 1);
        if (ms->kind == SS_MEASURE_MEMORY)
            *w = (ds > 0 ? 8 * ds : 0) + (db > 0 ? 8 * db : 0) + (dn > 0 ? dn : 0);
        else
            *w = 8 * (ds + db) < 0 ? -8 * (ds + db) : 0;
        return 1;
    }
    }
    return 0;
}

/* self/total per canonical function, sample by sample, against
 * ss_stats_compute under the model's chosen measure. */
static void naive_functions(const struct ss_model *m, const struct ss_model *o, const char *what)
{
    size_t nf = m->functions.n;
    double *self = calloc(nf + 1, sizeof *self), *total = calloc(nf + 1, sizeof *total);
    uint64_t *self_n = calloc(nf + 1, sizeof *self_n), *total_n = calloc(nf + 1, sizeof *total_n);
    size_t *stamp = calloc(nf + 1, sizeof *stamp);
    ck_assert(self && total && self_n && total_n && stamp);
    const struct ss_measure *ms = ss_model_measure(m);
    for (size_t src = 0; src < m->sources.n; src++) {
        const struct ss_source *so = &m->sources.v[src];
        for (size_t i = so->first_sample; i < so->first_sample + so->n_samples; i++) {
            ss_id st = m->sample_stack.v[i];
            size_t d = ss_stack_depth(m, st);
            const ss_id *fr = ss_stack_frames(m, st);
            double w;
            if (!naive_weight(m, o, ms, src, i, &w))
                goto out; /* not a measure worked out here */
            if (d == 0)
                continue;
            uint64_t c = (uint64_t)ss_sample_count(m, i);
            ss_id leaf = ss_function_canonical(m, ss_loc_function(m, fr[0]));
            self[leaf] += w;
            self_n[leaf] += c;
            for (size_t k = 0; k < d; k++) {
                ss_id f = ss_function_canonical(m, ss_loc_function(m, fr[k]));
                if (stamp[f] != i + 1) {
                    stamp[f] = i + 1;
                    total[f] += w;
                    total_n[f] += c;
                }
            }
        }
    }
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(m, SS_BY_FUNCTION, 0, &st, &err), 0);
    size_t rows = 0; /* functions the measure weighs (as pprof -top, stats.c) */
    for (size_t f = 0; f < nf; f++)
        rows += fabs(total[f]) > 0 || fabs(self[f]) > 0;
    ck_assert_msg(st.n == rows, "%s (%s): %zu function rows, per sample %zu", what,
                  ss_model_measure_name(m), st.n, rows);
    for (size_t r = 0; r < st.n; r++) {
        ss_id f = st.rows[r].function;
        const char *name = ss_function_name(m, f);
        ck_assert_msg(st.rows[r].self_n == self_n[f] && st.rows[r].total_n == total_n[f],
                      "%s: %s: self/total samples %llu/%llu, per sample %llu/%llu", what, name,
                      (unsigned long long)st.rows[r].self_n, (unsigned long long)st.rows[r].total_n,
                      (unsigned long long)self_n[f], (unsigned long long)total_n[f]);
        ck_assert_msg(near(st.rows[r].self_v, self[f]) && near(st.rows[r].total_v, total[f]),
                      "%s (%s): %s: self/total %.17g/%.17g, per sample %.17g/%.17g", what,
                      ss_model_measure_name(m), name, st.rows[r].self_v, st.rows[r].total_v,
                      self[f], total[f]);
    }
    ss_stats_free(&st);
out:
    free(self);
    free(total);
    free(self_n);
    free(total_n);
    free(stamp);
}

/* Run lengths per (function, level), sample by sample, against
 * ss_runs_compute. */
struct naive_run {
    uint64_t runs, samples, max;
};

static void naive_close(struct naive_run *nr, size_t maxd, const ss_id *pc, const uint64_t *len,
                        size_t from, size_t to)
{
    for (size_t k = from; k < to; k++) {
        struct naive_run *r = &nr[(size_t)pc[k] * maxd + k];
        r->runs++;
        r->samples += len[k];
        if (len[k] > r->max)
            r->max = len[k];
    }
}

static void naive_runs(const struct ss_model *m, const char *what)
{
    size_t nf = m->functions.n, maxd = 1;
    for (size_t s = 0; s < ss_model_nstacks(m); s++)
        if (ss_stack_depth(m, (ss_id)s) > maxd)
            maxd = ss_stack_depth(m, (ss_id)s);
    struct naive_run *nr = calloc(nf * maxd + 1, sizeof *nr);
    ss_id *pc = calloc(maxd, sizeof *pc), *cc = calloc(maxd, sizeof *cc);
    uint64_t *len = calloc(maxd, sizeof *len);
    ck_assert(nr && pc && cc && len);
    for (size_t src = 0; src < m->sources.n; src++) {
        const struct ss_source *so = &m->sources.v[src];
        if (so->flags & SS_SRC_UNORDERED)
            continue;
        size_t open = 0;
        for (size_t i = so->first_sample; i < so->first_sample + so->n_samples; i++) {
            if (ss_model_gap_before(m, i)) { /* removed samples end every run */
                naive_close(nr, maxd, pc, len, 0, open);
                open = 0;
            }
            ss_id st = m->sample_stack.v[i];
            size_t d = ss_stack_depth(m, st);
            const ss_id *fr = ss_stack_frames(m, st);
            for (size_t k = 0; k < d; k++) /* root first */
                cc[k] = ss_function_canonical(m, ss_loc_function(m, fr[d - 1 - k]));
            size_t cp = 0;
            while (cp < open && cp < d && cc[cp] == pc[cp])
                cp++;
            naive_close(nr, maxd, pc, len, cp, open);
            for (size_t k = cp; k < d; k++)
                len[k] = 0;
            int64_t c = ss_sample_count(m, i);
            for (size_t k = 0; k < d; k++)
                len[k] += c > 0 ? (uint64_t)c : 0;
            memcpy(pc, cc, d * sizeof *pc);
            open = d;
        }
        naive_close(nr, maxd, pc, len, 0, open);
    }
    struct ss_run_row *rows;
    size_t n;
    struct ss_error err;
    ck_assert_int_eq(ss_runs_compute(m, 0, &rows, &n, &err), 0);
    size_t want = 0, got = 0;
    for (size_t i = 0; i < nf * maxd; i++)
        want += nr[i].runs > 0;
    for (size_t i = 0; i < n; i++) {
        const struct ss_run_row *r = &rows[i];
        if (r->level == 0) { /* every level of the function together */
            uint64_t runs = 0, samples = 0;
            for (size_t k = 0; k < maxd; k++) {
                runs += nr[(size_t)r->function * maxd + k].runs;
                samples += nr[(size_t)r->function * maxd + k].samples;
            }
            ck_assert_msg(r->runs == runs && r->samples == samples,
                          "%s: %s, all levels: %llu runs of %llu samples, per sample %llu of %llu",
                          what, ss_function_name(m, r->function), (unsigned long long)r->runs,
                          (unsigned long long)r->samples, (unsigned long long)runs,
                          (unsigned long long)samples);
            continue;
        }
        got++;
        ck_assert_uint_le(r->level, maxd);
        const struct naive_run *w = &nr[(size_t)r->function * maxd + r->level - 1];
        ck_assert_msg(r->runs == w->runs && r->samples == w->samples && r->max == w->max,
                      "%s: %s at level %u: %llu runs, %llu samples, max %llu; per sample %llu, "
                      "%llu, %llu",
                      what, ss_function_name(m, r->function), r->level, (unsigned long long)r->runs,
                      (unsigned long long)r->samples, (unsigned long long)r->max,
                      (unsigned long long)w->runs, (unsigned long long)w->samples,
                      (unsigned long long)w->max);
    }
    ck_assert_msg(got == want, "%s: %zu (function, level) rows, per sample %zu", what, got, want);
    free(rows);
    free(nr);
    free(pc);
    free(cc);
    free(len);
}

/* Every check above, under every measure m offers (o: the original m was
 * transformed from, or NULL). */
static void naive_all(struct ss_model *m, const struct ss_model *o, const char *what)
{
    struct ss_measure ms[SS_SOURCE_VALUE_BITS + 8];
    size_t n = ss_model_measures(m, ms, sizeof ms / sizeof *ms);
    struct ss_error err;
    for (size_t i = 0; i < n && i < sizeof ms / sizeof *ms; i++) {
        char name[256];
        snprintf(name, sizeof name, "%s", ss_measure_name(m, &ms[i]));
        ck_assert_msg(ss_model_set_measure(m, name, &err) == 0, "%s: %s", what, err.msg);
        naive_functions(m, o, what);
    }
    ck_assert_int_eq(ss_model_set_measure(m, NULL, &err), 0);
    naive_runs(m, what);
}

/* name as a double-quoted name of the transform language (\" and \\
 * escaped), cut to fit buf (a step that then matches nothing is fine). */
static const char *quoted(const char *name, char *buf, size_t n)
{
    size_t at = 0;
    buf[at++] = '"';
    for (const char *p = name; *p && at + 4 < n; p++) {
        if (*p == '"' || *p == '\\')
            buf[at++] = '\\';
        buf[at++] = *p;
    }
    buf[at++] = '"';
    buf[at] = '\0';
    return buf;
}

/* A random list of 1..4 steps over o's functions: every kind that rewrites
 * stacks, and every kind that removes samples (ranges, drop, focus). */
static void random_list(const struct ss_model *o, uint64_t *seed, struct ss_tf_list *l, char *text,
                        size_t tn)
{
    static const char *const fn_cmds[] = {"drop",  "focus",   "merge",
                                          "prune", "trim-to", "collapse-recursion"};
    size_t nsteps = 1 + rnd_next(seed) % 4, at = 0;
    size_t nf = o->functions.n, ns = o->sample_stack.n ? o->sample_stack.n : 1;
    text[0] = '\0';
    for (size_t k = 0; k < nsteps; k++) {
        char cmd[600], q1[256], q2[256];
        const char *f1 = nf ? ss_function_name(o, (ss_id)(rnd_next(seed) % nf)) : "x";
        const char *f2 = nf ? ss_function_name(o, (ss_id)(rnd_next(seed) % nf)) : "y";
        uint32_t a = 1 + rnd_next(seed) % (uint32_t)ns, b = 1 + rnd_next(seed) % (uint32_t)ns;
        switch (rnd_next(seed) % 9) {
        case 0:
        case 1:
            snprintf(cmd, sizeof cmd, "%s-samples %u:%u", rnd_next(seed) % 2 ? "drop" : "keep",
                     a < b ? a : b, a < b ? b : a);
            break;
        case 2:
            snprintf(cmd, sizeof cmd, "trim-base %s", rnd_next(seed) % 2 ? "auto" : "1");
            break;
        case 3:
            snprintf(cmd, sizeof cmd, "replace %s %s => NEW", quoted(f1, q1, sizeof q1),
                     quoted(f2, q2, sizeof q2));
            break;
        default:
            snprintf(cmd, sizeof cmd, "%s %s", fn_cmds[rnd_next(seed) % 6],
                     quoted(f1, q1, sizeof q1));
            break;
        }
        struct ss_error err;
        if (ss_tf_append(l, cmd, &err)) /* a name no regex can say: skip the step */
            continue;
        at += (size_t)snprintf(text + at, at < tn ? tn - at : 0, "%s%s", at ? "; " : "", cmd);
    }
}

/* The samples of a builder-made model carry their number in an `id` column,
 * and a `bytes` column (a measure): after any list, each kept sample's
 * columns are the original's, in order, and when the kept samples are one
 * stretch the columns are shared, not copied. */
static void id_model(struct ss_model *m, uint64_t *seed)
{
    struct ss_error err;
    ck_assert_int_eq(ss_model_init(m, &err), 0);
    ss_id vid = ss_model_value_type(m, "id", "count");
    ss_id vb = ss_model_value_type(m, "bytes", "bytes");
    ck_assert(vid == 1 && vb == 2);
    ss_id loc[6];
    for (int f = 0; f < 6; f++) {
        char nm[8];
        snprintf(nm, sizeof nm, "f%d", f);
        ss_id s = ss_model_intern_cstr(m, nm);
        loc[f] = ss_model_location(m, ss_model_function(m, s, s, SS_NONE, 0), SS_NONE, 0);
    }
    size_t id = 0;
    for (int so = 0; so < 2; so++) {
        ss_id sid = fx_source(m, "test", "built", (uint32_t)so + 1, so ? 20000 : 10000, 0);
        ss_model_source_value(m, sid, vb, 0);
        for (int i = 0; i < 150; i++, id++) {
            ss_id fr[6];
            size_t d = rnd_next(seed) % 6;
            for (size_t k = 0; k < d; k++) /* f0 outermost, mostly */
                fr[d - 1 - k] = k == 0 && rnd_next(seed) % 8 ? loc[0] : loc[rnd_next(seed) % 6];
            ss_id st = ss_model_stack(m, fr, d, SS_NONE);
            int64_t vals[3] = {1 + rnd_next(seed) % 3, (int64_t)id, rnd_next(seed) % 1000};
            ck_assert_int_eq(ss_model_add_sample(m, st, vals), 0);
        }
    }
    ss_model_seal(m);
}

static void check_columns(const struct ss_model *o, const struct ss_model *t, const char *what)
{
    int64_t last = -1;
    int stretch = 1;
    for (size_t k = 0; k < t->sample_stack.n; k++) {
        int64_t id = ss_sample_value(t, 1, k);
        ck_assert_msg(id > last && (size_t)id < o->sample_stack.n, "%s: sample %zu has id %lld",
                      what, k, (long long)id);
        stretch &= k == 0 || id == last + 1;
        last = id;
        for (size_t v = 0; v < o->values.n; v++)
            ck_assert_int_eq(ss_sample_value(t, v, k), ss_sample_value(o, v, (size_t)id));
    }
    /* the columns are o's, never copied; rows only when samples left the middle */
    ck_assert_msg(t->values_borrowed, "%s: columns copied", what);
    ck_assert_msg(!stretch || !t->value_rows, "%s: one stretch kept, with rows", what);
}

static void per_stack_vs_per_sample(struct ss_model *o, const char *what, uint64_t *seed, int lists,
                                    int ids)
{
    char buf[1200];
    naive_all(o, NULL, what);
    for (int r = 0; r < lists; r++) {
        struct ss_tf_list *l = ss_tf_list_new();
        char text[900];
        random_list(o, seed, l, text, sizeof text);
        struct ss_model t;
        struct ss_error err;
        ck_assert_msg(ss_tf_apply(l, o, &t, &err) == 0, "%s: %s: %s", what, text, err.msg);
        snprintf(buf, sizeof buf, "%s after '%s'", what, text);
        if (ids)
            check_columns(o, &t, buf);
        naive_all(&t, o, buf);
        ss_model_free(&t);
        ss_tf_list_free(l);
    }
}

static char *srcdir_path(char *buf, size_t n, const char *rel)
{
    const char *s = getenv("SRCDIR");
    snprintf(buf, n, "%s/%s", s && *s ? s : ".", rel);
    return buf;
}

START_TEST(test_per_stack_vs_per_sample)
{
    uint64_t seed = 15;
    struct ss_model m;
    for (int k = 0; k < 3; k++) {
        id_model(&m, &seed);
        per_stack_vs_per_sample(&m, "built", &seed, 40, 1);
        ss_model_free(&m);
    }
    static const char *const files[] = {
        "tests/data/rprof/memory_line.out",
        "tests/data/rprof/mem_gc_line.out",
        "tests/data/rprof/append_mixed_flags.out",
        "tests/data/rprof/append_two_sessions.out",
        "tests/data/rprof/line.out",
        "tests/data/rprof/plain_fast.out",
        "tests/data/edge-cases/memory_stackless.out",
        "tests/data/edge-cases/blank_line_memory.out",
        "tests/data/pprof/go/cpu.pb.gz",
        "tests/data/pprof/go/heap.pb.gz",
        "data/demo.out",
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[4096];
        char *p[1] = {srcdir_path(path, sizeof path, files[i])};
        struct ss_error err;
        ck_assert_msg(ss_load_files(&m, p, 1, NULL, &err) == 0, "%s: %s", files[i], err.msg);
        per_stack_vs_per_sample(&m, files[i], &seed, 12, 0);
        ss_model_free(&m);
    }
}
END_TEST

/* Transforms that remove samples from the middle share the original's value
 * columns through rows (model.h: value_rows): every value and every
 * measure's weight equals what a copy of the kept rows gives, worked out
 * here from the original's own columns and the kept samples' numbers (the
 * memory measures against the sample recorded before, kept or not), after
 * one step and two, an undo and a redo (the lists applied again), and
 * with the measure chosen before the transform and after it (V). */
static void expect_shared(struct ss_model *o, struct ss_model *t, const size_t *idx, size_t n,
                          const char *what)
{
    ck_assert_uint_eq(t->sample_stack.n, n);
    ck_assert(t->values_borrowed);
    ss_id sm = find_vt(o, "small_v"), bg = find_vt(o, "big_v"), nd = find_vt(o, "nodes"),
          dup = find_vt(o, "dup_count");
    for (size_t k = 0; k < n; k++) {
        /* the kept sample: its frames' functions and its values */
        ss_id ts = t->sample_stack.v[k], os = o->sample_stack.v[idx[k]];
        ck_assert_uint_eq(ss_stack_depth(t, ts), ss_stack_depth(o, os));
        for (size_t f = 0; f < ss_stack_depth(t, ts); f++)
            ck_assert_str_eq(ss_function_name(t, ss_loc_function(t, ss_stack_frames(t, ts)[f])),
                             ss_function_name(o, ss_loc_function(o, ss_stack_frames(o, os)[f])));
        for (size_t v = 0; v < o->values.n; v++)
            ck_assert_int_eq(ss_sample_value(t, v, k),
                             o->values.v[v] ? o->values.v[v][idx[k]] : v == SS_VT_COUNT);
    }
    const char *name = ss_model_measure_name(t);
    ck_assert_str_eq(name, ss_model_measure_name(o));
    for (size_t s = 0; s < t->sources.n; s++) {
        const struct ss_source *src = &t->sources.v[s];
        for (size_t k = src->first_sample; k < src->first_sample + src->n_samples; k++) {
            size_t r = idx[k];
            int64_t want = 1; /* time and samples: the count */
            if (!strcmp(name, "duplications")) {
                want = o->values.v[dup][r];
            } else if (!strcmp(name, "memory") || !strcmp(name, "released")) {
                /* against the sample recorded before it in o (kept or
                 * not), 0 for its session's first */
                want = 0;
                size_t os = 0;
                while (r >= o->sources.v[os].first_sample + o->sources.v[os].n_samples)
                    os++;
                if (r > o->sources.v[os].first_sample) {
                    size_t p = r - 1;
                    int64_t ds = o->values.v[sm][r] - o->values.v[sm][p],
                            db = o->values.v[bg][r] - o->values.v[bg][p],
                            dn = o->values.v[nd][r] - o->values.v[nd][p];
                    if (!strcmp(name, "memory"))
                        want = (ds > 0 ? 8 * ds : 0) + (db > 0 ? 8 * db : 0) + (dn > 0 ? dn : 0);
                    else
                        want = 8 * (ds + db) < 0 ? -8 * (ds + db) : 0;
                }
            }
            ck_assert_msg(ss_sample_weight(t, k) == want,
                          "%s, %s: sample %zu weighs %lld, not %lld", what, name, k,
                          (long long)ss_sample_weight(t, k), (long long)want);
        }
    }
}

START_TEST(test_shared_rows)
{
    struct ss_model o, t;
    struct ss_error err;
    FX_LOAD_OK(&o, mixed_prof);
    ck_assert_uint_eq(o.sample_stack.n, 8);
    /* step 1 removes samples 2 and 3 (from the middle of session 1), step 2
     * the fourth left (sample 6, the middle of session 2) */
    const char *cmds[] = {"drop-samples 2:3", "drop-samples 4:4"};
    static const size_t kept1[] = {0, 3, 4, 5, 6, 7}, kept2[] = {0, 3, 4, 6, 7};
    /* the lists the explorer applies: one step, two, undo, redo */
    static const size_t steps[] = {1, 2, 1, 2};
    struct ss_measure ms[16];
    size_t nm = ss_model_measures(&o, ms, 16);
    ck_assert_uint_eq(nm, 5); /* time, samples, memory, released, duplications */
    for (size_t a = 0; a < nm; a++) {
        char nma[64];
        snprintf(nma, sizeof nma, "%s", ss_measure_name(&o, &ms[a]));
        for (size_t st = 0; st < ARRAY_SIZE(steps); st++) {
            /* the measure chosen before: the transform weighs by it */
            ck_assert_int_eq(ss_model_set_measure(&o, nma, &err), 0);
            apply_texts(&o, cmds, steps[st], &t);
            const size_t *idx = steps[st] == 1 ? kept1 : kept2;
            size_t n = steps[st] == 1 ? ARRAY_SIZE(kept1) : ARRAY_SIZE(kept2);
            ck_assert_ptr_nonnull(t.value_rows);
            for (size_t k = 0; k < n; k++)
                ck_assert_uint_eq(t.value_rows[k], idx[k]);
            expect_shared(&o, &t, idx, n, "applied");
            /* V through every measure and back, as the explorer: the
             * original first, then the transformed profile from it */
            for (size_t b = 1; b <= nm; b++) {
                const char *nmb = ss_measure_name(&o, &ms[(a + b) % nm]);
                char buf[64];
                snprintf(buf, sizeof buf, "%s", nmb);
                ck_assert_int_eq(ss_model_set_measure(&o, buf, &err), 0);
                ck_assert_int_eq(ss_model_set_measure_from(&t, buf, &o, &err), 0);
                expect_shared(&o, &t, idx, n, "V");
                /* without the original's column (nor t's kept one): the
                 * same weights */
                ss_model_forget_derived(&t, NULL);
                ck_assert_int_eq(ss_model_set_measure(&t, buf, &err), 0);
                expect_shared(&o, &t, idx, n, "V alone");
            }
            ss_model_free(&t);
        }
    }
    ss_model_free(&o);
}
END_TEST

/* A kept sample keeps the bytes of its tick: memory and released per
 * function after a focus, a middle cut and a burn-in cut are the
 * original's per-sample values (against the sample recorded before, kept
 * or not; 0 for a session's first) summed over the kept samples.  By hand:
 *   sample  counters      leaf  stack   memory             released
 *   1       10:0:100      a     a       0 (first)          0
 *   2       12:1:110      f     f a     16 + 8 + 10 = 34   0
 *   3       15:1:100      b     b a     24                 0
 *   4       11:3:105      f     f a     16 + 5 = 21        8 x (4 - 2) = 16
 *   5       11:5:105      b     b       16                 0
 *   6       13:5:120      f     f       16 + 15 = 31       0
 *   7       50:0:0        f     f       0 (next session)   0
 *   8       40:1:0        b     b       8                  8 x (10 - 1) = 72 */
static const char kept_mem_prof[] = "memory profiling: sample.interval=20000\n"
                                    ":10:0:100:0:\"a\" \n"
                                    ":12:1:110:0:\"f\" \"a\" \n"
                                    ":15:1:100:0:\"b\" \"a\" \n"
                                    ":11:3:105:0:\"f\" \"a\" \n"
                                    ":11:5:105:0:\"b\" \n"
                                    ":13:5:120:0:\"f\" \n"
                                    "memory profiling: sample.interval=20000\n"
                                    ":50:0:0:0:\"f\" \n"
                                    ":40:1:0:0:\"b\" \n";

/* fn's self and total under t's measure (-1 when it has no row). */
static void fn_self_total(const struct ss_model *t, const char *fn, double *self, double *total)
{
    struct ss_stats st;
    struct ss_error err;
    ck_assert_int_eq(ss_stats_compute(t, SS_BY_FUNCTION, 0, &st, &err), 0);
    *self = *total = -1;
    for (size_t r = 0; r < st.n; r++)
        if (!strcmp(ss_function_name(t, st.rows[r].function), fn)) {
            *self = st.rows[r].self_v;
            *total = st.rows[r].total_v;
        }
    ss_stats_free(&st);
}

START_TEST(test_kept_sample_keeps_memory)
{
    static const struct {
        const char *cmd, *fn;
        double mem_self, mem_total, rel_self, rel_total;
    } cases[] = {
        /* focus f keeps 2, 4, 6, 7 */
        {"focus f", "f", 34 + 21 + 31 + 0, 34 + 21 + 31 + 0, 16, 16},
        /* a middle cut keeps 1, 2, 6, 7, 8 */
        {"drop-samples 3:5", "f", 34 + 31 + 0, 34 + 31 + 0, 0, 0},
        {"drop-samples 3:5", "a", 0, 0 + 34, 0, 0},
        {"drop-samples 3:5", "b", 8, 8, 72, 72},
        /* a burn-in cut keeps 3 .. 8: sample 3 keeps its 24 */
        {"drop-samples 1:2", "b", 24 + 16 + 8, 24 + 16 + 8, 72, 72},
        {"drop-samples 1:2", "a", 0, 24 + 21, 0, 16},
        {"drop-samples 1:2", "f", 21 + 31 + 0, 21 + 31 + 0, 16, 16},
    };
    struct ss_model o;
    struct ss_error err;
    FX_LOAD_OK(&o, kept_mem_prof);
    for (size_t c = 0; c < ARRAY_SIZE(cases); c++) {
        struct ss_model t;
        apply_texts(&o, &cases[c].cmd, 1, &t);
        for (int rel = 0; rel <= 1; rel++) {
            const char *ms = rel ? "released" : "memory";
            double want_self = rel ? cases[c].rel_self : cases[c].mem_self,
                   want_total = rel ? cases[c].rel_total : cases[c].mem_total;
            /* from the original's column (the explorer's V), then alone */
            for (int alone = 0; alone <= 1; alone++) {
                if (alone) {
                    ss_model_forget_derived(&t, NULL);
                    ck_assert_int_eq(ss_model_set_measure(&t, ms, &err), 0);
                } else {
                    ck_assert_int_eq(ss_model_set_measure(&o, ms, &err), 0);
                    ck_assert_int_eq(ss_model_set_measure_from(&t, ms, &o, &err), 0);
                }
                double self, total;
                fn_self_total(&t, cases[c].fn, &self, &total);
                /* a function the measure weighs 0 has no row (as pprof -top) */
                if (near(want_total, 0))
                    want_self = want_total = -1;
                ck_assert_msg(near(self, want_self) && near(total, want_total),
                              "%s, %s%s: %s self/total %g/%g, not %g/%g", cases[c].cmd, ms,
                              alone ? " alone" : "", cases[c].fn, self, total, want_self,
                              want_total);
            }
        }
        ss_model_free(&t);
    }
    ss_model_free(&o);
}
END_TEST

/* Counters too large for the integer passes (2^52 and more: measure.c's
 * SMALL_COUNTER) take the exact rule, in the original and in a transformed
 * profile alike: 8 x each increase, from the sample recorded before (kept
 * or not). */
static const char huge_prof[] = "memory profiling: sample.interval=20000\n"
                                ":10:0:0:0:\"f\" \n"
                                ":4503599627370496:0:0:0:\"f\" \n"
                                ":4503599627370497:0:0:0:\"g\" \n"
                                ":4503599627370499:0:0:0:\"f\" \n";

START_TEST(test_huge_counters)
{
    struct ss_model o, t;
    struct ss_error err;
    FX_LOAD_OK(&o, huge_prof);
    ck_assert_int_eq(ss_model_set_measure(&o, "memory", &err), 0);
    ck_assert_int_eq(ss_sample_weight(&o, 0), 0);
    ck_assert_int_eq(ss_sample_weight(&o, 1), 8 * (INT64_C(4503599627370496) - 10));
    ck_assert_int_eq(ss_sample_weight(&o, 2), 8);
    ck_assert_int_eq(ss_sample_weight(&o, 3), 16);
    /* sample 3 (g) removed: the last sample keeps its increase over it */
    const char *cmd = "drop-samples 3:3";
    apply_texts(&o, &cmd, 1, &t);
    ck_assert_ptr_nonnull(t.value_rows);
    ck_assert_int_eq(ss_sample_weight(&t, 1), 8 * (INT64_C(4503599627370496) - 10));
    ck_assert_int_eq(ss_sample_weight(&t, 2), 16);
    ck_assert_int_eq(ss_model_set_measure_from(&t, "released", &o, &err), 0);
    for (size_t k = 0; k < 3; k++)
        ck_assert_int_eq(ss_sample_weight(&t, k), 0);
    ss_model_free(&t);
    ss_model_free(&o);
}
END_TEST

Suite *transform_suite(void)
{
    Suite *s = suite_create("transform");
    TCase *tc = tcase_create("language");
    tcase_add_test(tc, test_canonical);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_script);
    tcase_add_test(tc, test_is_command);
    suite_add_tcase(s, tc);
    tc = tcase_create("commands");
    tcase_add_test(tc, test_trim_base);
    tcase_add_test(tc, test_trim_focus_drop);
    tcase_add_test(tc, test_merge_prune);
    tcase_add_test(tc, test_collapse_recursion);
    tcase_add_test(tc, test_replace);
    tcase_add_test(tc, test_replace_lines);
    tcase_add_test(tc, test_names_regex);
    tcase_add_test(tc, test_sample_ranges);
    tcase_add_test(tc, test_counted_samples);
    tcase_add_test(tc, test_memory_and_empty);
    tcase_add_test(tc, test_spare);
    tcase_add_test(tc, test_shared_rows);
    tcase_add_test(tc, test_huge_counters);
    tcase_add_test(tc, test_kept_sample_keeps_memory);
    tcase_add_test(tc, test_class);
    tcase_add_test(tc, test_mixed_profile);
    tcase_add_test(tc, test_label_filters);
    tcase_add_test(tc, test_label_root);
    tcase_add_test(tc, test_effects_per_side);
    suite_add_tcase(s, tc);
    tc = tcase_create("list");
    tcase_add_test(tc, test_undo_edit_equivalence);
    tcase_add_test(tc, test_undo_keeps_effects);
    tcase_add_test(tc, test_undo_label_root_effects);
    suite_add_tcase(s, tc);
    /* a few hundred lists over a dozen fixtures: about 0.3 s of CPU, more
     * on a loaded machine */
    tc = tcase_create("per-stack");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_per_stack_vs_per_sample);
    suite_add_tcase(s, tc);
    return s;
}
