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
#include "record/runfile.h"
#include "record/validate.h"
#include "text/text.h"

static const char *const run_statuses[] = { "complete", "interrupted", "running" };

/* Where in the document a check is, for its message ("results[3]"). */
struct check {
	char *err;
	size_t errlen;
	char where[64];
	/* The record is a difference (harness/ptbench.h `reference`: its
	 * notes carry `reference_ns`): its times are overheads, which a
	 * noisy timing may put below zero. */
	bool difference;
};

__attribute__((format(printf, 2, 3)))
static int bad(struct check *c, const char *fmt, ...)
{
	char msg[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ptb_errf(c->err, c->errlen, "%s%s%s", c->where, *c->where ? ": " : "", msg);
	return -1;
}

enum kind { K_STRING, K_NUMBER, K_OBJECT, K_ARRAY, K_SCALAR, K_BOOL };

static const char *const kind_name[] = {
	[K_STRING] = "a string", [K_NUMBER] = "a number",
	[K_OBJECT] = "an object", [K_ARRAY] = "an array",
	[K_SCALAR] = "a number or a string", [K_BOOL] = "true or false",
};

static bool is_kind(const json_t *v, enum kind k)
{
	switch (k) {
	case K_STRING: return json_is_string(v);
	case K_NUMBER: return json_is_number(v);
	case K_OBJECT: return json_is_object(v);
	case K_ARRAY:  return json_is_array(v);
	case K_SCALAR: return json_is_number(v) || json_is_string(v);
	case K_BOOL:   return json_is_boolean(v);
	}
	return false;
}

/*
 * The domain of a number: anything finite, a duration (not negative, under
 * PTB_SAMPLE_MAX_NS), a count (a whole number a reader can convert to any
 * integer type it uses), a figure not below 0, a probability.
 */
enum domain { D_FINITE, D_DURATION, D_COUNT, D_NONNEG, D_UNIT };

/* A per-iteration time is a duration: not negative, and under the 1e15 ns
 * (11 days) that keeps every sum and difference the readers form finite. */
#define PTB_SAMPLE_MAX_NS 1e15
/* Counts up to 2^31 - 1: an int holds them, and no run times more. */
#define PTB_COUNT_MAX 2147483647.0

static bool in_domain(double v, enum domain d)
{
	switch (d) {
	case D_FINITE:   return isfinite(v) && fabs(v) <= PTB_SAMPLE_MAX_NS;
	case D_DURATION: return v >= 0 && v <= PTB_SAMPLE_MAX_NS;
	case D_COUNT:    return v >= 0 && v <= PTB_COUNT_MAX && v == floor(v);
	case D_NONNEG:   return v >= 0 && v <= PTB_SAMPLE_MAX_NS;
	case D_UNIT:     return v >= 0 && v <= 1;
	}
	return false;
}

static const char *const domain_name[] = {
	[D_FINITE] = "a finite number", [D_DURATION] = "a duration in [0, 1e15] ns",
	[D_COUNT] = "a whole number in [0, 2^31)", [D_NONNEG] = "a number in [0, 1e15]",
	[D_UNIT] = "a probability in [0, 1]",
};

/*
 * When a field must be there and not null: always, for every point with a
 * value (ok, unstable), or only for those ptbench measured itself -- a
 * figure transcribed from a publication (a record with a "source", like
 * the paper's Table 1 in results/) has a mean but no samples to give.
 */
enum need { OPTIONAL, ALWAYS, MEASURED, SAMPLED };
enum origin { NO_VALUE, PUBLISHED, SAMPLES };

/* A field's presence, type and, for a number, domain; unless `need`
 * requires it for this record, it may be absent or null. */
static int field_in(struct check *c, const json_t *obj, const char *key, enum kind k,
		    enum domain d, enum need need, enum origin origin)
{
	const json_t *v = json_object_get(obj, key);
	bool required = need == ALWAYS || (need == MEASURED && origin != NO_VALUE) ||
			(need == SAMPLED && origin == SAMPLES);
	if (!v)
		return required ? bad(c, "missing field '%s'", key) : 0;
	if (json_is_null(v))
		return required ? bad(c, "field '%s' is null", key) : 0;
	if (!is_kind(v, k))
		return bad(c, "field '%s' is not %s", key, kind_name[k]);
	if (d == D_DURATION && c->difference)
		d = D_FINITE;
	if (json_is_number(v) && !in_domain(json_number_value(v), d))
		return bad(c, "field '%s' = %g is not %s", key, json_number_value(v), domain_name[d]);
	return 0;
}

/* The same, for a field that is no number. */
static int field(struct check *c, const json_t *obj, const char *key, enum kind k,
		 enum need need, enum origin origin)
{
	return field_in(c, obj, key, k, D_FINITE, need, origin);
}

/* Every element of an array (or member of an object) of one kind. */
static int members(struct check *c, const json_t *v, const char *name, enum kind k,
		   bool nullable)
{
	const char *key;
	json_t *e;
	size_t i;
	json_array_foreach(v, i, e)
		if (!is_kind(e, k) && !(nullable && json_is_null(e)))
			return bad(c, "%s[%zu] is not %s", name, i, kind_name[k]);
	json_object_foreach((json_t *)v, key, e)
		if (!is_kind(e, k) && !(nullable && json_is_null(e)))
			return bad(c, "%s.%s is not %s", name, key, kind_name[k]);
	return 0;
}

/* The fields of a measured point's record in ptbench/1, and of one trial
 * in ptbench/2 (where a trial's "mean" is its estimate), in file order. */
static const struct field_rule {
	const char *key;
	enum kind kind;
	enum domain domain;     /* of a number */
	enum need need;
} measured_fields[] = {
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
static const struct field_rule cache_fields[] = {
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

static int fields(struct check *c, const json_t *rec, const struct field_rule *f, size_t n,
		  enum origin origin)
{
	for (size_t i = 0; i < n; i++)
		if (field_in(c, rec, f[i].key, f[i].kind, f[i].domain, f[i].need, origin) < 0)
			return -1;
	return 0;
}

#define NRULES(r) (sizeof (r) / sizeof *(r))

/* Every object of an array by the rules; other elements are left to the
 * checks of their kind. */
static int objects(struct check *c, const json_t *array, const char *name,
		   const struct field_rule *f, size_t n)
{
	char where[sizeof c->where];
	const json_t *e;
	size_t i;
	snprintf(where, sizeof where, "%s", c->where);
	json_array_foreach(array, i, e) {
		snprintf(c->where, sizeof c->where, "%.30s%s%.20s[%zu]", where, *where ? "." : "",
			 name, i % 1000000000);
		if (json_is_object(e) && fields(c, e, f, n, NO_VALUE) < 0)
			return -1;
	}
	snprintf(c->where, sizeof c->where, "%s", where);
	return 0;
}

/* Every number of an array in one domain. */
static int numbers_in(struct check *c, const json_t *array, const char *name, enum domain d)
{
	const json_t *e;
	size_t i;
	json_array_foreach(array, i, e)
		if (json_is_number(e) && !in_domain(json_number_value(e), d))
			return bad(c, "%s[%zu] = %g is not %s", name, i, json_number_value(e),
				   domain_name[d]);
	return 0;
}

static int check_status(struct check *c, const char *status)
{
	for (enum ptb_status s = PTB_OK; s <= PTB_ERROR; s++)
		if (!strcmp(status, ptb_status_name(s)))
			return 0;
	return bad(c, "status '%.40s' is not one of ok, unstable, na, timeout, crashed, error",
		   status);
}

/* A CI's ends: finite, or null when not known. */
static int ci_in_range(struct check *c, const json_t *ci)
{
	const json_t *e;
	size_t i;
	json_array_foreach(ci, i, e)
		if (json_is_number(e) && !in_domain(json_number_value(e), D_FINITE))
			return bad(c, "ci95[%zu] = %g is not %s", i, json_number_value(e),
				   domain_name[D_FINITE]);
	return 0;
}

static int samples_in_range(struct check *c, const json_t *samples)
{
	const json_t *e;
	size_t i;
	json_array_foreach(samples, i, e) {
		double v = json_number_value(e);
		if (!in_domain(v, c->difference ? D_FINITE : D_DURATION))
			return bad(c, "samples[%zu] = %g is not a duration in [0, %g] ns", i, v,
				   PTB_SAMPLE_MAX_NS);
	}
	return 0;
}

/* The within-trial measurement: a ptbench/1 point, or a ptbench/2 trial. */
static int check_measured(struct check *c, const json_t *rec, enum origin origin)
{
	const json_t *ci = json_object_get(rec, "ci95");
	const json_t *bind = json_object_get(rec, "binding");
	if (fields(c, rec, measured_fields, sizeof measured_fields / sizeof *measured_fields,
		   origin) < 0)
		return -1;
	if (json_is_array(ci) && json_array_size(ci) != 2)
		return bad(c, "field 'ci95' is not a pair");
	if (members(c, ci, "ci95", K_NUMBER, true) < 0 || ci_in_range(c, ci) < 0 ||
	    members(c, json_object_get(rec, "samples"), "samples", K_NUMBER, false) < 0 ||
	    samples_in_range(c, json_object_get(rec, "samples")) < 0 ||
	    field(c, bind, "main", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    field(c, bind, "clients", K_ARRAY, OPTIONAL, NO_VALUE) < 0 ||
	    members(c, json_object_get(bind, "clients"), "binding.clients", K_STRING, false) < 0)
		return -1;
	return members(c, json_object_get(rec, "notes"), "notes", K_SCALAR, true) < 0 ? -1
		: fields(c, json_object_get(rec, "notes"), note_fields, NRULES(note_fields), NO_VALUE);
}

/* The evidence of a trial or a point, when it has one; a reader pools
 * trials' figures, so each must be there and in its domain. */
static int check_disturbance(struct check *c, const json_t *rec)
{
	const json_t *d = json_object_get(rec, "disturbance");
	if (!json_is_object(d))
		return 0;
	return fields(c, d, disturbance_fields,
		      sizeof disturbance_fields / sizeof *disturbance_fields, NO_VALUE);
}

static bool status_has_value(const char *status)
{
	return !strcmp(status, "ok") || !strcmp(status, "unstable");
}

static int check_trial(struct check *c, const json_t *t, size_t i)
{
	char where[sizeof c->where];
	snprintf(where, sizeof where, "%s", c->where);
	snprintf(c->where, sizeof c->where, "%.30s.trials[%zu]", where, i % 1000000000);
	if (!json_is_object(t))
		return bad(c, "not an object");
	if (fields(c, t, trial_fields, sizeof trial_fields / sizeof *trial_fields, NO_VALUE) < 0)
		return -1;
	const char *status = json_string_value(json_object_get(t, "status"));
	if (check_status(c, status) < 0 || check_disturbance(c, t) < 0 ||
	    check_measured(c, t, status_has_value(status) ? SAMPLES : NO_VALUE) < 0)
		return -1;
	snprintf(c->where, sizeof c->where, "%s", where);
	return 0;
}

/* A ptbench/2 point: its value and CI from trials, and the trials. */
static int check_point(struct check *c, const json_t *rec, enum origin origin)
{
	const json_t *ci = json_object_get(rec, "ci95"), *t;
	const json_t *bind = json_object_get(rec, "binding");
	size_t i;
	c->difference = json_is_number(json_object_get(json_object_get(rec, "notes"),
						       "reference_ns"));
	if (fields(c, rec, point_fields, sizeof point_fields / sizeof *point_fields, origin) < 0)
		return -1;
	if (json_is_array(ci) && json_array_size(ci) != 2)
		return bad(c, "field 'ci95' is not a pair");
	if (members(c, ci, "ci95", K_NUMBER, true) < 0 || ci_in_range(c, ci) < 0 ||
	    members(c, json_object_get(rec, "modes"), "modes", K_OBJECT, false) < 0 ||
	    field(c, bind, "main", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    field(c, bind, "clients", K_ARRAY, OPTIONAL, NO_VALUE) < 0 ||
	    members(c, json_object_get(bind, "clients"), "binding.clients", K_STRING, false) < 0 ||
	    members(c, json_object_get(rec, "notes"), "notes", K_SCALAR, true) < 0 ||
	    fields(c, json_object_get(rec, "notes"), note_fields, NRULES(note_fields), NO_VALUE) < 0 ||
	    objects(c, json_object_get(rec, "modes"), "modes", mode_fields, NRULES(mode_fields)) < 0 ||
	    check_disturbance(c, rec) < 0)
		return -1;
	json_array_foreach(json_object_get(rec, "trials"), i, t)
		if (check_trial(c, t, i) < 0)
			return -1;
	return 0;
}

/* A derived matrix of PU pairs (record/matrix.h): a square of durations
 * or nulls, one row and column per PU, and a summary per class. */
static int check_matrix(struct check *c, const json_t *rec)
{
	const json_t *pus = json_object_get(rec, "pus"), *row, *cls;
	const char *key;
	size_t i;
	if (field(c, rec, "pus", K_ARRAY, ALWAYS, NO_VALUE) < 0 ||
	    members(c, pus, "pus", K_NUMBER, false) < 0 || numbers_in(c, pus, "pus", D_COUNT) < 0 ||
	    field(c, rec, "classes", K_OBJECT, ALWAYS, NO_VALUE) < 0 ||
	    field(c, rec, "inputs", K_OBJECT, OPTIONAL, NO_VALUE) < 0)
		return -1;
	if (json_array_size(json_object_get(rec, "matrix")) != json_array_size(pus))
		return bad(c, "field 'matrix' has not one row per PU");
	json_array_foreach(json_object_get(rec, "matrix"), i, row) {
		if (json_array_size(row) != json_array_size(pus))
			return bad(c, "matrix[%zu] has not one column per PU", i);
		if (members(c, row, "matrix row", K_NUMBER, true) < 0 || samples_in_range(c, row) < 0)
			return -1;
	}
	json_object_foreach((json_t *)json_object_get(rec, "classes"), key, cls)
		if (!json_is_object(cls) || members(c, cls, key, K_NUMBER, true) < 0)
			return bad(c, "classes.%.20s is not an object of numbers", key);
	return 0;
}

static int check_record(struct check *c, const json_t *rec, int version)
{
	if (!json_is_object(rec))
		return bad(c, "not an object");
	if (field(c, rec, "bench", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    field(c, rec, "params", K_OBJECT, ALWAYS, NO_VALUE) < 0 ||
	    members(c, json_object_get(rec, "params"), "params", K_STRING, false) < 0 ||
	    field(c, rec, "status", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    field(c, rec, "reason", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    field(c, rec, "unit", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    field(c, rec, "source", K_STRING, OPTIONAL, NO_VALUE) < 0)
		return -1;
	const char *bench = json_string_value(json_object_get(rec, "bench"));
	const char *status = json_string_value(json_object_get(rec, "status"));
	if (check_status(c, status) < 0)
		return -1;
	if (!strncmp(bench, "logp.", 5))
		return fields(c, rec, logp_fields, sizeof logp_fields / sizeof *logp_fields, NO_VALUE) < 0
			? -1 : members(c, json_object_get(rec, "inputs"), "inputs", K_STRING, false);
	/* A derived cache-levels record (record/levels.c) carries levels. */
	if (json_is_array(json_object_get(rec, "levels")))
		return fields(c, rec, levels_fields, sizeof levels_fields / sizeof *levels_fields,
			      NO_VALUE) < 0 ? -1
			: members(c, json_object_get(rec, "levels"), "levels", K_OBJECT, false) < 0 ||
			  objects(c, json_object_get(rec, "levels"), "levels", level_fields,
				  NRULES(level_fields)) < 0
			? -1 : members(c, json_object_get(rec, "inputs"), "inputs", K_STRING, false);
	if (json_object_get(rec, "matrix"))
		return field(c, rec, "matrix", K_ARRAY, ALWAYS, NO_VALUE) < 0 ? -1
			: check_matrix(c, rec);
	enum origin origin = !status_has_value(status) ? NO_VALUE
			     : json_object_get(rec, "source") ? PUBLISHED : SAMPLES;
	const json_t *unit = json_object_get(rec, "unit");
	if (json_is_string(unit) && strcmp(json_string_value(unit), "ns"))
		return bad(c, "unit '%.20s' is not ns", json_string_value(unit));
	return version == 1 ? check_measured(c, rec, origin) : check_point(c, rec, origin);
}

static int check_context(struct check *c, const json_t *ctx)
{
	snprintf(c->where, sizeof c->where, "context");
	if (field(c, ctx, "host", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    field(c, ctx, "cpu", K_OBJECT, ALWAYS, NO_VALUE) < 0)
		return -1;
	const json_t *topo = json_object_get(ctx, "topology");
	if (objects(c, json_object_get(topo, "caches"), "topology.caches", cache_fields,
		    NRULES(cache_fields)) < 0)
		return -1;
	snprintf(c->where, sizeof c->where, "context.cpu");
	return field(c, json_object_get(ctx, "cpu"), "brand", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	       objects(c, json_object_get(json_object_get(ctx, "cpu"), "caches"), "caches",
		       cache_fields, NRULES(cache_fields)) < 0 ? -1 : 0;
}

/* The schema's version: 1 or 2, or -1 after saying why. */
static int check_header(struct check *c, const json_t *run)
{
	const json_t *schema = json_object_get(run, "schema");
	const char *status = json_string_value(json_object_get(run, "status"));
	int version = 0;
	if (!json_is_object(run))
		return bad(c, "not a ptbench result file (not a JSON object)");
	if (!schema)
		return bad(c, "not a ptbench result file (no schema)");
	if (json_is_string(schema) && !strcmp(json_string_value(schema), PTB_SCHEMA_V1))
		version = 1;
	if (json_is_string(schema) && !strcmp(json_string_value(schema), PTB_SCHEMA))
		version = 2;
	if (!version)
		return bad(c, "not a %s or %s result file (schema %.40s)", PTB_SCHEMA_V1, PTB_SCHEMA,
			   json_is_string(schema) ? json_string_value(schema) : "is not a string");
	if (field(c, run, "status", K_STRING, ALWAYS, NO_VALUE) < 0 ||
	    field(c, run, "version", K_STRING, OPTIONAL, NO_VALUE) < 0 ||
	    field(c, run, "context", K_OBJECT, ALWAYS, NO_VALUE) < 0 ||
	    field(c, run, "results", K_ARRAY, ALWAYS, NO_VALUE) < 0)
		return -1;
	for (size_t i = 0; i < sizeof run_statuses / sizeof *run_statuses; i++)
		if (!strcmp(status, run_statuses[i]))
			return version;
	return bad(c, "status '%.40s' is not one of complete, interrupted, running", status);
}

int ptb_run_validate(const json_t *run, char *err, size_t errlen)
{
	struct check c = { err, errlen, "", false };
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

