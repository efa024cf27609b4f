#!/bin/sh
# Transforms (stackscope(1), TRANSFORMS) from the command line:
#  - a cross-check on every Rprof fixture: tests/oracle/transforms.R applies
#    the same transform scripts to the raw Rprof lines with its own reader
#    (no stackscope code) and the folded stacks and each step's sample and
#    frame counts must be equal;
#  - hand-computed answers for report --by transforms and -e on a tiny file;
#  - errors: -e #N column C, FILE:LINE:COL, exit statuses;
#  - convert writes the transformed profile (checked with R's summaryRprof
#    when the Rprof writer is there).
. "$(dirname "$0")/lib.sh"
need_stackscope

S=$STACKSCOPE
scripts=$TMPD/scripts
mkdir -p "$scripts"
cat >"$scripts/1" <<'X'
trim-base auto
collapse-recursion /./
drop-samples 1:5
X
cat >"$scripts/2" <<'X'
keep-samples -50:
focus /apply|FUN/
merge /^(FUN|lapply)$/
X
cat >"$scripts/3" <<'X'
trim-base auto=0.9
replace /./ /./ => PAIR
keep-samples 0.1s:1.5s
X
cat >"$scripts/4" <<'X'
# scaffold by name, then leaves
trim-to /^(eval|source)$/
drop /^<GC>$/
prune /^(paste|sample)$/
drop-samples -10:-1
X
cat >"$scripts/5" <<'X'
replace eval eval => "eval eval"
merge withVisible
trim-base 3
keep-samples :200ms
X
cat >"$scripts/6" <<'X'
class /./ => X
drop-samples 3
keep-samples 2:-2
merge "weird name with spaces"
drop /\[\[/
replace lapply FUN => "lapply;FUN"
collapse-recursion /^(h|f|deep.*)$/
X
cat >"$scripts/7" <<'X'
focus "name\"with\"quotes"
X
cat >"$scripts/8" <<'X'
trim-base 1000
X
cat >"$scripts/9" <<'X'
name-anonymous
r-simplify
trim-base auto
X
cat >"$scripts/10" <<'X'
r-simplify
trim-base auto=0.9,all
name-anonymous /^(FUN|f|<Anonymous>|lapply)$/
X
cat >"$scripts/11" <<'X'
trim-base auto,all
name-anonymous
focus /^FUN@/
X
nscripts=11

if [ -n "${STACKSCOPE_NO_R:-}" ] || ! have Rscript; then
    echo "SKIP oracle cross-check: Rscript not installed"
else
    for f in "$SRCDIR"/tests/data/rprof/*.out; do
        name=${f##*/}
        name=${name%.out}
        rdir=$TMPD/r.$name
        i=1
        set --
        while [ $i -le $nscripts ]; do
            set -- "$@" "$scripts/$i"
            i=$((i + 1))
        done
        if ! Rscript "$SRCDIR/tests/oracle/transforms.R" "$f" "$rdir" "$@" >"$TMPD/rlog" 2>&1; then
            fail "oracle $name" "transforms.R failed: $(tail -n 3 "$TMPD/rlog" | tr '\n' '|')"
            continue
        fi
        i=1
        while [ $i -le $nscripts ]; do
            if ! "$S" report --script "$scripts/$i" --by stacks --format folded "$f" \
                >"$TMPD/ours" 2>"$TMPD/err"; then
                fail "folded $name script $i" "stackscope failed: $(cat "$TMPD/err")"
                i=$((i + 1))
                continue
            fi
            LC_ALL=C sort "$TMPD/ours" >"$TMPD/a"
            LC_ALL=C sort "$rdir/$i/folded.txt" >"$TMPD/b"
            if cmp -s "$TMPD/a" "$TMPD/b"; then
                pass "folded $name script $i"
            else
                fail "folded $name script $i" "$(diff "$TMPD/a" "$TMPD/b" | head -n 6 | tr '\n' '|')"
            fi
            "$S" report --script "$scripts/$i" --by transforms --format tsv "$f" 2>/dev/null |
                cut -f1,3-6 >"$TMPD/eff"
            if cmp -s "$TMPD/eff" "$rdir/$i/effects.tsv"; then
                pass "effects $name script $i"
            else
                fail "effects $name script $i" "$(diff "$TMPD/eff" "$rdir/$i/effects.tsv" | head -n 6 | tr '\n' '|')"
            fi
            # run lengths of the transformed timeline: removed samples are gaps
            # (the R script's columns: the measure's, last, is not its)
            "$S" report --script "$scripts/$i" --by runs --format tsv "$f" 2>/dev/null | cut -f 1-7 |
                LC_ALL=C sort >"$TMPD/runs.a"
            LC_ALL=C sort "$rdir/$i/runs.tsv" >"$TMPD/runs.b"
            if cmp -s "$TMPD/runs.a" "$TMPD/runs.b"; then
                pass "runs $name script $i"
            else
                fail "runs $name script $i" "$(diff "$TMPD/runs.a" "$TMPD/runs.b" | head -n 6 | tr '\n' '|')"
            fi
            i=$((i + 1))
        done
    done
fi

# ---- hand-computed: main;f;g | main;f;g;f | main;h | main (0.02 s) ----------
tiny=$TMPD/tiny.out
printf 'sample.interval=20000\n"g" "f" "main" \n"f" "g" "f" "main" \n"h" "main" \n"main" \n' >"$tiny"

# self after merge f: g 2 (0.04 s), main 1 and h 1 (tie: main's total 4 wins)
out=$("$S" report -e 'merge f' --by self --format tsv "$tiny" 2>&1)
want=$(printf 'name\tself.time\tself.pct\ttotal.time\ttotal.pct\ng\t0.04\t50\t0.04\t50\nmain\t0.02\t25\t0.08\t100\nh\t0.02\t25\t0.02\t25')
[ "$out" = "$want" ] && pass "-e merge f: self" || fail "-e merge f: self" "$out"

# focus f then drop-samples 1: one sample f;g;f left
out=$("$S" report -e 'focus f' --transform 'drop-samples 1' --by stacks --format folded "$tiny" 2>&1)
[ "$out" = "f;g;f 1" ] && pass "-e focus, --transform drop-samples" || fail "-e focus" "$out"

# removed samples end runs (HACKING.md, Data model): f, g, f under main; after
# drop g, f has 2 runs of 1 sample, not one run of 2
printf 'sample.interval=10000\n"f" "main" \n"g" "main" \n"f" "main" \n' >"$TMPD/fgf.out"
out=$("$S" report -e 'drop g' --by runs --format tsv "$TMPD/fgf.out" 2>&1 | grep '^f	2	')
# (then the time of its 2 samples, 10 ms each)
[ "$out" = "$(printf 'f\t2\t2\t2\t1\t1\t1\t0.02')" ] && pass "drop leaves a gap: f has 2 runs" ||
    fail "drop leaves a gap" "$out"

# --script and -e mix in command-line order: trim-base 1 then keep-samples -2:
printf 'trim-base 1\n' >"$TMPD/s"
out=$("$S" report --script "$TMPD/s" -e 'keep-samples -2:' --by stacks --format folded "$tiny" 2>&1)
[ "$out" = "h 1" ] && pass "--script then -e" || fail "--script then -e" "$out"
out=$("$S" report -e 'keep-samples -2:' --script "$TMPD/s" --by stacks --format folded "$tiny" 2>&1)
[ "$out" = "h 1" ] && pass "-e then --script" || fail "-e then --script" "$out"

# report --by transforms: trim-base 1 empties "main" (1 sample), removes 4
# frames from 4 stacks; drop g removes 2 samples.  The time of the samples
# with frames going in and out (20 ms each): 4 -> 3 (one emptied), 3 -> 1
out=$("$S" report -e 'trim-base 1' -e 'drop /^g$/' --by transforms --format tsv "$tiny" 2>&1)
want=$(printf 'step\tenabled\tsamples_in\tsamples_out\tsamples_emptied\tframes_removed\tstacks_changed\tfunctions_matched\tlabels_matched\tlevels_removed\tcommand\ttime_in\ttime_out\trange\n1\t1\t4\t4\t1\t4\t4\t0\t0\t1\ttrim-base 1\t0.08\t0.06\t\n2\t1\t4\t2\t0\t0\t0\t1\t0\t0\tdrop /^g$/\t0.06\t0.02\t')
[ "$out" = "$want" ] && pass "--by transforms tsv" || fail "--by transforms tsv" "$out"
out=$("$S" report -e 'trim-base 1' --by transforms "$tiny" 2>&1)
case $out in
*"samples    4 (3 with frames)"*"   1 yes           4           4        1              4       4         0      0      1      0.080      0.060           -  trim-base 1"*)
    pass "--by transforms text" ;;
*) fail "--by transforms text" "$out" ;;
esac
out=$("$S" report --by transforms "$tiny" 2>&1)
case $out in *"no transforms"*) pass "--by transforms, empty list" ;; *) fail "--by transforms, empty" "$out" ;; esac
# text reports name the transforms in effect
out=$("$S" report -e 'merge   f' "$tiny" 2>&1)
case $out in "transform  merge f"*) pass "text report names the transforms" ;; *) fail "transform line" "$out" ;; esac
# an emptied sample is in no statistic: 3 samples with frames, 0.06 s
out=$("$S" report -e 'trim-base 1' --by self "$tiny" 2>&1)
case $out in *"samples    4 (3 with frames)"*"time       0.060 s sampled"*) pass "emptied samples not counted" ;;
*) fail "emptied samples" "$out" ;; esac

# aggregate-only sources (SamplingProf) have no stacks: a warning, not silence
agg=$SRCDIR/tests/data/sampling_prof/ruby_workload.txt
if [ -f "$agg" ]; then
    err=$("$S" report -e 'drop /a/' "$agg" 2>&1 >/dev/null)
    case $err in *"transforms change raw samples only"*) pass "aggregates: warning" ;;
    *) fail "aggregates: warning" "$err" ;; esac
    err=$("$S" report -e 'class /a/ => A' "$agg" 2>&1 >/dev/null)
    [ -z "$err" ] && pass "aggregates: class needs no warning" || fail "aggregates: class" "$err"
fi

# ---- R profiles (issue 16): hand-made, with hand-computed answers -------------
# Root first: source;eval;main@7;lapply;FUN@7;g@3 | source;eval;main@8;lapply;
# FUN@8;h@4 | source;eval;main@9;tryCatch | source;eval;main@9;tryCatch;
# tryCatchList;tryCatchOne;doTryCatch;k@5.  Scaffold: source, eval, main (in
# every sample); main has positions, so trim-base auto cuts 2 levels, auto,all 3.
rtiny=$TMPD/rtiny.out
printf 'line profiling: sample.interval=10000\n#File 1: /x/u.R\n%s\n%s\n%s\n%s\n' \
    '1#3 "g" 1#7 "FUN" "lapply" 1#7 "main" "eval" "source" ' \
    '1#4 "h" 1#8 "FUN" "lapply" 1#8 "main" "eval" "source" ' \
    '"tryCatch" 1#9 "main" "eval" "source" ' \
    '1#5 "k" "doTryCatch" "tryCatchOne" "tryCatchList" "tryCatch" 1#9 "main" "eval" "source" ' >"$rtiny"
folded() { "$S" report "$@" --by stacks --format folded "$rtiny" 2>&1 | LC_ALL=C sort | tr '\n' '|'; }
out=$(folded -e 'trim-base auto')
[ "$out" = "main;lapply;FUN;g 1|main;lapply;FUN;h 1|main;tryCatch 1|main;tryCatch;tryCatchList;tryCatchOne;doTryCatch;k 1|" ] &&
    pass "trim-base auto stops at user code (main has a position)" || fail "trim-base auto keeps main" "$out"
out=$(folded -e 'trim-base auto,all')
[ "$out" = "lapply;FUN;g 1|lapply;FUN;h 1|tryCatch 1|tryCatch;tryCatchList;tryCatchOne;doTryCatch;k 1|" ] &&
    pass "trim-base auto,all cuts user code too" || fail "trim-base auto,all" "$out"
out=$("$S" report -e 'trim-base auto=0.5,all' -e 'trim-base auto' --by transforms --format tsv "$rtiny" | cut -f10,11 | tr '\n' '|')
[ "$out" = "levels_removed	command|5	trim-base auto=0.5,all|0	trim-base auto|" ] &&
    pass "trim-base auto=SHARE,all: canonical text and levels" || fail "auto=SHARE,all" "$out"
# (auto=0.5: source, eval, main, lapply and FUN are in at least 2 of 4 samples)
out=$("$S" report -e 'r-simplify' --by self --format tsv "$rtiny" | LC_ALL=C sort | tr '\n' '|')
[ "$out" = "FUN	0	0	0.02	50|g	0.01	25	0.01	25|h	0.01	25	0.01	25|k	0.01	25	0.01	25|lapply	0	0	0.02	50|main	0	0	0.04	100|name	self.time	self.pct	total.time	total.pct|tryCatch	0.01	25	0.01	25|" ] &&
    pass "r-simplify: self times unchanged, the innermost tryCatch stays" || fail "r-simplify self" "$out"
out=$(folded -e 'r-simplify')
[ "$out" = "main;k 1|main;lapply;FUN;g 1|main;lapply;FUN;h 1|main;tryCatch 1|" ] &&
    pass "r-simplify: k appears under main" || fail "r-simplify stacks" "$out"
out=$(folded -e 'name-anonymous')
[ "$out" = "source;eval;main;lapply;FUN@u.R#7;g 1|source;eval;main;lapply;FUN@u.R#8;h 1|source;eval;main;tryCatch 1|source;eval;main;tryCatch;tryCatchList;tryCatchOne;doTryCatch;k 1|" ] &&
    pass "name-anonymous: FUN@u.R#7 and FUN@u.R#8, from the lines that called lapply" ||
    fail "name-anonymous" "$out"
# the renamed frames keep their own lines: by-line statistics do not change
for t in 'name-anonymous' 'r-simplify' 'trim-base auto'; do
    a=$("$S" report --by line --format tsv "$rtiny")
    b=$("$S" report -e "$t" --by line --format tsv "$rtiny")
    [ "$a" = "$b" ] && pass "$t keeps the line statistics" || fail "$t: line statistics" "$b"
done
for p in '--preset r' '--preset=r'; do
    out=$(folded $p)
    [ "$out" = "main;k 1|main;lapply;FUN@u.R#7;g 1|main;lapply;FUN@u.R#8;h 1|main;tryCatch 1|" ] &&
        pass "report $p" || fail "report $p" "$out"
done
out=$("$S" report --preset r --by transforms --format tsv "$rtiny" | cut -f11 | tr '\n' '|')
[ "$out" = "command|r-simplify|name-anonymous|trim-base auto|" ] && pass "--preset r: ordinary steps" ||
    fail "--preset r steps" "$out"
"$S" convert --preset r -o "$TMPD/rp.folded" "$rtiny" >/dev/null 2>&1 &&
    [ "$(LC_ALL=C sort "$TMPD/rp.folded" | tr '\n' '|')" = "main;k 1|main;lapply;FUN@u.R#7;g 1|main;lapply;FUN@u.R#8;h 1|main;tryCatch 1|" ] &&
    pass "convert --preset r" || fail "convert --preset r" "$(cat "$TMPD/rp.folded" 2>&1)"
"$S" report --preset s "$rtiny" >/dev/null 2>"$TMPD/err"
st=$?
[ $st -eq 1 ] && grep -q "unknown preset 's'" "$TMPD/err" && pass "--preset: unknown name" ||
    fail "--preset unknown" "status $st: $(cat "$TMPD/err")"
out=$("$S" report -e r-simplify --by transforms "$rtiny")
case $out in *"r-simplify merges the frames of: eval, "*"compiler:::tryCmpfun"*) pass "--by transforms lists r-simplify's functions" ;;
*) fail "--by transforms r-simplify list" "$out" ;; esac
# without line information: a warning, names unchanged
printf 'sample.interval=10000\n"g" "FUN" "lapply" "main" \n' >"$TMPD/noline.out"
out=$("$S" report -e name-anonymous --by stacks --format folded "$TMPD/noline.out" 2>"$TMPD/err")
[ "$out" = "main;lapply;FUN;g 1" ] && grep -q "name-anonymous: the profile has no line information" "$TMPD/err" &&
    pass "name-anonymous without lines: a warning" || fail "name-anonymous without lines" "$out $(cat "$TMPD/err")"
out=$("$S" report -e 'r-simplify x' "$rtiny" 2>&1)
case $out in *"column 12: unexpected 'x'"*) pass "r-simplify takes no argument" ;; *) fail "r-simplify x" "$out" ;; esac

# ---- R profiles made by R (tests/data/rprof/rlang_line.out, src/make_rlang.R) --
# run_all is in every sample; the lapply callbacks are called from lines 5
# (square_all) and 8 (cube_all) of rlang_workload.R; no JIT frames.
rl=$SRCDIR/tests/data/rprof/rlang_line.out
a=$("$S" report --by line --format tsv "$rl")
b=$("$S" report -e 'trim-base auto' --by line --format tsv "$rl")
[ "$a" = "$b" ] && pass "R-made: trim-base auto keeps every line statistic" || fail "R-made: trim-base auto lines" "$(diff <(echo "$a") <(echo "$b") | head -n 4)"
c=$("$S" report -e 'trim-base auto,all' --by line --format tsv "$rl")
[ "$a" != "$c" ] && pass "R-made: auto,all changes them (the check can fail)" || fail "R-made: auto,all" "same lines"
out=$("$S" report -e 'trim-base auto' --by total --format tsv "$rl" | awk -F'\t' '$1 == "run_all" { print $5 }')
[ "$out" = 100 ] && pass "R-made: run_all stays, in every sample" || fail "R-made: run_all" "$out"
# name-anonymous: FUN's samples under square_all / cube_all, counted on the raw lines
na=$(grep '"FUN"' "$rl" | grep -c '"square_all"')
nb=$(grep '"FUN"' "$rl" | grep -c '"cube_all"')
out=$("$S" report -e name-anonymous --by total --format tsv "$rl" | awk -F'\t' '$1 ~ /^FUN/ { printf "%s=%.0f|", $1, $4 / 0.002 }' | tr -d '\n')
[ "$out" = "FUN@rlang_workload.R#8=$nb|FUN@rlang_workload.R#5=$na|" ] || [ "$out" = "FUN@rlang_workload.R#5=$na|FUN@rlang_workload.R#8=$nb|" ] &&
    [ "$na" -gt 0 ] && [ "$nb" -gt 0 ] &&
    pass "R-made: name-anonymous splits FUN into the two callbacks ($na, $nb samples)" ||
    fail "R-made: name-anonymous" "$out (want #5=$na, #8=$nb)"
# profvis (Debian's r-cran-profvis, src/make_rlang_profvis.R): without its
# simplify, its own frames (profvis::profvis, tryCatch..., force) and work()
# (no srcref) are the scaffold, trim-base auto cuts them all (10 levels) and
# keeps the lines; name-anonymous splits FUN as above
pv=$SRCDIR/tests/data/rprof/rlang_profvis_nosimplify.out
out=$("$S" report -e 'trim-base auto' --by transforms --format tsv "$pv" | awk -F'\t' 'NR == 2 { print $10 }')
[ "$out" = 10 ] && pass "profvis: trim-base auto cuts profvis's frames and work()" || fail "profvis: trim-base auto" "$out"
a=$("$S" report --by line --format tsv "$pv")
b=$("$S" report --preset r --by line --format tsv "$pv")
[ "$a" = "$b" ] && pass "profvis: --preset r keeps every line statistic" || fail "profvis: --preset r lines" "$(diff <(echo "$a") <(echo "$b") | head -n 4)"
na=$(grep '"FUN"' "$pv" | grep -c '"square_all"')
nb=$(grep '"FUN"' "$pv" | grep -c '"cube_all"')
out=$("$S" report -e name-anonymous --by total --format tsv "$pv" | awk -F'\t' '$1 ~ /^FUN/ { printf "%s=%.0f|", $1, $4 / 0.005 }' | tr -d '\n')
[ "$out" = "FUN@rlang_workload.R#8=$nb|FUN@rlang_workload.R#5=$na|" ] || [ "$out" = "FUN@rlang_workload.R#5=$na|FUN@rlang_workload.R#8=$nb|" ] &&
    [ "$na" -gt 0 ] && [ "$nb" -gt 0 ] &&
    pass "profvis: name-anonymous splits FUN ($na, $nb samples)" || fail "profvis: name-anonymous" "$out (want #5=$na, #8=$nb)"
# with its default simplify (filter.callframes), R 4.2 kept none of the
# profiled code's R functions: every sample is profvis::profvis running a
# line, under a builtin at most, so there is nothing to trim or name, and
# the lines stay
pv=$SRCDIR/tests/data/rprof/rlang_profvis.out
out=$(sed 1,2d "$pv" | sed 's/^:[0-9:]*://' | grep -v '"profvis::profvis" $' | grep -vc '^#')
[ "$out" = 0 ] && pass "profvis simplify: only profvis::profvis at the root" || fail "profvis simplify lines" "$out"
a=$("$S" report --by line --format tsv "$pv")
b=$("$S" report --preset r --by line --format tsv "$pv")
[ "$a" = "$b" ] && pass "profvis simplify: --preset r keeps every line statistic" || fail "profvis simplify: lines" "$(diff <(echo "$a") <(echo "$b") | head -n 4)"
# r-simplify: every self time equals summaryRprof's on the original, every
# function it does not merge keeps summaryRprof's total
if [ -n "${STACKSCOPE_NO_R:-}" ] || ! have Rscript; then
    echo "SKIP r-simplify against summaryRprof: no Rscript"
else
    for f in "$rl" "$SRCDIR/tests/data/rprof/line.out" "$SRCDIR/tests/data/rprof/filter_callframes.out" \
        "$SRCDIR/tests/data/rprof/rlang_profvis_nosimplify.out"; do
        "$S" report -e r-simplify --by self --format tsv "$f" >"$TMPD/rs.self" 2>/dev/null
        "$S" report -e r-simplify --by total --format tsv "$f" >"$TMPD/rs.total" 2>/dev/null
        "$S" report -e r-simplify --by transforms "$f" 2>/dev/null | sed -n 's/^r-simplify merges the frames of: //p' >"$TMPD/rs.list"
        Rscript -e 'args <- commandArgs(TRUE)
            s <- summaryRprof(args[1])
            rd <- function(p) read.delim(p, quote = "", check.names = FALSE, stringsAsFactors = FALSE)
            machinery <- strsplit(readLines(args[4]), ", ", fixed = TRUE)[[1]]
            if (length(machinery) < 10) stop("no machinery list")
            key <- function(r) gsub("^\"|\"$", "", rownames(r))
            bad <- character()
            ours <- rd(args[2]); r <- s$by.self
            rs <- setNames(r$self.time, key(r))
            for (i in seq_len(nrow(ours))) {
              want <- if (ours$name[i] %in% names(rs)) rs[[ours$name[i]]] else 0
              if (abs(round(ours$self.time[i], 3) - want) > 1e-9) bad <- c(bad, paste("self", ours$name[i]))
            }
            if (length(setdiff(names(rs), ours$name))) bad <- c(bad, "self rows lost")
            ours <- rd(args[3]); r <- s$by.total
            rt <- setNames(r$total.time, key(r))
            user <- setdiff(names(rt), machinery)
            for (n in user) {
              got <- ours$total.time[ours$name == n]
              if (length(got) != 1 || abs(round(got, 3) - rt[[n]]) > 1e-9) bad <- c(bad, paste("total", n))
            }
            if (length(bad)) { cat(head(bad), "\n"); quit(status = 1) }' \
            "$f" "$TMPD/rs.self" "$TMPD/rs.total" "$TMPD/rs.list" >"$TMPD/rout" 2>&1 &&
            pass "r-simplify on ${f##*/}: self times and non-machinery totals equal summaryRprof's" ||
            fail "r-simplify on ${f##*/} vs summaryRprof" "$(head -n 4 "$TMPD/rout" | tr '\n' '|')"
    done
    # Why there is no lazy-evaluation hint (man page, R PROFILES): R writes
    # the same sample line for g forced as h's argument and for h calling g.
    mkdir -p "$TMPD/lazy"
    printf 'busy <- function() { s <- 0; for (i in 1:300000) s <- s + sqrt(i); s }\nh <- function(x) x\nmain <- function() h(busy())\n' >"$TMPD/lazy/lazy.R"
    printf 'busy <- function() { s <- 0; for (i in 1:300000) s <- s + sqrt(i); s }\nh <- function(x) busy()\nmain <- function() h(NULL)\n' >"$TMPD/lazy/direct.R"
    for w in lazy direct; do
        (cd "$TMPD/lazy" && Rscript -e "invisible(compiler::enableJIT(0)); source('$w.R', keep.source = TRUE)
            Rprof('$w.out', interval = 0.005, line.profiling = TRUE); for (k in 1:4) main(); Rprof(NULL)") >/dev/null 2>&1
        sed '1,2d' "$TMPD/lazy/$w.out" | sort | uniq -c | sort -rn | awk 'NR == 1 { $1 = ""; print }' >"$TMPD/lazy/$w.modal"
    done
    [ -s "$TMPD/lazy/lazy.modal" ] && cmp -s "$TMPD/lazy/lazy.modal" "$TMPD/lazy/direct.modal" &&
        pass "lazy evaluation: R writes the same line for a forced promise and a direct call" ||
        fail "lazy evaluation lines" "$(cat "$TMPD/lazy/lazy.modal" "$TMPD/lazy/direct.modal" | tr '\n' '|')"
    out=$("$S" report -e r-simplify -e 'trim-base auto' --by stacks --format folded "$rl" | grep -c '^eval;run_all;guarded;busy')
    [ "$out" -gt 0 ] && pass "R-made: after r-simplify, busy is under guarded" || fail "R-made: busy under guarded" "$out"
fi

# ---- errors ------------------------------------------------------------------
"$S" report -e 'merge f' -e 'prune' "$tiny" >/dev/null 2>"$TMPD/err"
st=$?
grep -q "^stackscope: -e #2 column 6: expected a function name" "$TMPD/err" && [ $st -eq 1 ] &&
    pass "-e error names -e #N and the column" || fail "-e error" "status $st: $(cat "$TMPD/err")"
"$S" report --transform 'frob x' "$tiny" >/dev/null 2>"$TMPD/err"
st=$?
grep -q "^stackscope: -e #1 column 1: unknown command 'frob'" "$TMPD/err" && [ $st -eq 1 ] &&
    pass "--transform unknown command" || fail "--transform unknown" "status $st: $(cat "$TMPD/err")"
printf '# comment\nmerge f\nkeep-samples 0:3\n' >"$TMPD/bad.tf"
"$S" report --script "$TMPD/bad.tf" "$tiny" >/dev/null 2>"$TMPD/err"
st=$?
grep -q "^stackscope: $TMPD/bad.tf:3:14: sample numbers start at 1" "$TMPD/err" && [ $st -eq 1 ] &&
    pass "script error names FILE:LINE:COL" || fail "script error" "status $st: $(cat "$TMPD/err")"
"$S" report --script "$TMPD/nonexistent.tf" "$tiny" >/dev/null 2>"$TMPD/err"
st=$?
[ $st -eq 2 ] && grep -q "nonexistent.tf" "$TMPD/err" && pass "missing script: exit 2" ||
    fail "missing script" "status $st: $(cat "$TMPD/err")"
"$S" report -e >/dev/null 2>&1
[ $? -eq 1 ] && pass "-e without a value" || fail "-e without a value" "not a usage error"
"$S" convert -e 'drop' -o "$TMPD/x.folded" "$tiny" >/dev/null 2>"$TMPD/err"
st=$?
grep -q "^stackscope: -e #1 column 5: expected a function name" "$TMPD/err" && [ $st -eq 1 ] &&
    pass "convert -e error" || fail "convert -e error" "status $st: $(cat "$TMPD/err")"

# ---- convert writes the transformed profile -----------------------------------
conv() { # FORMAT-NAME OUT ARGS...: run convert, skip when the writer is pending
    what=$1
    shift
    if "$S" convert "$@" >"$TMPD/cout" 2>&1; then
        return 0
    fi
    if grep -q "not available yet" "$TMPD/cout"; then
        echo "SKIP convert $what: the writer is not there yet"
        return 1
    fi
    fail "convert $what" "$(cat "$TMPD/cout")"
    return 1
}
if conv folded -e 'merge f' -o "$TMPD/t.folded" "$tiny"; then
    want=$(printf 'main 1\nmain;g 2\nmain;h 1')
    got=$(LC_ALL=C sort "$TMPD/t.folded")
    [ "$got" = "$want" ] && pass "convert -e writes folded" || fail "convert folded" "$got"
fi
prof=$SRCDIR/tests/data/rprof/memory_line.out
set -- -e 'drop-samples 1:100' -e 'merge /^(FUN|lapply)$/' -e 'replace sample sample.int => SMP' \
    -e 'trim-base 2' -e 'collapse-recursion /./'
if conv rprof "$@" -o "$TMPD/t.out" "$prof"; then
    for by in self total line; do
        "$S" report "$@" --by $by --format tsv "$prof" >"$TMPD/ours.$by.tsv" 2>/dev/null
    done
    if [ -n "${STACKSCOPE_NO_R:-}" ] || ! have Rscript; then
        echo "SKIP convert rprof + summaryRprof: no Rscript"
    else
        # R rounds times to 3 decimals (1 ms interval) and leaves out rows
        # whose rounded time is 0; compare after doing the same to ours.
        Rscript -e 'args <- commandArgs(TRUE)
            cmp <- function(r, file, col) {
                ours <- read.delim(file, quote = "", check.names = FALSE, stringsAsFactors = FALSE)
                ours[[col]] <- round(ours[[col]], 3); ours <- ours[ours[[col]] > 0, ]
                theirs <- data.frame(key = gsub("^\"|\"$", "", rownames(r)), t = r[[col]])
                theirs <- theirs[theirs$t > 0, ] # by.line keeps rows of time 0
                m <- merge(theirs, data.frame(key = ours[[1]], u = ours[[col]]), all = TRUE)
                bad <- m[is.na(m$t) | is.na(m$u) | abs(m$t - m$u) > 1e-9, ]
                if (nrow(bad)) { cat(file, col, "\n"); print(head(bad)); quit(status = 1) }
            }
            f <- summaryRprof(args[1], memory = "none")
            cmp(f$by.self, args[2], "self.time"); cmp(f$by.total, args[3], "total.time")
            l <- summaryRprof(args[1], memory = "none", lines = "show")
            cmp(l$by.line, args[4], "self.time"); cmp(l$by.line, args[4], "total.time")' \
            "$TMPD/t.out" "$TMPD/ours.self.tsv" "$TMPD/ours.total.tsv" "$TMPD/ours.line.tsv" \
            >"$TMPD/rout" 2>&1 &&
            pass "convert -e to rprof: summaryRprof gives the transformed numbers (functions, lines)" ||
            fail "convert rprof + summaryRprof" "$(head -n 8 "$TMPD/rout" | tr '\n' '|')"
    fi
fi
# replace reads root first; the leaf-first order of Rprof lines gets a hint.
demo="$SRCDIR/data/demo.out"
"$STACKSCOPE" report -e 'replace "[" lapply .getXlevels => X' --by self "$demo" \
    >/dev/null 2>"$TMPD/hint.err"
grep -q "occur only leaf first" "$TMPD/hint.err" &&
    pass "replace in leaf-first order: a hint on stderr" ||
    fail "replace leaf-first hint" "$(cat "$TMPD/hint.err")"
"$STACKSCOPE" report -e 'replace .getXlevels lapply "[" => X' --by self --format tsv "$demo" \
    >"$TMPD/hint.tsv" 2>"$TMPD/hint2.err"
if grep -q "leaf first" "$TMPD/hint2.err"; then
    fail "replace root first: no hint" "$(cat "$TMPD/hint2.err")"
else
    awk -F'\t' '$1 == "X" && $4 > 0 { ok = 1 } END { exit !ok }' "$TMPD/hint.tsv" &&
        pass "replace root first: X has total time, no hint" ||
        fail "replace root first" "no X row"
fi

# Transforms that remove samples from the middle share the original's value
# columns through a row per kept sample (model.h: value_rows): the memory
# counters written back are the input's lines' own, awk picking the kept
# lines (two cuts, the second numbered on what the first left; a focus
# keeps the lines that hold the function).
prof=$SRCDIR/tests/data/rprof/memory_line.out
if conv rprof -e 'drop-samples 100:2000' -e 'drop-samples 500:600' -o "$TMPD/cut.out" "$prof"; then
    want=$(awk '/^:/ { k++; if (k >= 100 && k <= 2000) next; j++; if (j >= 500 && j <= 600) next
                       split($0, f, ":"); print f[2] ":" f[3] ":" f[4] ":" f[5] }' "$prof" | cksum)
    got=$(awk '/^:/ { split($0, f, ":"); print f[2] ":" f[3] ":" f[4] ":" f[5] }' "$TMPD/cut.out" | cksum)
    [ "$want" = "$got" ] && pass "convert -e drop-samples twice: each kept sample's memory counters as awk keeps them" ||
        fail "drop-samples memory counters" "want $want, got $got"
fi
if conv rprof -e 'focus paste' -o "$TMPD/focus.out" "$prof"; then
    want=$(awk '/^:/ && / "paste" |"paste" / { split($0, f, ":"); print f[2] ":" f[3] ":" f[4] ":" f[5] }' "$prof" | cksum)
    got=$(awk '/^:/ { split($0, f, ":"); print f[2] ":" f[3] ":" f[4] ":" f[5] }' "$TMPD/focus.out" | cksum)
    [ "$want" = "$got" ] && pass "convert -e focus: each kept sample's memory counters as awk keeps them" ||
        fail "focus memory counters" "want $want, got $got"
fi
# A kept sample keeps its memory: its bytes are against the line its
# session recorded before it, kept or not (a removed stretch's allocations
# are nobody's), so after a burn-in cut, a middle cut or a focus, memory
# and released per function are awk's per-line bytes over the whole
# original file, summed over the kept lines only: self by each kept line's
# leaf, total by each function on it (focus: the function's own total; the
# stacks above it are cut, and each function's self).
mem_awk() { # file kind(memory|released) lo hi focus -> name<TAB>self<TAB>total
    awk -v kind="$2" -v lo="$3" -v hi="$4" -v fo="$5" '
        /^memory profiling:/ { first = 1; next }
        !/^:/ { next }
        { split($0, f, ":"); k++
          b = 0
          if (!first) {
              ds = f[2] - ps; db = f[3] - pb; dn = f[4] - pn
              if (kind == "memory") b = (ds > 0 ? 8 * ds : 0) + (db > 0 ? 8 * db : 0) + (dn > 0 ? dn : 0)
              else b = 8 * (ds + db) < 0 ? -8 * (ds + db) : 0
          }
          first = 0; ps = f[2]; pb = f[3]; pn = f[4]
          if (k >= lo && k <= hi) next
          line = $0; n = 0; split("", seen); leaf = ""
          while (match(line, /"[^"]*"/)) {
              nm = substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH)
              if (leaf == "") leaf = nm
              names[++n] = nm
          }
          if (fo != "") { keep = 0; for (i = 1; i <= n; i++) keep = keep || names[i] == fo
                          if (!keep) next }
          if (leaf != "") self[leaf] += b
          for (i = 1; i <= n; i++) if (!(names[i] in seen)) { seen[names[i]] = 1; tot[names[i]] += b }
        }
        END { for (nm in tot) if (fo == "" ? self[nm] + tot[nm] > 0 : self[nm] > 0 || nm == fo)
                  printf "%s\t%.0f\t%.0f\n", nm, self[nm], (fo == "" || nm == fo) ? tot[nm] : -1 }' "$1" | sort
}
prof=$SRCDIR/tests/data/rprof/memory_line.out
for kind in memory released; do
    for cut in 'drop-samples 1:300|1|300|' 'drop-samples 100:2000|100|2000|' 'focus paste|0|0|paste'; do
        IFS='|' read -r tf lo hi fo <<<"$cut"
        want=$(mem_awk "$prof" "$kind" "$lo" "$hi" "$fo")
        got=$("$S" report --value "$kind" --by total --format tsv -e "$tf" "$prof" |
            awk -F'\t' -v fo="$fo" 'NR > 1 && (fo == "" ? $2 + $4 > 0 : $2 > 0 || $1 == fo) {
                printf "%s\t%.0f\t%.0f\n", $1, $2, (fo == "" || $1 == fo) ? $4 : -1 }' | sort)
        [ -n "$want" ] && [ "$want" = "$got" ] &&
            pass "$kind after $tf: each kept sample keeps its bytes (awk over the whole file, kept lines summed)" ||
            fail "$kind after $tf" "$(diff <(echo "$want") <(echo "$got") | head -n 4 | tr '\n' '|')"
    done
done
finish
