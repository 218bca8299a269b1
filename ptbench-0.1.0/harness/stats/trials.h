/* SPDX-License-Identifier: MIT */
/*
 * A point's figure from its independent trials.  Each trial is a whole
 * SKaMPI measurement in a fresh process; the spread of the trials'
 * estimates is what the next run will see, so the point's value is their
 * median and its confidence interval is the distribution-free interval of
 * that median from the trials' order statistics -- never from the timings
 * inside one trial, which share one state of the machine.  Trials in
 * separate modes, whose median would jump between them, give their 20 %
 * trimmed mean instead, with Yuen's interval.
 */
#ifndef PTB_STATS_TRIALS_H
#define PTB_STATS_TRIALS_H

#include <stdbool.h>

#define PTB_MAX_MODES 4

struct ptb_mode {
	double value;     /* median of the trials in this mode */
	int n;            /* how many trials */
};

struct ptb_trials_summary {
	int n;
	double value;             /* median of the estimates */
	double ci_lo, ci_hi;      /* CI of the median, by order statistics,
				   * widened by the drift (ptb_trials_widen) */
	double trials_lo, trials_hi;  /* the order-statistics interval alone */
	double coverage;          /* its exact coverage (>= 0.95 from 6 trials on) */
	double drift_pct;         /* the allowance for the machine's drift */
	double halfwidth_pct;     /* (ci_hi - ci_lo) / 2 as % of value */
	int nmodes;               /* 1, or more when the trials clearly split */
	struct ptb_mode modes[PTB_MAX_MODES];
};

/* The exact coverage of the interval [x(lo), x(hi)] (0-based ranks of n
 * sorted values) for the median: 1 - 2 P(B <= lo), B ~ Binomial(n, 1/2),
 * for the symmetric intervals ptb_median_ci_ranks gives. */
double ptb_median_ci_coverage(int n, int lo);

/* Summarize n > 0 estimates (not modified). */
void ptb_trials_summarize(const double *est, int n, struct ptb_trials_summary *s);

/*
 * The machine's drift: the whole machine runs faster or slower for a while,
 * and every point measured meanwhile with it.  factors[] are the log of
 * each round's machine factor (the median over the points measured in the
 * round of log(trial / point value)); their standard deviation, in % of
 * the value, is what a run of the same length at another time may find
 * the machine's level moved by.  0 with fewer than 3 rounds.
 */
double ptb_drift_pct(const double *factors, int n);
/* Widen the CI by the drift, in quadrature with each side: a 95 % margin
 * of 1.96 drift_pct. */
void ptb_trials_widen(struct ptb_trials_summary *s, double drift_pct);
/* Whether more trials cannot bring a widened interval within target_pct:
 * the drift's margin alone (1.96 drift_pct, the same for every point)
 * reaches the target, while the trials' own interval is already within
 * it.  Such a point has bought all the precision its trials can give. */
bool ptb_trials_drift_bound(const struct ptb_trials_summary *s, double target_pct);

/* Whether the estimates form clearly separated groups (modes): the sorted
 * values split where neighbours are at least 15 % apart and at least
 * `factor` times the typical gap between neighbours; a group with fewer
 * than `min_side` trials joins its neighbour, and at most PTB_MAX_MODES
 * remain.  Returns how many, filling modes[] in increasing order. */
int ptb_trials_modes(const double *sorted, int n, int min_side, double factor,
		     struct ptb_mode modes[PTB_MAX_MODES]);

#endif
