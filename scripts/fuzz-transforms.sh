#!/bin/sh
# Fuzz the transform language and apply (tests/fuzz/fuzz_transform.c) with
# libFuzzer (clang) for SECONDS (default 60), starting from a few scripts.
# A crash leaves its input in build-fuzz/ and exits non-zero.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
out=$top/build-fuzz
mkdir -p "$out/tf-corpus"
printf 'trim-base auto\ncollapse-recursion /./\ndrop-samples 1:5\n' >"$out/tf-corpus/1"
printf 'keep-samples -5:\nfocus /a|f/\nmerge "a b"\n# off: prune g\n' >"$out/tf-corpus/2"
printf 'replace main f => "n \\"x\\""\nclass /^g$/ => G\nkeep-samples 0.02s:90ms\n' >"$out/tf-corpus/3"
printf 'trim-to k\nprune /\\//\ndrop /^<GC>$/\ntrim-base auto=0.5\n' >"$out/tf-corpus/4"
cd "$top"
printf '#define _GNU_SOURCE 1\n' >"$out/config.h"
srcs="src/error.c src/strtab.c src/model.c src/reader.c src/load.c src/load_rprof.c
      src/load_sampling.c src/stats.c src/levels.c src/transform.c src/transform_parse.c
      src/transform_apply.c"
# shellcheck disable=SC2086
clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -I"$out" -Isrc -include config.h \
    -o "$out/fuzz_transform" tests/fuzz/fuzz_transform.c $srcs -lm
cd "$out"
./fuzz_transform -max_total_time="$secs" -max_len=4096 -rss_limit_mb=1024 -timeout=10 \
    -print_final_stats=1 tf-corpus 2>fuzz-transform.log || { tail -n 40 fuzz-transform.log; exit 1; }
grep -E 'stat::number_of_executed_units' fuzz-transform.log || true
echo "fuzz-transforms: no crash in $secs s"
