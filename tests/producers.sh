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
while (Date.now() - t0 < 400) { busy(); strings(); [1, 2, 3].map((x) => x * fib(12)); }
JS
    (cd "$TMPD/node" && node --cpu-prof --cpu-prof-dir prof --cpu-prof-interval 500 work.js)
    real=$(ls "$TMPD"/node/prof/*.cpuprofile 2>/dev/null | head -1)
    if [ -n "$real" ]; then
        "$STACKSCOPE" check "$real" >"$TMPD/check" 2>&1
        expect "cpuprofile: check detects it" "cpuprofile" \
            "$(grep -o 'cpuprofile' "$TMPD/check" | head -1)"
        node "$ref/cpuprofile_ref.js" folded "$real" >"$TMPD/ref.folded"
        "$STACKSCOPE" report --by stacks --format folded "$real" >"$TMPD/ss.folded"
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
        self_times_match "cpuprofile: self times are counts x the mean interval" "$real" \
            "$TMPD/ref.self"
        for f in '(program)' fib busy strings; do
            grep -q "^$f"$'\t' "$TMPD/self.tsv" || grep -q "(^|;)$f( |;)" "$TMPD/ss.folded" ||
                fail "cpuprofile: frame $f present" "missing"
        done
    else
        fail "cpuprofile: node --cpu-prof wrote a profile" "no file in $TMPD/node/prof"
    fi
else
    echo "SKIP: node is not installed (apt-get install nodejs): no real .cpuprofile checked"
fi

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
printf '%s\n' 'main;(anonymous) 1' 'main;(anonymous);leaf "q" 1' '(idle) 1' >"$TMPD/hand.want"
same_sorted "cpuprofile: hand-made tree (parent ids, anonymous, idle)" "$TMPD/hand.want" "$TMPD/hand.folded"
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

finish
