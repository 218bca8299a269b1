/* SPDX-License-Identifier: MIT */
/*
 * wake.placement: the main thread releases T workers at once by a
 * barrier and waits for them at a second one, each worker doing the same
 * fixed CPU work between: the pattern of a program's parallel phases (a
 * fork-join, a pool's round).  On T idle PUs a release costs the
 * barrier's wake-ups; but where the scheduler puts two of the woken
 * workers on one PU, they share it until its load balancer moves one, and
 * the phase takes up to twice its work.  `ptbench predict` assumes every
 * woken thread finds a free PU, so this is what a prediction of such a
 * program leaves out on this machine.
 *
 * The workers are bound to a group of T PUs (ptb_pus_in_order), either
 * each to its own (bind=each: the ideal placement, for comparison; the
 * main thread on the first) or all, the main thread too, to the whole
 * group (bind=set: the scheduler places them).  A main thread that works
 * too, as one of the T, hid the effect on the development VM: the last
 * arrival that wakes the others goes on running, and the woken go
 * elsewhere; a releaser that then waits is what phases have.  Each
 * episode is a serial part (serial_us of the main thread's CPU time, the
 * workers asleep, their PUs idle), a release, the work (work_us of each
 * worker's own CPU time, so that a worker sharing a PU takes longer by the
 * wall clock), and the second barrier.  Each worker stamps the PU it began on with the
 * episode's number (ptb_bench_pu_taken, O(1) on the timed path); the one
 * thread the second barrier makes serial counts the episode as stacked
 * when a worker found its PU stamped already.
 * The figure is the episode's whole time, noted beside `serial_ns` and
 * `work_ns`: what it has beyond them is what the release and the placement
 * cost.  (Not EPCC's difference from a reference run: the harness sizes a
 * timing by its figure, and a difference of microseconds made every
 * timing hold over a thousand episodes of a millisecond.)
 * policy=fifo runs every thread under SCHED_FIFO (na where not permitted),
 * whose wake-up path puts a woken thread on a PU running none.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/common.h"

struct worker {
	_Alignas(64) uint64_t episode;  /* this thread's count of episodes, from 1 */
	bool works;                     /* a worker, not the main thread */
	struct wake_state *st;
	char binding[64];               /* its binding read back after init */
};

struct wake_state {
	int threads;                           /* workers */
	int policy0;                           /* the main thread's, before */
	struct sched_param param0;
	bool each, fifo;
	double work_ns, serial_ns;
	pthread_barrier_t release, done;
	struct ptb_point *p;
	bool bind_failed;                      /* a client's binding: the point is in error */
	int group[PTB_MAX_CLIENTS + 1];
	struct ptb_pu_stamp *stamps;           /* one per PU number below npu */
	int npu;
	_Atomic uint64_t stacked_in, unknown_in;   /* the latest episode stacked; with a PU unknown */
	uint64_t episodes, stacked, unknown;   /* by each episode's serial thread */
	char err[200];                         /* a client's failed binding or policy */
	struct worker w[PTB_MAX_CLIENTS + 1];  /* the main thread, then the workers */
};

static struct wake_state st;

static double thread_cpu_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* Spins until this thread has had ns of CPU time. */
static void work(double ns)
{
	if (ns <= 0)
		return;
	volatile uint64_t x = 1;
	double end = thread_cpu_ns() + ns;
	do
		for (int i = 0; i < 512; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
	while (thread_cpu_ns() < end);
}

/* Where this thread begins the episode's work, stamped (see common.h). */
static void stamp(struct wake_state *s, uint64_t ep)
{
	int pu = ptb_point_pu_now(s->p);
	if (pu < 0 || pu >= s->npu)
		atomic_store_explicit(&s->unknown_in, ep, memory_order_relaxed);
	else if (ptb_bench_pu_taken(s->stamps, pu, ep))
		atomic_store_explicit(&s->stacked_in, ep, memory_order_relaxed);
}

/* By the one thread the second barrier makes serial, after every stamp. */
static void count_episode(struct wake_state *s, uint64_t ep)
{
	if (atomic_load_explicit(&s->unknown_in, memory_order_relaxed) == ep) {
		s->unknown++;
		return;
	}
	s->episodes++;
	s->stacked += atomic_load_explicit(&s->stacked_in, memory_order_relaxed) == ep;
}

static void episodes(struct worker *w, uint64_t n)
{
	struct wake_state *s = w->st;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t ep = ++w->episode;
		if (!w->works)
			work(s->serial_ns);           /* the serial part: the workers sleep */
		pthread_barrier_wait(&s->release);
		if (w->works) {
			stamp(s, ep);
			work(s->work_ns);
		}
		if (pthread_barrier_wait(&s->done) == PTHREAD_BARRIER_SERIAL_THREAD)
			count_episode(s, ep);
	}
}

/* SCHED_FIFO for policy=fifo; the normal policy's threads are left as
 * they are (a process started under another policy keeps it). */
static int set_policy(bool fifo)
{
	struct sched_param sp = { .sched_priority = sched_get_priority_min(SCHED_FIFO) };
	return fifo ? pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp) : 0;
}

/* The main thread's policy before the point, given back after it. */
static void restore_policy(void)
{
	pthread_setschedparam(pthread_self(), st.policy0, &st.param0);
}

/* A client binds itself to the group (bind=set) and takes the policy. */
static void client_init(void *arg)
{
	struct worker *w = arg;
	struct wake_state *s = w->st;
	int rc;
	w->binding[0] = '\0';
	if (!s->each && ptb_point_bind_group(s->p, s->group, s->threads, w->binding,
					     sizeof w->binding) < 0)
		s->bind_failed = true;
	else if ((rc = set_policy(s->fifo)) != 0)
		snprintf(s->err, sizeof s->err, "a thread's SCHED_FIFO: %s", strerror(rc));
}

static void client_body(void *arg, uint64_t n)
{
	episodes(arg, n);
}

static const struct ptb_client_ops client_ops = { .init = client_init, .body = client_body };

static void wake_free(void)
{
	pthread_barrier_destroy(&st.release);
	pthread_barrier_destroy(&st.done);
	free(st.stamps);
	st.stamps = NULL;
}

/* A stamp for every PU number of the group. */
static int stamps_new(struct ptb_point *p)
{
	st.npu = 0;
	for (int i = 0; i < st.threads; i++)
		if (st.group[i] + 1 > st.npu)
			st.npu = st.group[i] + 1;
	st.stamps = aligned_alloc(64, (size_t)st.npu * sizeof *st.stamps);
	if (!st.stamps) {
		ptb_point_error(p, "no memory for %d PUs' stamps", st.npu);
		return -1;
	}
	memset(st.stamps, 0, (size_t)st.npu * sizeof *st.stamps);
	return 0;
}

/* The main thread: its own PU or the group, and the policy. */
static int place_main(struct ptb_point *p)
{
	int rc;
	if (!st.each && ptb_point_bind_group(p, st.group, st.threads, p->binding_main,
					     sizeof p->binding_main) < 0)
		return -1;
	if ((rc = set_policy(st.fifo)) != 0) {
		/* EPERM: not permitted; EINVAL, ENOSYS, ENOTSUP: a sandbox's kernel
		 * without the policy */
		if (rc == EPERM || rc == EINVAL || rc == ENOSYS || rc == ENOTSUP)
			ptb_point_na(p, "SCHED_FIFO refused: %s", strerror(rc));
		else
			ptb_point_error(p, "SCHED_FIFO: %s", strerror(rc));
		return -1;
	}
	return 0;
}

static int wake_setup(struct ptb_point *p)
{
	int n = (int)ptb_point_long(p, "threads");

	memset(&st, 0, sizeof st);
	pthread_getschedparam(pthread_self(), &st.policy0, &st.param0);
	if (ptb_bench_place_group(p, "spread", n, st.group) < 0)
		return -1;
	st.threads = n;
	st.each = strcmp(ptb_point_str(p, "bind"), "each") == 0;
	st.fifo = strcmp(ptb_point_str(p, "policy"), "fifo") == 0;
	st.work_ns = (double)ptb_point_long(p, "work_us") * 1e3;
	st.serial_ns = (double)ptb_point_long(p, "serial_us") * 1e3;
	st.p = p;
	if (place_main(p) < 0 || stamps_new(p) < 0) {
		restore_policy();
		ptb_bench_unpin(p);
		return -1;
	}
	pthread_barrier_init(&st.release, NULL, (unsigned)n + 1);
	pthread_barrier_init(&st.done, NULL, (unsigned)n + 1);
	for (int i = 0; i <= n; i++)
		st.w[i].st = &st, st.w[i].works = i > 0;
	p->state = &st;
	for (int i = 1; i <= n; i++)
		if (ptb_client_start_on(p, st.each ? st.group[i - 1] : -1, &client_ops, &st.w[i]) < 0 ||
		    st.bind_failed || (st.err[0] && (ptb_point_error(p, "%s", st.err), 1))) {
			/* the harness cancels the clients, which wait outside the barriers */
			wake_free();
			restore_policy();
			ptb_bench_unpin(p);
			return -1;
		} else if (!st.each && p->nclient_bindings > 0) {
			/* the harness read back the binding before init narrowed it */
			snprintf(p->binding_client[p->nclient_bindings - 1],
				 sizeof p->binding_client[0], "%s", st.w[i].binding);
		}
	return 0;
}

static void wake_run(struct ptb_point *p, uint64_t n)
{
	episodes(&((struct wake_state *)p->state)->w[0], n);
}

/* Untimed.  Workers bound one to a PU cannot begin on one PU: if they
 * did, the PUs read back are wrong, and so is every stacked count. */
static void wake_check(struct ptb_point *p, uint64_t n)
{
	struct wake_state *s = p->state;
	(void)n;
	if (s->episodes)
		ptb_point_note(p, "stacked_share", (double)s->stacked / (double)s->episodes);
	if (s->unknown)
		ptb_point_note(p, "episodes_pu_unknown", (double)s->unknown);
	ptb_point_note(p, "work_ns", s->work_ns);
	ptb_point_note(p, "serial_ns", s->serial_ns);
	if (s->each && s->stacked)
		ptb_point_error(p, "workers bound each to a PU of their own began %llu of %llu "
				"episodes two on one PU", (unsigned long long)s->stacked,
				(unsigned long long)s->episodes);
}

static void wake_teardown(struct ptb_point *p)
{
	wake_free();
	restore_policy();
	ptb_bench_unpin(p);
}

static const struct ptb_param wake_params[] = {
	{ "threads", NULL, "2,4,8,16,32,64,128,256", 2, PTB_MAX_CLIENTS,
	  "workers released at once, on as many PUs (one per core first; na beyond the allowed PUs)", 0 },
	{ "bind", "set,each", "set,each", 0, 0,
	  "set: the workers and the main thread may run on any PU of the group, the scheduler "
	  "places them; each: one worker per PU", 0 },
	{ "policy", "other,fifo", "other", 0, 0,
	  "other: the normal policy; fifo: SCHED_FIFO (na where not permitted)", 0 },
	{ "work_us", NULL, "1000", 10, 100000,
	  "each worker's CPU work per episode, in microseconds", 0 },
	{ "serial_us", NULL, "500", 0, 100000,
	  "the main thread's CPU work before each release, the workers asleep, in microseconds", 0 },
	{ 0 }
};

static const struct ptb_row_rule wake_rows[] = {
	/* match                               group                                         label         footnote */
	{ "bind=set policy=other threads=*",  "Released together, placed by the scheduler", "%s threads",
	  "T workers woken at once on a group of T PUs by a main thread that then waits for them, each "
	  "doing work_us of CPU work: the episode's time, of which serial_us + work_us is work" },
	{ "bind=each policy=other threads=*", "Released together, one per PU",              "%s threads", NULL },
	{ "bind=set policy=fifo threads=*",   "Released together, placed, SCHED_FIFO",       "%s threads", NULL },
	{ "bind=each policy=fifo threads=*",  "Released together, one per PU, SCHED_FIFO",   "%s threads", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_wake_placement = {
	.name = "wake.placement",
	.summary = "T workers released at once to equal work: the time the scheduler's placement adds",
	.per = "episode",
	.ops_per_iter = 1,
	.params = wake_params,
	.setup = wake_setup,
	.run = wake_run,
	.check = wake_check,
	.teardown = wake_teardown,
	.target_s = 0.05,
	.plausible_ns = { 1e4, 1e9 },   /* the least work .. a second of sharing a PU */
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = wake_rows,
	.machine = { PTB_MACHINE_PLACEMENT, NULL, 0 },
};
