/* SPDX-License-Identifier: MIT */
/*
 * `ptbench ab BASE HEAD`: an A/B comparison in one sitting.  The selected
 * points' trials alternate between a BASE worker and a HEAD worker in
 * pairs, in a random order within each pair and across points, so that a
 * drift of the host hits both sides alike; the verdicts come from the
 * pairs (stats/paired.h).
 */
#ifndef PTB_RUN_AB_H
#define PTB_RUN_AB_H

#include "run/runner.h"

struct ptb_ab_opts {
	struct ptb_run_opts run;       /* selection, trial limits, timeout, seed */
	const char *program[2];        /* BASE, HEAD */
	char **env[2];                 /* their environments */
	double threshold_pct, alpha;
	double budget_s;               /* the whole comparison */
	int min_pairs;
	bool json;
};

/* How many times a point may be judged: at min_pairs, twice, four times
 * ... as many pairs, and when the budget is spent. */
int ptb_ab_looks(int min_pairs);

/* Exit status: 0 no regression, 1 a regression, 2 bad input or a point
 * that could not be compared (a side failed, or the run was interrupted). */
int ptb_ab_run(const struct ptb_ab_opts *o);

#endif
