#!/bin/bash
# Issue 14, "work is never lost" and "every message is true": quitting, the
# session state file, the selection across undo, no-match warnings, reversed
# ranges, plurals, the report without a terminal or with one that cannot
# move the cursor, and the help screen's key column.  The explorer runs
# headless (STACKSCOPE_SCRIPT, :save-display) as in tests/ui.sh; the
# expected values are worked out from `stackscope report` (checked against R
# by tests/oracle.sh) or by hand, as noted at each test.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

T=$TMPD
mkdir -p "$T/in" || exit 99
cp "$SRCDIR/data/demo.out" "$SRCDIR/tests/data/ui/small.out" "$T/in/" || exit 99
cd "$T/in" || exit 99
export LC_ALL=C
unset STACKSCOPE_UI_TIMING STACKSCOPE_SIZE NO_COLOR
STATE=$XDG_STATE_HOME/stackscope # lib.sh points XDG_STATE_HOME into $TMPD

# top FILE / bottom FILE: the title line / the message line of a dump.
top() { head -n 1 "$1"; }
bottom() { message "$1"; } # (a long message wraps upwards: lib.sh)

# ---- q goes back to the first view and quits only from there --------------

# Levels, timeline, levels again, functions, runs: the history is
# functions > runs (the second levels went back to the first; functions is
# the first view).  One transform (d) makes quitting ask, so the second q
# shows where it quits from.  Before the fix the history was de-duplicated
# and the second q showed the levels view.
ui hist demo.out <<'EOF'
d
7
6
7
1
8
q
DUMP q1
q
DUMP q2
n
DUMP q3
Q
DUMP after
EOF
why=
[[ $(top "$T/hist.q1") == " functions:"* ]] || why="the first q shows: $(top "$T/hist.q1")"
[[ $(top "$T/hist.q2") == " functions:"* ]] || why="the second q shows: $(top "$T/hist.q2")"
[[ $(bottom "$T/hist.q2") == "quit with 1 transform not saved? (y/n)"* ]] ||
    why="no question: $(bottom "$T/hist.q2")"
[[ $(bottom "$T/hist.q3") == "not quitting" ]] || why="n: $(bottom "$T/hist.q3")"
[ -e "$T/hist.after" ] && why="Q did not quit"
[ "$RC" -eq 0 ] || why="exit $RC: $ERR"
check "q: back to the first view, then asks; n stays; Q quits at once" "$why"

# y quits; :q asks as q does; after :export-script nothing is unsaved.
ui yes demo.out <<'EOF'
d
:q
DUMP asked
y
DUMP after
EOF
why=
[[ $(bottom "$T/yes.asked") == "quit with 1 transform"* ]] || why=":q: $(bottom "$T/yes.asked")"
[ -e "$T/yes.after" ] && why="y did not quit"
check "q: y quits, :q asks" "$why"
ui saved demo.out <<EOF
d
:export-script $T/exported.script
q
DUMP after
EOF
check "q: quits without asking once :export-script saved the list" \
    "$([ -e "$T/saved.after" ] && bottom "$T/saved.after")"
ui wsaved demo.out <<EOF
d
:w $T/saved.out
q
DUMP after
EOF
check "q: quits without asking once :w saved the profile" \
    "$([ -e "$T/wsaved.after" ] && bottom "$T/wsaved.after")"

# ---- the session state file ------------------------------------------------

rm -rf "$XDG_STATE_HOME"
ls -A "$T/in" >"$T/in.before"
ui keep demo.out <<'EOF'
d
:drop-samples 1:10
Q
EOF
files=$(ls "$STATE" 2>/dev/null)
why=
if [ "$(echo "$files" | wc -w)" -ne 1 ]; then
    why="not one state file in $STATE: '$files'"
else
    f=$STATE/$files
    grep -qxF "# input: $T/in/demo.out" "$f" || why="the input is not named: $(cat "$f")"
    # the trimming key d on the first row: lm.fit (report --by self's first)
    first=$("$STACKSCOPE" report --format tsv demo.out | awk -F '\t' 'NR == 2 { print $1 }')
    [ "$(grep -v '^#' "$f")" = "drop $first"$'\n'"drop-samples 1:10" ] || why="the list: $(cat "$f")"
fi
ls -A "$T/in" | diff "$T/in.before" - >/dev/null || why="a file beside the input: $(ls -A "$T/in")"
check "state: Q keeps the transform list under XDG_STATE_HOME, not beside the input" "$why"

# --resume applies it: without a terminal, as report -e does.
"$STACKSCOPE" --resume demo.out 2>"$T/resume.err" >"$T/resume.txt"
"$STACKSCOPE" report -e "drop $first" -e 'drop-samples 1:10' demo.out >"$T/resume.want"
check "state: --resume FILE | cat prints report -e's report" \
    "$(diff "$T/resume.want" "$T/resume.txt" | head -n 5; cat "$T/resume.err")"
# ... and the explorer, by another spelling of the same file.
ui resumed --resume ./demo.out <<'EOF'
DUMP start
EOF
why=
kept=$(awk '/^samples/ { print $2 }' "$T/resume.want")
[[ $(tail -n 2 "$T/resumed.start" | head -n 1) == *"| $kept of 5522 samples |"*"| 2 transforms: drop $first; drop-s"* ]] ||
    why="status: $(tail -n 2 "$T/resumed.start")"
[[ $(bottom "$T/resumed.start") == "resumed the last session: 2 transforms"* ]] ||
    why="message: $(bottom "$T/resumed.start")"
check "state: --resume FILE in the explorer" "$why"
# :resume in a session; a session with no transforms leaves the file alone.
cp "$STATE/$files" "$T/state.before"
ui colon demo.out <<'EOF'
:resume
DUMP resumed
u
q
EOF
why=
[[ $(bottom "$T/colon.resumed") == "resumed the last session: 2 transforms added"* ]] ||
    why="message: $(bottom "$T/colon.resumed")"
cmp -s "$T/state.before" "$STATE/$files" || why="a session without transforms replaced the list"
check "state: :resume; a session without transforms keeps the last list" "$why"
# No saved session: exit 2 and the file it looked for.
"$STACKSCOPE" --resume small.out >/dev/null 2>"$T/none.err"
rc=$?
check "state: --resume with no saved session" \
    "$([ $rc -eq 2 ] && grep -q "no saved session for small.out ($STATE/" "$T/none.err" ||
        echo "exit $rc: $(cat "$T/none.err")")"

# ---- nobody else can steer the state file (issue 27) ------------------------
# The directory is made 0700 and the file 0600 (the session above).
check "state: the directory is made 0700, the file 0600" \
    "$([ "$(stat -c %a "$STATE")" = 700 ] && [ "$(stat -c %a "$STATE/$files")" = 600 ] ||
        stat -c '%n %a' "$STATE" "$STATE/$files")"
"$STACKSCOPE" report demo.out >"$T/plain.report"
# resumed NAME WHY: --resume demo.out without a terminal resumes nothing and
# says WHY in one warning: the report is the plain one, exit status 0, at
# once (a FIFO never blocks).
resumed() {
    timeout 10 "$STACKSCOPE" --resume demo.out >"$T/$1.txt" 2>"$T/$1.err"
    local rc=$? why=
    [ $rc -eq 0 ] || why="exit $rc"
    cmp -s "$T/plain.report" "$T/$1.txt" || why="$why; transforms were resumed"
    [ "$(cat "$T/$1.err")" = "stackscope: warning: $STATE/$files $2: no transforms resumed" ] ||
        why="$why; stderr: $(head -c 300 "$T/$1.err")"
    check "state: $1" "$why"
}
# A link planted at the file's name is not followed when reading...
printf 'drop-samples 1:5000\n' >"$T/planted"
cp "$STATE/$files" "$T/state.saved"
ln -sf "$T/planted" "$STATE/$files"
resumed link "is a symbolic link"
# ... nor when writing: the link goes, its target stays.
ui plant demo.out <<'EOF'
:drop-samples 1:10
Q
EOF
why=
[ "$(cat "$T/planted")" = 'drop-samples 1:5000' ] || why="the link's target was replaced: $(head -c 200 "$T/planted")"
[ -L "$STATE/$files" ] && why="$why; the link is still there"
grep -qx 'drop-samples 1:10' "$STATE/$files" || why="$why; not saved: $(cat "$STATE/$files")"
check "state: a link planted at the file's name is replaced, its target left alone" "$why"
rm -f "$STATE/$files"
mkfifo "$STATE/$files"
resumed fifo "is not a regular file"
rm -f "$STATE/$files"
head -c 1100000 /dev/zero | tr '\0' '#' >"$STATE/$files"
resumed big "is larger than 1 MiB: not a state file stackscope wrote"
# A file that does not parse: nothing of it (not even its first line).
printf 'drop-samples 1:10\nfrobnicate 3\n' >"$STATE/$files"
"$STACKSCOPE" --resume demo.out >"$T/unparsable.txt" 2>"$T/unparsable.err"
check "state: a file that does not parse resumes nothing, with a warning" \
    "$([ $? -eq 0 ] && cmp -s "$T/plain.report" "$T/unparsable.txt" &&
        grep -q "^stackscope: warning: $STATE/$files: no transforms resumed: $STATE/$files:2:1: " "$T/unparsable.err" ||
        head -c 300 "$T/unparsable.err")"
# A state directory that is a link, or that others can write, is not used:
# one warning when the explorer quits, exit status 0, nothing written.
# check_dir NAME: the session saved nothing and said why once.
check_dir() {
    local why=
    [ "$(grep -c . "$T/$1.err")" -eq 1 ] &&
        grep -q "^stackscope: warning: the transform list is not kept for --resume: $2: not used for the session state$" "$T/$1.err" ||
        why="stderr: $(head -c 300 "$T/$1.err")"
    check "state: $3" "$why"
}
rm -rf "$STATE"
mkdir "$T/elsewhere"
ln -s "$T/elsewhere" "$STATE"
ui dirlink demo.out <<'EOF'
:drop-samples 1:10
Q
EOF
check_dir dirlink "$STATE is a symbolic link" "a state directory that is a link is refused"
[ -z "$(ls -A "$T/elsewhere")" ] || fail "state: nothing in the link's target" "$(ls -A "$T/elsewhere")"
rm "$STATE"
mkdir -m 0777 "$STATE"
chmod 0777 "$STATE" # whatever the umask
ui dirmode demo.out <<'EOF'
:drop-samples 1:10
Q
EOF
check_dir dirmode "$STATE is writable by others (chmod go-w fixes it)" "a state directory others can write is refused"
cp "$T/state.saved" "$STATE/$files"
timeout 10 "$STACKSCOPE" --resume demo.out >"$T/dirmode.txt" 2>"$T/dirmode.err"
check "state: nothing is read from a directory others can write" \
    "$(cmp -s "$T/plain.report" "$T/dirmode.txt" && grep -q "^stackscope: warning: $STATE is writable by others" "$T/dirmode.err" || head -c 300 "$T/dirmode.err")"
chmod 0700 "$STATE"
chmod 0777 "$XDG_STATE_HOME"
ui basemode demo.out <<'EOF'
:drop-samples 1:10
Q
EOF
chmod 0700 "$XDG_STATE_HOME"
check_dir basemode "$XDG_STATE_HOME is writable by others (chmod go-w fixes it)" "an XDG_STATE_HOME others can write is refused"
# No input's name adds a line: a newline in a path is escaped in the comment
# lines, and --resume applies exactly the one transform of the session.
evil=$'evil\ndrop-samples 1:5000\n#.out'
cp demo.out "$evil"
ui evilname "$evil" <<'EOF'
:drop-samples 1:10
Q
EOF
"$STACKSCOPE" --resume "$evil" >"$T/evil.txt" 2>"$T/evil.err"
"$STACKSCOPE" report -e 'drop-samples 1:10' "$evil" >"$T/evil.want"
why=$(diff "$T/evil.want" "$T/evil.txt" | head -n 5; cat "$T/evil.err")
grep -rqF "# input: $T/in/evil\\ndrop-samples 1:5000\\n#.out" "$STATE" || why="$why; the input line: $(grep -rh '^# input' "$STATE")"
check "state: a newline in an input's name adds no transform" "$why"
# Nor in a function's name (a speedscope file's): the step `drop NAME` of the
# key d reads back as itself.
printf '%s' '{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"main"},{"name":"evil\ndrop-samples 1:2"}]},"profiles":[{"type":"sampled","name":"p","unit":"none","startValue":0,"endValue":4,"samples":[[0,1],[0,1],[0,1],[0]],"weights":[1,1,1,1]}]}' >nl.json
ui evilfn nl.json <<'EOF'
d
Q
EOF
"$STACKSCOPE" --resume nl.json >"$T/evilfn.txt" 2>"$T/evilfn.err"
"$STACKSCOPE" report -e 'drop "evil\ndrop-samples 1:2"' nl.json >"$T/evilfn.want"
check "state: a newline in a function's name reads back as itself" \
    "$(diff "$T/evilfn.want" "$T/evilfn.txt" | head -n 5; cat "$T/evilfn.err")"

# ---- the selection survives undo ---------------------------------------------

# j selects the second function of report --by self (.External2 on the
# demo); d drops it, u brings it back: f then focuses it, not the function
# that took its row while it was dropped (make.unique before the fix).
second=$("$STACKSCOPE" report --format tsv demo.out | awk -F '\t' 'NR == 3 { print $1 }')
ui sel demo.out <<'EOF'
j
d
u
DUMP undone
f
DUMP focused
Q
EOF
why=
[[ $(top "$T/sel.undone") == *" 2/246 "* ]] || why="after u: $(top "$T/sel.undone")"
[[ $(tail -n 2 "$T/sel.focused" | head -n 1) == *"1 transform: focus $second" ]] ||
    why="f: $(tail -n 2 "$T/sel.focused" | head -n 1)"
check "selection: j d u f focuses the second function ($second)" "$why"

# While the current function is out of the view (after d), a view of one
# function shows the highlighted row's: 5 shows the calls of the function
# now second by self time (report -e 'drop SECOND'), not "not in the profile".
third=$("$STACKSCOPE" report --format tsv -e "drop $second" demo.out | awk -F '\t' 'NR == 3 { print $1 }')
ui selcalls demo.out <<'EOF'
j
d
5
DUMP calls
Q
EOF
check "selection: j d 5 shows the calls of the highlighted function ($third)" \
    "$([[ $(top "$T/selcalls.calls") == " calls: $third:"* ]] || top "$T/selcalls.calls")"

# ---- messages ------------------------------------------------------------------

# A name or regex that matches no function warns, in report and explorer.
"$STACKSCOPE" report -e 'focus lm.fti' -e 'drop /^zzz/' demo.out >/dev/null 2>"$T/nomatch.err"
rc=$?
why=
[ $rc -eq 0 ] || why="exit $rc"
grep -qxF 'stackscope: warning: focus lm.fti: no function matches' "$T/nomatch.err" ||
    why="no warning for focus lm.fti: $(cat "$T/nomatch.err")"
grep -qxF 'stackscope: warning: drop /^zzz/: no function matches' "$T/nomatch.err" ||
    why="no warning for drop /^zzz/: $(cat "$T/nomatch.err")"
"$STACKSCOPE" report -e 'focus lm.fit' demo.out >/dev/null 2>"$T/match.err"
[ -s "$T/match.err" ] && why="a warning for a name that matches: $(cat "$T/match.err")"
check "report: a transform that matches no function warns" "$why"
ui nomatch demo.out <<'EOF'
:focus lm.fti
DUMP msg
Q
EOF
check "explorer: a transform that matches no function warns" \
    "$([[ $(bottom "$T/nomatch.msg") == "focus lm.fti: no function matches"* ]] || bottom "$T/nomatch.msg")"

# Reversed ranges are errors with the column (and the line in a script).
"$STACKSCOPE" report -e 'keep-samples 10:5' demo.out >/dev/null 2>"$T/rev.err"
rc=$?
check "report: keep-samples 10:5 is an error at column 14" \
    "$([ $rc -eq 1 ] && grep -q 'column 14: reversed range 10:5' "$T/rev.err" || echo "exit $rc: $(cat "$T/rev.err")")"
printf 'drop lm.fit\ndrop-samples -1:-5\n' >"$T/rev.script"
"$STACKSCOPE" report --script "$T/rev.script" demo.out >/dev/null 2>"$T/rev2.err"
rc=$?
check "report: a reversed range in a script names line and column" \
    "$([ $rc -eq 1 ] && grep -q "rev.script:2:14: reversed range -1:-5" "$T/rev2.err" || echo "exit $rc: $(cat "$T/rev2.err")")"
"$STACKSCOPE" report -e 'keep-samples 5:-1' -e 'drop-samples -3:-1' demo.out >/dev/null 2>&1
check "report: ranges of mixed signs and ordered ranges still work" "$([ $? -eq 0 ] || echo failed)"

# One sample, not "1 samples".  one.out: one sample f < main, interval 10 ms.
printf 'sample.interval=10000\n"f" "main" \n' >one.out
"$STACKSCOPE" check one.out >"$T/one.check"
why=
grep -q '1 sample$' "$T/one.check" || why="check: $(cat "$T/one.check")"
grep -q 'samples: 1 (0 with no frames)' "$T/one.check" || why="check: $(cat "$T/one.check")"
grep -q '1 samples\|1 frames\|2 frame$' "$T/one.check" && why="check: $(cat "$T/one.check")"
ui one demo.out <<'EOF'
:keep-samples 1:1
DUMP msg
Q
EOF
# the first demo sample: .External2 < lm < eval ... (hand-checked in the
# file); keep-samples 1:1 keeps 1 sample, 1 transform
[[ $(bottom "$T/one.msg") == "keep-samples 1:1: 5522 -> 1 sample, 0 frames removed, 0 stacks changed" ]] ||
    why="$(bottom "$T/one.msg")"
[[ $(tail -n 2 "$T/one.msg" | head -n 1) == *"| 1 of 5522 samples |"*"| 1 transform: keep-samples 1:1" ]] ||
    why="status: $(tail -n 2 "$T/one.msg" | head -n 1)"
check "messages: 1 sample, 1 transform" "$why"

# ---- no terminal, or one that cannot move the cursor -----------------------------

"$STACKSCOPE" demo.out </dev/null 2>"$T/pipe.err" | cat >"$T/pipe.txt"
"$STACKSCOPE" report demo.out >"$T/pipe.want"
check "stackscope FILE | cat prints report FILE's report" \
    "$(diff "$T/pipe.want" "$T/pipe.txt" | head -n 5; cat "$T/pipe.err")"
check "no hint that report rejects" "$(grep -e '--limit 0' "$T/pipe.txt")"

if have script && script -qec true /dev/null >/dev/null 2>&1; then
    # script(1) gives the program a terminal; TERM=dumb has no cursor motion
    TERM=dumb timeout 10 script -qec "'$STACKSCOPE' demo.out 2>$T/dumb.err" /dev/null </dev/null >"$T/dumb.txt"
    why=
    tr -d '\r' <"$T/dumb.txt" | diff "$T/pipe.want" - >/dev/null || why="not the report: $(head -n 3 "$T/dumb.txt")"
    grep -q 'cannot move the cursor: printing the report instead' "$T/dumb.err" || why="note: $(cat "$T/dumb.err")"
    check "TERM=dumb: the report, with a note on stderr" "$why"
else
    echo "SKIP TERM=dumb: no script(1)"
fi

# ---- the help screen's key column --------------------------------------------------

# (44 columns: the long keys get a row of their own above their text)
for size in 44x20 80x24 120x40; do
    STACKSCOPE_SIZE=$size ui help$size small.out <<'EOF'
?
/=> NEW<Enter>
DUMP replace
Q
EOF
    check "help at $size: ':replace F1 F2 ... => NEW' whole" \
        "$(grep -qE '^  :replace F1 F2 \.\.\. => NEW( |$)' "$T/help$size.replace" || grep replace "$T/help$size.replace")"
done

# ---- the man page and README say what the program does ---------------------------

MAN=$SRCDIR/man/stackscope.1
synopsis=$(awk '/^\.SH SYNOPSIS/{ on = 1; next } /^\.SH/{ on = 0 } on' "$MAN" | sed 's/\\-/-/g')
# every table report accepts (its own error message lists them) ...
tables=$("$STACKSCOPE" report --by bogus x 2>&1 | sed -n 's/.*(expected \(.*\))/\1/p' |
    sed 's/,/ /g; s/ or / /')
# ... and every report option of --help
options=$("$STACKSCOPE" --help | awk '/^Report options:/{ on = 1; next } /^[A-Z]/{ on = 0 }
    on && $1 ~ /^--/ { print $1 }')
why=
[ -n "$tables" ] && [ -n "$options" ] || why="no tables or options found"
for t in $tables; do
    grep -qE "(^|[ |])$t( |\||\]|$)" <<<"$synopsis" || why="$why table $t;"
done
for o in $options -e --script; do
    grep -qF -- "$o" <<<"$synopsis" || why="$why option $o;"
done
check "man: the SYNOPSIS lists every report table and option" "$why"
check "man, README: no 'later version'" "$(grep -n 'later version' "$MAN" "$SRCDIR/README.md")"
why=
for f in "$MAN" "$SRCDIR/README.md"; do
    grep -q 'XDG_STATE_HOME' "$f" || why="$why $f: no XDG_STATE_HOME;"
    grep -q -- '--resume\|\\-\\-resume' "$f" || why="$why $f: no --resume;"
done
"$STACKSCOPE" --help | grep -q -- '--resume FILE' || why="$why --help: no --resume;"
awk '/^\.SH ENVIRONMENT/{ on = 1; next } /^\.SH/{ on = 0 } on' "$MAN" | grep -q '^\.B XDG_STATE_HOME' ||
    why="$why ENVIRONMENT: no XDG_STATE_HOME;"
check "man, README, --help: the state file and --resume are documented" "$why"

finish
