/* SPDX-License-Identifier: MIT */
/*
 * Two threads that take turns through a pair of pipes, with CPU work at
 * each turn: they synchronize, but by no call the interposer sees, so
 * `ptbench predict --check` must refuse the trace.
 *
 *   trace-pipe TURNS WORK-ITERATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int ping[2], pong[2], turns;
static long work;
static volatile double sink;

static void spin(void)
{
	double x = 1.0;
	for (long i = 0; i < work; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
}

static void *partner(void *arg)
{
	char c;
	for (int i = 0; i < turns; i++) {
		if (read(ping[0], &c, 1) != 1)
			break;
		spin();
		if (write(pong[1], &c, 1) != 1)
			break;
	}
	return arg;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return fprintf(stderr, "usage: trace-pipe TURNS WORK\n"), 2;
	turns = atoi(argv[1]);
	work = atol(argv[2]);
	if (pipe(ping) || pipe(pong))
		return perror("pipe"), 1;
	pthread_t t;
	pthread_create(&t, NULL, partner, NULL);
	char c = 'x';
	for (int i = 0; i < turns; i++) {
		spin();
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			return 1;
	}
	pthread_join(t, NULL);
	return 0;
}
