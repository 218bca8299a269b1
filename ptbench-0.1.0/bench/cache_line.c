/* SPDX-License-Identifier: MIT */
/*
 * cache.line: the cache line size from strided accesses (the seed's
 * method i).  The buffer is a chain of blocks, each 2 x the largest stride
 * long, visited in a random cycle (ptb_chase_link over the blocks); in
 * each block two dependent loads read the word at its start and the word
 * `stride` bytes further, which points at the next block.  The first load
 * of a block misses L1 (the blocks are visited at random and together far
 * exceed it); the second hits the line the first brought in while the
 * stride is shorter than a line, and misses once the stride reaches it.
 * The time per load therefore jumps at the stride equal to the line size,
 * and record/levels.c reports that stride (ptb_first_jump).  Dependent
 * loads in random blocks keep stream and stride prefetchers from fetching
 * the second line early; an adjacent-line prefetcher brings it only into
 * L2, so the jump at L1's line remains.
 *
 * Block starts are a power of two plus one line apart, so that they use
 * every set of a cache.  The buffer holds at least 2048 blocks and enough of them that their
 * first lines alone are 4 x hwloc's L1 data cache, on huge pages where
 * the system has them.
 */
#include <stdio.h>

#include "bench/cache.h"

#define MIN_BLOCKS   2048
#define L1_MULTIPLE  4
#define MIN_BLOCK    1024

struct strided {
	struct ptb_hugemem mem;
	void **cur;
};

static struct strided sd;

/* Blocks are 2 x the stride (at least MIN_BLOCK) plus one line, so that
 * their starts fall into every set of a cache rather than the few that a
 * power-of-two spacing maps them to (conflict misses would add a level). */
static size_t block_bytes(long stride)
{
	size_t b = 2 * (size_t)stride > MIN_BLOCK ? 2 * (size_t)stride : MIN_BLOCK;
	return b + PTB_CHASE_SPACING;
}

static size_t block_count(const struct ptb_point *p)
{
	long long want = L1_MULTIPLE * ptb_cache_l1_bytes(p->sys) / PTB_CHASE_SPACING;
	return want > MIN_BLOCKS ? (size_t)want : MIN_BLOCKS;
}

static int line_setup(struct ptb_point *p)
{
	long stride = ptb_point_long(p, "stride");
	size_t bb = block_bytes(stride), nb = block_count(p);

	if (stride % (long)sizeof(void *)) {
		ptb_point_na(p, "stride %ld is not a multiple of a pointer's %zu bytes", stride,
			     sizeof(void *));
		return -1;
	}
	if (ptb_point_mem(p, &sd.mem, bb * nb) < 0)
		return -1;
	char *base = sd.mem.base;
	ptb_chase_link(base, nb, bb, (uint64_t)(uintptr_t)sd.mem.map ^ (uint64_t)stride);
	/* Block start -> its word at `stride` -> the next block's start. */
	for (size_t i = 0; i < nb; i++) {
		char *b = base + i * bb;
		void *next = *(void **)b;
		*(void **)(b + stride) = next;
		*(void **)b = b + stride;
	}
	sd.cur = (void **)base;
	for (size_t i = 0; i < 2 * nb; i++)
		sd.cur = *sd.cur;
	ptb_point_note(p, "blocks", (double)nb);
	p->state = &sd;
	return 0;
}

/* One iteration: the two loads of one block. */
static void line_run(struct ptb_point *p, uint64_t n)
{
	struct strided *s = p->state;
	void **q = s->cur;
	for (uint64_t i = 0; i < n; i++) {
		q = *q;
		q = *q;
	}
	s->cur = q;
}

static void line_teardown(struct ptb_point *p)
{
	struct strided *s = p->state;
	ptb_point_mem_free(&s->mem);
}

static const struct ptb_param line_params[] = {
	{ "stride", NULL, "8,16,32,64,128,256,512", 8, 4096,
	  "bytes between the two loads of a block (a multiple of 8)" },
	{ 0 }
};

static const struct ptb_row_rule line_rows[] = {
	/* match       group                             label       footnote */
	{ "stride=*", "Cache line (strided load pairs)", "%s B",     NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_cache_line = {
	.name = "cache.line",
	.summary = "pairs of dependent loads `stride` bytes apart in randomly visited blocks",
	.per = "load",
	.ops_per_iter = 2,
	.params = line_params,
	.setup = line_setup,
	.run = line_run,
	.teardown = line_teardown,
	.time_weight = 0.4,            /* a point of a curve (ptbench.h) */
	.plausible_ns = { 0.1, 5000 },
	.section = PTB_SECTION_EXTRA,
	.rows = line_rows,
	.levels = { "cache.levels", PTB_LEVELS_LINE, "stride" },
	.suite = PTB_SUITE_EXTENDED,
};
