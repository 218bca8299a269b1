/* SPDX-License-Identifier: MIT */
/*
 * cancel: pthread_cancel of a thread, until pthread_join has returned
 * PTHREAD_CANCELED -- the paper's section 5 promise, in its two kinds.
 *
 * type=deferred: the victim is blocked at a cancellation point (pause()),
 * so the cancel wakes it, it acts on the request and exits.
 * type=async: the victim spins with asynchronous cancellation enabled, so
 * the request interrupts it wherever it is.
 *
 * A timing of n cancels needs n victims that already block or spin when
 * the clock starts, so they are created beforehand, untimed: setup and
 * check() keep a pool of at least 2n + 1 victims (the harness never more
 * than doubles n between two kept timings; a timing that finds too few
 * creates the rest itself and is counted in `padded`), each bound to the
 * placement's client PU, the main thread to its first PU.
 *
 * Of the async victims only one spins at a time (a pool of spinners would
 * share their PU and each cancellation would wait for its turn): right
 * after cancelling victim i the main thread lets victim i + 1 start
 * spinning, so that it wakes while victim i dies and the join waits
 * (victim i + 1 yields until victim i has unwound, lest it preempt it);
 * before cancelling it the main thread makes sure it spins.  One post of a
 * semaphore per cancel, and a context switch on the victims' PU, are thus
 * timed too.  On same_pu a spinning victim
 * would take turns with the main thread by time slices: async is na there.
 *
 * check() makes the point an error unless every join returned
 * PTHREAD_CANCELED (note `canceled_per_join`).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/common.h"

enum { CREATED, READY, SPINNING, FAILED };

struct victim {
	pthread_t thread;
	sem_t go;               /* async: start spinning */
	atomic_int state;
	atomic_bool gone;       /* async: cancelled, unwinding to its exit */
	char binding[64];       /* as read back by the victim */
	struct victim *pred;    /* async: the victim cancelled just before */
};

struct cancel_state {
	struct ptb_point *p;
	bool async;
	pthread_attr_t attr;
	struct victim **v;      /* the pool: v[head .. head + count) */
	size_t cap, head, count;
	uint64_t joined, canceled, padded;
};

static struct cancel_state st;

static void mark_gone(void *arg)
{
	atomic_store(&((struct victim *)arg)->gone, true);
}

static void *victim_main(void *arg)
{
	struct victim *v = arg;
	volatile uint64_t spins = 0;

	if (ptb_point_bind_self(st.p, st.p->pu_client, v->binding, sizeof v->binding) < 0) {
		atomic_store(&v->state, FAILED);
		return NULL;
	}
	atomic_store(&v->state, READY);
	if (!st.async)
		for (;;)
			pause();
	while (sem_wait(&v->go) != 0)
		;               /* EINTR */
	/* Woken while the predecessor dies on this PU, we may have preempted
	 * it: let it finish, or its cancellation waits for our time slice. */
	while (v->pred && !atomic_load(&v->pred->gone))
		sched_yield();
	pthread_cleanup_push(mark_gone, v);
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	atomic_store(&v->state, SPINNING);
	for (;;)
		spins++;
	pthread_cleanup_pop(0);
	return NULL;
}

static void await_state(struct victim *v, int want)
{
	while (atomic_load(&v->state) < want)
		sched_yield();
}

static void victim_free(struct victim *v)
{
	sem_destroy(&v->go);
	free(v);
}

/* A new victim at the pool's end, bound and blocked; 0 or -1 (error). */
static int victim_add(void)
{
	struct victim *v = calloc(1, sizeof *v);
	int rc;
	if (!v) {
		ptb_point_error(st.p, "cancel: out of memory");
		return -1;
	}
	sem_init(&v->go, 0, 0);
	if ((rc = pthread_create(&v->thread, &st.attr, victim_main, v)) != 0) {
		ptb_point_error(st.p, "cancel: pthread_create: %s", strerror(rc));
		victim_free(v);
		return -1;
	}
	await_state(v, READY);
	if (atomic_load(&v->state) == FAILED) {
		pthread_join(v->thread, NULL);
		victim_free(v);
		return -1;
	}
	st.v[st.head + st.count++] = v;
	/* The record shows where the victims ran, as it does a client's. */
	if (st.p->nclient_bindings == 0) {
		snprintf(st.p->binding_client[0], sizeof st.p->binding_client[0], "%s", v->binding);
		st.p->nclient_bindings = 1;
	}
	return 0;
}

/* At least `want` victims in the pool, the first one spinning if async. */
static int pool_fill(size_t want)
{
	if (st.head + want > st.cap) {
		if (st.count > 0)	/* st.v is still NULL before the first fill */
			memmove(st.v, st.v + st.head, st.count * sizeof *st.v);
		st.head = 0;
		if (want > st.cap) {
			struct victim **grown = realloc(st.v, 2 * want * sizeof *grown);
			if (!grown) {
				ptb_point_error(st.p, "cancel: out of memory");
				return -1;
			}
			st.v = grown;
			st.cap = 2 * want;
		}
	}
	while (st.count < want)
		if (victim_add() < 0)
			return -1;
	if (st.async && atomic_load(&st.v[st.head]->state) != SPINNING) {
		sem_post(&st.v[st.head]->go);
		await_state(st.v[st.head], SPINNING);
	}
	return 0;
}

static void cancel_run(struct ptb_point *p, uint64_t n)
{
	struct cancel_state *s = p->state;
	uint64_t canceled = 0;
	void *rv;

	if (s->count < n + 1) {
		s->padded++;
		if (pool_fill(n + 1) < 0)
			return;
	}
	for (uint64_t i = 0; i < n; i++) {
		struct victim *v = s->v[s->head + i];
		pthread_cancel(v->thread);
		if (s->async) {
			s->v[s->head + i + 1]->pred = v;
			sem_post(&s->v[s->head + i + 1]->go);
		}
		pthread_join(v->thread, &rv);
		canceled += rv == PTHREAD_CANCELED;
		if (s->async)
			await_state(s->v[s->head + i + 1], SPINNING);
	}
	for (uint64_t i = 0; i < n; i++)
		victim_free(s->v[s->head + i]);
	s->head += n;
	s->count -= n;
	s->joined += n;
	s->canceled += canceled;
}

static void cancel_check(struct ptb_point *p, uint64_t n)
{
	struct cancel_state *s = p->state;
	ptb_point_note(p, "canceled_per_join", s->joined ? (double)s->canceled / s->joined : 0);
	if (s->padded)
		ptb_point_note(p, "padded", (double)s->padded);
	if (s->canceled != s->joined)
		ptb_point_error(p, "%llu of %llu joins returned something else than PTHREAD_CANCELED",
				(unsigned long long)(s->joined - s->canceled),
				(unsigned long long)s->joined);
	pool_fill(2 * n + 1);
}

static void pool_drain(void)
{
	for (size_t i = 0; i < st.count; i++) {
		struct victim *v = st.v[st.head + i];
		pthread_cancel(v->thread);
		pthread_join(v->thread, NULL);
		victim_free(v);
	}
	free(st.v);
	pthread_attr_destroy(&st.attr);
}

static int cancel_setup(struct ptb_point *p)
{
	size_t stack = PTHREAD_STACK_MIN > 65536 ? PTHREAD_STACK_MIN : 65536;

	memset(&st, 0, sizeof st);
	st.p = p;
	st.async = strcmp(ptb_point_str(p, "type"), "async") == 0;
	if (st.async && p->pu_main >= 0 && p->pu_main == p->pu_client) {
		ptb_point_na(p, "type=async on one PU: the spinning victim would take turns with "
			     "the main thread by time slices");
		return -1;
	}
	pthread_attr_init(&st.attr);
	pthread_attr_setstacksize(&st.attr, stack);   /* victims only block or spin */
	p->state = &st;
	if (pool_fill(17) == 0)
		return 0;
	pool_drain();
	return -1;
}

static void cancel_teardown(struct ptb_point *p)
{
	(void)p;
	pool_drain();
}

static const struct ptb_param cancel_params[] = {
	{ "type", "deferred,async", "deferred,async", 0, 0,
	  "deferred: the victim blocks at a cancellation point; async: it spins with "
	  "asynchronous cancellation" },
	{ "placement", PTB_PLACEMENTS_ALL, "same_pu,cross_core", 0, 0,
	  "where the main thread and the victims run" },
	{ 0 }
};

static const struct ptb_row_rule cancel_rows[] = {
	/* match                          group                          label footnote */
	{ "type=deferred placement=*",  "Thread Cancel, deferred",     "%s", NULL },
	{ "type=async placement=*",     "Thread Cancel, asynchronous", "%s",
	  "the victim spins; the next victim is started after each cancel, so one sem_post and a switch per cancel are timed too" },
	{ NULL }
};

const struct ptb_bench ptb_bench_cancel = {
	.name = "cancel",
	.summary = "cancel a blocked (deferred) or spinning (async) thread until the join returns",
	.per = "cancel+join",
	.ops_per_iter = 1,
	.params = cancel_params,
	.setup = cancel_setup,
	.run = cancel_run,
	.check = cancel_check,
	.teardown = cancel_teardown,
	/* a wakeup and an exit, 100 ns; a loaded machine's slices, 100 ms */
	.plausible_ns = { 100, 1e8 },
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = cancel_rows,
};
