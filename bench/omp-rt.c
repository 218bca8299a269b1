/* SPDX-License-Identifier: MIT */
/*
 * The OpenMP code of the omp benchmarks (bench/omp.c): the one file of
 * ptbench compiled with the compiler's OpenMP flag, built as the module
 * ptbench-omp.so and dlopened by the benchmark in its trial process.
 *
 * Each directive is measured as EPCC's syncbench (Bull et al.) measures
 * it: run(kind, n) is n repetitions of the directive around a delay, and
 * reference(kind, n) the same n delays run by one thread; the harness
 * times both and takes the difference.  The delay is EPCC's: a loop of
 * dependent integer adds, `delay` iterations long.  Where the delay sits:
 *
 *   parallel      n x { parallel { delay } }
 *   for           parallel { n x { for schedule(runtime), one iteration per
 *                 thread: delay } }
 *   parallel_for  n x { parallel for schedule(runtime), one iteration per
 *                 thread: delay }
 *   barrier       parallel { n x { delay; barrier } }
 *   single        parallel { n x { single { delay } } }
 *   critical      parallel { n / T each: critical { delay } }
 *   lock          parallel { n / T each: set_lock; delay; unset_lock }
 *   ordered       parallel for ordered schedule(static,1), n iterations:
 *                 ordered { delay }
 *   atomic        parallel { n / T each: atomic x += 1 }; the reference is
 *                 n plain adds by one thread (EPCC's, no delay)
 *   reduction     n x { parallel reduction(+:x) { delay; x += 1 } }
 *
 * Counters kept by the directives themselves let verify() say whether
 * the runtime did what the directive promises.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "bench/omp-rt.h"

static int team, delay_len;
static omp_lock_t lock;
static int lock_ready;
static uint64_t counter, expected;
static int order_broken;

static void delay(int len)
{
	int a = 0;
	for (int i = 0; i < len; i++) {
		a += i;
		__asm__ volatile("" : "+r"(a));   /* neither folded nor vectorized */
	}
}

static int prepare(int threads, const char *schedule, int dly, int *cpus)
{
	static const struct { const char *name; omp_sched_t kind; } scheds[] = {
		{ "static", omp_sched_static }, { "dynamic", omp_sched_dynamic },
		{ "guided", omp_sched_guided },
	};
	for (size_t i = 0; i < sizeof scheds / sizeof scheds[0]; i++)
		if (schedule && !strcmp(schedule, scheds[i].name))
			omp_set_schedule(scheds[i].kind, 0);
	omp_set_dynamic(0);
	omp_set_num_threads(threads);
	delay_len = dly;
	if (!lock_ready) {
		omp_init_lock(&lock);
		lock_ready = 1;
	}
	int got = 0;
#pragma omp parallel
	{
		int me = omp_get_thread_num();
		if (me < PTBOMP_MAX_THREADS)
			cpus[me] = sched_getcpu();
#pragma omp single
		got = omp_get_num_threads();
	}
	team = got;
	return got;
}

/* n repetitions split among the team: thread t takes t, t + T, ... */
#define SHARE(j, n) for (uint64_t j = (uint64_t)omp_get_thread_num(); j < (n); \
			 j += (uint64_t)omp_get_num_threads())

static void run_team(enum ptbomp_kind kind, uint64_t n)
{
	uint64_t sum = 0;
	switch (kind) {
	case PTBOMP_PARALLEL:
		for (uint64_t j = 0; j < n; j++) {
#pragma omp parallel
			delay(delay_len);
		}
		break;
	case PTBOMP_FOR:
#pragma omp parallel
		for (uint64_t j = 0; j < n; j++) {
#pragma omp for schedule(runtime)
			for (int i = 0; i < team; i++)
				delay(delay_len);
		}
		break;
	case PTBOMP_PARALLEL_FOR:
		for (uint64_t j = 0; j < n; j++) {
#pragma omp parallel for schedule(runtime)
			for (int i = 0; i < team; i++)
				delay(delay_len);
		}
		break;
	case PTBOMP_BARRIER:
#pragma omp parallel
		for (uint64_t j = 0; j < n; j++) {
			delay(delay_len);
#pragma omp barrier
		}
		break;
	case PTBOMP_SINGLE:
#pragma omp parallel
		for (uint64_t j = 0; j < n; j++) {
#pragma omp single
			{
				delay(delay_len);
				counter++;
			}
		}
		expected += n;
		break;
	case PTBOMP_CRITICAL:
#pragma omp parallel
		SHARE(j, n) {
#pragma omp critical
			{
				delay(delay_len);
				counter++;
			}
		}
		expected += n;
		break;
	case PTBOMP_LOCK:
#pragma omp parallel
		SHARE(j, n) {
			omp_set_lock(&lock);
			delay(delay_len);
			counter++;
			omp_unset_lock(&lock);
		}
		expected += n;
		break;
	case PTBOMP_ORDERED: {
		uint64_t last = 0;
#pragma omp parallel for ordered schedule(static, 1)
		for (uint64_t j = 0; j < n; j++) {
#pragma omp ordered
			{
				delay(delay_len);
				order_broken |= j != last;
				last = j + 1;
				counter++;
			}
		}
		expected += n;
		break;
	}
	case PTBOMP_ATOMIC:
#pragma omp parallel
		SHARE(j, n) {
#pragma omp atomic
			counter += 1;
		}
		expected += n;
		break;
	case PTBOMP_REDUCTION:
		for (uint64_t j = 0; j < n; j++) {
#pragma omp parallel reduction(+ : sum)
			{
				delay(delay_len);
				sum += 1;
			}
		}
		counter += sum;
		expected += n * (uint64_t)team;
		break;
	}
}

static void reference(enum ptbomp_kind kind, uint64_t n)
{
	if (kind == PTBOMP_ATOMIC) {
		uint64_t x = 0;
		for (uint64_t j = 0; j < n; j++) {
			x += 1;
			__asm__ volatile("" : "+r"(x));
		}
		return;
	}
	for (uint64_t j = 0; j < n; j++)
		delay(delay_len);
}

static const char *verify(enum ptbomp_kind kind, uint64_t n)
{
	(void)kind;
	(void)n;
	if (order_broken)
		return "an ordered region ran out of the loop's order";
	if (counter != expected)
		return "the directive's counter disagrees with the repetitions: "
		       "the runtime let two threads in at once or skipped one";
	return NULL;
}

static const char *runtime_file(void)
{
	Dl_info info;
	if (dladdr((void *)omp_get_num_threads, &info) && info.dli_fname)
		return info.dli_fname;
	return NULL;
}

/* A hard pause (OpenMP 5.0) ends the runtime as its shutdown would;
 * looked up, so that a runtime without it still loads the module. */
static void release(void)
{
	enum { PAUSE_HARD = 2 };        /* omp_pause_hard */
	int (*pause_all)(int) = (int (*)(int))dlsym(RTLD_DEFAULT, "omp_pause_resource_all");
	if (pause_all)
		pause_all(PAUSE_HARD);
}

const struct ptbomp_module ptbomp_module = { prepare, run_team, reference, runtime_file,
					     verify, release };
