/* SPDX-License-Identifier: MIT */
/*
 * Where the main thread's trace begins.  The interposer's constructor runs
 * after the loader has mapped the program's libraries and after the
 * constructors of those initialized first (a library the program needs,
 * or one preloaded after the interposer): time an unrecorded run pays
 * too, 40-50 ms for ffmpeg.  `ptbench record` says when it exec'd the
 * program (PTB_TRACE_EXEC, harness/cli/record-exec.c), and the trace then
 * begins there; the constructor's own setup (measuring an event's cost)
 * is taken out, as it was before.
 */
#include <stdio.h>
#include <stdlib.h>

#include "trace/interpose.h"

#define LONGEST_START_NS 60000000000ull   /* beyond: not this exec's stamp */

static uint64_t entry_wall, entry_cpu;     /* when the constructor began */

void ptb_tr_start_mark(void)
{
	entry_wall = ptb_tr_now();
	entry_cpu = ptb_tr_thread_cpu();
}

int ptb_tr_start_from_exec(uint64_t *t0, uint64_t *cpu_base)
{
	const char *v = getenv("PTB_TRACE_EXEC");
	unsigned long long wall, cpu;
	char tail;
	if (!v || sscanf(v, "%llu %llu%c", &wall, &cpu, &tail) != 2 || wall > entry_wall ||
	    entry_wall - wall > LONGEST_START_NS || cpu > entry_cpu)
		return 0;
	uint64_t setup_wall = ptb_tr_now() - entry_wall;
	uint64_t setup_cpu = ptb_tr_thread_cpu() - entry_cpu;
	*t0 = wall + setup_wall;                /* now is the constructor's start */
	*cpu_base = cpu + setup_cpu;            /* CPU time before the exec, and the setup's */
	return 1;
}
