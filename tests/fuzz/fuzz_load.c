/* fuzz_load.c - libFuzzer target: any bytes through the loader and the
 * statistics.  The loader reads files, so each input is written to a
 * temporary file first.  Build and run with scripts/fuzz.sh. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "fuzz_tmp.h"
#include "load.h"
#include "stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char path[600];
    if (!path[0])
        snprintf(path, sizeof path, "%s/in", fuzz_tmp("load"));
    FILE *f = fopen(path, "wb");
    if (!f)
        return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    struct ss_model m;
    struct ss_error err;
    char *files[1] = {path};
    if (ss_load_files(&m, files, 1, NULL, &err) == 0) {
        for (int by = 0; by < 2; by++) {
            struct ss_stats st;
            if (ss_stats_compute(&m, by ? SS_BY_LINE : SS_BY_FUNCTION, 1, &st, &err) == 0) {
                ss_stats_sort_self(&st);
                ss_stats_sort_line(&st);
                ss_stats_free(&st);
            }
        }
        ss_model_free(&m);
    }
    return 0;
}
