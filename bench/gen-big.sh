#!/bin/sh
# gen-big.sh N OUT [SOURCE] [SEED]
#
# Write an N-sample Rprof file to OUT by resampling a real profile:
#   * SOURCE's first header line and the #File lines of its first session are
#     copied first;
#   * then N sample lines are drawn uniformly, with replacement, from the
#     sample lines of SOURCE's first session (awk srand(SEED); the output is
#     a pure function of SOURCE, N, SEED and the awk implementation);
#   * when SOURCE has memory profiling (header starts "memory profiling:"),
#     each line's ":small_v:big_v:nodes:dup:" prefix is replaced by a
#     synthetic random walk (a GC-like sawtooth with occasional drops), and
#     every output sample line is made unique.
#
# Defaults: SOURCE = bench/data/plain_fast.out, SEED = 1.
# OUT may be "-" for standard output. Otherwise OUT is written through a
# temporary file in the same directory and renamed, so an interrupted run
# never leaves a partial OUT behind.
#
# With ORDER=kept in the environment, output sample k is drawn instead from
# the source lines near position k x (source samples) / N (a stretch of
# 0.1% of them): the source's phases (burn-in, main work, fade-out) stay where
# they were, stretched to N samples, for the phase detector (bench/run.sh
# --10m makes a 10M-sample file so from data/demo.out).
#
# The resampled file destroys time order (kept: all but the phases), and
# synthetic memory prefixes are not a real run: use it for speed and memory
# measurements only.

set -eu

usage() {
    echo "usage: $0 N OUT [SOURCE] [SEED]" >&2
    exit 2
}

[ $# -ge 2 ] && [ $# -le 4 ] || usage

here=$(cd "$(dirname "$0")" && pwd)
n=$1
out=$2
src=${3:-$here/data/plain_fast.out}
seed=${4:-1}
awk_bin=${AWK:-awk}
order=${ORDER:-random}
case $order in random | kept) ;; *) echo "$0: ORDER must be random or kept: $order" >&2; exit 2 ;; esac

case $n in '' | *[!0-9]*) echo "$0: N must be a non-negative integer: $n" >&2; exit 2 ;; esac
case $seed in '' | *[!0-9]*) echo "$0: SEED must be a non-negative integer: $seed" >&2; exit 2 ;; esac
[ -r "$src" ] || { echo "$0: cannot read SOURCE: $src" >&2; exit 2; }

if [ "$out" = - ]; then
    tmp=
else
    tmp=$(mktemp "$(dirname "$out")/.gen-big.XXXXXX")
    trap 'rm -f "$tmp"' EXIT HUP INT TERM
fi

# The awk program reads SOURCE up to its second header (if any), then
# generates everything in END.
"$awk_bin" -v n="$n" -v seed="$seed" -v src="$src" -v kept="$([ "$order" = kept ] && echo 1 || echo 0)" '
BEGIN { srand(seed) }
# The source line of output sample i (0-based): any line (random), or one
# of the 0.1% of lines around its place in the source (kept).
function pick(i,  c, k) {
    if (!kept) return int(rand() * nsamp) + 1
    c = 1 + int(i * nsamp / n)
    k = c + int((rand() - 0.5) * (nsamp / 1000 + 1))
    return k < 1 ? 1 : k > nsamp ? nsamp : k
}
function is_header(line) {
    # "sample.interval=N", optionally preceded by flag words such as
    # "memory profiling: GC profiling: line profiling: ". Sample lines begin
    # with a quote, a colon or a digit, so they never match.
    return line ~ /^([A-Za-z. ]+: *)*sample\.interval=/
}
function fail(msg) {
    printf "gen-big.sh: %s: %s\n", src, msg > "/dev/stderr"
    failed = 1
    exit 1
}
NR == 1 {
    if (!is_header($0)) fail("first line is not an Rprof header")
    header = $0
    memory = ($0 ~ /^memory profiling:/)
    next
}
is_header($0) { exit 0 }            # second session starts: stop reading
/^#File / { files[++nfiles] = $0; next }
{
    line = $0
    if (memory && match(line, /^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:/)) {
        split(substr(line, 2, RLENGTH - 2), f, ":")
        s = f[1] + 0; b = f[2] + 0; v = f[3] + 0
        if (nsamp == 0 || s < smin) smin = s
        if (nsamp == 0 || b < bmin) bmin = b
        if (nsamp == 0 || v < vmin) vmin = v
        if (nsamp == 0 || v > vmax) vmax = v
        npref++
        line = substr(line, RLENGTH + 1)
        haspref[nsamp + 1] = 1
    }
    samp[++nsamp] = line
}

# One tick of the synthetic memory state: small_v (s), big_v (b) and
# nodes (v) grow; at a "GC" (nodes over the limit, or at random) they drop
# back near their floors, and the limit itself sometimes moves.
function tick(  ds) {
    ds = 1 + int(rand() * 6000)
    s += ds
    v += 8 * int(ds * (18 + rand() * 14))
    if (rand() < 0.15) b += int(rand() * 250000)
    if (v > vlim || rand() < 0.01) {
        s = s0 + int(rand() * 30000)
        v = v0 + 8 * int(rand() * 400000)
        if (rand() < 0.6) b = b0 + int(rand() * 120000)
        if (rand() < 0.05) {        # the heap limit wanders, within bounds
            vlim += 8 * int((rand() - 0.5) * 500000)
            if (vlim < vlim0) vlim = vlim0
            if (vlim > 3 * vlim0) vlim = 3 * vlim0
        }
        cycle++
    }
    r = rand()
    d = (r < 0.25) ? 0 : int(rand() * rand() * 650)
}

END {
    if (failed) exit 1
    if (NR == 0) fail("empty file")
    if (n > 0 && nsamp == 0) fail("no sample lines in the first session")

    print header
    for (i = 1; i <= nfiles; i++) print files[i]

    if (!memory || npref == 0) {
        for (i = 0; i < n; i++) print samp[pick(i)]
        exit 0
    }

    # Floors and limit from the source, with sane fallbacks.
    s0 = (smin > 0) ? smin : 270000
    b0 = (bmin > 0) ? bmin : 470000
    v0 = (vmin > 0) ? 8 * int(vmin / 8) : 20000000
    vlim = (vmax > v0 + 8000000) ? vmax : v0 + 17000000
    vlim0 = vlim
    s = s0; b = b0; v = v0

    # Uniqueness: within one GC cycle s strictly increases, so a prefix can
    # only repeat across cycles. seen[s] lists the nodes values already used
    # with that small_v; a repeated (small_v, nodes) pair, which is rare, makes
    # the walk take another step. So every prefix, hence every line, is unique.
    for (i = 0; i < n; i++) {
        k = pick(i)
        if (!(k in haspref)) { print samp[k]; continue }
        do {
            tick()
            rest = " " v " "
        } while ((s in seen) && index(seen[s], rest))
        seen[s] = (s in seen) ? seen[s] rest : rest
        printf ":%d:%d:%d:%d:%s\n", s, b, v, d, samp[k]
    }
}
' "$src" > "${tmp:-/dev/stdout}"

if [ -n "$tmp" ]; then
    chmod 644 "$tmp"
    mv -f "$tmp" "$out"
    trap - EXIT HUP INT TERM
fi
