/* SPDX-License-Identifier: MIT */
/* From events to operations (trace/ops.h): one pass per thread. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "trace/ops.h"

/* One thread's pass: the burst being gathered and the stretch since the
 * last CPU-clock reading. */
struct pass {
	struct ptb_op_thread *th;
	double pending;          /* wall ns gathered for the next operation, unscaled */
	double settled;          /* and its part in a stretch already closed, scaled */
	uint64_t last_end;       /* when the thread last came back from a call */
	size_t stretch_from;     /* first operation of the stretch */
	uint64_t last_cpu;
	uint32_t probes;         /* events since the last operation */
	uint32_t probe_ns;
	const struct ptb_tev *enter;
	size_t split_op;         /* an I/O call, or a wait that timed out, whose wall
				  * time awaits its split, */
	double split_wall;       /* and that wall time (split_op == SIZE_MAX: none), */
	double split_runq;       /* and its time ready but waiting for the PU */
};

static int emit(struct pass *p, int kind, const struct ptb_tev *e, uint64_t arg)
{
	struct ptb_op_thread *th = p->th;
	if (th->n == th->cap) {
		size_t cap = th->cap ? th->cap * 2 : 4;   /* many threads have few */
		struct ptb_op *o = realloc(th->op, cap * sizeof *o);
		if (!o)
			return -1;
		th->op = o, th->cap = cap;
	}
	th->op[th->n++] = (struct ptb_op){ .burst = p->settled, .open = p->pending,
					   .probes = p->probes, .obj = e->obj, .site = e->site,
					   .t = e->t, .arg = arg, .kind = (uint8_t)kind };
	p->pending = p->settled = 0, p->probes = 0;
	return 0;
}

/* A CPU-clock reading closes a stretch: its bursts shrink to the CPU time
 * the thread really had (never grow: a call's own CPU time is not work).
 * After a long I/O call or a wait that timed out, what the stretch had
 * beyond its bursts is the call's own CPU time; the rest of its wall time,
 * less the time it spent ready but waiting for the PU (a timeout fires
 * while a sibling holds the PU), is its wait. */
static void stretch(struct pass *p, uint64_t cpu, int last)
{
	double w = p->pending, got = cpu > p->last_cpu ? (double)(cpu - p->last_cpu) : 0;
	for (size_t i = p->stretch_from; i < p->th->n; i++)
		w += p->th->op[i].open;
	double r = w > got && w > 0 && !last ? got / w : 1;
	if (r < 1)                       /* off the CPU, but in no traced call */
		p->th->untraced_ns += w - got;
	for (size_t i = p->stretch_from; i < p->th->n; i++)
		p->th->op[i].burst += p->th->op[i].open * r, p->th->op[i].open = 0;
	if (p->split_op != SIZE_MAX) {   /* the call's CPU time: what the stretch had beyond */
		struct ptb_op *op = &p->th->op[p->split_op];  /* the bursts (none at the end) */
		double cpu = last || got <= w ? 0 : got - w < p->split_wall ? got - w : p->split_wall;
		double wait = p->split_wall - cpu - p->split_runq;
		op->burst += cpu;
		op->wait = wait > 0 ? wait : 0;
		if (op->kind == PTB_OP_DELAY)       /* a timeout's: the time it kept the thread off */
			op->arg = (uint64_t)op->wait;
		p->split_op = SIZE_MAX, p->split_runq = 0;
	}
	p->settled += p->pending * r;
	p->pending = 0;
	p->stretch_from = p->th->n;
	p->last_cpu = cpu;
}

/* The end of a thread's pass: what no reading closed counts as recorded,
 * and the probes' own cost comes off the bursts.  Part of it is lumpy --
 * the checksum and the write of a full buffer fall in one burst in 16,384
 * events -- so what a burst is too short to pay is owed by the next: cut
 * off at each burst instead, 2 million lock and unlock pairs that took
 * 0.01 s unrecorded were predicted 0.17 s. */
static void settle_thread(struct pass *p)
{
	stretch(p, 0, 1);
	double owed = 0;
	for (size_t i = 0; i < p->th->n; i++) {
		struct ptb_op *op = &p->th->op[i];
		owed += (double)op->probes * p->probe_ns;
		double paid = op->burst < owed ? op->burst : owed;
		op->burst -= paid, owed -= paid;
	}
}

/* An I/O call: on a pipe or socket pair, a channel operation (the
 * classification at the end may make it a delay); else a delay. */
static int io_op_of(const struct ptb_tev *e)
{
	if (e->outcome & PTB_IO_FAILED && e->kind != PTB_EV_IO)
		return -1;                       /* moved nothing: EAGAIN, EINTR */
	int fd = e->outcome & 0xff, chan = fd == PTB_FD_PIPE || fd == PTB_FD_PAIR;
	if (!chan || !e->obj || e->kind == PTB_EV_IO)
		return PTB_OP_IO;
	return e->kind == PTB_EV_READ ? PTB_OP_CH_READ : e->kind == PTB_EV_WRITE ? PTB_OP_CH_WRITE
									    : PTB_OP_CH_POLL;
}

/* A sleep's length, less the time its thread then waited for the PU (the
 * leave event's arg: microseconds + 1, 0 when not read). */
static uint64_t sleep_ns(const struct ptb_tev *e, const struct ptb_tev *enter)
{
	uint64_t wall = enter ? e->t - enter->t : 0, runq = e->arg ? (uint64_t)(e->arg - 1) * 1000 : 0;
	return wall > runq ? wall - runq : 0;
}

/* The operation a call stands for; -1 when it changes nothing (a failed
 * trylock, a yield, a once). */
static int op_of(const struct ptb_tev *e, const struct ptb_tev *enter, uint64_t *arg)
{
	int ok = e->outcome == PTB_OUT_OK;
	*arg = e->arg;
	if (e->kind >= PTB_EV_READ && e->kind <= PTB_EV_IO)
		return io_op_of(e);
	if (e->kind == PTB_EV_COND_WAIT && e->outcome == PTB_OUT_TIMEOUT && enter) {
		*arg = enter->arg;           /* a wait, for a signal or the timeout */
		return PTB_OP_CWAIT;
	}
	if (!ok && enter && e->kind != PTB_EV_JOIN) {          /* a timeout: time off-CPU */
		*arg = e->t - enter->t;
		return PTB_OP_DELAY;
	}
	switch (e->kind) {
	case PTB_EV_CREATE:         return PTB_OP_CREATE;
	case PTB_EV_EXIT:           return PTB_OP_EXIT;
	case PTB_EV_JOIN:           return PTB_OP_JOIN;
	case PTB_EV_LOCK: case PTB_EV_SPIN_LOCK: case PTB_EV_TRYLOCK:
		*arg = e->kind == PTB_EV_SPIN_LOCK ? PTB_LOCK_SPIN | PTB_LOCK_PLAIN
		     : e->arg & 1 ? PTB_LOCK_PLAIN : 0;
		return ok ? PTB_OP_LOCK : -1;
	case PTB_EV_UNLOCK:         *arg = e->arg & 1 ? PTB_UNLOCK_BY_ANY : 0; return PTB_OP_UNLOCK;
	case PTB_EV_SPIN_UNLOCK:    *arg = PTB_UNLOCK_BY_ANY; return PTB_OP_UNLOCK;
	case PTB_EV_COND_WAIT:      *arg = enter ? enter->arg : e->arg; return PTB_OP_CWAIT;
	case PTB_EV_COND_SIGNAL:    return PTB_OP_SIGNAL;
	case PTB_EV_COND_BROADCAST: return PTB_OP_BROADCAST;
	case PTB_EV_BARRIER_INIT:   return PTB_OP_BAR_INIT;
	case PTB_EV_BARRIER_WAIT:   return PTB_OP_BAR_WAIT;
	case PTB_EV_SEM_INIT:       return PTB_OP_SEM_INIT;
	case PTB_EV_SEM_WAIT:       return ok ? PTB_OP_SEM_WAIT : -1;
	case PTB_EV_SEM_POST:       return PTB_OP_SEM_POST;
	case PTB_EV_RD_LOCK:        *arg = e->arg & 1 ? PTB_RW_READERS_FIRST : 0;
				    return ok ? PTB_OP_RDLOCK : -1;
	case PTB_EV_WR_LOCK:        *arg = e->arg & 1 ? PTB_RW_READERS_FIRST : 0;
				    return ok ? PTB_OP_WRLOCK : -1;
	case PTB_EV_RW_UNLOCK:      return PTB_OP_RWUNLOCK;
	case PTB_EV_SLEEP:          *arg = sleep_ns(e, enter); return PTB_OP_DELAY;
	default:                    return -1;
	}
}

static int one_event(struct pass *p, const struct ptb_tev *e)
{
	p->probes++;
	if (e->phase == PTB_PH_LEAVE) {                  /* the wait itself is not work */
		const struct ptb_tev *enter = p->enter && p->enter->kind == e->kind ? p->enter : NULL;
		p->enter = NULL;
		p->last_end = e->t;
		uint64_t arg;
		int k = op_of(e, enter, &arg);
		if (k < 0)
			return 0;
		if (emit(p, k, enter ? enter : e, arg))
			return -1;
		int io = e->kind >= PTB_EV_READ && e->kind <= PTB_EV_IO;
		/* a wait for a wake-up: not a write that took long (preempted: an
		 * eventfd's 20 posts once counted 21) */
		int woken = io && e->kind != PTB_EV_WRITE && (e->outcome & 0xff) == PTB_FD_WAKE;
		if (woken && enter)
			p->th->wake_ns += (double)(e->t - enter->t);
		p->th->wakes += woken;
		if (k == PTB_OP_CWAIT && e->outcome == PTB_OUT_TIMEOUT && enter)
			p->th->op[p->th->n - 1].wait = (double)(e->t - enter->t);
		if ((io || e->outcome == PTB_OUT_TIMEOUT) && enter)            /* split at the */
			p->split_op = p->th->n - 1, p->split_wall = (double)(e->t - enter->t); /* next reading */
		return 0;
	}
	p->pending += (double)(e->t - p->last_end);
	p->last_end = e->t;
	if (e->kind == PTB_EV_CPU) {
		if (p->split_op != SIZE_MAX && e->arg)   /* the call's time behind a sibling */
			p->split_runq = (double)(e->arg - 1) * 1000;
		stretch(p, e->obj, 0);
		return 0;
	}
	if (e->kind == PTB_EV_START) {
		p->th->start_t = e->t, p->pending = 0;
		return 0;
	}
	if (e->phase == PTB_PH_ENTER) {
		p->enter = e;
		return 0;
	}
	if (e->kind >= PTB_EV_READ && e->kind <= PTB_EV_IO && (e->outcome & 0xff) == PTB_FD_WAKE) {
		p->th->wakes++;          /* a wake-up taken without a wait */
		return 0;
	}
	uint64_t arg;
	int k = op_of(e, NULL, &arg);
	return k < 0 ? 0 : emit(p, k, e, arg);
}

/* The channel operations of all threads, by stream. */
struct chop { uint64_t obj; struct ptb_op *op; };

static int by_stream(const void *a, const void *b)
{
	const struct chop *x = a, *y = b;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

/* One stream's operations [from, to): a channel between threads when they
 * wrote to it and read no more than they wrote; else (a pipe to or from
 * another process, or writes the trace did not see) its calls are delays
 * of the time they waited. */
static void classify_one(struct chop *c, size_t from, size_t to)
{
	uint64_t in = 0, out = 0;
	for (size_t i = from; i < to; i++) {
		if (c[i].op->kind == PTB_OP_CH_WRITE)
			in += c[i].op->arg;
		else if (c[i].op->kind == PTB_OP_CH_READ)
			out += c[i].op->arg;
	}
	int channel = in > 0 && out <= in;
	for (size_t i = from; i < to; i++) {
		struct ptb_op *op = c[i].op;
		if (!channel)
			op->kind = PTB_OP_IO, op->arg = (uint64_t)op->wait;
		else if (op->kind == PTB_OP_CH_READ && op->arg == 0)
			op->total = in;          /* the end: once everything is written */
	}
}

static int classify_streams(struct ptb_ops *o)
{
	size_t n = 0, k = 0;
	for (uint32_t i = 0; i < o->nthreads; i++)
		for (size_t j = 0; j < o->th[i].n; j++) {
			struct ptb_op *op = &o->th[i].op[j];
			if (op->kind == PTB_OP_IO)       /* a delay of what it waited */
				op->arg = (uint64_t)op->wait;
			n += op->kind >= PTB_OP_CH_READ && op->kind <= PTB_OP_CH_POLL;
		}
	if (!n)
		return 0;
	struct chop *c = malloc(n * sizeof *c);
	if (!c)
		return -1;
	for (uint32_t i = 0; i < o->nthreads; i++)
		for (size_t j = 0; j < o->th[i].n; j++) {
			struct ptb_op *op = &o->th[i].op[j];
			if (op->kind >= PTB_OP_CH_READ && op->kind <= PTB_OP_CH_POLL)
				c[k++] = (struct chop){ op->obj, op };
		}
	qsort(c, n, sizeof *c, by_stream);
	for (size_t from = 0, to; from < n; from = to) {
		for (to = from + 1; to < n && c[to].obj == c[from].obj; to++)
			;
		classify_one(c, from, to);
	}
	free(c);
	return 0;
}

int ptb_ops_build(const struct ptb_trace *t, struct ptb_ops *o)
{
	memset(o, 0, sizeof *o);
	o->th = calloc(t->nthreads, sizeof *o->th);
	if (!o->th)
		return -1;
	o->nthreads = t->nthreads;
	for (uint32_t i = 0; i < t->nthreads; i++) {
		const struct ptb_trace_thread *tt = &t->th[i];
		struct pass p = { .th = &o->th[i], .probe_ns = t->h.probe_ns, .split_op = SIZE_MAX };
		if (!tt->n)
			continue;        /* a number a failed create used up: no thread */
		p.last_end = tt->ev[0].t, o->th[i].start_t = tt->ev[0].t;
		for (size_t k = 0; k < tt->n; k++)
			if (one_event(&p, &tt->ev[k]))
				return ptb_ops_free(o), -1;
		if (!o->th[i].n || o->th[i].op[o->th[i].n - 1].kind != PTB_OP_EXIT) {
			struct ptb_tev end = { .t = p.last_end };  /* a thread the trace saw no end of */
			if (emit(&p, PTB_OP_EXIT, &end, 0))
				return ptb_ops_free(o), -1;
		}
		settle_thread(&p);
		for (size_t k = 0; k < o->th[i].n; k++)
			o->th[i].cpu_ns += o->th[i].op[k].burst;
		o->cpu_ns += o->th[i].cpu_ns;
		o->untraced_ns += o->th[i].untraced_ns;
		o->probes += tt->n;
	}
	if (classify_streams(o))
		return ptb_ops_free(o), -1;
	return 0;
}

void ptb_ops_free(struct ptb_ops *o)
{
	for (uint32_t i = 0; i < o->nthreads; i++)
		free(o->th[i].op);
	free(o->th);
	memset(o, 0, sizeof *o);
}

/* The share of the working threads' time (CPU and the part at offset
 * off of struct ptb_op_thread) that that part takes. */
static double share(const struct ptb_ops *o, size_t off)
{
	double part = 0, cpu = 0;
	for (uint32_t i = 0; i < o->nthreads; i++)
		if (o->th[i].cpu_ns >= 0.01 * o->cpu_ns) {
			part += *(const double *)((const char *)&o->th[i] + off);
			cpu += o->th[i].cpu_ns;
		}
	return part + cpu > 0 ? part / (part + cpu) : 0;
}

double ptb_ops_untraced_share(const struct ptb_ops *o)
{
	return share(o, offsetof(struct ptb_op_thread, untraced_ns));
}

double ptb_ops_wake_share(const struct ptb_ops *o)
{
	return share(o, offsetof(struct ptb_op_thread, wake_ns));
}

uint64_t ptb_ops_wakes(const struct ptb_ops *o)
{
	uint64_t n = 0;
	for (uint32_t i = 0; i < o->nthreads; i++)
		n += o->th[i].wakes;
	return n;
}

int ptb_op_is_delay(int kind) { return kind == PTB_OP_DELAY || kind == PTB_OP_IO; }

const char *ptb_op_object_name(int kind)
{
	static const char *const names[PTB_OP_COUNT] = {
		[PTB_OP_JOIN] = "join", [PTB_OP_LOCK] = "mutex", [PTB_OP_CWAIT] = "condition",
		[PTB_OP_BAR_WAIT] = "barrier", [PTB_OP_SEM_WAIT] = "semaphore",
		[PTB_OP_RDLOCK] = "rwlock", [PTB_OP_WRLOCK] = "rwlock", [PTB_OP_DELAY] = "sleep",
		[PTB_OP_IO] = "I/O", [PTB_OP_CH_READ] = "channel", [PTB_OP_CH_POLL] = "channel",
	};
	return kind >= 0 && kind < PTB_OP_COUNT && names[kind] ? names[kind] : "object";
}
