/* SPDX-License-Identifier: MIT */
/*
 * `predict --machine RESULT.json`: the target machine's wake-up, hand-off
 * and creation costs (trace/sim.h, struct ptb_sim_costs), read from a
 * ptbench result file of it through the typed model (record/model.h).
 */
#ifndef PTB_CLI_MACHINE_COSTS_H
#define PTB_CLI_MACHINE_COSTS_H

#include <stddef.h>

#include "trace/sim.h"

/* enum ptb_machine_cost (harness/ptbench.h) less one. */
enum { PTB_COST_WAKE, PTB_COST_HANDOFF, PTB_COST_CREATE, PTB_COST_COUNT };

/* Where each cost came from: the point's key and what its figure was
 * divided by; key "" when the file has none of the points that give it
 * (that cost is then 0). */
struct ptb_machine_costs {
	struct ptb_sim_costs costs;
	const char *name[PTB_COST_COUNT];    /* "wake-up", "hand-off", "creation" */
	char key[PTB_COST_COUNT][96];
	double ns[PTB_COST_COUNT];
	int divided_by[PTB_COST_COUNT];
};

/* 0; -1 with a one-line reason in err (the file unreadable, invalid, or
 * holding none of the three costs). */
int ptb_machine_costs_load(const char *path, struct ptb_machine_costs *m, char *err,
			   size_t errlen);

#endif
