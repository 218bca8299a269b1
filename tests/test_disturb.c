/* SPDX-License-Identifier: MIT */
/*
 * Was the machine the benchmark's (docs/design.md section 11): the verdict
 * on hand-worked windows -- quiet, a co-tenant on the PU, a hypervisor
 * stealing, a window too short for the kernel's ticks to tell, pooling --
 * the PU lists bindings are written in, and /proc/stat read from a file.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "platform/load.h"
#include "stats/disturb.h"
#include "tap.h"

static void verdicts(void)
{
	struct ptb_disturbance d, pool = { 0 };
	/* 1 s on 1 PU, 10 ms ticks: the benchmark ran 0.99 s, idle 0. */
	ptb_disturbance_window(&d, 1.0, 1, 0, 0, 0.99, 3, 1, 0.01);
	tap_near(d.other_share, 0.01, 1e-9, "quiet: others took 1 %% of the PU");
	tap_ok(d.disturbed == 0, "quiet, and long enough to tell: not disturbed");
	tap_near(d.preempted_per_s, 3, 1e-9, "preemptions per second");
	/* A co-tenant took half: the benchmark got 0.5 s of a busy second. */
	ptb_disturbance_window(&d, 1.0, 1, 0, 0, 0.5, 400, 2, 0.01);
	tap_ok(d.disturbed == 1 && fabs(d.other_share - 0.5) < 1e-9,
	       "a co-tenant with half the PU: disturbed, other share 0.5");
	/* Exactly at the threshold plus the margin (one tick): still not. */
	ptb_disturbance_window(&d, 1.0, 1, 0, 0, 1.0 - 0.10 - 0.01, 0, 1, 0.01);
	tap_ok(d.disturbed == 0, "10 %% and one tick of others: not disturbed (%g)", d.other_share);
	ptb_disturbance_window(&d, 1.0, 1, 0, 0, 1.0 - 0.10 - 0.011, 0, 1, 0.01);
	tap_ok(d.disturbed == 1, "a little more: disturbed");
	/* Two PUs, one idle half the time, the other ours: others 0. */
	ptb_disturbance_window(&d, 1.0, 2, 0.5, 0, 1.5, 0, 1, 0.01);
	tap_ok(d.disturbed == 0 && fabs(d.other_cpu_s) < 1e-9 && d.capacity_s == 2.0,
	       "two PUs, idle time is nobody's: not disturbed");
	/* The hypervisor stole 20 % and nobody else ran. */
	ptb_disturbance_window(&d, 1.0, 1, 0, 0.2, 0.8, 0, 1, 0.01);
	tap_ok(d.disturbed == 1 && fabs(d.steal_share - 0.2) < 1e-9 && fabs(d.other_cpu_s) < 1e-9,
	       "20 %% stolen: disturbed, by the hypervisor alone");
	/* 20 ms with 10 ms ticks: 25 % others could be one tick's rounding. */
	ptb_disturbance_window(&d, 0.02, 1, 0, 0, 0.015, 0, 1, 0.01);
	tap_ok(d.disturbed == -1, "a 20 ms window, 25 %% others: too short to tell");
	/* Four such windows pooled: 20 ms of others against a 20 ms margin. */
	for (int i = 0; i < 4; i++)
		ptb_disturbance_add(&pool, &d);
	tap_ok(pool.windows == 4 && pool.readings == 4 && fabs(pool.capacity_s - 0.08) < 1e-12,
	       "pooled: 4 windows, 4 readings, 80 ms of PU time");
	tap_ok(pool.disturbed == -1, "4 of them: still too short (margin 20 ms)");
	for (int i = 0; i < 12; i++)
		ptb_disturbance_add(&pool, &d);
	tap_ok(pool.disturbed == 1, "16 of them: 80 ms of others beyond a 40 ms margin, disturbed");
	ptb_disturbance_window(&d, 0, 0, 0, 0, 0, 0, 0, 0.01);
	tap_ok(d.disturbed == -1 && isnan(d.other_share), "an empty window tells nothing");
}

static void pu_lists(void)
{
	struct ptb_pu_set s = { 0 };
	tap_ok(ptb_pu_set_add_list(&s, "0-2,5") == 0 && s.n == 4 && ptb_pu_set_has(&s, 2) &&
	       !ptb_pu_set_has(&s, 3) && ptb_pu_set_has(&s, 5), "\"0-2,5\": PUs 0, 1, 2, 5");
	tap_ok(ptb_pu_set_add_list(&s, "1,5") == 0 && s.n == 4, "PUs already there count once");
	static const char *const bad[] = { "", "x", "1-", "3-1", "1,,2", "99999", "1 2", "-1" };
	int rejected = 0;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		rejected += ptb_pu_set_add_list(&s, bad[i]) < 0;
	tap_ok(rejected == (int)(sizeof bad / sizeof *bad) && s.n == 4,
	       "malformed lists are refused and leave the set as it was");
}

static void proc_stat(void)
{
	char path[4096];
	struct ptb_pu_set s = { 0 };
	struct ptb_load_sample a;
	snprintf(path, sizeof path, "%s/proc-stat.txt", getenv("TESTDATA") ?: "tests/data");
	ptb_pu_set_add_list(&s, "1,3");
#ifdef __linux__
	int rc = ptb_load_sample(&a, &s, path);
	double t = a.tick_s;
	tap_ok(rc == 0 && a.npus == 2 && a.run_queue == 7, "cpu1 and cpu3 read, 7 runnable");
	tap_near(a.idle_s, (14052 + 460 + 1000) * t, 1e-9, "idle and iowait of PUs 1 and 3");
	tap_near(a.steal_s, (13 + 500) * t, 1e-9, "their steal");
	ptb_pu_set_add_list(&s, "2");
	rc = ptb_load_sample(&a, &s, path);
	tap_ok(rc == 0 && a.npus == 2, "a PU the file lacks adds nothing");
	rc = ptb_load_sample(&a, &s, "/nonexistent/stat");
	tap_ok(rc < 0, "no file: unknown");
#else
	tap_ok(ptb_load_sample(&a, &s, path) < 0, "other systems: unknown");
#endif
}

int main(void)
{
	verdicts();
	pu_lists();
	proc_stat();
	tap_done();
	return tap_exit();
}
