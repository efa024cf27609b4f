/* fuzz_format.h - the body of the targets of one input format (header-only,
 * included by tests/fuzz/fuzz_cpuprofile.c, fuzz_speedscope.c, fuzz_perf.c
 * and fuzz_gotext.c).
 *
 * The input is written to a file and read twice: by the format's own reader
 * (format.h's table entry, without detection, so that a mutation that makes
 * the file look like another format still reaches the reader's depths), and
 * through ss_load_files as the program reads any file (detection included).
 * What loads is sealed, given its default measure and run through the
 * statistics by function and by line, the distinct stacks and the folded
 * and speedscope writers (to /dev/null): what the commands do first with a
 * file. */
#ifndef FUZZ_FORMAT_H
#define FUZZ_FORMAT_H

#include <stdint.h>
#include <stdio.h>

#include "format.h"
#include "fuzz_tmp.h"
#include "load.h"
#include "stacks.h"
#include "stats.h"
#include "write.h"

static void fuzz_use(struct ss_model *m)
{
    struct ss_error err;
    for (int by = 0; by < 2; by++) {
        struct ss_stats st;
        if (ss_stats_compute(m, by ? SS_BY_LINE : SS_BY_FUNCTION, 1, &st, &err) == 0) {
            ss_stats_sort_self(&st);
            ss_stats_sort_line(&st);
            ss_stats_free(&st);
        }
    }
    struct ss_stacks sk;
    if (ss_stacks_compute(m, &sk, &err) == 0)
        ss_stacks_free(&sk);
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        static const enum ss_out_format out[] = {SS_OUT_FOLDED, SS_OUT_SPEEDSCOPE};
        for (size_t i = 0; i < sizeof out / sizeof *out; i++) {
            struct ss_write_opts o = {0};
            o.format = out[i];
            ss_write_stream(m, null, "/dev/null", &o, &err);
        }
        fclose(null);
    }
}

/* Read data[0..size) as format `id` with its reader, then as any file. */
static void fuzz_format(enum ss_out_format id, const char *name, const uint8_t *data, size_t size)
{
    static char path[600];
    if (!path[0])
        snprintf(path, sizeof path, "%s/in", fuzz_tmp(name));
    FILE *f = fopen(path, "wb");
    if (!f)
        return;
    fwrite(data, 1, size, f);
    fclose(f);
    struct ss_model m;
    struct ss_error err;
    const struct ss_format *fmt = ss_format_get(id);
    if (ss_model_init(&m, &err) == 0) {
        struct ss_reader r;
        int rc = ss_reader_open(&r, path, &err);
        if (rc == 0) {
            rc = fmt->load(&m, &r, path, &err);
            ss_reader_close(&r);
        }
        if (rc == 0) {
            ss_model_seal(&m);
            if (ss_model_set_measure(&m, NULL, &err) == 0)
                fuzz_use(&m);
        }
        ss_model_free(&m);
    }
    char *files[1] = {path};
    if (ss_load_files(&m, files, 1, NULL, &err) == 0) {
        fuzz_use(&m);
        ss_model_free(&m);
    }
}

#endif
