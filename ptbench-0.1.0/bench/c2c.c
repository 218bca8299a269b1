/* SPDX-License-Identifier: MIT */
/*
 * c2c.pair: the core-to-core latency of one ordered pair of PUs.  The main
 * thread (the sender) is bound to one PU and a client (the receiver) to the
 * other; they bounce one cache line: the sender waits until the line holds
 * 2k and swaps in 2k+1 with compare-and-swap, the receiver waits for 2k+1
 * and swaps in 2k+2.  Each wait reads the line until the value is there,
 * so the swap that follows always succeeds and every transfer is the line
 * moving once from one PU's cache to the other's.  One iteration is a
 * round trip; the figure is half of it, the one-way latency.
 *
 * The pairs are the harness's plan for this machine (ptb_pu_pair_plan:
 * every ordered pair up to 23 PUs, a stated sample beyond); the variable
 * `pair` indexes it, and a default run measures the whole plan.  Each point
 * notes its `sender` and `receiver` (OS PU numbers) and their placement
 * `class`; after the run they become the derived `c2c` record, the matrix
 * with a summary per class (the descriptor's `matrix`, record/matrix.c).
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/common.h"

#define CACHE_LINE 64

struct bounce {
	_Alignas(CACHE_LINE) _Atomic uint64_t line;
	_Alignas(CACHE_LINE) uint64_t sent;          /* the sender's round trips */
	_Alignas(CACHE_LINE) uint64_t answered;      /* the receiver's */
};

static struct bounce bounce;

/* Wait until the line holds `want`, then make it want + 1.  The wait is a
 * cancellation point every 4096 reads, for the receiver's sake. */
static void pass(_Atomic uint64_t *line, uint64_t want)
{
	uint64_t v = want;
	for (uint64_t i = 1; atomic_load_explicit(line, memory_order_acquire) != want; i++)
		ptb_client_testcancel(i);
	atomic_compare_exchange_strong_explicit(line, &v, want + 1, memory_order_acq_rel,
						memory_order_relaxed);
}

static void receiver_body(void *arg, uint64_t n)
{
	struct bounce *b = arg;
	for (uint64_t i = 0; i < n; i++, b->answered++)
		pass(&b->line, 2 * b->answered + 1);
}

static const struct ptb_client_ops receiver_ops = { .body = receiver_body };

static void c2c_run(struct ptb_point *p, uint64_t n)
{
	struct bounce *b = p->state;
	for (uint64_t i = 0; i < n; i++, b->sent++)
		pass(&b->line, 2 * b->sent);
}

static const char *c2c_unsupported(const struct ptb_system *sys)
{
	static char why[192];
	if (sys->counts.pus >= 2)
		return NULL;
	snprintf(why, sizeof why, "needs 2 PUs; this process may use %d (PUs %s)",
		 sys->counts.pus, sys->counts.allowed);
	return why;
}

static int c2c_setup(struct ptb_point *p)
{
	struct ptb_pu_pair *plan;
	long k = ptb_point_long(p, "pair");
	int n = ptb_pu_pair_plan(p->sys, &plan);
	if (n < 0) {
		ptb_point_error(p, "planning the pairs of PUs: out of memory");
		return -1;
	}
	if (k >= n) {
		ptb_point_na(p, "the plan of this machine has %d pairs (0..%d)", n, n - 1);
		free(plan);
		return -1;
	}
	struct ptb_pu_pair pair = plan[k];
	free(plan);
	memset(&bounce, 0, sizeof bounce);
	p->state = &bounce;
	ptb_point_note(p, "sender", pair.from);
	ptb_point_note(p, "receiver", pair.to);
	ptb_point_note_text(p, "class", pair.cls_name);
	if (ptb_point_bind_self(p, pair.from, p->binding_main, sizeof p->binding_main) < 0)
		return -1;
	return ptb_client_start_on(p, pair.to, &receiver_ops, &bounce);
}

static void c2c_teardown(struct ptb_point *p)
{
	char buf[64];
	ptb_point_bind_self(p, -1, buf, sizeof buf);
}

/* A default run measures every pair of the plan. */
static int c2c_defaults(const struct ptb_system *sys, const char *var, char *buf, size_t len)
{
	struct ptb_pu_pair *plan;
	int n = strcmp(var, "pair") ? -1 : ptb_pu_pair_plan(sys, &plan);
	size_t used = 0;
	if (n <= 0) {
		if (n == 0)
			free(plan);
		return -1;
	}
	free(plan);
	for (int i = 0; i < n; i++) {
		int w = snprintf(buf + used, len - used, "%s%d", i ? "," : "", i);
		if (w < 0 || (size_t)w >= len - used)
			return -1;
		used += (size_t)w;
	}
	return 0;
}

static const struct ptb_param c2c_params[] = {
	{ "pair", NULL, "0", 0, PTB_PAIR_PLAN_ALL - 1,
	  "an ordered pair of PUs of this machine's plan (default: every pair of it)" },
	{ 0 }
};

const struct ptb_bench ptb_bench_c2c_pair = {
	.name = "c2c.pair",
	.summary = "core-to-core latency: one cache line bounced between two PUs by CAS",
	.per = "one-way transfer",
	.ops_per_iter = 2,
	.params = c2c_params,
	.defaults_here = c2c_defaults,
	.unsupported = c2c_unsupported,
	.setup = c2c_setup,
	.run = c2c_run,
	.teardown = c2c_teardown,
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.matrix = "c2c",
	/* a line between caches: 5 ns .. many time slices on a loaded machine */
	.plausible_ns = { 5, 1e8 },
};
