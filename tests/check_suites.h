/* check_suites.h - the Check unit-test suites and their shared helpers.
 *
 * Every expected number in these tests was computed by hand from the tiny
 * fixture next to it (the comments show the arithmetic); none was copied from
 * the program's output.  Fixtures are strings written to a temporary file
 * (mkstemp in $TMPDIR) and loaded through the public loader API, so the tests
 * exercise exactly what `stackscope` runs.
 */
#ifndef CHECK_SUITES_H
#define CHECK_SUITES_H

#include <check.h>
#include <stddef.h>

#include "error.h"
#include "model.h"
#include "num.h"

/* X == Y exactly, for doubles that must come out bit-exact (an interval, a
 * sum of exact values).  Check's ck_assert_double_eq compares with == inside
 * its macro, which clang's -Wfloat-equal reports; this says it on purpose. */
#define ck_assert_double_exact(X, Y)                                                               \
    do {                                                                                           \
        double ck_x_ = (X), ck_y_ = (Y);                                                           \
        ck_assert_msg(ss_double_eq(ck_x_, ck_y_), "Assertion '%s == %s' failed: %.17g != %.17g",   \
                      #X, #Y, ck_x_, ck_y_);                                                       \
    } while (0)

Suite *strtab_suite(void);
Suite *sort_suite(void);
Suite *hashtab_suite(void);
Suite *model_suite(void);
Suite *reader_suite(void);
Suite *rprof_suite(void);
Suite *stats_suite(void);
Suite *tree_suite(void);
Suite *flame_suite(void);
Suite *runs_suite(void);
Suite *timeline_suite(void);
Suite *phases_suite(void);
Suite *transform_suite(void);
Suite *match_suite(void);
Suite *sampling_suite(void);
Suite *formats_suite(void);
Suite *pprof_suite(void);
Suite *textesc_suite(void);
Suite *compare_suite(void);
Suite *source_suite(void);
Suite *verdict_suite(void);
Suite *tail_suite(void);

/* Write `len` bytes to a fresh temporary file; its path goes to path[0..n).
 * Fails the current test when the file cannot be written. */
void fx_write(char *path, size_t n, const char *data, size_t len);

/* Write `len` bytes to a temporary file, ss_load_files() it into m and remove
 * the file.  Returns ss_load_files()'s code; on success the caller owns m
 * (ss_model_free), on failure m is already freed.  The path stays in
 * path[0..n) so tests can check error messages. */
int fx_load(struct ss_model *m, struct ss_error *err, const char *data, size_t len, char *path,
            size_t n);

/* fx_load of a string literal (embedded NUL bytes allowed). */
#define FX_LOAD(m, err, lit, path) fx_load((m), (err), (lit), sizeof(lit) - 1, (path), sizeof(path))

/* fx_load of a literal that must load: fails the test with the error message
 * otherwise. */
#define FX_LOAD_OK(m, lit)                                                                         \
    do {                                                                                           \
        struct ss_error fx_err_;                                                                   \
        char fx_path_[4096];                                                                       \
        int fx_rc_ = FX_LOAD((m), &fx_err_, lit, fx_path_);                                        \
        ck_assert_msg(fx_rc_ == 0, "load failed: %s", fx_err_.msg);                                \
    } while (0)

/* Add a source to the model being built by hand (type and uri as strings,
 * the other fields 0); fails the test when it cannot.  Returns its id. */
ss_id fx_source(struct ss_model *m, const char *type, const char *uri, uint32_t session,
                double interval_us, uint32_t flags);

/* Name of the function of location `loc` ("" for a position-only location). */
const char *fx_loc_name(const struct ss_model *m, ss_id loc);

/* Path of location `loc`'s file, or NULL when it has none. */
const char *fx_loc_file(const struct ss_model *m, ss_id loc);

/* A stack as text, innermost first: `name@file#line` per frame ("name" alone
 * without a position, "NA" for no file), separated by " | ", then "+ file#line"
 * for a tail position.  Written into buf[0..n). */
void fx_stack_text(const struct ss_model *m, ss_id stack, char *buf, size_t n);

#endif
