/* SPDX-License-Identifier: MIT */
/*
 * Result records: a trial's, built by the worker that measured it, and a
 * point's, built by the runner from its trials (schema in docs/design.md).
 */
#ifndef PTB_RUN_RECORD_H
#define PTB_RUN_RECORD_H

#include <jansson.h>

#include "engine/measure.h"
#include "ptbench.h"

/* One result record.  m is NULL for points that produced no timings
 * (na, timeout, crashed, error). */
json_t *ptb_result_json(const struct ptb_point *p, enum ptb_status status,
			const char *reason, const struct ptb_measurement *m,
			enum ptb_stop_rule rule);
/* A record for a point that never ran (timeout/crashed after the fact).
 * Takes over the reference to params (NULL = no variables). */
json_t *ptb_result_json_bare(const char *bench, json_t *params, enum ptb_status status,
			     const char *reason);

/* Trials (schema ptbench/2).  A trial's record is the one above, less the
 * fields its point already says, plus the round it ran in. */
void ptb_trial_trim(json_t *trial, int round);
/* A trial whose worker died or hung. */
json_t *ptb_lost_trial(enum ptb_status status, const char *why, int round);
/* A point's record from its trials: the value is the median of the kept
 * trials' estimates (est, n), its CI that median's order-statistics
 * interval widened by the run's drift (stats/trials.h); status ok when
 * the CI is within +-target_pct and its level at least 95 %, else unstable
 * with the reason.  fail (not PTB_OK) overrides: the point failed as
 * fail_reason says.  Takes over params and trials. */
json_t *ptb_point_record(const struct ptb_bench *b, json_t *params, json_t *trials,
			 const double *est, int n, const char *stop, double target_pct,
			 double drift_pct, enum ptb_status fail, const char *fail_reason);
/* A point record's value, NAN when it has none. */
double ptb_record_value(const json_t *rec);

#endif
