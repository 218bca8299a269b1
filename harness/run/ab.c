/* SPDX-License-Identifier: MIT */
/*
 * The A/B comparison (see ab.h).  Every round starts a fresh worker of each
 * side and visits every undecided point once, in a random order; a visit is
 * one pair: a trial of BASE and one of HEAD, in a random order, both in one
 * code layout drawn for the pair.  A point is looked at when its pairs
 * reach the minimum, then twice, four times ... as many, and once more
 * when the budget is spent; it is decided at the first look whose verdict
 * is not inconclusive.  Half of alpha goes to the last look and half is
 * shared by the interim ones, each split over the points, so that the
 * chance of any false verdict in the whole comparison stays at most alpha
 * however early it stops (ptb_ab_look_level).  A trial that fails on either
 * side ends that point: the comparison then exits 2 and says which side.
 *
 * --time is a deadline: no trial starts after it, and a trial still
 * running at it is cut short (its half pair is dropped), so that the
 * comparison ends within moments of it.  Without --time, the default 45 s
 * are extended until every point has pairs enough to be judged.  A point
 * that then has fewer pairs than the minimum -- or when interrupted -- has
 * no verdict: it is "not compared", never "same" by default.  Points at a placement this
 * machine cannot have (the workers would only say N/A) are left out before
 * anything is measured, and said in one line.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "machine/system.h"
#include "platform/topology.h"
#include "report/ab.h"
#include "run/ab.h"
#include "run/layout.h"
#include "run/suite.h"
#include "run/worker.h"
#include "stats/paired.h"
#include "stats/random.h"
#include "text/size.h"

#define MAX_PAIRS PTB_AB_MAX_PAIRS

static const char *const side_name[2] = { "base", "head" };

struct apoint {
	struct ptb_ab_point out;
	const struct ptb_bench *b;
	double *lr, *ns[2], *mean[2];  /* each pair's trials: median timing (judged), mean */
	int *code;                     /* each pair's code layout, -1: fixed */
	int n, cap;
	bool done;
	bool looked;                   /* judged at least once */
	bool failed;                   /* a side's trial failed */
	struct ptb_layout_deck deck;   /* the code layouts of its next pairs */
};

struct ab {
	const struct ptb_ab_opts *o;
	struct ptb_side side[2];
	struct ptb_worker worker[2];
	struct apoint *pts;
	int npts;
	struct ptb_rng rng;
	struct ptb_rng layout_rng;     /* apart, so that the rounds' order stays the seed's */
	bool layout_ignored[2];        /* a side ran a trial in its own layout */
	double deadline;               /* start + --time */
	int need;                      /* pairs that can give a verdict */
	bool time_up;
	const struct ptb_pair *pair;   /* the placements this machine offers */
	unsigned absent;               /* placements left out, bit per placement */
};

/* Every point the selection names (an adaptive range gives its coarse
 * points: refinement needs values, and a comparison has two). */
static int collect(struct ab *a, struct ptb_job *jobs, int njobs)
{
	const char *values[PTB_MAX_PARAMS];
	int id, cap = 0;
	for (int j = 0; j < njobs; j++) {
		struct ptb_sweep *s = jobs[j].b ? ptb_job_sweep(&jobs[j]) : NULL;
		while (s && ptb_sweep_next(s, values, &id) == PTB_SWEEP_POINT) {
			json_t *params = ptb_params_json(jobs[j].b, values);
			int absent = ptb_ab_absent_placement(a->pair, params);
			if (absent >= 0) {
				a->absent |= 1u << absent;
				json_decref(params);
				continue;
			}
			if (a->npts == cap) {
				cap = ptb_next_cap(cap, 16);
				struct apoint *p = cap > 0 ? ptb_array_realloc(a->pts, (size_t)cap,
									       sizeof *p) : NULL;
				if (!p) {
					json_decref(params);
					ptb_sweep_free(s);
					return -1;
				}
				a->pts = p;
			}
			a->pts[a->npts++] = (struct apoint){
				.out = { .bench = jobs[j].b->name, .params = params },
				.b = jobs[j].b,
			};
			ptb_layout_deck_init(&a->pts[a->npts - 1].deck);
		}
		ptb_sweep_free(s);
	}
	return 0;
}

static int grow(struct apoint *p)
{
	if (p->n < p->cap)
		return 0;
	int cap = ptb_next_cap(p->cap, 16);
	if (cap < 0)
		return -1;
	double *lr = ptb_array_realloc(p->lr, (size_t)cap, sizeof *lr);
	if (lr)
		p->lr = lr;
	int *code = ptb_array_realloc(p->code, (size_t)cap, sizeof *code);
	if (code)
		p->code = code;
	if (!code)
		return -1;
	for (int s = 0; s < 2; s++) {
		double *ns = ptb_array_realloc(p->ns[s], (size_t)cap, sizeof *ns);
		if (ns)
			p->ns[s] = ns;
		double *mean = ptb_array_realloc(p->mean[s], (size_t)cap, sizeof *mean);
		if (mean)
			p->mean[s] = mean;
		if (!ns || !mean)
			return -1;
	}
	if (!lr)
		return -1;
	p->cap = cap;
	return 0;
}


enum side_outcome {
	SIDE_DONE,      /* an estimate */
	SIDE_FAILED,    /* the trial failed: why says how */
	SIDE_STOPPED,   /* the deadline or an interrupt cut it: no news */
};

/* Whether a side's answer says it ran in the layout asked for: a
 * ptbench older than layouts ignores the request and runs its own. */
static bool ran_in_layout(const json_t *answer)
{
	return json_is_integer(json_object_get(json_object_get(answer, "layout"), "code"));
}

/* One trial of one side in layout l, within the time left. */
static enum side_outcome trial(struct ab *a, struct apoint *p, int s, struct ptb_layout l,
			       double *est, double *mean, char *why, size_t len)
{
	const struct ptb_run_opts *o = &a->o->run;
	json_t *answer = NULL;
	bool cut;
	double deadline = a->o->budget_given ? a->deadline : INFINITY;
	double limit = ptb_ab_trial_limit(o->timeout_s, ptb_now_s(), deadline, &cut);
	if (limit <= 0) {
		a->time_up = true;
		return SIDE_STOPPED;
	}
	if (!a->worker[s].pid && ptb_worker_start(&a->worker[s], &a->side[s], why, len) < 0)
		return SIDE_FAILED;
	json_t *req = json_pack("{s:s, s:O, s:o, s:b}", "bench", p->b->name, "params",
				p->out.params, "limits", ptb_limits_json(&o->limits),
				"quick", o->quick);
	ptb_layout_request(req, o->layout, l);
	enum ptb_trial_outcome out = ptb_worker_trial(&a->worker[s], req, limit, &answer,
						      why, len);
	json_decref(req);
	if (out == PTB_TRIAL_INTERRUPTED || ptb_run_interrupted ||
	    (out == PTB_TRIAL_TIMEOUT && cut)) {
		a->time_up |= out == PTB_TRIAL_TIMEOUT;
		json_decref(answer);
		return SIDE_STOPPED;
	}
	*est = NAN;
	if (out == PTB_TRIAL_DONE) {
		const char *st = json_string_value(json_object_get(answer, "status"));
		const char *reason = json_string_value(json_object_get(answer, "reason"));
		if (st && (!strcmp(st, "ok") || !strcmp(st, "unstable"))) {
			/* The trial's median timing: a preemption that hits a few
			 * of its timings moves the mean, not the median (on a
			 * loaded 2-PU machine the pairs' spread of means was ten
			 * times that of medians, docs/ci.md). */
			const json_t *median = json_object_get(answer, "median");
			*mean = json_number_value(json_object_get(answer, "mean"));
			*est = json_is_number(median) ? json_number_value(median) : *mean;
			a->layout_ignored[s] |= o->layout == PTB_LAYOUT_VARIED &&
						!ran_in_layout(answer);
			snprintf(why, len, "%s without a finite positive estimate", st);
		} else {
			snprintf(why, len, "%s%s%s", st ? st : "no status", reason ? ": " : "",
				 reason ? reason : "");
		}
	}
	json_decref(answer);
	return *est > 0 && isfinite(*est) ? SIDE_DONE : SIDE_FAILED;
}


/* A look at a point: interim, or its last (MAX_PAIRS reached, or the
 * measuring over). */
static void judge(struct ab *a, struct apoint *p, bool last)
{
	double level = ptb_ab_look_level(a->o->alpha, a->npts, a->o->min_pairs,
					 last || p->n >= MAX_PAIRS);
	ptb_paired_judge(p->lr, p->n, level, a->o->threshold_pct, &p->out.judged);
	p->looked = true;
	for (int s = 0; s < 2; s++) {
		double *x = ptb_array_realloc(NULL, (size_t)p->n, sizeof *x);
		if (!x)
			continue;
		memcpy(x, p->ns[s], (size_t)p->n * sizeof *x);
		*(s ? &p->out.head_ns : &p->out.base_ns) = ptb_median_inplace(x, p->n);
		free(x);
	}
}

/* One pair, in a random order, both sides in one layout so that layout
 * cancels in the pair's ratio; false when it was not completed (the
 * point failed, the time ran out, or an interrupt). */
static bool pair(struct ab *a, struct apoint *p)
{
	char why[200];
	double est[2], mean[2];
	int first = (int)ptb_rng_below(&a->rng, 2);
	struct ptb_layout l = ptb_layout_draw(&p->deck, &a->layout_rng);
	if (grow(p) < 0) {
		snprintf(p->out.not_compared, sizeof p->out.not_compared, "out of memory");
		p->failed = p->done = true;
		return false;
	}
	for (int k = 0; k < 2; k++) {
		int s = first ^ k;
		switch (trial(a, p, s, l, &est[s], &mean[s], why, sizeof why)) {
		case SIDE_DONE:
			break;
		case SIDE_STOPPED:
			return false;
		case SIDE_FAILED:
			snprintf(p->out.not_compared, sizeof p->out.not_compared, "%s: %s",
				 side_name[s], why);
			p->failed = p->done = true;
			return false;
		}
	}
	p->ns[0][p->n] = est[0];
	p->ns[1][p->n] = est[1];
	p->mean[0][p->n] = mean[0];
	p->mean[1][p->n] = mean[1];
	p->code[p->n] = a->o->run.layout == PTB_LAYOUT_VARIED ? l.code : -1;
	p->lr[p->n++] = log(est[1] / est[0]);
	return true;
}

static bool decided(const struct apoint *p)
{
	return p->n >= MAX_PAIRS || (p->looked && p->out.judged.verdict != PTB_INCONCLUSIVE);
}

/* The pairs a point needs before its last look can give a verdict: the
 * minimum, or more where that many cannot give an interval at the level of
 * a look (many points, many looks). */
static int pairs_needed(const struct ab *a)
{
	double level = ptb_ab_look_level(a->o->alpha, a->npts, a->o->min_pairs, true), exact;
	int n = a->o->min_pairs;
	int lo, hi;
	while (n < MAX_PAIRS && !ptb_median_ranks_at(n, level, &lo, &hi, &exact))
		n++;
	return n;
}

/* Whether every point has the pairs it needs or is decided. */
static bool all_can_be_judged(const struct ab *a)
{
	for (int i = 0; i < a->npts; i++)
		if (!a->pts[i].done && a->pts[i].n < a->need)
			return false;
	return true;
}

/* The time is up at --time's deadline; without --time, at 45 s once every
 * point can be judged, so that a default comparison always has verdicts. */
static bool stopped(struct ab *a)
{
	if (!a->time_up && ptb_now_s() >= a->deadline)
		a->time_up = a->o->budget_given || all_can_be_judged(a);
	return ptb_run_interrupted || a->time_up;
}

static bool run_round(struct ab *a, int *order)
{
	int n = 0;
	for (int i = 0; i < a->npts; i++)
		if (!a->pts[i].done)
			order[n++] = i;
	ptb_rng_shuffle(&a->rng, order, n);
	/* Both workers start together: each spends its first ~0.1 s sleeping
	 * through the clock's calibration, which then overlaps instead of
	 * adding up, round after round.  One that fails to start is retried,
	 * and reported, by its first trial. */
	char why[200];
	for (int s = 0; s < 2 && n > 0 && !stopped(a); s++)
		if (!a->worker[s].pid)
			ptb_worker_start(&a->worker[s], &a->side[s], why, sizeof why);
	for (int k = 0; k < n && !stopped(a); k++) {
		struct apoint *p = &a->pts[order[k]];
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\r\033[Kptbench ab: %.0f s of %g, %s: %d pairs",
				ptb_now_s() - (a->deadline - a->o->budget_s), a->o->budget_s,
				p->out.bench, p->n);
		if (!pair(a, p))
			continue;
		if (!ptb_ab_is_look(p->n, a->o->min_pairs))
			continue;
		judge(a, p, false);
		p->done = decided(p);
	}
	for (int s = 0; s < 2; s++)
		ptb_worker_stop(&a->worker[s]);
	return n > 0;
}


/* When the measuring ends, a point with its minimum of pairs gets its last
 * look; a point that still has no verdict says why. */
static void settle(struct ab *a)
{
	struct ptb_ab_end end = { ptb_run_interrupted, a->time_up, a->o->budget_s,
				  a->o->min_pairs };
	for (int i = 0; i < a->npts; i++) {
		struct apoint *p = &a->pts[i];
		if (p->failed)
			continue;
		if (!p->done && p->n >= a->o->min_pairs && (!p->looked || p->out.judged.n != p->n))
			judge(a, p, true);
		if (ptb_ab_unjudged(p->n, p->looked, isfinite(p->out.judged.ratio_lo), &end,
				    p->out.not_compared, sizeof p->out.not_compared))
			p->out.judged.n = p->n;
	}
}

static int exit_status(const struct ab *a, bool interrupted)
{
	int regressions = 0, failed = 0, unjudged = 0;
	for (int i = 0; i < a->npts; i++) {
		const struct apoint *p = &a->pts[i];
		if (p->failed)
			fprintf(stderr, "ptbench ab: %s not compared: %s\n", p->out.bench,
				p->out.not_compared);
		failed += p->failed;
		unjudged += !p->failed && *p->out.not_compared;
		regressions += !*p->out.not_compared && p->out.judged.verdict == PTB_REGRESSION;
	}
	if (interrupted) {
		fprintf(stderr, "ptbench ab: interrupted: the verdicts are incomplete\n");
		return 2;
	}
	if (unjudged)
		fprintf(stderr, "ptbench ab: %d point%s not compared: too few pairs within --time "
			"%g s\n", unjudged, unjudged == 1 ? "" : "s", a->o->budget_s);
	return failed || unjudged ? 2 : regressions ? 1 : 0;
}

/* The report, on stdout or in -o's file.  0, or -1 when it could not be
 * saved (it then went to stdout). */
static int report(const struct ab *a, double seconds, bool interrupted)
{
	int rc = -1;
	json_t *absent = ptb_ab_absent_json(a->pair, a->absent);
	struct ptb_ab_report r = {
		a->o->program[0], a->o->program[1], a->o->threshold_pct, a->o->alpha,
		ptb_ab_look_level(a->o->alpha, a->npts, a->o->min_pairs, true),
		ptb_ab_look_level(a->o->alpha, a->npts, a->o->min_pairs, false),
		a->o->run.seed, seconds, interrupted, a->npts,
		ptb_ab_interim_looks(a->o->min_pairs), NULL, absent,
		ptb_layout_mode_name(a->o->run.layout) };
	struct ptb_ab_point *pts = calloc((size_t)a->npts + 1, sizeof *pts);
	char err[512];
	if (pts) {
		for (int i = 0; i < a->npts; i++) {
			pts[i] = a->pts[i].out;
			pts[i].pair_ns[0] = a->pts[i].ns[0];
			pts[i].pair_ns[1] = a->pts[i].ns[1];
			pts[i].pair_mean[0] = a->pts[i].mean[0];
			pts[i].pair_mean[1] = a->pts[i].mean[1];
			pts[i].pair_layout = a->pts[i].code;
			pts[i].npairs = a->pts[i].n;
		}
		r.pts = pts;
		rc = ptb_ab_write(&r, a->o->format, a->o->out_path, stdout, err, sizeof err);
	} else {
		snprintf(err, sizeof err, "out of memory");
	}
	if (rc)
		fprintf(stderr, "ptbench ab: the report was NOT saved: %s\n", err);
	else if (a->o->out_path)
		fprintf(stderr, "ptbench ab: report saved in %s\n", a->o->out_path);
	free(pts);
	json_decref(absent);
	return rc;
}

int ptb_ab_run(const struct ptb_ab_opts *o)
{
	static struct ptb_job jobs[PTB_MAX_SELECTED];
	struct ab a = { .o = o };
	struct ptb_system sys;
	char err[512];
	double t0 = ptb_now_s();
	int n = ptb_select_benches(&o->run, jobs, err, sizeof err), *order, rc;
	if (n < 0 || ptb_check_inputs(&o->run, jobs, n, err, sizeof err) < 0 ||
	    (o->out_path && ptb_run_check_output(o->out_path, err, sizeof err) < 0)) {
		fprintf(stderr, "ptbench ab: %s\n", err);
		return 2;
	}
	ptb_run_install_signals();   /* before the machine's collection: 0.1 s or more */
	/* The machine gives the points their machine defaults (threads up to
	 * every allowed PU, the pairs of PUs) and tells which placements it
	 * has, as in a run. */
	if (ptb_system_init(&sys, err, sizeof err) < 0) {
		fprintf(stderr, "ptbench ab: %s\n", err);
		return 2;
	}
	for (int i = 0; i < n; i++)
		jobs[i].sys = &sys;
	a.pair = sys.pairs;
	a.deadline = t0 + o->budget_s;
	for (int s = 0; s < 2; s++)
		a.side[s] = (struct ptb_side){ side_name[s], o->program[s], o->env[s] };
	ptb_rng_seed(&a.rng, o->run.seed);
	ptb_rng_seed(&a.layout_rng, o->run.seed ^ 0x6c61796f7574ULL);
	if (collect(&a, jobs, n) < 0 || !(order = calloc((size_t)a.npts + 1, sizeof *order))) {
		fprintf(stderr, "ptbench ab: out of memory\n");
		ptb_system_fini(&sys);
		return 2;
	}
	a.need = pairs_needed(&a);
	if (a.absent) {
		json_t *absent = ptb_ab_absent_json(a.pair, a.absent);
		char text[512];
		ptb_ab_absent_text(text, sizeof text, absent);
		json_decref(absent);
		if (!a.npts) {
			fprintf(stderr, "ptbench ab: nothing to compare: every point selected is at a "
				"placement this machine lacks: %s\n", text);
			free(order);
			ptb_system_fini(&sys);
			return 2;
		}
		fprintf(stderr, "ptbench ab: not on this machine, left out: %s\n", text);
	}
	while (!stopped(&a) && run_round(&a, order))
		;
	for (int s = 0; s < 2; s++)
		ptb_worker_stop(&a.worker[s]);
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	settle(&a);
	for (int s = 0; s < 2; s++)
		if (a.layout_ignored[s])
			fprintf(stderr, "ptbench ab: %s (%s) ran in its own code layout, not in the "
				"pair's (a ptbench without layouts): layout does not cancel in the "
				"ratios\n", side_name[s], o->program[s]);
	bool saved = report(&a, ptb_now_s() - t0, ptb_run_interrupted) == 0;
	rc = exit_status(&a, ptb_run_interrupted);
	rc = saved ? rc : 2;
	for (int i = 0; i < a.npts; i++) {
		json_decref(a.pts[i].out.params);
		free(a.pts[i].lr);
		free(a.pts[i].code);
		free(a.pts[i].ns[0]);
		free(a.pts[i].ns[1]);
		free(a.pts[i].mean[0]);
		free(a.pts[i].mean[1]);
	}
	free(a.pts);
	free(order);
	for (int i = 0; i < n; i++)
		ptb_assign_free(jobs[i].set);
	ptb_system_fini(&sys);
	return rc;
}
