/* SPDX-License-Identifier: MIT */
/*
 * `ptbench corun`'s one mechanism: run k copies of a program at once, each
 * bound to a PU of its own, released together from a start line, and read
 * each copy's CPU time from the kernel's account of it (wait4).
 */
#ifndef PTB_CLI_CORUN_COPIES_H
#define PTB_CLI_CORUN_COPIES_H

#include <stddef.h>

#define PTB_COPIES_MAX 64

/* What each copy reads on stdin: `input` re-opened by each (a regular
 * file: each copy reads it from its start), or /dev/null when NULL. */
struct ptb_topology;
struct ptb_copies {
	char *const *argv;
	const char *input;
	int fifo;                  /* SCHED_FIFO, priority 1, for every copy; else
				    * SCHED_OTHER, whatever ptbench's own policy */
	const struct ptb_topology *t;   /* the machine the PUs are of */
};

/* Run n copies on pus[0..n), all at once; cpu_s[i] is copy i's user and
 * system seconds (with those of the children it waited for).  The copies
 * form one process group of their own: a signal that ends ptbench ends
 * them (record/cleanup.h), and whatever of the group outlives its copy (a
 * daemon it started) is killed once every copy has ended.  0; -1 with a
 * one-line reason in err: a copy could not be started, or ended otherwise
 * than by exit status 0 (every copy is waited for either way).  The
 * caller has fds 0-2 open and SIGCHLD at its default. */
int ptb_copies_run(const struct ptb_copies *c, const int *pus, int n, double *cpu_s,
		   char *err, size_t errlen);

#endif
