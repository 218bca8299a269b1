/* SPDX-License-Identifier: MIT */
/*
 * Under SCHED_FIFO on one PU a thread runs until it blocks.  A thread
 * that waits for another by spinning on a flag never blocks, and the
 * thread it waits for never runs: the recording would never end (a spin
 * of 20 ms unrecorded ran until killed).  So ptbench watches the threads
 * of the program, and of the processes it started on its PU (a parent
 * polling for a child's end with WNOHANG kept the child from ever
 * running), from a thread of its own, off the program's PU: when
 * one has run HOG_NS on end while another stood ready all that time, its
 * code is sampled for LOOK_MS (perf events, platform/threads.c).  A spin
 * -- every sample within a few hundred bytes -- is put behind the others,
 * as a time slice would; so is a thread that cannot be sampled.  A thread
 * that works (a compressor's job of seconds while its producer waits) is
 * left to run: putting it behind, as this did at first, let the producer
 * and another worker run meanwhile, and its wait behind them came out as
 * time off the CPU (xz -6 -T2 on 28 MB: 8.57 s predicted on 2 CPUs, 7.55
 * without, 8.10 real) -- until it has been judged work for LAST_NS on
 * end, since a spin over more code than a few hundred bytes looks like
 * work.  A thread that keeps only other processes' threads waiting is put
 * behind as a time slice would, and said to poll for them when its code
 * is at a few addresses, anywhere, and mostly not in user space (a
 * waitpid with WNOHANG in a loop).  A spin or a poll stays in its
 * thread's work, which no replay can tell from work, so what was put
 * behind is said, and the trace marked.
 */
#include "config.h"
#include "cli/record-hog.h"

#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "platform/threads.h"

#define HOG_NS 2000000000ull   /* the slice: longer than the jobs seen here */
#define LAST_NS 60000000000ull /* judged work so long: put behind all the same */
#define TICK_NS 250000000l     /* how often the threads are sampled */
#define LOOK_MS 100            /* how long a candidate's code is sampled */

struct seen {
	struct ptb_thread_time t;
	uint64_t streak;       /* ns run on end while another stood ready */
	uint64_t worked;       /* of those, ns judged work at earlier looks */
	int ready;             /* it stood ready most of the last sample */
};

/* Why a thread was put behind, and what record then says. */
enum { SPUN, BLIND, ASIDE, AT_LAST, WHYS };
static const char *const said[WHYS] = {
	[SPUN] = "a thread spun (its code within a few hundred bytes) %.1f s or more while "
		"another stood ready for the PU, and was put behind the others %u time%s, as a "
		"time slice would: its spin is in its work, so predict's figures are too slow",
	[BLIND] = "a thread ran %.1f s or more on end while another stood ready for the PU, "
		"and was put behind the others %u time%s, as a time slice would, its code not "
		"sampled (perf events refused, or too little of its time in user code to tell a "
		"spin from work): if it was spinning, its spin is in its work and predict's "
		"figures are too slow",
	[ASIDE] = "a thread ran %.1f s or more on end while threads of another process stood "
		"ready for the PU, and was put behind them %u time%s, as a time slice would: it "
		"polled for them (its code at a few addresses, mostly in system calls: waitpid "
		"with WNOHANG, say), or could not be sampled; its polls are in its work and "
		"predict's figures are too slow",
	[AT_LAST] = "a thread ran %.1f s or more on end, its code sampled as work every 2 s, "
		"while another stood ready for the PU, and was put behind the others %u time%s "
		"all the same: a spin over more than a few hundred bytes of code looks like "
		"work, and if it was one, its spin is in its work and predict's figures are too "
		"slow",
};

static struct {
	int started, stop;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	unsigned moved[WHYS];
	double longest_s[WHYS];
	uint64_t last_ns;      /* LAST_NS, or a test's */
	struct seen *prev, *cur;
	size_t nprev, cap;
} w = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int by_tid(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;
	return (x->t.tid > y->t.tid) - (x->t.tid < y->t.tid);
}

static const struct seen *before(pid_t tid)
{
	struct seen key = { .t.tid = tid };
	return w.nprev ? bsearch(&key, w.prev, w.nprev, sizeof key, by_tid) : NULL;
}

/* Whether thread j stood ready under a real-time policy: one that a
 * process set to the normal policy cannot run beside SCHED_FIFO threads,
 * whatever is put behind. */
static int ready_rt(size_t j)
{
	if (!w.cur[j].ready)
		return 0;
	int policy = sched_getscheduler(w.cur[j].t.tid);
	return policy == SCHED_FIFO || policy == SCHED_RR;
}

/* Whether a thread of c's own process stood ready (1), else only other
 * processes' (0), whose work is not in the trace and whose order with
 * c's threads the replay does not follow, or none that could run (-1). */
static int sibling_ready(const struct seen *c, size_t n)
{
	int other = -1;
	for (size_t j = 0; j < n; j++)
		if (&w.cur[j] != c && ready_rt(j)) {
			if (w.cur[j].t.pid == c->t.pid)
				return 1;
			other = 0;
		}
	return other;
}

/* A thread that has run the slice on end while another stood ready: put
 * behind the others if it spins, or may (not seen; judged work for
 * LAST_NS).  One that keeps only another process waiting is put behind
 * as a time slice would, said and marked only if it polls for it (a poll
 * through a system call is sampled in the program and the C library, and
 * mostly not at all, in the kernel): a parent that works while its child
 * waits for the PU keeps a trace that predict can trust. */
static void judge(struct seen *c, size_t n)
{
	int why = WHYS, sibling = sibling_ready(c, n);
	uint64_t ran = c->worked + c->streak;
	if (sibling < 0) {
		c->streak = 0;
		return;
	}
	int spins = ptb_thread_spins(c->t.tid, LOOK_MS, !sibling);
	if (sibling) {
		why = spins > 0 ? SPUN : spins < 0 ? BLIND : ran >= w.last_ns ? AT_LAST : WHYS;
		c->worked = ran;
	} else {
		why = spins != 0 ? ASIDE : WHYS;
		if (!spins)
			ptb_thread_to_tail(c->t.tid);    /* a time slice, nothing to say */
	}
	if (why < WHYS && ptb_thread_to_tail(c->t.tid) == 0) {
		w.moved[why]++;
		double s = (why == AT_LAST ? ran : c->streak) * 1e-9;
		w.longest_s[why] = s > w.longest_s[why] ? s : w.longest_s[why];
		c->worked = 0;
	}
	c->streak = 0;                   /* a worker: looked at again in HOG_NS */
}

/* One sample, dt ns after the last: each thread's streak, and the move of
 * a thread whose streak reached the slice. */
static void look(size_t n, uint64_t dt)
{
	size_t ready = 0;                /* threads that stood ready most of dt: */
	for (size_t i = 0; i < n; i++) {   /* runnable and hardly run (the kernel */
		const struct seen *p = before(w.cur[i].t.tid);  /* counts the time */
		w.cur[i].streak = p ? p->streak : 0;       /* ready only once it runs) */
		w.cur[i].worked = p ? p->worked : 0;
		w.cur[i].ready = p && ((w.cur[i].t.runnable && w.cur[i].t.run_ns - p->t.run_ns < dt / 2) ||
				       w.cur[i].t.ready_ns - p->t.ready_ns >= dt / 2);
		ready += (size_t)w.cur[i].ready;
	}
	for (size_t i = 0; i < n; i++) {
		const struct seen *p = before(w.cur[i].t.tid);
		uint64_t ran = p ? w.cur[i].t.run_ns - p->t.run_ns : 0;
		/* (0.7: the kernel's real-time throttling takes 50 ms of each second) */
		if (!p || ran < dt * 7 / 10 || ready == 0) {
			w.cur[i].streak = w.cur[i].worked = 0;   /* it blocked, or nobody */
			continue;                              /* waited for it */
		}
		w.cur[i].streak += ran;
		if (w.cur[i].streak >= HOG_NS)
			judge(&w.cur[i], n);
	}
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The threads now, into w.cur sorted by number: their count, -1 none. */
static int sample(struct ptb_thread_time **buf)
{
	int n;
	while ((n = ptb_threads_sample_below(*buf, w.cap)) >= 0 && (size_t)n == w.cap) {
		size_t cap = w.cap * 2;      /* perhaps more: look again with room */
		struct ptb_thread_time *b = realloc(*buf, cap * sizeof **buf);
		struct seen *p = realloc(w.prev, cap * sizeof *p), *c = p ? realloc(w.cur, cap * sizeof *c) : NULL;
		if (p)
			w.prev = p;
		if (b)
			*buf = b;
		if (!b || !p || !c)
			return -1;
		w.cur = c, w.cap = cap;
	}
	for (int i = 0; i < n; i++)
		w.cur[i] = (struct seen){ .t = (*buf)[i] };
	if (n > 0)
		qsort(w.cur, (size_t)n, sizeof *w.cur, by_tid);
	return n;
}

static void *watch(void *arg)
{
	struct ptb_thread_time *buf = arg;
	uint64_t last = mono_ns();
	pthread_mutex_lock(&w.lock);
	while (!w.stop) {
		struct timespec until;
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_nsec += TICK_NS;
		if (until.tv_nsec >= 1000000000l)
			until.tv_sec++, until.tv_nsec -= 1000000000l;
		pthread_cond_timedwait(&w.wake, &w.lock, &until);
		uint64_t now = mono_ns();
		int n = w.stop ? -1 : sample(&buf);
		if (n < 0)
			break;
		look((size_t)n, now - last);
		struct seen *t = w.prev;
		w.prev = w.cur, w.cur = t, w.nprev = (size_t)n, last = now;
	}
	pthread_mutex_unlock(&w.lock);
	free(buf);
	return NULL;
}

int ptb_record_hog_start(void)
{
	pthread_condattr_t ca;
	const char *last = getenv("PTB_RECORD_TEST_LAST_MS");   /* a test's hook */
	w.cap = 256, w.last_ns = last ? strtoull(last, NULL, 10) * 1000000ull : LAST_NS;
	struct ptb_thread_time *buf = malloc(w.cap * sizeof *buf);
	w.prev = malloc(w.cap * sizeof *w.prev);
	w.cur = malloc(w.cap * sizeof *w.cur);
	if (!buf || !w.prev || !w.cur || pthread_condattr_init(&ca) ||
	    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) || pthread_cond_init(&w.wake, &ca))
		goto fail;
	pthread_condattr_destroy(&ca);
	if (pthread_create(&w.thread, NULL, watch, buf) != 0)
		goto fail;
	w.started = 1;
	return 0;
fail:
	free(buf), free(w.prev), free(w.cur);
	w.prev = w.cur = NULL;
	return -1;
}

unsigned ptb_record_hog_stop(void)
{
	if (!w.started)
		return 0;
	pthread_mutex_lock(&w.lock);
	w.stop = 1;
	pthread_cond_signal(&w.wake);
	pthread_mutex_unlock(&w.lock);
	pthread_join(w.thread, NULL);
	w.started = 0;
	free(w.prev), free(w.cur);
	unsigned all = 0;
	for (int why = 0; why < WHYS; why++) {
		if (!w.moved[why])
			continue;
		fputs("ptbench record: warning: ", stderr);
		fprintf(stderr, said[why], w.longest_s[why], w.moved[why], w.moved[why] == 1 ? "" : "s");
		fputc('\n', stderr);
		all += w.moved[why];
	}
	return all;
}
