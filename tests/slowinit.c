/* SPDX-License-Identifier: MIT */
/*
 * A test-only library standing for a program's start before the
 * interposer's constructor (the loader, libraries initialized first): in
 * the program SLOWINIT_IN names (so that ptbench, run under the same
 * LD_PRELOAD, is spared), its constructor works SLOWINIT_MS of CPU time
 * (default 60) and prints "slowinit_ns N", the CPU time it took, on
 * stderr.  Preloaded after the interposer, it is initialized before it.
 * tests/trace.sh records a program under it: the prediction must hold
 * that time too, as an unrecorded run does.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

__attribute__((constructor)) static void slow_start(void)
{
	const char *in = getenv("SLOWINIT_IN"), *ms = getenv("SLOWINIT_MS");
	if (!in || strcmp(in, program_invocation_short_name))
		return;
	double want = (ms ? atof(ms) : 60) * 1e6, start = cpu_ns(), now = start;
	static volatile unsigned long sink;
	while ((now = cpu_ns()) - start < want)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i * i;
	fprintf(stderr, "slowinit_ns %.0f\n", now - start);
}
