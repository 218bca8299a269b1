/* SPDX-License-Identifier: MIT */
/*
 * timeslice: the length of the scheduler's time slice, as the paper
 * measures it.  Two threads bound to one PU hand a shared variable back
 * and forth: each begins its slice by setting the variable and spends the
 * rest of it spinning until the other thread has set it -- which the other
 * can only do once the scheduler has preempted the spinner.  One iteration
 * is one slice of each thread; time / (2 x iterations) per slice.
 *
 * Handovers are detected by the variable changing, never by gaps in time:
 * on a VM the host takes the CPU away for 10-50 us hundreds of times a
 * second, and those gaps are not slices.  (They do lengthen a slice in
 * wall time when the guest's scheduler does not charge stolen time to the
 * task: that is part of the measured figure.)  The variable is a counter,
 * not the paper's 0/1, so that each side knows exactly whose turn it is
 * across timings: main sets odd values, the client even ones, and a timing
 * of n iterations moves it by 2n + 1.  Main's last step acknowledges the
 * client's last handover, so the client spins out its last slice too and
 * every timed slice is a whole one (only main's first is entered partway).
 *
 * Checks: main counts its spins; fewer than PTB_SLICE_MIN_SPINS per
 * handover means the threads ran at the same time (not on one PU) and the
 * point is na.  Another task on the PU would take slices between ours and
 * lengthen the figure, so both threads' CPU time is compared with the
 * wall time after each timing (ptb_share_check).  Notes:
 * `spins_per_slice`, `cpu_share`, the `scheduler` (EEVDF or CFS) and its
 * `base_slice_ns` where the kernel shows it (the slice ends at the first
 * scheduler tick after that much run time, so with HZ=250 expect about
 * 4 ms).
 */
#include "bench/common.h"

#define PTB_SLICE_MIN_SPINS 1000

struct slice {
	_Atomic uint64_t turn;
	uint64_t main_base, client_base;    /* `turn` when each side's timing starts */
	uint64_t spins, handovers;          /* main's spin loop iterations, slices waited */
	struct ptb_share share;             /* main's and the client's CPU time */
};

static struct slice sl;

static uint64_t spin_until(_Atomic uint64_t *v, uint64_t want)
{
	uint64_t spins = 0;
	while (atomic_load_explicit(v, memory_order_acquire) != want)
		spins++;
	return spins;
}

static void slice_client(void *arg, uint64_t n)
{
	struct slice *st = arg;
	uint64_t b = st->client_base;

	for (uint64_t j = 0; j < n; j++) {
		spin_until(&st->turn, b + 2 * j + 1);
		atomic_store_explicit(&st->turn, b + 2 * j + 2, memory_order_release);
	}
	spin_until(&st->turn, b + 2 * n + 1);
	st->client_base = b + 2 * n + 1;
}

static void slice_client_init(void *arg)
{
	ptb_share_add_self(&((struct slice *)arg)->share);
}

static const struct ptb_client_ops slice_ops = { .init = slice_client_init, .body = slice_client };

static int slice_setup(struct ptb_point *p)
{
	sl = (struct slice){ 0 };
	p->state = &sl;
	if (ptb_bench_pin_same_pu(p) < 0)
		return -1;
	if (*p->sys->sys.scheduler)
		ptb_point_note_text(p, "scheduler", p->sys->sys.scheduler);
	if (p->sys->sys.base_slice_ns >= 0)
		ptb_point_note(p, "base_slice_ns", p->sys->sys.base_slice_ns);
	ptb_share_add_self(&sl.share);
	return ptb_client_start(p, &slice_ops, &sl);
}

static void slice_run(struct ptb_point *p, uint64_t n)
{
	struct slice *st = p->state;
	uint64_t b = st->main_base, spins = 0;

	for (uint64_t i = 0; i < n; i++) {
		spins += spin_until(&st->turn, b + 2 * i);
		atomic_store_explicit(&st->turn, b + 2 * i + 1, memory_order_release);
	}
	spins += spin_until(&st->turn, b + 2 * n);
	atomic_store_explicit(&st->turn, b + 2 * n + 1, memory_order_release);
	st->main_base = b + 2 * n + 1;
	st->spins += spins;
	st->handovers += n;
}

static void slice_check(struct ptb_point *p, uint64_t n)
{
	struct slice *st = p->state;
	double per = (double)st->spins / (double)st->handovers;

	ptb_point_note(p, "spins_per_slice", per);
	ptb_share_check(p, &st->share);
	if (per < PTB_SLICE_MIN_SPINS)
		ptb_point_na(p, "threads were not time-sliced on one PU: %.0f spins per handover",
			     per);
}

static void slice_teardown(struct ptb_point *p)
{
	ptb_bench_unpin(p);
}

static const struct ptb_param no_params[] = { { 0 } };

static const struct ptb_row_rule timeslice_rows[] = {
	/* match group label         footnote */
	{ "",   "",   "Time slice", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_timeslice = {
	.name = "timeslice",
	.summary = "two spinning threads on one PU: the scheduler's time slice",
	.per = "slice",
	.ops_per_iter = 2,
	.params = no_params,
	.setup = slice_setup,
	.run = slice_run,
	.check = slice_check,
	.teardown = slice_teardown,
	.target_s = 0.1,
	.rows = timeslice_rows,
	.plausible_ns = { 1e5, 1e9 },   /* 100 us .. 1 s */
};
