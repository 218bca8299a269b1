/* SPDX-License-Identifier: MIT */
/*
 * The worker process (`ptbench worker`, exec'd by the runner): it reads one
 * trial request per line on stdin -- a benchmark, its variables and the
 * measurement's limits -- and answers with the trial's record as one JSON
 * line on stdout.  Each trial runs in a child forked for it, so it starts
 * from the worker's pristine single-threaded state (no thread, buffer or
 * binding of an earlier trial survives), and a trial that crashes costs
 * that trial alone.  Only the runner decides what comes next, so a trial
 * never overlaps another.
 */
#include "config.h"

#include <alloca.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/measure.h"
#include "engine/place.h"
#include "machine/system.h"
#include "platform/process.h"
#include "run/disturb.h"
#include "run/record.h"
#include "run/suite.h"
#include "run/worker.h"

struct bench_timer {
	struct ptb_point *p;
	const struct ptb_clock *clk;
	double ref_unit_ns;     /* the reference's least time per unit so far; 0: none */
};

/* The reference of a benchmark measured as EPCC's syncbench measures
 * (harness/ptbench.h): timed right after run() with the same n, so the two
 * share the trial's machine; its time per unit is noted on the point.
 * What is taken off is ptb_reference_unit's (worker.h). */
static double time_reference(struct bench_timer *bt, uint64_t n)
{
	struct ptb_point *p = bt->p;
	uint64_t t0 = ptb_ticks();
	p->bench->reference(p, n);
	uint64_t t1 = ptb_ticks();
	double ns = ptb_ticks_to_ns(bt->clk, ptb_ticks_elapsed(t0, t1));
	double ops = p->bench->ops_per_iter > 0 ? p->bench->ops_per_iter : 1;
	double units = (double)n * ops;
	double unit = ptb_reference_unit(&bt->ref_unit_ns, ns / units,
					 ns >= 1000 * bt->clk->resolution_ns);
	ptb_point_note(p, "reference_ns", unit);
	return unit * units;
}

/* A reference over REF_SLACK times the least of the trial's so far was
 * interrupted (its work is fixed).  Under load one reference timing took
 * 18 us a unit against 67 ns, which made its timing a large negative.  The
 * slack is wide: a reference's usual spread within a trial is a few per
 * cent, and clipping that would lose the pairing that cancels a change of
 * clock speed (taking the least off every timing moved the usual ones by
 * 0.5 ns, 0.7 % of the reference). */
#define REF_SLACK 1.5

double ptb_reference_unit(double *least, double unit, bool resolved)
{
	if (resolved && (!(*least > 0) || unit < *least))
		*least = unit;
	return *least > 0 && unit > REF_SLACK * *least ? *least : unit;
}

static double time_point(void *ctx, uint64_t n)
{
	struct bench_timer *bt = ctx;
	struct ptb_point *p = bt->p;
	ptb_clients_release(p, n);
	uint64_t t0 = ptb_ticks();
	p->bench->run(p, n);
	uint64_t t1 = ptb_ticks();
	ptb_clients_wait(p);
	double ns = ptb_ticks_to_ns(bt->clk, ptb_ticks_elapsed(t0, t1));
	if (p->bench->reference)
		ns -= time_reference(bt, n);
	if (p->bench->check)
		p->bench->check(p, n);
	/* An error or na verdict ends the point: no more timings of an
	 * action that failed (engine/measure.c). */
	if (p->verdict == PTB_ERROR || p->verdict == PTB_NA)
		return NAN;
	return ns;
}

static double timer_now(void *ctx)
{
	(void)ctx;
	return ptb_now_s();
}

static struct ptb_limits point_limits(const struct ptb_limits *run, bool quick,
				       const struct ptb_bench *b)
{
	struct ptb_limits l = *run;
	if (b->target_s > l.target_s)
		l.target_s = quick ? b->target_s / 4 : b->target_s;
	/* A benchmark that needs long timings gets the budget for its minimum
	 * number of timings rather than being cut short by the default. */
	double need = (l.min_timings + 2) * l.target_s * 1.5;
	if (l.budget_s < need)
		l.budget_s = need;
	return l;
}

static enum ptb_status final_status(const struct ptb_point *p, const struct ptb_measurement *m)
{
	if (p->verdict != PTB_OK)
		return p->verdict;
	return m->stop == PTB_STOPPED_RULE ? PTB_OK : PTB_UNSTABLE;
}

/* The limits a point really ran under, when a benchmark's needs changed
 * them from the run's (recorded in the context). */
static void note_limits(json_t *rec, const struct ptb_limits *l, const struct ptb_limits *run)
{
	if (l->target_s != run->target_s || l->budget_s != run->budget_s)
		json_object_set_new(rec, "limits", json_pack("{s:f,s:f}", "target_s", l->target_s,
							     "budget_s", l->budget_s));
}

static json_t *measure_point(const struct ptb_limits *run, bool quick, struct ptb_point *p)
{
	const struct ptb_bench *b = p->bench;
	struct ptb_limits l = point_limits(run, quick, b);
	struct ptb_measurement m = { 0 };
	const char *why = b->unsupported ? b->unsupported(p->sys) : NULL;

	if (why)
		ptb_point_na(p, "%s", why);
	if (why || ptb_point_place(p) < 0 || b->setup(p) < 0) {
		if (p->verdict == PTB_OK)
			ptb_point_error(p, "setup failed without a reason");
		ptb_clients_cancel(p);
		return ptb_result_json(p, p->verdict, p->reason, NULL, l.rule);
	}
	struct bench_timer bt = { p, &p->sys->clock, 0 };
	struct ptb_timer t = { time_point, timer_now, &bt,
			       p->sys->clock.overhead_ns, p->sys->clock.resolution_ns };
	struct ptb_trial_load load;
	ptb_trial_load_start(&load, p);
	int rc = ptb_measure(&l, &t, b->ops_per_iter > 0 ? b->ops_per_iter : 1, &m);
	json_t *disturbance = json_object();
	ptb_trial_load_end(&load, disturbance);
	ptb_clients_cancel(p);
	if (b->teardown)
		b->teardown(p);
	if (rc < 0)
		ptb_point_error(p, "out of memory while measuring");
	enum ptb_status st = rc < 0 ? PTB_ERROR : final_status(p, &m);
	bool measured = rc == 0 && m.stop != PTB_STOPPED_FAILED;
	json_t *rec = ptb_result_json(p, st, p->verdict != PTB_OK ? p->reason : NULL,
				      measured ? &m : NULL, l.rule);
	if (rc == 0)
		note_limits(rec, &l, run);
	json_object_update(rec, disturbance);
	json_decref(disturbance);
	ptb_measurement_free(&m);
	return rec;
}

/* The variables of the request, indexed like b->params; unnamed ones
 * stay NULL (the benchmark's helpers then see no value). */
static int request_values(const struct ptb_bench *b, const json_t *params,
			  const char *values[PTB_MAX_PARAMS])
{
	for (int i = 0; i < PTB_MAX_PARAMS; i++)
		values[i] = NULL;
	for (int i = 0; b->params && b->params[i].name && i < PTB_MAX_PARAMS; i++)
		values[i] = json_string_value(json_object_get(params, b->params[i].name));
	return 0;
}

/* The point measured below a stack moved down by `offset` bytes: where
 * the measured loop's locals fall relative to cache lines and 4 KiB
 * aliasing is part of the trial's layout (docs/design.md section 17). */
static __attribute__((noinline)) json_t *measure_below(const struct ptb_limits *l, bool quick,
							struct ptb_point *p, size_t offset)
{
	volatile char *pad = alloca(offset + 1);
	pad[0] = 0;
	return measure_point(l, quick, p);
}

/* The layout a request asks for: a copy of the benchmark's code
 * (0 .. PTB_LAYOUT_COUNT-1) and a stack offset; -1 and 0 without. */
static int request_layout(const json_t *req, size_t *stack_offset)
{
	json_int_t k = json_integer_value(json_object_get(req, "layout"));
	json_int_t off = json_integer_value(json_object_get(req, "stack_offset"));
	*stack_offset = off > 0 && off <= PTB_STACK_OFFSET_MAX ? (size_t)off : 0;
	return json_is_integer(json_object_get(req, "layout")) && k >= 0 &&
	       k < PTB_LAYOUT_COUNT ? (int)k : -1;
}

static json_t *run_trial(const struct ptb_system *sys, const json_t *req, char *err,
			 size_t errlen)
{
	const char *name = json_string_value(json_object_get(req, "bench"));
	const struct ptb_bench *b = ptb_bench_find(name);
	struct ptb_limits l;
	size_t stack_offset;
	if (!b) {
		snprintf(err, errlen, "no benchmark named '%s'", name ? name : "(none)");
		return NULL;
	}
	if (ptb_limits_from_json(&l, json_object_get(req, "limits")) < 0) {
		snprintf(err, errlen, "malformed limits");
		return NULL;
	}
	int layout = request_layout(req, &stack_offset);
	const struct ptb_bench *copy = ptb_bench_in_layout(b, layout);
	struct ptb_point p = { .bench = copy, .sys = sys };
	request_values(copy, json_object_get(req, "params"), p.value);
	double t0 = ptb_now_s();
	json_t *rec = measure_below(&l, json_is_true(json_object_get(req, "quick")), &p,
				    stack_offset);
	/* The layout the trial really ran in: a benchmark without copies
	 * (a test's) ran in the build's own. */
	if (copy != b)
		json_object_set_new(rec, "layout", json_pack("{s:i, s:I}", "code", layout,
							     "stack", (json_int_t)stack_offset));
	json_object_set_new(rec, "worker", json_integer(getpid()));
	json_object_set_new(rec, "elapsed_s", json_real(ptb_now_s() - t0));
	return rec;
}

static int answer(FILE *out, const char *key, json_t *val)
{
	json_t *msg = json_pack("{so}", key, val);
	int rc = json_dumpf(msg, out, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(msg);
	if (rc < 0 || fputc('\n', out) == EOF || fflush(out) == EOF)
		return -1;
	return 0;
}

/* Wait for a trial's process; NULL when it answered, else why not. */
static const char *trial_ended(pid_t pid, char *why, size_t len)
{
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(why, len, "waiting for trial process %d: %s", (int)pid,
				 strerror(errno));
			return why;
		}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return NULL;
	if (WIFSIGNALED(status))
		snprintf(why, len, "trial process %d killed by signal %d (%s)", (int)pid,
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(why, len, "trial process %d exited with status %d", (int)pid,
			 WEXITSTATUS(status));
	return why;
}

/* One request, measured in a child of its own. */
static int serve(const struct ptb_system *sys, const json_t *req, FILE *out)
{
	char err[512];
	fflush(out);
	pid_t pid = fork();
	if (pid == 0) {
		ptb_die_with_parent();
		json_t *rec = run_trial(sys, req, err, sizeof err);
		int rc = rec ? answer(out, "trial", rec) : answer(out, "error", json_string(err));
		_exit(rc < 0 ? 3 : 0);
	}
	if (pid < 0) {
		ptb_fork_refused(err, sizeof err, "fork a trial process", errno);
		return answer(out, "refused", json_string(err));
	}
	const char *why = trial_ended(pid, err, sizeof err);
	return why ? answer(out, "lost", json_string(why)) : 0;
}

int ptb_worker_main(FILE *in, FILE *out)
{
	struct ptb_system sys;
	char err[512], *line = NULL;
	size_t cap = 0;
	/* The runner decides what an interrupt means; a runner that dies
	 * takes its worker with it. */
	signal(SIGINT, SIG_IGN);
	ptb_die_with_parent();
	if (ptb_system_init(&sys, err, sizeof err) < 0) {
		answer(out, "error", json_string(err));
		return 1;
	}
	while (getline(&line, &cap, in) > 0) {
		json_t *req = json_loads(line, 0, NULL);
		int rc = req ? serve(&sys, req, out)
			     : answer(out, "error", json_string("malformed request"));
		json_decref(req);
		if (rc < 0 || !req)
			break;
	}
	free(line);
	ptb_system_fini(&sys);
	return 0;
}
