/* SPDX-License-Identifier: MIT */
/*
 * The verdict of an A/B comparison from paired trials.  Each pair is one
 * trial of BASE and one of HEAD of the same point, run back to back in a
 * random order, so that a drift of the host hits both alike; its log-ratio
 * log(head / base) is one independent observation of the change.  The
 * change is the median log-ratio, with the order-statistics (sign-test)
 * interval of that median at a level the caller sets (run/ab.c spends
 * alpha over the points and looks, so that the chance of any false
 * verdict in a whole comparison is at most alpha).
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
	double ratio;              /* exp(median log-ratio): HEAD / BASE */
	double ratio_lo, ratio_hi; /* its CI at level `level` */
	double level;              /* the CI's exact level */
	double detectable_pct;     /* the smallest slowdown these pairs call a
				    * regression: threshold and the CI's half-width */
	enum ptb_verdict verdict;
};

/* Ranks (0-based) of the narrowest symmetric order-statistics interval of
 * the median of n values whose level is at least `level`; false when n is
 * too small for that level. */
bool ptb_median_ranks_at(int n, double level, int *lo, int *hi, double *exact);

/* Judge n log-ratios (not modified) with an interval at `level`,
 * threshold in % (5 = +-5 %). */
void ptb_paired_judge(const double *log_ratio, int n, double level, double threshold_pct,
		      struct ptb_paired *out);

#endif
