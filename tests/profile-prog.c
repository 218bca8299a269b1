/* SPDX-License-Identifier: MIT
 * Programs with known answers for tests/profile.sh: `profile-prog MODE N`.
 *   pingpong  two threads hand one line back and forth N times each
 *   adjacent  two threads increment adjacent ints of a static struct N times
 *   apart     the same with the ints 64 bytes apart
 *   heap      the adjacent ints in a malloc'd block
 *   mutex     two threads increment a counter under a mutex N times each
 *   condvar   two threads take turns N times each, waiting on a condition
 *             variable for the baton, and increment the counter
 *   pinned1   the ping-pong, both threads pinned to one CPU
 *   pinned2   the ping-pong, the threads pinned to two CPUs (exit 3: only one)
 *   stall     a thread waits in a system call the profiler does not know to
 *             block (opening a FIFO) while main makes N stores, each to
 *             another line of those the thread touched first
 *   roi       adjacent ints before PTBPROF_START, a ping-pong after it
 *   exit      prints a line and exits with status N
 *   crash     dies of SIGSEGV */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile/ptbench-profile.h"

static long n;

static struct { volatile int turn; } __attribute__((aligned(64))) pingpong;
static struct { volatile int a, b; } __attribute__((aligned(64))) adjacent;
static struct { volatile int a; char pad[60]; volatile int b; } __attribute__((aligned(128))) apart;
static volatile int *heap;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *player(void *arg)
{
	int me = (int)(long)arg;
	for (long i = 0; i < n; i++) {
		while (pingpong.turn != me)
			sched_yield();
		pingpong.turn = !me;
	}
	return NULL;
}

/* pinned1/pinned2: the ping-pong with each player pinned to a CPU, the
 * first the program may use, or the first two; one by sched_setaffinity
 * of itself (pid 0), the other by pthread_setaffinity_np (its tid). */
static int cpus[2];
static int two(void *(*body)(void *));

static void *pinned_player(void *arg)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpus[arg != 0], &set);
	if (arg ? pthread_setaffinity_np(pthread_self(), sizeof set, &set)
		: sched_setaffinity(0, sizeof set, &set))
		exit(4);
	return player(arg);
}

static int pinned(int apart)
{
	cpu_set_t set;
	int k = 0;
	if (sched_getaffinity(0, sizeof set, &set))
		return 4;
	for (int c = 0; c < CPU_SETSIZE && k < 2; c++)
		if (CPU_ISSET(c, &set))
			cpus[k++] = c;
	if (apart && k < 2)
		return 3;                /* one CPU only: the caller skips */
	if (!apart)
		cpus[1] = cpus[0];
	return two(pinned_player);
}

static void *inc_adjacent(void *arg)
{
	volatile int *w = arg ? &adjacent.b : &adjacent.a;
	for (long i = 0; i < n; i++)
		(*w)++;
	return NULL;
}

static void *inc_apart(void *arg)
{
	volatile int *w = arg ? &apart.b : &apart.a;
	for (long i = 0; i < n; i++)
		(*w)++;
	return NULL;
}

static void *inc_heap(void *arg)
{
	volatile int *w = heap + (arg ? 1 : 0);
	for (long i = 0; i < n; i++)
		(*w)++;
	return NULL;
}

static void *inc_locked(void *arg)
{
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static long baton;

static void *relay(void *arg)
{
	long me = (long)arg;
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&lock);
		while (baton != me)
			pthread_cond_wait(&cv, &lock);
		baton = !me;
		counter++;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static char fifo[64];
static volatile char stall_lines[1 << 20];
static volatile int stall_ready;

static void *opener(void *arg)
{
	int fd;
	/* Touches every line first, so that main's stores to them are events:
	 * a line one thread alone touches makes none after its first. */
	for (size_t i = 0; i < sizeof stall_lines; i += 64)
		(void)stall_lines[i];
	stall_ready = 1;
	fd = open(fifo, O_RDONLY);   /* until main opens it for writing */
	if (fd >= 0)
		close(fd);
	return NULL;
}

static int stall(void)
{
	pthread_t t;
	int fd;
	snprintf(fifo, sizeof fifo, "stall-fifo.%ld", (long)getpid());
	if (mkfifo(fifo, 0600))
		return 1;
	pthread_create(&t, NULL, opener, NULL);
	while (!stall_ready)
		sched_yield();
	for (long i = 0; i < n; i++)      /* a new line each time: an event each */
		stall_lines[(i * 64) % sizeof stall_lines]++;
	fd = open(fifo, O_WRONLY);
	pthread_join(t, NULL);
	unlink(fifo);
	if (fd >= 0)
		close(fd);
	return 0;
}

static int two(void *(*body)(void *))
{
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, body, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	n = argc > 2 ? atol(argv[2]) : 1000;
	if (!strcmp(mode, "pingpong"))
		return two(player);
	if (!strcmp(mode, "adjacent"))
		return two(inc_adjacent);
	if (!strcmp(mode, "apart"))
		return two(inc_apart);
	if (!strcmp(mode, "heap")) {
		heap = calloc(2, sizeof *heap);   /* the heap site */
		return two(inc_heap);
	}
	if (!strcmp(mode, "mutex")) {
		two(inc_locked);
		return counter == 2 * n ? 0 : 1;
	}
	if (!strcmp(mode, "condvar")) {
		two(relay);
		return counter == 2 * n ? 0 : 1;
	}
	if (!strcmp(mode, "roi")) {
		two(inc_adjacent);       /* not counted */
		PTBPROF_START();
		return two(player);
	}
	if (!strcmp(mode, "stall"))
		return stall();
	if (!strcmp(mode, "pinned1") || !strcmp(mode, "pinned2"))
		return pinned(mode[6] == '2');
	if (!strcmp(mode, "exit")) {
		printf("exiting with %ld\n", n);
		return (int)n;
	}
	if (!strcmp(mode, "crash"))
		*(volatile int *)(long)(argc - argc) = 1;
	fprintf(stderr, "usage: profile-prog pingpong|pinned1|pinned2|adjacent|apart|heap|mutex|condvar|roi|stall|exit|crash N\n");
	return 2;
}
