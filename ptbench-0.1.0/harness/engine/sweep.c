/* SPDX-License-Identifier: MIT */
/*
 * The data points of one benchmark: the cross product of its variables'
 * values, taken from the variable's defaults or from the last `-p VAR=...`
 * naming it.  Values are checked strictly: an enumerated value must be in
 * the domain, a numeric one must be a whole base-10 integer in [min, max]
 * (it is then written back in canonical form, "016" -> "16"); repeated
 * values are dropped.
 *
 * A numeric variable given as one range "LO..HI" is swept coarsely -- LO,
 * every power of two strictly between, HI -- and then refined, SKaMPI
 * style.  The first range variable is refined and varies fastest; any
 * other range is only swept coarsely.  Refinement, once the coarse points
 * of a line (one combination of the other variables) have been fed their
 * means: every interval between neighbouring values is scored by how far
 * its change in mean departs from what the slope of a neighbouring
 * interval predicts, taking the smaller of the two departures (an interval
 * beside a kink agrees with its neighbour on the far side, so only the
 * interval holding the kink disagrees with both), relative to its smaller
 * endpoint mean.  The midpoint of the best-scoring interval whose
 * endpoints are more than 1 apart is added (ties: the wider, then the
 * leftmost), measured, and the scores recomputed, until the line has
 * max_points values (default 16; the coarse sweep is always measured in
 * full) or no interval scores above 0 -- a straight line needs no more
 * points.  A line of two points has no neighbouring slopes, so its one
 * interval is split.  A failed point (fed NAN) is never an endpoint of a
 * split and provides no slope.
 *
 * Points are handed out as soon as they can be measured and fed back by
 * id in any order, so a runner can measure the points of a benchmark
 * interleaved: every line's coarse points at once, and a refined line's
 * next midpoint once all its points so far have their values.  A caller
 * that feeds each point before asking for the next gets the lines one
 * after another.
 *
 * Returned value strings stay valid until ptb_sweep_free.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/assign.h"
#include "engine/sweep.h"
#include "text/text.h"

#define DEFAULT_MAX_POINTS 16

struct var {
	const struct ptb_param *par;
	char **vals;             /* the values, or a range's coarse sweep */
	int nvals;
	bool range;
};

struct line_point {
	long x;
	double mean;
	bool fed;
};

/* One combination of the variables other than the refined one. */
struct line {
	int pos[PTB_MAX_PARAMS];       /* index of each variable's value */
	struct line_point *pts;        /* the refined line, sorted by x */
	int npts, coarse_next;
	bool finished;
};

/* A point handed out: its line and its refined value (as text). */
struct handed {
	int line;
	long x;
	const char *xs;
};

struct ptb_sweep {
	int nvars;
	struct var vars[PTB_MAX_PARAMS];
	int refined;                   /* index into vars, or -1 */
	int max_points;
	struct line *lines;
	int nlines;
	struct handed *handed;
	int nhanded, handed_cap;
	char **pool;                   /* midpoint strings, kept until free */
	int npool, pool_cap;
};

/* ---- building the variables --------------------------------------------- */

static int make_lines(struct ptb_sweep *s);

static int add_value(struct var *v, const char *s)
{
	for (int i = 0; i < v->nvals; i++)
		if (strcmp(v->vals[i], s) == 0)
			return 0;
	char **grown = realloc(v->vals, (v->nvals + 1) * sizeof *grown);
	if (!grown)
		return -1;
	v->vals = grown;
	if (!(v->vals[v->nvals] = strdup(s)))
		return -1;
	v->nvals++;
	return 0;
}

static int add_long(struct var *v, long x)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%ld", x);
	return add_value(v, buf);
}

static int coarse_sweep(struct var *v, long lo, long hi)
{
	if (add_long(v, lo) < 0)
		return -1;
	for (long p = 1; p < hi; p *= 2) {
		if (p > lo && add_long(v, p) < 0)
			return -1;
		if (p > LONG_MAX / 2)
			break;
	}
	return add_long(v, hi);
}

static int fill_var(const struct ptb_bench *b, struct var *v, const char *list,
		    char *err, size_t errlen)
{
	char canon[64];
	long lo, hi;
	v->range = ptb_assign_is_range(v->par, list);
	if (v->range) {
		if (ptb_range_parse(b, v->par, list, &lo, &hi, err, errlen) < 0)
			return -1;
		if (coarse_sweep(v, lo, hi) < 0)
			goto oom;
		return 0;
	}
	for (const char *s = list;;) {
		size_t n = strcspn(s, ",");
		if (ptb_value_check(b, v->par, s, n, canon, sizeof canon, err, errlen) < 0)
			return -1;
		if (add_value(v, canon) < 0)
			goto oom;
		if (!s[n])
			return 0;
		s += n + 1;
	}
oom:
	ptb_errf(err, errlen, "out of memory");
	return -1;
}

/* The list of the last assignment naming par, or the defaults: this
 * machine's (written into here) when the variable has them. */
static const char *list_for(const struct ptb_bench *b, const struct ptb_param *par,
			    const char *const *assign, int nassign,
			    const struct ptb_system *sys, char *here, size_t len)
{
	const char *found = par->defaults ? par->defaults : "";
	if (sys && b->defaults_here && b->defaults_here(sys, par->name, here, len) == 0)
		found = here;
	for (int i = 0; i < nassign; i++) {
		const char *list;
		int len = ptb_assign_split(assign[i], &list);
		if (len > 0 && (size_t)len == strlen(par->name) &&
		    strncmp(assign[i], par->name, len) == 0)
			found = list;
	}
	return found;
}

struct ptb_sweep *ptb_sweep_new(const struct ptb_bench *b, const char *const *assign,
				int nassign, int max_points, const struct ptb_system *sys,
				char *err, size_t errlen)
{
	enum { HERE_LEN = 16384 };   /* a pair plan's indexes: 5 KB */
	char *here;
	struct ptb_sweep *s;
	if (ptb_assign_syntax(assign, nassign, err, errlen) < 0)
		return NULL;
	here = malloc(HERE_LEN);
	if (!here || !(s = calloc(1, sizeof *s))) {
		ptb_errf(err, errlen, "out of memory");
		free(here);
		return NULL;
	}
	s->refined = -1;
	s->max_points = max_points > 0 ? max_points : DEFAULT_MAX_POINTS;
	for (int i = 0; b->params && b->params[i].name; i++) {
		if (i >= PTB_MAX_PARAMS) {
			ptb_errf(err, errlen, "%s: more than %d variables", b->name, PTB_MAX_PARAMS);
			goto bad;
		}
		struct var *v = &s->vars[s->nvars++];
		v->par = &b->params[i];
		if (fill_var(b, v, list_for(b, v->par, assign, nassign, sys, here, HERE_LEN), err,
			     errlen) < 0)
			goto bad;
		if (v->range && s->refined < 0)
			s->refined = i;
	}
	if (make_lines(s) < 0) {
		ptb_errf(err, errlen, "out of memory");
		goto bad;
	}
	free(here);
	return s;
bad:
	free(here);
	ptb_sweep_free(s);
	return NULL;
}

/* ---- refinement --------------------------------------------------------- */

static double slope(const struct line_point *a, const struct line_point *b)
{
	return (b->mean - a->mean) / (double)(b->x - a->x);
}

/* Score of the interval [j, j+1]; see the header comment. */
static double interval_score(const struct line_point *l, int n, int j)
{
	const struct line_point *a = &l[j], *b = &l[j + 1];
	double change = b->mean - a->mean, width = (double)(b->x - a->x);
	double dev = INFINITY;
	bool any = false;

	if (j > 0 && isfinite(l[j - 1].mean)) {
		dev = fmin(dev, fabs(change - slope(&l[j - 1], a) * width));
		any = true;
	}
	if (j + 2 < n && isfinite(l[j + 2].mean)) {
		dev = fmin(dev, fabs(change - slope(b, &l[j + 2]) * width));
		any = true;
	}
	if (!any)
		return n == 2 ? INFINITY : 0;
	double denom = fmin(fabs(a->mean), fabs(b->mean));
	if (denom > 0)
		return dev / denom;
	return dev > 0 ? INFINITY : 0;
}

/* Index j of the interval to split, or -1. */
static int pick_interval(const struct line_point *l, int n)
{
	int best = -1;
	double best_score = 0;
	for (int j = 0; j + 1 < n; j++) {
		if (l[j + 1].x - l[j].x <= 1 || !isfinite(l[j].mean) || !isfinite(l[j + 1].mean))
			continue;
		double sc = interval_score(l, n, j);
		if (!(sc > 0))
			continue;
		if (best < 0 || sc > best_score ||
		    (sc == best_score && l[j + 1].x - l[j].x > l[best + 1].x - l[best].x)) {
			best = j;
			best_score = sc;
		}
	}
	return best;
}

static const char *intern(struct ptb_sweep *s, long x)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%ld", x);
	for (int i = 0; i < s->npool; i++)
		if (strcmp(s->pool[i], buf) == 0)
			return s->pool[i];
	if (s->npool == s->pool_cap) {
		int cap = s->pool_cap ? 2 * s->pool_cap : 16;
		char **grown = realloc(s->pool, cap * sizeof *grown);
		if (!grown)
			return NULL;
		s->pool = grown;
		s->pool_cap = cap;
	}
	if (!(s->pool[s->npool] = strdup(buf)))
		return NULL;
	return s->pool[s->npool++];
}

static int line_insert(struct line *l, int at, long x)
{
	memmove(&l->pts[at + 1], &l->pts[at], (l->npts - at) * sizeof *l->pts);
	l->pts[at] = (struct line_point){ x, NAN, false };
	l->npts++;
	return at;
}

/* ---- lines -------------------------------------------------------------- */

/* The combinations of the other variables, like an odometer, last one
 * fastest; each with room for its refined points. */
static int make_lines(struct ptb_sweep *s)
{
	int n = 1, cap = 1;
	for (int i = 0; i < s->nvars; i++)
		if (i != s->refined)
			n *= s->vars[i].nvals;
	if (s->refined >= 0)
		cap = s->vars[s->refined].nvals > s->max_points ? s->vars[s->refined].nvals
								: s->max_points;
	if (!(s->lines = calloc((size_t)n, sizeof *s->lines)))
		return -1;
	s->nlines = n;
	for (int k = 0; k < n; k++) {
		struct line *l = &s->lines[k];
		int rest = k;
		for (int i = s->nvars - 1; i >= 0; i--) {
			if (i == s->refined)
				continue;
			l->pos[i] = rest % s->vars[i].nvals;
			rest /= s->vars[i].nvals;
		}
		if (!(l->pts = calloc((size_t)cap, sizeof *l->pts)))
			return -1;
	}
	return 0;
}

static int hand_out(struct ptb_sweep *s, int line, long x, const char *xs)
{
	if (s->nhanded == s->handed_cap) {
		int cap = s->handed_cap ? 2 * s->handed_cap : 16;
		struct handed *h = realloc(s->handed, (size_t)cap * sizeof *h);
		if (!h)
			return -1;
		s->handed = h;
		s->handed_cap = cap;
	}
	s->handed[s->nhanded] = (struct handed){ line, x, xs };
	return s->nhanded++;
}

/* The next point of a line that can be measured now: -1 none yet or
 * ever, else its id. */
static int line_next(struct ptb_sweep *s, int k)
{
	struct line *l = &s->lines[k];
	if (s->refined < 0) {
		if (l->coarse_next++)
			return -1;
		l->finished = true;
		return hand_out(s, k, 0, NULL);
	}
	struct var *v = &s->vars[s->refined];
	if (l->coarse_next < v->nvals) {
		const char *str = v->vals[l->coarse_next++];
		long x = strtol(str, NULL, 10);
		line_insert(l, l->npts, x);
		return hand_out(s, k, x, str);
	}
	for (int i = 0; i < l->npts; i++)
		if (!l->pts[i].fed)
			return -1;
	int j = l->npts >= s->max_points ? -1 : pick_interval(l->pts, l->npts);
	const char *str = NULL;
	long x = 0;
	if (j >= 0) {
		x = l->pts[j].x + (l->pts[j + 1].x - l->pts[j].x) / 2;
		str = intern(s, x);
	}
	if (!str) {
		l->finished = true;
		return -1;
	}
	line_insert(l, j + 1, x);
	return hand_out(s, k, x, str);
}

static bool line_pending(const struct line *l)
{
	for (int i = 0; i < l->npts; i++)
		if (!l->pts[i].fed)
			return true;
	return false;
}

/* ---- iteration ---------------------------------------------------------- */

static void fill_values(const struct ptb_sweep *s, const struct handed *h,
			const char *values[PTB_MAX_PARAMS])
{
	const struct line *l = &s->lines[h->line];
	for (int i = 0; i < PTB_MAX_PARAMS; i++)
		values[i] = NULL;
	for (int i = 0; i < s->nvars; i++)
		values[i] = i == s->refined ? h->xs : s->vars[i].vals[l->pos[i]];
}

enum ptb_sweep_step ptb_sweep_next(struct ptb_sweep *s, const char *values[PTB_MAX_PARAMS],
				   int *id)
{
	bool waiting = false;
	for (int k = 0; k < s->nlines; k++) {
		if (s->lines[k].finished)
			continue;
		int h = line_next(s, k);
		if (h >= 0) {
			fill_values(s, &s->handed[h], values);
			*id = h;
			return PTB_SWEEP_POINT;
		}
		waiting |= line_pending(&s->lines[k]);
	}
	return waiting ? PTB_SWEEP_WAIT : PTB_SWEEP_DONE;
}

void ptb_sweep_feed(struct ptb_sweep *s, int id, double mean)
{
	if (id < 0 || id >= s->nhanded || s->refined < 0)
		return;
	struct line *l = &s->lines[s->handed[id].line];
	for (int i = 0; i < l->npts; i++)
		if (l->pts[i].x == s->handed[id].x && !l->pts[i].fed) {
			l->pts[i].mean = mean;
			l->pts[i].fed = true;
			return;
		}
}

void ptb_sweep_free(struct ptb_sweep *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->nvars; i++) {
		for (int j = 0; j < s->vars[i].nvals; j++)
			free(s->vars[i].vals[j]);
		free(s->vars[i].vals);
	}
	for (int i = 0; i < s->npool; i++)
		free(s->pool[i]);
	for (int k = 0; k < s->nlines; k++)
		free(s->lines[k].pts);
	free(s->lines);
	free(s->handed);
	free(s->pool);
	free(s);
}

