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

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ptbench.h"
#include "record/logp.h"
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
	row->footnote = r->footnote;
	json_object_foreach((json_t *)params, var, v)
		if (!names_var(r->match, var))
			ptb_appendf(row->label, sizeof row->label, ", %s=%s", var,
				    json_is_string(v) ? json_string_value(v) : "?");
}

/* "bench VAR=VALUE ...": a row no rule labels. */
static void row_by_name(const char *bench, const json_t *params, int order,
			const char *footnote, struct ptb_row *row)
{
	const char *var;
	json_t *v;
	row->order = order;
	row->group[0] = 0;
	ptb_textf(row->label, sizeof row->label, "%s", bench);
	json_object_foreach((json_t *)params, var, v)
		ptb_appendf(row->label, sizeof row->label, " %s=%s", var,
			    json_is_string(v) ? json_string_value(v) : "?");
	row->footnote = footnote;
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
		return;
	}
	row_by_name(bench, params, order + ORDER_BY_NAME, NULL, row);
}

int ptb_row_cmp(const struct ptb_row *a, const struct ptb_row *b)
{
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	int c = strverscmp(a->group, b->group);
	return c ? c : strverscmp(a->label, b->label);
}
