/* SPDX-License-Identifier: MIT */
/*
 * Validation of a result document: every field a reader uses has its type
 * checked, numbers their domain, so that `report`, `table`, `compare` and
 * the typed model (record/model.c) can walk a document without further
 * checks, and a foreign or broken file gets one line saying where it is
 * wrong ("results[3]: missing field 'bench'").
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptbench.h"
#include "record/check.h"
#include "record/runfile.h"
#include "record/validate.h"
#include "text/text.h"

static const char *const run_statuses[] = { "complete", "interrupted", "running" };

/* The fields of a measured point's record in ptbench/1, and of one trial
 * in ptbench/2 (where a trial's "mean" is its estimate), in file order. */
static const struct ptb_field_rule measured_fields[] = {
	/* key          kind       domain      need */
	{ "per",        K_STRING,  D_FINITE,   OPTIONAL },
	{ "iterations", K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "timings",    K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "stop",       K_STRING,  D_FINITE,   OPTIONAL },
	{ "mean",       K_NUMBER,  D_DURATION, MEASURED },
	{ "sd",         K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "cv_pct",     K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "median",     K_NUMBER,  D_DURATION, SAMPLED },
	{ "ci95",       K_ARRAY,   D_FINITE,   OPTIONAL },
	{ "min",        K_NUMBER,  D_DURATION, OPTIONAL },
	{ "max",        K_NUMBER,  D_DURATION, OPTIONAL },
	{ "outliers",   K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "binding",    K_OBJECT,  D_FINITE,   OPTIONAL },
	{ "notes",      K_OBJECT,  D_FINITE,   OPTIONAL },
	{ "samples",    K_ARRAY,   D_FINITE,   SAMPLED },
}, point_fields[] = {
	/* key                kind       domain      need */
	{ "per",              K_STRING,  D_FINITE,   OPTIONAL },
	{ "value",            K_NUMBER,  D_DURATION, MEASURED },
	{ "ci95",             K_ARRAY,   D_FINITE,   OPTIONAL },
	{ "ci_level",         K_NUMBER,  D_UNIT,     OPTIONAL },
	{ "ci_halfwidth_pct", K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "drift_pct",        K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "ntrials",          K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "stop",             K_STRING,  D_FINITE,   OPTIONAL },
	{ "modes",            K_ARRAY,   D_FINITE,   OPTIONAL },
	{ "binding",          K_OBJECT,  D_FINITE,   OPTIONAL },
	{ "notes",            K_OBJECT,  D_FINITE,   OPTIONAL },
	{ "disturbed",        K_BOOL,    D_FINITE,   OPTIONAL },
	{ "disturbance",      K_OBJECT,  D_FINITE,   OPTIONAL },
	{ "trials",           K_ARRAY,   D_FINITE,   SAMPLED },
}, trial_fields[] = {
	/* key                kind       domain      need */
	{ "status",           K_STRING,  D_FINITE,   ALWAYS },
	{ "reason",           K_STRING,  D_FINITE,   OPTIONAL },
	{ "worker",           K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "round",            K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "elapsed_s",        K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "disturbed",        K_BOOL,    D_FINITE,   OPTIONAL },
	{ "disturbance",      K_OBJECT,  D_FINITE,   OPTIONAL },
}, disturbance_fields[] = {
	/* key                kind       domain      need  (docs/design.md section 13) */
	{ "windows",          K_NUMBER,  D_COUNT,    ALWAYS },
	{ "window_s",         K_NUMBER,  D_NONNEG,   ALWAYS },
	{ "capacity_s",       K_NUMBER,  D_NONNEG,   ALWAYS },
	{ "readings",         K_NUMBER,  D_COUNT,    ALWAYS },
	{ "busy_s",           K_NUMBER,  D_NONNEG,   ALWAYS },
	{ "own_cpu_s",        K_NUMBER,  D_NONNEG,   ALWAYS },
	{ "other_cpu_s",      K_NUMBER,  D_FINITE,   OPTIONAL },
	{ "other_share",      K_NUMBER,  D_FINITE,   OPTIONAL },
	{ "steal_s",          K_NUMBER,  D_NONNEG,   ALWAYS },
	{ "steal_share",      K_NUMBER,  D_FINITE,   OPTIONAL },
	{ "preempted",        K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "preempted_per_s",  K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "run_queue",        K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "tick_s",           K_NUMBER,  D_NONNEG,   ALWAYS },
	{ "disturbed_trials", K_NUMBER,  D_COUNT,    OPTIONAL },
}, logp_fields[] = {
	/* key          kind       domain      need */
	{ "o_s",        K_NUMBER,  D_FINITE,   OPTIONAL },
	{ "o_r",        K_NUMBER,  D_FINITE,   OPTIONAL },
	{ "rtt",        K_NUMBER,  D_FINITE,   OPTIONAL },
	{ "L",          K_NUMBER,  D_FINITE,   OPTIONAL },
	{ "g",          K_NUMBER,  D_FINITE,   OPTIONAL },
	{ "inputs",     K_OBJECT,  D_FINITE,   OPTIONAL },
}, levels_fields[] = {
	/* key                 kind       domain      need */
	{ "line_bytes",        K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "levels",            K_ARRAY,   D_FINITE,   OPTIONAL },
	{ "memory_latency_ns", K_NUMBER,  D_DURATION, OPTIONAL },
	{ "inputs",            K_OBJECT,  D_FINITE,   OPTIONAL },
};

/* The objects of arrays whose numbers readers turn into integers (a cache
 * level "L%d", a PU) or step through (sizes on a log axis). */
static const struct ptb_field_rule cache_fields[] = {
	/* key          kind       domain      need */
	{ "level",      K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "bytes",      K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "kib",        K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "line",       K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "ways",       K_NUMBER,  D_COUNT,    OPTIONAL },
}, level_fields[] = {
	/* key                 kind       domain      need */
	{ "level",             K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "size_bytes",        K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "latency_ns",        K_NUMBER,  D_DURATION, OPTIONAL },
	{ "miss_penalty_ns",   K_NUMBER,  D_FINITE,   OPTIONAL },
	{ "hwloc_size_bytes",  K_NUMBER,  D_NONNEG,   OPTIONAL },
}, mode_fields[] = {
	/* key          kind       domain      need */
	{ "value",      K_NUMBER,  D_DURATION, OPTIONAL },
	{ "trials",     K_NUMBER,  D_COUNT,    OPTIONAL },
}, note_fields[] = {
	/* the PUs of a matrix's points (record/matrix.c) */
	{ "sender",     K_SCALAR,  D_COUNT,    OPTIONAL },
	{ "receiver",   K_SCALAR,  D_COUNT,    OPTIONAL },
};

static int check_status(struct ptb_check *c, const char *status)
{
	for (enum ptb_status s = PTB_OK; s <= PTB_ERROR; s++)
		if (!strcmp(status, ptb_status_name(s)))
			return 0;
	return ptb_check_bad(c, "status '%.40s' is not one of ok, unstable, na, timeout, crashed, error",
		   status);
}

/* A CI's ends: finite, or null when not known. */
static int ci_in_range(struct ptb_check *c, const json_t *ci)
{
	const json_t *e;
	size_t i;
	json_array_foreach(ci, i, e)
		if (json_is_number(e) && !ptb_check_in_domain(json_number_value(e), D_FINITE))
			return ptb_check_bad(c, "ci95[%zu] = %g is not %s", i, json_number_value(e),
				   ptb_check_domain_name(D_FINITE));
	return 0;
}

static int samples_in_range(struct ptb_check *c, const json_t *samples)
{
	const json_t *e;
	size_t i;
	json_array_foreach(samples, i, e) {
		double v = json_number_value(e);
		if (!ptb_check_in_domain(v, c->difference ? D_FINITE : D_DURATION))
			return ptb_check_bad(c, "samples[%zu] = %g is not a duration in [0, %g] ns", i, v,
				   PTB_SAMPLE_MAX_NS);
	}
	return 0;
}

/* The within-trial measurement: a ptbench/1 point, or a ptbench/2 trial. */
static int check_measured(struct ptb_check *c, const json_t *rec, enum origin origin)
{
	const json_t *ci = json_object_get(rec, "ci95");
	const json_t *bind = json_object_get(rec, "binding");
	if (ptb_check_fields(c, rec, measured_fields, sizeof measured_fields / sizeof *measured_fields,
		   origin) < 0)
		return -1;
	if (json_is_array(ci) && json_array_size(ci) != 2)
		return ptb_check_bad(c, "field 'ci95' is not a pair");
	if (ptb_check_members(c, ci, "ci95", K_NUMBER, true) < 0 || ci_in_range(c, ci) < 0 ||
	    ptb_check_members(c, json_object_get(rec, "samples"), "samples", K_NUMBER, false) < 0 ||
	    samples_in_range(c, json_object_get(rec, "samples")) < 0 ||
	    ptb_check_field(c, bind, "main", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    ptb_check_field(c, bind, "clients", K_ARRAY, OPTIONAL, NO_VALUE) < 0 ||
	    ptb_check_members(c, json_object_get(bind, "clients"), "binding.clients", K_STRING, false) < 0)
		return -1;
	return ptb_check_members(c, json_object_get(rec, "notes"), "notes", K_SCALAR, true) < 0 ? -1
		: ptb_check_fields(c, json_object_get(rec, "notes"), note_fields, NRULES(note_fields), NO_VALUE);
}

/* The evidence of a trial or a point, when it has one; a reader pools
 * trials' figures, so each must be there and in its domain. */
static int check_disturbance(struct ptb_check *c, const json_t *rec)
{
	const json_t *d = json_object_get(rec, "disturbance");
	if (!json_is_object(d))
		return 0;
	return ptb_check_fields(c, d, disturbance_fields,
		      sizeof disturbance_fields / sizeof *disturbance_fields, NO_VALUE);
}

static bool status_has_value(const char *status)
{
	return !strcmp(status, "ok") || !strcmp(status, "unstable");
}

static int check_trial(struct ptb_check *c, const json_t *t, size_t i)
{
	char where[sizeof c->where];
	snprintf(where, sizeof where, "%s", c->where);
	snprintf(c->where, sizeof c->where, "%.30s.trials[%zu]", where, i % 1000000000);
	if (!json_is_object(t))
		return ptb_check_bad(c, "not an object");
	if (ptb_check_fields(c, t, trial_fields, sizeof trial_fields / sizeof *trial_fields, NO_VALUE) < 0)
		return -1;
	const char *status = json_string_value(json_object_get(t, "status"));
	if (check_status(c, status) < 0 || check_disturbance(c, t) < 0 ||
	    check_measured(c, t, status_has_value(status) ? SAMPLES : NO_VALUE) < 0)
		return -1;
	snprintf(c->where, sizeof c->where, "%s", where);
	return 0;
}

/* A ptbench/2 point: its value and CI from trials, and the trials. */
static int check_point(struct ptb_check *c, const json_t *rec, enum origin origin)
{
	const json_t *ci = json_object_get(rec, "ci95"), *t;
	const json_t *bind = json_object_get(rec, "binding");
	size_t i;
	c->difference = json_is_number(json_object_get(json_object_get(rec, "notes"),
						       "reference_ns"));
	if (ptb_check_fields(c, rec, point_fields, sizeof point_fields / sizeof *point_fields, origin) < 0)
		return -1;
	if (json_is_array(ci) && json_array_size(ci) != 2)
		return ptb_check_bad(c, "field 'ci95' is not a pair");
	if (ptb_check_members(c, ci, "ci95", K_NUMBER, true) < 0 || ci_in_range(c, ci) < 0 ||
	    ptb_check_members(c, json_object_get(rec, "modes"), "modes", K_OBJECT, false) < 0 ||
	    ptb_check_field(c, bind, "main", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    ptb_check_field(c, bind, "clients", K_ARRAY, OPTIONAL, NO_VALUE) < 0 ||
	    ptb_check_members(c, json_object_get(bind, "clients"), "binding.clients", K_STRING, false) < 0 ||
	    ptb_check_members(c, json_object_get(rec, "notes"), "notes", K_SCALAR, true) < 0 ||
	    ptb_check_fields(c, json_object_get(rec, "notes"), note_fields, NRULES(note_fields), NO_VALUE) < 0 ||
	    ptb_check_objects(c, json_object_get(rec, "modes"), "modes", mode_fields, NRULES(mode_fields)) < 0 ||
	    check_disturbance(c, rec) < 0)
		return -1;
	json_array_foreach(json_object_get(rec, "trials"), i, t)
		if (check_trial(c, t, i) < 0)
			return -1;
	return 0;
}

/* A derived matrix of PU pairs (record/matrix.h): a square of durations
 * or nulls, one row and column per PU, and a summary per class. */
static int check_matrix(struct ptb_check *c, const json_t *rec)
{
	const json_t *pus = json_object_get(rec, "pus"), *row, *cls;
	const char *key;
	size_t i;
	if (ptb_check_field(c, rec, "pus", K_ARRAY, ALWAYS, NO_VALUE) < 0 ||
	    ptb_check_members(c, pus, "pus", K_NUMBER, false) < 0 || ptb_check_numbers(c, pus, "pus", D_COUNT) < 0 ||
	    ptb_check_field(c, rec, "classes", K_OBJECT, ALWAYS, NO_VALUE) < 0 ||
	    ptb_check_field(c, rec, "inputs", K_OBJECT, OPTIONAL, NO_VALUE) < 0)
		return -1;
	if (json_array_size(json_object_get(rec, "matrix")) != json_array_size(pus))
		return ptb_check_bad(c, "field 'matrix' has not one row per PU");
	json_array_foreach(json_object_get(rec, "matrix"), i, row) {
		if (json_array_size(row) != json_array_size(pus))
			return ptb_check_bad(c, "matrix[%zu] has not one column per PU", i);
		if (ptb_check_members(c, row, "matrix row", K_NUMBER, true) < 0 || samples_in_range(c, row) < 0)
			return -1;
	}
	json_object_foreach((json_t *)json_object_get(rec, "classes"), key, cls)
		if (!json_is_object(cls) || ptb_check_members(c, cls, key, K_NUMBER, true) < 0)
			return ptb_check_bad(c, "classes.%.20s is not an object of numbers", key);
	return 0;
}

static int check_record(struct ptb_check *c, const json_t *rec, int version)
{
	if (!json_is_object(rec))
		return ptb_check_bad(c, "not an object");
	if (ptb_check_field(c, rec, "bench", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    ptb_check_field(c, rec, "params", K_OBJECT, ALWAYS, NO_VALUE) < 0 ||
	    ptb_check_members(c, json_object_get(rec, "params"), "params", K_STRING, false) < 0 ||
	    ptb_check_field(c, rec, "status", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    ptb_check_field(c, rec, "reason", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    ptb_check_field(c, rec, "unit", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    ptb_check_field(c, rec, "source", K_STRING, OPTIONAL, NO_VALUE) < 0)
		return -1;
	const char *bench = json_string_value(json_object_get(rec, "bench"));
	const char *status = json_string_value(json_object_get(rec, "status"));
	if (check_status(c, status) < 0)
		return -1;
	if (!strncmp(bench, "logp.", 5))
		return ptb_check_fields(c, rec, logp_fields, sizeof logp_fields / sizeof *logp_fields, NO_VALUE) < 0
			? -1 : ptb_check_members(c, json_object_get(rec, "inputs"), "inputs", K_STRING, false);
	/* A derived cache-levels record (record/levels.c) carries levels. */
	if (json_is_array(json_object_get(rec, "levels")))
		return ptb_check_fields(c, rec, levels_fields, sizeof levels_fields / sizeof *levels_fields,
			      NO_VALUE) < 0 ? -1
			: ptb_check_members(c, json_object_get(rec, "levels"), "levels", K_OBJECT, false) < 0 ||
			  ptb_check_objects(c, json_object_get(rec, "levels"), "levels", level_fields,
				  NRULES(level_fields)) < 0
			? -1 : ptb_check_members(c, json_object_get(rec, "inputs"), "inputs", K_STRING, false);
	if (json_object_get(rec, "matrix"))
		return ptb_check_field(c, rec, "matrix", K_ARRAY, ALWAYS, NO_VALUE) < 0 ? -1
			: check_matrix(c, rec);
	enum origin origin = !status_has_value(status) ? NO_VALUE
			     : json_object_get(rec, "source") ? PUBLISHED : SAMPLES;
	const json_t *unit = json_object_get(rec, "unit");
	if (json_is_string(unit) && strcmp(json_string_value(unit), "ns"))
		return ptb_check_bad(c, "unit '%.20s' is not ns", json_string_value(unit));
	return version == 1 ? check_measured(c, rec, origin) : check_point(c, rec, origin);
}

static int check_context(struct ptb_check *c, const json_t *ctx)
{
	snprintf(c->where, sizeof c->where, "context");
	if (ptb_check_field(c, ctx, "host", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    ptb_check_field(c, ctx, "cpu", K_OBJECT, ALWAYS, NO_VALUE) < 0)
		return -1;
	const json_t *topo = json_object_get(ctx, "topology");
	if (ptb_check_objects(c, json_object_get(topo, "caches"), "topology.caches", cache_fields,
		    NRULES(cache_fields)) < 0)
		return -1;
	snprintf(c->where, sizeof c->where, "context.cpu");
	return ptb_check_field(c, json_object_get(ctx, "cpu"), "brand", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	       ptb_check_objects(c, json_object_get(json_object_get(ctx, "cpu"), "caches"), "caches",
		       cache_fields, NRULES(cache_fields)) < 0 ? -1 : 0;
}

/* The schema's version: 1 or 2, or -1 after saying why. */
static int check_header(struct ptb_check *c, const json_t *run)
{
	const json_t *schema = json_object_get(run, "schema");
	const char *status = json_string_value(json_object_get(run, "status"));
	int version = 0;
	if (!json_is_object(run))
		return ptb_check_bad(c, "not a ptbench result file (not a JSON object)");
	if (!schema)
		return ptb_check_bad(c, "not a ptbench result file (no schema)");
	if (json_is_string(schema) && !strcmp(json_string_value(schema), PTB_SCHEMA_V1))
		version = 1;
	if (json_is_string(schema) && !strcmp(json_string_value(schema), PTB_SCHEMA))
		version = 2;
	if (!version)
		return ptb_check_bad(c, "not a %s or %s result file (schema %.40s)", PTB_SCHEMA_V1, PTB_SCHEMA,
			   json_is_string(schema) ? json_string_value(schema) : "is not a string");
	if (ptb_check_field(c, run, "status", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    ptb_check_field(c, run, "version", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    ptb_check_field(c, run, "context", K_OBJECT, ALWAYS, NO_VALUE) < 0 ||
	    ptb_check_field(c, run, "results", K_ARRAY, ALWAYS, NO_VALUE) < 0)
		return -1;
	for (size_t i = 0; i < sizeof run_statuses / sizeof *run_statuses; i++)
		if (!strcmp(status, run_statuses[i]))
			return version;
	return ptb_check_bad(c, "status '%.40s' is not one of complete, interrupted, running", status);
}

int ptb_run_validate(const json_t *run, char *err, size_t errlen)
{
	struct ptb_check c = { err, errlen, "", false };
	const json_t *rec;
	size_t i;
	int version = check_header(&c, run);
	if (version < 0 || check_context(&c, json_object_get(run, "context")) < 0)
		return -1;
	json_array_foreach(json_object_get(run, "results"), i, rec) {
		snprintf(c.where, sizeof c.where, "results[%zu]", i);
		if (check_record(&c, rec, version) < 0)
			return -1;
	}
	return ptb_run_bounds(run, err, errlen) < 0 ? -1 : version;
}

