#!/bin/bash
# The explorer as a newcomer meets it (issue 32): each item of the issue,
# headless (scripted keys, screen dumps, and style dumps: a letter per
# cell, `:save-styles`), checked against what the screen must say.
#   1. flame graph: the selected frame has a style no frame colour has;
#      frames side by side, and a frame and its caller above, differ.
#   2. pprof has no time order: no timeline, "-" for runs; no number is
#      ever cut ("1,234…,890") in any view.
#   3. a step that matches nothing (:focus lm.fti), or a trim that changes
#      nothing (B on the demo), is not added, says why, and leaves nothing
#      unsaved (q quits without asking).
#   4. the hint line is the view's keys (from the key table); ? opens the
#      help at the view's keys; / in the help searches the help.
#   5. / moves while typing (Esc goes back); & filters rows (/regex/ too);
#      / in the timeline highlights the function's cells.
#   6. a comparison: Z and :normalize, the relative delta (% of base), the
#      status line's unit.
#   7. words: a heap profile counts alloc_objects (the status line, the
#      levels' header), a step's rows and its measure.
#   8. levels' numbers line up with the 'u' mark, the last session is
#      mentioned, :w's help lists every output, an unknown binary file says
#      what it is, once; TERM not in terminfo says so (with script(1)).
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

T=$TMPD
cp "$SRCDIR/data/demo.out" "$SRCDIR/tests/data/pprof/go/heap.pb.gz" "$T/" || exit 99
cd "$T" || exit 99
export LC_ALL=C
unset STACKSCOPE_UI_TIMING STACKSCOPE_SIZE NO_COLOR
S=$STACKSCOPE

# ---- 1. the flame graph's colours --------------------------------------------

ui flame demo.out <<'EOF'
F
/lm.fit<Enter>
DUMP graph
STYLES graph
EOF
# frames_check TEXT STYLES: every frame starts at an edge (U+258F); its
# style letter (a-f: a function colour, F: the selection) differs from the
# frame ending just left of it and from the cell above its edge; the
# selection's letter is on the selected frame (lm.fit) only.
frames_check() {
    perl -CSD -e '
        open my $t, "<:encoding(UTF-8)", $ARGV[0] or do { print "no screen dump"; exit };
        open my $s, "<", $ARGV[1] or do { print "no style dump"; exit };
        my @t = <$t>; my @s = <$s>;
        my ($bad, $sel) = ("", "");
        for my $y (2 .. $#t - 4) {          # the frame rows: below the info line
            my @c = split //, $t[$y]; my @l = split //, $s[$y];
            for my $x (0 .. $#c) {
                next unless $c[$x] eq "\x{258f}";
                my $me = $l[$x];
                $sel .= substr($t[$y], $x + 1, 6) if $me eq "F";
                next unless $me =~ /^[a-f]$/;
                $bad ||= "row $y col $x: same colour as the frame on its left"
                    if $x > 0 && $l[$x - 1] eq $me;
                my @u = split //, $s[$y - 1];
                $bad ||= "row $y col $x: same colour as its caller"
                    if $y > 2 && $u[$x] eq $me;
            }
        }
        $bad ||= "the selection is not lm.fit alone: [$sel]" unless $sel eq "lm.fit";
        print $bad;' "$1" "$2"
}
check "flame: the selection stands out; neighbours differ in colour" \
    "$(frames_check "$T/flame.graph" "$T/flame.graph.styles")"

# ---- 2. no time order in pprof; no number cut --------------------------------

ui heap heap.pb.gz <<'EOF'
DUMP functions
6
DUMP timeline
7
DUMP levels
EOF
why=
has heap.timeline "pprof profiles have no time order (a sample per stack): no timeline or runs" ||
    why="timeline: $(sed -n 1,3p heap.timeline)"
[[ $(grep -E ' main\.allocBig$' heap.functions) =~ \ -\ +-\ main ]] ||
    why="runs: $(grep allocBig heap.functions)"
check "pprof: no timeline, no runs (as folded stacks)" "$why"

# counts past a billion (folded, and the same as pprof) in every view
printf 'main;work;f 1234567890\nmain;work;g 987654321\nmain;setup 5\n' >big.folded
"$S" convert -o big.pb.gz big.folded 2>/dev/null || fail "big.pb.gz" "convert failed"
for f in big.folded big.pb.gz; do
    ui "cut-$f" "$f" <<'EOF'
DUMP 1
2<Enter>
DUMP 2
3
DUMP 3
:calls f
DUMP 5
7
DUMP 7
0
DUMP 0
F
DUMP F
T
DUMP T
EOF
done
check "no number is cut in any view" \
    "$(grep -E '[0-9,.]…|…[0-9]' cut-big.* | head -n 3)"

# ---- 3. refused steps ---------------------------------------------------------

ui refuse demo.out <<'EOF'
:focus lm.fti
DUMP focus
B
DUMP B
q
DUMP after-q
EOF
why=
[[ $(message refuse.focus) == "focus lm.fti: no function matches; not added (U adds it anyway)" ]] ||
    why="focus: $(message refuse.focus)"
[[ $(line 23 refuse.focus) == *"| no transforms" ]] || why="focus kept: $(line 23 refuse.focus)"
check "a step that matches nothing is refused" "$why"
why=
[[ $(message refuse.B) == "trim-base auto: level 1 (main) has source positions: your own code, where auto stops (:trim-base auto,all cuts the 4 scaffold levels); not added (U adds it anyway)" ]] ||
    why="B: $(message refuse.B)"
# nothing unsaved: q quits at once (no "quit with 1 transform not saved?")
[ -e refuse.after-q ] && why="q asked: $(message refuse.after-q)"
check "B that cuts nothing says why and adds nothing" "$why"

# ---- 4. hints and help ---------------------------------------------------------

"$S" report demo.out >/dev/null # (warm)
ui hint demo.out <<'EOF'
DUMP functions
F
DUMP flame
?
DUMP help
/undo<Enter>
DUMP search
EOF
why=
[ "$(tail -n 1 hint.functions)" = "Enter callers  s sort  f/d focus/drop  F flame  6 timeline  ? help  q back" ] ||
    why="functions: $(tail -n 1 hint.functions)"
[ "$(tail -n 1 hint.flame)" = "h/l move  k/j caller/callee  Enter zoom  i invert  o time order  ? help  q back" ] ||
    why="flame: $(tail -n 1 hint.flame)"
check "the hint line shows the view's keys" "$why"
check "? opens the help at the view's keys" "$([ "$(line 2 hint.help)" = "In the flame graph" ] || line 2 hint.help)"
check "/ in the help searches the help" \
    "$([[ $(message hint.search) =~ ^/undo:\ match\ [0-9]+\ of\ [0-9]+$ ]] || message hint.search)"

# ---- 5. search as you type, the filter, the timeline's search -------------------

ui find demo.out <<'EOF'
/na.om
DUMP typing
<Esc>
DUMP esc
&/^na\./<Enter>
DUMP filter
j
DUMP filter-j
&<C-u><Enter>
DUMP unfiltered
6
/lm.fit<Enter>
DUMP tl
STYLES tl
EOF
want=$("$S" report --limit 0 demo.out | awk '/^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  /{ n++ } / na\.omit\.data\.frame$/{ print n; exit }')
why=
[[ $(line 1 find.typing) == *" $want/246 "* ]] || why="typing: not on row $want: $(line 1 find.typing)"
[[ $(line 1 find.esc) == *" 1/246 "* ]] || why="Esc: $(line 1 find.esc)"
check "/ moves while typing; Esc goes back" "$why"
why=
[[ $(line 1 find.filter) == *"&/^na\./: 1/2 of 246 "* ]] || why="title: $(line 1 find.filter)"
[ "$(sed -n '3,21p' find.filter | grep -c .)" = 2 ] || why="rows: $(sed -n '3,6p' find.filter)"
[[ $(line 3 find.filter) == *" na.omit.data.frame" && $(line 4 find.filter) == *" na.omit" ]] ||
    why="rows: $(sed -n '3,4p' find.filter)"
[[ $(line 1 find.filter-j) == *": 2/2 of 246 "* ]] || why="j: $(line 1 find.filter-j)"
[[ $(line 1 find.unfiltered) == *" /246 "* || $(line 1 find.unfiltered) == *"/246  ?:help" ]] ||
    why="& Enter: $(line 1 find.unfiltered)"
check "& /regex/ filters the rows" "$why"
# the timeline: the cursor on an lm.fit cell, and every lm.fit cell of the
# grid (level 12's 'E', the letter of its legend entry) highlighted (M)
letter=$(grep -o '[A-Za-z0-9] lm\.fit' find.tl | head -n 1 | cut -c1)
why=$(perl -e '
    open my $t, "<", $ARGV[0] or do { print "no screen dump"; exit };
    open my $s, "<", $ARGV[1] or do { print "no style dump"; exit };
    my @t = <$t>; my @s = <$s>;
    my ($n, $bad) = (0, "");
    for my $y (2 .. 15) { for my $x (6 .. length($t[$y]) - 2) {
        my ($ch, $st) = (substr($t[$y], $x, 1), substr($s[$y], $x, 1));
        $n++ if $st eq "M";
        $bad ||= "row $y col $x: $ch is $st" if $ch eq $ARGV[2] && $st ne "M" && $st ne "C" && $st ne "d";
    } }
    print $bad || ($n ? "" : "nothing highlighted");' find.tl find.tl.styles "$letter")
[[ $(line 2 find.tl) == "cursor: samples "*"level 12: lm.fit in "* ]] || why="cursor: $(line 2 find.tl)"
check "/ in the timeline highlights the function's cells" "$why"

# ---- 6. comparisons ---------------------------------------------------------------

cp "$SRCDIR/data/demo-after.out" after.out || exit 99
ui cmp --base demo.out after.out <<'EOF'
DUMP functions
Z
DUMP z
:normalize off
DUMP off
EOF
why=
[[ $(line 2 cmp.functions) == *" delta% "* ]] || why="no delta% column: $(line 2 cmp.functions)"
# delta% = 100 (self - base) / base, from the row's own numbers
# (one decimal under 100%, none from there)
bad=$(sed -n '3,21p' cmp.functions | awk '$1 > 0 { p = 100 * ($2 - $1) / $1
    want = sprintf(p > -100 && p < 100 ? "%+.1f%%" : "%+.0f%%", p)
    if (want != $4 && !(want == "-0.0%" && $4 == "+0.0%")) { print $0 " / " want; exit } }')
[ -n "$bad" ] && why="delta%: $bad"
[[ $(line 23 cmp.functions) == " after.out vs demo.out | time: base 27.610 s, new 19.635 s, -7.975 s (-28.88%)"* ]] ||
    why="status: $(line 23 cmp.functions)"
[[ $(line 23 cmp.z) == *"base 19.635 s, new 19.635 s, 0.000 s (+0.00%), normalized"* && $(message cmp.z) == "normalized: "* ]] ||
    why="Z: $(line 23 cmp.z) / $(message cmp.z)"
[[ $(line 23 cmp.off) == *"base 27.610 s, new 19.635 s"* ]] || why=":normalize off: $(line 23 cmp.off)"
check "comparison: Z and :normalize, delta%, units on the status line" "$why"

# ---- 7. words ------------------------------------------------------------------------

ui words heap.pb.gz <<'EOF'
:focus main.allocBig
DUMP focus
EOF
why=
[[ $(line 23 heap.functions) == " heap.pb.gz | 1662 of 1662 alloc_objects | 3.32 MB inuse_space | no transforms" ]] ||
    why="status: $(line 23 heap.functions)"
[[ $(message words.focus) == "focus main.allocBig: 9 -> 1 row (3.32 MB -> 2.50 MB inuse_space), 2 frames removed, 1 stack changed" ]] ||
    why="message: $(message words.focus)"
[[ $(line 2 heap.levels) == "  level alloc_objects "* ]] || why="levels: $(line 2 heap.levels)"
"$S" check heap.pb.gz | grep -q '^  samples: 1662 (alloc_objects) counted in 9 rows' || why="check: $("$S" check heap.pb.gz | grep samples:)"
check "a heap profile counts alloc_objects; a step counts rows and the measure" "$why"

# ---- 8. the smaller things ---------------------------------------------------------

ui lv demo.out <<'EOF'
7
DUMP levels
:trim-base 4
Q
EOF
# the level numbers end in one column, 'u' or not (1*u ... 4*)
check "levels: the numbers line up with the u mark" "$(sed -n '3,7p' lv.levels |
    awk '{ match($0, /^ *[0-9]+/); e[NR] = RLENGTH } END { for (i = 2; i <= NR; i++) if (e[i] != e[1]) print "row " i ": " $0 }')"
# the transform list was kept on quitting: the next session says so
ui lv2 demo.out <<'EOF'
DUMP first
EOF
check "the last session is mentioned" \
    "$([ "$(message lv2.first)" = "last session: 1 transform, :resume applies it again" ] || message lv2.first)"
ui keys demo.out <<'EOF'
:save-help keys.txt
EOF
check ":w's help lists every output format" "$(grep '^:w FILE' keys.txt | grep -v '\.svg' ; grep '^:w FILE' keys.txt | grep -v '\.speedscope\.json')"
check "column headers name their unit" "$([[ $(line 2 hint.functions) == *"self s"*"total s"* ]] || line 2 hint.functions)"
# :w to Rprof of samples with their own times (a pprof profile R made of two
# sessions, 20 and 5 ms, its cpu values per sample; 524 samples at 20 ms are
# 10.48 s): written, with a warning of what Rprof cannot hold
cp "$SRCDIR/tests/data/pprof/rprotobuf/append_two_sessions.pb.gz" two.pb.gz
ui loss two.pb.gz <<'EOF'
:w two.out
DUMP written
EOF
check ":w to Rprof warns that the samples' own times are not kept" "$(
    [[ $(message loss.written) == "wrote two.out (rprof); warning: Rprof holds count x interval"* ]] &&
        [ -s two.out ] || message loss.written)"
"$S" convert -o two-cli.out two.pb.gz 2>loss.err
check "convert to Rprof warns that the samples' own times are not kept, with the totals" "$(
    grep -q 'stackscope: warning: Rprof holds count x interval: the own times of [0-9]* samples (1 source) are not kept, so each function.s time may change (4.15 s in all become 10.48 s)' loss.err &&
        cmp -s two.out two-cli.out || cat loss.err)"
# perf.data: said what it is and what to do, once
printf 'PERFILE2\150\0\0\0\0\0\0\0binary' >perf.data
"$S" check perf.data >check.out 2>&1
rc=$?
why=
[ $rc = 2 ] || why="exit $rc"
[ "$(grep -c 'perf script -i perf.data > perf.txt' check.out)" = 1 ] || why="$(cat check.out)"
[ "$(wc -c <check.out)" -lt 300 ] || why="long: $(cat check.out)"
check "check: perf.data says run perf script -i, once" "$why"
# any other binary file: not every text format's reason (900 characters
# before), only pprof's and folded stacks'
head -c 3000 /dev/zero | tr '\0' '\001' >bin.dat
printf '\0\0\0' >>bin.dat
"$S" check bin.dat >/dev/null 2>check.err
check "check: a binary file is said to be one, briefly" "$(
    grep -q 'bin.dat:1: not a profile format stackscope reads; a binary file, tried pprof (' check.err &&
        ! grep -q 'Rprof (' check.err && [ "$(wc -c <check.err)" -lt 400 ] || cat check.err)"
if have script; then
    TERM=nosuchterm script -qec "'$S' demo.out" /dev/null </dev/null >term.out 2>&1
    check "TERM not in terminfo says so" "$(grep -q 'TERM=nosuchterm is not in the terminfo database' term.out || head -c 300 term.out)"
else
    echo "SKIP TERM=nosuchterm: no script(1)"
fi

finish
