/* units.c - a measure's numbers for people and for programs (see units.h). */
#include "units.h"

#include <math.h>
#include <stdio.h>

int ss_time_decimals(const struct ss_model *m)
{
    double lo = 0;
    for (size_t s = 0; s < m->sources.n; s++) {
        double iv = m->sources.v[s].interval_us;
        if (iv > 0 && (lo == 0 || iv < lo))
            lo = iv;
    }
    int d = 3;
    while (d < 9 && lo > 0 && lo < 1e6 * pow(10, -d) * (1 - 1e-9))
        d++;
    return d;
}

void ss_units_of(const struct ss_model *m, struct ss_units *u)
{
    u->measure = m->weights.measure;
    u->decimals = ss_time_decimals(m);
}

void ss_format_count(char *buf, size_t n, double v)
{
    char digits[64];
    if (!(fabs(v) < 1e18)) {
        snprintf(buf, n, "%.6g", v);
        return;
    }
    snprintf(digits, sizeof digits, "%.0f", fabs(v));
    size_t len = 0, nd = 0;
    while (digits[nd])
        nd++;
    char out[96];
    if (v < 0 && nd && !(nd == 1 && digits[0] == '0'))
        out[len++] = '-';
    for (size_t i = 0; i < nd; i++) {
        if (i && (nd - i) % 3 == 0)
            out[len++] = ',';
        out[len++] = digits[i];
    }
    out[len] = '\0';
    snprintf(buf, n, "%s", out);
}

/* v scaled down by `step` until under it, with the unit names. */
static void human(char *buf, size_t n, double v, const char *const *names, size_t nnames,
                  const double *steps)
{
    double a = fabs(v);
    size_t k = 0;
    while (k + 1 < nnames && a >= steps[k + 1] * 0.9995)
        k++;
    double x = v / steps[k];
    if (steps[k] == 1 && x == floor(x))
        snprintf(buf, n, "%.0f %s", x, names[k]);
    else
        snprintf(buf, n, "%.*f %s", fabs(x) >= 100 ? 1 : 2, x, names[k]);
}

void ss_format_value(char *buf, size_t n, const struct ss_units *u, double v, int tsv)
{
    const struct ss_measure *ms = &u->measure;
    if (tsv) {
        snprintf(buf, n, "%.15g", v == 0 ? 0.0 : v);
        return;
    }
    if (ms->kind == SS_MEASURE_TIME) {
        snprintf(buf, n, "%.*f", u->decimals, v);
        return;
    }
    if (v == 0) {
        snprintf(buf, n, "0");
        return;
    }
    switch (ms->unit_kind) {
    case SS_UNIT_SECONDS: {
        static const char *const names[] = {"ns", "us", "ms", "s"};
        static const double steps[] = {1e-9, 1e-6, 1e-3, 1};
        double s = v * ms->unit_scale;
        /* in units of ns so that the steps compare exactly */
        double base[4];
        for (int i = 0; i < 4; i++)
            base[i] = steps[i] / 1e-9;
        human(buf, n, s / 1e-9, names, 4, base);
        return;
    }
    case SS_UNIT_BYTES: {
        static const char *const names[] = {"B", "kB", "MB", "GB", "TB", "PB"};
        static const double steps[] = {1.0,
                                       1024.0,
                                       1024.0 * 1024,
                                       1024.0 * 1024 * 1024,
                                       1024.0 * 1024 * 1024 * 1024,
                                       1024.0 * 1024 * 1024 * 1024 * 1024};
        human(buf, n, v * ms->unit_scale, names, 6, steps);
        return;
    }
    case SS_UNIT_COUNT:
        ss_format_count(buf, n, v);
        return;
    case SS_UNIT_OTHER:
        break;
    }
    snprintf(buf, n, "%.6g", v);
}
