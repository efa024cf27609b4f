#!/bin/sh
# Configure and build stackscope out of tree in DIR (default build/), with
# extra configure arguments after DIR.  Re-running only rebuilds.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build}
[ $# -gt 0 ] && shift
cd "$top"
[ -x configure ] || autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
mkdir -p "$dir"
cd "$dir"
[ -f Makefile ] || "$top/configure" --enable-werror "$@" >/dev/null
make -j"$(nproc 2>/dev/null || echo 2)" >/dev/null
