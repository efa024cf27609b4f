#!/bin/bash
# Source files (stackscope(1), SOURCE FILES): report --by list, finding files,
# keep-line, --sort and --limit, carried sources.  Independent answers:
#
#  1. The line-profiled R profiles of tests/data/rprof (R 4.2.2's Rprof,
#     their #File paths those of the machine that made them, found here with
#     --source-path or --source-map): every line with samples is listed with
#     its text, the text equals the file's line (read by awk), its self and total
#     equal `report --by line` (itself equal to R's summaryRprof(lines =
#     "show"): tests/oracle.sh).
#  2. Memory per line equals profvis's (Debian's r-cran-profvis, run once per
#     file): its parse_rprof's rows and the per-line sums of its code pane
#     (profvis.js: getFileLineStats), a sample's rise of vector memory as
#     allocated and its fall as released.  profvis adds a sample once per
#     frame at a line; stackscope once per line, so lines recursion repeats
#     in a stack are compared with profvis's rows counted once per sample,
#     the others with profvis's own figure.
#  3. keep-line FILE#LINE keeps the samples whose Rprof line holds that
#     position token (awk on the file).
#  4. Hand-made trees: the longest tail under --source-path wins over a
#     basename decoy; --source-map rewrites at a '/' boundary only; a file
#     found nowhere names the paths tried and the options.
#  5. convert --embed-sources: the tables carry the files; read elsewhere,
#     report --by list still shows the text.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope
LC_ALL=C
export LC_ALL

S=$STACKSCOPE
T=$TMPD
D=$SRCDIR/tests/data/rprof
SRC=$D/src

# ---- 1. every line with samples, with its text and report --by line's numbers --------

# lines_check FILE OPTS...: list TSV against --by line TSV and the files.
lines_check() {
    local f=$1
    shift
    "$S" report --by line --format tsv "$f" >"$T/line.tsv" 2>/dev/null
    "$S" report --by list --format tsv "$@" "$f" >"$T/list.tsv" 2>"$T/list.err"
    awk -F '\t' -v src="$SRC" '
        function base(p, n, a) { n = split(p, a, "/"); return a[n] }
        NR == FNR { if (FNR > 1 && $1 ~ /#[0-9]+$/ && $1 !~ /^NA#/) want[$1] = $2 "\t" $4; next }
        FNR == 1 { next }
        {
            key = base($1) "#" $2
            if ($3 != 0 || $4 != 0) {
                if (!(key in want)) { print "not a line of --by line: " key; bad = 1; exit }
                if (want[key] != $3 "\t" $4) { print key ": list " $3 "/" $4 ", line " want[key]; bad = 1; exit }
                got[key] = 1
            }
            if ($1 == "") next   # an unnamed file has no text
            file = src "/" base($1)
            if (!(file in read)) {   # each file read once, not a sed per line
                read[file] = 1; n = 0
                while ((getline l < file) > 0) src_line[file, ++n] = l
                close(file)
            }
            text = src_line[file, $2 + 0]
            sub(/\r$/, "", text)
            if (text != $5 && !(text ~ /\\/ || text ~ /\t/)) { print key ": text \"" $5 "\" is not \"" text "\""; bad = 1; exit }
        }
        END {
            if (bad) exit 1
            for (k in want) if (!(k in got) && k !~ /^#/) { print "missing " k; exit 1 }
        }' "$T/line.tsv" "$T/list.tsv"
}

for name in line memory_line mem_gc_line quirky_names_line rlang_line rlang_profvis \
    rlang_profvis_nosimplify interactive_repl truncated_tail crlf_windows; do
    f=$D/$name.out
    why=$(lines_check "$f" --source-path "$SRC")
    check "list: $name (--source-path): every line with samples, its text, --by line's numbers" "$why"
done
why=$(lines_check "$D/memory_line.out" --source-map /home/analyst/rwork="$SRC")
check "list: --source-map /home/analyst/rwork=DIR finds the files" "$why"
# the two reads agree byte for byte
"$S" report --by list --format tsv --source-path "$SRC" "$D/line.out" >"$T/a.tsv" 2>/dev/null
"$S" report --by list --format tsv --source-map /home/analyst/rwork/="$SRC/" "$D/line.out" >"$T/b.tsv" 2>/dev/null
check "list: --source-path and --source-map give the same table" "$(cmp "$T/a.tsv" "$T/b.tsv" 2>&1)"

# text: the lines around a hit are the file's (pprof's margin of five)
"$S" report --by list --limit 1 --source-path "$SRC" "$D/line.out" >"$T/l1.txt"
top=$("$S" report --by line --sort self --limit 1 --format tsv "$D/line.out" | awk -F '\t' 'NR == 2 { sub(/.*#/, "", $1); print $1 }')
why=$(awk -v top="$top" '/^ *[.0-9]+ +[.0-9]+ +[0-9]+  /{ n++; if (n == 1) first = $3; last = $3 }
    END { if (first != top - 5 || last != top + 5 || n != 11) print "lines " first "-" last " (" n "), want " top - 5 "-" top + 5 }' "$T/l1.txt")
check "list --limit 1: the hottest line ($top) and five lines on each side" "$why"

# --function: the lines of gc_churn_theta (137-141 in oracle_workload.R) and
# five around; not 192, where Rprof puts its frame as it is entered
"$S" report --by list --function '^gc_churn' --source-path "$SRC" "$D/line.out" >"$T/fn.txt"
why=$(awk '/^ *[.0-9]+ +[.0-9]+ +[0-9]+  /{ n++; if (n == 1) first = $3; last = $3 }
    END { if (first != 132 || last != 146) print "lines " first "-" last ", want 132-146" }' "$T/fn.txt")
check "list --function: the function's lines and five around" "$why"
"$S" report --by list --function nosuchfn "$D/line.out" >/dev/null 2>"$T/err"
rc=$?
check "list --function: no match is a usage error" "$([ $rc = 1 ] && grep -q 'no function matches /nosuchfn/' "$T/err" || echo "rc $rc: $(cat "$T/err")")"

# ---- 2. memory per line equals profvis's ---------------------------------------------

if have Rscript && Rscript -e 'quit(status = !requireNamespace("profvis", quietly = TRUE))' >/dev/null 2>&1; then
    # profvis reads only the files it finds: the copies name the workloads here
    for name in memory_line mem_gc_line rlang_profvis; do
        sed -e "s|^#File \([0-9]*\): .*/\([^/]*\)\$|#File \1: $SRC/\2|" \
            -e "s|^#File \([0-9]*\): \([^/]*\)\$|#File \1: $SRC/\2|" "$D/$name.out" >"$T/$name.out"
    done
    cat >"$T/pv.R" <<'REOF'
# profvis's code pane per line: parse_rprof gives one row per frame with its
# file, line and the sample's memalloc (MB of 8 x (small_v + big_v)), and
# meminc (the change since the previous row) on each sample's first row;
# profvis.js sums max(meminc, 0) (allocated) and min(meminc, 0) (released)
# over the rows of a line, once per row (frame).  Printed: key, profvis's
# alloc and released, the same once per sample, and whether the line
# repeats in a sample.
for (f in commandArgs(trailingOnly = TRUE)) {
    p <- profvis::parse_rprof(f)$prof
    first <- !duplicated(p$time)
    inc <- setNames(p$meminc[first], p$time[first]) * 1024^2
    p <- p[!is.na(p$filename) & p$filename != "" & !is.na(p$linenum), ]
    key <- paste0(basename(p$filename), "#", p$linenum)
    d <- inc[as.character(p$time)]
    a <- tapply(pmax(d, 0), key, sum)
    r <- tapply(-pmin(d, 0), key, sum)
    once <- !duplicated(paste(p$time, key))
    a1 <- tapply(pmax(d, 0)[once], key[once], sum)
    r1 <- tapply(-pmin(d, 0)[once], key[once], sum)
    rep <- tapply(!once, key, any)
    k <- names(a)
    cat(sprintf("%s\t%s\t%.17g\t%.17g\t%.17g\t%.17g\t%d\n", basename(f), k, a[k], r[k], a1[k],
                r1[k], as.integer(rep[k])), sep = "")
}
REOF
    if Rscript "$T/pv.R" "$T/memory_line.out" "$T/mem_gc_line.out" "$T/rlang_profvis.out" \
        >"$T/pv.tsv" 2>"$T/pv.err"; then
        for name in memory_line mem_gc_line rlang_profvis; do
            "$S" report --by list --memory --sort self --format tsv "$T/$name.out" 2>/dev/null |
                awk -F '\t' -v f="$name.out" 'NR > 1 { n = split($1, a, "/"); print f "\t" a[n] "#" $2 "\t" $5 "\t" $6 }' >"$T/ours.$name"
        done
        cat "$T"/ours.* >"$T/ours.tsv"
        why=$(awk -F '\t' '
            function off(x, y) { d = x - y; if (d < 0) d = -d; return d > 1e-9 * (x > 1 ? x : 1) }
            NR == FNR { pv[$1 "\t" $2] = $0; next }
            {
                k = $1 "\t" $2
                if (!(k in pv)) { if ($3 + $4 > 0) { print "only ours: " k; exit 1 } next }
                split(pv[k], p, "\t"); seen[k] = 1
                if (p[7] == 0 && (off(p[3], $3) || off(p[4], $4))) { print k ": profvis " p[3] "/" p[4] ", ours " $3 "/" $4; exit 1 }
                if (off(p[5], $3) || off(p[6], $4)) { print k ": profvis once per sample " p[5] "/" p[6] ", ours " $3 "/" $4; exit 1 }
                rep += p[7]; n++
            }
            END { for (k in pv) if (!(k in seen)) { print "only profvis: " k; exit 1 }
                  if (n < 150) { print "only " n " lines compared"; exit 1 } }' "$T/pv.tsv" "$T/ours.tsv")
        check "profvis: alloc and released per line equal profvis's code pane ($(wc -l <"$T/pv.tsv") lines; $(awk -F '\t' '$7 == 1' "$T/pv.tsv" | wc -l) repeated by recursion, once per sample)" "$why"
    else
        fail "profvis: parse_rprof" "$(tail -n 2 "$T/pv.err")"
    fi
else
    echo "SKIP profvis checks: no R package profvis (Debian: r-cran-profvis)"
fi

# ---- 3. keep-line -----------------------------------------------------------------

# line.out names oracle_workload.R file 1: its line 192 is the token 1#192
want=$(awk '/^#File 1: .*oracle_workload.R$/ { ok = 1 } / 1#192 / || /^1#192 / { n++ } END { print ok ? n : "?" }' "$D/line.out")
got=$("$S" report -e 'keep-line oracle_workload.R#192' --format tsv --by sources "$D/line.out" 2>/dev/null |
    awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "samples") c = i } NR == 2 { print $c }')
check "keep-line: the samples through the line ($want, awk)" "$([ "$want" = "$got" ] || echo "got $got")"
"$S" report -e 'keep-line oracle_workload.R#99999' "$D/line.out" >/dev/null 2>"$T/err"
check "keep-line: a line in no location is warned about" "$(grep -q 'keep-line oracle_workload.R#99999: no line matches' "$T/err" || cat "$T/err")"
"$S" report -e 'keep-line oracle_workload.R' "$D/line.out" >/dev/null 2>"$T/err"
rc=$?
check "keep-line: FILE without #LINE is a usage error" "$([ $rc = 1 ] && grep -q 'expected FILE#LINE' "$T/err" || echo "rc $rc")"
"$S" report -e 'keep-line "#3"' --format tsv --by sources "$D/interactive_repl.out" >"$T/k3" 2>&1
want=$(grep -cE '^1#3 |"[^"]*" 1#3 ' "$D/interactive_repl.out")
check "keep-line \"#3\": the unnamed file's line ($want samples)" "$(awk -F '\t' -v w="$want" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "samples") c = i } NR == 2 && $c != w { print "got " $c }' "$T/k3")"

# ---- --sort and --limit ----------------------------------------------------------------

"$S" report --by line --format tsv "$D/line.out" | tail -n +2 | sort -t "$(printf '\t')" -k2,2gr -k4,4gr -k1,1 | head -n 10 | cut -f 1 >"$T/top.want"
"$S" report --by line --sort self --limit 10 --format tsv "$D/line.out" | tail -n +2 | cut -f 1 >"$T/top.got"
check "--by line --sort self --limit 10: the ten heaviest lines, heaviest first" "$(diff "$T/top.want" "$T/top.got")"
"$S" report --by line --limit 3 "$SRCDIR/data/demo.out" >"$T/demo3"
check "--by line --limit 3 keeps the three hottest lines (the demo's 22 s line), in file order" \
    "$(awk '/regression.R#/{ print $NF }' "$T/demo3" | tr '\n' ' ' | grep -qx 'regression.R#43 regression.R#69 regression.R#75 ' || cat "$T/demo3")"
"$S" report --by stacks --sort position --format tsv "$D/line.out" | tail -n +2 | cut -f 5 >"$T/pos"
check "--by stacks --sort position: by the names root first" "$(LC_ALL=C sort -c "$T/pos" 2>&1 | head -n 1)"
"$S" report --by levels --sort self "$D/line.out" >/dev/null 2>"$T/err"
rc=$?
check "--sort with --by levels is a usage error" "$([ $rc = 1 ] && grep -q -- '--sort goes with --by self, total, line, list, stacks, tree or calls (levels: rows in level order)' "$T/err" || echo "rc $rc")"
n=$("$S" report --by self --limit 4 --format tsv "$D/line.out" | wc -l)
check "--limit applies to TSV" "$([ "$n" = 5 ] || echo "$n lines")"

# ---- 4. finding files -------------------------------------------------------------------

mkdir -p "$T/sp/rwork" "$T/sp2/home/ana"
cp "$SRC/oracle_workload.R" "$SRC/oracle_main.R" "$T/sp/rwork/"
# a decoy: the same basename, other text, right under DIR
printf 'decoy %d\n' $(seq 1 400) >"$T/sp/oracle_workload.R"
"$S" report --by list --format tsv --source-path "$T/sp" "$D/line.out" >"$T/sp.tsv" 2>/dev/null
check "--source-path: the longest tail that exists wins over the basename" \
    "$(grep -q decoy "$T/sp.tsv" && echo "the decoy was read" || cmp "$T/sp.tsv" "$T/a.tsv")"
cp "$SRC/oracle_workload.R" "$T/sp2/home/ana/"
"$S" report --by list --source-map /home/ana="$T/sp2/home/ana" "$D/line.out" >"$T/map.txt" 2>&1
check "--source-map FROM=TO rewrites at a '/' boundary only (/home/ana is no prefix of /home/analyst)" \
    "$(grep -q 'oracle_workload.R: not found (tried /home/analyst/rwork/oracle_workload.R' "$T/map.txt" || head -n 8 "$T/map.txt")"
"$S" report --by list "$D/line.out" >"$T/miss.txt" 2>&1
check "a file found nowhere: the path tried and the options" \
    "$(grep -q 'oracle_workload.R: not found (tried /home/analyst/rwork/oracle_workload.R); --source-path DIR looks under DIR by the path.s tail, --source-map FROM=TO rewrites a prefix FROM' "$T/miss.txt" || head -n 8 "$T/miss.txt")"
"$S" report --by list --format tsv "$D/line.out" >/dev/null 2>"$T/err"
check "TSV: a file found nowhere is a warning on stderr" "$(grep -q '^stackscope: warning: /home/analyst/rwork/oracle_workload.R: not found' "$T/err" || cat "$T/err")"
"$S" report --by list --limit 1 "$D/interactive_repl.out" >"$T/unnamed.txt" 2>&1
check "an unnamed file (#File 1: ) is (unnamed file 1)" "$(grep -q '^(unnamed file 1): no file' "$T/unnamed.txt" || cat "$T/unnamed.txt")"
"$S" report --by line "$D/interactive_repl.out" >"$T/ul.txt" 2>&1
"$S" report --by line --format tsv "$D/interactive_repl.out" >"$T/ul.tsv" 2>&1
check "--by line: text reads (unnamed file 1)#3, TSV keeps R's key #3" \
    "$(grep -q ' (unnamed file 1)#3$' "$T/ul.txt" && grep -q $'^#3\t' "$T/ul.tsv" || { head -n 8 "$T/ul.txt"; head -n 3 "$T/ul.tsv"; })"
"$S" report --by list --source-map nonsense "$D/line.out" >/dev/null 2>"$T/err"
rc=$?
check "--source-map without = is a usage error" "$([ $rc = 1 ] && grep -q 'expected FROM=TO' "$T/err" || echo "rc $rc")"

# ---- 5. carried sources -------------------------------------------------------------------

"$S" convert --to tables --embed-sources --source-map /home/analyst/rwork="$SRC" -o "$T/carried" \
    "$D/line.out" 2>"$T/err"
check "convert --embed-sources: source_lines.tsv holds the files' lines" \
    "$(awk -F '\t' 'NR > 1 { n[$1]++ } END { for (f in n) print f, n[f] }' "$T/carried/source_lines.tsv" | sort |
        diff - <(printf '/home/analyst/rwork/oracle_main.R %s\n/home/analyst/rwork/oracle_workload.R %s\n' \
            "$(wc -l <"$SRC/oracle_main.R")" "$(wc -l <"$SRC/oracle_workload.R")"))"
# read from elsewhere, where no file is: the text comes from the tables
mkdir -p "$T/elsewhere" && mv "$T/carried" "$T/elsewhere/"
(cd "$T/elsewhere" && "$S" report --by list --format tsv carried) >"$T/c.tsv" 2>"$T/c.err"
check "carried sources: report --by list reads them where the files are not" \
    "$( [ -s "$T/c.err" ] && cat "$T/c.err"; cmp <(cut -f 2- "$T/c.tsv") <(cut -f 2- "$T/a.tsv"))"
"$S" convert --to tables -o "$T/again" "$T/elsewhere/carried" 2>/dev/null
check "carried sources stay through a conversion" "$(cmp "$T/again/source_lines.tsv" "$T/elsewhere/carried/source_lines.tsv" 2>&1)"
"$S" convert --embed-sources -o "$T/x.pb.gz" "$D/line.out" >/dev/null 2>"$T/err"
rc=$?
check "--embed-sources with another format is a usage error" "$([ $rc = 1 ] && grep -q 'goes with --to tables' "$T/err" || echo "rc $rc")"

# ---- a comparison -------------------------------------------------------------------------

"$S" report --base "$D/line.out" --by line --format tsv "$D/truncated_tail.out" 2>/dev/null | tail -n +2 |
    awk -F '\t' '$1 ~ /#/ && $1 !~ /^NA#/ { print $1 "\t" $2 "\t" $3 "\t" $5 "\t" $6 }' | sort >"$T/cl.want"
"$S" report --base "$D/line.out" --by list --sort self --format tsv "$D/truncated_tail.out" 2>/dev/null | tail -n +2 |
    awk -F '\t' '{ n = split($1, a, "/"); print a[n] "#" $2 "\t" $3 "\t" $4 "\t" $6 "\t" $7 }' | sort >"$T/cl.got"
check "--base --by list: base and new of each line as --base --by line" "$(diff "$T/cl.want" "$T/cl.got" | head -n 5)"

finish
