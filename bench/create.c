/* SPDX-License-Identifier: MIT */
/*
 * create and create.join: the cost of a thread.
 *
 * create is the paper's recursive creation: run(p, n) sets a shared count
 * to 0, creates a thread and waits on a condition variable; each new
 * thread increments the count and, if it is n, signals the main thread,
 * else creates the next thread and calls pthread_exit.  Time / n per
 * thread (M = n).  Since each thread starts the next, a thread's cost
 * includes being scheduled, not just the pthread_create call.
 *
 * detach=no threads stay zombies until joined: their stacks cannot be
 * reused, so every creation in the chain maps a fresh stack -- the cost the
 * paper's undetached rows show.  They are reaped in check(), after the
 * timing and untimed, by joining them all (the ids are stored by their
 * creators in an array that check() grows to twice n; a chain longer than
 * the array -- only a growth or warm-up timing, see ptb_mutex_pool --
 * detaches its surplus threads and is counted in the note
 * `padded_timings`).  detach=yes threads may still be exiting when run()
 * returns; check() waits until the process is back to the threads it had
 * at setup, so no creation leaks into the next timing and none outlives
 * the point.
 *
 * scope=process asks for PTHREAD_SCOPE_PROCESS; a library that refuses it
 * (Linux NPTL: ENOTSUP) makes the point na with the library's error.
 *
 * create.join creates a default thread and joins it, n times: what a
 * program of today pays for a short-lived worker.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "bench/common.h"

struct chain {
	pthread_attr_t attr;
	bool detached;
	pthread_mutex_t m;
	pthread_cond_t done_cv;
	bool done;
	_Atomic uint64_t count;
	uint64_t target;
	pthread_t *ids;               /* undetached: ids[k] = the (k+1)-th thread */
	size_t cap;
	uint64_t padded;
	int baseline_threads;           /* threads of the process at setup */
};

static struct chain ch;

static void *link_thread(void *arg);

/* Create the (k+1)-th thread of the chain; its id goes to ids[k]. */
static void create_next(struct chain *st, uint64_t k)
{
	pthread_t spare, *id = k < st->cap ? &st->ids[k] : &spare;

	if (pthread_create(id, &st->attr, link_thread, st) != 0) {
		/* Out of threads: end the chain here; check() reports it. */
		pthread_mutex_lock(&st->m);
		st->done = true;
		pthread_cond_signal(&st->done_cv);
		pthread_mutex_unlock(&st->m);
		return;
	}
	if (!st->detached && id == &spare)
		pthread_detach(spare);
}

static void *link_thread(void *arg)
{
	struct chain *st = arg;
	uint64_t k = atomic_fetch_add_explicit(&st->count, 1, memory_order_relaxed) + 1;

	if (k < st->target) {
		create_next(st, k);
		pthread_exit(NULL);
	}
	pthread_mutex_lock(&st->m);
	st->done = true;
	pthread_cond_signal(&st->done_cv);
	pthread_mutex_unlock(&st->m);
	return NULL;
}

static int create_setup(struct ptb_point *p)
{
	bool process = strcmp(ptb_point_str(p, "scope"), "process") == 0;
	int rc;

	ch = (struct chain){ .detached = ptb_point_yes(p, "detach") };
	p->state = &ch;
	pthread_attr_init(&ch.attr);
	pthread_attr_setdetachstate(&ch.attr, ch.detached ? PTHREAD_CREATE_DETACHED
							    : PTHREAD_CREATE_JOINABLE);
	rc = pthread_attr_setscope(&ch.attr, process ? PTHREAD_SCOPE_PROCESS
						     : PTHREAD_SCOPE_SYSTEM);
	if (rc != 0) {
		ptb_point_na(p, "pthread_attr_setscope(PTHREAD_SCOPE_%s): %s",
			     process ? "PROCESS" : "SYSTEM", strerror(rc));
		return -1;
	}
	pthread_mutex_init(&ch.m, NULL);
	pthread_cond_init(&ch.done_cv, NULL);
	ch.cap = 1024;
	if (!(ch.ids = ptb_array_realloc(NULL, ch.cap, sizeof *ch.ids))) {
		ptb_point_error(p, "out of memory");
		return -1;
	}
	ch.baseline_threads = ptb_thread_count();
	return 0;
}

static void create_run(struct ptb_point *p, uint64_t n)
{
	struct chain *st = p->state;

	st->count = 0;
	st->target = n;
	st->done = false;
	create_next(st, 0);
	pthread_mutex_lock(&st->m);
	while (!st->done)
		pthread_cond_wait(&st->done_cv, &st->m);
	pthread_mutex_unlock(&st->m);
}

/* Untimed: reap the zombies or let the detached threads finish exiting.
 * Joining in chain order is what makes each id safe to read: thread k
 * wrote ids[k] before it exited, and joining it (ids[k-1]) waited for that. */
static void create_check(struct ptb_point *p, uint64_t n)
{
	struct chain *st = p->state;
	uint64_t ran = atomic_load(&st->count);
	uint64_t joinable = st->detached ? 0 : ran < st->cap ? ran : st->cap;

	for (uint64_t k = 0; k < joinable; k++)
		pthread_join(st->ids[k], NULL);
	while (ptb_thread_count() > st->baseline_threads)
		sched_yield();
	if (ran < n) {
		/* The harness stops measuring at this verdict: no longer chain
		 * is asked for, and the array is not grown for one. */
		ptb_point_error(p, "pthread_create failed after %llu threads of %llu",
				(unsigned long long)ran, (unsigned long long)n);
		return;
	}
	if (st->detached || st->cap / 2 >= n)
		return;
	if (n > st->cap)
		ptb_point_note(p, "padded_timings", ++st->padded);
	size_t want;
	pthread_t *ids = (size_t)n == n && ptb_size_mul(n, 2, &want) ? ptb_array_realloc(st->ids, want, sizeof *ids)
						   : NULL;
	if (!ids) {
		ptb_point_error(p, "no memory for the ids of %llu threads",
				(unsigned long long)n);
		return;
	}
	st->ids = ids;
	st->cap = want;
}

static void create_teardown(struct ptb_point *p)
{
	struct chain *st = p->state;
	pthread_attr_destroy(&st->attr);
	if (!st->ids)
		return;
	free(st->ids);
	pthread_cond_destroy(&st->done_cv);
	pthread_mutex_destroy(&st->m);
}

static void *nothing(void *arg)
{
	return arg;
}

static int join_setup(struct ptb_point *p)
{
	return 0;
}

static void join_run(struct ptb_point *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		pthread_t t;
		int rc = pthread_create(&t, NULL, nothing, NULL);
		if (rc != 0) {
			ptb_point_error(p, "pthread_create: %s", strerror(rc));
			return;
		}
		pthread_join(t, NULL);
	}
}

static const struct ptb_param create_params[] = {
	{ "detach", "yes,no", "yes,no", 0, 0, "create the threads detached or joinable", 0 },
	{ "scope", "system,process", "system,process", 0, 0,
	  "contention scope: PTHREAD_SCOPE_SYSTEM or PTHREAD_SCOPE_PROCESS", 0 },
	{ 0 }
};

static const struct ptb_param no_params[] = { { 0 } };

static const struct ptb_row_rule create_rows[] = {
	/* match                       group            label                        footnote */
	{ "detach=yes scope=system",  "Thread Create", "Detached, system scope",    NULL },
	{ "detach=yes scope=process", "Thread Create", "Detached, process scope",   NULL },
	{ "detach=no scope=system",   "Thread Create", "Undetached, system scope",  NULL },
	{ "detach=no scope=process",  "Thread Create", "Undetached, process scope", NULL },
	{ NULL }
};

static const struct ptb_row_rule join_rows[] = {
	/* match group label footnote */
	{ "",   "",   NULL, "not in the paper: pthread_create and pthread_join of one thread" },
	{ NULL }
};

const struct ptb_bench ptb_bench_create = {
	.name = "create",
	.summary = "create threads recursively, each starting the next (paper)",
	.per = "thread",
	.ops_per_iter = 1,
	.params = create_params,
	.setup = create_setup,
	.run = create_run,
	.check = create_check,
	.teardown = create_teardown,
	.rows = create_rows,
	/* from one create to the new thread running (it creates the next) */
	.machine = { PTB_MACHINE_CREATE, "detach=no scope=system;detach=yes scope=system", 1 },
	.plausible_ns = { 1e3, 1e7 },   /* a thread: 1 us .. 10 ms */
};

const struct ptb_bench ptb_bench_create_join = {
	.name = "create.join",
	.summary = "create a thread and join it",
	.per = "create+join",
	.ops_per_iter = 1,
	.params = no_params,
	.setup = join_setup,
	.run = join_run,
	.section = PTB_SECTION_EXTRA,
	.rows = join_rows,
	.plausible_ns = { 1e3, 1e7 },   /* a thread: 1 us .. 10 ms */
};
