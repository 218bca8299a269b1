/* SPDX-License-Identifier: MIT */
/*
 * cond.gap: the LogP gap g of condition-variable communication, measured
 * like mutex.gap after Culler et al.: a long burst of messages, time per
 * message.  Not a row of the paper's Table 1; harness/logp.c uses it.
 *
 * A bare signal is not a message -- one sent while nobody waits is lost --
 * so a message here is what a program sends through a condition variable:
 * under the mutex, bump a counter `posted` and signal.  The client waits
 * for the counter to move and takes everything posted so far (a receiver
 * that falls behind takes several messages per wakeup, as a network
 * interface takes several packets).  One iteration is one message; the
 * timing ends when the client has seen the last one, so it covers the
 * burst's bottleneck -- the sender's loop, the mutex shared with the
 * receiver, or the receiver -- plus one latency, amortised by the burst.
 * The note `messages_per_wakeup` says how much the receiver batched.
 * The receiver sleeps when a timing starts, so timings are 10 ms long to
 * amortise its wakeup; and a burst is only a pipeline when sender and
 * receiver run at the same time, so only two-PU placements are offered
 * (main also spins, yielding, for the last delivery).
 * The client waits on a condition (a cancellation point) and so turns
 * cancellation off while its body runs: the harness cancels between
 * timings.
 */
#include <pthread.h>
#include <stdalign.h>

#include "bench/common.h"

struct cgap {
	pthread_mutex_t m;
	pthread_cond_t c;
	uint64_t posted;                    /* under m */
	alignas(64) _Atomic uint64_t received;
	uint64_t main_total, client_total;  /* messages of all timings, per side */
	uint64_t wakeups;
};

static struct cgap cg;

static void receiver(void *arg, uint64_t n)
{
	struct cgap *st = arg;
	uint64_t until = st->client_total += n, seen = atomic_load(&st->received);
	int old;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	pthread_mutex_lock(&st->m);
	while (seen < until) {
		while (st->posted == seen)
			pthread_cond_wait(&st->c, &st->m);
		seen = st->posted;
		st->wakeups++;
		atomic_store_explicit(&st->received, seen, memory_order_release);
	}
	pthread_mutex_unlock(&st->m);
	pthread_setcancelstate(old, NULL);
}

static const struct ptb_client_ops receiver_ops = { .body = receiver };

static int cgap_setup(struct ptb_point *p)
{
	cg = (struct cgap){ 0 };
	pthread_mutex_init(&cg.m, NULL);
	pthread_cond_init(&cg.c, NULL);
	p->state = &cg;
	return ptb_client_start(p, &receiver_ops, &cg);
}

static void cgap_run(struct ptb_point *p, uint64_t n)
{
	struct cgap *st = p->state;

	for (uint64_t i = 0; i < n; i++) {
		pthread_mutex_lock(&st->m);
		st->posted++;
		pthread_cond_signal(&st->c);
		pthread_mutex_unlock(&st->m);
	}
	ptb_bench_await(&st->received, st->main_total += n);
}

static void cgap_check(struct ptb_point *p, uint64_t n)
{
	struct cgap *st = p->state;
	ptb_point_note(p, "messages_per_wakeup", (double)st->posted / (double)st->wakeups);
}

static void cgap_teardown(struct ptb_point *p)
{
	struct cgap *st = p->state;
	pthread_cond_destroy(&st->c);
	pthread_mutex_destroy(&st->m);
}

static const struct ptb_param cgap_params[] = {
	{ "placement", PTB_PLACEMENTS_TWO_PU, PTB_PLACEMENTS_TWO_PU, 0, 0,
	  "where the sending main thread and the receiving client run (two PUs)" },
	{ 0 }
};

static const struct ptb_row_rule cgap_rows[] = {
	/* match          group            label footnote */
	{ "placement=*", "Condition gap", "%s", "not in the paper: a long burst of messages, the steady-state time per message (Culler et al.), the LogP gap g" },
	{ NULL }
};

const struct ptb_bench ptb_bench_cond_gap = {
	.name = "cond.gap",
	.summary = "a burst of condition-variable messages to another thread (LogP g)",
	.per = "message",
	.ops_per_iter = 1,
	.params = cgap_params,
	.setup = cgap_setup,
	.run = cgap_run,
	.check = cgap_check,
	.teardown = cgap_teardown,
	.target_s = 0.01,
	.section = PTB_SECTION_EXTRA,
	.rows = cgap_rows,
	.logp = { "cond", PTB_LOGP_G, true, NULL },
	.plausible_ns = { 1, 1e8 },   /* a message may wait a slice when both PUs are busy */
};
