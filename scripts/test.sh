#!/bin/sh
# Build stackscope and run every test: the normal build's `make check`
# (unit tests, CLI, bad input, oracle tests against R), R CMD check of the R
# package in r/ against that build, the same suite built
# with AddressSanitizer + UndefinedBehaviorSanitizer by gcc and by clang, valgrind on the unit
# tests and a few reports, and `make distcheck`.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
"$top/scripts/deps.sh" test
# Go's pprof (a test oracle) is built once for every build tree below.
STACKSCOPE_GO_DIR=$top/build/go-oracle
export STACKSCOPE_GO_DIR

passed=0
failed=0
step() { # step NAME COMMAND...: run, count, keep going
    name=$1
    shift
    echo "== $name"
    if "$@"; then
        passed=$((passed + 1))
        echo "== $name: ok"
    else
        failed=$((failed + 1))
        echo "== $name: FAILED"
    fi
}
show_logs() { # print the logs of failed automake tests in DIR
    for f in "$1"/tests/*.log; do
        [ -f "$f" ] || continue
        grep -q '^:test-result: \(FAIL\|ERROR\)' "${f%.log}.trs" 2>/dev/null && { echo "---- $f"; tail -n 60 "$f"; }
    done
    return 1
}
check_in() { # check_in DIR CONFIGURE-ARGS... (SS_TESTS set: only those tests)
    dir=$1
    shift
    "$top/scripts/build.sh" "$dir" "$@" &&
        (cd "$dir" && make -j2 check ${SS_TESTS:+TESTS="$SS_TESTS"} >/dev/null 2>&1 || show_logs .) &&
        for f in "$dir"/tests/*.log; do
            printf '%s: ' "${f##*/}"
            grep -E '^[0-9]+ passed, [0-9]+ failed|Checks: [0-9]+' "$f" | tail -n 1
        done
}
valgrind_run() {
    vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
    CK_FORK=no $vg build/tests/check_unit >/dev/null 2>build/valgrind.log || { cat build/valgrind.log; return 1; }
    for f in tests/data/rprof/memory_line.out tests/data/rprof/append_mixed_flags.out tests/data/rprof/quirky_names_line.out; do
        for by in self line; do
            $vg build/stackscope report --by $by --memory --format tsv "$f" >/dev/null 2>build/valgrind.log ||
                { [ $? -eq 99 ] && { cat build/valgrind.log; return 1; }; }
        done
    done
}

step "build and make check" check_in build
# The R package (r/): R CMD build, then R CMD check, which installs it into a
# temporary library and runs its tests (testthat) against the program just
# built (STACKSCOPE) and every Rprof fixture of the suite
# (STACKSCOPE_TESTDATA); no errors, no warnings.
rpkg_check() {
    d=$(mktemp -d) || return 1
    (cd "$d" && R CMD build --no-build-vignettes "$top/r" >build.log 2>&1 &&
        PATH="$top/build:$PATH" STACKSCOPE="$top/build/stackscope" \
            STACKSCOPE_TESTDATA="$top/tests/data" _R_CHECK_FORCE_SUGGESTS_=true \
            R CMD check --no-manual stackscope_*.tar.gz >check.log 2>&1)
    rc=$?
    status=$(grep '^Status:' "$d/check.log")
    echo "${status:-R CMD check did not finish}"
    case $rc:$status in
        "0:Status: OK" | "0:Status: "*NOTE*) ;;
        *) rc=1 ;;
    esac
    case $status in *WARNING* | *ERROR*) rc=1 ;; esac
    if [ $rc -ne 0 ]; then
        tail -n 40 "$d/build.log" "$d/check.log"
        tail -n 60 "$d"/stackscope.Rcheck/tests/testthat.Rout.fail 2>/dev/null
    else
        grep -B1 -A4 'NOTE$' "$d/check.log"
    fi
    rm -rf "$d"
    return $rc
}
step "R package: R CMD check" rpkg_check
# The sanitizers slow the unit tests several times: Check's per-test
# timeouts are stretched accordingly.
check_asan() {
    CK_TIMEOUT_MULTIPLIER=4
    export CK_TIMEOUT_MULTIPLIER
    check_in build-asan --enable-sanitizers
    rc=$?
    unset CK_TIMEOUT_MULTIPLIER
    return $rc
}
step "make check under ASan+UBSan" check_asan
# clang's UndefinedBehaviorSanitizer checks more than gcc's (pointer overflow:
# a null pointer plus an offset) and clang warns where gcc does not, so the
# code is built by clang with both sanitizers and the tests that drive the
# C code hardest for their time run under it: the unit tests, the fuzzers'
# inputs, the bad inputs and the command line.  The whole suite ran under
# gcc's sanitizers just before; under clang's, the round trips and the
# parallel loader alone ran for over 13 minutes of CI's 90.
CLANG_TESTS="tests/check_unit tests/check_ui tests/fuzz_replay_load tests/fuzz_replay_tables
tests/fuzz_replay_transform tests/fuzz_replay_write tests/fuzz_replay_ui tests/fuzz_replay_state
tests/fuzz_replay_cpuprofile tests/fuzz_replay_speedscope tests/fuzz_replay_perf
tests/fuzz_replay_gotext tests/bad-input.sh tests/cli.sh tests/escape.sh tests/trust.sh"
check_clang() {
    CK_TIMEOUT_MULTIPLIER=4 SS_TESTS=$(echo $CLANG_TESTS)
    export CK_TIMEOUT_MULTIPLIER SS_TESTS
    check_in build-clang --enable-sanitizers CC=clang
    rc=$?
    unset CK_TIMEOUT_MULTIPLIER SS_TESTS
    return $rc
}
step "make check under clang ASan+UBSan" check_clang
step "valgrind" valgrind_run
# distcheck: the tarball builds, installs and uninstalls cleanly and carries
# what the tests need.  The whole suite ran twice above (normal build, gcc's
# sanitizers): here the unit tests and the tests that read the fixtures and
# R's answers suffice.
DIST_TESTS="tests/check_unit tests/cli.sh tests/oracle.sh"
step "make distcheck" sh -c 'cd build && make -j2 distcheck TESTS="$1" >distcheck.log 2>&1 ||
    { tail -n 80 distcheck.log; exit 1; }' sh "$DIST_TESTS"
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
