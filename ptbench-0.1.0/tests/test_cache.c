/* SPDX-License-Identifier: MIT */
/*
 * The mechanisms of the cache and user-thread benchmarks: the chase's
 * random order is one cycle through every element (and differs between
 * seeds), the sharing layouts put the two words where they claim, and the
 * ucontext switch alternates as claimed, counted switch by switch -- with
 * a check that fails when the counts do not add up.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/cache.h"
#include "tap.h"

/* Follow the links from element 0: steps until it returns, and whether
 * every element was visited exactly once on the way. */
static size_t cycle_length(char *base, size_t n, size_t spacing, bool *each_once)
{
	char *seen = calloc(n, 1);
	size_t steps = 0;
	void **p = (void **)base;
	*each_once = seen != NULL;
	do {
		size_t i = (size_t)((char *)p - base) / spacing;
		if (!seen || i >= n || seen[i]++)
			*each_once = false;
		p = *p;
		steps++;
	} while ((char *)p != base && steps <= n);
	free(seen);
	return steps;
}

static void chase(void)
{
	static const size_t sizes[] = { 1, 2, 3, 64, 1000, 4099 };
	static const size_t spacings[] = { 64, 64, 128, 64, 72, 64 };
	for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
		size_t n = sizes[k], sp = spacings[k];
		char *buf = calloc(n, sp);
		bool once;
		ptb_chase_link(buf, n, sp, 42 + k);
		size_t len = cycle_length(buf, n, sp, &once);
		tap_ok(len == n && once, "%zu elements %zu B apart: one cycle through all (%zu steps)",
		       n, sp, len);
		free(buf);
	}
	size_t n = 256, same = 0;
	char *a = calloc(n, 64), *b = calloc(n, 64);
	ptb_chase_link(a, n, 64, 1);
	ptb_chase_link(b, n, 64, 2);
	for (size_t i = 0; i < n; i++)
		same += *(char **)(a + i * 64) - a == *(char **)(b + i * 64) - b;
	tap_ok(same < n / 4, "two seeds give different orders (%zu of %zu links alike)", same, n);
	size_t sequential = 0;
	for (size_t i = 0; i < n; i++)
		sequential += *(char **)(a + i * 64) == a + ((i + 1) % n) * 64;
	tap_ok(sequential < n / 8, "the order is not the address order (%zu next-line links)",
	       sequential);
	free(a);
	free(b);
}

static size_t line_of(const volatile void *p, size_t line)
{
	return (size_t)(uintptr_t)p / line;
}

static void layouts(void)
{
	static _Alignas(PTB_SHARE_SPAN) char block[2 * PTB_SHARE_SPAN];
	volatile uint64_t *w0, *w1;
	tap_ok(ptb_share_layout_from_name("true") == PTB_SHARE_TRUE &&
	       ptb_share_layout_from_name("read") == PTB_SHARE_READ &&
	       ptb_share_layout_from_name("nope") == -1, "layout names");
	ptb_share_words(PTB_SHARE_TRUE, block, &w0, &w1);
	tap_ok(w0 == w1, "true: one word");
	for (int l = PTB_SHARE_FALSE; l <= PTB_SHARE_READ; l += PTB_SHARE_READ - PTB_SHARE_FALSE) {
		ptb_share_words(l, block, &w0, &w1);
		bool ok = w0 != w1 && (char *)w1 - (char *)w0 >= (long)sizeof(uint64_t);
		for (size_t line = 16; line <= 256; line *= 2)
			ok &= line_of(w0, line) == line_of(w1, line);
		tap_ok(ok, "%s: two distinct words in one line of any size 16..256 B",
		       l == PTB_SHARE_FALSE ? "false" : "read");
	}
	ptb_share_words(PTB_SHARE_PADDED, block, &w0, &w1);
	bool apart = true;
	for (size_t line = 32; line <= 128; line *= 2)
		apart &= line_of(w0, line) != line_of(w1, line);
	tap_ok(apart && line_of(w1, 128) - line_of(w0, 128) >= 2 &&
	       (char *)w1 + sizeof(uint64_t) <= block + sizeof block,
	       "padded: different lines, not even neighbouring 128-byte pairs, inside the block");
}

static double note(const struct ptb_point *p, const char *key)
{
	for (int i = 0; i < p->nnotes; i++)
		if (!strcmp(p->note_key[i], key))
			return p->note_val[i];
	return -1;
}

static void uthreads(void)
{
	const struct ptb_bench *sw = ptb_bench_find("uthread.switch");
	const struct ptb_bench *cr = ptb_bench_find("uthread.create");
	if (ptb_uthread_missing()) {
		tap_ok(sw && sw->unsupported(NULL) && cr && cr->unsupported(NULL),
		       "no ucontext here: both are na (%s)", ptb_uthread_missing());
		return;
	}
	struct ptb_point p = { .bench = sw };
	tap_ok(sw && sw->setup(&p) == 0, "uthread.switch: setup");
	sw->run(&p, 1000);
	sw->check(&p, 1000);
	tap_ok(p.verdict == PTB_OK && note(&p, "to_thread") == 1000 && note(&p, "to_main") == 1000 &&
	       note(&p, "out_of_turn") == 0,
	       "1000 iterations: 1000 switches each way, none out of turn (%s)", p.reason);
	sw->run(&p, 10);
	sw->check(&p, 11);
	tap_ok(p.verdict == PTB_ERROR && strstr(p.reason, "did not alternate"),
	       "a count that does not add up is an error (%s)", p.reason);
	sw->teardown(&p);

	struct ptb_point q = { .bench = cr };
	bool ok = cr && cr->setup(&q) == 0;
	if (ok) {
		cr->run(&q, 500);
		cr->check(&q, 500);
		cr->teardown(&q);
	}
	tap_ok(ok && q.verdict == PTB_OK && note(&q, "created") == 500,
	       "uthread.create: 500 made, each ran once");
}

int main(void)
{
	chase();
	layouts();
	uthreads();
	tap_done();
	return tap_exit();
}
