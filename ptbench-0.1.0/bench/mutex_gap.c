/* SPDX-License-Identifier: MIT */
/*
 * mutex.gap: the LogP gap g of mutex communication -- the steady-state
 * interval between messages of a long burst, measured as Culler et al.
 * (the paper's reference [3]) measure it for a network: send messages back
 * to back and take the time per message once the pipeline is full.  Not a
 * row of the paper's Table 1; harness/logp.c uses it.
 *
 * A message is one mutex handed from the main thread to the client: main
 * unlocks a mutex it holds, the client locks it.  The mutexes form a ring
 * of PTB_GAP_RING, used in order; the client releases each one as soon as
 * it has taken it, and main takes a mutex back (locks it) before it sends
 * the message ahead of it, so the client can never grab a mutex main has
 * not sent yet.  Main may run at most the ring ahead of the client (its
 * flow control, the network capacity of LogP): it reads the client's
 * `delivered` counter only when it has used up what it last saw.  At rest
 * main holds exactly the mutex of the next message.
 *
 * One iteration is one message, and the timing ends when the client has
 * taken the last one, so it covers the burst's bottleneck plus one latency
 * and one wakeup of the client (asleep in the lock when a timing starts);
 * 10 ms timings amortise those.  A burst is only a pipeline when sender and
 * receiver run at the same time, so only two-PU placements are offered.
 */
#include <stdalign.h>
#include <stdlib.h>

#include "bench/common.h"

#define PTB_GAP_RING 65536      /* a power of two; 2.5 MiB of mutexes */
#define RING_AT(i) ((i) & (PTB_GAP_RING - 1))

struct gap {
	pthread_mutex_t *m;
	uint64_t sent, seen;                /* main: messages sent, `delivered` last read */
	uint64_t taken;                     /* client: messages taken */
	alignas(64) _Atomic uint64_t delivered;
};

static struct gap gp;

static void receiver(void *arg, uint64_t n)
{
	struct gap *st = arg;
	uint64_t end = st->taken + n;

	for (uint64_t i = st->taken; i < end; i++) {
		pthread_mutex_lock(&st->m[RING_AT(i)]);
		atomic_store_explicit(&st->delivered, i + 1, memory_order_release);
		pthread_mutex_unlock(&st->m[RING_AT(i)]);
	}
	st->taken = end;
}

static const struct ptb_client_ops receiver_ops = { .body = receiver };

static int gap_setup(struct ptb_point *p)
{
	gp = (struct gap){ .m = malloc(PTB_GAP_RING * sizeof *gp.m) };
	p->state = &gp;
	if (!gp.m) {
		ptb_point_error(p, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < PTB_GAP_RING; i++)
		pthread_mutex_init(&gp.m[i], NULL);
	pthread_mutex_lock(&gp.m[0]);
	return ptb_client_start(p, &receiver_ops, &gp);
}

static void gap_run(struct ptb_point *p, uint64_t n)
{
	struct gap *st = p->state;
	uint64_t end = st->sent + n;

	for (uint64_t i = st->sent; i < end; i++) {
		/* the next mutex last carried message i + 1 - ring */
		uint64_t need = i + 2 > PTB_GAP_RING ? i + 2 - PTB_GAP_RING : 0;
		if (st->seen < need) {
			ptb_bench_await(&st->delivered, need);
			st->seen = atomic_load_explicit(&st->delivered, memory_order_acquire);
		}
		pthread_mutex_lock(&st->m[RING_AT(i + 1)]);
		pthread_mutex_unlock(&st->m[RING_AT(i)]);
	}
	st->sent = end;
	ptb_bench_await(&st->delivered, end);
}

static void gap_teardown(struct ptb_point *p)
{
	struct gap *st = p->state;
	pthread_mutex_unlock(&st->m[RING_AT(st->sent)]);
	for (size_t i = 0; i < PTB_GAP_RING; i++)
		pthread_mutex_destroy(&st->m[i]);
	free(st->m);
}

static const struct ptb_param gap_params[] = {
	{ "placement", PTB_PLACEMENTS_TWO_PU, PTB_PLACEMENTS_TWO_PU, 0, 0,
	  "where the sending main thread and the receiving client run (two PUs)" },
	{ 0 }
};

static const struct ptb_row_rule gap_rows[] = {
	/* match          group        label footnote */
	{ "placement=*", "Mutex gap", "%s", "not in the paper: a long burst of messages, the steady-state time per message (Culler et al.), the LogP gap g" },
	{ NULL }
};

const struct ptb_bench ptb_bench_mutex_gap = {
	.name = "mutex.gap",
	.summary = "a burst of mutex handovers to another thread (LogP g)",
	.per = "message",
	.ops_per_iter = 1,
	.params = gap_params,
	.setup = gap_setup,
	.run = gap_run,
	.teardown = gap_teardown,
	.target_s = 0.01,
	.section = PTB_SECTION_EXTRA,
	.rows = gap_rows,
	.logp = { "mutex", PTB_LOGP_G, true, NULL },
	.plausible_ns = { 0.5, 1e8 },   /* a message may wait a slice when both PUs are busy */
};
