/* SPDX-License-Identifier: MIT */
/* The trace's checksum, compiled into both the interposer and ptbench. */
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
