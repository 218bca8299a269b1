/* SPDX-License-Identifier: MIT */
/*
 * An independent check of what `ptbench predict` charges for waking a
 * thread onto an idle CPU (docs/wake-check.sh): preloaded into a real
 * run, it times every pthread_cond_signal and pthread_cond_broadcast
 * call with the monotonic clock, and the main thread's condition waits,
 * and at exit appends one line to $WAKE_CHECK_OUT:
 *
 *   calls=N slow=N slow_ms=T main_calls=N main_slow=N main_signal_ms=T
 *   main_cpu_ms=T main_waits=N main_wait_ms=T
 *
 * "slow": calls of $WAKE_CHECK_SLOW_NS (default 3000) or more, the ones
 * that woke a thread on another, idle CPU where that costs the caller
 * microseconds (an interrupt to that CPU; on a virtual machine an exit to
 * the host).  Nothing here shares code with ptbench's interposer.
 *
 *   cc -O2 -shared -fPIC -o wake-check.so docs/wake-check.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static _Atomic long calls, slow, main_calls, main_slow, main_waits;
static _Atomic long long slow_ns, main_signal_ns, main_wait_ns;
static long long slow_from = 3000;

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

static int is_main(void)
{
	return gettid() == getpid();
}

static void count_signal(long long ns)
{
	int late = ns >= slow_from;
	atomic_fetch_add(&calls, 1);
	if (late) {
		atomic_fetch_add(&slow, 1);
		atomic_fetch_add(&slow_ns, ns);
	}
	if (is_main()) {
		atomic_fetch_add(&main_calls, 1);
		atomic_fetch_add(&main_signal_ns, ns);
		atomic_fetch_add(&main_slow, late);
	}
}

/* The symbol versions of glibc's current condition variables: a plain
 * dlsym would find the old ones (GLIBC_2.2.5) first. */
static void *next(const char *name)
{
	void *f = dlvsym(RTLD_NEXT, name, "GLIBC_2.3.2");
	return f ? f : dlsym(RTLD_NEXT, name);
}

/* Call glibc's `name` (found once into *real) on c, timed. */
static int timed(int (**real)(pthread_cond_t *), const char *name, pthread_cond_t *c)
{
	if (!*real)
		*real = (int (*)(pthread_cond_t *))next(name);
	long long t = now_ns();
	int rc = (*real)(c);
	count_signal(now_ns() - t);
	return rc;
}

int pthread_cond_signal(pthread_cond_t *c)
{
	static int (*real)(pthread_cond_t *);
	return timed(&real, "pthread_cond_signal", c);
}

int pthread_cond_broadcast(pthread_cond_t *c)
{
	static int (*real)(pthread_cond_t *);
	return timed(&real, "pthread_cond_broadcast", c);
}

int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
	static int (*real)(pthread_cond_t *, pthread_mutex_t *);
	if (!real)
		real = next("pthread_cond_wait");
	long long t = now_ns();
	int rc = real(c, m);
	if (is_main()) {
		atomic_fetch_add(&main_waits, 1);
		atomic_fetch_add(&main_wait_ns, now_ns() - t);
	}
	return rc;
}

__attribute__((constructor)) static void start(void)
{
	const char *s = getenv("WAKE_CHECK_SLOW_NS");
	if (s && atoll(s) > 0)
		slow_from = atoll(s);
}

/* Run by the thread that exits, the main one for a program that returns
 * from main or calls exit there: its CPU clock is the main thread's. */
__attribute__((destructor)) static void report(void)
{
	const char *path = getenv("WAKE_CHECK_OUT");
	FILE *f = path ? fopen(path, "a") : NULL;
	struct timespec cpu;
	if (!f)
		return;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
	fprintf(f, "calls=%ld slow=%ld slow_ms=%.2f main_calls=%ld main_slow=%ld main_signal_ms=%.2f "
		"main_cpu_ms=%.2f main_waits=%ld main_wait_ms=%.2f\n",
		(long)calls, (long)slow, slow_ns / 1e6, (long)main_calls, (long)main_slow,
		main_signal_ns / 1e6, cpu.tv_sec * 1e3 + cpu.tv_nsec / 1e6, (long)main_waits,
		main_wait_ns / 1e6);
	fclose(f);
}
