/* SPDX-License-Identifier: MIT */
/*
 * How much of a point's spread is code layout (stats/layout.c), on cases
 * worked by hand: two layouts 10 % apart with a 1.4 % scatter inside
 * each, no difference between layouts, one layout only, and unequal
 * groups (the effective group size of the method of moments).
 */
#include <math.h>

#include "stats/layout.h"
#include "tap.h"

static void two_layouts_apart(void)
{
	/* log estimates 0, 0.02 | 0.10, 0.12: within MS = 4 x 0.01^2 / 2 =
	 * 0.0002; group means 0.01 and 0.11 about 0.06, between MS =
	 * 2 x 2 x 0.05^2 = 0.01; n0 = 2; between = (0.01 - 0.0002) / 2. */
	double est[] = { exp(0), exp(0.02), exp(0.10), exp(0.12) };
	int group[] = { 3, 3, 5, 5 };
	struct ptb_layout_split s;
	ptb_layout_split(est, group, 4, 8, &s);
	tap_ok(s.groups == 2, "two layouts with trials (got %d)", s.groups);
	tap_near(s.within_pct, 100 * sqrt(0.0002), 1e-9, "within: sqrt(0.0002) = 1.41 %%");
	tap_near(s.between_pct, 100 * sqrt(0.0049), 1e-9, "between: sqrt((0.01 - 0.0002) / 2) = 7 %%");
	tap_near(s.share, 0.0049 / 0.0051, 1e-12, "share 0.0049 / 0.0051 = %.4f", s.share);
}

static void no_difference(void)
{
	/* Both layouts have mean 0.01: between MS 0 < within, share 0. */
	double est[] = { exp(0), exp(0.02), exp(0.02), exp(0) };
	int group[] = { 0, 0, 1, 1 };
	struct ptb_layout_split s;
	ptb_layout_split(est, group, 4, 8, &s);
	tap_ok(s.share == 0 && s.between_pct == 0, "layouts alike: share 0 (got %g)", s.share);
}

static void too_few(void)
{
	double est[] = { 1, 1.1, 1.2 };
	int one[] = { 2, 2, 2 }, single[] = { 0, 1, 2 };
	struct ptb_layout_split s;
	ptb_layout_split(est, one, 3, 8, &s);
	tap_ok(s.groups == 1 && isnan(s.share), "one layout: no share");
	ptb_layout_split(est, single, 3, 8, &s);
	tap_ok(s.groups == 3 && isnan(s.share), "no layout with two trials: no share");
}

static void unequal_groups(void)
{
	/* Groups of 1 and 3: logs 0.3 | 0, 0.01, 0.02.  Within MS =
	 * 2 x 0.0001 / 2 = 0.0001; means 0.3 and 0.01 about 0.0825: between
	 * SS = 0.2175^2 + 3 x 0.0725^2 = 0.0630750, MS the same (1 df);
	 * n0 = (4 - 10/4) / 1 = 1.5. */
	double est[] = { exp(0.3), exp(0), exp(0.01), exp(0.02) };
	int group[] = { 6, 1, 1, 1 };
	struct ptb_layout_split s;
	double between = (0.063075 - 0.0001) / 1.5;
	ptb_layout_split(est, group, 4, 8, &s);
	tap_near(s.between_pct, 100 * sqrt(between), 1e-9, "unequal groups: n0 = 1.5 (%.3f %%)",
		 s.between_pct);
	tap_near(s.share, between / (between + 0.0001), 1e-12, "and its share %.4f", s.share);
}

int main(void)
{
	two_layouts_apart();
	no_difference();
	too_few();
	unequal_groups();
	tap_done();
	return tap_exit();
}
