/* SPDX-License-Identifier: MIT */
/*
 * Result files, schema "ptbench/1" (DESIGN.md section 6): building the
 * context and result records, writing a run atomically, and reading a file
 * back with every field checked, so that `table` and `compare` can trust
 * what they read and a foreign or broken file gets one clear error.
 */
#ifndef PTB_RESULT_H
#define PTB_RESULT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/measure.h"
#include "ptbench.h"

#define PTB_SCHEMA "ptbench/1"

/* Collect clock, CPU, OS and topology once per run. 0, or -1 with err. */
int ptb_system_init(struct ptb_system *sys, char *err, size_t errlen);
void ptb_system_fini(struct ptb_system *sys);

/* The "context" object; command is the command line as typed. */
json_t *ptb_context_json(const struct ptb_system *sys, const struct ptb_limits *l,
			 const char *command);
/* Warnings for a machine: hypervisor, TSC, governor, load, restricted cpuset. */
json_t *ptb_warnings_json(const struct ptb_system *sys);

/* One result record.  m is NULL for points that produced no timings
 * (na, timeout, crashed, error). */
json_t *ptb_result_json(const struct ptb_point *p, enum ptb_status status,
			const char *reason, const struct ptb_measurement *m,
			enum ptb_stop_rule rule);
/* A record for a point that never ran (timeout/crashed after the fact).
 * Takes over the reference to params (NULL = no variables). */
json_t *ptb_result_json_bare(const char *bench, json_t *params, enum ptb_status status,
			     const char *reason);

/* { schema, version, status, context, results: [] }.  Takes over the
 * reference to context. */
json_t *ptb_run_new(json_t *context);
/* The file's text: top-level fields indented, one result record per line
 * (samples stay on it), keys in insertion order.  0, or -1 on a write error. */
int ptb_run_dump(FILE *out, const json_t *run);
/* Write to path via a temporary file and rename(2). 0, or -1 with err. */
int ptb_run_write_atomic(const json_t *run, const char *path, char *err, size_t errlen);
/* Read and validate a result file. NULL with err = one line on failure
 * ("FILE: results[3]: missing field 'bench'"). */
json_t *ptb_run_load(const char *path, char *err, size_t errlen);
/* Validate an in-memory document the same way. 0, or -1 with err.  Every
 * field a reader uses has its type checked; an ok or unstable record needs
 * mean, median and samples -- only mean if it has a "source" (a figure
 * transcribed from a publication). */
int ptb_run_validate(const json_t *run, char *err, size_t errlen);

#endif
