/* SPDX-License-Identifier: MIT */
/*
 * The A/B verdicts (stats/paired.c): the signed-rank interval's ranks and
 * level against a count of the subsets of ranks made here by brute force,
 * the Hodges-Lehmann estimate and interval against Walsh averages sorted
 * here, each verdict at its boundary, the smallest detectable change, and
 * too few pairs.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "stats/paired.h"
#include "tap.h"

/* n log-ratios log(1 + pct_i / 100). */
static void ratios(double *x, const double *pct, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = log1p(pct[i] / 100);
}

/* P(T <= c) for the signed-rank statistic of n values, by counting the
 * 2^n subsets of the ranks 1..n whose sum is at most c. */
static double brute_cdf(int n, int c)
{
	long hits = 0;
	for (long set = 0; set < 1L << n; set++) {
		int sum = 0;
		for (int r = 1; r <= n; r++)
			if (set >> (r - 1) & 1)
				sum += r;
		hits += sum <= c;
	}
	return (double)hits / (double)(1L << n);
}

static void ranks(void)
{
	long k;
	double level;
	bool got = ptb_walsh_ranks_at(12, 0.95, &k, &level);
	tap_ok(got && k == 13, "12 pairs at 95 %%: 13 Walsh averages left out at each end "
	       "(the two-sided 5 %% critical value of the tables; got %ld)", k);
	tap_near(level, 1 - 2 * brute_cdf(12, 13), 1e-15,
		 "its level 1 - 2 P(T <= 13), T counted over the 4096 subsets (%.6f)", level);
	tap_ok(1 - 2 * brute_cdf(12, 14) < 0.95, "and one more would fall below 95 %%");
	got = ptb_walsh_ranks_at(15, 1 - 0.05 / 4, &k, &level);
	tap_ok(got && 1 - 2 * brute_cdf(15, (int)k) >= 1 - 0.05 / 4 &&
	       1 - 2 * brute_cdf(15, (int)k + 1) < 1 - 0.05 / 4,
	       "15 pairs at 98.75 %%: the most averages that keep the level (%ld)", k);
	tap_ok(!ptb_walsh_ranks_at(6, 0.99, &k, &level),
	       "6 pairs cannot give 99 %% (at most 1 - 2/64 = 96.9 %%)");
	got = ptb_walsh_ranks_at(6, 0.96, &k, &level);
	tap_ok(got && k == 0 && fabs(level - (1 - 2.0 / 64)) < 1e-15,
	       "6 pairs at 96 %%: the smallest and largest average, 96.9 %%");
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The interval made here from the Walsh averages, k left out at each end. */
static void walsh_interval(const double *x, int n, long k, double *est, double *lo, double *hi)
{
	int m = n * (n + 1) / 2, j = 0;
	double *w = malloc((size_t)m * sizeof *w);
	for (int a = 0; a < n; a++)
		for (int b = a; b < n; b++)
			w[j++] = (x[a] + x[b]) / 2;
	qsort(w, (size_t)m, sizeof *w, cmp);
	*est = m % 2 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2;
	*lo = w[k];
	*hi = w[m - 1 - k];
	free(w);
}

static void estimate(void)
{
	static const double pct[12] = { -3, 1, 4, 4.5, 6, 6, 6.5, 7, 8, 9, 14, 40 };
	double x[12], est, lo, hi;
	struct ptb_paired p;
	ratios(x, pct, 12);
	ptb_paired_judge(x, 12, 0.95, 5, &p);
	walsh_interval(x, 12, 13, &est, &lo, &hi);
	tap_near(log(p.ratio), est, 1e-12, "the change is the median of the 78 Walsh averages "
		 "(%+.2f %%)", 100 * (p.ratio - 1));
	tap_ok(fabs(log(p.ratio_lo) - lo) < 1e-12 && fabs(log(p.ratio_hi) - hi) < 1e-12,
	       "its 95 %% interval is the 14th smallest and 14th largest average "
	       "([%+.2f, %+.2f] %%)", 100 * (p.ratio_lo - 1), 100 * (p.ratio_hi - 1));
	tap_ok(p.verdict == PTB_INCONCLUSIVE, "an outlier of +40 %% moves the estimate little: "
	       "%+.2f %%, the interval reaching below +5 %%: inconclusive", 100 * (p.ratio - 1));
	tap_near(p.detectable_pct, 100 * expm1(log1p(0.05) + (hi - lo) / 2), 1e-9,
		 "detectable: the threshold plus the interval's half-width (%.2f %%)",
		 p.detectable_pct);
}

static void verdicts(void)
{
	static const struct {
		double pct[12];
		enum ptb_verdict want;
		const char *what;
	} cases[] = {
		{ { 40, 45, 50, 50, 50, 50, 50, 50, 50, 50, 55, 60 }, PTB_REGRESSION,
		  "+50 %: regression" },
		{ { 5.5, 5.5, 5.5, 6, 6, 6, 6, 6, 6, 6, 6.5, 6.5 }, PTB_REGRESSION,
		  "every pair +5.5 .. +6.5 %: whole CI above +5 %, regression" },
		{ { 3, 3, 3, 3, 6, 6, 6, 6, 6, 6, 6.5, 6.5 }, PTB_INCONCLUSIVE,
		  "four pairs at +3 %: the CI reaches below +5 %, inconclusive" },
		{ { -9, -3, -1, -1, 0, 0, 0, 1, 1, 1, 3, 9 }, PTB_SAME,
		  "around 0 within +-9 %: same" },
		{ { -50, -40, -30, -30, -30, -30, -30, -30, -30, -30, -20, -10 }, PTB_IMPROVEMENT,
		  "-30 %: improvement" },
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		double x[12], est, lo, hi;
		struct ptb_paired p;
		ratios(x, cases[c].pct, 12);
		ptb_paired_judge(x, 12, 0.95, 5, &p);
		walsh_interval(x, 12, 13, &est, &lo, &hi);
		tap_ok(p.verdict == cases[c].want && fabs(log(p.ratio_lo) - lo) < 1e-12,
		       "%s (got %s, CI [%+.2f, %+.2f] %%)", cases[c].what,
		       ptb_verdict_name(p.verdict), 100 * (p.ratio_lo - 1), 100 * (p.ratio_hi - 1));
	}
	double x[12], same[12] = { -9, -3, -1, -1, 0, 0, 0, 1, 1, 1, 3, 9 };
	struct ptb_paired p;
	ratios(x, same, 12);
	ptb_paired_judge(x, 12, 0.95, 5, &p);
	tap_near(p.ratio, 1, 1e-3, "symmetric ratios about 0: the change is 1 (%.5f)", p.ratio);
	double wide;
	wide = p.ratio_hi - p.ratio_lo;
	ptb_paired_judge(x, 12, 1 - 0.05 / 4, 5, &p);
	tap_ok(p.ratio_hi - p.ratio_lo > wide, "at 98.75 %% the interval widens");
	ptb_paired_judge(x, 4, 0.95, 5, &p);
	tap_ok(p.verdict == PTB_INCONCLUSIVE && isnan(p.ratio_lo),
	       "4 pairs cannot give 95 %% (at most 87.5 %%): inconclusive, no interval");
}

int main(void)
{
	ranks();
	estimate();
	verdicts();
	tap_done();
	return tap_exit();
}
