/* SPDX-License-Identifier: MIT */
/*
 * Paired verdicts (see paired.h).  The interval of the median log-ratio is
 * distribution-free: the median lies between the k-th smallest and the
 * k-th largest of n independent observations with a probability that
 * depends only on n and k.  Its half-width is what these pairs can
 * resolve, so the smallest slowdown they would call a regression is the
 * threshold plus that half-width.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/paired.h"
#include "stats/stats.h"
#include "stats/trials.h"
#include "text/size.h"

const char *ptb_verdict_name(enum ptb_verdict v)
{
	static const char *const names[] = {
		[PTB_SAME] = "same", [PTB_REGRESSION] = "regression",
		[PTB_IMPROVEMENT] = "improvement", [PTB_INCONCLUSIVE] = "inconclusive",
	};
	return names[v];
}

bool ptb_median_ranks_at(int n, double level, int *lo, int *hi, double *exact)
{
	int best = -1;
	for (int k = 0; 2 * k < n - 1; k++)
		if (ptb_median_ci_coverage(n, k) >= level)
			best = k;
	if (best < 0)
		return false;
	*lo = best;
	*hi = n - 1 - best;
	*exact = ptb_median_ci_coverage(n, best);
	return true;
}

static enum ptb_verdict verdict_of(double lo, double hi, double t)
{
	if (lo > t)
		return PTB_REGRESSION;
	if (hi < -t)
		return PTB_IMPROVEMENT;
	if (lo >= -t && hi <= t)
		return PTB_SAME;
	return PTB_INCONCLUSIVE;
}

void ptb_paired_judge(const double *log_ratio, int n, double level, double threshold_pct,
		      struct ptb_paired *out)
{
	double *x = ptb_array_realloc(NULL, (size_t)(n > 0 ? n : 1), sizeof *x);
	double t = log1p(threshold_pct / 100);
	int lo, hi;
	memset(out, 0, sizeof *out);
	out->n = n;
	out->ratio = out->ratio_lo = out->ratio_hi = out->detectable_pct = NAN;
	out->verdict = PTB_INCONCLUSIVE;
	if (!x || n <= 0) {
		free(x);
		return;
	}
	memcpy(x, log_ratio, (size_t)n * sizeof *x);
	out->ratio = exp(ptb_median_inplace(x, n));
	if (ptb_median_ranks_at(n, level, &lo, &hi, &out->level)) {
		out->ratio_lo = exp(x[lo]);
		out->ratio_hi = exp(x[hi]);
		out->verdict = verdict_of(x[lo], x[hi], t);
		out->detectable_pct = 100 * expm1(t + (x[hi] - x[lo]) / 2);
	}
	free(x);
}
