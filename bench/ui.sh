#!/usr/bin/env bash
# bench/ui.sh [--quick] [--reps N] [--10m [FILE]] [--100m [FILE]] [--input FILE]...
#             [--pair BASE NEW]... [--no-pair]
#
# Measures the explorer against the UI targets (HACKING.md, Targets) on the
# 1M-sample benchmark files (the ones bench/run.sh makes; see
# bench/README.md): the first screen within 2 s of starting, and every key,
# including one that re-applies the transform list and redraws, within
# 100 ms.  The explorer runs headless (STACKSCOPE_SCRIPT) on an 80x24
# virtual screen; it writes the wall and CPU time of every key, from the key
# to the screen painted, to STACKSCOPE_UI_TIMING.
#
#   --quick    100k-sample files instead of 1M
#   --reps N   runs per file; the report gives each key's median (default 3)
#   --10m [FILE]  also run on a 10M-sample memory + line file: FILE, or
#              bench/out/ml10m.out, generated when missing (about 3 GB and
#              a minute or more); its peak RSS is reported too (GNU time);
#              and compare demob10m.out with demo10m.out (the demo in its
#              time order, 10M samples, seeds 2 and 1: 2.3 GB each)
#   --100m [FILE]  also run on a 100M-sample memory + line file: FILE, or
#              bench/out/demo100m.out, generated when missing (the demo
#              run of data/demo-after.out in its order, ten times, 10M
#              samples each with seeds 1-10: about 20 GB, 15 minutes)
#   --input FILE  run on FILE instead of the generated files (repeatable;
#              --10m's and --100m's files are added after them)
#   --pair BASE NEW  also run the comparison session on `--base BASE NEW`
#              (repeatable); by default bigb.out against big.out of the
#              same size (seed 2 against seed 1), unless --input or
#              --no-pair is given
#
# It builds nothing: it runs ./stackscope at the repository root, or
# $STACKSCOPE.  The table goes to standard output, per-key numbers to
# bench/out/ui-<file>.tsv (a comparison: ui-<base>-<new>.tsv).  Exit status
# 0 when everything ran (targets met or not), 1 when a run failed, 2 on bad
# usage.
set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
outdir=$here/out
quick=0
reps=3
ten=0 tenfile=
hundred=0 hundredfile=
inputs=()
pairs=()
nopair=0
while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1 ;;
    --reps)
        [ $# -ge 2 ] || { echo "ui.sh: --reps needs a value" >&2; exit 2; }
        reps=$2
        shift
        ;;
    --10m)
        ten=1
        case ${2-} in '' | -*) ;; *) tenfile=$2; shift ;; esac
        ;;
    --100m)
        hundred=1
        case ${2-} in '' | -*) ;; *) hundredfile=$2; shift ;; esac
        ;;
    --pair)
        [ $# -ge 3 ] || { echo "ui.sh: --pair needs two files" >&2; exit 2; }
        [ -r "$2" ] && [ -r "$3" ] || { echo "ui.sh: cannot read $2 or $3" >&2; exit 2; }
        pairs+=("$2" "$3")
        shift 2
        ;;
    --no-pair) nopair=1 ;;
    --input)
        [ $# -ge 2 ] || { echo "ui.sh: --input needs a file" >&2; exit 2; }
        [ -r "$2" ] || { echo "ui.sh: cannot read $2" >&2; exit 2; }
        inputs+=("$2")
        shift
        ;;
    -h | --help)
        sed -n '2,36s/^# \{0,1\}//p' "$0"
        exit 0
        ;;
    *)
        echo "ui.sh: unknown argument: $1" >&2
        exit 2
        ;;
    esac
    shift
done
case $reps in '' | *[!0-9]* | 0) echo "ui.sh: --reps needs a positive integer" >&2; exit 2 ;; esac

bin=${STACKSCOPE:-$root/stackscope}
[ -x "$bin" ] || { echo "ui.sh: no stackscope at $bin; build it first" >&2; exit 2; }
mkdir -p "$outdir" || exit 2
tmpd=$(mktemp -d "${TMPDIR:-/tmp}/stackscope-uibench.XXXXXX") || exit 2
# the explorer keeps each session's transform list under $XDG_STATE_HOME
export XDG_STATE_HOME=$tmpd/state
trap 'rm -rf "$tmpd"' EXIT

if [ $quick = 1 ]; then n=100000 tag=100k; else n=1000000 tag=1m; fi
make_input() { # OUT SOURCE [COUNT [SEED [ORDER]]]
    local out=$1 src=$2 count=${3:-$n} seed=${4:-1} order=${5:-random}
    if [ -s "$out" ] && [ "$out" -nt "$here/gen-big.sh" ] && [ "$out" -nt "$src" ]; then
        return 0
    fi
    echo "ui.sh: generating $(basename "$out")" >&2
    ORDER=$order "$here/gen-big.sh" "$count" "$out" "$src" "$seed" || exit 1
}
# OUT: ten runs of 10M samples of data/demo-after.out in its order (seeds
# 1-10), one after the other in one session: the header and #File lines once
make_100m() {
    local out=$1 src=$root/data/demo-after.out seed
    if [ -s "$out" ] && [ "$out" -nt "$here/gen-big.sh" ] && [ "$out" -nt "$src" ]; then
        return 0
    fi
    echo "ui.sh: generating $(basename "$out") (about 15 minutes)" >&2
    : >"$out.tmp" || exit 1
    for seed in 1 2 3 4 5 6 7 8 9 10; do
        ORDER=kept "$here/gen-big.sh" 10000000 - "$src" "$seed" |
            awk -v first=$((seed == 1)) 'first || (FNR > 1 && !/^#File /)' >>"$out.tmp" || exit 1
    done
    mv "$out.tmp" "$out" || exit 1
}
files=("${inputs[@]}")
if [ ${#inputs[@]} = 0 ]; then
    make_input "$outdir/big$tag.out" "$here/data/plain_fast.out"
    make_input "$outdir/ml$tag.out" "$here/data/memory_line.out"
    files=("$outdir/big$tag.out" "$outdir/ml$tag.out")
    if [ $nopair = 0 ]; then
        make_input "$outdir/bigb$tag.out" "$here/data/plain_fast.out" "$n" 2
        pairs+=("$outdir/bigb$tag.out" "$outdir/big$tag.out")
    fi
fi
if [ $ten = 1 ]; then
    if [ -z "$tenfile" ]; then
        tenfile=$outdir/ml10m.out
        make_input "$tenfile" "$here/data/memory_line.out" 10000000
    fi
    [ -r "$tenfile" ] || { echo "ui.sh: cannot read $tenfile" >&2; exit 2; }
    files+=("$tenfile")
    if [ $nopair = 0 ]; then
        make_input "$outdir/demo10m.out" "$root/data/demo.out" 10000000 1 kept
        make_input "$outdir/demob10m.out" "$root/data/demo.out" 10000000 2 kept
        pairs+=("$outdir/demob10m.out" "$outdir/demo10m.out")
    fi
fi
if [ $hundred = 1 ]; then
    if [ -z "$hundredfile" ]; then
        hundredfile=$outdir/demo100m.out
        make_100m "$hundredfile"
    fi
    [ -r "$hundredfile" ] || { echo "ui.sh: cannot read $hundredfile" >&2; exit 2; }
    files+=("$hundredfile")
fi
gnutime=
[ -x /usr/bin/time ] && gnutime=/usr/bin/time

# The session: every view, moving, sorting, searching, zooming, and
# transforms typed, made by keys, undone and redone (each re-applies the
# list to the 1M samples and redraws), measures switched with V and :value
# (issue 11: within 100 ms) in the functions, lines and tree views; the
# phases (issue 29): the timeline's v and K (keep-phase), the phases view,
# its Enter (the timeline zoomed to a phase) and K anywhere (keep-phase
# main), each undone; then the
# flame graph (HACKING.md, Targets: its first draw and every key within 100 ms):
# moving, zooming, searching, the order, inverted and time order toggled
# (zooming into the time-ordered chart and out: each rebuilds it for the
# zoom), and the sandwich.
cat >"$tmpd/keys" <<'EOF'
jjjjj
G
g
s
s
s
s
s
2
<Enter>
3
*
4
5
6
+
+
-
z
>
7
8
9
0
T
?
q
1
:trim-base auto
u
U
6
>v
K
u
O
<Enter>
O
K
u
7
B
1
d
u
u
u
/vapply<Enter>
n
V
V
V
9
V
3
V
V
1
:value time
:drop-samples 1:1000
:focus vapply
u
u
F
j
j
l
<Enter>
/vapply<Enter>
q
s
i
i
o
l
<Enter>
q
o
W
k
EOF

printf ':q\n' >"$tmpd/quit"

# The comparison session (stackscope(1), COMPARING): each view with its
# deltas and verdicts (functions sorted, stacks, both trees, callers and
# callees, lines, the flame graph's frames tested and a zoom), the measure
# switched, a transform applied to both sides and undone, the sides swapped
# and back, and the verdicts' alpha changed (each redraw tests again).
cat >"$tmpd/cmpkeys" <<'EOF'
s
s
s
2
3
4
5
9
F
j
<Enter>
q
1
V
V
d
u
X
X
:alpha 0.01
j
j
EOF

# The code pane (HACKING.md, Targets: it opens within 50 ms at 1M samples), on
# files with line data, their sources found with --source-path: `a` from the
# functions view (the line statistics, with memory for a memory profile,
# the top function's line, the file read, the pane's numbers), the hot
# lines stepped through, back, the lines view and Enter on its first row.
printf 'a\n]\n]\n[\n' >"$tmpd/pane.a"
printf '9\n<Enter>\n' >"$tmpd/pane.enter"
srcdir=$root/tests/data/rprof/src
now_us() { echo "${EPOCHREALTIME/[.,]/}"; }
# The per-key medians of the runs $tmpd/t.* into bench/out/ui-NAME.tsv and
# the table's row: summarize NAME SAMPLES PANE (start and RSS from
# $tmpd/wall.* and $tmpd/rss.*).
summarize() {
    local name=$1 n=$2 pane=$3 start rss
    # per key (by position in the session): the median over the runs; the
    # redraws of work done in the background ("(run lengths shown ...)",
    # "(verdicts shown ...)", "(deferred ...)") come at other positions in
    # each run: they are left out, so that each row is one key
    local f
    for f in "$tmpd"/t.*; do
        grep -v "$(printf '\t')(" "$f" >"$f.keys" && mv "$f.keys" "$f"
    done
    paste "$tmpd"/t.* | awk -F '\t' -v reps="$reps" '
        { n = 0; for (i = 0; i < reps; i++) { w[i] = $(3 * i + 1); c[i] = $(3 * i + 2) }
          # sort the walls and CPUs (reps is small)
          for (i = 0; i < reps; i++) for (j = i + 1; j < reps; j++) {
              if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
              if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t } }
          printf "%.1f\t%.1f\t%s\n", w[int(reps / 2)], c[int(reps / 2)], $3 }' >"$outdir/ui-$name.tsv"
    start=$(cat "$tmpd"/wall.* | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f", v[int((NR + 1) / 2)] / 1000 }')
    rss=-
    [ -n "$gnutime" ] && rss=$(cat "$tmpd"/rss.* | sort -n | awk '{ v[NR] = $1 } END { printf "%.0f", v[int((NR + 1) / 2)] / 1024 }')
    rm -f "$tmpd"/wall.* "$tmpd"/t.* "$tmpd"/rss.*
    awk -F '\t' -v name="$name" -v n="$n" -v start="$start" -v rss="$rss" -v pane="$pane" '
        NR == 1 { first = $1; next }
        { k++; v[k] = $1; if ($1 > max) { max = $1; worst = $3 }; if ($1 > 100) slow++ }
        END {
            for (i = 1; i <= k; i++) for (j = i + 1; j <= k; j++) if (v[j] < v[i]) { t = v[i]; v[i] = v[j]; v[j] = t }
            printf "%-18s %10d %10s %12.1f %10.1f %10.1f %8d %9s %15s %s\n", name, n, start, first, max, v[int((k + 1) / 2)], slow, rss, pane, worst
        }' "$outdir/ui-$name.tsv"
}

# runs ARG... (the explorer's arguments) with the session $tmpd/$session:
# $tmpd/wall.R (start to first screen), $tmpd/t.R and $tmpd/rss.R for each
# run R; 1 when a run failed (its error on standard error)
runs() {
    local r t0 t1
    for ((r = 1; r <= reps; r++)); do
        # start to first screen: a session that quits at once
        t0=$(now_us)
        if ! STACKSCOPE_SCRIPT="$tmpd/quit" LC_ALL=C.UTF-8 "$bin" "$@" >/dev/null 2>"$tmpd/err"; then
            echo "ui.sh: $* failed: $(head -n 3 "$tmpd/err")" >&2
            return 1
        fi
        t1=$(now_us)
        echo $(((t1 - t0) / 1000)) >"$tmpd/wall.$r"
        # the whole session, its peak RSS measured by GNU time when there is one
        if ! STACKSCOPE_SCRIPT="$tmpd/$session" STACKSCOPE_UI_TIMING="$tmpd/t.$r" LC_ALL=C.UTF-8 \
            ${gnutime:+$gnutime -f %M -o "$tmpd/rss.$r"} "$bin" "$@" >/dev/null 2>"$tmpd/err"; then
            echo "ui.sh: $* failed: $(head -n 3 "$tmpd/err")" >&2
            return 1
        fi
    done
}

failed=0
printf '%-18s %10s %10s %12s %10s %10s %8s %9s %15s %s\n' file samples "start (s)" "first (ms)" "max key" "median" ">100ms" "RSS (MB)" "pane (ms)" "worst key"
for f in "${files[@]}"; do
    name=$(basename "$f" .out)
    cat "$f" >/dev/null
    # samples: the lines that are not a header or a #File line
    n=$(grep -vc -e '^#File' -e 'sample\.interval=' "$f")
    session=keys
    if ! runs "$f"; then
        failed=1
        continue
    fi
    # the code pane, on a profile with line data
    pane=-
    if head -n 1 "$f" | grep -q 'line profiling'; then
        pane=
        for how in a enter; do
            for ((r = 1; r <= reps; r++)); do
                STACKSCOPE_SCRIPT="$tmpd/pane.$how" STACKSCOPE_UI_TIMING="$tmpd/p.$r" \
                    LC_ALL=C.UTF-8 "$bin" --source-path "$srcdir" "$f" >/dev/null 2>&1 || failed=1
            done
            # the median wall and CPU ms of the key that opens the pane: `a`
            # (row 2), Enter on the lines view (row 3)
            pane=$pane${pane:+ }$(paste "$tmpd"/p.* | awk -F '\t' -v reps="$reps" -v row=$([ $how = a ] && echo 2 || echo 3) '
                NR == row { for (i = 0; i < reps; i++) { w[i] = $(3 * i + 1); c[i] = $(3 * i + 2) }
                    for (i = 0; i < reps; i++) for (j = i + 1; j < reps; j++) {
                        if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
                        if (c[j] < c[i]) { t = c[i]; c[i] = c[j]; c[j] = t } }
                    printf "%.0f(%.0f)", w[int(reps / 2)], c[int(reps / 2)] }')
            rm -f "$tmpd"/p.*
        done
        pane=${pane// //}
    fi
    summarize "$name" "$n" "$pane"
done
# the comparison session on each pair: `--base BASE NEW`
session=cmpkeys
for ((p = 0; p < ${#pairs[@]}; p += 2)); do
    b=${pairs[p]} f=${pairs[p + 1]}
    name=$(basename "$b" .out)-$(basename "$f" .out)
    cat "$b" "$f" >/dev/null
    n=$(grep -vc -e '^#File' -e 'sample\.interval=' "$f")
    if ! runs --base "$b" "$f"; then
        failed=1
        continue
    fi
    summarize "$name" "$n" -
done
cat <<EOF

start: wall seconds from starting the process to its exit when it quits at
  once (loading, the first screen, quitting), median of $reps runs; target 2 s.
first: the first screen after loading; max, median: over the session's
  $(grep -c . "$tmpd/keys") keys and commands (wall ms, median of $reps runs); >100ms: keys over
  the 100 ms target; RSS: the session's peak resident memory (median).
pane: the code pane opened with a from the functions view / with Enter
  from the lines view, each in a fresh session: wall ms (the key loop's
  CPU ms), medians; target 50 ms; on files with line data, their sources
  under tests/data/rprof/src (--source-path).
  BASE-NEW rows: the comparison session ($(grep -c . "$tmpd/cmpkeys") keys) on --base BASE NEW,
  its verdicts included: every view tested, the sides swapped, alpha changed.
  bench/out/ui-*.tsv has every key (wall, CPU, key); the redraws of work
  done in the background (run lengths, phases, verdicts) are left out.
EOF
exit $failed
