/* SPDX-License-Identifier: MIT */
/*
 * What `ptbench record` measures of the machine before the program starts
 * (harness/cli/record-wake.c), for `ptbench predict` to charge: the
 * recording has every thread on one PU, where a thread woken by another
 * waits for the PU and costs its waker a queue insertion; on N CPUs it
 * often sleeps on another, idle one, which the waker must interrupt.
 */
#ifndef PTB_CLI_RECORD_WAKE_H
#define PTB_CLI_RECORD_WAKE_H

#include "platform/topology.h"

/* The median time a thread on `pu` spends signalling a condition variable
 * (lock, signal, unlock) that a thread asleep on another allowed PU waits
 * on, less the same with the sleeper on `pu` itself; at least 0.  fifo:
 * the threads under SCHED_FIFO, as the recording is.  -1 when no other
 * PU is allowed, the threads could not be run, or fifo is 0 or not
 * permitted (the normal policy makes the local sample as dear as the
 * remote one).  *latency_ns: the median time from the signal to the
 * remote sleeper's running (its idle PU waking), -1 with no figure. */
double ptb_record_remote_wake_ns(const struct ptb_topology *t, int pu, int fifo,
				 double *latency_ns);

#endif
