/* SPDX-License-Identifier: MIT */
/*
 * A program whose threads record while another thread writes their
 * buffers (tests/trace-odd.sh): W threads each take and release a mutex
 * of their own N times (pthread_mutex_trylock, pthread_mutex_unlock)
 * while the main thread tries E execs of a program that does not exist;
 * each exec writes every thread's buffer as it stands.
 *
 *   trace-race W N E
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long turns;

static void *lock_and_unlock(void *arg)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	for (long i = 0; i < turns; i++)
		if (pthread_mutex_trylock(&m) == 0)
			pthread_mutex_unlock(&m);
	return arg;
}

int main(int argc, char **argv)
{
	enum { MAX_THREADS = 16 };
	int w = argc == 4 ? atoi(argv[1]) : 0, execs = argc == 4 ? atoi(argv[3]) : -1;
	turns = argc == 4 ? atol(argv[2]) : 0;
	if (w < 1 || w > MAX_THREADS || turns < 1 || execs < 0)
		return fprintf(stderr, "usage: trace-race W(1-16) N E\n"), 2;
	pthread_t t[MAX_THREADS];
	for (int i = 0; i < w; i++)
		pthread_create(&t[i], NULL, lock_and_unlock, NULL);
	char *args[] = { "program", NULL };
	for (int i = 0; i < execs; i++)
		execv("/nonexistent/program", args);
	for (int i = 0; i < w; i++)
		pthread_join(t[i], NULL);
	return 0;
}
