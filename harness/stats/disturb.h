/* SPDX-License-Identifier: MIT */
/*
 * Was the machine the benchmark's while it measured?  The evidence of one
 * trial's window, or of all the windows of a point pooled, and the verdict
 * (docs/design.md section 13).  Pure arithmetic: the samples come from
 * platform/load.h through the worker.
 */
#ifndef PTB_STATS_DISTURB_H
#define PTB_STATS_DISTURB_H

#include <stdbool.h>

/* Other processes' share of the PU time the measuring threads could have
 * had, and the hypervisor's, above which a window was not the
 * benchmark's: one time slice in ten taken by someone else. */
#define PTB_DISTURB_OTHER_SHARE 0.10
#define PTB_DISTURB_STEAL_SHARE 0.10

struct ptb_disturbance {
	/* the evidence: sums over the windows pooled */
	int windows;              /* trials whose windows are pooled */
	double window_s;          /* wall time of the windows */
	double capacity_s;        /* PU time in them: each window's length times its PUs */
	int readings;             /* PUs times windows: accounting errors that add up */
	double busy_s;            /* PU time the kernel did not count idle or stolen */
	double own_cpu_s;         /* of the measuring threads */
	double steal_s;
	long preempted;           /* involuntary switches of the measuring threads */
	int run_queue;            /* runnable tasks at the window's ends, the most seen */
	double tick_s;            /* the kernel's accounting resolution per PU */
	/* the verdict (ptb_disturbance_judge) */
	double other_cpu_s;       /* busy less own: other processes, the kernel's work for them */
	double other_share;       /* of capacity_s */
	double steal_share;
	double preempted_per_s;
	int disturbed;            /* 1 yes, 0 no, -1 too little PU time to tell */
};

/* The evidence of one window of `pus` PUs, from its two samples' figures. */
void ptb_disturbance_window(struct ptb_disturbance *d, double window_s, int pus,
			    double idle_s, double steal_s, double own_cpu_s, long preempted,
			    int run_queue, double tick_s);

/* Add one window's evidence (or a pool's) to a pool. */
void ptb_disturbance_add(struct ptb_disturbance *pool, const struct ptb_disturbance *d);

/* The shares and the verdict: disturbed when other processes, or the
 * hypervisor, took more than their threshold of the capacity beyond what
 * the accounting's resolution can explain -- one tick per reading, the
 * readings' errors added in quadrature; undisturbed when the resolution
 * could have shown the threshold and did not; else it cannot tell. */
void ptb_disturbance_judge(struct ptb_disturbance *d);

#endif
