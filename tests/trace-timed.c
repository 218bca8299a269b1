/* SPDX-License-Identifier: MIT */
/*
 * Two threads work MS ms of CPU each while a third wakes every 10 ms from
 * a wait that times out, until they are done (a runtime's housekeeping
 * thread: an interpreter's lock, a virtual machine's timers).  Recorded
 * on one PU, each timeout fires while a worker holds the PU, and the
 * housekeeper then waits behind it; on 2 CPUs the workers run at once,
 * a speed-up of 2 (tests/trace-odd.sh).  HOW: the wait that times out,
 * cond (pthread_cond_timedwait), sem (sem_timedwait) or lock
 * (pthread_mutex_timedlock on a mutex the main thread holds).
 *
 *   trace-timed cond|sem|lock MS
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trace-work.h"

static double work_ns;
static atomic_int done;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER, held = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static sem_t never;
static const char *how;

static void *worker(void *arg)
{
	work_for_ns(work_ns);
	atomic_fetch_add(&done, 1);
	return arg;
}

static struct timespec in_10ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += 10000000;
	if (ts.tv_nsec >= 1000000000)
		ts.tv_sec++, ts.tv_nsec -= 1000000000;
	return ts;
}

static void *housekeeper(void *arg)
{
	while (atomic_load(&done) < 2) {
		struct timespec ts = in_10ms();
		if (!strcmp(how, "cond")) {
			pthread_mutex_lock(&m);
			pthread_cond_timedwait(&c, &m, &ts);
			pthread_mutex_unlock(&m);
		} else if (!strcmp(how, "sem")) {
			while (sem_timedwait(&never, &ts) && errno == EINTR)
				;
		} else {
			pthread_mutex_timedlock(&held, &ts);
		}
	}
	return arg;
}

int main(int argc, char **argv)
{
	how = argc == 3 ? argv[1] : "";
	work_ns = argc == 3 ? atof(argv[2]) * 1e6 : 0;
	if ((strcmp(how, "cond") && strcmp(how, "sem") && strcmp(how, "lock")) || work_ns <= 0)
		return fprintf(stderr, "usage: trace-timed cond|sem|lock MS\n"), 2;
	sem_init(&never, 0, 0);
	pthread_mutex_lock(&held);
	pthread_t h, w[2];
	pthread_create(&h, NULL, housekeeper, NULL);
	for (int i = 0; i < 2; i++)
		pthread_create(&w[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(w[i], NULL);
	pthread_join(h, NULL);
	pthread_mutex_unlock(&held);
	return 0;
}
