#!/bin/bash
# Bad input (stackscope(1), EXIT STATUS): every malformed file makes `report`
# and `check` exit 2 with a message on stderr naming the file (and FILE:LINE:
# where a line applies); never a crash, a sanitizer report, a hang or unbounded
# memory.
# A cut-off last line is not an error (stackscope(1), INPUT): exit 0 and a
# warning.
# The inputs are generated here, at test time, deterministically.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

T=$TMPD
MAX_RSS_KB=204800 # 200 MB

# The memory cap: a virtual-memory limit unless the binary is built with
# AddressSanitizer (it reserves terabytes of shadow address space), plus a
# peak-RSS check through GNU time when it is there.
VLIMIT=1048576
if grep -q -a __asan_init "$STACKSCOPE" 2>/dev/null; then VLIMIT=; fi
TIME=
if [ -x /usr/bin/time ] && /usr/bin/time -o /dev/null -f %M true 2>/dev/null; then
    TIME=/usr/bin/time
fi

# run ARGS...: run stackscope under timeout and the memory cap; sets RC, OUT,
# ERR (stdout and stderr text) and RSS (peak KB, empty when not measured).
run_n=0
run() {
    run_n=$((run_n + 1))
    local o=$T/run$run_n.out e=$T/run$run_n.err r=$T/run$run_n.rss
    (
        if [ -n "$VLIMIT" ]; then ulimit -v "$VLIMIT" 2>/dev/null; fi
        if [ -n "$TIME" ]; then
            exec timeout "${RUN_TIMEOUT:-10}" "$TIME" -o "$r" -f %M "$STACKSCOPE" "$@"
        else
            exec timeout "${RUN_TIMEOUT:-10}" "$STACKSCOPE" "$@"
        fi
    ) >"$o" 2>"$e" </dev/null
    RC=$?
    OUT=$(head -c 100000 "$o" | tr -d '\0')
    ERR=$(head -c 100000 "$e" | tr -d '\0')
    RSS=
    if [ -s "$r" ]; then RSS=$(tail -n 1 "$r"); fi
}

# sane WHAT: why the last run is not sane (crash, hang, sanitizer, memory),
# or nothing.
sane() {
    if [ "$RC" -eq 124 ]; then
        echo "$1: hung (killed after ${RUN_TIMEOUT:-10} s)"
    elif [ "$RC" -ge 128 ]; then
        echo "$1: crashed (status $RC): $(echo "$ERR" | head -n 3)"
    elif [[ $ERR == *AddressSanitizer* || $ERR == *LeakSanitizer* || $ERR == *"runtime error"* ]]; then
        echo "$1: sanitizer report: $(echo "$ERR" | grep -m 1 -E 'Sanitizer|runtime error')"
    elif [ -n "$RSS" ] && [ "$RSS" -gt "$MAX_RSS_KB" ] 2>/dev/null; then
        echo "$1: peak RSS ${RSS} KB > $MAX_RSS_KB KB"
    fi
}

# bad NAME FILE [LINE]: FILE is bad input; LINE is the line the message must
# name (FILE:LINE:), "any" for some line, or empty when no line applies.
bad() {
    local name=$1 f=$2 line=$3 why='' cmd want
    case $line in
    "") want="'$f'" ;;
    any) want="'$f:LINE:'" ;;
    *) want="'$f:$line:'" ;;
    esac
    for cmd in report check; do
        if [ "$cmd" = report ]; then run report --format tsv "$f"; else run check "$f"; fi
        why=$(sane "$cmd")
        if [ -z "$why" ] && [ "$RC" -ne 2 ]; then
            why="$cmd: exit $RC, expected 2 (stderr: $(echo "$ERR" | head -n 1))"
        fi
        if [ -z "$why" ]; then
            case $line in
            "") [[ $ERR == *"$f"* ]] ;;
            any) [[ $ERR == *"$f:"[0-9]*:* ]] ;;
            *) [[ $ERR == *"$f:$line:"* ]] ;;
            esac || why="$cmd: stderr does not name $want: $(echo "$ERR" | head -n 1)"
        fi
        if [ -z "$why" ] && [ "$cmd" = report ] && [ -n "$OUT" ]; then
            why="report: printed a table for bad input: $(echo "$OUT" | head -n 1)"
        fi
        [ -z "$why" ] || break
    done
    if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why"; fi
}

H='sample.interval=20000'

# Deterministic pseudo-random bytes: a 32-bit LCG in perl (not perl's rand,
# whose sequence is not promised to stay the same).
prbytes() { # N SEED
    perl -e 'my ($n, $x) = @ARGV; my $s = "";
             for (1 .. $n) { $x = ($x * 1664525 + 1013904223) % 4294967296;
                             $s .= chr($x >> 24); }
             binmode STDOUT; print $s;' "$1" "$2"
}

# 10 MB of 'x' without a line end.
ten_mb() { head -c 10485760 /dev/zero | tr '\0' x; }

# ---- cases ---------------------------------------------------------------

: >"$T/empty"
bad empty-file "$T/empty"

if have perl; then
    prbytes 100000 42 >"$T/garbage"
    bad binary-garbage "$T/garbage" any
    { echo "$H"; echo '"a" '; prbytes 100000 7; } >"$T/garbage-body"
    bad binary-garbage-after-header "$T/garbage-body" any
else
    fail binary-garbage "perl is needed to generate the bytes"
fi

printf '%s\n"a" "b\0c" \n"d" \n' "$H" >"$T/nul"
bad nul-in-sample-line "$T/nul" 2

{ ten_mb; echo; echo '"a" '; } >"$T/long-first"
bad 10mb-first-line "$T/long-first" 1

# good NAME FILE WANT: FILE is read (exit 0, sane, no more than the memory
# cap) and `report --by self --format tsv` gives WANT as "LENGTH-OF-NAME
# SELF-TIME" lines, sorted (as text), on one line.
good() {
    local why=''
    run report --by self --format tsv "$2"
    why=$(sane report)
    if [ -z "$why" ] && [ "$RC" -ne 0 ]; then why="exit $RC: $(echo "$ERR" | head -n 1)"; fi
    if [ -z "$why" ]; then
        local got
        got=$(awk -F '\t' 'NR > 1 { print length($1), $2 }' "$T/run$run_n.out" | sort | tr '\n' ' ')
        [ "$got" = "$3" ] || why="got '$got', expected '$3'"
    fi
    if [ -z "$why" ]; then pass "$1"; else fail "$1" "$why"; fi
}

# A 10 MB name is legal (a line of a regular file is limited only by the
# file's size): read within the memory cap, the name whole.
{ echo "$H"; echo '"a" '; printf '"'; ten_mb; printf '" \n"b" \n'; } >"$T/long-name"
good 10mb-sample-line-one-name "$T/long-name" "1 0.02 1 0.02 10485760 0.02 "

# 2.6 million frames on one line: a guard against trusting stack depth.
{ echo "$H"; echo '"a" '; yes '"a"' | head -n 2621440 | tr '\n' ' '; echo; } >"$T/long-frames"
bad 10mb-sample-line-many-frames "$T/long-frames" 3

printf '%s\n"a" "b" \n"abc\n"x" \n"y" \n' "$H" >"$T/unterminated"
bad unterminated-quote "$T/unterminated" 3

printf 'sample.interva=20000\n"a" \n' >"$T/hdr-typo"
bad header-typo "$T/hdr-typo" 1
printf 'sample.interval=\n"a" \n' >"$T/hdr-empty"
bad header-no-interval "$T/hdr-empty" 1
printf 'sample.interval=20000x\n"a" \n' >"$T/hdr-suffix"
bad header-interval-suffix "$T/hdr-suffix" 1
printf 'sample.interval=-20000\n"a" \n' >"$T/hdr-neg"
bad header-negative-interval "$T/hdr-neg" 1
printf 'sample.interval=0\n"a" \n' >"$T/hdr-zero"
bad header-zero-interval "$T/hdr-zero" 1
printf 'sample.interval=99999999999999999999\n"a" \n' >"$T/hdr-huge"
bad header-huge-interval "$T/hdr-huge" 1
printf '%s\n"a" \nsample.interval=0\n"b" \n' "$H" >"$T/hdr-second"
bad second-session-bad-interval "$T/hdr-second" 3

mkdir "$T/a-directory"
bad directory "$T/a-directory"
bad missing-file "$T/no-such-file"

printf '\037\213\010\000\000\000\000\000\000\003garbage, not deflate' >"$T/gzip"
bad gzip-garbage "$T/gzip"
# an Rprof file that someone gzipped: named as gzipped text, with what to do
{ printf '%s\n' "$H"; for i in $(seq 40); do printf '"f" "g" "main" \n'; done; } | gzip -n >"$T/rprof.out.gz"
bad gzip-text "$T/rprof.out.gz"
if [[ $ERR == *"rprof.out.gz: gzip-compressed text, not a pprof profile (it begins \"$H\"): stackscope reads text profiles uncompressed: gunzip -k"* ]]; then
    pass gzip-text-named
else
    fail gzip-text-named "$ERR"
fi
# a memory profile's first bytes parse as protobuf fields for a while: named too
{ printf 'memory profiling: %s\n' "$H"; for i in $(seq 40); do printf ':1:2:3:4:"f" "main" \n'; done; } | gzip -n >"$T/mem.out.gz"
run report "$T/mem.out.gz"
if [ "$RC" -eq 2 ] && [[ $ERR == *"mem.out.gz: gzip-compressed text, not a pprof profile (it begins \"memory profiling: $H\")"* ]]; then
    pass gzip-text-memory-named
else
    fail gzip-text-memory-named "exit $RC: $ERR"
fi

printf 'memory profiling: %s\n:1:2:3:4:"a" \n"b" \n' "$H" >"$T/mem-missing"
bad memory-prefix-missing "$T/mem-missing" 3
printf 'memory profiling: %s\n:1:2:x:4:"a" \n' "$H" >"$T/mem-bad"
bad memory-prefix-bad "$T/mem-bad" 2
printf 'memory profiling: %s\n:1:2:3:4:"a" \n:1:2:3:"b" \n' "$H" >"$T/mem-short"
bad memory-prefix-three-fields "$T/mem-short" 3

printf '%s\n"a" \nzz "b" \n' "$H" >"$T/token-lead"
bad garbage-token-first "$T/token-lead" 3
printf '%s\n"a" \n"a" "b" zz \n' "$H" >"$T/token-tail"
bad garbage-token-last "$T/token-tail" 3

printf 'line profiling: %s\n#File x: a.R\n1#2 "f" \n' "$H" >"$T/file-bad"
bad file-line-bad-number "$T/file-bad" 2
printf 'line profiling: %s\n#File 1: a.R\n1000000000#3 "f" \n' "$H" >"$T/file-billion"
bad billion-file-number "$T/file-billion" 3
printf 'line profiling: %s\n#File 1000000000: a.R\n1#3 "f" \n' "$H" >"$T/file-decl-billion"
bad billion-file-declaration "$T/file-decl-billion" 2

# ---- pprof (gzip-compressed or raw profile.proto) ----------------------------
# A minimal raw profile, field by field (tag, length, payload):
#   sample_type {type 1 unit 2}             0a 04 08 01 10 02
#   sample {location_id [L] value [1]}      12 06 0a 01 L 12 01 01
#   location {id 1 line {function 1 line 3}} 22 08 08 01 22 04 08 01 10 03
#   function {id 1 name N}                  2a 04 08 01 10 N
#   string_table "" samples count f         32 00 32 07 ... 32 05 ... 32 01 f
byte() { printf "\\x$(printf %02x "$1")"; }
pb_profile() { # LOCATION_ID FUNCTION_NAME_INDEX (each below 128)
    printf '\x0a\x04\x08\x01\x10\x02'
    printf '\x12\x06\x0a\x01'; byte "$1"; printf '\x12\x01\x01'
    printf '\x22\x08\x08\x01\x22\x04\x08\x01\x10\x03'
    printf '\x2a\x04\x08\x01\x10'; byte "$2"
    printf '\x32\x00\x32\x07samples\x32\x05count\x32\x01f'
}
pb_profile 1 3 >"$T/pb-good"
run report --format tsv "$T/pb-good"
if [ "$RC" -eq 0 ] && [[ $OUT == *$'\nf\t'* ]]; then pass pprof-minimal-raw-loads; else
    fail pprof-minimal-raw-loads "exit $RC: $ERR$(echo "$OUT" | head -n 2)"; fi
pb_profile 1 3 | gzip -n >"$T/pb-good.gz"
run report --format tsv "$T/pb-good.gz"
if [ "$RC" -eq 0 ] && [[ $OUT == *$'\nf\t'* ]]; then pass pprof-minimal-gzip-loads; else
    fail pprof-minimal-gzip-loads "exit $RC: $ERR"; fi

pb_profile 5 3 | gzip -n >"$T/pb-location-id"
bad pprof-location-id-out-of-range "$T/pb-location-id"
[[ $ERR == *"location id 5 does not exist"* ]] || fail pprof-location-id-message "$ERR"
pb_profile 1 9 | gzip -n >"$T/pb-string-index"
bad pprof-string-index-out-of-range "$T/pb-string-index"
[[ $ERR == *"string index 9 out of range"* ]] || fail pprof-string-index-message "$ERR"
{ pb_profile 1 3; printf '\x22\x08\x08\x01\x22\x04\x08\x07\x10\x03'; } | gzip -n >"$T/pb-function-id"
bad pprof-duplicate-location-id "$T/pb-function-id"
{ printf '\x12\xff\xff\xff\xff\x0f\x0a\x01\x01'; pb_profile 1 3; } >"$T/pb-length"
bad pprof-absurd-declared-length "$T/pb-length"
[[ $ERR == *"byte 0: declared length runs past the end"* ]] || fail pprof-absurd-length-message "$ERR"
{ printf '\x32\xff\xff\xff\xff\xff\xff\xff\xff\x7f'; pb_profile 1 3; } | gzip -n >"$T/pb-length-gz"
bad pprof-absurd-declared-length-gzip "$T/pb-length-gz"
# A sparse id (2^64 - 1) must not make a table of that size.
printf '\x0a\x04\x08\x01\x10\x02\x12\x0f\x0a\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x12\x01\x01\x22\x11\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x22\x04\x08\x01\x10\x03\x2a\x04\x08\x01\x10\x03\x32\x00\x32\x07samples\x32\x05count\x32\x01f' >"$T/pb-sparse"
run report --format tsv "$T/pb-sparse"
why=$(sane report)
if [ -z "$why" ] && [ "$RC" -ne 0 ]; then why="exit $RC: $ERR"; fi
if [ -z "$why" ]; then pass pprof-sparse-id; else fail pprof-sparse-id "$why"; fi

head -c 2000 "$SRCDIR/tests/data/pprof/rprotobuf/gc.pb.gz" >"$T/pb-truncated"
bad pprof-truncated-gzip "$T/pb-truncated"
[[ $ERR == *"truncated gzip data"* ]] || fail pprof-truncated-gzip-message "$ERR"
pb_profile 1 3 | gzip -n | head -c 30 >"$T/pb-truncated-small"
bad pprof-truncated-gzip-small "$T/pb-truncated-small"
if have perl; then
    { printf '\037\213\010\000\000\000\000\000\000\003'; prbytes 5000 11; } >"$T/pb-gzip-header-garbage"
    bad pprof-gzip-header-then-garbage "$T/pb-gzip-header-garbage"
    prbytes 100000 3 | gzip -n >"$T/pb-gzip-of-garbage"
    bad pprof-gzip-of-garbage "$T/pb-gzip-of-garbage"
    { pb_profile 1 3 | gzip -n; prbytes 100 5; } >"$T/pb-after-gzip"
    bad pprof-garbage-after-gzip "$T/pb-after-gzip"
fi
# A gzip bomb: 10 members of 100 MB of zeros (1e9 bytes in ~4 MB) is refused
# at its first bad byte, after inflating a few MB, not 1 GB (sane() checks
# the peak memory).
head -c 100000000 /dev/zero | gzip -1 -n >"$T/zeros-member"
for i in 1 2 3 4 5 6 7 8 9 10; do cat "$T/zeros-member"; done >"$T/pb-bomb"
rm -f "$T/zeros-member"
bad pprof-gzip-bomb-of-zeros "$T/pb-bomb"
[[ $ERR == *"byte 0 of the decompressed data: invalid field number"* ]] ||
    fail pprof-gzip-bomb-of-zeros-message "$ERR"
rm -f "$T/pb-bomb"
# A gzip bomb of valid protobuf fields ("2\n" repeated: string-table entries
# of 10 bytes): 11 x 100 MB in ~1 MB, past the 1 GiB limit.  Refused with the
# limit named, after counting the data without keeping it: memory stays at
# the budget (32 x the file), not 1 GiB.
yes 2 | head -c 100000000 | gzip -9 -n >"$T/twos-member"
for i in 1 2 3 4 5 6 7 8 9 10 11; do cat "$T/twos-member"; done >"$T/pb-bomb-fields"
rm -f "$T/twos-member"
# (inflating 1.1 GB takes seconds, more under the sanitizers and on a busy
# machine: this one is given two minutes; a hang still fails)
RUN_TIMEOUT=120 bad pprof-gzip-bomb-over-limit "$T/pb-bomb-fields"
[[ $ERR == *"decompresses to more than 1024 MiB, the limit"* ]] ||
    fail pprof-gzip-bomb-over-limit-message "$ERR"
rm -f "$T/pb-bomb-fields"
gzip -n </dev/null >"$T/pb-gzip-empty"
bad pprof-gzip-of-nothing "$T/pb-gzip-empty"
{ pb_profile 1 3; printf '\x12\x06\x0a\x01\x01\x12\x01'; } | gzip -n >"$T/pb-cut-protobuf"
bad pprof-gzip-of-cut-protobuf "$T/pb-cut-protobuf"

# SamplingProf (the Ruby gem's four chunks): a good file, then one fault each.
sp() { # NAME LINE RUNTIME ELEMENTS COUNTS EDGES [TAIL]: chunks, lines joined by |
    local f=$T/sp-$1
    { printf '%s\n\n' "$3"; printf '%s\n' "$4" | tr '|' '\n'; echo
      printf '%s\n' "$5" | tr '|' '\n'; echo; printf '%s\n' "$6" | tr '|' '\n'
      if [ -n "$7" ]; then printf '%s' "$7"; fi; } >"$f"
    bad "sampling-prof-$1" "$f" "$2"
}
E='a.rb:1:f,0|b.rb:2:g,1' C='0,0,1|1,1,1' G='-1,0,1|0,1,1'
sp runtime-negative 1 -5 "$E" "$C" "$G"
sp runtime-two-numbers 1 '1.2.3' "$E" "$C" "$G"
sp element-no-line 4 5 'a.rb:1:f,0|b.rb:g,1' "$C" "$G"
sp element-no-id 3 5 'a.rb:1:f|b.rb:2:g,1' "$C" "$G"
sp element-huge-id 4 5 'a.rb:1:f,0|b.rb:2:g,99999999999999999999' "$C" "$G"
sp element-id-twice 4 5 'a.rb:1:f,0|b.rb:2:g,0' "$C" "$G"
sp count-not-a-number 6 5 "$E" '0,x,1|1,1,1' "$G"
sp count-negative 7 5 "$E" '0,0,1|1,-1,1' "$G"
sp count-huge 6 5 "$E" '0,0,99999999999999999999|1,1,1' "$G"
sp count-unknown-id 7 5 "$E" '0,0,1|7,1,1' "$G"
sp count-two-fields 6 5 "$E" '0,0|1,1,1' "$G"
sp self-over-total 7 5 "$E" '0,0,1|1,2,1' "$G"
sp edge-unknown-callee 9 5 "$E" "$C" '-1,9,1|0,1,1'
sp edge-unknown-caller 10 5 "$E" "$C" '-1,0,1|5,1,1'
sp edge-negative-count 10 5 "$E" "$C" '-1,0,1|0,1,-1'
sp edge-twice 10 5 "$E" "$C" '-1,0,1|-1,0,1'
sp fifth-chunk 12 5 "$E" "$C" "$G" $'\nextra\n'
printf '5\n\na.rb:1:f,0\n\n0,1,1\n' >"$T/sp-missing-chunk"
bad sampling-prof-missing-call-graph "$T/sp-missing-chunk" 5
printf '5\n\n' >"$T/sp-runtime-only"
bad sampling-prof-runtime-only "$T/sp-runtime-only" 2
printf '5\n\na.rb:1:f\0x,0\n\n0,1,1\n\n-1,0,1\n' >"$T/sp-nul"
bad sampling-prof-nul-byte "$T/sp-nul" 3

# "a" zz "b": labels are never escaped and may hold quotes and spaces
# (stackscope(1), INPUT; R writes them as they are), so this line is one name, 'a" zz "b', not
# an error.
printf '%s\n"a" zz "b" \n' "$H" >"$T/token-mid"
run report --format tsv "$T/token-mid"
why=$(sane report)
if [ -z "$why" ] && [ "$RC" -ne 0 ]; then why="exit $RC, expected 0: $ERR"; fi
if [ -z "$why" ] && [[ $OUT != *$'\na" zz "b\t'* ]]; then
    why="expected one name 'a\" zz \"b', got: $(echo "$OUT" | sed -n 2p)"
fi
if [ -z "$why" ]; then pass quote-space-inside-name; else fail quote-space-inside-name "$why"; fi

# A cut-off last line is not an error: the complete samples are kept.
printf '%s\n"a" "b" \n"a" "b' "$H" >"$T/cut"
run report --format tsv "$T/cut"
why=$(sane report)
if [ -z "$why" ] && [ "$RC" -ne 0 ]; then why="exit $RC, expected 0: $ERR"; fi
if [ -z "$why" ] && ! [[ $ERR == *warning* && $ERR == *"$T/cut:3"* ]]; then
    why="expected a warning naming '$T/cut:3', got: $ERR"
fi
if [ -z "$why" ]; then
    got=$(echo "$OUT" | awk -F '\t' 'NR > 1 { printf "%s %s %s;", $1, $2, $4 }')
    [ "$got" = "a 0.02 0.02;b 0 0.02;" ] ||
        why="expected only the complete sample (a 0.02 0.02;b 0 0.02;), got: $got"
fi
if [ -z "$why" ]; then pass cut-off-last-line; else fail cut-off-last-line "$why"; fi

# ---- folded stacks (the first line makes the file folded) --------------------

# bad_in NAME INPUT WHERE: INPUT (a file or a tables directory) is bad input
# and stderr must contain WHERE (FILE:LINE: of the file at fault).
bad_in() {
    local name=$1 f=$2 where=$3 why='' cmd
    for cmd in report check; do
        if [ "$cmd" = report ]; then run report --format tsv "$f"; else run check "$f"; fi
        why=$(sane "$cmd")
        if [ -z "$why" ] && [ "$RC" -ne 2 ]; then
            why="$cmd: exit $RC, expected 2 (stderr: $(echo "$ERR" | head -n 1))"
        fi
        if [ -z "$why" ] && [[ $ERR != *"$where"* ]]; then
            why="$cmd: stderr does not name '$where': $(echo "$ERR" | head -n 1)"
        fi
        [ -z "$why" ] || break
    done
    if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why"; fi
}

printf 'main;f 3\nmain;g x\n' >"$T/fo-nan"
bad folded-count-not-a-number "$T/fo-nan" 2
printf 'main;f 3\nmain;g 1.5\n' >"$T/fo-frac"
bad folded-count-fraction "$T/fo-frac" 2
printf 'main;f 3\nmain;g\n' >"$T/fo-nocount"
bad folded-missing-count "$T/fo-nocount" 2
printf 'main;f 3\nmain;g -2\n' >"$T/fo-neg"
bad folded-negative-count "$T/fo-neg" 2
printf 'main;f 3\n 7\n' >"$T/fo-empty"
bad folded-empty-stack "$T/fo-empty" 2
printf 'main;f 3\nmain;g 1000000000000001\n' >"$T/fo-big"
bad folded-count-over-1e15 "$T/fo-big" 2
printf 'main;f 3\nmain;g 99999999999999999999999999\n' >"$T/fo-huge"
bad folded-count-26-digits "$T/fo-huge" 2
printf 'main;f 3\nma\0in;g 2\n' >"$T/fo-nul"
bad folded-nul "$T/fo-nul" 2
# Counts that add up past INT64_MAX, the model's limit (the folded reader had
# a lower one, 2^62, so its writer's output of a larger total did not read
# back): 9223 x 10^15 fit, line 9224 does not.
yes 'a;b 1000000000000000' | head -n 10000 >"$T/fo-sum"
bad folded-counts-overflow "$T/fo-sum" 9224
# A binary file whose first line goes on for 150 MB: refused at its first
# NUL byte, without mapping the whole line to find where it ends (the
# sniffers wait for the end of a long first line only when it may be folded
# stacks): peak RSS well under the file's size.
{ printf 'main;x\0'; head -c 150000000 /dev/zero | tr '\0' a; } >"$T/nul-long"
run check "$T/nul-long"
why=$(sane check)
if [ -z "$why" ] && { [ "$RC" -ne 2 ] || [[ $ERR != *"$T/nul-long:1: "*"folded stacks (line 1: NUL byte in the line (binary data?))"* ]]; }; then
    why="exit $RC: $(echo "$ERR" | head -c 300)"
fi
if [ -z "$why" ] && [ -n "$RSS" ] && [ -n "$VLIMIT" ] && [ "$RSS" -gt 80000 ]; then
    why="peak RSS $RSS KB for a 150 MB file refused at byte 6"
fi
if [ -z "$why" ]; then pass binary-150mb-first-line; else fail binary-150mb-first-line "$why"; fi
rm -f "$T/nul-long"
{ echo 'main;f 3'; ten_mb; echo ' 2'; } >"$T/fo-long"
good folded-10mb-name "$T/fo-long" "1 3 10485760 2 4 0 "
{ echo 'main;f 3'; yes 'a' | head -n 1000000 | tr '\n' ';'; echo 'b 1'; } >"$T/fo-deep"
bad folded-1000001-frames "$T/fo-deep" 2

# ---- v2 tables (a directory) -----------------------------------------------------

mkdir -p "$T/foreign" && echo hello >"$T/foreign/notes.txt"
bad_in tables-foreign-directory "$T/foreign" "$T/foreign: a directory without meta.tsv"
printf 'line profiling: %s\n#File 1: a.R\n1#2 "f" 1#3 "main" \n"g" "main" \n' "$H" >"$T/tiny.out"
if "$STACKSCOPE" convert -o "$T/tiny.t/" "$T/tiny.out" 2>/dev/null; then
    # tab TABLE.tsv LINE 'TEXT': a copy of the good tables with LINE replaced
    tab_n=0
    tab() {
        tab_n=$((tab_n + 1))
        TD=$T/tab$tab_n
        rm -rf "$TD"
        cp -r "$T/tiny.t" "$TD"
        if [ "$2" = delete ]; then
            rm "$TD/$1"
        else
            awk -v n="$2" -v t="$3" 'NR == n { print t; next } { print }' "$T/tiny.t/$1" >"$TD/$1"
        fi
    }
    tab meta.tsv delete
    bad_in tables-no-meta "$TD" "$TD: a directory without meta.tsv"
    tab samples.tsv delete
    bad_in tables-missing-file "$TD" "$TD/samples.tsv: missing"
    : >"$T/empty.tsv"
    tab stacks.tsv 1 ''
    bad_in tables-header-empty "$TD" "$TD/stacks.tsv:1: bad header"
    tab meta.tsv 2 $'version\t3.0\t\\N'
    bad_in tables-version "$TD" "$TD/meta.tsv:2:"
    tab meta.tsv 2 $'author\tme\t\\N'
    bad_in tables-version-missing "$TD" "$TD/meta.tsv:2:"
    tab sources.tsv 1 $'source_id\ttype\turi'
    bad_in tables-bad-header "$TD" "$TD/sources.tsv:1: bad header"
    tab sources.tsv 2 $'1\trprof\tx.out\t1\t1\t0\tfast\tline'
    bad_in tables-interval-not-a-number "$TD" "$TD/sources.tsv:2: column interval_us"
    tab sources.tsv 2 $'1\trprof\tx.out\t1\t1\t0\t-20000\tline'
    bad_in tables-interval-negative "$TD" "$TD/sources.tsv:2: column interval_us"
    tab sources.tsv 2 $'1\trprof\tx.out\t1\t1\t0\t0.0\tline'
    bad_in tables-interval-zero "$TD" "$TD/sources.tsv:2: column interval_us: 0.0 is out of range (above 0"
    tab sources.tsv 2 $'1\trprof\tx.out\t1\t1\t0\t20000\tline+turbo'
    bad_in tables-unknown-flag "$TD" "$TD/sources.tsv:2: column flags"
    tab samples.tsv 2 $'1\t1\t99'
    bad_in tables-stack-out-of-range "$TD" "$TD/samples.tsv:2: column stack_id"
    tab samples.tsv 2 $'1\t1\t99999999999999999999999'
    bad_in tables-stack-id-huge "$TD" "$TD/samples.tsv:2: column stack_id"
    tab samples.tsv 3 $'3\t1\t2'
    bad_in tables-sample-id-order "$TD" "$TD/samples.tsv:3: column sample_id"
    tab samples.tsv 2 $'1\t2\t1'
    bad_in tables-source-out-of-range "$TD" "$TD/samples.tsv:2: column source_id"
    tab samples.tsv 2 $'1\t1'
    bad_in tables-missing-field "$TD" "$TD/samples.tsv:2: expected 3"
    tab sample_values.tsv 2 $'1\tsamples\tmany'
    bad_in tables-value-not-a-number "$TD" "$TD/sample_values.tsv:2: column value"
    tab sample_values.tsv 2 $'1\tbytes\t5'
    bad_in tables-value-unknown-type "$TD" "$TD/sample_values.tsv:2: column type"
    tab sample_values.tsv 3 $'1\tsamples\t1'
    bad_in tables-value-twice "$TD" "$TD/sample_values.tsv:3:"
    tab locations.tsv 2 $'1\t0\t\\N\t0'
    bad_in tables-function-zero "$TD" "$TD/locations.tsv:2: column function_id"
    tab stacks.tsv 3 $'1\t3\t4'
    bad_in tables-depth-gap "$TD" "$TD/stacks.tsv:3: column depth"
    tab stacks.tsv 2 $'7\t1\t1'
    bad_in tables-stack-order "$TD" "$TD/stacks.tsv:2: column stack_id"
    tab functions.tsv 2 $'1\tf\\x\tf\t\\N\t0\t\\N'
    bad_in tables-bad-escape "$TD" "$TD/functions.tsv:2: column name"
else
    fail tables-cases "cannot write the tables of a tiny profile"
fi

# ---- no undefined behaviour, whatever the values (issue 18) ---------------------
# A value that would overflow is an error naming the file and the value, never a
# wrap; the sanitizer build (-fno-sanitize-recover) turns any overflow into a
# crash that sane() reports.

# expect NAME STATUS TEXT ARGS...: stackscope ARGS exits STATUS, sanely, with
# TEXT (if not empty) on stderr.
expect() {
    local name=$1 st=$2 text=$3 why
    shift 3
    run "$@"
    why=$(sane "$name")
    if [ -z "$why" ] && [ "$RC" -ne "$st" ]; then
        why="exit $RC, expected $st: $(echo "$ERR" | head -n 1)"
    fi
    if [ -z "$why" ] && [ -n "$text" ] && [[ $ERR != *"$text"* ]]; then
        why="stderr lacks '$text': $(echo "$ERR" | head -n 1)"
    fi
    if [ -z "$why" ]; then pass "$name"; else fail "$name" "$why"; fi
}

# Protocol buffers by hand: varints and length-delimited fields.
varint() { # N (0 to 2^63 - 1)
    local n=$1
    while [ "$n" -ge 128 ]; do
        printf "\\x$(printf %02x $(((n & 127) | 128)))"
        n=$((n >> 7))
    done
    printf "\\x$(printf %02x "$n")"
}
varints() { for n; do varint "$n"; done; }
pb_vi() { varint $(($1 << 3)); varint "$2"; } # FIELD N
pb_ld() { # FIELD CMD ARGS...: CMD's output as a length-delimited field
    local f=$1 tmp
    shift
    tmp=$(mktemp "$T/pb.XXXXXX")
    "$@" >"$tmp"
    varint $((f << 3 | 2))
    varint "$(wc -c <"$tmp")"
    cat "$tmp"
    rm -f "$tmp"
}
pb_vt_body() { pb_vi 1 "$1"; pb_vi 2 "$2"; }
pb_vt() { pb_ld "${3:-1}" pb_vt_body "$1" "$2"; } # TYPE UNIT [FIELD]
pb_sample_body() { pb_ld 1 varint "$1"; shift; pb_ld 2 varints "$@"; }
pb_sample() { pb_ld 2 pb_sample_body "$@"; } # LOCATION VALUE...
pb_line_body() { pb_vi 1 "$1"; pb_vi 2 3; }
pb_loc_body() { pb_vi 1 "$1"; pb_ld 4 pb_line_body "$2"; }
pb_fn_body() { pb_vi 1 "$1"; pb_vi 2 "$2"; }
# Locations 1 and 2 in functions 1 (f) and 2 (g), then the string table:
# 1 samples, 2 count, 3 f, 4 g, 5 cpu, 6 nanoseconds.
pb_tail() {
    pb_ld 4 pb_loc_body 1 1; pb_ld 4 pb_loc_body 2 2
    pb_ld 5 pb_fn_body 1 3; pb_ld 5 pb_fn_body 2 4
    for s in '' samples count f g cpu nanoseconds; do pb_ld 6 printf %s "$s"; done
}
M=9223372036854775807 # INT64_MAX

{ pb_vt 1 2; pb_sample 1 $M; pb_sample 2 $M; pb_tail; } >"$T/pb-sum"
bad pprof-counts-past-int64-max "$T/pb-sum"
[[ $ERR == *"sample 2: sample count $M makes the counts add up past $M"* ]] ||
    fail pprof-counts-past-int64-max-message "$ERR"
{ pb_vt 1 2; pb_sample 1 $M; pb_tail; } >"$T/pb-max"
expect pprof-count-int64-max-alone 0 '' check "$T/pb-max"
[[ $OUT == *"$M samples"* ]] || fail pprof-count-int64-max-alone-value "$OUT"
# Counts from cpu / period, rounded half up: INT64_MAX / 10 = ...580.7 -> ...581.
{ pb_vt 5 6; pb_sample 1 $M; pb_tail; pb_vt 5 6 11; pb_vi 12 10; } >"$T/pb-divide"
expect pprof-cpu-over-period-int64-max 0 '' check "$T/pb-divide"
[[ $OUT == *"922337203685477581 samples"* ]] || fail pprof-cpu-over-period-rounded "$OUT"
# count x period past INT64_MAX: the cpu value cannot match it; the time
# is then the cpu column (nanoseconds), each sample's own: 5 ns.
{ pb_vt 1 2; pb_vt 5 6; pb_sample 1 2 5; pb_tail; pb_vt 5 6 11; pb_vi 12 $M; } >"$T/pb-period"
expect pprof-count-times-period-overflow 0 '' report --format tsv --value time "$T/pb-period"
[[ $OUT == *$'\t5e-09\t'* ]] || fail pprof-count-times-period-overflow-time "$OUT"

# Several inputs whose counts add up past INT64_MAX: 2 x 4611e15 fit, the
# third file's second line does not.
yes 'a;b 1000000000000000' | head -n 4611 >"$T/fo-4611"
expect folded-inputs-past-int64-max 2 \
    "$T/fo-4611:2: sample count 1000000000000000 makes the counts add up past $M" \
    report --format tsv "$T/fo-4611" "$T/fo-4611" "$T/fo-4611"

# A tables directory whose counts add up past INT64_MAX: 10 x (10^18 - 1).
{ echo "$H"; yes '"a" ' | head -n 10; } >"$T/ten.out"
if "$STACKSCOPE" convert -o "$T/ten.t/" "$T/ten.out" 2>/dev/null; then
    sed 's/\tsamples\t1$/\tsamples\t999999999999999999/' "$T/ten.t/sample_values.tsv" >"$T/ten.tsv" &&
        mv "$T/ten.tsv" "$T/ten.t/sample_values.tsv"
    bad_in tables-counts-past-int64-max "$T/ten.t" \
        "$T/ten.t/sample_values.tsv: sample 10: sample count 999999999999999999 makes the counts add up past $M"
else
    fail tables-counts-past-int64-max "cannot write the tables of a 10-sample profile"
fi

# SamplingProf aggregates whose self counts add up past INT64_MAX: 9224 x 1e15.
{ printf '5\n\n'; seq 0 9223 | awk '{ print "a.rb:" $1 + 1 ":f" $1 "," $1 }'; echo
  seq 0 9223 | awk '{ print $1 ",1000000000000000,1000000000000000" }'; echo
  seq 0 9223 | awk '{ print "-1," $1 ",1" }'; } >"$T/sp-sum"
bad sampling-prof-counts-past-int64-max "$T/sp-sum"
[[ $ERR == *"self count 1000000000000000 makes the self counts add up past $M"* ]] ||
    fail sampling-prof-counts-past-int64-max-message "$ERR"

# Values a writer cannot hold: folded counts of 1e15 are 1e24 ns of pprof
# time, and more lines than Rprof writes.
printf 'main;f 1000000000000000\n' >"$T/fo-1e15"
expect folded-1e15-to-pprof 2 "the time in ns of sample 1 of $T/fo-1e15, 1e+24, does not fit" \
    convert --to pprof -o "$T/fo-1e15.pb.gz" "$T/fo-1e15"
[ ! -e "$T/fo-1e15.pb.gz" ] || fail folded-1e15-to-pprof-no-output "$T/fo-1e15.pb.gz written"
expect folded-1e15-to-rprof 1 "sample 1 of $T/fo-1e15 (count 1000000000000000)" \
    convert --to rprof -o "$T/fo-1e15.out" "$T/fo-1e15"
# 8 x 999999999999999999 twice + 999999999999999999 bytes = 1.7e19 > INT64_MAX.
printf 'memory profiling: %s\n:0:0:0:0:"a" \n:%s:%s:%s:0:"a" "b" \n' "$H" \
    999999999999999999 999999999999999999 999999999999999999 >"$T/mem-huge"
expect rprof-memory-1.7e19-bytes-to-pprof 2 \
    "the bytes allocated by sample 2 of $T/mem-huge, 1.7e+19, does not fit" \
    convert --to pprof -o "$T/mem-huge.pb.gz" "$T/mem-huge"
expect rprof-memory-1.7e19-bytes-report 0 '' report --memory --format tsv "$T/mem-huge"
got=$(echo "$OUT" | awk -F '\t' '$1 == "b" { print $6 }')
# 16999999999999999983 bytes / 1048576 = 16212463378906.2 MB
[[ $got == 16212463378906.* ]] || fail rprof-memory-1.7e19-bytes-value "b's mem.total is '$got'"
# A timestamp (seconds) whose nanoseconds do not fit pprof's time_nanos.
if "$STACKSCOPE" convert -o "$T/ts.t/" "$T/tiny.out" 2>/dev/null; then
    awk -F '\t' 'BEGIN { OFS = "\t" } NR == 2 { $6 = "1000000000000" } { print }' \
        "$T/ts.t/sources.tsv" >"$T/ts.tsv" && mv "$T/ts.tsv" "$T/ts.t/sources.tsv"
    expect tables-timestamp-1e12-to-pprof 2 \
        "the timestamp of $T/tiny.out, 1000000000000 s, does not fit pprof's time_nanos" \
        convert --to pprof -o "$T/ts.pb.gz" "$T/ts.t"
else
    fail tables-timestamp-1e12-to-pprof "cannot write the tables of a tiny profile"
fi

# Transform regexes that would make the matcher hang or eat memory are
# refused at once, naming the script's line and column (a usage error).
{ echo '# a comment'; printf 'drop /('; seq 1 100000 | sed 's/^/fn/' | paste -sd '|' | tr -d '\n'
  echo ')/'; } >"$T/alternation.script"
expect regex-790kb-alternation 1 \
    "$T/alternation.script:2:7: regular expression of 788896 bytes, longer than the limit of 1000" \
    report --script "$T/alternation.script" "$T/tiny.out"
printf 'keep-samples 1:2\n  drop /(a*)*\\1b/\n' >"$T/backref.script"
expect regex-back-reference 1 "$T/backref.script:2:14: back-references" \
    report --script "$T/backref.script" "$T/tiny.out"
expect regex-nested-bounds 1 "column 17: a {m,n} repetition of something that repeats already" \
    report -e 'drop /(.{1,200}){1,200}x/' "$T/tiny.out"
# Within the limits, the worst patterns stay fast on a 10 KB name.
{ echo "$H"; printf '"'; head -c 10000 /dev/zero | tr '\0' a; echo '" "main" '; } >"$T/long-name.out"
expect regex-worst-allowed-fast 0 '' report --format tsv \
    -e "drop /$(printf '.?%.0s' $(seq 1 50))x/" -e 'drop /.{0,128}.{0,128}x/' \
    -e 'drop /((a*)*)*b/' -e 'drop /(.*a)(.*a)(.*a)(.*a)x/' "$T/long-name.out"

# Empty, header-only and stackless-only Rprof files through every command
# (UBSan: no arithmetic on a NULL pointer, even with offset 0).
printf '%s\n' "$H" >"$T/hdr-only"
printf 'memory profiling: %s\n:1:2:3:4:\n' "$H" >"$T/stackless"
printf 'memory profiling: %s\n:1:2:3:4:\n:5:6:7:8:\n' "$H" >"$T/stackless2"
for f in hdr-only stackless stackless2 empty; do
    st=0
    [ $f = empty ] && st=2
    why=''
    for by in self total line stacks levels runs tree sources; do
        for fmt in text tsv; do
            e=$st # --by line of a file without line profiling: a usage error
            [ $by = line ] && [ $st = 0 ] && e=1
            run report --by $by --format $fmt "$T/$f"
            why=$(sane "report --by $by --format $fmt")
            [ -n "$why" ] || [ "$RC" -eq $e ] || why="report --by $by: exit $RC, expected $e"
            [ -z "$why" ] || break 2
        done
    done
    if [ -z "$why" ]; then
        run check "$T/$f"
        why=$(sane check)
        [ -n "$why" ] || [ "$RC" -eq $st ] || why="check: exit $RC, expected $st"
    fi
    for to in rprof pprof folded tables; do
        for e in 'trim-base 0' 'trim-base 1'; do # transformed: a fresh model
            [ -z "$why" ] || break 2
            rm -rf "$T/$f.$to"
            run convert --to $to -e "$e" -o "$T/$f.$to" "$T/$f"
            why=$(sane "convert --to $to -e '$e'")
            # no frames at all: folded refuses (its empty file could not be
            # read back), exit 1 with the reason
            if [ $to = folded ] && [ "$st" -eq 0 ] && [ "$RC" -eq 1 ] &&
                [[ $ERR == *"no sample has frames"* ]]; then
                continue
            fi
            [ -n "$why" ] || [ "$RC" -eq $st ] || why="convert --to $to: exit $RC, expected $st"
        done
    done
    if [ -z "$why" ]; then pass "rprof-$f-every-command"; else fail "rprof-$f-every-command" "$why"; fi
done

# check on a good and a bad file: a summary of the good one, the error of
# the bad one, exit 2.
printf '%s\n"f" "g" \n"g" \n' "$H" >"$T/good"
run check "$T/good" "$T/unterminated"
why=$(sane check)
if [ -z "$why" ] && [ "$RC" -ne 2 ]; then why="exit $RC, expected 2"; fi
if [ -z "$why" ] && ! echo "$OUT" | grep -F "$T/good" | grep -q -v error; then
    why="no summary line for the good file: $(echo "$OUT" | head -n 1)"
fi
if [ -z "$why" ] && ! [[ $OUT == *samples*2* ]]; then
    why="the summary does not give the good file's 2 samples: $OUT"
fi
if [ -z "$why" ] && ! [[ $ERR$OUT == *"$T/unterminated:3:"* ]]; then
    why="no error naming '$T/unterminated:3:': $ERR"
fi
if [ -z "$why" ]; then pass check-good-and-bad; else fail check-good-and-bad "$why"; fi

# report on a good and a bad file fails as a whole.
run report "$T/good" "$T/mem-bad"
why=$(sane report)
if [ -z "$why" ] && [ "$RC" -ne 2 ]; then why="exit $RC, expected 2"; fi
if [ -z "$why" ] && ! [[ $ERR == *"$T/mem-bad:2:"* ]]; then
    why="no error naming '$T/mem-bad:2:': $ERR"
fi
if [ -z "$why" ]; then pass report-good-and-bad; else fail report-good-and-bad "$why"; fi

finish
