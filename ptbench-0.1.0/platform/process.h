/* SPDX-License-Identifier: MIT */
/*
 * What the runner needs from the operating system to keep its worker
 * processes in hand: the path of the running program, so that a worker is
 * the same binary exec'd afresh, and a worker that dies with its runner
 * instead of measuring on for nobody.
 */
#ifndef PTB_PROCESS_H
#define PTB_PROCESS_H

#include <stddef.h>

/* The running program's path, for exec; argv0 where the system cannot
 * say.  0, or -1 when neither gives one. */
int ptb_self_exe(const char *argv0, char *buf, size_t len);

/* Ask to be killed (SIGKILL) when the parent process dies; where the
 * system cannot, the worker notices its closed stdin instead.  Exits at
 * once when the parent is already gone. */
void ptb_die_with_parent(void);

#endif
