/* SPDX-License-Identifier: MIT */
/*
 * wake.placement's mechanism: the stamps by which a worker finds that
 * another began on its PU (exact, on made-up PU lists), then the
 * benchmark driven as the harness drives a point, on the live machine
 * where two PUs are allowed.  Workers bound one to a PU must never count
 * as stacked (an exact 0: a wrong PU read back would count); the main
 * thread and two workers bound to the group read their binding back as
 * the group; every episode takes at least its serial part and its work
 * of CPU time by the wall clock; more workers than PUs is na.  No figure is judged against
 * a speed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/common.h"
#include "machine/system.h"
#include "ptbench.h"
#include "tap.h"

static double note(const struct ptb_point *p, const char *key)
{
	for (int i = 0; i < p->nnotes; i++)
		if (!strcmp(p->note_key[i], key))
			return p->note_val[i];
	return -1;
}

/* Episodes of made-up PUs through the stamps: how many threads of each
 * found their PU taken; stamps of an earlier episode do not count. */
static void stamps(void)
{
	static const struct { int pus[6], n, want; } ep[] = {
		{ { 0, 1, 2, 3 }, 4, 0 }, { { 0, 0, 1, 1 }, 4, 2 }, { { 3, 3, 3 }, 3, 2 },
		{ { 0, 1, 2, 3 }, 4, 0 }, { { 2, 7, 2, 9, 7, 2 }, 6, 3 }, { { 5 }, 1, 0 },
	};
	static struct ptb_pu_stamp st[10];
	for (size_t e = 0; e < sizeof ep / sizeof ep[0]; e++) {
		int taken = 0;
		for (int i = 0; i < ep[e].n; i++)
			taken += ptb_bench_pu_taken(st, ep[e].pus[i], e + 1);
		tap_ok(taken == ep[e].want, "episode %zu: %d threads found their PU taken (want %d)",
		       e + 1, taken, ep[e].want);
	}
}

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Three timings of n episodes of 100 us of serial work and 200 us of the
 * workers'; the wall time of each. */
static void drive(const struct ptb_system *sys, const char *bind, const char *policy)
{
	const struct ptb_bench *b = ptb_bench_find("wake.placement");
	struct ptb_point p = { .bench = b, .sys = sys, .pu_main = -1, .pu_client = -1,
			       .value = { "2", bind, policy, "200", "100" } };
	int rc = b->setup(&p);
	if (rc < 0 && p.verdict == PTB_NA && !strcmp(policy, "fifo")) {
		tap_ok(strstr(p.reason, "SCHED_FIFO") && p.nclients == 0,
		       "bind=%s policy=fifo: na (%s), no client left", bind, p.reason);
		return;
	}
	if (!tap_ok(rc == 0, "bind=%s policy=%s: setup (%s)", bind, policy, p.reason)) {
		ptb_clients_cancel(&p);          /* any it started */
		return;
	}
	double least = 1e30;
	for (uint64_t n = 20; n <= 80; n *= 2) {
		double t0 = now_ns();
		ptb_clients_release(&p, n);
		b->run(&p, n);
		ptb_clients_wait(&p);
		double per = (now_ns() - t0) / (double)n;
		if (per < least)
			least = per;
		b->check(&p, n);
	}
	ptb_clients_cancel(&p);
	b->teardown(&p);
	double share = note(&p, "stacked_share");
	tap_ok(p.verdict == PTB_OK && note(&p, "work_ns") == 200e3 && note(&p, "serial_ns") == 100e3 &&
	       least >= 300e3,
	       "bind=%s policy=%s: each episode took its 100 + 200 us of work or more (least %.0f ns; %s)",
	       bind, policy, least, p.reason);
	if (share < 0 && note(&p, "episodes_pu_unknown") > 0)
		tap_ok(1, "bind=%s policy=%s: # SKIP the system did not say where a thread ran",
		       bind, policy);
	else if (!strcmp(bind, "each"))
		tap_ok(share == 0 && p.nclient_bindings == 2 &&
		       strcmp(p.binding_client[0], p.binding_client[1]) &&
		       !strcmp(p.binding_main, p.binding_client[0]),
		       "bind=each policy=%s: no episode stacked (share %g), workers on %s and %s, "
		       "main on %s", policy, share, p.binding_client[0], p.binding_client[1],
		       p.binding_main);
	else
		tap_ok(share >= 0 && share <= 1 && p.nclient_bindings == 2 &&
		       !strcmp(p.binding_main, p.binding_client[0]) &&
		       !strcmp(p.binding_main, p.binding_client[1]) && strpbrk(p.binding_main, "-,"),
		       "bind=set policy=%s: all three bound to the group %s, stacked share %g",
		       policy, p.binding_main, share);
	printf("# bind=%s policy=%s: stacked share %g, least %.0f ns per episode\n", bind, policy,
	       share, least);
}

int main(void)
{
	struct ptb_system sys;
	char err[256], too_many[16];
	stamps();
	if (ptb_system_init(&sys, err, sizeof err) < 0) {
		printf("# the live machine's part skipped: %s\n", err);
		tap_done();
		return tap_exit();
	}
	if (sys.counts.pus >= 2) {
		drive(&sys, "each", "other");
		drive(&sys, "set", "other");
		drive(&sys, "set", "fifo");
	} else {
		printf("# one allowed PU: no two threads to release\n");
	}
	const struct ptb_bench *b = ptb_bench_find("wake.placement");
	snprintf(too_many, sizeof too_many, "%d", sys.counts.pus + 1);
	struct ptb_point p = { .bench = b, .sys = &sys, .pu_main = -1, .pu_client = -1,
			       .value = { too_many, "set", "other", "200", "100" } };
	tap_ok(b->setup(&p) == -1 && p.verdict == PTB_NA && strstr(p.reason, "needs") &&
	       p.nclients == 0, "threads=%s: na (%s), no client left", too_many, p.reason);
	ptb_system_fini(&sys);
	tap_done();
	return tap_exit();
}
