/* SPDX-License-Identifier: MIT */
/*
 * A trace as the simulator replays it: for every thread, a list of
 * operations, each preceded by the CPU time the thread ran before it.
 * The CPU bursts are the recorded wall time between two calls, scaled per
 * stretch between two readings of the thread's CPU clock (so that time the
 * thread spent preempted or waiting outside any traced call is not taken
 * for work), less the measured cost of the probes themselves.
 */
#ifndef PTB_TRACE_OPS_H
#define PTB_TRACE_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "trace/reader.h"

enum ptb_op_kind {
	PTB_OP_CREATE, PTB_OP_EXIT, PTB_OP_JOIN,
	PTB_OP_LOCK, PTB_OP_UNLOCK,
	PTB_OP_CWAIT, PTB_OP_SIGNAL, PTB_OP_BROADCAST,
	PTB_OP_BAR_INIT, PTB_OP_BAR_WAIT,
	PTB_OP_SEM_INIT, PTB_OP_SEM_WAIT, PTB_OP_SEM_POST,
	PTB_OP_RDLOCK, PTB_OP_WRLOCK, PTB_OP_RWUNLOCK,
	PTB_OP_DELAY,            /* off-CPU: a sleep, a wait that timed out (not a
				  * condition's: CWAIT with its timeout) */
	PTB_OP_IO,               /* off-CPU: a wait on a file, device, terminal, or a
				  * socket or pipe to another process (arg = ns) */
	PTB_OP_CH_READ,          /* a pipe or socket pair between threads: obj = the */
	PTB_OP_CH_WRITE,         /* stream, arg = bytes (a read of 0: end of stream) */
	PTB_OP_CH_POLL,          /* waits until the stream holds unread bytes */
	PTB_OP_COUNT
};

struct ptb_op {
	double burst;            /* CPU ns before the operation */
	double open;             /* while building: wall ns not yet scaled */
	uint32_t probes;         /* while building: events in the burst */
	uint64_t obj, site;
	uint64_t t;              /* recorded time of the call, ns */
	uint64_t arg;            /* thread, sequence, count, value, delay ns, or bytes;
				  * LOCK: PTB_LOCK_*; UNLOCK: PTB_UNLOCK_*;
				  * RDLOCK, WRLOCK: PTB_RW_* */
	uint64_t total;          /* CH_READ of 0 bytes: the bytes ever written to the stream */
	double wait;             /* I/O: the time the call waited, ns (CH_*: used if the
				  * stream turns out not to be a channel); CWAIT: the
				  * timeout it met in the recording, 0 none */
	uint8_t kind;
};

/* What a LOCK operation takes: a spin lock (its waiter spins, on a CPU);
 * a lock of a kind that its owner cannot take again (a spin lock, a mutex
 * not recursive: the owner's second lock waits for another thread's
 * unlock). */
enum { PTB_LOCK_SPIN = 1, PTB_LOCK_PLAIN = 2 };
/* What a RDLOCK or WRLOCK operation takes: a lock that lets a new reader
 * in while a writer waits (glibc's default; else, and in a trace from
 * before the flag, the writer goes first). */
enum { PTB_RW_READERS_FIRST = 1 };
/* What an UNLOCK does when its thread is not the owner: releases the
 * mutex (the default and adaptive kinds; else, and in a trace from before
 * the flag, nothing). */
enum { PTB_UNLOCK_BY_ANY = 1 };

struct ptb_op_thread {
	size_t n, cap;
	struct ptb_op *op;
	uint64_t start_t;        /* recorded start, ns */
	double cpu_ns;           /* the sum of its bursts */
	double untraced_ns;      /* wall time between its calls that was not CPU time */
	double wake_ns;          /* wall time of its waits on PTB_FD_WAKE descriptors */
	uint64_t wakes;          /* its calls on them: waits, and reads that did not wait */
};

struct ptb_ops {
	uint32_t nthreads;
	struct ptb_op_thread *th;
	double cpu_ns;           /* all threads' bursts */
	double untraced_ns;      /* all threads' time off the CPU outside traced calls */
	uint64_t probes;         /* events whose cost was taken off */
};

/* 0, or -1 when out of memory. */
int ptb_ops_build(const struct ptb_trace *t, struct ptb_ops *o);
void ptb_ops_free(struct ptb_ops *o);
/* The share of the working threads' time (CPU and untraced) spent off the
 * CPU outside traced calls.  A thread with under 1 % of the CPU time (one
 * that waits in sigwait all along) does not count: its wait delays no one. */
double ptb_ops_untraced_share(const struct ptb_ops *o);
/* Likewise, the share spent waiting on descriptors through which threads
 * may wake each other and which the replay keeps as delays (eventfd,
 * signalfd, an epoll instance watching a pipe: PTB_FD_WAKE). */
double ptb_ops_wake_share(const struct ptb_ops *o);
/* How often the threads waited on such descriptors, or read one (an
 * eventfd or a signalfd) without a wait. */
uint64_t ptb_ops_wakes(const struct ptb_ops *o);
/* Whether an operation of this kind is a delay of the thread's own (a
 * sleep, a timed-out wait, I/O outside the process), not a wait for
 * another thread. */
int ptb_op_is_delay(int kind);
/* "mutex", "condition", ...: what an operation waits on, for people. */
const char *ptb_op_object_name(int kind);

#endif
