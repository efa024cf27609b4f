/* match.c - POSIX extended regular expressions in linear time (see
 * match.h).
 *
 * A pattern is parsed into a small tree (alternation, concatenation,
 * repetition, byte sets, assertions), the tree is emitted as Thompson
 * automaton code (a repetition {m,n} as m copies and n - m optional ones),
 * and a match runs the automaton's states as a set over the text: each byte
 * moves every live state at once, and a new thread starts at every
 * position (the search is unanchored).  States are kept in sparse sets, so
 * a step costs what is live, and a position no match can start at (its
 * byte is none a match begins with) is skipped while nothing is live.
 */
#define _GNU_SOURCE 1 /* newlocale, uselocale */
#include "match.h"

#include <locale.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vec.h"

enum op { I_BYTE, I_SPLIT, I_JMP, I_ASSERT, I_MATCH };

/* Zero-width assertions: ^ $ \` \' \b \B \< \> */
enum assert_kind {
    A_BOL,
    A_EOL,
    A_BUF_START,
    A_BUF_END,
    A_WORDB,
    A_NOT_WORDB,
    A_WORD_START,
    A_WORD_END
};

struct ss_rx_inst {
    uint8_t op, kind; /* enum op; an assertion's enum assert_kind */
    uint32_t x, y;    /* next (SPLIT: both ways); BYTE: y is its set */
};

/* A set of bytes, one bit each. */
struct ss_rx_set {
    uint64_t w[4];
};

/* ---- parsing ------------------------------------------------------------------------ */

enum node_kind { N_EMPTY, N_SET, N_ASSERT, N_CAT, N_ALT, N_REP };

#define REP_INF (-1)
#define MAX_NEST 2000 /* groups inside groups: the parser recurses */

struct node {
    uint8_t kind, akind;
    uint32_t a, b; /* children (CAT, ALT; REP: a); SET: the set */
    int min, max;  /* REP */
};

struct parser {
    const unsigned char *p;
    size_t i, n;
    int nest;
    VEC(struct node) nodes;
    VEC(struct ss_rx_set) sets;
    int oom, bad;
};

static uint32_t new_node(struct parser *P, int kind, uint32_t a, uint32_t b)
{
    if (VEC_RESERVE(P->nodes, P->nodes.n + 1)) {
        P->oom = 1;
        return 0;
    }
    struct node *nd = &P->nodes.v[P->nodes.n];
    memset(nd, 0, sizeof *nd);
    nd->kind = (uint8_t)kind;
    nd->a = a;
    nd->b = b;
    return (uint32_t)P->nodes.n++;
}

static uint32_t new_set(struct parser *P)
{
    if (VEC_RESERVE(P->sets, P->sets.n + 1)) {
        P->oom = 1;
        return 0;
    }
    memset(&P->sets.v[P->sets.n], 0, sizeof P->sets.v[0]);
    return (uint32_t)P->sets.n++;
}

static void set_add(uint64_t *s, unsigned c)
{
    s[c >> 6] |= (uint64_t)1 << (c & 63);
}

static int set_has(const uint64_t *s, unsigned c)
{
    return (s[c >> 6] >> (c & 63)) & 1;
}

static int is_word(int c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Is byte c in the ASCII class `name` ([:name:] in the C locale)? */
static int in_class(const char *name, size_t len, unsigned c)
{
    int alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'), digit = c >= '0' && c <= '9';
#define IS(s) (len == sizeof(s) - 1 && !memcmp(name, s, len))
    if (IS("alpha"))
        return alpha;
    if (IS("digit"))
        return digit;
    if (IS("alnum"))
        return alpha || digit;
    if (IS("upper"))
        return c >= 'A' && c <= 'Z';
    if (IS("lower"))
        return c >= 'a' && c <= 'z';
    if (IS("space"))
        return c == ' ' || (c >= '\t' && c <= '\r');
    if (IS("blank"))
        return c == ' ' || c == '\t';
    if (IS("punct"))
        return c > ' ' && c < 0x7f && !alpha && !digit;
    if (IS("print"))
        return c >= ' ' && c < 0x7f;
    if (IS("graph"))
        return c > ' ' && c < 0x7f;
    if (IS("cntrl"))
        return c < ' ' || c == 0x7f;
    if (IS("xdigit"))
        return digit || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
#undef IS
    return 0;
}

static uint32_t set_node(struct parser *P, uint32_t set)
{
    return new_node(P, N_SET, set, 0);
}

/* A set of the one byte c. */
static uint32_t byte_node(struct parser *P, unsigned c)
{
    uint32_t s = new_set(P);
    if (!P->oom)
        set_add(P->sets.v[s].w, c);
    return set_node(P, s);
}

/* A set of the bytes `pred` holds for (or does not, with negate). */
static uint32_t class_node(struct parser *P, const char *cls, int negate)
{
    uint32_t s = new_set(P);
    for (unsigned c = 1; !P->oom && c < 256; c++) /* never NUL: texts end there */
        if ((cls ? in_class(cls, strlen(cls), c) || (!strcmp(cls, "alnum") && c == '_') : c != 0) !=
            negate)
            set_add(P->sets.v[s].w, c);
    return set_node(P, s);
}

/* One element of a bracket expression at P->i: a byte, or [.c.] / [=c=]
 * (one byte in the C locale).  Returns the byte, or -1 for [:class:]
 * (added to `set` here). */
static int bracket_elem(struct parser *P, uint64_t *set)
{
    const unsigned char *p = P->p;
    if (p[P->i] == '[' && P->i + 1 < P->n && strchr(":.=", p[P->i + 1])) {
        unsigned char close = p[P->i + 1];
        size_t a = P->i + 2, b = a;
        while (b + 1 < P->n && !(p[b] == close && p[b + 1] == ']'))
            b++;
        P->i = b + 2;
        if (close == ':') {
            for (unsigned c = 1; c < 256; c++)
                if (in_class((const char *)p + a, b - a, c))
                    set_add(set, c);
            return -1;
        }
        return b > a ? p[a] : 0;
    }
    return p[P->i++];
}

/* A bracket expression after its '['. */
static uint32_t bracket(struct parser *P)
{
    uint32_t s = new_set(P);
    if (P->oom)
        return 0;
    uint64_t set[4] = {0};
    int neg = P->i < P->n && P->p[P->i] == '^';
    P->i += neg;
    for (int first = 1; P->i < P->n; first = 0) {
        if (P->p[P->i] == ']' && !first) {
            P->i++;
            break;
        }
        int lo = bracket_elem(P, set);
        if (lo < 0)
            continue;
        int hi = lo;
        if (P->i + 1 < P->n && P->p[P->i] == '-' && P->p[P->i + 1] != ']') {
            P->i++;
            hi = bracket_elem(P, set);
        }
        for (int c = lo; c <= hi; c++)
            set_add(set, (unsigned)c);
    }
    for (int k = 0; k < 4; k++)
        P->sets.v[s].w[k] = neg ? ~set[k] : set[k];
    P->sets.v[s].w[0] &= ~(uint64_t)1; /* never NUL */
    return set_node(P, s);
}

static uint32_t assert_node(struct parser *P, int kind)
{
    uint32_t nd = new_node(P, N_ASSERT, 0, 0);
    if (!P->oom)
        P->nodes.v[nd].akind = (uint8_t)kind;
    return nd;
}

/* An escape: a GNU operator or the byte itself. */
static uint32_t escape(struct parser *P)
{
    unsigned c = P->i < P->n ? P->p[P->i++] : '\\';
    switch (c) {
    case 'w':
    case 'W':
        return class_node(P, "alnum", c == 'W'); /* alnum and '_' */
    case 's':
    case 'S':
        return class_node(P, "space", c == 'S');
    case 'b':
        return assert_node(P, A_WORDB);
    case 'B':
        return assert_node(P, A_NOT_WORDB);
    case '<':
        return assert_node(P, A_WORD_START);
    case '>':
        return assert_node(P, A_WORD_END);
    case '`':
        return assert_node(P, A_BUF_START);
    case '\'':
        return assert_node(P, A_BUF_END);
    default:
        return byte_node(P, c);
    }
}

static uint32_t alternation(struct parser *P);

static uint32_t atom(struct parser *P)
{
    unsigned c = P->p[P->i++];
    switch (c) {
    case '(': {
        if (++P->nest > MAX_NEST) {
            P->bad = 1;
            return 0;
        }
        uint32_t a = alternation(P);
        P->nest--;
        if (P->i < P->n && P->p[P->i] == ')')
            P->i++;
        return a;
    }
    case '[':
        return bracket(P);
    case '.':
        return class_node(P, NULL, 0);
    case '^':
        return assert_node(P, A_BOL);
    case '$':
        return assert_node(P, A_EOL);
    case '\\':
        return escape(P);
    default:
        return byte_node(P, c);
    }
}

/* A repetition operator at P->i, if any: *min and *max (REP_INF). */
static int repetition(struct parser *P, int *min, int *max)
{
    if (P->i >= P->n)
        return 0;
    unsigned c = P->p[P->i];
    if (c == '*' || c == '+' || c == '?') {
        P->i++;
        *min = c == '+';
        *max = c == '?' ? 1 : REP_INF;
        return 1;
    }
    if (c != '{')
        return 0;
    /* regcomp checked it: {m}, {m,}, {m,n} or {,n} */
    size_t j = P->i + 1;
    long lo = 0, hi;
    while (j < P->n && P->p[j] >= '0' && P->p[j] <= '9' && lo < 100000)
        lo = lo * 10 + (P->p[j++] - '0');
    hi = lo;
    if (j < P->n && P->p[j] == ',') {
        j++;
        hi = REP_INF;
        if (j < P->n && P->p[j] >= '0' && P->p[j] <= '9')
            for (hi = 0; j < P->n && P->p[j] >= '0' && P->p[j] <= '9' && hi < 100000;)
                hi = hi * 10 + (P->p[j++] - '0');
    }
    if (j >= P->n || P->p[j] != '}')
        return 0;
    P->i = j + 1;
    *min = (int)lo;
    *max = (int)hi;
    return 1;
}

static uint32_t branch(struct parser *P)
{
    uint32_t seq = new_node(P, N_EMPTY, 0, 0);
    while (!P->oom && !P->bad && P->i < P->n && P->p[P->i] != '|' &&
           !(P->p[P->i] == ')' && P->nest > 0)) {
        uint32_t a = atom(P);
        int min, max;
        while (!P->oom && repetition(P, &min, &max)) {
            a = new_node(P, N_REP, a, 0);
            if (!P->oom) {
                P->nodes.v[a].min = min;
                P->nodes.v[a].max = max;
            }
        }
        seq = new_node(P, N_CAT, seq, a);
    }
    return seq;
}

static uint32_t alternation(struct parser *P)
{
    uint32_t a = branch(P);
    while (!P->oom && !P->bad && P->i < P->n && P->p[P->i] == '|') {
        P->i++;
        a = new_node(P, N_ALT, a, branch(P));
    }
    return a;
}

/* ---- code ----------------------------------------------------------------------------- */

struct emitter {
    const struct parser *P;
    VEC(struct ss_rx_inst) code;
    int oom, big;
};

static uint32_t emit(struct emitter *E, int op, uint32_t x, uint32_t y)
{
    if (E->code.n >= SS_REGEX_MAX_PROG) {
        E->big = 1;
        return 0;
    }
    if (VEC_RESERVE(E->code, E->code.n + 1)) {
        E->oom = 1;
        return 0;
    }
    struct ss_rx_inst *in = &E->code.v[E->code.n];
    in->op = (uint8_t)op;
    in->kind = 0;
    in->x = x;
    in->y = y;
    return (uint32_t)E->code.n++;
}

static void emit_node(struct emitter *E, uint32_t id);

static void emit_rep(struct emitter *E, const struct node *nd)
{
    for (int k = 0; k < nd->min && !E->oom && !E->big; k++)
        emit_node(E, nd->a);
    if (nd->max == REP_INF) {
        uint32_t loop = emit(E, I_SPLIT, 0, 0);
        if (E->oom || E->big)
            return;
        E->code.v[loop].x = loop + 1;
        emit_node(E, nd->a);
        emit(E, I_JMP, loop, 0);
        if (!E->oom && !E->big)
            E->code.v[loop].y = (uint32_t)E->code.n;
        return;
    }
    size_t first = E->code.n;
    for (int k = nd->min; k < nd->max && !E->oom && !E->big; k++) {
        uint32_t s = emit(E, I_SPLIT, 0, 0);
        if (!E->oom && !E->big)
            E->code.v[s].x = s + 1;
        emit_node(E, nd->a);
    }
    /* every optional copy may be skipped to the end */
    for (size_t pc = first; pc < E->code.n && !E->oom && !E->big; pc++)
        if (E->code.v[pc].op == I_SPLIT && E->code.v[pc].y == 0 && E->code.v[pc].x == pc + 1)
            E->code.v[pc].y = (uint32_t)E->code.n;
}

static void emit_node(struct emitter *E, uint32_t id)
{
    const struct node *nd = &E->P->nodes.v[id];
    switch (nd->kind) {
    case N_EMPTY:
        return;
    case N_SET:
        emit(E, I_BYTE, (uint32_t)E->code.n + 1, nd->a);
        return;
    case N_ASSERT: {
        uint32_t pc = emit(E, I_ASSERT, (uint32_t)E->code.n + 1, 0);
        if (!E->oom && !E->big)
            E->code.v[pc].kind = nd->akind;
        return;
    }
    case N_CAT:
        emit_node(E, nd->a);
        emit_node(E, nd->b);
        return;
    case N_ALT: {
        uint32_t s = emit(E, I_SPLIT, 0, 0);
        emit_node(E, nd->a);
        uint32_t j = emit(E, I_JMP, 0, 0);
        if (E->oom || E->big)
            return;
        E->code.v[s].x = s + 1;
        E->code.v[s].y = (uint32_t)E->code.n;
        emit_node(E, nd->b);
        if (!E->oom && !E->big)
            E->code.v[j].x = (uint32_t)E->code.n;
        return;
    }
    case N_REP:
        emit_rep(E, nd);
        return;
    }
}

/* ---- matching -------------------------------------------------------------------------- */

/* The text around a position: the bytes before and after (-1: none). */
struct at {
    int prev, next;
};

static int holds(int kind, struct at a)
{
    int wp = a.prev >= 0 && is_word(a.prev), wn = a.next >= 0 && is_word(a.next);
    switch (kind) {
    case A_BOL:
    case A_BUF_START:
        return a.prev < 0;
    case A_EOL:
    case A_BUF_END:
        return a.next < 0;
    case A_WORDB:
        return wp != wn;
    case A_NOT_WORDB:
        return wp == wn;
    case A_WORD_START:
        return !wp && wn;
    case A_WORD_END:
        return wp && !wn;
    }
    return 0;
}

/* A sparse set of states (Briggs and Torczon): membership, insertion and
 * clearing in constant time; nbyte counts its byte states. */
struct sset {
    uint32_t *dense, *sparse;
    uint32_t n, nbyte;
};

static int sset_has(const struct sset *s, uint32_t pc)
{
    uint32_t k = s->sparse[pc];
    return k < s->n && s->dense[k] == pc;
}

/* Add state pc and every state it reaches without reading a byte (at the
 * position `a`) to s.  Returns 1 when the match state is reached. */
static int add(const struct ss_regex *re, struct sset *s, uint32_t *stack, uint32_t pc, struct at a)
{
    size_t top = 0;
    stack[top++] = pc;
    while (top) {
        pc = stack[--top];
        if (sset_has(s, pc))
            continue;
        s->sparse[pc] = s->n;
        s->dense[s->n++] = pc;
        const struct ss_rx_inst *in = &re->prog[pc];
        switch (in->op) {
        case I_MATCH:
            return 1;
        case I_BYTE:
            s->nbyte++;
            break;
        case I_JMP:
            stack[top++] = in->x;
            break;
        case I_SPLIT:
            stack[top++] = in->y;
            stack[top++] = in->x;
            break;
        case I_ASSERT:
            if (holds(in->kind, a))
                stack[top++] = in->x;
            break;
        }
    }
    return 0;
}

static struct at at_pos(const unsigned char *s, size_t len, size_t i)
{
    struct at a = {i > 0 ? s[i - 1] : -1, i < len ? s[i] : -1};
    return a;
}

/* The search, with scratch for 2 sets of re->n states and a stack of
 * 2 re->n + 1 (each state added pushes at most two). */
static int run(const struct ss_regex *re, const unsigned char *s, size_t len, uint32_t *scratch,
               uint64_t *budget)
{
    struct sset a = {scratch, scratch + re->n, 0, 0},
                b = {scratch + 2 * re->n, scratch + 3 * re->n, 0, 0};
    uint32_t *stack = scratch + 4 * re->n;
    struct sset *cl = &a, *nl = &b;
    if (add(re, cl, stack, 0, at_pos(s, len, 0)))
        return 1;
    int only_start = 1; /* cl holds only the threads started at i */
    for (size_t i = 0; i < len; i++) {
        if (only_start && !re->first_any && !set_has(re->first, s[i])) {
            /* no match starts here, and nothing is live: skip ahead */
            size_t j = i + 1;
            while (j < len && !set_has(re->first, s[j]))
                j++;
            if (j == len)
                return 0;
            i = j;
            cl->n = cl->nbyte = 0;
            if (add(re, cl, stack, 0, at_pos(s, len, i)))
                return 1;
        }
        if (budget) {
            if (*budget < cl->n)
                return -2;
            *budget -= cl->n;
        }
        nl->n = nl->nbyte = 0;
        for (uint32_t k = 0; k < cl->n; k++) {
            const struct ss_rx_inst *in = &re->prog[cl->dense[k]];
            if (in->op == I_BYTE && set_has(re->sets[in->y].w, s[i]) &&
                add(re, nl, stack, in->x, at_pos(s, len, i + 1)))
                return 1;
        }
        only_start = nl->nbyte == 0;
        if (add(re, nl, stack, 0, at_pos(s, len, i + 1)))
            return 1;
        struct sset *t = cl;
        cl = nl;
        nl = t;
    }
    return 0;
}

int ss_regex_match(const struct ss_regex *re, const char *s, size_t len, uint64_t *budget)
{
    if (!re->prog)
        return 0;
    uint32_t small[6 * 256 + 1];
    uint32_t *scratch = small;
    if (re->n > 256) {
        scratch = ss_calloc_array(6 * (size_t)re->n + 1, sizeof *scratch);
        if (!scratch)
            return -1;
    } else {
        memset(small, 0, 4 * re->n * sizeof *small); /* sparse sets read before written */
    }
    int r = run(re, (const unsigned char *)s, len, scratch, budget);
    if (scratch != small)
        free(scratch);
    return r;
}

/* ---- compiling ------------------------------------------------------------------------ */

/* The bytes a match can begin with, following the states reached from the
 * start without reading (assertions taken as true: a superset). */
static void first_bytes(struct ss_regex *re)
{
    uint32_t *stack = ss_alloc_array(2 * (size_t)re->n + 2, sizeof *stack);
    unsigned char *seen = ss_calloc_array(re->n, 1);
    re->first_any = !stack || !seen; /* no skipping then */
    size_t top = 0;
    if (stack && seen)
        stack[top++] = 0;
    while (top) {
        uint32_t pc = stack[--top];
        if (seen[pc])
            continue;
        seen[pc] = 1;
        const struct ss_rx_inst *in = &re->prog[pc];
        if (in->op == I_MATCH)
            re->first_any = 1;
        else if (in->op == I_BYTE)
            for (int k = 0; k < 4; k++)
                re->first[k] |= re->sets[in->y].w[k];
        else if (in->op == I_SPLIT) {
            stack[top++] = in->y;
            stack[top++] = in->x;
        } else {
            stack[top++] = in->x;
        }
    }
    free(stack);
    free(seen);
}

/* glibc's verdict on the pattern, in the C locale. */
static int check_syntax(const char *pattern, char *why, size_t whyn)
{
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t old = c ? uselocale(c) : (locale_t)0;
    regex_t r;
    int e = regcomp(&r, pattern, REG_EXTENDED | REG_NOSUB);
    if (e)
        regerror(e, NULL, why, whyn);
    else
        regfree(&r);
    if (c) {
        uselocale(old);
        freelocale(c);
    }
    return e ? -1 : 0;
}

int ss_regex_compile(struct ss_regex *re, const char *pattern, char *why, size_t whyn)
{
    memset(re, 0, sizeof *re);
    if (check_syntax(pattern, why, whyn))
        return -1;
    struct parser P;
    memset(&P, 0, sizeof P);
    P.p = (const unsigned char *)pattern;
    P.n = strlen(pattern);
    uint32_t root = alternation(&P);
    struct emitter E = {&P, {0}, P.oom, 0};
    if (!P.oom && !P.bad) {
        emit_node(&E, root);
        emit(&E, I_MATCH, 0, 0);
    }
    int rc = P.oom || E.oom ? -2 : 0;
    if (!rc && (P.bad || E.big)) {
        snprintf(why, whyn,
                 "too large to match (more than %d states, or groups nested more "
                 "than %d deep)",
                 SS_REGEX_MAX_PROG, MAX_NEST);
        rc = -1;
    }
    VEC_FREE(P.nodes);
    if (rc) {
        VEC_FREE(E.code);
        VEC_FREE(P.sets);
        return rc;
    }
    re->prog = E.code.v;
    re->n = (uint32_t)E.code.n;
    re->sets = P.sets.v;
    re->nsets = (uint32_t)P.sets.n;
    first_bytes(re);
    return 0;
}

void ss_regex_free(struct ss_regex *re)
{
    free(re->prog);
    free(re->sets);
    memset(re, 0, sizeof *re);
}
