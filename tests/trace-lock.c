/* SPDX-License-Identifier: MIT */
/*
 * A program whose speed-up a lock caps at 2, for the tests of record and
 * predict: T threads each do K iterations of the same CPU work twice,
 * once holding one mutex and once not.  On N CPUs the wall time is
 * max(T*K*inside, T*K*(inside+outside)/N): the lock lets one thread in at
 * a time.  It prints the CPU time it measured for one piece of work
 * inside and outside the lock (medians), from which the test derives the
 * expected times.
 *
 *   trace-lock THREADS ITERATIONS WORK-ITERATIONS [_exit|spin]
 *
 * With "_exit" it ends by _exit(5), as some compressors do, skipping the
 * destructors a trace might otherwise be written from.  With "spin" the
 * lock is a POSIX spin lock, whose waiter spins on its CPU.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_T 16
#define MAX_K 1024

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_spinlock_t spin_lock;
static int spinning;
static int iters;
static long work;
static double in_ns[MAX_T * MAX_K], out_ns[MAX_T * MAX_K];
static volatile double sink;

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static double spin(long n)
{
	double c = cpu_ns(), x = 1.0;
	for (long i = 0; i < n; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
	return cpu_ns() - c;
}

static void *worker(void *arg)
{
	long id = (long)arg;
	for (int k = 0; k < iters; k++) {
		if (spinning)
			pthread_spin_lock(&spin_lock);
		else
			pthread_mutex_lock(&lock);
		in_ns[id * iters + k] = spin(work);
		if (spinning)
			pthread_spin_unlock(&spin_lock);
		else
			pthread_mutex_unlock(&lock);
		out_ns[id * iters + k] = spin(work);
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
	int quick_exit = argc == 5 && !strcmp(argv[4], "_exit");
	spinning = argc == 5 && !strcmp(argv[4], "spin");
	if (argc != 4 && !quick_exit && !spinning)
		return fprintf(stderr, "usage: trace-lock THREADS ITERATIONS WORK [_exit|spin]\n"), 2;
	pthread_spin_init(&spin_lock, PTHREAD_PROCESS_PRIVATE);
	int n = atoi(argv[1]);
	iters = atoi(argv[2]);
	work = atol(argv[3]);
	if (n < 1 || n > MAX_T || iters < 1 || iters > MAX_K)
		return fprintf(stderr, "trace-lock: 1-%d threads, 1-%d iterations\n", MAX_T, MAX_K), 2;
	pthread_t th[MAX_T];
	for (long i = 0; i < n; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	size_t all = (size_t)n * (size_t)iters;
	qsort(in_ns, all, sizeof in_ns[0], cmp);
	qsort(out_ns, all, sizeof out_ns[0], cmp);
	printf("inside_ns %.0f outside_ns %.0f\n", in_ns[all / 2], out_ns[all / 2]);
	if (quick_exit) {
		fflush(stdout);
		_exit(5);
	}
	return 0;
}
