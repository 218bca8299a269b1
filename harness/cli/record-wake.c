/* SPDX-License-Identifier: MIT */
/*
 * The remote wake-up cost of harness/cli/record-wake.h.  A signaller on
 * the recording PU wakes, in turn, a sleeper on another PU and a sleeper
 * on its own PU, SAMPLES times each; a sample is the signaller's time in
 * lock + signal + unlock.  Before a remote sample the signaller lets the
 * other PU idle for GAP_NS, as a consumer's CPU idles between a
 * producer's hand-offs: waking an idle PU (an interrupt to it, and on a
 * virtual machine an exit to the host) is the cost that the recording on
 * one PU cannot see.  The local sample is what the recording's bursts
 * already hold.  Medians, so that a preemption or an interrupt in a few
 * samples moves nothing.
 *
 * Only under SCHED_FIFO: under the normal policy the local sample is 8-9
 * us, like the remote one, whatever the local sleeper's policy (woken
 * under SCHED_OTHER, SCHED_BATCH or SCHED_IDLE alike, on the 2-vCPU
 * development guest), so that the difference came out 0-1.6 us where
 * SCHED_FIFO gave 6.0-9.2; a 16-vCPU guest gave 0 in 41 of 45.  A figure
 * known to be wrong is not passed on: the trace then says none.
 */
#include "config.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "cli/record-wake.h"

#define SAMPLES 61
#define GAP_NS 100000.0
#define DEADLINE_NS 1e9          /* a PU that never runs the sleeper: give up */

struct sleeper {
	pthread_mutex_t m;
	pthread_cond_t c;
	int go, stop;
	_Atomic int asleep;          /* set under m just before each wait */
	_Atomic long long woke_at;   /* ns when it last came out of its wait */
	const struct ptb_topology *t;
	int pu;
	pthread_t thread;
	double ns[SAMPLES];
};

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void *sleep_loop(void *arg)
{
	struct sleeper *s = arg;
	char err[256];
	if (ptb_bind_self(s->t, s->pu, err, sizeof err))
		return NULL;
	pthread_mutex_lock(&s->m);
	while (!s->stop) {
		atomic_store(&s->asleep, 1);
		while (!s->go && !s->stop)
			pthread_cond_wait(&s->c, &s->m);
		atomic_store(&s->woke_at, (long long)now_ns());
		s->go = 0;
	}
	pthread_mutex_unlock(&s->m);
	return NULL;
}

/* Wait until s sleeps in its condition wait (it released the mutex
 * there), then after `gap` ns time one wake-up: the signaller's time in
 * *ns and, where latency is not NULL (a sleeper on another PU, which runs
 * while this one spins), the time from the signal to the sleeper's
 * running.  0, or -1 past deadline. */
static int sample(struct sleeper *s, double gap, double deadline, double *ns, double *latency)
{
	while (!atomic_load(&s->asleep)) {
		if (now_ns() > deadline)
			return -1;
		sched_yield();           /* on one PU: the sleeper's turn */
	}
	pthread_mutex_lock(&s->m);
	atomic_store(&s->asleep, 0);
	pthread_mutex_unlock(&s->m);
	for (double until = now_ns() + gap; now_ns() < until;)
		;
	atomic_store(&s->woke_at, 0);
	double t0 = now_ns(), sent;
	pthread_mutex_lock(&s->m);
	s->go = 1;
	sent = now_ns();
	pthread_cond_signal(&s->c);
	pthread_mutex_unlock(&s->m);
	*ns = now_ns() - t0;
	long long woke;
	while (latency && !(woke = atomic_load(&s->woke_at)))
		if (now_ns() > deadline)
			return -1;
	if (latency)
		*latency = (double)woke - sent;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	return v[n / 2];
}

/* A thread under SCHED_FIFO (priority 1) when fifo and permitted, else
 * under the normal policy.  0, or -1 when none could be created. */
static int spawn(pthread_t *th, void *(*fn)(void *), void *arg, int fifo)
{
	pthread_attr_t a;
	pthread_attr_init(&a);
	struct sched_param sp = { .sched_priority = 1 };
	if (fifo) {
		pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&a, SCHED_FIFO);
		pthread_attr_setschedparam(&a, &sp);
	}
	int rc = pthread_create(th, &a, fn, arg);
	if (rc && fifo)                  /* not permitted: the normal policy */
		rc = pthread_create(th, NULL, fn, arg);
	pthread_attr_destroy(&a);
	return rc ? -1 : 0;
}

static int start(struct sleeper *s, const struct ptb_topology *t, int pu, int fifo)
{
	*s = (struct sleeper){ .t = t, .pu = pu };
	pthread_mutex_init(&s->m, NULL);
	pthread_cond_init(&s->c, NULL);
	return spawn(&s->thread, sleep_loop, s, fifo);
}

static void stop(struct sleeper *s)
{
	pthread_mutex_lock(&s->m);
	s->stop = 1;
	pthread_cond_signal(&s->c);
	pthread_mutex_unlock(&s->m);
	pthread_join(s->thread, NULL);
	pthread_cond_destroy(&s->c);
	pthread_mutex_destroy(&s->m);
}

/* An allowed PU other than pu: another core of its package where there
 * is one, else of another NUMA node or package, else its SMT sibling. */
static int other_pu(const struct ptb_topology *t, int pu)
{
	static const int rank[] = { [PTB_CROSS_CORE] = 4, [PTB_CROSS_NUMA] = 3,
				    [PTB_CROSS_PACKAGE] = 2, [PTB_SMT] = 1 };
	int pus[1024], n = ptb_topology_order(t, PTB_ORDER_COMPACT, pus, 1024), best = -1, br = 0;
	for (int i = 0; i < n; i++) {
		int c = ptb_topology_pair_class(t, pu, pus[i]);
		int r = c > 0 && c < (int)(sizeof rank / sizeof rank[0]) ? rank[c] : 0;
		if (r > br)
			best = pus[i], br = r;
	}
	return best;
}

struct probe {
	const struct ptb_topology *t;
	int pu, fifo;
	double result, latency;
};

static void *signal_loop(void *arg)
{
	struct probe *p = arg;
	char err[256];
	struct sleeper far, near;
	int policy;
	struct sched_param sp;
	if (pthread_getschedparam(pthread_self(), &policy, &sp) || policy != SCHED_FIFO)
		return NULL;             /* not permitted: no figure (above) */
	int other = other_pu(p->t, p->pu);
	if (other < 0 || ptb_bind_self(p->t, p->pu, err, sizeof err))
		return NULL;
	if (start(&far, p->t, other, p->fifo))
		return NULL;
	if (start(&near, p->t, p->pu, p->fifo)) {
		stop(&far);
		return NULL;
	}
	double deadline = now_ns() + DEADLINE_NS, latency[SAMPLES];
	int i = 0;
	for (; i < SAMPLES; i++)         /* interleaved: a change of the machine's state hits both */
		if (sample(&far, GAP_NS, deadline, &far.ns[i], &latency[i]) ||
		    sample(&near, 0, deadline, &near.ns[i], NULL))
			break;
	stop(&near);
	stop(&far);
	if (i == SAMPLES) {
		double d = median(far.ns, SAMPLES) - median(near.ns, SAMPLES);
		p->result = d > 0 ? d : 0;
		p->latency = median(latency, SAMPLES);
	}
	return NULL;
}

double ptb_record_remote_wake_ns(const struct ptb_topology *t, int pu, int fifo,
				 double *latency_ns)
{
	struct probe p = { t, pu, fifo, -1, -1 };
	pthread_t th;
	*latency_ns = -1;
	if (spawn(&th, signal_loop, &p, fifo))
		return -1;
	pthread_join(th, NULL);
	*latency_ns = p.result < 0 ? -1 : p.latency > 0 ? p.latency : 0;
	return p.result;
}
