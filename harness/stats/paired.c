/* SPDX-License-Identifier: MIT */
/*
 * Paired verdicts (see paired.h).  The change is the Hodges-Lehmann
 * estimate of the pairs' log-ratios, the median of their Walsh averages,
 * and its interval the one the signed-rank test gives: the centre lies
 * between the (k+1)-th smallest and the (k+1)-th largest Walsh average with
 * probability 1 - 2 P(T <= k), T the signed-rank statistic, whatever the
 * ratios' distribution as long as it is symmetric -- which pairs in a
 * random order of two equal sides are exactly.  It is about two-thirds as
 * wide as the sign test's interval of the median for ratios that are
 * near normal (an asymptotic efficiency of 0.955 against 0.637).  Its
 * half-width is what these pairs can resolve, so the smallest slowdown
 * they would call a regression is the threshold plus that half-width.
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

/* P(T <= c) for c = 0 .. n(n+1)/2, T the signed-rank statistic of n
 * values symmetric about the true centre: the sum of a random subset of
 * the ranks 1..n, each in with probability 1/2.  NULL without memory. */
static double *signed_rank_cdf(int n)
{
	size_t m = (size_t)n * (size_t)(n + 1) / 2;
	double *p = ptb_array_realloc(NULL, m + 1, sizeof *p);
	if (!p)
		return NULL;
	p[0] = 1;
	for (size_t s = 1; s <= m; s++)
		p[s] = 0;
	for (int i = 1; i <= n; i++) {
		size_t top = (size_t)i * (size_t)(i + 1) / 2;
		for (size_t s = top; s >= (size_t)i; s--)
			p[s] = (p[s] + p[s - (size_t)i]) / 2;
		for (size_t s = (size_t)i; s-- > 0;)
			p[s] /= 2;
	}
	for (size_t s = 1; s <= m; s++)
		p[s] += p[s - 1];
	return p;
}

bool ptb_walsh_ranks_at(int n, double level, long *k, double *exact)
{
	double *cdf = n > 0 ? signed_rank_cdf(n) : NULL;
	long m = (long)n * (n + 1) / 2, best = -1;
	if (!cdf)
		return false;
	for (long c = 0; 2 * c < m - 1 && 1 - 2 * cdf[c] >= level; c++)
		best = c;
	if (best >= 0) {
		*k = best;
		*exact = 1 - 2 * cdf[best];
	}
	free(cdf);
	return best >= 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The n(n+1)/2 Walsh averages (x_i + x_j) / 2, i <= j, sorted. */
static double *walsh_averages(const double *x, int n)
{
	size_t m = (size_t)n * (size_t)(n + 1) / 2, k = 0;
	double *w = ptb_array_realloc(NULL, m, sizeof *w);
	if (!w)
		return NULL;
	for (int i = 0; i < n; i++)
		for (int j = i; j < n; j++)
			w[k++] = (x[i] + x[j]) / 2;
	qsort(w, m, sizeof *w, cmp_double);
	return w;
}

void ptb_paired_judge(const double *log_ratio, int n, double level, double threshold_pct,
		      struct ptb_paired *out)
{
	double t = log1p(threshold_pct / 100);
	double *w = n > 0 && n <= PTB_PAIRED_MAX ? walsh_averages(log_ratio, n) : NULL;
	long m = (long)n * (n + 1) / 2, k;
	memset(out, 0, sizeof *out);
	out->n = n;
	out->ratio = out->ratio_lo = out->ratio_hi = out->detectable_pct = NAN;
	out->verdict = PTB_INCONCLUSIVE;
	if (!w)
		return;
	out->ratio = exp(m % 2 ? w[m / 2] : (w[m / 2 - 1] + w[m / 2]) / 2);
	if (ptb_walsh_ranks_at(n, level, &k, &out->level)) {
		double lo = w[k], hi = w[m - 1 - k];
		out->ratio_lo = exp(lo);
		out->ratio_hi = exp(hi);
		out->verdict = verdict_of(lo, hi, t);
		out->detectable_pct = 100 * expm1(t + (hi - lo) / 2);
	}
	free(w);
}
