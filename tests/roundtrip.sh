#!/bin/bash
# Round trips (issue 19): every file stackscope writes, it reads back.
#
# For every fixture under tests/data (Rprof, pprof, SamplingProf, and the
# folded and tables forms of the Rprof fixtures) and for the hostile inputs
# made below, and for every output format that can hold it, read -> write
# -> read must keep the samples.  What is compared, per output format, and
# why (the reference is always the input as read, never the output):
#
#  rprof, tables          the stacks with their counts and times: `report
#                         --by stacks --format tsv` summed per stack (count,
#                         time to 9 significant digits).  Per stack, not per
#                         row: rows of equal count may come in another order,
#                         and pct is a quotient whose last digit may differ.
#  pprof                  as rprof, but counts only when the input has several
#                         intervals (pprof has one period per profile).
#  folded                 the stacks with their counts: folded has no
#                         interval (1 s per sample) and no positions, so
#                         stacks that differ only by line merge: compared
#                         summed per stack, counts only.
#  speedscope             every sample in order: its stack (names, root
#                         first) and its weight in microseconds (count x
#                         interval, or the exact duration where the input has
#                         one), sample by sample, through a tables copy of
#                         each side (speedscope keeps a sample of count k as
#                         one sample weighing k intervals, so counts are not
#                         compared).
#  sampling_prof          only aggregates: `--by self` exactly (names and
#                         times: a sample has one leaf), and `--by total`
#                         when the input has no line profiling (a total is
#                         kept per call element FILE:LINE:METHOD, so a name
#                         seen at several lines of one stack is counted once
#                         per line: not the total by name).  Inputs with
#                         several intervals compare counts, not times.
#
# A format that cannot hold the input must refuse it with a message (exit
# 1 or 2): SamplingProf's aggregates in a stack format, and what a writer's
# limits refuse (limits.h); a refusal is a skip noted in the log, a crash or
# an unreadable output a failure.  A profile with no frames at all is
# refused by the folded writer (its file would be empty, which no reader
# takes for a profile): that refusal passes.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

LC_ALL=C
export LC_ALL
T=$TMPD
D=$SRCDIR/tests/data

# time_of FILE: "--value time" when FILE has the time measure (the default
# of a pprof file is its default sample type, cpu in ns: compare seconds)
time_of() {
    "$STACKSCOPE" check "$1" 2>/dev/null | grep -qE '^ +measures:.* time(,| |$)' && echo "--value time"
}

# by_stack FILE WITH_TIME: `--by stacks` summed per stack, sorted
by_stack() {
    # shellcheck disable=SC2046
    ss report $(time_of "$1") --by stacks --format tsv "$1" |
        awk -F '\t' -v t="$2" 'NR > 1 { c[$5] += $1; s[$5] += $2 }
            END { for (k in c) if (t) printf "%d\t%.9g\t%s\n", c[k], s[k], k; else printf "%d\t%s\n", c[k], k }' |
        sort
}

# table FILE BY: `--by self|total` rows (name, time), sorted
table() {
    # shellcheck disable=SC2046
    ss report $(time_of "$1") --by "$2" --format tsv "$1" | awk -F '\t' -v by="$2" 'NR > 1 { printf "%s\t%.9g\n", $1, (by == "self" ? $2 : $4) }' | sort
}

# labels FILE: `--by labels` rows (key, value, samples), sorted
labels() {
    ss report --by labels --format tsv "$1" | awk -F '\t' 'NR > 1 { print $1 "\t" $2 "\t" $3 }' | sort
}

# counts FILE BY: as table, times divided by the single interval: counts
counts() {
    local iv
    iv=$(ss report --by sources --format tsv "$1" | awk -F '\t' 'NR == 2 { print $6 }')
    # shellcheck disable=SC2046
    ss report $(time_of "$1") --by "$2" --format tsv "$1" |
        awk -F '\t' -v by="$2" -v iv="$iv" 'NR > 1 { v = int((by == "self" ? $2 : $4) * 1e6 / iv + 0.5); if (v) printf "%s\t%d\n", $1, v }' | sort
}

# sample_rows FILE: every sample in order, from a tables copy of FILE: a
# line "SAMPLE DEPTH NAME" per frame (depth 1 innermost), then a line
# "SAMPLE WEIGHT_US" per sample (the duration value when the sample has one,
# or its source's time column's (meta.tsv), else count x its source's
# interval).  A position without a function (an
# Rprof stack's trailing F#L token) is no frame: speedscope has no place for
# it.  Linear in the frames: no stack is built as one string (a stack may
# have 1,000,000 frames).
sample_rows() {
    local d=$T/rows.tables
    rm -rf "$d"
    ss convert --to tables -o "$d/" "$1" || return 1
    awk -F '\t' '
        FNR == 1 { f++; next }
        f == 1 { if ($1 == "stackscope:time_column") tcol[$3] = $2; next } # meta
        f == 2 { fname[$1] = $2; next }                        # functions
        f == 3 { lfun[$1] = $2; next }                         # locations
        f == 4 { iv[$1] = $7; next }                           # sources
        f == 5 { src[$1] = $2; n = $1 > n ? $1 : n; next }     # samples
        f == 6 { if ($2 == "samples") cnt[$1] = $3; else if ($2 == "duration" || $2 == tcol[src[$1]]) dur[$1] = $3; next }
        f == 7 { if (lfun[$3] != "\\N") print $1 "\t" $2 "\t" fname[lfun[$3]]; next } # sample_locations
        END { for (i = 1; i <= n; i++)
                  printf "%d\t%.9g\n", i, (i in dur) ? dur[i] / 1000 : ((i in cnt) ? cnt[i] : 1) * iv[src[i]] }
    ' "$d/meta.tsv" "$d/functions.tsv" "$d/locations.tsv" "$d/sources.tsv" "$d/samples.tsv" \
        "$d/sample_values.tsv" "$d/sample_locations.tsv"
}

n_skip=0
same() { # NAME FILE_A FILE_B
    if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "$(diff "$2" "$3" | head -n 4 | tr '\n' '|')"; fi
}

# roundtrip NAME INPUT: write INPUT in every format, read each back, compare
# (and, for pprof and tables, the labels when the input has some).
roundtrip() {
    local name=$1 in=$2 w=$T/rt/$1
    mkdir -p "$w"
    if ! ss report --by sources --format tsv "$in" >"$w/src"; then
        fail "$name: read the input" "$ERR"
        return
    fi
    local aggregate=no line=no intervals
    grep -q aggregate "$w/src" && aggregate=yes
    awk -F '\t' 'NR > 1 && $7 ~ /line/ { f = 1 } END { exit !f }' "$w/src" && line=yes
    intervals=$(awk -F '\t' 'NR > 1 { print $6 }' "$w/src" | sort -u | wc -l)
    if [ $aggregate = no ]; then
        by_stack "$in" 1 >"$w/in.stacks"
        by_stack "$in" 0 >"$w/in.counts"
    fi
    labels "$in" >"$w/in.labels"
    # own: the input's samples each have their own time (pprof's per-sample
    # durations, meta.tsv's stackscope:time_column); Rprof and SamplingProf
    # hold count x interval only: counts compared there
    local own=no
    ss convert --to tables -o "$w/own.tables/" "$in" &&
        grep -q '^stackscope:time_column' "$w/own.tables/meta.tsv" && own=yes
    local fmt out
    for fmt in rprof pprof folded sampling_prof tables speedscope; do
        out=$w/out.$fmt
        [ $fmt = tables ] && out=$w/out.tables/
        # folded stacks hold the measure's numbers: counts with --value samples
        local value=
        [ $fmt = folded ] && "$STACKSCOPE" check "$in" 2>/dev/null | grep -qE '^ +measures:.* samples(,| |$)' &&
            value="--value samples"
        # shellcheck disable=SC2086
        if ! ss convert $value --to $fmt -o "$out" "$in"; then
            if [ $aggregate = yes ] && [ $fmt != tables ] && [ $RC -ne 0 ] && [[ $ERR == *"aggregates"* || $ERR == *"stacks"* ]]; then
                n_skip=$((n_skip + 1))
                echo "SKIP $name -> $fmt: cannot hold aggregates ($ERR)"
            elif [ $fmt = folded ] && [ $RC -eq 1 ] && [[ $ERR == *"no sample has frames"* ]] &&
                ! grep -q . "$w/in.counts"; then
                # an empty folded file could not be read back: refused
                pass "$name -> $fmt: no sample has frames: refused, nothing written"
                [ -e "$out" ] && fail "$name -> $fmt: refused but written" "$out exists"
            elif [[ $ERR == *"cannot write"* ]] && { [ $RC -eq 2 ] || [ $RC -eq 1 ]; }; then
                n_skip=$((n_skip + 1))
                echo "SKIP $name -> $fmt: refused by the writer's limits ($ERR)"
            else
                fail "$name -> $fmt: write" "exit $RC: $ERR"
            fi
            continue
        fi
        if ! ss report --by sources --format tsv "$out" >/dev/null; then
            fail "$name -> $fmt: read back" "$ERR"
            continue
        fi
        if [ $aggregate = yes ]; then
            # Only tables and sampling_prof get here: compare the aggregates.
            table "$in" self >"$w/a.self"
            table "$out" self >"$w/b.self"
            same "$name -> $fmt -> read: self" "$w/a.self" "$w/b.self"
            table "$in" total >"$w/a.total"
            table "$out" total >"$w/b.total"
            same "$name -> $fmt -> read: total" "$w/a.total" "$w/b.total"
            continue
        fi
        case $fmt in
        pprof)
            # pprof holds one period: with several intervals, counts only.
            if [ "$intervals" -eq 1 ]; then
                by_stack "$out" 1 >"$w/out.stacks"
                same "$name -> $fmt -> read: stacks, counts, times" "$w/in.stacks" "$w/out.stacks"
            else
                by_stack "$out" 0 >"$w/out.counts"
                same "$name -> $fmt -> read: stacks and counts (several intervals)" "$w/in.counts" "$w/out.counts"
            fi
            ;;
        rprof | tables)
            if [ $fmt = rprof ] && [ $own = yes ]; then
                by_stack "$out" 0 >"$w/out.counts"
                same "$name -> $fmt -> read: stacks and counts (samples of their own times)" "$w/in.counts" "$w/out.counts"
            else
                by_stack "$out" 1 >"$w/out.stacks"
                same "$name -> $fmt -> read: stacks, counts, times" "$w/in.stacks" "$w/out.stacks"
            fi
            ;;
        esac
        # pprof and tables hold labels (the others have no room for them)
        case $fmt in
        pprof | tables)
            if [ -s "$w/in.labels" ]; then
                labels "$out" >"$w/out.labels"
                same "$name -> $fmt -> read: labels" "$w/in.labels" "$w/out.labels"
            fi
            ;;
        speedscope)
            sample_rows "$in" >"$w/in.rows"
            sample_rows "$out" >"$w/out.rows"
            same "$name -> $fmt -> read: every sample in order, its stack and weight" "$w/in.rows" "$w/out.rows"
            ;;
        folded)
            by_stack "$out" 0 >"$w/out.counts"
            same "$name -> $fmt -> read: stacks and counts" "$w/in.counts" "$w/out.counts"
            ;;
        sampling_prof)
            local bys=self
            [ $line = no ] && bys="self total"
            for by in $bys; do
                if [ "$intervals" -eq 1 ] && [ $own = no ]; then
                    table "$in" $by >"$w/a.$by"
                    table "$out" $by >"$w/b.$by"
                else
                    # several intervals or samples of their own times:
                    # SamplingProf has one interval; compare counts
                    ss report --by stacks --format tsv "$in" |
                        awk -F '\t' -v by=$by 'NR > 1 { n = split($5, f, ";"); if (by == "self") { if (n) c[f[n]] += $1 } else { delete seen; for (i = 1; i <= n; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; c[f[i]] += $1 } } }
                            END { for (k in c) printf "%s\t%d\n", k, c[k] }' | sort >"$w/a.$by"
                    counts "$out" $by >"$w/b.$by"
                fi
                same "$name -> $fmt -> read: $by" "$w/a.$by" "$w/b.$by"
            done
            ;;
        esac
    done
}

# ---- the fixtures ---------------------------------------------------------------
for f in "$D"/rprof/*.out "$D"/edge-cases/*.out "$D"/peers/profile-pkg/*.out \
    "$D"/pprof/*/*.pb.gz "$D"/sampling_prof/*.txt; do
    name=${f#"$D"/}
    name=${name//\//_}
    # A heap profile's measures (inuse_space, ...) are neither time nor
    # samples: Rprof, folded and SamplingProf cannot hold them, and the
    # comparisons below are by time or count (pprof.sh and measures.sh check
    # heap profiles by their measures).
    if [ "$name" = pprof_go_heap.pb.gz ]; then
        echo "NOTE $name: a heap profile, compared by its measures in pprof.sh and measures.sh"
        continue
    fi
    # Files that are bad input on purpose are not round-tripped.
    ss report --by sources --format tsv "$f" >/dev/null || {
        echo "NOTE $name: not loadable ($ERR)"
        continue
    }
    roundtrip "$name" "$f"
done
# folded and tables inputs: the Rprof fixtures in those formats.
for f in "$D"/rprof/*.out; do
    name=${f##*/}
    name=${name%.out}
    ss convert --to folded -o "$T/$name.folded" "$f" && [ -s "$T/$name.folded" ] &&
        roundtrip "$name.folded" "$T/$name.folded"
    ss convert --to tables -o "$T/$name.tables/" "$f" && roundtrip "$name.tables" "$T/$name.tables"
done

# ---- hostile inputs -------------------------------------------------------------
H='sample.interval=20000'
# A control character in a name (and ESC sequences), starting with a byte
# that is a valid protobuf tag.
printf '%s\n"a\001b" "java" \n"\033[2J\033]0;x\007" "java" \n"a\001b" "java" \n' "$H" >"$T/ctl.out"
roundtrip control-chars "$T/ctl.out"
# A name of 1,000,000 bytes (legal in Rprof: its line stays under 1 MiB).
{ echo "$H"; printf '"'; head -c 1000000 /dev/zero | tr '\0' n; printf '" "main" \n"f" "main" \n'; } >"$T/big-name.out"
roundtrip one-mb-name "$T/big-name.out"
# 100,000 frames in one stack (the readers' limit).
{ echo "$H"; awk 'BEGIN { for (i = 100000; i >= 1; i--) printf "\"f%d\" ", i % 7; print "" }'; echo '"g" "f1" '; } >"$T/deep.out"
roundtrip 100000-frames "$T/deep.out"
# 100,000 frames of long names (Go-like, 45 bytes): a 4.7 MB line in Rprof
# and folded, over the old 1 MiB line limit, written and read back in every
# format (a line of a regular file is limited only by the file's size).
deep_long() { # FILE
    {
        echo "$H"
        awk 'BEGIN { for (i = 100000; i >= 1; i--) printf "\"github.com/org/pkg/sub.(*Type).method_%06d\" ", i % 5000; print ""
                     for (k = 0; k < 3; k++) print "\"g\" \"main\" " }'
    } >"$1"
}
deep_long "$T/deep-long.out"
sz=$(sed -n 2p "$T/deep-long.out" | wc -c)
if [ "$sz" -gt $((4 << 20)) ]; then pass "deep profile: its stack line is $sz bytes"; else fail "deep profile: line of $sz bytes" "expected over 4 MiB"; fi
roundtrip 100000-long-frames "$T/deep-long.out"
# The deep line, hand-checked: 100,000 frames, 5,000 distinct names of
# 20 frames each, the leaf method_000001 (100,000 % 5,000 is 0, so the
# outermost frame is method_000000).
ss check "$T/deep-long.out" >"$T/deep.check"
if grep -q 'deepest 100000 frames' "$T/deep.check" && grep -q 'functions: 5002' "$T/deep.check"; then
    pass "deep profile: 100000 frames, 5002 functions"
else
    fail "deep profile: check" "$(tr '\n' '|' <"$T/deep.check") $ERR"
fi
# Each writer's file of it, read back through a pipe (no mmap, no size):
# still under the 256 MiB limit of a line from a pipe.
for fmt in rprof folded; do
    ss convert --to $fmt -o "$T/deep-long.$fmt" "$T/deep-long.out"
    by_stack "$T/deep-long.$fmt" 0 >"$T/deep.file.counts"
    ss report --by stacks --format tsv <(cat "$T/deep-long.$fmt") |
        awk -F '\t' 'NR > 1 { c[$5] += $1 } END { for (k in c) printf "%d\t%s\n", c[k], k }' | sort >"$T/deep.pipe.counts"
    if [ -s "$T/deep.pipe.counts" ] && cmp -s "$T/deep.file.counts" "$T/deep.pipe.counts"; then
        pass "deep profile: $fmt read back through a pipe"
    else
        fail "deep profile: $fmt through a pipe" "$ERR"
    fi
done
# A stack of 1,000,000 frames (every reader's limit, limits.h) is written
# and read back; the readers refuse 1,000,001.
{ echo "$H"; awk 'BEGIN { for (i = 1000000; i >= 1; i--) printf "\"f%d\" ", i % 3; print "" }'; } >"$T/million.out"
roundtrip 1000000-frames "$T/million.out"
{ echo "$H"; awk 'BEGIN { for (i = 1000001; i >= 1; i--) printf "\"f%d\" ", i % 3; print "" }'; } >"$T/million1.out"
ss check "$T/million1.out" >/dev/null
if [ $RC -eq 2 ] && [[ $ERR == *"million1.out:2:"*"more than 1000000 frames in one sample"* ]]; then
    pass "1,000,001 frames: refused at line 2"
else
    fail "1,000,001 frames" "exit $RC: $ERR"
fi
# A folded file whose first line is far over 64 KiB (1,300 long names).
awk 'BEGIN { for (i = 1; i <= 1300; i++) printf "%sgithub.com/org/pkg/sub.(*Type).method_%04d_%030d", (i > 1 ? ";" : ""), i, 0; print " 5"; print "main;g 1" }' >"$T/long-first.folded"
roundtrip long-first-line "$T/long-first.folded"
# Counts of one stack that add up past 10^15, the most a folded line holds:
# the folded writer splits the sum over lines (it wrote one line of 2e15,
# which no reader took).
printf 'a;b 1000000000000000\na;c 1\na;b 1000000000000000\n' >"$T/big-sum.folded"
roundtrip count-over-1e15 "$T/big-sum.folded"
ss convert --to folded -o "$T/big-sum.back.folded" "$T/big-sum.folded"
got=$(tr '\n' '|' <"$T/big-sum.back.folded")
[ "$got" = "a;b 1000000000000000|a;b 1000000000000000|a;c 1|" ] &&
    pass "folded: a sum of 2e15 written as two lines" || fail "folded: a sum of 2e15" "got '$got' $ERR"
# A one-line folded file that starts with a number.
printf '123;456 5\n' >"$T/number.folded"
roundtrip number-first "$T/number.folded"

# SamplingProf elements are FILE:LINE:METHOD, split at the first
# ":DIGITS:": a file name holding one, or ending in ":DIGITS", is refused
# (it was written and read back as file "a", line 12, method "b.R:3:f";
# found by fuzz_write).
for file in 'a:12:b.R' 'x.R:7'; do
    printf 'line profiling: sample.interval=20000\n#File 1: %s\n1#3 "f" \n"g" \n' "$file" >"$T/colon.out"
    ss convert --to sampling_prof -o "$T/colon.sprof.txt" "$T/colon.out"
    if [ $RC -eq 2 ] && [[ $ERR == *"file name '$file' holds ':DIGITS:'"* ]] && [ ! -e "$T/colon.sprof.txt" ]; then
        pass "SamplingProf: file name '$file' refused"
    else
        fail "SamplingProf: file name '$file'" "exit $RC: $ERR"
    fi
done
printf 'line profiling: sample.interval=20000\n#File 1: a:b::1.R\n1#3 "f::g:1:" \n' >"$T/colon-ok.out"
roundtrip colons-not-a-line "$T/colon-ok.out"

# Outputs over what their readers take (1 GiB: a pprof profile before
# compression, a JSON text) are refused, with --force too, before anything
# is left: a tables directory with one stack of 1,000,000 frames of one
# location (pprof: 1 byte per frame; speedscope: "0," 2 bytes per frame)
# and 1,100 samples of it: 1.1e9 and 2.2e9 bytes, over 2^30 = 1,073,741,824.
big=$T/gib
ss convert -o "$big/" "$T/million.out"
awk 'BEGIN { print "stack_id\tdepth\tlocation_id"; for (i = 1; i <= 1000000; i++) print "1\t" i "\t1" }' >"$big/stacks.tsv"
awk 'BEGIN { print "sample_id\tsource_id\tstack_id"; for (i = 1; i <= 1100; i++) print i "\t1\t1" }' >"$big/samples.tsv"
printf 'sample_id\ttype\tvalue\n' >"$big/sample_values.tsv"
rm -f "$big/sample_locations.tsv"
printf 'location_id\tfunction_id\tfile\tline\n1\t1\t\\N\t0\n' >"$big/locations.tsv"
printf 'function_id\tname\tsystem_name\tfilename\tstart_line\tclass\n1\tf\tf\t\\N\t0\t\\N\n' >"$big/functions.tsv"
got=$(ss report --by stacks --format tsv "$big" | awk -F '\t' 'NR == 2 { print $1, $4 }')
[ "$got" = "1100 1000000" ] && pass "1 GiB: the input holds 1100 samples of 1,000,000 frames" ||
    fail "1 GiB: the input" "got '$got' $ERR"
mkdir -p "$T/gib-out"
for o in big.pb.gz big.speedscope.json; do
    ss convert --force -o "$T/gib-out/$o" "$big"
    left=$(ls -A "$T/gib-out")
    if [ $RC -eq 1 ] && [[ $ERR == *"$o: the "*"would be more than "*"MiB"*"reader"*"take"* ]] && [ -z "$left" ]; then
        pass "1 GiB: $o refused, nothing left"
    else
        fail "1 GiB: $o" "exit $RC, left '$left': $ERR"
    fi
done

echo "$n_skip format pairs refused by design (see SKIP lines)"
finish
