/* SPDX-License-Identifier: MIT */
/*
 * The simulator's clock (trace/sim.h): bursts shrink at the rate the CPUs
 * allow (1, or N / runnable when more threads can run than there are
 * CPUs; divided by the target machine's co-running slowdown for the
 * threads running at once, when --machine gives one); when one ends, its
 * operation runs at that instant; delays end at their time.  When nothing can run and no delay is pending while threads
 * still wait, the replay has met an order the recording never took: the
 * wait that began first is released and counted as forced (a wait for a
 * lock only when all are).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "trace/sim-int.h"

static int add_wake(struct sthread *th, double from, double at, double ready, int obj, int by)
{
	if (th->nw == th->capw) {
		size_t cap = th->capw ? th->capw * 2 : 16;
		struct wake *w = realloc(th->w, cap * sizeof *w);
		if (!w)
			return -1;
		th->w = w, th->capw = cap;
	}
	th->w[th->nw++] = (struct wake){ from, at, ready, obj, by };
	return 0;
}

void ptb_sim_advance(struct sim *s, int t)
{
	struct sthread *th = &s->th[t];
	const struct ptb_op_thread *ot = &s->o->th[t];
	th->state = TS_RUN;
	if (th->retry) {                         /* woken from a mutex's queue */
		th->retry = 0;
		if (ptb_sim_retry_lock(s, t))    /* taken meanwhile: asleep again */
			return;
	}
	th->requeued = 0;
	if (++th->pc >= ot->n) {                 /* cannot happen: the last is an exit */
		th->state = TS_DONE;
		return;
	}
	th->left = ot->op[th->pc].burst + th->owed;
	th->owed = 0;
	if (th->left <= 0)
		s->work[s->nwork++] = t;
}

/* Whether thread t waits for a spin lock (on its CPU, spinning). */
static int spins(const struct sim *s, const struct sobj *ob, int t)
{
	return ob->kind == PTB_OP_LOCK &&
	       (s->o->th[t].op[s->th[t].pc].arg & PTB_LOCK_SPIN);
}

/* What the target machine charges for releasing a waiter of ob (`by`,
 * another thread, released it): a lock changing hands (for a spin lock,
 * only its line moving over: its waiter does not sleep), or a wake-up. */
static double wake_cost(const struct sim *s, const struct sobj *ob, int t, int by)
{
	if (by < 0 || by == t || ptb_op_is_delay(ob->kind))
		return 0;
	if (spins(s, ob, t))
		return s->costs.spin_handoff_ns;
	if (ob->kind == PTB_OP_LOCK || ob->kind == PTB_OP_RDLOCK || ob->kind == PTB_OP_WRLOCK)
		return s->costs.handoff_ns;
	return s->costs.wake_ns;
}

/* Whether a thread holds or is about to take a CPU: running, or off it
 * only while it wakes up or starts (a --machine cost). */
static int on_cpu(const struct sthread *th)
{
	return th->state == TS_RUN || (th->state == TS_DELAYED &&
				       (th->resume || (th->pc == (size_t)-1 && th->creator >= 0)));
}

/* Whether a thread that blocked on a lock just after a charged wake-up
 * was, on the machine, still waking from it, so that the lock's release
 * needs no second interrupt: it blocked within the waker's cost of being
 * woken, which the replay took as instant (no delay: no latency figure,
 * no --machine cost).  Delayed, it ran before it blocked, as it did on
 * the machine. */
static int still_waking(const struct sim *s, const struct sthread *th)
{
	const struct wake *last = &th->w[th->nw - 1];
	return last->ready <= last->at && th->blocked_at - last->ready <= s->costs.remote_wake_ns;
}

/* Whether waking t costs its waker remote_wake_ns (struct ptb_sim_costs):
 * the waker still runs (an exiting thread's wake of its joiner is the
 * kernel's), a CPU is idle, and t sleeps: not a spin lock's waiter, nor a
 * thread that blocked on a mutex while still waking from a wake-up that
 * was charged. */
static int wakes_idle_cpu(const struct sim *s, const struct sobj *ob, int t, int by)
{
	const struct sthread *th = &s->th[t];
	if (s->costs.remote_wake_ns <= 0 || by < 0 || by == t || ptb_op_is_delay(ob->kind) ||
	    s->th[by].state != TS_RUN)
		return 0;
	if (spins(s, ob, t))
		return 0;                        /* a spinner is on its CPU */
	if (ob->kind == PTB_OP_LOCK && th->woke_charged && still_waking(s, th))
		return 0;
	int running = 0;
	for (size_t k = 0; k < s->nlive && running < s->cpus; k++)
		running += on_cpu(&s->th[s->live[k]]);
	return running < s->cpus;
}

/* When thread t's present wait began: its first try of a mutex it found
 * taken again since, else when it blocked. */
static double wait_began(const struct sthread *th)
{
	return th->requeued ? th->since : th->blocked_at;
}

int ptb_sim_wake(struct sim *s, int t, int by)
{
	struct sthread *th = &s->th[t];
	th->deadline = 0;
	double d = s->now - wait_began(th), cost = 0;
	if (th->blocked_on >= 0) {               /* not a thread's first start */
		struct sobj *ob = &s->obj[th->blocked_on];
		ob->wait_ns += d, ob->waits++;
		if (d > ob->longest)
			ob->longest = d, ob->site = s->o->th[t].op[th->pc].site;
		cost = wake_cost(s, ob, t, by);
		int charged = wakes_idle_cpu(s, ob, t, by);
		if (charged)
			s->th[by].owed += s->costs.remote_wake_ns, s->remote_wakes++;
		/* not for a rwlock, handed to its waiter at once, who would hold
		 * it while it wakes (a convoy of two lockers on 2 CPUs came out 17
		 * times too slow when mutexes were handed over); a mutex's waiter
		 * only tries it again, and its releaser may take it meanwhile */
		if (charged && !ptb_sim_handed_over(s, th->blocked_on) &&
		    s->costs.remote_latency_ns > cost)
			cost = s->costs.remote_latency_ns;
		th->woke_charged = charged;
	}
	if (add_wake(th, th->blocked_at, s->now, s->now + cost, th->blocked_on, by))
		return -1;
	if (cost > 0)                            /* off the CPU until it is awake */
		th->state = TS_DELAYED, th->until = s->now + cost, th->resume = 1;
	else
		ptb_sim_advance(s, t);
	return 0;
}

/* Run every operation that is due now (running one may make others due). */
static int settle(struct sim *s)
{
	while (s->nwork) {
		int t = s->work[--s->nwork];
		if (s->th[t].state != TS_RUN || s->th[t].left > 0)
			continue;
		int rc = ptb_sim_exec(s, t);
		if (rc < 0)
			return -1;
		if (rc == 0)
			ptb_sim_advance(s, t);
	}
	return 0;
}

/* Kept in order of number, so that a step visits threads in the order it
 * always did (a program of 50000 threads in turn took 115 s to predict
 * when every step looked at every thread). */
void ptb_sim_born(struct sim *s, int t)
{
	size_t lo = 0, hi = s->nlive;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->live[mid] < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(s->live + lo + 1, s->live + lo, (s->nlive - lo) * sizeof *s->live);
	s->live[lo] = t, s->nlive++;
}

/* The live threads less those now done. */
static void drop_done(struct sim *s)
{
	size_t k = 0;
	for (size_t i = 0; i < s->nlive; i++)
		if (s->th[s->live[i]].state != TS_DONE)
			s->live[k++] = s->live[i];
	s->nlive = k;
}

/* Nothing can run: release the wait that began first (a mutex's waiter
 * that found it taken again waits since its first try), a wait for a lock
 * only when every thread waits for one.  A join, a condition or a
 * semaphore released early lets its thread run on in an order the
 * recording did not take; a lock released into would have two holders,
 * and its owner's critical section run beside the next waiter's (pigz -p 4
 * replayed on 1 CPU: its main thread holds the lock and joins a worker
 * still to take it, and the worker's wait began first). */
static int force(struct sim *s)
{
	int best = -1, best_lock = 1;
	for (size_t k = 0; k < s->nlive; k++) {
		int i = s->live[k];
		if (s->th[i].state != TS_BLOCKED)
			continue;
		int lock = ptb_sim_exclusive(s, s->th[i].blocked_on);
		if (best < 0 || lock < best_lock ||
		    (lock == best_lock && wait_began(&s->th[i]) < wait_began(&s->th[best])))
			best = i, best_lock = lock;
	}
	if (best < 0)
		return 0;
	if (best_lock)
		s->th[best].forced_into = 1 + s->th[best].blocked_on;
	ptb_sim_unlink(s, s->th[best].blocked_on, best);
	s->forced++;
	return ptb_sim_wake(s, best, -1) < 0 ? -1 : 1;
}

/* The factor by which CPU work stretches while k threads run at once on
 * the target machine (struct ptb_sim_costs): processor sharing keeps
 * min(runnable, N) CPUs busy, and each of their threads competes with the
 * others for the shared caches and memory. */
static double slowdown(const struct sim *s, int k)
{
	const struct ptb_sim_costs *c = &s->costs;
	if (k < 1 || c->nslow < 1)
		return 1.0;
	double f = c->slowdown[(k <= c->nslow ? k : c->nslow) - 1];
	return f > 0 ? f : 1.0;
}

/* One step of the clock: to the next end of a burst or of a delay.
 * 0 stepped, 1 every thread is done, -1 no memory. */
static int step(struct sim *s)
{
	int runnable = 0, first = -1;
	double next_delay = INFINITY, min_left = INFINITY;
	drop_done(s);
	for (size_t k = 0; k < s->nlive; k++) {
		int i = s->live[k];
		struct sthread *th = &s->th[i];
		if (th->state == TS_RUN && th->left > 0) {
			runnable++;
			if (th->left < min_left)
				min_left = th->left, first = i;
		} else if (th->state == TS_DELAYED && th->until < next_delay) {
			next_delay = th->until;
		} else if (th->state == TS_BLOCKED && th->deadline > 0 && th->deadline < next_delay) {
			next_delay = th->deadline;
		}
	}
	if (!runnable && next_delay == INFINITY) {
		int f = force(s);
		return f < 0 ? -1 : f == 0 ? 1 : 0;
	}
	double rate = runnable > s->cpus ? (double)s->cpus / runnable : 1.0;
	rate /= slowdown(s, runnable < s->cpus ? runnable : s->cpus);
	if (runnable > s->cpus && s->costs.slice_cost > 0)
		rate /= 1 + s->costs.slice_cost * (runnable - s->cpus);
	double dt = runnable ? min_left / rate : INFINITY;
	if (next_delay - s->now < dt)
		dt = next_delay - s->now, first = -1;
	if (dt < 0)
		dt = 0;
	s->now += dt;
	if (runnable > s->cpus)
		s->shared_ns += dt, s->excess_ns += dt * (runnable - s->cpus);
	s->busy_ns += dt * (runnable < s->cpus ? runnable : s->cpus);
	for (size_t k = 0; k < s->nlive; k++) {
		int i = s->live[k];
		struct sthread *th = &s->th[i];
		if (th->state == TS_RUN && th->left > 0) {
			th->left -= rate * dt;
			if (i == first || th->left <= 1e-6 * (1 + fabs(th->left)))
				th->left = 0, s->work[s->nwork++] = i;
		} else if (th->state == TS_DELAYED && th->until <= s->now && th->resume) {
			th->resume = 0;
			ptb_sim_advance(s, i);
		} else if (th->state == TS_DELAYED && th->until <= s->now) {
			if (ptb_sim_wake(s, i, i))
				return -1;
		} else if (th->state == TS_BLOCKED && th->deadline > 0 && th->deadline <= s->now) {
			ptb_sim_unlink(s, th->blocked_on, i);    /* its timeout, before any signal */
			if (ptb_sim_wake(s, i, i))
				return -1;
		}
	}
	return 0;
}

static int start(struct sim *s)
{
	uint32_t n = s->o->nthreads;
	s->th = calloc(n, sizeof *s->th);
	s->work = malloc((4 * (size_t)n + 4) * sizeof *s->work);
	s->live = malloc(((size_t)n + 1) * sizeof *s->live);
	if (!s->th || !s->work || !s->live)
		return -1;
	int *created = calloc(n, sizeof *created);
	if (!created)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		for (size_t k = 0; k < s->o->th[i].n; k++)
			if (s->o->th[i].op[k].kind == PTB_OP_CREATE && s->o->th[i].op[k].arg < n)
				created[s->o->th[i].op[k].arg] = 1;
	for (uint32_t i = 0; i < n; i++) {
		struct sthread *th = &s->th[i];
		th->creator = -1, th->next = -1;
		th->state = TS_UNBORN;
		if (!s->o->th[i].n)
			th->state = TS_DONE;
		else if (i == 0 || !created[i]) {     /* begins when it began */
			th->state = TS_DELAYED, th->pc = (size_t)-1;
			uint64_t t0 = s->o->th[0].start_t, t = s->o->th[i].start_t;
			th->until = t > t0 ? (double)(t - t0) : 0;
			th->born = th->until;
			th->blocked_at = 0, th->blocked_on = -1;
			s->live[s->nlive++] = (int)i;
		}
	}
	free(created);
	return 0;
}

static void visit(const struct sim *s, const struct ptb_sim_visitor *v)
{
	for (uint32_t i = 0; i < s->o->nthreads; i++) {
		const struct sthread *th = &s->th[i];
		if (!s->o->th[i].n)
			continue;
		v->thread(v->ctx, (int)i, th->born, th->until);
		for (size_t k = 0; k < th->nw; k++)
			if (th->w[k].obj >= 0 && th->w[k].ready > th->w[k].from)
				v->wait(v->ctx, (int)i, th->w[k].from, th->w[k].ready,
					s->obj[th->w[k].obj].kind, s->obj[th->w[k].obj].addr,
					th->w[k].by);
	}
}

int ptb_sim_run(const struct ptb_ops *o, int cpus, const struct ptb_sim_costs *costs,
		struct ptb_sim_result *r, const struct ptb_sim_visitor *v)
{
	struct sim s = { .o = o, .cpus = cpus };
	if (costs)
		s.costs = *costs;
	memset(r, 0, sizeof *r);
	int rc = start(&s);
	while (rc == 0) {
		rc = settle(&s);
		if (rc == 0)
			rc = step(&s);
	}
	if (rc == 1) {
		r->cpus = cpus, r->wall_ns = s.now, r->cpu_ns = o->cpu_ns;
		r->ops = s.ops, r->forced = s.forced, r->remote_wakes = s.remote_wakes;
		r->group_releases = s.group_releases, r->group_woken = s.group_woken;
		r->shared_ns = s.shared_ns;
		r->excess_ns = s.excess_ns;
		r->busy_ns = s.busy_ns;
		rc = ptb_sim_path(&s, r);
		if (v && !rc)
			visit(&s, v);
	}
	for (uint32_t i = 0; s.th && i < o->nthreads; i++)
		free(s.th[i].w);
	for (size_t i = 0; i < s.nobj; i++)
		free(s.obj[i].tok);
	free(s.th), free(s.work), free(s.live), free(s.obj), free(s.slot);
	return rc;
}
