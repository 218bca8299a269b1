/* SPDX-License-Identifier: MIT */
/*
 * `ptbench predict`'s options as parsed (cli/cmd-predict.c) and its two
 * outputs (cli/predict-out.c): the replays are done, these print them.
 */
#ifndef PTB_CLI_PREDICT_OUT_H
#define PTB_CLI_PREDICT_OUT_H

#include "cli/machine-costs.h"
#include "trace/reader.h"
#include "trace/sim.h"

#define PTB_PREDICT_MAX_CPUS 32

struct ptb_predict_args {
	int cpus[PTB_PREDICT_MAX_CPUS], ncpus;
	int json, verbose, check;
	const char *chrome;
	const struct ptb_machine_costs *machine;    /* NULL: no costs */
	const char *machine_file;
	double working_set;                         /* bytes; 0: not named */
	double remote_wake_ns;                      /* charged; the trace's unless given */
	int remote_wake_given;
};

/* Above this share of the threads' time off the CPU outside any traced
 * call, --check refuses: the program synchronizes where the trace cannot
 * see it, and its threads would be replayed as independent. */
#define PTB_PREDICT_UNTRACED_LIMIT 0.10

/* The table notes a count of 2 CPUs or more whose replay had more threads
 * able to run than CPUs for at least this share of its time (not 1 CPU,
 * the speed-ups' base, where any two busy threads have it). */
#define PTB_PREDICT_SHARED_NOTE 0.10

/* r[0..n) the replays on the counts asked for, base the replay's wall time
 * on one CPU, untraced the share of time off the CPU outside traced calls.
 * The JSON: 0, or 1 when it could not be built. */
int ptb_predict_print_json(const struct ptb_trace *t, const struct ptb_sim_result *r, int n,
			   double base, double untraced, const struct ptb_predict_args *a);
void ptb_predict_print_table(const struct ptb_trace *t, const struct ptb_sim_result *r, int n,
			     double base, double untraced, const struct ptb_predict_args *a);

#endif
