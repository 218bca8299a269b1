/* SPDX-License-Identifier: MIT */
/*
 * A thread bound by its kernel thread number to another CPU than its
 * creator's (a runtime that keeps gettid() and pins its workers), for
 * tests/record-process.sh: recorded, both must stay on the one PU (bound
 * for real, the worker ran beside its creator).  Prints the CPU each
 * ended its 50 ms of work on.
 *
 *   trace-bind
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace-work.h"

static pid_t worker_tid;
static sem_t started, go;

static void *worker(void *arg)
{
	worker_tid = (pid_t)syscall(SYS_gettid);
	sem_post(&started);
	sem_wait(&go);
	work_for_ns(50e6);
	printf("worker on %d\n", sched_getcpu());
	return arg;
}

int main(void)
{
	sem_init(&started, 0, 0);
	sem_init(&go, 0, 0);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	sem_wait(&started);
	cpu_set_t allowed, one;
	sched_getaffinity(0, sizeof allowed, &allowed);
	int last = -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed))
			last = c;
	CPU_ZERO(&one);
	CPU_SET(last, &one);
	sched_setaffinity(worker_tid, sizeof one, &one);   /* the last CPU it may use */
	sem_post(&go);
	work_for_ns(50e6);
	pthread_join(t, NULL);
	printf("main on %d\n", sched_getcpu());
	return 0;
}
