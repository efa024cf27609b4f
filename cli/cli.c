/* cli.c - command-line front end of the core (see cli.h). */
#include "cli.h"
#include "options.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "compare.h"
#include "explore.h"
#include "flame.h"
#include "follow.h"
#include "load.h"
#include "outlimit.h"
#include "report.h"
#include "report_compare.h"
#include "source.h"
#include "state.h"
#include "stats.h"
#include "textesc.h"
#include "transform.h"
#include "write.h"
#include "vec.h"
#include "strbuf.h"

const char *ss_demo_path(void)
{
    const char *env = getenv("STACKSCOPE_DEMO");
    if (env && *env)
        return env;
    static const char *const candidates[] = {SS_SRCDIR "/data/demo.out", SS_DATADIR "/demo.out"};
    for (size_t i = 0; i < ARRAY_SIZE(candidates); i++)
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

static void print_measures(const struct ss_model *m, size_t s, const struct ss_measure *ms,
                           size_t n);

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

/* ---- progress (stackscope(1), ENVIRONMENT: a load over half a second shows it)
 *
 * On standard error when it is a terminal (report, convert, and the
 * explorer before its first screen): one line, redrawn in place at most ten
 * times a second and erased when the load ends.  STACKSCOPE_PROGRESS=always
 * (for tests) shows every report at once, one per line, whatever stderr is. */
struct progress {
    int mode;           /* 0 off, 1 a terminal, 2 always (tests) */
    double start, last; /* ms: the load's start, the last line drawn */
    uint64_t before;    /* bytes of the files already read */
    const char *path;   /* the file being read */
    uint64_t done;
    volatile sig_atomic_t shown; /* a line is on the terminal */
};
/* File scope, unlike the options (struct cli_args): the signal handler
 * (on_fatal_signal) erases the line it says is shown. */
static struct progress prog;

static double now_ms(void);

static void progress_report(void *ctx, const struct ss_progress *p)
{
    (void)ctx;
    if (p->path != prog.path) { /* the next file */
        prog.before += prog.done;
        prog.path = p->path;
    }
    prog.done = p->done;
    double t = now_ms();
    if (prog.mode == 1 && (t - prog.start < 500 || t - prog.last < 100))
        return;
    prog.last = t;
    double secs = (t - prog.start) / 1e3, mb = 1024.0 * 1024.0;
    double rate = secs > 0 ? (double)(prog.before + p->done) / mb / secs : 0;
    char of[64] = "";
    if (p->total)
        snprintf(of, sizeof of, " of %.1f MB (%.0f%%)", (double)p->total / mb,
                 100.0 * (double)p->done / (double)p->total);
    char files[64] = "";
    if (p->nfiles > 1)
        snprintf(files, sizeof files, " (file %d of %d)", p->file + 1, p->nfiles);
    struct ss_esc e = SS_ESC_INIT(SS_ESC_TEXT);
    fprintf(stderr, "%sstackscope: loading %s%s: %.1f MB%s, %llu samples, %.0f MB/s%s",
            prog.mode == 1 ? "\r" : "", ss_esc(&e, p->path), files, (double)p->done / mb, of,
            (unsigned long long)p->samples, rate, prog.mode == 1 ? "\033[K" : "\n");
    ss_esc_free(&e);
    fflush(stderr);
    prog.shown = prog.mode == 1;
}

/* Erase the progress line (async-signal-safe: a signal handler calls it). */
static void progress_erase(void)
{
    if (prog.shown) {
        prog.shown = 0;
        ssize_t w = write(STDERR_FILENO, "\r\033[K", 4);
        (void)w;
    }
}

static void progress_start(void)
{
    const char *e = getenv("STACKSCOPE_PROGRESS");
    prog.mode = e && !strcmp(e, "always") ? 2 : isatty(STDERR_FILENO) ? 1 : 0;
    if (e && !strcmp(e, "never"))
        prog.mode = 0;
    prog.start = prog.last = now_ms();
    prog.before = prog.done = 0;
    prog.path = NULL;
}

static void progress_stop(void)
{
    progress_erase();
}

/* A conversion killed by a signal removes its temporary output, then dies
 * of the signal.  Past a file size limit (SIGXFSZ) the write fails with
 * EFBIG instead, and the error path cleans up and says so. */
static void on_fatal_signal(int sig)
{
    progress_erase();
    ss_write_abandon();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Catch sig with on_fatal_signal, keeping its old action in *old, unless
 * it is ignored: under nohup, or as a background job of a script, a
 * hang-up or C-c stays ignored. */
static void catch_fatal(int sig, struct sigaction *old)
{
    struct sigaction sa, cur;
    if (sigaction(sig, NULL, &cur) == 0 && cur.sa_handler == SIG_IGN) {
        if (old)
            *old = cur;
        return;
    }
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, old);
}

static void clean_up_on_signals(void)
{
    static const int fatal[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGSEGV, SIGBUS, SIGABRT};
    for (size_t i = 0; i < ARRAY_SIZE(fatal); i++)
        catch_fatal(fatal[i], NULL);
    signal(SIGXFSZ, SIG_IGN);
}

/* During a load: C-c, a kill or a hang-up (not the crash signals, whose
 * sanitizer reports stay as they are) erase the progress line and die;
 * after it, the actions they had before are back. */
static const int interrupts[] = {SIGINT, SIGTERM, SIGHUP};

/* Catch the interrupts, keeping their old actions in old[] (the caller's,
 * as many as interrupts[]). */
static void clean_up_on_interrupt(struct sigaction *old)
{
    for (size_t i = 0; i < ARRAY_SIZE(interrupts); i++)
        catch_fatal(interrupts[i], &old[i]);
}

static void interrupt_restore(const struct sigaction *old)
{
    for (size_t i = 0; i < ARRAY_SIZE(interrupts); i++)
        sigaction(interrupts[i], &old[i], NULL);
}

static int load_or_complain(struct cli_args *a, struct ss_model *m, char *const *files, int n)
{
    struct ss_error err;
    ss_error_clear(&err);
    /* a chosen measure weighs mixed kinds of file (stackscope(1), MEASURES) */
    if (a->value)
        a->load.mixed = 1;
    /* C-c during a load: the progress line erased, a temporary output
     * removed, dead of the signal (exit status 130) at once */
    struct sigaction old[ARRAY_SIZE(interrupts)];
    clean_up_on_interrupt(old);
    progress_start();
    struct ss_load_opts o = a->load;
    o.progress = prog.mode ? progress_report : NULL;
    int rc = ss_load_files(m, files, n, &o, &err);
    progress_stop();
    interrupt_restore(old);
    if (!rc && a->value) {
        rc = ss_model_set_measure(m, a->value, &err);
        if (rc) {
            ss_model_free(m);
            if (rc == SS_EUSAGE)
                return cli_usage_error("--value: %s", err.msg);
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

/* --follow FILE: what FILE holds now read as the profile (--follow=end:
 * only its headers), into m initialised and not sealed, and a->followed
 * following it for more.  Returns 0 or the exit status. */
static int follow_or_complain(struct cli_args *a, struct ss_model *m, char *const *files, int n)
{
    if (n != 1)
        return cli_usage_error("--follow follows one file (%d given)", n);
    struct ss_error err;
    ss_error_clear(&err);
    int rc = ss_model_init(m, &err);
    if (!rc)
        rc = ss_follow_open(&a->followed, m, files[0], a->follow == 2, a->load.folded_interval_us,
                            &err);
    for (struct ss_follow_news nw = {0, 1, 0}; !rc && nw.bytes;)
        rc = ss_follow_poll(a->followed, m, &nw, &err);
    if (!rc && (rc = ss_model_set_measure(m, a->value, &err)) == SS_EUSAGE) {
        ss_follow_free(a->followed, NULL);
        a->followed = NULL;
        ss_model_free(m);
        return cli_usage_error("--value: %s", err.msg);
    }
    if (rc) {
        ss_follow_free(a->followed, NULL);
        a->followed = NULL;
        ss_model_free(m);
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    print_warnings(stderr, m, "stackscope: warning: ");
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
    const char *e = getenv("STACKSCOPE_TIMING");
    double t = now_ms();
    if (e && *e && strcmp(e, "0") != 0)
        fprintf(stderr, "stackscope: timing: %s %.1f ms\n", phase, t - *t0);
    *t0 = t;
}

/* Warn about the steps of tf that matched nothing: in a comparison
 * (compared), those that matched nothing on either side, and name the side
 * of those that matched on one side only. */
static void warn_no_match(struct ss_tf_list *tf, int compared)
{
    for (size_t i = 0; i < ss_tf_count(tf); i++) {
        int n = ss_tf_no_match(tf, i), b = compared && ss_tf_base_no_match(tf, i);
        if (!n && !b)
            continue;
        const char *where = !compared || (n && b) ? "" : n ? " in the new profile" : " in the base";
        fputs("stackscope: warning: ", stderr);
        ss_esc_fputs(ss_tf_text(tf, i), SS_ESC_TEXT, stderr);
        fprintf(stderr, ": no %s matches%s\n", ss_tf_match_noun(tf, i), where);
    }
}

/* Apply tf (if any) to the loaded orig giving *tm (*m: the model to use);
 * side 0: a profile alone (warns about steps that match nothing), 1: the
 * new profile of a comparison, 2: its base (load_sides warns after both).
 * Returns 0 or the exit status (orig freed then). */
static int transform_loaded(struct ss_model *orig, struct ss_model *tm, struct ss_model **m,
                            struct ss_tf_list *tf, int side, double *t0)
{
    *m = orig;
    if (!tf)
        return 0;
    struct ss_error err;
    ss_error_clear(&err);
    /* a comparison's base keeps its own effects (report --by transforms) */
    int rc = side == 2 ? ss_tf_apply_base(tf, orig, tm, &err) : ss_tf_apply(tf, orig, tm, &err);
    if (rc) {
        ss_model_free(orig);
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    timing("apply", t0);
    for (size_t i = orig->warnings.n; i < tm->warnings.n; i++)
        print_line(stderr, "stackscope: warning: ", tm->warnings.v[i]);
    if (side == 0)
        warn_no_match(tf, 0);
    *m = tm;
    return 0;
}

static void free_models(struct ss_model *orig, struct ss_model *m)
{
    if (m != orig)
        ss_model_free(m);
    ss_model_free(orig);
}

/* Both sides of a comparison, each as loaded (orig) and as used (m: the
 * transformed copy or orig); b is NULL when nothing is compared.  Two
 * phases of one profile (--compare-phases) have no borig: tm and btm both
 * come from orig. */
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

/* The two sides of --compare-phases (the phases a names): s->m is the new
 * profile's phase, s->b the base's, both from s->orig through the list tf
 * (NULL: none). */
static int phase_sides(const struct cli_args *a, struct sides *s, struct ss_tf_list *tf, double *t0)
{
    struct ss_tf_list *empty = tf ? NULL : ss_tf_list_new();
    struct ss_tf_list *l = tf ? tf : empty;
    struct ss_error err;
    ss_error_clear(&err);
    char cmd[2][64];
    for (int k = 0; k < 2; k++)
        snprintf(cmd[k], sizeof cmd[k], "keep-phase %s", a->phase_ref[k]);
    int rc = l ? 0 : ss_nomem(&err, "transform list");
    if (!rc)
        rc = ss_tf_apply_then(l, &s->orig, cmd[1], 0, &s->tm, NULL, &err);
    if (!rc && (rc = ss_tf_apply_then(l, &s->orig, cmd[0], 1, &s->btm, NULL, &err)) != 0)
        ss_model_free(&s->tm);
    ss_tf_list_free(empty);
    if (rc) {
        ss_model_free(&s->orig);
        if (rc == SS_EUSAGE)
            return cli_usage_error("--compare-phases: %s", err.msg);
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    timing("apply", t0);
    for (size_t i = s->orig.warnings.n; i < s->tm.warnings.n; i++)
        print_line(stderr, "stackscope: warning: ", s->tm.warnings.v[i]);
    if (tf)
        warn_no_match(tf, 1);
    s->m = &s->tm;
    s->b = &s->btm;
    return 0;
}

/* Load FILE... and the bases (or split a difference profile into its two
 * sides), weigh both by the same measure and apply the transforms to each
 * (explorer: not --compare-phases, which the explorer applies itself).
 * Returns 0 or the exit status (nothing to free then). */
static int load_sides(struct cli_args *a, struct sides *s, char *const *files, int nfiles,
                      struct ss_tf_list *tf, int explorer, double *t0)
{
    s->b = NULL;
    if (a->phase_cmp && a->nbases)
        return cli_usage_error("%s", "--compare-phases compares two phases of FILE...: it takes no "
                                     "--base");
    int rc = a->follow ? follow_or_complain(a, &s->orig, files, nfiles)
                       : load_or_complain(a, &s->orig, files, nfiles);
    if (rc)
        return rc;
    struct ss_error err;
    ss_error_clear(&err);
    const char *base_name = a->nbases ? a->bases[0] : files[0];
    if (ss_model_is_comparison(&s->orig)) {
        if (a->nbases || a->phase_cmp) {
            ss_model_free(&s->orig);
            return cli_usage_error(
                "%s is a difference profile (its negative samples are its base): "
                "it takes no --base or --compare-phases",
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
    } else if (a->nbases) {
        rc = load_or_complain(a, &s->borig, a->bases, a->nbases);
        if (rc) {
            ss_model_free(&s->orig);
            return rc;
        }
    } else if (a->phase_cmp && !explorer) {
        timing("load", t0);
        return phase_sides(a, s, tf, t0);
    } else {
        timing("load", t0);
        return transform_loaded(&s->orig, &s->tm, &s->m, tf, 0, t0);
    }
    rc = ss_compare_check_measure(&s->borig, &s->orig, base_name, a->value != NULL, &err);
    if (rc) {
        ss_model_free(&s->orig);
        ss_model_free(&s->borig);
        if (rc == SS_EUSAGE)
            return cli_usage_error("%s", err.msg);
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    timing("load", t0);
    rc = transform_loaded(&s->orig, &s->tm, &s->m, tf, 1, t0);
    if (rc) {
        ss_model_free(&s->borig);
        return rc;
    }
    rc = transform_loaded(&s->borig, &s->btm, &s->b, tf, 2, t0);
    if (rc) {
        s->b = NULL;
        free_models(&s->orig, s->m);
        return rc;
    }
    if (tf)
        warn_no_match(tf, 1);
    return 0;
}

/* Print the report of sd to standard output, unless forced through a
 * stream capped at the size limit of the inputs (files and bases): past it
 * the report stops with a message (outlimit.h). */
static int report_capped(const struct cli_args *a, struct ss_report_opts *ro, struct sides *sd,
                         char *const *files, int nfiles, struct ss_error *err)
{
    FILE *out = stdout;
    struct ss_outcap cap;
    if (!ro->force) {
        ro->in_bytes = ss_out_input_bytes(files, nfiles) + ss_out_input_bytes(a->bases, a->nbases);
        ro->out_limit = ss_out_limit(ro->in_bytes);
        out = ss_out_capped(&cap, stdout, ro->out_limit);
        if (!out)
            return ss_nomem(err, "the output stream");
    }
    int rc;
    if (sd->b) {
        struct ss_compare cmp;
        ss_compare_init(&cmp, sd->b, sd->m, a->normalize);
        cmp.alpha = a->alpha;
        /* bench/run.sh measures what the verdicts cost with it */
        cmp.no_verdicts = getenv("STACKSCOPE_NO_VERDICTS") != NULL;
        rc = ss_report_compare(out, &cmp, ro, err);
    } else {
        rc = ss_report(out, sd->m, ro, err);
    }
    if (out != stdout && ss_out_uncap(out, &cap) == 1 && !rc)
        rc = ss_out_refuse(err, "standard output", 0, ro->in_bytes, NULL, 1);
    return rc;
}

static int report_run(struct cli_args *a, char *const *files, int nfiles,
                      const struct ss_report_opts *o, struct ss_tf_list *tf)
{
    struct sides sd;
    memset(&sd, 0, sizeof sd); /* a phase comparison frees an empty borig */
    double t0 = now_ms();
    int rc = load_sides(a, &sd, files, nfiles, tf, 0, &t0);
    if (rc)
        return rc;
    struct ss_model *m = sd.m;
    if (!sd.b && (a->normalize || o->verdict)) {
        sides_free(&sd);
        return cli_usage_error("%s goes with --base", a->normalize ? "--normalize" : "--verdict");
    }
    if (sd.b && o->memory) {
        sides_free(&sd);
        return cli_usage_error("%s", "--memory does not go with --base: compare memory with "
                                     "--value memory");
    }
    if (o->memory && !ss_model_has_memory(m)) {
        sides_free(&sd);
        return cli_usage_error("--memory: %s has no memory profiling data (record it with "
                               "Rprof(memory.profiling = TRUE))",
                               files[0]);
    }
    if ((ss_report_table_of(o->by)->flags & SS_RT_LINES) && !ss_model_has_lines(m)) {
        sides_free(&sd);
        return cli_usage_error("--by %s: %s has no line profiling data (record it with "
                               "Rprof(line.profiling = TRUE))",
                               ss_report_table_of(o->by)->name, files[0]);
    }
    struct ss_error err;
    ss_error_clear(&err);
    struct ss_strbuf warnings = SS_STRBUF_INIT;
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
        struct ss_source_search ss = {
            files,          (size_t)nfiles,  a->source_paths, a->nsource_paths,
            a->source_maps, a->nsource_maps, &sd.orig};
        ro.sources = &ss;
        ro.warnings = &warnings;
        rc = report_capped(a, &ro, &sd, files, nfiles, &err);
    }
    timing("report", &t0);
    sides_free(&sd);
    char *ws = ss_strbuf_take(&warnings); /* lines: a file found nowhere */
    for (char *w = ws, *nl; w && *w; w = nl + 1) {
        nl = w + strcspn(w, "\n");
        int end = !*nl;
        *nl = '\0';
        print_line(stderr, "stackscope: warning: ", w);
        if (end)
            break;
    }
    free(ws);
    if (rc == SS_EUSAGE)
        return cli_usage_error("%s", err.msg);
    if (rc) {
        fprintf(stderr, "stackscope: %s\n", err.msg);
        return ss_exit_status((enum ss_errcode)rc);
    }
    return finish_output();
}

static int cmd_report(struct cli_args *a, int argc, char **argv)
{
    int first, rc = cli_parse_options(a, argc, argv, &first);
    if (rc)
        return rc == OPT_DONE ? finish_output() : rc;
    const struct ss_report_opts o = a->report;
    if (first >= argc)
        return cli_usage_error("%s", "report: no FILE given");
    /* An option the chosen table does not use is an error, not silently
     * ignored: the table of tables says which take it. */
    static const struct {
        unsigned flag;
        const char *what;
    } takes[] = {
        {SS_RT_FOLDED, "--format folded goes"},
        {SS_RT_MEMORY, "--memory goes"},
        {SS_RT_SORT, "--sort goes"},
        {SS_RT_LEVEL, "--level goes"},
        {SS_RT_FUNCTION, "--function goes"},
        {SS_RT_TREE, "--inverted, --depth and --min-pct go"},
        {SS_RT_WIDTH, "--width goes"},
        {SS_RT_SHARE, "--share goes"},
        {SS_RT_PHASES, "--phases and --penalty go"},
    };
    unsigned used = (o.format == SS_FORMAT_FOLDED ? SS_RT_FOLDED : 0) |
                    (o.memory ? SS_RT_MEMORY : 0) | (o.sort ? SS_RT_SORT : 0) |
                    (o.level ? SS_RT_LEVEL : 0) | (o.function ? SS_RT_FUNCTION : 0) |
                    (o.inverted || o.depth || o.min_pct > 0 ? SS_RT_TREE : 0) |
                    (o.width ? SS_RT_WIDTH : 0) | (o.share > 0 ? SS_RT_SHARE : 0) |
                    (o.phases || o.penalty > 0 ? SS_RT_PHASES : 0);
    const struct ss_report_table *tb = ss_report_table_of(o.by);
    for (size_t i = 0; i < ARRAY_SIZE(takes); i++)
        if ((used & takes[i].flag) && !(tb->flags & takes[i].flag)) {
            char names[256], why[128] = "";
            if (takes[i].flag == SS_RT_SORT && tb->why_no_sort)
                snprintf(why, sizeof why, " (%s: %s)", tb->name, tb->why_no_sort);
            return cli_usage_error("%s with --by %s%s", takes[i].what,
                                   ss_report_tables_with(takes[i].flag, names, sizeof names), why);
        }
    if (o.by == SS_REPORT_CALLS && o.sort == SS_SORT_SELF)
        return cli_usage_error("%s", "--sort self: a call has one measure, its time: --by calls "
                                     "takes --sort total or position");
    if (o.phases && o.penalty > 0)
        return cli_usage_error("%s", "--phases N asks for N phases: --penalty has nothing to tune");
    return report_run(a, argv + first, argc - first, &o, a->tf.list);
}

/* convert --embed-sources: carry the files the profile names in m (found as
 * report --by list finds them), warning about those left out. */
static int embed_sources(const struct cli_args *a, struct ss_model *m, char *const *files,
                         int nfiles, struct ss_error *err)
{
    struct ss_source_search ss = {
        files, (size_t)nfiles, a->source_paths, a->nsource_paths, a->source_maps, a->nsource_maps,
        NULL};
    struct ss_strbuf left = SS_STRBUF_INIT;
    long n = ss_source_embed(m, &ss, SS_EMBED_MAX_FILE, SS_EMBED_MAX_TOTAL, &left);
    if (n < 0) {
        ss_strbuf_free(&left);
        return ss_nomem(err, "source files");
    }
    if (left.len)
        print_line(stderr,
                   "stackscope: warning: --embed-sources: left out (each file at most 1 MiB, "
                   "16 MiB in all; --source-path and --source-map find moved files): ",
                   ss_strbuf_str(&left));
    ss_strbuf_free(&left);
    return 0;
}

static int cmd_convert(struct cli_args *a, int argc, char **argv)
{
    int first, rc = cli_parse_options(a, argc, argv, &first);
    if (rc)
        return rc == OPT_DONE ? finish_output() : rc;
    struct ss_write_opts w = a->write;
    const char *out = a->out;
    if (!out)
        return cli_usage_error("%s", "convert: no output given (-o OUT)");
    int to_stdout = strcmp(out, "-") == 0; /* -o -: standard output */
    if (to_stdout && !w.format)
        return cli_usage_error("%s", "convert: -o - (standard output) needs --to FORMAT");
    if (to_stdout && isatty(STDOUT_FILENO))
        return cli_usage_error("%s",
                               "convert: -o -: standard output is a terminal; -o - writes for "
                               "a pipe or a redirection (report prints tables to read)");
    if ((a->svg.inverted || a->svg.time_order) && w.format != SS_OUT_SVG &&
        !(w.format == SS_OUT_NONE && ss_format_for_path(out) &&
          ss_format_for_path(out)->id == SS_OUT_SVG))
        return cli_usage_error("%s", "convert: --inverted and --time-order go with an SVG output");
    w.svg = &a->svg;
    w.svg_alpha = a->alpha;
    if (a->embed_sources && w.format != SS_OUT_TABLES &&
        !(w.format == SS_OUT_NONE && ss_format_for_path(out) &&
          ss_format_for_path(out)->id == SS_OUT_TABLES))
        return cli_usage_error("%s", "convert: --embed-sources goes with --to tables (the other "
                                     "formats have no room for source files)");
    if (first >= argc)
        return cli_usage_error("%s", "convert: no FILE given");
    if (!w.format && !ss_format_for_path(out)) {
        char names[128];
        return cli_usage_error("%s: cannot tell the output format from the name; use --to %s", out,
                               ss_format_names(names, sizeof names, "|", "|"));
    }
    /* the inputs an output may not replace: the bases too (freed by
     * ss_cli_main) */
    char **inputs = a->convert_inputs =
        ss_alloc_array((size_t)(argc - first + a->nbases), sizeof *inputs);
    if (!inputs) {
        fprintf(stderr, "stackscope: out of memory\n");
        return 2;
    }
    for (int i = first; i < argc; i++)
        inputs[i - first] = argv[i];
    for (int i = 0; i < a->nbases; i++)
        inputs[argc - first + i] = a->bases[i];
    w.inputs = inputs;
    w.n_inputs = argc - first + a->nbases;
    struct sides sd;
    memset(&sd, 0, sizeof sd); /* a phase comparison frees an empty borig */
    double t0 = now_ms();
    rc = load_sides(a, &sd, argv + first, argc - first, a->tf.list, 0, &t0);
    if (rc)
        return rc;
    struct ss_error err;
    ss_error_clear(&err);
    struct ss_model merged, *m = sd.m;
    if (sd.b) {
        /* one model: the new samples, then the base's flagged for the writers */
        struct ss_compare cmp;
        ss_compare_init(&cmp, sd.b, sd.m, a->normalize);
        rc = ss_compare_merge(&cmp, &merged, &err);
        if (!rc)
            m = &merged;
    } else if (a->normalize) {
        sides_free(&sd);
        return cli_usage_error("%s", "--normalize goes with --base");
    }
    clean_up_on_signals();
    if (!rc && a->embed_sources)
        rc = embed_sources(a, m, argv + first, argc - first, &err);
    if (!rc)
        rc = to_stdout ? ss_write_stream(m, stdout, "standard output", &w, &err)
                       : ss_write_file(m, out, &w, &err);
    timing("write", &t0);
    char loss[512];
    const struct ss_format *wf = w.format ? NULL : ss_format_for_path(out);
    if (!rc && ss_write_loss(m, wf ? wf->id : w.format, loss, sizeof loss))
        print_line(stderr, "stackscope: warning: ", loss);
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
    struct ss_measure ms[SS_SOURCE_VALUE_BITS + 8];
    size_t nms = ss_model_measures(m, ms, ARRAY_SIZE(ms));
    if (nms > ARRAY_SIZE(ms))
        nms = ARRAY_SIZE(ms);
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
        printf("  session %u%s: %s, %s%s%s%s%s%s, %llu sample%s%s\n", s->session, where,
               ss_esc(&type, ss_str(m, s->type)), s->flags & SS_SRC_UNTIMED ? "" : "interval ", iv,
               s->flags & SS_SRC_MEMORY ? ", memory" : "", s->flags & SS_SRC_GC ? ", GC" : "",
               s->flags & SS_SRC_LINE ? ", line" : "",
               s->flags & SS_SRC_UNORDERED ? ", no time order" : "", ns, ss_s(ns),
               !(s->flags & SS_SRC_BASE)               ? ""
               : !strcmp(ss_str(m, s->type), "folded") ? " (the base of a difference profile: its "
                                                         "lines' first counts)"
                                                       : " (the base of a difference profile: its "
                                                         "negative samples, negated)");
        ss_esc_free(&type);
        print_measures(m, i, ms, nms);
    }
    if (ss_model_has_stack_sources(m)) {
        unsigned long long counted = t.samples - t.agg_samples;
        if (counted != m->sample_stack.n) {
            char cn[128]; /* a heap profile counts alloc_objects */
            ss_model_count_name(m, cn, sizeof cn);
            printf("  samples: %llu %s%s%scounted in %zu rows (%zu with no frames)\n", counted,
                   strcmp(cn, "samples") ? "(" : "", strcmp(cn, "samples") ? cn : "",
                   strcmp(cn, "samples") ? ") " : "", m->sample_stack.n, empty);
        } else
            printf("  samples: %zu (%zu with no frames)\n", m->sample_stack.n, empty);
        printf("  stacks: %zu distinct, deepest %zu frame%s\n", ss_model_nstacks(m), maxdepth,
               ss_s(maxdepth));
    }
    printf("  functions: %zu, locations: %zu\n", m->functions.n, m->locations.n);
    if (ss_model_has_labels(m))
        label_summary(m);
    print_warnings(stdout, m, "  warning: ");
}

/* The measures source s has (`check`) of the model's ms[0..n), the
 * default first. */
static void print_measures(const struct ss_model *m, size_t s, const struct ss_measure *ms,
                           size_t n)
{
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

/* Are standard output and standard error the same file (a terminal)? */
static int same_output(void)
{
    struct stat o, e;
    return fstat(STDOUT_FILENO, &o) == 0 && fstat(STDERR_FILENO, &e) == 0 && o.st_dev == e.st_dev &&
           o.st_ino == e.st_ino && o.st_rdev == e.st_rdev;
}

static int cmd_check(struct cli_args *a, int argc, char **argv)
{
    int first, rc = cli_parse_options(a, argc, argv, &first);
    if (rc)
        return rc == OPT_DONE ? finish_output() : rc;
    if (first >= argc)
        return cli_usage_error("%s", "check: no FILE given");
    int status = 0;
    for (int i = first; i < argc; i++) {
        struct ss_model m;
        struct ss_error err;
        ss_error_clear(&err);
        rc = ss_load_files(&m, argv + i, 1, &a->load, &err);
        if (rc) {
            /* the summary says "error"; the message goes to standard error,
             * and to the summary too unless both are the same file (a
             * terminal): said once */
            ss_esc_fputs(argv[i], SS_ESC_TEXT, stdout);
            if (same_output())
                printf(": error\n");
            else
                printf(": error\n  %s\n", err.msg);
            fflush(stdout);
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

static void cli_tf_free(struct cli_args *a)
{
    ss_tf_list_free(a->tf.list);
    memset(&a->tf, 0, sizeof a->tf);
}

/* The explorer's -e and --script steps (in a->tf, parsed already) after
 * those of --preset and --resume in l, as one undo step; a->tf is emptied.
 * Returns 0 or an exit status. */
static int append_cli_steps(struct cli_args *a, struct ss_tf_list *l)
{
    char *script = ss_tf_script(a->tf.list);
    struct ss_error err;
    ss_error_clear(&err);
    int rc = script ? ss_tf_append_script(l, script, strlen(script), "-e", &err) : SS_ENOMEM;
    free(script);
    cli_tf_free(a);
    if (rc) {
        fprintf(stderr, "stackscope: %s\n", script ? err.msg : "out of memory");
        return ss_exit_status((enum ss_errcode)rc);
    }
    return 0;
}

/* The explorer on files[0..n) with the transform list `start` (taken
 * over; NULL: none), `resumed` when it holds the saved session: its whole
 * input (explore.h) from the options, the profile and its base loaded.
 * Returns the exit status. */
static int explore(struct cli_args *a, const struct ss_cli_ui *ui, char *const *files, int n,
                   struct ss_tf_list *start, int resumed)
{
    struct sides sd;
    double t0 = now_ms();
    int rc = load_sides(a, &sd, files, n, NULL, 1, &t0);
    if (rc) {
        ss_tf_list_free(start);
        return rc;
    }
    if (!sd.b && a->normalize) {
        ss_model_free(&sd.orig);
        ss_tf_list_free(start);
        return cli_usage_error("%s", "--normalize goes with --base");
    }
    struct ss_explore in;
    ss_explore_init(&in);
    in.model = sd.orig; /* load_sides applied no list: the models as loaded */
    in.files = files;
    in.nfiles = n;
    if (sd.b) {
        in.base = *sd.b;
        in.have_base = 1;
    }
    in.normalize = a->normalize;
    in.alpha = a->alpha;
    in.base_files = a->bases;
    in.nbase_files = a->nbases;
    in.compare_phases = a->phase_cmp;
    memcpy(in.phase, a->phase_ref, sizeof in.phase);
    in.source_paths = a->source_paths;
    in.nsource_paths = a->nsource_paths;
    in.source_maps = a->source_maps;
    in.nsource_maps = a->nsource_maps;
    in.start = start;
    in.resumed = resumed;
    in.window = a->window;
    in.folded_interval_us = a->load.folded_interval_us;
    in.follow_keep_s = a->keep_s;
    in.follow = a->followed; /* taken over */
    a->followed = NULL;
    return ui->run(&in);
}

int ss_cli_main(int argc, char **argv, const struct ss_cli_ui *ui)
{
    static const struct {
        const char *name;
        unsigned cmd;
        int (*run)(struct cli_args *a, int argc, char **argv);
    } commands[] = {
        {"report", IN_REPORT, cmd_report},
        {"convert", IN_CONVERT, cmd_convert},
        {"check", IN_CHECK, cmd_check},
    };
    struct cli_args a;
    memset(&a, 0, sizeof a);
    a.svg.order = SS_FLAME_BY_NAME;
    a.alpha = 0.05;
    for (size_t i = 0; argc >= 2 && i < ARRAY_SIZE(commands); i++)
        if (!strcmp(argv[1], commands[i].name)) {
            a.cmd = commands[i].cmd;
            int rc = commands[i].run(&a, argc - 1, argv + 1);
            cli_tf_free(&a);
            free(a.convert_inputs);
            return rc;
        }
    /* The explorer on FILE... (the demo when no FILE is given); without a
     * terminal (stackscope FILE | less), the report of the profile, as
     * `stackscope report FILE...` prints it.  --resume FILE...: with the
     * transform list of the last session on FILE... (state.h). */
    a.cmd = IN_EXPLORER;
    int first, rc = cli_parse_options(&a, argc, argv, &first);
    if (!rc && a.keep_s > 0 && !a.follow)
        rc = cli_usage_error("%s", "--keep goes with --follow (it bounds a followed profile)");
    if (rc) {
        cli_tf_free(&a);
        return rc == OPT_DONE ? finish_output() : rc;
    }
    char *demo[1];
    char **files = argv + first;
    int n = argc - first;
    struct ss_tf_list *resumed = NULL;
    const char *preset = a.preset;
    int resume = a.resume;
    if (resume || preset || a.tf.list) {
        if (!(resumed = ss_tf_list_new())) {
            fprintf(stderr, "stackscope: out of memory\n");
            return 2;
        }
    }
    if (preset) {
        const char *script = ss_tf_preset(preset); /* known: set_explorer_preset */
        struct ss_error err;
        ss_error_clear(&err);
        if (ss_tf_append_script(resumed, script, strlen(script), "--preset", &err)) {
            ss_tf_list_free(resumed);
            cli_tf_free(&a);
            fprintf(stderr, "stackscope: %s\n", err.msg);
            return 2;
        }
    }
    if (n == 0) {
        demo[0] = (char *)(uintptr_t)ss_demo_path(); /* read only, as every FILE */
        files = demo;
        n = 1;
    }
    if (resume) {
        struct ss_error err;
        ss_error_clear(&err);
        char warn[1200];
        rc = ss_state_load(files, n, resumed, warn, sizeof warn, &err);
        if (rc) {
            ss_tf_list_free(resumed);
            cli_tf_free(&a);
            fprintf(stderr, "stackscope: %s\n", err.msg);
            return ss_exit_status((enum ss_errcode)rc);
        }
        if (warn[0]) /* a state file not to be trusted: the inputs as they are */
            print_line(stderr, "stackscope: warning: ", warn);
    }
    if (a.tf.list && (rc = append_cli_steps(&a, resumed))) {
        ss_tf_list_free(resumed);
        return rc;
    }
    if (ui && ui->available()) {
        rc = explore(&a, ui, files, n, resumed, resume);
        ss_follow_free(a.followed, NULL); /* not taken over: explore failed first */
        return rc;
    }
    /* no terminal: the report (--follow: of what the file holds now) */
    struct ss_report_opts o;
    memset(&o, 0, sizeof o);
    rc = report_run(&a, files, n, &o, resumed);
    ss_tf_list_free(resumed);
    ss_follow_free(a.followed, NULL);
    return rc;
}
