/* SPDX-License-Identifier: MIT */
/*
 * The contention benchmarks' mechanism on the live machine, driven as the
 * harness drives a point (release the clients, run, wait, check): with 1
 * and 2 threads (2 only where two PUs are allowed) and both orders, the
 * per-thread counts add up to the acquisitions every timing asked for,
 * the fairness figures are within their ranges, and the threads read back
 * on distinct PUs; more threads than allowed PUs is na with the reason.
 * No figure is timed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void drive(const struct ptb_system *sys, const char *bench, const char *threads,
		  const char *order)
{
	const struct ptb_bench *b = ptb_bench_find(bench);
	struct ptb_point p = { .bench = b, .sys = sys, .pu_main = -1, .pu_client = -1,
			       .value = { threads, order } };
	uint64_t asked = 0;
	if (!tap_ok(b && b->setup(&p) == 0, "%s threads=%s order=%s: setup (%s)", bench, threads,
		    order, p.reason))
		return;
	for (uint64_t n = 1000; n <= 64000; n *= 4) {
		ptb_clients_release(&p, n);
		b->run(&p, n);
		ptb_clients_wait(&p);
		b->check(&p, n);
		asked += n;
	}
	ptb_clients_cancel(&p);
	b->teardown(&p);
	double jain = note(&p, "jain"), t = (double)strtol(threads, NULL, 10);
	tap_ok(p.verdict == PTB_OK && note(&p, "acquisitions") == (double)asked,
	       "%s threads=%s order=%s: the threads' counts add up to the %llu asked for (%s)",
	       bench, threads, order, (unsigned long long)asked, p.reason);
	tap_ok(jain >= 1 / t - 1e-9 && jain <= 1 + 1e-9 && note(&p, "min_share") <= 1 / t + 1e-9 &&
	       note(&p, "max_share") >= 1 / t - 1e-9 && note(&p, "handovers_per_acquisition") > 0 &&
	       note(&p, "handovers_per_acquisition") <= 1,
	       "%s threads=%s: jain %.3f in [1/T, 1], shares around 1/T, handovers in (0, 1]",
	       bench, threads, jain);
	tap_ok(p.nclient_bindings == (int)t - 1 &&
	       (t < 2 || strcmp(p.binding_main, p.binding_client[0])),
	       "%s threads=%s: main on %s, %d clients on other PUs", bench, threads,
	       p.binding_main, p.nclient_bindings);
}

int main(void)
{
	static const char *const benches[] = { "mutex.contention", "spin.contention",
						"rwlock.contention" };
	struct ptb_system sys;
	char err[256], too_many[16];
	if (ptb_system_init(&sys, err, sizeof err) < 0)
		tap_skip_all(err);
	for (int i = 0; i < 3; i++)
		for (int o = 0; o < PTB_ORDER_COUNT; o++) {
			drive(&sys, benches[i], "1", ptb_order_name(o));
			if (sys.counts.pus >= 2)
				drive(&sys, benches[i], "2", ptb_order_name(o));
		}
	const struct ptb_bench *b = ptb_bench_find("mutex.contention");
	snprintf(too_many, sizeof too_many, "%d", sys.counts.pus + 1);
	struct ptb_point p = { .bench = b, .sys = &sys, .pu_main = -1, .pu_client = -1,
			       .value = { too_many, "spread" } };
	tap_ok(b->setup(&p) == -1 && p.verdict == PTB_NA && strstr(p.reason, "needs") &&
	       p.nclients == 0, "threads=%s: na (%s), no client left", too_many, p.reason);
	ptb_system_fini(&sys);
	tap_done();
	return tap_exit();
}
