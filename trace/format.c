/* SPDX-License-Identifier: MIT */
/* The trace's checksum, and the list of CPUs ptbench record hands the
 * interposer, compiled into both. */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>

#include "trace/format.h"

_Static_assert(sizeof(struct ptb_tev) == 32, "an event is 32 bytes");
_Static_assert(sizeof(struct ptb_trace_header) == 128, "the header is 128 bytes");
_Static_assert(sizeof(struct ptb_trace_chunk) == 32, "a chunk header is 32 bytes");
_Static_assert(sizeof(struct ptb_trace_trailer) == 32, "the trailer is 32 bytes");

uint64_t ptb_trace_sum(const void *p, size_t n)
{
	const unsigned char *b = p;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;
	return h;
}

int ptb_trace_cpu_list(const void *cpus, char *buf, size_t len)
{
	const cpu_set_t *set = cpus;
	size_t off = 0;
	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, set) || (c && CPU_ISSET(c - 1, set)))
			continue;                /* not the first of a run */
		int last = c;
		while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
			last++;
		int n = last > c ? snprintf(buf + off, len - off, "%s%d-%d", off ? "," : "", c, last)
				 : snprintf(buf + off, len - off, "%s%d", off ? "," : "", c);
		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += (size_t)n;
	}
	return 0;
}
