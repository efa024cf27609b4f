/* fuzz_transform.c - libFuzzer target: any bytes as a transform script,
 * applied to a small profile (two sessions, memory, lines, recursion, an
 * empty sample) and to a small perf profile with labels.  Checks, besides crashes, that every
 * step's canonical text parses back to itself, that the printed script reproduces the list, and
 * that undo and redo return to the same list.  Build and run with
 * scripts/fuzz.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_tmp.h"
#include "load.h"
#include "stats.h"
#include "transform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char profile[] = "memory profiling: line profiling: sample.interval=20000\n"
                              "#File 1: /w/a.R\n"
                              ":10:20:30:1:1#5 \"f\" 1#9 \"main\" 1#1 \n"
                              ":11:21:31:0:\"g\" 1#6 \"f\" 1#9 \"main\" 1#1 \n"
                              ":12:22:32:0:\n"
                              ":14:22:40:2:\"g\" \"g\" 1#6 \"f\" 1#9 \"main\" 1#1 \n"
                              ":15:25:41:0:\"a b\" 1#10 \"main\" 1#1 \n"
                              "memory profiling: line profiling: sample.interval=10000\n"
                              "#File 1: /w/b.R\n"
                              ":20:30:40:0:\"[\" \"lapply\" 1#3 \"k\" 1#2 \"main\" 1#1 \n"
                              ":21:30:44:0:\"g\" 1#4 \"k\" 1#2 \"main\" 1#1 \n"
                              ":22:31:48:1:\"main\" 1#1 \n";

/* A second profile with labels (perf script: comm, pid, tid), for the
 * label commands. */
static const char labelled[] = "gzip 10/11 [000] 1.000001: 1000 cpu-clock:\n"
                               "\t1 g (/bin/gzip)\n\t2 main (/bin/gzip)\n\n"
                               "my prog 20/21 [001] 1.000002: 2000 cpu-clock:\n"
                               "\t3 f (/bin/p)\n\t4 main (/bin/p)\n\n"
                               "gzip 10/12 [000] 1.000003: 1000 cpu-clock:\n"
                               "\t1 g (/bin/gzip)\n\t5 f (/bin/gzip)\n\t2 main (/bin/gzip)\n\n";

static void load_text(struct ss_model *m, const char *text, size_t len, const char *name)
{
    char path[600];
    snprintf(path, sizeof path, "%s/%s", fuzz_tmp("transform"), name);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    fwrite(text, 1, len, f);
    fclose(f);
    struct ss_error err;
    char *files[1] = {path};
    if (ss_load_files(m, files, 1, NULL, &err))
        abort();
    unlink(path);
}

static struct ss_model *model(int which)
{
    static struct ss_model m[2];
    static int loaded;
    if (!loaded) {
        load_text(&m[0], profile, sizeof profile - 1, "profile.out");
        load_text(&m[1], labelled, sizeof labelled - 1, "labelled.perf");
        loaded = 1;
    }
    return &m[which];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ss_model *m = model(0);
    struct ss_tf_list *l = ss_tf_list_new();
    struct ss_error err;
    if (!l)
        return 0;
    if (ss_tf_append_script(l, (const char *)data, size, "fuzz", &err)) {
        ss_tf_list_free(l);
        return 0;
    }
    for (size_t i = 0; i < ss_tf_count(l); i++)
        if (ss_tf_check(ss_tf_text(l, i), &err))
            abort(); /* a canonical text that does not parse */
    char *s1 = ss_tf_script(l);
    struct ss_tf_list *l2 = ss_tf_list_new();
    if (!s1 || !l2 || ss_tf_append_script(l2, s1, strlen(s1), "again", &err))
        abort();
    char *s2 = ss_tf_script(l2);
    if (!s2 || strcmp(s1, s2))
        abort(); /* the script does not reproduce the list */
    struct ss_model out;
    if (ss_tf_apply(l, model(1), &out, &err) == 0) {
        if (out.sample_stack.n > model(1)->sample_stack.n)
            abort();
        ss_model_free(&out);
    }
    if (ss_tf_apply(l, m, &out, &err) == 0) {
        struct ss_stats st;
        if (ss_stats_compute(&out, SS_BY_LINE, 1, &st, &err) == 0)
            ss_stats_free(&st);
        if (out.sample_stack.n > m->sample_stack.n)
            abort();
        ss_model_free(&out);
    }
    if (ss_tf_count(l) && (ss_tf_undo(l) != 1 || ss_tf_count(l) != 0 || ss_tf_redo(l) != 1))
        abort();
    char *s3 = ss_tf_script(l);
    if (!s3 || strcmp(s1, s3))
        abort(); /* undo + redo changed the list */
    free(s1);
    free(s2);
    free(s3);
    ss_tf_list_free(l);
    ss_tf_list_free(l2);
    return 0;
}
