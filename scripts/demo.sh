#!/bin/sh
# Build stackscope and open the bundled demo profile (data/demo.out), saying
# what it does while it builds (the first build takes about a minute).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
say() { printf 'demo: %s\n' "$*" >&2; }
say "1/3 checking the compiler and libraries (scripts/deps.sh build; apt-get installs what is missing)"
"$top/scripts/deps.sh" build
if [ -x "$top/build/stackscope" ]; then
    say "2/3 bringing build/ up to date (scripts/build.sh)"
else
    say "2/3 building into build/ (scripts/build.sh; about a minute the first time)"
fi
STACKSCOPE_BUILD_PROGRESS=1 "$top/scripts/build.sh" build
say "3/3 opening data/demo.out (an Rprof of data/demo/regression.R): the bottom line lists the keys, ? the help, q quits"
exec "$top/build/stackscope" "$@"
