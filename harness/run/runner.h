/* SPDX-License-Identifier: MIT */
/*
 * Running a suite: each selected benchmark in a forked child under a
 * watchdog, its points streamed back to the parent, the result file
 * rewritten atomically after every point so that an interrupted or failed
 * run keeps everything it finished.
 */
#ifndef PTB_RUNNER_H
#define PTB_RUNNER_H

#include <stdbool.h>

#include "engine/measure.h"
#include "ptbench.h"
#include "report/report.h"

struct ptb_run_opts {
	const char *const *patterns; int npatterns;   /* -b */
	const char *const *assign;   int nassign;     /* -p */
	const char *suite;                            /* --suite; NULL: default */
	struct ptb_limits limits;
	double timeout_s;                             /* per benchmark */
	bool quick;
	const char *out_path;                         /* NULL: default name */
	enum ptb_format format;
	const char *command;                          /* as typed */
};

/* Exit status of `ptbench run`: 0 all points ran (ok/unstable/na),
 * 1 some point timed out, crashed or erred, 2 bad input, 130 interrupted. */
int ptb_run_suite(const struct ptb_run_opts *o);

#endif
