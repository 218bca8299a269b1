/* SPDX-License-Identifier: MIT */
/*
 * The disturbance of a trial or a point (see disturb.h).
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "stats/disturb.h"

void ptb_disturbance_window(struct ptb_disturbance *d, double window_s, int pus,
			    double idle_s, double steal_s, double own_cpu_s, long preempted,
			    int run_queue, double tick_s)
{
	memset(d, 0, sizeof *d);
	d->windows = 1;
	d->window_s = window_s > 0 ? window_s : 0;
	d->capacity_s = d->window_s * (pus > 0 ? pus : 0);
	d->readings = pus > 0 ? pus : 0;
	d->steal_s = steal_s > 0 ? steal_s : 0;
	/* The kernel counts in ticks: idle may exceed the window by one. */
	d->busy_s = fmax(0, d->capacity_s - fmax(0, idle_s) - d->steal_s);
	d->own_cpu_s = own_cpu_s > 0 ? own_cpu_s : 0;
	d->preempted = preempted > 0 ? preempted : 0;
	d->run_queue = run_queue;
	d->tick_s = tick_s > 0 ? tick_s : 0;
	ptb_disturbance_judge(d);
}

void ptb_disturbance_add(struct ptb_disturbance *pool, const struct ptb_disturbance *d)
{
	pool->windows += d->windows;
	pool->window_s += d->window_s;
	pool->capacity_s += d->capacity_s;
	pool->readings += d->readings;
	pool->busy_s += d->busy_s;
	pool->own_cpu_s += d->own_cpu_s;
	pool->steal_s += d->steal_s;
	pool->preempted += d->preempted;
	pool->run_queue = d->run_queue > pool->run_queue ? d->run_queue : pool->run_queue;
	pool->tick_s = d->tick_s > pool->tick_s ? d->tick_s : pool->tick_s;
	ptb_disturbance_judge(pool);
}

void ptb_disturbance_judge(struct ptb_disturbance *d)
{
	double margin = d->tick_s * sqrt((double)d->readings);
	double cap = d->capacity_s;
	d->other_cpu_s = d->busy_s - d->own_cpu_s;
	d->other_share = cap > 0 ? d->other_cpu_s / cap : NAN;
	d->steal_share = cap > 0 ? d->steal_s / cap : NAN;
	d->preempted_per_s = d->window_s > 0 ? (double)d->preempted / d->window_s : NAN;
	if (cap > 0 && ((d->other_cpu_s - margin) / cap > PTB_DISTURB_OTHER_SHARE ||
			(d->steal_s - margin) / cap > PTB_DISTURB_STEAL_SHARE))
		d->disturbed = 1;
	else if (cap > 0 && margin <= PTB_DISTURB_OTHER_SHARE * cap &&
		 margin <= PTB_DISTURB_STEAL_SHARE * cap)
		d->disturbed = 0;
	else
		d->disturbed = -1;
}
