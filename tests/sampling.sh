#!/bin/bash
# SamplingProf (stackscope(1), SamplingProf): the Ruby gem's output read,
# reported, refused where stacks are needed, written and read back.
#  - Two real files of the gem (tests/data/sampling_prof/): per-function and
#    per-line self/total checked against an awk reading of the file here
#    (self: sum of the elements' self counts; total: sum of their totals,
#    capped at the file's samples; time = count x runtime / samples) and
#    against numbers computed by hand for gem_test_profile.txt.
#  - Reports that need stacks refuse an aggregate-only input (exit 1) and
#    leave it out, with a note, when stack profiles come with it.
#  - Round trip SamplingProf -> stackscope -> SamplingProf: the same
#    elements, counts and edges (compared by element string, sorted).
#  - The writer on every Rprof fixture, against what the gem would count
#    computed by awk from the independent parser's stacks
#    (NAME.indep/stacks.tsv or stacks_lines.tsv).
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

T=$TMPD
D=$SRCDIR/tests/data/sampling_prof
GEM=$D/gem_test_profile.txt
MRI=$D/ruby_workload.txt
export LC_ALL=C

# The awk functions shared by the readings below: split a call element
# "FILE:LINE:METHOD" at its first ":DIGITS:" and name it as the independent
# parser does: "METHOD" without a position, else "METHOD@basename#LINE".
AWK_ELEM='
function split_elem(s, parts) {
    if (!match(s, /:[0-9]+:/)) return 0
    parts["file"] = substr(s, 1, RSTART - 1)
    parts["line"] = substr(s, RSTART + 1, RLENGTH - 2) + 0
    parts["method"] = substr(s, RSTART + RLENGTH)
    return 1
}
function base(p,   b) { b = p; sub(/\/+$/, "", b); sub(/.*\//, "", b); return b }
function elem_name(s,   parts) {
    if (!split_elem(s, parts)) return "?" s
    if (parts["file"] == "" && parts["line"] == 0) return parts["method"]
    return parts["method"] "@" base(parts["file"]) "#" parts["line"]
}
# Read a SamplingProf file into runtime, el[id] (element string), self[id],
# total[id], and edges e_from[k], e_to[k], e_n[k] (k = 1..ne).
function read_sp(file,    line, chunk, c, id, a) {
    chunk = 1; ne = 0; nel = 0
    while ((getline line < file) > 0) {
        sub(/\r$/, "", line)
        if (line == "") { chunk++; continue }
        if (chunk == 1) runtime = line + 0
        else if (chunk == 2) {
            c = line; sub(/,[0-9]+$/, "", c)
            id = substr(line, length(c) + 2)
            el[id] = c; ids[++nel] = id
        } else if (chunk == 3) {
            split(line, a, ","); self[a[1]] = a[2]; total[a[1]] = a[3]
        } else if (chunk == 4) {
            split(line, a, ","); ne++; e_from[ne] = a[1]; e_to[ne] = a[2]; e_n[ne] = a[3]
        }
    }
    close(file)
}'

# sp_norm FILE: the file as sorted lines "R runtime", "E element self total",
# "G from -> to count" (elements by their string, "ROOT" for -1).
sp_norm() {
    awk "$AWK_ELEM"'
    BEGIN {
        read_sp(ARGV[1])
        printf "R %.12g\n", runtime
        for (k = 1; k <= nel; k++) print "E " el[ids[k]] " " self[ids[k]] " " total[ids[k]]
        for (k = 1; k <= ne; k++)
            print "G " (e_from[k] == -1 ? "ROOT" : el[e_from[k]]) " -> " el[e_to[k]] " " e_n[k]
        exit
    }' "$1" | sort
}

# sp_expected_stats FILE BY: what `report --by self|line --format tsv` must
# print for a SamplingProf file, computed from the file: rows "key self.time
# self.pct total.time total.pct" (key: METHOD, or basename#LINE by line).
sp_expected_stats() {
    awk -v by="$2" "$AWK_ELEM"'
    BEGIN {
        read_sp(ARGV[1])
        n = 0
        for (k = 1; k <= nel; k++) n += self[ids[k]]
        iv = runtime / n / 1000
        for (k = 1; k <= nel; k++) {
            id = ids[k]
            split_elem(el[id], p)
            key = by == "line" ? base(p["file"]) "#" p["line"] : p["method"]
            s[key] += self[id]; t[key] += total[id]
        }
        for (key in t) {
            tt = t[key] > n ? n : t[key]
            if (tt == 0) continue
            printf "%s\t%.17g\t%.17g\t%.17g\t%.17g\n", key, s[key] * iv, 100 * s[key] / n,
                   tt * iv, 100 * tt / n
        }
        exit
    }' "$1" | sort
}

# same_rows A B: why the TSV rows of files A and B differ (any order; names
# equal, numbers within 1e-9 relative), or nothing.
same_rows() {
    awk -F '\t' '
        function close_enough(a, b) { d = a - b; if (d < 0) d = -d; m = a < 0 ? -a : a;
                                      return d <= 1e-9 * (m > 1 ? m : 1) }
        NR == FNR { want[$1] = $0; next }
        { seen++
          if (!($1 in want)) { print "unexpected row " $1; bad = 1; exit }
          n = split(want[$1], w, "\t")
          if (n != NF) { print "row " $1 ": " NF " columns, expected " n; bad = 1; exit }
          for (i = 2; i <= NF; i++)
              if (!close_enough($i + 0, w[i] + 0)) {
                  print "row " $1 " column " i ": " $i ", expected " w[i]; bad = 1; exit }
          delete want[$1] }
        END { if (!bad) for (k in want) { print "missing row " k; exit } }' "$1" "$2"
}

# ---- loading and statistics -------------------------------------------------

for f in "$GEM" "$MRI"; do
    name=$(basename "$f" .txt)
    for by in self line; do
        run report --by "$by" --format tsv "$f"
        if [ "$RC" -ne 0 ]; then
            fail "$name: --by $by" "exit $RC: $ERR"
            continue
        fi
        printf '%s\n' "$OUT" | sed 1d >"$T/got"
        sp_expected_stats "$f" "$by" >"$T/want"
        check "$name: --by $by equals the awk reading of the file" "$(same_rows "$T/want" "$T/got")"
    done
    run check "$f"
    want_el=$(awk 'BEGIN{RS=""} NR==2{print split($0, a, "\n")}' "$f")
    want_ed=$(awk 'BEGIN{RS=""} NR==4{print split($0, a, "\n")}' "$f")
    want_rt=$(head -n 1 "$f")
    check "$name: check summary" "$(
        [ "$RC" -eq 0 ] || echo "exit $RC"
        [[ $OUT != *warning* ]] || echo "warns: $OUT"
        [[ $OUT == *"$want_el call elements, $want_ed call-graph edges"* ]] || echo "no counts in: $OUT"
        [[ $OUT == *"runtime $want_rt ms"* ]] || echo "no runtime in: $OUT"
    )"
done

# The gem's numbers agree with each other in both files: the root edges, the
# self counts and the total of every element called from the root all count
# the samples (so the interval runtime / samples is the time of one sample).
for f in "$GEM" "$MRI"; do
    check "$(basename "$f" .txt): root edges = self counts = root totals" "$(
        awk "$AWK_ELEM"'BEGIN { read_sp(ARGV[1]); for (k = 1; k <= nel; k++) s += self[ids[k]]
            for (k = 1; k <= ne; k++) if (e_from[k] == -1) { r += e_n[k]; t += total[e_to[k]] }
            if (s != r || r != t) print "self " s ", root edges " r ", root totals " t; exit }' "$f")"
done

# Hand-computed, gem_test_profile.txt: 15 samples (the self counts 6+3+3+1+2;
# the root edge -1,0,15 agrees) over 1567 ms, so 104.4666... ms each.  fib is
# elements 15 (line 73: self 6, total 15), 16 (line 68: 3, 4) and 17 (line 69:
# 3, 3): self 12 = 1.2536 s; total 22 capped at 15 = 1.567 s.  '-' (element
# 18) 2/2, '==' (19) 1/1; (root) (element 0) 0/15.
run report --by self --format tsv "$GEM"
printf '%s\n' "$OUT" | sed 1d >"$T/got"
printf '%s\t%s\t%s\t%s\t%s\n' \
    fib 1.2536 80 1.567 100 \
    - 0.20893333333333333 13.333333333333333 0.20893333333333333 13.333333333333333 \
    == 0.10446666666666667 6.6666666666666667 0.10446666666666667 6.6666666666666667 \
    '(root)' 0 0 1.567 100 >"$T/want"
check "gem_test_profile: hand-computed rows" "$(
    awk -F '\t' 'NR == FNR { want[$1] = $0; next } ($1 in want) { print; n++ }
                 END { if (n != 4) print "only " n " of the 4 rows" }' "$T/want" "$T/got" >"$T/got4"
    same_rows "$T/want" "$T/got4")"
check "gem_test_profile: 13 functions" "$([ "$(wc -l <"$T/got")" -eq 13 ] || echo "$(wc -l <"$T/got") rows")"

# Callers and callees from the call graph, by hand: fib's callers are
# test_profile_and_output_text_result (14 -> 15: 15) and fib itself
# (15 -> 15: 15, 15 -> 16: 4, 15 -> 17: 3; 22 capped at 15); its callees fib
# (15), '-' (15 -> 18: 2) and '==' (16 -> 19: 1).
run report --by calls --function fib --format tsv "$GEM"
got=$(printf '%s\n' "$OUT" | awk -F '\t' 'NR > 1 { print $1 " " $2 " " $3 }' | sort)
want=$(printf '%s\n' "caller fib 15" "caller test_profile_and_output_text_result 15" \
    "self fib 12" "total fib 15" "callee fib 15" "callee - 2" "callee == 1" | sort)
check "gem_test_profile: calls of fib from the edges" "$([ "$got" = "$want" ] || echo "got: $got")"

# ---- tables that need stacks ----------------------------------------------------

for by in stacks levels runs tree timeline; do
    run report --by "$by" "$MRI"
    check "ruby_workload: --by $by refused (no stacks)" "$(
        [ "$RC" -eq 1 ] || echo "exit $RC, expected 1"
        [[ $ERR == *"needs raw stacks"*"$MRI"* ]] || echo "stderr: $ERR"
        [ -z "$OUT" ] || echo "printed: $(echo "$OUT" | head -n 1)"
    )"
done

# Mixed with an Rprof profile: the stack tables use the Rprof part and say so;
# the statistics add both (gc.out: 803 samples).
RP=$SRCDIR/tests/data/rprof/gc.out
run report --by tree --format tsv "$RP"
tree_alone=$OUT
run report --by tree --format tsv "$MRI" "$RP"
check "mixed: --by tree leaves the SamplingProf file out, with a note" "$(
    [ "$RC" -eq 0 ] || echo "exit $RC: $ERR"
    [[ $ERR == *note*"$MRI"*"left out"* ]] || echo "stderr: $ERR"
    [ "$OUT" = "$tree_alone" ] || echo "tree differs from the Rprof file's own"
)"
run report --by sources --format tsv "$MRI" "$RP"
check "mixed: --by sources lists both" "$(
    printf '%s\n' "$OUT" | awk -F '\t' 'NR == 2 && !($2 == "sampling_prof" && $7 == "aggregate" && $8 == 23) { print "row 1: " $0 }
                                        NR == 3 && !($2 == "rprof" && $8 == 803) { print "row 2: " $0 }')"
run report --by self --format tsv "$MRI" "$RP"
check "mixed: percentages of all 826 samples" "$(
    printf '%s\n' "$OUT" | awk -F '\t' '$1 == "<main>" { found = 1
        want = 100 * 23 * (2513.868215 / 23 / 1000) / (2.513868215 + 803 * 0.005)
        d = $5 - want; if (d < 0) d = -d; if (d > 1e-9) print "<main> total.pct " $5 ", expected " want }
        END { if (!found) print "no <main> row" }')"

# ---- round trip -------------------------------------------------------------------

for f in "$GEM" "$MRI"; do
    name=$(basename "$f" .txt)
    out=$T/$name.sprof.txt
    run convert -o "$out" "$f"
    if [ "$RC" -ne 0 ]; then
        fail "$name: round trip" "exit $RC: $ERR"
        continue
    fi
    sp_norm "$f" >"$T/a"
    sp_norm "$out" >"$T/b"
    check "$name: round trip keeps elements, counts, edges and runtime" \
        "$(diff "$T/a" "$T/b" | head -n 5)"
done

# Other formats need stacks: convert refuses, writes nothing.
for o in x.pb.gz x.out x.folded; do
    run convert -o "$T/$o" "$MRI"
    check "convert to $o refuses aggregates" "$(
        [ "$RC" -eq 1 ] || echo "exit $RC, expected 1"
        [[ $ERR == *"$MRI"*"not stacks"* ]] || echo "stderr: $ERR"
        [ ! -e "$T/$o" ] || echo "wrote $T/$o"
    )"
done

# ---- the writer on Rprof profiles -------------------------------------------------

# expected_from_stacks STACKS.tsv: what the gem would count, from the
# independent parser's stacks (root first, ';'-joined, count, time): per
# sample self for the leaf, total once per distinct frame, one count per
# distinct (caller, callee) pair from ROOT; runtime = the summed time in ms.
expected_from_stacks() {
    awk -F '\t' '
    NR == 1 { next }
    { n = split($1, fr, ";"); k = 0
      for (i = 1; i <= n; i++) if (fr[i] != "" && fr[i] !~ /^<top-level>@/) f[++k] = fr[i]
      if (k == 0) next
      c = $2; rt += $3 * 1000
      self[f[k]] += c
      delete seen; delete pair
      prev = "ROOT"
      for (i = 1; i <= k; i++) {
          if (!(f[i] in seen)) { seen[f[i]] = 1; total[f[i]] += c }
          p = prev " -> " f[i]
          if (!(p in pair)) { pair[p] = 1; edge[p] += c }
          prev = f[i]
      } }
    END {
      printf "R %.9g\n", rt
      for (e in total) print "E " e " " (self[e] + 0) " " total[e]
      for (p in edge) print "G " p " " edge[p]
    }' "$1" | sort
}

# sp_named FILE: sp_norm with elements named as the independent parser does
# and the runtime rounded to 9 digits (the sums are of different addends).
sp_named() {
    awk "$AWK_ELEM"'
    BEGIN {
        read_sp(ARGV[1])
        printf "R %.9g\n", runtime
        for (k = 1; k <= nel; k++) print "E " elem_name(el[ids[k]]) " " self[ids[k]] " " total[ids[k]]
        for (k = 1; k <= ne; k++)
            print "G " (e_from[k] == -1 ? "ROOT" : elem_name(el[e_from[k]])) " -> " elem_name(el[e_to[k]]) " " e_n[k]
        exit
    }' "$1" | sort
}

n_fixtures=0
for f in "$SRCDIR"/tests/data/rprof/*.out; do
    name=$(basename "$f" .out)
    indep=${f%.out}.indep
    stacks=$indep/stacks.tsv
    [ -f "$indep/stacks_lines.tsv" ] && stacks=$indep/stacks_lines.tsv
    # names with ';' make the ';'-joined stacks ambiguous
    if awk -F '\t' 'NR > 1 && index($1, ";") { bad = 1 } END { exit !bad }' "$indep/functions.tsv"; then
        continue
    fi
    out=$T/$name.sprof.txt
    run convert --to sampling_prof -o "$out" "$f"
    if [ "$RC" -ne 0 ]; then
        fail "$name: convert to sampling_prof" "exit $RC: $ERR"
        continue
    fi
    n_fixtures=$((n_fixtures + 1))
    expected_from_stacks "$stacks" >"$T/want"
    sp_named "$out" >"$T/got"
    check "$name: written counts and edges equal the gem's semantics on the stacks" \
        "$(diff "$T/want" "$T/got" | head -n 5)"
    # and it reads back: the same functions, self for self
    run report --by self --format tsv "$out"
    check "$name: the written file loads" "$([ "$RC" -eq 0 ] || echo "exit $RC: $ERR")"
done
check "writer checked on Rprof fixtures" "$([ "$n_fixtures" -ge 10 ] || echo "only $n_fixtures")"

# Self and total of every function, without stacks: functions.tsv of the
# independent parser (labels with ';' included) against a plain (no line
# profiling) file written and read back.
for name in quirky_names gc append_two_sessions; do
    f=$SRCDIR/tests/data/rprof/$name.out
    run convert --to sampling_prof -o "$T/$name.fn.sprof.txt" "$f"
    awk "$AWK_ELEM"'
    BEGIN { read_sp(ARGV[1]); for (k = 1; k <= nel; k++) if (total[ids[k]] > 0)
                printf "%s\t%s\t%s\n", elem_name(el[ids[k]]), self[ids[k]], total[ids[k]]; exit }' \
        "$T/$name.fn.sprof.txt" | sort >"$T/got"
    awk -F '\t' 'NR > 1 && $3 > 0 { print $1 "\t" $2 "\t" $3 }' \
        "$SRCDIR/tests/data/rprof/$name.indep/functions.tsv" | sort >"$T/want"
    check "$name: written self/total per function equal the independent parser's" \
        "$(diff "$T/want" "$T/got" | head -n 5)"
done

# A profile without samples: runtime 0, four empty chunks, and it loads back.
run convert --to sampling_prof -o "$T/empty.sprof.txt" "$SRCDIR/tests/data/rprof/header_only.out"
check "header_only: an empty SamplingProf file" "$(
    [ "$RC" -eq 0 ] || echo "exit $RC: $ERR"
    [ "$(cat "$T/empty.sprof.txt")" = "0" ] && [ "$(wc -l <"$T/empty.sprof.txt")" -eq 4 ] ||
        echo "wrote: $(od -c "$T/empty.sprof.txt" | head -n 2)"
    "$STACKSCOPE" check "$T/empty.sprof.txt" >/dev/null 2>&1 || echo "does not load back"
)"

# A mixed model writes both: 803 + 23 samples, the root edges agree.
run convert -o "$T/mixed.sprof.txt" "$RP" "$MRI"
check "mixed: written samples add up" "$(
    [ "$RC" -eq 0 ] || echo "exit $RC: $ERR"
    awk "$AWK_ELEM"'BEGIN { read_sp(ARGV[1]); for (k = 1; k <= nel; k++) s += self[ids[k]]
        for (k = 1; k <= ne; k++) if (e_from[k] == -1) r += e_n[k]
        if (s != 826 || r != 826) print "self " s ", root edges " r ", expected 826"
        want = 803 * 5 + 2513.868215; d = runtime - want; if (d < 0) d = -d
        if (d > 1e-6) print "runtime " runtime ", expected " want; exit }' "$T/mixed.sprof.txt"
)"

finish
