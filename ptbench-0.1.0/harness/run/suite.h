/* SPDX-License-Identifier: MIT */
/*
 * Internal to run/: the pieces of a run in progress, shared by the runner
 * (run/runner.c), the selection (select.c), the trials' schedule
 * (schedule.c), the workers (worker.c, workers.c) and the progress line
 * (progress.c).
 */
#ifndef PTB_RUN_SUITE_H
#define PTB_RUN_SUITE_H

#include <jansson.h>
#include <signal.h>
#include <stdbool.h>

#include "engine/assign.h"
#include "engine/sweep.h"
#include "ptbench.h"
#include "run/runner.h"

#define PTB_MAX_SELECTED 128
#define PTB_SWEEP_POINTS 16     /* point budget of an adaptive sweep */

/* A selected benchmark and the -p assignments that apply to it. */
struct ptb_job {
	const struct ptb_bench *b;      /* NULL: skipped */
	struct ptb_assign_set *set;
	const struct ptb_system *sys;   /* gives machine defaults; NULL: none */
};

/* The run document and what has happened to it so far. */
struct ptb_run_state {
	const struct ptb_run_opts *o;
	json_t *run;
	const char *path;
	int done, failed;
	bool save_failed;
};

/* Set by SIGINT, SIGTERM or SIGHUP: the run stops and keeps what finished. */
extern volatile sig_atomic_t ptb_run_interrupted;
void ptb_run_install_signals(void);
double ptb_now_s(void);

/* Selection (select.c): the chosen benchmarks in registry order, or -1
 * with err; then every -p assignment checked and narrowed per benchmark. */
int ptb_select_benches(const struct ptb_run_opts *o, struct ptb_job *jobs, char *err,
		       size_t errlen);
int ptb_check_inputs(const struct ptb_run_opts *o, struct ptb_job *jobs, int n, char *err,
		     size_t errlen);
struct ptb_sweep *ptb_job_sweep(const struct ptb_job *job);

/* A finished record joins the run, which is saved at once (runner.c). */
void ptb_run_add(struct ptb_run_state *rs, json_t *rec);
struct ptb_side;
/* Every point of the jobs, as trials in randomized rounds (schedule.c). */
void ptb_schedule_run(struct ptb_run_state *rs, struct ptb_job *jobs, int njobs,
		      const struct ptb_side *side);
/* A record's params from a sweep's values. */
json_t *ptb_params_json(const struct ptb_bench *b, const char *const *values);

/* The progress line (progress.c). */
void ptb_progress_trial(int done, int round, const char *bench, const json_t *params);
void ptb_progress_done(int done, const json_t *rec);
void ptb_progress_end(void);

#endif
