#!/bin/sh
# bench/rpkg.sh [--quick]
#
# The R package's summary_rprof() against utils::summaryRprof() inside one R
# process (bench/rpkg.R), on the 1M-sample files run.sh uses (made by
# gen-big.sh into bench/out/ when missing; --quick: 100k samples).  Installs
# r/ into a temporary library; runs the program at $STACKSCOPE (default
# build/stackscope).  Prints one row per file and mode: R's and the
# package's wall and CPU seconds (the CPU of the program included), their
# ratios, and whether the values are all.equal.  RPKG_CASES="2 4" runs only
# those rows (1: plain, 2: memory + line, 3: its memory = "both", 4: its
# lines = "show").
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
n=1000000
tag=1m
if [ "${1:-}" = --quick ]; then
    n=100000
    tag=100k
fi
out=$here/out
mkdir -p "$out"
[ -s "$out/big$tag.out" ] || sh "$here/gen-big.sh" "$n" "$out/big$tag.out"
[ -s "$out/ml$tag.out" ] || sh "$here/gen-big.sh" "$n" "$out/ml$tag.out" "$here/data/memory_line.out"
lib=$(mktemp -d)
trap 'rm -rf "$lib"' EXIT INT TERM
R CMD INSTALL --no-test-load -l "$lib" "$top/r" >"$lib/install.log" 2>&1 ||
    { cat "$lib/install.log"; exit 1; }
STACKSCOPE=${STACKSCOPE:-$top/build/stackscope} R_LIBS="$lib" \
    Rscript "$here/rpkg.R" "$out/big$tag.out" "$out/ml$tag.out"
