#!/bin/bash
# Remake the small real profiles of tests/data/producers/ (the fuzz targets'
# seeds, scripts/fuzz.sh): run from this directory with node, perf, go and a
# built stackscope ($STACKSCOPE, default ../../../build/stackscope).  Each file
# is cut small (a fuzzer mutates small seeds faster); what is cut is said.
set -eu
S=${STACKSCOPE:-../../../build/stackscope}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p cpuprofile speedscope perf gotext

# cpuprofile: node --cpu-prof, every 3 ms for 60 ms
cat >"$tmp/work.js" <<'JS'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const busy = function () { let s = 0; for (let i = 0; i < 5; i++) s += fib(18); return s; };
function strings() { let a = []; for (let i = 0; i < 500; i++) a.push(String(i).repeat(3)); return a.join(''); }
const t0 = Date.now();
while (Date.now() - t0 < 60) { busy(); strings(); [1, 2, 3].map((x) => x * fib(10)); }
JS
(cd "$tmp" && node --cpu-prof --cpu-prof-dir prof --cpu-prof-interval 3000 work.js)
cp "$tmp"/prof/*.cpuprofile cpuprofile/node.cpuprofile

# speedscope: stackscope's own writer (of the node profile and of an Rprof
# line profile); the evented and sampled shapes of speedscope's spec are
# hand-written in tests/producers.sh
"$S" convert --force -o speedscope/node.speedscope.json cpuprofile/node.cpuprofile
"$S" convert --force -e 'keep-samples 1:40' -o speedscope/rprof.speedscope.json ../rprof/line.out

# perf script: a node loop with call chains (-g; the first 40 samples), and a
# shell loop without (the event on the header line)
perf record -q -o "$tmp/g.data" -g -F 499 -- node -e \
    'let s = 0; for (let i = 0; i < 3e7; i++) s += i % 7; console.log(s)' >/dev/null 2>&1
perf script -i "$tmp/g.data" 2>/dev/null | awk '/^$/ { n++ } { print } n == 40 { exit }' >perf/node-g.txt
perf record -q -o "$tmp/n.data" -F 499 -- sh -c \
    'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done' >/dev/null 2>&1
perf script -i "$tmp/n.data" 2>/dev/null | head -n 20 >perf/sh.txt
perf script --header -i "$tmp/n.data" 2>/dev/null | head -n 40 >perf/sh-header.txt

# gotext: Go's runtime/pprof, debug=1 (and the goroutine dump, debug=2); the
# heap and allocs profiles cut to their first 40 lines
(cd "$tmp" && cp "$OLDPWD/gotext.go" . && GO111MODULE=off go run gotext.go)
for f in goroutine goroutine-dump threadcreate block mutex; do cp "$tmp/$f.txt" gotext/; done
for f in heap allocs; do head -n 40 "$tmp/$f.txt" >gotext/$f.txt; done
