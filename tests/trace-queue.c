/* SPDX-License-Identifier: MIT */
/*
 * A work queue with an exact answer, for the tests of record and predict:
 * T worker threads wait until the main thread has queued J equal jobs of
 * CPU work at once; each takes the next job when it has finished one.  On
 * as many CPUs as workers, the jobs go round the workers, worker i doing
 * ceil or floor of J/T of them, and the wall time is ceil(J/T) jobs; on
 * fewer CPUs, the same shares shared fairly.  A recording on one CPU must
 * hand the jobs round the same way (after taking a job, a worker lets the
 * next one take its own), or the prediction for many CPUs would keep the
 * one worker that took them all.  It prints the CPU time of one job (the
 * median) and how many jobs each worker did.
 *
 *   trace-queue THREADS JOBS WORK-ITERATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "trace-work.h"

#define MAX_THREADS 64
#define MAX_JOBS 4096

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queued = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t ready;
static int jobs, next_job, released;
static long work_iters;
static double job_ns[MAX_JOBS];
static int done_by[MAX_THREADS];

/* The next job, or -1 when none is left. */
static int take(void)
{
	pthread_mutex_lock(&lock);
	while (!released)
		pthread_cond_wait(&queued, &lock);
	int j = next_job < jobs ? next_job++ : -1;
	pthread_mutex_unlock(&lock);
	return j;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	pthread_barrier_wait(&ready);
	for (int j; (j = take()) >= 0;) {
		double c = work_cpu_ns();
		work_spin(work_iters);
		job_ns[j] = work_cpu_ns() - c;
		done_by[id]++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return fprintf(stderr, "usage: trace-queue THREADS JOBS WORK\n"), 2;
	int n = atoi(argv[1]);
	jobs = atoi(argv[2]);
	work_iters = atol(argv[3]);
	if (n < 1 || n > MAX_THREADS || jobs < 1 || jobs > MAX_JOBS)
		return fprintf(stderr, "trace-queue: 1-%d threads, 1-%d jobs\n", MAX_THREADS, MAX_JOBS), 2;
	pthread_t th[MAX_THREADS];
	pthread_barrier_init(&ready, NULL, (unsigned)n + 1);
	for (long i = 0; i < n; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	pthread_barrier_wait(&ready);
	pthread_mutex_lock(&lock);
	released = 1;
	pthread_cond_broadcast(&queued);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	work_print_jobs(job_ns, jobs, done_by, n);
	return 0;
}
