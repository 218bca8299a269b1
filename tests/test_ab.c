/* SPDX-License-Identifier: MIT */
/*
 * The A/B comparison's time budget and its points without a verdict
 * (run/ab.c): a trial may run only as long as the time left, none starts
 * after the deadline, and a point that was never judged, or whose pairs
 * give no interval, says why instead of taking a verdict by default.
 */
#include <stdbool.h>
#include <string.h>

#include "run/ab.h"
#include "tap.h"

static void limits(void)
{
	bool cut;
	double l = ptb_ab_trial_limit(60, 100, 102.5, &cut);
	tap_ok(l == 2.5 && cut, "2.5 s left of a 60 s timeout: the trial gets 2.5 s, cut by the "
	       "deadline (got %g, %d)", l, cut);
	l = ptb_ab_trial_limit(1, 100, 102.5, &cut);
	tap_ok(l == 1 && !cut, "a 1 s timeout within 2.5 s left: the timeout (got %g, %d)", l, cut);
	l = ptb_ab_trial_limit(60, 102.5, 102.5, &cut);
	tap_ok(l <= 0 && cut, "at the deadline: no trial starts (got %g)", l);
	l = ptb_ab_trial_limit(60, 110, 102.5, &cut);
	tap_ok(l <= 0 && cut, "past the deadline: no trial starts (got %g)", l);
}

static void unjudged(void)
{
	char why[256];
	struct ptb_ab_end interrupted = { .interrupted = true, .budget_s = 45, .min_pairs = 12 };
	struct ptb_ab_end time_up = { .time_up = true, .budget_s = 0.5, .min_pairs = 12 };
	struct ptb_ab_end ended = { .budget_s = 45, .min_pairs = 12 };

	tap_ok(!ptb_ab_unjudged(12, true, true, &ended, why, sizeof why),
	       "judged with an interval: a verdict");
	tap_ok(!ptb_ab_unjudged(30, true, true, &interrupted, why, sizeof why),
	       "judged with an interval, then interrupted: the verdict stands");
	tap_ok(ptb_ab_unjudged(0, false, false, &interrupted, why, sizeof why) &&
	       !strcmp(why, "interrupted after 0 of the 12 pairs needed"),
	       "interrupted before any pair: not compared (%s)", why);
	tap_ok(ptb_ab_unjudged(5, false, false, &interrupted, why, sizeof why) &&
	       !strcmp(why, "interrupted after 5 of the 12 pairs needed"),
	       "interrupted at 5 pairs: not compared (%s)", why);
	tap_ok(ptb_ab_unjudged(3, false, false, &time_up, why, sizeof why) &&
	       !strcmp(why, "3 of the 12 pairs needed within --time 0.5 s"),
	       "time up at 3 pairs: not compared (%s)", why);
	tap_ok(ptb_ab_unjudged(9, true, false, &time_up, why, sizeof why) &&
	       strstr(why, "9 pairs are too few for an interval"),
	       "judged but no interval at the level: not compared (%s)", why);
	tap_ok(ptb_ab_unjudged(9, true, false, &ended, why, sizeof why),
	       "no interval is never a verdict, however the measuring ended");
}

/* How alpha is spent over points and looks: half at the last look, half
 * shared by the interim ones; the false-verdict chances add up to alpha. */
static void looks(void)
{
	tap_ok(ptb_ab_interim_looks(12) == 6, "min 12 pairs: interim looks at 12, 24, 48, 96, 192 "
	       "and 384 (got %d)", ptb_ab_interim_looks(12));
	tap_ok(ptb_ab_is_look(12, 12) && ptb_ab_is_look(384, 12) && !ptb_ab_is_look(13, 12) &&
	       !ptb_ab_is_look(96 + 1, 12) && ptb_ab_is_look(400, 12),
	       "looks at 12 x 2^k, and at the most pairs a point gets (400)");
	tap_ok(ptb_ab_interim_looks(400) == 0 && ptb_ab_interim_looks(300) == 1,
	       "min 400: no interim look; min 300: one");
	tap_near(ptb_ab_look_level(0.05, 2, 12, true), 1 - 0.0125, 1e-15,
		 "2 points: the last look at 1 - alpha/2/2 = 98.75 %%");
	tap_near(ptb_ab_look_level(0.05, 2, 12, false), 1 - 0.025 / 12, 1e-15,
		 "an interim look at 1 - alpha/2/(2 x 6)");
	double spent = 0;
	for (int m = 0; m < 3; m++)
		spent += ptb_ab_interim_looks(12) * (1 - ptb_ab_look_level(0.05, 3, 12, false)) +
			 (1 - ptb_ab_look_level(0.05, 3, 12, true));
	tap_near(spent, 0.05, 1e-12, "3 points, every look: the union bound spends alpha exactly");
	tap_near(ptb_ab_look_level(0.05, 2, 400, true), 1 - 0.025, 1e-15,
		 "without interim looks the last look has all of alpha: 1 - alpha/2");
}

int main(void)
{
	limits();
	unjudged();
	looks();
	tap_done();
	return tap_exit();
}
