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
	PTBPROF_REQ_BARRIER_INIT, /* barrier ARG1 is for ARG2 threads */
	PTBPROF_REQ_BARRIER_IN,  /* I arrive at barrier ARG1 */
	PTBPROF_REQ_BARRIER_OUT, /* I leave barrier ARG1 */
	PTBPROF_REQ_YIELD,       /* may I return from sched_yield now? */
	PTBPROF_REQ_GAVE_UP      /* I did not get mutex ARG1 after my turn */
};

/* A thread waiting for its turn takes the lock anyway once the others
 * have made no progress in logical time over this many of its yields and
 * this many milliseconds (on a loaded machine a thread may get no CPU for
 * a while, so a count of yields alone would give up too soon). */
#define PTBPROF_TURN_TRIES 1000
#define PTBPROF_TURN_MS 2000

#endif
