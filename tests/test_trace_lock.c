/* SPDX-License-Identifier: MIT */
/*
 * The replay's mutexes under the target machine's costs, on traces made
 * here with answers worked by hand: a released mutex wakes its first
 * waiter, who tries it again once it runs (after a hand-off cost, or the
 * latency of a wake-up onto an idle CPU), and its releaser may take it
 * first, the lock call counting as one wait (which keeps its age when
 * nothing can run); a spin lock's waiter after the spin lock's own
 * hand-off; the waker's cost of such a wake-up, and where it is not
 * charged.
 */
#include "config.h"

#include <stdio.h>
#include <unistd.h>

#include "tap.h"

#include "trace-made.h"
#include "trace-replay.h"

/* The last replay's limit of the object at addr, NULL when not one. */
static const struct ptb_sim_limit *limit_of(uint64_t addr)
{
	for (int i = 0; i < nlimits; i++)
		if (limits[i].obj == addr)
			return &limits[i];
	return NULL;
}

int main(void)
{
	snprintf(path, sizeof path, "/tmp/ptb-test-trace-lock-%ld", (long)getpid());
	static struct ptb_sim_costs handoff, spin, remote, latency, slow_wake;
	handoff.handoff_ns = 3 * MS;
	spin = handoff, spin.spin_handoff_ns = MS / 2;
	remote.remote_wake_ns = 1 * MS;
	latency = remote, latency.remote_latency_ns = 5 * MS;
	slow_wake = remote, slow_wake.wake_ns = MS / 5;

	costs = &handoff;
	make_lock();
	tap_near(replay(2, NULL), 33.0, 0.01, "a hand-off of 3 ms: the lock on 2 CPUs takes 33 ms");
	costs = &latency;
	make_lock();
	tap_near(replay(2, NULL), 35.0, 0.01, "a mutex's waiter runs 5 ms after the unlock: 35 ms");
	costs = &remote;
	make_lock();
	replay(2, NULL);
	tap_ok(remote_wakes == 1, "  a mutex's sleeper woken while a CPU idles: charged (%llu)",
	       (unsigned long long)remote_wakes);
	make_lock_of(PTB_EV_SPIN_LOCK, PTB_EV_SPIN_UNLOCK);
	replay(2, NULL);
	tap_ok(remote_wakes == 0, "  a spin lock's waiter is on its CPU: not charged (%llu)",
	       (unsigned long long)remote_wakes);

	/* a spin lock's waiter spins on its CPU: its line comes over, no
	 * wake-up, so the mutex's hand-off is not what it pays */
	costs = &handoff;
	make_lock_of(PTB_EV_SPIN_LOCK, PTB_EV_SPIN_UNLOCK);
	tap_near(replay(2, NULL), 30.0, 0.01,
		 "a spin lock, the machine giving a mutex's hand-off only: 30 ms, none charged");
	costs = &spin;
	make_lock_of(PTB_EV_SPIN_LOCK, PTB_EV_SPIN_UNLOCK);
	tap_near(replay(2, NULL), 30.5, 0.01, "  its own hand-off of 0.5 ms: 30.5 ms");
	make_lock();
	tap_near(replay(2, NULL), 33.0, 0.01, "  while a mutex still pays the mutex's 3 ms: 33 ms");
	costs = &remote;

	/* the releaser takes the lock again while the waiter wakes */
	make_barge(2);
	tap_near(replay(2, NULL), 6.5, 0.01, "a mutex's waiter running at its release takes it: 6.5 ms");
	tap_ok(remote_wakes == 2, "  both unlocks that woke a sleeper charged (%llu)",
	       (unsigned long long)remote_wakes);
	costs = &latency;
	make_barge(2);
	tap_near(replay(2, NULL), 9.0, 0.01, "  while it wakes for 5 ms, the releaser takes it again: 9 ms");
	tap_ok(remote_wakes == 1, "  one wake-up charged (%llu)", (unsigned long long)remote_wakes);
	make_barge(3);
	tap_near(replay(2, NULL), 15.0, 0.01,
		 "  held again when it tries it: it sleeps, and the next unlock wakes it: 15 ms");
	tap_ok(remote_wakes == 2, "  that wake-up charged too, the woken thread having run (%llu)",
	       (unsigned long long)remote_wakes);
	const struct ptb_sim_limit *b = limit_of(0x830);
	tap_ok(b && b->waits == 1 && b->wait_ns == 7.0 * MS,
	       "  one lock call, one wait: from its try at 1 ms to the unlock at 8 (%llu, %.3f ms)",
	       b ? (unsigned long long)b->waits : 0ull, b ? b->wait_ns / 1e6 : -1.0);

	/* a waiter that found the lock taken again keeps its age: force()
	 * releases the wait that began first */
	uint64_t forced = 0;
	make_requeue_force();
	tap_near(replay(3, &forced), 15.5, 0.01,
		 "a deadlock the recording never met: the oldest wait, a retried one, released first: 15.5 ms");
	tap_ok(forced == 2, "  two waits released by force (%llu)", (unsigned long long)forced);

	/* a thread released from a condition blocks on the mutex its waker
	 * holds: woken at once, it is still waking and its unlock is not
	 * charged (21.5 ms, tests/test_trace.c); woken later, it ran first */
	costs = &slow_wake;
	make_wake_idle();
	tap_near(replay(2, NULL), 22.5, 0.01,
		 "woken 0.2 ms later (--machine), it ran before it blocked: the unlock charged, 22.5 ms");
	tap_ok(remote_wakes == 2, "  two charged (%llu)", (unsigned long long)remote_wakes);

	/* an unlock the mutex's kind refuses, by a thread that never held it,
	 * while the first waiter wakes: ignored, as it is while one holds it */
	costs = &latency;
	make_stray_unlock();
	tap_near(replay(4, NULL), 22.5, 0.01,
		 "a stray unlock while the first waiter wakes: ignored, 22.5 ms on 4 CPUs");
	tap_ok(remote_wakes == 2, "  two charged, by the two real unlocks (%llu)",
	       (unsigned long long)remote_wakes);
	unlink(path);
	tap_done();
	return tap_exit();
}
