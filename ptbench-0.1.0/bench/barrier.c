/* SPDX-License-Identifier: MIT */
/*
 * barrier: N threads, one per PU, meet at a barrier n times; the figure
 * is the time per barrier episode (from the moment the last of the
 * previous episode left to the moment the last of this one left, on
 * average).  The threads are placed compact (a core's PUs, then its
 * package's, first) or spread (one PU per core, alternating packages,
 * first), the main thread on the first PU of the order, a client on each
 * of the next N - 1.  impl=posix is pthread_barrier_wait; impl=synth the
 * barrier built from a mutex and a condition variable that the paper's
 * section 5 proposes (a count and a generation: the last arrival starts a
 * new generation and broadcasts).
 *
 * Every thread counts, in its own cache line, how often its wait returned
 * PTHREAD_BARRIER_SERIAL_THREAD, which happens to exactly one thread per
 * episode.  With every thread waiting n times, n serial returns mean that
 * every episode held all N arrivals; check() makes the point an error
 * otherwise and notes `arrivals_per_episode`.
 */
#include <pthread.h>
#include <string.h>

#include "bench/common.h"

struct synth_barrier {
	pthread_mutex_t m;
	pthread_cond_t c;
	unsigned count, need;
	uint64_t generation;
};

static int synth_wait(struct synth_barrier *b)
{
	pthread_mutex_lock(&b->m);
	uint64_t gen = b->generation;
	if (++b->count == b->need) {
		b->count = 0;
		b->generation++;
		pthread_cond_broadcast(&b->c);
		pthread_mutex_unlock(&b->m);
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	while (gen == b->generation)
		pthread_cond_wait(&b->c, &b->m);
	pthread_mutex_unlock(&b->m);
	return 0;
}

struct slot {
	_Alignas(64) uint64_t serial;    /* serial returns, this thread's alone */
	struct barrier_state *st;
};

struct barrier_state {
	bool synth;
	int threads;
	pthread_barrier_t posix;
	struct synth_barrier s;
	uint64_t waits;                   /* per thread, over the timings */
	struct slot slot[PTB_MAX_CLIENTS + 1];
};

static struct barrier_state st;

static void episodes(struct slot *sl, uint64_t n)
{
	struct barrier_state *s = sl->st;
	uint64_t serial = 0;
	if (s->synth)
		for (uint64_t i = 0; i < n; i++)
			serial += synth_wait(&s->s) == PTHREAD_BARRIER_SERIAL_THREAD;
	else
		for (uint64_t i = 0; i < n; i++)
			serial += pthread_barrier_wait(&s->posix) == PTHREAD_BARRIER_SERIAL_THREAD;
	sl->serial += serial;
}

static void client_body(void *arg, uint64_t n)
{
	episodes(arg, n);
}

static const struct ptb_client_ops client_ops = { .body = client_body };

static void barrier_free(void)
{
	if (st.synth) {
		pthread_mutex_destroy(&st.s.m);
		pthread_cond_destroy(&st.s.c);
	} else {
		pthread_barrier_destroy(&st.posix);
	}
}

static int barrier_setup(struct ptb_point *p)
{
	static int pus[PTB_MAX_CLIENTS + 1];
	int n = (int)ptb_point_long(p, "threads"), rc;

	if (ptb_bench_place_group(p, ptb_point_str(p, "order"), n, pus) < 0)
		return -1;
	memset(&st, 0, sizeof st);
	st.synth = strcmp(ptb_point_str(p, "impl"), "synth") == 0;
	st.threads = n;
	if (st.synth) {
		pthread_mutex_init(&st.s.m, NULL);
		pthread_cond_init(&st.s.c, NULL);
		st.s.need = (unsigned)n;
	} else if ((rc = pthread_barrier_init(&st.posix, NULL, (unsigned)n)) != 0) {
		ptb_point_na(p, "pthread_barrier_init: %s", strerror(rc));
		return -1;
	}
	for (int i = 0; i < n; i++)
		st.slot[i].st = &st;
	p->state = &st;
	for (int i = 1; i < n; i++)
		if (ptb_client_start_on(p, pus[i], &client_ops, &st.slot[i]) < 0) {
			/* the harness cancels the clients, which wait outside the barrier */
			barrier_free();
			return -1;
		}
	return 0;
}

static void barrier_run(struct ptb_point *p, uint64_t n)
{
	episodes(&((struct barrier_state *)p->state)->slot[0], n);
}

/* Untimed, after every client has acknowledged its part of the timing. */
static void barrier_check(struct ptb_point *p, uint64_t n)
{
	struct barrier_state *s = p->state;
	uint64_t serial = 0;
	s->waits += n;
	for (int i = 0; i < s->threads; i++)
		serial += s->slot[i].serial;
	double per = serial ? (double)(s->waits * (uint64_t)s->threads) / (double)serial : 0;
	ptb_point_note(p, "arrivals_per_episode", per);
	if (serial != s->waits)
		ptb_point_error(p, "%llu episodes of %d threads gave %llu serial returns: an "
				"episode did not hold every arrival", (unsigned long long)s->waits,
				s->threads, (unsigned long long)serial);
}

static void barrier_teardown(struct ptb_point *p)
{
	barrier_free();
	ptb_bench_unpin(p);
}

static const struct ptb_param barrier_params[] = {
	{ "threads", NULL, "2,4,8,16,32,64,128,256", 2, PTB_MAX_CLIENTS + 1,
	  "threads at the barrier, one per PU (na beyond the allowed PUs)" },
	{ "order", PTB_ORDERS, PTB_ORDERS, 0, 0,
	  "compact: fill a core's, then a package's PUs first; spread: one PU per core first" },
	{ "impl", "posix,synth", "posix,synth", 0, 0,
	  "posix: pthread_barrier_wait; synth: built from a mutex and a condition variable" },
	{ 0 }
};

static const struct ptb_row_rule barrier_rows[] = {
	/* match                                  group                             label          footnote */
	{ "threads=* order=compact impl=posix", "Barrier, compact",              "%s threads", NULL },
	{ "threads=* order=spread impl=posix",  "Barrier, spread",               "%s threads", NULL },
	{ "threads=* order=compact impl=synth", "Barrier, compact, synthesized", "%s threads",
	  "a barrier built from a mutex and a condition variable, as the paper's section 5 proposes" },
	{ "threads=* order=spread impl=synth",  "Barrier, spread, synthesized",  "%s threads",
	  "a barrier built from a mutex and a condition variable, as the paper's section 5 proposes" },
	{ NULL }
};

const struct ptb_bench ptb_bench_barrier = {
	.name = "barrier",
	.summary = "N threads, one per PU, meet at a barrier: time per episode",
	.per = "episode",
	.ops_per_iter = 1,
	.params = barrier_params,
	.setup = barrier_setup,
	.run = barrier_run,
	.check = barrier_check,
	.teardown = barrier_teardown,
	.target_s = 0.01,
	.plausible_ns = { 20, 1e8 },   /* a handover .. many slices on a loaded machine */
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = barrier_rows,
};
