/* SPDX-License-Identifier: MIT
 * ptbprof: a finite cache per thread (--cache SIZE:WAYS:LINE), set
 * associative with LRU replacement.  The directory (model.c) says which
 * caches hold a line; this says which lines fit: bringing a line into a
 * full set evicts the set's least recently used line. */
#include <pub_tool_basics.h>
#include <pub_tool_libcassert.h>
#include <pub_tool_libcbase.h>
#include <pub_tool_mallocfree.h>
#include "profile/prof.h"

static UWord *sets[PP_SLOTS];   /* per slot: sets x ways line keys, most recent first */

Bool pp_cache_finite(void)
{
	return pp_cfg.ways > 0;
}

static UWord *set_of(UInt s, UWord key)
{
	UInt nsets = pp_cfg.cache_size / (pp_cfg.ways * pp_cfg.line);
	if (!sets[s]) {
		sets[s] = VG_(malloc)("ptbprof.cache", (SizeT)nsets * pp_cfg.ways * sizeof(UWord));
		VG_(memset)(sets[s], 0xff, (SizeT)nsets * pp_cfg.ways * sizeof(UWord));
	}
	return sets[s] + (key & (nsets - 1)) * pp_cfg.ways;
}

/* Marks key most recently used in slot s's cache; returns the key it
 * evicts to make room, or ~0 when none. */
UWord pp_cache_touch(UInt s, UWord key)
{
	UWord *set = set_of(s, key), victim;
	UInt i;
	for (i = 0; i < pp_cfg.ways && set[i] != key; i++)
		;
	if (i == pp_cfg.ways) {          /* not there: the last one goes */
		i = pp_cfg.ways - 1;
		victim = set[i];
	} else
		victim = ~(UWord)0;
	for (; i > 0; i--)
		set[i] = set[i - 1];
	set[0] = key;
	return victim;
}

/* The line left slot s's cache otherwise (taken by another cache). */
void pp_cache_drop(UInt s, UWord key)
{
	UWord *set = set_of(s, key);
	UInt i;
	for (i = 0; i < pp_cfg.ways && set[i] != key; i++)
		;
	for (; i + 1 < pp_cfg.ways; i++)
		set[i] = set[i + 1];
	if (i < pp_cfg.ways)
		set[i] = ~(UWord)0;
}
