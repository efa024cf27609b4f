#!/bin/sh
# Fuzz the loaders with libFuzzer (clang) for SECONDS (default 60), starting
# from the test fixtures.  A crash leaves its input in build-fuzz/ and exits
# non-zero.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
out=$top/build-fuzz
mkdir -p "$out/corpus"
cp "$top"/tests/data/rprof/*.out "$top"/tests/data/edge-cases/*.out "$out/corpus/" 2>/dev/null || true
# pprof: a few gzip files, and raw protobuf (mutations of which get past gzip's CRC)
for f in "$top"/tests/data/pprof/*/*.pb.gz; do
    [ "$(wc -c <"$f")" -le 65536 ] || continue
    cp "$f" "$out/corpus/"
    gzip -dc "$f" | head -c 65536 >"$out/corpus/$(basename "$f" .gz)"
done
cd "$top"
printf '#define _GNU_SOURCE 1\n' >"$out/config.h"
mkdir -p "$out/proto"
protoc-c --c_out="$out/proto" --proto_path=proto proto/profile.proto
srcs="src/error.c src/strtab.c src/model.c src/reader.c src/load.c src/load_rprof.c src/stats.c
      src/load_pprof.c $out/proto/profile.pb-c.c"
# shellcheck disable=SC2086
clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -I"$out" -I"$out/proto" -Isrc \
    -include config.h -o "$out/fuzz_load" tests/fuzz/fuzz_load.c $srcs -lprotobuf-c -lz -lm
cd "$out"
./fuzz_load -max_total_time="$secs" -max_len=65536 -rss_limit_mb=1024 -timeout=10 \
    -print_final_stats=1 corpus 2>fuzz.log || { tail -n 40 fuzz.log; exit 1; }
grep -E 'stat::number_of_executed_units' fuzz.log || true
echo "fuzz: no crash in $secs s"
