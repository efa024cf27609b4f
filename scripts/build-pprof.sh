#!/bin/sh
# Build Google's pprof command (the test oracle for stackscope's pprof reader
# and writer) offline from the Go sources Debian ships.
#
#   scripts/build-pprof.sh DIR     build DIR/pprof (DIR/cache holds Go's build
#                                  cache); print the path of the binary
#
# Needs the Debian packages golang-go, golang-github-google-pprof-dev,
# golang-github-ianlancetaylor-demangle-dev and golang-github-chzyer-readline-dev
# (`scripts/deps.sh test` installs them).  Nothing is downloaded: GOPATH mode
# over /usr/share/gocode, GOPROXY=off, no cgo.  When DIR/pprof exists and is
# newer than the pprof sources it is reused, so tests can call this every
# time.  Exit status: 0 built or reused, 1 missing packages or a failed build.
set -eu
dir=${1:?usage: scripts/build-pprof.sh DIR}
gocode=/usr/share/gocode
src=$gocode/src/github.com/google/pprof

if ! command -v go >/dev/null 2>&1; then
    echo "build-pprof.sh: no 'go' command (Debian: golang-go; run scripts/deps.sh test)" >&2
    exit 1
fi
for d in github.com/google/pprof github.com/ianlancetaylor/demangle github.com/chzyer/readline; do
    if [ ! -d "$gocode/src/$d" ]; then
        echo "build-pprof.sh: $gocode/src/$d is missing (run scripts/deps.sh test)" >&2
        exit 1
    fi
done

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bin=$dir/pprof
# Tests run in parallel (make -j): one build at a time, the others wait.
if command -v flock >/dev/null 2>&1; then
    exec 9>"$dir/.lock"
    flock 9
fi
if [ -x "$bin" ] && [ -z "$(find "$src" -newer "$bin" -name '*.go' 2>/dev/null | head -n 1)" ]; then
    echo "$bin"
    exit 0
fi

# A private environment: no module mode, no proxy, no user settings.
GO111MODULE=off GOPATH=$dir/gopath:$gocode GOPROXY=off GOSUMDB=off GOFLAGS= \
    GOTOOLCHAIN=local GOTELEMETRY=off GOENV=off CGO_ENABLED=0 \
    GOCACHE=$dir/cache HOME=$dir \
    go build -trimpath -o "$bin.tmp" github.com/google/pprof >&2 || {
    rm -f "$bin.tmp"
    echo "build-pprof.sh: go build failed" >&2
    exit 1
}
mv -f "$bin.tmp" "$bin"
echo "$bin"
