/* SPDX-License-Identifier: MIT */
/*
 * The trials of a run (docs/design.md, "Trials").  Every selected point is
 * measured as independent trials, each in a worker process; the trials of
 * all points run in randomized rounds -- every round visits each unfinished
 * point once, in a fresh order drawn from the run's seed -- one trial at a
 * time, so that a slow stretch of the host falls a little on many points
 * and never wholly on one.  A round is served by one worker process, so a
 * point's trials come from as many processes as it had rounds.  A point
 * stops when the CI of its trials is narrow enough; the run's time budget
 * is shared, so the time that points meeting the target early leave
 * unused goes to the points that need more trials, and when it is spent
 * every point that has its minimum of trials stops.  Points of an adaptive
 * sweep join the rounds as their neighbours finish.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/gate.h"
#include "run/layout.h"
#include "run/record.h"
#include "run/suite.h"
#include "run/worker.h"
#include "stats/random.h"
#include "stats/trials.h"
#include "text/size.h"

#define MAX_TRIALS 200           /* a point this fast has long met any target */
#define FAILURES_IN_ROW 2        /* lost trials in a row that fail a point */

struct tpoint {
	int job, sweep_id;
	json_t *params;
	json_t *trials;              /* every trial, kept or lost, in order */
	double *est;                 /* estimates of the kept trials */
	int *est_round;              /* the round each was measured in */
	int n, cap;
	int lost_in_row;
	double spent_s;
	bool finished;
	struct ptb_layout_deck deck; /* the code layouts of its next trials */
	enum ptb_status fail_status; /* PTB_OK, or why the point failed */
	char fail_reason[256];
};

struct sched {
	struct ptb_run_state *rs;
	double spent_s;              /* by all trials so far */
	struct ptb_job *jobs;
	int njobs;
	struct ptb_sweep **sweeps;
	struct tpoint *pts;
	int npts, cap;
	struct ptb_rng rng;
	struct ptb_rng layout_rng;   /* apart, so that the rounds' order stays the seed's */
	struct ptb_side side;
	struct ptb_worker worker;
	int round;
	int seq;                     /* trials begun so far */
};

/* ---- points ------------------------------------------------------------- */

static int add_point(struct sched *s, int job, int id, const char *const *values)
{
	if (s->npts == s->cap) {
		int cap = ptb_next_cap(s->cap, 32);
		struct tpoint *p = cap > 0 ? ptb_array_realloc(s->pts, (size_t)cap, sizeof *p) : NULL;
		if (!p)
			return -1;
		s->pts = p;
		s->cap = cap;
	}
	s->pts[s->npts++] = (struct tpoint){
		.job = job, .sweep_id = id, .trials = json_array(),
		.params = ptb_params_json(s->jobs[job].b, values),
	};
	ptb_layout_deck_init(&s->pts[s->npts - 1].deck);
	return 0;
}

/* Points whose sweep can name them now join the rounds. */
static void collect(struct sched *s)
{
	const char *values[PTB_MAX_PARAMS];
	int id;
	for (int j = 0; j < s->njobs; j++)
		while (s->sweeps[j] && ptb_sweep_next(s->sweeps[j], values, &id) == PTB_SWEEP_POINT)
			if (add_point(s, j, id, values) < 0)
				return;
}

/* The run's time budget: as given, or a share per point known so far
 * that can be measured here (na and failed points give theirs up),
 * weighted by its benchmark's time_weight. */
static double budget_s(const struct sched *s)
{
	const struct ptb_run_opts *o = s->rs->o;
	double shares = 0;
	for (int i = 0; i < s->npts; i++) {
		double w = s->jobs[s->pts[i].job].b->time_weight;
		if (s->pts[i].fail_status == PTB_OK)
			shares += w > 0 ? w : 1;
	}
	return o->run_budget_s > 0 ? o->run_budget_s : o->point_budget_s * shares;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static double median_of(double *x, int n)
{
	qsort(x, (size_t)n, sizeof *x, cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* The machine factor of one round: the median over the points measured in
 * it of log(trial / the point's median so far); false with fewer than 3,
 * or fewer than half the points measured so far: the last rounds of a run
 * hold only the points that would not settle, whose own scatter is not
 * the machine's. */
static bool round_factor(const struct sched *s, int round, const double *medians,
			 double *work, double *factor)
{
	int k = 0, measured = 0;
	for (int i = 0; i < s->npts; i++) {
		measured += medians[i] > 0;
		for (int j = 0; j < s->pts[i].n; j++)
			if (s->pts[i].est_round[j] == round && medians[i] > 0 &&
			    s->pts[i].est[j] > 0)
				work[k++] = log(s->pts[i].est[j] / medians[i]);
	}
	if (k < 3 || 2 * k < measured)
		return false;
	*factor = median_of(work, k);
	return true;
}

/* The run's drift so far (stats/trials.h), in % of a value. */
static double drift_pct(const struct sched *s)
{
	int most = s->npts;
	for (int i = 0; i < s->npts; i++)
		most = s->pts[i].n > most ? s->pts[i].n : most;
	double *medians = calloc((size_t)s->npts + 1, sizeof *medians);
	double *work = calloc((size_t)most + 1, sizeof *work);
	double *factors = calloc((size_t)s->round + 1, sizeof *factors), d = 0;
	int nf = 0;
	if (medians && work && factors) {
		for (int i = 0; i < s->npts; i++) {
			if (s->pts[i].n == 0)	/* est is NULL until a trial is kept */
				continue;
			memcpy(work, s->pts[i].est, (size_t)s->pts[i].n * sizeof *work);
			medians[i] = median_of(work, s->pts[i].n);
		}
		for (int r = 1; r <= s->round; r++)
			nf += round_factor(s, r, medians, work, &factors[nf]);
		d = ptb_drift_pct(factors, nf);
	}
	free(medians);
	free(work);
	free(factors);
	return d;
}

static bool budget_spent(const struct sched *s)
{
	return s->rs->o->trials == 0 && s->spent_s >= budget_s(s);
}

static const char *stop_reason(const struct sched *s, const struct tpoint *pt,
			       const struct ptb_trials_summary *sum)
{
	const struct ptb_run_opts *o = s->rs->o;
	if (o->trials > 0)
		return pt->n >= o->trials ? "trials" : NULL;
	if (pt->n >= MAX_TRIALS)
		return "max_trials";
	if (pt->n < o->min_trials)
		return NULL;
	/* Trials in separate modes have no one figure to converge on: such a
	 * point takes its share of the time, and its interval spans them. */
	if (sum->halfwidth_pct <= o->target_pct && sum->coverage >= 0.95 && sum->nmodes == 1)
		return "ci";
	/* The run's drift is in every interval and no trial of this point
	 * narrows it: once it alone exceeds the target and the trials alone
	 * meet it, more trials only spend the others' time. */
	if (sum->coverage >= 0.95 && sum->nmodes == 1 && ptb_trials_drift_bound(sum, o->target_pct))
		return "drift";
	return budget_spent(s) ? "budget" : NULL;
}

static void finish(struct sched *s, struct tpoint *pt, const char *stop)
{
	const struct ptb_job *job = &s->jobs[pt->job];
	json_t *rec = ptb_point_record(job->b, pt->params, pt->trials, pt->est, pt->n, stop,
				       s->rs->o->target_pct, drift_pct(s), pt->fail_status,
				       pt->fail_reason);
	pt->finished = true;
	pt->params = NULL;
	pt->trials = NULL;
	if (s->sweeps[pt->job])
		ptb_sweep_feed(s->sweeps[pt->job], pt->sweep_id,
			       ptb_record_value(rec));
	ptb_run_add(s->rs, rec);
}

/* ---- one trial ---------------------------------------------------------- */

static json_t *request(struct sched *s, struct tpoint *pt)
{
	const struct ptb_run_opts *o = s->rs->o;
	json_t *req = json_pack("{s:s, s:O, s:o, s:b}", "bench", s->jobs[pt->job].b->name,
				"params", pt->params, "limits", ptb_limits_json(&o->limits),
				"quick", o->quick);
	ptb_layout_request(req, o->layout, ptb_layout_draw(&pt->deck, &s->layout_rng));
	return req;
}

static void keep_estimate(struct tpoint *pt, double x, int round)
{
	if (pt->n == pt->cap) {
		int cap = ptb_next_cap(pt->cap, 16);
		if (cap < 0)
			return;
		double *e = ptb_array_realloc(pt->est, (size_t)cap, sizeof *e);
		if (e)
			pt->est = e;
		int *r = ptb_array_realloc(pt->est_round, (size_t)cap, sizeof *r);
		if (r)
			pt->est_round = r;
		if (!e || !r)
			return;
		pt->cap = cap;
	}
	pt->est_round[pt->n] = round;
	pt->est[pt->n++] = x;
}

/* A trial's record joins the point; its status may end the point. */
static void take_trial(struct tpoint *pt, json_t *rec, int round, int seq)
{
	const char *st = json_string_value(json_object_get(rec, "status"));
	double mean = json_number_value(json_object_get(rec, "mean"));
	ptb_trial_trim(rec, round);
	json_object_set_new(rec, "seq", json_integer(seq));
	json_array_append_new(pt->trials, rec);
	pt->lost_in_row = 0;
	if (st && (!strcmp(st, "ok") || !strcmp(st, "unstable")) && isfinite(mean)) {
		keep_estimate(pt, mean, round);
		return;
	}
	/* na and error come from the benchmark or the machine: the next trial
	 * would say the same. */
	pt->fail_status = st && !strcmp(st, "na") ? PTB_NA : PTB_ERROR;
	snprintf(pt->fail_reason, sizeof pt->fail_reason, "%s",
		 json_string_value(json_object_get(rec, "reason")) ?: "the trial failed");
}

static void lose_trial(struct tpoint *pt, const char *why, int round, int seq, bool timeout)
{
	json_t *t = ptb_lost_trial(timeout ? PTB_TIMEOUT : PTB_CRASHED, why, round);
	json_object_set_new(t, "seq", json_integer(seq));
	json_array_append_new(pt->trials, t);
	if (++pt->lost_in_row >= FAILURES_IN_ROW) {
		pt->fail_status = timeout ? PTB_TIMEOUT : PTB_CRASHED;
		snprintf(pt->fail_reason, sizeof pt->fail_reason, "%d trials in a row lost: %s",
			 FAILURES_IN_ROW, why);
	}
}

/* The system refused the trial a process: the next trial would most
 * likely be refused too, and a refusal is no crash of the benchmark. */
static void refuse_trial(struct tpoint *pt, const char *why, int round, int seq)
{
	json_t *t = ptb_lost_trial(PTB_ERROR, why, round);
	json_object_set_new(t, "seq", json_integer(seq));
	json_array_append_new(pt->trials, t);
	pt->fail_status = PTB_ERROR;
	snprintf(pt->fail_reason, sizeof pt->fail_reason, "%s", why);
}

static void run_trial(struct sched *s, struct tpoint *pt)
{
	const struct ptb_run_opts *o = s->rs->o;
	char why[200];
	json_t *answer = NULL;
	enum ptb_trial_outcome out = PTB_TRIAL_FAILED;
	double t0 = ptb_now_s();

	ptb_progress_trial(s->rs->done, s->round, s->jobs[pt->job].b->name, pt->params);
	if (s->worker.pid || ptb_worker_start(&s->worker, &s->side, why, sizeof why) == 0) {
		json_t *req = request(s, pt);
		out = ptb_worker_trial(&s->worker, req, o->timeout_s, &answer, why, sizeof why);
		json_decref(req);
	} else {
		out = PTB_TRIAL_REFUSED;
	}
	pt->spent_s += ptb_now_s() - t0;
	s->spent_s += ptb_now_s() - t0;
	if (out == PTB_TRIAL_INTERRUPTED)
		return;
	s->seq++;
	if (out == PTB_TRIAL_DONE)
		take_trial(pt, answer, s->round, s->seq);
	else if (out == PTB_TRIAL_REFUSED)
		refuse_trial(pt, why, s->round, s->seq);
	else
		lose_trial(pt, why, s->round, s->seq, out == PTB_TRIAL_TIMEOUT);

	struct ptb_trials_summary sum;
	ptb_trials_summarize(pt->est, pt->n, &sum);
	ptb_trials_widen(&sum, drift_pct(s));
	const char *stop = pt->fail_status != PTB_OK ? "failed" : stop_reason(s, pt, &sum);
	if (stop)
		finish(s, pt, stop);
}

/* ---- rounds ------------------------------------------------------------- */

/* The unfinished points in this round's random order; how many. */
static int round_order(struct sched *s, int **order)
{
	int n = 0;
	if (!(*order = ptb_array_realloc(NULL, (size_t)s->npts, sizeof **order)))
		return 0;
	for (int i = 0; i < s->npts; i++)
		if (!s->pts[i].finished)
			(*order)[n++] = i;
	ptb_rng_shuffle(&s->rng, *order, n);
	return n;
}

/* Once the budget is spent, every point with its minimum of trials stops
 * where it is; the others go on to their minimum. */
static void stop_spent(struct sched *s)
{
	for (int i = 0; i < s->npts && budget_spent(s); i++) {
		struct tpoint *pt = &s->pts[i];
		if (!pt->finished && pt->n >= s->rs->o->min_trials)
			finish(s, pt, "budget");
	}
}

static void run_round(struct sched *s)
{
	int *order, n;
	stop_spent(s);
	n = round_order(s, &order);
	s->round++;
	/* A caller that starts the rounds (ptbench-mpi) and has gone ends
	 * the run as an interrupt would: what finished is kept. */
	if (!ptb_gate_enter(s->rs->o->gate_fd, s->round))
		ptb_run_interrupted = 1;
	for (int k = 0; k < n && !ptb_run_interrupted; k++)
		run_trial(s, &s->pts[order[k]]);
	free(order);
	/* A fresh process for every round: per-process state (addresses,
	 * page placement, the allocator's history) varies between trials as
	 * it does between runs. */
	ptb_worker_stop(&s->worker);
	ptb_gate_leave(s->rs->o->gate_fd, s->round);
}

/* After an interrupt, a point with trials keeps them and says so. */
static void keep_partial(struct sched *s)
{
	for (int i = 0; i < s->npts; i++) {
		struct tpoint *pt = &s->pts[i];
		if (pt->finished || json_array_size(pt->trials) == 0)
			continue;
		snprintf(pt->fail_reason, sizeof pt->fail_reason, "interrupted after %d trial%s",
			 pt->n, pt->n == 1 ? "" : "s");
		finish(s, pt, "interrupted");
	}
}

static bool any_unfinished(const struct sched *s)
{
	for (int i = 0; i < s->npts; i++)
		if (!s->pts[i].finished)
			return true;
	return false;
}

void ptb_schedule_run(struct ptb_run_state *rs, struct ptb_job *jobs, int njobs,
		      const struct ptb_side *side)
{
	struct sched s = { .rs = rs, .jobs = jobs, .njobs = njobs, .side = *side };
	if (!(s.sweeps = calloc((size_t)njobs + 1, sizeof *s.sweeps)))
		return;
	for (int j = 0; j < njobs; j++)
		s.sweeps[j] = jobs[j].b ? ptb_job_sweep(&jobs[j]) : NULL;
	ptb_rng_seed(&s.rng, rs->o->seed);
	ptb_rng_seed(&s.layout_rng, rs->o->seed ^ 0x6c61796f7574ULL);
	for (collect(&s); any_unfinished(&s) && !ptb_run_interrupted; collect(&s))
		run_round(&s);
	ptb_worker_stop(&s.worker);
	ptb_gate_end(rs->o->gate_fd);
	if (ptb_run_interrupted)
		keep_partial(&s);
	for (int i = 0; i < s.npts; i++) {
		json_decref(s.pts[i].params);
		json_decref(s.pts[i].trials);
		free(s.pts[i].est);
		free(s.pts[i].est_round);
	}
	for (int j = 0; j < njobs; j++)
		ptb_sweep_free(s.sweeps[j]);
	free(s.sweeps);
	free(s.pts);
}
