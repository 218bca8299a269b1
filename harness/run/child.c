/* SPDX-License-Identifier: MIT */
/*
 * The process that measures one benchmark, forked by the runner: it walks
 * the benchmark's points and for each one announces it, measures it
 * (engine/), and sends its record to the parent as one JSON line, then
 * waits until the parent has saved it before the next point starts -- so
 * the parent's writing never overlaps a measurement.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/measure.h"
#include "engine/place.h"
#include "engine/sweep.h"
#include "run/record.h"
#include "run/suite.h"

struct bench_timer {
	struct ptb_point *p;
	const struct ptb_clock *clk;
};

static double time_point(void *ctx, uint64_t n)
{
	struct bench_timer *bt = ctx;
	struct ptb_point *p = bt->p;
	ptb_clients_release(p, n);
	uint64_t t0 = ptb_ticks();
	p->bench->run(p, n);
	uint64_t t1 = ptb_ticks();
	ptb_clients_wait(p);
	if (p->bench->check)
		p->bench->check(p, n);
	return ptb_ticks_to_ns(bt->clk, ptb_ticks_elapsed(t0, t1));
}

static double timer_now(void *ctx)
{
	(void)ctx;
	return ptb_now_s();
}

static struct ptb_limits point_limits(const struct ptb_run_opts *o, const struct ptb_bench *b)
{
	struct ptb_limits l = o->limits;
	if (b->target_s > l.target_s)
		l.target_s = o->quick ? b->target_s / 4 : b->target_s;
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

static json_t *measure_point(const struct ptb_run_opts *o, struct ptb_point *p)
{
	const struct ptb_bench *b = p->bench;
	struct ptb_limits l = point_limits(o, b);
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
	struct bench_timer bt = { p, &p->sys->clock };
	struct ptb_timer t = { time_point, timer_now, &bt,
			       p->sys->clock.overhead_ns, p->sys->clock.resolution_ns };
	int rc = ptb_measure(&l, &t, b->ops_per_iter > 0 ? b->ops_per_iter : 1, &m);
	ptb_clients_cancel(p);
	if (b->teardown)
		b->teardown(p);
	if (rc < 0)
		ptb_point_error(p, "out of memory while measuring");
	enum ptb_status st = rc < 0 ? PTB_ERROR : final_status(p, &m);
	json_t *rec = ptb_result_json(p, st, p->verdict != PTB_OK ? p->reason : NULL,
				      rc < 0 ? NULL : &m, l.rule);
	if (rc == 0)
		note_limits(rec, &l, &o->limits);
	ptb_measurement_free(&m);
	return rec;
}

json_t *ptb_params_json(const struct ptb_bench *b, const char *const *values)
{
	json_t *o = json_object();
	for (int i = 0; b->params && b->params[i].name; i++)
		json_object_set_new(o, b->params[i].name, json_string(values[i]));
	return o;
}

static void send_line(int fd, const char *key, json_t *val)
{
	json_t *msg = json_pack("{so}", key, val);
	char *s = json_dumps(msg, JSON_COMPACT | JSON_PRESERVE_ORDER);
	size_t len = strlen(s);
	s[len] = '\n';      /* json_dumps leaves room for the terminator only */
	for (size_t off = 0; off <= len;) {
		ssize_t w = write(fd, s + off, len + 1 - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			_exit(3);
		off += (size_t)w;
	}
	free(s);
	json_decref(msg);
}

/* The parent has saved the last result: the next point may start.  End of
 * file means the parent is gone, and so is the point of going on. */
static void await_go_ahead(int fd)
{
	char c;
	ssize_t r;
	while ((r = read(fd, &c, 1)) < 0 && errno == EINTR)
		;
	if (r != 1)
		_exit(0);
}

double ptb_record_mean(const json_t *rec)
{
	const char *st = json_string_value(json_object_get(rec, "status"));
	if (!st || (strcmp(st, "ok") && strcmp(st, "unstable")))
		return NAN;
	return json_number_value(json_object_get(rec, "mean"));
}

void ptb_child_main(const struct ptb_run_opts *o, const struct ptb_system *sys,
		       const struct ptb_job *job, int out, int in)
{
	const char *values[PTB_MAX_PARAMS] = { 0 };
	struct ptb_sweep *s = ptb_job_sweep(job);
	signal(SIGINT, SIG_IGN);   /* the parent decides what an interrupt means */
	signal(SIGTERM, SIG_DFL);
	while (s && ptb_sweep_next(s, values)) {
		struct ptb_point p = { .bench = job->b, .sys = sys };
		memcpy(p.value, values, sizeof p.value);
		send_line(out, "begin", ptb_params_json(job->b, values));
		json_t *rec = measure_point(o, &p);
		ptb_sweep_feed(s, ptb_record_mean(rec));
		send_line(out, "result", rec);
		await_go_ahead(in);
	}
	_exit(0);
}

