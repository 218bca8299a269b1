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
