#!/bin/sh
# Regenerate stackscope's bundled demo profile, data/demo.out.
#   data/make-demo.sh [REPS [SEED [WORKLOAD OUT]]]   (about 30 s of CPU by default)
# The "after" of the README's comparison, data/demo-after.out:
#   data/make-demo.sh 150 20240607 demo/regression-after.R demo-after.out
# Runs data/make-demo.R under Rscript (R >= 4.0), which profiles the workload
# data/demo/regression.R with memory and line profiling, then rewrites the
# "#File" paths to "demo/regression.R" (relative to data/) so the profile does
# not carry this machine's paths. Samples come from a CPU timer, so every run
# gives a slightly different profile even with the same seed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
reps=${1:-150}
seed=${2:-20240607}
workload=${3:-demo/regression.R}
out=${4:-demo.out}
command -v Rscript >/dev/null 2>&1 || { echo "make-demo.sh: Rscript not found" >&2; exit 1; }

tmp=$(mktemp "${TMPDIR:-/tmp}/demo.XXXXXX")
trap 'rm -f "$tmp"' EXIT INT TERM
# Run from data/ and source the workload by its relative path.
(cd "$here" && LC_ALL=C Rscript --vanilla make-demo.R "$tmp" "$workload" "$reps" "$seed")

# "#File N: <anything>/regression.R" -> "#File N: demo/regression.R".
sed 's|^\(#File [0-9][0-9]*: \).*/\(regression[a-z-]*\.R\)$|\1demo/\2|' "$tmp" >"$here/$out.new"
mv "$here/$out.new" "$here/$out"
lines=$(wc -l <"$here/$out")
bytes=$(wc -c <"$here/$out")
echo "wrote $here/$out: $lines lines, $bytes bytes"
grep '^#File' "$here/$out" || true
