/* SPDX-License-Identifier: MIT
 * The two-thread parallel radix sort of Faroughi's multi-cache profiling
 * study, written from its description: 32-bit keys, four passes of 8-bit
 * slices; each pass counts the slice locally, adds the counts into the
 * shared histogram globalCnt, builds the offset table (thread 0 the lower
 * half, thread 1 the upper) and scatters the keys into the other buffer.
 * `profile-radix 1 N` adds each entry under the lock (the paper's Version
 * I), `profile-radix 2 N` takes the lock once around the loop (Version II).
 * Exits 0 when the keys come out sorted. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 65536

static unsigned buffer[2][MAXN];
static int globalCnt[256];
static int lower[2][256];
static int table[256];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t bar;
static volatile int final[16];
static volatile int flag[16];
static int version, nitems;

struct info { int min, max, pid; };

static void add_counts(const int *counters)
{
	if (version == 1) {
		for (int i = 0; i < 256; i++) {
			pthread_mutex_lock(&lock);
			globalCnt[i] = globalCnt[i] + counters[i];
			pthread_mutex_unlock(&lock);
		}
	} else {
		pthread_mutex_lock(&lock);
		for (int i = 0; i < 256; i++)
			globalCnt[i] = globalCnt[i] + counters[i];
		pthread_mutex_unlock(&lock);
	}
}

static void offsets(int pid, const int *counters)
{
	if (pid == 0) {
		table[0] = 0;
		for (int i = 1; i < 128; i++)
			table[i] = table[i - 1] + globalCnt[i - 1];
	} else {
		int sum = 0;
		for (int i = 0; i < 128; i++)
			sum += globalCnt[i];
		table[128] = sum;
		for (int i = 129; i < 256; i++)
			table[i] = table[i - 1] + globalCnt[i - 1];
	}
	for (int c = 0; c < 256; c++)      /* keys of the lower thread come first */
		lower[pid][c] = pid ? globalCnt[c] - counters[c] : 0;
}

static void *sort_sublist(void *arg)
{
	const struct info *in = arg;
	int pid = in->pid, inb = 0, outb = 1, counters[256];
	flag[0] = 1;
	for (int pass = 0; pass < 4; pass++) {
		memset(counters, 0, sizeof counters);
		memset(&lower[pid][0], 0, 256 * sizeof(int));
		memset(&globalCnt[pid * 128], 0, 128 * sizeof(int));
		for (int i = in->min; i < in->max; i++)
			counters[(buffer[inb][i] >> (pass << 3)) & 0xFF]++;
		pthread_barrier_wait(&bar);       /* local histograms done */
		add_counts(counters);
		pthread_barrier_wait(&bar);       /* the global histogram done */
		offsets(pid, counters);
		pthread_barrier_wait(&bar);       /* the offset table done */
		for (int i = in->min; i < in->max; i++) {
			int c = (buffer[inb][i] >> (pass << 3)) & 0xFF;
			buffer[outb][table[c] + lower[pid][c]] = buffer[inb][i];
			lower[pid][c]++;
		}
		pthread_barrier_wait(&bar);       /* one pass done */
		if (pid == 0)
			final[0] = outb;
		int t = inb;
		inb = outb;
		outb = t;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	unsigned x = 12345;
	version = argc > 1 ? atoi(argv[1]) : 1;
	nitems = argc > 2 ? atoi(argv[2]) : 1024;
	if ((version != 1 && version != 2) || nitems < 2 || nitems > MAXN) {
		fprintf(stderr, "usage: profile-radix 1|2 [N up to %d]\n", MAXN);
		return 2;
	}
	for (int i = 0; i < nitems; i++)
		buffer[0][i] = x = x * 1103515245u + 12345u;
	pthread_barrier_init(&bar, NULL, 2);
	struct info info1 = { 0, nitems / 2, 0 }, info2 = { nitems / 2, nitems, 1 };
	pthread_create(&t, NULL, sort_sublist, &info1);
	while (flag[0] == 0)             /* wait until thread 0 has started */
		sched_yield();
	sort_sublist(&info2);
	pthread_join(t, NULL);
	for (int i = 1; i < nitems; i++)
		if (buffer[final[0]][i - 1] > buffer[final[0]][i])
			return 1;
	return 0;
}
