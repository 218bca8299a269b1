/* SPDX-License-Identifier: MIT */
/*
 * The corun benchmark's loop as a program (docs/corun-validation.sh): T
 * threads, each updating a table of SIZE bytes of its own at N
 * pseudo-random entries, joined at the end.  On one PU they run in turn,
 * each alone; on k CPUs k of them run at once and compete for the shared
 * cache and memory, which `predict --machine --working-set SIZE` is to
 * account for.  Prints the sum of the loads, so the work cannot vanish.
 *
 *   corun-loop T SIZE N
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
	uint64_t *t, mask, n, x, acc;
};

static void *work(void *arg)
{
	struct job *j = arg;
	uint64_t x = j->x, acc = 0;
	for (uint64_t i = 0; i < j->n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t h = (x * 0x9E3779B97F4A7C15ull) >> 20 & j->mask;
		acc += j->t[h];
		j->t[h] = acc + i;
	}
	j->acc = acc;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return fprintf(stderr, "usage: corun-loop T SIZE N\n"), 2;
	int nt = atoi(argv[1]);
	uint64_t size = strtoull(argv[2], NULL, 0), n = strtoull(argv[3], NULL, 0), e = 1;
	if (nt < 1 || nt > 64 || size < 16 || !n)
		return fprintf(stderr, "corun-loop: bad arguments\n"), 2;
	while (e * 16 <= size)
		e *= 2;
	pthread_t th[64];
	struct job j[64];
	for (int i = 0; i < nt; i++) {
		j[i] = (struct job){ calloc(e, 8), e - 1, n, 88172645463325252ull + 2 * (uint64_t)i, 0 };
		if (!j[i].t)
			return fprintf(stderr, "corun-loop: out of memory\n"), 1;
		for (uint64_t k = 0; k < e; k++)
			j[i].t[k] = k;
	}
	for (int i = 0; i < nt; i++)
		pthread_create(&th[i], NULL, work, &j[i]);
	uint64_t sum = 0;
	for (int i = 0; i < nt; i++)
		pthread_join(th[i], NULL), sum += j[i].acc;
	printf("%llu\n", (unsigned long long)sum);
	return 0;
}
