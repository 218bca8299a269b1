/* SPDX-License-Identifier: MIT */
/*
 * What the header says recording costs: the probe's own cost per event,
 * measured at the start, which predict takes off the bursts, and the
 * remote wake-up that ptbench record measured before it.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "trace/format.h"
#include "trace/interpose.h"

/* The cost of one event, measured once: predict subtracts it from every
 * CPU burst.  It is what the wrappers add to a call: a lock and an unlock
 * of a mutex of the recorder's own through them (the gate, the event, the
 * hand-off, the CPU clock where the policy reads it at every event, and
 * the checksum a flush takes of each event) less the same through the
 * real functions, over the events written; the best of a few rounds.  A
 * loop of bare events (41 ns here) left over half out: 2 million
 * uncontended lock and unlock pairs, 0.01 s unrecorded, were predicted to
 * take 0.17 s on one CPU (0.04-0.06 s now, with settle_thread in
 * trace/ops.c carrying what a short burst cannot pay). */
uint32_t ptb_tr_probe_cost(void)
{
	enum { N = 2000, ROUNDS = 5 };
	int (*lock)(pthread_mutex_t *) = (int (*)(pthread_mutex_t *))ptb_tr_real("pthread_mutex_lock");
	int (*unlock)(pthread_mutex_t *) = (int (*)(pthread_mutex_t *))ptb_tr_real("pthread_mutex_unlock");
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	uint64_t bare = UINT64_MAX, wrapped = UINT64_MAX, events = 1;
	static volatile uint64_t sink;
	for (int r = 0; r < ROUNDS; r++) {
		uint64_t a = ptb_tr_now();
		for (int i = 0; i < N; i++)
			lock(&m), unlock(&m);
		uint64_t c = ptb_tr_now();
		for (int i = 0; i < N; i++)
			pthread_mutex_lock(&m), pthread_mutex_unlock(&m);
		uint32_t n;                            /* a CPU reading is an event too */
		const struct ptb_tev *ev = ptb_tr_own_events(&n);
		sink += ptb_trace_sum(ev, n * sizeof *ev);   /* as a flush sums them */
		uint64_t d = ptb_tr_now();
		ptb_tr_own_drop();
		if (c - a < bare)
			bare = c - a;
		if (d - c < wrapped)
			wrapped = d - c, events = n ? n : 1;
	}
	return (uint32_t)(wrapped > bare ? (wrapped - bare) / events : 0);
}


/* What `ptbench record` measured on the machine before the start
 * (PTB_TRACE_REMOTE_WAKE_NS: "COST,LATENCY", ns), as the header keeps
 * each: 1 + ns, 0 when it could not.  which: 0 the cost, 1 the latency. */
static uint32_t remote_wake_figure(int which)
{
	const char *v = getenv("PTB_TRACE_REMOTE_WAKE_NS");
	unsigned long ns[2] = { 0, 0 };
	int n = 0;
	while (v && n < 2 && *v >= '0' && *v <= '9') {      /* digits only: no sign, no space */
		char *end;
		ns[n++] = strtoul(v, &end, 10);
		v = *end == ',' && n < 2 ? end + 1 : end;
		if (end[0] == ',' && !end[1])
			return 0;                                   /* "5000," */
	}
	if (!n || (v && *v) || ns[0] >= 1000000000ul || ns[1] >= 1000000000ul)
		return 0;
	return which ? (n == 2 ? (uint32_t)ns[1] + 1 : 0) : (uint32_t)ns[0] + 1;
}

uint32_t ptb_tr_remote_wake_cost(void) { return remote_wake_figure(0); }
uint32_t ptb_tr_remote_latency(void) { return remote_wake_figure(1); }

