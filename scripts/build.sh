#!/bin/sh
# Configure and build stackscope out of tree in DIR (default build/), with
# extra configure arguments after DIR.  Re-running only rebuilds.  With
# STACKSCOPE_BUILD_PROGRESS=1 (scripts/demo.sh) it says what it does and
# counts the files compiled, on standard error.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build}
[ $# -gt 0 ] && shift
progress=${STACKSCOPE_BUILD_PROGRESS:-}
say() { [ -z "$progress" ] || printf '  %s\n' "$*" >&2; }
cd "$top"
if [ ! -x configure ]; then
    say "autoreconf: making ./configure"
    autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
fi
mkdir -p "$dir"
cd "$dir"
if [ ! -f Makefile ]; then
    say "configure --enable-werror $*"
    "$top/configure" --enable-werror "$@" >/dev/null
fi
jobs=$(nproc 2>/dev/null || echo 2)
if [ -z "$progress" ]; then
    make -j"$jobs" >/dev/null
    exit
fi
say "make -j$jobs"
# make's "CC file.o" lines, counted on one line; its status kept in a file
# (a pipe loses it in sh)
status=$(mktemp "${TMPDIR:-/tmp}/stackscope-build.XXXXXX")
trap 'rm -f "$status"' EXIT
{ make -j"$jobs" 2>&1 || echo $? >"$status"; } | awk '
    /^ *(CC|CCLD|AR|GEN) / { n++; printf "\r  compiled %d files", n > "/dev/stderr"; next }
    /[Ee]rror|[Ww]arning/ { print > "/dev/stderr" }
    END { if (n) printf "\n" > "/dev/stderr" }'
[ ! -s "$status" ] || exit "$(cat "$status")"
