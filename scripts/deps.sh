#!/bin/sh
# Install the Debian packages stackscope needs, only those that are missing.
#   scripts/deps.sh build   compiler, autotools, libraries (the default)
#   scripts/deps.sh test    build + what the tests use (R and testthat, tmux, valgrind,
#                           Go's pprof, chromium, clang for its sanitizers)
#   scripts/deps.sh fuzz    build + clang and libFuzzer for scripts/fuzz.sh (not
#                           needed by the tests: `make check` replays the kept
#                           fuzz inputs with the normal compiler)
# Runs apt-get as root, or through sudo when available.
set -eu
what=${1:-build}
pkgs="gcc make autoconf automake pkg-config libncurses-dev zlib1g-dev libdeflate-dev
      libprotobuf-c-dev protobuf-c-compiler check"
if [ "$what" = test ]; then
    pkgs="$pkgs r-base-core tmux valgrind time clang-format"
    # testthat: the R package's tests (scripts/test.sh, R CMD check)
    pkgs="$pkgs r-cran-testthat"
    # profvis: the code pane's memory per line against its own (tests/source.sh)
    pkgs="$pkgs r-cran-profvis"
    # Go's pprof, built offline by scripts/build-pprof.sh (tests/pprof.sh)
    pkgs="$pkgs golang-go golang-github-google-pprof-dev
          golang-github-ianlancetaylor-demangle-dev golang-github-chzyer-readline-dev"
    # Node: real .cpuprofile files and the JSON references (tests/producers.sh)
    pkgs="$pkgs nodejs"
    # perf: real perf record captures (tests/producers.sh; skipped where the
    # kernel forbids perf events)
    pkgs="$pkgs linux-perf"
    # gperftools' CPU profiler: a real binary profile, named when refused
    # (tests/producers.sh)
    pkgs="$pkgs libgoogle-perftools4"
    # Chromium, headless: the SVG flame graph in a real browser (tests/flame.sh)
    pkgs="$pkgs chromium"
    # xmllint: the SVG is well-formed XML whatever the names (tests/limits.sh)
    pkgs="$pkgs libxml2-utils"
    # clang's UBSan checks what gcc's does not (a null pointer plus an
    # offset): scripts/test.sh runs make check under it too
    pkgs="$pkgs clang libclang-rt-14-dev"
fi
if [ "$what" = fuzz ]; then
    pkgs="$pkgs clang libclang-rt-14-dev"
fi
missing=""
for p in $pkgs; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "scripts/deps.sh: installing:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q >/dev/null
# shellcheck disable=SC2086
$sudo apt-get install -y -q --no-install-recommends $missing >/dev/null
