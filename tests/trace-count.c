/* SPDX-License-Identifier: MIT */
/*
 * How many events of one kind each thread of a trace holds, a line per
 * thread that has any ("THREAD COUNT"), so that a test can check that the
 * recorder wrote what a program did, each event once (tests/trace-odd.sh).
 *
 *   trace-count TRACE KIND     (KIND: the number of enum ptb_ev_kind)
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "trace/reader.h"

int main(int argc, char **argv)
{
	char err[256];
	struct ptb_trace t;
	if (argc != 3)
		return fprintf(stderr, "usage: trace-count TRACE KIND\n"), 2;
	int kind = atoi(argv[2]);
	if (ptb_trace_load(argv[1], &t, err, sizeof err))
		return fprintf(stderr, "trace-count: %s\n", err), 2;
	for (uint32_t i = 0; i < t.nthreads; i++) {
		size_t n = 0;
		for (size_t k = 0; k < t.th[i].n; k++)
			n += t.th[i].ev[k].kind == kind;
		if (n)
			printf("%u %zu\n", i, n);
	}
	ptb_trace_free(&t);
	return 0;
}
