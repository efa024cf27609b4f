/* tf_bench.c - time re-applying a transform list and recomputing the
 * function table, as the UI does after every edit (HACKING.md, Targets: within
 * 100 ms at 1M samples).  Not part of `make check`; build it with
 * `make bench/tf_bench` and run
 *     bench/tf_bench FILE SCRIPT [REPS]
 * It loads FILE once, then REPS times (default 10): applies SCRIPT's list to
 * the loaded model from scratch, computes and sorts the self/total table,
 * finds the phases of the result (phases.h: what `report --by phases`,
 * the explorer's phase row and its phases view compute; HACKING.md, Targets:
 * within 300 ms at 10M samples), and frees the transformed model.  Prints
 * each part's median and maximum
 * wall time (CLOCK_MONOTONIC) and the median CPU time of the process
 * (CLOCK_PROCESS_CPUTIME_ID: steadier on a busy machine), in milliseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "load.h"
#include "phases.h"
#include "stats.h"
#include "transform.h"

static double clock_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
    return clock_ms(CLOCK_MONOTONIC);
}

static double cpu_ms(void)
{
    return clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static void report(const char *what, double *v, double *cpu, int n)
{
    double med = median(v, n);
    printf("%-16s wall median %7.1f ms  max %7.1f ms   cpu median %7.1f ms\n", what, med, v[n - 1],
           median(cpu, n));
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: tf_bench FILE SCRIPT [REPS]\n");
        return 2;
    }
    int reps = argc == 4 ? atoi(argv[3]) : 10;
    if (reps < 1 || reps > 1000) {
        fprintf(stderr, "tf_bench: REPS must be 1 to 1000\n");
        return 2;
    }
    struct ss_error err;
    struct ss_model orig;
    double t0 = now_ms();
    if (ss_load_files(&orig, argv + 1, 1, NULL, &err)) {
        fprintf(stderr, "tf_bench: %s\n", err.msg);
        return 2;
    }
    printf("%-16s %7.1f ms (%zu samples, %zu distinct stacks)\n", "load", now_ms() - t0,
           orig.sample_stack.n, ss_model_nstacks(&orig));
    struct ss_tf_list *l = ss_tf_list_new();
    if (!l || ss_tf_append_script_file(l, argv[2], &err)) {
        fprintf(stderr, "tf_bench: %s\n", l ? err.msg : "out of memory");
        return 2;
    }
    /* wall and cpu times of apply, table, free, all, phases: 10 x reps */
    double *v = calloc(10 * (size_t)reps, sizeof *v);
    if (!v)
        return 2;
    double *ap = v, *st = v + reps, *fr = v + 2 * reps, *all = v + 3 * reps, *cap = v + 4 * reps,
           *cst = v + 5 * reps, *cfr = v + 6 * reps, *call = v + 7 * reps, *ph = v + 8 * reps,
           *cph = v + 9 * reps;
    size_t kept = 0, nphases = 0;
    for (int r = 0; r < reps; r++) {
        struct ss_model m;
        struct ss_stats s;
        double a = now_ms(), ca = cpu_ms();
        if (ss_tf_apply(l, &orig, &m, &err)) {
            fprintf(stderr, "tf_bench: %s\n", err.msg);
            return 2;
        }
        double b = now_ms(), cb = cpu_ms();
        if (ss_stats_compute(&m, SS_BY_FUNCTION, 0, &s, &err)) {
            fprintf(stderr, "tf_bench: %s\n", err.msg);
            return 2;
        }
        ss_stats_sort_self(&s);
        double c = now_ms(), cc = cpu_ms();
        struct ss_phases p;
        if (ss_phases_compute(&m, NULL, &p, &err)) {
            fprintf(stderr, "tf_bench: %s\n", err.msg);
            return 2;
        }
        double e = now_ms(), ce = cpu_ms();
        nphases = p.n;
        ss_phases_free(&p);
        ph[r] = e - c;
        cph[r] = ce - cc;
        c = now_ms(), cc = cpu_ms();
        kept = m.sample_stack.n;
        ss_stats_free(&s);
        ss_model_free(&m);
        double d = now_ms(), cd = cpu_ms();
        cap[r] = cb - ca;
        cfr[r] = cd - cc;
        call[r] = cd - ca - cph[r];
        ap[r] = b - a;
        st[r] = c - b - ph[r];
        cst[r] = cc - cb - cph[r];
        fr[r] = d - c;
        all[r] = d - a - ph[r];
    }
    printf("%zu of %zu steps enabled; %zu samples after them; %d runs\n", ss_tf_active(l),
           ss_tf_count(l), kept, reps);
    report("apply", ap, cap, reps);
    report("function table", st, cst, reps);
    report("free", fr, cfr, reps);
    report("total", all, call, reps);
    printf("%zu phases found in the result:\n", nphases);
    report("phases", ph, cph, reps);
    ss_tf_list_free(l);
    ss_model_free(&orig);
    free(v);
    return 0;
}
