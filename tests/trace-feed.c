/* SPDX-License-Identifier: MIT */
/*
 * A fed queue with an exact answer, for the tests of record and predict:
 * pbzip2's reader in miniature.  T workers wait on an empty queue of T
 * places; the main thread then puts J equal jobs in, one at a time, each
 * under the queue's lock with a signal (and, as pbzip2 does, a second
 * lock taken inside the first), waiting while the queue is full.  Putting
 * a job in costs the main thread a thousandth of the job.  On as many
 * CPUs as workers each signal wakes a worker that takes its job at once,
 * so the jobs go round the workers as in tests/trace-queue.c.  On one PU
 * the woken worker must run before the main thread takes the lock back:
 * if not, the main thread fills the queue first, and whichever worker
 * gets the lock takes the jobs it finds there one after another (14 jobs
 * by 8 workers were recorded as 0, 1, 1, 1, 2, 3, 3 and 3, or as 0, 0,
 * 0, 0, 2, 4, 4 and 4: the shares vary from one recording to the
 * next).  It prints the CPU time of one job (the median) and how many
 * jobs each worker did.
 *
 * `idle`: 4 workers wait on the queue; one signal wakes one, which
 * leaves, and the other 3 stay asleep while the main thread locks and
 * unlocks the queue's lock UNLOCKS times beside a thread that works in
 * steps of 20 us with a sched_yield between (so that a needless yield of
 * the recorder finds a thread to run, and is recorded).  A recording must
 * not yield at each of those unlocks for waiters no signal woke.
 *
 *   trace-feed THREADS JOBS WORK-ITERATIONS
 *   trace-feed idle UNLOCKS
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace-work.h"

#define MAX_THREADS 64
#define MAX_JOBS 4096

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t inner = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t all_in = PTHREAD_COND_INITIALIZER;   /* every worker waits */
static int queued, places, waiting, finished;
static long work_iters;
static double job_ns[MAX_JOBS];
static int jobs_done, done_by[MAX_THREADS];

/* A worker takes jobs until the queue is empty and nothing more comes. */
static void *work(void *arg)
{
	int me = (int)(long)arg;
	for (;;) {
		pthread_mutex_lock(&queue_lock);
		if (++waiting == places)
			pthread_cond_signal(&all_in);
		while (!queued && !finished)
			pthread_cond_wait(&not_empty, &queue_lock);
		waiting--;
		if (!queued) {
			pthread_mutex_unlock(&queue_lock);
			return NULL;
		}
		queued--;
		pthread_cond_signal(&not_full);
		pthread_mutex_unlock(&queue_lock);
		double c = work_cpu_ns();
		work_spin(work_iters);
		double ns = work_cpu_ns() - c;
		pthread_mutex_lock(&queue_lock);
		job_ns[jobs_done++] = ns;
		done_by[me]++;
		pthread_mutex_unlock(&queue_lock);
	}
}

/* Put one job in, waiting while the queue is full. */
static void put(void)
{
	work_spin(work_iters / 1000);
	pthread_mutex_lock(&queue_lock);
	while (queued == places)
		pthread_cond_wait(&not_full, &queue_lock);
	queued++;
	pthread_cond_signal(&not_empty);
	pthread_mutex_lock(&inner);
	pthread_mutex_unlock(&inner);
	pthread_mutex_unlock(&queue_lock);
}

static atomic_int stepping = 1;

/* Work in steps of 20 us of CPU time, yielding between them. */
static void *step(void *arg)
{
	while (atomic_load(&stepping)) {
		work_for_ns(20000);
		sched_yield();
	}
	return arg;
}

/* The `idle` case: one of 4 waiters woken, then `unlocks` lock/unlock
 * pairs with the other 3 asleep. */
static int idle(int unlocks)
{
	pthread_t th[4], stepper;
	places = 4;
	for (int i = 0; i < 4; i++)
		if (pthread_create(&th[i], NULL, work, (void *)(long)i))
			return fprintf(stderr, "trace-feed: cannot create a worker\n"), 1;
	pthread_mutex_lock(&queue_lock);
	while (waiting < 4)
		pthread_cond_wait(&all_in, &queue_lock);
	pthread_mutex_unlock(&queue_lock);
	put();                           /* one job: one worker woken */
	if (pthread_create(&stepper, NULL, step, NULL))
		return fprintf(stderr, "trace-feed: cannot create a thread\n"), 1;
	for (int i = 0; i < unlocks; i++) {
		pthread_mutex_lock(&queue_lock);
		pthread_mutex_unlock(&queue_lock);
		work_spin(2000);
	}
	atomic_store(&stepping, 0);
	pthread_join(stepper, NULL);
	pthread_mutex_lock(&queue_lock);
	finished = 1;
	pthread_cond_broadcast(&not_empty);
	pthread_mutex_unlock(&queue_lock);
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	printf("done_by %d %d %d %d\n", done_by[0], done_by[1], done_by[2], done_by[3]);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "idle"))
		return idle(atoi(argv[2]));
	if (argc != 4)
		return fprintf(stderr, "usage: trace-feed THREADS JOBS WORK | idle UNLOCKS\n"), 2;
	int threads = atoi(argv[1]), jobs = atoi(argv[2]);
	work_iters = atol(argv[3]);
	if (threads < 1 || threads > MAX_THREADS || jobs < 1 || jobs > MAX_JOBS)
		return fprintf(stderr, "trace-feed: 1-%d threads, 1-%d jobs\n", MAX_THREADS, MAX_JOBS), 2;
	places = threads;
	pthread_t th[MAX_THREADS];
	for (int i = 0; i < threads; i++)
		if (pthread_create(&th[i], NULL, work, (void *)(long)i))
			return fprintf(stderr, "trace-feed: cannot create a worker\n"), 1;
	/* every worker waiting on the empty queue before the first job (the
	 * last one in tells, and is in its wait once the lock is free) */
	pthread_mutex_lock(&queue_lock);
	while (waiting < threads)
		pthread_cond_wait(&all_in, &queue_lock);
	pthread_mutex_unlock(&queue_lock);
	for (int j = 0; j < jobs; j++)
		put();
	pthread_mutex_lock(&queue_lock);
	finished = 1;
	pthread_cond_broadcast(&not_empty);
	pthread_mutex_unlock(&queue_lock);
	for (int i = 0; i < threads; i++)
		pthread_join(th[i], NULL);
	work_print_jobs(job_ns, jobs, done_by, threads);
	return 0;
}
