#!/bin/sh
# bench/transforms.sh [--quick] [--reps N]
#
# Times re-applying a 10-step transform list (bench/transforms.tf) and
# recomputing the function table on the 1M-sample benchmark files (100k with
# --quick), with bench/tf_bench (built here with `make bench/tf_bench` when
# missing).  Target (HACKING.md, Targets): within 100 ms.  A report, not a
# test: exit 0 when everything ran.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
n=1000000
tag=1m
reps=10
while [ $# -gt 0 ]; do
    case $1 in
    --quick) n=100000 tag=100k ;;
    --reps) reps=$2; shift ;;
    *) echo "usage: $0 [--quick] [--reps N]" >&2; exit 2 ;;
    esac
    shift
done
bench=$root/bench/tf_bench
if [ ! -x "$bench" ]; then
    make -C "$root" bench/tf_bench >/dev/null || { echo "transforms.sh: cannot build bench/tf_bench" >&2; exit 2; }
fi
mkdir -p "$here/out"
for f in "big$tag:plain_fast" "ml$tag:memory_line"; do
    out=$here/out/${f%%:*}.out
    src=$here/data/${f#*:}.out
    if [ ! -s "$out" ] || [ "$here/gen-big.sh" -nt "$out" ] || [ "$src" -nt "$out" ]; then
        echo "transforms.sh: generating $(basename "$out")" >&2
        "$here/gen-big.sh" "$n" "$out" "$src" 1
    fi
    echo "== $(basename "$out"): $(grep -c '^[^#]' "$here/transforms.tf") steps, $reps runs"
    "$bench" "$out" "$here/transforms.tf" "$reps"
done
