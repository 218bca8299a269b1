/* SPDX-License-Identifier: MIT */
/*
 * `ptbench report FILE [--format FMT] [--all-rows] [--verbose]`: print a saved run
 * again; `ptbench report FILE... --format html [--no-plots] [--trace TRACE
 * [--cpus N]] [--profile PROFILE]`: the page of one or more runs
 * (tools/page.h), with the flow and parallelism plots of a trace's replay
 * on N CPUs (cli/trace-flow.h), and a profile's objects and plot
 * (tools/profile.h) -- a profile alone makes a page without runs.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "cli/runs.h"
#include "cli/trace-flow.h"
#include "record/model.h"
#include "report/report.h"
#include "record/cluster.h"
#include "tools/cluster.h"
#include "tools/page.h"
#include "tools/profile.h"

static const char usage[] =
	"usage: ptbench report FILE [--format table|csv|json|gbench] [--all-rows] [--verbose]\n"
	"       ptbench report FILE... --format html [--all-rows] [--verbose] [--no-plots]\n"
	"                                            [--trace TRACE [--cpus N]] [--profile PROFILE]\n"
	"--trace TRACE: the page also draws the flow and parallelism plots of a trace of\n"
	"'ptbench record' replayed on N CPUs (default 2).\n"
	"--profile PROFILE: the page also shows a profile of 'ptbench profile --format json',\n"
	"a table per object and its plot (without FILE: the profile alone).\n";

static const struct option report_options[] = {
	/* name       has_arg            flag  val */
	{ "format",   required_argument, NULL, 'f' },
	{ "all-rows", no_argument,       NULL, 'a' },
	{ "no-plots", no_argument,       NULL, 'p' },
	{ "verbose",  no_argument,       NULL, 'v' },
	{ "trace",    required_argument, NULL, 't' },
	{ "cpus",     required_argument, NULL, 'c' },
	{ "profile",  required_argument, NULL, 'P' },
	{ "help",     no_argument,       NULL, 'h' },
	{ NULL,       0,                 NULL, 0 }
};

struct report_args {
	int fmt;                /* a run's format; -1 for the page */
	bool all_rows, no_plots, verbose;
	const char *trace, *profile;
	int cpus;               /* 0: not given */
};

static int report_option(void *ctx, int c, const char *arg)
{
	struct report_args *a = ctx;
	if (c == 'f' && strcmp(arg, "html") && (a->fmt = ptb_format_from_name(arg)) < 0)
		return ptb_bad_input("report", "--format: '%s' is not one of table, csv, json, "
				     "gbench, html", arg);
	if (c == 'f' && !strcmp(arg, "html"))
		a->fmt = -1;
	a->all_rows |= c == 'a';
	a->no_plots |= c == 'p';
	a->verbose |= c == 'v';
	if (c == 't')
		a->trace = arg;
	if (c == 'P')
		a->profile = arg;
	if (c == 'c')
		return ptb_parse_int("report", "--cpus", arg, 1, 4096, &a->cpus);
	return 0;
}

static int page(int argc, char **argv, int first, const struct report_args *a)
{
	struct ptb_page_opts o = { PTB_STAT_MEAN, a->all_rows, !a->no_plots, a->verbose, NULL,
				   NULL };
	struct ptb_runfile **runs = NULL;
	struct ptb_flow flow;
	char err[512];
	if (a->cpus && !a->trace)
		return ptb_bad_input("report", "--cpus: only with --trace");
	if (a->trace && !ptb_is_trace_file(a->trace))
		return ptb_bad_input("report", "--trace %s: not a trace of 'ptbench record'", a->trace);
	if (a->trace && ptb_trace_flow(a->trace, a->cpus ? a->cpus : 2, &flow, err, sizeof err))
		return ptb_bad_input("report", "--trace %s", err);
	o.flow = a->trace ? &flow : NULL;
	json_t *profile = a->profile ? ptb_profile_load(a->profile, err, sizeof err) : NULL;
	json_t *cluster = NULL;
	int n = 0, rc = a->profile && !profile ? ptb_bad_input("report", "--profile %s", err) : 0;
	o.profile = profile;
	if (!rc && first < argc)
		rc = ptb_runs_cluster("report", argc, argv, first, &cluster);
	if (rc == 1) {
		rc = ptb_cluster_print(stdout, cluster, PTB_GRID_HTML) < 0
			? ptb_bad_input("report", "out of memory") : 0;
		json_decref(cluster);
	} else if (!rc && (first >= argc ||
			   !(rc = ptb_runs_load("report", argc, argv, first, &runs, &n)))) {
		if (ptb_page_report(stdout, runs, n, &o) < 0)
			rc = ptb_bad_input("report", "out of memory");
		ptb_runs_free(runs, n);
	}
	if (a->trace)
		ptb_flow_free(&flow);
	json_decref(profile);
	return rc;
}

/* A cluster job's file: its table (text or CSV), or the document itself
 * (json); Google Benchmark's format has no place for nodes. */
static int report_cluster(json_t *doc, int fmt)
{
	int rc = 0;
	if (fmt == PTB_FMT_GBENCH)
		rc = ptb_bad_input("report", "--format gbench: not for a %s file (table, csv, json, "
				   "html)", PTB_CLUSTER_SCHEMA);
	else if (fmt == PTB_FMT_JSON)
		rc = json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER) < 0 ? 2 : 0;
	else if (ptb_cluster_print(stdout, doc, fmt == PTB_FMT_CSV ? PTB_GRID_CSV : PTB_GRID_TEXT) < 0)
		rc = ptb_bad_input("report", "out of memory");
	if (fmt == PTB_FMT_JSON && !rc)
		putchar('\n');
	json_decref(doc);
	return rc;
}

int ptb_cmd_report(int argc, char **argv)
{
	struct report_args a = { PTB_FMT_TABLE, false, false, false, NULL, NULL, 0 };
	int first, rc;
	char err[512];
	rc = ptb_options("report", argc, argv, ":h", report_options, usage, report_option, &a,
			 &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (first >= argc && !(a.fmt < 0 && a.profile))
		return ptb_bad_input("report", "which file? (ptbench report FILE)");
	if (a.fmt < 0)
		return page(argc, argv, first, &a);
	if (first + 1 < argc)
		return ptb_bad_input("report", "unexpected argument '%s' (more than one file "
				     "needs --format html)", argv[first + 1]);
	if (a.no_plots)
		return ptb_bad_input("report", "--no-plots: only with --format html");
	if (a.trace || a.cpus || a.profile)
		return ptb_bad_input("report", "--trace, --cpus and --profile: only with --format html");
	json_t *cluster;
	if ((rc = ptb_runs_cluster("report", argc, argv, first, &cluster)) != 0)
		return rc == 1 ? report_cluster(cluster, a.fmt) : rc;
	struct ptb_runfile *run = ptb_runfile_load(argv[first], err, sizeof err);
	if (!run)
		return ptb_bad_input("report", "%s", err);
	ptb_report_with(stdout, run, a.fmt, &(struct ptb_report_opts){ a.all_rows, a.verbose });
	ptb_runfile_free(run);   /* a failed write is caught in cli.c */
	return 0;
}
