#!/bin/sh
# Fuzz the loaders with libFuzzer (clang) for SECONDS (default 60) each,
# starting from the test fixtures: fuzz_load (any file: Rprof, folded) and
# fuzz_tables (a v2 tables directory with one table replaced by the input)
# and fuzz_transform (the input as a transform script applied to a profile).
# A crash leaves its input in build-fuzz/ and exits non-zero.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-60}
out=$top/build-fuzz
mkdir -p "$out/corpus"
cp "$top"/tests/data/rprof/*.out "$top"/tests/data/edge-cases/*.out "$top"/tests/data/sampling_prof/gem_test_profile.txt "$top"/tests/data/sampling_prof/ruby_workload.txt "$out/corpus/" 2>/dev/null || true
printf 'main;f;g 3\nmain;f 2\nmain;h h 1\n' >"$out/corpus/hand.folded"
# pprof: a few gzip files, and raw protobuf (mutations of which get past gzip's CRC)
for f in "$top"/tests/data/pprof/*/*.pb.gz; do
    [ "$(wc -c <"$f")" -le 65536 ] || continue
    cp "$f" "$out/corpus/"
    gzip -dc "$f" | head -c 65536 >"$out/corpus/$(basename "$f" .gz)"
done
mkdir -p "$out/corpus-tables"
printf '\006sample_id\tsource_id\tstack_id\n1\t1\t1\n' >"$out/corpus-tables/samples"
mkdir -p "$out/corpus-transform"
printf 'trim-base auto\ncollapse-recursion /./\ndrop-samples 1:5\n' >"$out/corpus-transform/1"
printf 'keep-samples -5:\nfocus /a|f/\nmerge "a b"\n# off: prune g\n' >"$out/corpus-transform/2"
printf 'replace main f => "n \\"x\\""\nclass /^g$/ => G\nkeep-samples 0.02s:90ms\n' >"$out/corpus-transform/3"
cd "$top"
printf '#define _GNU_SOURCE 1\n' >"$out/config.h"
mkdir -p "$out/proto"
protoc-c --c_out="$out/proto" --proto_path=proto proto/profile.proto
srcs="src/error.c src/textesc.c src/strtab.c src/model.c src/reader.c src/load.c src/load_rprof.c src/stats.c
      src/load_sampling.c src/load_folded.c src/load_tables.c src/write_rprof.c
      src/write_folded.c src/write_tables.c src/stacks.c src/levels.c src/transform.c
      src/transform_parse.c src/transform_apply.c
      src/load_pprof.c src/json.c src/load_cpuprofile.c src/load_speedscope.c src/load_gotext.c src/load_perf.c src/write_speedscope.c $out/proto/profile.pb-c.c"
for t in load tables transform; do
    # shellcheck disable=SC2086
    clang -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -I"$out" -I"$out/proto" -Isrc \
        -include config.h -o "$out/fuzz_$t" tests/fuzz/fuzz_$t.c $srcs -lprotobuf-c -lz -lm
done
cd "$out"
for t in load tables transform; do
    corpus=corpus
    [ $t = tables ] && corpus=corpus-tables
    [ $t = transform ] && corpus=corpus-transform
    ./fuzz_$t -max_total_time="$secs" -max_len=65536 -rss_limit_mb=1024 -timeout=10 \
        -print_final_stats=1 $corpus 2>fuzz_$t.log || { tail -n 40 fuzz_$t.log; exit 1; }
    grep -E 'stat::number_of_executed_units' fuzz_$t.log || true
    echo "fuzz_$t: no crash in $secs s"
done
