/* SPDX-License-Identifier: MIT */
/*
 * Other processes' threads as the scheduler sees them, for `ptbench
 * record`'s watch over a program it runs under SCHED_FIFO on one PU
 * (harness/cli/record-hog.c): how long each has run and stood ready, and
 * a way to put one behind the others; and what the program leaves
 * running once it ends, set free of the recording's PU and policy.
 */
#ifndef PTB_THREADS_H
#define PTB_THREADS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct ptb_thread_time {
	pid_t tid;
	pid_t pid;           /* its process */
	uint64_t run_ns;     /* on a CPU, since it started */
	uint64_t ready_ns;   /* runnable but waiting for a CPU, since it started
			      * (counted once it runs: 0 for one never run) */
	int runnable;        /* running or ready to, now */
};

/* Up to max of the threads of every process below this one (the program
 * and what it started, which share its PU), in no order: their count, or
 * -1 where the system cannot say (then there is nothing to watch). */
int ptb_threads_sample_below(struct ptb_thread_time *out, size_t max);

/* Put thread tid, if it runs under SCHED_FIFO, behind the other ready
 * threads of its priority, as if it had blocked and woken, its priority
 * kept: 0, or -1 (another policy, or not permitted). */
int ptb_thread_to_tail(pid_t tid);

/* Whether thread tid spins: where its user code runs, sampled for ms
 * milliseconds (at least: the caller's sleep) (ptb_samples_spin) -- 1 it
 * spins, 0 it works (or is ending), -1 the system would not say (no perf
 * events, or not permitted, or too few samples).  With polls, a loop that
 * spends most of the CPU time it had meanwhile in system calls (a waitpid
 * with WNOHANG) is one too. */
int ptb_thread_spins(pid_t tid, int ms, int polls);

/* The rule, on the addresses of n samples of a thread's user code taken
 * at equal steps of its CPU time: 1 a spin, its samples at a dozen
 * addresses or fewer within a few hundred bytes (a wait on a flag), or
 * -- where polls_below is not 0 -- a poll, fewer samples than
 * polls_below (most of its time in the kernel) at 16 addresses or fewer
 * anywhere; 0 work; -1 too few samples (under 20) to say. */
int ptb_samples_spin(const uint64_t *ip, size_t n, size_t polls_below);

/* Make this process the reaper of its orphaned descendants (a daemon a
 * recorded program started), so that ptb_descendants_release finds them:
 * 0, or -1 where the system cannot. */
int ptb_adopt_orphans(void);

/* Every process still running below this one: each of its threads taken
 * off a real-time policy (to SCHED_OTHER) and allowed the CPUs in cpus (a
 * cpu_set_t of cpus_size bytes).  How many processes. */
int ptb_descendants_release(const void *cpus, size_t cpus_size);

#endif
