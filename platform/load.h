/* SPDX-License-Identifier: MIT */
/*
 * What else the machine was doing while a trial measured: the CPU time the
 * kernel counted on a set of PUs (busy, idle, stolen by the hypervisor),
 * the run queue, and this process's own CPU time and involuntary context
 * switches.  Two samples around a trial's timings give the evidence that
 * harness/stats/disturb.h judges (docs/design.md section 13).  Linux reads
 * /proc/stat; elsewhere a sample is unknown.
 */
#ifndef PTB_LOAD_H
#define PTB_LOAD_H

#include <stdbool.h>

/* PUs by operating-system index, as hwloc lists bindings ("0-1,4"). */
#define PTB_LOAD_MAX_PUS 4096

struct ptb_pu_set {
	unsigned char bit[PTB_LOAD_MAX_PUS / 8];
	int n;                    /* PUs in the set */
};

/* Add the PUs of a list "0-1,4" to the set: 0, or -1 for a malformed list
 * or a PU past PTB_LOAD_MAX_PUS (the set is then unchanged). */
int ptb_pu_set_add_list(struct ptb_pu_set *s, const char *list);
bool ptb_pu_set_has(const struct ptb_pu_set *s, int pu);

struct ptb_load_sample {
	double wall_s;            /* a monotonic clock */
	double idle_s;            /* idle and waiting for I/O, summed over the set's PUs */
	double steal_s;           /* the hypervisor ran something else, summed likewise */
	int npus;                 /* PUs of the set the kernel reported */
	int run_queue;            /* runnable tasks on the whole machine, this one included */
	double own_cpu_s;         /* this process, all its threads: user + system */
	long preempted;           /* this process's involuntary context switches */
	double tick_s;            /* the resolution of idle_s and steal_s per PU */
};

/* Sample now, the kernel's counters from stat_path (NULL: /proc/stat).
 * 0, or -1 when the system cannot say (not Linux, no /proc, no PU of the
 * set in it). */
int ptb_load_sample(struct ptb_load_sample *s, const struct ptb_pu_set *pus,
		    const char *stat_path);

#endif
