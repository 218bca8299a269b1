/* SPDX-License-Identifier: MIT */
/*
 * A program's own co-running slowdown on a machine, as `ptbench corun`
 * measures it and `ptbench predict --corun FILE` applies it: JSON of
 * schema ptbench-corun/1,
 *   {"schema", "program", "argv", "sched", "pus", "rounds", "alone_cpu_s",
 *    "alone_drift", "slowdown": [{"copies", "factor", "min", "max", "rounds"}, ...]}
 * with copies ascending from 1 (factor 1): the CPU time of each of k
 * copies running at once over the CPU time of one alone (the median of the
 * rounds' factors, which "rounds" lists).  "sliced" (null where the lone
 * copy ran under the normal policy already) is the lone copy's CPU time
 * under the normal policy over under SCHED_FIFO, {"factor", "min", "max",
 * "rounds"}: what the time slices among its threads cost it on one PU.
 * "alone_drift" (one a round: the second lone run's CPU time over the
 * first's) is for the reader; predict does not use it.
 */
#ifndef PTB_CLI_CORUN_FILE_H
#define PTB_CLI_CORUN_FILE_H

#include <stddef.h>

#include "cli/machine-costs.h"

#define PTB_CORUN_SCHEMA "ptbench-corun/1"

struct ptb_program_corun {
	const char *file;
	char program[256];
	struct ptb_corun_curve curve;   /* bytes 0: a program's, not a table size */
	double sliced;                  /* "sliced"'s factor; 0: not measured */
};

/* 0; -1 with a one-line reason in err (unreadable, not JSON, another
 * schema, copies not ascending from 1, a factor outside 0.01 to 1000,
 * "sliced" neither null nor such a factor). */
int ptb_corun_file_load(const char *path, struct ptb_program_corun *pc, char *err,
			size_t errlen);

#endif
