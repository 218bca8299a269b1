/* SPDX-License-Identifier: MIT */
/*
 * Statistics against values computed by hand (and cross-checked with R's
 * mean/sd/quantile(type = 7)), the median CI ranks against the binomial
 * distribution, and the stopping rules exactly at their boundaries.
 */
#include <math.h>
#include <string.h>

#include "stats/stats.h"
#include "tap.h"

static void one_to_ten(void)
{
	double x[10] = { 7, 3, 10, 1, 5, 9, 2, 8, 4, 6 };   /* unsorted on purpose */
	struct ptb_stats s;
	ptb_stats_compute(x, 10, &s);
	tap_ok(s.n == 10, "1..10: n");
	tap_near(s.mean, 5.5, 1e-12, "1..10: mean 5.5");
	tap_near(s.sd, 3.0276503540974917, 1e-12, "1..10: sample sd sqrt(55/6)");
	tap_near(s.cv_pct, 100 * 3.0276503540974917 / 5.5, 1e-9, "1..10: cv");
	tap_near(s.median, 5.5, 1e-12, "1..10: median 5.5");
	tap_ok(s.min == 1 && s.max == 10, "1..10: min 1, max 10");
	tap_ok(s.ci_lo == 2 && s.ci_hi == 9, "1..10: median CI [x(2), x(9)] = [2, 9]");
	tap_ok(s.outliers == 0, "1..10: no outlier");
}

static void with_outliers(void)
{
	/* Q1 = 3.25, Q3 = 7.75 (type 7), IQR 4.5: fences -3.5 and 14.5. */
	double x[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 100 };
	double y[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 14.5 };  /* Q3 = 7.75, fence 14.5 */
	double z[11] = { -40, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100 };
	struct ptb_stats s;
	ptb_stats_compute(x, 10, &s);
	tap_ok(s.outliers == 1, "100 among 1..9 is one outlier (got %d)", s.outliers);
	tap_near(s.mean, 14.5, 1e-12, "mean includes the outlier");
	tap_near(s.median, 5.5, 1e-12, "median ignores it");
	ptb_stats_compute(y, 10, &s);
	tap_ok(s.outliers == 0, "a value exactly on the fence is not an outlier");
	ptb_stats_compute(z, 11, &s);
	tap_ok(s.outliers == 2, "one low and one high outlier (got %d)", s.outliers);
}

static void small_n(void)
{
	struct ptb_stats s;
	double one = 42, five[5] = { 5, 1, 4, 2, 3 };
	ptb_stats_compute(&one, 1, &s);
	tap_ok(s.n == 1 && s.mean == 42 && s.sd == 0 && s.median == 42,
	       "one value: mean = median = 42, sd 0");
	ptb_stats_compute(five, 5, &s);
	tap_ok(s.median == 3 && s.ci_lo == 1 && s.ci_hi == 5, "n = 5: CI is the full range");
	ptb_stats_compute(NULL, 0, &s);
	tap_ok(s.n == 0 && s.mean == 0, "no values: zeroed");
}

/* P(Binomial(n, 1/2) <= k) through lgamma, independent of stats.c. */
static double binom_cdf(int n, int k)
{
	double sum = 0;
	for (int j = 0; j <= k; j++)
		sum += exp(lgamma(n + 1.0) - lgamma(j + 1.0) - lgamma(n - j + 1.0) - n * log(2.0));
	return sum;
}

static void ci_ranks(void)
{
	int lo, hi, worst_n = 0;
	double worst = 1;

	/* n = 10: P(B <= 1) = 11/1024 = 0.0107 <= 0.025 < P(B <= 2) = 56/1024. */
	ptb_median_ci_ranks(10, &lo, &hi);
	tap_ok(lo == 1 && hi == 8, "n = 10: ranks 2 and 9 (1-based); got [%d, %d]", lo, hi);
	tap_ok(binom_cdf(10, 1) <= 0.025 && binom_cdf(10, 2) > 0.025, "n = 10: binomial check");
	/* n = 100: P(B <= 39) = 0.0176 <= 0.025 < P(B <= 40) = 0.0284. */
	ptb_median_ci_ranks(100, &lo, &hi);
	tap_ok(lo == 39 && hi == 60, "n = 100: ranks 40 and 61 (1-based); got [%d, %d]", lo, hi);
	tap_ok(binom_cdf(100, 39) <= 0.025 && binom_cdf(100, 40) > 0.025,
	       "n = 100: binomial check");
	ptb_median_ci_ranks(5, &lo, &hi);
	tap_ok(lo == 0 && hi == 4, "n = 5: full range");
	ptb_median_ci_ranks(6, &lo, &hi);
	tap_ok(lo == 0 && hi == 5, "n = 6: [x(1), x(6)], coverage 1 - 2/64");

	/* The ranks always cover >= 95 %, exact and approximate alike. */
	for (int n = 6; n <= 1000; n++) {
		ptb_median_ci_ranks(n, &lo, &hi);
		double cover = 1 - 2 * (lo > 0 ? binom_cdf(n, lo - 1) : 0);
		if (hi != n - 1 - lo)
			cover = -1;
		if (cover < worst) {
			worst = cover;
			worst_n = n;
		}
	}
	tap_ok(worst >= 0.95, "6 <= n <= 1000: symmetric ranks, coverage >= 95 %% "
	       "(least %.4f at n = %d)", worst, worst_n);
	/* Exact ranks are the tightest with >= 95 %: one rank further in is < 95 %. */
	int tight = 1;
	for (int n = 6; n <= 100; n++) {
		ptb_median_ci_ranks(n, &lo, &hi);
		tight &= 1 - 2 * binom_cdf(n, lo + 1) < 0.95;
	}
	tap_ok(tight, "n <= 100: ranks are the tightest with >= 95 %% coverage");
}

static void rules(void)
{
	struct ptb_stats s;
	/* mean 100, sd 2 (deviations 3, -1, -1, -1: 12 / 3 = 4), se 1. */
	double x[4] = { 103, 99, 99, 99 };
	/* median 100, full-range CI [98, 102] (n = 6). */
	double y[6] = { 98, 99, 100, 100, 101, 102 };

	ptb_stats_compute(x, 4, &s);
	tap_ok(s.sd == 2, "boundary set: sd exactly 2");
	tap_ok(ptb_stop_rule_met(PTB_STOP_SD, &s, 2), "sd rule: sd = 2 %% of mean holds");
	tap_ok(!ptb_stop_rule_met(PTB_STOP_SD, &s, 1.99), "sd rule: 1.99 %% does not");
	tap_ok(ptb_stop_rule_met(PTB_STOP_SE, &s, 1), "se rule: se = 1 %% of mean holds");
	tap_ok(!ptb_stop_rule_met(PTB_STOP_SE, &s, 0.99), "se rule: 0.99 %% does not");

	ptb_stats_compute(y, 6, &s);
	tap_ok(s.ci_lo == 98 && s.ci_hi == 102 && s.median == 100, "ci set: [98, 102] around 100");
	tap_ok(ptb_stop_rule_met(PTB_STOP_CI, &s, 2), "ci rule: both ends within 2 %% holds");
	tap_ok(!ptb_stop_rule_met(PTB_STOP_CI, &s, 1.99), "ci rule: 1.99 %% does not");
	y[0] = 99;
	ptb_stats_compute(y, 6, &s);
	tap_ok(!ptb_stop_rule_met(PTB_STOP_CI, &s, 1.5), "ci rule: the upper end alone can fail it");

	double one = 5;
	ptb_stats_compute(&one, 1, &s);
	tap_ok(!ptb_stop_rule_met(PTB_STOP_SD, &s, 2), "one value never satisfies a rule");

	tap_ok(strcmp(ptb_stop_rule_name(PTB_STOP_SD), "sd") == 0 &&
	       strcmp(ptb_stop_rule_name(PTB_STOP_SE), "se") == 0 &&
	       strcmp(ptb_stop_rule_name(PTB_STOP_CI), "ci") == 0, "rule names");
	tap_ok(ptb_stop_rule_from_name("ci") == PTB_STOP_CI &&
	       ptb_stop_rule_from_name("sd") == PTB_STOP_SD &&
	       ptb_stop_rule_from_name("mean") == -1, "rule from name; unknown is -1");
}

int main(void)
{
	one_to_ten();
	with_outliers();
	small_n();
	ci_ranks();
	rules();
	tap_done();
	return tap_exit();
}
