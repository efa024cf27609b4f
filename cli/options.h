/* options.h - the command line's options (stackscope(1), OPTIONS): each is
 * one line of the table in options.c (name, short name, argument, the
 * commands that take it, its section, its setter, its --help lines and its
 * man-page text), which drives getopt_long and prints --help and the man
 * page's OPTIONS (--help=roff).  What they set is one struct cli_args,
 * which ss_cli_main (cli.c) owns and passes down. */
#ifndef CLI_OPTIONS_H
#define CLI_OPTIONS_H

#include <stddef.h>

#include "flame.h"
#include "loader.h"
#include "report.h"
#include "source.h"
#include "write.h"

struct ss_follow;
struct ss_tf_list;

/* The commands an option goes with. */
enum {
    IN_EXPLORER = 1u << 0, /* no command */
    IN_REPORT = 1u << 1,
    IN_CONVERT = 1u << 2,
    IN_CHECK = 1u << 3,
};

/* An option's setter returns 0, an exit status, or OPT_DONE: stop here and
 * exit 0 (--help, --version). */
#define OPT_DONE (-1)

/* The transform options of report and convert, in command-line order
 * (freed by ss_cli_main when the command returns). */
struct tf_opts {
    struct ss_tf_list *list;
    int n_e; /* -e options seen */
};

#define MAX_BASES 64
#define MAX_SOURCE_PATHS 64

/* What the options of one command line set: ss_cli_main owns it on its
 * stack and hands it to the options' setters, the commands and what they
 * call; nothing parsed is kept at file scope. */
struct cli_args {
    unsigned cmd; /* IN_*: the command being parsed */
    struct ss_report_opts report;
    struct ss_write_opts write;
    struct ss_flame_opts svg; /* convert --inverted, --time-order (an SVG output) */
    const char *out;          /* convert -o OUT */
    const char *preset;       /* the explorer's --preset NAME */
    int embed_sources;        /* convert --embed-sources */
    int resume;               /* the explorer's --resume */
    /* --value NAME: the measure every number adds up (stackscope(1), MEASURES) */
    const char *value;
    struct ss_load_opts load; /* every load's --mixed, --interval, --no-drop-frames */
    struct tf_opts tf;        /* -e, --script and --preset of report and convert */
    /* --base FILE (repeatable) and --normalize (stackscope(1), COMPARING):
     * compare the profile of FILE... with the base's (borrowed from argv) */
    char *bases[MAX_BASES];
    int nbases, normalize;
    double alpha; /* --alpha: the verdicts' level (verdict.h), 0.05 unless given */
    /* --compare-phases A,B: the base is phase A of FILE..., the new profile
     * phase B (after the transforms): each side is the profile with the list
     * and then keep-phase A or B (ss_tf_apply_then). */
    int phase_cmp;
    char phase_ref[2][32];
    /* Where source files are found (source.h): --source-path directories and
     * --source-map rewrites (borrowed from argv), for report --by list,
     * convert --embed-sources and the explorer. */
    const char *source_paths[MAX_SOURCE_PATHS];
    size_t nsource_paths;
    struct ss_source_map source_maps[MAX_SOURCE_PATHS];
    size_t nsource_maps;
    char **convert_inputs; /* convert: the inputs OUT may not replace, bases too */
    /* --follow (1) or --follow=end (2): FILE is read as it is written
     * (follow.h); `followed` follows it once loaded, for the explorer */
    int follow;
    struct ss_follow *followed;
    const char *window; /* --window DURATION: the explorer's :recent */
    double keep_s;      /* --keep DURATION: a followed profile's last seconds */
};

/* Print "stackscope: MESSAGE" and the pointer to --help on standard error,
 * the message's control characters escaped.  Returns 1, the exit status of
 * a usage error. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Parse the options of command a->cmd in argv[1..argc) (getopt_long, with
 * the arguments that are not options moved to the end) through the table.
 * Returns 0 with *first set to the first argument, an exit status, or
 * OPT_DONE (help or version printed). */
int cli_parse_options(struct cli_args *a, int argc, char **argv, int *first);

#endif
