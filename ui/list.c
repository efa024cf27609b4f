/* list.c - selection and scrolling (see list.h). */
#include "list.h"

void ui_list_fit(struct ui_list *l)
{
    if (l->page < 1)
        l->page = 1;
    size_t page = (size_t)l->page;
    if (l->n == 0) {
        l->sel = l->top = 0;
        return;
    }
    if (l->sel >= l->n)
        l->sel = l->n - 1;
    if (l->sel < l->top)
        l->top = l->sel;
    if (l->sel >= l->top + page)
        l->top = l->sel - page + 1;
    /* no empty space below the last row when the list is long enough */
    if (l->top + page > l->n)
        l->top = l->n > page ? l->n - page : 0;
}

void ui_list_move(struct ui_list *l, long delta)
{
    if (l->n == 0)
        return;
    if (delta < 0 && (size_t)-delta > l->sel)
        l->sel = 0;
    else if (delta > 0 && (size_t)delta >= l->n - l->sel)
        l->sel = l->n - 1;
    else
        l->sel = (size_t)((long)l->sel + delta);
    ui_list_fit(l);
}

void ui_list_select(struct ui_list *l, size_t i)
{
    l->sel = i;
    ui_list_fit(l);
}

void ui_list_scroll(struct ui_list *l, long delta)
{
    if (l->n == 0)
        return;
    size_t page = l->page < 1 ? 1 : (size_t)l->page;
    size_t maxtop = l->n > page ? l->n - page : 0;
    if (delta < 0 && (size_t)-delta > l->top)
        l->top = 0;
    else if (delta > 0 && l->top + (size_t)delta > maxtop)
        l->top = maxtop;
    else
        l->top = (size_t)((long)l->top + delta);
    if (l->sel < l->top)
        l->sel = l->top;
    if (l->sel >= l->top + page)
        l->sel = l->top + page - 1;
    if (l->sel >= l->n)
        l->sel = l->n - 1;
}
