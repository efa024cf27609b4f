/* units.h - a measure's numbers for people and for programs
 * (stackscope(1), MEASURES): TSV gives raw units at full precision; text and
 * the explorer give human units (B/kB/MB/GB by 1024, ns/us/ms/s, counts with
 * thousands separators), and the `time` measure in seconds with as many
 * decimals as the sampling interval needs. */
#ifndef SS_UNITS_H
#define SS_UNITS_H

#include <stddef.h>

#include "model.h"

/* How the numbers of a measure read: the measure, and the decimals of
 * `time` in seconds (ss_time_decimals). */
struct ss_units {
    struct ss_measure measure;
    int decimals;
};

/* The units of m's chosen measure. */
void ss_units_of(const struct ss_model *m, struct ss_units *u);

/* Decimals that show m's shortest sampling interval in seconds: 3 for 1 ms
 * and longer, 4 for 100 us, ... at most 9. */
int ss_time_decimals(const struct ss_model *m);

/* Format v (in the measure's raw unit) into buf[0..n): tsv: full precision
 * (%.15g), else for people. */
void ss_format_value(char *buf, size_t n, const struct ss_units *u, double v, int tsv);

/* An integer with thousands separators: 1234567 -> "1,234,567". */
void ss_format_count(char *buf, size_t n, double v);

#endif
