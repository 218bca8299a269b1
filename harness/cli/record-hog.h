/* SPDX-License-Identifier: MIT */
/* `ptbench record`'s watch over a thread that keeps the one PU from the
 * others (harness/cli/record-hog.c). */
#ifndef PTB_CLI_RECORD_HOG_H
#define PTB_CLI_RECORD_HOG_H

#include <sys/types.h>

/* Watch the processes below ptbench (the program, whose threads run under
 * SCHED_FIFO on one PU, and those it started, which share it), from a
 * thread of ptbench's own; -1 when it cannot. */
int ptb_record_hog_start(void);
/* Stop watching, before the program is reaped (its number may then be
 * another's); say on stderr if a thread was put behind the others, and
 * return how often. */
unsigned ptb_record_hog_stop(void);

#endif
