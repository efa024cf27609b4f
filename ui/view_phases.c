/* view_phases.c - the phases of the current model as the detector found
 * them (phases.h, `report --by phases`): each with its first and last
 * sample, its samples, its measure and share, and the functions that tell
 * it apart.  The main phase (the most samples) is starred.
 *
 * Enter shows the phase in the timeline (zoomed to it and marked); K keeps
 * it and d drops it (keep-phase N, drop-phase N: the transform finds it
 * again when the list is applied, and the transforms view says which
 * samples it resolved to); m marks a phase and C compares the selected
 * phase with the marked one, or with the main phase (:compare-phases A B,
 * a comparison as in stackscope(1), COMPARING: every view then shows base, new
 * and delta; X swaps them, :compare-phases alone ends it).  In a comparison
 * the rows are the new profile's phases. */
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "report_phases.h"
#include "vec.h"

#define PC(i) (&ss_phase_columns[i])
static const struct ui_column columns_min[] = {
    {NULL, 5, 1, PC(SS_PHASE_COL_PHASE)},
    {NULL, 5, 1, PC(SS_PHASE_COL_FIRST)},
    {NULL, 5, 1, PC(SS_PHASE_COL_LAST)},
    {NULL, 7, 1, PC(SS_PHASE_COL_SAMPLES)},
    {"measure", 8, 1, PC(SS_PHASE_COL_VALUE)},
    {NULL, 6, 1, PC(SS_PHASE_COL_PCT)},
    {"distinguished by (share)", UI_COL_CORE, 0, PC(SS_PHASE_COL_TOPS)},
};
#define NCOLS ARRAY_SIZE(columns_min)
#define MEASURE_COL 4

struct phases_view {
    size_t marked; /* the phase m marked (1-based), 0: none */
    unsigned gen;  /* the model it was marked in */
    /* as drawn: columns_min, named and widened (draw) */
    struct ui_column columns[NCOLS];
};

/* The table's context for the current model's phases, or -1. */
static int context(struct ui *ui, struct ss_phases_ctx *x)
{
    const struct ss_phases *ph = ui_phases(ui);
    if (!ph)
        return -1;
    x->m = ui->m;
    x->p = ph;
    x->side = NULL;
    ss_units_of(ui->m, &x->u);
    return 0;
}

static int prepare(struct ui *ui, struct ui_view *v)
{
    struct phases_view *p = v->priv;
    if (p->gen != ui->gen)
        p->marked = 0;
    p->gen = ui->gen;
    const struct ss_phases *ph = ui_no_order_note(ui) ? NULL : ui_phases(ui);
    v->list.n = ph ? ph->n : 0;
    return 0;
}

static void title(struct ui *ui, struct ui_view *v, char *buf, size_t n)
{
    const struct phases_view *p = v->priv;
    const struct ss_phases *ph = ui_no_order_note(ui) ? NULL : ui_phases(ui);
    if (!ph) {
        snprintf(buf, n, "none without time order");
        return;
    }
    int k = snprintf(buf, n, "%zu found below the scaffold (levels %u-%u)%s", ph->n, ph->level,
                     ph->level + SS_PHASE_DEPTH - 1, ui->bm ? ", of the new profile" : "");
    if (p->marked && k > 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, "; %zu marked", p->marked);
}

static void draw_row(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, size_t row,
                     int style)
{
    const struct phases_view *p = v->priv;
    struct ss_phases_ctx x;
    if (!context(ui, &x))
        ui_table_cells(c, y, p->columns, NCOLS, &x, row, style, 0);
}

static void draw(struct ui *ui, struct ui_view *v, struct ui_canvas *c, int y, int h)
{
    struct phases_view *p = v->priv;
    memcpy(p->columns, columns_min, sizeof p->columns);
    struct ss_phases_ctx x;
    const char *note = ui_no_order_note(ui);
    if (!note && !context(ui, &x))
        ui_table_fit(p->columns, NCOLS, &x, x.p->n);
    p->columns[MEASURE_COL].name = ss_model_measure_name(ui->m);
    if (!note && !v->list.n)
        note = ui_empty_note(ui);
    ui_table_draw(ui, v, c, y, h, p->columns, NCOLS, -1, 0, note, draw_row);
}

/* How keep-phase names phase k (0-based): "main", else its number. */
static void phase_name(const struct ss_phases *ph, size_t k, char *buf, size_t n)
{
    if (k == ph->main)
        snprintf(buf, n, "main");
    else
        snprintf(buf, n, "%zu", k + 1);
}

/* C: the selected phase against the marked one, or the main phase. */
static void compare(struct ui *ui, const struct phases_view *p, const struct ss_phases *ph,
                    size_t k)
{
    size_t base = p->marked ? p->marked - 1 : ph->main;
    if (base == k) {
        ui_error(ui, "C compares the selected phase with the marked one (m) or the main one: "
                     "select another phase");
        return;
    }
    char a[32], b[32];
    phase_name(ph, base, a, sizeof a);
    phase_name(ph, k, b, sizeof b);
    ui_compare_phases(ui, a, b);
}

static int request(struct ui *ui, struct ui_view *v, enum ui_request req, const struct ui_event *ev)
{
    struct phases_view *p = v->priv;
    if (req != UI_REQ_ENTER && req != UI_REQ_PH_KEEP && req != UI_REQ_PH_DROP &&
        req != UI_REQ_PH_MARK && req != UI_REQ_PH_COMPARE)
        return UI_UNHANDLED;
    const struct ss_phases *ph = v->list.n ? ui_phases(ui) : NULL;
    size_t k = v->list.sel;
    if (!ph || k >= ph->n) {
        ui_error(ui, "no phase selected");
        return UI_HANDLED;
    }
    char name[32], cmd[64];
    phase_name(ph, k, name, sizeof name);
    switch (req) {
    case UI_REQ_ENTER:
        ui_timeline_show_phase(ui, k);
        break;
    case UI_REQ_PH_KEEP:
    case UI_REQ_PH_DROP:
        snprintf(cmd, sizeof cmd, "%s %s", req == UI_REQ_PH_KEEP ? "keep-phase" : "drop-phase",
                 name);
        ui_add_transform(ui, cmd, -1, -1);
        break;
    case UI_REQ_PH_MARK:
        p->marked = p->marked == k + 1 ? 0 : k + 1;
        if (p->marked)
            ui_message(ui, "marked phase %zu: C on another phase compares it with this one", k + 1);
        else
            ui_message(ui, "mark cleared");
        break;
    default:
        compare(ui, p, ph, k);
        break;
    }
    return UI_HANDLED;
}

static const char *row_text(struct ui *ui, struct ui_view *v, size_t r, char *buf, size_t n)
{
    const struct ss_phases *ph = ui_no_order_note(ui) ? NULL : ui_phases(ui);
    if (!ph || r >= ph->n || ph->v[r].top[0] == SS_NONE)
        return NULL;
    return ss_function_name(ui->m, ph->v[r].top[0]);
}

const struct ui_view_ops ui_view_phases = {
    .name = "phases",
    .priv_size = sizeof(struct phases_view),
    .prepare = prepare,
    .title = title,
    .draw = draw,
    .request = request,
    .row_text = row_text,
};
