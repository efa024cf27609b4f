#!/bin/bash
# Comparing two profiles (stackscope(1), COMPARING; issue 13): --base and
# --normalize on report and convert, against independent answers.
#
#  1. Hand-made Rprof files (numbers worked out by hand in the comments):
#     the TSV of --by self/total/line/stacks, the text header's summary and
#     columns, the difffolded lines, --normalize.
#  2. R: per function, base / new / delta equal summaryRprof on each file
#     and their difference (real R profiles); the transform list applies to
#     both sides (the same as transforming each file first).
#  3. Go's pprof on real Go CPU and heap profiles made by Go's runtime (two
#     runs of tests/data/go/measures/main.go): `convert --base A -o d.pb.gz
#     B` read by `pprof -top` equals `pprof -top -diff_base=A B`; with
#     --normalize it equals pprof's -normalize times N/B (pprof scales the
#     new profile to the base's total, stackscope the base to the new
#     profile's); the difference profile `pprof -proto -diff_base=A B`
#     writes is read back as the same comparison.
#  4. Mixed formats (an Rprof base, a pprof new profile) and the messages:
#     formats that cannot hold a comparison, options that need --base, a
#     base without the measure.  The sources: each side's rows equal
#     --by sources on that side alone (with transforms, --normalize scaling
#     the base's measure only, an Rprof base with a pprof profile), sample
#     and time per session by awk over the file, the total lines equal the
#     summary's; every --by table compares.
#  5. The explorer headless: the functions, lines, tree, calls and stacks views (base,
#     new, delta), s, X, transforms on both sides, the status line, the flame
#     graph's legend and detail line; the differential SVG; then the same
#     in a real terminal (tmux, when installed).
#  5b. Labels and transforms: a hand-counted perf pair (comm, tid) and a
#     real Go pair with pprof.Do labels (a fresh run of
#     tests/producers/go_labels.go as the base): --by labels --base equals
#     each file's own --by labels joined with awk (and --normalize), Go's
#     `pprof -tags` per side and `pprof -tagfocus -diff_base` per value;
#     --by transforms --base equals --by transforms on each file alone; the
#     explorer's labels and transforms views equal the reports; so does
#     its sources view (and after X).
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope
LC_ALL=C
export LC_ALL

S=$STACKSCOPE
T=$TMPD
D=$SRCDIR/tests/data

check() { # NAME WHY (empty: pass)
    if [ -z "$2" ]; then pass "$1"; else fail "$1" "$2"; fi
}

# same_text NAME WANT_FILE GOT_FILE
same_text() {
    check "$1" "$(diff "$2" "$3" | head -n 8 | tr '\n' '|')"
}

# ---- 1. hand-made files --------------------------------------------------------------

# base, 20 ms: main>f, main>f, main>g, main            (4 samples, 0.08 s)
#   self: f 0.04, g 0.02, main 0.02; total: main 0.08, f 0.04, g 0.02
# new, 10 ms: main>f, main>g x3, main>h                 (5 samples, 0.05 s)
#   self: f 0.01, g 0.03, h 0.01, main 0; total: main 0.05
printf 'sample.interval=20000\n"f" "main" \n"f" "main" \n"g" "main" \n"main" \n' >"$T/base.out"
printf 'sample.interval=10000\n"f" "main" \n"g" "main" \n"g" "main" \n"g" "main" \n"h" "main" \n' >"$T/new.out"

# self deltas: g +0.01 and h +0.01 (tie, total deltas tie too: by name),
# main -0.02, f -0.03; then the verdicts' columns (stackscope(1), COMPARING:
# tests/verdicts.sh checks their numbers)
printf 'name\tself.base\tself\tself.delta\ttotal.base\ttotal\ttotal.delta' >"$T/want"
printf '\t%s.delta.lo\t%s.delta.hi\t%s.q\t%s.verdict\t%s.p\t%s.mdc' self self self self self self \
    total total total total total total >>"$T/want"
printf '\n' >>"$T/want"
printf 'g\t0.02\t0.03\t0.01\t0.02\t0.03\t0.01\n' >>"$T/want"
printf 'h\t0\t0.01\t0.01\t0\t0.01\t0.01\n' >>"$T/want"
printf 'main\t0.02\t0\t-0.02\t0.08\t0.05\t-0.03\n' >>"$T/want"
printf 'f\t0.04\t0.01\t-0.03\t0.04\t0.01\t-0.03\n' >>"$T/want"
"$S" report --format tsv --base "$T/base.out" "$T/new.out" >"$T/got" 2>"$T/err"
# the deltas are differences of doubles: compare at 1e-12
check "hand: --by self TSV (header per stackscope(1) COMPARING, sorted by self delta)" "$(awk -F '\t' '
    NR == FNR { w[FNR] = $0; n = FNR; next }
    { if (FNR == 1) { if ($0 != w[1]) { print "header: " $0; exit } next }
      split(w[FNR], a, "\t")
      if (a[1] != $1) { print "row " FNR ": " $1 " want " a[1]; exit }
      for (i = 2; i <= 7; i++) { d = a[i] - $i; if (d < 0) d = -d
          if (d > 1e-12) { print $1 " col " i ": " $i " want " a[i]; exit } } }
    END { if (FNR != n) print "rows: " FNR " want " n }' "$T/want" "$T/got")"

# --by total: total deltas g +0.01, h +0.01, then main and f -0.03 (tie:
# self delta -0.02 before -0.03)
got=$("$S" report --format tsv --by total --base "$T/base.out" "$T/new.out" | cut -f 1 | tr '\n' ' ')
check "hand: --by total order" "$([ "$got" = "name g h main f " ] || echo "$got")"

# text: the summary (base 0.080 s, new 0.050 s, delta -0.030 s, -37.50%) and columns
"$S" report --base "$T/base.out" "$T/new.out" >"$T/text" 2>&1
check "hand: text summary line" \
    "$(grep -qx 'compare    time: base 0.080 s, new 0.050 s, delta -0.030 s (-37.50%)' "$T/text" || cat "$T/text" | tr '\n' '|')"
# (4 and 5 samples: no change can be told from noise, every verdict is ~)
check "hand: text header row and a growth row with its sign" "$(
    grep -q '^ *self.base  *self  *self.delta  *verdict  *total.base  *total  *total.delta  *verdict  name$' "$T/text" || echo header
    grep -q '^ *0.020  *0.030  *+0.010  *~  *0.020  *0.030  *+0.010  *~  *g$' "$T/text" || echo row g)"
check "hand: text names the base file" "$(grep -q "^base  *$T/base.out (rprof)" "$T/text" || echo missing)"

# --normalize: the base scales by 0.05 / 0.08 = 0.625: f 0.025, g 0.0125,
# main self 0.0125, total 0.05; the summary says so
"$S" report --format tsv --normalize --base "$T/base.out" "$T/new.out" >"$T/got"
check "hand: --normalize scales the base to the new total" "$(awk -F '\t' '
    function near(a, b) { d = a - b; return d < 1e-12 && d > -1e-12 }
    $1 == "f" && !(near($2, 0.025) && near($5, 0.025)) { print "f: " $0 }
    $1 == "g" && !near($2, 0.0125) { print "g: " $0 }
    $1 == "main" && !(near($2, 0.0125) && near($5, 0.05) && near($7, 0)) { print "main: " $0 }
    ' "$T/got")"
"$S" report --normalize --base "$T/base.out" "$T/new.out" >"$T/text"
check "hand: text summary when normalized" \
    "$(grep -qx 'compare    time: base 0.050 s, new 0.050 s, delta 0.000 s (+0.00%), base normalized to the new total (x0.625)' "$T/text" || grep compare "$T/text")"

# stacks: main;g 0.02 -> 0.03, main;h 0 -> 0.01, main 0.02 -> 0, main;f 0.04 -> 0.01
"$S" report --format tsv --by stacks --base "$T/base.out" "$T/new.out" >"$T/got"
check "hand: --by stacks TSV" "$(awk -F '\t' '
    function near(a, b) { d = a - b; return d < 1e-12 && d > -1e-12 }
    NR == 1 { if ($0 != "base\tnew\tdelta\tdepth\tstack\tdelta.lo\tdelta.hi\tq\tverdict\tp\tmdc") print "header: " $0; next }
    { o = o $5 " " }
    $5 == "main;g" && !(near($1, 0.02) && near($2, 0.03) && near($3, 0.01) && $4 == 2) { print }
    $5 == "main" && !(near($1, 0.02) && near($2, 0) && $4 == 1) { print }
    END { if (o != "main;g main;h main main;f ") print "order: " o }' "$T/got")"

# difffolded: `stack BASE NEW` in sample counts, in byte order of the stack
printf 'main 1 0\nmain;f 2 1\nmain;g 1 3\nmain;h 0 1\n' >"$T/want"
"$S" report --by stacks --format folded --base "$T/base.out" "$T/new.out" >"$T/got"
same_text "hand: report --format folded writes difffolded lines" "$T/want" "$T/got"
"$S" convert --base "$T/base.out" -o "$T/d.folded" "$T/new.out"
same_text "hand: convert -o X.folded writes difffolded lines" "$T/want" "$T/d.folded"
# normalized: base counts x 5/4, rounded: main 1.25 -> 1, f 2.5 -> 3, g 1.25 -> 1
printf 'main 1 0\nmain;f 3 1\nmain;g 1 3\nmain;h 0 1\n' >"$T/want"
"$S" report --by stacks --format folded --normalize --base "$T/base.out" "$T/new.out" >"$T/got"
same_text "hand: difffolded with --normalize" "$T/want" "$T/got"

# levels (hand-computed): level 1 is main in every sample (base 4 samples,
# 0.08 s; new 5, 0.05 s); level 2: base f, f, g (3 samples, 0.06 s, 2
# distinct, top f), new f, g, g, g, h (5 samples, 0.05 s, 3 distinct, top g)
cat >"$T/want" <<'EOF'
level	samples.base	samples	samples.delta	time.base	time	time.delta	distinct.base	distinct	distinct.delta	top.base	top
1	4	5	1	0.08	0.05	-0.03	1	1	0	main	main
2	3	5	2	0.06	0.05	-0.01	2	3	1	f	g
EOF
"$S" report --by levels --format tsv --base "$T/base.out" "$T/new.out" >"$T/got" 2>"$T/err"
# near_tsv WANT GOT: the files agree cell by cell, numbers at 1e-12
near_tsv() {
    awk -F '\t' '
    NR == FNR { w[FNR] = $0; n = FNR; next }
    { split(w[FNR], a, "\t")
      if (FNR == 1 && $0 != w[1]) { print "header: " $0; exit }
      for (i = 1; i <= NF; i++)
          if (a[i] != $i && !(a[i] ~ /^-?[0-9.e+-]+$/ && (a[i] - $i) ^ 2 < 1e-24)) {
              print "row " FNR " col " i ": " $i " want " a[i]; exit } }
    END { if (FNR != n) print "rows: " FNR " want " n }' "$1" "$2"
}
check "hand: --by levels TSV (samples, time, distinct: base, new, delta; each side's top)" \
    "$(near_tsv "$T/want" "$T/got"; [ -s "$T/got" ] || head -c 300 "$T/err")"
"$S" report --by levels --base "$T/base.out" "$T/new.out" >"$T/text" 2>&1
check "hand: --by levels text (signed deltas, both tops)" "$(
    grep -q '^ *level  *samples.base  *samples  *samples.delta  *time.base  *time  *time.delta  *distinct.base  *distinct  *distinct.delta  *top.base  *top$' "$T/text" || echo header
    grep -q '^ *2  *3  *5  *+2  *0.060  *0.050  *-0.010  *2  *3  *+1  *f  *g$' "$T/text" || echo row 2)"

# run lengths (hand-computed, in time order): base f f g main (20 ms):
# main 1 run of 4, f 1 of 2, g 1 of 1; new f g g g h (10 ms): main 1 of 5,
# f 1 of 1, g 1 of 3, h 1 of 1.  By the time delta (g, h +0.01: g's samples
# grew more; main, f -0.03: main's samples grew), then level (all first).
cat >"$T/want" <<'EOF'
name	level	runs.base	runs	runs.delta	samples.base	samples	samples.delta	mean.base	mean	mean.delta	time.base	time	time.delta
g	all	1	1	0	1	3	2	1	3	2	0.02	0.03	0.01
g	2	1	1	0	1	3	2	1	3	2	0.02	0.03	0.01
h	all	0	1	1	0	1	1	0	1	1	0	0.01	0.01
h	2	0	1	1	0	1	1	0	1	1	0	0.01	0.01
main	all	1	1	0	4	5	1	4	5	1	0.08	0.05	-0.03
main	1	1	1	0	4	5	1	4	5	1	0.08	0.05	-0.03
f	all	1	1	0	2	1	-1	2	1	-1	0.04	0.01	-0.03
f	2	1	1	0	2	1	-1	2	1	-1	0.04	0.01	-0.03
EOF
"$S" report --by runs --format tsv --base "$T/base.out" "$T/new.out" >"$T/got" 2>"$T/err"
check "hand: --by runs TSV (runs, samples, mean, time: base, new, delta)" \
    "$(near_tsv "$T/want" "$T/got"; [ -s "$T/got" ] || head -c 300 "$T/err")"
"$S" report --by runs --format tsv --level 2 --function g --base "$T/base.out" "$T/new.out" \
    >"$T/got" 2>"$T/err"
check "hand: --by runs --level 2 --function g: one row" "$(
    [ "$(tail -n +2 "$T/got")" = "$(printf 'g\t2\t1\t1\t0\t1\t3\t2\t1\t3\t2\t0.02\t0.03\t0.01')" ] ||
        cat "$T/got" "$T/err")"

# the timeline at level 2 (one sample a window): base f f g . , new f g g g h;
# the legend: samples with each function at the level, base, new, delta
"$S" report --by timeline --level 2 --base "$T/base.out" "$T/new.out" >"$T/text" 2>&1
check "hand: --by timeline text: both strips and the legend's deltas" "$(
    grep -qx 'base  aab\.' "$T/text" || echo base strip
    grep -qx 'new   abbbc' "$T/text" || echo new strip
    awk '$1 == "a" && !($2 == "f" && $3 == 2 && $4 == 1 && $5 == "-1") { print "f: " $0 }
         $1 == "b" && !($2 == "g" && $3 == 1 && $4 == 3 && $5 == "+2") { print "g: " $0 }
         $1 == "c" && !($2 == "h" && $3 == 0 && $4 == 1 && $5 == "+1") { print "h: " $0 }
         $1 ~ /^[abc]$/ { n++ } END { if (n != 3) print n " legend rows" }' "$T/text")"

# the top-down tree: main 0.08 -> 0.05 (self 0.02 -> 0); its children by
# total delta: g +0.01, h +0.01 (tie: by name), f -0.03
cat >"$T/want" <<'EOF'
depth	name	self.base	self	self.delta	total.base	total	total.delta
0	main	0.02	0	-0.02	0.08	0.05	-0.03
1	g	0.02	0.03	0.01	0.02	0.03	0.01
1	h	0	0.01	0.01	0	0.01	0.01
1	f	0.04	0.01	-0.03	0.04	0.01	-0.03
EOF
"$S" report --by tree --format tsv --base "$T/base.out" "$T/new.out" | cut -f 1-8 >"$T/got"
same_text "hand: --by tree TSV (children by total delta)" "$T/want" "$T/got"
# bottom-up from f: f 0.04 -> 0.01, called by main
printf '0\tf\t0\t0\t0\t0.04\t0.01\t-0.03\n1\tmain\t0.04\t0.01\t-0.03\t0.04\t0.01\t-0.03\n' >"$T/want"
"$S" report --by tree --inverted --function f --format tsv --base "$T/base.out" "$T/new.out" |
    tail -n +2 | cut -f 1-8 >"$T/got"
same_text "hand: --by tree --inverted --function f" "$T/want" "$T/got"
# calls of main: self 0.02 -> 0, total 0.08 -> 0.05, callees g, h, f
cat >"$T/want" <<'EOF'
relation	name	base	new	delta
self	main	0.02	0	-0.02
total	main	0.08	0.05	-0.03
callee	g	0.02	0.03	0.01
callee	h	0	0.01	0.01
callee	f	0.04	0.01	-0.03
EOF
"$S" report --by calls --function main --format tsv --base "$T/base.out" "$T/new.out" >"$T/got"
same_text "hand: --by calls --function main" "$T/want" "$T/got"
"$S" report --by calls --function nosuch --base "$T/base.out" "$T/new.out" >/dev/null 2>"$T/err"
check "--by calls of a function in neither profile: usage error" "$(
    grep -q "no function named 'nosuch' in either profile" "$T/err" || cat "$T/err")"

# several --base files combine into one base: base twice = double the base
"$S" report --format tsv --base "$T/base.out" --base "$T/base.out" "$T/new.out" >"$T/got"
check "hand: two --base files add up" "$(awk -F '\t' '
    function near(a, b) { d = a - b; return d < 1e-12 && d > -1e-12 }
    $1 == "f" && !near($2, 0.08) { print } $1 == "main" && !near($5, 0.16) { print }' "$T/got")"

# ---- 1b. levels, runs and timeline: each side's own report, joined with awk ------------

# The demo profile against a base made from it (every third sample dropped):
# the comparison's columns equal the plain reports of each file joined by
# level, by (name, level) and by window, and the deltas their differences
# (the base's measure times the normalize scale: new total / base total).
awk 'NR == 1 || NR % 3' "$SRCDIR/data/demo.out" >"$T/demo_base.out"
cp "$SRCDIR/data/demo.out" "$T/demo_new.out"
for opt in "" "--value memory" "--normalize"; do
    side=${opt#--normalize} # each file alone: the measure's option only
    # shellcheck disable=SC2086
    "$S" report --by levels --format tsv $side "$T/demo_base.out" >"$T/lb"
    # shellcheck disable=SC2086
    "$S" report --by levels --format tsv $side "$T/demo_new.out" >"$T/ln"
    # shellcheck disable=SC2086
    "$S" report --by levels --format tsv $opt --base "$T/demo_base.out" "$T/demo_new.out" >"$T/lc"
    check "independent: --by levels ${opt:-(time)} equals each side's levels joined" "$(awk -F '\t' -v norm="$opt" '
        function near(a, b) { d = a - b; m = (a < 0 ? -a : a) + (b < 0 ? -b : b)
            return d * d <= 1e-18 * m * m + 1e-24 }
        FNR == 1 { f++; next }
        f == 1 { sb[$1] = $2; vb[$1] = $6; db[$1] = $3; tb[$1] = $4; if ($1 == 1) totb = $6; next }
        f == 2 { sn[$1] = $2; vn[$1] = $6; dn[$1] = $3; tn[$1] = $4; if ($1 == 1) totn = $6; next }
        { k = $1; rows++
          scale = norm == "--normalize" && totb > 0 ? totn / totb : 1
          b = (k in vb ? vb[k] : 0) * scale; v = k in vn ? vn[k] : 0
          if ($2 != (k in sb ? sb[k] : 0) || $3 != (k in sn ? sn[k] : 0) || $4 != $3 - $2)
              { print "level " k " samples: " $2 " " $3 " " $4; exit }
          if (!near($5, b) || !near($6, v) || !near($7, v - b))
              { print "level " k " values: " $5 " " $6 " " $7 " want " b " " v; exit }
          if ($8 != (k in db ? db[k] : 0) || $9 != (k in dn ? dn[k] : 0) || $10 != $9 - $8 ||
              $11 != (k in tb ? tb[k] : "-") || $12 != (k in tn ? tn[k] : "-"))
              { print "level " k ": " $0; exit } }
        END { n = 0; for (k in sn) n++; for (k in sb) if (!(k in sn)) n++
              if (rows != n) print "rows " rows " want " n }' "$T/lb" "$T/ln" "$T/lc")"

    # shellcheck disable=SC2086
    "$S" report --by runs --format tsv $side "$T/demo_base.out" >"$T/rb"
    # shellcheck disable=SC2086
    "$S" report --by runs --format tsv $side "$T/demo_new.out" >"$T/rn"
    # shellcheck disable=SC2086
    "$S" report --by runs --format tsv $opt --base "$T/demo_base.out" "$T/demo_new.out" >"$T/rc"
    check "independent: --by runs ${opt:-(time)} equals each side's run lengths joined" "$(awk -F '\t' -v norm="$opt" '
        function near(a, b) { d = a - b; m = (a < 0 ? -a : a) + (b < 0 ? -b : b)
            return d * d <= 1e-18 * m * m + 1e-24 }
        FNR == 1 { f++; next }
        f == 1 { k = $1 "\t" $2; rb[k] = $3; sb[k] = $4; mb[k] = $5; vb[k] = $8; next }
        f == 2 { k = $1 "\t" $2; rn[k] = $3; sn[k] = $4; mn[k] = $5; vn[k] = $8; next }
        { k = $1 "\t" $2; rows++
          if (($3 != (k in rb ? rb[k] : 0)) || ($4 != (k in rn ? rn[k] : 0)) || $5 != $4 - $3 ||
              $6 != (k in sb ? sb[k] : 0) || $7 != (k in sn ? sn[k] : 0) || $8 != $7 - $6)
              { print "counts of " k ": " $0; exit }
          if (!near($9, k in mb ? mb[k] : 0) || !near($10, k in mn ? mn[k] : 0) || !near($11, $10 - $9))
              { print "means of " k ": " $0; exit }
          v = k in vn ? vn[k] : 0
          if (norm != "--normalize" && (!near($12, k in vb ? vb[k] : 0) || !near($13, v) || !near($14, v - $12)))
              { print "values of " k ": " $0; exit }
          if (!near($13, v)) { print "new value of " k ": " $0; exit } }
        END { n = 0; for (k in rn) n++; for (k in rb) if (!(k in rn)) n++
              if (rows != n) print "rows " rows " want " n }' "$T/rb" "$T/rn" "$T/rc")"
done
# --normalize scales the base's run values as the levels' (level 1 holds the total)
"$S" report --by runs --format tsv --level 1 "$T/demo_base.out" >"$T/rb"
"$S" report --by runs --format tsv --level 1 --normalize --base "$T/demo_base.out" "$T/demo_new.out" >"$T/rc"
"$S" report --by levels --format tsv "$T/demo_base.out" | awk -F '\t' '$1 == 1 { print $6 }' >"$T/totb"
"$S" report --by levels --format tsv "$T/demo_new.out" | awk -F '\t' '$1 == 1 { print $6 }' >"$T/totn"
check "independent: --by runs --normalize scales the base's values by new total / base total" "$(
    awk -F '\t' -v tb="$(cat "$T/totb")" -v tn="$(cat "$T/totn")" '
        FNR == 1 { f++; next }
        f == 1 { vb[$1] = $8; next }
        { want = vb[$1] * tn / tb; d = $12 - want; if (d * d > 1e-18 * want * want + 1e-24)
              print $1 ": " $12 " want " want }' "$T/rb" "$T/rc")"

for lv in 3 6; do
    "$S" report --by timeline --format tsv --level $lv --width 50 "$T/demo_base.out" >"$T/tb"
    "$S" report --by timeline --format tsv --level $lv --width 50 "$T/demo_new.out" >"$T/tn"
    "$S" report --by timeline --format tsv --level $lv --width 50 --base "$T/demo_base.out" \
        "$T/demo_new.out" >"$T/tc"
    check "independent: --by timeline --level $lv TSV: each side's windows side by side" "$(awk -F '\t' '
        FNR == 1 { f++; if (f == 3 && $0 != "window\tfirst.base\tlast.base\ttop.base\ttop.samples.base\tfirst\tlast\ttop\ttop.samples") print "header " $0; next }
        f == 1 { b[$1] = $2 "\t" $3 "\t" $4 "\t" $5; nb = $1; next }
        f == 2 { n[$1] = $2 "\t" $3 "\t" $4 "\t" $5; nn = $1; next }
        { rows++
          if ($2 "\t" $3 "\t" $4 "\t" $5 != ($1 in b ? b[$1] : "NA\tNA\tNA\tNA")) { print "base window " $1 ": " $0; exit }
          if ($6 "\t" $7 "\t" $8 "\t" $9 != ($1 in n ? n[$1] : "NA\tNA\tNA\tNA")) { print "new window " $1 ": " $0; exit } }
        END { if (rows != (nb > nn ? nb : nn)) print "rows " rows }' "$T/tb" "$T/tn" "$T/tc")"
done

# ---- 2. R: summaryRprof on each file ------------------------------------------------

A=$D/rprof/plain_default.out # 20 ms
B=$D/rprof/line.out          # 10 ms
if have Rscript; then
    cat >"$T/sr.R" <<'EOF'
args <- commandArgs(trailingOnly = TRUE)
t <- summaryRprof(args[[1]])$by.total
n <- gsub('^"|"$', "", rownames(t))
cat(sprintf("%s\t%.15g\t%.15g\n", n, t$self.time, t$total.time), sep = "")
EOF
    if Rscript "$T/sr.R" "$A" >"$T/ra" 2>"$T/rerr" && Rscript "$T/sr.R" "$B" >"$T/rb" 2>>"$T/rerr"; then
        # join: name base.self new.self base.total new.total (0 when absent)
        awk -F '\t' 'NR == FNR { bs[$1] = $2; bt[$1] = $3; k[$1] = 1; next }
                     { ns[$1] = $2; nt[$1] = $3; k[$1] = 1 }
                     END { for (f in k) printf "%s\t%.15g\t%.15g\t%.15g\t%.15g\n", f,
                               bs[f] + 0, ns[f] + 0, bt[f] + 0, nt[f] + 0 }' \
            "$T/ra" "$T/rb" | sort >"$T/r.tsv"
        "$S" report --format tsv --base "$A" "$B" | tail -n +2 |
            awk -F '\t' '{ printf "%s\t%.15g\t%.15g\t%.15g\t%.15g\t%.15g\t%.15g\n", $1, $2, $3, $4, $5, $6, $7 }' |
            sort >"$T/o.tsv"
        check "R: base, new and delta per function equal summaryRprof on each file ($(wc -l <"$T/r.tsv") functions)" \
            "$(awk -F '\t' '
                function far(a, b) { d = a - b; return d > 1e-9 || d < -1e-9 }
                NR == FNR { r[$1] = $0; next }
                { if (!($1 in r)) { print "not in R: " $1; exit }
                  split(r[$1], x, "\t")
                  if (far($2, x[2]) || far($3, x[3]) || far($4, x[3] - x[2]) ||
                      far($5, x[4]) || far($6, x[5]) || far($7, x[5] - x[4])) { print $0 " | R " r[$1]; exit }
                  delete r[$1] }
                END { for (k in r) { print "only in R: " k; exit } }' "$T/r.tsv" "$T/o.tsv")"
    else
        fail "R: summaryRprof" "$(tail -n 1 "$T/rerr")"
    fi
    # by line (lines = "show"): two line-profiled files
    cat >"$T/srl.R" <<'EOF'
args <- commandArgs(trailingOnly = TRUE)
t <- summaryRprof(args[[1]], lines = "show")$by.line
cat(sprintf("%s\t%.15g\t%.15g\n", rownames(t), t$self.time, t$total.time), sep = "")
EOF
    A2=$D/rprof/memory_line.out
    B2=$D/rprof/line.out
    if Rscript "$T/srl.R" "$A2" >"$T/rla" 2>"$T/rerr" && Rscript "$T/srl.R" "$B2" >"$T/rlb" 2>>"$T/rerr"; then
        awk -F '\t' 'NR == FNR { bs[$1] = $2; bt[$1] = $3; k[$1] = 1; next }
                     { ns[$1] = $2; nt[$1] = $3; k[$1] = 1 }
                     END { for (f in k) printf "%s\t%.15g\t%.15g\t%.15g\t%.15g\n", f,
                               bs[f] + 0, ns[f] + 0, bt[f] + 0, nt[f] + 0 }' \
            "$T/rla" "$T/rlb" | sort >"$T/r.tsv"
        "$S" report --by line --format tsv --base "$A2" "$B2" 2>/dev/null | tail -n +2 |
            awk -F '\t' '{ printf "%s\t%.15g\t%.15g\t%.15g\t%.15g\t%.15g\t%.15g\n", $1, $2, $3, $4, $5, $6, $7 }' |
            sort >"$T/o.tsv"
        check "R: base, new and delta per line equal summaryRprof(lines = \"show\") on each file ($(wc -l <"$T/r.tsv") lines)" \
            "$(awk -F '\t' '
                function far(a, b) { d = a - b; return d > 1e-9 || d < -1e-9 }
                NR == FNR { r[$1] = $0; next }
                { if (!($1 in r)) { print "not in R: " $1; exit }
                  split(r[$1], x, "\t")
                  if (far($2, x[2]) || far($3, x[3]) || far($4, x[3] - x[2]) ||
                      far($5, x[4]) || far($6, x[5]) || far($7, x[5] - x[4])) { print $0 " | R " r[$1]; exit }
                  delete r[$1] }
                END { for (k in r) { print "only in R: " k; exit } }' "$T/r.tsv" "$T/o.tsv")"
    else
        fail "R: summaryRprof by line" "$(tail -n 1 "$T/rerr")"
    fi
else
    echo "SKIP R checks: no Rscript"
fi

# transforms apply to both sides: the same as transforming each file first
# (the values: the verdicts see the gaps a transform leaves in the timeline,
# which a file written after it no longer has)
tf=(-e 'drop lm' -e 'merge eval')
"$S" convert "${tf[@]}" -o "$T/ta.out" "$A" 2>/dev/null
"$S" convert "${tf[@]}" -o "$T/tb.out" "$B" 2>/dev/null
"$S" report --format tsv --base "$T/ta.out" "$T/tb.out" | cut -f 1-7 >"$T/want" 2>/dev/null
"$S" report --format tsv "${tf[@]}" --base "$A" "$B" | cut -f 1-7 >"$T/got" 2>/dev/null
same_text "transforms: -e applies to both sides (= transforming each file, then comparing)" \
    "$T/want" "$T/got"

# ---- 3. Go's pprof on real Go profiles ---------------------------------------------

setup_go_pprof
gosrc=$D/go/measures
if [ -z "$PPROF" ]; then
    echo "SKIP Go checks: no Go pprof"
elif ! have go; then
    echo "SKIP Go checks: no go command"
else
    mkdir -p "$T/go/a" "$T/go/b"
    cp "$gosrc/main.go" "$gosrc/go.mod" "$T/go/"
    # two runs of the same program: a real before/after pair (sampling differs)
    if ! (cd "$T/go" && GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local GOTELEMETRY=off \
        GOCACHE=$T/go/cache HOME=$T/go CGO_ENABLED=0 go build -o measures . &&
        cd a && ../measures && cd ../b && ../measures) >"$T/go/log" 2>&1; then
        fail "Go profiles: build and run tests/data/go/measures" "$(tail -n 3 "$T/go/log" | tr '\n' '|')"
    else
        for kind in cpu heap; do
            a=$T/go/a/$kind.pb.gz
            b=$T/go/b/$kind.pb.gz
            if [ $kind = cpu ]; then idx=(-sample_index=cpu -unit=ns); else idx=(-sample_index=alloc_space -unit=B); fi
            value=${idx[0]#-sample_index=}
            "$S" convert --value "$value" --base "$a" -o "$T/go/d-$kind.pb.gz" "$b" 2>/dev/null
            top_tsv "$T/go/d-$kind.pb.gz" -symbolize=none "${idx[@]}" >"$T/go/ours"
            top_tsv "$b" -symbolize=none "${idx[@]}" -diff_base="$a" >"$T/go/theirs"
            check "Go $kind: pprof -top of convert --base equals pprof -top -diff_base ($(wc -l <"$T/go/theirs") rows)" \
                "$( [ -s "$T/go/theirs" ] || echo "pprof printed nothing"; same_numbers "$T/go/theirs" "$T/go/ours")"
            # report --base: self/total deltas equal pprof -diff_base's flat/cum
            "$S" report --format tsv --value "$value" --base "$a" "$b" 2>/dev/null |
                awk -F '\t' 'NR > 1 && ($4 != 0 || $7 != 0) { printf "%s\t%.17g\t%.17g\n", $1, $4, $7 }' >"$T/go/rep"
            grep -v '^<total>' "$T/go/theirs" | awk -F '\t' '$2 != 0 || $3 != 0' >"$T/go/theirs-rows"
            check "Go $kind: report --base deltas equal pprof -diff_base flat/cum" \
                "$(same_numbers "$T/go/theirs-rows" "$T/go/rep")"
            # the difference profile pprof writes reads back as the same comparison
            pp -proto -symbolize=none -diff_base="$a" "$b" >"$T/go/pd.pb.gz" 2>/dev/null
            "$S" report --format tsv --value "$value" "$T/go/pd.pb.gz" >"$T/go/r1" 2>/dev/null
            "$S" report --format tsv --value "$value" --base "$a" "$b" >"$T/go/r2" 2>/dev/null
            # (the same numbers summed in another order: equal within 1e-12)
            check "Go $kind: pprof -proto -diff_base output reads as the comparison" \
                "$( [ -s "$T/go/r1" ] || echo "no output"; same_tsv "$T/go/r1" "$T/go/r2")"
            # --normalize: ours = new - base x N/B; pprof's = new x B/N - base
            "$S" convert --value "$value" --normalize --base "$a" -o "$T/go/n-$kind.pb.gz" "$b" 2>/dev/null
            top_tsv "$T/go/n-$kind.pb.gz" -symbolize=none "${idx[@]}" >"$T/go/ours"
            nb=$(top_tsv "$a" -symbolize=none "${idx[@]}" | awk -F '\t' '$1 == "<total>" { print $2 }')
            nn=$(top_tsv "$b" -symbolize=none "${idx[@]}" | awk -F '\t' '$1 == "<total>" { print $2 }')
            top_tsv "$b" -symbolize=none "${idx[@]}" -normalize -diff_base="$a" |
                awk -F '\t' -v r="$nn / $nb" 'BEGIN { split(r, q, " / "); f = q[1] / q[2] }
                    $1 == "<total>" { print; next } { printf "%s\t%.17g\t%.17g\n", $1, $2 * f, $3 * f }' \
                    >"$T/go/theirs"
            # per-sample rounding differs (pprof rounds the new samples, we the
            # base's): allow one unit per sample of the pair
            ns=$(pp -raw -symbolize=none "$a" "$b" 2>/dev/null | awk '/^Samples:/ { on = 1; next } /^Locations/ { on = 0 } on && /:/ { n++ } END { print n + 0 }')
            check "Go $kind: --normalize equals pprof -normalize -diff_base x new/base total" "$(awk -F '\t' -v tol="$ns" '
                NR == FNR { x[$1] = $2; y[$1] = $3; next }
                $1 == "<total>" { next }
                { d = x[$1] - $2; e = y[$1] - $3; if (d < 0) d = -d; if (e < 0) e = -e
                  m = $2 < 0 ? -$2 : $2; n = $3 < 0 ? -$3 : $3
                  if ((d > tol + 1 && d > 1e-6 * m) || (e > tol + 1 && e > 1e-6 * n)) {
                      print $1 ": " $2 " " $3 " vs " x[$1] " " y[$1]; exit } }' "$T/go/theirs" "$T/go/ours")"
        done
    fi
fi

# a difference profile written by convert --base reads back as the same
# comparison; check names its base session
"$S" convert --base "$T/base.out" -o "$T/dd.pb.gz" "$T/new.out" 2>/dev/null
"$S" check "$T/dd.pb.gz" >"$T/got" 2>&1
check "check: a difference profile's base session is named" "$(
    grep -q '4 samples (the base of a difference profile' "$T/got" || cat "$T/got")"
"$S" report --format tsv --value samples "$T/dd.pb.gz" 2>/dev/null | cut -f 1-4 >"$T/got"
printf 'name\tself.base\tself\tself.delta\ng\t1\t3\t2\nh\t0\t1\t1\nmain\t1\t0\t-1\nf\t2\t1\t-1\n' >"$T/want"
same_text "convert --base -o X.pb.gz reads back as the comparison (samples)" "$T/want" "$T/got"

# a base is an input: never replaced, by convert or by the explorer's :w
"$S" convert -o "$T/bp.pb.gz" "$T/base.out" 2>/dev/null
cp "$T/bp.pb.gz" "$T/bp.copy"
"$S" convert --base "$T/bp.pb.gz" --force -o "$T/bp.pb.gz" "$T/new.out" 2>"$T/err"
rc=$?
check "convert --base B -o B --force: the base is an input, not replaced" "$(
    [ $rc = 2 ] || [ $rc = 1 ] || echo "exit $rc"
    grep -q 'input' "$T/err" || cat "$T/err"
    cmp -s "$T/bp.pb.gz" "$T/bp.copy" || echo "the base changed")"
cat >"$T/w.script" <<EOF
:w! $T/bp.pb.gz
:save-display $T/w.1
:w $T/w.pb.gz
:q!
EOF
LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/w.script timeout 20 "$S" --base "$T/bp.pb.gz" "$T/new.out" \
    >/dev/null 2>&1 </dev/null
check "explorer: :w! on the base is refused" "$(
    grep -q 'is an input file' "$T/w.1" || tail -n 1 "$T/w.1"
    cmp -s "$T/bp.pb.gz" "$T/bp.copy" || echo "the base changed")"
"$S" report --format tsv --value samples "$T/w.pb.gz" 2>/dev/null | cut -f 1-4 >"$T/got"
printf 'name\tself.base\tself\tself.delta\ng\t1\t3\t2\nh\t0\t1\t1\nmain\t1\t0\t-1\nf\t2\t1\t-1\n' >"$T/want"
same_text "explorer: :w X.pb.gz writes the comparison (the base negated)" "$T/want" "$T/got"

# ---- 4. mixed formats and messages -------------------------------------------------

# an Rprof base and a pprof new profile: the same numbers as both in Rprof
# (not the same verdicts: pprof keeps no time order, the new side's samples
# are then independent units)
"$S" convert -o "$T/new.pb.gz" "$T/new.out"
"$S" report --format tsv --value samples --base "$T/base.out" "$T/new.out" | cut -f 1-7 >"$T/want"
"$S" report --format tsv --value samples --base "$T/base.out" "$T/new.pb.gz" 2>"$T/err" | cut -f 1-7 >"$T/got"
same_text "mixed: an Rprof base against a pprof profile (--value samples)" "$T/want" "$T/got"
"$S" report --format tsv --base "$T/base.out" "$T/new.pb.gz" >"$T/got" 2>"$T/err"
check "mixed: Rprof time against pprof time (the default cpu has no Rprof twin: time)" \
    "$(awk -F '\t' '$1 == "g" && !($2 > 0.0199 && $2 < 0.0201) { print }' "$T/got"; [ -s "$T/got" ] || head -c 300 "$T/err")"

for to in rprof tables speedscope; do
    "$S" convert --base "$T/base.out" --to $to -o "$T/x.$to" "$T/new.out" 2>"$T/err"
    rc=$?
    check "convert --to $to refuses a comparison with a clear message" "$(
        [ $rc = 1 ] || echo "exit $rc"
        grep -q "cannot hold a comparison" "$T/err" || head -c 300 "$T/err"
        [ ! -e "$T/x.$to" ] || echo "wrote $T/x.$to")"
done
# ---- sources in a comparison -------------------------------------------------------------
# report --base --by sources: the base's sources, then the new profile's, each
# row `side` + the row of `report --by sources` on that side alone (TSV: the
# same cells; the measure of the base times the --normalize scale, nothing
# else changes: pct is of each side's own total).  Independently: an Rprof
# session's samples and time are its sample lines and lines x interval (awk
# over the file); the text's total lines and delta are the summary's numbers.
# cmp_side SIDE ARGS...: the comparison's TSV rows of SIDE, without the side column
cmp_side() {
    local side=$1
    shift
    "$S" report --by sources --format tsv "$@" 2>/dev/null |
        awk -F '\t' -v OFS='\t' -v s="$side" 'NR == 1 { next } $1 == s { sub(/^[^\t]*\t/, ""); print }'
}
alone() { "$S" report --by sources --format tsv "$@" 2>/dev/null | tail -n +2; }
A2=$SRCDIR/tests/data/rprof/append_two_sessions.out
"$S" report --by sources --format tsv --base "$A2" "$T/new.out" >"$T/src.tsv" 2>"$T/err"
check "sources --base: TSV header is side + the sources table's" "$(
    want="side	$("$S" report --by sources --format tsv "$T/new.out" | head -n 1)"
    [ "$(line 1 "$T/src.tsv")" = "$want" ] || line 1 "$T/src.tsv"; [ -s "$T/src.tsv" ] || cat "$T/err")"
for tf in "" "drop order;drop g" "keep-samples 2:300;trim-base 1"; do
    e=()
    IFS=';' read -r -a steps <<<"$tf"
    for st in "${steps[@]}"; do e+=(-e "$st"); done
    check "sources --base ${tf:+(-e $tf) }: the base's rows are report --by sources on the base alone" "$(
        diff <(alone "${e[@]}" "$A2") <(cmp_side base "${e[@]}" --base "$A2" "$T/new.out") | head -n 4)"
    check "sources --base ${tf:+(-e $tf) }: the new rows are report --by sources on the new alone" "$(
        diff <(alone "${e[@]}" "$T/new.out") <(cmp_side new "${e[@]}" --base "$A2" "$T/new.out") | head -n 4)"
done
# awk over the Rprof file: per session (a header line starts one) its sample
# lines and their time (lines with a frame x interval); the base's rows
check "sources --base: each base session's samples and time are its lines (awk over the file)" "$(
    awk '/^(memory profiling: )?(GC profiling: )?(line profiling: )?sample\.interval=/ {
             s++; sub(/.*sample\.interval=/, ""); iv[s] = $0 / 1e6; next }
         /^#/ { next } { n[s]++; if (index($0, "\"")) t[s] += iv[s] }
         END { for (i = 1; i <= s; i++) printf "%d %d %.9f\n", i, n[i], t[i] }' "$A2" >"$T/want"
    awk -F '\t' '$1 == "base" { printf "%d %d %.9f\n", $2, $9, $10 }' "$T/src.tsv" | diff "$T/want" - | head -n 4)"
check "sources --base: pct is each row's share of its own side's measure (awk)" "$(
    awk -F '\t' 'NR == FNR { if (FNR > 1) tot[$1] += $10; next } FNR > 1 {
        want = tot[$1] > 0 ? 100 * $10 / tot[$1] : 0; d = want - $11; if (d < 0) d = -d
        if (d > 1e-9) print $1, $2, $11, "want", want }' "$T/src.tsv" "$T/src.tsv")"
# --normalize: the base's measure times new total / base total (each from its
# own table alone), its other cells as the base alone
check "sources --base --normalize: the base's measure scaled to the new total, the rest as the base alone" "$(
    alone "$A2" >"$T/a.b"; alone "$T/new.out" >"$T/a.n"
    cmp_side base --normalize --base "$A2" "$T/new.out" >"$T/g.b"
    awk -F '\t' 'FNR == 1 { f++ } f == 1 { tb += $9; w[FNR] = $0; nw = FNR; next } f == 2 { tn += $9; next }
        { split(w[FNR], a, "\t"); want = a[9] * tn / tb; d = want - $9; if (d < 0) d = -d
          if (d > 1e-12) print "row " FNR ": " $9 " want " want
          for (i = 1; i <= NF; i++) if (i != 9 && a[i] != $i) print "row " FNR " col " i ": " $i " want " a[i] }
        END { if (FNR != nw) print "rows " FNR " want " nw }' "$T/a.b" "$T/a.n" "$T/g.b"
    diff "$T/a.n" <(cmp_side new --normalize --base "$A2" "$T/new.out") | head -n 3)"
# text: the total lines and the delta are the summary line's numbers
for norm in "" --normalize; do
    "$S" report --by sources $norm --base "$A2" "$T/new.out" >"$T/src.txt" 2>"$T/err"
    check "sources --base $norm: text totals per side and their delta equal the summary line" "$(
        awk '/^compare / { sub(/^compare +time: /, ""); split($0, p, ", ")
                 sub(/^base /, "", p[1]); sub(/^new /, "", p[2]); sub(/^delta /, "", p[3]); next }
             /^base total / { sub(/.*samples?, /, ""); b = $0 }
             /^new total / { sub(/.*samples?, /, ""); n = $0 }
             /^delta / { sub(/^delta +[-+][0-9]+ samples?, /, ""); sub(/, base normalized.*/, ""); d = $0 }
             END { if (b != p[1] || n != p[2] || d != p[3]) print "totals " b " / " n " / " d " summary " p[1] " / " p[2] " / " p[3] }' "$T/src.txt"
        grep -q "^base total 2 sources, 524 samples, " "$T/src.txt" || echo "base total line: $(grep '^base total' "$T/src.txt")"
        grep -q "^delta      -519 samples, " "$T/src.txt" || echo "delta line: $(grep '^delta' "$T/src.txt")")"
done
# mixed formats: an Rprof base and a Go pprof profile (the default cpu has no
# Rprof twin: both sides fall back to time, as --value time)
GO_CPU=$SRCDIR/tests/data/pprof/go/cpu.pb.gz
check "sources --base: an Rprof base and a pprof profile, each side's rows as each file's alone (--value time)" "$(
    diff <(alone --value time "$T/base.out") <(cmp_side base --base "$T/base.out" "$GO_CPU") | head -n 3
    diff <(alone --value time "$GO_CPU") <(cmp_side new --base "$T/base.out" "$GO_CPU") | head -n 3
    [ "$(cmp_side new --base "$T/base.out" "$GO_CPU" | cut -f 2)" = pprof ] || echo "no pprof row")"
# every table --help lists compares
check "every --by TABLE of --help compares" "$(
    "$S" --help | awk '/^  --by TABLE/ { on = 1; next } on && /^  --/ { exit }
        on && $1 ~ /^[a-z]+$/ && NF >= 1 && substr($0, 28, 1) != " " { print $1 }' |
        while read -r by; do
            case $by in calls) fn=(--function lm) ;; *) fn=() ;; esac
            "$S" report --by "$by" "${fn[@]}" --base "$T/demo_base.out" "$T/demo_new.out" >/dev/null 2>&1 ||
                echo "report --by $by --base fails"
        done)"
printf 'main;f 2\nmain;g 1\n' >"$T/f.folded"
"$S" report --by runs --base "$T/f.folded" "$T/new.out" >/dev/null 2>"$T/err"
rc=$?
check "report --by runs --base: a folded base has no time order" "$(
    [ $rc = 1 ] || echo "exit $rc"; grep -q 'f.folded (folded) has none' "$T/err" || cat "$T/err")"
"$S" report --normalize "$T/new.out" >/dev/null 2>"$T/err"
rc=$?
check "--normalize without --base is a usage error" "$(
    [ $rc = 1 ] || echo "exit $rc"; grep -q 'normalize goes with --base' "$T/err" || cat "$T/err")"
printf 'memory profiling: sample.interval=10000\n:10:0:0:0:"f" "main" \n:20:0:0:0:"f" "main" \n' >"$T/mem.out"
"$S" report --value memory --base "$T/base.out" "$T/mem.out" >/dev/null 2>"$T/err"
rc=$?
check "a base without the measure: usage error naming it" "$(
    [ $rc = 1 ] || echo "exit $rc"; grep -q "memory" "$T/err" || cat "$T/err")"
"$S" report --base "$T/nonexistent.out" "$T/new.out" >/dev/null 2>"$T/err"
rc=$?
check "a missing base file: exit 2 naming it" "$(
    [ $rc = 2 ] || echo "exit $rc"; grep -q "nonexistent.out" "$T/err" || cat "$T/err")"

# ---- 5. the explorer, headless ------------------------------------------------------

# the functions view of the hand-made pair: the numbers of section 1, sorted
# by self delta; `s` sorts by total delta; X swaps the sides: then f grows
# by 0.030, main by 0.020, g and h shrink by 0.010 (tie: by name)
cat >"$T/ui.script" <<EOF
:save-display $T/ui.1
s
:save-display $T/ui.2
X
:save-display $T/ui.3
:drop h
:save-display $T/ui.4
:q!
EOF
LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/ui.script timeout 20 "$S" --base "$T/base.out" "$T/new.out" \
    >"$T/ui.out" 2>"$T/ui.err" </dev/null
rc=$?
check "explorer: --base runs headless" "$([ $rc = 0 ] || echo "exit $rc: $(head -c 300 "$T/ui.err")")"
# each delta's verdict (v) is ~: 4 and 5 samples tell no change from noise
cat >"$T/want" <<'EOF'
 functions: 4 compared, by self delta                               1/4  ?:help
   base    self   delta↓  delta% v    base   total    delta v function
  0.020   0.030   +0.010  +50.0% ~   0.020   0.030   +0.010 ~ g
  0.000   0.010   +0.010     new ~   0.000   0.010   +0.010 ~ h
  0.020   0.000   -0.020   -100% ~   0.080   0.050   -0.030 ~ main
  0.040   0.010   -0.030  -75.0% ~   0.040   0.010   -0.030 ~ f
EOF
head -n 6 "$T/ui.1" >"$T/got"
same_text "explorer: functions view shows base, new and delta by self delta" "$T/want" "$T/got"
check "explorer: the status line says what is compared, with the totals" "$(
    grep -q '^ new.out vs base.out | time: base 0.080 s, new 0.050 s, -0.030 s (-37.50%)' "$T/ui.1" ||
        sed -n 23p "$T/ui.1")"
check "explorer: s sorts by total delta" "$(
    head -n 2 "$T/ui.2" | grep -q 'by total delta' || head -n 2 "$T/ui.2")"
got=$(sed -n '3,6p' "$T/ui.3" | awk '{ print $NF }' | tr '\n' ' ')
check "explorer: X swaps base and new (f +0.030, main +0.020, g, h)" "$(
    [ "$got" = "f main g h " ] || echo "$got"
    grep -q '^ base.out vs .*(swapped) | time: base 0.050 s, new 0.080 s, +0.030 s (+60.00%)' "$T/ui.3" || sed -n 23p "$T/ui.3")"
check "explorer: a transform applies to both sides (drop h: h leaves both)" "$(
    grep -q ' h$' "$T/ui.4" && echo "h still listed"
    grep -q 'base 0.040 s, new 0.080 s' "$T/ui.4" || sed -n 23p "$T/ui.4")"
# without a terminal the explorer prints the comparison report
"$S" --base "$T/base.out" "$T/new.out" </dev/null 2>/dev/null | grep -c '^compare ' >"$T/got"
check "explorer without a terminal: prints report --base" "$(grep -qx 1 "$T/got" || cat "$T/got")"

# the flame graph coloured by delta: the legend, and the selected frame's
# base and delta (main: 0.050 against 0.080; g: 0.030 against 0.020)
cat >"$T/flame.script" <<EOF
F
:save-display $T/fl.1
k
:save-display $T/fl.2
:q!
EOF
LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/flame.script timeout 20 "$S" --base "$T/base.out" "$T/new.out" \
    >/dev/null 2>"$T/fl.err" </dev/null
check "explorer: flame graph legend in a comparison" "$(
    grep -q 'red grew (0), blue shrank (0) beyond noise' "$T/fl.1" || head -n 3 "$T/fl.1")"
check "explorer: flame graph detail line: base and delta of the selected frame" "$(
    grep -q '^total 0.030 s, base 0.020 s, delta +0.010 s, ~ (q [0-9.]*) | g' "$T/fl.1" || tail -n 4 "$T/fl.1"
    grep -q '^total 0.050 s, base 0.080 s, delta -0.030 s, ~ (q [0-9.]*) | main' "$T/fl.2" || tail -n 4 "$T/fl.2")"

# the top-down tree view: each node with its base total and the delta
# (children in the new profile's order: g 0.030, then f and h 0.010 by name;
# the total column marked as the order)
printf '3\n:save-display %s\n:q!\n' "$T/tree.1" >"$T/tree.script"
LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/tree.script timeout 20 "$S" --base "$T/base.out" "$T/new.out" \
    >/dev/null 2>&1 </dev/null
cat >"$T/want" <<'EOF'
 top-down: 4 nodes, against the base                                1/4  ?:help
     base    total↓      delta v      self function
    0.080     0.050     -0.030 ~     0.000 ▾ main
    0.020     0.030     +0.010 ~     0.030 ├─  g
    0.040     0.010     -0.030 ~     0.010 ├─  f
    0.000     0.010     +0.010 ~     0.010 └─  h
EOF
head -n 6 "$T/tree.1" >"$T/got"
same_text "explorer: the tree view in a comparison" "$T/want" "$T/got"

# the calls view of main: its total and each callee against the base
printf ':calls main\n:save-display %s\n:q!\n' "$T/calls.1" >"$T/calls.script"
LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/calls.script timeout 20 "$S" --base "$T/base.out" "$T/new.out" \
    >/dev/null 2>&1 </dev/null
cat >"$T/want" <<'EOF'
 calls: main: 0 callers, 3 callees                                  1/4  ?:help
              base        new       delta function
total        0.080      0.050      -0.030 main (total; self 0 = 0.000 s)
callee       0.020      0.030      +0.010   g
callee       0.040      0.010      -0.030   f
callee       0.000      0.010      +0.010   h
EOF
head -n 6 "$T/calls.1" >"$T/got"
same_text "explorer: the calls view in a comparison" "$T/want" "$T/got"

# the stacks view: each stack's base value (main alone, only in the base,
# does not appear: its new value would be 0)
printf '2\n:save-display %s\n:q!\n' "$T/stacks.1" >"$T/stacks.script"
LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/stacks.script timeout 20 "$S" --base "$T/base.out" "$T/new.out" \
    >/dev/null 2>&1 </dev/null
cat >"$T/want" <<'EOF'
 stacks: 3 distinct by samples; Enter: frames                       1/3  ?:help
     base       new      delta v depth stack (root first)
    0.020     0.030     +0.010 ~     2 main;g
    0.040     0.010     -0.030 ~     2 main;f
    0.000     0.010     +0.010 ~     2 main;h
EOF
head -n 5 "$T/stacks.1" >"$T/got"
same_text "explorer: the stacks view in a comparison" "$T/want" "$T/got"

# the levels view: per level the samples and the time of both sides and the
# deltas (the numbers of section 1's --by levels), the new profile's top
printf '7\n:save-display %s\n:runs g\n:save-display %s\n:q!\n' "$T/lv.1" "$T/ru.1" >"$T/lv.script"
LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/lv.script timeout 20 "$S" --base "$T/base.out" "$T/new.out" \
    >/dev/null 2>&1 </dev/null
cat >"$T/want" <<'EOF'
 levels: 2 compared (base, new, delta)                              1/2  ?:help
level     base  samples   delta    base s    time s    delta s top function
    1        4        5      +1     0.080     0.050     -0.030 main
    2        3        5      +2     0.060     0.050     -0.010 g
EOF
head -n 4 "$T/lv.1" >"$T/got"
same_text "explorer: the levels view in a comparison" "$T/want" "$T/got"
# the runs view of g: 1 run of 1 sample in the base, 1 of 3 in the new profile
cat >"$T/want" <<'EOF'
 runs: g: 1 runs (~ calls); h/l scroll the table                    1/7  ?:help
level  base  runs delta    base samples  delta    mean   delta function
  all     1     1     0       1       3     +2    3.00   +2.00 g
    2     1     1     0       1       3     +2    3.00   +2.00 g
EOF
head -n 4 "$T/ru.1" >"$T/got"
same_text "explorer: the runs view in a comparison" "$T/want" "$T/got"

# the timeline view: under the grid the base at the cursor's level, in the
# new profile's letters (level 2: base f f g and one sample without it)
printf '6\n:save-display %s\n:q!\n' "$T/tl.1" >"$T/tl.script"
LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/tl.script timeout 20 "$S" --base "$T/base.out" "$T/new.out" \
    >/dev/null 2>&1 </dev/null
check "explorer: the timeline view shows the base's row at the cursor's level" "$(
    grep -qx 'cursor: sample 1, level 2: f in 1 of 1 | base: f in 1 of 1 | phase 1 of 1' "$T/tl.1" || echo info line
    grep -qx '   2  fgggh' "$T/tl.1" || echo new row
    grep -qx 'base  ffg' "$T/tl.1" || echo base row)"

# --normalize in the explorer: the base scaled by 0.625, said on the status line
printf ':save-display %s\n:q!\n' "$T/norm.1" >"$T/norm.script"
LC_ALL=C.UTF-8 COLUMNS=200 STACKSCOPE_SCRIPT=$T/norm.script timeout 20 "$S" --normalize --base "$T/base.out" "$T/new.out" \
    >/dev/null 2>&1 </dev/null
check "explorer: --normalize scales the base (main self 0.0125 shown 0.013 -> 0, total 0.050 both)" "$(
    grep -q '^  0.013   0.000   -0.013   -100% ~   0.050   0.050    0.000 ~ main$' "$T/norm.1" ||
        head -n 6 "$T/norm.1"
    grep -q 'base 0.050 s, new 0.050 s, 0.000 s (+0.00%), normalized' "$T/norm.1" || grep ' vs ' "$T/norm.1")"

# a frame only in the base is named on its parent's detail line: g called k
# in one base sample (10 ms) and calls nothing in the new profile
printf 'sample.interval=10000\n"f" "main" \n"k" "g" "main" \n"g" "main" \n' >"$T/b3.out"
printf 'sample.interval=10000\n"f" "main" \n"g" "main" \n"g" "main" \n' >"$T/n3.out"
printf 'F\n:save-display %s\n:q!\n' "$T/gone.1" >"$T/gone.script"
LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/gone.script timeout 20 "$S" --base "$T/b3.out" "$T/n3.out" \
    >/dev/null 2>&1 </dev/null
check "explorer: flame graph detail line lists the frames only in the base" "$(
    grep -q '^total 0.020 s, base 0.020 s, delta 0.000 s, ~ (q [0-9.]*); only in the base: k 0.01' "$T/gone.1" ||
        tail -n 4 "$T/gone.1")"

# the SVG: each frame's title with its base, delta and verdict, a legend;
# coloured only where the change is told from noise, and 4 and 5 samples
# tell none: every frame is grey (tests/verdicts.sh draws real changes)
"$S" convert --base "$T/base.out" -o "$T/d.svg" "$T/new.out" 2>"$T/err"
check "convert --base -o X.svg: frames titled by delta and verdict, ~ frames grey" "$(
    grep -q '<g [^>]*data-v="~"><title>g (0.030 s, 60.00%; base 0.020 s, delta +0.010 s; ~, q [0-9.]*)</title><rect[^>]* fill="rgb(235,235,235)"' "$T/d.svg" || echo "g not grey"
    grep -q '<title>f (0.010 s, 20.00%; base 0.040 s, delta -0.030 s; ~, q [0-9.]*)</title><rect[^>]* fill="rgb(235,235,235)"' "$T/d.svg" || echo "f not grey"
    grep -q 'id="legend"[^>]*>red: grew, blue: shrank beyond sampling noise' "$T/d.svg" || echo "no legend"
    [ -s "$T/d.svg" ] || head -c 300 "$T/err")"

# lines (line profiling, 10 ms): base f at a.R#2 x2 (main at #5), g at #3
# (main at #6); new f at #2 once, g at #3 three times.  Self: #3 0.01 ->
# 0.03, #2 0.02 -> 0.01; total: #5 0.02 -> 0.01, #6 0.01 -> 0.03.  By self
# delta, ties (#6, #5: 0) by total delta
printf 'line profiling: sample.interval=10000\n#File 1: a.R\n1#2 "f" 1#5 "main" \n1#2 "f" 1#5 "main" \n1#3 "g" 1#6 "main" \n' >"$T/bl.out"
printf 'line profiling: sample.interval=10000\n#File 1: a.R\n1#2 "f" 1#5 "main" \n1#3 "g" 1#6 "main" \n1#3 "g" 1#6 "main" \n1#3 "g" 1#6 "main" \n' >"$T/nl.out"
cat >"$T/want" <<'EOF'
location	self.base	self	self.delta	total.base	total	total.delta
a.R#3	0.01	0.03	0.02	0.01	0.03	0.02
a.R#6	0	0	0	0.01	0.03	0.02
a.R#5	0	0	0	0.02	0.01	-0.01
a.R#2	0.02	0.01	-0.01	0.02	0.01	-0.01
EOF
"$S" report --by line --format tsv --base "$T/bl.out" "$T/nl.out" | cut -f 1-7 >"$T/got"
same_text "hand: --by line TSV (by self delta, then total delta)" "$T/want" "$T/got"
printf '9\n:save-display %s\n:q!\n' "$T/lines.1" >"$T/lines.script"
LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/lines.script timeout 20 "$S" --base "$T/bl.out" "$T/nl.out" \
    >/dev/null 2>&1 </dev/null
cat >"$T/want" <<'EOF'
 lines: 4 compared, by self delta; Enter: the file (new)            1/4  ?:help
    base     self    delta↓ v     base    total     delta v location
   0.010    0.030    +0.020 ~    0.010    0.030    +0.020 ~ a.R#3
   0.000    0.000     0.000 ~    0.010    0.030    +0.020 ~ a.R#6
   0.000    0.000     0.000 ~    0.020    0.010    -0.010 ~ a.R#5
   0.020    0.010    -0.010 ~    0.020    0.010    -0.010 ~ a.R#2
EOF
head -n 6 "$T/lines.1" >"$T/got"
same_text "explorer: the lines view in a comparison" "$T/want" "$T/got"

# ---- 5b. labels and transforms compared ------------------------------------------------

# join_labels BASE NEW OUT [--normalize]: each file's own `report --by labels
# --format tsv` joined with awk by key and value (0 on a missing side), the
# base's measure times new total / base total with --normalize (the totals:
# each file's --by self TSV, summed); "key|value<TAB>cb<TAB>cn<TAB>cd<TAB>vb<TAB>vn<TAB>vd" rows.
join_labels() {
    local b=$1 n=$2 out=$3 norm=${4:-}
    "$S" report --by labels --format tsv "$b" >"$out.b" 2>/dev/null
    "$S" report --by labels --format tsv "$n" >"$out.n" 2>/dev/null
    local tb=1 tn=1
    if [ -n "$norm" ]; then
        tb=$("$S" report --format tsv "$b" | awk -F '\t' 'NR > 1 { t += $2 } END { printf "%.17g", t }')
        tn=$("$S" report --format tsv "$n" | awk -F '\t' 'NR > 1 { t += $2 } END { printf "%.17g", t }')
    fi
    awk -F '\t' -v tb="$tb" -v tn="$tn" '
        FNR == 1 { f++; next }
        { k = $1 "|" $2; keys[k] = 1 }
        f == 1 { cb[k] = $3; vb[k] = $4 * tn / tb; next }
        { cn[k] = $3; vn[k] = $4 }
        END { for (k in keys) printf "%s\t%d\t%d\t%d\t%.17g\t%.17g\t%.17g\n", k, cb[k], cn[k],
                  cn[k] - cb[k], vb[k], vn[k], vn[k] - vb[k] }' "$out.b" "$out.n" | sort >"$out"
}
# ours_labels ARGS...: report --base --by labels TSV in the same shape (sorted)
ours_labels() {
    "$S" report --by labels --format tsv "$@" 2>/dev/null |
        awk -F '\t' 'NR > 1 { printf "%s|%s\t%s\t%s\t%s\t%.17g\t%.17g\t%.17g\n", $1, $2, $3, $4, $5, $6, $7, $8 }' | sort
}
# same_rows A B: the same keys, counts equal, values within 1e-9 relative
# (columns 2-4, the counts, exactly; the value delta, 0 in exact arithmetic
# when the values agree, may come out as a rounding of the values, 1e-16 of
# them: its bound is relative to the row's values)
same_rows() {
    awk -F '\t' '
        function abs(v) { return v < 0 ? -v : v }
        function bad(a, b, big) { d = abs(a - b); return d > 1e-9 * (abs(a) + abs(b) + big) + 1e-15 }
        NR == FNR { w[$1] = $0; n++; next }
        { seen++; if (!($1 in w)) { print "only ours: " $1; exit }
          split(w[$1], x, "\t")
          big = abs(x[5]) > abs(x[6]) ? abs(x[5]) : abs(x[6])
          for (i = 2; i <= 7; i++)
              if (i <= 4 ? x[i] != $i : bad(x[i], $i, i == 7 ? big : 0)) {
                  print $1 ": want " w[$1] " got " $0; exit } }
        END { if (seen != n) print n " rows wanted, " seen " got" }' "$1" "$2"
}
# by_delta FILE: the TSV rows (after the header) by column C non-increasing
by_delta() {
    awk -F '\t' -v c="$2" 'NR > 2 && $c > prev + 1e-12 * (prev < 0 ? -prev : prev) { print "row " NR - 1 " (" $1 " " $2 ") grows more than the one before"; exit }
        NR > 1 { prev = $c }' "$1"
}

# the hand-made perf pair (check_compare.c's labels_join; perf labels comm,
# tid and dso, the innermost frame's binary, here the command's; the time
# measure the sum of the periods): base gzip/2582 1 ms x 2, bash/10 2 ms;
# new bash/10 3 ms, bash/11 1 ms, gzip/2582 1 ms
printf 'gzip  2582 [001]  4919.377196:    1000000 cpu-clock: \n\t            4330 deflate (/usr/bin/gzip)\n\ngzip  2582 [001]  4919.378000:    1000000 cpu-clock: \n\t            4330 deflate (/usr/bin/gzip)\n\nbash  10 [000]  4919.379000:    2000000 cpu-clock: \n\t            12ab main (/bin/bash)\n' >"$T/lb.perf"
printf 'bash  10 [000]  4919.377196:    3000000 cpu-clock: \n\t            12ab main (/bin/bash)\n\nbash  11 [000]  4919.378000:    1000000 cpu-clock: \n\t            12ab main (/bin/bash)\n\ngzip  2582 [001]  4919.379000:    1000000 cpu-clock: \n\t            4330 deflate (/usr/bin/gzip)\n' >"$T/ln.perf"
"$S" report --by labels --format tsv --base "$T/lb.perf" "$T/ln.perf" >"$T/got" 2>"$T/err"
cat >"$T/want" <<'EOF'
key	value	count.base	count	count.delta	time.base	time	time.delta
comm	bash	1	2	1	0.002	0.004	0.002
dso	bash	1	2	1	0.002	0.004	0.002
tid	11	0	1	1	0	0.001	0.001
tid	10	1	1	0	0.002	0.003	0.001
comm	gzip	2	1	-1	0.002	0.001	-0.001
dso	gzip	2	1	-1	0.002	0.001	-0.001
tid	2582	2	1	-1	0.002	0.001	-0.001
EOF
check "hand (perf): report --base --by labels, hand-counted, by the measure's delta" "$(
    awk -F '\t' 'NR == FNR { w[FNR] = $0; n = FNR; next }
        { split(w[FNR], x, "\t"); for (i = 1; i <= 8; i++) # then the verdicts
              if ($i != x[i] && ($i - x[i] > 1e-12 || x[i] - $i > 1e-12)) { print FNR ": " $0; exit } }
        END { if (FNR != n) print FNR " lines" }' "$T/want" "$T/got"; cat "$T/err")"
for opt in "" "--normalize"; do
    join_labels "$T/lb.perf" "$T/ln.perf" "$T/lj" $opt
    # shellcheck disable=SC2086
    ours_labels $opt --base "$T/lb.perf" "$T/ln.perf" >"$T/lo"
    check "hand (perf): --by labels ${opt:-(plain)} --base = each side's labels joined" "$(same_rows "$T/lj" "$T/lo")"
done
"$S" report --by labels --base "$T/lb.perf" "$T/ln.perf" >"$T/text" 2>&1
check "hand (perf): the text names both sides and has the deltas" "$(
    has "$T/text" "compare    time: base 0.004 s, new 0.005 s, delta +0.001 s (+25.00%)" || echo "no summary"
    grep -q '^comm  *1  *2  *+1  *0.002  *0.004  *+0.002  *~  *bash$' "$T/text" || cat "$T/text")"
"$S" report --by labels --base "$T/base.out" "$T/new.out" >"$T/text" 2>&1
check "Rprof: --by labels --base says neither side has labels" "$(
    has "$T/text" "(no labels on either side" || cat "$T/text")"

# transforms: each side's samples in and out, measure in and out, equal
# `report --by transforms` run on that file alone with the same list
# tf_sides NAME BASE NEW -e ...: the columns .base / new of the comparison
# against the two plain tables (TSV columns by name)
tf_sides() {
    local name=$1 b=$2 n=$3
    shift 3
    "$S" report --by transforms --format tsv "$@" "$b" >"$T/tb" 2>/dev/null
    "$S" report --by transforms --format tsv "$@" "$n" >"$T/tn" 2>/dev/null
    "$S" report --by transforms --format tsv "$@" --base "$b" "$n" >"$T/tc" 2>/dev/null
    check "$name: --by transforms --base = --by transforms on each file ($(($(wc -l <"$T/tc") - 1)) steps)" "$(
        [ "$(wc -l <"$T/tc")" -gt 1 ] || echo "no steps"
        awk -F '\t' '
            function near(a, b) { d = a - b; m = (a < 0 ? -a : a) + (b < 0 ? -b : b)
                                  return d * d <= 1e-18 * m * m + 1e-24 }
            BEGIN { nn = split("samples_in samples_out samples_emptied frames_removed " \
                               "stacks_changed functions_matched labels_matched levels_removed", names, " ") }
            FNR == 1 { f++
                for (i = 1; i <= NF; i++) {
                    col[f, $i] = i
                    if (f == 1 && $i ~ /_in$/ && $i != "samples_in") names[++nn] = vin = $i
                    if (f == 1 && $i ~ /_out$/ && $i != "samples_out") names[++nn] = vout = $i
                }
                next }
            f == 1 { for (i = 1; i <= NF; i++) b[FNR, i] = $i; next }
            f == 2 { for (i = 1; i <= NF; i++) n[FNR, i] = $i; next }
            { for (k = 1; k <= nn; k++) {
                  nm = names[k]; x = $col[3, nm ".base"]; y = $col[3, nm]
                  wb = b[FNR, col[1, nm]]; wn = n[FNR, col[2, nm]]
                  if (!near(x, wb) || !near(y, wn)) {
                      print "step " FNR - 1 " " nm ": base " x " vs " wb ", new " y " vs " wn; exit } }
              ib = b[FNR, col[1, vin]]; ob = b[FNR, col[1, vout]]
              in_ = n[FNR, col[2, vin]]; on = n[FNR, col[2, vout]]
              kb = ib > 0 ? 100 * ob / ib : 0; kn = in_ > 0 ? 100 * on / in_ : 0
              if (!near($col[3, "kept_pct.base"], kb) || !near($col[3, "kept_pct"], kn) ||
                  !near($col[3, "kept_pct.delta"], kn - kb) || !near($col[3, vout ".delta"], on - ob)) {
                  print "step " FNR - 1 ": kept " $col[3, "kept_pct.base"] " " $col[3, "kept_pct"] " vs " kb " " kn; exit } }
        ' "$T/tb" "$T/tn" "$T/tc")"
}
tf_sides "hand (perf)" "$T/lb.perf" "$T/ln.perf" -e 'keep-label comm=bash' -e 'drop-label tid=11'
tf_sides "demo (Rprof)" "$T/demo_base.out" "$T/demo_new.out" -e 'trim-base auto' -e 'focus lm' \
    -e 'drop-samples 1:5' -e 'merge lm.fit'
tf_sides "demo (Rprof), memory" "$T/demo_base.out" "$T/demo_new.out" --value memory -e 'trim-base auto' \
    -e 'focus /^lm$/'
# the effects of each side are its own: the base's used to overwrite the new profile's
"$S" report --by transforms --format tsv -e 'drop-label tid=11' --base "$T/lb.perf" "$T/ln.perf" >"$T/tc"
check "hand (perf): drop-label tid=11 keeps 2 of 3 new samples, all 3 of the base" "$(
    awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { got = $c["samples_in.base"] " " $c["samples_out.base"] " " $c["samples_in"] " " $c["samples_out"] " " $c["labels_matched.base"] " " $c["labels_matched"]
          if (got != "3 3 3 2 0 1") print got }' "$T/tc")"
"$S" report --by transforms -e 'drop-label tid=11' -e 'focus nosuch' --base "$T/lb.perf" "$T/ln.perf" \
    >/dev/null 2>"$T/err"
check "a step that matches on one side only is named with its side, once" "$(
    [ "$(grep -c 'drop-label tid=11: no label matches in the base' "$T/err")" = 1 ] || cat "$T/err"
    [ "$(grep -c 'focus nosuch: no function matches$' "$T/err")" = 1 ] || cat "$T/err")"

# real Go profiles with pprof.Do labels: the committed one (new) against a
# fresh run of tests/producers/go_labels.go (base); Go's pprof -tags gives
# each side's labels, -tagfocus with -diff_base the delta of each value
GL=$D/pprof/labels/go_labels.pb.gz
if [ -z "$PPROF" ] || ! have go; then
    echo "SKIP Go labels comparison: no Go or no Go pprof"
elif ! (mkdir -p "$T/gl" && cd "$T/gl" && GO111MODULE=off GOPROXY=off GOSUMDB=off GOFLAGS=-mod=mod \
    GOTOOLCHAIN=local GOTELEMETRY=off GOENV=off CGO_ENABLED=0 GOCACHE=$STACKSCOPE_GO_DIR/cache \
    HOME=$T/gl go build -o go_labels "$SRCDIR/tests/producers/go_labels.go" &&
    ./go_labels "$T/gl/base.pb.gz" 1) >"$T/gl.log" 2>&1; then
    fail "Go labels: build and run tests/producers/go_labels.go" "$(tail -n 3 "$T/gl.log" | tr '\n' '|')"
else
    GB=$T/gl/base.pb.gz
    for opt in "" "--normalize"; do
        join_labels "$GB" "$GL" "$T/lj" $opt
        # shellcheck disable=SC2086
        ours_labels $opt --base "$GB" "$GL" >"$T/lo"
        check "Go: --by labels ${opt:-(plain)} --base = each side's labels joined ($(wc -l <"$T/lo") labels)" \
            "$(same_rows "$T/lj" "$T/lo")"
    done
    "$S" report --by labels --format tsv --base "$GB" "$GL" >"$T/lc"
    check "Go: rows by the measure's delta, largest growth first" "$(by_delta "$T/lc" 8)"
    # in seconds from here (pprof -unit=ms below)
    "$S" report --by labels --format tsv --value time --base "$GB" "$GL" >"$T/lc"
    # pprof -tags of each file (ms) = the base and new columns
    for side in base new; do
        f=$GB col=6
        [ $side = new ] && f=$GL col=7
        pp -tags -unit=ms "$f" 2>/dev/null |
            perl -ne 'if (/^ (\S.*): Total/) { $k = $1; next }
                      if (/^\s+(-?[0-9.]+)ms \(\s*[0-9.]+%\): (.*)$/) { print "$k\t$2\t$1\n" }' | sort >"$T/gt"
        awk -F '\t' -v c=$col 'NR > 1 && $c != 0 { printf "%s\t%s\t%.1f\n", $1, $2, $c * 1000 }' "$T/lc" | sort >"$T/ot"
        check "Go: the $side column equals pprof -tags on the $side file" "$(
            [ -s "$T/gt" ] || echo "pprof -tags printed nothing"; diff "$T/gt" "$T/ot" | head -n 4)"
    done
    # each value's delta = the flat sum of pprof -top -tagfocus=KEY=^VALUE$ -diff_base
    why=
    while IFS=$'\t' read -r key value _ _ _ _ _ delta; do
        [ "$key" = key ] && continue
        go=$(pp -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -unit=ms \
            "-tagfocus=$key=^$value\$" -diff_base="$GB" "$GL" 2>/dev/null |
            perl -ne 'if (/^\s*flat\s+flat%/) { $on = 1; next }
                      $t += $1 if $on && /^\s*(-?[0-9.]+)ms\s/; END { printf "%.0f\n", $t }')
        ours=$(awk -v d="$delta" 'BEGIN { printf "%.0f\n", d * 1000 }')
        [ "$go" = "$ours" ] || why="$why$key=$value: pprof $go ms, ours $ours ms; "
    done <"$T/lc"
    check "Go: each label's delta equals pprof -tagfocus -diff_base" "$why"
    "$S" report --by labels --base "$GB" "$GL" >"$T/text"
    check "Go: the samples with no label on each side ($(grep 'carry no label' "$T/text"))" "$(
        want_n=$("$S" report --by labels "$GL" | awk '/carry no label/ { print $1 }')
        want_b=$("$S" report --by labels "$GB" | awk '/carry no label/ { print $1 }')
        grep -qx "samples that carry no label: base ${want_b:-0}, new ${want_n:-0}" "$T/text" || grep 'no label' "$T/text")"
    tf_sides "Go" "$GB" "$GL" -e 'trim-base auto' -e 'keep-label worker' -e 'focus main.sum'
fi

# The explorer on the perf pair: the labels view in a comparison shows the
# rows of report --base --by labels (the same cells), s sorts by the count's
# delta; after :drop-label tid=11 and :trim-base 1, d on the labels view's
# first row adds drop-label comm=bash to the list both sides go through; the
# transforms view shows each side's samples in and out, kept% and levels as
# report --base --by transforms does
cat >"$T/uil.script" <<EOF
:labels
:save-display $T/uil.1
s
:save-display $T/uil.2
s
s
s
s
:drop-label tid=11
:trim-base 1
:labels
d
:save-display $T/uil.3
:transforms
:save-display $T/uil.4
:q!
EOF
(cd "$T" && LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/uil.script timeout 20 "$S" --base lb.perf ln.perf \
    >"$T/uil.out" 2>"$T/uil.err" </dev/null)
rc=$?
check "explorer: labels and transforms views of a comparison run headless" "$([ $rc = 0 ] || echo "exit $rc: $(head -c 300 "$T/uil.err")")"
# screen_rows DUMP N: rows 3..N+2 of a dump, blanks squeezed
screen_rows() { sed -n "3,$(($2 + 2))p" "$1" | awk '{ $1 = $1; print }'; }
# report_rows ARGS...: the text table's rows (after its header), blanks squeezed
report_rows() {
    "$S" report "$@" 2>/dev/null | awk '/^key / || /^step / { on = 1; next } on && NF == 0 { exit } on { $1 = $1; print }'
}
report_rows --by labels --base "$T/lb.perf" "$T/ln.perf" >"$T/want"
check "explorer: the labels view's rows are report --base --by labels's ($(wc -l <"$T/want") labels)" "$(
    [ "$(line 1 "$T/uil.1")" = " labels: 7 compared, by measure delta (Enter/f: keep, d: drop)      1/7  ?:help" ] ||
        line 1 "$T/uil.1"
    screen_rows "$T/uil.1" 7 | diff "$T/want" - | head -n 6)"
check "explorer: s sorts the labels by the count's delta (ties in the report's order)" "$(
    [[ $(line 1 "$T/uil.2") == *"by count delta"* ]] || line 1 "$T/uil.2"
    sort -s -t ' ' -k4,4gr "$T/want" | diff - <(screen_rows "$T/uil.2" 7) | head -n 6)"
report_rows --by labels -e 'drop-label tid=11' -e 'trim-base 1' -e 'drop-label comm=bash' \
    --base "$T/lb.perf" "$T/ln.perf" >"$T/want"
check "explorer: d on a compared label adds drop-label to both sides ($(wc -l <"$T/want") labels left)" "$(
    [ "$(wc -l <"$T/want")" -gt 0 ] || echo "no rows"
    screen_rows "$T/uil.3" "$(wc -l <"$T/want")" | diff "$T/want" - | head -n 6)"
"$S" report --by transforms --format tsv -e 'drop-label tid=11' -e 'trim-base 1' -e 'drop-label comm=bash' \
    --base "$T/lb.perf" "$T/ln.perf" |
    awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { printf "%s yes %s %s %s %s %.1f %.1f %s %s %s\n", $1, $c["samples_in.base"], $c["samples_in"],
              $c["samples_out.base"], $c["samples_out"], $c["kept_pct.base"], $c["kept_pct"],
              $c["levels_removed.base"], $c["levels_removed"], $c["command"] }' >"$T/want"
check "explorer: the transforms view shows each side's effect as report --base --by transforms" "$(
    [ "$(wc -l <"$T/want")" = 3 ] || echo "$(wc -l <"$T/want") steps"
    [[ $(line 2 "$T/uil.4") == *"in.b"*"in"*"out.b"*"out"*"kept%b"*"kept%"*"lv.b"*"lv"*"command"* ]] || line 2 "$T/uil.4"
    screen_rows "$T/uil.4" 3 | diff "$T/want" - | head -n 6)"

# The explorer's sources view in a comparison: the rows of report --base --by
# sources (side, source, type, samples, the measure, pct, interval, file:
# what 80 columns show), --normalize's scale on the base's measure; X swaps
# the sides, as report with the files exchanged
cp "$SRCDIR/tests/data/rprof/append_two_sessions.out" "$T/a2.out"
cat >"$T/uis.script" <<EOF
:sources
:save-display $T/uis.1
X
:save-display $T/uis.2
:q!
EOF
(cd "$T" && LC_ALL=C.UTF-8 STACKSCOPE_SCRIPT=$T/uis.script timeout 20 "$S" --normalize --base a2.out new.out \
    >"$T/uis.out" 2>"$T/uis.err" </dev/null)
rc=$?
check "explorer: the sources view of a comparison runs headless" "$([ $rc = 0 ] || echo "exit $rc: $(head -c 300 "$T/uis.err")")"
# src_rows BASE NEW: report --normalize --base BASE --by sources NEW's text rows
# in the view's column order
src_rows() {
    (cd "$T" && "$S" report --by sources --normalize --base "$1" "$2" 2>/dev/null) |
        awk '/^side / { on = 1; next } on && NF == 0 { exit } on { print $1, $2, $3, $9, $10, $11, $6, $7, $13 }'
}
check "explorer: the sources view's rows are report --base --by sources's (base, then new)" "$(
    [[ $(line 1 "$T/uis.1") == " sources: 2 base + 1 new "* ]] || line 1 "$T/uis.1"
    [[ $(line 2 "$T/uis.1") == "side source type"*"samples"*"time"*"pct"*"interval"*"file"* ]] || line 2 "$T/uis.1"
    [ "$(src_rows a2.out new.out | wc -l)" = 3 ] || echo "report: $(src_rows a2.out new.out | wc -l) rows"
    src_rows a2.out new.out | diff - <(screen_rows "$T/uis.1" 3) | head -n 6)"
check "explorer: X swaps the sources view's sides as report with the files exchanged" "$(
    [[ $(line 1 "$T/uis.2") == " sources: 1 base + 2 new "* ]] || line 1 "$T/uis.2"
    src_rows new.out a2.out | diff - <(screen_rows "$T/uis.2" 3) | head -n 6)"

# ---- 6. the explorer in a real terminal (tmux) ----------------------------------------

if have tmux; then
    SOCK=stackscope-compare-$$
    tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
    trap 'tm kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT
    # wait_for TEXT: at most 10 s until the screen shows TEXT
    wait_for() {
        local i
        for i in $(seq 1 100); do
            tm capture-pane -p -t cmp | grep -qF -- "$1" && return 0
            sleep 0.1
        done
        tm capture-pane -p -t cmp >"$T/tmux.last"
        return 1
    }
    tstep() { # NAME TEXT KEYS...
        local name=$1 text=$2
        shift 2
        [ $# -gt 0 ] && tm send-keys -t cmp "$@"
        if wait_for "$text"; then pass "tmux: $name"; else fail "tmux: $name" "no '$text': $(tr '\n' '|' <"$T/tmux.last" | head -c 400)"; fi
    }
    (cd "$T" && tm new-session -d -s cmp -x 100 -y 30 \
        "env LC_ALL=C.UTF-8 TERM=xterm '$S' --base base.out new.out 2>cmp.err; echo \$? >cmp.exit; sleep 60")
    tstep "the comparison opens on the functions view" "functions: 4 compared, by self delta"
    tstep "the status line names both sides" "new.out vs base.out | time: base 0.080 s, new 0.050 s"
    tstep "F: the flame graph's legend" "red grew (0), blue shrank (0) beyond noise" F
    tstep "X swaps the sides" "base.out vs new.out (swapped)" X
    tm send-keys -t cmp 1
    tm send-keys -t cmp Q
    for i in $(seq 1 50); do [ -s "$T/cmp.exit" ] && break; sleep 0.1; done
    check "tmux: Q quits with status 0" "$([ "$(cat "$T/cmp.exit" 2>/dev/null)" = 0 ] || echo "exit '$(cat "$T/cmp.exit" 2>/dev/null)': $(head -c 200 "$T/cmp.err")")"
    tm kill-server 2>/dev/null
else
    echo "SKIP tmux checks: no tmux"
fi

finish
