/* SPDX-License-Identifier: MIT */
/*
 * The target machine's costs from its result file (cli/machine-costs.h).
 * Which benchmark gives which cost, at which points and divided by what,
 * the benchmarks say in their descriptors (struct ptb_machine_role in
 * harness/ptbench.h); this file names none.  Each cost is the first of
 * its candidate points that has a figure: across cores first (a run on
 * several CPUs wakes and hands over across them), then unbound.  A
 * ping-pong is a round trip, two wake-ups or two hand-offs; it also holds
 * the CPU time of the calls, which the trace already counts -- tens of ns
 * against the microseconds of a wake-up.  The co-running slowdown is a
 * curve per working-set size (the benchmark's figure with k copies at once
 * over its figure alone); which size applies, the trace cannot tell (it
 * holds no cache counts), so the user names the program's working set.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/machine-costs.h"
#include "ptbench.h"
#include "record/model.h"
#include "text/text.h"

/* By enum ptb_machine_cost - 1: what the output calls each cost. */
static const char *const names[PTB_COST_COUNT] = { "wake-up", "hand-off", "creation",
						     "spin hand-off" };

/* The first candidate point of bench b that has a figure in run: 0 found. */
static int cost_of(const struct ptb_runfile *run, const struct ptb_bench *b,
		   struct ptb_machine_costs *m, int c)
{
	char key[256];
	for (const char *p = b->machine.points; p && *p; p += *p == ';') {
		size_t len = strcspn(p, ";");
		ptb_textf(key, sizeof key, "%s %.*s", b->name, (int)len, p);
		p += len;
		const struct ptb_record *r = ptb_runfile_find(run, key);
		if (!r || !r->has_value || !(r->value >= 0))
			continue;
		ptb_textf(m->key[c], sizeof m->key[c], "%s", key);
		m->divided_by[c] = b->machine.per > 0 ? b->machine.per : 1;
		m->ns[c] = r->value / m->divided_by[c];
		return 0;
	}
	return -1;
}

/* The curve of a working set of `bytes`, added when new; NULL when full. */
static struct ptb_corun_curve *curve_of(struct ptb_machine_corun *c, double bytes)
{
	for (int i = 0; i < c->ncurves; i++)
		if (c->curve[i].bytes == bytes)
			return &c->curve[i];
	if (c->ncurves == PTB_CORUN_SIZES)
		return NULL;
	c->curve[c->ncurves] = (struct ptb_corun_curve){ .bytes = bytes };
	return &c->curve[c->ncurves++];
}

/* Insert figure v at k copies, in ascending k (a k seen before is kept). */
static void curve_add(struct ptb_corun_curve *cv, int k, double v)
{
	int i = 0;
	while (i < cv->nk && cv->k[i] < k)
		i++;
	if ((i < cv->nk && cv->k[i] == k) || cv->nk == PTB_CORUN_KS)
		return;
	memmove(&cv->k[i + 1], &cv->k[i], (size_t)(cv->nk - i) * sizeof cv->k[0]);
	memmove(&cv->factor[i + 1], &cv->factor[i], (size_t)(cv->nk - i) * sizeof cv->factor[0]);
	cv->k[i] = k, cv->factor[i] = v, cv->nk++;
}

static int by_bytes(const void *a, const void *b)
{
	double x = ((const struct ptb_corun_curve *)a)->bytes;
	double y = ((const struct ptb_corun_curve *)b)->bytes;
	return (x > y) - (x < y);
}

/* The co-running curves of bench b in run: each point's figure over the
 * one alone (k = 1) at its size; a size without the lone copy is dropped. */
static int corun_of(const struct ptb_runfile *run, const struct ptb_bench *b,
		    struct ptb_machine_corun *c)
{
	char kvar[64], svar[64];
	const char *pts = b->machine.points ? b->machine.points : "";
	size_t len = strcspn(pts, ";");
	if (!pts[len] || len >= sizeof kvar)
		return -1;
	ptb_textf(kvar, sizeof kvar, "%.*s", (int)len, pts);
	ptb_textf(svar, sizeof svar, "%s", pts + len + 1);
	for (size_t i = 0; i < run->n; i++) {
		const struct ptb_record *r = &run->rec[i];
		double k = ptb_param_num(r, kvar), bytes = ptb_param_num(r, svar);
		if (strcmp(r->bench, b->name) || !r->has_value || !(r->value > 0) ||
		    !isfinite(r->value) || !(k >= 1 && k <= 4096 && k == floor(k)) ||
		    !(bytes > 0 && isfinite(bytes)))
			continue;
		struct ptb_corun_curve *cv = curve_of(c, bytes);
		if (cv)
			curve_add(cv, (int)k, r->value);
	}
	int kept = 0;
	for (int i = 0; i < c->ncurves; i++) {
		struct ptb_corun_curve *cv = &c->curve[i];
		if (cv->nk < 2 || cv->k[0] != 1)
			continue;
		int finite = 1;
		for (int j = cv->nk - 1; j >= 0; j--) {
			cv->factor[j] /= cv->factor[0];
			finite = finite && cv->factor[j] >= 1e-2 && cv->factor[j] <= 1e3;
		}
		if (finite)   /* no machine's: a figure of 1e-300 made the replay's time infinite */
			c->curve[kept++] = *cv;
	}
	c->ncurves = kept;
	qsort(c->curve, (size_t)kept, sizeof c->curve[0], by_bytes);
	c->bench = b->name;
	return kept ? 0 : -1;
}

int ptb_machine_corun_pick(struct ptb_machine_costs *m, double bytes, const char *path,
			   char *err, size_t errlen)
{
	struct ptb_machine_corun *c = &m->corun;
	if (!c->ncurves) {
		ptb_errf(err, errlen, "%s: no co-running slowdown for --working-set "
			 "(ptbench run -b corun measures it)", path);
		return -1;
	}
	int best = 0;
	for (int i = 1; i < c->ncurves; i++)
		if (fabs(log(c->curve[i].bytes / bytes)) < fabs(log(c->curve[best].bytes / bytes)))
			best = i;
	ptb_corun_curve_apply(&c->curve[best], &m->costs);
	c->working_set = bytes, c->picked = best;
	return 0;
}

void ptb_corun_curve_apply(const struct ptb_corun_curve *cv, struct ptb_sim_costs *costs)
{
	int last = cv->k[cv->nk - 1] < PTB_SIM_SLOW_MAX ? cv->k[cv->nk - 1] : PTB_SIM_SLOW_MAX;
	for (int k = 1, j = 0; k <= last; k++) {
		while (j + 1 < cv->nk && cv->k[j + 1] < k)
			j++;
		double f = cv->factor[j];
		if (k > cv->k[j] && j + 1 < cv->nk)   /* between two measured counts */
			f += (cv->factor[j + 1] - f) * (k - cv->k[j]) / (cv->k[j + 1] - cv->k[j]);
		costs->slowdown[k - 1] = f;
	}
	costs->nslow = last;
}

/* The benchmark whose figure gives cost c, as the registry says. */
static const char *bench_of(enum ptb_machine_cost c)
{
	for (int i = 0; i < ptb_registry_count; i++)
		if (ptb_registry[i]->machine.cost == c)
			return ptb_registry[i]->name;
	return "?";
}

int ptb_machine_costs_load(const char *path, struct ptb_machine_costs *m, char *err,
			   size_t errlen)
{
	struct ptb_runfile *run = ptb_runfile_load(path, err, errlen);
	int found = 0;
	memset(m, 0, sizeof *m);
	if (!run)
		return -1;
	for (int c = 0; c < PTB_COST_COUNT; c++)
		m->name[c] = names[c];
	m->corun.picked = -1;
	for (int i = 0; i < ptb_registry_count; i++) {
		const struct ptb_bench *b = ptb_registry[i];
		int c = (int)b->machine.cost - 1;
		if (b->machine.cost == PTB_MACHINE_CORUN && !m->corun.ncurves)
			found += corun_of(run, b, &m->corun) == 0;
		else if (c >= 0 && c < PTB_COST_COUNT && !m->key[c][0])
			found += cost_of(run, b, m, c) == 0;
	}
	ptb_runfile_free(run);
	m->costs = (struct ptb_sim_costs){ .wake_ns = m->ns[PTB_COST_WAKE],
					   .handoff_ns = m->ns[PTB_COST_HANDOFF],
					   .create_ns = m->ns[PTB_COST_CREATE],
					   .spin_handoff_ns = m->ns[PTB_COST_SPIN] };
	if (!found)
		ptb_errf(err, errlen, "%s: no figure of a wake-up, a hand-off, a thread creation, "
			 "a spin lock's hand-off or co-running copies (a ptbench run of the default "
			 "suite has the first three, -b %s and -b corun the others)", path,
			 bench_of(PTB_MACHINE_SPIN_HANDOFF));
	return found ? 0 : -1;
}
