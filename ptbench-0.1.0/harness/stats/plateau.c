/* SPDX-License-Identifier: MIT */
/*
 * Plateaus and jumps of a measured curve (stats/plateau.h).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats/plateau.h"
#include "stats/stats.h"

static bool within(double y, double level, double tol)
{
	return fabs(log(y / level)) <= log1p(tol);
}

/* The median of the points of y marked with segment id `seg`. */
static double seg_median(const double *y, const int *seg, int n, int id, double *work)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		if (seg[i] == id)
			work[k++] = y[i];
	return k ? ptb_median_inplace(work, k) : NAN;
}

/* The next point after i with a value, or n. */
static int next_valid(const double *y, int n, int i)
{
	for (i++; i < n && !(y[i] > 0); i++)
		;
	return i;
}

/* Mark each point with its segment (-1: none, an outlier or no value);
 * returns the number of segments. */
static int segment(const double *y, int n, double tol, int *seg, double *work)
{
	int nseg = 0, cur = -1, members = 0;
	for (int i = next_valid(y, n, -1); i < n; i = next_valid(y, n, i)) {
		double level = cur >= 0 ? seg_median(y, seg, i, cur, work) : NAN;
		int j = next_valid(y, n, i);
		if (cur >= 0 && within(y[i], level, tol)) {
			seg[i] = cur;
			members++;
			continue;
		}
		if (cur >= 0 && j < n && within(y[j], level, tol))
			continue;                  /* a lone outlier inside the plateau */
		seg[i] = cur = nseg++;
		members = 1;
	}
	return nseg;
}

static void fill(struct ptb_plateau *p, const double *y, const int *seg, int n, int id,
		 double *work)
{
	p->first = -1;
	p->npoints = 0;
	for (int i = 0; i < n; i++)
		if (seg[i] == id) {
			if (p->first < 0)
				p->first = i;
			p->last = i;
			p->npoints++;
		}
	p->level = seg_median(y, seg, n, id, work);
	p->edge_x = NAN;
}

/* x where y first reaches thr after point a, interpolated in log-log
 * between the last point below it and the first at or above it. */
static double crossing(const double *x, const double *y, int n, int a, double thr)
{
	int prev = a;
	for (int t = next_valid(y, n, a); t < n; t = next_valid(y, n, t)) {
		if (y[t] >= thr) {
			double f = (log(thr) - log(y[prev])) / (log(y[t]) - log(y[prev]));
			return exp(log(x[prev]) + f * (log(x[t]) - log(x[prev])));
		}
		prev = t;
	}
	return NAN;
}

int ptb_plateaus(const double *x, const double *y, int n, double tol,
		 struct ptb_plateau *out, int max)
{
	int *seg = malloc((size_t)(n > 0 ? n : 1) * sizeof *seg), count = 0;
	double *work = malloc((size_t)(n > 0 ? n : 1) * sizeof *work);
	if (!seg || !work || n <= 0)
		goto done;
	for (int i = 0; i < n; i++)
		seg[i] = -1;
	int nseg = segment(y, n, tol, seg, work), prev = -1;
	for (int id = 0; id < nseg; id++) {
		struct ptb_plateau p;
		fill(&p, y, seg, n, id, work);
		if (p.npoints < 2)
			continue;
		if (count && within(p.level, out[count - 1].level, tol)) {
			for (int i = 0; i < n; i++)   /* one plateau, split by a wobble */
				seg[i] = seg[i] == id ? prev : seg[i];
			fill(&out[count - 1], y, seg, n, prev, work);
			continue;
		}
		if (count == max)
			break;
		out[count++] = p;
		prev = id;
	}
	for (int k = 0; k + 1 < count; k++)
		out[k].edge_x = crossing(x, y, n, out[k].last,
					 sqrt(out[k].level * out[k + 1].level));
done:
	free(seg);
	free(work);
	return count;
}

int ptb_first_jump(const double *y, int n, double tol)
{
	double best = 0;
	for (int i = 1; i < n; i++)
		if (y[i] > 0 && y[i - 1] > 0 && log(y[i] / y[i - 1]) > best)
			best = log(y[i] / y[i - 1]);
	if (best < log1p(tol))
		return -1;
	for (int i = 1; i < n; i++)
		if (y[i] > 0 && y[i - 1] > 0 && log(y[i] / y[i - 1]) >= fmax(best / 2, log1p(tol)))
			return i;
	return -1;
}
