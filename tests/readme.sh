#!/bin/bash
# The README runs as shown (issue 32): it fits (at most 300 lines, the
# explorer's walk-through within the first 120), and every command of its
# ```sh blocks runs, in order, on a copy of data/ (scripts/*.sh and the build
# commands excepted: they install and build what this runs on; Rscript
# lines when R is there).  A command that
# opens the explorer runs headless with the keys of the ```keys blocks that
# follow it (a screen dump after each line of keys), until the next ```sh
# block; the screens must say what the README says they say.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

README=$SRCDIR/README.md
T=$TMPD
cp -R "$SRCDIR/data" "$T/data" || exit 99
chmod -R u+w "$T/data"
cd "$T" || exit 99
export LC_ALL=C
unset STACKSCOPE_UI_TIMING STACKSCOPE_SIZE NO_COLOR

# ---- its size ------------------------------------------------------------------
n=$(wc -l <"$README")
keys=$(grep -n '^## Keys' "$README" | cut -d: -f1)
why=
[ "$n" -le 300 ] || why="$n lines"
[ -n "$keys" ] && [ "$keys" -le 121 ] || why="the walk-through ends at line ${keys:-?}"
check "README: at most 300 lines, the walk-through in the first 120 ($n, $keys)" "$why"

# ---- its commands ----------------------------------------------------------------
stackscope() { "$STACKSCOPE" "$@"; }
session=0  # the explorer sessions so far
pending=   # the command line of the session whose keys are being gathered
script=    # its headless script
dumps=0

# Run the pending explorer session: its command with its keys, headless.
flush() {
    [ -n "$pending" ] || return 0
    LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$script timeout 60 bash -c "stackscope() { \"\$STACKSCOPE\" \"\$@\"; }; $pending" \
        >"s$session.stdout" 2>"s$session.err" </dev/null
    local rc=$?
    check "README: the explorer: $pending" "$( [ $rc = 0 ] || echo "exit $rc: $(head -c 300 "s$session.err")")"
    pending=
}

run_sh() {
    local cmd=$1 word
    read -r word rest <<<"$cmd"
    case $word in
    scripts/*)
        check "README: $cmd" "$( [ -x "$SRCDIR/${word}" ] || echo "no executable $word")"
        return ;;
    autoreconf | ./configure | make)
        # the build itself: this test runs on what it made
        check "README: $cmd" "$( [ -f "$SRCDIR/configure.ac" ] || echo "no configure.ac")"
        return ;;
    R)  # R CMD INSTALL r: installing is R CMD check's step in scripts/test.sh
        check "README: $cmd" "$( [ -f "$SRCDIR/r/DESCRIPTION" ] || echo "no r/DESCRIPTION")"
        return ;;
    Rscript)
        have Rscript || { echo "SKIP README: $cmd (no R)"; return; } ;;
    stackscope)
        case ${rest%% *} in
        report | convert | check) ;;
        *)  # the explorer: headless, with the keys that follow
            session=$((session + 1))
            dumps=0
            pending=$cmd
            script=$T/s$session.keys
            echo ":save-display $T/s$session.0" >"$script"
            return ;;
        esac ;;
    esac
    bash -c "stackscope() { \"\$STACKSCOPE\" \"\$@\"; }; $cmd" >out.txt 2>err.txt </dev/null
    local rc=$?
    check "README: $cmd" "$( [ $rc = 0 ] || echo "exit $rc: $(head -c 300 err.txt)")"
    sanitized "README: $cmd"
}

block=
while IFS= read -r l; do
    case $block:$l in
    ':```sh') flush; block=sh; continue ;;
    ':```keys') block=keys; continue ;;
    sh:'```' | keys:'```') block=; continue ;;
    esac
    case $block in
    sh) [ -n "${l// /}" ] && run_sh "$l" ;;
    keys)
        if [ -z "$pending" ]; then
            fail "README: keys without an explorer before them" "$l"
        else
            dumps=$((dumps + 1))
            printf '%s\n:save-display %s\n' "$l" "$T/s$session.$dumps" >>"$script"
        fi ;;
    esac
done <"$README"
flush

# ---- what the walk-through says the screens show ----------------------------------
# session 1: stackscope data/demo.out; 2: the comparison
why=
[[ $(line 3 s1.0) == *" 35.68 "*" lm.fit" && $(line 23 s1.0) == *"| 27.610 s |"* ]] ||
    why="open: $(line 3 s1.0)"
[[ $(line 3 s1.1) == *" 80.01 regression.R#69      fit <- lm(formula, data = "* ]] ||
    why="9: $(line 3 s1.1)"
[[ $(line 1 s1.2) == " lines: "*"regression.R,"*" 69/"* ]] || why="Enter: $(line 1 s1.2)"
[[ $(message s1.5) == "/lm.fit: match 1 of 1; 36.3% of the samples have a matching function" ]] ||
    why="/lm.fit: $(message s1.5)"
check "README: open, the hot line, the flame graph" "$why"
why=
[[ $(message s1.6) == "marked phase 2 of 3 (the main one): samples 488-5358"* ]] || why="v: $(message s1.6)"
[[ $(line 23 s1.7) == *"| 4871 of 5522 samples |"* ]] || why="K: $(line 23 s1.7)"
[[ $(message s1.8) == "trim-base auto: level 1 (main) has source positions"*"cuts the 8 scaffold levels); not added"* ]] ||
    why="B: $(message s1.8)"
[[ $(line 1 s1.10) == " levels: "*", no scaffold"* ]] || why="7: $(line 1 s1.10)"
[[ $(message s1.11) == "undone: 1 transform in effect" && $(message s1.12) == "redone: 2 transforms in effect" ]] ||
    why="u, U: $(message s1.11) / $(message s1.12)"
[[ $(line 1 s1.13) == " transforms: 2 steps"* ]] || why="T: $(line 1 s1.13)"
[ -s trimmed.out ] && [ -s trim.tf ] || why=":w, :export-script: no files"
check "README: the burn-in, the scaffold, undo, save" "$why"
why=
[[ $(line 23 s2.0) == *"time: base 27.610 s, new 19.635 s, -7.975 s (-28.88%)"* ]] ||
    why="status: $(line 23 s2.0)"
[[ $(line 3 s2.0) == *" +6.245 "*" nrow" ]] || why="first row: $(line 3 s2.0)"
[[ $(line 3 s2.1) == *" -2.335 "*" .External2" ]] || why="S g: $(line 3 s2.1)"
[[ $(message s2.2) == "normalized: "* ]] || why="Z: $(message s2.2)"
check "README: the comparison" "$why"
# the saved profile and the script give the walk-through's 4871 samples
"$STACKSCOPE" report --script trim.tf data/demo.out | grep -q '^samples    4871 ' ||
    fail "README: report --script trim.tf" "not 4871 samples"

finish
