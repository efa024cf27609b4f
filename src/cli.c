/* cli.c - command-line front end of the core (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "config.h"
#include "compare.h"
#include "flame.h"
#include "load.h"
#include "report.h"
#include "report_compare.h"
#include "state.h"
#include "stats.h"
#include "textesc.h"
#include "transform.h"
#include "write.h"

static const char usage_text[] =
    "Usage: stackscope [--resume] [--preset r] [FILE...]\n"
    "       stackscope report [OPTIONS] FILE...\n"
    "       stackscope convert [OPTIONS] -o OUT FILE...\n"
    "       stackscope check FILE...\n"
    "\n"
    "Explore, trim and save sampling profiles (R's Rprof output; pprof\n"
    "profiles, gzip-compressed or raw, are read and written too).\n"
    "\n"
    "With no command, explore the profile FILE in the terminal (several files\n"
    "combine into one profile; no FILE: the bundled demo profile): views of\n"
    "functions, stacks, trees, timeline, levels, run lengths, source lines and\n"
    "the flame graph (F), trimmed with transforms and saved with :w FILE (:w\n"
    "F.svg: the flame graph as an interactive SVG); ? lists the keys.\n"
    "Without a terminal, or on one that cannot move the cursor (TERM=dumb),\n"
    "print what 'stackscope report FILE...' prints instead.\n"
    "\n"
    "  --resume FILE...       apply the transform list of the last explorer\n"
    "                         session on FILE... again (kept on quitting in\n"
    "                         $XDG_STATE_HOME/stackscope/, by default\n"
    "                         ~/.local/state/stackscope/; see FILES in\n"
    "                         stackscope(1))\n"
    "  --preset r             start with the R preset's transforms (r-simplify,\n"
    "                         name-anonymous, trim-base auto; undoable)\n"
    "\n"
    "Commands:\n"
    "  report     print one table and exit\n"
    "  convert    write the profile in another format\n"
    "  check      validate files; print a summary of each, or what is wrong\n"
    "\n"
    "Report options:\n"
    "  --by TABLE             the table to print:\n"
    "                           self     functions by self time (default)\n"
    "                           total    functions by total time\n"
    "                           line     source lines (R's lines=\"show\")\n"
    "                           stacks   distinct stacks with reference counts\n"
    "                           levels   stack levels (1 = root), scaffold marked\n"
    "                           runs     recursive run lengths per function and\n"
    "                                    level (~ calls and time per call)\n"
    "                           tree     call tree, top-down (--inverted: bottom-up)\n"
    "                           calls    callers and callees of --function F\n"
    "                           timeline the function at --level K over time\n"
    "                           sources  the input files and Rprof sessions\n"
    "                           labels   the samples' labels (pprof, perf):\n"
    "                                    key, value, count and the measure\n"
    "                           transforms\n"
    "                                    the transform list (-e, --script) and\n"
    "                                    what each step did\n"
    "                         (SamplingProf files hold no stacks: self, total,\n"
    "                         line, calls and sources only)\n"
    "  --format FORMAT        text (default, readable), tsv (tab-separated,\n"
    "                         full precision, every row) or folded (with\n"
    "                         --by stacks: 'root;...;leaf COUNT' lines)\n"
    "  --memory               add mem.total: MB allocated, as R's memory=\"both\"\n"
    "  --limit N              text: print at most N rows (default all)\n"
    "  --level K              runs: only level K; timeline: the level shown\n"
    "                         (default: the first level below the 95% scaffold)\n"
    "  --function F           runs: only F, with its level x run-length table;\n"
    "                         tree: the tree of F (what F calls, or with\n"
    "                         --inverted what calls F); calls: required\n"
    "  --inverted             tree: bottom-up, from the leaves\n"
    "  --depth N              tree: print N levels at most\n"
    "  --min-pct P            tree: leave out nodes under P% of the time\n"
    "  --width N              timeline: N windows (default 80)\n"
    "  --share S              levels: a scaffold level has one function in a\n"
    "                         share S (0.5-1, default 1) of the samples\n"
    "\n"
    "Convert options:\n"
    "  -o, --output OUT       the file to write (a directory for tables)\n"
    "  --to FORMAT            rprof, pprof (gzip-compressed profile.proto),\n"
    "                         folded, sampling_prof, tables, speedscope or svg\n"
    "                         (the flame graph as an interactive SVG); default\n"
    "                         from OUT's name (.out .prof .rprof, .pb.gz .pb\n"
    "                         .pprof, .folded .collapsed, .sprof.txt,\n"
    "                         .speedscope.json, .svg, a name ending in / or a\n"
    "                         directory)\n"
    "  --inverted             svg: the leaves as roots, their callers below\n"
    "  --time-order           svg: the flame chart, samples in time order (not\n"
    "                         merged across time, as profvis)\n"
    "  --force                replace an existing OUT: a regular file or an earlier\n"
    "                         tables directory, never an input (man page: FILES)\n"
    "\n"
    "Inputs (told from the content): Rprof files; pprof (gzip or raw\n"
    "profile.proto); SamplingProf files; Chrome/Node .cpuprofile JSON (node\n"
    "--cpu-prof, DevTools); speedscope JSON; perf script text; folded stacks\n"
    "('root;...;leaf COUNT' lines: counts, the samples measure, or times\n"
    "with --interval); a directory of v2 tables (what\n"
    "convert --to tables writes: one TSV per table, 1-based ids, R reads them\n"
    "with read.delim).\n"
    "Go's debug=1 text profiles are recognised and refused.\n"
    "  --interval DURATION    the period of folded stacks: 1ms, 997us, 0.5s\n"
    "                         (report, convert and the explorer)\n"
    "\n"
    "Measures (report, convert and the explorer; MEASURES in stackscope(1)):\n"
    "  --value NAME           what every number adds up: time (count x interval,\n"
    "                         the default for Rprof), samples, memory (bytes\n"
    "                         allocated, as R's memory=\"both\"), released\n"
    "                         (bytes released, as profvis), duplications; for\n"
    "                         pprof each sample type by name (alloc_space,\n"
    "                         inuse_space, cpu, delay, ...; default: the\n"
    "                         profile's default type, else its last); `check`\n"
    "                         lists each file's.  Text shows B/kB/MB/GB,\n"
    "                         ns/us/ms/s and counts with separators; TSV raw\n"
    "                         units, named in the header (self.memory)\n"
    "\n"
    "Comparing (report, convert and the explorer; COMPARING in stackscope(1)):\n"
    "  --base FILE            compare FILE... with this base (repeatable: bases\n"
    "                         combine); both sides get the same measure and\n"
    "                         transforms.  report --by self, total, line,\n"
    "                         stacks, tree, calls: base, new and delta,\n"
    "                         largest growth first;\n"
    "                         convert: pprof with the base negated (as pprof\n"
    "                         -diff_base), folded 'stack BASE NEW' lines or\n"
    "                         an SVG coloured by delta;\n"
    "                         explorer: X swaps base and new.  A pprof file\n"
    "                         with negative samples (pprof -proto -diff_base)\n"
    "                         is read as a comparison\n"
    "  --normalize            scale the base to the new profile's total\n"
    "\n"
    "Explorer options (no command):\n"
    "  --source-path DIR      look for source files (the lines view) under DIR\n"
    "                         too: DIR/PATH, then DIR/ and each shorter tail of\n"
    "                         PATH, as pprof's -source_path; repeatable\n"
    "\n"
    "Transform options (report and convert; see TRANSFORMS in stackscope(1)):\n"
    "  -e, --transform CMD    apply a transform command; repeatable, applied in\n"
    "                         order after the profile is read:\n"
    "                           drop-samples A:B   keep-samples A:B\n"
    "                             (1-based sample numbers, -N from the end,\n"
    "                             or times: 0.5s:2s, 100ms:)\n"
    "                           trim-base N   trim-base auto[=SHARE][,all]\n"
    "                             (auto stops at the user's code, a level\n"
    "                             with source positions; ,all cuts it too)\n"
    "                           trim-to F   focus F   drop F   merge F\n"
    "                           prune F   collapse-recursion F\n"
    "                           replace F1 F2 ... => NEW (F1 outermost)\n"
    "                           class F => NAME\n"
    "                           r-simplify   (merge R's evaluation machinery:\n"
    "                             eval, tryCatch, source, cmpfun, ...)\n"
    "                           name-anonymous [F]   (FUN, <Anonymous> named\n"
    "                             FUN@FILE#LINE by their call site)\n"
    "                           keep-label KEY[=VALUE]   drop-label KEY[=VALUE]\n"
    "                             (samples with the label; VALUE a word,\n"
    "                             a \"quoted value\" or a /regex/)\n"
    "                           label-root KEY   (the label's value becomes\n"
    "                             the outermost frame KEY=VALUE, as pprof's\n"
    "                             -tagroot)\n"
    "                         F is a name, a \"quoted name\" or a /regex/;\n"
    "                         one that matches no function is warned about\n"
    "  --script FILE          apply the commands in FILE, one per line ('#'\n"
    "                         starts a comment); mixes with -e in order\n"
    "  --preset r             apply the R preset: r-simplify, name-anonymous,\n"
    "                         trim-base auto (in order with -e and --script)\n"
    "\n"
    "  -h, --help             show this help and exit\n"
    "  -V, --version          show the version and exit\n"
    "\n"
    "Exit status: 0 success, 1 usage error, 2 bad input (the message names the\n"
    "file and line).  See stackscope(1).\n";

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Messages quote file names and arguments: their control characters are
 * escaped (textesc.h), as are the names in every line printed here. */
static int usage_error(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fputs("stackscope: ", stderr);
    ss_esc_fputs(msg, SS_ESC_TEXT, stderr);
    fprintf(stderr, "\nTry 'stackscope --help' for more information.\n");
    return 1;
}

const char *ss_demo_path(void)
{
    const char *env = getenv("STACKSCOPE_DEMO");
    if (env && *env)
        return env;
    static const char *const candidates[] = {SS_SRCDIR "/data/demo.out", SS_DATADIR "/demo.out"};
    for (size_t i = 0; i < sizeof candidates / sizeof *candidates; i++)
        if (access(candidates[i], R_OK) == 0)
            return candidates[i];
    return SS_DATADIR "/demo.out";
}

/* prefix, then s escaped, then a newline. */
static void print_line(FILE *out, const char *prefix, const char *s)
{
    fputs(prefix, out);
    ss_esc_fputs(s, SS_ESC_TEXT, out);
    fputc('\n', out);
}

static void print_warnings(FILE *out, const struct ss_model *m, const char *prefix)
{
    for (size_t i = 0; i < m->warnings.n; i++)
        print_line(out, prefix, m->warnings.v[i]);
}

static int finish_output(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "stackscope: error writing the output\n");
        return 2;
    }
    return 0;
}

static void print_measures(const struct ss_model *m, size_t s);

/* --value NAME: the measure every number adds up (DESIGN section 11). */
static const char *cli_value;

/* Warn once when sources lack the chosen measure (they weigh 0). */
static void warn_lacking(const struct ss_model *m)
{
    size_t n = m->weights.lacking;
    if (n)
        fprintf(stderr,
                "stackscope: warning: %zu source%s ha%s no '%s' values and weigh%s 0 (see "
                "`stackscope check` for the measures of each)\n",
                n, ss_s(n), n == 1 ? "s" : "ve", ss_model_measure_name(m), n == 1 ? "s" : "");
}

static int load_or_complain(struct ss_model *m, char *const *files, int n)
{
    struct ss_error err;
    ss_error_clear(&err);
    int rc = ss_load_files(m, files, n, &err);
    if (!rc && cli_value) {
        rc = ss_model_set_measure(m, cli_value, &err);
        if (rc) {
            ss_model_free(m);
            if (rc == SS_EUSAGE)
                return usage_error("--value: %s", err.msg);
        }
    }
    if (rc) {
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    print_warnings(stderr, m, "stackscope: warning: ");
    warn_lacking(m);
    return 0;
}

/* STACKSCOPE_TIMING=1: phase times on stderr (for bench/, never for tests). */
static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void timing(const char *phase, double *t0)
{
    static int on = -1;
    if (on < 0) {
        const char *e = getenv("STACKSCOPE_TIMING");
        on = e && *e && strcmp(e, "0") != 0;
    }
    double t = now_ms();
    if (on)
        fprintf(stderr, "stackscope: timing: %s %.1f ms\n", phase, t - *t0);
    *t0 = t;
}

/* The transform options of report and convert, in command-line order
 * (freed by ss_cli_main when the command returns). */
struct tf_opts {
    struct ss_tf_list *list;
    int n_e; /* -e options seen */
};
static struct tf_opts cli_tf;

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
        if (!script)
            return usage_error("--preset: unknown preset '%s' (expected r)", arg);
        rc = ss_tf_append_script(t->list, script, strlen(script), "--preset", &err);
    } else if (c == 'e') {
        t->n_e++;
        rc = ss_tf_append(t->list, arg, &err);
        if (rc == SS_EUSAGE)
            return usage_error("-e #%d %s", t->n_e, err.msg);
    } else {
        rc = ss_tf_append_script_file(t->list, arg, &err);
        if (rc == SS_EUSAGE)
            return usage_error("%s", err.msg);
    }
    if (rc) {
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    return 0;
}

/* Apply the transforms (if any) to the loaded *orig into *tm; *m is the one
 * to use.  Returns 0 or the exit status (orig freed then). */
static int transform_loaded(struct ss_model *orig, struct ss_model *tm, struct ss_model **m,
                            struct ss_tf_list *tf, double *t0)
{
    *m = orig;
    if (!tf)
        return 0;
    struct ss_error err;
    ss_error_clear(&err);
    int rc = ss_tf_apply(tf, orig, tm, &err);
    if (rc) {
        ss_model_free(orig);
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    timing("apply", t0);
    for (size_t i = orig->warnings.n; i < tm->warnings.n; i++)
        print_line(stderr, "stackscope: warning: ", tm->warnings.v[i]);
    for (size_t i = 0; i < ss_tf_count(tf); i++)
        if (ss_tf_no_match(tf, i)) {
            fputs("stackscope: warning: ", stderr);
            ss_esc_fputs(ss_tf_text(tf, i), SS_ESC_TEXT, stderr);
            fprintf(stderr, ": no %s matches\n", ss_tf_match_noun(tf, i));
        }
    *m = tm;
    return 0;
}

static void free_models(struct ss_model *orig, struct ss_model *m)
{
    if (m != orig)
        ss_model_free(m);
    ss_model_free(orig);
}

/* --base FILE (repeatable) and --normalize (DESIGN section 13): compare the
 * profile of FILE... with the base's (borrowed from argv). */
#define MAX_BASES 64
static char *cli_bases[MAX_BASES];
static int cli_nbases, cli_normalize;

/* The explorer's base, loaded with the profile (ss_cli_take_base). */
static struct ss_model *explorer_base;

char *const *ss_cli_base_files(int *n)
{
    *n = cli_nbases;
    return cli_bases;
}

struct ss_model *ss_cli_take_base(int *normalize)
{
    struct ss_model *b = explorer_base;
    explorer_base = NULL;
    *normalize = cli_normalize;
    return b;
}

static int base_arg(char *file)
{
    if (cli_nbases == MAX_BASES)
        return usage_error("more than %d --base options", MAX_BASES);
    cli_bases[cli_nbases++] = file;
    return 0;
}

/* Both sides of a comparison, each as loaded (orig) and as used (m: the
 * transformed copy or orig); b is NULL when nothing is compared. */
struct sides {
    struct ss_model orig, tm, *m;
    struct ss_model borig, btm, *b;
};

static void sides_free(struct sides *s)
{
    free_models(&s->orig, s->m);
    if (s->b)
        free_models(&s->borig, s->b);
}

/* Load FILE... and the bases (or split a difference profile into its two
 * sides), weigh both by the same measure and apply the transforms to each.
 * Returns 0 or the exit status (nothing to free then). */
static int load_sides(struct sides *s, char *const *files, int nfiles, struct ss_tf_list *tf,
                      double *t0)
{
    s->b = NULL;
    int rc = load_or_complain(&s->orig, files, nfiles);
    if (rc)
        return rc;
    struct ss_error err;
    ss_error_clear(&err);
    const char *base_name = cli_nbases ? cli_bases[0] : files[0];
    if (ss_model_is_comparison(&s->orig)) {
        if (cli_nbases) {
            ss_model_free(&s->orig);
            return usage_error("%s is a difference profile (its negative samples are its base): "
                               "it takes no --base",
                               files[0]);
        }
        struct ss_model whole = s->orig;
        rc = ss_compare_split(&whole, &s->borig, &s->orig, &err);
        if (!rc) {
            rc = ss_model_set_measure(&s->orig, ss_model_measure_name(&whole), &err);
            if (rc) {
                ss_model_free(&s->orig);
                ss_model_free(&s->borig);
            }
        }
        ss_model_free(&whole);
        if (rc) {
            fprintf(stderr, "stackscope: %s\n", err.msg);
            return ss_exit_status((enum ss_errcode)rc);
        }
    } else if (cli_nbases) {
        rc = load_or_complain(&s->borig, cli_bases, cli_nbases);
        if (rc) {
            ss_model_free(&s->orig);
            return rc;
        }
    } else {
        timing("load", t0);
        return transform_loaded(&s->orig, &s->tm, &s->m, tf, t0);
    }
    rc = ss_compare_check_measure(&s->borig, &s->orig, base_name, cli_value != NULL, &err);
    if (rc) {
        ss_model_free(&s->orig);
        ss_model_free(&s->borig);
        if (rc == SS_EUSAGE)
            return usage_error("%s", err.msg);
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    timing("load", t0);
    rc = transform_loaded(&s->orig, &s->tm, &s->m, tf, t0);
    if (rc) {
        ss_model_free(&s->borig);
        return rc;
    }
    rc = transform_loaded(&s->borig, &s->btm, &s->b, tf, t0);
    if (rc) {
        s->b = NULL;
        free_models(&s->orig, s->m);
        return rc;
    }
    return 0;
}

static int report_run(char *const *files, int nfiles, const struct ss_report_opts *o,
                      struct ss_tf_list *tf)
{
    static struct sides sd;
    double t0 = now_ms();
    int rc = load_sides(&sd, files, nfiles, tf, &t0);
    if (rc)
        return rc;
    struct ss_model *m = sd.m;
    if (!sd.b && cli_normalize) {
        sides_free(&sd);
        return usage_error("%s", "--normalize goes with --base");
    }
    if (sd.b && o->memory) {
        sides_free(&sd);
        return usage_error("%s", "--memory does not go with --base: compare memory with "
                                 "--value memory");
    }
    if (o->memory && !ss_model_has_memory(m)) {
        sides_free(&sd);
        return usage_error("--memory: %s has no memory profiling data (record it with "
                           "Rprof(memory.profiling = TRUE))",
                           files[0]);
    }
    if (o->by == SS_REPORT_LINE && !ss_model_has_lines(m)) {
        sides_free(&sd);
        return usage_error("--by line: %s has no line profiling data (record it with "
                           "Rprof(line.profiling = TRUE))",
                           files[0]);
    }
    struct ss_error err;
    ss_error_clear(&err);
    char note[1024];
    rc = ss_report_check_stacks(m, o->by, note, sizeof note, &err);
    if (!rc && note[0])
        print_line(stderr, "stackscope: note: ", note);
    if (!rc) {
        if (tf && o->format == SS_FORMAT_TEXT && o->by != SS_REPORT_TRANSFORMS)
            for (size_t i = 0; i < ss_tf_count(tf); i++)
                if (ss_tf_enabled(tf, i))
                    print_line(stdout, "transform  ", ss_tf_text(tf, i));
        struct ss_report_opts ro = *o;
        ro.transforms = tf;
        if (sd.b) {
            struct ss_compare cmp;
            ss_compare_init(&cmp, sd.b, m, cli_normalize);
            rc = ss_report_compare(stdout, &cmp, &ro, &err);
        } else {
            rc = ss_report(stdout, m, &ro, &err);
        }
    }
    timing("report", &t0);
    sides_free(&sd);
    if (rc == SS_EUSAGE)
        return usage_error("%s", err.msg);
    if (rc) {
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    return finish_output();
}

static const struct {
    const char *name;
    enum ss_report_by by;
} by_names[] = {
    {"self", SS_REPORT_SELF},
    {"total", SS_REPORT_TOTAL},
    {"line", SS_REPORT_LINE},
    {"stacks", SS_REPORT_STACKS},
    {"levels", SS_REPORT_LEVELS},
    {"runs", SS_REPORT_RUNS},
    {"tree", SS_REPORT_TREE},
    {"calls", SS_REPORT_CALLS},
    {"timeline", SS_REPORT_TIMELINE},
    {"sources", SS_REPORT_SOURCES},
    {"transforms", SS_REPORT_TRANSFORMS},
    {"labels", SS_REPORT_LABELS}, /* pprof and perf labels */
    {NULL, SS_REPORT_SELF},
};

/* Parse a number in [lo, hi] for option `opt`; returns 0 or prints the error. */
/* --interval DURATION: a positive number with a unit (ns, us, ms, s), at
 * most an hour; sets the interval of folded sources (load_folded.h). */
static int interval_arg(const char *arg)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    static const struct {
        const char *unit;
        double us;
    } units[] = {{"ns", 1e-3}, {"us", 1}, {"ms", 1e3}, {"s", 1e6}};
    size_t u = 0;
    while (end != arg && u < sizeof units / sizeof *units && strcmp(end, units[u].unit))
        u++;
    if (end == arg || errno || u == sizeof units / sizeof *units || !(v > 0) ||
        v * units[u].us > 3.6e9 || v * units[u].us < 1e-3)
        return usage_error("--interval: '%s' is not a duration from 1ns to 1 hour with its unit "
                           "(ns, us, ms or s: 1ms, 997us, 0.5s)",
                           arg);
    ss_load_set_folded_interval(v * units[u].us);
    return 0;
}

static int number_arg(const char *opt, const char *arg, double lo, double hi, double *out)
{
    char *end;
    double v = strtod(arg, &end);
    if (*arg == '\0' || *end || !(v >= lo && v <= hi)) {
        usage_error("%s: expected a number from %g to %g, not '%s'", opt, lo, hi, arg);
        return -1;
    }
    *out = v;
    return 0;
}

static int cmd_report(int argc, char **argv)
{
    static const struct option opts[] = {
        {"by", required_argument, NULL, 'b'},        {"format", required_argument, NULL, 'f'},
        {"memory", no_argument, NULL, 'm'},          {"limit", required_argument, NULL, 'l'},
        {"level", required_argument, NULL, 'L'},     {"function", required_argument, NULL, 'F'},
        {"inverted", no_argument, NULL, 'I'},        {"depth", required_argument, NULL, 'D'},
        {"min-pct", required_argument, NULL, 'P'},   {"width", required_argument, NULL, 'W'},
        {"share", required_argument, NULL, 'S'},     {"help", no_argument, NULL, 'h'},
        {"transform", required_argument, NULL, 'e'}, {"script", required_argument, NULL, 's'},
        {"interval", required_argument, NULL, 'i'},  {"preset", required_argument, NULL, 'p'},
        {"value", required_argument, NULL, 'V'},     {"base", required_argument, NULL, 'B'},
        {"normalize", no_argument, NULL, 'N'},       {NULL, 0, NULL, 0},
    };
    double v;
    struct ss_report_opts o;
    memset(&o, 0, sizeof o);
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":he:", opts, NULL)) != -1) {
        switch (c) {
        case 'e':
        case 's':
        case 'p':
            if ((rc = tf_option(&cli_tf, c, optarg)) != 0)
                return rc;
            break;
        case 'i':
            if ((rc = interval_arg(optarg)) != 0)
                return rc;
            break;
        case 'V':
            cli_value = optarg;
            break;
        case 'B':
            if ((rc = base_arg(optarg)) != 0)
                return rc;
            break;
        case 'N':
            cli_normalize = 1;
            break;
        case 'b': {
            size_t k = 0;
            while (by_names[k].name && strcmp(by_names[k].name, optarg))
                k++;
            if (!by_names[k].name)
                return usage_error("--by: unknown table '%s' (expected self, total, line, stacks, "
                                   "levels, runs, tree, calls, timeline, sources, labels or "
                                   "transforms)",
                                   optarg);
            o.by = by_names[k].by;
            break;
        }
        case 'f':
            if (!strcmp(optarg, "text"))
                o.format = SS_FORMAT_TEXT;
            else if (!strcmp(optarg, "tsv"))
                o.format = SS_FORMAT_TSV;
            else if (!strcmp(optarg, "folded"))
                o.format = SS_FORMAT_FOLDED;
            else
                return usage_error("--format: unknown format '%s' (expected text, tsv or folded)",
                                   optarg);
            break;
        case 'm':
            o.memory = 1;
            break;
        case 'l':
            if (number_arg("--limit", optarg, 0, 1e9, &v))
                return 1;
            o.limit = (int)v;
            break;
        case 'L':
            if (number_arg("--level", optarg, 1, 1e6, &v))
                return 1;
            o.level = (uint32_t)v;
            break;
        case 'F':
            o.function = optarg;
            break;
        case 'I':
            o.inverted = 1;
            break;
        case 'D':
            if (number_arg("--depth", optarg, 0, 1e6, &v))
                return 1;
            o.depth = (int)v;
            break;
        case 'P':
            if (number_arg("--min-pct", optarg, 0, 100, &v))
                return 1;
            o.min_pct = v;
            break;
        case 'W':
            if (number_arg("--width", optarg, 1, 100000, &v))
                return 1;
            o.width = (int)v;
            break;
        case 'S':
            if (number_arg("--share", optarg, 0.5, 1, &v))
                return 1;
            o.share = v;
            break;
        case 'h':
            fputs(usage_text, stdout);
            return finish_output();
        case ':':
            return usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind >= argc)
        return usage_error("%s", "report: no FILE given");
    if (o.format == SS_FORMAT_FOLDED && o.by != SS_REPORT_STACKS)
        return usage_error("%s", "--format folded goes with --by stacks");
    if (o.memory && o.by != SS_REPORT_SELF && o.by != SS_REPORT_TOTAL && o.by != SS_REPORT_LINE)
        return usage_error("%s", "--memory goes with --by self, total or line");
    /* An option the chosen table does not use is an error, not silently ignored. */
    int runs = o.by == SS_REPORT_RUNS, tree = o.by == SS_REPORT_TREE,
        timeline = o.by == SS_REPORT_TIMELINE;
    if (o.level && !runs && !timeline)
        return usage_error("%s", "--level goes with --by runs or timeline");
    if (o.function && !runs && !tree && o.by != SS_REPORT_CALLS)
        return usage_error("%s", "--function goes with --by runs, tree or calls");
    if ((o.inverted || o.depth || o.min_pct > 0) && !tree)
        return usage_error("%s", "--inverted, --depth and --min-pct go with --by tree");
    if (o.width && !timeline)
        return usage_error("%s", "--width goes with --by timeline");
    if (o.share > 0 && o.by != SS_REPORT_LEVELS)
        return usage_error("%s", "--share goes with --by levels");
    return report_run(argv + optind, argc - optind, &o, cli_tf.list);
}

/* A conversion killed by a signal removes its temporary output, then dies
 * of the signal.  Past a file size limit (SIGXFSZ) the write fails with
 * EFBIG instead, and the error path cleans up and says so. */
static void on_fatal_signal(int sig)
{
    ss_write_abandon();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void clean_up_on_signals(void)
{
    static const int fatal[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGSEGV, SIGBUS, SIGABRT};
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < sizeof fatal / sizeof *fatal; i++)
        sigaction(fatal[i], &sa, NULL);
    signal(SIGXFSZ, SIG_IGN);
}

static char **convert_inputs;

static int cmd_convert(int argc, char **argv)
{
    static const struct option opts[] = {
        {"output", required_argument, NULL, 'o'},    {"to", required_argument, NULL, 't'},
        {"force", no_argument, NULL, 'f'},           {"help", no_argument, NULL, 'h'},
        {"transform", required_argument, NULL, 'e'}, {"script", required_argument, NULL, 's'},
        {"interval", required_argument, NULL, 'i'},  {"preset", required_argument, NULL, 'p'},
        {"value", required_argument, NULL, 'V'},     {"inverted", no_argument, NULL, 'I'},
        {"time-order", no_argument, NULL, 'O'},      {"base", required_argument, NULL, 'B'},
        {"normalize", no_argument, NULL, 'N'},       {NULL, 0, NULL, 0},
    };
    struct ss_flame_opts svg = {0, 0, SS_FLAME_BY_NAME};
    struct ss_write_opts w;
    memset(&w, 0, sizeof w);
    const char *out = NULL;
    int c, rc;
    optind = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:e:", opts, NULL)) != -1) {
        switch (c) {
        case 'e':
        case 's':
        case 'p':
            if ((rc = tf_option(&cli_tf, c, optarg)) != 0)
                return rc;
            break;
        case 'i':
            if ((rc = interval_arg(optarg)) != 0)
                return rc;
            break;
        case 'V':
            cli_value = optarg;
            break;
        case 'B':
            if ((rc = base_arg(optarg)) != 0)
                return rc;
            break;
        case 'N':
            cli_normalize = 1;
            break;
        case 'o':
            out = optarg;
            break;
        case 't':
            if (ss_format_named(optarg) && !ss_format_writable(ss_format_named(optarg))) {
                char names[128];
                return usage_error("--to: stackscope reads %s but does not write it (it writes "
                                   "%s)",
                                   optarg, ss_format_names(names, sizeof names, ", ", " and "));
            }
            if (!ss_format_writable(ss_format_named(optarg))) {
                char names[128];
                return usage_error("--to: unknown format '%s' (expected %s)", optarg,
                                   ss_format_names(names, sizeof names, ", ", " or "));
            }
            w.format = ss_format_named(optarg)->id;
            break;
        case 'f':
            w.force = 1;
            break;
        case 'I':
            svg.inverted = 1;
            break;
        case 'O':
            svg.time_order = 1;
            break;
        case 'h':
            fputs(usage_text, stdout);
            return finish_output();
        case ':':
            return usage_error("option '%s' needs a value", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!out)
        return usage_error("%s", "convert: no output given (-o OUT)");
    if ((svg.inverted || svg.time_order) && w.format != SS_OUT_SVG &&
        !(w.format == SS_OUT_NONE && ss_format_for_path(out) &&
          ss_format_for_path(out)->id == SS_OUT_SVG))
        return usage_error("%s", "convert: --inverted and --time-order go with an SVG output");
    ss_svg_set_opts(&svg);
    if (optind >= argc)
        return usage_error("%s", "convert: no FILE given");
    if (!w.format && !ss_format_for_path(out)) {
        char names[128];
        return usage_error("%s: cannot tell the output format from the name; use --to %s", out,
                           ss_format_names(names, sizeof names, "|", "|"));
    }
    /* the inputs an output may not replace: the bases too (freed by
     * ss_cli_main) */
    char **inputs = convert_inputs = malloc((size_t)(argc - optind + cli_nbases) * sizeof *inputs);
    if (!inputs) {
        fprintf(stderr, "stackscope: out of memory\n");
        return 2;
    }
    for (int i = optind; i < argc; i++)
        inputs[i - optind] = argv[i];
    for (int i = 0; i < cli_nbases; i++)
        inputs[argc - optind + i] = cli_bases[i];
    w.inputs = inputs;
    w.n_inputs = argc - optind + cli_nbases;
    static struct sides sd;
    double t0 = now_ms();
    rc = load_sides(&sd, argv + optind, argc - optind, cli_tf.list, &t0);
    if (rc)
        return rc;
    struct ss_error err;
    ss_error_clear(&err);
    struct ss_model merged, *m = sd.m;
    if (sd.b) {
        /* one model: the new samples, then the base's flagged for the writers */
        struct ss_compare cmp;
        ss_compare_init(&cmp, sd.b, sd.m, cli_normalize);
        rc = ss_compare_merge(&cmp, &merged, &err);
        if (!rc)
            m = &merged;
    } else if (cli_normalize) {
        sides_free(&sd);
        return usage_error("%s", "--normalize goes with --base");
    }
    clean_up_on_signals();
    if (!rc)
        rc = ss_write_file(m, out, &w, &err);
    timing("write", &t0);
    if (m == &merged)
        ss_model_free(&merged);
    sides_free(&sd);
    if (rc) {
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    return 0;
}

/* The `check` summary of aggregate source src: call elements, edges,
 * samples, runtime and the interval derived from them. */
static void agg_summary(FILE *out, const struct ss_model *m, ss_id src)
{
    size_t nel = 0, ned = 0;
    for (size_t i = 0; i < m->aggs.n; i++)
        nel += m->aggs.v[i].source == src;
    for (size_t i = 0; i < m->edges.n; i++)
        ned += m->edges.v[i].source == src;
    const char *runtime = NULL;
    for (size_t i = 0; i < m->meta.n; i++)
        if (m->meta.v[i].source == src && !strcmp(ss_str(m, m->meta.v[i].key), "runtime_ms"))
            runtime = ss_str(m, m->meta.v[i].value);
    const struct ss_source *s = &m->sources.v[src];
    struct ss_esc esc = SS_ESC_INIT(SS_ESC_TEXT); /* a tables directory sets both */
    fprintf(out,
            "  %s: aggregates only (no stacks): %zu call elements, %zu call-graph edges, "
            "%llu sample%s",
            ss_esc(&esc, ss_str(m, s->type)), nel, ned, (unsigned long long)ss_agg_samples(m, src),
            ss_s(ss_agg_samples(m, src)));
    if (runtime)
        fprintf(out, ", runtime %s ms", ss_esc(&esc, runtime));
    ss_esc_free(&esc);
    fprintf(out, ", interval %.6g ms per sample\n", s->interval_us / 1000.0);
}

/* check's line about labels: how many, on how many rows, which keys (the
 * first ten in order of appearance). */
static void label_summary(const struct ss_model *m)
{
    size_t rows = 0, nkeys = 0;
    for (size_t i = 0; i < m->sample_labels.n; i++)
        rows += m->sample_labels.v[i] != 0;
    printf("  labels: %zu distinct on %zu of %zu rows; keys:", m->labels.n, rows,
           m->sample_stack.n);
    ss_id seen[10];
    for (size_t l = 0; l < m->labels.n; l++) {
        ss_id key = m->labels.v[l].key;
        size_t k = 0;
        while (k < nkeys && seen[k] != key)
            k++;
        if (k < nkeys)
            continue; /* shown already */
        if (nkeys == 10) {
            fputs(" ...", stdout);
            break;
        }
        seen[nkeys++] = key;
        fputc(' ', stdout);
        ss_esc_fputs(ss_str(m, key), SS_ESC_TEXT, stdout);
    }
    fputc('\n', stdout);
}

static void check_summary(const struct ss_model *m, const char *path)
{
    size_t maxdepth = 0;
    for (size_t s = 0; s < ss_model_nstacks(m); s++)
        if (ss_stack_depth(m, (ss_id)s) > maxdepth)
            maxdepth = ss_stack_depth(m, (ss_id)s);
    struct ss_totals t;
    ss_model_totals(m, &t);
    size_t empty = t.empty_rows;
    ss_esc_fputs(path, SS_ESC_TEXT, stdout);
    fputs(": ok\n", stdout);
    for (size_t i = 0; i < m->sources.n; i++) {
        const struct ss_source *s = &m->sources.v[i];
        char iv[32];
        unsigned long long ns = ss_model_count(m, s->first_sample, s->n_samples);
        ss_format_interval(iv, sizeof iv, s->interval_us);
        if (s->flags & SS_SRC_AGGREGATE) {
            agg_summary(stdout, m, (ss_id)i);
            continue;
        }
        char where[48] = "";
        if (s->header_line)
            snprintf(where, sizeof where, " (line %u)", s->header_line);
        struct ss_esc type = SS_ESC_INIT(SS_ESC_TEXT);
        if (s->flags & SS_SRC_UNTIMED)
            snprintf(iv, sizeof iv, "untimed");
        printf("  session %u%s: %s, %s%s%s%s%s, %llu sample%s%s\n", s->session, where,
               ss_esc(&type, ss_str(m, s->type)), s->flags & SS_SRC_UNTIMED ? "" : "interval ", iv,
               s->flags & SS_SRC_MEMORY ? ", memory" : "", s->flags & SS_SRC_GC ? ", GC" : "",
               s->flags & SS_SRC_LINE ? ", line" : "", ns, ss_s(ns),
               s->flags & SS_SRC_BASE ? " (the base of a difference profile: its negative "
                                        "samples, negated)"
                                      : "");
        ss_esc_free(&type);
        print_measures(m, i);
    }
    if (ss_model_has_stack_sources(m)) {
        unsigned long long counted = t.samples - t.agg_samples;
        if (counted != m->sample_stack.n)
            printf("  samples: %llu counted in %zu rows (%zu with no frames)\n", counted,
                   m->sample_stack.n, empty);
        else
            printf("  samples: %zu (%zu with no frames)\n", m->sample_stack.n, empty);
        printf("  stacks: %zu distinct, deepest %zu frame%s\n", ss_model_nstacks(m), maxdepth,
               ss_s(maxdepth));
    }
    printf("  functions: %zu, locations: %zu\n", m->functions.n, m->locations.n);
    if (ss_model_has_labels(m))
        label_summary(m);
    print_warnings(stdout, m, "  warning: ");
}

/* The measures source s has (`check`), the default first. */
static void print_measures(const struct ss_model *m, size_t s)
{
    struct ss_measure ms[SS_SOURCE_VALUE_BITS + 8];
    size_t n = ss_model_measures(m, ms, sizeof ms / sizeof *ms);
    if (n > sizeof ms / sizeof *ms)
        n = sizeof ms / sizeof *ms;
    struct ss_esc e = SS_ESC_INIT(SS_ESC_TEXT);
    int first = 1;
    for (size_t k = 0; k < n; k++) {
        if (!ss_source_has_measure(m, s, &ms[k]))
            continue;
        printf("%s%s", first ? "    measures: " : ", ", ss_esc(&e, ss_measure_name(m, &ms[k])));
        if (k == 0)
            fputs(" (default)", stdout);
        first = 0;
    }
    if (!first)
        fputc('\n', stdout);
    ss_esc_free(&e);
}

static int cmd_check(int argc, char **argv)
{
    if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        fputs(usage_text, stdout);
        return finish_output();
    }
    if (argc < 2)
        return usage_error("%s", "check: no FILE given");
    int status = 0;
    for (int i = 1; i < argc; i++) {
        struct ss_model m;
        struct ss_error err;
        ss_error_clear(&err);
        int rc = ss_load_files(&m, argv + i, 1, &err);
        if (rc) {
            ss_esc_fputs(argv[i], SS_ESC_TEXT, stdout);
            printf(": error\n  %s\n", err.msg);
            fprintf(stderr, "stackscope: %s\n", err.msg);
            status = 2;
            continue;
        }
        check_summary(&m, argv[i]);
        ss_model_free(&m);
    }
    int w = finish_output();
    return status ? status : w;
}

/* The explorer's --source-path directories (borrowed from argv). */
#define MAX_SOURCE_PATHS 64
static const char *source_paths[MAX_SOURCE_PATHS];
static size_t nsource_paths;

const char *const *ss_cli_source_paths(size_t *n)
{
    *n = nsource_paths;
    return source_paths;
}

/* Take the explorer's `--source-path DIR` / `--source-path=DIR` out of
 * argv[1..*argc).  Returns 0 or the exit status of a usage error. */
static int take_source_paths(int *argc, char **argv)
{
    int k = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i], *dir = NULL;
        if (!strcmp(a, "--")) {
            while (i < *argc)
                argv[k++] = argv[i++];
            break;
        }
        if (!strcmp(a, "--interval") || !strncmp(a, "--interval=", 11)) {
            if (!a[10] && i + 1 >= *argc)
                return usage_error("%s", "--interval needs a duration (1ms, 997us)");
            int rc = interval_arg(a[10] ? a + 11 : argv[++i]);
            if (rc)
                return rc;
            continue;
        }
        if (!strcmp(a, "--value") || !strncmp(a, "--value=", 8)) {
            if (!a[7] && i + 1 >= *argc)
                return usage_error("%s", "--value needs a measure (time, samples, memory, ...)");
            cli_value = a[7] ? a + 8 : argv[++i];
            continue;
        }
        if (!strcmp(a, "--base") || !strncmp(a, "--base=", 7)) {
            if (!a[6] && i + 1 >= *argc)
                return usage_error("%s", "--base needs a file (the profile to compare with)");
            int rc = base_arg(a[6] ? (char *)a + 7 : argv[++i]);
            if (rc)
                return rc;
            continue;
        }
        if (!strcmp(a, "--normalize")) {
            cli_normalize = 1;
            continue;
        }
        if (!strcmp(a, "--source-path")) {
            if (i + 1 >= *argc)
                return usage_error("%s", "--source-path needs a directory");
            dir = argv[++i];
        } else if (!strncmp(a, "--source-path=", 14)) {
            dir = a + 14;
        } else {
            argv[k++] = argv[i];
            continue;
        }
        if (nsource_paths == MAX_SOURCE_PATHS)
            return usage_error("more than %d --source-path options", MAX_SOURCE_PATHS);
        source_paths[nsource_paths++] = dir;
    }
    *argc = k;
    return 0;
}

int ss_cli_main(int argc, char **argv, const struct ss_cli_ui *ui)
{
    if (argc >= 2 && strcmp(argv[1], "report") && strcmp(argv[1], "convert") &&
        strcmp(argv[1], "check")) {
        int rc = take_source_paths(&argc, argv);
        if (rc)
            return rc;
    }
    if (argc >= 2) {
        const char *a = argv[1];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return finish_output();
        }
        if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
            printf("stackscope %s\n", PACKAGE_VERSION);
            return finish_output();
        }
        if (!strcmp(a, "report") || !strcmp(a, "convert")) {
            int rc = a[0] == 'r' ? cmd_report(argc - 1, argv + 1) : cmd_convert(argc - 1, argv + 1);
            ss_tf_list_free(cli_tf.list);
            memset(&cli_tf, 0, sizeof cli_tf);
            free(convert_inputs);
            convert_inputs = NULL;
            return rc;
        }
        if (!strcmp(a, "check"))
            return cmd_check(argc - 1, argv + 1);
        if (a[0] == '-' && a[1] != '\0' && strcmp(a, "--resume") && strcmp(a, "--preset") &&
            strncmp(a, "--preset=", 9))
            return usage_error("unknown option '%s'", a);
    }
    /* The explorer on FILE... (the demo when no FILE is given); without a
     * terminal (stackscope FILE | less), the report of the profile, as
     * `stackscope report FILE...` prints it.  --resume FILE...: with the
     * transform list of the last session on FILE... (state.h). */
    char *demo[1];
    char **files = argv + 1;
    int n = argc - 1;
    struct ss_tf_list *resumed = NULL;
    const char *preset = NULL;
    int resume = 0;
    /* --resume and --preset NAME, in any order, before the files */
    while (n > 0) {
        if (!strcmp(files[0], "--resume")) {
            resume = 1;
            files++;
            n--;
        } else if (!strcmp(files[0], "--preset") || !strncmp(files[0], "--preset=", 9)) {
            if (files[0][8] == '=') {
                preset = files[0] + 9;
            } else if (n < 2) {
                return usage_error("%s", "--preset needs a name (r)");
            } else {
                preset = files[1];
                files++;
                n--;
            }
            files++;
            n--;
        } else {
            break;
        }
    }
    if (resume || preset) {
        if (!(resumed = ss_tf_list_new())) {
            fprintf(stderr, "stackscope: out of memory\n");
            return 2;
        }
    }
    if (preset) {
        const char *script = ss_tf_preset(preset);
        struct ss_error err;
        ss_error_clear(&err);
        if (!script) {
            ss_tf_list_free(resumed);
            return usage_error("--preset: unknown preset '%s' (expected r)", preset);
        }
        if (ss_tf_append_script(resumed, script, strlen(script), "--preset", &err)) {
            ss_tf_list_free(resumed);
            fprintf(stderr, "stackscope: %s\n", err.msg);
            return 2;
        }
    }
    if (n == 0) {
        demo[0] = (char *)ss_demo_path();
        files = demo;
        n = 1;
    }
    if (resume) {
        struct ss_error err;
        ss_error_clear(&err);
        int rc = ss_state_load(files, n, resumed, &err);
        if (rc) {
            ss_tf_list_free(resumed);
            fprintf(stderr, "stackscope: %s\n", err.msg);
            return ss_exit_status((enum ss_errcode)rc);
        }
    }
    if (ui && ui->available()) {
        static struct sides sd; /* the base stays here until the UI takes it */
        double t0 = now_ms();
        int rc = load_sides(&sd, files, n, NULL, &t0);
        if (rc) {
            ss_tf_list_free(resumed);
            return rc;
        }
        if (!sd.b && cli_normalize) {
            ss_model_free(&sd.orig);
            ss_tf_list_free(resumed);
            return usage_error("%s", "--normalize goes with --base");
        }
        explorer_base = sd.b;
        return ui->run(&sd.orig, files, n, resumed);
    }
    struct ss_report_opts o;
    memset(&o, 0, sizeof o);
    int rc = report_run(files, n, &o, resumed);
    ss_tf_list_free(resumed);
    return rc;
}
