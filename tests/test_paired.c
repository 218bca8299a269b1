/* SPDX-License-Identifier: MIT */
/*
 * The A/B verdicts (stats/paired.c) on hand-worked cases: the interval's
 * ranks and level at the Bonferroni level, each verdict at its boundary,
 * the smallest detectable change, and too few pairs.
 */
#include <math.h>
#include <stdbool.h>

#include "stats/paired.h"
#include "tap.h"

/* n log-ratios log(1 + pct_i / 100). */
static void ratios(double *x, const double *pct, int n)
{
	for (int i = 0; i < n; i++)
		x[i] = log1p(pct[i] / 100);
}

static void ranks(void)
{
	int lo, hi;
	double level;
	bool got = ptb_median_ranks_at(12, 0.95, &lo, &hi, &level);
	tap_ok(got && lo == 2 && hi == 9, "12 pairs at 95 %%: [x(3), x(10)] (got ranks %d, %d)",
	       lo, hi);
	tap_near(level, 1 - 2 * (1 + 12 + 66) / 4096.0, 1e-15, "its level 1 - 2 (1 + 12 + 66) / 2^12");
	tap_ok(ptb_median_ranks_at(12, 1 - 0.05 / 4, &lo, &hi, &level) && lo == 1 && hi == 10,
	       "12 pairs, 4 points at family-wise 5 %%: 98.75 %% needs [x(2), x(11)]");
	tap_ok(!ptb_median_ranks_at(6, 0.99, &lo, &hi, &level),
	       "6 pairs cannot give 99 %% (at most 96.9 %%)");
}

static void verdicts(void)
{
	/* Twelve pairs; at 95 % (one point) the CI is [x(3), x(10)]. */
	static const struct {
		double pct[12];
		enum ptb_verdict want;
		const char *what;
	} cases[] = {
		{ { 40, 45, 50, 50, 50, 50, 50, 50, 50, 50, 55, 60 }, PTB_REGRESSION,
		  "+50 %, CI [+50, +50]: regression" },
		{ { 0, 5.2, 5.2, 6, 6, 6, 6, 6, 6, 6, 7, 90 }, PTB_REGRESSION,
		  "CI [+5.2, +6]: whole CI above +5 %, regression" },
		{ { 0, 4.9, 4.9, 6, 6, 6, 6, 6, 6, 6, 7, 90 }, PTB_INCONCLUSIVE,
		  "CI [+4.9, +6]: reaches below +5 %, inconclusive" },
		{ { -9, -3, -1, -1, 0, 0, 0, 1, 1, 1, 3, 9 }, PTB_SAME,
		  "CI [-1, +1]: within +-5 %, same" },
		{ { -50, -40, -30, -30, -30, -30, -30, -30, -30, -30, -20, -10 }, PTB_IMPROVEMENT,
		  "-30 %: improvement" },
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		double x[12];
		struct ptb_paired p;
		ratios(x, cases[c].pct, 12);
		ptb_paired_judge(x, 12, 0.95, 5, &p);
		tap_ok(p.verdict == cases[c].want, "%s (got %s, CI [%+.1f, %+.1f] %%)", cases[c].what,
		       ptb_verdict_name(p.verdict), 100 * (p.ratio_lo - 1), 100 * (p.ratio_hi - 1));
	}
	double x[12], same[12] = { -9, -3, -1, -1, 0, 0, 0, 1, 1, 1, 3, 9 };
	struct ptb_paired p;
	ratios(x, same, 12);
	ptb_paired_judge(x, 12, 0.95, 5, &p);
	tap_near(p.ratio, 1, 1e-12, "the ratio is the median pair's: 1");
	tap_near(p.detectable_pct, 100 * expm1(log1p(0.05) + (log1p(0.01) - log1p(-0.01)) / 2), 1e-9,
		 "detectable: the threshold plus the CI's half-width (%.2f %%)", p.detectable_pct);
	ptb_paired_judge(x, 12, 1 - 0.05 / 4, 5, &p);
	tap_near(p.ratio_lo, 0.97, 1e-12, "at 98.75 %% (4 points at family-wise 5 %%) the interval widens to [x(2), x(11)]: -3 %%");
	ptb_paired_judge(x, 4, 0.95, 5, &p);
	tap_ok(p.verdict == PTB_INCONCLUSIVE && isnan(p.ratio_lo),
	       "4 pairs cannot give 95 %%: inconclusive, no interval");
}

int main(void)
{
	ranks();
	verdicts();
	tap_done();
	return tap_exit();
}
