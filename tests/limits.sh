#!/bin/bash
# Hangs, blow-ups and silent wrong results (issue 27, items 4 to 12): inputs
# that made stackscope take seconds to minutes, print gigabytes or read a
# file as what it is not.  Each is answered within a few seconds of CPU
# (ulimit -t: the machine's load does not count; the same inputs took 15 s
# to minutes before) or refused with a message.  The large inputs are made
# here with awk; the two tiny pprof files of tests/data/limits/ were made by
# its make_pprof.py.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

T=$TMPD
D=$SRCDIR/tests/data/limits

# cpu SECONDS ARGS...: stackscope ARGS with at most SECONDS of CPU time
# (ulimit -t; killed by SIGXCPU past it: exit 152), its output in $T/out
# (not kept in memory: it may be large); sets RC and ERR.
cpu() {
    local s=$1
    shift
    (
        ulimit -t "$s"
        exec "$STACKSCOPE" "$@"
    ) >"$T/out" 2>"$T/err" </dev/null
    RC=$?
    ERR=$(head -c 4000 "$T/err")
    sanitized "sanitizer: stackscope $*"
}

# ---- 4. a regex on long names: linear ------------------------------------------------

# One name of 300,000 'a': drop /a+x/ took 16 s at 100 KB, over 60 s at
# 300 KB (glibc's search restarts at every position).
awk 'BEGIN { s = "aaaaaaaaaa"; while (length(s) < 300000) s = s s; print "main;" substr(s, 1, 300000) " 3"; print "main;g 2" }' >"$T/long.folded"
cpu 10 report --format tsv -e 'drop /a+x/' "$T/long.folded"
check "regex: drop /a+x/ on a 300 KB name, in seconds, no match (5 samples kept)" \
    "$([ "$RC" -eq 0 ] && grep -q '^main	0	0	5	100$' "$T/out" || echo "rc=$RC $ERR $(head -c 200 "$T/out")")"
cpu 10 report --format tsv -e 'drop /a+$/' "$T/long.folded"
check "regex: drop /a+\$/ matches the long name (2 samples left)" \
    "$([ "$RC" -eq 0 ] && grep -q '^main	0	0	2	100$' "$T/out" || echo "rc=$RC $ERR")"
# the explorer's transforms share the matcher (and its / search is a plain
# substring search): both answer at once on the long name
ui regex-ui "$T/long.folded" <<'EOF'
:drop /a+x/
/aaax<Enter>
DUMP screen
q
EOF
# (a step that matches nothing is not added: the status says no transforms)
check "regex: the explorer's :drop /a+x/ and / on the long name answer" \
    "$(grep -q '5 of 5 samples .*no transforms' "$T/regex-ui.screen" &&
        grep -q '^/aaax: no match' "$T/regex-ui.screen" || tail -2 "$T/regex-ui.screen")"
# keep-label shares the matcher: perf script's comm is a label
awk 'BEGIN { s = "aaaaaaaaaa"; while (length(s) < 100000) s = s s; c = substr(s, 1, 100000)
    printf "%s 1 1.000001: 1000 cpu-clock: 10 f (/x)\nsh 2 1.000002: 1000 cpu-clock: 20 g (/x)\n", c }' >"$T/comm.perf"
cpu 10 report --format tsv -e 'keep-label comm=/a+x/' "$T/comm.perf"
check "regex: keep-label comm=/a+x/ on a 100 KB comm, in seconds (no sample kept)" \
    "$([ "$RC" -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 1 ] || echo "rc=$RC $ERR")"
# a pattern built to keep hundreds of states alive: refused by the budget
pat=$(awk 'BEGIN { for (i = 0; i < 99; i++) printf ".*a"; printf "x" }')
cpu 10 report -e "drop /$pat/" "$T/long.folded"
check "regex: a pattern too costly for these names is refused with a message" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *"too costly to match against these names"* ]] || echo "rc=$RC $ERR")"
# pprof's drop_frames goes through the same matcher and budget: one that
# keeps a thousand states alive over a 200 KB name is not applied, with a
# warning (main;b keeps b: 2 of 5 samples), in seconds
{ printf 'main;'; head -c 200000 /dev/zero | tr '\0' a; printf ' 3\nmain;b 2\n'; } >"$T/df.folded"
"$STACKSCOPE" convert -o "$T/df.tb/" "$T/df.folded" 2>/dev/null
printf 'drop_frames\t.*(.?){1000}x\t1\n' >>"$T/df.tb/meta.tsv"
"$STACKSCOPE" convert -o "$T/df.pb.gz" "$T/df.tb/" 2>/dev/null
cpu 10 report --format tsv "$T/df.pb.gz"
check "regex: a pprof drop_frames too costly for the names is not applied, with a warning" \
    "$([ "$RC" -eq 0 ] && [[ $ERR == *"df.pb.gz: the profile's drop_frames is too costly to match against its names"* ]] &&
        grep -q '^b	2	40	' "$T/out" || echo "rc=$RC $ERR")"

# ---- 5. many sessions, many profiles: linear --------------------------------------------

# 30,000 one-sample Rprof sessions (840 KB): over 60 s before
awk 'BEGIN { for (i = 0; i < 30000; i++) printf "sample.interval=20000\n\"f\" \"main\" \n" }' >"$T/sessions.out"
cpu 10 report --by sources --format tsv "$T/sessions.out"
check "sessions: report --by sources of 30,000 sessions in seconds" \
    "$([ "$RC" -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 30001 ] &&
        awk -F'\t' 'END { exit !($1 == 30000 && $NF == "time,samples") }' "$T/out" || echo "rc=$RC $ERR")"
cpu 10 check "$T/sessions.out"
check "sessions: check of 30,000 sessions in seconds" \
    "$([ "$RC" -eq 0 ] && [ "$(grep -c 'measures: time (default), samples' "$T/out")" -eq 30000 ] || echo "rc=$RC $ERR")"
awk 'BEGIN { printf "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":[{\"name\":\"main\"},{\"name\":\"f\"}]},\"profiles\":["
    for (i = 0; i < 20000; i++) printf "%s{\"type\":\"sampled\",\"name\":\"p%d\",\"unit\":\"milliseconds\",\"startValue\":0,\"endValue\":1,\"samples\":[[0,1]],\"weights\":[1]}", i ? "," : "", i
    printf "]}\n" }' >"$T/many.speedscope.json"
cpu 10 report --by sources --format tsv "$T/many.speedscope.json"
check "speedscope: 20,000 profiles are 20,000 sources, in seconds" \
    "$([ "$RC" -eq 0 ] && [ "$(wc -l <"$T/out")" -eq 20001 ] || echo "rc=$RC $ERR")"

# ---- 7. speedscope evented profiles: linear ------------------------------------------------

# 100,000 frames open, then 200,000 events at the bottom (12 MB): 17 s of CPU
# before (each sample copied and hashed the whole depth)
awk 'BEGIN { D = 100000; K = 100000; t = 0
    printf "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":[{\"name\":\"rec\"},{\"name\":\"a\"},{\"name\":\"b\"}]},\"profiles\":[{\"type\":\"evented\",\"name\":\"deep\",\"unit\":\"microseconds\",\"startValue\":0,\"endValue\":%d,\"events\":[", 2 * K
    for (d = 0; d < D; d++) printf "%s{\"type\":\"O\",\"frame\":0,\"at\":0}", d ? "," : ""
    for (k = 0; k < K; k++) { f = 1 + k % 2; printf ",{\"type\":\"O\",\"frame\":%d,\"at\":%d},{\"type\":\"C\",\"frame\":%d,\"at\":%d}", f, t, f, t + 1; t += 2 }
    for (d = 0; d < D; d++) printf ",{\"type\":\"C\",\"frame\":0,\"at\":%d}", t
    printf "]}]}\n" }' >"$T/deep.speedscope.json"
cpu 10 check "$T/deep.speedscope.json"
# a sample while a or b is open and one after each close: 200,000 samples of
# 3 stacks (rec x 100,000 with a, with b, alone), 1 us each
check "speedscope: 200,000 events 100,000 frames deep, in seconds: 200,000 samples, 3 stacks" \
    "$([ "$RC" -eq 0 ] && grep -q 'interval 1 us, 200000 samples' "$T/out" &&
        grep -q 'stacks: 3 distinct, deepest 100001 frames' "$T/out" || echo "rc=$RC $ERR $(cat "$T/out")")"
# samples taken deep down in ever new stacks: the model would be far larger
# than the file (2,000 frames deep, 2,000 new leaves: 4 M frames for 160 KB)
awk 'BEGIN { D = 20000; K = 2000
    printf "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"shared\":{\"frames\":[{\"name\":\"r\"}"
    for (k = 0; k < K; k++) printf ",{\"name\":\"l%d\"}", k
    printf "]},\"profiles\":[{\"type\":\"evented\",\"name\":\"wide\",\"unit\":\"none\",\"startValue\":0,\"endValue\":%d,\"events\":[", 2 * K
    for (d = 0; d < D; d++) printf "%s{\"type\":\"O\",\"frame\":0,\"at\":0}", d ? "," : ""
    for (k = 0; k < K; k++) printf ",{\"type\":\"O\",\"frame\":%d,\"at\":%d},{\"type\":\"C\",\"frame\":%d,\"at\":%d}", k + 1, 2 * k, k + 1, 2 * k + 1
    for (d = 0; d < D; d++) printf ",{\"type\":\"C\",\"frame\":0,\"at\":%d}", 2 * K
    printf "]}]}\n" }' >"$T/wide.speedscope.json"
cpu 10 check "$T/wide.speedscope.json"
check "speedscope: samples in ever new deep stacks are refused with a message" \
    "$([ "$RC" -eq 2 ] && [[ $ERR == *"the samples' stacks hold more frames in all than 32 per JSON value"* ]] || echo "rc=$RC $ERR")"

# ---- 6. outputs far larger than the input: refused ------------------------------------------

# 205 bytes: one sample, 10,000 frames of a function with a 100 KB name
big=$D/name100k-depth10k.pb.gz
# (speedscope names each frame once: no blow-up there)
for out in x.folded x.svg x.out; do
    rm -f "$T/$out"
    cpu 10 convert -o "$T/$out" "$big"
    check "blow-up: convert -o $out of 205 bytes is refused (1 GB), nothing written" \
        "$([ "$RC" -eq 1 ] && [[ $ERR == *"(--force, or :w! in the explorer, writes it anyway)"* ]] &&
            [ ! -e "$T/$out" ] && [ -z "$(ls "$T" | grep stackscope-tmp)" ] || echo "rc=$RC $ERR")"
done
cpu 10 convert -o "$T/x.folded" "$big"
check "blow-up: the folded refusal gives the estimate: 10,000 names of 100,000 bytes" \
    "$([[ $ERR == *"the folded stacks file would be about 953.7 MB (1000010020 bytes)"* ]] || echo "$ERR")"
cpu 10 convert --force -o "$T/x.folded" "$big"
check "blow-up: --force cannot make a folded line over 256 MiB (no reader takes it)" \
    "$([ "$RC" -eq 2 ] && [[ $ERR == *"a stack of 1000009999 bytes of names, longer than a line a reader takes (256 MiB)"* ]] || echo "rc=$RC $ERR")"
for by in tree levels; do # (runs: a pprof profile has no time order)
    cpu 10 report --by "$by" "$big"
    size=$(stat -c %s "$T/out")
    check "blow-up: report --by $by of 205 bytes stops at 64 MiB with a message" \
        "$([ "$RC" -eq 1 ] && [ "$size" -le $((64 << 20)) ] && [[ $ERR == *"standard output: the output reached the limit of 64.0 MB"* ]] || echo "rc=$RC size=$size $ERR")"
done
cpu 10 report --by stacks --force "$big"
check "blow-up: report --by stacks --force builds no 1 GB line" \
    "$([ "$RC" -eq 2 ] && [ ! -s "$T/out" ] && [[ $ERR == *"a stack of 1000009999 bytes of names, longer than a line the tables print (256 MiB); nothing printed"* ]] || echo "rc=$RC $ERR")"
# 10 KB names: 100 MB, refused before printing; 64 MiB floor, 100 x 114 B
cpu 10 report --by stacks "$D/name10k-depth10k.pb.gz"
check "blow-up: report --by stacks refused before printing, with the estimate" \
    "$([ "$RC" -eq 1 ] && [ ! -s "$T/out" ] && [[ $ERR == *"would be about 95.4 MB (100010063 bytes), over the limit of 64.0 MB (64 MiB, or 100 times the inputs' 114 B)"* ]] || echo "rc=$RC $ERR")"
# a recursion 100,000 deep in a 200 KB folded file: 10 GB of indentation
# before; now at most 40 levels, deeper nodes named after their depth
awk 'BEGIN { s = "f"; for (i = 1; i < 100000; i++) s = s ";f"; print s " 1" }' >"$T/deep.folded"
cpu 10 report --by tree "$T/deep.folded"
size=$(stat -c %s "$T/out")
check "tree: 100,000 levels print in about 10 MB, indented 40 levels at most" \
    "$([ "$RC" -eq 0 ] && [ "$size" -lt 12000000 ] && [ "$(tail -1 "$T/out")" = "  100.00   100.00  $(printf '%80s' '')[99999] f" ] &&
        ! grep -q ' \{83\}' "$T/out" || echo "rc=$RC size=$size $(tail -1 "$T/out")")"
cpu 10 report --by tree --format tsv "$T/deep.folded"
check "tree: TSV keeps the depth as a column, no indentation" \
    "$([ "$RC" -eq 0 ] && awk -F'\t' 'END { exit !($1 == 99999 && $2 == "f") }' "$T/out" || echo "rc=$RC")"
# under the limit nothing changes: --force is not needed
printf 'main;f 3\nmain;g 1\n' >"$T/small.folded"
cpu 10 convert -o "$T/small.svg" "$T/small.folded"
check "an ordinary SVG is written" "$([ "$RC" -eq 0 ] && [ -s "$T/small.svg" ] || echo "rc=$RC $ERR")"

# ---- 8. characters XML 1.0 has not ----------------------------------------------------------

printf 'main;a\xef\xbf\xbeb\xef\xbf\xbfc<&>"'"'"'\x1bd;e 3\nmain 1\n' >"$T/xml.folded"
cpu 10 convert -o "$T/xml.svg" "$T/xml.folded"
check "svg: U+FFFE and U+FFFF are written as their escaped bytes" \
    "$([ "$RC" -eq 0 ] && grep -q 'a\\xef\\xbf\\xbeb\\xef\\xbf\\xbfc&lt;&amp;&gt;&quot;&apos;\\x1bd (3 samples' "$T/xml.svg" || echo "rc=$RC $ERR")"
if have xmllint; then
    check "svg: xmllint reads it as well-formed XML" "$(xmllint --noout "$T/xml.svg" 2>&1 | head -3)"
else
    echo "SKIP: no xmllint (scripts/deps.sh test installs libxml2-utils)"
fi

# ---- 9. our own difference (difffolded) reads back as a comparison --------------------------

printf 'main;f 3 5\nmain;g 0 2\nmain;h 4 0\n' >"$T/diff.folded"
cpu 10 report --format tsv "$T/diff.folded"
# hand-computed: f base 3 new 5; g 0 -> 2; h 4 -> 0; main is in every stack
check "difffolded: report compares base and new" \
    "$(cut -f 1-7 "$T/out" >"$T/out7"  # the verdicts' columns follow
        [ "$RC" -eq 0 ] && [ "$(sed -n 1p "$T/out7")" = "name	self.base	self	self.delta	total.base	total	total.delta" ] &&
        grep -q '^f	3	5	2	3	5	2$' "$T/out7" && grep -q '^h	4	0	-4	4	0	-4$' "$T/out7" &&
        grep -q '^main	0	0	0	7	7	0$' "$T/out7" || echo "rc=$RC $ERR $(cat "$T/out")")"
cpu 10 report --by stacks --format folded "$T/diff.folded"
check "difffolded: written back line for line" "$(diff "$T/diff.folded" "$T/out" || echo "rc=$RC $ERR")"
# the lines that end within the first MiB decide (all of them, here: a file
# read as folded stacks where a line has one count)
printf 'main;f 3 5\nmain;g 2\n' >"$T/mixed.folded"
cpu 10 report --by stacks --format folded "$T/mixed.folded"
check "difffolded: a file with one line of one count is folded stacks" \
    "$([ "$RC" -eq 0 ] && [ "$(cat "$T/out")" = "$(printf 'main;f 3 5\nmain;g 2')" ] || echo "rc=$RC $ERR")"
awk 'BEGIN { for (i = 0; i < 70000; i++) printf "main;f%d 1 2\n", i; print "main;g 2" }' >"$T/mixed.folded"
cpu 10 check "$T/mixed.folded"
check "difffolded: past the first MiB, a line of one count is an error" \
    "$([ "$RC" -eq 2 ] && [[ $ERR == *"mixed.folded:70001: one count, where the lines before have two"* ]] || echo "rc=$RC $ERR")"
printf 'sample.interval=1000\n"f 3" "main" \n"g 2" "main" \n' >"$T/numbered.out"
cpu 10 convert -o "$T/numbered.folded" "$T/numbered.out"
check "difffolded: folded lines that would read back as a difference are refused" \
    "$([ "$RC" -eq 1 ] && [[ $ERR == *"so it would read back as a difference (STACK BASE NEW)"* ]] || echo "rc=$RC $ERR")"

# ---- 10. folded stacks are folded, whatever their first line looks like ---------------------

printf 'x 12 3.5: e: 7\n' >"$T/perfish.folded"
cpu 10 report --by stacks --format folded "$T/perfish.folded"
check "detection: a folded line shaped like a perf script header is folded" \
    "$([ "$RC" -eq 0 ] && [ "$(cat "$T/out")" = "x 12 3.5: e: 7" ] || echo "rc=$RC $ERR $(cat "$T/out")")"
printf 'goroutine profile: total 4\nmain 1\n' >"$T/goish.folded"
cpu 10 report --by stacks --format folded "$T/goish.folded"
check "detection: a folded line shaped like a Go profile's header is folded" \
    "$([ "$RC" -eq 0 ] && [ "$(sed -n 1p "$T/out")" = "goroutine profile: total 4" ] || echo "rc=$RC $ERR")"

# ---- 11. JSON \u0000 -------------------------------------------------------------------------

printf '{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""},"children":[2]},{"id":2,"callFrame":{"functionName":"a\\u0000b\\u001bc","url":"x.js","lineNumber":2}}],"startTime":0,"endTime":10,"samples":[2,2],"timeDeltas":[1,1]}' >"$T/nul.cpuprofile"
cpu 10 report "$T/nul.cpuprofile"
check "json: \\u0000 in a name is shown as \\x00, as ESC is \\x1b" \
    "$([ "$RC" -eq 0 ] && grep -q '  a\\x00b\\x1bc$' "$T/out" || echo "rc=$RC $ERR")"
cpu 10 convert -o "$T/nul.folded" "$T/nul.cpuprofile"
cpu 10 report --by stacks --format folded "$T/nul.folded"
check "json: ... and a folded file of it reads back" \
    "$([ "$RC" -eq 0 ] && [ "$(cat "$T/out")" = "$(printf 'a\\x00b\x1bc 2')" ] || echo "rc=$RC $ERR")"

# ---- 12. a Go text profile after a byte order mark --------------------------------------------

printf '\xef\xbb\xbfgoroutine profile: total 1\n1 @ 0x43b3c5 0x46d0c1\n#\t0x43b3c4\truntime.gopark+0xc4\t/usr/lib/go/src/runtime/proc.go:398\n\n' >"$T/bom.txt"
cpu 10 check "$T/bom.txt"
check "go text: a profile starting with a byte order mark is recognised" \
    "$([ "$RC" -eq 2 ] && [[ $ERR == *"bom.txt:1: a Go goroutine profile in text form (debug=1)"* ]] || echo "rc=$RC $ERR")"

# ---- 12. the tables writer's errors name the directory asked for ------------------------------

# A write that fails (a file size limit, SIGXFSZ ignored: EFBIG) in the
# temporary directory, which is then removed: named by the target's name.
awk 'BEGIN { for (i = 0; i < 3000; i++) print "main;f" i " " i + 1 }' >"$T/many.folded"
(
    trap '' XFSZ
    ulimit -f 8
    exec "$STACKSCOPE" convert -o "$T/efbig.tb/" "$T/many.folded"
) >/dev/null 2>"$T/err"
RC=$?
ERR=$(head -c 2000 "$T/err")
check "tables: a failed write names the target directory, not the removed temporary one" \
    "$([ "$RC" -eq 2 ] && [ "$ERR" = "stackscope: $T/efbig.tb/samples.tsv: write failed: File too large" ] &&
        [ ! -e "$T/efbig.tb" ] && [ -z "$(ls "$T" | grep stackscope-tmp)" ] || echo "rc=$RC $ERR")"

finish
