/* SPDX-License-Identifier: MIT */
/*
 * Memory for a benchmark's working set, on huge pages where the system
 * offers them.  A working set of many megabytes on 4 KiB pages costs a TLB
 * miss on most accesses, which blurs the cache latencies a pointer chase
 * measures; on huge pages the TLB covers it.  Linux's transparent huge
 * pages are asked for per mapping (hugemem-thp.c, madvise); elsewhere
 * (hugemem-none.c) the memory is ordinary.  Either way the caller learns
 * how much of the region the kernel really put on huge pages, and why not
 * all of it, so that a result can say so.
 */
#ifndef PTB_HUGEMEM_H
#define PTB_HUGEMEM_H

#include <stddef.h>

struct ptb_hugemem {
	void *base;                 /* aligned to the huge page size */
	size_t bytes;               /* as asked */
	double huge_fraction;       /* of the region on huge pages; -1 unknown */
	char why[160];              /* why not on huge pages, or "" */
	void *map;                  /* the whole mapping, for unmapping */
	size_t map_bytes;
};

/* Map `bytes` of zeroed memory, ask for huge pages and touch every page.
 * 0, or -1 with m->why set. */
int ptb_hugemem_alloc(struct ptb_hugemem *m, size_t bytes);
void ptb_hugemem_free(struct ptb_hugemem *m);

/* The variant's part: the huge page size (0: none), and asking for huge
 * pages on an aligned region (0, or -1 with why). */
size_t ptb_hugemem_page_size(void);
int ptb_hugemem_advise(void *p, size_t bytes, char *why, size_t len);

/* The fraction of [p, p + bytes) on huge pages by /proc/self/smaps's
 * AnonHugePages, or -1 when it cannot be read. */
double ptb_hugemem_fraction(const void *p, size_t bytes);

#endif
