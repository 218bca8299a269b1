/* SPDX-License-Identifier: MIT
 * ptbprof: a line's node (profile/shadow.c), shared by the recording
 * (merge.c) and, through its model part, the model (model.c): the last
 * writer of each word of the line and the one slot that wrote them all,
 * found through a direct-mapped front cache before a hash table. */
#ifndef PTBPROF_SHADOW_H
#define PTBPROF_SHADOW_H

#include "profile/prof.h"

#define NOSLOT 0xff
#define MIXED 0xfe
#define EXITED 0x40          /* with a slot: the word a thread's exit cleared */
#define NOKEY (~(UWord)0)    /* no line's key: addresses are shifted */

/* The last writer of each 4-byte word of a line, in real (recording)
 * order: its logical time above 8 bits, its slot (NOSLOT: none; EXITED
 * marked) below, so that an access reads one word per 4 bytes. */
typedef struct Shadow {
	struct Shadow *next;
	UWord key;
	UInt owner;    /* the one slot that wrote every written word; NOSLOT none; MIXED */
	UInt toucher;  /* the one slot that touched the line (read or write); NOSLOT none; MIXED */
	ULong line[PP_LINE_BYTES / 8];   /* the model's (model.c) */
	ULong w[];
} Shadow;
#define W_SLOT(v) ((UInt)((v) & 0xff))
#define W_TS(v) ((v) >> 8)
#define W_MAKE(slot, ts) (((ULong)(ts) << 8) | (slot))

/* In front of the table, the shadows of recently used lines: most
 * accesses find theirs here, without the table's division and chain
 * (shadows are never freed, so a pointer here stays good).  An entry is
 * the line's key and its shadow's owner in one word, and the shadow: 16
 * bytes.  The 16 lines of an aligned block take neighbouring entries (a
 * stack frame, a structure, an array touch fewer host cache lines of the
 * table than lines), and blocks are spread by a hash. */
#define FRONT_BITS 15
typedef struct { UWord tag; Shadow *sh; } PP_Front;
extern PP_Front pp_front[1u << FRONT_BITS];
#define TAG(key, owner) (((key) << 8) | (owner))
#define TAG_KEY(tag) ((tag) >> 8)
#define TAG_OWNER(tag) ((UInt)((tag) & 0xff))
#define FRONTABLE(key) (((key) >> 55) == 0)   /* its tag keeps the whole key */

static inline UInt front_ix(UWord key)
{
	return (UInt)(key ^ (((key >> 4) * 0x9E3779B97F4A7C15ULL) >> (64 - FRONT_BITS))) &
	       ((1u << FRONT_BITS) - 1);
}

Shadow *pp_shadow_slow(UWord key);   /* the table's, made if new; the front filled */
void pp_shadow_init(void);
UInt pp_order(Int me, Addr a, UInt size, UInt kind, Bool follows_none);

static inline Shadow *shadow_of(UWord key)
{
	UInt f = front_ix(key);
	if (TAG_KEY(pp_front[f].tag) == key)
		return pp_front[f].sh;
	return pp_shadow_slow(key);
}

/* A line's owner as its front entry has it, the entry filled if need be. */
static inline UInt owner_of(UWord key)
{
	UInt f = front_ix(key);
	if (TAG_KEY(pp_front[f].tag) == key)
		return TAG_OWNER(pp_front[f].tag);
	return pp_shadow_slow(key)->owner;
}

/* Stamps the words of [a, a + size), all within one line, as written by
 * slot `me` at the running thread's time. */
static inline void stamp_words(ULong *w, Int me, Addr a, UInt size)
{
	ULong v = W_MAKE(me, pp_ic);
	UInt i, last = (UInt)(((a + size - 1) & (pp_cfg.line - 1)) >> 2);
	for (i = (UInt)((a & (pp_cfg.line - 1)) >> 2); i <= last; i++)
		w[i] = v;
}

/* private.c: a private line's access, which needs no event */
Bool pp_touch_private(Int me, Addr a, UInt size, Shadow *sh);
Bool pp_private_order(Int me, Addr a, UInt size, UInt kind, Shadow *sh, UInt *owner);

/* A shadow's owner, and its front entry's (where it is one) with it. */
static inline void set_owner(Shadow *sh, UInt owner)
{
	UInt f = front_ix(sh->key);
	sh->owner = owner;
	if (TAG_KEY(pp_front[f].tag) == sh->key)
		pp_front[f].tag = TAG(sh->key, owner);
}

#endif
