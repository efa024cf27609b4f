/* fuzz_tables.c - libFuzzer target for the v2 tables reader (and, on what
 * loads, the writers).  A tables directory is several files, so the input's
 * first byte picks one table of a small valid directory and the rest of the
 * input replaces that file; labels.tsv is always the valid one below.  What loads is written as
 * Rprof (unless its counts add up to more than MAX_RPROF_LINES lines) and folded to /dev/null.
 * Build and run with scripts/fuzz.sh; tests/fuzz/replay.c replays the inputs
 * kept in tests/data/fuzz/tables/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_tmp.h"
#include "load.h"
#include "stats.h"
#include "write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const files[][2] = {
    {"meta.tsv", "key\tvalue\tsource_id\nversion\t2.0\t\\N\nnote\ta\\tb\t1\n"},
    {"sources.tsv", "source_id\ttype\turi\tsession\theader_line\ttimestamp\tinterval_us\tflags\n"
                    "1\trprof\tx.out\t1\t1\t0\t20000\tmemory+line\n"
                    "2\tfolded\ty.folded\t1\t0\t0\t1000000\t-\n"},
    {"value_types.tsv", "type\tunit\nsamples\tcount\nsmall_v\tcells\nbig_v\tcells\n"
                        "nodes\tbytes\ndup_count\tcount\n"},
    {"functions.tsv", "function_id\tname\tsystem_name\tfilename\tstart_line\tclass\n"
                      "1\tf\tf\t\\N\t0\t\\N\n2\tmain\tmain\t\\N\t0\tapp\n"},
    {"locations.tsv", "location_id\tfunction_id\tfile\tline\n1\t1\ta.R\t3\n2\t2\ta.R\t7\n"
                      "3\t\\N\ta.R\t9\n4\t2\t\\N\t0\n"},
    {"stacks.tsv", "stack_id\tdepth\tlocation_id\n1\t1\t1\n1\t2\t2\n1\t3\t3\n2\t0\t\\N\n"
                   "3\t1\t4\n"},
    {"samples.tsv", "sample_id\tsource_id\tstack_id\n1\t1\t1\n2\t1\t2\n3\t2\t3\n"},
    {"sample_values.tsv", "sample_id\ttype\tvalue\n1\tsamples\t1\n1\tsmall_v\t10\n"
                          "2\tsmall_v\t12\n2\tnodes\t300\n3\tsamples\t7\n"},
};
#define NFILES (sizeof files / sizeof *files)
static const char labels_tsv[] = "sample_id\tkey\tstr\tnum\tunit\n1\tworker\ta b\t\\N\t\\N\n"
                                 "1\tbytes\t\\N\t1024\tbytes\n3\tworker\tc\t\\N\t\\N\n";

static void put(const char *dir, const char *name, const void *p, size_t n)
{
    char path[700];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(p, 1, n, f);
        fclose(f);
    }
}

/* The Rprof writer writes a sample of count k as k lines: a count of 10^9
 * in a table is 10^9 lines, which takes minutes (and is not a bug). */
#define MAX_RPROF_LINES 100000

/* The lines the Rprof writer would write: the sum of the counts, or
 * UINT64_MAX when a count is negative (the writer refuses those). */
static uint64_t rprof_lines(const struct ss_model *m)
{
    uint64_t n = 0;
    for (size_t i = 0; i < m->sample_stack.n; i++) {
        int64_t c = ss_sample_count(m, i);
        if (c < 0 || __builtin_add_overflow(n, (uint64_t)c, &n))
            return UINT64_MAX;
    }
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *dir = fuzz_tmp("tables");
    size_t pick = size ? data[0] % NFILES : 0;
    for (size_t i = 0; i < NFILES; i++) {
        if (i == pick && size)
            put(dir, files[i][0], data + 1, size - 1);
        else
            put(dir, files[i][0], files[i][1], strlen(files[i][1]));
    }
    /* Labels ride along with every input (not one of the tables the first
     * byte picks, so the kept inputs still pick what they did). */
    put(dir, "labels.tsv", labels_tsv, strlen(labels_tsv));
    struct ss_model m;
    struct ss_error err;
    char *paths[1] = {fuzz_tmp_path};
    if (ss_load_files(&m, paths, 1, NULL, &err) == 0) {
        struct ss_stats st;
        if (ss_stats_compute(&m, SS_BY_FUNCTION, 1, &st, &err) == 0)
            ss_stats_free(&st);
        FILE *null = fopen("/dev/null", "wb");
        if (null) {
            if (rprof_lines(&m) <= MAX_RPROF_LINES)
                ss_write_rprof(&m, null, "null", &err);
            ss_write_folded(&m, null, "null", &err);
            fclose(null);
        }
        ss_model_free(&m);
    }
    return 0;
}
