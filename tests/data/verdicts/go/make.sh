#!/bin/sh
# make.sh - profile BenchmarkWork (bench_test.go) four times with Go's own
# CPU profiler, interleaved: same1/2.pb.gz as it is, planted1/2.pb.gz with
# PLANTED=1 (README.md).  Offline: no module is fetched.
set -eu
cd "$(dirname "$0")"
export GOFLAGS=-mod=mod GOPROXY=off GOSUMDB=off GOTOOLCHAIN=local GOTELEMETRY=off CGO_ENABLED=0
for i in 1 2; do
    go test -run XXX -bench Work -benchtime 40s -cpuprofile "same$i.pb.gz" .
    PLANTED=1 go test -run XXX -bench Work -benchtime 40s -cpuprofile "planted$i.pb.gz" .
done
rm -f verdictbench.test
