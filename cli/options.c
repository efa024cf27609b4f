/* options.c - the command line's options: one table (cli_opts) drives
 * parsing, --help and the man page's OPTIONS (see options.h). */
#include "options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "format.h"
#include "num.h"
#include "phases.h"
#include "report_common.h"
#include "strbuf.h"
#include "textesc.h"
#include "transform.h"
#include "vec.h"

/* --help: this head, then each section's intro and its options (from
 * cli_opts below), then the tail. */
static const char help_head[] =
    "Usage: stackscope [--resume] [--preset NAME] [-e CMD]... [FILE...]\n"
    "       stackscope report [OPTIONS] FILE...\n"
    "       stackscope convert [OPTIONS] -o OUT FILE...\n"
    "       stackscope check FILE...\n"
    "\n"
    "Explore, trim, compare and save sampling profiles: R's Rprof, Go's pprof,\n"
    "perf script, Node and Chrome .cpuprofile, speedscope, folded stacks.\n"
    "\n"
    "With no command, explore the profile FILE in the terminal (several files\n"
    "combine into one profile; no FILE: the bundled demo profile): views of\n"
    "functions, stacks, trees, timeline, levels, run lengths, source lines and\n"
    "the flame graph (F), trimmed with transforms and saved with :w FILE (:w\n"
    "F.svg: the flame graph as an interactive SVG); ? lists the keys.\n"
    "Without a terminal, or on one that cannot move the cursor (TERM=dumb),\n"
    "print what 'stackscope report FILE...' prints instead.\n"
    "\n";

static const char help_tail[] =
    "Exit status: 0 success, 1 usage error, 2 bad input (the message names the\n"
    "file and line).  See stackscope(1).\n";

/* The sections of --help, in order, and the text before each one's options. */
enum {
    SEC_TOP,
    SEC_REPORT,
    SEC_CONVERT,
    SEC_INPUT,
    SEC_MEASURE,
    SEC_COMPARE,
    SEC_SOURCE,
    SEC_TRANSFORM,
    SEC_GENERAL
};
static const char *const section_intro[] = {
    [SEC_TOP] = "",
    [SEC_REPORT] = "Commands:\n"
                   "  report     print one table and exit\n"
                   "  convert    write the profile in another format\n"
                   "  check      validate files; print a summary of each, or what is wrong\n"
                   "\n"
                   "Report options:\n",
    [SEC_CONVERT] = "Convert options:\n",
    [SEC_INPUT] = "Inputs (told from the content): Rprof files; pprof (gzip or raw\n"
                  "profile.proto); SamplingProf files; Chrome/Node .cpuprofile JSON (node\n"
                  "--cpu-prof, DevTools); speedscope JSON; perf script text; folded stacks\n"
                  "('root;...;leaf COUNT' lines: counts, the samples measure, or times\n"
                  "with --interval); a directory of v2 tables (what\n"
                  "convert --to tables writes: one TSV per table, 1-based ids, R reads them\n"
                  "with read.delim).\n"
                  "Go's debug=1 text profiles are recognised and refused.\n",
    [SEC_MEASURE] = "Measures (report, convert and the explorer; MEASURES in stackscope(1)):\n",
    [SEC_COMPARE] = "Comparing (report, convert and the explorer; COMPARING in stackscope(1)):\n",
    [SEC_SOURCE] = "Source files (report --by list, convert --embed-sources and the\n"
                   "explorer's code pane; SOURCE FILES in stackscope(1)): a path the\n"
                   "profile names is looked for as written, next to the profile, then as\n"
                   "these options say, then in the profile (convert --embed-sources):\n",
    [SEC_TRANSFORM] = ("Transform options (report, convert and the explorer; see TRANSFORMS in\n"
                       "stackscope(1)):\n"),
    [SEC_GENERAL] = "",
};
/* The man page's OPTIONS (stackscope --help=roff) in the same sections:
 * each one's title, and its roff text before its options (or NULL). */
static const struct {
    const char *title;
    const char *intro;
} section_man[] = {
    [SEC_TOP] = {"Starting the explorer", NULL},
    [SEC_REPORT] = {"Report", "An option that the chosen table does not use\n"
                              ".RB ( \\-\\-inverted \" with \" \"\\-\\-by self\" ,\n"
                              "for example) is a usage error."},
    [SEC_CONVERT] = {"Convert", NULL},
    [SEC_INPUT] = {"Inputs", "Report, convert and the explorer take these (see\n.BR INPUT )."},
    [SEC_MEASURE] = {"Measures", NULL},
    [SEC_COMPARE] = {"Comparing",
                     "Report, convert and the explorer take these but\n.BR \\-\\-verdict ,\n"
                     "which is report's (see\n.BR COMPARING )."},
    [SEC_SOURCE] = {"Source files", "Report, convert and the explorer take these (see\n"
                                    ".BR \"SOURCE FILES\" )."},
    [SEC_TRANSFORM] = {"Transforms",
                       "Report, convert and the explorer take these; the explorer takes\n"
                       ".B \\-\\-preset\n"
                       "as above (see\n.BR TRANSFORMS )."},
    [SEC_GENERAL] = {"Help", NULL},
};

/* Messages quote file names and arguments: their control characters are
 * escaped (textesc.h), as are the names in every line printed here. */
int cli_usage_error(const char *fmt, ...)
{
    struct ss_strbuf msg = SS_STRBUF_INIT; /* it may quote a long argument whole */
    va_list ap;
    va_start(ap, fmt);
    ss_strbuf_vprintf(&msg, fmt, ap);
    va_end(ap);
    fputs("stackscope: ", stderr);
    ss_esc_fputs(msg.failed ? "out of memory" : ss_strbuf_str(&msg), SS_ESC_TEXT, stderr);
    ss_strbuf_free(&msg);
    fprintf(stderr, "\nTry 'stackscope --help' for more information.\n");
    return 1;
}

/* Handle -e CMD / --script FILE.  Returns 0 or the exit status. */
static int tf_option(struct tf_opts *t, int c, const char *arg)
{
    struct ss_error err;
    ss_error_clear(&err);
    if (!t->list && !(t->list = ss_tf_list_new())) {
        fprintf(stderr, "stackscope: out of memory\n");
        return 2;
    }
    int rc;
    if (c == 'p') {
        const char *script = ss_tf_preset(arg);
        char names[128];
        if (!script)
            return cli_usage_error("--preset: unknown preset '%s' (expected %s)", arg,
                                   ss_tf_preset_list(names, sizeof names));
        rc = ss_tf_append_script(t->list, script, strlen(script), "--preset", &err);
    } else if (c == 'e') {
        t->n_e++;
        rc = ss_tf_append(t->list, arg, &err);
        if (rc == SS_EUSAGE)
            return cli_usage_error("-e #%d %s", t->n_e, err.msg);
    } else {
        rc = ss_tf_append_script_file(t->list, arg, &err);
        if (rc == SS_EUSAGE)
            return cli_usage_error("%s", err.msg);
    }
    if (rc) {
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    return 0;
}

static int compare_phases_arg(struct cli_args *a, const char *arg)
{
    const char *comma = strchr(arg, ',');
    struct ss_phase_ref r[2];
    if (!comma || ss_phase_ref_parse(arg, (size_t)(comma - arg), &r[0]) ||
        ss_phase_ref_parse(comma + 1, strlen(comma + 1), &r[1]))
        return cli_usage_error("--compare-phases: expected two phases A,B (each a number from 1, "
                               "main, first or last: 1,main), not '%s'",
                               arg);
    for (int k = 0; k < 2; k++)
        ss_phase_ref_text(&r[k], a->phase_ref[k], sizeof a->phase_ref[k]);
    a->phase_cmp = 1;
    return 0;
}

static int base_arg(struct cli_args *a, char *file)
{
    if (a->nbases == MAX_BASES)
        return cli_usage_error("more than %d --base options", MAX_BASES);
    a->bases[a->nbases++] = file;
    return 0;
}

/* --interval DURATION: a positive number with a unit (ns, us, ms, s), at
 * most an hour; sets the interval of folded sources (load_folded.h). */
static int interval_arg(struct cli_args *a, const char *arg)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    static const struct {
        const char *unit;
        double us;
    } units[] = {{"ns", 1e-3}, {"us", 1}, {"ms", 1e3}, {"s", 1e6}};
    size_t u = 0;
    while (end != arg && u < ARRAY_SIZE(units) && strcmp(end, units[u].unit))
        u++;
    if (end == arg || errno || u == ARRAY_SIZE(units) || !(v > 0) || v * units[u].us > 3.6e9 ||
        v * units[u].us < 1e-3)
        return cli_usage_error(
            "--interval: '%s' is not a duration from 1ns to 1 hour with its unit "
            "(ns, us, ms or s: 1ms, 997us, 0.5s)",
            arg);
    a->load.folded_interval_us = v * units[u].us;
    return 0;
}

/* Parse a number in [lo, hi] for option `opt`; returns 0 or prints the error. */
static int number_arg(const char *opt, const char *arg, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(arg, &end);
    if (*arg == '\0' || *end || !(v >= lo && v <= hi)) {
        cli_usage_error("%s: expected a number from %g to %g, not '%s'", opt, lo, hi, arg);
        return -1;
    }
    *out = v;
    return 0;
}

struct cli_opt {
    const char *name; /* the long name, without "--" */
    char short_name;  /* 0: none */
    int has_arg;      /* no_argument, required_argument or (--help=roff only)
                       * optional_argument, which a short name does not take */
    const char *arg;  /* the argument as --help names it (or, for a flag, what follows it) */
    unsigned cmds;    /* IN_*: the commands that take it */
    int section;      /* where --help lists it (SEC_*) */
    int (*set)(struct cli_args *a, const char *arg);
    const char *help; /* --help's lines, '\n' between them; NULL: written from a
                       * table (--to: the formats, --by: the tables; see by_help) */
    const char *man;  /* its text in the man page's OPTIONS, roff (--help=roff);
                       * NULL: --help's text as a paragraph */
};

static int set_by(struct cli_args *a, const char *arg)
{
    const struct ss_report_table *tb = ss_report_table_named(arg);
    if (!tb) {
        char names[512];
        return cli_usage_error("--by: unknown table '%s' (expected %s)", arg,
                               ss_report_tables_with(0, names, sizeof names));
    }
    a->report.by = tb->by;
    return 0;
}

static int set_format(struct cli_args *a, const char *arg)
{
    if (!strcmp(arg, "text"))
        a->report.format = SS_FORMAT_TEXT;
    else if (!strcmp(arg, "tsv"))
        a->report.format = SS_FORMAT_TSV;
    else if (!strcmp(arg, "folded"))
        a->report.format = SS_FORMAT_FOLDED;
    else
        return cli_usage_error("--format: unknown format '%s' (expected text, tsv or folded)", arg);
    return 0;
}

static int set_memory(struct cli_args *a, const char *arg)
{
    (void)arg;
    a->report.memory = 1;
    return 0;
}

static int set_limit(struct cli_args *a, const char *arg)
{
    double v;
    if (number_arg("--limit", arg, 0, 1e9, &v))
        return 1;
    a->report.limit = (int)v;
    return 0;
}

static int set_sort(struct cli_args *a, const char *arg)
{
    static const struct {
        const char *name;
        enum ss_report_sort sort;
    } sorts[] = {{"self", SS_SORT_SELF}, {"total", SS_SORT_TOTAL}, {"position", SS_SORT_POSITION}};
    for (size_t i = 0; i < ARRAY_SIZE(sorts); i++)
        if (!strcmp(arg, sorts[i].name)) {
            a->report.sort = sorts[i].sort;
            return 0;
        }
    return cli_usage_error("--sort: unknown order '%s' (expected self, total or position)", arg);
}

static int set_level(struct cli_args *a, const char *arg)
{
    double v;
    if (number_arg("--level", arg, 1, 1e6, &v))
        return 1;
    a->report.level = (uint32_t)v;
    return 0;
}

static int set_function(struct cli_args *a, const char *arg)
{
    a->report.function = arg;
    return 0;
}

static int set_inverted(struct cli_args *a, const char *arg)
{
    (void)arg;
    a->report.inverted = 1;
    return 0;
}

static int set_depth(struct cli_args *a, const char *arg)
{
    double v;
    if (number_arg("--depth", arg, 0, 1e6, &v))
        return 1;
    a->report.depth = (int)v;
    return 0;
}

static int set_min_pct(struct cli_args *a, const char *arg)
{
    return number_arg("--min-pct", arg, 0, 100, &a->report.min_pct) ? 1 : 0;
}

static int set_width(struct cli_args *a, const char *arg)
{
    double v;
    if (number_arg("--width", arg, 1, 100000, &v))
        return 1;
    a->report.width = (int)v;
    return 0;
}

static int set_share(struct cli_args *a, const char *arg)
{
    return number_arg("--share", arg, 0.5, 1, &a->report.share) ? 1 : 0;
}

static int set_phases(struct cli_args *a, const char *arg)
{
    double v;
    if (number_arg("--phases", arg, 1, 100, &v))
        return 1;
    if (!ss_double_eq(v, (double)(size_t)v))
        return cli_usage_error("--phases: expected a whole number of phases, not '%s'", arg);
    a->report.phases = (size_t)v;
    return 0;
}

static int set_penalty(struct cli_args *a, const char *arg)
{
    return number_arg("--penalty", arg, 0.01, 1000, &a->report.penalty) ? 1 : 0;
}

static int set_output(struct cli_args *a, const char *arg)
{
    a->out = arg;
    return 0;
}

static int set_to(struct cli_args *a, const char *arg)
{
    char names[128];
    const struct ss_format *f = ss_format_named(arg);
    if (f && !ss_format_writable(f))
        return cli_usage_error("--to: stackscope reads %s but does not write it (it writes %s)",
                               arg, ss_format_names(names, sizeof names, ", ", " and "));
    if (!ss_format_writable(f))
        return cli_usage_error("--to: unknown format '%s' (expected %s)", arg,
                               ss_format_names(names, sizeof names, ", ", " or "));
    a->write.format = f->id;
    return 0;
}

static int set_force(struct cli_args *a, const char *arg)
{
    (void)arg;
    a->write.force = 1;
    a->report.force = 1;
    return 0;
}

static int set_svg_inverted(struct cli_args *a, const char *arg)
{
    (void)arg;
    a->svg.inverted = 1;
    return 0;
}

static int set_time_order(struct cli_args *a, const char *arg)
{
    (void)arg;
    a->svg.time_order = 1;
    return 0;
}

static int set_value(struct cli_args *a, const char *arg)
{
    a->value = arg;
    return 0;
}

static int set_base(struct cli_args *a, const char *arg)
{
    return base_arg(a, (char *)(uintptr_t)arg); /* argv's own string */
}

static int set_compare_phases(struct cli_args *a, const char *arg)
{
    return compare_phases_arg(a, arg);
}

static int set_alpha(struct cli_args *a, const char *arg)
{
    if (number_arg("--alpha", arg, 1e-12, 0.5, &a->alpha))
        return 1;
    return 0;
}

static int set_verdict(struct cli_args *a, const char *arg)
{
    static const char *const names[] = {"grew", "shrank", "changed"};
    for (int k = 0; k < 3; k++)
        if (!strcmp(arg, names[k])) {
            a->report.verdict = SS_REPORT_V_GREW + k;
            return 0;
        }
    return cli_usage_error("--verdict: unknown verdict '%s' (expected grew, shrank or changed)",
                           arg);
}

static int set_normalize(struct cli_args *a, const char *arg)
{
    (void)arg;
    a->normalize = 1;
    return 0;
}

static int set_mixed(struct cli_args *a, const char *arg)
{
    (void)arg;
    a->load.mixed = 1;
    return 0;
}

static int set_no_drop_frames(struct cli_args *a, const char *arg)
{
    (void)arg;
    a->load.no_drop_frames = 1;
    return 0;
}

static int set_interval(struct cli_args *a, const char *arg)
{
    return interval_arg(a, arg);
}

static int set_source_path(struct cli_args *a, const char *arg)
{
    if (a->nsource_paths == MAX_SOURCE_PATHS)
        return cli_usage_error("more than %d --source-path options", MAX_SOURCE_PATHS);
    a->source_paths[a->nsource_paths++] = arg;
    return 0;
}

static int set_source_map(struct cli_args *a, const char *arg)
{
    if (a->nsource_maps == MAX_SOURCE_PATHS)
        return cli_usage_error("more than %d --source-map options", MAX_SOURCE_PATHS);
    /* argv's own string: FROM ends where '=' was */
    if (ss_source_map_parse((char *)(uintptr_t)arg, &a->source_maps[a->nsource_maps]))
        return cli_usage_error(
            "--source-map: expected FROM=TO (a path prefix the profile names and "
            "where it is here), not '%s'",
            arg);
    a->nsource_maps++;
    return 0;
}

static int set_embed_sources(struct cli_args *a, const char *arg)
{
    (void)arg;
    a->embed_sources = 1;
    return 0;
}

static int set_follow(struct cli_args *a, const char *arg)
{
    if (!arg || !strcmp(arg, "start"))
        a->follow = 1;
    else if (!strcmp(arg, "end"))
        a->follow = 2;
    else
        return cli_usage_error("--follow: expected --follow or --follow=end, not --follow=%s", arg);
    return 0;
}

/* --keep DURATION: a number with a unit (s, m, h), 1 s to a week. */
static int set_keep(struct cli_args *a, const char *arg)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    static const struct {
        const char *unit;
        double s;
    } units[] = {{"s", 1}, {"m", 60}, {"h", 3600}};
    size_t u = 0;
    while (end != arg && u < ARRAY_SIZE(units) && strcmp(end, units[u].unit))
        u++;
    if (end == arg || errno || u == ARRAY_SIZE(units) || !(v * units[u].s >= 1) ||
        v * units[u].s > 7 * 86400.0)
        return cli_usage_error("--keep: '%s' is not a duration from 1s to a week with its unit "
                               "(s, m or h: 90s, 30m, 2h)",
                               arg);
    a->keep_s = v * units[u].s;
    return 0;
}

static int set_window(struct cli_args *a, const char *arg)
{
    a->window = arg; /* checked by the explorer, as :recent's */
    return 0;
}

static int set_resume(struct cli_args *a, const char *arg)
{
    (void)arg;
    a->resume = 1;
    return 0;
}

static int set_explorer_preset(struct cli_args *a, const char *arg)
{
    char names[128];
    if (!ss_tf_preset(arg))
        return cli_usage_error("--preset: unknown preset '%s' (expected %s)", arg,
                               ss_tf_preset_list(names, sizeof names));
    a->preset = arg;
    return 0;
}

static int set_transform(struct cli_args *a, const char *arg)
{
    return tf_option(&a->tf, 'e', arg);
}

static int set_script(struct cli_args *a, const char *arg)
{
    return tf_option(&a->tf, 's', arg);
}

static int set_preset(struct cli_args *a, const char *arg)
{
    return tf_option(&a->tf, 'p', arg);
}

static void print_help(FILE *out);
static void print_roff(FILE *out);

/* --help, or --help=roff: the man page's OPTIONS. */
static int set_help(struct cli_args *a, const char *arg)
{
    (void)a;
    if (arg && strcmp(arg, "roff"))
        return cli_usage_error("--help: expected --help or --help=roff, not '--help=%s'", arg);
    (arg ? print_roff : print_help)(stdout);
    return OPT_DONE;
}

static int set_version(struct cli_args *a, const char *arg)
{
    (void)a;
    (void)arg;
    printf("stackscope %s\n", PACKAGE_VERSION);
    return OPT_DONE;
}

static void by_help(struct ss_strbuf *b);
static void to_help(struct ss_strbuf *b);

#define RC (IN_REPORT | IN_CONVERT)
#define NOARG no_argument
#define ARG required_argument
#define OPTARG optional_argument

/* Every option, in --help's order. */
static const struct cli_opt cli_opts[] = {
    {"resume", 0, NOARG, "FILE...", IN_EXPLORER, SEC_TOP, set_resume,
     "apply the transform list of the last explorer\n"
     "session on FILE... again (kept on quitting in\n"
     "$XDG_STATE_HOME/stackscope/, by default\n"
     "~/.local/state/stackscope/; see FILES in\n"
     "stackscope(1))",
     "Apply the transform list of the last explorer session on the same\n"
     ".IR FILE s\n"
     "again: it is kept on quitting, in\n"
     ".BR $XDG_STATE_HOME/stackscope/ ,\n"
     "by default\n"
     ".B ~/.local/state/stackscope/\n"
     "(see\n"
     ".BR FILES )."},
    {"follow", 0, optional_argument, "[=end]", IN_EXPLORER, SEC_TOP, set_follow,
     "follow FILE as it is written (an R job under\n"
     "Rprof(), perf script, folded stacks): new\n"
     "samples are shown within a second, the\n"
     "transforms applied to them; =end: only the\n"
     "samples written from now on",
     "Follow\n"
     ".I FILE\n"
     "as it is written (an R job under\n"
     ".BR Rprof() ,\n"
     ".B perf script\n"
     "output, folded stacks): new samples are shown within a second, the\n"
     "transforms applied to them;\n"
     ".B \\-\\-follow=end\n"
     "shows only the samples written from now on (see\n"
     ".BR FOLLOWING )."},
    {"keep", 0, ARG, "DURATION", IN_EXPLORER, SEC_TOP, set_keep,
     "with --follow: keep only the samples of the last\n"
     "DURATION (90s, 30m, 2h), so that memory holds\n"
     "them and the distinct stacks, however long the\n"
     "file grows",
     "With\n"
     ".BR \\-\\-follow ,\n"
     "keep only the samples of the last\n"
     ".I DURATION\n"
     ".RB ( 90s \", \" 30m \", \" 2h ),\n"
     "so that memory holds them and the profile's distinct stacks however long\n"
     "the file grows; older samples are forgotten at each refresh (see\n"
     ".BR FOLLOWING )."},
    {"window", 0, ARG, "DURATION", IN_EXPLORER, SEC_TOP, set_window,
     "compare the last DURATION (10s, 500ms) with the\n"
     "run before it, normalized, after the transforms;\n"
     "with --follow the window moves as FILE grows\n"
     "(the explorer's :recent)",
     "Compare the last\n"
     ".I DURATION\n"
     ".RB ( 10s \", \" 500ms )\n"
     "of the profile with the run before it, normalized, after the transforms,\n"
     "as the explorer's\n"
     ".B :recent\n"
     "does; with\n"
     ".B \\-\\-follow\n"
     "the window moves as\n"
     ".I FILE\n"
     "grows (see\n"
     ".BR FOLLOWING )."},
    {"preset", 0, ARG, "NAME", IN_EXPLORER, SEC_TOP, set_explorer_preset,
     "start with a preset's transforms (undoable):\n"
     "  r  r-simplify, name-anonymous, trim-base auto\n"
     "  trim-burnin  keep-phase main: the burn-in and\n"
     "     fade-out found and dropped",
     "Start with a preset's transforms, as one step that can be undone:\n"
     ".B r\n"
     "is\n"
     ".BR r\\-simplify ,\n"
     ".B name\\-anonymous\n"
     "and\n"
     ".B \"trim\\-base auto\"\n"
     "(see\n"
     ".BR \"R PROFILES\" );\n"
     ".B trim\\-burnin\n"
     "is\n"
     ".BR \"keep\\-phase main\" ,\n"
     "the burn-in and fade-out found and dropped (see\n"
     ".BR PHASES )."},

    {"by", 0, ARG, "TABLE", IN_REPORT, SEC_REPORT, set_by, NULL,
     "The table:\n"
     ".B self\n"
     "(default): one row per function, ordered by self time;\n"
     ".B total\n"
     "the same rows ordered by total time;\n"
     ".B line\n"
     "one row per source position, R's\n"
     ".B lines=\"show\"\n"
     "table, ordered by file name and line number;\n"
     ".B list\n"
     "the source files, each line with its self and total (see\n"
     ".BR \"SOURCE FILES\" );\n"
     ".B stacks\n"
     "the distinct stacks (compared by their function names; positions are not\n"
     "part of a stack here), each with its reference count, time, share of the\n"
     "sampling time and depth, ordered by count; TSV columns\n"
     ".BR \"count time pct depth stack\" ,\n"
     "the stack written root first with its names joined by\n"
     ".BR ; ;\n"
     ".B levels\n"
     "one row per stack level (level 1 is the root, the outermost frame): the\n"
     "samples that reach the level, the number of distinct functions at it, the\n"
     "most frequent one and its samples; TSV columns\n"
     ".BR \"level samples distinct top top.samples\" ,\n"
     "then the measure at the level and the top function's (named by the\n"
     "measure:\n"
     ".BR \"time top.time\" );\n"
     "the top's share (text: top.pct) is by the measure;\n"
     "the text marks the scaffold (see\n"
     ".BR LEVELS ).\n"
     ".B runs\n"
     "recursive run lengths (see\n"
     ".BR \"RUN LENGTHS\" ):\n"
     "per function and level, the number of runs (about the number of calls),\n"
     "samples, mean, median and longest run; TSV columns\n"
     ".BR \"name level runs samples mean median max\" ,\n"
     "then the measure of the samples in the runs (named by it:\n"
     ".BR time ;\n"
     "for level\n"
     ".B all\n"
     "the function's total),\n"
     "level\n"
     ".B all\n"
     "for all levels of a function together;\n"
     ".B tree\n"
     "the call tree, top-down from the roots (with\n"
     ".B \\-\\-inverted\n"
     "bottom-up from the leaves) in depth-first order, children by total time\n"
     "(ties by name;\n"
     ".B \\-\\-sort\n"
     ".B self\n"
     "or\n"
     ".B position\n"
     "for another order);\n"
     "TSV columns\n"
     ".B \"depth name self total\"\n"
     "(seconds; depth 0 is a root), text indented with total and self as\n"
     "percentages (two spaces a level, at most 40 levels: a deeper node is\n"
     "indented as level 40 and its name follows its depth in brackets,\n"
     ".BR \"[1234] f\" );\n"
     ".B calls\n"
     "the callers and callees of\n"
     ".B \\-\\-function\n"
     ".I F\n"
     "with sample counts (an edge counts once per sample), like pprof's\n"
     ".BR peek ,\n"
     "each list by time\n"
     ".RB ( \"\\-\\-sort position\" :\n"
     "by name);\n"
     "TSV columns\n"
     ".BR \"relation name count time pct\" ;\n"
     ".B timeline\n"
     "the profile in time order at one level: the samples are cut into\n"
     "windows, each shown as the letter of the function most frequent at that\n"
     "level in it, with a legend and the sample ranges of each phase \\(em the\n"
     "way to see burn-in and fade-out (a phase here is a stretch of whole windows,\n"
     "so its ends differ by up to a window from the explorer's exact phase mark,\n"
     ".BR v );\n"
     "TSV columns\n"
     ".BR \"window first last top top.samples shallow\" ;\n"
     ".B phases\n"
     "the phases the detector found, one row each (see\n"
     ".BR PHASES ):\n"
     "the phase's number, its first and last sample (1-based sample numbers, as\n"
     ".B keep\\-samples\n"
     "counts them), its samples, the measure (named after it:\n"
     ".BR time ),\n"
     "its share of the measure and the function that most distinguishes it;\n"
     "TSV columns\n"
     ".BR \"phase first last samples time pct top\" ;\n"
     "text marks the main phase (the most samples)\n"
     ".B *\n"
     "and lists up to three distinguishing functions, each with the share of the\n"
     "phase's samples that have it below the scaffold;\n"
     ".B sources\n"
     "the input files and Rprof sessions: type, session number, header line,\n"
     "interval, flags, samples, the measure (named after it: its total over the\n"
     "source's samples with frames, as the profile's total adds them), pct (its\n"
     "share of the profile's total) and the measures the source has;\n"
     ".B labels\n"
     "one row per label the samples carry (pprof's labels, perf script's comm,\n"
     "pid and tid): key, value, count (the count values of the samples with\n"
     "the label), the measure (see\n"
     ".BR MEASURES ;\n"
     "time by default: the column is named after it; samples with no frames\n"
     "add none, as to the profile's total) and pct (of the profile's total);\n"
     "a sample with several labels counts in each of their rows, so the rows of\n"
     "one key add up to the samples that have that key (as Go's\n"
     ".BR \"pprof \\-tags\" );\n"
     "rows ordered by key, then the measure; TSV columns\n"
     ".BR \"key value count\" ,\n"
     "the measure's name,\n"
     ".BR pct ;\n"
     "a numeric label's value is its number, then a blank and its unit when it\n"
     "has one\n"
     ".RB ( \"1024 bytes\" );\n"
     "text ends with the number of samples without a label;\n"
     ".B transforms\n"
     "the transform list of\n"
     ".B \\-e\n"
     "and\n"
     ".B \\-\\-script\n"
     "with what each step did (see\n"
     ".BR TRANSFORMS ).\n"
     "SamplingProf files hold no stacks: with them only self, total, line, list,\n"
     "calls and sources (see\n"
     ".BR FORMATS ).\n"
     "Rows tied on time are ordered by name in byte order."},
    {"format", 0, ARG, "FORMAT", IN_REPORT, SEC_REPORT, set_format,
     "text (default, readable), tsv (tab-separated,\n"
     "full precision, every row) or folded (with\n"
     "--by stacks: 'root;...;leaf COUNT' lines)",
     ".B text\n"
     "(default) is a readable table headed by the file, its sessions (interval,\n"
     "flags, samples), the number of samples and the sampling time; times are\n"
     "rounded to milliseconds and percentages to two decimals.\n"
     ".B tsv\n"
     "is tab-separated with a header row, every row (also those whose self time\n"
     "is 0, which R leaves out) and full precision (15 significant digits).\n"
     "Columns:\n"
     ".B name self.time self.pct total.time total.pct\n"
     "(times in seconds, percentages of the sampling time), with\n"
     ".B \\-\\-by line\n"
     "the first column is\n"
     ".BR location .\n"
     ".B folded\n"
     "(only with\n"
     ".BR \"\\-\\-by stacks\" )\n"
     "prints one\n"
     ".I \"root;...;leaf COUNT\"\n"
     "line per distinct stack, the input of flamegraph.pl, inferno and\n"
     "speedscope; a name's own\n"
     ".B ;\n"
     "is written as it is."},
    {"memory", 0, NOARG, NULL, IN_REPORT, SEC_REPORT, set_memory,
     "add mem.total: MB allocated, as R's memory=\"both\"\n"
     "(list: alloc and released, the rise and fall\n"
     "of vector memory, as profvis's code pane)",
     "Add the column\n"
     ".BR mem.total :\n"
     "megabytes (1048576 bytes) allocated, as R's\n"
     ".BR memory=\"both\" .\n"
     "With\n"
     ".BR \"\\-\\-by list\" :\n"
     "the columns\n"
     ".B alloc\n"
     "and\n"
     ".B released\n"
     "instead (see\n"
     ".BR \"SOURCE FILES\" ).\n"
     "Only for profiles recorded with\n"
     ".BR \"Rprof(memory.profiling = TRUE)\" ."},
    {"sort", 0, ARG, "ORDER", IN_REPORT, SEC_REPORT, set_sort,
     "self, total or position (file and line): the\n"
     "order of the rows of self, total, line, list\n"
     "and stacks, of the siblings of tree, of the\n"
     "callers and callees of calls (total or\n"
     "position: by name) (default: the table's own)",
     "The order of the rows of\n"
     ".BR self ,\n"
     ".BR total ,\n"
     ".BR line ,\n"
     ".B list\n"
     "and\n"
     ".BR stacks ,\n"
     "of the children of each node of\n"
     ".B tree\n"
     "(and of the roots), of the callers and of the callees of\n"
     ".B calls\n"
     "(and of their comparisons):\n"
     ".B self\n"
     "and\n"
     ".B total\n"
     "the larger first (in a comparison the larger delta first; ties by the\n"
     "other, then by name),\n"
     ".B position\n"
     "by file and line (stacks: by their names root first; tree, calls: by\n"
     "the function's name).\n"
     ".B calls\n"
     "takes\n"
     ".B total\n"
     "(the call's time) and\n"
     ".BR position :\n"
     "a call has no self.\n"
     "Without it each table keeps its own order (self: self; total: total;\n"
     "line, list: position; stacks: count; tree, calls: total, ties by name).\n"
     "Any other table is a usage error: levels, timeline and phases have their\n"
     "rows in level or time order, and a run has no self and total."},
    {"limit", 0, ARG, "N", IN_REPORT, SEC_REPORT, set_limit,
     "print at most N rows (default all): the first N\n"
     "of the order; a table in file order (line,\n"
     "list) keeps its N heaviest rows (by self); tree:\n"
     "the N heaviest nodes; calls: N callers, N callees",
     "Print at most\n"
     ".I N\n"
     "rows (0, the default, prints all), in text and TSV: the first\n"
     ".I N\n"
     "in the table's order; a table in file order\n"
     ".RB ( \"\\-\\-by line\" ,\n"
     ".BR \"\\-\\-by list\" ,\n"
     "or\n"
     ".BR \"\\-\\-sort position\" )\n"
     "keeps its\n"
     ".I N\n"
     "heaviest rows (by self, then total; in a comparison by self delta) and\n"
     "prints them in file order, so that\n"
     ".B \"report \\-\\-by line \\-\\-limit 5\"\n"
     "shows the five hottest lines and\n"
     ".B \"report \\-\\-by line \\-\\-sort self \\-\\-limit 10\"\n"
     "the top ten, hottest first.\n"
     "A tree\n"
     ".RB ( \"\\-\\-by tree\" )\n"
     "keeps its\n"
     ".I N\n"
     "heaviest nodes by total (in a comparison, the larger of the two sides'\n"
     "totals); a node is never heavier than its parent, and ties keep the\n"
     "shallower, so what is kept is a tree, printed in the tree's order.\n"
     ".B \"\\-\\-by calls\"\n"
     "keeps the\n"
     ".I N\n"
     "heaviest callers and the\n"
     ".I N\n"
     "heaviest callees (in a comparison, the\n"
     ".I N\n"
     "largest growths of each).\n"
     "Text output ends with a line that says how many rows were left out.\n"
     "Every table takes it, in text and TSV alike (the timeline's drawing is not\n"
     "a table; its TSV windows are)."},
    {"level", 0, ARG, "K", IN_REPORT, SEC_REPORT, set_level,
     "runs: only level K; timeline: the level shown\n"
     "(default: the first level below the 95% scaffold)",
     "With\n"
     ".BR \"\\-\\-by runs\" :\n"
     "only level\n"
     ".IR K .\n"
     "With\n"
     ".BR \"\\-\\-by timeline\" :\n"
     "the level shown (default: the first level below the scaffold at a share\n"
     "of 0.95)."},
    {"function", 0, ARG, "F", IN_REPORT, SEC_REPORT, set_function,
     "runs: only F, with its level x run-length table;\n"
     "tree: the tree of F (what F calls, or with\n"
     "--inverted what calls F); calls: required;\n"
     "list: the lines of the functions the regular\n"
     "expression F matches",
     "With\n"
     ".BR \"\\-\\-by runs\" :\n"
     "only\n"
     ".IR F ,\n"
     "and in text its table of runs per level (rows) and run length (columns)\n"
     "with margins, as in the sprof vignette.\n"
     "With\n"
     ".BR \"\\-\\-by tree\" :\n"
     "the tree of\n"
     ".I F\n"
     "(what\n"
     ".I F\n"
     "calls; with\n"
     ".B \\-\\-inverted\n"
     "what calls it).\n"
     "Required with\n"
     ".BR \"\\-\\-by calls\" .\n"
     "With\n"
     ".BR \"\\-\\-by list\" :\n"
     "a regular expression (POSIX extended, unanchored, as the transforms'\n"
     ".BI / regex / \\fR)\\fP;\n"
     "the lines of the functions it matches, from five lines before the first\n"
     "to five after the last of each (pprof's\n"
     ".BR list )."},
    {"inverted", 0, NOARG, NULL, IN_REPORT, SEC_REPORT, set_inverted,
     "tree: bottom-up, from the leaves", "Tree: bottom-up."},
    {"depth", 0, ARG, "N", IN_REPORT, SEC_REPORT, set_depth, "tree: print N levels at most",
     "Tree: print\n"
     ".I N\n"
     "levels at most."},
    {"min-pct", 0, ARG, "P", IN_REPORT, SEC_REPORT, set_min_pct,
     "tree: leave out nodes under P% of the time",
     "Tree: leave out nodes (and their subtrees) under\n"
     ".IR P %\n"
     "of the tree's time."},
    {"width", 0, ARG, "N", IN_REPORT, SEC_REPORT, set_width, "timeline: N windows (default 80)",
     "Timeline: the number of windows (default 80)."},
    {"share", 0, ARG, "S", IN_REPORT, SEC_REPORT, set_share,
     "levels: a scaffold level has one function in a\n"
     "share S (0.5-1, default 1) of the samples",
     "Levels: a scaffold level has one function in a share\n"
     ".I S\n"
     "(0.5 to 1, default 1: every sample) of the samples."},
    {"phases", 0, ARG, "N", IN_REPORT, SEC_REPORT, set_phases,
     "phases: exactly N phases (1-100), the best cut\n"
     "into N; default: as many as the data shows",
     "Phases: exactly\n"
     ".I N\n"
     "phases (1 to 100), the cut into\n"
     ".I N\n"
     "of the least cost (each source still its own phases, each phase at least\n"
     "1% of the samples; a usage error says how many the profile can have)."},
    {"penalty", 0, ARG, "X", IN_REPORT, SEC_REPORT, set_penalty,
     "phases: the penalty per boundary times X (0.01-\n"
     "1000, default 1): above 1 fewer phases, below\n"
     "1 more (PHASES in stackscope(1))",
     "Phases: the penalty per boundary, and the least difference of mix\n"
     "between two neighbouring phases, times\n"
     ".I X\n"
     "(0.01 to 1000, default 1): above 1 fewer phases, below 1 more (see\n"
     ".BR PHASES )."},

    {"output", 'o', ARG, "OUT", IN_CONVERT, SEC_CONVERT, set_output,
     "the file to write (a directory for tables); - for\n"
     "standard output (with --to; not a terminal)",
     "The file to write (a directory for tables), its format given by\n"
     ".B \\-\\-to\n"
     "or by its name (see\n"
     ".BR COMMANDS );\n"
     ".B \\-\n"
     "for standard output, with\n"
     ".B \\-\\-to\n"
     "and not to a terminal."},
    {"to", 0, ARG, "FORMAT", IN_CONVERT, SEC_CONVERT, set_to, NULL, NULL},
    {"inverted", 0, NOARG, NULL, IN_CONVERT, SEC_CONVERT, set_svg_inverted,
     "svg: the leaves as roots, their callers below",
     "SVG: the leaves as roots, their callers below them (see\n"
     ".BR FORMATS \", \" SVG )."},
    {"time-order", 0, NOARG, NULL, IN_CONVERT, SEC_CONVERT, set_time_order,
     "svg: the flame chart, samples in time order (not\n"
     "merged across time, as profvis)",
     "SVG: the flame chart, samples in time order (not merged across time, as\n"
     "profvis), as the explorer's view\n"
     ".B F\n"
     "shows it with\n"
     ".BR o ."},
    {"embed-sources", 0, NOARG, NULL, IN_CONVERT, SEC_CONVERT, set_embed_sources,
     "tables: carry the source files the profile\n"
     "names (found as --source-path says) in\n"
     "source_lines.tsv, so that the code pane and\n"
     "report --by list work where they are not;\n"
     "each at most 1 MiB, 16 MiB in all",
     "Tables: carry the source files the profile names (found as\n"
     ".B \\-\\-source\\-path\n"
     "and\n"
     ".B \\-\\-source\\-map\n"
     "say) in\n"
     ".BR source_lines.tsv ,\n"
     "so that the code pane and\n"
     ".B \"report \\-\\-by list\"\n"
     "work where they are not; each at most 1 MiB, 16 MiB in all (see\n"
     ".BR \"SOURCE FILES\" )."},
    {"force", 0, NOARG, NULL, RC, SEC_CONVERT, set_force,
     "replace an existing OUT: a regular file or an earlier\n"
     "tables directory, never an input (man page: FILES);\n"
     "and write an output (convert's OUT, report's table)\n"
     "over 64 MiB and 100 times the inputs' size, which\n"
     "is refused without it (man page: OUTPUT SIZE)",
     "Replace an existing\n"
     ".I OUT\n"
     "of\n"
     ".BR convert :\n"
     "a regular file or an earlier tables directory, never an input (see\n"
     ".BR FILES ).\n"
     "And write an output over the size limit (over 64 MiB and 100 times the\n"
     "inputs' size; see\n"
     ".BR \"OUTPUT SIZE\" ):\n"
     ".BR convert 's\n"
     ".I OUT\n"
     "or a table\n"
     ".B report\n"
     "prints, which is refused without it."},

    {"interval", 0, ARG, "DURATION", RC | IN_EXPLORER, SEC_INPUT, set_interval,
     "the period of folded stacks: 1ms, 997us, 0.5s\n"
     "(report, convert and the explorer)",
     "The sampling interval of folded stacks, which carry none: a positive\n"
     "number with its unit,\n"
     ".BR ns \", \" us \", \" ms \" or \" s\n"
     ".RB ( 1ms \", \" 997us \", \" 0.5s ;\n"
     "1 ns to 1 hour), so that their times are counts times\n"
     ".IR DURATION ;\n"
     "without it a folded count is 1 second.\n"
     "It applies to every folded input of the command and to nothing else;\n"
     ".B convert\n"
     "and the explorer\n"
     ".RB ( \"stackscope \\-\\-interval 10ms FILE\" )\n"
     "take it too."},
    {"mixed", 0, NOARG, NULL, RC | IN_EXPLORER, SEC_INPUT, set_mixed,
     "keep inputs of different kinds (a CPU and a heap\n"
     "profile: other sample types) as separate sources,\n"
     "with a warning, as --value does; without either\n"
     "they are refused (report, convert, the explorer)",
     "Keep input files of different kinds (different sample types: a CPU and a\n"
     "heap profile) as separate sources, with a warning, instead of refusing\n"
     "them, as a chosen measure\n"
     ".RB ( \\-\\-value )\n"
     "does; see\n"
     ".BR FORMATS .\n"
     ".B convert\n"
     "and the explorer take it too."},
    {"no-drop-frames", 0, NOARG, NULL, RC | IN_EXPLORER, SEC_INPUT, set_no_drop_frames,
     "pprof: keep the frames that a profile's\n"
     "drop_frames (and keep_frames) remove; Go's pprof\n"
     "removes them, and so does stackscope by default",
     "Keep the frames that a pprof profile's\n"
     ".B drop_frames\n"
     "(and\n"
     ".BR keep_frames )\n"
     "would remove; Go's\n"
     ".B pprof\n"
     "removes them, and so does stackscope by default (see\n"
     ".BR PPROF ).\n"
     ".B convert\n"
     "and the explorer take it too."},

    {"value", 0, ARG, "NAME", RC | IN_EXPLORER, SEC_MEASURE, set_value,
     "what every number adds up: time (count x interval,\n"
     "the default for Rprof), samples, memory (bytes\n"
     "allocated, as R's memory=\"both\"), released\n"
     "(bytes released, as profvis), duplications; for\n"
     "pprof each sample type by name (alloc_space,\n"
     "inuse_space, cpu, delay, ...; default: the\n"
     "profile's default type, else its last); `check`\n"
     "lists each file's.  Text shows B/kB/MB/GB,\n"
     "ns/us/ms/s and counts with separators; TSV raw\n"
     "units, named in the header (self.memory)",
     "The measure every number adds up (see\n"
     ".BR MEASURES ):\n"
     ".BR time ,\n"
     ".BR samples ,\n"
     ".BR memory ,\n"
     ".BR released ,\n"
     ".BR duplications ,\n"
     "or a pprof sample type by name; the column headers name it\n"
     ".RB ( self.memory ).\n"
     "Also for\n"
     ".B convert\n"
     "and the explorer."},

    {"base", 0, ARG, "FILE", RC | IN_EXPLORER, SEC_COMPARE, set_base,
     "compare FILE... with this base (repeatable: bases\n"
     "combine); both sides get the same measure and\n"
     "transforms.  report --by self, total, line,\n"
     "stacks, tree, calls, levels, runs, timeline,\n"
     "labels: base, new and delta, largest growth\n"
     "first, and each row's verdict: grew, shrank or\n"
     "~ (no change told from noise; see --alpha);\n"
     "--by transforms: each step's effect on\n"
     "each side; --by sources: each side's sources,\n"
     "a total per side and the delta (every table\n"
     "compares);\n"
     "convert: pprof with the base negated (as pprof\n"
     "-diff_base), folded 'stack BASE NEW' lines or\n"
     "an SVG coloured by delta;\n"
     "explorer: X swaps base and new.  A pprof file\n"
     "with negative samples (pprof -proto -diff_base)\n"
     "is read as a comparison",
     "Compare the profile of\n"
     ".IR FILE ...\\&\n"
     "(the new profile) with this base; repeatable: several bases combine into\n"
     "one, as several inputs do.\n"
     "Both sides get the same measure and transforms.\n"
     ".B report\n"
     "prints base, new and delta, largest growth first, and each row's verdict\n"
     ".RB ( grew \", \" shrank \" or \" ~ :\n"
     "no change told from noise; see\n"
     ".BR \\-\\-alpha );\n"
     ".B convert\n"
     "writes pprof with the base negated (as\n"
     ".BR \"pprof \\-diff_base\" ),\n"
     "folded\n"
     ".I \"stack BASE NEW\"\n"
     "lines or an SVG coloured by delta; in the explorer\n"
     ".B X\n"
     "swaps base and new.\n"
     "A pprof file with negative samples\n"
     ".RB ( \"pprof \\-proto \\-diff_base\" )\n"
     "is read as a comparison.\n"
     "See\n"
     ".BR COMPARING ."},
    {"compare-phases", 0, ARG, "A,B", RC | IN_EXPLORER, SEC_COMPARE, set_compare_phases,
     "compare phase B of FILE... with its phase A (a\n"
     "number, main, first or last: 1,main compares the\n"
     "main work with the burn-in), both after the\n"
     "transforms, as --base does with a file; the\n"
     "explorer: :compare-phases A B",
     "Compare phase\n"
     ".I B\n"
     "of\n"
     ".IR FILE ...\\&\n"
     "with its phase\n"
     ".I A\n"
     "(each a number,\n"
     ".BR main \", \" first \" or \" last ),\n"
     "both after the transforms, as\n"
     ".B \\-\\-base\n"
     "does with a file;\n"
     ".B \"1,main\"\n"
     "compares the main work with the burn-in.\n"
     "In the explorer:\n"
     ".BR \":compare\\-phases A B\" .\n"
     "See\n"
     ".BR COMPARING ."},
    {"normalize", 0, NOARG, NULL, RC | IN_EXPLORER, SEC_COMPARE, set_normalize,
     "scale the base to the new profile's total",
     "Scale the base to the new profile's total (see\n"
     ".BR COMPARING )."},
    {"alpha", 0, ARG, "Q", RC | IN_EXPLORER, SEC_COMPARE, set_alpha,
     "the level of the verdicts (default 0.05): a row\n"
     "grew or shrank when its share of the profile\n"
     "changed beyond sampling noise, with a false\n"
     "discovery rate of Q over the table\n"
     "(Benjamini-Hochberg), else it is ~; the TSV's\n"
     "X.delta.lo/hi are the 1 - Q interval of the\n"
     "delta with --normalize.  One file a side:\n"
     "consecutive samples of a call count as one\n"
     "unit; several: Welch's t-test across the files",
     "The level of the verdicts (default 0.05): a row grew or shrank when its\n"
     "share of the profile changed beyond sampling noise, with a false discovery\n"
     "rate of\n"
     ".I Q\n"
     "over the table (Benjamini\\-Hochberg), else it is\n"
     ".BR ~ ;\n"
     "the TSV's\n"
     ".IB X .delta.lo\n"
     "and\n"
     ".IB X .delta.hi\n"
     "are the 1 \\- Q interval of the delta with\n"
     ".BR \\-\\-normalize .\n"
     "One file a side: consecutive samples of a call count as one unit;\n"
     "several: Welch's t-test across the files (see\n"
     ".BR COMPARING )."},
    {"verdict", 0, ARG, "V", IN_REPORT, SEC_COMPARE, set_verdict,
     "keep the rows that grew, shrank or changed (either)\n"
     "(--by self, line: by self; total, tree: by total;\n"
     "stacks, labels)",
     "Keep the rows that\n"
     ".BR grew ,\n"
     ".B shrank\n"
     "or\n"
     ".B changed\n"
     "(either):\n"
     ".B \\-\\-by self\n"
     "and\n"
     ".B line\n"
     "by the self verdict,\n"
     ".B total\n"
     "and\n"
     ".B tree\n"
     "by the total's; also\n"
     ".B stacks\n"
     "and\n"
     ".BR labels ."},

    {"source-path", 0, ARG, "DIR", RC | IN_EXPLORER, SEC_SOURCE, set_source_path,
     "look for source files under DIR too: DIR/PATH,\n"
     "then DIR/ and each shorter tail of PATH down to\n"
     "its basename (the longest that exists), as\n"
     "pprof's -source_path; repeatable",
     "Look for source files under\n"
     ".I DIR\n"
     "too:\n"
     ".IR DIR/PATH ,\n"
     "then\n"
     ".I DIR/\n"
     "and each shorter tail of\n"
     ".I PATH\n"
     "down to its basename (the longest that exists), as pprof's\n"
     ".BR \\-source_path ;\n"
     "repeatable (see\n"
     ".BR \"SOURCE FILES\" )."},
    {"source-map", 0, ARG, "FROM=TO", RC | IN_EXPLORER, SEC_SOURCE, set_source_map,
     "a path the profile names that starts FROM is\n"
     "looked for under TO (perf's --prefix): the\n"
     "machine that ran the profiler had the files\n"
     "under FROM; repeatable, tried first",
     "A path the profile names that starts with\n"
     ".I FROM\n"
     "is looked for under\n"
     ".I TO\n"
     "(perf's\n"
     ".BR \\-\\-prefix ):\n"
     "the machine that ran the profiler had the files under\n"
     ".IR FROM ;\n"
     "repeatable, tried first (see\n"
     ".BR \"SOURCE FILES\" )."},

    {"transform", 'e', ARG, "CMD", RC | IN_EXPLORER, SEC_TRANSFORM, set_transform,
     "apply a transform command; repeatable, applied in\n"
     "order after the profile is read:\n"
     "  drop-samples A:B   keep-samples A:B\n"
     "    (1-based sample numbers, -N from the end,\n"
     "    or times: 0.5s:2s, 100ms:)\n"
     "  trim-base N   trim-base auto[=SHARE][,all]\n"
     "    (auto stops at the user's code, a level\n"
     "    with source positions; ,all cuts it too)\n"
     "  trim-to F   focus F   drop F   merge F\n"
     "  prune F   collapse-recursion F\n"
     "  replace F1 F2 ... => NEW (F1 outermost)\n"
     "  class F => NAME\n"
     "  r-simplify   (merge R's evaluation machinery:\n"
     "    eval, tryCatch, source, cmpfun, ...)\n"
     "  name-anonymous [F]   (FUN, <Anonymous> named\n"
     "    FUN@FILE#LINE by their call site)\n"
     "  keep-label KEY[=VALUE]   drop-label KEY[=VALUE]\n"
     "    (samples with the label; VALUE a word,\n"
     "    a \"quoted value\" or a /regex/)\n"
     "  label-root KEY   (the label's value becomes\n"
     "    the outermost frame KEY=VALUE, as pprof's\n"
     "    -tagroot)\n"
     "  keep-phase P   drop-phase P   (P: a phase's\n"
     "    number, main, first or last, of the phases\n"
     "    found at that step: --by phases; add\n"
     "    phases=N or penalty=X as --phases, --penalty)\n"
     "  keep-line FILE#LINE   (the samples through\n"
     "    that source line, named as --by line does)\n"
     "F is a name, a \"quoted name\" or a /regex/;\n"
     "one that matches no function is warned about;\n"
     "the explorer starts with them (after --preset's\n"
     "and --resume's steps; one undo step)",
     "Apply a transform command; repeatable, applied in order after the profile\n"
     "is read (see\n"
     ".B TRANSFORMS\n"
     "for the commands and their exact rules);\n"
     "a function\n"
     ".I F\n"
     "that matches no function is warned about.\n"
     "The explorer starts with them, after the steps of\n"
     ".B \\-\\-preset\n"
     "and\n"
     ".BR \\-\\-resume ,\n"
     "as one undo step."},
    {"script", 0, ARG, "FILE", RC | IN_EXPLORER, SEC_TRANSFORM, set_script,
     "apply the commands in FILE, one per line ('#'\n"
     "starts a comment); mixes with -e in order",
     "Apply the commands in\n"
     ".IR FILE ,\n"
     "one per line\n"
     ".RB ( #\n"
     "starts a comment), in order with\n"
     ".BR \\-e ."},
    {"preset", 0, ARG, "NAME", RC, SEC_TRANSFORM, set_preset,
     "apply a preset (in order with -e and --script):\n"
     "  r  r-simplify, name-anonymous, trim-base auto\n"
     "  trim-burnin  keep-phase main",
     "Apply a preset, in order with\n"
     ".B \\-e\n"
     "and\n"
     ".BR \\-\\-script :\n"
     ".B r\n"
     "is\n"
     ".BR r\\-simplify ,\n"
     ".B name\\-anonymous\n"
     "and\n"
     ".B \"trim\\-base auto\"\n"
     "(see\n"
     ".BR \"R PROFILES\" );\n"
     ".B trim\\-burnin\n"
     "is\n"
     ".B \"keep\\-phase main\"\n"
     "(see\n"
     ".BR PHASES )."},

    {"help", 'h', OPTARG, NULL, RC | IN_EXPLORER | IN_CHECK, SEC_GENERAL, set_help,
     "show this help and exit",
     "Show the help and exit.\n"
     ".B \\-\\-help=roff\n"
     "prints this section, OPTIONS, as roff: it is made from the same table of\n"
     "options as the help."},
    {"version", 'V', NOARG, NULL, IN_EXPLORER, SEC_GENERAL, set_version,
     "show the version and exit", NULL},
};

#undef RC
#undef NOARG
#undef ARG
#undef OPTARG

/* --by's help, from the table of tables (report_common.h). */
static void by_help(struct ss_strbuf *b)
{
    ss_strbuf_printf(b, "the table to print:");
    for (size_t i = 0; i < ss_report_ntables; i++) {
        const struct ss_report_table *t = &ss_report_tables[i];
        if (strlen(t->name) > 8)
            ss_strbuf_printf(b, "\n  %s\n%11s", t->name, "");
        else
            ss_strbuf_printf(b, "\n  %-8s ", t->name);
        for (const char *h = t->help; *h;) {
            size_t len = strcspn(h, "\n");
            ss_strbuf_printf(b, "%.*s", (int)len, h);
            h += len;
            if (*h == '\n' && *++h)
                ss_strbuf_printf(b, "\n%11s", "");
        }
    }
    ss_strbuf_printf(b, "\n(SamplingProf files hold no stacks: self, total,\n"
                        "line, list, calls and sources only)");
}

/* --to's help, from the format table (format.h): the formats written and
 * the output names that imply each. */
static void to_help(struct ss_strbuf *b)
{
    char names[256], suffixes[512];
    ss_strbuf_printf(b,
                     "%s (pprof: gzip-compressed profile.proto; svg: the flame graph as an "
                     "interactive SVG); default from OUT's name: %s (or an existing directory: "
                     "tables)",
                     ss_format_names(names, sizeof names, ", ", " or "),
                     ss_format_suffix_help(suffixes, sizeof suffixes));
}

/* --help's text column: from column 25 to 79. */
#define HELP_COLUMN 25
#define HELP_WIDTH 54

/* Print text as --help lines of at most HELP_WIDTH bytes, broken at spaces;
 * the first line goes on after `w` bytes already printed. */
static void print_wrapped(FILE *out, const char *text, int w)
{
    const char *p = text;
    while (*p) {
        size_t len = strlen(p), cut = len;
        if (len > HELP_WIDTH) {
            cut = HELP_WIDTH;
            while (cut > 0 && p[cut] != ' ')
                cut--;
            if (cut == 0) /* one word longer than the column */
                cut = strcspn(p, " ");
        }
        fprintf(out, "%*s%.*s\n", HELP_COLUMN - w, "", (int)cut, p);
        w = 0;
        p += cut;
        while (*p == ' ')
            p++;
    }
}

static void print_help(FILE *out)
{
    fputs(help_head, out);
    for (size_t s = 0; s < ARRAY_SIZE(section_intro); s++) {
        fputs(section_intro[s], out);
        for (size_t i = 0; i < ARRAY_SIZE(cli_opts); i++) {
            const struct cli_opt *o = &cli_opts[i];
            if (o->section != (int)s)
                continue;
            int w = fprintf(out, "  ");
            if (o->short_name)
                w += fprintf(out, "-%c, ", o->short_name);
            w +=
                fprintf(out, "--%s%s%s", o->name,
                        o->arg && o->has_arg != optional_argument ? " " : "", o->arg ? o->arg : "");
            if (w >= HELP_COLUMN - 1) {
                fputc('\n', out);
                w = 0;
            }
            struct ss_strbuf b = SS_STRBUF_INIT;
            const char *help = o->help;
            if (!help) {
                /* from a table: lines with '\n' between them, else one
                 * paragraph to wrap */
                (o->set == set_by ? by_help : to_help)(&b);
                help = ss_strbuf_str(&b);
                if (!strchr(help, '\n')) {
                    print_wrapped(out, help, w);
                    ss_strbuf_free(&b);
                    continue;
                }
            }
            for (const char *h = help; *h;) {
                const char *nl = strchr(h, '\n');
                size_t len = nl ? (size_t)(nl - h) : strlen(h);
                fprintf(out, "%*s%.*s\n", HELP_COLUMN - w, "", (int)len, h);
                w = 0;
                h += len + (nl != NULL);
            }
            ss_strbuf_free(&b);
        }
        fputc('\n', out);
    }
    fputs(help_tail, out);
}

/* Write s as roff text: backslashes escaped, a line that would start with a
 * control character ('.' or '\'') protected, and a '-' a minus sign where it
 * starts a word (--to) or, with `minus`, everywhere (an option's name);
 * after a letter it is a hyphen (gzip-compressed). */
static void roff_text(FILE *out, const char *s, int minus)
{
    for (const char *p = s; *p; p++) {
        if ((p == s || p[-1] == '\n') && (*p == '.' || *p == '\''))
            fputs("\\&", out);
        if (*p == '\\')
            fputs("\\e", out);
        else if (*p == '-' && (minus || p == s || !isalnum((unsigned char)p[-1])))
            fputs("\\-", out);
        else
            fputc(*p, out);
    }
}

/* An option's text in the man page where it has none of its own: its
 * --help lines as one paragraph, a sentence (an indented line would make
 * roff break before it). */
static void roff_help(FILE *out, const struct cli_opt *o)
{
    struct ss_strbuf b = SS_STRBUF_INIT, t = SS_STRBUF_INIT;
    const char *h = o->help;
    if (!h) {
        (o->set == set_by ? by_help : to_help)(&b);
        h = ss_strbuf_str(&b);
    }
    while (*h) {
        h += strspn(h, " ");
        size_t len = strcspn(h, "\n");
        ss_strbuf_printf(&t, "%.*s\n", (int)len, h);
        h += len + (h[len] == '\n');
    }
    if (!t.failed && t.len > 1) {
        t.s[--t.len] = '\0'; /* the last newline */
        t.s[0] = (char)toupper((unsigned char)t.s[0]);
        roff_text(out, t.s, 0);
        fputs(t.s[t.len - 1] == '.' ? "\n" : ".\n", out);
    }
    ss_strbuf_free(&b);
    ss_strbuf_free(&t);
}

/* The man page's OPTIONS, from the table: each section's title and text,
 * then its options (stackscope(1), OPTIONS). */
static void print_roff(FILE *out)
{
    for (size_t s = 0; s < ARRAY_SIZE(section_man); s++) {
        fprintf(out, ".SS \"%s\"\n", section_man[s].title);
        if (section_man[s].intro)
            fprintf(out, "%s\n", section_man[s].intro);
        for (size_t i = 0; i < ARRAY_SIZE(cli_opts); i++) {
            const struct cli_opt *o = &cli_opts[i];
            if (o->section != (int)s)
                continue;
            fputs(".TP\n", out);
            if (o->short_name)
                fprintf(out, "\\fB\\-%c\\fR, ", o->short_name);
            fputs("\\fB\\-\\-", out);
            roff_text(out, o->name, 1);
            fputs("\\fR", out);
            if (o->arg) { /* --follow[=end]: no blank before an optional value */
                fputs(o->has_arg == optional_argument ? "\\fI" : " \\fI", out);
                roff_text(out, o->arg, 1);
                fputs("\\fR", out);
            }
            fputc('\n', out);
            if (o->man)
                fprintf(out, "%s\n", o->man);
            else
                roff_help(out, o);
        }
    }
}

/* The option of command `cmd` that getopt_long answered c for (a short
 * option's letter, or OPT_LONG + its index), or NULL. */
#define OPT_LONG 256
static const struct cli_opt *opt_for(unsigned cmd, int c)
{
    size_t n = ARRAY_SIZE(cli_opts);
    if (c >= OPT_LONG && (size_t)(c - OPT_LONG) < n)
        return &cli_opts[c - OPT_LONG];
    for (size_t i = 0; c > 0 && i < n; i++)
        if (cli_opts[i].short_name == c && (cli_opts[i].cmds & cmd))
            return &cli_opts[i];
    return NULL;
}

/* Parse the options of command a->cmd in argv[1..argc) (getopt_long, with
 * the arguments that are not options moved to the end) through the table.
 * Returns 0 with *first set to the first argument, an exit status, or
 * OPT_DONE (help or version printed). */
int cli_parse_options(struct cli_args *a, int argc, char **argv, int *first)
{
    struct option longs[ARRAY_SIZE(cli_opts) + 1];
    char shorts[2 * ARRAY_SIZE(cli_opts) + 2];
    size_t nl = 0, ns = 0;
    shorts[ns++] = ':'; /* a missing value answers ':', not '?' */
    for (size_t i = 0; i < ARRAY_SIZE(cli_opts); i++) {
        const struct cli_opt *o = &cli_opts[i];
        if (!(o->cmds & a->cmd))
            continue;
        longs[nl].name = o->name;
        longs[nl].has_arg = o->has_arg;
        longs[nl].flag = NULL;
        longs[nl++].val = OPT_LONG + (int)i;
        if (o->short_name) {
            shorts[ns++] = o->short_name;
            if (o->has_arg == required_argument)
                shorts[ns++] = ':';
        }
    }
    memset(&longs[nl], 0, sizeof longs[nl]);
    shorts[ns] = '\0';
    optind = 0; /* start afresh (GNU, BSD and musl all read 0 so) */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
        if (c == ':') {
            const struct cli_opt *o = opt_for(a->cmd, optopt);
            if (o && o->arg)
                return cli_usage_error("option '%s' needs a value (%s)", argv[optind - 1], o->arg);
            return cli_usage_error("option '%s' needs a value", argv[optind - 1]);
        }
        const struct cli_opt *o = c == '?' ? NULL : opt_for(a->cmd, c);
        if (!o)
            return cli_usage_error("unknown option '%s'", argv[optind - 1]);
        int rc = o->set(a, optarg);
        if (rc)
            return rc;
    }
    *first = optind;
    return 0;
}
