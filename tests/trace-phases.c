/* SPDX-License-Identifier: MIT */
/*
 * A program with an exact speed-up, for the tests of record and predict:
 * T worker threads do the same fixed CPU work in P phases separated by a
 * barrier; between phases the main thread alone does a serial part.  On N
 * CPUs a phase takes max(1, T/N) times one thread's work, so the wall time
 * is  P * (serial + work * max(1, T/N)).  It prints the CPU time it
 * measured for one unit of work and for the serial part (each the median
 * over the phases), from which the test derives the expected times.
 *
 *   trace-phases THREADS PHASES WORK-ITERATIONS SERIAL-ITERATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "trace-work.h"

static pthread_barrier_t start, done;
static int phases;
static long work_iters;
static double work_ns[64][256];

static void *worker(void *arg)
{
	long id = (long)arg;
	for (int p = 0; p < phases; p++) {
		pthread_barrier_wait(&start);
		double c = work_cpu_ns();
		work_spin(work_iters);
		work_ns[id][p] = work_cpu_ns() - c;
		pthread_barrier_wait(&done);
	}
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	if (argc != 5)
		return fprintf(stderr, "usage: trace-phases THREADS PHASES WORK SERIAL\n"), 2;
	int n = atoi(argv[1]);
	phases = atoi(argv[2]);
	work_iters = atol(argv[3]);
	long serial_iters = atol(argv[4]);
	if (n < 1 || n > 64 || phases < 1 || phases > 256)
		return fprintf(stderr, "trace-phases: 1-64 threads, 1-256 phases\n"), 2;
	pthread_t th[64];
	double serial[256], all[64 * 256];
	pthread_barrier_init(&start, NULL, (unsigned)n + 1);
	pthread_barrier_init(&done, NULL, (unsigned)n + 1);
	for (long i = 0; i < n; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int p = 0; p < phases; p++) {
		double c = work_cpu_ns();
		work_spin(serial_iters);
		serial[p] = work_cpu_ns() - c;
		pthread_barrier_wait(&start);
		pthread_barrier_wait(&done);
	}
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	for (int i = 0; i < n; i++)
		for (int p = 0; p < phases; p++)
			all[i * phases + p] = work_ns[i][p];
	qsort(serial, (size_t)phases, sizeof serial[0], cmp);
	qsort(all, (size_t)(n * phases), sizeof all[0], cmp);
	printf("work_ns %.0f serial_ns %.0f\n", all[n * phases / 2], serial[phases / 2]);
	return 0;
}
