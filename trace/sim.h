/* SPDX-License-Identifier: MIT */
/*
 * The discrete-event simulation of `ptbench predict`: the operations of a
 * trace (trace/ops.h) replayed on N CPUs.  Each thread runs its recorded
 * CPU bursts; each operation does what it means (a released mutex wakes
 * its first waiter, who takes it if it is still free once it runs, as
 * glibc's mutexes do; a signal wakes one waiter that was waiting before it
 * was sent, a broadcast all of them, a barrier opens on its last arrival,
 * a join waits for the exit, a semaphore counts); runnable threads share
 * the CPUs fairly when they outnumber them (processor sharing); sleeps and
 * timed-out waits keep their recorded length.  Limits are found on the
 * critical path: from the thread that ends last, back through who woke
 * whom, the objects through which it passed from thread to thread.
 */
#ifndef PTB_TRACE_SIM_H
#define PTB_TRACE_SIM_H

#include <stdint.h>

#include "trace/ops.h"

#define PTB_SIM_LIMITS 5

struct ptb_sim_limit {
	int kind;                /* enum ptb_op_kind of the waits */
	uint64_t obj, site;      /* the object; the call site of its longest wait */
	double path_ns;          /* critical path that ran up to a release of it */
	double wait_ns;          /* waited by all threads */
	uint64_t waits;
};

struct ptb_sim_result {
	int cpus;
	double wall_ns, cpu_ns;  /* cpu_ns: the trace's CPU work, as recorded */
	double busy_ns;          /* CPU time the replay kept busy (work stretched, owed) */
	uint64_t ops;            /* operations replayed */
	uint64_t forced;         /* waits released because nothing else could run */
	uint64_t remote_wakes;   /* wake-ups onto an idle CPU charged to their wakers */
	/* Releases that woke two threads or more at once (a barrier
	 * opening, a broadcast, a rwlock's readers let in together, a
	 * channel's readers, the joiners of one exit), and the threads they
	 * woke: the phases of a program, each replayed as if every thread
	 * went to a free CPU at once, which a scheduler may not do. */
	uint64_t group_releases, group_woken;
	double shared_ns;        /* wall time with more threads able to run than CPUs */
	double excess_ns;        /* the integral over it of those threads less the CPUs */
	int nlimits;
	struct ptb_sim_limit limits[PTB_SIM_LIMITS];
};

/* What a reader of the simulated run is shown once it is over: each
 * thread's life, then its times off the CPU in order (times in ns of the
 * replay): a wait from `from` until it could run again at `to` (a wake-up
 * or hand-off cost included), released by thread `by` (-1: by force), or
 * a delay (kind PTB_OP_DELAY, by == tid: a sleep, a timed-out wait). */
struct ptb_sim_visitor {
	void *ctx;
	void (*thread)(void *ctx, int tid, double born, double ended);
	void (*wait)(void *ctx, int tid, double from, double to, int kind, uint64_t obj, int by);
};

/* What the target machine charges (ns; 0: nothing), from a ptbench result
 * file of it (`predict --machine`): a thread released from a condition,
 * barrier, semaphore or join runs `wake_ns` after its release; a rwlock
 * handed to a waiter, `handoff_ns` after, and a mutex's waiter tries it
 * again `handoff_ns` after its release -- a spin lock's waiter, spinning
 * on its CPU, `spin_handoff_ns` after (the lock's line coming over, no
 * wake-up); a created thread begins `create_ns` after the create.  Delays,
 * not CPU time: the thread is off the CPU meanwhile, as a thread being
 * woken is. */
#define PTB_SIM_SLOW_MAX 512
struct ptb_sim_costs {
	double wake_ns, handoff_ns, create_ns, spin_handoff_ns;
	/* The co-running slowdown: slowdown[k - 1] is the factor by which CPU
	 * work stretches while k threads run at once (slowdown[0] = 1, a
	 * thread alone as in the recording); past nslow, the last.  nslow 0:
	 * none.  A burst runs at rate min(1, N / runnable) / slowdown[k - 1],
	 * k = min(runnable, N), recomputed whenever the runnable count changes. */
	int nslow;
	double slowdown[PTB_SIM_SLOW_MAX];
	/* CPU time, not a delay: what waking a thread that sleeps on another,
	 * idle CPU costs the waker over waking it on its own PU (the
	 * recording's bursts hold the latter).  Charged, as part of the
	 * waker's next burst, when fewer threads are running than there are
	 * CPUs; not for waking a thread from a mutex it blocked on within
	 * that cost of a charged wake-up that had it run at once, with no
	 * delay (a thread leaving a condition wait for the mutex its waker
	 * still holds: on the machine it is still waking up when the mutex
	 * is let go; where the replay delayed it, by a latency or a --machine
	 * cost, it ran and blocked, and the unlock must wake it again). */
	double remote_wake_ns;
	/* A delay, as wake_ns: how long a thread woken onto an idle CPU
	 * (a wake-up charged remote_wake_ns) takes to run there -- the CPU
	 * coming out of its idle state -- in place of wake_ns where longer;
	 * not for a rwlock handed over (the waiter would hold it meanwhile).
	 * A mutex's waiter takes that long to try it again, and its releaser
	 * may take it first.
	 * That CPU counts as busy meanwhile, so that a second wake-up close
	 * behind finds it so and is not charged as remote again. */
	double remote_latency_ns;
	/* The time slices' cost: while R threads can run on N < R CPUs, the
	 * normal scheduler switches among them every few ms, and each comes
	 * back to caches that the others' work in between has emptied: R - N
	 * slices of others' work between two of its own, in a round of R
	 * threads on N CPUs.  CPU work then stretches by 1 + slice_cost *
	 * (R - N) as well (0: nothing).  The recording, under SCHED_FIFO,
	 * switched only where a thread blocked. */
	double slice_cost;
};

/* 0, or -1 when out of memory.  costs and v may be NULL. */
int ptb_sim_run(const struct ptb_ops *o, int cpus, const struct ptb_sim_costs *costs,
		struct ptb_sim_result *r, const struct ptb_sim_visitor *v);

#endif
