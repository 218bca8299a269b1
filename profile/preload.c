/* SPDX-License-Identifier: MIT
 * ptbprof's wrappers of the program's mutex calls, preloaded into it by
 * Valgrind's function redirection (docs/design.md, section "The
 * profiler").  Before a lock or trylock the thread waits for its turn in
 * logical time (the tool answers whether every other running thread has
 * reached the caller's logical time), so that the threads take a mutex in
 * the order of their logical times, not in Valgrind's schedule; once it
 * holds the mutex the tool moves the thread past the release it acquired.
 * An unlock tells the tool first, so that whoever takes the mutex next
 * finds the release recorded. */
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <time.h>
#include "profile/lockreq.h"

/* The tool answers 1: go; 0: wait; 2: go unordered (it counted it). */
static void wait_turn(pthread_mutex_t *m)
{
	while (VALGRIND_DO_CLIENT_REQUEST_EXPR(1, PTBPROF_REQ_TURN, m, 0, 0, 0, 0) == 0)
		syscall(SYS_sched_yield);   /* not the wrapped sched_yield below */
}

static int acquired(pthread_mutex_t *m, int rc)
{
	VALGRIND_DO_CLIENT_REQUEST_STMT(rc == 0 ? PTBPROF_REQ_ACQUIRED : PTBPROF_REQ_GAVE_UP, m, 0,
					0, 0, 0);
	return rc;
}

/* libc.so* (the C library since glibc 2.34) and libpthread.so* (before). */
#define WRAP_LOCK(soname, fn)                                               \
	int I_WRAP_SONAME_FNNAME_ZU(soname, fn)(pthread_mutex_t *m);        \
	int I_WRAP_SONAME_FNNAME_ZU(soname, fn)(pthread_mutex_t *m)         \
	{                                                                   \
		OrigFn fn_;                                                 \
		int rc;                                                     \
		VALGRIND_GET_ORIG_FN(fn_);                                  \
		wait_turn(m);                                               \
		CALL_FN_W_W(rc, fn_, m);                                    \
		return acquired(m, rc);                                     \
	}
#define WRAP_UNLOCK(soname, fn)                                             \
	int I_WRAP_SONAME_FNNAME_ZU(soname, fn)(pthread_mutex_t *m);        \
	int I_WRAP_SONAME_FNNAME_ZU(soname, fn)(pthread_mutex_t *m)         \
	{                                                                   \
		OrigFn fn_;                                                 \
		int rc;                                                     \
		VALGRIND_GET_ORIG_FN(fn_);                                  \
		VALGRIND_DO_CLIENT_REQUEST_STMT(PTBPROF_REQ_RELEASE, m, 0, 0, 0, 0); \
		CALL_FN_W_W(rc, fn_, m);                                    \
		return rc;                                                  \
	}

/* A condition variable's wait releases the mutex and takes it again. */
/* A barrier: the threads leave it after the last one's arrival. */
#define WRAP_BARRIER(soname)                                                \
	int I_WRAP_SONAME_FNNAME_ZU(soname, pthread_barrier_wait)(pthread_barrier_t *b); \
	int I_WRAP_SONAME_FNNAME_ZU(soname, pthread_barrier_wait)(pthread_barrier_t *b)  \
	{                                                                   \
		OrigFn fn_;                                                 \
		int rc;                                                     \
		VALGRIND_GET_ORIG_FN(fn_);                                  \
		VALGRIND_DO_CLIENT_REQUEST_STMT(PTBPROF_REQ_BARRIER_IN, b, 0, 0, 0, 0); \
		CALL_FN_W_W(rc, fn_, b);                                    \
		VALGRIND_DO_CLIENT_REQUEST_STMT(PTBPROF_REQ_BARRIER_OUT, b, 0, 0, 0, 0); \
		return rc;                                                  \
	}
#define WRAP_BARRIER_INIT(soname)                                           \
	int I_WRAP_SONAME_FNNAME_ZU(soname, pthread_barrier_init)(pthread_barrier_t *b, \
		const pthread_barrierattr_t *a, unsigned n);                \
	int I_WRAP_SONAME_FNNAME_ZU(soname, pthread_barrier_init)(pthread_barrier_t *b, \
		const pthread_barrierattr_t *a, unsigned n)                 \
	{                                                                   \
		OrigFn fn_;                                                 \
		int rc;                                                     \
		VALGRIND_GET_ORIG_FN(fn_);                                  \
		CALL_FN_W_WWW(rc, fn_, b, a, n);                            \
		if (rc == 0)                                                \
			VALGRIND_DO_CLIENT_REQUEST_STMT(PTBPROF_REQ_BARRIER_INIT, b, n, 0, 0, 0); \
		return rc;                                                  \
	}
#define WRAP_CONDWAIT(soname)                                               \
	int I_WRAP_SONAME_FNNAME_ZU(soname, pthread_cond_wait)(pthread_cond_t *c, pthread_mutex_t *m); \
	int I_WRAP_SONAME_FNNAME_ZU(soname, pthread_cond_wait)(pthread_cond_t *c, pthread_mutex_t *m)  \
	{                                                                   \
		OrigFn fn_;                                                 \
		int rc;                                                     \
		VALGRIND_GET_ORIG_FN(fn_);                                  \
		VALGRIND_DO_CLIENT_REQUEST_STMT(PTBPROF_REQ_RELEASE, m, 0, 0, 0, 0); \
		CALL_FN_W_WW(rc, fn_, c, m);                                \
		return acquired(m, 0), rc;                                  \
	}
#define WRAP_CONDTIMEDWAIT(soname)                                          \
	int I_WRAP_SONAME_FNNAME_ZU(soname, pthread_cond_timedwait)(pthread_cond_t *c, \
		pthread_mutex_t *m, const struct timespec *t);              \
	int I_WRAP_SONAME_FNNAME_ZU(soname, pthread_cond_timedwait)(pthread_cond_t *c, \
		pthread_mutex_t *m, const struct timespec *t)               \
	{                                                                   \
		OrigFn fn_;                                                 \
		int rc;                                                     \
		VALGRIND_GET_ORIG_FN(fn_);                                  \
		VALGRIND_DO_CLIENT_REQUEST_STMT(PTBPROF_REQ_RELEASE, m, 0, 0, 0, 0); \
		CALL_FN_W_WWW(rc, fn_, c, m, t);                            \
		return acquired(m, 0), rc;                                  \
	}

/* A thread that yields (typically spinning until another thread has got
 * somewhere) comes back once every other running thread has passed its
 * logical time: so what it reads next does not depend on how far Valgrind
 * let the others run meanwhile, and a spin of the program's own counts the
 * same on every run. */
#define WRAP_YIELD(soname)                                                  \
	int I_WRAP_SONAME_FNNAME_ZU(soname, sched_yield)(void);             \
	int I_WRAP_SONAME_FNNAME_ZU(soname, sched_yield)(void)              \
	{                                                                   \
		OrigFn fn_;                                                 \
		int rc;                                                     \
		VALGRIND_GET_ORIG_FN(fn_);                                  \
		while (VALGRIND_DO_CLIENT_REQUEST_EXPR(1, PTBPROF_REQ_YIELD, 0, 0, 0, 0, 0) == 0) \
			syscall(SYS_sched_yield);                           \
		CALL_FN_W_v(rc, fn_);                                       \
		return rc;                                                  \
	}

/* The sonames Z-encoded (libcZdsoZa is libc.so*), the names plain. */
WRAP_LOCK(libcZdsoZa, pthread_mutex_lock)
WRAP_LOCK(libcZdsoZa, pthread_mutex_trylock)
WRAP_UNLOCK(libcZdsoZa, pthread_mutex_unlock)
WRAP_LOCK(libpthreadZdsoZd0, pthread_mutex_lock)
WRAP_LOCK(libpthreadZdsoZd0, pthread_mutex_trylock)
WRAP_UNLOCK(libpthreadZdsoZd0, pthread_mutex_unlock)
WRAP_BARRIER(libcZdsoZa)
WRAP_BARRIER(libpthreadZdsoZd0)
WRAP_BARRIER_INIT(libcZdsoZa)
WRAP_BARRIER_INIT(libpthreadZdsoZd0)
WRAP_CONDWAIT(libcZdsoZa)
WRAP_CONDWAIT(libpthreadZdsoZd0)
WRAP_CONDTIMEDWAIT(libcZdsoZa)
WRAP_CONDTIMEDWAIT(libpthreadZdsoZd0)
WRAP_YIELD(libcZdsoZa)
