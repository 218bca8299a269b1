/* SPDX-License-Identifier: MIT */
/*
 * Replaying a trace made by tests/trace-made.h, for the tests of the
 * simulator (tests/test_trace.c, tests/test_trace_lock.c): the wall time
 * and what the replay counted.  Header-only: each test program includes
 * it once, after trace-made.h.
 */
#ifndef PTB_TESTS_TRACE_REPLAY_H
#define PTB_TESTS_TRACE_REPLAY_H

#include <stdio.h>
#include <string.h>

#include "trace/ops.h"
#include "trace/reader.h"
#include "trace/sim.h"

static char path[64];
/* The target machine's costs the next replays charge (none: NULL). */
static const struct ptb_sim_costs *costs;
/* The last replay's wake-ups onto an idle CPU charged to their wakers. */
static uint64_t remote_wakes;
/* Its time with more threads able to run than CPUs, ms, and the integral
 * over that time of those threads less the CPUs, ms. */
static double shared_ms, excess_ms;
/* Its CPU time kept busy, ms (work as stretched by the costs). */
static double busy_ms;
/* Its releases that woke 2 threads or more at once, and those threads. */
static uint64_t group_releases, group_woken;
/* Its limits: the objects on the critical path, with their waits. */
static struct ptb_sim_limit limits[PTB_SIM_LIMITS];
static int nlimits;

/* Replay what was made on `cpus`: the wall time in ms, -1 when refused. */
static double replay(int cpus, uint64_t *forced)
{
	struct ptb_trace t;
	struct ptb_ops o;
	struct ptb_sim_result r;
	char err[256];
	write_trace(path);
	memset(th, 0, sizeof th);
	nth = 0;
	if (ptb_trace_load(path, &t, err, sizeof err))
		return -1;
	if (ptb_ops_build(&t, &o) || ptb_sim_run(&o, cpus, costs, &r, NULL))
		return -2;
	ptb_ops_free(&o);
	ptb_trace_free(&t);
	if (forced)
		*forced = r.forced;
	remote_wakes = r.remote_wakes;
	shared_ms = r.shared_ns / 1e6;
	excess_ms = r.excess_ns / 1e6;
	busy_ms = r.busy_ns / 1e6;
	group_releases = r.group_releases, group_woken = r.group_woken;
	nlimits = r.nlimits;
	memcpy(limits, r.limits, sizeof limits);
	return r.wall_ns / 1e6;
}

#endif
