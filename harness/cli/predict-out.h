/* SPDX-License-Identifier: MIT */
/*
 * `ptbench predict`'s options as parsed (cli/cmd-predict.c) and its two
 * outputs (cli/predict-out.c): the replays are done, these print them.
 */
#ifndef PTB_CLI_PREDICT_OUT_H
#define PTB_CLI_PREDICT_OUT_H

#include "cli/corun-file.h"
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
	double remote_latency_ns;                   /* likewise the woken thread's delay */
	int remote_latency_given;
	const char *corun_file;
	const struct ptb_program_corun *corun;      /* --corun; NULL: none */
	int target_fifo;                            /* --sched fifo: no time slices */
	/* The time slices' cost charged (--corun's "sliced", not under
	 * --sched fifo): struct ptb_sim_costs's slice_cost, 0 none; the share
	 * of the 1-CPU replay with threads taking turns. */
	double slice_cost, sliced_share;
};

/* Below this share of the 1-CPU replay with threads taking turns, a time
 * slices' cost measured on one PU is not attributed (mostly noise). */
#define PTB_PREDICT_SLICED_MIN 0.05

/* Above this share of the threads' time off the CPU outside any traced
 * call, --check refuses: the program synchronizes where the trace cannot
 * see it, and its threads would be replayed as independent. */
#define PTB_PREDICT_UNTRACED_LIMIT 0.10

/* The table notes a count of 2 CPUs or more whose replay had more threads
 * able to run than CPUs for at least this share of its time (not 1 CPU,
 * the speed-ups' base, where any two busy threads have it). */
#define PTB_PREDICT_SHARED_NOTE 0.10
/* The text notes releases that woke several threads at once (barriers,
 * broadcasts, read locks, channels, exits) from this many on, at the most
 * CPUs predicted. */
#define PTB_PREDICT_GROUP_NOTE 8

/* Likewise for the share of time waiting on descriptors through which
 * threads may wake each other (eventfd, signalfd, epoll), which the
 * replay keeps as delays, or for so many reads of them (a read that found
 * its wake-up there already, on the one PU of the recording, is a wait
 * the replay does not keep at all). */
#define PTB_PREDICT_WAKE_LIMIT 0.10
#define PTB_PREDICT_WAKES 16           /* calls */

/* What the trace's threads did that the replay does not model: shares of
 * the working threads' time (trace/ops.h). */
struct ptb_predict_unseen {
	double untraced;     /* off the CPU outside traced calls */
	double wake;         /* waiting on eventfd, signalfd, epoll */
	uint64_t wakes;      /* calls on them: waits, and reads without one */
};

/* Whether the threads woke each other through eventfd, signalfd or epoll
 * past the limits above. */
int ptb_predict_wakes_unmodelled(const struct ptb_predict_unseen *u);

/* r[0..n) the replays on the counts asked for, base the replay's wall time
 * on one CPU.  The JSON: 0, or 1 when it could not be built. */
int ptb_predict_print_json(const struct ptb_trace *t, const struct ptb_sim_result *r, int n,
			   double base, const struct ptb_predict_unseen *u,
			   const struct ptb_predict_args *a);
void ptb_predict_print_table(const struct ptb_trace *t, const struct ptb_sim_result *r, int n,
			     double base, const struct ptb_predict_unseen *u,
			     const struct ptb_predict_args *a);

#endif
