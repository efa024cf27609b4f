#!/bin/sh
# Regenerate stackscope's bundled demo profile, data/demo.out.
#   data/make-demo.sh [REPS [SEED]]      (about 30 s of CPU with the defaults)
# Runs data/make-demo.R under Rscript (R >= 4.0), which profiles the workload
# data/demo/regression.R with memory and line profiling, then rewrites the
# "#File" paths to "demo/regression.R" (relative to data/) so the profile does
# not carry this machine's paths. Samples come from a CPU timer, so every run
# gives a slightly different profile even with the same seed.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
reps=${1:-150}
seed=${2:-20240607}
command -v Rscript >/dev/null 2>&1 || { echo "make-demo.sh: Rscript not found" >&2; exit 1; }

tmp=$(mktemp "${TMPDIR:-/tmp}/demo.XXXXXX")
trap 'rm -f "$tmp"' EXIT INT TERM
# Run from data/ and source the workload by its relative path.
(cd "$here" && LC_ALL=C Rscript --vanilla make-demo.R "$tmp" demo/regression.R "$reps" "$seed")

# "#File N: <anything>/regression.R" -> "#File N: demo/regression.R".
sed 's|^\(#File [0-9][0-9]*: \).*/\(regression\.R\)$|\1demo/\2|' "$tmp" >"$here/demo.out.new"
mv "$here/demo.out.new" "$here/demo.out"
lines=$(wc -l <"$here/demo.out")
bytes=$(wc -c <"$here/demo.out")
echo "wrote $here/demo.out: $lines lines, $bytes bytes"
grep '^#File' "$here/demo.out" || true
