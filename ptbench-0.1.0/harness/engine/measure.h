/* SPDX-License-Identifier: MIT */
/*
 * The measurement of one data point, SKaMPI-style: grow the iterations per
 * timing until a timing is long enough for the clock, discard a warm-up
 * timing, then repeat timings until the stopping rule holds or a limit is
 * reached.  The clock is a parameter, so tests drive the algorithm with
 * scripted timings instead of a real benchmark.
 */
#ifndef PTB_MEASURE_H
#define PTB_MEASURE_H

#include <jansson.h>
#include <stdint.h>

#include "stats/stats.h"

struct ptb_limits {
	enum ptb_stop_rule rule;
	double max_sd_pct;     /* p of the rule, default 2 */
	int min_timings;       /* default 8 */
	int max_timings;       /* default 100 */
	double budget_s;       /* per point, default 2 */
	double target_s;       /* minimum length of one timing, default 1 ms */
};
void ptb_limits_default(struct ptb_limits *l);
/* The settings as the result context's "harness" object. */
json_t *ptb_limits_json(const struct ptb_limits *l);
/* The reverse, for a worker given its limits by the runner: unnamed
 * settings keep their defaults; -1 when one is malformed. */
int ptb_limits_from_json(struct ptb_limits *l, const json_t *j);

/* Where timings come from: a real benchmark or a script. */
struct ptb_timer {
	/* Elapsed ns of n iterations of the action. */
	double (*time)(void *ctx, uint64_t n);
	/* Seconds since an arbitrary origin, for the budget. */
	double (*now)(void *ctx);
	void *ctx;
	double overhead_ns;    /* clock read overhead */
	double resolution_ns;  /* clock resolution */
};

enum ptb_stop_why {
	PTB_STOPPED_RULE,         /* the rule held: status ok */
	PTB_STOPPED_MAX_TIMINGS,  /* limits hit without the rule: unstable */
	PTB_STOPPED_BUDGET,
};
const char *ptb_stop_why_name(enum ptb_stop_why w, enum ptb_stop_rule rule);

struct ptb_measurement {
	uint64_t iterations;     /* per timing */
	int timings;             /* kept (warm-up excluded) */
	double *samples;         /* per-iteration ns of each kept timing; malloc'd */
	enum ptb_stop_why stop;
	struct ptb_stats stats;
};

/* The shortest acceptable timing for a clock: max(target, 1000 x overhead,
 * 100 x resolution), in ns. */
double ptb_min_timing_ns(const struct ptb_limits *l, const struct ptb_timer *t);
/* Iterations per timing, grown as the header comment of measure.c says. */
uint64_t ptb_grow_iterations(const struct ptb_limits *l, const struct ptb_timer *t);
/* The whole point.  divisor = ops_per_iter.  0, or -1 on allocation failure. */
int ptb_measure(const struct ptb_limits *l, const struct ptb_timer *t,
		double divisor, struct ptb_measurement *m);
void ptb_measurement_free(struct ptb_measurement *m);

#endif
