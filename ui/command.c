/* command.c - the ':' commands (see command.h). */
#include "command.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "display.h"
#include "write.h"

static const struct ui_command_info commands[] = {
    {"w", "FILE",
     "save the transformed profile; the format comes from the name (.out .prof "
     ".rprof: Rprof, .pb.gz: pprof, .folded, .sprof.txt, DIR/: tables); never "
     "replaces an input file or an existing file"},
    {"w!", "FILE", "the same, replacing FILE if it exists"},
    {"export-script", "FILE", "write the transform list as a script (--script reads it back)"},
    {"export-script!", "FILE", "the same, replacing FILE if it exists"},
    {"source", "FILE", "append the transforms of a script file (one undo step)"},
    {"undo", "", "undo the last change to the transform list"},
    {"redo", "", "redo"},
    {"functions", "", "show the functions view"},
    {"stacks", "", "show the distinct stacks"},
    {"tree", "[F]", "the top-down tree (of F: what F calls)"},
    {"bottom-up", "[F]", "the bottom-up tree (of F: what calls F)"},
    {"calls", "[F]", "callers and callees of F (default: the current function)"},
    {"timeline", "", "show the timeline"},
    {"levels", "", "show the levels"},
    {"runs", "[F]", "run lengths of F (default: the current function)"},
    {"lines", "", "show the source lines"},
    {"sources", "", "show the sources"},
    {"transforms", "", "show the transform list"},
    {"help", "", "show the help"},
    {"q", "", "quit (also quit)"},
    {"save-display", "FILE", "write the screen as text to FILE (tests, bug reports)"},
    {"save-help", "FILE", "write this key and command reference as text"},
    {"resize", "COLSxROWS", "headless mode: change the virtual screen's size"},
    /* the transform language (DESIGN section 5) */
    {"drop-samples", "A:B",
     "drop samples A to B (1-based, negative from the end; or times 0.5s:2s)"},
    {"keep-samples", "A:B", "keep only samples A to B"},
    {"trim-base", "N|auto[=SHARE]", "remove the N outermost frames, or the scaffold"},
    {"trim-to", "F", "in stacks with F, remove the frames outside its outermost occurrence"},
    {"focus", "F", "keep only samples with F, then trim-to F"},
    {"drop", "F", "remove the samples whose stack contains F"},
    {"merge", "F", "remove F's frames; its self time goes to its caller"},
    {"prune", "F", "remove the frames F calls; their time becomes F's self time"},
    {"replace", "F1 F2 ... => NEW", "each run of the frames F1..Fk becomes one frame NEW"},
    {"collapse-recursion", "F", "consecutive F frames become one"},
    {"class", "/REGEX/ => NAME", "assign the matching functions to a class"},
};

const struct ui_command_info *ui_commands(size_t *n)
{
    *n = sizeof commands / sizeof *commands;
    return commands;
}

static int is_transform(const char *word)
{
    static const char *const kw[] = {
        "drop-samples", "keep-samples", "trim-base",          "trim-to", "focus", "drop", "merge",
        "prune",        "replace",      "collapse-recursion", "class"};
    for (size_t i = 0; i < sizeof kw / sizeof *kw; i++)
        if (!strcmp(word, kw[i]))
            return 1;
    return 0;
}

/* The argument: the rest of the line without surrounding blanks and, when
 * it is one double-quoted string, without the quotes (\" and \\ escapes). */
static void argument(const char *s, char *out, size_t n)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t len = strlen(s);
    while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
        len--;
    size_t k = 0;
    if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
        for (size_t i = 1; i + 1 < len && k + 1 < n; i++) {
            if (s[i] == '\\' && i + 2 < len)
                i++;
            out[k++] = s[i];
        }
    } else {
        for (size_t i = 0; i < len && k + 1 < n; i++)
            out[k++] = s[i];
    }
    out[k] = '\0';
}

/* An input is never replaced, forced or not: say so.  Without force, an
 * existing output is refused here with the UI's own hint (the core's message
 * speaks of --force).  Returns 1 when refused. */
static int refuse_existing(struct ui *ui, const char *path, int force, const char *bang,
                           const struct ss_write_opts *o)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    if (ss_write_is_input(path, o)) {
        ui_error(ui, "%s is an input file: stackscope never replaces one; save under another name",
                 path);
        return 1;
    }
    if (force)
        return 0;
    ui_error(ui, "%s exists (%s %s replaces it)", path, bang, path);
    return 1;
}

static void save(struct ui *ui, const char *path, int force)
{
    if (!*path) {
        ui_error(ui, ":w FILE: which file?");
        return;
    }
    struct ss_write_opts o;
    memset(&o, 0, sizeof o);
    o.format = ss_out_format_from_path(path);
    if (o.format == SS_OUT_NONE) {
        ui_error(ui,
                 "%s: cannot tell the format from the name (.out .prof .rprof, .pb.gz, "
                 ".folded, .sprof.txt, or DIR/ for tables)",
                 path);
        return;
    }
    o.force = force;
    o.inputs = ui->files;
    o.n_inputs = ui->nfiles;
    struct ss_error err;
    ss_error_clear(&err);
    if (refuse_existing(ui, path, force, ":w!", &o))
        return;
    if (ss_write_file(ui->m, path, &o, &err)) {
        ui_error(ui, "%s", err.msg[0] ? err.msg : "cannot write");
        return;
    }
    ui_message(ui, "wrote %s (%s): %zu samples, %zu transforms applied", path,
               ss_out_format_name(o.format), ui->m->sample_stack.n, ss_tf_active(ui->tf));
}

static int fill_script(FILE *f, void *ctx, const char *path, struct ss_error *err)
{
    (void)path, (void)err;
    fputs("# stackscope transform script\n", f);
    fputs(ctx, f);
    return 0;
}

static void export_script(struct ui *ui, const char *path, int force)
{
    if (!*path) {
        ui_error(ui, ":export-script FILE: which file?");
        return;
    }
    char *text = ss_tf_script(ui->tf);
    if (!text) {
        ui_error(ui, "out of memory");
        return;
    }
    struct ss_write_opts o;
    memset(&o, 0, sizeof o);
    o.force = force;
    o.inputs = ui->files;
    o.n_inputs = ui->nfiles;
    struct ss_error err;
    ss_error_clear(&err);
    int rc = refuse_existing(ui, path, force, ":export-script!", &o)
                 ? -1
                 : ss_write_with(path, &o, fill_script, text, &err);
    free(text);
    if (rc) {
        if (rc > 0)
            ui_error(ui, "%s", err.msg[0] ? err.msg : "cannot write");
        return;
    }
    ui_message(ui, "wrote %zu transforms to %s", ss_tf_count(ui->tf), path);
}

static void save_display(struct ui *ui, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        ui_error(ui, "%s: cannot write: %s", path, strerror(errno));
        return;
    }
    int bad = ui_canvas_dump(&ui->canvas, f);
    if (fclose(f) || bad)
        ui_error(ui, "%s: cannot write", path);
}

static void source(struct ui *ui, const char *path)
{
    struct ss_error err;
    ss_error_clear(&err);
    size_t before = ss_tf_count(ui->tf);
    if (ss_tf_append_script_file(ui->tf, path, &err)) {
        ui_error(ui, "%s", err.msg);
        return;
    }
    char what[4200];
    snprintf(what, sizeof what, "%s: %zu transforms added", path, ss_tf_count(ui->tf) - before);
    ui_reapply(ui, what);
}

/* Open a view that takes a function: the named one or the current one. */
static void view_with_function(struct ui *ui, enum ui_view_id id, const char *arg)
{
    if (*arg) {
        if (ss_model_find_function(ui->m, arg) == SS_NONE) {
            ui_error(ui, "no function named '%s' in the profile", arg);
            return;
        }
        ui_set_function(ui, arg);
        ui_open_view(ui, id, arg);
        return;
    }
    if (id == UI_V_TOPDOWN || id == UI_V_BOTTOMUP)
        ui_open_view(ui, id, NULL);
    else
        ui_switch_view(ui, id);
}

void ui_command(struct ui *ui, const char *line, int edit_step, int insert_at)
{
    while (*line == ' ' || *line == ':')
        line++;
    if (!*line || *line == '#')
        return;
    char word[64];
    size_t k = 0;
    while (line[k] && line[k] != ' ' && k + 1 < sizeof word) {
        word[k] = line[k];
        k++;
    }
    word[k] = '\0';
    const char *rest = line + k;
    char arg[4096];
    argument(rest, arg, sizeof arg);

    if (is_transform(word)) {
        ui_add_transform(ui, line, edit_step, insert_at);
        return;
    }
    if (edit_step >= 0 || insert_at >= 0) {
        ui_error(ui, "%s: not a transform command", word);
        return;
    }
    if (!strcmp(word, "w") || !strcmp(word, "write"))
        save(ui, arg, 0);
    else if (!strcmp(word, "w!") || !strcmp(word, "write!"))
        save(ui, arg, 1);
    else if (!strcmp(word, "export-script"))
        export_script(ui, arg, 0);
    else if (!strcmp(word, "export-script!"))
        export_script(ui, arg, 1);
    else if (!strcmp(word, "source"))
        source(ui, arg);
    else if (!strcmp(word, "undo"))
        ui_undo(ui, 0);
    else if (!strcmp(word, "redo"))
        ui_undo(ui, 1);
    else if (!strcmp(word, "q") || !strcmp(word, "quit") || !strcmp(word, "q!"))
        ui->quit = 1;
    else if (!strcmp(word, "functions"))
        ui_switch_view(ui, UI_V_FUNCTIONS);
    else if (!strcmp(word, "stacks"))
        ui_switch_view(ui, UI_V_STACKS);
    else if (!strcmp(word, "tree"))
        view_with_function(ui, UI_V_TOPDOWN, arg);
    else if (!strcmp(word, "bottom-up"))
        view_with_function(ui, UI_V_BOTTOMUP, arg);
    else if (!strcmp(word, "calls"))
        view_with_function(ui, UI_V_CALLS, arg);
    else if (!strcmp(word, "runs"))
        view_with_function(ui, UI_V_RUNS, arg);
    else if (!strcmp(word, "timeline"))
        ui_switch_view(ui, UI_V_TIMELINE);
    else if (!strcmp(word, "levels"))
        ui_switch_view(ui, UI_V_LEVELS);
    else if (!strcmp(word, "lines"))
        ui_switch_view(ui, UI_V_LINES);
    else if (!strcmp(word, "sources"))
        ui_switch_view(ui, UI_V_SOURCES);
    else if (!strcmp(word, "transforms"))
        ui_switch_view(ui, UI_V_TRANSFORMS);
    else if (!strcmp(word, "help"))
        ui_switch_view(ui, UI_V_HELP);
    else if (!strcmp(word, "save-display"))
        save_display(ui, arg);
    else if (!strcmp(word, "save-help")) {
        FILE *f = fopen(arg, "w");
        int bad = !f || ui_help_write(f);
        if (f && fclose(f))
            bad = 1;
        if (bad)
            ui_error(ui, "%s: cannot write", arg);
    } else if (!strcmp(word, "resize")) {
        int c, r;
        if (sscanf(arg, "%dx%d", &c, &r) != 2 || c < 20 || r < 6 || c > 1000 || r > 1000)
            ui_error(ui, "resize: expected COLSxROWS, e.g. 100x30");
        else if (ui->headless)
            ui_display_resize(c, r);
        else
            ui_error(ui, "resize: only in headless mode (resize the terminal instead)");
    } else
        ui_error(ui, "%s: unknown command (:help lists them; Tab completes)", word);
}
