/* list.c - selection and scrolling (see list.h). */
#include "list.h"

size_t ui_list_count(const struct ui_list *l)
{
    return l->vis ? l->nvis : l->n;
}

size_t ui_list_row(const struct ui_list *l, size_t k)
{
    return l->vis ? l->vis[k] : k;
}

size_t ui_list_pos(const struct ui_list *l)
{
    if (!l->vis)
        return l->sel;
    size_t lo = 0, hi = l->nvis; /* the first shown row >= sel */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->vis[mid] < l->sel)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void ui_list_fit(struct ui_list *l)
{
    if (l->page < 1)
        l->page = 1;
    size_t page = (size_t)l->page, count = ui_list_count(l);
    if (l->n == 0) {
        l->sel = l->top = 0;
        return;
    }
    if (l->sel >= l->n)
        l->sel = l->n - 1;
    if (count == 0) { /* a filter that shows nothing: sel stays */
        l->top = 0;
        return;
    }
    size_t pos = ui_list_pos(l);
    if (pos >= count)
        pos = count - 1;
    l->sel = ui_list_row(l, pos);
    if (pos < l->top)
        l->top = pos;
    if (pos >= l->top + page)
        l->top = pos - page + 1;
    /* no empty space below the last row when the list is long enough */
    if (l->top + page > count)
        l->top = count > page ? count - page : 0;
}

void ui_list_move(struct ui_list *l, long delta)
{
    size_t count = ui_list_count(l);
    if (count == 0)
        return;
    size_t pos = ui_list_pos(l);
    if (pos >= count)
        pos = count - 1;
    if (delta < 0 && (size_t)-delta > pos)
        pos = 0;
    else if (delta > 0 && (size_t)delta >= count - pos)
        pos = count - 1;
    else
        pos = (size_t)((long)pos + delta);
    l->sel = ui_list_row(l, pos);
    ui_list_fit(l);
}

void ui_list_select(struct ui_list *l, size_t i)
{
    l->sel = i;
    ui_list_fit(l);
}

void ui_list_scroll(struct ui_list *l, long delta)
{
    size_t count = ui_list_count(l);
    if (count == 0)
        return;
    size_t page = l->page < 1 ? 1 : (size_t)l->page;
    size_t maxtop = count > page ? count - page : 0;
    if (delta < 0 && (size_t)-delta > l->top)
        l->top = 0;
    else if (delta > 0 && l->top + (size_t)delta > maxtop)
        l->top = maxtop;
    else
        l->top = (size_t)((long)l->top + delta);
    size_t pos = ui_list_pos(l);
    if (pos < l->top)
        pos = l->top;
    if (pos >= l->top + page)
        pos = l->top + page - 1;
    if (pos >= count)
        pos = count - 1;
    l->sel = ui_list_row(l, pos);
}
