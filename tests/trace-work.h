/* SPDX-License-Identifier: MIT */
/*
 * The CPU work of the test programs of record and predict (tests/trace-*.c):
 * a loop the compiler cannot drop, the thread's CPU clock that the
 * programs report their medians from, and the line the job programs print.
 */
#ifndef PTB_TESTS_TRACE_WORK_H
#define PTB_TESTS_TRACE_WORK_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile double work_sink;

/* This thread's CPU time, ns. */
static inline double work_cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* n iterations of floating-point work. */
static inline void work_spin(long n)
{
	double x = 1.0;
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	work_sink = x;
}

/* ns of this thread's CPU time spent working. */
static inline void work_for_ns(double ns)
{
	double t0 = work_cpu_ns();
	while (work_cpu_ns() - t0 < ns)
		work_spin(1000);
}

static inline void *work_50ms_thread(void *arg)
{
	work_for_ns(50e6);
	return arg;
}

/* Two threads working 50 ms each, started and joined: the trace has work. */
static inline void work_two_threads_50ms(void)
{
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, work_50ms_thread, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
}

static inline int work_cmp_ns(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* "job_ns MEDIAN done_by N ...": the median of the jobs' CPU times
 * (job_ns, sorted here) and how many jobs each worker did. */
static inline void work_print_jobs(double *job_ns, int jobs, const int *done_by, int workers)
{
	qsort(job_ns, (size_t)jobs, sizeof job_ns[0], work_cmp_ns);
	printf("job_ns %.0f done_by", job_ns[jobs / 2]);
	for (int i = 0; i < workers; i++)
		printf(" %d", done_by[i]);
	printf("\n");
}

#endif
