/* SPDX-License-Identifier: MIT */
/*
 * What a timing of a benchmark with a reference (EPCC's method, the OpenMP
 * directives) takes off (ptb_reference_unit, harness/run/worker.c): its
 * own reference, unless that was interrupted -- over 1.5 times the least
 * of the trial's so far -- when the least stands in.  A table of
 * sequences with exact answers; the preempted one is the size seen under
 * load (18,203 ns a unit against 66.6).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "run/worker.h"
#include "tap.h"

struct step {
	double unit;
	bool resolved;
	double taken, least;   /* what is taken off, the least after it */
};

static const struct {
	const char *what;
	struct step steps[6];
	int n;
} cases[] = {
	{ "the first reference is taken as it is and is the least",
	  { { 66.6, true, 66.6, 66.6 } }, 1 },
	{ "the usual spread is kept, each timing with its own",
	  { { 66.6, true, 66.6, 66.6 }, { 68.0, true, 68.0, 66.6 }, { 65.9, true, 65.9, 65.9 },
	    { 70.1, true, 70.1, 65.9 } }, 4 },
	{ "a preempted reference gives way to the least",
	  { { 66.6, true, 66.6, 66.6 }, { 18203.0, true, 66.6, 66.6 }, { 67.0, true, 67.0, 66.6 } },
	  3 },
	{ "1.5 times the least is kept, just over is not",
	  { { 60.0, true, 60.0, 60.0 }, { 90.0, true, 90.0, 60.0 }, { 90.5, true, 60.0, 60.0 } }, 3 },
	{ "a timing the clock cannot resolve sets no least",
	  { { 0.0, false, 0.0, 0.0 }, { 66.6, true, 66.6, 66.6 }, { 12.0, false, 12.0, 66.6 } }, 3 },
	{ "an unresolved one is clipped like any other once there is a least",
	  { { 66.6, true, 66.6, 66.6 }, { 400.0, false, 66.6, 66.6 } }, 2 },
	{ "with no least yet, an interrupted first reference is taken as it is",
	  { { 18203.0, false, 18203.0, 0.0 }, { 18203.0, true, 18203.0, 18203.0 },
	    { 66.6, true, 66.6, 66.6 } }, 3 },
};

int main(void)
{
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		double least = 0;
		bool right = true;
		char got[256] = "";
		size_t len = 0;
		for (int i = 0; i < cases[c].n; i++) {
			const struct step *s = &cases[c].steps[i];
			double taken = ptb_reference_unit(&least, s->unit, s->resolved);
			right &= fabs(taken - s->taken) < 1e-9 && fabs(least - s->least) < 1e-9;
			len += (size_t)snprintf(got + len, len < sizeof got ? sizeof got - len : 0,
						" %g/%g", taken, least);
		}
		tap_ok(right, "%s (taken/least:%s)", cases[c].what, got);
	}
	tap_done();
	return tap_exit();
}
