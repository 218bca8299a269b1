/* SPDX-License-Identifier: MIT */
/*
 * Which benchmarks a run measures and with which values: -b patterns
 * (a name, a family, a glob), the -p assignments each benchmark takes, and
 * the sweeps they give -- all checked before anything runs, so bad input
 * never leaves a file behind.
 */
#include "config.h"

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "engine/assign.h"
#include "run/suite.h"
#include "text/text.h"

/* Hidden (test-only) benchmarks are chosen only by their exact name, so no
 * pattern can pull a deliberately hanging benchmark into a real run. */
static bool bench_matches(const struct ptb_bench *b, const char *pattern)
{
	if (b->absent)
		return false;
	if (b->hidden)
		return strcmp(pattern, b->name) == 0;
	return fnmatch(pattern, b->name, 0) == 0 ||
	       (strncmp(b->name, pattern, strlen(pattern)) == 0 &&
		b->name[strlen(pattern)] == '.');
}

/* --suite NAME: which benchmarks a run without -b measures. */
static const struct { const char *name; int suite; } suites[] = {
	/* name        suite (-1: every one) */
	{ "default",  PTB_SUITE_DEFAULT },
	{ "extended", PTB_SUITE_EXTENDED },
	{ "all",      -1 },
};

static int suite_from_name(const char *name)
{
	for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++)
		if (!strcmp(name, suites[i].name))
			return (int)i;
	return -1;
}

static bool in_suite(const struct ptb_bench *b, int s)
{
	return !b->hidden && !b->absent && (suites[s].suite < 0 || (int)b->suite == suites[s].suite);
}

int ptb_select_benches(const struct ptb_run_opts *o, struct ptb_job *jobs,
			  char *err, size_t errlen)
{
	int n = 0, suite = suite_from_name(o->suite ? o->suite : "default");
	if (suite < 0) {
		ptb_errf(err, errlen, "--suite: '%s' is not one of default, extended, all", o->suite);
		return -1;
	}
	if (o->suite && o->npatterns) {
		ptb_errf(err, errlen, "--suite and -b both choose benchmarks: give one of them");
		return -1;
	}
	for (int i = 0; i < o->npatterns; i++) {
		bool any = false;
		for (int j = 0; j < ptb_registry_count; j++)
			any |= bench_matches(ptb_registry[j], o->patterns[i]);
		if (!any) {
			ptb_errf(err, errlen, "no benchmark matches '%s' (see 'ptbench list')",
				o->patterns[i]);
			return -1;
		}
	}
	for (int j = 0; j < ptb_registry_count && n < PTB_MAX_SELECTED; j++) {
		const struct ptb_bench *b = ptb_registry[j];
		bool chosen = o->npatterns == 0 && in_suite(b, suite);
		for (int i = 0; i < o->npatterns && !chosen; i++)
			chosen = bench_matches(b, o->patterns[i]);
		if (chosen)
			jobs[n++].b = b;
	}
	return n;
}

int ptb_check_inputs(const struct ptb_run_opts *o, struct ptb_job *jobs, int n,
			char *err, size_t errlen)
{
	const struct ptb_bench *sel[PTB_MAX_SELECTED] = { 0 };
	char why[256];
	for (int i = 0; i < n; i++)
		sel[i] = jobs[i].b;
	if (ptb_assign_check(sel, n, o->assign, o->nassign, err, errlen) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		jobs[i].set = ptb_assign_narrow(jobs[i].b, o->assign, o->nassign, why, sizeof why);
		if (!jobs[i].set) {
			fprintf(stderr, "ptbench: skipping %s\n", why);
			jobs[i].b = NULL;
			continue;
		}
		struct ptb_sweep *s = ptb_sweep_new(jobs[i].b,
						    (const char *const *)jobs[i].set->assign,
						    jobs[i].set->n, PTB_SWEEP_POINTS, NULL, err,
						    errlen);
		if (!s)
			return -1;
		ptb_sweep_free(s);
	}
	return 0;
}

struct ptb_sweep *ptb_job_sweep(const struct ptb_job *job)
{
	char err[256];
	return ptb_sweep_new(job->b, (const char *const *)job->set->assign, job->set->n,
			     PTB_SWEEP_POINTS, job->sys, err, sizeof err);
}


json_t *ptb_params_json(const struct ptb_bench *b, const char *const *values)
{
	json_t *o = json_object();
	for (int i = 0; b->params && b->params[i].name && i < PTB_MAX_PARAMS; i++)
		if (values[i])
			json_object_set_new(o, b->params[i].name, json_string(values[i]));
	return o;
}
