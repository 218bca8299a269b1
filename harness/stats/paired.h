/* SPDX-License-Identifier: MIT */
/*
 * The verdict of an A/B comparison from paired trials.  Each pair is one
 * trial of BASE and one of HEAD of the same point, run back to back in a
 * random order, so that a drift of the host hits both alike; its log-ratio
 * log(head / base) is one independent observation of the change.  The
 * change is the Hodges-Lehmann estimate of the log-ratios, with the
 * signed-rank interval at a level the caller sets (run/ab.c spends alpha
 * over the points and looks, so that the chance of any false verdict in
 * a whole comparison is at most alpha).
 */
#ifndef PTB_STATS_PAIRED_H
#define PTB_STATS_PAIRED_H

#include <stdbool.h>

enum ptb_verdict {
	PTB_SAME,          /* the whole CI within +-threshold */
	PTB_REGRESSION,    /* the whole CI above +threshold: HEAD slower */
	PTB_IMPROVEMENT,   /* the whole CI below -threshold */
	PTB_INCONCLUSIVE,  /* the CI reaches across a threshold */
};
const char *ptb_verdict_name(enum ptb_verdict v);

struct ptb_paired {
	int n;                     /* pairs */
	double ratio;              /* exp(Hodges-Lehmann estimate of the
				    * log-ratios): HEAD / BASE */
	double ratio_lo, ratio_hi; /* its CI at level `level` */
	double level;              /* the CI's exact level */
	double detectable_pct;     /* the smallest slowdown these pairs call a
				    * regression: threshold and the CI's half-width */
	enum ptb_verdict verdict;
};

/* The most Walsh averages k that may be left out at each end of the n(n+1)/2
 * for an interval of the centre at `level` or more (the signed-rank
 * interval: 0-based ranks k and n(n+1)/2 - 1 - k), with its exact level;
 * false when n is too small for that level. */
bool ptb_walsh_ranks_at(int n, double level, long *k, double *exact);

/* The most pairs a judgement takes (the Walsh averages grow as n^2). */
#define PTB_PAIRED_MAX 2000

/* Judge n log-ratios (not modified) with an interval at `level`,
 * threshold in % (5 = +-5 %). */
void ptb_paired_judge(const double *log_ratio, int n, double level, double threshold_pct,
		      struct ptb_paired *out);

#endif
