#!/usr/bin/env bash
# bench/follow.sh [--samples N] [--piece BYTES]
#
# Measures following a file while it is written (issue 36's targets: ingest
# at least 1M samples a second while following; after an hour at 1 kHz,
# 3.6M samples, a peak RSS of at most 300 MB).  For each of three real
# profiles resampled to N samples (default 3600000, made by gen-big.sh into
# bench/out/ when missing: bench/data/memory_line.out, memory + line
# profiling, data/demo.out in its own order, ORDER=kept, and
# bench/data/plain_fast.out, plain samples), a writer
# appends the file in pieces of BYTES (default 4 MiB, each ending in the
# middle of a line) as fast as dd writes them, while the explorer follows
# it headless from its first byte (<Sleep> until the writer is done, then
# :follow now).  The explorer's timing file gives each refresh's wall and
# CPU time and the samples it read.
#
# Per file it prints the samples and bytes, the refreshes, the samples read
# per second of the refreshes' CPU (reading, weighing, applying the list and
# drawing: the ingest rate; the target is 1M/s), the slowest refresh, how
# long the writer took and how long after its last byte the last sample was
# shown (the explorer keeps up when that is within the refresh period),
# and the peak RSS (GNU time).  It builds nothing: it runs ./stackscope at the
# repository root, or $STACKSCOPE.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
outdir=$here/out
n=3600000
piece=$((4 << 20))
while [ $# -gt 0 ]; do
    case $1 in
    --samples) n=$2; shift ;;
    --piece) piece=$2; shift ;;
    -h | --help) sed -n '2,22s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "follow.sh: unknown argument: $1" >&2; exit 2 ;;
    esac
    shift
done
STACKSCOPE=${STACKSCOPE:-$root/stackscope}
[ -x "$STACKSCOPE" ] || { echo "follow.sh: no program at $STACKSCOPE" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "follow.sh: needs GNU time" >&2; exit 1; }
mkdir -p "$outdir"
work=$(mktemp -d "${TMPDIR:-/tmp}/ss-follow.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# make NAME SOURCE [ORDER]: bench/out/NAME, N samples resampled from SOURCE.
make_input() {
    local out=$outdir/$1
    if ! [ -s "$out" ] || [ "$out" -ot "$here/gen-big.sh" ]; then
        echo "follow.sh: making $out ($n samples)" >&2
        ORDER=${3:-} "$here/gen-big.sh" "$n" "$out" "$2" 1 || exit 1
    fi
    echo "$out"
}

printf '%-24s %9s %6s %9s %13s %7s %8s %6s %7s\n' file samples MB refreshes "samples/cpu-s" "max ms" \
    "writer s" "lag s" "RSS MB"
for spec in "ml-follow-$n.out:$here/data/memory_line.out:" "demo-follow-$n.out:$root/data/demo.out:kept" \
    "plain-follow-$n.out:$here/data/plain_fast.out:"; do
    IFS=: read -r name src order <<<"$spec"
    input=$(make_input "$name" "$src" "$order")
    size=$(stat -c %s "$input")
    f=$work/followed.out
    : >"$f"
    rm -f "$work/done"
    t0=$(date +%s.%N)
    (
        at=0
        while [ "$at" -lt "$size" ]; do
            len=$((size - at < piece ? size - at : piece))
            [ $((at + len)) -lt "$size" ] && len=$((len - 13))
            tail -c +"$((at + 1))" "$input" | head -c "$len" >>"$f"
            at=$((at + len))
        done
        date +%s.%N >"$work/done"
    ) &
    writer=$!
    # sleep until the writer is done (a script cannot wait on a file: long
    # enough for a writer at 100 MB/s, then :follow now reads what is left)
    secs=$(awk -v s="$size" 'BEGIN { printf "%d", s / 100e6 * 1000 + 3000 }')
    printf '<Sleep %d>\n:follow now\n:q!\n' "$secs" >"$work/keys"
    STACKSCOPE_SCRIPT=$work/keys STACKSCOPE_UI_TIMING=$work/timing \
        /usr/bin/time -f '%M' -o "$work/rss" "$STACKSCOPE" --follow "$f" >/dev/null 2>"$work/err" </dev/null
    wait "$writer"
    [ -e "$work/done" ] || echo "follow.sh: the writer was not done before the explorer ended" >&2
    awk -F '\t' -v name="$name" -v size="$size" -v t0="$t0" -v rss="$(cat "$work/rss")" \
        -v wend="$(cat "$work/done" 2>/dev/null || echo 0)" '
        /\(follow: / { s = $3; sub(/.*\(follow: /, "", s); split(s, f, " ")
            cpu += $2; k++; if ($1 > max) max = $1; last = f[1]
            w = $3; sub(/.* shown at /, "", w); sub(/\).*/, "", w); if (f[3] + 0 > 0) end = w }
        END { printf "%-24s %9d %6.0f %9d %13.0f %7.0f %8.1f %6.2f %7.0f\n", name, last, size / 1e6, k,
              (cpu > 0 ? last / (cpu / 1e3) : 0), max, wend - t0, end - wend, rss / 1024 }' "$work/timing"
done
