/* SPDX-License-Identifier: MIT */
/*
 * LogP parameters derived from a run's results, for each mechanism and
 * each placement its round trip was measured at.  The paper applies LogP
 * (Culler et al.) to Pthreads communication: a message costs the sender
 * o_s, spends L in transit and costs the receiver o_r, so a round trip is
 * RTT = 2 (o_s + L + o_r); g is the minimum interval between successive
 * messages.  Definitions, per mechanism:
 *
 *   mutex: a message is a mutex one thread unlocks and the other locks.
 *     o_s  mutex.unlock (the uncontended unlock, per call)
 *     o_r  mutex.lock   (the uncontended lock, per call)
 *     rtt  mutex.pingpong at the placement: its figure is the pair time
 *          / 4, and a pair of actions holds four round trips, so the
 *          figure is one round trip
 *     g    mutex.gap at the placement: time per message of a long burst
 *          of handovers, first send to last delivery (Culler et al.)
 *   cond: a message is a signal another thread waits for.
 *     o_s  cond.signal (a signal nobody waits on: the call's own cost,
 *          the paper's send overhead)
 *     o_r  cond.wait at the placement (the paper's receive overhead: a
 *          wait for a signal another PU sends continually; it exists only
 *          for placements with two PUs, so unbound and same_pu are na)
 *     rtt  cond.pingpong at the placement, signal=locked where present
 *          (one figure is one round trip: main -> client -> main)
 *     g    cond.gap at the placement: time per message of a long burst
 *          of counter-and-signal messages
 *   g is the interval between complete messages in a burst, so it holds
 *   at least one send and one receive (the mutex burst locks the next
 *   ring mutex and unlocks the current one; the condition burst takes the
 *   mutex, bumps a counter and signals a waiting thread): compare it with
 *   o_s + o_r, not with o_s alone as the paper's remark that the gap does
 *   not exceed the send overhead might suggest.
 *   L = rtt / 2 - o_s - o_r for both.  Where the round trip puts a thread
 *   to sleep and wakes it (a contended mutex, a condition wait that finds
 *   no signal), L absorbs that wake-up, which the overheads measured alone
 *   do not contain; and L may come out negative when those overheads
 *   exceed half the round trip.  It is reported as computed, with the
 *   inputs it came from.
 *
 * Of several records of one input (a sweep over `mutexes`) the one with
 * the default value is taken, else the first.  An input counts when its
 * status is ok or unstable and it has a mean.  Each parameter is given
 * (null otherwise) when its inputs count; the record is na when L cannot
 * be derived, unstable when an input it used is unstable, and its reason
 * names every missing or failed input.  No round-trip record for a
 * mechanism means no LogP records for it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/logp.h"
#include "platform/topology.h"

/* One input of a parameter: which benchmark, whether it is taken at the
 * record's placement, and which of its records to prefer ("var=value"). */
struct input {
	const char *field;      /* "o_s" */
	const char *bench;
	bool placed;
	const char *prefer;
};

#define NINPUTS 4
static const struct mechanism {
	const char *name;
	struct input in[NINPUTS];       /* rtt first: it gives the placements */
} mechanisms[] = {
	/* name           field  bench              placed prefer */
	{ "logp.mutex", { { "rtt", "mutex.pingpong", true,  NULL },
			  { "o_s", "mutex.unlock",   false, "mutexes=1024" },
			  { "o_r", "mutex.lock",     false, "mutexes=1024" },
			  { "g",   "mutex.gap",      true,  NULL } } },
	{ "logp.cond",  { { "rtt", "cond.pingpong",  true,  "signal=locked" },
			  { "o_s", "cond.signal",    false, NULL },
			  { "o_r", "cond.wait",      true,  NULL },
			  { "g",   "cond.gap",       true,  NULL } } },
};
#define NMECHANISMS (sizeof mechanisms / sizeof mechanisms[0])

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static bool param_is(const json_t *rec, const char *var, const char *value)
{
	const char *have = str(json_object_get(rec, "params"), var);
	return have && strcmp(have, value) == 0;
}

/* Does rec satisfy "var=value"? */
static bool prefers(const json_t *rec, const char *pref)
{
	char var[64];
	const char *eq = strchr(pref, '=');
	size_t n = eq ? (size_t)(eq - pref) : 0;
	if (!eq || n >= sizeof var)
		return false;
	memcpy(var, pref, n);
	var[n] = '\0';
	return param_is(rec, var, eq + 1);
}

/* The record for an input, or NULL. */
static const json_t *find(const json_t *results, const struct input *in, const char *placement)
{
	const json_t *first = NULL, *rec;
	size_t i;

	json_array_foreach(results, i, rec) {
		const char *bench = str(rec, "bench");
		if (!bench || strcmp(bench, in->bench))
			continue;
		if (in->placed && !param_is(rec, "placement", placement))
			continue;
		if (!in->prefer || prefers(rec, in->prefer))
			return rec;
		if (!first)
			first = rec;
	}
	return first;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "bench var=value ..." with the variables in name order. */
static void describe(char *buf, size_t len, const char *bench, const json_t *params)
{
	const char *keys[16];
	size_t nkeys = 0, used;
	const char *key;
	json_t *val;

	snprintf(buf, len, "%s", bench);
	json_object_foreach((json_t *)params, key, val)
		if (nkeys < sizeof keys / sizeof keys[0])
			keys[nkeys++] = key;
	qsort(keys, nkeys, sizeof keys[0], cmp_str);
	for (size_t k = 0; k < nkeys; k++) {
		used = strlen(buf);
		if (used < len)
			snprintf(buf + used, len - used, " %s=%s", keys[k],
				 str(params, keys[k]) ? str(params, keys[k]) : "?");
	}
}

static void append(char *buf, size_t len, const char *text)
{
	size_t used = strlen(buf);
	if (used < len)
		snprintf(buf + used, len - used, "%s%s", used ? "; " : "", text);
}

/* An input's outcome: its value, or why there is none. */
enum taken { TAKEN_OK, TAKEN_UNSTABLE, TAKEN_NONE };

/* Fill value and name of one input; TAKEN_NONE (with the reason appended
 * to `why`) when it is missing or has no usable mean. */
static enum taken take(const json_t *results, const struct input *in, const char *placement,
		       double *value, json_t *inputs, char *why, size_t whylen)
{
	const json_t *rec = find(results, in, placement);
	char name[160], text[512];

	if (!rec) {
		snprintf(name, sizeof name, "%s%s%s", in->bench,
			 in->placed ? " placement=" : "", in->placed ? placement : "");
		json_object_set_new(inputs, in->field, json_string(name));
		snprintf(text, sizeof text, "%s: no %s in the results", in->field, name);
		append(why, whylen, text);
		return TAKEN_NONE;
	}
	describe(name, sizeof name, in->bench, json_object_get(rec, "params"));
	json_object_set_new(inputs, in->field, json_string(name));
	const char *status = str(rec, "status");
	const json_t *mean = json_object_get(rec, "mean");
	if (status && (!strcmp(status, "ok") || !strcmp(status, "unstable")) && json_is_number(mean)) {
		*value = json_number_value(mean);
		return strcmp(status, "ok") ? TAKEN_UNSTABLE : TAKEN_OK;
	}
	const char *reason = str(rec, "reason");
	snprintf(text, sizeof text, "%s: %s is %s%s%s", in->field, name,
		 status ? status : "without status", reason ? ": " : "", reason ? reason : "");
	append(why, whylen, text);
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
static json_t *derive_one(const json_t *results, const struct mechanism *m, const char *placement)
{
	double v[NINPUTS] = { 0 };
	enum taken t[NINPUTS];
	char why[1024] = "", unstable[512] = "";
	json_t *inputs = json_object();
	json_t *rec = json_pack("{s:s, s:{s:s}}", "bench", m->name, "params", "placement", placement);

	for (int i = 0; i < NINPUTS; i++) {
		t[i] = take(results, &m->in[i], placement, &v[i], inputs, why, sizeof why);
		if (t[i] == TAKEN_UNSTABLE)
			snprintf(unstable + strlen(unstable), sizeof unstable - strlen(unstable),
				 "%s%s", *unstable ? ", " : "", m->in[i].field);
	}
	bool have_l = t[0] != TAKEN_NONE && t[1] != TAKEN_NONE && t[2] != TAKEN_NONE;
	if (have_l && *unstable) {
		char text[600];
		snprintf(text, sizeof text, "from unstable inputs (%s)", unstable);
		append(why, sizeof why, text);
	}
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

/* Placements the round trip was measured at, in ptb_placement order. */
static int placements_of(const json_t *results, const char *bench, const char **out)
{
	int n = 0;
	size_t i;
	const json_t *rec;

	for (int pl = 0; pl < PTB_PLACEMENT_COUNT; pl++) {
		const char *name = ptb_placement_name(pl);
		json_array_foreach(results, i, rec) {
			const char *b = str(rec, "bench");
			if (b && !strcmp(b, bench) && param_is(rec, "placement", name)) {
				out[n++] = name;
				break;
			}
		}
	}
	return n;
}

json_t *ptb_logp_derive(const json_t *results)
{
	json_t *out = json_array();
	const char *placements[PTB_PLACEMENT_COUNT];

	for (size_t k = 0; k < NMECHANISMS; k++) {
		const struct mechanism *m = &mechanisms[k];
		int n = placements_of(results, m->in[0].bench, placements);
		for (int i = 0; i < n; i++)
			json_array_append_new(out, derive_one(results, m, placements[i]));
	}
	return out;
}
