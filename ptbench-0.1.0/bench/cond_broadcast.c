/* SPDX-License-Identifier: MIT */
/*
 * cond.broadcast: the main thread broadcasts a condition to W waiting
 * threads; the figure is the time until the last waiter is awake and has
 * acknowledged, per broadcast.
 *
 * The waiters (clients) hold the mutex whenever they are not asleep in
 * pthread_cond_wait: a waiter wakes with the mutex, counts its
 * acknowledgement, signals the main thread when it is the W-th, and goes
 * straight back to waiting without unlocking.  So when the main thread
 * (which waits for the acknowledgements on a second condition) holds the
 * mutex again, every waiter is asleep on the condition and the next
 * broadcast reaches all W.  At the start of a timing the main thread first
 * waits until all W have come to the condition (the harness has woken
 * them; they are on their way), once per timing, which thousands of
 * broadcasts per timing dilute.
 *
 * layout=one_per_pu: the main thread and each waiter on a PU of its own
 * (compact order); na when the process has fewer than W + 1 PUs.
 * layout=same_pu: all on one PU, where each wakeup is a context switch.
 * waiters=0 is the broadcast nobody waits for, the call's own cost (an
 * idle thread keeps the process multi-threaded); its layout does not
 * matter, so it is measured under one_per_pu and na under same_pu.
 * check() makes the point an error unless every broadcast woke all W
 * (note `woken_per_broadcast`).
 */
#include <pthread.h>
#include <string.h>

#include "bench/common.h"

struct bcast {
	pthread_mutex_t m;
	pthread_cond_t wake, acked_all;
	int waiters;
	int ready;              /* waiters come to the condition this timing */
	int acks;               /* acknowledgements of the current broadcast */
	uint64_t generation;    /* broadcasts so far */
	uint64_t woken;         /* acknowledgements, over all timings */
	uint64_t sent;          /* broadcasts to W waiters, over all timings */
};

static struct bcast st;

static void unlock_mutex(void *m)
{
	pthread_mutex_unlock(m);
}

static void waiter_body(void *arg, uint64_t n)
{
	struct bcast *b = arg;
	pthread_mutex_lock(&b->m);
	pthread_cleanup_push(unlock_mutex, &b->m);
	uint64_t seen = b->generation;
	if (++b->ready == b->waiters)
		pthread_cond_signal(&b->acked_all);
	for (uint64_t i = 0; i < n; i++) {
		while (b->generation == seen)
			pthread_cond_wait(&b->wake, &b->m);
		seen = b->generation;
		b->woken++;
		if (++b->acks == b->waiters)
			pthread_cond_signal(&b->acked_all);
	}
	pthread_cleanup_pop(1);
}

static const struct ptb_client_ops waiter_ops = { .body = waiter_body };

static void bcast_run(struct ptb_point *p, uint64_t n)
{
	struct bcast *b = p->state;
	if (b->waiters == 0) {
		for (uint64_t i = 0; i < n; i++)
			pthread_cond_broadcast(&b->wake);
		return;
	}
	pthread_mutex_lock(&b->m);
	while (b->ready < b->waiters)
		pthread_cond_wait(&b->acked_all, &b->m);
	for (uint64_t i = 0; i < n; i++) {
		b->acks = 0;
		b->generation++;
		pthread_cond_broadcast(&b->wake);
		while (b->acks < b->waiters)
			pthread_cond_wait(&b->acked_all, &b->m);
	}
	b->ready = 0;
	b->sent += n;
	pthread_mutex_unlock(&b->m);
}

static void bcast_check(struct ptb_point *p, uint64_t n)
{
	struct bcast *b = p->state;
	(void)n;
	if (b->waiters == 0 || b->sent == 0)
		return;
	ptb_point_note(p, "woken_per_broadcast", (double)b->woken / (double)b->sent);
	if (b->woken != b->sent * (uint64_t)b->waiters)
		ptb_point_error(p, "%llu broadcasts to %d waiters woke %llu", (unsigned long long)b->sent,
				b->waiters, (unsigned long long)b->woken);
}

static void bcast_free(void)
{
	pthread_mutex_destroy(&st.m);
	pthread_cond_destroy(&st.wake);
	pthread_cond_destroy(&st.acked_all);
}

/* Where the W + 1 threads go: pus[0] the main thread, pus[i] waiter i. */
static int bcast_place(struct ptb_point *p, int w, int *pus)
{
	if (strcmp(ptb_point_str(p, "layout"), "same_pu") != 0)
		return ptb_bench_place_group(p, "compact", w + 1, pus);
	if (w == 0) {
		ptb_point_na(p, "waiters=0 has no waiter to place: it is measured under "
			     "layout=one_per_pu");
		return -1;
	}
	if (ptb_bench_pin_same_pu(p) < 0)
		return -1;
	for (int i = 0; i <= w; i++)
		pus[i] = p->pu_main;
	return 0;
}

static int bcast_setup(struct ptb_point *p)
{
	static int pus[PTB_MAX_CLIENTS + 1];
	int w = (int)ptb_point_long(p, "waiters");

	if (bcast_place(p, w, pus) < 0)
		return -1;
	memset(&st, 0, sizeof st);
	pthread_mutex_init(&st.m, NULL);
	pthread_cond_init(&st.wake, NULL);
	pthread_cond_init(&st.acked_all, NULL);
	st.waiters = w;
	p->state = &st;
	if (w == 0 && ptb_bench_idle_helper(p) < 0) {
		bcast_free();
		return -1;
	}
	for (int i = 1; i <= w; i++)
		if (ptb_client_start_on(p, pus[i], &waiter_ops, &st) < 0) {
			bcast_free();   /* the harness cancels the clients started */
			return -1;
		}
	return 0;
}

static void bcast_teardown(struct ptb_point *p)
{
	ptb_bench_idle_stop();
	bcast_free();
	ptb_bench_unpin(p);
}

static const struct ptb_param bcast_params[] = {
	{ "waiters", NULL, "0,1,2,4,8,16,32,64,128,255", 0, PTB_MAX_CLIENTS - 1,
	  "threads waiting on the condition (one_per_pu: na beyond the allowed PUs - 1)" },
	{ "layout", "one_per_pu,same_pu", "one_per_pu,same_pu", 0, 0,
	  "one_per_pu: every thread on a PU of its own; same_pu: all on one PU" },
	{ 0 }
};

static const struct ptb_row_rule bcast_rows[] = {
	/* match                           group                         label         footnote */
	{ "waiters=0",                    "Condition Broadcast",        "No waiter",  NULL },
	{ "waiters=* layout=one_per_pu",  "Condition Broadcast",        "%s waiters", NULL },
	{ "waiters=* layout=same_pu",     "Condition Broadcast, one PU", "%s waiters", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_cond_broadcast = {
	.name = "cond.broadcast",
	.summary = "broadcast to W waiters until the last has woken and acknowledged",
	.per = "broadcast",
	.ops_per_iter = 1,
	.params = bcast_params,
	.setup = bcast_setup,
	.run = bcast_run,
	.check = bcast_check,
	.teardown = bcast_teardown,
	.target_s = 0.01,
	/* no waiter: a call, from 0.1 ns; 255 waiters on one PU: 255 switches
	 * on a loaded machine, under a second */
	.plausible_ns = { 0.1, 1e9 },
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = bcast_rows,
};
