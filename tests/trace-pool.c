/* SPDX-License-Identifier: MIT */
/*
 * A pool with an exact answer, for the tests of record and predict: the
 * main thread hands J equal jobs of CPU work, one at a time, to a pool of
 * at most T workers that starts a worker only when none is free (as xz's
 * encoder does).  Handing a job over costs the main thread a hundredth of
 * the job.  On as many CPUs as workers (and one more for the main thread,
 * whose share is small) every job finds the earlier ones still running
 * until T workers run, and each does J/T jobs; the wall time is J/T jobs
 * (a little more: the hand-overs).  A recording on one CPU must see the
 * workers as busy as that: if it lets a worker run its whole job before
 * the pool looks again, the pool keeps one or two workers and the
 * prediction for many CPUs is their time.  It prints the CPU time of one
 * job (the median) and how many jobs each worker did.
 *
 *   trace-pool THREADS JOBS WORK-ITERATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "trace-work.h"

#define MAX_THREADS 64
#define MAX_JOBS 4096

struct worker {
	pthread_t th;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int job, quit, busy, done;
};

static struct worker pool[MAX_THREADS];
static int started, max_workers;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t freed = PTHREAD_COND_INITIALIZER;
static long work_iters;
static double job_ns[MAX_JOBS];
static int jobs_done;

/* A worker waits for a job, does it, and says it is free. */
static void *work(void *arg)
{
	struct worker *w = arg;
	for (;;) {
		pthread_mutex_lock(&w->lock);
		while (!w->job && !w->quit)
			pthread_cond_wait(&w->cond, &w->lock);
		int job = w->job - 1;        /* a job handed over comes before quitting */
		w->job = 0;
		pthread_mutex_unlock(&w->lock);
		if (job < 0)
			return NULL;
		double c = work_cpu_ns();
		work_spin(work_iters);
		double ns = work_cpu_ns() - c;
		pthread_mutex_lock(&pool_lock);
		job_ns[jobs_done++] = ns;
		w->done++;
		w->busy = 0;
		pthread_cond_signal(&freed);
		pthread_mutex_unlock(&pool_lock);
	}
}

/* A free worker, or a new one while there are fewer than the most, or
 * the first to become free. */
static struct worker *free_worker(void)
{
	pthread_mutex_lock(&pool_lock);
	for (;;) {
		for (int i = 0; i < started; i++)
			if (!pool[i].busy) {
				pool[i].busy = 1;
				pthread_mutex_unlock(&pool_lock);
				return &pool[i];
			}
		if (started < max_workers) {
			struct worker *w = &pool[started++];
			w->busy = 1;
			pthread_mutex_init(&w->lock, NULL);
			pthread_cond_init(&w->cond, NULL);
			if (pthread_create(&w->th, NULL, work, w)) {
				fprintf(stderr, "trace-pool: cannot create a worker\n");
				exit(1);
			}
			pthread_mutex_unlock(&pool_lock);
			return w;
		}
		pthread_cond_wait(&freed, &pool_lock);
	}
}

/* Hand worker w job j, or (j < 0) tell it to stop once its job is done. */
static void tell(struct worker *w, int j)
{
	pthread_mutex_lock(&w->lock);
	if (j >= 0)
		w->job = j + 1;
	else
		w->quit = 1;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return fprintf(stderr, "usage: trace-pool THREADS JOBS WORK\n"), 2;
	max_workers = atoi(argv[1]);
	int jobs = atoi(argv[2]);
	work_iters = atol(argv[3]);
	if (max_workers < 1 || max_workers > MAX_THREADS || jobs < 1 || jobs > MAX_JOBS)
		return fprintf(stderr, "trace-pool: 1-%d threads, 1-%d jobs\n", MAX_THREADS, MAX_JOBS), 2;
	for (int j = 0; j < jobs; j++) {
		struct worker *w = free_worker();
		work_spin(work_iters / 100);
		tell(w, j);
	}
	for (int i = 0; i < started; i++)
		tell(&pool[i], -1);
	for (int i = 0; i < started; i++)
		pthread_join(pool[i].th, NULL);
	int done_by[MAX_THREADS];
	for (int i = 0; i < started; i++)
		done_by[i] = pool[i].done;
	work_print_jobs(job_ns, jobs, done_by, started);
	return 0;
}
