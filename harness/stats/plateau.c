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
#include "text/size.h"

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

/* Removes plateau k of count (its points belong to none), and its segment
 * id; returns the new count. */
static int drop(struct ptb_plateau *out, int *ids, int count, int k, int *seg, int n)
{
	for (int i = 0; i < n; i++)
		if (seg[i] == ids[k])
			seg[i] = -1;
	memmove(out + k, out + k + 1, (size_t)(count - k - 1) * sizeof *out);
	memmove(ids + k, ids + k + 1, (size_t)(count - k - 1) * sizeof *ids);
	return count - 1;
}

/* A latency does not fall as the working set grows: a plateau above a
 * later one was raised by a disturbance (another program on the PU, a
 * preemption in each of its points) and is dropped, and its neighbours
 * merge when alike.  Under `taskset -c 0` beside a make, such a plateau
 * made a derived L3 faster than L2. */
static int drop_raised(struct ptb_plateau *out, int *ids, int count, const double *y, int *seg,
		       int n, double tol, double *work)
{
	for (int k = 1; k < count; k++) {
		if (out[k].level >= out[k - 1].level)
			continue;
		count = drop(out, ids, count, k - 1, seg, n);
		if (k >= 2 && within(out[k - 1].level, out[k - 2].level, tol)) {
			for (int i = 0; i < n; i++)
				seg[i] = seg[i] == ids[k - 1] ? ids[k - 2] : seg[i];
			fill(&out[k - 2], y, seg, n, ids[k - 2], work);
			memmove(out + k - 1, out + k, (size_t)(count - k) * sizeof *out);
			memmove(ids + k - 1, ids + k, (size_t)(count - k) * sizeof *ids);
			count--;
		}
		k = 0;                            /* from the start again */
	}
	return count;
}

int ptb_plateaus(const double *x, const double *y, int n, double tol,
		 struct ptb_plateau *out, int max)
{
	int *seg = ptb_array_realloc(NULL, (size_t)(n > 0 ? n : 1), sizeof *seg), count = 0;
	int *ids = ptb_array_realloc(NULL, (size_t)(n > 0 ? n : 1), sizeof *ids);
	double *work = ptb_array_realloc(NULL, (size_t)(n > 0 ? n : 1), sizeof *work);
	if (!seg || !ids || !work || n <= 0)
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
		ids[count] = id;
		out[count++] = p;
		prev = id;
	}
	count = drop_raised(out, ids, count, y, seg, n, tol, work);
	for (int k = 0; k + 1 < count; k++)
		out[k].edge_x = crossing(x, y, n, out[k].last,
					 sqrt(out[k].level * out[k + 1].level));
done:
	free(seg);
	free(ids);
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
