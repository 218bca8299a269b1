/* SPDX-License-Identifier: MIT */
/*
 * The cache hierarchy derived from measured curves (docs/design.md,
 * "Cache levels"): the line size where a stride curve jumps, and each
 * level's size, latency and miss penalty from the plateaus of a latency
 * curve, beside what hwloc and libcpuid say.  Which benchmark gives which
 * curve is read from the descriptors (struct ptb_levels_role); this file
 * names no benchmark.
 */
#ifndef PTB_RECORD_LEVELS_H
#define PTB_RECORD_LEVELS_H

#include <jansson.h>
#include <stdbool.h>

#include "record/model.h"

/* The relative band of a latency plateau (stats/plateau.h): levels differ
 * by a factor of two or more, and a loaded machine's points wobble by tens
 * of percent.  The smallest rise of the stride curve that is a jump: a
 * line that misses L1 but hits L2 raises the mean of a pair of loads by
 * half or more. */
#define PTB_LEVELS_TOL 0.35
#define PTB_LINE_TOL   0.15
/* A measured size within this factor of hwloc's bears hwloc out. */
#define PTB_LEVELS_AGREE 2.0

/* New derived records, one per role record name with inputs in the run;
 * an empty array when there are none. */
json_t *ptb_levels_derive(const struct ptb_runfile *run);
/* Whether a record is a derived cache-levels record. */
bool ptb_levels_is_record(const struct ptb_record *rec);

#endif
