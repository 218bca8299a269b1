/* SPDX-License-Identifier: MIT */
/*
 * A test-only LD_PRELOAD library that makes the threads library slower on
 * purpose: pthread_mutex_lock spins $PTB_SLOWLOCK_LOOPS empty iterations
 * before calling the real one.  tests/ab.sh compares ptbench with itself
 * under it, to see that `ptbench ab` calls a real slowdown a regression
 * and no slowdown none.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

static int (*real_lock)(pthread_mutex_t *);
static unsigned long loops;

__attribute__((constructor)) static void slowlock_init(void)
{
	const char *s = getenv("PTB_SLOWLOCK_LOOPS");
	real_lock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
	loops = s ? strtoul(s, NULL, 10) : 0;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	for (volatile unsigned long i = 0; i < loops; i++)
		;
	return real_lock(m);
}
