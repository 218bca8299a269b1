/* SPDX-License-Identifier: MIT */
/*
 * The round gate (`ptbench run --round-gate FD`): a caller starts each of
 * the run's rounds.  ptbench-mpi uses it so that the rounds of the
 * per-node suite start together on every node of a cluster job, while the
 * run's own processes never carry MPI (docs/design.md section 16).
 *
 * One line at a time on the descriptor, a stream socket to the caller:
 *   ptbench -> caller   "ready K"        round K may start
 *                       "done K S E"     round K ran from S to E
 *                       "end"            no round is left
 *   caller -> ptbench   "go T"           start at T (CLOCK_MONOTONIC, ns)
 * S, E and T are CLOCK_MONOTONIC nanoseconds.  A caller that goes away
 * interrupts the run, as SIGTERM would.
 */
#ifndef PTB_RUN_GATE_H
#define PTB_RUN_GATE_H

#include <stdbool.h>

/* Wait for the caller's word to start round `round`, then for its start
 * time: false when the caller has gone (or fd is 0: no gate, true). */
bool ptb_gate_enter(int fd, int round);
/* Round `round` has ended. */
void ptb_gate_leave(int fd, int round);
/* No round is left. */
void ptb_gate_end(int fd);

#endif
