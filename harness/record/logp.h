/* SPDX-License-Identifier: MIT */
/*
 * LogP parameters derived from measured points (DESIGN.md section 2, issue
 * "paper's full suite"): for each mechanism (mutex, condition variable) and
 * placement, o_s, o_r, round trip, L = RTT/2 - o_s - o_r and the gap g,
 * each with the names of the points it came from.  Nothing is measured
 * here: the records are computed from a run's results.
 */
#ifndef PTB_LOGP_H
#define PTB_LOGP_H

#include <jansson.h>

/* New records (bench "logp.mutex" / "logp.cond") derived from the result
 * records in `results`; an empty array when the inputs are absent. */
json_t *ptb_logp_derive(const json_t *results);

#endif
