/* SPDX-License-Identifier: MIT */
/*
 * A region of interest for `ptbench profile`, as the MAGIC markers of
 * Faroughi's study: a program that calls PTBPROF_START() is profiled from
 * its first call on (what came before is not counted), and not between a
 * PTBPROF_STOP() and the next PTBPROF_START().  The markers are Valgrind
 * client requests: outside Valgrind they cost a few instructions and do
 * nothing.  Compile with `pkg-config --cflags valgrind`.
 */
#ifndef PTBENCH_PROFILE_H
#define PTBENCH_PROFILE_H

#include <valgrind.h>

enum {
	PTBPROF_USERREQ_START = VG_USERREQ_TOOL_BASE('P', 'T'),
	PTBPROF_USERREQ_STOP
};

#define PTBPROF_START() VALGRIND_DO_CLIENT_REQUEST_STMT(PTBPROF_USERREQ_START, 0, 0, 0, 0, 0)
#define PTBPROF_STOP()  VALGRIND_DO_CLIENT_REQUEST_STMT(PTBPROF_USERREQ_STOP, 0, 0, 0, 0, 0)

#endif
