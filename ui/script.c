/* script.c - the headless key script (see script.h). */
#include "script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "canvas.h"
#include "vec.h"

struct ui_script {
    char *path;
    char *text; /* the whole file, NUL-terminated */
    size_t len;
    size_t pos;      /* start of the next unread part of the current line */
    size_t line_end; /* end of the current line (index of its '\n' or len) */
    size_t next;     /* start of the line after the current one */
    int in_line;     /* inside a key line */
    int lineno;
    char *cmd; /* the current command (points into text, NUL-terminated) */
};

struct ui_script *ui_script_open(const char *path, char *msg, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, n, "%s: cannot open the script", path);
        return NULL;
    }
    struct ui_script *s = calloc(1, sizeof *s);
    size_t cap = 4096;
    char *t = malloc(cap);
    if (!s || !t)
        goto oom;
    size_t len = 0, r;
    while ((r = fread(t + len, 1, cap - len - 1, f)) > 0) {
        len += r;
        if (len + 1 >= cap) {
            if (cap > (64u << 20)) {
                snprintf(msg, n, "%s: the script is too long", path);
                goto fail;
            }
            char *nt = realloc(t, cap * 2);
            if (!nt)
                goto oom;
            t = nt;
            cap *= 2;
        }
    }
    fclose(f);
    f = NULL;
    t[len] = '\0';
    s->path = strdup(path);
    if (!s->path)
        goto oom;
    s->text = t;
    s->len = len;
    return s;
oom:
    snprintf(msg, n, "%s: out of memory", path);
fail:
    if (f)
        fclose(f);
    free(t);
    free(s);
    return NULL;
}

void ui_script_free(struct ui_script *s)
{
    if (!s)
        return;
    free(s->path);
    free(s->text);
    free(s);
}

/* A mouse event "<Click X Y>". */
static int parse_mouse(const char *name, struct ui_event *ev)
{
    static const struct {
        const char *word;
        int button;
    } kinds[] = {{"Click", UI_B_CLICK},
                 {"DoubleClick", UI_B_DOUBLE},
                 {"WheelUp", UI_B_WHEEL_UP},
                 {"WheelDown", UI_B_WHEEL_DOWN}};
    for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
        size_t k = strlen(kinds[i].word);
        int x, y;
        char end;
        if (!strncmp(name, kinds[i].word, k) && name[k] == ' ' &&
            sscanf(name + k, "%d %d%c", &x, &y, &end) == 2 && x >= 0 && y >= 0) {
            ev->key = UI_K_MOUSE;
            ev->button = kinds[i].button;
            ev->x = x;
            ev->y = y;
            return 0;
        }
    }
    return -1;
}

int ui_script_next(struct ui_script *s, struct ui_event *ev, char *msg, size_t n)
{
    memset(ev, 0, sizeof *ev);
    for (;;) {
        if (!s->in_line) {
            if (s->pos >= s->len)
                return 0;
            s->lineno++;
            char *nl = memchr(s->text + s->pos, '\n', s->len - s->pos);
            s->line_end = nl ? (size_t)(nl - s->text) : s->len;
            s->next = nl ? s->line_end + 1 : s->len;
            size_t e = s->line_end;
            if (e > s->pos && s->text[e - 1] == '\r')
                e--; /* CRLF scripts */
            s->text[e] = '\0';
            const char *l = s->text + s->pos;
            size_t next = s->next;
            if (*l == '\0' || *l == '#') {
                s->pos = next;
                continue;
            }
            if (*l == ':') {
                s->cmd = s->text + s->pos + 1;
                s->pos = next;
                ev->key = UI_K_COMMAND;
                ev->command = s->cmd;
                return 1;
            }
            s->in_line = 1;
            s->line_end = e;
        }
        if (s->pos >= s->line_end) {
            s->in_line = 0;
            s->pos = s->next;
            continue;
        }
        const char *p = s->text + s->pos;
        if (*p == '<' && p[1] != '\0') {
            const char *close = strchr(p, '>');
            if (close == p + 1 && close[1] == '>')
                close++; /* "<>>" is the key '>' */
            if (!close) {
                snprintf(msg, n, "%s:%d: '<' without '>' (write <LT> for the key '<')", s->path,
                         s->lineno);
                return -1;
            }
            char name[64];
            size_t k = (size_t)(close - p - 1);
            if (k >= sizeof name)
                k = sizeof name - 1;
            memcpy(name, p + 1, k);
            name[k] = '\0';
            s->pos += (size_t)(close - p) + 1;
            int key = ui_key_parse(name);
            if (key < 0 && strlen(name) == 1)
                key = (unsigned char)name[0]; /* <:> is ':' */
            if (key >= 0) {
                ev->key = key;
                return 1;
            }
            if (parse_mouse(name, ev) == 0)
                return 1;
            char *end = NULL;
            long ms = !strncmp(name, "Sleep ", 6) ? strtol(name + 6, &end, 10) : -1;
            if (ms >= 0 && ms <= 600000 && end > name + 6 && !*end) {
                ev->key = UI_K_SLEEP; /* time passing: a followed file grows */
                ev->x = (int)ms;
                return 1;
            }
            snprintf(msg, n, "%s:%d: unknown key <%s>", s->path, s->lineno, name);
            return -1;
        }
        uint32_t cp;
        int k = ui_utf8_decode(p, s->line_end - s->pos, &cp);
        s->pos += (size_t)k;
        ev->key = (int)cp;
        return 1;
    }
}
