/* write_svg.c - the flame graph as a standalone interactive SVG
 * (stackscope(1), SVG), as flamegraph.pl and inferno users know it: one <g> per
 * frame holding <title>NAME (VALUE UNIT, P%)</title>, a <rect> and its
 * label; a click zooms into a frame (its ancestors stay, full width and
 * faded), "Search" highlights the frames whose name matches a regular
 * expression and gives their share (nested matches counted once), "Reset
 * Zoom" goes back.  The script and the style are inline: the file needs no
 * network.  Frames narrower than 0.1 px are left out with their subtrees.
 *
 * The roots are at the bottom (a flame); the inverted graph (the leaves as
 * roots, their callers below them) hangs from the top, as
 * `flamegraph.pl --inverted --reverse` draws it.  The options (inverted,
 * time order) come with the write's options (write.h, ss_write_opts.svg):
 * the format table's writer takes none and draws the default graph.  Each <g> carries the
 * frame's start, width (in the measure's raw unit, full precision) and depth
 * (data-x, data-w, data-d), so the script zooms exactly, and so can a test
 * read the frames back.  Names are shown with control characters and bytes
 * that are not UTF-8 escaped (textesc.h: \x1b), and so are U+FFFE and U+FFFF
 * (as their bytes, \xef\xbf\xbe: XML 1.0 has no such characters), then
 * XML-escaped, so that any profile gives a well-formed file.
 *
 * A comparison (--base) draws the new profile's graph, each frame as wide as
 * its new total and filled by its delta; a frame's base total is data-b,
 * and the frames that only the base has (new = 0, so no width) are named
 * with their base totals where one looks at their parent: in its <desc>,
 * which the details line shows on hover, and, for roots, in the legend.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "flame.h"
#include "report_compare.h"
#include "hash.h"
#include "sort.h"
#include "textesc.h"
#include "writers.h"

#define SVG_W 1200     /* the picture's width in px */
#define SVG_XPAD 10    /* margin left and right */
#define SVG_FRAME_H 16 /* a row of frames */
#define SVG_TOP 40     /* title and buttons */
#define SVG_BOTTOM 30  /* the details line */
#define SVG_MIN_PX 0.1 /* narrower frames are left out */
#define SVG_CHAR_PX 7  /* a character of the 12 px font, for labels */

#define SVG_ALPHA 0.05 /* a comparison's verdicts' level by default */

static void put_text(FILE *f, const char *s, size_t max)
{
    size_t len = strlen(s), units = 0, total = 0;
    for (size_t i = 0; i < len && total <= max; total++) { /* past max: cut anyway */
        uint32_t cp;
        char esc[SS_ESC_MAX + 1];
        i += ss_esc_unit(s + i, len - i, SS_ESC_TEXT, &cp, esc);
    }
    size_t keep = total <= max ? total : (max >= 2 ? max - 2 : 0);
    for (size_t i = 0; i < len && units < keep; units++) {
        /* a run of printable ASCII that XML takes as it is, at once */
        size_t run = 0;
        while (i + run < len && units + run < keep && s[i + run] >= 0x20 && s[i + run] < 0x7f &&
               !strchr("&<>\"'", s[i + run]))
            run++;
        if (run > 1) {
            fwrite(s + i, 1, run, f);
            i += run;
            units += run - 1;
            continue;
        }
        uint32_t cp;
        char esc[SS_ESC_MAX + 1];
        size_t k = ss_esc_unit(s + i, len - i, SS_ESC_TEXT, &cp, esc);
        if (esc[0])
            fputs(esc, f);
        else if (cp == 0xfffe || cp == 0xffff) /* characters XML 1.0 has not */
            for (size_t b = 0; b < k; b++)
                fprintf(f, "\\x%02x", (unsigned char)s[i + b]);
        else if (cp == '&')
            fputs("&amp;", f);
        else if (cp == '<')
            fputs("&lt;", f);
        else if (cp == '>')
            fputs("&gt;", f);
        else if (cp == '"')
            fputs("&quot;", f);
        else if (cp == '\'')
            fputs("&apos;", f);
        else
            fwrite(s + i, 1, k, f);
        i += k;
    }
    if (keep < total)
        fputs("..", f);
}

/* A frame's fill: warm colours by function name (a stable hash), cool ones
 * by class where the `class` transforms gave the function one. */
static void fill(const struct ss_model *m, ss_id fn, char *buf, size_t n)
{
    ss_id cls = m->function_class.n > fn ? m->function_class.v[fn] : SS_NONE;
    const char *key = cls != SS_NONE ? ss_str(m, cls) : ss_function_name(m, fn);
    uint64_t h = ss_hash(key, strlen(key));
    unsigned a = (unsigned)(h & 0xff), b = (unsigned)((h >> 8) & 0xff),
             c = (unsigned)(h >> 16 & 0xff);
    if (cls != SS_NONE)
        snprintf(buf, n, "rgb(%u,%u,%u)", 40 + a % 90, 120 + b % 100, 170 + c % 80);
    else
        snprintf(buf, n, "rgb(%u,%u,%u)", 205 + a % 50, b % 230, c % 55);
}

static const char svg_style[] =
    "<style type=\"text/css\">\n"
    "text { font-family: Verdana, \"DejaVu Sans\", sans-serif; font-size: 12px; fill: #000; }\n"
    "#title { font-size: 17px; text-anchor: middle; }\n"
    "#frames text { pointer-events: none; }\n"
    "#frames g { cursor: pointer; }\n"
    "#frames g:hover rect { stroke: #000; stroke-width: 0.5; }\n"
    ".button { cursor: pointer; fill: #1a57a6; }\n"
    ".button:hover { text-decoration: underline; }\n"
    ".hide { display: none; }\n"
    ".parent { opacity: 0.5; }\n"
    "</style>\n";

/* The script: written here for this file, no library.  Frames are the
 * children of #frames; each knows its start (fx), width (fw) and depth (fd)
 * in the measure's unit.  zoom(g), unzoom(), search(term) and
 * clearSearch() are also what the browser test calls. */
static const char svg_script[] =
    "<script type=\"text/ecmascript\"><![CDATA[\n"
    "\"use strict\";\n"
    "var svg, frames = [], details, matched, unzoomBtn, searchBtn, total, W, XPAD;\n"
    "var zoomed = null, term = null, EPS = 0;\n"
    "function nameOf(g) {\n"
    "  var t = g.querySelector(\"title\").textContent, i = t.lastIndexOf(\" (\");\n"
    "  return i >= 0 ? t.slice(0, i) : t;\n"
    "}\n"
    "function init(evt) {\n"
    "  svg = document.documentElement;\n"
    "  total = +svg.getAttribute(\"data-total\");\n"
    "  W = +svg.getAttribute(\"data-width\");\n"
    "  XPAD = +svg.getAttribute(\"data-xpad\");\n"
    "  EPS = total * 1e-9;\n"
    "  details = document.getElementById(\"details\");\n"
    "  matched = document.getElementById(\"matched\");\n"
    "  unzoomBtn = document.getElementById(\"unzoom\");\n"
    "  searchBtn = document.getElementById(\"search\");\n"
    "  var gs = document.getElementById(\"frames\").children;\n"
    "  for (var i = 0; i < gs.length; i++) {\n"
    "    var g = gs[i];\n"
    "    g.fx = +g.getAttribute(\"data-x\");\n"
    "    g.fw = +g.getAttribute(\"data-w\");\n"
    "    g.fd = +g.getAttribute(\"data-d\");\n"
    "    g.fname = nameOf(g);\n"
    "    frames.push(g);\n"
    "  }\n"
    "  document.getElementById(\"frames\").addEventListener(\"click\", function (e) {\n"
    "    var g = e.target.closest(\"g\");\n"
    "    if (g && g.fname !== undefined) zoom(g);\n"
    "  });\n"
    "  document.getElementById(\"frames\").addEventListener(\"mouseover\", function (e) {\n"
    "    var g = e.target.closest(\"g\");\n"
    "    if (g && g.fname !== undefined) {\n"
    "      var d = g.querySelector(\"desc\");\n"
    "      details.textContent = g.querySelector(\"title\").textContent +\n"
    "        (d ? \"; \" + d.textContent : \"\");\n"
    "    }\n"
    "  });\n"
    "  unzoomBtn.addEventListener(\"click\", unzoom);\n"
    "  searchBtn.addEventListener(\"click\", function () {\n"
    "    if (term !== null) { clearSearch(); return; }\n"
    "    var t = prompt(\"Search for a function (a regular expression):\", \"\");\n"
    "    if (t) search(t);\n"
    "  });\n"
    "  window.addEventListener(\"keydown\", function (e) {\n"
    "    if ((e.ctrlKey || e.metaKey) && e.key === \"f\") {\n"
    "      e.preventDefault();\n"
    "      var t = prompt(\"Search for a function (a regular expression):\", term || \"\");\n"
    "      if (t) search(t);\n"
    "    } else if (e.key === \"Escape\") {\n"
    "      unzoom();\n"
    "    }\n"
    "  });\n"
    "}\n"
    "function label(g, w) {\n"
    "  var t = g.querySelector(\"text\"), n = Math.floor((w - 6) / 7);\n"
    "  var s = g.fname, c = Array.from(s);\n"
    "  t.textContent = n < 3 ? \"\" : c.length <= n ? s : c.slice(0, n - 2).join(\"\") + \"..\";\n"
    "}\n"
    "function place(g, x, w) {\n"
    "  var r = g.querySelector(\"rect\"), t = g.querySelector(\"text\");\n"
    "  r.setAttribute(\"x\", x.toFixed(2));\n"
    "  r.setAttribute(\"width\", w.toFixed(2));\n"
    "  t.setAttribute(\"x\", (x + 3).toFixed(2));\n"
    "  label(g, w);\n"
    "}\n"
    "function zoom(z) {\n"
    "  var px = W - 2 * XPAD;\n"
    "  zoomed = z;\n"
    "  unzoomBtn.classList.remove(\"hide\");\n"
    "  frames.forEach(function (g) {\n"
    "    var inside = g.fd >= z.fd && g.fx >= z.fx - EPS && g.fx + g.fw <= z.fx + z.fw + EPS;\n"
    "    var above = g.fd < z.fd && g.fx <= z.fx + EPS && g.fx + g.fw >= z.fx + z.fw - EPS;\n"
    "    g.classList.toggle(\"hide\", !inside && !above);\n"
    "    g.classList.toggle(\"parent\", above);\n"
    "    if (above) place(g, XPAD, px);\n"
    "    else if (inside) place(g, XPAD + (g.fx - z.fx) / z.fw * px, g.fw / z.fw * px);\n"
    "  });\n"
    "  if (term !== null) search(term);\n"
    "}\n"
    "function unzoom() {\n"
    "  var px = W - 2 * XPAD;\n"
    "  zoomed = null;\n"
    "  unzoomBtn.classList.add(\"hide\");\n"
    "  frames.forEach(function (g) {\n"
    "    g.classList.remove(\"hide\");\n"
    "    g.classList.remove(\"parent\");\n"
    "    place(g, XPAD + g.fx / total * px, g.fw / total * px);\n"
    "  });\n"
    "  if (term !== null) search(term);\n"
    "}\n"
    "function search(t) {\n"
    "  var re;\n"
    "  try { re = new RegExp(t); } catch (e) { matched.textContent = \"bad expression: \" + t; "
    "return; }\n"
    "  term = t;\n"
    "  searchBtn.textContent = \"Reset Search\";\n"
    "  var hits = [];\n"
    "  frames.forEach(function (g) {\n"
    "    var r = g.querySelector(\"rect\");\n"
    "    var on = !g.classList.contains(\"hide\") && !g.classList.contains(\"parent\") &&\n"
    "             re.test(g.fname);\n"
    "    r.setAttribute(\"fill\", on ? \"rgb(230,0,230)\" : r.getAttribute(\"data-fill\"));\n"
    "    if (on) hits.push(g);\n"
    "  });\n"
    "  hits.sort(function (a, b) { return a.fx - b.fx || a.fd - b.fd; });\n"
    "  var sum = 0, end = -Infinity;\n"
    "  hits.forEach(function (g) {\n"
    "    if (g.fx >= end - EPS) { sum += g.fw; end = g.fx + g.fw; }\n"
    "  });\n"
    "  var base = zoomed ? zoomed.fw : total;\n"
    "  matched.textContent = \"Matched: \" + (100 * sum / base).toFixed(2) + \"%\" +\n"
    "    (zoomed ? \" of the zoom, \" + (100 * sum / total).toFixed(2) + \"% of all\" : \"\");\n"
    "  svg.setAttribute(\"data-matched\", (sum / base).toString());\n"
    "  return sum / base;\n"
    "}\n"
    "function clearSearch() {\n"
    "  term = null;\n"
    "  searchBtn.textContent = \"Search\";\n"
    "  matched.textContent = \"\";\n"
    "  frames.forEach(function (g) {\n"
    "    var r = g.querySelector(\"rect\");\n"
    "    r.setAttribute(\"fill\", r.getAttribute(\"data-fill\"));\n"
    "  });\n"
    "}\n"
    "]]></script>\n";

/* A comparison's fill (compare.h): red for growth, blue for shrinkage, the
 * stronger the larger |delta| is against the graph's largest; grey when
 * equal.  With verdicts (sign, verdict.h; v NULL: none) only a frame that
 * grew or shrank is coloured, in its verdict's direction and at least
 * faintly; a `~` frame is grey like an equal one. */
static void delta_fill(double base, double cur, double max_delta, const struct ss_verdict *v,
                       char *buf, size_t n)
{
    double d = cur - base, r = max_delta > 0 ? fabs(d) / max_delta : 0;
    if (v) {
        d = v->sign;
        r = r < 0.15 ? 0.15 : r;
    }
    unsigned lo = (unsigned)lround(225 * (1 - r));
    if (d > 0)
        snprintf(buf, n, "rgb(255,%u,%u)", lo, lo);
    else if (d < 0)
        snprintf(buf, n, "rgb(%u,%u,255)", lo, lo);
    else
        snprintf(buf, n, "rgb(235,235,235)");
}

static int write_svg(const struct ss_model *m, FILE *f, const struct ss_flame_opts *svg_opts,
                     const struct ss_compare *cmp, struct ss_error *err);

/* A frame's <title>: its name, value and share of `all`; in a comparison
 * (base not NULL) its base value and delta, and its verdict (vd, or NULL). */
static void frame_title(FILE *f, const struct ss_model *m, const char *name, double total,
                        double all, const double *base, const struct ss_verdict *vd)
{
    char v[64];
    ss_flame_format(m, total, v, sizeof v);
    fputs("<title>", f);
    put_text(f, name, SIZE_MAX);
    fprintf(f, " (%s, %.2f%%", v, 100.0 * total / all);
    if (base) {
        char bv[64], dv[64];
        double d = total - *base;
        ss_flame_format(m, *base, bv, sizeof bv);
        ss_flame_format(m, fabs(d), dv, sizeof dv);
        fprintf(f, "; base %s, delta %s%s", bv, d > 0 ? "+" : d < 0 ? "-" : "", dv);
    }
    if (vd && !isnan(vd->q))
        fprintf(f, "; %s, q %.2g", ss_verdict_word(vd->sign), vd->q);
    else if (vd)
        fputs("; ~", f);
    fputs(")</title>", f);
}

/* The frames only in the base, ordered by the new frame they are under
 * (roots, SS_FLAME_NONE, last), heaviest first. */
static int by_parent_heaviest(const void *pa, const void *pb, void *vctx)
{
    const struct ss_cmp_gone *g = vctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    if (g->parent[a] != g->parent[b])
        return g->parent[a] < g->parent[b] ? -1 : 1;
    if (g->total[a] > g->total[b])
        return -1;
    if (g->total[a] < g->total[b])
        return 1;
    return a < b ? -1 : a > b ? 1 : 0;
}

#define SVG_GONE_MAX 8 /* frames only in the base named per parent; the rest counted */

/* "only in the base: NAME (VALUE), ..." for gone frames order[*at ..] whose
 * parent is `parent`; advances *at past them. */
static void put_gone(const struct ss_model *m, FILE *f, const struct ss_cmp_gone *g,
                     const size_t *order, size_t *at, uint32_t parent)
{
    size_t k = 0;
    double rest = 0;
    fputs("only in the base: ", f);
    for (; *at < g->n && g->parent[order[*at]] == parent; (*at)++, k++) {
        size_t j = order[*at];
        if (k >= SVG_GONE_MAX) {
            rest += g->total[j];
            continue;
        }
        char v[64];
        ss_flame_format(m, g->total[j], v, sizeof v);
        if (k)
            fputs(", ", f);
        put_text(f, g->name[j], SIZE_MAX);
        fprintf(f, " (%s)", v);
    }
    if (k > SVG_GONE_MAX) {
        char v[64];
        ss_flame_format(m, rest, v, sizeof v);
        fprintf(f, " and %zu more (%s)", k - SVG_GONE_MAX, v);
    }
}

int ss_write_svg(const struct ss_model *m, FILE *f, const char *path, struct ss_error *err)
{
    return ss_write_svg_with(m, f, path, NULL, 0, err);
}

int ss_write_svg_with(const struct ss_model *m, FILE *f, const char *path,
                      const struct ss_flame_opts *fo, double alpha, struct ss_error *err)
{
    (void)path;
    struct ss_flame_opts opts = {0, 0, SS_FLAME_BY_NAME};
    if (fo)
        opts = *fo;
    if (!ss_model_is_comparison(m))
        return write_svg(m, f, &opts, NULL, err);
    /* a comparison: the new profile's graph coloured by delta */
    struct ss_model base, cur;
    int rc = ss_compare_split(m, &base, &cur, err);
    if (rc)
        return rc;
    int norm = 0;
    for (size_t i = 0; i < m->sources.n; i++)
        norm |= (m->sources.v[i].flags & SS_SRC_NORMALIZE) != 0;
    rc = ss_model_set_measure(&cur, ss_model_measure_name(m), err);
    if (!rc)
        rc = ss_model_set_measure(&base, ss_model_measure_name(m), err);
    if (!rc) {
        struct ss_compare cmp;
        ss_compare_init(&cmp, &base, &cur, norm);
        cmp.alpha = alpha > 0 ? alpha : SVG_ALPHA;
        rc = write_svg(&cur, f, &opts, &cmp, err);
    }
    ss_model_free(&base);
    ss_model_free(&cur);
    return rc;
}

/* The picture being written: the chart and, in a comparison, each
 * frame's base, verdict and the frames only the base has. */
struct svg_pic {
    struct ss_flame fl;
    struct ss_flame_opts opts;
    const struct ss_compare *cmp;
    double *base, max_delta;
    struct ss_cmp_gone gone;
    struct ss_cmp_fverdicts fv;
    size_t *gorder, gat; /* gone, by parent (the roots last); the next to say */
    int top, height, inverted;
    uint32_t rows;
    double px; /* the frames' width in pixels */
};

static void svg_free(struct svg_pic *g)
{
    ss_flame_free(&g->fl);
    ss_cmp_fverdicts_free(&g->fv);
    free(g->base);
    free(g->gorder);
    ss_cmp_gone_free(&g->gone);
}

/* In a comparison: each frame's base and verdict, what only the base has
 * (ordered by parent), the largest delta.  Returns 0 or an error. */
static int svg_compare(struct svg_pic *g, struct ss_error *err)
{
    struct ss_flame *fl = &g->fl;
    g->base = malloc((fl->n ? fl->n : 1) * sizeof *g->base);
    int rc = g->base ? ss_compare_flame_gone(g->cmp, &g->opts, fl, g->base, &g->gone, &g->fv, err)
                     : ss_nomem(err, "SVG");
    if (rc)
        return rc;
    g->gorder = ss_alloc_array(g->gone.n ? g->gone.n : 1, sizeof *g->gorder);
    for (size_t j = 0; g->gorder && j < g->gone.n; j++)
        g->gorder[j] = j;
    if (!g->gorder ||
        ss_sort(g->gorder, g->gone.n, sizeof *g->gorder, by_parent_heaviest, &g->gone))
        return ss_nomem(err, "SVG");
    for (size_t i = 0; i < fl->n; i++)
        if (fabs(fl->nodes[i].total - g->base[i]) > g->max_delta)
            g->max_delta = fabs(fl->nodes[i].total - g->base[i]);
    return 0;
}

/* The chart at the picture's resolution, and the comparison's. */
static int svg_build(const struct ss_model *m, const struct ss_flame_opts *svg_opts,
                     struct svg_pic *g, struct ss_error *err)
{
    double *sw = NULL, *pw = NULL;
    g->opts = *svg_opts;
    g->top = SVG_TOP + (g->cmp ? 18 : 0); /* a comparison's legend below the title */
    if (g->cmp)
        g->opts.time_order = 0; /* deltas join merged frames */
    int t = g->opts.time_order;
    int rc = ss_flame_measure_weights(m, t ? NULL : &sw, t ? &pw : NULL, err);
    if (rc)
        return rc;
    /* every frame of SVG_MIN_PX or more covers a point of a grid that fine
     * (flame.h) */
    struct ss_flame_grid grid = {.cols = (size_t)((SVG_W - 2 * SVG_XPAD) / SVG_MIN_PX)};
    rc = ss_flame_build_grid(m, sw, pw, &g->opts, &grid, &g->fl, err);
    free(sw);
    free(pw);
    if (rc)
        return rc;
    if (g->cmp && (rc = svg_compare(g, err)))
        return rc;
    g->inverted = svg_opts->inverted;
    g->rows = g->fl.max_depth ? g->fl.max_depth : 1;
    g->height = g->top + (int)g->rows * SVG_FRAME_H + SVG_BOTTOM;
    g->px = SVG_W - 2 * SVG_XPAD;
    return 0;
}

/* A comparison's legend: the colours, the summary, the roots only the
 * base has. */
static void svg_legend(FILE *f, const struct ss_model *m, struct svg_pic *g)
{
    char sum[512];
    ss_compare_summary(sum, sizeof sum, g->cmp, 1);
    if (g->fv.v)
        fprintf(f,
                "<text id=\"legend\" x=\"%d\" y=\"42\">red: grew, blue: shrank beyond "
                "sampling noise (q &lt;= %g; the stronger, the more); grey: ~, no change "
                "this data can tell; ",
                SVG_XPAD, g->fv.info.alpha);
    else
        fprintf(f,
                "<text id=\"legend\" x=\"%d\" y=\"42\">red: grew, blue: shrank against "
                "the base (the stronger, the more); ",
                SVG_XPAD);
    put_text(f, sum, SIZE_MAX);
    /* the roots only the base has (sorted last) */
    size_t r = g->gone.n;
    while (r > 0 && g->gone.parent[g->gorder[r - 1]] == SS_FLAME_NONE)
        r--;
    if (r < g->gone.n) {
        fputs("; ", f);
        put_gone(m, f, &g->gone, g->gorder, &r, SS_FLAME_NONE);
    }
    fputs("; on hover, each frame names what only the base had under it</text>\n", f);
}

/* The document's head: the svg element, style, script, title, legend and
 * buttons. */
static void svg_head(FILE *f, const struct ss_model *m, struct svg_pic *g)
{
    const struct ss_flame *fl = &g->fl;
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
            "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
            "height=\"%d\" viewBox=\"0 0 %d %d\" onload=\"init(evt)\" data-total=\"%.17g\" "
            "data-width=\"%d\" data-xpad=\"%d\" data-inverted=\"%d\" data-time-order=\"%d\">\n",
            SVG_W, g->height, SVG_W, g->height, fl->total, SVG_W, SVG_XPAD, g->inverted,
            g->opts.time_order);
    fputs(svg_style, f);
    fputs(svg_script, f);
    char tv[64];
    ss_flame_format(m, fl->total, tv, sizeof tv);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"#f6f4ef\"/>\n");
    fprintf(f, "<text id=\"title\" x=\"%d\" y=\"22\">%s%s (", SVG_W / 2,
            g->opts.time_order ? "Flame Chart, time order"
            : g->cmp           ? "Differential Flame Graph"
                               : "Flame Graph",
            g->inverted ? ", inverted" : "");
    put_text(f, ss_model_measure_name(m), SIZE_MAX);
    fprintf(f, ", %s)</text>\n", tv);
    if (g->cmp)
        svg_legend(f, m, g);
    fprintf(f, "<text id=\"unzoom\" class=\"button hide\" x=\"%d\" y=\"22\">Reset Zoom</text>\n",
            SVG_XPAD);
    fprintf(f, "<text id=\"search\" class=\"button\" x=\"%d\" y=\"22\">Search</text>\n",
            SVG_W - SVG_XPAD - 90);
    fprintf(f, "<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n", SVG_XPAD, g->height - 10);
    fprintf(f, "<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n", SVG_W - SVG_XPAD - 260,
            g->height - 10);
}

/* Frame i, w pixels wide: its group, title, what only the base has under
 * it, rectangle and label. */
static void svg_frame(FILE *f, const struct ss_model *m, struct svg_pic *g, size_t i, double w)
{
    const struct ss_flame *fl = &g->fl;
    const struct ss_flame_node *nd = &fl->nodes[i];
    double x = SVG_XPAD + (fl->total > 0 ? nd->x / fl->total * g->px : 0);
    int y = g->inverted ? g->top + (int)nd->depth * SVG_FRAME_H
                        : g->top + (int)(g->rows - 1 - nd->depth) * SVG_FRAME_H;
    const char *name = ss_function_name(m, nd->function);
    char col[32];
    const struct ss_verdict *vd = g->fv.v ? &g->fv.v[i] : NULL;
    if (g->base)
        delta_fill(g->base[i], nd->total, g->max_delta, vd, col, sizeof col);
    else
        fill(m, nd->function, col, sizeof col);
    fprintf(f, "<g data-x=\"%.17g\" data-w=\"%.17g\" data-d=\"%u\"", nd->x, nd->total, nd->depth);
    if (g->base)
        fprintf(f, " data-b=\"%.17g\"", g->base[i]);
    if (vd)
        fprintf(f, " data-v=\"%s\"", ss_verdict_word(vd->sign));
    fputc('>', f);
    frame_title(f, m, name, nd->total, fl->total, g->base ? &g->base[i] : NULL, vd);
    /* the frames only the base has under this one */
    while (g->gorder && g->gat < g->gone.n && g->gone.parent[g->gorder[g->gat]] < i)
        g->gat++; /* under a frame too narrow to draw */
    if (g->gorder && g->gat < g->gone.n && g->gone.parent[g->gorder[g->gat]] == i) {
        fputs("<desc>", f);
        put_gone(m, f, &g->gone, g->gorder, &g->gat, (uint32_t)i);
        fputs("</desc>", f);
    }
    fprintf(f,
            "<rect x=\"%.2f\" y=\"%d\" width=\"%.2f\" height=\"%d\" rx=\"2\" fill=\"%s\" "
            "data-fill=\"%s\"/>",
            x, y, w, SVG_FRAME_H - 1, col, col);
    fprintf(f, "<text x=\"%.2f\" y=\"%d\">", x + 3, y + SVG_FRAME_H - 4);
    double chars = floor((w - 6) / SVG_CHAR_PX);
    if (chars >= 3)
        put_text(f, name, (size_t)chars);
    fputs("</text></g>\n", f);
}

static int write_svg(const struct ss_model *m, FILE *f, const struct ss_flame_opts *svg_opts,
                     const struct ss_compare *cmp, struct ss_error *err)
{
    struct svg_pic g;
    memset(&g, 0, sizeof g);
    g.cmp = cmp;
    int rc = svg_build(m, svg_opts, &g, err);
    if (rc) {
        svg_free(&g);
        return rc;
    }
    svg_head(f, m, &g);
    fputs("<g id=\"frames\">\n", f);
    /* (a failed stream, one capped at the size limit too, ends the frames:
     * the rest would go nowhere) */
    for (size_t i = 0; i < g.fl.n && !ferror(f);) {
        const struct ss_flame_node *nd = &g.fl.nodes[i];
        double w = g.fl.total > 0 ? nd->total / g.fl.total * g.px : 0;
        if (w < SVG_MIN_PX) {
            i = nd->end; /* its children are narrower still */
            continue;
        }
        svg_frame(f, m, &g, i, w);
        i++;
    }
    fputs("</g>\n</svg>\n", f);
    svg_free(&g);
    return 0;
}
