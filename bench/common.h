/* SPDX-License-Identifier: MIT */
/*
 * What several benchmark files need and no harness module should know
 * about: an idle helper thread (so that a process is multi-threaded as the
 * paper's was), pinning both threads of a point to one PU for benchmarks
 * that have no placement variable, a yielding wait on a counter, a pool of
 * mutexes that are locked in one place and restored untimed in another,
 * and the pure verdict of the yield benchmark's alternation check (pure so
 * that a unit test can drive it with synthetic counts).
 */
#ifndef PTB_BENCH_COMMON_H
#define PTB_BENCH_COMMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "ptbench.h"

/* Start a thread that only sleeps, so that the process has a second thread
 * for the whole point and any single-threaded fast path of the C library
 * is off, as it was in the paper's multi-threaded SKaMPI process.  It is
 * not a harness client: a client is woken before and acknowledges after
 * every timing, and that wakeup could preempt the main thread inside a
 * timing of nanosecond calls.  ptb_bench_idle_stop (teardown) cancels and
 * joins it; it does nothing when no helper runs. */
int ptb_bench_idle_helper(struct ptb_point *p);
void ptb_bench_idle_stop(void);

/* Put the main thread and the clients started afterwards on one PU
 * (sys->pairs[PTB_SAME_PU]), for benchmarks that only make sense there and
 * so have no placement variable.  Binds the main thread itself and records
 * the read-back binding in p->binding_main; 0, or -1 with the point na or
 * error.  ptb_bench_unpin gives the main thread every allowed PU again. */
int ptb_bench_pin_same_pu(struct ptb_point *p);
void ptb_bench_unpin(struct ptb_point *p);

/* Place a group of n threads, one per PU, in `order` (PTB_ORDERS): fill
 * pus[0..n) (PTB_MAX_CLIENTS + 1 entries) and bind the main thread to
 * pus[0], recording the binding; the caller starts a client on each other
 * PU.  0, or -1 with the point na (fewer allowed PUs than threads) or
 * error.  ptb_bench_unpin undoes the binding. */
int ptb_bench_place_group(struct ptb_point *p, const char *order, int n, int *pus);

/* wake.placement's count of a release, O(1) per thread on the timed path:
 * each thread stamps the PU it began on (an OS number below npu) with the
 * episode's number, one cache line per PU; true when a stamp of this
 * episode was there already, another thread having begun on that PU.
 * Episodes are numbered from 1 (a zeroed stamp is none). */
struct ptb_pu_stamp {
	_Alignas(64) _Atomic uint64_t episode;
};
bool ptb_bench_pu_taken(struct ptb_pu_stamp *stamps, int pu, uint64_t episode);

/*
 * Mutex kinds, as variables of the mutex benchmarks: type (normal -- the
 * library's default mutex --, recursive, errorcheck, adaptive where the
 * library has one), protocol (none, inherit, protect) and robust (no,
 * yes).
 * ptb_bench_mutex_init initialises m as the point's kind (a variable the
 * benchmark lacks takes its default; all defaults: default attributes, as
 * before the kinds existed, and the same point keys) and tries a lock and an unlock; 0, or
 * -1 with the point na and the library's error.
 */
#define PTB_MUTEX_KIND_PARAMS \
	{ "type", "normal,recursive,errorcheck,adaptive", "normal", 0, 0, \
	  "mutex type; normal is the library's default mutex", 0 }, \
	{ "protocol", "none,inherit,protect", "none", 0, 0, \
	  "priority protocol; protect with the lowest SCHED_FIFO ceiling", 0 }, \
	{ "robust", "no,yes", "no", 0, 0, "a robust mutex (survives its owner's death)", 0 }
#define PTB_MUTEX_KIND_VARS "type protocol robust"
int ptb_bench_mutex_init(struct ptb_point *p, pthread_mutex_t *m);

/* Wait until *v >= want, for threads on two PUs.  Each round yields: a
 * back-off of one system call that keeps the polled line from bouncing on
 * every store of the other thread and lets another task here run.  (On a
 * shared PU it is no handover: EEVDF may pick the yielder again.) */
void ptb_bench_await(_Atomic uint64_t *v, uint64_t want);

/*
 * Did our threads have their PU to themselves?  For the benchmarks whose
 * figure is the time between handovers of one PU (yield, timeslice),
 * another task on that PU inflates the figure without breaking the
 * handover.  Each measured thread registers its CPU clock once
 * (ptb_share_add_self); check() then reads those clocks and the wall clock
 * -- after the timing, so nothing is added to the timed loops -- and the
 * share of CPU time in wall time since the previous check is accumulated
 * and noted as `cpu_share`.  A share below PTB_SHARE_MIN over all timings
 * so far (once they add up to PTB_SHARE_MIN_WALL_NS) makes the point
 * unstable.
 */
#define PTB_SHARE_MIN          0.8
#define PTB_SHARE_MIN_WALL_NS  5e7
#define PTB_SHARE_THREADS      2
struct ptb_share {
	int n;
	clockid_t clock[PTB_SHARE_THREADS];
	bool started;
	double cpu_last, wall_last;     /* at the previous check */
	double cpu, wall;               /* accumulated since the first check */
};
void ptb_share_add_self(struct ptb_share *s);
void ptb_share_check(struct ptb_point *p, struct ptb_share *s);

/*
 * Mutexes that a timing locks (or unlocks) once each and that check()
 * restores untimed: a mutex can be locked only once before it is unlocked,
 * so a timing of n locks needs n distinct mutexes.  The pool grows in
 * check() (untimed) to twice the n it last saw; a timing whose n is larger
 * than the pool (only the first timing after the harness jumps n, which it
 * never keeps -- growth or warm-up) pads the missing operations with
 * lock+unlock pairs of a spare mutex and is counted in `padded`.
 * At rest every mutex is unlocked, or held by the main thread (`held`).
 */
struct ptb_mutex_pool {
	pthread_mutex_t *m;
	size_t cap;            /* initialised mutexes */
	bool held;             /* at rest all are locked by the main thread */
	pthread_mutex_t spare; /* for padding */
	uint64_t padded;       /* timings that had to pad */
};
int ptb_mutex_pool_init(struct ptb_mutex_pool *pool, size_t cap, bool held);
/* Grow to at least `want` mutexes; every mutex must be at rest. 0 or -1. */
int ptb_mutex_pool_reserve(struct ptb_mutex_pool *pool, size_t want);
void ptb_mutex_pool_fini(struct ptb_mutex_pool *pool);
/* Lock / unlock m[from..to) in order. */
void ptb_mutex_lock_span(pthread_mutex_t *m, size_t from, size_t to);
void ptb_mutex_unlock_span(pthread_mutex_t *m, size_t from, size_t to);

/*
 * The yield benchmark's alternation check.  `switches` counts the yields
 * during which the other thread ran (a "last runner" variable changed
 * hands); with strict alternation every yield is a switch but the last one
 * of a timing.  Returns PTB_OK (also when fewer than PTB_YIELD_MIN_YIELDS
 * yields were seen: too few to judge), PTB_UNSTABLE (some yields returned
 * without a switch: the value is diluted by cheap solo yields) or PTB_NA
 * (the threads did not take turns: the value is not a context switch),
 * with the reason in buf.
 */
#define PTB_YIELD_MIN_YIELDS     1000
#define PTB_YIELD_OK_RATIO       0.95
#define PTB_YIELD_USABLE_RATIO   0.5
enum ptb_status ptb_yield_alternation(uint64_t switches, uint64_t yields,
				      char *buf, size_t len);

#endif
