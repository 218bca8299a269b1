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
 *   waiting on a CPU of its own.  A mutex's waiters include the threads
 *   in a condition wait on it whose condition was signalled since: woken,
 *   they take the mutex again inside the C library, unseen.
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
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/interpose.h"
#include "trace/interpose-vt.h"

#define GATE_YIELDS 64

/* A yield; whether another thread ran meanwhile (it took 2 us or more). */
static int yield_recorded(const void *site)
{
	struct vthread *v = ptb_tr_vt_self;
	if (v && ptb_tr_by_vt)
		ptb_tr_vt_settle(v, ptb_tr_now());
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
	return ptb_tr_recording() && atomic_load_explicit(&ptb_tr_vt_slots, memory_order_relaxed) >= 2;
}

/* Whether thread t waits on obj: in a wait on it, or in a condition wait
 * whose mutex obj is and whose condition was signalled since the wait
 * began or since a yield found it not woken (woken, perhaps, and now
 * waiting to take obj again inside the C library, where no wrapper sees
 * it).  Signals are kept apart from other releases, so that unlocks of a
 * mutex that shares the condition's slot do not count. */
static int waits_on(const struct vthread *t, const void *obj)
{
	const void *w = atomic_load_explicit(&t->waiting_on, memory_order_acquire);
	if (w == obj)
		return 1;
	return w && atomic_load_explicit(&t->relock, memory_order_relaxed) == obj &&
	       atomic_load(&ptb_tr_signalled_at[slot(w)]) > atomic_load(&t->began);
}

/* After a yield at the release of mutex obj: a thread still in a
 * condition wait on it was not woken (one woken would have taken obj
 * during the yield, under SCHED_FIFO), and counts again only after its
 * condition's next signal -- one signal wakes one of many waiters. */
static void not_woken(const void *obj)
{
	uint64_t r = atomic_load(&ptb_tr_releases);
	for (uint32_t i = 0, n = known(); i < n; i++) {
		struct vthread *t = &ptb_tr_vts[i];
		if (t != ptb_tr_vt_self && atomic_load_explicit(&t->relock, memory_order_relaxed) == obj &&
		    atomic_load_explicit(&t->waiting_on, memory_order_acquire))
			atomic_store(&t->began, r);
	}
}

/* A thread waiting on obj that is not ahead of virtual time vt.  The
 * mutex of a condition wait counts: a producer that signals under its
 * queue's lock, unlocks, and locks again for the next job would
 * otherwise take the lock back before the woken worker ran, each time,
 * and on one PU fill the queue before any worker took a job -- pbzip2
 * -p8's first 8 blocks woke one worker in its recording, where 8 CPUs
 * wake 8, and three workers were recorded with 3 blocks each. */
static int waiter_not_ahead(const void *obj, uint64_t vt)
{
	for (uint32_t i = 0, n = known(); i < n; i++)
		if (waits_on(&ptb_tr_vts[i], obj) &&
		    atomic_load_explicit(&ptb_tr_vts[i].state, memory_order_relaxed) == VT_BLOCKED &&
		    atomic_load_explicit(&ptb_tr_vts[i].vt, memory_order_relaxed) <= vt)
			return 1;
	return 0;
}

/* A release of obj (cond: a condition's signal or broadcast). */
static void handoff(const void *obj, const void *site, int cond)
{
	if (!active())
		return;
	unsigned s = slot(obj);
	uint64_t r = atomic_fetch_add(&ptb_tr_releases, 1) + 1;
	atomic_store(&ptb_tr_released_at[s], r);
	if (cond)
		atomic_store(&ptb_tr_signalled_at[s], r);
	struct vthread *v = ptb_tr_vt_self;
	if (ptb_tr_by_vt && v) {
		ptb_tr_vt_settle(v, ptb_tr_now());
		ptb_tr_vt_met(v, s, obj, site);
		uint64_t vt = atomic_load(&v->vt);
		max_store(&ptb_tr_release_vt[s], vt);  /* the highest: whom an earlier release */
		                                        /* woke may run after a later one */
		if (!waiter_not_ahead(obj, vt))
			return;
	}
	yield_recorded(site);
	if (ptb_tr_by_vt && !cond)
		not_woken(obj);
}

void ptb_tr_handoff(const void *obj, const void *site)
{
	handoff(obj, site, 0);
}

void ptb_tr_handoff_cond(const void *c, const void *site)
{
	handoff(c, site, 1);
}

/* A thread in a wait on an object released since it began: woken, perhaps,
 * and not yet run.  Under SCHED_FIFO only one not ahead of the caller's
 * virtual time (v, vt; v NULL: any). */
static int maybe_woken(const struct vthread *t, const struct vthread *v, uint64_t vt)
{
	const void *w = atomic_load_explicit(&t->waiting_on, memory_order_acquire);
	if (!w || atomic_load(&ptb_tr_released_at[slot(w)]) <= atomic_load(&t->wait_mark))
		return 0;
	if (!v)
		return 1;
	uint64_t r = atomic_load(&ptb_tr_release_vt[slot(w)]), own = atomic_load(&t->vt);
	return (r > own ? r : own) <= vt;
}

static void woken_gate(struct vthread *v, const void *site)
{
	static __thread uint64_t seen;     /* releases at this thread's last gate */
	/* No release since: no thread can have been woken since then, and any
	 * woken then has run or been found waiting (below), or was ahead of
	 * this thread (then seen stays behind, and it is looked at again).
	 * The common uncontended lock pays one load here. */
	uint64_t now_released = atomic_load(&ptb_tr_releases);
	if (now_released == seen)
		return;
	uint64_t vt = v ? atomic_load(&v->vt) : 0;
	uint32_t n = known();
	int woken = 0, due = 0;
	for (uint32_t i = 0; i < n && !due; i++)
		if (&ptb_tr_vts[i] != ptb_tr_vt_self && maybe_woken(&ptb_tr_vts[i], NULL, 0)) {
			woken = 1;
			due = maybe_woken(&ptb_tr_vts[i], v, vt);
		}
	if (!woken)
		seen = now_released;
	if (!due)
		return;
	seen = now_released;
	yield_recorded(site);
	/* Every ready thread has run (under SCHED_FIFO); one still waiting was
	 * not woken: not a reason to yield again until its object's next release. */
	uint64_t r = atomic_load(&ptb_tr_releases);
	for (uint32_t i = 0; i < n; i++)
		if (&ptb_tr_vts[i] != ptb_tr_vt_self && maybe_woken(&ptb_tr_vts[i], NULL, 0))
			atomic_store(&ptb_tr_vts[i].wait_mark, r);
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
	    atomic_load_explicit(&ptb_tr_touched[s], memory_order_relaxed) >> (index_of(t) & 63) & 1)
		return 1;
	uintptr_t pool = atomic_load_explicit(&v->start, memory_order_relaxed);
	if (!pool || atomic_load_explicit(&t->start, memory_order_relaxed) != pool)
		return 0;
	unsigned k = site_slot(site);
	return atomic_load_explicit(&t->met_at[k].site, memory_order_relaxed) != (uintptr_t)site ||
	       atomic_load_explicit(&t->met_at[k].obj, memory_order_relaxed) == (uintptr_t)obj;
}

/* Thread t's virtual time now: in a call that may block on I/O, the
 * time it entered it plus the call's length so far (it comes back no
 * earlier). */
static uint64_t vt_now(const struct vthread *t, uint64_t now)
{
	uint64_t vt = atomic_load_explicit(&t->vt, memory_order_relaxed);
	uint64_t io = atomic_load_explicit(&t->io_since, memory_order_acquire);
	return io && now > io ? vt + (now - io) : vt;
}

/* The threads behind virtual time vt that may come to obj first, with
 * where each last passed the interposer (at most 64; their count); *io:
 * whether one of them is in a call that may block on I/O. */
static int behind(unsigned s, const struct vthread *v, uint64_t vt, const void *obj,
		  const void *site, uint32_t who[64], uint64_t when[64], int *io)
{
	int k = 0;
	uint64_t now = ptb_tr_now();
	*io = 0;
	for (uint32_t i = 0, n = known(); i < n && k < 64; i++) {
		const struct vthread *t = &ptb_tr_vts[i];
		if (t != v && vt_now(t, now) < vt && may_come(t, v, s, obj, site)) {
			who[k] = i;
			when[k++] = atomic_load_explicit(&t->resume, memory_order_relaxed);
			*io |= atomic_load_explicit(&t->io_since, memory_order_relaxed) != 0;
		}
	}
	return k;
}

/* Time away from the PU while a thread behind is in an I/O call and no
 * other can run: a short sleep, recorded as a yield (not work). */
static void nap_recorded(const void *site)
{
	struct vthread *v = ptb_tr_vt_self;
	uint64_t a = ptb_tr_now();
	struct timespec ts = { 0, 50000 };
	syscall(SYS_nanosleep, &ts, NULL);          /* not the interposed one */
	uint64_t b = ptb_tr_now();
	if (v)
		atomic_store(&v->resume, b);
	ptb_tr_event_at(a, PTB_EV_YIELD, PTB_PH_ENTER, NULL, 0, 0, site);
	ptb_tr_event_at(b, PTB_EV_YIELD, PTB_PH_LEAVE, NULL, 0, 0, site);
}

/* Whether the kernel has thread ktid ready to run (its state R), from
 * /proc by syscall (some microseconds). */
static int ready_to_run(int ktid)
{
	char path[64], buf[128];
	snprintf(path, sizeof path, "/proc/self/task/%d/stat", ktid);
	int f = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return 0;
	ssize_t n = syscall(SYS_read, f, buf, sizeof buf - 1);
	syscall(SYS_close, f);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	const char *p = buf;
	for (const char *c = buf; *c; c++)  /* the state follows the name's ")" */
		if (*c == ')')
			p = c;
	return p[0] == ')' && p[1] == ' ' && p[2] == 'R';
}

/* A thread whose I/O call has ended in the kernel but which waits for
 * the PU: under SCHED_FIFO it runs only when the running thread blocks or
 * yields, and a worker that meets only its own objects may not for a
 * long time (xz's main thread waited 0.7 s for the PU after a read of an
 * uncached input, its workers finished their blocks meanwhile, and the
 * read, its descriptor's first long call, kept that as its wait).  On
 * many CPUs it would run now; what it meets next still waits its turn
 * at the gates.  Looked at once in 200 us of a thread's gates. */
static int io_done(const struct vthread *v)
{
	static __thread uint64_t looked;
	uint64_t now = ptb_tr_now();
	if (now - looked < 200000)
		return 0;
	looked = now;
	for (uint32_t i = 0, n = known(); i < n; i++) {
		const struct vthread *t = &ptb_tr_vts[i];
		uint64_t io = atomic_load_explicit(&t->io_since, memory_order_acquire);
		if (t != v && io && now - io >= 50000 && ready_to_run(atomic_load(&t->ktid)))
			return 1;
	}
	return 0;
}

/* Before an acquire of obj: the yields to the threads behind.  One that
 * did not pass the interposer during a yield is not running (blocked
 * outside a traced call: sigwait, a raw futex; or cancelled) and is left
 * out until it next passes -- unless it is in an I/O call, which it will
 * leave: then, when nobody else can run, the caller waits for it in short
 * sleeps (a read of a slow pipe or disk: xz's main thread, whose workers
 * would otherwise finish their blocks before it looks for a free one).
 * A yield that nobody took, with nobody in I/O behind, ends the wait, and
 * so do GATE_YIELDS. */
static void vt_gate(struct vthread *v, unsigned s, const void *obj, const void *site)
{
	uint64_t vt = atomic_load(&v->vt), when[64];
	uint32_t who[64];
	int io;
	if (io_done(v))
		yield_recorded(site);
	for (int i = 0; i < GATE_YIELDS; i++) {
		int k = behind(s, v, vt, obj, site, who, when, &io);
		if (!k)
			return;
		int took = yield_recorded(site);
		for (int j = 0; j < k; j++)
			if (atomic_load(&ptb_tr_vts[who[j]].resume) == when[j] &&
			    !atomic_load(&ptb_tr_vts[who[j]].io_since))
				atomic_store(&ptb_tr_vts[who[j]].stalled, when[j]);
		if (!took && !io)
			return;
		if (!took)
			nap_recorded(site);
	}
}

/* Before an acquire of obj: first mark the caller a toucher of obj (a
 * thread that yields below is about to take it), then the yields. */
void ptb_tr_gate(const void *obj, const void *site)
{
	if (!active())
		return;
	struct vthread *v = ptb_tr_by_vt ? ptb_tr_vt_self : NULL;
	unsigned s = slot(obj);
	if (v) {
		ptb_tr_vt_settle(v, ptb_tr_now());
		ptb_tr_vt_met(v, s, obj, site);
	}
	woken_gate(v, site);
	if (v)
		vt_gate(v, s, obj, site);
}

