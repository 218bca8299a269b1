/* SPDX-License-Identifier: MIT */
/*
 * The simulated run the flow plots draw (report/flow.h), and the count of
 * runnable threads over it: a sweep over every thread's starts and ends
 * of being runnable (born, each time off the CPU, ended).
 */
#include <config.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/flow.h"
#include "text/size.h"
#include "text/text.h"

int ptb_flow_init(struct ptb_flow *f, const char *program, int cpus, int nthreads)
{
	memset(f, 0, sizeof *f);
	ptb_textf(f->program, sizeof f->program, "%s", program ? program : "");
	f->cpus = cpus;
	f->nthreads = nthreads;
	if (!(f->th = calloc(nthreads > 0 ? (size_t)nthreads : 1, sizeof *f->th)))
		return -1;
	for (int i = 0; i < nthreads; i++)
		f->th[i].born = f->th[i].ended = -1;
	return 0;
}

int ptb_flow_add_off(struct ptb_flow *f, int tid, const struct ptb_flow_off *off)
{
	if (tid < 0 || tid >= f->nthreads)
		return 0;
	struct ptb_flow_thread *th = &f->th[tid];
	if (th->n == th->cap) {
		size_t cap;
		struct ptb_flow_off *p;
		if (!ptb_grow_cap(th->cap, th->n + 1, 16, &cap) ||
		    !(p = ptb_array_realloc(th->off, cap, sizeof *p)))
			return -1;
		th->off = p, th->cap = cap;
	}
	th->off[th->n++] = *off;
	return 0;
}

void ptb_flow_free(struct ptb_flow *f)
{
	for (int i = 0; f->th && i < f->nthreads; i++)
		free(f->th[i].off);
	free(f->th);
	memset(f, 0, sizeof *f);
}

/* A change of the runnable count: +1 or -1 at t. */
struct change {
	double t;
	int d;
};

static int change_cmp(const void *a, const void *b)
{
	const struct change *x = a, *y = b;
	return (x->t > y->t) - (x->t < y->t);
}

/* Every thread's changes, in time order; their count, -1 out of memory. */
static long changes(const struct ptb_flow *f, struct change **out)
{
	size_t n = 0, k = 0;
	for (int i = 0; i < f->nthreads; i++)
		if (f->th[i].born >= 0 && !ptb_size_add(n, 2 + 2 * f->th[i].n, &n))
			return -1;
	struct change *c = ptb_array_realloc(NULL, n, sizeof *c);
	if (!c)
		return -1;
	for (int i = 0; i < f->nthreads; i++) {
		const struct ptb_flow_thread *th = &f->th[i];
		if (th->born < 0)
			continue;
		c[k++] = (struct change){ th->born, +1 };
		for (size_t j = 0; j < th->n; j++) {
			c[k++] = (struct change){ th->off[j].from, -1 };
			c[k++] = (struct change){ th->off[j].to, +1 };
		}
		c[k++] = (struct change){ th->ended, -1 };
	}
	qsort(c, k, sizeof *c, change_cmp);
	*out = c;
	return (long)k;
}

long ptb_flow_steps(const struct ptb_flow *f, struct ptb_flow_step **out)
{
	struct change *c;
	long n = changes(f, &c);
	if (n < 0)
		return -1;
	struct ptb_flow_step *s = ptb_array_realloc(NULL, (size_t)n + 1, sizeof *s);
	long k = 0;
	int runnable = 0;
	if (!s) {
		free(c);
		return -1;
	}
	for (long i = 0; i < n;) {                  /* the changes at one instant at once */
		double t = c[i].t;
		for (; i < n && c[i].t == t; i++)
			runnable += c[i].d;
		if (k && s[k - 1].runnable == runnable)
			continue;
		s[k++] = (struct ptb_flow_step){ t, runnable < 0 ? 0 : runnable };
	}
	if (!k || s[k - 1].runnable || s[k - 1].t < f->wall_ns)   /* the curve ends with the run */
		s[k++] = (struct ptb_flow_step){ f->wall_ns, 0 };
	free(c);
	*out = s;
	return k;
}
