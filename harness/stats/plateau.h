/* SPDX-License-Identifier: MIT */
/*
 * Steps in a measured curve: the plateaus of a latency over working-set
 * sizes (one per cache level, then memory) and the first jump of a time
 * per access over strides (the cache line).  Pure functions of the points,
 * so that synthetic curves -- clean, noisy, with a level missing -- test
 * them; record/levels.c applies them to a run's records.
 */
#ifndef PTB_STATS_PLATEAU_H
#define PTB_STATS_PLATEAU_H

/* A plateau of a curve y(x), x ascending: the points first..last (indexes
 * into the curve) that stay within the tolerance of their median, apart
 * from lone outliers inside it. */
struct ptb_plateau {
	int first, last;
	int npoints;         /* the points it holds (outliers inside it excluded) */
	double level;        /* the median y of its points */
	double edge_x;       /* where the curve leaves it: the x at which y crosses
			      * the geometric mean of this level and the next,
			      * interpolated in log-log; NAN for the last one */
};

/*
 * The plateaus of a curve, lowest x first; returns how many (at most max).
 * A point joins the current plateau while y is within a factor (1 + tol)
 * of the plateau's median; a lone point outside it whose successor is back
 * inside is an outlier and skipped (also after the plateau's first point); otherwise a new segment starts.  A
 * segment needs two points to be a plateau (a lone point between two is a
 * transition: a working set partly in each level), and neighbouring
 * plateaus whose levels are within the tolerance are merged.  A latency
 * does not fall as the working set grows, so a plateau above a later one
 * was raised by a disturbance: it is dropped, and the plateaus on either
 * side merge when alike.  Points with a NAN y are ignored.
 */
int ptb_plateaus(const double *x, const double *y, int n, double tol,
		 struct ptb_plateau *out, int max);

/*
 * The index of the first jump of y: the first point whose ratio to its
 * predecessor is at least 1 + tol and, in log, at least half the largest
 * such ratio of the curve (so that a later, smaller rise does not win and
 * a noisy wobble before the step does not either).  -1 when no point rises
 * by 1 + tol.
 */
int ptb_first_jump(const double *y, int n, double tol);

#endif
