/* SPDX-License-Identifier: MIT */
/*
 * Whether the machine was the benchmark's: a trial's evidence, sampled
 * around its timings by the worker, and a point's, pooled from its trials
 * by the runner (docs/design.md section 13).
 */
#ifndef PTB_RUN_DISTURB_H
#define PTB_RUN_DISTURB_H

#include <jansson.h>
#include <stdbool.h>

#include "platform/load.h"
#include "ptbench.h"

struct ptb_trial_load {
	struct ptb_pu_set pus;    /* where the point's threads were bound */
	struct ptb_load_sample start;
	bool known;
};

/* Before the timings: the PUs of the point's threads (set by placing and
 * setup) and the first sample. */
void ptb_trial_load_start(struct ptb_trial_load *tl, const struct ptb_point *p);
/* After them: the trial record gets "disturbed" (true, false, or null
 * where the system cannot say or the window was too short to tell) and,
 * when the system could say, the evidence as "disturbance". */
void ptb_trial_load_end(const struct ptb_trial_load *tl, json_t *rec);

/* The point's "disturbed": true when at least half its trials were -- each
 * judged alone, and those too short to judge alone judged together --
 * false when fewer were, null when it cannot tell; and its
 * "disturbance", the evidence of all its trials pooled, with the count of
 * trials found disturbed.  Returns whether the point was disturbed. */
bool ptb_point_disturbance(json_t *rec, const json_t *trials);

/* At the end of a run: when points were disturbed, a warning in the
 * context saying how many, beside the load average sampled at the start. */
void ptb_run_disturbance_warning(json_t *run);

#endif
