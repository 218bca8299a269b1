/* SPDX-License-Identifier: MIT */
/*
 * The yield benchmark's alternation verdict on synthetic counts: strict
 * alternation is ok, a few solo yields are unstable, threads that do not
 * take turns are na, too few yields are not judged, and the reasons give
 * the counts.
 */
#include <string.h>

#include "bench/common.h"
#include "tap.h"

int main(void)
{
	char why[200];

	tap_ok(ptb_yield_alternation(8190, 8192, why, sizeof why) == PTB_OK && !why[0],
	       "8190 switches in 8192 yields: ok, no reason");
	tap_ok(ptb_yield_alternation(7800, 8192, why, sizeof why) == PTB_OK,
	       "95.2 %% switches: ok");
	tap_ok(ptb_yield_alternation(7700, 8192, why, sizeof why) == PTB_UNSTABLE &&
	       strstr(why, "7700 switches in 8192 yields"), "94 %% switches: unstable (%s)", why);
	tap_ok(ptb_yield_alternation(4096, 8192, why, sizeof why) == PTB_UNSTABLE,
	       "half the yields switch: still unstable");
	tap_ok(ptb_yield_alternation(12, 4096, why, sizeof why) == PTB_NA &&
	       !strcmp(why, "threads did not alternate: 12 switches in 4096 yields"),
	       "12 switches in 4096 yields: na (%s)", why);
	tap_ok(ptb_yield_alternation(0, 1 << 20, why, sizeof why) == PTB_NA, "no switch at all: na");
	tap_ok(ptb_yield_alternation(1, 2, why, sizeof why) == PTB_OK,
	       "2 yields (a first growth timing): too few to judge");
	tap_ok(ptb_yield_alternation(0, PTB_YIELD_MIN_YIELDS, why, sizeof why) == PTB_NA,
	       "judged from PTB_YIELD_MIN_YIELDS yields on");
	tap_done();
	return tap_exit();
}
