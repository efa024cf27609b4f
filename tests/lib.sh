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
