#!/bin/bash
# Labels (issue 11 item 4, issue 17 item 1) against independent answers:
#
#  1. Real Go CPU profiles with labels from runtime/pprof.Do: the committed
#     tests/data/pprof/labels/go_labels.pb.gz and, where Go is installed, a
#     fresh one made here by tests/producers/go_labels.go (offline: GOPATH
#     mode, GOPROXY=off).  Go's pprof (built offline by
#     scripts/build-pprof.sh) is the reference: `report --by labels` equals
#     `pprof -tags`; keep-label / drop-label equal `pprof -top -tagfocus` /
#     `-tagignore` per function (flat = self, cum = total); label-root
#     equals `-tagroot` (its frames VALUE are ours KEY=VALUE; pprof also
#     gives samples without the label an empty frame, which ours leave
#     alone); what our pprof writer writes, read by `pprof -tags`, shows the
#     labels of the input, also after a tables round trip and after a filter.
#  2. perf script text: comm, pid and tid labels, hand-computed.
#  3. Numeric labels (a hand-written labels.tsv): the table, the filters,
#     and Go's reading of what the pprof writer makes of them (`pprof -raw`).
#  4. Bad labels.tsv rows: a clear message naming the file and line, exit 2.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope
LC_ALL=C
export LC_ALL

S=$STACKSCOPE
T=$TMPD

setup_go_pprof

# expect NAME WANT GOT
expect() {
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected [$2], got [$3]"; fi
}

# tag_top_tsv FILE ARGS...: `pprof -top` in ns as "name<TAB>flat<TAB>cum"
# rows (" (inline)", " (partial-inline)" dropped), then "<total><TAB>SUM(flat)<TAB>": unlike
# lib.sh's top_tsv, the total is the rows' sum (pprof's "of N total" is the
# profile's before its tag filters).
tag_top_tsv() {
    local f=$1
    shift
    pp -top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -unit=ns "$@" "$f" 2>/dev/null |
        perl -ne '
            if (/^\s*flat\s+flat%/) { $on = 1; next }
            next unless $on;
            if (/^\s*(-?[0-9.]+)[a-zA-Z]*\s+\S+\s+\S+\s+(-?[0-9.]+)[a-zA-Z]*\s+\S+\s\s(.*)$/) {
                my ($f, $c, $n) = ($1, $2, $3);
                $n =~ s/ \((partial-)?inline\)$//;
                print "$n\t$f\t$c\n";
                $total += $f;
            }
            END { printf "<total>\t%.17g\t\n", $total }'
}

# ours_tsv FILE ARGS...: report --by self as "name<TAB>self<TAB>total" in ns,
# then "<total><TAB>SUM(self)<TAB>".
ours_tsv() {
    local f=$1
    shift
    "$S" report --format tsv --by self --value time "$@" "$f" 2>/dev/null |
        awk -F '\t' 'NR > 1 { printf "%s\t%.17g\t%.17g\n", $1, $2 * 1e9, $4 * 1e9; t += $2 * 1e9 }
                     END { printf "<total>\t%.17g\t\n", t }'
}

# compare NAME OURS GO: pass when same_numbers agrees
compare() {
    local why
    if why=$(same_numbers "$2" "$3"); then pass "$1"; else fail "$1" "$why"; fi
}

# tags_tsv FILE: `pprof -tags -unit=ms` as "key<TAB>value<TAB>ms" rows, sorted
tags_tsv() {
    pp -tags -unit=ms "$1" 2>/dev/null |
        perl -ne 'if (/^ (\S.*): Total/) { $k = $1; next }
                  if (/^\s+(-?[0-9.]+)ms \(\s*[0-9.]+%\): (.*)$/) { print "$k\t$2\t$1\n" }' | sort
}

# ours_tags FILE ARGS...: report --by labels the same way (ms)
ours_tags() {
    local f=$1
    shift
    "$S" report --by labels --format tsv --value time "$@" "$f" 2>/dev/null |
        awk -F '\t' 'NR > 1 { printf "%s\t%s\t%.1f\n", $1, $2, $4 * 1000 }' | sort
}

# ---- 1. Go profiles with labels ----------------------------------------------

profiles=("$SRCDIR/tests/data/pprof/labels/go_labels.pb.gz")
if [ -n "$PPROF" ] && have go; then
    mkdir -p "$T/go"
    if GO111MODULE=off GOPROXY=off GOSUMDB=off GOFLAGS=-mod=mod GOTOOLCHAIN=local GOTELEMETRY=off \
        GOENV=off CGO_ENABLED=0 GOCACHE=$STACKSCOPE_GO_DIR/cache HOME=$T/go \
        go build -o "$T/go/go_labels" "$SRCDIR/tests/producers/go_labels.go" 2>"$T/go/build.log" &&
        "$T/go/go_labels" "$T/go/fresh.pb.gz" 1 2>"$T/go/run.log"; then
        profiles+=("$T/go/fresh.pb.gz")
    else
        fail "go: build and run tests/producers/go_labels.go" "$(tail -n 2 "$T/go/build.log" "$T/go/run.log")"
    fi
fi

for pb in "${profiles[@]}"; do
    name=$(basename "$pb" .pb.gz)
    w=$T/$name
    mkdir -p "$w"
    "$S" report --by labels --format tsv "$pb" >"$w/labels.tsv" 2>"$w/err" ||
        { fail "$name: report --by labels" "$(head -n 1 "$w/err")"; continue; }
    [ "$(cut -f1 "$w/labels.tsv" | sort -u | tr '\n' ' ')" = "key phase worker " ] &&
        pass "$name: the keys phase and worker" || fail "$name: keys" "$(cat "$w/labels.tsv")"
    if [ -z "$PPROF" ]; then
        continue
    fi
    tags_tsv "$pb" >"$w/go-tags.tsv"
    ours_tags "$pb" >"$w/ours-tags.tsv"
    [ -s "$w/go-tags.tsv" ] && cmp -s "$w/go-tags.tsv" "$w/ours-tags.tsv" &&
        pass "$name: report --by labels = pprof -tags" ||
        fail "$name: report --by labels = pprof -tags" "$(diff "$w/go-tags.tsv" "$w/ours-tags.tsv" | head -n 4)"

    # check counts the rows with labels as pprof -raw lists them
    want=$(pp -raw "$pb" 2>/dev/null | awk '/^Samples:/ { on = 1; getline; next } /^[A-Z]/ { on = 0 }
        on && /^ *-?[0-9]+ +-?[0-9]+: / { n++; prev = 1; next }
        on && prev && /:\[/ { l++ } { prev = 0 } END { print l " of " n " rows" }')
    case $("$S" check "$pb") in
    *"labels: "*" distinct on $want; keys: "*) pass "$name: check: labels on $want (pprof -raw)" ;;
    *) fail "$name: check: labels" "want $want: $("$S" check "$pb" | grep labels)" ;;
    esac

    # keep-label / drop-label = -tagfocus / -tagignore
    while IFS='~' read -r ours go; do
        ours_tsv "$pb" -e "$ours" >"$w/o.tsv"
        tag_top_tsv "$pb" "$go" >"$w/g.tsv"
        compare "$name: $ours = pprof $go" "$w/o.tsv" "$w/g.tsv"
    done <<'EOF'
keep-label worker=beta~-tagfocus=worker=^beta$
keep-label worker="gamma ray"~-tagfocus=worker=^gamma ray$
keep-label worker=/^(alpha|beta)$/~-tagfocus=worker=^(alpha|beta)$
keep-label worker=/a/~-tagfocus=worker=a
keep-label phase~-tagfocus=phase=
drop-label phase=sum~-tagignore=phase=^sum$
drop-label worker~-tagignore=worker=
drop-label worker=/^(alpha|gamma ray)$/~-tagignore=worker=^(alpha|gamma ray)$
EOF
    # two filters in a row = both of pprof's
    ours_tsv "$pb" -e 'keep-label worker' -e 'drop-label phase=parse' >"$w/o.tsv"
    tag_top_tsv "$pb" -tagfocus=worker= -tagignore=phase=^parse$ >"$w/g.tsv"
    compare "$name: keep-label worker, drop-label phase=parse = -tagfocus -tagignore" "$w/o.tsv" "$w/g.tsv"

    # label-root = -tagroot: pprof's frame VALUE is our KEY=VALUE; its empty
    # frame for samples without the label has no counterpart
    for key in worker phase; do
        ours_tsv "$pb" -e "label-root $key" | sed "s/^$key=//" >"$w/o.tsv"
        tag_top_tsv "$pb" -tagroot=$key | grep -v '^<unknown>	' >"$w/g.tsv"
        compare "$name: label-root $key = pprof -tagroot=$key" "$w/o.tsv" "$w/g.tsv"
    done
    # a root frame per value: the stacks' roots are the labelled share
    got=$("$S" report --by stacks --format tsv -e 'label-root worker' "$pb" |
        awk -F '\t' 'NR > 1 { split($5, f, ";"); if (f[1] ~ /^worker=/) n[f[1]] += $1 }
                     END { for (k in n) print k "\t" n[k] }' | sort)
    want=$(awk -F '\t' 'NR > 1 && $1 == "worker" { print "worker=" $2 "\t" $3 }' "$w/labels.tsv" | sort)
    expect "$name: label-root worker: each root frame has its label's samples" "$want" "$got"
    ours_tsv "$pb" -e 'label-root worker' -e 'keep-label worker=beta' | sed 's/^worker=//' >"$w/o.tsv"
    tag_top_tsv "$pb" -tagroot=worker -tagfocus=worker=^beta$ | grep -v '^<unknown>	' >"$w/g.tsv"
    compare "$name: label-root then keep-label = -tagroot -tagfocus" "$w/o.tsv" "$w/g.tsv"

    # the pprof writer keeps the labels: pprof -tags on its output
    "$S" convert -o "$w/out.pb.gz" "$pb" 2>"$w/err" || fail "$name: convert to pprof" "$(head -n 1 "$w/err")"
    tags_tsv "$w/out.pb.gz" >"$w/out-tags.tsv"
    cmp -s "$w/go-tags.tsv" "$w/out-tags.tsv" && pass "$name: pprof writer: pprof -tags shows the input's labels" ||
        fail "$name: pprof writer labels" "$(diff "$w/go-tags.tsv" "$w/out-tags.tsv" | head -n 4)"
    # ... after a tables round trip
    "$S" convert -o "$w/tab/" "$pb" 2>"$w/err" && "$S" convert -o "$w/tab.pb.gz" "$w/tab" 2>>"$w/err" ||
        fail "$name: tables round trip" "$(head -n 1 "$w/err")"
    tags_tsv "$w/tab.pb.gz" >"$w/tab-tags.tsv"
    cmp -s "$w/go-tags.tsv" "$w/tab-tags.tsv" && pass "$name: tables round trip keeps the labels" ||
        fail "$name: tables round trip labels" "$(diff "$w/go-tags.tsv" "$w/tab-tags.tsv" | head -n 4)"
    # ... and a filtered profile holds the filtered labels
    "$S" convert -e 'keep-label worker=/^(alpha|beta)$/' -o "$w/f.pb.gz" "$pb" 2>/dev/null
    pp -tags -unit=ms -tagfocus='worker=^(alpha|beta)$' "$pb" 2>/dev/null | grep -v tagfocus >"$w/f-go.txt"
    pp -tags -unit=ms "$w/f.pb.gz" 2>/dev/null >"$w/f-ours.txt"
    [ -s "$w/f-go.txt" ] && cmp -s "$w/f-go.txt" "$w/f-ours.txt" &&
        pass "$name: keep-label then the pprof writer = pprof -tags -tagfocus" ||
        fail "$name: filtered write" "$(diff "$w/f-go.txt" "$w/f-ours.txt" | head -n 4)"
done

# report --by transforms counts the labels a step matched; none: a warning
pb=${profiles[0]}
out=$("$S" report --by transforms --format tsv -e 'keep-label worker=/^(alpha|beta)$/' -e 'label-root phase' "$pb" | cut -f9,11)
expect "report --by transforms: labels matched" "labels_matched	command|2	keep-label worker=/^(alpha|beta)$/|2	label-root phase" \
    "$(echo "$out" | tr '\n' '|' | sed 's/|$//')"
err=$("$S" report -e 'keep-label worker=delta' "$pb" 2>&1 >/dev/null)
expect "keep-label with no matching label: a warning" "stackscope: warning: keep-label worker=delta: no label matches" "$err"

# ---- the explorer: the labels view (#), Enter/d, Tab completion -----------------

# rows_of FILE FIRST LAST: lines FIRST..LAST, blanks squeezed
rows_of() { sed -n "$2,$3p" "$1" | awk '{ $1 = $1; print }'; }
pb=${profiles[0]}
ui view "$pb" <<'KEYS'
<Home>#
DUMP labels
jj<Enter>
DUMP kept
u
:labels
jjjd
DUMP dropped
u<:>keep-label wor<Tab>
DUMP complete
g<Tab>
DUMP completed
<Esc><:>label-root p<Tab>
DUMP root
KEYS
"$S" report --by labels "$pb" | sed -n '/^key/,/^$/p' | awk 'NF { $1 = $1; print }' >"$T/want-rows"
expect "explorer: # shows the labels view, the rows of report --by labels" "$(cat "$T/want-rows")" \
    "$(rows_of "$T/view.labels" 2 7)"
case $(sed -n 1p "$T/view.labels") in
*"labels: 5 (Enter/f: keep-label, d: drop-label)"*) pass "explorer: labels view title" ;;
*) fail "explorer: labels view title" "$(sed -n 1p "$T/view.labels")" ;;
esac
lw=$T/go_labels/labels.tsv
want=$(awk -F '\t' '$1 == "worker" && $2 == "gamma ray" { print $3 }' "$lw")
case $(tail -n 4 "$T/view.kept") in # (a long message takes more rows)
*"$want of 150 samples"*'keep-label worker="gamma ray":'*) pass "explorer: Enter adds keep-label KEY=VALUE" ;;
*) fail "explorer: Enter adds keep-label" "$(tail -n 4 "$T/view.kept")" ;;
esac
want=$((150 - $(awk -F '\t' '$1 == "worker" && $2 == "beta" { print $3 }' "$lw")))
case $(tail -n 4 "$T/view.dropped") in
*"$want of 150 samples"*"drop-label worker=beta:"*) pass "explorer: d adds drop-label KEY=VALUE" ;;
*) fail "explorer: d adds drop-label" "$(tail -n 4 "$T/view.dropped")" ;;
esac
expect "explorer: Tab offers KEY=VALUE of the labels" \
    "3 candidates: worker=alpha worker=beta worker=gamma ray|:keep-label worker=" \
    "$(tail -n 2 "$T/view.complete" | sed 's/ *$//' | tr '\n' '|' | sed 's/|$//')"
expect "explorer: Tab completes a value, quoted" ':keep-label worker="gamma ray"' \
    "$(tail -n 1 "$T/view.completed" | sed 's/ *$//')"
expect "explorer: label-root completes a key" ':label-root phase' "$(tail -n 1 "$T/view.root" | sed 's/ *$//')"

# ---- 2. perf script: comm, pid, tid ---------------------------------------------

cat >"$T/hand.perf" <<'PERF'
gzip  2582 [001]  4919.377196:    1000000 cpu-clock:ppp: 
	ffffffff813a2313 finish_task_switch.isra.0+0x93 ([kernel.kallsyms])
	            4330 deflate+0x10 (/usr/bin/gzip)
	            9a2d main (/usr/bin/gzip)

Web Content 77/78 [000] 4919.378163:    3000000 cpu-clock: 
	            430e [unknown] (/usr/lib/libxul.so)
	            12ab

gzip  2583 [001]  4919.379164:    2000000 task-clock:u:      4330 deflate+0x1c (/usr/bin/gzip)
gzip  2582 [001]  4919.380000:    2000000 cpu-clock:u: 
	            4330 deflate+0x1c (/usr/bin/gzip)
	            9a2d main+0x5 (/usr/bin/gzip)
PERF
# 4 samples of 1, 3, 2, 2 ms (the time measure: the sum of the periods):
# gzip 1 + 2 + 2 ms; Web Content, pid 77, tid 78 3 ms; tid 2582 1 + 2 ms
# (ties ordered by count), tid 2583 2 ms; of 8 ms.  dso is the innermost
# frame's binary: gzip 2 + 2 ms, libxul.so 3 ms, [kernel.kallsyms] 1 ms.
out=$("$S" report --by labels --format tsv --value time "$T/hand.perf" | tr '\n' '|')
expect "perf: comm, pid and tid labels" \
    "key	value	count	time	pct|comm	gzip	3	0.005	62.5|comm	Web Content	1	0.003	37.5|dso	gzip	2	0.004	50|dso	libxul.so	1	0.003	37.5|dso	[kernel.kallsyms]	1	0.001	12.5|pid	77	1	0.003	37.5|tid	2582	2	0.003	37.5|tid	78	1	0.003	37.5|tid	2583	1	0.002	25|" \
    "$out"
folded() { "$S" report --by stacks --format folded "$@" "$T/hand.perf" 2>&1 | sort | tr '\n' '|'; }
expect "perf: keep-label comm=gzip" "gzip;deflate 1|gzip;main;deflate 1|gzip;main;deflate;finish_task_switch.isra.0 1|" \
    "$(folded -e 'keep-label comm=gzip')"
expect "perf: drop-label comm=\"Web Content\"" "$(folded -e 'keep-label comm=gzip')" \
    "$(folded -e 'drop-label comm="Web Content"')"
# an unresolved frame is named by its binary, as perf report does
expect "perf: keep-label pid=77 (a number)" "Web_Content;[unknown];[libxul.so] 1|" "$(folded -e 'keep-label pid=77')"
expect "perf: keep-label pid (the key: only PID/TID headers print one)" "$(folded -e 'keep-label pid=77')" \
    "$(folded -e 'keep-label pid')"
expect "perf: label-root tid" \
    "tid=2582;gzip;main;deflate 1|tid=2582;gzip;main;deflate;finish_task_switch.isra.0 1|tid=2583;gzip;deflate 1|tid=78;Web_Content;[unknown];[libxul.so] 1|" \
    "$(folded -e 'label-root tid')"
expect "perf: label-root comm, keep-label tid=/^258/" \
    "comm=gzip;gzip;deflate 1|comm=gzip;gzip;main;deflate 1|comm=gzip;gzip;main;deflate;finish_task_switch.isra.0 1|" \
    "$(folded -e 'label-root comm' -e 'keep-label tid=/^258/')"

# ---- 3. numeric labels ------------------------------------------------------------

printf 'main;f 3\nmain;g 2\n' >"$T/t.folded"
"$S" convert -o "$T/num/" "$T/t.folded" 2>/dev/null
printf 'sample_id\tkey\tstr\tnum\tunit\n1\tbytes\t\\N\t1024\tbytes\n1\tgoroutine\t\\N\t7\t\\N\n2\tbytes\t\\N\t2048\tbytes\n2\tname\tx y\t\\N\t\\N\n' \
    >"$T/num/labels.tsv"
out=$("$S" report --by labels --format tsv "$T/num" 2>&1 | tr '\n' '|')
expect "numeric labels: the table (folded: the samples measure)" \
    "key	value	count	samples	pct|bytes	1024 bytes	3	3	60|bytes	2048 bytes	2	2	40|goroutine	7	3	3	60|name	x y	2	2	40|" "$out"
nfold() { "$S" report --by stacks --format folded "$@" "$T/num" 2>&1 | sort | tr '\n' '|'; }
expect "numeric labels: keep-label bytes=1024 (the number)" "main;f 3|" "$(nfold -e 'keep-label bytes=1024')"
expect "numeric labels: keep-label bytes=\"2048 bytes\" (the text)" "main;g 2|" "$(nfold -e 'keep-label bytes="2048 bytes"')"
expect "numeric labels: label-root bytes" "bytes=1024 bytes;main;f 3|bytes=2048 bytes;main;g 2|" "$(nfold -e 'label-root bytes')"
if [ -n "$PPROF" ]; then
    "$S" convert -o "$T/num.pb.gz" "$T/num" 2>/dev/null
    got=$(pp -raw "$T/num.pb.gz" 2>/dev/null | awk '/^Samples:/ { on = 1; next } /^Locations/ { on = 0 } on && /:\[/' |
        sed 's/^ *//' | tr '\n' '|')
    expect "numeric labels: Go's pprof reads what the pprof writer wrote" \
        "bytes:[1024 bytes] goroutine:[7]|name:[x y]|bytes:[2048 bytes]|" "$got"
    "$S" convert -o "$T/num2/" "$T/num.pb.gz" 2>/dev/null
    expect "numeric labels: pprof -> tables keeps them" "$(tail -n +2 "$T/num/labels.tsv" | sort)" \
        "$(tail -n +2 "$T/num2/labels.tsv" | sort)"
fi

# ---- 4. bad labels.tsv ---------------------------------------------------------------

bad_labels() {
    local what=$1 rows=$2 want=$3
    rm -rf "$T/bad"
    cp -r "$T/num" "$T/bad"
    printf 'sample_id\tkey\tstr\tnum\tunit\n%b' "$rows" >"$T/bad/labels.tsv"
    local err rc
    err=$("$S" check "$T/bad" 2>&1 >/dev/null)
    rc=$?
    case $rc:$err in
    2:*"$want"*) pass "bad labels.tsv: $what" ;;
    *) fail "bad labels.tsv: $what" "exit $rc: $err" ;;
    esac
}
bad_labels "out of sample order" '2\tk\tv\t\\N\t\\N\n1\tk\tv\t\\N\t\\N\n' \
    "labels.tsv:3: column sample_id: sample 1 after sample 2"
bad_labels "neither string nor number" '1\tk\t\\N\t\\N\t\\N\n' "labels.tsv:2: column num: missing"
bad_labels "a string and a number" '1\tk\tv\t3\t\\N\n' "labels.tsv:2: a label with a string value"
bad_labels "no such sample" '9\tk\tv\t\\N\t\\N\n' "labels.tsv:2: column sample_id: 9 is not a row of samples.tsv"
bad_labels "a number that is not one" '1\tk\t\\N\t12x\t\\N\n' "labels.tsv:2: column num: expected a whole number"
printf 'sample_id\tkey\tvalue\n' >"$T/bad/labels.tsv"
err=$("$S" check "$T/bad" 2>&1 >/dev/null)
case $? in 2) pass "bad labels.tsv: a wrong header" ;; *) fail "bad labels.tsv: a wrong header" "$err" ;; esac

finish
