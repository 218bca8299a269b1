/* SPDX-License-Identifier: MIT
 * ptbprof: the lines' nodes (profile/shadow.h): their table, and the
 * ordering of the running thread by the writes its accesses observe. */
#include <pub_tool_basics.h>
#include <pub_tool_libcassert.h>
#include <pub_tool_libcbase.h>
#include <pub_tool_mallocfree.h>
#include <pub_tool_hashtable.h>
#include "profile/prof.h"
#include "profile/shadow.h"

static VgHashTable *shadows;
PP_Front pp_front[1u << FRONT_BITS];

void pp_shadow_init(void)
{
	UInt i;
	shadows = VG_(HT_construct)("ptbprof.shadow");
	for (i = 0; i < (1u << FRONT_BITS); i++)
		pp_front[i].tag = ~(UWord)0;   /* no line's: keys are addresses shifted */
}

/* Zeroed memory for the nodes of the line tables, which are never freed:
 * carved from large blocks, without an allocator's header per node, and
 * in the order the lines are first touched, so that the nodes of lines
 * touched together lie together. */
void *pp_bump(SizeT n)
{
	static UChar *cur, *end;
	void *p;
	n = (n + 15) & ~(SizeT)15;
	if (n > (SizeT)(end - cur)) {
		SizeT chunk = n > (1u << 20) ? n : (1u << 20);
		cur = VG_(malloc)("ptbprof.nodes", chunk);
		end = cur + chunk;
	}
	p = cur;
	cur += n;
	VG_(memset)(p, 0, n);
	return p;
}

Shadow *pp_shadow_slow(UWord key)
{
	Shadow *sh = VG_(HT_lookup)(shadows, key);
	UInt g = pp_cfg.line / 4 ? pp_cfg.line / 4 : 1, i;
	if (!sh) {
		sh = pp_bump(sizeof *sh + g * sizeof(ULong));
		sh->key = key;
		sh->owner = sh->toucher = NOSLOT;
		for (i = 0; i < g; i++)
			sh->w[i] = W_MAKE(NOSLOT, 0);
		VG_(HT_add_node)(shadows, sh);
	}
	if (FRONTABLE(key)) {
		UInt f = front_ix(key);
		pp_front[f].tag = TAG(key, sh->owner);
		pp_front[f].sh = sh;
	}
	return sh;
}

void *pp_line_of(UWord key)
{
	return shadow_of(key)->line;
}

void pp_lines_foreach(void (*fn)(void *line))
{
	Shadow *sh;
	VG_(HT_ResetIter)(shadows);
	while ((sh = VG_(HT_Next)(shadows)))
		fn(sh->line);
}

/* Pushes pp_ic past the writes this access observes, then records its own.
 * An atomic read-modify-write observes too, but Valgrind's one-at-a-time
 * schedule decides which of several comes first, and most are commutative
 * (counts of threads, reference counts): following them would chain the
 * threads one after another.  So they record their write and follow none;
 * what a lock protects is still ordered by the plain accesses inside.
 * For the same reason the C library's own accesses (thread bookkeeping,
 * its locks' internals) record their writes and follow none.  Returns the
 * owner of the access's (first) line after it. */
UInt pp_order(Int me, Addr a, UInt size, UInt kind, Bool follows_none)
{
	Addr g, end = a + size;
	UWord key = a >> pp_cfg.shift;
	UInt owner = owner_of(key);
	Bool one = ((end - 1) >> pp_cfg.shift) == key;
	/* A line whose written words are all this thread's, or none, has
	 * nothing to follow (most are: a thread's stack, its own data); its
	 * owner is in the front cache, so a read of it touches no shadow. */
	if (one && (owner == (UInt)me || owner == NOSLOT))
		g = end;
	else
		g = a & ~(Addr)3;
	for (; g < end; g += 4) {
		Shadow *sh = shadow_of(g >> pp_cfg.shift);
		UInt i = (UInt)((g & (pp_cfg.line - 1)) >> 2);
		ULong v = sh->w[i];
		UInt w = W_SLOT(v);
		if (w == NOSLOT || (follows_none && !(w & EXITED)))
			continue;
		w &= ~(UInt)EXITED;
		if (w != (UInt)me) {
			ULong t = pp_after(me, w, W_TS(v));
			if (pp_ic < t)
				pp_ic = t;
		}
	}
	if (kind == PP_READ)
		return owner;
	if (one && owner == (UInt)me) {   /* the thread's line: no owner to change */
		stamp_words(shadow_of(key)->w, me, a, size);
		return owner;
	}
	for (g = a & ~(Addr)3; g < end; g += 4) {
		Shadow *sh = shadow_of(g >> pp_cfg.shift);
		UInt i = (UInt)((g & (pp_cfg.line - 1)) >> 2);
		sh->w[i] = W_MAKE(me, pp_ic);
		if (sh->owner != (UInt)me)
			set_owner(sh, sh->owner == NOSLOT ? (UInt)me : MIXED);
	}
	return owner == NOSLOT || owner == (UInt)me ? (UInt)me : MIXED;
}

/* The kernel clears an exiting thread's tid word: whoever reads it
 * (pthread_join finding the thread gone, without waiting) follows the
 * exit, even from the C library. */
void pp_mark_exit(Int s, Addr a, ULong ts)
{
	Shadow *sh = shadow_of(a >> pp_cfg.shift);
	UInt i = (UInt)((a & (pp_cfg.line - 1)) >> 2);
	sh->w[i] = W_MAKE(s | EXITED, ts);
	set_owner(sh, MIXED);
	pp_fast_close();
}

