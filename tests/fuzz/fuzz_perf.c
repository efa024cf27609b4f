/* fuzz_perf.c - libFuzzer target: `perf script` text (load_perf.c). The
 * input is read by the format's reader and as any file
 * (tests/fuzz/fuzz_format.h). Seeds: tests/data/producers/perf/, small real
 * files of the producers. Build and run with scripts/fuzz.sh;
 * tests/fuzz/replay.c replays the inputs kept in tests/data/fuzz/perf/. */
#include <stdint.h>

#include "fuzz_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_format(SS_OUT_PERF_SCRIPT, "perf", data, size);
    return 0;
}
