/* SPDX-License-Identifier: MIT */
#include "config.h"
#include "cluster/cluster.h"
#include "cluster/team.h"

#include <sched.h>
#include <stdlib.h>

void ptb_cl_meet_init(struct ptb_cl_meet *m, enum ptb_cl_local kind, int n)
{
	m->kind = kind;
	m->n = n;
	atomic_store(&m->count, 0);
	atomic_store(&m->sense, 0);
	if (kind == PTB_CL_LOCAL_PTHREAD)
		pthread_barrier_init(&m->pb, NULL, (unsigned)n);
}

void ptb_cl_meet_destroy(struct ptb_cl_meet *m)
{
	if (m->kind == PTB_CL_LOCAL_PTHREAD)
		pthread_barrier_destroy(&m->pb);
}

void ptb_cl_meet(struct ptb_cl_meet *m, int *local_sense)
{
	if (m->kind == PTB_CL_LOCAL_PTHREAD) {
		pthread_barrier_wait(&m->pb);
		return;
	}
	int s = !*local_sense;
	*local_sense = s;
	if (atomic_fetch_add(&m->count, 1) == m->n - 1) {
		atomic_store(&m->count, 0);
		atomic_store(&m->sense, s);
		return;
	}
	/* Yield while spinning: ranks are often oversubscribed (tests, and
	 * MPI's own progress threads), and a pure spin would hold the PU the
	 * last arriving thread needs. */
	for (unsigned spins = 0; atomic_load(&m->sense) != s; spins++)
		if (spins > 200)
			sched_yield();
}

struct team_arg {
	void (*fn)(void *, int);
	void *arg;
	int i;
};

static void *team_main(void *p)
{
	struct team_arg *t = p;
	t->fn(t->arg, t->i);
	return NULL;
}

int ptb_cl_team(struct ptb_cl *c, int n, void (*fn)(void *arg, int i), void *arg)
{
	pthread_t tid[64];
	struct team_arg ta[64];
	int started = 0;
	if (n > 64)
		return -1;
	for (int i = 1; i < n; i++) {
		ta[i] = (struct team_arg){ fn, arg, i };
		if (pthread_create(&tid[i], NULL, team_main, &ta[i]) != 0)
			break;
		started = i;
	}
	if (started != n - 1)   /* a team short of threads would wait for ever */
		ptb_cl_fail(c, "rank %d (%s): cannot start thread %d of %d", c->rank, c->host,
			    started + 1, n);
	fn(arg, 0);
	for (int i = 1; i < n; i++)
		pthread_join(tid[i], NULL);
	return 0;
}
