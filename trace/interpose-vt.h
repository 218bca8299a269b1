/* SPDX-License-Identifier: MIT */
/*
 * Inside the interposer: each recorded thread's virtual time and what the
 * order of the recording (trace/interpose-order.c) knows of it, kept by
 * trace/interpose-vt.c.  Shared by those two files only.
 */
#ifndef PTB_TRACE_INTERPOSE_VT_H
#define PTB_TRACE_INTERPOSE_VT_H

#include <stdatomic.h>
#include <stdint.h>

#define ORDER_THREADS 1024
#define SLOTS 256                      /* objects by hash (two in one slot share their releases) */
#define SITES 16                       /* call sites a thread remembers, by hash */
#define EXACT_NS 50000                 /* wall time between two readings of the CPU clock */
#define NOT_STALLED UINT64_MAX

enum { VT_UNUSED, VT_READY, VT_BLOCKED, VT_FRESH, VT_EXITED, VT_CLAIMED };

struct vthread {
	_Atomic uint32_t owner;            /* thread number + 1 in the slot, 0 none */
	_Atomic(const void *) waiting_on;  /* the object of a wait it is in */
	_Atomic uint64_t wait_mark;        /* releases before it, or since it proved blocked */
	_Atomic uint64_t began;            /* releases before its condition wait, or since it
					    * proved not woken (trace/interpose-order.c) */
	_Atomic(const void *) relock;      /* in a condition wait: its mutex, taken again on waking */
	_Atomic uint64_t vt;               /* virtual time, ns */
	_Atomic uint64_t resume;           /* when it last passed the interposer, running */
	_Atomic uint64_t stalled;          /* resume when a yield found it not running */
	_Atomic uint64_t blocked_at;
	_Atomic uint64_t io_since;         /* when a call that may block on I/O began, 0 none */
	_Atomic int ktid;                  /* the kernel's number for it */
	/* The thread's own: at its last reading of its CPU clock, the clock,
	 * the wall time and vt, and what waits added to vt since. */
	uint64_t cpu_mark, wall_mark, vt_mark, off_since_mark;
	_Atomic int state;
	_Atomic uintptr_t start;           /* its start routine: threads with one are a pool */
	struct { _Atomic uintptr_t site, obj; } met_at[SITES];   /* by call site, the last object */
};

extern struct vthread ptb_tr_vts[ORDER_THREADS];
extern __thread struct vthread *ptb_tr_vt_self;   /* NULL: takes no part */
extern _Atomic uint64_t ptb_tr_vt_slots;         /* slots in use: 0 .. this - 1 */
extern int ptb_tr_by_vt;                         /* SCHED_FIFO: virtual time is kept */
extern _Atomic uint64_t ptb_tr_releases;          /* releases so far */
extern _Atomic uint64_t ptb_tr_released_at[SLOTS]; /* by object: the last one */
extern _Atomic uint64_t ptb_tr_signalled_at[SLOTS]; /* by condition: its last signal or broadcast */
extern _Atomic uint64_t ptb_tr_release_vt[SLOTS];  /* by object: vt of its latest release */
extern _Atomic uint64_t ptb_tr_touched[SLOTS];     /* by object: bit (slot mod 64) */

static inline unsigned slot(const void *obj)
{
	uint64_t h = (uint64_t)(uintptr_t)obj * 0x9e3779b97f4a7c15u;
	return (unsigned)(h >> 56) % SLOTS;
}

static inline unsigned site_slot(const void *site)
{
	return (unsigned)(((uintptr_t)site * 0x9e3779b97f4a7c15u) >> 60) % SITES;
}

static inline uint32_t index_of(const struct vthread *v) { return (uint32_t)(v - ptb_tr_vts); }

static inline uint32_t known(void)
{
	uint64_t n = atomic_load_explicit(&ptb_tr_vt_slots, memory_order_relaxed);
	return n < ORDER_THREADS ? (uint32_t)n : ORDER_THREADS;
}

static inline void max_store(_Atomic uint64_t *a, uint64_t v)
{
	uint64_t have = atomic_load_explicit(a, memory_order_relaxed);
	while (have < v && !atomic_compare_exchange_weak(a, &have, v))
		;
}


/* What the thread ran since it last got the PU, as work (at time t). */
void ptb_tr_vt_settle(struct vthread *v, uint64_t t);
/* The calling thread meets obj (its slot s) at call site site. */
void ptb_tr_vt_met(struct vthread *v, unsigned s, const void *obj, const void *site);

#endif
