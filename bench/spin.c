/* SPDX-License-Identifier: MIT */
/*
 * spin.lockunlock and spin.pingpong: POSIX spin locks, uncontended and
 * handed between two threads.
 *
 * spin.lockunlock locks and unlocks one spin lock in the main thread, n
 * times, with an idle thread alive so that the process is multi-threaded
 * (as for mutex.lockunlock threads=2).
 *
 * spin.pingpong is the paper's four-mutex ping-pong (bench/mutex_pingpong.c
 * describes the sequence) with spin locks: each thread unlocks one lock
 * and then spins until it gets the next, which the other thread holds.
 * One iteration holds four round trips; the figure is one.  On two PUs a
 * handover is the time a cache line takes to move and back; on same_pu the
 * waiter spins until the scheduler preempts it, so a handover costs about
 * a time slice -- what spinning costs while the holder is descheduled.
 */
#include <pthread.h>

#include "bench/common.h"

struct spin_state {
	pthread_spinlock_t s[4];
};

static struct spin_state st;

static void spins_init(void)
{
	for (int i = 0; i < 4; i++)
		pthread_spin_init(&st.s[i], PTHREAD_PROCESS_PRIVATE);
}

static void spins_destroy(void)
{
	for (int i = 0; i < 4; i++)
		pthread_spin_destroy(&st.s[i]);
}

/* --- spin.lockunlock ----------------------------------------------------- */

static int lockunlock_setup(struct ptb_point *p)
{
	spins_init();
	p->state = &st;
	if (ptb_bench_idle_helper(p) == 0)
		return 0;
	spins_destroy();
	return -1;
}

static void lockunlock_run(struct ptb_point *p, uint64_t n)
{
	pthread_spinlock_t *s = &((struct spin_state *)p->state)->s[0];
	for (uint64_t i = 0; i < n; i++) {
		pthread_spin_lock(s);
		pthread_spin_unlock(s);
	}
}

static void spin_teardown(struct ptb_point *p)
{
	(void)p;
	ptb_bench_idle_stop();
	spins_destroy();
}

/* --- spin.pingpong ------------------------------------------------------- */

static void main_column(pthread_spinlock_t *s, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		pthread_spin_unlock(&s[0]);
		pthread_spin_lock(&s[1]);
		pthread_spin_unlock(&s[2]);
		pthread_spin_lock(&s[3]);
		pthread_spin_unlock(&s[1]);
		pthread_spin_lock(&s[0]);
		pthread_spin_unlock(&s[3]);
		pthread_spin_lock(&s[2]);
	}
}

static void client_column(void *arg, uint64_t n)
{
	pthread_spinlock_t *s = ((struct spin_state *)arg)->s;
	for (uint64_t i = 0; i < n; i++) {
		pthread_spin_lock(&s[0]);
		pthread_spin_unlock(&s[1]);
		pthread_spin_lock(&s[2]);
		pthread_spin_unlock(&s[3]);
		pthread_spin_lock(&s[1]);
		pthread_spin_unlock(&s[0]);
		pthread_spin_lock(&s[3]);
		pthread_spin_unlock(&s[2]);
	}
}

static void client_init(void *arg)
{
	struct spin_state *ss = arg;
	pthread_spin_lock(&ss->s[1]);
	pthread_spin_lock(&ss->s[3]);
}

/* A client cancelled between timings holds its odd locks: give them back. */
static void client_fini(void *arg)
{
	struct spin_state *ss = arg;
	pthread_spin_unlock(&ss->s[1]);
	pthread_spin_unlock(&ss->s[3]);
}

static const struct ptb_client_ops client_ops = {
	.init = client_init, .body = client_column, .fini = client_fini,
};

static int pingpong_setup(struct ptb_point *p)
{
	spins_init();
	pthread_spin_lock(&st.s[0]);
	pthread_spin_lock(&st.s[2]);
	p->state = &st;
	if (ptb_client_start(p, &client_ops, &st) == 0)
		return 0;
	pthread_spin_unlock(&st.s[0]);
	pthread_spin_unlock(&st.s[2]);
	spins_destroy();
	return -1;
}

static void pingpong_run(struct ptb_point *p, uint64_t n)
{
	main_column(((struct spin_state *)p->state)->s, n);
}

static void pingpong_teardown(struct ptb_point *p)
{
	(void)p;
	pthread_spin_unlock(&st.s[0]);
	pthread_spin_unlock(&st.s[2]);
	spins_destroy();
}

static const struct ptb_param no_params[] = { { 0 } };

static const struct ptb_param pingpong_params[] = {
	{ "placement", PTB_PLACEMENTS_ALL, PTB_PLACEMENTS_ALL, 0, 0,
	  "where the main thread and the client run", 0 },
	{ 0 }
};

static const struct ptb_row_rule lockunlock_rows[] = {
	/* match group         label                    footnote */
	{ "",   "Spin lock",  "Lock and unlock",       NULL },
	{ NULL }
};

static const struct ptb_row_rule pingpong_rows[] = {
	/* match          group                 label footnote */
	{ "placement=*", "Spin lock Ping-pong", "%s", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_spin_lockunlock = {
	.name = "spin.lockunlock",
	.summary = "lock and unlock one uncontended pthread spin lock",
	.per = "lock+unlock",
	.ops_per_iter = 1,
	.params = no_params,
	.setup = lockunlock_setup,
	.run = lockunlock_run,
	.teardown = spin_teardown,
	.plausible_ns = { 1, 5e3 },   /* two calls: 1 ns .. 5 us */
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = lockunlock_rows,
};

const struct ptb_bench ptb_bench_spin_pingpong = {
	.name = "spin.pingpong",
	.summary = "four-spin-lock ping-pong between two threads (mutex.pingpong with spin locks)",
	.per = "ping-pong",
	.ops_per_iter = 4,
	.params = pingpong_params,
	.setup = pingpong_setup,
	.run = pingpong_run,
	.teardown = pingpong_teardown,
	.target_s = 0.01,
	/* two PUs: 20 ns a handover; one PU: a time slice each, up to 100 ms */
	.plausible_ns = { 20, 1e8 },
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = pingpong_rows,
	.time_sliced = "placement=same_pu",
	/* a round trip holds two hand-offs; across cores, as a spinner on
	 * another CPU takes it (on one PU a hand-off is a time slice) */
	.machine = { PTB_MACHINE_SPIN_HANDOFF, "placement=cross_core", 2 },
};
