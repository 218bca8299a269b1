/* SPDX-License-Identifier: MIT */
/*
 * The order of a recording (docs/design.md section 12).  A recording on
 * one PU must meet at each lock in the order a machine with a CPU per
 * thread would, since what a thread does next (which job of a queue it
 * takes, whether a pool has a free worker or starts one) follows from it
 * and the replay cannot change it.
 *
 * Under any policy, two yields:
 * - after a release (unlock, signal, broadcast, post) the releaser yields,
 *   so that the thread it released runs now, as on a CPU of its own;
 * - before an acquire, a thread that has not yielded since someone's
 *   release yields again if a thread waits on an object released since
 *   its wait began (woken, perhaps, and not yet run): on many CPUs it
 *   would have come to the queue while this one worked.
 *
 * Under SCHED_FIFO each thread also keeps a virtual time: the PU time it
 * ran (a thread there loses the PU only when it blocks or yields, so wall
 * time while it holds the PU is its work), its off-CPU waits, and no wait
 * for a sibling ending before the release that ended it.  Then:
 * - an acquire waits (yields) while a ready thread that may come to the
 *   object is behind it in virtual time: on many CPUs that thread would
 *   have come to the object first.  Only such threads count (below), so
 *   a worker busy with its own job (its own mutex, which only it and its
 *   feeder touch) is not made to take turns with the other workers, each
 *   evicting the others' caches;
 * - a release yields only when a thread waiting on the object is not
 *   ahead of the releaser, else the released thread would not yet be
 *   waiting on a CPU of its own.
 * A pool that starts a worker only when none is free (xz) then sees its
 * workers busy, as many CPUs would, and not done with a job because the
 * one PU ran it to its end before the pool looked.
 *
 * Under SCHED_FIFO a yield runs every ready thread of the PU before the
 * caller; under the normal policy it is a hint, and virtual time is not
 * kept (a thread may be preempted anywhere).  Time a yield gave away is
 * an enter/leave pair, not work.  A thread has a slot of ORDER_THREADS
 * (its number modulo that); one whose slot is held by a live thread, or
 * that was not started through the wrapper of pthread_create (the C
 * library's own helpers), takes no part.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/interpose.h"

#define ORDER_THREADS 1024
#define SLOTS 256                      /* objects by hash (two in one slot share their releases) */
#define SITES 16                       /* call sites a thread remembers, by hash */
#define EXACT_NS 50000                 /* wall time between two readings of the CPU clock */
#define GATE_YIELDS 64
#define NOT_STALLED UINT64_MAX

enum { VT_UNUSED, VT_READY, VT_BLOCKED, VT_FRESH, VT_EXITED };

struct vthread {
	_Atomic uint32_t owner;            /* thread number + 1 in the slot, 0 none */
	_Atomic(const void *) waiting_on;  /* the object of a wait it is in */
	_Atomic uint64_t wait_mark;        /* releases before it, or since it proved blocked */
	_Atomic uint64_t vt;               /* virtual time, ns */
	_Atomic uint64_t resume;           /* when it last passed the interposer, running */
	_Atomic uint64_t stalled;          /* resume when a yield found it not running */
	_Atomic uint64_t blocked_at;
	/* The thread's own: at its last reading of its CPU clock, the clock,
	 * the wall time and vt, and what waits added to vt since. */
	uint64_t cpu_mark, wall_mark, vt_mark, off_since_mark;
	_Atomic int state;
	_Atomic uintptr_t start;           /* its start routine: threads with one are a pool */
	struct { _Atomic uintptr_t site, obj; } met_at[SITES];   /* by call site, the last object */
};

static struct vthread vts[ORDER_THREADS];
static __thread struct vthread *self;
static _Atomic uint64_t nthreads = 1;  /* slots in use: 0 .. nthreads - 1 */
static int by_vt;
static _Atomic uint64_t releases;
static _Atomic uint64_t released_at[SLOTS];
static _Atomic uint64_t release_vt[SLOTS];
static _Atomic uint64_t touched[SLOTS];   /* bit (slot mod 64) */

static unsigned slot(const void *obj)
{
	uint64_t h = (uint64_t)(uintptr_t)obj * 0x9e3779b97f4a7c15u;
	return (unsigned)(h >> 56) % SLOTS;
}

static unsigned site_slot(const void *site)
{
	return (unsigned)(((uintptr_t)site * 0x9e3779b97f4a7c15u) >> 60) % SITES;
}

static uint32_t index_of(const struct vthread *v) { return (uint32_t)(v - vts); }

static uint32_t known(void)
{
	uint64_t n = atomic_load_explicit(&nthreads, memory_order_relaxed);
	return n < ORDER_THREADS ? (uint32_t)n : ORDER_THREADS;
}

static void max_store(_Atomic uint64_t *a, uint64_t v)
{
	uint64_t have = atomic_load_explicit(a, memory_order_relaxed);
	while (have < v && !atomic_compare_exchange_weak(a, &have, v))
		;
}

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
static void settle(struct vthread *v, uint64_t t)
{
	advance(v, t);
	if (by_vt && t - v->wall_mark >= EXACT_NS)
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
static void met(struct vthread *v, unsigned s, const void *obj, const void *site)
{
	unsigned k = site_slot(site);
	atomic_store_explicit(&v->met_at[k].site, (uintptr_t)site, memory_order_relaxed);
	atomic_store_explicit(&v->met_at[k].obj, (uintptr_t)obj, memory_order_relaxed);
	int fresh = VT_FRESH;
	atomic_compare_exchange_strong(&v->state, &fresh, VT_READY);
	atomic_fetch_or_explicit(&touched[s], 1ull << (index_of(v) & 63), memory_order_relaxed);
}

void ptb_tr_order_init(int fifo)
{
	by_vt = fifo;
	self = &vts[0];
	atomic_store(&vts[0].owner, 1);
	atomic_store(&vts[0].stalled, NOT_STALLED);
	atomic_store(&vts[0].state, VT_READY);
	atomic_store(&vts[0].resume, ptb_tr_now());
	if (by_vt)
		mark(&vts[0], ptb_tr_now());
}

/* A thread is about to be created (it may run before the call returns):
 * it starts at its creator's virtual time, and may meet any object.  Its
 * slot must be free, or held by a thread that has ended. */
void ptb_tr_order_create(uint32_t child, const void *start)
{
	struct vthread *c = &vts[child % ORDER_THREADS], *v = self;
	int st = atomic_load(&c->state);
	if (st != VT_UNUSED && st != VT_EXITED)
		return;
	uint64_t vt = 0;
	if (v) {
		settle(v, ptb_tr_now());
		vt = atomic_load(&v->vt);
	}
	atomic_store(&c->owner, child + 1);
	atomic_store(&c->vt, vt);
	atomic_store(&c->resume, 0);
	atomic_store(&c->stalled, NOT_STALLED);
	atomic_store(&c->waiting_on, NULL);
	atomic_store(&c->start, (uintptr_t)start);
	for (unsigned k = 0; k < SITES; k++)
		atomic_store(&c->met_at[k].site, 0);
	c->wall_mark = 0;
	atomic_store(&c->state, VT_FRESH);
	max_store(&nthreads, (uint64_t)(child % ORDER_THREADS) + 1);
}

/* Thread tid begins to run: its slot is its own if its creator gave it one. */
void ptb_tr_order_started(uint32_t tid)
{
	struct vthread *c = &vts[tid % ORDER_THREADS];
	if (atomic_load(&c->owner) != tid + 1 || atomic_load(&c->state) != VT_FRESH)
		return;
	self = c;
	atomic_store(&c->resume, ptb_tr_now());
	if (by_vt)
		mark(c, ptb_tr_now());
}

/* The thread goes on after the program's own yield. */
void ptb_tr_order_resumed(void)
{
	if (self)
		atomic_store(&self->resume, ptb_tr_now());
}

void ptb_tr_order_unborn(uint32_t tid)
{
	struct vthread *c = &vts[tid % ORDER_THREADS];
	if (atomic_load(&c->owner) == tid + 1)
		atomic_store(&c->state, VT_EXITED);
}

void ptb_tr_order_exited(void)
{
	struct vthread *v = self;
	if (!v)
		return;
	settle(v, ptb_tr_now());
	atomic_store(&v->state, VT_EXITED);
	self = NULL;                     /* its slot may go to a new thread now */
}

/* A wait begins (at time t): the thread's work stops there. */
void ptb_tr_order_enter(int kind, const void *obj, const void *site, uint64_t t)
{
	struct vthread *v = self;
	if (!v || kind == PTB_EV_YIELD)
		return;
	atomic_store_explicit(&v->wait_mark, atomic_load(&releases), memory_order_relaxed);
	atomic_store_explicit(&v->waiting_on, obj, memory_order_release);
	if (!by_vt)
		return;
	settle(v, t);
	atomic_store_explicit(&v->blocked_at, t, memory_order_relaxed);
	if (kind == PTB_EV_BARRIER_WAIT)        /* the last arrival opens it */
		max_store(&release_vt[slot(obj)], atomic_load(&v->vt));
	if (kind != PTB_EV_SLEEP && kind != PTB_EV_JOIN)
		met(v, slot(obj), obj, site);
	atomic_store_explicit(&v->state, VT_BLOCKED, memory_order_relaxed);
}

/* The virtual time a joined thread ended at (0 if not known). */
static uint64_t end_of(uint32_t tid)
{
	const struct vthread *c = &vts[tid % ORDER_THREADS];
	return tid != UINT32_MAX && atomic_load(&c->owner) == tid + 1 ? atomic_load(&c->vt) : 0;
}

/* A wait ends at time t with outcome out.  A sleep, or a wait that timed
 * out, took its length (a sleep less the time the thread then queued
 * behind a sibling, arg: us + 1, 0 unknown); a join ends no earlier than
 * the joined thread; any other wait no earlier than its object's latest
 * release. */
void ptb_tr_order_leave(int kind, const void *obj, uint32_t arg, int out, uint64_t t)
{
	struct vthread *v = self;
	if (!v || kind == PTB_EV_YIELD)
		return;
	atomic_store_explicit(&v->waiting_on, NULL, memory_order_release);
	if (!by_vt)
		return;
	mark(v, t);                      /* the floor below holds after the next mark too */
	uint64_t vt = atomic_load(&v->vt), len = t - atomic_load(&v->blocked_at);
	if (kind == PTB_EV_SLEEP) {
		uint64_t q = arg ? (uint64_t)(arg - 1) * 1000 : 0;
		waited(v, vt + (len > q ? len - q : 0));
	} else if (out == PTB_OUT_TIMEOUT) {
		waited(v, vt + len);
	} else if (kind == PTB_EV_JOIN) {
		if (out == PTB_OUT_OK)
			waited(v, end_of(arg));
	} else {
		waited(v, atomic_load(&release_vt[slot(obj)]));
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
	struct vthread *v = self;
	if (!v || !by_vt)
		return;
	advance(v, t0);
	uint64_t est = atomic_load(&v->vt) - v->vt_mark - v->off_since_mark;  /* work since the mark */
	uint64_t len = t1 - t0, own = cpu1 - v->cpu_mark > est ? cpu1 - v->cpu_mark - est : 0;
	own = own < len ? own : len;
	uint64_t q = runq_ns == UINT64_MAX ? 0 : runq_ns;
	atomic_fetch_add(&v->vt, own);
	uint64_t wrote = chan ? atomic_load(&release_vt[slot(chan)]) : 0;
	if (wrote)
		waited(v, wrote);
	else              /* not a channel, or one no thread of the program wrote to: */
		waited(v, atomic_load(&v->vt) + (len - own > q ? len - own - q : 0));  /* a delay */
	atomic_store(&v->resume, t1);
	if (t1 - v->wall_mark >= EXACT_NS)
		mark_at(v, t1, cpu1);
}

/* A write to a channel between the program's threads: a release of its
 * stream (the reader's wait ends no earlier). */
void ptb_tr_order_wrote(const void *chan)
{
	struct vthread *v = self;
	if (!v || !by_vt || !chan)
		return;
	settle(v, ptb_tr_now());
	max_store(&release_vt[slot(chan)], atomic_load(&v->vt));
}

/* The program's own yield: the time away is not its work. */
void ptb_tr_order_pause(void)
{
	struct vthread *v = self;
	if (v && by_vt)
		settle(v, ptb_tr_now());
}

/* A yield; whether another thread ran meanwhile (it took 2 us or more). */
static int yield_recorded(const void *site)
{
	struct vthread *v = self;
	if (v && by_vt)
		settle(v, ptb_tr_now());
	uint64_t a = ptb_tr_now();
	syscall(SYS_sched_yield);          /* not the interposed one */
	uint64_t b = ptb_tr_now();
	if (v)
		atomic_store(&v->resume, b);
	if (b - a < 2000)
		return 0;
	ptb_tr_event_at(a, PTB_EV_YIELD, PTB_PH_ENTER, NULL, 0, 0, site);
	ptb_tr_event_at(b, PTB_EV_YIELD, PTB_PH_LEAVE, NULL, 0, 0, site);
	return 1;
}

static int active(void)
{
	return ptb_tr_recording() && atomic_load_explicit(&nthreads, memory_order_relaxed) >= 2;
}

/* A thread waiting on obj that is not ahead of virtual time vt. */
static int waiter_not_ahead(const void *obj, uint64_t vt)
{
	for (uint32_t i = 0, n = known(); i < n; i++)
		if (atomic_load_explicit(&vts[i].waiting_on, memory_order_acquire) == obj &&
		    atomic_load_explicit(&vts[i].state, memory_order_relaxed) == VT_BLOCKED &&
		    atomic_load_explicit(&vts[i].vt, memory_order_relaxed) <= vt)
			return 1;
	return 0;
}

void ptb_tr_handoff(const void *obj, const void *site)
{
	if (!active())
		return;
	unsigned s = slot(obj);
	atomic_store(&released_at[s], atomic_fetch_add(&releases, 1) + 1);
	struct vthread *v = self;
	if (by_vt && v) {
		settle(v, ptb_tr_now());
		met(v, s, obj, site);
		uint64_t vt = atomic_load(&v->vt);
		max_store(&release_vt[s], vt);
		if (!waiter_not_ahead(obj, vt))
			return;
	}
	yield_recorded(site);
}

/* A thread in a wait on an object released since it began: woken, perhaps,
 * and not yet run.  Under SCHED_FIFO only one not ahead of the caller's
 * virtual time (v, vt; v NULL: any). */
static int maybe_woken(const struct vthread *t, const struct vthread *v, uint64_t vt)
{
	const void *w = atomic_load_explicit(&t->waiting_on, memory_order_acquire);
	if (!w || atomic_load(&released_at[slot(w)]) <= atomic_load(&t->wait_mark))
		return 0;
	if (!v)
		return 1;
	uint64_t r = atomic_load(&release_vt[slot(w)]), own = atomic_load(&t->vt);
	return (r > own ? r : own) <= vt;
}

static void woken_gate(struct vthread *v, const void *site)
{
	static __thread uint64_t seen;     /* releases at this thread's last gate */
	/* No release since: no thread can have been woken since then, and any
	 * woken then has run or been found waiting (below).  The common
	 * uncontended lock pays one load here, not a walk of the threads. */
	uint64_t now_released = atomic_load(&releases);
	if (now_released == seen)
		return;
	seen = now_released;
	uint64_t vt = v ? atomic_load(&v->vt) : 0;
	uint32_t n = known();
	int any = 0;
	for (uint32_t i = 0; i < n && !any; i++)
		any = &vts[i] != self && maybe_woken(&vts[i], v, vt);
	if (!any)
		return;
	yield_recorded(site);
	/* Every ready thread has run (under SCHED_FIFO); one still waiting was
	 * not woken: not a reason to yield again until its object's next release. */
	uint64_t r = atomic_load(&releases);
	for (uint32_t i = 0; i < n; i++)
		if (&vts[i] != self && maybe_woken(&vts[i], NULL, 0))
			atomic_store(&vts[i].wait_mark, r);
}

/* Whether thread t may come to obj (slot s) at site: it has touched the
 * object, or met no object yet, or it is of v's pool (started by the same
 * routine) and has not been at site with an object of its own (the
 * worker's own mutex: every worker comes to the site, each with its own;
 * the pool's lock: a worker that has not finished a job has not come to
 * it yet, but will).  Not a thread a yield found not running since. */
static int may_come(const struct vthread *t, const struct vthread *v, unsigned s,
		    const void *obj, const void *site)
{
	int st = atomic_load_explicit(&t->state, memory_order_relaxed);
	if (st != VT_FRESH && st != VT_READY)
		return 0;
	if (atomic_load_explicit(&t->stalled, memory_order_relaxed) ==
	    atomic_load_explicit(&t->resume, memory_order_relaxed))
		return 0;
	if (st == VT_FRESH ||
	    atomic_load_explicit(&touched[s], memory_order_relaxed) >> (index_of(t) & 63) & 1)
		return 1;
	uintptr_t pool = atomic_load_explicit(&v->start, memory_order_relaxed);
	if (!pool || atomic_load_explicit(&t->start, memory_order_relaxed) != pool)
		return 0;
	unsigned k = site_slot(site);
	return atomic_load_explicit(&t->met_at[k].site, memory_order_relaxed) != (uintptr_t)site ||
	       atomic_load_explicit(&t->met_at[k].obj, memory_order_relaxed) == (uintptr_t)obj;
}

/* The threads behind virtual time vt that may come to obj first, with
 * where each last passed the interposer (at most 64; their count). */
static int behind(unsigned s, const struct vthread *v, uint64_t vt, const void *obj,
		  const void *site, uint32_t who[64], uint64_t when[64])
{
	int k = 0;
	for (uint32_t i = 0, n = known(); i < n && k < 64; i++) {
		const struct vthread *t = &vts[i];
		if (t != v && atomic_load_explicit(&t->vt, memory_order_relaxed) < vt &&
		    may_come(t, v, s, obj, site)) {
			who[k] = i;
			when[k++] = atomic_load_explicit(&t->resume, memory_order_relaxed);
		}
	}
	return k;
}

/* Before an acquire of obj: the yields to the threads behind.  One that
 * did not pass the interposer during a yield is not running (blocked
 * outside a traced call: a read, sigwait, accept; or cancelled) and is
 * left out until it next passes; a yield that nobody took ends the wait,
 * and so do GATE_YIELDS. */
static void vt_gate(struct vthread *v, unsigned s, const void *obj, const void *site)
{
	uint64_t vt = atomic_load(&v->vt), when[64];
	uint32_t who[64];
	for (int i = 0; i < GATE_YIELDS; i++) {
		int k = behind(s, v, vt, obj, site, who, when);
		if (!k)
			return;
		int took = yield_recorded(site);
		for (int j = 0; j < k; j++)
			if (atomic_load(&vts[who[j]].resume) == when[j])
				atomic_store(&vts[who[j]].stalled, when[j]);
		if (!took)
			return;
	}
}

/* Before an acquire of obj: first mark the caller a toucher of obj (a
 * thread that yields below is about to take it), then the yields. */
void ptb_tr_gate(const void *obj, const void *site)
{
	if (!active())
		return;
	struct vthread *v = by_vt ? self : NULL;
	unsigned s = slot(obj);
	if (v) {
		settle(v, ptb_tr_now());
		met(v, s, obj, site);
	}
	woken_gate(v, site);
	if (v)
		vt_gate(v, s, obj, site);
}
