/* SPDX-License-Identifier: MIT
 * ptbprof: the threads' slots.  Each thread gets the next slot in creation
 * order (later threads share slots round-robin past PP_SLOTS); a slot is
 * its cache and its stream of events. */
#include <pub_tool_basics.h>
#include <pub_tool_libcassert.h>
#include <pub_tool_mallocfree.h>
#include <pub_tool_threadstate.h>
#include "profile/prof.h"

static Int *slot_map;         /* Valgrind thread id -> slot */

void pp_slots_init(void)
{
	UInt i;
	slot_map = VG_(malloc)("ptbprof.slots", VG_N_THREADS * sizeof *slot_map);
	for (i = 0; i < VG_N_THREADS; i++)
		slot_map[i] = -1;
}

Int pp_slot_new(ThreadId tid)
{
	Int s = (Int)(pp_nthreads++ % PP_SLOTS);
	PP_Thread *t = &pp_thr[s];
	t->used = True;
	t->alive++;
	t->blocked = t->released = False;
	t->want = 0;
	t->ktid = 0;
	t->ts = pp_floor();
	t->stack_hi = t->stack_lo = 0;
	slot_map[tid] = s;
	return s;
}

Int pp_slot_of(ThreadId tid)
{
	return slot_map[tid] >= 0 ? slot_map[tid] : pp_slot_new(tid);
}

void pp_slot_end(ThreadId tid)
{
	Int s = slot_map[tid];
	if (s < 0)
		return;
	if (pp_thr[s].alive)
		pp_thr[s].alive--;
	if (s == pp_cur) {
		pp_run_end();
		pp_thr[s].ts = pp_ic;
		pp_cur = -1;
	}
	slot_map[tid] = -1;
}

