/* SPDX-License-Identifier: MIT */
/*
 * For docs/gate-power.sh: an LD_PRELOAD library that makes
 * pthread_mutex_lock slower by a chain of $PTB_LOCK_ADDS dependent adds
 * before the real call.  Both sides of the gate preload it, base with 0
 * adds, so that the adds are the only difference.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

static int (*real_lock)(pthread_mutex_t *);
static int adds;

__attribute__((constructor)) static void lock_adds_init(void)
{
	const char *s = getenv("PTB_LOCK_ADDS");
	real_lock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
	adds = s ? atoi(s) : 0;
}

int pthread_mutex_lock(pthread_mutex_t *m)
{
	unsigned long x = (unsigned long)m;
	for (int i = 0; i < adds; i++) {
		x += 1;
		__asm__ volatile("" : "+r"(x));   /* one dependent add each */
	}
	if (x == 0)
		abort();
	return real_lock(m);
}
