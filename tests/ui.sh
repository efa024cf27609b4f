#!/bin/bash
# The ncurses UI, headless (stackscope(1), THE EXPLORER): keys and commands
# come from a script (STACKSCOPE_SCRIPT), ncurses draws on a virtual 80x24
# screen, and `:save-display FILE` dumps the screen as text.  Each dump is
# compared with an expected screen in tests/data/ui/ and, for the demo profile,
# its numbers are also checked row by row against `stackscope report` (a
# separate code path whose numbers tests/oracle.sh checks against R's
# summaryRprof).
#
# The expected screens of the small fixture (tests/data/ui/small.out, 10
# samples of 10 ms) were checked by hand; the numbers are:
#   self:  g 3 (0.030 s, 30%), setup 3, f 2 (0.020, 20%), h 1, save 1;
#   total: main 10, run 10, work 6, f 5, g 3, setup 3, h 1, save 1
#          (report --by self / --by total);
#   runs (report --by runs): main, run: 1 run of 10; setup 1 of 3; work 1 of
#          6; save 1 of 1; f 2 runs (4, 1: mean 2.50, level 4); g 2 runs
#          (2, 1: mean 1.50, level 5); h 1 of 1;
#   levels (report --by levels): 1 main 10/10, 2 run 10/10 (the scaffold:
#          1-2), 3 work 6 of 10 (60%), 4 f 5 of 6 (83.33%), 5 g 3 of 3;
#   stacks (report --by stacks): main;run;setup 3, main;run;work;f;g 3,
#          main;run;work;f 2, main;run;save 1, main;run;work;h 1;
#   calls of f (report --by calls --function f): caller work 5, callee g 3,
#          total 5, self 2;
#   timeline (report --by timeline --level 3): setup x3, work x6, save;
#   top-down tree (report --by tree): main 100 > run 100 > work 60 > f 50
#          (self 20) > g 30; work > h 10; run > setup 30, save 10.
#
# UPDATE_UI_EXPECTED=1 tests/ui.sh rewrites the expected screens after a
# deliberate change of the UI: check them by hand again before committing.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

T=$TMPD
EXP=$SRCDIR/tests/data/ui
# The profiles are copied so that the screens show the same paths wherever
# the tests run (the demo with its R script, which the lines view shows).
cp "$EXP/small.out" "$EXP/utf8.out" "$SRCDIR/data/demo.out" "$T/" || exit 99
mkdir -p "$T/demo" && cp "$SRCDIR/data/demo/regression.R" "$T/demo/" || exit 99
DEMO=demo.out
SMALL=small.out
# The UI runs in a UTF-8 locale; the checks here read its dumps byte by byte.
export LC_ALL=C
unset STACKSCOPE_UI_TIMING STACKSCOPE_SIZE NO_COLOR
cd "$T" || exit 99

# same DUMP: the dump $T/DUMP equals tests/data/ui/DUMP.txt.
same() {
    local got=$T/$1 want=$EXP/$1.txt
    if [ -n "$UPDATE_UI_EXPECTED" ] && [ -f "$got" ]; then
        cp "$got" "$want"
    fi
    if [ ! -f "$got" ]; then
        fail "$1" "no screen dump"
    elif [ ! -f "$want" ]; then
        fail "$1" "no expected screen $want"
    elif diff -u "$want" "$got" >"$T/diff"; then
        pass "$1"
    else
        fail "$1" "screen differs from $want:"$'\n'"$(head -n 40 "$T/diff")"
    fi
}

# ---- the small fixture: every view, checked by hand ------------------------

ui small "$SMALL" <<'EOF'
DUMP functions
s
DUMP functions-by-total
S
DUMP functions-reversed
2<Enter>jj
DUMP stacks-open
3
DUMP topdown
4
DUMP bottomup
:calls f
DUMP calls-f
6
DUMP timeline
7
DUMP levels
:runs f
DUMP runs-f
0
DUMP sources
9
DUMP lines
EOF
for d in functions functions-by-total functions-reversed stacks-open topdown bottomup \
    calls-f timeline levels runs-f sources lines; do
    same "small.$d"
done

# Sort by total: main and run (0.100 s) first, then work, f.
why=
[[ $(line 3 "$T/small.functions-by-total") == *"0.100  100.00"*main ]] || why="row 1 is not main"
[[ $(line 5 "$T/small.functions-by-total") == *"0.060   60.00"*work ]] || why="row 3 is not work"
check small.sort-total "$why"

# The tree's orders (s, S), as report --sort orders siblings, worked out
# by hand: run's children by self are setup 0.03, save 0.01, work 0;
# by name save, setup, work (work's f, h); reversed work (h, f), setup,
# save, the last drawn with the corner.
ui treesort "$SMALL" <<'EOF2'
3
s
DUMP self
s
DUMP name
S
DUMP name-reversed
/g<Enter>
DUMP search
EOF2
tree_names() { sed -n '3,10p' "$T/treesort.$1" | awk '{ print $NF }' | tr '\n' ' '; }
for t in "self:main run setup save work f g h :self%↓" \
    "name:main run save setup work f g h :function↓" \
    "name-reversed:main run work h f g setup save :function↑"; do
    d=${t%%:*} want=${t#*:} head=${t##*:}
    want=${want%:*}
    check "tree order by $d" "$(got=$(tree_names "$d"); [ "$got" = "$want" ] || echo "rows: $got")"
    check "tree order by $d: the header marks it" "$(line 2 "$T/treesort.$d" | grep -qF "$head" || line 2 "$T/treesort.$d")"
done
check "tree order reversed: the last child drawn last" \
    "$(line 10 "$T/treesort.name-reversed" | grep -q '└─  save' || line 10 "$T/treesort.name-reversed")"
check "tree search in the order shown: g is row 6" \
    "$(line 8 "$T/treesort.search" | grep -q ' g$' && line 1 "$T/treesort.search" | grep -q ' 6/8 ' || head -n 10 "$T/treesort.search")"

# ---- navigation, search, help, mouse ---------------------------------------

ui nav "$SMALL" <<'EOF'
G
DUMP last
g
DUMP first
/setup<Enter>
DUMP search
/zzz<Enter>
DUMP nomatch
<Click 5 6>
DUMP click
:resize 100x30
DUMP resized
?
DUMP help
q
DUMP back
EOF
why=
[[ $(line 1 "$T/nav.last") == *" 8/8 "* ]] || why="G: not on row 8: $(line 1 "$T/nav.last")"
[[ $(line 1 "$T/nav.first") == *" 1/8 "* ]] || why="g: not on row 1"
check nav.first-last "$why"
# setup holds 3 of the 10 samples: 30.0%
check nav.search "$( [[ $(line 24 "$T/nav.search") == "/setup: match 1 of 1; 30.0% of the samples have a matching function" && $(line 1 "$T/nav.search") == *" 2/8 "* ]] || line 24 "$T/nav.search")"
check nav.search-nomatch "$( [[ $(line 24 "$T/nav.nomatch") == "/zzz: no match" ]] || line 24 "$T/nav.nomatch")"
# Screen row 6 is the 5th function (row 0 the title, 1 the header, rows from 2).
check nav.click "$( [[ $(line 1 "$T/nav.click") == *" 5/8 "* ]] || line 1 "$T/nav.click")"
why=
[ "$(wc -l <"$T/nav.resized")" -eq 30 ] || why="not 30 rows"
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m }' "$T/nav.resized")" -le 100 ] || why="wider than 100"
[ "$(line 1 "$T/nav.resized" | wc -c)" -eq 100 ] || why="title not 100 columns wide (the last a blank)"
check nav.resize "$why"
same nav.help
check nav.back "$( [[ $(line 1 "$T/nav.back") == " functions:"* ]] || line 1 "$T/nav.back")"

# ---- editing: replace from the stacks view, completion, the transforms view --

# In the stacks view, the frames main and run of the first stack replaced by
# one frame "top" (replace main run => top: every stack now starts top;...,
# 10 frames removed, 5 stacks changed); the transforms view turns it off and
# on; ":dro<Tab>" offers drop and drop-samples, "se<Tab>" completes setup
# (drop setup: 10 -> 7 samples); K moves it up, e edits it, d deletes.
ui edit "$SMALL" <<'EOF'
2<Enter>jm<Down>R
DUMP replace-prompt
top<Enter>
DUMP replaced
T<Space>
DUMP off
<Space><:>dro<Tab>
DUMP complete-command
<Space>se<Tab>
DUMP complete-name
<Enter>jK
DUMP moved
e<C-u>drop save<Enter>
DUMP edited
jd
DUMP deleted
u
DUMP undone
:calls top
DUMP calls
EOF
for d in replace-prompt replaced off complete-command complete-name moved edited deleted undone calls; do
    same "edit.$d"
done
check edit.replace-prompt "$( [[ $(line 24 "$T/edit.replace-prompt") == ":replace main run => " || $(line 24 "$T/edit.replace-prompt") == ":replace main run =>" ]] || line 24 "$T/edit.replace-prompt")"
"$STACKSCOPE" report --by stacks -e 'replace main run => top' "$SMALL" | awk '/^ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+  /{ print $1, $2, $3, $4, $5 }' >"$T/r.rstacks"
sed -n '3,7p' "$T/edit.replaced" | awk '{ print $1, $2, $3, $4, $5 }' >"$T/u.rstacks"
check edit.replaced-vs-report "$(diff "$T/r.rstacks" "$T/u.rstacks")"
check edit.complete-command "$( [[ $(line 23 "$T/edit.complete-command") == "3 candidates: drop drop-phase drop-samples" && $(line 24 "$T/edit.complete-command") == ":drop" ]] || sed -n '23,24p' "$T/edit.complete-command")"
check edit.complete-name "$( [[ $(line 24 "$T/edit.complete-name") == ":drop setup" ]] || line 24 "$T/edit.complete-name")"
check edit.moved "$(sed -n 3p "$T/edit.moved" | grep -q 'drop setup$' || sed -n 3p "$T/edit.moved")"
check edit.undone "$(grep -q '2 transforms: drop save; replace main' "$T/edit.undone" || line 23 "$T/edit.undone")"

# ---- trees, the file view, scrolling, the mouse wheel, Tab ------------------

# The top-down tree collapses to main, expands again (* opens everything),
# focuses on work (report --by tree --function work: work 60, f 50 (self 20),
# g 30, h 10), and q comes back; the bottom-up tree focused on g shows what
# calls g (f, work, run, main: 30% each).
ui more "$SMALL" <<'EOF'
3h
DUMP tree-collapsed
l*jj<Enter>
DUMP tree-focus
q
DUMP tree-back
4<Enter>
DUMP bottomup-focus
1<Tab>
DUMP tab
<S-Tab>
DUMP s-tab
EOF
for d in tree-collapsed tree-focus tree-back bottomup-focus; do
    same "more.$d"
done
check more.tree-collapsed "$( [ "$(sed -n '3,21p' "$T/more.tree-collapsed" | grep -c .)" -eq 1 ] || sed -n '3,6p' "$T/more.tree-collapsed")"
# (report gives % of the focus's samples, the UI of all: compare seconds)
"$STACKSCOPE" report --by tree --function work --format tsv "$SMALL" | awk -F '\t' 'NR > 1 { printf "%.3f %.3f %s\n", $4, $3, $2 }' >"$T/r.ftree"
sed -n '3,21p' "$T/more.tree-focus" | awk 'NF { print $3, $4, $NF }' >"$T/u.ftree"
check more.tree-focus-vs-report "$(diff "$T/r.ftree" "$T/u.ftree")"
check more.tab "$( [[ $(line 1 "$T/more.tab") == " stacks:"* && $(line 1 "$T/more.s-tab") == " functions:"* ]] || line 1 "$T/more.tab")"

# The lines view's Enter opens the code pane of regression.R centred on
# its hottest line (report --by line --sort self: the first row); ] and [
# step through the hot lines in that order; the run lengths table scrolls
# sideways; the wheel scrolls three rows.
ui file "$DEMO" <<'EOF'
9<Enter>
DUMP file
]
DUMP file-next
]
DUMP file-next2
[
[
DUMP file-back
q
:runs FUN
l
DUMP runs-scrolled
1<WheelDown 10 10>
DUMP wheel
EOF
same file.file
same file.runs-scrolled
"$STACKSCOPE" report --by line --sort self --limit 3 --format tsv "$DEMO" | awk -F '\t' 'NR > 1 { sub(/.*#/, "", $1); printf "%s %.3f %.3f\n", $1, $2, $4 }' >"$T/hot3"
why=
[[ $(line 1 "$T/file.file") == " lines: regression.R, time per line; ] [ hot lines "* ]] || why="title: $(line 1 "$T/file.file")"
# the hottest line, selected and in the middle of the 19 rows of the body
# (screen row 3 + 9), with report's self and total
read -r n self total < <(line 1 "$T/hot3")
[ -z "$why" ] && [[ $(line 1 "$T/file.file") != *" $n/"* ]] && why="not on line $n: $(line 1 "$T/file.file")"
[ -z "$why" ] && ! [[ $(line 12 "$T/file.file") =~ ^\ +$self\ .*\ $total\ .*\ $n\  ]] && why="row 12 is not line $n with $self $total: $(line 12 "$T/file.file")"
check file.view-hottest-centred "$why"
why=
for k in 2 3; do
    read -r n self total < <(line "$k" "$T/hot3")
    d=$([ "$k" = 2 ] && echo file.file-next || echo file.file-next2)
    [[ $(line 1 "$T/$d") == *" $n/"* ]] || why="] $((k - 1)): not on line $n: $(line 1 "$T/$d")"
    [ -z "$why" ] && ! [[ $(line 12 "$T/$d") =~ ^\ +$self\ .*\ $n\  ]] && why="] $((k - 1)): row 12: $(line 12 "$T/$d")"
done
read -r n self total < <(line 1 "$T/hot3")
[[ $(line 1 "$T/file.file-back") == *" $n/"* ]] || why="[ [: not back on line $n: $(line 1 "$T/file.file-back")"
check file.hot-lines "$why"
# memory: the line's alloc and released as report --by list --memory prints them
want=$("$STACKSCOPE" report --by list --memory --sort self --limit 1 "$DEMO" | awk '/regression.R#/{ print $3, $4, $5, $6 }')
check file.memory "$(line 12 "$T/file.file" | awk -v w="$want" '{ s = ""; for (i = 2; i <= NF; i++) if ($i ~ /^[kMGT]?B$/) s = s (s ? " " : "") $(i - 1) " " $i; if (s != w) print "row: " $0 " want " w }')"
check file.runs-scrolled "$(grep -q '^  level      <' "$T/file.runs-scrolled" || grep level "$T/file.runs-scrolled")"

# From anywhere to the line (a): a flame frame at one line opens the pane
# there, its detail line naming file:line; a function opens at its hottest
# line with its lines marked; Enter on a line keeps its samples (keep-line,
# as report -e 'keep-line ...' counts them).
fn_line=$("$STACKSCOPE" report --by list --function '^load_packages$' --format tsv "$DEMO" | awk -F '\t' 'NR > 1 && $3 > 0 { print $2; exit }')
ui goto "$DEMO" <<'EOF'
F
/load_packages<Enter>
DUMP flame
a
DUMP pane
q
1
/fit_one<Enter>
a
DUMP fn
<Enter>
DUMP kept
EOF
why=
grep -q "demo/regression.R:$fn_line |" "$T/goto.flame" || why="flame detail: $(grep total "$T/goto.flame")"
[[ $(line 1 "$T/goto.pane") == *" $fn_line/"* ]] || why="$why; pane not on line $fn_line: $(line 1 "$T/goto.pane")"
check goto.flame-frame "$why"
read -r n self total < <(line 1 "$T/hot3")
why=
[[ $(line 1 "$T/goto.fn") == *" $n/"* ]] || why="fit_one: not on line $n: $(line 1 "$T/goto.fn")"
[[ $(line 12 "$T/goto.fn") == *"│$n "* ]] || why="$why; line $n not marked: $(line 12 "$T/goto.fn")"
check goto.function-hottest-marked "$why"
kept=$("$STACKSCOPE" report -e "keep-line regression.R#$n" --format tsv --by sources "$DEMO" | awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "samples") c = i } NR == 2 { print $c }')
check goto.keep-line "$(grep -q "| $kept of 5522 samples | .* | 1 transform: keep-line regression" "$T/goto.kept" && [ "$kept" -lt 5522 ] || tail -n 2 "$T/goto.kept")"
check file.wheel "$( [[ $(line 1 "$T/file.wheel") == *" 4/246 "* ]] || line 1 "$T/file.wheel")"

# A bad script: exit status 1 and a message naming its line.
printf 'j\n<Bogus>\n' >bad.script
STACKSCOPE_SCRIPT=bad.script "$STACKSCOPE" "$SMALL" >/dev/null 2>bad.err </dev/null
rc=$?
check script.bad-key "$( [ $rc -eq 1 ] && grep -q 'bad.script:2: unknown key <Bogus>' bad.err || echo "exit $rc: $(cat bad.err)")"
STACKSCOPE_SCRIPT=missing.script "$STACKSCOPE" "$SMALL" >/dev/null 2>bad.err </dev/null
rc=$?
check script.missing "$( [ $rc -eq 1 ] && grep -q 'missing.script: cannot open' bad.err || echo "exit $rc: $(cat bad.err)")"

# ---- the help screen and the man page come from the key table --------------

# help_roff: the :save-help reference as the man page's KEYS list.
help_roff() {
    awk -F '\t' '
        function esc(s) { gsub(/\\/, "\\e", s); gsub(/-/, "\\-", s); return s }
        /^# / { print ".SS \"" esc(substr($0, 3)) "\""; next }
        {
            d = esc($2); if (d ~ /^[.\x27]/) d = "\\&" d
            print ".TP"; print ".B \"" esc($1) "\""; print d
        }'
}
ui keys "$SMALL" <<'EOF'
:save-help keys.txt
EOF
MAN=$SRCDIR/man/stackscope.1
help_roff <keys.txt >keys.roff
awk '/^\.\\" BEGIN KEYS/{ on = 1; next } /^\.\\" END KEYS/{ on = 0 } on' "$MAN" >man.keys
if [ -n "$UPDATE_UI_EXPECTED" ]; then
    awk -v keys=keys.roff '/^\.\\" BEGIN KEYS/{ print; while ((getline l < keys) > 0) print l; skip = 1; next }
        /^\.\\" END KEYS/{ skip = 0 } !skip' "$MAN" >man.new && cp man.new "$MAN"
    help_roff <keys.txt >man.keys
fi
check keys.man-page "$(diff man.keys keys.roff | head -n 10)"
# Every key of the table is on the help screen (it is generated from it).
why=
while IFS=$'\t' read -r k d; do
    case $k in '#'*) continue ;; esac
    grep -qF -- "$(printf '%s' "$d" | cut -c1-40)" "$T/nav.help" "$T/keys.txt" || why="'$d' not on the help screen"
done <keys.txt
check keys.help-screen "$why"

# ---- UTF-8 names, long names, narrow screens --------------------------------

ui utf8 utf8.out <<'EOF'
DUMP functions
2
DUMP stacks
:resize 40x10
1
DUMP narrow
EOF
same utf8.functions
same utf8.stacks
same utf8.narrow

# ---- the demo profile, checked against report -------------------------------

ui demo "$DEMO" <<'EOF'
DUMP functions
9ss
DUMP lines-by-position
1
2
DUMP stacks
3
DUMP topdown
6
DUMP timeline
7
DUMP levels
1
:calls lm.fit
DUMP calls
:runs lm.fit
DUMP runs
0
DUMP sources
9
DUMP lines
EOF
for d in functions stacks topdown timeline levels calls runs sources lines; do
    same "demo.$d"
done

# The status line: file, samples kept of total, time (report's header).
check demo.status "$( [[ $(line 23 "$T/demo.functions") == " demo.out | 5522 of 5522 samples | 27.610 s | no transforms" ]] || line 23 "$T/demo.functions")"

# report_rows CMD...: report's text table rows (after the header line that
# starts with the first column's name).
"$STACKSCOPE" report --limit 0 "$DEMO" >"$T/r.self"
"$STACKSCOPE" report --by runs --format tsv "$DEMO" >"$T/r.runs"

# functions: self, self%, total, total% and the name equal report --by self
# (same order); runs and mean equal the "all" rows of report --by runs.
why=$(sed -n '3,21p' "$T/demo.functions" | awk -v self="$T/r.self" -v runs="$T/r.runs" '
    BEGIN {
        while ((getline l < self) > 0) if (l ~ /^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  /) {
            split(l, f, " "); n++; s[n] = f[1] " " f[2] " " f[3] " " f[4]
            sub(/^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  /, "", l); nm[n] = l
        }
        FS = "\t"
        while ((getline l < runs) > 0) { split(l, f, "\t"); if (f[2] == "all") { r[f[1]] = f[3]; m[f[1]] = sprintf("%.2f", f[5]) } }
        FS = " "
    }
    {
        i++; name = $0; for (k = 0; k < 6; k++) sub(/^ *[^ ]+/, "", name); sub(/^ +/, "", name)
        if ($1 " " $2 " " $3 " " $4 != s[i] || name != nm[i]) { print "row " i ": " $0 " / report: " s[i] " " nm[i]; exit }
        if ($5 != r[name] || $6 != m[name]) { print "runs of " name ": " $5 " " $6 " / report: " r[name] " " m[name]; exit }
    }')
check demo.functions-vs-report "$why"

# Sorted by runs (s twice): the key does not wait for the background pass,
# and the rows are sorted once the run lengths are there (a script's
# :save-display waits for them): runs never increase down the rows, ties
# by self, and the title says runs without the note of the wait.
# The demo's samples twenty times over (110k samples), so that the pass
# is still running when the keys come.
{
    grep -v '^:' "$DEMO"
    for _ in $(seq 20); do grep '^:' "$DEMO"; done
} >"$T/demo20.out"
ui demo-runs "$T/demo20.out" <<'EOF2'
s
s
DUMP by-runs
EOF2
why=$(sed -n '3,21p' "$T/demo-runs.by-runs" | awk '
    NR > 1 && ($5 > r || ($5 == r && $1 > s)) { print "row " NR ": " $0 " after runs " r " self " s; exit }
    { r = $5; s = $1 }')
[ -z "$why" ] && ! [[ $(line 1 "$T/demo-runs.by-runs") == *"by runs"* ]] && why="title: $(line 1 "$T/demo-runs.by-runs")"
[[ $(line 1 "$T/demo-runs.by-runs") == *"sorting when"* ]] && why="still waiting: $(line 1 "$T/demo-runs.by-runs")"
check demo.sorted-by-runs "$why"

# levels: every row equals report --by levels (scaffold * included; the
# view's u marks user code, checked below).
"$STACKSCOPE" report --by levels "$DEMO" | awk '/^ +[0-9]+\*? /' | head -n 19 | awk '{ $1 = $1; print }' >"$T/r.levels"
sed -n '3,21p' "$T/demo.levels" | awk '{ $1 = $1; sub(/^[0-9]+\*u /, substr($1, 1, length($1) - 1) " "); print }' >"$T/u.levels"
check demo.levels-vs-report "$(diff "$T/r.levels" "$T/u.levels" | head -n 5)"
# u: the scaffold levels whose frames have a source position in the demo's
# raw lines: main, run_study and with_timing (a F#L token before the name),
# not system.time (base R, no srcref)
want=$(for fn in main run_study with_timing system.time; do
    grep -q "[0-9]#[0-9]* \"$fn\"" "$DEMO" && printf '%s ' "$fn"; done)
got=$(sed -n '3,21p' "$T/demo.levels" | awk '$1 ~ /\*u$/ { printf "%s ", $NF }')
check demo.levels-user-code "$([ "$got" = "$want" ] || echo "u on: $got; want: $want")"

# stacks: count, time, pct, depth equal report --by stacks.
"$STACKSCOPE" report --by stacks "$DEMO" | awk '/^ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+  /{ print $1, $2, $3, $4 }' | head -n 19 >"$T/r.stacks"
sed -n '3,21p' "$T/demo.stacks" | awk '{ print $1, $2, $3, $4 }' >"$T/u.stacks"
check demo.stacks-vs-report "$(diff "$T/r.stacks" "$T/u.stacks" | head -n 5)"

# calls of lm.fit: count, time, pct of callers, the total and the callees
# equal report --by calls --function lm.fit, in the same order.
"$STACKSCOPE" report --by calls --function lm.fit "$DEMO" | awk '/^ +[0-9]+ +[0-9.]+ +[0-9.]+ /{ print $1, $2, $3 }' >"$T/r.calls"
sed -n '3,21p' "$T/demo.calls" | awk 'NF >= 5 { print $2, $3, $4 }' >"$T/u.calls"
check demo.calls-vs-report "$(diff "$T/r.calls" "$T/u.calls" | head -n 5)"

# runs of lm.fit: the per-level rows and the run-length table equal report
# --by runs --function lm.fit (the table's columns that fit in 80).
"$STACKSCOPE" report --by runs --function lm.fit "$DEMO" >"$T/r.runsfn"
awk '/^ +(all|[0-9]+) +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+  /{ print $1, $2, $3, $4, $5, $6 }' "$T/r.runsfn" >"$T/r.runrows"
sed -n '3,21p' "$T/demo.runs" | awk '/^ +(all|[0-9]+) +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+ /{ print $1, $2, $3, $4, $5, $6 }' >"$T/u.runrows"
why=$(diff "$T/r.runrows" "$T/u.runrows" | head -n 5)
# the table: the UI shows the first 10 lengths; compare those columns
awk '/^  level/,0' "$T/r.runsfn" | awk 'NF { $1 = $1; n = split($0, f, " "); out = f[1]; for (i = 2; i <= 11 && i < n; i++) out = out " " f[i]; print out }' >"$T/r.table"
awk '/^  level/,/^   runs/' "$T/demo.runs" | awk 'NF { $1 = $1; n = split($0, f, " "); out = f[1]; for (i = 2; i <= 11 && i < n; i++) out = out " " f[i]; print out }' >"$T/u.table"
[ -z "$why" ] && why=$(diff "$T/r.table" "$T/u.table" | head -n 5)
check demo.runs-vs-report "$why"

# top-down tree: the rows shown are report --by tree's rows (total%, self%,
# name, depth from the indentation), in report's order (a subsequence: the
# UI collapses nodes under 10%).
"$STACKSCOPE" report --by tree "$DEMO" | awk '/^ +[0-9.]+ +[0-9.]+  /{ match($0, /^ +[0-9.]+ +[0-9.]+  /); rest = substr($0, RLENGTH + 1); d = 0; while (substr(rest, 2 * d + 1, 2) == "  ") d++; sub(/^ +/, "", rest); print $1, $2, rest }' >"$T/r.tree"
sed -n '3,21p' "$T/demo.topdown" | awk '{ name = $0; for (k = 0; k < 4; k++) sub(/^ *[^ ]+/, "", name); sub(/^ +/, "", name); sub(/^\[[0-9]+\]/, "", name); while (sub(/^(│|├─|└─|▾|▸| )/, "", name)) ; print $1, $2, name }' >"$T/u.tree"
why=$(awk -v want="$T/r.tree" 'BEGIN { while ((getline l < want) > 0) w[++n] = l }
    { while (i < n && w[++i] != $0) ; if (w[i] != $0) { print "not in report order: " $0; exit } }' "$T/u.tree")
check demo.tree-vs-report "$why"

# timeline: the level-6 row (window of 75 samples, 74 columns) names the
# same function per window as report --by timeline --level 6 --width 74.
"$STACKSCOPE" report --by timeline --level 6 --width 74 "$DEMO" >"$T/r.tl"
why=$(awk -v ui="$T/demo.timeline" '
    FNR == NR && /^  [a-zA-Z0-9]  / { rl[$1] = $2; next }
    FNR == NR && /^[a-zA-Z0-9.]+$/ && !rrow { rrow = $0; next }
    FNR == NR { next }
    /^   6  / { urow = substr($0, 7) }
    /^[a-zA-Z0-9] / { n = split($0, e, /  +/); for (i = 1; i <= n; i++) if (e[i] ~ /^[a-zA-Z0-9] /) ul[substr(e[i], 1, 1)] = substr(e[i], 3) }
    END {
        if (length(rrow) != length(urow)) { print "windows: report " length(rrow) ", ui " length(urow); exit }
        for (i = 1; i <= length(rrow); i++) {
            a = rl[substr(rrow, i, 1)]; b = ul[substr(urow, i, 1)]
            if (a != b) { print "window " i ": report " a ", ui " b; exit }
        }
    }' "$T/r.tl" "$T/demo.timeline")
check demo.timeline-vs-report "$why"

# sources: report --by sources (source, type, samples, the measure, pct,
# interval, flags: what 80 columns show).
"$STACKSCOPE" report --by sources "$DEMO" | awk 'NR == 2 { print $1, $2, $8, $9, $10, $5 $6, $7 }' >"$T/r.src"
line 3 "$T/demo.sources" | awk '{ print $1, $2, $3, $4, $5, $6 $7, $8 }' >"$T/u.src"
check demo.sources-vs-report "$(diff "$T/r.src" "$T/u.src")"

# lines: sorted by position, the rows equal report --by line (R's order),
# with the source text of data/demo/regression.R next to them.
"$STACKSCOPE" report --by line "$DEMO" | awk '/^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  /{ print $1, $2, $3, $4, $5 }' | head -n 19 >"$T/r.lines"
sed -n '3,21p' "$T/demo.lines-by-position" | awk '{ print $1, $2, $3, $4, $5 }' >"$T/u.lines"
why=$(diff "$T/r.lines" "$T/u.lines" | head -n 5)
if [ -z "$why" ]; then
    loc=$(line 3 "$T/demo.lines" | awk '{ print $5 }')
    n=${loc#*#}
    text=$(sed -n "${n}p" demo/regression.R | sed 's/^[ \t]*//' | cut -c1-20)
    [[ $(line 3 "$T/demo.lines") == *"$text"* ]] || why="no source text '$text' on the row of $loc"
fi
check demo.lines-vs-report "$why"

# ---- the README's session: the main phase kept, the scaffold cut -----------

# In the timeline, the cursor on fit_bootstrap_models at level 6, v marks the
# detected phase under it (the main one: the samples that have it at level
# 6, report --by levels says 4871) and K keeps only it (keep-phase main:
# burn-in and fade-out gone); :trim-base auto,all cuts
# the new scaffold, user code included (B, trim-base auto, would stop at main:
# it has source positions);
# then the run lengths of lm.fit.  Each screen equals report -e on the same
# transforms.
ui session "$DEMO" <<'EOF'
6>v
DUMP phase
K
DUMP kept
:trim-base auto,all
7
DUMP levels
1/lm.fit<Enter>8
DUMP runs
T
DUMP transforms
EOF
same session.phase
same session.kept
# The phases of a new model are found right after the key's screen is
# painted (the key answers first, as with the run lengths): the timing file
# has the deferred paint, and the dumps above (taken once everything is
# shown) have the phases.
printf '6\n>v\nK\nq\n' >defer.script
STACKSCOPE_SCRIPT=defer.script STACKSCOPE_UI_TIMING=defer.timing LC_ALL=C.UTF-8 "$STACKSCOPE" "$DEMO" >/dev/null 2>&1 </dev/null
check session.phases-deferred "$(awk -F '\t' '{ k = k " " $3 } END { if (k !~ / 6 \(deferred: phases\).* K \(deferred: phases\)/) print "keys:" k }' defer.timing)"
same session.levels
same session.runs
same session.transforms
top6=$("$STACKSCOPE" report --by levels "$DEMO" | awk '$1 == "6" { print $4 }')
check session.phase-is-level-6 "$( [[ $(line 23 "$T/session.kept") == *" $top6 of 5522 samples "* ]] || line 23 "$T/session.kept")"
keep=$(grep -o 'keep-phase main' "$T/session.transforms" | head -n 1)
check session.keep-phase "$( [ -n "$keep" ] || cat "$T/session.transforms")"
"$STACKSCOPE" report -e "$keep" -e 'trim-base auto,all' --by levels "$DEMO" | awk '/^ +[0-9]+\*? /' | head -n 19 | awk '{ $1 = $1; print }' >"$T/r.slevels"
sed -n '3,21p' "$T/session.levels" | awk '{ $1 = $1; print }' >"$T/u.slevels"
check session.levels-vs-report "$(diff "$T/r.slevels" "$T/u.slevels" | head -n 5)"
"$STACKSCOPE" report -e "$keep" -e 'trim-base auto,all' --by runs --function lm.fit "$DEMO" | awk '/^ +(all|[0-9]+) +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+  /{ print $1, $2, $3, $4, $5, $6 }' >"$T/r.sruns"
sed -n '3,21p' "$T/session.runs" | awk '/^ +(all|[0-9]+) +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9]+ /{ print $1, $2, $3, $4, $5, $6 }' >"$T/u.sruns"
check session.runs-vs-report "$(diff "$T/r.sruns" "$T/u.sruns" | head -n 5)"

# ---- trimming: the transformed model is report -e's ------------------------

ui trim "$DEMO" <<'EOF'
7jjjb
DUMP levels
6^+m<Right><Right><Right><Right><Right><Right><Right><Right><Right><Right><Right><Right><Right>
DUMP marked
d
DUMP dropped
T
DUMP transforms
1g
DUMP functions
u
DUMP undone
U
DUMP redone
:export-script script.txt
:export-script script.txt
DUMP exists
:w @DEMO@
DUMP input
:w! @DEMO@
DUMP inputforce
:export-script! @DEMO@
DUMP inputscript
:w saved.bogus
DUMP format
:w saved.out
DUMP saved
:frobnicate
DUMP unknown
:drop-samples 1:
DUMP parse-error
EOF
# After trim-base 4, the levels are report -e 'trim-base 4' --by levels'.
"$STACKSCOPE" report -e 'trim-base 4' --by levels "$DEMO" | awk '/^ +[0-9]+\*? /' | head -n 19 | awk '{ $1 = $1; print }' >"$T/r.tlevels"
sed -n '3,21p' "$T/trim.levels" | awk '{ $1 = $1; print }' >"$T/u.tlevels"
check trim.levels-vs-report "$(diff "$T/r.tlevels" "$T/u.tlevels" | head -n 5)"
same trim.levels
same trim.marked
same trim.dropped
same trim.transforms
# The drop-samples range the timeline made, and the functions after both
# steps, equal report -e 'trim-base 4' -e 'drop-samples A:B'.
range=$(grep -o 'drop-samples [0-9]*:[0-9]*' "$T/trim.transforms" | head -n 1)
why=
[ -n "$range" ] || why="no drop-samples step in the transforms view"
"$STACKSCOPE" report --limit 19 -e 'trim-base 4' -e "$range" "$DEMO" | awk '/^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  /{ print $1, $2, $3, $4, $5 }' >"$T/r.tfn"
sed -n '3,21p' "$T/trim.functions" | awk '{ print $1, $2, $3, $4, $7 }' >"$T/u.tfn"
[ -z "$why" ] && why=$(diff "$T/r.tfn" "$T/u.tfn" | head -n 5)
kept=$("$STACKSCOPE" report -e 'trim-base 4' -e "$range" "$DEMO" | awk '/^samples/{ print $2 }')
[ -z "$why" ] && [[ $(line 23 "$T/trim.functions") != *" $kept of 5522 samples "* ]] && why="status line: $(line 23 "$T/trim.functions"), report: $kept samples"
check trim.functions-vs-report "$why"
check trim.undo "$( [[ $(line 23 "$T/trim.undone") == *"| 1 transform: trim-base 4" ]] || line 23 "$T/trim.undone")"
check trim.redo "$( [[ $(line 23 "$T/trim.redone") == *"| 2 transforms: trim-base 4; drop-s"* ]] || line 23 "$T/trim.redone")"
# The exported script reproduces the list: report --script gives the same
# functions.
why=
if [ ! -f "$T/script.txt" ]; then
    why="no script written"
else
    grep -qx 'trim-base 4' "$T/script.txt" || why="no trim-base 4 in: $(cat "$T/script.txt")"
    grep -qx "$range" "$T/script.txt" || why="no $range in: $(cat "$T/script.txt")"
    "$STACKSCOPE" report --limit 19 --script "$T/script.txt" "$DEMO" | awk '/^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  /{ print $1, $2, $3, $4, $5 }' >"$T/r.sfn"
    [ -z "$why" ] && why=$(diff "$T/r.tfn" "$T/r.sfn" | head -n 5)
fi
check trim.export-script "$why"
# Errors go to the message line (the last line); nothing is overwritten.
check trim.export-exists "$(message "$T/trim.exists" | grep -q '^script.txt exists (:export-script! script.txt replaces it)' || message "$T/trim.exists")"
check trim.save-input "$(message "$T/trim.input" | grep -q 'demo.out is an input file' || message "$T/trim.input")"
check trim.save-input-forced "$(message "$T/trim.inputforce" | grep -q 'is an input file' || message "$T/trim.inputforce")"
check trim.script-input-forced "$(message "$T/trim.inputscript" | grep -q 'is an input file' || message "$T/trim.inputscript")"
cmp -s "$DEMO" "$SRCDIR/data/demo.out" || fail trim.input-untouched "the demo changed"
[ -e saved.bogus ] && fail trim.no-bogus-file "saved.bogus was written"
check trim.save-format "$(message "$T/trim.format" | grep -q '^saved.bogus: cannot tell the format from the name: .out (rprof), .pb.gz (pprof), .folded, .sprof.txt (sampling_prof), DIR/ (tables), .speedscope.json, .svg$' || message "$T/trim.format")"
check trim.unknown-command "$(message "$T/trim.unknown" | grep -q 'frobnicate: unknown command' || message "$T/trim.unknown")"
check trim.parse-error "$(message "$T/trim.parse-error" | grep -q 'drop-samples 1:: ' || message "$T/trim.parse-error")"
# Saving: with the Rprof writer, report reads the file back with the UI's
# numbers, and so does R's summaryRprof; without it, the message says so.
if tail -n 1 "$T/trim.saved" | grep -q 'not available yet'; then
    pass "trim.save (the rprof writer is not available yet: said so)"
elif [ ! -f "$T/saved.out" ]; then
    fail trim.save "no file written: $(tail -n 1 "$T/trim.saved")"
else
    "$STACKSCOPE" report --limit 19 "$T/saved.out" | awk '/^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  /{ print $1, $2, $3, $4, $5 }' >"$T/r.saved"
    check trim.save-readback "$(diff "$T/r.tfn" "$T/r.saved" | head -n 5)"
    if have Rscript; then
        # R's sampling time and first function by self time are report's
        Rscript -e "s <- summaryRprof('$T/saved.out'); cat(sprintf('%.3f', s\$sampling.time), gsub('\"', '', rownames(s\$by.self)[1]), '\n')" >"$T/r.R" 2>&1
        want="$("$STACKSCOPE" report -e 'trim-base 4' -e "$range" "$DEMO" | awk '/^time/{ print $2 }') $(awk 'NR == 1 { print $5 }' "$T/r.tfn")"
        check trim.save-summaryRprof "$(grep -qx "$want " "$T/r.R" || echo "R: $(cat "$T/r.R"), want $want")"
    fi
fi

# ---- :save-display and :save-help write as :w does (issue 27) --------------
# Never over an input (nor through a link to one), an existing file only
# with !, only a regular file (a FIFO refused without blocking on it),
# through a temporary file moved into place.
echo old >saved.txt
mkfifo saved.fifo
ln -s "$SMALL" small.link
ui saves "$SMALL" <<'EOF'
:save-display small.out
DUMP input
:save-help! small.link
DUMP link
:save-display saved.txt
DUMP exists
:save-display! saved.txt
:save-help saved.fifo
DUMP fifo
:save-help! saved.fifo
DUMP fifo-forced
:save-help! help.txt
:save-help help.txt
DUMP help-exists
EOF
cmp -s "$SMALL" "$EXP/small.out" || fail saves.input-untouched "small.out changed"
last() { tail -n 1 "$T/saves.$1"; }
# (a message wider than the screen wraps over the last rows)
check saves.input "$(grep -q '^small.out is an input file: stackscope never replaces one' "$T/saves.input" || last input)"
check saves.link "$(grep -q '^small.link is an input file: stackscope never replaces one' "$T/saves.link" || last link)"
check saves.exists "$(last exists | grep -qx 'saved.txt exists (:save-display! saved.txt replaces it)' || last exists)"
check saves.forced "$(cmp saved.txt "$T/saves.exists" 2>&1)"
check saves.fifo "$(last fifo | grep -qx 'saved.fifo exists (:save-help! saved.fifo replaces it)' || last fifo)"
check saves.fifo-forced "$(last fifo-forced | grep -qx 'saved.fifo: is a FIFO; only a regular file is replaced' || last fifo-forced)"
[ -p saved.fifo ] || fail saves.fifo-kept "saved.fifo is no longer a FIFO"
check saves.help "$(cmp keys.txt help.txt 2>&1)"
check saves.help-exists "$(last help-exists | grep -qx 'help.txt exists (:save-help! help.txt replaces it)' || last help-exists)"
check saves.no-temporary "$(ls ./*.stackscope-tmp-* 2>/dev/null)"

# The top function is the current one from the first screen: Tab to the
# calls view without moving shows lm.fit (report --by self: lm.fit first).
ui startcalls "$DEMO" <<'EOF2'
<Tab><Tab><Tab><Tab>
DUMP calls
EOF2
check "calls view from the start: the top function" \
    "$(line 1 "$T/startcalls.calls" | grep -q 'calls: lm.fit:' || line 1 "$T/startcalls.calls")"


# Function identity: in RProtoBuf's pprof of memory_line.out, `rnorm` has two
# function ids; the functions view shows one row for it with its self and
# total (433 samples of 1 ms: 433.0 ms, 7.20%, as report --by self, whose
# TSV gives the cpu measure in nanoseconds).  A
# pprof profile holds one sample per stack, in no time order (issue 32):
# its runs columns show "-", as folded stacks' do, and report --by runs
# refuses it.
cp "$SRCDIR/tests/data/pprof/rprotobuf/memory_line.pb.gz" "$T/ml.pb.gz"
ui ident ml.pb.gz <<'EOF'
DUMP functions
EOF
row=$(grep -E ' rnorm$' "$T/ident.functions")
want=$("$STACKSCOPE" report --by self --format tsv ml.pb.gz 2>/dev/null |
    awk -F'\t' '$1 == "rnorm" { printf "%.1f ms    %.2f", $2 / 1e6, $3 }')
why=
[ "$(grep -c ' rnorm$' "$T/ident.functions")" = 1 ] || why="not one row: $(grep ' rnorm$' "$T/ident.functions")"
[[ $row == *"$want"* && $want == "433.0 ms    7.20" ]] || why="row '$row', report says '$want'"
[ "$(echo "$row" | awk '{ print $(NF - 2), $(NF - 1) }')" = "- -" ] || why="runs and mean: $row"
"$STACKSCOPE" report --by runs ml.pb.gz >/dev/null 2>"$T/ident.err" && why="report --by runs accepted a pprof profile"
grep -q 'has none (a pprof profile holds one sample per distinct stack)' "$T/ident.err" || why="report --by runs: $(cat "$T/ident.err")"
check ident.rnorm-no-runs "$why"

# ---- R profiles (issue 16): --preset r, the keys E and A, :preset r ---------
RL=$SRCDIR/tests/data/rprof/rlang_line.out
ui rpreset --preset r "$RL" <<'EOF'
DUMP opened
u
DUMP undone
EOF
check rpreset.status "$(grep -q '3 transforms: r-simplify; name' "$T/rpreset.opened" || tail -n 2 "$T/rpreset.opened")"
# the preset is one step of the undo history, as a --script is
check rpreset.undo "$(grep -q '| no transforms' "$T/rpreset.undone" || tail -n 2 "$T/rpreset.undone")"
# the functions view after the preset lists the two callbacks by name
check rpreset.callbacks "$(grep -q 'FUN@rlang_workload.R#5' "$T/rpreset.opened" && grep -q 'FUN@rlang_workload.R#8' "$T/rpreset.opened" || echo "no FUN@ rows")"
# -e and --script (the R package's explore(transforms =)): after the
# preset, in order, as one more undo step
printf 'drop run_all\n' >"$T/drop.tf"
ui rcli --preset r -e 'focus FUN@rlang_workload.R#5' --script "$T/drop.tf" "$RL" <<'EOF'
DUMP opened
T
DUMP list
u
DUMP undone
EOF
check rcli.status "$(grep -q '^started with: 5 transforms' "$T/rcli.opened" && grep -q '129 of 334 samples' "$T/rcli.opened" || tail -n 2 "$T/rcli.opened")"
check rcli.list "$(grep -q ' 4 on .*focus FUN@' "$T/rcli.list" && grep -q ' 5 on .*drop run_all' "$T/rcli.list" || head -n 8 "$T/rcli.list")"
check rcli.undo "$(grep -q '3 transforms: r-simplify; name' "$T/rcli.undone" || tail -n 2 "$T/rcli.undone")"
ui rkeys "$RL" <<'EOF'
E
A
DUMP keys
T
DUMP list
:preset r
DUMP preset
EOF
check rkeys.E-A "$(grep -q '2 transforms: r-simplify; name' "$T/rkeys.keys" || tail -n 1 "$T/rkeys.keys")"
check rkeys.list "$(grep -q ' 1 on .*r-simplify' "$T/rkeys.list" && grep -q ' 2 on .*name-anonymous' "$T/rkeys.list" || head -n 5 "$T/rkeys.list")"
check rkeys.preset "$(grep -q '5 transforms' "$T/rkeys.preset" || tail -n 2 "$T/rkeys.preset")"
# one key does it all: P adds the preset (one undo step), as --preset r does
ui rkeyP "$RL" <<'EOF'
P
DUMP preset
u
DUMP undone
EOF
check rkeyP.preset "$(grep -q '3 transforms: r-simplify; name' "$T/rkeyP.preset" && grep -q 'FUN@rlang_workload.R#5' "$T/rkeyP.preset" || tail -n 2 "$T/rkeyP.preset")"
check rkeyP.undo "$(grep -q '| no transforms' "$T/rkeyP.undone" || tail -n 2 "$T/rkeyP.undone")"
# the levels view marks user code: run_all (level 5) and the eval that runs
# rlang_main.R's line 3 (level 4) have positions; source, withVisible and the
# outer eval do not
ui rlevels "$RL" <<'EOF'
7
DUMP levels
EOF
check rlevels.marks "$(sed -n '3,7p' "$T/rlevels.levels" | awk '{ printf "%s ", $1 }' | grep -qx '1\* 2\* 3\* 4\*u 5\*u ' || sed -n '1,8p' "$T/rlevels.levels")"

# ---- measures: V and :value switch every view; the numbers are report's ----
ML=$SRCDIR/tests/data/rprof/memory_line.out
ui measures "$ML" <<'EOF'
:value memory
DUMP functions
9
DUMP lines
3
DUMP tree
V
DUMP next
<:>value dup<Tab><Enter>
DUMP completed
:value nope
DUMP nope
EOF
"$STACKSCOPE" report --value memory --limit 0 "$ML" 2>/dev/null >"$T/measures.report"
"$STACKSCOPE" report --value memory --by line --limit 0 "$ML" 2>/dev/null >"$T/measures.lreport"
"$STACKSCOPE" report --value memory --by total --limit 1 "$ML" 2>/dev/null | tail -n 2 | head -n 1 >"$T/measures.top"
# a row "SELF UNIT SELF% TOTAL UNIT TOTAL% ... NAME" as "NAME SELF UNIT TOTAL UNIT"
report_rows() { # REPORT: the rows of report's text
    awk 'f { print $NF, $1, $2, $4, $5 } /self.memory/ { f = 1 }' "$1"
}
why=
while read -r row; do
    grep -qxF "$row" <(report_rows "$T/measures.report") || { why="'$row' not in report"; break; }
done < <(sed -n '3,8p' "$T/measures.functions" | awk '{ print $NF, $1, $2, $4, $5 }')
# (rows that weigh 0 are left out: fewer than the 355 functions)
check measures.functions "$why$(line 1 "$T/measures.functions" | grep -qE ' [0-9]+ by self memory ' || echo " title: $(line 1 "$T/measures.functions")")"
why=
while read -r row; do
    grep -qxF "$row" <(report_rows "$T/measures.lreport") || { why="'$row' not in report --by line"; break; }
done < <(sed -n '3,8p' "$T/measures.lines" | grep -v '…' | awk '{ print $7, $1, $2, $4, $5 }')
check measures.lines "$why"
# the tree's root: its total is the total of the root function
root_total=$(awk '{ print $4, $5 }' "$T/measures.top")
check measures.tree "$(sed -n 3p "$T/measures.tree" | grep -qF "$root_total" || echo "root row '$(sed -n 3p "$T/measures.tree")', report '$root_total'")"
check measures.status "$(grep -qE '[|] [0-9.]+ GB memory [|]' "$T/measures.functions" || tail -n 2 "$T/measures.functions")"
# V takes the next measure after memory: released
check measures.next "$(grep -qE '[|] [0-9.]+ [kMG]?B released [|]' "$T/measures.next" && grep -q '^value: released' "$T/measures.next" || tail -n 2 "$T/measures.next")"
# Tab after :value completes the profile's measures
check measures.completion "$(grep -q '^value: duplications' "$T/measures.completed" || tail -n 2 "$T/measures.completed")"
check measures.unknown "$(message "$T/measures.nope" | grep -q "no measure 'nope' in this profile" || message "$T/measures.nope")"

# the same on a profile big enough for the warm arrays (18,150 samples: the
# weights of memory and released written into arrays a thread faulted in
# after the first screen, 32 bits a weight): report's numbers too
cat "$ML" "$ML" "$ML" >"$T/ml3.out"
ui warm "$T/ml3.out" <<'EOF'
<Sleep 500>
:value memory
DUMP memory
:value released
DUMP released
EOF
for ms in memory released; do
    "$STACKSCOPE" report --value $ms --limit 0 "$T/ml3.out" 2>/dev/null >"$T/warm.$ms.report"
    why=
    while read -r row; do
        grep -qxF "$row" <(awk -v ms="self.$ms" 'f { print $NF, $1, $2, $4, $5 } index($0, ms) { f = 1 }' "$T/warm.$ms.report") ||
            { why="'$row' not in report --value $ms"; break; }
    done < <(sed -n '3,8p' "$T/warm.$ms" | awk '{ print $NF, $1, $2, $4, $5 }')
    check "warm.$ms" "$why$(line 1 "$T/warm.$ms" | grep -qE " by self $ms " || echo " title: $(line 1 "$T/warm.$ms")")"
done

finish
