#!/bin/bash
# Formats (stackscope(1), FORMATS): the Rprof, folded and v2-tables writers and
# readers, and several inputs in one profile, checked against references
# that do not come from stackscope:
#
#  1. Rprof -> Rprof on every fixture (tests/data/rprof, edge-cases and the
#     R profile package's files in tests/data/peers/profile-pkg):
#     - the sample sequence is identical: tests/oracle/rprof_lines.awk lists
#       each file's headers and samples (memory prefix, names, positions
#       with their #File paths resolved) without stackscope, and the input's
#       list must equal the output's (blank lines, a cut-off last line and
#       the profile package's '#File : ' line are left out of the input's, as
#       documented);
#     - R's summaryRprof (by.self, by.total; lines = "show" with line
#       profiling; memory = "both" with memory profiling) is identical() on
#       the output and on the input, one session at a time
#       (tests/oracle/rprof_same.R);
#     - writing the output again gives the same bytes;
#     - a transformed profile written as Rprof reads back with the same
#       self, total, line and memory tables as the transformed profile.
#  2. Folded stacks: the writer's lines equal the independent parser's
#     stacks (NAME.indep/stacks.tsv); reading them back gives the same lines;
#     per-function counts equal the independent counts; hand-made files
#     (CRLF, tabs, trailing blanks, count 0, huge counts) give hand-computed
#     numbers; folded -> Rprof is read by R with the same counts.
#  3. v2 tables: tables -> Rprof gives the same bytes as the direct
#     conversion; tables -> tables is the same directory; `report --by
#     sources` is unchanged; R loads the tables with the man page's lines
#     (taken from man/stackscope.1) and computes the same self and total
#     times as `report --by self` (tests/oracle/tables_check.R); odd strings
#     survive the escaping; SamplingProf's aggregates survive too.
#  4. Rprof + folded + tables in one run: one source each, sessions kept,
#     counts and times add up.
#
# The R profile package (CRAN `profile`) is not installed here (not in
# Debian, and CRAN cannot be reached), so its read_rprof() is not run on our
# output; instead the files its write_rprof() wrote (copied into
# tests/data/peers/profile-pkg/) must load with the right counts (here and in
# tests/oracle.sh against the independent parser).
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

LC_ALL=C
export LC_ALL
T=$TMPD
D=$SRCDIR/tests/data
O=$SRCDIR/tests/oracle
TAB=$'\t'

use_r=no
if [ -n "${STACKSCOPE_NO_R:-}" ]; then
    echo "SKIP R comparisons: STACKSCOPE_NO_R is set"
elif have Rscript; then
    use_r=yes
else
    echo "SKIP R comparisons: Rscript not found"
fi

# cut_flag FILE: 1 when FILE does not end with a line end
cut_flag() {
    case $(tail -c 1 "$1" | od -An -tx1 | tr -d ' \n') in
    0a | 0d | "") echo 0 ;;
    *) echo 1 ;;
    esac
}

lines() { # MODE FILE [awk args]: rprof_lines.awk on FILE
    local mode=$1 f=$2
    shift 2
    awk -v mode="$mode" -v cut="$(cut_flag "$f")" "$@" -f "$O/rprof_lines.awk" "$f" "$f"
}

fixtures=("$D"/rprof/*.out "$D"/edge-cases/*.out "$D"/peers/profile-pkg/*.out)

# ---- 1. Rprof -> Rprof ------------------------------------------------------
: >"$T/rsame.list"
for f in "${fixtures[@]}"; do
    name=${f%.out}
    name=${name##*/}
    label=$(basename "$(dirname "$f")")/$name
    w=$T/rp/$label
    mkdir -p "$w"
    if ! ss check "$f" >/dev/null; then
        case $label in
        edge-cases/zero_bytes) pass "rprof $label (rejected as documented: ${ERR#stackscope: })" ;;
        profile-pkg/incomplete)
            # lines cut in the middle on purpose, not only the last one: bad input
            if [ "$RC" -eq 2 ] && [[ $ERR == *"$f:8:"* ]]; then
                pass "rprof $label (rejected: ${ERR#stackscope: })"
            else
                fail "rprof $label" "expected exit 2 naming $f:8:, got $RC: $ERR"
            fi ;;
        *) fail "rprof $label" "does not load: $ERR" ;;
        esac
        continue
    fi
    if ! ss convert -o "$w/a.out" "$f" || ! ss convert -o "$w/b.out" "$w/a.out"; then
        fail "rprof $label" "convert failed: $ERR"
        continue
    fi
    cmp -s "$w/a.out" "$w/b.out"
    check "rprof idempotent $label" "$([ $? -eq 0 ] || echo "writing the output again changes it: $(cmp "$w/a.out" "$w/b.out")")"
    lines samples "$f" >"$w/in.samples"
    lines samples "$w/a.out" >"$w/out.samples"
    if cmp -s "$w/in.samples" "$w/out.samples"; then
        pass "rprof samples $label ($(grep -vc '^H ' "$w/in.samples") samples)"
    else
        fail "rprof samples $label" "$(diff "$w/in.samples" "$w/out.samples" | head -n 4 | cut -c 1-200 | tr '\n' '|')"
    fi
    # one file per session for R
    lines split "$f" -v prefix="$w/in." >/dev/null
    lines split "$w/a.out" -v prefix="$w/out." >/dev/null
    for s in "$w"/in.*; do
        [ "$s" = "$w/in.samples" ] && continue
        k=${s##*.}
        printf '%s\t%s\t%s\n' "$label/session$k" "$s" "$w/out.$k" >>"$T/rsame.list"
    done
done
if [ $use_r = yes ]; then
    Rscript "$O/rprof_same.R" "$T/rsame.list" >"$T/rsame.out" 2>&1
    while IFS= read -r l; do
        case $l in
        PASS\ *) pass "rprof R ${l#PASS }" ;;
        FAIL\ *) l=${l#FAIL }; fail "rprof R ${l%%: *}" "${l#*: }" ;;
        *) fail "rprof R" "$l" ;;
        esac
    done <"$T/rsame.out"
fi

# The profile package's files are its reading of these fixtures: the stacks
# it kept must be ours.  (It drops memory data and merges sessions; on
# memory.out and quirky_names.out it mangles stacks, so those two are
# checked against the independent parser only, in tests/oracle.sh.)
for n in append_two_sessions gc line plain_default; do
    ss report --by stacks --format folded "$D/rprof/$n.out" >"$T/pk.a"
    ss report --by stacks --format folded "$D/peers/profile-pkg/$n.profilepkg.out" >"$T/pk.b"
    cmp -s "$T/pk.a" "$T/pk.b"
    check "profile-pkg $n: same stacks and counts as rprof/$n.out" \
        "$([ $? -eq 0 ] || diff "$T/pk.a" "$T/pk.b" | head -n 3 | cut -c 1-160 | tr '\n' '|')"
done

# Transformed profiles (synthetic frames, merged, trimmed, dropped samples)
# written as Rprof read back as the transformed profile.
for n in line memory_line mem_gc_line; do
    f=$D/rprof/$n.out
    for t in 'merge eval' 'trim-base auto' 'replace eval eval => "<eval_eval>"' \
        'collapse-recursion cmp' 'drop-samples 1:10' 'focus /^cmp/'; do
        why=
        rm -f "$T/tr.out"
        if ! ss convert -e "$t" -o "$T/tr.out" "$f"; then
            fail "rprof of transformed $n [$t]" "$ERR"
            continue
        fi
        for by in self total line memory; do
            opts="--by $by"
            if [ $by = memory ]; then
                head -n 1 "$f" | grep -q '^memory' || continue
                # a transform that removes samples: each kept sample keeps
                # its bytes (against the line recorded before it), but the
                # written file holds the kept lines' counters only, so read
                # back it differences each kept line against the previous
                # kept one (README, man page); transforms.sh checks both
                # against awk
                case $t in drop-samples* | focus*) continue ;; esac
                opts="--by self --memory"
            fi
            # shellcheck disable=SC2086
            ss report $opts --format tsv -e "$t" "$f" >"$T/tr.a"
            # shellcheck disable=SC2086
            ss report $opts --format tsv "$T/tr.out" >"$T/tr.b"
            cmp -s "$T/tr.a" "$T/tr.b" || why="$why $opts differs;"
        done
        check "rprof of transformed $n [$t]" "$why"
    done
done

# ---- 2. folded ----------------------------------------------------------------
for f in "$D"/rprof/*.out "$D"/edge-cases/*.out; do
    name=${f%.out}
    name=${name##*/}
    indep=${f%.out}.indep
    w=$T/fo/$name
    mkdir -p "$w"
    # the independent stacks: 'stack<TAB>count', root first, ';'-joined
    awk -F '\t' 'NR > 1 { print $1 " " $2 }' "$indep/stacks.tsv" | sort >"$w/indep"
    if ! ss convert -o "$w/x.folded" "$f"; then
        # a profile with no stack at all is refused: its file would be empty
        # (an empty input file is refused as input already)
        check "folded write $name: refused, no sample has frames" \
            "$([ ! -s "$w/indep" ] && [ ! -e "$w/x.folded" ] &&
                { { [ "$RC" -eq 1 ] && [[ $ERR == *"no sample has frames"* ]]; } ||
                    { [ "$RC" -eq 2 ] && [[ $ERR == *"empty file"* ]]; }; } || echo "exit $RC: $ERR")"
        continue
    fi
    sort "$w/x.folded" >"$w/ours"
    cmp -s "$w/ours" "$w/indep"
    check "folded write $name" "$([ $? -eq 0 ] || diff "$w/ours" "$w/indep" | head -n 3 | cut -c 1-160 | tr '\n' '|')"
    ss report --by stacks --format folded "$f" | cmp -s - "$w/x.folded"
    check "folded = report --by stacks --format folded: $name" "$([ $? -eq 0 ] || echo differ)"
    [ -s "$w/x.folded" ] || continue
    ss report --by stacks --format folded "$w/x.folded" >"$w/back"
    cmp -s "$w/back" "$w/x.folded"
    check "folded read back $name" "$([ $? -eq 0 ] || diff "$w/back" "$w/x.folded" | head -n 3 | cut -c 1-160 | tr '\n' '|')"
    # counts: time = count (interval 1 s); names with ';' split on reading
    if awk -F '\t' 'NR > 1 && index($1, ";") { bad = 1 } END { exit !bad }' "$indep/functions.tsv"; then
        continue
    fi
    ss report --by self --format tsv "$w/x.folded" | awk -F '\t' 'NR > 1 { printf "%s\t%.0f\t%.0f\n", $1, $2, $4 }' | sort >"$w/cnt.ours"
    awk -F '\t' 'NR > 1 && $3 > 0 { print $1 "\t" $2 "\t" $3 }' "$indep/functions.tsv" | sort >"$w/cnt.indep"
    cmp -s "$w/cnt.ours" "$w/cnt.indep"
    check "folded counts $name" "$([ $? -eq 0 ] || diff "$w/cnt.ours" "$w/cnt.indep" | head -n 3 | tr '\n' '|')"
done

# Hand-made: CRLF, a tab before the count, trailing blanks, a blank line,
# a name with spaces and one starting with '#', a count of 0.
printf 'main;f;g 3\r\nmain;f\t2  \r\n\r\nmain;h h 1\r\n#x;main 4\r\nmain;f 0\r\n' >"$T/hand.folded"
ss report --by self --format tsv "$T/hand.folded" >"$T/hand.self"
# self: g 3, f 2, 'h h' 1, main 4 (leaf of '#x;main'); total: main 10, f 5,
# #x 4, g 3, 'h h' 1; the count-0 line adds nothing (a warning).
got=$(awk -F '\t' 'NR > 1 { printf "%s=%s/%s ", $1, $2, $4 }' "$T/hand.self" | tr -s ' ')
want="main=4/10 g=3/3 f=2/5 h h=1/1 #x=0/4 "
check "folded hand-made counts" "$([ "$got" = "$want" ] || echo "got '$got', want '$want'")"
check "folded count-0 warning" "$([[ $ERR == *"hand.folded:6:"*"count 0"* ]] || echo "no warning naming line 6: $ERR")"
ss report --by sources --format tsv "$T/hand.folded" >"$T/hand.src"
got=$(awk -F '\t' 'NR == 2 { print $2, $4, $6, $7, $8 }' "$T/hand.src")
check "folded source" "$([ "$got" = "folded 1 1000000 untimed 10" ] || echo "got '$got'")"
# 10^15 is the largest count; the Rprof writer refuses a billion lines
printf 'a;b 1000000000000000\n' >"$T/huge.folded"
ss report --by self --format tsv "$T/huge.folded" >"$T/huge.self"
check "folded count 10^15" "$([ "$(awk -F '\t' 'NR == 2 { printf "%.0f", $2 }' "$T/huge.self")" = 1000000000000000 ] || echo "got $(cat "$T/huge.self") $ERR")"
ss convert -o "$T/huge.out" "$T/huge.folded"
check "rprof writer refuses 10^15 lines" "$([ "$RC" -eq 1 ] && [[ $ERR == *"more than 1000000000"* ]] && [ ! -e "$T/huge.out" ] || echo "exit $RC: $ERR")"

# folded -> Rprof: a count of k is k lines; R's summaryRprof reads them
# with interval 1 s, so times are the counts (hand-computed above).
if ss convert -o "$T/hand.out" "$T/hand.folded"; then
    got=$(grep -c '^"g" "f" "main" $' "$T/hand.out")
    check "folded -> rprof: count 3 is 3 lines" "$([ "$got" = 3 ] || echo "got $got")"
    if [ $use_r = yes ]; then
        got=$(Rscript -e 'x <- summaryRprof(commandArgs(TRUE)[1]); s <- x$by.self; t <- x$by.total
                          cat(x$sample.interval, x$sampling.time, s["\"g\"", "self.time"], s["\"f\"", "self.time"],
                              s["\"main\"", "self.time"], t["\"main\"", "total.time"], t["\"#x\"", "total.time"], "\n")' "$T/hand.out" 2>&1)
        check "folded -> rprof read by R" "$([ "$got" = "1 10 3 2 4 10 4 " ] || echo "R says: $got")"
    fi
else
    fail "folded -> rprof" "$ERR"
fi

# ---- 3. v2 tables --------------------------------------------------------------
: >"$T/tables.list"
for f in "$D"/rprof/*.out "$D"/edge-cases/*.out "$D"/peers/profile-pkg/1.out "$T/hand.folded"; do
    name=${f%.*}
    name=${name##*/}
    w=$T/tb/$name
    mkdir -p "$w"
    ss convert -o "$w/direct.out" "$f" || continue
    if ! ss convert -o "$w/t/" "$f"; then
        fail "tables write $name" "$ERR"
        continue
    fi
    if ! ss convert -o "$w/back.out" "$w/t"; then
        fail "tables read $name" "$ERR"
        continue
    fi
    cmp -s "$w/back.out" "$w/direct.out"
    check "tables -> rprof = rprof: $name" "$([ $? -eq 0 ] || cmp "$w/back.out" "$w/direct.out")"
    ss convert -o "$w/t2" --to tables "$w/t"
    diff -r "$w/t" "$w/t2" >/dev/null
    check "tables -> tables $name" "$([ $? -eq 0 ] || diff -r "$w/t" "$w/t2" | head -n 3 | tr '\n' '|')"
    ss report --by sources --format tsv "$f" >"$w/src.a"
    ss report --by sources --format tsv "$w/t" >"$w/src.b"
    cmp -s "$w/src.a" "$w/src.b"
    check "tables keep sources $name" "$([ $? -eq 0 ] || diff "$w/src.a" "$w/src.b" | head -n 3 | tr '\n' '|')"
    ss report --by self --format tsv "$w/t" >"$w/self.tsv"
    printf '%s\t%s\t%s\n' "$name" "$w/t" "$w/self.tsv" >>"$T/tables.list"
done
if [ $use_r = yes ]; then
    # the R lines of the man page, groff escapes undone
    sed -n '/R-load-begin/,/R-load-end/p; /R-self-begin/,/R-self-end/p' "$SRCDIR/man/stackscope.1" |
        grep -v '^\.' | sed 's/\\e/\\/g' >"$T/man.R"
    Rscript "$O/tables_check.R" "$T/tables.list" "$T/man.R" >"$T/tables.out" 2>&1
    while IFS= read -r l; do
        case $l in
        PASS\ *) pass "tables in R: ${l#PASS }" ;;
        FAIL\ *) l=${l#FAIL }; fail "tables in R: ${l%%: *}" "${l#*: }" ;;
        *) fail "tables in R" "$l" ;;
        esac
    done <"$T/tables.out"
fi

# SamplingProf (aggregates, no stacks): the tables keep the counts and the
# call graph; reports and the SamplingProf writer see the same profile.
for f in "$D"/sampling_prof/*.txt; do
    case $f in *workload.rb.txt) continue ;; esac
    name=${f##*/}
    name=${name%.txt}
    w=$T/sp/$name
    mkdir -p "$w"
    if ! ss convert -o "$w/t/" "$f"; then
        fail "tables of SamplingProf $name" "$ERR"
        continue
    fi
    why=
    for by in self total line sources; do
        ss report --by $by --format tsv "$f" >"$w/a.$by"
        ss report --by $by --format tsv "$w/t" >"$w/b.$by"
        cmp -s "$w/a.$by" "$w/b.$by" || why="$why --by $by differs;"
    done
    ss convert -o "$w/a.sprof.txt" "$f"
    ss convert -o "$w/b.sprof.txt" "$w/t"
    cmp -s "$w/a.sprof.txt" "$w/b.sprof.txt" || why="$why written back as SamplingProf it differs;"
    check "tables of SamplingProf $name" "$why"
done

# A tab and backslashes in names (a newline cannot come from a folded file):
# escaped in functions.tsv as \t and \\, read back unchanged.
printf 'main;a\\b;c\td 2\nmain;x\\\\ 1\n' >"$T/esc.folded"
if ss convert -o "$T/esc/" "$T/esc.folded"; then
    got=$(awk -F '\t' 'NR > 1 { print $2 }' "$T/esc/functions.tsv" | tr '\n' '|')
    want='main|a\\b|c\td|x\\\\|'
    check "tables escaping" "$([ "$got" = "$want" ] || echo "names '$got', want '$want'")"
    ss report --by stacks --format folded "$T/esc" >"$T/esc.back"
    ss report --by stacks --format folded "$T/esc.folded" >"$T/esc.orig"
    cmp -s "$T/esc.back" "$T/esc.orig"
    check "tables escaping read back" "$([ $? -eq 0 ] || diff "$T/esc.back" "$T/esc.orig" | tr '\n' '|')"
else
    fail "tables escaping" "$ERR"
fi

# ---- 4. several inputs ------------------------------------------------------------
a=$D/rprof/append_two_sessions.out
b=$T/hand.folded
c=$T/tb/memory/t
ss report --by sources --format tsv "$a" "$b" "$c" >"$T/multi.src"
# append_two_sessions: 2 sessions (independent sessions.tsv), the folded
# file (10), the tables of memory.out (1 session, its original path)
{
    awk -F '\t' -v f="$a" 'NR > 1 { print "rprof", f, $1, $3, $7 }' "$D/rprof/append_two_sessions.indep/sessions.tsv"
    echo "folded $b 1 1000000 10"
    awk -F '\t' -v f="$D/rprof/memory.out" 'NR > 1 { print "rprof", f, $1, $3, $7 }' "$D/rprof/memory.indep/sessions.tsv"
} >"$T/multi.want"
awk -F '\t' 'NR > 1 { print $2, $3, $4, $6, $8 }' "$T/multi.src" >"$T/multi.got"
cmp -s "$T/multi.got" "$T/multi.want"
check "several inputs: one source per file and session" "$([ $? -eq 0 ] || diff "$T/multi.got" "$T/multi.want" | tr '\n' '|')"
# combined self and total time = the sum of each input's (the folded file
# with an interval: without one it is untimed, and weighs 0 under time)
for x in "$a" "$b" "$c"; do ss report --interval 1s --by self --format tsv "$x"; done |
    awk -F '\t' '$1 != "name" { s[$1] += $2; t[$1] += $4 } END { for (k in s) printf "%s\t%.9f\t%.9f\n", k, s[k], t[k] }' |
    sort >"$T/multi.sum"
ss report --interval 1s --by self --format tsv "$a" "$b" "$c" |
    awk -F '\t' 'NR > 1 { printf "%s\t%.9f\t%.9f\n", $1, $2, $4 }' | sort >"$T/multi.self"
cmp -s "$T/multi.self" "$T/multi.sum"
check "several inputs: self and total add up" "$([ $? -eq 0 ] || diff "$T/multi.self" "$T/multi.sum" | head -n 4 | tr '\n' '|')"
# and they write out as one Rprof file with a session per source
if ss convert -o "$T/multi.out" "$a" "$b" "$c"; then
    got=$(grep -c 'sample.interval=' "$T/multi.out")
    check "several inputs -> rprof: 4 sessions" "$([ "$got" = 4 ] || echo "got $got headers")"
    ss report --by sources --format tsv "$T/multi.out" | awk -F '\t' 'NR > 1 { print $6, $7, $8 }' >"$T/multi.back"
    # (Rprof has no untimed sessions: the folded file comes back timed, 1 s)
    awk -F '\t' 'NR > 1 { f = $7; sub(/^untimed$/, "-", f); sub(/\+untimed$/, "", f); print $6, f, $8 }' "$T/multi.src" >"$T/multi.orig"
    cmp -s "$T/multi.back" "$T/multi.orig"
    check "several inputs -> rprof keeps intervals, flags, counts" "$([ $? -eq 0 ] || diff "$T/multi.back" "$T/multi.orig" | tr '\n' '|')"
else
    fail "several inputs -> rprof" "$ERR"
fi

# ---- 5. detection by structure ----------------------------------------------------
# The format is told by structure, never by a window of the first bytes:
# a folded file is folded whatever its names hold and however long its first
# line; text is never taken for raw protobuf; when nothing fits, the message
# names every format tried.

src_of() { # FILE: "TYPE SAMPLES" (the sum of the counts) from --by sources
    ss report --by sources --format tsv "$1" | awk -F '\t' 'NR == 2 { print $2, $8 }'
}
expect_src() { # NAME FILE "TYPE SAMPLES"
    local got
    got=$(src_of "$2")
    check "$1" "$([ "$got" = "$3" ] || echo "got '$got' (exit $RC: $ERR), expected '$3'")"
}

# Names with control characters; first bytes that are valid protobuf tags
# ('j', 'Z', '2', '*', '"').
printf 'java;foo\001 1\n' >"$T/ctl.folded"
expect_src "sniff: folded with a control byte, starting 'j'" "$T/ctl.folded" "folded 1"
printf 'Zend;x\002\033[2J 3\nZend 2\n' >"$T/ctl2.folded"
expect_src "sniff: folded with ESC and \\002, starting 'Z'" "$T/ctl2.folded" "folded 5"
printf '2\001;f 4\n' >"$T/ctl3.folded"
expect_src "sniff: folded starting '2' then \\001" "$T/ctl3.folded" "folded 4"
printf '"q\001";*x 4\n' >"$T/ctl4.folded"
expect_src "sniff: folded starting '\"'" "$T/ctl4.folded" "folded 4"
# A one-line folded file that starts with a number.
printf '123 5\n' >"$T/num.folded"
expect_src "sniff: one-line folded starting with a number" "$T/num.folded" "folded 5"
ss report --by stacks --format folded "$T/num.folded" >"$T/num.back"
check "sniff: '123 5' is the stack 123, count 5" "$([ "$(cat "$T/num.back")" = "123 5" ] || cat "$T/num.back")"

# A first line far longer than 64 KiB: 1,300 frames of 70-byte names, the
# most frequent stack first, as the folded writer puts it.
awk 'BEGIN { for (i = 1; i <= 1300; i++) printf "%sgithub.com/org/pkg/sub.(*Type).method_%04d_%030d", (i > 1 ? ";" : ""), i, 0; print " 5"; print "main;g 1" }' >"$T/long.folded"
lensz=$(head -n 1 "$T/long.folded" | wc -c)
check "sniff: the long first line is over 64 KiB" "$([ "$lensz" -gt 65536 ] || echo "$lensz bytes")"
expect_src "sniff: folded with a ${lensz}-byte first line" "$T/long.folded" "folded 6"
ss report --by self --format tsv "$T/long.folded" | awk -F '\t' '$2 != 0 && NR > 1 { print $1, $2 }' | sort >"$T/long.self"
printf 'g 1\ngithub.com/org/pkg/sub.(*Type).method_1300_%030d 5\n' 0 | sort >"$T/long.want"
cmp -s "$T/long.self" "$T/long.want"
check "sniff: long first line: self counts 5 and 1" "$([ $? -eq 0 ] || diff "$T/long.self" "$T/long.want" | tr '\n' '|')"
# Through a pipe too (no mmap, no known size).
expect_src "sniff: long first line through a pipe" <(cat "$T/long.folded") "folded 6"

# A folded file with a first line over 1 MiB (the old line limit; a line of
# a regular file now has no limit but the file's size): one frame of
# 1,100,000 bytes, count 3, read from the file and through a pipe.
{ head -c 1100000 /dev/zero | tr '\0' a; echo ' 3'; } >"$T/huge.folded"
expect_src "sniff: a first line over 1 MiB is folded" "$T/huge.folded" "folded 3"
expect_src "sniff: a first line over 1 MiB through a pipe" <(cat "$T/huge.folded") "folded 3"
got=$(ss report --by self --format tsv "$T/huge.folded" | awk -F '\t' 'NR > 1 { print length($1), $2 }')
check "sniff: the 1,100,000-byte name, 3 samples of 1 s" "$([ "$got" = "1100000 3" ] || echo "got '$got' (exit $RC: $ERR)")"

# Raw (uncompressed) pprof is still pprof.
gzip -dc "$D/pprof/profile-pkg/memory.profilepkg.pb.gz" >"$T/raw.pb"
ss report --by self --format tsv "$D/pprof/profile-pkg/memory.profilepkg.pb.gz" >"$T/raw.gz.self"
ss report --by self --format tsv "$T/raw.pb" >"$T/raw.pb.self"
check "sniff: raw protobuf reads as its gzip" "$([ $RC -eq 0 ] && [ -s "$T/raw.pb.self" ] && cmp -s "$T/raw.gz.self" "$T/raw.pb.self" || echo "exit $RC: $ERR")"
# A string table entry spanning the whole file is not a profile: its first
# entry must be empty.
{ printf '2\060'; head -c 48 /dev/zero | tr '\0' x; } >"$T/one-string"
ss report "$T/one-string" >/dev/null
check "sniff: '2' + length of the rest is not pprof" "$([ $RC -eq 2 ] && [[ $ERR == *"string table's first entry is not empty"* ]] || echo "exit $RC: $ERR")"

# An Rprof with a control character in a name, converted to folded and
# SamplingProf (whose runtime, 20 ms, starts with '2'), reads back.
printf 'sample.interval=20000\n"a\001b" "java" \n' >"$T/ctl.out"
if ss convert -o "$T/ctl-out.folded" "$T/ctl.out" && ss convert -o "$T/ctl-out.sprof.txt" "$T/ctl.out"; then
    expect_src "sniff: Rprof with \\001 -> folded reads back" "$T/ctl-out.folded" "folded 1"
    expect_src "sniff: Rprof with \\001 -> SamplingProf reads back" "$T/ctl-out.sprof.txt" "sampling_prof 1"
    ss report --by total --format tsv "$T/ctl-out.sprof.txt" | awk -F '\t' 'NR > 1 { print $1, $4 }' | sort >"$T/ctl.total"
    # (TSV shows the control byte escaped: man page, CONTROL CHARACTERS)
    printf 'a\\x01b 0.02\njava 0.02\n' >"$T/ctl.twant"
    cmp -s "$T/ctl.total" "$T/ctl.twant"
    check "sniff: Rprof with \\001 -> SamplingProf: totals 20 ms" "$([ $? -eq 0 ] || od -c "$T/ctl.total" | head -n 3 | tr '\n' '|')"
else
    fail "sniff: convert an Rprof with a control byte" "$ERR"
fi

# Nothing fits: every format tried is named, with the line.
printf '"a" "b" \n' >"$T/headerless.out"
ss report "$T/headerless.out" >/dev/null
check "sniff: unknown format names the formats tried" "$([ $RC -eq 2 ] && [[ $ERR == *"headerless.out:1: not a profile format"*"tried Rprof (the first line is not a header"*"pprof (no gzip magic"*"folded stacks (line 1:"*"SamplingProf ("* ]] || echo "exit $RC: $ERR")"

# ---- 6. v2 tables: strict numbers, shared limits, hostile directories ------------
# A small base directory: two samples of "main" > "f" (counts 1), written by
# stackscope, then edited by hand.
printf 'sample.interval=20000\n"f" "main" \n"f" "main" \n' >"$T/small.out"
ss convert -o "$T/small.tb/" "$T/small.out" || fail "tables: write the base directory" "$ERR"
edit_dir() { # NEW: a copy of the base directory as $T/NEW
    rm -rf "${T:?}/$1" && cp -r "$T/small.tb" "$T/$1"
}
refused() { # NAME DIR PATTERN: exit 2 within 20 s, message matching PATTERN
    timeout 20 "$STACKSCOPE" report "$2" >/dev/null 2>"$T/ss.err" </dev/null
    RC=$?
    ERR=$(head -c 2000 "$T/ss.err")
    check "$1" "$([ $RC -eq 2 ] && [[ $ERR == $3 ]] || echo "exit $RC: $ERR")"
}
# Numbers are decimal and range-checked: no strtod hex, no overflow to inf.
# An interval of 0 too: no reader makes one (it was written to Rprof as 1 s).
for iv in 1e308 99999999999999999999999 0x10 inf nan -5 1e+19 ' 1' '' 0 0.000 0e5; do
    edit_dir iv.tb
    awk -F '\t' -v OFS='\t' -v iv="$iv" 'NR == 2 { $7 = iv } { print }' "$T/small.tb/sources.tsv" >"$T/iv.tb/sources.tsv"
    refused "tables: interval '$iv' refused" "$T/iv.tb" "*iv.tb/sources.tsv:2: column interval_us: *"
done
for iv in 20000 0.5 1e+18 2.5e3; do
    edit_dir iv.tb
    awk -F '\t' -v OFS='\t' -v iv="$iv" 'NR == 2 { $7 = iv } { print }' "$T/small.tb/sources.tsv" >"$T/iv.tb/sources.tsv"
    ss report --by sources --format tsv "$T/iv.tb" >/dev/null
    check "tables: interval '$iv' accepted" "$([ $RC -eq 0 ] || echo "exit $RC: $ERR")"
done
# A negative count is refused, naming the file and line; other value types
# take the whole int64 range (19 digits), and no more.
edit_dir neg.tb
awk -F '\t' -v OFS='\t' 'NR == 3 { $3 = -3 } { print }' "$T/small.tb/sample_values.tsv" >"$T/neg.tb/sample_values.tsv"
refused "tables: negative count refused" "$T/neg.tb" "*neg.tb/sample_values.tsv:3: column value: negative count '-3'*"
edit_dir neg.tb
awk -F '\t' -v OFS='\t' 'NR == 2 { $3 = "9223372036854775808" } { print }' "$T/small.tb/sample_values.tsv" >"$T/neg.tb/sample_values.tsv"
refused "tables: count 2^63 refused" "$T/neg.tb" "*neg.tb/sample_values.tsv:2: column value: '9223372036854775808' is out of range*"
edit_dir big.tb
printf 'type\tunit\nsamples\tcount\nbytes\tbytes\n' >"$T/big.tb/value_types.tsv"
printf 'sample_id\ttype\tvalue\n1\tsamples\t9223372036854775807\n1\tbytes\t-9223372036854775808\n2\tsamples\t0\n2\tbytes\t9223372036854775807\n' >"$T/big.tb/sample_values.tsv"
# (folded lines hold at most 10^15 each, what the folded reader takes: the
# count is split, 9223 x 10^15 + 372036854775807 = 9223372036854775807)
ss report --by stacks --format folded "$T/big.tb" >"$T/big.stacks"
got="$(head -n 1 "$T/big.stacks") $(wc -l <"$T/big.stacks") $(tail -n 1 "$T/big.stacks")"
check "tables: 19-digit values read" "$([ $RC -eq 0 ] && [ "$got" = "main;f 1000000000000000 9224 main;f 372036854775807" ] && [ "$(sort -u "$T/big.stacks" | wc -l)" = 2 ] || echo "exit $RC: $ERR $got")"
# ... but counts that add up past INT64_MAX are refused (the model's limit)
printf 'sample_id\ttype\tvalue\n1\tsamples\t9223372036854775807\n' >"$T/big.tb/sample_values.tsv"
refused "tables: counts adding up past INT64_MAX refused" "$T/big.tb" "*big.tb/sample_values.tsv*past 9223372036854775807*"
edit_dir agg.tb
printf 'source_id\tlocation_id\tself\ttotal\n1\t1\t-1\t2\n' >"$T/agg.tb/aggregates.tsv"
refused "tables: negative aggregate refused" "$T/agg.tb" "*agg.tb/aggregates.tsv:2: column self: '-1' is out of range (0 to 1000000000000000)*"
printf 'source_id\tlocation_id\tself\ttotal\n1\t1\t3\t2\n' >"$T/agg.tb/aggregates.tsv"
refused "tables: aggregate self > total refused" "$T/agg.tb" "*agg.tb/aggregates.tsv:2: column self: self count 3 exceeds total count 2*"
# A FIFO (or any non-regular file) among the tables: refused, never waited on.
if have mkfifo; then
    edit_dir fifo.tb
    rm "$T/fifo.tb/stacks.tsv" && mkfifo "$T/fifo.tb/stacks.tsv"
    refused "tables: a FIFO is refused without blocking" "$T/fifo.tb" "*fifo.tb/stacks.tsv: not a regular file*"
fi
# 100,000 value types: refused at the limit, at once.
edit_dir vt.tb
awk 'BEGIN { print "type\tunit"; print "samples\tcount"; for (i = 1; i < 100000; i++) print "t" i "\tbytes" }' >"$T/vt.tb/value_types.tsv"
refused "tables: 100,000 value types refused" "$T/vt.tb" "*vt.tb/value_types.tsv:4098: more than 4096 value types*"
# 4,096 value types x 100,000 samples, with one value per type: the model
# would hold 409,600,000 values (3 GB) from a few MB of files: refused.
edit_dir amp.tb
awk 'BEGIN { print "type\tunit"; print "samples\tcount"; for (i = 1; i < 4096; i++) print "t" i "\tbytes" }' >"$T/amp.tb/value_types.tsv"
awk 'BEGIN { print "sample_id\tsource_id\tstack_id"; for (i = 1; i <= 100000; i++) print i "\t1\t1" }' >"$T/amp.tb/samples.tsv"
awk 'BEGIN { print "sample_id\ttype\tvalue"; for (i = 1; i < 4096; i++) print "1\tt" i "\t7" }' >"$T/amp.tb/sample_values.tsv"
refused "tables: amplifying value types refused" "$T/amp.tb" "*amp.tb: 100000 samples x 4096 value types is more values than the tables hold*"
# ... while 4,096 value types over a few samples load, with their values.
awk 'BEGIN { print "sample_id\tsource_id\tstack_id"; for (i = 1; i <= 3; i++) print i "\t1\t1" }' >"$T/amp.tb/samples.tsv"
timeout 20 "$STACKSCOPE" report --by stacks --format folded "$T/amp.tb" >"$T/amp.stacks" 2>"$T/ss.err"
check "tables: 4096 value types load" "$([ $? -eq 0 ] && [ "$(cat "$T/amp.stacks")" = "main;f 3" ] || head -c 300 "$T/ss.err")"
# Duplicate value types are found (sorted index) and named with both lines.
edit_dir dup.tb
printf 'type\tunit\nsamples\tcount\nx\tbytes\ny\tbytes\nx\tms\n' >"$T/dup.tb/value_types.tsv"
refused "tables: duplicate value type" "$T/dup.tb" "*dup.tb/value_types.tsv:5: column type: value type 'x' is listed twice (first on line 3)*"

# The writers refuse what the readers would: a folded count of 10^15 (1 s
# each) is a SamplingProf runtime of 10^18 ms.
printf 'a;b 1000000000000000\n' >"$T/huge-count.folded"
ss convert -o "$T/huge-count.sprof.txt" "$T/huge-count.folded"
check "writers: SamplingProf runtime over 1e15 ms refused" "$([ $RC -eq 2 ] && [[ $ERR == *"cannot write SamplingProf: the runtime would be 1e+18 ms"* ]] && [ ! -e "$T/huge-count.sprof.txt" ] || echo "exit $RC: $ERR")"
edit_dir iv.tb
awk -F '\t' -v OFS='\t' 'NR == 2 { $7 = "1e+18" } { print }' "$T/small.tb/sources.tsv" >"$T/iv.tb/sources.tsv"
ss convert -o "$T/iv.sprof.txt" "$T/iv.tb"
check "writers: a tables interval of 1e18 us x 2 samples refused as SamplingProf" "$([ $RC -eq 2 ] && [[ $ERR == *"cannot write SamplingProf: the runtime would be 2e+15 ms"* ]] || echo "exit $RC: $ERR")"
ss convert -o "$T/iv.back.tb/" "$T/iv.tb" && ss report --by sources --format tsv "$T/iv.back.tb" >/dev/null
check "writers: an interval of 1e18 us goes through the tables" "$([ $RC -eq 0 ] || echo "exit $RC: $ERR")"
# A tables sample of count 2^63 - 2 at 20 ms: 1.8446744073709552e+23 us
# (speedscope's file keeps the measure's unit), a weight its reader refuses
# (over 9e18): refused before
# writing.  As folded stacks, the count is split over lines of 10^15 and the
# total (the model's limit, 2^63 - 1, not the folded reader's former 2^62)
# reads back.
edit_dir w.tb
printf 'sample_id\ttype\tvalue\n1\tsamples\t9223372036854775806\n2\tsamples\t1\n' >"$T/w.tb/sample_values.tsv"
ss convert -o "$T/w.speedscope.json" "$T/w.tb"
check "writers: a speedscope weight over 9e18 ns refused" "$([ $RC -eq 1 ] && [[ $ERR == *"w.speedscope.json: cannot write speedscope: sample 1 of $T/small.out weighs 1.8446744073709552e+23 microseconds, over the 9e18 its reader takes" ]] && [ ! -e "$T/w.speedscope.json" ] || echo "exit $RC: $ERR")"
ss convert -o "$T/w.folded" "$T/w.tb" && ss report --by sources --format tsv "$T/w.folded" >"$T/w.src"
check "writers: folded counts adding up to 2^63 - 1 read back" "$([ $RC -eq 0 ] && [ "$(awk -F '\t' 'NR == 2 { print $8 }' "$T/w.src")" = 9223372036854775807 ] || echo "exit $RC: $ERR $(cat "$T/w.src")")"

finish
