/* SPDX-License-Identifier: MIT */
/*
 * A cross-node point from its trials, and the merge of several launches of
 * one cluster job (record/cluster.h).  Separate launches of the same
 * measurement fall into modes (docs/design.md section 16): the trials of
 * one launch share its processes' state and understate the spread, so a
 * merged point's figure and CI come from the trials of every launch, each
 * trial keeping its launch and round.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/cluster.h"
#include "stats/trials.h"
#include "text/size.h"
#include "text/text.h"

json_t *ptb_cluster_point(const char *bench, json_t *params, const char *per, json_t *trials,
			  double target_pct)
{
	struct ptb_trials_summary s;
	size_t n = json_array_size(trials), i;
	double *est = ptb_array_realloc(NULL, n + 1, sizeof *est);
	const json_t *t;
	char why[160];
	if (!est || n == 0) {
		free(est);
		json_decref(params);
		json_decref(trials);
		return NULL;
	}
	json_array_foreach(trials, i, t)
		est[i] = json_number_value(json_object_get(t, "estimate"));
	ptb_trials_summarize(est, (int)n, &s);
	free(est);
	/* As for ptbench's points: a CI wider than the target is unstable,
	 * saying so, never ok. */
	bool stable = s.halfwidth_pct <= target_pct;
	snprintf(why, sizeof why, "95 %% CI +-%.1f %% of the value, wider than the target +-%g %%",
		 s.halfwidth_pct, target_pct);
	return json_pack("{s:s,s:o,s:s,s:s?,s:s,s:s,s:f,s:[f,f],s:f,s:i,s:o}", "bench", bench,
		"params", params, "status", stable ? "ok" : "unstable", "reason",
		stable ? NULL : why, "unit", "ns", "per", per,
		"value", s.value, "ci95", s.ci_lo, s.ci_hi, "coverage", s.coverage,
		"modes", s.nmodes, "trials", trials);
}

/* A string field, "" when absent (the documents are validated). */
static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* What must agree for launches to be one configuration: a field of the
 * context, or of its mpi object. */
static const char *const same_ctx[] = { "threads", "as_nodes" };
static const char *const same_mpi[] = { "library", "provided" };

static int differ(const json_t *a, const json_t *b, const char *path, const char *what,
		  char *err, size_t errlen)
{
	if (json_equal(json_object_get(a, what), json_object_get(b, what)) ||
	    (!json_object_get(a, what) && !json_object_get(b, what)))
		return 0;
	ptb_errf(err, errlen, "%s: %s differs from the first file's: not the same configuration",
		 path, what);
	return -1;
}

/* The same configuration as the first: context, nodes, points in order. */
static int same_config(const json_t *first, const json_t *doc, const char *path, char *err,
		       size_t errlen)
{
	const json_t *c0 = json_object_get(first, "context"), *c1 = json_object_get(doc, "context");
	const json_t *r0 = json_object_get(first, "results"), *r1 = json_object_get(doc, "results");
	for (size_t i = 0; i < sizeof same_ctx / sizeof *same_ctx; i++)
		if (differ(c0, c1, path, same_ctx[i], err, errlen) < 0)
			return -1;
	for (size_t i = 0; i < sizeof same_mpi / sizeof *same_mpi; i++)
		if (differ(json_object_get(c0, "mpi"), json_object_get(c1, "mpi"), path, same_mpi[i],
			   err, errlen) < 0)
			return -1;
	if (json_array_size(json_object_get(c0, "nodes")) != json_array_size(json_object_get(c1, "nodes"))) {
		ptb_errf(err, errlen, "%s: %zu nodes, the first file has %zu", path,
			 json_array_size(json_object_get(c1, "nodes")),
			 json_array_size(json_object_get(c0, "nodes")));
		return -1;
	}
	if (json_array_size(r0) != json_array_size(r1)) {
		ptb_errf(err, errlen, "%s: %zu results, the first file has %zu: not the same points",
			 path, json_array_size(r1), json_array_size(r0));
		return -1;
	}
	for (size_t i = 0; i < json_array_size(r0); i++) {
		const json_t *a = json_array_get(r0, i), *b = json_array_get(r1, i);
		if (!json_equal(json_object_get(a, "bench"), json_object_get(b, "bench")) ||
		    !json_equal(json_object_get(a, "params"), json_object_get(b, "params"))) {
			ptb_errf(err, errlen, "%s: results[%zu] is %s, the first file's %s: not the "
				 "same points", path, i, str(b, "bench"), str(a, "bench"));
			return -1;
		}
		bool na_a = !json_is_array(json_object_get(a, "trials")) && !json_object_get(a, "violations");
		bool na_b = !json_is_array(json_object_get(b, "trials")) && !json_object_get(b, "violations");
		if (na_a != na_b) {
			ptb_errf(err, errlen, "%s: results[%zu] (%s) is measured in one file and not in "
				 "the other: not the same configuration", path, i, str(a, "bench"));
			return -1;
		}
	}
	return 0;
}

/* Point i of every launch as one: trials pooled (each with its launch),
 * or the check's episodes and violations added up. */
static json_t *merge_point(json_t *const *docs, int n, size_t i, double target_pct)
{
	const json_t *first = json_array_get(json_object_get(docs[0], "results"), i);
	if (json_object_get(first, "violations")) {
		json_t *m = json_deep_copy(first);
		json_int_t eps = 0, viol = 0;
		double tol = 0;
		for (int k = 0; k < n; k++) {
			const json_t *r = json_array_get(json_object_get(docs[k], "results"), i);
			eps += json_integer_value(json_object_get(r, "episodes"));
			viol += json_integer_value(json_object_get(r, "violations"));
			if (json_number_value(json_object_get(r, "tolerance_ns")) > tol)
				tol = json_number_value(json_object_get(r, "tolerance_ns"));
		}
		json_object_set_new(m, "episodes", json_integer(eps));
		json_object_set_new(m, "violations", json_integer(viol));
		/* each launch judged its episodes within its own clocks' bound */
		json_object_set_new(m, "tolerance_ns", json_integer((json_int_t)tol));
		if (strcmp(str(first, "status"), "control"))
			json_object_set_new(m, "status", json_string(viol ? "error" : "ok"));
		return m;
	}
	if (!json_is_array(json_object_get(first, "trials")))
		return json_deep_copy(first);   /* na in every launch */
	json_t *trials = json_array();
	for (int k = 0; k < n; k++) {
		const json_t *r = json_array_get(json_object_get(docs[k], "results"), i), *t;
		size_t j;
		json_array_foreach(json_object_get(r, "trials"), j, t) {
			json_t *c = json_deep_copy(t);
			json_object_set_new(c, "launch", json_integer(k + 1));
			json_array_append_new(trials, c);
		}
	}
	return ptb_cluster_point(str(first, "bench"),
				 json_deep_copy(json_object_get(first, "params")),
				 str(first, "per"), trials, target_pct);
}

json_t *ptb_cluster_merge(json_t *const *docs, const char *const *paths, int n,
			  double target_pct, char *err, size_t errlen)
{
	for (int k = 0; k < n; k++) {
		if (strcmp(str(docs[k], "status"), "complete")) {
			ptb_errf(err, errlen, "%s: the job is %s: only complete launches are merged",
				 paths[k], str(docs[k], "status"));
			return NULL;
		}
		if (k && same_config(docs[0], docs[k], paths[k], err, errlen) < 0)
			return NULL;
	}
	json_t *out = json_deep_copy(docs[0]), *results = json_array(), *from = json_array();
	size_t np = json_array_size(json_object_get(docs[0], "results"));
	for (size_t i = 0; i < np; i++) {
		json_t *p = merge_point(docs, n, i, target_pct);
		if (!p) {
			json_decref(results);
			json_decref(from);
			json_decref(out);
			ptb_errf(err, errlen, "out of memory");
			return NULL;
		}
		json_array_append_new(results, p);
	}
	for (int k = 0; k < n; k++)
		json_array_append_new(from, json_string(paths[k]));
	json_object_set_new(out, "results", results);
	if (json_object_get(out, "node_rows")) {
		json_t *rows = ptb_cluster_merge_rows(docs, n, target_pct);
		if (!rows) {
			json_decref(from);
			json_decref(out);
			ptb_errf(err, errlen, "out of memory");
			return NULL;
		}
		json_object_set_new(out, "node_rows", rows);
	}
	json_t *ctx = json_object_get(out, "context");
	json_object_set_new(ctx, "launches", json_integer(n));
	json_object_set_new(ctx, "merged_from", from);
	return out;
}
