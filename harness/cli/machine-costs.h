/* SPDX-License-Identifier: MIT */
/*
 * `predict --machine RESULT.json`: the target machine's wake-up, hand-off,
 * creation and spin hand-off costs and its co-running slowdown
 * (trace/sim.h, struct ptb_sim_costs), read from a ptbench result file of
 * it through the typed model (record/model.h).
 */
#ifndef PTB_CLI_MACHINE_COSTS_H
#define PTB_CLI_MACHINE_COSTS_H

#include <stddef.h>

#include "trace/sim.h"

/* enum ptb_machine_cost (harness/ptbench.h) less one. */
enum { PTB_COST_WAKE, PTB_COST_HANDOFF, PTB_COST_CREATE, PTB_COST_SPIN, PTB_COST_COUNT };

/* The co-running slowdown measured at one working-set size: factor[i] at
 * k[i] copies at once, ascending, k[0] = 1 and factor[0] = 1. */
#define PTB_CORUN_SIZES 16
#define PTB_CORUN_KS 32
struct ptb_corun_curve {
	double bytes;
	int nk;
	int k[PTB_CORUN_KS];
	double factor[PTB_CORUN_KS];
};

/* The curves of the file (none: ncurves 0), and the one applied: the
 * curve at the measured size nearest (by ratio) to the working set the
 * user named, -1 when none was named. */
struct ptb_machine_corun {
	const char *bench;                 /* the benchmark that measured them */
	int ncurves;
	struct ptb_corun_curve curve[PTB_CORUN_SIZES];
	double working_set;                /* bytes, as named */
	int picked;
};

/* Where each cost came from: the point's key and what its figure was
 * divided by; key "" when the file has none of the points that give it
 * (that cost is then 0). */
struct ptb_machine_costs {
	struct ptb_sim_costs costs;
	const char *name[PTB_COST_COUNT];    /* "wake-up", "hand-off", "creation", "spin hand-off" */
	char key[PTB_COST_COUNT][96];
	double ns[PTB_COST_COUNT];
	int divided_by[PTB_COST_COUNT];
	struct ptb_machine_corun corun;
};

/* 0; -1 with a one-line reason in err (the file unreadable, invalid, or
 * holding none of the four costs and no co-running slowdown). */
int ptb_machine_costs_load(const char *path, struct ptb_machine_costs *m, char *err,
			   size_t errlen);

/* Apply the curve nearest to a working set of `bytes` to m->costs
 * (linear between the copies measured, the last one's beyond): 0, or -1
 * with a reason in err when the file has no co-running slowdown. */
int ptb_machine_corun_pick(struct ptb_machine_costs *m, double bytes, const char *path,
			   char *err, size_t errlen);

/* Set costs' slowdown from a curve (k[0] = 1, ascending): linear between
 * the copies measured, the last one's beyond. */
void ptb_corun_curve_apply(const struct ptb_corun_curve *cv, struct ptb_sim_costs *costs);

#endif
