#!/bin/bash
# The layers (HACKING.md: Layers) checked mechanically, from the sources:
#   - only ui/display.c includes curses; the core (src/) and the command
#     line (cli/) never do;
#   - a loader's header (src/load_*.h) is included only by the loaders
#     (src/load*.c), the format table (src/format.c) and the unit tests: no
#     analysis, report, writer, command line or explorer file depends on a
#     loader;
#   - the core (src/, libstackscope.a) includes no header of a front end
#     (cli/, ui/), and no header name is in both the core and a front end
#     (an #include "x.h" names one file whichever -I finds it);
#   - the explorer includes no header of the command line (cli/): all it
#     gets from the command line comes in one struct (src/explore.h);
#   - the explorer never includes the loading front door (load.h): it does
#     not parse files;
#   - in ui/, only the views that show call trees and callers/callees
#     include tree.h; names and function identity come from model.h;
#   - only src/model.c writes the model's tables: loaders and transforms
#     build through model.h's builder (m->aggs, m->meta, ... are read-only
#     elsewhere);
#   - no circle of files: no .c file depends, through its own #include
#     lines, on one that depends back on it (format.c names the loaders,
#     so loaders include loader.h, never load.h);
#   - no mutable static variable in src/, cli/ or ui/ (file scope or in a
#     function) but the signal path's, the test pause's and the terminal's
#     (ui/display.c): the command line's parsed options are one struct
#     (struct cli_args, cli/options.h) that its entry point owns and passes
#     down; the explorer keeps its state in its struct ui, a view what its
#     draws change (column widths and titles) in its private struct;
#   - the C sources are clang-format clean (when clang-format is there);
#   - the sources cite only documents in the repository (the man page,
#     HACKING.md, bench/README.md), never the design notes and house style
#     guide the project began from, which live outside it: a maintainer who
#     clones the project cannot read those.
[ -n "$BASH_VERSION" ] || exec bash "$0" "$@"

# shellcheck source=tests/lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

cd "$SRCDIR" || exit 99

# includes PATTERN FILE...: the files among FILE... that include a header
# matching PATTERN (#include "x.h" or <x.h>).
includes() {
    local pat=$1
    shift
    grep -lE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($pat)[>\"]" "$@" 2>/dev/null
}

curses='(n?curses|ncursesw/curses|term|ncurses\.h|curses\.h|ncursesw/ncurses)(\.h)?'
check "the core never includes curses" "$(includes "$curses" src/*.c src/*.h)"
check "only ui/display.c includes curses" \
    "$(includes "$curses" ui/*.c ui/*.h cli/*.c cli/*.h | grep -vx 'ui/display.c')"

loaders='load_[a-z_]+\.h'
check "loader headers only in loaders, the format table and the follower (follow.c)" \
    "$(includes "$loaders" src/*.c src/*.h cli/*.c cli/*.h ui/*.c ui/*.h |
        grep -vE '^src/(load[a-z_]*|format|follow)\.[ch]$')"

# headers_of DIR...: a pattern for `includes` that matches the headers of
# DIR..., by their name (the -I path finds them) or by a path through the
# directory ("ui/app.h", "../cli/cli.h").
headers_of() {
    local d names
    names=$(for d in "$@"; do ls "$d"; done | grep '\.h$' | sed 's/\./\\./' | paste -sd'|')
    printf '(\.\./)?(%s)/[A-Za-z_0-9]+\.h|%s' "$(printf '%s|' "$@" | sed 's/|$//')" "$names"
}
check "no header name in both the core and a front end (src/ and cli/ or ui/)" \
    "$(ls src cli ui | grep '\.h$' | sort | uniq -d)"
check "the core includes no header of the front ends (cli/, ui/)" \
    "$(includes "$(headers_of cli ui)" src/*.c src/*.h)"
check "the explorer includes no header of the command line (its input is explore.h)" \
    "$(includes "$(headers_of cli)" ui/*.c ui/*.h)"
check "the explorer does not load files (no load.h in ui/)" "$(includes 'load\.h' ui/*.c ui/*.h)"
check "tree.h only in the tree and calls views" \
    "$(includes 'tree\.h' ui/*.c ui/*.h | grep -vxE 'ui/view_(tree|calls)\.c')"

# writes FILE...: lines that write a model table (an assignment to, an
# increment of, or a VEC_PUSH/RESERVE/FREE on m->TABLE, out->TABLE or
# x->m->TABLE, or a pointer that could write into one), as FILE:LINE.
tables='(sources|functions|locations|stack_off|stack_loc|stack_tail|sample_stack|gaps|value_types|values|labels|labelset_off|labelset_lab|sample_labels|meta|source_texts|aggs|edges|function_class|function_canon|warnings)'
model='(\<[A-Za-z_]+->)?\<(m|out|model)->'
writes() {
    grep -nE "$model$tables(\.v\[[^]]*\])?(\.[a-z_]+)?[[:space:]]*(=[^=]|\+\+|--|[-+*|&]=)|VEC_(PUSH|RESERVE|FREE)\([[:space:]]*$model$tables\>|^[[:space:]]*struct [a-z_]+ \*[a-z_]+ = &$model$tables" "$@" 2>/dev/null |
        cut -d: -f1,2
}
check "only model.c writes the model's tables (loaders use the builder)" \
    "$(writes src/*.c cli/*.c ui/*.c | grep -v '^src/model\.c:')"

# cites PATH...: lines that cite a document outside the repository, as
# FILE:LINE.  tests/data/ holds other programs' files (it may quote anything);
# build products (logs, objects) are not sources.
cite_re='DESIGN( §| section|\.md| [0-9]|$)|STYLE\.md|\<STYLE [0-9]|§ ?[0-9]'
cites() {
    grep -rnIE --exclude='*.log' --exclude='*.trs' --exclude-dir=.deps --exclude-dir=.libs \
        "$cite_re" "$@" 2>/dev/null | grep -v '^tests/data/' | cut -d: -f1,2
}
check "the sources cite only the repository's documents (stackscope(1), HACKING.md)" \
    "$(cites src cli ui tests scripts r bench Makefile.am configure.ac | head -n 20)"

# The C sources are as clang-format (.clang-format) writes them.
if have clang-format; then
    check "the C sources are clang-format clean" \
        "$(clang-format --dry-run src/*.c src/*.h cli/*.c cli/*.h ui/*.c ui/*.h tests/*.c tests/fuzz/*.c 2>&1 |
            grep -o '^[^:]*\.[ch]:[0-9]*' | sort -u | head -n 10)"
else
    echo "SKIP clang-format check: clang-format not installed"
fi

# circles FILE...: the loops of files that depend on each other, a .c file
# depending on another when its own #include lines name that one's header
# (x.c on y.c when x.c includes "y.h"; a header's includes are not
# followed), as tsort(1) reports them; empty when there are none.
circles() {
    local f h d
    for f in "$@"; do
        d=$(dirname "$f")
        for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_0-9]*\)\.h".*/\1/p' "$f"); do
            [ -f "$d/$h.c" ] && [ "$d/$h.c" != "$f" ] && echo "$f $d/$h.c"
        done
        echo "$f $f"
    done | tsort 2>&1 >/dev/null | sed -n 's/^tsort: //p' | grep -v 'input contains a loop'
}
check "no circle of files in src/ (x.c includes y.h and y.c x.h, or a longer loop)" "$(circles src/*.c)"
check "no circle of files in cli/" "$(circles cli/*.c)"
check "no circle of files in ui/" "$(circles ui/*.c)"
# The views call the shared context (context.c: messages, the current view
# and function, opening a view), never the main loop (ui.c) that calls
# them: defined_in FILE lists the functions FILE defines for others;
# calls_to FILE... the lines of FILES that call one of them.
defined_in() { sed -n 's/^[a-z][a-z_ ]*[ *]\(ui_[a-z_]*\)(.*/\1/p' "$1" | sort -u; }
calls_to() {
    local names
    names=$(defined_in "$1" | paste -sd '|')
    shift
    [ -n "$names" ] && grep -nE "(^|[^a-z_0-9])($names)\(" "$@" /dev/null 2>/dev/null
}
check "the views do not call the main loop (ui.c), only the context (context.c)" \
    "$(calls_to ui/ui.c ui/view_*.c)"
printf 'void ui_loop_only(struct ui *ui)\n{\n}\n' >"$TMPD/loop.c"
printf 'static void f(struct ui *ui)\n{\n    ui_loop_only(ui);\n    ui_loop_onlyx(ui);\n    xui_loop_only(ui);\n}\n' >"$TMPD/view_x.c"
[ "$(calls_to "$TMPD/loop.c" "$TMPD/view_x.c" | wc -l)" -eq 1 ] &&
    pass "the main-loop call check finds a call" || fail "the main-loop call check finds a call" "$(calls_to "$TMPD/loop.c" "$TMPD/view_x.c")"

# statics FILE...: variables that keep state between calls, as FILE:LINE:
# static ones at file scope or inside a function, but not const ones (a
# pointer to const is not: `*const NAME` is), comments left out first.  A
# function is a `(` before any `=`, `;` or `[`: an array sized by a macro
# call (`xs[ARRAY_SIZE(ys)]`) is a variable.
statics() {
    grep -HnE '^[[:space:]]*static ' "$@" 2>/dev/null |
        sed -E 's#/\*.*\*/##; s#//.*##' |
        grep -vE ':[[:space:]]*static [^=;[]*\(' |
        grep -vE ':[[:space:]]*static (const [^*]*[=;[]|const struct [a-z_]* ?\{$|inline )' |
        grep -vE '\*[[:space:]]*const[[:space:]]+[a-z_0-9]+[[:space:]]*(\[|=|;)' |
        cut -d: -f1,2
}
# The core keeps no state between calls: its sorts take a context, its
# options travel in structs; nor does the command line: its parsed options
# are one struct (struct cli_args) on the stack of its entry point
# (ss_cli_main), passed to the options' setters, the commands and their
# helpers.  Allowed, by name: the signal path (inmap.c's SIGBUS handler's
# registry, write.c's removal of a half-written output on a signal,
# cli.c's progress line, which its fatal-signal handler erases) and
# reader.c's test pause (set once from the environment).
allowed_statics='^src/inmap\.c:.*\<(slots|page_mask|prevs|prev_at|guard_mu|passing)\>|^src/write\.c:.*\<abandon_(path|kind)\>|^src/reader\.c:.*\<test_hook\>|^cli/cli\.c:.*\<prog\>|^ui/display\.c:.*\<(screen|null_out|null_in|is_open|pending_signal|style_attr|style_pair)\>'
state_in() {
    local f
    for f in $(statics "$@" | cut -d: -f1 | sort -u); do
        statics "$f" | while IFS=: read -r file line; do
            printf '%s:%s:%s\n' "$file" "$line" "$(sed -n "${line}p" "$file")"
        done
    done
}
check "no mutable static variable in src/ or cli/ (but the signal path's and the test pause's)" \
    "$(state_in src/*.c cli/*.c | grep -vE "$allowed_statics" | cut -d: -f1,2)"
# Nor does the explorer: what it keeps is in its one struct ui (ss_ui_main's,
# allocated), the search's compiled pattern and where '/' started included;
# a view's in its private data (v->priv), its column tables being const
# descriptors and what a draw widens or names a copy there; what a table's
# rows see while ui_table_draw draws it on the draw's stack (the canvas's
# `table`).  Allowed, by name, is display.c's terminal: curses keeps the one
# screen in its globals, the exit and crash handlers that restore it are
# handed nothing, the signal handler records the signal, and the styles'
# colour pairs are curses' process-wide ones.
check "no mutable static variable in ui/ (but display.c's terminal and signal)" \
    "$(state_in ui/*.c | grep -vE "$allowed_statics" | cut -d: -f1,2)"

# The check itself must catch what it looks for.
mkdir -p "$TMPD/state"
printf 'static const char *sort_name; /* qsort(3) context */\nstatic int n;\nstatic const char *const ok[] = {"a"};\nstatic const struct {\nstatic int f(void)\nstatic const int lim = 3;\nstatic struct x xs[4];\n    static unsigned counter;\nstatic const char *const *p;\nstatic struct ui_column cols[ARRAY_SIZE(cols_min)];\nstatic const struct ui_column cols_min[] = {\nstatic size_t f2(const char *s[]);\n' >"$TMPD/state/s.c"
[ "$(statics "$TMPD/state/s.c" | wc -l)" -eq 6 ] &&
    pass "the state check finds offenders" || fail "the state check finds offenders" "$(statics "$TMPD/state/s.c")"
# The allow-list names variables of one file each: cli.c's progress line
# passes, its options would not, nor a `prog` elsewhere; display.c's signal
# and screen pass, a search state there or a screen in table.c would not.
allowed_test=$(printf 'cli/cli.c:9:static struct progress prog;\ncli/cli.c:10:static int cli_nbases;\nsrc/x.c:11:static struct progress prog;\ncli/cli.c:12:static const char *cli_value;\nui/display.c:13:static volatile sig_atomic_t pending_signal;\nui/display.c:14:static SCREEN *screen;\nui/display.c:15:static char isearch_last[256];\nui/table.c:16:static SCREEN *screen;\nui/ui.c:17:    static regex_t re;\n' |
    grep -vE "$allowed_statics" | cut -d: -f2 | tr '\n' ' ')
[ "$allowed_test" = "10 11 12 15 16 17 " ] &&
    pass "the state check's allow-list is by file and name" || fail "the state check's allow-list is by file and name" "$allowed_test"
mkdir -p "$TMPD/loop"
printf '#include "b.h"\n' >"$TMPD/loop/a.c"
printf '#include "c.h"\n' >"$TMPD/loop/b.c"
printf '#include "a.h"\n#include "vec.h"\n' >"$TMPD/loop/c.c"
printf '#include "a.h"\n' >"$TMPD/loop/d.c"
[ "$(circles "$TMPD"/loop/*.c | wc -l)" -eq 3 ] &&
    pass "the circle check finds a loop of three" || fail "the circle check finds a loop of three" "$(circles "$TMPD"/loop/*.c)"
mkdir -p "$TMPD/src"
printf '#include <curses.h>\n' >"$TMPD/src/bad.c"
printf '#include "load_rprof.h"\n' >"$TMPD/src/stats_bad.c"
printf '#include "cli.h"\n' >"$TMPD/src/ui_bad.c"
printf '#include "ui.h"\n' >"$TMPD/src/core_ui.c"
printf '#include "../cli/cli.h"\n' >"$TMPD/src/core_cli.c"
printf '#include <ui/app.h>\n' >"$TMPD/src/core_app.h"
printf '#include "model.h"\n#include "explore.h"\n#include "ui_cli.h"\n' >"$TMPD/src/core_ok.c"
printf 'if (VEC_PUSH(m->aggs, a))\n    L->m->meta.v[0].key = k;\nm->sources.v[s].interval_us = iv;\nn = m->aggs.n;\n    struct ss_source *so = &S->m->sources.v[sid];\nconst struct ss_source *ok = &m->sources.v[0];\n' >"$TMPD/src/load_bad.c"
[ -n "$(includes "$curses" "$TMPD/src/bad.c")" ] && [ -n "$(includes "$loaders" "$TMPD/src/stats_bad.c")" ] &&
    [ -n "$(includes "$(headers_of cli)" "$TMPD/src/ui_bad.c")" ] &&
    [ "$(includes "$(headers_of cli ui)" "$TMPD"/src/core_*.[ch] | wc -l)" -eq 3 ] &&
    [ "$(writes "$TMPD/src/load_bad.c" | wc -l)" -eq 4 ] &&
    pass "the include check finds offenders" || fail "the include check finds offenders" "grep found nothing"
mkdir -p "$TMPD/cite"
printf '/* the model (%s section 2) */\n/* %s 11: why */\n# house style (%s.md)\n/* DESIGNATED STYLES 2 */\n' \
    DESIGN DESIGN STYLE >"$TMPD/cite/bad.c"
[ "$(cites "$TMPD/cite" | wc -l)" -eq 3 ] &&
    pass "the citation check finds offenders" || fail "the citation check finds offenders" "$(cites "$TMPD/cite")"

finish
