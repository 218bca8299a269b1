/* SPDX-License-Identifier: MIT */
/*
 * The rules of the A/B gate that need none of its state (see ab.h): which
 * points a machine cannot have, how long a trial may take before the
 * deadline, when a point is looked at and at what level, and why a point
 * went without a verdict.
 */
#include "config.h"

#include <stdio.h>

#include "platform/topology.h"
#include "run/ab.h"

#define MAX_PAIRS PTB_AB_MAX_PAIRS

int ptb_ab_absent_placement(const struct ptb_pair *pairs, const json_t *params)
{
	const char *name = json_string_value(json_object_get(params, "placement"));
	int p = name ? ptb_placement_from_name(name) : -1;
	return p >= 0 && !pairs[p].possible ? p : -1;
}

json_t *ptb_ab_absent_json(const struct ptb_pair *pairs, unsigned absent)
{
	json_t *o = json_object();
	for (int p = 0; p < PTB_PLACEMENT_COUNT; p++)
		if (absent & 1u << p)
			json_object_set_new(o, ptb_placement_name(p), json_string(pairs[p].reason));
	return o;
}

double ptb_ab_trial_limit(double timeout_s, double now, double deadline, bool *cut)
{
	double left = deadline - now;
	*cut = left < timeout_s;
	return *cut ? left : timeout_s;
}

/* The looks a point can get before its last: at min_pairs x 2^k below
 * MAX_PAIRS.  The last comes when the budget is spent, or at MAX_PAIRS,
 * which ends the point before the budget can. */
int ptb_ab_interim_looks(int min_pairs)
{
	int looks = 0;
	for (int n = min_pairs; n < MAX_PAIRS; n *= 2)
		looks++;
	return looks;
}

/* The level of a look's interval.  Half of alpha goes to the last look,
 * half is shared by the interim ones, each share split over the m points:
 * the chance of any false verdict stays at most alpha (a union bound over
 * points and looks), and the last look, where the close points are
 * decided, is judged at 1 - alpha/2m rather than at 1 - alpha/(m x looks).
 * An interim look only needs to stop the clear points early. */
double ptb_ab_look_level(double alpha, int points, int min_pairs, bool last)
{
	int m = points > 0 ? points : 1, interim = ptb_ab_interim_looks(min_pairs);
	if (interim == 0)   /* the last look is the only one */
		return 1 - alpha / m;
	return 1 - alpha / 2 / (m * (last ? 1 : interim));
}

bool ptb_ab_unjudged(int n, bool looked, bool has_ci, const struct ptb_ab_end *end, char *why,
		     size_t len)
{
	if (looked && has_ci)
		return false;
	if (looked)
		snprintf(why, len, "%d pairs are too few for an interval at the comparison's level", n);
	else if (end->interrupted)
		snprintf(why, len, "interrupted after %d of the %d pairs needed", n, end->min_pairs);
	else if (end->time_up)
		snprintf(why, len, "%d of the %d pairs needed within --time %g s", n, end->min_pairs,
			 end->budget_s);
	else
		snprintf(why, len, "%d pairs, never judged", n);
	return true;
}

bool ptb_ab_is_look(int n, int min_pairs)
{
	for (int k = min_pairs; k < MAX_PAIRS; k *= 2)
		if (n == k)
			return true;
	return n >= MAX_PAIRS;
}
