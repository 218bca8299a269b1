/* SPDX-License-Identifier: MIT */
/*
 * Result records built from a measured point (schema in docs/design.md).
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

#endif
