/* SPDX-License-Identifier: MIT */
/*
 * A test-only LD_PRELOAD library that makes the system refuse resources on
 * purpose, as a low ulimit or a loaded machine would:
 *
 *   PTB_FAIL_CREATE_AFTER=N  pthread_create succeeds N times in a process,
 *                            then returns EAGAIN;
 *   PTB_FAIL_FORK_AFTER=N    fork succeeds N times in a process, then
 *                            returns -1 with errno EAGAIN.
 *
 * Counts are per process (a forked child inherits its parent's count; an
 * exec'd program starts at 0).  tests/limits.sh runs ptbench under it to
 * see that a refused thread or process is an error with its reason, not a
 * crash.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

typedef int (*create_fn)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
typedef pid_t (*fork_fn)(void);

static create_fn real_create;
static fork_fn real_fork;
static long create_left = -1, fork_left = -1;    /* -1: never fail */
static atomic_long creates, forks;

static long limit(const char *name)
{
	const char *s = getenv(name);
	return s && *s ? strtol(s, NULL, 10) : -1;
}

__attribute__((constructor)) static void failing_init(void)
{
	real_create = (create_fn)dlsym(RTLD_NEXT, "pthread_create");
	real_fork = (fork_fn)dlsym(RTLD_NEXT, "fork");
	create_left = limit("PTB_FAIL_CREATE_AFTER");
	fork_left = limit("PTB_FAIL_FORK_AFTER");
}

int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	if (create_left >= 0 && atomic_fetch_add(&creates, 1) >= create_left)
		return EAGAIN;
	return real_create(t, a, fn, arg);
}

pid_t fork(void)
{
	if (fork_left >= 0 && atomic_fetch_add(&forks, 1) >= fork_left) {
		errno = EAGAIN;
		return -1;
	}
	return real_fork();
}
