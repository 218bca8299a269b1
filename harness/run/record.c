/* SPDX-License-Identifier: MIT */
/*
 * The result record of a measured point: its variables, status and
 * reason, the measurement's statistics and samples, where its threads were
 * bound and the figures the benchmark noted.  Built by the process that
 * measured the point and sent to the runner as one JSON line.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "record/model.h"
#include "run/disturb.h"
#include "run/record.h"
#include "stats/layout.h"
#include "stats/stats.h"
#include "stats/trials.h"
#include "text/size.h"
#include "text/text.h"

/* JSON has no NaN or infinity: a statistic that is undefined is null. */
static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *text(const char *s)
{
	json_t *j = s && *s ? json_string(s) : NULL;
	return j ? j : json_null();
}

static json_t *record_head(const char *bench, json_t *params, enum ptb_status status,
			   const char *reason)
{
	json_t *r = json_object();
	json_object_set_new(r, "bench", text(bench));
	json_object_set_new(r, "params", params ? params : json_object());
	json_object_set_new(r, "status", text(ptb_status_name(status)));
	json_object_set_new(r, "reason", text(reason));
	return r;
}

static json_t *point_params(const struct ptb_point *p)
{
	json_t *o = json_object();
	for (int i = 0; i < PTB_MAX_PARAMS && p->bench->params && p->bench->params[i].name; i++)
		if (p->value[i])
			json_object_set_new(o, p->bench->params[i].name, text(p->value[i]));
	return o;
}

static json_t *binding(const struct ptb_point *p)
{
	json_t *clients = json_array();
	int n = p->nclient_bindings < PTB_MAX_CLIENTS ? p->nclient_bindings : PTB_MAX_CLIENTS;
	for (int i = 0; i < n; i++)
		json_array_append_new(clients, text(p->binding_client[i]));
	return json_pack("{s:s, s:o}", "main", p->binding_main, "clients", clients);
}

static json_t *notes(const struct ptb_point *p)
{
	json_t *o = json_object();
	int n = p->nnotes < PTB_MAX_NOTES ? p->nnotes : PTB_MAX_NOTES;
	for (int i = 0; i < n; i++)
		if (p->note_key[i])
			json_object_set_new(o, p->note_key[i], p->note_text[i] ?
					    json_string(p->note_text[i]) : num(p->note_val[i]));
	return o;
}

static void add_measurement(json_t *r, const struct ptb_point *p,
			    const struct ptb_measurement *m, enum ptb_stop_rule rule)
{
	const struct ptb_stats *s = &m->stats;
	json_object_set_new(r, "iterations", json_integer((json_int_t)m->iterations));
	json_object_set_new(r, "timings", json_integer(m->timings));
	json_object_set_new(r, "stop", text(ptb_stop_why_name(m->stop, rule)));
	json_object_set_new(r, "mean", num(s->mean));
	json_object_set_new(r, "sd", num(s->sd));
	json_object_set_new(r, "cv_pct", num(s->cv_pct));
	json_object_set_new(r, "median", num(s->median));
	json_object_set_new(r, "ci95", json_pack("[o, o]", num(s->ci_lo), num(s->ci_hi)));
	json_object_set_new(r, "min", num(s->min));
	json_object_set_new(r, "max", num(s->max));
	json_object_set_new(r, "outliers", json_integer(s->outliers));
	json_object_set_new(r, "binding", binding(p));
	if (p->nnotes > 0)
		json_object_set_new(r, "notes", notes(p));
	json_t *samples = json_array();
	for (int i = 0; m->samples && i < m->timings; i++)
		json_array_append_new(samples, num(m->samples[i]));
	json_object_set_new(r, "samples", samples);
}

json_t *ptb_result_json(const struct ptb_point *p, enum ptb_status status,
			const char *reason, const struct ptb_measurement *m,
			enum ptb_stop_rule rule)
{
	json_t *r = record_head(p->bench->name, point_params(p), status, reason);
	json_object_set_new(r, "unit", json_string("ns"));
	json_object_set_new(r, "per", text(p->bench->per));
	if (m)
		add_measurement(r, p, m, rule);
	else if (p->nnotes > 0)
		json_object_set_new(r, "notes", notes(p));
	return r;
}

json_t *ptb_result_json_bare(const char *bench, json_t *params, enum ptb_status status,
			     const char *reason)
{
	return record_head(bench, params, status, reason);
}


/* ---- a point's record from its trials (schema ptbench/2) ----------------- */

void ptb_trial_trim(json_t *trial, int round)
{
	static const char *const point_fields[] = { "bench", "params", "unit", "per" };
	for (size_t i = 0; i < sizeof point_fields / sizeof *point_fields; i++)
		json_object_del(trial, point_fields[i]);
	json_object_set_new(trial, "round", json_integer(round));
}

json_t *ptb_lost_trial(enum ptb_status status, const char *why, int round)
{
	return json_pack("{s:s, s:s, s:i}", "status", ptb_status_name(status), "reason", why,
			 "round", round);
}

double ptb_record_value(const json_t *rec)
{
	const char *st = json_string_value(json_object_get(rec, "status"));
	if (!st || (strcmp(st, "ok") && strcmp(st, "unstable")))
		return NAN;
	return json_number_value(json_object_get(rec, "value"));
}

/* The kept trial whose estimate is nearest the point's value: its notes
 * and binding speak for the point. */
static const json_t *typical_trial(const json_t *trials, double value)
{
	const json_t *best = NULL, *t;
	double best_d = INFINITY;
	size_t i;
	json_array_foreach(trials, i, t) {
		const json_t *m = json_object_get(t, "mean");
		if (json_is_number(m) && fabs(json_number_value(m) - value) < best_d) {
			best_d = fabs(json_number_value(m) - value);
			best = t;
		}
	}
	return best;
}

/* Trials that fall into separate groups have no one figure: the record
 * lists the groups, and says so. */
static void add_modes(json_t *r, const struct ptb_trials_summary *s, char *reason, size_t len)
{
	json_t *modes = json_array();
	snprintf(reason, len, "the trials fall into %d modes:", s->nmodes);
	for (int i = 0; i < s->nmodes; i++) {
		json_array_append_new(modes, json_pack("{s:f, s:i}", "value", s->modes[i].value,
						       "trials", s->modes[i].n));
		ptb_appendf(reason, len, "%s %.4g ns (%d of %d)", i ? "," : "", s->modes[i].value,
			    s->modes[i].n, s->n);
	}
	ptb_appendf(reason, len, "; the value is the trials' 20 %% trimmed mean, the cost "
		    "averaged over the modes");
	json_object_set_new(r, "modes", modes);
}

static void add_estimate(json_t *r, const struct ptb_trials_summary *s, const char *stop)
{
	json_object_set_new(r, "value", num(s->value));
	json_object_set_new(r, "ci95", json_pack("[o, o]", num(s->ci_lo), num(s->ci_hi)));
	json_object_set_new(r, "ci_level", num(s->coverage));
	json_object_set_new(r, "ci_halfwidth_pct", num(s->halfwidth_pct));
	json_object_set_new(r, "ci95_trials", json_pack("[o, o]", num(s->trials_lo),
							num(s->trials_hi)));
	json_object_set_new(r, "drift_pct", num(s->drift_pct));
	json_object_set_new(r, "ntrials", json_integer(s->n));
	json_object_set_new(r, "stop", text(stop));
}

static void unstable_reason(char *buf, size_t len, const struct ptb_trials_summary *s,
			    const char *stop, double target_pct)
{
	static const struct { const char *stop, *why; } whys[] = {
		{ "budget",     "its share of the time was spent" },
		{ "drift",      "the run's drift alone exceeded it and the trials alone met it" },
		{ "trials",     "--trials was reached" },
		{ "max_trials", "the most trials a point gets were run" },
	};
	const char *why = "it stopped";
	for (size_t i = 0; i < sizeof whys / sizeof *whys; i++)
		if (!strcmp(stop, whys[i].stop))
			why = whys[i].why;
	snprintf(buf, len, "the CI is +-%.1f %% of the value, wider than the +-%g %% target, "
		 "when %s after %d trials", s->halfwidth_pct, target_pct, why, s->n);
}

/* The split of the kept trials' spread into layouts' and the rest's
 * (stats/layout.h), with each code layout's median: a record of how much
 * where the compiler put the loop moves this point. */
static json_t *layout_json(const json_t *trials)
{
	size_t cap = json_array_size(trials), i;
	double *est = ptb_array_realloc(NULL, cap + 1, sizeof *est);
	double *x = ptb_array_realloc(NULL, cap + 1, sizeof *x);
	int *group = ptb_array_realloc(NULL, cap + 1, sizeof *group), n = 0;
	const json_t *t;
	json_t *out = NULL;
	json_array_foreach(trials, i, t) {
		const json_t *m = json_object_get(t, "mean");
		const json_t *code = json_object_get(json_object_get(t, "layout"), "code");
		json_int_t k = json_integer_value(code);
		if (est && x && group && json_is_number(m) && json_number_value(m) > 0 &&
		    json_is_integer(code) && k >= 0 && k < PTB_LAYOUT_COUNT) {
			est[n] = json_number_value(m);
			group[n++] = (int)k;
		}
	}
	if (n > 0) {
		struct ptb_layout_split sp;
		ptb_layout_split(est, group, n, PTB_LAYOUT_COUNT, &sp);
		json_t *medians = json_array();
		for (int k = 0; k < PTB_LAYOUT_COUNT; k++) {
			int m = 0;
			for (int j = 0; j < n; j++)
				if (group[j] == k)
					x[m++] = est[j];
			json_array_append_new(medians, m ? num(ptb_median_inplace(x, m)) : json_null());
		}
		out = json_pack("{s:i, s:o, s:o, s:o, s:o}", "code_layouts", sp.groups,
				"share", num(sp.share), "between_pct", num(sp.between_pct),
				"within_pct", num(sp.within_pct), "medians", medians);
	}
	free(est);
	free(x);
	free(group);
	return out;
}

json_t *ptb_point_record(const struct ptb_bench *b, json_t *params, json_t *trials,
			 const double *est, int n, const char *stop, double target_pct,
			 double drift_pct, enum ptb_status fail, const char *fail_reason)
{
	struct ptb_trials_summary s;
	char reason[512] = "";
	enum ptb_status st = fail;
	ptb_trials_summarize(est, n, &s);
	ptb_trials_widen(&s, drift_pct);
	if (fail == PTB_OK && n == 0) {
		st = PTB_ERROR;
		snprintf(reason, sizeof reason, "%s", *fail_reason ? fail_reason : "no trial finished");
	} else if (fail != PTB_OK) {
		snprintf(reason, sizeof reason, "%s", fail_reason);
	} else {
		st = s.halfwidth_pct <= target_pct && s.coverage >= 0.95 && s.nmodes == 1
			? PTB_OK : PTB_UNSTABLE;
		if (!strcmp(stop, "interrupted"))
			snprintf(reason, sizeof reason, "%s", fail_reason);
		else if (s.coverage < 0.95)
			snprintf(reason, sizeof reason, "%d trials give a %.1f %% interval, not 95 %%",
				 s.n, 100 * s.coverage);
		else if (st == PTB_UNSTABLE)
			unstable_reason(reason, sizeof reason, &s, stop, target_pct);
	}
	json_t *r = record_head(b->name, params, st, reason);
	json_object_set_new(r, "unit", json_string("ns"));
	json_object_set_new(r, "per", text(b->per));
	if (n > 0 && fail == PTB_OK) {
		add_estimate(r, &s, stop);
		if (s.nmodes > 1 && strcmp(stop, "interrupted")) {
			add_modes(r, &s, reason, sizeof reason);
			json_object_set_new(r, "reason", json_string(reason));
		}
		const json_t *typical = typical_trial(trials, s.value);
		json_t *v;
		if ((v = layout_json(trials)))
			json_object_set_new(r, "layout", v);
		if (typical && (v = json_object_get(typical, "binding")))
			json_object_set(r, "binding", v);
		if (typical && (v = json_object_get(typical, "notes")))
			json_object_set(r, "notes", v);
	} else if (fail == PTB_NA || fail == PTB_ERROR) {
		/* A benchmark's own notes (what it found missing) stay visible. */
		json_t *first = json_array_get(trials, 0), *v;
		if (first && (v = json_object_get(first, "notes")))
			json_object_set(r, "notes", v);
	}
	/* A figure taken while others used the point's PUs is what the
	 * benchmark got, not its cost: never ok (docs/design.md section 13). */
	bool disturbed = n > 0 && fail == PTB_OK && ptb_point_disturbance(r, trials);
	if (disturbed && st == PTB_OK) {
		json_object_set_new(r, "status", text(ptb_status_name(PTB_UNSTABLE)));
		json_object_set_new(r, "reason", json_string(PTB_DISTURBED_REASON));
	}
	json_object_set_new(r, "trials", trials);
	return r;
}
