/* SPDX-License-Identifier: MIT */
/*
 * The statistics of `ptbench compare`: a two-sided Mann-Whitney U test of
 * two samples of per-iteration times (the trials' estimates of two runs)
 * and the Hodges-Lehmann estimate of the shift between them (the median of
 * all pairwise differences new - base) with its confidence interval at the
 * caller's level.  Both are rank methods, so a few trials disturbed by the
 * scheduler or the hypervisor cannot drag them the way they drag a mean.  Small samples without ties use the exact null
 * distribution of U; otherwise the normal approximation with tie and
 * continuity corrections.  The pairwise differences are never stored: their
 * order statistics are found by bisection with a linear-time count, so
 * memory stays O(nb + nn) however many timings a run kept.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/mannwhitney.h"
#include "stats/stats.h"

/* Exact null distribution up to this many values per sample (no ties). */
#define PTB_MW_EXACT_MAX 20
/* A cdf value equal to the tail in exact arithmetic still counts as within
 * it, whatever the rounding of either. */
#define PTB_MW_TAIL_SLACK (1 + 1e-12)

static double *sorted_copy(const double *x, int n)
{
	double *s = malloc((size_t)n * sizeof *s);
	if (s) {
		memcpy(s, x, (size_t)n * sizeof *s);
		ptb_sort_doubles(s, n);
	}
	return s;
}

/*
 * U of the second sample, the number of pairs (i, j) with y[j] > x[i]
 * (ties count 1/2), from one merge of the sorted samples; also the tie term
 * sum(t^3 - t) over groups of equal values for the variance.
 */
static double u_statistic(const double *x, int m, const double *y, int n, double *ties)
{
	double u = 0;
	int i = 0, j = 0;
	*ties = 0;
	while (i < m || j < n) {
		double v = (j >= n || (i < m && x[i] < y[j])) ? x[i] : y[j];
		int ti = 0, tj = 0;
		while (i < m && x[i] == v) { i++; ti++; }
		while (j < n && y[j] == v) { j++; tj++; }
		/* y values equal to v beat the i - ti x values below v, tie ti */
		u += tj * ((i - ti) + 0.5 * ti);
		double t = ti + tj;
		*ties += t * t * t - t;
	}
	return u;
}

/*
 * Null distribution of U for m and n values without ties, as cumulative
 * probabilities cdf[u] = P(U <= u), u = 0..m*n.  Counts arrangements with
 * the recurrence on the largest value: f(m, n, u) = f(m, n-1, u-m) +
 * f(m-1, n, u).  Counts stay exact in doubles (C(40, 20) < 2^53).
 */
static double *exact_cdf(int m, int n)
{
	int top = m * n;
	double *f = calloc((size_t)(m + 1) * (n + 1) * (top + 1), sizeof *f);
	double *cdf = malloc((size_t)(top + 1) * sizeof *cdf);
	if (!f || !cdf) {
		free(f);
		free(cdf);
		return NULL;
	}
#define F(a, b, u) f[((size_t)(a) * (n + 1) + (b)) * (top + 1) + (u)]
	for (int a = 0; a <= m; a++)
		for (int b = 0; b <= n; b++)
			for (int u = 0; u <= a * b; u++) {
				if (a == 0 || b == 0) {
					F(a, b, u) = u == 0;
					continue;
				}
				F(a, b, u) = (u >= a ? F(a, b - 1, u - a) : 0) + F(a - 1, b, u);
			}
	double total = 0, run = 0;
	for (int u = 0; u <= top; u++)
		total += F(m, n, u);
	for (int u = 0; u <= top; u++) {
		run += F(m, n, u);
		cdf[u] = run / total;
	}
#undef F
	free(f);
	return cdf;
}

/* Number of pairs with y[j] - x[i] <= v (both sorted ascending). */
static double count_le(const double *x, int m, const double *y, int n, double v)
{
	double c = 0;
	int i = 0;
	for (int j = 0; j < n; j++) {
		while (i < m && y[j] - x[i] > v)
			i++;
		c += m - i;
	}
	return c;
}

/* The k-th smallest (1-based) of the m*n differences y[j] - x[i]: the
 * least double d with count_le(d) >= k, found by bisection. */
static double kth_difference(const double *x, int m, const double *y, int n, double k)
{
	double lo = nextafter(y[0] - x[m - 1], -INFINITY);  /* count_le(lo) = 0 < k */
	double hi = y[n - 1] - x[0];                        /* count_le(hi) = m*n */
	while (nextafter(lo, INFINITY) < hi) {
		double mid = lo + (hi - lo) / 2;
		if (mid <= lo || mid >= hi)
			mid = nextafter(lo, INFINITY);
		if (count_le(x, m, y, n, mid) >= k)
			hi = mid;
		else
			lo = mid;
	}
	/* Bisection may end on -0.0 or +0.0 (which path it takes depends on
	 * whether the compiler fuses lo + (hi - lo) / 2); both are the same
	 * least value, so return one of them and print the same everywhere. */
	return hi == 0 ? 0.0 : hi;
}

/* z with P(|Z| > z) = a for a standard normal Z, by bisection on erfc. */
static double z_two_sided(double a)
{
	double lo = 0, hi = 40;
	for (int i = 0; i < 200; i++) {
		double mid = (lo + hi) / 2;
		if (erfc(mid / M_SQRT2) > a)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* Rank k of the CI bounds D(k), D(mn+1-k) at `level`: the largest k with
 * P(U <= k-1) <= (1 - level) / 2; 0 when no k qualifies. */
static double ci_rank(int m, int n, const double *cdf, double level)
{
	double mn = (double)m * n, tail = (1 - level) / 2;
	if (cdf) {
		int k = 0;
		while (k < m * n && cdf[k] <= tail * PTB_MW_TAIL_SLACK)
			k++;
		return k;
	}
	/* P(U <= k-1) ~ Phi((k - 1/2 - mn/2) / sigma) <= tail */
	double c = mn / 2 - z_two_sided(1 - level) * sqrt(mn * (m + n + 1) / 12.0);
	return c + 0.5 >= 1 ? floor(c + 0.5) : 0;
}

static double two_sided_p(double u, int m, int n, double ties, const double *cdf)
{
	double mn = (double)m * n;
	if (cdf) {
		int ui = (int)u;
		double lower = cdf[ui], upper = 1 - (ui > 0 ? cdf[ui - 1] : 0);
		return fmin(1, 2 * fmin(lower, upper));
	}
	double total = m + n;
	double var = mn / 12 * ((total + 1) - ties / (total * (total - 1)));
	if (var <= 0)
		return 1;   /* every value equal: no evidence of a shift */
	double z = (fabs(u - mn / 2) - 0.5) / sqrt(var);
	return z <= 0 ? 1 : fmin(1, erfc(z / M_SQRT2));
}

int ptb_mann_whitney(const double *base, int nb, const double *next, int nn, double level,
		     struct ptb_mw *r)
{
	if (nb < 1 || nn < 1)
		return -1;
	double *x = sorted_copy(base, nb), *y = sorted_copy(next, nn), *cdf = NULL;
	if (!x || !y) {
		free(x);
		free(y);
		return -1;
	}
	double ties;
	r->u = u_statistic(x, nb, y, nn, &ties);
	if (ties == 0 && nb <= PTB_MW_EXACT_MAX && nn <= PTB_MW_EXACT_MAX)
		cdf = exact_cdf(nb, nn);
	r->p = two_sided_p(r->u, nb, nn, ties, cdf);

	double mn = (double)nb * nn;
	r->shift = kth_difference(x, nb, y, nn, floor((mn + 1) / 2));
	if (fmod(mn, 2) == 0)
		r->shift = (r->shift + kth_difference(x, nb, y, nn, mn / 2 + 1)) / 2;
	double k = ci_rank(nb, nn, cdf, level);
	r->shift_lo = k >= 1 ? kth_difference(x, nb, y, nn, k) : NAN;
	r->shift_hi = k >= 1 ? kth_difference(x, nb, y, nn, mn + 1 - k) : NAN;
	free(cdf);
	free(x);
	free(y);
	return 0;
}
