/* prompt.c - the line editor of the ':' and '/' prompts (see prompt.h). */
#include "prompt.h"

#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "vec.h"

static int hist_index(int kind)
{
    return kind == '/' ? 1 : kind == '&' ? 2 : 0;
}

static void reset_completion(struct ui_prompt *p)
{
    ui_prompt_free_cands(p->cands, p->ncands);
    p->cands = NULL;
    p->ncands = p->ci = 0;
    p->completing = 0;
}

void ui_prompt_start(struct ui *ui, int kind, const char *text)
{
    struct ui_prompt *p = &ui->prompt;
    reset_completion(p);
    p->active = 1;
    p->kind = kind;
    snprintf(p->buf, sizeof p->buf, "%s", text);
    p->len = p->cur = strlen(p->buf);
    p->edit_step = -1;
    p->insert_at = -1;
    p->hpos = (int)p->nhist[hist_index(kind)];
    if (kind == '&')
        snprintf(p->before, sizeof p->before, "%s", text);
}

void ui_prompt_free(struct ui *ui)
{
    struct ui_prompt *p = &ui->prompt;
    reset_completion(p);
    for (int k = 0; k < 3; k++) {
        for (size_t i = 0; i < p->nhist[k]; i++)
            free(p->hist[k][i]);
        p->nhist[k] = 0;
    }
}

static void hist_add(struct ui_prompt *p, const char *line)
{
    int k = hist_index(p->kind);
    size_t cap = sizeof p->hist[k] / sizeof *p->hist[k];
    if (!*line || (p->nhist[k] && !strcmp(p->hist[k][p->nhist[k] - 1], line)))
        return;
    char *copy = strdup(line);
    if (!copy)
        return;
    if (p->nhist[k] == cap) {
        free(p->hist[k][0]);
        memmove(&p->hist[k][0], &p->hist[k][1], (cap - 1) * sizeof *p->hist[k]);
        p->nhist[k]--;
    }
    p->hist[k][p->nhist[k]++] = copy;
}

/* ---- editing ------------------------------------------------------------- */

static size_t prev_char(const char *s, size_t i)
{
    if (i == 0)
        return 0;
    i--;
    while (i > 0 && ((unsigned char)s[i] & 0xc0) == 0x80)
        i--;
    return i;
}

static size_t next_char(const char *s, size_t len, size_t i)
{
    if (i >= len)
        return len;
    i++;
    while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
        i++;
    return i;
}

static void delete_range(struct ui_prompt *p, size_t a, size_t b)
{
    memmove(p->buf + a, p->buf + b, p->len - b + 1);
    p->len -= b - a;
    if (p->cur > b)
        p->cur -= b - a;
    else if (p->cur > a)
        p->cur = a;
}

static void insert_text(struct ui_prompt *p, const char *s, size_t n)
{
    if (p->len + n >= sizeof p->buf)
        return;
    memmove(p->buf + p->cur + n, p->buf + p->cur, p->len - p->cur + 1);
    memcpy(p->buf + p->cur, s, n);
    p->len += n;
    p->cur += n;
}

static void insert_cp(struct ui_prompt *p, uint32_t cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80)
        b[0] = (char)cp, n = 1;
    else if (cp < 0x800)
        b[0] = (char)(0xc0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
    else if (cp < 0x10000)
        b[0] = (char)(0xe0 | cp >> 12), b[1] = (char)(0x80 | ((cp >> 6) & 0x3f)),
        b[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
    else
        b[0] = (char)(0xf0 | cp >> 18), b[1] = (char)(0x80 | ((cp >> 12) & 0x3f)),
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), b[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
    insert_text(p, b, n);
}

/* ---- completion ---------------------------------------------------------- */

void ui_prompt_free_cands(char **c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(c[i]);
    free(c);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The word's text without its opening quote and escapes. */
static void unquote_prefix(const char *s, size_t n, char *out, size_t cap)
{
    size_t k = 0, i = 0;
    if (n && s[0] == '"')
        i = 1;
    for (; i < n && k + 1 < cap; i++) {
        if (s[i] == '\\' && i + 1 < n)
            i++;
        else if (s[i] == '"')
            continue;
        out[k++] = s[i];
    }
    out[k] = '\0';
}

static int push_cand(char ***v, size_t *n, size_t *cap, const char *s)
{
    if (*n == *cap) {
        size_t nc = *cap ? *cap * 2 : 32;
        char **nv = ss_realloc_array(*v, nc, sizeof *nv);
        if (!nv)
            return -1;
        *v = nv;
        *cap = nc;
    }
    char *copy = strdup(s);
    if (!copy)
        return -1;
    (*v)[(*n)++] = copy;
    return 0;
}

/* The label command `line` starts with: 2 for keep-label and drop-label
 * (which take KEY=VALUE), 1 for label-root (KEY), 0 for anything else. */
static int label_command(const char *line)
{
    while (*line == ' ')
        line++;
    size_t n = strcspn(line, " ");
    if (n == 10 && (!strncmp(line, "keep-label", 10) || !strncmp(line, "drop-label", 10)))
        return 2;
    return n == 10 && !strncmp(line, "label-root", 10) ? 1 : 0;
}

/* A candidate as the transform language writes it: a command as is; for
 * the label commands KEY=VALUE with the value quoted when it must be (a key
 * as is); else a quoted name.  `open`: leave a closing quote off (a prefix
 * of the name goes on).  Into q. */
static const char *cand_text(const char *line, int first_word, const char *c, int open, char *q,
                             size_t n)
{
    int lab = first_word ? 0 : label_command(line);
    const char *eq = lab == 2 ? strchr(c, '=') : NULL;
    if (first_word || lab == 1 || (lab == 2 && !eq)) {
        snprintf(q, n, "%s", c);
        return q;
    }
    char v[sizeof((struct ui_prompt *)0)->buf];
    size_t k = eq ? (size_t)(eq - c) + 1 : 0;
    if (open && lab == 2 && c[k] == '\0')
        v[0] = '\0'; /* "worker=": the value is still to come */
    else
        ui_quote_name(c + k, v, sizeof v);
    size_t vl = strlen(v);
    if (open && v[0] == '"' && vl > 1)
        v[vl - 1] = '\0';
    snprintf(q, n, "%.*s%s", (int)k, c, v);
    return q;
}

char **ui_prompt_candidates(struct ui *ui, const char *line, size_t start, size_t end, size_t *n)
{
    char prefix[sizeof ui->prompt.buf];
    unquote_prefix(line + start, end - start, prefix, sizeof prefix);
    size_t plen = strlen(prefix);
    char **v = NULL;
    size_t cap = 0;
    *n = 0;
    /* the first word is a command */
    size_t i = 0;
    while (i < start && line[i] == ' ')
        i++;
    if (i == start) {
        size_t nc;
        const struct ui_command_info *cmds = ui_commands(&nc);
        for (size_t k = 0; k < nc; k++)
            if (!strncmp(cmds[k].name, prefix, plen) && push_cand(&v, n, &cap, cmds[k].name))
                break;
    } else if (label_command(line)) {
        /* keep-label / drop-label: KEY=VALUE of every label; label-root: KEY */
        const struct ss_model *m = ui->m;
        int with_value = label_command(line) == 2;
        for (size_t l = 0; l < m->labels.n; l++) {
            char val[96], kv[sizeof ui->prompt.buf];
            if (with_value)
                snprintf(kv, sizeof kv, "%s=%s", ss_label_key(m, (ss_id)l),
                         ss_label_value(m, (ss_id)l, val, sizeof val));
            else
                snprintf(kv, sizeof kv, "%s", ss_label_key(m, (ss_id)l));
            if (!strncmp(kv, prefix, plen) && push_cand(&v, n, &cap, kv))
                break;
        }
    } else if (!strncmp(line + i, "value ", 6)) {
        /* :value NAME: the profile's measures */
        struct ss_measure ms[SS_SOURCE_VALUE_BITS + 8];
        size_t nm = ss_model_measures(ui->m, ms, ARRAY_SIZE(ms));
        for (size_t k = 0; k < nm && k < ARRAY_SIZE(ms); k++) {
            const char *name = ss_measure_name(ui->m, &ms[k]);
            if (!strncmp(name, prefix, plen) && push_cand(&v, n, &cap, name))
                break;
        }
    } else {
        const struct ss_model *m = ui->m;
        for (size_t f = 0; f < m->functions.n; f++) {
            const char *name = ss_function_name(m, (ss_id)f);
            if (strncmp(name, prefix, plen))
                continue;
            if (push_cand(&v, n, &cap, name))
                break;
        }
    }
    if (*n > 1)
        qsort(v, *n, sizeof *v, cmp_str);
    /* one entry per name (functions may share a name) */
    size_t u = 0;
    for (size_t k = 0; k < *n; k++) {
        if (u && !strcmp(v[u - 1], v[k]))
            free(v[k]);
        else
            v[u++] = v[k];
    }
    *n = u;
    return v;
}

/* Where the word under the cursor starts (quotes keep spaces inside). */
static size_t word_start(const char *s, size_t cur)
{
    size_t start = 0;
    int inq = 0;
    for (size_t i = 0; i < cur; i++) {
        if (inq && s[i] == '\\' && i + 1 < cur) {
            i++;
            continue;
        }
        if (s[i] == '"')
            inq = !inq;
        else if (s[i] == ' ' && !inq)
            start = i + 1;
    }
    return start;
}

/* Replace the word [start, cur) by text. */
static void replace_word(struct ui_prompt *p, size_t start, const char *text)
{
    delete_range(p, start, p->cur);
    p->cur = start;
    insert_text(p, text, strlen(text));
}

static void complete(struct ui *ui)
{
    struct ui_prompt *p = &ui->prompt;
    if (p->kind != ':')
        return;
    int first_word = 1;
    char q[sizeof p->buf];
    if (p->completing && p->ncands > 1) {
        /* cycle through the candidates */
        p->ci = (p->ci + 1) % p->ncands;
        for (size_t i = 0; i < p->word_start; i++)
            if (p->buf[i] != ' ')
                first_word = 0;
        const char *c = p->cands[p->ci];
        replace_word(p, p->word_start, cand_text(p->buf, first_word, c, 0, q, sizeof q));
        ui_message(ui, "%zu of %zu: %s", p->ci + 1, p->ncands, c);
        return;
    }
    reset_completion(p);
    size_t start = word_start(p->buf, p->cur);
    for (size_t i = 0; i < start; i++)
        if (p->buf[i] != ' ')
            first_word = 0;
    size_t n;
    char **c = ui_prompt_candidates(ui, p->buf, start, p->cur, &n);
    if (n == 0) {
        ui_prompt_free_cands(c, n);
        ui_error(ui, "no completion");
        return;
    }
    if (n == 1) {
        char text[sizeof p->buf + 1];
        snprintf(text, sizeof text, "%s ", cand_text(p->buf, first_word, c[0], 0, q, sizeof q));
        replace_word(p, start, text);
        ui_prompt_free_cands(c, n);
        ui->msg[0] = '\0';
        return;
    }
    /* the longest common prefix, then a list; Tab again cycles */
    size_t lcp = strlen(c[0]);
    for (size_t i = 1; i < n; i++) {
        size_t k = 0;
        while (k < lcp && c[i][k] == c[0][k])
            k++;
        lcp = k;
    }
    while (lcp > 0 && ((unsigned char)c[0][lcp] & 0xc0) == 0x80)
        lcp--; /* never split a UTF-8 character */
    char pre[sizeof p->buf];
    snprintf(pre, sizeof pre, "%.*s", (int)lcp, c[0]);
    char cur[sizeof p->buf];
    unquote_prefix(p->buf + start, p->cur - start, cur, sizeof cur);
    if (strlen(pre) > strlen(cur)) /* leave a quote open: the name goes on */
        replace_word(p, start, cand_text(p->buf, first_word, pre, 1, q, sizeof q));
    p->cands = c;
    p->ncands = n;
    p->ci = n - 1; /* the next Tab shows the first */
    p->word_start = start;
    p->completing = 1;
    char list[1024];
    size_t k = (size_t)snprintf(list, sizeof list, "%zu candidates:", n);
    for (size_t i = 0; i < n && k < sizeof list; i++)
        k += (size_t)snprintf(list + k, sizeof list - k, " %s", c[i]);
    ui_message(ui, "%s", list);
}

/* ---- keys ---------------------------------------------------------------- */

static void accept(struct ui *ui)
{
    struct ui_prompt *p = &ui->prompt;
    char line[sizeof p->buf];
    memcpy(line, p->buf, p->len + 1);
    int kind = p->kind, edit = p->edit_step, ins = p->insert_at;
    p->active = 0;
    reset_completion(p);
    hist_add(p, line);
    ui->msg[0] = '\0';
    if (kind == '/') {
        ui_search_end(ui, line);
    } else if (kind == '&') {
        ui_filter(ui, line, 0);
    } else {
        ui_command(ui, line, edit, ins);
    }
}

/* After an edit of the '/' or '&' line: search or filter as it stands. */
static void typed(struct ui *ui)
{
    struct ui_prompt *p = &ui->prompt;
    if (p->kind == '/')
        ui_search_typed(ui, p->buf);
    else if (p->kind == '&')
        ui_filter(ui, p->buf, 1);
}

static void cancel(struct ui *ui)
{
    struct ui_prompt *p = &ui->prompt;
    p->active = 0;
    ui->msg[0] = '\0';
    if (p->kind == '/')
        ui_search_end(ui, NULL);
    else if (p->kind == '&')
        ui_filter(ui, p->before, 1);
}

static void edit_key(struct ui *ui, const struct ui_event *ev);

void ui_prompt_key(struct ui *ui, const struct ui_event *ev)
{
    struct ui_prompt *p = &ui->prompt;
    char was[sizeof p->buf];
    memcpy(was, p->buf, p->len + 1);
    edit_key(ui, ev);
    if (p->active && strcmp(was, p->buf))
        typed(ui);
}

static void edit_key(struct ui *ui, const struct ui_event *ev)
{
    struct ui_prompt *p = &ui->prompt;
    if (ev->key == UI_K_MOUSE)
        return;
    enum ui_request r = ui_key_request(ev->key, UI_V_PROMPT);
    if (r != UI_REQ_PR_COMPLETE) {
        reset_completion(p);
        if (ui->msg_style == UI_S_MESSAGE)
            ui->msg[0] = '\0';
    }
    int hk = hist_index(p->kind);
    switch (r) {
    case UI_REQ_PR_ACCEPT:
        accept(ui);
        return;
    case UI_REQ_PR_CANCEL:
        cancel(ui);
        return;
    case UI_REQ_PR_COMPLETE:
        complete(ui);
        return;
    case UI_REQ_PR_HIST_PREV:
    case UI_REQ_PR_HIST_NEXT:
        if (r == UI_REQ_PR_HIST_PREV && p->hpos > 0)
            p->hpos--;
        else if (r == UI_REQ_PR_HIST_NEXT && p->hpos < (int)p->nhist[hk])
            p->hpos++;
        else
            return;
        snprintf(p->buf, sizeof p->buf, "%s",
                 p->hpos < (int)p->nhist[hk] ? p->hist[hk][p->hpos] : "");
        p->len = p->cur = strlen(p->buf);
        return;
    case UI_REQ_PR_LEFT:
        p->cur = prev_char(p->buf, p->cur);
        return;
    case UI_REQ_PR_RIGHT:
        p->cur = next_char(p->buf, p->len, p->cur);
        return;
    case UI_REQ_PR_HOME:
        p->cur = 0;
        return;
    case UI_REQ_PR_END:
        p->cur = p->len;
        return;
    case UI_REQ_PR_BACKSPACE:
        if (p->cur == 0 && p->len == 0) {
            cancel(ui); /* backspace on an empty prompt leaves it, as in vim */
            return;
        }
        delete_range(p, prev_char(p->buf, p->cur), p->cur);
        return;
    case UI_REQ_PR_DELETE:
        delete_range(p, p->cur, next_char(p->buf, p->len, p->cur));
        return;
    case UI_REQ_PR_KILL_LINE:
        delete_range(p, 0, p->cur);
        return;
    case UI_REQ_PR_KILL_WORD: {
        size_t i = p->cur;
        while (i > 0 && p->buf[i - 1] == ' ')
            i--;
        while (i > 0 && p->buf[i - 1] != ' ')
            i--;
        delete_range(p, i, p->cur);
        return;
    }
    default:
        break;
    }
    if (ev->key >= 32 && ev->key < 0x110000 && ev->key != 127)
        insert_cp(p, (uint32_t)ev->key);
}

int ui_prompt_draw(struct ui *ui, struct ui_canvas *c, int y)
{
    struct ui_prompt *p = &ui->prompt;
    char save = p->buf[p->cur];
    p->buf[p->cur] = '\0';
    int before = 1 + ui_text_width(c, p->buf); /* the prompt character too */
    p->buf[p->cur] = save;
    /* scroll so that the cursor stays on screen */
    int skip = before >= c->w ? before - c->w + 1 : 0;
    char line[sizeof p->buf + 2];
    snprintf(line, sizeof line, "%c%s", p->kind, p->buf);
    ui_canvas_style(c, y, 0, c->w, UI_S_NORMAL, 1);
    if (skip == 0) {
        ui_put(c, y, 0, c->w, line, UI_S_NORMAL);
        return before;
    }
    /* drop whole characters from the left until `skip` columns are gone */
    const char *s = line;
    size_t len = strlen(line);
    int gone = 0;
    while (len && gone < skip) {
        int cw;
        int k = ui_text_next(c, s, len, &cw);
        gone += cw;
        s += k;
        len -= (size_t)k;
    }
    ui_put(c, y, 0, c->w, s, UI_S_NORMAL);
    return before - gone;
}
