#!/bin/bash
# Nothing in a file can take over the terminal (issue 18): function names,
# file names and source text holding control characters are shown escaped
# by report (text and TSV), check, error and warning messages and the
# explorer, by one rule (man page, CONTROL CHARACTERS; src/textesc.h):
# \t \n \r, \xNN for the other C0 controls and DEL, \xc2\xNN for a C1
# control written as UTF-8, \xNN for each byte that is not UTF-8; TSV also
# doubles a backslash.  Valid printable UTF-8 stays as it is.
#
# Every fixture is made here with printf; each output is scanned byte by
# byte (an awk UTF-8 decoder, independent of the program) for anything a
# terminal acts on, and checked for the escaped form written out by hand.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

T=$TMPD
cd "$T" || exit 99
export LC_ALL=C
unset STACKSCOPE_UI_TIMING STACKSCOPE_SIZE NO_COLOR

# unsafe FILE [tabs]: print the first byte of FILE a terminal could act on
# (offset and value): a C0 control other than LF (and TAB with `tabs`), DEL,
# a C1 control written as UTF-8 (U+0080-U+009F), or a byte that is not part
# of a UTF-8 sequence.  Prints nothing when FILE is safe.
unsafe() {
    od -An -v -tu1 "$1" | awk -v tabs="${2:-}" '
        function bad(why) { if (!found) printf "byte %d (%d): %s\n", off, b, why; found = 1 }
        { for (i = 1; i <= NF; i++) {
            b = $i + 0; off++
            if (need > 0) {
                if (b >= 128 && b < 192) {
                    cp = cp * 64 + b - 128
                    if (--need == 0 && cp >= 128 && cp < 160) bad("C1 control")
                    continue
                }
                bad("cut-off UTF-8 sequence"); need = 0
            }
            if (b == 10 || (b == 9 && tabs != "")) continue
            if (b < 32) bad("C0 control")
            else if (b == 127) bad("DEL")
            else if (b < 128) continue
            else if (b >= 194 && b < 224) { need = 1; cp = b - 192 }
            else if (b >= 224 && b < 240) { need = 2; cp = b - 224 }
            else if (b >= 240 && b < 245) { need = 3; cp = b - 240 }
            else bad("not UTF-8")
        } }
        END { if (need > 0) bad("cut-off UTF-8 sequence at the end") }'
}

# safe NAME FILE [tabs] -- TEXT...: FILE is safe and holds every TEXT.
safe() {
    local name=$1 file=$2 tabs=
    shift 2
    if [ "$1" = tabs ]; then tabs=1; shift; fi
    [ "$1" = -- ] && shift
    local why
    why=$(unsafe "$file" "$tabs")
    for t in "$@"; do
        [ -n "$why" ] && break
        has "$file" "$t" || why="no '$t' in: $(head -c 600 "$file")"
    done
    check "$name" "$why"
}

ESC=$'\033'
BEL=$'\007'
EVIL="evil${ESC}[2J${ESC}]0;pwned${BEL}"     # clears the screen, sets the title
EVIL_E='evil\x1b[2J\x1b]0;pwned\x07'          # ... as shown
OSC52="${ESC}]52;c;aGk=${BEL}"                # would set the clipboard
UTF8=$'caf\303\251\346\225\260'               # cafe-acute, a CJK character: kept
C1=$'c1\302\233y'                             # U+009B (CSI) as UTF-8
C1_E='c1\xc2\x9by'
BAD=$'bad\233x'                               # a stray 8-bit CSI byte
BAD_E='bad\x9bx'

# The profile: its file name, its function names and (line profiling) the
# source file it names are hostile; a plain name and a UTF-8 one for contrast.
PROF="prof${ESC}]0;t${BEL}.out"
PROF_E='prof\x1b]0;t\x07.out'
SRC="src${ESC}[31m.R"
SRC_E='src\x1b[31m.R'
printf 'f <- function() {\n  x <- "%s"\n  1\n}\n' "$OSC52" >"$SRC"
{
    printf 'line profiling: sample.interval=10000\n#File 1: %s\n' "$SRC"
    printf '1#2 "%s" 1#5 "main" \n' "$EVIL" "$EVIL" "$UTF8"
    printf '1#3 "%s" 1#5 "main" \n' "$C1" "$BAD"
    printf '1#3 "tab\there" 1#5 "main" \n'
    printf '1#3 "back\\slash" 1#5 "main" \n'
} >"$PROF"
H=hostile.out
cp "$PROF" "$H"

# ---- report ------------------------------------------------------------------

"$STACKSCOPE" report "$PROF" >r.text 2>r.err
safe report.text r.text -- "$EVIL_E" "$C1_E" "$BAD_E" "$UTF8" 'tab\there' 'back\slash' "file       $PROF_E"
check report.text.no-stderr "$(cat r.err)"

"$STACKSCOPE" report --format tsv "$PROF" >r.tsv 2>&1
safe report.tsv r.tsv tabs -- "$EVIL_E"$'\t'0.02$'\t' "$C1_E"$'\t' "$BAD_E"$'\t' "$UTF8"$'\t' \
    'tab\there'$'\t' 'back\\slash'$'\t'
# each row keeps its five columns: a name's tab does not make a sixth
why=$(awk -F '\t' 'NF != 5 { print "line " NR " has " NF " columns: " $0; exit }' r.tsv)
check report.tsv.columns "$why"
[ "$(wc -l <r.tsv)" -eq 8 ] || fail report.tsv.rows "$(wc -l <r.tsv) lines, not 8 (header + 7 names)"

"$STACKSCOPE" report --by line "$PROF" >r.line 2>&1
safe report.line r.line -- "$SRC_E#2" "$SRC_E#3"

# every other table, as text and as TSV
for by in total stacks levels runs tree timeline; do
    "$STACKSCOPE" report --by "$by" "$PROF" >"r.$by" 2>&1
    safe "report.$by" "r.$by" -- "$EVIL_E"
    "$STACKSCOPE" report --by "$by" --format tsv "$PROF" >"r.$by.tsv" 2>&1
    safe "report.$by.tsv" "r.$by.tsv" tabs -- "$EVIL_E"
done
"$STACKSCOPE" report --by sources "$PROF" >r.sources 2>&1
safe report.sources r.sources -- "$PROF_E"
"$STACKSCOPE" report --by sources --format tsv "$PROF" >r.sources.tsv 2>&1
safe report.sources.tsv r.sources.tsv tabs -- $'\t'"$PROF_E"$'\t'
"$STACKSCOPE" report --by calls --function main "$PROF" >r.calls 2>&1
safe report.calls r.calls -- "$EVIL_E" "$UTF8"
"$STACKSCOPE" report --by calls --function main --format tsv "$PROF" >r.calls.tsv 2>&1
safe report.calls.tsv r.calls.tsv tabs -- "$EVIL_E" 'back\\slash'
"$STACKSCOPE" report --by tree --function "$EVIL" "$H" >r.tree-of 2>&1
safe report.tree-function r.tree-of -- "top-down tree of $EVIL_E"
"$STACKSCOPE" report --by transforms -e "drop \"$EVIL\"" "$H" >r.tf 2>&1
safe report.transforms r.tf -- "drop \"$EVIL_E\""
"$STACKSCOPE" report -e "drop \"$C1\"" "$H" >r.tfline 2>&1
safe report.transform-line r.tfline -- "transform  drop $C1_E"
"$STACKSCOPE" report --by transforms --format tsv -e "drop \"$EVIL\"" "$H" >r.tf.tsv 2>&1
safe report.transforms.tsv r.tf.tsv tabs -- "drop \"$EVIL_E\""
# no terminal: the explorer prints the report instead
"$STACKSCOPE" "$PROF" </dev/null >r.pipe 2>&1
safe report.no-terminal r.pipe -- "$EVIL_E" "$PROF_E"

# A newline in a name (a tables directory can hold one: \n in the TSV).
"$STACKSCOPE" convert -o tables/ "$H" 2>/dev/null
if [ -f tables/functions.tsv ]; then
    sed -i 's/^\([0-9]*\)\tmain\t/\1\tma\\nin\t/' tables/functions.tsv
    "$STACKSCOPE" report tables >r.nl 2>&1
    safe report.newline r.nl -- 'ma\nin'
    "$STACKSCOPE" report --format tsv tables >r.nl.tsv 2>&1
    safe report.newline.tsv r.nl.tsv tabs -- 'ma\nin'$'\t'
    [ "$(wc -l <r.nl.tsv)" -eq 8 ] || fail report.newline.rows "$(cat r.nl.tsv)"
else
    fail report.newline "convert --to tables wrote no functions.tsv"
fi

# ---- check, errors and warnings -----------------------------------------------

"$STACKSCOPE" check "$PROF" >c.out 2>&1
safe check c.out -- "$PROF_E: ok" "rprof, interval 10 ms"

# a warning quoting a hostile file name (a folded line with count 0)
FOLD="z${ESC}]0;t${BEL}.folded"
printf 'main;f 0\nmain;g 3\n' >"$FOLD"
"$STACKSCOPE" check "$FOLD" >c.warn 2>&1
safe check.warning c.warn -- 'warning: z\x1b]0;t\x07.folded:1:'
"$STACKSCOPE" report "$FOLD" >/dev/null 2>c.warn2
safe report.warning c.warn2 -- 'stackscope: warning: z\x1b]0;t\x07.folded:1:'

# errors: a missing hostile path, a bad file's content quoted, a script
"$STACKSCOPE" report "nofile${ESC}[2J" >e.out 2>e.err
rc=$?
safe error.path e.err -- 'nofile\x1b[2J'
[ $rc -eq 2 ] || fail error.path.status "exit $rc, not 2"
"$STACKSCOPE" check "nofile${ESC}[2J" >e.check 2>&1
safe error.check e.check -- 'nofile\x1b[2J: error'
mkdir -p badtables && cp tables/*.tsv badtables/ 2>/dev/null
if [ -f badtables/samples.tsv ]; then
    # a stack id that is not a number, quoted in the message
    awk -v bad="1${ESC}[2J${BEL}" 'BEGIN { FS = OFS = "\t" } NR == 2 { $NF = bad } 1' \
        tables/samples.tsv >badtables/samples.tsv
    "$STACKSCOPE" report badtables >e.tab 2>&1
    safe error.content e.tab -- 'samples.tsv' '1\x1b[2J\x07'
fi
printf 'drop-samples 1:2\nboo%s\n' "$EVIL" >evil.tf
"$STACKSCOPE" report --script evil.tf "$H" >e.tf 2>&1
safe error.script e.tf -- "unknown command 'boo$EVIL_E'"
"$STACKSCOPE" report --by "$EVIL" "$H" >e.usage 2>&1
safe error.usage e.usage -- "--by: unknown table '$EVIL_E'"
"$STACKSCOPE" report --by calls --function "no$EVIL" "$H" >e.fn 2>&1
safe error.function e.fn -- "no function named 'no$EVIL_E'"
# a warning quoting a name (a replace that changed nothing)
"$STACKSCOPE" report -e "replace \"$EVIL\" main => x" "$H" >/dev/null 2>e.tfwarn
safe warning.transform e.tfwarn -- "warning: 'replace \"$EVIL_E\" main => x' changed nothing"

# ---- the explorer, headless -----------------------------------------------------

ui x "$PROF" <<EOF
DUMP functions
2
DUMP stacks
6
DUMP timeline
:lines
DUMP lines
:sources
DUMP sources
1
<:>focus ev<Tab>
DUMP prompt
<Esc>
1
gd
DUMP status
:drop-samples $EVIL
DUMP error
:w /nonexistent$EVIL/x.out
DUMP write-error
EOF
safe ui.functions x.functions -- "$EVIL_E" "$C1_E" "$BAD_E" "$UTF8" 'tab\there' 'back\slash'
safe ui.stacks x.stacks -- "main;$EVIL_E"
safe ui.timeline x.timeline -- "$EVIL_E"
safe ui.lines x.lines -- "$SRC_E#2" 'x <- "\x1b]52;c;aGk='
safe ui.sources x.sources -- "$PROF_E"
# d on the first row (evil: 2 of 7 samples) drops it; the status line says so
safe ui.status x.status -- "| 5 of 7 samples |" "drop \"$EVIL_E\""
safe ui.prompt x.prompt -- ":focus \"$EVIL_E\""
safe ui.error x.error -- "drop-samples $EVIL_E: column 14"
safe ui.write-error x.write-error -- "/nonexistent$EVIL_E/x.out"
# an escape is never cut in half where a name is abbreviated
ui narrow "$PROF" <<EOF
:resize 40x10
2
DUMP stacks
EOF
safe ui.narrow narrow.stacks -- '\x1b]0;pwned\x07' "main;$C1_E"
why=$(grep -E '(^|[^\\])x[0-9a-f]{2}' narrow.stacks)
check ui.narrow.whole-escapes "$why"

# no sanitizer report in any output or error text (ASan/UBSan builds)
why=$(grep -l -a -E 'Sanitizer|runtime error' ./* 2>/dev/null | head -3)
check no-sanitizer-reports "$why"

finish
