/* SPDX-License-Identifier: MIT
 * The client requests of the profiler's mutex wrappers (profile/preload.c)
 * to the tool (profile/locks.c); private, apart from the region of
 * interest's in ptbench-profile.h. */
#ifndef PTBPROF_LOCKREQ_H
#define PTBPROF_LOCKREQ_H

#include <valgrind.h>

enum {
	PTBPROF_REQ_TURN = VG_USERREQ_TOOL_BASE('P', 'T') + 0x100, /* may I try mutex ARG1 now? */
	PTBPROF_REQ_ACQUIRED,    /* I hold mutex ARG1 */
	PTBPROF_REQ_RELEASE,     /* I am about to release mutex ARG1 */
	PTBPROF_REQ_UNORDERED,   /* I gave up waiting for my turn at mutex ARG1 */
	PTBPROF_REQ_BARRIER_INIT, /* barrier ARG1 is for ARG2 threads */
	PTBPROF_REQ_BARRIER_IN,  /* I arrive at barrier ARG1 */
	PTBPROF_REQ_BARRIER_OUT  /* I leave barrier ARG1 */
};

/* Yields a thread waits for its turn before it takes the lock anyway. */
#define PTBPROF_TURN_TRIES 1000

#endif
