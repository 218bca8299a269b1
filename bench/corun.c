/* SPDX-License-Identifier: MIT */
/*
 * corun.table: how much a CPU-bound loop that touches its own memory slows when
 * k copies of it run at once, one per PU, against one alone -- the shared
 * last-level cache and memory bandwidth that a program's threads compete
 * for once they run in parallel, which a recording on one PU cannot see.
 * `ptbench predict --machine` reads the slowdown from these points
 * (cli/machine-costs.c: the figure at threads=k over the one at threads=1,
 * at the working-set size nearest the one the user names).
 *
 * Each copy updates a table of `size` bytes of its own at pseudo-random
 * places (a xorshift stream, a multiplicative hash, a load and a store of
 * the entry), as a compressor's match finder does with its hash table: the
 * loads are independent, so the loop is bound by the latency and the
 * bandwidth of the level the table lives in, with some arithmetic between.
 * Sizes at 4x steps from 256 KiB (the L2 of most cores) to 128 MiB (beyond
 * most L3s) give the curve: the slowdown is largest where one copy's table
 * fits the shared cache and k copies' do not.
 *
 * The main thread is the first copy; a client on each of the next PUs
 * (spread: one per core first) waits at a start line that run() raises,
 * so no copy works outside a timing, and the main thread waits at the end
 * of run() until every copy has done its n updates.  The figure is the
 * wall time per update of one copy, all k running together.  The tables
 * are one region (huge pages where offered) touched by the main thread:
 * on a NUMA machine the copies on other nodes read remote memory.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "bench/common.h"

#define CACHE_LINE 64

struct copy {
	_Alignas(CACHE_LINE) uint64_t *table;
	uint64_t mask;                  /* entries - 1 (a power of two) */
	uint64_t x, acc;                /* the random stream; the loads' sum */
	uint64_t gen;                   /* the last start it ran */
	struct corun *c;
};

struct corun {
	int copies;
	struct ptb_hugemem mem;
	_Alignas(CACHE_LINE) _Atomic uint64_t start;
	_Alignas(CACHE_LINE) _Atomic uint64_t done;   /* copies finished, all timings */
	uint64_t timings;
	struct copy copy[PTB_MAX_CLIENTS + 1];
};

static struct corun co;

/* n updates at pseudo-random entries of the copy's table. */
static void update(struct copy *k, uint64_t n)
{
	uint64_t *t = k->table, mask = k->mask, x = k->x, acc = k->acc;
	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t h = (x * 0x9E3779B97F4A7C15ull) >> 20 & mask;
		acc += t[h];
		t[h] = acc + i;
	}
	k->x = x, k->acc = acc;
}

static void client_body(void *arg, uint64_t n)
{
	struct copy *k = arg;
	for (uint64_t i = 1; atomic_load_explicit(&k->c->start, memory_order_acquire) == k->gen; i++)
		ptb_client_testcancel(i);
	k->gen++;
	update(k, n);
	atomic_fetch_add_explicit(&k->c->done, 1, memory_order_release);
}

static const struct ptb_client_ops client_ops = { .body = client_body };

static void corun_run(struct ptb_point *p, uint64_t n)
{
	struct corun *c = p->state;
	atomic_store_explicit(&c->start, ++c->copy[0].gen, memory_order_release);
	update(&c->copy[0], n);
	ptb_bench_await(&c->done, (uint64_t)(c->copies - 1) * ++c->timings);
}

/* The largest power of two of 8-byte entries in `bytes`. */
static uint64_t entries_in(size_t bytes)
{
	uint64_t e = 1;
	while (e * 2 * sizeof(uint64_t) <= bytes)
		e *= 2;
	return e;
}

static int corun_setup(struct ptb_point *p)
{
	static int pus[PTB_MAX_CLIENTS + 1];
	int k = (int)ptb_point_long(p, "threads");
	size_t size = (size_t)ptb_point_long(p, "size");
	size_t stride = (size + 4095) / 4096 * 4096;          /* each copy's own pages */
	long long avail = p->sys->sys.mem_available;
	if (avail > 0 && (double)stride * k > avail / 2.0) {
		ptb_point_na(p, "%d tables of %zu bytes: more than half the available memory "
			     "(%lld MiB)", k, size, avail >> 20);
		return -1;
	}
	memset(&co, 0, sizeof co);
	co.copies = k;
	if (ptb_bench_place_group(p, "spread", k, pus) < 0)
		return -1;
	if (ptb_point_mem(p, &co.mem, stride * (size_t)k) < 0) {
		ptb_bench_unpin(p);
		return -1;
	}
	for (int i = 0; i < k; i++)
		co.copy[i] = (struct copy){ .table = (uint64_t *)((char *)co.mem.base + stride * i),
					    .mask = entries_in(size) - 1,
					    .x = 88172645463325252ull + 2 * (uint64_t)i, .c = &co };
	p->state = &co;
	for (int i = 1; i < k; i++)
		if (ptb_client_start_on(p, pus[i], &client_ops, &co.copy[i]) < 0) {
			ptb_clients_cancel(p);   /* none may touch the tables now */
			ptb_point_mem_free(&co.mem);
			ptb_bench_unpin(p);
			return -1;
		}
	return 0;
}

/* The clients are cancelled: nothing touches the tables any more. */
static void corun_teardown(struct ptb_point *p)
{
	struct corun *c = p->state;
	ptb_point_mem_free(&c->mem);
	p->state = NULL;
	ptb_bench_unpin(p);
}

static int corun_defaults(const struct ptb_system *sys, const char *var, char *buf, size_t len)
{
	return strcmp(var, "threads") ? -1 : ptb_defaults_pu_counts(sys, buf, len);
}

static const struct ptb_param corun_params[] = {
	{ "threads", NULL, "1,2,4,8,16,32,64,128,256", 1, PTB_MAX_CLIENTS + 1,
	  "copies running at once, one per PU (default: 1, 2, 4, ... and every allowed PU)", 0 },
	{ "size", NULL, "262144,2097152,8388608,33554432,134217728", 4096, 1L << 30,
	  "bytes of each copy's table", 0 },
	{ 0 }
};

const struct ptb_bench ptb_bench_corun = {
	.name = "corun.table",
	.summary = "k copies of a loop updating a table of its own, one per PU, at once",
	.per = "update",
	.ops_per_iter = 1,
	.params = corun_params,
	.defaults_here = corun_defaults,
	.setup = corun_setup,
	.run = corun_run,
	.teardown = corun_teardown,
	/* an update: 0.1 ns .. a time slice that a copy waited for its PU, over
	 * the few updates of a short timing on a loaded machine */
	.plausible_ns = { 0.1, 1e8 },
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.machine = { PTB_MACHINE_CORUN, "threads;size", 1 },
};
