/* SPDX-License-Identifier: MIT */
/*
 * The measurement of one data point (docs/design.md, "The harness").  The clock only
 * resolves times much longer than one pthread call, so the action is timed
 * n times per timing: n starts at 1 and doubles while a timing is shorter
 * than 10 % of the minimum timing, then jumps by 1.4 x min / elapsed (aiming
 * 40 % past the minimum so that one more step is rarely needed) until a
 * timing reaches the minimum.  One timing at the final n is discarded as
 * a warm-up (growth resumes if it is below half the minimum: the timing
 * that ended the growth was disturbed), then timings are kept until the
 * stopping rule holds after at least min_timings, or max_timings are
 * kept, or the point's budget -- counted from the start of the point,
 * growth included -- is spent.  The budget is a hard limit except that at
 * least two timings are always kept, so that every measured point has a
 * standard deviation; a very slow action can therefore overrun the
 * budget by the warm-up and two timings.
 */
#include <math.h>
#include <stdlib.h>

#include "engine/measure.h"

#define MIN_KEPT 2
/* n never exceeds this: doubling stays clear of overflow, and a timer that
 * keeps answering 0 ns (a broken clock) still ends the growth. */
#define MAX_ITERATIONS ((uint64_t)1 << 62)

void ptb_limits_default(struct ptb_limits *l)
{
	l->rule = PTB_STOP_SD;
	l->max_sd_pct = 2;
	l->min_timings = 8;
	l->max_timings = 100;
	l->budget_s = 2;
	l->target_s = 1e-3;
}

json_t *ptb_limits_json(const struct ptb_limits *l)
{
	return json_pack("{s:s, s:f, s:i, s:i, s:f, s:f}",
		"stop", ptb_stop_rule_name(l->rule), "max_sd_pct", l->max_sd_pct,
		"min_timings", l->min_timings, "max_timings", l->max_timings,
		"budget_s", l->budget_s, "target_s", l->target_s);
}

int ptb_limits_from_json(struct ptb_limits *l, const json_t *j)
{
	const char *rule = NULL;
	ptb_limits_default(l);
	if (json_unpack((json_t *)j, "{s?s, s?F, s?i, s?i, s?F, s?F}", "stop", &rule,
			"max_sd_pct", &l->max_sd_pct, "min_timings", &l->min_timings,
			"max_timings", &l->max_timings, "budget_s", &l->budget_s,
			"target_s", &l->target_s) < 0)
		return -1;
	if (rule) {
		int r = ptb_stop_rule_from_name(rule);
		if (r < 0)
			return -1;
		l->rule = r;
	}
	return l->min_timings >= 2 && l->max_timings >= 2 && l->budget_s > 0 &&
	       l->max_sd_pct > 0 ? 0 : -1;
}

double ptb_min_timing_ns(const struct ptb_limits *l, const struct ptb_timer *t)
{
	double ns = (l->target_s > 0 ? l->target_s : 1e-3) * 1e9;
	if (ns < 1000 * t->overhead_ns)
		ns = 1000 * t->overhead_ns;
	if (ns < 100 * t->resolution_ns)
		ns = 100 * t->resolution_ns;
	return ns;
}

static bool budget_spent(const struct ptb_limits *l, const struct ptb_timer *t, double t0)
{
	return t->now(t->ctx) - t0 >= l->budget_s;
}

static uint64_t next_iterations(uint64_t n, double elapsed, double min)
{
	if (elapsed < 0.1 * min)
		return n <= MAX_ITERATIONS / 2 ? 2 * n : MAX_ITERATIONS;
	double next = ceil(n * 1.4 * min / elapsed);
	return next < (double)MAX_ITERATIONS ? (uint64_t)next : MAX_ITERATIONS;
}

/* Growth from n, within the budget of a point that started at t0; when
 * the budget is spent, the largest n tried. */
static uint64_t grow(const struct ptb_limits *l, const struct ptb_timer *t, double t0,
		     uint64_t n)
{
	double min = ptb_min_timing_ns(l, t);
	for (;;) {
		double elapsed = t->time(t->ctx, n);
		if (elapsed >= min || n == MAX_ITERATIONS || budget_spent(l, t, t0))
			return n;
		n = next_iterations(n, elapsed, min);
	}
}

uint64_t ptb_grow_iterations(const struct ptb_limits *l, const struct ptb_timer *t)
{
	return grow(l, t, t->now(t->ctx), 1);
}

const char *ptb_stop_why_name(enum ptb_stop_why w, enum ptb_stop_rule rule)
{
	switch (w) {
	case PTB_STOPPED_RULE:        return ptb_stop_rule_name(rule);
	case PTB_STOPPED_MAX_TIMINGS: return "max_timings";
	case PTB_STOPPED_BUDGET:      return "budget";
	}
	return "?";
}

/*
 * Growth, then one discarded warm-up timing at the final n.  The warm-up
 * also checks the growth: one disturbed timing (a preemption) can end the
 * growth far too early, and then the warm-up is much shorter than the
 * minimum; growth resumes from there and the new n gets its own warm-up.
 */
static uint64_t warm_up(const struct ptb_limits *l, const struct ptb_timer *t, double t0)
{
	double min = ptb_min_timing_ns(l, t);
	uint64_t n = grow(l, t, t0, 1);
	for (;;) {
		double elapsed = t->time(t->ctx, n);
		if (elapsed >= min / 2 || n == MAX_ITERATIONS || budget_spent(l, t, t0))
			return n;
		n = grow(l, t, t0, next_iterations(n, elapsed, min));
	}
}

/* Why to stop after `kept` timings, or -1 to go on. */
static int stop_now(const struct ptb_limits *l, const struct ptb_timer *t, double t0,
		    int kept, int max_kept, const struct ptb_stats *s)
{
	if (kept >= l->min_timings && ptb_stop_rule_met(l->rule, s, l->max_sd_pct))
		return PTB_STOPPED_RULE;
	if (kept >= max_kept)
		return PTB_STOPPED_MAX_TIMINGS;
	if (kept >= MIN_KEPT && budget_spent(l, t, t0))
		return PTB_STOPPED_BUDGET;
	return -1;
}

int ptb_measure(const struct ptb_limits *l, const struct ptb_timer *t,
		double divisor, struct ptb_measurement *m)
{
	int max_kept = l->max_timings > MIN_KEPT ? l->max_timings : MIN_KEPT;
	double t0 = t->now(t->ctx);
	int why = -1;

	*m = (struct ptb_measurement){ 0 };
	m->samples = malloc(max_kept * sizeof *m->samples);
	if (!m->samples)
		return -1;
	if (divisor <= 0)
		divisor = 1;
	m->iterations = warm_up(l, t, t0);
	while (why < 0) {
		double elapsed = t->time(t->ctx, m->iterations);
		m->samples[m->timings++] = elapsed / ((double)m->iterations * divisor);
		ptb_stats_compute(m->samples, m->timings, &m->stats);
		why = stop_now(l, t, t0, m->timings, max_kept, &m->stats);
	}
	m->stop = why;
	return 0;
}

void ptb_measurement_free(struct ptb_measurement *m)
{
	free(m->samples);
	m->samples = NULL;
}
