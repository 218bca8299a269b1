/* SPDX-License-Identifier: MIT
 * ptbprof: private lines, whose accesses need no event (merge.c calls
 * these from its slow path). */
#include <pub_tool_basics.h>
#include <pub_tool_libcassert.h>
#include "profile/prof.h"
#include "profile/shadow.h"

/* Private lines.  With unbounded caches (and threads not pinned), a line
 * that one thread alone has touched stays valid in that thread's cache
 * whatever the thread does with it, and no other cache has a record of it.
 * So after the first access (a cold miss, an event) the thread's accesses
 * to it change nothing in the model -- unless another thread's first
 * access to the line came before some of them in the merge's order: those
 * would be events of their own after it.  Most accesses of a program are
 * to private lines (its stacks, each thread's own heap: 92 to 97 % of the
 * events of pigz and xz), so they are skipped where that cannot happen:
 *
 * - while the thread is behind every other running thread in the merge's
 *   order (pp_drop_until: their accesses to come are all later);
 * - a thread woken by another, or created, starts after that thread's
 *   time, so after whatever was skipped before;
 * - a thread whose wait ends otherwise (a time-out, a signal, a sleep:
 *   sync.c) resumes at the merge's frontier -- and no earlier than the
 *   latest skipped access (pp_skipped_until, kept at the end of each
 *   run that skipped one).
 *
 * So every skipped access comes before every access still to be recorded,
 * and a line's privacy ends with another thread's first access, for good:
 * from then on every access to it is an event, as to any line.  A thread
 * spends about half of its turns catching up with the others; its
 * private lines then stay open to the fast path until pp_drop_until. */
ULong pp_skipped_until;            /* every skipped access was before it */
Bool pp_skipped;
ULong pp_drop_until;              /* the running thread's accesses before it may be skipped */

/* pp_drop_until for the running thread, at the start of its run: the
 * merge's order is by quantum, then by slot.  Other threads' times and
 * states change only between runs (Valgrind calls the tool's hooks for
 * system calls and client requests there).  Past PP_SLOTS threads a
 * slot's blocked flag may be another thread's, and nothing more is
 * skipped. */
void pp_drop_reset(void)
{
	ULong Q = pp_cfg.quantum, q = ~0ULL;
	UInt s, n = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS, first = 0;
	pp_drop_until = 0;
	pp_skipped = False;
	if (!pp_cfg.private_lines || pp_cur < 0 || pp_nthreads > PP_SLOTS)
		return;
	for (s = 0; s < n; s++) {
		ULong qs;
		if ((Int)s == pp_cur || !pp_thr[s].alive || pp_thr[s].blocked)
			continue;
		qs = pp_thr[s].ts / Q;
		if (qs < q) {
			q = qs;
			first = s;
		}
	}
	pp_drop_until = q == ~0ULL ? ~0ULL : (q + ((UInt)pp_cur < first)) * Q;
}

/* At the end of the running thread's run: its skipped accesses were at
 * its logical time or before, and before pp_drop_until. */
void pp_run_end(void)
{
	ULong end = pp_ic + 1 < pp_drop_until ? pp_ic + 1 : pp_drop_until;
	if (pp_skipped && end > pp_skipped_until)
		pp_skipped_until = end;
	pp_skipped = False;
}

/* The access's line (its node sh) was the running thread's alone before
 * it, the access is within that line and may be skipped.  Otherwise the
 * lines it touches learn their toucher, or lose their privacy. */
Bool pp_touch_private(Int me, Addr a, UInt size, Shadow *sh)
{
	UWord k0 = a >> pp_cfg.shift, k1 = (a + size - 1) >> pp_cfg.shift, k;
	Bool hit = False;
	for (k = k0; k <= k1; k++) {
		if (k != k0)
			sh = shadow_of(k);
		if (sh->toucher == (UInt)me)
			hit = k0 == k1 && pp_ic < pp_drop_until;
		else if (sh->toucher == NOSLOT)
			sh->toucher = (UInt)me;
		else
			sh->toucher = MIXED;
	}
	return hit;
}

/* A skipped access's part of pp_order(): a private line has nothing to
 * follow, and a write stamps its words.  False where the line's owner is
 * another's after all (a word an exiting thread's kernel clear marked). */
Bool pp_private_order(Int me, Addr a, UInt size, UInt kind, Shadow *sh, UInt *owner)
{
	if (sh->owner != (UInt)me && sh->owner != NOSLOT)
		return False;
	if (kind != PP_READ) {
		stamp_words(sh->w, me, a, size);
		if (sh->owner != (UInt)me)
			set_owner(sh, (UInt)me);
	}
	*owner = sh->owner;
	return True;
}

