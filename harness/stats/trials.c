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

/* Spread of a group of sorted log values. */
static double spread(const double *lx, int from, int to)
{
	return lx[to - 1] - lx[from];
}

int ptb_trials_modes(const double *sorted, int n, int min_side, double factor,
		     struct ptb_mode modes[PTB_MAX_MODES])
{
	double *lx;
	int best = -1;
	double best_gap = 0;
	if (n < 2 * min_side || sorted[0] <= 0 || !(lx = malloc((size_t)n * sizeof *lx)))
		return 1;
	for (int i = 0; i < n; i++)
		lx[i] = log(sorted[i]);
	for (int i = min_side; i <= n - min_side; i++) {
		double gap = lx[i] - lx[i - 1];
		if (gap > best_gap) {
			best_gap = gap;
			best = i;
		}
	}
	int nmodes = 1;
	if (best > 0 && best_gap >= log(1.2)) {
		double inside = fmax(spread(lx, 0, best), spread(lx, best, n));
		if (best_gap >= factor * inside) {
			modes[0] = (struct ptb_mode){ median_sorted(sorted, best), best };
			modes[1] = (struct ptb_mode){ median_sorted(sorted + best, n - best), n - best };
			nmodes = 2;
		}
	}
	free(lx);
	return nmodes;
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
	s->nmodes = ptb_trials_modes(x, n, 3, 2.0, s->modes);
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
