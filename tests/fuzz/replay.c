/* replay.c - run one fuzz target's LLVMFuzzerTestOneInput on every file of
 * its directory of kept inputs, without libFuzzer, so that `make check`
 * replays them in the normal and the ASan+UBSan build.
 *
 * Built once per target (FUZZ_TARGET names it, linked with
 * tests/fuzz/fuzz_TARGET.c) as tests/fuzz_replay_TARGET.  Without arguments it replays
 * SS_SRCDIR/tests/data/fuzz/TARGET/ (a missing directory is no input); with
 * arguments, the files and directories given.  A crash or a sanitizer report
 * fails the run (the sanitizers abort); each file is named on stderr before
 * it runs, so the failing one is the last named. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_replay_%s: %s: cannot open\n", FUZZ_TARGET, path);
        return -1;
    }
    size_t cap = 4096, n = 0, r;
    uint8_t *p = malloc(cap);
    if (!p)
        abort();
    while ((r = fread(p + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap) {
            cap *= 2;
            uint8_t *q = realloc(p, cap);
            if (!q)
                abort();
            p = q;
        }
    }
    fclose(f);
    fprintf(stderr, "fuzz_replay_%s: %s (%zu bytes)\n", FUZZ_TARGET, path, n);
    /* libFuzzer hands a buffer of exactly the input's size: an overread of
     * one byte is caught by ASan here too. */
    uint8_t *exact = malloc(n ? n : 1);
    if (!exact)
        abort();
    memcpy(exact, p, n);
    free(p);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replay path: a file, or every regular file of a directory in name order.
 * Returns the number of files replayed, -1 on an error. */
static long replay(const char *path)
{
    struct stat st;
    if (stat(path, &st))
        return 0;
    if (!S_ISDIR(st.st_mode))
        return replay_file(path) ? -1 : 1;
    DIR *d = opendir(path);
    if (!d)
        return -1;
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 16;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn)
                abort();
            names = nn;
        }
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n])
            abort();
        snprintf(names[n], len, "%s/%s", path, e->d_name);
        n++;
    }
    closedir(d);
    if (n)
        qsort(names, n, sizeof *names, by_name);
    long count = 0;
    for (size_t i = 0; i < n; i++) {
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
            if (replay_file(names[i]))
                count = -1;
            else if (count >= 0)
                count++;
        }
        free(names[i]);
    }
    free(names);
    return count;
}

int main(int argc, char **argv)
{
    long total = 0;
    if (argc < 2) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/tests/data/fuzz/%s", SS_SRCDIR, FUZZ_TARGET);
        total = replay(dir);
    }
    for (int i = 1; i < argc && total >= 0; i++) {
        long k = replay(argv[i]);
        total = k < 0 ? -1 : total + k;
    }
    if (total < 0)
        return 1;
    /* the closing line test runners read: each input replayed is a test */
    printf("fuzz_replay_%s: %ld passed, 0 failed\n", FUZZ_TARGET, total);
    return 0;
}
