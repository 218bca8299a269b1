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

#include <stdbool.h>
#include <stddef.h>

#include "report/ab.h"
#include "run/runner.h"

struct ptb_ab_opts {
	struct ptb_run_opts run;       /* selection, trial limits, timeout, seed */
	const char *program[2];        /* BASE, HEAD */
	char **env[2];                 /* their environments */
	double threshold_pct, alpha;
	double budget_s;               /* the whole comparison */
	bool budget_given;             /* --time: a deadline; else a least
					* time that waits for --min-pairs */
	int min_pairs;
	enum ptb_ab_format format;
	const char *out_path;          /* -o: the report goes there; NULL: stdout */
};

/* The placement of a point that this machine lacks, or -1: the point
 * would be N/A on both sides, no news about either, and is left out as
 * tables leave it out.  The machine is seen as the workers will see it
 * (machine/system.c, within the same allowed PUs).  And { placement: why }
 * of those left out (a bit per placement), in the placements' order. */
struct ptb_pair;
int ptb_ab_absent_placement(const struct ptb_pair *pairs, const json_t *params);
json_t *ptb_ab_absent_json(const struct ptb_pair *pairs, unsigned absent);

/* The most pairs a point gets: its last look comes at the latest then. */
#define PTB_AB_MAX_PAIRS 400

/* How many times a point may be judged before its last look: at
 * min_pairs, twice, four times ... as many, below the most pairs a point
 * gets; and the level of a look's interval for `points` points compared
 * at family-wise alpha (ab.c says how alpha is spent). */
int ptb_ab_interim_looks(int min_pairs);
/* Whether a point with n pairs is looked at now. */
bool ptb_ab_is_look(int n, int min_pairs);
double ptb_ab_look_level(double alpha, int points, int min_pairs, bool last);

/* How long the next trial may take when the comparison must end at
 * `deadline`: the trial's own timeout, cut to the time left.  <= 0: start
 * no trial.  *cut tells whether the deadline, not the timeout, set it. */
double ptb_ab_trial_limit(double timeout_s, double now, double deadline, bool *cut);

/* What ended the measuring, for a point left without a verdict. */
struct ptb_ab_end {
	bool interrupted;
	bool time_up;
	double budget_s;
	int min_pairs;
};

/* Why a point of n pairs cannot be judged -- never looked at (fewer than
 * the minimum of pairs when the measuring ended) or its pairs too few for
 * an interval at the comparison's level (has_ci false) -- into why, and
 * true; false when it has a verdict. */
bool ptb_ab_unjudged(int n, bool looked, bool has_ci, const struct ptb_ab_end *end, char *why,
		     size_t len);

/* Exit status: 0 no regression, 1 a regression, 2 bad input or a point
 * that could not be compared (a side failed, too few pairs in the time,
 * or the run was interrupted).  Points at placements this machine cannot
 * have are left out, said in one line, and do not change the status. */
int ptb_ab_run(const struct ptb_ab_opts *o);

#endif
