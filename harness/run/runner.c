/* SPDX-License-Identifier: MIT */
/*
 * Running a suite (docs/design.md, section 3).  The runner selects the
 * benchmarks and checks every input before anything runs, so bad input
 * never leaves a file behind.  Then every point is measured as trials in
 * worker processes, interleaved in randomized rounds (schedule.c); every
 * finished point is appended to the run and the result file rewritten
 * atomically, so a hang, a crash or an interrupt loses nothing that
 * finished.  At the end the derived records follow the measured ones and
 * a reporter prints the run.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "machine/context.h"
#include "machine/system.h"
#include "record/levels.h"
#include "record/logp.h"
#include "record/matrix.h"
#include "record/model.h"
#include "record/runfile.h"
#include "record/target.h"
#include "run/disturb.h"
#include "run/runner.h"
#include "run/suite.h"
#include "run/worker.h"
#include "text/text.h"

volatile sig_atomic_t ptb_run_interrupted;

static void on_signal(int sig)
{
	(void)sig;
	ptb_run_interrupted = 1;
}

double ptb_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The default file name: ptbench-HOST-YYYYMMDDTHHMMSSZ.json. */
static void default_path(const struct ptb_system *sys, char *buf, size_t len)
{
	char stamp[32];
	time_t t = time(NULL);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", gmtime(&t));
	snprintf(buf, len, "ptbench-%s-%s.json", sys->sys.host, stamp);
}

/* The result file's path is checked before a run starts, and what a
 * killed run left beside it is cleaned up (record/target.h). */
static int check_out_path(const char *path, char *err, size_t errlen)
{
	if (ptb_run_check_target(path, err, errlen) < 0)
		return -1;
	ptb_run_clean_stale(path);
	return 0;
}

int ptb_run_check_output(const char *path, char *err, size_t errlen)
{
	return check_out_path(path, err, errlen);
}

/* The context's "harness" object: how a trial measures and how trials
 * make a point. */
static json_t *trials_json(const struct ptb_run_opts *o)
{
	json_t *h = ptb_limits_json(&o->limits);
	json_t *t = json_pack("{s:i, s:f, s:f, s:f, s:I, s:s}", "min_trials", o->min_trials,
			      "target_pct", o->target_pct, "point_budget_s", o->point_budget_s,
			      "timeout_s", o->timeout_s, "seed", (json_int_t)o->seed,
			      "ci", "order statistics of the trials' median");
	if (o->trials > 0)
		json_object_set_new(t, "trials", json_integer(o->trials));
	if (o->run_budget_s > 0)
		json_object_set_new(t, "run_budget_s", json_real(o->run_budget_s));
	json_object_set_new(h, "trials", t);
	json_object_set_new(h, "layout", ptb_layout_context(o->layout));
	return h;
}

static void save(struct ptb_run_state *rs)
{
	char err[512];
	if (ptb_run_write_atomic(rs->run, rs->path, err, sizeof err) < 0) {
		if (!rs->save_failed)
			fprintf(stderr, "ptbench: %s\n", err);
		rs->save_failed = true;
	}
}

void ptb_run_add(struct ptb_run_state *rs, json_t *rec)
{
	const char *st = json_string_value(json_object_get(rec, "status"));
	rs->done++;
	if (st && (!strcmp(st, "timeout") || !strcmp(st, "crashed") || !strcmp(st, "error")))
		rs->failed++;
	ptb_progress_done(rs->done, rec);
	json_array_append_new(json_object_get(rs->run, "results"), rec);
	save(rs);
}

void ptb_run_install_signals(void)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = on_signal;   /* no SA_RESTART: poll must return */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);    /* a dead child's pipe is an error, not a signal */
}

/* The derived records (LogP, cache levels, matrices) follow the measured ones. */
static void derive(json_t *run)
{
	struct ptb_runfile *model = ptb_runfile_of(run, NULL, 0);
	json_t *logp = model ? ptb_logp_derive(model) : NULL;
	json_t *levels = model ? ptb_levels_derive(model) : NULL;
	json_t *matrix = model ? ptb_matrix_derive(model) : NULL;
	json_array_extend(json_object_get(run, "results"), logp);
	json_array_extend(json_object_get(run, "results"), levels);
	json_array_extend(json_object_get(run, "results"), matrix);
	json_decref(logp);
	json_decref(levels);
	json_decref(matrix);
	ptb_runfile_free(model);
}

static void finish(struct ptb_run_state *rs)
{
	derive(rs->run);
	ptb_run_disturbance_warning(rs->run);
	json_object_set_new(rs->run, "status",
			    json_string(ptb_run_interrupted ? "interrupted" : "complete"));
	save(rs);
	ptb_progress_end();
}

static int suite_exit_status(const struct ptb_run_state *rs)
{
	if (ptb_run_interrupted)
		return 130;
	return rs->failed || rs->save_failed ? 1 : 0;
}

/* The run proper, once its inputs are checked and the machine known:
 * the run document first (a full disk refuses the run now, not after
 * it: an empty test file still fits), then the trials, the derived
 * records and the report. */
static int measure_suite(const struct ptb_run_opts *o, const struct ptb_system *sys,
			 struct ptb_job *jobs, int n, const char *path)
{
	char err[512];
	struct ptb_run_state rs = { o, ptb_run_new(ptb_context_json(sys, trials_json(o),
								   o->command)),
				path, 0, 0, false };
	struct ptb_side side = { "", o->program, NULL };
	if (ptb_run_write_atomic(rs.run, path, err, sizeof err) < 0) {
		fprintf(stderr, "ptbench: cannot save the run: %s\n", err);
		json_decref(rs.run);
		return 2;
	}
	ptb_schedule_run(&rs, jobs, n, &side);
	finish(&rs);
	struct ptb_runfile *model = ptb_runfile_of(rs.run, err, sizeof err);
	if (model)
		ptb_report(stdout, model, o->format);
	ptb_runfile_free(model);
	fflush(stdout);
	if (rs.save_failed)
		fprintf(stderr, "ptbench: %d results NOT saved: %s could not be written\n",
			rs.done, path);
	else
		fprintf(stderr, "ptbench: %d results %s in %s\n", rs.done,
			ptb_run_interrupted ? "(interrupted)" : "saved", path);
	json_decref(rs.run);
	return suite_exit_status(&rs);
}

int ptb_run_suite(const struct ptb_run_opts *o)
{
	static struct ptb_job jobs[PTB_MAX_SELECTED];
	struct ptb_system sys;
	char err[512] = "", path[4096];
	int rc = 2;
	/* From here on a signal ends the run in order: the lock that the
	 * check of -o takes is released at exit, not left by a default
	 * death (record/target.h). */
	ptb_run_install_signals();
	int n = ptb_select_benches(o, jobs, err, sizeof err);

	if (n < 0 || ptb_check_inputs(o, jobs, n, err, sizeof err) < 0 ||
	    (o->out_path && check_out_path(o->out_path, err, sizeof err) < 0)) {
		fprintf(stderr, "ptbench: %s\n", err);
		goto out;
	}
	if (ptb_system_init(&sys, err, sizeof err) < 0) {
		fprintf(stderr, "ptbench: %s\n", err);
		rc = 1;
		goto out;
	}
	for (int i = 0; i < n; i++)
		jobs[i].sys = &sys;
	if (o->out_path)
		snprintf(path, sizeof path, "%s", o->out_path);
	else if (default_path(&sys, path, sizeof path), check_out_path(path, err, sizeof err) < 0)
		fprintf(stderr, "ptbench: %s\n", err);
	if (o->out_path || !err[0])
		rc = ptb_run_interrupted ? 130       /* before anything was measured */
		   : measure_suite(o, &sys, jobs, n, path);
	ptb_system_fini(&sys);
out:
	for (int i = 0; i < n; i++)
		ptb_assign_free(jobs[i].set);
	return rc;
}
