/* SPDX-License-Identifier: MIT */
/*
 * Write a trace made event by event (tests/trace-made.h), the same on
 * every run, for the golden flow and parallelism plots (tests/plot-flow.sh):
 * three threads working 10, 20 and 30 ms to a barrier, 5 ms each after
 * it, and a sleep of 50 ms.  With "instant", two threads whose every event
 * is at time 0, a trace that spans no time (tests/trace.sh: refused).
 *
 *   trace-made FILE [instant]
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "trace-made.h"

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[2], "instant")) {
		ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
		ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
		ev(1, 0, PTB_EV_START, 0, 0, 0, 0);
		ev(1, 0, PTB_EV_EXIT, 0, 0, 0, 0);
		ev(0, 0, PTB_EV_EXIT, 0, 0, 0, 0);
	} else if (argc == 2) {
		make_barrier_sleep();
	} else {
		return fprintf(stderr, "usage: trace-made FILE [instant]\n"), 2;
	}
	write_trace(argv[1]);
	return 0;
}
