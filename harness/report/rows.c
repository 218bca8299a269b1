/* SPDX-License-Identifier: MIT */
/*
 * The rows of a table laid out like the paper's Table 1.  A result record
 * (bench + params) is looked up in the rule tables below, top to bottom;
 * the first rule whose values it has gives its group, label and place.
 * Benchmarks the paper does not have follow in name order, labelled by
 * their name and variables, so that every record gets a row and a new
 * benchmark needs no change here.
 */
#include <config.h>

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report/rows.h"

/*
 * A rule's `match` is a list of VAR=VALUE the record's params must have:
 * VALUE "*" accepts any value and puts it into the label's "%s" (a
 * placement by its Table-1 name); a trailing "?" also accepts a record
 * without the variable (files from before it existed).  Variables a rule
 * does not name are appended to the label, so two points never share one.
 */
struct rule {
	const char *bench;
	const char *match;
	const char *group;      /* "" = lone row, label is its whole name */
	const char *label;      /* NULL = "bench VAR=VALUE ..." */
	const char *footnote;
};

#define FN_PROXY    "two client threads do the yielding while the main thread starts and awaits them; on AIX the paper had a proxy thread do the timing"
#define FN_UNLOCKED "the signal is sent after unlocking the mutex; the rows above signal holding it"
#define FN_ONE      "single-threaded process: a C library may skip the atomic instruction then (glibc 2.36 on x86-64 does not); the paper's process was multi-threaded"
#define FN_GAP      "not in the paper: a long burst of messages, the steady-state time per message (Culler et al.), the LogP gap g"
#define FN_JOIN     "not in the paper: pthread_create and pthread_join of one thread"

/* The paper's Table 1, top to bottom. */
static const struct rule paper[] = {
	/* bench                 match                            group                  label                                            footnote */
	{ "create",              "detach=yes scope=system",       "Thread Create",       "Detached, system scope",                        NULL },
	{ "create",              "detach=yes scope=process",      "Thread Create",       "Detached, process scope",                       NULL },
	{ "create",              "detach=no scope=system",        "Thread Create",       "Undetached, system scope",                      NULL },
	{ "create",              "detach=no scope=process",       "Thread Create",       "Undetached, process scope",                     NULL },
	{ "yield",               "proxy=no?",                     "",                    "Thread Yield",                                  NULL },
	{ "yield",               "proxy=yes",                     "",                    "Thread Yield, proxy thread",                    FN_PROXY },
	{ "timeslice",           "",                              "",                    "Time slice",                                    NULL },
	{ "cond.pingpong",       "placement=* signal=locked?",    "Condition Ping-pong", "%s",                                            NULL },
	{ "cond.pingpong",       "placement=* signal=unlocked",   "Condition Ping-pong", "%s, signal after unlock",                       FN_UNLOCKED },
	{ "cond.signal",         "",                              "",                    "Condition Signal",                              NULL },
	{ "cond.wait",           "placement=*",                   "Condition Wait",      "%s",                                            NULL },
	{ "mutex.pingpong",      "placement=*",                   "Mutex Ping-pong",     "%s",                                            NULL },
	{ "mutex.nocontention",  "",                              "Mutex Ping-pong",     "No Contention",                                 NULL },
	{ "mutex.lockunlock",    "threads=2?",                    "",                    "Mutex lock and unlock",                         NULL },
	{ "mutex.lockunlock",    "threads=1",                     "",                    "Mutex lock and unlock, single-threaded process", FN_ONE },
	{ "mutex.lock",          "mutexes=*",                     "Mutex lock",          "at least %s mutexes",                           NULL },
	{ "mutex.unlock",        "mutexes=*",                     "Mutex unlock",        "at least %s mutexes",                           NULL },
};

/* Derived LogP parameters (harness/logp.c), a section of their own. */
static const struct rule logp[] = {
	/* bench                 match                            group                       label  footnote */
	{ "logp.mutex",          "placement=*",                   "LogP: mutex",              "%s",  NULL },
	{ "logp.cond",           "placement=*",                   "LogP: condition variable", "%s",  NULL },
};

/* Benchmarks the paper does not have but that we know something about. */
static const struct rule extra[] = {
	/* bench                 match           group            label  footnote */
	{ "create.join",         "",             "",              NULL,  FN_JOIN },
	{ "cond.gap",            "placement=*",  "Condition gap", "%s",  FN_GAP },
	{ "mutex.gap",           "placement=*",  "Mutex gap",     "%s",  FN_GAP },
};

/* Placements from nearest to farthest, with the paper's names. */
static const struct {
	const char *name;
	const char *label;
} placements[] = {
	/* name              label */
	{ "unbound",         "Unbound" },
	{ "same_pu",         "Same CPU" },
	{ "smt",             "Different CPUs (smt)" },
	{ "cross_core",      "Different CPUs (cross_core)" },
	{ "cross_package",   "Different CPUs (cross_package)" },
	{ "cross_numa",      "Different CPUs (cross_numa)" },
};
#define NPLACEMENTS (int)(sizeof placements / sizeof placements[0])

/* A placement's rank (an unknown one after the known ones) and its label. */
static int placement_rank(const char *name, const char **label)
{
	for (int i = 0; i < NPLACEMENTS; i++)
		if (!strcmp(placements[i].name, name)) {
			*label = placements[i].label;
			return i;
		}
	*label = name;
	return NPLACEMENTS;
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

static bool rule_matches(const struct rule *r, const char *bench, const json_t *params,
			 const char **wild_var, const char **wild_val)
{
	if (strcmp(r->bench, bench))
		return false;
	for (const char *t = r->match + strspn(r->match, " "); *t; t += strspn(t, " ")) {
		size_t len = strcspn(t, " ");
		if (!token_matches(t, len, params, wild_var, wild_val))
			return false;
		t += len;
	}
	return true;
}

static void append(char *buf, size_t size, const char *fmt, const char *a, const char *b)
{
	size_t used = strlen(buf);
	if (used < size)
		snprintf(buf + used, size - used, fmt, a, b);
}

/* The row a rule gives: label from its template, unnamed variables after. */
static void row_from_rule(const struct rule *r, int order, const json_t *params,
			  const char *wild_var, const char *wild_val, struct ptb_row *row)
{
	const char *text = wild_val;
	int sub = 0;
	if (wild_var && !strncmp(wild_var, "placement=", 10))
		sub = placement_rank(wild_val, &text);
	row->order = order + sub;
	snprintf(row->group, sizeof row->group, "%s", r->group);
	snprintf(row->label, sizeof row->label, r->label, text ? text : "");
	row->footnote = r->footnote;

	const char *var;
	json_t *v;
	json_object_foreach((json_t *)params, var, v)
		if (!names_var(r->match, var))
			append(row->label, sizeof row->label, ", %s=%s", var,
			       json_is_string(v) ? json_string_value(v) : "?");
}

/* "bench VAR=VALUE ...": a row for a benchmark the paper does not have. */
static void row_by_name(const char *bench, const json_t *params, int order,
			const char *footnote, struct ptb_row *row)
{
	const char *var;
	json_t *v;
	row->order = order;
	row->group[0] = 0;
	snprintf(row->label, sizeof row->label, "%s", bench);
	json_object_foreach((json_t *)params, var, v)
		append(row->label, sizeof row->label, " %s=%s", var,
		       json_is_string(v) ? json_string_value(v) : "?");
	row->footnote = footnote;
}

/* The first matching rule of a table; its index or -1. */
static int lookup(const struct rule *rules, int n, const char *bench, const json_t *params,
		  const char **wild_var, const char **wild_val)
{
	for (int i = 0; i < n; i++) {
		*wild_var = *wild_val = NULL;
		if (rule_matches(&rules[i], bench, params, wild_var, wild_val))
			return i;
	}
	return -1;
}

#define NRULES(t) (int)(sizeof t / sizeof t[0])

void ptb_row_of(const char *bench, const json_t *params, struct ptb_row *row)
{
	const char *wv, *wval;
	int i;
	if (!bench)
		bench = "?";
	if (!json_is_object(params))
		params = NULL;
	if ((i = lookup(paper, NRULES(paper), bench, params, &wv, &wval)) >= 0)
		row_from_rule(&paper[i], PTB_ROW_PAPER + 10 * i, params, wv, wval, row);
	else if ((i = lookup(logp, NRULES(logp), bench, params, &wv, &wval)) >= 0)
		row_from_rule(&logp[i], PTB_ROW_LOGP + 10 * i, params, wv, wval, row);
	else if ((i = lookup(extra, NRULES(extra), bench, params, &wv, &wval)) >= 0 &&
		 extra[i].label)
		row_from_rule(&extra[i], PTB_ROW_EXTRA + 10 * i, params, wv, wval, row);
	else if (i >= 0)
		row_by_name(bench, params, PTB_ROW_EXTRA + 10 * i, extra[i].footnote, row);
	else
		row_by_name(bench, params, PTB_ROW_UNKNOWN, NULL, row);
}

int ptb_row_cmp(const struct ptb_row *a, const struct ptb_row *b)
{
	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	int c = strverscmp(a->group, b->group);
	return c ? c : strverscmp(a->label, b->label);
}
