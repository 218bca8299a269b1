/* SPDX-License-Identifier: MIT */
/*
 * The cache benchmarks' shared pieces (bench/cache.h).
 */
#include <string.h>

#include "bench/cache.h"

uint64_t ptb_cache_rand(uint64_t *state)
{
	uint64_t x = *state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545F4914F6CDD1Dull;
}

void ptb_chase_link(void *base, size_t n, size_t spacing, uint64_t seed)
{
	char *b = base;
	uint64_t state = seed ? seed : 1;
	for (size_t i = 0; i < n; i++)
		*(void **)(b + i * spacing) = b + i * spacing;
	/* Sattolo: swap each link with one of a strictly earlier element, so
	 * that the permutation i -> link[i] is a single cycle. */
	for (size_t i = n - 1; i > 0; i--) {
		size_t j = (size_t)(ptb_cache_rand(&state) % i);
		void **a = (void **)(b + i * spacing), **c = (void **)(b + j * spacing);
		void *t = *a;
		*a = *c;
		*c = t;
	}
}

long long ptb_cache_llc_bytes(const struct ptb_system *sys)
{
	const struct ptb_topo_counts *c = &sys->counts;
	return c->ncaches ? c->caches[c->ncaches - 1].bytes : 0;
}

long long ptb_cache_l1_bytes(const struct ptb_system *sys)
{
	const struct ptb_topo_counts *c = &sys->counts;
	return c->ncaches ? c->caches[0].bytes : 0;
}

static const char *const layout_names[] = {
	[PTB_SHARE_TRUE] = "true", [PTB_SHARE_FALSE] = "false",
	[PTB_SHARE_PADDED] = "padded", [PTB_SHARE_READ] = "read",
};

int ptb_share_layout_from_name(const char *name)
{
	for (size_t i = 0; name && i < sizeof layout_names / sizeof *layout_names; i++)
		if (!strcmp(name, layout_names[i]))
			return (int)i;
	return -1;
}

void ptb_share_words(enum ptb_share_layout layout, void *block, volatile uint64_t **w0,
		     volatile uint64_t **w1)
{
	char *b = block;
	static const size_t second[] = {
		[PTB_SHARE_TRUE] = 0, [PTB_SHARE_FALSE] = sizeof(uint64_t),
		[PTB_SHARE_PADDED] = PTB_SHARE_SPAN, [PTB_SHARE_READ] = sizeof(uint64_t),
	};
	*w0 = (volatile uint64_t *)b;
	*w1 = (volatile uint64_t *)(b + second[layout]);
}
