#!/bin/sh
# Fuzz the loaders with libFuzzer (clang) for SECONDS (default 60), starting
# from the test fixtures.  A crash leaves its input in build-fuzz/ and exits
# non-zero.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
out=$top/build-fuzz
mkdir -p "$out/corpus"
cp "$top"/tests/data/rprof/*.out "$top"/tests/data/edge-cases/*.out "$top"/tests/data/sampling_prof/gem_test_profile.txt "$top"/tests/data/sampling_prof/ruby_workload.txt "$out/corpus/" 2>/dev/null || true
cd "$top"
printf '#define _GNU_SOURCE 1\n' >"$out/config.h"
srcs="src/error.c src/strtab.c src/model.c src/reader.c src/load.c src/load_rprof.c src/load_sampling.c src/stats.c"
# shellcheck disable=SC2086
clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -I"$out" -Isrc -include config.h \
    -o "$out/fuzz_load" tests/fuzz/fuzz_load.c $srcs -lm
cd "$out"
./fuzz_load -max_total_time="$secs" -max_len=65536 -rss_limit_mb=1024 -timeout=10 \
    -print_final_stats=1 corpus 2>fuzz.log || { tail -n 40 fuzz.log; exit 1; }
grep -E 'stat::number_of_executed_units' fuzz.log || true
echo "fuzz: no crash in $secs s"
