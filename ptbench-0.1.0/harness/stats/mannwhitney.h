/* SPDX-License-Identifier: MIT */
/*
 * Two-sample tests for `ptbench compare`: the two-sided Mann-Whitney U
 * test (normal approximation with tie correction; exact for small samples)
 * and the Hodges-Lehmann shift estimate with its confidence interval at a
 * level the caller chooses (a comparison of m points asks for 1 - alpha/m).
 * Pure functions, unit-tested against hand-computed values.
 */
#ifndef PTB_MANNWHITNEY_H
#define PTB_MANNWHITNEY_H

struct ptb_mw {
	double u;            /* U of the second sample */
	double p;            /* two-sided p-value */
	double shift;        /* Hodges-Lehmann estimate of new - base */
	double shift_lo, shift_hi;   /* its CI at the level asked; NAN when the
				      * samples are too small for that level */
};

/* level: of the shift's CI, in (0, 1), e.g. 0.95.
 * 0, or -1 when either sample is empty. */
int ptb_mann_whitney(const double *base, int nb, const double *next, int nn, double level,
		     struct ptb_mw *r);

#endif
