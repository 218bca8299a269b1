/* SPDX-License-Identifier: MIT */
/*
 * Traces made event by event, with valid framing and checksums, for the
 * tests that need exact answers (tests/test_trace.c) or a trace that is
 * the same on every run (tests/trace-made.c, the golden flow plots).
 * Header-only: each test program includes it once.
 */
#ifndef PTB_TESTS_TRACE_MADE_H
#define PTB_TESTS_TRACE_MADE_H

#include <stdio.h>
#include <string.h>

#include "trace/format.h"

#define MAXEV 4096
struct thread_events { struct ptb_tev ev[MAXEV]; uint32_t n; };
static struct thread_events th[8];
static int nth;
/* The header's bytes of name, as written (a test may leave out the NUL):
 * 68, and before version 3 the 4 after them too. */
static char made_name[72] = "made";
/* The header's version and remote_latency, as written. */
static uint32_t made_version = PTB_TRACE_VERSION, made_latency;

static void ev(int t, uint64_t at, int kind, int phase, uint64_t obj, uint32_t arg, int out)
{
	if (t >= nth)
		nth = t + 1;
	th[t].ev[th[t].n++] = (struct ptb_tev){ at, obj, 0x1000 + (uint64_t)kind, arg,
						 (uint8_t)kind, (uint8_t)phase, (uint16_t)out };
}

/* Write the threads' events as a trace file with valid framing. */
static void write_trace(const char *path)
{
	struct ptb_trace_header h = { .version = made_version, .endian = PTB_TRACE_ENDIAN,
		.header_size = sizeof h, .event_size = sizeof(struct ptb_tev), .sched = PTB_SCHED_FIFO,
		.remote_latency = made_latency };
	memcpy(h.magic, PTB_TRACE_MAGIC, 8);
	memcpy(h.program, made_name, sizeof h.program);
	if (made_version < 3)                  /* a name of 72 bytes, no latency */
		memcpy(&h.remote_latency, made_name + sizeof h.program, sizeof h.remote_latency);
	FILE *f = fopen(path, "wb");
	uint64_t sum = ptb_trace_sum(&h, sizeof h), events = 0;
	fwrite(&h, sizeof h, 1, f);
	for (int t = 0; t < nth; t++) {
		uint32_t bytes = th[t].n * (uint32_t)sizeof(struct ptb_tev);
		struct ptb_trace_chunk c = { PTB_TRACE_CHUNK_MAGIC, (uint32_t)t, th[t].n, bytes,
					     ptb_trace_sum(th[t].ev, bytes), 0 };
		fwrite(&c, sizeof c, 1, f);
		fwrite(th[t].ev, bytes, 1, f);
		sum += c.checksum, events += th[t].n;
	}
	struct ptb_trace_trailer tr = { PTB_TRACE_END_MAGIC, (uint64_t)nth, events, sum };
	fwrite(&tr, sizeof tr, 1, f);
	fclose(f);
}


#define MS 1000000ull

/* Three threads (main and two) work 10, 20, 30 ms to a barrier of 3, then
 * 5 ms each; the main thread then sleeps 50 ms: 30 + 5 + 50 ms on 3 CPUs,
 * the sleep kept whatever the count.  Recorded on one PU, in turn. */
static inline void make_barrier_sleep(void)
{
	enum { B = 0x300 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_BARRIER_INIT, 0, B, 3, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 2, 0);
	ev(0, 10 * MS, PTB_EV_BARRIER_WAIT, 1, B, 0, 0);
	ev(1, 10 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 30 * MS, PTB_EV_BARRIER_WAIT, 1, B, 0, 0);
	ev(2, 30 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(2, 60 * MS, PTB_EV_BARRIER_WAIT, 1, B, 0, 0);
	ev(2, 60 * MS, PTB_EV_BARRIER_WAIT, 2, B, 0, 0);
	ev(2, 65 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(1, 65 * MS, PTB_EV_BARRIER_WAIT, 2, B, 0, 0);
	ev(1, 70 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 70 * MS, PTB_EV_BARRIER_WAIT, 2, B, 0, 0);
	ev(0, 75 * MS, PTB_EV_SLEEP, 1, 0, 0, 0);
	ev(0, 125 * MS, PTB_EV_SLEEP, 2, 0, 0, 0);
	ev(0, 125 * MS, PTB_EV_JOIN, 0, 0, 1, 0);
	ev(0, 125 * MS, PTB_EV_JOIN, 0, 0, 2, 0);
	ev(0, 125 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* Main holds mutex 0x400 while it joins thread 1, which had taken and
 * left it during main's 1 ms sleep in the recording (on one PU, thread 2
 * after it).  Replayed on 2 CPUs, main takes it first: threads 1 and 2
 * wait for it (from 5.5 and 6.5 ms) and main's join waits for thread 1 (at
 * 8.5 ms), a cycle the recording never met.  Releasing the join lets main
 * leave its 5 ms critical section at 13.5 ms; threads 1 and 2 then hold
 * the mutex in turn, 5 ms each: 23.5 ms.  (Releasing thread 1's wait,
 * which began first, ran thread 2's critical section beside main's.)
 * Inline: not every program that includes this makes it. */
static inline void make_forced_join(void)
{
	enum { L = 0x400 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 2, 0);
	ev(0, 1 * MS, PTB_EV_SLEEP, 1, 0, 0, 0);
	ev(1, 1 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 5 * MS, PTB_EV_LOCK, 0, L, 0, 0);
	ev(1, 10 * MS, PTB_EV_UNLOCK, 0, L, 0, 0);
	ev(1, 10 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(2, 10 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(2, 15 * MS, PTB_EV_LOCK, 0, L, 0, 0);
	ev(2, 20 * MS, PTB_EV_UNLOCK, 0, L, 0, 0);
	ev(2, 20 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 20 * MS, PTB_EV_SLEEP, 2, 0, 18001, 0);   /* 18 ms of it behind 1 and 2 */
	ev(0, 20 * MS, PTB_EV_LOCK, 0, L, 0, 0);
	ev(0, 25 * MS, PTB_EV_JOIN, 1, 0, 1, 0);
	ev(0, 25 * MS, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, 30 * MS, PTB_EV_UNLOCK, 0, L, 0, 0);
	ev(0, 30 * MS, PTB_EV_JOIN, 1, 0, 2, 0);
	ev(0, 30 * MS, PTB_EV_JOIN, 2, 0, 2, 0);
	ev(0, 30 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* A mutex of the default kind used as a semaphore: main takes it, starts
 * thread 1 and takes it again, which waits until thread 1, having worked
 * 50 ms, unlocks it (glibc lets another thread unlock such a mutex); main
 * then works 50 ms.  Serial on any number of CPUs: 100 ms.  (Replayed as
 * recursive, main's second lock went through at once: 50 ms on 2 CPUs.)
 * As record writes it: main yields to thread 1 before its second lock,
 * which then does not wait; each lock says that the mutex is plain, each
 * unlock that another thread may unlock it.
 * Inline: not every program that includes this makes it. */
static inline void make_mutex_semaphore(void)
{
	enum { M = 0x500 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_LOCK, 0, M, 1, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 0, PTB_EV_YIELD, 1, 0, 0, 0);              /* as record's order makes it */
	ev(1, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 50 * MS, PTB_EV_UNLOCK, 0, M, 1, 0);
	ev(1, 50 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 50 * MS, PTB_EV_YIELD, 2, 0, 0, 0);
	ev(0, 50 * MS, PTB_EV_LOCK, 0, M, 1, 0);
	ev(0, 100 * MS, PTB_EV_UNLOCK, 0, M, 1, 0);
	ev(0, 100 * MS, PTB_EV_JOIN, 0, 0, 1, 0);
	ev(0, 100 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* The same with a recursive mutex: main's second lock goes through at
 * once (an instant event, as record writes an uncontended lock), and
 * main's 50 ms run beside thread 1's, which takes and leaves a mutex of
 * its own: 50 ms on 2 CPUs, 100 on 1. */
static inline void make_mutex_recursive(void)
{
	enum { M = 0x500, N = 0x600 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_LOCK, 0, M, 0, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 0, PTB_EV_LOCK, 0, M, 0, 0);
	ev(0, 50 * MS, PTB_EV_UNLOCK, 0, M, 0, 0);
	ev(0, 50 * MS, PTB_EV_UNLOCK, 0, M, 0, 0);
	ev(0, 50 * MS, PTB_EV_JOIN, 1, 0, 1, 0);
	ev(1, 50 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 100 * MS, PTB_EV_LOCK, 0, N, 0, 0);
	ev(1, 100 * MS, PTB_EV_UNLOCK, 0, N, 0, 0);
	ev(1, 100 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 100 * MS, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, 100 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* A read-write lock: thread 1 reads it 200 ms; thread 2 works 50 ms and
 * writes it 100 ms; thread 3 works 100 ms and reads it 100 ms (recorded
 * on one PU one after the other, each lock free when asked for).  On 3
 * CPUs, where readers go first (glibc's default), thread 3 reads beside
 * thread 1 while thread 2 waits, which then writes from 200 to 300 ms;
 * where a waiting writer keeps new readers out (each lock event's arg 0,
 * as in a trace from before the flag), thread 3 reads after it: 400 ms.
 * rf: the lock events' arg.  Inline, as above. */
static inline void make_rwlock(uint32_t rf)
{
	enum { RW = 0x700 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	for (uint32_t k = 1; k <= 3; k++)
		ev(0, 0, PTB_EV_CREATE, 0, 0, k, 0);
	ev(0, 0, PTB_EV_JOIN, 1, 0, 1, 0);
	ev(1, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 0, PTB_EV_RD_LOCK, 0, RW, rf, 0);
	ev(1, 200 * MS, PTB_EV_RW_UNLOCK, 0, RW, 0, 0);
	ev(1, 200 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(2, 200 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(2, 250 * MS, PTB_EV_WR_LOCK, 0, RW, rf, 0);
	ev(2, 350 * MS, PTB_EV_RW_UNLOCK, 0, RW, 0, 0);
	ev(2, 350 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(3, 350 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(3, 450 * MS, PTB_EV_RD_LOCK, 0, RW, rf, 0);
	ev(3, 550 * MS, PTB_EV_RW_UNLOCK, 0, RW, 0, 0);
	ev(3, 550 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 550 * MS, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, 550 * MS, PTB_EV_JOIN, 0, 0, 2, 0);
	ev(0, 550 * MS, PTB_EV_JOIN, 0, 0, 3, 0);
	ev(0, 550 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* Threads 1 and 2 wait on conditions C1 and C2 from the start; the main
 * thread works 10 ms, signals C1, works 2 ms, signals C2, works 10 ms and
 * joins both; each woken thread works 1 ms.  On 2 CPUs each signal finds
 * a CPU idle -- unless the first woken thread is still waking up on it.
 * Inline, as above. */
static inline void make_two_wakes(void)
{
	enum { C1 = 0x810, C2 = 0x820 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 2, 0);
	ev(1, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 0, PTB_EV_COND_WAIT, 1, C1, 0, 0);
	ev(2, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(2, 0, PTB_EV_COND_WAIT, 1, C2, 0, 0);
	ev(0, 10 * MS, PTB_EV_COND_SIGNAL, 0, C1, 1, 0);
	ev(0, 12 * MS, PTB_EV_COND_SIGNAL, 0, C2, 1, 0);
	ev(0, 22 * MS, PTB_EV_JOIN, 1, 0, 1, 0);
	ev(1, 22 * MS, PTB_EV_COND_WAIT, 2, C1, 1, 0);
	ev(1, 23 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(2, 23 * MS, PTB_EV_COND_WAIT, 2, C2, 1, 0);
	ev(2, 24 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 24 * MS, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, 24 * MS, PTB_EV_JOIN, 1, 0, 2, 0);
	ev(0, 24 * MS, PTB_EV_JOIN, 2, 0, 2, 0);
	ev(0, 24 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* Two threads each hold mutex M for 10 ms and work 10 ms outside, recorded
 * one after the other on one PU (the main thread's CPU clock says it did
 * not run while thread 1 did): on 2 CPUs the second waits for the first. */
static inline void make_lock_of(int lock, int unlock)
{
	enum { M = 0x100 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 20 * MS, PTB_EV_CPU, 0, 0, 0, 0);
	ev(1, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 0, lock, 0, M, 0, 0);
	ev(1, 10 * MS, unlock, 0, M, 0, 0);
	ev(1, 20 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 20 * MS, lock, 0, M, 0, 0);
	ev(0, 30 * MS, unlock, 0, M, 0, 0);
	ev(0, 40 * MS, PTB_EV_JOIN, 0, 0, 1, 0);
	ev(0, 40 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

static inline void make_lock(void) { make_lock_of(PTB_EV_LOCK, PTB_EV_UNLOCK); }

/* Thread 1 waits on C (under M) from the start; the main thread works
 * 10 ms, signals C holding M, unlocks 0.5 ms later and works 10 ms more;
 * thread 1, woken, works 5 ms.  On 2 CPUs the signal wakes thread 1 onto
 * the idle CPU, and its wait for M right after is that same wake-up. */
static inline void make_wake_idle(void)
{
	enum { M = 0x100, C = 0x200 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 10 * MS, PTB_EV_LOCK, 0, M, 0, 0);
	ev(0, 10 * MS, PTB_EV_COND_SIGNAL, 0, C, 1, 0);
	ev(0, 21 * MS / 2, PTB_EV_UNLOCK, 0, M, 0, 0);
	ev(0, 41 * MS / 2, PTB_EV_JOIN, 1, 0, 1, 0);
	ev(1, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 0, PTB_EV_LOCK, 0, M, 0, 0);
	ev(1, 0, PTB_EV_UNLOCK, 0, M, 0, 0);
	ev(1, 0, PTB_EV_COND_WAIT, 1, C, 0, 0);
	ev(1, 41 * MS / 2, PTB_EV_COND_WAIT, 2, C, 1, 0);
	ev(1, 41 * MS / 2, PTB_EV_LOCK, 0, M, 0, 0);
	ev(1, 41 * MS / 2, PTB_EV_UNLOCK, 0, M, 0, 0);
	ev(1, 51 * MS / 2, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 51 * MS / 2, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, 51 * MS / 2, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* Thread 1 holds a mutex for 2 ms `holds` times, 0.5 ms outside after
 * each; the main thread works 1 ms and then wants it for 2 ms.  Recorded
 * on one PU: the main thread first, thread 1 once it joined.  On 2 CPUs
 * the main thread waits for thread 1's first unlock at 2 ms, which wakes
 * it. */
static inline void make_barge(int holds)
{
	enum { B = 0x830 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 1 * MS, PTB_EV_LOCK, 0, B, 0, 0);
	ev(0, 3 * MS, PTB_EV_UNLOCK, 0, B, 0, 0);
	ev(0, 3 * MS, PTB_EV_JOIN, 1, 0, 1, 0);
	ev(1, 3 * MS, PTB_EV_START, 0, 0, 0, 0);
	uint64_t at = 3 * MS;
	for (int k = 0; k < holds; k++) {
		ev(1, at, PTB_EV_LOCK, 0, B, 0, 0);
		ev(1, at + 2 * MS, PTB_EV_UNLOCK, 0, B, 0, 0);
		at += 2 * MS + MS / 2;
	}
	ev(1, at, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, at, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, at, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* The main thread holds a mutex for 10 ms; thread 1 (after 1 ms) wants it
 * for 0.5 ms, thread 2 (after 1.5 ms) for 2 ms; thread 3, which never
 * held it, unlocks it after 11 ms of work -- an unlock of a kind that
 * refuses one by another thread than the owner (the event's arg 0). */
static inline void make_stray_unlock(void)
{
	enum { S = 0x840 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	for (uint32_t t = 1; t <= 3; t++)
		ev(0, 0, PTB_EV_CREATE, 0, 0, t, 0);
	ev(0, 0, PTB_EV_LOCK, 0, S, 0, 0);
	ev(0, 10 * MS, PTB_EV_UNLOCK, 0, S, 0, 0);
	ev(1, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 1 * MS, PTB_EV_LOCK, 0, S, 0, 0);
	ev(1, 1 * MS + MS / 2, PTB_EV_UNLOCK, 0, S, 0, 0);
	ev(1, 1 * MS + MS / 2, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(2, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(2, 1 * MS + MS / 2, PTB_EV_LOCK, 0, S, 0, 0);
	ev(2, 3 * MS + MS / 2, PTB_EV_UNLOCK, 0, S, 0, 0);
	ev(2, 3 * MS + MS / 2, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(3, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(3, 11 * MS, PTB_EV_UNLOCK, 0, S, 0, 0);
	ev(3, 11 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	for (uint32_t t = 1; t <= 3; t++) {
		ev(0, 10 * MS, PTB_EV_JOIN, 1, 0, t, 0);
		ev(0, 10 * MS, PTB_EV_JOIN, 2, 0, t, 0);
	}
	ev(0, 10 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* The main thread writes a rwlock for 10 ms; threads 1 and 2 want to read
 * it after 1 ms, for 5 ms each.  On 3 CPUs its unlock lets both readers in
 * together: one release of 2 threads, 15 ms.  Inline, as above. */
static inline void make_rw_group(void)
{
	enum { W = 0x870 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 2, 0);
	ev(0, 0, PTB_EV_WR_LOCK, 0, W, 1, 0);
	ev(0, 10 * MS, PTB_EV_RW_UNLOCK, 0, W, 0, 0);
	for (int t = 1; t <= 2; t++) {
		ev(t, 0, PTB_EV_START, 0, 0, 0, 0);
		ev(t, 1 * MS, PTB_EV_RD_LOCK, 0, W, 1, 0);
		ev(t, 6 * MS, PTB_EV_RW_UNLOCK, 0, W, 0, 0);
		ev(t, 6 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
		ev(0, 10 * MS, PTB_EV_JOIN, 0, 0, (uint32_t)t, 0);
	}
	ev(0, 10 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* Two locks taken in opposite orders (A then B by main, B then A by
 * thread 2), which the recording on one PU met one after the other;
 * thread 1 wants A for 1 ms after 1 ms.  With a wake-up onto an idle CPU
 * that takes 5 ms (and 1 ms of its waker's), on 3 CPUs: main lets A go at
 * 2 ms and takes it again at 4 while thread 1 wakes; main waits for B
 * from 4.5, thread 2 for A from 5, and thread 1, finding A taken at 7,
 * for A again -- its wait begun at 1 ms, the first.  Nothing can run:
 * released by force in the order the waits began, thread 1 (into A, ends
 * at 8), then main (into B; lets A go at 9.5, thread 2 wakes for 5 ms and
 * ends at 15.5): 15.5 ms.  (Taking thread 1's wait as begun at 7, main was
 * released first and thread 1 woke last: 20.5 ms.) */
static inline void make_requeue_force(void)
{
	enum { A = 0x850, B = 0x860 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 2, 0);
	ev(0, 0, PTB_EV_LOCK, 0, A, 0, 0);
	ev(0, 2 * MS, PTB_EV_UNLOCK, 0, A, 0, 0);
	ev(0, 3 * MS, PTB_EV_LOCK, 0, A, 0, 0);
	ev(0, 7 * MS / 2, PTB_EV_LOCK, 0, B, 0, 0);
	ev(0, 9 * MS / 2, PTB_EV_UNLOCK, 0, B, 0, 0);
	ev(0, 5 * MS, PTB_EV_UNLOCK, 0, A, 0, 0);
	ev(1, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 1 * MS, PTB_EV_LOCK, 0, A, 0, 0);
	ev(1, 2 * MS, PTB_EV_UNLOCK, 0, A, 0, 0);
	ev(1, 2 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(2, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(2, 0, PTB_EV_LOCK, 0, B, 0, 0);
	ev(2, 5 * MS, PTB_EV_LOCK, 0, A, 0, 0);
	ev(2, 6 * MS, PTB_EV_UNLOCK, 0, A, 0, 0);
	ev(2, 6 * MS, PTB_EV_UNLOCK, 0, B, 0, 0);
	ev(2, 6 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 5 * MS, PTB_EV_JOIN, 0, 0, 1, 0);
	ev(0, 5 * MS, PTB_EV_JOIN, 0, 0, 2, 0);
	ev(0, 5 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

#endif
