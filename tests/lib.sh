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

test_dir=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$test_dir/.." && pwd)}"
: "${BUILDDIR:=$SRCDIR}"
: "${STACKSCOPE:=$BUILDDIR/stackscope}"
export SRCDIR BUILDDIR STACKSCOPE

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
    elif PPROF=$(sh "$SRCDIR/scripts/build-pprof.sh" "$BUILDDIR/tests/pprof-tool" 2>"$TMPD/build-pprof.log"); then
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
# suffixes and pprof's " (inline)" mark dropped), then a last row
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
                $n =~ s/ \(inline\)$//; # a function inlined at every call site
                print "$n\t$f\t$c\n";
            }
            END { print "<total>\t", (defined $total ? $total : 0), "\t\n" }'
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
