/* SPDX-License-Identifier: MIT */
/*
 * yield: the paper's context-switch estimate.  Two threads bound to one PU
 * call sched_yield in turn; one iteration is one yield of each thread, so
 * the figure is time / (2 x iterations) = time per yield, which is a
 * thread switch when they really alternate.
 *
 * Placement: always one PU, so there is no placement variable; setup puts
 * both threads on the PU of sys->pairs[PTB_SAME_PU] itself (the main thread
 * with ptb_bind_self, recorded in binding_main) and teardown unbinds.
 *
 * Alternation is checked, not assumed: before each yield a thread writes
 * its id to `last`, after it reads `last` back; a changed value means the
 * other thread ran during the yield -- a switch.  The point is na
 * ("threads did not alternate: S switches in Y yields") or unstable when
 * too few yields were switches (ptb_yield_alternation), judged on the
 * totals since setup; the notes `switches` and `yields` give the counts.
 * A third task on the PU would run between our yields and inflate the
 * figure while every yield still counts as a switch, so the two yielding
 * threads' CPU time is compared with the wall time after each timing
 * (ptb_share_check, note `cpu_share`).
 *
 * proxy=yes is the paper's AIX variant: the main thread does not yield.
 * Two clients on the PU (the proxy and its partner) do, and run() only
 * starts them and waits for the proxy to finish.  The two handoffs (a
 * broadcast to the clients, a signal back) are inside the timing, so the
 * benchmark asks for 10 ms timings: thousands of yields make the two
 * wakeups (a few tens of us here) a fraction of a percent.  The main
 * thread is left on every PU so that its wakeup does not queue behind the
 * yielding pair.
 */
#include <pthread.h>
#include <sched.h>

#include "bench/common.h"

struct yield {
	_Atomic int last;
	uint64_t switches[2];           /* by thread: 0 main or proxy, 1 partner */
	struct ptb_share share;         /* the two yielding threads' CPU time */
	uint64_t yields;                /* counted in check() */
	bool proxy;
	pthread_mutex_t m;
	pthread_cond_t go_cv, done_cv;
	uint64_t go, done;              /* proxy mode: generations */
	uint64_t seen[2];               /* last go each client started on */
};

struct role {
	struct yield *st;
	int id;
};

static struct yield yl;
static struct role roles[2] = { { &yl, 0 }, { &yl, 1 } };

static void yield_loop(struct yield *st, int me, uint64_t n)
{
	uint64_t sw = 0;
	for (uint64_t i = 0; i < n; i++) {
		atomic_store_explicit(&st->last, me, memory_order_relaxed);
		sched_yield();
		sw += atomic_load_explicit(&st->last, memory_order_relaxed) != me;
	}
	st->switches[me] += sw;
}

static void yielder_init(void *arg)
{
	ptb_share_add_self(&yl.share);
}

/* proxy=no: the partner of the yielding main thread. */
static void partner_body(void *arg, uint64_t n)
{
	yield_loop(&yl, 1, n);
}

/* proxy=yes: both clients start together when run() says so. */
static void await_go(struct yield *st, int me)
{
	pthread_mutex_lock(&st->m);
	while (st->go == st->seen[me])
		pthread_cond_wait(&st->go_cv, &st->m);
	st->seen[me] = st->go;
	pthread_mutex_unlock(&st->m);
}

static void proxied_body(void *arg, uint64_t n)
{
	struct role *r = arg;
	struct yield *st = r->st;
	int old;

	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	await_go(st, r->id);
	yield_loop(st, r->id, n);
	if (r->id == 0) {
		pthread_mutex_lock(&st->m);
		st->done = st->seen[0];
		pthread_cond_signal(&st->done_cv);
		pthread_mutex_unlock(&st->m);
	}
	pthread_setcancelstate(old, NULL);
}

static const struct ptb_client_ops partner_ops = { .init = yielder_init, .body = partner_body };
static const struct ptb_client_ops proxied_ops = { .init = yielder_init, .body = proxied_body };

static int yield_setup(struct ptb_point *p)
{
	const struct ptb_pair *pair = &p->sys->pairs[PTB_SAME_PU];

	yl = (struct yield){ .proxy = ptb_point_yes(p, "proxy") };
	pthread_mutex_init(&yl.m, NULL);
	pthread_cond_init(&yl.go_cv, NULL);
	pthread_cond_init(&yl.done_cv, NULL);
	p->state = &yl;
	if (!yl.proxy) {
		if (ptb_bench_pin_same_pu(p) < 0)
			return -1;
		ptb_share_add_self(&yl.share);
		return ptb_client_start(p, &partner_ops, NULL);
	}
	if (!pair->possible) {
		ptb_point_na(p, "%s", pair->reason);
		return -1;
	}
	p->pu_client = pair->pu[0];
	if (ptb_client_start(p, &proxied_ops, &roles[0]) < 0)
		return -1;
	return ptb_client_start(p, &proxied_ops, &roles[1]);
}

static void proxied_run(struct yield *st)
{
	pthread_mutex_lock(&st->m);
	st->go++;
	pthread_cond_broadcast(&st->go_cv);
	while (st->done != st->go)
		pthread_cond_wait(&st->done_cv, &st->m);
	pthread_mutex_unlock(&st->m);
}

static void yield_run(struct ptb_point *p, uint64_t n)
{
	struct yield *st = p->state;

	if (st->proxy)
		proxied_run(st);
	else
		yield_loop(st, 0, n);
}

static void yield_check(struct ptb_point *p, uint64_t n)
{
	struct yield *st = p->state;
	uint64_t switches = st->switches[0] + st->switches[1];
	char why[200];

	st->yields += 2 * n;
	ptb_point_note(p, "switches", switches);
	ptb_point_note(p, "yields", st->yields);
	ptb_share_check(p, &st->share);
	switch (ptb_yield_alternation(switches, st->yields, why, sizeof why)) {
	case PTB_NA:       ptb_point_na(p, "%s", why);       break;
	case PTB_UNSTABLE: ptb_point_unstable(p, "%s", why); break;
	default:           break;
	}
}

static void yield_teardown(struct ptb_point *p)
{
	struct yield *st = p->state;
	if (!st->proxy)
		ptb_bench_unpin(p);
	pthread_cond_destroy(&st->done_cv);
	pthread_cond_destroy(&st->go_cv);
	pthread_mutex_destroy(&st->m);
}

static const struct ptb_param yield_params[] = {
	{ "proxy", "no,yes", "no", 0, 0,
	  "yes: a proxy thread, not the main thread, does the yielding (the paper's AIX variant)" },
	{ 0 }
};

static const struct ptb_row_rule yield_rows[] = {
	/* match        group label                         footnote */
	{ "proxy=no?", "",   "Thread Yield",               NULL },
	{ "proxy=yes", "",   "Thread Yield, proxy thread", "two client threads do the yielding while the main thread starts and awaits them; on AIX the paper had a proxy thread do the timing" },
	{ NULL }
};

const struct ptb_bench ptb_bench_yield = {
	.name = "yield",
	.summary = "two threads on one PU alternate with sched_yield",
	.per = "yield",
	.ops_per_iter = 2,
	.params = yield_params,
	.setup = yield_setup,
	.run = yield_run,
	.check = yield_check,
	.teardown = yield_teardown,
	.target_s = 0.01,
	.rows = yield_rows,
	.plausible_ns = { 20, 1e7 },   /* a syscall and a switch: 20 ns .. a 10 ms slice of a stranger */
};
