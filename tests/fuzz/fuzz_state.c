/* fuzz_state.c - libFuzzer target: the reader of the explorer's session
 * state file (state.h), and its writer.
 *
 * The input's bytes up to its first NUL name the input file of the session
 * (any bytes but '/', a line end too; none: "profile.out"); the rest is the
 * state file, written where ss_state_path puts it (XDG_STATE_HOME in a
 * private scratch directory).  ss_state_load must not crash, and must
 * resume or warn (the file exists, so never "no saved session").  When it
 * resumes a list, the list is saved for that input and loaded again: the
 * second list's script must be the first's (no name, however odd, adds or
 * changes a line).  Build and run with scripts/fuzz.sh; tests/fuzz/replay.c
 * replays the inputs kept in tests/data/fuzz/state/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_tmp.h"
#include "state.h"
#include "transform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input file's path from the input's first bytes; the rest in *rest. */
static void input_path(const uint8_t *data, size_t size, char *path, size_t cap, size_t *rest)
{
    const uint8_t *nul = memchr(data, '\0', size);
    size_t n = nul ? (size_t)(nul - data) : 0;
    *rest = nul ? n + 1 : 0;
    char name[201];
    size_t k = 0;
    for (size_t i = 0; i < n && k < sizeof name - 1; i++)
        name[k++] = data[i] == '/' ? '_' : (char)data[i];
    name[k] = '\0';
    snprintf(path, cap, "%s/%s", fuzz_tmp("state"), k ? name : "profile.out");
}

static struct ss_tf_list *load(char **files, int expect_list)
{
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_error err;
    char warn[1200];
    if (!l)
        return NULL;
    int rc = ss_state_load(files, 1, l, warn, sizeof warn, &err);
    if (rc == SS_EINPUT) {
        fprintf(stderr, "fuzz_state: %s\n", err.msg);
        abort(); /* the file is there */
    }
    if (rc || (expect_list && warn[0])) {
        if (expect_list) {
            fprintf(stderr, "fuzz_state: reading back: %s%s\n", rc ? err.msg : "", warn);
            abort();
        }
        ss_tf_list_free(l);
        return NULL;
    }
    if (warn[0]) {
        ss_tf_list_free(l);
        return NULL;
    }
    return l;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char state_home[600], path[900], file[1200];
    snprintf(state_home, sizeof state_home, "%s/state", fuzz_tmp("state"));
    setenv("XDG_STATE_HOME", state_home, 1);
    mkdir(state_home, 0700);
    size_t rest;
    input_path(data, size, path, sizeof path, &rest);
    char *files[1] = {path};
    struct ss_error err;
    if (ss_state_path(files, 1, file, sizeof file, &err))
        return 0; /* a name too long for a path */
    char dir[1200];
    snprintf(dir, sizeof dir, "%s/stackscope", state_home);
    mkdir(dir, 0700);
    FILE *f = fopen(file, "wb");
    if (!f)
        abort();
    fwrite(data + rest, 1, size - rest, f);
    fclose(f);
    struct ss_tf_list *l = load(files, 0);
    if (l && ss_tf_count(l)) {
        char *script = ss_tf_script(l), warn[1200];
        if (!script)
            abort();
        if (ss_state_save(files, 1, l, warn, sizeof warn, &err) || warn[0]) {
            fprintf(stderr, "fuzz_state: saving: %s%s\n", err.msg, warn);
            abort();
        }
        struct ss_tf_list *back = load(files, 1);
        char *again = back ? ss_tf_script(back) : NULL;
        if (!again || strcmp(script, again)) {
            fprintf(stderr, "fuzz_state: the list read back differs:\n%s---\n%s", script,
                    again ? again : "(none)\n");
            abort();
        }
        free(again);
        free(script);
        ss_tf_list_free(back);
    }
    ss_tf_list_free(l);
    unlink(file);
    return 0;
}
