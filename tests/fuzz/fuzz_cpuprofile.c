/* fuzz_cpuprofile.c - libFuzzer target: Chrome/Node .cpuprofile JSON
 * (load_cpuprofile.c, json.c). The input is read by the format's reader and
 * as any file (tests/fuzz/fuzz_format.h). Seeds:
 * tests/data/producers/cpuprofile/, small real files of the producers. Build
 * and run with scripts/fuzz.sh; tests/fuzz/replay.c replays the inputs kept
 * in tests/data/fuzz/cpuprofile/. */
#include <stdint.h>

#include "fuzz_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_format(SS_OUT_CPUPROFILE, "cpuprofile", data, size);
    return 0;
}
