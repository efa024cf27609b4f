#!/bin/bash
# Measures (stackscope(1), MEASURES): every number by time, samples, memory or
# any pprof sample type, against independent answers.
#
#  1. Real Go profiles made by Go's own runtime in the test (a CPU profile, a
#     heap profile with its four sample types, block and mutex profiles;
#     tests/data/go/measures/main.go, built offline): for every sample type
#     T, `report --value T` equals `pprof -top -sample_index=T` per function
#     (flat = self, cum = total); the default equals pprof's default; the
#     measures `check` lists are the file's sample types; the pprof writer
#     keeps every type and marks --value's as the default.
#  2. R: `--value memory` per function and per line equals summaryRprof's
#     mem.total with memory = "both" (whole sessions, chunksize = -1).
#  3. profvis: `--value released` per source line equals the deallocation
#     profvis's own parse_rprof gives (the negative differences of its
#     memalloc), on a file profvis wrote.
#  4. Units and layout on hand-made files: counts with separators, numbers
#     never run together, the precision of a 100 us interval, bytes by 1024;
#     a source without the measure weighs 0 with one warning; an unknown
#     measure is a usage error that lists the profile's measures.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope
LC_ALL=C
export LC_ALL

S=$STACKSCOPE
T=$TMPD
D=$SRCDIR/tests/data

# ours FILE MEASURE [BY]: "name<TAB>self<TAB>total" of `report --value`
ours() {
    "$S" report --format tsv --by "${3:-self}" ${2:+--value "$2"} "$1" 2>/dev/null |
        awk -F '\t' 'NR > 1 { printf "%s\t%.17g\t%.17g\n", $1, $2, $4; t += $2 }
                     END { printf "<total>\t%.17g\t\n", t }'
}

# ---- 1. real Go profiles ----------------------------------------------------------

setup_go_pprof
gosrc=$D/go/measures
if [ -z "$PPROF" ]; then
    echo "SKIP Go profile checks: no Go pprof"
elif ! have go; then
    echo "SKIP Go profile checks: no go command"
else
    mkdir -p "$T/go"
    cp "$gosrc/main.go" "$gosrc/go.mod" "$T/go/"
    if ! (cd "$T/go" && GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local GOTELEMETRY=off \
        GOCACHE=$T/go/cache HOME=$T/go CGO_ENABLED=0 go build -o measures . &&
        ./measures) >"$T/go/log" 2>&1; then
        fail "Go profiles: build and run tests/data/go/measures" "$(tail -n 3 "$T/go/log" | tr '\n' '|')"
    else
        for kind in cpu heap block mutex; do
            pb=$T/go/$kind.pb.gz
            # the sample types, from Go's pprof -raw
            types=$(pp -raw -symbolize=none "$pb" 2>/dev/null | awk '/^Samples:/ { getline; print; exit }')
            "$S" check "$pb" >"$T/go/$kind.check" 2>&1
            listed=$(sed -n 's/^ *measures: //p' "$T/go/$kind.check" | sed 's/ (default)//' | tr -d ',')
            want=""
            for tu in $types; do want="$want ${tu%%/*}"; done
            missing=""
            for t in $want; do
                case " $listed " in *" $t "*) ;; *) missing="$missing $t" ;; esac
            done
            check "Go $kind: check lists every sample type ($want)" \
                "$([ -z "$missing" ] || echo "missing$missing in '$listed'")"
            # every sample type against pprof -top -sample_index
            for tu in $types; do
                t=${tu%%/*} u=${tu#*/}
                unit=
                case $u in nanoseconds) unit=-unit=ns ;; bytes) unit=-unit=B ;; esac
                ours "$pb" "$t" >"$T/go/$kind.$t.ours"
                top_tsv "$pb" -symbolize=none -sample_index="$t" $unit >"$T/go/$kind.$t.go"
                why=$(same_numbers "$T/go/$kind.$t.ours" "$T/go/$kind.$t.go")
                check "Go $kind: --value $t equals pprof -top -sample_index=$t" "$why"
            done
            # the default: pprof's default (default_sample_type, else the last type)
            last=${types##* }
            unit=
            case ${last#*/} in nanoseconds) unit=-unit=ns ;; bytes) unit=-unit=B ;; esac
            ours "$pb" "" >"$T/go/$kind.default.ours"
            top_tsv "$pb" -symbolize=none $unit >"$T/go/$kind.default.go"
            check "Go $kind: the default measure equals pprof's default (${last%%/*})" \
                "$(same_numbers "$T/go/$kind.default.ours" "$T/go/$kind.default.go")"
        done
        # heap: text in bytes; the pprof writer keeps every type and marks
        # --value's as the default
        pb=$T/go/heap.pb.gz
        "$S" report "$pb" >"$T/go/heap.txt" 2>/dev/null
        check "Go heap: text names the measure and shows bytes" \
            "$(grep -q '^inuse_space ' "$T/go/heap.txt" && grep -qE '^ *[0-9.]+ (B|kB|MB) ' "$T/go/heap.txt" ||
                head -n 8 "$T/go/heap.txt" | tr '\n' '|')"
        if "$S" convert --value alloc_space -o "$T/go/heap2.pb.gz" "$pb" 2>"$T/go/err"; then
            why=
            for t in alloc_objects alloc_space inuse_objects inuse_space; do
                unit=
                case $t in *_space) unit=-unit=B ;; esac
                top_tsv "$pb" -symbolize=none -sample_index=$t $unit >"$T/go/a.tsv"
                top_tsv "$T/go/heap2.pb.gz" -symbolize=none -sample_index=$t $unit >"$T/go/b.tsv"
                w=$(same_numbers "$T/go/a.tsv" "$T/go/b.tsv") || { why="$t: $w"; break; }
            done
            check "Go heap -> pprof: pprof reads every sample type back" "$why"
            top_tsv "$T/go/heap2.pb.gz" -symbolize=none -unit=B >"$T/go/c.tsv"
            top_tsv "$pb" -symbolize=none -sample_index=alloc_space -unit=B >"$T/go/d.tsv"
            check "Go heap -> pprof --value alloc_space: pprof's default is alloc_space" \
                "$(same_numbers "$T/go/d.tsv" "$T/go/c.tsv")"
        else
            fail "Go heap -> pprof --value alloc_space" "$(cat "$T/go/err")"
        fi
        # a CPU and a heap profile: under cpu the heap weighs 0, with a warning
        "$S" report --value cpu --format tsv "$T/go/cpu.pb.gz" "$pb" >"$T/go/mixed.tsv" 2>"$T/go/mixed.err"
        check "Go cpu + heap under cpu: the heap profile weighs 0, with a warning" \
            "$(grep -q "1 source has no 'cpu' values" "$T/go/mixed.err" || cat "$T/go/mixed.err")"
    fi
fi

# ---- 2. R: memory = summaryRprof's mem.total ---------------------------------------

if have Rscript; then
    cat >"$T/mem.R" <<'REOF'
args <- commandArgs(trailingOnly = TRUE)
has_lines <- grepl("line profiling", readLines(args[[1]], n = 1L))
for (what in if (has_lines) c("function", "line") else "function") {
    s <- if (what == "line") {
        summaryRprof(args[[1]], lines = "show", memory = "both", chunksize = -1)$by.line
    } else {
        summaryRprof(args[[1]], memory = "both", chunksize = -1)$by.total
    }
    cat(sprintf("%s\t%s\t%.15g\n", what, gsub('^"|"$', "", rownames(s)), s$mem.total), sep = "")
}
REOF
    for f in memory memory_line mem_gc_line rlang_profvis; do
        in=$D/rprof/$f.out
        Rscript "$T/mem.R" "$in" >"$T/$f.r" 2>"$T/$f.rerr" || {
            fail "R: memory of $f" "Rscript: $(tail -n 1 "$T/$f.rerr")"
            continue
        }
        for by in function line; do
            [ $by = line ] && ! grep -q '^line' "$T/$f.r" && continue
            awk -F '\t' -v by=$by '$1 == by { print $2 "\t" $3 }' "$T/$f.r" | sort >"$T/$f.$by.r"
            # R rounds mem.total to 0.1 MB: round ours the same way
            "$S" report --value memory --format tsv --by "$([ $by = line ] && echo line || echo total)" \
                "$in" 2>/dev/null |
                awk -F '\t' 'NR > 1 && $4 > 0 { printf "%s\t%.1f\n", $1, $4 / 1048576 }' | sort >"$T/$f.$by.ours"
            # rows R shows with 0 MB are left out of both
            awk -F '\t' '$2 + 0 > 0' "$T/$f.$by.r" >"$T/$f.$by.r2"
            awk -F '\t' '$2 + 0 > 0' "$T/$f.$by.ours" >"$T/$f.$by.ours2"
            why=$(awk -F '\t' 'NR == FNR { r[$1] = $2; next }
                  { if (!($1 in r)) { print "only ours: " $1; exit 1 }
                    d = r[$1] - $2; if (d < 0) d = -d
                    if (d > 0.051) { print $1 ": R " r[$1] " MB, ours " $2; exit 1 }
                    delete r[$1] }
                  END { for (k in r) { print "only R: " k; exit 1 } }' "$T/$f.$by.r2" "$T/$f.$by.ours2")
            check "R: --value memory by $by equals summaryRprof(memory = \"both\") mem.total: $f" "$why"
        done
    done
else
    echo "SKIP R memory checks: no Rscript"
fi

# ---- 3. profvis: released bytes per line -------------------------------------------

if have Rscript && Rscript -e 'quit(status = !requireNamespace("profvis", quietly = TRUE))' >/dev/null 2>&1; then
    in=$D/rprof/rlang_profvis.out
    # profvis's parse_rprof: one row per frame (and per source line) with
    # the sample's memalloc (MB of 8 x (small_v + big_v)); released = the
    # negative differences between consecutive samples.  Per line: each
    # sample counts once for every distinct line in it.
    cat >"$T/pv.R" <<'REOF'
args <- commandArgs(trailingOnly = TRUE)
p <- profvis:::parse_rprof(args[[1]])$prof
# memalloc per sample (MB of 8 x (small_v + big_v)); the differences
m <- tapply(p$memalloc, p$time, function(x) x[[1]])
m <- m[order(as.integer(names(m)))]
inc <- c(0, diff(m))
names(inc) <- names(m)
rel <- -pmin(inc, 0) * 1024^2 # pmin keeps the names
p <- p[!is.na(p$linenum) & !is.na(p$filename), ]
key <- paste0(basename(p$filename), "#", p$linenum)
u <- unique(data.frame(time = p$time, key = key))
r <- tapply(rel[as.character(u$time)], u$key, sum)
cat(sprintf("%s\t%.15g\n", names(r), r), sep = "")
REOF
    # (profvis keeps a line only when it can read the source file: run it
    # where the workload's source is)
    if (cd "$D/rprof/src" && Rscript "$T/pv.R" "$in") 2>"$T/pv.err" | sort >"$T/pv.r"; then
        "$S" report --value released --by line --format tsv "$in" 2>/dev/null |
            awk -F '\t' 'NR > 1 { print $1 "\t" $4 }' | sort >"$T/pv.ours"
        why=$(awk -F '\t' 'NR == FNR { r[$1] = $2; next }
              { d = r[$1] - $2; if (d < 0) d = -d
                if (d > 1e-6 * (r[$1] > 1 ? r[$1] : 1)) { print $1 ": profvis " r[$1] ", ours " $2; exit 1 }
                delete r[$1] }
              END { for (k in r) if (r[k] > 0) { print "only profvis: " k; exit 1 } }' "$T/pv.r" "$T/pv.ours")
        [ -s "$T/pv.r" ] || why="profvis gave no lines"
        check "profvis: --value released per line equals profvis's deallocation" "$why"
    else
        fail "profvis: parse_rprof" "$(tail -n 2 "$T/pv.err")"
    fi
else
    echo "SKIP profvis checks: no R package profvis (Debian: r-cran-profvis)"
fi

# ---- 4. units, layout, lacking measures ------------------------------------------

# counts with separators; the name column never runs into the numbers
printf 'main;work 123456789\nmain;idle 98765432\n' >"$T/big.folded"
"$S" report "$T/big.folded" >"$T/big.txt" 2>"$T/big.err"
check "folded: the measure is samples (counts with separators)" \
    "$(grep -qE '^ +123,456,789 +55\.56 +123,456,789 +55\.56  work$' "$T/big.txt" || cat "$T/big.txt")"
check "folded: the header's samples line is the measure's total" "$(grep -q '^samples    222222221$' "$T/big.txt" && ! grep -q '^time ' "$T/big.txt" || head -n 6 "$T/big.txt")"
"$S" report --format tsv "$T/big.folded" >"$T/big.tsv"
check "folded: TSV raw numbers with the measure in the header" \
    "$(head -n 2 "$T/big.tsv" | tr '\t' ' ' | tr '\n' '|' | grep -qx 'name self.samples self.pct total.samples total.pct|work 123456789 55.5555553555556 123456789 55.5555553555556|' ||
        head -n 2 "$T/big.tsv")"
"$S" report --interval 1ms "$T/big.folded" >"$T/big-ms.txt" 2>/dev/null
check "folded --interval 1ms: time in seconds, never cut" \
    "$(grep -qE '^ *123456\.789 +55\.56 +123456\.789 +55\.56  work$' "$T/big-ms.txt" || cat "$T/big-ms.txt")"

# a 100 us interval shows its times to 0.1 ms
"$S" report "$D/rprof/interval_100us.out" >"$T/us.txt" 2>/dev/null
check "100 us interval: times with 4 decimals" \
    "$(sed -n '/self.time/{n;p;q}' "$T/us.txt" | grep -qE '^ +[0-9]+\.[0-9]{4} ' || sed -n '1,8p' "$T/us.txt")"

# bytes by 1024 in text, raw in TSV
"$S" report --value memory --limit 3 "$D/rprof/memory.out" >"$T/mem.txt" 2>/dev/null
check "memory: text in B/kB/MB/GB" "$(sed -n '/self.memory/{n;p;q}' "$T/mem.txt" | grep -qE '^ +[0-9.]+ (B|kB|MB|GB) ' || cat "$T/mem.txt")"
"$S" report --value memory --format tsv "$D/rprof/memory.out" >"$T/mem.tsv" 2>/dev/null
check "memory: TSV in bytes, header self.memory" \
    "$(head -n 1 "$T/mem.tsv" | grep -qx $'name\tself.memory\tself.pct\ttotal.memory\ttotal.pct' && sed -n 2p "$T/mem.tsv" | cut -f 2 | grep -qxE '[0-9]+' || head -n 2 "$T/mem.tsv")"

# an Rprof file without memory profiling: memory weighs it 0 (its
# functions are listed with 0 bytes)
"$S" report --value memory --format tsv "$D/rprof/memory.out" "$D/rprof/plain_default.out" |
    awk -F '\t' '$4 != 0' >"$T/lack.tsv" 2>"$T/lack.err"
"$S" report --value memory --format tsv "$D/rprof/memory.out" "$D/rprof/plain_default.out" 2>"$T/lack.err" >/dev/null
awk -F '\t' '$4 != 0' "$T/mem.tsv" >"$T/mem-nz.tsv"
check "sources without the measure weigh 0, with one warning" \
    "$([ "$(grep -c "has no 'memory' values" "$T/lack.err")" = 1 ] && cmp -s "$T/lack.tsv" "$T/mem-nz.tsv" || { cat "$T/lack.err"; diff "$T/lack.tsv" "$T/mem-nz.tsv" | head -n 3; })"

# an unknown measure: a usage error listing the profile's measures
"$S" report --value nope "$D/rprof/memory.out" >/dev/null 2>"$T/nope.err"
rc=$?
check "--value nope: exit 1, the measures listed" \
    "$([ $rc = 1 ] && grep -q "no measure 'nope' in this profile (it has time, samples, memory, released, duplications)" "$T/nope.err" || echo "rc $rc: $(cat "$T/nope.err")")"

# samples and duplications add up what they should: the count and dup_count
"$S" report --value samples --format tsv "$D/rprof/memory.out" | awk -F '\t' 'NR > 1 { s += $2 } END { print s }' >"$T/n"
check "samples: self adds up to the samples with frames" \
    "$(awk -F '\t' 'NR > 1 { n += $8 } END { print n }' "$D/rprof/memory.indep/sessions.tsv" | cmp -s - "$T/n" || cat "$T/n")"
dups=$(awk 'NR > 1 && /^:/ { split($0, a, ":"); if ($0 !~ /^:[0-9]+:[0-9]+:[0-9]+:[0-9]+: *$/) d += a[5] } END { print d + 0 }' "$D/rprof/memory.out")
got=$("$S" report --value duplications --format tsv "$D/rprof/memory.out" | awk -F '\t' 'NR > 1 { s += $2 } END { print s + 0 }')
check "duplications: self adds up to dup_count of the samples with frames" \
    "$([ "$dups" = "$got" ] || echo "awk $dups, ours $got")"

# runs gain the measure: a function's "all levels" row adds up its total
"$S" report --value memory --by total --format tsv "$D/rprof/memory.out" | awk -F '\t' 'NR > 1 { print $1 "\t" $4 }' | sort >"$T/tot"
"$S" report --value memory --by runs --format tsv "$D/rprof/memory.out" | awk -F '\t' 'NR > 1 && $2 == "all" && $8 != 0 { print $1 "\t" $8 }' | sort >"$T/runs"
check "runs --value memory: the all-levels row holds the function's total" \
    "$(cmp -s "$T/tot" "$T/runs" || diff "$T/tot" "$T/runs" | head -n 3)"

# transforms' effects by the measure: what `drop F` removed is F's total
demo=$SRCDIR/data/demo.out
for v in time memory; do
    tot=$("$S" report --value $v --by total --format tsv "$demo" | awk -F '\t' '$1 == "lm.fit" { print $4 }')
    eff=$("$S" report --value $v --by transforms --format tsv -e 'drop lm.fit' "$demo" |
        awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { printf "%.9g", $c["'$v'_in"] - $c["'$v'_out"] }')
    check "--by transforms --value $v: drop lm.fit removes lm.fit's total" \
        "$(awk -v a="$tot" -v b="$eff" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= 1e-9 * (a > 1 ? a : 1)) }' || echo "total $tot, removed $eff")"
done

# folded stacks under memory: each line's number is its stack's bytes
total=$("$S" report --value memory --format tsv "$D/rprof/memory.out" | awk -F '\t' 'NR > 1 { s += $2 } END { printf "%.0f", s }')
folded=$("$S" report --value memory --by stacks --format folded "$D/rprof/memory.out" | awk '{ s += $NF } END { printf "%.0f", s }')
check "folded --value memory: the lines add up to the bytes allocated" \
    "$([ -n "$total" ] && [ "$total" = "$folded" ] || echo "self sum $total, folded sum $folded")"

finish
