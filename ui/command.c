/* command.c - the ':' commands (see command.h). */
#include "command.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "display.h"
#include "state.h"
#include "write.h"
#include "vec.h"
#include "strbuf.h"

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

/* The options of a write from the explorer: nothing is written over an
 * input, the bases of a comparison included.  Returns the array of inputs
 * (o->inputs) to free, NULL when out of memory (said). */
static char **write_opts(struct ui *ui, int force, struct ss_write_opts *o)
{
    memset(o, 0, sizeof *o);
    o->force = force;
    o->svg = ui_flame_svg_opts(ui); /* :w F.svg: the graph as the flame view shows it */
    o->svg_alpha = ui->alpha_opt;   /* --alpha, as convert's */
    int nb = ui->nbase_files;
    char *const *bases = ui->base_files;
    char **inputs = malloc((size_t)(ui->nfiles + nb) * sizeof *inputs);
    if (!inputs) {
        ui_error(ui, "out of memory");
        return NULL;
    }
    for (int i = 0; i < ui->nfiles; i++)
        inputs[i] = ui->files[i];
    for (int i = 0; i < nb; i++)
        inputs[ui->nfiles + i] = bases[i];
    o->inputs = inputs;
    o->n_inputs = ui->nfiles + nb;
    return inputs;
}

static void save(struct ui *ui, const char *path, int force)
{
    if (!*path) {
        ui_error(ui, ":w FILE: which file?");
        return;
    }
    const struct ss_format *fmt = ss_format_for_path(path);
    if (!fmt) {
        char suffixes[256];
        ui_error(ui, "%s: cannot tell the format from the name: %s", path,
                 ss_format_suffix_brief(suffixes, sizeof suffixes));
        return;
    }
    struct ss_write_opts o;
    char **inputs = write_opts(ui, force, &o);
    if (!inputs)
        return;
    o.format = fmt->id;
    struct ss_error err;
    ss_error_clear(&err);
    if (refuse_existing(ui, path, force, ":w!", &o)) {
        free(inputs);
        return;
    }
    /* a comparison is written as one (convert --base): pprof with the base
     * negated, difffolded lines, a differential SVG; other formats refuse */
    struct ss_model merged;
    const struct ss_model *m = ui->m;
    int rc = 0;
    if (ui->bm) {
        struct ss_compare cmp;
        ui_compare(ui, &cmp);
        rc = ss_compare_merge(&cmp, &merged, &err);
        if (!rc)
            m = &merged;
    }
    if (!rc)
        rc = ss_write_file(m, path, &o, &err);
    if (m == &merged)
        ss_model_free(&merged);
    free(inputs);
    if (rc) {
        ui_error(ui, "%s", err.msg[0] ? err.msg : "cannot write");
        return;
    }
    ui->saved_gen = ui->gen;
    char loss[512];
    if (ss_write_loss(ui->m, fmt->id, loss, sizeof loss))
        ui_message(ui, "wrote %s (%s); warning: %s", path, fmt->name, loss);
    else
        ui_message(ui, "wrote %s (%s): %zu sample%s, %zu transform%s applied", path, fmt->name,
                   ui->m->sample_stack.n, ss_s(ui->m->sample_stack.n), ss_tf_active(ui->tf),
                   ss_s(ss_tf_active(ui->tf)));
}

/* Write the text fill makes to `path` by the rules of :w (write.h): never
 * over an input, an existing file only with `force` (:CMD!) and only a
 * regular one (a FIFO or device is refused without opening it), through a
 * temporary file moved into place.  Returns 0 when written. */
static int write_text(struct ui *ui, const char *cmd, const char *path, int force, ss_fill_fn fill,
                      void *ctx)
{
    if (!*path) {
        ui_error(ui, ":%s FILE: which file?", cmd);
        return -1;
    }
    struct ss_write_opts o;
    char **inputs = write_opts(ui, force, &o);
    if (!inputs)
        return -1;
    char bang[64];
    snprintf(bang, sizeof bang, ":%s!", cmd);
    struct ss_error err;
    ss_error_clear(&err);
    int rc =
        refuse_existing(ui, path, force, bang, &o) ? -1 : ss_write_with(path, &o, fill, ctx, &err);
    free(inputs);
    if (rc > 0)
        ui_error(ui, "%s", err.msg[0] ? err.msg : "cannot write");
    return rc;
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
    char *text = ss_tf_script(ui->tf);
    if (!text) {
        ui_error(ui, "out of memory");
        return;
    }
    int rc = write_text(ui, "export-script", path, force, fill_script, text);
    free(text);
    if (rc)
        return;
    ui->saved_gen = ui->gen;
    ui_message(ui, "wrote %zu transform%s to %s", ss_tf_count(ui->tf), ss_s(ss_tf_count(ui->tf)),
               path);
}

static int fill_display(FILE *f, void *ctx, const char *path, struct ss_error *err)
{
    const struct ui *ui = ctx;
    if (ui_canvas_dump(&ui->canvas, f))
        return ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(errno));
    return 0;
}

/* `:save-display FILE`: the screen as text, by the rules of :w (no message:
 * the next screen saved shows what this one showed). */
static void save_display(struct ui *ui, const char *path, int force)
{
    write_text(ui, "save-display", path, force, fill_display, ui);
}

static int fill_styles(FILE *f, void *ctx, const char *path, struct ss_error *err)
{
    const struct ui *ui = ctx;
    if (ui_canvas_dump_styles(&ui->canvas, f))
        return ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(errno));
    return 0;
}

/* `:save-styles FILE`: the screen's styles, a letter per cell, by the
 * rules of :w. */
static void save_styles(struct ui *ui, const char *path, int force)
{
    write_text(ui, "save-styles", path, force, fill_styles, ui);
}

static void source(struct ui *ui, const char *path, int unused)
{
    struct ss_error err;
    ss_error_clear(&err);
    size_t before = ss_tf_count(ui->tf);
    if (ss_tf_append_script_file(ui->tf, path, &err)) {
        ui_error(ui, "%s", err.msg);
        return;
    }
    struct ss_strbuf what = SS_STRBUF_INIT; /* the path whole */
    size_t n = ss_tf_count(ui->tf) - before;
    ss_strbuf_printf(&what, "%s: %zu transform%s added", path, n, ss_s(n));
    ui_reapply(ui, ss_strbuf_str(&what));
    ss_strbuf_free(&what);
}

/* `:resume`: append the transform list saved by the last session on these
 * inputs (state.h). */
static void resume(struct ui *ui, const char *arg, int unused)
{
    struct ss_error err;
    ss_error_clear(&err);
    size_t before = ss_tf_count(ui->tf);
    char warn[1200];
    if (ss_state_load(ui->files, ui->nfiles, ui->tf, warn, sizeof warn, &err)) {
        ui_error(ui, "%s", err.msg);
        return;
    }
    if (warn[0]) {
        ui_error(ui, "warning: %s", warn);
        return;
    }
    char what[128];
    size_t n = ss_tf_count(ui->tf) - before;
    snprintf(what, sizeof what, "resumed the last session: %zu transform%s added", n, ss_s(n));
    if (ui_reapply(ui, what) == 0)
        ui->saved_gen = ui->gen; /* the state file holds them */
}

/* `:VIEW [F]`: show the view, of function F when it takes one (views.h's
 * `arg`), else with its usual argument. */
static void cmd_view(struct ui *ui, const char *arg, int id)
{
    if (*arg && ui_view_arg_kind((enum ui_view_id)id) != UI_VA_NONE) {
        if (ss_model_find_function(ui->m, arg) == SS_NONE) {
            ui_error(ui, "no function named '%s' in the profile", arg);
            return;
        }
        ui_set_function(ui, arg);
        ui_open_view(ui, (enum ui_view_id)id, arg);
        return;
    }
    ui_switch_view(ui, (enum ui_view_id)id);
}

static void cmd_undo(struct ui *ui, const char *arg, int redo)
{
    ui_undo(ui, redo);
}

static void cmd_quit(struct ui *ui, const char *arg, int force)
{
    ui_quit(ui, force);
}

static int fill_help(FILE *f, void *ctx, const char *path, struct ss_error *err)
{
    (void)ctx;
    if (ui_help_write(f))
        return ss_fail(err, SS_EIO, "%s: write failed: %s", path, strerror(errno));
    return 0;
}

/* `:save-help FILE`: the key and command reference, by the rules of :w. */
static void cmd_save_help(struct ui *ui, const char *path, int force)
{
    write_text(ui, "save-help", path, force, fill_help, NULL);
}

/* :preset NAME: the preset's steps (ui_preset), one undo step. */
static void cmd_preset(struct ui *ui, const char *arg, int unused)
{
    ui_preset(ui, arg);
}

/* :compare-phases A B: phase B against phase A (ui_compare_phases);
 * without phases (or "off"): the whole profile again. */
static void cmd_compare_phases(struct ui *ui, const char *arg, int unused)
{
    char a[32], b[32], extra[2];
    int n = sscanf(arg, "%31s %31s %1s", a, b, extra);
    if (n <= 0 || (n == 1 && !strcmp(a, "off")))
        ui_compare_phases(ui, NULL, NULL);
    else if (n != 2)
        ui_error(ui, "compare-phases: expected two phases A B (e.g. 1 main), or nothing to stop");
    else
        ui_compare_phases(ui, a, b);
}

static void cmd_resize(struct ui *ui, const char *arg, int unused)
{
    int c, r;
    if (sscanf(arg, "%dx%d", &c, &r) != 2 || c < 20 || r < 6 || c > 1000 || r > 1000)
        ui_error(ui, "resize: expected COLSxROWS, e.g. 100x30");
    else if (ui->headless)
        ui_display_resize(c, r);
    else
        ui_error(ui, "resize: only in headless mode (resize the terminal instead)");
}

/* ---- the table ----------------------------------------------------------- */

/* Every command, in help order.  The transform commands at the end have no
 * handler: the core says which words are transforms (ss_tf_is_command) and
 * parses them; their lines here are for the help and completion. */
static void cmd_source_path(struct ui *ui, const char *arg, int unused)
{
    char dir[4096];
    argument(arg, dir, sizeof dir);
    struct stat st;
    if (!*dir)
        ui_error(ui, ":source-path DIR: which directory?");
    else if (stat(dir, &st) || !S_ISDIR(st.st_mode))
        ui_error(ui, "%s: not a directory", dir);
    else if (ui_add_source_path(ui, dir))
        ui_error(ui, "out of memory");
    else
        ui_message(ui, "source files are also looked for under %s", dir);
}

/* :filter [PATTERN]: as & (no pattern: every row again). */
static void cmd_filter(struct ui *ui, const char *arg, int unused)
{
    ui_filter(ui, arg, 0);
}

/* :normalize [on|off]: as Z (no argument: toggle). */
static void cmd_normalize(struct ui *ui, const char *arg, int unused)
{
    if (*arg && strcmp(arg, "on") && strcmp(arg, "off")) {
        ui_error(ui, "normalize: expected on or off (nothing: toggle)");
        return;
    }
    if (!*arg || (!strcmp(arg, "on")) != (ui->normalize != 0))
        ui_toggle_normalize(ui);
    else
        ui_message(ui, "normalize is %s already", arg);
}

static void cmd_source_map(struct ui *ui, const char *arg, int unused)
{
    char map[8192];
    argument(arg, map, sizeof map);
    int r = *map ? ui_add_source_map(ui, map) : 1;
    if (r > 0)
        ui_error(ui, ":source-map FROM=TO: a path prefix the profile names, and where it is here");
    else if (r < 0)
        ui_error(ui, "out of memory");
    else
        ui_message(ui, "source files under %s are also looked for under %s",
                   ui->source_maps[ui->nsource_maps - 1].from,
                   ui->source_maps[ui->nsource_maps - 1].to);
}

static void cmd_value(struct ui *ui, const char *arg, int data)
{
    (void)data;
    if (!*arg) {
        ui_message(ui, "value: %s (V takes the next; :value NAME, Tab completes)",
                   ss_model_measure_name(ui->m));
        return;
    }
    ui_set_measure(ui, arg);
}

static void cmd_alpha(struct ui *ui, const char *arg, int data)
{
    (void)data;
    ui_set_alpha(ui, arg);
}

static void cmd_follow(struct ui *ui, const char *arg, int data)
{
    (void)data;
    ui_follow_command(ui, arg);
}

static void cmd_recent(struct ui *ui, const char *arg, int data)
{
    (void)data;
    ui_compare_recent(ui, !*arg || !strcmp(arg, "off") ? NULL : arg);
}

static const struct ui_command_info commands[] = {
    {"w", "FILE",
     "save the transformed profile; the format comes from the name (.out .prof .rprof: Rprof, "
     ".pb.gz: pprof, .folded, .sprof.txt, DIR/: tables, .speedscope.json, .svg: the flame "
     "graph as shown); never replaces an input file or an existing file",
     save, 0},
    {"w!", "FILE", "the same, replacing FILE if it exists", save, 1},
    {"export-script", "FILE", "write the transform list as a script (--script reads it back)",
     export_script, 0},
    {"export-script!", "FILE", "the same, replacing FILE if it exists", export_script, 1},
    {"source", "FILE", "append the transforms of a script file (one undo step)", source, 0},
    {"resume", "",
     "append the transform list of the last session on these inputs (saved on quit; see "
     "FILES in stackscope(1))",
     resume, 0},
    {"undo", "", "undo the last change to the transform list", cmd_undo, 0},
    {"redo", "", "redo", cmd_undo, 1},
#define UI_VIEW_COMMAND(id, ops, key, cmd, arg, help, chelp)                                       \
    {cmd, UI_VA_ARGS_##arg, chelp, cmd_view, UI_V_##id},
    UI_VIEWS(UI_VIEW_COMMAND)
#undef UI_VIEW_COMMAND
        {"q", "", "quit (asks first when transforms are not saved; also quit)", cmd_quit, 0},
    {"q!", "", "quit at once", cmd_quit, 1},
    {"save-display", "FILE",
     "write the screen as text to FILE (tests, bug reports); never replaces an input file or an "
     "existing file",
     save_display, 0},
    {"save-display!", "FILE", "the same, replacing FILE if it exists", save_display, 1},
    {"save-styles", "FILE",
     "write the screen's styles to FILE, a letter per cell (tests: which cell is selected, "
     "which colour a frame has); never replaces an input file or an existing file",
     save_styles, 0},
    {"save-styles!", "FILE", "the same, replacing FILE if it exists", save_styles, 1},
    {"save-help", "FILE",
     "write this key and command reference as text; never replaces an input file or an existing "
     "file",
     cmd_save_help, 0},
    {"save-help!", "FILE", "the same, replacing FILE if it exists", cmd_save_help, 1},
    {"value", "NAME",
     "weigh every view by measure NAME: time, samples, memory, released, duplications, a pprof "
     "sample type (as --value; V takes the next)",
     cmd_value, 0},
    {"filter", "[PATTERN]",
     "show only the rows that match (a substring or /regex/), as &; no PATTERN: every row",
     cmd_filter, 0},
    {"normalize", "[on|off]",
     "comparison: scale the base to the new profile's total (as --normalize), as Z", cmd_normalize,
     0},
    {"source-path", "DIR",
     "look for source files under DIR too, by the longest tail of their path (as "
     "--source-path)",
     cmd_source_path, 0},
    {"source-map", "FROM=TO",
     "look for source files whose path starts FROM under TO (as --source-map)", cmd_source_map, 0},
    {"compare-phases", "A B",
     "compare phase B of the profile with phase A (a number, main, first or last), both after "
     "the transforms, as --base compares files (X swaps them); without phases: stop",
     cmd_compare_phases, 0},
    {"alpha", "Q",
     "a comparison's verdicts at level Q (as --alpha; default 0.05): grew, shrank or ~ with a "
     "false discovery rate of Q over each table",
     cmd_alpha, 0},
    {"follow", "[on|off|now]",
     "follow the profile's file as it is written (as --follow: the file read again from its "
     "start, then every new sample within a second; off pauses, now reads at once)",
     cmd_follow, 0},
    {"recent", "DURATION|off",
     "compare the last DURATION of the profile (10s, 500ms) with the run before it, "
     "normalized, after the transforms (as --window; with --follow the window moves as the "
     "file grows); off ends it",
     cmd_recent, 0},
    {"resize", "COLSxROWS", "headless mode: change the virtual screen's size", cmd_resize, 0},
    /* the transform language (stackscope(1), TRANSFORMS) */
    {"drop-samples", "A:B",
     "drop samples A to B (1-based, negative from the end; or times 0.5s:2s)", NULL, 0},
    {"keep-samples", "A:B", "keep only samples A to B", NULL, 0},
    {"trim-base", "N|auto[=SHARE]",
     "remove the N outermost frames, or the scaffold above the user's code (auto,all: all of it)",
     NULL, 0},
    {"trim-to", "F", "in stacks with F, remove the frames outside its outermost occurrence", NULL,
     0},
    {"focus", "F", "keep only samples with F, then trim-to F", NULL, 0},
    {"drop", "F", "remove the samples whose stack contains F", NULL, 0},
    {"merge", "F", "remove F's frames; its self time goes to its caller", NULL, 0},
    {"prune", "F", "remove the frames F calls; their time becomes F's self time", NULL, 0},
    {"replace", "F1 F2 ... => NEW", "each run of the frames F1..Fk becomes one frame NEW", NULL, 0},
    {"collapse-recursion", "F", "consecutive F frames become one", NULL, 0},
    {"class", "/REGEX/ => NAME", "assign the matching functions to a class", NULL, 0},
    {"r-simplify", "", "merge R's evaluation machinery (eval, tryCatch, source, ...)", NULL, 0},
    {"name-anonymous", "[F]", "name FUN and <Anonymous> frames FUN@FILE#LINE by their call site",
     NULL, 0},
    {"keep-phase", "P [OPT=V]",
     "keep only phase P (a number, main, first or last) of the phases found at this step; "
     "phases=N or penalty=X tune the detector (--phases, --penalty)",
     NULL, 0},
    {"drop-phase", "P [OPT=V]",
     "remove phase P (a burn-in: first, a fade-out: last); phases=N, penalty=X as keep-phase", NULL,
     0},
    {"keep-line", "FILE#LINE",
     "keep only the samples through that source line (Enter in the code pane; report --by line "
     "names the lines)",
     NULL, 0},
    {"preset", "NAME",
     "add a preset's steps (one undo step): r (r-simplify, name-anonymous, trim-base auto) or "
     "trim-burnin (keep-phase main)",
     cmd_preset, 0},
};

/* Other spellings, not shown in the help or offered by completion. */
static const struct {
    const char *alias, *name;
} aliases[] = {{"write", "w"}, {"write!", "w!"}, {"quit", "q"}, {"quit!", "q!"}};

const struct ui_command_info *ui_commands(size_t *n)
{
    *n = ARRAY_SIZE(commands);
    return commands;
}

/* The command named `word` (aliases resolved), or NULL. */
static const struct ui_command_info *find_command(const char *word)
{
    for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
        if (!strcmp(word, aliases[i].alias))
            word = aliases[i].name;
    for (size_t i = 0; i < ARRAY_SIZE(commands); i++)
        if (commands[i].run && !strcmp(word, commands[i].name))
            return &commands[i];
    return NULL;
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

    if (ss_tf_is_command(word)) {
        ui_add_transform(ui, line, edit_step, insert_at);
        return;
    }
    if (edit_step >= 0 || insert_at >= 0) {
        ui_error(ui, "%s: not a transform command", word);
        return;
    }
    const struct ui_command_info *c = find_command(word);
    if (c)
        c->run(ui, arg, c->data);
    else
        ui_error(ui, "%s: unknown command (:help lists them; Tab completes)", word);
}
