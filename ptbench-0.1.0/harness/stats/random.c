/* SPDX-License-Identifier: MIT */
/*
 * splitmix64 (Steele, Lea and Flood, OOPSLA 2014): one 64-bit state, a
 * fixed increment and a mixing function; every seed is a good seed, which
 * is what a user-given --seed needs.
 */
#include "config.h"

#include "stats/random.h"

void ptb_rng_seed(struct ptb_rng *r, uint64_t seed)
{
	r->state = seed;
}

uint64_t ptb_rng_next(struct ptb_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

uint64_t ptb_rng_below(struct ptb_rng *r, uint64_t n)
{
	/* Reject the top partial block so every residue is equally likely. */
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;
	do
		x = ptb_rng_next(r);
	while (x >= limit);
	return x % n;
}

void ptb_rng_shuffle(struct ptb_rng *r, int *x, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)ptb_rng_below(r, (uint64_t)i + 1);
		int t = x[i];
		x[i] = x[j];
		x[j] = t;
	}
}
