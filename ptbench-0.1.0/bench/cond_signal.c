/* SPDX-License-Identifier: MIT */
/*
 * cond.signal: pthread_cond_signal on a condition nobody waits on, n times
 * in the main thread -- the paper's "Condition Signal", its LogP send
 * overhead o_s for condition variables (a signal without a waiter is
 * discarded, so the call's own cost is all there is to time).
 *
 * An idle thread exists during the point, as for mutex.lockunlock
 * threads=2: o_s is combined with the two-thread ping-pong and wait figures
 * in the LogP derivation, so it is measured in the same multi-threaded
 * process state (no single-threaded shortcut of the C library).  The
 * signal is sent without holding the mutex, which the paper's receive test
 * also relies on ("the signaling thread does not need to own the mutex").
 */
#include <pthread.h>

#include "bench/common.h"

struct signal_state {
	pthread_cond_t c;
};

static int signal_setup(struct ptb_point *p)
{
	static struct signal_state st;

	pthread_cond_init(&st.c, NULL);
	p->state = &st;
	return ptb_bench_idle_helper(p);
}

static void signal_run(struct ptb_point *p, uint64_t n)
{
	struct signal_state *st = p->state;
	for (uint64_t i = 0; i < n; i++)
		pthread_cond_signal(&st->c);
}

static void signal_teardown(struct ptb_point *p)
{
	struct signal_state *st = p->state;

	ptb_bench_idle_stop();
	pthread_cond_destroy(&st->c);
}

static const struct ptb_param signal_params[] = { { 0 } };

static const struct ptb_row_rule signal_rows[] = {
	/* match group label               footnote */
	{ "",   "",   "Condition Signal", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_cond_signal = {
	.name = "cond.signal",
	.summary = "signal a condition variable nobody waits on (LogP o_s)",
	.per = "signal",
	.ops_per_iter = 1,
	.params = signal_params,
	.setup = signal_setup,
	.run = signal_run,
	.teardown = signal_teardown,
	.rows = signal_rows,
	.logp = { "cond", PTB_LOGP_OS, false, NULL },
	.plausible_ns = { 0.1, 5e3 },   /* a call: 0.1 ns .. 5 us */
};
