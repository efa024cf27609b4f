#!/bin/bash
# The explorer says true and consistent things (issue 14), headless as in
# tests/ui.sh (STACKSCOPE_SCRIPT, :save-display), each number checked
# against a hand count or an independent reading of the input:
#  - "samples" means count values everywhere: a folded line or a pprof
#    sample of count k is k samples in the status line, the sources view
#    and the timeline header; SamplingProf's are its self counts;
#  - views that need time order say so for folded stacks and aggregates;
#  - the phase mark (`v`) stops at removed samples and says how it differs
#    from `report --by timeline`;
#  - finding things: search under collapsed tree nodes, guide lines, the
#    detail line and `y`, --source-path, Tab listing candidates, header
#    clicks, tabs in source lines.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

T=$TMPD
export LC_ALL=C
unset STACKSCOPE_UI_TIMING STACKSCOPE_SIZE NO_COLOR
cd "$T" || exit 99


cp "$SRCDIR/tests/data/ui/small.out" small.out || exit 99

# ---- samples: folded --------------------------------------------------------
# main;f;g 3, main;f 2, main;h 1: 3 lines, 6 samples, no time order
printf 'main;f;g 3\nmain;f 2\nmain;h 1\n' >x.folded
ui fo x.folded <<'EOF'
0
DUMP sources
6
DUMP timeline
8
DUMP runs
EOF
why=
[[ $(line 23 fo.sources) == *"| 6 of 6 samples |"* ]] || why="status: $(line 23 fo.sources)"
[[ $(line 3 fo.sources) =~ folded\ +6\ +6\ +100\.00\ .*unordered\ +x.folded ]] || why="sources: $(line 3 fo.sources)"
check "folded: status and sources count 6 samples" "$why"
why=
has fo.timeline "folded stacks have no time order: no timeline or runs" || why="timeline: no note"
has fo.timeline "timeline: none without time order" || why="timeline title: $(line 1 fo.timeline)"
has fo.runs "folded stacks have no time order: no timeline or runs" || why="runs: no note"
check "folded: timeline and runs say there is no time order" "$why"

# ---- samples: pprof with counts ---------------------------------------------
# the same stacks as a pprof profile: 3 samples of counts 3, 2, 1 (1 s each)
"$STACKSCOPE" convert -o x.pb.gz x.folded 2>/dev/null
ui pp x.pb.gz <<'EOF'
0
DUMP sources
6
DUMP timeline
EOF
why=
[[ $(line 23 pp.sources) == *"| 6 of 6 samples |"* ]] || why="status: $(line 23 pp.sources)"
[[ $(line 3 pp.sources) =~ pprof\ +6\ .*\ x.pb.gz ]] || why="sources: $(line 3 pp.sources)"
# a pprof profile has no time order (a sample per stack): no timeline, as
# folded stacks (issue 32: it drew a seconds axis of the counts)
has pp.timeline "pprof profiles have no time order (a sample per stack): no timeline or runs" ||
    why="timeline: $(line 1 pp.timeline)"
check "pprof: status and sources count 6 samples; no timeline" "$why"

# ---- samples: SamplingProf --------------------------------------------------
# its samples are the self counts of the counts chunk (the third)
SP=$SRCDIR/tests/data/sampling_prof/ruby_workload.txt
want=$(awk 'BEGIN { RS = ""; FS = "\n" } NR == 3 { for (i = 1; i <= NF; i++) { split($i, a, ","); s += a[2] } print s }' "$SP")
ui sp "$SP" <<'EOF'
0
DUMP sources
6
DUMP timeline
EOF
why=
[[ $(line 23 sp.sources) == *"| $want of $want samples |"* ]] || why="status: $(line 23 sp.sources)"
[[ $(line 3 sp.sources) =~ sampling_prof\ +$want\  ]] || why="sources: $(line 3 sp.sources)"
has sp.timeline "no stacks" || why="timeline: no note"
check "SamplingProf: status and sources count $want samples; no stacks" "$why"

# ---- phases -----------------------------------------------------------------
# f f g f f under main, drop g: the detector sees the 4 samples left, one
# phase (the mix of f does not change), and v marks it to the sample
printf 'sample.interval=10000\n"f" "main" \n"f" "main" \n"g" "main" \n"f" "main" \n"f" "main" \n' >ffgff.out
ui ph ffgff.out <<'EOF'
:drop g
6
j
v
DUMP phase
EOF
why=
has ph.phase "marked phase 1 of 1 (the main one): samples 1-4 " || why="$(tail -n 2 ph.phase)"
check "v marks the detected phase in the samples the transforms kept" "$why"

# ---- source lines: tabs, moved sources ---------------------------------------
# t.R line 2 is TAB "x <- 1" TAB "# set": indented to column 8, the second
# tab to column 16 (x <- 1 ends at column 14: two spaces)
mkdir -p tabs
printf 'main <- function() {\n\tx <- 1\t# set\n}\n' >tabs/t.R
printf 'line profiling: sample.interval=10000\n#File 1: t.R\n1#2 "f" 1#1 "main" \n1#2 "f" 1#1 "main" \n' >tabs/t.out
ui tab tabs/t.out <<'EOF'
9
DUMP lines
<Enter>
DUMP file
EOF
why=
[[ $(line 3 tab.lines) == *"t.R#2                x <- 1  # set" ]] || why="list: $(line 3 tab.lines)"
[[ $(line 4 tab.file) == *" 2         x <- 1  # set" ]] || why="file: $(line 4 tab.file)"
check "tabs in source lines go to stops of 8" "$why"

# the demo's demo/regression.R moved to src/: not found beside the profile,
# found with --source-path (a shorter tail: regression.R) and :source-path
mkdir -p moved/src
cp "$SRCDIR/data/demo.out" moved/ && cp "$SRCDIR/data/demo/regression.R" moved/src/ || exit 99
want=$(sed -n 69p moved/src/regression.R | sed 's/^ *//' | cut -c1-20)
ui sp1 moved/demo.out --source-path "$T/moved/src" <<'EOF'
9
DUMP lines
EOF
ui sp2 moved/demo.out <<'EOF'
9
DUMP before
:source-path moved/src
DUMP lines
EOF
why=
[[ $(line 3 sp2.before) == *"regression.R#69" ]] || why="found without a path: $(line 3 sp2.before)"
[[ $(line 3 sp1.lines) == *"regression.R#69      $want"* ]] || why="--source-path: $(line 3 sp1.lines)"
[[ $(line 3 sp2.lines) == *"regression.R#69      $want"* ]] || why=":source-path: $(line 3 sp2.lines)"
check "--source-path and :source-path find moved sources" "$why"
"$STACKSCOPE" --source-path >/dev/null 2>&1
st=$?
check "--source-path without a directory is a usage error" "$([ $st -eq 1 ] || echo "status $st")"

# ---- trees: search under collapsed nodes, guide lines -------------------------
# make.unique is in 4 nodes of the demo's top-down tree (report --by tree),
# all under nodes below the 10% that start expanded: the search opens the
# path to the first one
n_mu=$("$STACKSCOPE" report --by tree --format tsv "$SRCDIR/data/demo.out" | awk -F'\t' '$2 == "make.unique"' | wc -l)
cp "$SRCDIR/data/demo.out" demo.out
ui ts demo.out <<'EOF'
3
DUMP before
/make.unique<Enter>
DUMP found
EOF
rows_before=$(line 1 ts.before | sed 's|.* 1/\([0-9]*\) .*|\1|')
why=
[[ $(line 24 ts.found) == "/make.unique: match 1 of $n_mu;"* ]] || why="message: $(line 24 ts.found)"
grep -q ' make.unique$' ts.found || why="make.unique not on screen"
grep -q ' make.unique$' ts.before && why="make.unique shown before the search"
[[ $(line 1 ts.found) =~ \ [0-9]+/([0-9]+)\  ]] && [ "${BASH_REMATCH[1]}" -gt "$rows_before" ] ||
    why="$why; no rows opened: $(line 1 ts.found)"
check "tree search finds nodes under collapsed parents and opens them" "$why"

# small.out: main > run > {work > {f > g, h}, setup, save}; as tree(1) draws it
ui tg small.out <<'EOF'
3
DUMP guides
EOF
cat >tg.want <<'EOF'
 100.00    0.00     0.100     0.000 ▾ main
 100.00    0.00     0.100     0.000 └─▾ run
  60.00    0.00     0.060     0.000   ├─▾ work
  50.00   20.00     0.050     0.020   │ ├─▾ f
  30.00   30.00     0.030     0.030   │ │ └─  g
  10.00   10.00     0.010     0.010   │ └─  h
  30.00   30.00     0.030     0.030   ├─  setup
  10.00   10.00     0.010     0.010   └─  save
EOF
sed -n 3,10p tg.guides | sed 's/ *$//' >tg.got
check "tree guide lines (UTF-8)" "$(diff tg.want tg.got | head -n 5 | tr '\n' '|')"
UI_LOCALE=C ui tga small.out <<'EOF'
3
DUMP guides
EOF
why=
[[ $(line 5 tga.guides) == *"0.000   +-- work" ]] || why="$(line 5 tga.guides)"
[[ $(line 7 tga.guides) == *"0.030   | | \\-  g" ]] || why="$(line 7 tga.guides)"
check "tree guide lines (ASCII)" "$why"

# ---- header clicks sort (htop) ------------------------------------------------
# the functions table: self(0) self%(9) total(18..26): click "total", twice
ui hc small.out <<'EOF'
<Click 22 1>
DUMP total
<Click 22 1>
DUMP reversed
EOF
why=
[[ $(line 1 hc.total) == " functions: 8 by total time "* && $(line 3 hc.total) == *" main" ]] ||
    why="first click: $(line 1 hc.total) / $(line 3 hc.total)"
[[ $(line 1 hc.reversed) == *"by total time (reversed)"* && $(line 3 hc.reversed) == *"0.010   10.00 "* ]] ||
    why="second click: $(line 1 hc.reversed) / $(line 3 hc.reversed)"
check "clicking a column header sorts by it; again reverses" "$why"

# ---- the detail line and y ------------------------------------------------------
# a name longer than the functions table's label column (80 columns: 44)
long=a_function_with_a_very_long_name_that_no_table_column_at_eighty_columns_shows
printf 'sample.interval=10000\n"%s" "main" \n"%s" "main" \n"main" \n' "$long" "$long" >long.out
ui dl long.out <<'EOF'
DUMP functions
y
DUMP copied
EOF
why=
grep -q "^    0.020.* $long\$" dl.functions && why="the table shows the whole name: nothing to test"
[[ $(line 22 dl.functions) == " $long" ]] || why="detail line: $(line 22 dl.functions)"
[[ $(message dl.copied) == "cannot copy here (no terminal): $long" ]] || why="y headless: $(message dl.copied)"
check "the detail line shows the selected function's full name" "$why"

# y through tmux: with set-clipboard on, tmux takes the OSC 52 sequence
# into its paste buffer, so `tmux show-buffer` gives back the copied name.
if have tmux; then
    SOCK=stackscope-trust-$$
    tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
    tm new-session -d -s clip -x 100 -y 30 "env LC_ALL=C.UTF-8 '$STACKSCOPE' long.out; sleep 30"
    tm set-option -g set-clipboard on
    for _ in $(seq 50); do tm capture-pane -p -t clip | grep -q "samples" && break; sleep 0.1; done
    tm send-keys -t clip y
    got=
    for _ in $(seq 50); do
        got=$(tm show-buffer 2>/dev/null) && [ -n "$got" ] && break
        sleep 0.1
    done
    tm kill-server 2>/dev/null
    check "y copies the name with OSC 52 (through tmux)" "$([ "$got" = "$long" ] || echo "buffer: '$got'")"
else
    echo "SKIP y through tmux: tmux is not installed"
fi

# ---- the timeline: axis, boundaries, legend, letters ---------------------------
# s2.out (main f, main f) then small.out: 12 samples of 10 ms; the second
# file starts at sample 3 (column 3); the axis starts at 0.000 s
printf 'sample.interval=10000\n"f" "main" \n"f" "main" \n' >s2.out
ui tl s2.out small.out <<'EOF'
6
DUMP two
L
DUMP legend
EOF
why=
[[ $(line 17 tl.two) == "time  ^ |" ]] || why="ruler: $(line 17 tl.two)"
[[ $(line 18 tl.two) == "   s  |0.000" ]] || why="axis: $(line 18 tl.two)"
grep -q '^| phase, file, session ' tl.two || why="legend: no | entry"
check "timeline: time axis and source boundary" "$why"
# every letter on screen is in the full legend: m f r s w S h g
why=
for e in "m main" "f f" "r run" "s setup" "w work" "S save" "h h" "g g"; do
    grep -q "^$e *\( \|$\)" tl.legend || grep -q " $e\( \|$\)" tl.legend || why="$why [$e]"
done
[[ $(line 2 tl.legend) == "legend: "* ]] || why="$why title: $(line 2 tl.legend)"
check "timeline: L lists every letter" "$why"

# letters stay across transforms: save is S (s went to setup first); after
# drop setup it is still S
ui tk small.out <<'EOF'
6
DUMP before
:drop setup
DUMP after
EOF
why=
[[ $(line 5 tk.before) == "   3  ssswwwwwwS" ]] || why="before: $(line 5 tk.before)"
[[ $(line 5 tk.after) == "   3  wwwwwwS" ]] || why="after drop setup: $(line 5 tk.after)"
check "timeline: a function keeps its letter across transforms" "$why"

# removed samples show as ':' on the ruler: drop g in the middle of
# f f g f f (ffgff.out, 5 samples) -> f f : f f, ':' at the third column
ui tg2 ffgff.out <<'EOF'
:drop g
6
DUMP gap
EOF
why=
[[ $(line 17 tg2.gap) == "time  ^ :" ]] || why="ruler: $(line 17 tg2.gap)"
grep -q ': samples removed here' tg2.gap || why="$why; legend: no ':' entry"
check "timeline: removed samples are marked" "$why"

# '+' when letters run out: main and fn01..fn74 at level 2, one a column
# (74 columns at 80): 62 letters for 75 functions, so 13 get '+'
{ echo 'sample.interval=10000'; for i in $(seq -w 1 74); do echo "\"fn$i\" \"main\" "; done; } >many.out
ui many many.out <<'EOF'
6
DUMP plus
EOF
why=
[[ $(line 4 many.plus) == *"9+++++++++++++" ]] || why="row 2: $(line 4 many.plus)"
grep -q '^+ 13 without a letter' many.plus || why="$why; legend: no '+ 13 without a letter'"
check "timeline: the legend explains +" "$why"

finish
