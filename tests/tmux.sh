#!/bin/bash
# Smoke test of the real explorer in a real terminal: the program runs in a
# tmux session, gets its keys through `tmux send-keys` and is read back with
# `tmux capture-pane`.  It walks the README's session on the demo profile
# (the timeline's main phase kept, the scaffold cut, the run lengths of
# lm.fit, the profile saved), checks a resize, NO_COLOR, a file followed as
# it grows (--follow), and a clean exit on q, SIGINT and SIGTERM.  The saved profile is read back by `stackscope
# report` (and by R's summaryRprof when R is installed) and compared with
# `report -e` on the same transforms.  Skipped without tmux.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
need_stackscope
have tmux || skip_test "tmux is not installed (scripts/deps.sh test installs it)"

T=$TMPD
cp "$SRCDIR/data/demo.out" "$T/" || exit 99
cd "$T" || exit 99
export LC_ALL=C
unset TMUX STACKSCOPE_SCRIPT NO_COLOR
SOCK=stackscope-test-$$
tm() { tmux -L "$SOCK" -f /dev/null "$@"; }
trap 'tm kill-server 2>/dev/null; rm -rf "$TMPD"' EXIT

# start NAME [ENV...]: run the explorer on demo.out in session NAME
# (100x30); its exit status goes to NAME.exit.
start() {
    local name=$1
    shift
    rm -f "$name.exit"
    tm new-session -d -s "$name" -x 100 -y 30 \
        "env LC_ALL=C.UTF-8 $* '$STACKSCOPE' demo.out 2>$name.err; echo \$? >$name.exit; sleep 60"
}

# screen NAME: the screen now.
screen() { tm capture-pane -p -t "$1"; }

# wait_for NAME TEXT: wait (at most 10 s) until the screen shows TEXT;
# returns 1 (and saves the screen in NAME.last) when it does not.
wait_for() {
    local i
    for i in $(seq 1 100); do
        if screen "$1" | grep -qF -- "$2"; then
            return 0
        fi
        sleep 0.1
    done
    screen "$1" >"$1.last"
    return 1
}

# step NAME TEXT KEYS...: send keys, then wait for TEXT; a test each.
step() {
    local name=$1 text=$2
    shift 2
    tm send-keys -t "$name" "$@"
    if wait_for "$name" "$text"; then
        pass "$name: $text"
    else
        fail "$name: $text" "not on the screen after $*:"$'\n'"$(cat "$name.last")"
    fi
}

# wait_exit NAME: the exit status of the explorer (empty after 10 s).
wait_exit() {
    local i
    for i in $(seq 1 100); do
        if [ -s "$1.exit" ]; then
            cat "$1.exit"
            return
        fi
        sleep 0.1
    done
}

# ---- the README's session -----------------------------------------------------

start s
if wait_for s "5522 of 5522 samples"; then
    pass "s: the demo opens"
else
    fail "s: the demo opens" "$(cat s.last; cat s.err)"
fi
step s "lm.fit" ""
step s "timeline: samples 1-5522" 6
step s "samples 488-5358" ">" v
step s "4871 of 5522 samples" K
step s "levels:" 7
step s "trim-base auto:" B
step s "functions:" 1
step s "/lm.fit: match 1 of 1" / l m . f i t Enter
step s "runs: lm.fit" 8
tm send-keys -t s : w Space t r i m m e d . o u t Enter
if wait_for s "wrote trimmed.out"; then
    pass "s: :w trimmed.out"
elif screen s | grep -q 'not available yet'; then
    pass "s: :w says that the rprof writer is not available yet"
else
    fail "s: :w trimmed.out" "$(cat s.last)"
fi
# a resize: the title line follows the new width
tm resize-window -t s -x 120 -y 40 2>/dev/null || tm resize-window -t s -x 120 -y 40
sleep 0.5
w=$(screen s | head -n 1 | sed 's/ *$//' | awk '{ print length($0) }')
if [ "${w:-0}" -gt 100 ]; then pass "s: resize"; else fail "s: resize" "title $w columns wide"; fi
step s "functions:" q
tm send-keys -t s Q
st=$(wait_exit s)
check_exit() {
    if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "exit status '$2', expected $3: $(cat "${1%%:*}.err")"; fi
}
check_exit "s: Q quits" "$st" 0
# the terminal is restored: the shell's screen, not the explorer's
if screen s | grep -q "5522 samples"; then
    fail "s: terminal restored" "the explorer's screen is still there"
else
    pass "s: terminal restored"
fi

# The saved profile is report -e's profile (and R reads it).
if [ -f trimmed.out ]; then
    "$STACKSCOPE" report --limit 15 trimmed.out | awk '/^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  /' >r.saved
    "$STACKSCOPE" report --limit 15 -e 'keep-samples 488:5358' -e 'trim-base auto' demo.out |
        awk '/^ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+  /' >r.want
    if [ -s r.saved ] && diff r.saved r.want >r.diff; then
        pass "saved: report reads it back"
    else
        fail "saved: report reads it back" "$(head r.diff)"
    fi
    if have Rscript; then
        Rscript -e 's <- summaryRprof("trimmed.out"); cat(sprintf("%.3f", s$sampling.time), gsub("\"", "", rownames(s$by.self)[1]), "\n")' >r.R 2>&1
        want="$(awk 'NR == 1 { print $3 }' r.want) $(awk 'NR == 1 { print $5 }' r.want)"
        total=$("$STACKSCOPE" report -e 'keep-samples 488:5358' -e 'trim-base auto' demo.out | awk '/^time/{ print $2 }')
        if grep -q "^$total lm.fit" r.R; then
            pass "saved: summaryRprof reads it ($total s, lm.fit first)"
        else
            fail "saved: summaryRprof reads it" "R: $(cat r.R); want $total lm.fit ($want)"
        fi
    fi
fi

# colours NAME: lines with colours (capture-pane -e keeps the SGR codes;
# 30-37/40-47/38;/48; are colours).
colours() { tm capture-pane -e -p -t "$1" | grep -cE $'\e\\[[0-9;]*(3[0-7]|4[0-7]|38;|48;)' || true; }

# ---- the flame graph (issue 12) --------------------------------------------------

# F shows the icicle with the root-side frames named; /name selects the
# widest match, Enter zooms into it: the breadcrumb names its ancestors and
# its children show below it; q zooms out again.
start f
wait_for f "5522 of 5522 samples" || true
step f "run_study" F
step f "/fit_bootstrap: match 1 of 1" / f i t _ b o o t s t r a p Enter
step f "execute_plan > fit_bootstrap_models  (q out" Enter
# the zoomed frame's row, then its child lapply on the row below
if screen f | awk 'prev ~ /fit_bootstrap_models *$/ && /lapply/ { ok = 1 } { prev = $0 } END { exit !ok }'; then
    pass "f: zoomed: the children under the frame"
else
    fail "f: zoomed: the children under the frame" "$(screen f)"
fi
tm send-keys -t f q
sleep 0.5
if wait_for f "run_study" && ! screen f | grep -q "zoom: "; then
    pass "f: q zooms out"
else
    fail "f: q zooms out" "$(screen f)"
fi
# W: the sandwich of the selected frame's function
step f "fit_bootstrap_models: its callers above, its callees below" W
tm send-keys -t f Q
# Without colours (NO_COLOR) and on the Linux console (TERM=linux, no UTF-8)
# the frames keep ASCII edges, so they stay apart.
start fl NO_COLOR=1 TERM=linux LC_ALL=C
wait_for fl "5522 of 5522 samples" || true
step fl "|fit_bootstrap_models" F
if [ "$(colours fl)" -eq 0 ]; then pass "fl: no colours"; else fail "fl: no colours" "$(tm capture-pane -e -p -t fl | head -5)"; fi
tm send-keys -t fl Q

# ---- measures: V cycles them, the numbers are report's --------------------------

start v
wait_for v "5522 of 5522 samples" || true
step v "value: samples" V
step v "value: memory" V
step v "by self memory" ""
# the top row under memory is report --value memory's top row
top=$("$STACKSCOPE" report --value memory --limit 1 demo.out 2>/dev/null | tail -n 2 | head -n 1 |
    awk '{ print $1 " " $2 "  " }')
row=$(screen v | sed -n 3p)
if [ -n "$top" ] && case "$row" in *"${top% }"*) true ;; *) false ;; esac; then
    pass "v: the top row shows report --value memory's bytes"
else
    fail "v: the top row shows report --value memory's bytes" "row '$row', report '$top'"
fi
step v "lines:" 9
step v "memory |" ""
tm send-keys -t v Q
wait_exit v >/dev/null

# ---- from R: the R package's explore() in R's terminal ---------------------------

# R (interactive, in the pane) loads the package's code from r/R and calls
# explore(): the explorer takes the terminal with the transforms given, q
# returns to R with its exit status.
if have R; then
    tm new-session -d -s r -x 100 -y 30 "env LC_ALL=C.UTF-8 TERM=screen R --quiet --no-save --no-restore; sleep 60"
    if wait_for r ">"; then
        tm send-keys -t r "for (f in list.files('$SRCDIR/r/R', full.names = TRUE)) source(f); options(stackscope.path = '$STACKSCOPE'); st <- explore('demo.out', transforms = 'trim-base auto')" Enter
        step r "started with: 1 transform"
        step r "explore returned 0" q "cat('explore', 'returned', st, '\n')" Enter
    else
        fail "r: R's prompt" "$(cat r.last)"
    fi
else
    echo "SKIP r: R is not installed"
fi

# ---- signals and NO_COLOR -------------------------------------------------------

start c
wait_for c "5522 of 5522 samples" || true
tm send-keys -t c C-c
check_exit "c: SIGINT (C-c) ends it" "$(wait_exit c)" 130

start t
wait_for t "5522 of 5522 samples" || wait_for t "5522 of 5522 samples" || true
# t's explorer is the child of t's pane's shell (other sessions' explorers
# may still be exiting, slowly under the sanitizers or a loaded machine);
# looked up again until it is there.
sent=
for i in 1 2 3 4 5 6 7 8 9 10; do
    pane=$(tm list-panes -t t -F '#{pane_pid}' 2>/dev/null | head -n 1)
    pid=$([ -n "$pane" ] && pgrep -P "$pane" -f "$STACKSCOPE" | head -n 1 || true)
    if [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; then
        sent=1
        break
    fi
    sleep 1
done
if [ -n "$sent" ]; then
    st=$(wait_exit t)
    [ -n "$st" ] || st=$(wait_exit t)
    check_exit "t: SIGTERM ends it" "$st" 143
else
    fail "t: SIGTERM ends it" "no explorer process found to signal"
fi

# The code pane in a real terminal: the demo's regression.R at its hottest
# line, with its bars (block characters in a UTF-8 locale); ] steps to the
# next hot line.
mkdir -p demo && cp "$SRCDIR/data/demo/regression.R" demo/ || exit 99
start p
wait_for p "5522 of 5522 samples" || true
step p "regression.R, time per line" 9 Enter
if screen p | grep -q $'\xe2\x96\x88'; then
    pass "p: the bars are drawn"
else
    fail "p: the bars are drawn" "$(screen p | head -n 12)"
fi
step p "hot line 2 of" "]"
tm send-keys -t p Q

# Colours by default, none with NO_COLOR (colours() above).
start k
wait_for k "5522 of 5522 samples" || true
n_colour=$(colours k)
tm send-keys -t k Q
start n NO_COLOR=1
wait_for n "5522 of 5522 samples" || true
n_plain=$(colours n)
tm send-keys -t n Q
if [ "$n_plain" -eq 0 ] && [ "$n_colour" -gt 0 ]; then
    pass "NO_COLOR: no colours ($n_colour coloured lines without it)"
else
    fail "NO_COLOR" "coloured lines: $n_colour without NO_COLOR, $n_plain with"
fi

# --follow in a real terminal: the key loop wakes up to read the file as it
# grows (headless, a script's <Sleep> does; follow.sh), and keys are still
# answered.
head -n 1000 demo.out >live.out
n1=$(grep -c '^[":0-9]' live.out)
tm new-session -d -s live -x 120 -y 30 \
    "env LC_ALL=C.UTF-8 '$STACKSCOPE' --follow live.out 2>live.err; echo \$? >live.exit; sleep 60"
if wait_for live "| $n1 of $n1 samples"; then
    tail -n +1001 demo.out >>live.out
    step live "| 5522 of 5522 samples" ""
    step live "timeline: samples 1-5522 of 5522" 6
    tm send-keys -t live q q
    check "live: --follow exits 0 on q" "$(st=$(wait_exit live) && [ "$st" = 0 ] || echo "exit ${st:-none}: $(cat live.err)")"
else
    fail "live: --follow shows the file's first $n1 samples" "$(cat live.last)"
fi

finish