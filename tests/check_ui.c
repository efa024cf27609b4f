/* check_ui.c - unit tests of the UI's pure logic, without a terminal (as
 * tig tests its graph renderer): the canvas (UTF-8 widths, abbreviation,
 * dumps), the list engine, the key table and the headless script reader.
 * (The timeline grid and one function's run lengths are core analyses:
 * check_timeline.c and check_runs.c test them.)  Linked with those modules
 * and the core only. */
#include <check.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "canvas.h"
#include "keys.h"
#include "list.h"
#include "script.h"
#include "column.h"
#include "order.h"

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

/* An abbreviation in the middle drops whole numbers, never part of one
 * (1,234,567,890 is not "1,23…,890"): the ends give up their digits. */
START_TEST(test_fit_numbers)
{
    struct ui_canvas c;
    canvas(&c, 30, 0);
    ui_put_fit(&c, 0, 0, 15, "self 1,234,567,890 = 12.5 s", UI_S_NORMAL, 0);
    ck_assert_str_eq(row_text(&c, 0), "self ~ 12.5 s"); /* not "self 1~ 12.5 s" */
    ui_canvas_clear(&c);
    ui_put_fit(&c, 0, 0, 9, "f 1234567890", UI_S_NORMAL, 0);
    ck_assert_str_eq(row_text(&c, 0), "f ~"); /* no digit of it left: all of it dropped */
    ui_canvas_clear(&c);
    ui_put_fit(&c, 0, 0, 7, "abcdefghij", UI_S_NORMAL, 0); /* no number: as before */
    ck_assert_str_eq(row_text(&c, 0), "abc~hij");
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
    ck_assert_int_eq(ss_cmp_desc(2.0, 1.0), -1);
    ck_assert_int_eq(ss_cmp_desc(1.0, 2.0), 1);
    ck_assert_int_eq(ss_cmp_desc(1.5, 1.5), 0);
}
END_TEST

START_TEST(test_list)
{
    struct ui_list l = {100, 0, 0, 10, NULL, 0};
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

/* A filter shows rows 3, 7, 8, 20 and 50 of 100: moving and scrolling go
 * from shown row to shown row, top counts shown rows, and a selection on
 * a hidden row moves to the next shown one. */
START_TEST(test_list_filter)
{
    static const uint32_t vis[] = {3, 7, 8, 20, 50};
    struct ui_list l = {100, 10, 0, 2, vis, 5};
    ui_list_fit(&l);
    ck_assert_uint_eq(l.sel, 20); /* row 10 is hidden: the next shown */
    ck_assert_uint_eq(ui_list_pos(&l), 3);
    ck_assert_uint_eq(l.top, 2); /* rows 8 and 20 on the screen of 2 */
    ui_list_move(&l, -2);
    ck_assert_uint_eq(l.sel, 7);
    ck_assert_uint_eq(l.top, 1);
    ui_list_move(&l, 100);
    ck_assert_uint_eq(l.sel, 50);
    ck_assert_uint_eq(l.top, 3);
    ui_list_select(&l, 51); /* after the last shown row: the last */
    ck_assert_uint_eq(l.sel, 50);
    ui_list_scroll(&l, -10);
    ck_assert_uint_eq(l.top, 0);
    ck_assert_uint_eq(l.sel, 7); /* dragged along: the screen shows 3 and 7 */
    ck_assert_uint_eq(ui_list_count(&l), 5);
    ck_assert_uint_eq(ui_list_row(&l, 4), 50);
    l.nvis = 0; /* nothing matches: the selection stays */
    ui_list_fit(&l);
    ck_assert_uint_eq(l.sel, 7);
    ck_assert_uint_eq(l.top, 0);
}
END_TEST

/* The hint line comes from the key table: the flame graph's own keys
 * first, "? help  q back" always, and no wider than asked. */
START_TEST(test_hints)
{
    char buf[512];
    ui_hint_line(UI_V_FLAME, 79, buf, sizeof buf);
    ck_assert_msg(!strncmp(buf, "h/l move  k/j caller/callee  Enter zoom", 39), "%s", buf);
    ck_assert_int_le((int)strlen(buf), 79);
    ck_assert_msg(strstr(buf, "? help  q back") != NULL, "%s", buf);
    ui_hint_line(UI_V_TIMELINE, 79, buf, sizeof buf);
    ck_assert_msg(!strncmp(buf, "h/l cursor  +/- zoom  v phase", 29), "%s", buf);
    ui_hint_line(UI_V_FUNCTIONS, 30, buf, sizeof buf);
    ck_assert_int_le((int)strlen(buf), 30);
    ck_assert_msg(strstr(buf, "? help  q back") != NULL, "%s", buf);
    ck_assert_str_eq(ui_request_keys(UI_REQ_FL_ZOOM, UI_V_FLAME, 1, buf, sizeof buf), "Enter");
    ck_assert_str_eq(ui_request_keys(UI_REQ_FILTER, UI_V_FUNCTIONS, 2, buf, sizeof buf), "&, F4");
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
    /* views.h's table: each view has its key and request, and the request
     * leads back to the view */
    ck_assert_int_eq(ui_key_request('1', UI_V_TIMELINE), UI_REQ_VIEW_FUNCTIONS);
    ck_assert_int_eq(ui_key_request('3', UI_V_FUNCTIONS), UI_REQ_VIEW_TOPDOWN);
    ck_assert_int_eq(ui_key_request('0', UI_V_FUNCTIONS), UI_REQ_VIEW_SOURCES);
    ck_assert_int_eq(ui_key_request('T', UI_V_FUNCTIONS), UI_REQ_VIEW_TRANSFORMS);
    ck_assert_int_eq(ui_key_request('?', UI_V_STACKS), UI_REQ_VIEW_HELP);
    for (int v = 0; v < UI_V_COUNT; v++) {
        int bound = 0;
        for (size_t i = 0; i < n; i++)
            if (ui_request_view(b[i].req) == v)
                bound = 1;
        ck_assert_msg(bound, "view %d has no key", v);
    }
    ck_assert_int_eq(ui_request_view(UI_REQ_VIEW_HELP), UI_V_HELP);
    ck_assert_int_eq(ui_request_view(UI_REQ_VIEW_FUNCTIONS), UI_V_FUNCTIONS);
    ck_assert_int_eq(ui_request_view(UI_REQ_NEXT_VIEW), -1);
    ck_assert_int_eq(ui_request_view(UI_REQ_BACK), -1);
    ck_assert_str_eq(ui_request_help(UI_REQ_VIEW_LEVELS), "levels, the scaffold marked");
    ck_assert_int_eq(ui_request_section(UI_REQ_VIEW_LEVELS), UI_SEC_VIEW);
    ck_assert_int_eq(ui_request_section(UI_REQ_BACK), UI_SEC_VIEW);
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
    tcase_add_test(tc, test_fit_numbers);
    tcase_add_test(tc, test_controls);
    suite_add_tcase(s, tc);
    tc = tcase_create("list");
    tcase_add_test(tc, test_list);
    tcase_add_test(tc, test_list_filter);
    tcase_add_test(tc, test_hints);
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
