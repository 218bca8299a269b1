/* SPDX-License-Identifier: MIT */
/* `ptbench record`'s watch over a thread that keeps the one PU from the
 * others (harness/cli/record-hog.c). */
#ifndef PTB_CLI_RECORD_HOG_H
#define PTB_CLI_RECORD_HOG_H

#include <sys/types.h>

/* Watch process pid, whose threads run under SCHED_FIFO on one PU, from
 * a thread of ptbench's own; -1 when it cannot. */
int ptb_record_hog_start(pid_t pid);
/* Stop watching, before the process is reaped (its number may then be
 * another's); say on stderr if a thread was put behind the others, and
 * return how often. */
unsigned ptb_record_hog_stop(void);

#endif
