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
# ---- --sort with --by tree and calls ------------------------------------------------
# A fixture of ten samples (0.02 s each) whose orders are known by hand.
# main's children: a (total 4, self 1), b (total 3, self 1), d (total 3,
# self 3); under a: e (2, 2), b (1, 1); under b: c (2, 2).
S=$STACKSCOPE
printf '%s\n' 'sample.interval=20000' '"c" "b" "main" ' '"c" "b" "main" ' '"b" "main" ' \
    '"d" "main" ' '"d" "main" ' '"d" "main" ' '"a" "main" ' '"e" "a" "main" ' \
    '"e" "a" "main" ' '"b" "a" "main" ' >"$TMPD/sort.out"
tree_rows() { "$S" report --by tree "$@" --format tsv "$TMPD/sort.out" 2>&1 | awk -F '\t' 'NR > 1 { printf "%s%s ", $1, $2 }'; }
# (default: by total, ties by name: b before d; --sort total: ties by self)
check "--by tree: children by total, ties by name (the default)" \
    "$(got=$(tree_rows); [ "$got" = "0main 1a 2e 2b 1b 2c 1d " ] || echo "$got")"
check "--by tree --sort total: ties by self (d 3 before b 1)" \
    "$(got=$(tree_rows --sort total); [ "$got" = "0main 1a 2e 2b 1d 1b 2c " ] || echo "$got")"
check "--by tree --sort self: d, then a and b (self 1) by total" \
    "$(got=$(tree_rows --sort self); [ "$got" = "0main 1d 1a 2e 2b 1b 2c " ] || echo "$got")"
check "--by tree --sort position: by name" \
    "$(got=$(tree_rows --sort position); [ "$got" = "0main 1a 2b 2e 1b 2c 1d " ] || echo "$got")"
# inverted: the roots are the leaves, every self 0: by total (d 3; b, c, e
# 2 by name; a 1); under b: main (self 1) before a (self 0)
check "--by tree --inverted --sort self: ties by total, then name" \
    "$(got=$(tree_rows --inverted --sort self); [ "$got" = "0d 1main 0b 1main 1a 2main 0c 1b 2main 0e 1a 2main 0a 1main " ] || echo "$got")"
"$S" report --by tree --sort position "$TMPD/sort.out" | awk '/ name$/ { on = 1; next } on { print $3 }' |
    tr '\n' ' ' >"$TMPD/sort.text"
check "--by tree --sort position: text in the same order" \
    "$(grep -qx 'main a b e b c d ' "$TMPD/sort.text" || cat "$TMPD/sort.text")"
# calls of b: callers main (3 samples), a (1); callee c (2)
calls_rows() { "$S" report --by calls --function b "$@" --format tsv "$TMPD/sort.out" 2>&1 | awk -F '\t' 'NR > 1 { printf "%s:%s ", $1, $2 }'; }
check "--by calls --sort total: callers by time" \
    "$(got=$(calls_rows --sort total); [ "$got" = "caller:main caller:a self:b total:b callee:c " ] || echo "$got")"
check "--by calls --sort position: callers by name" \
    "$(got=$(calls_rows --sort position); [ "$got" = "caller:a caller:main self:b total:b callee:c " ] || echo "$got")"
check "--by calls --sort self: a usage error (a call has one measure)" \
    "$("$S" report --by calls --function b --sort self "$TMPD/sort.out" >/dev/null 2>"$TMPD/sort.err"; rc=$?
       [ $rc = 1 ] && grep -q 'a call has one measure' "$TMPD/sort.err" || echo "rc $rc")"
# a comparison: under main, b (self +1, total +1), c (self 0, total +3),
# a (self -1, total +2); q under c and a
printf '%s\n' 'sample.interval=20000' '"b" "main" ' '"c" "main" ' '"a" "main" ' '"a" "main" ' >"$TMPD/sort.base"
{
    printf '%s\n' 'sample.interval=20000' '"b" "main" ' '"b" "main" ' '"c" "main" ' '"a" "main" '
    for i in 1 2 3; do printf '%s\n' '"q" "c" "main" ' '"q" "a" "main" '; done
} >"$TMPD/sort.new"
cmp_rows() { "$S" report --base "$TMPD/sort.base" "$@" --format tsv "$TMPD/sort.new" 2>&1 | awk -F '\t' 'NR > 1 { printf "%s%s ", $1, $2 }'; }
check "--by tree --base: children by total delta (the default)" \
    "$(got=$(cmp_rows --by tree); [ "$got" = "0main 1c 2q 1a 2q 1b " ] || echo "$got")"
check "--by tree --base --sort self: by self delta, ties by total delta" \
    "$(got=$(cmp_rows --by tree --sort self); [ "$got" = "0main 1b 1c 2q 1a 2q " ] || echo "$got")"
check "--by tree --base --sort position: by name" \
    "$(got=$(cmp_rows --by tree --sort position); [ "$got" = "0main 1a 2q 1b 1c 2q " ] || echo "$got")"
# main's callees: b +1, c +3, a +2
check "--by calls --base: callees by delta (the default)" \
    "$(got=$(cmp_rows --by calls --function main); [ "$got" = "selfmain totalmain calleec calleea calleeb " ] || echo "$got")"
check "--by calls --base --sort position: callees by name" \
    "$(got=$(cmp_rows --by calls --function main --sort position); [ "$got" = "selfmain totalmain calleea calleeb calleec " ] || echo "$got")"
# ---- --limit with --by tree and calls ------------------------------------------------
# The N heaviest nodes by total, a node no heavier than its parent, ties to
# the shallower, then the earlier row: limit 4 keeps main 10, a 4, then b 3
# and d 3 (b first in the default order, d in --sort self's); limit 5 adds
# e 2 (before c 2).  In a comparison by the larger side's total: main 10,
# c 4, a 4, then c's q 3 (before a's q 3).
check "--by tree --limit 4: the four heaviest nodes, in the tree's order" \
    "$(got=$(tree_rows --limit 4); [ "$got" = "0main 1a 1b 1d " ] || echo "$got")"
check "--by tree --limit 5: ties of total to the earlier row" \
    "$(got=$(tree_rows --limit 5); [ "$got" = "0main 1a 2e 1b 1d " ] || echo "$got")"
check "--by tree --sort self --limit 4: kept by total, printed in self's order" \
    "$(got=$(tree_rows --sort self --limit 4); [ "$got" = "0main 1d 1a 1b " ] || echo "$got")"
"$S" report --by tree --limit 4 "$TMPD/sort.out" >"$TMPD/limit.text" 2>&1
check "--by tree --limit 4: text says how many nodes were left out" \
    "$(grep -qx '\.\.\. 3 more nodes (--limit 0 shows all)' "$TMPD/limit.text" || cat "$TMPD/limit.text")"
check "--by tree --base --limit 4: by the larger side's total" \
    "$(got=$(cmp_rows --by tree --limit 4); [ "$got" = "0main 1c 2q 1a " ] || echo "$got")"
check "--by calls --limit 1: the heaviest caller and callee" \
    "$(got=$(calls_rows --limit 1); [ "$got" = "caller:main self:b total:b callee:c " ] || echo "$got")"
"$S" report --by calls --function b --limit 1 "$TMPD/sort.out" >"$TMPD/limit.text" 2>&1
check "--by calls --limit 1: text says how many were left out" \
    "$(grep -qx '\.\.\. 1 more caller and 0 more callees (--limit 0 shows all)' "$TMPD/limit.text" || cat "$TMPD/limit.text")"
check "--by calls --base --limit 2: the two largest growths" \
    "$(got=$(cmp_rows --by calls --function main --limit 2); [ "$got" = "selfmain totalmain calleec calleea " ] || echo "$got")"
# every table takes --limit, in TSV too: a header and one row
for by in levels runs phases timeline sources; do
    n=$("$S" report --by "$by" --limit 1 --format tsv "$SRCDIR/data/demo.out" 2>&1 | wc -l)
    check "--by $by --limit 1 --format tsv: one row" "$([ "$n" = 2 ] || echo "$n lines")"
done
for t in levels:'rows in level order' timeline:'rows in time order' phases:'rows in time order' \
    runs:'a run has no self and total'; do
    "$S" report --by "${t%%:*}" --sort total "$TMPD/sort.out" >/dev/null 2>"$TMPD/sort.err"
    rc=$?
    check "--by ${t%%:*} --sort: a usage error that says why" \
        "$([ $rc = 1 ] && grep -q "(${t%%:*}: ${t#*:})" "$TMPD/sort.err" || echo "rc $rc: $(cat "$TMPD/sort.err")")"
done
finish
