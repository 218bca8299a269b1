/* SPDX-License-Identifier: MIT */
/*
 * cond.wait: the paper's receive overhead for condition variables -- the
 * main thread waits on a condition that a client on another PU signals
 * continually (without the mutex, which a signaller need not own).  On one
 * PU the test would measure the time slice, so only placements with two
 * PUs are offered.
 *
 * What one iteration is: one pthread_cond_wait call in the main thread
 * that returns after at least one signal was sent since the wait began.
 * The client counts its signals in `sent` before each signal; main notes
 * `sent`, waits, and waits again if `sent` has not moved (a spurious
 * wakeup).  A signal sent while main is not waiting is lost, as the paper
 * allows: the next one wakes it.  Because the signals keep coming, the
 * waiter almost never gets as far as sleeping in the kernel (an
 * independent loop counted under 0.1 % voluntary context switches per
 * wait here): the figure is the receive overhead the paper asks for --
 * entering the wait, releasing and reacquiring the mutex, consuming a
 * signal -- including the cache-line contention with the signaller that
 * the paper saw on its IBM machine, not the wake-up latency of a sleeping
 * thread (that is in the ping-pongs).  The note `signals_per_wait` shows
 * how hard the signaller was hammering the condition meanwhile.  The
 * client's loop has no cancellation point of its own, hence
 * ptb_client_testcancel.  The harness wakes the client before the clock
 * starts; 10 ms timings amortise the wait for its first signal.
 */
#include <pthread.h>
#include <stdalign.h>

#include "bench/common.h"

struct condwait {
	pthread_mutex_t m;
	pthread_cond_t c;
	alignas(64) _Atomic uint64_t sent;      /* client -> main */
	alignas(64) _Atomic uint64_t runs;      /* timings main has finished */
	uint64_t client_runs;                   /* timings the client began */
	uint64_t waits;
};

static struct condwait cw;

static void signaller(void *arg, uint64_t n)
{
	struct condwait *st = arg;
	uint64_t until = ++st->client_runs;

	for (uint64_t i = 1; atomic_load_explicit(&st->runs, memory_order_acquire) < until; i++) {
		atomic_fetch_add_explicit(&st->sent, 1, memory_order_relaxed);
		pthread_cond_signal(&st->c);
		ptb_client_testcancel(i);
	}
}

static const struct ptb_client_ops signaller_ops = { .body = signaller };

static int condwait_setup(struct ptb_point *p)
{
	cw = (struct condwait){ 0 };
	pthread_mutex_init(&cw.m, NULL);
	pthread_cond_init(&cw.c, NULL);
	p->state = &cw;
	return ptb_client_start(p, &signaller_ops, &cw);
}

static void condwait_run(struct ptb_point *p, uint64_t n)
{
	struct condwait *st = p->state;

	pthread_mutex_lock(&st->m);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t seen = atomic_load_explicit(&st->sent, memory_order_relaxed);
		do
			pthread_cond_wait(&st->c, &st->m);
		while (atomic_load_explicit(&st->sent, memory_order_relaxed) == seen);
	}
	pthread_mutex_unlock(&st->m);
	atomic_fetch_add_explicit(&st->runs, 1, memory_order_release);
}

static void condwait_check(struct ptb_point *p, uint64_t n)
{
	struct condwait *st = p->state;
	st->waits += n;
	ptb_point_note(p, "signals_per_wait", (double)st->sent / (double)st->waits);
}

static void condwait_teardown(struct ptb_point *p)
{
	struct condwait *st = p->state;
	pthread_cond_destroy(&st->c);
	pthread_mutex_destroy(&st->m);
}

static const struct ptb_param condwait_params[] = {
	{ "placement", PTB_PLACEMENTS_TWO_PU, PTB_PLACEMENTS_TWO_PU, 0, 0,
	  "where the waiting main thread and the signalling client run (two PUs)" },
	{ 0 }
};

static const struct ptb_row_rule condwait_rows[] = {
	/* match          group             label footnote */
	{ "placement=*", "Condition Wait", "%s", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_cond_wait = {
	.name = "cond.wait",
	.summary = "wait on a condition another PU signals continually (LogP o_r)",
	.per = "wait",
	.ops_per_iter = 1,
	.params = condwait_params,
	.setup = condwait_setup,
	.run = condwait_run,
	.check = condwait_check,
	.teardown = condwait_teardown,
	.target_s = 0.01,
	.rows = condwait_rows,
	.logp = { "cond", PTB_LOGP_OR, true, NULL },
	.plausible_ns = { 10, 1e8 },   /* a wakeup: 10 ns .. many slices on a loaded machine */
};
