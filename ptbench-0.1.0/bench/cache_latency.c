/* SPDX-License-Identifier: MIT */
/*
 * cache.latency: the time of one load over working-set sizes, for the
 * cache levels (the seed's growing array, method iii).  The working set of
 * `size` bytes holds one element per 64 bytes, linked into one random
 * cycle (ptb_chase_link); run() follows the links, so every load waits for
 * the one before and no prefetcher can guess the next address.  The
 * figure is the time per load: the latency of whichever level holds the
 * working set.  Plotted over the size it is a staircase, one step per
 * level; record/levels.c reads the steps into the derived cache.levels
 * record (descriptor role `levels`).
 *
 * The memory is on huge pages where the system has them (ptb_point_mem,
 * notes `huge_pages` and, when not all of it, `pages`): on 4 KiB pages a
 * large working set adds a TLB miss to most loads and blurs the steps.
 *
 * Sizes run from 4 KiB to 4 x the last-level cache hwloc reports, so that
 * the last plateau is memory's; a size past that, or past half the memory
 * available, is na with the reason.  The default sweep stops at 256 MiB:
 * building a cycle costs a random write per line, in every trial, and a
 * larger default would double the family's time for sizes that on most
 * machines only repeat memory's plateau.  `-p size=LO..HI` sweeps another
 * range with adaptive refinement near the steps.
 */
#include <stdio.h>

#include "bench/cache.h"

#define MAX_WARM_LOADS (1u << 20)
#define LLC_MULTIPLE   4

struct chase {
	struct ptb_hugemem mem;
	void **cur;
};

static struct chase ch;

/* Why this size is not measured here, or NULL. */
static const char *beyond(const struct ptb_point *p, long long size, char *buf, size_t len)
{
	long long llc = ptb_cache_llc_bytes(p->sys), avail = p->sys->sys.mem_available;
	if (llc > 0 && size > LLC_MULTIPLE * llc) {
		snprintf(buf, len, "beyond %d x the last-level cache (%lld KiB by hwloc): "
			 "memory's plateau is measured below", LLC_MULTIPLE, llc >> 10);
		return buf;
	}
	if (avail > 0 && size > avail / 2) {
		snprintf(buf, len, "more than half the available memory (%lld MiB)", avail >> 20);
		return buf;
	}
	return NULL;
}

static int latency_setup(struct ptb_point *p)
{
	long size = ptb_point_long(p, "size");
	size_t n = (size_t)size / PTB_CHASE_SPACING;
	char why[160];

	if (beyond(p, size, why, sizeof why)) {
		ptb_point_na(p, "%s", why);
		return -1;
	}
	if (ptb_point_mem(p, &ch.mem, (size_t)size) < 0)
		return -1;
	/* A new order in every trial: the mapping's address differs. */
	ptb_chase_link(ch.mem.base, n, PTB_CHASE_SPACING,
		       (uint64_t)(uintptr_t)ch.mem.map ^ (uint64_t)size * 2654435761u);
	ch.cur = ch.mem.base;
	/* Linking touched every element; a short walk settles the order. */
	for (size_t i = 0; i < (n < MAX_WARM_LOADS ? n : MAX_WARM_LOADS); i++)
		ch.cur = *ch.cur;
	ptb_point_note(p, "elements", (double)n);
	p->state = &ch;
	return 0;
}

static void latency_run(struct ptb_point *p, uint64_t n)
{
	struct chase *c = p->state;
	void **q = c->cur;
	for (uint64_t i = 0; i < n; i++)
		q = *q;
	c->cur = q;
}

static void latency_teardown(struct ptb_point *p)
{
	struct chase *c = p->state;
	ptb_point_mem_free(&c->mem);
}

static const struct ptb_param latency_params[] = {
	{ "size", NULL, "4096..268435456", 4096, 1L << 40,
	  "working set in bytes (4 KiB up to 4 x the last-level cache)" },
	{ 0 }
};

static const struct ptb_row_rule latency_rows[] = {
	/* match     group                        label        footnote */
	{ "size=*", "Cache latency (random chase)", "%s B",     NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_cache_latency = {
	.name = "cache.latency",
	.summary = "dependent loads over a random cycle through a working set of `size` bytes",
	.per = "load",
	.ops_per_iter = 1,
	.params = latency_params,
	.setup = latency_setup,
	.run = latency_run,
	.teardown = latency_teardown,
	.time_weight = 0.4,            /* a point of a curve (ptbench.h) */
	.plausible_ns = { 0.1, 5000 },   /* an L1 hit at 10 GHz .. a remote page walk */
	.section = PTB_SECTION_EXTRA,
	.rows = latency_rows,
	.levels = { "cache.levels", PTB_LEVELS_LATENCY, "size" },
	.suite = PTB_SUITE_EXTENDED,
};
