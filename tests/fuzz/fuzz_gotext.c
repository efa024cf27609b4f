/* fuzz_gotext.c - libFuzzer target: Go's legacy text profiles, recognised
 * and refused (load_gotext.c), and what detection makes of them: a file that
 * looks like one must not be read as folded stacks. The input is read by the
 * format's reader and as any file (tests/fuzz/fuzz_format.h). Seeds:
 * tests/data/producers/gotext/, small real files of the producers. Build and
 * run with scripts/fuzz.sh; tests/fuzz/replay.c replays the inputs kept in
 * tests/data/fuzz/gotext/. */
#include <stdint.h>

#include "fuzz_format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_format(SS_OUT_GO_TEXT, "gotext", data, size);
    return 0;
}
