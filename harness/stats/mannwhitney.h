/* SPDX-License-Identifier: MIT */
/*
 * Two-sample tests for the regression gate: the two-sided Mann-Whitney U
 * test (normal approximation with tie correction; exact for small samples)
 * and the Hodges-Lehmann shift estimate with its 95 % confidence interval.
 * Pure functions, unit-tested against hand-computed values.
 */
#ifndef PTB_MANNWHITNEY_H
#define PTB_MANNWHITNEY_H

struct ptb_mw {
	double u;            /* U of the second sample */
	double p;            /* two-sided p-value */
	double shift;        /* Hodges-Lehmann estimate of new - base */
	double shift_lo, shift_hi;   /* its 95 % CI; NAN when too few samples */
};

/* 0, or -1 when either sample is empty. */
int ptb_mann_whitney(const double *base, int nb, const double *next, int nn, struct ptb_mw *r);

#endif
