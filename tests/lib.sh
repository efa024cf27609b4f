# Shared helpers for stackscope's shell tests. Source it from a test:
#   . "$(dirname "$0")/lib.sh"
# It sets SRCDIR, BUILDDIR and STACKSCOPE (from `make check`'s environment, or
# defaults for running a test by hand from anywhere), makes a scratch directory
# $TMPD that is removed on exit, and keeps pass/fail counts.
#
#   pass NAME            count a pass and print "PASS NAME"
#   fail NAME REASON     count a failure and print "FAIL NAME: REASON"
#   skip_test REASON     print "SKIP: REASON" and exit 77 (automake: skipped)
#   finish               print "N passed, M failed"; exit 1 if any failed
#   have CMD             true if CMD is on PATH
#   need_stackscope      skip the test when the binary is missing
#   setup_go_pprof       build Go's pprof (sets PPROF, empty when it cannot)
#   pp ARGS...           run Go's pprof in the scratch directory
#   top_tsv FILE ARGS... `pprof -top` as name/flat/cum rows
#   same_numbers A B     compare two name/x/y files numerically
#   same_tsv A B         two TSV files equal field by field, numbers within
#                        1e-12 (relative); prints the first difference
#   check NAME WHY       pass NAME when WHY is empty, else fail it with WHY
#   has FILE TEXT        true if FILE contains TEXT (a fixed string)
#   line N FILE          line N (1-based) of FILE
#   message DUMP         the message line of a screen dump: a message longer
#                        than the screen takes up to three rows at the bottom
#                        (the status line, which starts with a blank, moves
#                        up above it); its rows joined by blanks
#   run ARGS...          stackscope ARGS (no stdin, 10 s at most); sets RC,
#                        OUT and ERR; a sanitizer report fails on its own
#   ss ARGS...           stackscope ARGS with stdout left to the caller
#                        (120 s at most); sets RC and ERR (its first 4000
#                        bytes), returns RC; a sanitizer report fails
#   ui NAME ARGS...      the explorer headless on ARGS, the script on stdin,
#                        in which "DUMP X" saves the screen as $TMPD/NAME.X
#                        ("STYLES X" its styles, a letter per cell, as
#                        $TMPD/NAME.X.styles)
#                        and @T@, @DEMO@ stand for $TMPD and $DEMO; output
#                        in $TMPD/NAME.stdout and .err, RC and ERR set; a
#                        sanitizer report or a non-zero exit fails
#                        (UI_LOCALE: the locale, C.UTF-8 by default)

test_dir=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$test_dir/.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
: "${STACKSCOPE:=$BUILDDIR/stackscope}"
# Go's pprof and Go's build cache: one directory for the whole suite;
# scripts/test.sh points every build tree (normal, sanitizers, distcheck)
# at the same one, so Go's pprof is built once per CI run, not four times.
: "${STACKSCOPE_GO_DIR:=$BUILDDIR/tests/pprof-tool}"
export SRCDIR BUILDDIR STACKSCOPE STACKSCOPE_GO_DIR

n_pass=0
n_fail=0

TMPD=$(mktemp -d "${TMPDIR:-/tmp}/stackscope-test.XXXXXX") || exit 99
trap 'rm -rf "$TMPD"' EXIT
# The explorer keeps each session's transform list under $XDG_STATE_HOME
# (man page: FILES): never in the home directory of whoever runs the tests.
export XDG_STATE_HOME=$TMPD/state
trap 'exit 130' INT
trap 'exit 143' TERM

pass() {
    n_pass=$((n_pass + 1))
    echo "PASS $1"
}

fail() {
    n_fail=$((n_fail + 1))
    echo "FAIL $1: $2"
}

skip_test() {
    echo "SKIP: $1"
    exit 77
}

finish() {
    echo "$n_pass passed, $n_fail failed"
    [ "$n_fail" -eq 0 ]
    exit $?
}

have() {
    command -v "$1" >/dev/null 2>&1
}

need_stackscope() {
    [ -x "$STACKSCOPE" ] || skip_test "no stackscope binary at $STACKSCOPE"
}

# setup_go_pprof: build Go's pprof offline (scripts/build-pprof.sh) into the
# build tree; PPROF is its path, or empty (with a SKIP line) when it cannot.
setup_go_pprof() {
    PPROF=
    if [ -n "${STACKSCOPE_NO_GO:-}" ]; then
        echo "SKIP Go pprof checks: STACKSCOPE_NO_GO is set"
    elif PPROF=$(sh "$SRCDIR/scripts/build-pprof.sh" "$STACKSCOPE_GO_DIR" 2>"$TMPD/build-pprof.log"); then
        :
    else
        echo "SKIP Go pprof checks: could not build Go's pprof ($(tail -n 1 "$TMPD/build-pprof.log"))"
        PPROF=
    fi
    mkdir -p "$TMPD/home"
}

# pp ARGS...: Go's pprof with TZ=UTC and HOME in the scratch directory.
pp() {
    TZ=UTC HOME=$TMPD/home PPROF_TMPDIR=$TMPD/home PPROF_BINARY_PATH=/nonexistent "$PPROF" "$@"
}

# top_tsv FILE ARGS...: `pprof -top` as "name<TAB>flat<TAB>cum" rows (unit
# suffixes and pprof's " (inline)" and " (partial-inline)" marks dropped:
# pprof -top marks a function node by whether its callers inlined it), then a last row
# "<total><TAB>TOTAL<TAB>".
top_tsv() {
    local f=$1
    shift
    pp -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 "$@" "$f" 2>/dev/null |
        perl -ne '
            if (/ of (-?[0-9.]+)[a-zA-Z]* total/) { $total = $1; next }
            if (/^\s*flat\s+flat%/) { $on = 1; next }
            next unless $on;
            if (/^\s*(-?[0-9.]+)[a-zA-Z]*\s+\S+\s+\S+\s+(-?[0-9.]+)[a-zA-Z]*\s+\S+\s\s(.*)$/) {
                my ($f, $c, $n) = ($1, $2, $3);
                $n =~ s/ \((partial-)?inline\)$//; # a node reached (only or partly) through inlined calls
                print "$n\t$f\t$c\n";
            }
            END { print "<total>\t", (defined $total ? $total : 0), "\t\n" }'
}

# same_tsv A B: two TSV files equal field by field, numbers within 1e-12
# of each other (relative, plus 1e-12 for a 0: the same sums made in
# another order); prints the first difference.
same_tsv() {
    awk -F '\t' '
        function abs(v) { return v < 0 ? -v : v }
        function num(v) { return v ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ }
        NR == FNR { w[FNR] = $0; n = FNR; next }
        { m = FNR
          if (FNR > n) { print "line " FNR ": only in the second"; exit }
          k = split(w[FNR], x, "\t")
          if (k != NF) { print "line " FNR ": " k " fields, then " NF; exit }
          for (i = 1; i <= NF; i++)
              if (x[i] != $i && !(num(x[i]) && num($i) &&
                                  abs(x[i] - $i) <= 1e-12 * (abs(x[i]) + abs($i)) + 1e-12)) {
                  print "line " FNR ": " w[FNR] " | " $0; exit } }
        END { if (m < n) print "line " m + 1 ": only in the first" }' "$1" "$2"
}

# same_numbers A B: the two "name<TAB>x<TAB>y" files hold the same names
# with equal numbers (relative 1e-9, or 0.5 absolute); prints the first
# difference.
same_numbers() {
    awk -F '\t' '
        function bad(a, b) { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b;
                             return d > 0.5 && d > 1e-9 * m }
        NR == FNR { x[$1] = $2; y[$1] = $3; n++; next }
        { seen++
          if (!($1 in x)) { print "only in the second: " $1; exit 1 }
          if (bad(x[$1], $2) || bad(y[$1], $3)) {
              print $1 ": " x[$1] " " y[$1] " vs " $2 " " $3; exit 1 }
          delete x[$1] }
        END { if (seen != n) { for (k in x) { print "only in the first: " k; exit 1 } } }
    ' "$1" "$2"
}

# check NAME WHY: pass NAME when WHY is empty, else fail it with WHY.
check() {
    if [ -z "$2" ]; then pass "$1"; else fail "$1" "$2"; fi
}

has() { grep -qF -- "$2" "$1"; }

line() { sed -n "${1}p" "$2"; }

message() {
    tail -n 3 "$1" | awk '{ r[NR] = $0 } END {
        k = NR; while (k > 1 && NR - k < 2 && r[k - 1] != "" && substr(r[k - 1], 1, 1) != " ") k--
        s = r[k]; for (i = k + 1; i <= NR; i++) s = s " " r[i]; print s }'
}

# sanitized WHAT: fail WHAT when $ERR holds a sanitizer report.
sanitized() {
    if [[ $ERR == *Sanitizer* || $ERR == *"runtime error"* ]]; then
        fail "$1" "$(echo "$ERR" | grep -m 1 -E 'Sanitizer|runtime error')"
    fi
}

run() {
    timeout 10 "$STACKSCOPE" "$@" >"$TMPD/out" 2>"$TMPD/err" </dev/null
    RC=$?
    OUT=$(cat "$TMPD/out")
    ERR=$(cat "$TMPD/err")
    sanitized "sanitizer: stackscope $*"
}

ss() {
    timeout 120 "$STACKSCOPE" "$@" 2>"$TMPD/ss.err" </dev/null
    RC=$?
    ERR=$(head -c 4000 "$TMPD/ss.err")
    sanitized "sanitizer: stackscope $*"
    return $RC
}

ui() {
    local name=$1
    shift
    sed -e "s|^DUMP \(.*\)|:save-display $TMPD/$name.\1|" -e "s|^STYLES \(.*\)|:save-styles $TMPD/$name.\1.styles|" -e "s|@T@|$TMPD|g" -e "s|@DEMO@|${DEMO:-}|g" \
        >"$TMPD/$name.script"
    LC_ALL=${UI_LOCALE:-C.UTF-8} STACKSCOPE_SCRIPT=$TMPD/$name.script timeout 20 "$STACKSCOPE" "$@" \
        >"$TMPD/$name.stdout" 2>"$TMPD/$name.err" </dev/null
    RC=$?
    ERR=$(cat "$TMPD/$name.err")
    sanitized "$name: sanitizer"
    if [ "$RC" -ne 0 ]; then
        fail "$name: exit status" "$RC: $(head -c 300 "$TMPD/$name.err")"
    fi
}
