/* SPDX-License-Identifier: MIT */
/*
 * uthread.switch and uthread.create: the seed's cooperative user-level
 * threads, on the C library's contexts (getcontext, makecontext,
 * swapcontext), beside the kernel's thread switch that `yield` measures.
 *
 * uthread.switch: the main context and one user-level thread switch to
 * each other in turn; one iteration is a switch there and a switch back,
 * so the figure is time / (2 x iterations), one swapcontext.  The
 * alternation is checked, not assumed: before each switch the switching
 * side sets `turn` to the other, and the side that resumes finds its own
 * turn there or counts the switch as out of turn; after every timing the
 * switches each way must equal the iterations (notes `to_thread`,
 * `to_main`), else the point is in error.
 *
 * uthread.create: one iteration makes a context afresh on a stack set
 * aside in setup (getcontext and makecontext, so no allocation is timed),
 * switches into it, and the new thread switches straight back; the figure
 * is that whole life of a user-level thread that does nothing (note
 * `created` counts them against the iterations).
 *
 * Both are na where the C library has no ucontext (platform/uctx-none.c).
 * One kernel thread does all the switching, so there is no placement.
 */
#include <stdio.h>

#include "bench/common.h"

#define STACK_BYTES (64 * 1024)

enum side { MAIN_SIDE, THREAD_SIDE };

struct uthreads {
	struct ptb_uctx *main, *thread;
	volatile int turn;                 /* who should run next */
	uint64_t to_thread, to_main, out_of_turn, created, iterations;
	bool failed;                       /* a switch returned an error */
};

static struct uthreads ut;

static void switch_to(struct ptb_uctx *from, struct ptb_uctx *to)
{
	if (ptb_uthread_switch(from, to) != 0)
		ut.failed = true;
}

/* The user-level thread of uthread.switch: it never ends. */
static void partner(void)
{
	for (;;) {
		ut.out_of_turn += ut.turn != THREAD_SIDE;
		ut.to_thread++;
		ut.turn = MAIN_SIDE;
		switch_to(ut.thread, ut.main);
	}
}

/* The user-level thread of uthread.create: back at once, for good. */
static void newborn(void)
{
	ut.created++;
	switch_to(ut.thread, ut.main);
}

static const char *uthread_unsupported(const struct ptb_system *sys)
{
	(void)sys;
	return ptb_uthread_missing();
}

static int contexts(struct ptb_point *p)
{
	ut = (struct uthreads){ .turn = MAIN_SIDE };
	ut.main = ptb_uthread_new(0);
	ut.thread = ptb_uthread_new(STACK_BYTES);
	p->state = &ut;
	if (ut.main && ut.thread)
		return 0;
	ptb_point_error(p, "no memory for two user-level contexts");
	ptb_uthread_free(ut.main);
	ptb_uthread_free(ut.thread);
	return -1;
}

static int switch_setup(struct ptb_point *p)
{
	if (contexts(p) < 0)
		return -1;
	if (ptb_uthread_make(ut.thread, partner) != 0) {
		ptb_point_error(p, "makecontext failed");
		ptb_uthread_free(ut.main);
		ptb_uthread_free(ut.thread);
		return -1;
	}
	return 0;
}

static void switch_run(struct ptb_point *p, uint64_t n)
{
	struct uthreads *u = p->state;
	for (uint64_t i = 0; i < n; i++) {
		u->turn = THREAD_SIDE;
		switch_to(u->main, u->thread);
		u->out_of_turn += u->turn != MAIN_SIDE;
		u->to_main++;
	}
}

/* After every timing: both ways switched once per iteration, in turn. */
static void switch_check(struct ptb_point *p, uint64_t n)
{
	struct uthreads *u = p->state;
	u->iterations += n;
	ptb_point_note(p, "to_thread", (double)u->to_thread);
	ptb_point_note(p, "to_main", (double)u->to_main);
	ptb_point_note(p, "out_of_turn", (double)u->out_of_turn);
	if (u->failed)
		ptb_point_error(p, "swapcontext failed");
	else if (u->out_of_turn || u->to_thread != u->iterations || u->to_main != u->iterations)
		ptb_point_error(p, "contexts did not alternate: %llu and %llu switches for %llu "
				"iterations, %llu out of turn", (unsigned long long)u->to_thread,
				(unsigned long long)u->to_main, (unsigned long long)u->iterations,
				(unsigned long long)u->out_of_turn);
}

static void uthread_teardown(struct ptb_point *p)
{
	struct uthreads *u = p->state;
	ptb_uthread_free(u->main);
	ptb_uthread_free(u->thread);
}

static int create_setup(struct ptb_point *p)
{
	return contexts(p);
}

static void create_run(struct ptb_point *p, uint64_t n)
{
	struct uthreads *u = p->state;
	for (uint64_t i = 0; i < n; i++) {
		if (ptb_uthread_make(u->thread, newborn) != 0) {
			u->failed = true;
			return;
		}
		switch_to(u->main, u->thread);
	}
}

static void create_check(struct ptb_point *p, uint64_t n)
{
	struct uthreads *u = p->state;
	u->iterations += n;
	ptb_point_note(p, "created", (double)u->created);
	if (u->failed)
		ptb_point_error(p, "makecontext or swapcontext failed");
	else if (u->created != u->iterations)
		ptb_point_error(p, "%llu threads ran for %llu created",
				(unsigned long long)u->created, (unsigned long long)u->iterations);
}

static const struct ptb_param no_params[] = { { 0 } };

static const struct ptb_row_rule switch_rows[] = {
	/* match group                            label                      footnote */
	{ "",   "User-level threads (ucontext)", "Switch (swapcontext)",    NULL },
	{ NULL }
};

static const struct ptb_row_rule create_rows[] = {
	/* match group                            label                                  footnote */
	{ "",   "User-level threads (ucontext)", "Create, first switch in and back out", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_uthread_switch = {
	.name = "uthread.switch",
	.summary = "two user-level threads switch to each other with swapcontext",
	.per = "switch",
	.ops_per_iter = 2,
	.params = no_params,
	.unsupported = uthread_unsupported,
	.setup = switch_setup,
	.run = switch_run,
	.check = switch_check,
	.teardown = uthread_teardown,
	.plausible_ns = { 2, 1e5 },   /* a register save and restore .. a slow signal-mask call */
	.section = PTB_SECTION_EXTRA,
	.rows = switch_rows,
	.relative_to = "yield",
	.suite = PTB_SUITE_EXTENDED,
};

const struct ptb_bench ptb_bench_uthread_create = {
	.name = "uthread.create",
	.summary = "makecontext a user-level thread, switch into it and straight back",
	.per = "thread",
	.ops_per_iter = 1,
	.params = no_params,
	.unsupported = uthread_unsupported,
	.setup = create_setup,
	.run = create_run,
	.check = create_check,
	.teardown = uthread_teardown,
	.plausible_ns = { 5, 1e6 },
	.section = PTB_SECTION_EXTRA,
	.rows = create_rows,
	.relative_to = "yield",
	.suite = PTB_SUITE_EXTENDED,
};
