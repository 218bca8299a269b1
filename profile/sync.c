/* SPDX-License-Identifier: MIT
 * ptbprof: threads that wait.  A thread blocked in a system call holds
 * back no merge (merge.c).  When another thread wakes it -- a FUTEX_WAKE on
 * the word it waits on, or, for pthread_join, the kernel's wake-up of the
 * exiting thread's tid word -- it becomes runnable again in the model at
 * once, no earlier than its waker's logical time, whenever Valgrind gets
 * round to running it.  So a join or a condition variable gives the same
 * logical times on every run.  A wait that ends otherwise (timeout, the
 * value already changed, a signal) resumes at the merge's frontier. */
#include <pub_tool_basics.h>
#include <pub_tool_libcassert.h>
#include <pub_tool_libcbase.h>
#include <pub_tool_libcprint.h>
#include <pub_tool_aspacemgr.h>
#include <pub_tool_threadstate.h>
#include <pub_tool_vki.h>
#include <pub_tool_vkiscnums.h>
#include <pub_tool_libcfile.h>
#include "profile/prof.h"

static ULong wseq;
static Addr clone_ctid;       /* the child tid word of the clone under way */

static Bool futex_wait(UInt no, const UWord *args)
{
	UWord op = args[1] & 127;    /* without the private and clock flags */
	return no == __NR_futex &&
	       (op == VKI_FUTEX_WAIT || op == VKI_FUTEX_WAIT_BITSET ||
		op == VKI_FUTEX_LOCK_PI || op == VKI_FUTEX_WAIT_REQUEUE_PI);
}

static Bool futex_wake(UInt no, const UWord *args)
{
	UWord op = args[1] & 127;
	return no == __NR_futex &&
	       (op == VKI_FUTEX_WAKE || op == VKI_FUTEX_WAKE_BITSET || op == VKI_FUTEX_UNLOCK_PI);
}

/* A read of a regular file or a block device waits for neither another
 * thread nor the outside world: its thread stays running in the model and
 * goes on at its own logical time, as after any other system call.  (As a
 * wait it resumed at the merge's frontier, which depends on how far
 * Valgrind had let the other threads run meanwhile.) */
static Bool reads_a_file(const UWord *args)
{
	struct vg_stat st;
	return VG_(fstat)((Int)args[0], &st) == 0 && (VKI_S_ISREG(st.mode) || VKI_S_ISBLK(st.mode));
}

/* System calls that wait for another thread or for the outside world. */
static Bool blocking(UInt no, const UWord *args)
{
	switch (no) {
	case __NR_futex:
		return futex_wait(no, args);
	case __NR_read: case __NR_readv:
		return !reads_a_file(args);
	case __NR_nanosleep: case __NR_clock_nanosleep: case __NR_wait4: case __NR_waitid:
	case __NR_pause: case __NR_rt_sigsuspend: case __NR_rt_sigtimedwait:
	case __NR_poll: case __NR_ppoll: case __NR_select: case __NR_pselect6:
	case __NR_epoll_wait: case __NR_epoll_pwait:
	case __NR_recvfrom: case __NR_recvmsg: case __NR_accept: case __NR_accept4:
	case __NR_msgrcv: case __NR_semop: case __NR_semtimedop:
		return True;
	default:
		return False;
	}
}

/* Wakes up to n threads waiting on addr, first come first, after slot w's
 * time ts. */
static void wake(Addr addr, UWord n, Int w, ULong ts)
{
	UInt s, slots = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS;
	ULong t;
	while (n-- > 0) {
		Int best = -1;
		for (s = 0; s < slots; s++)
			if (pp_thr[s].alive && pp_thr[s].blocked && pp_thr[s].waddr == addr &&
			    (best < 0 || pp_thr[s].wseq < pp_thr[best].wseq))
				best = (Int)s;
		if (best < 0)
			return;
		pp_thr[best].blocked = False;
		t = pp_after(best, (UInt)w, ts);
		if (pp_thr[best].ts < t)
			pp_thr[best].ts = t;
		}
}

/* A wait that ended without a waker resumes at the merge's frontier, and
 * in a quantum after every access skipped so far (private.c). */
void pp_resume_unwoken(PP_Thread *t)
{
	ULong Q = pp_cfg.quantum, skipped = (pp_skipped_until + Q - 1) / Q * Q;
	t->blocked = False;
	if (t->ts < pp_floor())
		t->ts = pp_floor();
	if (t->ts < skipped)
		t->ts = skipped;
}

void pp_pre_syscall(ThreadId tid, UInt no, UWord *args, UInt nargs)
{
	Int s = pp_slot_of(tid);
	PP_Thread *t = &pp_thr[s];
	if (no == __NR_clone)
		clone_ctid = args[3];
	else if (no == __NR_clone3 && VG_(am_is_valid_for_client)(args[0], 24, VKI_PROT_READ))
		clone_ctid = (Addr)((const ULong *)args[0])[2];   /* clone_args.child_tid */
	if (futex_wake(no, args))
		wake(args[0], args[2] ? args[2] : 1, s, t->ts);
	if (blocking(no, args) && !t->released) {
		t->blocked = True;
		t->waddr = no == __NR_futex ? args[0] : 0;
		t->wseq = ++wseq;
		pp_process(False);
	}
}

/* --follow-affinity: the CPU each CPU's cache belongs to, by the slot
 * that opened it (its first thread pinned there). */
#define MAX_CPUS 1024
static Int cpu_owner[MAX_CPUS];

/* A successful sched_setaffinity pins its thread to one CPU (that CPU's
 * cache from its logical time on) or to several (its own cache). */
static void follow_affinity(Int self, const UWord *args)
{
	Int target = -1, c = -1;
	UInt s, slots = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS, i, len = (UInt)args[1];
	const UChar *mask = (const UChar *)args[2];
	if (args[0] == 0)
		target = self;
	for (s = 0; target < 0 && s < slots; s++)
		if (pp_thr[s].alive && pp_thr[s].ktid == (Int)args[0])
			target = (Int)s;
	if (target < 0 || !len || !VG_(am_is_valid_for_client)(args[2], len, VKI_PROT_READ))
		return;
	for (i = 0; i < len * 8 && c != -2; i++)
		if (mask[i / 8] & (1u << (i % 8)))
			c = c == -1 ? (Int)i : -2;
	if (c >= MAX_CPUS)
		c = -2;
	if (c >= 0 && cpu_owner[c] == 0)
		cpu_owner[c] = target + 1;
	pp_push(target, target == pp_cur ? pp_ic : pp_thr[target].ts, 0,
		c >= 0 ? (UWord)(cpu_owner[c] - 1) : (UWord)target, 0, PP_CACHE);
}

void pp_post_syscall(ThreadId tid, UInt no, UWord *args, UInt nargs, SysRes res)
{
	PP_Thread *t = &pp_thr[pp_slot_of(tid)];
	if (pp_cfg.affinity && no == __NR_sched_setaffinity && !sr_isError(res))
		follow_affinity(pp_slot_of(tid), args);
	if (t->blocked)
		pp_resume_unwoken(t);
}

void pp_thread_create(ThreadId parent, ThreadId child)
{
	Int p = parent == VG_INVALID_THREADID ? -1 : pp_slot_of(parent);
	Int c = pp_slot_new(child);
	ULong ts = p < 0 ? pp_floor() : pp_after(c, (UInt)p, p == pp_cur ? pp_ic : pp_thr[p].ts);
	pp_thr[c].ts = ts < pp_floor() ? pp_floor() : ts;
	pp_thr[c].ctid = clone_ctid;  /* the tool sees the clone before Valgrind does it */
	clone_ctid = 0;
}

void pp_thread_exit(ThreadId tid)
{
	Int s = pp_slot_of(tid);
	ULong ts = s == pp_cur ? pp_ic : pp_thr[s].ts;
	if (pp_thr[s].ctid) {
		wake(pp_thr[s].ctid, ~(UWord)0, s, ts);
		pp_mark_exit(s, pp_thr[s].ctid, ts);
	}
	pp_slot_end(tid);
	pp_process(False);
}
