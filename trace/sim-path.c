/* SPDX-License-Identifier: MIT */
/*
 * What bounds the predicted run: the critical path, walked back from the
 * thread that ended last.  While a thread runs, the path stays in it; at a
 * wait it goes to the thread that released it, at the moment of release;
 * at a thread's start, to its creator.  Each wait the path passes is
 * charged to its object.
 */
#include "config.h"

#include <stdlib.h>

#include "trace/sim-int.h"

static void charge(struct sim *s, int obj, double d)
{
	if (obj >= 0 && d > 0)
		s->obj[obj].path_ns += d;
}

static void walk(struct sim *s, size_t *cursor)
{
	int n = (int)s->o->nthreads, cur = -1, into = -1;
	for (int i = 0; i < n; i++)
		if (s->th[i].state == TS_DONE && s->o->th[i].n &&
		    (cur < 0 || s->th[i].until > s->th[cur].until))
			cur = i;
	double t = s->now;
	size_t cap = (size_t)n + 1;
	for (int i = 0; i < n; i++)
		cursor[i] = s->th[i].nw, cap += s->th[i].nw;
	for (size_t iter = 0; cur >= 0 && iter < cap; iter++) {
		struct sthread *th = &s->th[cur];
		while (cursor[cur] > 0 && th->w[cursor[cur] - 1].at > t)
			cursor[cur]--;
		if (cursor[cur] == 0) {              /* its start: on to its creator */
			charge(s, into, t - th->born);
			t = th->born, cur = th->creator, into = -1;
			continue;
		}
		const struct wake *w = &th->w[--cursor[cur]];
		charge(s, into, t - w->at);          /* ran on the path up to `into` */
		into = w->obj;
		if (w->by < 0 || w->by == cur) {     /* a delay (or a forced release) */
			charge(s, into, w->at - w->from);
			t = w->from;
		} else {
			cur = w->by, t = w->at;
		}
	}
}

int ptb_sim_path(struct sim *s, struct ptb_sim_result *r)
{
	size_t *cursor = calloc(s->o->nthreads + 1, sizeof *cursor);
	if (!cursor)
		return -1;
	walk(s, cursor);
	free(cursor);
	for (size_t i = 0; i < s->nobj; i++) {       /* the largest few, in order */
		const struct sobj *ob = &s->obj[i];
		if (ob->path_ns <= 0)
			continue;
		int k = r->nlimits < PTB_SIM_LIMITS ? r->nlimits++ : PTB_SIM_LIMITS - 1;
		if (k == PTB_SIM_LIMITS - 1 && r->nlimits == PTB_SIM_LIMITS &&
		    r->limits[k].path_ns >= ob->path_ns && r->limits[k].path_ns > 0)
			continue;
		for (; k > 0 && r->limits[k - 1].path_ns < ob->path_ns; k--)
			r->limits[k] = r->limits[k - 1];
		r->limits[k] = (struct ptb_sim_limit){ ob->kind, ob->addr, ob->site, ob->path_ns,
						       ob->wait_ns, ob->waits };
	}
	return 0;
}
