/* SPDX-License-Identifier: MIT */
/*
 * mutex.pingpong and mutex.nocontention: the paper's four-mutex ping-pong
 * (its Figure 1) and the same lock/unlock sequence in the main thread alone.
 *
 * Mutexes m0..m3; at rest the main thread holds m0 and m2, the client m1
 * and m3.  One iteration is one "pair of actions" -- main's eight calls and
 * the client's eight -- and contains four ping-pongs (round trips), after
 * which every mutex is back with its first owner:
 *
 *   ping-pong   main                      client
 *   1           unlock m0   ->            lock m0
 *               lock m1     <-            unlock m1
 *   2           unlock m2   ->            lock m2
 *               lock m3     <-            unlock m3
 *   3           unlock m1   ->            lock m1
 *               lock m0     <-            unlock m0
 *   4           unlock m3   ->            lock m3
 *               lock m2     <-            unlock m2
 *
 * Every lock is of a mutex the other thread holds at that moment (main's
 * lock m1 waits for the client's unlock m1, which follows the client's lock
 * m0, which waits for main's unlock m0; and so on round the table), so each
 * side blocks until the other has released: a true ping-pong that the main
 * thread always begins.  Each thread unlocks before it locks, so the two
 * never deadlock.  Reported: pair time / 4 per ping-pong.  The harness
 * wakes the client before the clock starts; it then blocks on m0 as in
 * every ping-pong.  10 ms timings hold thousands of ping-pongs, so the
 * ends of a timing weigh little.
 *
 * mutex.nocontention runs main's column alone (m1 and m3 then belong to
 * nobody, so every call takes the uncontended path): 4 locks and 4 unlocks
 * per iteration, / 4, the paper's estimate of o_s + o_r.  An idle thread
 * keeps the process multi-threaded, as in the ping-pong.
 *
 * mutex.pingpong's variables type, protocol and robust choose the kind of
 * the four mutexes (bench/common.h); their defaults are the paper's mutex.
 */
#include <pthread.h>

#include "bench/common.h"

struct pingpong {
	pthread_mutex_t m[4];
};

static struct pingpong pp;

static void main_column(pthread_mutex_t *m, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		pthread_mutex_unlock(&m[0]);
		pthread_mutex_lock(&m[1]);
		pthread_mutex_unlock(&m[2]);
		pthread_mutex_lock(&m[3]);
		pthread_mutex_unlock(&m[1]);
		pthread_mutex_lock(&m[0]);
		pthread_mutex_unlock(&m[3]);
		pthread_mutex_lock(&m[2]);
	}
}

static void client_column(void *arg, uint64_t n)
{
	pthread_mutex_t *m = ((struct pingpong *)arg)->m;
	for (uint64_t i = 0; i < n; i++) {
		pthread_mutex_lock(&m[0]);
		pthread_mutex_unlock(&m[1]);
		pthread_mutex_lock(&m[2]);
		pthread_mutex_unlock(&m[3]);
		pthread_mutex_lock(&m[1]);
		pthread_mutex_unlock(&m[0]);
		pthread_mutex_lock(&m[3]);
		pthread_mutex_unlock(&m[2]);
	}
}

/* The client's odd mutexes are taken and given back by the client itself. */
static void client_init(void *arg)
{
	struct pingpong *st = arg;
	pthread_mutex_lock(&st->m[1]);
	pthread_mutex_lock(&st->m[3]);
}

static void client_fini(void *arg)
{
	struct pingpong *st = arg;
	pthread_mutex_unlock(&st->m[1]);
	pthread_mutex_unlock(&st->m[3]);
}

static const struct ptb_client_ops client_ops = {
	.init = client_init, .body = client_column, .fini = client_fini,
};

/* The four mutexes of the point's kind, main's two held; 0, or -1 with
 * the point na and nothing left initialised. */
static int hold_even(struct ptb_point *p)
{
	for (int i = 0; i < 4; i++)
		if (ptb_bench_mutex_init(p, &pp.m[i]) < 0) {
			while (i--)
				pthread_mutex_destroy(&pp.m[i]);
			return -1;
		}
	pthread_mutex_lock(&pp.m[0]);
	pthread_mutex_lock(&pp.m[2]);
	return 0;
}

/* Undo hold_even: the mutexes unlocked and destroyed. */
static void release_all(void)
{
	pthread_mutex_unlock(&pp.m[0]);
	pthread_mutex_unlock(&pp.m[2]);
	for (int i = 0; i < 4; i++)
		pthread_mutex_destroy(&pp.m[i]);
}

/* A failed setup gets no teardown: leave the mutexes as we found them. */
static int pingpong_setup(struct ptb_point *p)
{
	if (hold_even(p) < 0)
		return -1;
	p->state = &pp;
	if (ptb_client_start(p, &client_ops, &pp) == 0)
		return 0;
	release_all();
	return -1;
}

static int nocontention_setup(struct ptb_point *p)
{
	if (hold_even(p) < 0)
		return -1;
	p->state = &pp;
	if (ptb_bench_idle_helper(p) == 0)
		return 0;
	release_all();
	return -1;
}

static void pingpong_run(struct ptb_point *p, uint64_t n)
{
	main_column(((struct pingpong *)p->state)->m, n);
}

static void pingpong_teardown(struct ptb_point *p)
{
	ptb_bench_idle_stop();
	release_all();
}

static const struct ptb_param pingpong_params[] = {
	{ "placement", PTB_PLACEMENTS_ALL, PTB_PLACEMENTS_ALL, 0, 0,
	  "where the main thread and the client run", 0 },
	PTB_MUTEX_KIND_PARAMS,
	{ 0 }
};

static const struct ptb_param no_params[] = { { 0 } };

static const struct ptb_row_rule pingpong_rows[] = {
	/* The paper's mutex (older files lack the kind variables), then the
	 * other kinds, whose variables the label then shows. */
	/* match                                               group              label footnote */
	{ "placement=* type=normal? protocol=none? robust=no?", "Mutex Ping-pong", "%s", NULL },
	{ "placement=*",                                        "Mutex Ping-pong", "%s", NULL },
	{ NULL }
};

static const struct ptb_row_rule nocontention_rows[] = {
	/* match group              label            footnote */
	{ "",   "Mutex Ping-pong", "No Contention", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_mutex_pingpong = {
	.name = "mutex.pingpong",
	.summary = "four-mutex ping-pong between two threads (paper Figure 1)",
	.per = "ping-pong",
	.ops_per_iter = 4,
	.params = pingpong_params,
	.setup = pingpong_setup,
	.run = pingpong_run,
	.teardown = pingpong_teardown,
	.target_s = 0.01,
	.rows = pingpong_rows,
	.keyless_defaults = PTB_MUTEX_KIND_VARS,
	.logp = { "mutex", PTB_LOGP_RTT, true, "mutex" },
	/* a mutex handed to a waiting thread */
	.machine = { PTB_MACHINE_HANDOFF, "placement=cross_core;placement=unbound", 2 },
	.plausible_ns = { 20, 1e8 },   /* a handover: 20 ns .. many slices on a loaded machine */
};

const struct ptb_bench ptb_bench_mutex_nocontention = {
	.name = "mutex.nocontention",
	.summary = "the ping-pong's lock/unlock sequence in one thread (o_s + o_r)",
	.per = "ping-pong",
	.ops_per_iter = 4,
	.params = no_params,
	.setup = nocontention_setup,
	.run = pingpong_run,
	.teardown = pingpong_teardown,
	.rows = nocontention_rows,
	.plausible_ns = { 0.5, 5e3 },   /* calls: 0.5 ns .. 5 us */
};
