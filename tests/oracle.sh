#!/bin/sh
# Oracle test: stackscope's `report --format tsv` numbers on every fixture
# under tests/data/rprof and tests/data/edge-cases, and on the files the R
# profile package wrote (tests/data/peers/profile-pkg), checked two ways:
#
#  (a) against R's summaryRprof (tests/oracle/summaryrprof.R), compared by
#      tests/oracle/compare.R with R's rounding; only on files R reads
#      correctly (compare.R decides and says why not); only if Rscript is on
#      PATH (STACKSCOPE_NO_R=1 turns it off);
#  (b) always, against the independent parser's answers in NAME.indep/
#      (tests/oracle/indep.awk): exact times, names, pct and row order.
#
# Run by `make check` (STACKSCOPE, SRCDIR, BUILDDIR come from the environment)
# or by hand:  sh tests/oracle.sh [FILE.out...]
# Prints "PASS name" or "FAIL name: reason" per file, then "N passed, M failed";
# exits 1 if any failed, 77 (skipped) if there is no stackscope binary.

# shellcheck source=tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_stackscope

oracle_dir=$SRCDIR/tests/oracle
LC_ALL=C
export LC_ALL

use_r=no
if [ -n "${STACKSCOPE_NO_R:-}" ]; then
    echo "SKIP R comparison: STACKSCOPE_NO_R is set"
elif have Rscript; then
    use_r=yes
else
    echo "SKIP R comparison: Rscript not found (comparing with the independent answers only)"
fi

# field N (1-based) of row ROW (1 = first data row) of a TSV file
tsv_field() {
    awk -F '\t' -v row="$2" -v col="$3" 'NR == row + 1 { print $col; exit }' "$1"
}

# check_file FILE: prints PASS/FAIL for one fixture
check_file() {
    f=$1
    name=$(basename "$f" .out)
    label=$(basename "$(dirname "$f")")/$name
    indep=${f%.out}.indep
    w=$TMPD/$name
    rm -rf "$w"
    mkdir -p "$w/ours" "$w/r"
    problems=$w/problems
    : >"$problems"

    if [ ! -f "$indep/sessions.tsv" ]; then
        fail "$label" "no $indep/sessions.tsv"
        return
    fi
    nsessions=$(($(wc -l <"$indep/sessions.tsv") - 1))
    header=$(head -c 300 "$f" | tr '\r' '\n' | head -n 1)
    is_line=no
    is_mem=no
    case $header in *"line profiling"*) is_line=yes ;; esac
    case $header in memory*) is_mem=yes ;; esac

    # -- stackscope's tables
    "$STACKSCOPE" report --by self --format tsv "$f" >"$w/ours/self.tsv" 2>"$w/ours/self.err"
    rc=$?
    if [ "$nsessions" -eq 0 ]; then
        # no header at all (an empty file): bad input, or an empty table
        if [ $rc -eq 2 ] && [ -s "$w/ours/self.err" ]; then
            pass "$label (rejected: $(head -n 1 "$w/ours/self.err"))"
        elif [ $rc -eq 0 ] && [ "$(wc -l <"$w/ours/self.tsv")" -le 1 ]; then
            pass "$label (empty table)"
        else
            fail "$label" "no header line: want exit 2 with a message or an empty table, got exit $rc"
        fi
        return
    fi
    if [ $rc -ne 0 ]; then
        fail "$label" "report --by self exited $rc: $(head -n 1 "$w/ours/self.err")"
        return
    fi
    for what in total line mem; do
        case $what in
            total) opts="--by total" ;;
            line) [ $is_line = yes ] || continue; opts="--by line" ;;
            mem) [ $is_mem = yes ] || continue; opts="--by self --memory" ;;
        esac
        # shellcheck disable=SC2086
        if ! "$STACKSCOPE" report $opts --format tsv "$f" >"$w/ours/$what.tsv" 2>"$w/ours/$what.err"; then
            echo "  report $opts exited non-zero: $(head -n 1 "$w/ours/$what.err")" >>"$problems"
        fi
    done

    # -- (b) the independent answers
    if [ "$nsessions" -eq 1 ]; then
        interval_us=$(tsv_field "$indep/sessions.tsv" 1 3)
        interval=$(awk -v us="$interval_us" 'BEGIN { printf "%.17g", us / 1e6 }')
        expect=functions
        expfile=$indep/functions.tsv
    elif awk -F '\t' 'NR > 1 && index($1, ";") { bad = 1 } END { exit !bad }' "$indep/functions.tsv"; then
        echo "  cannot check: several sessions and labels containing ';'" >>"$problems"
        expect=none
        expfile=$indep/sessions.tsv
    else
        interval=
        expect=stacks
        expfile=$indep/stacks.tsv
    fi
    # The independent memory column differences across session boundaries;
    # stackscope (as R on each session) restarts at every session.
    nmemsessions=$(awk -F '\t' 'NR > 1 && $4 == "TRUE" { n++ } END { print n + 0 }' "$indep/sessions.tsv")
    memcheck=0
    if [ $is_mem = yes ] && [ "$nmemsessions" -le 1 ] &&
        head -n 1 "$indep/functions.tsv" | grep -q mem_total_MB_unrounded; then
        memcheck=1
    fi
    for what in self total mem line; do
        [ -s "$w/ours/$what.tsv" ] || continue
        case $what in
            mem)
                # the time columns must be those of --by self
                cut -f 1-5 "$w/ours/mem.tsv" | tail -n +2 >"$w/ours/mem5.tsv"
                tail -n +2 "$w/ours/self.tsv" | cmp -s - "$w/ours/mem5.tsv" ||
                    echo "  --by self --memory: the first five columns differ from --by self" >>"$problems"
                [ $memcheck = 1 ] || continue
                awk -F '\t' -f "$oracle_dir/indep.awk" -v table=self -v mem=1 \
                    -v times=0 -v expect=functions -v interval=1 \
                    "$indep/functions.tsv" "$w/ours/mem.tsv" >>"$problems" ;;
            line)
                awk -F '\t' -f "$oracle_dir/indep.awk" -v table=line -v expect=none \
                    "$indep/sessions.tsv" "$w/ours/line.tsv" >>"$problems" ;;
            *)
                awk -F '\t' -f "$oracle_dir/indep.awk" -v table="$what" \
                    -v expect="$expect" -v interval="$interval" \
                    "$expfile" "$w/ours/$what.tsv" >>"$problems" ;;
        esac
    done

    # -- (a) R
    note=
    if [ $use_r = yes ]; then
        Rscript "$oracle_dir/summaryrprof.R" "$f" "$w/r" >"$w/r.log" 2>&1 ||
            echo "  summaryrprof.R failed: $(tail -n 1 "$w/r.log")" >>"$problems"
        Rscript "$oracle_dir/compare.R" "$w/r" "$w/ours" "$indep" "$f" >"$w/cmp.out" 2>&1
        case $? in
            0) note=" (R and independent)" ;;
            2) note=" (independent only; $(sed -n 's/^skip R: //p' "$w/cmp.out" | cut -c1-160))" ;;
            *) cat "$w/cmp.out" >>"$problems" ;;
        esac
        grep '^note:' "$w/cmp.out" | sed 's/^/  /' >"$w/notes"
    fi

    if [ -s "$problems" ]; then
        fail "$label" "$(grep -c . "$problems") problem(s)"
        cat "$problems"
    else
        pass "$label$note"
        [ -s "$w/notes" ] 2>/dev/null && cat "$w/notes"
    fi
    return 0
}

if [ $# -gt 0 ]; then
    for f in "$@"; do check_file "$f"; done
else
    for f in "$SRCDIR"/tests/data/rprof/*.out "$SRCDIR"/tests/data/edge-cases/*.out \
        "$SRCDIR"/tests/data/peers/profile-pkg/*.profilepkg.out \
        "$SRCDIR"/tests/data/peers/profile-pkg/1.out; do
        check_file "$f"
    done
fi
finish
