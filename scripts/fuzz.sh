#!/bin/sh
# Fuzz stackscope with libFuzzer (clang, ASan + UBSan), one target after the
# other on one core (one in-process libFuzzer job at a time: no -jobs or
# -fork, which would start workers):
#   scripts/fuzz.sh [--minutes N | --seconds N] [TARGET...]
# Targets (tests/fuzz/fuzz_TARGET.c), all of them by default:
#   load       any file through the loaders (Rprof, pprof gzip and raw,
#              folded, SamplingProf) and the statistics
#   tables     a tables directory with one table replaced by the input
#   transform  the input as a transform script applied to a profile
#   write      load, write every format, read back: round trips must hold
#   ui         the explorer, headless, driven by the input as a key script
#   state      the input as the explorer's session state file (after a file
#              name up to its first NUL): read, and written back and read
#              again, which must give the same transform list
#   cpuprofile Chrome/Node .cpuprofile JSON       (seeds: tests/data/producers/TARGET,
#   speedscope speedscope JSON                     small files of the real producers)
#   perf       perf script text
#   gotext     Go's text profiles (recognised and refused) and detection
# FUZZ_TIMEOUT (seconds, default 10): an input running longer is a finding
# (libFuzzer's -timeout, wall-clock time: raise it on a loaded machine).
# Each runs N minutes (default 1) from the test fixtures and its corpus of
# earlier runs (build-fuzz/corpus/TARGET, kept).  Every crash, timeout, leak
# or out-of-memory input is copied to tests/data/fuzz/pending/TARGET/: once
# fixed, move it to tests/data/fuzz/TARGET/, which `make check` replays
# (tests/fuzz/replay.c).  Needs clang and libFuzzer: scripts/deps.sh fuzz.
# Prints per target the executions, coverage (cov, ft) and findings, also
# kept in build-fuzz/summary.tsv; exits 1 when a target found something.
# Several invocations may run at once, each on other targets (once the
# first has built them): every target has its own logs and corpus.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
secs=60
targets=""
while [ $# -gt 0 ]; do
    case $1 in
    --minutes) secs=$(($2 * 60)); shift 2 ;;
    --seconds) secs=$2; shift 2 ;;
    [0-9]*) secs=$1; shift ;; # the old form: scripts/fuzz.sh SECONDS
    load | tables | transform | write | ui | state | cpuprofile | speedscope | perf | gotext)
        targets="$targets $1"
        shift
        ;;
    -h | --help) awk 'NR > 1 && !/^#/ { exit } NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "scripts/fuzz.sh: unknown argument '$1' (--help)" >&2; exit 1 ;;
    esac
done
[ -n "$targets" ] || targets="load tables transform write ui state cpuprofile speedscope perf gotext"
command -v clang >/dev/null || { echo "scripts/fuzz.sh: no clang (scripts/deps.sh fuzz)" >&2; exit 1; }

out=$top/build-fuzz
obj=$out/obj
mkdir -p "$obj/src" "$obj/ui" "$obj/proto" "$out/proto"
cd "$top"

# --- build: the core and the UI once, then one binary per target --------
cat >"$out/config.h" <<EOF
#define _GNU_SOURCE 1
#define PACKAGE_VERSION "fuzz"
#define SS_DATADIR "/nonexistent"
#define SS_SRCDIR "$top"
EOF
# -nt: in dash, bash and busybox sh
# shellcheck disable=SC3013
[ "$out/proto/profile.pb-c.c" -nt proto/profile.proto ] ||
    protoc-c --c_out="$out/proto" --proto_path=proto proto/profile.proto
cflags="-std=c11 -g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
        -fno-omit-frame-pointer -include config.h -I$out -I$out/proto -Isrc -Iui
        $(pkg-config --cflags ncursesw 2>/dev/null || true)"
# shellcheck disable=SC2012
newest_h=$(ls -t src/*.h ui/*.h | head -n 1)
compile() { # compile SRC OBJ, unless OBJ is newer than SRC and every header
    # shellcheck disable=SC3013
    if [ ! "$2" -nt "$1" ] || [ ! "$2" -nt "$newest_h" ]; then
        # shellcheck disable=SC2086
        clang $cflags -c -o "$2" "$1"
    fi
}
core=""
for c in src/*.c; do
    compile "$c" "$obj/${c%.c}.o"
    core="$core $obj/${c%.c}.o"
done
compile "$out/proto/profile.pb-c.c" "$obj/proto/profile.pb-c.o"
core="$core $obj/proto/profile.pb-c.o"
uiobj=""
for c in ui/*.c; do
    compile "$c" "$obj/${c%.c}.o"
    uiobj="$uiobj $obj/${c%.c}.o"
done
libs="-lprotobuf-c -lz -lm"
for t in $targets; do
    extra=""
    # shellcheck disable=SC2086
    [ "$t" = ui ] && extra="$uiobj -Wl,--wrap=ui_command $(pkg-config --libs ncursesw)"
    # shellcheck disable=SC2086
    clang $cflags -fsanitize=fuzzer -o "$out/fuzz_$t" tests/fuzz/fuzz_$t.c $core $extra $libs
done

# --- seeds -----------------------------------------------------------------
seed() { # seed TARGET FILE...: copy files into the target's corpus
    d=$out/corpus/$1
    shift
    mkdir -p "$d"
    for f in "$@"; do
        if [ -f "$f" ]; then cp "$f" "$d/"; fi
    done
}
mkdir -p "$out/seed"
printf 'main;f;g 3\nmain;f 2\nmain;h h 1\n' >"$out/seed/hand.folded"
for f in tests/data/pprof/*/*.pb.gz; do
    [ "$(wc -c <"$f")" -le 65536 ] || continue
    cp "$f" "$out/seed/"
    gzip -dc "$f" | head -c 65536 >"$out/seed/$(basename "$f" .gz)" # raw protobuf
done
profiles="tests/data/rprof/*.out tests/data/edge-cases/*.out tests/data/sampling_prof/*_profile.txt
          tests/data/sampling_prof/ruby_workload.txt $out/seed/*"
# shellcheck disable=SC2086
for t in load write; do seed $t $profiles; done
printf '\006sample_id\tsource_id\tstack_id\n1\t1\t1\n' >"$out/seed/tables-1"
printf '\007sample_id\ttype\tvalue\n1\tsamples\t-3\n2\tnodes\t9223372036854775807\n' >"$out/seed/tables-2"
seed tables "$out/seed/tables-1" "$out/seed/tables-2"
printf 'trim-base auto\ncollapse-recursion /./\ndrop-samples 1:5\n' >"$out/seed/tf-1"
printf 'keep-samples -5:\nfocus /a|f/\nmerge "a b"\n# off: prune g\n' >"$out/seed/tf-2"
printf 'replace main f => "n \\"x\\""\nclass /^g$/ => G\nkeep-samples 0.02s:90ms\n' >"$out/seed/tf-3"
seed transform "$out/seed/tf-1" "$out/seed/tf-2" "$out/seed/tf-3"
printf '\000jjj<Enter>\n:tree\nlll<Tab><Tab>\n:w x.out\nq\n' >"$out/seed/ui-1"
printf '\001:focus g\n6+++mmd<Left>K\nu\n:w! d/\n:export-script s\n:source s\n' >"$out/seed/ui-2"
printf '\002<Tab><Tab>3<Enter>5\n:calls f\n:resize 30x8\n/g<Enter>n\n' >"$out/seed/ui-3"
printf '\003:value alloc\n2<Down><Down>sS\nT\n:drop main\nTdJK\n?\nq\n' >"$out/seed/ui-4"
printf '\004<Click 3 4><WheelDown 1 5>0<Enter>:w y.folded\n:save-display v\n' >"$out/seed/ui-5"
seed ui "$out"/seed/ui-*
# state: NAME NUL then the file (what ss_state_save writes, and worse)
printf 'prof.out\000# stackscope: the transform list of the last session on these inputs\n# input: /w/prof.out\ndrop main\ndrop-samples 1:10\n# off: focus /f|g/\n' >"$out/seed/state-1"
printf 'a\nb\000# input: /w/a\\nb\r\nreplace "x\\ny" => "z\\r"\r\nkeep-label thread="t 1"\n' >"$out/seed/state-2"
printf '\000trim-base auto\ncollapse-recursion /./\nclass /^g$/ => G\n# off: drop-samples 1:\n' >"$out/seed/state-3"
seed state "$out"/seed/state-*
# the format targets: small real files of the producers (tests/data/producers/make.sh)
for t in cpuprofile speedscope perf gotext; do seed $t tests/data/producers/$t/*; done
for t in $targets; do # fixed findings are seeds too (not pending ones: they fail)
    if [ -d "tests/data/fuzz/$t" ]; then seed "$t" "tests/data/fuzz/$t"/*; fi
done

# --- run ---------------------------------------------------------------------
# The targets' scratch files (tests/fuzz/fuzz_tmp.h), removed when done: on
# tmpfs where there is one (the writers sync every file they write).
shm=/dev/shm
[ -d "$shm" ] && [ -w "$shm" ] || shm=$out
export TMPDIR="$shm/stackscope-fuzz.$$"
mkdir -p "$TMPDIR"
trap 'rm -rf "$TMPDIR"' EXIT
# UBSan's reports with the stack (the first line names only the header of an
# inline function)
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1}"
: >"$out/messages"
printf 'target\tseconds\texecutions\tcov\tft\tcorpus\tfindings\n' >"$out/summary.tsv"
status=0
for t in $targets; do
    art=$out/artifacts/$t
    mkdir -p "$art"
    to=${FUZZ_TIMEOUT:-10}
    opts="-max_len=65536 -timeout=$to"
    [ "$t" = write ] && opts="-max_len=16384 -timeout=$to"
    [ "$t" = transform ] || [ "$t" = state ] && opts="$opts -dict=tests/fuzz/transform.dict"
    [ "$t" = ui ] && opts="-max_len=2048 -timeout=$to -dict=tests/fuzz/ui.dict"
    # A finding stops libFuzzer: keep the input and go on until the time is
    # up (one input kept per distinct message, at most 100 restarts).
    start=$(date +%s)
    execs=0
    findings=0
    restarts=0
    seen=""
    cov="?"
    ft="?"
    corp="?"
    : >"$out/fuzz_$t.log"
    while :; do
        left=$((secs - ($(date +%s) - start)))
        [ "$left" -gt 0 ] || break
        rc=0
        # shellcheck disable=SC2086
        "$out/fuzz_$t" -max_total_time="$left" -rss_limit_mb=2048 $opts \
            -print_final_stats=1 -artifact_prefix="$art/" "$out/corpus/$t" \
            >"$out/run-$t.log" 2>&1 || rc=$?
        cat "$out/run-$t.log" >>"$out/fuzz_$t.log"
        n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/run-$t.log" | tail -n 1)
        execs=$((execs + ${n:-0}))
        line=$(grep -E '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$out/run-$t.log" | tail -n 1 || true)
        if [ -n "$line" ]; then
            cov=$(echo "$line" | sed 's/.*cov: \([0-9]*\).*/\1/')
            ft=$(echo "$line" | sed 's/.*ft: \([0-9]*\).*/\1/')
            corp=$(echo "$line" | sed -n 's/.*corp: \([0-9]*\/[0-9a-zA-Z]*\).*/\1/p')
        fi
        [ "$rc" -eq 0 ] && break
        new=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$out/run-$t.log" | tail -n 1)
        if [ -z "$new" ] || [ ! -f "$new" ]; then
            echo "fuzz_$t: libFuzzer failed (exit $rc), no input kept:" >&2
            tail -n 20 "$out/run-$t.log" >&2
            status=1
            break
        fi
        # An input that fails at start-up (a seed, or the empty input libFuzzer
        # always tries) would fail every restart: drop it from the corpus, or
        # stop when it fails again before INITED and is not there to drop.
        sum=$(sha1sum <"$new" | cut -c1-40)
        case " $seen " in *" $sum "*) again=1 ;; *) again=0 ;; esac
        seen="$seen $sum"
        dropped=0
        for f in "$out/corpus/$t"/*; do
            [ -f "$f" ] && [ "$(sha1sum <"$f" | cut -c1-40)" = "$sum" ] && rm -f "$f" && dropped=1
        done
        status=1
        msg=$(grep -m1 -E 'runtime error: |ERROR: |fuzz_write: |ALARM|out-of-memory' "$out/run-$t.log" || true)
        # and the first frame in stackscope's own code
        where=$(grep -m1 -E '^ +#[0-9]+ .* in [a-z_]+ .*/(src|ui)/[a-z_]+\.c:' "$out/run-$t.log" |
            sed 's/.* in \([a-z_]*\) .*\/\(\(src\|ui\)\/[a-z_]*\.c:[0-9]*\).*/\1 \2/' || true)
        [ -z "$where" ] || msg="$msg (in $where)"
        # one input per distinct message (the first line of the report)
        key=$(echo "$msg" | sed 's/==[0-9]*==//; s/0x[0-9a-f]*//g; s/-[0-9]*\//-PID\//g; s/for [0-9]* seconds/for N seconds/')
        if ! grep -qxF "$t	$key" "$out/messages" 2>/dev/null; then
            printf '%s\t%s\n' "$t" "$key" >>"$out/messages"
            findings=$((findings + 1))
            mkdir -p "tests/data/fuzz/pending/$t"
            cp "$new" "tests/data/fuzz/pending/$t/"
            echo "fuzz_$t: finding kept in tests/data/fuzz/pending/$t/$(basename "$new"): $msg" >&2
        fi
        restarts=$((restarts + 1))
        if [ "$again" = 1 ] && [ "$dropped" = 0 ] && ! grep -q 'INITED' "$out/run-$t.log"; then
            echo "fuzz_$t: $(basename "$new") fails at start-up every time: stopped" >&2
            break
        fi
        [ "$restarts" -lt 100 ] || break
    done
    elapsed=$(($(date +%s) - start))
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$elapsed" "$execs" "$cov" "$ft" "$corp" \
        "$findings" >>"$out/summary.tsv"
    echo "fuzz_$t: $elapsed s, $execs executions, cov $cov ft $ft, corpus $corp, $findings findings"
    rm -f "$out/run-$t.log"
done
exit $status
