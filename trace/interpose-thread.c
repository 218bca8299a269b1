/* SPDX-License-Identifier: MIT */
/*
 * Threads and the process's ends under the interposer: create (the new
 * thread is numbered by its creator, so a join can name it), exit, join,
 * detach, yield; sleeps as off-CPU time; _exit and exec write the trace
 * before the process image goes away (exit does it in the destructor); a
 * program that asks for the default action of a fatal signal gets it with
 * the trace written first (trace/interpose-signal.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "trace/interpose.h"

struct start { void *(*fn)(void *); void *arg; uint32_t tid, parent; };

static void ended(void *unused)
{
	(void)unused;
	ptb_tr_thread_end();
}

static void *trampoline(void *p)
{
	struct start s = *(struct start *)p;
	free(p);
	ptb_tr_thread_start(s.tid, s.parent);
	void *r;
	pthread_cleanup_push(ended, NULL);      /* a cancelled thread ends too */
	r = s.fn(s.arg);
	pthread_cleanup_pop(1);
	return r;
}

int pthread_create(pthread_t *th, const pthread_attr_t *attr, void *(*fn)(void *), void *arg)
{
	PTB_REAL(int, "pthread_create", (pthread_t *, const pthread_attr_t *, void *(*)(void *), void *));
	struct start *s = ptb_tr_on ? malloc(sizeof *s) : NULL;
	if (!s)
		return real_fn(th, attr, fn, arg);
	*s = (struct start){ fn, arg, ptb_tr_new_tid(), ptb_tr_tid() };
	uint32_t tid = s->tid;
	ptb_tr_order_create(tid, (const void *)fn);
	int rc = real_fn(th, attr, trampoline, s);
	if (rc) {
		ptb_tr_order_unborn(tid);
		free(s);
		return rc;
	}
	ptb_tr_thread_map((uint64_t)*th, tid);
	ptb_tr_event(PTB_EV_CREATE, PTB_PH_INSTANT, NULL, tid, 0, PTB_SITE);
	return rc;
}

void pthread_exit(void *r)
{
	PTB_REAL(void, "pthread_exit", (void *));
	ptb_tr_thread_exit();
	real_fn(r);
	__builtin_unreachable();
}

int pthread_join(pthread_t th, void **r)
{
	PTB_REAL(int, "pthread_join", (pthread_t, void **));
	uint32_t tid = ptb_tr_thread_lookup((uint64_t)th);
	const void *site = PTB_SITE;
	ptb_tr_cpu();
	ptb_tr_event(PTB_EV_JOIN, PTB_PH_ENTER, NULL, tid, 0, site);
	int rc = real_fn(th, r);
	ptb_tr_event(PTB_EV_JOIN, PTB_PH_LEAVE, NULL, tid, rc ? PTB_OUT_ERROR : 0, site);
	return rc;
}

int pthread_detach(pthread_t th)
{
	PTB_REAL(int, "pthread_detach", (pthread_t));
	ptb_tr_event(PTB_EV_DETACH, PTB_PH_INSTANT, NULL, ptb_tr_thread_lookup((uint64_t)th), 0, PTB_SITE);
	return real_fn(th);
}

int sched_yield(void)
{
	PTB_REAL(int, "sched_yield", (void));
	ptb_tr_event(PTB_EV_YIELD, PTB_PH_INSTANT, NULL, 0, 0, PTB_SITE);
	ptb_tr_order_pause();
	int rc = real_fn();
	ptb_tr_order_resumed();
	return rc;
}

/* A sleep: off-CPU for as long as it lasted, less the time its thread
 * then waited for the PU (on the one PU of the recording, behind a
 * sibling that held it when the sleep ended), read from schedstat for a
 * sleep of 1 ms or more only (some microseconds) and carried in the
 * leave event as microseconds + 1 (0: not read). */
#define SLEEP_MIN_NS 1000000
#define SLEEP_AROUND(ns, call) \
	const void *site = PTB_SITE; \
	ptb_tr_cpu(); \
	uint64_t q0 = (ns) >= SLEEP_MIN_NS && ptb_tr_recording() ? ptb_tr_runq_ns() : UINT64_MAX; \
	ptb_tr_event(PTB_EV_SLEEP, PTB_PH_ENTER, NULL, 0, 0, site); \
	int rc = (call); \
	int errno_ = errno; \
	uint64_t q1 = q0 == UINT64_MAX ? UINT64_MAX : ptb_tr_runq_ns(); \
	uint64_t rq = q1 == UINT64_MAX || q1 < q0 ? 0 : (q1 - q0) / 1000 + 1; \
	ptb_tr_event(PTB_EV_SLEEP, PTB_PH_LEAVE, NULL, rq > UINT32_MAX ? UINT32_MAX : (uint32_t)rq, \
		     0, site); \
	errno = errno_; \
	return rc

static uint64_t ns_of(const struct timespec *t)
{
	return t && t->tv_sec >= 0 ? (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec : 0;
}

/* How long a clock_nanosleep asks for (until an absolute time: from now). */
static uint64_t asked_ns(clockid_t c, int flags, const struct timespec *req)
{
	struct timespec now;
	if (!(flags & TIMER_ABSTIME))
		return ns_of(req);
	if (clock_gettime(c, &now))
		return 0;
	uint64_t a = ns_of(req), b = ns_of(&now);
	return a > b ? a - b : 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	PTB_REAL(int, "nanosleep", (const struct timespec *, struct timespec *));
	SLEEP_AROUND(ns_of(req), real_fn(req, rem));
}

int clock_nanosleep(clockid_t c, int flags, const struct timespec *req, struct timespec *rem)
{
	PTB_REAL(int, "clock_nanosleep", (clockid_t, int, const struct timespec *, struct timespec *));
	SLEEP_AROUND(asked_ns(c, flags, req), real_fn(c, flags, req, rem));
}

int usleep(useconds_t us)
{
	PTB_REAL(int, "usleep", (useconds_t));
	SLEEP_AROUND((uint64_t)us * 1000, real_fn(us));
}

unsigned int sleep(unsigned int s)
{
	PTB_REAL(unsigned int, "sleep", (unsigned int));
	SLEEP_AROUND((uint64_t)s * 1000000000u, (int)real_fn(s));
}

void _exit(int status)
{
	PTB_REAL(void, "_exit", (int));
	ptb_tr_finish();
	real_fn(status);
	__builtin_unreachable();
}

void _Exit(int status)
{
	PTB_REAL(void, "_Exit", (int));
	ptb_tr_finish();
	real_fn(status);
	__builtin_unreachable();
}

void quick_exit(int status)
{
	PTB_REAL(void, "quick_exit", (int));
	ptb_tr_finish();
	real_fn(status);
	__builtin_unreachable();
}

/* An exec replaces the image: the trace is written first (the new image
 * goes on with it if this one never started a thread, else records
 * nothing), and goes on if the exec fails.  A vfork child's exec leaves
 * its parent's trace alone.  The forms without an environment pass the
 * process's own through the forms with one, which the trace may need to
 * add to. */
#define EXEC_AROUND(envp, call) \
	char *const *env_ = (envp); \
	int written = ptb_tr_exec_begin(&env_); \
	int rc = (call); \
	int errno_ = errno; \
	if (written) \
		ptb_tr_exec_failed(); \
	errno = errno_; \
	return rc

int execve(const char *path, char *const argv[], char *const envp[])
{
	PTB_REAL(int, "execve", (const char *, char *const[], char *const[]));
	EXEC_AROUND(envp, real_fn(path, argv, env_));
}

int execv(const char *path, char *const argv[])
{
	PTB_REAL(int, "execve", (const char *, char *const[], char *const[]));
	EXEC_AROUND(environ, real_fn(path, argv, env_));
}

int execvp(const char *file, char *const argv[])
{
	PTB_REAL(int, "execvpe", (const char *, char *const[], char *const[]));
	EXEC_AROUND(environ, real_fn(file, argv, env_));
}

int execvpe(const char *file, char *const argv[], char *const envp[])
{
	PTB_REAL(int, "execvpe", (const char *, char *const[], char *const[]));
	EXEC_AROUND(envp, real_fn(file, argv, env_));
}

int fexecve(int fd, char *const argv[], char *const envp[])
{
	PTB_REAL(int, "fexecve", (int, char *const[], char *const[]));
	EXEC_AROUND(envp, real_fn(fd, argv, env_));
}

int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	PTB_REAL(int, "execveat", (int, const char *, char *const[], char *const[], int));
	EXEC_AROUND(envp, real_fn(dirfd, path, argv, env_, flags));
}

/* execl, execlp, execle: their arguments as a vector, for the calls above
 * (the C library's own would call its execve inside, unseen). */
#define ARGV_OF(first, ap, argv) \
	size_t n_ = 1; \
	va_start(ap, first); \
	while (va_arg(ap, char *)) \
		n_++; \
	va_end(ap); \
	char *argv[n_ + 1]; \
	argv[0] = (char *)(first); \
	va_start(ap, first); \
	for (size_t i_ = 1; i_ <= n_; i_++) \
		argv[i_] = va_arg(ap, char *)

int execl(const char *path, const char *arg, ...)
{
	va_list ap;
	ARGV_OF(arg, ap, argv);
	va_end(ap);
	return execv(path, argv);
}

int execlp(const char *file, const char *arg, ...)
{
	va_list ap;
	ARGV_OF(arg, ap, argv);
	va_end(ap);
	return execvp(file, argv);
}

int execle(const char *path, const char *arg, ...)
{
	va_list ap;
	ARGV_OF(arg, ap, argv);
	char *const *envp = va_arg(ap, char *const *);
	va_end(ap);
	return execve(path, argv, envp);
}
