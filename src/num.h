/* num.h - exact comparison of doubles, said on purpose.
 *
 * The build warns about == and != on floating point (-Wfloat-equal): most
 * such comparisons are rounding bugs.  The few that mean "exactly this
 * value" (a whole number, the interval 1 s, a value that survives printing)
 * say so with ss_double_eq, which is a == b to the bit of its meaning: false
 * when either is NaN, true for 0 and -0.
 */
#ifndef SS_NUM_H
#define SS_NUM_H

static inline int ss_double_eq(double a, double b)
{
    return a >= b && a <= b;
}

#endif
