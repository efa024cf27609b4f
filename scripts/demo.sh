#!/bin/sh
# Build stackscope and open the bundled demo profile (data/demo.out).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/deps.sh" build
"$top/scripts/build.sh" build
exec "$top/build/stackscope" "$@"
