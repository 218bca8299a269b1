/* SPDX-License-Identifier: MIT */
/* Inside the simulator: its threads, objects and the wake records the
 * critical path is walked through.  Only trace/sim*.c include this. */
#ifndef PTB_TRACE_SIM_INT_H
#define PTB_TRACE_SIM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "trace/ops.h"
#include "trace/sim.h"

enum { TS_UNBORN, TS_RUN, TS_BLOCKED, TS_DELAYED, TS_DONE };

struct wake {                /* thread blocked at `from`, woken at `at` by `by`, */
	double from, at;     /* able to run at `ready` (at + the wake-up cost) */
	double ready;
	int obj, by;         /* by == -1: released by force; by == self: a delay */
};

struct sthread {
	int state;
	size_t pc;
	double left;         /* ns of the current burst still to run */
	double until;        /* TS_DELAYED: when it runs again; TS_DONE: when it ended */
	double deadline;     /* TS_BLOCKED in a timed wait: when it times out, else 0 */
	int resume;          /* TS_DELAYED by a wake-up cost: its next operation is due */
	double blocked_at;
	int blocked_on;      /* object index */
	int next;            /* the next thread in the object's queue, -1 */
	uint64_t need;       /* blocked on a channel: the bytes written it waits for */
	int creator;
	double born;
	double owed;         /* ns of CPU its next burst adds: threads it woke onto idle CPUs */
	int woke_charged;    /* its latest wake-up was charged to its waker */
	int retry;           /* woken from a mutex's queue: it tries the lock again */
	int requeued;        /* it found the mutex taken again and waits once more: */
	double since;        /* its wait began then, at its first try */
	int forced_into;     /* 1 + the lock it was released into by force, 0 */
	struct wake *w;
	size_t nw, capw;
};

struct sobj {
	uint64_t addr;
	int cls, kind;       /* class of object; the op kind that waits on it */
	int head, tail;      /* waiting threads, -1 */
	int owner, depth;    /* mutex; rwlock writer */
	int readers;
	int64_t value;       /* semaphore value; barrier count */
	int64_t arrived;
	uint64_t written, claimed;   /* channel: bytes written; bytes claimed by reads */
	uint64_t bcast;      /* highest broadcast sequence */
	uint64_t *tok;       /* signals sent with no waiter, kept for late waiters, */
	size_t tok0, ntok, captok;   /* ascending from tok[tok0] */
	uint64_t site;
	double wait_ns, path_ns, longest;
	uint64_t waits;
};

struct sim {
	const struct ptb_ops *o;
	int cpus;
	double now;
	struct sthread *th;
	struct sobj *obj;
	size_t nobj, capobj;
	int *slot;           /* hash: object index + 1, 0 empty */
	size_t nslot;
	int *live;           /* threads born and not seen done, by number: the only */
	size_t nlive;        /* ones a step or a search looks at */
	int *work;           /* threads whose burst ended: their operation is due */
	size_t nwork;
	uint64_t ops, forced, remote_wakes;
	uint64_t group_releases, group_woken;   /* see struct ptb_sim_result */
	double shared_ns;    /* time with more runnable threads than CPUs */
	double excess_ns;    /* its integral of runnable threads less CPUs */
	double busy_ns;      /* the integral of min(runnable, CPUs) */
	struct ptb_sim_costs costs;
};

/* The object of an operation (created on first use); -1 when out of memory. */
int ptb_sim_object(struct sim *s, const struct ptb_op *op);
/* Do thread t's current operation: 0 it goes on, 1 it waits, 2 it ended,
 * -1 no memory. */
int ptb_sim_exec(struct sim *s, int t);
/* Thread t's operation is done: the next burst starts (pushed as work
 * when it is empty) -- or, for a thread woken from a mutex's queue, it
 * tries the mutex first, and waits again if another took it. */
void ptb_sim_advance(struct sim *s, int t);
/* Thread t, waiting on object o, is released by thread `by`. */
int ptb_sim_wake(struct sim *s, int t, int by);
/* Thread t is born (created, or begins when it began). */
void ptb_sim_born(struct sim *s, int t);
/* Queue thread t on object o (it waits from now). */
void ptb_sim_enqueue(struct sim *s, int o, int t);
void ptb_sim_unlink(struct sim *s, int o, int t);
/* Whether object o is a lock that one thread holds at a time (a mutex, a
 * rwlock's writer): a wait on it released by force lets two hold it. */
int ptb_sim_exclusive(const struct sim *s, int o);
/* Thread t, woken from the queue of the mutex it waits for, tries it
 * again: 0 it holds it, 1 it waits again (another thread took it while t
 * woke up). */
int ptb_sim_retry_lock(struct sim *s, int t);
/* Whether object o is given to the waiter it releases (a rwlock), which
 * then holds it while it wakes; a mutex's waiter only tries it again. */
int ptb_sim_handed_over(const struct sim *s, int o);

/* The critical path, walked back from the thread that ended last: the
 * limits of r, the objects whose waits held it up most. */
int ptb_sim_path(struct sim *s, struct ptb_sim_result *r);

#endif
