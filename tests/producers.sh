#!/bin/bash
# Producers (issue 17): profiles that other programs write, each checked
# against a reference that does not come from stackscope.
#
#  1. Chrome/Node .cpuprofile: a real profile made here by `node --cpu-prof`
#     (Debian's nodejs; skipped with a message when absent) and hand-made
#     ones; stacks, counts, per-sample durations and self times equal an
#     independent reading of the same JSON (tests/producers/cpuprofile_ref.js,
#     which walks the nodes and samples itself); the strict JSON reader's
#     errors name the byte offset.
#  2. speedscope JSON: read (sampled and evented profiles, several profiles
#     as sources) against hand-computed numbers; written files pass the
#     essential checks of speedscope's published file-format schema
#     (tests/producers/speedscope_check.js); a round trip keeps every sample.
#  3. Go's legacy text profiles (debug=1): recognised and refused with a
#     message that says what they are.
#  4. Folded stacks with --interval: times are counts x the interval.
#  5. perf script text: hand-written samples in perf's shapes, and a real
#     `perf record -g` capture (where the kernel allows it) against perf's
#     own `perf script report stackcollapse`; the time is the sum of the
#     periods.
#  Detection stays exact: other JSON, another $schema, folded lines that
#  quote other formats.
. "$(dirname "$0")/lib.sh"
need_stackscope
ref=$SRCDIR/tests/producers

# expect NAME WANT GOT: compare two strings
expect() {
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "expected [$2], got [$3]"; fi
}

# same_sorted NAME FILE1 FILE2: the same lines in any order
same_sorted() {
    if diff <(LC_ALL=C sort "$2") <(LC_ALL=C sort "$3") >"$TMPD/diff"; then
        pass "$1"
    else
        fail "$1" "$(head -5 "$TMPD/diff")"
    fi
}

# self_times_match NAME PROFILE REFERENCE: report --by self's self.time per
# name equals the reference's "name<TAB>seconds" lines (relative 1e-9)
self_times_match() {
    "$STACKSCOPE" report --by self --format tsv "$2" >"$TMPD/self.tsv" 2>/dev/null ||
        { fail "$1" "report failed"; return; }
    if awk -F'\t' 'NR == FNR { want[$1] = $2; n++; next }
        FNR == 1 { next }
        $2 > 0 { got++; d = $2 - want[$1]; if (d < 0) d = -d
                 if (!($1 in want) || d > 1e-9 * (want[$1] > 1 ? want[$1] : 1)) { print $1, $2, want[$1]; bad = 1 } }
        END { if (got != n) { print "rows", got, n; bad = 1 }; exit bad }' "$3" "$TMPD/self.tsv" >"$TMPD/why"
    then pass "$1"; else fail "$1" "$(head -3 "$TMPD/why")"; fi
}

# durations NAME PROFILE: the "duration" values in sample order (tables writer)
durations() {
    rm -rf "$TMPD/tab"
    "$STACKSCOPE" convert -o "$TMPD/tab/" "$1" 2>/dev/null &&
        awk -F'\t' '$2 == "duration" { print $3 }' "$TMPD/tab/sample_values.tsv"
}

# bad_input NAME FILE PATTERN: exit 2 and a message matching PATTERN
bad_input() {
    "$STACKSCOPE" check "$2" >/dev/null 2>"$TMPD/err"
    local rc=$?
    if [ $rc -eq 2 ] && grep -Eq -- "$3" "$TMPD/err"; then
        pass "$1"
    else
        fail "$1" "exit $rc, message: $(head -c 300 "$TMPD/err")"
    fi
}

# ---- 1. Chrome/Node .cpuprofile ---------------------------------------------

if have node; then
    mkdir -p "$TMPD/node"
    cat >"$TMPD/node/work.js" <<'JS'
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const busy = function () { let s = 0; for (let i = 0; i < 20; i++) s += fib(20); return s; };
function strings() { let a = []; for (let i = 0; i < 2000; i++) a.push(String(i).repeat(3)); return a.join(''); }
const t0 = Date.now();
for (let k = 0; k < 40 || Date.now() - t0 < 400; k++) { busy(); strings(); [1, 2, 3].map((x) => x * fib(19)); }
JS
    # (the arrow on line 5 does an eighth of the work, and the loop runs at
    # least 40 times: on a loaded machine it was sometimes never sampled)
    # one run: the .cpuprofile, and the same profiler's trace events (the
    # Profile and ProfileChunk events Chrome's traces hold)
    (cd "$TMPD/node" && node --cpu-prof --cpu-prof-dir prof --cpu-prof-interval 500 \
        --trace-event-categories disabled-by-default-v8.cpu_profiler \
        --trace-event-file-pattern trace.json work.js)
    real=$(ls "$TMPD"/node/prof/*.cpuprofile 2>/dev/null | head -1)
    if [ -n "$real" ]; then
        "$STACKSCOPE" check "$real" >"$TMPD/check" 2>&1
        expect "cpuprofile: check detects it" "cpuprofile" \
            "$(grep -o 'cpuprofile' "$TMPD/check" | head -1)"
        node "$ref/cpuprofile_ref.js" folded "$real" >"$TMPD/ref.folded"
        "$STACKSCOPE" report --by stacks --format folded "$real" >"$TMPD/ss.folded" 2>/dev/null
        same_sorted "cpuprofile: node --cpu-prof stacks and counts equal the JSON's own" \
            "$TMPD/ref.folded" "$TMPD/ss.folded"
        node "$ref/cpuprofile_ref.js" durations "$real" >"$TMPD/ref.dur"
        durations "$real" >"$TMPD/ss.dur"
        if cmp -s "$TMPD/ref.dur" "$TMPD/ss.dur" && [ -s "$TMPD/ref.dur" ]; then
            pass "cpuprofile: per-sample durations (ns) in time order equal the JSON's"
        else
            fail "cpuprofile: per-sample durations" "$(diff "$TMPD/ref.dur" "$TMPD/ss.dur" | head -3)"
        fi
        node "$ref/cpuprofile_ref.js" self "$real" >"$TMPD/ref.self"
        self_times_match "cpuprofile: self times are the samples' durations" "$real" \
            "$TMPD/ref.self"
        # anonymous functions apart, named by file and line; each sample's
        # line from its node's positionTicks (the reference reads them too)
        grep -q ';(anonymous work.js:5)[; ]' "$TMPD/ss.folded" && grep -q '(anonymous work.js:1);' "$TMPD/ss.folded" &&
            pass "cpuprofile: anonymous functions kept apart by file and line" ||
            fail "cpuprofile: anonymous functions" "$(grep -o '(anonymous[^;]*' "$TMPD/ss.folded" | sort -u | head -3)"
        node "$ref/cpuprofile_ref.js" lines "$real" | grep '^work.js#' >"$TMPD/ref.lines"
        "$STACKSCOPE" report --by line --value samples --format tsv "$real" 2>/dev/null |
            awk -F'\t' '$1 ~ /^work\.js#/ && $2 > 0 { print $1 "\t" $2 }' >"$TMPD/ss.lines"
        same_sorted "cpuprofile: self samples by line follow the positionTicks" "$TMPD/ref.lines" "$TMPD/ss.lines"
        grep -q '^work.js#5'$'\t' "$TMPD/ss.lines" && pass "cpuprofile: the loop's own line (5), not the definition's" ||
            fail "cpuprofile: positionTicks lines" "$(cat "$TMPD/ss.lines")"
        for f in '(program)' fib busy strings; do
            grep -q "^$f"$'\t' "$TMPD/self.tsv" || grep -q "(^|;)$f( |;)" "$TMPD/ss.folded" ||
                fail "cpuprofile: frame $f present" "missing"
        done
    else
        fail "cpuprofile: node --cpu-prof wrote a profile" "no file in $TMPD/node/prof"
    fi
    # Chrome's trace format, written by node: its CPU profiles are read as
    # .cpuprofile files are (one source each), stacks and lines as the
    # reference's reading of the trace's ProfileChunk nodes
    tr=$TMPD/node/trace.json
    if [ -s "$tr" ]; then
        "$STACKSCOPE" check "$tr" >"$TMPD/check" 2>&1
        expect "trace: check names the Chrome trace's profiles" "chrome_trace" \
            "$(grep -o 'chrome_trace' "$TMPD/check" | head -1)"
        node "$ref/cpuprofile_ref.js" folded "$tr" >"$TMPD/tref.folded"
        "$STACKSCOPE" report --by stacks --format folded "$tr" >"$TMPD/tss.folded" 2>/dev/null
        same_sorted "trace: the profile nodes' stacks and counts equal the trace's own" \
            "$TMPD/tref.folded" "$TMPD/tss.folded"
        node "$ref/cpuprofile_ref.js" lines "$tr" >"$TMPD/tref.lines"
        "$STACKSCOPE" report --by line --value samples --format tsv "$tr" 2>/dev/null |
            awk -F'\t' 'NR > 1 && $1 !~ /^(NA#|<no location>)/ && $2 > 0 { print $1 "\t" $2 }' >"$TMPD/tss.lines"
        same_sorted "trace: self samples by line are the samples' own lines" "$TMPD/tref.lines" "$TMPD/tss.lines"
        node "$ref/cpuprofile_ref.js" durations "$tr" >"$TMPD/tref.dur"
        durations "$tr" >"$TMPD/tss.dur"
        cmp -s "$TMPD/tref.dur" "$TMPD/tss.dur" && pass "trace: per-sample durations equal the trace's" ||
            fail "trace: durations" "$(diff "$TMPD/tref.dur" "$TMPD/tss.dur" | head -3)"
    else
        fail "trace: node wrote a trace" "no $tr"
    fi
else
    echo "SKIP: node is not installed (apt-get install nodejs): no real .cpuprofile checked"
fi
# Chrome's default trace (Perfetto protobuf; the first 118 packets of one
# Chromium wrote, tests/data/README.md) is not taken for pprof
bad_input "trace: Chrome's default (Perfetto) trace is recognised and refused" \
    "$SRCDIR/tests/data/chrome/startup_head.pftrace" \
    'startup_head.pftrace: a Perfetto trace \(protobuf: Chrome.s default trace format\), which stackscope does not read: record a JSON trace'

# A hand-made profile: ids not in order, a parent-style node, an anonymous
# function, "(idle)", a negative delta (samples out of order), a sample of
# "(root)" itself (an empty stack).  Computed by hand:
#   timestamps 100+10=110 (B), 110+20=130 (C), 130-5=125 (D), 125+15=140 (A root)
#   in time order: B@110, D@125, C@130, root@140; endTime 150
#   durations: 15, 5, 10, 10 (us) -> 15000 5000 10000 10000 ns
cat >"$TMPD/hand.cpuprofile" <<'JSON'
{"nodes":[
 {"id":7,"callFrame":{"functionName":"main","scriptId":"1","url":"file:///a.js","lineNumber":4,"columnNumber":0},"children":[3]},
 {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[7,9]},
 {"id":3,"callFrame":{"functionName":"","scriptId":"1","url":"file:///a.js","lineNumber":9,"columnNumber":2}},
 {"id":9,"callFrame":{"functionName":"(idle)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}},
 {"id":11,"callFrame":{"functionName":"leaf \"q\"","scriptId":"1","url":"file:///a.js","lineNumber":20,"columnNumber":2},"parent":3}
],
"startTime":100,"endTime":150,
"samples":[3,11,9,1],"timeDeltas":[10,20,-5,15]}
JSON
"$STACKSCOPE" report --by stacks --format folded "$TMPD/hand.cpuprofile" >"$TMPD/hand.folded" 2>"$TMPD/hand.err"
printf '%s\n' 'main;(anonymous a.js:10) 1' 'main;(anonymous a.js:10);leaf "q" 1' '(idle) 1' >"$TMPD/hand.want"
same_sorted "cpuprofile: hand-made tree (parent ids, anonymous named by file and line, idle)" \
    "$TMPD/hand.want" "$TMPD/hand.folded"
grep -q 'not in time order' "$TMPD/hand.err" && pass "cpuprofile: out-of-order samples warned about" ||
    fail "cpuprofile: out-of-order warning" "$(cat "$TMPD/hand.err")"
expect "cpuprofile: durations after sorting by time" "15000 5000 10000 10000" \
    "$(durations "$TMPD/hand.cpuprofile" | tr '\n' ' ' | sed 's/ $//')"
# 4 samples over 40 us: interval 10 us; "(root)" alone has no frames
"$STACKSCOPE" check "$TMPD/hand.cpuprofile" >"$TMPD/check" 2>&1
grep -q 'interval 10 us' "$TMPD/check" && grep -q 'samples: 4 (1 with no frames)' "$TMPD/check" &&
    pass "cpuprofile: interval is the mean duration; a (root) sample has no frames" ||
    fail "cpuprofile: interval and empty sample" "$(cat "$TMPD/check")"
"$STACKSCOPE" report --by line --format tsv "$TMPD/hand.cpuprofile" >"$TMPD/line.tsv" 2>&1
grep -q '^a.js#5	' "$TMPD/line.tsv" && grep -q '^a.js#21	' "$TMPD/line.tsv" &&
    pass "cpuprofile: lines are lineNumber + 1 in the url's file" ||
    fail "cpuprofile: lines" "$(cat "$TMPD/line.tsv")"

# A hand-made trace whose last chunk has samples but no "lines" (Node
# writes such a chunk when the profiler stops): the first chunk's samples
# keep their lines (12, 13), the last's take the node's (lineNumber + 1 = 3)
cat >"$TMPD/hand.trace.json" <<'JSON'
{"traceEvents":[
 {"name":"Profile","ph":"P","pid":1,"tid":1,"ts":0,"id":"0x1","args":{"data":{"startTime":100}}},
 {"name":"ProfileChunk","ph":"P","pid":1,"tid":2,"ts":0,"id":"0x1","args":{"data":{"cpuProfile":{"nodes":[
  {"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1}},
  {"id":2,"callFrame":{"functionName":"f","scriptId":"1","url":"file:///t.js","lineNumber":2,"columnNumber":0},"parent":1}],
  "samples":[2,2]},"timeDeltas":[10,10],"lines":[12,13]}}},
 {"name":"ProfileChunk","ph":"P","pid":1,"tid":2,"ts":0,"id":"0x1","args":{"data":{"cpuProfile":{"samples":[2]},"timeDeltas":[10]}}}
]}
JSON
"$STACKSCOPE" report --by line --value samples --format tsv "$TMPD/hand.trace.json" 2>&1 |
    awk -F'\t' 'NR > 1 { print $1 " " $2 }' | LC_ALL=C sort >"$TMPD/hand.tlines"
expect "trace: a chunk without lines takes its samples' lines from the nodes, the others keep theirs" \
    "t.js#12 1|t.js#13 1|t.js#3 1" "$(tr '\n' '|' <"$TMPD/hand.tlines" | sed 's/|$//')"

# Bad input: each names the byte offset (exit 2); the offsets were counted
# by hand (the head below is 64 bytes: the text after it starts at byte 64).
cp_bad() { # NAME JSON PATTERN
    printf '%s' "$2" >"$TMPD/bad.cpuprofile"
    bad_input "cpuprofile: $1" "$TMPD/bad.cpuprofile" "$3"
}
head='{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":""}'
cp_bad "trailing comma" "$head,}],\"samples\":[],\"timeDeltas\":[],\"startTime\":0}" \
    'bad.cpuprofile: byte 65: a comma before a closing bracket'
cp_bad "text ends early" "$head" 'byte 64: the JSON text ends early'
cp_bad "leading zero" "$head,\"x\":01}]}" 'byte 69: a number with a leading zero'
cp_bad "bad escape" "$head,\"x\":\"\\q\"}]}" 'byte 70: an invalid escape'
cp_bad "lone surrogate" "$head,\"x\":\"\\udc00\"}]}" 'byte 70: a lone low surrogate'
cp_bad "control character" "$head,\"x\":\"a	b\"}]}" 'byte 71: a control character inside a string'
cp_bad "invalid UTF-8" "$head,\"x\":\"a$(printf '\xff')\"}]}" 'byte 71: invalid UTF-8'
cp_bad "NaN" "$head,\"x\":NaN}]}" 'byte 69: expected a value'
cp_bad "text after the value" "$head}],\"samples\":[],\"timeDeltas\":[],\"startTime\":0} x" \
    'byte 111: more text after the JSON value'
deep=$(printf '[%.0s' $(seq 600))
cp_bad "nesting depth" "$head,\"x\":$deep" 'nested deeper than 512'
cp_bad "unknown child" "$head,\"children\":[5]}],\"samples\":[],\"timeDeltas\":[],\"startTime\":0}" \
    'byte 77: a child that is not the id of a node'
cp_bad "a cycle" '{"nodes":[{"id":1,"callFrame":{"functionName":"a","url":""},"children":[2]},{"id":2,"callFrame":{"functionName":"b","url":""},"children":[1]}],"samples":[1],"timeDeltas":[1],"startTime":0}' \
    'deeper than 100000 frames \(or a cycle'
cp_bad "samples and deltas differ" "$head}],\"samples\":[1,1],\"timeDeltas\":[1],\"startTime\":0}" \
    '1 timeDeltas for 2 samples'
cp_bad "sample of no node" "$head}],\"samples\":[4],\"timeDeltas\":[1],\"startTime\":0}" \
    'a sample that is not the id of a node'
cp_bad "no samples" "$head}],\"startTime\":0}" "the profile's \"samples\" must be an array"
cp_bad "duplicate id" "$head},$(printf '%s' "$head" | sed 's/^{"nodes":\[//')}],\"samples\":[],\"timeDeltas\":[],\"startTime\":0}" \
    'a node id used twice'

# ---- 2. speedscope JSON --------------------------------------------------------

# Hand-made: two profiles in one file (sources), a sampled one in
# milliseconds and an evented one in microseconds; frames with file and line.
#   profile 1: samples [0,1] w 2, [0,1,2] w 3, [0] w 5, [] w 0 (ms)
#     -> 4 samples, durations 2e6 3e6 5e6 0 ns, interval = 10 ms / 4 = 2.5 ms
#   profile 2 (us): O main@0, O f@10, C f@30, O g@30, C g@35, C main@40
#     -> samples main 10, main;f 20, main;g 5, (nothing 35..35), main 5
cat >"$TMPD/two.speedscope.json" <<'JSON'
{"version":"0.0.1","$schema":"https://www.speedscope.app/file-format-schema.json",
 "shared":{"frames":[{"name":"main","file":"m.py","line":3},{"name":"f","file":"m.py","line":9},{"name":"g \"q\" \u00e9"}]},
 "profiles":[
  {"type":"sampled","name":"one","unit":"milliseconds","startValue":0,"endValue":10,
   "samples":[[0,1],[0,1,2],[0],[]],"weights":[2,3,5,0]},
  {"type":"evented","name":"two","unit":"microseconds","startValue":0,"endValue":40,
   "events":[{"type":"O","frame":0,"at":0},{"type":"O","frame":1,"at":10},{"type":"C","frame":1,"at":30},
             {"type":"O","frame":2,"at":30},{"type":"C","frame":2,"at":35},{"type":"C","frame":0,"at":40}]}]}
JSON
"$STACKSCOPE" check "$TMPD/two.speedscope.json" >"$TMPD/check" 2>&1
grep -q 'session 1: speedscope, interval 2.5 ms, 4 samples' "$TMPD/check" &&
    grep -q 'session 2: speedscope, interval 10 us, 4 samples' "$TMPD/check" &&
    pass "speedscope: two profiles are two sources; interval = mean weight" ||
    fail "speedscope: two profiles" "$(cat "$TMPD/check")"
expect "speedscope: durations (ns) of sampled and evented samples" \
    "2000000 3000000 5000000 0 10000 20000 5000 5000" \
    "$(durations "$TMPD/two.speedscope.json" | tr '\n' ' ' | sed 's/ $//')"
"$STACKSCOPE" report --by stacks --format folded "$TMPD/two.speedscope.json" >"$TMPD/two.folded"
printf '%s\n' 'main 3' 'main;f 2' 'main;f;g "q" é 1' 'main;g "q" é 1' >"$TMPD/two.want"
same_sorted "speedscope: stacks root first, escapes decoded" "$TMPD/two.want" "$TMPD/two.folded"
"$STACKSCOPE" report --by line --format tsv "$TMPD/two.speedscope.json" >"$TMPD/line.tsv"
grep -q '^m.py#9	' "$TMPD/line.tsv" && pass "speedscope: frames keep file and line" ||
    fail "speedscope: file and line" "$(head -5 "$TMPD/line.tsv")"

# unit none: weights are counts (0 left out, warned); bytes: a space value
cat >"$TMPD/none.speedscope.json" <<'JSON'
{"$schema":"https://www.speedscope.app/file-format-schema.json","version":"1","shared":{"frames":[{"name":"a"},{"name":"b"}]},
 "profiles":[{"type":"sampled","name":"n","unit":"none","startValue":0,"endValue":9,"samples":[[0],[0,1],[1]],"weights":[4,0,5]},
             {"type":"sampled","name":"m","unit":"bytes","startValue":0,"endValue":9,"samples":[[0,1]],"weights":[4096]}]}
JSON
"$STACKSCOPE" report --by stacks --format folded "$TMPD/none.speedscope.json" >"$TMPD/none.folded" 2>"$TMPD/none.err"
printf '%s\n' 'a 4' 'b 5' 'a;b 1' >"$TMPD/none.want"
same_sorted "speedscope: unit none weights are counts" "$TMPD/none.want" "$TMPD/none.folded"
grep -q '1 sample with weight 0 left out' "$TMPD/none.err" && pass "speedscope: weight 0 warned about" ||
    fail "speedscope: weight 0 warning" "$(cat "$TMPD/none.err")"
rm -rf "$TMPD/tab"
"$STACKSCOPE" convert -o "$TMPD/tab/" "$TMPD/none.speedscope.json" 2>/dev/null
expect "speedscope: unit bytes kept as the space value" "4096" \
    "$(awk -F'\t' '$2 == "space" && $3 != 0 { print $3 }' "$TMPD/tab/sample_values.tsv")"

# Bad input
ss_head='{"$schema":"https://www.speedscope.app/file-format-schema.json","shared":{"frames":[{"name":"a"}]},"profiles":['
ss_bad() { # NAME PROFILE PATTERN
    printf '%s%s]}' "$ss_head" "$2" >"$TMPD/bad.speedscope.json"
    bad_input "speedscope: $1" "$TMPD/bad.speedscope.json" "$3"
}
ss_bad "frame index out of range" '{"type":"sampled","name":"x","unit":"none","startValue":0,"endValue":1,"samples":[[1]],"weights":[1]}' \
    'byte 194: a frame index must be a whole number below the number of frames'
ss_bad "weights length" '{"type":"sampled","name":"x","unit":"none","startValue":0,"endValue":1,"samples":[[0]],"weights":[]}' \
    '"weights" must have one number per sample'
ss_bad "unbalanced events" '{"type":"evented","name":"x","unit":"none","startValue":0,"endValue":1,"events":[{"type":"O","frame":0,"at":0}]}' \
    'frames still open at the end of the events'
ss_bad "events back in time" '{"type":"evented","name":"x","unit":"none","startValue":0,"endValue":1,"events":[{"type":"O","frame":0,"at":5},{"type":"C","frame":0,"at":1}]}' \
    'non-decreasing "at" order'
ss_bad "unknown unit" '{"type":"sampled","name":"x","unit":"furlongs","startValue":0,"endValue":1,"samples":[],"weights":[]}' \
    'unit" must be none, nanoseconds'
ss_bad "fractional count" '{"type":"sampled","name":"x","unit":"none","startValue":0,"endValue":1,"samples":[[0]],"weights":[1.5]}' \
    'with unit "none" a weight is a count'

# Writing: every file written passes the schema checks and reads back with
# every sample.
if have node; then
    check_written() { # NAME INPUT: write, validate, read back
        local out="$TMPD/w.speedscope.json"
        rm -f "$out"
        if ! "$STACKSCOPE" convert -o "$out" "$2" 2>"$TMPD/err"; then
            fail "speedscope: write $1" "$(cat "$TMPD/err")"; return
        fi
        node "$ref/speedscope_check.js" "$out" >"$TMPD/valid"
        if head -1 "$TMPD/valid" | grep -qx ok; then pass "speedscope: $1 written passes the schema checks"
        else fail "speedscope: $1 written passes the schema checks" "$(cat "$TMPD/valid")"; fi
        node "$ref/json_schema.js" "$schema" "$out" >"$TMPD/valid"
        if grep -qx valid "$TMPD/valid"; then pass "speedscope: $1 written is valid under speedscope's schema"
        else fail "speedscope: $1 written is valid under speedscope's schema" "$(cat "$TMPD/valid")"; fi
        "$STACKSCOPE" report --by stacks --format folded "$2" >"$TMPD/in.folded" 2>/dev/null
        "$STACKSCOPE" report --by stacks --format folded "$out" >"$TMPD/out.folded" 2>/dev/null
        same_sorted "speedscope: $1 round trip keeps every stack and count" "$TMPD/in.folded" "$TMPD/out.folded"
        "$STACKSCOPE" report --by self --format tsv "$2" >"$TMPD/in.self" 2>/dev/null
        "$STACKSCOPE" report --by self --format tsv "$out" >"$TMPD/out.self" 2>/dev/null
        # times come back from nanoseconds: equal to 1e-12 relative
        if paste "$TMPD/in.self" "$TMPD/out.self" | awk -F'\t' 'NR == 1 { next }
                function far(a, b) { d = a - b; if (d < 0) d = -d; return d > 1e-12 * (a < 0 ? -a : a) + 1e-15 }
                $1 != $6 || far($2, $7) || far($3, $8) || far($4, $9) || far($5, $10) { print; bad = 1 }
                END { exit bad }' >"$TMPD/why" && [ "$(wc -l <"$TMPD/in.self")" = "$(wc -l <"$TMPD/out.self")" ]
        then pass "speedscope: $1 round trip keeps the times"
        else fail "speedscope: $1 round trip keeps the times" "$(head -2 "$TMPD/why")"; fi
        # the sample rows: as many as the input has, per source
        "$STACKSCOPE" check "$2" 2>/dev/null | grep -o '[0-9]* samples$' >"$TMPD/in.n"
        "$STACKSCOPE" check "$out" 2>/dev/null | grep -o '[0-9]* samples$' >"$TMPD/out.n"
        cmp -s "$TMPD/in.n" "$TMPD/out.n" && pass "speedscope: $1 round trip keeps every sample" ||
            fail "speedscope: $1 samples per source" "$(paste "$TMPD/in.n" "$TMPD/out.n")"
    }
    schema=$SRCDIR/tests/data/speedscope/file-format-schema.json
    check_written "Rprof with two sessions" "$SRCDIR/tests/data/rprof/append_two_sessions.out"
    check_written "hand-made speedscope" "$TMPD/two.speedscope.json"
    check_written "unit none" "$TMPD/none.speedscope.json"
    [ -n "${real:-}" ] && check_written ".cpuprofile" "$real"
    printf 'main;f;g 3\nmain;f 2\nmain;h h 1\n' >"$TMPD/hand.folded"
    check_written "folded stacks" "$TMPD/hand.folded"
    # the chosen measure with its unit: memory in bytes (the sum of the
    # samples with frames is report's total), samples as counts; and one
    # frame per function (speedscope's sandwich view keeps it whole)
    # weights_of FILE: "UNIT SUM" of the samples with frames, per profile
    weights_of() {
        node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
            for (const p of d.profiles) { let s = 0;
                p.samples.forEach((x, i) => { if (x.length) s += p.weights[i]; });
                console.log(p.unit, s); }' "$1"
    }
    mem=$SRCDIR/tests/data/rprof/memory.out
    for v in memory:bytes samples:none; do
        rm -f "$TMPD/v.speedscope.json"
        "$STACKSCOPE" convert --value "${v%%:*}" -o "$TMPD/v.speedscope.json" "$mem" 2>/dev/null
        want="${v#*:} $("$STACKSCOPE" report --value "${v%%:*}" --format tsv "$mem" | awk -F'\t' 'NR > 1 { s += $2 } END { printf "%.17g", s }')"
        expect "speedscope: --value ${v%%:*} is written in ${v#*:}, adding up to report's total" "$want" \
            "$(weights_of "$TMPD/v.speedscope.json")"
        node "$ref/json_schema.js" "$schema" "$TMPD/v.speedscope.json" | grep -qx valid ||
            fail "speedscope: --value ${v%%:*} valid under the schema" "$(node "$ref/json_schema.js" "$schema" "$TMPD/v.speedscope.json")"
    done
    "$STACKSCOPE" convert -o "$TMPD/f.speedscope.json" "$SRCDIR/tests/data/rprof/line.out" 2>/dev/null
    expect "speedscope: one frame per function (lines are not split into frames)" \
        "$("$STACKSCOPE" report --format tsv "$SRCDIR/tests/data/rprof/line.out" | tail -n +2 | wc -l)" \
        "$(node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
            const n = d.shared.frames.map((f) => f.name); console.log(new Set(n).size === n.length ? n.length : -1)' \
            "$TMPD/f.speedscope.json")"
    # the per-sample durations survive too
    if [ -n "${real:-}" ]; then
        durations "$real" >"$TMPD/a.dur"
        "$STACKSCOPE" convert -o "$TMPD/rt.speedscope.json" "$real" && durations "$TMPD/rt.speedscope.json" >"$TMPD/b.dur"
        cmp -s "$TMPD/a.dur" "$TMPD/b.dur" && pass "speedscope: a .cpuprofile's durations survive the round trip" ||
            fail "speedscope: durations round trip" "$(diff "$TMPD/a.dur" "$TMPD/b.dur" | head -3)"
    fi
    # the checker itself refuses what breaks the spec
    printf '{"$schema":"https://www.speedscope.app/file-format-schema.json","version":"1","shared":{"frames":[]},"profiles":[{"type":"sampled","name":"x","unit":"none","startValue":0,"endValue":1,"samples":[[0]],"weights":[1]}]}' >"$TMPD/broken.json"
    node "$ref/speedscope_check.js" "$TMPD/broken.json" >/dev/null && fail "speedscope: the checker refuses a bad index" "accepted" ||
        pass "speedscope: the checker refuses a bad index"
else
    echo "SKIP: node is not installed: written speedscope files not validated"
fi
expect "speedscope: --to speedscope by name" "speedscope" \
    "$("$STACKSCOPE" convert --to speedscope -o "$TMPD/any.json" "$TMPD/hand.cpuprofile" 2>/dev/null && "$STACKSCOPE" check "$TMPD/any.json" | grep -o speedscope | head -1)"
"$STACKSCOPE" convert --to cpuprofile -o "$TMPD/x" "$TMPD/hand.cpuprofile" >/dev/null 2>"$TMPD/err"
[ $? -eq 1 ] && grep -q "^stackscope: --to: stackscope reads cpuprofile but does not write it (it writes rprof, pprof, folded, sampling_prof, tables, speedscope and svg)" "$TMPD/err" && pass "--to a read-only format is a usage error" ||
    fail "--to cpuprofile" "$(cat "$TMPD/err")"

# ---- 3. Go's legacy text profiles ---------------------------------------------

# Headers as Go's runtime/pprof writes them (debug=1), and a goroutine dump.
go_case() { # NAME TEXT PATTERN
    printf '%s' "$2" >"$TMPD/go.txt"
    bad_input "go text: $1" "$TMPD/go.txt" "$3"
}
go_case "goroutine profile" $'goroutine profile: total 4
2 @ 0x43b3c5 0x4077cc 0x46d0c1
#	0x43b3c4	runtime.gopark+0xc4	/usr/lib/go/src/runtime/proc.go:398

' \
    'go.txt:1: a Go goroutine profile in text form \(debug=1\), which stackscope does not read: fetch the profile without \?debug=1'
go_case "heap profile" $'heap profile: 3: 1024 [10: 4096] @ heap/524288
1: 512 [2: 1024] @ 0x4a1 0x4b2
' \
    'a Go heap or allocs profile in text form'
go_case "mutex profile" $'--- mutex:
cycles/second=2400000000
sampling period=1
' 'a Go mutex profile in text form'
go_case "block profile" $'--- contention:
cycles/second=2400000000
' 'a Go block or mutex profile in text form'
# (as Go writes it: one header line alone would be a folded stack, read as one)
go_case "threadcreate profile" $'threadcreate profile: total 7
7 @
#\t0x0

' 'a Go threadcreate profile'
go_case "goroutine dump" $'goroutine 1 [running]:
main.main()
	/tmp/x.go:5 +0x1d
' \
    'a Go goroutine dump \(debug=2, or a panic.s traceback\), not a profile'
# a folded line that merely starts alike is still folded
printf 'goroutine profile;main 3\n' >"$TMPD/g.folded"
expect "go text: a folded stack starting 'goroutine profile' is folded" "main 3" \
    "$("$STACKSCOPE" report --by stacks --format folded "$TMPD/g.folded" 2>&1 | sed 's/^goroutine profile;//')"

# ---- 4. Folded stacks with --interval -------------------------------------------

printf 'main;f;g 3\nmain;f 2\nmain;h 1000\n' >"$TMPD/i.folded"
# by hand: h 1000 x 1 ms = 1 s; g 3 ms; f self 2 ms, total 5 ms; 997us: h 0.997 s;
# 10us: 1005 samples = 10.05 ms (the text report rounds to 0.010 s)
expect "--interval 1ms: times are counts x 1 ms" "h 1|g 0.003|f 0.002" \
    "$("$STACKSCOPE" report --interval 1ms --format tsv "$TMPD/i.folded" | awk -F'\t' 'NR > 1 && $2 > 0 { printf "%s%s %s", (n++ ? "|" : ""), $1, $2 }')"
expect "--interval=997us on convert: Rprof's interval" "sample.interval=997" \
    "$("$STACKSCOPE" convert --interval=997us -o "$TMPD/i.out" "$TMPD/i.folded" && head -1 "$TMPD/i.out")"
expect "--interval in the explorer (no terminal: the report)" "time       0.010 s sampled" \
    "$("$STACKSCOPE" --interval 10us "$TMPD/i.folded" </dev/null 2>&1 | grep '^time')"
expect "--interval leaves other formats alone" \
    "$("$STACKSCOPE" report --format tsv "$SRCDIR/tests/data/rprof/append_two_sessions.out")" \
    "$("$STACKSCOPE" report --interval 1ms --format tsv "$SRCDIR/tests/data/rprof/append_two_sessions.out")"
for bad in 10 1xs 0ms -1ms 2h; do
    "$STACKSCOPE" report --interval "$bad" "$TMPD/i.folded" >/dev/null 2>"$TMPD/err"
    [ $? -eq 1 ] && grep -q "^stackscope: --interval: '$bad' is not a duration" "$TMPD/err" ||
        fail "--interval $bad refused" "$(cat "$TMPD/err")"
done
pass "--interval: durations without a unit or out of range are usage errors"

# ---- 5. perf script text ----------------------------------------------------------

# Hand-written, in the shapes perf script prints: [cpu] and pid/tid columns,
# a comm with a space, sym+0xoff, [unknown] with and without a DSO, an
# ip-only frame, a sample without a call chain (its frame on the header
# line), event modifiers, another event (cycles), a '#' header.
cat >"$TMPD/hand.perf" <<'PERF'
# ========
# captured on    : Wed Nov 25 08:46:00 2026
# ========
#
gzip  2582 [001]  4919.377196:    1000000 cpu-clock:ppp: 
	ffffffff813a2313 finish_task_switch.isra.0+0x93 ([kernel.kallsyms])
	            4330 deflate+0x10 (/usr/bin/gzip)
	            9a2d main (/usr/bin/gzip)

Web Content 77/78 [000] 4919.378163:    3000000 cpu-clock: 
	            430e [unknown] (/usr/lib/libxul.so)
	            12ab

gzip  2582 [001]  4919.379164:    2000000 task-clock:u:      4330 deflate+0x1c (/usr/bin/gzip)
gzip  2582 [001]  4919.380000:      51234 cycles:u: 
	            4330 deflate+0x1c (/usr/bin/gzip)
	            9a2d main+0x5 (/usr/bin/gzip)
PERF
"$STACKSCOPE" report --by stacks --format folded "$TMPD/hand.perf" >"$TMPD/hp.folded" 2>&1
printf '%s\n' 'gzip;main;deflate;finish_task_switch.isra.0 1' 'Web_Content;[unknown];[libxul.so] 1' \
    'gzip;deflate 1' 'gzip;main;deflate 1' >"$TMPD/hp.want"
same_sorted "perf: hand-written perf script text, folded as stackcollapse-perf.pl (an unresolved frame named after its module)" "$TMPD/hp.want" "$TMPD/hp.folded"
# the module of each sample's innermost frame is its dso label
"$STACKSCOPE" report --by labels --format tsv "$TMPD/hand.perf" 2>/dev/null |
    awk -F'\t' '$1 == "dso" { printf "%s=%s ", $2, $3 }' >"$TMPD/hp.dso"
expect "perf: the innermost frame's module is the sample's dso label" \
    "[kernel.kallsyms]=1 gzip=2 libxul.so=1 " "$(tr ' ' '\n' <"$TMPD/hp.dso" | LC_ALL=C sort | tr '\n' ' ' | sed 's/^ //')"
# periods: clock samples 1 ms + 3 ms + 2 ms = 6 ms over 3 samples: interval 2 ms
expect "perf: durations are the clock periods; cycles kept as events" "1000000 3000000 2000000 0|51234" \
    "$(durations "$TMPD/hand.perf" | tr '\n' ' ' | sed 's/ $//')|$(awk -F'\t' '$2 == "events" && $3 != 0 { print $3 }' "$TMPD/tab/sample_values.tsv")"
"$STACKSCOPE" check "$TMPD/hand.perf" >"$TMPD/check" 2>&1
grep -q 'session 1: perf, interval 2 ms, 4 samples' "$TMPD/check" &&
    pass "perf: check names it; interval is the mean clock period" || fail "perf: check" "$(cat "$TMPD/check")"
printf 'gzip 2582 4919.1: 1 cpu-clock:\n\t4330 f\n\nnot a header line\n' >"$TMPD/bad.perf"
bad_input "perf: a line that is not a header" "$TMPD/bad.perf" \
    'bad.perf:4: not a perf script sample header'

# A real capture, where the kernel lets us: perf record -g on gzip, folded
# by perf's own `perf script report stackcollapse`.
if have perf && perf record -F 999 -g -o "$TMPD/perf.data" -- gzip -9 -c "$STACKSCOPE" >/dev/null 2>"$TMPD/rec.err" &&
    perf script -i "$TMPD/perf.data" >"$TMPD/real.perf" 2>/dev/null && [ -s "$TMPD/real.perf" ]; then
    if perf script report stackcollapse -i "$TMPD/perf.data" >"$TMPD/perf.ref" 2>/dev/null && [ -s "$TMPD/perf.ref" ]; then
        # perf's stackcollapse.py names every unresolved frame [unknown];
        # stackscope names it after its module ([gzip]), as perf report
        # and stackcollapse-perf.pl do: the same stacks once that is undone
        "$STACKSCOPE" report --by stacks --format folded "$TMPD/real.perf" 2>/dev/null |
            perl -pe '1 while s/(^|;)\[(?!unknown\])[^];]*\](?=;| \d+$)/$1\[unknown\]/' |
            awk '{ n = $NF; $NF = ""; sub(/ $/, ""); c[$0] += n } END { for (k in c) print k " " c[k] }' \
                >"$TMPD/perf.ss"
        same_sorted "perf: a real perf record -g capture equals perf's stackcollapse" "$TMPD/perf.ref" "$TMPD/perf.ss"
    else
        echo "SKIP: perf script report stackcollapse does not run here (no Python scripting in perf)"
    fi
    # the time is the sum of the periods (cpu-clock: nanoseconds), summed here with awk
    want=$(awk '/^[^ \t#]/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { s += $(i + 1); break } }
        END { printf "%.9f", s / 1e9 }' "$TMPD/real.perf")
    got=$("$STACKSCOPE" report --format tsv "$TMPD/real.perf" | awk -F'\t' '$1 == "gzip" { printf "%.9f", $4 }')
    expect "perf: the time (gzip's total) is the sum of the periods" "$want" "$got"
    # perf report --no-children: samples per symbol, an unresolved one
    # ("[.] 0x...") counted under its module as [module]; and per dso (the
    # dso label of each sample)
    perf_self() { # PERF.DATA: "name<TAB>samples", from perf report
        perf report -i "$1" --no-children --stdio -g none -F sample,dso,sym 2>/dev/null |
            awk '/^#/ || NF < 4 { next } { n = $1; dso = $2; sym = $4
                    for (i = 5; i <= NF; i++) sym = sym " " $i
                    if (sym ~ /^0x[0-9a-f]+$/) sym = "[" dso "]"
                    c[sym] += n } END { for (k in c) print k "\t" c[k] }'
    }
    ss_self() { # PERF.TXT: "name<TAB>self samples", comm frames left out
        "$STACKSCOPE" report --value samples --format tsv "$1" 2>/dev/null |
            awk -F'\t' 'NR > 1 && $2 > 0 { print $1 "\t" $2 }'
    }
    perf_self "$TMPD/perf.data" >"$TMPD/pself.ref"
    ss_self "$TMPD/real.perf" >"$TMPD/pself.ss"
    same_sorted "perf: self samples per function equal perf report --no-children (unresolved: [module])" \
        "$TMPD/pself.ref" "$TMPD/pself.ss"
    perf report -i "$TMPD/perf.data" --no-children --stdio -g none -F sample,dso --sort dso 2>/dev/null |
        awk '/^#/ || NF < 2 { next } { print "dso\t" $2 "\t" $1 }' >"$TMPD/pdso.ref"
    "$STACKSCOPE" report --by labels --format tsv "$TMPD/real.perf" 2>/dev/null |
        awk -F'\t' '$1 == "dso" { print $1 "\t" $2 "\t" $3 }' >"$TMPD/pdso.ss"
    same_sorted "perf: the dso label's samples equal perf report --sort dso" "$TMPD/pdso.ref" "$TMPD/pdso.ss"
    # plain perf record (no call chains): perf pads the command name
    if perf record -F 999 -o "$TMPD/flat.data" -- gzip -9 -c "$STACKSCOPE" >/dev/null 2>&1 &&
        perf script -i "$TMPD/flat.data" >"$TMPD/flat.perf" 2>/dev/null && [ -s "$TMPD/flat.perf" ]; then
        grep -q '^  *[^ ]' "$TMPD/flat.perf" && pass "perf: perf script without call chains pads the command name" ||
            fail "perf: padded command names" "$(head -c 200 "$TMPD/flat.perf")"
        perf_self "$TMPD/flat.data" >"$TMPD/fself.ref"
        ss_self "$TMPD/flat.perf" >"$TMPD/fself.ss"
        same_sorted "perf: a capture without call chains is read, as perf report --no-children" \
            "$TMPD/fself.ref" "$TMPD/fself.ss"
        # perf's stackcollapse keeps only COMM without call chains: the
        # samples per command (the stacks' roots) must equal its counts
        if perf script report stackcollapse -i "$TMPD/flat.data" >"$TMPD/flat.ref" 2>/dev/null && [ -s "$TMPD/flat.ref" ]; then
            "$STACKSCOPE" report --by stacks --format folded "$TMPD/flat.perf" 2>/dev/null |
                awk '{ n = $NF; sub(/;.*/, ""); sub(/ [0-9]+$/, ""); c[$0] += n } END { for (k in c) print k, c[k] }' >"$TMPD/flat.ss"
            same_sorted "perf: a real perf record without -g (indented headers): samples per command as perf's stackcollapse" \
                "$TMPD/flat.ref" "$TMPD/flat.ss"
        fi
    fi
    # perf's own binary file: named, with the command that makes text
    bad_input "perf: a real perf.data is named, with perf script's command" "$TMPD/perf.data" \
        "perf.data: perf's binary perf.data, which stackscope does not read: run \`perf script -i $TMPD/perf.data > perf.txt\`"
else
    echo "SKIP: perf record does not work here ($(tail -1 "$TMPD/rec.err" 2>/dev/null)): no real capture checked"
fi

# gperftools' CPU profiler (Debian's libgoogle-perftools4): its binary
# profile is named, with what makes a pprof profile of it
prof=$(ls /usr/lib/*/libprofiler.so.0 2>/dev/null | head -1)
if [ -n "$prof" ] && CPUPROFILE="$TMPD/gz.prof" CPUPROFILE_FREQUENCY=1000 LD_PRELOAD="$prof" \
    gzip -9 -c "$STACKSCOPE" >/dev/null 2>&1 && [ -s "$TMPD/gz.prof" ]; then
    bad_input "gperftools: a real CPU profile is named, with pprof -proto's command" "$TMPD/gz.prof" \
        "gz.prof: a gperftools CPU profile \(its binary format\), which stackscope does not read: run \`pprof -proto PROGRAM $TMPD/gz.prof > profile.pb.gz\`"
else
    echo "SKIP: no gperftools CPU profile made (libprofiler.so.0: ${prof:-not installed})"
fi

# ---- detection stays exact ------------------------------------------------------

printf '{"traceEvents":[{"name":"x","ph":"X","ts":1,"dur":2}]}\n' >"$TMPD/trace.json"
bad_input "detection: a Chrome trace without a CPU profile says how to record one" "$TMPD/trace.json" \
    'trace.json: a Chrome trace without a CPU profile \(no Profile and ProfileChunk events\): record it with the category disabled-by-default-v8.cpu_profiler'
printf '{"events":[{"name":"x"}]}\n' >"$TMPD/other.json"
bad_input "detection: other JSON is refused, each JSON format saying why" "$TMPD/other.json" \
    'not a profile format stackscope reads; tried .*Chrome/Node CPU profile \(not a JSON object whose "nodes" are objects with a "callFrame"\), Chrome trace \(not a JSON object with a "traceEvents" array, nor an array of trace events\), speedscope \(not a JSON object with "\$schema"'
printf '{"nodes":[{"id":1}],"samples":[]}\n' >"$TMPD/nodes.json"
bad_input "detection: nodes without callFrame are not a CPU profile" "$TMPD/nodes.json" 'not a profile format'
printf '{"$schema":"https://example.com/other.json","profiles":[]}\n' >"$TMPD/schema.json"
bad_input "detection: another \$schema is not speedscope" "$TMPD/schema.json" 'not a profile format'
# a folded file whose stacks hold what the other detectors look for
printf '{"nodes":[;callFrame 3\nsample.interval=1;x 2\n' >"$TMPD/odd.folded"
expect "detection: folded lines that quote other formats stay folded" "folded" \
    "$("$STACKSCOPE" check "$TMPD/odd.folded" 2>&1 | grep -o 'folded' | head -1)"

finish
