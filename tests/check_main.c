/* check_main.c - runs every Check suite; shared fixture helpers.
 *
 * Exit status 0 only when every test passed (CK_NORMAL prints Check's
 * "N%: Checks: X, Failures: Y, Errors: Z" line).  Run one suite or test with
 * Check's own CK_RUN_SUITE / CK_RUN_CASE environment variables; CK_FORK=no
 * runs in one process (for valgrind or a debugger).
 */
#include "check_suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"

void fx_write(char *path, size_t n, const char *data, size_t len)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    int k = snprintf(path, n, "%s/ss_check_XXXXXX", dir);
    ck_assert_msg(k > 0 && (size_t)k < n, "temp path too long");
    int fd = mkstemp(path);
    ck_assert_msg(fd >= 0, "mkstemp(%s) failed", path);
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w <= 0) {
            close(fd);
            unlink(path);
            ck_abort_msg("cannot write %s", path);
        }
        done += (size_t)w;
    }
    ck_assert_int_eq(close(fd), 0);
}

int fx_load(struct ss_model *m, struct ss_error *err, const char *data, size_t len, char *path,
            size_t n)
{
    fx_write(path, n, data, len);
    ss_error_clear(err);
    char *paths[1] = {path};
    int rc = ss_load_files(m, paths, 1, NULL, err);
    unlink(path);
    return rc;
}

ss_id fx_source(struct ss_model *m, const char *type, const char *uri, uint32_t session,
                double interval_us, uint32_t flags)
{
    struct ss_source src;
    memset(&src, 0, sizeof src);
    src.type = ss_model_intern_cstr(m, type);
    src.uri = ss_model_intern_cstr(m, uri);
    src.session = session;
    src.interval_us = interval_us;
    src.flags = flags;
    ss_id id = ss_model_add_source(m, &src);
    ck_assert_uint_ne(id, SS_NONE);
    return id;
}

const char *fx_loc_name(const struct ss_model *m, ss_id loc)
{
    ss_id fn = m->locations.v[loc].function;
    return fn == SS_NONE ? "" : ss_str(m, m->functions.v[fn].name);
}

const char *fx_loc_file(const struct ss_model *m, ss_id loc)
{
    ss_id f = m->locations.v[loc].file;
    return f == SS_NONE ? NULL : ss_str(m, f);
}

static void append(char *buf, size_t n, size_t *at, const char *s)
{
    int k = snprintf(buf + *at, n - *at, "%s", s);
    if (k > 0)
        *at = *at + (size_t)k < n ? *at + (size_t)k : n - 1;
}

static void pos_text(const struct ss_model *m, ss_id loc, char *buf, size_t n)
{
    const struct ss_location *l = &m->locations.v[loc];
    if (l->line == 0 && l->file == SS_NONE)
        buf[0] = '\0';
    else
        snprintf(buf, n, "%s#%u", l->file == SS_NONE ? "NA" : ss_str(m, l->file), l->line);
}

void fx_stack_text(const struct ss_model *m, ss_id stack, char *buf, size_t n)
{
    size_t at = 0;
    char pos[1024];
    buf[0] = '\0';
    size_t depth = ss_stack_depth(m, stack);
    const ss_id *fr = ss_stack_frames(m, stack);
    for (size_t k = 0; k < depth; k++) {
        if (k)
            append(buf, n, &at, " | ");
        append(buf, n, &at, fx_loc_name(m, fr[k]));
        pos_text(m, fr[k], pos, sizeof pos);
        if (pos[0]) {
            append(buf, n, &at, "@");
            append(buf, n, &at, pos);
        }
    }
    ss_id tail = m->stack_tail.v[stack];
    if (tail != SS_NONE) {
        pos_text(m, tail, pos, sizeof pos);
        append(buf, n, &at, depth ? " + " : "+ ");
        append(buf, n, &at, pos);
    }
}

int main(void)
{
    SRunner *sr = srunner_create(strtab_suite());
    srunner_add_suite(sr, sort_suite());
    srunner_add_suite(sr, hashtab_suite());
    srunner_add_suite(sr, model_suite());
    srunner_add_suite(sr, reader_suite());
    srunner_add_suite(sr, rprof_suite());
    srunner_add_suite(sr, stats_suite());
    srunner_add_suite(sr, tree_suite());
    srunner_add_suite(sr, flame_suite());
    srunner_add_suite(sr, runs_suite());
    srunner_add_suite(sr, timeline_suite());
    srunner_add_suite(sr, phases_suite());
    srunner_add_suite(sr, transform_suite());
    srunner_add_suite(sr, match_suite());
    srunner_add_suite(sr, sampling_suite());
    srunner_add_suite(sr, formats_suite());
    srunner_add_suite(sr, pprof_suite());
    srunner_add_suite(sr, textesc_suite());
    srunner_add_suite(sr, compare_suite());
    srunner_add_suite(sr, source_suite());
    srunner_add_suite(sr, verdict_suite());
    srunner_add_suite(sr, tail_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
