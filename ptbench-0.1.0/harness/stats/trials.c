/* SPDX-License-Identifier: MIT */
/*
 * Trials to a point's figure (see trials.h).  The CI needs no assumption
 * about the trials' distribution: the median lies between the k-th
 * smallest and k-th largest of n independent estimates with a probability
 * that depends on n alone.  Six trials give 96.9 %; five could give only
 * 93.8 %, which is why the run's minimum is six.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"
#include "stats/trials.h"

double ptb_median_ci_coverage(int n, int lo)
{
	double pmf = ldexp(1.0, -n), cdf = 0;   /* P(B = 0) */
	for (int j = 0; j <= lo && j < n; j++) {
		cdf += pmf;
		pmf *= (double)(n - j) / (j + 1);
	}
	double c = 1 - 2 * cdf;
	return c > 0 ? c : 0;
}

static double median_sorted(const double *x, int n)
{
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* Splits of the sorted log values: gaps of at least 15 % and at least
 * `factor` times the typical (median) gap between neighbours. */
static int find_splits(const double *lx, int n, double factor, int *split)
{
	double *gaps = malloc((size_t)n * sizeof *gaps), typical;
	int k = 0;
	if (!gaps)
		return 0;
	for (int i = 1; i < n; i++)
		gaps[i - 1] = lx[i] - lx[i - 1];
	typical = ptb_median_inplace(gaps, n - 1);
	for (int i = 1; i < n; i++)
		if (lx[i] - lx[i - 1] >= log(1.15) && lx[i] - lx[i - 1] >= factor * typical)
			split[k++] = i;
	free(gaps);
	return k;
}

/* Drop the split whose removal merges the smallest group, until every
 * group holds at least min_side trials and at most PTB_MAX_MODES remain. */
static int prune_splits(int *split, int k, int n, int min_side)
{
	for (;;) {
		int worst = -1, smallest = n + 1;
		for (int j = 0; j <= k; j++) {
			int from = j ? split[j - 1] : 0, to = j < k ? split[j] : n;
			if (to - from < smallest) {
				smallest = to - from;
				worst = j;
			}
		}
		if (k == 0 || (smallest >= min_side && k < PTB_MAX_MODES))
			return k;
		int drop = worst < k ? worst : k - 1;   /* the split after the group, or before the last */
		memmove(split + drop, split + drop + 1, (size_t)(k - drop - 1) * sizeof *split);
		k--;
	}
}

int ptb_trials_modes(const double *sorted, int n, int min_side, double factor,
		     struct ptb_mode modes[PTB_MAX_MODES])
{
	double *lx;
	int *split, k;
	if (n < 2 * min_side || sorted[0] <= 0 || !(lx = malloc((size_t)n * sizeof *lx)))
		return 1;
	if (!(split = malloc((size_t)n * sizeof *split))) {
		free(lx);
		return 1;
	}
	for (int i = 0; i < n; i++)
		lx[i] = log(sorted[i]);
	k = prune_splits(split, find_splits(lx, n, factor, split), n, min_side);
	for (int j = 0; j <= k && k > 0; j++) {
		int from = j ? split[j - 1] : 0, to = j < k ? split[j] : n;
		modes[j] = (struct ptb_mode){ median_sorted(sorted + from, to - from), to - from };
	}
	free(split);
	free(lx);
	return k + 1;
}

/* The 0.975 quantile of Student's t with df degrees of freedom: a table
 * to 30, then the Cornish-Fisher expansion (within 1e-3 from there on). */
static double t975(int df)
{
	static const double table[] = { 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
		2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
		2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
		2.042 };
	double z = 1.959964, d = df;
	if (df < 1)
		return NAN;
	if (df <= 30)
		return table[df - 1];
	return z + (z * z * z + z) / (4 * d) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

/* The i-th of the winsorized sample: the g outermost values on either
 * side replaced by the nearest value kept. */
static double winsorized(const double *sorted, int n, int g, int i)
{
	return sorted[i < g ? g : i >= n - g ? n - g - 1 : i];
}

/*
 * Trials in separate modes (a figure that depends on where a process's
 * code and data lie, an unbound pair that shares a PU or not): their
 * median jumps from one mode to the other as the proportions wander from
 * run to run, while their mean moves with the proportions smoothly.  So
 * the value is the 20 % trimmed mean -- the cost averaged over the modes,
 * robust to a stray trial -- and its 95 % CI Yuen's, from the winsorized
 * variance with n - 2g - 1 degrees of freedom.  sorted[] holds n values.
 */
static void mixture_estimate(const double *sorted, int n, struct ptb_trials_summary *s)
{
	int g = (int)floor(0.2 * n), h = n - 2 * g;
	double sum = 0, wsum = 0, wss = 0;
	if (h < 2)
		return;
	for (int i = g; i < n - g; i++)
		sum += sorted[i];
	for (int i = 0; i < n; i++)
		wsum += winsorized(sorted, n, g, i);
	for (int i = 0; i < n; i++) {
		double d = winsorized(sorted, n, g, i) - wsum / n;
		wss += d * d;
	}
	double se = sqrt(wss / ((double)h * (h - 1)));
	double m = t975(h - 1) * se;
	s->value = sum / h;
	s->ci_lo = s->trials_lo = s->value - m;
	s->ci_hi = s->trials_hi = s->value + m;
	s->coverage = 0.95;
	if (s->value > 0)
		s->halfwidth_pct = 100 * m / s->value;
}

void ptb_trials_summarize(const double *est, int n, struct ptb_trials_summary *s)
{
	double *x = malloc((size_t)n * sizeof *x);
	int lo, hi;
	memset(s, 0, sizeof *s);
	s->n = n;
	s->value = s->ci_lo = s->ci_hi = s->halfwidth_pct = NAN;
	s->trials_lo = s->trials_hi = NAN;
	s->nmodes = 1;
	if (!x || n <= 0) {
		free(x);
		return;
	}
	memcpy(x, est, (size_t)n * sizeof *x);
	ptb_sort_doubles(x, n);
	s->value = median_sorted(x, n);
	ptb_median_ci_ranks(n, &lo, &hi);
	s->ci_lo = s->trials_lo = x[lo];
	s->ci_hi = s->trials_hi = x[hi];
	s->coverage = ptb_median_ci_coverage(n, lo);
	if (s->value > 0)
		s->halfwidth_pct = 100 * (s->ci_hi - s->ci_lo) / 2 / s->value;
	s->modes[0] = (struct ptb_mode){ s->value, n };
	s->nmodes = ptb_trials_modes(x, n, n / 10 > 3 ? n / 10 : 3, 5.0, s->modes);
	if (s->nmodes > 1)
		mixture_estimate(x, n, s);
	free(x);
}

double ptb_drift_pct(const double *factors, int n)
{
	double sum = 0, ss = 0;
	if (n < 3)
		return 0;
	for (int i = 0; i < n; i++)
		sum += factors[i];
	for (int i = 0; i < n; i++)
		ss += (factors[i] - sum / n) * (factors[i] - sum / n);
	return 100 * sqrt(ss / (n - 1));
}

void ptb_trials_widen(struct ptb_trials_summary *s, double drift_pct)
{
	double m = 1.96 * drift_pct / 100 * s->value;
	if (!(s->n > 0) || !(drift_pct > 0) || !isfinite(m))
		return;
	s->drift_pct = drift_pct;
	s->ci_lo = s->value - hypot(s->value - s->trials_lo, m);
	s->ci_hi = s->value + hypot(s->trials_hi - s->value, m);
	if (s->value > 0)
		s->halfwidth_pct = 100 * (s->ci_hi - s->ci_lo) / 2 / s->value;
}

bool ptb_trials_drift_bound(const struct ptb_trials_summary *s, double target_pct)
{
	if (!(s->n > 0) || !(s->value > 0))
		return false;
	double own = 100 * (s->trials_hi - s->trials_lo) / 2 / s->value;
	return 1.96 * s->drift_pct >= target_pct && own <= target_pct;
}
