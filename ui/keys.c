/* keys.c - the request and key-binding tables (see keys.h). */
#include "keys.h"
#include "vec.h"

#include <stdio.h>
#include <string.h>

#define V(x) UI_VIEW_BIT(UI_V_##x)
/* Views whose rows are functions (the trimming keys act on the selection). */
#define ANY 0u
#define PROMPT_ONLY (1u << UI_V_PROMPT)
#define FLAMES (V(FLAME) | V(SANDWICH)) /* the flame graph and the sandwich */

/* View-specific bindings come first so that, say, Space toggles a tree node
 * but pages down elsewhere; lookups take the first match for the view, then
 * the first global one. */
static const struct ui_binding bindings[] = {
    /* the prompt */
    {UI_K_ENTER, UI_REQ_PR_ACCEPT, PROMPT_ONLY},
    {'\n', UI_REQ_PR_ACCEPT, PROMPT_ONLY},
    {UI_K_KP_ENTER, UI_REQ_PR_ACCEPT, PROMPT_ONLY},
    {UI_K_ESC, UI_REQ_PR_CANCEL, PROMPT_ONLY},
    {UI_CTRL('g'), UI_REQ_PR_CANCEL, PROMPT_ONLY},
    {UI_K_TAB, UI_REQ_PR_COMPLETE, PROMPT_ONLY},
    {UI_K_UP, UI_REQ_PR_HIST_PREV, PROMPT_ONLY},
    {UI_CTRL('p'), UI_REQ_PR_HIST_PREV, PROMPT_ONLY},
    {UI_K_DOWN, UI_REQ_PR_HIST_NEXT, PROMPT_ONLY},
    {UI_CTRL('n'), UI_REQ_PR_HIST_NEXT, PROMPT_ONLY},
    {UI_K_LEFT, UI_REQ_PR_LEFT, PROMPT_ONLY},
    {UI_CTRL('b'), UI_REQ_PR_LEFT, PROMPT_ONLY},
    {UI_K_RIGHT, UI_REQ_PR_RIGHT, PROMPT_ONLY},
    {UI_CTRL('f'), UI_REQ_PR_RIGHT, PROMPT_ONLY},
    {UI_K_HOME, UI_REQ_PR_HOME, PROMPT_ONLY},
    {UI_CTRL('a'), UI_REQ_PR_HOME, PROMPT_ONLY},
    {UI_K_END, UI_REQ_PR_END, PROMPT_ONLY},
    {UI_CTRL('e'), UI_REQ_PR_END, PROMPT_ONLY},
    {UI_K_BACKSPACE, UI_REQ_PR_BACKSPACE, PROMPT_ONLY},
    {127, UI_REQ_PR_BACKSPACE, PROMPT_ONLY},
    {UI_CTRL('h'), UI_REQ_PR_BACKSPACE, PROMPT_ONLY},
    {UI_K_DELETE, UI_REQ_PR_DELETE, PROMPT_ONLY},
    {UI_CTRL('d'), UI_REQ_PR_DELETE, PROMPT_ONLY},
    {UI_CTRL('u'), UI_REQ_PR_KILL_LINE, PROMPT_ONLY},
    {UI_CTRL('w'), UI_REQ_PR_KILL_WORD, PROMPT_ONLY},

    /* stacks */
    {UI_K_ENTER, UI_REQ_STACK_TOGGLE, V(STACKS)},
    {' ', UI_REQ_STACK_TOGGLE, V(STACKS)},
    {'m', UI_REQ_STACK_MARK, V(STACKS)},
    {'R', UI_REQ_STACK_REPLACE, V(STACKS)},

    /* trees */
    {UI_K_ENTER, UI_REQ_TREE_FOCUS, UI_TREES},
    {'l', UI_REQ_TREE_EXPAND, UI_TREES},
    {UI_K_RIGHT, UI_REQ_TREE_EXPAND, UI_TREES},
    {'+', UI_REQ_TREE_EXPAND, UI_TREES},
    {'h', UI_REQ_TREE_COLLAPSE, UI_TREES},
    {UI_K_LEFT, UI_REQ_TREE_COLLAPSE, UI_TREES},
    {'-', UI_REQ_TREE_COLLAPSE, UI_TREES},
    {' ', UI_REQ_TREE_TOGGLE, UI_TREES},
    {'*', UI_REQ_TREE_EXPAND_ALL, UI_TREES},

    /* lines and the code pane */
    {UI_K_ENTER, UI_REQ_LINE_ENTER, V(LINES)},
    {'\n', UI_REQ_LINE_ENTER, V(LINES)},
    {UI_K_KP_ENTER, UI_REQ_LINE_ENTER, V(LINES)},
    {']', UI_REQ_HOT_NEXT, V(LINES)},
    {'[', UI_REQ_HOT_PREV, V(LINES)},

    /* timeline */
    {'h', UI_REQ_TL_LEFT, V(TIMELINE)},
    {UI_K_LEFT, UI_REQ_TL_LEFT, V(TIMELINE)},
    {'l', UI_REQ_TL_RIGHT, V(TIMELINE)},
    {UI_K_RIGHT, UI_REQ_TL_RIGHT, V(TIMELINE)},
    {'<', UI_REQ_TL_PAN_LEFT, V(TIMELINE)},
    {'>', UI_REQ_TL_PAN_RIGHT, V(TIMELINE)},
    {'^', UI_REQ_TL_START, V(TIMELINE)},
    {'$', UI_REQ_TL_END, V(TIMELINE)},
    {'+', UI_REQ_TL_ZOOM_IN, V(TIMELINE)},
    {'=', UI_REQ_TL_ZOOM_IN, V(TIMELINE)},
    {'-', UI_REQ_TL_ZOOM_OUT, V(TIMELINE)},
    {'z', UI_REQ_TL_ZOOM_RESET, V(TIMELINE)},
    {'m', UI_REQ_TL_MARK, V(TIMELINE)},
    {'v', UI_REQ_TL_PHASE, V(TIMELINE)},
    {'d', UI_REQ_TL_DROP, V(TIMELINE)},
    {'K', UI_REQ_TL_KEEP, V(TIMELINE)},
    {'L', UI_REQ_TL_LEGEND, V(TIMELINE)},

    /* phases */
    {'K', UI_REQ_PH_KEEP, V(PHASES)},
    {'d', UI_REQ_PH_DROP, V(PHASES)},
    {'m', UI_REQ_PH_MARK, V(PHASES)},
    {'C', UI_REQ_PH_COMPARE, V(PHASES)},

    /* flame graph */
    {'h', UI_REQ_FL_LEFT, FLAMES},
    {UI_K_LEFT, UI_REQ_FL_LEFT, FLAMES},
    {'l', UI_REQ_FL_RIGHT, FLAMES},
    {UI_K_RIGHT, UI_REQ_FL_RIGHT, FLAMES},
    {'k', UI_REQ_FL_UP, FLAMES},
    {UI_K_UP, UI_REQ_FL_UP, FLAMES},
    {'j', UI_REQ_FL_DOWN, FLAMES},
    {UI_K_DOWN, UI_REQ_FL_DOWN, FLAMES},
    {UI_K_ENTER, UI_REQ_FL_ZOOM, FLAMES},
    {'\n', UI_REQ_FL_ZOOM, FLAMES},
    {UI_K_KP_ENTER, UI_REQ_FL_ZOOM, FLAMES},
    {UI_K_BACKSPACE, UI_REQ_FL_ZOOM_OUT, V(FLAME)},
    {127, UI_REQ_FL_ZOOM_OUT, V(FLAME)},
    {UI_CTRL('h'), UI_REQ_FL_ZOOM_OUT, V(FLAME)},
    {'z', UI_REQ_FL_ZOOM_ALL, V(FLAME)},
    {'s', UI_REQ_FL_ORDER, FLAMES},
    {'i', UI_REQ_FL_INVERT, V(FLAME)},
    {'o', UI_REQ_FL_TIME, V(FLAME)},
    {'C', UI_REQ_FL_COLOURS, FLAMES},

    /* transforms */
    {' ', UI_REQ_TF_TOGGLE, V(TRANSFORMS)},
    {'d', UI_REQ_TF_DELETE, V(TRANSFORMS)},
    {UI_K_DELETE, UI_REQ_TF_DELETE, V(TRANSFORMS)},
    {'e', UI_REQ_TF_EDIT, V(TRANSFORMS)},
    {UI_K_ENTER, UI_REQ_TF_EDIT, V(TRANSFORMS)},
    {'a', UI_REQ_TF_ADD, V(TRANSFORMS)},
    {'K', UI_REQ_TF_MOVE_UP, V(TRANSFORMS)},
    {'J', UI_REQ_TF_MOVE_DOWN, V(TRANSFORMS)},

    /* everywhere */
    {'k', UI_REQ_MOVE_UP, ANY},
    {UI_K_UP, UI_REQ_MOVE_UP, ANY},
    {'j', UI_REQ_MOVE_DOWN, ANY},
    {UI_K_DOWN, UI_REQ_MOVE_DOWN, ANY},
    {UI_K_PGUP, UI_REQ_PAGE_UP, ANY},
    {UI_CTRL('b'), UI_REQ_PAGE_UP, ANY},
    {UI_K_PGDN, UI_REQ_PAGE_DOWN, ANY},
    {UI_CTRL('f'), UI_REQ_PAGE_DOWN, ANY},
    {' ', UI_REQ_PAGE_DOWN, ANY},
    {'g', UI_REQ_FIRST, ANY},
    {UI_K_HOME, UI_REQ_FIRST, ANY},
    {'G', UI_REQ_LAST, ANY},
    {UI_K_END, UI_REQ_LAST, ANY},
    {'h', UI_REQ_SCROLL_LEFT, ANY},
    {UI_K_LEFT, UI_REQ_SCROLL_LEFT, ANY},
    {'l', UI_REQ_SCROLL_RIGHT, ANY},
    {UI_K_RIGHT, UI_REQ_SCROLL_RIGHT, ANY},
    {UI_K_ENTER, UI_REQ_ENTER, ANY},
    {'\n', UI_REQ_ENTER, ANY},
    {UI_K_KP_ENTER, UI_REQ_ENTER, ANY},

    {UI_K_TAB, UI_REQ_NEXT_VIEW, ANY},
    {UI_K_BACKTAB, UI_REQ_PREV_VIEW, ANY},
/* clang-format off */
#define UI_VIEW_BINDING(id, ops, key, cmd, arg, help, chelp) {key, UI_REQ_VIEW_##id, ANY},
    UI_VIEWS(UI_VIEW_BINDING) /* '1' .. '9', '0', 'T', '?' */
#undef UI_VIEW_BINDING
    /* clang-format on */
    {UI_K_F0 + 1, UI_REQ_VIEW_HELP, ANY},
    {'q', UI_REQ_BACK, ANY},
    {'Q', UI_REQ_QUIT, ANY},
    {UI_CTRL('l'), UI_REQ_REDRAW, ANY},

    {'/', UI_REQ_SEARCH, ANY},
    {'&', UI_REQ_FILTER, ANY},
    {UI_K_F0 + 4, UI_REQ_FILTER, ANY},
    {'n', UI_REQ_SEARCH_NEXT, ANY},
    {'N', UI_REQ_SEARCH_PREV, ANY},
    {'s', UI_REQ_SORT_NEXT, ANY},
    {'S', UI_REQ_SORT_REVERSE, ANY},
    {'y', UI_REQ_COPY_NAME, ANY},
    {'a', UI_REQ_SOURCE_OPEN, ANY},
    {'V', UI_REQ_VALUE_NEXT, ANY},
    {'X', UI_REQ_SWAP_BASE, ANY},
    {'Z', UI_REQ_NORMALIZE, ANY},

    {':', UI_REQ_PROMPT, ANY},
    {'u', UI_REQ_UNDO, ANY},
    {'U', UI_REQ_REDO, ANY},
    {UI_CTRL('r'), UI_REQ_REDO, ANY},
    {'d', UI_REQ_DROP_FN, ANY},
    {'f', UI_REQ_FOCUS_FN, ANY},
    {'M', UI_REQ_MERGE_FN, ANY},
    {'p', UI_REQ_PRUNE_FN, ANY},
    {'t', UI_REQ_TRIM_TO_FN, ANY},
    {'c', UI_REQ_COLLAPSE_FN, ANY},
    {'b', UI_REQ_TRIM_BASE_LEVEL, ANY},
    {'B', UI_REQ_TRIM_BASE_AUTO, ANY},
    {'E', UI_REQ_R_SIMPLIFY, ANY},
    {'A', UI_REQ_NAME_ANONYMOUS, ANY},
    {'P', UI_REQ_PRESET_R, ANY},
    {'K', UI_REQ_KEEP_MAIN, ANY},
};

static const struct {
    const char *help;
    enum ui_section sec;
} requests[] = {
#define UI_REQUEST_INFO(id, sec, help) {help, UI_SEC_##sec},
#define UI_REQUEST_VIEW_INFO(id, ops, key, cmd, arg, help, chelp) {help, UI_SEC_VIEW},
    UI_REQUESTS(UI_REQUEST_INFO, UI_REQUEST_VIEW_INFO)
#undef UI_REQUEST_INFO
#undef UI_REQUEST_VIEW_INFO
};

static const char *const sections[] = {
#define UI_SECTION_TITLE(id, title) title,
    UI_SECTIONS(UI_SECTION_TITLE)
#undef UI_SECTION_TITLE
};

enum ui_request ui_key_request(int key, enum ui_view_id v)
{
    size_t n = ARRAY_SIZE(bindings);
    for (size_t i = 0; i < n; i++)
        if (bindings[i].key == key && (bindings[i].views & (1u << v)))
            return bindings[i].req;
    if (v == UI_V_PROMPT)
        return UI_REQ_NONE;
    for (size_t i = 0; i < n; i++)
        if (bindings[i].key == key && bindings[i].views == 0)
            return bindings[i].req;
    return UI_REQ_NONE;
}

int ui_request_view(enum ui_request r)
{
    switch (r) {
#define UI_REQUEST_VIEW_CASE(id, ops, key, cmd, arg, help, chelp)                                  \
    case UI_REQ_VIEW_##id:                                                                         \
        return UI_V_##id;
        UI_VIEWS(UI_REQUEST_VIEW_CASE)
#undef UI_REQUEST_VIEW_CASE
    default:
        return -1;
    }
}

const struct ui_binding *ui_bindings(size_t *n)
{
    *n = ARRAY_SIZE(bindings);
    return bindings;
}

const char *ui_request_help(enum ui_request r)
{
    return requests[r].help;
}

enum ui_section ui_request_section(enum ui_request r)
{
    return requests[r].sec;
}

const char *ui_section_title(enum ui_section s)
{
    return sections[s];
}

/* Names of the special keys, both ways. */
static const struct {
    int key;
    const char *name;
} key_names[] = {
    {UI_K_ENTER, "Enter"},
    {'\n', "Enter"},
    {UI_K_KP_ENTER, "Enter"},
    {UI_K_TAB, "Tab"},
    {UI_K_BACKTAB, "S-Tab"},
    {UI_K_ESC, "Esc"},
    {' ', "Space"},
    {127, "BS"},
    {UI_K_BACKSPACE, "BS"},
    {UI_K_DELETE, "Del"},
    {UI_K_UP, "Up"},
    {UI_K_DOWN, "Down"},
    {UI_K_LEFT, "Left"},
    {UI_K_RIGHT, "Right"},
    {UI_K_PGUP, "PgUp"},
    {UI_K_PGDN, "PgDn"},
    {UI_K_HOME, "Home"},
    {UI_K_END, "End"},
    {'<', "LT"},
};

const char *ui_key_name(int k, char *buf, size_t n)
{
    for (size_t i = 0; i < ARRAY_SIZE(key_names); i++)
        if (key_names[i].key == k && k != '<') {
            snprintf(buf, n, "%s", key_names[i].name);
            return buf;
        }
    if (k >= UI_K_F0 + 1 && k <= UI_K_F0 + 12)
        snprintf(buf, n, "F%d", k - UI_K_F0);
    else if (k > 0 && k < 32)
        snprintf(buf, n, "C-%c", k + 'a' - 1);
    else if (k >= 32 && k < 127)
        snprintf(buf, n, "%c", k);
    else
        snprintf(buf, n, "<%#x>", (unsigned)k);
    return buf;
}

int ui_key_parse(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(key_names); i++)
        if (!strcmp(key_names[i].name, name))
            return key_names[i].key;
    if (name[0] == 'C' && name[1] == '-' && name[2] >= 'a' && name[2] <= 'z' && !name[3])
        return UI_CTRL(name[2]);
    if (name[0] == 'F' && name[1] >= '1' && name[1] <= '9') {
        int f = name[1] - '0';
        if (name[2] >= '0' && name[2] <= '2' && !name[3] && f == 1)
            f = 10 + name[2] - '0';
        else if (name[2])
            return -1;
        return UI_K_F0 + f;
    }
    return -1;
}

const char *ui_request_keys(enum ui_request r, enum ui_view_id v, int max, char *buf, size_t n)
{
    size_t k = 0;
    int got = 0;
    buf[0] = '\0';
    /* the view's own bindings first, then the global ones it does not
     * override */
    for (int pass = 0; pass < 2 && got < max; pass++)
        for (size_t i = 0; i < ARRAY_SIZE(bindings) && got < max; i++) {
            const struct ui_binding *b = &bindings[i];
            if (b->req != r || (pass == 0 ? !(b->views & (1u << v)) : b->views != 0) ||
                (pass == 1 && ui_key_request(b->key, v) != r))
                continue;
            char name[32];
            ui_key_name(b->key, name, sizeof name);
            char probe[40];
            snprintf(probe, sizeof probe, ", %s,", name);
            char have[160];
            snprintf(have, sizeof have, ", %s,", buf);
            if (strstr(have, probe))
                continue; /* Enter has three codes */
            k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%s", got ? ", " : "", name);
            got++;
        }
    return buf;
}

/* The hint line: per view, its main requests (two: keys joined by '/')
 * with a word each, in the order shown; views 0: every view's, after the
 * view's own as room allows, the `must` ones always. */
static const struct {
    unsigned views;
    enum ui_request a, b;
    const char *word;
    int must;
} hints[] = {
    {V(FUNCTIONS), UI_REQ_ENTER, 0, "callers", 0},
    {V(FUNCTIONS) | V(LINES) | V(STACKS) | V(LABELS), UI_REQ_SORT_NEXT, 0, "sort", 0},
    {V(STACKS), UI_REQ_STACK_TOGGLE, 0, "frames", 0},
    {V(STACKS), UI_REQ_STACK_MARK, UI_REQ_STACK_REPLACE, "mark/replace", 0},
    {UI_TREES, UI_REQ_TREE_FOCUS, 0, "focus", 0},
    {UI_TREES, UI_REQ_TREE_COLLAPSE, UI_REQ_TREE_EXPAND, "fold/unfold", 0},
    {UI_TREES, UI_REQ_TREE_EXPAND_ALL, 0, "unfold all", 0},
    {V(CALLS), UI_REQ_ENTER, 0, "go to", 0},
    {V(TIMELINE), UI_REQ_TL_LEFT, UI_REQ_TL_RIGHT, "cursor", 0},
    {V(TIMELINE), UI_REQ_TL_ZOOM_IN, UI_REQ_TL_ZOOM_OUT, "zoom", 0},
    {V(TIMELINE), UI_REQ_TL_PHASE, 0, "phase", 0},
    {V(TIMELINE), UI_REQ_TL_MARK, 0, "mark", 0},
    {V(TIMELINE), UI_REQ_TL_KEEP, UI_REQ_TL_DROP, "keep/drop", 0},
    {V(TIMELINE), UI_REQ_TL_LEGEND, 0, "legend", 0},
    {V(LEVELS), UI_REQ_TRIM_BASE_LEVEL, 0, "cut to here", 0},
    {V(LEVELS), UI_REQ_TRIM_BASE_AUTO, 0, "cut scaffold", 0},
    {V(LEVELS), UI_REQ_ENTER, 0, "its timeline", 0},
    {V(RUNS), UI_REQ_SCROLL_LEFT, UI_REQ_SCROLL_RIGHT, "scroll", 0},
    {V(LINES), UI_REQ_LINE_ENTER, 0, "code pane", 0},
    {V(LINES), UI_REQ_HOT_NEXT, UI_REQ_HOT_PREV, "hot line", 0},
    {V(FLAME), UI_REQ_FL_LEFT, UI_REQ_FL_RIGHT, "move", 0},
    {FLAMES, UI_REQ_FL_UP, UI_REQ_FL_DOWN, "caller/callee", 0},
    {V(FLAME), UI_REQ_FL_ZOOM, 0, "zoom", 0},
    {V(SANDWICH), UI_REQ_FL_ZOOM, 0, "to the middle", 0},
    {V(FLAME), UI_REQ_FL_INVERT, 0, "invert", 0},
    {V(FLAME), UI_REQ_FL_TIME, 0, "time order", 0},
    {V(LABELS), UI_REQ_FOCUS_FN, UI_REQ_DROP_FN, "keep/drop", 0},
    {V(FUNCTIONS) | V(CALLS) | UI_TREES | FLAMES, UI_REQ_FOCUS_FN, UI_REQ_DROP_FN, "focus/drop", 0},
    {V(FUNCTIONS), UI_REQ_VIEW_FLAME, 0, "flame", 0},
    {V(FUNCTIONS), UI_REQ_VIEW_TIMELINE, 0, "timeline", 0},
    {V(TRANSFORMS), UI_REQ_TF_TOGGLE, 0, "on/off", 0},
    {V(TRANSFORMS), UI_REQ_TF_EDIT, 0, "edit", 0},
    {V(TRANSFORMS), UI_REQ_TF_ADD, 0, "add", 0},
    {V(TRANSFORMS), UI_REQ_TF_DELETE, 0, "delete", 0},
    {V(TRANSFORMS), UI_REQ_TF_MOVE_UP, UI_REQ_TF_MOVE_DOWN, "move", 0},
    {V(HELP), UI_REQ_SEARCH_NEXT, 0, "next match", 0},
    {0, UI_REQ_SEARCH, 0, "search", 0},
    {0, UI_REQ_UNDO, 0, "undo", 0},
    {0, UI_REQ_PROMPT, 0, "command", 0},
    {0, UI_REQ_VIEW_HELP, 0, "help", 1},
    {0, UI_REQ_BACK, 0, "back", 1},
};

/* "KEYS WORD" of hint h in view v into buf ("" when a key is missing). */
static const char *hint_text(size_t h, enum ui_view_id v, char *buf, size_t n)
{
    char a[40], b[40] = "";
    ui_request_keys(hints[h].a, v, 1, a, sizeof a);
    if (hints[h].b)
        ui_request_keys(hints[h].b, v, 1, b, sizeof b);
    if (!a[0] || (hints[h].b && !b[0]))
        buf[0] = '\0';
    else
        snprintf(buf, n, "%s%s%s %s", a, b[0] ? "/" : "", b, hints[h].word);
    return buf;
}

const char *ui_hint_line(enum ui_view_id v, int width, char *buf, size_t n)
{
    char must[128] = "", item[96];
    size_t mk = 0, k = 0;
    for (size_t h = 0; h < ARRAY_SIZE(hints); h++)
        if (hints[h].must && hint_text(h, v, item, sizeof item)[0])
            mk +=
                (size_t)snprintf(must + mk, mk < sizeof must ? sizeof must - mk : 0, "  %s", item);
    buf[0] = '\0';
    /* the view's own, then every view's, as room allows */
    for (int pass = 0; pass < 2; pass++)
        for (size_t h = 0; h < ARRAY_SIZE(hints); h++) {
            int mine = pass == 0 ? (hints[h].views & (1u << v)) != 0
                                 : hints[h].views == 0 && !hints[h].must;
            if (!mine || !hint_text(h, v, item, sizeof item)[0])
                continue;
            if ((int)(k + (k ? 2 : 0) + strlen(item) + mk) > width) {
                if (pass == 0)
                    break;
                continue;
            }
            k += (size_t)snprintf(buf + k, k < n ? n - k : 0, "%s%s", k ? "  " : "", item);
        }
    snprintf(buf + k, k < n ? n - k : 0, "%s", k ? must : must + 2);
    return buf;
}
