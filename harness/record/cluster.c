/* SPDX-License-Identifier: MIT */
/*
 * Validation of a ptbench-cluster/1 document (record/cluster.h), with the
 * vocabulary of the run file's validation (record/check.h): every field a
 * reader uses, its kind and domain, one line saying where it is wrong.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "record/check.h"
#include "record/cluster.h"
#include "record/runfile.h"
#include "text/text.h"

static const char *const statuses[] = { "running", "complete", "incomplete" };

static const struct ptb_field_rule header_fields[] = {
	/* key          kind       domain      need */
	{ "status",     K_STRING,  D_FINITE,   ALWAYS },
	{ "version",    K_STRING,  D_FINITE,   OPTIONAL },
	{ "context",    K_OBJECT,  D_FINITE,   ALWAYS },
	{ "results",    K_ARRAY,   D_FINITE,   ALWAYS },
	{ "node_rows",  K_ARRAY,   D_FINITE,   OPTIONAL },
}, context_fields[] = {
	{ "mpi",        K_OBJECT,  D_FINITE,   OPTIONAL },
	{ "nodes",      K_ARRAY,   D_FINITE,   ALWAYS },
	{ "as_nodes",   K_BOOL,    D_FINITE,   OPTIONAL },
	{ "threads",    K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "rounds",     K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "launches",   K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "merged_from", K_ARRAY,  D_FINITE,   OPTIONAL },
	{ "environment", K_OBJECT, D_FINITE,   OPTIONAL },
	{ "clock",      K_OBJECT,  D_FINITE,   OPTIONAL },
	{ "node_suite", K_OBJECT,  D_FINITE,   OPTIONAL },
}, mpi_fields[] = {
	{ "library",    K_STRING,  D_FINITE,   OPTIONAL },
	{ "version",    K_STRING,  D_FINITE,   OPTIONAL },
	{ "standard",   K_STRING,  D_FINITE,   OPTIONAL },
	{ "requested",  K_STRING,  D_FINITE,   OPTIONAL },
	{ "provided",   K_STRING,  D_FINITE,   OPTIONAL },
	{ "launcher",   K_STRING,  D_FINITE,   OPTIONAL },
}, node_fields[] = {
	{ "host",       K_STRING,  D_FINITE,   ALWAYS },
	{ "rank",       K_NUMBER,  D_COUNT,    ALWAYS },
	{ "cpuset",     K_STRING,  D_FINITE,   OPTIONAL },
	{ "pus",        K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "fewer_pus_than_threads", K_BOOL, D_FINITE, OPTIONAL },
	{ "context",    K_OBJECT,  D_FINITE,   OPTIONAL },
}, node_suite_fields[] = {
	{ "rounds_together", K_BOOL, D_FINITE,  OPTIONAL },
	{ "start_ahead_ns", K_NUMBER, D_NONNEG, OPTIONAL },
	{ "clock_width_ns", K_NUMBER, D_NONNEG, OPTIONAL },
	{ "rounds",     K_ARRAY,   D_FINITE,   OPTIONAL },
}, suite_round_fields[] = {
	{ "round",      K_NUMBER,  D_COUNT,    ALWAYS },
	{ "nodes",      K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "start_skew_ns", K_NUMBER, D_NONNEG, ALWAYS },
	{ "gap_ns",     K_NUMBER,  D_FINITE,   OPTIONAL },
	{ "starts_ns",  K_ARRAY,   D_FINITE,   OPTIONAL },
	{ "lengths_ns", K_ARRAY,   D_FINITE,   OPTIONAL },
}, clock_fields[] = {
	{ "method",     K_STRING,  D_FINITE,   OPTIONAL },
	{ "offsets",    K_ARRAY,   D_FINITE,   OPTIONAL },
	{ "resyncs",    K_ARRAY,   D_FINITE,   OPTIONAL },
}, offset_fields[] = {
	{ "rank",       K_NUMBER,  D_COUNT,    ALWAYS },
	{ "offset_ns",  K_NUMBER,  D_FINITE,   ALWAYS },
	{ "width_ns",   K_NUMBER,  D_NONNEG,   ALWAYS },
	{ "rejected",   K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "best_rtt_ns", K_NUMBER, D_NONNEG,   OPTIONAL },
	{ "parent",     K_NUMBER,  D_FINITE,   OPTIONAL },
}, result_fields[] = {
	{ "bench",      K_STRING,  D_FINITE,   ALWAYS },
	{ "params",     K_OBJECT,  D_FINITE,   ALWAYS },
	{ "status",     K_STRING,  D_FINITE,   ALWAYS },
	{ "reason",     K_STRING,  D_FINITE,   OPTIONAL },
	{ "unit",       K_STRING,  D_FINITE,   OPTIONAL },
	{ "per",        K_STRING,  D_FINITE,   OPTIONAL },
	{ "value",      K_NUMBER,  D_DURATION, OPTIONAL },
	{ "ci95",       K_ARRAY,   D_FINITE,   OPTIONAL },
	{ "coverage",   K_NUMBER,  D_UNIT,     OPTIONAL },
	{ "modes",      K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "trials",     K_ARRAY,   D_FINITE,   OPTIONAL },
	{ "episodes",   K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "violations", K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "tolerance_ns", K_NUMBER, D_NONNEG,  OPTIONAL },
	{ "exit_skew_ns_median", K_NUMBER, D_FINITE, OPTIONAL },
}, trial_fields[] = {
	{ "estimate",   K_NUMBER,  D_DURATION, ALWAYS },
	{ "round",      K_NUMBER,  D_COUNT,    OPTIONAL },
	{ "launch",     K_NUMBER,  D_COUNT,    OPTIONAL },
}, row_fields[] = {
	{ "bench",      K_STRING,  D_FINITE,   ALWAYS },
	{ "params",     K_OBJECT,  D_FINITE,   ALWAYS },
	{ "per_node",   K_OBJECT,  D_FINITE,   ALWAYS },
	{ "median",     K_NUMBER,  D_DURATION, OPTIONAL },
	{ "p5",         K_NUMBER,  D_DURATION, OPTIONAL },
	{ "p95",        K_NUMBER,  D_DURATION, OPTIONAL },
	{ "spread_pct", K_NUMBER,  D_NONNEG,   OPTIONAL },
	{ "outliers",   K_ARRAY,   D_FINITE,   OPTIONAL },
}, figure_fields[] = {
	{ "value",      K_NUMBER,  D_DURATION, OPTIONAL },
	{ "status",     K_STRING,  D_FINITE,   ALWAYS },
	{ "ci95",       K_ARRAY,   D_FINITE,   OPTIONAL },
};

/* A CI: a pair of finite numbers, when there is one. */
static int check_ci(struct ptb_check *c, const json_t *rec)
{
	const json_t *ci = json_object_get(rec, "ci95");
	if (json_is_array(ci) && json_array_size(ci) != 2)
		return ptb_check_bad(c, "field 'ci95' is not a pair");
	return ptb_check_members(c, ci, "ci95", K_NUMBER, false) < 0 ? -1
		: ptb_check_numbers(c, ci, "ci95", D_FINITE);
}

/* The rules on every element of an array, which must all be objects;
 * where says which array ("results"), so a message reads "results[3]: ...". */
static int check_array(struct ptb_check *c, const json_t *a, const char *where,
		       const struct ptb_field_rule *f, size_t n,
		       int (*more)(struct ptb_check *c, const json_t *o))
{
	const json_t *o;
	size_t i;
	json_array_foreach(a, i, o) {
		snprintf(c->where, sizeof c->where, "%.40s[%zu]", where, i % 1000000000);
		if (!json_is_object(o))
			return ptb_check_bad(c, "not an object");
		if (ptb_check_fields(c, o, f, n, NO_VALUE) < 0 || (more && more(c, o) < 0))
			return -1;
	}
	return 0;
}

static int check_result(struct ptb_check *c, const json_t *rec)
{
	char where[sizeof c->where];
	snprintf(where, sizeof where, "%.40s.trials", c->where);
	if (ptb_check_members(c, json_object_get(rec, "params"), "params", K_SCALAR, false) < 0 ||
	    check_ci(c, rec) < 0)
		return -1;
	return check_array(c, json_object_get(rec, "trials"), where,
			   trial_fields, NRULES(trial_fields), NULL);
}

static int check_row(struct ptb_check *c, const json_t *row)
{
	const char *node;
	const json_t *fig;
	char where[sizeof c->where];
	snprintf(where, sizeof where, "%s", c->where);
	if (ptb_check_members(c, json_object_get(row, "params"), "params", K_SCALAR, false) < 0 ||
	    ptb_check_members(c, json_object_get(row, "outliers"), "outliers", K_STRING, false) < 0)
		return -1;
	json_object_foreach((json_t *)json_object_get(row, "per_node"), node, fig) {
		snprintf(c->where, sizeof c->where, "%.30s.per_node.%.20s", where, node);
		if (!json_is_object(fig))
			return ptb_check_bad(c, "not an object");
		if (ptb_check_fields(c, fig, figure_fields, NRULES(figure_fields), NO_VALUE) < 0 ||
		    check_ci(c, fig) < 0)
			return -1;
	}
	return 0;
}

static int check_context(struct ptb_check *c, const json_t *ctx)
{
	const json_t *clock = json_object_get(ctx, "clock");
	snprintf(c->where, sizeof c->where, "context");
	if (ptb_check_fields(c, ctx, context_fields, NRULES(context_fields), NO_VALUE) < 0)
		return -1;
	snprintf(c->where, sizeof c->where, "context.mpi");
	if (ptb_check_fields(c, json_object_get(ctx, "mpi"), mpi_fields, NRULES(mpi_fields),
			     NO_VALUE) < 0)
		return -1;
	snprintf(c->where, sizeof c->where, "context.clock");
	if (ptb_check_fields(c, clock, clock_fields, NRULES(clock_fields), NO_VALUE) < 0)
		return -1;
	const json_t *ns = json_object_get(ctx, "node_suite");
	snprintf(c->where, sizeof c->where, "context.node_suite");
	if (ptb_check_fields(c, ns, node_suite_fields, NRULES(node_suite_fields), NO_VALUE) < 0 ||
	    check_array(c, json_object_get(ns, "rounds"), "context.node_suite.rounds",
			suite_round_fields, NRULES(suite_round_fields), NULL) < 0)
		return -1;
	return check_array(c, json_object_get(ctx, "nodes"), "context.nodes", node_fields,
			   NRULES(node_fields), NULL) < 0 ? -1
		: check_array(c, json_object_get(clock, "offsets"), "context.clock.offsets",
			      offset_fields, NRULES(offset_fields), NULL);
}

bool ptb_cluster_is(const json_t *doc)
{
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	return schema && !strcmp(schema, PTB_CLUSTER_SCHEMA);
}

int ptb_cluster_validate(const json_t *doc, char *err, size_t errlen)
{
	struct ptb_check c = { err, errlen, "", false };
	if (!ptb_cluster_is(doc))
		return ptb_check_bad(&c, "not a %s file", PTB_CLUSTER_SCHEMA);
	if (ptb_check_fields(&c, doc, header_fields, NRULES(header_fields), NO_VALUE) < 0)
		return -1;
	const char *status = json_string_value(json_object_get(doc, "status"));
	size_t i;
	for (i = 0; i < sizeof statuses / sizeof *statuses; i++)
		if (!strcmp(status, statuses[i]))
			break;
	if (i == sizeof statuses / sizeof *statuses)
		return ptb_check_bad(&c, "status '%.40s' is not one of running, complete, incomplete",
				     status);
	return check_context(&c, json_object_get(doc, "context")) < 0 ||
	       check_array(&c, json_object_get(doc, "results"), "results", result_fields,
			   NRULES(result_fields), check_result) < 0 ||
	       check_array(&c, json_object_get(doc, "node_rows"), "node_rows", row_fields,
			   NRULES(row_fields), check_row) < 0 ? -1 : 0;
}

json_t *ptb_cluster_load(const char *path, char *err, size_t errlen)
{
	return ptb_doc_load(path, ptb_cluster_validate, err, errlen);
}
