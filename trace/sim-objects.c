/* SPDX-License-Identifier: MIT */
/* The simulator's objects and what each operation does to them
 * (trace/sim.h says the rules). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "trace/sim-int.h"

enum { C_MUTEX = 1, C_COND, C_BARRIER, C_SEM, C_RW, C_DELAY, C_JOIN, C_CHAN };

static const signed char op_class[PTB_OP_COUNT] = {
	[PTB_OP_JOIN] = C_JOIN,
	[PTB_OP_LOCK] = C_MUTEX, [PTB_OP_UNLOCK] = C_MUTEX,
	[PTB_OP_CWAIT] = C_COND, [PTB_OP_SIGNAL] = C_COND, [PTB_OP_BROADCAST] = C_COND,
	[PTB_OP_BAR_INIT] = C_BARRIER, [PTB_OP_BAR_WAIT] = C_BARRIER,
	[PTB_OP_SEM_INIT] = C_SEM, [PTB_OP_SEM_WAIT] = C_SEM, [PTB_OP_SEM_POST] = C_SEM,
	[PTB_OP_RDLOCK] = C_RW, [PTB_OP_WRLOCK] = C_RW, [PTB_OP_RWUNLOCK] = C_RW,
	[PTB_OP_DELAY] = C_DELAY, [PTB_OP_IO] = C_DELAY,
	[PTB_OP_CH_READ] = C_CHAN, [PTB_OP_CH_WRITE] = C_CHAN, [PTB_OP_CH_POLL] = C_CHAN,
};

/* Every bit of the address and the class reaches the index (splitmix64's
 * finalizer): a product's middle bits depend on the low bits only, and
 * objects at multiples of 2^40 all fell in one slot. */
static size_t hash(uint64_t a, int c, size_t n)
{
	uint64_t x = a ^ ((uint64_t)c * 0x9e3779b97f4a7c15ull);
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return (size_t)(x ^ (x >> 31)) & (n - 1);
}

static int grow(struct sim *s)
{
	size_t n = s->nslot ? s->nslot * 2 : 1024;
	int *slot = calloc(n, sizeof *slot);
	if (!slot)
		return -1;
	for (size_t i = 0; i < s->nobj; i++) {
		size_t h = hash(s->obj[i].addr, s->obj[i].cls, n);
		while (slot[h])
			h = (h + 1) & (n - 1);
		slot[h] = (int)i + 1;
	}
	free(s->slot);
	s->slot = slot, s->nslot = n;
	return 0;
}

int ptb_sim_object(struct sim *s, const struct ptb_op *op)
{
	int c = op_class[op->kind];
	/* a join waits on the joined thread; a delay is named by its call site */
	uint64_t a = c == C_JOIN ? op->arg : c == C_DELAY ? op->site : op->obj;
	if (2 * (s->nobj + 1) > s->nslot && grow(s))
		return -1;
	size_t h = hash(a, c, s->nslot);
	for (; s->slot[h]; h = (h + 1) & (s->nslot - 1)) {
		struct sobj *o = &s->obj[s->slot[h] - 1];
		if (o->addr == a && o->cls == c)
			return s->slot[h] - 1;
	}
	if (s->nobj == s->capobj) {
		size_t cap = s->capobj ? s->capobj * 2 : 256;
		struct sobj *no = realloc(s->obj, cap * sizeof *no);
		if (!no)
			return -1;
		s->obj = no, s->capobj = cap;
	}
	struct sobj *o = &s->obj[s->nobj];
	memset(o, 0, sizeof *o);
	o->addr = a, o->cls = c, o->kind = op->kind, o->site = op->site;
	o->head = o->tail = o->owner = -1;
	s->slot[h] = (int)++s->nobj;
	return (int)s->nobj - 1;
}

void ptb_sim_enqueue(struct sim *s, int o, int t)
{
	struct sobj *ob = &s->obj[o];
	struct sthread *th = &s->th[t];
	th->state = TS_BLOCKED, th->blocked_at = s->now, th->blocked_on = o, th->next = -1;
	ob->kind = s->o->th[t].op[th->pc].kind;     /* named by how it is waited on */
	if (ob->tail >= 0)
		s->th[ob->tail].next = t;
	else
		ob->head = t;
	ob->tail = t;
}

/* Take thread t out of object ob's queue (prev: the one before it, -1). */
static void unlink_waiter(struct sim *s, struct sobj *ob, int prev, int t)
{
	int nx = s->th[t].next;
	if (prev >= 0)
		s->th[prev].next = nx;
	else
		ob->head = nx;
	if (ob->tail == t)
		ob->tail = prev;
}

/* Take thread t out of object o's queue, wherever it is in it. */
void ptb_sim_unlink(struct sim *s, int o, int t)
{
	struct sobj *ob = &s->obj[o];
	for (int prev = -1, w = ob->head; w >= 0; prev = w, w = s->th[w].next)
		if (w == t) {
			unlink_waiter(s, ob, prev, t);
			return;
		}
}

static int wake_first(struct sim *s, struct sobj *ob, int by)
{
	int t = ob->head;
	if (t < 0)
		return 0;
	unlink_waiter(s, ob, -1, t);
	return ptb_sim_wake(s, t, by) < 0 ? -1 : 1;
}

/* A release that woke `woke` threads at once. */
static void count_group(struct sim *s, int woke)
{
	if (woke >= 2)
		s->group_releases++, s->group_woken += (uint64_t)woke;
}

/* The last arrival `by` releases every thread waiting at a barrier. */
static int bar_open(struct sim *s, struct sobj *ob, int by)
{
	int woke = 0;
	while (ob->head >= 0) {
		if (wake_first(s, ob, by) < 0)
			return -1;
		woke++;
	}
	count_group(s, woke);
	return 0;
}

static uint64_t cond_entry(struct sim *s, int t)
{
	return s->th[t].state == TS_BLOCKED ? s->o->th[t].op[s->th[t].pc].arg : 0;
}

/* The first kept signal after sequence e (ntok when none). */
static size_t token_after(const struct sobj *ob, uint64_t e)
{
	size_t lo = ob->tok0, hi = ob->ntok;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (ob->tok[mid] > e)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Keep signal q, in order: one per signal of the trace at most. */
static int keep_token(struct sobj *ob, uint64_t q)
{
	if (ob->ntok == ob->captok) {
		if (ob->tok0) {                  /* reuse what was consumed */
			memmove(ob->tok, ob->tok + ob->tok0, (ob->ntok - ob->tok0) * sizeof *ob->tok);
			ob->ntok -= ob->tok0, ob->tok0 = 0;
		}
		if (ob->ntok == ob->captok) {
			size_t cap = ob->captok ? ob->captok * 2 : 16;
			uint64_t *t = realloc(ob->tok, cap * sizeof *t);
			if (!t)
				return -1;
			ob->tok = t, ob->captok = cap;
		}
	}
	size_t at = token_after(ob, q);
	memmove(ob->tok + at + 1, ob->tok + at, (ob->ntok - at) * sizeof *ob->tok);
	ob->tok[at] = q;
	ob->ntok++;
	return 0;
}

/* A signal or broadcast with sequence q: waiters that entered before it. */
static int cond_send(struct sim *s, struct sobj *ob, int by, uint64_t q, int all)
{
	int woke = 0;
	for (int prev = -1, t = ob->head; t >= 0;) {
		int nx = s->th[t].next;
		if (cond_entry(s, t) < q) {
			unlink_waiter(s, ob, prev, t);
			if (ptb_sim_wake(s, t, by) < 0)
				return -1;
			woke++;
			if (!all)
				return 0;
		} else {
			prev = t;
		}
		t = nx;
	}
	if (all)
		count_group(s, woke);
	if (all && q > ob->bcast)
		ob->bcast = q;
	else if (!woke && !all)                  /* kept for a waiter the replay makes late */
		return keep_token(ob, q);
	return 0;
}

/* A condition wait that entered at sequence e: satisfied at once by a
 * broadcast or a kept signal sent after it entered. */
static int cond_ready(struct sobj *ob, uint64_t e)
{
	if (ob->bcast > e)
		return 1;
	size_t i = token_after(ob, e);
	if (i == ob->ntok)
		return 0;
	if (i == ob->tok0)
		ob->tok0++;
	else
		memmove(ob->tok + i, ob->tok + i + 1, (ob->ntok - i - 1) * sizeof *ob->tok), ob->ntok--;
	return 1;
}

static int rw_grant(struct sim *s, struct sobj *ob, int by)
{
	int woke = 0;
	for (; ob->head >= 0 && ob->owner < 0; woke++) {
		int t = ob->head;
		int wr = s->o->th[t].op[s->th[t].pc].kind == PTB_OP_WRLOCK;
		if (wr && ob->readers)
			break;
		unlink_waiter(s, ob, -1, t);
		if (wr)
			ob->owner = t;
		else
			ob->readers++;
		if (ptb_sim_wake(s, t, by) < 0)
			return -1;
	}
	count_group(s, woke);
	return 0;
}

/* Bytes written to a channel: every waiter whose bytes are now there goes
 * on (readers claimed theirs in the order they came). */
static int chan_write(struct sim *s, struct sobj *ob, int by, uint64_t n)
{
	int woke = 0;
	ob->written += n;
	for (int prev = -1, t = ob->head; t >= 0;) {
		int nx = s->th[t].next;
		if (s->th[t].need <= ob->written) {
			unlink_waiter(s, ob, prev, t);
			if (ptb_sim_wake(s, t, by) < 0)
				return -1;
			woke++;
		} else {
			prev = t;
		}
		t = nx;
	}
	count_group(s, woke);
	return 0;
}

/* A read waits for the bytes it got in the recording (after those that
 * earlier reads claimed), a read at the end for every byte ever written,
 * a poll for one unread byte. */
static int chan_wait(struct sim *s, struct sobj *ob, int o, int t, const struct ptb_op *op)
{
	uint64_t need = op->kind == PTB_OP_CH_POLL ? ob->claimed + 1
		      : op->arg == 0 ? op->total : (ob->claimed += op->arg);
	if (ob->written >= need)
		return 0;
	ptb_sim_enqueue(s, o, t);
	s->th[t].need = need;
	return 1;
}

int ptb_sim_exclusive(const struct sim *s, int o)
{
	return o >= 0 && (s->obj[o].cls == C_MUTEX || s->obj[o].cls == C_RW);
}

/* Taken again before t could try it: t waits once more, and the wait
 * that ended at its wake-up is taken back from the object's account, so
 * that the lock call counts as one wait, from its first try to the
 * release it finally takes (and keeps its age for force()). */
int ptb_sim_retry_lock(struct sim *s, int t)
{
	struct sthread *th = &s->th[t];
	int o = th->blocked_on;
	struct sobj *ob = &s->obj[o];
	if (ob->owner < 0)
		return ob->owner = t, ob->depth = 1, 0;
	const struct wake *last = &th->w[th->nw - 1];
	double since = th->requeued ? th->since : last->from;
	ob->wait_ns -= last->at - since, ob->waits--;
	ptb_sim_enqueue(s, o, t);
	th->requeued = 1, th->since = since;
	return 1;
}

int ptb_sim_handed_over(const struct sim *s, int o)
{
	return o >= 0 && s->obj[o].cls == C_RW;
}

/* An unlock by t.  By another thread than the owner: a mutex of the
 * default kind used as a semaphore (the owner, locking it again, waits
 * for it), which glibc allows (the unlock says so: by_any), unless t was
 * released into the lock by force (then the owner's it stays); glibc
 * refuses it for the other kinds. */
static int mutex_release(struct sim *s, struct sobj *ob, int o, int t, int by_any)
{
	if (ob->owner == t && ob->depth > 1)
		return ob->depth--, 0;
	int forced = s->th[t].forced_into == o + 1;
	s->th[t].forced_into = forced ? 0 : s->th[t].forced_into;
	if (ob->owner != t && (forced || !by_any))
		return 0;                        /* (also while its waiter wakes, the lock free) */
	ob->owner = -1, ob->depth = 0;
	int w = ob->head;
	if (w < 0)
		return 0;
	/* Not handed over: the first waiter is woken and tries the lock again
	 * once it runs, as glibc's mutexes do.  A releaser that locks again
	 * before then takes it, and the waiter goes back to sleep. */
	s->th[w].retry = 1;
	return wake_first(s, ob, t) < 0 ? -1 : 0;
}

static int exec_op(struct sim *s, int t, const struct ptb_op *op, struct sobj *ob, int o)
{
	switch (op->kind) {
	case PTB_OP_CREATE:
		if (op->arg < s->o->nthreads && s->th[op->arg].state == TS_UNBORN) {
			struct sthread *c = &s->th[op->arg];
			c->creator = t, c->born = s->now, c->state = TS_RUN, c->pc = 0;
			ptb_sim_born(s, (int)op->arg);
			c->left = s->o->th[op->arg].n ? s->o->th[op->arg].op[0].burst : 0;
			if (s->costs.create_ns > 0) {    /* begins once created, as at start() */
				c->state = TS_DELAYED, c->pc = (size_t)-1;
				c->until = s->now + s->costs.create_ns;
				c->blocked_at = s->now, c->blocked_on = -1;
			} else if (c->left <= 0) {
				s->work[s->nwork++] = (int)op->arg;
			}
		}
		return 0;
	case PTB_OP_EXIT: {                       /* done: its joiners go on */
		struct ptb_op j = { .kind = PTB_OP_JOIN, .arg = (uint64_t)t };
		int jo = ptb_sim_object(s, &j);
		if (jo < 0)
			return -1;
		s->th[t].state = TS_DONE, s->th[t].until = s->now;
		int woke = 0;
		for (; s->obj[jo].head >= 0; woke++)
			if (wake_first(s, &s->obj[jo], t) < 0)
				return -1;
		count_group(s, woke);
		return 2;
	}
	case PTB_OP_JOIN:
		if (op->arg >= s->o->nthreads || s->th[op->arg].state == TS_DONE)
			return 0;
		return ptb_sim_enqueue(s, o, t), 1;
	case PTB_OP_LOCK:                        /* (taken again by its owner: */
		if (ob->owner < 0 || (ob->owner == t && !(op->arg & PTB_LOCK_PLAIN)))
			return ob->owner = t, ob->depth++, 0;   /* recursive, unless */
		return ptb_sim_enqueue(s, o, t), 1;     /* of a plain kind) */
	case PTB_OP_UNLOCK:
		return mutex_release(s, ob, o, t, (op->arg & PTB_UNLOCK_BY_ANY) != 0);
	case PTB_OP_CWAIT:
		if (cond_ready(ob, op->arg))
			return 0;
		ptb_sim_enqueue(s, o, t);
		if (op->wait > 0)            /* timed out in the recording: at the latest then */
			s->th[t].deadline = s->now + op->wait;
		return 1;
	case PTB_OP_SIGNAL:
	case PTB_OP_BROADCAST:
		return cond_send(s, ob, t, op->arg, op->kind == PTB_OP_BROADCAST);
	case PTB_OP_BAR_INIT:
		return ob->value = (int64_t)op->arg, ob->arrived = 0, 0;
	case PTB_OP_BAR_WAIT:
		if (ob->value <= 0 || ++ob->arrived < ob->value)
			return ob->value <= 0 ? 0 : (ptb_sim_enqueue(s, o, t), 1);
		ob->arrived = 0;                  /* the last arrival opens it */
		return bar_open(s, ob, t);
	case PTB_OP_SEM_INIT:
		return ob->value = (int64_t)op->arg, 0;
	case PTB_OP_SEM_WAIT:
		if (ob->value > 0)
			return ob->value--, 0;
		return ptb_sim_enqueue(s, o, t), 1;
	case PTB_OP_SEM_POST:
		if (ob->head >= 0)
			return wake_first(s, ob, t) < 0 ? -1 : 0;
		return ob->value++, 0;
	case PTB_OP_RDLOCK:                      /* (past a waiting writer if the */
		if (ob->owner < 0 && (ob->head < 0 || (op->arg & PTB_RW_READERS_FIRST)))
			return ob->readers++, 0;         /* lock lets readers go first) */
		return ptb_sim_enqueue(s, o, t), 1;
	case PTB_OP_WRLOCK:
		if (ob->owner < 0 && !ob->readers)
			return ob->owner = t, 0;
		return ptb_sim_enqueue(s, o, t), 1;
	case PTB_OP_RWUNLOCK:
		if (ob->owner == t)
			ob->owner = -1;
		else if (ob->readers)
			ob->readers--;
		return rw_grant(s, ob, t);
	case PTB_OP_IO:
		if (op->arg == 0)                 /* it did not wait */
			return 0;
		/* fall through */
	case PTB_OP_DELAY:
		s->th[t].state = TS_DELAYED, s->th[t].until = s->now + (double)op->arg;
		s->th[t].blocked_at = s->now, s->th[t].blocked_on = o;
		ob->kind = op->kind;
		return 1;
	case PTB_OP_CH_WRITE:
		return chan_write(s, ob, t, op->arg);
	case PTB_OP_CH_READ:
	case PTB_OP_CH_POLL:
		return chan_wait(s, ob, o, t, op);
	}
	return 0;
}

int ptb_sim_exec(struct sim *s, int t)
{
	const struct ptb_op *op = &s->o->th[t].op[s->th[t].pc];
	int o = op_class[op->kind] ? ptb_sim_object(s, op) : -1;
	if (op_class[op->kind] && o < 0)
		return -1;
	s->ops++;
	return exec_op(s, t, op, o >= 0 ? &s->obj[o] : NULL, o);
}
