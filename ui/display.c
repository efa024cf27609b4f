/* display.c - curses: open, paint, read, restore (see display.h). */
#include "display.h"

#include <curses.h>
#include <term.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "write.h"
#include "vec.h"

/* The one terminal curses drives, which is the process's (newterm and
 * set_term keep it in curses' globals): ui_display_close restores it at
 * exit (atexit) and on_fatal on a crash, neither of which is handed
 * anything, so it is here and not in struct ui; the headless screen's
 * /dev/null streams, which delscreen does not close; and the terminating
 * signal the handler records.  The styles' attributes and colour pairs
 * mirror curses' colour pairs (init_pair), process-wide as well. */
static SCREEN *screen;
static FILE *null_out, *null_in;
static int is_open;
static volatile sig_atomic_t pending_signal;
static attr_t style_attr[UI_S_COUNT];
static short style_pair[UI_S_COUNT];

static void on_signal(int sig)
{
    pending_signal = sig;
}

/* A crash must not leave the terminal in raw mode: restore it, then die
 * of the same signal. */
static void on_fatal(int sig)
{
    ss_write_abandon(); /* a `:w` in progress leaves no temporary file */
    if (is_open)
        endwin();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void set_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal; /* no SA_RESTART: a pending read returns */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = on_fatal;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGABRT, &sa, NULL);
}

/* Colours when the terminal has them and NO_COLOR is unset or empty
 * (no-color.org); otherwise attributes only. */
static void setup_styles(void)
{
    const char *nc = getenv("NO_COLOR");
    int colors = has_colors() && !(nc && *nc);
    for (int s = 0; s < UI_S_COUNT; s++) {
        style_attr[s] = A_NORMAL;
        style_pair[s] = 0;
    }
    style_attr[UI_S_TITLE] = A_BOLD | A_REVERSE;
    style_attr[UI_S_HEADER] = A_BOLD | A_UNDERLINE;
    style_attr[UI_S_SELECTED] = A_REVERSE;
    style_attr[UI_S_STATUS] = A_REVERSE;
    style_attr[UI_S_ERROR] = A_BOLD;
    style_attr[UI_S_MARK] = A_BOLD;
    style_attr[UI_S_DIM] = A_DIM;
    style_attr[UI_S_MATCH] = A_BOLD | A_UNDERLINE;
    style_attr[UI_S_CURSOR] = A_REVERSE | A_BOLD;
    /* the selected frame: the terminal's own colours reversed, which no
     * frame colour (a coloured background) is, with or without colours */
    style_attr[UI_S_FRAMESEL] = A_REVERSE | A_BOLD | A_UNDERLINE;
    for (int i = 0; i < UI_NFNCOLORS; i++)
        style_attr[UI_S_FN0 + i] = i % 2 ? A_BOLD : A_NORMAL;
    /* without colours: growth bold (reversed when large), shrinkage dim */
    style_attr[UI_S_GREW1] = A_BOLD;
    style_attr[UI_S_GREW2] = A_BOLD | A_UNDERLINE;
    style_attr[UI_S_GREW3] = A_BOLD | A_REVERSE;
    style_attr[UI_S_SHRANK1] = A_DIM;
    style_attr[UI_S_SHRANK2] = A_DIM | A_UNDERLINE;
    style_attr[UI_S_SHRANK3] = A_DIM | A_REVERSE;
    if (!colors)
        return;
    start_color();
    use_default_colors();
    static const struct {
        int style;
        short fg, bg;
        attr_t attr;
    } map[] = {
        {UI_S_TITLE, COLOR_WHITE, COLOR_BLUE, A_BOLD},
        {UI_S_HEADER, COLOR_CYAN, -1, A_BOLD},
        {UI_S_SELECTED, COLOR_BLACK, COLOR_CYAN, A_NORMAL},
        {UI_S_STATUS, COLOR_BLACK, COLOR_WHITE, A_NORMAL},
        {UI_S_ERROR, COLOR_RED, -1, A_BOLD},
        {UI_S_MARK, COLOR_MAGENTA, -1, A_BOLD},
        {UI_S_MATCH, COLOR_YELLOW, -1, A_BOLD},
        {UI_S_FN0 + 0, COLOR_BLACK, COLOR_GREEN, A_NORMAL},
        {UI_S_FN0 + 1, COLOR_WHITE, COLOR_BLUE, A_NORMAL},
        {UI_S_FN0 + 2, COLOR_BLACK, COLOR_YELLOW, A_NORMAL},
        {UI_S_FN0 + 3, COLOR_WHITE, COLOR_MAGENTA, A_NORMAL},
        {UI_S_FN0 + 4, COLOR_BLACK, COLOR_CYAN, A_NORMAL},
        {UI_S_FN0 + 5, COLOR_WHITE, COLOR_RED, A_NORMAL},
        /* deltas: the stronger, the more saturated (8 colours: text on the
         * terminal's background, then on the colour, then bold on it) */
        {UI_S_GREW1, COLOR_RED, -1, A_NORMAL},
        {UI_S_GREW2, COLOR_BLACK, COLOR_RED, A_NORMAL},
        {UI_S_GREW3, COLOR_WHITE, COLOR_RED, A_BOLD},
        {UI_S_SHRANK1, COLOR_BLUE, -1, A_NORMAL},
        {UI_S_SHRANK2, COLOR_BLACK, COLOR_BLUE, A_NORMAL},
        {UI_S_SHRANK3, COLOR_WHITE, COLOR_BLUE, A_BOLD},
    };
    for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
        short pair = (short)(i + 1);
        if (pair >= COLOR_PAIRS)
            break;
        init_pair(pair, map[i].fg, map[i].bg);
        style_pair[map[i].style] = pair;
        style_attr[map[i].style] = map[i].attr;
    }
}

int ui_display_open(int headless, int cols, int rows, char *msg, size_t n)
{
    setlocale(LC_ALL, "");
    if (headless) {
        null_out = fopen("/dev/null", "w");
        null_in = fopen("/dev/null", "r");
        if (!null_out || !null_in) {
            snprintf(msg, n, "cannot open /dev/null");
            return -1;
        }
        static const char *const terms[] = {"xterm", "vt100", "ansi"};
        for (size_t i = 0; !screen && i < ARRAY_SIZE(terms); i++)
            screen = newterm(terms[i], null_out, null_in);
    } else {
        if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
            snprintf(msg, n, "the UI needs a terminal");
            return -1;
        }
        screen = newterm(NULL, stdout, stdin);
    }
    if (!screen) {
        snprintf(msg, n, "cannot open the terminal (TERM=%s)",
                 getenv("TERM") ? getenv("TERM") : "");
        return -1;
    }
    set_term(screen);
    is_open = 1;
    atexit(ui_display_close);
    set_handlers();
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    intrflush(stdscr, FALSE);
    set_escdelay(25);
    curs_set(0);
    if (headless) {
        resizeterm(rows, cols);
    } else {
        mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED,
                  NULL);
        mouseinterval(200);
        timeout(250); /* wake up now and then to notice signals */
    }
    setup_styles();
    return 0;
}

int ui_display_can_address(void)
{
    int err = 0;
    if (setupterm(NULL, STDOUT_FILENO, &err) != OK)
        return err <= 0 ? -1 : 0; /* not in the terminfo database: newterm fails too */
    const char *cup = tigetstr("cup");
    int ok = cup != NULL && cup != (char *)-1;
    del_curterm(cur_term);
    return ok;
}

void ui_display_close(void)
{
    if (!is_open)
        return;
    is_open = 0;
    curs_set(1);
    endwin();
    delscreen(screen);
    screen = NULL;
    if (null_out)
        fclose(null_out);
    if (null_in)
        fclose(null_in);
    null_out = null_in = NULL;
}

void ui_display_size(int *cols, int *rows)
{
    getmaxyx(stdscr, *rows, *cols);
}

void ui_display_resize(int cols, int rows)
{
    resizeterm(rows, cols);
}

int ui_display_utf8(void)
{
    const char *cs = nl_langinfo(CODESET); /* of the locale ui_display_open set */
    return cs && (!strcmp(cs, "UTF-8") || !strcmp(cs, "utf8"));
}

void ui_display_touch(void)
{
    clearok(curscr, TRUE);
}

void ui_display_paint(const struct ui_canvas *c, int cy, int cx)
{
    int rows, cols;
    getmaxyx(stdscr, rows, cols);
    for (int y = 0; y < c->h && y < rows; y++) {
        for (int x = 0; x < c->w && x < cols; x++) {
            const struct ui_cell *cell = &c->cells[(size_t)y * (size_t)c->w + (size_t)x];
            if (cell->ch == 0)
                continue; /* right half of a wide character */
            wchar_t wc[2] = {(wchar_t)cell->ch, 0};
            cchar_t cc;
            setcchar(&cc, wc, style_attr[cell->style], style_pair[cell->style], NULL);
            mvadd_wch(y, x, &cc);
        }
    }
    if (cy >= 0) {
        curs_set(1);
        move(cy, cx);
    } else {
        curs_set(0);
    }
    refresh();
}

/* Our code (keys.h) of a curses function key. */
static int fkey(int c)
{
    static const struct {
        int curses, ours;
    } map[] = {
        {KEY_UP, UI_K_UP},       {KEY_DOWN, UI_K_DOWN},    {KEY_LEFT, UI_K_LEFT},
        {KEY_RIGHT, UI_K_RIGHT}, {KEY_HOME, UI_K_HOME},    {KEY_END, UI_K_END},
        {KEY_PPAGE, UI_K_PGUP},  {KEY_NPAGE, UI_K_PGDN},   {KEY_BACKSPACE, UI_K_BACKSPACE},
        {KEY_DC, UI_K_DELETE},   {KEY_BTAB, UI_K_BACKTAB}, {KEY_ENTER, UI_K_KP_ENTER},
    };
    for (size_t i = 0; i < ARRAY_SIZE(map); i++)
        if (map[i].curses == c)
            return map[i].ours;
    if (c >= KEY_F(1) && c <= KEY_F(12))
        return UI_K_F0 + (c - KEY_F0);
    return UI_K_OTHER + c;
}

int ui_display_read(struct ui_event *ev, int idle)
{
    memset(ev, 0, sizeof *ev);
    timeout(idle ? 20 : 250);
    for (;;) {
        if (pending_signal)
            return 0;
        wint_t wc;
        int r = get_wch(&wc);
        if (r == ERR && idle)
            return 2; /* a pause: the caller looks at its background work */
        if (r == ERR)
            continue; /* timeout or interrupted: check for signals */
        if (r == OK) {
            ev->key = (int)wc;
            return 1;
        }
        /* KEY_CODE_YES */
        if (wc == KEY_RESIZE) {
            ev->key = UI_K_RESIZE;
            return 1;
        }
        if (wc == KEY_MOUSE) {
            MEVENT me;
            if (getmouse(&me) != OK)
                continue;
            ev->key = UI_K_MOUSE;
            ev->x = me.x;
            ev->y = me.y;
            if (me.bstate & BUTTON1_DOUBLE_CLICKED)
                ev->button = UI_B_DOUBLE;
            else if (me.bstate & BUTTON1_CLICKED)
                ev->button = UI_B_CLICK;
            else if (me.bstate & BUTTON4_PRESSED)
                ev->button = UI_B_WHEEL_UP;
            else if (me.bstate & BUTTON5_PRESSED)
                ev->button = UI_B_WHEEL_DOWN;
            else
                continue;
            return 1;
        }
        ev->key = fkey((int)wc);
        return 1;
    }
}

int ui_display_signal(void)
{
    return pending_signal;
}

/* Base64 (RFC 4648, with padding) of in[0..n) into out (4 * ceil(n / 3) + 1). */
static void base64(const unsigned char *in, size_t n, char *out)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t k = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)in[i] << 16;
        if (i + 1 < n)
            v |= (unsigned)in[i + 1] << 8;
        if (i + 2 < n)
            v |= in[i + 2];
        out[k++] = b64[v >> 18 & 63];
        out[k++] = b64[v >> 12 & 63];
        out[k++] = i + 1 < n ? b64[v >> 6 & 63] : '=';
        out[k++] = i + 2 < n ? b64[v & 63] : '=';
    }
    out[k] = '\0';
}

int ui_display_clipboard(const char *text, size_t len)
{
    if (!is_open || null_out || len > 65536)
        return -1;
    char *b = malloc(4 * (len / 3 + 1) + 1);
    if (!b)
        return -1;
    base64((const unsigned char *)text, len, b);
    fflush(stdout); /* after what curses has buffered */
    fprintf(stdout, "\033]52;c;%s\a", b);
    const char *tmux = getenv("TMUX");
    if (tmux && *tmux)
        fprintf(stdout, "\033Ptmux;\033\033]52;c;%s\a\033\\", b);
    fflush(stdout);
    free(b);
    return 0;
}
