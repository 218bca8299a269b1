/* SPDX-License-Identifier: MIT */
/*
 * Descriptive statistics of a point's per-iteration values and the rules
 * that decide when a point has been measured enough.  Pure functions: no
 * clock, no I/O, unit-tested against hand-computed values.
 */
#ifndef PTB_STATS_H
#define PTB_STATS_H

#include <stdbool.h>

struct ptb_stats {
	int n;
	double mean, sd, cv_pct;
	double median, ci_lo, ci_hi;    /* median and its 95 % CI (order statistics) */
	double min, max;
	int outliers;                   /* outside Tukey's fences, 1.5 IQR */
};

enum ptb_stop_rule {
	PTB_STOP_SD,   /* sd <= p % of the mean (the paper's rule) */
	PTB_STOP_SE,   /* sd / sqrt(n) <= p % of the mean (SKaMPI's) */
	PTB_STOP_CI,   /* 95 % CI of the median within +-p % of the median */
	PTB_STOP_RULE_COUNT
};

const char *ptb_stop_rule_name(enum ptb_stop_rule r);
int ptb_stop_rule_from_name(const char *name);   /* -1 if unknown */

void ptb_stats_compute(const double *x, int n, struct ptb_stats *s);
/* Sort ascending; the median of n > 0 values, sorting them in place. */
void ptb_sort_doubles(double *x, int n);
double ptb_median_inplace(double *x, int n);
/* Ranks (0-based, inclusive) bounding the 95 % CI of the median of n sorted
 * values; lo = 0 and hi = n - 1 when n is too small for 95 %. */
void ptb_median_ci_ranks(int n, int *lo, int *hi);
bool ptb_stop_rule_met(enum ptb_stop_rule r, const struct ptb_stats *s, double pct);

#endif
