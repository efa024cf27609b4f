/* check_ui.c - unit tests of the UI's pure logic, without a terminal (as
 * tig tests its graph renderer): the canvas (UTF-8 widths, abbreviation,
 * dumps), the timeline grid (against hand-computed cells), the list engine,
 * the key table and the headless script reader.  Linked with those modules
 * and the core only. */
#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "canvas.h"
#include "grid.h"
#include "keys.h"
#include "list.h"
#include "load.h"
#include <dirent.h>

#include "runs_fn.h"
#include "script.h"
#include "sort.h"
#include "tree.h"

static int have_utf8;

/* A canvas row as text (the dump of one row, without the newline). */
static char *row_text(const struct ui_canvas *c, int y)
{
    struct ui_canvas one = *c;
    one.h = 1;
    one.cells = c->cells + (size_t)y * (size_t)c->w;
    static char buf[4096];
    FILE *f = fmemopen(buf, sizeof buf, "w");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(ui_canvas_dump(&one, f), 0);
    fclose(f);
    size_t n = strlen(buf);
    if (n && buf[n - 1] == '\n')
        buf[n - 1] = '\0';
    return buf;
}

static void canvas(struct ui_canvas *c, int w, int utf8)
{
    memset(c, 0, sizeof *c);
    ck_assert_int_eq(ui_canvas_resize(c, w, 2), 0);
    c->utf8 = utf8;
}

/* ---- canvas ---------------------------------------------------------------- */

START_TEST(test_width)
{
    struct ui_canvas c;
    canvas(&c, 10, 1);
    ck_assert_int_eq(ui_text_width(&c, "abc"), 3);
    ck_assert_int_eq(ui_text_width(&c, "\xff\xfe"), 8); /* invalid bytes: \xff\xfe */
    ck_assert_int_eq(ui_text_width(&c, "a\x1b[2J"), 8); /* a\x1b[2J */
    ck_assert_int_eq(ui_text_width(&c, "\xc2\x9b"), 8); /* a C1 control: \xc2\x9b */
    ck_assert_int_eq(ui_text_width(&c, "\t"), 2);
    if (have_utf8) {
        ck_assert_int_eq(ui_text_width(&c, "donn\xc3\xa9"
                                           "es"),
                         7);
        ck_assert_int_eq(ui_text_width(&c, "\xe9\x96\xa2\xe6\x95\xb0"), 4); /* 2 CJK: 2 each */
    }
    c.utf8 = 0;
    ck_assert_int_eq(ui_text_width(&c, "\xe9\x96\xa2"), 1); /* shown as one '?' */
    ui_canvas_free(&c);
}
END_TEST

START_TEST(test_fit_middle)
{
    struct ui_canvas c;
    canvas(&c, 12, 0);
    ui_put_fit(&c, 0, 0, 7, "abcdefghij", UI_S_NORMAL, 0);
    ck_assert_str_eq(row_text(&c, 0), "abc~hij");
    ui_canvas_clear(&c);
    ui_put_fit(&c, 0, 0, 8, "abcdefghij", UI_S_NORMAL, 0);
    ck_assert_str_eq(row_text(&c, 0), "abcd~hij");
    ui_canvas_clear(&c);
    ui_put_fit(&c, 0, 0, 8, "abc", UI_S_NORMAL, 1); /* fits: right-aligned */
    ck_assert_str_eq(row_text(&c, 0), "     abc");
    ui_canvas_clear(&c);
    ui_put_tail(&c, 0, 0, 6, "main;run;work", UI_S_NORMAL);
    ck_assert_str_eq(row_text(&c, 0), "~;work");
    ui_canvas_clear(&c);
    ui_put_head(&c, 0, 0, 6, "main;run;work", UI_S_NORMAL);
    ck_assert_str_eq(row_text(&c, 0), "main;~");
    ui_canvas_free(&c);
}
END_TEST

START_TEST(test_fit_wide)
{
    if (!have_utf8)
        return;
    struct ui_canvas c;
    canvas(&c, 12, 1);
    /* four double-width characters (8 columns) into 5: 2 + ellipsis + 2 */
    const char *s = "\xe9\x96\xa2\xe9\x96\xa2\xe9\x96\xa2\xe9\x96\xa2";
    ui_put_fit(&c, 0, 0, 5, s, UI_S_NORMAL, 0);
    ck_assert_str_eq(row_text(&c, 0), "\xe9\x96\xa2\xe2\x80\xa6\xe9\x96\xa2");
    /* a wide character never straddles the edge: 3 columns take one */
    ui_canvas_clear(&c);
    ck_assert_int_eq(ui_put(&c, 0, 0, 3, s, UI_S_NORMAL), 2);
    ck_assert_str_eq(row_text(&c, 0), "\xe9\x96\xa2");
    /* the right half is a continuation cell */
    ck_assert_uint_eq(c.cells[1].ch, 0);
    ui_canvas_free(&c);
}
END_TEST

START_TEST(test_controls)
{
    struct ui_canvas c;
    canvas(&c, 10, 1);
    ui_put(&c, 0, 0, 10,
           "a\tb\x01"
           "c",
           UI_S_NORMAL);
    ck_assert_str_eq(row_text(&c, 0), "a\\tb\\x01c");
    /* the name: no cell holds a control character */
    ui_canvas_free(&c);
    canvas(&c, 40, 0);
    ui_put(&c, 0, 0, 40, "evil\x1b[2J\x1b]0;pwned\x07\xc2\x9b\x9b", UI_S_NORMAL);
    ck_assert_str_eq(row_text(&c, 0), "evil\\x1b[2J\\x1b]0;pwned\\x07\\xc2\\x9b\\x9b");
    for (int x = 0; x < c.w; x++)
        ck_assert_uint_ge(c.cells[x].ch, 0x20);
    /* an escape is never cut: 6 columns hold "ab" and not half of \x1b */
    ui_canvas_clear(&c);
    ck_assert_int_eq(ui_put(&c, 0, 0, 6,
                            "ab\x1b"
                            "c",
                            UI_S_NORMAL),
                     6);
    ck_assert_str_eq(row_text(&c, 0), "ab\\x1b");
    ui_canvas_clear(&c);
    ck_assert_int_eq(ui_put(&c, 0, 0, 5,
                            "ab\x1b"
                            "c",
                            UI_S_NORMAL),
                     2);
    ck_assert_str_eq(row_text(&c, 0), "ab");
    /* abbreviated in the middle: both ends keep whole escapes */
    ui_canvas_clear(&c);
    ui_put_fit(&c, 0, 0, 9,
               "\x1b"
               "abcdef\x07",
               UI_S_NORMAL, 0);
    ck_assert_str_eq(row_text(&c, 0), "\\x1b~\\x07");
    ui_canvas_free(&c);
}
END_TEST

/* ---- grid ------------------------------------------------------------------ */

/* tests/data/ui/small.out: 10 samples of main;run;... */
static const char small[] = "sample.interval=10000\n"
                            "\"setup\" \"run\" \"main\" \n"
                            "\"setup\" \"run\" \"main\" \n"
                            "\"setup\" \"run\" \"main\" \n"
                            "\"f\" \"work\" \"run\" \"main\" \n"
                            "\"g\" \"f\" \"work\" \"run\" \"main\" \n"
                            "\"g\" \"f\" \"work\" \"run\" \"main\" \n"
                            "\"f\" \"work\" \"run\" \"main\" \n"
                            "\"h\" \"work\" \"run\" \"main\" \n"
                            "\"g\" \"f\" \"work\" \"run\" \"main\" \n"
                            "\"save\" \"run\" \"main\" \n";

static void load_small(struct ss_model *m)
{
    char path[] = "/tmp/ss_check_ui_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, small, sizeof small - 1), (ssize_t)(sizeof small - 1));
    close(fd);
    struct ss_error err;
    char *files[1] = {path};
    int rc = ss_load_files(m, files, 1, &err);
    unlink(path);
    ck_assert_msg(rc == 0, "%s", err.msg);
}

static const char *cell(const struct ss_model *m, const struct ui_grid *g, size_t col,
                        uint32_t level)
{
    ss_id f = g->top[col * g->nlevels + (level - g->level0)];
    return f == SS_NONE ? "-" : ss_function_name(m, f);
}

START_TEST(test_grid_one_per_column)
{
    struct ss_model m;
    load_small(&m);
    ss_id *canon = ui_grid_canon(&m);
    struct ui_grid g;
    ck_assert_int_eq(ui_grid_compute(&m, canon, 0, 10, 80, 3, 3, &g), 0);
    ck_assert_uint_eq(g.window, 1);
    ck_assert_uint_eq(g.ncols, 10);
    const char *l3[] = {"setup", "setup", "setup", "work", "work",
                        "work",  "work",  "work",  "work", "save"};
    const char *l4[] = {"-", "-", "-", "f", "f", "f", "f", "h", "f", "-"};
    const char *l5[] = {"-", "-", "-", "-", "g", "g", "-", "-", "g", "-"};
    for (size_t c = 0; c < 10; c++) {
        ck_assert_str_eq(cell(&m, &g, c, 3), l3[c]);
        ck_assert_str_eq(cell(&m, &g, c, 4), l4[c]);
        ck_assert_str_eq(cell(&m, &g, c, 5), l5[c]);
    }
    ui_grid_free(&g);
    free(canon);
    ss_model_free(&m);
}
END_TEST

START_TEST(test_grid_windows)
{
    struct ss_model m;
    load_small(&m);
    ss_id *canon = ui_grid_canon(&m);
    struct ui_grid g;
    /* width 4: windows of ceil(10/4) = 3 samples: 1-3, 4-6, 7-9, 10 */
    ck_assert_int_eq(ui_grid_compute(&m, canon, 0, 10, 4, 3, 2, &g), 0);
    ck_assert_uint_eq(g.window, 3);
    ck_assert_uint_eq(g.ncols, 4);
    ck_assert_str_eq(cell(&m, &g, 0, 3), "setup");
    ck_assert_str_eq(cell(&m, &g, 1, 3), "work");
    ck_assert_str_eq(cell(&m, &g, 3, 3), "save");
    ck_assert_str_eq(cell(&m, &g, 0, 4), "-");
    ck_assert_uint_eq(g.reach[0 * 2 + 1], 0);
    /* samples 7-9 at level 4: f, h, f */
    ck_assert_str_eq(cell(&m, &g, 2, 4), "f");
    ck_assert_uint_eq(g.top_n[2 * 2 + 1], 2);
    ck_assert_uint_eq(g.reach[2 * 2 + 1], 3);
    ui_grid_free(&g);
    /* width 5: samples 7-8 at level 4 are f and h once each: the tie goes
     * to the lower name */
    ck_assert_int_eq(ui_grid_compute(&m, canon, 0, 10, 5, 4, 1, &g), 0);
    ck_assert_uint_eq(g.window, 2);
    ck_assert_str_eq(cell(&m, &g, 3, 4), "f");
    ck_assert_uint_eq(g.top_n[3], 1);
    ui_grid_free(&g);
    /* a range: samples 4-9 (0-based 3..8) in 3 columns */
    ck_assert_int_eq(ui_grid_compute(&m, canon, 3, 6, 3, 5, 1, &g), 0);
    ck_assert_uint_eq(g.window, 2);
    ck_assert_str_eq(cell(&m, &g, 0, 5), "g"); /* samples 4-5: -, g */
    ck_assert_str_eq(cell(&m, &g, 1, 5), "g"); /* 6-7: g, - */
    ck_assert_str_eq(cell(&m, &g, 2, 5), "g"); /* 8-9: -, g */
    ck_assert_uint_eq(g.reach[1], 1);
    ui_grid_free(&g);
    free(canon);
    ss_model_free(&m);
}
END_TEST

/* ---- one function's run lengths = the core's ---------------------------- */

/* ui_runs_fn_hist equals ss_runs_hist for every function of a profile. */
static void same_hists(const char *path)
{
    struct ss_model m;
    struct ss_error err;
    char *files[1] = {(char *)path};
    if (ss_load_files(&m, files, 1, &err))
        return; /* the bad-input fixtures */
    for (size_t f = 0; f < m.functions.n; f++) {
        struct ss_run_hist a, b;
        ck_assert_int_eq(ss_runs_hist(&m, (ss_id)f, &a, &err), 0);
        ck_assert_int_eq(ui_runs_fn_hist(&m, (ss_id)f, &b), 0);
        const char *name = ss_function_name(&m, (ss_id)f);
        ck_assert_msg(a.n_levels == b.n_levels && a.n_lengths == b.n_lengths && a.total == b.total,
                      "%s, %s: %zu levels %zu lengths %llu runs, fast: %zu %zu %llu", path, name,
                      a.n_levels, a.n_lengths, (unsigned long long)a.total, b.n_levels, b.n_lengths,
                      (unsigned long long)b.total);
        for (size_t i = 0; i < a.n_levels; i++)
            ck_assert_msg(a.levels[i] == b.levels[i] && a.level_runs[i] == b.level_runs[i],
                          "%s, %s: level row %zu", path, name, i);
        for (size_t j = 0; j < a.n_lengths; j++)
            ck_assert_msg(a.lengths[j] == b.lengths[j] && a.length_runs[j] == b.length_runs[j],
                          "%s, %s: length column %zu", path, name, j);
        for (size_t k = 0; k < a.n_levels * a.n_lengths; k++)
            ck_assert_msg(a.counts[k] == b.counts[k], "%s, %s: cell %zu", path, name, k);
        ss_run_hist_free(&a);
        ss_run_hist_free(&b);
    }
    ss_model_free(&m);
}

static void same_hists_dir(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot open %s", dir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".out"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        same_hists(path);
        n++;
    }
    closedir(d);
    ck_assert_int_gt(n, 0);
}

static const char *srcdir(void)
{
    const char *s = getenv("SRCDIR");
    return s && *s ? s : ".";
}

START_TEST(test_runs_fn_small)
{
    char path[] = "/tmp/ss_check_ui_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, small, sizeof small - 1), (ssize_t)(sizeof small - 1));
    close(fd);
    same_hists(path);
    /* by hand: f has 2 runs at level 4, of 4 (samples 4-7) and 1 (sample 9) */
    struct ss_model m;
    struct ss_error err;
    char *files[1] = {path};
    ck_assert_int_eq(ss_load_files(&m, files, 1, &err), 0);
    struct ss_run_hist h;
    ck_assert_int_eq(ui_runs_fn_hist(&m, ss_model_find_function(&m, "f"), &h), 0);
    ck_assert_uint_eq(h.n_levels, 1);
    ck_assert_uint_eq(h.levels[0], 4);
    ck_assert_uint_eq(h.n_lengths, 2);
    ck_assert_uint_eq(h.lengths[0], 1);
    ck_assert_uint_eq(h.lengths[1], 4);
    ck_assert_uint_eq(h.total, 2);
    ss_run_hist_free(&h);
    ss_model_free(&m);
    unlink(path);
}
END_TEST

START_TEST(test_runs_fn_fixtures)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/data/edge-cases", srcdir());
    same_hists_dir(dir);
    snprintf(dir, sizeof dir, "%s/tests/data/rprof", srcdir());
    same_hists_dir(dir);
    snprintf(dir, sizeof dir, "%s/data/demo.out", srcdir());
    same_hists(dir);
}
END_TEST

/* ---- list ------------------------------------------------------------------ */

/* Rows keyed by the context's array, larger key first; equal keys tie. */
static int cmp_keys(uint32_t a, uint32_t b, const void *ctx)
{
    const int *key = ctx;
    return key[a] > key[b] ? -1 : key[a] < key[b];
}

START_TEST(test_order_sort)
{
    /* ties (the 5s, the 1s) keep their index order; reversing reverses
     * the whole order, ties included (as the views did with qsort) */
    const int key[] = {1, 5, 3, 5, 1, 9, 5};
    const uint32_t want[] = {5, 1, 3, 6, 2, 0, 4};
    uint32_t *order = NULL;
    ck_assert_int_eq(ui_order_sort(&order, 7, 0, cmp_keys, key), 0);
    for (size_t i = 0; i < 7; i++)
        ck_assert_uint_eq(order[i], want[i]);
    ck_assert_int_eq(ui_order_sort(&order, 7, 1, cmp_keys, key), 0);
    for (size_t i = 0; i < 7; i++)
        ck_assert_uint_eq(order[i], want[6 - i]);
    /* a larger list: sorted, and ties by index */
    int big[1000];
    for (size_t i = 0; i < 1000; i++)
        big[i] = (int)((i * 7919) % 13);
    ck_assert_int_eq(ui_order_sort(&order, 1000, 0, cmp_keys, big), 0);
    for (size_t i = 1; i < 1000; i++) {
        ck_assert_int_ge(big[order[i - 1]], big[order[i]]);
        if (big[order[i - 1]] == big[order[i]])
            ck_assert_uint_lt(order[i - 1], order[i]);
    }
    /* empty and single lists */
    ck_assert_int_eq(ui_order_sort(&order, 0, 1, cmp_keys, key), 0);
    ck_assert_ptr_nonnull(order);
    ck_assert_int_eq(ui_order_sort(&order, 1, 1, cmp_keys, key), 0);
    ck_assert_uint_eq(order[0], 0);
    free(order);
    ck_assert_int_eq(ui_cmp_desc(2.0, 1.0), -1);
    ck_assert_int_eq(ui_cmp_desc(1.0, 2.0), 1);
    ck_assert_int_eq(ui_cmp_desc(1.5, 1.5), 0);
}
END_TEST

START_TEST(test_list)
{
    struct ui_list l = {100, 0, 0, 10};
    ui_list_move(&l, 15);
    ck_assert_uint_eq(l.sel, 15);
    ck_assert_uint_eq(l.top, 6); /* the selection on the last visible row */
    ui_list_move(&l, -1000);
    ck_assert_uint_eq(l.sel, 0);
    ck_assert_uint_eq(l.top, 0);
    ui_list_move(&l, 1000);
    ck_assert_uint_eq(l.sel, 99);
    ck_assert_uint_eq(l.top, 90);
    ui_list_scroll(&l, -50);
    ck_assert_uint_eq(l.top, 40);
    ck_assert_uint_eq(l.sel, 49); /* dragged along, still visible */
    l.n = 5;                      /* the rows went away */
    ui_list_fit(&l);
    ck_assert_uint_eq(l.sel, 4);
    ck_assert_uint_eq(l.top, 0);
    l.n = 0;
    ui_list_fit(&l);
    ck_assert_uint_eq(l.sel, 0);
}
END_TEST

/* ---- keys ------------------------------------------------------------------ */

START_TEST(test_keys)
{
    size_t n;
    const struct ui_binding *b = ui_bindings(&n);
    for (size_t i = 0; i < n; i++) {
        /* every bound request is documented */
        ck_assert_msg(*ui_request_help(b[i].req), "binding %zu has no help", i);
        /* names read back */
        char name[32], again[32];
        ui_key_name(b[i].key, name, sizeof name);
        int k = ui_key_parse(name);
        if (k >= 0)
            ck_assert_str_eq(ui_key_name(k, again, sizeof again), name);
        /* no key means two things in one view */
        for (size_t j = i + 1; j < n; j++)
            ck_assert_msg(b[i].key != b[j].key || (b[i].views & b[j].views) == 0 ||
                              b[i].req == b[j].req,
                          "key %s bound twice in one view", name);
    }
    ck_assert_int_eq(ui_key_request('j', UI_V_FUNCTIONS), UI_REQ_MOVE_DOWN);
    ck_assert_int_eq(ui_key_request(' ', UI_V_FUNCTIONS), UI_REQ_PAGE_DOWN);
    ck_assert_int_eq(ui_key_request(' ', UI_V_TOPDOWN), UI_REQ_TREE_TOGGLE);
    ck_assert_int_eq(ui_key_request('d', UI_V_TIMELINE), UI_REQ_TL_DROP);
    ck_assert_int_eq(ui_key_request('d', UI_V_STACKS), UI_REQ_DROP_FN);
    ck_assert_int_eq(ui_key_request('j', UI_V_PROMPT), UI_REQ_NONE); /* typed */
    ck_assert_int_eq(ui_key_request(UI_K_TAB, UI_V_PROMPT), UI_REQ_PR_COMPLETE);
    ck_assert_int_eq(ui_key_parse("C-r"), UI_CTRL('r'));
    ck_assert_int_eq(ui_key_parse("LT"), '<');
    ck_assert_int_eq(ui_key_parse("Bogus"), -1);
}
END_TEST

/* ---- script ---------------------------------------------------------------- */

START_TEST(test_script)
{
    char path[] = "/tmp/ss_check_ui_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char text[] =
        "# a comment\n\nj<Down><LT>\xc3\xa9\r\n:w out.prof\n<Click 3 4><:>\n<Bogus>\n";
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    char msg[256];
    struct ui_script *s = ui_script_open(path, msg, sizeof msg);
    ck_assert_ptr_nonnull(s);
    struct ui_event ev;
    int want[] = {'j', ui_key_parse("Down"), '<', 0xe9};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_int_eq(ui_script_next(s, &ev, msg, sizeof msg), 1);
        ck_assert_int_eq(ev.key, want[i]);
    }
    ck_assert_int_eq(ui_script_next(s, &ev, msg, sizeof msg), 1);
    ck_assert_int_eq(ev.key, UI_K_COMMAND);
    ck_assert_str_eq(ev.command, "w out.prof");
    ck_assert_int_eq(ui_script_next(s, &ev, msg, sizeof msg), 1);
    ck_assert_int_eq(ev.key, UI_K_MOUSE);
    ck_assert_int_eq(ev.button, UI_B_CLICK);
    ck_assert_int_eq(ev.x, 3);
    ck_assert_int_eq(ev.y, 4);
    ck_assert_int_eq(ui_script_next(s, &ev, msg, sizeof msg), 1);
    ck_assert_int_eq(ev.key, ':');
    ck_assert_int_eq(ui_script_next(s, &ev, msg, sizeof msg), -1);
    ck_assert_msg(strstr(msg, ":6: unknown key <Bogus>") != NULL, "%s", msg);
    ui_script_free(s);
    unlink(path);
}
END_TEST

int main(void)
{
    have_utf8 = setlocale(LC_ALL, "C.UTF-8") != NULL;
    Suite *s = suite_create("ui");
    TCase *tc = tcase_create("canvas");
    tcase_add_test(tc, test_width);
    tcase_add_test(tc, test_fit_middle);
    tcase_add_test(tc, test_fit_wide);
    tcase_add_test(tc, test_controls);
    suite_add_tcase(s, tc);
    tc = tcase_create("grid");
    tcase_add_test(tc, test_grid_one_per_column);
    tcase_add_test(tc, test_grid_windows);
    suite_add_tcase(s, tc);
    tc = tcase_create("runs");
    tcase_add_test(tc, test_runs_fn_small);
    tcase_add_test(tc, test_runs_fn_fixtures);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tc = tcase_create("list");
    tcase_add_test(tc, test_list);
    tcase_add_test(tc, test_order_sort);
    suite_add_tcase(s, tc);
    tc = tcase_create("keys");
    tcase_add_test(tc, test_keys);
    tcase_add_test(tc, test_script);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
