/* SPDX-License-Identifier: MIT */
/*
 * The rows of a table laid out like the paper's Table 1.  A result record
 * (bench + params) is looked up in its benchmark's row rules (struct
 * ptb_row_rule in harness/ptbench.h), top to bottom; the first rule whose
 * values it has gives its group, label and place.  Rows come in sections
 * -- the paper's rows, the derived LogP parameters, other benchmarks,
 * benchmarks this program does not know -- and within a section in the
 * order of bench/list.h, then of the rules, then of the placements from
 * nearest to farthest.  A record no rule describes gets a row labelled by
 * its name and variables, so that every record has a row.
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptbench.h"
#include "record/logp.h"
#include "report/legend.h"
#include "report/rows.h"
#include "text/text.h"

/* Section bases of the row order; a benchmark's rows take 100 places. */
enum { ORDER_PAPER = 100000, ORDER_LOGP = 200000, ORDER_EXTRA = 300000,
       ORDER_UNKNOWN = 900000 };
#define ORDER_PER_BENCH 100
#define ORDER_PER_RULE  10
#define ORDER_BY_NAME   90      /* a known benchmark's point no rule names */

/* Placements by their Table-1 names, nearest first (the enum's order). */
static const char *const placement_labels[PTB_PLACEMENT_COUNT] = {
	[PTB_UNBOUND]       = "Unbound",
	[PTB_SAME_PU]       = "Same CPU",
	[PTB_SMT]           = "Different CPUs (smt)",
	[PTB_CROSS_CORE]    = "Different CPUs (cross_core)",
	[PTB_CROSS_PACKAGE] = "Different CPUs (cross_package)",
	[PTB_CROSS_NUMA]    = "Different CPUs (cross_numa)",
};

/* A placement's rank (an unknown one after the known ones) and its label. */
static int placement_rank(const char *name, const char **label)
{
	int p = ptb_placement_from_name(name);
	*label = p >= 0 ? placement_labels[p] : name;
	return p >= 0 ? p : PTB_PLACEMENT_COUNT;
}

/* Is `var` one of the variables named in `match`? */
static bool names_var(const char *match, const char *var)
{
	size_t n = strlen(var);
	for (const char *t = match; *t; t += strspn(t, " ")) {
		if (!strncmp(t, var, n) && t[n] == '=')
			return true;
		t += strcspn(t, " ");
	}
	return false;
}

/* Match one "VAR=VALUE" token of length len; the wildcard's value goes to *wild. */
static bool token_matches(const char *t, size_t len, const json_t *params,
			  const char **wild_var, const char **wild_val)
{
	char var[64], want[64];
	const char *eq = memchr(t, '=', len);
	size_t vl = eq ? (size_t)(eq - t) : len, wl = eq ? len - vl - 1 : 0;
	if (vl >= sizeof var || wl >= sizeof want)
		return false;
	memcpy(var, t, vl);
	var[vl] = 0;
	memcpy(want, eq ? eq + 1 : "", wl);
	want[wl] = 0;
	bool optional = wl && want[wl - 1] == '?';
	if (optional)
		want[wl - 1] = 0;
	const char *have = json_string_value(json_object_get(params, var));
	if (!have)
		return optional;
	if (!strcmp(want, "*")) {
		*wild_var = t;
		*wild_val = have;
		return true;
	}
	return !strcmp(want, have);
}

static bool rule_matches(const struct ptb_row_rule *r, const json_t *params,
			 const char **wild_var, const char **wild_val)
{
	for (const char *t = r->match + strspn(r->match, " "); *t; t += strspn(t, " ")) {
		size_t len = strcspn(t, " ");
		if (!token_matches(t, len, params, wild_var, wild_val))
			return false;
		t += len;
	}
	return true;
}

/* "1 threads" -> "1 thread": a template's plural after the value 1. */
static void singular_one(char *label)
{
	size_t word = strcspn(label + 2, " ,");
	if (strncmp(label, "1 ", 2) || word < 2 || label[2 + word - 1] != 's')
		return;
	memmove(label + 2 + word - 1, label + 2 + word, strlen(label + 2 + word) + 1);
}

/* "65536 B" -> "64 KiB": a size in bytes that is a whole number of KiB,
 * MiB or GiB, so that the label stays short and readable. */
static void short_bytes(char *label, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB" };
	char *end;
	unsigned long long b = strtoull(label, &end, 10);
	int u = -1;
	if (end == label || strcmp(end, " B") || b < 1024)
		return;
	while (u < 2 && b % 1024 == 0 && b >= 1024) {
		b /= 1024;
		u++;
	}
	if (u >= 0)
		snprintf(label, len, "%llu %s", b, units[u]);
}

/* The row a rule gives: label from its template, unnamed variables after. */
static void row_from_rule(const struct ptb_row_rule *r, int order, const json_t *params,
			  const char *wild_var, const char *wild_val, struct ptb_row *row)
{
	const char *text = wild_val, *var;
	int sub = 0;
	json_t *v;
	if (wild_var && !strncmp(wild_var, "placement=", 10))
		sub = placement_rank(wild_val, &text);
	row->order = order + sub;
	ptb_textf(row->group, sizeof row->group, "%s", r->group);
	ptb_textf(row->label, sizeof row->label, r->label, text ? text : "");
	if (wild_val) {
		char *end;
		double x = strtod(wild_val, &end);
		row->num = end != wild_val && !*end ? x : NAN;
	}
	if (wild_val && !strcmp(wild_val, "1"))
		singular_one(row->label);
	short_bytes(row->label, sizeof row->label);
	row->footnote = r->footnote;
	json_object_foreach((json_t *)params, var, v)
		if (!names_var(r->match, var))
			ptb_appendf(row->label, sizeof row->label, ", %s=%s", var,
				    json_is_string(v) ? json_string_value(v) : "?");
}

/* A row no rule labels: the benchmark alone, or with variables a group
 * naming them once, "family.variant (threads, order)", over rows of their
 * values, "1, compact". */
static void row_by_name(const char *bench, const json_t *params, int order,
			const char *footnote, struct ptb_row *row)
{
	const char *var;
	json_t *v;
	row->order = order;
	row->group[0] = 0;
	row->label[0] = 0;
	row->footnote = footnote;
	if (json_object_size(params) == 0) {
		ptb_textf(row->label, sizeof row->label, "%s", bench);
		return;
	}
	ptb_textf(row->group, sizeof row->group, "%s (", bench);
	json_object_foreach((json_t *)params, var, v) {
		ptb_appendf(row->group, sizeof row->group, "%s%s", row->label[0] ? ", " : "", var);
		ptb_appendf(row->label, sizeof row->label, "%s%s", row->label[0] ? ", " : "",
			    json_is_string(v) ? json_string_value(v) : "?");
	}
	ptb_appendf(row->group, sizeof row->group, ")");
}

/* Does a "VAR=VALUE ..." match hold for the params? */
static bool match_holds(const char *match, const json_t *params)
{
	struct ptb_row_rule r = { .match = match };
	const char *wv = NULL, *wval = NULL;
	return rule_matches(&r, params, &wv, &wval);
}

/* A point bounded by the scheduler says so at the end of its label. */
static void mark_time_sliced(const struct ptb_bench *b, const json_t *params, struct ptb_row *row)
{
	row->time_sliced = b->time_sliced && match_holds(b->time_sliced, params);
	if (row->time_sliced)
		ptb_appendf(row->label, sizeof row->label, " %s",
			    ptb_legend[PTB_MARK_TIME_SLICE].mark);
}

static int registry_index(const struct ptb_bench *b)
{
	for (int i = 0; i < ptb_registry_count; i++)
		if (ptb_registry[i] == b)
			return i;
	return ptb_registry_count;
}

/* A derived LogP record: "LogP: <mechanism>", one row per placement, in the
 * order of the mechanisms' round-trip benchmarks. */
static bool logp_row(const char *bench, const json_t *params, struct ptb_row *row)
{
	const char *mechanism = ptb_logp_mechanism_of(bench), *label;
	const struct ptb_bench *rtt = mechanism ? ptb_logp_source(mechanism, PTB_LOGP_RTT) : NULL;
	const char *placement = json_string_value(json_object_get(params, "placement"));
	if (!rtt)
		return false;
	int rank = placement ? placement_rank(placement, &label) : 0;
	row->order = ORDER_LOGP + ORDER_PER_BENCH * registry_index(rtt) + rank;
	ptb_textf(row->group, sizeof row->group, "LogP: %s", rtt->logp.label ?: mechanism);
	ptb_textf(row->label, sizeof row->label, "%s", placement ? label : "");
	row->footnote = NULL;
	return true;
}

void ptb_row_of(const char *bench, const json_t *params, struct ptb_row *row)
{
	const struct ptb_bench *b;
	const char *wv, *wval;
	row->time_sliced = false;
	row->num = NAN;
	if (!bench)
		bench = "?";
	if (!json_is_object(params))
		params = NULL;
	if (logp_row(bench, params, row))
		return;
	if (!(b = ptb_bench_find(bench))) {
		row_by_name(bench, params, ORDER_UNKNOWN, NULL, row);
		return;
	}
	int order = (b->section == PTB_SECTION_PAPER ? ORDER_PAPER : ORDER_EXTRA) +
		    ORDER_PER_BENCH * registry_index(b);
	for (int i = 0; b->rows && b->rows[i].match; i++) {
		wv = wval = NULL;
		if (!rule_matches(&b->rows[i], params, &wv, &wval))
			continue;
		if (b->rows[i].label)
			row_from_rule(&b->rows[i], order + ORDER_PER_RULE * i, params, wv, wval, row);
		else
			row_by_name(bench, params, order + ORDER_PER_RULE * i, b->rows[i].footnote, row);
		mark_time_sliced(b, params, row);
		return;
	}
	row_by_name(bench, params, order + ORDER_BY_NAME, NULL, row);
	mark_time_sliced(b, params, row);
}

int ptb_row_cmp(const struct ptb_row *a, const struct ptb_row *b)
{
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	/* a lone row's label is its name, as a group's is */
	int c = strverscmp(*a->group ? a->group : a->label, *b->group ? b->group : b->label);
	if (!c && isfinite(a->num) && isfinite(b->num) && a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return c ? c : strverscmp(a->label, b->label);
}
