#!/bin/bash
# The command-line contract (stackscope(1), COMMANDS): help, version, usage
# errors (exit 1), the report table layouts, and numbers checked against tiny
# profiles whose answers are computed by hand here.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

T=$TMPD
TAB=$'\t'

# usage NAME ARGS...: a usage error: exit 1, a message on stderr, nothing on
# stdout.
usage() {
    local name=$1 why=''
    shift
    run "$@"
    if [ "$RC" -ne 1 ]; then
        why="exit $RC, expected 1 (stderr: $(echo "$ERR" | head -n 1))"
    elif [ -z "$ERR" ]; then
        why="no message on stderr"
    elif [ -n "$OUT" ]; then
        why="printed on stdout: $(echo "$OUT" | head -n 1)"
    fi
    check "$name" "$why"
}

# tsv_is EXPECTED: compare the last run's TSV rows with EXPECTED, one row per
# line "name self.time self.pct total.time total.pct [mem.total]", in order,
# numbers equal within 1e-9 (relative). Prints why not, or nothing.
# tsv_set_is EXPECTED: the same, in any order (for tied rows).
tsv_set_is() { SORTED=1 tsv_is "$1"; }
tsv_is() {
    if [ "$RC" -ne 0 ]; then
        echo "exit $RC: $ERR"
        return
    fi
    local sorter=cat
    if [ -n "$SORTED" ]; then sorter="env LC_ALL=C sort"; fi
    printf '%s\n' "$1" | $sorter >"$T/want"
    { printf '%s\n' "$OUT" | head -n 1; printf '%s\n' "$OUT" | sed 1d | $sorter; } | awk -F '\t' -v want="$T/want" '
        function close_enough(a, b) {
            d = a - b; if (d < 0) d = -d
            m = (a < 0 ? -a : a); if ((b < 0 ? -b : b) > m) m = (b < 0 ? -b : b)
            return d <= 1e-9 * (m > 1 ? m : 1)
        }
        NR == 1 { next }
        {
            if ((getline w < want) <= 0) { printf "extra row: %s\n", $0; bad = 1; exit }
            n = split(w, f, " ")
            if (n != NF) { printf "row %d: %d columns, expected %d: %s\n", NR - 1, NF, n, $0; bad = 1; exit }
            if ($1 != f[1]) { printf "row %d: name %s, expected %s\n", NR - 1, $1, f[1]; bad = 1; exit }
            for (i = 2; i <= n; i++)
                if (!close_enough($i + 0, f[i] + 0)) {
                    printf "row %d (%s): column %d is %s, expected %s\n", NR - 1, $1, i, $i, f[i]
                    bad = 1; exit
                }
        }
        END {
            if (!bad && (getline w < want) > 0 && w != "")
                printf "missing row: %s\n", w
        }'
}

# header_is EXPECTED: the first line of the last run's stdout.
header_is() {
    local h
    h=$(printf '%s\n' "$OUT" | head -n 1)
    if [ "$RC" -ne 0 ]; then
        echo "exit $RC: $ERR"
    elif [ "$h" != "$1" ]; then
        echo "header '$h', expected '$1'"
    fi
}

# ---- profiles, computed by hand -----------------------------------------

# 3 samples at 20 ms: f is the leaf of 2 (0.04 s), g of 1 (0.02 s); g is in
# all 3 stacks (0.06 s, 100%), f in 2 (recursion counts once).
printf 'sample.interval=20000\n"f" "g" \n"g" \n"f" "f" "g" \n' >"$T/tiny"
# Two sessions: 2 x a at 20 ms (0.04 s), 4 x b at 5 ms (0.02 s); 0.06 s.
printf 'sample.interval=20000\n"a" \n"a" \nsample.interval=5000\n"b" \n"b" \n"b" \n"b" \n' >"$T/two"
# Memory: bytes = 8*d(small_v) + 8*d(big_v) + d(nodes), negatives clamped,
# the first sample 0. b: 1 MB (nodes) + 1 MB; a: 1 MB (small_v); c: 0.
printf 'memory profiling: sample.interval=20000\n:1:1:1:1:"a" \n:1:1:1048577:1:"b" \n:131073:1:1048577:1:"a" "b" \n:1:1:1:1:"c" \n' >"$T/mem"
# The same with big_v 0 throughout (a column that never changes).
printf 'memory profiling: sample.interval=20000\n:1:0:1:1:"a" \n:1:0:1048577:1:"b" \n:131073:0:1048577:1:"a" "b" \n:1:0:1:1:"c" \n' >"$T/mem0"
# Lines: f at a.R#2 (self), then g with no position called from a.R#3.
printf 'line profiling: sample.interval=20000\n#File 1: /x/a.R\n1#2 "f" \n"g" 1#3 "f" \n' >"$T/line"

# ---- help and version -----------------------------------------------------

for opt in --help -h; do
    run $opt
    why=
    if [ "$RC" -ne 0 ]; then why="exit $RC"; fi
    for w in report check --by; do
        [ -n "$why" ] || [[ $OUT == *"$w"* ]] || why="does not mention '$w'"
    done
    check "help $opt" "$why"
done

for opt in --version -V; do
    run $opt
    why=
    if [ "$RC" -ne 0 ]; then
        why="exit $RC"
    elif ! [[ $OUT =~ ^stackscope\ [0-9]+\.[0-9]+(\.[0-9]+)? ]]; then
        why="printed '$OUT', expected 'stackscope X.Y.Z'"
    elif [ -f "$BUILDDIR/config.h" ]; then
        v=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$BUILDDIR/config.h")
        [ -z "$v" ] || [ "$(echo "$OUT" | head -n 1)" = "stackscope $v" ] ||
            why="printed '$OUT', expected 'stackscope $v'"
    fi
    check "version $opt" "$why"
done

# The options are one table in cli/options.c that drives parsing and --help:
# every command's --help is the same text, every option it lists is in the
# man page, and a missing value is named with what the option takes.
help_all=$("$STACKSCOPE" --help)
why=
for cmd in report convert check; do
    [ "$("$STACKSCOPE" $cmd --help)" = "$help_all" ] || why="$why $cmd --help differs;"
done
check "help: every command prints the one --help" "$why"
why=
for o in $(printf '%s\n' "$help_all" | grep -oE '^  (-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+' | sort -u); do
    grep -qF -- "${o//-/\\-}" "$SRCDIR/man/stackscope.1" || why="$why $o;"
done
check "man: every option of --help is in the man page" "$why"
# The man page's OPTIONS are made from the same table (--help=roff), as its
# KEYS are from the key table: UPDATE_MAN=1 tests/cli.sh rewrites the part
# between the markers after a change to the table; read the diff.
MAN=$SRCDIR/man/stackscope.1
run --help=roff
printf '%s\n' "$OUT" >"$T/options.roff"
if [ -n "$UPDATE_MAN" ]; then
    awk -v opts="$T/options.roff" '/^\.\\" BEGIN OPTIONS/{ print; while ((getline l < opts) > 0) print l; skip = 1; next }
        /^\.\\" END OPTIONS/{ skip = 0 } !skip' "$MAN" >"$T/man.new" && cp "$T/man.new" "$MAN"
fi
awk '/^\.\\" BEGIN OPTIONS/{ on = 1; next } /^\.\\" END OPTIONS/{ on = 0 } on' "$MAN" >"$T/man.options"
check "man: OPTIONS is what --help=roff prints from the option table" \
    "$( [ "$RC" -eq 0 ] || echo "exit $RC: $ERR"; diff "$T/man.options" "$T/options.roff" | head -n 10)"
usage "help: --help=roff or nothing" --help=bogus
for a in "--source-path:DIR" "--interval:DURATION" "--preset:NAME" "report --by:TABLE" "convert -o:OUT"; do
    usage "missing value: ${a%:*}" ${a%:*}
    o=${a%:*}
    [[ $ERR == *"option '${o##* }' needs a value (${a#*:})"* ]] || fail "missing value named: $o" "$ERR"
done
# --to's help comes from the format table: every output name that picks a
# format (a hand list, each tried here) is in it
why=
for sfx in .out .prof .rprof .pb.gz .pb .pprof .folded .folded.txt .collapsed .sprof.txt .sampling_prof .speedscope.json; do
    [[ $help_all == *" $sfx"[[:space:],:]* ]] || why="$why $sfx not in --help;"
    run convert -o "$T/sfx$sfx" "$T/tiny"
    [ "$RC" -eq 0 ] || why="$why convert -o x$sfx: exit $RC;"
done
check "help: --to lists every output name convert understands" "$why"
# "--" ends the options of the explorer too (a file named like an option)
cp "$T/tiny" "$T/-tiny"
cd "$T" && run -- -tiny
cd - >/dev/null || exit 99
[ "$RC" -eq 0 ] && [[ $OUT == *"samples    3"* ]] && pass "explorer: -- FILE" || fail "explorer: -- FILE" "exit $RC: $ERR"
# options of another command are refused, as are check's (it has none)
usage "convert refuses report's --by" convert --by self -o "$T/x.out" "$T/tiny"
usage "check refuses options" check --bogus "$T/tiny"

# ---- usage errors: exit 1 -------------------------------------------------

usage unknown-option --bogus
usage unknown-report-option report --bogus "$T/tiny"
usage by-bogus report --by bogus "$T/tiny"
usage format-bogus report --format bogus "$T/tiny"
usage by-missing-value report "$T/tiny" --by
usage limit-not-a-number report --limit abc "$T/tiny"
usage report-without-file report
usage memory-without-memory-data report --memory "$T/tiny"
usage by-line-without-line-data report --by line "$T/tiny"

# A bare word is a FILE (`stackscope [FILE...]`), so an unknown command is a
# file that cannot be opened: an error naming it, exit 1 or 2.
run frobnicate
why=
if [ "$RC" -ne 1 ] && [ "$RC" -ne 2 ]; then
    why="exit $RC, expected 1 or 2"
elif [[ $ERR != *frobnicate* ]]; then
    why="stderr does not name 'frobnicate': $ERR"
fi
check unknown-command "$why"

# ---- table layouts --------------------------------------------------------

H="name${TAB}self.time${TAB}self.pct${TAB}total.time${TAB}total.pct"
run report --format tsv "$T/tiny"
check tsv-header-self "$(header_is "$H")"
run report --format tsv --by total "$T/tiny"
check tsv-header-total "$(header_is "$H")"
run report --format tsv --memory "$T/mem"
check tsv-header-memory "$(header_is "$H${TAB}mem.total")"
run report --format tsv --by line "$T/line"
check tsv-header-line "$(header_is "location${TAB}self.time${TAB}self.pct${TAB}total.time${TAB}total.pct")"

run report "$T/two"
why=
if [ "$RC" -ne 0 ]; then
    why="exit $RC: $ERR"
else
    got=$(printf '%s\n' "$OUT" | awk 'NF == 0 { exit } { print $1 }' | uniq | tr '\n' ' ')
    [ "$got" = "file session samples time " ] ||
        why="header lines start with '$got', expected 'file session samples time '"
    [ -n "$why" ] || [ "$(printf '%s\n' "$OUT" | grep -c '^session')" -eq 2 ] ||
        why="expected 2 session lines"
    [ -n "$why" ] || printf '%s\n' "$OUT" | grep -q '^samples  *6$' ||
        why="no 'samples 6' line: $(printf '%s\n' "$OUT" | grep '^samples')"
    [ -n "$why" ] || printf '%s\n' "$OUT" | awk '$1 == "time" && $2 + 0 == 0.06 { ok = 1 } END { exit !ok }' ||
        why="no 'time 0.060' line: $(printf '%s\n' "$OUT" | grep '^time')"
fi
check text-header "$why"

# Without a terminal the explorer prints the report, with its -e and
# --script steps applied as `report` applies them (the R package's explore()
# passes its transforms this way); a bad step is a usage error.
printf 'drop-samples 1:1\n' >"$T/drop-g.tf"
run report -e 'focus a' --script "$T/drop-g.tf" "$T/two"
want=$OUT
run -e 'focus a' --script "$T/drop-g.tf" "$T/two"
why=
[ "$RC" -eq 0 ] || why="exit $RC: $ERR"
[ -n "$why" ] || [ "$OUT" = "$want" ] || why="differs from report: $(diff <(echo "$want") <(echo "$OUT") | head -n 5)"
[ -n "$why" ] || [[ $OUT == *"transform  focus a"* ]] || why="no transform line: $(echo "$OUT" | head -n 3)"
check explorer-e-without-terminal "$why"
usage explorer-e-bogus -e 'bogus x' "$T/two"

# ---- numbers --------------------------------------------------------------

P3=66.66666666666667 # 200/3
Q3=33.333333333333336
run report --format tsv "$T/tiny"
check tiny-by-self "$(tsv_is "f 0.04 $P3 0.04 $P3
g 0.02 $Q3 0.06 100")"
run report --format tsv --by total "$T/tiny"
check tiny-by-total "$(tsv_is "g 0.02 $Q3 0.06 100
f 0.04 $P3 0.04 $P3")"

run report --format tsv "$T/two"
check two-sessions "$(tsv_is "a 0.04 $P3 0.04 $P3
b 0.02 $Q3 0.02 $Q3")"

# Two files combine: 0.06 s + 0.06 s.
run report --format tsv --by total "$T/tiny" "$T/two"
check two-files "$(tsv_set_is "g 0.02 16.666666666666668 0.06 50
a 0.04 $Q3 0.04 $Q3
f 0.04 $Q3 0.04 $Q3
b 0.02 16.666666666666668 0.02 16.666666666666668")"
# The same file twice: times double, shares stay.
run report --format tsv "$T/tiny" "$T/tiny"
check same-file-twice "$(tsv_is "f 0.08 $P3 0.08 $P3
g 0.04 $Q3 0.12 100")"

run report --format tsv --by total --memory "$T/mem"
check memory-mem-total "$(tsv_set_is "b 0.02 25 0.04 50 2
a 0.04 50 0.04 50 1
c 0.02 25 0.02 25 0")"
run report --format tsv --by total --memory "$T/mem0"
check memory-mem-total-constant-column "$(tsv_set_is "b 0.02 25 0.04 50 2
a 0.04 50 0.04 50 1
c 0.02 25 0.02 25 0")"

# By line (R's lines="show"): a sample's self is its first position; g has
# none, so the second sample's self is a.R#3.
run report --format tsv --by line "$T/line"
check by-line "$(tsv_is "a.R#2 0.02 50 0.02 50
a.R#3 0.02 50 0.02 50")"

# A header and no samples (R writes this for a run shorter than the
# interval): an empty table, not an error.
printf 'sample.interval=20000\n' >"$T/header-only"
printf 'line profiling: sample.interval=20000\n' >"$T/header-only-line"
for by in self total line; do
    f=$T/header-only
    if [ $by = line ]; then f=$T/header-only-line; fi
    run report --format tsv --by $by "$f"
    why=
    if [ "$RC" -ne 0 ]; then
        why="exit $RC, expected 0: $(echo "$ERR" | head -n 1)"
    elif [ "$(printf '%s\n' "$OUT" | wc -l)" -ne 1 ]; then
        why="expected only the header row, got: $OUT"
    fi
    check "header-only-by-$by" "$why"
done
run report "$T/header-only"
check header-only-text "$( [ "$RC" -eq 0 ] || echo "exit $RC, expected 0: $(echo "$ERR" | head -n 1)")"

# ---- analysis reports --------------------------------------------------------

# Recursion profile (interval 10 ms), stacks root first:
#   main;f;f;g  main;f;g  main;h  main;h  main
printf 'sample.interval=10000\n"g" "f" "f" "main" \n"g" "f" "main" \n"h" "main" \n"h" "main" \n"main" \n' >"$T/rec"
usage calls-needs-function report --by calls "$T/rec"
usage calls-unknown-function report --by calls --function nope "$T/rec"
usage runs-unknown-function report --by runs --function nope "$T/rec"
usage folded-needs-stacks report --by self --format folded "$T/rec"
usage memory-not-with-tree report --by tree --memory "$T/rec"
usage level-zero report --by runs --level 0 "$T/rec"
usage width-bad report --by timeline --width x "$T/rec"
usage share-bad report --by levels --share 2 "$T/rec"
usage inverted-not-with-self report --by self --inverted "$T/rec"
usage width-not-with-runs report --by runs --width 10 "$T/rec"
usage function-not-with-levels report --by levels --function f "$T/rec"
usage level-not-with-tree report --by tree --level 2 "$T/rec"
# Top-down tree by hand (5 samples, 0.05 s): main 0.05 self 0.01;
# f 0.02 (one f node: f then f or g), h 0.02 self 0.02; under f: f 0.01 > g
# 0.01, g 0.01.  DFS, children by total then name: main, f, f, g, g, h -- f
# and h tie at 0.02, so f comes first by name.
run report --by tree --format tsv "$T/rec"
want=$(printf '0 main 0.01 0.05\n1 f 0 0.02\n2 f 0 0.01\n3 g 0.01 0.01\n2 g 0.01 0.01\n1 h 0.02 0.02')
got=$(printf '%s\n' "$OUT" | sed 1d | awk -F '\t' '{ printf "%s %s %.15g %.15g\n", $1, $2, $3, $4 }')
check tree-topdown "$( [ "$got" = "$want" ] || echo "got: $(echo "$got" | tr '\n' '|')")"
# Callers/callees of f: caller main 2 (both f samples), f -> f 1 (recursion
# counted once per sample), f -> g 2; self 0, total 2.
run report --by calls --function f --format tsv "$T/rec"
got=$(printf '%s\n' "$OUT" | sed 1d | cut -f1-3 | LC_ALL=C sort | tr '\t\n' ' |')
check calls-f "$( [ "$got" = "callee f 1|callee g 2|caller f 1|caller main 2|self f 0|total f 2|" ] || echo "got: $got")"
# Levels: 1: main in all 5; 2: 4 samples reach it, f 2 and h 2 tie -> f by
# name; 3: 2 samples, f 1 and g 1 tie -> f; 4: 1 sample, g.  Scaffold: level 1.
run report --by levels --format tsv "$T/rec"
got=$(printf '%s\n' "$OUT" | sed 1d | tr '\t\n' ' |')
# then the time at the level and the top's (10 ms a sample)
check levels "$( [ "$got" = "1 5 1 main 5 0.05 0.05|2 4 2 f 2 0.04 0.02|3 2 2 f 1 0.02 0.01|4 1 1 g 1 0.01 0.01|" ] || echo "got: $got")"
run report --by levels "$T/rec"
check levels-scaffold-text "$( printf '%s\n' "$OUT" | grep -q 'levels 1-1' || echo "no scaffold line: $OUT")"
run report --by timeline --level 2 --width 5 "$T/rec"
# one window per sample: f f h h and the last sample has no level 2; the
# legend letters are a (f) and b (h) in order of appearance
check timeline-text "$( printf '%s\n' "$OUT" | grep -q '^aabb\.$' || echo "strip not 'aabb.': $(echo "$OUT" | tr '\n' '|')")"

# ---- output errors ----------------------------------------------------------

if [ -w /dev/full ]; then
    for fmt in text tsv; do
        timeout 10 "$STACKSCOPE" report --format $fmt "$T/tiny" >/dev/full 2>"$T/err"
        RC=$?
        why=
        if [ "$RC" -ne 2 ]; then
            why="exit $RC, expected 2"
        elif ! [ -s "$T/err" ]; then
            why="no message on stderr"
        fi
        check "write-error-$fmt" "$why"
    done
else
    echo "SKIP write-error: no /dev/full"
fi

# ---- convert: format choice, atomic writes, never an input ------------------
# (the writers' contents are checked in formats.sh, pprof.sh, sampling.sh)
W=$T/conv
mkdir -p "$W"
printf 'sample.interval=10000\n"f" "main" \n"g" "main" \n' >"$W/in.out"
cp "$W/in.out" "$W/in.copy"
nothing_left() { # no temporary files left next to the outputs (man page: FILES)
    ls -A "$W" | grep -E 'stackscope-tmp|\.(tmp|old)\.' || true
}

run convert -o "$W/in.out" "$W/in.out"
check "convert onto the input: refused" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *"input file"* ]] || echo "rc=$RC $ERR")"
check "convert onto the input: the input is unchanged" "$(cmp "$W/in.out" "$W/in.copy" 2>&1)"
ln -f "$W/in.out" "$W/hard.out"
run convert --force -o "$W/hard.out" "$W/in.out"
check "convert --force onto a hard link of the input: refused" \
    "$([ "$RC" -eq 1 ] && cmp -s "$W/in.out" "$W/in.copy" || echo "rc=$RC $ERR")"
rm -f "$W/hard.out"

run convert -o "$W/a.folded" "$W/in.out"
check "convert to .folded: the format from the name" \
    "$([ "$RC" -eq 0 ] && [ "$(cat "$W/a.folded")" = "main;f 1
main;g 1" ] || echo "rc=$RC $ERR: $(cat "$W/a.folded" 2>&1)")"
echo "keep me" >"$W/exists.folded"
run convert -o "$W/exists.folded" "$W/in.out"
check "convert onto an existing file without --force: refused, file kept" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *"--force"* ]] && [ "$(cat "$W/exists.folded")" = "keep me" ] ||
        echo "rc=$RC $ERR")"
run convert --force -o "$W/exists.folded" "$W/in.out"
check "convert --force replaces an existing output" \
    "$([ "$RC" -eq 0 ] && grep -q '^main;f 1$' "$W/exists.folded" || echo "rc=$RC $ERR")"
run convert -o "$W/noext" "$W/in.out"
check "convert to a name that says no format: usage error" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *"--to"* ]] && [ ! -e "$W/noext" ] || echo "rc=$RC $ERR")"
run convert --to folded -o "$W/noext" "$W/in.out"
check "convert --to folded to any name" "$([ "$RC" -eq 0 ] && [ -s "$W/noext" ] || echo "rc=$RC $ERR")"
run convert --to nonsense -o "$W/x" "$W/in.out"
check "convert --to unknown: usage error" "$([ "$RC" -eq 1 ] || echo "rc=$RC")"
# -o -: standard output, for a pipe or a redirection (the format from --to)
(cd "$W" && "$STACKSCOPE" convert --to folded -o - in.out >"$T/std.folded" 2>"$T/err")
RC=$?
check "convert --to folded -o -: the lines on standard output, no file named -" \
    "$([ "$RC" -eq 0 ] && [ "$(cat "$T/std.folded")" = "main;f 1
main;g 1" ] && [ ! -e "$W/-" ] && [ ! -s "$T/err" ] || echo "rc=$RC $(cat "$T/err")")"
"$STACKSCOPE" convert --to pprof -o - "$W/in.out" >"$T/std.pb.gz" 2>"$T/err"
RC=$?
got=$("$STACKSCOPE" report --by self --format tsv "$T/std.pb.gz" 2>&1 | awk -F '\t' 'NR > 1 { print $1, $2 }' | sort | tr '\n' ' ')
check "convert --to pprof -o -: a gzip profile that reads back (f and g 10 ms each, in ns)" \
    "$([ "$RC" -eq 0 ] && gzip -t "$T/std.pb.gz" && [ "$got" = "f 10000000 g 10000000 main 0 " ] || echo "rc=$RC got '$got'")"
usage "convert -o - without --to: usage error" convert -o - "$W/in.out"
run convert --to tables -o - "$W/in.out"
check "convert --to tables -o -: refused (a directory, not a stream)" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *"directory"* ]] && [ -z "$OUT" ] || echo "rc=$RC $ERR")"
"$STACKSCOPE" convert --to folded -o - "$W/in.out" >/dev/full 2>"$T/err"
RC=$?
check "convert -o - onto a full device: an error, not a silent loss" \
    "$([ "$RC" -ne 0 ] && grep -q 'write error' "$T/err" || echo "rc=$RC $(cat "$T/err")")"
if command -v script >/dev/null 2>&1; then
    script -qec "$STACKSCOPE convert --to folded -o - $W/in.out" /dev/null >"$T/tty" 2>&1
    RC=$?
    check "convert -o - onto a terminal: refused, nothing written to it" \
        "$([ "$RC" -eq 1 ] && grep -q 'is a terminal' "$T/tty" && ! grep -q 'main;f' "$T/tty" || echo "rc=$RC $(cat "$T/tty")")"
fi
# A writer that fails half way keeps the old output as it was: the Rprof
# writer refuses a name it cannot write (one holding '" "').
printf 'a" "b;main 3\n' >"$W/odd.folded"
echo "old" >"$W/odd.out"
run convert --force -o "$W/odd.out" "$W/odd.folded"
check "a failed write keeps the old output" \
    "$([ "$RC" -ne 0 ] && [ "$(cat "$W/odd.out")" = "old" ] || echo "rc=$RC $(cat "$W/odd.out")")"
check "no temporary files left" "$(nothing_left)"
mkdir -p "$W/notables" && echo x >"$W/notables/readme.txt"
run convert --force --to tables -o "$W/notables" "$W/in.out"
check "tables onto a directory holding other files: refused, files kept" \
    "$([ "$RC" -ne 0 ] && [ -f "$W/notables/readme.txt" ] || echo "rc=$RC $ERR")"
run convert -o "$W/tab/" "$W/in.out"
first=$RC
run convert --force -o "$W/tab/" "$W/in.out"
check "tables: written, then replaced with --force" \
    "$([ "$first" -eq 0 ] && [ "$RC" -eq 0 ] && [ -f "$W/tab/meta.tsv" ] || echo "rc=$first/$RC $ERR")"
check "no temporary directories left" "$(nothing_left)"

# ---- convert: what --force may and may not replace (issue: safety) --------
# A tables output replaces only a previous tables directory: a user's own
# file in it, or an input, is never deleted.
mkdir -p "$W/res" && echo "mine" >"$W/res/my_results.tsv"
run convert --force -o "$W/res/" "$W/in.out"
check "tables --force onto a directory with a user's .tsv: refused, the file kept" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *my_results.tsv* ]] && [ "$(cat "$W/res/my_results.tsv")" = mine ] ||
        echo "rc=$RC $ERR $(ls "$W/res")")"
mkdir -p "$W/inp" && printf 'main;f 2\n' >"$W/inp/prof.tsv"
run convert --force --to tables -o "$W/inp/" "$W/inp/prof.tsv"
check "tables --force onto the directory of an input named .tsv: refused, input kept" \
    "$([ "$RC" -ne 0 ] && [ "$(cat "$W/inp/prof.tsv")" = "main;f 2" ] || echo "rc=$RC $ERR")"
mkdir -p "$W/nometa" && echo x >"$W/nometa/samples.tsv"
run convert --force -o "$W/nometa/" "$W/in.out"
check "tables --force onto table-named files without meta.tsv: refused" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *meta.tsv* ]] && [ "$(cat "$W/nometa/samples.tsv")" = x ] ||
        echo "rc=$RC $ERR")"
mkdir -p "$W/empty"
run convert -o "$W/empty/" "$W/in.out"
check "tables into an existing empty directory: written without --force" \
    "$([ "$RC" -eq 0 ] && [ -f "$W/empty/meta.tsv" ] || echo "rc=$RC $ERR")"
chmod 750 "$W/tab"
run convert --force -o "$W/tab" "$W/in.out"
check "tables --force: the replaced directory keeps its mode" \
    "$([ "$RC" -eq 0 ] && [ "$(stat -c %a "$W/tab")" = 750 ] || echo "rc=$RC $(stat -c %a "$W/tab") $ERR")"
# Every table of an input tables directory is an input.
(cd "$W/tab" && md5sum ./*.tsv) >"$W/tab.md5"
run convert --force --to rprof -o "$W/tab/samples.tsv" "$W/tab"
check "convert --force onto a table of the input tables directory: refused, unchanged" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *"input file"* ]] && (cd "$W/tab" && md5sum -c --quiet "$W/tab.md5") ||
        echo "rc=$RC $ERR")"
run convert --force --to tables -o "$W/tab/" "$W/tab"
check "convert --force of a tables directory onto itself: refused" \
    "$([ "$RC" -eq 1 ] && (cd "$W/tab" && md5sum -c --quiet "$W/tab.md5") || echo "rc=$RC $ERR")"

# Permissions: the replaced file's mode (and owner, as root) are kept.
echo old >"$W/private.out"
chmod 600 "$W/private.out"
if [ "$(id -u)" -eq 0 ] && id nobody >/dev/null 2>&1; then
    chown nobody:nogroup "$W/private.out" 2>/dev/null || chown nobody "$W/private.out"
    want_owner=$(stat -c %U:%G "$W/private.out")
else
    want_owner=$(stat -c %U:%G "$W/private.out")
fi
run convert --force -o "$W/private.out" "$W/in.out"
check "convert --force onto a 0600 file keeps 0600 and its owner" \
    "$([ "$RC" -eq 0 ] && [ "$(stat -c %a "$W/private.out")" = 600 ] &&
        [ "$(stat -c %U:%G "$W/private.out")" = "$want_owner" ] && grep -q '"f" "main"' "$W/private.out" ||
        echo "rc=$RC $(stat -c '%a %U:%G' "$W/private.out") want 600 $want_owner $ERR")"

# Only regular files are replaced; a symbolic link is written through.
mkfifo "$W/fifo.out"
run convert --force -o "$W/fifo.out" "$W/in.out"
check "convert --force onto a FIFO: refused, the FIFO kept" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *FIFO* ]] && [ -p "$W/fifo.out" ] || echo "rc=$RC $ERR")"
if [ "$(id -u)" -eq 0 ] && mknod "$W/null.out" c 1 3 2>/dev/null; then
    run convert --force -o "$W/null.out" "$W/in.out"
    check "convert --force onto a character device: refused, the device kept" \
        "$([ "$RC" -eq 1 ] && [[ $ERR == *"character device"* ]] && [ -c "$W/null.out" ] || echo "rc=$RC $ERR")"
else
    echo "SKIP character device: not root"
fi
echo target >"$W/real.out"
ln -s real.out "$W/link.out"
run convert --force -o "$W/link.out" "$W/in.out"
check "convert --force through a symbolic link: the link kept, its file replaced" \
    "$([ "$RC" -eq 0 ] && [ -L "$W/link.out" ] && grep -q '"f" "main"' "$W/real.out" || echo "rc=$RC $ERR")"
ln -s in.out "$W/inlink.out"
run convert --force -o "$W/inlink.out" "$W/in.out"
check "convert --force onto a symbolic link to the input: refused" \
    "$([ "$RC" -eq 1 ] && cmp -s "$W/in.out" "$W/in.copy" || echo "rc=$RC $ERR")"
ln -s missing.out "$W/dangling.out"
run convert --force -o "$W/dangling.out" "$W/in.out"
check "convert --force onto a dangling symbolic link: refused" \
    "$([ "$RC" -eq 1 ] && [ -L "$W/dangling.out" ] && [ ! -e "$W/missing.out" ] || echo "rc=$RC $ERR")"
check "no temporary files left after the refusals" "$(nothing_left)"

# A write that fails half way (here: past the file size limit) removes its
# temporary file and says why; it is not killed by SIGXFSZ.
awk 'BEGIN { print "sample.interval=10000"; for (i = 0; i < 20000; i++) printf "\"f%d\" \"main\" \n", i % 5000 }' >"$W/big.out"
for fmt in rprof pprof folded tables; do
    (ulimit -f 8 && "$STACKSCOPE" convert --to $fmt -o "$W/limited.$fmt" "$W/big.out") \
        >/dev/null 2>"$T/err"
    RC=$?
    check "a write past the file size limit ($fmt): exit 2, message, nothing left" \
        "$([ "$RC" -eq 2 ] && grep -q 'limited' "$T/err" && [ ! -e "$W/limited.$fmt" ] &&
            [ -z "$(nothing_left)" ] || echo "rc=$RC $(cat "$T/err") $(nothing_left)")"
done
# The tables writer's message names the output's table, not the temporary
# directory it was written in (removed by then).
(ulimit -f 8 && "$STACKSCOPE" convert --to tables -o "$W/limited.tables/" "$W/big.out") \
    >/dev/null 2>"$T/err"
check "a failed tables write names the output's table, not the removed temporary directory" \
    "$(grep -q "^stackscope: $W/limited.tables/[a-z_]*\.tsv: write failed: File too large" "$T/err" &&
        ! grep -q stackscope-tmp "$T/err" || cat "$T/err")"
# A conversion killed by a signal removes its temporary file.
for i in 1 2 3 4 5; do
    "$STACKSCOPE" convert --force -o "$W/killed.pb.gz" "$W/big.out" 2>/dev/null &
    pid=$!
    sleep "0.0$i"
    kill -TERM "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
done
check "a conversion killed by SIGTERM leaves no temporary file" "$(nothing_left)"

# Two writers of one new name: the second fails with "exists", never
# silently replacing the first one's file.
both=0
for i in 1 2 3 4 5 6 7 8 9 10; do
    rm -f "$W/race.pb.gz"
    "$STACKSCOPE" convert -o "$W/race.pb.gz" "$W/big.out" 2>"$T/race1" &
    p1=$!
    "$STACKSCOPE" convert -o "$W/race.pb.gz" "$W/big.out" 2>"$T/race2" &
    p2=$!
    wait "$p1"
    r1=$?
    wait "$p2"
    r2=$?
    if [ "$r1" -eq 0 ] && [ "$r2" -eq 0 ]; then
        both=$((both + 1))
    elif [ $((r1 + r2)) -ne 1 ] || ! grep -qh exists "$T/race1" "$T/race2"; then
        both=$((both + 100))
    fi
done
check "two writers of one name without --force: exactly one succeeds" \
    "$([ "$both" -eq 0 ] || echo "$both bad tries of 10")"
check "no temporary files left after the race" "$(nothing_left)"

# Folded stacks have no time order: the tables that need it say so (exit 1),
# and a tables copy keeps that (the 'unordered' source flag).
printf 'main;f 2\nmain;g 1\n' >"$W/noorder.folded"
for by in runs timeline; do
    run report --by $by "$W/noorder.folded"
    check "report --by $by of folded stacks: refused, says why" \
        "$([ "$RC" -eq 1 ] && [[ $ERR == *"needs samples in time order"* ]] || echo "rc=$RC $ERR")"
done
run convert -o "$W/noorder.tables/" "$W/noorder.folded"
run report --by timeline "$W/noorder.tables"
check "a tables copy of folded stacks keeps 'no time order'" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *"needs samples in time order"* ]] &&
        grep -q 'unordered' "$W/noorder.tables/sources.tsv" || echo "rc=$RC $ERR")"

# Writers that would multiply the data (issue 17, item 6): a sample of count
# k is k Rprof lines, so 30,000,000 counted objects in a 20-byte folded file
# would be a 480 MB Rprof file: refused before writing, with the estimate
# (hand-computed: '"alloc" "main" ' is 15 bytes, plus the line end, times
# 30,000,000, plus 70 for the header), unless --force.
printf 'main;alloc 30000000\n' >"$W/objects.folded"
run convert -o "$W/objects.out" "$W/objects.folded"
check "a 480 MB Rprof file from 20 bytes: refused without --force, with the estimate" \
    "$([ "$RC" -eq 1 ] && [ "$ERR" = "stackscope: $W/objects.out: the Rprof file would be about 457.8 MB (480000070 bytes), 24000004 times the input's 20 B: Rprof writes one line per sample, and the sample counts add up to 30000000 lines; nothing written (--force, or :w! in the explorer, writes it anyway)" ] &&
        [ ! -e "$W/objects.out" ] || echo "rc=$RC $ERR")"
check "no temporary file after the refusal" "$(nothing_left)"
# (speedscope and the tables, which write every frame of every sample:
# check_formats.c, test_writers_refuse_growth.)
# --force writes it anyway: 4,500,000 lines of 16 bytes (72 MB estimated,
# over 64 MiB), read back with their count.
printf 'main;alloc 4500000\n' >"$W/objects2.folded"
run convert -o "$W/objects2.out" "$W/objects2.folded"
check "72 MB of Rprof from 20 bytes: refused" "$([ "$RC" -eq 1 ] && [[ $ERR == *"about 68.7 MB (72000070 bytes)"* ]] || echo "rc=$RC $ERR")"
timeout 60 "$STACKSCOPE" convert --force -o "$W/objects2.out" "$W/objects2.folded" 2>"$T/err"
RC=$?
check "--force writes it: 72,000,024 bytes (header + 4,500,000 lines of 16)" \
    "$([ "$RC" -eq 0 ] && [ "$(stat -c %s "$W/objects2.out")" = 72000024 ] || echo "rc=$RC $(cat "$T/err")")"
got=$(timeout 60 "$STACKSCOPE" report --by self --format tsv "$W/objects2.out" 2>/dev/null | awk -F '\t' 'NR > 1 { print $1, $2 }' | tr '\n' ' ')
check "... and reads back: alloc 4,500,000 s" "$([ "$got" = "alloc 4500000 main 0 " ] || echo "got '$got'")"
rm -f "$W/objects2.out"

finish
