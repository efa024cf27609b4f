#!/bin/bash
# Following a profile while it is written (stackscope(1), FOLLOWING): a
# writer replays a real Rprof file (written by R: the demo, and a memory +
# GC + line profile) or perf script text (perf record of node) into a file
# at its own pace, lines cut in the middle
# between two writes, while the explorer follows it headless.  The profile
# it ends with, saved with :w, is the replayed file byte for byte (the
# Rprof writer's round trip is exact: roundtrip.sh); each write's samples
# are on screen within the refresh period (1 s) of being written; the
# transforms apply to the new samples; --follow=end reads only what comes
# after; a truncated file starts new sources; --base compares with an old
# run and --window the last seconds with the run before; the wrong uses are
# refused with a message.
. "$(dirname "$0")/lib.sh"
need_stackscope

DEMO=$SRCDIR/data/demo.out
MGL=$SRCDIR/tests/data/rprof/mem_gc_line.out

# replay SRC DST PIECES PAUSE: write SRC's lines to DST in PIECES writes,
# PAUSE seconds apart, each ending in the middle of a line; DST.log gets
# "EPOCH SAMPLES" after each write (the sample lines complete so far).
replay() {
    local src=$1 dst=$2 pieces=$3 pause=$4
    local bytes
    bytes=$(wc -c <"$src")
    : >"$dst.log"
    local at=0 k
    for ((k = 1; k <= pieces; k++)); do
        local to=$((bytes * k / pieces))
        [ "$k" -lt "$pieces" ] && to=$((to - 7)) # mid-line, mostly
        head -c "$to" "$src" | tail -c "$((to - at))" >>"$dst"
        at=$to
        local whole # the lines complete so far
        whole=$(head -c "$to" "$src" | wc -l)
        echo "$(date +%s.%N) $(head -n "$whole" "$src" | grep -c '^[":0-9]')" >>"$dst.log"
        sleep "$pause"
    done
}

# latency LOG TIMING: the writes whose samples were shown later than the
# refresh period (1 s) and the refresh's own cost (its wall time in the
# timing file), with 0.5 s for a machine busy with other tests, or not at
# all, as "samples N written at T: ..." lines; empty when none.
latency() {
    awk 'FNR == NR { t[++n] = $1; c[n] = $2; next }
        /\(follow: / { s = $0; sub(/.*\(follow: /, "", s); split(s, f, " ")
            w = $0; sub(/.* shown at /, "", w); sub(/\).*/, "", w)
            m++; fs[m] = f[1]; ft[m] = w; fc[m] = $1 / 1000 }
        END { for (i = 1; i <= n; i++) { ok = 0
                for (j = 1; j <= m; j++) if (fs[j] >= c[i]) { d = ft[j] - t[i]; ok = 1; break }
                if (!ok) { printf "samples %d written at %s: never shown\n", c[i], t[i]; continue }
                if (d > 1 + fc[j] + 0.5)
                    printf "samples %d written at %s: shown %.2f s later\n", c[i], t[i], d } }' \
        "$1" "$2"
}

# follow_case NAME SRC PIECES PAUSE SLEEP_MS ARGS...: the explorer follows
# $TMPD/NAME.out while SRC is replayed into it, then saves the profile
# (NAME.copy.out, or NAME.copy.$COPY) and the screen; ARGS go to
# stackscope before the file.
follow_case() {
    local name=$1 src=$2 pieces=$3 pause=$4 sleep_ms=$5
    shift 5
    : >"$TMPD/$name.out"
    replay "$src" "$TMPD/$name.out" "$pieces" "$pause" &
    local writer=$!
    printf '<Sleep %s>\nDUMP slept\n:follow now\n:w %s\nDUMP screen\n' "$sleep_ms" \
        "$TMPD/$name.copy.${COPY:-out}" |
        STACKSCOPE_UI_TIMING=$TMPD/$name.timing ui "$name" --follow "$@" "$TMPD/$name.out"
    wait "$writer"
}

# ---- the demo (5522 samples, memory and line profiling), in 8 writes ---------
follow_case demo "$DEMO" 8 0.4 4200
check "demo: the profile followed is the file written (:w, byte for byte)" \
    "$(cmp "$TMPD/demo.copy.out" "$DEMO" 2>&1)"
check "demo: every write's samples shown within the period" \
    "$(latency "$TMPD/demo.out.log" "$TMPD/demo.timing")"
check "demo: the status line counts every sample" \
    "$(grep -q ' demo.out | following: .* | 5522 of 5522 samples ' "$TMPD/demo.screen" ||
        tail -n 3 "$TMPD/demo.screen")"
refreshes=$(grep -c '(follow: ' "$TMPD/demo.timing")
check "demo: refreshed at most once a second ($refreshes refreshes in 4.2 s)" \
    "$([ "$refreshes" -ge 2 ] && [ "$refreshes" -le 6 ] || echo "$refreshes refreshes")"

# ---- memory + GC + line profiling, with transforms applied as samples come --
follow_case mgl "$MGL" 5 0.3 2000 -e 'drop "<GC>"' -e 'trim-base auto'
run report -e 'drop "<GC>"' -e 'trim-base auto' --by self --format tsv "$MGL"
echo "$OUT" >"$TMPD/mgl.want.tsv"
run report --by self --format tsv "$TMPD/mgl.copy.out"
echo "$OUT" >"$TMPD/mgl.got.tsv"
check "mem_gc_line: the transformed profile followed is the finished file's (report --by self)" \
    "$(same_tsv "$TMPD/mgl.want.tsv" "$TMPD/mgl.got.tsv")"
check "mem_gc_line: the message says trim-base auto was found again" \
    "$(grep -q 'found again on the whole profile: trim-base auto' "$TMPD/mgl.slept" ||
        message "$TMPD/mgl.slept")"

# ---- perf script (node --perf-basic-prof under perf record -g), in 4 writes ---
# written back as pprof, which keeps every sample's stack, value and labels,
# against the finished file written so
COPY=pb.gz follow_case perf "$SRCDIR/tests/data/producers/perf/node-g.txt" 4 0.2 1200
run convert -o "$TMPD/perf.want.pb.gz" "$SRCDIR/tests/data/producers/perf/node-g.txt"
for by in self labels; do
    run report --by $by --format tsv "$TMPD/perf.want.pb.gz"
    echo "$OUT" >"$TMPD/perf.want.$by"
    run report --by $by --format tsv "$TMPD/perf.copy.pb.gz"
    echo "$OUT" >"$TMPD/perf.got.$by"
    check "perf script: followed, the samples and labels of the finished file (--by $by)" \
        "$(same_tsv "$TMPD/perf.want.$by" "$TMPD/perf.got.$by")"
done

# ---- --keep: only the last seconds stay in memory -----------------------------
head -n 600 "$DEMO" >"$TMPD/keep.out"
(sleep 0.2 && tail -n +601 "$DEMO" >>"$TMPD/keep.out") &
STACKSCOPE_SIZE=140x30 ui keep --follow --keep 5s "$TMPD/keep.out" <<EOF
:value memory
<Sleep 1300>
:follow now
:w $TMPD/keep.copy.out
DUMP screen
:recent 5s
DUMP recent
EOF
wait
# the expected profile: the header and #File lines, then the last 5 s of
# samples (1000 at 5 ms), made with awk from the file
awk '/^[":0-9]/ { s[++n] = $0; next } { print } END { for (i = n - 999; i <= n; i++) print s[i] }' \
    "$DEMO" >"$TMPD/keep.want.out"
for v in time memory; do
    run report --by self --value $v --format tsv "$TMPD/keep.want.out"
    echo "$OUT" >"$TMPD/keep.want.$v"
    run report --by self --value $v --format tsv "$TMPD/keep.copy.out"
    echo "$OUT" >"$TMPD/keep.got.$v"
    check "--keep 5s: the last 1000 samples of the file, by $v" \
        "$(same_tsv "$TMPD/keep.want.$v" "$TMPD/keep.got.$v")"
done
check "--keep 5s: the status line says so, and the measure chosen stays" \
    "$(grep -q "following: .*, the last 5s kept | 1000 of 1000 samples | .* memory" \
        "$TMPD/keep.screen" || tail -n 3 "$TMPD/keep.screen")"
check "--keep 5s: :recent 5s refused (the run before it would be empty)" \
    "$(grep -q "recent: the last 5s is not shorter than what --keep keeps" "$TMPD/keep.recent" ||
        message "$TMPD/keep.recent")"
# 20 ms samples: --keep 1s keeps 50 of them (a sum of doubles stopped at 49)
P20=$SRCDIR/tests/data/rprof/plain_default.out
head -n 100 "$P20" >"$TMPD/k20.out"
(sleep 0.2 && tail -n +101 "$P20" >>"$TMPD/k20.out") &
STACKSCOPE_SIZE=140x30 ui k20 --follow --keep 1s "$TMPD/k20.out" <<EOF
<Sleep 1300>
:follow now
DUMP screen
EOF
wait
check "--keep 1s at 20 ms: 50 samples kept" \
    "$(grep -q "the last 1s kept | 50 of 50 samples" "$TMPD/k20.screen" ||
        tail -n 3 "$TMPD/k20.screen")"
export STACKSCOPE_SCRIPT=/dev/null
run --keep 5s "$DEMO"
check "--keep without --follow: refused" \
    "$([ "$RC" = 1 ] && [[ $ERR == *"--keep goes with --follow"* ]] || echo "$RC: $ERR")"
unset STACKSCOPE_SCRIPT

# ---- --follow=end: only the samples written from now on ----------------------
head -n 400 "$DEMO" >"$TMPD/end.out"
{
    printf '<Sleep 300>\n'
    printf ':follow now\n:w %s\nDUMP screen\n' "$TMPD/end.copy.out"
} >"$TMPD/end.keys"
(sleep 0.1 && tail -n +401 "$DEMO" | head -n 1000 >>"$TMPD/end.out") &
ui end --follow=end "$TMPD/end.out" <"$TMPD/end.keys"
wait
# the expected profile: the header and #File lines, then the samples appended
{ head -n 400 "$DEMO" | grep -v '^[":0-9]'; tail -n +401 "$DEMO" | head -n 1000; } >"$TMPD/end.want.out"
run report --by self --format tsv "$TMPD/end.want.out"
echo "$OUT" >"$TMPD/end.want.tsv"
run report --by self --format tsv "$TMPD/end.copy.out"
echo "$OUT" >"$TMPD/end.got.tsv"
check "--follow=end: only the 1000 samples appended, their files known" \
    "$(same_tsv "$TMPD/end.want.tsv" "$TMPD/end.got.tsv")"

# ---- a new Rprof() on the same name: new sources after the old ---------------
head -n 300 "$DEMO" >"$TMPD/re.out"
(sleep 0.2 && head -n 200 "$MGL" >"$TMPD/re.out.new" && mv "$TMPD/re.out.new" "$TMPD/re.out") &
ui re --follow "$TMPD/re.out" <<EOF
<Sleep 1700>
DUMP screen
6
EOF
wait
n_old=$(head -n 300 "$DEMO" | grep -c '^[":0-9]')
n_new=$(head -n 200 "$MGL" | grep -c '^[":0-9]')
check "replaced: the old run's and the new run's samples ($n_old + $n_new), at a refresh" \
    "$(grep -q "| $((n_old + n_new)) of $((n_old + n_new)) samples" "$TMPD/re.screen" ||
        tail -n 3 "$TMPD/re.screen")"

# ---- --base: the growing profile against an old run ----------------------------
head -n 1500 "$DEMO" >"$TMPD/b.out"
(sleep 0.3 && tail -n +1501 "$DEMO" >>"$TMPD/b.out") &
STACKSCOPE_SIZE=160x30 ui base --follow --base "$SRCDIR/data/demo-after.out" "$TMPD/b.out" <<'EOF'
<Sleep 1400>
:follow now
DUMP screen
X
DUMP swap
EOF
wait
run report --base "$SRCDIR/data/demo-after.out" "$DEMO"
want=$(echo "$OUT" | sed -n 's/^compare *time: \(base [0-9.]* s, new [0-9.]* s\).*/\1/p')
check "--base: the finished file against the old run ($want)" \
    "$(grep -q "b.out vs demo-after.out | following.* | time: $want" "$TMPD/base.screen" ||
        tail -n 3 "$TMPD/base.screen")"
check "--base: X refused while the file is followed (it stays the new side)" \
    "$(grep -q "X: the followed file stays the new side" "$TMPD/base.swap" ||
        message "$TMPD/base.swap")"

# ---- --window: the last seconds against the run before ----------------------
STACKSCOPE_SIZE=160x30 ui win --follow --window 5s "$DEMO" <<'EOF'
DUMP screen
:recent off
DUMP off
EOF
check "--window 5s: the comparison of the last 5 s with the run before" \
    "$(grep -q 'demo.out: last 5s vs before | following' "$TMPD/win.screen" ||
        tail -n 3 "$TMPD/win.screen")"
check ":recent off: the whole profile again" \
    "$(grep -q 'recent: off, the whole profile again' "$TMPD/win.off" || message "$TMPD/win.off")"

# ---- --window's verdicts against a known truth ------------------------------------
# the demo's samples twice: the last 27.61 s are the run before it again, so
# no function moves; then the demo followed by its 2004 samples holding
# lm.fit: in the last 10.02 s lm.fit is in every sample, so it grew
awk '/^[":0-9]/ { s[++n] = $0; print; next } { print } END { for (i = 1; i <= n; i++) print s[i] }' \
    "$DEMO" >"$TMPD/twice.out"
STACKSCOPE_SIZE=160x300 ui twice --window 27.61s "$TMPD/twice.out" <<'EOF'
DUMP screen
EOF
check "--window over a run repeated: every delta 0, no verdict but ~ (246 functions)" \
    "$(awk 'NR > 2 && $1 ~ /^[0-9.]+$/ && $2 ~ /^[0-9.]+$/ { n++
            if ($3 != "0.000" || / [+-] / || $0 !~ / 0\.000 ~ /) { print "row: " $0; exit } }
        END { if (n != 246) print n " rows" }' "$TMPD/twice.screen")"
awk '/^[":0-9]/ { s[++n] = $0; print; next } { print }
    END { for (i = 1; i <= n; i++) if (s[i] ~ /"lm\.fit"/) print s[i] }' "$DEMO" >"$TMPD/lm.out"
k=$(grep -c '"lm\.fit"' "$DEMO")
STACKSCOPE_SIZE=160x60 ui lm --window "$(awk -v k="$k" 'BEGIN { printf "%.3fs", k * 0.005 }')" \
    "$TMPD/lm.out" <<'EOF'
DUMP screen
EOF
check "--window over a tail of lm.fit's $k samples: lm.fit's total there is all of it, grew" \
    "$(awk -v want="$(awk -v k="$k" 'BEGIN { printf "%.3f", k * 0.005 }')" '
        $NF == "lm.fit" && $1 ~ /^[0-9.]+$/ { found = 1
            if ($7 != want || $9 != "+" || $5 != "+") print "row: " $0 " (want total " want ", +)" }
        END { if (!found) print "no lm.fit row" }' "$TMPD/lm.screen")"

# ---- refused, with a message ---------------------------------------------------
export STACKSCOPE_SCRIPT=/dev/null
run --follow "$DEMO" "$MGL"
check "two files: refused" "$([ "$RC" = 1 ] && [[ $ERR == *"--follow follows one file (2 given)"* ]] ||
    echo "$RC: $ERR")"
run --follow=middle "$DEMO"
check "--follow=middle: refused" "$([ "$RC" = 1 ] && [[ $ERR == *"--follow=end"* ]] ||
    echo "$RC: $ERR")"
run --follow "$TMPD/missing.out"
check "a missing file: named, exit 2" "$([ "$RC" = 2 ] && [[ $ERR == *"missing.out"* ]] ||
    echo "$RC: $ERR")"
printf 'not a profile\n' >"$TMPD/text.txt"
run --follow "$TMPD/text.txt"
check "neither Rprof nor folded: said at its line" \
    "$([ "$RC" = 2 ] && [[ $ERR == *"text.txt:1: cannot follow this file"* ]] || echo "$RC: $ERR")"
mkfifo "$TMPD/fifo"
RC=0
ERR=$(timeout 10 "$STACKSCOPE" --follow "$TMPD/fifo" 2>&1 </dev/null) || RC=$?
check "a FIFO: refused at once, exit 2" \
    "$([ "$RC" = 2 ] && [[ $ERR == *"fifo: not a regular file"* ]] || echo "$RC: $ERR")"
unset STACKSCOPE_SCRIPT

finish
