#!/usr/bin/env bash
# bench/run.sh [--quick] [--no-r] [--reps N] [--10m] [--big-dir DIR]
#
# Measures stackscope against the performance targets on big resampled Rprof
# files (see bench/README.md). It builds nothing: it runs ./stackscope at the
# repository root, or $STACKSCOPE.
#
#   --quick    100k-sample files instead of 1M
#   --no-r     skip R's summaryRprof (about 15-30 s per 1M-sample file)
#   --reps N   timed repetitions per command, median reported (default 5)
#   --10m      also a 10M-sample memory + line file (3 GB; made once in
#              bench/out, about a minute; never with R), and a 10M-sample
#              file that keeps the demo's phases (2.3 GB, gen-big.sh
#              ORDER=kept) for report --by phases and tf_bench's phases
#   --big-dir DIR  take ml10m.out from DIR instead of making it
#
# Each load's time is also given in ns a sample, wall and CPU (user +
# system, all threads), beside x_wc: on the resampled plain (big) and
# memory + line (ml) files, on real profiles in time order (realb: many
# sessions of mixed headers) and on short lines (short: plain, about 20
# bytes a line).
#
# The report goes to standard output, progress to standard error, and a copy
# of the measurements to bench/out/results.tsv. Exit status: 0 when every
# command ran, even if targets are missed; 1 if a command failed; 2 on bad
# usage or a missing tool.

set -u

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
outdir=$here/out

quick=0
use_r=1
reps=5
ten=0
bigdir=

usage() {
    sed -n '2,26s/^# \{0,1\}//p' "$0" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
    --quick) quick=1 ;;
    --no-r) use_r=0 ;;
    --reps)
        [ $# -ge 2 ] || usage
        reps=$2
        shift
        ;;
    --reps=*) reps=${1#--reps=} ;;
    --10m) ten=1 ;;
    --big-dir)
        [ $# -ge 2 ] || usage
        bigdir=$2
        ten=1
        shift
        ;;
    -h | --help) usage ;;
    *)
        echo "run.sh: unknown argument: $1" >&2
        usage
        ;;
    esac
    shift
done
case $reps in '' | *[!0-9]* | 0) echo "run.sh: --reps needs a positive integer" >&2; exit 2 ;; esac

die() {
    echo "run.sh: $*" >&2
    exit 2
}
note() { echo "run.sh: $*" >&2; }

bin=${STACKSCOPE:-$root/stackscope}
[ -x "$bin" ] || die "no stackscope binary at $bin; build it first (autoreconf -fi && ./configure && make) or set STACKSCOPE"

gtime=/usr/bin/time
"$gtime" -f '%e %M' -o /dev/null true 2> /dev/null ||
    die "GNU time is needed at $gtime (Debian: apt-get install time)"
if [ $use_r = 1 ]; then
    command -v Rscript > /dev/null || die "Rscript not found (use --no-r to skip R)"
fi

mkdir -p "$outdir" || die "cannot create $outdir"
rm -f "$outdir/phases10m.txt" # written again by --10m
tmpd=$(mktemp -d "${TMPDIR:-/tmp}/stackscope-bench.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$tmpd"' EXIT
trap 'exit 130' INT TERM

# --- input files (made once, cached in bench/out/) ---------------------------

if [ $quick = 1 ]; then
    nsamples=100000
    tag=100k
else
    nsamples=1000000
    tag=1m
fi
plain=$outdir/big$tag.out
ml=$outdir/ml$tag.out

# make OUT SOURCE [SEED]: (re)generate when missing or older than its inputs.
make_input() {
    local out=$1 src=$2 seed=${3:-1}
    if [ -s "$out" ] && [ "$out" -nt "$here/gen-big.sh" ] && [ "$out" -nt "$src" ]; then
        return 0
    fi
    note "generating $(basename "$out") ($nsamples samples from $(basename "$src"))"
    "$here/gen-big.sh" "$nsamples" "$out" "$src" "$seed" || die "gen-big.sh failed for $out"
}
make_input "$plain" "$here/data/plain_fast.out"
make_input "$ml" "$here/data/memory_line.out"
# a second plain profile (another seed): the new side of a comparison
plainb=$outdir/bigb$tag.out
make_input "$plainb" "$here/data/plain_fast.out" 2

# A pair in real time order: real R profiles, each whole and in order (one
# session each), repeated to $nsamples samples: the demo (deep stacks, memory
# and lines), plain_fast.out, memory_line.out, then runs 1-4 (base) or 5-8
# (new) of tests/data/verdicts (about 4,500 shallow samples each).
# runs_input OUT FILE...
runs_input() {
    local out=$1 have=0 f
    shift
    [ -s "$out" ] && [ "$out" -nt "$0" ] && return 0
    note "generating $(basename "$out") (real profiles in order, to $nsamples samples)"
    : >"$out.tmp"
    while [ "$have" -lt "$nsamples" ]; do
        for f in "$@"; do
            gzip -dcf "$f" >>"$out.tmp" || die "cannot read $f"
            have=$((have + $(gzip -dcf "$f" | grep -vc '^[a-z :]*sample\.interval=\|^#')))
        done
    done
    mv "$out.tmp" "$out"
}
realb=$outdir/realb$tag.out
realn=$outdir/realn$tag.out
reals=("$root/data/demo.out" "$here/data/plain_fast.out" "$here/data/memory_line.out")
runs_input "$realb" "${reals[@]}" "$root"/tests/data/verdicts/same[1-4].out.gz
runs_input "$realn" "${reals[@]}" "$root"/tests/data/verdicts/same[5-8].out.gz
# short lines: the 8 runs of tests/data/verdicts alone (plain, 14-60 bytes a
# line, in time order), repeated
short=$outdir/short$tag.out
runs_input "$short" "$root"/tests/data/verdicts/same[1-8].out.gz

# --- measuring ---------------------------------------------------------------

failed=0

# now_us: microseconds since the epoch (bash 5 EPOCHREALTIME).
now_us() {
    local t=${EPOCHREALTIME/[.,]/}
    echo "$t"
}

# median of the numbers given as arguments
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 }
        END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# cpu_delta FILE0 FILE1: the CPU seconds (user + system) of the children
# waited for between the two outputs of bash's `times` (its second line):
# every thread of the command, 1 ms resolution
cpu_delta() {
    awk 'FNR == 2 { split($0, f, /[ms ]+/); c[++k] = 60 * f[1] + f[2] + 60 * f[3] + f[4] }
        END { printf "%.3f", c[2] - c[1] }' "$1" "$2"
}

# measure N CMD...: runs CMD N times (stdout to /dev/null) under GNU time and
# sets WALL (median wall seconds, from the shell clock, 1 ms resolution),
# CPU (median CPU seconds, user + system, all threads: cpu_delta) and RSS
# (median peak RSS in MB = 10^6 bytes, from %M). Returns 1 on failure.
measure() {
    local n=$1 i t0 t1 e m
    shift
    local walls=() rsss=() cpus=()
    for ((i = 0; i < n; i++)); do
        t0=$(now_us)
        times >"$tmpd/cpu0" # the shell's builtin: no child of its own
        if ! "$gtime" -f '%e %M' -o "$tmpd/time" "$@" > /dev/null 2> "$tmpd/err"; then
            note "FAILED: $*"
            sed 's/^/    /' "$tmpd/err" "$tmpd/time" >&2
            return 1
        fi
        times >"$tmpd/cpu1"
        t1=$(now_us)
        read -r e m < <(tail -n 1 "$tmpd/time")
        walls+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')")
        cpus+=("$(cpu_delta "$tmpd/cpu0" "$tmpd/cpu1")")
        rsss+=("$(awk -v k="$m" 'BEGIN { printf "%.1f", k * 1024 / 1e6 }')")
    done
    WALL=$(median "${walls[@]}")
    CPU=$(median "${cpus[@]}")
    RSS=$(median "${rsss[@]}")
    return 0
}

# Rows: file, size_MB, command, wall_s, rss_MB, cpu_s (wall "FAILED" on
# failure, cpu "-").
rows=()
add_row() { rows+=("$1"$'\t'"$2"$'\t'"$3"$'\t'"$4"$'\t'"$5"$'\t'"${6:--}"); }

size_mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f", b / 1e6 }'; }

# note_samples FILE: record FILE's samples (its lines but headers and #File
# lines) and bytes a line in $tmpd/samples, for the table's ns a sample
note_samples() {
    local name n
    name=$(basename "$1")
    grep -q "^$name	" "$tmpd/samples" 2>/dev/null && return 0
    n=$(grep -vc '^[a-z :]*sample\.interval=\|^#' "$1")
    printf '%s\t%s\t%s\n' "$name" "$n" "$(stat -c %s "$1")" >>"$tmpd/samples"
}

# bench_file FILE STACKSCOPE-ARGS...: each extra argument is one stackscope
# argument list (a string, split on spaces), e.g. "report --by self".
bench_file() {
    local f=$1 name size args slug
    shift
    name=$(basename "$f")
    size=$(size_mb "$f")
    case $name in *.out) note_samples "$f" ;; esac
    cat "$f" > /dev/null # warm the page cache

    note "$name: wc -l x$reps"
    if measure "$reps" wc -l "$f"; then
        add_row "$name" "$size" "wc -l" "$WALL" "$RSS" "$CPU"
    else
        add_row "$name" "$size" "wc -l" FAILED -
        failed=1
    fi

    for args in "$@"; do
        # One untimed run keeps its output for a sanity check and warms up.
        slug=${args// /_}
        note "$name: stackscope $args (1 untimed + x$reps)"
        # shellcheck disable=SC2086 # args is a word list on purpose
        if ! "$bin" $args "$f" > "$outdir/${name%.out}.$slug.txt" 2> "$tmpd/err"; then
            note "FAILED: $bin $args $f"
            sed 's/^/    /' "$tmpd/err" >&2
            add_row "$name" "$size" "stackscope $args" FAILED -
            failed=1
            continue
        fi
        if [ ! -s "$outdir/${name%.out}.$slug.txt" ]; then
            note "warning: stackscope $args $name printed nothing"
        fi
        # shellcheck disable=SC2086
        if measure "$reps" "$bin" $args "$f"; then
            add_row "$name" "$size" "stackscope $args" "$WALL" "$RSS" "$CPU"
        else
            add_row "$name" "$size" "stackscope $args" FAILED -
            failed=1
        fi
    done

    if [ $use_r = 1 ]; then
        note "$name: R summaryRprof x1 (slow)"
        if measure 1 Rscript -e 'invisible(utils::summaryRprof(commandArgs(TRUE)[1]))' "$f"; then
            add_row "$name" "$size" "R summaryRprof" "$WALL" "$RSS" "$CPU"
        else
            add_row "$name" "$size" "R summaryRprof" FAILED -
            failed=1
        fi
    fi
}

# bench_threads1 FILE: report --by self with the single-threaded loader
# (STACKSCOPE_THREADS=1), beside the parallel one.
bench_threads1() {
    local f=$1
    note "$(basename "$f"): report --by self, 1 thread x$reps"
    if measure "$reps" env STACKSCOPE_THREADS=1 "$bin" report --by self "$f"; then
        add_row "$(basename "$f")" "$(size_mb "$f")" "stackscope report --by self (1 thread)" "$WALL" "$RSS" "$CPU"
    else
        add_row "$(basename "$f")" "$(size_mb "$f")" "stackscope report --by self (1 thread)" FAILED -
        failed=1
    fi
}

bench_file "$plain" "report --by self"
bench_threads1 "$plain"
# --by sources is load + a few lines of output: the baseline that the
# analyses (issue 4: each within 0.5 s after load) are measured against.
bench_file "$ml" "report --by self" "report --by line" "report --by self --memory" \
    "report --by self --value memory" "report --by line --value memory" \
    "report --by sources" "report --by stacks" "report --by levels" "report --by runs" \
    "report --by tree" "report --by calls --function paste" "report --by timeline" \
    "report --by phases"
bench_threads1 "$ml"
# many sessions of mixed headers, in time order (issue 35's slow shape), and
# short lines
for f in "$realb" "$short"; do
    bench_file "$f" "report --by self"
    bench_threads1 "$f"
done

# --- a comparison and its verdicts (HACKING.md, Targets; issue 28) ------------
# report --base of two 1M-sample profiles with the verdicts and without them
# (STACKSCOPE_NO_VERDICTS): what they cost.  The resampled files have no time
# order left: nearly every sample starts and ends runs, the verdicts' worst
# case; the real runs keep theirs.
for pair in "$plain $plainb" "$realb $realn"; do
    read -r pb pn <<<"$pair"
    for by in self tree; do
        note "$(basename "$pb") vs $(basename "$pn"): report --base --by $by x$reps"
        for nv in 1 0; do
            label="stackscope report --base --by $by"
            envs=(-u STACKSCOPE_NO_VERDICTS)
            if [ $nv = 1 ]; then
                label="$label (no verdicts)"
                envs=(STACKSCOPE_NO_VERDICTS=1)
            fi
            if measure "$reps" env "${envs[@]}" "$bin" report --by $by --base "$pb" "$pn"; then
                add_row "$(basename "$pn")" "$(size_mb "$pn")" "$label" "$WALL" "$RSS" "$CPU"
            else
                add_row "$(basename "$pn")" "$(size_mb "$pn")" "$label" FAILED -
                failed=1
            fi
        done
    done
done

# --- 10M samples (issue 15) ----------------------------------------------------
if [ $ten = 1 ]; then
    ml10=${bigdir:-$outdir}/ml10m.out
    if [ -n "$bigdir" ]; then
        [ -s "$ml10" ] || die "no $ml10 (make it with bench/gen-big.sh 10000000 ...)"
    elif ! { [ -s "$ml10" ] && [ "$ml10" -nt "$here/gen-big.sh" ]; }; then
        note "generating ml10m.out (10M samples from memory_line.out, 3 GB, about a minute)"
        "$here/gen-big.sh" 10000000 "$ml10" "$here/data/memory_line.out" 1 ||
            die "gen-big.sh failed for $ml10"
    fi
    keep_r=$use_r
    use_r=0 # summaryRprof would take minutes
    bench_file "$ml10" "report --by self" "report --by line"
    bench_threads1 "$ml10"
    # the phases (issue 29: within 300 ms at 10M samples): the demo's burn-in,
    # main work and fade-out stretched to 10M samples
    demo10=${bigdir:-$outdir}/demo10m.out
    if ! { [ -s "$demo10" ] && [ "$demo10" -nt "$here/gen-big.sh" ]; }; then
        note "generating demo10m.out (10M samples in the demo's time order, 2.3 GB)"
        ORDER=kept "$here/gen-big.sh" 10000000 "$demo10" "$root/data/demo.out" 1 ||
            die "gen-big.sh failed for $demo10"
    fi
    bench_file "$demo10" "report --by sources" "report --by phases"
    if [ -x "$root/bench/tf_bench" ] || make -C "$root" bench/tf_bench > /dev/null 2>&1; then
        note "demo10m.out: tf_bench (keep-phase main; phases of the result), 5 runs"
        "$root/bench/tf_bench" "$demo10" "$here/phases.tf" 5 > "$outdir/phases10m.txt" ||
            failed=1
    fi
    use_r=$keep_r
fi

# --- pprof (issues 3 and 35) -------------------------------------------------
# Each 1M-sample Rprof file is converted to pprof (written to bench/out, as a
# user would: temp file, fsync, rename) and back (pprof -> pprof, and
# pprof -> Rprof once the Rprof writer exists); then load + report of the
# pprof file beside Go's `pprof -top` on the same file (built offline by
# scripts/build-pprof.sh into bench/out/pprof-tool; one run, it is slow).

gopprof=
if gopprof=$(sh "$root/scripts/build-pprof.sh" "$outdir/pprof-tool" 2> "$tmpd/build-pprof"); then
    :
else
    note "no Go pprof ($(tail -n 1 "$tmpd/build-pprof")): its column is skipped"
    gopprof=
fi

# bench_cmd FILE LABEL N CMD...: time CMD (N runs) as a row for FILE.
bench_cmd() {
    local f=$1 label=$2 n=$3
    shift 3
    note "$(basename "$f"): $label x$n"
    if measure "$n" "$@"; then
        add_row "$(basename "$f")" "$(size_mb "$f")" "$label" "$WALL" "$RSS" "$CPU"
    else
        add_row "$(basename "$f")" "$(size_mb "$f")" "$label" FAILED -
        failed=1
    fi
}

for f in "$plain" "$ml"; do
    pb=${f%.out}.pb.gz
    bench_cmd "$f" "stackscope convert -o X.pb.gz" "$reps" "$bin" convert --force -o "$pb" "$f"
    [ -s "$pb" ] || continue
    cat "$pb" > /dev/null
    bench_cmd "$pb" "stackscope report --by self" "$reps" "$bin" report --by self "$pb"
    bench_cmd "$pb" "stackscope convert -o X.pb.gz" "$reps" "$bin" convert --force -o "${pb%.pb.gz}.back.pb.gz" "$pb"
    if "$bin" convert --force -o "${pb%.pb.gz}.back.out" "$pb" 2> /dev/null; then
        bench_cmd "$pb" "stackscope convert -o X.out" "$reps" "$bin" convert --force -o "${pb%.pb.gz}.back.out" "$pb"
    else
        note "pprof -> Rprof: not available yet (the Rprof writer)"
    fi
    if [ -n "$gopprof" ]; then
        bench_cmd "$pb" "go pprof -top" 1 env HOME="$tmpd" TZ=UTC "$gopprof" -top -symbolize=none "$pb"
    fi
done

# --- report ------------------------------------------------------------------

{
    printf 'file\tsize_MB\tcommand\twall_s\trss_MB\tcpu_s\n'
    printf '%s\n' "${rows[@]}"
} > "$outdir/results.tsv"

echo "stackscope benchmark: $(basename "$bin"), $nsamples samples per file," \
    "median of $reps runs (R: 1 run), $(nproc) CPUs, $(date -u +%Y-%m-%dT%H:%MZ)"
echo
touch "$tmpd/samples"
printf '%s\n' "${rows[@]}" | awk -F '\t' -v OFS='\t' -v sfile="$tmpd/samples" '
    function num(x) { return x ~ /^[0-9.]+$/ }
    # the samples of a file (a pprof file: those of the Rprof file it was made from)
    function nsmp(name) { sub(/\.(back\.)?pb\.gz$/, ".out", name); return (name in smp) ? smp[name] : 0 }
    BEGIN {
        while ((getline l < sfile) > 0) {
            split(l, fld, "\t")
            smp[fld[1]] = fld[2]
            ord[++nf] = fld[1]
            bpl[fld[1]] = fld[2] > 0 ? fld[3] / fld[2] : 0
        }
    }
    { file[NR] = $1; size[NR] = $2; cmd[NR] = $3; wall[NR] = $4; rss[NR] = $5; cpu[NR] = $6
      if ($3 == "wc -l" && num($4)) wc[$1] = $4
      if ($3 == "R summaryRprof" && num($4)) r[$1] = $4
      if ($3 == "stackscope report --by self" && num($4)) self[$1] = $4
      if ($3 == "go pprof -top" && num($4)) { gotop[$1] = $4; gorss[$1] = $5 }
      if ($3 == "stackscope report --by sources" && num($4)) load[$1] = $4 }
    END {
        fmt = "%-15s %8s  %-36s %8s %8s %7s %7s %7s %8s %9s\n"
        printf fmt, "file", "size_MB", "command", "wall_s", "rss_MB", "x_wc", "ns_wall", "ns_cpu", \
            "R/this", "rss_lim"
        for (i = 1; i <= NR; i++) {
            xwc = rr = lim = nsw = nsc = ""
            if (cmd[i] ~ /^stackscope/ && num(wall[i])) {
                if ((file[i] in wc) && wc[file[i]] > 0) xwc = sprintf("%.2f", wall[i] / wc[file[i]])
                n = nsmp(file[i])
                if (n > 0 && cmd[i] ~ /^stackscope report/ && cmd[i] !~ /--base/) {
                    nsw = sprintf("%.0f", wall[i] * 1e9 / n)
                    if (num(cpu[i])) nsc = sprintf("%.0f", cpu[i] * 1e9 / n)
                }
                if (cmd[i] == "stackscope report --by self" && (file[i] in r) && wall[i] > 0)
                    rr = sprintf("%.0f", r[file[i]] / wall[i])
                if (file[i] ~ /\.out$/) lim = sprintf("%.1f", size[i] / 2 + 50)
            }
            printf fmt, file[i], size[i], cmd[i], wall[i], rss[i], xwc, nsw, nsc, rr, lim
        }
        print ""
        print "x_wc = wall / wall of wc -l; R/this = summaryRprof(FILE) wall / this wall"
        print "ns_wall, ns_cpu = wall time and CPU time (user + system, all threads; 1 ms"
        print "resolution) of a report over the samples read, in ns a sample (load + report);"
        print "bytes a line:"
        for (k = 1; k <= nf; k++)
            printf "  %-14s %8d samples, %4.0f bytes a line\n", ord[k], smp[ord[k]], bpl[ord[k]]
        print "(default summaryRprof is a by-self/by-total summary, so it is compared with --by self only);"
        print "rss_lim = size_MB/2 + 50 (MB = 10^6 bytes). Wall times include process start-up."
        print ""
        print "Targets:"
        for (i = 1; i <= NR; i++) {
            if (cmd[i] !~ /^stackscope/) continue
            c = substr(cmd[i], 12)
            if (!num(wall[i])) { printf "  FAIL  %-12s %s did not run\n", file[i], c; continue }
            if (c == "convert -o X.pb.gz" && file[i] ~ /\.out$/ && (file[i] in self)) {
                x = (self[file[i]] > 0) ? wall[i] / self[file[i]] : 0
                printf "  %s  %-12s convert to pprof within 3x of report --by self: %.2fx\n", \
                    (x <= 3 ? "PASS" : "MISS"), file[i], x
            }
            if (c == "report --by self" && (file[i] in gotop)) {
                x = (wall[i] > 0) ? gotop[file[i]] / wall[i] : 1e9
                printf "  %s  %-12s report --by self 10x faster than go pprof -top: %.1fx\n", \
                    (x >= 10 ? "PASS" : "MISS"), file[i], x
                if (num(rss[i]) && num(gorss[file[i]]) && gorss[file[i]] > 0) {
                    x = rss[i] / gorss[file[i]]
                    printf "  %s  %-12s report --by self peak RSS within a third of go pprof -top: %.0f%%\n", \
                        (x <= 1 / 3 ? "PASS" : "MISS"), file[i], 100 * x
                }
            }
            if (c ~ /^report --by self( \(1 thread\))?$/ && file[i] ~ /\.out$/ && nsmp(file[i]) && num(cpu[i]))
                printf "  ----  %-12s %s: %.0f ns CPU, %.0f ns wall a sample (aim: 50 ns CPU, issue 35)\n", \
                    file[i], c, cpu[i] * 1e9 / nsmp(file[i]), wall[i] * 1e9 / nsmp(file[i])
            if (c == "report --by self" && file[i] ~ /\.out$/) {
                if (file[i] in wc) {
                    x = (wc[file[i]] > 0) ? wall[i] / wc[file[i]] : 0
                    printf "  %s  %-12s %s within 1.5x of wc -l: %.2fx\n", \
                        (x <= 1.5 ? "PASS" : "MISS"), file[i], c, x
                }
                if (file[i] in r) {
                    x = (wall[i] > 0) ? r[file[i]] / wall[i] : 1e9
                    printf "  %s  %-12s %s at least 100x faster than summaryRprof: %.0fx\n", \
                        (x >= 100 ? "PASS" : "MISS"), file[i], c, x
                } else {
                    printf "  ----  %-12s %s vs summaryRprof: not measured (--no-r)\n", file[i], c
                }
            }
            if (c ~ /--by phases/ && (file[i] in load)) {
                x = wall[i] - load[file[i]]
                printf "  %s  %-12s %s within 0.3 s after load: %.3f s\n", \
                    (x <= 0.3 ? "PASS" : "MISS"), file[i], c, x
            }
            if (c ~ /--by (stacks|levels|runs|tree|calls|timeline)/ && (file[i] in load)) {
                x = wall[i] - load[file[i]]
                printf "  %s  %-12s %s within 0.5 s after load: %.3f s\n", \
                    (x <= 0.5 ? "PASS" : "MISS"), file[i], c, x
            }
            if (file[i] !~ /\.out$/) continue # the RSS target is for Rprof input
            lim = size[i] / 2 + 50
            note = (size[i] > 100) ? "" : " (informational: target is for files over 100 MB)"
            printf "  %s  %-12s %s peak RSS %.1f MB below %.1f MB%s\n", \
                (rss[i] < lim ? "PASS" : "MISS"), file[i], c, rss[i], lim, note
        }
    }'

if [ -s "$outdir/phases10m.txt" ]; then
    echo
    echo "tf_bench on demo10m.out (keep-phase main applied, then the phases of the result):"
    sed 's/^/  /' "$outdir/phases10m.txt"
fi
echo
echo "(raw measurements: ${outdir#"$root"/}/results.tsv)"
if [ $failed != 0 ]; then
    echo "run.sh: some commands failed (see above)" >&2
    exit 1
fi
exit 0
