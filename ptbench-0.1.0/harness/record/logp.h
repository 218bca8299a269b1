/* SPDX-License-Identifier: MIT */
/*
 * LogP parameters derived from measured points (docs/design.md): for each
 * mechanism and placement, o_s, o_r, round trip, L = RTT/2 - o_s - o_r and
 * the gap g, each with the point it came from.  Nothing is measured here:
 * the records are computed from a run's records, and which benchmark gives
 * which parameter is read from the descriptors.
 */
#ifndef PTB_RECORD_LOGP_H
#define PTB_RECORD_LOGP_H

#include <jansson.h>

#include "ptbench.h"
#include "record/model.h"

/* The parameters of a LogP record, in the order every table shows them. */
struct ptb_logp_field {
	const char *key;        /* the record's field: "o_s" */
	const char *head;       /* a column's heading: "o_s" */
	const char *label;      /* a row's label: "o_s, send overhead" */
};
#define PTB_LOGP_NFIELDS 5
extern const struct ptb_logp_field ptb_logp_fields[PTB_LOGP_NFIELDS];

/* New records ("logp.<mechanism>") derived from the run; an empty array
 * when the inputs are absent. */
json_t *ptb_logp_derive(const struct ptb_runfile *run);
/* The mechanism of a derived LogP record's name ("logp.mutex" -> "mutex"),
 * or NULL when the name is not one. */
const char *ptb_logp_mechanism_of(const char *bench);
/* The benchmark whose figure is that parameter of the mechanism, or NULL. */
const struct ptb_bench *ptb_logp_source(const char *mechanism, enum ptb_logp_param param);

#endif
