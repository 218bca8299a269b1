/* SPDX-License-Identifier: MIT */
/*
 * Google Benchmark's JSON, so that the tools built around it -- its own
 * tools/compare.py, github-action-benchmark, Bencher -- read ptbench runs.
 * Each kept timing of a point is one "iteration" run (a repetition, in
 * Google Benchmark's words), followed by the mean, median and stddev
 * aggregates, as `--benchmark_repetitions=N` prints them.  The point's name
 * is bench/VAR:VALUE/... as Google Benchmark names arguments.
 *
 * ptbench measures elapsed time only, so cpu_time repeats real_time.
 * Points without timings (na, timeout, crashed, error) and the derived
 * LogP records are left out: compare.py takes a geometric mean over every
 * iteration entry and a zero time would spoil it.  Context fields ptbench
 * does not know (a cache's num_sharing, the load average) are omitted
 * rather than guessed.
 */
#include <config.h>

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "record/model.h"
#include "report/report.h"
#include "stats/stats.h"

static void set_num(json_t *o, const char *key, double v)
{
	if (isfinite(v))
		json_object_set_new(o, key, json_real(v));
}

/* A whole number that fits, or NULL: the context is not validated, and a
 * figure like 1e300 must not be converted to an integer. */
static json_t *whole(double v)
{
	return v >= 0 && v < 9007199254740992.0 ? json_integer((json_int_t)v) : NULL;
}

static void set_whole(json_t *o, const char *key, double v)
{
	json_t *w = whole(v);
	if (w)
		json_object_set_new(o, key, w);
}

static json_t *caches(const json_t *cpu)
{
	json_t *out = json_array(), *c;
	size_t i;
	json_array_foreach(json_object_get(cpu, "caches"), i, c) {
		char type[16];
		snprintf(type, sizeof type, "%s", ptb_jstr(c, "type") ? ptb_jstr(c, "type") : "");
		type[0] = (char)toupper((unsigned char)type[0]);
		json_array_append_new(out, json_pack("{s:s, s:o*, s:o*}", "type", type,
			"level", whole(ptb_jnum(c, "level")),
			"size", whole(ptb_jnum(c, "kib") * 1024)));
	}
	return out;
}

static json_t *context(const json_t *ctx)
{
	json_t *o = json_object();
	const json_t *clock = json_object_get(ctx, "clock");
	double pus = ptb_jnum(json_object_get(ctx, "topology"), "pus");
	double hz = ptb_jnum(clock, "hz");
	if (ptb_jstr(ctx, "date"))
		json_object_set_new(o, "date", json_string(ptb_jstr(ctx, "date")));
	json_object_set_new(o, "host_name", json_string(ptb_jstr(ctx, "host") ?: ""));
	json_object_set_new(o, "executable", json_string("ptbench"));
	set_whole(o, "num_cpus", pus);
	/* The TSC ticks at the nominal frequency; other clocks say nothing. */
	const char *source = ptb_jstr(clock, "source");
	if (source && !strcmp(source, "tsc"))
		set_whole(o, "mhz_per_cpu", round(hz / 1e6));
	json_object_set_new(o, "caches", caches(json_object_get(ctx, "cpu")));
	json_object_set_new(o, "library_build_type", json_string("release"));
	return o;
}

/* The fields every run entry of a point starts with. */
static json_t *entry(const char *name, const char *run_name, int family, int instance,
		     const char *run_type, size_t repetitions)
{
	return json_pack("{s:s, s:i, s:i, s:s, s:s, s:I}", "name", name, "family_index", family,
			 "per_family_instance_index", instance, "run_name", run_name,
			 "run_type", run_type, "repetitions", (json_int_t)repetitions);
}

static void times(json_t *e, double iterations, double ns, const char *label)
{
	set_whole(e, "iterations", iterations);
	set_num(e, "real_time", ns);
	set_num(e, "cpu_time", ns);
	json_object_set_new(e, "time_unit", json_string("ns"));
	if (label)
		json_object_set_new(e, "label", json_string(label));
}

/* Google Benchmark's aggregates, over the repetitions: a ptbench/2
 * point's trials, or a ptbench/1 point's timings (whose record holds
 * them already). */
static double stat_mean(const struct ptb_stats *s)   { return s->mean; }
static double stat_median(const struct ptb_stats *s) { return s->median; }
static double stat_sd(const struct ptb_stats *s)     { return s->sd; }

static const struct {
	const char *name;                          /* aggregate_name */
	double (*of)(const struct ptb_stats *s);
	const char *v1_field;
} aggregates[] = {
	/* name       statistic    ptbench/1 field */
	{ "mean",     stat_mean,   "mean" },
	{ "median",   stat_median, "median" },
	{ "stddev",   stat_sd,     "sd" },
};

/* bench/VAR:VALUE/..., whole however long: malloc'd, NULL out of memory. */
static char *point_name(const struct ptb_record *r)
{
	const char *var;
	json_t *v;
	size_t len = strlen(r->bench) + 1;
	json_object_foreach((json_t *)r->params, var, v)
		len += strlen(var) + 2 + strlen(json_string_value(v) ?: "?");
	char *name = malloc(len + 1);
	if (!name)
		return NULL;
	strcpy(name, r->bench);
	json_object_foreach((json_t *)r->params, var, v)
		strcat(strcat(strcat(strcat(name, "/"), var), ":"), json_string_value(v) ?: "?");
	return name;
}

static void point(json_t *out, const struct ptb_record *r, int family, int instance)
{
	const char *label = r->status == PTB_UNSTABLE ? "unstable" : NULL;
	size_t n = (size_t)r->nsamples;
	char *name = point_name(r);
	if (!name)
		return;
	for (size_t i = 0; i < n; i++) {
		json_t *e = entry(name, name, family, instance, "iteration", n);
		json_object_set_new(e, "repetition_index", json_integer((json_int_t)i));
		json_object_set_new(e, "threads", json_integer(1));
		times(e, r->iterations[i], r->samples[i], label);
		json_array_append_new(out, e);
	}
	struct ptb_stats st = { 0 };
	if (n)
		ptb_stats_compute(r->samples, (int)n, &st);
	for (size_t a = 0; a < sizeof aggregates / sizeof *aggregates; a++) {
		char *aname;
		if (asprintf(&aname, "%s_%s", name, aggregates[a].name) < 0)
			break;
		json_t *e = entry(aname, name, family, instance, "aggregate", n);
		free(aname);
		json_object_set_new(e, "threads", json_integer(1));
		json_object_set_new(e, "aggregate_name", json_string(aggregates[a].name));
		json_object_set_new(e, "aggregate_unit", json_string("time"));
		/* Google Benchmark counts an aggregate's repetitions as its iterations. */
		times(e, (double)n, !r->samples_are_trials ? ptb_jnum(r->json, aggregates[a].v1_field)
				    : n ? aggregates[a].of(&st) : NAN, label);
		json_array_append_new(out, e);
	}
	free(name);
}

/* Families are benchmarks, numbered in order of first appearance; a
 * family's instances are its points.  The index keeps a file of many
 * benchmarks linear. */
struct families {
	json_t *index;          /* bench -> family number */
	int *instances;
	int n;
};

static int family_of(struct families *f, const char *bench)
{
	const json_t *known = json_object_get(f->index, bench);
	if (known)
		return (int)json_integer_value(known);
	json_object_set_new(f->index, bench, json_integer(f->n));
	f->instances[f->n] = 0;
	return f->n++;
}

void ptb_report_gbench(FILE *out, const struct ptb_runfile *run,
		       const struct ptb_report_opts *o)
{
	(void)o;   /* every record, whatever the options */
	size_t n = run->n;
	struct families f = { json_object(), calloc(n + 1, sizeof *f.instances), 0 };
	json_t *doc = json_object(), *list = json_array();
	json_object_set_new(doc, "context", context(run->context));
	for (size_t i = 0; i < n; i++) {
		const struct ptb_record *r = &run->rec[i];
		if (!r->has_value || r->is_derived || !f.index || !f.instances)
			continue;
		int family = family_of(&f, r->bench);
		point(list, r, family, f.instances[family]++);
	}
	json_object_set_new(doc, "benchmarks", list);
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
	json_decref(f.index);
	free(f.instances);
}
