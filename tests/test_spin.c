/* SPDX-License-Identifier: MIT */
/*
 * The rule by which `ptbench record` tells a thread that spins or polls
 * from one that works (ptb_samples_spin, platform/threads.c), on the
 * addresses of samples of its user code: a table of cases with exact
 * answers.  The poll's addresses are those a waitpid poll through the
 * interposer gave on a 16-vCPU Xeon guest (11 addresses in the program,
 * the C library and the interposer; 108 samples of the 500 a thread at
 * work all along would give); work in short system calls -- a pread of a
 * cached file in 4 KiB pieces, summed -- gave a reviewer 141-149 samples
 * at 34-38 addresses, fewer than half in user space too.
 */
#include <stdint.h>
#include <stdio.h>

#include "platform/threads.h"
#include "tap.h"

#define MAX 2000

static const uint64_t xeon_poll[] = {
	0x556d76d9f0af, 0x7fdfcb5bccae, 0x7fdfcb49cbdb, 0x7fdfcb49cbd3, 0x7fdfcb5bcca0,
	0x7fdfcb5bcc98, 0x7fdfcb5bcc90, 0x556d76d9f0a0, 0x7fdfcb49cbc7, 0x556d76d9f040,
	0x7fdfcb5bccbf,
};

/* n samples going round `distinct` addresses: from the table above when
 * regions is 0, else spread over regions far apart, step bytes apart. */
static size_t fill(uint64_t *ip, size_t n, size_t distinct, int regions, uint64_t step)
{
	for (size_t i = 0; i < n; i++) {
		size_t k = i % distinct;
		if (!regions)
			ip[i] = xeon_poll[k % (sizeof xeon_poll / sizeof xeon_poll[0])];
		else
			ip[i] = 0x400000 + (uint64_t)(k % (size_t)regions) * 0x7f0000000000 / (uint64_t)regions +
				(k / (size_t)regions) * step;
	}
	return n;
}

static const struct {
	const char *what;
	size_t n, distinct; int regions; uint64_t step;
	size_t polls_below;  /* 0: spins only */
	int want;
} cases[] = {
	{ "19 samples: too few to say",                         19,  3,  1, 4,   250, -1 },
	{ "a spin: 3 addresses within 8 bytes",                 500, 3,  1, 4,   0,   1 },
	{ "a spin of 12 addresses within 500 bytes",            500, 12, 1, 40,  0,   1 },
	{ "13 addresses within 500 bytes: a short loop of work", 500, 13, 1, 38,  0,   0 },
	{ "a short loop of work, 40 addresses in 400 bytes",    500, 40, 1, 10,  0,   0 },
	{ "the Xeon's poll, asked as a spin",                   108, 11, 0, 0,   0,   0 },
	{ "the Xeon's poll, asked as a poll",                   108, 11, 0, 0,   250, 1 },
	{ "a poll at 16 addresses in 3 places",                 120, 16, 3, 8,   250, 1 },
	{ "17 addresses: not a poll",                           120, 17, 3, 8,   250, 0 },
	{ "work in short system calls (pread of a cached file): 145 samples at 36 addresses",
								145, 36, 3, 8,   250, 0 },
	{ "work that reads a clock: 11 addresses, all its time user", 500, 11, 2, 8, 250, 0 },
	{ "work just at half the samples",                      250, 11, 2, 8,   250, 0 },
	{ "a poll just under half",                             249, 11, 2, 8,   250, 1 },
};

int main(void)
{
	static uint64_t ip[MAX];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		size_t n = fill(ip, cases[i].n, cases[i].distinct, cases[i].regions, cases[i].step);
		int got = ptb_samples_spin(ip, n, cases[i].polls_below);
		tap_ok(got == cases[i].want, "%s: %d (want %d)", cases[i].what, got, cases[i].want);
	}
	/* the same addresses in any order, and repeated, are the same answer */
	size_t n = fill(ip, 108, 11, 0, 0);
	for (size_t i = 0; i < n / 2; i++) {
		uint64_t t = ip[i];
		ip[i] = ip[n - 1 - i], ip[n - 1 - i] = t;
	}
	tap_ok(ptb_samples_spin(ip, n, 250) == 1, "the Xeon's poll reversed: still a poll");
	tap_done();
	return tap_exit();
}
