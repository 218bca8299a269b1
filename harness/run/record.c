/* SPDX-License-Identifier: MIT */
/*
 * The result record of a measured point: its variables, status and
 * reason, the measurement's statistics and samples, where its threads were
 * bound and the figures the benchmark noted.  Built by the process that
 * measured the point and sent to the runner as one JSON line.
 */
#include <config.h>

#include <math.h>

#include "run/record.h"

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

