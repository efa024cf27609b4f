#!/bin/bash
# Phases (stackscope(1), PHASES): the detector against real R profiles whose
# boundaries are known by construction (tests/data/phases/: each phase
# profiled on its own, the sample lines joined; truth.tsv says where each
# phase starts), against the README's manual walk-through of the demo (the
# run of fit_bootstrap_models at level 6, found here with awk from the raw
# lines), and what report --by phases, keep-phase, drop-phase and the
# trim-burnin preset print and do.
. "$(dirname "$0")/lib.sh"
need_stackscope

D=$SRCDIR/tests/data/phases
DEMO=$SRCDIR/data/demo.out

# ---- every boundary within 1% of the samples, and no other -----------------
# starts FILE: the first sample of every phase but the first, comma-separated.
starts() {
    "$STACKSCOPE" report --by phases --format tsv "$1" 2>"$TMPD/err" |
        awk -F '\t' 'NR > 2 { printf "%s%s", s, $2; s = "," } END { print "" }'
}
while IFS=$'\t' read -r file kind iv n truth; do
    found=$(starts "$D/$file")
    why=$(awk -v t="$truth" -v f="$found" -v n="$n" 'BEGIN {
        nt = split(t, a, ","); nf = split(f, b, ",")
        if (nt != nf) { print nf + 1 " phases found, " nt + 1 " made (" f " vs " t ")"; exit }
        for (i = 1; i <= nt; i++) {
            d = a[i] - b[i]; if (d < 0) d = -d
            if (d > 0.01 * n) { print "boundary " b[i] " for " a[i] ": more than 1% of " n; exit }
        } }')
    check "phases of $file ($kind, truth $truth, found $found)" "$why"
done < <(tail -n +2 "$D/truth.tsv")

# ---- the demo: the main phase is the README's manual one --------------------
# The walk-through marks the run of fit_bootstrap_models at level 6 (root =
# 1) with v: its first and last sample, from the raw lines.
manual=$(awk 'NR > 1 && !/^#File/ {
        sub(/^:[0-9]+:[0-9]+:[0-9]+:[0-9]+:/, ""); gsub(/ [0-9]+#[0-9]+/, ""); sub(/^[0-9]+#[0-9]+ /, "")
        sub(/^"/, ""); sub(/" *$/, ""); n = split($0, f, "\" \"")
        s++; top = n >= 6 ? f[n - 5] : ""
        if (top == "fit_bootstrap_models") { if (!a) a = s; b = s } }
    END { print a, b }' "$DEMO")
set -- $manual
main=$("$STACKSCOPE" report --by phases --format tsv "$DEMO" | awk -F '\t' '
    NR > 1 && $3 - $2 > best { best = $3 - $2; a = $2; b = $3 } END { print a, b }')
why=$(echo "$main" | awk -v a="$1" -v b="$2" -v n=5522 '{
    if ($1 - a > 0.005 * n || a - $1 > 0.005 * n || $2 - b > 0.005 * n || b - $2 > 0.005 * n)
        print "main phase " $1 "-" $2 ", manual " a "-" b }')
check "demo: main phase $main = the walk-through's $1-$2 (within 0.5%)" "$why"

# ---- the table --------------------------------------------------------------
run report --by phases --format tsv "$D/sfw01.out"
why=$(echo "$OUT" | awk -F '\t' -v iv=0.005 '
    NR == 1 { if ($0 != "phase\tfirst\tlast\tsamples\ttime\tpct\ttop") { print "header: " $0; exit } next }
    { if ($1 != NR - 1) { print "phase " $1 " in row " NR; exit }
      if ($2 != last + 1) { print "phase " $1 " starts at " $2 " after " last; exit }
      if ($4 != $3 - $2 + 1) { print "phase " $1 ": " $4 " samples in " $2 "-" $3; exit }
      d = $5 - $4 * iv; if (d < 0) d = -d; if (d > 1e-9) { print "time " $5 " of " $4 " samples"; exit }
      last = $3; pct += $6 }
    END { if (last != 4370) print "last sample " last; else if (pct < 99.999999 || pct > 100.000001) print "pct sums to " pct }')
check "report --by phases tsv: header, contiguous phases, time = samples x 5 ms, pct sums to 100" "$why"
check "report --by phases tsv: the tops" \
    "$(echo "$OUT" | cut -f 7 | tr '\n' ' ' | grep -qx 'top simulate_data fit_models write_results ' || echo "$OUT" | cut -f 7 | tr '\n' ' ')"
run report --by phases "$D/sfw01.out"
why=$(echo "$OUT" | awk '/^ phase +first +last +samples +time +pct  distinguished by/ { h = 1; next }
    h && /^ +2\* +642 +4000 +3359 +16.795 +76.86  fit_models [0-9]+%/ { ok = 1 }
    END { if (!h) print "no header"; else if (!ok) print "no aligned main row" }')
check "report --by phases text: aligned, the main phase starred, its top with its share" \
    "$why${why:+: $OUT}"
# the measure names the column
run report --by phases --value samples --format tsv "$D/mix06.out"
check "report --by phases --value samples: the column is the measure" \
    "$(echo "$OUT" | head -n 1 | grep -qx "$(printf 'phase\tfirst\tlast\tsamples\tsamples\tpct\ttop')" || echo "$OUT" | head -n 1)"

# ---- --phases N, --penalty X ------------------------------------------------
run report --by phases --phases 2 --format tsv "$D/sfw01.out"
check "--phases 2: two phases, the burn-in split off" \
    "$(echo "$OUT" | awk -F '\t' 'NR > 1 { n++; s = s " " $2 } END { if (n != 2 || s != " 1 642") print n " phases:" s }')"
run report --by phases --phases 4 --format tsv "$D/mix06.out"
check "--phases 4 on two real phases: four" "$( [ "$(echo "$OUT" | wc -l)" -eq 5 ] || echo "$OUT")"
run report --by phases --phases 1 --format tsv "$D/mix06.out"
check "--phases 1: the whole profile" "$(echo "$OUT" | awk -F '\t' 'NR > 1 { r = r $2 "-" $3 " " } END { if (r != "1-3274 ") print r }')"
run report --by phases --phases 101 "$D/mix06.out"
check "--phases 101: a usage error" "$( [ "$RC" -eq 1 ] || echo "exit $RC")"
run report --by phases --phases 100 "$D/mix06.out"
check "--phases 100 on 3274 samples: at most 100 phases of 1%, said" \
    "$( [ "$RC" -eq 1 ] && [ "${ERR#*at most}" != "$ERR" ] || echo "exit $RC: $ERR")"
run report --by phases --penalty 1000 --format tsv "$D/sfw05.out"
check "--penalty 1000: one phase" "$( [ "$(echo "$OUT" | wc -l)" -eq 2 ] || echo "$OUT")"
run report --by phases --penalty 2 --phases 3 "$D/sfw05.out"
check "--penalty with --phases: a usage error" "$( [ "$RC" -eq 1 ] || echo "exit $RC")"
run report --by self --phases 3 "$D/sfw05.out"
check "--phases without --by phases: a usage error" "$( [ "$RC" -eq 1 ] && [ "${ERR#*go with --by phases}" != "$ERR" ] || echo "exit $RC: $ERR")"

# ---- sources: each on its own, and a source boundary is a phase boundary ----
run report --by phases --format tsv "$D/mix08.out" "$D/sfw03.out"
check "two files: the phases of each, the second's shifted by the first's 2741 samples" \
    "$(echo "$OUT" | awk -F '\t' 'NR > 1 { s = s $2 "," } END { if (s != "1,1912,2742,3208,5172,") print s }')"
run report --by phases --phases 3 --format tsv "$D/mix08.out" "$D/sfw03.out"
check "--phases 3 over two files: the file boundary and the best other one" \
    "$(echo "$OUT" | awk -F '\t' 'NR > 1 { s = s $2 "," } END { if (s != "1,2742,3208," && s != "1,1912,2742,") print s }')"
run report --by phases --phases 1 "$D/mix08.out" "$D/sfw03.out"
check "--phases 1 over two files: refused (a source boundary is a phase boundary)" \
    "$( [ "$RC" -eq 1 ] && [ "${ERR#*2 sources}" != "$ERR" ] || echo "exit $RC: $ERR")"

# ---- inputs without time order ------------------------------------------------
"$STACKSCOPE" convert -o "$TMPD/sfw.folded" "$D/sfw01.out" 2>/dev/null
run report --by phases "$TMPD/sfw.folded"
check "folded stacks: refused, with the reason" \
    "$( [ "$RC" -eq 1 ] && [ "${ERR#*time order}" != "$ERR" ] || echo "exit $RC: $ERR")"

finish
