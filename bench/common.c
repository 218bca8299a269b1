/* SPDX-License-Identifier: MIT */
/*
 * Helpers shared by the benchmark files (see common.h): the idle helper
 * thread, same-PU pinning for benchmarks without a placement variable, the
 * yielding wait, the mutex pool restored untimed between timings, and the
 * yield benchmark's alternation verdict.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/common.h"

static pthread_t idle_thread;
static bool idle_running;

static void *idle_main(void *arg)
{
	for (;;)
		pause();        /* a cancellation point */
	return arg;
}

int ptb_bench_idle_helper(struct ptb_point *p)
{
	int rc = pthread_create(&idle_thread, NULL, idle_main, NULL);
	if (rc != 0) {
		ptb_point_error(p, "idle helper thread: pthread_create: %s", strerror(rc));
		return -1;
	}
	idle_running = true;
	return 0;
}

void ptb_bench_idle_stop(void)
{
	if (!idle_running)
		return;
	pthread_cancel(idle_thread);
	pthread_join(idle_thread, NULL);
	idle_running = false;
}

int ptb_bench_pin_same_pu(struct ptb_point *p)
{
	const struct ptb_pair *pair = &p->sys->pairs[PTB_SAME_PU];

	if (!pair->possible) {
		ptb_point_na(p, "%s", pair->reason);
		return -1;
	}
	p->pu_main = p->pu_client = pair->pu[0];
	return ptb_point_bind_self(p, p->pu_main, p->binding_main, sizeof p->binding_main);
}

int ptb_bench_place_group(struct ptb_point *p, const char *order, int n, int *pus)
{
	int have = ptb_pus_in_order(p, order, pus, PTB_MAX_CLIENTS + 1);

	if (have < 0)
		return -1;
	if (have < n) {
		ptb_point_na(p, "needs %d PUs, one per thread; this process may use %d (PUs %s)",
			     n, have, p->sys->counts.allowed);
		return -1;
	}
	p->pu_main = pus[0];
	p->pu_client = n > 1 ? pus[1] : pus[0];
	return ptb_point_bind_self(p, p->pu_main, p->binding_main, sizeof p->binding_main);
}

void ptb_bench_unpin(struct ptb_point *p)
{
	char readback[64];

	ptb_point_bind_self(p, -1, readback, sizeof readback);
}

/* name      type value (-1: leave the default) */
static int mutex_type(const struct ptb_point *p, const char *name)
{
	if (!name || !strcmp(name, "normal"))
		return -1;
	if (!strcmp(name, "recursive"))
		return PTHREAD_MUTEX_RECURSIVE;
	if (!strcmp(name, "errorcheck"))
		return PTHREAD_MUTEX_ERRORCHECK;
	return p->sys->sys.mutex_adaptive;   /* adaptive */
}

static const char *kind_of(const struct ptb_point *p, const char *var, const char *dflt)
{
	const char *v = ptb_point_str(p, var);
	return v ? v : dflt;
}

/* The attributes of the point's kind; 0, or the failing call's error. */
static int mutex_attr(struct ptb_point *p, pthread_mutexattr_t *a, const char **what)
{
	const char *type = kind_of(p, "type", "normal"), *proto = kind_of(p, "protocol", "none");
	int t = mutex_type(p, type), rc = 0;

	if (!strcmp(type, "adaptive") && t < 0) {
		*what = "type=adaptive: this C library has no adaptive mutex type";
		return ENOTSUP;
	}
	if (t >= 0 && (rc = pthread_mutexattr_settype(a, t)))
		*what = "pthread_mutexattr_settype";
	else if (!strcmp(proto, "inherit") &&
		 (rc = pthread_mutexattr_setprotocol(a, PTHREAD_PRIO_INHERIT)))
		*what = "pthread_mutexattr_setprotocol(PTHREAD_PRIO_INHERIT)";
	else if (!strcmp(proto, "protect") &&
		 ((rc = pthread_mutexattr_setprotocol(a, PTHREAD_PRIO_PROTECT)) ||
		  (rc = pthread_mutexattr_setprioceiling(a, sched_get_priority_min(SCHED_FIFO)))))
		*what = "pthread_mutexattr_setprotocol(PTHREAD_PRIO_PROTECT)";
	else if (!strcmp(kind_of(p, "robust", "no"), "yes") &&
		 (rc = pthread_mutexattr_setrobust(a, PTHREAD_MUTEX_ROBUST)))
		*what = "pthread_mutexattr_setrobust";
	return rc;
}

int ptb_bench_mutex_init(struct ptb_point *p, pthread_mutex_t *m)
{
	pthread_mutexattr_t a;
	const char *what = "pthread_mutex_init";
	int rc;

	pthread_mutexattr_init(&a);
	rc = mutex_attr(p, &a, &what);
	if (rc == 0)
		rc = pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
	if (rc == 0) {
		what = "pthread_mutex_lock";
		if ((rc = pthread_mutex_lock(m)) == 0)
			pthread_mutex_unlock(m);
		else
			pthread_mutex_destroy(m);
	}
	if (rc != 0)
		ptb_point_na(p, "%s: %s", what, strerror(rc));
	return rc ? -1 : 0;
}

void ptb_bench_await(_Atomic uint64_t *v, uint64_t want)
{
	while (atomic_load_explicit(v, memory_order_acquire) < want)
		sched_yield();
}

/* Called by the measured thread itself, before the point's first timing. */
void ptb_share_add_self(struct ptb_share *s)
{
	if (s->n < PTB_SHARE_THREADS && pthread_getcpuclockid(pthread_self(), &s->clock[s->n]) == 0)
		s->n++;
}

static double clock_ns(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

void ptb_share_check(struct ptb_point *p, struct ptb_share *s)
{
	double cpu = 0, wall = clock_ns(CLOCK_MONOTONIC);
	for (int i = 0; i < s->n; i++)
		cpu += clock_ns(s->clock[i]);
	if (s->started) {
		s->cpu += cpu - s->cpu_last;
		s->wall += wall - s->wall_last;
	}
	s->cpu_last = cpu;
	s->wall_last = wall;
	s->started = true;

	double share = s->wall > 0 ? s->cpu / s->wall : 1;
	ptb_point_note(p, "cpu_share", share);
	if (s->wall >= PTB_SHARE_MIN_WALL_NS && share < PTB_SHARE_MIN)
		ptb_point_unstable(p, "other tasks shared the PU: the measured threads had "
				   "%.0f %% of it", 100 * share);
}

void ptb_mutex_lock_span(pthread_mutex_t *m, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		pthread_mutex_lock(&m[i]);
}

void ptb_mutex_unlock_span(pthread_mutex_t *m, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		pthread_mutex_unlock(&m[i]);
}

static int pool_alloc(struct ptb_mutex_pool *pool, size_t cap)
{
	if (cap == 0)
		cap = 1;
	pool->m = ptb_array_realloc(NULL, cap, sizeof *pool->m);
	if (!pool->m)
		return -1;
	pool->cap = cap;
	for (size_t i = 0; i < cap; i++)
		pthread_mutex_init(&pool->m[i], NULL);
	if (pool->held)
		ptb_mutex_lock_span(pool->m, 0, cap);
	return 0;
}

static void pool_free(struct ptb_mutex_pool *pool)
{
	if (!pool->m)
		return;
	if (pool->held)
		ptb_mutex_unlock_span(pool->m, 0, pool->cap);
	for (size_t i = 0; i < pool->cap; i++)
		pthread_mutex_destroy(&pool->m[i]);
	free(pool->m);
	pool->m = NULL;
	pool->cap = 0;
}

int ptb_mutex_pool_init(struct ptb_mutex_pool *pool, size_t cap, bool held)
{
	*pool = (struct ptb_mutex_pool){ .held = held };
	pthread_mutex_init(&pool->spare, NULL);
	return pool_alloc(pool, cap);
}

int ptb_mutex_pool_reserve(struct ptb_mutex_pool *pool, size_t want)
{
	if (want <= pool->cap)
		return 0;
	pool_free(pool);
	return pool_alloc(pool, want);
}

void ptb_mutex_pool_fini(struct ptb_mutex_pool *pool)
{
	pool_free(pool);
	pthread_mutex_destroy(&pool->spare);
}

enum ptb_status ptb_yield_alternation(uint64_t switches, uint64_t yields,
				      char *buf, size_t len)
{
	double ratio = yields ? (double)switches / (double)yields : 1;

	buf[0] = '\0';
	if (yields < PTB_YIELD_MIN_YIELDS || ratio >= PTB_YIELD_OK_RATIO)
		return PTB_OK;
	if (ratio >= PTB_YIELD_USABLE_RATIO) {
		snprintf(buf, len, "threads alternated on only %.0f %% of the yields: "
			 "%llu switches in %llu yields", 100 * ratio,
			 (unsigned long long)switches, (unsigned long long)yields);
		return PTB_UNSTABLE;
	}
	snprintf(buf, len, "threads did not alternate: %llu switches in %llu yields",
		 (unsigned long long)switches, (unsigned long long)yields);
	return PTB_NA;
}

bool ptb_bench_pu_taken(struct ptb_pu_stamp *stamps, int pu, uint64_t episode)
{
	/* relaxed: the barriers around an episode order everything else */
	return atomic_exchange_explicit(&stamps[pu].episode, episode, memory_order_relaxed) ==
	       episode;
}
