/* SPDX-License-Identifier: MIT */
/*
 * The synchronization calls under the interposer.  A call that may wait
 * first tries without waiting: when that succeeds it is one event and no
 * CPU-clock read (the common, cheap case); when it must wait, the thread's
 * CPU time is read and the wait is an enter/leave pair.  A condition wait
 * is recorded as what it does: unlock, wait (with the object's signal
 * sequence at entry, which tells predict which signals could wake it),
 * lock.  After a release (unlock, signal, broadcast, post) and before an
 * acquire (lock, trylock, semaphore and rwlock waits, spin lock) the
 * thread may yield, so that the recording keeps the order of many CPUs
 * (trace/interpose-order.c: ptb_tr_handoff, ptb_tr_gate).  A spin lock
 * waits by yielding, so that a recording on one PU under SCHED_FIFO lets
 * the holder run.  The waits with a time limit on a named clock (glibc
 * 2.30's clockwait and clocklock, which C++'s timed waits call) are
 * recorded as the timed ones.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace/interpose.h"

#define EV(kind, ph, obj, arg, out, site) \
	ptb_tr_event(PTB_EV_##kind, PTB_PH_##ph, (const void *)(obj), arg, out, site)

/* 1 when m is of a kind its owner cannot take again (default, error-
 * checking, adaptive: the owner's second lock waits for another thread's
 * unlock, or fails), 0 recursive: each lock event says so, so that predict
 * replays a mutex used as a semaphore -- locked by one thread, unlocked by
 * another, which glibc allows -- as one, and a recursive one as recursive.
 * glibc keeps the kind in the mutex, in a field public in its headers (the
 * interposer is glibc's already: dlvsym), in the low two bits. */
static unsigned plain(const pthread_mutex_t *m)
{
	return (m->__data.__kind & 3) != PTHREAD_MUTEX_RECURSIVE_NP;
}

/* 1 when another thread than the owner may unlock m (the default and the
 * adaptive kinds; a recursive or error-checking one refuses, EPERM): each
 * unlock event says so, and predict lets such an unlock release it. */
static unsigned unlockable(const pthread_mutex_t *m)
{
	int kind = m->__data.__kind & 3;
	return kind == PTHREAD_MUTEX_TIMED_NP || kind == PTHREAD_MUTEX_ADAPTIVE_NP;
}

static int outcome(int rc) { return rc == 0 ? PTB_OUT_OK : rc == ETIMEDOUT ? PTB_OUT_TIMEOUT : rc == EBUSY ? PTB_OUT_BUSY : PTB_OUT_ERROR; }

/* A wait with a time limit: under SCHED_FIFO on one PU its timeout fires
 * while a sibling holds the PU, and the thread waits behind it, which is
 * no part of the wait on N CPUs.  That time is read around the wait
 * (limit_begin, the run-queue time so far), and a wait that timed out is
 * followed by a CPU reading that carries it (trace/ops.c takes it off the
 * wait, as for a sleep or an I/O call). */
static int64_t ns_on(clockid_t clk)
{
	struct timespec now;
	clock_gettime(clk, &now);
	return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* Only for a limit 1 ms or more away (as for sleeps): the reading costs
 * some 6 us, and a program that polls with limits already past made it
 * most of its time.  clk -1: the realtime clock, unless the limit lies
 * so far before it that it must be on the monotonic one (a condition
 * variable's attribute can say so, unseen here). */
static uint64_t limit_begin_on(const struct timespec *ts, clockid_t clk)
{
	if (!ts || !ptb_tr_recording() || ts->tv_nsec < 0 || ts->tv_nsec >= 1000000000)
		return UINT64_MAX;
	int64_t at = (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
	int64_t now = ns_on(clk == (clockid_t)-1 ? CLOCK_REALTIME : clk);
	if (clk == (clockid_t)-1 && now - at > (int64_t)1000000 * 1000000000)
		now = ns_on(CLOCK_MONOTONIC);
	return at - now >= 1000000 ? ptb_tr_runq_ns() : UINT64_MAX;
}

static uint64_t limit_begin(const struct timespec *ts) { return limit_begin_on(ts, (clockid_t)-1); }

static void limit_end(uint64_t q0, int timed_out)
{
	if (timed_out && q0 != UINT64_MAX)
		ptb_tr_cpu_queued(q0);
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	PTB_REAL(int, "pthread_mutex_lock", (pthread_mutex_t *));
	static int (*try)(pthread_mutex_t *);
	if (!try)
		try = (int (*)(pthread_mutex_t *))ptb_tr_real("pthread_mutex_trylock");
	const void *site = PTB_SITE;
	if (!ptb_tr_on)
		return real_fn(m);
	ptb_tr_gate(m, site);
	if (try(m) == 0) {
		EV(LOCK, INSTANT, m, plain(m), 0, site);
		return 0;
	}
	ptb_tr_cpu();
	EV(LOCK, ENTER, m, plain(m), 0, site);
	int rc = real_fn(m);
	EV(LOCK, LEAVE, m, plain(m), outcome(rc), site);
	return rc;
}

int pthread_mutex_trylock(pthread_mutex_t *m)
{
	PTB_REAL(int, "pthread_mutex_trylock", (pthread_mutex_t *));
	const void *site = PTB_SITE;
	ptb_tr_gate(m, site);
	int rc = real_fn(m);
	EV(TRYLOCK, INSTANT, m, plain(m), outcome(rc), site);
	return rc;
}

int pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *ts)
{
	PTB_REAL(int, "pthread_mutex_timedlock", (pthread_mutex_t *, const struct timespec *));
	const void *site = PTB_SITE;
	ptb_tr_gate(m, site);
	ptb_tr_cpu();
	EV(LOCK, ENTER, m, plain(m), 0, site);
	uint64_t q0 = limit_begin(ts);
	int rc = real_fn(m, ts);
	EV(LOCK, LEAVE, m, plain(m), outcome(rc), site);
	limit_end(q0, rc == ETIMEDOUT);
	return rc;
}

int pthread_mutex_clocklock(pthread_mutex_t *m, clockid_t clk, const struct timespec *ts)
{
	PTB_REAL(int, "pthread_mutex_clocklock", (pthread_mutex_t *, clockid_t, const struct timespec *));
	const void *site = PTB_SITE;
	ptb_tr_gate(m, site);
	ptb_tr_cpu();
	EV(LOCK, ENTER, m, plain(m), 0, site);
	uint64_t q0 = limit_begin_on(ts, clk);
	int rc = real_fn(m, clk, ts);
	EV(LOCK, LEAVE, m, plain(m), outcome(rc), site);
	limit_end(q0, rc == ETIMEDOUT);
	return rc;
}

int pthread_mutex_unlock(pthread_mutex_t *m)
{
	PTB_REAL(int, "pthread_mutex_unlock", (pthread_mutex_t *));
	const void *site = PTB_SITE;
	EV(UNLOCK, INSTANT, m, unlockable(m), 0, site);
	int rc = real_fn(m);
	ptb_tr_handoff(m, site);
	return rc;
}

/* A condition wait: without a time limit (ts NULL), until ts on the
 * realtime clock (clk -1: timedwait), or on clock clk (clockwait, which
 * C++'s wait_until and wait_for call). */
static int cond_wait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
		     const struct timespec *ts, const void *site)
{
	PTB_REAL(int, "pthread_cond_wait", (pthread_cond_t *, pthread_mutex_t *));
	static int (*timed)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
	static int (*clocked)(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *);
	if (!timed)
		timed = (int (*)(pthread_cond_t *, pthread_mutex_t *, const struct timespec *))
			ptb_tr_real("pthread_cond_timedwait");
	if (!clocked && clk != (clockid_t)-1)
		clocked = (int (*)(pthread_cond_t *, pthread_mutex_t *, clockid_t, const struct timespec *))
			ptb_tr_real("pthread_cond_clockwait");
	EV(UNLOCK, INSTANT, m, unlockable(m), 0, site);
	ptb_tr_cpu();
	ptb_tr_order_relock(m);
	EV(COND_WAIT, ENTER, c, ptb_tr_seq_peek(c), 0, site);
	uint64_t q0 = limit_begin_on(ts, clk);
	int rc = !ts ? real_fn(c, m) : clk == (clockid_t)-1 ? timed(c, m, ts) : clocked(c, m, clk, ts);
	EV(COND_WAIT, LEAVE, c, ptb_tr_seq_peek(c), outcome(rc), site);
	limit_end(q0, rc == ETIMEDOUT);
	EV(LOCK, INSTANT, m, plain(m), 0, site);
	return rc;
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	return cond_wait(c, m, (clockid_t)-1, NULL, PTB_SITE);
}

int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *ts)
{
	return cond_wait(c, m, (clockid_t)-1, ts, PTB_SITE);
}

int pthread_cond_clockwait(pthread_cond_t *c, pthread_mutex_t *m, clockid_t clk,
			   const struct timespec *ts)
{
	return cond_wait(c, m, clk, ts, PTB_SITE);
}

int pthread_cond_signal(pthread_cond_t *c)
{
	PTB_REAL(int, "pthread_cond_signal", (pthread_cond_t *));
	const void *site = PTB_SITE;
	EV(COND_SIGNAL, INSTANT, c, ptb_tr_seq_next(c), 0, site);
	int rc = real_fn(c);
	ptb_tr_handoff_cond(c, site);
	return rc;
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	PTB_REAL(int, "pthread_cond_broadcast", (pthread_cond_t *));
	const void *site = PTB_SITE;
	EV(COND_BROADCAST, INSTANT, c, ptb_tr_seq_next(c), 0, site);
	int rc = real_fn(c);
	ptb_tr_handoff_cond(c, site);
	return rc;
}

int pthread_barrier_init(pthread_barrier_t *b, const pthread_barrierattr_t *a, unsigned n)
{
	PTB_REAL(int, "pthread_barrier_init", (pthread_barrier_t *, const pthread_barrierattr_t *, unsigned));
	EV(BARRIER_INIT, INSTANT, b, n, 0, PTB_SITE);
	return real_fn(b, a, n);
}

int pthread_barrier_wait(pthread_barrier_t *b)
{
	PTB_REAL(int, "pthread_barrier_wait", (pthread_barrier_t *));
	const void *site = PTB_SITE;
	ptb_tr_cpu();
	EV(BARRIER_WAIT, ENTER, b, 0, 0, site);
	int rc = real_fn(b);
	EV(BARRIER_WAIT, LEAVE, b, 0, 0, site);
	return rc;
}

int sem_init(sem_t *s, int shared, unsigned v)
{
	PTB_REAL(int, "sem_init", (sem_t *, int, unsigned));
	EV(SEM_INIT, INSTANT, s, v, 0, PTB_SITE);
	return real_fn(s, shared, v);
}

int sem_wait(sem_t *s)
{
	PTB_REAL(int, "sem_wait", (sem_t *));
	static int (*try)(sem_t *);
	if (!try)
		try = (int (*)(sem_t *))ptb_tr_real("sem_trywait");
	const void *site = PTB_SITE;
	if (!ptb_tr_on)
		return real_fn(s);
	ptb_tr_gate(s, site);
	if (try(s) == 0) {
		EV(SEM_WAIT, INSTANT, s, 0, 0, site);
		return 0;
	}
	ptb_tr_cpu();
	EV(SEM_WAIT, ENTER, s, 0, 0, site);
	int rc = real_fn(s);
	EV(SEM_WAIT, LEAVE, s, 0, rc ? PTB_OUT_ERROR : 0, site);
	return rc;
}

int sem_trywait(sem_t *s)
{
	PTB_REAL(int, "sem_trywait", (sem_t *));
	const void *site = PTB_SITE;
	ptb_tr_gate(s, site);
	int rc = real_fn(s);
	EV(SEM_WAIT, INSTANT, s, 0, rc ? PTB_OUT_BUSY : 0, site);
	return rc;
}

int sem_timedwait(sem_t *s, const struct timespec *ts)
{
	PTB_REAL(int, "sem_timedwait", (sem_t *, const struct timespec *));
	const void *site = PTB_SITE;
	ptb_tr_gate(s, site);
	ptb_tr_cpu();
	EV(SEM_WAIT, ENTER, s, 0, 0, site);
	uint64_t q0 = limit_begin(ts);
	int rc = real_fn(s, ts);
	int e = errno, timed_out = rc && e == ETIMEDOUT;
	EV(SEM_WAIT, LEAVE, s, 0, rc ? (timed_out ? PTB_OUT_TIMEOUT : PTB_OUT_ERROR) : 0, site);
	limit_end(q0, timed_out);
	errno = e;
	return rc;
}

int sem_clockwait(sem_t *s, clockid_t clk, const struct timespec *ts)
{
	PTB_REAL(int, "sem_clockwait", (sem_t *, clockid_t, const struct timespec *));
	const void *site = PTB_SITE;
	ptb_tr_gate(s, site);
	ptb_tr_cpu();
	EV(SEM_WAIT, ENTER, s, 0, 0, site);
	uint64_t q0 = limit_begin_on(ts, clk);
	int rc = real_fn(s, clk, ts);
	int e = errno, timed_out = rc && e == ETIMEDOUT;
	EV(SEM_WAIT, LEAVE, s, 0, rc ? (timed_out ? PTB_OUT_TIMEOUT : PTB_OUT_ERROR) : 0, site);
	limit_end(q0, timed_out);
	errno = e;
	return rc;
}

int sem_post(sem_t *s)
{
	PTB_REAL(int, "sem_post", (sem_t *));
	const void *site = PTB_SITE;
	EV(SEM_POST, INSTANT, s, 0, 0, site);
	int rc = real_fn(s);
	ptb_tr_handoff(s, site);
	return rc;
}

/* 1 when l lets a new reader in while a writer waits (glibc's default),
 * 0 when it does not (PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP, and
 * what a trace from before the flag is read as): each read and write lock
 * event says so, for predict.  Read from glibc's field, as plain() reads
 * a mutex's kind. */
static unsigned readers_first(const pthread_rwlock_t *l)
{
	return l->__data.__flags != PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP;
}

/* A read or write lock: try first, wait as a pair only when it must. */
static int rw_take(pthread_rwlock_t *l, int kind, int (*take)(pthread_rwlock_t *),
		   int (*try)(pthread_rwlock_t *), const void *site)
{
	ptb_tr_gate(l, site);
	if (ptb_tr_on && try(l) == 0) {
		ptb_tr_event(kind, PTB_PH_INSTANT, l, readers_first(l), 0, site);
		return 0;
	}
	ptb_tr_cpu();
	ptb_tr_event(kind, PTB_PH_ENTER, l, readers_first(l), 0, site);
	int rc = take(l);
	ptb_tr_event(kind, PTB_PH_LEAVE, l, readers_first(l), outcome(rc), site);
	return rc;
}

int pthread_rwlock_rdlock(pthread_rwlock_t *l)
{
	PTB_REAL(int, "pthread_rwlock_rdlock", (pthread_rwlock_t *));
	static int (*try)(pthread_rwlock_t *);
	if (!try)
		try = (int (*)(pthread_rwlock_t *))ptb_tr_real("pthread_rwlock_tryrdlock");
	return rw_take(l, PTB_EV_RD_LOCK, real_fn, try, PTB_SITE);
}

int pthread_rwlock_wrlock(pthread_rwlock_t *l)
{
	PTB_REAL(int, "pthread_rwlock_wrlock", (pthread_rwlock_t *));
	static int (*try)(pthread_rwlock_t *);
	if (!try)
		try = (int (*)(pthread_rwlock_t *))ptb_tr_real("pthread_rwlock_trywrlock");
	return rw_take(l, PTB_EV_WR_LOCK, real_fn, try, PTB_SITE);
}

/* The read and write locks with a time limit: always a pair. */
#define RW_TIMED(kind, clk, call) \
	const void *site = PTB_SITE; \
	ptb_tr_gate(l, site); \
	ptb_tr_cpu(); \
	ptb_tr_event(kind, PTB_PH_ENTER, l, readers_first(l), 0, site); \
	uint64_t q0 = limit_begin_on(ts, clk); \
	int rc = (call); \
	ptb_tr_event(kind, PTB_PH_LEAVE, l, readers_first(l), outcome(rc), site); \
	limit_end(q0, rc == ETIMEDOUT); \
	return rc

int pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *ts)
{
	PTB_REAL(int, "pthread_rwlock_timedrdlock", (pthread_rwlock_t *, const struct timespec *));
	RW_TIMED(PTB_EV_RD_LOCK, (clockid_t)-1, real_fn(l, ts));
}

int pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *ts)
{
	PTB_REAL(int, "pthread_rwlock_timedwrlock", (pthread_rwlock_t *, const struct timespec *));
	RW_TIMED(PTB_EV_WR_LOCK, (clockid_t)-1, real_fn(l, ts));
}

int pthread_rwlock_clockrdlock(pthread_rwlock_t *l, clockid_t clk, const struct timespec *ts)
{
	PTB_REAL(int, "pthread_rwlock_clockrdlock", (pthread_rwlock_t *, clockid_t, const struct timespec *));
	RW_TIMED(PTB_EV_RD_LOCK, clk, real_fn(l, clk, ts));
}

int pthread_rwlock_clockwrlock(pthread_rwlock_t *l, clockid_t clk, const struct timespec *ts)
{
	PTB_REAL(int, "pthread_rwlock_clockwrlock", (pthread_rwlock_t *, clockid_t, const struct timespec *));
	RW_TIMED(PTB_EV_WR_LOCK, clk, real_fn(l, clk, ts));
}

int pthread_rwlock_tryrdlock(pthread_rwlock_t *l)
{
	PTB_REAL(int, "pthread_rwlock_tryrdlock", (pthread_rwlock_t *));
	const void *site = PTB_SITE;
	ptb_tr_gate(l, site);
	int rc = real_fn(l);
	EV(RD_LOCK, INSTANT, l, readers_first(l), outcome(rc), site);
	return rc;
}

int pthread_rwlock_trywrlock(pthread_rwlock_t *l)
{
	PTB_REAL(int, "pthread_rwlock_trywrlock", (pthread_rwlock_t *));
	const void *site = PTB_SITE;
	ptb_tr_gate(l, site);
	int rc = real_fn(l);
	EV(WR_LOCK, INSTANT, l, readers_first(l), outcome(rc), site);
	return rc;
}

int pthread_rwlock_unlock(pthread_rwlock_t *l)
{
	PTB_REAL(int, "pthread_rwlock_unlock", (pthread_rwlock_t *));
	const void *site = PTB_SITE;
	EV(RW_UNLOCK, INSTANT, l, 0, 0, site);
	int rc = real_fn(l);
	ptb_tr_handoff(l, site);
	return rc;
}

int pthread_spin_lock(pthread_spinlock_t *l)
{
	PTB_REAL(int, "pthread_spin_trylock", (pthread_spinlock_t *));
	const void *site = PTB_SITE;
	ptb_tr_gate((const void *)l, site);
	if (real_fn(l) == 0) {
		EV(SPIN_LOCK, INSTANT, l, 0, 0, site);
		return 0;
	}
	ptb_tr_cpu();
	EV(SPIN_LOCK, ENTER, l, 0, 0, site);
	while (real_fn(l) != 0)
		syscall(SYS_sched_yield);
	EV(SPIN_LOCK, LEAVE, l, 0, 0, site);
	return 0;
}

int pthread_spin_trylock(pthread_spinlock_t *l)
{
	PTB_REAL(int, "pthread_spin_trylock", (pthread_spinlock_t *));
	const void *site = PTB_SITE;
	ptb_tr_gate((const void *)l, site);
	int rc = real_fn(l);
	EV(SPIN_LOCK, INSTANT, l, 0, outcome(rc), site);
	return rc;
}

int pthread_spin_unlock(pthread_spinlock_t *l)
{
	PTB_REAL(int, "pthread_spin_unlock", (pthread_spinlock_t *));
	EV(SPIN_UNLOCK, INSTANT, l, 0, 0, PTB_SITE);
	return real_fn(l);
}

int pthread_once(pthread_once_t *o, void (*fn)(void))
{
	PTB_REAL(int, "pthread_once", (pthread_once_t *, void (*)(void)));
	EV(ONCE, INSTANT, o, 0, 0, PTB_SITE);
	return real_fn(o, fn);
}
