/* SPDX-License-Identifier: MIT */
/*
 * What the cache benchmarks share (cache_line.c, cache_latency.c,
 * cacheline_share.c), kept pure so that unit tests can check it: the
 * random cycle a pointer chase follows, the largest cache hwloc reports,
 * and where the sharing layouts put the two threads' words.
 */
#ifndef PTB_BENCH_CACHE_H
#define PTB_BENCH_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "ptbench.h"

/* Chased elements lie this far apart: one per 64-byte line, the common
 * line size; on a machine with longer lines a working set still occupies
 * its size in the cache. */
#define PTB_CHASE_SPACING 64

/* The next number of a xorshift64* sequence; state must not be 0. */
uint64_t ptb_cache_rand(uint64_t *state);

/*
 * Link n elements, `spacing` bytes apart from base, into one cycle in a
 * random order: afterwards the first word of each element points at the
 * next element to visit, and following the pointers from any element
 * visits all n before it returns.  Sattolo's algorithm on the links in
 * place: every cyclic order is equally likely, and no prefetcher can guess
 * the next address.  n >= 1; spacing >= sizeof(void *).
 */
void ptb_chase_link(void *base, size_t n, size_t spacing, uint64_t seed);

/* The size of the outermost and innermost data caches hwloc reports for
 * this machine, in bytes; 0 when it reports none. */
long long ptb_cache_llc_bytes(const struct ptb_system *sys);
long long ptb_cache_l1_bytes(const struct ptb_system *sys);

/*
 * Two threads' words for cacheline.share.  The block is 2 x
 * PTB_SHARE_SPAN bytes aligned to PTB_SHARE_SPAN: `true` gives both the
 * same word; `false` and `read` two words 8 bytes apart in the first line
 * (one line for any line of 16 bytes or more); `padded` words
 * PTB_SHARE_SPAN apart, in different lines and in different 128-byte
 * pairs, which an adjacent-line prefetcher fetches together.
 */
#define PTB_SHARE_SPAN 256
#define PTB_SHARE_LAYOUTS "true,false,padded,read"
enum ptb_share_layout { PTB_SHARE_TRUE, PTB_SHARE_FALSE, PTB_SHARE_PADDED, PTB_SHARE_READ };
/* -1 when the name is not a layout. */
int ptb_share_layout_from_name(const char *name);
void ptb_share_words(enum ptb_share_layout layout, void *block, volatile uint64_t **w0,
		     volatile uint64_t **w1);

#endif
