/* SPDX-License-Identifier: MIT */
/*
 * sem.pingpong and sem.postwait: semaphores, handed between two threads
 * and posted and taken by one, as POSIX provides them (impl=posix) and as
 * the paper's section 5 proposes to synthesize them from a mutex and a
 * condition variable (impl=synth).
 *
 * sem.pingpong: semaphores a and b start at 0.  The main thread posts a
 * and waits on b; the client waits on a and posts b.  One iteration is one
 * round trip: two posts, two waits, and on two PUs two wakeups of a thread
 * that had blocked (or spun) in wait.  The harness wakes the client before
 * the clock starts; it then blocks in its first wait.
 *
 * sem.postwait: post then wait on one semaphore in the main thread, so the
 * wait never blocks: the uncontended cost of the pair.  An idle thread
 * keeps the process multi-threaded.
 *
 * The synthesized semaphore is the textbook one: a count under a mutex;
 * post increments it and signals the condition, wait sleeps on the
 * condition while the count is 0, then decrements it.
 */
#include <pthread.h>
#include <errno.h>
#include <semaphore.h>
#include <string.h>

#include "bench/common.h"

struct synth_sem {
	pthread_mutex_t m;
	pthread_cond_t c;
	unsigned count;
};

static void synth_init(struct synth_sem *s)
{
	pthread_mutex_init(&s->m, NULL);
	pthread_cond_init(&s->c, NULL);
	s->count = 0;
}

static void synth_destroy(struct synth_sem *s)
{
	pthread_mutex_destroy(&s->m);
	pthread_cond_destroy(&s->c);
}

static void synth_post(struct synth_sem *s)
{
	pthread_mutex_lock(&s->m);
	s->count++;
	pthread_cond_signal(&s->c);
	pthread_mutex_unlock(&s->m);
}

static void unlock_mutex(void *m)
{
	pthread_mutex_unlock(m);
}

/* A cancelled waiter (a client between timings never is, but a cancelled
 * wait must not leave the mutex held) releases it. */
static void synth_wait(struct synth_sem *s)
{
	pthread_mutex_lock(&s->m);
	pthread_cleanup_push(unlock_mutex, &s->m);
	while (s->count == 0)
		pthread_cond_wait(&s->c, &s->m);
	s->count--;
	pthread_cleanup_pop(1);
}

/* One semaphore of either kind. */
struct sem {
	bool synth;
	sem_t posix;
	struct synth_sem s;
};

static int sem_make(struct ptb_point *p, struct sem *s, bool synth)
{
	s->synth = synth;
	if (synth) {
		synth_init(&s->s);
		return 0;
	}
	if (sem_init(&s->posix, 0, 0) == 0)
		return 0;
	ptb_point_na(p, "sem_init: %s", strerror(errno));
	return -1;
}

static void sem_unmake(struct sem *s)
{
	if (s->synth)
		synth_destroy(&s->s);
	else
		sem_destroy(&s->posix);
}

static inline void post(struct sem *s)
{
	if (s->synth)
		synth_post(&s->s);
	else
		sem_post(&s->posix);
}

static inline void take(struct sem *s)
{
	if (s->synth)
		synth_wait(&s->s);
	else
		while (sem_wait(&s->posix) != 0)
			;       /* EINTR: a signal, not a post */
}

struct sems {
	struct sem a, b;
};

static struct sems st;

static int sems_make(struct ptb_point *p, int count)
{
	bool synth = strcmp(ptb_point_str(p, "impl"), "synth") == 0;
	if (sem_make(p, &st.a, synth) < 0)
		return -1;
	if (count == 2 && sem_make(p, &st.b, synth) < 0) {
		sem_unmake(&st.a);
		return -1;
	}
	p->state = &st;
	return 0;
}

/* --- sem.pingpong -------------------------------------------------------- */

static void client_body(void *arg, uint64_t n)
{
	struct sems *ss = arg;
	for (uint64_t i = 0; i < n; i++) {
		take(&ss->a);
		post(&ss->b);
	}
}

static const struct ptb_client_ops client_ops = { .body = client_body };

static int pingpong_setup(struct ptb_point *p)
{
	if (sems_make(p, 2) < 0)
		return -1;
	if (ptb_client_start(p, &client_ops, &st) == 0)
		return 0;
	sem_unmake(&st.a);
	sem_unmake(&st.b);
	return -1;
}

static void pingpong_run(struct ptb_point *p, uint64_t n)
{
	struct sems *ss = p->state;
	for (uint64_t i = 0; i < n; i++) {
		post(&ss->a);
		take(&ss->b);
	}
}

static void pingpong_teardown(struct ptb_point *p)
{
	(void)p;
	sem_unmake(&st.a);
	sem_unmake(&st.b);
}

/* --- sem.postwait -------------------------------------------------------- */

static int postwait_setup(struct ptb_point *p)
{
	if (sems_make(p, 1) < 0)
		return -1;
	if (ptb_bench_idle_helper(p) == 0)
		return 0;
	sem_unmake(&st.a);
	return -1;
}

static void postwait_run(struct ptb_point *p, uint64_t n)
{
	struct sem *a = &((struct sems *)p->state)->a;
	for (uint64_t i = 0; i < n; i++) {
		post(a);
		take(a);
	}
}

static void postwait_teardown(struct ptb_point *p)
{
	(void)p;
	ptb_bench_idle_stop();
	sem_unmake(&st.a);
}

#define IMPL_PARAM { "impl", "posix,synth", "posix,synth", 0, 0, \
	"posix: sem_post/sem_wait; synth: built from a mutex and a condition variable" }

static const struct ptb_param pingpong_params[] = {
	{ "placement", PTB_PLACEMENTS_ALL, PTB_PLACEMENTS_ALL, 0, 0,
	  "where the main thread and the client run" },
	IMPL_PARAM,
	{ 0 }
};

static const struct ptb_param postwait_params[] = { IMPL_PARAM, { 0 } };

static const struct ptb_row_rule pingpong_rows[] = {
	/* match                     group                               label footnote */
	{ "placement=* impl=posix", "Semaphore Ping-pong",              "%s", NULL },
	{ "placement=* impl=synth", "Semaphore Ping-pong, synthesized", "%s",
	  "a semaphore built from a mutex and a condition variable, as the paper's section 5 proposes" },
	{ NULL }
};

static const struct ptb_row_rule postwait_rows[] = {
	/* match        group        label                            footnote */
	{ "impl=posix", "Semaphore", "Post and wait",                NULL },
	{ "impl=synth", "Semaphore", "Post and wait, synthesized",   NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_sem_pingpong = {
	.name = "sem.pingpong",
	.summary = "semaphore ping-pong between two threads: post one, wait on the other",
	.per = "round trip",
	.ops_per_iter = 1,
	.params = pingpong_params,
	.setup = pingpong_setup,
	.run = pingpong_run,
	.teardown = pingpong_teardown,
	.target_s = 0.01,
	.plausible_ns = { 20, 1e8 },   /* as mutex.pingpong: a handover .. many slices */
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = pingpong_rows,
};

const struct ptb_bench ptb_bench_sem_postwait = {
	.name = "sem.postwait",
	.summary = "post and wait on one semaphore in one thread (uncontended)",
	.per = "post+wait",
	.ops_per_iter = 1,
	.params = postwait_params,
	.setup = postwait_setup,
	.run = postwait_run,
	.teardown = postwait_teardown,
	.plausible_ns = { 1, 5e3 },   /* two calls: 1 ns .. 5 us */
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = postwait_rows,
};
