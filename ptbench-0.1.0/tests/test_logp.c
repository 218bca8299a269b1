/* SPDX-License-Identifier: MIT */
/*
 * ptb_logp_derive on synthetic results: which records it picks for each
 * input (placement, preferred variable values), the exact arithmetic of
 * L = rtt/2 - o_s - o_r, the order of the records, and na records whose
 * reason names every missing or failed input.
 */
#include <stdio.h>
#include <string.h>

#include "record/logp.h"
#include "tap.h"

static json_t *rec(const char *bench, const char *status, double mean, const char *params)
{
	json_error_t err;
	json_t *r = json_pack("{s:s, s:s, s:o}", "bench", bench, "status", status,
			      "params", json_loads(params, 0, &err));
	if (!strcmp(status, "ok") || !strcmp(status, "unstable"))
		json_object_set_new(r, "mean", json_real(mean)),
		json_object_set_new(r, "median", json_real(mean)),
		json_object_set_new(r, "samples", json_pack("[f]", mean));
	else
		json_object_set_new(r, "reason", json_string("boom"));
	return r;
}

/* The LogP records of a run whose results are `in`. */
static json_t *derive(json_t *in)
{
	json_t *doc = json_pack("{s:s, s:s, s:{s:s, s:{s:s}}, s:O}", "schema", "ptbench/1",
				"status", "complete", "context", "host", "h", "cpu", "brand", "b",
				"results", in);
	char err[256] = "";
	struct ptb_runfile *run = ptb_runfile_of(doc, err, sizeof err);
	json_t *out = run ? ptb_logp_derive(run) : NULL;
	if (!run)
		printf("# %s\n", err);
	ptb_runfile_free(run);
	json_decref(doc);
	return out;
}

static const char *s(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));
	return v ? v : "";
}

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static const json_t *find(const json_t *out, const char *bench, const char *placement, size_t *at)
{
	size_t i;
	json_t *r;
	json_array_foreach(out, i, r)
		if (!strcmp(s(r, "bench"), bench) &&
		    !strcmp(s(json_object_get(r, "params"), "placement"), placement)) {
			*at = i;
			return r;
		}
	return NULL;
}

int main(void)
{
	json_t *in = json_array(), *out;
	const json_t *r;
	size_t at = 99, at2 = 99;

	out = derive(in);
	tap_ok(json_array_size(out) == 0, "no results: no LogP records");
	json_decref(out);

	json_array_append_new(in, rec("mutex.pingpong", "ok", 1000, "{\"placement\":\"cross_core\"}"));
	json_array_append_new(in, rec("mutex.pingpong", "ok", 400, "{\"placement\":\"same_pu\"}"));
	json_array_append_new(in, rec("mutex.pingpong", "na", 0, "{\"placement\":\"smt\"}"));
	json_array_append_new(in, rec("mutex.unlock", "ok", 99, "{\"mutexes\":\"64\"}"));
	json_array_append_new(in, rec("mutex.unlock", "ok", 10, "{\"mutexes\":\"1024\"}"));
	json_array_append_new(in, rec("mutex.lock", "unstable", 20, "{\"mutexes\":\"64\"}"));
	json_array_append_new(in, rec("mutex.gap", "unstable", 5, "{\"placement\":\"cross_core\"}"));
	json_array_append_new(in, rec("mutex.gap", "error", 0, "{\"placement\":\"smt\"}"));
	out = derive(in);
	tap_ok(json_array_size(out) == 3, "mutex only: one record per ping-pong placement (got %zu)",
	       json_array_size(out));

	r = find(out, "logp.mutex", "cross_core", &at);
	tap_ok(r && !strcmp(s(r, "status"), "unstable"),
	       "cross_core: unstable, since o_r and g come from unstable records");
	tap_ok(r && num(r, "rtt") == 1000 && num(r, "o_s") == 10 && num(r, "o_r") == 20 &&
	       num(r, "g") == 5, "cross_core: rtt, o_s (mutexes=1024 preferred), o_r (only record), g");
	tap_ok(r && num(r, "L") == 1000.0 / 2 - 10 - 20, "cross_core: L = rtt/2 - o_s - o_r exactly");
	tap_ok(r && !strcmp(s(r, "reason"), "from unstable inputs (o_r, g)") &&
	       !strcmp(s(r, "unit"), "ns"), "cross_core: reason names the unstable inputs, unit ns");
	const json_t *inputs = r ? json_object_get(r, "inputs") : NULL;
	tap_ok(inputs && !strcmp(s(inputs, "rtt"), "mutex.pingpong placement=cross_core") &&
	       !strcmp(s(inputs, "o_s"), "mutex.unlock mutexes=1024") &&
	       !strcmp(s(inputs, "o_r"), "mutex.lock mutexes=64") &&
	       !strcmp(s(inputs, "g"), "mutex.gap placement=cross_core"),
	       "cross_core: inputs name the records used");

	r = find(out, "logp.mutex", "same_pu", &at2);
	tap_ok(r && !strcmp(s(r, "status"), "unstable") &&
	       !strcmp(s(r, "reason"), "g: no mutex.gap placement=same_pu in the results; "
		       "from unstable inputs (o_r)") &&
	       json_is_null(json_object_get(r, "g")) && num(r, "L") == 400.0 / 2 - 10 - 20,
	       "same_pu: without a gap, g is null and the rest is derived (%s)",
	       r ? s(r, "reason") : "");
	tap_ok(at2 < at, "records in placement order (same_pu before cross_core)");

	r = find(out, "logp.mutex", "smt", &at);
	tap_ok(r && !strcmp(s(r, "status"), "na") &&
	       strstr(s(r, "reason"), "mutex.pingpong placement=smt is na: boom") &&
	       strstr(s(r, "reason"), "mutex.gap placement=smt is error: boom"),
	       "smt: na, reason names both failed inputs (%s)", r ? s(r, "reason") : "");
	json_decref(out);

	json_array_append_new(in, rec("cond.pingpong", "ok", 900, "{\"placement\":\"cross_core\",\"signal\":\"unlocked\"}"));
	json_array_append_new(in, rec("cond.pingpong", "ok", 800, "{\"placement\":\"cross_core\",\"signal\":\"locked\"}"));
	json_array_append_new(in, rec("cond.signal", "ok", 2, "{}"));
	json_array_append_new(in, rec("cond.wait", "ok", 300, "{\"placement\":\"cross_core\"}"));
	json_array_append_new(in, rec("cond.gap", "ok", 50, "{\"placement\":\"cross_core\"}"));
	out = derive(in);
	r = find(out, "logp.cond", "cross_core", &at);
	tap_ok(r && !strcmp(s(r, "status"), "ok") && num(r, "rtt") == 800 && num(r, "o_s") == 2 &&
	       num(r, "o_r") == 300 && num(r, "g") == 50 && num(r, "L") == 400.0 - 2 - 300,
	       "cond cross_core: signal=locked ping-pong preferred, L exact");
	inputs = r ? json_object_get(r, "inputs") : NULL;
	tap_ok(inputs && !strcmp(s(inputs, "rtt"), "cond.pingpong placement=cross_core signal=locked") &&
	       !strcmp(s(inputs, "o_s"), "cond.signal"), "cond inputs: variables in name order");
	tap_ok(json_array_size(out) == 4, "three mutex records and one cond record");
	json_decref(out);

	json_decref(in);
	tap_done();
	return tap_exit();
}
