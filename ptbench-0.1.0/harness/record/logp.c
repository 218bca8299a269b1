/* SPDX-License-Identifier: MIT */
/*
 * LogP parameters derived from a run's results, for each mechanism and
 * each placement its round trip was measured at.  The paper applies LogP
 * (Culler et al.) to Pthreads communication: a message costs the sender
 * o_s, spends L in transit and costs the receiver o_r, so a round trip is
 * RTT = 2 (o_s + L + o_r); g is the minimum interval between successive
 * messages.  L = rtt / 2 - o_s - o_r.  Where the round trip puts a thread
 * to sleep and wakes it, L absorbs that wake-up, which the overheads
 * measured alone do not contain; and L may come out negative when those
 * overheads exceed half the round trip.  It is reported as computed, with
 * the inputs it came from.  docs/design.md says which benchmark gives
 * which parameter of each mechanism, and why g is compared with o_s + o_r.
 *
 * The inputs are whatever benchmarks say, in their descriptors, that their
 * figure is a LogP parameter of a mechanism (struct ptb_logp_role in
 * harness/ptbench.h); this file names no benchmark.  Of several records of
 * one input (a sweep over a variable) the one whose other variables have
 * their default values is taken, else the first.  An input counts when it
 * has a value.  Each parameter is given (null otherwise) when its inputs
 * count; the record is na when L cannot be derived, unstable when an input
 * it used is unstable, and its reason names every missing or failed input.
 * No round-trip record for a mechanism means no LogP records for it.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/logp.h"
#include "text/text.h"

#define LOGP_PREFIX "logp."

const struct ptb_logp_field ptb_logp_fields[PTB_LOGP_NFIELDS] = {
	/* key    head    label */
	{ "o_s",  "o_s",  "o_s, send overhead" },
	{ "o_r",  "o_r",  "o_r, receive overhead" },
	{ "rtt",  "RTT",  "RTT, round trip" },
	{ "L",    "L",    "L, latency" },
	{ "g",    "g",    "g, gap" },
};

/* The parameters of a record, in the order of its fields. */
static const struct {
	const char *field;
	enum ptb_logp_param param;
} fields[] = {
	/* field  param */
	{ "rtt",  PTB_LOGP_RTT },     /* first: it gives the placements */
	{ "o_s",  PTB_LOGP_OS },
	{ "o_r",  PTB_LOGP_OR },
	{ "g",    PTB_LOGP_G },
};
#define NFIELDS (int)(sizeof fields / sizeof fields[0])

const char *ptb_logp_mechanism_of(const char *bench)
{
	size_t n = strlen(LOGP_PREFIX);
	return bench && !strncmp(bench, LOGP_PREFIX, n) && bench[n] ? bench + n : NULL;
}

const struct ptb_bench *ptb_logp_source(const char *mechanism, enum ptb_logp_param param)
{
	for (int i = 0; i < ptb_registry_count; i++) {
		const struct ptb_logp_role *r = &ptb_registry[i]->logp;
		if (r->param == param && r->mechanism && !strcmp(r->mechanism, mechanism))
			return ptb_registry[i];
	}
	return NULL;
}

static bool param_is(const struct ptb_record *rec, const char *var, const char *value)
{
	const char *have = json_string_value(json_object_get(rec->params, var));
	return have && value && !strcmp(have, value);
}

/* Whether every variable but the placement has its default value (the
 * first of its default sweep). */
static bool has_defaults(const struct ptb_bench *b, const struct ptb_record *rec)
{
	for (const struct ptb_param *p = b->params; p && p->name; p++) {
		size_t n = strcspn(p->defaults, ",");
		const char *have = json_string_value(json_object_get(rec->params, p->name));
		if (strcmp(p->name, "placement") &&
		    (!have || strlen(have) != n || strncmp(have, p->defaults, n)))
			return false;
	}
	return true;
}

/* The record of an input, or NULL. */
static const struct ptb_record *find(const struct ptb_runfile *run, const struct ptb_bench *b,
				     const char *placement)
{
	const struct ptb_record *first = NULL;
	for (size_t i = 0; i < run->n; i++) {
		const struct ptb_record *rec = &run->rec[i];
		if (!rec->bench || strcmp(rec->bench, b->name) || rec->is_derived)
			continue;
		if (b->logp.placed && !param_is(rec, "placement", placement))
			continue;
		if (has_defaults(b, rec))
			return rec;
		if (!first)
			first = rec;
	}
	return first;
}

/* An input's outcome: its value, or why there is none. */
enum taken { TAKEN_OK, TAKEN_UNSTABLE, TAKEN_NONE };

/* Fill value and name of one input; TAKEN_NONE (with the reason appended
 * to `why`) when it is missing or has no value. */
static enum taken take(const struct ptb_runfile *run, const char *mechanism, int f,
		       const char *placement, double *value, json_t *inputs, char *why,
		       size_t whylen)
{
	const struct ptb_bench *b = ptb_logp_source(mechanism, fields[f].param);
	const struct ptb_record *rec = b ? find(run, b, placement) : NULL;
	const char *field = fields[f].field;
	char name[160];

	if (!rec) {
		snprintf(name, sizeof name, "%s%s%s", b ? b->name : "no benchmark",
			 b && b->logp.placed ? " placement=" : "",
			 b && b->logp.placed ? placement : "");
		json_object_set_new(inputs, field, json_string(name));
		ptb_appendf(why, whylen, "%s%s: no %s in the results", *why ? "; " : "", field, name);
		return TAKEN_NONE;
	}
	json_object_set_new(inputs, field, json_string(rec->key));
	if (rec->has_value && !isnan(rec->value)) {
		*value = rec->value;
		return rec->status == PTB_OK ? TAKEN_OK : TAKEN_UNSTABLE;
	}
	ptb_appendf(why, whylen, "%s%s: %s is %s%s%s", *why ? "; " : "", field, rec->key,
		    rec->status_name, rec->reason ? ": " : "", rec->reason ? rec->reason : "");
	return TAKEN_NONE;
}

static json_t *number_or_null(bool have, double v)
{
	return have ? json_real(v) : json_null();
}

/*
 * Each parameter is given when its inputs are there: a placement without
 * a gap measurement still has its overheads, round trip and latency.  The
 * record is na only when L, the parameter LogP is about, cannot be
 * derived; it is unstable when any input it used is.
 */
static json_t *derive_one(const struct ptb_runfile *run, const char *mechanism,
			  const char *placement)
{
	double v[NFIELDS] = { 0 };
	enum taken t[NFIELDS];
	char why[1024] = "", unstable[128] = "", name[64];
	json_t *inputs = json_object();
	snprintf(name, sizeof name, LOGP_PREFIX "%s", mechanism);
	json_t *rec = json_pack("{s:s, s:{s:s}}", "bench", name, "params", "placement", placement);

	for (int i = 0; i < NFIELDS; i++) {
		t[i] = take(run, mechanism, i, placement, &v[i], inputs, why, sizeof why);
		if (t[i] == TAKEN_UNSTABLE)
			ptb_appendf(unstable, sizeof unstable, "%s%s", *unstable ? ", " : "",
				    fields[i].field);
	}
	bool have_l = t[0] != TAKEN_NONE && t[1] != TAKEN_NONE && t[2] != TAKEN_NONE;
	if (have_l && *unstable)
		ptb_appendf(why, sizeof why, "%sfrom unstable inputs (%s)", *why ? "; " : "",
			    unstable);
	json_object_set_new(rec, "status",
			    json_string(!have_l ? "na" : *unstable ? "unstable" : "ok"));
	json_object_set_new(rec, "reason", *why ? json_string(why) : json_null());
	json_object_set_new(rec, "unit", json_string("ns"));
	json_object_set_new(rec, "o_s", number_or_null(t[1] != TAKEN_NONE, v[1]));
	json_object_set_new(rec, "o_r", number_or_null(t[2] != TAKEN_NONE, v[2]));
	json_object_set_new(rec, "rtt", number_or_null(t[0] != TAKEN_NONE, v[0]));
	json_object_set_new(rec, "L", number_or_null(have_l, v[0] / 2 - v[1] - v[2]));
	json_object_set_new(rec, "g", number_or_null(t[3] != TAKEN_NONE, v[3]));
	json_object_set_new(rec, "inputs", inputs);
	return rec;
}

/* Whether the round trip of a mechanism was measured at a placement. */
static bool measured_at(const struct ptb_runfile *run, const struct ptb_bench *rtt,
			const char *placement)
{
	for (size_t i = 0; i < run->n; i++)
		if (run->rec[i].bench && !strcmp(run->rec[i].bench, rtt->name) &&
		    param_is(&run->rec[i], "placement", placement))
			return true;
	return false;
}

json_t *ptb_logp_derive(const struct ptb_runfile *run)
{
	json_t *out = json_array();
	for (int i = 0; i < ptb_registry_count; i++) {
		const struct ptb_bench *rtt = ptb_registry[i];
		if (rtt->logp.param != PTB_LOGP_RTT)
			continue;
		for (int pl = 0; pl < PTB_PLACEMENT_COUNT; pl++)
			if (measured_at(run, rtt, ptb_placement_name(pl)))
				json_array_append_new(out, derive_one(run, rtt->logp.mechanism,
								      ptb_placement_name(pl)));
	}
	return out;
}
