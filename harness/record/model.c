/* SPDX-License-Identifier: MIT */
/*
 * The typed result model (see model.h).  A document is validated first
 * (record/validate.c), so every field read here has the type the schema
 * says, and a record's facts are derived in exactly one place:
 * - it has a value when its status is ok or unstable;
 * - it is derived when it names the records it came from ("inputs"), or
 *   is named as a LogP record (files that left the inputs out);
 * - its figure is "value", the median of its trials, with the CI of that
 *   median from the trials ("ci95"); in ptbench/1 files it is "mean", the
 *   paper's statistic of one measurement, with the CI of its timings.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/logp.h"
#include "record/model.h"
#include "record/runfile.h"
#include "record/validate.h"
#include "text/text.h"
#include "text/size.h"

double ptb_jnum(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *ptb_jstr(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

double ptb_param_num(const struct ptb_record *r, const char *var)
{
	return ptb_number_text(ptb_jstr(r->params, var));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A variable a benchmark gained later, at its default value, is left out
 * of the key, so that such a point keeps the key it had in older files. */
static bool keyless(const char *bench, const char *var, const json_t *v)
{
	const struct ptb_bench *b = ptb_bench_find(bench);
	const char *list = b ? b->keyless_defaults : NULL;
	size_t n = strlen(var);
	for (const char *t = list; t && *(t += strspn(t, " ")); t += strcspn(t, " "))
		if (!strncmp(t, var, n) && (t[n] == ' ' || !t[n]))
			for (const struct ptb_param *p = b->params; p && p->name; p++)
				if (!strcmp(p->name, var))
					return json_string_value(v) && p->defaults &&
					       !strcmp(json_string_value(v), p->defaults);
	return false;
}

char *ptb_point_key(const char *bench, const json_t *params)
{
	size_t n = json_object_size(params), len = strlen(bench ? bench : "?") + 1, k = 0;
	const char **keys = calloc(n + 1, sizeof *keys), *var;
	json_t *v;
	char *key;
	if (!keys)
		return NULL;
	json_object_foreach((json_t *)params, var, v) {
		if (keyless(bench, var, v))
			continue;
		keys[k++] = var;
		len += strlen(var) + 2 + strlen(json_string_value(v) ?: "?");
	}
	qsort(keys, k, sizeof *keys, cmp_str);
	if ((key = malloc(len))) {
		strcpy(key, bench ? bench : "?");
		for (size_t i = 0; i < k; i++) {
			strcat(strcat(strcat(key, " "), keys[i]), "=");
			strcat(key, ptb_jstr(params, keys[i]) ?: "?");
		}
	}
	free(keys);
	return key;
}

static enum ptb_status status_of(const char *name)
{
	for (enum ptb_status s = PTB_OK; s <= PTB_ERROR; s++)
		if (name && !strcmp(name, ptb_status_name(s)))
			return s;
	return PTB_ERROR;
}

static double ci_end(const json_t *rec, size_t i)
{
	const json_t *v = json_array_get(json_object_get(rec, "ci95"), i);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* v1: the samples array; v2: the "mean" of every kept trial. */
static int model_samples(struct ptb_record *r, int version)
{
	const json_t *s = json_object_get(r->json, version == 1 ? "samples" : "trials"), *e;
	size_t n = json_array_size(s), i;
	r->samples_are_trials = version > 1;
	if (n == 0)
		return 0;
	if (!(r->samples = ptb_array_realloc(NULL, n, sizeof *r->samples)) ||
	    !(r->iterations = ptb_array_realloc(NULL, n, sizeof *r->iterations)))
		return -1;
	json_array_foreach(s, i, e) {
		const json_t *st = json_object_get(e, "status");
		if (version == 1) {
			r->iterations[r->nsamples] = ptb_jnum(r->json, "iterations");
			r->samples[r->nsamples++] = json_number_value(e);
		} else if (json_is_number(json_object_get(e, "mean")) &&
			   (!strcmp(json_string_value(st), "ok") ||
			    !strcmp(json_string_value(st), "unstable"))) {
			r->iterations[r->nsamples] = ptb_jnum(e, "iterations");
			r->samples[r->nsamples++] = ptb_jnum(e, "mean");
		}
	}
	return 0;
}

static int model_record(struct ptb_record *r, const json_t *rec, int version)
{
	static const json_t *no_params;
	if (!no_params)
		no_params = json_object();
	r->json = rec;
	r->bench = ptb_jstr(rec, "bench");
	r->params = json_object_get(rec, "params") ?: no_params;
	r->status_name = ptb_jstr(rec, "status");
	r->status = status_of(r->status_name);
	r->reason = ptb_jstr(rec, "reason");
	r->has_value = r->status == PTB_OK || r->status == PTB_UNSTABLE;
	r->is_derived = json_is_object(json_object_get(rec, "inputs")) ||
			ptb_logp_mechanism_of(r->bench);
	r->is_published = json_is_string(json_object_get(rec, "source"));
	r->disturbed = r->has_value && json_is_true(json_object_get(rec, "disturbed"));
	r->disturbed_only = r->disturbed && r->status == PTB_UNSTABLE && r->reason &&
			    !strcmp(r->reason, PTB_DISTURBED_REASON);
	r->value = r->has_value ? ptb_jnum(rec, version == 1 ? "mean" : "value") : NAN;
	r->ci_lo = ci_end(rec, 0);
	r->ci_hi = ci_end(rec, 1);
	r->key = ptb_point_key(r->bench, r->params);
	return r->key ? model_samples(r, version) : -1;
}

static int index_record(struct ptb_runfile *run, size_t i)
{
	const char *key = run->rec[i].key;
	if (json_object_get(run->index, key)) {
		if (!run->duplicate)
			run->duplicate = key;
		return 0;
	}
	return json_object_set_new_nocheck(run->index, key, json_integer((json_int_t)i));
}

void ptb_runfile_free(struct ptb_runfile *run)
{
	if (!run)
		return;
	for (size_t i = 0; i < run->n; i++) {
		free(run->rec[i].key);
		free(run->rec[i].samples);
		free(run->rec[i].iterations);
	}
	free(run->rec);
	json_decref(run->index);
	json_decref(run->doc);
	free(run);
}

struct ptb_runfile *ptb_runfile_of(json_t *doc, char *err, size_t errlen)
{
	struct ptb_runfile *run;
	const json_t *results = json_object_get(doc, "results"), *rec;
	size_t i;
	int version = ptb_run_validate(doc, err, errlen);
	if (version < 0)
		return NULL;
	if (!(run = calloc(1, sizeof *run)) ||
	    !(run->rec = calloc(json_array_size(results) + 1, sizeof *run->rec))) {
		free(run);
		ptb_errf(err, errlen, "out of memory");
		return NULL;
	}
	run->doc = json_incref(doc);
	run->status = ptb_jstr(doc, "status");
	run->version = version;
	run->context = json_object_get(doc, "context");
	run->host = ptb_jstr(run->context, "host");
	run->brand = ptb_jstr(json_object_get(run->context, "cpu"), "brand");
	run->date = ptb_jstr(run->context, "date");
	run->index = json_object();
	json_array_foreach(results, i, rec) {
		run->n++;
		if (!run->index || model_record(&run->rec[i], rec, version) < 0 || index_record(run, i) < 0) {
			ptb_runfile_free(run);
			ptb_errf(err, errlen, "out of memory");
			return NULL;
		}
	}
	return run;
}

struct ptb_runfile *ptb_runfile_load(const char *path, char *err, size_t errlen)
{
	char why[400];
	json_t *doc = ptb_run_load(path, err, errlen);
	struct ptb_runfile *run = doc ? ptb_runfile_of(doc, why, sizeof why) : NULL;
	if (doc && !run)
		ptb_errf(err, errlen, "%s: %s", path, why);
	json_decref(doc);
	if (run)
		run->path = path;
	return run;
}

const struct ptb_record *ptb_runfile_find(const struct ptb_runfile *run, const char *key)
{
	const json_t *i = json_object_get(run->index, key);
	return i ? &run->rec[json_integer_value(i)] : NULL;
}
