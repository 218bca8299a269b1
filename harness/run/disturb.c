/* SPDX-License-Identifier: MIT */
/*
 * A trial's and a point's disturbance (see disturb.h): the samples come
 * from platform/load.h, the verdict from stats/disturb.h; this file turns
 * them into the records' fields and back.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record/model.h"
#include "run/disturb.h"
#include "stats/disturb.h"

void ptb_trial_load_start(struct ptb_trial_load *tl, const struct ptb_point *p)
{
	memset(tl, 0, sizeof *tl);
	bool ok = ptb_pu_set_add_list(&tl->pus, p->binding_main) == 0;
	for (int i = 0; ok && i < p->nclient_bindings && i < PTB_MAX_CLIENTS; i++)
		ok = ptb_pu_set_add_list(&tl->pus, p->binding_client[i]) == 0;
	tl->known = ok && ptb_load_sample(&tl->start, &tl->pus, NULL) == 0;
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* true, false, or null: too little PU time to tell */
static json_t *verdict(int disturbed)
{
	return disturbed < 0 ? json_null() : json_boolean(disturbed);
}

static json_t *evidence_json(const struct ptb_disturbance *d)
{
	json_t *o = json_object();
	json_object_set_new(o, "windows", json_integer(d->windows));
	json_object_set_new(o, "window_s", num(d->window_s));
	json_object_set_new(o, "capacity_s", num(d->capacity_s));
	json_object_set_new(o, "readings", json_integer(d->readings));
	json_object_set_new(o, "busy_s", num(d->busy_s));
	json_object_set_new(o, "own_cpu_s", num(d->own_cpu_s));
	json_object_set_new(o, "other_cpu_s", num(d->other_cpu_s));
	json_object_set_new(o, "other_share", num(d->other_share));
	json_object_set_new(o, "steal_s", num(d->steal_s));
	json_object_set_new(o, "steal_share", num(d->steal_share));
	json_object_set_new(o, "preempted", json_integer(d->preempted));
	json_object_set_new(o, "preempted_per_s", num(d->preempted_per_s));
	json_object_set_new(o, "run_queue", json_integer(d->run_queue));
	json_object_set_new(o, "tick_s", num(d->tick_s));
	return o;
}

void ptb_trial_load_end(const struct ptb_trial_load *tl, json_t *rec)
{
	struct ptb_load_sample end;
	struct ptb_disturbance d;
	const struct ptb_load_sample *a = &tl->start;
	if (!tl->known || ptb_load_sample(&end, &tl->pus, NULL) < 0 || end.npus != a->npus) {
		json_object_set_new(rec, "disturbed", json_null());
		return;
	}
	/* procs_running counts the sampling thread itself. */
	int rq = (a->run_queue > end.run_queue ? a->run_queue : end.run_queue) - 1;
	ptb_disturbance_window(&d, end.wall_s - a->wall_s, a->npus, end.idle_s - a->idle_s,
			       end.steal_s - a->steal_s, end.own_cpu_s - a->own_cpu_s,
			       end.preempted - a->preempted, rq > 0 ? rq : 0, a->tick_s);
	json_object_set_new(rec, "disturbed", verdict(d.disturbed));
	json_object_set_new(rec, "disturbance", evidence_json(&d));
}

static double field(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : 0;
}

/* A window's evidence read back from a trial record. */
static void evidence_of(const json_t *o, struct ptb_disturbance *d)
{
	memset(d, 0, sizeof *d);
	d->windows = (int)field(o, "windows");
	d->window_s = field(o, "window_s");
	d->capacity_s = field(o, "capacity_s");
	d->readings = (int)field(o, "readings");
	d->busy_s = field(o, "busy_s");
	d->own_cpu_s = field(o, "own_cpu_s");
	d->steal_s = field(o, "steal_s");
	d->preempted = (long)field(o, "preempted");
	d->run_queue = (int)field(o, "run_queue");
	d->tick_s = field(o, "tick_s");
}

/* At least half the trials disturbed -- then the median is, or leans on,
 * a disturbed one: those judged alone, and those too short to judge alone
 * judged together.  1 yes, 0 no, -1 cannot tell. */
static int most_disturbed(int yes, int no, int unsure, const struct ptb_disturbance *short_ones,
			  int *counted)
{
	int n = yes + no + unsure;
	if (unsure > 0 && short_ones->disturbed >= 0) {
		yes += short_ones->disturbed ? unsure : 0;
		unsure = 0;
	}
	*counted = yes;
	return 2 * yes >= n ? 1 : 2 * (yes + unsure) >= n ? -1 : 0;
}

bool ptb_point_disturbance(json_t *rec, const json_t *trials)
{
	struct ptb_disturbance pool = { 0 }, short_ones = { 0 }, d;
	int yes = 0, no = 0, unsure = 0, counted;
	const json_t *t;
	size_t i;
	json_array_foreach(trials, i, t) {
		const json_t *o = json_object_get(t, "disturbance"), *v;
		if (!json_is_object(o))
			continue;
		evidence_of(o, &d);
		ptb_disturbance_add(&pool, &d);
		v = json_object_get(t, "disturbed");
		if (json_is_true(v)) {
			yes++;
		} else if (json_is_false(v)) {
			no++;
		} else {
			unsure++;
			ptb_disturbance_add(&short_ones, &d);
		}
	}
	if (pool.windows == 0) {
		json_object_set_new(rec, "disturbed", json_null());
		return false;
	}
	int verdict_ = most_disturbed(yes, no, unsure, &short_ones, &counted);
	json_t *o = evidence_json(&pool);
	json_object_set_new(o, "disturbed_trials", json_integer(counted));
	json_object_set_new(rec, "disturbed", verdict(verdict_));
	json_object_set_new(rec, "disturbance", o);
	return verdict_ == 1;
}

void ptb_run_disturbance_warning(json_t *run)
{
	json_t *warnings = json_object_get(json_object_get(run, "context"), "warnings");
	const json_t *r;
	int measured = 0, disturbed = 0;
	char text[160];
	size_t i;
	json_array_foreach(json_object_get(run, "results"), i, r) {
		const json_t *v = json_object_get(r, "disturbed");
		measured += v != NULL;
		disturbed += json_is_true(v);
	}
	if (disturbed == 0 || !json_is_array(warnings))
		return;
	snprintf(text, sizeof text, "disturbed: %d of %d points measured while other processes "
		 "used their PUs (values marked " PTB_DISTURBED_MARK ")", disturbed, measured);
	json_array_append_new(warnings, json_string(text));
}
