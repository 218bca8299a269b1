/* SPDX-License-Identifier: MIT */
/*
 * The derived matrix of PU pairs (record/matrix.h): the summary per class
 * of a hand-made set of pairs (min, median of odd and even counts, max,
 * pairs without a value and of other classes left out), and the record
 * derived from hand-made c2c.pair points -- PUs sorted, each figure in its
 * sender's row and receiver's column, null elsewhere, the status and the
 * reason for points without a value -- which the validator accepts.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record/matrix.h"
#include "record/validate.h"
#include "tap.h"

static void summary(void)
{
	const char *cls[] = { "cross_core", "smt", "cross_core", "cross_core", "cross_package",
			      "cross_package", "cross_core", "same_pu", "cross_numa" };
	const double ns[] = { 40, 12, 10, 70, 200, 100, 30, 1, NAN };
	struct ptb_matrix_class s[PTB_MATRIX_NCLASSES];
	ptb_matrix_summarize(cls, ns, 9, s);
	tap_ok(s[0].pairs == 1 && s[0].min == 12 && s[0].median == 12 && s[0].max == 12,
	       "smt: one pair, 12 throughout");
	tap_ok(s[1].pairs == 4 && s[1].min == 10 && s[1].median == 35 && s[1].max == 70,
	       "cross_core: 4 pairs, min 10, median (30+40)/2 = 35, max 70 (%g %g %g)",
	       s[1].min, s[1].median, s[1].max);
	tap_ok(s[2].pairs == 2 && s[2].min == 100 && s[2].median == 150 && s[2].max == 200,
	       "cross_package: 2 pairs, median 150");
	tap_ok(s[3].pairs == 0 && isnan(s[3].min) && isnan(s[3].median) && isnan(s[3].max),
	       "cross_numa: its one pair has no value: 0 pairs, no figures");
}

static json_t *point(const char *pair, const char *status, double v, int from, int to,
		     const char *cls)
{
	json_t *r = json_pack("{s:s, s:{s:s}, s:s, s:{s:i, s:i, s:s}}", "bench", "c2c.pair",
			      "params", "pair", pair, "status", status, "notes", "sender", from,
			      "receiver", to, "class", cls);
	if (!strcmp(status, "ok") || !strcmp(status, "unstable"))
		json_object_set_new(r, "mean", json_real(v)),
		json_object_set_new(r, "median", json_real(v)),
		json_object_set_new(r, "samples", json_pack("[f]", v));
	else
		json_object_set_new(r, "reason", json_string("boom"));
	return r;
}

static json_t *derive(json_t *results)
{
	json_t *doc = json_pack("{s:s, s:s, s:{s:s, s:{s:s}}, s:o}", "schema", "ptbench/1",
				"status", "complete", "context", "host", "h", "cpu", "brand", "b",
				"results", results);
	char err[256] = "";
	struct ptb_runfile *run = ptb_runfile_of(doc, err, sizeof err);
	json_t *out = run ? ptb_matrix_derive(run) : NULL;
	if (!run)
		printf("# %s\n", err);
	if (out && json_array_size(out) == 1) {
		json_array_append(json_object_get(doc, "results"), json_array_get(out, 0));
		tap_ok(ptb_run_validate(doc, err, sizeof err) > 0,
		       "a file with the derived record validates (%s)", err);
	}
	ptb_runfile_free(run);
	json_decref(doc);
	return out;
}

static double cell(const json_t *rec, int i, int j)
{
	const json_t *v = json_array_get(json_array_get(json_object_get(rec, "matrix"), i), j);
	return json_is_number(v) ? json_number_value(v) : -1;
}

static void derived(void)
{
	json_t *out = derive(json_pack("[o, o, o, o]", point("0", "ok", 50, 4, 2, "cross_core"),
				       point("1", "ok", 60, 2, 4, "cross_core"),
				       point("2", "unstable", 20, 4, 5, "smt"),
				       point("3", "error", 0, 5, 4, "smt")));
	json_t *r = json_array_get(out, 0);
	char *pus = json_dumps(json_object_get(r, "pus"), JSON_COMPACT);
	tap_ok(json_array_size(out) == 1 && !strcmp(json_string_value(json_object_get(r, "bench")), "c2c"),
	       "one record, named by the descriptor's matrix: c2c");
	tap_ok(pus && !strcmp(pus, "[2,4,5]"), "pus sorted: %s", pus ? pus : "?");
	tap_ok(cell(r, 1, 0) == 50 && cell(r, 0, 1) == 60 && cell(r, 1, 2) == 20 &&
	       cell(r, 2, 1) == -1 && cell(r, 0, 0) == -1 && cell(r, 0, 2) == -1,
	       "sender's row, receiver's column; null unmeasured, failed and on the diagonal");
	const json_t *cc = json_object_get(json_object_get(r, "classes"), "cross_core");
	tap_ok(json_integer_value(json_object_get(cc, "pairs")) == 2 &&
	       json_number_value(json_object_get(cc, "median")) == 55,
	       "classes: cross_core 2 pairs, median 55");
	const char *why = json_string_value(json_object_get(r, "reason"));
	tap_ok(!strcmp(json_string_value(json_object_get(r, "status")), "unstable") && why &&
	       strstr(why, "1 of 4 points of c2c.pair have no value: boom") &&
	       strstr(why, "1 of 3 pairs are unstable"),
	       "unstable, and the reason counts the failed and unstable pairs: %s", why ? why : "-");
	free(pus);
	json_decref(out);

	out = derive(json_pack("[o]", json_pack("{s:s, s:{s:s}, s:s, s:s}", "bench", "c2c.pair",
						"params", "pair", "0", "status", "na", "reason",
						"needs 2 PUs")));
	r = json_array_get(out, 0);
	tap_ok(!strcmp(json_string_value(json_object_get(r, "status")), "na") &&
	       strstr(json_string_value(json_object_get(r, "reason")), "needs 2 PUs") &&
	       json_array_size(json_object_get(r, "pus")) == 0,
	       "one PU: an na record saying why, with no PUs");
	json_decref(out);
	out = derive(json_array());
	tap_ok(json_array_size(out) == 0, "no points: no record");
	json_decref(out);
}

int main(void)
{
	summary();
	derived();
	tap_done();
	return tap_exit();
}
