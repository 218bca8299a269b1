/* SPDX-License-Identifier: MIT */
/*
 * Running a suite: every selected point measured as independent trials in
 * worker processes, interleaved in randomized rounds under a watchdog, the
 * result file rewritten atomically after every finished point so that an
 * interrupted or failed run keeps everything it finished.
 */
#ifndef PTB_RUNNER_H
#define PTB_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/measure.h"
#include "ptbench.h"
#include "report/report.h"
#include "run/layout.h"

struct ptb_run_opts {
	const char *const *patterns; int npatterns;   /* -b */
	const char *const *assign;   int nassign;     /* -p */
	const char *suite;                            /* --suite; NULL: default */
	struct ptb_limits limits;                     /* of one trial */
	int min_trials;                               /* before a point may stop */
	int trials;                                   /* fixed count; 0 = adaptive */
	double target_pct;                            /* CI half-width to reach */
	double point_budget_s;                        /* time a point may take */
	double run_budget_s;                          /* shared by all; 0 = none */
	uint64_t seed;                                /* of the rounds' order */
	const char *program;                          /* the worker's binary */
	double timeout_s;                             /* per trial */
	bool quick;
	const char *out_path;                         /* NULL: default name */
	enum ptb_format format;
	const char *command;                          /* as typed */
	enum ptb_layout_mode layout;                  /* --layout: varied (0) or fixed */
	int gate_fd;                                  /* --round-gate; 0: none */
};

/* Exit status of `ptbench run`: 0 all points ran (ok/unstable/na),
 * 1 some point timed out, crashed or erred, 2 bad input, 130 interrupted. */
int ptb_run_suite(const struct ptb_run_opts *o);

/* Whether an output file (-o) may be written, checked before anything is
 * measured, as `run` checks its result file; cleans up what a killed
 * writer left beside it.  0, or -1 with err (one line). */
int ptb_run_check_output(const char *path, char *err, size_t errlen);

#endif
