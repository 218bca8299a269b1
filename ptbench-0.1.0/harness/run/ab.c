/* SPDX-License-Identifier: MIT */
/*
 * The A/B comparison (see ab.h).  Every round starts a fresh worker of each
 * side and visits every undecided point once, in a random order; a visit is
 * one pair: a trial of BASE and one of HEAD, in a random order.  A point is
 * looked at when its pairs reach the minimum, then twice, four times ... as
 * many, and once more when the budget is spent; it is decided at the first
 * look whose verdict is not inconclusive.  Every look of every point is
 * judged at 1 - alpha / (points x looks), so that the chance of any false
 * verdict in the whole comparison stays at most alpha however early it
 * stops (Bonferroni over looks as well as points).  A trial that fails on either
 * side ends that point: the comparison then exits 2 and says which side.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/ab.h"
#include "run/ab.h"
#include "run/suite.h"
#include "run/worker.h"
#include "stats/random.h"

#define MAX_PAIRS 400

static const char *const side_name[2] = { "base", "head" };

struct apoint {
	struct ptb_ab_point out;
	const struct ptb_bench *b;
	double *lr, *ns[2];
	int n, cap;
	bool done;
};

struct ab {
	const struct ptb_ab_opts *o;
	struct ptb_side side[2];
	struct ptb_worker worker[2];
	struct apoint *pts;
	int npts;
	struct ptb_rng rng;
	double spent_s;
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
			if (a->npts == cap) {
				cap = cap ? 2 * cap : 16;
				struct apoint *p = realloc(a->pts, (size_t)cap * sizeof *p);
				if (!p)
					return -1;
				a->pts = p;
			}
			a->pts[a->npts++] = (struct apoint){
				.out = { .bench = jobs[j].b->name,
					 .params = ptb_params_json(jobs[j].b, values) },
				.b = jobs[j].b,
			};
		}
		ptb_sweep_free(s);
	}
	return 0;
}

static int grow(struct apoint *p)
{
	if (p->n < p->cap)
		return 0;
	int cap = p->cap ? 2 * p->cap : 16;
	double *lr = realloc(p->lr, (size_t)cap * sizeof *lr);
	if (lr)
		p->lr = lr;
	for (int s = 0; s < 2; s++) {
		double *ns = realloc(p->ns[s], (size_t)cap * sizeof *ns);
		if (ns)
			p->ns[s] = ns;
		if (!ns)
			return -1;
	}
	if (!lr)
		return -1;
	p->cap = cap;
	return 0;
}

/* One trial of one side: its estimate, or NAN with why. */
static double trial(struct ab *a, struct apoint *p, int s, char *why, size_t len)
{
	const struct ptb_run_opts *o = &a->o->run;
	json_t *answer = NULL;
	double est = NAN, t0 = ptb_now_s();
	if (!a->worker[s].pid && ptb_worker_start(&a->worker[s], &a->side[s], why, len) < 0)
		return NAN;
	json_t *req = json_pack("{s:s, s:O, s:o, s:b}", "bench", p->b->name, "params",
				p->out.params, "limits", ptb_limits_json(&o->limits),
				"quick", o->quick);
	enum ptb_trial_outcome out = ptb_worker_trial(&a->worker[s], req, o->timeout_s, &answer,
						      why, len);
	json_decref(req);
	a->spent_s += ptb_now_s() - t0;
	if (out == PTB_TRIAL_DONE) {
		const char *st = json_string_value(json_object_get(answer, "status"));
		const char *reason = json_string_value(json_object_get(answer, "reason"));
		if (st && (!strcmp(st, "ok") || !strcmp(st, "unstable")))
			est = json_number_value(json_object_get(answer, "mean"));
		else
			snprintf(why, len, "%s%s%s", st ? st : "no status", reason ? ": " : "",
				 reason ? reason : "");
	}
	json_decref(answer);
	return est;
}

/* The looks a point can get: at min_pairs x 2^k up to MAX_PAIRS, and the
 * last one when the budget is spent. */
int ptb_ab_looks(int min_pairs)
{
	int looks = 1;
	for (int n = min_pairs; n <= MAX_PAIRS; n *= 2)
		looks++;
	return looks;
}

static bool is_look(const struct ab *a, const struct apoint *p)
{
	for (int n = a->o->min_pairs; n <= MAX_PAIRS; n *= 2)
		if (p->n == n)
			return true;
	return a->spent_s >= a->o->budget_s && p->n >= a->o->min_pairs;
}

static void judge(struct ab *a, struct apoint *p)
{
	ptb_paired_judge(p->lr, p->n, a->npts * ptb_ab_looks(a->o->min_pairs), a->o->alpha,
			 a->o->threshold_pct, &p->out.judged);
	for (int s = 0; s < 2; s++) {
		double *x = malloc((size_t)p->n * sizeof *x);
		if (!x)
			continue;
		memcpy(x, p->ns[s], (size_t)p->n * sizeof *x);
		*(s ? &p->out.head_ns : &p->out.base_ns) = ptb_median_inplace(x, p->n);
		free(x);
	}
}

/* One pair, in a random order; false when the point failed. */
static bool pair(struct ab *a, struct apoint *p)
{
	char why[200];
	double est[2];
	int first = (int)ptb_rng_below(&a->rng, 2);
	if (grow(p) < 0)
		return false;
	for (int k = 0; k < 2; k++) {
		int s = first ^ k;
		est[s] = trial(a, p, s, why, sizeof why);
		if (ptb_run_interrupted)
			return false;
		if (!(est[s] > 0)) {
			snprintf(p->out.failed, sizeof p->out.failed, "%s: %s", side_name[s], why);
			p->done = true;
			return false;
		}
	}
	p->ns[0][p->n] = est[0];
	p->ns[1][p->n] = est[1];
	p->lr[p->n++] = log(est[1] / est[0]);
	return true;
}

static bool decided(const struct ab *a, const struct apoint *p)
{
	if (p->n >= MAX_PAIRS)
		return true;
	if (p->n < a->o->min_pairs)
		return false;
	return p->out.judged.verdict != PTB_INCONCLUSIVE || a->spent_s >= a->o->budget_s;
}

static bool run_round(struct ab *a, int *order)
{
	int n = 0;
	for (int i = 0; i < a->npts; i++)
		if (!a->pts[i].done)
			order[n++] = i;
	ptb_rng_shuffle(&a->rng, order, n);
	for (int k = 0; k < n && !ptb_run_interrupted; k++) {
		struct apoint *p = &a->pts[order[k]];
		if (isatty(STDERR_FILENO))
			fprintf(stderr, "\r\033[Kptbench ab: %.0f s, %s: %d pairs", a->spent_s,
				p->out.bench, p->n);
		if (!pair(a, p))
			continue;
		if (!is_look(a, p))
			continue;
		judge(a, p);
		p->done = decided(a, p);
	}
	for (int s = 0; s < 2; s++)
		ptb_worker_stop(&a->worker[s]);
	return n > 0;
}

static int exit_status(const struct ab *a, bool interrupted)
{
	int regressions = 0, failed = 0;
	for (int i = 0; i < a->npts; i++) {
		const struct apoint *p = &a->pts[i];
		if (*p->out.failed) {
			fprintf(stderr, "ptbench ab: %s not compared: %s\n", p->out.bench, p->out.failed);
			failed++;
		} else {
			regressions += p->out.judged.verdict == PTB_REGRESSION;
		}
	}
	if (interrupted) {
		fprintf(stderr, "ptbench ab: interrupted: the verdicts are incomplete\n");
		return 2;
	}
	return failed ? 2 : regressions ? 1 : 0;
}

static void report(const struct ab *a, double seconds, bool interrupted)
{
	int looks = ptb_ab_looks(a->o->min_pairs);
	struct ptb_ab_report r = { a->o->program[0], a->o->program[1], a->o->threshold_pct,
				   a->o->alpha, 1 - a->o->alpha / ((a->npts ? a->npts : 1) * looks),
				   a->o->run.seed, seconds, interrupted, a->npts, looks, NULL };
	struct ptb_ab_point *pts = calloc((size_t)a->npts + 1, sizeof *pts);
	if (!pts)
		return;
	for (int i = 0; i < a->npts; i++)
		pts[i] = a->pts[i].out;
	r.pts = pts;
	if (a->o->json)
		ptb_ab_print_json(stdout, &r);
	else
		ptb_ab_print_md(stdout, &r);
	fflush(stdout);
	free(pts);
}

int ptb_ab_run(const struct ptb_ab_opts *o)
{
	static struct ptb_job jobs[PTB_MAX_SELECTED];
	struct ab a = { .o = o };
	char err[512];
	int n = ptb_select_benches(&o->run, jobs, err, sizeof err), *order, rc;
	if (n < 0 || ptb_check_inputs(&o->run, jobs, n, err, sizeof err) < 0) {
		fprintf(stderr, "ptbench ab: %s\n", err);
		return 2;
	}
	for (int s = 0; s < 2; s++)
		a.side[s] = (struct ptb_side){ side_name[s], o->program[s], o->env[s] };
	ptb_rng_seed(&a.rng, o->run.seed);
	if (collect(&a, jobs, n) < 0 || !(order = calloc((size_t)a.npts + 1, sizeof *order))) {
		fprintf(stderr, "ptbench ab: out of memory\n");
		return 2;
	}
	ptb_run_install_signals();
	double t0 = ptb_now_s();
	while (!ptb_run_interrupted && run_round(&a, order))
		;
	if (isatty(STDERR_FILENO))
		fputs("\r\033[K", stderr);
	report(&a, ptb_now_s() - t0, ptb_run_interrupted);
	rc = exit_status(&a, ptb_run_interrupted);
	for (int i = 0; i < a.npts; i++) {
		json_decref(a.pts[i].out.params);
		free(a.pts[i].lr);
		free(a.pts[i].ns[0]);
		free(a.pts[i].ns[1]);
	}
	free(a.pts);
	free(order);
	for (int i = 0; i < n; i++)
		ptb_assign_free(jobs[i].set);
	return rc;
}
