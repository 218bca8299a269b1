/* SPDX-License-Identifier: MIT */
/*
 * `ptbench report FILE [--format FMT] [--all-rows]`: print a saved run
 * again; `ptbench report FILE... --format html [--no-plots]`: the page of
 * one or more runs (tools/page.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "cli/runs.h"
#include "record/model.h"
#include "report/report.h"
#include "tools/page.h"

static const char usage[] =
	"usage: ptbench report FILE [--format table|csv|json|gbench] [--all-rows]\n"
	"       ptbench report FILE... --format html [--all-rows] [--no-plots]\n";

static const struct option report_options[] = {
	/* name       has_arg            flag  val */
	{ "format",   required_argument, NULL, 'f' },
	{ "all-rows", no_argument,       NULL, 'a' },
	{ "no-plots", no_argument,       NULL, 'p' },
	{ "help",     no_argument,       NULL, 'h' },
	{ NULL,       0,                 NULL, 0 }
};

struct report_args {
	int fmt;                /* a run's format; -1 for the page */
	bool all_rows, no_plots;
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
	return 0;
}

static int page(int argc, char **argv, int first, const struct report_args *a)
{
	struct ptb_page_opts o = { PTB_STAT_MEAN, a->all_rows, !a->no_plots };
	struct ptb_runfile **runs;
	int n, rc = ptb_runs_load("report", argc, argv, first, &runs, &n);
	if (rc)
		return rc;
	if (ptb_page_report(stdout, runs, n, &o) < 0)
		rc = ptb_bad_input("report", "out of memory");
	ptb_runs_free(runs, n);
	return rc;
}

int ptb_cmd_report(int argc, char **argv)
{
	struct report_args a = { PTB_FMT_TABLE, false, false };
	int first, rc;
	char err[512];
	rc = ptb_options("report", argc, argv, ":h", report_options, usage, report_option, &a,
			 &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (first >= argc)
		return ptb_bad_input("report", "which file? (ptbench report FILE)");
	if (a.fmt < 0)
		return page(argc, argv, first, &a);
	if (first + 1 < argc)
		return ptb_bad_input("report", "unexpected argument '%s' (more than one file "
				     "needs --format html)", argv[first + 1]);
	if (a.no_plots)
		return ptb_bad_input("report", "--no-plots: only with --format html");
	struct ptb_runfile *run = ptb_runfile_load(argv[first], err, sizeof err);
	if (!run)
		return ptb_bad_input("report", "%s", err);
	ptb_report_with(stdout, run, a.fmt, &(struct ptb_report_opts){ a.all_rows });
	ptb_runfile_free(run);   /* a failed write is caught in cli.c */
	return 0;
}
