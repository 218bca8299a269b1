/* SPDX-License-Identifier: MIT */
/*
 * Write a trace made event by event (tests/trace-made.h), the same on
 * every run, for the golden flow and parallelism plots (tests/plot-flow.sh):
 * three threads working 10, 20 and 30 ms to a barrier, 5 ms each after
 * it, and a sleep of 50 ms.
 *
 *   trace-made FILE
 */
#include "config.h"

#include <stdint.h>

#include "trace-made.h"

int main(int argc, char **argv)
{
	if (argc != 2)
		return fprintf(stderr, "usage: trace-made FILE\n"), 2;
	make_barrier_sleep();
	write_trace(argv[1]);
	return 0;
}
