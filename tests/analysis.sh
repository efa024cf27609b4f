#!/bin/sh
# Analysis cross-checks against independent answers computed from the raw
# Rprof lines (not by stackscope):
#  - distinct stacks: tests/data/*/NAME.indep/stacks.tsv (an independent R
#    tokenizer; see tests/data/README.md), every fixture;
#  - folded output: the same rows as 'root;...;leaf COUNT';
#  - levels and run lengths: tests/oracle/analysis.R, an R script that
#    computes them from the raw lines with its own tokenizer (when Rscript
#    is installed; the test command installs it).
. "$(dirname "$0")/lib.sh"
need_stackscope

for f in "$SRCDIR"/tests/data/rprof/*.out "$SRCDIR"/tests/data/edge-cases/*.out; do
    name=${f##*/}
    name=${name%.out}
    indep=${f%.out}.indep/stacks.tsv
    [ -f "$indep" ] || continue
    if ! "$STACKSCOPE" report --by stacks --format tsv "$f" >"$TMPD/ours.tsv" 2>"$TMPD/err"; then
        # The independent reader has no answer where stackscope rejects the file.
        if [ "$(wc -l <"$indep")" -le 1 ]; then
            pass "stacks $name (rejected; no independent stacks)"
        else
            fail "stacks $name" "stackscope failed: $(cat "$TMPD/err")"
        fi
        continue
    fi
    # stack, count, time rounded to 1e-9: both sides sorted the same way.
    awk -F'\t' 'NR > 1 { printf "%s\t%s\t%.9f\n", $5, $1, $2 }' "$TMPD/ours.tsv" | LC_ALL=C sort >"$TMPD/a"
    awk -F'\t' 'NR > 1 { printf "%s\t%s\t%.9f\n", $1, $2, $3 }' "$indep" | LC_ALL=C sort >"$TMPD/b"
    if cmp -s "$TMPD/a" "$TMPD/b"; then
        pass "stacks $name"
    else
        fail "stacks $name" "$(diff "$TMPD/a" "$TMPD/b" | head -n 6 | tr '\n' '|')"
    fi
    # folded: the same rows, count last
    "$STACKSCOPE" report --by stacks --format folded "$f" 2>/dev/null |
        awk '{ c = $NF; sub(/ [0-9]+$/, ""); print $0 "\t" c }' | LC_ALL=C sort >"$TMPD/fa"
    cut -f1,2 "$TMPD/b" >"$TMPD/fb"
    if cmp -s "$TMPD/fa" "$TMPD/fb"; then
        pass "folded $name"
    else
        fail "folded $name" "$(diff "$TMPD/fa" "$TMPD/fb" | head -n 4 | tr '\n' '|')"
    fi
    # levels, the measure's columns: the time at a level and the top's are
    # their samples x the interval (files with one interval)
    ivs=$("$STACKSCOPE" report --by sources --format tsv "$f" 2>/dev/null | awk -F '\t' 'NR > 1 { print $6 }' | sort -u)
    if [ -n "$ivs" ] && [ "$(printf '%s\n' "$ivs" | wc -l)" -eq 1 ]; then
        why=$("$STACKSCOPE" report --by levels --format tsv "$f" 2>/dev/null |
            awk -F '\t' -v iv="$ivs" 'NR == 1 && ($6 != "time" || $7 != "top.time") { print "header: " $0; exit 1 }
                NR > 1 { for (k = 0; k < 2; k++) { c = k ? $5 : $2; v = k ? $7 : $6; d = c * iv / 1e6 - v
                         if (d < 0) d = -d; if (d > 1e-9 * (v > 1 ? v : 1)) { print "level " $1 ": " c " samples, time " v; exit 1 } } }')
        if [ -z "$why" ]; then pass "levels time columns $name"; else fail "levels time columns $name" "$why"; fi
    fi
    # levels and runs against the independent R script
    if [ -z "${STACKSCOPE_NO_R:-}" ] && have Rscript; then
        rdir=$TMPD/r.$name
        mkdir -p "$rdir"
        if ! Rscript "$SRCDIR/tests/oracle/analysis.R" "$f" "$rdir" >"$rdir/log" 2>&1; then
            fail "levels/runs $name" "analysis.R failed: $(tail -n 3 "$rdir/log" | tr '\n' '|')"
            continue
        fi
        for by in levels runs; do
            # levels: the R script's columns (the measure's two follow, below)
            "$STACKSCOPE" report --by $by --format tsv "$f" 2>/dev/null |
                if [ $by = levels ]; then cut -f 1-5; else cut -f 1-7; fi | LC_ALL=C sort >"$TMPD/ours.$by"
            LC_ALL=C sort "$rdir/$by.tsv" >"$TMPD/theirs.$by"
            if cmp -s "$TMPD/ours.$by" "$TMPD/theirs.$by"; then
                pass "$by $name"
            else
                fail "$by $name" "$(diff "$TMPD/ours.$by" "$TMPD/theirs.$by" | head -n 6 | tr '\n' '|')"
            fi
        done
    fi
done
have Rscript || echo "SKIP levels/runs cross-check: Rscript not installed"

# Function identity (one name, several function ids): RProtoBuf's pprof of
# memory_line.out gives `rnorm` two function ids (with and without a file).
# The functions table has one row for it, with the Rprof original's 433
# samples of 1 ms.  (A pprof file holds aggregated samples, not the time
# order: --by runs refuses it, as it refuses folded stacks.)
pb=$SRCDIR/tests/data/pprof/rprotobuf/memory_line.pb.gz
orig=$SRCDIR/tests/data/rprof/memory_line.out
"$STACKSCOPE" report --value time --format tsv "$pb" 2>/dev/null |
    awk -F"\t" 'NR > 1 && $1 == "rnorm" { printf "%s %.6f\n", $1, $2 }' >"$TMPD/id.pb"
"$STACKSCOPE" report --format tsv "$orig" 2>/dev/null |
    awk -F"\t" 'NR > 1 && $1 == "rnorm" { printf "%s %.6f\n", $1, $2 }' >"$TMPD/id.orig"
if [ -s "$TMPD/id.pb" ] && cmp -s "$TMPD/id.pb" "$TMPD/id.orig" && grep -qx 'rnorm 0.433000' "$TMPD/id.pb"; then
    pass "function identity: one rnorm row with the Rprof original's self time"
else
    fail "function identity: one rnorm row" "$(paste "$TMPD/id.pb" "$TMPD/id.orig" | tr '\n' '|')"
fi
if "$STACKSCOPE" report --by runs "$pb" >/dev/null 2>"$TMPD/id.err" ||
    ! grep -q 'has none (a pprof profile holds one sample per distinct stack)' "$TMPD/id.err"; then
    fail "pprof: --by runs refused (no time order)" "$(cat "$TMPD/id.err")"
else
    pass "pprof: --by runs refused (no time order)"
fi
# ... and its stacks are rows of names: two function ids of one name never
# make two rows with the same stack (23 such rows before), and the counts
# add up to the Rprof original's samples with frames.
dups=$("$STACKSCOPE" report --by stacks --format tsv "$pb" 2>/dev/null | cut -f5 | LC_ALL=C sort | uniq -d | wc -l)
sum_pb=$("$STACKSCOPE" report --by stacks --format tsv "$pb" 2>/dev/null | awk -F'\t' 'NR > 1 { s += $1 } END { print s }')
sum_orig=$("$STACKSCOPE" report --by stacks --format tsv "$orig" 2>/dev/null | awk -F'\t' 'NR > 1 { s += $1 } END { print s }')
if [ "$dups" -eq 0 ] && [ "$sum_pb" = "$sum_orig" ] && [ "$sum_pb" = 6012 ]; then
    pass "function identity: one stacks row per name sequence"
else
    fail "function identity: stacks rows" "$dups duplicate rows; counts $sum_pb vs $sum_orig"
fi
finish
