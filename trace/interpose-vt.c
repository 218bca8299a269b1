/* SPDX-License-Identifier: MIT */
/*
 * Each recorded thread's virtual time (docs/design.md section 12, the
 * order of a recording): under SCHED_FIFO, the PU time it ran, its
 * off-CPU waits, and no wait for a sibling ending before the release that
 * ended it.  What the order (trace/interpose-order.c) reads: each thread's
 * state, start routine, the objects it touched and at which call sites.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/interpose.h"
#include "trace/interpose-vt.h"

struct vthread ptb_tr_vts[ORDER_THREADS];
__thread struct vthread *ptb_tr_vt_self;
_Atomic uint64_t ptb_tr_vt_slots = 1;
int ptb_tr_by_vt;
_Atomic uint64_t ptb_tr_releases;
_Atomic uint64_t ptb_tr_released_at[SLOTS];
_Atomic uint64_t ptb_tr_signalled_at[SLOTS];
_Atomic uint64_t ptb_tr_release_vt[SLOTS];
static _Atomic uint64_t stream_vt[SLOTS];   /* by pipe or socket pair: its latest write */
_Atomic uint64_t ptb_tr_touched[SLOTS];

static uint64_t thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* vt from the thread's CPU clock read at time t (547 ns on a KVM guest,
 * so at most once in 50 us of wall time: 1.1 % at worst).  Wall time
 * while the thread holds the PU is its work but for what takes the PU
 * from it unseen: the kernel stops a SCHED_FIFO program for 50 ms of each
 * second past 0.95 s (sched_rt_runtime_us), another real-time program or
 * an interrupt may run.  A 65 us lead that decides which worker a pool
 * hands a job to is lost under such a gap (tests/trace-pool.c, once in a
 * dozen test runs with a 1 ms period). */
static void mark_at(struct vthread *v, uint64_t t, uint64_t cpu)
{
	if (v->wall_mark)
		atomic_store(&v->vt, v->vt_mark + (cpu - v->cpu_mark) + v->off_since_mark);
	v->cpu_mark = cpu;
	v->wall_mark = t;
	v->vt_mark = atomic_load(&v->vt);
	v->off_since_mark = 0;
}

static void mark(struct vthread *v, uint64_t t) { mark_at(v, t, thread_cpu()); }

/* The wall time since the thread last passed here, as work. */
static void advance(struct vthread *v, uint64_t t)
{
	uint64_t r = atomic_load_explicit(&v->resume, memory_order_relaxed);
	if (t > r)
		atomic_fetch_add_explicit(&v->vt, t - r, memory_order_relaxed);
	atomic_store_explicit(&v->resume, t, memory_order_relaxed);
}

/* What the thread ran since it last got the PU is its work: the wall time
 * while it held the PU, set right by its CPU clock now and then. */
void ptb_tr_vt_settle(struct vthread *v, uint64_t t)
{
	advance(v, t);
	if (ptb_tr_by_vt && t - v->wall_mark >= EXACT_NS)
		mark(v, t);
}

/* A wait moved vt on to vt_new (never back). */
static void waited(struct vthread *v, uint64_t vt_new)
{
	uint64_t vt = atomic_load(&v->vt);
	if (vt_new > vt) {
		v->off_since_mark += vt_new - vt;
		atomic_store(&v->vt, vt_new);
	}
}

/* The calling thread meets obj (slot s) at site: a fresh thread is fresh
 * no more (a blocked one stays blocked: a signal handler may get here). */
void ptb_tr_vt_met(struct vthread *v, unsigned s, const void *obj, const void *site)
{
	unsigned k = site_slot(site);
	atomic_store_explicit(&v->met_at[k].site, (uintptr_t)site, memory_order_relaxed);
	atomic_store_explicit(&v->met_at[k].obj, (uintptr_t)obj, memory_order_relaxed);
	int fresh = VT_FRESH;
	atomic_compare_exchange_strong(&v->state, &fresh, VT_READY);
	atomic_fetch_or_explicit(&ptb_tr_touched[s], 1ull << (index_of(v) & 63), memory_order_relaxed);
}

void ptb_tr_order_init(int fifo)
{
	ptb_tr_by_vt = fifo;
	ptb_tr_vt_self = &ptb_tr_vts[0];
	atomic_store(&ptb_tr_vts[0].ktid, (int)syscall(SYS_gettid));
	atomic_store(&ptb_tr_vts[0].owner, 1);
	atomic_store(&ptb_tr_vts[0].stalled, NOT_STALLED);
	atomic_store(&ptb_tr_vts[0].state, VT_READY);
	atomic_store(&ptb_tr_vts[0].resume, ptb_tr_now());
	if (ptb_tr_by_vt)
		mark(&ptb_tr_vts[0], ptb_tr_now());
}

/* A thread is about to be created (it may run before the call returns):
 * it starts at its creator's virtual time, and may meet any object.  Its
 * slot must be free, or held by a thread that has ended. */
void ptb_tr_order_create(uint32_t child, const void *start)
{
	struct vthread *c = &ptb_tr_vts[child % ORDER_THREADS], *v = ptb_tr_vt_self;
	int st = atomic_load(&c->state);
	if ((st != VT_UNUSED && st != VT_EXITED) ||
	    !atomic_compare_exchange_strong(&c->state, &st, VT_CLAIMED))
		return;                  /* held by a live thread, or claimed by another creator */
	uint64_t vt = 0;
	if (v) {
		ptb_tr_vt_settle(v, ptb_tr_now());
		vt = atomic_load(&v->vt);
	}
	atomic_store(&c->owner, child + 1);
	atomic_store(&c->vt, vt);
	atomic_store(&c->resume, 0);
	atomic_store(&c->stalled, NOT_STALLED);
	atomic_store(&c->waiting_on, NULL);
	atomic_store(&c->relock, NULL);
	atomic_store(&c->io_since, 0);
	atomic_store(&c->start, (uintptr_t)start);
	for (unsigned k = 0; k < SITES; k++)
		atomic_store(&c->met_at[k].site, 0);
	c->wall_mark = 0;
	atomic_store(&c->state, VT_FRESH);
	max_store(&ptb_tr_vt_slots, (uint64_t)(child % ORDER_THREADS) + 1);
}

/* Thread tid begins to run: its slot is its own if its creator gave it one. */
void ptb_tr_order_started(uint32_t tid)
{
	struct vthread *c = &ptb_tr_vts[tid % ORDER_THREADS];
	if (atomic_load(&c->owner) != tid + 1 || atomic_load(&c->state) != VT_FRESH)
		return;
	ptb_tr_vt_self = c;
	atomic_store(&c->ktid, (int)syscall(SYS_gettid));
	atomic_store(&c->resume, ptb_tr_now());
	if (ptb_tr_by_vt)
		mark(c, ptb_tr_now());
}

/* The thread goes on after the program's own yield. */
void ptb_tr_order_resumed(void)
{
	if (ptb_tr_vt_self)
		atomic_store(&ptb_tr_vt_self->resume, ptb_tr_now());
}

void ptb_tr_order_unborn(uint32_t tid)
{
	struct vthread *c = &ptb_tr_vts[tid % ORDER_THREADS];
	if (atomic_load(&c->owner) == tid + 1)
		atomic_store(&c->state, VT_EXITED);
}

void ptb_tr_order_exited(void)
{
	struct vthread *v = ptb_tr_vt_self;
	if (!v)
		return;
	ptb_tr_vt_settle(v, ptb_tr_now());
	atomic_store(&v->waiting_on, NULL);      /* cancelled in a wait, perhaps */
	atomic_store(&v->relock, NULL);
	atomic_store(&v->state, VT_EXITED);
	ptb_tr_vt_self = NULL;                     /* its slot may go to a new thread now */
}

/* The condition wait this thread is about to begin takes mutex m again
 * when woken (trace/interpose-order.c: waits_on); cleared as it leaves. */
void ptb_tr_order_relock(const void *m)
{
	struct vthread *v = ptb_tr_vt_self;
	if (v)
		atomic_store_explicit(&v->relock, m, memory_order_relaxed);
}

/* A wait begins (at time t): the thread's work stops there. */
void ptb_tr_order_enter(int kind, const void *obj, const void *site, uint64_t t)
{
	struct vthread *v = ptb_tr_vt_self;
	if (!v || kind == PTB_EV_YIELD)
		return;
	uint64_t r = atomic_load(&ptb_tr_releases);
	atomic_store_explicit(&v->wait_mark, r, memory_order_relaxed);
	atomic_store_explicit(&v->began, r, memory_order_relaxed);
	if (kind != PTB_EV_COND_WAIT)            /* set just before a condition wait only */
		atomic_store_explicit(&v->relock, NULL, memory_order_relaxed);
	atomic_store_explicit(&v->waiting_on, obj, memory_order_release);
	if (!ptb_tr_by_vt)
		return;
	ptb_tr_vt_settle(v, t);
	atomic_store_explicit(&v->blocked_at, t, memory_order_relaxed);
	if (kind == PTB_EV_BARRIER_WAIT)        /* the last arrival opens it */
		max_store(&ptb_tr_release_vt[slot(obj)], atomic_load(&v->vt));
	if (kind != PTB_EV_SLEEP && kind != PTB_EV_JOIN)
		ptb_tr_vt_met(v, slot(obj), obj, site);
	atomic_store_explicit(&v->state, VT_BLOCKED, memory_order_relaxed);
}

/* The virtual time a joined thread ended at (0 if not known: its slot
 * held another thread, or holds one now). */
static uint64_t end_of(uint32_t tid)
{
	const struct vthread *c = &ptb_tr_vts[tid % ORDER_THREADS];
	if (tid == UINT32_MAX || atomic_load(&c->owner) != tid + 1)
		return 0;
	uint64_t vt = atomic_load(&c->vt);
	return atomic_load(&c->owner) == tid + 1 && atomic_load(&c->state) == VT_EXITED ? vt : 0;
}

/* A wait ends at time t with outcome out.  A sleep, or a wait that timed
 * out or failed (EINTR), took its length (a sleep less the time the
 * thread then queued behind a sibling, arg: us + 1, 0 unknown); a join
 * ends no earlier than the joined thread; any other wait no earlier than
 * its object's latest release. */
void ptb_tr_order_leave(int kind, const void *obj, uint32_t arg, int out, uint64_t t)
{
	struct vthread *v = ptb_tr_vt_self;
	if (!v || kind == PTB_EV_YIELD)
		return;
	atomic_store_explicit(&v->waiting_on, NULL, memory_order_release);
	atomic_store_explicit(&v->relock, NULL, memory_order_relaxed);
	if (!ptb_tr_by_vt)
		return;
	mark(v, t);                      /* the floor below holds after the next mark too */
	uint64_t vt = atomic_load(&v->vt), len = t - atomic_load(&v->blocked_at);
	if (kind == PTB_EV_SLEEP) {
		uint64_t q = arg ? (uint64_t)(arg - 1) * 1000 : 0;
		waited(v, vt + (len > q ? len - q : 0));
	} else if (kind == PTB_EV_JOIN) {
		if (out == PTB_OUT_OK)
			waited(v, end_of(arg));
	} else if (out == PTB_OUT_TIMEOUT || out == PTB_OUT_ERROR) {
		waited(v, vt + len);
	} else {
		waited(v, atomic_load(&ptb_tr_release_vt[slot(obj)]));
	}
	atomic_store(&v->resume, t);
	atomic_store_explicit(&v->state, VT_READY, memory_order_relaxed);
}

/* A blocking I/O call from t0 to t1 that waited, with the thread's CPU
 * clock cpu1 at t1.  Its own CPU time (copying) is work; the rest, less
 * the time it queued behind a sibling, is off the PU -- except a read of
 * a pipe or socket pair (chan, its stream) that a thread of the program
 * has written to, which ends no earlier than the latest write: on the one
 * PU its wall time holds the writer's work.  (A pipe from another process,
 * `cat | prog`, is a delay.) */
void ptb_tr_order_span(uint64_t t0, uint64_t t1, uint64_t runq_ns, uint64_t cpu1,
		       const void *chan)
{
	struct vthread *v = ptb_tr_vt_self;
	if (!v || !ptb_tr_by_vt)
		return;
	int fresh = VT_FRESH;            /* it met no object, and will not come to one unseen */
	atomic_compare_exchange_strong(&v->state, &fresh, VT_READY);
	advance(v, t0);
	uint64_t est = atomic_load(&v->vt) - v->vt_mark - v->off_since_mark;  /* work since the mark */
	uint64_t len = t1 - t0, own = cpu1 - v->cpu_mark > est ? cpu1 - v->cpu_mark - est : 0;
	own = own < len ? own : len;
	uint64_t q = runq_ns == UINT64_MAX ? 0 : runq_ns;
	mark_at(v, t1, cpu1);            /* the call's own CPU time is work: in the clock */
	atomic_store(&v->resume, t1);
	uint64_t wrote = chan ? atomic_load(&stream_vt[slot(chan)]) : 0;
	if (wrote)
		waited(v, wrote);
	else              /* not a channel, or one no thread of the program wrote to: */
		waited(v, atomic_load(&v->vt) + (len - own > q ? len - own - q : 0));  /* a delay */
}

/* A call that may block on I/O begins (returns the time) and ends: while
 * it lasts the thread is not running, yet it will come back, at its
 * virtual time then plus the call's length (trace/interpose-order.c
 * waits for it rather than pass it). */
uint64_t ptb_tr_io_begin(void)
{
	uint64_t t = ptb_tr_now();
	struct vthread *v = ptb_tr_vt_self;
	if (v && ptb_tr_by_vt) {
		ptb_tr_vt_settle(v, t);
		atomic_store_explicit(&v->io_since, t, memory_order_release);
	}
	return t;
}

void ptb_tr_io_end(void)
{
	struct vthread *v = ptb_tr_vt_self;
	if (v)
		atomic_store_explicit(&v->io_since, 0, memory_order_release);
}

/* A write to a channel between the program's threads: a release of its
 * stream (the reader's wait ends no earlier). */
void ptb_tr_order_wrote(const void *chan)
{
	struct vthread *v = ptb_tr_vt_self;
	if (!v || !ptb_tr_by_vt || !chan)
		return;
	ptb_tr_vt_settle(v, ptb_tr_now());
	max_store(&stream_vt[slot(chan)], atomic_load(&v->vt));
}

/* The program's own yield: the time away is not its work. */
void ptb_tr_order_pause(void)
{
	struct vthread *v = ptb_tr_vt_self;
	if (v && ptb_tr_by_vt)
		ptb_tr_vt_settle(v, ptb_tr_now());
}

