#!/bin/bash
# The flame graph (issue 12; stackscope(1), THE EXPLORER and SVG): the
# explorer's view F and the SVG picture, each checked against an independent
# computation made here with awk from `report --by stacks --format folded` (the
# folded stacks' prefix sums: a frame's total is the count of the stacks that
# start with its path), and the time-ordered chart against a replay of the
# Rprof file's samples in order.  Then the SVG in a real browser: Debian's
# chromium, headless, driven through the DevTools protocol
# (tests/flame-browser.js): no script errors, a screenshot that is not blank, a
# click on a frame that zooms (widths checked against the prefix sums again),
# search with the matched share, and Reset Zoom.  The browser part is skipped
# without chromium or node (scripts/deps.sh test installs both).
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope

T=$TMPD
cp "$SRCDIR/tests/data/ui/small.out" "$SRCDIR/data/demo.out" "$T/" || exit 99
cd "$T" || exit 99
export LC_ALL=C
unset STACKSCOPE_UI_TIMING STACKSCOPE_SIZE NO_COLOR

PX=1180 # the SVG's frame area: 1200 px less 10 px each side

# prefix.awk: folded stacks ("PATH VALUE" lines) -> "PATH<TAB>VALUE" for
# every prefix of every stack (read from the leaf when inv=1), then
# "<TAB>TOTAL".
cat >prefix.awk <<'EOF'
{
    n = $NF
    sub(/ [0-9.e+-]+$/, "")
    k = split($0, f, ";")
    p = ""
    for (i = 1; i <= k; i++) {
        name = inv ? f[k + 1 - i] : f[i]
        p = i > 1 ? p ";" name : name
        s[p] += n
    }
    t += n
}
END {
    for (p in s) printf "%s\t%.17g\n", p, s[p]
    printf "\t%.17g\n", t
}
EOF

# svgframes.awk: the SVG's frames in document order (depth-first) ->
# "PATH<TAB>PERCENT<TAB>RECT_WIDTH<TAB>DATA_X<TAB>DATA_W"; the path from the
# depth of each frame and the names of the frames before it.
cat >svgframes.awk <<'EOF'
function unxml(s) {
    gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
    gsub(/&apos;/, "'", s); gsub(/&amp;/, "\\&", s)
    return s
}
function attr(s, a,    m) {
    if (!match(s, a "=\"[^\"]*\"")) return ""
    m = substr(s, RSTART + length(a) + 2, RLENGTH - length(a) - 3)
    return m
}
/^<g data-x=/ {
    d = attr($0, "data-d") + 0
    match($0, /<title>.*<\/title>/)
    t = substr($0, RSTART + 7, RLENGTH - 15)
    pct = t
    sub(/^.*, /, "", pct); sub(/%\)$/, "", pct)
    sub(/ \([^()]*\)$/, "", t)
    name[d] = unxml(t)
    p = name[0]
    for (i = 1; i <= d; i++) p = p ";" name[i]
    r = substr($0, index($0, "<rect"))
    printf "%s\t%s\t%s\t%s\t%s\n", p, pct, attr(r, "width"), attr($0, "data-x"), attr($0, "data-w")
}
EOF

# check_svg NAME SVG PREFIXES: every frame of the SVG is a prefix, with the
# prefix's share as its percentage (2 decimals) and width (px, 2 decimals);
# every prefix of at least 0.1 px is a frame.
check_svg() {
    local name=$1 svg=$2 pre=$3 why
    awk -f svgframes.awk "$svg" >"$name.frames"
    why=$(awk -F '\t' -v px=$PX '
        NR == FNR { if ($1 == "") t = $2; else s[$1] = $2; next }
        {
            n++
            if (!($1 in s)) { print "frame " $1 " is no prefix of the folded stacks"; bad = 1; next }
            share = s[$1] / t
            seen[$1] = 1
            if ((d = $2 - 100 * share) > 0.0051 || d < -0.0051) { print $1 ": " $2 "%, want " 100 * share; bad = 1 }
            if ((d = $3 - px * share) > 0.0051 || d < -0.0051) { print $1 ": " $3 " px, want " px * share; bad = 1 }
        }
        END {
            for (p in s) if (px * s[p] / t >= 0.1 && !(p in seen)) { print "prefix " p " has no frame"; bad = 1 }
            if (!n) print "no frames"
        }' "$pre" "$name.frames" | head -n 5)
    if [ -z "$why" ]; then
        pass "$name: $(wc -l <"$name.frames") frames equal the folded prefix sums"
    else
        fail "$name" "$why"
    fi
}

# stacks NAME VALUE PROFILE [REPORT OPTIONS...]: the distinct stacks as
# "PATH VALUE" lines into NAME.folded: `report --by stacks --format folded`
# (counts: the time's shares with one interval) for the default measure,
# else the stack and the measure's value columns of `--format tsv --value`.
stacks() {
    local name=$1 value=$2 prof=$3
    shift 3
    if [ -z "$value" ]; then
        "$STACKSCOPE" report --by stacks --format folded "$@" "$prof" >"$name.folded"
    else
        "$STACKSCOPE" report --by stacks --format tsv --value "$value" "$@" "$prof" |
            awk -F '\t' 'NR > 1 { print $5 " " $2 }' >"$name.folded"
    fi
}

# svg_case NAME PROFILE INV VALUE [OPTIONS...]: the SVG written with
# OPTIONS (transforms, --inverted) and the measure VALUE (empty: the
# default) against the prefix sums of the stacks of the same transforms.
svg_case() {
    local name=$1 prof=$2 inv=$3 value=$4
    shift 4
    local tfs=() a vopt=()
    for a in "$@"; do [ "$a" = --inverted ] || tfs+=("$a"); done
    [ -n "$value" ] && vopt=(--value "$value")
    if ! "$STACKSCOPE" convert "${vopt[@]}" "$@" -o "$name.svg" "$prof" 2>"$name.err"; then
        fail "$name: convert" "$(cat "$name.err")"
        return
    fi
    stacks "$name" "$value" "$prof" "${tfs[@]}" 2>/dev/null
    awk -v inv="$inv" -f prefix.awk "$name.folded" >"$name.prefix"
    check_svg "$name" "$name.svg" "$name.prefix"
}

svg_case svg.small small.out 0 ""
svg_case svg.small-inverted small.out 1 "" --inverted
svg_case svg.demo demo.out 0 ""
svg_case svg.demo-inverted demo.out 1 "" --inverted
svg_case svg.demo-transformed demo.out 0 "" -e 'trim-base auto' -e 'drop gc' -e 'merge lapply'
svg_case svg.demo-focus-inverted demo.out 1 "" --inverted -e 'focus lm'
# every measure of the demo (Rprof with memory profiling)
svg_case svg.demo-samples demo.out 0 samples
svg_case svg.demo-memory demo.out 0 memory
svg_case svg.demo-released-inverted demo.out 1 released --inverted -e 'trim-base auto'
svg_case svg.demo-duplications demo.out 0 duplications -e 'merge eval'
# pprof: its own sample types (cpu in nanoseconds, the default here)
PPROF=$SRCDIR/tests/data/pprof/rprotobuf/append_two_sessions.pb.gz
svg_case svg.pprof-cpu "$PPROF" 0 cpu
svg_case svg.pprof-samples-inverted "$PPROF" 1 samples --inverted
# a tooltip names the measure's unit: bytes in human units, counts
if grep -q '<title>main ([0-9.]* GB, 100.00%)</title>' svg.demo-memory.svg &&
    grep -q '<title>main (5,522 samples, 100.00%)</title>' svg.demo-samples.svg; then
    pass "svg: tooltips in the measure's unit"
else
    fail "svg: tooltips in the measure's unit" "$(grep -o '<title>main [^<]*' svg.demo-memory.svg svg.demo-samples.svg)"
fi

# Well-formed, self-contained, no network: no http(s) reference but the
# namespace, and the script and style inline.
why=$(grep -o 'https\?://[^"]*' svg.demo.svg | grep -v '^http://www.w3.org/2000/svg$' | head -n 3)
if [ -z "$why" ] && grep -q '<script type="text/ecmascript"><!\[CDATA\[' svg.demo.svg; then
    pass "svg: no network reference, inline script"
else
    fail "svg: no network reference" "$why"
fi
# Names are escaped for XML: a name with <, & and a quote
printf 'sample.interval=1000\n"a<b&c\\"d" "main" \n' >esc.out
"$STACKSCOPE" convert -o esc.svg esc.out 2>esc.err
if grep -qF '<title>a&lt;b&amp;c\&quot;d (0.001 s, 100.00%)</title>' esc.svg; then
    pass "svg: names escaped for XML"
else
    fail "svg: names escaped for XML" "$(grep '<title>a' esc.svg; cat esc.err)"
fi
# --inverted and --time-order belong to SVG outputs
"$STACKSCOPE" convert --inverted -o x.folded small.out 2>inv.err
rc=$?
if [ $rc -eq 1 ] && grep -q 'go with an SVG output' inv.err; then
    pass "svg: --inverted with another format is a usage error"
else
    fail "svg: --inverted with another format" "exit $rc: $(cat inv.err)"
fi

# :w F.svg in the explorer writes the flame view's graph: inverted after i
printf 'F\ni\n:w %s\n' "$T/view-inverted.svg" | UI_LOCALE=C ui w small.out
if grep -q 'data-inverted="1"' view-inverted.svg 2>/dev/null; then
    awk -v inv=1 -f prefix.awk svg.small.folded >w.prefix
    check_svg "svg: :w from the inverted view" view-inverted.svg w.prefix
else
    fail "svg: :w from the inverted view" "$(cat w.err; head -c 300 view-inverted.svg 2>&1)"
fi

# ---- the time-ordered chart -----------------------------------------------------

# chart.awk: replay an Rprof file's samples in order (root first); a frame
# is opened where a sample leaves the previous sample's path and closed when
# a later one leaves it; a sample with no frames closes everything.
# Prints "PATH<TAB>X<TAB>W<TAB>SELF" per frame, X, W and SELF in samples.
cat >chart.awk <<'EOF'
function close_from(d,    i) {
    for (i = d; i <= open; i++) printf "%s\t%d\t%d\t%d\n", path[i], x[i], w[i], sf[i]
    open = d - 1
}
/sample\.interval=/ { close_from(1); next }
/^#File/ { next }
{
    k = 0
    s = $0
    while (match(s, /"[^"]*"/)) {
        nm[++k] = substr(s, RSTART + 1, RLENGTH - 2)
        s = substr(s, RSTART + RLENGTH)
    }
    if (k == 0) { close_from(1); n++; next }
    c = 0
    while (c < open && c < k && top[c + 1] == nm[k - c]) c++
    close_from(c + 1)
    for (i = c + 1; i <= k; i++) {
        top[i] = nm[k + 1 - i]
        path[i] = i > 1 ? path[i - 1] ";" top[i] : top[i]
        x[i] = cum
        w[i] = 0
        sf[i] = 0
    }
    open = k
    for (i = 1; i <= k; i++) w[i]++
    sf[k]++
    cum++
}
END { close_from(1) }
EOF

# chart_case NAME PROFILE INTERVAL_S: the --time-order SVG's frames (path, x,
# width in samples) equal the replay's, for every frame of 0.1 px or more.
chart_case() {
    local name=$1 prof=$2 iv=$3 why
    "$STACKSCOPE" convert --time-order -o "$name.svg" "$prof" 2>"$name.err" || {
        fail "$name: convert" "$(cat "$name.err")"
        return
    }
    awk -f chart.awk "$prof" >"$name.ref"
    awk -f svgframes.awk "$name.svg" >"$name.frames"
    why=$(awk -F '\t' -v iv="$iv" -v px=$PX '
        NR == FNR { ref[$1 "\t" $2] = $3; tot += ($1 !~ /;/) * $3; next }
        {
            n++
            x = $4 / iv; w = $5 / iv
            key = $1 "\t" int(x + 0.5)
            if (!(key in ref)) { print "frame " $1 " at sample " x " not in the replay"; next }
            if ((d = w - ref[key]) > 1e-6 || d < -1e-6) print $1 " at " x ": " w " samples, want " ref[key]
            seen[key] = 1
        }
        END {
            for (k in ref) if (px * ref[k] / tot >= 0.1 && !(k in seen)) { print "replayed frame " k " missing"; break }
            if (!n) print "no frames"
        }' "$name.ref" "$name.frames" | head -n 5)
    if [ -z "$why" ]; then
        pass "$name: $(wc -l <"$name.frames") chart frames equal the replay of the samples"
    else
        fail "$name" "$why"
    fi
}
chart_case chart.small small.out 0.01
chart_case chart.demo demo.out 0.005

# ---- the explorer's view ----------------------------------------------------------

# edges SCREEN: a UTF-8 screen dump with each frame's edge (U+258F) as the
# byte \001 and the ellipsis (U+2026) as '~', so that a byte is a column
# and a name with '|' in it (R's %||%) does not look like two frames.
edges() {
    sed -e 's/\xe2\x96\x8f/\x01/g' -e 's/\xe2\x80\xa6/~/g' "$1" >"$1.tmp" && mv "$1.tmp" "$1"
}

# view_case NAME PROFILE INV VALUE ZOOM KEYS [TRANSFORM...]: the view F on
# a 1000-column screen after KEYS (a script), frame edges made bytes
# (edges).  Every frame that is at least one column wide starts where the
# prefix sums put it, children by name: round(x / W * 1000) with x the
# totals of the siblings before it plus its parent's x, on the row of its
# depth (below the zoomed frame ZOOM, a path, when not empty), and shows its
# name whole when it fits (else abbreviated with '~').
cat >viewref.awk <<'EOF'
# stdin: "PATH<TAB>COUNT" sorted component-wise; prints
# "DEPTH<TAB>COL<TAB>WIDTH<TAB>NAME" for frames >= 1 column.
BEGIN { FS = "\t" }
$1 == "" { next }
{
    p = $1; c = $2
    k = split(p, f, ";")
    parent = substr(p, 1, length(p) - length(f[k]) - 1)
    if (k == 1) parent = ""
    if (!(parent in cur)) cur[parent] = 0
    x[p] = cur[parent]; cur[parent] += c; cur[p] = x[p]
    if (zoom != "" && p != zoom && index(p, zoom ";") != 1) next
    if (zoom != "") { zx = x[zoom]; zw = tot; zk = split(zoom, zf, ";") } else { zx = 0; zw = tot; zk = 1 }
    c0 = int((x[p] - zx) / zw * cols + 0.5); c1 = int((x[p] + c - zx) / zw * cols + 0.5)
    if (c1 > c0) printf "%d\t%d\t%d\t%s\n", k - zk, c0, c1 - c0, f[k]
}
EOF
view_case() {
    local name=$1 prof=$2 inv=$3 value=$4 zoom=$5 keys=$6
    shift 6
    local tfs=() t vopt=()
    for t in "$@"; do tfs+=(-e "$t"); done
    # VALUE ":NAME": chosen in the explorer (:value NAME), not with --value
    local vcmd=""
    case $value in
    :*) value=${value#:}; vcmd=":value $value" ;;
    ?*) vopt=(--value "$value") ;;
    esac
    stacks "$name" "$value" "$prof" "${tfs[@]}" 2>/dev/null
    awk -v inv="$inv" -f prefix.awk "$name.folded" >"$name.prefix"
    local tot ztot
    tot=$(awk -F '\t' '$1 == "" { print $2 }' "$name.prefix")
    ztot=$tot
    [ -n "$zoom" ] && ztot=$(awk -F '\t' -v z="$zoom" '$1 == z { print $2 }' "$name.prefix")
    awk -F '\t' '$1 != "" { p = $1; gsub(/;/, "\001", p); print p "\t" $1 "\t" $2 }' "$name.prefix" |
        sort -t "$(printf '\t')" -k1,1 | cut -f 2- |
        awk -v cols=1000 -v tot="$ztot" -v zoom="$zoom" -f viewref.awk >"$name.want"
    {
        for t in "$@"; do printf ':%s\n' "$t"; done
        printf 'F\n%s\n%s\nDUMP screen\n' "$vcmd" "$keys"
    } | STACKSCOPE_SIZE=1000x100 ui "$name" "${vopt[@]}" "$prof"
    edges "$name.screen"
    # the frame rows: from the row after the info line (and the breadcrumb)
    local first=3
    [ -n "$zoom" ] && first=4
    awk -v first=$first 'NR >= first && NR < first + 90 {
            line = $0; col = 0
            while ((i = index(line, "\001")) > 0) {
                col += i - 1
                rest = substr(line, i + 1)
                j = index(rest, "\001"); txt = j ? substr(rest, 1, j - 1) : rest
                sub(/ +$/, "", txt)
                printf "%d\t%d\t%s\n", NR - first, col, txt
                line = rest; col++
            }
        }' "$name.screen" >"$name.got"
    local why
    why=$(awk -F '\t' '
        NR == FNR { want[$1 "\t" $2] = $4; wid[$1 "\t" $2] = $3; n++; next }
        {
            k = $1 "\t" $2
            if (!(k in want)) { print "row " $1 " col " $2 ": a frame (" $3 ") the prefix sums do not put there"; next }
            seen[k] = 1
            # the name whole when it fits beside the edge, else abbreviated
            # in the middle ("~"), or cut when under 4 columns
            room = wid[k] - 1
            if (room >= length(want[k]) && $3 != want[k]) print "row " $1 " col " $2 ": " $3 ", want " want[k]
            if (room < length(want[k]) && room >= 4 && $3 !~ /~/) print "row " $1 " col " $2 ": " $3 " not abbreviated"
            if (room < length(want[k]) && room < 4 && $3 != "" && index(want[k], $3) != 1) print "row " $1 " col " $2 ": " $3 " no head of " want[k]
        }
        END { for (k in want) if (!(k in seen)) { print "no frame at row/col " k " (" want[k] ")"; break }
              if (!n) print "nothing expected" }' "$name.want" "$name.got" | head -n 5)
    if [ -z "$why" ] && ! grep -qv ': warning: ' "$name.err"; then
        pass "$name: $(wc -l <"$name.want") frames where the prefix sums put them"
    else
        fail "$name" "$why $(grep -v ': warning: ' "$name.err")"
    fi
}
view_case view.small small.out 0 "" "" ""
view_case view.demo demo.out 0 "" "" ""
view_case view.demo-inverted demo.out 1 "" "" "i"
view_case view.demo-transformed demo.out 0 "" "" "" "trim-base auto" "merge eval"
view_case view.demo-memory demo.out 0 memory "" ""
view_case view.demo-samples-inverted demo.out 1 samples "" "i" "drop gc"
view_case view.pprof-cpu "$PPROF" 0 cpu "" ""
# the measure changed in the explorer, on the graph already shown
view_case view.demo-value-released demo.out 0 :released "" "" "trim-base auto"
# /lm selects the widest frame whose name has "lm" (lm itself, 80%), Enter zooms
view_case view.demo-zoomed demo.out 0 "" "main;run_study;with_timing;system.time;execute_plan;fit_bootstrap_models;lapply;FUN;lapply;FUN;lm" \
    "/lm<Enter><Enter>"

# The mouse: a click selects a frame, a double click zooms into it
# (small.out at 80x24: row 4 is depth 2, setup at columns 8-31 = 0.1-0.4 of
# 80, work from column 32).
printf 'F\n<Click 20 4>\nDUMP 1\n<DoubleClick 40 4>\nDUMP 2\n' | UI_LOCALE=C ui mouse small.out
if grep -q '^total 0.030 s (30.0%), self 0.030 s (30.0%) | setup' mouse.1 &&
    grep -q '^zoom: main > run > work ' mouse.2; then
    pass "view: a click selects setup, a double click zooms into work"
else
    fail "view: the mouse" "$(cat mouse.err; grep -E 'total|zoom' mouse.1 mouse.2)"
fi

# The keys on small.out (frames by name: main > run > save 10%, setup 30%,
# work 60% > f 50% (> g 30%), h 10%): g to main, j j down the widest
# children to work, h to setup, l j l to work's children f then h, k back
# to work; d drops work (the trimming keys act on the selected frame), u
# undoes it.
printf '%s\n' F g j j "DUMP 1" h "DUMP 2" l j l "DUMP 3" k d "DUMP 4" u "DUMP 5" |
    UI_LOCALE=C ui keys small.out
why=
grep -q '^total 0.060 s (60.0%), self 0.000 s (0.0%) | work' keys.1 || why="$why j j: not on work;"
grep -q '^total 0.030 s (30.0%), self 0.030 s (30.0%) | setup' keys.2 || why="$why h: not on setup;"
grep -q '^total 0.010 s (10.0%), self 0.010 s (10.0%) | h' keys.3 || why="$why l j l: not on h;"
grep -q '1 transform: drop work' keys.4 || why="$why d: no drop work;"
grep -q 'work' <(sed -n '3,8p' keys.4) && why="$why d: work still drawn;"
grep -q 'no transforms' keys.5 && grep -q '|work' keys.5 || why="$why u: not undone;"
if [ -z "$why" ]; then
    pass "view: h/j/k/l between frames, d drops the selected frame's function, u undoes"
else
    fail "view: keys" "$why $(cat keys.err)"
fi

# ---- the time-ordered chart in the view ------------------------------------------

# The chart of a profile in random order (20,000 samples drawn from the
# demo's, as bench/gen-big.sh makes its benchmark files): most of its 90,000
# frames are narrower than a column, and the view builds only those that
# cover a column's middle (flame.h's grid).  On a 1000-column screen every
# frame drawn is where the replay of the samples (chart.awk) puts it, and
# every replayed frame that covers a column's middle is drawn: at full
# width, then zoomed into the widest execute_plan (the chart is rebuilt for
# the zoom), then back.  The detail line's total and self and the search's
# shares (of all and of the zoom) are the replay's, though most matching
# frames are too narrow to be made.
awk 'NR == 1 || /^#File/ { print; next } { l[++n] = $0 }
     END { srand(7); for (i = 0; i < 20000; i++) print l[1 + int(rand() * n)] }' demo.out >shuf.out
awk -f chart.awk shuf.out >shuf.ref
# chartref.awk: the replay -> "ROW<TAB>COL<TAB>WIDTH<TAB>NAME" for the
# frames at least one column wide inside [zx, zx + zw) at depth zd and below
cat >chartref.awk <<'EOF'
BEGIN { FS = "\t" }
{
    k = split($1, f, ";")
    d = k - 1
    if (d < zd || $2 < zx || $2 + $3 > zx + zw) next
    c0 = int(($2 - zx) / zw * cols + 0.5); c1 = int(($2 + $3 - zx) / zw * cols + 0.5)
    if (c1 > c0) printf "%d\t%d\t%d\t%s\n", d - zd, c0, c1 - c0, f[k]
}
EOF
# screen_frames SCREEN FIRST: the frames on screen lines FIRST.. as
# "ROW<TAB>COL<TAB>TEXT" (as view_case reads them)
screen_frames() {
    awk -v first="$2" 'NR >= first && NR < first + 90 {
            line = $0; col = 0
            while ((i = index(line, "\001")) > 0) {
                col += i - 1
                rest = substr(line, i + 1)
                j = index(rest, "\001"); txt = j ? substr(rest, 1, j - 1) : rest
                sub(/ +$/, "", txt)
                printf "%d\t%d\t%s\n", NR - first, col, txt
                line = rest; col++
            }
        }' "$1"
}
# same_frames WANT GOT: the frames drawn are the frames wanted (names whole
# when they fit, else abbreviated or cut)
same_frames() {
    awk -F '\t' '
        NR == FNR { want[$1 "\t" $2] = $4; wid[$1 "\t" $2] = $3; n++; next }
        {
            k = $1 "\t" $2
            if (!(k in want)) { print "row " $1 " col " $2 ": a frame (" $3 ") the replay does not put there"; next }
            seen[k] = 1
            room = wid[k] - 1
            if (room >= length(want[k]) && $3 != want[k]) print "row " $1 " col " $2 ": " $3 ", want " want[k]
            if (room < length(want[k]) && $3 !~ /~/ && index(want[k], $3) != 1) print "row " $1 " col " $2 ": " $3 " not a head of " want[k]
        }
        END { for (k in want) if (!(k in seen)) { print "no frame at row/col " k " (" want[k] ")"; break }
              if (!n) print "nothing expected" }' "$1" "$2" | head -n 5
}
tot=$(awk -F '\t' '$1 !~ /;/ { t += $3 } END { print t }' shuf.ref)
# the widest execute_plan (the first of equal ones, an outer one before an
# inner one): its x, width, depth and self
read -r zx zw zd zself < <(awk -F '\t' '{ k = split($1, f, ";") }
    f[k] == "execute_plan" && ($3 > w || ($3 == w && ($2 < x || ($2 == x && k - 1 < d)))) {
        x = $2; w = $3; d = k - 1; s = $4 }
    END { print x, w, d, s }' shuf.ref)
# the share of the samples whose stack holds lapply: of all, and inside the
# zoom at its depth or deeper (stacks root first, as the chart reads them)
read -r share_all share_zoom < <(awk -v zx="$zx" -v zw="$zw" -v zd="$zd" '
    /sample\.interval=|^#File/ { next }
    {
        k = 0; s = $0
        while (match(s, /"[^"]*"/)) { nm[++k] = substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) }
        if (k == 0) next
        a = 0; z = 0
        for (i = 1; i <= k; i++) if (nm[i] == "lapply") { a = 1; if (k - i >= zd) z = 1 }
        all += a
        if (cum >= zx && cum < zx + zw) zoom += z
        cum++
    }
    END { printf "%.1f %.1f\n", 100 * all / cum, 100 * zoom / zw }' shuf.out)
printf '%s\n' F o "DUMP whole" "/execute_plan<Enter>" "DUMP sel" "<Enter>" "DUMP zoom" \
    "/lapply<Enter>" "DUMP search" q "DUMP out" |
    STACKSCOPE_SIZE=1000x100 ui chartview --value samples shuf.out
for f in whole sel zoom search out; do edges "chartview.$f"; done
awk -v zx=0 -v zw="$tot" -v zd=0 -v cols=1000 -f chartref.awk shuf.ref >chartview.want
awk -v zx="$zx" -v zw="$zw" -v zd="$zd" -v cols=1000 -f chartref.awk shuf.ref >chartview.zwant
screen_frames chartview.whole 3 >chartview.got
screen_frames chartview.zoom 4 >chartview.zgot
screen_frames chartview.out 3 >chartview.ogot
why=$(same_frames chartview.want chartview.got)
if [ -z "$why" ] && [ "$(wc -l <chartview.got)" -lt "$(wc -l <shuf.ref)" ]; then
    pass "chart view: the $(wc -l <chartview.want) frames of $(wc -l <shuf.ref) that cover a column's middle where the replay puts them"
else
    fail "chart view: the whole chart" "$why $(cat chartview.err)"
fi
why=$(same_frames chartview.zwant chartview.zgot)
[ -n "$why" ] || why=$(same_frames chartview.want chartview.ogot)
if [ -z "$why" ] && grep -q '^zoom: main > run_study > with_timing > system.time > execute_plan ' chartview.zoom; then
    pass "chart view: zoomed into execute_plan ($zw samples at $zx), its $(wc -l <chartview.zwant) frames where the replay puts them; q back to the whole"
else
    fail "chart view: the zoom" "$why $(sed -n 3p chartview.zoom | cut -c 1-200)"
fi
# counts with thousands separators, as the explorer writes them
sep() { echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'; }
if grep -q "^total $(sep "$zw") samples ([0-9.]*%), self $(sep "$zself") samples " chartview.sel &&
    grep -q "/lapply: [0-9]* frames\{0,1\} shown, $share_all% of all, $share_zoom% of the zoom" chartview.search; then
    pass "chart view: the widest execute_plan's total $zw and self $zself; /lapply $share_all% of all, $share_zoom% of the zoom (the replay's)"
else
    fail "chart view: numbers" "want total $zw self $zself, $share_all% / $share_zoom%: $(grep '^total' chartview.sel) $(sed -n 2p chartview.search)"
fi

# The chart's sample index (flame_index.h) belongs to one model: after a
# transform (drop-samples of the first 5,000) the chart is the replay of the
# samples left, also after a zoom and q, and after i twice (the other
# direction's index is made for the new model too).
awk 'NR == 1 || /^#File/ { print; next } { if (++n > 5000) print }' shuf.out >shuf2.out
awk -f chart.awk shuf2.out >shuf2.ref
tot2=$(awk -F '\t' '$1 !~ /;/ { t += $3 } END { print t }' shuf2.ref)
printf '%s\n' F o "DUMP before" ":drop-samples 1:5000" "DUMP after" "/execute_plan<Enter>" \
    "<Enter>" q "DUMP zq" i i "DUMP ii" |
    STACKSCOPE_SIZE=1000x100 ui chartx --value samples shuf.out
awk -v zx=0 -v zw="$tot2" -v zd=0 -v cols=1000 -f chartref.awk shuf2.ref >chartx.want
why=
for f in after zq ii; do
    edges "chartx.$f"
    screen_frames "chartx.$f" 3 >"chartx.$f.got"
    [ -n "$why" ] || why=$(same_frames chartx.want "chartx.$f.got")
    [ -n "$why" ] || grep -q "samples, $(sep "$tot2") samples in all" "chartx.$f" ||
        why="$f: not $tot2 samples in all: $(sed -n 2p "chartx.$f" | cut -c 1-120)"
done
if [ -z "$why" ] && ! cmp -s chartx.before chartx.after; then
    pass "chart view after a transform: the $(wc -l <chartx.want) frames of the samples left where their replay puts them; also after a zoom and q, and i twice"
else
    fail "chart view after a transform" "$why $(cat chartx.err 2>/dev/null)"
fi

# ---- the sandwich ------------------------------------------------------------------

# halves.awk: folded stacks -> the sandwich of function fn: the callees'
# prefix sums (each stack from fn's outermost frame inward) to
# NAME.down.prefix, the callers' (from fn's innermost frame outward) to
# NAME.up.prefix, each with "<TAB>TOTAL" (fn's total).
cat >halves.awk <<'EOF2'
{
    n = $NF
    sub(/ [0-9.e+-]+$/, "")
    k = split($0, f, ";")
    first = 0
    for (i = 1; i <= k; i++) if (f[i] == fn) { if (!first) first = i; last = i }
    if (!first) next
    p = ""
    for (i = first; i <= k; i++) { p = i > first ? p ";" f[i] : f[i]; down[p] += n }
    p = ""
    for (i = last; i >= 1; i--) { p = i < last ? p ";" f[i] : f[i]; up[p] += n }
    t += n
}
END {
    for (p in down) printf "%s\t%.17g\n", p, down[p] >(name ".down.prefix")
    printf "\t%.17g\n", t >(name ".down.prefix")
    for (p in up) printf "%s\t%.17g\n", p, up[p] >(name ".up.prefix")
    printf "\t%.17g\n", t >(name ".up.prefix")
}
EOF2

# layout PREFIXES TOTAL: the frames of at least one column on a screen
# 1000 columns wide (viewref.awk), children by name.
layout() {
    awk -F '\t' '$1 != "" { p = $1; gsub(/;/, "\001", p); print p "\t" $1 "\t" $2 }' "$1" |
        sort -t "$(printf '\t')" -k1,1 | cut -f 2- |
        awk -v cols=1000 -v tot="$2" -v zoom="" -f viewref.awk
}

# sandwich_case NAME PROFILE FN: W on FN (a 1000x100 screen: 94 frame rows,
# FN on the 48th, screen line 50): the callers' frames on the lines above
# it (depth d on line 50 - d), the callees' below (line 50 + d), where the
# prefix sums of the two halves put them.
sandwich_case() {
    local name=$1 prof=$2 fn=$3 tot why
    stacks "$name" "" "$prof" 2>/dev/null
    awk -v fn="$fn" -v name="$name" -f halves.awk "$name.folded"
    tot=$(awk -F '\t' '$1 == "" { print $2 }' "$name.down.prefix")
    { layout "$name.up.prefix" "$tot" | awk -F '\t' '$1 > 0 { print 50 - $1 "\t" $2 "\t" $3 "\t" $4 }'
      layout "$name.down.prefix" "$tot" | awk -F '\t' '{ print 50 + $1 "\t" $2 "\t" $3 "\t" $4 }'
    } >"$name.want"
    printf ':sandwich %s\nDUMP screen\n' "$fn" | STACKSCOPE_SIZE=1000x100 ui "$name" "$prof"
    edges "$name.screen"
    awk 'NR >= 3 && NR < 97 {
            line = $0; col = 0
            while ((i = index(line, "\001")) > 0) {
                col += i - 1
                rest = substr(line, i + 1)
                j = index(rest, "\001"); txt = j ? substr(rest, 1, j - 1) : rest
                sub(/ +$/, "", txt)
                printf "%d\t%d\t%s\n", NR, col, txt
                line = rest; col++
            }
        }' "$name.screen" >"$name.got"
    why=$(awk -F '\t' '
        NR == FNR { want[$1 "\t" $2] = $4; n++; next }
        {
            k = $1 "\t" $2
            if (!(k in want)) { print "line " $1 " col " $2 ": a frame (" $3 ") the halves do not put there"; next }
            seen[k] = 1
            if (index(want[k], $3) != 1 && $3 !~ /~/) print "line " $1 " col " $2 ": " $3 ", want " want[k]
        }
        END { for (k in want) if (!(k in seen)) { print "no frame at line/col " k " (" want[k] ")"; break }
              if (!n) print "nothing expected" }' "$name.want" "$name.got" | head -n 5)
    if [ -z "$why" ] && ! grep -qv ': warning: ' "$name.err"; then
        pass "$name: $(wc -l <"$name.want") frames where the two halves' prefix sums put them"
    else
        fail "$name" "$why $(grep -v ': warning: ' "$name.err")"
    fi
}
sandwich_case sandwich.small small.out f
sandwich_case sandwich.demo-lm.fit demo.out lm.fit
sandwich_case sandwich.demo-FUN demo.out FUN
sandwich_case sandwich.demo-eval demo.out eval

# ---- a comparison: the flame graph, the sandwich and the SVG by delta -------------

# The demo's samples cut in two: the base is the first 2,698 samples plus
# three under a root the new profile lacks (old_main), the new profile the
# rest.  The reference is the difffolded output ("STACK BASE NEW", as
# flamegraph.pl's difffolded.pl writes it), its prefix sums made here with
# awk: a frame's base and new totals are those of its path.  Frames only in
# the base (new 0) have no width; they are named with their base totals
# where one looks at their parent: the SVG's <desc> (heaviest first, then
# by name; eight at most, then "and N more"), the legend for roots, the
# view's detail line, its info line for roots.
awk 'NR <= 2700' demo.out >cbase.out
printf ':1:2:3:0:"helper" "old_main" \n:1:2:3:0:"helper" "old_main" \n:1:2:3:0:"old_main" \n' >>cbase.out
awk 'NR <= 2 || NR > 2700' demo.out >cnew.out
"$STACKSCOPE" convert --value samples --base cbase.out -o cmp.folded cnew.out 2>cmp.err ||
    fail "compare: convert to difffolded" "$(cat cmp.err)"
# "PATH<TAB>BASE<TAB>NEW" for every prefix of every stack
awk '{ nw = $NF; b = $(NF - 1); sub(/ [0-9.e+-]+ [0-9.e+-]+$/, "")
       k = split($0, f, ";"); p = ""
       for (i = 1; i <= k; i++) { p = i > 1 ? p ";" f[i] : f[i]; B[p] += b; N[p] += nw } }
     END { for (p in B) printf "%s\t%.17g\t%.17g\n", p, B[p], N[p] }' cmp.folded >cmp.prefix
# gone.awk: the frames only in the base, grouped under their parent's path
# ("" for roots): "PARENT<TAB>only in the base: NAME (N samples), ..."
cat >gone.awk <<'EOF'
function sep(n,    s) { s = sprintf("%d", n); while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s); return s }
BEGIN { FS = "\t" }
function flush() {
    if (cur == "" && !have) return
    if (k > 8) txt = txt " and " (k - 8) " more (" sep(rest) " samples)"
    print cur "\t" txt
}
{
    if (!have || $1 != cur) { if (have) flush(); cur = $1; have = 1; k = 0; txt = "only in the base: "; rest = 0 }
    k++
    if (k <= 8) txt = txt (k > 1 ? ", " : "") $3 " (" sep($2) " samples)"
    else rest += $2
}
END { if (have) flush() }
EOF
awk -F '\t' '$3 == 0 && $2 > 0 { n = split($1, f, ";"); par = substr($1, 1, length($1) - length(f[n]) - 1)
                                 if (n == 1) par = ""; print par "\t" $2 "\t" f[n] }' cmp.prefix |
    LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2nr -k3,3 | awk -f gone.awk >cmp.gone

# the SVG: every frame's new (data-w) and base (data-b) totals are the
# prefix sums', every path of 0.1 px or more is a frame, each frame's <desc>
# names exactly what only the base has under it, the legend the roots
"$STACKSCOPE" convert --value samples --base cbase.out -o cmp.svg cnew.out 2>cmp.err
awk 'function unxml(s) {
         gsub(/&lt;/, "<", s); gsub(/&gt;/, ">", s); gsub(/&quot;/, "\"", s)
         gsub(/&apos;/, "\047", s); gsub(/&amp;/, "\\&", s); return s }
     function attr(s, a) { if (!match(s, a "=\"[^\"]*\"")) return ""
         return substr(s, RSTART + length(a) + 2, RLENGTH - length(a) - 3) }
     /^<g data-x=/ {
         d = attr($0, "data-d") + 0
         match($0, /<title>.*<\/title>/); t = substr($0, RSTART + 7, RLENGTH - 15)
         sub(/ \([^()]*\)$/, "", t); name[d] = unxml(t)
         p = name[0]; for (i = 1; i <= d; i++) p = p ";" name[i]
         ds = ""; if (match($0, /<desc>[^<]*<\/desc>/)) ds = unxml(substr($0, RSTART + 6, RLENGTH - 13))
         printf "%s\t%s\t%s\t%s\n", p, attr($0, "data-w"), attr($0, "data-b"), ds }' cmp.svg >cmp.svgframes
why=$(awk -F '\t' -v px=$PX '
    FILENAME == ARGV[1] { B[$1] = $2; N[$1] = $3; if ($1 !~ /;/) tot += $3; next }
    FILENAME == ARGV[2] { gone[$1] = $2; next }
    {
        n++; seen[$1] = 1
        if (!($1 in N)) { print "frame " $1 " not in the prefix sums"; next }
        if ($2 != N[$1] || $3 != B[$1]) print $1 ": new " $2 " base " $3 ", want " N[$1] " " B[$1]
        if ($4 != gone[$1]) print $1 ": desc \"" $4 "\", want \"" gone[$1] "\""
    }
    END {
        for (p in N) if (N[p] / tot * px >= 0.1 && !(p in seen)) { print "path " p " not drawn"; break }
        if (!n) print "no frames"
    }' cmp.prefix cmp.gone cmp.svgframes | head -n 5)
roots=$(awk -F '\t' '$1 == "" { print $2 }' cmp.gone)
if [ -z "$why" ] && [ -n "$roots" ] && grep -q "id=\"legend\"[^<]*; $roots;" cmp.svg &&
    [ "$(grep -c '<desc>' cmp.svg)" -gt 3 ]; then
    pass "compare svg: $(wc -l <cmp.svgframes) frames' new and base totals are the difffolded prefix sums; $(grep -c '<desc>' cmp.svg) frames name what only the base had, the legend $roots"
else
    fail "compare svg" "$why $(grep -o 'id="legend"[^<]*' cmp.svg) $(cat cmp.err)"
fi

# the view F and the sandwich W, headless: the detail line's base and
# delta and what only the base had, against the same prefix sums
# pfx PATH: "BASE NEW" of a path
pfx() { awk -F '\t' -v p="$1" '$1 == p { print $2, $3 }' cmp.prefix; }
# the widest execute_plan in the new profile (by name among equals: the
# frames' order) and what only the base has under it, as the view writes it
ep=$(awk -F '\t' '{ n = split($1, f, ";") } f[n] == "execute_plan" && $3 > w { w = $3; p = $1 } END { print p }' cmp.prefix)
read -r epb epn < <(pfx "$ep")
epgone=$(awk -F '\t' -v p="$ep" '$1 == p { s = $2; gsub(/ \(/, " ", s); gsub(/\)/, "", s); print "; " s }' cmp.gone)
rootgone=$(awk -F '\t' '$1 == "" { s = $2; gsub(/ \(/, " ", s); gsub(/\)/, "", s); print "; " s }' cmp.gone)
printf '%s\n' F "DUMP f" "/execute_plan<Enter>" "DUMP ep" ":sandwich lm" "DUMP w" j "DUMP wj" k k "DUMP wk" |
    STACKSCOPE_SIZE=300x40 ui cmpview --value samples --base cbase.out cnew.out
# the detail lines without each frame's verdict (", ~ (q 0.8)"; tests/verdicts.sh
# checks those): the numbers as before
for d in cmpview.f cmpview.ep cmpview.w cmpview.wj cmpview.wk; do
    sed -E 's/, (grew|shrank|~) \(q [^)]*\)//; s/, ~;/;/; s/, ~ \|/ |/' "$d" >"$d.nv" && mv "$d.nv" "$d"
done
# a signed difference as the explorer writes it
delta() { local d=$(($2 - $1)); if [ $d -gt 0 ]; then echo "+$(sep $d)"; elif [ $d -lt 0 ]; then echo "-$(sep $((-d)))"; else echo 0; fi; }
want_ep="total $(sep "$epn") samples, base $(sep "$epb") samples, delta $(delta "$epb" "$epn") samples$epgone | execute_plan"
if grep -qF "$want_ep" cmpview.ep &&
    grep -q 'red grew ([0-9]*), blue shrank ([0-9]*) beyond noise (q <= 0.05), plain: ~' cmpview.f &&
    grep -qF "plain: ~$rootgone" cmpview.f; then
    pass "compare view F: execute_plan's base, delta and frames only in the base; old_main only in the base on the info line"
else
    fail "compare view F" "want '$want_ep' and '$rootgone': $(grep '^total' cmpview.ep) / $(sed -n 2p cmpview.f)"
fi
# the sandwich of lm: its callees' half read from lm's outermost frame
# inward, its callers' from its innermost frame outward (halves.awk), each
# side's prefix sums; the middle, the widest callee (j), the widest caller
# (k from the middle)
awk '{ nw = $NF; b = $(NF - 1); sub(/ [0-9.e+-]+ [0-9.e+-]+$/, "")
       k = split($0, f, ";"); first = 0
       for (i = 1; i <= k; i++) if (f[i] == "lm") { if (!first) first = i; last = i }
       if (!first) next
       p = ""; for (i = first; i <= k; i++) { p = i > first ? p ";" f[i] : f[i]; DB[p] += b; DN[p] += nw }
       p = ""; for (i = last; i >= 1; i--) { p = i < last ? p ";" f[i] : f[i]; UB[p] += b; UN[p] += nw } }
     END { for (p in DB) printf "down\t%s\t%d\t%d\n", p, DB[p], DN[p]
           for (p in UB) printf "up\t%s\t%d\t%d\n", p, UB[p], UN[p] }' cmp.folded >cmp.halves
half() { awk -F '\t' -v h="$1" -v p="$2" '$1 == h && $2 == p { print $3, $4 }' cmp.halves; }
# the widest child of lm in half H (the first by name among equals)
widest() { awk -F '\t' -v h="$1" '$1 == h && $2 ~ /^lm;[^;]*$/ { print $4 "\t" $2 }' cmp.halves |
    LC_ALL=C sort -t "$(printf '\t')" -k1,1nr -k2,2 | head -n 1 | cut -f 2; }
read -r lmb lmn < <(half down lm)
cdn=$(widest down); read -r cdb cdnn < <(half down "$cdn")
cup=$(widest up); read -r cub cun < <(half up "$cup")
lmgone=$(awk -F '\t' '$1 == "down" && $2 ~ /^lm;[^;]*$/ && $4 == 0 && $3 > 0 { sub(/^lm;/, "", $2); print $3 "\t" $2 }' cmp.halves |
    LC_ALL=C sort -t "$(printf '\t')" -k1,1nr -k2,2 | awk -F '\t' '{ s = s (NR > 1 ? ", " : "; only in the base: ") $2 " " $1 " samples" } END { print s }')
why=
grep -qF "called in $(sep "$lmn") samples (100.0% of lm's), self " cmpview.w &&
    grep -qF "base $(sep "$lmb") samples, delta $(delta "$lmb" "$lmn") samples$lmgone | lm" cmpview.w || why="$why middle: $(grep '^called' cmpview.w);"
grep -qF "base $(sep "$cdb") samples, delta $(delta "$cdb" "$cdnn") samples" cmpview.wj &&
    grep -q "^called in $(sep "$cdnn") samples .*| ${cdn#lm;}\$" cmpview.wj || why="$why j ($cdn $cdb $cdnn): $(grep '^called' cmpview.wj);"
grep -q "^calls it in $(sep "$cun") samples (.*), base $(sep "$cub") samples, delta $(delta "$cub" "$cun") samples.* | ${cup#lm;}\$" cmpview.wk ||
    why="$why k ($cup $cub $cun): $(grep '^calls' cmpview.wk);"
grep -q 'red grew ([0-9]*), blue shrank ([0-9]*) beyond noise' cmpview.w || why="$why no legend;"
if [ -z "$why" ]; then
    pass "compare view W: lm's base $lmb -> $lmn, its widest callee ${cdn#lm;} and caller ${cup#lm;} with the halves' prefix sums, the legend"
else
    fail "compare view W" "$why"
fi

# The sandwich's colours in a real terminal (tmux, when installed): main's
# callees against the base (hand-made, 10 ms a sample; each side a pattern
# repeated 100 times, so that every change is told from noise): f 4 s ->
# 1 s shrank the most (the strongest blue: white on blue), g 2 -> 3 s and
# h 0 -> 1 s grew by a third of that (red, the middle strength: black on
# red).
if have tmux; then
    {
        echo 'sample.interval=10000'
        for i in $(seq 1 100); do
            printf '"g" "main" \n"g" "main" \n"f" "main" \n"f" "main" \n"f" "main" \n"f" "main" \n"main" \n"main" \n'
        done
    } >hb.out
    {
        echo 'sample.interval=10000'
        for i in $(seq 1 100); do printf '"g" "main" \n"g" "main" \n"g" "main" \n"f" "main" \n"h" "main" \n'; done
    } >hn.out
    SOCK=stackscope-flame-$$
    tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
    tm new-session -d -s fl -x 100 -y 30 \
        "env LC_ALL=C.UTF-8 TERM=xterm XDG_STATE_HOME='$T/state' '$STACKSCOPE' --base hb.out hn.out 2>tm.err; sleep 30"
    for i in $(seq 1 100); do tm capture-pane -p -t fl | grep -q 'functions:' && break; sleep 0.1; done
    tm send-keys -t fl ':sandwich main' Enter
    for i in $(seq 1 100); do tm capture-pane -p -t fl | grep -q 'red grew (' && break; sleep 0.1; done
    tm capture-pane -e -p -t fl >tm.screen
    tm kill-server 2>/dev/null
    e=$(printf '\033')
    edge=$(printf '\342\226\217')
    if grep -qF "${e}[37m${e}[44m${edge}f" tm.screen && grep -qF "${e}[30m${e}[41m${edge}g" tm.screen &&
        grep -qF "${e}[30m${edge}h" tm.screen; then
        pass "tmux: the sandwich in a comparison: f in the strongest blue, g and h in red"
    else
        fail "tmux: the sandwich's colours" "$(grep -F "${edge}f" tm.screen | cat -v | head -c 400) $(cat tm.err)"
    fi
else
    echo "SKIP tmux check of the sandwich's colours: no tmux"
fi

# ---- the real browser ---------------------------------------------------------------

CHROMIUM=${CHROMIUM:-chromium}
if ! have "$CHROMIUM" || ! have node; then
    echo "SKIP: the browser test (no $CHROMIUM or no node; scripts/deps.sh test installs them)"
    finish
fi

# browser NAME SVG CLICK TERM: run the driver; its facts go to NAME.b
browser() {
    timeout 120 node "$SRCDIR/tests/flame-browser.js" "$2" "$T" "$3" "$4" >"$1.b" 2>"$1.berr"
}

# small.out: click "work" (frame 4: main, run, save, setup, work in document
# order) and search /^(f|g)$/ in the zoom: g is inside f, so the share is
# f's, 5 of work's 6 samples.
idx=$(awk -F '\t' '$1 == "main;run;work" { print NR - 1 }' svg.small.frames)
browser b.small svg.small.svg "$idx" '^(f|g)$'
if grep -q '^error' b.small.b; then
    fail "browser: loads without errors" "$(grep '^error' b.small.b | head -n 5; cat b.small.berr)"
else
    pass "browser: loads without errors"
fi
nframes=$(wc -l <svg.small.frames)
if grep -qx "frames	$nframes" b.small.b; then
    pass "browser: the script set up the $nframes frames"
else
    fail "browser: the script set up the frames" "$(grep '^frames' b.small.b), want $nframes"
fi
# not blank: many colours, most of the picture unlike its background
read -r _ w h colours nonbg < <(grep '^screenshot' b.small.b)
if [ "${colours:-0}" -ge 20 ] && [ "${nonbg:-0}" -ge $((${w:-0} * ${h:-0} / 4)) ]; then
    pass "browser: screenshot ${w}x$h, $colours colours, $nonbg pixels not background"
else
    fail "browser: screenshot not blank" "$(grep '^screenshot' b.small.b)"
fi
# the click zoomed: work fills the width; its subtree at its share of work;
# its ancestors full width and marked; the rest hidden
why=$(awk -F '\t' -v px=$PX -v z="main;run;work" '
    FILENAME ~ /prefix$/ { s[$1] = $2; next }
    FILENAME ~ /frames$/ { path[FNR - 1] = $1; next }
    $1 == "after" {
        p = path[$2]
        inside = p == z || index(p, z ";") == 1
        above = index(z, p ";") == 1
        if (inside) {
            want = px * s[p] / s[z]
            if ($3 != 0 || ((d = $6 - want) > 0.0051 || d < -0.0051)) print p ": hide " $3 ", " $6 " px, want " want
        } else if (above) {
            if ($3 != 0 || $4 != 1 || $6 != "1180.00") print p ": an ancestor: hide " $3 " parent " $4 " width " $6
        } else if ($3 != 1) print p ": not hidden"
    }
    $1 == "unzoom" && $2 != 1 { print "Reset Zoom not shown" }
    $1 == "reset" && $3 != 0 { print "frame " $2 " hidden after Reset Zoom" }' \
    svg.small.prefix svg.small.frames b.small.b | head -n 5)
if [ -z "$why" ]; then
    pass "browser: a click on work zooms (widths = prefix sums / work's), Reset Zoom undoes it"
else
    fail "browser: a click zooms" "$why"
fi
want=$(awk -F '\t' '$1 == "main;run;work;f" { f = $2 } $1 == "main;run;work" { w = $2 } END { printf "%.6f", f / w }' svg.small.prefix)
got=$(awk -F '\t' '$1 == "search" { printf "%.6f", $2 }' b.small.b)
if [ "$got" = "$want" ]; then
    pass "browser: search /^(f|g)\$/ in the zoom matches $got of it (g inside f counted once)"
else
    fail "browser: search share" "got '$got', want $want"
fi

# the demo, inverted and transformed: the deepest frames too; no errors
idx=$(awk -F '\t' '$1 == "lm.fit" { print NR - 1; exit }' svg.demo-inverted.frames)
browser b.demo svg.demo-inverted.svg "${idx:-0}" 'lm'
if ! grep -q '^error' b.demo.b && grep -q '^after' b.demo.b; then
    pass "browser: the demo's inverted SVG loads and zooms without errors"
else
    fail "browser: the demo's inverted SVG" "$(grep '^error' b.demo.b | head -n 5; cat b.demo.berr)"
fi

# the differential SVG (the comparison above): no errors, and the pointer
# on execute_plan shows its title and what only the base had under it
idx=$(awk -F '\t' -v p="$ep" '$1 == p { print NR - 1; exit }' cmp.svgframes)
browser b.cmp cmp.svg "${idx:-0}" 'lm'
want=$(awk -F '\t' -v p="$ep" '$1 == p { print "; " $2 }' cmp.gone)
pct=$(awk -F '\t' -v p="$ep" '$1 !~ /;/ { t += $3 } $1 == p { n = $3 } END { printf "%.2f", 100 * n / t }' cmp.prefix)
want="execute_plan ($(sep "$epn") samples, $pct%; base $(sep "$epb") samples, delta $(delta "$epb" "$epn") samples)$want"
# (the title's verdict, "; ~, q 0.73", left out: tests/verdicts.sh checks it)
if ! grep -q '^error' b.cmp.b &&
    sed -E 's/; (grew|shrank|~)(, q [0-9.e-]+)?\)/)/' b.cmp.b | grep -qxF "details	$want"; then
    pass "browser: the differential SVG loads; the pointer on execute_plan shows its base, delta and what only the base had"
else
    fail "browser: the differential SVG" "want '$want': $(grep -E '^(error|details)' b.cmp.b | head -n 5; cat b.cmp.berr)"
fi

# well-formed whatever the names: control characters and a byte that is
# not UTF-8 escaped, & < > for XML; and an empty profile
printf 'sample.interval=1000\n"a\033b\377c" "m&n<" \n' >ctl.out
printf 'sample.interval=1000\n' >empty.out
for f in ctl empty; do
    "$STACKSCOPE" convert -o "$f.svg" "$f.out" 2>"$f.err"
    browser "b.$f" "$f.svg" -1
    want=$(grep -c '^<g data' "$f.svg")
    if ! grep -q '^error' "b.$f.b" && grep -qx "frames	$want" "b.$f.b"; then
        pass "browser: $f.svg loads ($want frames, no errors)"
    else
        fail "browser: $f.svg loads" "$(grep -E '^(error|frames)' "b.$f.b" | head -n 5; cat "b.$f.berr" "$f.err")"
    fi
done
if grep -qF '<title>a\x1bb\xffc (0.001 s, 100.00%)</title>' ctl.svg; then
    pass "svg: control characters and stray bytes escaped (textesc)"
else
    fail "svg: control characters escaped" "$(grep -o '<title>[^<]*' ctl.svg)"
fi

finish
