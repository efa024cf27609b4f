#!/bin/bash
# The parallel Rprof loader (issue 15) makes exactly what the single-threaded
# one makes.
#
# The reference is the single-threaded loader (STACKSCOPE_THREADS=1), which
# the oracle tests check against R's summaryRprof; the parallel loader
# (STACKSCOPE_THREADS=2) must give byte-identical output: `report` (--by
# self, total, line, stacks and sources, TSV) and `convert --to tables`
# (every table with its ids: functions, locations, stacks, samples, values,
# sources), or the same error message and exit status.  STACKSCOPE_CHUNK
# (bytes; documented as a knob for tests) forces small chunks, so chunk
# boundaries fall everywhere: chunk size 1 makes every line a chunk of its
# own (inside multi-session files, between `#File` lines and their use, at
# blank lines and at a cut-off last line).
#
# Inputs: every Rprof file under tests/data (fixtures, edge cases, bad
# input) and resampled files made by bench/gen-big.sh (20000 samples,
# plain and memory + line), two of them glued into a multi-session file.
#
# Also the loader's progress reports and C-c during a load.

. "$(dirname "$0")/lib.sh"
need_stackscope

gen=$SRCDIR/bench/gen-big.sh
[ -x "$gen" ] || [ -r "$gen" ] || skip_test "no bench/gen-big.sh"

# The Rprof inputs: files whose first line is (or tries to be) a header.
inputs=()
while IFS= read -r f; do
    inputs+=("$f")
done < <(find "$SRCDIR/tests/data" -type f \( -name '*.out' -o -path '*/load/*' \) | LC_ALL=C sort |
    while IFS= read -r f; do
        head -c 200 "$f" | head -n 1 | grep -aq 'sample\.interval' && echo "$f"
    done)
[ ${#inputs[@]} -ge 40 ] || fail inputs "only ${#inputs[@]} Rprof files found under tests/data"

sh "$gen" 20000 "$TMPD/plain20k.out" "$SRCDIR/bench/data/plain_fast.out" 7 || fail gen "gen-big.sh plain"
sh "$gen" 20000 "$TMPD/ml20k.out" "$SRCDIR/bench/data/memory_line.out" 7 || fail gen "gen-big.sh memory"
# several sessions, each with its #File lines, one of them plain
cat "$TMPD/ml20k.out" "$TMPD/plain20k.out" "$TMPD/ml20k.out" > "$TMPD/sessions.out"
# a #File line declared after its first use, in a later chunk
{
    echo 'line profiling: sample.interval=1000'
    for i in $(seq 1 50); do echo '"f" 1#3 "g" 2#7 '; done
    echo '#File 1: a.R'
    for i in $(seq 1 50); do echo '"f" 1#3 "g" 2#7 '; done
    echo '"h" "f" 1#3 "g" '
    echo '#File 2: b.R'
    echo 'line profiling: sample.interval=2000'
    echo '#File 1: b.R'
    for i in $(seq 1 30); do echo '"f" 1#3 "g" 2#7 '; echo '"h" "f" 1#3 "g" '; done
    echo '"h" "f" 2#3 "g" '
    printf '"f" 1#3 "g" 2#'
} > "$TMPD/late_file.out"
big=("$TMPD/plain20k.out" "$TMPD/ml20k.out" "$TMPD/sessions.out" "$TMPD/late_file.out")

# outputs FILE DIR [ENV...]: every output compared, into DIR
outputs() {
    local f=$1 d=$2 by
    shift 2
    mkdir -p "$d"
    for by in self total line stacks sources; do
        env "$@" "$STACKSCOPE" report --by "$by" --format tsv "$f" > "$d/$by.out" 2> "$d/$by.err"
        echo "$?" >> "$d/$by.err"
    done
    env "$@" "$STACKSCOPE" convert --to tables -o "$d/tables" "$f" > /dev/null 2> "$d/tables.err"
    echo "$?" >> "$d/tables.err"
}

# compare FILE CHUNK...: serial against parallel at each chunk size
compare() {
    local f=$1 c name why d
    shift
    name=$(basename "$f")
    d=$TMPD/cmp
    rm -rf "$d"
    outputs "$f" "$d/serial" STACKSCOPE_THREADS=1
    for c in "$@"; do
        outputs "$f" "$d/$c" STACKSCOPE_THREADS=2 STACKSCOPE_CHUNK="$c"
        why=$(diff -r "$d/serial" "$d/$c" 2>&1 | head -n 5)
        check "$name chunk $c" "$why"
    done
}

for f in "${inputs[@]}"; do
    compare "$f" 1 5 64
done
for f in "${big[@]}"; do
    compare "$f" 333 65536
done
compare "$TMPD/late_file.out" 1 7
# the chunks mapped (STACKSCOPE_MMAP) instead of read with pread, and
# the default chunks (files of 4 MiB or more: several, of decreasing size)
for f in "${big[@]}"; do
    d=$TMPD/cmp
    rm -rf "$d"
    outputs "$f" "$d/serial" STACKSCOPE_THREADS=1
    outputs "$f" "$d/mapped" STACKSCOPE_THREADS=2 STACKSCOPE_CHUNK=4096 STACKSCOPE_MMAP=1
    check "$(basename "$f") mapped" "$(diff -r "$d/serial" "$d/mapped" 2>&1 | head -n 5)"
    outputs "$f" "$d/default" STACKSCOPE_THREADS=3
    check "$(basename "$f") default chunks" "$(diff -r "$d/serial" "$d/default" 2>&1 | head -n 5)"
done

# The chunks did split the files: a cut is visible nowhere but in the
# counts, so check those against the input itself.
rows=$(STACKSCOPE_THREADS=2 STACKSCOPE_CHUNK=1 "$STACKSCOPE" report --by sources --format tsv \
    "$TMPD/sessions.out" | awk -F'\t' 'NR > 1 { n += $0 ~ /rprof/ } END { print n }')
check "three sessions" "$([ "$rows" = 3 ] || echo "sources: $rows")"
samples=$(grep -c '^[":0-9]' "$TMPD/sessions.out")
got=$(STACKSCOPE_THREADS=2 STACKSCOPE_CHUNK=4096 "$STACKSCOPE" convert --to tables \
    -o "$TMPD/t" "$TMPD/sessions.out" && tail -n +2 "$TMPD/t/samples.tsv" | wc -l)
check "every sample" "$([ "$got" = "$samples" ] || echo "$got samples, the file has $samples")"

# Progress (stackscope(1), ENVIRONMENT): reported through the loader's callback
# as the file is read.  STACKSCOPE_PROGRESS=always (a knob for tests) prints
# every report on its own line at once; the last one has read the whole file
# and holds every sample.
size=$(wc -c < "$TMPD/sessions.out")
mb=$(awk -v b="$size" 'BEGIN { printf "%.1f", b / 1048576 }')
for t in 1 2; do
    STACKSCOPE_PROGRESS=always STACKSCOPE_THREADS=$t STACKSCOPE_CHUNK=65536 "$STACKSCOPE" \
        report "$TMPD/sessions.out" > /dev/null 2> "$TMPD/progress.err"
    last=$(grep -a 'loading' "$TMPD/progress.err" | tail -n 1)
    want="stackscope: loading $TMPD/sessions.out: $mb MB of $mb MB (100%), $samples samples, "
    check "progress, $t thread(s)" "$(case $last in "$want"*) ;; *) echo "last line: $last (want $want...)" ;; esac)"
done
# without a terminal, nothing
"$STACKSCOPE" report "$TMPD/sessions.out" > /dev/null 2> "$TMPD/progress.err"
check "no progress without a terminal" "$(grep -a loading "$TMPD/progress.err")"

# C-c during a load: dead of SIGINT at once (exit status 130), no output
# left behind.  The input is a FIFO whose writer stalls after the header, so
# the load is surely under way when the signal comes.
mkfifo "$TMPD/fifo"
interrupt() { # interrupt NAME ARGS...: stackscope ARGS, then C-c
    local name=$1 pid rc t0 t1
    shift
    (printf 'sample.interval=1000\n"a" \n'; sleep 5) > "$TMPD/fifo" &
    local writer=$!
    # a shell without job control starts a background job with SIGINT
    # ignored, and an ignored signal stays ignored: un-ignore it, as a
    # terminal's foreground job has it
    env --default-signal=INT "$STACKSCOPE" "$@" "$TMPD/fifo" > /dev/null 2> "$TMPD/int.err" &
    pid=$!
    sleep 0.5
    t0=$(date +%s%N)
    kill -INT "$pid"
    wait "$pid"
    rc=$?
    t1=$(date +%s%N)
    kill "$writer" 2> /dev/null
    wait "$writer" 2> /dev/null
    check "C-c $name" "$([ "$rc" = 130 ] || echo "exit status $rc, want 130")"
    check "C-c $name at once" "$([ $(((t1 - t0) / 1000000)) -lt 1000 ] || echo "took $(((t1 - t0) / 1000000)) ms")"
}
interrupt report report
mkdir "$TMPD/outdir"
interrupt convert convert -o "$TMPD/outdir/x.pb.gz"
check "C-c convert leaves nothing" "$(ls -A "$TMPD/outdir")"
# and as a background job of a script (SIGINT ignored), C-c is ignored
(printf 'sample.interval=1000\n"a" \n'; sleep 1) > "$TMPD/fifo" &
writer=$!
"$STACKSCOPE" report "$TMPD/fifo" > /dev/null 2> "$TMPD/int.err" &
pid=$!
sleep 0.5
kill -INT "$pid"
wait "$pid"
rc=$?
wait "$writer"
check "C-c ignored by a background job of a script" "$([ "$rc" = 0 ] || echo "exit status $rc")"

# An ignored hang-up stays ignored (nohup): report and convert go on
# through a SIGHUP during the load and finish their work.
ignored() { # ignored NAME ARGS...
    local name=$1 pid rc
    shift
    (printf 'sample.interval=1000\n"a" \n'; sleep 1; printf '"b" "a" \n') > "$TMPD/fifo" &
    local writer=$!
    (trap '' HUP; exec "$STACKSCOPE" "$@" "$TMPD/fifo" > "$TMPD/hup.out" 2> "$TMPD/hup.err") &
    pid=$!
    sleep 0.5
    kill -HUP "$pid"
    wait "$pid"
    rc=$?
    wait "$writer" 2> /dev/null
    check "SIGHUP ignored: $name goes on" "$([ "$rc" = 0 ] || echo "exit status $rc: $(cat "$TMPD/hup.err")")"
}
ignored report report --by self --format tsv
check "SIGHUP ignored: report's table" "$(grep -qx "$(printf 'b\t0.001\t50\t0.001\t50')" "$TMPD/hup.out" || cat "$TMPD/hup.out")"
ignored convert convert -o "$TMPD/outdir/hup.folded"
check "SIGHUP ignored: convert's output" "$(printf 'a 1\na;b 1\n' | cmp - "$TMPD/outdir/hup.folded" 2>&1)"

finish
