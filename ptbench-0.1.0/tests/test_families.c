/* SPDX-License-Identifier: MIT */
/*
 * The mechanisms of the extended suite's benchmarks, driven as the harness
 * drives them (place, setup, release/run/wait/check per timing, cancel the
 * clients, teardown) on the live machine, with a few short timings and no
 * clock: a barrier episode holds every arrival, a broadcast wakes every
 * waiter, a cancelled thread's join returns PTHREAD_CANCELED, the
 * synthesized semaphore and rwlock readers and writer run to the end.
 * A point the machine cannot offer (one PU under taskset) must be na with
 * a reason, and its check is skipped.  An alarm turns a hang into a failure.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ptbench.h"
#include "engine/place.h"
#include "machine/system.h"
#include "tap.h"

static struct ptb_system sys;

/* The point `bench VAR=VALUE ...` measured for `timings` timings of n. */
static void drive(struct ptb_point *p, const char *bench, const char *vars, uint64_t n,
		  int timings)
{
	const struct ptb_bench *b = ptb_bench_find(bench);
	static char buf[PTB_MAX_PARAMS][64];
	memset(p, 0, sizeof *p);
	p->bench = b;
	p->sys = &sys;
	for (int i = 0; b && b->params && b->params[i].name; i++) {
		const char *at = strstr(vars, b->params[i].name), *v = b->params[i].defaults;
		size_t len = strcspn(v, ",");
		if (at && at[strlen(b->params[i].name)] == '=') {
			v = at + strlen(b->params[i].name) + 1;
			len = strcspn(v, " ");
		}
		snprintf(buf[i], sizeof buf[i], "%.*s", (int)len, v);
		p->value[i] = buf[i];
	}
	if (ptb_point_place(p) < 0 || b->setup(p) < 0) {
		ptb_clients_cancel(p);
		return;
	}
	for (int t = 0; t < timings; t++) {
		ptb_clients_release(p, n);
		b->run(p, n);
		ptb_clients_wait(p);
		if (b->check)
			b->check(p, n);
	}
	ptb_clients_cancel(p);
	b->teardown(p);
}

static double note(const struct ptb_point *p, const char *key)
{
	for (int i = 0; i < p->nnotes; i++)
		if (!strcmp(p->note_key[i], key))
			return p->note_val[i];
	return -1;
}

/* An ok point whose note is `want`, or an na one with a reason. */
static void expect(const char *bench, const char *vars, const char *key, double want)
{
	struct ptb_point p;
	drive(&p, bench, vars, 100, 2);
	if (p.verdict == PTB_NA) {
		tap_ok(p.reason[0] != '\0', "%s %s: na here, with a reason (%s)", bench, vars, p.reason);
		return;
	}
	if (!tap_ok(p.verdict == PTB_OK && note(&p, key) == want, "%s %s: %s = %g",
		    bench, vars, key, want))
		printf("#   %s: %s; %s = %g\n", ptb_status_name(p.verdict), p.reason, key, note(&p, key));
}

/* ok, or na with a reason. */
static void expect_ok(const char *bench, const char *vars)
{
	struct ptb_point p;
	drive(&p, bench, vars, 100, 2);
	if (!tap_ok(p.verdict == PTB_OK || (p.verdict == PTB_NA && p.reason[0]), "%s %s: %s%s%s",
		    bench, vars, ptb_status_name(p.verdict), p.reason[0] ? ": " : "", p.reason))
		printf("#   %s\n", p.reason);
}

/* na with the reason `want` exactly when the machine has fewer than `need` PUs. */
static void expect_na_below(const char *bench, const char *vars, int need, const char *want)
{
	struct ptb_point p;
	drive(&p, bench, vars, 50, 1);
	if (sys.counts.pus >= need)
		tap_ok(p.verdict == PTB_OK, "%s %s: runs on %d PUs", bench, vars, sys.counts.pus);
	else if (!tap_ok(p.verdict == PTB_NA && strstr(p.reason, want), "%s %s: na (%s)", bench,
			 vars, want))
		printf("#   %s: %s\n", ptb_status_name(p.verdict), p.reason);
}

int main(void)
{
	char err[256];
	alarm(120);
	if (ptb_system_init(&sys, err, sizeof err) < 0)
		tap_skip_all(err);
	expect("barrier", "threads=2 order=compact impl=posix", "arrivals_per_episode", 2);
	expect("barrier", "threads=2 order=spread impl=synth", "arrivals_per_episode", 2);
	expect("cond.broadcast", "waiters=3 layout=same_pu", "woken_per_broadcast", 3);
	expect("cond.broadcast", "waiters=1 layout=one_per_pu", "woken_per_broadcast", 1);
	expect("cancel", "type=deferred placement=same_pu", "canceled_per_join", 1);
	expect("cancel", "type=deferred placement=cross_core", "canceled_per_join", 1);
	expect("cancel", "type=async placement=cross_core", "canceled_per_join", 1);
	expect_ok("rwlock.writer", "readers=1");
	expect_ok("rwlock.readers", "threads=2 order=spread");
	expect_ok("sem.pingpong", "placement=same_pu impl=synth");
	expect_ok("sem.pingpong", "placement=cross_core impl=posix");
	expect_na_below("barrier", "threads=3 order=compact impl=posix", 3,
			"needs 3 PUs, one per thread; this process may use ");
	expect_na_below("cond.broadcast", "waiters=2 layout=one_per_pu", 3,
			"needs 3 PUs, one per thread; this process may use ");
	expect_na_below("cancel", "type=async placement=same_pu", 1 << 30,
			"type=async on one PU");
	/* adaptive: runs where the C library has the type, else na saying so */
	expect_na_below("mutex.lockunlock", "threads=2 type=adaptive",
			sys.sys.mutex_adaptive >= 0 ? 1 : 1 << 30, "no adaptive mutex type");
	ptb_system_fini(&sys);
	tap_done();
	return tap_exit();
}
