/* SPDX-License-Identifier: MIT */
/*
 * The trace reader and the simulator on traces made here, event by event:
 * exact answers for small programs whose replay can be worked by hand (a
 * mutex waited for, a signal sent before its wait, a barrier, a join, a
 * sleep kept on any number of CPUs), and random traces with valid framing
 * and checksums but any content, which must load and replay to an end --
 * never loop or grow without bound.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "trace/format.h"
#include "trace/ops.h"
#include "trace/reader.h"
#include "trace/sim.h"

#include "trace-made.h"

#include "trace-replay.h"

enum { M = 0x100, C = 0x200 };


/* A create that failed used up number 1, which left no events; threads 2
 * and 3 start at 50 ms of the recording and work 100 ms each: 149 ms on
 * 2 CPUs from the main thread's start at 1 ms (not the empty number's 0). */
static void make_failed_create(void)
{
	ev(0, 1 * MS, PTB_EV_START, 0, 0, UINT32_MAX, 0);      /* after the file's t0 */
	ev(0, 50 * MS, PTB_EV_CREATE, 0, 0, 2, 0);
	ev(0, 50 * MS, PTB_EV_CREATE, 0, 0, 3, 0);
	ev(0, 50 * MS, PTB_EV_JOIN, 1, 0, 2, 0);
	ev(2, 50 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(2, 150 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(3, 150 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(3, 250 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 250 * MS, PTB_EV_JOIN, 2, 0, 2, 0);
	ev(0, 250 * MS, PTB_EV_JOIN, 1, 0, 3, 0);
	ev(0, 250 * MS, PTB_EV_JOIN, 2, 0, 3, 0);
	ev(0, 250 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	nth = 4;                 /* number 1's chunk is written, empty */
}

/* The main thread works 5 ms and joins thread 1, which works 10 ms: on 2
 * CPUs the join ends at the exit, a wake-up by a thread that is gone. */
static void make_join_late(void)
{
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 5 * MS, PTB_EV_JOIN, 1, 0, 1, 0);
	ev(1, 5 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 15 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 15 * MS, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, 15 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* The main thread signals C at 5 ms, then works to 30 ms; thread 1 starts
 * its wait only at 20 ms of its own work (entered at sequence 0), then
 * works 10 ms: on 2 CPUs the early signal is kept for it (30 ms). */
static void make_early_signal(void)
{
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 5 * MS, PTB_EV_COND_SIGNAL, 0, C, 1, 0);
	ev(0, 30 * MS, PTB_EV_JOIN, 1, 0, 1, 0);
	ev(1, 30 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 50 * MS, PTB_EV_COND_WAIT, 1, C, 0, 0);
	ev(1, 50 * MS, PTB_EV_COND_WAIT, 2, C, 1, 0);
	ev(1, 60 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 60 * MS, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, 60 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* The main thread works 50 ms, then waits on C with a timeout; thread 1
 * works 60 ms and signals C.  Recorded on one PU, thread 1 ran only while
 * the main thread waited, so the signal came at 110 ms, after the timeout:
 * the wait timed out there.  On 2 CPUs the signal comes at 60 ms, before
 * it would (the wait began at 50 and lasted 60 in the recording), and the
 * main thread works its last 10 ms from there: 70 ms, not 120. */
static void make_timed_wait(void)
{
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 50 * MS, PTB_EV_COND_WAIT, 1, C, 0, 0);
	ev(1, 50 * MS, PTB_EV_START, 0, 0, 0, 0);
	ev(1, 110 * MS, PTB_EV_COND_SIGNAL, 0, C, 1, 0);
	ev(1, 110 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 110 * MS, PTB_EV_COND_WAIT, 2, C, 0, PTB_OUT_TIMEOUT);
	ev(0, 120 * MS, PTB_EV_JOIN, 1, 0, 1, 0);
	ev(0, 120 * MS, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, 120 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}


/* A producer signals C 100 times, 0.1 ms apart, before its consumer waits
 * for each in turn after 1 ms of work: on 2 CPUs every signal is kept for
 * the wait that entered before it (none released by force): 100 ms. */
static void make_many_signals(void)
{
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	for (uint32_t k = 1; k <= 100; k++)
		ev(0, k * MS / 10, PTB_EV_COND_SIGNAL, 0, C, k, 0);
	ev(0, 10 * MS, PTB_EV_JOIN, 1, 0, 1, 0);
	ev(1, 10 * MS, PTB_EV_START, 0, 0, 0, 0);
	for (uint32_t k = 1; k <= 100; k++) {
		ev(1, (10 + k) * MS, PTB_EV_COND_WAIT, 1, C, k - 1, 0);
		ev(1, (10 + k) * MS, PTB_EV_COND_WAIT, 2, C, k, 0);
	}
	ev(1, 110 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 110 * MS, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, 110 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* Thread 1 writes 100 bytes to a pipe at 10, 20 and 30 ms of its work;
 * the main thread reads 150 (waiting from 0 to 30 ms in the recording,
 * on one PU), works 5 ms, reads 150, works 5 ms.  With `chan` the stream
 * is a channel: on 2 CPUs the first read has its bytes at 20 ms, the
 * second at 30 (35 ms); on 1 CPU 40 ms.  Without (thread 1 writes to
 * another pipe, which no one reads) the reads are delays of what they
 * waited: 30 + 5 + 5 ms on any count. */
static void make_pipe(int chan)
{
	enum { S = 0x500, OTHER = 0x501 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 0, PTB_EV_READ, 1, S, 0, PTB_FD_PIPE);
	ev(1, 0, PTB_EV_START, 0, 0, 0, 0);
	for (uint64_t k = 1; k <= 3; k++)
		ev(1, 10 * k * MS, PTB_EV_WRITE, 0, chan ? S : OTHER, 100, PTB_FD_PIPE);
	ev(1, 30 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 30 * MS, PTB_EV_READ, 2, S, 150, PTB_FD_PIPE);
	ev(0, 30 * MS, PTB_EV_CPU, 0, 0, 0, 0);
	ev(0, 35 * MS, PTB_EV_READ, 0, S, 150, PTB_FD_PIPE);
	ev(0, 40 * MS, PTB_EV_JOIN, 0, 0, 1, 0);
	ev(0, 40 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* Threads 1 and 2 each read 100 bytes of a pipe from the start (waiting
 * 10 ms in the recording) and then work 5 ms; thread 3 works 10 ms and
 * writes 200 bytes.  On 4 CPUs the one write lets both readers go on: one
 * release of 2 threads, 15 ms. */
static void make_pipe_readers(void)
{
	enum { S = 0x510 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	for (uint32_t t = 1; t <= 3; t++)
		ev(0, 0, PTB_EV_CREATE, 0, 0, t, 0);
	for (int t = 1; t <= 2; t++) {
		ev(t, 0, PTB_EV_START, 0, 0, 0, 0);
		ev(t, 0, PTB_EV_READ, 1, S, 0, PTB_FD_PIPE);
		ev(t, 10 * MS, PTB_EV_READ, 2, S, 100, PTB_FD_PIPE);
		ev(t, 10 * MS, PTB_EV_CPU, 0, 0, 0, 0);
		ev(t, 15 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	}
	ev(3, 0, PTB_EV_START, 0, 0, 0, 0);
	ev(3, 10 * MS, PTB_EV_WRITE, 0, S, 200, PTB_FD_PIPE);
	ev(3, 10 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	for (uint32_t t = 1; t <= 3; t++)
		ev(0, 0, PTB_EV_JOIN, 0, 0, t, 0);
	ev(0, 0, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* The writer of make_pipe; the main thread polls the stream (waiting 0 to
 * 30 ms in the recording), works 5 ms, reads 100 bytes, works 5 ms, reads
 * 200.  On 2 CPUs the poll ends with the first 100 bytes at 10 ms, the
 * first read finds them at 15, the second waits for the third write: 30
 * ms.  On 1 CPU, 40. */
static void make_poll(void)
{
	enum { S = 0x500 };
	ev(0, 0, PTB_EV_START, 0, 0, UINT32_MAX, 0);
	ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
	ev(0, 0, PTB_EV_POLL, 1, S, 0, PTB_FD_PAIR);
	ev(1, 0, PTB_EV_START, 0, 0, 0, 0);
	for (uint64_t k = 1; k <= 3; k++)
		ev(1, 10 * k * MS, PTB_EV_WRITE, 0, S, 100, PTB_FD_PAIR);
	ev(1, 30 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	ev(0, 30 * MS, PTB_EV_POLL, 2, S, 0, PTB_FD_PAIR);
	ev(0, 30 * MS, PTB_EV_CPU, 0, 0, 0, 0);
	ev(0, 35 * MS, PTB_EV_READ, 0, S, 100, PTB_FD_PAIR);
	ev(0, 40 * MS, PTB_EV_READ, 0, S, 200, PTB_FD_PAIR);
	ev(0, 40 * MS, PTB_EV_JOIN, 0, 0, 1, 0);
	ev(0, 40 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* Two threads, one after the other on one PU: each works 10 ms, reads a
 * file for 10 ms of which its CPU clock says 4 ms were its own (copying),
 * then works 5 ms.  The read is 4 ms of CPU and a delay of 6: on 1 CPU
 * 2 x 14 ms shared, 6 ms overlapped, 2 x 5 ms shared = 44 ms; on 2, 25. */
static void make_file_read(void)
{
	for (int t = 0; t < 2; t++) {
		uint64_t at = t ? 25 * MS : 0;
		ev(t, at, PTB_EV_START, 0, 0, t ? 0 : UINT32_MAX, 0);
		if (!t)
			ev(0, 0, PTB_EV_CREATE, 0, 0, 1, 0);
		ev(t, at, PTB_EV_CPU, 0, 0, 0, 0);
		ev(t, at + 10 * MS, PTB_EV_READ, 1, 0, 0, PTB_FD_FILE);
		ev(t, at + 20 * MS, PTB_EV_READ, 2, 0, 4096, PTB_FD_FILE);
		ev(t, at + 20 * MS, PTB_EV_CPU, 0, 14 * MS, 0, 0);
		if (!t)
			ev(0, 25 * MS, PTB_EV_CPU, 0, 19 * MS, 0, 0);
		if (!t)
			ev(0, 25 * MS, PTB_EV_JOIN, 1, 0, 1, 0);
		else
			ev(1, 50 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
	}
	ev(0, 50 * MS, PTB_EV_JOIN, 2, 0, 1, 0);
	ev(0, 50 * MS, PTB_EV_EXIT, 0, 0, 0, 0);
}

/* Any content in a valid frame: kinds, phases, objects, arguments and
 * times drawn at random (times ascending per thread). */
static void make_random(unsigned seed)
{
	srand(seed);
	int n = 1 + rand() % 6;
	for (int t = 0; t < n; t++) {
		uint64_t at = 0;
		int k = rand() % 400;
		for (int i = 0; i < k; i++) {
			at += (uint64_t)(rand() % 1000) * (rand() % 3 ? 1000 : 1000000);
			ev(t, at, 1 + rand() % (PTB_EV_KIND_COUNT - 1), rand() % 3,
			   (uint64_t)(rand() % 4), (uint32_t)(rand() % 7 ? rand() % 8 : rand()),
			   rand() % 4);
		}
		if (!k)
			ev(t, 0, PTB_EV_START, 0, 0, 0, 0);
	}
}

int main(void)
{
	snprintf(path, sizeof path, "/tmp/ptb-test-trace-%ld", (long)getpid());
	uint64_t forced;
	make_lock();
	tap_near(replay(1, NULL), 40.0, 0.01, "a lock on 1 CPU: 40 ms");
	make_lock();
	tap_near(replay(2, &forced), 30.0, 0.01, "a lock on 2 CPUs: the second waits 10 ms for it (30 ms)");
	tap_ok(forced == 0, "  nothing released by force (%llu)", (unsigned long long)forced);
	make_forced_join();
	tap_near(replay(2, &forced), 23.5, 0.01, "a join in a cycle the recording never met on 2 "
		 "CPUs: released, the mutex's three holders in turn (23.5 ms)");
	tap_ok(forced == 1, "  one wait released by force (%llu)", (unsigned long long)forced);
	make_mutex_semaphore();
	tap_near(replay(2, &forced), 100.0, 0.01, "a mutex unlocked by another thread, which its "
		 "owner's second lock waited for: serial on 2 CPUs (100 ms)");
	tap_ok(forced == 0, "  nothing released by force (%llu)", (unsigned long long)forced);
	make_mutex_recursive();
	tap_near(replay(2, NULL), 50.0, 0.01, "a recursive mutex taken twice at once: 50 ms on 2 CPUs");
	make_rwlock(1);
	tap_near(replay(3, NULL), 300.0, 0.01, "a read lock past a waiting writer, readers first: 300 ms");
	make_rwlock(0);
	tap_near(replay(3, NULL), 400.0, 0.01, "a writer first (or not said): the reader after, 400 ms");
	make_rw_group();
	tap_near(replay(3, NULL), 15.0, 0.01, "a writer's unlock lets two readers in: 15 ms on 3 CPUs");
	tap_ok(group_releases == 1 && group_woken == 2,
	       "  one release of two threads together (%llu, %llu)",
	       (unsigned long long)group_releases, (unsigned long long)group_woken);
	make_early_signal();
	tap_near(replay(1, NULL), 60.0, 0.01, "a signal and its wait on 1 CPU: 60 ms");
	make_early_signal();
	tap_near(replay(2, &forced), 30.0, 0.01, "on 2 CPUs the early signal is kept for the wait: 30 ms");
	tap_ok(forced == 0, "  nothing released by force (%llu)", (unsigned long long)forced);
	make_timed_wait();
	tap_near(replay(1, NULL), 120.0, 0.01, "a wait that timed out on 1 CPU: as recorded, 120 ms");
	make_timed_wait();
	tap_near(replay(2, &forced), 70.0, 0.01,
		 "on 2 CPUs the signal ends it before its timeout: 70 ms");
	tap_ok(forced == 0, "  nothing released by force (%llu)", (unsigned long long)forced);
	make_many_signals();
	tap_near(replay(2, &forced), 100.0, 0.01, "100 signals ahead of their waits on 2 CPUs: 100 ms");
	tap_ok(forced == 0, "  every signal kept for its wait (%llu released by force)",
	       (unsigned long long)forced);
	make_barrier_sleep();
	tap_near(replay(1, NULL), 125.0, 0.01, "a barrier and a sleep on 1 CPU: 60 + 15 + 50 ms");
	make_barrier_sleep();
	tap_near(replay(3, NULL), 85.0, 0.01, "on 3 CPUs: 30 + 5 + 50 ms (the sleep is kept)");
	tap_near(busy_ms, 75.0, 0.01, "  the CPUs busy 60 + 15 ms (%g ms)", busy_ms);
	tap_near(shared_ms, 0.0, 0.001, "  no CPU shared on 3 CPUs (%g ms)", shared_ms);
	make_barrier_sleep();
	tap_near(replay(2, NULL), 92.5, 0.01, "on 2 CPUs: 3 threads share them 15 ms, then 2 run");
	tap_near(shared_ms, 22.5, 0.01, "  shared 15 ms before the barrier and 7.5 after (%g ms)",
		 shared_ms);
	tap_near(excess_ms, 22.5, 0.01, "  one thread beyond the CPUs all that time (%g ms)",
		 excess_ms);
	make_barrier_sleep();
	replay(1, NULL);
	tap_near(excess_ms, 110.0, 0.01, "  on 1 CPU: 2 beyond it for 30 + 15 ms, 1 for 20 (%g ms)",
		 excess_ms);
	make_barrier_sleep();
	tap_near(replay(8, NULL), 85.0, 0.01, "on 8 CPUs the same");
	make_failed_create();
	tap_near(replay(2, NULL), 149.0, 0.01,
		 "a thread number a failed create used up: 149 ms on 2 CPUs, not 2^64 ns");

	/* the target machine's costs (predict --machine), each exactly where
	 * the path meets it */
	const struct ptb_sim_costs wake = { .wake_ns = 2 * MS },
				   all = { .wake_ns = 2 * MS, .handoff_ns = 3 * MS, .create_ns = 4 * MS };
	costs = &wake;
	make_barrier_sleep();
	tap_near(replay(3, NULL), 87.0, 0.01, "a wake-up of 2 ms after the barrier: 87 ms on 3 CPUs");
	costs = &all;
	make_barrier_sleep();
	tap_near(replay(3, NULL), 91.0, 0.01, "  and a creation of 4 ms before it: 91 ms");
	make_barrier_sleep();
	tap_near(replay(8, NULL), 91.0, 0.01, "  the same on 8 CPUs");
	/* the waker's cost of a wake-up onto an idle CPU: charged once (not
	 * again for the mutex the woken thread then waits for), never on one
	 * CPU */
	static struct ptb_sim_costs remote;
	remote.remote_wake_ns = 1 * MS;
	costs = NULL;
	make_wake_idle();
	tap_near(replay(2, NULL), 20.5, 0.01, "a wake-up onto an idle CPU, free: 20.5 ms on 2 CPUs");
	costs = &remote;
	make_wake_idle();
	tap_near(replay(2, NULL), 21.5, 0.01, "  costing the waker 1 ms: 21.5 ms, charged once");
	tap_ok(remote_wakes == 1, "  and counted once (%llu)", (unsigned long long)remote_wakes);
	make_wake_idle();
	tap_near(replay(1, NULL), 25.5, 0.01, "  on 1 CPU nothing is idle: 25.5 ms either way");
	tap_ok(remote_wakes == 0, "  and none is counted (%llu)", (unsigned long long)remote_wakes);
	/* the woken thread's latency on its idle CPU keeps that CPU busy: a
	 * second wake-up close behind is not charged as remote */
	static struct ptb_sim_costs latency;    /* the waker's 1 ms, and a latency below */
	latency.remote_wake_ns = 1 * MS;
	costs = &remote;                        /* the waker's 1 ms alone */
	make_two_wakes();
	tap_near(replay(2, NULL), 24.0, 0.01, "two wake-ups 3 ms apart, each onto an idle CPU: 24 ms");
	tap_ok(remote_wakes == 2, "  both charged (%llu)", (unsigned long long)remote_wakes);
	latency.remote_latency_ns = 5 * MS;
	costs = &latency;
	make_two_wakes();
	tap_near(replay(2, NULL), 23.0, 0.01,
		 "  the first woken thread 5 ms in waking: the second finds no idle CPU, 23 ms");
	tap_ok(remote_wakes == 1, "  one charged (%llu)", (unsigned long long)remote_wakes);
	make_two_wakes();
	tap_near(replay(3, NULL), 24.0, 0.01, "  on 3 CPUs a third is idle: both charged, 24 ms");
	tap_ok(remote_wakes == 2, "  two charged (%llu)", (unsigned long long)remote_wakes);
	/* the mutexes' own cases: tests/test_trace_lock.c */
	costs = &remote;
	make_join_late();
	tap_near(replay(2, NULL), 10.0, 0.01, "  a join ended by an exit: not charged, 10 ms");
	tap_ok(remote_wakes == 0, "  and not counted (%llu)", (unsigned long long)remote_wakes);
	/* a barrier's last arrival wakes two threads on 2 CPUs: the first
	 * takes the idle CPU, the second finds none -- also while the first
	 * is still waking up (a --machine wake-up of 2 ms) */
	make_barrier_sleep();
	replay(2, NULL);
	tap_ok(remote_wakes == 1, "  a barrier of 3 on 2 CPUs: one wake-up charged (%llu)",
	       (unsigned long long)remote_wakes);
	static struct ptb_sim_costs remote_slow_wake;
	remote_slow_wake.remote_wake_ns = 1 * MS, remote_slow_wake.wake_ns = 2 * MS;
	costs = &remote_slow_wake;
	make_barrier_sleep();
	replay(2, NULL);
	tap_ok(remote_wakes == 1, "  the same with wake-ups of 2 ms (%llu)",
	       (unsigned long long)remote_wakes);
	costs = NULL;
	make_wake_idle();
	tap_near(replay(1, NULL), 25.5, 0.01, "  (free: 25.5 ms)");
	/* the co-running slowdown: work stretched by 1.5 while two threads run
	 * at once, by 2 while three do, recomputed as the count changes */
	struct ptb_sim_costs corun = { .nslow = 3, .slowdown = { 1.0, 1.5, 2.0 } };
	costs = &corun;
	make_barrier_sleep();
	tap_near(replay(1, NULL), 125.0, 0.01, "a co-running slowdown leaves 1 CPU alone: 125 ms");
	make_barrier_sleep();
	tap_near(replay(3, NULL), 105.0, 0.01,
		 "on 3 CPUs: 10 x 2 + 10 x 1.5 + 10, 5 x 2, the sleep: 105 ms");
	make_barrier_sleep();
	tap_near(replay(8, NULL), 105.0, 0.01, "  the same on 8 CPUs (3 threads at most)");
	make_barrier_sleep();
	tap_near(replay(2, NULL), 108.75, 0.01,
		 "on 2 CPUs: 2 of 3 running (x1.5) while they share, then 10 alone: 108.75 ms");
	corun.nslow = 2;
	make_barrier_sleep();
	tap_near(replay(3, NULL), 97.5, 0.01, "  past the last count measured, its factor: 97.5 ms on 3");
	/* the time slices' cost: work stretched by 1 + 0.1 per thread able to
	 * run beyond the CPUs, on top of their sharing */
	static struct ptb_sim_costs sliced;
	sliced.slice_cost = 0.1;
	costs = &sliced;
	make_barrier_sleep();
	tap_near(replay(1, NULL), 136.0, 0.01,
		 "time slices on 1 CPU: 30 x 1.2 + 20 x 1.1 + 10, 15 x 1.2, the sleep: 136 ms");
	tap_near(busy_ms, 86.0, 0.01, "  the CPU busy all but the sleep: 86 ms (%g)", busy_ms);
	make_barrier_sleep();
	tap_near(replay(2, NULL), 94.75, 0.01,
		 "  on 2 CPUs: 15 x 1.1 + 10 + 10, 7.5 x 1.1, the sleep: 94.75 ms");
	make_barrier_sleep();
	tap_near(replay(3, NULL), 85.0, 0.01, "  on 3 CPUs none: 85 ms");
	costs = NULL;

	/* blocking I/O: a channel between threads, a delay otherwise */
	make_pipe(1);
	tap_near(replay(1, &forced), 40.0, 0.01, "a pipe between two threads on 1 CPU: 40 ms");
	make_pipe(1);
	tap_near(replay(2, &forced), 35.0, 0.01,
		 "on 2 CPUs each read waits for its bytes: 150 at 20 ms, 300 at 30 (35 ms)");
	tap_ok(forced == 0, "  nothing released by force (%llu)", (unsigned long long)forced);
	make_pipe(0);
	tap_near(replay(2, NULL), 40.0, 0.01, "a pipe no thread writes: the reads wait as recorded (40 ms)");
	make_pipe(0);
	tap_near(replay(8, NULL), 40.0, 0.01, "  the same on 8 CPUs");
	make_pipe_readers();
	tap_near(replay(4, NULL), 15.0, 0.01, "one write for two readers of a pipe: 15 ms on 4 CPUs");
	tap_ok(group_releases == 1 && group_woken == 2,
	       "  one release of two threads together (%llu, %llu)",
	       (unsigned long long)group_releases, (unsigned long long)group_woken);
	make_poll();
	tap_near(replay(1, NULL), 40.0, 0.01, "a poll, then reads, on a socket pair: 40 ms on 1 CPU");
	make_poll();
	tap_near(replay(2, &forced), 30.0, 0.01, "  on 2 CPUs the poll ends with the first write: 30 ms");
	tap_ok(forced == 0, "  nothing released by force (%llu)", (unsigned long long)forced);
	make_file_read();
	tap_near(replay(1, NULL), 44.0, 0.01,
		 "a file read of 10 ms, 4 of them CPU: two threads on 1 CPU take 44 ms");
	make_file_read();
	tap_near(replay(2, NULL), 25.0, 0.01, "  and 25 ms on 2 CPUs");

	time_t start = time(NULL);
	int refused = 0, ended = 0;
	for (unsigned s = 1; s <= 300; s++) {
		make_random(s);
		double w = replay(1 + (int)(s % 5), NULL);
		refused += w == -1, ended += w >= 0;
	}
	tap_ok(ended + refused == 300 && time(NULL) - start < 60,
	       "300 random traces: each refused (%d) or replayed to an end (%d), in %ld s",
	       refused, ended, (long)(time(NULL) - start));
	unlink(path);
	tap_done();
	return tap_exit();
}
