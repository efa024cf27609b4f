#!/bin/bash
# A profile that changes while it is loaded (issue 27): cut (as R's Rprof()
# empties its file when it starts again), cut and written again, grown,
# replaced.  Never a signal death: a line format keeps the samples of the
# whole lines before the cut, with a warning naming the file; a format read
# whole (pprof, JSON, tables) is an error, exit status 2; a file that grew
# is read up to its size when opened, a replaced one is the file opened.
#
# Deterministic, not a race: STACKSCOPE_TEST_PAUSE=OFFSET:FIFO makes the
# first reader that has mapped (and read in) the byte at OFFSET, or is about
# to read it, write OFFSET to the FIFO and wait until the test has changed
# the file and written to the FIFO.  A file cut at X >= OFFSET keeps exactly
# its lines that end by X (every byte before the window that holds OFFSET
# was read before the change; in it, the bytes up to X are the file's),
# serially and with the parallel loader (whose merge stops at the first
# chunk that was cut), mapped or read with read(2)/pread(2).
#
# The reference for what is kept: the same report of the file's whole lines
# up to the cut, written out with head(1) and loaded serially (the serial
# loader is checked against R by tests/oracle.sh), and the number of its
# sample lines counted by awk.
. "$(dirname "$0")/lib.sh"
need_stackscope

T=$TMPD
gen=$SRCDIR/bench/gen-big.sh
# 10000 samples each (2.2 and 3.0 MB): more than the first mapped window
# (1 MiB) and the first read block, and several chunks of 256 KiB
sh "$gen" 10000 "$T/plain.out" "$SRCDIR/bench/data/plain_fast.out" 5 || fail gen plain
sh "$gen" 10000 "$T/ml.out" "$SRCDIR/bench/data/memory_line.out" 5 || fail gen memory
"$STACKSCOPE" convert -o "$T/f.folded" "$T/plain.out" 2>/dev/null
# mapped (STACKSCOPE_MMAP); "$SERIAL STACKSCOPE_NO_MMAP=1" reads, as the default does
SERIAL="STACKSCOPE_THREADS=1 STACKSCOPE_MMAP=1"
PARALLEL="STACKSCOPE_THREADS=2 STACKSCOPE_CHUNK=262144 STACKSCOPE_MMAP=1"

# during AT CHANGE ENV... -- ARGS...: stackscope ARGS with ENV, paused when
# it reaches byte AT of its file to run the shell command CHANGE; sets RC,
# PAUSED (1 when it did pause), $T/out and $T/err.
during() {
    local at=$1 change=$2 x pid envs=()
    shift 2
    while [ "$1" != -- ]; do
        envs+=("$1")
        shift
    done
    shift
    rm -f "$T/fifo"
    mkfifo "$T/fifo" || exit 99
    env "${envs[@]}" STACKSCOPE_TEST_PAUSE="$at:$T/fifo" "$STACKSCOPE" "$@" >"$T/out" \
        2>"$T/err" </dev/null &
    pid=$!
    PAUSED=0
    if x=$(timeout 10 sh -c 'read -r x <"$1" && echo "$x"' _ "$T/fifo") && [ "$x" = "$at" ]; then
        PAUSED=1
        eval "$change"
        timeout 10 sh -c 'echo go >"$1"' _ "$T/fifo"
    fi
    wait "$pid"
    RC=$?
    ERR=$(cat "$T/err")
    sanitized "sanitizer: during $at $change $*"
}

# whole_lines FILE X OUT: the lines of FILE that end within its first X bytes
whole_lines() {
    head -n "$(head -c "$2" "$1" | wc -l)" "$1" >"$3"
}

# samples_in FILE: its Rprof sample lines (not a header, not #File)
samples_in() {
    awk '!/sample\.interval=/ && !/^#File/' "$1" | wc -l
}

# kept NAME FILE COPY: the output is the report of the whole lines of FILE
# (COPY's original) before the cut the warning names, which holds as many
# samples as they do
kept() {
    local name=$1 f=$2 copy=$3 b k
    b=$(sed -n 's/.*(its first \([0-9]*\) bytes).*/\1/p' "$T/err")
    k=$(sed -n 's/.*kept the \([0-9]*\) samples\{0,1\} of the whole lines.*/\1/p' "$T/err")
    if [ "$RC" -ne 0 ] || [ -z "$b" ]; then
        fail "$name" "exit $RC: $(head -c 400 "$T/err")"
        return 1
    fi
    whole_lines "$f" "$b" "$T/want.out"
    if [ "$(wc -c <"$T/want.out")" -ne "$b" ]; then
        fail "$name" "the cut at byte $b is not at a line end of $f"
        return 1
    fi
    env STACKSCOPE_THREADS=1 "$STACKSCOPE" report --by self --format tsv "$T/want.out" >"$T/want"
    if [ "$k" != "$(samples_in "$T/want.out")" ]; then
        fail "$name" "kept $k samples, the whole lines before byte $b hold $(samples_in "$T/want.out")"
    elif ! cmp -s "$T/out" "$T/want"; then
        fail "$name" "not the report of the first $b bytes: $(diff "$T/want" "$T/out" | head -5)"
    elif ! grep -q "^stackscope: warning: $copy: cut while being read (it had $(wc -c <"$f") bytes" "$T/err"; then
        fail "$name" "no warning naming $copy: $(head -c 400 "$T/err")"
    else
        pass "$name"
        return 0
    fi
    return 1
}

# cut NAME FILE AT X ENV...: report --by self of a copy of FILE cut to X
# bytes when the load reaches byte AT (X >= AT): the whole lines up to X
cut() {
    local name=$1 f=$2 at=$3 x=$4 copy=$T/copy.out
    shift 4
    cp "$f" "$copy"
    during "$at" "truncate -s $x '$copy'" "$@" -- report --by self --format tsv "$copy"
    [ "$PAUSED" = 1 ] || { fail "$name" "the load did not pause at byte $at"; return; }
    kept "$name" "$f" "$copy" || return
    local b
    b=$(sed -n 's/.*(its first \([0-9]*\) bytes).*/\1/p' "$T/err")
    whole_lines "$f" "$x" "$T/by_x"
    [ "$b" = "$(wc -c <"$T/by_x")" ] || fail "$name: at the cut" "kept $b bytes, the lines up to byte $x are $(wc -c <"$T/by_x")"
}

# ---- cut: serially, in parallel, mapped and read ---------------------------
# shellcheck disable=SC2086
{
    cut "serial: cut in the format detection's window" "$T/plain.out" 100000 100000 $SERIAL
    cut "serial: cut mid-line in a later window" "$T/plain.out" 1500000 1500000 $SERIAL
    cut "serial: cut after the pause" "$T/plain.out" 1500000 2000000 $SERIAL
    cut "serial: cut in its last page" "$T/plain.out" 2233000 2235000 $SERIAL
    cut "serial, read(2): cut" "$T/plain.out" 1500000 1600000 $SERIAL STACKSCOPE_NO_MMAP=1
    cut "serial, memory + line: cut" "$T/ml.out" 2000000 2000100 $SERIAL
    cut "parallel: cut before the threads start (at the format detection)" "$T/plain.out" 600000 700000 $PARALLEL
    cut "parallel: cut mid-line" "$T/plain.out" 1500000 1500000 $PARALLEL
    cut "parallel: cut at a chunk's last page" "$T/plain.out" 2233000 2235000 $PARALLEL
    cut "parallel, pread(2): cut" "$T/plain.out" 1500000 1600000 $PARALLEL STACKSCOPE_NO_MMAP=1
    cut "parallel, memory + line: cut" "$T/ml.out" 2000000 2000100 $PARALLEL
    cut "default threads and chunks: cut" "$T/ml.out" 2000000 2000100
}

# Emptied and written again, as Rprof() does: the lines read before the
# pause are kept (the old profile's), nothing of the new one.
new_profile() {
    : >"$1"
    printf 'sample.interval=20000\n"new" "profile"\n' >>"$1"
}
for mode in "$SERIAL" "$PARALLEL"; do
    cp "$T/plain.out" "$T/copy.out"
    # shellcheck disable=SC2086
    during 1500000 "new_profile '$T/copy.out'" $mode -- report --by self --format tsv "$T/copy.out"
    name="${mode%% *}: emptied and written again"
    if [ "$PAUSED" != 1 ]; then
        fail "$name" "did not pause"
    elif kept "$name" "$T/plain.out" "$T/copy.out"; then
        b=$(sed -n 's/.*(its first \([0-9]*\) bytes).*/\1/p' "$T/err")
        [ "$b" -le 1500000 ] || fail "$name: kept" "$b bytes, more than were read before the pause"
        grep -q '"new"' "$T/out" && fail "$name: new" "the new profile's samples were read"
    fi
done

# ---- grown, replaced: the file as it was opened ----------------------------
STACKSCOPE_THREADS=1 "$STACKSCOPE" report --by self --format tsv "$T/plain.out" >"$T/whole"
size=$(wc -c <"$T/plain.out")
tail -n 2000 "$T/plain.out" >"$T/more"
for mode in "$SERIAL" "$PARALLEL" "$SERIAL STACKSCOPE_NO_MMAP=1"; do
    cp "$T/plain.out" "$T/copy.out"
    # shellcheck disable=SC2086
    during 1500000 "cat '$T/more' >>'$T/copy.out'" $mode -- report --by self --format tsv "$T/copy.out"
    if [ "$RC" -eq 0 ] && cmp -s "$T/out" "$T/whole" &&
        has "$T/err" "copy.out: grew while being read (it had $size bytes, now $((size + $(wc -c <"$T/more")))): read what it held when it was opened, its first $size bytes"; then
        pass "$mode: grown"
    else
        fail "$mode: grown" "exit $RC: $(head -c 300 "$T/err")"
    fi
    cp "$T/plain.out" "$T/copy.out"
    # shellcheck disable=SC2086
    during 1500000 "cp '$T/ml.out' '$T/new.out' && mv '$T/new.out' '$T/copy.out'" $mode -- \
        report --by self --format tsv "$T/copy.out"
    if [ "$RC" -eq 0 ] && cmp -s "$T/out" "$T/whole" &&
        has "$T/err" "copy.out: replaced or removed while being read: the profile is the file that was there when it was opened"; then
        pass "$mode: replaced"
    else
        fail "$mode: replaced" "exit $RC: $(head -c 300 "$T/err")"
    fi
done

# A folded file whose writer was in the middle of its last line when it was
# opened: that line is left out, not read with half its count.
head -n 3 "$T/f.folded" >"$T/three.folded"
{ cat "$T/three.folded"; printf 'main;f 1'; } >"$T/c.folded"
during 10 "printf '23\\nmain;g 5\\n' >>'$T/c.folded'" -- report --by self --format tsv "$T/c.folded"
"$STACKSCOPE" report --by self --format tsv "$T/three.folded" >"$T/want"
if [ "$PAUSED" = 1 ] && [ "$RC" -eq 0 ] && cmp -s "$T/out" "$T/want" && has "$T/err" "c.folded: grew while being read"; then
    pass "folded: grown in the middle of its last line"
else
    fail "folded: grown in the middle of its last line" "exit $RC: $(head -c 300 "$T/err"; diff "$T/want" "$T/out" | head -5)"
fi

# ---- convert, the explorer -------------------------------------------------
cp "$T/plain.out" "$T/copy.out"
during 1500000 "truncate -s 1500000 '$T/copy.out'" STACKSCOPE_THREADS=2 -- \
    convert -o "$T/conv.folded" "$T/copy.out"
whole_lines "$T/plain.out" 1500000 "$T/want.out"
"$STACKSCOPE" convert -o "$T/want.folded" "$T/want.out" 2>/dev/null
if [ "$RC" -eq 0 ] && cmp -s "$T/conv.folded" "$T/want.folded" && has "$T/err" "copy.out: cut while being read"; then
    pass "convert: cut"
else
    fail "convert: cut" "exit $RC: $(head -c 300 "$T/err")"
fi

cd "$T" || exit 99 # the explorer shows the name given
for mode in "$SERIAL" "$PARALLEL"; do
    cp "$T/plain.out" "$T/copy.out"
    printf ':save-display %s\n:q!\n' "$T/ui.dump" >"$T/ui.script"
    rm -f "$T/ui.dump"
    # shellcheck disable=SC2086
    during 1500000 "truncate -s 1500000 '$T/copy.out'" $mode STACKSCOPE_SCRIPT="$T/ui.script" \
        LC_ALL=C.UTF-8 -- copy.out
    n=$(samples_in "$T/want.out")
    if [ "$RC" -eq 0 ] && has "$T/ui.dump" "copy.out | $n of $n samples" &&
        has "$T/ui.dump" "warning: copy.out: cut while being read (it had $size bytes, now 1500000)"; then
        pass "explorer, ${mode%% *}: cut"
    else
        fail "explorer, ${mode%% *}: cut" "exit $RC: $(head -c 300 "$T/err"; tail -n 3 "$T/ui.dump" 2>/dev/null)"
    fi
done

# ---- formats read whole: an error, exit 2 ----------------------------------
"$STACKSCOPE" convert -o "$T/p.pb.gz" "$T/plain.out" 2>/dev/null
"$STACKSCOPE" convert -o "$T/p.speedscope.json" "$T/plain.out" 2>/dev/null
for f in p.pb.gz p.speedscope.json; do
    for x in 10000 $(($(wc -c <"$T/$f") - 1)); do # a lost page, or only the last one's end
        cp "$T/$f" "$T/c.$f"
        during 5000 "truncate -s $x '$T/c.$f'" -- report --by self "$T/c.$f"
        if [ "$PAUSED" = 1 ] && [ "$RC" -eq 2 ] && [ ! -s "$T/out" ] &&
            [ "$ERR" = "stackscope: $T/c.$f: cut while being read (it had $(wc -c <"$T/$f") bytes, now $x): load it again to read what it holds now" ]; then
            pass "$f: cut to $x"
        else
            fail "$f: cut to $x" "paused $PAUSED, exit $RC: $(head -c 300 "$T/err")"
        fi
    done
done

# v2 tables: every table's rows are needed whole; the first table of more
# than 50000 bytes is the one read when the load pauses
"$STACKSCOPE" convert -o "$T/tb/" "$T/plain.out" 2>/dev/null
during 50000 "for f in '$T'/tb/*.tsv; do [ \$(wc -c <\$f) -le 50001 ] || truncate -s 50001 \$f; done" \
    -- report --by self "$T/tb"
if [ "$PAUSED" = 1 ] && [ "$RC" -eq 2 ] && [ ! -s "$T/out" ] &&
    grep -qE "^stackscope: $T/tb/[a-z_]+\.tsv: cut while being read \(it had [0-9]+ bytes, now 50001\): load it again" "$T/err"; then
    pass "tables: cut"
else
    fail "tables: cut" "paused $PAUSED, exit $RC: $(head -c 300 "$T/err")"
fi

# folded stacks: a line format (the samples: the lines' counts); mapped,
# the lines before the cut are kept
cp "$T/f.folded" "$T/c.folded"
during 3000 "truncate -s 5000 '$T/c.folded'" STACKSCOPE_MMAP=1 -- report --by self --format tsv "$T/c.folded"
whole_lines "$T/f.folded" 5000 "$T/want.folded"
"$STACKSCOPE" report --by self --format tsv "$T/want.folded" >"$T/want"
if [ "$RC" -eq 0 ] && cmp -s "$T/out" "$T/want" &&
    has "$T/err" "c.folded: cut while being read (it had $(wc -c <"$T/f.folded") bytes, now 5000): kept the $(awk '{n += $NF} END {print n}' "$T/want.folded") samples"; then
    pass "folded: cut"
else
    fail "folded: cut" "exit $RC: $(head -c 300 "$T/err")"
fi
# read (the default): the cut comes while the format's detection reads the
# file, whose first read then ends early: a clear error (mapped, above,
# the lines before the cut are kept)
cp "$T/f.folded" "$T/c.folded"
during 3000 "truncate -s 5000 '$T/c.folded'" -- report --by self --format tsv "$T/c.folded"
if [ "$RC" -eq 2 ] && has "$T/err" "c.folded: cut while being read (it had $(wc -c <"$T/f.folded") bytes, now 5000): load it again"; then
    pass "folded, read: cut"
else
    fail "folded, read: cut" "exit $RC: $(head -c 300 "$T/err")"
fi

finish
