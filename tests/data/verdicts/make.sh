#!/bin/sh
# make.sh - write the R fixtures of the verdict tests (tests/data/README.md):
# same1.out.gz .. same8.out.gz run workload.R as it is, planted1.out.gz ..
# planted5.out.gz with planted_work's 25% more work; interleaved, so that
# the machine's load falls on both alike.
set -eu
cd "$(dirname "$0")"
steps=370
for i in 1 2 3 4 5 6 7 8; do
    Rscript workload.R "same$i.out" 0 "$steps"
    gzip -9nf "same$i.out"
    if [ "$i" -le 5 ]; then
        Rscript workload.R "planted$i.out" 1 "$steps"
        gzip -9nf "planted$i.out"
    fi
done
