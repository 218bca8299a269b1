/* SPDX-License-Identifier: MIT */
/*
 * The measurement loop driven by a fake clock: each timing of n iterations
 * lasts n x (a per-iteration time from a script), and the fake `now` moves
 * on by exactly that much, so convergence, the limits, the warm-up and the
 * growth of n are checked deterministically and in microseconds of real
 * time.
 */
#include <string.h>

#include "engine/measure.h"
#include "tap.h"

struct fake {
	double base_ns;          /* per iteration while call < skip (growth) */
	int skip;
	const double *script;    /* per iteration from call `skip` on; the last repeats */
	int nscript;
	double (*fn)(uint64_t n);/* instead of the above when set */
	int spike_call;          /* this call lasts spike_ns instead, if set */
	double spike_ns;
	double now_s;
	int calls;
	uint64_t last_n;
};

static double fake_time(void *ctx, uint64_t n)
{
	struct fake *f = ctx;
	double per;
	int c = f->calls++ - f->skip;
	f->last_n = n;
	if (f->spike_ns > 0 && f->calls - 1 == f->spike_call) {
		f->now_s += f->spike_ns / 1e9;
		return f->spike_ns;
	}
	if (f->fn) {
		double e = f->fn(n);
		f->now_s += e / 1e9;
		return e;
	}
	if (c < 0 || !f->script)
		per = f->base_ns;
	else
		per = f->script[c < f->nscript ? c : f->nscript - 1];
	f->now_s += n * per / 1e9;
	return n * per;
}

static double fake_now(void *ctx)
{
	return ((struct fake *)ctx)->now_s;
}

static struct ptb_timer timer_of(struct fake *f)
{
	return (struct ptb_timer){ fake_time, fake_now, f, 20, 1 };
}

/* Calls the growth phase makes for a constant per-iteration time. */
static int growth_calls(const struct ptb_limits *l, double per_ns, uint64_t *n)
{
	struct fake f = { .base_ns = per_ns };
	struct ptb_timer t = timer_of(&f);
	*n = ptb_grow_iterations(l, &t);
	return f.calls;
}

static void defaults(void)
{
	struct ptb_limits l;
	ptb_limits_default(&l);
	tap_ok(l.rule == PTB_STOP_SD && l.max_sd_pct == 2 && l.min_timings == 8 &&
	       l.max_timings == 100 && l.budget_s == 2 && l.target_s == 1e-3,
	       "defaults: sd rule, 2 %%, 8..100 timings, 2 s, 1 ms");
}

static void growth(void)
{
	struct ptb_limits l;
	uint64_t n;
	ptb_limits_default(&l);
	int calls = growth_calls(&l, 7, &n);
	tap_ok(7.0 * n >= 1e6, "7 ns/iteration: a timing reaches 1 ms (n = %llu)",
	       (unsigned long long)n);
	tap_ok(7.0 * n < 3e6, "... and is not absurdly longer (%.2f ms)", 7.0 * n / 1e6);
	tap_ok(calls < 25, "... in few steps (%d)", calls);

	struct fake slow = { .base_ns = 2e6 };   /* 2 ms per iteration */
	struct ptb_timer t = timer_of(&slow);
	tap_ok(ptb_grow_iterations(&l, &t) == 1, "an action longer than the target: n = 1");

	struct fake zero = { .base_ns = 0 };     /* a clock that never moves */
	t = timer_of(&zero);
	n = ptb_grow_iterations(&l, &t);
	tap_ok(n >= (uint64_t)1 << 40 && zero.calls < 70,
	       "0-ns timings: growth still ends, without overflow (n = 2^%d, %d calls)",
	       __builtin_ctzll(n), zero.calls);

	/* 1 ms per iteration towards a 10 s target with a 2 s budget. */
	struct fake big = { .base_ns = 1e6 };
	struct ptb_limits lb = l;
	lb.target_s = 10;
	t = timer_of(&big);
	n = ptb_grow_iterations(&lb, &t);
	tap_ok(big.now_s < 5 && n <= 2048, "the budget stops a slow growth (n = %llu after %.2f s)",
	       (unsigned long long)n, big.now_s);
}

static double step_at_1000(uint64_t n)
{
	return n < 1000 ? 0 : 7.0 * n;   /* coarse clock: 0 below 1000 iterations */
}

static void growth_zero_then_linear(void)
{
	struct ptb_limits l;
	ptb_limits_default(&l);
	struct fake f = { .fn = step_at_1000 };
	struct ptb_timer t = timer_of(&f);
	uint64_t n = ptb_grow_iterations(&l, &t);
	tap_ok(7.0 * n >= 1e6 && 7.0 * n < 3e6, "0 ns below 1000 iterations, then 7 ns: n = %llu",
	       (unsigned long long)n);
}

static void min_timing(void)
{
	struct ptb_limits l;
	struct fake f = { .base_ns = 7 };
	struct ptb_timer t = timer_of(&f);
	ptb_limits_default(&l);
	t.overhead_ns = 20;
	t.resolution_ns = 1;
	tap_near(ptb_min_timing_ns(&l, &t), 1e6, 1e-6, "min timing: the 1 ms target");
	t.overhead_ns = 5000;
	tap_near(ptb_min_timing_ns(&l, &t), 5e6, 1e-6, "min timing: 1000 x a 5 us overhead");
	uint64_t n = ptb_grow_iterations(&l, &t);
	tap_ok(7.0 * n >= 5e6 && 7.0 * n < 15e6, "growth honours it (%.2f ms)", 7.0 * n / 1e6);
	t.resolution_ns = 1e5;
	tap_near(ptb_min_timing_ns(&l, &t), 1e7, 1e-6, "min timing: 100 x a 100 us resolution");
	l.target_s = 0.5;
	tap_near(ptb_min_timing_ns(&l, &t), 5e8, 1e-6, "min timing: a longer target wins");
}

static void converges(void)
{
	struct ptb_limits l;
	struct ptb_measurement m;
	ptb_limits_default(&l);
	struct fake f = { .base_ns = 7 };
	struct ptb_timer t = timer_of(&f);
	tap_ok(ptb_measure(&l, &t, 1, &m) == 0, "constant timings: measured");
	tap_ok(m.stop == PTB_STOPPED_RULE && m.timings == l.min_timings,
	       "... stops by the rule after exactly min_timings (%d kept)", m.timings);
	tap_ok(strcmp(ptb_stop_why_name(m.stop, l.rule), "sd") == 0, "... stop reason 'sd'");
	tap_near(m.stats.mean, 7, 1e-9, "... mean 7 ns");
	tap_ok(m.stats.n == m.timings && m.stats.sd == 0, "... stats over the kept samples");
	ptb_measurement_free(&m);

	f = (struct fake){ .base_ns = 7 };
	tap_ok(ptb_measure(&l, &t, 4, &m) == 0 && fabs(m.samples[0] - 7.0 / 4) < 1e-12,
	       "samples are elapsed / (n x divisor)");
	ptb_measurement_free(&m);

	l.rule = PTB_STOP_SE;
	f = (struct fake){ .base_ns = 7 };
	ptb_measure(&l, &t, 1, &m);
	tap_ok(m.stop == PTB_STOPPED_RULE && strcmp(ptb_stop_why_name(m.stop, l.rule), "se") == 0,
	       "se rule: stop reason 'se'");
	ptb_measurement_free(&m);
}

static void warmup_discarded(void)
{
	struct ptb_limits l;
	struct ptb_measurement m;
	uint64_t n;
	ptb_limits_default(&l);
	static const double script[] = { 7000, 7 };   /* the warm-up is 1000x slower */
	int g = growth_calls(&l, 7, &n);
	struct fake f = { .base_ns = 7, .skip = g, .script = script, .nscript = 2 };
	struct ptb_timer t = timer_of(&f);
	ptb_measure(&l, &t, 1, &m);
	int clean = 1;
	for (int i = 0; i < m.timings; i++)
		clean &= m.samples[i] == 7;
	tap_ok(m.iterations == n, "measure grows like ptb_grow_iterations (n = %llu)",
	       (unsigned long long)m.iterations);
	tap_ok(clean && m.stats.max == 7, "the slow first timing at the final n is discarded");
	tap_ok(m.stop == PTB_STOPPED_RULE && m.timings == 8, "... and the point converges");
	tap_ok(f.calls == g + 1 + 8, "growth + 1 warm-up + 8 timings (%d calls, growth %d)",
	       f.calls, g);
	ptb_measurement_free(&m);
}

static void disturbed_growth(void)
{
	struct ptb_limits l;
	struct ptb_measurement m;
	ptb_limits_default(&l);
	/* Call 5 (n = 32) is preempted for 2 ms: growth stops there, the
	 * warm-up at n = 32 takes 224 ns, and growth must resume. */
	struct fake f = { .base_ns = 7, .spike_call = 5, .spike_ns = 2e6 };
	struct ptb_timer t = timer_of(&f);
	ptb_measure(&l, &t, 1, &m);
	tap_ok(7.0 * m.iterations >= 1e6 && 7.0 * m.iterations < 3e6,
	       "a disturbed timing that ends growth early is caught by the warm-up (n = %llu)",
	       (unsigned long long)m.iterations);
	tap_ok(m.stop == PTB_STOPPED_RULE && m.stats.max == 7, "... and none of it is kept");
	ptb_measurement_free(&m);
}

static void hits_max(void)
{
	struct ptb_limits l;
	struct ptb_measurement m;
	uint64_t n;
	ptb_limits_default(&l);
	static double script[1 + 120];   /* warm-up, then 7, 9, 7, 9, ... */
	script[0] = 7;
	for (int i = 1; i <= 120; i++)
		script[i] = i % 2 ? 7 : 9;
	int g = growth_calls(&l, 7, &n);
	struct fake f = { .base_ns = 7, .skip = g, .script = script,
			  .nscript = sizeof script / sizeof script[0] };
	struct ptb_timer t = timer_of(&f);
	ptb_measure(&l, &t, 1, &m);
	tap_ok(m.stop == PTB_STOPPED_MAX_TIMINGS && m.timings == 100,
	       "alternating 7/9 ns (cv 12 %%): stops at max_timings (%d kept)", m.timings);
	tap_ok(strcmp(ptb_stop_why_name(m.stop, l.rule), "max_timings") == 0,
	       "... stop reason 'max_timings': the point is unstable");
	tap_near(m.stats.mean, 8, 1e-9, "... mean 8 over the kept timings");
	ptb_measurement_free(&m);

	/* The same noise with a loose rule converges. */
	l.max_sd_pct = 15;
	f = (struct fake){ .base_ns = 7, .skip = g, .script = script,
			   .nscript = sizeof script / sizeof script[0] };
	ptb_measure(&l, &t, 1, &m);
	tap_ok(m.stop == PTB_STOPPED_RULE && m.timings == 8, "... but holds a 15 %% rule at 8");
	ptb_measurement_free(&m);
}

static void hits_budget(void)
{
	struct ptb_limits l;
	struct ptb_measurement m;
	ptb_limits_default(&l);
	/* 0.5 s per iteration: growth 0.5 s, warm-up 1 s, then 1.5, 2.0: spent. */
	struct fake f = { .base_ns = 5e8 };
	struct ptb_timer t = timer_of(&f);
	ptb_measure(&l, &t, 1, &m);
	tap_ok(m.stop == PTB_STOPPED_BUDGET && m.timings == 2 && m.iterations == 1,
	       "0.5 s per action: the budget (counted from growth) ends it at 2 timings (%d)",
	       m.timings);
	tap_ok(strcmp(ptb_stop_why_name(m.stop, l.rule), "budget") == 0,
	       "... stop reason 'budget', though the timings agree");
	ptb_measurement_free(&m);

	/* 3 s per iteration: the budget is gone in growth, still 2 timings. */
	f = (struct fake){ .base_ns = 3e9 };
	ptb_measure(&l, &t, 1, &m);
	tap_ok(m.stop == PTB_STOPPED_BUDGET && m.timings == 2 && m.stats.n == 2,
	       "an action longer than the budget still gets 2 kept timings");
	ptb_measurement_free(&m);
}

static void unstable_logic(void)
{
	struct ptb_limits l;
	struct ptb_measurement m;
	ptb_limits_default(&l);
	struct fake f = { .base_ns = 7 };
	struct ptb_timer t = timer_of(&f);

	/* The rule holds from the 2nd timing but is not consulted before min. */
	l.min_timings = 8;
	l.max_timings = 5;
	ptb_measure(&l, &t, 1, &m);
	tap_ok(m.stop == PTB_STOPPED_MAX_TIMINGS && m.timings == 5,
	       "max_timings < min_timings: stops at max, not by the rule (unstable)");
	ptb_measurement_free(&m);

	l.max_timings = 8;
	f = (struct fake){ .base_ns = 7 };
	ptb_measure(&l, &t, 1, &m);
	tap_ok(m.stop == PTB_STOPPED_RULE && m.timings == 8,
	       "the rule holding at the last allowed timing counts as converged");
	ptb_measurement_free(&m);

	l.max_timings = 1;
	f = (struct fake){ .base_ns = 7 };
	ptb_measure(&l, &t, 1, &m);
	tap_ok(m.timings == 2, "at least 2 timings even when max_timings is 1");
	ptb_measurement_free(&m);
}

int main(void)
{
	defaults();
	growth();
	growth_zero_then_linear();
	min_timing();
	converges();
	warmup_discarded();
	disturbed_growth();
	hits_max();
	hits_budget();
	unstable_logic();
	tap_done();
	return tap_exit();
}
