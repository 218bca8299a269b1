/* SPDX-License-Identifier: MIT */
/*
 * The threads of one rank: the main thread is thread 0 (under
 * MPI_THREAD_FUNNELED it is the one that may call MPI), the others are
 * started for one trial and joined after it.  And the two ways the
 * threads of a rank meet: a POSIX barrier, or spinning on a shared
 * counter (sense reversal).
 */
#ifndef PTB_CLUSTER_TEAM_H
#define PTB_CLUSTER_TEAM_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

struct ptb_cl;

enum ptb_cl_local { PTB_CL_LOCAL_PTHREAD, PTB_CL_LOCAL_SPIN };

struct ptb_cl_meet {
	enum ptb_cl_local kind;
	int n;
	pthread_barrier_t pb;
	_Atomic int count;
	_Atomic int sense;
};

void ptb_cl_meet_init(struct ptb_cl_meet *m, enum ptb_cl_local kind, int n);
void ptb_cl_meet_destroy(struct ptb_cl_meet *m);
/* Wait until all n threads have arrived; *local_sense is the thread's own
 * sense flag, starting at 0. */
void ptb_cl_meet(struct ptb_cl_meet *m, int *local_sense);

/* Run fn(arg, i) on threads 0..n-1, thread 0 being the caller; a thread
 * that cannot be started ends the job (ptb_cl_fail). */
int ptb_cl_team(struct ptb_cl *c, int n, void (*fn)(void *arg, int i), void *arg);

#endif
