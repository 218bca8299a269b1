/* SPDX-License-Identifier: MIT */
/*
 * A small seeded generator (splitmix64) for the order in which trials run:
 * the same seed gives the same rounds on every machine and C library, so a
 * run's schedule can be replayed from the seed recorded in its file.
 */
#ifndef PTB_STATS_RANDOM_H
#define PTB_STATS_RANDOM_H

#include <stdint.h>

struct ptb_rng {
	uint64_t state;
};

void ptb_rng_seed(struct ptb_rng *r, uint64_t seed);
uint64_t ptb_rng_next(struct ptb_rng *r);
/* Uniform in [0, n), without modulo bias; n > 0. */
uint64_t ptb_rng_below(struct ptb_rng *r, uint64_t n);
/* Fisher-Yates shuffle of n ints. */
void ptb_rng_shuffle(struct ptb_rng *r, int *x, int n);

#endif
