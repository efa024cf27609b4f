/* transform.c - the transform list: editing, undo/redo, scripts (see
 * transform.h).  Parsing is in transform_parse.c, applying in
 * transform_apply.c.
 *
 * Undo keeps whole snapshots of the list (each step's canonical text and
 * whether it is enabled): lists are short, and a snapshot restored by
 * reparsing its texts is exactly the list it was, so undo and redo need no
 * per-edit inverse.  The model is always recomputed from the original by
 * ss_tf_apply, never patched.
 */
#include "transform_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

/* The largest script file read (a script is a few lines; this is a guard). */
#define TF_MAX_SCRIPT (16u << 20)

struct snapshot {
    size_t n;
    char **text;
    unsigned char *on;
};

struct ss_tf_list {
    VEC(struct tf_step) steps;
    VEC(struct snapshot) undo, redo;
    struct ss_spare *spare;    /* see ss_tf_list_set_spare */
    struct tf_phase_hint hint; /* see ss_tf_list_hint_phases; starts NULL: none */
    size_t hint_count;         /* the list's steps when the hint was given */
};

struct ss_tf_list *ss_tf_list_new(void)
{
    return calloc(1, sizeof(struct ss_tf_list));
}

void ss_tf_list_set_spare(struct ss_tf_list *l, struct ss_spare *spare)
{
    l->spare = spare;
}

static void hint_clear(struct ss_tf_list *l)
{
    free(l->hint.starts);
    memset(&l->hint, 0, sizeof l->hint);
}

int ss_tf_list_hint_phases(struct ss_tf_list *l, const struct ss_phases *ph)
{
    hint_clear(l);
    if (!l->steps.n || !ph || !ph->n)
        return 0;
    l->hint.starts = ss_alloc_array(ph->n, sizeof *l->hint.starts);
    if (!l->hint.starts)
        return -1;
    for (size_t k = 0; k < ph->n; k++)
        l->hint.starts[k] = ph->v[k].first;
    l->hint.n = ph->n;
    l->hint.samples = ph->v[ph->n - 1].first + ph->v[ph->n - 1].n;
    l->hint.step = l->steps.n - 1;
    l->hint_count = l->steps.n;
    return 0;
}

static void snapshot_free(struct snapshot *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->text[i]);
    free(s->text);
    free(s->on);
    memset(s, 0, sizeof *s);
}

static void snapshots_clear(struct ss_tf_list *l, int redo_only)
{
    for (size_t i = 0; i < l->redo.n; i++)
        snapshot_free(&l->redo.v[i]);
    l->redo.n = 0;
    if (redo_only)
        return;
    for (size_t i = 0; i < l->undo.n; i++)
        snapshot_free(&l->undo.v[i]);
    l->undo.n = 0;
}

static void steps_free(struct tf_step *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        tf_step_free(&v[i]);
}

void ss_tf_list_free(struct ss_tf_list *l)
{
    if (!l)
        return;
    steps_free(l->steps.v, l->steps.n);
    VEC_FREE(l->steps);
    hint_clear(l);
    snapshots_clear(l, 0);
    VEC_FREE(l->undo);
    VEC_FREE(l->redo);
    free(l);
}

/* ---- parsing one command ------------------------------------------------------ */

static int parse_one(const char *cmd, struct tf_step *st, struct ss_error *err)
{
    size_t col;
    char msg[512];
    int rc = tf_parse(cmd, strlen(cmd), 0, st, &col, msg, sizeof msg);
    if (rc == SS_ENOMEM)
        return ss_nomem(err, "transform");
    if (rc)
        return ss_fail(err, SS_EUSAGE, "column %zu: %s", col, msg);
    return 0;
}

int ss_tf_check(const char *cmd, struct ss_error *err)
{
    struct tf_step st;
    int rc = parse_one(cmd, &st, err);
    if (!rc)
        tf_step_free(&st);
    return rc;
}

/* The parser reads the command word first: an unknown word fails at column
 * 1, a known one later (at its missing argument). */
/* R's evaluation machinery: frames that only pass evaluation on (eval and
 * its wrappers, condition handling, source(), do.call(), the byte
 * compiler's JIT entry points).  The man page lists and explains them. */
const char *const ss_tf_r_machinery[] = {
    "eval",
    "evalq",
    "eval.parent",
    "local",
    "withVisible",
    "withAutoprint",
    "source",
    "sys.function",
    "do.call",
    "Recall",
    "force",
    "tryCatch",
    "tryCatchList",
    "tryCatchOne",
    "doTryCatch",
    "try",
    "withCallingHandlers",
    "suppressWarnings",
    "suppressMessages",
    "withRestarts",
    "withOneRestart",
    "doWithOneRestart",
    "compiler:::tryCmpfun",
    "tryCmpfun",
    "cmpfun",
    "compiler::cmpfun",
    "compiler:::cmpfun",
    NULL,
};

/* Presets: scripts of ordinary steps, added like --script. */
static const struct {
    const char *name, *script;
} presets[] = {
    {"r", "r-simplify\nname-anonymous\ntrim-base auto\n"},
    {"trim-burnin", "keep-phase main\n"}, /* the burn-in and fade-out gone (phases.h) */
};

const char *ss_tf_preset(const char *name)
{
    for (size_t i = 0; i < ARRAY_SIZE(presets); i++)
        if (!strcmp(name, presets[i].name))
            return presets[i].script;
    return NULL;
}

const char *ss_tf_preset_name(size_t i)
{
    return i < ARRAY_SIZE(presets) ? presets[i].name : NULL;
}

const char *ss_tf_preset_list(char *buf, size_t n)
{
    size_t k = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < ARRAY_SIZE(presets) && k < n; i++) {
        int w = snprintf(buf + k, n - k, "%s%s",
                         i == 0                        ? ""
                         : i + 1 < ARRAY_SIZE(presets) ? ", "
                                                       : " or ",
                         presets[i].name);
        k += w > 0 ? (size_t)w : 0;
    }
    return buf;
}

const char *ss_tf_preset_text(const char *name, char *buf, size_t n)
{
    const char *s = ss_tf_preset(name);
    size_t k = 0;
    buf[0] = '\0';
    for (; s && *s && k + 1 < n; s++)
        if (*s != '\n')
            buf[k++] = *s;
        else if (s[1] && k + 3 < n) {
            buf[k++] = ',';
            buf[k++] = ' ';
        }
    buf[k < n ? k : n - 1] = '\0';
    return buf;
}

int ss_tf_is_command(const char *word)
{
    if (!*word || strpbrk(word, " \t\r\n\v\f"))
        return 0;
    struct tf_step st;
    size_t col = 0;
    char msg[16];
    int rc = tf_parse(word, strlen(word), 0, &st, &col, msg, sizeof msg);
    if (!rc)
        tf_step_free(&st);
    return rc == 0 || (rc == SS_EUSAGE && col > 1);
}

const char *ss_tf_range_text(const struct ss_tf_effect *e, char *buf, size_t n)
{
    if (e->range_first)
        snprintf(buf, n, "%zu:%zu", e->range_first, e->range_last);
    else if (n)
        buf[0] = '\0';
    return buf;
}

/* ---- reading ------------------------------------------------------------------ */

size_t ss_tf_count(const struct ss_tf_list *l)
{
    return l->steps.n;
}

const char *ss_tf_text(const struct ss_tf_list *l, size_t i)
{
    return i < l->steps.n ? l->steps.v[i].text : NULL;
}

enum ss_tf_kind ss_tf_kind(const struct ss_tf_list *l, size_t i)
{
    return i < l->steps.n ? l->steps.v[i].kind : SS_TF_DROP_SAMPLES;
}

int ss_tf_enabled(const struct ss_tf_list *l, size_t i)
{
    return i < l->steps.n && l->steps.v[i].enabled;
}

const struct ss_tf_effect *ss_tf_effect(const struct ss_tf_list *l, size_t i)
{
    return i < l->steps.n ? &l->steps.v[i].effect : NULL;
}

const struct ss_tf_effect *ss_tf_base_effect(const struct ss_tf_list *l, size_t i)
{
    return i < l->steps.n ? &l->steps.v[i].base_effect : NULL;
}

static int no_match(const struct tf_step *st, const struct ss_tf_effect *e)
{
    if (st->kind == SS_TF_KEEP_LABEL || st->kind == SS_TF_DROP_LABEL ||
        st->kind == SS_TF_LABEL_ROOT)
        return st->enabled && e->labels_matched == 0;
    if (st->kind == SS_TF_KEEP_LINE)
        return st->enabled && e->lines_matched == 0;
    return st->enabled && st->npats > 0 && e->functions_matched == 0;
}

int ss_tf_no_match(const struct ss_tf_list *l, size_t i)
{
    return i < l->steps.n && no_match(&l->steps.v[i], &l->steps.v[i].effect);
}

int ss_tf_base_no_match(const struct ss_tf_list *l, size_t i)
{
    return i < l->steps.n && no_match(&l->steps.v[i], &l->steps.v[i].base_effect);
}

const char *ss_tf_match_noun(const struct ss_tf_list *l, size_t i)
{
    enum ss_tf_kind k = ss_tf_kind(l, i);
    return k == SS_TF_KEEP_LABEL || k == SS_TF_DROP_LABEL || k == SS_TF_LABEL_ROOT ? "label"
           : k == SS_TF_KEEP_LINE                                                  ? "line"
                                                                                   : "function";
}

size_t ss_tf_active(const struct ss_tf_list *l)
{
    size_t n = 0;
    for (size_t i = 0; i < l->steps.n; i++)
        n += l->steps.v[i].enabled != 0;
    return n;
}

/* ---- undo history ------------------------------------------------------------- */

static int snapshot_take(const struct ss_tf_list *l, struct snapshot *s)
{
    memset(s, 0, sizeof *s);
    size_t n = l->steps.n;
    s->text = ss_calloc_array(n, sizeof *s->text);
    s->on = ss_alloc_array(n, 1);
    if (!s->text || !s->on) {
        snapshot_free(s);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        s->text[i] = strdup(l->steps.v[i].text);
        s->on[i] = (unsigned char)(l->steps.v[i].enabled != 0);
        s->n = i + 1;
        if (!s->text[i]) {
            snapshot_free(s);
            return -1;
        }
    }
    s->n = n;
    return 0;
}

/* Record the current list as an undo point (before an edit); the redo
 * history ends here.  Returns 0 or -1 (out of memory: nothing recorded). */
static int undo_point(struct ss_tf_list *l)
{
    hint_clear(l); /* a hint is for the list as it was given */
    struct snapshot s;
    if (VEC_RESERVE(l->undo, l->undo.n + 1) || snapshot_take(l, &s))
        return -1;
    l->undo.v[l->undo.n++] = s;
    snapshots_clear(l, 1);
    return 0;
}

/* Replace the steps by the ones snapshot s describes.  Returns 0 or -1 (out
 * of memory: the list is unchanged). */
static int restore(struct ss_tf_list *l, const struct snapshot *s)
{
    hint_clear(l);
    struct tf_step *v = ss_calloc_array(s->n, sizeof *v);
    if (!v)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        size_t col;
        char msg[256];
        if (tf_parse(s->text[i], strlen(s->text[i]), 0, &v[i], &col, msg, sizeof msg)) {
            steps_free(v, i);
            free(v);
            return -1; /* canonical texts always parse: only memory can fail */
        }
        v[i].enabled = s->on[i];
    }
    /* the steps before the first that differs did what they did: their
     * effects stay (undoing an append needs no new apply to show them),
     * unless a label-root comes or goes, which changes how every step
     * counts stacks (per stack and label set) */
    int lr_old = 0, lr_new = 0;
    for (size_t i = 0; i < l->steps.n; i++)
        lr_old |= l->steps.v[i].enabled && l->steps.v[i].kind == SS_TF_LABEL_ROOT;
    for (size_t i = 0; i < s->n; i++)
        lr_new |= v[i].enabled && v[i].kind == SS_TF_LABEL_ROOT;
    for (size_t i = 0; lr_old == lr_new && i < s->n && i < l->steps.n; i++) {
        const struct tf_step *o = &l->steps.v[i];
        if (o->enabled != v[i].enabled || strcmp(o->text, v[i].text))
            break;
        v[i].effect = o->effect;
        v[i].base_effect = o->base_effect;
    }
    steps_free(l->steps.v, l->steps.n);
    free(l->steps.v);
    l->steps.v = v;
    l->steps.cap = s->n ? s->n : 1;
    l->steps.n = s->n;
    return 0;
}

/* Move the current state onto `to` and restore the last snapshot of `from`. */
static int history_step(struct ss_tf_list *l, int undo)
{
    if (undo ? l->undo.n == 0 : l->redo.n == 0)
        return 0;
    struct snapshot cur;
    if (snapshot_take(l, &cur))
        return 0;
    struct snapshot *from = undo ? &l->undo.v[l->undo.n - 1] : &l->redo.v[l->redo.n - 1];
    int fail = undo ? VEC_RESERVE(l->redo, l->redo.n + 1) : VEC_RESERVE(l->undo, l->undo.n + 1);
    if (fail || restore(l, from)) {
        snapshot_free(&cur);
        return 0;
    }
    snapshot_free(from);
    if (undo) {
        l->undo.n--;
        l->redo.v[l->redo.n++] = cur;
    } else {
        l->redo.n--;
        l->undo.v[l->undo.n++] = cur;
    }
    return 1;
}

int ss_tf_undo(struct ss_tf_list *l)
{
    return history_step(l, 1);
}

int ss_tf_redo(struct ss_tf_list *l)
{
    return history_step(l, 0);
}

/* ---- editing ------------------------------------------------------------------ */

/* Insert parsed steps v[0..n) at pos as one undo step; takes ownership of
 * the steps on success. */
static int insert_steps(struct ss_tf_list *l, size_t pos, struct tf_step *v, size_t n,
                        struct ss_error *err)
{
    if (VEC_RESERVE(l->steps, l->steps.n + n) || undo_point(l))
        return ss_nomem(err, "transform list");
    memmove(l->steps.v + pos + n, l->steps.v + pos, (l->steps.n - pos) * sizeof *v);
    memcpy(l->steps.v + pos, v, n * sizeof *v);
    l->steps.n += n;
    return 0;
}

int ss_tf_insert(struct ss_tf_list *l, size_t pos, const char *cmd, struct ss_error *err)
{
    if (pos > l->steps.n)
        return ss_fail(err, SS_EUSAGE, "no position %zu in a list of %zu", pos + 1, l->steps.n);
    struct tf_step st;
    int rc = parse_one(cmd, &st, err);
    if (rc)
        return rc;
    rc = insert_steps(l, pos, &st, 1, err);
    if (rc)
        tf_step_free(&st);
    return rc;
}

int ss_tf_append(struct ss_tf_list *l, const char *cmd, struct ss_error *err)
{
    return ss_tf_insert(l, l->steps.n, cmd, err);
}

int ss_tf_change(struct ss_tf_list *l, size_t i, const char *cmd, struct ss_error *err)
{
    if (i >= l->steps.n)
        return ss_fail(err, SS_EUSAGE, "no step %zu in a list of %zu", i + 1, l->steps.n);
    struct tf_step st;
    int rc = parse_one(cmd, &st, err);
    if (rc)
        return rc;
    if (undo_point(l)) {
        tf_step_free(&st);
        return ss_nomem(err, "transform list");
    }
    st.enabled = l->steps.v[i].enabled;
    tf_step_free(&l->steps.v[i]);
    l->steps.v[i] = st;
    return 0;
}

int ss_tf_remove(struct ss_tf_list *l, size_t i)
{
    if (i >= l->steps.n || undo_point(l))
        return -1;
    tf_step_free(&l->steps.v[i]);
    memmove(l->steps.v + i, l->steps.v + i + 1, (l->steps.n - i - 1) * sizeof *l->steps.v);
    l->steps.n--;
    return 0;
}

int ss_tf_set_enabled(struct ss_tf_list *l, size_t i, int enabled)
{
    if (i >= l->steps.n)
        return -1;
    if ((l->steps.v[i].enabled != 0) == (enabled != 0))
        return 0; /* nothing changes: no undo step */
    if (undo_point(l))
        return -1;
    l->steps.v[i].enabled = enabled != 0;
    memset(&l->steps.v[i].effect, 0, sizeof l->steps.v[i].effect);
    memset(&l->steps.v[i].base_effect, 0, sizeof l->steps.v[i].base_effect);
    return 0;
}

int ss_tf_move(struct ss_tf_list *l, size_t from, size_t to)
{
    if (from >= l->steps.n || to >= l->steps.n)
        return -1;
    if (from == to)
        return 0;
    if (undo_point(l))
        return -1;
    struct tf_step st = l->steps.v[from];
    if (from < to)
        memmove(l->steps.v + from, l->steps.v + from + 1, (to - from) * sizeof st);
    else
        memmove(l->steps.v + to + 1, l->steps.v + to, (from - to) * sizeof st);
    l->steps.v[to] = st;
    return 0;
}

/* ---- scripts ------------------------------------------------------------------ */

/* A line "# off: CMD" is a disabled step when CMD parses (what ss_tf_script
 * writes); otherwise it is an ordinary comment. */
static int disabled_line(const char *s, size_t len, struct tf_step *st)
{
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (len - i < 6 || memcmp(s + i, "# off:", 6))
        return 0;
    size_t col;
    char msg[64];
    if (tf_parse(s + i + 6, len - i - 6, 0, st, &col, msg, sizeof msg))
        return 0;
    st->enabled = 0;
    return 1;
}

int ss_tf_append_script(struct ss_tf_list *l, const char *text, size_t len, const char *name,
                        struct ss_error *err)
{
    VEC(struct tf_step) v = {NULL, 0, 0};
    size_t lineno = 0, at = 0;
    int rc = 0;
    while (at < len && !rc) {
        size_t end = at;
        while (end < len && text[end] != '\n' && text[end] != '\r')
            end++;
        lineno++;
        struct tf_step st;
        if (VEC_RESERVE(v, v.n + 1)) {
            rc = ss_nomem(err, "transform script");
            break;
        }
        if (disabled_line(text + at, end - at, &st)) {
            v.v[v.n++] = st;
        } else {
            size_t col;
            char msg[512];
            int prc = tf_parse(text + at, end - at, 1, &st, &col, msg, sizeof msg);
            if (prc == SS_ENOMEM)
                rc = ss_nomem(err, "transform script");
            else if (prc)
                rc = ss_fail(err, SS_EUSAGE, "%s:%zu:%zu: %s", name, lineno, col, msg);
            else if (st.text)
                v.v[v.n++] = st;
        }
        /* lines end in LF, CRLF or CR */
        if (end + 1 < len && text[end] == '\r' && text[end + 1] == '\n')
            at = end + 2;
        else
            at = end < len ? end + 1 : end;
    }
    if (!rc && v.n)
        rc = insert_steps(l, l->steps.n, v.v, v.n, err);
    if (rc)
        steps_free(v.v, v.n);
    VEC_FREE(v);
    return rc;
}

int ss_tf_append_script_file(struct ss_tf_list *l, const char *path, struct ss_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return ss_fail(err, SS_EINPUT, "%s: cannot open the script: %s", path, strerror(errno));
    char *buf = NULL;
    size_t n = 0, cap = 0;
    int rc = 0;
    for (;;) {
        if (ss_grow((void **)&buf, &cap, n + 65536, 1)) {
            rc = ss_nomem(err, "transform script");
            break;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (n > TF_MAX_SCRIPT) {
            rc = ss_fail(err, SS_EINPUT, "%s: a script of more than %u bytes", path,
                         (unsigned)TF_MAX_SCRIPT);
            break;
        }
        if (k == 0) {
            if (ferror(f))
                rc = ss_fail(err, SS_EINPUT, "%s: cannot read the script: %s", path,
                             strerror(errno));
            break;
        }
    }
    fclose(f);
    if (!rc)
        rc = ss_tf_append_script(l, buf ? buf : "", n, path, err);
    free(buf);
    return rc;
}

char *ss_tf_script(const struct ss_tf_list *l)
{
    size_t n = 1;
    for (size_t i = 0; i < l->steps.n; i++)
        n += strlen(l->steps.v[i].text) + 8;
    char *s = malloc(n), *p = s;
    if (!s)
        return NULL;
    for (size_t i = 0; i < l->steps.n; i++) {
        const struct tf_step *st = &l->steps.v[i];
        size_t k = strlen(st->text);
        if (!st->enabled) {
            memcpy(p, "# off: ", 7);
            p += 7;
        }
        memcpy(p, st->text, k);
        p += k;
        *p++ = '\n';
    }
    *p = '\0';
    return s;
}

/* ---- applying ----------------------------------------------------------------- */

int ss_tf_apply(struct ss_tf_list *l, const struct ss_model *orig, struct ss_model *out,
                struct ss_error *err)
{
    /* the hint serves this apply only: the next may follow another change */
    const struct tf_phase_hint *hint =
        l->hint.starts && l->hint_count == l->steps.n ? &l->hint : NULL;
    int rc = tf_apply(l->steps.v, l->steps.n, NULL, 0, l->spare, hint, orig, out, err);
    hint_clear(l);
    return rc;
}

int ss_tf_apply_base(struct ss_tf_list *l, const struct ss_model *orig, struct ss_model *out,
                     struct ss_error *err)
{
    return tf_apply(l->steps.v, l->steps.n, NULL, 1, l->spare, NULL, orig, out, err);
}

int ss_tf_apply_base_spare(struct ss_tf_list *l, const struct ss_model *orig, struct ss_model *out,
                           struct ss_spare *spare, struct ss_error *err)
{
    return tf_apply(l->steps.v, l->steps.n, NULL, 1, spare, NULL, orig, out, err);
}

int ss_tf_apply_then(struct ss_tf_list *l, const struct ss_model *orig, const char *then, int base,
                     struct ss_model *out, struct ss_tf_effect *then_eff, struct ss_error *err)
{
    struct tf_step st;
    memset(out, 0, sizeof *out);
    int rc = parse_one(then, &st, err);
    if (rc)
        return rc;
    rc = tf_apply(l->steps.v, l->steps.n, &st, base, l->spare, NULL, orig, out, err);
    if (then_eff)
        *then_eff = st.effect;
    tf_step_free(&st);
    return rc;
}
