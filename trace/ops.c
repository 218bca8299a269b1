/* SPDX-License-Identifier: MIT */
/* From events to operations (trace/ops.h): one pass per thread. */
#include "config.h"

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
};

static int emit(struct pass *p, int kind, const struct ptb_tev *e, uint64_t arg)
{
	struct ptb_op_thread *th = p->th;
	if (th->n == th->cap) {
		size_t cap = th->cap ? th->cap * 2 : 64;
		struct ptb_op *o = realloc(th->op, cap * sizeof *o);
		if (!o)
			return -1;
		th->op = o, th->cap = cap;
	}
	th->op[th->n++] = (struct ptb_op){ p->settled, p->pending, p->probes, e->obj, e->site,
					   e->t, arg, (uint8_t)kind };
	p->pending = p->settled = 0, p->probes = 0;
	return 0;
}

/* A CPU-clock reading closes a stretch: its bursts shrink to the CPU time
 * the thread really had (never grow: a call's own CPU time is not work). */
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
	p->settled += p->pending * r;
	p->pending = 0;
	p->stretch_from = p->th->n;
	p->last_cpu = cpu;
}

/* The end of a thread's pass: what no reading closed counts as recorded,
 * and the probes' own cost comes off every burst. */
static void settle_thread(struct pass *p)
{
	stretch(p, 0, 1);
	for (size_t i = 0; i < p->th->n; i++) {
		struct ptb_op *op = &p->th->op[i];
		double cost = (double)op->probes * p->probe_ns;
		op->burst = op->burst > cost ? op->burst - cost : 0;
	}
}

/* The operation a call stands for; -1 when it changes nothing (a failed
 * trylock, a yield, a once). */
static int op_of(const struct ptb_tev *e, const struct ptb_tev *enter, uint64_t *arg)
{
	int ok = e->outcome == PTB_OUT_OK;
	*arg = e->arg;
	if (!ok && enter && e->kind != PTB_EV_JOIN) {          /* a timeout: time off-CPU */
		*arg = e->t - enter->t;
		return PTB_OP_DELAY;
	}
	switch (e->kind) {
	case PTB_EV_CREATE:         return PTB_OP_CREATE;
	case PTB_EV_EXIT:           return PTB_OP_EXIT;
	case PTB_EV_JOIN:           return PTB_OP_JOIN;
	case PTB_EV_LOCK: case PTB_EV_SPIN_LOCK: case PTB_EV_TRYLOCK:
		return ok ? PTB_OP_LOCK : -1;
	case PTB_EV_UNLOCK: case PTB_EV_SPIN_UNLOCK: return PTB_OP_UNLOCK;
	case PTB_EV_COND_WAIT:      *arg = enter ? enter->arg : e->arg; return PTB_OP_CWAIT;
	case PTB_EV_COND_SIGNAL:    return PTB_OP_SIGNAL;
	case PTB_EV_COND_BROADCAST: return PTB_OP_BROADCAST;
	case PTB_EV_BARRIER_INIT:   return PTB_OP_BAR_INIT;
	case PTB_EV_BARRIER_WAIT:   return PTB_OP_BAR_WAIT;
	case PTB_EV_SEM_INIT:       return PTB_OP_SEM_INIT;
	case PTB_EV_SEM_WAIT:       return ok ? PTB_OP_SEM_WAIT : -1;
	case PTB_EV_SEM_POST:       return PTB_OP_SEM_POST;
	case PTB_EV_RD_LOCK:        return ok ? PTB_OP_RDLOCK : -1;
	case PTB_EV_WR_LOCK:        return ok ? PTB_OP_WRLOCK : -1;
	case PTB_EV_RW_UNLOCK:      return PTB_OP_RWUNLOCK;
	case PTB_EV_SLEEP:          *arg = enter ? e->t - enter->t : 0; return PTB_OP_DELAY;
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
		return k < 0 ? 0 : emit(p, k, enter ? enter : e, arg);
	}
	p->pending += (double)(e->t - p->last_end);
	p->last_end = e->t;
	if (e->kind == PTB_EV_CPU) {
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
	uint64_t arg;
	int k = op_of(e, NULL, &arg);
	return k < 0 ? 0 : emit(p, k, e, arg);
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
		struct pass p = { .th = &o->th[i], .probe_ns = t->h.probe_ns };
		if (tt->n)
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
	return 0;
}

void ptb_ops_free(struct ptb_ops *o)
{
	for (uint32_t i = 0; i < o->nthreads; i++)
		free(o->th[i].op);
	free(o->th);
	memset(o, 0, sizeof *o);
}

double ptb_ops_untraced_share(const struct ptb_ops *o)
{
	double off = 0, cpu = 0;
	for (uint32_t i = 0; i < o->nthreads; i++)
		if (o->th[i].cpu_ns >= 0.01 * o->cpu_ns)
			off += o->th[i].untraced_ns, cpu += o->th[i].cpu_ns;
	return off + cpu > 0 ? off / (off + cpu) : 0;
}

const char *ptb_op_object_name(int kind)
{
	static const char *const names[PTB_OP_COUNT] = {
		[PTB_OP_JOIN] = "join", [PTB_OP_LOCK] = "mutex", [PTB_OP_CWAIT] = "condition",
		[PTB_OP_BAR_WAIT] = "barrier", [PTB_OP_SEM_WAIT] = "semaphore",
		[PTB_OP_RDLOCK] = "rwlock", [PTB_OP_WRLOCK] = "rwlock", [PTB_OP_DELAY] = "sleep",
	};
	return kind >= 0 && kind < PTB_OP_COUNT && names[kind] ? names[kind] : "object";
}
