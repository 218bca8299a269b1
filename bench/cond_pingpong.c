/* SPDX-License-Identifier: MIT */
/*
 * cond.pingpong: the paper's condition-variable ping-pong.  Two threads
 * share one mutex, one condition variable and a predicate `turn`; each
 * alternates between waiting on the condition and signalling it:
 *
 *   main:   turn = client; signal; wait until turn == main
 *   client: wait until turn == client; turn = main; signal
 *
 * One iteration is one ping-pong (main -> client -> main, a round trip).
 * The predicate makes every wait a wait for the other thread's turn:
 * spurious wakeups wait again, and a signal sent while the other thread
 * is not yet waiting is not needed, because it finds turn already set.
 *
 * signal=locked signals while holding the mutex (each thread keeps the
 * mutex across iterations; it is released only inside pthread_cond_wait),
 * so on one PU the woken thread usually blocks again at once on the mutex;
 * signal=unlocked unlocks first and signals after, which costs an extra
 * unlock/lock per side and turn but lets the woken thread through.
 * Client bodies wait on a condition, a cancellation point, so they turn
 * cancellation off while they run: the harness cancels between timings.
 * As in mutex.pingpong, timings are 10 ms long.
 */
#include <pthread.h>

#include "bench/common.h"

enum { MAIN_TURN, CLIENT_TURN };

struct condpp {
	pthread_mutex_t m;
	pthread_cond_t c;
	int turn;
	bool locked;
};

static struct condpp cp;

static void main_locked(struct condpp *st, uint64_t n)
{
	pthread_mutex_lock(&st->m);
	for (uint64_t i = 0; i < n; i++) {
		st->turn = CLIENT_TURN;
		pthread_cond_signal(&st->c);
		while (st->turn != MAIN_TURN)
			pthread_cond_wait(&st->c, &st->m);
	}
	pthread_mutex_unlock(&st->m);
}

static void client_locked(struct condpp *st, uint64_t n)
{
	pthread_mutex_lock(&st->m);
	for (uint64_t i = 0; i < n; i++) {
		while (st->turn != CLIENT_TURN)
			pthread_cond_wait(&st->c, &st->m);
		st->turn = MAIN_TURN;
		pthread_cond_signal(&st->c);
	}
	pthread_mutex_unlock(&st->m);
}

static void main_unlocked(struct condpp *st, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		pthread_mutex_lock(&st->m);
		st->turn = CLIENT_TURN;
		pthread_mutex_unlock(&st->m);
		pthread_cond_signal(&st->c);
		pthread_mutex_lock(&st->m);
		while (st->turn != MAIN_TURN)
			pthread_cond_wait(&st->c, &st->m);
		pthread_mutex_unlock(&st->m);
	}
}

static void client_unlocked(struct condpp *st, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		pthread_mutex_lock(&st->m);
		while (st->turn != CLIENT_TURN)
			pthread_cond_wait(&st->c, &st->m);
		st->turn = MAIN_TURN;
		pthread_mutex_unlock(&st->m);
		pthread_cond_signal(&st->c);
	}
}

static void client_body(void *arg, uint64_t n)
{
	struct condpp *st = arg;
	int old;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	(st->locked ? client_locked : client_unlocked)(st, n);
	pthread_setcancelstate(old, NULL);
}

static const struct ptb_client_ops client_ops = { .body = client_body };

static int condpp_setup(struct ptb_point *p)
{
	pthread_mutex_init(&cp.m, NULL);
	pthread_cond_init(&cp.c, NULL);
	cp.turn = MAIN_TURN;
	cp.locked = ptb_point_str(p, "signal")[0] == 'l';
	p->state = &cp;
	return ptb_client_start(p, &client_ops, &cp);
}

static void condpp_run(struct ptb_point *p, uint64_t n)
{
	struct condpp *st = p->state;
	(st->locked ? main_locked : main_unlocked)(st, n);
}

static void condpp_teardown(struct ptb_point *p)
{
	struct condpp *st = p->state;
	pthread_cond_destroy(&st->c);
	pthread_mutex_destroy(&st->m);
}

static const struct ptb_param condpp_params[] = {
	{ "placement", PTB_PLACEMENTS_ALL, PTB_PLACEMENTS_ALL, 0, 0,
	  "where the main thread and the client run", 0 },
	{ "signal", "locked,unlocked", "locked", 0, 0,
	  "signal while holding the mutex, or after unlocking it", 0 },
	{ 0 }
};

static const struct ptb_row_rule condpp_rows[] = {
	/* match                          group                  label                      footnote */
	{ "placement=* signal=locked?",  "Condition Ping-pong", "%s",                      NULL },
	{ "placement=* signal=unlocked", "Condition Ping-pong", "%s, signal after unlock", "the signal is sent after unlocking the mutex; the rows above signal holding it" },
	{ NULL }
};

const struct ptb_bench ptb_bench_cond_pingpong = {
	.name = "cond.pingpong",
	.summary = "condition-variable ping-pong between two threads",
	.per = "ping-pong",
	.ops_per_iter = 1,
	.params = condpp_params,
	.setup = condpp_setup,
	.run = condpp_run,
	.teardown = condpp_teardown,
	.target_s = 0.01,
	.rows = condpp_rows,
	.logp = { "cond", PTB_LOGP_RTT, true, "condition variable" },
	/* a wake-up of a waiting thread, across cores where the machine has them */
	.machine = { PTB_MACHINE_WAKE, "placement=cross_core signal=locked;"
		     "placement=unbound signal=locked", 2 },
	.plausible_ns = { 50, 1e8 },   /* two wakeups: 50 ns .. many slices on a loaded machine */
};
