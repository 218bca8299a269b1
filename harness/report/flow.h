/* SPDX-License-Identifier: MIT */
/*
 * A simulated run as the flow and parallelism plots draw it: each
 * thread's life and its times off the CPU, with who released each wait.
 * The command fills it from the simulator's visitor (trace/sim.h), which
 * report/ may not include (docs/design.md section 2): the plots depend on
 * this small struct, not on how the run was simulated.
 */
#ifndef PTB_REPORT_FLOW_H
#define PTB_REPORT_FLOW_H

#include <stdbool.h>
#include <stddef.h>

struct ptb_flow_off {
	double from, to;          /* ns: off the CPU from `from`, able to run at `to` */
	int by;                   /* the thread that released it; -1 none (a sleep, by force) */
	bool sleep;               /* a delay of its own (sleep, timed-out wait), not a wait */
};

struct ptb_flow_thread {
	double born, ended;       /* ns; born < 0: the thread never ran */
	struct ptb_flow_off *off; /* in time order */
	size_t n, cap;
};

struct ptb_flow {
	char program[64];
	int cpus;                 /* the simulated machine */
	double wall_ns;
	int nthreads;
	struct ptb_flow_thread *th;
};

/* nthreads threads, none born yet: 0, -1 out of memory. */
int ptb_flow_init(struct ptb_flow *f, const char *program, int cpus, int nthreads);
/* Add a time off the CPU to thread tid: 0, -1 out of memory. */
int ptb_flow_add_off(struct ptb_flow *f, int tid, const struct ptb_flow_off *off);
void ptb_flow_free(struct ptb_flow *f);

/* The number of runnable threads over time: from steps[i].t on (ns),
 * steps[i].runnable of them, until the next step; the last step is at the
 * end of the run, with 0. */
struct ptb_flow_step {
	double t;
	int runnable;
};
/* The steps, malloc'd into *out: their count, -1 out of memory. */
long ptb_flow_steps(const struct ptb_flow *f, struct ptb_flow_step **out);

#endif
