/* SPDX-License-Identifier: MIT */
/*
 * mutex.contention, spin.contention and rwlock.contention: T threads, one
 * per PU, placed compact (a core's PUs, then its package's, first) or
 * spread (one PU per core, alternating packages, first), each repeatedly
 * takes one lock, updates the shared counter it guards and releases it.
 * The figure is the wall time per acquisition of the whole group: a timing
 * of n is n acquisitions in total, by whichever threads win them.
 *
 * The main thread is the first of the T and takes its share like the
 * others.  The harness wakes the T-1 clients before the clock starts; they
 * then wait at a start line (an atomic generation the main thread raises
 * when run() begins), so no acquisition happens outside a timing.  Under
 * the lock a thread counts its acquisition into the shared counter, stops
 * once the counter reaches the timing's target, and counts a handover when
 * the previous acquisition was another thread's.  Each thread keeps its own
 * count on its own cache line.
 *
 * check() (untimed) requires that the per-thread counts add up to the
 * shared counter and to the n of every timing so far -- a lock that let
 * two threads in at once would lose increments -- and notes, over the
 * trial's timings: `acquisitions`, Jain's fairness index of the per-thread
 * counts (1 = equal shares, 1/T = one thread took all), the largest and
 * smallest thread's share of them, and `handovers_per_acquisition` (1 when
 * the lock changes hands every time, near 0 when one thread keeps it: a
 * convoy or starvation).  Acquisitions per second are 1e9 over the figure.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/common.h"

#define CACHE_LINE 64

struct lock_ops {
	int (*init)(void *lock);
	void (*acquire)(void *lock);
	void (*release)(void *lock);
	void (*destroy)(void *lock);
};

struct slot {
	_Alignas(CACHE_LINE) uint64_t mine;   /* this thread's acquisitions */
	uint64_t gen;                         /* the last start it ran */
	struct contention *c;
	int id;
};

struct contention {
	const struct lock_ops *ops;
	int nthreads;
	uint64_t expected;                    /* the sum of every timing's n */
	_Alignas(CACHE_LINE) union {
		pthread_mutex_t mutex;
		pthread_spinlock_t spin;
		pthread_rwlock_t rwlock;
	} lock;
	/* Guarded by the lock. */
	_Alignas(CACHE_LINE) uint64_t counter, target, handovers;
	int last;
	_Alignas(CACHE_LINE) _Atomic uint64_t start;
	struct slot slot[PTB_MAX_CLIENTS];
};

/* ---- the locks ---------------------------------------------------------- */

static int mutex_init(void *l) { return pthread_mutex_init(l, NULL); }
static void mutex_acquire(void *l) { pthread_mutex_lock(l); }
static void mutex_release(void *l) { pthread_mutex_unlock(l); }
static void mutex_destroy(void *l) { pthread_mutex_destroy(l); }

static int spin_init(void *l) { return pthread_spin_init(l, PTHREAD_PROCESS_PRIVATE); }
static void spin_acquire(void *l) { pthread_spin_lock(l); }
static void spin_release(void *l) { pthread_spin_unlock(l); }
static void spin_destroy(void *l) { pthread_spin_destroy(l); }

static int rwlock_init(void *l) { return pthread_rwlock_init(l, NULL); }
static void rwlock_acquire(void *l) { pthread_rwlock_wrlock(l); }
static void rwlock_release(void *l) { pthread_rwlock_unlock(l); }
static void rwlock_destroy(void *l) { pthread_rwlock_destroy(l); }

static const struct lock_ops mutex_ops = { mutex_init, mutex_acquire, mutex_release,
					   mutex_destroy };
static const struct lock_ops spin_ops = { spin_init, spin_acquire, spin_release,
					  spin_destroy };
static const struct lock_ops rwlock_ops = { rwlock_init, rwlock_acquire, rwlock_release,
					    rwlock_destroy };

/* ---- the threads -------------------------------------------------------- */

/* Acquire until the timing's target is reached. */
static void take_turns(struct contention *c, struct slot *s)
{
	uint64_t mine = 0;
	for (;;) {
		c->ops->acquire(&c->lock);
		if (c->counter >= c->target) {
			c->ops->release(&c->lock);
			break;
		}
		c->counter++;
		if (c->last != s->id) {
			c->handovers++;
			c->last = s->id;
		}
		c->ops->release(&c->lock);
		mine++;
	}
	s->mine += mine;
}

static void client_body(void *arg, uint64_t n)
{
	struct slot *s = arg;
	struct contention *c = s->c;
	(void)n;
	for (uint64_t i = 1; atomic_load_explicit(&c->start, memory_order_acquire) == s->gen; i++)
		ptb_client_testcancel(i);
	s->gen++;
	take_turns(c, s);
}

static const struct ptb_client_ops client_ops = { .body = client_body };

static void contention_run(struct ptb_point *p, uint64_t n)
{
	struct contention *c = p->state;
	c->target = c->counter + n;   /* the clients read it after the start */
	atomic_store_explicit(&c->start, c->slot[0].gen + 1, memory_order_release);
	c->slot[0].gen++;
	take_turns(c, &c->slot[0]);
}

/* ---- fairness ----------------------------------------------------------- */

static void contention_check(struct ptb_point *p, uint64_t n)
{
	struct contention *c = p->state;
	uint64_t sum = 0, most = 0, least = UINT64_MAX;
	double sq = 0;
	c->expected += n;
	for (int i = 0; i < c->nthreads; i++) {
		uint64_t x = c->slot[i].mine;
		sum += x;
		sq += (double)x * (double)x;
		most = x > most ? x : most;
		least = x < least ? x : least;
	}
	if (sum != c->counter || sum != c->expected) {
		ptb_point_error(p, "the threads' acquisitions add up to %llu, the counter says %llu "
			        "and the timings asked for %llu", (unsigned long long)sum,
			        (unsigned long long)c->counter, (unsigned long long)c->expected);
		return;
	}
	if (sum == 0)
		return;
	ptb_point_note(p, "acquisitions", (double)sum);
	ptb_point_note(p, "jain", (double)sum * (double)sum / (c->nthreads * sq));
	ptb_point_note(p, "max_share", (double)most / (double)sum);
	ptb_point_note(p, "min_share", (double)least / (double)sum);
	ptb_point_note(p, "handovers_per_acquisition", (double)c->handovers / (double)sum);
}

/* ---- setup -------------------------------------------------------------- */

static struct contention *contention_new(const struct lock_ops *ops, int nthreads)
{
	struct contention *c = aligned_alloc(CACHE_LINE, sizeof *c);
	if (!c)
		return NULL;
	memset(c, 0, sizeof *c);
	c->ops = ops;
	c->nthreads = nthreads;
	c->last = -1;
	for (int i = 0; i < nthreads; i++)
		c->slot[i] = (struct slot){ .c = c, .id = i };
	if (ops->init(&c->lock) != 0) {
		free(c);
		return NULL;
	}
	return c;
}

static void contention_free(struct contention *c)
{
	c->ops->destroy(&c->lock);
	free(c);
}

/* The main thread on the order's first PU, a client on each of the next. */
static int place_threads(struct ptb_point *p, struct contention *c, const char *order)
{
	int pus[PTB_MAX_CLIENTS];
	int n = ptb_pus_in_order(p, order, pus, PTB_MAX_CLIENTS);
	if (n < 0)
		return -1;
	if (n < c->nthreads) {
		ptb_point_na(p, "needs %d PUs, one per thread; this process may use %d (PUs %s)",
			     c->nthreads, n, p->sys->counts.allowed);
		return -1;
	}
	if (ptb_point_bind_self(p, pus[0], p->binding_main, sizeof p->binding_main) < 0)
		return -1;
	for (int i = 1; i < c->nthreads; i++)
		if (ptb_client_start_on(p, pus[i], &client_ops, &c->slot[i]) < 0)
			return -1;
	return 0;
}

static int setup_with(struct ptb_point *p, const struct lock_ops *ops)
{
	long t = ptb_point_long(p, "threads");
	struct contention *c = contention_new(ops, (int)t);
	if (!c) {
		ptb_point_error(p, "creating the lock: %s", strerror(errno ? errno : ENOMEM));
		return -1;
	}
	if (place_threads(p, c, ptb_point_str(p, "order")) < 0) {
		/* The harness cancels the clients started: none still runs. */
		ptb_clients_cancel(p);
		contention_free(c);
		return -1;
	}
	p->state = c;
	return 0;
}

static int mutex_setup(struct ptb_point *p) { return setup_with(p, &mutex_ops); }
static int spin_setup(struct ptb_point *p) { return setup_with(p, &spin_ops); }
static int rwlock_setup(struct ptb_point *p) { return setup_with(p, &rwlock_ops); }

/* The harness has cancelled the clients: nobody holds the lock. */
static void contention_teardown(struct ptb_point *p)
{
	char buf[64];
	contention_free(p->state);
	p->state = NULL;
	ptb_point_bind_self(p, -1, buf, sizeof buf);
}

/* The threads of a default run: 1, 2, 4, ... and every allowed PU. */
static int contention_defaults(const struct ptb_system *sys, const char *var, char *buf,
			       size_t len)
{
	return strcmp(var, "threads") ? -1 : ptb_defaults_pu_counts(sys, buf, len);
}

static const struct ptb_param contention_params[] = {
	{ "threads", NULL, "1,2,4,8,16,32,64,128,256", 1, PTB_MAX_CLIENTS,
	  "threads, one per PU (default: 1, 2, 4, ... and every allowed PU)" },
	{ "order", PTB_ORDERS, PTB_ORDERS, 0, 0,
	  "compact: a core's PUs, then its package's, first; spread: one per core, "
	  "alternating packages, first" },
	{ 0 }
};

#define CONTENTION(sym, bench_name, what, setup_fn)                                     \
	const struct ptb_bench ptb_bench_##sym = {                                      \
		.name = bench_name,                                                     \
		.summary = "T threads, one per PU, take turns at one " what             \
			   " guarding a counter",                                       \
		.per = "acquisition",                                                   \
		.ops_per_iter = 1,                                                      \
		.params = contention_params,                                            \
		.defaults_here = contention_defaults,                                   \
		.setup = setup_fn,                                                      \
		.run = contention_run,                                                  \
		.check = contention_check,                                              \
		.teardown = contention_teardown,                                        \
		.suite = PTB_SUITE_EXTENDED,                                            \
		.section = PTB_SECTION_EXTRA,                                           \
		/* an acquisition: 1 ns .. many time slices on a loaded machine */      \
		.plausible_ns = { 1, 1e8 },                                             \
	}

CONTENTION(mutex_contention, "mutex.contention", "mutex", mutex_setup);
CONTENTION(spin_contention, "spin.contention", "spin lock", spin_setup);
CONTENTION(rwlock_contention, "rwlock.contention", "rwlock (write)", rwlock_setup);
