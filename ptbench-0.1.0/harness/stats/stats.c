/* SPDX-License-Identifier: MIT */
/*
 * Descriptive statistics of a point's samples and the stopping rules.
 * Choices, so that every figure can be recomputed by hand:
 * - sd is the sample standard deviation (divisor n - 1); with one value it
 *   is 0, so callers that stop on it must have at least two (measure.c does).
 * - Quartiles for Tukey's fences use linear interpolation between order
 *   statistics, Q(p) = x[h] with h = (n - 1) p (Hyndman and Fan's type 7,
 *   the default of R and NumPy); a value outside [Q1 - 1.5 IQR, Q3 + 1.5 IQR]
 *   is an outlier.
 * - The 95 % CI of the median is distribution-free, by order statistics:
 *   the ranks k and n + 1 - k (1-based) with the largest k for which
 *   P(Binomial(n, 1/2) <= k - 1) <= 0.025, so the coverage is at least 95 %.
 *   The binomial is summed exactly up to n = 100, beyond it the normal
 *   approximation n/2 -+ 1.96 sqrt(n)/2 is rounded outwards.  Below n = 6
 *   no pair of ranks reaches 95 % and the CI is the full range.
 * Rules compare 100 x deviation with pct x centre rather than dividing, so
 * a boundary case given in whole numbers is decided exactly.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

#define EXACT_BINOMIAL_MAX 100

/* rule          name */
static const char *const rule_names[PTB_STOP_RULE_COUNT] = {
	[PTB_STOP_SD] = "sd",
	[PTB_STOP_SE] = "se",
	[PTB_STOP_CI] = "ci",
};

const char *ptb_stop_rule_name(enum ptb_stop_rule r)
{
	return (unsigned)r < PTB_STOP_RULE_COUNT ? rule_names[r] : "?";
}

int ptb_stop_rule_from_name(const char *name)
{
	for (int r = 0; r < PTB_STOP_RULE_COUNT; r++)
		if (name && strcmp(rule_names[r], name) == 0)
			return r;
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void ptb_sort_doubles(double *x, int n)
{
	qsort(x, (size_t)n, sizeof *x, cmp_double);
}

double ptb_median_inplace(double *x, int n)
{
	ptb_sort_doubles(x, n);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* Type-7 quantile of sorted x. */
static double quantile(const double *x, int n, double p)
{
	double h = (n - 1) * p;
	int i = (int)floor(h);
	if (i + 1 >= n)
		return x[n - 1];
	return x[i] + (h - i) * (x[i + 1] - x[i]);
}

/* Largest k (1-based) with P(B <= k - 1) <= 0.025, or 0 if there is none. */
static int exact_lower_rank(int n)
{
	double pmf = ldexp(1.0, -n), cdf = 0;   /* P(B = 0) = 2^-n */
	int k = 0;
	for (int j = 0; j < n; j++) {
		cdf += pmf;
		if (cdf > 0.025)
			break;
		k = j + 1;
		pmf *= (double)(n - j) / (j + 1);
	}
	return k;
}

void ptb_median_ci_ranks(int n, int *lo, int *hi)
{
	int k;
	if (n <= EXACT_BINOMIAL_MAX)
		k = exact_lower_rank(n);
	else
		k = (int)floor(n / 2.0 - 1.96 * sqrt((double)n) / 2);
	if (k < 1) {
		*lo = 0;
		*hi = n > 0 ? n - 1 : 0;
		return;
	}
	*lo = k - 1;
	*hi = n - k;
}

static void moments(const double *x, int n, struct ptb_stats *s)
{
	double sum = 0, ss = 0;
	for (int i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / n;
	for (int i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	/* Samples are times, never negative: a zero mean means all zeros. */
	s->cv_pct = s->mean != 0 ? 100 * s->sd / fabs(s->mean) : 0;
}

static void order_stats(const double *sorted, int n, struct ptb_stats *s)
{
	int lo, hi;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = quantile(sorted, n, 0.5);
	ptb_median_ci_ranks(n, &lo, &hi);
	s->ci_lo = sorted[lo];
	s->ci_hi = sorted[hi];

	double q1 = quantile(sorted, n, 0.25), q3 = quantile(sorted, n, 0.75);
	double fence = 1.5 * (q3 - q1);
	s->outliers = 0;
	for (int i = 0; i < n; i++)
		s->outliers += sorted[i] < q1 - fence || sorted[i] > q3 + fence;
}

void ptb_stats_compute(const double *x, int n, struct ptb_stats *s)
{
	memset(s, 0, sizeof *s);
	s->n = n;
	if (n <= 0)
		return;
	moments(x, n, s);
	double *sorted = malloc(n * sizeof *sorted);
	if (!sorted) {
		/* Keep the moments; order statistics need the copy. */
		s->median = s->ci_lo = s->ci_hi = s->min = s->max = NAN;
		return;
	}
	memcpy(sorted, x, n * sizeof *sorted);
	ptb_sort_doubles(sorted, n);
	order_stats(sorted, n, s);
	free(sorted);
}

bool ptb_stop_rule_met(enum ptb_stop_rule r, const struct ptb_stats *s, double pct)
{
	if (s->n < 2)
		return false;
	switch (r) {
	case PTB_STOP_SD:
		return 100 * s->sd <= pct * s->mean;
	case PTB_STOP_SE:
		return 100 * s->sd <= pct * s->mean * sqrt((double)s->n);
	case PTB_STOP_CI:
		return 100 * (s->median - s->ci_lo) <= pct * s->median &&
		       100 * (s->ci_hi - s->median) <= pct * s->median;
	default:
		return false;
	}
}
