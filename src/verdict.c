/* verdict.c - the statistics of a comparison's verdicts (see verdict.h):
 * the normal and Student's t distributions, Welch's test,
 * Benjamini-Hochberg, and a row's test from its units.
 *
 * The distributions are written from their textbook definitions: the
 * normal through the C library's erfc; Student's t through the regularized
 * incomplete beta function, evaluated by its continued fraction (modified
 * Lentz); quantiles by Newton's method from an expansion (Abramowitz and
 * Stegun 26.2.23 for the normal, Cornish-Fisher 26.7.5 for t), kept in a
 * bracket.  tests/check_verdict.c holds R's answers to compare with.
 */
#include "verdict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"
#include "vec.h"

#define SQRT2 1.41421356237309504880
#define SQRT2PI 2.50662827463100050242

/* ---- the normal ------------------------------------------------------------ */

double ss_norm_cdf(double x)
{
    return 0.5 * erfc(-x / SQRT2);
}

/* The lower-tail quantile for p in (0, 0.5]: A&S 26.2.23 (|error| < 4.5e-4),
 * then Halley's steps on erfc, each about cubing the error. */
static double norm_lower(double p)
{
    double t = sqrt(-2 * log(p));
    double x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                         (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
    for (int i = 0; i < 3; i++) {
        double e = ss_norm_cdf(x) - p;
        double u = e * SQRT2PI * exp(x * x / 2);
        x -= u / (1 + x * u / 2);
    }
    return x;
}

double ss_norm_quantile(double p)
{
    if (!(p > 0))
        return p < 0 || isnan(p) ? NAN : -INFINITY;
    if (!(p < 1))
        return p > 1 || isnan(p) ? NAN : INFINITY;
    if (ss_double_eq(p, 0.5))
        return 0;
    return p <= 0.5 ? norm_lower(p) : -norm_lower(1 - p);
}

/* ---- the incomplete beta function and Student's t -------------------------- */

/* log B(a, b).  lgamma(a) - lgamma(a + b) cancels about log10(a) digits
 * when a is large (t with many degrees of freedom): there Stirling's
 * series for the difference, whose terms keep their digits:
 * lgamma(z + s) - lgamma(z) = (z - 1/2) log1p(s / z) + s log(z + s) - s
 * + S(z + s) - S(z), S(z) = 1 / (12 z) - 1 / (360 z^3) + 1 / (1260 z^5). */
static double stirling_tail(double z)
{
    double z2 = z * z;
    return (1.0 / 12 - (1.0 / 360 - 1.0 / (1260 * z2)) / z2) / z;
}

static double lbeta(double a, double b)
{
    double big = a > b ? a : b, small = a > b ? b : a;
    if (big < 100)
        return lgamma(a) + lgamma(b) - lgamma(a + b);
    double diff = (big - 0.5) * log1p(small / big) + small * log(big + small) - small +
                  stirling_tail(big + small) - stirling_tail(big);
    return lgamma(small) - diff;
}

/* The continued fraction of I_x(a, b) for x < (a + 1) / (a + b + 2), where it
 * converges quickly: x^a (1 - x)^b / (a B(a, b)) / (1 + d1 / (1 + d2 / ...)),
 * d(2m+1) = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)),
 * d(2m) = m (b - m) x / ((a + 2m - 1)(a + 2m)), by modified Lentz. */
static double incbeta_cf(double x, double a, double b)
{
    const double tiny = 1e-300;
    double lfront = a * log(x) + b * log1p(-x) - lbeta(a, b);
    double f = 1, c = 1, d = 0;
    for (int i = 0; i < 100000; i++) {
        double m = (double)(i / 2), num;
        if (i == 0)
            num = 1;
        else if (i % 2 == 0)
            num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
        else
            num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
        d = 1 + num * d;
        d = 1 / (fabs(d) < tiny ? tiny : d);
        c = 1 + num / c;
        if (fabs(c) < tiny)
            c = tiny;
        f *= c * d;
        if (fabs(1 - c * d) < 1e-15)
            break;
    }
    return exp(lfront) / a * (f - 1);
}

double ss_incbeta(double x, double a, double b)
{
    if (!(x > 0))
        return 0;
    if (!(x < 1))
        return 1;
    if (x < (a + 1) / (a + b + 2))
        return incbeta_cf(x, a, b);
    return 1 - incbeta_cf(1 - x, b, a);
}

/* Beyond this many degrees of freedom t is the normal (the difference in a
 * quantile is about z^3 / (4 df) < 1e-7). */
#define T_NORMAL_DF 1e8

/* P(T > t) for t >= 0: I_{df / (df + t^2)}(df / 2, 1 / 2) / 2, with the
 * argument 1 - x = t^2 / (df + t^2) computed as such (no cancellation). */
static double t_upper(double t, double df)
{
    if (!(df < T_NORMAL_DF))
        return ss_norm_cdf(-t);
    double t2 = t * t, x = df / (df + t2), y = t2 / (df + t2);
    double a = df / 2, b = 0.5;
    if (x < (a + 1) / (a + b + 2))
        return incbeta_cf(x, a, b) / 2;
    return (1 - incbeta_cf(y, b, a)) / 2;
}

double ss_t_cdf(double t, double df)
{
    if (isnan(t) || !(df > 0))
        return NAN;
    return t >= 0 ? 1 - t_upper(t, df) : t_upper(-t, df);
}

double ss_t_pvalue(double t, double df)
{
    if (isnan(t) || !(df > 0))
        return NAN;
    double p = 2 * t_upper(fabs(t), df);
    return p > 1 ? 1 : p;
}

/* The density of t with df degrees of freedom. */
static double t_density(double t, double df)
{
    double lc = -lbeta(df / 2, 0.5) - 0.5 * log(df); /* 1 / (sqrt(df) B(df/2, 1/2)) */
    return exp(lc - (df + 1) / 2 * log1p(t * t / df));
}

/* Cornish-Fisher (A&S 26.7.5): t from the normal quantile z, error
 * O(df^-5): a few units in the 4th digit at df = 5. */
static double t_cornish_fisher(double z, double df)
{
    double z2 = z * z;
    double g1 = (z2 + 1) * z / 4;
    double g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
    double g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
    double g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160;
    return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

/* The t > 0 with P(T > t) = u, u in (0, 0.5): exact for df 1 and 2, else
 * Newton from Cornish-Fisher, bisecting when a step leaves the bracket. */
static double t_upper_quantile(double u, double df)
{
    if (ss_double_eq(df, 1))
        return 1 / tan(M_PI * u);
    if (ss_double_eq(df, 2))
        return (1 - 2 * u) / sqrt(2 * u * (1 - u));
    double lo = 0, hi = 1, t = t_cornish_fisher(ss_norm_quantile(1 - u), df);
    while (t_upper(hi, df) > u && hi < 1e300)
        hi *= 4;
    if (!(t > lo && t < hi))
        t = (lo + hi) / 2;
    for (int i = 0; i < 200; i++) {
        double e = t_upper(t, df) - u; /* decreasing in t */
        if (e > 0)
            lo = t;
        else
            hi = t;
        double next = t + e / t_density(t, df);
        if (!(next > lo && next < hi))
            next = (lo + hi) / 2;
        if (fabs(next - t) <= 1e-14 * t)
            return next;
        t = next;
    }
    return t;
}

double ss_t_quantile(double p, double df)
{
    if (isnan(p) || !(df > 0) || p < 0 || p > 1)
        return NAN;
    if (!(df < T_NORMAL_DF))
        return ss_norm_quantile(p);
    if (ss_double_eq(p, 0.5))
        return 0;
    if (!(p > 0))
        return -INFINITY;
    if (!(p < 1))
        return INFINITY;
    return p > 0.5 ? t_upper_quantile(1 - p, df) : -t_upper_quantile(p, df);
}

/* ---- tests ------------------------------------------------------------------ */

void ss_dtest_finish(struct ss_dtest *t, double alpha)
{
    if (!(t->se > 0)) {
        if (isnan(t->se) || isnan(t->diff)) {
            t->p = t->lo = t->hi = t->mdc = NAN;
            return;
        }
        t->p = ss_double_eq(t->diff, 0) ? 1 : 0;
        t->lo = t->hi = t->diff;
        t->mdc = 0;
        return;
    }
    if (!(t->df > 0)) {
        t->p = t->lo = t->hi = t->mdc = NAN;
        return;
    }
    double qa = ss_t_quantile(1 - alpha / 2, t->df), qb = ss_t_quantile(0.8, t->df);
    if (t->se0 > 0 && t->df0 > 0)
        t->p = ss_t_pvalue(t->diff / t->se0, t->df0);
    else if (!isnan(t->se0) && !isnan(t->df0))
        t->p = ss_double_eq(t->diff, 0) ? 1 : 0;
    else
        t->p = ss_t_pvalue(t->diff / t->se, t->df);
    t->lo = t->diff - qa * t->se;
    t->hi = t->diff + qa * t->se;
    t->mdc = (qa + qb) * t->se;
}

/* Mean and variance (n - 1 in the denominator) of v[0..n). */
static void mean_var(const double *v, size_t n, double *mean, double *var)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    *mean = s / (double)n;
    double ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (v[i] - *mean) * (v[i] - *mean);
    *var = ss / (double)(n - 1);
}

int ss_welch(const double *a, size_t na, const double *b, size_t nb, double alpha,
             struct ss_dtest *t)
{
    if (na < 2 || nb < 2)
        return -1;
    double ma, va, mb, vb;
    mean_var(a, na, &ma, &va);
    mean_var(b, nb, &mb, &vb);
    double sa = va / (double)na, sb = vb / (double)nb;
    t->se0 = t->df0 = NAN;
    t->diff = ma - mb;
    t->se = sqrt(sa + sb);
    double den = sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1);
    t->df = den > 0 ? (sa + sb) * (sa + sb) / den : INFINITY;
    ss_dtest_finish(t, alpha);
    return 0;
}

struct pv {
    double p;
    size_t i;
};

static int by_p_desc(const void *x, const void *y)
{
    const struct pv *a = x, *b = y;
    return a->p < b->p ? 1 : a->p > b->p ? -1 : (a->i > b->i) - (a->i < b->i);
}

int ss_bh_adjust(const double *p, double *q, size_t n)
{
    struct pv *o = ss_alloc_array(n, sizeof *o);
    if (!o)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(p[i]))
            o[m++] = (struct pv){p[i], i};
    for (size_t i = 0; i < n; i++)
        if (isnan(p[i]))
            q[i] = NAN;
    qsort(o, m, sizeof *o, by_p_desc);
    /* from the largest p down: q = min over j >= rank of m / j * p(j) */
    double run = 1;
    for (size_t k = 0; k < m; k++) {
        double v = (double)m / (double)(m - k) * o[k].p;
        if (v < run)
            run = v;
        q[o[k].i] = run;
    }
    free(o);
    return 0;
}

/* ---- verdicts ---------------------------------------------------------------- */

const char *ss_verdict_word(int sign)
{
    return sign > 0 ? "grew" : sign < 0 ? "shrank" : "~";
}

#define VAT(first, i, stride) ((struct ss_verdict *)(void *)((char *)(first) + (i) * (stride)))

int ss_verdict_adjust(void *first, size_t n, size_t stride, double alpha)
{
    double *p = ss_calloc_array(n, sizeof *p);
    if (!p)
        return -1;
    for (size_t i = 0; i < n; i++)
        p[i] = VAT(first, i, stride)->p;
    if (ss_bh_adjust(p, p, n)) {
        free(p);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        struct ss_verdict *v = VAT(first, i, stride);
        double mid = (v->lo + v->hi) / 2;
        v->q = p[i];
        v->sign = !(p[i] <= alpha) ? SS_V_SAME : mid > 0 ? SS_V_GREW : mid < 0 ? SS_V_SHRANK : 0;
    }
    free(p);
    return 0;
}

void ss_verdict_count(const void *first, size_t n, size_t stride, size_t *grew, size_t *shrank)
{
    *grew = *shrank = 0;
    for (size_t i = 0; i < n; i++) {
        int s = ((const struct ss_verdict *)(const void *)((const char *)first + i * stride))->sign;
        *grew += s > 0;
        *shrank += s < 0;
    }
}

/* The variance of a side's share of a row and its degrees of freedom, from
 * the row's units (the side lacks a row whose acc is zero).
 *
 * Independent samples: V_i = sum_i (v_i^2 / c_i) (I_i - p)^2 / T^2, the
 * two-proportion test's variance, normal.  In time order, the cycles'
 * ratio-estimator variance V_r = n / (n - 1) sum (X_c - p T_c)^2 / T^2 with
 * n - 1 degrees of freedom, but never less than V_i: a row seen in few
 * cycles (a one-off call at the start, which every run makes) leaves V_r
 * next to nothing to go on, and a profile cannot know a share better than
 * independent samples would tell it (the binomial floor); a side whose
 * floor holds counts as normal.  The floor is taken about share q, the
 * cycles' residuals about qc (the side's own share: see verdict_units). */
static void share_var(const struct ss_vside *s, const struct ss_vacc *acc, double q, double qc,
                      double *var, double *df)
{
    double T = s->total;
    double vi = ((1 - 2 * q) * acc->six + q * q * s->six_all) / (T * T);
    *var = vi > 0 ? vi : 0;
    *df = INFINITY;
    if (!s->ordered || acc->units < 2)
        return;
    double n = (double)acc->units;
    double r = acc->sxx - 2 * qc * acc->sxt + qc * qc * acc->stt; /* sum (X_c - qc T_c)^2 */
    double vr = n / (n - 1) * (r > 0 ? r : 0) / (T * T);
    if (vr > *var) {
        *var = vr;
        *df = n - 1;
    }
}

/* The standard error of t_new (p_n - p_b) and its Welch-Satterthwaite
 * degrees of freedom, each side's binomial floor about share q (qb, qn
 * when q is NAN) and its cycles' residuals about its own share qb, qn; a
 * side with no variance or infinite degrees of freedom adds nothing to
 * the denominator. */
static void units_se(const struct ss_vside *b, const struct ss_vacc *ab, double qb,
                     const struct ss_vside *n, const struct ss_vacc *an, double qn, double q,
                     double t_new, double *se, double *df)
{
    double vb, dfb, vn, dfn;
    share_var(b, ab, isnan(q) ? qb : q, qb, &vb, &dfb);
    share_var(n, an, isnan(q) ? qn : q, qn, &vn, &dfn);
    *se = t_new * sqrt(vb + vn);
    double den = (vb > 0 && isfinite(dfb) ? vb * vb / dfb : 0) +
                 (vn > 0 && isfinite(dfn) ? vn * vn / dfn : 0);
    *df = den > 0 ? (vb + vn) * (vb + vn) / den : INFINITY;
}

static void verdict_units(const struct ss_vside *b, const struct ss_vside *n, uint32_t r, int self,
                          double t_new, struct ss_dtest *t)
{
    const struct ss_vacc *ab = (self ? b->self : b->tot) + r, *an = (self ? n->self : n->tot) + r;
    double pb = ab->x / b->total, pn = an->x / n->total;
    t->diff = t_new * (pn - pb);
    units_se(b, ab, pb, n, an, pn, NAN, t_new, &t->se, &t->df);
    /* the p-value from the variance under the null: the binomial floors
     * about the pooled share (as prop.test's), which holds its level
     * better than each side's own when a side has few samples of the row;
     * the cycles' residuals stay about each side's own share, since about
     * the pooled one they would add (p_side - pool)^2 sum T_c^2, the change
     * itself, not noise (a function that went from 1 sample to a third of
     * the profile in long cycles came out ~) */
    double pool = (ab->x + an->x) / (b->total + n->total);
    units_se(b, ab, pb, n, an, pn, pool, t_new, &t->se0, &t->df0);
}

/* Welch on each file's share; -1 when a side has fewer than two files
 * with samples (then the units decide). */
static int verdict_runs(const struct ss_vside *b, const struct ss_vside *n, uint32_t r, int self,
                        double t_new, double alpha, struct ss_dtest *t)
{
    size_t kb = 0, kn = 0;
    double *sb = ss_alloc_array(b->nruns + n->nruns, sizeof *sb), *sn = sb ? sb + b->nruns : NULL;
    if (!sb)
        return -1;
    const double *xb = (self ? b->run_self : b->run_tot) + (size_t)r * b->nruns;
    const double *xn = (self ? n->run_self : n->run_tot) + (size_t)r * n->nruns;
    for (size_t j = 0; j < b->nruns; j++)
        if (b->run_total[j] > 0)
            sb[kb++] = xb[j] / b->run_total[j];
    for (size_t j = 0; j < n->nruns; j++)
        if (n->run_total[j] > 0)
            sn[kn++] = xn[j] / n->run_total[j];
    int rc = ss_welch(sn, kn, sb, kb, alpha, t);
    free(sb);
    if (rc)
        return -1;
    t->diff *= t_new;
    t->se *= t_new;
    t->lo *= t_new;
    t->hi *= t_new;
    t->mdc *= t_new;
    return 0;
}

void ss_verdict_row(const struct ss_vside *b, const struct ss_vside *n, uint32_t r, int self,
                    double t_new, double alpha, struct ss_verdict *v)
{
    const struct ss_vacc *ab = (self ? b->self : b->tot) + r, *an = (self ? n->self : n->tot) + r;
    v->q = NAN;
    v->sign = SS_V_SAME;
    v->pending = 0;
    struct ss_dtest t = {.se0 = NAN, .df0 = NAN};
    int zero = ss_double_eq(ab->x, 0) && ss_double_eq(an->x, 0);
    if (zero || !(b->total > 0) || !(n->total > 0)) {
        v->lo = v->hi = v->p = v->mdc = NAN;
        return;
    }
    int runs = (self ? b->run_self && n->run_self : b->run_tot && n->run_tot) &&
               verdict_runs(b, n, r, self, t_new, alpha, &t) == 0;
    if (!runs) {
        verdict_units(b, n, r, self, t_new, &t);
        ss_dtest_finish(&t, alpha);
    }
    v->lo = t.lo;
    v->hi = t.hi;
    v->p = t.p;
    v->mdc = t.mdc;
}

void ss_verdict_method(const struct ss_vside *b, const struct ss_vside *n, char *buf, size_t len)
{
    if (b->run_total && n->run_total) {
        snprintf(buf, len, "%zu base runs against %zu new runs: Welch's t-test on each run's share",
                 b->nruns, n->nruns);
        return;
    }
    const char *how = b->ordered && n->ordered ? "cycles of each row's runs of consecutive samples"
                      : !b->ordered && !n->ordered
                          ? "samples as independent events (no time order)"
                          : "cycles on the time-ordered side, independent samples on the other";
    snprintf(buf, len, "one run per side: %s as units", how);
}
