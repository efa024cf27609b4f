/* fuzz_ui.c - libFuzzer target: the explorer driven by random keys and `:`
 * commands on small profiles, headless (ncurses' newterm on /dev/null, as
 * STACKSCOPE_SCRIPT mode runs it for the tests).
 *
 * The input's first byte picks a profile: Rprof (memory + line profiling, two
 * sessions), folded, SamplingProf (aggregates only), pprof (the Rprof profile
 * written by the pprof writer), or Rprof and folded as two sources.  The rest
 * is a headless key script (ui/script.h: key lines with <Name> keys and mouse
 * events, `:COMMAND` lines) run by ss_ui_main.
 *
 * Commands that name a file (`w`, `export-script`, `source`, `save-display`,
 * `save-help`) reach the UI through __wrap_ui_command (the program is linked
 * with -Wl,--wrap=ui_command), which keeps only the file name's plain
 * characters and puts it inside a private scratch directory, emptied after
 * each input: the fuzzer may save, export and source as much as it likes, but
 * never outside that directory.  The UI's own fatal-signal handlers are kept
 * out (__asan_default_options) so that a crash reaches the sanitizer and the
 * fuzzer keeps the input.  Build and run with scripts/fuzz.sh;
 * tests/fuzz/replay.c replays the inputs kept in tests/data/fuzz/ui/. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app.h"
#include "command.h"
#include "fuzz_tmp.h"
#include "load.h"
#include "ui.h"
#include "write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
void __real_ui_command(struct ui *ui, const char *line, int edit_step, int insert_at);
void __wrap_ui_command(struct ui *ui, const char *line, int edit_step, int insert_at);
const char *__asan_default_options(void);

/* SEGV, BUS, FPE and ABRT stay with the sanitizer: the UI's handlers (which
 * restore the terminal and die) would hide the crash from the fuzzer. */
const char *__asan_default_options(void)
{
    return "allow_user_segv_handler=0:handle_abort=1";
}

static const char rprof[] = "memory profiling: line profiling: sample.interval=20000\n"
                            "#File 1: /w/a.R\n"
                            ":10:20:30:1:1#5 \"f\" 1#9 \"main\" 1#1 \n"
                            ":11:21:31:0:\"g\" 1#6 \"f\" 1#9 \"main\" 1#1 \n"
                            ":12:22:32:0:\n"
                            ":14:22:40:2:\"g\" \"g\" 1#6 \"f\" 1#9 \"main\" 1#1 \n"
                            ":15:25:41:0:\"a b\" 1#10 \"main\" 1#1 \n"
                            ":9:25:41:0:\"<GC>\" \"g\" 1#6 \"f\" 1#9 \"main\" 1#1 \n"
                            "memory profiling: line profiling: sample.interval=10000\n"
                            "#File 1: /w/b.R\n"
                            ":20:30:40:0:\"[\" \"lapply\" 1#3 \"k\" 1#2 \"main\" 1#1 \n"
                            ":21:30:44:0:\"g\" 1#4 \"k\" 1#2 \"main\" 1#1 \n"
                            ":21:30:44:0:\"g\" 1#4 \"k\" 1#2 \"main\" 1#1 \n"
                            ":22:31:48:1:\"main\" 1#1 \n";

static const char folded[] = "main;f;g 3\nmain;f 2\nmain;h h 1\nmain;f;g;g;f;g 2\n"
                             "main;a;b;c;d;e;f;g;h;i;j;k;l;m;n;o;p;q;r;s;t;u;v 1\n"
                             "other;f 4\n";

static const char sampling[] = "250\n"
                               "\n"
                               "a.rb:1:main,0\n"
                               "a.rb:5:f,1\n"
                               "b.rb:9:g,2\n"
                               "b.rb:12:f,3\n"
                               "\n"
                               "0,1,10\n"
                               "1,4,9\n"
                               "2,3,3\n"
                               "3,2,2\n"
                               "\n"
                               "-1,0,10\n"
                               "0,1,9\n"
                               "1,2,3\n"
                               "1,3,2\n";

static char scratch[600], script[600], paths[4][600];

static void put_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f))
        abort();
}

/* The scratch directory, its profiles, and the script's path in the
 * environment (once per process). */
static void setup(void)
{
    if (script[0])
        return;
    const char *dir = fuzz_tmp("ui");
    snprintf(scratch, sizeof scratch, "%s/w", dir);
    snprintf(script, sizeof script, "%s/script", dir);
    mkdir(scratch, 0700);
    static const char *const names[4] = {"a.out", "b.folded", "c.sprof.txt", "d.pb.gz"};
    for (int i = 0; i < 4; i++)
        snprintf(paths[i], sizeof paths[i], "%s/%s", dir, names[i]);
    put_file(paths[0], rprof, sizeof rprof - 1);
    put_file(paths[1], folded, sizeof folded - 1);
    put_file(paths[2], sampling, sizeof sampling - 1);
    struct ss_model m;
    struct ss_error err;
    char *one[1] = {paths[0]};
    if (ss_load_files(&m, one, 1, NULL, &err))
        abort();
    FILE *f = fopen(paths[3], "wb");
    if (!f || ss_write_pprof(&m, f, paths[3], &err) || fclose(f))
        abort();
    ss_model_free(&m);
    setenv("STACKSCOPE_SCRIPT", script, 1);
    setenv("NO_COLOR", "", 1);
    unsetenv("STACKSCOPE_SIZE");
    unsetenv("STACKSCOPE_UI_TIMING");
}

static int is_file_command(const char *w, size_t n)
{
    static const char *const cmds[] = {"w",
                                       "write",
                                       "w!",
                                       "write!",
                                       "source",
                                       "export-script",
                                       "export-script!",
                                       "save-display",
                                       "save-display!",
                                       "save-help",
                                       "save-help!"};
    for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
        if (strlen(cmds[i]) == n && !memcmp(cmds[i], w, n))
            return 1;
    return 0;
}

/* A command naming a file gets a name inside the scratch directory: the
 * argument's letters, digits, '_', '-' and '.' (no leading '.'), and a final
 * '/' kept (a tables directory). */
void __wrap_ui_command(struct ui *ui, const char *line, int edit_step, int insert_at)
{
    const char *p = line;
    while (*p == ' ' || *p == ':')
        p++;
    size_t k = strcspn(p, " ");
    if (!is_file_command(p, k)) {
        __real_ui_command(ui, line, edit_step, insert_at);
        return;
    }
    char safe[900];
    int n = snprintf(safe, sizeof safe, "%.*s %s/", (int)k, p, scratch);
    size_t start = (size_t)n, len = start;
    const char *arg = p + k;
    size_t alen = strlen(arg);
    while (alen && arg[alen - 1] == ' ')
        alen--;
    for (size_t i = 0; i < alen && len + 2 < sizeof safe; i++) {
        char c = arg[i];
        int plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || (c == '.' && len > start);
        if (plain)
            safe[len++] = c;
    }
    if (len == start) {
        n = snprintf(safe, sizeof safe, "%.*s", (int)k, p); /* no name: the UI says so */
        len = (size_t)n;
    } else if (alen && arg[alen - 1] == '/') {
        safe[len++] = '/';
    }
    safe[len] = '\0';
    __real_ui_command(ui, safe, edit_step, insert_at);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    setup();
    if (size < 1)
        return 0;
    /* <Sleep MS> would let the fuzzer wait up to 10 minutes: made a key
     * name that does not exist ("Sleeq", an error that ends the script) */
    uint8_t *keys = malloc(size);
    if (!keys)
        abort();
    memcpy(keys, data + 1, size - 1);
    for (size_t i = 0; i + 5 <= size - 1; i++)
        if (!memcmp(keys + i, "Sleep", 5))
            keys[i + 4] = 'q';
    put_file(script, keys, size - 1);
    free(keys);
    int pick = data[0] % 5;
    char *files[2] = {paths[pick == 4 ? 0 : pick], paths[1]};
    int nfiles = pick == 4 ? 2 : 1;
    struct ss_explore in;
    ss_explore_init(&in);
    struct ss_error err;
    if (ss_load_files(&in.model, files, nfiles, NULL, &err))
        abort();
    in.files = files;
    in.nfiles = nfiles;
    ss_ui_main(&in);            /* takes the model */
    fuzz_tmp_clear(scratch, 1); /* files, and the tables directories of `:w DIR/` */
    return 0;
}
